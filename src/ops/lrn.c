/* SPDX-License-Identifier: MIT */
/*
 * DirectML's LOCAL_RESPONSE_NORMALIZATION: Output = Input / (Bias + Alpha / LocalSize * s)^Beta,
 * s the sum of the squares of the inputs in the local region: across channels (CrossChannel
 * TRUE: LocalSize channels centred on the element's, as ONNX LRN, which ONNX Runtime's DirectML
 * provider maps onto it) or within a channel (FALSE: a LocalSize x LocalSize window of height
 * and width), the window clipped at the tensor's edges. A reduction (reduce.c,
 * DMLI_REDUCE_LRN): the reduced dimensions are the window's (C; or H and W), the output shaped
 * as the input.
 *
 * DirectML's rules (the page, feature levels up to 6.4): InputTensor and OutputTensor of one
 * DataType, FLOAT32 or FLOAT16, 4 dimensions {N, C, H, W}, one Sizes; LocalSize at least 1.
 * Chosen where the page is silent (docs/operators.md): the window from i - floor((LocalSize -
 * 1) / 2) to i + ceil((LocalSize - 1) / 2) (ONNX's); the divisor LocalSize in both modes (the
 * page's formula); Alpha, Beta and Bias without rules of their own.
 */
#include "ops/common.h"

#define OP "LOCAL_RESPONSE_NORMALIZATION"

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC *d = desc;
    DMLI_TRY(
        dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *x = &st->inputs[0], *out = &st->outputs[0];
    DMLI_INVALID_IF(x->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", OP,
                    dmli_type_name(x->type), OP);
    DMLI_INVALID_IF(x->rank != 4,
                    "%s: InputTensor.DimensionCount (%u) must be 4 ({N, C, H, W}: the page's one "
                    "table)",
                    OP, x->rank);
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", x));
    DMLI_INVALID_IF(d->LocalSize < 1, "%s: LocalSize (%u) must be at least 1", OP, d->LocalSize);
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->n_inputs = 1;
    st->n_outputs = 1;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "InputTensor.Sizes: the normalization keeps the shape");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC *d = desc;
    const dmli_tensor *x = &st->inputs[0], *out = &st->outputs[0];
    dmli_reduce *r = &st->reduce;
    st->reduced = true;
    dmli_reduce_init(r, DMLI_REDUCE_LRN, 1, 1);
    r->in[0].type = x->type;
    r->out[0].type = out->type;
    dmli_reduce_param_int(r, DMLI_MAP_PARAM_OP, d->LocalSize);
    dmli_reduce_param_real(r, DMLI_MAP_PARAM_OP + 1, d->Alpha);
    dmli_reduce_param_real(r, DMLI_MAP_PARAM_OP + 2, d->Beta);
    dmli_reduce_param_real(r, DMLI_MAP_PARAM_BIAS, d->Bias);
    for (uint32_t i = 0; i < 4; ++i) {
        bool window = d->CrossChannel ? i == 1 : i >= 2;
        dmli_reduce_push(r, (int64_t)x->sizes[i], window, &out->strides[i], &x->strides[i]);
    }
}

const dmli_op_steps dmli_op_local_response_normalization = {
    .validate = validate, .infer = infer, .lower = lower};
