/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's BATCH_NORMALIZATION (inference; `Spatial` a boolean, `Epsilon` a
 * number, `FusedActivation` as ADD1's), CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT (`Axis`,
 * `AxisDirection` by name, `HasExclusiveSum` / `HasExclusiveProduct` booleans), TOP_K and
 * TOP_K1 (`Axis`, `K`, TOP_K1's `AxisDirection`; outputs `OutputValueTensor` and
 * `OutputIndexTensor`). Tensors are the descriptors' members; an output under `inputs` (type,
 * shape, optional strides, no data) gives its descriptor.
 *
 * BATCH_NORMALIZATION_TRAINING (inputs InputTensor, ScaleTensor, BiasTensor, optional
 * FusedAddTensor; outputs OutputTensor, OutputMeanTensor, OutputVarianceTensor; `Epsilon`,
 * `FusedActivation`), BATCH_NORMALIZATION_GRAD and BATCH_NORMALIZATION_TRAINING_GRAD (inputs
 * InputTensor, InputGradientTensor, MeanTensor, VarianceTensor, ScaleTensor; outputs
 * OutputGradientTensor, OutputScaleGradientTensor, OutputBiasGradientTensor; `Epsilon`): every
 * output described under inputs or expected.
 *
 * Default tolerances on FLOAT32 and FLOAT16 outputs: BATCH_NORMALIZATION 6 ULP
 * (reference/precision.md) plus its fused activation's; the scans N ULP, N the axis's length
 * (precision.md's reduce sum; a case whose sums cancel carries its own); TOP_K exact (values are
 * copied); LOCAL_RESPONSE_NORMALIZATION (`CrossChannel`, `LocalSize`, `Alpha`, `Beta`, `Bias`;
 * absent: the page's recommended 1e-4, 0.75, 1) pow's 32 ULP plus one per square summed and 2.
 * The batch-normalization training operators: their sums' N + 2 ULP (N the input's elements per
 * channel, the statistics' element), plus 6 for the normalization (BATCH_NORMALIZATION's) and
 * the fused activation's; cases whose sums cancel carry their own.
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* Output `name`: described under inputs, else as expected, else like `like` with Sizes[axis] =
 * axis_size (axis_size 0: like's own sizes). */
static const DML_TENSOR_DESC *bind_output(rt_build *b, const char *name, const rt_tensor *like,
                                          const rt_type *type, unsigned axis, UINT axis_size)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    rt_tensor *t;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes the output and takes no data", name);
        return NULL;
    }
    if (src != NULL) {
        t = rt_add_output(b, name, src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    } else {
        UINT sizes[RT_MAX_RANK];
        memcpy(sizes, like->sizes, like->rank * sizeof sizes[0]);
        if (axis_size && axis < like->rank)
            sizes[axis] = axis_size;
        t = rt_add_output(b, name, type ? type : like->type, like->rank, sizes, NULL);
    }
    return t ? &t->desc : NULL;
}

/* AxisDirection by name, or a number (a case may give a value DirectML does not define). */
static int attr_direction(rt_build *b, DML_AXIS_DIRECTION def, DML_AXIS_DIRECTION *out)
{
    static const char *const names[] = {"DML_AXIS_DIRECTION_INCREASING",
                                        "DML_AXIS_DIRECTION_DECREASING"};
    const cJSON *v = rt_attr(b, "AxisDirection");
    *out = def;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v) && rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_AXIS_DIRECTION)v->valueint;
        return 0;
    }
    for (int i = 0; i < 2 && cJSON_IsString(v); ++i)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (DML_AXIS_DIRECTION)i;
            return 0;
        }
    return rt_fail(b, "attrs.AxisDirection must be a DML_AXIS_DIRECTION name");
}

/* Epsilon: a number (absent: 0). */
static int attr_epsilon(rt_build *b, FLOAT *out)
{
    *out = 0;
    return rt_attr(b, "Epsilon") ? rt_attr_float(b, "Epsilon", b->c->attrs, out) : 0;
}

static void float_tolerance(rt_build *b, unsigned ulps, double abs_tol)
{
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        b->ulp_tolerance = ulps;
        b->abs_tolerance = abs_tol;
    }
}

static const char *const one_output[] = {"OutputTensor", NULL};

static int build_batch_norm(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "MeanTensor", "VarianceTensor",
                                         "ScaleTensor", "BiasTensor", "OutputTensor",
                                         NULL};
    static const char *const attrs[] = {"Spatial", "Epsilon", "FusedActivation", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_BATCH_NORMALIZATION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    unsigned ulps;
    double abs_tol;
    DML_OPERATOR_DESC *fused = NULL;
    if (rt_attr_bool(b, "Spatial", &d->Spatial) || attr_epsilon(b, &d->Epsilon) ||
        rt_fused_activation(b, &fused, &ulps, &abs_tol))
        return -1;
    d->FusedActivation = fused;
    const rt_tensor *t[5];
    for (int k = 0; k < 5; ++k)
        if ((t[k] = bind_data(b, inputs[k])) == NULL)
            return -1;
    d->InputTensor = &t[0]->desc;
    d->MeanTensor = &t[1]->desc;
    d->VarianceTensor = &t[2]->desc;
    d->ScaleTensor = &t[3]->desc;
    d->BiasTensor = &t[4]->desc;
    if ((d->OutputTensor = bind_output(b, "OutputTensor", t[0], NULL, 0, 0)) == NULL)
        return -1;
    float_tolerance(b, 6 + ulps, abs_tol);
    b->desc.Type = DML_OPERATOR_BATCH_NORMALIZATION;
    b->desc.Desc = d;
    return 0;
}

/* The input's elements per element of the statistics (stat), 0 where they do not divide. */
static unsigned per_channel(const DML_TENSOR_DESC *x, const DML_TENSOR_DESC *stat)
{
    if (x == NULL || stat == NULL)
        return 0;
    const DML_BUFFER_TENSOR_DESC *a = x->Desc, *s = stat->Desc;
    uint64_t n = 1;
    for (UINT i = 0; i < a->DimensionCount && i < s->DimensionCount; ++i)
        if (s->Sizes[i] == 1)
            n *= a->Sizes[i];
    return n > 1u << 30 ? 1u << 30 : (unsigned)n;
}

static int build_bn_training(rt_build *b)
{
    static const char *const inputs[] = {
        "InputTensor",  "ScaleTensor",      "BiasTensor",           "FusedAddTensor",
        "OutputTensor", "OutputMeanTensor", "OutputVarianceTensor", NULL};
    static const char *const outputs[] = {"OutputTensor", "OutputMeanTensor",
                                          "OutputVarianceTensor", NULL};
    static const char *const attrs[] = {"Epsilon", "FusedActivation", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    unsigned ulps;
    double abs_tol;
    DML_OPERATOR_DESC *fused = NULL;
    if (attr_epsilon(b, &d->Epsilon) || rt_fused_activation(b, &fused, &ulps, &abs_tol))
        return -1;
    d->FusedActivation = fused;
    if (rt_required_input(b, "InputTensor", &d->InputTensor) ||
        rt_required_input(b, "ScaleTensor", &d->ScaleTensor) ||
        rt_required_input(b, "BiasTensor", &d->BiasTensor) ||
        rt_optional_input(b, "FusedAddTensor", &d->FusedAddTensor) ||
        rt_optional_output(b, "OutputTensor", &d->OutputTensor) ||
        rt_optional_output(b, "OutputMeanTensor", &d->OutputMeanTensor) ||
        rt_optional_output(b, "OutputVarianceTensor", &d->OutputVarianceTensor))
        return -1;
    if (d->OutputTensor != NULL)
        float_tolerance(b, per_channel(d->InputTensor, d->ScaleTensor) + 8 + ulps, abs_tol);
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION_TRAINING, d};
    return 0;
}

static int build_bn_grad(rt_build *b)
{
    bool training = strcmp(b->c->op, "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD") == 0;
    static const char *const inputs[] = {"InputTensor",
                                         "InputGradientTensor",
                                         "MeanTensor",
                                         "VarianceTensor",
                                         "ScaleTensor",
                                         "OutputGradientTensor",
                                         "OutputScaleGradientTensor",
                                         "OutputBiasGradientTensor",
                                         NULL};
    static const char *const outputs[] = {"OutputGradientTensor", "OutputScaleGradientTensor",
                                          "OutputBiasGradientTensor", NULL};
    static const char *const attrs[] = {"Epsilon", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    /* The two descriptors have one layout (directml_ops_3.h). */
    DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (attr_epsilon(b, &d->Epsilon) || rt_required_input(b, "InputTensor", &d->InputTensor) ||
        rt_required_input(b, "InputGradientTensor", &d->InputGradientTensor) ||
        rt_required_input(b, "MeanTensor", &d->MeanTensor) ||
        rt_required_input(b, "VarianceTensor", &d->VarianceTensor) ||
        rt_required_input(b, "ScaleTensor", &d->ScaleTensor) ||
        rt_optional_output(b, "OutputGradientTensor", &d->OutputGradientTensor) ||
        rt_optional_output(b, "OutputScaleGradientTensor", &d->OutputScaleGradientTensor) ||
        rt_optional_output(b, "OutputBiasGradientTensor", &d->OutputBiasGradientTensor))
        return -1;
    if (d->OutputGradientTensor != NULL)
        float_tolerance(b, per_channel(d->InputTensor, d->MeanTensor) + 8, 0);
    b->desc = (DML_OPERATOR_DESC){training ? DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD
                                           : DML_OPERATOR_BATCH_NORMALIZATION_GRAD,
                                  d};
    return 0;
}

static int build_scan(rt_build *b)
{
    bool product = strcmp(b->c->op, "DML_OPERATOR_CUMULATIVE_PRODUCT") == 0;
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    const char *excl = product ? "HasExclusiveProduct" : "HasExclusiveSum";
    const char *const attrs[] = {"Axis", "AxisDirection", excl, NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d); /* PRODUCT's layout */
    if (rt_attr_uint(b, "Axis", 0, &d->Axis) ||
        attr_direction(b, DML_AXIS_DIRECTION_INCREASING, &d->AxisDirection) ||
        rt_attr_bool(b, excl, &d->HasExclusiveSum))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || (d->OutputTensor = bind_output(b, "OutputTensor", in, NULL, 0, 0)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    float_tolerance(b, d->Axis < in->rank ? in->sizes[d->Axis] : 1, 0);
    b->desc.Type = product ? DML_OPERATOR_CUMULATIVE_PRODUCT : DML_OPERATOR_CUMULATIVE_SUMMATION;
    b->desc.Desc = d;
    return 0;
}

static int build_top_k(rt_build *b)
{
    bool one = strcmp(b->c->op, "DML_OPERATOR_TOP_K1") == 0;
    static const char *const inputs[] = {"InputTensor", "OutputValueTensor", "OutputIndexTensor",
                                         NULL};
    static const char *const outputs[] = {"OutputValueTensor", "OutputIndexTensor", NULL};
    static const char *const attrs1[] = {"Axis", "K", "AxisDirection", NULL};
    if (rt_check_names(b, inputs, one ? attrs1 : (const char *const[]){"Axis", "K", NULL}, outputs))
        return -1;
    DML_TOP_K1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d); /* TOP_K's leading members */
    if (rt_attr_uint(b, "Axis", 0, &d->Axis) || rt_attr_uint(b, "K", 1, &d->K) ||
        attr_direction(b, DML_AXIS_DIRECTION_DECREASING, &d->AxisDirection))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL ||
        (d->OutputValueTensor = bind_output(b, "OutputValueTensor", in, NULL, d->Axis, d->K)) ==
            NULL ||
        (d->OutputIndexTensor = bind_output(b, "OutputIndexTensor", in, rt_type_by_name("UINT32"),
                                            d->Axis, d->K)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    b->desc.Type = one ? DML_OPERATOR_TOP_K1 : DML_OPERATOR_TOP_K;
    b->desc.Desc = d;
    return 0;
}

/* A FLOAT attribute (absent: def). */
static int attr_real(rt_build *b, const char *name, FLOAT def, FLOAT *out)
{
    *out = def;
    return rt_attr(b, name) ? rt_attr_float(b, name, b->c->attrs, out) : 0;
}

static int build_lrn(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"CrossChannel", "LocalSize", "Alpha", "Beta", "Bias", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_attr_bool(b, "CrossChannel", &d->CrossChannel) ||
        rt_attr_uint(b, "LocalSize", 1, &d->LocalSize) || attr_real(b, "Alpha", 1e-4f, &d->Alpha) ||
        attr_real(b, "Beta", 0.75f, &d->Beta) || attr_real(b, "Bias", 1.0f, &d->Bias))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || (d->OutputTensor = bind_output(b, "OutputTensor", in, NULL, 0, 0)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    unsigned n = d->LocalSize > 64 ? 64 : d->LocalSize;
    float_tolerance(b, 34 + (d->CrossChannel ? n : n * n), 0);
    b->desc.Type = DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_bnscan[] = {
    {"DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION", build_lrn},
    {"DML_OPERATOR_BATCH_NORMALIZATION", build_batch_norm},
    {"DML_OPERATOR_BATCH_NORMALIZATION_TRAINING", build_bn_training},
    {"DML_OPERATOR_BATCH_NORMALIZATION_GRAD", build_bn_grad},
    {"DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD", build_bn_grad},
    {"DML_OPERATOR_CUMULATIVE_SUMMATION", build_scan},
    {"DML_OPERATOR_CUMULATIVE_PRODUCT", build_scan},
    {"DML_OPERATOR_TOP_K", build_top_k},
    {"DML_OPERATOR_TOP_K1", build_top_k},
    {NULL, NULL},
};
