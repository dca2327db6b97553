/* SPDX-License-Identifier: MIT */
/*
 * ref_pool.h: the oracle for DirectML's pooling operators (MAX_POOLING, MAX_POOLING1,
 * MAX_POOLING2, AVERAGE_POOLING, AVERAGE_POOLING1, LP_POOLING, LP_POOLING1). Written from
 * DirectML's pages (a window of WindowSize positions per spatial axis, Strides apart, Dilations
 * between positions, StartPadding before the input) and the rules dmlcl documents where they
 * are silent (docs/operators.md#pooling); nothing from src/.
 *
 * Each output walks its whole window; a position outside the input is padding (never read).
 * Max pooling picks an element (its bytes copied): NaN only when the window holds nothing else,
 * +0 over -0, the first of equal maxima, its index the position in the input's Sizes read
 * row-major; an empty window gives the lowest value (-inf) and index 0. Average and LP sum in
 * double, divide (average: by the positions inside the input, or inside the padded input with
 * IncludePadding; 0 for none) or take the P-th root, and round once.
 */
#ifndef DMLCL_TESTS_REF_POOL_H
#define DMLCL_TESTS_REF_POOL_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_pool_op { REF_POOL_MAX, REF_POOL_AVERAGE, REF_POOL_LP } ref_pool_op;

typedef struct ref_pool_args {
    ref_pool_op op;
    uint32_t dims; /* spatial axes: 2 or 3 (the tensors' rank - 2) */
    uint32_t strides[3], window[3], start[3], end[3], dilations[3];
    bool include_padding; /* average */
    uint32_t p;           /* LP */
} ref_pool_args;

/* in and out of one type and rank (dims + 2), out's Sizes as given (floor or ceil_mode);
 * indices (max only, UINT32 or UINT64) NULL or of out's Sizes. False on a shape it cannot
 * take (nothing written). */
bool ref_pool(const ref_pool_args *a, const ref_tensor *in, const ref_tensor *out,
              const ref_tensor *indices);

/* The ULP tolerance of a float result: 0 for max; average window + 2 (reference/precision.md);
 * LP window + 2, + 3 for P 2 (sqrt), + 64 for other P (pow twice, 32 each). */
unsigned ref_pool_ulps(const ref_pool_args *a);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_POOL_H */
