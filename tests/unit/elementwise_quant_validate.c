/* SPDX-License-Identifier: MIT */
/*
 * Validation of ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR
 * (src/ops/elementwise_quant.c) on the host, from DirectML's pages: every type combination of
 * the feature-level tables up to 6.4 is accepted, with and without the optional ZeroPointTensor
 * (6.2); each rule refused with E_INVALIDARG naming the operator, the field and the value: the
 * type tables, ScaleTensor's type (QUANTIZE: FLOAT32 for INT32, else the input's; DEQUANTIZE:
 * the output's), ZeroPointTensor's type (QUANTIZE: the output's; DEQUANTIZE: the input's), one
 * DimensionCount and one Sizes, the required tensors; a 4-bit tensor is unsupported (dmlcl has
 * none). Also the maps they lower to (the operation, the compute type and the encodings of
 * 32-bit DEQUANTIZE).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

#define QUANTIZE DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR
#define DEQUANTIZE DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR

static const UINT sizes[4] = {2, 3, 4, 5};

/* Both descriptors: InputTensor, ScaleTensor, ZeroPointTensor, OutputTensor. */
typedef struct quant_case {
    unit_tensor t[4];
    DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} quant_case;

enum { INPUT, SCALE, ZERO_POINT, OUTPUT };

/* 4-D tensors of the types given (zp 0: no ZeroPointTensor); the scale and the zero point
 * broadcast per channel, as ONNX Runtime's DirectML provider builds them ({1, C, 1, 1} read
 * with strides {0, 1, 0, 0}). */
static void setup(quant_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE in,
                  DML_TENSOR_DATA_TYPE scale, DML_TENSOR_DATA_TYPE zp, DML_TENSOR_DATA_TYPE out)
{
    static const UINT channel[4] = {0, 1, 0, 0};
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->t[INPUT], in, 4, sizes, NULL);
    c->d.ScaleTensor = unit_tensor_set(&c->t[SCALE], scale, 4, sizes, channel);
    if (zp)
        c->d.ZeroPointTensor = unit_tensor_set(&c->t[ZERO_POINT], zp, 4, sizes, channel);
    c->d.OutputTensor = unit_tensor_set(&c->t[OUTPUT], out, 4, sizes, NULL);
    c->op.Type = type;
    c->op.Desc = &c->d; /* DEQUANTIZE's descriptor has the same members */
}

static HRESULT create(const quant_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define OK(c) cr_expect(SUCCEEDED(create(c)), "line %d: %s", __LINE__, dmlcl_last_error())
#define FAILS(c, hr, ...)                                         \
    do {                                                          \
        const char *const needles_[] = {__VA_ARGS__, NULL};       \
        unit_expect_needles(create(c), (hr), needles_, __LINE__); \
    } while (0)

#define QNAME "ELEMENT_WISE_QUANTIZE_LINEAR"
#define DNAME "ELEMENT_WISE_DEQUANTIZE_LINEAR"

Test(elementwise_quant_validate, quantize_type_tables)
{
    quant_case c;
    /* InputTensor FLOAT32 (1.0), INT32 (2.1), FLOAT16 (6.0); the scale FLOAT32 for INT32,
     * else the input's; OutputTensor and ZeroPointTensor INT8 or UINT8; no zero point (6.2). */
    const DML_TENSOR_DATA_TYPE ins[3] = {F32, I32, F16}, scales[3] = {F32, F32, F16};
    const DML_TENSOR_DATA_TYPE outs[2] = {U8, I8};
    for (int i = 0; i < 3; ++i)
        for (int o = 0; o < 2; ++o) {
            setup(&c, QUANTIZE, ins[i], scales[i], outs[o], outs[o]);
            OK(&c);
            setup(&c, QUANTIZE, ins[i], scales[i], 0, outs[o]);
            OK(&c);
        }
    const DML_TENSOR_DATA_TYPE refused[] = {F64, I64, I16, I8, U32, U16, U8};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; ++i) {
        setup(&c, QUANTIZE, refused[i], F32, U8, U8);
        FAILS(&c, E_INVALIDARG, QNAME, "InputTensor.DataType", "FLOAT32, FLOAT16, INT32");
    }
    const DML_TENSOR_DATA_TYPE bad_out[] = {F32, F16, I16, I32, U16, U32, I64};
    for (size_t i = 0; i < sizeof bad_out / sizeof *bad_out; ++i) {
        setup(&c, QUANTIZE, F32, F32, 0, bad_out[i]);
        FAILS(&c, E_INVALIDARG, QNAME, "OutputTensor.DataType", "INT8, UINT8");
    }
}

Test(elementwise_quant_validate, quantize_rules)
{
    quant_case c;
    /* ScaleTensor: the input's DataType, FLOAT32 for an INT32 input. */
    setup(&c, QUANTIZE, F32, F16, U8, U8);
    FAILS(&c, E_INVALIDARG, QNAME, "ScaleTensor.DataType (FLOAT16)", "InputTensor.DataType",
          "FLOAT32");
    setup(&c, QUANTIZE, F16, F32, U8, U8);
    FAILS(&c, E_INVALIDARG, QNAME, "ScaleTensor.DataType (FLOAT32)", "(FLOAT16)");
    setup(&c, QUANTIZE, I32, F16, U8, U8);
    FAILS(&c, E_INVALIDARG, QNAME, "ScaleTensor.DataType (FLOAT16)", "must be FLOAT32", "INT32");
    setup(&c, QUANTIZE, I32, I32, U8, U8);
    FAILS(&c, E_INVALIDARG, QNAME, "ScaleTensor.DataType (INT32)", "must be FLOAT32");
    /* ZeroPointTensor: the output's DataType. */
    setup(&c, QUANTIZE, F32, F32, I8, U8);
    FAILS(&c, E_INVALIDARG, QNAME, "ZeroPointTensor.DataType (INT8)", "OutputTensor.DataType",
          "UINT8");
    setup(&c, QUANTIZE, F32, F32, I32, I8);
    FAILS(&c, E_INVALIDARG, QNAME, "ZeroPointTensor.DataType (INT32)", "(INT8)");
    /* InputTensor and ScaleTensor are required. */
    setup(&c, QUANTIZE, F32, F32, U8, U8);
    c.d.ScaleTensor = NULL;
    FAILS(&c, E_INVALIDARG, QNAME, "ScaleTensor (NULL) is required");
    setup(&c, QUANTIZE, F32, F32, U8, U8);
    c.d.InputTensor = NULL;
    FAILS(&c, E_INVALIDARG, QNAME, "InputTensor (NULL) is required");
    setup(&c, QUANTIZE, F32, F32, U8, U8);
    c.d.OutputTensor = NULL;
    FAILS(&c, E_INVALIDARG, QNAME, "OutputTensor (NULL) is required");
}

Test(elementwise_quant_validate, dequantize_type_tables)
{
    quant_case c;
    /* InputTensor and ZeroPointTensor UINT8 (1.0), the other 8- to 32-bit integers (2.1);
     * ScaleTensor and OutputTensor FLOAT32, FLOAT16 (6.0); no zero point (6.2). */
    const DML_TENSOR_DATA_TYPE ins[6] = {I32, I16, I8, U32, U16, U8}, outs[2] = {F32, F16};
    for (int i = 0; i < 6; ++i)
        for (int o = 0; o < 2; ++o) {
            setup(&c, DEQUANTIZE, ins[i], outs[o], ins[i], outs[o]);
            OK(&c);
            setup(&c, DEQUANTIZE, ins[i], outs[o], 0, outs[o]);
            OK(&c);
        }
    const DML_TENSOR_DATA_TYPE refused[] = {F32, F16, F64, I64, DML_TENSOR_DATA_TYPE_UINT64};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; ++i) {
        setup(&c, DEQUANTIZE, refused[i], F32, refused[i], F32);
        FAILS(&c, E_INVALIDARG, DNAME, "InputTensor.DataType",
              "INT32, INT16, INT8, UINT32, UINT16, UINT8");
    }
    const DML_TENSOR_DATA_TYPE bad_out[] = {F64, I32, U8, I8};
    for (size_t i = 0; i < sizeof bad_out / sizeof *bad_out; ++i) {
        setup(&c, DEQUANTIZE, U8, bad_out[i], 0, bad_out[i]);
        FAILS(&c, E_INVALIDARG, DNAME, "OutputTensor.DataType", "FLOAT32, FLOAT16");
    }
}

Test(elementwise_quant_validate, dequantize_rules)
{
    quant_case c;
    /* ScaleTensor: the output's DataType. */
    setup(&c, DEQUANTIZE, U8, F16, U8, F32);
    FAILS(&c, E_INVALIDARG, DNAME, "ScaleTensor.DataType (FLOAT16)", "OutputTensor.DataType",
          "(FLOAT32)");
    setup(&c, DEQUANTIZE, I8, I8, I8, F32);
    FAILS(&c, E_INVALIDARG, DNAME, "ScaleTensor.DataType (INT8)", "OutputTensor.DataType");
    /* ZeroPointTensor: the input's DataType. */
    setup(&c, DEQUANTIZE, U8, F32, I8, F32);
    FAILS(&c, E_INVALIDARG, DNAME, "ZeroPointTensor.DataType (INT8)", "InputTensor.DataType",
          "(UINT8)");
    setup(&c, DEQUANTIZE, I32, F32, I16, F32);
    FAILS(&c, E_INVALIDARG, DNAME, "ZeroPointTensor.DataType (INT16)", "(INT32)");
    setup(&c, DEQUANTIZE, U8, F32, U8, F32);
    c.d.ScaleTensor = NULL;
    FAILS(&c, E_INVALIDARG, DNAME, "ScaleTensor (NULL) is required");
}

Test(elementwise_quant_validate, one_dimension_count_and_sizes)
{
    quant_case c;
    const UINT three[3] = {2, 3, 4}, other[4] = {2, 3, 4, 6};
    const DML_OPERATOR_TYPE types[2] = {QUANTIZE, DEQUANTIZE};
    const char *const names[2] = {QNAME, DNAME};
    const char *const fields[4] = {"InputTensor", "ScaleTensor", "ZeroPointTensor", "OutputTensor"};
    for (int q = 0; q < 2; ++q)
        for (int k = SCALE; k <= OUTPUT; ++k) {
            DML_TENSOR_DATA_TYPE in = q ? U8 : F32, f = q ? F32 : U8;
            DML_TENSOR_DATA_TYPE ty[4] = {in, q ? F32 : F32, q ? U8 : U8, f};
            /* Every tensor of the input's DimensionCount ... */
            setup(&c, types[q], ty[0], ty[1], ty[2], ty[3]);
            const DML_TENSOR_DESC **member = (const DML_TENSOR_DESC **)&c.d;
            member[k] = unit_tensor_set(&c.t[k], ty[k], 3, three, NULL);
            FAILS(&c, E_INVALIDARG, names[q], fields[k], "DimensionCount (3)",
                  "InputTensor.DimensionCount (4)");
            /* ... and Sizes: a broadcast is a 0 stride, never a smaller tensor. */
            setup(&c, types[q], ty[0], ty[1], ty[2], ty[3]);
            member[k] = unit_tensor_set(&c.t[k], ty[k], 4, other, NULL);
            FAILS(&c, E_INVALIDARG, names[q], fields[k], "Sizes ({2,3,4,6})", "{2,3,4,5}");
        }
    /* A per-tensor scale and zero point: every stride 0. */
    setup(&c, QUANTIZE, F32, F32, U8, U8);
    const UINT zeros[4] = {0, 0, 0, 0};
    unit_tensor_set_strides(&c.t[SCALE], zeros);
    unit_tensor_set_strides(&c.t[ZERO_POINT], zeros);
    OK(&c);
}

Test(elementwise_quant_validate, four_bit_tensors_unsupported)
{
    /* UINT4 and INT4 (feature level 6.3) are in neither operator's tables (they belong to
     * QUANTIZE and DEQUANTIZE); dmlcl has no 4-bit tensors at all: refused at import, naming
     * the field and the value. */
    quant_case c;
    setup(&c, DEQUANTIZE, U8, F32, U8, F32);
    unit_tensor_set_type(&c.t[INPUT], DML_TENSOR_DATA_TYPE_UINT4);
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, DNAME, "InputTensor.DataType (UINT4)");
    setup(&c, QUANTIZE, F32, F32, U8, U8);
    unit_tensor_set_type(&c.t[OUTPUT], DML_TENSOR_DATA_TYPE_INT4);
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, QNAME, "OutputTensor.DataType (INT4)");
}

/* The map an operator lowers to, and its launch on a CPU. */
static void lowered(const quant_case *c, dmli_map *m, dmli_map_launch *l)
{
    dmlcl_operator *op = NULL;
    cr_assert(SUCCEEDED(dmlcl_operator_create(NULL, &c->op, &op)), "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->mapped);
    *m = st->map;
    dmlcl_operator_release(op);
    dmli_map_normalize(m);
    static const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
        (uint64_t)32 << 20,     16};
    dmli_launch_map(m, &cpu, l);
}

Test(elementwise_quant_validate, lowered_maps)
{
    quant_case c;
    dmli_map m;
    dmli_map_launch l;
    /* QUANTIZE: float compute, saturated into the output (the clamp); the zero point an
     * operand at slot 2, or none. */
    setup(&c, QUANTIZE, I32, F32, I8, I8);
    lowered(&c, &m, &l);
    cr_expect(m.op == DMLI_MAP_QUANTIZE_LINEAR && m.n_inputs == 3 && m.in[2].slot == 2);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=float ") && strstr(l.options, "-DOUT_SAT=1 "), "%s",
              l.options);
    setup(&c, QUANTIZE, F16, F16, 0, U8);
    lowered(&c, &m, &l);
    cr_expect(m.op == DMLI_MAP_QUANTIZE_SCALE && m.n_inputs == 2, "op %d", (int)m.op);
    /* DEQUANTIZE: float compute for 8- and 16-bit inputs ... */
    setup(&c, DEQUANTIZE, I16, F16, I16, F16);
    lowered(&c, &m, &l);
    cr_expect(m.op == DMLI_MAP_DEQUANTIZE_LINEAR && strstr(l.options, "-DCOMPUTE_T=float ") &&
                  strstr(l.options, "-DOUT_HALF=1 "),
              "%s", l.options);
    /* ... long for 32-bit ones, the scale and the output as their encodings. */
    setup(&c, DEQUANTIZE, U32, F16, 0, F16);
    lowered(&c, &m, &l);
    cr_expect(m.op == DMLI_MAP_DEQUANTIZE_SCALE && m.in[1].type == U16 && m.out.type == U16 &&
                  m.iparam[DMLI_MAP_PARAM_OP] == 1,
              "op %d", (int)m.op);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=long ") && strstr(l.options, "-DOUT_HALF=0 "), "%s",
              l.options);
    setup(&c, DEQUANTIZE, I32, F32, I32, F32);
    lowered(&c, &m, &l);
    cr_expect(m.in[1].type == U32 && m.out.type == U32 && m.iparam[DMLI_MAP_PARAM_OP] == 0);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=long "), "%s", l.options);
}
