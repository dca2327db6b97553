/* SPDX-License-Identifier: MIT */
/*
 * DirectML's TOP_K and TOP_K1: the K largest (TOP_K; TOP_K1 with AxisDirection DECREASING) or
 * K smallest (TOP_K1 INCREASING) elements of each sequence along Axis, their values into
 * OutputValueTensor sorted (descending for the largest, ascending for the smallest) and their
 * positions in the sequence into OutputIndexTensor; equal values in ascending index order,
 * whatever the direction. A reduction (reduce.c) of one reduced dimension, the axis: an
 * element's rank in its sequence is its output position along the axis, written when below K
 * (DMLI_REDUCE_TOP_K, param[OP] K, smallest).
 *
 * DirectML's rules (the pages, feature levels up to 6.4): the three tensors of one
 * DimensionCount; InputTensor FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32,
 * UINT16, UINT8 (the 64-bit types from 5.0), OutputValueTensor of its DataType,
 * OutputIndexTensor UINT32 or UINT64 (UINT64 from 5.0); Axis below the DimensionCount; both
 * outputs of the input's Sizes with Axis's replaced by K; TOP_K1's AxisDirection INCREASING or
 * DECREASING. Chosen where the pages are silent or stricter than their users
 * (docs/operators.md): 1 <= K <= the axis's size (the pages say "less than"; ONNX TopK, which
 * ONNX Runtime's DirectML provider maps onto TOP_K1, allows K equal to it); NaN ranks above
 * every number (first among the largest, last among the smallest), -0 equals +0.
 */
#include "ops/common.h"

#define TOPK_TYPES                                                             \
    (1u << DML_TENSOR_DATA_TYPE_FLOAT32 | 1u << DML_TENSOR_DATA_TYPE_FLOAT16 | \
     1u << DML_TENSOR_DATA_TYPE_INT64 | 1u << DML_TENSOR_DATA_TYPE_INT32 |     \
     1u << DML_TENSOR_DATA_TYPE_INT16 | 1u << DML_TENSOR_DATA_TYPE_INT8 |      \
     1u << DML_TENSOR_DATA_TYPE_UINT64 | 1u << DML_TENSOR_DATA_TYPE_UINT32 |   \
     1u << DML_TENSOR_DATA_TYPE_UINT16 | 1u << DML_TENSOR_DATA_TYPE_UINT8)
#define TOPK_TYPE_LIST "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

/* TOP_K1's fields (TOP_K's without AxisDirection, DECREASING). */
typedef struct topk_args {
    const char *op;
    const DML_TENSOR_DESC *input, *values, *indices;
    UINT axis, k;
    DML_AXIS_DIRECTION direction;
    bool has_direction;
} topk_args;

static topk_args args_of(bool one, const void *desc)
{
    if (one) {
        const DML_TOP_K1_OPERATOR_DESC *d = desc;
        return (topk_args){"TOP_K1", d->InputTensor, d->OutputValueTensor, d->OutputIndexTensor,
                           d->Axis,  d->K,           d->AxisDirection,     true};
    }
    const DML_TOP_K_OPERATOR_DESC *d = desc;
    return (topk_args){"TOP_K", d->InputTensor, d->OutputValueTensor,          d->OutputIndexTensor,
                       d->Axis, d->K,           DML_AXIS_DIRECTION_DECREASING, false};
}

static HRESULT topk_validate(bool one, const void *desc, dmli_op_state *st)
{
    topk_args a = args_of(one, desc);
    const char *op = a.op;
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", a.input, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(
        dmli_tensor_import(op, "OutputValueTensor", a.values, DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    DMLI_TRY(dmli_tensor_import(op, "OutputIndexTensor", a.indices, DMLI_TENSOR_OUTPUT,
                                &st->outputs[1]));
    const dmli_tensor *x = &st->inputs[0], *val = &st->outputs[0], *idx = &st->outputs[1];
    DMLI_INVALID_IF(x->type >= 32 || !(TOPK_TYPES & (1u << x->type)),
                    "%s: InputTensor.DataType (%s) is not one %s takes (%s)", op,
                    dmli_type_name(x->type), op, TOPK_TYPE_LIST);
    DMLI_TRY(dmli_ops_same_type(op, "OutputValueTensor", val, "InputTensor", x));
    DMLI_INVALID_IF(idx->type != DML_TENSOR_DATA_TYPE_UINT32 &&
                        idx->type != DML_TENSOR_DATA_TYPE_UINT64,
                    "%s: OutputIndexTensor.DataType (%s) must be UINT32 or UINT64", op,
                    dmli_type_name(idx->type));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputValueTensor", val, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputIndexTensor", idx, "InputTensor", x));
    DMLI_INVALID_IF(a.axis >= x->rank,
                    "%s: Axis (%u) must be less than InputTensor.DimensionCount (%u)", op, a.axis,
                    x->rank);
    DMLI_INVALID_IF(a.k < 1 || a.k > x->sizes[a.axis],
                    "%s: K (%u) must be at least 1 and at most InputTensor.Sizes[%u] (%llu), the "
                    "sequence's length",
                    op, a.k, a.axis, (unsigned long long)x->sizes[a.axis]);
    if (a.has_direction)
        DMLI_INVALID_IF(a.direction != DML_AXIS_DIRECTION_INCREASING &&
                            a.direction != DML_AXIS_DIRECTION_DECREASING,
                        "%s: AxisDirection (%d) must be DML_AXIS_DIRECTION_INCREASING (0) or "
                        "DML_AXIS_DIRECTION_DECREASING (1)",
                        op, (int)a.direction);
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputValueTensor";
    st->output_names[1] = "OutputIndexTensor";
    st->n_inputs = 1;
    st->n_outputs = 2;
    return S_OK;
}

static HRESULT topk_infer(bool one, const void *desc, dmli_op_state *st)
{
    topk_args a = args_of(one, desc);
    uint64_t want[DMLI_MAX_RANK];
    const dmli_tensor *x = &st->inputs[0];
    for (uint32_t i = 0; i < x->rank; ++i)
        want[i] = i == a.axis ? a.k : x->sizes[i];
    static const char rule[] = "InputTensor.Sizes with Sizes[Axis] = K";
    DMLI_TRY(dmli_ops_expect_sizes(a.op, "OutputValueTensor", &st->outputs[0], want, rule));
    return dmli_ops_expect_sizes(a.op, "OutputIndexTensor", &st->outputs[1], want, rule);
}

static void topk_lower(bool one, const void *desc, dmli_op_state *st)
{
    topk_args a = args_of(one, desc);
    const dmli_tensor *x = &st->inputs[0], *val = &st->outputs[0], *idx = &st->outputs[1];
    dmli_reduce *r = &st->reduce;
    st->reduced = true;
    dmli_reduce_init(r, DMLI_REDUCE_TOP_K, 1, 2);
    r->in[0].type = x->type;
    r->out[0].type = val->type;
    r->out[1].type = idx->type;
    r->smallest = a.direction == DML_AXIS_DIRECTION_INCREASING;
    dmli_reduce_param_int(r, DMLI_MAP_PARAM_OP, a.k);
    for (uint32_t i = 0; i < x->rank; ++i) {
        /* Along the axis an output's stride steps over ranks (positions 0..K-1). */
        int64_t outs[2] = {val->strides[i], idx->strides[i]};
        dmli_reduce_push(r, (int64_t)x->sizes[i], i == a.axis, outs, &x->strides[i]);
    }
}

#define TOPK_OP(id, ONE)                                              \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        return topk_validate(ONE, desc, st);                          \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        return topk_infer(ONE, desc, st);                             \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        topk_lower(ONE, desc, st);                                    \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

TOPK_OP(top_k, false)
TOPK_OP(top_k1, true)
