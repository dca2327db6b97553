/* SPDX-License-Identifier: MIT */
/*
 * The matrix family's benchmark workloads (issue "GEMM, convolution, pooling and resampling"):
 * SGEMM 1024^3 and 4096 x 4096 x 1024, a transformer's projection ([B*T, 384] x [384, 1536],
 * B*T = 1024), and attention's batched product ([B*heads, 128, 64] x [64, 128], B*heads = 96,
 * the second operand transposed by strides as attention's K^T is). Inputs are small integers
 * (every product and partial sum exact in float32), so the expected output, computed by plain
 * loops in float, is exact whatever the order of summation and the bytes compare. Each counts
 * 2·M·N·K floating-point operations (dmlcl-bench reports GFLOP/s and the fraction of peak).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

static float small_int(void)
{
    return (float)((int)(bench_random() % 9) - 4);
}

/* out[b] = A[b] x B[b] for b < batch; A {M, K} packed; B {K, N} packed, or {N, K} packed
 * read transposed (trans_b). */
static int gemm_of(workload *w, UINT batch, UINT m, UINT n, UINT k, bool trans_b)
{
    const UINT as[3] = {batch, m, k}, bs[3] = {batch, trans_b ? n : k, trans_b ? k : n},
               os[3] = {batch, m, n};
    size_t na = (size_t)batch * m * k, nb = (size_t)batch * k * n, no = (size_t)batch * m * n;
    float *a = bench_alloc_input(w, na * sizeof *a), *b = bench_alloc_input(w, nb * sizeof *b);
    bench_alloc_input(w, 0); /* no C */
    for (size_t i = 0; i < na; ++i)
        a[i] = small_int();
    for (size_t i = 0; i < nb; ++i)
        b[i] = small_int();
    float *e = w->expected = calloc(no, sizeof *e);
    float *row = malloc((size_t)n * sizeof *row);
    for (UINT x = 0; x < batch; ++x)
        for (UINT i = 0; i < m; ++i) {
            memset(row, 0, (size_t)n * sizeof *row);
            const float *ar = a + ((size_t)x * m + i) * k;
            for (UINT kk = 0; kk < k; ++kk) {
                float av = ar[kk];
                if (trans_b)
                    for (UINT j = 0; j < n; ++j)
                        row[j] += av * b[((size_t)x * n + j) * k + kk];
                else
                    for (UINT j = 0; j < n; ++j)
                        row[j] += av * b[((size_t)x * k + kk) * n + j];
            }
            memcpy(e + ((size_t)x * m + i) * n, row, (size_t)n * sizeof *row);
        }
    free(row);
    w->output_bytes = no * sizeof *e;
    w->flops = 2.0 * batch * m * n * k;
    w->op.gemm = (DML_GEMM_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 3, as, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 3, bs, NULL),
        NULL,
        bench_tensor(w, 2, DML_TENSOR_DATA_TYPE_FLOAT32, 3, os, NULL),
        DML_MATRIX_TRANSFORM_NONE,
        trans_b ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
        1.0f,
        0.0f,
        NULL};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GEMM, &w->op.gemm};
    return 0;
}

int bench_sgemm_1024(workload *w)
{
    w->name = "sgemm-1024";
    w->what = "GEMM f32 1024 x 1024 x 1024";
    return gemm_of(w, 1, 1024, 1024, 1024, false);
}

int bench_sgemm_4096(workload *w)
{
    w->name = "sgemm-4096x4096x1024";
    w->what = "GEMM f32 M 4096 N 4096 K 1024";
    return gemm_of(w, 1, 4096, 4096, 1024, false);
}

int bench_gemm_projection(workload *w)
{
    w->name = "gemm-projection";
    w->what = "GEMM f32 [1024, 384] x [384, 1536] (a transformer's FFN projection, B*T 1024)";
    return gemm_of(w, 1, 1024, 1536, 384, false);
}

/* The projection with GELU as its FusedActivation (a transformer's FFN as ONNX Runtime's
 * DirectML provider lowers MatMul + bias + Gelu): the exact sums, then GELU in double, within
 * precision.md's 18 ULPs. */
/* GEMM [m, k] x [k, n] with a fused GELU (the expectation GELU of the exact product). */
static int gemm_gelu_of(workload *w, UINT m, UINT n, UINT k)
{
    int r = gemm_of(w, 1, m, n, k, false);
    float *e = w->expected;
    for (size_t i = 0; i < (size_t)m * n; ++i)
        e[i] = (float)(0.5 * e[i] * erfc(-(double)e[i] / sqrt(2.0)));
    w->float_ulps = 18;
    w->fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_GELU, &w->fused_relu};
    w->op.gemm.FusedActivation = &w->fused;
    return r;
}

int bench_gemm_projection_gelu(workload *w)
{
    w->name = "gemm-projection-gelu";
    w->what = "GEMM f32 [1024, 384] x [384, 1536], fused GELU";
    return gemm_gelu_of(w, 1024, 1536, 384);
}

int bench_model_gemm_projection_gelu(workload *w)
{
    w->name = "gemm-projection-gelu";
    w->what = "GEMM f32 [64, 96] x [96, 128], fused GELU";
    return gemm_gelu_of(w, 64, 128, 96);
}

int bench_gemm_attention(workload *w)
{
    w->name = "gemm-attention";
    w->what = "GEMM f32 [96, 128, 64] x [96, 128, 64]^T (attention scores, B*heads 96)";
    return gemm_of(w, 96, 128, 128, 64, true);
}

/* The GPU memory model's shapes (bench/gpumodel.c). */
int bench_model_sgemm(workload *w)
{
    w->name = "sgemm";
    w->what = "GEMM [128,128] x [128,128] f32";
    return gemm_of(w, 1, 128, 128, 128, false);
}

/* The 128 x 128 tile of 8 x 8 blocks, which an H200 takes for 4096 x 4096 x 1024 (a group per
 * compute unit and more) and a model shape this small would not (gemm_tile_fill=1: no shrinking
 * below 132 groups). */
int bench_model_sgemm_wide(workload *w)
{
    w->name = "sgemm-8x8";
    w->what = "GEMM [256,64] x [64,256] f32, 128 x 128 tiles";
    w->tuning = "gemm_tile_fill=1";
    return gemm_of(w, 1, 256, 256, 64, false);
}

/* And with B transposed (a linear layer's weight, read along k). */
int bench_model_sgemm_wide_nt(workload *w)
{
    w->name = "sgemm-8x8-nt";
    w->what = "GEMM [256,64] x [256,64]^T f32, 128 x 128 tiles";
    w->tuning = "gemm_tile_fill=1";
    return gemm_of(w, 1, 256, 256, 64, true);
}

int bench_model_gemm_attention(workload *w)
{
    w->name = "gemm-attention";
    w->what = "GEMM batched [8,64,32] x [8,32,64]^T f32";
    return gemm_of(w, 8, 64, 64, 32, true);
}
