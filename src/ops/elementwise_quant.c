/* SPDX-License-Identifier: MIT */
/*
 * DirectML's ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR as rows of the
 * element-wise engine (ops/elementwise.h), maps of cl/map_math.cl (OPs 39-42). The pages'
 * rules, the union of their feature-level tables up to 6.4 (the newest, 6.2's, lists every
 * type; no level gives these two operators 4-bit types, which belong to 6.3's QUANTIZE and
 * DEQUANTIZE):
 *
 * - QUANTIZE_LINEAR: InputTensor FLOAT32, FLOAT16 (6.0) or INT32 (2.1); ScaleTensor FLOAT32
 *   for an INT32 input, else InputTensor's DataType; ZeroPointTensor optional (6.2), of
 *   OutputTensor's DataType; OutputTensor INT8 or UINT8 (2.1).
 * - DEQUANTIZE_LINEAR: InputTensor INT32, INT16, INT8, UINT32, UINT16, UINT8 (2.1, UINT8 from
 *   1.0); ZeroPointTensor optional (6.2), of InputTensor's DataType; ScaleTensor of
 *   OutputTensor's DataType, FLOAT32 or FLOAT16 (6.0).
 * - Every tensor has one DimensionCount and Sizes: the scale and the zero point broadcast by 0
 *   strides (per tensor, or per axis as ONNX Runtime's DirectML provider builds them).
 *
 * Semantics where the pages are silent (docs/operators.md), chosen to give what ONNX's
 * QuantizeLinear and DequantizeLinear give (ONNX Runtime's CPU kernels, onnx.reference):
 * - QUANTIZE: input / scale in float32 (FLOAT16 read exactly, INT32 converted to float32 to
 *   nearest even), rounded halves to even (ONNX's rounding), plus the zero point (0 when
 *   absent), saturated to the output's range: the page's clamp. NaN gives 0 (CAST's and
 *   Direct3D's rule), +-inf the range's ends; a scale of 0 (undefined on the page) divides as
 *   IEEE does (x / 0 = +-inf saturates, 0 / 0 = NaN gives 0), a negative scale as it is.
 * - DEQUANTIZE: input - zero point exactly (in 64 bits), rounded once to float32 (exact but for
 *   32-bit inputs past 2^24), times the scale in float32, rounded once; a FLOAT16 output is that
 *   float32 product rounded to nearest even (ONNX's references compute so, then cast).
 */
#include "ops/elementwise.h"

#define BIT DMLI_EW_BIT
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

enum { IN_INPUT, IN_SCALE, IN_ZERO_POINT };

static const char *const names[] = {"InputTensor", "ScaleTensor", "ZeroPointTensor"};

/* QUANTIZE: ScaleTensor's type follows InputTensor's, the zero point's the output's. */
static HRESULT quantize_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[IN_INPUT], *scale = &st->inputs[IN_SCALE];
    if (in->type == DML_TENSOR_DATA_TYPE_INT32)
        DMLI_INVALID_IF(scale->type != F32,
                        "%s: ScaleTensor.DataType (%s) must be FLOAT32 when InputTensor.DataType "
                        "is INT32",
                        r->name, dmli_type_name(scale->type));
    else
        DMLI_INVALID_IF(scale->type != in->type,
                        "%s: ScaleTensor.DataType (%s) must equal InputTensor.DataType (%s) "
                        "(FLOAT32 only for an INT32 InputTensor)",
                        r->name, dmli_type_name(scale->type), dmli_type_name(in->type));
    if (st->inputs[IN_ZERO_POINT].present)
        DMLI_TRY(dmli_ops_same_type(r->name, "ZeroPointTensor", &st->inputs[IN_ZERO_POINT],
                                    "OutputTensor", &st->outputs[0]));
    return S_OK;
}

static void quantize_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC *d = desc;
    if (!d->ZeroPointTensor)
        m->op = DMLI_MAP_QUANTIZE_SCALE;
}

/* DEQUANTIZE: ScaleTensor has the output's type (the zero point the input's: the shared check). */
static HRESULT dequantize_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_same_type(r->name, "ScaleTensor", &st->inputs[IN_SCALE], "OutputTensor",
                              &st->outputs[0]);
}

/* 8- and 16-bit inputs compute in float (every difference exact there). 32-bit ones compute in
 * long, so that the difference is exact: the scale and the output become the unsigned types of
 * their widths (their encodings; q0 says FLOAT16), which cl/map_math.cl's dequant_bits reads and
 * writes. */
static void dequantize_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC *d = desc;
    if (!d->ZeroPointTensor)
        m->op = DMLI_MAP_DEQUANTIZE_SCALE;
    if (dmli_type_size(m->in[IN_INPUT].type) < 4)
        return;
    bool half = m->out.type == F16;
    m->in[IN_SCALE].type = half ? DML_TENSOR_DATA_TYPE_UINT16 : DML_TENSOR_DATA_TYPE_UINT32;
    m->out.type = m->in[IN_SCALE].type;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, half);
}

static const dmli_ew_row rows[] = {
    {.name = "ELEMENT_WISE_QUANTIZE_LINEAR",
     .op = DMLI_MAP_QUANTIZE_LINEAR,
     .arity = 3,
     .input_names = names,
     .types = BIT(F32) | BIT(F16) | BIT(DML_TENSOR_DATA_TYPE_INT32),
     .type_list = "FLOAT32, FLOAT16, INT32",
     .out_types = BIT(DML_TENSOR_DATA_TYPE_INT8) | BIT(DML_TENSOR_DATA_TYPE_UINT8),
     .out_type_list = "INT8, UINT8",
     .own_type_inputs = BIT(IN_SCALE) | BIT(IN_ZERO_POINT),
     .optional_inputs = BIT(IN_ZERO_POINT),
     .check = quantize_check,
     .params = quantize_params},
    {.name = "ELEMENT_WISE_DEQUANTIZE_LINEAR",
     .op = DMLI_MAP_DEQUANTIZE_LINEAR,
     .arity = 3,
     .input_names = names,
     .types = DMLI_EW_I32_U32 | BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) |
              BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8),
     .type_list = "INT32, INT16, INT8, UINT32, UINT16, UINT8",
     .out_types = BIT(F32) | BIT(F16),
     .out_type_list = "FLOAT32, FLOAT16",
     .own_type_inputs = BIT(IN_SCALE),
     .optional_inputs = BIT(IN_ZERO_POINT),
     .check = dequantize_check,
     .params = dequantize_params},
};

enum { ROW_QUANTIZE, ROW_DEQUANTIZE };

DMLI_EW_OP(ew_quantize_linear, rows, ROW_QUANTIZE)
DMLI_EW_OP(ew_dequantize_linear, rows, ROW_DEQUANTIZE)
