/* SPDX-License-Identifier: MIT */
/*
 * The selection family's description (internal.h dmli_compute, kind DMLI_COMPUTE_MISC), written
 * by the lower of NONZERO_COORDINATES, REVERSE_SUBSEQUENCES, MAX_UNPOOLING and RANDOM_GENERATOR
 * (src/ops/) and launched by launch_misc.c (cl/misc.cl, whose banner says what each kernel
 * computes). Shape A is the walked tensors' shape, each with its strides (tensor k of the
 * kernel's list: stride[k]); shape B is MAX_UNPOOLING's output, walked apart from its input.
 */
#ifndef DMLI_MISC_H
#define DMLI_MISC_H

#include "../cl/misc_abi.h"
#include "internal.h"

typedef enum dmli_misc_kind {
    DMLI_MISC_NONZERO, /* tensors: input, count, coordinates */
    DMLI_MISC_REVERSE, /* input, lengths, output */
    DMLI_MISC_UNPOOL,  /* input, indices, output */
    DMLI_MISC_PHILOX,  /* state, output, output state (when has_state) */
} dmli_misc_kind;

typedef struct dmli_misc {
    dmli_misc_kind kind;
    DML_TENSOR_DATA_TYPE type;     /* the data's (NONZERO: tested; REVERSE, UNPOOL: moved) */
    DML_TENSOR_DATA_TYPE aux_type; /* REVERSE: the lengths'; UNPOOL: the indices' */
    bool has_state;                /* PHILOX: the output state is bound */
    int rank;                      /* shape A, outermost first */
    int64_t size[DMLI_MI_DIMS];
    int64_t stride[4][DMLI_MI_DIMS];
    int rank_b; /* shape B (UNPOOL's output) */
    int64_t size_b[DMLI_MI_DIMS], stride_b[DMLI_MI_DIMS];
    int64_t param[8]; /* the kernel's P0 .. P7 (cl/misc.cl) */
} dmli_misc;

#endif /* DMLI_MISC_H */
