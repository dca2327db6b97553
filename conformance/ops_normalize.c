/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's normalising operators (CASE-FORMAT version 3): ACTIVATION_SOFTMAX,
 * LOG_SOFTMAX, HARDMAX (InputTensor, OutputTensor) and their *1 versions (attrs Axes),
 * MEAN_VARIANCE_NORMALIZATION (CrossChannel, NormalizeVariance, Epsilon), _1 (Axes,
 * NormalizeVariance, Epsilon), _2 (Axes, UseMean, UseVariance, Epsilon), each with optional
 * ScaleTensor and BiasTensor and attrs FusedActivation, and LP_NORMALIZATION (Axis, Epsilon,
 * P). Booleans are true/false (absent: false); Epsilon a number (absent: 0).
 * Default tolerances on FLOAT32 and FLOAT16 outputs (reference/precision.md, docs/operators.md):
 * SOFTMAX 3N + 3 ULP (N the row's elements); LOG_SOFTMAX the same or (N + 3) ULPs of 1
 * absolute; HARDMAX exact; the MVNs as layer normalization 1/1024 absolute or 2 ULP (plus a
 * fused activation's ULPs); LP_NORMALIZATION N + 3 ULP.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* An optional input: bound when given (with data), a NULL slot when absent. */
static int bind_optional(rt_build *b, const char *name, const DML_TENSOR_DESC **desc)
{
    *desc = NULL;
    if (rt_input(b, name) == NULL)
        return rt_bind_input(b, NULL);
    const rt_tensor *t = bind_data(b, name);
    if (t == NULL)
        return -1;
    *desc = &t->desc;
    return 0;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *like)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL)
        src = like;
    rt_tensor *t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                 src != like && src->has_strides ? src->strides : NULL);
    return t ? &t->desc : NULL;
}

static int attr_bool(rt_build *b, const char *name, BOOL *out)
{
    const cJSON *v = rt_attr(b, name);
    *out = 0;
    if (v == NULL)
        return 0;
    if (!cJSON_IsBool(v))
        return rt_fail(b, "attrs.%s must be true or false", name);
    *out = cJSON_IsTrue(v) ? 1 : 0;
    return 0;
}

static int attr_epsilon(rt_build *b, FLOAT *out)
{
    *out = 0;
    return rt_attr(b, "Epsilon") ? rt_attr_float(b, "Epsilon", b->c->attrs, out) : 0;
}

/* The elements of a row: the product of the input's sizes over the axes (in range ones). */
static uint64_t row_size(const rt_tensor *in, const UINT *axes, unsigned n_axes)
{
    uint64_t n = 1;
    for (unsigned i = 0; i < n_axes; ++i)
        if (axes[i] < in->rank)
            n *= in->sizes[axes[i]];
    return n;
}

static void set_tolerance(rt_build *b, unsigned ulps, double abs_tol)
{
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        b->ulp_tolerance = ulps;
        b->abs_tolerance = abs_tol;
    }
}

/* ---- The softmax family --------------------------------------------------------------- */

typedef struct softmax1_layout { /* every *1 descriptor; the 1.0 ones are its first two */
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} softmax1_layout;

static int build_softmax(rt_build *b)
{
    const char *op = b->c->op;
    size_t len = strlen(op);
    int with_axes = op[len - 1] == '1';
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const axes_attr[] = {"Axes", NULL}, *const no_attrs[] = {NULL};
    if (rt_check_names(b, inputs, with_axes ? axes_attr : no_attrs, one_output))
        return -1;
    softmax1_layout *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || (d->OutputTensor = bind_output(b, in)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    UINT last = in->rank ? in->rank - 1 : 0;
    const UINT *axes = &last;
    unsigned n_axes = 1;
    if (with_axes) {
        UINT *vals;
        if (rt_attr_uint_list(b, "Axes", &vals, &n_axes))
            return -1;
        d->Axes = vals;
        d->AxisCount = n_axes;
        axes = vals;
    }
    uint64_t n = row_size(in, axes, n_axes);
    double ulp1 = in->type->dml == DML_TENSOR_DATA_TYPE_FLOAT16 ? 0x1p-10 : 0x1p-23;
    if (strstr(op, "HARDMAX"))
        set_tolerance(b, 0, 0);
    else if (strstr(op, "LOG_SOFTMAX"))
        set_tolerance(b, (unsigned)(3 * n + 3), (double)(n + 3) * ulp1);
    else
        set_tolerance(b, (unsigned)(3 * n + 3), 0);
    b->desc.Type = with_axes ? (strstr(op, "HARDMAX")       ? DML_OPERATOR_ACTIVATION_HARDMAX1
                                : strstr(op, "LOG_SOFTMAX") ? DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1
                                                            : DML_OPERATOR_ACTIVATION_SOFTMAX1)
                             : (strstr(op, "HARDMAX")       ? DML_OPERATOR_ACTIVATION_HARDMAX
                                : strstr(op, "LOG_SOFTMAX") ? DML_OPERATOR_ACTIVATION_LOG_SOFTMAX
                                                            : DML_OPERATOR_ACTIVATION_SOFTMAX);
    b->desc.Desc = d;
    return 0;
}

/* ---- MEAN_VARIANCE_NORMALIZATION, 1, 2 ------------------------------------------------ */

static int build_mvn(rt_build *b)
{
    const char *op = b->c->op;
    int version = op[strlen(op) - 1] == '1' ? 1 : op[strlen(op) - 1] == '2' ? 2 : 0;
    static const char *const inputs[] = {"InputTensor", "ScaleTensor", "BiasTensor", "OutputTensor",
                                         NULL};
    static const char *const attrs[3][6] = {
        {"CrossChannel", "NormalizeVariance", "Epsilon", "FusedActivation", NULL},
        {"Axes", "NormalizeVariance", "Epsilon", "FusedActivation", NULL},
        {"Axes", "UseMean", "UseVariance", "Epsilon", "FusedActivation", NULL}};
    if (rt_check_names(b, inputs, attrs[version], one_output))
        return -1;
    const DML_TENSOR_DESC *scale, *bias, *out;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || bind_optional(b, "ScaleTensor", &scale) ||
        bind_optional(b, "BiasTensor", &bias) || (out = bind_output(b, in)) == NULL)
        return -1;
    DML_OPERATOR_DESC *fused;
    unsigned act_ulps;
    double act_abs;
    if (rt_fused_activation(b, &fused, &act_ulps, &act_abs))
        return -1;
    FLOAT eps;
    if (attr_epsilon(b, &eps))
        return -1;
    UINT *axes = NULL;
    unsigned n_axes = 0;
    if (version > 0 && rt_attr_uint_list(b, "Axes", &axes, &n_axes))
        return -1;
    if (version == 0) {
        DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->InputTensor = &in->desc;
        d->ScaleTensor = scale;
        d->BiasTensor = bias;
        d->OutputTensor = out;
        if (attr_bool(b, "CrossChannel", &d->CrossChannel) ||
            attr_bool(b, "NormalizeVariance", &d->NormalizeVariance))
            return -1;
        d->Epsilon = eps;
        d->FusedActivation = fused;
        b->desc.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
        b->desc.Desc = d;
    } else if (version == 1) {
        DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->InputTensor = &in->desc;
        d->ScaleTensor = scale;
        d->BiasTensor = bias;
        d->OutputTensor = out;
        d->AxisCount = n_axes;
        d->Axes = axes;
        if (attr_bool(b, "NormalizeVariance", &d->NormalizeVariance))
            return -1;
        d->Epsilon = eps;
        d->FusedActivation = fused;
        b->desc.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1;
        b->desc.Desc = d;
    } else {
        DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->InputTensor = &in->desc;
        d->ScaleTensor = scale;
        d->BiasTensor = bias;
        d->OutputTensor = out;
        d->AxisCount = n_axes;
        d->Axes = axes;
        if (attr_bool(b, "UseMean", &d->UseMean) || attr_bool(b, "UseVariance", &d->UseVariance))
            return -1;
        d->Epsilon = eps;
        d->FusedActivation = fused;
        b->desc.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2;
        b->desc.Desc = d;
    }
    set_tolerance(b, 2 + act_ulps, act_abs > 1.0 / 1024 ? act_abs : 1.0 / 1024);
    return 0;
}

/* ---- LP_NORMALIZATION ----------------------------------------------------------------- */

static int build_lp(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", "Epsilon", "P", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_LP_NORMALIZATION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || (d->OutputTensor = bind_output(b, in)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    if (rt_attr_uint(b, "Axis", 0, &d->Axis) || rt_attr_uint(b, "P", 2, &d->P) ||
        attr_epsilon(b, &d->Epsilon))
        return -1;
    set_tolerance(b, (unsigned)(row_size(in, &d->Axis, 1) + 3), 0);
    b->desc.Type = DML_OPERATOR_LP_NORMALIZATION;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_normalize[] = {
    {"DML_OPERATOR_ACTIVATION_SOFTMAX", build_softmax},
    {"DML_OPERATOR_ACTIVATION_SOFTMAX1", build_softmax},
    {"DML_OPERATOR_ACTIVATION_LOG_SOFTMAX", build_softmax},
    {"DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1", build_softmax},
    {"DML_OPERATOR_ACTIVATION_HARDMAX", build_softmax},
    {"DML_OPERATOR_ACTIVATION_HARDMAX1", build_softmax},
    {"DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION", build_mvn},
    {"DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", build_mvn},
    {"DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2", build_mvn},
    {"DML_OPERATOR_LP_NORMALIZATION", build_lp},
    {NULL, NULL},
};
