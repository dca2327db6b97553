/* SPDX-License-Identifier: MIT */
/*
 * ref_gemm.h: the oracle for DirectML's GEMM. Written from DirectML's page (Output =
 * FusedActivation(Alpha * TransA(A) x TransB(B) + Beta * C), one product per batch
 * coordinate); nothing from src/.
 *
 * Each product and sum in double (exact for FLOAT16 inputs and for K up to 2^29 float32
 * products of small exponent range; otherwise within a double rounding per term, far below
 * the tolerance), alpha * sum + beta * C in double, rounded once to the output type; with a
 * fused activation the value is rounded to FLOAT32 first (DirectML computes in float32 and
 * activates that result, as ADD1's), the activation computed in double and rounded once.
 *
 * Tolerance (reference/precision.md): 2·K ULP, +1 for alpha, +1 for C; where the sum cancels,
 * an absolute bound instead: 2·K·2^-24·|alpha|·Σ|a·b| + 2^-24·|beta·c| (float32 accumulation,
 * K roundings of partial sums and products), returned per element.
 */
#ifndef DMLCL_TESTS_REF_GEMM_H
#define DMLCL_TESTS_REF_GEMM_H

#include "ref.h"
#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out[b..., m, n] = act(alpha * sum_k A'[b..., m, k] B'[b..., k, n] + beta * C[b..., m, n]),
 * A' = A or its transpose over the two innermost dimensions (trans_a), B' likewise; c NULL: no
 * C. FLOAT32 or FLOAT16 tensors of one type and rank (>= 2), sizes as DirectML's page states
 * (false otherwise, nothing written). bound (NULL or one per output element, row-major over
 * the output's sizes): the absolute accumulation bound above. act REF_ACT_NONE: none.
 */
bool ref_gemm(const ref_tensor *a, const ref_tensor *b, const ref_tensor *c, bool trans_a,
              bool trans_b, double alpha, double beta, ref_act act, const double *p,
              const ref_tensor *out, double *bound);

/* 2·K ULP, +1 for alpha (when not 1), +1 for C (when present). */
unsigned ref_gemm_ulps(uint64_t k, bool alpha, bool has_c);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_GEMM_H */
