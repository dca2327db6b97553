/* SPDX-License-Identifier: MIT */
/*
 * resample_abi.h: the table of the resample family (cl/resample.cl), shared with its launch
 * (src/launch_resample.c). Plain macros, valid C and OpenCL C.
 *
 * Five dimensions, outermost first (a lower rank padded with leading 1s), DMLI_RS_FIELDS longs
 * each: the output's size, the input's size, the input's and the output's strides (elements),
 * and the coordinate transform's float32 constants as their bits: Scale, its reciprocal
 * (rounded once), the output and the input pixel offsets. Then VALUE_SCALE_2D's Scale and its
 * three biases (float32 bits), read when the kernel is built with AFFINE 1.
 */
#ifndef DMLI_RESAMPLE_ABI_H
#define DMLI_RESAMPLE_ABI_H

#define DMLI_RS_DIMS 5
#define DMLI_RS_FIELDS 8
#define DMLI_RS_OSIZE 0
#define DMLI_RS_ISIZE 1
#define DMLI_RS_IS 2
#define DMLI_RS_OS 3
#define DMLI_RS_SCALE_OF 4 /* Scale */
#define DMLI_RS_RECIP 5    /* 1 / Scale */
#define DMLI_RS_OUT_OFF 6  /* OutputPixelOffset */
#define DMLI_RS_IN_OFF 7   /* InputPixelOffset (nearest half up: 0.5 less) */
#define DMLI_RS_AT(d, f) ((d)*DMLI_RS_FIELDS + (f))
#define DMLI_RS_SCALE (DMLI_RS_DIMS * DMLI_RS_FIELDS)
#define DMLI_RS_BIAS(c) (DMLI_RS_SCALE + 1 + (c))
#define DMLI_RS_TABLE (DMLI_RS_SCALE + 4)

/* The dimension whose coordinate picks VALUE_SCALE_2D's bias (C of {1, N, C, H, W}). */
#define DMLI_RS_CHANNEL_DIM 2

#endif /* DMLI_RESAMPLE_ABI_H */
