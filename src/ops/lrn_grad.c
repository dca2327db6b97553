/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD (feature level 3.1): the backward pass of
 * LOCAL_RESPONSE_NORMALIZATION (ops/lrn.c), the exact derivative of dmlcl's forward: with
 * D_i = Bias + Alpha / LocalSize * S_i, S_i the squares of X summed over i's window (the
 * forward's: LocalSize channels, or LocalSize x LocalSize of height and width, from
 * p - floor((LocalSize - 1) / 2) to p + ceil((LocalSize - 1) / 2) per window axis, clipped),
 * and Y_i = X_i * D_i^-Beta,
 *
 *   dX_j = dY_j * D_j^-Beta - 2 * Alpha * Beta / LocalSize * X_j * sum over the i whose window
 *          holds j of dY_i * X_i * D_i^(-Beta - 1),
 *
 * the i from j - ceil((LocalSize - 1) / 2) to j + floor((LocalSize - 1) / 2) per window axis
 * (the window mirrored), clipped. The page's rules: InputTensor, InputGradientTensor and
 * OutputGradientTensor of one DataType (FLOAT32, FLOAT16) and one Sizes, 4 dimensions
 * {N, C, H, W}; LocalSize at least 1; Alpha, Beta and Bias without rules. Lowers to the
 * gradient family's lrn_grad (cl/grad.cl): a gather per output element, each i's window sum
 * recomputed in the forward's order, the i in row-major order: deterministic, no atomics.
 */
#include "grad.h"
#include "ops/common.h"

#define OP "LOCAL_RESPONSE_NORMALIZATION_GRAD"

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC *d = desc;
    dmli_tensor *x = &st->inputs[0], *dy = &st->inputs[1], *dx = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, x));
    DMLI_TRY(dmli_tensor_import(OP, "InputGradientTensor", d->InputGradientTensor,
                                DMLI_TENSOR_INPUT, dy));
    DMLI_TRY(dmli_tensor_import(OP, "OutputGradientTensor", d->OutputGradientTensor,
                                DMLI_TENSOR_OUTPUT, dx));
    DMLI_INVALID_IF(x->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    OP ": InputTensor.DataType (%s) is not one " OP " takes (FLOAT32, FLOAT16)",
                    dmli_type_name(x->type));
    DMLI_INVALID_IF(x->rank != 4,
                    OP ": InputTensor.DimensionCount (%u) must be 4 ({N, C, H, W}: the page's "
                       "one table)",
                    x->rank);
    DMLI_TRY(dmli_ops_same_type(OP, "InputGradientTensor", dy, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(OP, "InputGradientTensor", dy, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputGradientTensor", dx, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputGradientTensor", dx, "InputTensor", x));
    DMLI_INVALID_IF(d->LocalSize < 1, OP ": LocalSize (%u) must be at least 1", d->LocalSize);
    st->input_names[0] = "InputTensor";
    st->input_names[1] = "InputGradientTensor";
    st->output_names[0] = "OutputGradientTensor";
    st->n_inputs = 2;
    st->n_outputs = 1;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const uint64_t *want = st->inputs[0].sizes;
    DMLI_TRY(dmli_ops_expect_sizes(OP, "InputGradientTensor", &st->inputs[1], want,
                                   "InputTensor.Sizes: the forward's output is shaped as its "
                                   "input"));
    return dmli_ops_expect_sizes(OP, "OutputGradientTensor", &st->outputs[0], want,
                                 "InputTensor.Sizes: the gradient of the input");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC *d = desc;
    const dmli_tensor *dx = &st->outputs[0];
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_GRAD);
    dmli_compute_add(c, st, false, 0); /* X */
    dmli_compute_add(c, st, false, 1); /* dY */
    dmli_compute_add(c, st, true, 0);  /* dX */
    dmli_grad *g = DMLI_COMPUTE_WORK(c, dmli_grad);
    g->kind = DMLI_GRAD_LRN;
    g->elem_bytes = dx->elem_bytes;
    g->count = (int64_t)dx->elements;
    dmli_grad_lrn *l = &g->lrn;
    l->half = dx->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    l->cross_channel = d->CrossChannel != 0;
    l->local_size = d->LocalSize;
    l->alpha = d->Alpha;
    l->beta = d->Beta;
    l->bias = d->Bias;
    for (int k = 0; k < 4; ++k) {
        l->sizes[k] = (int64_t)dx->sizes[k];
        for (int t = 0; t < 2; ++t)
            l->strides[t][k] = st->inputs[t].strides[k];
        l->strides[2][k] = dx->strides[k];
    }
    st->computed = true;
}

const dmli_op_steps dmli_op_local_response_normalization_grad = {
    .validate = validate, .infer = infer, .lower = lower};
