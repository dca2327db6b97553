/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_slice.h: OpenVINO StridedSlice and ONNX Slice, both onto
 * DMLCL_OPERATOR_STRIDED_SLICE, named and called as dmlcl/frontends.h says.
 * Included by dmlcl/frontends.h. Bind data and the output.
 *
 *   dmlcl_openvino_strided_slice   StridedSlice-1 (opset 1+)
 *   dmlcl_onnx_slice               Slice-13 (opset 13+)
 */
#ifndef DMLCL_FRONTEND_SLICE_H
#define DMLCL_FRONTEND_SLICE_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO StridedSlice (semantics: dmlcl/ext_slice.h). begin, end and
 * stride: integer inputs of any integer type (UINT64 values above INT64_MAX
 * read as INT64_MAX), 1-D, one length M; stride NULL: all 1. The masks:
 * lists of 0 and 1 of any length (NULL: empty); a shorter one is padded
 * with 0, entries past M are ignored.
 */
typedef struct dmlcl_openvino_strided_slice_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *begin;
    const dmlcl_shape *begin_dims;
    const dmlcl_int_array *end;
    const dmlcl_shape *end_dims;
    const dmlcl_int_array *stride;
    const dmlcl_shape *stride_dims;
    const dmlcl_int_array *begin_mask, *end_mask, *new_axis_mask, *shrink_axis_mask, *ellipsis_mask;
} dmlcl_openvino_strided_slice_args;
DMLCL_API HRESULT dmlcl_openvino_strided_slice(int opset,
                                               const dmlcl_openvino_strided_slice_args *args,
                                               dmlcl_frontend_result *result);

/*
 * ONNX Slice. starts, ends, and the optional axes and steps: 1-D, INT32 or
 * INT64 (one type for all), as long as starts. axes in [-r, r-1], no axis
 * twice (default: 0 .. len(starts)-1); steps nonzero (default 1). Values
 * count from the end when negative and are clamped as numpy's slices clamp
 * (ONNX's reference evaluator), INT32/INT64 extremes included.
 */
typedef struct dmlcl_onnx_slice_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *starts;
    const dmlcl_shape *starts_dims;
    const dmlcl_int_array *ends;
    const dmlcl_shape *ends_dims;
    const dmlcl_int_array *axes; /* NULL: the input is absent */
    const dmlcl_shape *axes_dims;
    const dmlcl_int_array *steps; /* NULL: the input is absent */
    const dmlcl_shape *steps_dims;
} dmlcl_onnx_slice_args;
DMLCL_API HRESULT dmlcl_onnx_slice(int opset, const dmlcl_onnx_slice_args *args,
                                   dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_SLICE_H */
