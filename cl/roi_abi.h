/* SPDX-License-Identifier: MIT */
/*
 * roi_abi.h: the tables of the window family (cl/roi.cl), shared with its launch
 * (src/launch_roi.c). Plain macros, valid C and OpenCL C. Strides are in elements of each
 * tensor; floats are stored as their bits.
 *
 * Regions (ROI_POOLING: tensor arguments input, rois, output; ROI_ALIGN, ROI_ALIGN1: input,
 * rois, batch indices, output).
 * Windows (FOLD, UNFOLD): tensor arguments input, output; the image is UNFOLD's input and
 * FOLD's output, the columns {N, C * K, L} the other.
 */
#ifndef DMLI_ROI_ABI_H
#define DMLI_ROI_ABI_H

#define DMLI_RG_BATCH 0    /* InputTensor.Sizes[0] */
#define DMLI_RG_CHANNELS 1 /* InputTensor.Sizes[1] */
#define DMLI_RG_IN_H 2     /* InputTensor.Sizes[2] */
#define DMLI_RG_IN_W 3     /* InputTensor.Sizes[3] */
#define DMLI_RG_ROIS 4     /* regions */
#define DMLI_RG_OUT_H 5    /* OutputTensor.Sizes[2] */
#define DMLI_RG_OUT_W 6    /* OutputTensor.Sizes[3] */
#define DMLI_RG_IN_S 7     /* the input's four strides (7 .. 10) */
#define DMLI_RG_OUT_S 11   /* the output's four strides (11 .. 14) */
#define DMLI_RG_ROI_SR 15  /* rois: between regions */
#define DMLI_RG_ROI_SK 16  /* rois: between a region's values */
#define DMLI_RG_IDX_S 17   /* batch indices: between regions */
#define DMLI_RG_SCALE_X 18 /* float bits */
#define DMLI_RG_SCALE_Y 19 /* float bits */
#define DMLI_RG_IN_OFF 20  /* InputPixelOffset, float bits */
#define DMLI_RG_OUT_OFF 21 /* OutputPixelOffset, float bits */
#define DMLI_RG_OOB 22     /* OutOfBoundsInputValue, float bits */
#define DMLI_RG_MIN_S 23   /* MinimumSamplesPerOutput */
#define DMLI_RG_MAX_S 24   /* MaximumSamplesPerOutput, at most DMLI_RG_SAMPLE_CAP */
#define DMLI_RG_ITEMS 25   /* outputs: rois x channels x height x width */
#define DMLI_RG_TABLE 26
/* ROI_ALIGN_GRAD (roi_align_grad): the fields above with OUT_S the incoming gradient's strides,
 * IN_S InputTensor's (when bound), then OutputGradientTensor's four strides, the ROI gradient's
 * two (between regions, between a region's values), the gradient's elements (0 unbound) and the
 * ROI gradient's (4 x regions, 0 unbound). Items: the gradient's elements, then the ROI
 * gradient's. */
#define DMLI_RG_DX_S 26     /* 26 .. 29 */
#define DMLI_RG_DROI_SR 30  /* ROI gradient: between regions */
#define DMLI_RG_DROI_SK 31  /* ROI gradient: between a region's values */
#define DMLI_RG_DX_ITEMS 32 /* OutputGradientTensor's elements (0: unbound) */
#define DMLI_RG_DROI_ITEMS 33
#define DMLI_RG_GRAD_TABLE 34

/* Samples per output and axis, at most: a bound on one item's work whatever the regions. */
#define DMLI_RG_SAMPLE_CAP 1024

#define DMLI_WN_DIMS 6     /* spatial dimensions, at most */
#define DMLI_WN_BATCH 0    /* N */
#define DMLI_WN_CHANNELS 1 /* C */
#define DMLI_WN_ND 2       /* spatial dimensions */
#define DMLI_WN_K 3        /* window positions: the product of WindowSizes */
#define DMLI_WN_L 4        /* blocks: the product of the blocks per dimension */
#define DMLI_WN_ITEMS 5    /* outputs */
#define DMLI_WN_IMG_SN 6   /* the image's batch stride */
#define DMLI_WN_IMG_SC 7   /* the image's channel stride */
#define DMLI_WN_COL_SN 8   /* the columns' strides: batch, */
#define DMLI_WN_COL_SK 9   /* channel x window position, */
#define DMLI_WN_COL_SL 10  /* block */
#define DMLI_WN_HEADER 11
/* Per spatial dimension d: the image's size, the window's size, stride, dilation, start
 * padding, the blocks along d and the image's stride. */
#define DMLI_WN_DIM_FIELDS 7
#define DMLI_WN_DIM(d) (DMLI_WN_HEADER + (d)*DMLI_WN_DIM_FIELDS)
#define DMLI_WN_TABLE DMLI_WN_DIM(DMLI_WN_DIMS)

#endif /* DMLI_ROI_ABI_H */
