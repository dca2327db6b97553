/* SPDX-License-Identifier: MIT */
/*
 * The pool family's description of one pooling (internal.h dmli_compute, kind
 * DMLI_COMPUTE_POOL): src/ops/pool.c's lower writes it, src/launch_pool.c launches it (cl/pool.cl):
 * plain data, every spatial quantity on three axes {D, H, W} (a 2-D pooling has D of size 1, window
 * 1, stride 1, no padding).
 */
#ifndef DMLI_POOL_H
#define DMLI_POOL_H

#include "internal.h"

typedef enum dmli_pool_op {
    DMLI_POOL_MAX = 0,
    DMLI_POOL_AVERAGE = 1,
    DMLI_POOL_LP = 2,
} dmli_pool_op;

/* The tensors in the kernel's argument order (a pooling without indices lists two; a
 * quantized average lists its input scale, input zero point, output scale and output zero point
 * after the output, an absent zero point stood in for by the input scale, never read). */
enum { DMLI_POOL_INPUT = 0, DMLI_POOL_OUTPUT = 1, DMLI_POOL_INDICES = 2 };

typedef struct dmli_pool {
    dmli_pool_op op;
    DML_TENSOR_DATA_TYPE type;     /* InputTensor's and OutputTensor's */
    DML_TENSOR_DATA_TYPE idx_type; /* OutputIndicesTensor's (UINT32, UINT64) when indices */
    bool indices;
    bool include_padding; /* AVERAGE: padding counts in the divisor */
    uint32_t p;           /* LP: the norm's P (>= 1) */
    uint32_t dims;        /* spatial axes of the operator's tensors: 2 or 3 */
    uint64_t batch, channels;
    /* Spatial axes {D, H, W}. */
    int64_t in_size[3], out_size[3], window[3], stride[3], dilation[3], start_pad[3], end_pad[3];
    /* Element strides over {N, C, D, H, W} of the input, output and indices. */
    int64_t in_stride[5], out_stride[5], idx_stride[5];
    /* QUANTIZED_LINEAR_AVERAGE_POOLING (op AVERAGE): type the input's, out_type the output's
     * (INT8, UINT8); the input scale, input zero point, output scale and output zero point each
     * read at channel c x q_stride[k] (0: one value for every channel). */
    bool quant;
    DML_TENSOR_DATA_TYPE out_type;
    bool has_in_zp, has_out_zp;
    int64_t q_stride[4];
} dmli_pool;

#endif /* DMLI_POOL_H */
