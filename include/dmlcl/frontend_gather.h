/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_gather.h: the gathers of OpenVINO and ONNX, named and
 * called as dmlcl/frontends.h says. Included by dmlcl/frontends.h.
 *
 *   dmlcl_openvino_gather         Gather-8 (opset 8+)      -> DMLCL_OPERATOR_GATHER1, ZERO
 *   dmlcl_onnx_gather             Gather-1, -11, -13       -> DMLCL_OPERATOR_GATHER1, ERROR
 *   dmlcl_onnx_gather_elements    GatherElements-11, -13   -> DMLCL_OPERATOR_GATHER_ELEMENTS1,
 * ERROR dmlcl_onnx_gather_nd          GatherND-11, -12, -13    -> DMLCL_OPERATOR_GATHER_ND2, ERROR
 *
 * ZERO and ERROR are the out-of-range policies: OpenVINO gathers zeros for
 * an index out of range; under ONNX the dispatch fails with
 * DMLCL_E_INDEX_OUT_OF_RANGE. Bind data, indices and output as
 * InputTensor, IndicesTensor, OutputTensor.
 */
#ifndef DMLCL_FRONTEND_GATHER_H
#define DMLCL_FRONTEND_GATHER_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO Gather (Gather-8). data: any movable type, rank >= 1; indices:
 * any integer type, any rank; axis: the third input, one value of any
 * integer type (axis_dims: rank 0 or 1, one element; NULL: a scalar) in
 * [-rank(data), rank(data) - 1]; batch_dims in [-min(rank(data),
 * rank(indices)), min(...)], negative values + rank(indices), at most the
 * normalised axis; the batch dims of data and indices equal. Output:
 * data[:axis] + indices[batch_dims:] + data[axis+1:]. Negative indices count
 * from the end; out-of-range indices give zeros.
 */
typedef struct dmlcl_openvino_gather_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_shape *indices;
    DML_TENSOR_DATA_TYPE indices_type;
    const dmlcl_int_array *axis;
    const dmlcl_shape *axis_dims;
    int64_t batch_dims;
} dmlcl_openvino_gather_args;
DMLCL_API HRESULT dmlcl_openvino_gather(int opset, const dmlcl_openvino_gather_args *args,
                                        dmlcl_frontend_result *result);

/*
 * ONNX Gather (1..10: Gather-1, 11..12: Gather-11, 13+: Gather-13), and
 * GatherElements (11+) with the same arguments. data rank r >= 1 (bfloat16
 * from 13); indices INT32 or INT64; axis in [-r, r-1]. Gather: indices of
 * any rank q, output rank q + r - 1; an index outside [-s, s-1] (Gather-1:
 * [0, s-1]) makes the dispatch fail. GatherElements: indices of rank r,
 * equal to data's shape except along axis; the output has the indices'
 * shape.
 */
typedef struct dmlcl_onnx_gather_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_shape *indices;
    DML_TENSOR_DATA_TYPE indices_type;
    int64_t axis;
} dmlcl_onnx_gather_args;
DMLCL_API HRESULT dmlcl_onnx_gather(int opset, const dmlcl_onnx_gather_args *args,
                                    dmlcl_frontend_result *result);

typedef dmlcl_onnx_gather_args dmlcl_onnx_gather_elements_args;
DMLCL_API HRESULT dmlcl_onnx_gather_elements(int opset, const dmlcl_onnx_gather_elements_args *args,
                                             dmlcl_frontend_result *result);

/*
 * ONNX GatherND (11; batch_dims from 12; bfloat16 from 13): data rank
 * r >= 1, indices INT64 of rank q >= 1, 0 <= batch_dims < min(q, r), equal
 * batch dims, 1 <= indices.shape[-1] = m <= r - batch_dims. Output:
 * indices.shape[:-1] + data.shape[batch_dims + m:].
 */
typedef struct dmlcl_onnx_gather_nd_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_shape *indices;
    DML_TENSOR_DATA_TYPE indices_type;
    int64_t batch_dims;
} dmlcl_onnx_gather_nd_args;
DMLCL_API HRESULT dmlcl_onnx_gather_nd(int opset, const dmlcl_onnx_gather_nd_args *args,
                                       dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_GATHER_H */
