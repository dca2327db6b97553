/* SPDX-License-Identifier: MIT */
/*
 * The gradient family's kernel ABI (cl/grad.cl, src/launch_grad.c): the table's layout, shared
 * by the host and the kernel.
 *
 * SLICE_GRAD: the output's element count and rank, then per dimension d (outermost first) the
 * output's size and stride, the incoming gradient's size and stride, the window's anchor (its
 * first output position for a positive stride, its last for a negative one), the stride's
 * magnitude and its sign (1 or -1).
 */
#ifndef DMLI_GRAD_ABI_H
#define DMLI_GRAD_ABI_H

#define DMLI_GRAD_DIMS 8

#define DMLI_GRAD_COUNT 0
#define DMLI_GRAD_RANK 1
#define DMLI_GRAD_DIM(d, k) (2 + 7 * (d) + (k))
#define DMLI_GRAD_OUT_SIZE 0
#define DMLI_GRAD_OUT_STRIDE 1
#define DMLI_GRAD_IN_SIZE 2
#define DMLI_GRAD_IN_STRIDE 3
#define DMLI_GRAD_ANCHOR 4
#define DMLI_GRAD_STEP 5
#define DMLI_GRAD_SIGN 6
#define DMLI_GRAD_TABLE DMLI_GRAD_DIM(DMLI_GRAD_DIMS, 0)

#endif /* DMLI_GRAD_ABI_H */
