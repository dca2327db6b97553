/* SPDX-License-Identifier: MIT */
/*
 * The integer matrix family's description (cl/intmm.cl): what src/ops/intmm.c lowers
 * MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, MATRIX_MULTIPLY_INTEGER_TO_FLOAT,
 * CONVOLUTION_INTEGER and QUANTIZED_LINEAR_CONVOLUTION to, and what src/launch_intmm.c turns
 * into a kernel's options, table and grid.
 */
#ifndef DMLI_INTMM_H
#define DMLI_INTMM_H

#include "../cl/intmm_abi.h"
#include "internal.h"

typedef struct dmli_intmm {
    bool conv;
    int out_kind; /* DMLI_IMM_OUT_INT32, _QUANT, _FLOAT */
    DML_TENSOR_DATA_TYPE a_type, b_type, out_type;
    bool present[DMLI_IMM_ROLES];
    int64_t d[4]; /* the output's {D0, D1, D2, D3} */
    int64_t k;    /* a product's reduced size */
    /* A convolution's: channels a group, input {H, W}, window {KH, KW}, Strides, Dilations,
     * StartPadding (one spatial dimension: H's entries 1, 1, 1, 1, 0). */
    int64_t cin_g, cout_g, in[2], win[2], stride[2], dil[2], pad[2];
    int64_t strides[DMLI_IMM_ROLES][4];
} dmli_intmm;

#endif /* DMLI_INTMM_H */
