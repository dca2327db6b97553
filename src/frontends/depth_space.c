/* SPDX-License-Identifier: MIT */
/*
 * Front-ends for the depth/space rearrangements: OpenVINO DepthToSpace-1 and
 * SpaceToDepth-1 (rank >= 3, K = rank - 2 spatial dimensions), ONNX
 * DepthToSpace-1, -11 (mode), -13 (bfloat16) and SpaceToDepth-1, -13 (4-D). Each is reshape ->
 * transpose -> reshape, so one view: walking the output packed in its split shape, every split
 * dimension reads the input with a constant stride.
 *
 *   DepthToSpace: output split [N, C', D1, b, ..., DK, b]; input channel
 *     blocks_first / DCR  (b1, ..., bK, c')  [block_size, ..., block_size, C']
 *     depth_first / CRD   (c', b1, ..., bK)  [C', block_size, ..., block_size]
 *   SpaceToDepth: output split [N, b1, ..., bK, C, D1', ..., DK'] (blocks_first)
 *     or [N, C, b1, ..., bK, D1', ..., DK'] (depth_first); input element
 *     (n, c, D1' * b + b1, ...).
 * ONNX's DCR is OpenVINO's blocks_first (both specifications' reshapes put the
 * block coordinates before the new depth), CRD depth_first; ONNX SpaceToDepth
 * is blocks_first (its reshape/transpose [0, 3, 5, 1, 2, 4]).
 *
 * The result is DMLCL_OPERATOR_STRIDED_SLICE with no entries (a plain copy)
 * over that view: it takes any rank up to 16, extension types and empty
 * tensors, which DirectML's 4-D DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 do not.
 */
#include <string.h>

#include "checked.h"
#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX
/* 2 + 2K for K = 14 spatial dimensions (a rank-16 input), before merging. */
#define MAX_VIEW (2 + 2 * (MAX_RANK - 2))

typedef struct view {
    uint32_t rank;
    uint64_t size[MAX_VIEW];
    uint64_t in_stride[MAX_VIEW]; /* input element strides; the output is packed */
} view;

static void push(view *v, uint64_t size, uint64_t in_stride)
{
    v->size[v->rank] = size;
    v->in_stride[v->rank++] = in_stride;
}

/*
 * b^e, or UINT64_MAX when beyond 2^32-1 (then no nonzero dimension is a
 * multiple of it, and it multiplies no nonzero size into range).
 */
static uint64_t power(uint64_t b, uint32_t e)
{
    uint64_t p = 1;
    for (uint32_t i = 0; i < e; ++i)
        if (dmli_mul_u64(p, b, &p) || p > UINT32_MAX)
            return UINT64_MAX;
    return p;
}

typedef struct rearrange {
    const char *op;
    bool to_space, blocks_first;
    uint64_t block;
    bool empty; /* the input has a 0 dimension: no view (its strides never reach memory) */
} rearrange;

/*
 * The output shape, and the view for a nonempty input. Its strides are
 * products of the input's packed strides, so they stay below its element
 * count, under 2^32.
 */
static HRESULT depth_to_space(const rearrange *q, const dmlcl_shape *in, dmlcl_shape *out, view *v)
{
    uint32_t k = in->rank - 2;
    uint64_t b = q->block, c = (uint64_t)in->dims[1], bk = power(b, k), spatial = 1;
    DMLI_UNSUPPORTED_IF(bk == UINT64_MAX,
                        "%s: block_size^%u (%llu^%u) is over 2^32-1, beyond DirectML's UINT "
                        "sizes",
                        q->op, k, (unsigned long long)b, k);
    DMLI_INVALID_IF(c % bk != 0,
                    "%s: input dimension 1 (%llu, the depth) must be a multiple of block_size^%u "
                    "(%llu^%u = %llu: one block per depth slice)",
                    q->op, (unsigned long long)c, k, (unsigned long long)b, k,
                    (unsigned long long)bk);
    uint64_t cn = c / bk;
    out->rank = in->rank;
    out->dims[0] = in->dims[0];
    out->dims[1] = (int64_t)cn;
    for (uint32_t i = 0; i < k; ++i) {
        uint64_t d = (uint64_t)in->dims[2 + i];
        DMLI_UNSUPPORTED_IF(d * b > UINT32_MAX, /* both under 2^32: no wrap */
                            "%s: output dimension %u (%llu * block_size %llu) is over 2^32-1, "
                            "beyond DirectML's UINT sizes",
                            q->op, 2 + i, (unsigned long long)d, (unsigned long long)b);
        out->dims[2 + i] = (int64_t)(d * b);
        spatial *= d;
    }
    if (q->empty)
        return S_OK;
    push(v, (uint64_t)in->dims[0], c * spatial);
    push(v, cn, q->blocks_first ? spatial : bk * spatial);
    uint64_t inner = spatial, block_step = q->blocks_first ? cn * spatial : spatial;
    for (uint32_t i = 0; i < k; ++i) {
        uint64_t d = (uint64_t)in->dims[2 + i];
        inner /= d;
        bk /= b; /* b^(K-1-i): the channel step of block coordinate i */
        push(v, d, inner);
        push(v, b, bk * block_step);
    }
    return S_OK;
}

static HRESULT space_to_depth(const rearrange *q, const dmlcl_shape *in, dmlcl_shape *out, view *v)
{
    uint32_t k = in->rank - 2;
    uint64_t b = q->block, c = (uint64_t)in->dims[1], bk = power(b, k), spatial = 1;
    for (uint32_t i = 0; i < k; ++i) {
        uint64_t d = (uint64_t)in->dims[2 + i];
        DMLI_INVALID_IF(d % b != 0,
                        "%s: input dimension %u (%llu) must be a multiple of block_size (%llu)",
                        q->op, 2 + i, (unsigned long long)d, (unsigned long long)b);
        spatial *= d;
    }
    DMLI_UNSUPPORTED_IF(bk == UINT64_MAX || c * bk > UINT32_MAX,
                        "%s: output dimension 1 (%llu * block_size^%u) is over 2^32-1, beyond "
                        "DirectML's UINT sizes",
                        q->op, (unsigned long long)c, k);
    out->rank = in->rank;
    out->dims[0] = in->dims[0];
    out->dims[1] = (int64_t)(c * bk);
    for (uint32_t i = 0; i < k; ++i)
        out->dims[2 + i] = in->dims[2 + i] / (int64_t)b;
    if (q->empty)
        return S_OK;
    push(v, (uint64_t)in->dims[0], c * spatial);
    if (!q->blocks_first)
        push(v, c, spatial);
    uint64_t inner = spatial;
    for (uint32_t i = 0; i < k; ++i) {
        inner /= (uint64_t)in->dims[2 + i];
        push(v, b, inner);
    }
    if (q->blocks_first)
        push(v, c, spatial);
    inner = spatial;
    for (uint32_t i = 0; i < k; ++i) {
        inner /= (uint64_t)in->dims[2 + i];
        push(v, (uint64_t)out->dims[2 + i], inner * b);
    }
    return S_OK;
}

/* Drops dimensions of one element and merges a dimension into the one before it when the
 * input reads them contiguously (the output, packed, always does). */
static void compact(view *v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->rank; ++i) {
        if (v->size[i] == 1)
            continue;
        if (n > 0 && v->in_stride[n - 1] == v->in_stride[i] * v->size[i]) {
            v->size[n - 1] *= v->size[i];
            v->in_stride[n - 1] = v->in_stride[i];
            continue;
        }
        v->size[n] = v->size[i];
        v->in_stride[n++] = v->in_stride[i];
    }
    if (n == 0)
        v->size[n++] = 1;
    v->rank = n;
}

static DML_TENSOR_DESC *describe(dmlcl_frontend_result *r, int t, DML_TENSOR_DATA_TYPE type,
                                 const view *v, bool strided)
{
    UINT *sizes = r->sizes[t], *strides = strided ? r->tensor_strides[t] : NULL;
    for (uint32_t i = 0; i < v->rank; ++i) {
        sizes[i] = (UINT)v->size[i];
        if (strides)
            strides[i] = (UINT)v->in_stride[i];
    }
    r->buffers[t] = (DML_BUFFER_TENSOR_DESC){
        .DataType = type,
        .Flags = DML_TENSOR_FLAG_NONE,
        .DimensionCount = v->rank,
        .Sizes = sizes,
        .Strides = strides,
        .TotalTensorSizeInBytes = DMLCalcBufferTensorSize(type, v->rank, sizes, strides),
    };
    r->tensors[t] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &r->buffers[t]};
    return &r->tensors[t];
}

static HRESULT run(rearrange *q, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *in,
                   dmlcl_frontend_result *r)
{
    for (uint32_t i = 0; i < in->rank; ++i)
        q->empty |= in->dims[i] == 0;
    view v = {0};
    DMLI_TRY(q->to_space ? depth_to_space(q, in, &r->output_shape, &v)
                         : space_to_depth(q, in, &r->output_shape, &v));
    DMLI_TRY(dmli_fe_check_shape(q->op, "output", &r->output_shape));
    if (q->empty)
        push(&v, 0, 0);
    compact(&v);
    DMLI_UNSUPPORTED_IF(v.rank > MAX_RANK,
                        "%s: the rearrangement of input rank %u is a view of %u dimensions "
                        "(2 + 2K, after dropping dimensions of one element and merging "
                        "contiguous ones); dmlcl tensors have at most %d",
                        q->op, in->rank, v.rank, MAX_RANK);
    DMLCL_STRIDED_SLICE_OPERATOR_DESC *d = &r->op.strided_slice;
    d->InputTensor = describe(r, 0, type, &v, true);
    d->OutputTensor = describe(r, 1, type, &v, false);
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_STRIDED_SLICE, d};
    return S_OK;
}

/* The checks before any shape arithmetic: type, shape, rank, block size range. */
static HRESULT check_input(const char *op, const char *what, DML_TENSOR_DATA_TYPE type,
                           const dmlcl_shape *s, uint32_t min_rank, uint32_t max_rank,
                           const char *block_name, int64_t block)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_TRY(dmli_fe_check_type(op, what, type));
    DMLI_TRY(dmli_fe_check_shape(op, what, s));
    DMLI_INVALID_IF(s->rank < min_rank || s->rank > max_rank,
                    "%s: %s %s has rank %u; it must be %s%u ([N, C, spatial dimensions...])", op,
                    what, dmli_fe_format_shape(buf, sizeof buf, s), s->rank,
                    min_rank == max_rank ? "" : "at least ", min_rank);
    DMLI_INVALID_IF(block < 1, "%s: attribute %s (%lld) must be a positive integer", op, block_name,
                    (long long)block);
    DMLI_UNSUPPORTED_IF(block > (int64_t)UINT32_MAX,
                        "%s: attribute %s (%lld) is over 2^32-1, beyond DirectML's UINT sizes", op,
                        block_name, (long long)block);
    return S_OK;
}

/* ---- OpenVINO DepthToSpace-1, SpaceToDepth-1 ------------------------------------------- */

static HRESULT openvino(const dmli_fe_versions *v, bool to_space, int opset,
                        const dmlcl_openvino_depth_space_args *a, dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(v, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, a, r));
    DMLI_TRY(check_input(op, "input data", a->data_type, a->data, 3, MAX_RANK, "block_size",
                         a->block_size));
    DMLI_INVALID_IF(!a->mode,
                    "%s: attribute mode (NULL) is required: \"blocks_first\" or "
                    "\"depth_first\"",
                    op);
    bool blocks_first = !strcmp(a->mode, "blocks_first");
    DMLI_INVALID_IF(!blocks_first && strcmp(a->mode, "depth_first"),
                    "%s: attribute mode (\"%s\") must be \"blocks_first\" or \"depth_first\"", op,
                    a->mode);
    rearrange q = {op, to_space, blocks_first, (uint64_t)a->block_size, false};
    return run(&q, a->data_type, a->data, r);
}

static const dmli_fe_versions ov_d2s = {"OpenVINO", "DepthToSpace", 1, {1}, 1};
static const dmli_fe_versions ov_s2d = {"OpenVINO", "SpaceToDepth", 1, {1}, 1};

HRESULT dmlcl_openvino_depth_to_space(int opset, const dmlcl_openvino_depth_to_space_args *a,
                                      dmlcl_frontend_result *r)
{
    return openvino(&ov_d2s, true, opset, a, r);
}

HRESULT dmlcl_openvino_space_to_depth(int opset, const dmlcl_openvino_space_to_depth_args *a,
                                      dmlcl_frontend_result *r)
{
    return openvino(&ov_s2d, false, opset, a, r);
}

/* ---- ONNX DepthToSpace-1, -11, -13, SpaceToDepth-1, -13 ----------------------------------- */

static const dmli_fe_versions onnx_d2s = {"ONNX", "DepthToSpace", 3, {1, 11, 13}, 1};
static const dmli_fe_versions onnx_s2d = {"ONNX", "SpaceToDepth", 2, {1, 13}, 1};

/* Version 13 added bfloat16 to both operators' type lists. */
static HRESULT onnx_type(const char *op, int version, DML_TENSOR_DATA_TYPE type)
{
    DMLI_INVALID_IF(version < 13 && type == DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
                    "%s: input type BFLOAT16 is not in this version's type list (bfloat16 came "
                    "with version 13)",
                    op);
    return S_OK;
}

HRESULT dmlcl_onnx_depth_to_space(int opset, const dmlcl_onnx_depth_to_space_args *a,
                                  dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&onnx_d2s, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, a, r));
    DMLI_TRY(
        check_input(op, "input input", a->input_type, a->input, 4, 4, "blocksize", a->blocksize));
    DMLI_TRY(onnx_type(op, version, a->input_type));
    DMLI_INVALID_IF(version < 11 && a->mode,
                    "%s: attribute mode (\"%s\") came with version 11; version 1 is DCR only", op,
                    a->mode);
    bool dcr = !a->mode || !strcmp(a->mode, "DCR");
    DMLI_INVALID_IF(!dcr && strcmp(a->mode, "CRD"),
                    "%s: attribute mode (\"%s\") must be \"DCR\" (the default) or \"CRD\"", op,
                    a->mode);
    rearrange q = {op, true, dcr, (uint64_t)a->blocksize, false};
    return run(&q, a->input_type, a->input, r);
}

HRESULT dmlcl_onnx_space_to_depth(int opset, const dmlcl_onnx_space_to_depth_args *a,
                                  dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&onnx_s2d, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, a, r));
    DMLI_TRY(
        check_input(op, "input input", a->input_type, a->input, 4, 4, "blocksize", a->blocksize));
    DMLI_TRY(onnx_type(op, version, a->input_type));
    rearrange q = {op, false, true, (uint64_t)a->blocksize, false};
    return run(&q, a->input_type, a->input, r);
}
