/* SPDX-License-Identifier: MIT */
/*
 * The resample family's description (cl/resample.cl): what src/ops/resample.c lowers
 * UPSAMPLE_2D, RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3, VALUE_SCALE_2D, RESAMPLE_GRAD and
 * RESAMPLE_GRAD1 to, and what src/launch_resample.c turns into a kernel's options, table and
 * grid. Five dimensions, outermost first (a lower rank padded with leading 1s:
 * resample_abi.h's layout).
 */
#ifndef DMLI_RESAMPLE_H
#define DMLI_RESAMPLE_H

#include "../cl/resample_abi.h"
#include "internal.h"

typedef struct dmli_resample {
    DML_TENSOR_DATA_TYPE type; /* the input's and the output's */
    uint32_t rank;             /* the operator's tensors' (the last rank of the five) */
    bool linear;               /* else nearest neighbour */
    bool ceil;                 /* nearest: x rounded up (DML_AXIS_DIRECTION_INCREASING) */
    bool affine;               /* VALUE_SCALE_2D: y = fma(x, scale, bias[c]) */
    bool antialias;            /* RESAMPLE3 Antialiased LINEAR with a Scale below 1 */
    /* RESAMPLE_GRAD(1), the adjoint (cl/resample.cl resample_grad): in_* describe the gradient
     * written (the forward's input, compute tensor 1), out_* the incoming gradient read (the
     * forward's output, compute tensor 0). */
    bool grad;
    int64_t out_size[DMLI_RS_DIMS], in_size[DMLI_RS_DIMS];
    int64_t in_stride[DMLI_RS_DIMS], out_stride[DMLI_RS_DIMS];
    /* Per dimension: Scale, 1 / Scale (rounded once), the pixel offsets (cl/resample.cl's
     * coordinate: x = (o - out_off) / scale - in_off). */
    float scale_of[DMLI_RS_DIMS], recip[DMLI_RS_DIMS];
    float out_off[DMLI_RS_DIMS], in_off[DMLI_RS_DIMS];
    float scale, bias[3];
} dmli_resample;

/*
 * The constants of one dimension, from DirectML's OutputX = (InputX + InputPixelOffset) *
 * Scale + OutputPixelOffset solved for InputX: the scale, its reciprocal (rounded once from
 * double) and the offsets as float32.
 */
void dmli_resample_axis(dmli_resample *r, int d, double scale, double input_offset,
                        double output_offset);

#endif /* DMLI_RESAMPLE_H */
