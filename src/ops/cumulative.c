/* SPDX-License-Identifier: MIT */
/*
 * DirectML's CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT: each sequence along Axis scanned, the
 * running sum (product) written at every position: out[i] = x[0] + ... + x[i], or with
 * HasExclusiveSum (HasExclusiveProduct) x[0] + ... + x[i - 1] (0, or 1, at the first position);
 * AxisDirection DECREASING scans from the sequence's end. A reduction (reduce.c) of one reduced
 * dimension, the axis, the output shaped as the input (DMLI_REDUCE_CUMSUM, _CUMPROD).
 *
 * DirectML's rules (the pages, feature levels up to 6.4): Input and Output of one DataType,
 * DimensionCount and Sizes; FLOAT32, FLOAT16, INT64, INT32, UINT64, UINT32 (the 64-bit types
 * from 5.0); Axis below the DimensionCount; AxisDirection INCREASING or DECREASING; the output
 * may alias the input (in place). Where the pages are silent (docs/operators.md): integers wrap
 * (two's complement), the scan runs in order along the sequence (FLOAT16 in float32, each
 * result rounded once to the output).
 */
#include "ops/common.h"

#define SCAN_TYPES                                                             \
    (1u << DML_TENSOR_DATA_TYPE_FLOAT32 | 1u << DML_TENSOR_DATA_TYPE_FLOAT16 | \
     1u << DML_TENSOR_DATA_TYPE_INT64 | 1u << DML_TENSOR_DATA_TYPE_INT32 |     \
     1u << DML_TENSOR_DATA_TYPE_UINT64 | 1u << DML_TENSOR_DATA_TYPE_UINT32)
#define SCAN_TYPE_LIST "FLOAT32, FLOAT16, INT64, INT32, UINT64, UINT32"

/* CUMULATIVE_SUMMATION's and CUMULATIVE_PRODUCT's descriptors have one layout. */
typedef struct scan_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    DML_AXIS_DIRECTION AxisDirection;
    BOOL HasExclusive;
} scan_desc;

_Static_assert(sizeof(scan_desc) == sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC) &&
                   sizeof(scan_desc) == sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC),
               "the scans' descriptors share a layout");

static HRESULT scan_validate(const char *op, const void *desc, dmli_op_state *st)
{
    const scan_desc *d = desc;
    DMLI_TRY(
        dmli_tensor_import(op, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *x = &st->inputs[0], *out = &st->outputs[0];
    DMLI_INVALID_IF(x->type >= 32 || !(SCAN_TYPES & (1u << x->type)),
                    "%s: InputTensor.DataType (%s) is not one %s takes (%s)", op,
                    dmli_type_name(x->type), op, SCAN_TYPE_LIST);
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", x));
    DMLI_INVALID_IF(d->Axis >= x->rank,
                    "%s: Axis (%u) must be less than InputTensor.DimensionCount (%u)", op, d->Axis,
                    x->rank);
    DMLI_INVALID_IF(d->AxisDirection != DML_AXIS_DIRECTION_INCREASING &&
                        d->AxisDirection != DML_AXIS_DIRECTION_DECREASING,
                    "%s: AxisDirection (%d) must be DML_AXIS_DIRECTION_INCREASING (0) or "
                    "DML_AXIS_DIRECTION_DECREASING (1)",
                    op, (int)d->AxisDirection);
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->in_place = true; /* the pages allow the output to alias the input */
    return S_OK;
}

static HRESULT scan_infer(const char *op, dmli_op_state *st)
{
    return dmli_ops_expect_sizes(op, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "InputTensor.Sizes: a scan keeps the shape");
}

static void scan_lower(dmli_reduce_op rop, const void *desc, dmli_op_state *st)
{
    const scan_desc *d = desc;
    const dmli_tensor *x = &st->inputs[0], *out = &st->outputs[0];
    dmli_reduce *r = &st->reduce;
    st->reduced = true;
    dmli_reduce_init(r, rop, 1, 1);
    r->in[0].type = x->type;
    r->out[0].type = out->type;
    r->reverse = d->AxisDirection == DML_AXIS_DIRECTION_DECREASING;
    r->exclusive = d->HasExclusive != 0;
    for (uint32_t i = 0; i < x->rank; ++i)
        dmli_reduce_push(r, (int64_t)x->sizes[i], i == d->Axis, &out->strides[i], &x->strides[i]);
}

#define SCAN_OP(id, NAME, ROP)                                        \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        return scan_validate(NAME, desc, st);                         \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        (void)desc;                                                   \
        return scan_infer(NAME, st);                                  \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        scan_lower(ROP, desc, st);                                    \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

SCAN_OP(cumulative_summation, "CUMULATIVE_SUMMATION", DMLI_REDUCE_CUMSUM)
SCAN_OP(cumulative_product, "CUMULATIVE_PRODUCT", DMLI_REDUCE_CUMPROD)
