/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_FOLD (col2im) and DML_OPERATOR_UNFOLD (im2col) over DimensionCount spatial
 * dimensions: the image {N, C, S_0, ..., S_{d-1}} and the columns {N, C * K, L}, K the
 * product of WindowSizes and L the product of the blocks per dimension
 *
 *   B_i = (S_i + StartPadding_i + EndPadding_i - Dilations_i * (WindowSizes_i - 1) - 1)
 *         / Strides_i + 1
 *
 * Block b's window position k (both row-major over the dimensions) sits at image position
 * b_i * Strides_i + k_i * Dilations_i - StartPadding_i. UNFOLD copies it into column element
 * (n, c * K + k, b) (0 where it is padding); FOLD sums into each image element the column
 * elements landing on it, in window-position order (one item per image element: the same
 * sum on every device).
 *
 * The pages' rules (DML_FEATURE_LEVEL_6_4): DimensionCount in [1, 6]; InputTensor and
 * OutputTensor of one DataType, 3 to 8 dimensions. dmlcl's where the pages are silent
 * (docs/operators.md): the image of exactly DimensionCount + 2 dimensions, the columns
 * {N, C * K, L} after leading 1s (the pages' examples: 3 dimensions); WindowSizes, Strides
 * and Dilations at least 1, every B_i at least 1; the eleven types of 8 to 64 bits.
 */
#include <string.h>

#include "ops/common.h"
#include "roi.h"

typedef struct fold_view {
    const char *op;
    bool fold;
    const DML_TENSOR_DESC *in, *out;
    UINT dims;
    const UINT *window, *strides, *dilations, *start, *end;
} fold_view;

static fold_view fold_of(const void *desc)
{
    const DML_FOLD_OPERATOR_DESC *d = desc;
    return (fold_view){
        "FOLD",         true,       d->InputTensor, d->OutputTensor, d->DimensionCount,
        d->WindowSizes, d->Strides, d->Dilations,   d->StartPadding, d->EndPadding};
}

static fold_view unfold_of(const void *desc)
{
    const DML_UNFOLD_OPERATOR_DESC *d = desc;
    return (fold_view){"UNFOLD",          false,          d->InputTensor, d->OutputTensor,
                       d->DimensionCount, d->WindowSizes, d->Strides,     d->Dilations,
                       d->StartPadding,   d->EndPadding};
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static HRESULT validate(const fold_view *v, dmli_op_state *st)
{
    DMLI_TRY(dmli_tensor_import(v->op, "InputTensor", v->in, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(
        dmli_tensor_import(v->op, "OutputTensor", v->out, DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->n_inputs = st->n_outputs = 1;
    st->data_input = 0;
    const dmli_tensor *x = &st->inputs[0], *y = &st->outputs[0];
    DMLI_INVALID_IF(x->type == DML_TENSOR_DATA_TYPE_UINT4 || x->type == DML_TENSOR_DATA_TYPE_INT4,
                    "%s: InputTensor.DataType (%s) is not in the operator's table (FLOAT64, "
                    "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8)",
                    v->op, dmli_type_name(x->type));
    DMLI_TRY(dmli_ops_same_type(v->op, "OutputTensor", y, "InputTensor", x));
    DMLI_TRY(dmli_tensor_check_disjoint(v->op, "OutputTensor", y));
    DMLI_INVALID_IF(v->dims < 1 || v->dims > DMLI_WN_DIMS,
                    "%s: DimensionCount (%u) must be in [1, 6]", v->op, v->dims);
    const struct {
        const char *name;
        const UINT *a;
        bool positive;
    } arrays[] = {{"WindowSizes", v->window, true},
                  {"Strides", v->strides, true},
                  {"Dilations", v->dilations, true},
                  {"StartPadding", v->start, false},
                  {"EndPadding", v->end, false}};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) {
        DMLI_INVALID_IF(!arrays[i].a, "%s: %s is NULL (DimensionCount %u entries needed)", v->op,
                        arrays[i].name, v->dims);
        for (UINT d = 0; d < v->dims && arrays[i].positive; ++d)
            DMLI_INVALID_IF(arrays[i].a[d] == 0, "%s: %s[%u] (0) must be at least 1", v->op,
                            arrays[i].name, d);
    }
    const dmli_tensor *img = v->fold ? y : x;
    DMLI_INVALID_IF(img->rank != v->dims + 2,
                    "%s: %s.DimensionCount (%u) must be DimensionCount + 2 (%u): {N, C, the "
                    "spatial sizes}",
                    v->op, v->fold ? "OutputTensor" : "InputTensor", img->rank, v->dims + 2);
    return S_OK;
}

/* The blocks per dimension of the image's spatial sizes (0: none fits). */
static uint64_t blocks_of(const fold_view *v, const dmli_tensor *img, UINT d)
{
    uint64_t span = img->sizes[d + 2] + (uint64_t)v->start[d] + v->end[d];
    uint64_t reach = (uint64_t)v->dilations[d] * (v->window[d] - 1) + 1;
    return span < reach ? 0 : (span - reach) / v->strides[d] + 1;
}

static HRESULT infer(const fold_view *v, dmli_op_state *st)
{
    const dmli_tensor *x = &st->inputs[0], *y = &st->outputs[0];
    const dmli_tensor *img = v->fold ? y : x, *col = v->fold ? x : y;
    const char *img_name = v->fold ? "OutputTensor" : "InputTensor";
    const char *col_name = v->fold ? "InputTensor" : "OutputTensor";
    uint64_t k = 1, l = 1;
    for (UINT d = 0; d < v->dims; ++d) {
        uint64_t b = blocks_of(v, img, d);
        DMLI_INVALID_IF(b == 0,
                        "%s: no window fits along spatial dimension %u: %s.Sizes[%u] (%llu) + "
                        "StartPadding (%u) + EndPadding (%u) must be at least Dilations (%u) * "
                        "(WindowSizes (%u) - 1) + 1",
                        v->op, d, img_name, d + 2, (unsigned long long)img->sizes[d + 2],
                        v->start[d], v->end[d], v->dilations[d], v->window[d]);
        k = mul_sat(k, v->window[d]);
        l = mul_sat(l, b);
    }
    DMLI_INVALID_IF(col->rank < 3, "%s: %s.DimensionCount (%u) must be at least 3: {N, C * K, L}",
                    v->op, col_name, col->rank);
    const uint64_t want[3] = {img->sizes[0], mul_sat(img->sizes[1], k), l};
    if (v->fold) {
        DMLI_INVALID_IF(x->sizes[x->rank - 2] % k != 0 || x->sizes[x->rank - 2] / k != y->sizes[1],
                        "FOLD: InputTensor.Sizes[%u] (%llu) must be OutputTensor.Sizes[1] (%llu) "
                        "times the product of WindowSizes (%llu)",
                        x->rank - 2, (unsigned long long)x->sizes[x->rank - 2],
                        (unsigned long long)y->sizes[1], (unsigned long long)k);
    }
    bool ok = true;
    for (uint32_t i = 0; i < col->rank; ++i) {
        uint32_t from_end = col->rank - 1 - i;
        ok = ok && col->sizes[i] == (from_end < 3 ? want[2 - from_end] : 1);
    }
    char got[DMLI_DIMS_BUF], exp[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(!ok,
                    "%s: %s.Sizes (%s) must be %s after leading 1s: {N, C * K, L} (K the product "
                    "of WindowSizes, L the blocks' count)",
                    v->op, col_name, dmli_format_dims(got, sizeof got, col->rank, col->sizes),
                    dmli_format_dims(exp, sizeof exp, 3, want));
    return S_OK;
}

static void lower(const fold_view *v, dmli_op_state *st)
{
    const dmli_tensor *x = &st->inputs[0], *y = &st->outputs[0];
    const dmli_tensor *img = v->fold ? y : x, *col = v->fold ? x : y;
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_ROI);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, 0);
    dmli_roi *r = DMLI_COMPUTE_WORK(c, dmli_roi);
    memset(r, 0, sizeof *r);
    r->kind = v->fold ? DMLI_ROI_FOLD : DMLI_ROI_UNFOLD;
    r->type = x->type;
    r->nd = (int)v->dims;
    r->n = (int64_t)img->sizes[0];
    r->c = (int64_t)img->sizes[1];
    r->k = 1;
    r->l = 1;
    r->img_sn = img->strides[0];
    r->img_sc = img->strides[1];
    r->col_sn = col->strides[col->rank - 3];
    r->col_sk = col->strides[col->rank - 2];
    r->col_sl = col->strides[col->rank - 1];
    for (int d = 0; d < r->nd; ++d) {
        r->size[d] = (int64_t)img->sizes[d + 2];
        r->window[d] = v->window[d];
        r->stride[d] = v->strides[d];
        r->dilation[d] = v->dilations[d];
        r->pad[d] = v->start[d];
        r->blocks[d] = (int64_t)blocks_of(v, img, (UINT)d);
        r->img_s[d] = img->strides[d + 2];
        r->k *= r->window[d];
        r->l *= r->blocks[d];
    }
}

#define STEPS(name, view)                                               \
    static HRESULT name##_validate(const void *desc, dmli_op_state *st) \
    {                                                                   \
        fold_view v = view(desc);                                       \
        return validate(&v, st);                                        \
    }                                                                   \
    static HRESULT name##_infer(const void *desc, dmli_op_state *st)    \
    {                                                                   \
        fold_view v = view(desc);                                       \
        return infer(&v, st);                                           \
    }                                                                   \
    static void name##_lower(const void *desc, dmli_op_state *st)       \
    {                                                                   \
        fold_view v = view(desc);                                       \
        lower(&v, st);                                                  \
    }                                                                   \
    const dmli_op_steps dmli_op_##name = {                              \
        .validate = name##_validate, .infer = name##_infer, .lower = name##_lower};

STEPS(fold, fold_of)
STEPS(unfold, unfold_of)
