/* SPDX-License-Identifier: MIT */
/*
 * ref_batch_norm.h: the oracle for DirectML's BATCH_NORMALIZATION (inference). Written from
 * DirectML's page (Output = act(Scale * (Input - Mean) / sqrt(Variance + Epsilon) + Bias), each
 * statistic of size 1 or the input's per dimension); nothing from src/.
 *
 * Each value read as a double, the formula computed in double (Epsilon a float, as DirectML's
 * FLOAT) and rounded once to the output type; with a fused activation, the formula's result is
 * rounded to FLOAT32 first (DirectML computes in FLOAT32, and the activation applies to that
 * result, as ADD1's), the activation computed in double (ref_act_real) and rounded once.
 * Tolerance: 6 ULP (reference/precision.md), plus the activation's own where one is fused.
 */
#ifndef DMLCL_TESTS_REF_BATCH_NORM_H
#define DMLCL_TESTS_REF_BATCH_NORM_H

#include "ref.h"
#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The formula on one element, in double (no activation). */
double ref_batch_norm_real(double x, double mean, double var, double scale, double bias,
                           double eps);

/*
 * out[c] = act(scale[c'] * (in[c] - mean[c']) / sqrt(var[c'] + eps) + bias[c']), c' being c
 * with 0 wherever the statistic's size is 1. FLOAT32 or FLOAT16 tensors of one type and rank;
 * out has in's sizes; each statistic's size 1 or in's (false otherwise, nothing written).
 * act REF_ACT_NONE: no activation; p its parameters.
 */
bool ref_batch_norm(const ref_tensor *in, const ref_tensor *mean, const ref_tensor *var,
                    const ref_tensor *scale, const ref_tensor *bias, double eps, ref_act act,
                    const double *p, const ref_tensor *out);

/* 6 (reference/precision.md). */
unsigned ref_batch_norm_ulps(void);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_BATCH_NORM_H */
