/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_broadcast.h: OpenVINO Broadcast and ONNX Expand onto
 * DMLCL_OPERATOR_BROADCAST, named and called as dmlcl/frontends.h says.
 * Included by dmlcl/frontends.h. Bind data (input) and the output.
 *
 *   dmlcl_openvino_broadcast   Broadcast-1 (opset 1-2), Broadcast-3 (opset 3+)
 *   dmlcl_onnx_expand          Expand-13 (opset 13+)
 */
#ifndef DMLCL_FRONTEND_BROADCAST_H
#define DMLCL_FRONTEND_BROADCAST_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO Broadcast: data of any movable type and shape; target_shape, the
 * output's dims (>= 0); axes_mapping (mode "explicit" only: one strictly
 * increasing output axis per data dimension); mode "numpy" (NULL: the
 * default), "explicit", or from Broadcast-3 "bidirectional".
 */
typedef struct dmlcl_openvino_broadcast_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *target_shape;
    const dmlcl_shape *target_shape_dims;
    const dmlcl_int_array *axes_mapping; /* NULL: the input is absent */
    const dmlcl_shape *axes_mapping_dims;
    const char *mode;
} dmlcl_openvino_broadcast_args;
DMLCL_API HRESULT dmlcl_openvino_broadcast(int opset, const dmlcl_openvino_broadcast_args *args,
                                           dmlcl_frontend_result *result);

/* ONNX Expand: numpy's bidirectional broadcast of input and the INT64 values of shape. */
typedef struct dmlcl_onnx_expand_args {
    const dmlcl_shape *input;
    DML_TENSOR_DATA_TYPE input_type;
    const dmlcl_int_array *shape;
    const dmlcl_shape *shape_dims;
} dmlcl_onnx_expand_args;
DMLCL_API HRESULT dmlcl_onnx_expand(int opset, const dmlcl_onnx_expand_args *args,
                                    dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_BROADCAST_H */
