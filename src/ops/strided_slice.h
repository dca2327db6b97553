/* SPDX-License-Identifier: MIT */
/*
 * The strided-slice rules shared by DMLCL_OPERATOR_STRIDED_SLICE and the
 * front-ends that lower onto it (OpenVINO StridedSlice-1, ONNX Slice-13):
 * begin/end/stride lists and masks resolved against an input shape into one
 * start, step and output position per input dimension. Pure host code.
 */
#ifndef DMLI_OPS_STRIDED_SLICE_H
#define DMLI_OPS_STRIDED_SLICE_H

#include "internal.h"

enum {
    DMLI_SS_BEGIN_MASK,
    DMLI_SS_END_MASK,
    DMLI_SS_NEW_AXIS_MASK,
    DMLI_SS_SHRINK_AXIS_MASK,
    DMLI_SS_ELLIPSIS_MASK,
    DMLI_SS_MASKS
};

/* How messages name things: the operator's fields or a framework's inputs. */
typedef struct dmli_ss_names {
    const char *op; /* "STRIDED_SLICE", "StridedSlice-1" */
    const char *begin, *end, *strides;
    const char *mask[DMLI_SS_MASKS];
} dmli_ss_names;

/* The lists, count entries each. strides NULL: all 1; a mask NULL: all 0. */
typedef struct dmli_ss_lists {
    uint32_t count;
    const int64_t *begin, *end, *strides;
    const UINT *mask[DMLI_SS_MASKS];
} dmli_ss_lists;

typedef struct dmli_ss_result {
    uint32_t in_rank, out_rank;
    uint64_t out_sizes[DMLI_MAX_RANK]; /* new axes are 1 */
    /* Per input dimension: */
    int64_t start[DMLI_MAX_RANK]; /* the first element taken (in the dimension when count > 0) */
    int64_t step[DMLI_MAX_RANK];  /* signed; 0 for a shrunk dimension */
    int out_dim[DMLI_MAX_RANK];   /* its output dimension, -1 when shrunk */
} dmli_ss_result;

/*
 * Checks the lists against an input of rank dims (mask values, one
 * ellipsis, entries that take input dimensions <= rank, nonzero strides on
 * slices, shrink indices inside their dimension; an output rank over
 * DMLI_MAX_RANK is unsupported) and resolves them. Every value is clamped
 * before any arithmetic, so no INT64 input overflows.
 */
HRESULT dmli_ss_resolve(const dmli_ss_names *names, uint32_t rank, const uint64_t *dims,
                        const dmli_ss_lists *lists, dmli_ss_result *r);

#endif /* DMLI_OPS_STRIDED_SLICE_H */
