/* SPDX-License-Identifier: MIT */
/*
 * The matrix family's description (internal.h dmli_compute, kind DMLI_COMPUTE_GEMM), written
 * by GEMM's lower (ops/gemm.c) and launched by launch_gemm.c (cl/gemm.cl):
 *   out[b, m, n] = act(alpha * sum_k A[b, m, k] * B[b, k, n] + beta * C[b, m, n])
 * for every batch coordinate b, each tensor read or written through its own strides (a
 * transposed operand is a stride swap; a broadcast one a stride of 0). The compute tensors are
 * A, B, C (A again when there is no C: never read) and the output, in that order.
 */
#ifndef DMLI_GEMM_H
#define DMLI_GEMM_H

#include "internal.h"

#define DMLI_GEMM_MAX_BATCH (DMLI_MAX_RANK - 2)

typedef struct dmli_gemm {
    DML_TENSOR_DATA_TYPE type; /* every tensor's (FLOAT32 or FLOAT16) */
    int64_t m, n, k;
    int64_t a_m, a_k, b_k, b_n, c_m, c_n, o_m, o_n; /* strides, in elements */
    /* B's columns in groups (launch_gemm.c fold_n: a batch dimension joined to n where only B
     * moves along it differently): column j at (j / b_nl) * b_nh + (j % b_nl) * b_n. b_nl 0:
     * one group (every lower's). Only gemm_pack_b reads B so. */
    int64_t b_nl, b_nh;
    int batch_rank;                     /* batch dimensions (size > 1 only) */
    int64_t batch[DMLI_GEMM_MAX_BATCH]; /* outermost first */
    int64_t a_b[DMLI_GEMM_MAX_BATCH], b_b[DMLI_GEMM_MAX_BATCH], c_b[DMLI_GEMM_MAX_BATCH],
        o_b[DMLI_GEMM_MAX_BATCH];
    bool has_c;
    /* Where each stride came from (dimension indices of the operator's tensors, rank `rank`),
     * so that a graph can give an input new strides (dmli_compute_restride): A's along m and
     * k, B's along k and n, C's along m and n, and each batch dimension's. */
    int rank;
    int a_dim[2], b_dim[2];
    int batch_dim[DMLI_GEMM_MAX_BATCH];
    double alpha, beta;
    dmli_act act;
    double act_param[3]; /* g0, g1, g2 */
    /* FusedActivation ACTIVATION_SOFTMAX or SOFTMAX1 (feature level 6.1): the output's rows
     * normalised after the product, by a second step that reads and writes the output in
     * place (program.c); the rows are the dimensions marked here: the batch dimensions' (in
     * batch order), then m's and n's. */
    bool softmax;
    bool softmax_batch[DMLI_GEMM_MAX_BATCH], softmax_m, softmax_n;
} dmli_gemm;

#endif /* DMLI_GEMM_H */
