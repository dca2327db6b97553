/* SPDX-License-Identifier: MIT */
/*
 * Validation of DirectML's further element-wise arithmetic (src/ops/elementwise_math.c) on the
 * host: each operator's type table (every type it takes is accepted, one it does not is
 * E_INVALIDARG naming the field and the table), POW's ExponentTensor type, CLIP1's
 * MinMaxDataType, ROUND's RoundingMode, ScaleBias on integers and on IDENTITY's FLOAT64
 * (DXGI_ERROR_UNSUPPORTED: DirectML defines it on FLOAT32 and FLOAT16), mismatched sizes.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

static const UINT sizes[3] = {2, 3, 4};

/* Every descriptor of the family: tensor pointers first (inputs, output), then the rest. */
typedef struct math_case {
    unit_tensor t[3];
    DML_SCALE_BIAS sb;
    union {
        DML_ELEMENT_WISE_ACOS_OPERATOR_DESC unary;
        DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC binary;
        DML_ELEMENT_WISE_POW_OPERATOR_DESC pow;
        DML_ELEMENT_WISE_CLIP_OPERATOR_DESC clip;
        DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC clip1;
        DML_ELEMENT_WISE_ROUND_OPERATOR_DESC round;
        DML_ELEMENT_WISE_SIGN_OPERATOR_DESC sign;
        DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC threshold;
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
    } d;
    DML_OPERATOR_DESC op;
} math_case;

/* n_in inputs of type a (the second of type b), the output of type a. */
static void setup(math_case *c, DML_OPERATOR_TYPE type, int n_in, DML_TENSOR_DATA_TYPE a,
                  DML_TENSOR_DATA_TYPE b)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c->d;
    for (int i = 0; i <= n_in; ++i)
        members[i] = unit_tensor_set(&c->t[i], i == 1 && n_in == 2 ? b : a, 3, sizes, NULL);
    c->op.Type = type;
    c->op.Desc = &c->d;
}

static HRESULT create(const math_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define OK(c) cr_expect(SUCCEEDED(create(c)), "line %d: %s", __LINE__, dmlcl_last_error())
#define FAILS(c, hr, ...)                                         \
    do {                                                          \
        const char *const needles_[] = {__VA_ARGS__, NULL};       \
        unit_expect_needles(create(c), (hr), needles_, __LINE__); \
    } while (0)

typedef struct table {
    DML_OPERATOR_TYPE type;
    const char *name;
    int n_in;
    DML_TENSOR_DATA_TYPE takes[10];
    DML_TENSOR_DATA_TYPE refused;
} table;

#define FLOATS(op)                                                              \
    {                                                                           \
        DML_OPERATOR_ELEMENT_WISE_##op, "ELEMENT_WISE_" #op, 1, {F32, F16}, I32 \
    }
#define TEN                                            \
    {                                                  \
        F32, F16, I64, I32, I16, I8, U64, U32, U16, U8 \
    }

static const table tables[] = {
    FLOATS(ACOS),
    FLOATS(ACOSH),
    FLOATS(ASIN),
    FLOATS(ASINH),
    FLOATS(ATAN),
    FLOATS(ATANH),
    FLOATS(COS),
    FLOATS(COSH),
    FLOATS(ERF),
    FLOATS(SIN),
    FLOATS(SINH),
    FLOATS(TAN),
    FLOATS(TANH),
    FLOATS(CONSTANT_POW),
    FLOATS(ROUND),
    {DML_OPERATOR_ELEMENT_WISE_ATAN_YX, "ELEMENT_WISE_ATAN_YX", 2, {F32, F16}, U8},
    {DML_OPERATOR_ELEMENT_WISE_CLIP, "ELEMENT_WISE_CLIP", 1, TEN, F64},
    {DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, "ELEMENT_WISE_MODULUS_FLOOR", 2, TEN, F64},
    {DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE, "ELEMENT_WISE_MODULUS_TRUNCATE", 2, TEN, F64},
    {DML_OPERATOR_ELEMENT_WISE_SIGN, "ELEMENT_WISE_SIGN", 1, TEN, F64},
    {DML_OPERATOR_ELEMENT_WISE_POW,
     "ELEMENT_WISE_POW",
     2,
     {F32, F16, I32, I16, I8, U32, U16, U8},
     I64},
    {DML_OPERATOR_ELEMENT_WISE_THRESHOLD,
     "ELEMENT_WISE_THRESHOLD",
     1,
     {F32, F16, I32, I16, I8, U32, U16, U8},
     U64},
};

Test(elementwise_math_validate, type_tables)
{
    math_case c;
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; ++k) {
        const table *t = &tables[k];
        for (int i = 0; i < 10 && t->takes[i]; ++i) {
            setup(&c, t->type, t->n_in, t->takes[i], t->takes[i]);
            cr_expect(SUCCEEDED(create(&c)), "%s on type %d: %s", t->name, (int)t->takes[i],
                      dmlcl_last_error());
        }
        setup(&c, t->type, t->n_in, t->refused, t->refused);
        FAILS(&c, E_INVALIDARG, t->name, "DataType", "is not one");
    }
    /* CLIP1 (MinMaxDataType = the output's type): every CLIP type. */
    for (int i = 0; i < 10; ++i) {
        DML_TENSOR_DATA_TYPE ty = ((DML_TENSOR_DATA_TYPE[])TEN)[i];
        setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP1, 1, ty, ty);
        c.d.clip1.MinMaxDataType = ty;
        OK(&c);
    }
}

Test(elementwise_math_validate, operator_rules)
{
    math_case c;
    /* POW: ExponentTensor of any type of the table, not one outside it. */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_POW, 2, U8, F16);
    OK(&c);
    setup(&c, DML_OPERATOR_ELEMENT_WISE_POW, 2, F32, I8);
    OK(&c);
    setup(&c, DML_OPERATOR_ELEMENT_WISE_POW, 2, F32, I64);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_POW", "ExponentTensor.DataType", "INT64");
    /* ATAN_YX and MODULUS_*: both inputs of one type. */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_ATAN_YX, 2, F32, F16);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_ATAN_YX", "BTensor");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, 2, I32, U32);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_MODULUS_FLOOR", "BTensor");
    /* CLIP1: MinMaxDataType must be the output's type. */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP1, 1, I16, I16);
    c.d.clip1.MinMaxDataType = I32;
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP1", "MinMaxDataType", "INT32", "INT16");
    /* ROUND: a DML_ROUNDING_MODE. */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_ROUND, 1, F32, F32);
    c.d.round.RoundingMode = DML_ROUNDING_MODE_TOWARD_INFINITY;
    OK(&c);
    c.d.round.RoundingMode = (DML_ROUNDING_MODE)3;
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_ROUND", "RoundingMode", "(3)");
    /* ScaleBias on an integer tensor: unsupported (DirectML defines it on floats). */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP, 1, I32, I32);
    c.d.clip.ScaleBias = &c.sb;
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "ELEMENT_WISE_CLIP", "ScaleBias", "INT32");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_POW, 2, I8, F32);
    c.d.pow.ScaleBias = &c.sb;
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "ELEMENT_WISE_POW", "ScaleBias", "INT8");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_THRESHOLD, 1, F16, F16);
    c.d.threshold.ScaleBias = &c.sb;
    OK(&c);
    /* IDENTITY's ScaleBias: FLOAT32 and FLOAT16; FLOAT64 is unsupported (DirectML has no
     * 64-bit ScaleBias). */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_IDENTITY, 1, F64, F64);
    OK(&c);
    c.d.identity.ScaleBias = &c.sb;
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "ScaleBias", "FLOAT64");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_IDENTITY, 1, F16, F16);
    c.d.identity.ScaleBias = &c.sb;
    OK(&c);
    /* One shape: an exponent of other sizes is refused. */
    setup(&c, DML_OPERATOR_ELEMENT_WISE_POW, 2, F32, F32);
    const UINT other[3] = {2, 3, 5};
    c.d.pow.ExponentTensor = unit_tensor_set(&c.t[1], F32, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_POW", "ExponentTensor.Sizes");
}
