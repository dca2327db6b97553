/* SPDX-License-Identifier: MIT */
/*
 * Builders for the framework slices: openvino.StridedSlice-1 (attrs
 * begin_mask, end_mask, new_axis_mask, shrink_axis_mask, ellipsis_mask as
 * lists; inputs data, begin, end, optional stride) and onnx.Slice-13 (inputs
 * data, starts, ends, optional axes, steps). The list inputs go to dmlcl's
 * front-end (dmlcl/frontends.h) as host values with their own shapes and
 * types, so "not 1-D" and "not integer" reach its rules; only the data is
 * bound, with an output of the inferred shape, so the runner checks the
 * shape inference too. A front-end's rejection becomes the case's creation
 * outcome.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"output", NULL};

/* A packed framework tensor (NULL when absent and optional), its shape and values. */
static int input(rt_build *b, const char *name, int optional, const rt_tensor **t,
                 dmlcl_shape *shape, dmlcl_int_array *values)
{
    *t = rt_input(b, name);
    if (*t == NULL)
        return optional ? 0 : rt_fail(b, "%s needs inputs.%s", b->c->op, name);
    if ((*t)->elems == NULL && (*t)->count != 0)
        return rt_fail(b, "inputs.%s has no data", name);
    if (rt_framework_shape(b, name, *t, shape) != 0)
        return -1;
    *values = rt_int_array(*t);
    return 0;
}

/* A mask attribute: a list of integers of any length (values are the front-end's to judge). */
static int mask(rt_build *b, const char *name, const dmlcl_int_array **out)
{
    const cJSON *v = rt_attr(b, name), *e;
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!cJSON_IsArray(v))
        return rt_fail(b, "attrs.%s must be a list of integers", name);
    int n = cJSON_GetArraySize(v), i = 0;
    int64_t *vals = rt_alloc(b, (size_t)(n ? n : 1) * sizeof *vals);
    cJSON_ArrayForEach(e, v)
    {
        if (!rt_json_integral(e, -9007199254740992.0, 9007199254740992.0))
            return rt_fail(b, "attrs.%s[%d] must be an integer", name, i);
        vals[i++] = (int64_t)e->valuedouble;
    }
    dmlcl_int_array *a = rt_alloc(b, sizeof *a);
    *a = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, (uint64_t)n, vals};
    *out = a;
    return 0;
}

static int build_openvino_strided_slice1(rt_build *b)
{
    static const char *const inputs[] = {"data", "begin", "end", "stride", NULL};
    static const char *const attrs[] = {"begin_mask",       "end_mask",      "new_axis_mask",
                                        "shrink_axis_mask", "ellipsis_mask", NULL};
    const rt_tensor *data, *begin, *end, *stride;
    dmlcl_shape ds, bs, es, ss;
    dmlcl_int_array dv, bv, ev, sv;
    dmlcl_openvino_strided_slice_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || input(b, "data", 0, &data, &ds, &dv) ||
        input(b, "begin", 0, &begin, &bs, &bv) || input(b, "end", 0, &end, &es, &ev) ||
        input(b, "stride", 1, &stride, &ss, &sv) || mask(b, "begin_mask", &a.begin_mask) ||
        mask(b, "end_mask", &a.end_mask) || mask(b, "new_axis_mask", &a.new_axis_mask) ||
        mask(b, "shrink_axis_mask", &a.shrink_axis_mask) ||
        mask(b, "ellipsis_mask", &a.ellipsis_mask))
        return -1;
    a.data_type = data->type->dml;
    a.data = &ds;
    a.begin = &bv;
    a.end = &ev;
    a.stride = stride ? &sv : NULL;
    a.begin_dims = &bs;
    a.end_dims = &es;
    a.stride_dims = stride ? &ss : NULL;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_strided_slice(1, &a, r), r, data, 1);
}

static int build_onnx_slice13(rt_build *b)
{
    static const char *const inputs[] = {"data", "starts", "ends", "axes", "steps", NULL};
    static const char *const attrs[] = {NULL};
    const rt_tensor *data, *starts, *ends, *axes, *steps;
    dmlcl_shape ds, s1, s2, s3, s4;
    dmlcl_int_array dv, v1, v2, v3, v4;
    if (rt_check_names(b, inputs, attrs, one_output) || input(b, "data", 0, &data, &ds, &dv) ||
        input(b, "starts", 0, &starts, &s1, &v1) || input(b, "ends", 0, &ends, &s2, &v2) ||
        input(b, "axes", 1, &axes, &s3, &v3) || input(b, "steps", 1, &steps, &s4, &v4))
        return -1;
    dmlcl_onnx_slice_args a = {.data = &ds,
                               .data_type = data->type->dml,
                               .starts = &v1,
                               .starts_dims = &s1,
                               .ends = &v2,
                               .ends_dims = &s2,
                               .axes = axes ? &v3 : NULL,
                               .axes_dims = axes ? &s3 : NULL,
                               .steps = steps ? &v4 : NULL,
                               .steps_dims = steps ? &s4 : NULL};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_slice(13, &a, r), r, data, 1);
}

const rt_op rt_ops_slice[] = {
    {"openvino.StridedSlice-1", build_openvino_strided_slice1},
    {"onnx.Slice-13", build_onnx_slice13},
    {NULL, NULL},
};
