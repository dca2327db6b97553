/* SPDX-License-Identifier: MIT */
/*
 * ref_misc.h: the oracle for NONZERO_COORDINATES, REVERSE_SUBSEQUENCES, MAX_UNPOOLING and
 * RANDOM_GENERATOR (PHILOX_4X32_10). Written from DirectML's operator pages, Salmon et al.'s
 * Philox paper (checked against Random123's known-answer vectors in tests/unit/ref_misc_oracle.c)
 * and the rules docs/operators.md states where the pages are silent; nothing from src/ or cl/.
 * Values are copied as bytes; indices and lengths read in 64 bits.
 */
#ifndef DMLCL_TESTS_REF_MISC_H
#define DMLCL_TESTS_REF_MISC_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Philox-4x32-10 of counter ctr (ctr[0] its least significant word) under key: out. */
void ref_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/*
 * RANDOM_GENERATOR: out's element e in row-major order (UINT32) is word e % 4 of Philox of the
 * counter state[0..3] (little-endian 128-bit) plus e / 4 under the key state[4..5]; next (when
 * not NULL) the counter plus ceil(elements / 4), then the key.
 */
bool ref_random_generator(const uint32_t state[6], const ref_tensor *out, uint32_t next[6]);

/*
 * NONZERO_COORDINATES: the number of input elements that are not zero (floats: +0.0 and -0.0
 * zero; NaN not), and for the k-th of them in row-major order row k of coords (UINT32, its
 * last two dimensions {M, N}): the element's last N coordinates. Rows past the count are not
 * written. false when the shapes break the page's rules.
 */
bool ref_nonzero_coordinates(const ref_tensor *input, uint32_t *count, const ref_tensor *coords);

/*
 * REVERSE_SUBSEQUENCES: out[c] = in[c'] where c' is c but along axis: L - 1 - c[axis] when
 * c[axis] < L, L the length at c (lengths' coordinate along axis 0; UINT32, UINT64, INT32 or
 * INT64; clamped into [0, size along axis]).
 */
bool ref_reverse_subsequences(const ref_tensor *input, const ref_tensor *lengths, uint32_t axis,
                              const ref_tensor *out);

/*
 * MAX_UNPOOLING: out all zero bytes, then for each input element in row-major order whose
 * index (UINT32 or UINT64) is below out's element count, out's element at that row-major
 * position takes the input's bytes (the last one wins).
 */
bool ref_max_unpooling(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *out);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_MISC_H */
