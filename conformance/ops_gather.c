/* SPDX-License-Identifier: MIT */
/*
 * Builders for the framework gathers: openvino.Gather-8, onnx.Gather-1/11/13,
 * onnx.GatherElements-13 and onnx.GatherND-13. Each passes the case's shapes,
 * types and attributes to dmlcl's front-end (dmlcl/frontends.h) and binds
 * data and indices as given, and an output of the inferred shape, so the
 * runner checks the front-end's shape inference too. A front-end's rejection
 * becomes the case's creation outcome (rt_build.frontend_hr).
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"output", NULL};

/* An integer attribute (any sign); absent: def. */
static int attr_int(rt_build *b, const char *name, int64_t def, int64_t *out)
{
    const cJSON *v = rt_attr(b, name);
    if (v == NULL) {
        *out = def;
        return 0;
    }
    if (!rt_json_integral(v, -9007199254740992.0, 9007199254740992.0))
        return rt_fail(b, "attrs.%s must be an integer", name);
    *out = (int64_t)v->valuedouble;
    return 0;
}

/* A framework input with data, packed, as a shape; bound as the next slot when bind. */
static const rt_tensor *input(rt_build *b, const char *name, dmlcl_shape *shape, int bind)
{
    const rt_tensor *t = rt_framework_input(b, name, shape);
    if (t == NULL || (bind && rt_bind_input(b, t) != 0))
        return NULL;
    return t;
}

/* data and indices, bound in that order; the result lives in the build's arena. */
static int data_and_indices(rt_build *b, const char *const *inputs, const char *const *attrs,
                            const rt_tensor **data, dmlcl_shape *ds, const rt_tensor **indices,
                            dmlcl_shape *is, dmlcl_frontend_result **f)
{
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    if ((*data = input(b, "data", ds, 1)) == NULL ||
        (*indices = input(b, "indices", is, 1)) == NULL)
        return -1;
    *f = rt_alloc(b, sizeof **f);
    return 0;
}

static int build_openvino_gather8(rt_build *b)
{
    static const char *const inputs[] = {"data", "indices", "axis", NULL};
    static const char *const attrs[] = {"batch_dims", NULL};
    const rt_tensor *data, *indices, *axis;
    dmlcl_shape ds, is, as;
    dmlcl_frontend_result *f;
    int64_t batch_dims = 0;
    if (data_and_indices(b, inputs, attrs, &data, &ds, &indices, &is, &f) ||
        attr_int(b, "batch_dims", 0, &batch_dims) || (axis = input(b, "axis", &as, 0)) == NULL)
        return -1;
    dmlcl_int_array av = rt_int_array(axis);
    dmlcl_openvino_gather_args a = {.data = &ds,
                                    .data_type = data->type->dml,
                                    .indices = &is,
                                    .indices_type = indices->type->dml,
                                    .axis = &av,
                                    .axis_dims = &as,
                                    .batch_dims = batch_dims};
    return rt_frontend_finish(b, dmlcl_openvino_gather(8, &a, f), f, data, 0);
}

/* The ONNX gathers: data, indices and one integer attribute (axis or batch_dims). */
typedef enum onnx_gather { ONNX_GATHER, ONNX_GATHER_ELEMENTS, ONNX_GATHER_ND } onnx_gather;

static int build_onnx(rt_build *b, int opset, onnx_gather which)
{
    static const char *const inputs[] = {"data", "indices", NULL};
    const char *attr = which == ONNX_GATHER_ND ? "batch_dims" : "axis";
    const char *const attrs[] = {attr, NULL};
    const rt_tensor *data, *indices;
    dmlcl_shape ds, is;
    dmlcl_frontend_result *f;
    int64_t value = 0;
    if (data_and_indices(b, inputs, attrs, &data, &ds, &indices, &is, &f) ||
        attr_int(b, attr, 0, &value))
        return -1;
    HRESULT hr;
    if (which == ONNX_GATHER_ND) {
        dmlcl_onnx_gather_nd_args a = {.data = &ds,
                                       .data_type = data->type->dml,
                                       .indices = &is,
                                       .indices_type = indices->type->dml,
                                       .batch_dims = value};
        hr = dmlcl_onnx_gather_nd(opset, &a, f);
    } else {
        dmlcl_onnx_gather_args a = {.data = &ds,
                                    .data_type = data->type->dml,
                                    .indices = &is,
                                    .indices_type = indices->type->dml,
                                    .axis = value};
        hr = which == ONNX_GATHER ? dmlcl_onnx_gather(opset, &a, f)
                                  : dmlcl_onnx_gather_elements(opset, &a, f);
    }
    return rt_frontend_finish(b, hr, f, data, 0);
}

static int build_onnx_gather1(rt_build *b)
{
    return build_onnx(b, 1, ONNX_GATHER);
}

static int build_onnx_gather11(rt_build *b)
{
    return build_onnx(b, 11, ONNX_GATHER);
}

static int build_onnx_gather13(rt_build *b)
{
    return build_onnx(b, 13, ONNX_GATHER);
}

static int build_onnx_gather_elements13(rt_build *b)
{
    return build_onnx(b, 13, ONNX_GATHER_ELEMENTS);
}

static int build_onnx_gather_nd13(rt_build *b)
{
    return build_onnx(b, 13, ONNX_GATHER_ND);
}

const rt_op rt_ops_gather[] = {
    {"openvino.Gather-8", build_openvino_gather8},
    {"onnx.Gather-1", build_onnx_gather1},
    {"onnx.Gather-11", build_onnx_gather11},
    {"onnx.Gather-13", build_onnx_gather13},
    {"onnx.GatherElements-13", build_onnx_gather_elements13},
    {"onnx.GatherND-13", build_onnx_gather_nd13},
    {NULL, NULL},
};
