/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's further element-wise arithmetic (src/ops/elementwise_math.c): the
 * trigonometric and hyperbolic functions and their inverses, ATAN_YX, ERF, CLIP, CLIP1,
 * CONSTANT_POW, POW, MODULUS_FLOOR, MODULUS_TRUNCATE, ROUND, SIGN, THRESHOLD. Attributes are
 * the descriptor's members: FLOAT `Min`, `Max`, `Exponent` (numbers, or "nan"/"inf" strings),
 * CLIP1's `MinMaxDataType` and its typed `Min`/`Max`, ROUND's `RoundingMode` by name.
 *
 * Default tolerances on FLOAT32 and FLOAT16 outputs (docs/operators.md): COS, SIN, TAN, TANH,
 * ERF absolute 1/1024 (reference/precision.md), CONSTANT_POW and POW 32 ulp (precision.md's
 * pow); ACOS, ACOSH, ASIN, ASINH, COSH, SINH 4 ulp, ATAN, ATANH 5, ATAN_YX 6 (not in
 * precision.md: OpenCL's full-profile bound of the built-in); MODULUS_FLOOR 1 (an add rounded
 * once); the others exact.
 */
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *like)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    rt_tensor *t;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src != NULL)
        t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    else
        t = rt_add_output(b, "OutputTensor", like->type, like->rank, like->sizes, NULL);
    return t ? &t->desc : NULL;
}

typedef enum shape {
    UNARY_SB,     /* {InputTensor, OutputTensor, ScaleBias} */
    BINARY,       /* {ATensor, BTensor, OutputTensor} */
    POW,          /* {InputTensor, ExponentTensor, OutputTensor, ScaleBias} */
    CLIP,         /* + FLOAT Min, Max */
    CLIP1,        /* + MinMaxDataType, Min, Max */
    CONSTANT_POW, /* + FLOAT Exponent */
    THRESHOLD,    /* + FLOAT Min */
    ROUND,        /* {InputTensor, OutputTensor, RoundingMode} */
    PLAIN         /* {InputTensor, OutputTensor} */
} shape;

typedef struct math_op {
    const char *name;
    DML_OPERATOR_TYPE type;
    shape shape;
    unsigned ulps;
    double abs;
} math_op;

#define OPNAME(n) "DML_OPERATOR_ELEMENT_WISE_" #n, DML_OPERATOR_ELEMENT_WISE_##n

static const math_op math_ops[] = {
    {OPNAME(ACOS), UNARY_SB, 4, 0},
    {OPNAME(ACOSH), UNARY_SB, 4, 0},
    {OPNAME(ASIN), UNARY_SB, 4, 0},
    {OPNAME(ASINH), UNARY_SB, 4, 0},
    {OPNAME(ATAN), UNARY_SB, 5, 0},
    {OPNAME(ATANH), UNARY_SB, 5, 0},
    {OPNAME(COS), UNARY_SB, 0, 1.0 / 1024},
    {OPNAME(COSH), UNARY_SB, 4, 0},
    {OPNAME(ERF), UNARY_SB, 0, 1.0 / 1024},
    {OPNAME(SIN), UNARY_SB, 0, 1.0 / 1024},
    {OPNAME(SINH), UNARY_SB, 4, 0},
    {OPNAME(TAN), UNARY_SB, 0, 1.0 / 1024},
    {OPNAME(TANH), UNARY_SB, 0, 1.0 / 1024},
    {OPNAME(ATAN_YX), BINARY, 6, 0},
    {OPNAME(CLIP), CLIP, 0, 0},
    {OPNAME(CLIP1), CLIP1, 0, 0},
    {OPNAME(CONSTANT_POW), CONSTANT_POW, 32, 0},
    {OPNAME(MODULUS_FLOOR), BINARY, 1, 0},
    {OPNAME(MODULUS_TRUNCATE), BINARY, 0, 0},
    {OPNAME(POW), POW, 32, 0},
    {OPNAME(ROUND), ROUND, 0, 0},
    {OPNAME(SIGN), PLAIN, 0, 0},
    {OPNAME(THRESHOLD), THRESHOLD, 0, 0},
};

/* A FLOAT attribute: a number or a tensor-data string ("nan", "-inf"); absent 0. */
static int attr_float(rt_build *b, const char *name, FLOAT *out)
{
    return rt_attr_value(b, name, rt_type_by_name("FLOAT32"), out);
}

static int attr_rounding_mode(rt_build *b, DML_ROUNDING_MODE *out)
{
    static const char *const modes[] = {"DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN",
                                        "DML_ROUNDING_MODE_TOWARD_ZERO",
                                        "DML_ROUNDING_MODE_TOWARD_INFINITY"};
    const cJSON *v = rt_attr(b, "RoundingMode");
    *out = DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v)) { /* a raw value, for the validation cases */
        *out = (DML_ROUNDING_MODE)v->valueint;
        return 0;
    }
    for (int i = 0; i < 3; ++i)
        if (cJSON_IsString(v) && strcmp(v->valuestring, modes[i]) == 0) {
            *out = (DML_ROUNDING_MODE)i;
            return 0;
        }
    return rt_fail(b, "attrs.RoundingMode must be a DML_ROUNDING_MODE name");
}

static int scale_bias(rt_build *b, const DML_SCALE_BIAS **out)
{
    const cJSON *sb = rt_attr(b, "ScaleBias");
    *out = NULL;
    if (sb == NULL)
        return 0;
    DML_SCALE_BIAS *v = rt_alloc(b, sizeof *v);
    if (!cJSON_IsObject(sb) || cJSON_GetArraySize(sb) != 2 ||
        rt_attr_float(b, "Scale", sb, &v->Scale) || rt_attr_float(b, "Bias", sb, &v->Bias))
        return rt_fail(b, "attrs.ScaleBias must be {\"Scale\": s, \"Bias\": b}");
    *out = v;
    return 0;
}

/* The descriptor after the tensors: its other members by shape. */
static int build_rest(rt_build *b, const math_op *e, const DML_TENSOR_DESC *const *t,
                      const DML_SCALE_BIAS *sb)
{
    switch (e->shape) {
    case UNARY_SB: {
        DML_ELEMENT_WISE_ACOS_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_ACOS_OPERATOR_DESC){t[0], t[1], sb};
        b->desc.Desc = d;
        return 0;
    }
    case BINARY: {
        DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC){t[0], t[1], t[2]};
        b->desc.Desc = d;
        return 0;
    }
    case POW: {
        DML_ELEMENT_WISE_POW_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_POW_OPERATOR_DESC){t[0], t[1], t[2], sb};
        b->desc.Desc = d;
        return 0;
    }
    case CLIP: {
        DML_ELEMENT_WISE_CLIP_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_CLIP_OPERATOR_DESC){t[0], t[1], sb, 0, 0};
        b->desc.Desc = d;
        return attr_float(b, "Min", &d->Min) || attr_float(b, "Max", &d->Max) ? -1 : 0;
    }
    case CLIP1: {
        DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        const rt_type *mt;
        d->InputTensor = t[0];
        d->OutputTensor = t[1];
        d->ScaleBias = sb;
        b->desc.Desc = d;
        if (rt_attr_type(b, "MinMaxDataType", &mt))
            return -1;
        if (mt == NULL)
            return rt_fail(b, "attrs.MinMaxDataType is required");
        d->MinMaxDataType = mt->dml;
        return rt_attr_value(b, "Min", mt, &d->Min) || rt_attr_value(b, "Max", mt, &d->Max) ? -1
                                                                                            : 0;
    }
    case CONSTANT_POW: {
        DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC){t[0], t[1], sb, 0};
        b->desc.Desc = d;
        return attr_float(b, "Exponent", &d->Exponent);
    }
    case THRESHOLD: {
        DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC){t[0], t[1], sb, 0};
        b->desc.Desc = d;
        return attr_float(b, "Min", &d->Min);
    }
    case ROUND: {
        DML_ELEMENT_WISE_ROUND_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        d->InputTensor = t[0];
        d->OutputTensor = t[1];
        b->desc.Desc = d;
        return attr_rounding_mode(b, &d->RoundingMode);
    }
    case PLAIN: {
        DML_ELEMENT_WISE_SIGN_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_SIGN_OPERATOR_DESC){t[0], t[1]};
        b->desc.Desc = d;
        return 0;
    }
    }
    return -1;
}

static int build_math(rt_build *b)
{
    const math_op *e = NULL;
    for (size_t i = 0; i < sizeof math_ops / sizeof math_ops[0]; ++i)
        if (strcmp(math_ops[i].name, b->c->op) == 0)
            e = &math_ops[i];
    if (e == NULL)
        return rt_fail(b, "no element-wise operator %s", b->c->op);
    static const char *const binary_in[] = {"ATensor", "BTensor", "OutputTensor", NULL};
    static const char *const pow_in[] = {"InputTensor", "ExponentTensor", "OutputTensor", NULL};
    static const char *const unary_in[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[][5] = {
        [UNARY_SB] = {"ScaleBias", NULL},
        [BINARY] = {NULL},
        [POW] = {"ScaleBias", NULL},
        [CLIP] = {"ScaleBias", "Min", "Max", NULL},
        [CLIP1] = {"ScaleBias", "Min", "Max", "MinMaxDataType", NULL},
        [CONSTANT_POW] = {"ScaleBias", "Exponent", NULL},
        [THRESHOLD] = {"ScaleBias", "Min", NULL},
        [ROUND] = {"RoundingMode", NULL},
        [PLAIN] = {NULL}};
    const char *const *in_names = e->shape == BINARY ? binary_in
                                  : e->shape == POW  ? pow_in
                                                     : unary_in;
    if (rt_check_names(b, in_names, attrs[e->shape], one_output))
        return -1;
    int two = e->shape == BINARY || e->shape == POW;
    const rt_tensor *a = bind_data(b, in_names[0]);
    const rt_tensor *bt = two ? bind_data(b, in_names[1]) : NULL;
    if (a == NULL || (two && bt == NULL))
        return -1;
    const DML_TENSOR_DESC *out = bind_output(b, a);
    if (out == NULL)
        return -1;
    const DML_TENSOR_DESC *t[3] = {&a->desc, two ? &bt->desc : out, out};
    const DML_SCALE_BIAS *sb = NULL;
    if (scale_bias(b, &sb) || build_rest(b, e, t, sb))
        return -1;
    DML_TENSOR_DATA_TYPE ot = b->outputs[0]->type->dml;
    if (ot == DML_TENSOR_DATA_TYPE_FLOAT32 || ot == DML_TENSOR_DATA_TYPE_FLOAT16) {
        b->ulp_tolerance = e->ulps;
        b->abs_tolerance = e->abs;
    }
    b->desc.Type = e->type;
    return 0;
}

const rt_op rt_ops_math[] = {
    {"DML_OPERATOR_ELEMENT_WISE_ACOS", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ACOSH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ASIN", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ASINH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ATAN", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ATANH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_COS", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_COSH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ERF", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_SIN", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_SINH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_TAN", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_TANH", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ATAN_YX", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_CLIP", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_CLIP1", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_POW", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_ROUND", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_SIGN", build_math},
    {"DML_OPERATOR_ELEMENT_WISE_THRESHOLD", build_math},
    {NULL, NULL},
};
