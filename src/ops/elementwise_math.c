/* SPDX-License-Identifier: MIT */
/*
 * DirectML's further element-wise arithmetic as rows of the shared engine (elementwise.h),
 * the map's OPs 17-38 (cl/map_math.cl): the trigonometric and hyperbolic functions and their
 * inverses, ATAN_YX, ERF, CLIP and CLIP1, CONSTANT_POW and POW, MODULUS_FLOOR and
 * MODULUS_TRUNCATE, ROUND, SIGN, THRESHOLD. Type tables: the union of each operator's
 * feature-level tables up to 6.4, as DirectML's pages list them.
 *
 * Parameters (the map's q0 to q2): CLIP's Min and Max, THRESHOLD's Min and CONSTANT_POW's
 * Exponent are FLOATs; on an integer tensor a bound is converted to the tensor's type as
 * DirectML's CLIP page says (truncated toward zero), saturated to the type's range, NaN as 0
 * (PADDING's rule for its FLOAT value). CLIP1's Min and Max are DML_SCALAR_UNIONs of
 * MinMaxDataType, which must be the output's type. ROUND's RoundingMode is q0 (one kernel
 * for the three modes: the branch is uniform across the launch).
 *
 * The training operators' element-wise gradients (map OPs 43, 44): ACTIVATION_RELU_GRAD
 * (feature level 3.0: FLOAT32, FLOAT16) gives dY where X > 0, else 0; ELEMENT_WISE_CLIP_GRAD
 * (3.1; the ten types from 5.0) and CLIP_GRAD1 (5.0, the ten types) give 0 where X <= Min or
 * X >= Max, else dY. InputTensor, InputGradientTensor and OutputGradientTensor have one
 * DataType, DimensionCount and Sizes. CLIP_GRAD's FLOAT bounds on an integer tensor are
 * converted as CLIP's (so the gradient is 0 exactly where CLIP clamped, bound included);
 * CLIP_GRAD1's MinMaxDataType must be OutputGradientTensor's type.
 */
#include <math.h>
#include <string.h>

#include "ops/elementwise.h"

#define F16_F32 DMLI_EW_F16_F32
#define TEN_TYPES DMLI_EW_TEN_TYPES
#define TEN_TYPE_LIST DMLI_EW_TEN_TYPE_LIST
/* POW's and THRESHOLD's tables: the 8- to 32-bit integers and the floats. */
#define EIGHT_TYPES                                                                      \
    (F16_F32 | DMLI_EW_I32_U32 | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT16) |               \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT8) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT16) | \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define EIGHT_TYPE_LIST "FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32, UINT16, UINT8"

/* ---- Parameters ----------------------------------------------------------------------- */

static bool type_is_signed(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_INT16 ||
           t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

/* A FLOAT bound as a value of the tensor's type t (parameter i). */
static void float_bound(dmli_map *m, int i, DML_TENSOR_DATA_TYPE t, double v)
{
    if (dmli_type_is_float(t)) {
        dmli_map_param_real(m, i, v);
        return;
    }
    int bits = 8 * (int)dmli_type_size(t);
    v = v != v ? 0 : trunc(v);
    if (type_is_signed(t)) {
        double lo = -ldexp(1, bits - 1);
        dmli_map_param_int(m, i,
                           v <= lo    ? (int64_t)lo
                           : v >= -lo ? (int64_t)(((uint64_t)1 << (bits - 1)) - 1)
                                      : (int64_t)v);
        return;
    }
    uint64_t max = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    uint64_t u = v <= 0 ? 0 : v >= ldexp(1, bits) ? max : (uint64_t)v;
    dmli_map_param_int(m, i, (int64_t)u); /* an unsigned value's bits */
}

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1F, f = h & 0x3FF;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(0x400 | f, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* A DML_SCALAR_UNION of type t (CLIP1's Min and Max) as parameter i. */
static void scalar_param(dmli_map *m, int i, DML_TENSOR_DATA_TYPE t, const DML_SCALAR_UNION *s)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: dmli_map_param_real(m, i, s->Float32); break;
    case DML_TENSOR_DATA_TYPE_FLOAT16: dmli_map_param_real(m, i, half_value(s->UInt16)); break;
    case DML_TENSOR_DATA_TYPE_FLOAT64: dmli_map_param_real(m, i, s->Float64); break;
    case DML_TENSOR_DATA_TYPE_INT8: dmli_map_param_int(m, i, s->Int8); break;
    case DML_TENSOR_DATA_TYPE_INT16: dmli_map_param_int(m, i, s->Int16); break;
    case DML_TENSOR_DATA_TYPE_INT32: dmli_map_param_int(m, i, s->Int32); break;
    case DML_TENSOR_DATA_TYPE_INT64: dmli_map_param_int(m, i, s->Int64); break;
    case DML_TENSOR_DATA_TYPE_UINT8: dmli_map_param_int(m, i, s->UInt8); break;
    case DML_TENSOR_DATA_TYPE_UINT16: dmli_map_param_int(m, i, s->UInt16); break;
    case DML_TENSOR_DATA_TYPE_UINT32: dmli_map_param_int(m, i, s->UInt32); break;
    default: dmli_map_param_int(m, i, (int64_t)s->UInt64); break;
    }
}

static void clip_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_CLIP_OPERATOR_DESC *d = desc;
    float_bound(m, DMLI_MAP_PARAM_OP + 0, m->out.type, d->Min);
    float_bound(m, DMLI_MAP_PARAM_OP + 1, m->out.type, d->Max);
}

/* CLIP1's and CLIP_GRAD1's typed bounds: MinMaxDataType is the output's. */
static HRESULT minmax_type_check(const dmli_ew_row *r, DML_TENSOR_DATA_TYPE t,
                                 const dmli_op_state *st)
{
    DMLI_INVALID_IF(t != st->outputs[0].type, "%s: MinMaxDataType (%s) must be %s.DataType (%s)",
                    r->name, dmli_type_name(t), st->output_names[0],
                    dmli_type_name(st->outputs[0].type));
    return S_OK;
}

static HRESULT clip1_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    const DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC *d = desc;
    return minmax_type_check(r, d->MinMaxDataType, st);
}

static void clip1_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC *d = desc;
    scalar_param(m, DMLI_MAP_PARAM_OP + 0, d->MinMaxDataType, &d->Min);
    scalar_param(m, DMLI_MAP_PARAM_OP + 1, d->MinMaxDataType, &d->Max);
}

static HRESULT clip_grad1_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    const DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC *d = desc;
    return minmax_type_check(r, d->MinMaxDataType, st);
}

static void clip_grad_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC *d = desc;
    float_bound(m, DMLI_MAP_PARAM_OP + 0, m->out.type, d->Min);
    float_bound(m, DMLI_MAP_PARAM_OP + 1, m->out.type, d->Max);
}

static void clip_grad1_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC *d = desc;
    scalar_param(m, DMLI_MAP_PARAM_OP + 0, d->MinMaxDataType, &d->Min);
    scalar_param(m, DMLI_MAP_PARAM_OP + 1, d->MinMaxDataType, &d->Max);
}

static void threshold_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC *d = desc;
    float_bound(m, DMLI_MAP_PARAM_OP + 0, m->out.type, d->Min);
}

static void constant_pow_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC *d = desc;
    dmli_map_param_real(m, DMLI_MAP_PARAM_OP + 0, d->Exponent);
}

static HRESULT round_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)st;
    const DML_ELEMENT_WISE_ROUND_OPERATOR_DESC *d = desc;
    DMLI_INVALID_IF((unsigned)d->RoundingMode > DML_ROUNDING_MODE_TOWARD_INFINITY,
                    "%s: RoundingMode (%d) is not a DML_ROUNDING_MODE (0 HALVES_TO_NEAREST_EVEN, "
                    "1 TOWARD_ZERO, 2 TOWARD_INFINITY)",
                    r->name, (int)d->RoundingMode);
    return S_OK;
}

static void round_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_ROUND_OPERATOR_DESC *d = desc;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 0, (int64_t)d->RoundingMode);
}

/* POW: ExponentTensor of any type of the table, not necessarily InputTensor's (from feature
 * level 3.0). */
static HRESULT pow_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)desc;
    DML_TENSOR_DATA_TYPE t = st->inputs[1].type;
    DMLI_INVALID_IF(t >= 32 || !(r->types & DMLI_EW_BIT(t)),
                    "%s: ExponentTensor.DataType (%s) is not one %s takes (%s)", r->name,
                    dmli_type_name(t), r->name, r->type_list);
    return S_OK;
}

/* ---- The rows ------------------------------------------------------------------------- */

static const char *const pow_names[] = {"InputTensor", "ExponentTensor"};
static const char *const grad_names[] = {"InputTensor", "InputGradientTensor"};

#define FLOAT_UNARY(nm)                                                                   \
    {                                                                                     \
        .name = "ELEMENT_WISE_" #nm, .op = DMLI_MAP_##nm, .arity = 1, .scale_bias = true, \
        .types = F16_F32, .type_list = "FLOAT32, FLOAT16"                                 \
    }

enum {
    ROW_ACOS,
    ROW_ACOSH,
    ROW_ASIN,
    ROW_ASINH,
    ROW_ATAN,
    ROW_ATANH,
    ROW_COS,
    ROW_COSH,
    ROW_ERF,
    ROW_SIN,
    ROW_SINH,
    ROW_TAN,
    ROW_TANH,
    ROW_ATAN_YX,
    ROW_CLIP,
    ROW_CLIP1,
    ROW_CONSTANT_POW,
    ROW_MODULUS_FLOOR,
    ROW_MODULUS_TRUNCATE,
    ROW_POW,
    ROW_ROUND,
    ROW_SIGN,
    ROW_THRESHOLD,
    ROW_RELU_GRAD,
    ROW_CLIP_GRAD,
    ROW_CLIP_GRAD1
};

static const dmli_ew_row rows[] = {
    [ROW_ACOS] = FLOAT_UNARY(ACOS),
    [ROW_ACOSH] = FLOAT_UNARY(ACOSH),
    [ROW_ASIN] = FLOAT_UNARY(ASIN),
    [ROW_ASINH] = FLOAT_UNARY(ASINH),
    [ROW_ATAN] = FLOAT_UNARY(ATAN),
    [ROW_ATANH] = FLOAT_UNARY(ATANH),
    [ROW_COS] = FLOAT_UNARY(COS),
    [ROW_COSH] = FLOAT_UNARY(COSH),
    [ROW_ERF] = FLOAT_UNARY(ERF),
    [ROW_SIN] = FLOAT_UNARY(SIN),
    [ROW_SINH] = FLOAT_UNARY(SINH),
    [ROW_TAN] = FLOAT_UNARY(TAN),
    [ROW_TANH] = FLOAT_UNARY(TANH),
    [ROW_ATAN_YX] = {.name = "ELEMENT_WISE_ATAN_YX",
                     .op = DMLI_MAP_ATAN_YX,
                     .arity = 2,
                     .types = F16_F32,
                     .type_list = "FLOAT32, FLOAT16"},
    [ROW_CLIP] = {.name = "ELEMENT_WISE_CLIP",
                  .op = DMLI_MAP_CLIP,
                  .arity = 1,
                  .scale_bias = true,
                  .types = TEN_TYPES,
                  .type_list = TEN_TYPE_LIST,
                  .params = clip_params},
    [ROW_CLIP1] = {.name = "ELEMENT_WISE_CLIP1",
                   .op = DMLI_MAP_CLIP,
                   .arity = 1,
                   .scale_bias = true,
                   .types = TEN_TYPES,
                   .type_list = TEN_TYPE_LIST,
                   .check = clip1_check,
                   .params = clip1_params},
    [ROW_CONSTANT_POW] = {.name = "ELEMENT_WISE_CONSTANT_POW",
                          .op = DMLI_MAP_CONSTANT_POW,
                          .arity = 1,
                          .scale_bias = true,
                          .types = F16_F32,
                          .type_list = "FLOAT32, FLOAT16",
                          .params = constant_pow_params},
    [ROW_MODULUS_FLOOR] = {.name = "ELEMENT_WISE_MODULUS_FLOOR",
                           .op = DMLI_MAP_MODULUS_FLOOR,
                           .arity = 2,
                           .types = TEN_TYPES,
                           .type_list = TEN_TYPE_LIST},
    [ROW_MODULUS_TRUNCATE] = {.name = "ELEMENT_WISE_MODULUS_TRUNCATE",
                              .op = DMLI_MAP_MODULUS_TRUNCATE,
                              .arity = 2,
                              .types = TEN_TYPES,
                              .type_list = TEN_TYPE_LIST},
    [ROW_POW] = {.name = "ELEMENT_WISE_POW",
                 .op = DMLI_MAP_POW,
                 .arity = 2,
                 .input_names = pow_names,
                 .scale_bias = true,
                 .types = EIGHT_TYPES,
                 .type_list = EIGHT_TYPE_LIST,
                 .own_type_inputs = DMLI_EW_BIT(1),
                 .check = pow_check},
    [ROW_ROUND] = {.name = "ELEMENT_WISE_ROUND",
                   .op = DMLI_MAP_ROUND,
                   .arity = 1,
                   .types = F16_F32,
                   .type_list = "FLOAT32, FLOAT16",
                   .check = round_check,
                   .params = round_params},
    [ROW_SIGN] = {.name = "ELEMENT_WISE_SIGN",
                  .op = DMLI_MAP_SIGN,
                  .arity = 1,
                  .types = TEN_TYPES,
                  .type_list = TEN_TYPE_LIST},
    [ROW_THRESHOLD] = {.name = "ELEMENT_WISE_THRESHOLD",
                       .op = DMLI_MAP_THRESHOLD,
                       .arity = 1,
                       .scale_bias = true,
                       .types = EIGHT_TYPES,
                       .type_list = EIGHT_TYPE_LIST,
                       .params = threshold_params},
    [ROW_RELU_GRAD] = {.name = "ACTIVATION_RELU_GRAD",
                       .op = DMLI_MAP_RELU_GRAD,
                       .arity = 2,
                       .input_names = grad_names,
                       .output_name = "OutputGradientTensor",
                       .types = F16_F32,
                       .type_list = "FLOAT32, FLOAT16"},
    [ROW_CLIP_GRAD] = {.name = "ELEMENT_WISE_CLIP_GRAD",
                       .op = DMLI_MAP_CLIP_GRAD,
                       .arity = 2,
                       .input_names = grad_names,
                       .output_name = "OutputGradientTensor",
                       .types = TEN_TYPES,
                       .type_list = TEN_TYPE_LIST,
                       .params = clip_grad_params},
    [ROW_CLIP_GRAD1] = {.name = "ELEMENT_WISE_CLIP_GRAD1",
                        .op = DMLI_MAP_CLIP_GRAD,
                        .arity = 2,
                        .input_names = grad_names,
                        .output_name = "OutputGradientTensor",
                        .types = TEN_TYPES,
                        .type_list = TEN_TYPE_LIST,
                        .check = clip_grad1_check,
                        .params = clip_grad1_params},
};

DMLI_EW_OP(ew_acos, rows, ROW_ACOS)
DMLI_EW_OP(ew_acosh, rows, ROW_ACOSH)
DMLI_EW_OP(ew_asin, rows, ROW_ASIN)
DMLI_EW_OP(ew_asinh, rows, ROW_ASINH)
DMLI_EW_OP(ew_atan, rows, ROW_ATAN)
DMLI_EW_OP(ew_atanh, rows, ROW_ATANH)
DMLI_EW_OP(ew_cos, rows, ROW_COS)
DMLI_EW_OP(ew_cosh, rows, ROW_COSH)
DMLI_EW_OP(ew_erf, rows, ROW_ERF)
DMLI_EW_OP(ew_sin, rows, ROW_SIN)
DMLI_EW_OP(ew_sinh, rows, ROW_SINH)
DMLI_EW_OP(ew_tan, rows, ROW_TAN)
DMLI_EW_OP(ew_tanh, rows, ROW_TANH)
DMLI_EW_OP(ew_atan_yx, rows, ROW_ATAN_YX)
DMLI_EW_OP(ew_clip, rows, ROW_CLIP)
DMLI_EW_OP(ew_clip1, rows, ROW_CLIP1)
DMLI_EW_OP(ew_constant_pow, rows, ROW_CONSTANT_POW)
DMLI_EW_OP(ew_modulus_floor, rows, ROW_MODULUS_FLOOR)
DMLI_EW_OP(ew_modulus_truncate, rows, ROW_MODULUS_TRUNCATE)
DMLI_EW_OP(ew_pow, rows, ROW_POW)
DMLI_EW_OP(ew_round, rows, ROW_ROUND)
DMLI_EW_OP(ew_sign, rows, ROW_SIGN)
DMLI_EW_OP(ew_threshold, rows, ROW_THRESHOLD)
DMLI_EW_OP(act_relu_grad, rows, ROW_RELU_GRAD)
DMLI_EW_OP(ew_clip_grad, rows, ROW_CLIP_GRAD)
DMLI_EW_OP(ew_clip_grad1, rows, ROW_CLIP_GRAD1)
