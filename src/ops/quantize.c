/* SPDX-License-Identifier: MIT */
/*
 * DirectML's QUANTIZE and DEQUANTIZE (feature level 6.3): ELEMENT_WISE_QUANTIZE_LINEAR and
 * ELEMENT_WISE_DEQUANTIZE_LINEAR with their scale and zero point given as a list,
 * QuantizationTensors, whose length QuantizationType says: SCALE (the scale alone) or
 * SCALE_ZERO_POINT (the scale, then the zero point). They lower to the same maps (cl/map_math.cl
 * OPs 39-42), so their arithmetic is the one src/ops/elementwise_quant.c states (halves to
 * even, saturation, NaN 0; the difference exact, one rounding per operation).
 *
 * The pages' rules: InputTensor, OutputTensor and every quantization tensor of one
 * DimensionCount; QUANTIZE InputTensor FLOAT32 or FLOAT16, OutputTensor INT8, UINT8 (and INT4,
 * UINT4); DEQUANTIZE the reverse. What the pages leave open, as ONNX Runtime's DirectML
 * provider and the element-wise pages fill it: the scale has the float tensor's DataType
 * (QUANTIZE's input, DEQUANTIZE's output), the zero point the integer tensor's; every tensor
 * has InputTensor's Sizes, a quantization tensor broadcast by its strides (0: per tensor, per
 * axis, or blockwise over a dimension split in blocks and elements, the elements' stride 0).
 * dmlcl has no 4-bit tensors: INT4 and UINT4 are refused as unsupported, naming the field.
 */
#include "ops/common.h"

enum { IN_INPUT, IN_SCALE, IN_ZERO_POINT };

typedef struct quant_desc {
    const DML_TENSOR_DESC *InputTensor;
    DML_QUANTIZATION_TYPE QuantizationType;
    UINT QuantizationTensorCount;
    const DML_TENSOR_DESC *QuantizationTensors;
    const DML_TENSOR_DESC *OutputTensor;
} quant_desc;
_Static_assert(sizeof(quant_desc) == sizeof(DML_QUANTIZE_OPERATOR_DESC) &&
                   sizeof(quant_desc) == sizeof(DML_DEQUANTIZE_OPERATOR_DESC),
               "QUANTIZE and DEQUANTIZE share one layout");

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

/* A 4-bit tensor is named before the tensor rules' generic refusal. */
static HRESULT no_packed(const char *op, const char *field, const DML_TENSOR_DESC *t)
{
    if (t == NULL || t->Type != DML_TENSOR_TYPE_BUFFER || t->Desc == NULL)
        return S_OK;
    DML_TENSOR_DATA_TYPE type = ((const DML_BUFFER_TENSOR_DESC *)t->Desc)->DataType;
    DMLI_UNSUPPORTED_IF(type == DML_TENSOR_DATA_TYPE_INT4 || type == DML_TENSOR_DATA_TYPE_UINT4,
                        "%s: %s.DataType (%s) is not supported: dmlcl has no packed 4-bit "
                        "tensors (INT8 and UINT8 are)",
                        op, field, dmli_type_name(type));
    return S_OK;
}

static bool is_8bit(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static HRESULT validate_common(const char *op, bool quantize, const quant_desc *d,
                               dmli_op_state *st)
{
    DMLI_INVALID_IF(d->QuantizationType != DML_QUANTIZATION_TYPE_SCALE &&
                        d->QuantizationType != DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT,
                    "%s: QuantizationType (%d) must be DML_QUANTIZATION_TYPE_SCALE (1) or "
                    "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT (2)",
                    op, (int)d->QuantizationType);
    UINT want = d->QuantizationType == DML_QUANTIZATION_TYPE_SCALE ? 1 : 2;
    DMLI_INVALID_IF(d->QuantizationTensorCount != want,
                    "%s: QuantizationTensorCount (%u) must be %u for QuantizationType %s (the "
                    "scale%s)",
                    op, d->QuantizationTensorCount, want,
                    want == 1 ? "DML_QUANTIZATION_TYPE_SCALE"
                              : "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT",
                    want == 1 ? "" : ", then the zero point");
    DMLI_INVALID_IF(d->QuantizationTensors == NULL,
                    "%s: QuantizationTensors (NULL) must point to QuantizationTensorCount (%u) "
                    "tensor descriptions",
                    op, d->QuantizationTensorCount);
    dmli_op_name_slots(st, false, 1, want, "QuantizationTensors");
    st->input_names[IN_INPUT] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    DMLI_TRY(no_packed(op, "InputTensor", d->InputTensor));
    DMLI_TRY(no_packed(op, "OutputTensor", d->OutputTensor));
    for (UINT k = 0; k < want; ++k)
        DMLI_TRY(no_packed(op, st->input_names[1 + k], &d->QuantizationTensors[k]));
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT,
                                &st->inputs[IN_INPUT]));
    for (UINT k = 0; k < want; ++k)
        DMLI_TRY(dmli_tensor_import(op, st->input_names[1 + k], &d->QuantizationTensors[k],
                                    DMLI_TENSOR_INPUT, &st->inputs[1 + k]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *in = &st->inputs[IN_INPUT], *out = &st->outputs[0];
    const dmli_tensor *flt = quantize ? in : out, *itg = quantize ? out : in;
    const char *flt_name = quantize ? "InputTensor" : "OutputTensor";
    const char *int_name = quantize ? "OutputTensor" : "InputTensor";
    DMLI_INVALID_IF(flt->type != F32 && flt->type != F16,
                    "%s: %s.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", op, flt_name,
                    dmli_type_name(flt->type), op);
    DMLI_INVALID_IF(!is_8bit(itg->type), "%s: %s.DataType (%s) is not one %s takes (INT8, UINT8)",
                    op, int_name, dmli_type_name(itg->type), op);
    DMLI_TRY(
        dmli_ops_same_type(op, st->input_names[IN_SCALE], &st->inputs[IN_SCALE], flt_name, flt));
    if (want == 2)
        DMLI_TRY(dmli_ops_same_type(op, st->input_names[IN_ZERO_POINT], &st->inputs[IN_ZERO_POINT],
                                    int_name, itg));
    for (UINT k = 0; k < want; ++k)
        DMLI_TRY(
            dmli_ops_same_rank(op, st->input_names[1 + k], &st->inputs[1 + k], "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    st->n_inputs = 1 + want;
    st->n_outputs = 1;
    return S_OK;
}

static HRESULT infer_common(const char *op, dmli_op_state *st)
{
    const uint64_t *sizes = st->inputs[IN_INPUT].sizes;
    for (uint32_t k = 1; k < st->n_inputs; ++k)
        DMLI_TRY(dmli_ops_expect_sizes(op, st->input_names[k], &st->inputs[k], sizes,
                                       "InputTensor.Sizes: a quantization tensor is broadcast "
                                       "by 0 strides, never by its Sizes"));
    return dmli_ops_expect_sizes(op, "OutputTensor", &st->outputs[0], sizes,
                                 "InputTensor.Sizes: the operator keeps the shape");
}

static void lower_common(bool quantize, dmli_op_state *st)
{
    const dmli_tensor *out = &st->outputs[0];
    bool zp = st->n_inputs == 3;
    dmli_map_op op = quantize ? (zp ? DMLI_MAP_QUANTIZE_LINEAR : DMLI_MAP_QUANTIZE_SCALE)
                              : (zp ? DMLI_MAP_DEQUANTIZE_LINEAR : DMLI_MAP_DEQUANTIZE_SCALE);
    dmli_map *m = &st->map;
    st->mapped = true;
    dmli_map_init(m, op, out->type, st->n_inputs);
    for (uint32_t k = 0; k < st->n_inputs; ++k) {
        m->in[k].type = st->inputs[k].type;
        m->in[k].slot = k;
    }
    for (uint32_t d = 0; d < out->rank; ++d) {
        int64_t in_strides[DMLI_MAP_MAX_INPUTS];
        for (uint32_t k = 0; k < st->n_inputs; ++k)
            in_strides[k] = st->inputs[k].strides[d];
        dmli_map_push(m, (int64_t)out->sizes[d], out->strides[d], in_strides);
    }
}

static HRESULT validate_quantize(const void *desc, dmli_op_state *st)
{
    return validate_common("QUANTIZE", true, desc, st);
}

static HRESULT infer_quantize(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return infer_common("QUANTIZE", st);
}

static void lower_quantize(const void *desc, dmli_op_state *st)
{
    (void)desc;
    lower_common(true, st);
}

static HRESULT validate_dequantize(const void *desc, dmli_op_state *st)
{
    return validate_common("DEQUANTIZE", false, desc, st);
}

static HRESULT infer_dequantize(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return infer_common("DEQUANTIZE", st);
}

static void lower_dequantize(const void *desc, dmli_op_state *st)
{
    (void)desc;
    lower_common(false, st);
}

const dmli_op_steps dmli_op_quantize = {
    .validate = validate_quantize, .infer = infer_quantize, .lower = lower_quantize};
const dmli_op_steps dmli_op_dequantize = {
    .validate = validate_dequantize, .infer = infer_dequantize, .lower = lower_dequantize};
