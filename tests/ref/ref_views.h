/* SPDX-License-Identifier: MIT */
/*
 * ref_views.h: the oracle for the views: DML_OPERATOR_TILE and the framework
 * tiles (OpenVINO Tile-1, ONNX Tile-13), transposes (OpenVINO Transpose-1,
 * ONNX Transpose-13) and OpenVINO Reverse-1. Written from the operator pages
 * (DML_TILE_OPERATOR_DESC, the OpenVINO and ONNX specifications); nothing
 * from src/. Each copy is a loop over output coordinates computing the input
 * coordinate the definition names (a remainder for the tile, the permuted
 * coordinate, the mirrored one), unlike the library's split dimensions and
 * strides.
 */
#ifndef DMLCL_TESTS_REF_VIEWS_H
#define DMLCL_TESTS_REF_VIEWS_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * output[o] = input[o mod input.sizes], per dimension. False (nothing
 * written) unless the ranks and types match and every output size is a
 * multiple of the input's (0 copies of anything, or copies of nothing, are
 * 0).
 */
bool ref_tile(const ref_tensor *input, const ref_tensor *output);

/* output[o] = input[c] with c[perm[k]] = o[k]; false unless output has the permuted sizes. */
bool ref_transpose(const ref_tensor *input, const ref_tensor *output, const uint32_t *perm);

/* output[o] = input[c], c[d] = n[d] - 1 - o[d] where reversed[d], else o[d]; same sizes. */
bool ref_reverse(const ref_tensor *input, const ref_tensor *output, const bool *reversed);

/*
 * The framework rules. Each returns false with the broken rule in why (may
 * be NULL), else the output shape (or the axes).
 *
 * Tile: same_length (ONNX) requires as many repeats as dimensions, each
 * >= 0; else (OpenVINO) the shorter list is promoted with leading 1s and a
 * negative repeat is 0 copies (its shape inference's reading).
 * The promoted input shape goes to in_dims (out_rank entries); an output
 * dimension beyond INT64_MAX reads INT64_MAX.
 */
bool ref_tile_shape(uint32_t rank, const int64_t *dims, uint32_t count, const int64_t *repeats,
                    bool same_length, uint32_t *out_rank, int64_t *in_dims, int64_t *out_dims,
                    const char **why);

/* Transpose: order has rank entries, a permutation of [0, rank), or none (reversed). */
bool ref_transpose_order(uint32_t rank, uint32_t count, const int64_t *order, uint32_t *perm,
                         const char **why);

/*
 * Reverse-1: index mode (count <= rank values in [-rank, rank)) or mask mode
 * (count == rank flags, nonzero reverses).
 */
bool ref_reverse_axes(uint32_t rank, bool mask_mode, uint32_t count, const int64_t *axis,
                      bool *reversed, const char **why);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_VIEWS_H */
