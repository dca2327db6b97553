/* SPDX-License-Identifier: MIT */
/*
 * Builders for the framework broadcasts: openvino.Broadcast-1 and -3 (attr
 * mode; inputs data, target_shape, optional axes_mapping) and
 * onnx.Expand-13 (inputs input, shape). The shape inputs go to dmlcl's
 * front-end (dmlcl/frontends.h) as host values with their own shapes, so
 * "not 1-D" and "not integer" reach its rules; only the data is bound, with
 * an output of the inferred shape, so the runner checks the shape inference
 * too. A front-end's rejection becomes the case's creation outcome.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"output", NULL};

static int build_openvino(rt_build *b, int version)
{
    static const char *const inputs[] = {"data", "target_shape", "axes_mapping", NULL};
    static const char *const attrs[] = {"mode", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    const cJSON *mode = rt_attr(b, "mode");
    if (mode != NULL && !cJSON_IsString(mode))
        return rt_fail(b, "attrs.mode must be a string");
    dmlcl_shape ds, ts, as;
    const rt_tensor *data = rt_framework_input(b, "data", &ds), *target, *axes = NULL;
    if (data == NULL || (target = rt_framework_input(b, "target_shape", &ts)) == NULL)
        return -1;
    if (rt_input(b, "axes_mapping") != NULL &&
        (axes = rt_framework_input(b, "axes_mapping", &as)) == NULL)
        return -1;
    dmlcl_int_array tv = rt_int_array(target);
    dmlcl_int_array av = {axes ? axes->type->dml : DML_TENSOR_DATA_TYPE_INT64,
                          axes ? axes->count : 0, axes ? axes->elems : NULL};
    dmlcl_openvino_broadcast_args args = {.data = &ds,
                                          .data_type = data->type->dml,
                                          .target_shape = &tv,
                                          .target_shape_dims = &ts,
                                          .axes_mapping = axes ? &av : NULL,
                                          .axes_mapping_dims = axes ? &as : NULL,
                                          .mode = mode ? mode->valuestring : NULL};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_broadcast(version, &args, r), r, data, 1);
}

static int build_openvino_broadcast1(rt_build *b)
{
    return build_openvino(b, 1);
}

static int build_openvino_broadcast3(rt_build *b)
{
    return build_openvino(b, 3);
}

static int build_onnx_expand13(rt_build *b)
{
    static const char *const inputs[] = {"input", "shape", NULL};
    static const char *const attrs[] = {NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    dmlcl_shape ds, ss;
    const rt_tensor *data = rt_framework_input(b, "input", &ds), *shape;
    if (data == NULL || (shape = rt_framework_input(b, "shape", &ss)) == NULL)
        return -1;
    dmlcl_int_array sv = rt_int_array(shape);
    dmlcl_onnx_expand_args args = {
        .input = &ds, .input_type = data->type->dml, .shape = &sv, .shape_dims = &ss};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_expand(13, &args, r), r, data, 1);
}

const rt_op rt_ops_broadcast[] = {
    {"openvino.Broadcast-1", build_openvino_broadcast1},
    {"openvino.Broadcast-3", build_openvino_broadcast3},
    {"onnx.Expand-13", build_onnx_expand13},
    {NULL, NULL},
};
