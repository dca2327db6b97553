/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's generators that read an element's position (src/ops/one_hot.c,
 * src/ops/diagonal_matrix.c):
 *   ONE_HOT           inputs IndicesTensor, ValuesTensor, OutputTensor (a description without
 *                     data, or the expected output's type and shape); attr Axis
 *   DIAGONAL_MATRIX   OutputTensor as above; attrs Offset (INT), Value (FLOAT)
 *   DIAGONAL_MATRIX1  the optional InputTensor (absent: a NULL descriptor), OutputTensor as
 *                     above; attrs ValueDataType (absent: the output's type), Value (of that
 *                     type), DiagonalFillBegin, DiagonalFillEnd (INT)
 * Every result is exact.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

/* OutputTensor from inputs.OutputTensor (a description) or the expected output. */
static rt_tensor *output(rt_build *b)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL) {
        rt_fail(b, "%s needs inputs.OutputTensor or an expected OutputTensor", b->c->op);
        return NULL;
    }
    return rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                         src->has_strides ? src->strides : NULL);
}

static int attr_int(rt_build *b, const char *name, INT *out)
{
    int64_t v;
    if (rt_attr_int64(b, name, 0, &v))
        return -1;
    if (v < INT32_MIN || v > INT32_MAX)
        return rt_fail(b, "attrs.%s must be a 32-bit signed integer", name);
    *out = (INT)v;
    return 0;
}

static int build_one_hot(rt_build *b)
{
    static const char *const inputs[] = {"IndicesTensor", "ValuesTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_ONE_HOT_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *idx = rt_data_input(b, "IndicesTensor");
    if (idx == NULL || rt_bind_input(b, idx))
        return -1;
    const rt_tensor *val = rt_data_input(b, "ValuesTensor");
    if (val == NULL || rt_bind_input(b, val))
        return -1;
    rt_tensor *out = output(b);
    if (out == NULL || rt_attr_uint(b, "Axis", 0, &d->Axis))
        return -1;
    d->IndicesTensor = &idx->desc;
    d->ValuesTensor = &val->desc;
    d->OutputTensor = &out->desc;
    b->desc.Type = DML_OPERATOR_ONE_HOT;
    b->desc.Desc = d;
    return 0;
}

static int build_diagonal(rt_build *b)
{
    bool first = strcmp(b->c->op, "DML_OPERATOR_DIAGONAL_MATRIX") == 0;
    static const char *const ins0[] = {"OutputTensor", NULL};
    static const char *const ins1[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs0[] = {"Offset", "Value", NULL};
    static const char *const attrs1[] = {"ValueDataType", "Value", "DiagonalFillBegin",
                                         "DiagonalFillEnd", NULL};
    if (rt_check_names(b, first ? ins0 : ins1, first ? attrs0 : attrs1, one_output))
        return -1;
    const rt_tensor *in = NULL;
    if (!first) {
        if (rt_input(b, "InputTensor") == NULL) {
            if (rt_bind_input(b, NULL))
                return -1;
        } else if ((in = rt_data_input(b, "InputTensor")) == NULL || rt_bind_input(b, in)) {
            return -1;
        }
    }
    rt_tensor *out = output(b);
    if (out == NULL)
        return -1;
    if (first) {
        DML_DIAGONAL_MATRIX_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        if (attr_int(b, "Offset", &d->Offset) ||
            rt_attr_value(b, "Value", rt_type_by_name("FLOAT32"), &d->Value))
            return -1;
        d->OutputTensor = &out->desc;
        b->desc.Type = DML_OPERATOR_DIAGONAL_MATRIX;
        b->desc.Desc = d;
        return 0;
    }
    DML_DIAGONAL_MATRIX1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_type *vt;
    if (rt_attr_type(b, "ValueDataType", &vt))
        return -1;
    if (vt == NULL)
        vt = out->type;
    d->InputTensor = in ? &in->desc : NULL;
    d->OutputTensor = &out->desc;
    d->ValueDataType = vt->dml;
    if (rt_attr_value(b, "Value", vt, &d->Value) ||
        attr_int(b, "DiagonalFillBegin", &d->DiagonalFillBegin) ||
        attr_int(b, "DiagonalFillEnd", &d->DiagonalFillEnd))
        return -1;
    b->desc.Type = DML_OPERATOR_DIAGONAL_MATRIX1;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_generate[] = {
    {"DML_OPERATOR_ONE_HOT", build_one_hot},
    {"DML_OPERATOR_DIAGONAL_MATRIX", build_diagonal},
    {"DML_OPERATOR_DIAGONAL_MATRIX1", build_diagonal},
    {NULL, NULL},
};
