/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_JOIN and DML_OPERATOR_SPLIT, and their twins under the
 * extension tensor rules, DMLCL_OPERATOR_JOIN1 and DMLCL_OPERATOR_SPLIT1
 * (dmlcl/ext_join.h). One side is a single tensor (JOIN's output, SPLIT's
 * input), the other a list of pieces that tile it along Axis in order:
 *
 *   JOIN:  Output[.., off_i + a, ..] = InputTensors[i][.., a, ..]
 *   SPLIT: OutputTensors[i][.., a, ..] = Input[.., off_i + a, ..]
 *
 * where off_i is the sum of the earlier pieces' Sizes[Axis]. Each piece is
 * one strided view copy (a step): the single tensor's window at off_i, in
 * the piece's shape. The windows are disjoint, so the steps' order does not
 * matter; a piece that is empty (extension rules only) has no step.
 *
 * DirectML's pages state the rules as pseudocode (same DimensionCount, same
 * Sizes except along Axis, the pieces' Sizes[Axis] sum to the single
 * tensor's) plus "same DataType" and "count greater than 0"; each is checked
 * with its own message. DML_FEATURE_LEVEL_4_1 takes every DirectML type at
 * 1 to 8 dimensions, which is what the tensor import allows.
 */
#include "ops/common.h"

_Static_assert(DMLCL_JOIN_MAX_TENSORS <= DMLI_MAX_SLOTS,
               "a JOIN or SPLIT binds up to DMLCL_JOIN_MAX_TENSORS tensors on one side");

/* The four descriptions read as one: the single tensor and the list of pieces. */
typedef struct join_args {
    const char *op;
    bool split; /* the pieces are outputs */
    unsigned ext;
    const DML_TENSOR_DESC *single;
    UINT count;
    const DML_TENSOR_DESC *pieces;
    UINT axis;
} join_args;

typedef struct join_scratch {
    const char *op;
    uint32_t axis;
    bool split;
} join_scratch;

static const char *single_name(const join_args *a)
{
    return a->split ? "InputTensor" : "OutputTensor";
}

static const char *count_name(const join_args *a)
{
    return a->split ? "OutputCount" : "InputCount";
}

static const char *list_name(const join_args *a)
{
    return a->split ? "OutputTensors" : "InputTensors";
}

static dmli_tensor *single_of(dmli_op_state *st, bool split)
{
    return split ? &st->inputs[0] : &st->outputs[0];
}

static dmli_tensor *piece_of(dmli_op_state *st, bool split, uint32_t i)
{
    return split ? &st->outputs[i] : &st->inputs[i];
}

static const char *piece_name(const dmli_op_state *st, bool split, uint32_t i)
{
    return split ? st->output_names[i] : st->input_names[i];
}

static HRESULT validate_common(const join_args *a, dmli_op_state *st)
{
    const char *op = a->op;
    DMLI_INVALID_IF(a->count == 0, "%s: %s (0) must be greater than 0", op, count_name(a));
    DMLI_UNSUPPORTED_IF(a->count > DMLCL_JOIN_MAX_TENSORS,
                        "%s: %s (%u) is more than dmlcl binds on one side of an operator (%d)", op,
                        count_name(a), a->count, DMLCL_JOIN_MAX_TENSORS);
    DMLI_INVALID_IF(!a->pieces, "%s: %s (NULL) must point to %s (%u) tensor descriptions", op,
                    list_name(a), count_name(a), a->count);
    unsigned single_rule = a->split ? DMLI_TENSOR_INPUT : DMLI_TENSOR_OUTPUT;
    unsigned piece_rule = a->split ? DMLI_TENSOR_OUTPUT : DMLI_TENSOR_INPUT;
    dmli_tensor *one = single_of(st, a->split);
    DMLI_TRY(dmli_tensor_import(op, single_name(a), a->single, single_rule | a->ext, one));
    st->n_inputs = a->split ? 1 : a->count;
    st->n_outputs = a->split ? a->count : 1;
    if (a->split)
        st->input_names[0] = "InputTensor";
    else
        st->output_names[0] = "OutputTensor";
    dmli_op_name_slots(st, a->split, 0, a->count, list_name(a));
    for (uint32_t i = 0; i < a->count; ++i) {
        dmli_tensor *t = piece_of(st, a->split, i);
        const char *name = piece_name(st, a->split, i);
        DMLI_TRY(dmli_tensor_import(op, name, &a->pieces[i], piece_rule | a->ext, t));
        DMLI_TRY(dmli_ops_same_type(op, name, t, single_name(a), one));
        DMLI_TRY(dmli_ops_same_rank(op, name, t, single_name(a), one));
    }
    DMLI_INVALID_IF(a->axis >= one->rank,
                    "%s: Axis (%u) must be in [0, %s.DimensionCount - 1] ([0, %u])", op, a->axis,
                    single_name(a), one->rank - 1);
    join_scratch *s = DMLI_OP_SCRATCH(st, join_scratch);
    s->op = op;
    s->axis = a->axis;
    s->split = a->split;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const join_scratch *s = DMLI_OP_SCRATCH(st, join_scratch);
    const dmli_tensor *one = single_of(st, s->split);
    const char *one_name = s->split ? "InputTensor" : "OutputTensor";
    const char *op = s->op;
    uint32_t count = s->split ? st->n_outputs : st->n_inputs;
    uint64_t sum = 0; /* at most 64 sizes below 2^32 */
    for (uint32_t i = 0; i < count; ++i) {
        const dmli_tensor *t = piece_of(st, s->split, i);
        for (uint32_t d = 0; d < one->rank; ++d)
            DMLI_INVALID_IF(d != s->axis && t->sizes[d] != one->sizes[d],
                            "%s: %s.Sizes[%u] (%llu) must equal %s.Sizes[%u] (%llu): only "
                            "the Axis (%u) dimension may differ",
                            op, piece_name(st, s->split, i), d, (unsigned long long)t->sizes[d],
                            one_name, d, (unsigned long long)one->sizes[d], s->axis);
        sum += t->sizes[s->axis];
    }
    DMLI_INVALID_IF(sum != one->sizes[s->axis],
                    "%s: the %s' Sizes[%u] (Axis) sum to %llu; they must sum to %s.Sizes[%u] "
                    "(%llu)",
                    op, s->split ? "OutputTensors" : "InputTensors", s->axis,
                    (unsigned long long)sum, one_name, s->axis,
                    (unsigned long long)one->sizes[s->axis]);
    return S_OK;
}

/* One view step per nonempty piece; none at all (an empty single tensor): an empty plan. */
static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const join_scratch *s = DMLI_OP_SCRATCH(st, join_scratch);
    const dmli_tensor *one = single_of(st, s->split);
    uint32_t count = s->split ? st->n_outputs : st->n_inputs;
    uint64_t off = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const dmli_tensor *t = piece_of(st, s->split, i);
        /* The window lies inside the single tensor, whose extent import bounded under 2^63. */
        int64_t window = (int64_t)off * one->strides[s->axis];
        off += t->sizes[s->axis];
        if (t->elements == 0)
            continue;
        dmli_plan *p = dmli_op_add_step(st, s->split ? 0 : (int)i, s->split ? i : 0, DMLI_PLAN_VIEW,
                                        one->elem_bytes);
        const int64_t *out_stride = s->split ? t->strides : one->strides;
        const int64_t *in_stride = s->split ? one->strides : t->strides;
        if (s->split)
            p->in_offset = window;
        else
            p->out_offset = window;
        for (uint32_t d = 0; d < one->rank; ++d)
            dmli_plan_push(p, (int64_t)t->sizes[d], out_stride[d], in_stride[d], 0, 0);
    }
    if (st->n_steps == 0) {
        dmli_plan_init(&st->plan, DMLI_PLAN_VIEW, one->elem_bytes);
        dmli_plan_push(&st->plan, 0, 0, 0, 0, 0);
    }
}

/* ---- The four descriptions ------------------------------------------------------------------ */

static HRESULT join_validate(const void *desc, dmli_op_state *st)
{
    const DML_JOIN_OPERATOR_DESC *d = desc;
    join_args a = {"JOIN", false, 0, d->OutputTensor, d->InputCount, d->InputTensors, d->Axis};
    return validate_common(&a, st);
}

static HRESULT split_validate(const void *desc, dmli_op_state *st)
{
    const DML_SPLIT_OPERATOR_DESC *d = desc;
    join_args a = {"SPLIT", true, 0, d->InputTensor, d->OutputCount, d->OutputTensors, d->Axis};
    return validate_common(&a, st);
}

static HRESULT join1_validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_JOIN1_OPERATOR_DESC *d = desc;
    join_args a = {"JOIN1",         false,  DMLI_TENSOR_EXTENSION, d->OutputTensor, d->InputCount,
                   d->InputTensors, d->Axis};
    return validate_common(&a, st);
}

static HRESULT split1_validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_SPLIT1_OPERATOR_DESC *d = desc;
    join_args a = {"SPLIT1",         true,   DMLI_TENSOR_EXTENSION, d->InputTensor, d->OutputCount,
                   d->OutputTensors, d->Axis};
    return validate_common(&a, st);
}

const dmli_op_steps dmli_op_join = {.validate = join_validate, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_split = {.validate = split_validate, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_join1 = {.validate = join1_validate, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_split1 = {.validate = split1_validate, .infer = infer, .lower = lower};
