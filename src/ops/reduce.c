/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN and DML_OPERATOR_ARGMAX: one value per row, a row
 * being the elements that share the coordinates off Axes. DirectML's rules: OutputTensor has
 * InputTensor's DimensionCount and Sizes, 1 on each reduced axis; each axis below the
 * DimensionCount; the data types of each function's table (the union of its feature levels up
 * to 6.4: 4.1 added INT64 and UINT64 inputs to ARGMIN and ARGMAX, 5.0 to MIN, MAX, SUM and
 * MULTIPLY, and the four 32- and 64-bit integer types to L1 and SUM_SQUARE), the output of the
 * input's type except for ARGMIN and ARGMAX, whose output is an index (INT32, UINT32, INT64,
 * UINT64).
 *
 * Chosen where the pages are silent (docs/operators.md): an axis listed twice is invalid;
 * AxisCount 0 is valid and reduces each element alone (ONNX Runtime's DirectML provider passes
 * no axes for noop_with_empty_axes); an index counts the element's position in its row
 * row-major over the reduced axes in dimension order, whatever the order of Axes; REDUCE's
 * ARGMAX and ARGMIN take the first index on ties (the ARGMAX page: INCREASING is REDUCE's
 * behaviour). Lowers to a reduction (internal.h dmli_reduce) over the input's dimensions, the
 * output's stride 0 on each reduced one.
 */
#include <string.h>

#include "ops/common.h"

#define BIT(t) (1u << (t))
#define F16_F32 (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16))
#define I32_U32 (BIT(DML_TENSOR_DATA_TYPE_INT32) | BIT(DML_TENSOR_DATA_TYPE_UINT32))
#define EIGHT_TYPES                                                                         \
    (F16_F32 | I32_U32 | BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) | \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define I64_U64 (BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_UINT64))
#define INDEX_TYPES (I32_U32 | I64_U64)

typedef struct function_row {
    const char *name;
    unsigned types;
    const char *type_list;
} function_row;

#define TEN_LIST "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"
#define WIDE_LIST "FLOAT32, FLOAT16, INT64, INT32, UINT64, UINT32"
#define FLOAT_ROW(nm) [DML_REDUCE_FUNCTION_##nm] = {#nm, F16_F32, "FLOAT32, FLOAT16"}
#define WIDE_ROW(nm) [DML_REDUCE_FUNCTION_##nm] = {#nm, F16_F32 | I32_U32 | I64_U64, WIDE_LIST}
#define TEN_ROW(nm) [DML_REDUCE_FUNCTION_##nm] = {#nm, EIGHT_TYPES | I64_U64, TEN_LIST}

/* DML_REDUCE_FUNCTION order, which dmli_reduce_op follows. */
static const function_row functions[] = {
    TEN_ROW(ARGMAX), TEN_ROW(ARGMIN),    FLOAT_ROW(AVERAGE),     WIDE_ROW(L1),
    FLOAT_ROW(L2),   FLOAT_ROW(LOG_SUM), FLOAT_ROW(LOG_SUM_EXP), TEN_ROW(MAX),
    TEN_ROW(MIN),    WIDE_ROW(MULTIPLY), WIDE_ROW(SUM),          WIDE_ROW(SUM_SQUARE),
};
#define N_FUNCTIONS (sizeof functions / sizeof functions[0])

_Static_assert((int)DMLI_REDUCE_SUM_SQUARE == (int)DML_REDUCE_FUNCTION_SUM_SQUARE &&
                   (int)DMLI_REDUCE_ARGMIN == (int)DML_REDUCE_FUNCTION_ARGMIN,
               "dmli_reduce_op follows DML_REDUCE_FUNCTION");

/* One of the three descriptors, read. */
typedef struct reduce_args {
    const char *op;
    DML_REDUCE_FUNCTION function;
    const DML_TENSOR_DESC *input, *output;
    UINT axis_count;
    const UINT *axes;
    bool has_direction; /* ARGMIN, ARGMAX: AxisDirection */
    DML_AXIS_DIRECTION direction;
} reduce_args;

/* What validate finds for infer and lower. */
typedef struct reduce_scratch {
    const char *op;
    DML_REDUCE_FUNCTION function;
    bool index_last;
    bool reduced[DMLI_MAX_RANK];
} reduce_scratch;

static bool is_arg(DML_REDUCE_FUNCTION f)
{
    return f == DML_REDUCE_FUNCTION_ARGMAX || f == DML_REDUCE_FUNCTION_ARGMIN;
}

static HRESULT check_types(const reduce_args *a, const dmli_tensor *in, const dmli_tensor *out)
{
    const function_row *f = &functions[a->function];
    const char *op = a->op;
    DMLI_INVALID_IF(in->type >= 32 || !(f->types & BIT(in->type)),
                    "%s: InputTensor.DataType (%s) is not one %s takes (%s)", op,
                    dmli_type_name(in->type), f->name, f->type_list);
    if (is_arg(a->function))
        DMLI_INVALID_IF(out->type >= 32 || !(INDEX_TYPES & BIT(out->type)),
                        "%s: OutputTensor.DataType (%s) must be an index type of %s (INT64, "
                        "INT32, UINT64, UINT32)",
                        op, dmli_type_name(out->type), f->name);
    else
        DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    return S_OK;
}

static HRESULT check_axes(const reduce_args *a, uint32_t rank, bool *reduced)
{
    const char *op = a->op;
    DMLI_INVALID_IF(a->axis_count > 0 && !a->axes, "%s: Axes is NULL with AxisCount (%u)", op,
                    a->axis_count);
    DMLI_INVALID_IF(a->axis_count > rank,
                    "%s: AxisCount (%u) must be at most InputTensor.DimensionCount (%u): each "
                    "axis is reduced once",
                    op, a->axis_count, rank);
    for (UINT i = 0; i < a->axis_count; ++i) {
        UINT axis = a->axes[i];
        DMLI_INVALID_IF(axis >= rank,
                        "%s: Axes[%u] (%u) must be less than InputTensor.DimensionCount (%u)", op,
                        i, axis, rank);
        for (UINT j = 0; j < i; ++j)
            DMLI_INVALID_IF(a->axes[j] == axis,
                            "%s: Axes[%u] (%u) repeats Axes[%u]: each axis is reduced once", op, i,
                            axis, j);
        reduced[axis] = true;
    }
    return S_OK;
}

static HRESULT validate_args(const reduce_args *a, dmli_op_state *st)
{
    reduce_scratch *s = DMLI_OP_SCRATCH(st, reduce_scratch);
    memset(s, 0, sizeof *s);
    s->op = a->op;
    s->function = a->function;
    const char *op = a->op;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_INVALID_IF((unsigned)a->function >= N_FUNCTIONS,
                    "%s: Function (%d) is not a DML_REDUCE_FUNCTION (0 ARGMAX to 11 SUM_SQUARE)",
                    op, (int)a->function);
    DMLI_INVALID_IF(a->has_direction && (unsigned)a->direction > DML_AXIS_DIRECTION_DECREASING,
                    "%s: AxisDirection (%d) is not a DML_AXIS_DIRECTION (0 INCREASING, "
                    "1 DECREASING)",
                    op, (int)a->direction);
    s->index_last = a->has_direction && a->direction == DML_AXIS_DIRECTION_DECREASING;
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", a->input, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", a->output, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(check_types(a, in, out));
    DMLI_TRY(check_axes(a, in->rank, s->reduced));
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const reduce_scratch *s = DMLI_OP_SCRATCH(st, reduce_scratch);
    const dmli_tensor *in = &st->inputs[0];
    uint64_t want[DMLI_MAX_RANK];
    for (uint32_t d = 0; d < in->rank; ++d)
        want[d] = s->reduced[d] ? 1 : in->sizes[d];
    return dmli_ops_expect_sizes(s->op, "OutputTensor", &st->outputs[0], want,
                                 "InputTensor.Sizes with 1 on each reduced axis");
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const reduce_scratch *s = DMLI_OP_SCRATCH(st, reduce_scratch);
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_reduce *r = &st->reduce;
    st->reduced = true;
    dmli_reduce_init(r, (dmli_reduce_op)s->function, 1, 1);
    r->index_last = s->index_last;
    r->in[0].type = in->type;
    r->out[0].type = out->type;
    for (uint32_t d = 0; d < in->rank; ++d) {
        int64_t out_stride = s->reduced[d] ? 0 : out->strides[d];
        dmli_reduce_push(r, (int64_t)in->sizes[d], s->reduced[d], &out_stride, &in->strides[d]);
    }
}

static HRESULT validate_reduce(const void *desc, dmli_op_state *st)
{
    const DML_REDUCE_OPERATOR_DESC *d = desc;
    reduce_args a = {"REDUCE",     d->Function, d->InputTensor, d->OutputTensor,
                     d->AxisCount, d->Axes,     false,          DML_AXIS_DIRECTION_INCREASING};
    return validate_args(&a, st);
}

static HRESULT validate_argmin(const void *desc, dmli_op_state *st)
{
    const DML_ARGMIN_OPERATOR_DESC *d = desc;
    reduce_args a = {"ARGMIN",       DML_REDUCE_FUNCTION_ARGMIN,
                     d->InputTensor, d->OutputTensor,
                     d->AxisCount,   d->Axes,
                     true,           d->AxisDirection};
    return validate_args(&a, st);
}

static HRESULT validate_argmax(const void *desc, dmli_op_state *st)
{
    const DML_ARGMAX_OPERATOR_DESC *d = desc;
    reduce_args a = {"ARGMAX",       DML_REDUCE_FUNCTION_ARGMAX,
                     d->InputTensor, d->OutputTensor,
                     d->AxisCount,   d->Axes,
                     true,           d->AxisDirection};
    return validate_args(&a, st);
}

const dmli_op_steps dmli_op_reduce = {.validate = validate_reduce, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_argmin = {.validate = validate_argmin, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_argmax = {.validate = validate_argmax, .infer = infer, .lower = lower};
