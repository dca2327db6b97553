/* SPDX-License-Identifier: MIT */
/*
 * The resampling workloads (issue "GEMM, convolution, pooling and resampling"): an image
 * feature map [1,64,128,128] f32 scaled by 2 in H and W to [1,64,256,256], bilinearly (ONNX
 * Resize's default half_pixel: RESAMPLE2 with offsets 0.5 and -0.5) and by nearest neighbour
 * (each input element repeated 2 x 2). Inputs are eighths in [-64, 64]: every weighted sum of
 * the bilinear weights (sixteenths) is exact in float32 whatever the order, so the bytes
 * compare with the plain loops' results.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

static float *feature_map(workload *w, UINT C, UINT H, UINT W)
{
    size_t total = (size_t)C * H * W;
    float *x = bench_alloc_input(w, total * sizeof *x);
    for (size_t i = 0; i < total; ++i)
        x[i] = (float)((int)(bench_random() % 1025) - 512) * 0.125f;
    bench_touch(w, 0, 0, total * sizeof *x);
    return x;
}

/* half_pixel along an axis of n scaled by 2: neighbours and the second's weight. */
static void taps(UINT o, UINT n, UINT *i0, UINT *i1, double *wt)
{
    double x = (o + 0.5) / 2 - 0.5;
    double f = floor(x);
    if (f < 0) {
        *i0 = *i1 = 0;
        *wt = 0;
    } else if (f >= n - 1) {
        *i0 = *i1 = n - 1;
        *wt = 0;
    } else {
        *i0 = (UINT)f;
        *i1 = *i0 + 1;
        *wt = x - f;
    }
}

static int resample_x2(workload *w, bool linear, UINT C, UINT H, UINT W)
{
    const UINT in_s[4] = {1, C, H, W}, out_s[4] = {1, C, 2 * H, 2 * W};
    const float *x = feature_map(w, C, H, W);
    size_t total = (size_t)C * 4 * H * W;
    float *e = w->expected = malloc(total * sizeof *e);
    for (UINT c = 0; c < C; ++c)
        for (UINT oy = 0; oy < 2 * H; ++oy)
            for (UINT ox = 0; ox < 2 * W; ++ox) {
                const float *p = x + (size_t)c * H * W;
                double v;
                if (linear) {
                    UINT y0, y1, x0, x1;
                    double wy, wx;
                    taps(oy, H, &y0, &y1, &wy);
                    taps(ox, W, &x0, &x1, &wx);
                    v = (1 - wy) * ((1 - wx) * p[y0 * W + x0] + wx * p[y0 * W + x1]) +
                        wy * ((1 - wx) * p[y1 * W + x0] + wx * p[y1 * W + x1]);
                } else {
                    v = p[(oy / 2) * W + ox / 2];
                }
                e[((size_t)c * 2 * H + oy) * 2 * W + ox] = (float)v;
            }
    w->output_bytes = total * sizeof *e;
    for (int d = 0; d < 4; ++d) {
        w->resample[0][d] = d < 2 ? 1.0f : 2.0f;
        /* Pixel centres; nearest rounds half up as floor with the input offset 0.5 less. */
        w->resample[1][d] = linear ? 0.5f : 0.0f;
        w->resample[2][d] = -0.5f;
    }
    w->op.resample2 = (DML_RESAMPLE2_OPERATOR_DESC){
        bench_tensor(w, 0, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_s, NULL),
        bench_tensor(w, 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_s, NULL),
        linear ? DML_INTERPOLATION_MODE_LINEAR : DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
        DML_AXIS_DIRECTION_DECREASING,
        4,
        w->resample[0],
        w->resample[1],
        w->resample[2]};
    w->desc = (DML_OPERATOR_DESC){DML_OPERATOR_RESAMPLE2, &w->op.resample2};
    return 0;
}

int bench_resample_linear_x2(workload *w)
{
    w->name = "resample-linear-x2";
    w->what = "RESAMPLE2 LINEAR [1,64,128,128] -> [1,64,256,256] f32 (half_pixel)";
    return resample_x2(w, true, 64, 128, 128);
}

int bench_resample_nearest_x2(workload *w)
{
    w->name = "resample-nearest-x2";
    w->what = "RESAMPLE2 NEAREST [1,64,128,128] -> [1,64,256,256] f32";
    return resample_x2(w, false, 64, 128, 128);
}

/* The GPU memory model's shapes (bench/gpumodel.c). */
int bench_model_resample_linear_x2(workload *w)
{
    w->name = "resample-linear-x2";
    w->what = "RESAMPLE2 LINEAR [1,16,32,32] -> [1,16,64,64] f32 (half_pixel)";
    return resample_x2(w, true, 16, 32, 32);
}

int bench_model_resample_nearest_x2(workload *w)
{
    w->name = "resample-nearest-x2";
    w->what = "RESAMPLE2 NEAREST [1,16,32,32] -> [1,16,64,64] f32";
    return resample_x2(w, false, 16, 32, 32);
}
