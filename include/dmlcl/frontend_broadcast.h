/*
 * dmlcl/frontend_broadcast.h: OpenVINO Broadcast-1 and Broadcast-3, ONNX
 * Expand-13. Included by dmlcl/frontends.h.
 *
 * Each call checks the framework's rules, infers the output shape and fills
 * a DMLCL_OPERATOR_BROADCAST description with packed tensors (0-D becomes
 * {1}; dims of 0 stay: the operator then launches nothing):
 *
 *   dmlcl_broadcast_result r;
 *   hr = dmlcl_openvino_broadcast3(&args, &r);
 *   hr = dmlcl_operator_create(device, &r.Desc, &op);  // bind data, output
 *
 * Broken rules give E_INVALIDARG with a message naming the input or the
 * attribute, its value and the rule; shapes beyond what dmlcl tensors hold
 * (rank over 16, a dimension or element count over 2^32-1) give
 * DXGI_ERROR_UNSUPPORTED.
 */
#ifndef DMLCL_FRONTEND_BROADCAST_H
#define DMLCL_FRONTEND_BROADCAST_H

#ifdef __cplusplus
extern "C" {
#endif

/* The inputs and the attribute of OpenVINO's Broadcast. */
typedef struct dmlcl_broadcast_args {
    DML_TENSOR_DATA_TYPE data_type; /* element type of `data` (and of the output) */
    const dmlcl_shape *data;        /* shape of input 1, `data` */
    const char *mode;               /* "numpy" (NULL: the default), "explicit", "bidirectional" */
    /*
     * Input 2, `target_shape`: its values, and the shape of the tensor that
     * holds them (NULL: 1-D with target_shape->count entries).
     */
    const dmlcl_int_array *target_shape;
    const dmlcl_shape *target_shape_dims;
    /* Input 3, `axes_mapping` (NULL: the input is absent), and its shape. */
    const dmlcl_int_array *axes_mapping;
    const dmlcl_shape *axes_mapping_dims;
} dmlcl_broadcast_args;

/* A front-end's answer: pass &Desc to dmlcl_operator_create. Never copy it (it points into itself).
 */
typedef struct dmlcl_broadcast_result {
    DML_OPERATOR_DESC Desc;
    dmlcl_shape output_shape; /* the framework's output shape (rank 0 for a scalar) */

    /* Storage behind Desc. */
    DMLCL_BROADCAST_OPERATOR_DESC broadcast;
    DML_TENSOR_DESC input_desc, output_desc;
    DML_BUFFER_TENSOR_DESC input_buffer, output_buffer;
    UINT input_sizes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    UINT output_sizes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    UINT axes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
} dmlcl_broadcast_result;

/* OpenVINO Broadcast-1: mode "numpy" or "explicit". */
DMLCL_API HRESULT dmlcl_openvino_broadcast1(const dmlcl_broadcast_args *args,
                                            dmlcl_broadcast_result *result);
/* OpenVINO Broadcast-3: adds mode "bidirectional". */
DMLCL_API HRESULT dmlcl_openvino_broadcast3(const dmlcl_broadcast_args *args,
                                            dmlcl_broadcast_result *result);
/*
 * ONNX Expand-13: numpy's bidirectional broadcast of `input` and the 1-D
 * int64 input `shape` (shape_dims NULL: 1-D).
 */
DMLCL_API HRESULT dmlcl_onnx_expand13(DML_TENSOR_DATA_TYPE input_type, const dmlcl_shape *input,
                                      const dmlcl_int_array *shape, const dmlcl_shape *shape_dims,
                                      dmlcl_broadcast_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_BROADCAST_H */
