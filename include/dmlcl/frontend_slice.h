/*
 * dmlcl/frontend_slice.h: OpenVINO StridedSlice-1 and ONNX Slice-13, both
 * onto DMLCL_OPERATOR_STRIDED_SLICE. Included by dmlcl/frontends.h.
 *
 *   dmlcl_slice_result r;
 *   hr = dmlcl_openvino_strided_slice1(&args, &r);
 *   hr = dmlcl_operator_create(device, &r.Desc, &op);  // bind data, output
 *
 * Each call checks every rule of its framework's specification (E_INVALIDARG
 * with a message naming the input or attribute, its value and the rule;
 * DXGI_ERROR_UNSUPPORTED for what is legal but beyond dmlcl: string tensors,
 * more than 16 dims or 2^32-1 elements), infers the output shape and
 * describes packed tensors. 0-D tensors are described as {1}; an empty
 * output (a 0 in its shape) is valid and launches nothing.
 */
#ifndef DMLCL_FRONTEND_SLICE_H
#define DMLCL_FRONTEND_SLICE_H

#include "dmlcl/frontends.h" /* dmlcl_shape, dmlcl_int_array */

#ifdef __cplusplus
extern "C" {
#endif

/* Most entries a StridedSlice can have and still be valid and supported. */
#define DMLCL_STRIDED_SLICE_MAX_ENTRIES (2 * DMLCL_TENSOR_DIMENSION_COUNT_MAX + 1)

/*
 * OpenVINO StridedSlice-1 (semantics: dmlcl/ext_slice.h). begin, end and
 * stride: integer inputs of any integer type (UINT64 values above INT64_MAX
 * read as INT64_MAX), 1-D, one length M. The masks: lists of 0 and 1 of any
 * length; a shorter one is padded with 0, entries past M are ignored.
 */
typedef struct dmlcl_strided_slice_args {
    DML_TENSOR_DATA_TYPE data_type; /* element type of `data` (and of the output) */
    const dmlcl_shape *data;        /* shape of input 1, `data` */
    const dmlcl_int_array *begin, *end;
    const dmlcl_int_array *stride; /* NULL: the input is absent (all 1) */
    /* Shapes of the tensors holding begin, end, stride (NULL: 1-D). */
    const dmlcl_shape *begin_dims, *end_dims, *stride_dims;
    /* Attributes (NULL: an empty list). */
    const dmlcl_int_array *begin_mask, *end_mask, *new_axis_mask, *shrink_axis_mask, *ellipsis_mask;
} dmlcl_strided_slice_args;

/*
 * ONNX Slice-13. starts, ends, and the optional axes and steps: 1-D, INT32 or
 * INT64 (one type for all), as long as starts. axes in [-r, r-1], no axis
 * twice (default: 0 .. len(starts)-1); steps nonzero (default 1). Values
 * count from the end when negative and are clamped as numpy's slices clamp
 * (ONNX's reference evaluator), INT32/INT64 extremes included.
 */
typedef struct dmlcl_onnx_slice_args {
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_shape *data;
    const dmlcl_int_array *starts, *ends;
    const dmlcl_int_array *axes, *steps; /* NULL: the input is absent */
    /* Shapes of the tensors holding them (NULL: 1-D). */
    const dmlcl_shape *starts_dims, *ends_dims, *axes_dims, *steps_dims;
} dmlcl_onnx_slice_args;

/* A front-end's answer: pass &Desc to dmlcl_operator_create. Never copy it (it points into itself).
 */
typedef struct dmlcl_slice_result {
    DML_OPERATOR_DESC Desc;
    dmlcl_shape output_shape; /* the framework's output shape (rank 0 for a scalar) */

    /* Storage behind Desc. */
    DMLCL_STRIDED_SLICE_OPERATOR_DESC slice;
    DML_TENSOR_DESC input_desc, output_desc;
    DML_BUFFER_TENSOR_DESC input_buffer, output_buffer;
    UINT input_sizes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    UINT output_sizes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    INT64 begin[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    INT64 end[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    INT64 strides[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    UINT masks[5][DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1]; /* begin, end, new axis, shrink, ellipsis */
} dmlcl_slice_result;

DMLCL_API HRESULT dmlcl_openvino_strided_slice1(const dmlcl_strided_slice_args *args,
                                                dmlcl_slice_result *result);
DMLCL_API HRESULT dmlcl_onnx_slice13(const dmlcl_onnx_slice_args *args, dmlcl_slice_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_SLICE_H */
