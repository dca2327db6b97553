/* SPDX-License-Identifier: MIT */
/*
 * The window family's description (internal.h dmli_compute, kind DMLI_COMPUTE_ROI): what
 * src/ops/roi.c lowers ROI_POOLING, ROI_ALIGN, ROI_ALIGN1 and ROI_ALIGN_GRAD to and src/ops/fold.c
 * FOLD and UNFOLD, and what src/launch_roi.c turns into a kernel of cl/roi.cl, its table
 * (cl/roi_abi.h) and its grid. One work-item per output element, which reads what it needs
 * through the tensors' strides: no item writes another's element, no atomics, and a sum
 * (FOLD, an average) runs in one fixed order.
 */
#ifndef DMLI_ROI_H
#define DMLI_ROI_H

#include "../cl/roi_abi.h"
#include "internal.h"

typedef enum dmli_roi_kind {
    DMLI_ROI_POOL,       /* ROI_POOLING: the maximum over each bin */
    DMLI_ROI_ALIGN,      /* ROI_ALIGN, ROI_ALIGN1: sampled and reduced */
    DMLI_ROI_FOLD,       /* col2im: overlapping window positions summed */
    DMLI_ROI_UNFOLD,     /* im2col: a copy, zeros in the padding */
    DMLI_ROI_ALIGN_GRAD, /* ROI_ALIGN_GRAD: ROI_ALIGN1's transpose, gathers */
} dmli_roi_kind;

typedef struct dmli_roi {
    dmli_roi_kind kind;
    DML_TENSOR_DATA_TYPE type; /* the data's (ROI_*: the rois' too) */
    /* Regions. */
    bool idx64;                /* BatchIndicesTensor UINT64 (else UINT32) */
    bool max, linear, corners; /* MAX reduction, LINEAR, AlignRegionsToCorners */
    int64_t batch, channels, in_h, in_w, rois, out_h, out_w;
    int64_t in_s[4], out_s[4], roi_sr, roi_sk, idx_s;
    float scale_x, scale_y, in_off, out_off, oob;
    uint32_t min_samples, max_samples;
    /* ROI_ALIGN_GRAD: which optional tensors are bound (InputTensor, OutputGradientTensor,
     * OutputROIGradientTensor), the gradient's strides (out_s: the incoming gradient's; in_s:
     * InputTensor's, or the gradient's where InputTensor is absent) and the ROI gradient's. */
    bool has_x, has_dx, has_droi;
    int64_t dx_s[4], droi_sr, droi_sk;
    /* Windows: the image {N, C, spatial...} and the columns {N, C * K, L}. */
    int nd;
    int64_t n, c, k, l;
    int64_t img_sn, img_sc, col_sn, col_sk, col_sl;
    int64_t size[DMLI_WN_DIMS], window[DMLI_WN_DIMS], stride[DMLI_WN_DIMS], dilation[DMLI_WN_DIMS],
        pad[DMLI_WN_DIMS], blocks[DMLI_WN_DIMS], img_s[DMLI_WN_DIMS];
} dmli_roi;

#endif /* DMLI_ROI_H */
