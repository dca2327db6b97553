/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's integer and quantized matrix operators (src/ops/intmm.c):
 * MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, MATRIX_MULTIPLY_INTEGER_TO_FLOAT,
 * CONVOLUTION_INTEGER, QUANTIZED_LINEAR_CONVOLUTION: the descriptor's tensors by their member
 * names (optional ones absent: NULL), the OutputTensor described under inputs (no data) or by
 * the expected output; the convolutions' attrs Strides, Dilations, StartPadding, EndPadding
 * (absent: 1, 1, 0, 0 each; DimensionCount from attrs.DimensionCount, else from the lists,
 * else InputTensor's DimensionCount - 2) and GroupCount (absent 1).
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

/* A data input by name (required) or absent (optional, its slot bound empty). */
static int input(rt_build *b, const char *name, bool required, const DML_TENSOR_DESC **out)
{
    *out = NULL;
    if (!required && rt_input(b, name) == NULL)
        return rt_bind_input(b, NULL);
    const rt_tensor *t = rt_data_input(b, name);
    if (t == NULL || rt_bind_input(b, t))
        return -1;
    *out = &t->desc;
    return 0;
}

static int output(rt_build *b, const DML_TENSOR_DESC **out)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL)
        return rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
    if (src == NULL)
        return rt_fail(b, "OutputTensor: neither described under inputs nor expected");
    rt_tensor *t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                 src->has_strides ? src->strides : NULL);
    if (t == NULL)
        return -1;
    *out = &t->desc;
    return 0;
}

/* The descriptor's tensor members in order: name, required. */
typedef struct member {
    const char *name;
    bool required;
} member;

static int bind_members(rt_build *b, const member *m, const DML_TENSOR_DESC **slots)
{
    for (int i = 0; m[i].name != NULL; ++i) {
        if (strcmp(m[i].name, "OutputTensor") == 0) {
            if (output(b, &slots[i]))
                return -1;
        } else if (input(b, m[i].name, m[i].required, &slots[i])) {
            return -1;
        }
    }
    return 0;
}

static void names_of(const member *m, const char **names)
{
    int n = 0;
    for (; m[n].name != NULL; ++n)
        names[n] = m[n].name;
    names[n] = NULL;
}

static const member mmi[] = {{"ATensor", true},      {"AZeroPointTensor", false},
                             {"BTensor", true},      {"BZeroPointTensor", false},
                             {"OutputTensor", true}, {NULL, false}};
static const member qlmm[] = {{"ATensor", true},           {"AScaleTensor", true},
                              {"AZeroPointTensor", false}, {"BTensor", true},
                              {"BScaleTensor", true},      {"BZeroPointTensor", false},
                              {"OutputScaleTensor", true}, {"OutputZeroPointTensor", false},
                              {"OutputTensor", true},      {NULL, false}};
static const member mmitf[] = {
    {"ATensor", true},     {"AScaleTensor", true}, {"AZeroPointTensor", false},
    {"BTensor", true},     {"BScaleTensor", true}, {"BZeroPointTensor", false},
    {"BiasTensor", false}, {"OutputTensor", true}, {NULL, false}};
static const member ci[] = {{"InputTensor", true},  {"InputZeroPointTensor", false},
                            {"FilterTensor", true}, {"FilterZeroPointTensor", false},
                            {"OutputTensor", true}, {NULL, false}};
static const member qlc[] = {{"InputTensor", true},
                             {"InputScaleTensor", true},
                             {"InputZeroPointTensor", false},
                             {"FilterTensor", true},
                             {"FilterScaleTensor", true},
                             {"FilterZeroPointTensor", false},
                             {"BiasTensor", false},
                             {"OutputScaleTensor", true},
                             {"OutputZeroPointTensor", false},
                             {"OutputTensor", true},
                             {NULL, false}};

static int build_product(rt_build *b)
{
    const char *op = b->c->op;
    const bool q = strcmp(op, "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY") == 0;
    const bool f = strcmp(op, "DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT") == 0;
    const member *m = q ? qlmm : f ? mmitf : mmi;
    const char *names[12];
    names_of(m, names);
    static const char *const no_attrs[] = {NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, names, no_attrs, outputs))
        return -1;
    const DML_TENSOR_DESC *t[12];
    if (bind_members(b, m, t))
        return -1;
    if (q) {
        DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC){t[0], t[1], t[2], t[3], t[4],
                                                                  t[5], t[6], t[7], t[8]};
        b->desc.Type = DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY;
        b->desc.Desc = d;
    } else if (f) {
        DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC){t[0], t[1], t[2], t[3],
                                                                  t[4], t[5], t[6], t[7]};
        b->desc.Type = DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT;
        b->desc.Desc = d;
    } else {
        DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC){t[0], t[1], t[2], t[3], t[4]};
        b->desc.Type = DML_OPERATOR_MATRIX_MULTIPLY_INTEGER;
        b->desc.Desc = d;
    }
    return 0;
}

/* A list attribute (absent: `def` each); its length sets *count when *count is 0. */
static int attr_list(rt_build *b, const char *name, UINT def, unsigned *count, const UINT **out)
{
    if (rt_attr(b, name) == NULL) {
        UINT *v = rt_alloc(b, 8 * sizeof *v);
        for (int i = 0; i < 8; ++i)
            v[i] = def;
        *out = v;
        return 0;
    }
    UINT *vals;
    unsigned n;
    if (rt_attr_uint_list(b, name, &vals, &n))
        return -1;
    if (*count == 0)
        *count = n;
    else if (n != *count)
        return rt_fail(b, "attrs.%s has %u values; DimensionCount is %u", name, n, *count);
    *out = vals;
    return 0;
}

/* Both convolution descriptors end in DimensionCount, Strides, Dilations, StartPadding,
 * EndPadding, GroupCount after their tensors. */
typedef struct conv_tail {
    UINT DimensionCount;
    const UINT *Strides, *Dilations, *StartPadding, *EndPadding;
    UINT GroupCount;
} conv_tail;

static int build_conv(rt_build *b)
{
    const bool q = strcmp(b->c->op, "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION") == 0;
    const member *m = q ? qlc : ci;
    const char *names[12];
    names_of(m, names);
    static const char *const attrs[] = {"DimensionCount", "Strides",    "Dilations", "StartPadding",
                                        "EndPadding",     "GroupCount", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, names, attrs, outputs))
        return -1;
    DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC *qd = rt_alloc(b, sizeof *qd);
    DML_CONVOLUTION_INTEGER_OPERATOR_DESC *cd = rt_alloc(b, sizeof *cd);
    const DML_TENSOR_DESC *slots[12];
    if (bind_members(b, m, slots))
        return -1;
    conv_tail t = {0};
    unsigned count = 0;
    if (rt_attr(b, "DimensionCount")) {
        UINT dc;
        if (rt_attr_uint(b, "DimensionCount", 0, &dc))
            return -1;
        count = dc;
    }
    if (attr_list(b, "Strides", 1, &count, &t.Strides) ||
        attr_list(b, "Dilations", 1, &count, &t.Dilations) ||
        attr_list(b, "StartPadding", 0, &count, &t.StartPadding) ||
        attr_list(b, "EndPadding", 0, &count, &t.EndPadding) ||
        rt_attr_uint(b, "GroupCount", 1, &t.GroupCount))
        return -1;
    if (count == 0) {
        const rt_tensor *in = rt_input(b, "InputTensor");
        count = in && in->rank > 2 ? in->rank - 2 : 0;
    }
    t.DimensionCount = count;
    if (q) {
        *qd = (DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC){
            slots[0],    slots[1],       slots[2],     slots[3],    slots[4],         slots[5],
            slots[6],    slots[7],       slots[8],     slots[9],    t.DimensionCount, t.Strides,
            t.Dilations, t.StartPadding, t.EndPadding, t.GroupCount};
        b->desc.Type = DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION;
        b->desc.Desc = qd;
    } else {
        *cd = (DML_CONVOLUTION_INTEGER_OPERATOR_DESC){
            slots[0],  slots[1],    slots[2],       slots[3],     slots[4],    t.DimensionCount,
            t.Strides, t.Dilations, t.StartPadding, t.EndPadding, t.GroupCount};
        b->desc.Type = DML_OPERATOR_CONVOLUTION_INTEGER;
        b->desc.Desc = cd;
    }
    return 0;
}

const rt_op rt_ops_intmm[] = {
    {"DML_OPERATOR_MATRIX_MULTIPLY_INTEGER", build_product},
    {"DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY", build_product},
    {"DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT", build_product},
    {"DML_OPERATOR_CONVOLUTION_INTEGER", build_conv},
    {"DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", build_conv},
    {NULL, NULL},
};
