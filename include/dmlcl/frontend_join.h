/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_join.h: concatenation and split in OpenVINO and ONNX, named
 * and called as dmlcl/frontends.h says. Included by dmlcl/frontends.h.
 *
 *   dmlcl_openvino_concat          Concat-1 (opset 1+)         -> DMLCL_OPERATOR_JOIN1
 *   dmlcl_openvino_split           Split-1 (opset 1+)          -> DMLCL_OPERATOR_SPLIT1
 *   dmlcl_openvino_variadic_split  VariadicSplit-1 (opset 1+)  -> DMLCL_OPERATOR_SPLIT1
 *   dmlcl_onnx_concat              Concat-13 (opset 13+)       -> DMLCL_OPERATOR_JOIN1
 *   dmlcl_onnx_split               Split-13, Split-18          -> DMLCL_OPERATOR_SPLIT1
 *
 * Bind a concatenation's inputs in order, then its output; a split's input,
 * then its outputs in order (result.output_count of them, shapes in
 * result.output_shapes). Up to DMLCL_JOIN_MAX_TENSORS (64) inputs or outputs;
 * more is DXGI_ERROR_UNSUPPORTED. These results may hold heap storage: call
 * dmlcl_frontend_result_clear when done. Tensors of any rank from 1 (a
 * scalar has no axis), of any movable type; dimensions of 0 are allowed
 * (an input or output empty along the axis takes no part in the copy).
 */
#ifndef DMLCL_FRONTEND_JOIN_H
#define DMLCL_FRONTEND_JOIN_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO Concat and ONNX Concat: input_count >= 1 inputs (shapes in
 * inputs[], types in inputs_type[]), one type and one rank r >= 1, the same
 * dimensions except along axis, axis in [-r, r-1]. The output's dimension
 * along axis is the inputs' sum. ONNX takes every tensor type (bfloat16 and
 * bool included); OpenVINO any type dmlcl moves.
 */
typedef struct dmlcl_concat_args {
    const dmlcl_shape *inputs;               /* input_count shapes */
    const DML_TENSOR_DATA_TYPE *inputs_type; /* input_count types */
    uint32_t input_count;
    int64_t axis;
} dmlcl_concat_args;
typedef dmlcl_concat_args dmlcl_openvino_concat_args;
typedef dmlcl_concat_args dmlcl_onnx_concat_args;
DMLCL_API HRESULT dmlcl_openvino_concat(int opset, const dmlcl_openvino_concat_args *args,
                                        dmlcl_frontend_result *result);
DMLCL_API HRESULT dmlcl_onnx_concat(int opset, const dmlcl_onnx_concat_args *args,
                                    dmlcl_frontend_result *result);

/*
 * OpenVINO Split-1: data of rank r >= 1; axis, the second input: one value
 * of any integer type in [-r, r-1], a scalar (axis_dims of rank 0; NULL: a
 * scalar; shape {1} is refused, as OpenVINO refuses it); num_splits >= 1
 * dividing data.shape[axis]. num_splits outputs, each data's shape with
 * data.shape[axis] / num_splits along axis.
 */
typedef struct dmlcl_openvino_split_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *axis;
    const dmlcl_shape *axis_dims;
    int64_t num_splits;
} dmlcl_openvino_split_args;
DMLCL_API HRESULT dmlcl_openvino_split(int opset, const dmlcl_openvino_split_args *args,
                                       dmlcl_frontend_result *result);

/*
 * OpenVINO VariadicSplit-1: data and axis as for Split, except that axis may
 * also have shape {1} (a 1-D tensor of one element); split_lengths: 1-D,
 * any integer type, one value per output, each >= 0 except at most one -1
 * (the rest of the axis); they sum to data.shape[axis]. No values (no
 * outputs), which OpenVINO takes on an empty axis, is DXGI_ERROR_UNSUPPORTED.
 */
typedef struct dmlcl_openvino_variadic_split_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *axis;
    const dmlcl_shape *axis_dims;
    const dmlcl_int_array *split_lengths;
    const dmlcl_shape *split_lengths_dims;
} dmlcl_openvino_variadic_split_args;
DMLCL_API HRESULT dmlcl_openvino_variadic_split(int opset,
                                                const dmlcl_openvino_variadic_split_args *args,
                                                dmlcl_frontend_result *result);

/*
 * ONNX Split (13..17: Split-13, 18+: Split-18): input of rank r >= 1, axis
 * in [-r, r-1]. split (optional, 1-D INT64): one length >= 0 per output,
 * summing to input.shape[axis]. output_count is the node's number of outputs
 * (0: as many as split or num_outputs say). Without split: Split-13 cuts
 * output_count equal parts (the dimension must divide); Split-18 needs
 * num_outputs (>= 1, equal to output_count when both are given; not with
 * split): parts of ceil(dim / num_outputs), the last one what is left
 * (possibly 0; a negative rest, e.g. 5 into 4 parts, is refused).
 */
typedef struct dmlcl_onnx_split_args {
    const dmlcl_shape *input;
    DML_TENSOR_DATA_TYPE input_type;
    const dmlcl_int_array *split; /* NULL: the input is absent */
    const dmlcl_shape *split_dims;
    int64_t axis;
    int64_t num_outputs; /* Split-18; 0: the attribute is absent */
    uint32_t output_count;
} dmlcl_onnx_split_args;
DMLCL_API HRESULT dmlcl_onnx_split(int opset, const dmlcl_onnx_split_args *args,
                                   dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_JOIN_H */
