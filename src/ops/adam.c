/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_ADAM_OPTIMIZER (feature level 3.0): one Adam step, element by element, as the
 * page writes it (X the parameters, M and V the moments, G the gradient, T the training step):
 *
 *   M' = Beta1 * M + (1 - Beta1) * G
 *   V' = Beta2 * V + (1 - Beta2) * G * G
 *   Alpha = sqrt(1 - Beta2^T) / (1 - Beta1^T)
 *   X' = X - LearningRate * Alpha * M' / (sqrt(V') + Epsilon)
 *
 * T read on the device from TrainingStepTensor's one element (so a training loop advances it
 * without recompiling); T = 0 makes Alpha 0 / 0, NaN, as the formula does.
 *
 * The page's rules: the eight tensors of one DataType, FLOAT32 or FLOAT16 (its tensor table
 * and constraints; the member's prose says UINT32 for TrainingStepTensor, which the table and
 * the constraint "must have the same DataType" contradict: the tables are followed, as for
 * every operator), 4 dimensions each; the seven but TrainingStepTensor of one Sizes;
 * TrainingStepTensor's Sizes {1, 1, 1, 1}. The hyperparameters have no rules. Every output may
 * share its exact range with an input but TrainingStepTensor (in place: each element is read
 * and written by one work-item, its reads first). Lowers to the gradient family's adam kernel
 * (cl/grad.cl), every tensor read and written through its strides.
 */
#include "grad.h"
#include "ops/common.h"

#define OP "ADAM_OPTIMIZER"

static const char *const in_names[5] = {"InputParametersTensor", "InputFirstMomentTensor",
                                        "InputSecondMomentTensor", "GradientTensor",
                                        "TrainingStepTensor"};
static const char *const out_names[3] = {"OutputParametersTensor", "OutputFirstMomentTensor",
                                         "OutputSecondMomentTensor"};

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_ADAM_OPTIMIZER_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *ins[5] = {d->InputParametersTensor, d->InputFirstMomentTensor,
                                     d->InputSecondMomentTensor, d->GradientTensor,
                                     d->TrainingStepTensor};
    const DML_TENSOR_DESC *outs[3] = {d->OutputParametersTensor, d->OutputFirstMomentTensor,
                                      d->OutputSecondMomentTensor};
    for (int i = 0; i < 5; ++i)
        DMLI_TRY(dmli_tensor_import(OP, in_names[i], ins[i], DMLI_TENSOR_INPUT, &st->inputs[i]));
    for (int o = 0; o < 3; ++o)
        DMLI_TRY(
            dmli_tensor_import(OP, out_names[o], outs[o], DMLI_TENSOR_OUTPUT, &st->outputs[o]));
    const dmli_tensor *x = &st->inputs[0];
    DMLI_INVALID_IF(
        x->type != DML_TENSOR_DATA_TYPE_FLOAT32 && x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
        OP ": InputParametersTensor.DataType (%s) is not one " OP " takes (FLOAT32, FLOAT16)",
        dmli_type_name(x->type));
    DMLI_INVALID_IF(x->rank != 4,
                    OP ": InputParametersTensor.DimensionCount (%u) must be 4 (the page's one "
                       "table)",
                    x->rank);
    for (int i = 1; i < 5; ++i) {
        DMLI_TRY(dmli_ops_same_type(OP, in_names[i], &st->inputs[i], in_names[0], x));
        DMLI_TRY(dmli_ops_same_rank(OP, in_names[i], &st->inputs[i], in_names[0], x));
    }
    for (int o = 0; o < 3; ++o) {
        DMLI_TRY(dmli_ops_same_type(OP, out_names[o], &st->outputs[o], in_names[0], x));
        DMLI_TRY(dmli_ops_same_rank(OP, out_names[o], &st->outputs[o], in_names[0], x));
    }
    for (int i = 0; i < 5; ++i)
        st->input_names[i] = in_names[i];
    for (int o = 0; o < 3; ++o)
        st->output_names[o] = out_names[o];
    st->n_inputs = 5;
    st->n_outputs = 3;
    st->in_place = true; /* the page's remarks: an output may alias an input */
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const uint64_t *want = st->inputs[0].sizes;
    for (int i = 1; i < 4; ++i)
        DMLI_TRY(dmli_ops_expect_sizes(OP, in_names[i], &st->inputs[i], want,
                                       "InputParametersTensor.Sizes: one moment or gradient per "
                                       "parameter"));
    static const uint64_t one[4] = {1, 1, 1, 1};
    DMLI_TRY(dmli_ops_expect_sizes(OP, in_names[4], &st->inputs[4], one,
                                   "{1, 1, 1, 1}: the training step is one value"));
    for (int o = 0; o < 3; ++o)
        DMLI_TRY(dmli_ops_expect_sizes(OP, out_names[o], &st->outputs[o], want,
                                       "InputParametersTensor.Sizes: the updated parameters "
                                       "and moments"));
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_ADAM_OPTIMIZER_OPERATOR_DESC *d = desc;
    const dmli_tensor *x = &st->inputs[0];
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_GRAD);
    for (uint32_t i = 0; i < 5; ++i)
        dmli_compute_add(c, st, false, i);
    for (uint32_t o = 0; o < 3; ++o)
        dmli_compute_add(c, st, true, o);
    dmli_grad *g = DMLI_COMPUTE_WORK(c, dmli_grad);
    g->kind = DMLI_GRAD_ADAM;
    g->elem_bytes = x->elem_bytes;
    g->count = (int64_t)x->elements;
    dmli_grad_adam *a = &g->adam;
    a->half = x->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    a->learning_rate = d->LearningRate;
    a->beta1 = d->Beta1;
    a->beta2 = d->Beta2;
    a->epsilon = d->Epsilon;
    for (int k = 0; k < 4; ++k) {
        a->sizes[k] = (int64_t)x->sizes[k];
        for (int i = 0; i < 4; ++i)
            a->strides[i][k] = st->inputs[i].strides[k];
        for (int o = 0; o < 3; ++o)
            a->strides[4 + o][k] = st->outputs[o].strides[k];
    }
    st->computed = true;
}

const dmli_op_steps dmli_op_adam_optimizer = {.validate = validate, .infer = infer, .lower = lower};
