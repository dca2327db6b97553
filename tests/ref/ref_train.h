/* SPDX-License-Identifier: MIT */
/*
 * ref_train.h: oracles for DirectML's LOCAL_RESPONSE_NORMALIZATION_GRAD and ADAM_OPTIMIZER,
 * written from the pages and calculus, nothing from src/ or cl/. Values are doubles in packed
 * {N, C, H, W} order (the tests convert to and from the tensors' types and layouts).
 *
 * LRN_GRAD differentiates the forward as ref_lrn.h defines it (D_i = bias + alpha / n * S_i,
 * S_i the squares over i's window, Y_i = X_i * D_i^-beta; the window from p - floor((n - 1) / 2)
 * to p + ceil((n - 1) / 2), clipped; channels, or n x n over H and W):
 *
 *   dX_j = sum_i dY_i * dY_i/dX_j = dY_j * D_j^-beta
 *          - 2 * alpha * beta / n * X_j * sum over i with j in window(i) of dY_i X_i D_i^(-beta-1)
 *
 * found here by testing, for every i, whether j lies in i's window (no mirrored range).
 *
 * ADAM: the page's pseudo-code line by line, in double.
 */
#ifndef DMLCL_TESTS_REF_TRAIN_H
#define DMLCL_TESTS_REF_TRAIN_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dx and, when scale is not NULL, each element's magnitude for the tolerance:
 * |dY_j D_j^-beta| + 2 |alpha beta / n| |X_j| sum |dY_i X_i D_i^(-beta-1)|. */
void ref_lrn_grad(const uint32_t sizes[4], const double *x, const double *dy, bool cross_channel,
                  uint32_t local_size, double alpha, double beta, double bias, double *dx,
                  double *scale);

/* The forward in double on packed data (for the finite differences). */
void ref_lrn_forward(const uint32_t sizes[4], const double *x, bool cross_channel,
                     uint32_t local_size, double alpha, double beta, double bias, double *y);

/* One Adam step over count elements; step the training step T. */
void ref_adam(uint64_t count, const double *x, const double *m, const double *v, const double *g,
              double step, double lr, double beta1, double beta2, double epsilon, double *x_out,
              double *m_out, double *v_out);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_TRAIN_H */
