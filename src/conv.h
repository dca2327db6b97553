/* SPDX-License-Identifier: MIT */
/*
 * The conv family's description of one CONVOLUTION (ops/conv.c fills it, launch_conv.c
 * turns it into cl/conv.cl's options, grid and table): three spatial dimensions {D, H, W}
 * (size 1 where the operator has fewer), sizes, strides in elements, the filter's strides as the
 * kernel walks it (signed: CONVOLUTION mode flips the taps; the group, output- and input-channel
 * strides differ between FORWARD and BACKWARD), the activation.
 */
#ifndef DMLI_CONV_H
#define DMLI_CONV_H

#include "internal.h"

typedef struct dmli_conv {
    bool backward, has_bias;
    DML_TENSOR_DATA_TYPE type; /* every tensor's (FLOAT32 or FLOAT16) */
    uint32_t spatial;          /* the operator's spatial dimensions, 1 to 3 */
    int64_t n, groups, cin_g, cout_g;
    int64_t in[3], out[3], k[3]; /* {D, H, W} */
    int64_t stride[3], dil[3], pad[3];
    int64_t in_s[5], out_s[5];         /* {N, C, D, H, W} */
    int64_t ws_g, ws_co, ws_ci, ws[3]; /* the filter as the kernel walks it */
    int64_t bias_s;                    /* along the bias's channels */
    dmli_act act;
    float act_param[3];
} dmli_conv;

#endif /* DMLI_CONV_H */
