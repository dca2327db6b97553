/* SPDX-License-Identifier: MIT */
/*
 * DirectML's mean-variance normalisations and LP_NORMALIZATION, reductions (internal.h
 * dmli_reduce, ops/normalize.h) whose output has the input's shape. Over each row (the
 * elements sharing every coordinate outside the row's axes), with n its element count:
 *   MEAN_VARIANCE_NORMALIZATION (1.0; rank 4, {N, C, H, W}): axes {C, H, W} when CrossChannel
 *     is TRUE, else {H, W} (its page; MEAN_VARIANCE_NORMALIZATION1's remark says {0, 2, 3},
 *     which contradicts it and ONNX's MVN-1 across_channels: the page wins, docs/operators.md);
 *   MEAN_VARIANCE_NORMALIZATION1 (2.1; ranks 1 to 8, the 3.1 table): Axes;
 *   MEAN_VARIANCE_NORMALIZATION2 (6.3; ranks 1 to 8): Axes, UseMean, UseVariance;
 *     y = act(Scale * (x - m) / sqrt(v + Epsilon) + Bias), m = mean(x) = sum(x) / n when the
 *     mean is used (NormalizeVariance-style operators always; MVN2's UseMean) else 0,
 *     v = sum((x - m)^2) / n (biased; about 0 without the mean: RMS normalisation, ONNX's
 *     SimplifiedLayerNormalization), the division left out when the variance is not used
 *     (NormalizeVariance FALSE, MVN2's UseVariance FALSE). Scale and Bias are optional, of
 *     the input's DataType and DimensionCount, each size the input's or 1 (broadcast; any
 *     dimension from 4.0), either without the other (5.2); absent they are 1 and 0.
 *     FusedActivation as ELEMENT_WISE_ADD1's (ops/activation.h), on the scaled result.
 *   LP_NORMALIZATION (1.0; ranks 1 to 8, the 3.1 table): y = x / max(||row||_P, Epsilon)
 *     along the one dimension Axis, P 1 (sum |x|) or 2 (sqrt(sum x^2)). DirectML says only
 *     that Epsilon avoids a division by zero; max() is the choice (docs/operators.md).
 * Every tensor is FLOAT32 or FLOAT16 (FLOAT16 computes in float32 and rounds once).
 * Epsilon has no rule: any value is taken as given.
 */
#include <string.h>

#include "ops/activation.h"
#include "ops/normalize.h"

typedef struct mvn_scratch {
    dmli_norm_axes axes; /* first: dmli_norm_lower reads it */
    dmli_activation act;
} mvn_scratch;

/* The members the three MVN descriptors share, wherever they are. */
typedef struct mvn_view {
    const DML_TENSOR_DESC *input, *scale, *bias, *output;
    const DML_OPERATOR_DESC *fused;
} mvn_view;

static HRESULT validate_mvn(const char *op, const mvn_view *v, dmli_op_state *st)
{
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    static const char *const names[3] = {"InputTensor", "ScaleTensor", "BiasTensor"};
    DMLI_TRY(dmli_tensor_import(op, names[0], v->input, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, names[1], v->scale, DMLI_TENSOR_INPUT | DMLI_TENSOR_OPTIONAL,
                                &st->inputs[1]));
    DMLI_TRY(dmli_tensor_import(op, names[2], v->bias, DMLI_TENSOR_INPUT | DMLI_TENSOR_OPTIONAL,
                                &st->inputs[2]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", v->output, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_norm_float_type(op, names[0], in));
    for (int k = 1; k < 3; ++k)
        if (st->inputs[k].present) {
            DMLI_TRY(dmli_ops_same_type(op, names[k], &st->inputs[k], names[0], in));
            DMLI_TRY(dmli_ops_same_rank(op, names[k], &st->inputs[k], names[0], in));
        }
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, names[0], in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, names[0], in));
    mvn_scratch *s = DMLI_OP_SCRATCH(st, mvn_scratch);
    DMLI_TRY(dmli_activation_fused(op, "FusedActivation", v->fused, out->type, &s->act));
    st->n_inputs = 3;
    st->n_outputs = 1;
    for (int k = 0; k < 3; ++k)
        st->input_names[k] = names[k];
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

/* The output has the input's Sizes; Scale and Bias each size the input's or 1. */
static HRESULT infer_mvn(const char *op, dmli_op_state *st)
{
    const dmli_tensor *in = &st->inputs[0];
    static const char *const names[3] = {"InputTensor", "ScaleTensor", "BiasTensor"};
    for (int k = 1; k < 3; ++k) {
        const dmli_tensor *t = &st->inputs[k];
        for (uint32_t d = 0; t->present && d < t->rank; ++d) {
            char got[DMLI_DIMS_BUF], want[DMLI_DIMS_BUF];
            DMLI_INVALID_IF(t->sizes[d] != 1 && t->sizes[d] != in->sizes[d],
                            "%s: %s.Sizes (%s) has Sizes[%u] = %llu: each must be 1 (broadcast) "
                            "or InputTensor.Sizes[%u] (InputTensor.Sizes %s)",
                            op, names[k], dmli_format_dims(got, sizeof got, t->rank, t->sizes), d,
                            (unsigned long long)t->sizes[d], d,
                            dmli_format_dims(want, sizeof want, in->rank, in->sizes));
        }
    }
    return dmli_ops_expect_sizes(op, "OutputTensor", &st->outputs[0], in->sizes,
                                 "InputTensor.Sizes: the output has the input's shape");
}

static void lower_mvn(dmli_op_state *st, bool use_mean, bool use_variance, float epsilon)
{
    const mvn_scratch *s = DMLI_OP_SCRATCH(st, mvn_scratch);
    /* Scale and bias: the reduction's inputs 1 and 2 (ops/normalize.h). */
    dmli_norm_lower(st, DMLI_REDUCE_MVN, 3, &s->axes);
    dmli_reduce *r = &st->reduce;
    r->use_mean = use_mean;
    r->use_variance = use_variance;
    r->has_scale = st->inputs[1].present;
    r->has_bias = st->inputs[2].present;
    dmli_reduce_param_real(r, DMLI_MAP_PARAM_OP, epsilon);
    r->act = s->act.act;
    for (int i = 0; i < 3; ++i)
        dmli_reduce_param_real(r, DMLI_MAP_PARAM_ACT + i, s->act.param[i]);
}

/* ---- MEAN_VARIANCE_NORMALIZATION ---------------------------------------------------------- */

#define MVN0 "MEAN_VARIANCE_NORMALIZATION"

static HRESULT validate_mvn0(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC *d = desc;
    mvn_view v = {d->InputTensor, d->ScaleTensor, d->BiasTensor, d->OutputTensor,
                  d->FusedActivation};
    DMLI_TRY(validate_mvn(MVN0, &v, st));
    DMLI_INVALID_IF(st->inputs[0].rank != 4,
                    MVN0 ": InputTensor.DimensionCount (%u) must be 4 ({BatchCount, "
                         "ChannelCount, Height, Width}); " MVN0 "1 takes Axes on 1 to 8",
                    st->inputs[0].rank);
    dmli_norm_axes *axes = &DMLI_OP_SCRATCH(st, mvn_scratch)->axes;
    memset(axes, 0, sizeof *axes);
    axes->reduced[1] = d->CrossChannel != 0;
    axes->reduced[2] = axes->reduced[3] = true;
    return S_OK;
}

static HRESULT infer_mvn0(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return infer_mvn(MVN0, st);
}

static void lower_mvn0(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC *d = desc;
    lower_mvn(st, true, d->NormalizeVariance != 0, d->Epsilon);
}

const dmli_op_steps dmli_op_mvn = {
    .validate = validate_mvn0, .infer = infer_mvn0, .lower = lower_mvn0};

/* ---- MEAN_VARIANCE_NORMALIZATION1 --------------------------------------------------------- */

#define MVN1 "MEAN_VARIANCE_NORMALIZATION1"

static HRESULT validate_mvn1(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC *d = desc;
    mvn_view v = {d->InputTensor, d->ScaleTensor, d->BiasTensor, d->OutputTensor,
                  d->FusedActivation};
    DMLI_TRY(validate_mvn(MVN1, &v, st));
    return dmli_norm_axes_check(MVN1, d->AxisCount, d->Axes, st->inputs[0].rank,
                                &DMLI_OP_SCRATCH(st, mvn_scratch)->axes);
}

static HRESULT infer_mvn1(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return infer_mvn(MVN1, st);
}

static void lower_mvn1(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC *d = desc;
    lower_mvn(st, true, d->NormalizeVariance != 0, d->Epsilon);
}

const dmli_op_steps dmli_op_mvn1 = {
    .validate = validate_mvn1, .infer = infer_mvn1, .lower = lower_mvn1};

/* ---- MEAN_VARIANCE_NORMALIZATION2 --------------------------------------------------------- */

#define MVN2 "MEAN_VARIANCE_NORMALIZATION2"

static HRESULT validate_mvn2(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC *d = desc;
    mvn_view v = {d->InputTensor, d->ScaleTensor, d->BiasTensor, d->OutputTensor,
                  d->FusedActivation};
    DMLI_TRY(validate_mvn(MVN2, &v, st));
    return dmli_norm_axes_check(MVN2, d->AxisCount, d->Axes, st->inputs[0].rank,
                                &DMLI_OP_SCRATCH(st, mvn_scratch)->axes);
}

static HRESULT infer_mvn2(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return infer_mvn(MVN2, st);
}

static void lower_mvn2(const void *desc, dmli_op_state *st)
{
    const DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC *d = desc;
    lower_mvn(st, d->UseMean != 0, d->UseVariance != 0, d->Epsilon);
}

const dmli_op_steps dmli_op_mvn2 = {
    .validate = validate_mvn2, .infer = infer_mvn2, .lower = lower_mvn2};

/* ---- LP_NORMALIZATION --------------------------------------------------------------------- */

#define LP "LP_NORMALIZATION"

static HRESULT validate_lp(const void *desc, dmli_op_state *st)
{
    const DML_LP_NORMALIZATION_OPERATOR_DESC *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(LP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(LP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_norm_float_type(LP, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(LP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(LP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(d->Axis >= in->rank,
                    LP ": Axis (%u) must be below InputTensor.DimensionCount (%u)", d->Axis,
                    in->rank);
    DMLI_INVALID_IF(d->P != 1 && d->P != 2, LP ": P (%u) must be 1 or 2 (the L1 or L2 norm)", d->P);
    dmli_norm_axes *axes = DMLI_OP_SCRATCH(st, dmli_norm_axes);
    memset(axes, 0, sizeof *axes);
    axes->reduced[d->Axis] = true;
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

static HRESULT infer_lp(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_expect_sizes(LP, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "InputTensor.Sizes: the output has the input's shape");
}

static void lower_lp(const void *desc, dmli_op_state *st)
{
    const DML_LP_NORMALIZATION_OPERATOR_DESC *d = desc;
    dmli_norm_lower(st, DMLI_REDUCE_LP_NORM, 1, DMLI_OP_SCRATCH(st, dmli_norm_axes));
    dmli_reduce_param_int(&st->reduce, DMLI_MAP_PARAM_OP, d->P);
    dmli_reduce_param_real(&st->reduce, DMLI_MAP_PARAM_OP + 1, d->Epsilon);
}

const dmli_op_steps dmli_op_lp_normalization = {
    .validate = validate_lp, .infer = infer_lp, .lower = lower_lp};
