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

/*
 * AVERAGE_POOLING_GRAD and MAX_POOLING_GRAD (pool_grad): the gradient's element count, N, C,
 * IncludePadding, then per spatial axis a of {D, H, W} (a 4-D tensor's D of size 1) the
 * forward input's size (OutputGradientTensor's), the forward output's (InputGradientTensor's),
 * WindowSize, Strides, Dilations, StartPadding and EndPadding; then each tensor's five element
 * strides {N, C, D, H, W}: the forward input X (MAX only), the incoming gradient, the output.
 */
#define DMLI_PG_COUNT 0
#define DMLI_PG_N 1
#define DMLI_PG_C 2
#define DMLI_PG_INCLUDE_PAD 3
#define DMLI_PG_AXIS(a, f) (4 + 7 * (a) + (f))
#define DMLI_PG_IN 0
#define DMLI_PG_OUT 1
#define DMLI_PG_WIN 2
#define DMLI_PG_STRIDE 3
#define DMLI_PG_DIL 4
#define DMLI_PG_START 5
#define DMLI_PG_END 6
#define DMLI_PG_X 0
#define DMLI_PG_DY 1
#define DMLI_PG_DX 2
#define DMLI_PG_STRIDES(t, d) (25 + 5 * (t) + (d))
#define DMLI_PG_TABLE DMLI_PG_STRIDES(3, 0)

/*
 * LOCAL_RESPONSE_NORMALIZATION_GRAD (lrn_grad): the element count, {N, C, H, W}, CrossChannel,
 * LocalSize, the bits of the FLOATs Alpha, Beta and Bias, then each tensor's four element
 * strides: X, dY, dX.
 */
#define DMLI_LG_COUNT 0
#define DMLI_LG_SIZE(d) (1 + (d))
#define DMLI_LG_CROSS 5
#define DMLI_LG_LOCAL 6
#define DMLI_LG_ALPHA 7
#define DMLI_LG_BETA 8
#define DMLI_LG_BIAS 9
#define DMLI_LG_STRIDES(t, d) (10 + 4 * (t) + (d))
#define DMLI_LG_TABLE DMLI_LG_STRIDES(3, 0)

/*
 * ADAM_OPTIMIZER (adam): the element count, the four sizes, the bits of the FLOATs
 * LearningRate, Beta1, Beta2 and Epsilon, then the four element strides of X, M, V, G, X', M',
 * V' (TrainingStepTensor is read at its base).
 */
#define DMLI_AD_COUNT 0
#define DMLI_AD_SIZE(d) (1 + (d))
#define DMLI_AD_LR 5
#define DMLI_AD_BETA1 6
#define DMLI_AD_BETA2 7
#define DMLI_AD_EPSILON 8
#define DMLI_AD_STRIDES(t, d) (9 + 4 * (t) + (d))
#define DMLI_AD_TABLE DMLI_AD_STRIDES(7, 0)

#endif /* DMLI_GRAD_ABI_H */
