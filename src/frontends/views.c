/* SPDX-License-Identifier: MIT */
/*
 * Front-ends whose operator is one view of the data: OpenVINO Tile-1,
 * Transpose-1, Reverse-1 and ONNX Tile-13, Transpose-13.
 *
 * Each describes DirectML's own operator where DirectML's tensor rules
 * allow (1 to 8 dimensions, none 0, a DirectML type): TILE;
 * ELEMENT_WISE_IDENTITY reading the input through permuted strides (how
 * DirectML code transposes: the copy then writes the output in order);
 * SLICE1 with InputWindowStrides -1 on the reversed axes. Beyond those rules
 * (0-sized tensors, 9 to 16 dimensions, BOOLEAN, BFLOAT16, COMPLEX), which
 * the frameworks allow, the same view goes through a dmlcl extension
 * operator that takes them: BROADCAST (a tile's repeats are stride-0
 * dimensions of a split shape; a transpose is the strided input broadcast to
 * its own shape) and STRIDED_SLICE (strides -1). The plans are the same.
 */
#include <string.h>

#include "checked.h"
#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX
/* DML_TENSOR_DIMENSION_COUNT_MAX1 (a static const, so not a constant expression in C). */
#define DML_MAX_DIMS 8

/* DirectML's rules for tensors of its own operators: a DirectML type, 1 to 8 dims, none 0. */
static bool dml_fits(DML_TENSOR_DATA_TYPE type, const dmlcl_shape *s)
{
    if ((unsigned)type >= (unsigned)DMLCL_TENSOR_DATA_TYPE_BOOLEAN || s->rank > DML_MAX_DIMS)
        return false;
    for (uint32_t i = 0; i < s->rank; ++i)
        if (s->dims[i] == 0)
            return false;
    return true;
}

/* The common start: the version, the result cleared, the data's type and shape checked. */
static HRESULT begin(const dmli_fe_versions *v, int opset, const void *args,
                     dmlcl_frontend_result *r, DML_TENSOR_DATA_TYPE type, const char *what,
                     const dmlcl_shape *shape, char *op)
{
    int version;
    DMLI_TRY(dmli_fe_version(v, opset, &version, op, DMLI_FE_OP_NAME));
    DMLI_TRY(dmli_fe_begin(op, args, r));
    DMLI_TRY(dmli_fe_check_type(op, what, type));
    return dmli_fe_check_shape(op, what, shape);
}

/* The values of a 1-D integer input, when at most MAX_RANK (else unsupported). */
static HRESULT read_list(const char *op, const char *name, const dmlcl_int_array *a,
                         const dmlcl_shape *dims, int64_t *v, uint32_t *count)
{
    DMLI_TRY(dmli_fe_check_list(op, name, a, dims));
    DMLI_UNSUPPORTED_IF(a->count > MAX_RANK,
                        "%s: input %s has %llu values; dmlcl tensors have at most %d dimensions",
                        op, name, (unsigned long long)a->count, MAX_RANK);
    for (uint64_t i = 0; i < a->count; ++i)
        v[i] = dmli_fe_int_at(a, i);
    *count = (uint32_t)a->count;
    return S_OK;
}

/* ---- Tile ------------------------------------------------------------------------------ */

/*
 * Beyond DirectML's rules: output dimension k of R copies of n elements is
 * described as {R, n} (input {1, n}: R stride-0 copies) where R != 1 and
 * n > 1; a single dimension otherwise (n = 1 broadcasts, R = 1 or n = 0
 * copy). The split shapes keep the packed layouts of both tensors.
 */
static HRESULT tile_extension(const char *op, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *in,
                              const int64_t *rep, dmlcl_frontend_result *r)
{
    dmlcl_shape si = {0}, so = {0};
    for (uint32_t k = 0; k < in->rank; ++k) {
        int64_t n = in->dims[k];
        bool split = rep[k] != 1 && n > 1;
        DMLI_UNSUPPORTED_IF(so.rank + (split ? 2u : 1u) > MAX_RANK,
                            "%s: the tile needs more than %d dimensions (each tiled dimension of "
                            "more than one element takes two)",
                            op, MAX_RANK);
        if (split) {
            si.dims[si.rank++] = 1;
            so.dims[so.rank++] = rep[k];
        }
        si.dims[si.rank++] = n;
        so.dims[so.rank++] = split ? n : n * rep[k];
    }
    DMLCL_BROADCAST_OPERATOR_DESC *b = &r->op.broadcast;
    b->InputTensor = dmli_fe_tensor(r, 0, type, &si);
    b->OutputTensor = dmli_fe_tensor(r, 1, type, &so);
    b->Mode = DMLCL_BROADCAST_MODE_NUMPY;
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_BROADCAST, b};
    return S_OK;
}

/*
 * Both frameworks' tile: the shorter of data's shape and repeats is
 * promoted with leading 1s (ONNX's callers pass equal lengths). A negative
 * repeat is an error (ONNX's: numpy's tile refuses one).
 */
static HRESULT tile(const char *op, const char *repeats_name, DML_TENSOR_DATA_TYPE type,
                    const dmlcl_shape *data, const int64_t *repeats, uint32_t count,
                    dmlcl_frontend_result *r)
{
    uint32_t rank = data->rank > count ? data->rank : count;
    dmlcl_shape in = {.rank = rank};
    int64_t rep[MAX_RANK], out[MAX_RANK] = {0};
    for (uint32_t k = 0; k < rank; ++k) {
        bool has_d = k >= rank - data->rank, has_r = k >= rank - count;
        uint32_t j = k - (rank - count);
        in.dims[k] = has_d ? data->dims[k - (rank - data->rank)] : 1;
        rep[k] = has_r ? repeats[j] : 1;
        DMLI_INVALID_IF(rep[k] < 0, "%s: %s[%u] (%lld) must be >= 0 (a number of copies)", op,
                        repeats_name, j, (long long)rep[k]);
        DMLI_UNSUPPORTED_IF(dmli_mul_i64(in.dims[k], rep[k], &out[k]) || out[k] > UINT32_MAX,
                            "%s: output dimension %u (%lld * %s[%u] (%lld)) is over 2^32-1, "
                            "beyond DirectML's UINT sizes",
                            op, k, (long long)in.dims[k], repeats_name, j, (long long)rep[k]);
    }
    DMLI_TRY(dmli_fe_output(op, r, 1, type, out, rank));
    if (!dml_fits(type, &r->output_shape))
        return tile_extension(op, type, &in, rep, r);
    DML_TILE_OPERATOR_DESC *t = &r->op.tile;
    t->InputTensor = dmli_fe_tensor(r, 0, type, &in);
    t->OutputTensor = &r->tensors[1];
    t->RepeatsCount = rank ? rank : 1;
    t->Repeats = r->view_lists[0];
    r->view_lists[0][0] = 1;
    for (uint32_t k = 0; k < rank; ++k)
        r->view_lists[0][k] = (UINT)rep[k];
    r->desc = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, t};
    return S_OK;
}

static const dmli_fe_versions ov_tile = {"OpenVINO", "Tile", 1, {1}, 1};

HRESULT dmlcl_openvino_tile(int opset, const dmlcl_openvino_tile_args *a, dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    DMLI_TRY(begin(&ov_tile, opset, a, r, a ? a->data_type : 0, "data", a ? a->data : NULL, op));
    int64_t rep[MAX_RANK];
    uint32_t count;
    DMLI_TRY(read_list(op, "repeats", a->repeats, a->repeats_dims, rep, &count));
    /* The text leaves negative repeats open; OpenVINO's shape inference reads them as 0
     * copies (tile_shape_inference.hpp), so a model that has one gets an empty output. */
    for (uint32_t k = 0; k < count; ++k)
        rep[k] = rep[k] < 0 ? 0 : rep[k];
    return tile(op, "repeats", a->data_type, a->data, rep, count, r);
}

static const dmli_fe_versions onnx_tile = {"ONNX", "Tile", 3, {1, 6, 13}, 13};

HRESULT dmlcl_onnx_tile(int opset, const dmlcl_onnx_tile_args *a, dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    DMLI_TRY(
        begin(&onnx_tile, opset, a, r, a ? a->input_type : 0, "input", a ? a->input : NULL, op));
    const dmlcl_int_array *rp = a->repeats;
    DMLI_INVALID_IF(rp && rp->type != DML_TENSOR_DATA_TYPE_INT64,
                    "%s: input repeats has type %s; it must be INT64 (tensor(int64))", op,
                    dmli_type_name(rp->type));
    DMLI_TRY(dmli_fe_check_list(op, "repeats", rp, a->repeats_dims));
    DMLI_INVALID_IF(rp->count != a->input->rank,
                    "%s: input repeats has %llu values; it must have one per dimension of input "
                    "(%u)",
                    op, (unsigned long long)rp->count, a->input->rank);
    int64_t rep[MAX_RANK];
    uint32_t count;
    DMLI_TRY(read_list(op, "repeats", rp, a->repeats_dims, rep, &count));
    return tile(op, "repeats", a->input_type, a->input, rep, count, r);
}

/* ---- Transpose ------------------------------------------------------------------------- */

/*
 * Output dimension k is data dimension perm[k] (count 0: reversed). The
 * input is described with the output's sizes and the data's packed strides
 * permuted, the output packed.
 */
static HRESULT transpose(const char *op, const char *name, DML_TENSOR_DATA_TYPE type,
                         const dmlcl_shape *data, const int64_t *perm, uint32_t count,
                         dmlcl_frontend_result *r)
{
    uint32_t rank = data->rank;
    DMLI_INVALID_IF(count != 0 && count != rank,
                    "%s: %s has %u values; it must have one per dimension of data (%u), or none "
                    "(the axes reversed)",
                    op, name, count, rank);
    int64_t order[MAX_RANK], out[MAX_RANK] = {0};
    bool seen[MAX_RANK] = {false};
    for (uint32_t k = 0; k < rank; ++k) {
        order[k] = count ? perm[k] : (int64_t)(rank - 1 - k);
        DMLI_INVALID_IF(order[k] < 0 || order[k] >= (int64_t)rank,
                        "%s: %s[%u] (%lld) must be an axis of data, in [0, %u)", op, name, k,
                        (long long)order[k], rank);
        DMLI_INVALID_IF(seen[order[k]],
                        "%s: %s[%u] (%lld) repeats an axis: %s must be a permutation of [0, %u)",
                        op, name, k, (long long)order[k], name, rank);
        seen[order[k]] = true;
        out[k] = data->dims[order[k]];
    }
    DMLI_TRY(dmli_fe_output(op, r, 1, type, out, rank));
    DML_TENSOR_DESC *in = dmli_fe_tensor(r, 0, type, &r->output_shape);
    uint64_t sizes[MAX_RANK];
    int64_t packed[MAX_RANK];
    for (uint32_t k = 0; k < rank; ++k)
        sizes[k] = (uint64_t)data->dims[k];
    /* An empty tensor reads nothing: it keeps packed (NULL) strides. */
    if (dmli_count_elements(rank, sizes) != 0 && rank > 0) {
        dmli_packed_strides(rank, sizes, packed);
        for (uint32_t k = 0; k < rank; ++k)
            r->view_lists[0][k] = (UINT)packed[order[k]];
        r->buffers[0].Strides = r->view_lists[0];
        r->buffers[0].TotalTensorSizeInBytes =
            DMLCalcBufferTensorSize(type, rank, r->sizes[0], r->view_lists[0]);
    }
    if (dml_fits(type, &r->output_shape)) {
        r->op.identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){in, &r->tensors[1], NULL};
        r->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &r->op.identity};
    } else {
        r->op.broadcast = (DMLCL_BROADCAST_OPERATOR_DESC){in, &r->tensors[1],
                                                          DMLCL_BROADCAST_MODE_NUMPY, 0, NULL};
        r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_BROADCAST, &r->op.broadcast};
    }
    return S_OK;
}

static const dmli_fe_versions ov_transpose = {"OpenVINO", "Transpose", 1, {1}, 1};

HRESULT dmlcl_openvino_transpose(int opset, const dmlcl_openvino_transpose_args *a,
                                 dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    DMLI_TRY(
        begin(&ov_transpose, opset, a, r, a ? a->data_type : 0, "data", a ? a->data : NULL, op));
    DMLI_TRY(dmli_fe_check_list(op, "input_order", a->input_order, a->input_order_dims));
    DMLI_INVALID_IF(a->input_order->count != 0 && a->input_order->count != a->data->rank,
                    "%s: input input_order has %llu values; it must have one per dimension of "
                    "data (%u), or none (the axes reversed)",
                    op, (unsigned long long)a->input_order->count, a->data->rank);
    int64_t perm[MAX_RANK];
    uint32_t count;
    DMLI_TRY(read_list(op, "input_order", a->input_order, a->input_order_dims, perm, &count));
    return transpose(op, "input_order", a->data_type, a->data, perm, count, r);
}

static const dmli_fe_versions onnx_transpose = {"ONNX", "Transpose", 3, {1, 13, 21}, 13};

HRESULT dmlcl_onnx_transpose(int opset, const dmlcl_onnx_transpose_args *a,
                             dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    DMLI_TRY(
        begin(&onnx_transpose, opset, a, r, a ? a->data_type : 0, "data", a ? a->data : NULL, op));
    DMLI_INVALID_IF(a->perm_count && !a->perm,
                    "%s: attribute perm (NULL) must hold perm_count (%u) values", op,
                    a->perm_count);
    return transpose(op, "attribute perm", a->data_type, a->data, a->perm, a->perm_count, r);
}

/* ---- Reverse --------------------------------------------------------------------------- */

/* Index mode: at most rank axes in [-rank, rank-1]; one named twice is reversed once. */
static HRESULT reverse_index(const char *op, const dmlcl_openvino_reverse_args *a, bool *rev)
{
    uint32_t rank = a->data->rank;
    DMLI_TRY(dmli_fe_check_list(op, "axis", a->axis, a->axis_dims));
    DMLI_INVALID_IF(a->axis->count > rank,
                    "%s: input axis has %llu values; mode \"index\" takes at most the rank of "
                    "data (%u)",
                    op, (unsigned long long)a->axis->count, rank);
    for (uint64_t i = 0; i < a->axis->count; ++i) {
        int64_t v = dmli_fe_int_at(a->axis, i);
        DMLI_INVALID_IF(v < -(int64_t)rank || v >= (int64_t)rank,
                        "%s: axis[%llu] (%lld) must be an axis of data, in [%d, %u)", op,
                        (unsigned long long)i, (long long)v, -(int)rank, rank);
        rev[v < 0 ? v + rank : v] = true;
    }
    return S_OK;
}

/* Mask mode: a BOOLEAN per dimension of data. */
static HRESULT reverse_mask(const char *op, const dmlcl_openvino_reverse_args *a, bool *rev)
{
    const dmlcl_int_array *m = a->axis;
    uint32_t rank = a->data->rank;
    char buf[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(!m, "%s: input axis (NULL) is required", op);
    DMLI_INVALID_IF(m->type != DMLCL_TENSOR_DATA_TYPE_BOOLEAN,
                    "%s: input axis has type %s; mode \"mask\" takes BOOLEAN values", op,
                    dmli_type_name(m->type));
    DMLI_INVALID_IF(a->axis_dims && a->axis_dims->rank != 1,
                    "%s: input axis must be 1-D; its shape is %s (rank %u)", op,
                    dmli_fe_format_shape(buf, sizeof buf, a->axis_dims), a->axis_dims->rank);
    DMLI_INVALID_IF(a->axis_dims && (uint64_t)a->axis_dims->dims[0] != m->count,
                    "%s: input axis has shape {%lld} but holds %llu values", op,
                    (long long)a->axis_dims->dims[0], (unsigned long long)m->count);
    DMLI_INVALID_IF(m->count != rank,
                    "%s: input axis has %llu values; mode \"mask\" takes one per dimension of "
                    "data (%u)",
                    op, (unsigned long long)m->count, rank);
    DMLI_INVALID_IF(m->count && !m->data, "%s: input axis data (NULL) must hold %llu values", op,
                    (unsigned long long)m->count);
    for (uint32_t k = 0; k < rank; ++k)
        rev[k] = ((const unsigned char *)m->data)[k] != 0;
    return S_OK;
}

static void reverse_slice1(DML_TENSOR_DATA_TYPE type, const bool *rev, dmlcl_frontend_result *r)
{
    const dmlcl_shape *s = &r->output_shape;
    DML_SLICE1_OPERATOR_DESC *d = &r->op.slice1;
    d->InputTensor = dmli_fe_tensor(r, 0, type, s);
    d->OutputTensor = &r->tensors[1];
    d->DimensionCount = s->rank ? s->rank : 1;
    d->InputWindowOffsets = r->view_lists[0];
    d->InputWindowSizes = r->view_lists[1];
    d->InputWindowStrides = r->view_strides;
    for (uint32_t k = 0; k < d->DimensionCount; ++k) {
        r->view_lists[1][k] = r->sizes[0][k];
        r->view_strides[k] = k < s->rank && rev[k] ? -1 : 1;
    }
    r->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, d};
}

static void reverse_strided_slice(DML_TENSOR_DATA_TYPE type, const bool *rev,
                                  dmlcl_frontend_result *r)
{
    const dmlcl_shape *s = &r->output_shape;
    DMLCL_STRIDED_SLICE_OPERATOR_DESC *d = &r->op.strided_slice;
    d->InputTensor = dmli_fe_tensor(r, 0, type, s);
    d->OutputTensor = &r->tensors[1];
    d->SliceCount = s->rank;
    d->Begin = r->begin;
    d->End = r->end;
    d->Strides = r->strides;
    /* Whole dimensions, from the first element (the last when reversing). */
    d->BeginMask = r->masks[0];
    d->EndMask = r->masks[1];
    for (uint32_t k = 0; k < s->rank; ++k) {
        r->strides[k] = rev[k] ? -1 : 1;
        r->masks[0][k] = r->masks[1][k] = 1;
    }
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_STRIDED_SLICE, d};
}

static const dmli_fe_versions ov_reverse = {"OpenVINO", "Reverse", 1, {1}, 1};

HRESULT dmlcl_openvino_reverse(int opset, const dmlcl_openvino_reverse_args *a,
                               dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    DMLI_TRY(begin(&ov_reverse, opset, a, r, a ? a->data_type : 0, "data", a ? a->data : NULL, op));
    bool rev[MAX_RANK] = {false};
    DMLI_INVALID_IF(!a->mode, "%s: attribute mode (NULL) is required: \"index\" or \"mask\"", op);
    if (!strcmp(a->mode, "index"))
        DMLI_TRY(reverse_index(op, a, rev));
    else if (!strcmp(a->mode, "mask"))
        DMLI_TRY(reverse_mask(op, a, rev));
    else
        return dmli_fail(E_INVALIDARG, "%s: attribute mode (\"%s\") must be \"index\" or \"mask\"",
                         op, a->mode);
    DMLI_TRY(dmli_fe_output(op, r, 1, a->data_type, a->data->dims, a->data->rank));
    if (dml_fits(a->data_type, &r->output_shape))
        reverse_slice1(a->data_type, rev, r);
    else
        reverse_strided_slice(a->data_type, rev, r);
    return S_OK;
}
