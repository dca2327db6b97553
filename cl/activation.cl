/* SPDX-License-Identifier: MIT */
/*
 * Activations (src/internal.h dmli_act), pasted into the kernels that apply one: ACTIVATE(y)
 * of a COMPUTE_T value y and the activation's parameters g0, g1, g2 (alpha, beta, gamma as
 * the DirectML descriptor names them), by ACT; the identity when ACT is 0. OPs 96-127 of the
 * map family (activations that read more than their input) define F here too.
 */
#ifndef ACT
#define ACT 0
#endif

#if ACT == 0
#define ACTIVATE(y) (y)
#endif
