/* SPDX-License-Identifier: MIT */
/*
 * ref_scatter.h: the C reference for DirectML's SCATTER_ELEMENTS and SCATTER_ND, written from
 * their pages and dmlcl's rules where the pages are silent (docs/operators.md), independent of
 * src/:
 *
 *   ref_scatter_elements  output = input; then, for each updates coordinate c in row-major
 *                         order, output[c with c[axis] = indices[c]] = updates[c]
 *   ref_scatter_nd        output = input; then, for each index tuple t of the meaningful
 *                         IndicesTensor dimensions but the last (row-major), and each
 *                         coordinate e of the input's dimensions after the tuple's m (row-major),
 *                         output[pad, indices[t, 0..m), e] = updates[t, e] (right-aligned)
 *
 * An index resolves as the DirectML gathers' (ref_gather_index: a negative value of a signed
 * type counts from the end of its axis, then it is clamped into the axis). Updates written in
 * the updates' row-major order, each over the one before: where two name one element, the later
 * one stays. Plain loops copying element bytes; the output view is written at its logical
 * elements only. They return false (writing nothing) when the shapes do not fit.
 */
#ifndef DMLCL_TESTS_REF_SCATTER_H
#define DMLCL_TESTS_REF_SCATTER_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* All four views of one rank; the indices' and the updates' sizes equal, the input's and the
 * output's equal, and the indices' the input's off axis. */
bool ref_scatter_elements(const ref_tensor *input, const ref_tensor *indices,
                          const ref_tensor *updates, const ref_tensor *output, uint32_t axis);

/* All four views of one rank (DirectML's descriptors), input_dims and indices_dims the
 * meaningful trailing dimensions (InputDimensionCount, IndicesDimensionCount). */
bool ref_scatter_nd(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *updates,
                    const ref_tensor *output, uint32_t input_dims, uint32_t indices_dims);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_SCATTER_H */
