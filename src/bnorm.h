/* SPDX-License-Identifier: MIT */
/*
 * The batch-normalization training family's description (internal.h dmli_compute, kind
 * DMLI_COMPUTE_BNORM), written by ops/batch_norm_training.c and launched by launch_bnorm.c
 * (cl/bnorm.cl): one work-group per channel, a fixed tree of compensated float sums.
 */
#ifndef DMLI_BNORM_H
#define DMLI_BNORM_H

#include "../cl/bnorm_abi.h"
#include "internal.h"

typedef enum dmli_bnorm_kind {
    DMLI_BNORM_TRAINING,      /* bn_training */
    DMLI_BNORM_GRAD,          /* bn_grad */
    DMLI_BNORM_TRAINING_GRAD, /* bn_grad, TRAINING 1 */
} dmli_bnorm_kind;

typedef struct dmli_bnorm {
    dmli_bnorm_kind kind;
    bool half;    /* FLOAT16 tensors (else FLOAT32) */
    bool has_add; /* BATCH_NORMALIZATION_TRAINING's FusedAddTensor */
    dmli_act act; /* its fused activation (DMLI_ACT_NONE: none) */
    double act_param[3];
    double epsilon;
    int64_t channels, reduced; /* the statistics' elements; the input's per channel */
    uint32_t rank;
    int64_t csize[DMLI_BN_DIMS], rsize[DMLI_BN_DIMS];
    int64_t stride[DMLI_BN_ROLES][DMLI_BN_DIMS]; /* per role (cl/bnorm_abi.h), elements */
} dmli_bnorm;

#endif /* DMLI_BNORM_H */
