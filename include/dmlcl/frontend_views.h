/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_views.h: the framework operators that are one view of
 * their data (tile, transpose, reverse), named and called as
 * dmlcl/frontends.h says. Included by dmlcl/frontends.h. Bind data (input)
 * and the output.
 *
 *   dmlcl_openvino_tile        Tile-1 (opset 1+)
 *   dmlcl_openvino_transpose   Transpose-1 (opset 1+)
 *   dmlcl_openvino_reverse     Reverse-1 (opset 1+)
 *   dmlcl_onnx_tile            Tile-13 (opset 13+)
 *   dmlcl_onnx_transpose       Transpose-13 (opset 13+)
 *
 * Each describes DirectML's own operator where DirectML's tensor rules allow
 * it (1 to 8 dimensions, no 0 size, a DirectML data type): DML_OPERATOR_TILE,
 * DML_OPERATOR_ELEMENT_WISE_IDENTITY with the input read through permuted
 * strides (how DirectML code transposes), DML_OPERATOR_SLICE1 with negative
 * InputWindowStrides. Otherwise (0-sized or up to 16 dimensions, BOOLEAN,
 * BFLOAT16, COMPLEX) it describes the same view with a dmlcl extension
 * operator: a tile as DMLCL_OPERATOR_BROADCAST over split dimensions (each
 * tiled dimension as copies x elements), a transpose as
 * DMLCL_OPERATOR_BROADCAST of the strided input to its own shape, a reverse
 * as DMLCL_OPERATOR_STRIDED_SLICE with strides -1.
 */
#ifndef DMLCL_FRONTEND_VIEWS_H
#define DMLCL_FRONTEND_VIEWS_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO Tile: repeats, 1-D of any integer type; a negative value is 0
 * copies, as in OpenVINO's shape inference (the text is silent). Shorter than
 * the rank of data: 1s are prepended to it; longer: 1s are prepended to
 * data's shape. The output has the longer rank, dims data * repeats.
 */
typedef struct dmlcl_openvino_tile_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *repeats;
    const dmlcl_shape *repeats_dims;
} dmlcl_openvino_tile_args;
DMLCL_API HRESULT dmlcl_openvino_tile(int opset, const dmlcl_openvino_tile_args *args,
                                      dmlcl_frontend_result *result);

/*
 * OpenVINO Transpose: input_order, 1-D of any integer type, a permutation of
 * [0, rank of data) or empty (the axes reversed). Output dimension k is data
 * dimension input_order[k].
 */
typedef struct dmlcl_openvino_transpose_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *input_order;
    const dmlcl_shape *input_order_dims;
} dmlcl_openvino_transpose_args;
DMLCL_API HRESULT dmlcl_openvino_transpose(int opset, const dmlcl_openvino_transpose_args *args,
                                           dmlcl_frontend_result *result);

/*
 * OpenVINO Reverse: mode "index" (axis: 1-D of any integer type, at most
 * rank values, each in [-rank, rank-1], negative counting from the end; an
 * axis named twice is reversed once) or "mask" (axis: 1-D BOOLEAN, one
 * value per dimension, nonzero reverses it). mode is required.
 */
typedef struct dmlcl_openvino_reverse_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *axis;
    const dmlcl_shape *axis_dims;
    const char *mode;
} dmlcl_openvino_reverse_args;
DMLCL_API HRESULT dmlcl_openvino_reverse(int opset, const dmlcl_openvino_reverse_args *args,
                                         dmlcl_frontend_result *result);

/* ONNX Tile: repeats, 1-D INT64, one value >= 0 per dimension of input. */
typedef struct dmlcl_onnx_tile_args {
    const dmlcl_shape *input;
    DML_TENSOR_DATA_TYPE input_type;
    const dmlcl_int_array *repeats;
    const dmlcl_shape *repeats_dims;
} dmlcl_onnx_tile_args;
DMLCL_API HRESULT dmlcl_onnx_tile(int opset, const dmlcl_onnx_tile_args *args,
                                  dmlcl_frontend_result *result);

/*
 * ONNX Transpose: perm, a permutation of [0, rank of data) (perm_count
 * values); perm NULL or perm_count 0: the axes reversed.
 */
typedef struct dmlcl_onnx_transpose_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const int64_t *perm;
    uint32_t perm_count;
} dmlcl_onnx_transpose_args;
DMLCL_API HRESULT dmlcl_onnx_transpose(int opset, const dmlcl_onnx_transpose_args *args,
                                       dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_VIEWS_H */
