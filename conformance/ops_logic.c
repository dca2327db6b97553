/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's comparisons, logic, bit operations, IS_NAN, IS_INFINITY (attr
 * InfinityMode), IF, CAST and the fills (attrs ValueDataType, Value or ValueStart and
 * ValueDelta, values by the tensor data rules). Tensors are keyed by the descriptor's member
 * names; the output comes from inputs.OutputTensor or the expected output (ops_directml.c's
 * rule), else it has the first input's type and shape. Every result is exact but
 * FILL_VALUE_SEQUENCE's on float types (2 ULP, reference/precision.md).
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

typedef struct lg_op {
    const char *name;
    DML_OPERATOR_TYPE type;
    int arity; /* 1: InputTensor; 2: ATensor, BTensor; 3: ConditionTensor, ATensor, BTensor */
} lg_op;

static const lg_op lg_ops[] = {
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS", DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN",
     DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL",
     DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN", DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL",
     DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND", DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_OR", DML_OPERATOR_ELEMENT_WISE_LOGICAL_OR, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR", DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR, 2},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT", DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT, 1},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_AND", DML_OPERATOR_ELEMENT_WISE_BIT_AND, 2},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_OR", DML_OPERATOR_ELEMENT_WISE_BIT_OR, 2},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_XOR", DML_OPERATOR_ELEMENT_WISE_BIT_XOR, 2},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_NOT", DML_OPERATOR_ELEMENT_WISE_BIT_NOT, 1},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT", DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT, 2},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT", DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT, 2},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_COUNT", DML_OPERATOR_ELEMENT_WISE_BIT_COUNT, 1},
    {"DML_OPERATOR_ELEMENT_WISE_IS_NAN", DML_OPERATOR_ELEMENT_WISE_IS_NAN, 1},
    {"DML_OPERATOR_ELEMENT_WISE_IS_INFINITY", DML_OPERATOR_ELEMENT_WISE_IS_INFINITY, 1},
    {"DML_OPERATOR_ELEMENT_WISE_IF", DML_OPERATOR_ELEMENT_WISE_IF, 3},
    {"DML_OPERATOR_CAST", DML_OPERATOR_CAST, 1},
};

static int build_logic(rt_build *b)
{
    const lg_op *e = NULL;
    for (size_t i = 0; i < sizeof lg_ops / sizeof lg_ops[0]; ++i)
        if (strcmp(lg_ops[i].name, b->c->op) == 0)
            e = &lg_ops[i];
    if (e == NULL)
        return rt_fail(b, "no element-wise operator %s", b->c->op);
    static const char *const unary[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const binary[] = {"ATensor", "BTensor", "OutputTensor", NULL};
    static const char *const select[] = {"ConditionTensor", "ATensor", "BTensor", "OutputTensor",
                                         NULL};
    static const char *const mode_attrs[] = {"InfinityMode", NULL}, *const no_attrs[] = {NULL};
    const char *const *names = e->arity == 1 ? unary : e->arity == 2 ? binary : select;
    bool is_inf = e->type == DML_OPERATOR_ELEMENT_WISE_IS_INFINITY;
    if (rt_check_names(b, names, is_inf ? mode_attrs : no_attrs, one_output))
        return -1;
    /* Every descriptor here: its input tensors in order, OutputTensor, then (IS_INFINITY) the
     * mode, as DML_ELEMENT_WISE_IF_OPERATOR_DESC's leading members and IS_INFINITY's. */
    const rt_tensor *in[3];
    for (int k = 0; k < e->arity; ++k)
        if ((in[k] = rt_data_input(b, names[k])) == NULL || rt_bind_input(b, in[k]))
            return -1;
    const rt_tensor *like = in[e->arity == 3 ? 1 : 0];
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL)
        return rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
    rt_tensor *out =
        src ? rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                            src->has_strides ? src->strides : NULL)
            : rt_add_output(b, "OutputTensor", like->type, like->rank, like->sizes, NULL);
    if (out == NULL)
        return -1;
    if (is_inf) {
        DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        UINT mode;
        if (rt_attr_uint(b, "InfinityMode", 0, &mode))
            return -1;
        *d = (DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC){&in[0]->desc, &out->desc,
                                                          (DML_IS_INFINITY_MODE)mode};
        b->desc.Desc = d;
    } else {
        DML_ELEMENT_WISE_IF_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        const DML_TENSOR_DESC **t = (const DML_TENSOR_DESC **)d;
        for (int k = 0; k < e->arity; ++k)
            t[k] = &in[k]->desc;
        t[e->arity] = &out->desc;
        b->desc.Desc = d;
    }
    b->desc.Type = e->type;
    return 0;
}

/* FILL_VALUE_CONSTANT (Value) and FILL_VALUE_SEQUENCE (ValueStart, ValueDelta): values of
 * ValueDataType (absent: the output's type). */
static int build_fill(rt_build *b)
{
    bool sequence = strcmp(b->c->op, "DML_OPERATOR_FILL_VALUE_SEQUENCE") == 0;
    static const char *const outs_only[] = {"OutputTensor", NULL};
    static const char *const constant_attrs[] = {"ValueDataType", "Value", NULL};
    static const char *const sequence_attrs[] = {"ValueDataType", "ValueStart", "ValueDelta", NULL};
    const rt_type *vt;
    if (rt_check_names(b, outs_only, sequence ? sequence_attrs : constant_attrs, one_output) ||
        rt_attr_type(b, "ValueDataType", &vt))
        return -1;
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (src == NULL)
        return rt_fail(b, "a fill needs inputs.OutputTensor or an expected OutputTensor");
    rt_tensor *out = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                   src->has_strides ? src->strides : NULL);
    if (out == NULL)
        return -1;
    if (vt == NULL)
        vt = src->type;
    if (sequence) {
        DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->OutputTensor = &out->desc;
        d->ValueDataType = vt->dml;
        if (rt_attr_value(b, "ValueStart", vt, &d->ValueStart) ||
            rt_attr_value(b, "ValueDelta", vt, &d->ValueDelta))
            return -1;
        b->desc.Desc = d;
        b->desc.Type = DML_OPERATOR_FILL_VALUE_SEQUENCE;
        if (src->type->dml == DML_TENSOR_DATA_TYPE_FLOAT32 ||
            src->type->dml == DML_TENSOR_DATA_TYPE_FLOAT16)
            b->ulp_tolerance = 2;
    } else {
        DML_FILL_VALUE_CONSTANT_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->OutputTensor = &out->desc;
        d->ValueDataType = vt->dml;
        if (rt_attr_value(b, "Value", vt, &d->Value))
            return -1;
        b->desc.Desc = d;
        b->desc.Type = DML_OPERATOR_FILL_VALUE_CONSTANT;
    }
    return 0;
}

const rt_op rt_ops_logic[] = {
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_OR", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_AND", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_OR", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_XOR", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_NOT", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_BIT_COUNT", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_IS_NAN", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_IS_INFINITY", build_logic},
    {"DML_OPERATOR_ELEMENT_WISE_IF", build_logic},
    {"DML_OPERATOR_CAST", build_logic},
    {"DML_OPERATOR_FILL_VALUE_CONSTANT", build_fill},
    {"DML_OPERATOR_FILL_VALUE_SEQUENCE", build_fill},
    {NULL, NULL},
};
