/* SPDX-License-Identifier: MIT */
/*
 * Builders for the views: DML_OPERATOR_TILE (attrs Repeats, optional
 * RepeatsCount; InputTensor, optional OutputTensor description),
 * openvino.Tile-1 (inputs data, repeats), openvino.Transpose-1 (data,
 * input_order), openvino.Reverse-1 (data, axis; attr mode), onnx.Tile-13
 * (input, repeats) and onnx.Transpose-13 (data; attr perm). Framework list
 * inputs go to dmlcl's front-ends as host values with their own shapes and
 * types, so their rules see them; only the data is bound, with an output of
 * the inferred shape. A front-end's rejection is the case's creation outcome.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"output", NULL};

/* ---- DML_OPERATOR_TILE ----------------------------------------------------------------- */

/*
 * The output: inputs.OutputTensor when given, else the expected output,
 * else (an expected error) InputTensor.Sizes * Repeats where both exist.
 */
static const DML_TENSOR_DESC *tile_output(rt_build *b, const rt_tensor *in, const UINT *repeats,
                                          unsigned count)
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
    } else {
        UINT shape[RT_MAX_RANK];
        for (unsigned i = 0; i < in->rank; ++i)
            shape[i] = in->sizes[i] * (repeats && i < count ? repeats[i] : 1);
        t = rt_add_output(b, "OutputTensor", in->type, in->rank, shape, NULL);
    }
    return t ? &t->desc : NULL;
}

static int build_tile(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Repeats", "RepeatsCount", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    DML_TILE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *repeats;
    unsigned count;
    if (rt_check_names(b, inputs, attrs, outputs) ||
        rt_attr_uint_list(b, "Repeats", &repeats, &count))
        return -1;
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in) != 0 ||
        rt_attr_uint(b, "RepeatsCount", repeats ? count : in->rank, &d->RepeatsCount))
        return -1;
    if (repeats != NULL && d->RepeatsCount != count)
        return rt_fail(b, "attrs.Repeats has %u entries, RepeatsCount is %u", count,
                       d->RepeatsCount);
    d->InputTensor = &in->desc;
    d->Repeats = repeats;
    if ((d->OutputTensor = tile_output(b, in, repeats, count)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_TILE;
    b->desc.Desc = d;
    return 0;
}

/* ---- Framework front-ends ---------------------------------------------------------------- */

/* A list input with data: its values and shape. */
static int list_input(rt_build *b, const char *name, dmlcl_shape *shape, dmlcl_int_array *v)
{
    const rt_tensor *t = rt_framework_input(b, name, shape);
    if (t == NULL)
        return -1;
    *v = rt_int_array(t);
    return 0;
}

static int build_openvino_tile1(rt_build *b)
{
    static const char *const inputs[] = {"data", "repeats", NULL};
    static const char *const attrs[] = {NULL};
    dmlcl_shape ds, rs;
    dmlcl_int_array rv;
    const rt_tensor *data;
    if (rt_check_names(b, inputs, attrs, one_output) ||
        (data = rt_framework_input(b, "data", &ds)) == NULL || list_input(b, "repeats", &rs, &rv))
        return -1;
    dmlcl_openvino_tile_args a = {
        .data = &ds, .data_type = data->type->dml, .repeats = &rv, .repeats_dims = &rs};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_tile(1, &a, r), r, data, 1);
}

static int build_openvino_transpose1(rt_build *b)
{
    static const char *const inputs[] = {"data", "input_order", NULL};
    static const char *const attrs[] = {NULL};
    dmlcl_shape ds, os;
    dmlcl_int_array ov;
    const rt_tensor *data;
    if (rt_check_names(b, inputs, attrs, one_output) ||
        (data = rt_framework_input(b, "data", &ds)) == NULL ||
        list_input(b, "input_order", &os, &ov))
        return -1;
    dmlcl_openvino_transpose_args a = {
        .data = &ds, .data_type = data->type->dml, .input_order = &ov, .input_order_dims = &os};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_transpose(1, &a, r), r, data, 1);
}

static int build_openvino_reverse1(rt_build *b)
{
    static const char *const inputs[] = {"data", "axis", NULL};
    static const char *const attrs[] = {"mode", NULL};
    dmlcl_shape ds, as;
    dmlcl_int_array av;
    const rt_tensor *data;
    const cJSON *mode = rt_attr(b, "mode");
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    if (mode != NULL && !cJSON_IsString(mode))
        return rt_fail(b, "attrs.mode must be a string");
    if ((data = rt_framework_input(b, "data", &ds)) == NULL || list_input(b, "axis", &as, &av))
        return -1;
    dmlcl_openvino_reverse_args a = {.data = &ds,
                                     .data_type = data->type->dml,
                                     .axis = &av,
                                     .axis_dims = &as,
                                     .mode = mode ? mode->valuestring : NULL};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_reverse(1, &a, r), r, data, 1);
}

static int build_onnx_tile13(rt_build *b)
{
    static const char *const inputs[] = {"input", "repeats", NULL};
    static const char *const attrs[] = {NULL};
    dmlcl_shape ds, rs;
    dmlcl_int_array rv;
    const rt_tensor *data;
    if (rt_check_names(b, inputs, attrs, one_output) ||
        (data = rt_framework_input(b, "input", &ds)) == NULL || list_input(b, "repeats", &rs, &rv))
        return -1;
    dmlcl_onnx_tile_args a = {
        .input = &ds, .input_type = data->type->dml, .repeats = &rv, .repeats_dims = &rs};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_tile(13, &a, r), r, data, 1);
}

/* attrs.perm: a list of integers (absent: NULL, 0). */
static int perm_attr(rt_build *b, int64_t **vals, uint32_t *count)
{
    const cJSON *v = rt_attr(b, "perm"), *e;
    *vals = NULL;
    *count = 0;
    if (v == NULL)
        return 0;
    if (!cJSON_IsArray(v))
        return rt_fail(b, "attrs.perm must be a list of integers");
    int n = cJSON_GetArraySize(v), i = 0;
    *vals = rt_alloc(b, (size_t)(n ? n : 1) * sizeof **vals);
    cJSON_ArrayForEach(e, v)
    {
        if (!rt_json_integral(e, -9007199254740992.0, 9007199254740992.0))
            return rt_fail(b, "attrs.perm[%d] must be an integer", i);
        (*vals)[i++] = (int64_t)e->valuedouble;
    }
    *count = (uint32_t)n;
    return 0;
}

static int build_onnx_transpose13(rt_build *b)
{
    static const char *const inputs[] = {"data", NULL};
    static const char *const attrs[] = {"perm", NULL};
    dmlcl_shape ds;
    const rt_tensor *data;
    int64_t *perm;
    uint32_t count;
    if (rt_check_names(b, inputs, attrs, one_output) || perm_attr(b, &perm, &count) ||
        (data = rt_framework_input(b, "data", &ds)) == NULL)
        return -1;
    dmlcl_onnx_transpose_args a = {
        .data = &ds, .data_type = data->type->dml, .perm = perm, .perm_count = count};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_transpose(13, &a, r), r, data, 1);
}

const rt_op rt_ops_views[] = {
    {"DML_OPERATOR_TILE", build_tile},
    {"openvino.Tile-1", build_openvino_tile1},
    {"openvino.Transpose-1", build_openvino_transpose1},
    {"openvino.Reverse-1", build_openvino_reverse1},
    {"onnx.Tile-13", build_onnx_tile13},
    {"onnx.Transpose-13", build_onnx_transpose13},
    {NULL, NULL},
};
