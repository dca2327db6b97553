/* SPDX-License-Identifier: MIT */
/*
 * ref_resample.h: the oracle for DirectML's resampling operators (UPSAMPLE_2D, RESAMPLE,
 * RESAMPLE1, RESAMPLE2, RESAMPLE3) and VALUE_SCALE_2D. Written from DirectML's pages and the
 * rules dmlcl documents where they are silent (docs/operators.md); nothing from src/.
 *
 * Along each dimension d, output coordinate o reads input coordinate
 *   x = (o - OutputPixelOffset) / Scale - InputPixelOffset
 * (the pages' OutputX = (InputX + InputPixelOffset) * Scale + OutputPixelOffset solved for
 * InputX) in float32, the quotient q = u * r corrected once, fmaf(fmaf(-q, Scale, u), r, q),
 * r = 1 / Scale rounded once: the correctly rounded quotient (Markstein), as dmlcl states it,
 * so that nearest neighbour is exact. Half-up rounding (UPSAMPLE_2D, RESAMPLE,
 * RESAMPLE1) is floor with InputPixelOffset 0.5 less; nearest takes floor(x) or ceil(x),
 * LINEAR the neighbours floor(x), floor(x) + 1 weighted 1 - w, w (w = x - floor(x), exact in
 * float), each clamped to the input's edges. The weighted sum is taken in double and rounded
 * once to the output's type (integers: to nearest even, saturated).
 */
#ifndef DMLCL_TESTS_REF_RESAMPLE_H
#define DMLCL_TESTS_REF_RESAMPLE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REF_RESAMPLE_MAX_RANK 5

typedef struct ref_resample_desc {
    bool linear;
    bool ceil;    /* nearest: round up (DML_AXIS_DIRECTION_INCREASING) */
    bool half_up; /* nearest: floor(x + 0.5) (UPSAMPLE_2D, RESAMPLE, RESAMPLE1) */
    /* LINEAR, RESAMPLE3's Antialiased: along a dimension of Scale s < 1, the taps floor(x) + k,
     * k from start = floor(-(float)(1/s)) + 1 to 1 - start, weighted max(0, 1 - |k - (x -
     * floor(x))| s) and normalised (ONNX Resize's antialias); indices clamped. */
    bool antialias;
    float scales[REF_RESAMPLE_MAX_RANK];
    float input_offsets[REF_RESAMPLE_MAX_RANK];
    float output_offsets[REF_RESAMPLE_MAX_RANK];
} ref_resample_desc;

/* in and out of one type (FLOAT32, FLOAT16, INT8, UINT8) and rank (1 to 5); false otherwise.
 * mag, when not NULL, receives per output element (row-major) the sum of |weight * input|:
 * the scale of a float compute's rounding error where the weighted terms cancel. */
bool ref_resample(const ref_tensor *in, const ref_tensor *out, const ref_resample_desc *d,
                  double *mag);

/* RESAMPLE_GRAD and RESAMPLE_GRAD1 (d as the forward's: RESAMPLE1's half_up, RESAMPLE2's ceil):
 * the transpose of ref_resample's weights. dy has the forward output's sizes, dx the forward
 * input's, both FLOAT32 or FLOAT16 of one rank; every forward output o scatters weight(o, i) *
 * dy[o] into each input element i it reads, summed in double and rounded once (an element no
 * output reads is 0). terms and mag, when not NULL, receive per dx element (row-major) the
 * number of terms of weight other than 0 and the sum of their magnitudes. */
bool ref_resample_grad(const ref_tensor *dy, const ref_tensor *dx, const ref_resample_desc *d,
                       uint32_t *terms, double *mag);

/* VALUE_SCALE_2D: 4-D FLOAT32 or FLOAT16, y = x * scale + bias[c] rounded once. */
bool ref_value_scale_2d(const ref_tensor *in, const ref_tensor *out, float scale, const float *bias,
                        uint32_t channels);

/* LINEAR's tolerance (reference/precision.md): 84 ULPs; nearest is exact. */
#define REF_RESAMPLE_LINEAR_ULPS 84u

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_RESAMPLE_H */
