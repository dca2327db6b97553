/* SPDX-License-Identifier: MIT */
/*
 * Builders for the depth/space rearrangements: DirectML's
 * DML_OPERATOR_SPACE_TO_DEPTH, DEPTH_TO_SPACE (attrs BlockSize),
 * SPACE_TO_DEPTH1, DEPTH_TO_SPACE1 (BlockSize; Order as the enumerator's
 * name), with InputTensor / optional inputs.OutputTensor as ops_directml.c
 * reads them; and the front-ends openvino.DepthToSpace-1, SpaceToDepth-1
 * (input data; attrs mode, block_size, absent = OpenVINO's default 1) and
 * onnx.DepthToSpace-13 (input input; attrs blocksize, mode), SpaceToDepth-13
 * (blocksize). Front-end attributes go through as given, so bad values reach
 * the front-end's rules.
 */
#include <string.h>

#include "runner.h"

/* ---- DirectML ----------------------------------------------------------------------------- */

static const char *const dml_output[] = {"OutputTensor", NULL};

/*
 * The output: inputs.OutputTensor, else the expected output, else (an
 * expected-error case) the documented rule's shape where it applies.
 */
static const DML_TENSOR_DESC *dml_bind_output(rt_build *b, const rt_tensor *in, int to_space,
                                              UINT block)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    rt_tensor *t;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src != NULL) {
        t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
        return t ? &t->desc : NULL;
    }
    UINT shape[RT_MAX_RANK];
    memcpy(shape, in->sizes, in->rank * sizeof *shape);
    uint64_t bb = (uint64_t)block * block;
    if (in->rank == 4 && block > 0 && to_space && in->sizes[1] % bb == 0) {
        shape[1] = (UINT)(in->sizes[1] / bb);
        shape[2] *= block;
        shape[3] *= block;
    } else if (in->rank == 4 && block > 0 && !to_space && in->sizes[2] % block == 0 &&
               in->sizes[3] % block == 0 && in->sizes[1] * bb <= 0xFFFFFFFFu) {
        shape[1] = (UINT)(in->sizes[1] * bb);
        shape[2] /= block;
        shape[3] /= block;
    }
    t = rt_add_output(b, "OutputTensor", in->type, in->rank, shape, NULL);
    return t ? &t->desc : NULL;
}

/* attrs.Order: the enumerator's name (absent: DEPTH_COLUMN_ROW, the zero value). */
static int order_attr(rt_build *b, DML_DEPTH_SPACE_ORDER *out)
{
    const cJSON *v = rt_attr(b, "Order");
    *out = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    if (v == NULL)
        return 0;
    if (cJSON_IsString(v) && strcmp(v->valuestring, "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW") == 0)
        return 0;
    if (cJSON_IsString(v) &&
        strcmp(v->valuestring, "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH") == 0) {
        *out = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
        return 0;
    }
    /* A number passes through, so a case can give DirectML an enumerator it does not have. */
    if (rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_DEPTH_SPACE_ORDER)(int)v->valuedouble;
        return 0;
    }
    return rt_fail(b, "attrs.Order must be \"DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW\" or "
                      "\"DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH\"");
}

static int build_dml(rt_build *b, DML_OPERATOR_TYPE type, int to_space, int has_order)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs_v0[] = {"BlockSize", NULL};
    static const char *const attrs_v1[] = {"BlockSize", "Order", NULL};
    /* The *1 descriptors extend the first two by Order, member for member. */
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, has_order ? attrs_v1 : attrs_v0, dml_output) ||
        rt_attr_uint(b, "BlockSize", 0, &d->BlockSize) || (has_order && order_attr(b, &d->Order)))
        return -1;
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in) != 0)
        return -1;
    d->InputTensor = &in->desc;
    if ((d->OutputTensor = dml_bind_output(b, in, to_space, d->BlockSize)) == NULL)
        return -1;
    b->desc.Type = type;
    b->desc.Desc = d;
    return 0;
}

static int build_space_to_depth(rt_build *b)
{
    return build_dml(b, DML_OPERATOR_SPACE_TO_DEPTH, 0, 0);
}

static int build_depth_to_space(rt_build *b)
{
    return build_dml(b, DML_OPERATOR_DEPTH_TO_SPACE, 1, 0);
}

static int build_space_to_depth1(rt_build *b)
{
    return build_dml(b, DML_OPERATOR_SPACE_TO_DEPTH1, 0, 1);
}

static int build_depth_to_space1(rt_build *b)
{
    return build_dml(b, DML_OPERATOR_DEPTH_TO_SPACE1, 1, 1);
}

/* ---- Front-ends ------------------------------------------------------------------------- */

static const char *const one_output[] = {"output", NULL};

/* An integer attribute of any sign (absent: def); the front-end judges the value. */
static int int_attr(rt_build *b, const char *name, int64_t def, int64_t *out)
{
    const cJSON *v = rt_attr(b, name);
    *out = def;
    if (v == NULL)
        return 0;
    if (!rt_json_integral(v, -9007199254740992.0, 9007199254740992.0))
        return rt_fail(b, "attrs.%s must be an integer", name);
    *out = (int64_t)v->valuedouble;
    return 0;
}

/* A string attribute (absent: NULL). */
static int string_attr(rt_build *b, const char *name, const char **out)
{
    const cJSON *v = rt_attr(b, name);
    *out = NULL;
    if (v != NULL && !cJSON_IsString(v))
        return rt_fail(b, "attrs.%s must be a string", name);
    *out = v ? v->valuestring : NULL;
    return 0;
}

static int build_openvino(rt_build *b, int to_space)
{
    static const char *const inputs[] = {"data", NULL};
    static const char *const attrs[] = {"mode", "block_size", NULL};
    dmlcl_shape shape;
    dmlcl_openvino_depth_space_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || string_attr(b, "mode", &a.mode) ||
        int_attr(b, "block_size", 1, &a.block_size))
        return -1;
    const rt_tensor *data = rt_framework_input(b, "data", &shape);
    if (data == NULL)
        return -1;
    a.data = &shape;
    a.data_type = data->type->dml;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    HRESULT hr = to_space ? dmlcl_openvino_depth_to_space(1, &a, r)
                          : dmlcl_openvino_space_to_depth(1, &a, r);
    return rt_frontend_finish(b, hr, r, data, 1);
}

static int build_openvino_depth_to_space1(rt_build *b)
{
    return build_openvino(b, 1);
}

static int build_openvino_space_to_depth1(rt_build *b)
{
    return build_openvino(b, 0);
}

static int build_onnx_depth_to_space13(rt_build *b)
{
    static const char *const inputs[] = {"input", NULL};
    static const char *const attrs[] = {"blocksize", "mode", NULL};
    dmlcl_shape shape;
    dmlcl_onnx_depth_to_space_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || string_attr(b, "mode", &a.mode) ||
        int_attr(b, "blocksize", 0, &a.blocksize))
        return -1;
    const rt_tensor *in = rt_framework_input(b, "input", &shape);
    if (in == NULL)
        return -1;
    a.input = &shape;
    a.input_type = in->type->dml;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_depth_to_space(13, &a, r), r, in, 1);
}

static int build_onnx_space_to_depth13(rt_build *b)
{
    static const char *const inputs[] = {"input", NULL};
    static const char *const attrs[] = {"blocksize", NULL};
    dmlcl_shape shape;
    dmlcl_onnx_space_to_depth_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || int_attr(b, "blocksize", 0, &a.blocksize))
        return -1;
    const rt_tensor *in = rt_framework_input(b, "input", &shape);
    if (in == NULL)
        return -1;
    a.input = &shape;
    a.input_type = in->type->dml;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_space_to_depth(13, &a, r), r, in, 1);
}

const rt_op rt_ops_depth_space[] = {
    {"DML_OPERATOR_SPACE_TO_DEPTH", build_space_to_depth},
    {"DML_OPERATOR_DEPTH_TO_SPACE", build_depth_to_space},
    {"DML_OPERATOR_SPACE_TO_DEPTH1", build_space_to_depth1},
    {"DML_OPERATOR_DEPTH_TO_SPACE1", build_depth_to_space1},
    {"openvino.DepthToSpace-1", build_openvino_depth_to_space1},
    {"openvino.SpaceToDepth-1", build_openvino_space_to_depth1},
    {"onnx.DepthToSpace-13", build_onnx_depth_to_space13},
    {"onnx.SpaceToDepth-13", build_onnx_space_to_depth13},
    {NULL, NULL},
};
