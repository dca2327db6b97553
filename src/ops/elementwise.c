/* SPDX-License-Identifier: MIT */
/*
 * DirectML's element-wise operators, rows of one table: each lowers to a map (internal.h),
 * out[o] = f(A[view_A(o)], B[view_B(o)]) or f(g(Input[view(o)])) with g(x) = x * Scale +
 * Bias when a DML_SCALE_BIAS is given. DirectML's rules, for every row: ATensor, BTensor (or
 * InputTensor) and OutputTensor have the same DataType, DimensionCount and Sizes, so an input
 * is broadcast only by 0 strides; the output may share its range with an input of its
 * layout (in place). Data types: the union of each operator's feature-level tables up to
 * 6.4, as DirectML's pages list them (FLOAT64 is in none of these tables).
 *
 * Semantics beyond the pages' formulas, chosen and documented (docs/operators.md): integers
 * wrap (two's complement) where a result leaves its type (ADD, SUBTRACT, MULTIPLY,
 * DIFFERENCE_SQUARE, NEGATE and ABS of the most negative value); DIVIDE on integers
 * truncates toward zero, by zero gives every bit set (Direct3D's udiv), and the most negative
 * value by -1 wraps to itself; MEAN on integers is the exact mean truncated toward zero; MAX
 * and MIN give the other operand for a NaN (Direct3D's rule) and order -0 below +0; FLOAT16
 * computes in float32 and rounds once, to nearest even. ScaleBias is applied in float on
 * floating-point tensors only (DirectML documents g on FLOAT; its maintainers exclude 64-bit
 * types): on integer tensors it is DXGI_ERROR_UNSUPPORTED, as for IDENTITY.
 */
#include "ops/common.h"

#define BIT(t) (1u << (t))
#define F16_F32 (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16))
#define I32_U32 (BIT(DML_TENSOR_DATA_TYPE_INT32) | BIT(DML_TENSOR_DATA_TYPE_UINT32))
#define SIGNED_INTS                                                      \
    (BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) | \
     BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8))
#define UNSIGNED_INTS                                                      \
    (BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32) | \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define TEN_TYPES (F16_F32 | SIGNED_INTS | UNSIGNED_INTS)
#define TEN_TYPE_LIST "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

typedef struct ew_row {
    const char *name;
    dmli_map_op op;
    int arity;       /* 2: ATensor, BTensor; 1: InputTensor */
    bool scale_bias; /* the descriptor has a ScaleBias member (unary rows) */
    uint32_t types;  /* BIT(DML_TENSOR_DATA_TYPE_*) */
    const char *type_list;
} ew_row;

static const ew_row rows[] = {
    {"ELEMENT_WISE_ADD", DMLI_MAP_ADD, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_SUBTRACT", DMLI_MAP_SUBTRACT, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_MULTIPLY", DMLI_MAP_MULTIPLY, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_DIVIDE", DMLI_MAP_DIVIDE, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_MAX", DMLI_MAP_MAX, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_MIN", DMLI_MAP_MIN, 2, false, TEN_TYPES, TEN_TYPE_LIST},
    {"ELEMENT_WISE_MEAN", DMLI_MAP_MEAN, 2, false, F16_F32 | I32_U32,
     "FLOAT32, FLOAT16, INT32, UINT32"},
    {"ELEMENT_WISE_DIFFERENCE_SQUARE", DMLI_MAP_DIFFERENCE_SQUARE, 2, false, F16_F32 | I32_U32,
     "FLOAT32, FLOAT16, INT32, UINT32"},
    {"ELEMENT_WISE_NEGATE", DMLI_MAP_NEGATE, 1, false, F16_F32 | SIGNED_INTS,
     "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8"},
    {"ELEMENT_WISE_ABS", DMLI_MAP_ABS, 1, true, F16_F32 | SIGNED_INTS,
     "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8"},
    {"ELEMENT_WISE_CEIL", DMLI_MAP_CEIL, 1, true, F16_F32, "FLOAT32, FLOAT16"},
    {"ELEMENT_WISE_FLOOR", DMLI_MAP_FLOOR, 1, true, F16_F32, "FLOAT32, FLOAT16"},
    {"ELEMENT_WISE_SQRT", DMLI_MAP_SQRT, 1, true, F16_F32, "FLOAT32, FLOAT16"},
    {"ELEMENT_WISE_RECIP", DMLI_MAP_RECIP, 1, true, F16_F32, "FLOAT32, FLOAT16"},
    {"ELEMENT_WISE_EXP", DMLI_MAP_EXP, 1, true, F16_F32, "FLOAT32, FLOAT16"},
    {"ELEMENT_WISE_LOG", DMLI_MAP_LOG, 1, true, F16_F32, "FLOAT32, FLOAT16"},
};

enum {
    ROW_ADD,
    ROW_SUBTRACT,
    ROW_MULTIPLY,
    ROW_DIVIDE,
    ROW_MAX,
    ROW_MIN,
    ROW_MEAN,
    ROW_DIFFSQ,
    ROW_NEGATE,
    ROW_ABS,
    ROW_CEIL,
    ROW_FLOOR,
    ROW_SQRT,
    ROW_RECIP,
    ROW_EXP,
    ROW_LOG
};

/* The descriptor's members, as every row's descriptor lays them out. */
typedef struct binary_desc {
    const DML_TENSOR_DESC *ATensor, *BTensor, *OutputTensor;
} binary_desc;
typedef struct unary_desc {
    const DML_TENSOR_DESC *InputTensor, *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias; /* absent in NEGATE's */
} unary_desc;

static HRESULT validate_row(const ew_row *r, const void *desc, dmli_op_state *st)
{
    const char *op = r->name;
    const dmli_tensor *a = &st->inputs[0], *out = &st->outputs[0];
    if (r->arity == 2) {
        const binary_desc *d = desc;
        DMLI_TRY(dmli_tensor_import(op, "ATensor", d->ATensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
        DMLI_TRY(dmli_tensor_import(op, "BTensor", d->BTensor, DMLI_TENSOR_INPUT, &st->inputs[1]));
        DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                    &st->outputs[0]));
        st->input_names[0] = "ATensor";
        st->input_names[1] = "BTensor";
    } else {
        const unary_desc *d = desc;
        DMLI_TRY(dmli_tensor_import(op, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT,
                                    &st->inputs[0]));
        DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                    &st->outputs[0]));
        st->input_names[0] = "InputTensor";
    }
    const char *first = st->input_names[0];
    DMLI_INVALID_IF(a->type >= 32 || !(r->types & BIT(a->type)),
                    "%s: %s.DataType (%s) is not one %s takes (%s)", op, first,
                    dmli_type_name(a->type), op, r->type_list);
    for (int k = 1; k < r->arity; ++k) {
        DMLI_TRY(dmli_ops_same_type(op, st->input_names[k], &st->inputs[k], first, a));
        DMLI_TRY(dmli_ops_same_rank(op, st->input_names[k], &st->inputs[k], first, a));
    }
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, first, a));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, first, a));
    if (r->scale_bias && ((const unary_desc *)desc)->ScaleBias)
        DMLI_UNSUPPORTED_IF(!dmli_type_is_float(a->type) || a->type == DML_TENSOR_DATA_TYPE_FLOAT64,
                            "%s: ScaleBias on %s.DataType (%s) is not supported: DirectML "
                            "defines x * Scale + Bias on FLOAT32 and FLOAT16 tensors; pass "
                            "ScaleBias NULL",
                            op, first, dmli_type_name(a->type));
    st->n_inputs = (uint32_t)r->arity;
    st->n_outputs = 1;
    st->output_names[0] = "OutputTensor";
    st->in_place = true;
    return S_OK;
}

static HRESULT infer_row(const ew_row *r, dmli_op_state *st)
{
    /* Every tensor has the output's Sizes: B as A's, the output as A's. */
    for (int k = 1; k < r->arity; ++k)
        DMLI_TRY(dmli_ops_expect_sizes(r->name, st->input_names[k], &st->inputs[k],
                                       st->inputs[0].sizes,
                                       "ATensor.Sizes: element-wise tensors have one shape; "
                                       "broadcast with 0 strides"));
    return dmli_ops_expect_sizes(r->name, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "the input's Sizes: element-wise operators keep the shape");
}

static void lower_row(const ew_row *r, const void *desc, dmli_op_state *st)
{
    const dmli_tensor *out = &st->outputs[0];
    dmli_map *m = &st->map;
    st->mapped = true;
    dmli_map_init(m, r->op, out->type, (uint32_t)r->arity);
    for (int k = 0; k < r->arity; ++k) {
        m->in[k].type = st->inputs[k].type;
        m->in[k].slot = (uint32_t)k;
    }
    const DML_SCALE_BIAS *sb = r->scale_bias ? ((const unary_desc *)desc)->ScaleBias : NULL;
    if (sb) {
        m->scale_bias = true;
        m->scale = sb->Scale;
        m->bias = sb->Bias;
    }
    for (uint32_t d = 0; d < out->rank; ++d) {
        int64_t in_strides[2] = {st->inputs[0].strides[d],
                                 r->arity > 1 ? st->inputs[1].strides[d] : 0};
        dmli_map_push(m, (int64_t)out->sizes[d], out->strides[d], in_strides);
    }
}

#define EW_ROW(id, row)                                               \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        return validate_row(&rows[row], desc, st);                    \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        (void)desc;                                                   \
        return infer_row(&rows[row], st);                             \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        lower_row(&rows[row], desc, st);                              \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

EW_ROW(ew_add, ROW_ADD)
EW_ROW(ew_subtract, ROW_SUBTRACT)
EW_ROW(ew_multiply, ROW_MULTIPLY)
EW_ROW(ew_divide, ROW_DIVIDE)
EW_ROW(ew_max, ROW_MAX)
EW_ROW(ew_min, ROW_MIN)
EW_ROW(ew_mean, ROW_MEAN)
EW_ROW(ew_difference_square, ROW_DIFFSQ)
EW_ROW(ew_negate, ROW_NEGATE)
EW_ROW(ew_abs, ROW_ABS)
EW_ROW(ew_ceil, ROW_CEIL)
EW_ROW(ew_floor, ROW_FLOOR)
EW_ROW(ew_sqrt, ROW_SQRT)
EW_ROW(ew_recip, ROW_RECIP)
EW_ROW(ew_exp, ROW_EXP)
EW_ROW(ew_log, ROW_LOG)
