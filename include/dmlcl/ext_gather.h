/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/ext_gather.h: gathers DirectML lacks, in DirectML's style. Included
 * by dmlcl/extensions.h.
 *
 * DMLCL_OPERATOR_GATHER1: a gather along one axis with BatchDimensionCount
 * (OpenVINO Gather-8, ONNX Gather-1/11/13) and an explicit out-of-range
 * policy. DMLCL_OPERATOR_GATHER_ELEMENTS1 and DMLCL_OPERATOR_GATHER_ND2:
 * DML_GATHER_ELEMENTS and DML_GATHER_ND1 with the same policy (ONNX
 * GatherElements-13 and GatherND-13).
 *
 * All three take the extension tensor rules: every movable data type
 * (BOOLEAN, BFLOAT16, COMPLEX64/128 included), DimensionCount up to
 * DMLCL_TENSOR_DIMENSION_COUNT_MAX, and 0 sizes (an empty output is valid
 * and launches nothing). Indices may be any integer type of 8 to 64 bits.
 */
#ifndef DMLCL_EXT_GATHER_H
#define DMLCL_EXT_GATHER_H

#include "dmlcl/extensions.h" /* DMLCL_OPERATOR_TYPE_BASE */

#ifdef __cplusplus
extern "C" {
#endif

/* The gather family's extension types beyond DMLCL_OPERATOR_GATHER1. */
#define DMLCL_OPERATOR_GATHER_ELEMENTS1 ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 0x11))
#define DMLCL_OPERATOR_GATHER_ND2 ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 0x12))

/* What an index outside its axis does (after negative indices are wrapped). */
typedef enum DMLCL_OUT_OF_RANGE_POLICY {
    /* DirectML: the read is clamped inside the axis (the output is unspecified). */
    DMLCL_OUT_OF_RANGE_POLICY_CLAMP = 0,
    /* OpenVINO Gather-8: the gathered elements are zeros. */
    DMLCL_OUT_OF_RANGE_POLICY_ZERO = 1,
    /*
     * ONNX: the gathered elements are zeros and the dispatch reports
     * DMLCL_E_INDEX_OUT_OF_RANGE (dmlcl_binding_table_status,
     * dmlcl_compiled_operator_execute), naming the first offending index: its
     * position in IndicesTensor and its value.
     */
    DMLCL_OUT_OF_RANGE_POLICY_ERROR = 2,
} DMLCL_OUT_OF_RANGE_POLICY;

/*
 * output[p_0..p_{Axis-1}, i_b..i_{q-1}, p_{Axis+1}..p_{r-1}] =
 *     input[p_0..p_{Axis-1}, indices[p_0..p_{b-1}, i_b..i_{q-1}], p_{Axis+1}..p_{r-1}]
 *
 * r = InputTensor.DimensionCount, q = IndexDimensions, b = BatchDimensionCount.
 * - IndicesTensor: its last IndexDimensions dims are the framework's indices
 *   (0: a scalar index); any leading dims before them must be 1.
 * - The first b dims of InputTensor and of the meaningful indices are batch
 *   dims and must be equal; b <= Axis and b <= IndexDimensions.
 * - OutputTensor.Sizes = InputTensor.Sizes[0, Axis) ++ meaningful
 *   indices[b, q) ++ InputTensor.Sizes(Axis, r): r - 1 + q - b dims,
 *   right-aligned, after leading 1s (so a 0-D result is {1}).
 * - AllowNegativeIndices (signed index types): an index in [-s, -1] counts
 *   from the end of an axis of size s. FALSE: negative indices are out of
 *   range (ONNX Gather-1).
 * - CLAMP needs a non-empty axis whenever the output is not empty.
 */
typedef struct DMLCL_GATHER1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    UINT IndexDimensions;
    UINT BatchDimensionCount;
    DMLCL_OUT_OF_RANGE_POLICY OutOfRangePolicy;
    BOOL AllowNegativeIndices;
} DMLCL_GATHER1_OPERATOR_DESC;

/*
 * DML_GATHER_ELEMENTS with a policy: output[c] = input[c with c[Axis] =
 * indices[c]]. All three tensors share one DimensionCount; OutputTensor.Sizes
 * = IndicesTensor.Sizes; IndicesTensor.Sizes[d] = InputTensor.Sizes[d] for
 * d != Axis. Negative indices of signed types count from the end of the axis.
 */
typedef struct DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    DMLCL_OUT_OF_RANGE_POLICY OutOfRangePolicy;
} DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC;

/*
 * DML_GATHER_ND1 with a policy. InputDimensionCount and IndicesDimensionCount
 * are the meaningful trailing dims of each tensor (leading dims before them
 * must be 1); unlike DirectML the three tensors need not share one
 * DimensionCount. The indices' last meaningful dim is the tuple length m,
 * 1 <= m <= InputDimensionCount - BatchDimensionCount; OutputTensor.Sizes =
 * meaningful indices[0, q-1) ++ meaningful input[b+m, r), right-aligned after
 * leading 1s. Negative indices of signed types count from the end of their
 * dimension.
 */
typedef struct DMLCL_GATHER_ND2_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
    UINT BatchDimensionCount;
    DMLCL_OUT_OF_RANGE_POLICY OutOfRangePolicy;
} DMLCL_GATHER_ND2_OPERATOR_DESC;

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_GATHER_H */
