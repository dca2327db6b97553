/* SPDX-License-Identifier: MIT */
/*
 * ref_reduce.h: the oracle for DML_OPERATOR_REDUCE (every DML_REDUCE_FUNCTION), ARGMIN and
 * ARGMAX. Written from DirectML's pages and the rules docs/operators.md states where they are
 * silent; nothing from src/ or cl/.
 *
 * Floating point: every value read as a double, the row folded in double (exact enough that
 * the result is the exact one rounded once), rounded once to the output type. MAX and MIN
 * ignore NaN (DirectML's MAX order, -0 below +0); ARGMAX and ARGMIN take the index of the
 * largest (smallest) value, NaN never winning over a number, -0 equal to +0, ties to the first
 * index (the last with index_last), an all-NaN row giving the first (last) index.
 * LOG_SUM_EXP: NaN if any is, +inf if any is, else m + log(sum exp(x - m)) with m the largest
 * finite value (-inf when there is none). Integers (SUM, MULTIPLY, MIN, MAX): exact in 64 bits,
 * wrapped into the output's width. An index counts the element's position in its row,
 * row-major over the reduced axes in dimension order.
 */
#ifndef DMLCL_TESTS_REF_REDUCE_H
#define DMLCL_TESTS_REF_REDUCE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "SUM", "ARGMAX", ... */
const char *ref_reduce_name(DML_REDUCE_FUNCTION f);
/* The function's input types (the DirectML page's table, feature level 3.0 and up). */
bool ref_reduce_takes(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type);

/*
 * out[c] = f over the row of in at c (the coordinates off `reduced`, which has in->rank
 * entries). out has in's rank and sizes, 1 on each reduced axis. bound, when not NULL,
 * receives per output element (row-major over out's sizes) an absolute error a float32
 * accumulation may make: see ref_reduce_ulps. False (nothing written) when the tensors do not
 * fit the function.
 */
bool ref_reduce(DML_REDUCE_FUNCTION f, const ref_tensor *in, const bool *reduced, bool index_last,
                const ref_tensor *out, double *bound);

/* The tolerance of a float output in its type's ULPs for a row of n elements
 * (reference/precision.md: reduce sum / mean N / N+2; the square's and sqrt's roundings
 * added; LOG_SUM, LOG_SUM_EXP within 1/1024 through the bound; MIN, MAX, ARG* exact). An
 * element also passes within ref_reduce's bound: where a signed sum cancels, N ULPs of the
 * result are less than the accumulation's error, which scales with the sum of |terms|. */
unsigned ref_reduce_ulps(DML_REDUCE_FUNCTION f, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_REDUCE_H */
