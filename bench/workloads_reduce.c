/* SPDX-License-Identifier: MIT */
/*
 * The reductions' benchmark workloads (issue "Reductions, softmax, normalization ..."): sums
 * over the inner and the outer axis, softmax over long rows and over attention scores, a
 * transformer's layer normalization (MEAN_VARIANCE_NORMALIZATION2) at two widths, batch
 * normalization with a fused RELU, an inner ARGMAX and a cumulative sum. Expected outputs are
 * plain loops in double, rounded once; sums and cumulative sums read values with few
 * significant bits, so that every order of addition is exact and the bytes compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* Multiples of 1/8 in [-64, 64]: 4096 of them sum exactly in float32 (2^21 eighths). */
static float exact_value(void)
{
    return (float)((int)(bench_random() % 1025) - 512) * 0.125f;
}

/* Uniform in [-8, 8) with 24 significant bits. */
static float spread_value(void)
{
    return (float)((double)(bench_random() >> 40) / (double)(1u << 24) * 16.0 - 8.0);
}

static float *square_input(workload *w, UINT rows, UINT cols, float (*value)(void))
{
    size_t total = (size_t)rows * cols;
    float *x = bench_alloc_input(w, total * sizeof *x);
    for (size_t i = 0; i < total; ++i)
        x[i] = value();
    bench_touch(w, 0, 0, total * sizeof *x);
    return x;
}

/* REDUCE SUM of [n, n] f32 over axis `axis`. */
static int sum_over(workload *w, UINT axis, UINT n)
{
    const UINT sizes[2] = {n, n}, out_s[2] = {axis == 0 ? 1 : n, axis == 0 ? n : 1};
    const float *x = square_input(w, n, n, exact_value);
    float *e = w->expected = malloc(n * sizeof *e);
    for (UINT o = 0; o < n; ++o) {
        double s = 0;
        for (UINT k = 0; k < n; ++k)
            s += axis == 0 ? x[(size_t)k * n + o] : x[(size_t)o * n + k];
        e[o] = (float)s;
    }
    w->output_bytes = n * sizeof *e;
    w->axes[0] = axis;
    w->op.reduce = (DML_REDUCE_OPERATOR_DESC){
        DML_REDUCE_FUNCTION_SUM, bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out_s, NULL), 1, w->axes};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_REDUCE, &w->op.reduce};
    return 0;
}

int bench_sum_inner(workload *w)
{
    w->name = "sum-inner";
    w->what = "REDUCE SUM [4096,4096] f32 over axis 1";
    return sum_over(w, 1, 4096);
}

int bench_sum_outer(workload *w)
{
    w->name = "sum-outer";
    w->what = "REDUCE SUM [4096,4096] f32 over axis 0";
    return sum_over(w, 0, 4096);
}

/* ACTIVATION_SOFTMAX1 over the last axis of [rows, cols] (as [outer, rows, cols] when outer is
 * more than 1); within precision.md's 3N+3 ULPs. */
static int softmax_of(workload *w, UINT outer, UINT rows, UINT cols)
{
    const UINT sizes[3] = {outer, rows, cols};
    size_t lines = (size_t)outer * rows;
    const float *x = square_input(w, (UINT)lines, cols, spread_value);
    float *e = w->expected = malloc(lines * cols * sizeof *e);
    for (size_t r = 0; r < lines; ++r) {
        const float *row = x + r * cols;
        double m = row[0], s = 0;
        for (UINT c = 1; c < cols; ++c)
            m = row[c] > m ? row[c] : m;
        for (UINT c = 0; c < cols; ++c)
            s += exp(row[c] - m);
        for (UINT c = 0; c < cols; ++c)
            e[r * cols + c] = (float)(exp(row[c] - m) / s);
    }
    w->output_bytes = lines * cols * sizeof *e;
    w->float_ulps = 3 * cols + 3;
    w->axes[0] = 2;
    w->op.softmax1 = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL), 1, w->axes};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_SOFTMAX1, &w->op.softmax1};
    return 0;
}

int bench_softmax_rows(workload *w)
{
    w->name = "softmax-rows";
    w->what = "ACTIVATION_SOFTMAX1 [4096,4096] f32 over rows of 4096";
    return softmax_of(w, 1, 4096, 4096);
}

int bench_softmax_attention(workload *w)
{
    w->name = "softmax-attention";
    w->what = "ACTIVATION_SOFTMAX1 [96,128,128] f32 over rows of 128 (attention scores)";
    return softmax_of(w, 96, 128, 128);
}

/* MEAN_VARIANCE_NORMALIZATION2 of [tokens, width] over the width with scale and bias [width]
 * (read with strides {0, 1}): a transformer's layer normalization, within 1/1024. */
static int layernorm_of(workload *w, UINT tokens, UINT width)
{
    const UINT sizes[2] = {tokens, width}, vec_strides[2] = {0, 1};
    float *x = square_input(w, tokens, width, spread_value);
    float *g = bench_alloc_input(w, width * sizeof *g),
          *b = bench_alloc_input(w, width * sizeof *b);
    for (UINT c = 0; c < width; ++c) {
        g[c] = 0.5f + (float)(bench_random() % 1024) / 1024.0f;
        b[c] = spread_value() * 0.125f;
    }
    bench_touch(w, 1, 0, width * sizeof *g);
    bench_touch(w, 2, 0, width * sizeof *b);
    const double eps = 1e-5;
    float *e = w->expected = malloc((size_t)tokens * width * sizeof *e);
    for (size_t r = 0; r < tokens; ++r) {
        const float *row = x + r * width;
        double mean = 0, var = 0;
        for (UINT c = 0; c < width; ++c)
            mean += row[c];
        mean /= width;
        for (UINT c = 0; c < width; ++c)
            var += (row[c] - mean) * (row[c] - mean);
        var /= width;
        for (UINT c = 0; c < width; ++c)
            e[r * width + c] = (float)((row[c] - mean) / sqrt(var + (float)eps) * g[c] + b[c]);
    }
    w->output_bytes = (size_t)tokens * width * sizeof *e;
    w->float_abs = 1.0 / 1024;
    w->axes[0] = 1;
    w->op.mvn2 = (DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, vec_strides),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, vec_strides),
        bench_tensor(w, 3, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        1,
        w->axes,
        1,
        1,
        (FLOAT)eps,
        NULL};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2, &w->op.mvn2};
    return 0;
}

int bench_layernorm_384(workload *w)
{
    w->name = "layernorm-384";
    w->what = "MEAN_VARIANCE_NORMALIZATION2 [4096,384] f32 over 384, scale and bias";
    return layernorm_of(w, 4096, 384);
}

int bench_layernorm_768(workload *w)
{
    w->name = "layernorm-768";
    w->what = "MEAN_VARIANCE_NORMALIZATION2 [4096,768] f32 over 768, scale and bias";
    return layernorm_of(w, 4096, 768);
}

/* BATCH_NORMALIZATION of NCHW [16,64,128,128] f32 with per-channel tensors [1,64,1,1] and a
 * fused RELU; within precision.md's 6 ULPs. */
static int bn_relu_of(workload *w, UINT n, UINT c, UINT side)
{
    const UINT hw = side * side, sizes[4] = {n, c, side, side}, chan[4] = {1, c, 1, 1};
    size_t total = (size_t)n * c * hw;
    float *x = bench_alloc_input(w, total * sizeof *x);
    for (size_t i = 0; i < total; ++i)
        x[i] = spread_value();
    bench_touch(w, 0, 0, total * sizeof *x);
    float *p[4];
    for (unsigned k = 0; k < 4; ++k) {
        p[k] = bench_alloc_input(w, c * sizeof *p[k]);
        bench_touch(w, 1 + k, 0, c * sizeof *p[k]);
    }
    for (UINT k = 0; k < c; ++k) {
        p[0][k] = spread_value() * 0.25f;                          /* mean */
        p[1][k] = 0.25f + (float)(bench_random() % 1024) / 256.0f; /* variance */
        p[2][k] = 0.5f + (float)(bench_random() % 1024) / 1024.0f; /* scale */
        p[3][k] = spread_value() * 0.125f;                         /* bias */
    }
    const double eps = 1e-5;
    float *e = w->expected = malloc(total * sizeof *e);
    for (size_t i = 0; i < total; ++i) {
        size_t k = i / hw % c;
        double y =
            (x[i] - (double)p[0][k]) / sqrt((double)p[1][k] + (float)eps) * p[2][k] + p[3][k];
        e[i] = (float)(y > 0 ? y : 0);
    }
    w->output_bytes = total * sizeof *e;
    w->float_ulps = 6;
    w->fused_relu = (DML_ACTIVATION_RELU_OPERATOR_DESC){NULL, NULL};
    w->fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &w->fused_relu};
    w->op.batch_norm = (DML_BATCH_NORMALIZATION_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, chan, NULL),
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 4, chan, NULL),
        bench_tensor(w, 3, DML_TENSOR_DATA_TYPE_FLOAT32, 4, chan, NULL),
        bench_tensor(w, 4, DML_TENSOR_DATA_TYPE_FLOAT32, 4, chan, NULL),
        bench_tensor(w, 5, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL),
        1,
        (FLOAT)eps,
        &w->fused};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION, &w->op.batch_norm};
    return 0;
}

int bench_bn_relu(workload *w)
{
    w->name = "bn-relu";
    w->what = "BATCH_NORMALIZATION [16,64,128,128] f32, per channel, fused RELU";
    return bn_relu_of(w, 16, 64, 128);
}

/* ARGMAX of [n, n] f32 over axis 1 into UINT32 (the first index on ties). */
static int argmax_of(workload *w, UINT n)
{
    const UINT sizes[2] = {n, n}, out_s[2] = {n, 1};
    const float *x = square_input(w, n, n, spread_value);
    uint32_t *e = w->expected = malloc(n * sizeof *e);
    for (UINT r = 0; r < n; ++r) {
        uint32_t best = 0;
        for (UINT k = 1; k < n; ++k)
            if (x[(size_t)r * n + k] > x[(size_t)r * n + best])
                best = k;
        e[r] = best;
    }
    w->output_bytes = n * sizeof *e;
    w->axes[0] = 1;
    w->op.argmax =
        (DML_ARGMAX_OPERATOR_DESC){bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
                                   bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_UINT32, 2, out_s, NULL),
                                   1, w->axes, DML_AXIS_DIRECTION_INCREASING};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ARGMAX, &w->op.argmax};
    return 0;
}

int bench_argmax_inner(workload *w)
{
    w->name = "argmax-inner";
    w->what = "ARGMAX [4096,4096] f32 over axis 1, UINT32 indices";
    return argmax_of(w, 4096);
}

/* CUMULATIVE_SUMMATION of [n, n] f32 along axis 1 (inclusive, forward). */
static int cumsum_of(workload *w, UINT n)
{
    const UINT sizes[2] = {n, n};
    const float *x = square_input(w, n, n, exact_value);
    float *e = w->expected = malloc((size_t)n * n * sizeof *e);
    for (size_t r = 0; r < n; ++r) {
        double s = 0;
        for (UINT k = 0; k < n; ++k)
            e[r * n + k] = (float)(s += x[r * n + k]);
    }
    w->output_bytes = (size_t)n * n * sizeof *e;
    w->op.cumsum = (DML_CUMULATIVE_SUMMATION_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), 1,
        DML_AXIS_DIRECTION_INCREASING, 0};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_CUMULATIVE_SUMMATION, &w->op.cumsum};
    return 0;
}

int bench_cumsum(workload *w)
{
    w->name = "cumsum";
    w->what = "CUMULATIVE_SUMMATION [4096,4096] f32 along axis 1";
    return cumsum_of(w, 4096);
}

/* The GPU memory model's shapes of the same kinds (bench/gpumodel.c: small enough for
 * Oclgrind, each a few hundred work-groups of the GPU class's launch). */
int bench_model_sum_inner(workload *w)
{
    w->name = "sum-inner";
    w->what = "REDUCE SUM [256,256] f32 over axis 1";
    return sum_over(w, 1, 256);
}

int bench_model_sum_outer(workload *w)
{
    w->name = "sum-outer";
    w->what = "REDUCE SUM [256,256] f32 over axis 0";
    return sum_over(w, 0, 256);
}

/* The same split into slices of rows (src/launch_reduce.c dmli_reduce_split), as a GPU splits
 * [4096, 4096] from 1 MiB (reduce_split_bytes=1: this shape is 256 KiB). */
int bench_model_sum_outer_split(workload *w)
{
    w->name = "sum-outer-split";
    w->what = "REDUCE SUM [256,256] f32 over axis 0, split into slices of rows";
    w->tuning = "reduce_split_bytes=1";
    return sum_over(w, 0, 256);
}

int bench_model_softmax_rows(workload *w)
{
    w->name = "softmax-rows";
    w->what = "ACTIVATION_SOFTMAX1 [1,16,4096] f32 over rows of 4096";
    return softmax_of(w, 1, 16, 4096);
}

int bench_model_softmax_attention(workload *w)
{
    w->name = "softmax-attention";
    w->what = "ACTIVATION_SOFTMAX1 [4,128,128] f32 over rows of 128";
    return softmax_of(w, 4, 128, 128);
}

int bench_model_layernorm_384(workload *w)
{
    w->name = "layernorm-384";
    w->what = "MEAN_VARIANCE_NORMALIZATION2 [128,384] f32 over 384, scale and bias";
    return layernorm_of(w, 128, 384);
}

int bench_model_layernorm_768(workload *w)
{
    w->name = "layernorm-768";
    w->what = "MEAN_VARIANCE_NORMALIZATION2 [64,768] f32 over 768, scale and bias";
    return layernorm_of(w, 64, 768);
}

int bench_model_bn_relu(workload *w)
{
    w->name = "bn-relu";
    w->what = "BATCH_NORMALIZATION [2,16,32,32] f32, per channel, fused RELU";
    return bn_relu_of(w, 2, 16, 32);
}

int bench_model_argmax_inner(workload *w)
{
    w->name = "argmax-inner";
    w->what = "ARGMAX [256,256] f32 over axis 1, UINT32 indices";
    return argmax_of(w, 256);
}

int bench_model_cumsum(workload *w)
{
    w->name = "cumsum";
    w->what = "CUMULATIVE_SUMMATION [256,256] f32 along axis 1";
    return cumsum_of(w, 256);
}
