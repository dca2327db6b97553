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
#include <stdio.h>

#include "ops/elementwise.h"

#define F16_F32 DMLI_EW_F16_F32
#define I32_U32 DMLI_EW_I32_U32
#define SIGNED_INTS DMLI_EW_SIGNED_INTS
#define TEN_TYPES DMLI_EW_TEN_TYPES
#define TEN_TYPE_LIST DMLI_EW_TEN_TYPE_LIST

/* ---- The shared steps --------------------------------------------------------------- */

static const char *const binary_names[] = {"ATensor", "BTensor"};
static const char *const unary_names[] = {"InputTensor"};

/* The descriptor's leading members: the inputs, OutputTensor, then ScaleBias (when the row
 * has one), every one a pointer. */
static const DML_TENSOR_DESC *desc_tensor(const void *desc, int k)
{
    const DML_TENSOR_DESC *const *members = desc;
    return members[k];
}

static const DML_SCALE_BIAS *desc_scale_bias(const dmli_ew_row *r, const void *desc)
{
    if (!r->scale_bias)
        return NULL;
    const DML_SCALE_BIAS *const *member =
        (const DML_SCALE_BIAS *const *)((const DML_TENSOR_DESC *const *)desc + r->arity + 1);
    return *member;
}

HRESULT dmli_ew_validate(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    const char *op = r->name;
    const char *const *names = r->input_names  ? r->input_names
                               : r->arity == 2 ? binary_names
                                               : unary_names;
    for (int k = 0; k < r->arity; ++k) {
        unsigned rules =
            DMLI_TENSOR_INPUT | ((r->optional_inputs & DMLI_EW_BIT(k)) ? DMLI_TENSOR_OPTIONAL : 0);
        DMLI_TRY(dmli_tensor_import(op, names[k], desc_tensor(desc, k), rules, &st->inputs[k]));
        st->input_names[k] = names[k];
    }
    const char *out_name = r->output_name ? r->output_name : "OutputTensor";
    DMLI_TRY(dmli_tensor_import(op, out_name, desc_tensor(desc, r->arity), DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *a = &st->inputs[0], *out = &st->outputs[0];
    const char *first = st->input_names[0];
    DMLI_INVALID_IF(a->type >= 32 || !(r->types & DMLI_EW_BIT(a->type)),
                    "%s: %s.DataType (%s) is not one %s takes (%s)", op, first,
                    dmli_type_name(a->type), op, r->type_list);
    for (int k = 1; k < r->arity; ++k) {
        if (!st->inputs[k].present)
            continue;
        if (!(r->own_type_inputs & DMLI_EW_BIT(k)))
            DMLI_TRY(dmli_ops_same_type(op, st->input_names[k], &st->inputs[k], first, a));
        DMLI_TRY(dmli_ops_same_rank(op, st->input_names[k], &st->inputs[k], first, a));
    }
    if (r->out_types)
        DMLI_INVALID_IF(out->type >= 32 || !(r->out_types & DMLI_EW_BIT(out->type)),
                        "%s: %s.DataType (%s) is not one %s gives (%s)", op, out_name,
                        dmli_type_name(out->type), op, r->out_type_list);
    else
        DMLI_TRY(dmli_ops_same_type(op, out_name, out, first, a));
    DMLI_TRY(dmli_ops_same_rank(op, out_name, out, first, a));
    if (desc_scale_bias(r, desc))
        DMLI_UNSUPPORTED_IF(!dmli_type_is_float(a->type) || a->type == DML_TENSOR_DATA_TYPE_FLOAT64,
                            "%s: ScaleBias on %s.DataType (%s) is not supported: DirectML "
                            "defines x * Scale + Bias on FLOAT32 and FLOAT16 tensors; pass "
                            "ScaleBias NULL",
                            op, first, dmli_type_name(a->type));
    st->n_inputs = (uint32_t)r->arity;
    st->n_outputs = 1;
    st->output_names[0] = out_name;
    st->in_place = true;
    if (r->check)
        DMLI_TRY(r->check(r, desc, st));
    return S_OK;
}

HRESULT dmli_ew_infer(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)desc;
    /* Every tensor has the output's Sizes: the inputs as the first one's, the output too. */
    char rule[96];
    snprintf(rule, sizeof rule,
             "%s.Sizes: element-wise tensors have one shape; broadcast "
             "with 0 strides",
             st->input_names[0]);
    for (int k = 1; k < r->arity; ++k)
        if (st->inputs[k].present)
            DMLI_TRY(dmli_ops_expect_sizes(r->name, st->input_names[k], &st->inputs[k],
                                           st->inputs[0].sizes, rule));
    return dmli_ops_expect_sizes(r->name, st->output_names[0], &st->outputs[0], st->inputs[0].sizes,
                                 "the input's Sizes: element-wise operators keep the shape");
}

void dmli_ew_lower(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    const dmli_tensor *out = &st->outputs[0];
    dmli_map *m = &st->map;
    st->mapped = true;
    int present[DMLI_MAP_MAX_INPUTS], n = 0; /* the map's operands: the present inputs */
    for (int k = 0; k < r->arity; ++k)
        if (st->inputs[k].present)
            present[n++] = k;
    dmli_map_init(m, r->op, out->type, (uint32_t)n);
    m->act = r->act;
    for (int j = 0; j < n; ++j) {
        m->in[j].type = st->inputs[present[j]].type;
        m->in[j].slot = (uint32_t)present[j];
    }
    const DML_SCALE_BIAS *sb = desc_scale_bias(r, desc);
    if (sb) {
        m->scale_bias = true;
        dmli_map_param_real(m, DMLI_MAP_PARAM_SCALE, sb->Scale);
        dmli_map_param_real(m, DMLI_MAP_PARAM_BIAS, sb->Bias);
    }
    if (r->params)
        r->params(r, desc, m);
    for (uint32_t d = 0; d < out->rank; ++d) {
        int64_t in_strides[DMLI_MAP_MAX_INPUTS];
        for (int j = 0; j < n; ++j)
            in_strides[j] = st->inputs[present[j]].strides[d];
        dmli_map_push(m, (int64_t)out->sizes[d], out->strides[d], in_strides);
    }
}

/* ---- The arithmetic of cl/map.cl (OPs 0-16) ---------------------------------------------- */

static const dmli_ew_row rows[] = {
    {.name = "ELEMENT_WISE_ADD",
     .op = DMLI_MAP_ADD,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_SUBTRACT",
     .op = DMLI_MAP_SUBTRACT,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_MULTIPLY",
     .op = DMLI_MAP_MULTIPLY,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_DIVIDE",
     .op = DMLI_MAP_DIVIDE,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_MAX",
     .op = DMLI_MAP_MAX,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_MIN",
     .op = DMLI_MAP_MIN,
     .arity = 2,
     .types = TEN_TYPES,
     .type_list = TEN_TYPE_LIST},
    {.name = "ELEMENT_WISE_MEAN",
     .op = DMLI_MAP_MEAN,
     .arity = 2,
     .types = F16_F32 | I32_U32,
     .type_list = "FLOAT32, FLOAT16, INT32, UINT32"},
    {.name = "ELEMENT_WISE_DIFFERENCE_SQUARE",
     .op = DMLI_MAP_DIFFERENCE_SQUARE,
     .arity = 2,
     .types = F16_F32 | I32_U32,
     .type_list = "FLOAT32, FLOAT16, INT32, UINT32"},
    {.name = "ELEMENT_WISE_NEGATE",
     .op = DMLI_MAP_NEGATE,
     .arity = 1,
     .types = F16_F32 | SIGNED_INTS,
     .type_list = "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8"},
    {.name = "ELEMENT_WISE_ABS",
     .op = DMLI_MAP_ABS,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32 | SIGNED_INTS,
     .type_list = "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8"},
    {.name = "ELEMENT_WISE_CEIL",
     .op = DMLI_MAP_CEIL,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
    {.name = "ELEMENT_WISE_FLOOR",
     .op = DMLI_MAP_FLOOR,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
    {.name = "ELEMENT_WISE_SQRT",
     .op = DMLI_MAP_SQRT,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
    {.name = "ELEMENT_WISE_RECIP",
     .op = DMLI_MAP_RECIP,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
    {.name = "ELEMENT_WISE_EXP",
     .op = DMLI_MAP_EXP,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
    {.name = "ELEMENT_WISE_LOG",
     .op = DMLI_MAP_LOG,
     .arity = 1,
     .scale_bias = true,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16"},
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

DMLI_EW_OP(ew_add, rows, ROW_ADD)
DMLI_EW_OP(ew_subtract, rows, ROW_SUBTRACT)
DMLI_EW_OP(ew_multiply, rows, ROW_MULTIPLY)
DMLI_EW_OP(ew_divide, rows, ROW_DIVIDE)
DMLI_EW_OP(ew_max, rows, ROW_MAX)
DMLI_EW_OP(ew_min, rows, ROW_MIN)
DMLI_EW_OP(ew_mean, rows, ROW_MEAN)
DMLI_EW_OP(ew_difference_square, rows, ROW_DIFFSQ)
DMLI_EW_OP(ew_negate, rows, ROW_NEGATE)
DMLI_EW_OP(ew_abs, rows, ROW_ABS)
DMLI_EW_OP(ew_ceil, rows, ROW_CEIL)
DMLI_EW_OP(ew_floor, rows, ROW_FLOOR)
DMLI_EW_OP(ew_sqrt, rows, ROW_SQRT)
DMLI_EW_OP(ew_recip, rows, ROW_RECIP)
DMLI_EW_OP(ew_exp, rows, ROW_EXP)
DMLI_EW_OP(ew_log, rows, ROW_LOG)
