/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's SCATTER_ELEMENTS (`Axis`; also under its older name
 * DML_OPERATOR_SCATTER, the same value) and SCATTER_ND (`InputDimensionCount`,
 * `IndicesDimensionCount`). Tensors are the descriptors' members, bound in their order:
 * InputTensor, IndicesTensor, UpdatesTensor; the output is OutputTensor, described under
 * `inputs` (type, shape, optional strides, no data) or else as expected, or else (an expected
 * error) like the input, the pages' rule. Results are exact (elements are moved, not computed).
 */
#include "runner.h"

static const char *const inputs[] = {"InputTensor", "IndicesTensor", "UpdatesTensor",
                                     "OutputTensor", NULL};
static const char *const outputs[] = {"OutputTensor", NULL};

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* The three inputs bound and the output described; NULL output on a malformed case. */
static const DML_TENSOR_DESC *bind_all(rt_build *b, const DML_TENSOR_DESC **in,
                                       const DML_TENSOR_DESC **idx, const DML_TENSOR_DESC **upd)
{
    const rt_tensor *t_in = bind_data(b, "InputTensor");
    const rt_tensor *t_idx = t_in ? bind_data(b, "IndicesTensor") : NULL;
    const rt_tensor *t_upd = t_idx ? bind_data(b, "UpdatesTensor") : NULL;
    if (t_upd == NULL)
        return NULL;
    *in = &t_in->desc;
    *idx = &t_idx->desc;
    *upd = &t_upd->desc;
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL)
        src = t_in;
    rt_tensor *out = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                   src->has_strides ? src->strides : NULL);
    return out ? &out->desc : NULL;
}

static int build_scatter_elements(rt_build *b)
{
    static const char *const attrs[] = {"Axis", NULL};
    DML_SCATTER_ELEMENTS_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, attrs, outputs) || rt_attr_uint(b, "Axis", 0, &d->Axis))
        return -1;
    if ((d->OutputTensor = bind_all(b, &d->InputTensor, &d->IndicesTensor, &d->UpdatesTensor)) ==
        NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_SCATTER_ELEMENTS;
    b->desc.Desc = d;
    return 0;
}

static int build_scatter_nd(rt_build *b)
{
    static const char *const attrs[] = {"InputDimensionCount", "IndicesDimensionCount", NULL};
    DML_SCATTER_ND_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, attrs, outputs) ||
        rt_attr_uint(b, "InputDimensionCount", 0, &d->InputDimensionCount) ||
        rt_attr_uint(b, "IndicesDimensionCount", 0, &d->IndicesDimensionCount))
        return -1;
    if ((d->OutputTensor = bind_all(b, &d->InputTensor, &d->IndicesTensor, &d->UpdatesTensor)) ==
        NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_SCATTER_ND;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_scatter[] = {
    {"DML_OPERATOR_SCATTER_ELEMENTS", build_scatter_elements},
    {"DML_OPERATOR_SCATTER", build_scatter_elements},
    {"DML_OPERATOR_SCATTER_ND", build_scatter_nd},
    {NULL, NULL},
};
