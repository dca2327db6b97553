/* SPDX-License-Identifier: MIT */
/*
 * Builders for the pads and the roll: DML_OPERATOR_PADDING and
 * DML_OPERATOR_PADDING1 (attrs PaddingMode, PaddingValue, and for PADDING1
 * PaddingValueDataType; StartPadding and EndPadding lists), and the
 * framework front-ends openvino.Pad-1, openvino.Pad-12 (inputs data,
 * pads_begin, pads_end, pad_value; attr pad_mode), openvino.Roll-7 (inputs
 * data, shift, axes), onnx.Pad-18 and onnx.Pad-19 (inputs data, pads,
 * constant_value, axes; attr mode). The framework inputs other than data
 * go to dmlcl's front-end as host values with their shapes and types, so
 * its rules judge them; only data is bound, with an output of the inferred
 * shape.
 */
#include <string.h>

#include "runner.h"

static const char *const dml_output[] = {"OutputTensor", NULL};
static const char *const one_output[] = {"output", NULL};

/* ---- DirectML ---------------------------------------------------------------------------- */

static int padding_mode(rt_build *b, DML_PADDING_MODE *out)
{
    static const char *const names[] = {"DML_PADDING_MODE_CONSTANT", "DML_PADDING_MODE_EDGE",
                                        "DML_PADDING_MODE_REFLECTION", "DML_PADDING_MODE_SYMMETRIC",
                                        "DML_PADDING_MODE_WRAP"};
    const cJSON *v = rt_attr(b, "PaddingMode");
    *out = DML_PADDING_MODE_CONSTANT;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v) && rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_PADDING_MODE)(int)v->valuedouble; /* out-of-range values reach the rules */
        return 0;
    }
    for (int i = 0; cJSON_IsString(v) && i < 5; ++i)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (DML_PADDING_MODE)i;
            return 0;
        }
    return rt_fail(b, "attrs.PaddingMode must be a DML_PADDING_MODE name");
}

/* The input, the padding lists, and the output (given, expected, or In + Start + End). */
static int padding_common(rt_build *b, UINT **start, UINT **end, UINT *dims,
                          const DML_TENSOR_DESC **in_desc, const DML_TENSOR_DESC **out_desc)
{
    unsigned ns, ne;
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in) != 0 ||
        rt_attr_uint_list(b, "StartPadding", start, &ns) ||
        rt_attr_uint_list(b, "EndPadding", end, &ne))
        return -1;
    *dims = in->rank;
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    rt_tensor *t;
    if (src != NULL) {
        t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    } else {
        UINT sizes[RT_MAX_RANK];
        for (unsigned i = 0; i < in->rank; ++i)
            sizes[i] = in->sizes[i] + (*start && i < ns ? (*start)[i] : 0) +
                       (*end && i < ne ? (*end)[i] : 0);
        t = rt_add_output(b, "OutputTensor", in->type, in->rank, sizes, NULL);
    }
    if (t == NULL)
        return -1;
    /* Lists shorter than the rank would be read past their end: the rule is DimensionCount. */
    if ((*start && ns < in->rank) || (*end && ne < in->rank))
        *dims = ns < ne ? ns : ne;
    *in_desc = &in->desc;
    *out_desc = &t->desc;
    return 0;
}

static int build_padding(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"PaddingMode", "PaddingValue", "StartPadding", "EndPadding",
                                        NULL};
    DML_PADDING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *start, *end;
    if (rt_check_names(b, inputs, attrs, dml_output) || padding_mode(b, &d->PaddingMode) ||
        padding_common(b, &start, &end, &d->DimensionCount, &d->InputTensor, &d->OutputTensor))
        return -1;
    const cJSON *v = rt_attr(b, "PaddingValue");
    if (v != NULL &&
        rt_value_parse(rt_type_by_name("FLOAT32"), v, &d->PaddingValue, b->why, sizeof b->why) != 0)
        return -1;
    d->StartPadding = start;
    d->EndPadding = end;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING, d};
    return 0;
}

static int build_padding1(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"PaddingMode",  "PaddingValueDataType", "PaddingValue",
                                        "StartPadding", "EndPadding",           NULL};
    DML_PADDING1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *start, *end;
    if (rt_check_names(b, inputs, attrs, dml_output) || padding_mode(b, &d->PaddingMode) ||
        padding_common(b, &start, &end, &d->DimensionCount, &d->InputTensor, &d->OutputTensor))
        return -1;
    const cJSON *tn = rt_attr(b, "PaddingValueDataType"), *v = rt_attr(b, "PaddingValue");
    const rt_type *type = b->inputs[0]->type;
    if (tn != NULL) {
        type = cJSON_IsString(tn) ? rt_type_by_name(tn->valuestring) : NULL;
        if (type == NULL)
            return rt_fail(b, "attrs.PaddingValueDataType must be a type name");
    }
    d->PaddingValueDataType = type->dml;
    if (v != NULL && rt_value_parse(type, v, d->PaddingValue.Bytes, b->why, sizeof b->why) != 0)
        return -1;
    d->StartPadding = start;
    d->EndPadding = end;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING1, d};
    return 0;
}

/* ---- Frameworks -------------------------------------------------------------------------- */

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

static int string_attr(rt_build *b, const char *name, const char **out)
{
    const cJSON *v = rt_attr(b, name);
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!cJSON_IsString(v))
        return rt_fail(b, "attrs.%s must be a string", name);
    *out = v->valuestring;
    return 0;
}

static int build_openvino_pad(rt_build *b, int opset)
{
    static const char *const inputs[] = {"data", "pads_begin", "pads_end", "pad_value", NULL};
    static const char *const attrs[] = {"pad_mode", NULL};
    const rt_tensor *data, *pb, *pe, *pv;
    dmlcl_shape ds, bs, es, vs;
    dmlcl_int_array dv, bv, ev, vv;
    dmlcl_openvino_pad_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || input(b, "data", 0, &data, &ds, &dv) ||
        input(b, "pads_begin", 0, &pb, &bs, &bv) || input(b, "pads_end", 0, &pe, &es, &ev) ||
        input(b, "pad_value", 1, &pv, &vs, &vv) || string_attr(b, "pad_mode", &a.pad_mode))
        return -1;
    if (pv != NULL && pv->count == 0)
        return rt_fail(b, "inputs.pad_value holds no element");
    a.data = &ds;
    a.data_type = data->type->dml;
    a.pads_begin = &bv;
    a.pads_begin_dims = &bs;
    a.pads_end = &ev;
    a.pads_end_dims = &es;
    if (pv != NULL) {
        a.pad_value = pv->elems;
        a.pad_value_type = pv->type->dml;
        a.pad_value_dims = &vs;
    }
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_pad(opset, &a, r), r, data, 1);
}

static int build_openvino_pad1(rt_build *b)
{
    return build_openvino_pad(b, 1);
}

static int build_openvino_pad12(rt_build *b)
{
    return build_openvino_pad(b, 12);
}

static int build_openvino_roll7(rt_build *b)
{
    static const char *const inputs[] = {"data", "shift", "axes", NULL};
    static const char *const attrs[] = {NULL};
    const rt_tensor *data, *shift, *axes;
    dmlcl_shape ds, ss, as;
    dmlcl_int_array dv, sv, av;
    if (rt_check_names(b, inputs, attrs, one_output) || input(b, "data", 0, &data, &ds, &dv) ||
        input(b, "shift", 0, &shift, &ss, &sv) || input(b, "axes", 0, &axes, &as, &av))
        return -1;
    dmlcl_openvino_roll_args a = {.data = &ds,
                                  .data_type = data->type->dml,
                                  .shift = &sv,
                                  .shift_dims = &ss,
                                  .axes = &av,
                                  .axes_dims = &as};
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_openvino_roll(7, &a, r), r, data, 1);
}

static int build_onnx_pad(rt_build *b, int opset)
{
    static const char *const inputs[] = {"data", "pads", "constant_value", "axes", NULL};
    static const char *const attrs[] = {"mode", NULL};
    const rt_tensor *data, *pads, *cv, *axes;
    dmlcl_shape ds, ps, cs, as;
    dmlcl_int_array dv, pv, cvv, av;
    dmlcl_onnx_pad_args a;
    memset(&a, 0, sizeof a);
    if (rt_check_names(b, inputs, attrs, one_output) || input(b, "data", 0, &data, &ds, &dv) ||
        input(b, "pads", 0, &pads, &ps, &pv) || input(b, "constant_value", 1, &cv, &cs, &cvv) ||
        input(b, "axes", 1, &axes, &as, &av) || string_attr(b, "mode", &a.mode))
        return -1;
    if (cv != NULL && cv->count == 0)
        return rt_fail(b, "inputs.constant_value holds no element");
    a.data = &ds;
    a.data_type = data->type->dml;
    a.pads = &pv;
    a.pads_dims = &ps;
    if (cv != NULL) {
        a.constant_value = cv->elems;
        a.constant_value_type = cv->type->dml;
        a.constant_value_dims = &cs;
    }
    if (axes != NULL) {
        a.axes = &av;
        a.axes_dims = &as;
    }
    dmlcl_frontend_result *r = rt_alloc(b, sizeof *r);
    return rt_frontend_finish(b, dmlcl_onnx_pad(opset, &a, r), r, data, 1);
}

static int build_onnx_pad18(rt_build *b)
{
    return build_onnx_pad(b, 18);
}

static int build_onnx_pad19(rt_build *b)
{
    return build_onnx_pad(b, 19);
}

const rt_op rt_ops_pad[] = {
    {"DML_OPERATOR_PADDING", build_padding},   {"DML_OPERATOR_PADDING1", build_padding1},
    {"openvino.Pad-1", build_openvino_pad1},   {"openvino.Pad-12", build_openvino_pad12},
    {"openvino.Roll-7", build_openvino_roll7}, {"onnx.Pad-18", build_onnx_pad18},
    {"onnx.Pad-19", build_onnx_pad19},         {NULL, NULL},
};
