/* SPDX-License-Identifier: MIT */
/*
 * The benchmark workloads of the performance issue. Each builds DirectML
 * descriptors, fills its inputs with distinct values, and computes the
 * expected output with plain nested loops (independent of dmlcl's planner).
 */
#include "workloads.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Tensor t of w: packed unless strides given; returns its desc. */
const DML_TENSOR_DESC *bench_tensor(workload *w, int t, DML_TENSOR_DATA_TYPE type, UINT rank,
                                    const UINT *sizes, const UINT *strides)
{
    memcpy(w->sizes[t], sizes, rank * sizeof *sizes);
    if (strides)
        memcpy(w->strides[t], strides, rank * sizeof *strides);
    const UINT *st = strides ? w->strides[t] : NULL;
    w->buffers[t] =
        (DML_BUFFER_TENSOR_DESC){type, DML_TENSOR_FLAG_NONE,
                                 rank, w->sizes[t],
                                 st,   DMLCalcBufferTensorSize(type, rank, w->sizes[t], st),
                                 0};
    w->tensors[t] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &w->buffers[t]};
    return &w->tensors[t];
}

void *bench_alloc_input(workload *w, size_t bytes)
{
    unsigned i = w->n_inputs++;
    w->input_bytes[i] = bytes;
    w->inputs[i] = malloc(bytes);
    w->lines[i] = calloc(bytes / 64 + 1, 1);
    return w->inputs[i];
}

/* Input i's bytes [at, at + bytes) are read. */
void bench_touch(workload *w, unsigned i, size_t at, size_t bytes)
{
    for (size_t l = at / 64; l <= (at + bytes - 1) / 64; ++l)
        w->lines[i][l] = 1;
}

size_t workload_read_bytes(const workload *w)
{
    size_t lines = 0;
    for (unsigned i = 0; i < w->n_inputs; ++i) {
        size_t marked = 0;
        for (size_t l = 0; l <= w->input_bytes[i] / 64; ++l)
            marked += w->lines[i][l];
        lines += marked ? marked : (w->input_bytes[i] + 63) / 64;
    }
    return 64 * lines;
}

static void naive_gather(workload *w, unsigned elem, long outer, long axis, long k, long inner,
                         long batch)
{
    w->naive = (naive_desc){.kind = NAIVE_GATHER,
                            .elem = elem,
                            .outer = outer,
                            .axis = axis,
                            .k = k,
                            .inner = inner,
                            .batch = batch};
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
void bench_random_seed(uint64_t seed)
{
    rng = seed;
}

uint64_t bench_random(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Distinct 32-bit patterns: element i holds i (as bits). */
static uint32_t *iota32(workload *w, size_t n)
{
    uint32_t *p = bench_alloc_input(w, n * 4);
    for (size_t i = 0; i < n; ++i)
        p[i] = (uint32_t)i;
    return p;
}

/* Row gather along axis 0 of a [rows, cols] table, int64 indices. */
static int row_gather(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT rows, UINT cols,
                      UINT n)
{
    UINT in_s[2] = {rows, cols}, ix_s[2] = {1, n}, out_s[2] = {n, cols};
    size_t row_bytes = (size_t)cols * elem;
    unsigned char *data = bench_alloc_input(w, (size_t)rows * row_bytes);
    for (size_t i = 0; i < (size_t)rows * row_bytes / 2; ++i)
        ((uint16_t *)data)[i] = (uint16_t)(i * 2654435761u >> 7);
    int64_t *idx = bench_alloc_input(w, (size_t)n * 8);
    for (UINT i = 0; i < n; ++i)
        idx[i] = (int64_t)(bench_random() % rows);
    w->output_bytes = (size_t)n * row_bytes;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bench_touch(w, 1, 0, (size_t)n * 8);
    for (UINT i = 0; i < n; ++i) {
        memcpy(e + i * row_bytes, data + (size_t)idx[i] * row_bytes, row_bytes);
        bench_touch(w, 0, (size_t)idx[i] * row_bytes, row_bytes);
    }
    naive_gather(w, (unsigned)elem, 1, rows, n, cols, 0);
    w->op.gather =
        (DML_GATHER_OPERATOR_DESC){bench_tensor(w, 0, type, 2, in_s, NULL),
                                   bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 2, ix_s, NULL),
                                   bench_tensor(w, 2, type, 2, out_s, NULL), 0, 1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &w->op.gather};
    return 0;
}

static int embedding_gather(workload *w)
{
    w->name = "embedding-gather";
    w->what = "Gather data [50000,1024] f32, 16384 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 50000, 1024, 16384);
}

static int small_row_gather(workload *w)
{
    w->name = "small-row-gather";
    w->what = "Gather data [1048576,8] f16, 1048576 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 1048576, 8, 1048576);
}

static int inner_axis_gather(workload *w)
{
    w->name = "inner-axis-gather";
    w->what = "Gather data [4096,4096] f32, 2048 int64 indices, axis 1";
    UINT n = 4096, k = 2048;
    UINT in_s[2] = {n, n}, ix_s[2] = {1, k}, out_s[2] = {n, k};
    uint32_t *data = iota32(w, (size_t)n * n);
    int64_t *idx = bench_alloc_input(w, (size_t)k * 8);
    for (UINT i = 0; i < k; ++i)
        idx[i] = (int64_t)(bench_random() % n);
    w->output_bytes = (size_t)n * k * 4;
    uint32_t *e = w->expected = malloc(w->output_bytes);
    bench_touch(w, 1, 0, (size_t)k * 8);
    for (size_t r = 0; r < n; ++r)
        for (size_t i = 0; i < k; ++i) {
            e[r * k + i] = data[r * n + (size_t)idx[i]];
            bench_touch(w, 0, 4 * (r * n + (size_t)idx[i]), 4);
        }
    naive_gather(w, 4, n, n, k, 1, 0);
    w->op.gather = (DML_GATHER_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in_s, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 2, ix_s, NULL),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out_s, NULL), 1, 1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &w->op.gather};
    return 0;
}

/* Gather-8 with batch_dims 1 is DirectML's GATHER_ND1 with one batch dim and 1-tuples:
 * data [b,n,c] of `type` (elem bytes), indices [b,k] along axis 1. */
static int batched_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT b, UINT n, UINT c,
                      UINT k)
{
    UINT in_s[3] = {b, n, c}, ix_s[3] = {b, k, 1}, out_s[3] = {b, k, c};
    size_t row_bytes = (size_t)c * elem, in_bytes = (size_t)b * n * row_bytes;
    unsigned char *data = bench_alloc_input(w, in_bytes);
    for (size_t i = 0; i < in_bytes; i += 4) /* distinct 32-bit patterns */
        memcpy(data + i, &(uint32_t){(uint32_t)(i / 4)}, in_bytes - i < 4 ? in_bytes - i : 4);
    int64_t *idx = bench_alloc_input(w, (size_t)b * k * 8);
    for (size_t i = 0; i < (size_t)b * k; ++i)
        idx[i] = (int64_t)(bench_random() % n);
    w->output_bytes = (size_t)b * k * row_bytes;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bench_touch(w, 1, 0, (size_t)b * k * 8);
    for (size_t bi = 0; bi < b; ++bi)
        for (size_t i = 0; i < k; ++i) {
            size_t from = (bi * n + (size_t)idx[bi * k + i]) * row_bytes;
            memcpy(e + (bi * k + i) * row_bytes, data + from, row_bytes);
            bench_touch(w, 0, from, row_bytes);
        }
    naive_gather(w, (unsigned)elem, b, n, k, c, 1);
    w->op.gather_nd1 = (DML_GATHER_ND1_OPERATOR_DESC){
        bench_tensor(w, 0, type, 3, in_s, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 3, ix_s, NULL),
        bench_tensor(w, 2, type, 3, out_s, NULL),
        3,
        3,
        1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER_ND1, &w->op.gather_nd1};
    return 0;
}

static int batched_gather(workload *w)
{
    w->name = "batched-gather";
    w->what = "Gather-8 batch_dims 1: data [64,1024,256] f32, indices [64,512], axis 1";
    return batched_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 64, 1024, 256, 512);
}

/* SLICE1 on a 4-D `in_s` tensor of `type` (elem bytes): window offsets/sizes/strides per dim. */
static int slice_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, const UINT *in_s,
                    const UINT *off, const UINT *win, const INT *step, const UINT *out_s)
{
    size_t in_total = (size_t)in_s[0] * in_s[1] * in_s[2] * in_s[3];
    unsigned char *data = bench_alloc_input(w, in_total * elem);
    for (size_t i = 0; i < in_total * elem; i += 4) /* distinct 32-bit patterns */
        memcpy(data + i, &(uint32_t){(uint32_t)(i / 4 * 2654435761u)},
               in_total * elem - i < 4 ? in_total * elem - i : 4);
    size_t total = (size_t)out_s[0] * out_s[1] * out_s[2] * out_s[3];
    w->output_bytes = total * elem;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    size_t o = 0;
    long in_stride[4] = {(long)in_s[1] * in_s[2] * in_s[3], (long)in_s[2] * in_s[3], in_s[3], 1};
    w->naive = (naive_desc){.kind = NAIVE_VIEW, .elem = (unsigned)elem, .rank = 4};
    for (int i = 0; i < 4; ++i) {
        w->naive.sizes[i] = out_s[i];
        w->naive.strides[i] = in_stride[i] * step[i];
        w->naive.offset += in_stride[i] * (step[i] > 0 ? off[i] : (long)off[i] + win[i] - 1);
    }
    for (size_t a = 0; a < out_s[0]; ++a)
        for (size_t b = 0; b < out_s[1]; ++b)
            for (size_t c = 0; c < out_s[2]; ++c) {
                size_t at[3] = {a, b, c};
                long row = w->naive.offset;
                for (int i = 0; i < 3; ++i)
                    row += (long)at[i] * w->naive.strides[i];
                for (size_t d = 0; d < out_s[3]; ++d, o += elem) {
                    size_t flat = (size_t)(row + (long)d * w->naive.strides[3]);
                    memcpy(e + o, data + flat * elem, elem);
                    bench_touch(w, 0, flat * elem, elem);
                }
            }
    memcpy(w->sizes[3], off, 4 * sizeof *off);
    memcpy(w->sizes[4], win, 4 * sizeof *win);
    memcpy(w->signed_strides, step, 4 * sizeof *step);
    w->op.slice1 = (DML_SLICE1_OPERATOR_DESC){bench_tensor(w, 0, type, 4, in_s, NULL),
                                              bench_tensor(w, 1, type, 4, out_s, NULL),
                                              4,
                                              w->sizes[3],
                                              w->sizes[4],
                                              w->signed_strides};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, &w->op.slice1};
    return 0;
}

/* SLICE1 on [64,3,512,512] f32. */
static int slice(workload *w, const UINT *off, const UINT *win, const INT *step, const UINT *out_s)
{
    const UINT in_s[4] = {64, 3, 512, 512};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, off, win, step, out_s);
}

static int reversing_slice(workload *w)
{
    w->name = "reversing-slice";
    w->what = "StridedSlice [64,3,512,512] f32 as [:, ::-1, ::2, 1::2]";
    UINT off[4] = {0, 0, 0, 1}, win[4] = {64, 3, 512, 511}, out_s[4] = {64, 3, 256, 256};
    INT step[4] = {1, -1, 2, 2};
    return slice(w, off, win, step, out_s);
}

static int row_slice(workload *w)
{
    w->name = "row-slice";
    w->what = "Slice [64,3,512,512] f32 as [:, :, 100:-100, :]";
    UINT off[4] = {0, 0, 100, 0}, win[4] = {64, 3, 312, 512}, out_s[4] = {64, 3, 312, 512};
    INT step[4] = {1, 1, 1, 1};
    return slice(w, off, win, step, out_s);
}

/*
 * IDENTITY of `type` (elem bytes) from `in_strides` (input view of the
 * output's sizes) into a packed or strided output.
 */
static int identity_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT rank,
                       const UINT *sizes, const UINT *in_strides, size_t in_elems,
                       const UINT *out_strides)
{
    unsigned char *data = bench_alloc_input(w, in_elems * elem);
    for (size_t i = 0; i < in_elems * elem; ++i)
        data[i] = (unsigned char)(bench_random() >> 56);
    size_t total = 1;
    for (UINT i = 0; i < rank; ++i)
        total *= sizes[i];
    w->output_bytes = total * elem;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    memset(e, 0, w->output_bytes);
    size_t coord[8] = {0};
    for (size_t n = 0; n < total; ++n) {
        size_t src = 0, dst = 0, packed = 0;
        for (UINT i = 0; i < rank; ++i) {
            src += coord[i] * in_strides[i];
            packed = packed * sizes[i] + coord[i];
            dst += coord[i] * (out_strides ? out_strides[i] : 0);
        }
        memcpy(e + (out_strides ? dst : packed) * elem, data + src * elem, elem);
        bench_touch(w, 0, src * elem, elem);
        for (UINT i = rank; i-- > 0;)
            if (++coord[i] < sizes[i])
                break;
            else
                coord[i] = 0;
    }
    /* The naive kernel walks the output in memory order: dimensions by
     * decreasing output stride (rank <= 4 here). */
    w->naive = (naive_desc){.kind = NAIVE_VIEW, .elem = (unsigned)elem, .rank = rank};
    UINT order[8];
    for (UINT i = 0; i < rank; ++i)
        order[i] = i;
    for (UINT i = 0; out_strides && i < rank; ++i)
        for (UINT j = i + 1; j < rank; ++j)
            if (out_strides[order[j]] > out_strides[order[i]]) {
                UINT t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    for (UINT i = 0; i < rank; ++i) {
        w->naive.sizes[i] = sizes[order[i]];
        w->naive.strides[i] = in_strides[order[i]];
    }
    w->op.identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        bench_tensor(w, 0, type, rank, sizes, in_strides),
        bench_tensor(w, 1, type, rank, sizes, out_strides), NULL};
    w->buffers[0].TotalTensorSizeInBytes = in_elems * elem;
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &w->op.identity};
    return 0;
}

static int identity(workload *w, UINT rank, const UINT *sizes, const UINT *in_strides,
                    size_t in_elems, const UINT *out_strides)
{
    return identity_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rank, sizes, in_strides, in_elems,
                       out_strides);
}

static int channel_broadcast(workload *w)
{
    w->name = "channel-broadcast";
    w->what = "Broadcast [16,1,1] to [64,16,256,256] f32 (IDENTITY, 0 strides)";
    UINT sizes[4] = {64, 16, 256, 256}, strides[4] = {0, 1, 0, 0};
    return identity(w, 4, sizes, strides, 16, NULL);
}

static int batch_broadcast(workload *w)
{
    w->name = "batch-broadcast";
    w->what = "Broadcast [1,256,256] to [256,256,256] f32 (IDENTITY, 0 strides)";
    UINT sizes[3] = {256, 256, 256}, strides[3] = {0, 256, 1};
    return identity(w, 3, sizes, strides, 256 * 256, NULL);
}

/* NCHW input strides read into an NHWC output, sizes n, c, h, w. */
static int nchw_to_nhwc(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c, UINT h,
                        UINT wd)
{
    UINT sizes[4] = {n, c, h, wd}, in_s[4] = {c * h * wd, h * wd, wd, 1},
         out_s[4] = {h * wd * c, 1, wd * c, c};
    return identity_of(w, type, elem, 4, sizes, in_s, (size_t)n * c * h * wd, out_s);
}

static int layout_change(workload *w)
{
    w->name = "nchw-to-nhwc";
    w->what = "IDENTITY [32,64,128,128] f32, NCHW input to NHWC output strides";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 64, 128, 128);
}

/* TILE of a packed 4-D f32 tensor: output[o] = input[o mod in], by plain loops. */
static int tile_of(workload *w, const UINT *in, const UINT *reps)
{
    UINT out[4];
    size_t in_n = 1, out_n = 1;
    for (int i = 0; i < 4; ++i) {
        out[i] = in[i] * reps[i];
        in_n *= in[i];
        out_n *= out[i];
        w->repeats[i] = reps[i];
    }
    uint32_t *data = iota32(w, in_n), *e = w->expected = malloc(out_n * 4);
    w->output_bytes = out_n * 4;
    size_t k = 0;
    for (UINT a = 0; a < out[0]; ++a)
        for (UINT b = 0; b < out[1]; ++b)
            for (UINT c = 0; c < out[2]; ++c)
                for (UINT d = 0; d < out[3]; ++d)
                    e[k++] = data[(((size_t)(a % in[0]) * in[1] + b % in[1]) * in[2] + c % in[2]) *
                                      in[3] +
                                  d % in[3]];
    /* Naive: output dimension i is (repeat, element) pairs; repeats stride 0. */
    w->naive = (naive_desc){.kind = NAIVE_VIEW, .elem = 4, .rank = 8};
    for (int i = 3, stride = 1; i >= 0; stride *= (int)in[i--]) {
        w->naive.sizes[2 * i] = reps[i];
        w->naive.sizes[2 * i + 1] = in[i];
        w->naive.strides[2 * i + 1] = stride;
    }
    w->op.tile = (DML_TILE_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL), 4, w->repeats};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &w->op.tile};
    return 0;
}

static int image_tile(workload *w)
{
    w->name = "tile";
    w->what = "TILE [16,3,256,256] f32 by {1,1,2,2}: [16,3,512,512]";
    const UINT in[4] = {16, 3, 256, 256}, reps[4] = {1, 1, 2, 2};
    return tile_of(w, in, reps);
}

/*
 * DEPTH_TO_SPACE1 of an NCHW `type` (elem bytes) tensor [n, c*b*b, h, wd] to
 * [n, c, h*b, wd*b]: output (n, c, h*b+i, w*b+j) reads input channel (i*b +
 * j)*C + c (DEPTH_COLUMN_ROW, ONNX DCR) or c*b*b + i*b + j (COLUMN_ROW_DEPTH,
 * ONNX CRD) at (h, w).
 */
static int depth_to_space_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c,
                             UINT h, UINT wd, UINT b, DML_DEPTH_SPACE_ORDER order)
{
    UINT in_s[4] = {n, c * b * b, h, wd}, out_s[4] = {n, c, h * b, wd * b};
    size_t in_bytes = (size_t)n * c * b * b * h * wd * elem;
    unsigned char *data = bench_alloc_input(w, in_bytes);
    for (size_t i = 0; i < in_bytes; i += 4) /* distinct 32-bit patterns */
        memcpy(data + i, &(uint32_t){(uint32_t)(i / 4 * 2654435761u)},
               in_bytes - i < 4 ? in_bytes - i : 4);
    w->output_bytes = in_bytes;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bool dcr = order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    size_t o = 0;
    for (size_t bn = 0; bn < n; ++bn)
        for (size_t ch = 0; ch < c; ++ch)
            for (size_t y = 0; y < h * b; ++y)
                for (size_t x = 0; x < wd * b; ++x, o += elem) {
                    size_t depth =
                        dcr ? ((y % b) * b + x % b) * c + ch : (ch * b + y % b) * b + x % b;
                    memcpy(e + o,
                           data + (((bn * c * b * b + depth) * h + y / b) * wd + x / b) * elem,
                           elem);
                }
    /* Naive: the output as (n, c, h, i, w, j), read from the input channel at (h, w). */
    const long hw = (long)h * wd;
    w->naive = (naive_desc){.kind = NAIVE_VIEW,
                            .elem = (unsigned)elem,
                            .rank = 6,
                            .sizes = {n, c, h, b, wd, b},
                            .strides = {(long)c * b * b * hw, dcr ? hw : (long)b * b * hw, wd,
                                        dcr ? (long)b * c * hw : (long)b * hw, 1,
                                        dcr ? (long)c * hw : hw}};
    w->op.depth_to_space =
        (DML_DEPTH_TO_SPACE1_OPERATOR_DESC){bench_tensor(w, 0, type, 4, in_s, NULL),
                                            bench_tensor(w, 1, type, 4, out_s, NULL), b, order};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_DEPTH_TO_SPACE1, &w->op.depth_to_space};
    return 0;
}

/* ONNX DepthToSpace DCR as ONNX Runtime's DirectML provider runs it. */
static int depth_to_space(workload *w)
{
    w->name = "depth-to-space";
    w->what = "DEPTH_TO_SPACE1 [32,256,64,64] f32 block 2 DCR to [32,64,128,128]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 64, 64, 64, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

/*
 * SPACE_TO_DEPTH1 of an NCHW `type` (elem bytes) tensor [n, c, h*b, wd*b] to
 * [n, c*b*b, h, wd]: output channel (i*b + j)*C + c (DEPTH_COLUMN_ROW, ONNX
 * DCR) or c*b*b + i*b + j (COLUMN_ROW_DEPTH, ONNX CRD) at (h, w) reads input
 * (n, c, h*b+i, w*b+j).
 */
static int space_to_depth_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c,
                             UINT h, UINT wd, UINT b, DML_DEPTH_SPACE_ORDER order)
{
    UINT in_s[4] = {n, c, h * b, wd * b}, out_s[4] = {n, c * b * b, h, wd};
    size_t in_bytes = (size_t)n * c * b * b * h * wd * elem;
    unsigned char *data = bench_alloc_input(w, in_bytes);
    for (size_t i = 0; i < in_bytes; i += 4) /* distinct 32-bit patterns */
        memcpy(data + i, &(uint32_t){(uint32_t)(i / 4 * 2654435761u)},
               in_bytes - i < 4 ? in_bytes - i : 4);
    w->output_bytes = in_bytes;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bool dcr = order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    size_t o = 0;
    for (size_t bn = 0; bn < n; ++bn)
        for (size_t depth = 0; depth < (size_t)c * b * b; ++depth) {
            size_t ch = dcr ? depth % c : depth / (b * b);
            size_t i = dcr ? depth / c / b : depth / b % b, j = dcr ? depth / c % b : depth % b;
            for (size_t y = 0; y < h; ++y)
                for (size_t x = 0; x < wd; ++x, o += elem)
                    memcpy(e + o,
                           data + (((bn * c + ch) * h * b + y * b + i) * wd * b + x * b + j) * elem,
                           elem);
        }
    /* Naive: the output as (n, i, j, c, h, w) (DCR) or (n, c, i, j, h, w), read from the input. */
    const long hw = (long)h * wd, row = (long)wd * b;
    w->naive = (naive_desc){.kind = NAIVE_VIEW, .elem = (unsigned)elem, .rank = 6};
    const UINT dcr_sizes[6] = {n, b, b, c, h, wd}, crd_sizes[6] = {n, c, b, b, h, wd};
    const long dcr_strides[6] = {(long)c * b * b * hw, row, 1, (long)b * b * hw, b * row, b},
               crd_strides[6] = {(long)c * b * b * hw, (long)b * b * hw, row, 1, b * row, b};
    for (int k = 0; k < 6; ++k) {
        w->naive.sizes[k] = dcr ? dcr_sizes[k] : crd_sizes[k];
        w->naive.strides[k] = dcr ? dcr_strides[k] : crd_strides[k];
    }
    w->op.space_to_depth =
        (DML_SPACE_TO_DEPTH1_OPERATOR_DESC){bench_tensor(w, 0, type, 4, in_s, NULL),
                                            bench_tensor(w, 1, type, 4, out_s, NULL), b, order};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SPACE_TO_DEPTH1, &w->op.space_to_depth};
    return 0;
}

/* ONNX SpaceToDepth (DCR) as ONNX Runtime's DirectML provider runs it. */
static int space_to_depth(workload *w)
{
    w->name = "space-to-depth";
    w->what = "SPACE_TO_DEPTH1 [32,64,128,128] f32 block 2 DCR to [32,256,64,64]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 64, 64, 64, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

/* JOIN of 4 [8,128,128,k] f32 on the inner axis, k = 16, 32, 48, 32: rows of 128 out. */
static int inner_concat(workload *w)
{
    w->name = "inner-concat";
    w->what = "JOIN of 4 [8,128,128,{16,32,48,32}] f32 on the last axis";
    enum { OUTER = 8 * 128 * 128, ROW = 128 };
    UINT k[4] = {16, 32, 48, 32}, out_s[4] = {8, 128, 128, ROW};
    uint32_t *in[4];
    for (int i = 0; i < 4; ++i) {
        UINT s[4] = {8, 128, 128, k[i]};
        in[i] = bench_alloc_input(w, (size_t)OUTER * k[i] * 4);
        for (size_t e = 0; e < (size_t)OUTER * k[i]; ++e)
            in[i][e] = (uint32_t)(e * 4 + (size_t)i);
        bench_tensor(w, i, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s, NULL);
    }
    w->output_bytes = (size_t)OUTER * ROW * 4;
    uint32_t *e = w->expected = malloc(w->output_bytes);
    for (size_t r = 0; r < OUTER; ++r)
        for (size_t i = 0, c = 0; i < 4; ++i)
            for (size_t j = 0; j < k[i]; ++j)
                e[r * ROW + c++] = in[i][r * k[i] + j];
    w->op.join = (DML_JOIN_OPERATOR_DESC){
        4, &w->tensors[0], bench_tensor(w, 4, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_s, NULL), 3};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_JOIN, &w->op.join};
    return 0;
}

/* SPLIT of [8,128,128,128] f32 into 3 along axis 2 (40, 48, 40 rows of 128). */
static int split3(workload *w)
{
    w->name = "split-3";
    w->what = "SPLIT of [8,128,128,128] f32 into 3 on axis 2 (40, 48, 40)";
    UINT in_s[4] = {8, 128, 128, 128}, rows[3] = {40, 48, 40};
    uint32_t *data = iota32(w, (size_t)8 * 128 * 128 * 128);
    w->output_bytes = (size_t)8 * 128 * 128 * 128 * 4;
    uint32_t *e = w->expected = malloc(w->output_bytes);
    w->n_outputs = 3;
    size_t at = 0;
    for (int i = 0, first = 0; i < 3; first += (int)rows[i++]) {
        UINT s[4] = {8, 128, rows[i], 128};
        w->out_bytes[i] = (size_t)8 * 128 * rows[i] * 128 * 4;
        bench_tensor(w, 1 + i, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s, NULL);
        for (size_t a = 0; a < (size_t)8 * 128; ++a)
            for (size_t r = 0; r < rows[i]; ++r)
                for (size_t c = 0; c < 128; ++c)
                    e[at++] = data[(a * 128 + (size_t)first + r) * 128 + c];
    }
    w->op.split = (DML_SPLIT_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, NULL), 3, &w->tensors[1], 2};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SPLIT, &w->op.split};
    return 0;
}

static int pad_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c, UINT h,
                  UINT wd, UINT p, DML_PADDING_MODE mode);

/* PADDING of an NCHW image batch [16,64,128,128] f32 by 2 on each side of H and W. */
static int image_padding(workload *w, DML_PADDING_MODE mode)
{
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 64, 128, 128, 2, mode);
}

static int constant_pad(workload *w)
{
    w->name = "constant-pad";
    w->what = "PADDING [16,64,128,128] f32 by 2 on H and W, constant 0";
    return image_padding(w, DML_PADDING_MODE_CONSTANT);
}

static int reflect_pad(workload *w)
{
    w->name = "reflect-pad";
    w->what = "PADDING [16,64,128,128] f32 by 2 on H and W, reflection";
    return image_padding(w, DML_PADDING_MODE_REFLECTION);
}

/* Element-wise (the map family): values with a few significant bits, so that sums and
 * products are exact and the expected output is the IEEE result of plain C. */
static float small_value(void)
{
    return (float)((int)(bench_random() % 4001) - 2000) * 0.125f;
}

/* ELEMENT_WISE_ADD of an NCHW batch [16,64,128,128] f32 and a per-channel bias [64] read
 * with strides {0,1,0,0} (ONNX's Add of x and bias[None,:,None,None]). */
static int add_bias_of(workload *w, UINT n, UINT c, UINT side)
{
    const UINT hw = side * side, sizes[4] = {n, c, side, side}, bias_strides[4] = {0, 1, 0, 0};
    size_t total = (size_t)n * c * hw;
    float *x = bench_alloc_input(w, total * sizeof *x), *b = bench_alloc_input(w, c * sizeof *b);
    for (size_t i = 0; i < total; ++i)
        x[i] = small_value();
    for (UINT k = 0; k < c; ++k)
        b[k] = small_value();
    bench_touch(w, 0, 0, total * sizeof *x);
    bench_touch(w, 1, 0, c * sizeof *b);
    float *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i)
        e[i] = x[i] + b[i / hw % c];
    w->output_bytes = total * sizeof *e;
    w->op.binary = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, bias_strides),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL)};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_ADD, &w->op.binary};
    return 0;
}

static int add_bias(workload *w)
{
    w->name = "add-bias";
    w->what = "ELEMENT_WISE_ADD [16,64,128,128] f32 + bias [64] broadcast by 0 strides";
    return add_bias_of(w, 16, 64, 128);
}

/* ELEMENT_WISE_MULTIPLY of two f32 tensors [d0,d1,1024]. */
static int multiply_of(workload *w, UINT d0, UINT d1)
{
    const UINT sizes[3] = {d0, d1, 1024};
    size_t total = (size_t)d0 * d1 * 1024;
    float *a = bench_alloc_input(w, total * sizeof *a),
          *b = bench_alloc_input(w, total * sizeof *b);
    for (size_t i = 0; i < total; ++i) {
        a[i] = small_value();
        b[i] = small_value();
    }
    bench_touch(w, 0, 0, total * sizeof *a);
    bench_touch(w, 1, 0, total * sizeof *b);
    float *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i)
        e[i] = a[i] * b[i];
    w->output_bytes = total * sizeof *e;
    w->op.binary = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL)};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_MULTIPLY, &w->op.binary};
    return 0;
}

static int multiply(workload *w)
{
    w->name = "multiply";
    w->what = "ELEMENT_WISE_MULTIPLY of two [16,1024,1024] f32 (64 MiB each)";
    return multiply_of(w, 16, 1024);
}

/* An activation of a [d0,1024,1024] f32 tensor (64 MiB at 16), inputs in [-8, 8). */
static int activation_of(workload *w, DML_OPERATOR_TYPE type, double (*f)(double), unsigned ulps,
                         UINT d0, UINT d1)
{
    const UINT sizes[3] = {d0, d1, 1024};
    size_t total = (size_t)d0 * d1 * 1024;
    float *x = bench_alloc_input(w, total * sizeof *x),
          *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i) {
        x[i] = (float)((double)(bench_random() >> 40) / (double)(1u << 24) * 16.0 - 8.0);
        e[i] = (float)f((double)x[i]);
    }
    bench_touch(w, 0, 0, total * sizeof *x);
    w->output_bytes = total * sizeof *e;
    w->float_ulps = ulps;
    w->op.unary = (DML_ACTIVATION_SIGMOID_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL)};
    w->desc = (DML_OPERATOR_DESC){type, &w->op.unary};
    return 0;
}

static int activation(workload *w, DML_OPERATOR_TYPE type, double (*f)(double), unsigned ulps)
{
    return activation_of(w, type, f, ulps, 16, 1024);
}

static double gelu_exact(double x)
{
    return 0.5 * x * erfc(-x / sqrt(2.0)); /* 1 + erf(x / sqrt 2), exact in the tail too */
}

static double sigmoid_exact(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Tolerances: precision.md's, as the device tests hold them (tests/ops/elementwise_activation.c).
 */
static int gelu(workload *w)
{
    w->name = "gelu";
    w->what = "ACTIVATION_GELU [16,1024,1024] f32 (within 18 ULPs)";
    return activation(w, DML_OPERATOR_ACTIVATION_GELU, gelu_exact, 18);
}

static int sigmoid(workload *w)
{
    w->name = "sigmoid";
    w->what = "ACTIVATION_SIGMOID [16,1024,1024] f32 (within 34 ULPs)";
    return activation(w, DML_OPERATOR_ACTIVATION_SIGMOID, sigmoid_exact, 34);
}

/* The FLOAT16 bits of a float that FLOAT16 holds exactly (a normal half or zero). */
static uint16_t exact_half(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    uint16_t sign = (uint16_t)(b >> 16 & 0x8000u);
    if ((b & 0x7FFFFFFFu) == 0)
        return sign;
    uint32_t exponent = (b >> 23 & 0xFFu) - 127 + 15, mantissa = b & 0x7FFFFFu;
    return (uint16_t)(sign | exponent << 10 | mantissa >> 13);
}

/* CAST of a [d0, d1, 1024] f32 tensor to f16 (the bench's 64 MiB read, 32 MiB written):
 * eighths in [-250, 250], which FLOAT16 holds exactly (the rounding rules: the conformance
 * cases). */
static int cast_f16_of(workload *w, UINT d0, UINT d1)
{
    const UINT sizes[3] = {d0, d1, 1024};
    size_t total = (size_t)d0 * d1 * 1024;
    float *x = bench_alloc_input(w, total * sizeof *x);
    uint16_t *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i) {
        x[i] = small_value();
        e[i] = exact_half(x[i]);
    }
    bench_touch(w, 0, 0, total * sizeof *x);
    w->output_bytes = total * sizeof *e;
    w->op.unary = (DML_ACTIVATION_SIGMOID_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT16, 3, sizes, NULL)};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_CAST, &w->op.unary};
    return 0;
}

static int cast_f16(workload *w)
{
    w->name = "cast-f16";
    w->what = "CAST [16,1024,1024] f32 to f16";
    return cast_f16_of(w, 16, 1024);
}

/* ELEMENT_WISE_CLIP1 of an int8 tensor [d0, d1, 1024] to [-50, 50] (a quantised model's clamp;
 * the bench's 64 MiB, the model's 256 KiB). */
static int clip_i8_of(workload *w, UINT d0, UINT d1)
{
    const UINT sizes[3] = {d0, d1, 1024};
    size_t total = (size_t)d0 * d1 * 1024;
    int8_t *x = bench_alloc_input(w, total), *e = w->expected = malloc(total);
    for (size_t i = 0; i < total; ++i) {
        x[i] = (int8_t)(bench_random() >> 56);
        e[i] = x[i] < -50 ? -50 : x[i] > 50 ? 50 : x[i];
    }
    bench_touch(w, 0, 0, total);
    w->output_bytes = total;
    DML_SCALAR_UNION lo = {0}, hi = {0};
    lo.Int8 = -50;
    hi.Int8 = 50;
    w->op.clip1 = (DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_INT8, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT8, 3, sizes, NULL),
        NULL,
        DML_TENSOR_DATA_TYPE_INT8,
        lo,
        hi};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP1, &w->op.clip1};
    return 0;
}

static int clip_i8(workload *w)
{
    w->name = "clip-i8";
    w->what = "ELEMENT_WISE_CLIP1 [64,1024,1024] int8 to [-50, 50]";
    return clip_i8_of(w, 64, 1024);
}

/* ELEMENT_WISE_ADD1 of two [d0, d1, 1024] f32 with a fused RELU. */
static int add1_relu_of(workload *w, UINT d0, UINT d1)
{
    const UINT sizes[3] = {d0, d1, 1024};
    size_t total = (size_t)d0 * d1 * 1024;
    float *a = bench_alloc_input(w, total * sizeof *a),
          *b = bench_alloc_input(w, total * sizeof *b);
    for (size_t i = 0; i < total; ++i) {
        a[i] = small_value();
        b[i] = small_value();
    }
    bench_touch(w, 0, 0, total * sizeof *a);
    bench_touch(w, 1, 0, total * sizeof *b);
    float *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i)
        e[i] = a[i] + b[i] > 0 ? a[i] + b[i] : 0.0f;
    w->output_bytes = total * sizeof *e;
    w->fused_relu = (DML_ACTIVATION_RELU_OPERATOR_DESC){NULL, NULL};
    w->fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &w->fused_relu};
    w->op.add1 = (DML_ELEMENT_WISE_ADD1_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL), &w->fused};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_ADD1, &w->op.add1};
    return 0;
}

static int add1_relu(workload *w)
{
    w->name = "add1-relu";
    w->what = "ELEMENT_WISE_ADD1 of two [16,1024,1024] f32, fused RELU";
    return add1_relu_of(w, 16, 1024);
}

const workload_setup bench_workloads[] = {
    embedding_gather,
    inner_axis_gather,
    batched_gather,
    small_row_gather,
    reversing_slice,
    row_slice,
    channel_broadcast,
    batch_broadcast,
    layout_change,
    image_tile,
    depth_to_space,
    inner_concat,
    split3,
    constant_pad,
    reflect_pad,
    space_to_depth,
    add_bias,
    multiply,
    gelu,
    sigmoid,
    add1_relu,
    cast_f16,
    clip_i8,
    bench_sum_inner,
    bench_sum_outer,
    bench_softmax_rows,
    bench_softmax_attention,
    bench_layernorm_384,
    bench_layernorm_768,
    bench_bn_relu,
    bench_argmax_inner,
    bench_cumsum,
    bench_sgemm_1024,
    bench_sgemm_4096,
    bench_gemm_projection,
    bench_gemm_projection_gelu,
    bench_gemm_attention,
    bench_qgemm_projection,
    bench_mm_integer_1024,
    bench_qconv3x3_56,
    bench_maxpool_stem,
    bench_global_avgpool,
    bench_resample_linear_x2,
    bench_resample_nearest_x2,
    bench_conv_stem,
    bench_conv3x3_56,
    bench_conv3x3_14,
    bench_conv1x1_56,
    bench_conv_depthwise,
    bench_conv_transposed,
};
const unsigned bench_workload_count = sizeof bench_workloads / sizeof bench_workloads[0];

/* --variants: the same kinds at other shapes and types (no peers). */
static int v_nchw_f16(workload *w)
{
    w->name = "v-nchw-to-nhwc-f16";
    w->what = "IDENTITY [32,64,128,128] f16, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 32, 64, 128, 128);
}

static int v_nchw_u8(workload *w)
{
    w->name = "v-nchw-to-nhwc-u8";
    w->what = "IDENTITY [32,64,224,224] u8, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 32, 64, 224, 224);
}

static int v_nchw_odd(workload *w)
{
    w->name = "v-nchw-to-nhwc-48x112";
    w->what = "IDENTITY [32,48,112,112] f32, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 48, 112, 112);
}

/* The transposition of dmlcl-bench-chains' layout-bias chain alone (8 MiB). */
static int v_nchw_chain(workload *w)
{
    w->name = "v-nchw-to-nhwc-c32-f32";
    w->what = "IDENTITY [16,32,64,64] f32, NCHW to NHWC (the layout-bias chain's transpose)";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 32, 64, 64);
}

static int v_nchw_f64(workload *w)
{
    w->name = "v-nchw-to-nhwc-f64";
    w->what = "IDENTITY [16,32,128,128] f64, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT64, 8, 16, 32, 128, 128);
}

static int v_nhwc_to_nchw(workload *w)
{
    w->name = "v-nhwc-to-nchw";
    w->what = "IDENTITY [32,64,128,128] f32, NHWC input to NCHW output";
    UINT sizes[4] = {32, 64, 128, 128}, in_s[4] = {128 * 128 * 64, 1, 128 * 64, 64};
    return identity(w, 4, sizes, in_s, (size_t)32 * 64 * 128 * 128, NULL);
}

static int v_matrix_transpose(workload *w)
{
    w->name = "v-transpose-2d";
    w->what = "IDENTITY [6000,5000] f32 read transposed";
    UINT sizes[2] = {6000, 5000}, in_s[2] = {1, 6000};
    return identity(w, 2, sizes, in_s, (size_t)6000 * 5000, NULL);
}

/* Reversing and strided slices of other types and shapes (outputs over 32 MiB: streamed). */
static int v_reverse_f16(workload *w)
{
    w->name = "v-reversing-slice-f16";
    w->what = "StridedSlice [16,3,1080,1920] f16 as [:, :, ::-1, ::-1]";
    UINT in_s[4] = {16, 3, 1080, 1920}, off[4] = {0, 0, 0, 0};
    INT step[4] = {1, 1, -1, -1};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, in_s, off, in_s, step, in_s);
}

static int v_strided_u8(workload *w)
{
    w->name = "v-strided-slice-u8";
    w->what = "StridedSlice [32,3,1024,2048] u8 as [:, ::-1, 1::2, ::-2]";
    UINT in_s[4] = {32, 3, 1024, 2048}, off[4] = {0, 0, 1, 0}, win[4] = {32, 3, 1023, 2048},
         out_s[4] = {32, 3, 512, 1024};
    INT step[4] = {1, -1, 2, -2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, in_s, off, win, step, out_s);
}

static int v_strided_f64(workload *w)
{
    w->name = "v-strided-slice-f64";
    w->what = "StridedSlice [8,3,1000,1001] f64 as [:, :, :, ::2]";
    UINT in_s[4] = {8, 3, 1000, 1001}, off[4] = {0, 0, 0, 0}, out_s[4] = {8, 3, 1000, 501};
    INT step[4] = {1, 1, 1, 2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT64, 8, in_s, off, in_s, step, out_s);
}

/* Outputs under 32 MiB: plain stores (a reversed u16 run of odd length, an f32 stride-2 run). */
static int v_reverse_small_u16(workload *w)
{
    w->name = "v-reversing-slice-small-u16";
    w->what = "StridedSlice [8,3,500,1001] u16 as [:, :, ::-1, ::-1]";
    UINT in_s[4] = {8, 3, 500, 1001}, off[4] = {0, 0, 0, 0};
    INT step[4] = {1, 1, -1, -1};
    return slice_of(w, DML_TENSOR_DATA_TYPE_UINT16, 2, in_s, off, in_s, step, in_s);
}

static int v_strided_small_f32(workload *w)
{
    w->name = "v-strided-slice-small-f32";
    w->what = "StridedSlice [16,3,256,512] f32 as [:, ::-1, ::2, 1::2]";
    UINT in_s[4] = {16, 3, 256, 512}, off[4] = {0, 0, 0, 1}, win[4] = {16, 3, 256, 511},
         out_s[4] = {16, 3, 128, 256};
    INT step[4] = {1, -1, 2, 2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, off, win, step, out_s);
}

/* Inner-axis gathers of other types and shapes: data [rows, cols], k indices along axis 1;
 * onnx: as ONNX Gather (DMLCL_GATHER1, ERROR policy, a quarter of the indices negative). */
static int inner_gather_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT rows,
                           UINT cols, UINT k, bool onnx)
{
    UINT in_s[2] = {rows, cols}, ix_s[2] = {1, k}, out_s[2] = {rows, k}, ix_1[1] = {k};
    unsigned char *data = bench_alloc_input(w, (size_t)rows * cols * elem);
    for (size_t i = 0; i < (size_t)rows * cols * elem; ++i)
        data[i] = (unsigned char)(bench_random() >> 56);
    int64_t *idx = bench_alloc_input(w, (size_t)k * 8);
    size_t *at = malloc((size_t)k * sizeof *at);
    for (UINT i = 0; i < k; ++i) {
        at[i] = (size_t)(bench_random() % cols);
        idx[i] = onnx && i % 4 == 3 ? (int64_t)at[i] - (int64_t)cols : (int64_t)at[i];
    }
    w->output_bytes = (size_t)rows * k * elem;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bench_touch(w, 1, 0, (size_t)k * 8);
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < k; ++i) {
            size_t from = (r * cols + at[i]) * elem;
            memcpy(e + (r * k + i) * elem, data + from, elem);
            bench_touch(w, 0, from, elem);
        }
    free(at);
    naive_gather(w, (unsigned)elem, rows, cols, k, 1, 0);
    if (onnx) {
        w->op.gather1 = (DMLCL_GATHER1_OPERATOR_DESC){
            bench_tensor(w, 0, type, 2, in_s, NULL),
            bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 1, ix_1, NULL),
            bench_tensor(w, 2, type, 2, out_s, NULL),
            1,
            1,
            0,
            DMLCL_OUT_OF_RANGE_POLICY_ERROR,
            1};
        w->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_GATHER1, &w->op.gather1};
        return 0;
    }
    w->op.gather =
        (DML_GATHER_OPERATOR_DESC){bench_tensor(w, 0, type, 2, in_s, NULL),
                                   bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 2, ix_s, NULL),
                                   bench_tensor(w, 2, type, 2, out_s, NULL), 1, 1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &w->op.gather};
    return 0;
}

static int v_inner_gather_f16(workload *w)
{
    w->name = "v-inner-axis-gather-f16";
    w->what = "Gather data [8192,3000] f16, 2500 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 8192, 3000, 2500, false);
}

static int v_inner_gather_u8(workload *w)
{
    w->name = "v-inner-axis-gather-u8";
    w->what = "Gather data [6000,7001] u8, 6500 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 6000, 7001, 6500, false);
}

/* Output under 32 MiB: plain stores (no STREAM), the gathered rows from memory. */
static int v_inner_gather_plain(workload *w)
{
    w->name = "v-inner-axis-gather-16mb";
    w->what = "Gather data [2048,4096] f32, 2048 int64 indices, axis 1 (16 MiB out)";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 2048, 4096, 2048, false);
}

static int v_inner_gather_onnx(workload *w)
{
    w->name = "v-inner-axis-gather-onnx";
    w->what = "ONNX Gather (ERROR policy) data [4096,4096] f32, 2048 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 4096, 4096, 2048, true);
}

/* Small-row gathers with other row widths. */
static int v_small_rows_8(workload *w)
{
    w->name = "v-small-row-gather-8b";
    w->what = "Gather data [2097152,2] f32, 4194304 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 2097152, 2, 4194304);
}

static int v_small_rows_u8(workload *w)
{
    w->name = "v-small-row-gather-u8x16";
    w->what = "Gather data [4194304,16] u8, 2097152 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 4194304, 16, 2097152);
}

/* Row gathers of other row sizes and types (whole rows, a page or less each). */
static int v_row_gather_2k(workload *w)
{
    w->name = "v-row-gather-2k-f16";
    w->what = "Gather data [100000,1024] f16, 24576 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 100000, 1024, 24576);
}

static int v_row_gather_1000b(workload *w)
{
    w->name = "v-row-gather-1000b";
    w->what = "Gather data [100000,250] f32, 65536 int64 indices, axis 0 (rows off the line grid)";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 100000, 250, 65536);
}

static int v_row_gather_16k(workload *w)
{
    w->name = "v-row-gather-16k";
    w->what = "Gather data [12000,4096] f32, 4096 int64 indices, axis 0 (rows of 4 pages)";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 12000, 4096, 4096);
}

/* An embedding lookup whose output is under 32 MiB: plain stores. */
static int v_row_gather_plain(workload *w)
{
    w->name = "v-row-gather-16mb";
    w->what = "Gather data [50000,1024] f32, 4096 int64 indices, axis 0 (16 MiB out)";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 50000, 1024, 4096);
}

static int v_batched_small_rows(workload *w)
{
    w->name = "v-batched-gather-16b";
    w->what = "Gather-8 batch_dims 1: data [16,262144,4] f32, indices [16,65536], axis 1";
    return batched_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 262144, 4, 65536);
}

/* ONNX Gather (DMLCL_GATHER1, ERROR policy): rows of 4 KiB, a quarter of the indices negative. */
static int v_row_gather_onnx(workload *w)
{
    w->name = "v-row-gather-onnx";
    w->what = "ONNX Gather (ERROR policy) data [50000,1024] f32, 16384 int64 indices, axis 0";
    UINT rows = 50000, cols = 1024, n = 16384;
    UINT in_s[2] = {rows, cols}, ix_s[1] = {n}, out_s[2] = {n, cols};
    size_t row_bytes = (size_t)cols * 4;
    uint32_t *data = iota32(w, (size_t)rows * cols);
    int64_t *idx = bench_alloc_input(w, (size_t)n * 8);
    w->output_bytes = (size_t)n * row_bytes;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    bench_touch(w, 1, 0, (size_t)n * 8);
    for (UINT i = 0; i < n; ++i) {
        int64_t at = (int64_t)(bench_random() % rows);
        idx[i] = i % 4 == 3 ? at - (int64_t)rows : at;
        memcpy(e + i * row_bytes, data + (size_t)at * cols, row_bytes);
        bench_touch(w, 0, (size_t)at * row_bytes, row_bytes);
    }
    naive_gather(w, 4, 1, rows, n, cols, 0);
    w->op.gather1 = (DMLCL_GATHER1_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in_s, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_INT64, 1, ix_s, NULL),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out_s, NULL),
        0,
        1,
        0,
        DMLCL_OUT_OF_RANGE_POLICY_ERROR,
        1};
    w->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_GATHER1, &w->op.gather1};
    return 0;
}

static int v_batched_f16(workload *w)
{
    w->name = "v-batched-gather-f16";
    w->what = "Gather-8 batch_dims 1: data [32,4096,256] f16, indices [32,2048], axis 1";
    return batched_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 32, 4096, 256, 2048);
}

/* Short runs: depth-to-space of other blocks, orders and types; NCHW -> NHWC with few channels. */
static int v_depth_to_space_b3(workload *w)
{
    w->name = "v-depth-to-space-b3";
    w->what = "DEPTH_TO_SPACE1 [16,288,60,60] f32 block 3 DCR to [16,32,180,180]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 32, 60, 60, 3,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

static int v_depth_to_space_b4_u8(workload *w)
{
    w->name = "v-depth-to-space-b4-u8";
    w->what = "DEPTH_TO_SPACE1 [32,256,56,56] u8 block 4 CRD to [32,16,224,224]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 32, 16, 56, 56, 4,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int v_depth_to_space_b2_f16(workload *w)
{
    w->name = "v-depth-to-space-b2-f16";
    w->what = "DEPTH_TO_SPACE1 [32,128,100,100] f16 block 2 CRD to [32,32,200,200]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 32, 32, 100, 100, 2,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int v_nchw_c3_u8(workload *w)
{
    w->name = "v-nchw-to-nhwc-c3-u8";
    w->what = "IDENTITY [64,3,224,224] u8, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 64, 3, 224, 224);
}

static int v_nchw_c4_u8(workload *w)
{
    w->name = "v-nchw-to-nhwc-c4-u8";
    w->what = "IDENTITY [64,4,224,224] u8, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 64, 4, 224, 224);
}

static int v_nchw_c3_f32(workload *w)
{
    w->name = "v-nchw-to-nhwc-c3-f32";
    w->what = "IDENTITY [32,3,256,256] f32, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 3, 256, 256);
}

static int v_nchw_c4_f32(workload *w)
{
    w->name = "v-nchw-to-nhwc-c4-f32";
    w->what = "IDENTITY [32,4,250,250] f32, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 4, 250, 250);
}

/* Short runs in the input: space-to-depth, NHWC -> NCHW with few channels. */
static int v_space_to_depth_b3(workload *w)
{
    w->name = "v-space-to-depth-b3";
    w->what = "SPACE_TO_DEPTH1 [16,32,180,180] f32 block 3 DCR to [16,288,60,60]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 32, 60, 60, 3,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

static int v_space_to_depth_b4_u8(workload *w)
{
    w->name = "v-space-to-depth-b4-u8";
    w->what = "SPACE_TO_DEPTH1 [32,16,224,224] u8 block 4 CRD to [32,256,56,56]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 32, 16, 56, 56, 4,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int nhwc_to_nchw(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c, UINT h,
                        UINT wd)
{
    UINT sizes[4] = {n, c, h, wd}, in_s[4] = {h * wd * c, 1, wd * c, c};
    return identity_of(w, type, elem, 4, sizes, in_s, (size_t)n * c * h * wd, NULL);
}

static int v_nhwc_c3_u8(workload *w)
{
    w->name = "v-nhwc-to-nchw-c3-u8";
    w->what = "IDENTITY [64,3,224,224] u8, NHWC input to NCHW";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 64, 3, 224, 224);
}

static int v_nhwc_c3_f32(workload *w)
{
    w->name = "v-nhwc-to-nchw-c3-f32";
    w->what = "IDENTITY [32,3,256,256] f32, NHWC input to NCHW";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 32, 3, 256, 256);
}

static int v_nhwc_c4_u8(workload *w)
{
    w->name = "v-nhwc-to-nchw-c4-u8";
    w->what = "IDENTITY [64,4,224,224] u8, NHWC input to NCHW";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 64, 4, 224, 224);
}

/* JOIN of n [outer, k[i]] tensors of elem-byte `type` on the last axis. */
static int concat_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT outer, UINT n,
                     const UINT *k)
{
    UINT row = 0;
    unsigned char *in[4];
    for (UINT i = 0; i < n; ++i) {
        UINT s[2] = {outer, k[i]};
        size_t bytes = (size_t)outer * k[i] * elem;
        in[i] = bench_alloc_input(w, bytes);
        for (size_t b = 0; b < bytes; ++b)
            in[i][b] = (unsigned char)(b * 7 + i * 13 + b / 251);
        bench_tensor(w, (int)i, type, 2, s, NULL);
        row += k[i];
    }
    UINT out_s[2] = {outer, row};
    w->output_bytes = (size_t)outer * row * elem;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    for (size_t r = 0; r < outer; ++r)
        for (UINT i = 0; i < n; ++i, e += k[i - 1] * elem)
            memcpy(e, in[i] + r * k[i] * elem, k[i] * elem);
    w->op.join = (DML_JOIN_OPERATOR_DESC){n, &w->tensors[0],
                                          bench_tensor(w, (int)n, type, 2, out_s, NULL), 1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_JOIN, &w->op.join};
    return 0;
}

static int v_concat_f16(workload *w)
{
    w->name = "v-inner-concat-f16";
    w->what = "JOIN of 3 [65536,{100,60,37}] f16 on the last axis";
    const UINT k[3] = {100, 60, 37};
    return concat_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 65536, 3, k);
}

static int v_concat_u8(workload *w)
{
    w->name = "v-inner-concat-u8";
    w->what = "JOIN of 2 [65536,{300,700}] u8 on the last axis";
    const UINT k[2] = {300, 700};
    return concat_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 65536, 2, k);
}

/* SPLIT of [outer, sum(rows), inner] of elem-byte `type` into n on axis 1. */
static int split_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT outer, UINT n,
                    const UINT *rows, UINT inner)
{
    UINT total = 0;
    for (UINT i = 0; i < n; ++i)
        total += rows[i];
    UINT in_s[3] = {outer, total, inner};
    size_t bytes = (size_t)outer * total * inner * elem, row = (size_t)inner * elem;
    unsigned char *in = bench_alloc_input(w, bytes);
    for (size_t b = 0; b < bytes; ++b)
        in[b] = (unsigned char)(b * 7 + b / 251);
    w->output_bytes = bytes;
    unsigned char *e = w->expected = malloc(bytes);
    w->n_outputs = n;
    for (UINT i = 0, first = 0; i < n; first += rows[i++]) {
        UINT s[3] = {outer, rows[i], inner};
        w->out_bytes[i] = (size_t)outer * rows[i] * row;
        bench_tensor(w, 1 + (int)i, type, 3, s, NULL);
        for (size_t a = 0; a < outer; ++a, e += rows[i] * row)
            memcpy(e, in + (a * total + first) * row, rows[i] * row);
    }
    w->op.split =
        (DML_SPLIT_OPERATOR_DESC){bench_tensor(w, 0, type, 3, in_s, NULL), n, &w->tensors[1], 1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SPLIT, &w->op.split};
    return 0;
}

static int v_split_f16(workload *w)
{
    w->name = "v-split-3-f16";
    w->what = "SPLIT of [64,150,1000] f16 into 3 on axis 1 (50, 60, 40)";
    const UINT rows[3] = {50, 60, 40};
    return split_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 64, 3, rows, 1000);
}

static int v_split_inner(workload *w)
{
    w->name = "v-split-inner-f32";
    w->what = "SPLIT of [131072,{20,44,64}] f32 into 3 on the last axis";
    const UINT rows[3] = {20, 44, 64};
    return split_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 131072, 3, rows, 1);
}

/*
 * PADDING of [n, h, wd] (c = 0) or [n, c, h, wd] elem-byte `type` by p on
 * each side of the last two axes. Expected: each output element's input
 * coordinate folded by hand (constant: 0 outside; reflect: -t below,
 * 2(n-1)-t above, pads < n).
 */
static int pad_of(workload *w, DML_TENSOR_DATA_TYPE type, size_t elem, UINT n, UINT c, UINT h,
                  UINT wd, UINT p, DML_PADDING_MODE mode)
{
    UINT rank = c ? 4 : 3, planes = c ? n * c : n;
    UINT in_s[4] = {n, c, h, wd}, out_s[4] = {n, c, h + 2 * p, wd + 2 * p};
    if (!c) {
        UINT in3[3] = {n, h, wd}, out3[3] = {n, h + 2 * p, wd + 2 * p};
        memcpy(in_s, in3, sizeof in3);
        memcpy(out_s, out3, sizeof out3);
    }
    size_t bytes = (size_t)planes * h * wd * elem;
    unsigned char *in = bench_alloc_input(w, bytes);
    for (size_t b = 0; b < bytes; ++b)
        in[b] = (unsigned char)(b * 7 + b / 251 + 1);
    w->output_bytes = (size_t)planes * (h + 2 * p) * (wd + 2 * p) * elem;
    unsigned char *e = w->expected = malloc(w->output_bytes);
    int H = (int)h, W = (int)wd, P = (int)p;
    for (size_t a = 0; a < planes; ++a)
        for (int y = -P; y < H + P; ++y)
            for (int x = -P; x < W + P; ++x, e += elem) {
                int ry = y < 0 ? -y : y >= H ? 2 * (H - 1) - y : y;
                int rx = x < 0 ? -x : x >= W ? 2 * (W - 1) - x : x;
                if (mode == DML_PADDING_MODE_CONSTANT && (y < 0 || y >= H || x < 0 || x >= W))
                    memset(e, 0, elem);
                else
                    memcpy(e, in + ((a * h + (size_t)ry) * wd + (size_t)rx) * elem, elem);
            }
    UINT *pads = w->sizes[3];
    memset(pads, 0, 4 * sizeof *pads);
    pads[rank - 2] = pads[rank - 1] = p;
    w->op.padding = (DML_PADDING_OPERATOR_DESC){bench_tensor(w, 0, type, rank, in_s, NULL),
                                                bench_tensor(w, 1, type, rank, out_s, NULL),
                                                mode,
                                                0.0f,
                                                rank,
                                                pads,
                                                pads};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING, &w->op.padding};
    return 0;
}

static int v_constant_pad_f16(workload *w)
{
    w->name = "v-constant-pad-f16";
    w->what = "PADDING [1024,100,300] f16 by 3 on the last two axes, constant 0";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 1024, 0, 100, 300, 3,
                  DML_PADDING_MODE_CONSTANT);
}

static int v_reflect_pad_u8(workload *w)
{
    w->name = "v-reflect-pad-u8";
    w->what = "PADDING [512,224,224] u8 by 1 on the last two axes, reflection";
    return pad_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 512, 0, 224, 224, 1,
                  DML_PADDING_MODE_REFLECTION);
}

static int v_constant_pad_f32(workload *w)
{
    w->name = "v-constant-pad-f32-wide";
    w->what = "PADDING [1024,64,200] f32 by 16 on the last two axes, constant 0";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1024, 0, 64, 200, 16,
                  DML_PADDING_MODE_CONSTANT);
}

static int v_tile_odd(workload *w)
{
    w->name = "v-tile-odd";
    w->what = "TILE [16,3,250,250] f32 by {1,1,2,2}: [16,3,500,500]";
    const UINT in[4] = {16, 3, 250, 250}, reps[4] = {1, 1, 2, 2};
    return tile_of(w, in, reps);
}

static int v_tile_rows(workload *w)
{
    w->name = "v-tile-rows";
    w->what = "TILE [64,1,128,64] f32 by {1,4,1,3}: [64,4,128,192]";
    const UINT in[4] = {64, 1, 128, 64}, reps[4] = {1, 4, 1, 3};
    return tile_of(w, in, reps);
}

/* IDENTITY with ScaleBias (the map family): x * 2 + 0.5 on packed FLOAT32, exact in float
 * (x * 2 is exact, so a fused multiply-add rounds as the separate operations do). */
static int v_scale_bias_f32(workload *w)
{
    w->name = "v-scale-bias-f32";
    w->what = "IDENTITY [8,1024,1024] f32 with ScaleBias {2, 0.5} (a map)";
    const UINT sizes[3] = {8, 1024, 1024};
    size_t n = (size_t)8 * 1024 * 1024;
    float *x = bench_alloc_input(w, n * sizeof *x);
    float *e = w->expected = malloc(n * sizeof *e);
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)(int)(bench_random() % 4001 - 2000) * 0.25f;
        e[i] = x[i] * 2.0f + 0.5f;
    }
    bench_touch(w, 0, 0, n * sizeof *x);
    w->output_bytes = n * sizeof *e;
    w->scale_bias = (DML_SCALE_BIAS){2.0f, 0.5f};
    w->op.identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL), &w->scale_bias};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &w->op.identity};
    return 0;
}

const workload_setup bench_variants[] = {
    v_scale_bias_f32,
    v_nchw_f16,
    v_nchw_u8,
    v_nchw_odd,
    v_nchw_chain,
    v_nchw_f64,
    v_nhwc_to_nchw,
    v_matrix_transpose,
    v_reverse_f16,
    v_strided_u8,
    v_strided_f64,
    v_reverse_small_u16,
    v_strided_small_f32,
    v_inner_gather_f16,
    v_inner_gather_u8,
    v_inner_gather_plain,
    v_inner_gather_onnx,
    v_small_rows_8,
    v_small_rows_u8,
    v_row_gather_2k,
    v_row_gather_1000b,
    v_row_gather_16k,
    v_row_gather_plain,
    v_row_gather_onnx,
    v_batched_f16,
    v_batched_small_rows,
    v_depth_to_space_b3,
    v_depth_to_space_b4_u8,
    v_depth_to_space_b2_f16,
    v_nchw_c3_u8,
    v_nchw_c4_u8,
    v_nchw_c3_f32,
    v_nchw_c4_f32,
    v_space_to_depth_b3,
    v_space_to_depth_b4_u8,
    v_nhwc_c3_u8,
    v_nhwc_c3_f32,
    v_nhwc_c4_u8,
    v_concat_f16,
    v_concat_u8,
    v_split_f16,
    v_split_inner,
    v_constant_pad_f16,
    v_reflect_pad_u8,
    v_constant_pad_f32,
    v_tile_odd,
    v_tile_rows,
};
const unsigned bench_variant_count = sizeof bench_variants / sizeof bench_variants[0];

void workload_free(workload *w)
{
    for (unsigned i = 0; i < w->n_inputs; ++i) {
        free(w->inputs[i]);
        free(w->lines[i]);
    }
    free(w->expected);
}

/*
 * The GPU memory model's shapes (dmlcl-gpumodel, docs/testing.md): the data-movement
 * workloads above and most of their variants, same operators, types and layouts, scaled
 * down so that Oclgrind interprets each in well under a second. What picks the variant and
 * its lanes is kept: row lengths (the runs), channel counts, blocks, pads, the pieces'
 * widths, and which family takes a multi-step operator (bands take PADDING and SPLIT of
 * many rows or of at most 256 KiB: bands.c); the outer dimensions shrink (fewer rows,
 * smaller grids).
 */
static int m_embedding_gather(workload *w)
{
    w->name = "embedding-gather";
    w->what = "Gather data [512,1024] f32, 16 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 512, 1024, 16);
}

static int m_inner_axis_gather(workload *w)
{
    w->name = "inner-axis-gather";
    w->what = "Gather data [16,4096] f32, 2048 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 4096, 2048, false);
}

static int m_batched_gather(workload *w)
{
    w->name = "batched-gather";
    w->what = "Gather-8 batch_dims 1: data [4,256,256] f32, indices [4,32], axis 1";
    return batched_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 4, 256, 256, 32);
}

static int m_small_row_gather(workload *w)
{
    w->name = "small-row-gather";
    w->what = "Gather data [65536,8] f16, 8192 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 65536, 8, 8192);
}

static int m_reversing_slice(workload *w)
{
    w->name = "reversing-slice";
    w->what = "StridedSlice [1,3,128,512] f32 as [:, ::-1, ::2, 1::2]";
    const UINT in_s[4] = {1, 3, 128, 512}, off[4] = {0, 0, 0, 1}, win[4] = {1, 3, 128, 511},
               out_s[4] = {1, 3, 64, 256};
    const INT step[4] = {1, -1, 2, 2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, off, win, step, out_s);
}

static int m_row_slice(workload *w)
{
    w->name = "row-slice";
    w->what = "Slice [1,3,128,512] f32 as [:, :, 25:-25, :]";
    const UINT in_s[4] = {1, 3, 128, 512}, off[4] = {0, 0, 25, 0}, win[4] = {1, 3, 78, 512};
    const INT step[4] = {1, 1, 1, 1};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, off, win, step, win);
}

static int m_channel_broadcast(workload *w)
{
    w->name = "channel-broadcast";
    w->what = "Broadcast [16,1,1] to [2,16,16,128] f32 (IDENTITY, 0 strides)";
    UINT sizes[4] = {2, 16, 16, 128}, strides[4] = {0, 1, 0, 0};
    return identity(w, 4, sizes, strides, 16, NULL);
}

static int m_batch_broadcast(workload *w)
{
    w->name = "batch-broadcast";
    w->what = "Broadcast [1,64,256] to [8,64,256] f32 (IDENTITY, 0 strides)";
    UINT sizes[3] = {8, 64, 256}, strides[3] = {0, 256, 1};
    return identity(w, 3, sizes, strides, 64 * 256, NULL);
}

static int m_layout_change(workload *w)
{
    w->name = "nchw-to-nhwc";
    w->what = "IDENTITY [1,64,32,32] f32, NCHW input to NHWC output strides";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 64, 32, 32);
}

static int m_tile(workload *w)
{
    w->name = "tile";
    w->what = "TILE [1,3,16,256] f32 by {1,1,2,2}: [1,3,32,512]";
    const UINT in[4] = {1, 3, 16, 256}, reps[4] = {1, 1, 2, 2};
    return tile_of(w, in, reps);
}

static int m_depth_to_space(workload *w)
{
    w->name = "depth-to-space";
    w->what = "DEPTH_TO_SPACE1 [1,64,16,64] f32 block 2 DCR to [1,16,32,128]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 16, 16, 64, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

static int m_inner_concat(workload *w)
{
    w->name = "inner-concat";
    w->what = "JOIN of 4 [512,{16,32,48,32}] f32 on the last axis";
    const UINT k[4] = {16, 32, 48, 32};
    return concat_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 512, 4, k);
}

static int m_split3(workload *w)
{
    w->name = "split-3";
    w->what = "SPLIT of [4,128,128] f32 into 3 on axis 1 (40, 48, 40)";
    const UINT rows[3] = {40, 48, 40};
    return split_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 4, 3, rows, 128);
}

static int m_constant_pad(workload *w)
{
    w->name = "constant-pad";
    w->what = "PADDING [1,8,32,128] f32 by 2 on H and W, constant 0";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 8, 32, 128, 2, DML_PADDING_MODE_CONSTANT);
}

static int m_reflect_pad(workload *w)
{
    w->name = "reflect-pad";
    w->what = "PADDING [1,8,32,128] f32 by 2 on H and W, reflection";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 8, 32, 128, 2,
                  DML_PADDING_MODE_REFLECTION);
}

static int m_space_to_depth(workload *w)
{
    w->name = "space-to-depth";
    w->what = "SPACE_TO_DEPTH1 [1,16,32,128] f32 block 2 DCR to [1,64,16,64]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 16, 16, 64, 2,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

/* The variants' kinds (v-...), scaled down the same way. */
static int m_nchw_f16(workload *w)
{
    w->name = "v-nchw-to-nhwc-f16";
    w->what = "IDENTITY [1,64,32,32] f16, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 1, 64, 32, 32);
}

static int m_nchw_u8(workload *w)
{
    w->name = "v-nchw-to-nhwc-u8";
    w->what = "IDENTITY [1,64,32,32] u8, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 1, 64, 32, 32);
}

static int m_nchw_odd(workload *w)
{
    w->name = "v-nchw-to-nhwc-48x112";
    w->what = "IDENTITY [1,48,8,112] f32, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 48, 8, 112);
}

static int m_nchw_f64(workload *w)
{
    w->name = "v-nchw-to-nhwc-f64";
    w->what = "IDENTITY [1,32,32,32] f64, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT64, 8, 1, 32, 32, 32);
}

static int m_nhwc_to_nchw(workload *w)
{
    w->name = "v-nhwc-to-nchw";
    w->what = "IDENTITY [1,64,32,32] f32, NHWC input to NCHW output";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 64, 32, 32);
}

static int m_matrix_transpose(workload *w)
{
    w->name = "v-transpose-2d";
    w->what = "IDENTITY [200,300] f32 read transposed";
    UINT sizes[2] = {200, 300}, in_s[2] = {1, 200};
    return identity(w, 2, sizes, in_s, (size_t)200 * 300, NULL);
}

static int m_reverse_f16(workload *w)
{
    w->name = "v-reversing-slice-f16";
    w->what = "StridedSlice [1,3,18,1920] f16 as [:, :, ::-1, ::-1]";
    UINT in_s[4] = {1, 3, 18, 1920}, off[4] = {0, 0, 0, 0};
    INT step[4] = {1, 1, -1, -1};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, in_s, off, in_s, step, in_s);
}

static int m_strided_u8(workload *w)
{
    w->name = "v-strided-slice-u8";
    w->what = "StridedSlice [1,3,64,2048] u8 as [:, ::-1, 1::2, ::-2]";
    UINT in_s[4] = {1, 3, 64, 2048}, off[4] = {0, 0, 1, 0}, win[4] = {1, 3, 63, 2048},
         out_s[4] = {1, 3, 32, 1024};
    INT step[4] = {1, -1, 2, -2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, in_s, off, win, step, out_s);
}

static int m_strided_f64(workload *w)
{
    w->name = "v-strided-slice-f64";
    w->what = "StridedSlice [1,3,20,1001] f64 as [:, :, :, ::2]";
    UINT in_s[4] = {1, 3, 20, 1001}, off[4] = {0, 0, 0, 0}, out_s[4] = {1, 3, 20, 501};
    INT step[4] = {1, 1, 1, 2};
    return slice_of(w, DML_TENSOR_DATA_TYPE_FLOAT64, 8, in_s, off, in_s, step, out_s);
}

static int m_inner_gather_f16(workload *w)
{
    w->name = "v-inner-axis-gather-f16";
    w->what = "Gather data [32,3000] f16, 2500 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 32, 3000, 2500, false);
}

static int m_inner_gather_u8(workload *w)
{
    w->name = "v-inner-axis-gather-u8";
    w->what = "Gather data [16,7001] u8, 6500 int64 indices, axis 1";
    return inner_gather_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 16, 7001, 6500, false);
}

static int m_small_rows_8(workload *w)
{
    w->name = "v-small-row-gather-8b";
    w->what = "Gather data [65536,2] f32, 16384 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 65536, 2, 16384);
}

static int m_small_rows_u8(workload *w)
{
    w->name = "v-small-row-gather-u8x16";
    w->what = "Gather data [65536,16] u8, 8192 int64 indices, axis 0";
    return row_gather(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 65536, 16, 8192);
}

static int m_row_gather_1000b(workload *w)
{
    w->name = "v-row-gather-1000b";
    w->what = "Gather data [1000,250] f32, 128 int64 indices, axis 0 (rows off the line grid)";
    return row_gather(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1000, 250, 128);
}

static int m_batched_small_rows(workload *w)
{
    w->name = "v-batched-gather-16b";
    w->what = "Gather-8 batch_dims 1: data [4,4096,4] f32, indices [4,2048], axis 1";
    return batched_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 4, 4096, 4, 2048);
}

static int m_depth_to_space_b3(workload *w)
{
    w->name = "v-depth-to-space-b3";
    w->what = "DEPTH_TO_SPACE1 [1,288,3,60] f32 block 3 DCR to [1,32,9,180]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 32, 3, 60, 3,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

static int m_depth_to_space_b4_u8(workload *w)
{
    w->name = "v-depth-to-space-b4-u8";
    w->what = "DEPTH_TO_SPACE1 [1,256,8,56] u8 block 4 CRD to [1,16,32,224]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 1, 16, 8, 56, 4,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int m_depth_to_space_b2_f16(workload *w)
{
    w->name = "v-depth-to-space-b2-f16";
    w->what = "DEPTH_TO_SPACE1 [1,128,10,100] f16 block 2 CRD to [1,32,20,200]";
    return depth_to_space_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 1, 32, 10, 100, 2,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int m_nchw_c3_u8(workload *w)
{
    w->name = "v-nchw-to-nhwc-c3-u8";
    w->what = "IDENTITY [1,3,112,224] u8, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 1, 3, 112, 224);
}

static int m_nchw_c4_f32(workload *w)
{
    w->name = "v-nchw-to-nhwc-c4-f32";
    w->what = "IDENTITY [1,4,64,250] f32, NCHW to NHWC";
    return nchw_to_nhwc(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 4, 64, 250);
}

static int m_space_to_depth_b3(workload *w)
{
    w->name = "v-space-to-depth-b3";
    w->what = "SPACE_TO_DEPTH1 [1,32,9,180] f32 block 3 DCR to [1,288,3,60]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 32, 3, 60, 3,
                             DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}

static int m_space_to_depth_b4_u8(workload *w)
{
    w->name = "v-space-to-depth-b4-u8";
    w->what = "SPACE_TO_DEPTH1 [1,16,32,224] u8 block 4 CRD to [1,256,8,56]";
    return space_to_depth_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 1, 16, 8, 56, 4,
                             DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
}

static int m_nhwc_c3_u8(workload *w)
{
    w->name = "v-nhwc-to-nchw-c3-u8";
    w->what = "IDENTITY [1,3,112,224] u8, NHWC input to NCHW";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 1, 3, 112, 224);
}

static int m_nhwc_c3_f32(workload *w)
{
    w->name = "v-nhwc-to-nchw-c3-f32";
    w->what = "IDENTITY [1,3,64,256] f32, NHWC input to NCHW";
    return nhwc_to_nchw(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 1, 3, 64, 256);
}

static int m_concat_f16(workload *w)
{
    w->name = "v-inner-concat-f16";
    w->what = "JOIN of 3 [256,{100,60,37}] f16 on the last axis";
    const UINT k[3] = {100, 60, 37};
    return concat_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 256, 3, k);
}

static int m_concat_u8(workload *w)
{
    w->name = "v-inner-concat-u8";
    w->what = "JOIN of 2 [256,{300,700}] u8 on the last axis";
    const UINT k[2] = {300, 700};
    return concat_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 256, 2, k);
}

static int m_split_f16(workload *w)
{
    w->name = "v-split-3-f16";
    w->what = "SPLIT of [4,150,1000] f16 into 3 on axis 1 (50, 60, 40)";
    const UINT rows[3] = {50, 60, 40};
    return split_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 4, 3, rows, 1000);
}

static int m_split_inner(workload *w)
{
    w->name = "v-split-inner-f32";
    w->what = "SPLIT of [512,{20,44,64}] f32 into 3 on the last axis";
    const UINT rows[3] = {20, 44, 64};
    return split_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 512, 3, rows, 1);
}

static int m_constant_pad_f16(workload *w)
{
    w->name = "v-constant-pad-f16";
    w->what = "PADDING [3,100,300] f16 by 3 on the last two axes, constant 0";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT16, 2, 3, 0, 100, 300, 3, DML_PADDING_MODE_CONSTANT);
}

static int m_reflect_pad_u8(workload *w)
{
    w->name = "v-reflect-pad-u8";
    w->what = "PADDING [64,18,224] u8 by 1 on the last two axes, reflection";
    return pad_of(w, DML_TENSOR_DATA_TYPE_UINT8, 1, 64, 0, 18, 224, 1, DML_PADDING_MODE_REFLECTION);
}

static int m_constant_pad_f32(workload *w)
{
    w->name = "v-constant-pad-f32-wide";
    w->what = "PADDING [2,64,200] f32 by 16 on the last two axes, constant 0";
    return pad_of(w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, 2, 0, 64, 200, 16, DML_PADDING_MODE_CONSTANT);
}

static int m_tile_odd(workload *w)
{
    w->name = "v-tile-odd";
    w->what = "TILE [1,3,20,250] f32 by {1,1,2,2}: [1,3,40,500]";
    const UINT in[4] = {1, 3, 20, 250}, reps[4] = {1, 1, 2, 2};
    return tile_of(w, in, reps);
}

static int m_tile_rows(workload *w)
{
    w->name = "v-tile-rows";
    w->what = "TILE [1,1,64,64] f32 by {1,4,1,3}: [1,4,64,192]";
    const UINT in[4] = {1, 1, 64, 64}, reps[4] = {1, 4, 1, 3};
    return tile_of(w, in, reps);
}

/* The element-wise kinds at the GPU memory model's shapes. */
static int m_add_bias(workload *w)
{
    w->name = "add-bias";
    w->what = "ELEMENT_WISE_ADD [2,16,32,32] f32 + bias [16] broadcast by 0 strides";
    return add_bias_of(w, 2, 16, 32);
}

static int m_multiply(workload *w)
{
    w->name = "multiply";
    w->what = "ELEMENT_WISE_MULTIPLY of two [1,64,1024] f32";
    return multiply_of(w, 1, 64);
}

/* The full shapes' grid on an H200 gives each item 8 elements (src/launch_map.c, K up to
 * map_gpu_elements while 8 groups a compute unit remain); the model shapes above, under the
 * model's 132 units, give it 1. This one, with one group a unit, gives it 8, as the full
 * multiply's does, so that the model sees the item's batch of loads (cl/map.cl GB). */
static int m_multiply_k8(workload *w)
{
    w->name = "multiply-k8";
    w->what = "ELEMENT_WISE_MULTIPLY of two [4,64,1024] f32, 8 elements an item";
    w->tuning = "map_gpu_groups_per_unit=1";
    return multiply_of(w, 4, 64);
}

static int m_gelu(workload *w)
{
    w->name = "gelu";
    w->what = "ACTIVATION_GELU [1,64,1024] f32";
    return activation_of(w, DML_OPERATOR_ACTIVATION_GELU, gelu_exact, 18, 1, 64);
}

static int m_sigmoid(workload *w)
{
    w->name = "sigmoid";
    w->what = "ACTIVATION_SIGMOID [1,64,1024] f32";
    return activation_of(w, DML_OPERATOR_ACTIVATION_SIGMOID, sigmoid_exact, 34, 1, 64);
}

static int m_add1_relu(workload *w)
{
    w->name = "add1-relu";
    w->what = "ELEMENT_WISE_ADD1 of two [1,64,1024] f32, fused RELU";
    return add1_relu_of(w, 1, 64);
}

static int m_cast_f16(workload *w)
{
    w->name = "cast-f16";
    w->what = "CAST [1,64,1024] f32 to f16";
    return cast_f16_of(w, 1, 64);
}

static int m_clip_i8(workload *w)
{
    w->name = "clip-i8";
    w->what = "ELEMENT_WISE_CLIP1 [1,256,1024] int8 to [-50, 50]";
    return clip_i8_of(w, 1, 256);
}

const workload_setup bench_model_workloads[] = {
    m_embedding_gather,
    m_inner_axis_gather,
    m_batched_gather,
    m_small_row_gather,
    m_reversing_slice,
    m_row_slice,
    m_channel_broadcast,
    m_batch_broadcast,
    m_layout_change,
    m_tile,
    m_depth_to_space,
    m_inner_concat,
    m_split3,
    m_constant_pad,
    m_reflect_pad,
    m_space_to_depth,
    m_nchw_f16,
    m_nchw_u8,
    m_nchw_odd,
    m_nchw_f64,
    m_nhwc_to_nchw,
    m_matrix_transpose,
    m_reverse_f16,
    m_strided_u8,
    m_strided_f64,
    m_inner_gather_f16,
    m_inner_gather_u8,
    m_small_rows_8,
    m_small_rows_u8,
    m_row_gather_1000b,
    m_batched_small_rows,
    m_depth_to_space_b3,
    m_depth_to_space_b4_u8,
    m_depth_to_space_b2_f16,
    m_nchw_c3_u8,
    m_nchw_c4_f32,
    m_space_to_depth_b3,
    m_space_to_depth_b4_u8,
    m_nhwc_c3_u8,
    m_nhwc_c3_f32,
    m_concat_f16,
    m_concat_u8,
    m_split_f16,
    m_split_inner,
    m_constant_pad_f16,
    m_reflect_pad_u8,
    m_constant_pad_f32,
    m_tile_odd,
    m_tile_rows,
    /* The arithmetic families' GPU kernels (issue 34's floors for every bench workload). */
    m_add_bias,
    m_multiply,
    m_multiply_k8,
    m_gelu,
    m_sigmoid,
    m_add1_relu,
    m_cast_f16,
    m_clip_i8,
    bench_model_sum_inner,
    bench_model_sum_outer,
    bench_model_sum_outer_split,
    bench_model_softmax_rows,
    bench_model_softmax_attention,
    bench_model_layernorm_384,
    bench_model_layernorm_768,
    bench_model_bn_relu,
    bench_model_argmax_inner,
    bench_model_cumsum,
    bench_model_sgemm,
    bench_model_sgemm_wide,
    bench_model_sgemm_wide_nt,
    bench_model_gemm_projection_gelu,
    bench_model_gemm_attention,
    bench_model_qgemm,
    bench_model_mm_integer_wide,
    bench_model_conv_stem,
    bench_model_conv3x3,
    bench_model_conv3x3_14,
    bench_model_conv1x1,
    bench_model_conv_depthwise,
    bench_model_conv_transposed,
    bench_model_maxpool,
    bench_model_global_avgpool,
    bench_model_resample_linear_x2,
    bench_model_resample_nearest_x2,
};
const unsigned bench_model_workload_count =
    sizeof bench_model_workloads / sizeof bench_model_workloads[0];

/* ULPs between two finite floats of one sign (or the same NaN-ness); UINT32_MAX apart. */
static uint32_t ulps_apart(float a, float b)
{
    if (a != a || b != b)
        return (a != a) == (b != b) ? 0 : UINT32_MAX;
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    int64_t d = (int64_t)ia - ib;
    return (uint32_t)(d < 0 ? -d : d);
}

bool workload_float_ok(const workload *w, float got, float expected)
{
    return ulps_apart(got, expected) <= w->float_ulps ||
           fabs((double)got - expected) <= w->float_abs;
}
