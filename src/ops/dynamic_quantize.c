/* SPDX-License-Identifier: MIT */
/*
 * DirectML's DYNAMIC_QUANTIZE_LINEAR (feature level 4.0): the scale and zero point that map
 * InputTensor's range onto the output type's, then the input quantized with them, as ONNX's
 * DynamicQuantizeLinear (which ONNX Runtime's DirectML provider maps onto it). A computed
 * operator of the dynamic quantization family (cl/dynquant.cl, one kernel).
 *
 * The page's rules: InputTensor FLOAT32 or FLOAT16; OutputTensor and OutputZeroPointTensor INT8
 * or UINT8, of one DataType; OutputScaleTensor FLOAT32; every tensor of one DimensionCount;
 * the scale and the zero point hold one element each; OutputTensor has InputTensor's Sizes.
 *
 * The arithmetic, where the page's formula leaves it open (docs/operators.md), as ONNX's
 * operator and ONNX Runtime's CPU kernel compute it, in float32 (a FLOAT16 input read exactly):
 * min and max of the input (a NaN passed over), the range widened to hold 0 (ONNX's rule: min
 * = min(min, 0), max = max(max, 0)); scale = (max - min) / (Max - Min) of the output type, or
 * 1 where max = min (every element 0: ONNX Runtime's, where the page would divide by 0); zero
 * point = Min - min / scale clamped to [Min, Max] (a NaN, from an infinite range, to Max) and
 * rounded halves to even; each element rint(x / scale) + zero point saturated (NaN 0), as
 * ELEMENT_WISE_QUANTIZE_LINEAR computes it.
 */
#include "dynquant.h"
#include "ops/common.h"

#define OP "DYNAMIC_QUANTIZE_LINEAR"

enum { OUT_Y, OUT_SCALE, OUT_ZERO_POINT };

static bool is_8bit(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC *d = desc;
    static const char *const outs[3] = {"OutputTensor", "OutputScaleTensor",
                                        "OutputZeroPointTensor"};
    const DML_TENSOR_DESC *const out_descs[3] = {d->OutputTensor, d->OutputScaleTensor,
                                                 d->OutputZeroPointTensor};
    DMLI_TRY(
        dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    st->input_names[0] = "InputTensor";
    for (int k = 0; k < 3; ++k) {
        DMLI_TRY(
            dmli_tensor_import(OP, outs[k], out_descs[k], DMLI_TENSOR_OUTPUT, &st->outputs[k]));
        st->output_names[k] = outs[k];
    }
    const dmli_tensor *in = &st->inputs[0], *y = &st->outputs[OUT_Y];
    DMLI_INVALID_IF(in->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        in->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", OP,
                    dmli_type_name(in->type), OP);
    DMLI_INVALID_IF(!is_8bit(y->type),
                    "%s: OutputTensor.DataType (%s) is not one %s gives (INT8, UINT8)", OP,
                    dmli_type_name(y->type), OP);
    DMLI_INVALID_IF(st->outputs[OUT_SCALE].type != DML_TENSOR_DATA_TYPE_FLOAT32,
                    "%s: OutputScaleTensor.DataType (%s) must be FLOAT32", OP,
                    dmli_type_name(st->outputs[OUT_SCALE].type));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputZeroPointTensor", &st->outputs[OUT_ZERO_POINT],
                                "OutputTensor", y));
    for (int k = 0; k < 3; ++k)
        DMLI_TRY(dmli_ops_same_rank(OP, outs[k], &st->outputs[k], "InputTensor", in));
    st->n_inputs = 1;
    st->n_outputs = 3;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    for (int k = OUT_SCALE; k <= OUT_ZERO_POINT; ++k)
        DMLI_INVALID_IF(st->outputs[k].elements != 1,
                        "%s: %s holds %llu elements; it holds the one %s", OP, st->output_names[k],
                        (unsigned long long)st->outputs[k].elements,
                        k == OUT_SCALE ? "scale" : "zero point");
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[OUT_Y], st->inputs[0].sizes,
                                 "InputTensor.Sizes: the quantized input");
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    dmli_compute *c = &st->compute;
    st->computed = true;
    dmli_compute_init(c, DMLI_COMPUTE_DYNQUANT);
    dmli_dynquant *q = DMLI_COMPUTE_WORK(c, dmli_dynquant);
    const dmli_tensor *in = &st->inputs[0], *y = &st->outputs[OUT_Y];
    q->in_type = in->type;
    q->out_type = y->type;
    q->rank = in->rank;
    for (uint32_t d = 0; d < in->rank; ++d) {
        q->size[d] = (int64_t)in->sizes[d];
        q->in_stride[d] = in->strides[d];
        q->out_stride[d] = y->strides[d];
    }
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, OUT_Y);
    dmli_compute_add(c, st, true, OUT_SCALE);
    dmli_compute_add(c, st, true, OUT_ZERO_POINT);
}

const dmli_op_steps dmli_op_dynamic_quantize_linear = {
    .validate = validate, .infer = infer, .lower = lower};
