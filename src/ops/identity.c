/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_ELEMENT_WISE_IDENTITY: OutputTensor[c] = g(InputTensor[c]),
 * g(x) = x, or x * Scale + Bias with a DML_SCALE_BIAS.
 *
 * The general strided copy: both tensors have the same DataType,
 * DimensionCount and Sizes and any strides, so one operator converts layouts
 * (NCHW to NHWC), adds or removes padding, and broadcasts (an input with the
 * output's Sizes and 0 strides: DirectML's only broadcast, the one ONNX
 * Runtime uses for Expand). It lowers to the view plan; with ScaleBias, to a
 * map (the element-wise family: arithmetic on values, read through the same
 * strides).
 */
#include "ops/common.h"

#define OP "ELEMENT_WISE_IDENTITY"

/*
 * DirectML's documentation defines ScaleBias as g(x) = x * Scale + Bias in
 * FLOAT, and says nothing of integer tensors (no rounding, no saturation);
 * its maintainers say DirectML has no ScaleBias on 64-bit types
 * (microsoft/DirectML#275) and no FLOAT64 arithmetic (#309), as the other
 * element-wise rows refuse it.
 */
static HRESULT check_scale_bias(const DML_SCALE_BIAS *sb, const dmli_tensor *in)
{
    if (!sb)
        return S_OK;
    DMLI_UNSUPPORTED_IF(!dmli_type_is_float(in->type) || in->type == DML_TENSOR_DATA_TYPE_FLOAT64,
                        OP ": ScaleBias on InputTensor.DataType (%s) is not supported: DirectML "
                           "defines x * Scale + Bias for floating-point tensors only (FLOAT32, "
                           "FLOAT16; not 64-bit types); pass ScaleBias NULL for a copy",
                        dmli_type_name(in->type));
    return S_OK;
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(check_scale_bias(d->ScaleBias, in));
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    st->in_place = true;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                 "InputTensor.Sizes: IDENTITY keeps the shape; broadcast with 0 "
                                 "strides on an InputTensor of the output's Sizes");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_SCALE_BIAS *sb = ((const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *)desc)->ScaleBias;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    if (sb) {
        dmli_map *m = &st->map;
        st->mapped = true;
        dmli_map_init(m, DMLI_MAP_IDENTITY, out->type, 1);
        m->in[0].type = in->type;
        m->scale_bias = true;
        dmli_map_param_real(m, DMLI_MAP_PARAM_SCALE, sb->Scale);
        dmli_map_param_real(m, DMLI_MAP_PARAM_BIAS, sb->Bias);
        for (uint32_t d = 0; d < in->rank; ++d)
            dmli_map_push(m, (int64_t)out->sizes[d], out->strides[d], &in->strides[d]);
        return;
    }
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    for (uint32_t d = 0; d < in->rank; ++d)
        dmli_plan_push(p, (int64_t)out->sizes[d], out->strides[d], in->strides[d], 0, 0);
}

const dmli_op_steps dmli_op_identity = {.validate = validate, .infer = infer, .lower = lower};
