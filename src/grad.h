/* SPDX-License-Identifier: MIT */
/*
 * The gradient family's description (internal.h dmli_compute, kind DMLI_COMPUTE_GRAD), written
 * by the training operators' lower (ops/slice_grad.c) and launched by launch_grad.c
 * (cl/grad.cl): a gather per output element (no atomics, one order of every sum).
 *
 * SLICE_GRAD's tensors: InputGradientTensor, then OutputGradientTensor.
 */
#ifndef DMLI_GRAD_H
#define DMLI_GRAD_H

#include "../cl/grad_abi.h"
#include "internal.h"

typedef enum dmli_grad_kind {
    DMLI_GRAD_SLICE, /* cl/grad.cl slice_grad */
} dmli_grad_kind;

typedef struct dmli_grad_dim {
    int64_t out_size, out_stride, in_size, in_stride;
    int64_t anchor, step, sign; /* the window's lattice (grad_abi.h) */
} dmli_grad_dim;

typedef struct dmli_grad {
    dmli_grad_kind kind;
    uint32_t elem_bytes; /* the data's width: slice_grad moves bits */
    int64_t count;       /* output elements */
    uint32_t rank;
    dmli_grad_dim dim[DMLI_GRAD_DIMS];
} dmli_grad;

#endif /* DMLI_GRAD_H */
