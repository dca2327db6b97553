/* SPDX-License-Identifier: MIT */
/*
 * The gradient family's description (internal.h dmli_compute, kind DMLI_COMPUTE_GRAD), written
 * by the training operators' lower (ops/slice_grad.c, ops/pool_grad.c) and launched by
 * launch_grad.c (cl/grad.cl): a gather per output element (no atomics, one order of every sum).
 *
 * SLICE_GRAD's tensors: InputGradientTensor, then OutputGradientTensor. The pooling gradients':
 * InputTensor (MAX_POOLING_GRAD; AVERAGE_POOLING_GRAD lists InputGradientTensor there, unread),
 * InputGradientTensor, OutputGradientTensor. LOCAL_RESPONSE_NORMALIZATION_GRAD's: InputTensor,
 * InputGradientTensor, OutputGradientTensor. ADAM_OPTIMIZER's: its five inputs, then its three
 * outputs, in the descriptor's order.
 */
#ifndef DMLI_GRAD_H
#define DMLI_GRAD_H

#include "../cl/grad_abi.h"
#include "internal.h"

typedef enum dmli_grad_kind {
    DMLI_GRAD_SLICE,        /* cl/grad.cl slice_grad */
    DMLI_GRAD_AVERAGE_POOL, /* pool_grad */
    DMLI_GRAD_MAX_POOL,     /* pool_grad, POOL_MAX */
    DMLI_GRAD_LRN,          /* lrn_grad */
    DMLI_GRAD_ADAM,         /* adam */
} dmli_grad_kind;

/* LOCAL_RESPONSE_NORMALIZATION_GRAD (grad_abi.h DMLI_LG_*). */
typedef struct dmli_grad_lrn {
    bool half; /* FLOAT16 tensors (else FLOAT32) */
    bool cross_channel;
    uint32_t local_size;
    float alpha, beta, bias;
    int64_t sizes[4];      /* {N, C, H, W} */
    int64_t strides[3][4]; /* X, dY, dX */
} dmli_grad_lrn;

/* ADAM_OPTIMIZER (grad_abi.h DMLI_AD_*). */
typedef struct dmli_grad_adam {
    bool half;
    float learning_rate, beta1, beta2, epsilon;
    int64_t sizes[4];
    int64_t strides[7][4]; /* X, M, V, G, then the outputs X', M', V' (T: one element) */
} dmli_grad_adam;

/* The pooling gradients' windows (grad_abi.h DMLI_PG_*): spatial axis a of {D, H, W}. */
typedef struct dmli_grad_pool {
    int64_t n, c;
    bool include_padding;
    bool half; /* FLOAT16 tensors (else FLOAT32) */
    int64_t in[3], out[3], window[3], stride[3], dilation[3], start[3], end[3];
    int64_t strides[3][5]; /* X, dY, dX: {N, C, D, H, W} */
} dmli_grad_pool;

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
    dmli_grad_pool pool; /* the pooling gradients' */
    dmli_grad_lrn lrn;
    dmli_grad_adam adam;
} dmli_grad;

#endif /* DMLI_GRAD_H */
