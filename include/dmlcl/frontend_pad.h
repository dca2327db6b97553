/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontend_pad.h: OpenVINO Pad and Roll, ONNX Pad, onto
 * DMLCL_OPERATOR_PAD and DMLCL_OPERATOR_ROLL (dmlcl/ext_pad.h), named and
 * called as dmlcl/frontends.h says. Included by dmlcl/frontends.h. Bind
 * data and the output; pad values are read by the call.
 *
 *   dmlcl_openvino_pad    Pad-1 (opset 1+), Pad-12 (opset 12+)
 *   dmlcl_openvino_roll   Roll-7 (opset 7+)
 *   dmlcl_onnx_pad        Pad-18 (opset 18+), Pad-19 (opset 19+: "wrap"; the
 *                         later versions only add element types)
 */
#ifndef DMLCL_FRONTEND_PAD_H
#define DMLCL_FRONTEND_PAD_H

#include "dmlcl/frontends.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * OpenVINO Pad. pads_begin and pads_end: 1-D, any integer type, one value
 * per data dimension; Pad-1 takes them non-negative, Pad-12 crops where
 * they are negative (an output dimension below 0 is 0). pad_mode:
 * "constant", "edge", "reflect" (pads at most data.shape[D] - 1) or
 * "symmetric" (pads at most data.shape[D]). pad_value (constant mode only,
 * ignored otherwise; NULL: 0): one element of pad_value_type, which must be
 * data_type, in a 0-D tensor (pad_value_dims NULL: 0-D).
 */
typedef struct dmlcl_openvino_pad_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *pads_begin;
    const dmlcl_shape *pads_begin_dims;
    const dmlcl_int_array *pads_end;
    const dmlcl_shape *pads_end_dims;
    const void *pad_value; /* NULL: the input is absent */
    DML_TENSOR_DATA_TYPE pad_value_type;
    const dmlcl_shape *pad_value_dims;
    const char *pad_mode; /* required */
} dmlcl_openvino_pad_args;
DMLCL_API HRESULT dmlcl_openvino_pad(int opset, const dmlcl_openvino_pad_args *args,
                                     dmlcl_frontend_result *result);

/*
 * OpenVINO Roll. shift: 0-D or 1-D; axes: 0-D or 1-D; both INT32 or INT64.
 * A scalar shift (or a 1-D one of one value with one axis) rolls every axis
 * by it; else shift and axes have one length. axes in [-r, r-1]; an axis
 * named again adds its shift. data of any rank >= 1.
 */
typedef struct dmlcl_openvino_roll_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *shift;
    const dmlcl_shape *shift_dims;
    const dmlcl_int_array *axes;
    const dmlcl_shape *axes_dims;
} dmlcl_openvino_roll_args;
DMLCL_API HRESULT dmlcl_openvino_roll(int opset, const dmlcl_openvino_roll_args *args,
                                      dmlcl_frontend_result *result);

/*
 * ONNX Pad. pads: 1-D INT64, [x1_begin, x2_begin, ..., x1_end, x2_end, ...],
 * two values per axis (negative removes). axes (optional, 1-D INT32 or
 * INT64): the dimensions pads names, in [-r, r-1], none twice (absent:
 * every dimension in order). constant_value (optional, constant mode): one
 * element of constant_value_type (must be data_type), 0-D or one element in
 * 1-D. mode: NULL or "constant", "reflect", "edge", and from Pad-19 "wrap".
 */
typedef struct dmlcl_onnx_pad_args {
    const dmlcl_shape *data;
    DML_TENSOR_DATA_TYPE data_type;
    const dmlcl_int_array *pads;
    const dmlcl_shape *pads_dims;
    const void *constant_value; /* NULL: the input is absent */
    DML_TENSOR_DATA_TYPE constant_value_type;
    const dmlcl_shape *constant_value_dims;
    const dmlcl_int_array *axes; /* NULL: the input is absent */
    const dmlcl_shape *axes_dims;
    const char *mode; /* NULL: "constant" */
} dmlcl_onnx_pad_args;
DMLCL_API HRESULT dmlcl_onnx_pad(int opset, const dmlcl_onnx_pad_args *args,
                                 dmlcl_frontend_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_PAD_H */
