/* SPDX-License-Identifier: MIT */
/*
 * The builder for DML_OPERATOR_GEMM (CASE-FORMAT version 3): inputs ATensor, BTensor, the
 * optional CTensor (absent: a NULL descriptor) and OutputTensor (a description without data:
 * strides, or a shape the operator must refuse); attrs TransA, TransB
 * ("DML_MATRIX_TRANSFORM_NONE", "DML_MATRIX_TRANSFORM_TRANSPOSE", or a raw number: absent NONE),
 * Alpha and Beta (numbers: absent 1, ONNX Gemm's defaults) and FusedActivation. The output's
 * shape is inputs.OutputTensor's, else the expected output's, else {A's batch..., M, N}.
 * Default tolerance on FLOAT32 and FLOAT16 outputs (reference/precision.md): 2K + 2 ULP (K the
 * inner dimension; +1 for Alpha, +1 for C), plus a fused activation's ULPs; a case's own
 * tolerance (conformance/gen/gemm.py writes one per case) replaces it.
 */
#include <string.h>

#include "runner.h"

static const char *const transforms[] = {"DML_MATRIX_TRANSFORM_NONE",
                                         "DML_MATRIX_TRANSFORM_TRANSPOSE"};

static int attr_transform(rt_build *b, const char *attr, DML_MATRIX_TRANSFORM *out)
{
    const cJSON *v = rt_attr(b, attr);
    *out = DML_MATRIX_TRANSFORM_NONE;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v)) {
        if (!rt_json_integral(v, -2147483648.0, 2147483647.0))
            return rt_fail(b, "attrs.%s must be an integer or a DML_MATRIX_TRANSFORM name", attr);
        *out = (DML_MATRIX_TRANSFORM)v->valueint;
        return 0;
    }
    for (unsigned i = 0; i < 2; ++i)
        if (cJSON_IsString(v) && strcmp(v->valuestring, transforms[i]) == 0) {
            *out = (DML_MATRIX_TRANSFORM)i;
            return 0;
        }
    return rt_fail(b, "attrs.%s must be DML_MATRIX_TRANSFORM_NONE or _TRANSPOSE", attr);
}

static int attr_float_or(rt_build *b, const char *name, FLOAT def, FLOAT *out)
{
    *out = def;
    return rt_attr(b, name) ? rt_attr_float(b, name, b->c->attrs, out) : 0;
}

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* The output: as described, as expected, or {A's batch..., M, N} of A's type. */
static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *a, const rt_tensor *bt,
                                          DML_MATRIX_TRANSFORM ta, DML_MATRIX_TRANSFORM tb)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    rt_tensor *t;
    if (src != NULL) {
        t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    } else {
        if (a->rank < 2 || bt->rank != a->rank) {
            rt_fail(b, "the output's shape cannot be inferred: give inputs.OutputTensor");
            return NULL;
        }
        UINT sizes[RT_MAX_RANK];
        unsigned r = a->rank;
        memcpy(sizes, a->sizes, r * sizeof *sizes);
        sizes[r - 2] = ta ? a->sizes[r - 1] : a->sizes[r - 2];
        sizes[r - 1] = tb ? bt->sizes[r - 2] : bt->sizes[r - 1];
        t = rt_add_output(b, "OutputTensor", a->type, r, sizes, NULL);
    }
    return t ? &t->desc : NULL;
}

static int build_gemm(rt_build *b)
{
    static const char *const inputs[] = {"ATensor", "BTensor", "CTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"TransA", "TransB",          "Alpha",
                                        "Beta",   "FusedActivation", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_GEMM_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (attr_transform(b, "TransA", &d->TransA) || attr_transform(b, "TransB", &d->TransB) ||
        attr_float_or(b, "Alpha", 1.0f, &d->Alpha) || attr_float_or(b, "Beta", 1.0f, &d->Beta))
        return -1;
    const rt_tensor *a = bind_data(b, "ATensor");
    const rt_tensor *bt = a ? bind_data(b, "BTensor") : NULL;
    if (a == NULL || bt == NULL)
        return -1;
    d->ATensor = &a->desc;
    d->BTensor = &bt->desc;
    if (rt_input(b, "CTensor") == NULL) {
        if (rt_bind_input(b, NULL))
            return -1;
    } else {
        const rt_tensor *c = bind_data(b, "CTensor");
        if (c == NULL)
            return -1;
        d->CTensor = &c->desc;
    }
    if ((d->OutputTensor = bind_output(b, a, bt, d->TransA, d->TransB)) == NULL)
        return -1;
    DML_OPERATOR_DESC *fused;
    unsigned act_ulps;
    double act_abs;
    if (rt_fused_activation(b, &fused, &act_ulps, &act_abs))
        return -1;
    d->FusedActivation = fused;
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint64_t k = 0;
        if (a->rank >= 2)
            k = d->TransA ? a->sizes[a->rank - 2] : a->sizes[a->rank - 1];
        b->ulp_tolerance = (unsigned)(2 * k + 2 + act_ulps);
        b->abs_tolerance = act_abs;
    }
    b->desc.Type = DML_OPERATOR_GEMM;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_gemm[] = {
    {"DML_OPERATOR_GEMM", build_gemm},
    {NULL, NULL},
};
