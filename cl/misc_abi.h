/* SPDX-License-Identifier: MIT */
/*
 * misc_abi.h: the table of the selection family (cl/misc.cl: NONZERO_COORDINATES,
 * REVERSE_SUBSEQUENCES, MAX_UNPOOLING, RANDOM_GENERATOR), shared with its launch
 * (src/launch_misc.c). Plain macros, valid C and OpenCL C.
 *
 * The header's scalars, then per dimension (outermost first, DMLI_MI_DIMS of them) the size and
 * four element strides of the walked tensor set (A), and the size and stride of a second shape
 * (B: MAX_UNPOOLING's output, walked apart from its input). Strides are in elements of each
 * tensor.
 */
#ifndef DMLI_MISC_ABI_H
#define DMLI_MISC_ABI_H

#define DMLI_MI_DIMS 8 /* dimensions, at most */

#define DMLI_MI_ITEMS 0    /* work-items that do work (the others return at once) */
#define DMLI_MI_RANK 1     /* dimensions of shape A */
#define DMLI_MI_ELEMENTS 2 /* elements of shape A */
#define DMLI_MI_CHUNK 3    /* elements (or blocks) an item takes */
#define DMLI_MI_P0 4       /* the kernel's own scalars P0 .. P7 (each kernel's banner) */
#define DMLI_MI_HEADER 12

#define DMLI_MI_P(i) (DMLI_MI_P0 + (i))
#define DMLI_MI_DIM_FIELDS 7
/* Dimension d: A's size, A's strides of tensors 0 to 3, B's size, B's stride. */
#define DMLI_MI_DIM(d) (DMLI_MI_HEADER + (d)*DMLI_MI_DIM_FIELDS)
#define DMLI_MI_TABLE DMLI_MI_DIM(DMLI_MI_DIMS)

#endif /* DMLI_MISC_ABI_H */
