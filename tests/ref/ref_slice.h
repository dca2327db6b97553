/* SPDX-License-Identifier: MIT */
/*
 * ref_slice.h: the oracle for DML_SLICE, DML_SLICE1 and DMLCL_STRIDED_SLICE
 * (OpenVINO StridedSlice-1). Written from directml-facts.md 4.8-4.9 and the
 * StridedSlice-1 specification (with the corrections its conformance cases
 * record); nothing from src/. The strided slice walks each dimension the way
 * the specification describes (slicing_index from begin, stepping by stride
 * while it has not passed end) instead of using a closed formula.
 */
#ifndef DMLCL_TESTS_REF_SLICE_H
#define DMLCL_TESTS_REF_SLICE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DML_SLICE: output[o] = input[offsets + strides * o]; false if a read leaves the input. */
bool ref_slice(const ref_tensor *input, const ref_tensor *output, const uint32_t *offsets,
               const uint32_t *strides);

/*
 * DML_SLICE1: the window [offsets, offsets + sizes) per dimension, read from
 * its first element (last when the stride is negative) by strides; the
 * output takes its first output->sizes[i] elements. False when the window or
 * the output leaves the input.
 */
bool ref_slice1(const ref_tensor *input, const ref_tensor *output, const uint32_t *offsets,
                const uint32_t *sizes, const int32_t *strides);

/* StridedSlice lists: count entries; strides NULL = 1; a mask NULL = all 0. */
typedef struct ref_ss_lists {
    uint32_t count;
    const int64_t *begin, *end, *strides;
    const uint32_t *begin_mask, *end_mask, *new_axis_mask, *shrink_axis_mask, *ellipsis_mask;
} ref_ss_lists;

/*
 * The output shape of slicing an input of rank dims (out_rank may be 0, then
 * one element). Returns false, with the broken rule in why (may be NULL),
 * for: a mask value other than 0/1, two ellipses, more entries taking input
 * dimensions than there are, stride 0 on a slice, a shrink index outside its
 * dimension (or element 0 of an empty one), an output rank over 16.
 */
bool ref_strided_slice_shape(uint32_t rank, const uint32_t *dims, const ref_ss_lists *lists,
                             uint32_t *out_rank, uint32_t *out_sizes, const char **why);

/*
 * output = input sliced by lists. output's rank is the shape's out_rank (1
 * with size 1 when that is 0). Returns false (nothing written) when the
 * lists are invalid or the output's sizes differ.
 */
bool ref_strided_slice(const ref_tensor *input, const ref_tensor *output,
                       const ref_ss_lists *lists);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_SLICE_H */
