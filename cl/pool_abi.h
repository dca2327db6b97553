/* SPDX-License-Identifier: MIT */
/*
 * The pool family's table (cl/pool.cl, src/launch_pool.c): longs, the spatial axes always
 * {D, H, W} (a 2-D pooling has D = 1, window 1, stride 1, no padding), the tensors' strides
 * over {N, C, D, H, W}. Kernel arguments: the table, then input, output and (INDICES 1)
 * indices, each a buffer and its base in elements.
 */
#ifndef DMLI_POOL_ABI_H
#define DMLI_POOL_ABI_H

#define DMLI_POOL_C 0      /* channels */
#define DMLI_POOL_NC 1     /* batch * channels */
#define DMLI_POOL_BLOCKS 2 /* work-items along the output's W (VEC outputs each) */
#define DMLI_POOL_P 3      /* LP_POOLING's P */
#define DMLI_POOL_TOTAL 4  /* FLAT: output elements */
/* Axis a (0 D, 1 H, 2 W), field f of DMLI_POOL_AXIS_LONGS. */
#define DMLI_POOL_IN 0  /* input size */
#define DMLI_POOL_OUT 1 /* output size */
#define DMLI_POOL_K 2   /* window */
#define DMLI_POOL_S 3   /* stride */
#define DMLI_POOL_DIL 4 /* dilation */
#define DMLI_POOL_PAD 5 /* start padding */
#define DMLI_POOL_END 6 /* input size + end padding: the padded range's end */
#define DMLI_POOL_AXIS_LONGS 7
#define DMLI_POOL_AXIS(a, f) (5 + DMLI_POOL_AXIS_LONGS * (a) + (f))
/* Tensor x's (0 input, 1 output, 2 indices) stride along dimension d of {N, C, D, H, W}. */
#define DMLI_POOL_STRIDE(x, d) (26 + 5 * (x) + (d))
/* BAND (cl/pool.cl pool_band): output rows a band (its staged input rows fit SLOTS). */
#define DMLI_POOL_BAND_ROWS 41
/* QUANT (cl/pool.cl): the input scale's, input zero point's, output scale's and output zero
 * point's stride along the channels (0: per tensor). */
#define DMLI_POOL_QSTRIDE(k) (42 + (k))
#define DMLI_POOL_TABLE 46

#endif /* DMLI_POOL_ABI_H */
