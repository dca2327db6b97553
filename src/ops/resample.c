/* SPDX-License-Identifier: MIT */
/*
 * DirectML's resampling operators, one family (src/resample.h, cl/resample.cl): each output
 * element's input coordinate along dimension d is InputX = (OutputX - OutputPixelOffset) /
 * Scale - InputPixelOffset (the pages' OutputX = (InputX + InputPixelOffset) * Scale +
 * OutputPixelOffset solved for InputX), in float32, the quotient correctly rounded (one
 * fma correction of OutputX' * (1 / Scale): cl/resample.cl). Coordinates outside the input are
 * clamped to its edges ("the output edges are clamped"); nothing is ever read outside it.
 *   NEAREST_NEIGHBOR: the element at floor(InputX) (RoundingDirection DECREASING) or
 *     ceil(InputX) (INCREASING); UPSAMPLE_2D, RESAMPLE and RESAMPLE1 round half up,
 *     floor(InputX + 0.5): RESAMPLE2 DECREASING with the input offsets 0.5 less, the
 *     equivalence ONNX Runtime's DirectML provider relies on (its DmlOperatorResize.cpp maps
 *     round_prefer_ceil to exactly that; RESAMPLE2's remark says the *output* offsets, which
 *     gives other results for scales that are not 1 or 2: docs/operators.md).
 *   LINEAR: the weighted average of the two neighbours floor(InputX) and floor(InputX) + 1 per
 *     dimension (up to 16 inputs for 4 resampled dimensions), weight InputX - floor(InputX); a
 *     neighbour of weight 0 is not read.
 * The operators:
 *   UPSAMPLE_2D (1.0): ranks 4 and 5, H and W scaled by ScaleSize's integers (> 0, the output
 *     exactly {..., H * Height, W * Width}), pixel centres (offsets 0.5 and -0.5);
 *   RESAMPLE (2.0): Scales, pixel centres; RESAMPLE1 (2.1): any offsets; RESAMPLE2 (5.1):
 *     RoundingDirection; RESAMPLE3 (6.4): Antialiased. Ranks 1 to 4 (the 5.1 tables), Scales
 *     and offsets one per dimension. The output's Sizes are free (the pages: the scales need
 *     not be OutputSize / InputSize; the image is cropped or its edges clamped);
 *     FLOAT32, FLOAT16, INT8, UINT8 (the 6.2 tables); integer outputs of LINEAR rounded to
 *     nearest even and saturated. Chosen where the pages are silent: each Scale finite and
 *     > 0, each offset finite. RESAMPLE3's Antialiased LINEAR stretches the triangle filter by
 *     1/Scale along each dimension whose Scale is below 1 (ONNX Resize's antialias, which ONNX
 *     Runtime's DirectML provider maps onto it), the weights normalised per dimension.
 *   VALUE_SCALE_2D (1.0): rank 4 {N, C, H, W}, FLOAT32 or FLOAT16, y = x * Scale + Bias[c]
 *     (rounded once), ChannelCount 1 or 3 and equal to C. A nearest resample of scale 1 with
 *     an epilogue: the map family (src/map.c) has no per-channel parameter.
 *   RESAMPLE_GRAD (3.0) and RESAMPLE_GRAD1 (5.1): the adjoints of RESAMPLE1 and RESAMPLE2 (the
 *     same options, lowered by the same code: the same coordinates, neighbours and weights).
 *     InputGradientTensor has the forward output's sizes, OutputGradientTensor the forward
 *     input's: dX[i] = sum over forward outputs o of weight(o, i) * dY[o] (elements no output
 *     reads are 0). The pages' tables: FLOAT32 or FLOAT16, one DataType and DimensionCount for
 *     both, rank 4 (GRAD) or 1 to 4 (GRAD1), DimensionCount equal to it; the sizes free, as
 *     the forward's. Lowered to cl/resample.cl's resample_grad: a gather per element of dX.
 */
#include <math.h>
#include <string.h>

#include "ops/common.h"
#include "resample.h"

typedef struct rs_view {
    const char *op;
    const DML_TENSOR_DESC *input, *output;
    DML_INTERPOLATION_MODE mode;
    DML_AXIS_DIRECTION rounding;
    uint32_t count;          /* Scales' (and the offsets') length */
    const char *count_field; /* "DimensionCount" or "ScaleCount" */
    const float *scales, *in_offsets, *out_offsets;
    bool offsets; /* the descriptor has them (else pixel centres) */
    bool half_up; /* nearest rounds half up (RESAMPLE, RESAMPLE1) */
    bool antialiased;
    bool grad;         /* RESAMPLE_GRAD(1): input is dY, output dX, FLOAT32 and FLOAT16 only */
    uint32_t min_rank; /* the table's ranks: min_rank to 4 */
} rs_view;

static HRESULT import_pair(const char *op, const DML_TENSOR_DESC *in, const DML_TENSOR_DESC *out,
                           dmli_op_state *st)
{
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", in, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", out, DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    DMLI_TRY(
        dmli_ops_same_type(op, "OutputTensor", &st->outputs[0], "InputTensor", &st->inputs[0]));
    DMLI_TRY(
        dmli_ops_same_rank(op, "OutputTensor", &st->outputs[0], "InputTensor", &st->inputs[0]));
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->data_input = 0;
    return S_OK;
}

static bool float_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16;
}

static HRESULT check_mode(const char *op, DML_INTERPOLATION_MODE mode)
{
    DMLI_INVALID_IF(mode != DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR &&
                        mode != DML_INTERPOLATION_MODE_LINEAR,
                    "%s: InterpolationMode (%d) must be DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR "
                    "(0) or DML_INTERPOLATION_MODE_LINEAR (1)",
                    op, (int)mode);
    return S_OK;
}

static HRESULT check_floats(const char *op, const char *field, const float *v, uint32_t n,
                            bool positive)
{
    DMLI_NULL_IF(!v, "%s: %s is NULL (DimensionCount %u values are required)", op, field, n);
    for (uint32_t i = 0; i < n; ++i) {
        DMLI_INVALID_IF(!isfinite(v[i]), "%s: %s[%u] (%g) must be finite", op, field, i,
                        (double)v[i]);
        DMLI_INVALID_IF(positive && !(v[i] > 0.0f),
                        "%s: %s[%u] (%g) must be greater than 0 (a scale divides the output's "
                        "coordinates)",
                        op, field, i, (double)v[i]);
    }
    return S_OK;
}

/* The gradients' pair: InputGradientTensor (the forward's output) read, OutputGradientTensor
 * (the forward's input) written; the pages' tables. */
static HRESULT import_grad_pair(const rs_view *v, dmli_op_state *st)
{
    const char *op = v->op;
    dmli_tensor *dy = &st->inputs[0], *dx = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(op, "InputGradientTensor", v->output, DMLI_TENSOR_INPUT, dy));
    DMLI_TRY(dmli_tensor_import(op, "OutputGradientTensor", v->input, DMLI_TENSOR_OUTPUT, dx));
    DMLI_INVALID_IF(!float_type(dy->type),
                    "%s: InputGradientTensor.DataType (%s) is not one %s takes (FLOAT32, "
                    "FLOAT16)",
                    op, dmli_type_name(dy->type), op);
    DMLI_TRY(dmli_ops_same_type(op, "OutputGradientTensor", dx, "InputGradientTensor", dy));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputGradientTensor", dx, "InputGradientTensor", dy));
    DMLI_INVALID_IF(dy->rank < v->min_rank || dy->rank > 4,
                    v->min_rank == 4 ? "%s: InputGradientTensor.DimensionCount (%u) must be 4"
                                     : "%s: InputGradientTensor.DimensionCount (%u) must be 1 "
                                       "to 4",
                    op, dy->rank);
    st->input_names[0] = "InputGradientTensor";
    st->output_names[0] = "OutputGradientTensor";
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->data_input = 0;
    return S_OK;
}

static HRESULT validate_rs(const rs_view *v, dmli_op_state *st)
{
    const char *op = v->op;
    const char *rank_field = "InputTensor.DimensionCount";
    const dmli_tensor *in = &st->inputs[0];
    if (v->grad) {
        DMLI_TRY(import_grad_pair(v, st));
        rank_field = "InputGradientTensor.DimensionCount";
    } else {
        DMLI_TRY(import_pair(op, v->input, v->output, st));
        DMLI_INVALID_IF(!float_type(in->type) && in->type != DML_TENSOR_DATA_TYPE_INT8 &&
                            in->type != DML_TENSOR_DATA_TYPE_UINT8,
                        "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16, "
                        "INT8, UINT8)",
                        op, dmli_type_name(in->type), op);
        DMLI_INVALID_IF(in->rank < 1 || in->rank > 4,
                        "%s: InputTensor.DimensionCount (%u) must be 1 to 4", op, in->rank);
    }
    DMLI_TRY(check_mode(op, v->mode));
    DMLI_INVALID_IF(v->rounding != DML_AXIS_DIRECTION_INCREASING &&
                        v->rounding != DML_AXIS_DIRECTION_DECREASING,
                    "%s: RoundingDirection (%d) must be DML_AXIS_DIRECTION_INCREASING (0) or "
                    "DML_AXIS_DIRECTION_DECREASING (1)",
                    op, (int)v->rounding);
    DMLI_INVALID_IF(v->count != in->rank, "%s: %s (%u) must equal %s (%u)", op, v->count_field,
                    v->count, rank_field, in->rank);
    DMLI_TRY(check_floats(op, "Scales", v->scales, v->count, true));
    if (v->offsets) {
        DMLI_TRY(check_floats(op, "InputPixelOffsets", v->in_offsets, v->count, false));
        DMLI_TRY(check_floats(op, "OutputPixelOffsets", v->out_offsets, v->count, false));
    }
    return S_OK;
}

void dmli_resample_axis(dmli_resample *r, int d, double scale, double input_offset,
                        double output_offset)
{
    r->scale_of[d] = (float)scale;
    r->recip[d] = (float)(1.0 / (double)(float)scale);
    r->out_off[d] = (float)output_offset;
    r->in_off[d] = (float)input_offset;
}

/* The computed operator (input 0 read, output 0 written) and its description, the
 * dimensions padded to five with leading 1s, every transform the identity. */
static dmli_resample *lower_common(dmli_op_state *st, bool grad)
{
    /* The forward's input and output: a gradient's are its output and its input. */
    const dmli_tensor *in = grad ? &st->outputs[0] : &st->inputs[0];
    const dmli_tensor *out = grad ? &st->inputs[0] : &st->outputs[0];
    st->computed = true;
    dmli_compute_init(&st->compute, DMLI_COMPUTE_RESAMPLE);
    dmli_compute_add(&st->compute, st, false, 0);
    dmli_compute_add(&st->compute, st, true, 0);
    dmli_resample *r = DMLI_COMPUTE_WORK(&st->compute, dmli_resample);
    r->type = in->type;
    r->rank = in->rank;
    r->grad = grad;
    r->scale = 1.0f;
    uint32_t pad = DMLI_RS_DIMS - in->rank;
    for (int d = 0; d < DMLI_RS_DIMS; ++d) {
        bool real = (uint32_t)d >= pad;
        r->out_size[d] = real ? (int64_t)out->sizes[d - pad] : 1;
        r->in_size[d] = real ? (int64_t)in->sizes[d - pad] : 1;
        r->in_stride[d] = real ? in->strides[d - pad] : 0;
        r->out_stride[d] = real ? out->strides[d - pad] : 0;
        dmli_resample_axis(r, d, 1.0, 0.0, 0.0);
    }
    return r;
}

static void lower_rs(const rs_view *v, dmli_op_state *st)
{
    dmli_resample *r = lower_common(st, v->grad);
    r->linear = v->mode == DML_INTERPOLATION_MODE_LINEAR;
    r->ceil = !r->linear && !v->half_up && v->rounding == DML_AXIS_DIRECTION_INCREASING;
    for (uint32_t i = 0; i < v->count; ++i)
        r->antialias |= r->linear && v->antialiased && v->scales[i] < 1.0f;
    uint32_t pad = DMLI_RS_DIMS - v->count;
    for (uint32_t i = 0; i < v->count; ++i) {
        double in_off = v->offsets ? v->in_offsets[i] : 0.5;
        double out_off = v->offsets ? v->out_offsets[i] : -0.5;
        /* floor(x + 0.5) is floor of the coordinate with the input offset 0.5 less. */
        if (!r->linear && v->half_up)
            in_off -= 0.5;
        dmli_resample_axis(r, (int)(pad + i), v->scales[i], in_off, out_off);
    }
}

/* ---- RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 ---------------------------------------- */

static rs_view view_resample(const void *desc)
{
    const DML_RESAMPLE_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE",
                     .input = d->InputTensor,
                     .output = d->OutputTensor,
                     .mode = d->InterpolationMode,
                     .count = d->ScaleCount,
                     .count_field = "ScaleCount",
                     .scales = d->Scales,
                     .half_up = true};
}

static rs_view view_resample1(const void *desc)
{
    const DML_RESAMPLE1_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE1",
                     .input = d->InputTensor,
                     .output = d->OutputTensor,
                     .mode = d->InterpolationMode,
                     .count = d->DimensionCount,
                     .count_field = "DimensionCount",
                     .scales = d->Scales,
                     .in_offsets = d->InputPixelOffsets,
                     .out_offsets = d->OutputPixelOffsets,
                     .offsets = true,
                     .half_up = true};
}

static rs_view view_resample2(const void *desc)
{
    const DML_RESAMPLE2_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE2",
                     .input = d->InputTensor,
                     .output = d->OutputTensor,
                     .mode = d->InterpolationMode,
                     .rounding = d->RoundingDirection,
                     .count = d->DimensionCount,
                     .count_field = "DimensionCount",
                     .scales = d->Scales,
                     .in_offsets = d->InputPixelOffsets,
                     .out_offsets = d->OutputPixelOffsets,
                     .offsets = true};
}

static rs_view view_resample3(const void *desc)
{
    const DML_RESAMPLE3_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE3",
                     .input = d->InputTensor,
                     .output = d->OutputTensor,
                     .mode = d->InterpolationMode,
                     .rounding = d->RoundingDirection,
                     .count = d->DimensionCount,
                     .count_field = "DimensionCount",
                     .scales = d->Scales,
                     .in_offsets = d->InputPixelOffsets,
                     .out_offsets = d->OutputPixelOffsets,
                     .offsets = true,
                     .antialiased = d->Antialiased != 0};
}

/* The gradients: rs_view's input is the forward's (OutputGradientTensor), its output the
 * forward's (InputGradientTensor). */
static rs_view view_resample_grad(const void *desc)
{
    const DML_RESAMPLE_GRAD_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE_GRAD",
                     .input = d->OutputGradientTensor,
                     .output = d->InputGradientTensor,
                     .mode = d->InterpolationMode,
                     .count = d->DimensionCount,
                     .count_field = "DimensionCount",
                     .scales = d->Scales,
                     .in_offsets = d->InputPixelOffsets,
                     .out_offsets = d->OutputPixelOffsets,
                     .offsets = true,
                     .half_up = true,
                     .grad = true,
                     .min_rank = 4};
}

static rs_view view_resample_grad1(const void *desc)
{
    const DML_RESAMPLE_GRAD1_OPERATOR_DESC *d = desc;
    return (rs_view){.op = "RESAMPLE_GRAD1",
                     .input = d->OutputGradientTensor,
                     .output = d->InputGradientTensor,
                     .mode = d->InterpolationMode,
                     .rounding = d->RoundingDirection,
                     .count = d->DimensionCount,
                     .count_field = "DimensionCount",
                     .scales = d->Scales,
                     .in_offsets = d->InputPixelOffsets,
                     .out_offsets = d->OutputPixelOffsets,
                     .offsets = true,
                     .grad = true,
                     .min_rank = 1};
}

#define RS_STEPS(name, viewfn)                                          \
    static HRESULT validate_##name(const void *desc, dmli_op_state *st) \
    {                                                                   \
        rs_view v = viewfn(desc);                                       \
        return validate_rs(&v, st);                                     \
    }                                                                   \
    static void lower_##name(const void *desc, dmli_op_state *st)       \
    {                                                                   \
        rs_view v = viewfn(desc);                                       \
        lower_rs(&v, st);                                               \
    }                                                                   \
    const dmli_op_steps dmli_op_##name = {                              \
        .validate = validate_##name, .infer = NULL, .lower = lower_##name};

RS_STEPS(resample, view_resample)
RS_STEPS(resample1, view_resample1)
RS_STEPS(resample2, view_resample2)
RS_STEPS(resample3, view_resample3)
RS_STEPS(resample_grad, view_resample_grad)
RS_STEPS(resample_grad1, view_resample_grad1)

/* ---- UPSAMPLE_2D ------------------------------------------------------------------------ */

#define UP "UPSAMPLE_2D"

static HRESULT validate_upsample(const void *desc, dmli_op_state *st)
{
    const DML_UPSAMPLE_2D_OPERATOR_DESC *d = desc;
    DMLI_TRY(import_pair(UP, d->InputTensor, d->OutputTensor, st));
    const dmli_tensor *in = &st->inputs[0];
    DMLI_INVALID_IF(!float_type(in->type),
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", UP,
                    dmli_type_name(in->type), UP);
    DMLI_INVALID_IF(in->rank != 4 && in->rank != 5,
                    "%s: InputTensor.DimensionCount (%u) must be 4 ({N, C, H, W}) or 5 ({N, C, "
                    "D, H, W})",
                    UP, in->rank);
    DMLI_TRY(check_mode(UP, d->InterpolationMode));
    uint64_t h = in->sizes[in->rank - 2], w = in->sizes[in->rank - 1];
    DMLI_INVALID_IF(d->ScaleSize.Height == 0 || (h != 0 && d->ScaleSize.Height > UINT32_MAX / h),
                    "%s: ScaleSize.Height (%u) must be greater than 0 and at most UINT_MAX / "
                    "InputHeight (%llu)",
                    UP, d->ScaleSize.Height, (unsigned long long)h);
    DMLI_INVALID_IF(d->ScaleSize.Width == 0 || (w != 0 && d->ScaleSize.Width > UINT32_MAX / w),
                    "%s: ScaleSize.Width (%u) must be greater than 0 and at most UINT_MAX / "
                    "InputWidth (%llu)",
                    UP, d->ScaleSize.Width, (unsigned long long)w);
    return S_OK;
}

static HRESULT infer_upsample(const void *desc, dmli_op_state *st)
{
    const DML_UPSAMPLE_2D_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0];
    uint64_t want[DMLI_MAX_RANK];
    memcpy(want, in->sizes, sizeof want);
    want[in->rank - 2] *= d->ScaleSize.Height;
    want[in->rank - 1] *= d->ScaleSize.Width;
    return dmli_ops_expect_sizes(UP, "OutputTensor", &st->outputs[0], want,
                                 "InputTensor.Sizes with H * ScaleSize.Height and W * "
                                 "ScaleSize.Width");
}

static void lower_upsample(const void *desc, dmli_op_state *st)
{
    const DML_UPSAMPLE_2D_OPERATOR_DESC *d = desc;
    uint32_t rank = st->inputs[0].rank;
    dmli_resample *r = lower_common(st, false);
    r->linear = d->InterpolationMode == DML_INTERPOLATION_MODE_LINEAR;
    /* H and W scaled, pixel centres (nearest: half up, the input offset 0.5 less); N, C
     * (and D) keep the identity transform of lower_common. */
    uint32_t pad = DMLI_RS_DIMS - rank;
    dmli_resample_axis(r, (int)(pad + rank - 2), d->ScaleSize.Height, r->linear ? 0.5 : 0.0, -0.5);
    dmli_resample_axis(r, (int)(pad + rank - 1), d->ScaleSize.Width, r->linear ? 0.5 : 0.0, -0.5);
}

const dmli_op_steps dmli_op_upsample_2d = {
    .validate = validate_upsample, .infer = infer_upsample, .lower = lower_upsample};

/* ---- VALUE_SCALE_2D -------------------------------------------------------------------- */

#define VS "VALUE_SCALE_2D"

static HRESULT validate_value_scale(const void *desc, dmli_op_state *st)
{
    const DML_VALUE_SCALE_2D_OPERATOR_DESC *d = desc;
    DMLI_TRY(import_pair(VS, d->InputTensor, d->OutputTensor, st));
    const dmli_tensor *in = &st->inputs[0];
    DMLI_INVALID_IF(!float_type(in->type),
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", VS,
                    dmli_type_name(in->type), VS);
    DMLI_INVALID_IF(in->rank != 4, "%s: InputTensor.DimensionCount (%u) must be 4 ({N, C, H, W})",
                    VS, in->rank);
    DMLI_INVALID_IF(d->ChannelCount != 1 && d->ChannelCount != 3,
                    "%s: ChannelCount (%u) must be 1 or 3", VS, d->ChannelCount);
    DMLI_INVALID_IF(in->sizes[1] != d->ChannelCount,
                    "%s: ChannelCount (%u) must equal InputTensor.Sizes[1] (C, %llu)", VS,
                    d->ChannelCount, (unsigned long long)in->sizes[1]);
    DMLI_NULL_IF(!d->Bias, "%s: Bias is NULL (ChannelCount %u values are required)", VS,
                 d->ChannelCount);
    return S_OK;
}

static HRESULT infer_value_scale(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_expect_sizes(VS, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "InputTensor.Sizes: the map keeps the shape");
}

static void lower_value_scale(const void *desc, dmli_op_state *st)
{
    const DML_VALUE_SCALE_2D_OPERATOR_DESC *d = desc;
    dmli_resample *r = lower_common(st, false);
    r->affine = true;
    r->scale = d->Scale;
    for (uint32_t c = 0; c < 3; ++c)
        r->bias[c] = d->Bias[c < d->ChannelCount ? c : 0];
}

const dmli_op_steps dmli_op_value_scale_2d = {
    .validate = validate_value_scale, .infer = infer_value_scale, .lower = lower_value_scale};
