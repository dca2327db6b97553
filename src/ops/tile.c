/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_TILE: OutputTensor[o] = InputTensor[o mod InputTensor.Sizes],
 * dimension by dimension, with OutputTensor.Sizes[i] = InputTensor.Sizes[i]
 * * Repeats[i].
 *
 * It lowers to one view plan without a division: a repeated dimension i of
 * n input elements becomes two plan dimensions, an outer one of Repeats[i]
 * copies (output stride n * OutputTensor.Strides[i], input stride 0) around
 * an inner one of n elements (both tensors' own strides). The kernels run
 * input-stride-0 outer dimensions as REPEAT: each source row is loaded once
 * and stored to every copy. DirectML tensors have at most 8 dimensions, so
 * the plan needs at most 16 (DMLI_MAX_RANK); normalisation then drops and
 * merges what it can.
 */
#include "ops/common.h"

#define OP "TILE"

/* DML_TENSOR_DIMENSION_COUNT_MAX1 (a static const, so not a constant expression in C). */
#define MAX_DIMS 8
_Static_assert(2 * MAX_DIMS <= DMLI_MAX_RANK, "a TILE plan splits each dimension in two");

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_TILE_OPERATOR_DESC *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(d->RepeatsCount != in->rank,
                    OP ": RepeatsCount (%u) must equal InputTensor.DimensionCount (%u)",
                    d->RepeatsCount, in->rank);
    DMLI_INVALID_IF(!d->Repeats, OP ": Repeats (NULL) must point to RepeatsCount (%u) values",
                    d->RepeatsCount);
    for (uint32_t i = 0; i < in->rank; ++i)
        DMLI_INVALID_IF(d->Repeats[i] == 0,
                        OP ": Repeats[%u] (0) must be larger than 0 (the number of tiled copies "
                           "of dimension %u)",
                        i, i);
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_TILE_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0];
    uint64_t want[DMLI_MAX_RANK];
    /* Both factors are under 2^32: the product fits 64 bits. */
    for (uint32_t i = 0; i < in->rank; ++i)
        want[i] = in->sizes[i] * d->Repeats[i];
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], want,
                                 "InputTensor.Sizes[i] * Repeats[i] in every dimension");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_TILE_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    for (uint32_t i = 0; i < in->rank; ++i) {
        int64_t n = (int64_t)in->sizes[i];
        /* n * stride < the output's extent, which import bounded under 2^63. */
        if (d->Repeats[i] > 1)
            dmli_plan_push(p, d->Repeats[i], n * out->strides[i], 0, 0, 0);
        dmli_plan_push(p, n, out->strides[i], in->strides[i], 0, 0);
    }
}

const dmli_op_steps dmli_op_tile = {.validate = validate, .infer = infer, .lower = lower};
