/* SPDX-License-Identifier: MIT */
/*
 * Builders for concatenation and split: DirectML's DML_OPERATOR_JOIN
 * (inputs.InputTensors list; attr Axis; output OutputTensor) and
 * DML_OPERATOR_SPLIT (inputs.InputTensor; attr Axis; outputs OutputTensors
 * list), openvino.Concat-1, Split-1, VariadicSplit-1 and onnx.Concat-13,
 * Split-13, Split-18 (docs/case-format.md, version 2).
 *
 * DirectML: InputCount / OutputCount are the lists' lengths. Output
 * descriptions come from inputs.OutputTensor / inputs.OutputTensors (type,
 * shape, strides, no data) when given, else from the expected outputs,
 * packed; an expected-error JOIN with neither gets the inputs joined along
 * Axis as far as they allow (input 0's shape otherwise).
 *
 * Frameworks: the data go to dmlcl's front-end as shapes and host values
 * (axis, split_lengths, split with their own shapes and types, so their
 * rules are the front-end's to judge); the outputs are bound with the shapes
 * it infers, so the runner checks the shape inference too. ONNX Split's
 * output count is the expected outputs list's length (0 when the case
 * expects an error: the front-end then counts split or num_outputs). The
 * front-end's descriptor is copied into the build, its result cleared.
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};
static const char *const list_outputs[] = {"OutputTensors", NULL};
static const char *const fw_output[] = {"output", NULL};
static const char *const fw_outputs[] = {"outputs", NULL};

/* ---- DirectML ------------------------------------------------------------------------- */

/* Each list element must carry data (a described-only tensor belongs under OutputTensor). */
static int bind_list(rt_build *b, const char *name, const rt_tensor *const *t, unsigned n)
{
    for (unsigned i = 0; i < n; ++i) {
        if (t[i]->elems == NULL && t[i]->count != 0)
            return rt_fail(b, "inputs.%s[%u] has no data", name, i);
        if (rt_bind_input(b, t[i]) != 0)
            return -1;
    }
    return 0;
}

/* The inputs joined along axis when they agree on rank; else input 0's shape (or {1}). */
static void joined_shape(const rt_tensor *const *in, unsigned n, UINT axis, unsigned *rank,
                         UINT *sizes)
{
    *rank = n ? in[0]->rank : 1;
    sizes[0] = 1;
    if (n)
        memcpy(sizes, in[0]->sizes, in[0]->rank * sizeof *sizes);
    for (unsigned i = 1; i < n && axis < *rank; ++i)
        if (in[i]->rank == *rank)
            sizes[axis] += in[i]->sizes[axis];
}

static int build_join(rt_build *b)
{
    static const char *const inputs[] = {"InputTensors", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", "InputCount", NULL};
    DML_JOIN_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *const *in;
    unsigned n;
    if (rt_check_names(b, inputs, attrs, one_output) ||
        rt_input_list(b, "InputTensors", &in, &n, NULL) || rt_attr_uint(b, "Axis", 0, &d->Axis) ||
        rt_attr_uint(b, "InputCount", n, &d->InputCount) || bind_list(b, "InputTensors", in, n))
        return -1;
    if (d->InputCount > n)
        return rt_fail(b, "attrs.InputCount (%u) is more than inputs.InputTensors holds (%u)",
                       d->InputCount, n);
    DML_TENSOR_DESC *descs = rt_alloc(b, (n ? n : 1) * sizeof *descs);
    for (unsigned i = 0; i < n; ++i)
        descs[i] = in[i]->desc;
    d->InputTensors = descs;
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL)
        return rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
    rt_tensor *out;
    if (src != NULL) {
        out = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                            src->has_strides ? src->strides : NULL);
    } else {
        UINT sizes[RT_MAX_RANK];
        unsigned rank;
        joined_shape(in, n, d->Axis, &rank, sizes);
        out = rt_add_output(b, "OutputTensor", n ? in[0]->type : rt_type_by_name("FLOAT32"), rank,
                            sizes, NULL);
    }
    if (out == NULL)
        return -1;
    d->OutputTensor = &out->desc;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_JOIN, d};
    return 0;
}

static int build_split(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensors", NULL};
    static const char *const attrs[] = {"Axis", "OutputCount", NULL};
    DML_SPLIT_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in, *const *given, *const *expected;
    unsigned n, n_given, n_expected;
    int has_given, has_expected;
    if (rt_check_names(b, inputs, attrs, list_outputs) ||
        rt_output_count(b, "OutputTensors", "OutputTensors", &n) ||
        rt_input_list(b, "OutputTensors", &given, &n_given, &has_given) ||
        rt_expected_list(b, "OutputTensors", &expected, &n_expected, &has_expected) ||
        rt_attr_uint(b, "Axis", 0, &d->Axis) || rt_attr_uint(b, "OutputCount", n, &d->OutputCount))
        return -1;
    if (d->OutputCount > n)
        return rt_fail(b, "attrs.OutputCount (%u) is more than the %u outputs the case gives",
                       d->OutputCount, n);
    if ((in = rt_data_input(b, "InputTensor")) == NULL || rt_bind_input(b, in) != 0)
        return -1;
    DML_TENSOR_DESC *descs = rt_alloc(b, (n ? n : 1) * sizeof *descs);
    for (unsigned i = 0; i < n; ++i) {
        const rt_tensor *src = has_given ? given[i] : expected[i];
        if (has_given && src->elems != NULL)
            return rt_fail(b, "inputs.OutputTensors[%u] describes an output and takes no data", i);
        rt_tensor *t = rt_add_list_output(b, "OutputTensors", i, src->type, src->rank, src->sizes,
                                          src->has_strides ? src->strides : NULL);
        if (t == NULL)
            return -1;
        descs[i] = t->desc;
    }
    d->InputTensor = &in->desc;
    d->OutputTensors = descs;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SPLIT, d};
    return 0;
}

/* ---- Framework results ------------------------------------------------------------------ */

/* A copy of tensor description t in the build's memory. */
static DML_TENSOR_DESC copy_tensor(rt_build *b, const DML_TENSOR_DESC *t)
{
    const DML_BUFFER_TENSOR_DESC *src = t->Desc;
    DML_BUFFER_TENSOR_DESC *buf = rt_alloc(b, sizeof *buf);
    UINT *sizes = rt_alloc(b, RT_MAX_RANK * sizeof *sizes);
    *buf = *src;
    memcpy(sizes, src->Sizes, src->DimensionCount * sizeof *sizes);
    buf->Sizes = sizes;
    return (DML_TENSOR_DESC){t->Type, buf};
}

static DML_TENSOR_DESC *copy_tensors(rt_build *b, const DML_TENSOR_DESC *t, unsigned n)
{
    DML_TENSOR_DESC *out = rt_alloc(b, (n ? n : 1) * sizeof *out);
    for (unsigned i = 0; i < n; ++i)
        out[i] = copy_tensor(b, &t[i]);
    return out;
}

static int add_framework_output(rt_build *b, const char *name, int index, const rt_type *type,
                                const dmlcl_shape *s)
{
    UINT sizes[RT_MAX_RANK];
    for (unsigned i = 0; i < s->rank; ++i)
        sizes[i] = (UINT)s->dims[i];
    rt_tensor *t = index < 0
                       ? rt_add_output(b, name, type, s->rank, sizes, NULL)
                       : rt_add_list_output(b, name, (unsigned)index, type, s->rank, sizes, NULL);
    return t ? 0 : -1;
}

/*
 * A front-end's outcome for a build: a rejection is the case's creation
 * outcome; a JOIN1 result binds its output, a SPLIT1 result its outputs,
 * and the descriptor is copied. Clears r either way.
 */
static int finish(rt_build *b, HRESULT hr, dmlcl_frontend_result *r, const rt_type *type)
{
    int rc = 0;
    if (FAILED(hr)) {
        b->frontend_hr = hr;
    } else if (r->desc.Type == DMLCL_OPERATOR_JOIN1) {
        DMLCL_JOIN1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = r->op.join1;
        d->InputTensors = copy_tensors(b, r->op.join1.InputTensors, d->InputCount);
        d->OutputTensor = copy_tensors(b, r->op.join1.OutputTensor, 1);
        b->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_JOIN1, d};
        rc = add_framework_output(b, "output", -1, type, &r->output_shape);
    } else {
        DMLCL_SPLIT1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = r->op.split1;
        d->InputTensor = copy_tensors(b, r->op.split1.InputTensor, 1);
        d->OutputTensors = copy_tensors(b, r->op.split1.OutputTensors, d->OutputCount);
        b->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_SPLIT1, d};
        for (unsigned i = 0; rc == 0 && i < r->output_count; ++i)
            rc = add_framework_output(b, "outputs", (int)i, type, &r->output_shapes[i]);
    }
    dmlcl_frontend_result_clear(r);
    return rc;
}

/* ---- Concat ------------------------------------------------------------------------------ */

static int build_concat(rt_build *b, bool onnx)
{
    static const char *const inputs[] = {"inputs", NULL};
    static const char *const attrs[] = {"axis", NULL};
    const rt_tensor *const *in;
    unsigned n;
    int64_t axis;
    if (rt_check_names(b, inputs, attrs, fw_output) || rt_input_list(b, "inputs", &in, &n, NULL) ||
        rt_attr_int64(b, "axis", 0, &axis) || bind_list(b, "inputs", in, n))
        return -1;
    if (rt_attr(b, "axis") == NULL)
        return rt_fail(b, "%s needs attrs.axis (it has no default)", b->c->op);
    dmlcl_shape *shapes = rt_alloc(b, (n ? n : 1) * sizeof *shapes);
    DML_TENSOR_DATA_TYPE *types = rt_alloc(b, (n ? n : 1) * sizeof *types);
    for (unsigned i = 0; i < n; ++i) {
        if (rt_framework_shape(b, "inputs", in[i], &shapes[i]) != 0)
            return -1;
        types[i] = in[i]->type->dml;
    }
    dmlcl_concat_args a = {shapes, types, n, axis};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    HRESULT hr = onnx ? dmlcl_onnx_concat(13, &a, r) : dmlcl_openvino_concat(1, &a, r);
    return finish(b, hr, r, n ? in[0]->type : NULL);
}

static int build_openvino_concat1(rt_build *b)
{
    return build_concat(b, false);
}

static int build_onnx_concat13(rt_build *b)
{
    return build_concat(b, true);
}

/* ---- Split ------------------------------------------------------------------------------- */

/* An integer input as host values with its own shape (absent and optional: *out NULL). */
static int int_input(rt_build *b, const char *name, int optional, dmlcl_shape *shape,
                     dmlcl_int_array *values, const dmlcl_int_array **out)
{
    const rt_tensor *t = rt_input(b, name);
    *out = NULL;
    if (t == NULL)
        return optional ? 0 : rt_fail(b, "%s needs inputs.%s", b->c->op, name);
    if (t->elems == NULL && t->count != 0)
        return rt_fail(b, "inputs.%s has no data", name);
    if (rt_framework_shape(b, name, t, shape) != 0)
        return -1;
    *values = rt_int_array(t);
    *out = values;
    return 0;
}

static int build_openvino_split1(rt_build *b)
{
    static const char *const inputs[] = {"data", "axis", NULL};
    static const char *const attrs[] = {"num_splits", NULL};
    dmlcl_openvino_split_args a;
    dmlcl_shape ds, as;
    dmlcl_int_array av;
    memset(&a, 0, sizeof a);
    const rt_tensor *data;
    if (rt_check_names(b, inputs, attrs, fw_outputs) ||
        (data = rt_framework_input(b, "data", &ds)) == NULL || rt_bind_input(b, data) ||
        int_input(b, "axis", 0, &as, &av, &a.axis) ||
        rt_attr_int64(b, "num_splits", 0, &a.num_splits))
        return -1;
    if (rt_attr(b, "num_splits") == NULL)
        return rt_fail(b, "%s needs attrs.num_splits", b->c->op);
    a.data = &ds;
    a.data_type = data->type->dml;
    a.axis_dims = &as;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return finish(b, dmlcl_openvino_split(1, &a, r), r, data->type);
}

static int build_openvino_variadic_split1(rt_build *b)
{
    static const char *const inputs[] = {"data", "axis", "split_lengths", NULL};
    dmlcl_openvino_variadic_split_args a;
    dmlcl_shape ds, as, ls;
    dmlcl_int_array av, lv;
    memset(&a, 0, sizeof a);
    const rt_tensor *data;
    if (rt_check_names(b, inputs, NULL, fw_outputs) ||
        (data = rt_framework_input(b, "data", &ds)) == NULL || rt_bind_input(b, data) ||
        int_input(b, "axis", 0, &as, &av, &a.axis) ||
        int_input(b, "split_lengths", 0, &ls, &lv, &a.split_lengths))
        return -1;
    a.data = &ds;
    a.data_type = data->type->dml;
    a.axis_dims = &as;
    a.split_lengths_dims = &ls;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return finish(b, dmlcl_openvino_variadic_split(1, &a, r), r, data->type);
}

static int build_onnx_split(rt_build *b, int opset)
{
    static const char *const inputs[] = {"input", "split", NULL};
    static const char *const attrs13[] = {"axis", NULL};
    static const char *const attrs18[] = {"axis", "num_outputs", NULL};
    dmlcl_onnx_split_args a;
    dmlcl_shape ds, ss;
    dmlcl_int_array sv;
    const rt_tensor *const *expected;
    unsigned n = 0;
    int has_expected;
    memset(&a, 0, sizeof a);
    const rt_tensor *data;
    if (rt_check_names(b, inputs, opset >= 18 ? attrs18 : attrs13, fw_outputs) ||
        rt_expected_list(b, "outputs", &expected, &n, &has_expected) ||
        (data = rt_framework_input(b, "input", &ds)) == NULL || rt_bind_input(b, data) ||
        int_input(b, "split", 1, &ss, &sv, &a.split) || rt_attr_int64(b, "axis", 0, &a.axis) ||
        rt_attr_int64(b, "num_outputs", 0, &a.num_outputs))
        return -1;
    if (b->c->expect == RT_EXPECT_OUTPUTS && !has_expected)
        return rt_fail(b, "%s: the output count is the length of expected.outputs.outputs",
                       b->c->op);
    a.input = &ds;
    a.input_type = data->type->dml;
    a.split_dims = a.split ? &ss : NULL;
    a.output_count = n;
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return finish(b, dmlcl_onnx_split(opset, &a, r), r, data->type);
}

static int build_onnx_split13(rt_build *b)
{
    return build_onnx_split(b, 13);
}

static int build_onnx_split18(rt_build *b)
{
    return build_onnx_split(b, 18);
}

const rt_op rt_ops_joins[] = {
    {"DML_OPERATOR_JOIN", build_join},
    {"DML_OPERATOR_SPLIT", build_split},
    {"openvino.Concat-1", build_openvino_concat1},
    {"openvino.Split-1", build_openvino_split1},
    {"openvino.VariadicSplit-1", build_openvino_variadic_split1},
    {"onnx.Concat-13", build_onnx_concat13},
    {"onnx.Split-13", build_onnx_split13},
    {"onnx.Split-18", build_onnx_split18},
    {NULL, NULL},
};
