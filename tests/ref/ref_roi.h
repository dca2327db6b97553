/* SPDX-License-Identifier: MIT */
/*
 * ref_roi.h: the C reference for DirectML's ROI_POOLING, ROI_ALIGN / ROI_ALIGN1, FOLD and
 * UNFOLD, written from their pages and dmlcl's rules where the pages are silent
 * (docs/operators.md), in double, independent of src/ and cl/. Tensors are packed row-major
 * arrays of values:
 *
 *   ref_roi_pool   in {N, C, H, W}, rois {R, 5} ([batch, x1, y1, x2, y2]) -> out {R, C, PH, PW}
 *   ref_roi_align  in {N, C, H, W}, rois {R, 4} ([x1, y1, x2, y2]), batch {R} -> out {R, C,
 *                  OH, OW}
 *   ref_unfold     image {N, C, S...} -> columns {N, C * K, L}
 *   ref_fold       columns {N, C * K, L} -> image {N, C, S...}, overlaps summed
 */
#ifndef DMLCL_TESTS_REF_ROI_H
#define DMLCL_TESTS_REF_ROI_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void ref_roi_pool(const double *in, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                  const double *rois, uint32_t r, double scale, uint32_t ph, uint32_t pw,
                  double *out);

typedef struct ref_roi_align_desc {
    uint32_t n, c, h, w, rois, oh, ow;
    bool max;    /* DML_REDUCE_FUNCTION_MAX, else AVERAGE */
    bool linear; /* DML_INTERPOLATION_MODE_LINEAR, else NEAREST_NEIGHBOR */
    bool corners;
    double scale_x, scale_y, in_offset, out_offset, oob;
    uint32_t min_samples, max_samples;
} ref_roi_align_desc;

void ref_roi_align(const ref_roi_align_desc *d, const double *in, const double *rois,
                   const uint64_t *batch, double *out);

/*
 * ROI_ALIGN_GRAD: ROI_ALIGN1's transpose, scattered from each output's samples in double.
 * dy {R, C, OH, OW}; in {N, C, H, W} (read for MAX's maximal sample and for droi; may be NULL
 * otherwise). dx {N, C, H, W} (NULL: not wanted) receives, per element, the sum over the
 * samples that read it of dy / (samples of the bin) (MAX: dy, for the bin's first maximal
 * sample alone) times the sample's bilinear or nearest weight of it; droi {R, 4} (NULL: not
 * wanted) the derivative of <ROI_ALIGN1(in, rois), dy> by the regions' values: per sample the
 * interpolation's slope along x (x1, x2) or y (y1, y2), 0 at an integral or clamped
 * coordinate, times the coordinate's derivative by the value (SpatialScale (1 - t), SpatialScale
 * t). dx_terms, dx_mag (per dx element) and droi_mag (per droi element), when not NULL, receive
 * the number of terms and the sums of their magnitudes (droi's: of the slope's four values).
 */
void ref_roi_align_grad(const ref_roi_align_desc *d, const double *in, const double *rois,
                        const uint64_t *batch, const double *dy, double *dx, double *droi,
                        uint32_t *dx_terms, double *dx_mag, double *droi_mag);

typedef struct ref_window_desc {
    uint32_t n, c, dims;
    uint32_t size[6], window[6], stride[6], dilation[6], start[6], end[6];
} ref_window_desc;

/* K (window positions) and L (blocks) of a description; L 0 when a dimension fits none. */
uint64_t ref_window_k(const ref_window_desc *d);
uint64_t ref_window_l(const ref_window_desc *d);

void ref_unfold(const ref_window_desc *d, const double *image, double *columns);
/* Overlapping column elements summed in double. */
void ref_fold(const ref_window_desc *d, const double *columns, double *image);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_ROI_H */
