/* SPDX-License-Identifier: MIT */
/*
 * ref_generate.h: the oracle for DirectML's generators that read an element's position:
 * ONE_HOT, DIAGONAL_MATRIX and DIAGONAL_MATRIX1. Written from DirectML's operator pages and
 * the rules docs/operators.md states where they are silent; nothing from src/. Values are
 * copied as bytes (every value exact), indices read in 64 bits.
 */
#ifndef DMLCL_TESTS_REF_GENERATE_H
#define DMLCL_TESTS_REF_GENERATE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ONE_HOT: out[c] = OnValue where c[axis] equals the index indices[c with c[axis] = 0]
 * (INT32, UINT32, INT64 or UINT64; a signed type's negative index plus out's size along
 * axis), else OffValue. OffValue is values' element at coordinate 0, OnValue the one at
 * coordinate 1 along the last dimension of values of size above 1, other coordinates 0.
 * false when the shapes break the page's rules.
 */
bool ref_one_hot(const ref_tensor *indices, const ref_tensor *values, uint32_t axis,
                 const ref_tensor *out);

/*
 * DIAGONAL_MATRIX1 (DIAGONAL_MATRIX: begin = Offset, end = Offset + 1, value its FLOAT
 * converted): out[c] = value (its encoding) where the page's useValue = (end >= begin) ^
 * (t >= begin) ^ (t < end) holds for t = c[rank - 1] - c[rank - 2], else input[c] (input
 * not NULL) or 0. false when input's type or sizes are not out's.
 */
bool ref_diagonal_matrix(const ref_tensor *input, const void *value, int64_t begin, int64_t end,
                         const ref_tensor *out);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_GENERATE_H */
