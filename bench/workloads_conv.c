/* SPDX-License-Identifier: MIT */
/*
 * The convolutions' benchmark workloads (issue "GEMM, convolution, pooling and resampling"):
 * ResNet-50's shapes (the 7 x 7 / 2 stem, 3 x 3 at 56 x 56 with 64 channels and at 14 x 14 with
 * 256, a 1 x 1 from 256 to 64 channels at 56 x 56), a depthwise 3 x 3 at 56 x 56 with 256
 * channels, and a transposed convolution (64 -> 32 channels, 4 x 4 stride 2, 56 -> 112), FLOAT32
 * with a bias. Inputs and weights are multiples of 1/8 in [-1, 1] and the biases multiples of
 * 1/8 too: every product is a multiple of 1/64 and every sum (at most 2304 products) stays
 * below 2^12, so any order of addition is exact in float32 and the bytes compare with a plain
 * loop's. GFLOP/s = 2 x the multiply-adds / the time (the multiply-adds in `what`).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

static float eighth(void)
{
    return (float)((int)(bench_random() % 17) - 8) * 0.125f;
}

static float *input_of(workload *w, unsigned i, size_t n)
{
    float *x = bench_alloc_input(w, n * sizeof *x);
    for (size_t k = 0; k < n; ++k)
        x[k] = eighth();
    bench_touch(w, i, 0, n * sizeof *x);
    return x;
}

typedef struct conv_shape {
    UINT n, cin, h, w, cout, k, stride, pad, groups;
    bool backward;
} conv_shape;

/* The output's side along one dimension. */
static UINT out_side(const conv_shape *s, UINT in)
{
    if (s->backward)
        return (in - 1) * s->stride + s->k - 2 * s->pad;
    return (in + 2 * s->pad - s->k) / s->stride + 1;
}

/* The expected output, by the definition (a scatter for BACKWARD), in double. */
static void expect(const conv_shape *s, const float *x, const float *f, const float *b, UINT oh,
                   UINT ow, float *y)
{
    const UINT cin_g = s->cin / s->groups, cout_g = s->cout / s->groups;
    const size_t plane = (size_t)oh * ow, total = (size_t)s->n * s->cout * plane;
    double *acc = calloc(total, sizeof *acc);
    for (UINT n = 0; n < s->n; ++n)
        for (UINT ci = 0; ci < s->cin; ++ci) {
            const UINT g = ci / cin_g;
            for (UINT col = 0; col < cout_g; ++col) {
                const UINT co = g * cout_g + col;
                double *out = acc + ((size_t)n * s->cout + co) * plane;
                const float *xin = x + ((size_t)n * s->cin + ci) * s->h * s->w;
                const float *fk = s->backward
                                      ? f + ((size_t)ci * cout_g + col) * s->k * s->k
                                      : f + ((size_t)co * cin_g + (ci - g * cin_g)) * s->k * s->k;
                for (UINT ky = 0; ky < s->k; ++ky)
                    for (UINT kx = 0; kx < s->k; ++kx) {
                        const double wv = fk[ky * s->k + kx];
                        for (UINT iy = 0; iy < s->h; ++iy) {
                            long oy = s->backward ? (long)iy * s->stride + ky - s->pad
                                                  : (long)iy + s->pad - ky;
                            if (!s->backward && (oy < 0 || oy % s->stride))
                                continue;
                            oy = s->backward ? oy : oy / s->stride;
                            if (oy < 0 || oy >= (long)oh)
                                continue;
                            for (UINT ix = 0; ix < s->w; ++ix) {
                                long ox = s->backward ? (long)ix * s->stride + kx - s->pad
                                                      : (long)ix + s->pad - kx;
                                if (!s->backward && (ox < 0 || ox % s->stride))
                                    continue;
                                ox = s->backward ? ox : ox / s->stride;
                                if (ox >= 0 && ox < (long)ow)
                                    out[(size_t)oy * ow + ox] += wv * xin[(size_t)iy * s->w + ix];
                            }
                        }
                    }
            }
        }
    for (size_t i = 0; i < total; ++i)
        y[i] = (float)(acc[i] + b[i / plane % s->cout]);
    free(acc);
}

static int conv_workload(workload *w, const conv_shape *s)
{
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    const UINT oh = out_side(s, s->h), ow = out_side(s, s->w);
    const UINT fsz[4] = {s->backward ? s->cin : s->cout,
                         s->backward ? s->cout / s->groups : s->cin / s->groups, s->k, s->k};
    const UINT xsz[4] = {s->n, s->cin, s->h, s->w}, bsz[4] = {1, s->cout, 1, 1};
    const UINT osz[4] = {s->n, s->cout, oh, ow};
    const float *x = input_of(w, 0, (size_t)s->n * s->cin * s->h * s->w);
    const float *f = input_of(w, 1, (size_t)fsz[0] * fsz[1] * s->k * s->k);
    const float *b = input_of(w, 2, s->cout);
    size_t out_n = (size_t)s->n * s->cout * oh * ow;
    w->expected = malloc(out_n * sizeof(float));
    expect(s, x, f, b, oh, ow, w->expected);
    w->output_bytes = out_n * sizeof(float);
    for (int i = 0; i < 2; ++i) {
        w->axes[i] = s->stride;  /* Strides */
        w->axes[2 + i] = 1;      /* Dilations */
        w->axes[4 + i] = s->pad; /* StartPadding, EndPadding */
        w->repeats[i] = 0;       /* OutputPadding */
    }
    w->op.conv = (DML_CONVOLUTION_OPERATOR_DESC){bench_tensor(w, 0, f32, 4, xsz, NULL),
                                                 bench_tensor(w, 1, f32, 4, fsz, NULL),
                                                 bench_tensor(w, 2, f32, 4, bsz, NULL),
                                                 bench_tensor(w, 3, f32, 4, osz, NULL),
                                                 DML_CONVOLUTION_MODE_CROSS_CORRELATION,
                                                 s->backward ? DML_CONVOLUTION_DIRECTION_BACKWARD
                                                             : DML_CONVOLUTION_DIRECTION_FORWARD,
                                                 2,
                                                 w->axes,
                                                 w->axes + 2,
                                                 w->axes + 4,
                                                 w->axes + 4,
                                                 w->repeats,
                                                 s->groups,
                                                 NULL};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_CONVOLUTION, &w->op.conv};
    return 0;
}

int bench_conv_stem(workload *w)
{
    w->name = "conv-stem";
    w->what = "CONVOLUTION [1,3,224,224] x [64,3,7,7] /2 pad 3 + bias f32 (118 M multiply-adds)";
    conv_shape s = {1, 3, 224, 224, 64, 7, 2, 3, 1, false};
    return conv_workload(w, &s);
}

int bench_conv3x3_56(workload *w)
{
    w->name = "conv-3x3-56";
    w->what = "CONVOLUTION [1,64,56,56] x [64,64,3,3] pad 1 + bias f32 (116 M multiply-adds)";
    conv_shape s = {1, 64, 56, 56, 64, 3, 1, 1, 1, false};
    return conv_workload(w, &s);
}

int bench_conv3x3_14(workload *w)
{
    w->name = "conv-3x3-14";
    w->what = "CONVOLUTION [1,256,14,14] x [256,256,3,3] pad 1 + bias f32 (116 M multiply-adds)";
    conv_shape s = {1, 256, 14, 14, 256, 3, 1, 1, 1, false};
    return conv_workload(w, &s);
}

int bench_conv1x1_56(workload *w)
{
    w->name = "conv-1x1-56";
    w->what = "CONVOLUTION [1,256,56,56] x [64,256,1,1] + bias f32 (51 M multiply-adds)";
    conv_shape s = {1, 256, 56, 56, 64, 1, 1, 0, 1, false};
    return conv_workload(w, &s);
}

int bench_conv_depthwise(workload *w)
{
    w->name = "conv-depthwise";
    w->what = "CONVOLUTION [1,256,56,56] x [256,1,3,3] pad 1 GroupCount 256 + bias f32 (7.2 M "
              "multiply-adds)";
    conv_shape s = {1, 256, 56, 56, 256, 3, 1, 1, 256, false};
    return conv_workload(w, &s);
}

int bench_conv_transposed(workload *w)
{
    w->name = "conv-transposed";
    w->what = "CONVOLUTION BACKWARD [1,64,56,56] x [64,32,4,4] /2 pad 1 -> [1,32,112,112] + bias "
              "f32 (103 M multiply-adds)";
    conv_shape s = {1, 64, 56, 56, 32, 4, 2, 1, 1, true};
    return conv_workload(w, &s);
}

/* The GPU memory model's shapes (bench/gpumodel.c): ResNet's kinds at a few channels. */
int bench_model_conv_stem(workload *w)
{
    w->name = "conv-stem";
    w->what = "CONVOLUTION [1,3,32,32] x [16,3,7,7] /2 pad 3 + bias f32";
    conv_shape s = {1, 3, 32, 32, 16, 7, 2, 3, 1, false};
    return conv_workload(w, &s);
}

int bench_model_conv3x3_14(workload *w)
{
    w->name = "conv-3x3-14";
    w->what = "CONVOLUTION [1,64,14,14] x [64,64,3,3] pad 1 + bias f32";
    conv_shape s = {1, 64, 14, 14, 64, 3, 1, 1, 1, false};
    return conv_workload(w, &s);
}

int bench_model_conv3x3(workload *w)
{
    w->name = "conv-3x3";
    w->what = "CONVOLUTION [1,16,16,16] x [16,16,3,3] pad 1 + bias f32";
    conv_shape s = {1, 16, 16, 16, 16, 3, 1, 1, 1, false};
    return conv_workload(w, &s);
}

int bench_model_conv1x1(workload *w)
{
    w->name = "conv-1x1";
    w->what = "CONVOLUTION [1,32,16,16] x [16,32,1,1] + bias f32";
    conv_shape s = {1, 32, 16, 16, 16, 1, 1, 0, 1, false};
    return conv_workload(w, &s);
}

int bench_model_conv_depthwise(workload *w)
{
    w->name = "conv-depthwise";
    w->what = "CONVOLUTION [1,16,48,48] x [16,1,3,3] pad 1 GroupCount 16 + bias f32";
    conv_shape s = {1, 16, 48, 48, 16, 3, 1, 1, 16, false};
    return conv_workload(w, &s);
}

int bench_model_conv_transposed(workload *w)
{
    w->name = "conv-transposed";
    w->what = "CONVOLUTION BACKWARD [1,16,24,24] x [16,8,4,4] /2 pad 1 -> [1,8,48,48] + bias f32";
    conv_shape s = {1, 16, 24, 24, 8, 4, 2, 1, 1, true};
    return conv_workload(w, &s);
}
