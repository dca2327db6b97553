/* SPDX-License-Identifier: MIT */
/*
 * The integer matrix family's kernel ABI (cl/intmm.cl, src/launch_intmm.c): the tensors' roles,
 * which are also the kernel's tensor arguments in order, and the table's layout. Shared by the
 * host and the kernel.
 */
#ifndef DMLI_INTMM_ABI_H
#define DMLI_INTMM_ABI_H

/* Roles (the kernel's tensor arguments, in this order; an absent one is bound to A, unread).
 * The convolutions' input is A, their filter B. */
#define DMLI_IMM_A 0      /* ATensor / InputTensor */
#define DMLI_IMM_B 1      /* BTensor / FilterTensor */
#define DMLI_IMM_AZP 2    /* A's (the input's) zero point */
#define DMLI_IMM_BZP 3    /* B's (the filter's) zero point */
#define DMLI_IMM_ASCALE 4 /* A's (the input's) scale */
#define DMLI_IMM_BSCALE 5 /* B's (the filter's) scale */
#define DMLI_IMM_OSCALE 6 /* the output's scale */
#define DMLI_IMM_OZP 7    /* the output's zero point */
#define DMLI_IMM_BIAS 8   /* BiasTensor */
#define DMLI_IMM_OUT 9    /* OutputTensor */
#define DMLI_IMM_ROLES 10

/* Table: the output's four sizes {D0, D1, D2, D3} (a product: {batch, channel, M, N}; a
 * convolution: {N, Cout, OH, OW}), K (a product's), the convolution's geometry, then each
 * role's four element strides. A's strides walk {D0, D1, M, K} (a convolution's input {N, C,
 * H, W}), B's {D0, D1, K, N} (a filter's {Cout, Cin / groups, KH, KW}); every other role's walk
 * the output's coordinates {D0, D1, D2, D3} (0 where it broadcasts); then A's and B's extents. */
#define DMLI_IMM_D(i) (i)
#define DMLI_IMM_K 4
#define DMLI_IMM_CIN_G 5  /* input channels a group */
#define DMLI_IMM_COUT_G 6 /* output channels a group */
#define DMLI_IMM_IN_H 7
#define DMLI_IMM_IN_W 8
#define DMLI_IMM_K_H 9
#define DMLI_IMM_K_W 10
#define DMLI_IMM_STRIDE_H 11
#define DMLI_IMM_STRIDE_W 12
#define DMLI_IMM_DIL_H 13
#define DMLI_IMM_DIL_W 14
#define DMLI_IMM_PAD_H 15
#define DMLI_IMM_PAD_W 16
#define DMLI_IMM_STRIDE(role, d) (17 + 4 * (role) + (d))
/* A's and B's extents: their largest element offset + 1 (the blocks' whole-vector reads stay
 * below it). */
#define DMLI_IMM_EXTENT_A DMLI_IMM_STRIDE(DMLI_IMM_ROLES, 0)
#define DMLI_IMM_EXTENT_B (DMLI_IMM_EXTENT_A + 1)
/* intmm_conv_chan: a group's blocks of output channels. */
#define DMLI_IMM_CO_BLOCKS (DMLI_IMM_EXTENT_B + 1)
#define DMLI_IMM_TABLE (DMLI_IMM_CO_BLOCKS + 1)

/* Output kinds (macro OUT_KIND). */
#define DMLI_IMM_OUT_INT32 0 /* the sum itself */
#define DMLI_IMM_OUT_QUANT 1 /* requantized to INT8 or UINT8 */
#define DMLI_IMM_OUT_FLOAT 2 /* scaled to FLOAT32 or FLOAT16, + bias */

/* Output elements one work-item computes along D3. */
#define DMLI_IMM_BLOCK 4

#endif /* DMLI_INTMM_ABI_H */
