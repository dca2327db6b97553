/* SPDX-License-Identifier: MIT */
/*
 * The pooling workloads (issue "GEMM, convolution, pooling and resampling"): the ResNet stem's
 * max pooling (3x3, stride 2, padding 1: [1,64,112,112] -> [1,64,56,56]) and a global average
 * pool ([8,2048,7,7] -> [8,2048,1,1], ResNet-50's last). Expected outputs are plain loops:
 * the maximum is an input element (bytes compare); the average reads eighths, whose sum of 49
 * is exact, divided once in double and rounded (window + 2 ULP, precision.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* Multiples of 1/8 in [-64, 64]. */
static float eighth(void)
{
    return (float)((int)(bench_random() % 1025) - 512) * 0.125f;
}

static float *input(workload *w, size_t total)
{
    float *x = bench_alloc_input(w, total * sizeof *x);
    for (size_t i = 0; i < total; ++i)
        x[i] = eighth();
    bench_touch(w, 0, 0, total * sizeof *x);
    return x;
}

/* MAX_POOLING of [1, c, h, h] f32 (h even), 3x3 stride 2 padding 1. */
static int maxpool_of(workload *w, UINT c, UINT h)
{
    const UINT oh = h / 2, xs[4] = {1, c, h, h}, ys[4] = {1, c, oh, oh};
    const float *x = input(w, (size_t)c * h * h);
    float *e = w->expected = malloc((size_t)c * oh * oh * sizeof *e);
    for (UINT k = 0; k < c; ++k)
        for (UINT i = 0; i < oh; ++i)
            for (UINT j = 0; j < oh; ++j) {
                float m = -INFINITY;
                for (int a = -1; a <= 1; ++a)
                    for (int b = -1; b <= 1; ++b) {
                        int y = (int)(2 * i) + a, z = (int)(2 * j) + b;
                        if (y >= 0 && y < (int)h && z >= 0 && z < (int)h) {
                            float v = x[((size_t)k * h + (size_t)y) * h + (size_t)z];
                            m = v > m ? v : m;
                        }
                    }
                e[((size_t)k * oh + i) * oh + j] = m;
            }
    w->output_bytes = (size_t)c * oh * oh * sizeof *e;
    /* Strides, WindowSize, StartPadding, EndPadding. */
    memcpy(w->pool_args, (UINT[]){2, 2, 3, 3, 1, 1, 1, 1}, 8 * sizeof(UINT));
    w->op.max_pooling = (DML_MAX_POOLING_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, xs, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, ys, NULL),
        2,
        w->pool_args,
        w->pool_args + 2,
        w->pool_args + 4,
        w->pool_args + 6};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_MAX_POOLING, &w->op.max_pooling};
    return 0;
}

int bench_maxpool_stem(workload *w)
{
    w->name = "maxpool-3x3s2";
    w->what = "MAX_POOLING [1,64,112,112] f32, 3x3 stride 2 padding 1 (ResNet stem)";
    return maxpool_of(w, 64, 112);
}

/* AVERAGE_POOLING of [n, c, 7, 7] f32 over the whole 7x7 window. */
static int global_avgpool_of(workload *w, UINT n, UINT c)
{
    const UINT h = 7, xs[4] = {n, c, h, h}, ys[4] = {n, c, 1, 1};
    const float *x = input(w, (size_t)n * c * h * h);
    float *e = w->expected = malloc((size_t)n * c * sizeof *e);
    for (size_t r = 0; r < (size_t)n * c; ++r) {
        double s = 0;
        for (UINT k = 0; k < h * h; ++k)
            s += x[r * h * h + k];
        e[r] = (float)(s / (h * h));
    }
    w->output_bytes = (size_t)n * c * sizeof *e;
    w->float_ulps = h * h + 2;
    memcpy(w->pool_args, (UINT[]){1, 1, 7, 7, 0, 0, 0, 0}, 8 * sizeof(UINT));
    w->op.average_pooling = (DML_AVERAGE_POOLING_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, xs, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, ys, NULL),
        2,
        w->pool_args,
        w->pool_args + 2,
        w->pool_args + 4,
        w->pool_args + 6,
        0};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_AVERAGE_POOLING, &w->op.average_pooling};
    return 0;
}

int bench_global_avgpool(workload *w)
{
    w->name = "global-avgpool";
    w->what = "AVERAGE_POOLING [8,2048,7,7] f32, the window 7x7 (global)";
    return global_avgpool_of(w, 8, 2048);
}

/* The GPU memory model's shapes (bench/gpumodel.c). */
int bench_model_maxpool(workload *w)
{
    w->name = "maxpool-3x3s2";
    w->what = "MAX_POOLING [1,16,32,32] f32, 3x3 stride 2 padding 1";
    return maxpool_of(w, 16, 32);
}

int bench_model_global_avgpool(workload *w)
{
    w->name = "global-avgpool";
    w->what = "AVERAGE_POOLING [2,256,7,7] f32, the window 7x7 (global)";
    return global_avgpool_of(w, 2, 256);
}
