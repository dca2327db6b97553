/* SPDX-License-Identifier: MIT */
/*
 * Validation and lowering of DML_OPERATOR_REDUCE, ARGMIN and ARGMAX (src/ops/reduce.c) on the
 * host: each function's type table, the index output types, Function and AxisDirection
 * ranges, the axes (range, repeats, count, NULL), DimensionCount, OutputTensor.Sizes (1 on each
 * reduced axis, the input's elsewhere), AxisCount 0, and the reduction it lowers to.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "ref_reduce.h"
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

static const UINT in_sizes[3] = {2, 3, 4};

typedef struct reduce_case {
    unit_tensor in, out;
    UINT axes[4];
    union {
        DML_REDUCE_OPERATOR_DESC reduce;
        DML_ARGMIN_OPERATOR_DESC argmin;
        DML_ARGMAX_OPERATOR_DESC argmax;
    } d;
    DML_OPERATOR_DESC op;
} reduce_case;

/* REDUCE of function f over axes (n of them) of a {2, 3, 4} input of type in, the output of
 * type out sized as the rule says. */
static void setup(reduce_case *c, DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE in,
                  DML_TENSOR_DATA_TYPE out, UINT n, const UINT *axes)
{
    memset(c, 0, sizeof *c);
    UINT out_sizes[3] = {2, 3, 4};
    for (UINT i = 0; i < n; ++i) {
        c->axes[i] = axes[i];
        if (axes[i] < 3)
            out_sizes[axes[i]] = 1;
    }
    c->d.reduce.Function = f;
    c->d.reduce.InputTensor = unit_tensor_set(&c->in, in, 3, in_sizes, NULL);
    c->d.reduce.OutputTensor = unit_tensor_set(&c->out, out, 3, out_sizes, NULL);
    c->d.reduce.AxisCount = n;
    c->d.reduce.Axes = c->axes;
    c->op.Type = DML_OPERATOR_REDUCE;
    c->op.Desc = &c->d.reduce;
}

/* ARGMIN or ARGMAX (type) likewise. */
static void setup_arg(reduce_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE in,
                      DML_TENSOR_DATA_TYPE out, UINT n, const UINT *axes, int direction)
{
    setup(c, DML_REDUCE_FUNCTION_ARGMAX, in, out, n, axes);
    DML_ARGMAX_OPERATOR_DESC a = {&c->in.desc, &c->out.desc, n, c->axes,
                                  (DML_AXIS_DIRECTION)direction};
    c->d.argmax = a; /* ARGMIN's members are ARGMAX's */
    c->op.Type = type;
}

static HRESULT create(const reduce_case *c)
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

static const UINT axis1[1] = {1};

typedef struct table {
    DML_REDUCE_FUNCTION f;
    const char *name;
    DML_TENSOR_DATA_TYPE takes[11];
    DML_TENSOR_DATA_TYPE refused[3];
} table;

#define EIGHT                                \
    {                                        \
        F32, F16, I32, I16, I8, U32, U16, U8 \
    }
#define FLOATS(nm)                                 \
    {                                              \
        DML_REDUCE_FUNCTION_##nm, #nm, {F32, F16}, \
        {                                          \
            I32, U8, F64                           \
        }                                          \
    }

/* Feature levels 4.1 and 5.0, the pages' newest tables: 64-bit integers in MIN, MAX, SUM and
 * MULTIPLY, the 32- and 64-bit integers in L1 and SUM_SQUARE. */
#define TEN                                            \
    {                                                  \
        F32, F16, I64, I32, I16, I8, U64, U32, U16, U8 \
    }
#define WIDE                         \
    {                                \
        F32, F16, I64, I32, U64, U32 \
    }
static const table tables[] = {
    FLOATS(AVERAGE),
    FLOATS(L2),
    FLOATS(LOG_SUM),
    FLOATS(LOG_SUM_EXP),
    {DML_REDUCE_FUNCTION_L1, "L1", WIDE, {I16, U8, F64}},
    {DML_REDUCE_FUNCTION_SUM_SQUARE, "SUM_SQUARE", WIDE, {I8, U16, F64}},
    {DML_REDUCE_FUNCTION_MAX, "MAX", TEN, {F64, F64, F64}},
    {DML_REDUCE_FUNCTION_MIN, "MIN", TEN, {F64, F64, F64}},
    {DML_REDUCE_FUNCTION_SUM, "SUM", WIDE, {I16, U8, F64}},
    {DML_REDUCE_FUNCTION_MULTIPLY, "MULTIPLY", WIDE, {I8, U16, F64}},
};

Test(reduce_validate, type_tables)
{
    reduce_case c;
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; ++k) {
        const table *t = &tables[k];
        for (int i = 0; i < 11 && t->takes[i]; ++i) {
            setup(&c, t->f, t->takes[i], t->takes[i], 1, axis1);
            cr_expect(SUCCEEDED(create(&c)), "%s on type %d: %s", t->name, (int)t->takes[i],
                      dmlcl_last_error());
        }
        for (int i = 0; i < 3; ++i) {
            setup(&c, t->f, t->refused[i], t->refused[i], 1, axis1);
            FAILS(&c, E_INVALIDARG, "REDUCE", "InputTensor.DataType", t->name, "is not one");
        }
    }
}

Test(reduce_validate, output_type)
{
    reduce_case c;
    /* Not ARG*: the input's type. */
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F16, 1, axis1);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.DataType (FLOAT16)", "InputTensor.DataType");
    setup(&c, DML_REDUCE_FUNCTION_MAX, I8, U8, 1, axis1);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.DataType (UINT8)");
    /* ARG*: every input of the ten (4.1), every index type; nothing else. */
    static const DML_TENSOR_DATA_TYPE ten[10] = TEN, index[4] = {I64, I32, U64, U32};
    static const DML_OPERATOR_TYPE ops[2] = {DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX};
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 4; ++j) {
            setup(&c, DML_REDUCE_FUNCTION_ARGMIN, ten[i], index[j], 1, axis1);
            OK(&c);
            for (int o = 0; o < 2; ++o) {
                setup_arg(&c, ops[o], ten[i], index[j], 1, axis1, 0);
                OK(&c);
            }
        }
    setup(&c, DML_REDUCE_FUNCTION_ARGMAX, F32, F32, 1, axis1);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.DataType (FLOAT32)", "index type", "ARGMAX");
    setup_arg(&c, DML_OPERATOR_ARGMIN, F16, U16, 1, axis1, 0);
    FAILS(&c, E_INVALIDARG, "ARGMIN", "OutputTensor.DataType (UINT16)", "index type");
    setup_arg(&c, DML_OPERATOR_ARGMAX, F64, I64, 1, axis1, 0);
    FAILS(&c, E_INVALIDARG, "ARGMAX", "InputTensor.DataType (FLOAT64)", "is not one");
    setup_arg(&c, DML_OPERATOR_ARGMIN, F64, U32, 1, axis1, 0);
    FAILS(&c, E_INVALIDARG, "ARGMIN", "InputTensor.DataType (FLOAT64)");
}

Test(reduce_validate, enums)
{
    reduce_case c;
    setup(&c, (DML_REDUCE_FUNCTION)12, F32, F32, 1, axis1);
    FAILS(&c, E_INVALIDARG, "REDUCE", "Function (12)", "DML_REDUCE_FUNCTION");
    setup(&c, (DML_REDUCE_FUNCTION)-1, F32, F32, 1, axis1);
    FAILS(&c, E_INVALIDARG, "REDUCE", "Function (-1)");
    setup_arg(&c, DML_OPERATOR_ARGMAX, F32, U32, 1, axis1, 1);
    OK(&c);
    setup_arg(&c, DML_OPERATOR_ARGMAX, F32, U32, 1, axis1, 2);
    FAILS(&c, E_INVALIDARG, "ARGMAX", "AxisDirection (2)", "DML_AXIS_DIRECTION");
    setup_arg(&c, DML_OPERATOR_ARGMIN, F32, U32, 1, axis1, -1);
    FAILS(&c, E_INVALIDARG, "ARGMIN", "AxisDirection (-1)");
}

Test(reduce_validate, axes)
{
    reduce_case c;
    static const UINT all[3] = {0, 1, 2}, back[2] = {2, 0}, out_of_range[2] = {0, 3},
                      repeated[3] = {1, 2, 1}, four[4] = {0, 1, 2, 0};
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 3, all);
    OK(&c);
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 2, back);
    OK(&c);
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 2, out_of_range);
    FAILS(&c, E_INVALIDARG, "REDUCE", "Axes[1] (3)", "less than InputTensor.DimensionCount (3)");
    setup_arg(&c, DML_OPERATOR_ARGMAX, F32, U32, 2, out_of_range, 0);
    FAILS(&c, E_INVALIDARG, "ARGMAX", "Axes[1] (3)");
    setup(&c, DML_REDUCE_FUNCTION_MAX, F32, F32, 3, repeated);
    FAILS(&c, E_INVALIDARG, "REDUCE", "Axes[2] (1) repeats Axes[0]", "reduced once");
    setup(&c, DML_REDUCE_FUNCTION_MAX, F32, F32, 4, four);
    FAILS(&c, E_INVALIDARG, "REDUCE", "AxisCount (4)", "at most InputTensor.DimensionCount (3)");
    setup(&c, DML_REDUCE_FUNCTION_MAX, F32, F32, 1, axis1);
    c.d.reduce.Axes = NULL;
    FAILS(&c, E_INVALIDARG, "REDUCE", "Axes is NULL", "AxisCount (1)");
    /* AxisCount 0: each element reduced alone, the output of the input's sizes. */
    setup(&c, DML_REDUCE_FUNCTION_L2, F32, F32, 0, NULL);
    c.d.reduce.Axes = NULL;
    OK(&c);
    setup_arg(&c, DML_OPERATOR_ARGMIN, F32, I64, 0, NULL, 0);
    OK(&c);
}

Test(reduce_validate, shapes)
{
    reduce_case c;
    /* A reduced axis of size other than 1. */
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 1, axis1);
    const UINT kept[3] = {2, 3, 4};
    c.d.reduce.OutputTensor = unit_tensor_set(&c.out, F32, 3, kept, NULL);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.Sizes ({2,3,4})", "{2,1,4}",
          "1 on each reduced axis");
    /* A kept axis of another size. */
    const UINT other[3] = {2, 1, 5};
    c.d.reduce.OutputTensor = unit_tensor_set(&c.out, F32, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.Sizes ({2,1,5})", "{2,1,4}");
    /* AxisCount 0 with a 1 on a dimension of size 3. */
    setup_arg(&c, DML_OPERATOR_ARGMAX, F32, U32, 0, NULL, 0);
    const UINT one[3] = {2, 1, 4};
    c.d.argmax.OutputTensor = unit_tensor_set(&c.out, U32, 3, one, NULL);
    FAILS(&c, E_INVALIDARG, "ARGMAX", "OutputTensor.Sizes ({2,1,4})", "{2,3,4}");
    /* DimensionCount: the input's. */
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 1, axis1);
    const UINT flat[2] = {2, 4};
    c.d.reduce.OutputTensor = unit_tensor_set(&c.out, F32, 2, flat, NULL);
    FAILS(&c, E_INVALIDARG, "REDUCE", "OutputTensor.DimensionCount (2)",
          "InputTensor.DimensionCount (3)");
    /* 1 to 8 dimensions: a 1-D input reduced whole. */
    const UINT n7[1] = {7}, n1[1] = {1};
    static const UINT axis0[1] = {0};
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 1, axis0);
    c.d.reduce.InputTensor = unit_tensor_set(&c.in, F32, 1, n7, NULL);
    c.d.reduce.OutputTensor = unit_tensor_set(&c.out, F32, 1, n1, NULL);
    OK(&c);
    /* Missing tensors. */
    setup(&c, DML_REDUCE_FUNCTION_SUM, F32, F32, 1, axis1);
    c.d.reduce.InputTensor = NULL;
    FAILS(&c, E_INVALIDARG, "REDUCE", "InputTensor");
}

static dmli_reduce lowered(const DML_OPERATOR_DESC *desc)
{
    static dmli_op_state st;
    memset(&st, 0, sizeof st);
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    cr_assert_not_null(cls);
    cr_assert_eq(dmli_op_class_create(cls, desc->Desc, &st), S_OK, "%s", dmlcl_last_error());
    cr_assert(st.reduced);
    return st.reduce;
}

Test(reduce_validate, lowering)
{
    reduce_case c;
    /* Axes {2, 0} of a {2, 3, 4} input, the output strided {100, 10, 1}: dims kept in order,
     * the output's stride 0 on the reduced ones. */
    static const UINT back[2] = {2, 0};
    setup_arg(&c, DML_OPERATOR_ARGMAX, F16, I64, 2, back, 1);
    const UINT out_strides[3] = {100, 10, 1};
    unit_tensor_set_strides(&c.out, out_strides);
    dmli_reduce r = lowered(&c.op);
    cr_expect_eq(r.op, DMLI_REDUCE_ARGMAX);
    cr_expect(r.index_last);
    cr_expect_eq(r.n_inputs, 1);
    cr_expect_eq(r.n_outputs, 1);
    cr_expect_eq(r.in[0].type, F16);
    cr_expect_eq(r.out[0].type, I64);
    cr_assert_eq(r.rank, 3);
    static const int64_t size[3] = {2, 3, 4}, in_stride[3] = {12, 4, 1}, out_stride[3] = {0, 10, 0};
    static const bool reduced[3] = {true, false, true};
    for (int d = 0; d < 3; ++d) {
        cr_expect_eq(r.size[d], size[d], "size[%d]", d);
        cr_expect_eq(r.reduced[d], reduced[d], "reduced[%d]", d);
        cr_expect_eq(r.in[0].stride[d], in_stride[d], "in stride[%d]", d);
        cr_expect_eq(r.out[0].stride[d], out_stride[d], "out stride[%d]", d);
    }
    /* ARGMIN with INCREASING and REDUCE's functions: the first index; the function's op. */
    setup_arg(&c, DML_OPERATOR_ARGMIN, F32, U32, 1, axis1, 0);
    r = lowered(&c.op);
    cr_expect_eq(r.op, DMLI_REDUCE_ARGMIN);
    cr_expect(!r.index_last);
    setup(&c, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, F32, 1, axis1);
    r = lowered(&c.op);
    cr_expect_eq(r.op, DMLI_REDUCE_LOG_SUM_EXP);
    cr_expect(!r.index_last);
    setup(&c, DML_REDUCE_FUNCTION_ARGMIN, U8, U64, 1, axis1);
    r = lowered(&c.op);
    cr_expect_eq(r.op, DMLI_REDUCE_ARGMIN);
    cr_expect_eq(r.out[0].type, U64);
    /* AxisCount 0: nothing reduced. */
    setup(&c, DML_REDUCE_FUNCTION_SUM, I32, I32, 0, NULL);
    r = lowered(&c.op);
    for (int d = 0; d < 3; ++d)
        cr_expect(!r.reduced[d]);
}

/* The oracle (tests/ref/ref_reduce.c) on DirectML's examples and the tie and NaN rules. */
static void ref_run(DML_REDUCE_FUNCTION f, const float *x, UINT n_axes, const UINT *axes, bool last,
                    DML_TENSOR_DATA_TYPE out_type, void *out)
{
    uint32_t sizes[2] = {3, 3}, osizes[2] = {3, 3};
    bool reduced[2] = {false, false};
    for (UINT i = 0; i < n_axes; ++i) {
        reduced[axes[i]] = true;
        osizes[axes[i]] = 1;
    }
    ref_tensor in = ref_tensor_view(F32, 2, sizes, NULL, (void *)x);
    ref_tensor o = ref_tensor_view(out_type, 2, osizes, NULL, out);
    cr_assert(ref_reduce(f, &in, reduced, last, &o, NULL));
}

Test(reduce_validate, oracle_examples)
{
    static const float x[9] = {1, 2, 3, 3, 0, 4, 2, 4, 2}, y[9] = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    static const UINT a0[1] = {0}, a1[1] = {1}, all[2] = {0, 1}, back[2] = {1, 0};
    float s[3];
    ref_run(DML_REDUCE_FUNCTION_SUM, x, 1, a0, false, F32, s);
    cr_expect(s[0] == 6 && s[1] == 6 && s[2] == 9);
    ref_run(DML_REDUCE_FUNCTION_SUM, x, 1, a1, false, F32, s);
    cr_expect(s[0] == 6 && s[1] == 7 && s[2] == 8);
    ref_run(DML_REDUCE_FUNCTION_SUM, x, 2, all, false, F32, s);
    cr_expect(s[0] == 21);
    uint32_t i[3];
    ref_run(DML_REDUCE_FUNCTION_ARGMAX, y, 1, a0, false, U32, i);
    cr_expect(i[0] == 1 && i[1] == 2 && i[2] == 1);
    ref_run(DML_REDUCE_FUNCTION_ARGMAX, y, 2, back, false, U32, i);
    cr_expect(i[0] == 7);
    /* Ties: {2, 4, 2} first and last; ARGMIN of {3, 0, 4} ... */
    ref_run(DML_REDUCE_FUNCTION_ARGMIN, x, 1, a1, false, U32, i);
    cr_expect(i[0] == 0 && i[1] == 1 && i[2] == 0);
    ref_run(DML_REDUCE_FUNCTION_ARGMIN, x, 1, a1, true, U32, i);
    cr_expect(i[0] == 0 && i[1] == 1 && i[2] == 2);
    /* NaN: ignored by MAX and ARGMAX; an all-NaN row. */
    const float nan = NAN;
    const float z[9] = {nan, 1, nan, nan, nan, nan, -0.0f, 0.0f, -1};
    ref_run(DML_REDUCE_FUNCTION_MAX, z, 1, a1, false, F32, s);
    cr_expect(s[0] == 1 && isnan(s[1]) && s[2] == 0 && !signbit(s[2]));
    ref_run(DML_REDUCE_FUNCTION_ARGMAX, z, 1, a1, false, U32, i);
    cr_expect(i[0] == 1 && i[1] == 0 && i[2] == 0, "%u %u %u", i[0], i[1], i[2]);
    ref_run(DML_REDUCE_FUNCTION_ARGMAX, z, 1, a1, true, U32, i);
    cr_expect(i[0] == 1 && i[1] == 2 && i[2] == 1, "%u %u %u", i[0], i[1], i[2]);
}
