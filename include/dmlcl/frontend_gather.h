/*
 * dmlcl/frontend_gather.h: the gathers of OpenVINO and ONNX. Included by
 * dmlcl/frontends.h.
 *
 *   OpenVINO Gather-8           -> DMLCL_OPERATOR_GATHER1, OutOfRangePolicy ZERO
 *   ONNX Gather-1, -11, -13     -> DMLCL_OPERATOR_GATHER1, OutOfRangePolicy ERROR
 *   ONNX GatherElements-11, -13 -> DMLCL_OPERATOR_GATHER_ELEMENTS1, ERROR
 *   ONNX GatherND-11, -12, -13  -> DMLCL_OPERATOR_GATHER_ND2, ERROR
 *
 * Each call checks every rule of the framework's specification (E_INVALIDARG
 * with a message naming the input or attribute, its value and the rule;
 * DXGI_ERROR_UNSUPPORTED for what is legal but beyond dmlcl: string tensors,
 * more than 16 dims or 2^32-1 elements), infers the output shape and fills a
 * dmlcl_gather_frontend. Tensors are packed; 0-D tensors are described as
 * {1}; an empty output (a 0 in its shape) is valid and launches nothing.
 * Bind data, indices and output as InputTensor, IndicesTensor, OutputTensor.
 */
#ifndef DMLCL_FRONTEND_GATHER_H
#define DMLCL_FRONTEND_GATHER_H

#include "dmlcl/frontends.h" /* dmlcl_shape, dmlcl_int_array */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A front-end's result: pass &Desc to dmlcl_operator_create. Desc points
 * into the struct itself, so do not copy or move it while Desc is in use.
 */
typedef struct dmlcl_gather_frontend {
    DML_OPERATOR_DESC Desc;
    dmlcl_shape OutputShape; /* the framework's output shape (rank 0: a scalar) */
    /* Storage for Desc: InputTensor, IndicesTensor, OutputTensor. */
    DML_TENSOR_DESC Tensors[3];
    DML_BUFFER_TENSOR_DESC Buffers[3];
    UINT Sizes[3][DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    union {
        DMLCL_GATHER1_OPERATOR_DESC Gather;
        DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC GatherElements;
        DMLCL_GATHER_ND2_OPERATOR_DESC GatherNd;
    } Op;
} dmlcl_gather_frontend;

/*
 * OpenVINO Gather-8. data: any movable type, rank >= 1; indices: any integer
 * type, any rank; axis: the third input's shape (rank 0 or 1, one element;
 * NULL: a scalar) and its value (any integer type), in [-rank(data),
 * rank(data) - 1]; batch_dims in [-min(rank(data), rank(indices)),
 * min(...)], negative values + rank(indices), at most the normalised axis;
 * the batch dims of data and indices equal. Output: data[:axis] +
 * indices[batch_dims:] + data[axis+1:]. Negative indices count from the end;
 * out-of-range indices give zeros.
 */
DMLCL_API HRESULT dmlcl_openvino_gather8(const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                                         const dmlcl_shape *indices,
                                         DML_TENSOR_DATA_TYPE indices_type,
                                         const dmlcl_shape *axis_shape, const dmlcl_int_array *axis,
                                         int64_t batch_dims, dmlcl_gather_frontend *out);

/*
 * ONNX Gather at an opset (1..10: Gather-1, 11..12: Gather-11, 13+:
 * Gather-13). data rank >= 1 (bfloat16 from 13); indices INT32 or INT64, any
 * rank; axis in [-r, r-1]. Output rank q + r - 1. An index outside
 * [-s, s-1] (Gather-1: [0, s-1]) makes the dispatch fail with
 * DMLCL_E_INDEX_OUT_OF_RANGE.
 */
DMLCL_API HRESULT dmlcl_onnx_gather(int opset, const dmlcl_shape *data,
                                    DML_TENSOR_DATA_TYPE data_type, const dmlcl_shape *indices,
                                    DML_TENSOR_DATA_TYPE indices_type, int64_t axis,
                                    dmlcl_gather_frontend *out);

/*
 * ONNX GatherElements (opset 11+; bfloat16 from 13): indices INT32 or INT64
 * of data's rank r >= 1, equal to data's shape except along axis, axis in
 * [-r, r-1]; the output has the indices' shape. Out of range: as Gather-11.
 */
DMLCL_API HRESULT dmlcl_onnx_gather_elements(int opset, const dmlcl_shape *data,
                                             DML_TENSOR_DATA_TYPE data_type,
                                             const dmlcl_shape *indices,
                                             DML_TENSOR_DATA_TYPE indices_type, int64_t axis,
                                             dmlcl_gather_frontend *out);

/*
 * ONNX GatherND (opset 11; batch_dims from 12; bfloat16 from 13): data rank
 * r >= 1, indices INT64 of rank q >= 1, 0 <= batch_dims < min(q, r), equal
 * batch dims, 1 <= indices.shape[-1] = m <= r - batch_dims. Output:
 * indices.shape[:-1] + data.shape[batch_dims + m:]. Out of range: as Gather-11.
 */
DMLCL_API HRESULT dmlcl_onnx_gather_nd(int opset, const dmlcl_shape *data,
                                       DML_TENSOR_DATA_TYPE data_type, const dmlcl_shape *indices,
                                       DML_TENSOR_DATA_TYPE indices_type, int64_t batch_dims,
                                       dmlcl_gather_frontend *out);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_GATHER_H */
