/* SPDX-License-Identifier: MIT */
/*
 * ref_rnn.h: the oracle for DirectML's recurrent layers (RNN, GRU, LSTM), written from their
 * pages and ONNX's definitions of the same layers (gate orders GRU z, r, h; LSTM i, o, f, c;
 * peepholes i, o, f); nothing from src/. Every value in double, the state carried in double.
 * Arrays are packed in the operators' layouts (docs/operators.md):
 *   x {seq, batch, input}, w {dirs, gates * hidden, input}, r {dirs, gates * hidden, hidden},
 *   b {dirs, 2 * gates * hidden}, h0 and c0 {dirs, batch, hidden}, len {batch},
 *   p {dirs, 3 * hidden}, y {seq, dirs, batch, hidden}, yh and yc {dirs, batch, hidden};
 * NULL for an absent one.
 */
#ifndef DMLCL_TESTS_REF_RNN_H
#define DMLCL_TESTS_REF_RNN_H

#include <stdbool.h>
#include <stdint.h>

#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_rnn_cell { REF_RNN_SIMPLE, REF_RNN_GRU, REF_RNN_LSTM } ref_rnn_cell;

typedef struct ref_rnn_desc {
    ref_rnn_cell cell;
    uint32_t seq, batch, input, hidden;
    uint32_t directions; /* 1 or 2 */
    bool backward;       /* one direction, run backward */
    /* Direction d's activation k: act[d * per_direction + k] (RNN f; GRU f, g; LSTM f, g, h). */
    ref_act act[6];
    double param[6][3];
    bool linear_before_reset; /* GRU */
    bool clip, couple;        /* LSTM */
    double clip_threshold;
} ref_rnn_desc;

/* Gates (1, 3, 4) and activations per direction (1, 2, 3) of a cell. */
uint32_t ref_rnn_gates(ref_rnn_cell cell);
uint32_t ref_rnn_acts(ref_rnn_cell cell);

/* Runs the layer; y, yh, yc written where not NULL. A len entry above seq counts as seq. */
void ref_rnn(const ref_rnn_desc *d, const double *x, const double *w, const double *r,
             const double *b, const double *h0, const double *c0, const uint32_t *len,
             const double *p, double *y, double *yh, double *yc);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_RNN_H */
