/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_depth_space.h: OpenVINO DepthToSpace / SpaceToDepth and ONNX
 * DepthToSpace / SpaceToDepth, named and called as dmlcl/frontends.h says.
 * Included by dmlcl/frontends.h. Bind data (input) and the output.
 *
 *   dmlcl_openvino_depth_to_space   DepthToSpace-1 (opset 1+)
 *   dmlcl_openvino_space_to_depth   SpaceToDepth-1 (opset 1+)
 *   dmlcl_onnx_depth_to_space       DepthToSpace-1 (opset 1-10), -11 (11-12), -13 (13+)
 *   dmlcl_onnx_space_to_depth       SpaceToDepth-1 (opset 1-12), -13 (13+)
 *
 * Each rearrangement is one strided view, so the result describes
 * DMLCL_OPERATOR_STRIDED_SLICE with no entries (a plain copy): its
 * OutputTensor is the output packed, with the block dimensions split out
 * (the same bytes as the framework's output shape), and its InputTensor
 * reads the input in that order through permuted strides. That operator,
 * unlike DirectML's 4-D ones, takes every rank, extension types and empty
 * tensors. The view has 2 + 2K dimensions for K spatial ones (fewer once
 * dimensions of one element are dropped and contiguous ones merged); more
 * than 16 is DXGI_ERROR_UNSUPPORTED.
 *
 * Unlike the other front-ends' attributes, 0 is not a default here: a block
 * size of 0 breaks both specifications, and OpenVINO refuses it, so it must
 * be an error. Pass OpenVINO's default, 1, when the IR omits block_size.
 */
#ifndef DMLCL_FRONTEND_DEPTH_SPACE_H
#define DMLCL_FRONTEND_DEPTH_SPACE_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO DepthToSpace-1 and SpaceToDepth-1: data of rank >= 3, [N, C, D1,
 * ..., DK], any movable type; mode "blocks_first" (the depth is [block_size,
 * ..., block_size, C']) or "depth_first" ([C', block_size, ...]), required;
 * block_size >= 1. DepthToSpace: C a multiple of block_size^K; SpaceToDepth:
 * every Di a multiple of block_size.
 */
typedef struct dmlcl_openvino_depth_space_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const char *mode;
    int64_t block_size;
} dmlcl_openvino_depth_space_args;
typedef dmlcl_openvino_depth_space_args dmlcl_openvino_depth_to_space_args;
typedef dmlcl_openvino_depth_space_args dmlcl_openvino_space_to_depth_args;
DMLCL_API HRESULT dmlcl_openvino_depth_to_space(int opset,
                                                const dmlcl_openvino_depth_to_space_args *args,
                                                dmlcl_frontend_result *result);
DMLCL_API HRESULT dmlcl_openvino_space_to_depth(int opset,
                                                const dmlcl_openvino_space_to_depth_args *args,
                                                dmlcl_frontend_result *result);

/*
 * ONNX DepthToSpace: input [N, C, H, W] (4-D), blocksize >= 1 (required),
 * C a multiple of blocksize^2; mode "DCR" (NULL: the default) or "CRD", from
 * version 11 (version 1 has no mode: NULL). BFLOAT16 from version 13.
 */
typedef struct dmlcl_onnx_depth_to_space_args {
    const dmlcl_shape *input;
    DML_TENSOR_DATA_TYPE input_type;
    int64_t blocksize;
    const char *mode;
} dmlcl_onnx_depth_to_space_args;
DMLCL_API HRESULT dmlcl_onnx_depth_to_space(int opset, const dmlcl_onnx_depth_to_space_args *args,
                                            dmlcl_frontend_result *result);

/* ONNX SpaceToDepth: input [N, C, H, W], blocksize >= 1 (required) dividing H and W; BFLOAT16
 * from version 13. */
typedef struct dmlcl_onnx_space_to_depth_args {
    const dmlcl_shape *input;
    DML_TENSOR_DATA_TYPE input_type;
    int64_t blocksize;
} dmlcl_onnx_space_to_depth_args;
DMLCL_API HRESULT dmlcl_onnx_space_to_depth(int opset, const dmlcl_onnx_space_to_depth_args *args,
                                            dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_DEPTH_SPACE_H */
