/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_ROI_POOLING, DML_OPERATOR_ROI_ALIGN and DML_OPERATOR_ROI_ALIGN1: regions of
 * an NCHW input, each pooled (the maximum over integer bins) or sampled (bilinear or nearest,
 * averaged or the maximum) into {NumROIs, C, OutputHeight, OutputWidth}.
 *
 * The pages' rules: InputTensor and OutputTensor of 4 dimensions, FLOAT32 or FLOAT16, the
 * rois of the input's DataType; ROI_POOLING's ROITensor {1, 1, NumROIs, 5} ([batch, x1, y1,
 * x2, y2]) and OutputTensor {NumROIs, C, PooledSize.Height, PooledSize.Width};
 * ROI_ALIGN*'s ROITensor {NumROIs, 4} of 2 to 4 dimensions after 1s ([x1, y1, x2, y2]),
 * BatchIndicesTensor {NumROIs} of 1 to 4 dimensions after 1s, UINT32 (UINT64 too: ONNX
 * Runtime's DirectML provider binds ONNX's int64 batch_indices as UINT64),
 * ReductionFunction AVERAGE or MAX, InterpolationMode NEAREST_NEIGHBOR or LINEAR.
 * dmlcl's where the pages are silent (docs/operators.md): MinimumSamplesPerOutput at least 1
 * and at most MaximumSamplesPerOutput; batch values past the input clamped into it.
 *
 * Lowers to the window family (roi.h, cl/roi.cl): one item per output element.
 *
 * DML_OPERATOR_ROI_ALIGN_GRAD (4.1): ROI_ALIGN1's backward pass, the same members and placement
 * (InputPixelOffset, OutputPixelOffset, AlignRegionsToCorners). Optional InputTensor (the
 * forward's input), InputGradientTensor {NumROIs, C, OutputHeight, OutputWidth}, ROITensor,
 * BatchIndicesTensor, optional OutputGradientTensor (the forward input's sizes) and
 * OutputROIGradientTensor (ROITensor's sizes). The page's rules: at least one output; InputTensor
 * required with OutputROIGradientTensor or ReductionFunction MAX; the five float tensors of one
 * DataType, FLOAT32 or FLOAT16; 4 dimensions but the regions' (2 to 4) and the batch indices'
 * (1 to 4, UINT32; UINT64 taken as the forward takes it). dmlcl's: the forward's sample rules;
 * OutputGradientTensor's Sizes InputTensor's where both are given, its channels the incoming
 * gradient's. OutputROIGradientTensor is the derivative of the forward by the regions' values
 * (the page's imageGradX and imageGradY times the derivative of each sample's coordinate by the
 * region's corners: docs/operators.md). Lowers to cl/roi.cl's roi_align_grad: gathers, one item
 * per element of either output.
 */
#include <string.h>

#include "ops/common.h"
#include "roi.h"

static HRESULT float_type(const char *op, const char *field, const dmli_tensor *t)
{
    DMLI_INVALID_IF(
        t->type != DML_TENSOR_DATA_TYPE_FLOAT32 && t->type != DML_TENSOR_DATA_TYPE_FLOAT16,
        "%s: %s.DataType (%s) must be FLOAT32 or FLOAT16", op, field, dmli_type_name(t->type));
    return S_OK;
}

/* Sizes that end in `want` (n entries) after leading 1s, the rank in [lo, 4]. */
static HRESULT right_aligned(const char *op, const char *field, const dmli_tensor *t,
                             const uint64_t *want, uint32_t n, uint32_t lo, const char *rule)
{
    char got[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(t->rank < lo || t->rank > 4, "%s: %s.DimensionCount (%u) must be in [%u, 4]",
                    op, field, t->rank, lo);
    bool ok = true;
    for (uint32_t i = 0; i < t->rank; ++i) {
        uint32_t from_end = t->rank - 1 - i;
        ok = ok && t->sizes[i] == (from_end < n ? want[n - 1 - from_end] : 1);
    }
    DMLI_INVALID_IF(!ok, "%s: %s.Sizes (%s) must be %s", op, field,
                    dmli_format_dims(got, sizeof got, t->rank, t->sizes), rule);
    return S_OK;
}

/* Imports n_in inputs and the output; the input and output rules shared by the three. */
static HRESULT import(const char *op, const DML_TENSOR_DESC *const *in, const char *const *names,
                      uint32_t n_in, const DML_TENSOR_DESC *out, dmli_op_state *st)
{
    for (uint32_t i = 0; i < n_in; ++i) {
        DMLI_TRY(dmli_tensor_import(op, names[i], in[i], DMLI_TENSOR_INPUT, &st->inputs[i]));
        st->input_names[i] = names[i];
    }
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", out, DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    st->output_names[0] = "OutputTensor";
    st->n_inputs = n_in;
    st->n_outputs = 1;
    st->data_input = 0;
    const dmli_tensor *x = &st->inputs[0], *y = &st->outputs[0];
    DMLI_INVALID_IF(x->rank != 4, "%s: InputTensor.DimensionCount (%u) must be 4", op, x->rank);
    DMLI_INVALID_IF(y->rank != 4, "%s: OutputTensor.DimensionCount (%u) must be 4", op, y->rank);
    DMLI_TRY(float_type(op, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_type(op, "ROITensor", &st->inputs[1], "InputTensor", x));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", y, "InputTensor", x));
    return dmli_tensor_check_disjoint(op, "OutputTensor", y);
}

/* The description's common part: the input's and output's shapes and strides. */
static dmli_roi *start(dmli_op_state *st, dmli_roi_kind kind, uint32_t n_in)
{
    const dmli_tensor *x = &st->inputs[0], *y = &st->outputs[0];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_ROI);
    for (uint32_t i = 0; i < n_in; ++i)
        dmli_compute_add(c, st, false, i);
    dmli_compute_add(c, st, true, 0);
    dmli_roi *r = DMLI_COMPUTE_WORK(c, dmli_roi);
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->type = x->type;
    r->batch = (int64_t)x->sizes[0];
    r->channels = (int64_t)x->sizes[1];
    r->in_h = (int64_t)x->sizes[2];
    r->in_w = (int64_t)x->sizes[3];
    r->rois = (int64_t)y->sizes[0];
    r->out_h = (int64_t)y->sizes[2];
    r->out_w = (int64_t)y->sizes[3];
    memcpy(r->in_s, x->strides, sizeof r->in_s);
    memcpy(r->out_s, y->strides, sizeof r->out_s);
    return r;
}

/* ---- ROI_POOLING --------------------------------------------------------------------------- */

#define POOL "ROI_POOLING"

static HRESULT pool_validate(const void *desc, dmli_op_state *st)
{
    const DML_ROI_POOLING_OPERATOR_DESC *d = desc;
    static const char *const names[] = {"InputTensor", "ROITensor"};
    const DML_TENSOR_DESC *in[] = {d->InputTensor, d->ROITensor};
    DMLI_TRY(import(POOL, in, names, 2, d->OutputTensor, st));
    const dmli_tensor *rois = &st->inputs[1];
    DMLI_INVALID_IF(rois->rank != 4, POOL ": ROITensor.DimensionCount (%u) must be 4", rois->rank);
    return S_OK;
}

static HRESULT pool_infer(const void *desc, dmli_op_state *st)
{
    const DML_ROI_POOLING_OPERATOR_DESC *d = desc;
    const dmli_tensor *x = &st->inputs[0], *rois = &st->inputs[1];
    const uint64_t want_roi[2] = {rois->sizes[2], 5};
    DMLI_TRY(right_aligned(POOL, "ROITensor", rois, want_roi, 2, 4, "{1, 1, NumROIs, 5}"));
    const uint64_t want[4] = {rois->sizes[2], x->sizes[1], d->PooledSize.Height,
                              d->PooledSize.Width};
    return dmli_ops_expect_sizes(POOL, "OutputTensor", &st->outputs[0], want,
                                 "{NumROIs, InputTensor.Sizes[1], PooledSize.Height, "
                                 "PooledSize.Width}");
}

static void pool_lower(const void *desc, dmli_op_state *st)
{
    const DML_ROI_POOLING_OPERATOR_DESC *d = desc;
    const dmli_tensor *rois = &st->inputs[1];
    dmli_roi *r = start(st, DMLI_ROI_POOL, 2);
    r->roi_sr = rois->strides[2];
    r->roi_sk = rois->strides[3];
    r->scale_x = r->scale_y = d->SpatialScale;
}

const dmli_op_steps dmli_op_roi_pooling = {
    .validate = pool_validate, .infer = pool_infer, .lower = pool_lower};

/* ---- ROI_ALIGN, ROI_ALIGN1 ----------------------------------------------------------------- */

/* The members both descriptors share, ROI_ALIGN's offsets and corners those it implies. */
typedef struct align_view {
    const char *op;
    const DML_TENSOR_DESC *in[3], *out;
    DML_REDUCE_FUNCTION reduction;
    DML_INTERPOLATION_MODE interpolation;
    float scale_x, scale_y, in_off, out_off, oob;
    UINT min_samples, max_samples;
    BOOL corners;
} align_view;

static align_view align_of(const void *desc)
{
    const DML_ROI_ALIGN_OPERATOR_DESC *d = desc;
    return (align_view){"ROI_ALIGN",
                        {d->InputTensor, d->ROITensor, d->BatchIndicesTensor},
                        d->OutputTensor,
                        d->ReductionFunction,
                        d->InterpolationMode,
                        d->SpatialScaleX,
                        d->SpatialScaleY,
                        0.5f,
                        -0.5f,
                        d->OutOfBoundsInputValue,
                        d->MinimumSamplesPerOutput,
                        d->MaximumSamplesPerOutput,
                        0};
}

static align_view align1_of(const void *desc)
{
    const DML_ROI_ALIGN1_OPERATOR_DESC *d = desc;
    return (align_view){"ROI_ALIGN1",
                        {d->InputTensor, d->ROITensor, d->BatchIndicesTensor},
                        d->OutputTensor,
                        d->ReductionFunction,
                        d->InterpolationMode,
                        d->SpatialScaleX,
                        d->SpatialScaleY,
                        d->InputPixelOffset,
                        d->OutputPixelOffset,
                        d->OutOfBoundsInputValue,
                        d->MinimumSamplesPerOutput,
                        d->MaximumSamplesPerOutput,
                        d->AlignRegionsToCorners};
}

static HRESULT align_validate(const align_view *v, dmli_op_state *st)
{
    static const char *const names[] = {"InputTensor", "ROITensor", "BatchIndicesTensor"};
    DMLI_TRY(import(v->op, v->in, names, 3, v->out, st));
    const dmli_tensor *idx = &st->inputs[2];
    DMLI_INVALID_IF(idx->type != DML_TENSOR_DATA_TYPE_UINT32 &&
                        idx->type != DML_TENSOR_DATA_TYPE_UINT64,
                    "%s: BatchIndicesTensor.DataType (%s) must be UINT32 (or UINT64)", v->op,
                    dmli_type_name(idx->type));
    DMLI_INVALID_IF(v->reduction != DML_REDUCE_FUNCTION_AVERAGE &&
                        v->reduction != DML_REDUCE_FUNCTION_MAX,
                    "%s: ReductionFunction (%d) must be DML_REDUCE_FUNCTION_AVERAGE or "
                    "DML_REDUCE_FUNCTION_MAX",
                    v->op, (int)v->reduction);
    DMLI_INVALID_IF(v->interpolation != DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR &&
                        v->interpolation != DML_INTERPOLATION_MODE_LINEAR,
                    "%s: InterpolationMode (%d) must be DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR "
                    "or DML_INTERPOLATION_MODE_LINEAR",
                    v->op, (int)v->interpolation);
    DMLI_INVALID_IF(v->min_samples < 1, "%s: MinimumSamplesPerOutput (%u) must be at least 1",
                    v->op, v->min_samples);
    DMLI_INVALID_IF(v->min_samples > v->max_samples,
                    "%s: MinimumSamplesPerOutput (%u) must be at most MaximumSamplesPerOutput (%u)",
                    v->op, v->min_samples, v->max_samples);
    return S_OK;
}

static HRESULT align_infer(const align_view *v, dmli_op_state *st)
{
    const dmli_tensor *x = &st->inputs[0], *rois = &st->inputs[1], *idx = &st->inputs[2];
    const dmli_tensor *y = &st->outputs[0];
    const uint64_t want_roi[2] = {rois->sizes[rois->rank > 1 ? rois->rank - 2 : 0], 4};
    DMLI_TRY(right_aligned(v->op, "ROITensor", rois, want_roi, 2, 2,
                           "{NumROIs, 4}, {1, NumROIs, 4} or {1, 1, NumROIs, 4}"));
    const uint64_t n = want_roi[0];
    DMLI_TRY(right_aligned(v->op, "BatchIndicesTensor", idx, &n, 1, 1,
                           "{NumROIs} after 1s (NumROIs from ROITensor)"));
    const uint64_t want[4] = {n, x->sizes[1], y->sizes[2], y->sizes[3]};
    return dmli_ops_expect_sizes(v->op, "OutputTensor", y, want,
                                 "{NumROIs, InputTensor.Sizes[1], OutputHeight, OutputWidth}");
}

static void align_lower(const align_view *v, dmli_op_state *st)
{
    const dmli_tensor *rois = &st->inputs[1], *idx = &st->inputs[2];
    dmli_roi *r = start(st, DMLI_ROI_ALIGN, 3);
    r->idx64 = idx->type == DML_TENSOR_DATA_TYPE_UINT64;
    r->max = v->reduction == DML_REDUCE_FUNCTION_MAX;
    r->linear = v->interpolation == DML_INTERPOLATION_MODE_LINEAR;
    r->corners = v->corners != 0;
    r->roi_sr = rois->strides[rois->rank - 2];
    r->roi_sk = rois->strides[rois->rank - 1];
    r->idx_s = idx->strides[idx->rank - 1];
    r->scale_x = v->scale_x;
    r->scale_y = v->scale_y;
    r->in_off = v->in_off;
    r->out_off = v->out_off;
    r->oob = v->oob;
    r->min_samples = v->min_samples;
    r->max_samples = v->max_samples;
}

static HRESULT align_validate0(const void *desc, dmli_op_state *st)
{
    align_view v = align_of(desc);
    return align_validate(&v, st);
}
static HRESULT align_infer0(const void *desc, dmli_op_state *st)
{
    align_view v = align_of(desc);
    return align_infer(&v, st);
}
static void align_lower0(const void *desc, dmli_op_state *st)
{
    align_view v = align_of(desc);
    align_lower(&v, st);
}
static HRESULT align_validate1(const void *desc, dmli_op_state *st)
{
    align_view v = align1_of(desc);
    return align_validate(&v, st);
}
static HRESULT align_infer1(const void *desc, dmli_op_state *st)
{
    align_view v = align1_of(desc);
    return align_infer(&v, st);
}
static void align_lower1(const void *desc, dmli_op_state *st)
{
    align_view v = align1_of(desc);
    align_lower(&v, st);
}

const dmli_op_steps dmli_op_roi_align = {
    .validate = align_validate0, .infer = align_infer0, .lower = align_lower0};
const dmli_op_steps dmli_op_roi_align1 = {
    .validate = align_validate1, .infer = align_infer1, .lower = align_lower1};

/* ---- ROI_ALIGN_GRAD ------------------------------------------------------------------------- */

#define AG "ROI_ALIGN_GRAD"

enum { AG_X, AG_DY, AG_ROI, AG_IDX };
enum { AG_DX, AG_DROI };

static HRESULT grad_validate(const void *desc, dmli_op_state *st)
{
    const DML_ROI_ALIGN_GRAD_OPERATOR_DESC *d = desc;
    static const char *const names[] = {"InputTensor", "InputGradientTensor", "ROITensor",
                                        "BatchIndicesTensor"};
    const DML_TENSOR_DESC *in[] = {d->InputTensor, d->InputGradientTensor, d->ROITensor,
                                   d->BatchIndicesTensor};
    for (uint32_t i = 0; i < 4; ++i) {
        unsigned flags = DMLI_TENSOR_INPUT | (i == AG_X ? DMLI_TENSOR_OPTIONAL : 0);
        DMLI_TRY(dmli_tensor_import(AG, names[i], in[i], flags, &st->inputs[i]));
        st->input_names[i] = names[i];
    }
    DMLI_TRY(dmli_tensor_import(AG, "OutputGradientTensor", d->OutputGradientTensor,
                                DMLI_TENSOR_OUTPUT | DMLI_TENSOR_OPTIONAL, &st->outputs[AG_DX]));
    DMLI_TRY(dmli_tensor_import(AG, "OutputROIGradientTensor", d->OutputROIGradientTensor,
                                DMLI_TENSOR_OUTPUT | DMLI_TENSOR_OPTIONAL, &st->outputs[AG_DROI]));
    st->output_names[AG_DX] = "OutputGradientTensor";
    st->output_names[AG_DROI] = "OutputROIGradientTensor";
    st->n_inputs = 4;
    st->n_outputs = 2;
    st->data_input = AG_DY;
    const dmli_tensor *x = &st->inputs[AG_X], *dy = &st->inputs[AG_DY];
    const dmli_tensor *dx = &st->outputs[AG_DX], *droi = &st->outputs[AG_DROI];
    DMLI_INVALID_IF(!dx->present && !droi->present,
                    AG ": OutputGradientTensor and OutputROIGradientTensor are both NULL: at "
                       "least one must be supplied");
    DMLI_INVALID_IF(!x->present && droi->present,
                    AG ": InputTensor is NULL: it must be supplied with OutputROIGradientTensor");
    DMLI_INVALID_IF(!x->present && d->ReductionFunction == DML_REDUCE_FUNCTION_MAX,
                    AG ": InputTensor is NULL: it must be supplied when ReductionFunction is "
                       "DML_REDUCE_FUNCTION_MAX");
    DMLI_INVALID_IF(dy->rank != 4, AG ": InputGradientTensor.DimensionCount (%u) must be 4",
                    dy->rank);
    DMLI_TRY(float_type(AG, "InputGradientTensor", dy));
    if (x->present) {
        DMLI_INVALID_IF(x->rank != 4, AG ": InputTensor.DimensionCount (%u) must be 4", x->rank);
        DMLI_TRY(dmli_ops_same_type(AG, "InputTensor", x, "InputGradientTensor", dy));
    }
    DMLI_TRY(dmli_ops_same_type(AG, "ROITensor", &st->inputs[AG_ROI], "InputGradientTensor", dy));
    if (dx->present) {
        DMLI_INVALID_IF(dx->rank != 4, AG ": OutputGradientTensor.DimensionCount (%u) must be 4",
                        dx->rank);
        DMLI_TRY(dmli_ops_same_type(AG, "OutputGradientTensor", dx, "InputGradientTensor", dy));
        DMLI_TRY(dmli_tensor_check_disjoint(AG, "OutputGradientTensor", dx));
    }
    if (droi->present) {
        DMLI_TRY(
            dmli_ops_same_type(AG, "OutputROIGradientTensor", droi, "InputGradientTensor", dy));
        DMLI_TRY(dmli_tensor_check_disjoint(AG, "OutputROIGradientTensor", droi));
    }
    align_view v = {AG,
                    {d->InputTensor, d->ROITensor, d->BatchIndicesTensor},
                    d->OutputGradientTensor,
                    d->ReductionFunction,
                    d->InterpolationMode,
                    d->SpatialScaleX,
                    d->SpatialScaleY,
                    d->InputPixelOffset,
                    d->OutputPixelOffset,
                    0.0f,
                    d->MinimumSamplesPerOutput,
                    d->MaximumSamplesPerOutput,
                    d->AlignRegionsToCorners};
    const dmli_tensor *idx = &st->inputs[AG_IDX];
    DMLI_INVALID_IF(idx->type != DML_TENSOR_DATA_TYPE_UINT32 &&
                        idx->type != DML_TENSOR_DATA_TYPE_UINT64,
                    AG ": BatchIndicesTensor.DataType (%s) must be UINT32 (or UINT64)",
                    dmli_type_name(idx->type));
    DMLI_INVALID_IF(v.reduction != DML_REDUCE_FUNCTION_AVERAGE &&
                        v.reduction != DML_REDUCE_FUNCTION_MAX,
                    AG ": ReductionFunction (%d) must be DML_REDUCE_FUNCTION_AVERAGE or "
                       "DML_REDUCE_FUNCTION_MAX",
                    (int)v.reduction);
    DMLI_INVALID_IF(v.interpolation != DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR &&
                        v.interpolation != DML_INTERPOLATION_MODE_LINEAR,
                    AG ": InterpolationMode (%d) must be DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR "
                       "or DML_INTERPOLATION_MODE_LINEAR",
                    (int)v.interpolation);
    DMLI_INVALID_IF(v.min_samples < 1, AG ": MinimumSamplesPerOutput (%u) must be at least 1",
                    v.min_samples);
    DMLI_INVALID_IF(v.min_samples > v.max_samples,
                    AG ": MinimumSamplesPerOutput (%u) must be at most MaximumSamplesPerOutput "
                       "(%u)",
                    v.min_samples, v.max_samples);
    return S_OK;
}

static HRESULT grad_infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *x = &st->inputs[AG_X], *dy = &st->inputs[AG_DY];
    const dmli_tensor *rois = &st->inputs[AG_ROI], *idx = &st->inputs[AG_IDX];
    const dmli_tensor *dx = &st->outputs[AG_DX], *droi = &st->outputs[AG_DROI];
    const uint64_t want_roi[2] = {rois->sizes[rois->rank > 1 ? rois->rank - 2 : 0], 4};
    DMLI_TRY(right_aligned(AG, "ROITensor", rois, want_roi, 2, 2,
                           "{NumROIs, 4}, {1, NumROIs, 4} or {1, 1, NumROIs, 4}"));
    const uint64_t n = want_roi[0];
    DMLI_TRY(right_aligned(AG, "BatchIndicesTensor", idx, &n, 1, 1,
                           "{NumROIs} after 1s (NumROIs from ROITensor)"));
    DMLI_INVALID_IF(dy->sizes[0] != n,
                    AG ": InputGradientTensor.Sizes[0] (%llu) must be NumROIs (%llu, from "
                       "ROITensor)",
                    (unsigned long long)dy->sizes[0], (unsigned long long)n);
    const dmli_tensor *image = x->present ? x : dx;
    if (x->present && dx->present)
        DMLI_TRY(
            dmli_ops_expect_sizes(AG, "OutputGradientTensor", dx, x->sizes, "InputTensor.Sizes"));
    if (image->present)
        DMLI_INVALID_IF(image->sizes[1] != dy->sizes[1],
                        AG ": %s.Sizes[1] (%llu) must equal InputGradientTensor.Sizes[1] (%llu): "
                           "the channels",
                        image == x ? "InputTensor" : "OutputGradientTensor",
                        (unsigned long long)image->sizes[1], (unsigned long long)dy->sizes[1]);
    if (droi->present) {
        DMLI_INVALID_IF(droi->rank != rois->rank,
                        AG ": OutputROIGradientTensor.DimensionCount (%u) must equal "
                           "ROITensor.DimensionCount (%u)",
                        droi->rank, rois->rank);
        DMLI_TRY(dmli_ops_expect_sizes(AG, "OutputROIGradientTensor", droi, rois->sizes,
                                       "ROITensor.Sizes"));
    }
    return S_OK;
}

static void grad_lower(const void *desc, dmli_op_state *st)
{
    const DML_ROI_ALIGN_GRAD_OPERATOR_DESC *d = desc;
    const dmli_tensor *x = &st->inputs[AG_X], *dy = &st->inputs[AG_DY];
    const dmli_tensor *rois = &st->inputs[AG_ROI], *idx = &st->inputs[AG_IDX];
    const dmli_tensor *dx = &st->outputs[AG_DX], *droi = &st->outputs[AG_DROI];
    const dmli_tensor *image = x->present ? x : dx;
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_ROI);
    if (x->present)
        dmli_compute_add(c, st, false, AG_X);
    dmli_compute_add(c, st, false, AG_DY);
    dmli_compute_add(c, st, false, AG_ROI);
    dmli_compute_add(c, st, false, AG_IDX);
    if (dx->present)
        dmli_compute_add(c, st, true, AG_DX);
    if (droi->present)
        dmli_compute_add(c, st, true, AG_DROI);
    dmli_roi *r = DMLI_COMPUTE_WORK(c, dmli_roi);
    memset(r, 0, sizeof *r);
    r->kind = DMLI_ROI_ALIGN_GRAD;
    r->type = dy->type;
    r->has_x = x->present;
    r->has_dx = dx->present;
    r->has_droi = droi->present;
    r->batch = (int64_t)image->sizes[0];
    r->channels = (int64_t)dy->sizes[1];
    r->in_h = (int64_t)image->sizes[2];
    r->in_w = (int64_t)image->sizes[3];
    r->rois = (int64_t)dy->sizes[0];
    r->out_h = (int64_t)dy->sizes[2];
    r->out_w = (int64_t)dy->sizes[3];
    memcpy(r->in_s, image->strides, sizeof r->in_s);
    memcpy(r->out_s, dy->strides, sizeof r->out_s);
    if (dx->present)
        memcpy(r->dx_s, dx->strides, sizeof r->dx_s);
    if (droi->present) {
        r->droi_sr = droi->strides[droi->rank - 2];
        r->droi_sk = droi->strides[droi->rank - 1];
    }
    r->idx64 = idx->type == DML_TENSOR_DATA_TYPE_UINT64;
    r->max = d->ReductionFunction == DML_REDUCE_FUNCTION_MAX;
    r->linear = d->InterpolationMode == DML_INTERPOLATION_MODE_LINEAR;
    r->corners = d->AlignRegionsToCorners != 0;
    r->roi_sr = rois->strides[rois->rank - 2];
    r->roi_sk = rois->strides[rois->rank - 1];
    r->idx_s = idx->strides[idx->rank - 1];
    r->scale_x = d->SpatialScaleX;
    r->scale_y = d->SpatialScaleY;
    r->in_off = d->InputPixelOffset;
    r->out_off = d->OutputPixelOffset;
    r->min_samples = d->MinimumSamplesPerOutput;
    r->max_samples = d->MaximumSamplesPerOutput;
}

const dmli_op_steps dmli_op_roi_align_grad = {
    .validate = grad_validate, .infer = grad_infer, .lower = grad_lower};
