/* SPDX-License-Identifier: MIT */
/*
 * The recurrent family's kernel ABI (cl/rnn.cl, src/launch_rnn.c): the tensors' roles, which
 * are also the kernel's tensor arguments in order, and the table's layout. Shared by the host
 * and the kernel.
 */
#ifndef DMLI_RNN_ABI_H
#define DMLI_RNN_ABI_H

/* Roles (the kernel's tensor arguments, in this order; an absent one is bound to X, unread). */
#define DMLI_RNN_X 0   /* InputTensor {1, seq, batch, input} */
#define DMLI_RNN_W 1   /* WeightTensor {1, dirs, gates * hidden, input} */
#define DMLI_RNN_R 2   /* RecurrenceTensor {1, dirs, gates * hidden, hidden} */
#define DMLI_RNN_B 3   /* BiasTensor {1, 1, dirs, 2 * gates * hidden} */
#define DMLI_RNN_H0 4  /* HiddenInitTensor {1, dirs, batch, hidden} */
#define DMLI_RNN_C0 5  /* CellMemInitTensor (LSTM) {1, dirs, batch, hidden} */
#define DMLI_RNN_LEN 6 /* SequenceLengthsTensor {1, 1, 1, batch} UINT32 */
#define DMLI_RNN_P 7   /* PeepholeTensor (LSTM) {1, 1, dirs, 3 * hidden} */
#define DMLI_RNN_Y 8   /* OutputSequenceTensor {seq, dirs, batch, hidden} */
#define DMLI_RNN_YH 9  /* OutputSingleTensor {1, dirs, batch, hidden} */
#define DMLI_RNN_YC 10 /* OutputCellSingleTensor (LSTM) {1, dirs, batch, hidden} */
#define DMLI_RNN_ROLES 11

/* Table: the sizes, each role's four element strides, the activations' parameters (float
 * bits; activation i = direction * NACT + k, its g0..g2), ClipThreshold (float bits). */
#define DMLI_RNN_SEQ 0
#define DMLI_RNN_BATCH 1
#define DMLI_RNN_INPUT 2
#define DMLI_RNN_HIDDEN 3
#define DMLI_RNN_STRIDE(role, d) (4 + 4 * (role) + (d))
#define DMLI_RNN_ACT_PARAM(i, k) (4 + 4 * DMLI_RNN_ROLES + 3 * (i) + (k))
#define DMLI_RNN_MAX_ACTS 6
#define DMLI_RNN_CLIP DMLI_RNN_ACT_PARAM(DMLI_RNN_MAX_ACTS, 0)
#define DMLI_RNN_TABLE (DMLI_RNN_CLIP + 1)

#endif /* DMLI_RNN_ABI_H */
