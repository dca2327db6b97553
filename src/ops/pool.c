/* SPDX-License-Identifier: MIT */
/*
 * DirectML's pooling operators: MAX_POOLING (1.0), MAX_POOLING1 (2.0: an optional
 * OutputIndicesTensor), MAX_POOLING2 (2.1: Dilations), AVERAGE_POOLING (1.0: IncludePadding),
 * AVERAGE_POOLING1 (6.2: Dilations), LP_POOLING (1.0: P) and LP_POOLING1 (6.2: Dilations).
 * Each output element folds a window of the input's spatial dimensions: for spatial axis i
 * the positions o * Strides[i] - StartPadding[i] + k * Dilations[i], k < WindowSize[i];
 * positions outside the input are padding and are never read (nor materialised).
 *
 * DirectML's rules (the pages, feature levels up to 6.4): InputTensor {N, C, H, W} or
 * {N, C, D, H, W} (DimensionCount 4 or 5), DimensionCount (the descriptor's) the spatial
 * count, 2 or 3; OutputTensor of the input's DataType and DimensionCount, Sizes {N, C, o...}
 * with o = (padded - window) / stride + 1, padded = Sizes + StartPadding + EndPadding,
 * window = (WindowSize - 1) * Dilations + 1; OutputIndicesTensor (optional) of the output's
 * Sizes, UINT32 or UINT64. Types: max pooling FLOAT32, FLOAT16 and the 8 integer types (the
 * 5.0 tables), average and LP pooling FLOAT32 and FLOAT16.
 *
 * Chosen where the pages are silent (docs/operators.md#pooling): every array non-NULL;
 * Strides, WindowSize, Dilations and P at least 1; a window larger than the padded input gives
 * one output on that axis (DirectMLX's MaxPooling sizes it so; it reads the input's elements);
 * an output size the rule above gives or one more where the division is inexact (ONNX's
 * ceil_mode, which ONNX Runtime's DirectML provider passes as the output's Sizes; windows past
 * the padded end read nothing there). Max pooling ignores NaN unless the window holds nothing
 * else, orders -0 below +0 and keeps the first of equal maxima (its index: the element's
 * position in the input's Sizes read row-major, N and C included, as ONNX MaxPool's Indices);
 * a window with no input element gives the type's lowest value (-inf) and index 0, its
 * average 0. Lowers to the pool family (src/pool.h).
 */
#include <string.h>

#include "ops/common.h"
#include "pool.h"

#define BIT(t) (1u << (t))
#define FLOAT_TYPES (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16))
#define MAX_TYPES                                                                      \
    (FLOAT_TYPES | BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) | \
     BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) |                \
     BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32) |             \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define MAX_LIST "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

/* The members the seven descriptors share, wherever they are (NULL: the descriptor has none). */
typedef struct pool_view {
    const char *op;
    dmli_pool_op kind;
    const DML_TENSOR_DESC *input, *output, *indices;
    bool has_indices; /* the descriptor has OutputIndicesTensor */
    UINT dims;
    const UINT *strides, *window, *start, *end, *dilations; /* dilations NULL: all 1 */
    bool has_dilations;
    bool include_padding;
    UINT p;
    bool quant; /* QUANTIZED_LINEAR_AVERAGE_POOLING: its own type rules */
} pool_view;

static HRESULT check_array(const pool_view *v, const char *field, const UINT *a, UINT min)
{
    DMLI_INVALID_IF(!a, "%s: %s is NULL (it has DimensionCount (%u) entries)", v->op, field,
                    v->dims);
    for (UINT i = 0; i < v->dims; ++i)
        DMLI_INVALID_IF(a[i] < min, "%s: %s[%u] (%u) must be at least %u", v->op, field, i, a[i],
                        min);
    return S_OK;
}

static HRESULT validate_view(const pool_view *v, dmli_op_state *st)
{
    const char *op = v->op;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0], *idx = &st->outputs[1];
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", v->input, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", v->output, DMLI_TENSOR_OUTPUT, out));
    if (v->has_indices)
        DMLI_TRY(dmli_tensor_import(op, "OutputIndicesTensor", v->indices,
                                    DMLI_TENSOR_OUTPUT | DMLI_TENSOR_OPTIONAL, idx));
    unsigned types = v->kind == DMLI_POOL_MAX ? MAX_TYPES : FLOAT_TYPES;
    DMLI_INVALID_IF(!v->quant && (in->type >= 32 || !(types & BIT(in->type))),
                    "%s: InputTensor.DataType (%s) is not one %s takes (%s)", op,
                    dmli_type_name(in->type), op,
                    v->kind == DMLI_POOL_MAX ? MAX_LIST : "FLOAT32, FLOAT16");
    DMLI_INVALID_IF(in->rank != 4 && in->rank != 5,
                    "%s: InputTensor.DimensionCount (%u) must be 4 ({N, C, H, W}) or 5 ({N, C, "
                    "D, H, W})",
                    op, in->rank);
    if (!v->quant)
        DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    if (idx->present) {
        DMLI_INVALID_IF(idx->type != DML_TENSOR_DATA_TYPE_UINT32 &&
                            idx->type != DML_TENSOR_DATA_TYPE_UINT64,
                        "%s: OutputIndicesTensor.DataType (%s) must be UINT32 or UINT64", op,
                        dmli_type_name(idx->type));
        DMLI_TRY(dmli_ops_same_rank(op, "OutputIndicesTensor", idx, "InputTensor", in));
    }
    DMLI_INVALID_IF(v->dims != in->rank - 2,
                    "%s: DimensionCount (%u) must be InputTensor.DimensionCount - 2 (%u): the "
                    "spatial dimensions",
                    op, v->dims, in->rank - 2);
    DMLI_TRY(check_array(v, "Strides", v->strides, 1));
    DMLI_TRY(check_array(v, "WindowSize", v->window, 1));
    DMLI_TRY(check_array(v, "StartPadding", v->start, 0));
    DMLI_TRY(check_array(v, "EndPadding", v->end, 0));
    if (v->has_dilations)
        DMLI_TRY(check_array(v, "Dilations", v->dilations, 1));
    DMLI_INVALID_IF(v->kind == DMLI_POOL_LP && v->p < 1, "%s: P (%u) must be at least 1", op, v->p);
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->output_names[1] = "OutputIndicesTensor";
    st->n_inputs = 1;
    st->n_outputs = v->has_indices ? 2 : 1;
    return S_OK;
}

static uint64_t dilation_of(const pool_view *v, UINT i)
{
    return v->has_dilations ? v->dilations[i] : 1;
}

/* The output's Sizes: {N, C, o...}, o the rule's size or (ceil_mode) one more. */
static HRESULT infer_view(const pool_view *v, dmli_op_state *st)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0], *idx = &st->outputs[1];
    uint64_t want[DMLI_MAX_RANK] = {in->sizes[0], in->sizes[1]};
    bool ceil_ok = true;
    for (UINT i = 0; i < v->dims; ++i) {
        uint64_t padded = in->sizes[2 + i] + v->start[i] + v->end[i];
        uint64_t window = ((uint64_t)v->window[i] - 1) * dilation_of(v, i) + 1;
        /* A window past the padded input gives one output (DirectMLX's MaxPooling sizes it so);
         * it reads the input's elements and nothing past the padding. */
        bool past = window > padded;
        /* ... up to a UINT's reach (every extent the kernels take is then one a padded input
         * could have had). */
        DMLI_INVALID_IF(past && window > UINT32_MAX,
                        "%s: the window on spatial axis %u ((WindowSize %u - 1) * Dilations %llu "
                        "+ 1 = %llu) is larger than both the padded input (%llu) and 4294967295, "
                        "the largest window dmlcl pools past the input",
                        v->op, i, v->window[i], (unsigned long long)dilation_of(v, i),
                        (unsigned long long)window, (unsigned long long)padded);
        want[2 + i] = past ? 1 : (padded - window) / v->strides[i] + 1;
        uint64_t got = out->sizes[2 + i];
        /* ceil_mode: one more window, where the division is inexact, in every axis that has
         * one more (the others at the rule's size). */
        if (got != want[2 + i] &&
            (past || got != want[2 + i] + 1 || (padded - window) % v->strides[i] == 0))
            ceil_ok = false;
    }
    uint64_t ceil_sizes[DMLI_MAX_RANK];
    memcpy(ceil_sizes, want, sizeof want);
    if (ceil_ok)
        for (UINT i = 0; i < v->dims; ++i)
            ceil_sizes[2 + i] = out->sizes[2 + i];
    const uint64_t *sizes =
        ceil_ok && out->sizes[0] == want[0] && out->sizes[1] == want[1] ? ceil_sizes : want;
    DMLI_TRY(dmli_ops_expect_sizes(
        v->op, "OutputTensor", out, sizes,
        "{N, C} of the input, then (padded - window) / stride + 1 per spatial axis (1 where the "
        "window is larger than the padded input), or one more where that division is inexact "
        "(ceil_mode)"));
    if (idx->present)
        DMLI_TRY(dmli_ops_expect_sizes(v->op, "OutputIndicesTensor", idx, out->sizes,
                                       "OutputTensor.Sizes"));
    return S_OK;
}

/* Spatial axis i of the view as axis 3 - dims + i of {D, H, W}; the others neutral. */
static void lower_view(const pool_view *v, dmli_op_state *st)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0], *idx = &st->outputs[1];
    dmli_compute *c = &st->compute;
    st->computed = true;
    dmli_compute_init(c, DMLI_COMPUTE_POOL);
    dmli_pool *w = DMLI_COMPUTE_WORK(c, dmli_pool);
    w->op = v->kind;
    w->type = in->type;
    w->indices = idx->present;
    w->idx_type = idx->present ? idx->type : DML_TENSOR_DATA_TYPE_UNKNOWN;
    w->include_padding = v->include_padding;
    w->p = v->p;
    w->dims = v->dims;
    w->batch = in->sizes[0];
    w->channels = in->sizes[1];
    for (int a = 0; a < 3; ++a) {
        w->in_size[a] = w->out_size[a] = w->window[a] = w->stride[a] = w->dilation[a] = 1;
    }
    UINT first = 3 - v->dims;
    for (UINT i = 0; i < v->dims; ++i) {
        UINT a = first + i;
        w->in_size[a] = (int64_t)in->sizes[2 + i];
        w->out_size[a] = (int64_t)out->sizes[2 + i];
        w->window[a] = v->window[i];
        w->stride[a] = v->strides[i];
        w->dilation[a] = (int64_t)dilation_of(v, i);
        w->start_pad[a] = v->start[i];
        w->end_pad[a] = v->end[i];
    }
    /* {N, C, D, H, W}: a 4-D tensor's D stride is 0 (size 1). */
    for (int d = 0; d < 2; ++d) {
        w->in_stride[d] = in->strides[d];
        w->out_stride[d] = out->strides[d];
        w->idx_stride[d] = idx->present ? idx->strides[d] : 0;
    }
    for (UINT i = 0; i < v->dims; ++i) {
        UINT a = 2 + first + i;
        w->in_stride[a] = in->strides[2 + i];
        w->out_stride[a] = out->strides[2 + i];
        w->idx_stride[a] = idx->present ? idx->strides[2 + i] : 0;
    }
    /* The kernel's tensors: input, output, then the indices when present. */
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, 0);
    if (idx->present)
        dmli_compute_add(c, st, true, 1);
}

/* ---- The seven descriptors ------------------------------------------------------------ */

#define POOL_STEPS(id, DESC, fill)                                    \
    static void view_##id(const void *desc, pool_view *v)             \
    {                                                                 \
        const DESC *d = desc;                                         \
        memset(v, 0, sizeof *v);                                      \
        v->input = d->InputTensor;                                    \
        v->output = d->OutputTensor;                                  \
        v->dims = d->DimensionCount;                                  \
        v->strides = d->Strides;                                      \
        v->window = d->WindowSize;                                    \
        v->start = d->StartPadding;                                   \
        v->end = d->EndPadding;                                       \
        fill;                                                         \
    }                                                                 \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        pool_view v;                                                  \
        view_##id(desc, &v);                                          \
        return validate_view(&v, st);                                 \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        pool_view v;                                                  \
        view_##id(desc, &v);                                          \
        return infer_view(&v, st);                                    \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        pool_view v;                                                  \
        view_##id(desc, &v);                                          \
        lower_view(&v, st);                                           \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

POOL_STEPS(max_pooling, DML_MAX_POOLING_OPERATOR_DESC,
           (v->op = "MAX_POOLING", v->kind = DMLI_POOL_MAX))
POOL_STEPS(max_pooling1, DML_MAX_POOLING1_OPERATOR_DESC,
           (v->op = "MAX_POOLING1", v->kind = DMLI_POOL_MAX, v->has_indices = true,
            v->indices = d->OutputIndicesTensor))
POOL_STEPS(max_pooling2, DML_MAX_POOLING2_OPERATOR_DESC,
           (v->op = "MAX_POOLING2", v->kind = DMLI_POOL_MAX, v->has_indices = true,
            v->indices = d->OutputIndicesTensor, v->has_dilations = true,
            v->dilations = d->Dilations))
POOL_STEPS(average_pooling, DML_AVERAGE_POOLING_OPERATOR_DESC,
           (v->op = "AVERAGE_POOLING", v->kind = DMLI_POOL_AVERAGE,
            v->include_padding = d->IncludePadding != 0))
POOL_STEPS(average_pooling1, DML_AVERAGE_POOLING1_OPERATOR_DESC,
           (v->op = "AVERAGE_POOLING1", v->kind = DMLI_POOL_AVERAGE,
            v->include_padding = d->IncludePadding != 0, v->has_dilations = true,
            v->dilations = d->Dilations))
POOL_STEPS(lp_pooling, DML_LP_POOLING_OPERATOR_DESC,
           (v->op = "LP_POOLING", v->kind = DMLI_POOL_LP, v->p = d->P))
POOL_STEPS(lp_pooling1, DML_LP_POOLING1_OPERATOR_DESC,
           (v->op = "LP_POOLING1", v->kind = DMLI_POOL_LP, v->p = d->P, v->has_dilations = true,
            v->dilations = d->Dilations))

/* ---- QUANTIZED_LINEAR_AVERAGE_POOLING (6.2) ------------------------------------------------
 *
 * AVERAGE_POOLING1 over dequantized values, quantized again (ONNX Runtime's com.microsoft
 * QLinearAveragePool, which its DirectML provider maps onto it). The page's rules: InputTensor and
 * OutputTensor INT8 or UINT8 of 4 or 5 dimensions, of one DimensionCount (their types may
 * differ); InputZeroPointTensor of InputTensor's DataType and OutputZeroPointTensor of
 * OutputTensor's (both optional: 0); the two scales FLOAT32; each of the four {1, 1, 1, 1} (per
 * tensor) or {1, C, 1, 1} (per channel), 1 to 5 dimensions: read here as one element, or as C
 * along dimension 1 of a tensor of the input's DimensionCount. The arithmetic
 * (docs/operators.md): the window's integers summed exactly, less the input zero point once per
 * element read (a padding position is the zero point: it adds nothing, and IncludePadding counts
 * it in the divisor), times the input scale, over the divisor, each in float32; then
 * rint(x / output scale) + output zero point saturated (NaN 0), as QUANTIZE_LINEAR. */

enum { Q_IN_SCALE, Q_IN_ZP, Q_OUT_SCALE, Q_OUT_ZP };

static const char *const q_names[4] = {"InputScaleTensor", "InputZeroPointTensor",
                                       "OutputScaleTensor", "OutputZeroPointTensor"};

static void view_qavg(const void *desc, pool_view *v)
{
    const DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC *d = desc;
    memset(v, 0, sizeof *v);
    v->op = "QUANTIZED_LINEAR_AVERAGE_POOLING";
    v->kind = DMLI_POOL_AVERAGE;
    v->input = d->InputTensor;
    v->output = d->OutputTensor;
    v->dims = d->DimensionCount;
    v->strides = d->Strides;
    v->window = d->WindowSize;
    v->start = d->StartPadding;
    v->end = d->EndPadding;
    v->has_dilations = true;
    v->dilations = d->Dilations;
    v->include_padding = d->IncludePadding != 0;
    v->quant = true;
}

static const DML_TENSOR_DESC *q_member(const DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC *d,
                                       int k)
{
    const DML_TENSOR_DESC *const m[4] = {d->InputScaleTensor, d->InputZeroPointTensor,
                                         d->OutputScaleTensor, d->OutputZeroPointTensor};
    return m[k];
}

static bool is_int8(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static HRESULT validate_quantized_linear_average_pooling(const void *desc, dmli_op_state *st)
{
    const DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC *d = desc;
    pool_view v;
    view_qavg(desc, &v);
    const char *op = v.op;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    /* The pooling's own rules, as AVERAGE_POOLING1's, then the types and the four tensors. */
    DMLI_TRY(validate_view(&v, st));
    DMLI_INVALID_IF(!is_int8(in->type),
                    "%s: InputTensor.DataType (%s) is not one %s takes (INT8, UINT8)", op,
                    dmli_type_name(in->type), op);
    DMLI_INVALID_IF(!is_int8(out->type),
                    "%s: OutputTensor.DataType (%s) is not one %s gives (INT8, UINT8)", op,
                    dmli_type_name(out->type), op);
    for (int k = 0; k < 4; ++k) {
        dmli_tensor *q = &st->inputs[1 + k];
        bool zp = k == Q_IN_ZP || k == Q_OUT_ZP;
        DMLI_TRY(dmli_tensor_import(op, q_names[k], q_member(d, k),
                                    DMLI_TENSOR_INPUT | (zp ? DMLI_TENSOR_OPTIONAL : 0), q));
        st->input_names[1 + k] = q_names[k];
        if (!q->present)
            continue;
        if (zp)
            DMLI_TRY(dmli_ops_same_type(op, q_names[k], q,
                                        k == Q_IN_ZP ? "InputTensor" : "OutputTensor",
                                        k == Q_IN_ZP ? in : out));
        else
            DMLI_INVALID_IF(q->type != DML_TENSOR_DATA_TYPE_FLOAT32,
                            "%s: %s.DataType (%s) must be FLOAT32", op, q_names[k],
                            dmli_type_name(q->type));
        DMLI_INVALID_IF(q->rank > 5, "%s: %s.DimensionCount (%u) must be 1 to 5", op, q_names[k],
                        q->rank);
    }
    st->n_inputs = 5;
    return S_OK;
}

/* A scale or zero point: one element, or C along dimension 1 of the input's DimensionCount. */
static HRESULT q_shape(const char *op, const char *name, const dmli_tensor *q,
                       const dmli_tensor *in)
{
    if (q->elements == 1)
        return S_OK;
    bool channel = q->rank == in->rank && q->sizes[1] == in->sizes[1];
    for (uint32_t i = 0; channel && i < q->rank; ++i)
        channel = i == 1 || q->sizes[i] == 1;
    DMLI_INVALID_IF(!channel,
                    "%s: %s holds %llu elements; it must hold 1 (per tensor) or C = %llu along "
                    "dimension 1 of InputTensor.DimensionCount (%u) dimensions (per channel)",
                    op, name, (unsigned long long)q->elements, (unsigned long long)in->sizes[1],
                    in->rank);
    return S_OK;
}

static HRESULT infer_quantized_linear_average_pooling(const void *desc, dmli_op_state *st)
{
    pool_view v;
    view_qavg(desc, &v);
    for (int k = 0; k < 4; ++k)
        if (st->inputs[1 + k].present)
            DMLI_TRY(q_shape(v.op, q_names[k], &st->inputs[1 + k], &st->inputs[0]));
    return infer_view(&v, st);
}

static void lower_quantized_linear_average_pooling(const void *desc, dmli_op_state *st)
{
    pool_view v;
    view_qavg(desc, &v);
    lower_view(&v, st);
    dmli_pool *w = DMLI_COMPUTE_WORK(&st->compute, dmli_pool);
    w->quant = true;
    w->out_type = st->outputs[0].type;
    w->has_in_zp = st->inputs[1 + Q_IN_ZP].present;
    w->has_out_zp = st->inputs[1 + Q_OUT_ZP].present;
    for (int k = 0; k < 4; ++k) {
        const dmli_tensor *q = &st->inputs[1 + k];
        w->q_stride[k] = q->present && q->elements > 1 ? q->strides[1] : 0;
        /* An absent zero point: the input scale stands in, never read. */
        dmli_compute_add(&st->compute, st, false, (uint32_t)(q->present ? 1 + k : 1 + Q_IN_SCALE));
    }
}

const dmli_op_steps dmli_op_quantized_linear_average_pooling = {
    .validate = validate_quantized_linear_average_pooling,
    .infer = infer_quantized_linear_average_pooling,
    .lower = lower_quantized_linear_average_pooling};
