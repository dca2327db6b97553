/* SPDX-License-Identifier: MIT */
/*
 * The recurrent family's description (cl/rnn.cl): what src/ops/recurrent.c lowers RNN, GRU and
 * LSTM to, and what src/launch_rnn.c turns into a kernel's options, table and grid.
 */
#ifndef DMLI_RNN_H
#define DMLI_RNN_H

#include "../cl/rnn_abi.h"
#include "internal.h"

typedef enum dmli_rnn_cell {
    DMLI_RNN_CELL_SIMPLE = 0, /* RNN: one gate */
    DMLI_RNN_CELL_GRU = 1,    /* z, r, h */
    DMLI_RNN_CELL_LSTM = 2,   /* i, o, f, c */
} dmli_rnn_cell;

/* An activation and its parameters (g0, g1, g2 as dmli_act names them): the operators' own
 * activation descriptions, as the family's core layer keeps them. */
typedef struct dmli_rnn_act {
    dmli_act act;
    double param[3];
} dmli_rnn_act;

typedef struct dmli_rnn {
    dmli_rnn_cell cell;
    DML_TENSOR_DATA_TYPE type; /* every float tensor's: FLOAT32 or FLOAT16 */
    int64_t seq, batch, input, hidden;
    uint32_t directions; /* 1 or 2 */
    bool backward;       /* one direction, DML_RECURRENT_NETWORK_DIRECTION_BACKWARD */
    uint32_t acts;       /* activations per direction: 1 (RNN), 2 (GRU), 3 (LSTM) */
    dmli_rnn_act act[DMLI_RNN_MAX_ACTS];
    bool present[DMLI_RNN_ROLES];
    int64_t stride[DMLI_RNN_ROLES][4];
    bool linear_before_reset; /* GRU */
    bool clip, couple;        /* LSTM: UseClipThreshold, CoupleInputForget */
    float clip_threshold;
} dmli_rnn;

/* The local memory one work-group of the kernel takes (its hidden-state bucket), in bytes. */
uint64_t dmli_rnn_local_bytes(const dmli_rnn *r, uint32_t *bucket);

#endif /* DMLI_RNN_H */
