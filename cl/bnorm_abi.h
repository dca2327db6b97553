/* SPDX-License-Identifier: MIT */
/*
 * The batch-normalization training family's kernel ABI (cl/bnorm.cl, src/launch_bnorm.c): the
 * table's layout, shared by the host and the kernel.
 *
 * The channels' count (the statistics' elements, one work-group each), the elements reduced per
 * channel, the rank, Epsilon's float bits, the fused activation's three parameters (float bits),
 * then per dimension d (outermost first) the channel extent (the statistics' size there) and the
 * reduced extent (the input's size where the statistics' is 1, else 1), then per tensor role r
 * its element stride along each dimension. A role's coordinate along d is the channel's plus the
 * reduced one (one of them is 0), so one sum serves the input-shaped and the statistics-shaped
 * tensors alike.
 */
#ifndef DMLI_BNORM_ABI_H
#define DMLI_BNORM_ABI_H

#define DMLI_BN_DIMS 8
#define DMLI_BN_ROLES 8

#define DMLI_BN_CHANNELS 0
#define DMLI_BN_REDUCED 1
#define DMLI_BN_RANK 2
#define DMLI_BN_EPS 3
#define DMLI_BN_ACT(i) (4 + (i))
#define DMLI_BN_CSIZE(d) (7 + 2 * (d))
#define DMLI_BN_RSIZE(d) (8 + 2 * (d))
#define DMLI_BN_STRIDE(r, d) (7 + 2 * DMLI_BN_DIMS + DMLI_BN_DIMS * (r) + (d))
#define DMLI_BN_TABLE DMLI_BN_STRIDE(DMLI_BN_ROLES, 0)

/*
 * The roles, in the kernels' argument order.
 * BATCH_NORMALIZATION_TRAINING: InputTensor, ScaleTensor, BiasTensor, FusedAddTensor (when
 * present), OutputTensor, OutputMeanTensor, OutputVarianceTensor.
 * BATCH_NORMALIZATION_GRAD and _TRAINING_GRAD: InputTensor, InputGradientTensor, MeanTensor,
 * VarianceTensor, ScaleTensor, OutputGradientTensor, OutputScaleGradientTensor,
 * OutputBiasGradientTensor.
 */
#define DMLI_BN_T_X 0
#define DMLI_BN_T_SCALE 1
#define DMLI_BN_T_BIAS 2
#define DMLI_BN_T_ADD 3
#define DMLI_BN_T_Y 4
#define DMLI_BN_T_MEAN 5
#define DMLI_BN_T_VAR 6

#define DMLI_BN_G_X 0
#define DMLI_BN_G_DY 1
#define DMLI_BN_G_MEAN 2
#define DMLI_BN_G_VAR 3
#define DMLI_BN_G_SCALE 4
#define DMLI_BN_G_DX 5
#define DMLI_BN_G_DSCALE 6
#define DMLI_BN_G_DBIAS 7

#endif /* DMLI_BNORM_ABI_H */
