/* SPDX-License-Identifier: MIT */
/*
 * The dynamic quantization family's description (cl/dynquant.cl): what
 * src/ops/dynamic_quantize.c lowers DYNAMIC_QUANTIZE_LINEAR to, and what
 * src/launch_dynquant.c turns into a kernel's options, table and grid.
 */
#ifndef DMLI_DYNQUANT_H
#define DMLI_DYNQUANT_H

#include "../cl/dynquant_abi.h"
#include "internal.h"

typedef struct dmli_dynquant {
    DML_TENSOR_DATA_TYPE in_type;  /* FLOAT32 or FLOAT16 */
    DML_TENSOR_DATA_TYPE out_type; /* INT8 or UINT8: the output's and the zero point's */
    uint32_t rank;
    int64_t size[DMLI_DQ_MAX_RANK];
    int64_t in_stride[DMLI_DQ_MAX_RANK], out_stride[DMLI_DQ_MAX_RANK];
} dmli_dynquant;

#endif /* DMLI_DYNQUANT_H */
