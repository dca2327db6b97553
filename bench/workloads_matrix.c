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

/* The integer matrix family (issue "GEMM, convolution, ..."'s quantized models: ONNX Runtime's
 * DirectML provider lowers QLinearMatMul and MatMulInteger to these). A's zero point 128 (uint8
 * activations), B int8 weights with zero point 0, as a quantized transformer's linear layers are.
 * The expected outputs are exact: integer sums in 64 bits; the requantization's scales are
 * powers of two, so sum x (a's scale x b's scale / the output's scale) is exact in float32 and in
 * double alike, rounded half to even once (nearbyint). Each counts 2·M·N·K integer operations. */
static void *byte_input(workload *w, size_t count)
{
    unsigned char *p = bench_alloc_input(w, count);
    for (size_t i = 0; i < count; ++i)
        p[i] = (unsigned char)(bench_random() >> 56);
    return p;
}

/* A one-element zero point (its buffer the 4 bytes DirectML's size rule asks of any tensor). */
static void zero_point(workload *w, int v)
{
    unsigned char *p = bench_alloc_input(w, 4);
    memset(p, 0, 4);
    p[0] = (unsigned char)v;
}

static float *scale_input(workload *w, float v)
{
    float *p = bench_alloc_input(w, sizeof *p);
    *p = v;
    return p;
}

/* sums[i * n + j] = Σ_k (A[i, k] - za) (B[k, j] - zb), A uint8, B int8. */
static int64_t *int_sums(const uint8_t *a, const int8_t *b, UINT m, UINT n, UINT k, int za, int zb)
{
    int64_t *s = calloc((size_t)m * n, sizeof *s);
    for (UINT i = 0; i < m; ++i)
        for (UINT kk = 0; kk < k; ++kk) {
            const int64_t av = (int64_t)a[(size_t)i * k + kk] - za;
            const int8_t *br = b + (size_t)kk * n;
            int64_t *sr = s + (size_t)i * n;
            for (UINT j = 0; j < n; ++j)
                sr[j] += av * ((int64_t)br[j] - zb);
        }
    return s;
}

static int qgemm_of(workload *w, UINT m, UINT n, UINT k)
{
    const UINT as[2] = {m, k}, bs[2] = {k, n}, os[2] = {m, n}, one[2] = {1, 1};
    const float sa = 1.0f / 64, sb = 1.0f / 128, so = 0.25f; /* the product's factor: 2^-11 */
    const uint8_t *a = byte_input(w, (size_t)m * k);
    scale_input(w, sa);
    zero_point(w, 128);
    const int8_t *b = byte_input(w, (size_t)k * n);
    scale_input(w, sb);
    zero_point(w, 0);
    scale_input(w, so);
    zero_point(w, 128);
    int64_t *s = int_sums(a, b, m, n, k, 128, 0);
    uint8_t *e = w->expected = malloc((size_t)m * n);
    for (size_t i = 0; i < (size_t)m * n; ++i) {
        double v = nearbyint((double)s[i] * ((double)sa * sb / so)) + 128;
        e[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    free(s);
    w->output_bytes = (size_t)m * n;
    w->flops = 2.0 * m * n * k;
    const DML_TENSOR_DATA_TYPE u8 = DML_TENSOR_DATA_TYPE_UINT8, s8 = DML_TENSOR_DATA_TYPE_INT8,
                               f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    w->op.qlinear_mm = (DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC){
        bench_tensor(w, 0, u8, 2, as, NULL),   bench_tensor(w, 1, f32, 2, one, NULL),
        bench_tensor(w, 2, u8, 2, one, NULL),  bench_tensor(w, 3, s8, 2, bs, NULL),
        bench_tensor(w, 4, f32, 2, one, NULL), bench_tensor(w, 5, s8, 2, one, NULL),
        bench_tensor(w, 6, f32, 2, one, NULL), bench_tensor(w, 7, u8, 2, one, NULL),
        bench_tensor(w, 8, u8, 2, os, NULL)};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY, &w->op.qlinear_mm};
    return 0;
}

int bench_qgemm_projection(workload *w)
{
    w->name = "qgemm-projection";
    w->what = "QUANTIZED_LINEAR_MATRIX_MULTIPLY u8 [1024, 384] x s8 [384, 1536] to u8";
    return qgemm_of(w, 1024, 1536, 384);
}

int bench_mm_integer_1024(workload *w)
{
    const UINT m = 1024, n = 1024, k = 1024, sz[2] = {1024, 1024}, one[2] = {1, 1};
    w->name = "mm-integer-1024";
    w->what = "MATRIX_MULTIPLY_INTEGER u8 x s8 1024 x 1024 x 1024 to int32";
    const uint8_t *a = byte_input(w, (size_t)m * k);
    zero_point(w, 128);
    const int8_t *b = byte_input(w, (size_t)k * n);
    zero_point(w, 0);
    int64_t *s = int_sums(a, b, m, n, k, 128, 0);
    int32_t *e = w->expected = malloc((size_t)m * n * sizeof *e);
    for (size_t i = 0; i < (size_t)m * n; ++i)
        e[i] = (int32_t)s[i]; /* |sum| <= 1024 x 128 x 128: no wrap */
    free(s);
    w->output_bytes = (size_t)m * n * sizeof *e;
    w->flops = 2.0 * m * n * k;
    const DML_TENSOR_DATA_TYPE u8 = DML_TENSOR_DATA_TYPE_UINT8, s8 = DML_TENSOR_DATA_TYPE_INT8;
    w->op.mm_integer = (DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC){
        bench_tensor(w, 0, u8, 2, sz, NULL), bench_tensor(w, 1, u8, 2, one, NULL),
        bench_tensor(w, 2, s8, 2, sz, NULL), bench_tensor(w, 3, s8, 2, one, NULL),
        bench_tensor(w, 4, DML_TENSOR_DATA_TYPE_INT32, 2, sz, NULL)};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_MATRIX_MULTIPLY_INTEGER, &w->op.mm_integer};
    return 0;
}

/* The GPU memory model's shapes of the integer products (bench/gpumodel.c): GPUs' tile
 * (cl/intmm.cl intmm_tiles) with 128 x 128 tiles, as for 1024 x 1024 x 1024 on an H200, and the
 * quantized projection's form at a model size. */
int bench_model_qgemm(workload *w)
{
    w->name = "qgemm";
    w->what = "QUANTIZED_LINEAR_MATRIX_MULTIPLY u8 [128, 128] x s8 [128, 128] to u8";
    return qgemm_of(w, 128, 128, 128);
}

int bench_model_mm_integer_wide(workload *w)
{
    const int r = qgemm_of(w, 256, 256, 64);
    w->name = "qgemm-8x8";
    w->what = "QUANTIZED_LINEAR_MATRIX_MULTIPLY u8 [256, 64] x s8 [64, 256] to u8, 128 x 128 tiles";
    w->tuning = "gemm_tile_fill=1";
    return r;
}

/* QUANTIZED_LINEAR_CONVOLUTION as a quantized ResNet's 3x3 at 56² (ONNX Runtime's DirectML
 * provider lowers QLinearConv to it): u8 [1, 64, 56, 56] (zero point 128) with s8 [64, 64, 3, 3]
 * (zero point 0), padding 1, to u8; the scales powers of two (the product's factor 2^-12), so
 * the expected output is exact, as qgemm_of's. 2·Cout·OH·OW·Cin·9 operations. */
int bench_qconv3x3_56(workload *w)
{
    enum { C = 64, H = 56, W = 56, K = 3 };
    const UINT xs[4] = {1, C, H, W}, fs[4] = {C, C, K, K}, one[4] = {1, 1, 1, 1};
    const float sa = 1.0f / 64, sb = 1.0f / 128, so = 0.5f;
    w->name = "qconv3x3-56";
    w->what = "QUANTIZED_LINEAR_CONVOLUTION u8 [1,64,56,56] x s8 [64,64,3,3], pad 1, to u8";
    const uint8_t *x = byte_input(w, (size_t)C * H * W);
    scale_input(w, sa);
    zero_point(w, 128);
    const int8_t *f = byte_input(w, (size_t)C * C * K * K);
    scale_input(w, sb);
    zero_point(w, 0);
    bench_alloc_input(w, 0); /* no bias */
    scale_input(w, so);
    zero_point(w, 128);
    uint8_t *e = w->expected = malloc((size_t)C * H * W);
    for (int co = 0; co < C; ++co)
        for (int oy = 0; oy < H; ++oy)
            for (int ox = 0; ox < W; ++ox) {
                int64_t s = 0;
                for (int ci = 0; ci < C; ++ci)
                    for (int ky = 0; ky < K; ++ky)
                        for (int kx = 0; kx < K; ++kx) {
                            const int iy = oy + ky - 1, ix = ox + kx - 1;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                continue;
                            s += ((int64_t)x[((size_t)ci * H + iy) * W + ix] - 128) *
                                 f[(((size_t)co * C + ci) * K + ky) * K + kx];
                        }
                const double v = nearbyint((double)s * ((double)sa * sb / so)) + 128;
                e[((size_t)co * H + oy) * W + ox] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    w->output_bytes = (size_t)C * H * W;
    w->flops = 2.0 * C * H * W * C * K * K;
    for (int i = 0; i < 2; ++i) {
        w->axes[i] = 1;     /* Strides */
        w->axes[2 + i] = 1; /* Dilations */
        w->axes[4 + i] = 1; /* StartPadding, EndPadding */
    }
    const DML_TENSOR_DATA_TYPE u8 = DML_TENSOR_DATA_TYPE_UINT8, s8 = DML_TENSOR_DATA_TYPE_INT8,
                               f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    w->op.qlinear_conv =
        (DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC){bench_tensor(w, 0, u8, 4, xs, NULL),
                                                         bench_tensor(w, 1, f32, 4, one, NULL),
                                                         bench_tensor(w, 2, u8, 4, one, NULL),
                                                         bench_tensor(w, 3, s8, 4, fs, NULL),
                                                         bench_tensor(w, 4, f32, 4, one, NULL),
                                                         bench_tensor(w, 5, s8, 4, one, NULL),
                                                         NULL,
                                                         bench_tensor(w, 7, f32, 4, one, NULL),
                                                         bench_tensor(w, 8, u8, 4, one, NULL),
                                                         bench_tensor(w, 9, u8, 4, xs, NULL),
                                                         2,
                                                         w->axes,
                                                         w->axes + 2,
                                                         w->axes + 4,
                                                         w->axes + 4,
                                                         1};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION, &w->op.qlinear_conv};
    return 0;
}
