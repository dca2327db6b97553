/* SPDX-License-Identifier: MIT */
/*
 * ref_scan.h: the oracle for DirectML's CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT, TOP_K and
 * TOP_K1. Written from DirectML's pages and the rules dmlcl documents where they are silent
 * (docs/operators.md); nothing from src/.
 *
 * Scans: floats summed (multiplied) exactly in double along the sequence and rounded once to
 * the output type; the error bound a float32 scan may carry comes beside (n the elements
 * combined: sum n 2^-24 sum |x|, product n 2^-24 |p| plus n subnormal steps). Integers: modulo
 * 2^64, then wrapped into the output's width (two's complement).
 * TOP_K: each sequence ranked by value (descending for the largest, ascending for the
 * smallest), equal values by ascending index; NaN above every number (first among the largest,
 * last among the smallest); -0 equal to +0. Values copied bit-exact.
 */
#ifndef DMLCL_TESTS_REF_SCAN_H
#define DMLCL_TESTS_REF_SCAN_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out[c] = the running sum (product) of in along axis up to c[axis] (exclusive: before it;
 * reverse: from the sequence's end). in and out of one type, rank and sizes (false otherwise,
 * nothing written). bound (may be NULL): for each output element in row-major logical order,
 * the absolute error a float32 scan in any order may carry (0 for integers).
 */
bool ref_cumulative(bool product, const ref_tensor *in, const ref_tensor *out, uint32_t axis,
                    bool reverse, bool exclusive, double *bound);

/*
 * values[.., r, ..] and indices[.., r, ..] (r < k along axis): the r-th of in's sequence by
 * rank (smallest: ascending, else descending; ties by index). values of in's type, indices
 * UINT32 or UINT64, both of in's sizes with axis's replaced by k (false otherwise).
 */
bool ref_top_k(const ref_tensor *in, const ref_tensor *values, const ref_tensor *indices,
               uint32_t axis, uint32_t k, bool smallest);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_SCAN_H */
