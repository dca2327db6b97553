/* SPDX-License-Identifier: MIT */
/*
 * ref_gather_ext.h: the C reference for the gathers beyond DML_GATHER,
 * written from the specifications (OpenVINO Gather-8, ONNX Gather-1/11/13,
 * directml-facts.md 4.5-4.7, dmlcl/ext_gather.h), independent of src/.
 *
 *   ref_gather1          output[p_<axis, i_b.., p_>axis] =
 *                            input[p_<axis, indices[p_<b, i_b..], p_>axis]
 *   ref_gather_elements  output[c] = input[c with c[axis] = indices[c]]
 *   ref_gather_nd        output[batch, i, t] = input[batch, indices[batch, i, 0..m), t]
 *
 * Plain loops over output coordinates copying element bytes. Index values
 * are read at any integer width; a negative value of a signed type counts
 * from the end of its axis when allowed; what is still outside the axis is
 * clamped into it (CLAMP, dmlcl's choice for DirectML), or gives a zero
 * element (ZERO, ERROR). Under ERROR *bad receives the smallest position
 * (row-major, in the indices tensor's logical elements) of an offending index
 * element, or -1; every index element is checked, even when the output is
 * empty.
 */
#ifndef DMLCL_TESTS_REF_GATHER_EXT_H
#define DMLCL_TESTS_REF_GATHER_EXT_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_policy { REF_CLAMP, REF_ZERO, REF_ERROR } ref_policy;

/* An index element's value, sign-extended (signed types) or zero-extended. */
typedef struct ref_index {
    bool is_signed;
    int64_t s;  /* the value, when signed */
    uint64_t u; /* the value, when unsigned */
} ref_index;

ref_index ref_index_read(DML_TENSOR_DATA_TYPE type, const void *raw);

/*
 * The element along an axis of axis_size an index selects: *row, or false
 * when it is out of range after wrapping (row then holds the clamped row,
 * meaningful only when axis_size > 0).
 */
bool ref_index_resolve(ref_index v, uint32_t axis_size, bool wrap_negative, uint32_t *row);

/*
 * Gather along axis with batch_dims leading batch dims. The indices view's
 * rank is the framework's indices rank (0 for a scalar); the output view's
 * rank is input rank - 1 + indices rank - batch_dims. Returns false when the
 * shapes do not fit (writing nothing).
 */
bool ref_gather1(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                 uint32_t axis, uint32_t batch_dims, ref_policy policy, bool wrap_negative,
                 int64_t *bad);

/* GATHER_ELEMENTS: all three views of one rank; output sizes = indices sizes. */
bool ref_gather_elements(const ref_tensor *input, const ref_tensor *indices,
                         const ref_tensor *output, uint32_t axis, ref_policy policy, int64_t *bad);

/*
 * GATHER_ND on the meaningful dims (views of ranks r and q, the output of
 * rank q - 1 + r - batch - m where m = the indices' last size).
 */
bool ref_gather_nd(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                   uint32_t batch_dims, ref_policy policy, int64_t *bad);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_GATHER_EXT_H */
