/* SPDX-License-Identifier: MIT */
/*
 * The dynamic quantization family's kernel ABI (cl/dynquant.cl, src/launch_dynquant.c): the
 * kernel's tensor arguments in order and the table's layout. Shared by the host and the kernel.
 */
#ifndef DMLI_DYNQUANT_ABI_H
#define DMLI_DYNQUANT_ABI_H

/* Tensors (the kernel's arguments, in this order). */
#define DMLI_DQ_INPUT 0      /* InputTensor: FLOAT32 or FLOAT16 */
#define DMLI_DQ_OUTPUT 1     /* OutputTensor: INT8 or UINT8, the input's Sizes */
#define DMLI_DQ_SCALE 2      /* OutputScaleTensor: FLOAT32, one element */
#define DMLI_DQ_ZERO_POINT 3 /* OutputZeroPointTensor: the output's type, one element */
#define DMLI_DQ_TENSORS 4

/* Table: the rank, the element count, then per dimension (outermost first, 8 at most) its
 * size, the input's and the output's element strides. */
#define DMLI_DQ_MAX_RANK 8
#define DMLI_DQ_RANK 0
#define DMLI_DQ_COUNT 1
#define DMLI_DQ_SIZE(d) (2 + (d))
#define DMLI_DQ_IN_STRIDE(d) (2 + DMLI_DQ_MAX_RANK + (d))
#define DMLI_DQ_OUT_STRIDE(d) (2 + 2 * DMLI_DQ_MAX_RANK + (d))
/* SPLIT: the work-groups, each one part of the range (scratch: 2 floats a part). */
#define DMLI_DQ_PARTS (2 + 3 * DMLI_DQ_MAX_RANK)
#define DMLI_DQ_TABLE (DMLI_DQ_PARTS + 1)

#endif /* DMLI_DYNQUANT_ABI_H */
