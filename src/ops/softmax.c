/* SPDX-License-Identifier: MIT */
/*
 * DirectML's softmax family: ACTIVATION_SOFTMAX, ACTIVATION_LOG_SOFTMAX, ACTIVATION_HARDMAX
 * (feature level 1.0) and their *1 versions with Axes (5.1). Each normalises a row, the
 * elements that share every coordinate outside the row's axes, and lowers to a reduction
 * (internal.h dmli_reduce) whose output has the input's shape:
 *   SOFTMAX      exp(x - max) / sum(exp(x - max))
 *   LOG_SOFTMAX  x - max - log(sum(exp(x - max)))
 *   HARDMAX      1 at the row's first largest value (lowest row index, row-major over the
 *                row's dimensions in dimension order), 0 elsewhere
 * DirectML's rules: InputTensor and OutputTensor have the same DataType (FLOAT32 or FLOAT16),
 * DimensionCount (1 to 8, the union of the 1.0 (4), 2.0 (4 to 5) and 3.0 (1 to 8) tables)
 * and Sizes. The 1.0 operators take an input of effective rank at most 2 (every dimension
 * but the last two of size 1) and normalise its last dimension (their *1 pages: equal to
 * AxisCount 1, Axes {DimensionCount - 1}); the *1 operators take Axes as a set of dimensions
 * (ops/normalize.h). FLOAT16 computes in float32 and rounds once. DirectML's list of fusable
 * activations leaves them out; GEMM alone fuses SOFTMAX and SOFTMAX1 (feature level 6.1:
 * ops/gemm.c, program.c).
 */
#include <string.h>

#include "ops/normalize.h"

typedef struct softmax_desc { /* the 1.0 descriptors */
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} softmax_desc;

typedef struct softmax1_desc { /* the 5.1 descriptors */
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} softmax1_desc;

_Static_assert(sizeof(softmax1_desc) == sizeof(DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC) &&
                   sizeof(softmax1_desc) == sizeof(DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC) &&
                   sizeof(softmax1_desc) == sizeof(DML_ACTIVATION_HARDMAX1_OPERATOR_DESC),
               "the *1 descriptors share one layout");
_Static_assert(sizeof(softmax_desc) == sizeof(DML_ACTIVATION_SOFTMAX_OPERATOR_DESC),
               "the 1.0 descriptors share one layout");

/* ---- Shared with ops/mvn.c (ops/normalize.h) ------------------------------------------ */

HRESULT dmli_norm_axes_check(const char *op, uint32_t count, const UINT *axes, uint32_t rank,
                             dmli_norm_axes *out)
{
    memset(out, 0, sizeof *out);
    DMLI_INVALID_IF(count == 0, "%s: AxisCount (0) must be at least 1: a row needs an axis", op);
    DMLI_INVALID_IF(count > rank,
                    "%s: AxisCount (%u) must be at most InputTensor.DimensionCount (%u): each "
                    "axis is a distinct dimension",
                    op, count, rank);
    DMLI_INVALID_IF(!axes, "%s: Axes (NULL) must point to AxisCount (%u) values", op, count);
    for (uint32_t i = 0; i < count; ++i) {
        DMLI_INVALID_IF(axes[i] >= rank,
                        "%s: Axes[%u] (%u) must be below InputTensor.DimensionCount (%u)", op, i,
                        axes[i], rank);
        DMLI_INVALID_IF(out->reduced[axes[i]], "%s: Axes[%u] (%u) repeats an axis: Axes is a set",
                        op, i, axes[i]);
        out->reduced[axes[i]] = true;
    }
    return S_OK;
}

HRESULT dmli_norm_float_type(const char *op, const char *field, const dmli_tensor *t)
{
    DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        t->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: %s.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", op, field,
                    dmli_type_name(t->type), op);
    return S_OK;
}

void dmli_norm_lower(dmli_op_state *st, dmli_reduce_op op, uint32_t n_inputs,
                     const dmli_norm_axes *axes)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_reduce *r = &st->reduce;
    st->reduced = true;
    dmli_reduce_init(r, op, n_inputs, 1);
    r->out[0].type = out->type;
    for (uint32_t k = 0; k < n_inputs; ++k) /* an absent input: the input's type, 0 strides */
        r->in[k].type = st->inputs[k].present ? st->inputs[k].type : in->type;
    for (uint32_t d = 0; d < in->rank; ++d) {
        int64_t in_strides[DMLI_REDUCE_MAX_INPUTS] = {0};
        for (uint32_t k = 0; k < n_inputs; ++k) {
            const dmli_tensor *t = &st->inputs[k];
            /* A dimension of size 1 broadcasts (DirectML's scale and bias). */
            in_strides[k] = t->present && (k == 0 || t->sizes[d] != 1) ? t->strides[d] : 0;
        }
        dmli_reduce_push(r, (int64_t)in->sizes[d], axes->reduced[d], &out->strides[d], in_strides);
    }
}

/* ---- The six operators ------------------------------------------------------------------ */

typedef struct softmax_row {
    const char *name;
    dmli_reduce_op op;
    bool axes; /* a *1 descriptor */
} softmax_row;

static HRESULT validate_row(const softmax_row *row, const void *desc, dmli_op_state *st)
{
    const char *op = row->name;
    const softmax_desc *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_norm_float_type(op, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    dmli_norm_axes *axes = DMLI_OP_SCRATCH(st, dmli_norm_axes);
    if (row->axes) {
        const softmax1_desc *d1 = desc;
        DMLI_TRY(dmli_norm_axes_check(op, d1->AxisCount, d1->Axes, in->rank, axes));
    } else {
        for (uint32_t k = 0; k + 2 < in->rank; ++k) {
            char dims[DMLI_DIMS_BUF];
            DMLI_INVALID_IF(in->sizes[k] != 1,
                            "%s: InputTensor.Sizes (%s) has Sizes[%u] = %llu: %s takes an "
                            "effective rank of at most 2 (every dimension before the last two "
                            "of size 1); %s1 takes Axes",
                            op, dmli_format_dims(dims, sizeof dims, in->rank, in->sizes), k,
                            (unsigned long long)in->sizes[k], op, op);
        }
        memset(axes, 0, sizeof *axes);
        axes->reduced[in->rank - 1] = true;
    }
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

static const softmax_row rows[] = {
    {"ACTIVATION_SOFTMAX", DMLI_REDUCE_SOFTMAX, false},
    {"ACTIVATION_SOFTMAX1", DMLI_REDUCE_SOFTMAX, true},
    {"ACTIVATION_LOG_SOFTMAX", DMLI_REDUCE_LOG_SOFTMAX, false},
    {"ACTIVATION_LOG_SOFTMAX1", DMLI_REDUCE_LOG_SOFTMAX, true},
    {"ACTIVATION_HARDMAX", DMLI_REDUCE_HARDMAX, false},
    {"ACTIVATION_HARDMAX1", DMLI_REDUCE_HARDMAX, true},
};

#define SOFTMAX_OP(id, i)                                                                    \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st)                        \
    {                                                                                        \
        return validate_row(&rows[i], desc, st);                                             \
    }                                                                                        \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)                           \
    {                                                                                        \
        (void)desc;                                                                          \
        return dmli_ops_expect_sizes(rows[i].name, "OutputTensor", &st->outputs[0],          \
                                     st->inputs[0].sizes,                                    \
                                     "InputTensor.Sizes: the output has the input's shape"); \
    }                                                                                        \
    static void lower_##id(const void *desc, dmli_op_state *st)                              \
    {                                                                                        \
        (void)desc;                                                                          \
        dmli_norm_lower(st, rows[i].op, 1, DMLI_OP_SCRATCH(st, dmli_norm_axes));             \
    }                                                                                        \
    const dmli_op_steps dmli_op_##id = {                                                     \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

SOFTMAX_OP(act_softmax, 0)
SOFTMAX_OP(act_softmax1, 1)
SOFTMAX_OP(act_log_softmax, 2)
SOFTMAX_OP(act_log_softmax1, 3)
SOFTMAX_OP(act_hardmax, 4)
SOFTMAX_OP(act_hardmax1, 5)
