/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's reductions (src/ops/reduce.c): DML_OPERATOR_REDUCE (attrs
 * `Function`, a DML_REDUCE_FUNCTION name, and `Axes`), DML_OPERATOR_ARGMIN and
 * DML_OPERATOR_ARGMAX (`Axes`, `AxisDirection` a DML_AXIS_DIRECTION name). AxisCount is the
 * length of Axes (absent: 0, Axes NULL). Enumerations may be raw numbers, for the validation
 * cases. The output is described by inputs.OutputTensor, else by the expected output, else it
 * is the input's shape with 1 on each reduced axis (UINT32 for the indices).
 *
 * Default tolerances on FLOAT32 and FLOAT16 outputs, N the elements of a row (reference/
 * precision.md: reduce sum / mean N / N+2 ULP, plus the square's and the root's roundings):
 * SUM, L1, MULTIPLY N ulp; SUM_SQUARE N+1; AVERAGE, L2 N+2; LOG_SUM, LOG_SUM_EXP absolute
 * 1/1024 (log's); MIN, MAX and the indices exact. A case may set its own (a sum that cancels
 * needs one in absolute terms).
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

static const char *const functions[] = {
    "DML_REDUCE_FUNCTION_ARGMAX",      "DML_REDUCE_FUNCTION_ARGMIN",
    "DML_REDUCE_FUNCTION_AVERAGE",     "DML_REDUCE_FUNCTION_L1",
    "DML_REDUCE_FUNCTION_L2",          "DML_REDUCE_FUNCTION_LOG_SUM",
    "DML_REDUCE_FUNCTION_LOG_SUM_EXP", "DML_REDUCE_FUNCTION_MAX",
    "DML_REDUCE_FUNCTION_MIN",         "DML_REDUCE_FUNCTION_MULTIPLY",
    "DML_REDUCE_FUNCTION_SUM",         "DML_REDUCE_FUNCTION_SUM_SQUARE"};

static const char *const directions[] = {"DML_AXIS_DIRECTION_INCREASING",
                                         "DML_AXIS_DIRECTION_DECREASING"};

/* An enumeration attribute: one of names (its index), or a raw number; absent def. */
static int attr_enum(rt_build *b, const char *attr, const char *const *names, unsigned n, int def,
                     int *out)
{
    const cJSON *v = rt_attr(b, attr);
    *out = def;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v)) {
        *out = v->valueint;
        return 0;
    }
    for (unsigned i = 0; i < n; ++i)
        if (cJSON_IsString(v) && strcmp(v->valuestring, names[i]) == 0) {
            *out = (int)i;
            return 0;
        }
    return rt_fail(b, "attrs.%s must be one of its enumeration's names", attr);
}

/* The output: inputs.OutputTensor, the expected one, or the input's reduced shape. */
static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *in, const UINT *axes,
                                          unsigned n_axes, int arg)
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
        UINT sizes[RT_MAX_RANK];
        memcpy(sizes, in->sizes, sizeof sizes);
        for (unsigned i = 0; i < n_axes; ++i)
            if (axes[i] < in->rank)
                sizes[axes[i]] = 1;
        t = rt_add_output(b, "OutputTensor", arg ? rt_type_by_name("UINT32") : in->type, in->rank,
                          sizes, NULL);
    }
    return t ? &t->desc : NULL;
}

static void default_tolerance(rt_build *b, int function, const rt_tensor *in, const UINT *axes,
                              unsigned n_axes)
{
    DML_TENSOR_DATA_TYPE ot = b->outputs[0]->type->dml;
    if (ot != DML_TENSOR_DATA_TYPE_FLOAT32 && ot != DML_TENSOR_DATA_TYPE_FLOAT16)
        return;
    uint64_t n = 1;
    for (unsigned i = 0; i < n_axes; ++i)
        if (axes[i] < in->rank)
            n *= in->sizes[axes[i]];
    switch (function) {
    case DML_REDUCE_FUNCTION_SUM:
    case DML_REDUCE_FUNCTION_L1:
    case DML_REDUCE_FUNCTION_MULTIPLY: b->ulp_tolerance = (unsigned)n; break;
    case DML_REDUCE_FUNCTION_SUM_SQUARE: b->ulp_tolerance = (unsigned)n + 1; break;
    case DML_REDUCE_FUNCTION_AVERAGE:
    case DML_REDUCE_FUNCTION_L2: b->ulp_tolerance = (unsigned)n + 2; break;
    case DML_REDUCE_FUNCTION_LOG_SUM:
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: b->abs_tolerance = 1.0 / 1024; break;
    default: break;
    }
}

static int build_reduce(rt_build *b)
{
    static const char *const in_names[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const reduce_attrs[] = {"Function", "Axes", NULL};
    static const char *const arg_attrs[] = {"Axes", "AxisDirection", NULL};
    int is_reduce = strcmp(b->c->op, "DML_OPERATOR_REDUCE") == 0;
    int is_argmin = strcmp(b->c->op, "DML_OPERATOR_ARGMIN") == 0;
    if (rt_check_names(b, in_names, is_reduce ? reduce_attrs : arg_attrs, one_output))
        return -1;
    int function = is_argmin ? DML_REDUCE_FUNCTION_ARGMIN : DML_REDUCE_FUNCTION_ARGMAX;
    int direction = 0;
    UINT *axes = NULL;
    unsigned n_axes = 0;
    if ((is_reduce &&
         attr_enum(b, "Function", functions, 12, DML_REDUCE_FUNCTION_SUM, &function)) ||
        (!is_reduce && attr_enum(b, "AxisDirection", directions, 2, 0, &direction)) ||
        rt_attr_uint_list(b, "Axes", &axes, &n_axes))
        return -1;
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    int arg = function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
    const DML_TENSOR_DESC *out = bind_output(b, in, axes, n_axes, arg);
    if (out == NULL)
        return -1;
    if (is_reduce) {
        DML_REDUCE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d =
            (DML_REDUCE_OPERATOR_DESC){(DML_REDUCE_FUNCTION)function, &in->desc, out, n_axes, axes};
        b->desc.Type = DML_OPERATOR_REDUCE;
        b->desc.Desc = d;
    } else {
        /* ARGMIN's members are ARGMAX's. */
        DML_ARGMAX_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d =
            (DML_ARGMAX_OPERATOR_DESC){&in->desc, out, n_axes, axes, (DML_AXIS_DIRECTION)direction};
        b->desc.Type = is_argmin ? DML_OPERATOR_ARGMIN : DML_OPERATOR_ARGMAX;
        b->desc.Desc = d;
    }
    default_tolerance(b, function, in, axes, n_axes);
    return 0;
}

const rt_op rt_ops_reduce[] = {
    {"DML_OPERATOR_REDUCE", build_reduce},
    {"DML_OPERATOR_ARGMIN", build_reduce},
    {"DML_OPERATOR_ARGMAX", build_reduce},
    {NULL, NULL},
};
