/* SPDX-License-Identifier: MIT */
/*
 * Validation of QUANTIZE, DEQUANTIZE (src/ops/quantize.c) and
 * ELEMENT_WISE_QUANTIZED_LINEAR_ADD (src/ops/quantized_add.c) on the host, from DirectML's
 * pages and the rules docs/operators.md states where they are silent: every type combination of
 * the tables is accepted (per tensor, per axis and blockwise quantization tensors; absent zero
 * points); each rule is refused with E_INVALIDARG naming the operator, the field, its value and
 * the rule, and a 4-bit tensor with DXGI_ERROR_UNSUPPORTED naming the field and the type. Also
 * the maps they lower to. DYNAMIC_QUANTIZE_LINEAR (src/ops/dynamic_quantize.c): its rules and
 * its launch (launch_dynquant.c).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "../cl/pool_abi.h"
#include "dmlcl/dmlcl.h"
#include "dynquant.h"
#include "internal.h"
#include "launch.h"
#include "pool.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U8 DML_TENSOR_DATA_TYPE_UINT8
#define I4 DML_TENSOR_DATA_TYPE_INT4
#define U4 DML_TENSOR_DATA_TYPE_UINT4

static const UINT sizes[3] = {4, 6, 8};

/* QUANTIZE and DEQUANTIZE: InputTensor, the list (scale, zero point), OutputTensor. */
typedef struct list_case {
    unit_tensor in, q[2], out;
    DML_TENSOR_DESC qd[2];
    DML_QUANTIZE_OPERATOR_DESC d; /* DEQUANTIZE's has the same members */
    DML_OPERATOR_DESC op;
} list_case;

/* 3-D tensors; the scale and zero point blockwise over the last dimension ({4, 6, 8} read with
 * strides {6, 1, 0}: one value per 8 elements). zp 0: QuantizationType SCALE. */
static void setup(list_case *c, bool quantize, DML_TENSOR_DATA_TYPE in, DML_TENSOR_DATA_TYPE scale,
                  DML_TENSOR_DATA_TYPE zp, DML_TENSOR_DATA_TYPE out)
{
    static const UINT block[3] = {6, 1, 0};
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, in, 3, sizes, NULL);
    c->qd[0] = *unit_tensor_set(&c->q[0], scale, 3, sizes, block);
    if (zp)
        c->qd[1] = *unit_tensor_set(&c->q[1], zp, 3, sizes, block);
    c->d.QuantizationType =
        zp ? DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT : DML_QUANTIZATION_TYPE_SCALE;
    c->d.QuantizationTensorCount = zp ? 2 : 1;
    c->d.QuantizationTensors = c->qd;
    c->d.OutputTensor = unit_tensor_set(&c->out, out, 3, sizes, NULL);
    c->op.Type = quantize ? DML_OPERATOR_QUANTIZE : DML_OPERATOR_DEQUANTIZE;
    c->op.Desc = &c->d;
}

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define OK(c) cr_expect(SUCCEEDED(create(&(c)->op)), "line %d: %s", __LINE__, dmlcl_last_error())
#define FAILS(c, hr, ...)                                                \
    do {                                                                 \
        const char *const needles_[] = {__VA_ARGS__, NULL};              \
        unit_expect_needles(create(&(c)->op), (hr), needles_, __LINE__); \
    } while (0)

Test(quantize_validate, type_tables)
{
    list_case c;
    const DML_TENSOR_DATA_TYPE flts[2] = {F32, F16}, ints[2] = {U8, I8};
    for (int f = 0; f < 2; ++f)
        for (int i = 0; i < 2; ++i) {
            setup(&c, true, flts[f], flts[f], ints[i], ints[i]);
            OK(&c);
            setup(&c, true, flts[f], flts[f], 0, ints[i]);
            OK(&c);
            setup(&c, false, ints[i], flts[f], ints[i], flts[f]);
            OK(&c);
            setup(&c, false, ints[i], flts[f], 0, flts[f]);
            OK(&c);
        }
    setup(&c, true, I32, F32, U8, U8);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
    setup(&c, true, F32, F32, I16, I16);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "OutputTensor.DataType (INT16)", "INT8, UINT8");
    setup(&c, false, I32, F32, I32, F32);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "InputTensor.DataType (INT32)", "INT8, UINT8");
    setup(&c, false, U8, U8, U8, U8);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "OutputTensor.DataType (UINT8)", "FLOAT32, FLOAT16");
}

Test(quantize_validate, four_bit_types_unsupported)
{
    list_case c;
    setup(&c, true, F32, F32, U8, U4);
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "QUANTIZE", "OutputTensor.DataType (UINT4)", "4-bit");
    setup(&c, false, I4, F32, I8, F32);
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "DEQUANTIZE", "InputTensor.DataType (INT4)", "4-bit");
    setup(&c, false, U8, F32, U4, F32);
    FAILS(&c, DXGI_ERROR_UNSUPPORTED, "DEQUANTIZE", "QuantizationTensors[1].DataType (UINT4)",
          "4-bit");
}

Test(quantize_validate, quantization_type_and_count)
{
    list_case c;
    setup(&c, true, F32, F32, U8, U8);
    c.d.QuantizationType = DML_QUANTIZATION_TYPE_NONE;
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationType (0)", "DML_QUANTIZATION_TYPE_SCALE");
    c.d.QuantizationType = (DML_QUANTIZATION_TYPE)7;
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationType (7)");
    setup(&c, false, U8, F32, U8, F32);
    c.d.QuantizationTensorCount = 1;
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "QuantizationTensorCount (1)", "must be 2",
          "SCALE_ZERO_POINT");
    setup(&c, false, U8, F32, 0, F32);
    c.d.QuantizationTensorCount = 2;
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "QuantizationTensorCount (2)", "must be 1");
    setup(&c, true, F32, F32, U8, U8);
    c.d.QuantizationTensors = NULL;
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationTensors (NULL)");
}

Test(quantize_validate, tensor_rules)
{
    list_case c;
    /* The scale has the float tensor's type, the zero point the integer tensor's. */
    setup(&c, true, F32, F16, U8, U8);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationTensors[0].DataType (FLOAT16)",
          "InputTensor.DataType (FLOAT32)");
    setup(&c, true, F32, F32, I8, U8);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationTensors[1].DataType (INT8)",
          "OutputTensor.DataType (UINT8)");
    setup(&c, false, I8, F32, I8, F16);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "QuantizationTensors[0].DataType (FLOAT32)",
          "OutputTensor.DataType (FLOAT16)");
    setup(&c, false, I8, F32, U8, F32);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "QuantizationTensors[1].DataType (UINT8)",
          "InputTensor.DataType (INT8)");
    /* One DimensionCount. */
    static const UINT two[2] = {24, 8};
    setup(&c, true, F32, F32, U8, U8);
    c.qd[0] = *unit_tensor_set(&c.q[0], F32, 2, two, NULL);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationTensors[0].DimensionCount (2)",
          "InputTensor.DimensionCount (3)");
    setup(&c, false, U8, F32, U8, F32);
    c.d.OutputTensor = unit_tensor_set(&c.out, F32, 2, two, NULL);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "OutputTensor.DimensionCount (2)");
    /* One Sizes: a quantization tensor broadcasts by strides, not by its Sizes. */
    static const UINT ones[3] = {4, 6, 1};
    setup(&c, true, F32, F32, U8, U8);
    c.qd[1] = *unit_tensor_set(&c.q[1], U8, 3, ones, NULL);
    FAILS(&c, E_INVALIDARG, "QUANTIZE", "QuantizationTensors[1].Sizes ({4,6,1})", "{4,6,8}",
          "0 strides");
    static const UINT other[3] = {4, 6, 9};
    setup(&c, false, U8, F32, 0, F32);
    c.d.OutputTensor = unit_tensor_set(&c.out, F32, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, "DEQUANTIZE", "OutputTensor.Sizes ({4,6,9})");
}

Test(quantize_validate, lowered_maps)
{
    list_case c;
    const struct {
        bool quantize, zp;
        dmli_map_op op;
    } rows[4] = {{true, true, DMLI_MAP_QUANTIZE_LINEAR},
                 {true, false, DMLI_MAP_QUANTIZE_SCALE},
                 {false, true, DMLI_MAP_DEQUANTIZE_LINEAR},
                 {false, false, DMLI_MAP_DEQUANTIZE_SCALE}};
    for (int i = 0; i < 4; ++i) {
        if (rows[i].quantize)
            setup(&c, true, F16, F16, rows[i].zp ? I8 : 0, I8);
        else
            setup(&c, false, I8, F16, rows[i].zp ? I8 : 0, F16);
        dmlcl_operator *op = NULL;
        cr_assert(SUCCEEDED(dmlcl_operator_create(NULL, &c.op, &op)), "%s", dmlcl_last_error());
        const dmli_op_state *st = dmli_operator_state(op);
        cr_expect(st->mapped && st->map.op == rows[i].op &&
                      st->map.n_inputs == (rows[i].zp ? 3u : 2u),
                  "row %d: op %d, %u inputs", i, (int)st->map.op, st->map.n_inputs);
        /* The blockwise scale keeps its 0 stride on the block's elements. */
        cr_expect(st->map.in[1].stride[st->map.rank - 1] == 0, "row %d", i);
        dmlcl_operator_release(op);
    }
}

/* ---- ELEMENT_WISE_QUANTIZED_LINEAR_ADD --------------------------------------------------- */

enum { A, AS, AZ, B, BS, BZ, OS, OZ, OUT, N_T };

typedef struct add_case {
    unit_tensor t[N_T];
    DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} add_case;

/* A, B, the output {4, 6, 8} of type; the scales FLOAT32 and the zero points type, {1, 1, 1}. */
static void setup_add(add_case *c, DML_TENSOR_DATA_TYPE type, bool zps)
{
    static const UINT one[3] = {1, 1, 1};
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC *m[N_T];
    for (int k = 0; k < N_T; ++k) {
        bool big = k == A || k == B || k == OUT;
        bool scale = k == AS || k == BS || k == OS;
        m[k] = (!big && !scale && !zps)
                   ? NULL
                   : unit_tensor_set(&c->t[k], scale ? F32 : type, 3, big ? sizes : one, NULL);
    }
    c->d = (DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC){m[A],  m[AS], m[AZ], m[B],  m[BS],
                                                                 m[BZ], m[OS], m[OZ], m[OUT]};
    c->op.Type = DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD;
    c->op.Desc = &c->d;
}

#define ADD "ELEMENT_WISE_QUANTIZED_LINEAR_ADD"

Test(quantize_validate, quantized_add_rules)
{
    add_case c;
    setup_add(&c, U8, true);
    OK(&c);
    setup_add(&c, I8, false);
    OK(&c);
    setup_add(&c, I16, true);
    FAILS(&c, E_INVALIDARG, ADD, "ATensor.DataType (INT16)", "INT8, UINT8");
    /* A, B and the output may differ (each zero point of its tensor's type). */
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[B], I8);
    unit_tensor_set_type(&c.t[BZ], I8);
    unit_tensor_set_type(&c.t[OUT], I8);
    unit_tensor_set_type(&c.t[OZ], I8);
    OK(&c);
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[B], I16);
    FAILS(&c, E_INVALIDARG, ADD, "BTensor.DataType (INT16)", "INT8, UINT8");
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[BZ], I8);
    FAILS(&c, E_INVALIDARG, ADD, "BZeroPointTensor.DataType (INT8)", "BTensor.DataType (UINT8)");
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[AZ], I8);
    FAILS(&c, E_INVALIDARG, ADD, "AZeroPointTensor.DataType (INT8)", "ATensor.DataType (UINT8)");
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[OZ], I8);
    FAILS(&c, E_INVALIDARG, ADD, "OutputZeroPointTensor.DataType (INT8)",
          "OutputTensor.DataType (UINT8)");
    setup_add(&c, U8, false);
    unit_tensor_set_type(&c.t[OUT], F32);
    FAILS(&c, E_INVALIDARG, ADD, "OutputTensor.DataType (FLOAT32)", "INT8, UINT8");
    setup_add(&c, U8, true);
    unit_tensor_set_type(&c.t[BS], F16);
    FAILS(&c, E_INVALIDARG, ADD, "BScaleTensor.DataType (FLOAT16)", "must be FLOAT32");
    /* One DimensionCount. */
    static const UINT one2[2] = {1, 1}, two[2] = {24, 8}, other[3] = {4, 6, 9}, many[3] = {1, 1, 2};
    setup_add(&c, U8, true);
    c.d.AScaleTensor = unit_tensor_set(&c.t[AS], F32, 2, one2, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "AScaleTensor.DimensionCount (2)", "ATensor.DimensionCount (3)");
    setup_add(&c, U8, true);
    c.d.OutputTensor = unit_tensor_set(&c.t[OUT], U8, 2, two, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "OutputTensor.DimensionCount (2)");
    /* A, B and the output of one Sizes; each scale and zero point one element. */
    setup_add(&c, U8, true);
    c.d.BTensor = unit_tensor_set(&c.t[B], U8, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "BTensor.Sizes ({4,6,9})", "{4,6,8}");
    setup_add(&c, U8, true);
    c.d.OutputTensor = unit_tensor_set(&c.t[OUT], U8, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "OutputTensor.Sizes ({4,6,9})");
    setup_add(&c, U8, true);
    c.d.BZeroPointTensor = unit_tensor_set(&c.t[BZ], U8, 3, many, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "BZeroPointTensor holds 2 elements", "1 element");
    setup_add(&c, U8, true);
    c.d.OutputScaleTensor = unit_tensor_set(&c.t[OS], F32, 3, many, NULL);
    FAILS(&c, E_INVALIDARG, ADD, "OutputScaleTensor holds 2 elements");
    /* Required tensors. */
    setup_add(&c, U8, true);
    c.d.BScaleTensor = NULL;
    FAILS(&c, E_INVALIDARG, ADD, "BScaleTensor");
}

Test(quantize_validate, quantized_add_lowers_to_a_chain)
{
    add_case c;
    for (int zps = 0; zps < 2; ++zps) {
        setup_add(&c, I8, zps);
        dmlcl_operator *op = NULL;
        cr_assert(SUCCEEDED(dmlcl_operator_create(NULL, &c.op, &op)), "%s", dmlcl_last_error());
        const dmli_op_state *st = dmli_operator_state(op);
        cr_assert(st->mapped && st->map.n_stages == 4 && st->map.n_inputs == (zps ? 8u : 5u));
        const dmli_map_op want[4] = {zps ? DMLI_MAP_DEQUANTIZE_LINEAR : DMLI_MAP_DEQUANTIZE_SCALE,
                                     zps ? DMLI_MAP_DEQUANTIZE_LINEAR : DMLI_MAP_DEQUANTIZE_SCALE,
                                     DMLI_MAP_ADD,
                                     zps ? DMLI_MAP_QUANTIZE_LINEAR : DMLI_MAP_QUANTIZE_SCALE};
        for (uint32_t s = 0; s < 4; ++s)
            cr_expect(dmli_map_get_stage(&st->map, s).op == want[s], "zps %d stage %u", zps, s);
        /* The scales and zero points are read with 0 strides everywhere. */
        for (uint32_t k = 0; k < st->map.n_inputs; ++k)
            for (int d = 0; d < st->map.rank; ++d)
                if (st->map.in[k].slot != A && st->map.in[k].slot != B)
                    cr_expect(st->map.in[k].stride[d] == 0, "input %u dim %d", k, d);
        dmlcl_operator_release(op);
    }
}

/* ---- DYNAMIC_QUANTIZE_LINEAR ------------------------------------------------------------- */

typedef struct dyn_case {
    unit_tensor t[4];
    DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} dyn_case;

static void setup_dyn(dyn_case *c, DML_TENSOR_DATA_TYPE in, DML_TENSOR_DATA_TYPE out)
{
    static const UINT one[3] = {1, 1, 1};
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->t[0], in, 3, sizes, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->t[1], out, 3, sizes, NULL);
    c->d.OutputScaleTensor = unit_tensor_set(&c->t[2], F32, 3, one, NULL);
    c->d.OutputZeroPointTensor = unit_tensor_set(&c->t[3], out, 3, one, NULL);
    c->op.Type = DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR;
    c->op.Desc = &c->d;
}

#define DYN "DYNAMIC_QUANTIZE_LINEAR"

Test(quantize_validate, dynamic_quantize_rules)
{
    dyn_case c;
    const DML_TENSOR_DATA_TYPE ins[2] = {F32, F16}, outs[2] = {U8, I8};
    for (int i = 0; i < 2; ++i)
        for (int o = 0; o < 2; ++o) {
            setup_dyn(&c, ins[i], outs[o]);
            OK(&c);
        }
    setup_dyn(&c, I32, U8);
    FAILS(&c, E_INVALIDARG, DYN, "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
    setup_dyn(&c, F32, I16);
    unit_tensor_set_type(&c.t[3], I16);
    FAILS(&c, E_INVALIDARG, DYN, "OutputTensor.DataType (INT16)", "INT8, UINT8");
    setup_dyn(&c, F32, U8);
    unit_tensor_set_type(&c.t[2], F16);
    FAILS(&c, E_INVALIDARG, DYN, "OutputScaleTensor.DataType (FLOAT16)", "must be FLOAT32");
    setup_dyn(&c, F32, U8);
    unit_tensor_set_type(&c.t[3], I8);
    FAILS(&c, E_INVALIDARG, DYN, "OutputZeroPointTensor.DataType (INT8)",
          "OutputTensor.DataType (UINT8)");
    static const UINT one2[2] = {1, 1}, two[3] = {1, 2, 1}, other[3] = {4, 6, 9};
    setup_dyn(&c, F32, U8);
    c.d.OutputScaleTensor = unit_tensor_set(&c.t[2], F32, 2, one2, NULL);
    FAILS(&c, E_INVALIDARG, DYN, "OutputScaleTensor.DimensionCount (2)",
          "InputTensor.DimensionCount (3)");
    setup_dyn(&c, F32, U8);
    c.d.OutputZeroPointTensor = unit_tensor_set(&c.t[3], U8, 3, two, NULL);
    FAILS(&c, E_INVALIDARG, DYN, "OutputZeroPointTensor holds 2 elements");
    setup_dyn(&c, F32, U8);
    c.d.OutputScaleTensor = unit_tensor_set(&c.t[2], F32, 3, two, NULL);
    FAILS(&c, E_INVALIDARG, DYN, "OutputScaleTensor holds 2 elements");
    setup_dyn(&c, F32, U8);
    c.d.OutputTensor = unit_tensor_set(&c.t[1], U8, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, DYN, "OutputTensor.Sizes ({4,6,9})", "{4,6,8}");
    setup_dyn(&c, F32, U8);
    c.d.OutputZeroPointTensor = NULL;
    FAILS(&c, E_INVALIDARG, DYN, "OutputZeroPointTensor");
}

/* The launch: one work-group (a power of two within the device's limits), the variant by type,
 * the table's sizes and both tensors' strides. */
Test(quantize_validate, dynamic_quantize_launch)
{
    dyn_case c;
    setup_dyn(&c, F16, I8);
    static const UINT transposed[3] = {1, 4, 24};
    c.d.InputTensor = unit_tensor_set(&c.t[0], F16, 3, sizes, transposed);
    dmlcl_operator *op = NULL;
    cr_assert(SUCCEEDED(dmlcl_operator_create(NULL, &c.op, &op)), "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_DYNQUANT &&
              st->compute.n_tensors == 4);
    dmli_device_desc dev;
    memset(&dev, 0, sizeof dev);
    dev.max_work_group_size = 100;
    dev.max_item_sizes[0] = dev.max_item_sizes[1] = dev.max_item_sizes[2] = 1024;
    dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &dev, &l);
    cr_expect(l.global[0] == 64 && l.local[0] == 64 && l.global[1] == 1 && l.global[2] == 1);
    cr_expect(strstr(l.options, "-DIN_HALF=1") && strstr(l.options, "-DOUT_T=char") &&
                  strstr(l.options, "-DQMIN=-128") && strstr(l.options, "-DGROUP=64"),
              "%s", l.options);
    cr_expect(l.table[DMLI_DQ_RANK] == 3 && l.table[DMLI_DQ_COUNT] == 192);
    for (int d = 0; d < 3; ++d)
        cr_expect(l.table[DMLI_DQ_SIZE(d)] == sizes[d] &&
                      l.table[DMLI_DQ_IN_STRIDE(d)] == transposed[d] &&
                      l.table[DMLI_DQ_OUT_STRIDE(d)] == (d == 0   ? 48
                                                         : d == 1 ? 8
                                                                  : 1),
                  "dim %d", d);
    dev.max_work_group_size = 4096;
    dmli_launch_compute(&st->compute, &dev, &l);
    cr_expect(l.local[0] == 256, "%zu", l.local[0]);
    dmlcl_operator_release(op);
}

/* ---- QUANTIZED_LINEAR_AVERAGE_POOLING ---------------------------------------------------- */

typedef struct qpool_case {
    unit_tensor in, out, q[4];
    UINT strides[2], window[2], start[2], end[2], dil[2];
    DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} qpool_case;

/* {1, 3, 6, 6} pooled by 3x3 windows, stride 1, no padding: {1, 3, 4, 4}; per-tensor scales
 * and zero points {1, 1, 1, 1}. */
static void setup_qpool(qpool_case *c, DML_TENSOR_DATA_TYPE in, DML_TENSOR_DATA_TYPE out)
{
    static const UINT in_sizes[4] = {1, 3, 6, 6}, out_sizes[4] = {1, 3, 4, 4},
                      one[4] = {1, 1, 1, 1};
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 2; ++i) {
        c->strides[i] = c->dil[i] = 1;
        c->window[i] = 3;
    }
    c->d.InputTensor = unit_tensor_set(&c->in, in, 4, in_sizes, NULL);
    c->d.InputScaleTensor = unit_tensor_set(&c->q[0], F32, 4, one, NULL);
    c->d.InputZeroPointTensor = unit_tensor_set(&c->q[1], in, 4, one, NULL);
    c->d.OutputScaleTensor = unit_tensor_set(&c->q[2], F32, 4, one, NULL);
    c->d.OutputZeroPointTensor = unit_tensor_set(&c->q[3], out, 4, one, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, out, 4, out_sizes, NULL);
    c->d.DimensionCount = 2;
    c->d.Strides = c->strides;
    c->d.WindowSize = c->window;
    c->d.StartPadding = c->start;
    c->d.EndPadding = c->end;
    c->d.Dilations = c->dil;
    c->op.Type = DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING;
    c->op.Desc = &c->d;
}

#define QAP "QUANTIZED_LINEAR_AVERAGE_POOLING"

Test(quantize_validate, quantized_average_pooling_rules)
{
    qpool_case c;
    const DML_TENSOR_DATA_TYPE t[2] = {U8, I8};
    for (int i = 0; i < 2; ++i)
        for (int o = 0; o < 2; ++o) {
            setup_qpool(&c, t[i], t[o]);
            OK(&c);
        }
    setup_qpool(&c, U8, U8);
    c.d.InputZeroPointTensor = c.d.OutputZeroPointTensor = NULL;
    OK(&c);
    /* Per channel: {1, C, 1, 1}. */
    static const UINT chan[4] = {1, 3, 1, 1}, wrong[4] = {1, 2, 1, 1}, three[3] = {1, 3, 1};
    setup_qpool(&c, U8, U8);
    c.d.InputScaleTensor = unit_tensor_set(&c.q[0], F32, 4, chan, NULL);
    c.d.OutputZeroPointTensor = unit_tensor_set(&c.q[3], U8, 4, chan, NULL);
    OK(&c);
    setup_qpool(&c, F32, F32);
    FAILS(&c, E_INVALIDARG, QAP, "InputTensor.DataType (FLOAT32)", "INT8, UINT8");
    setup_qpool(&c, U8, I16);
    unit_tensor_set_type(&c.q[3], I16);
    FAILS(&c, E_INVALIDARG, QAP, "OutputTensor.DataType (INT16)", "INT8, UINT8");
    setup_qpool(&c, U8, U8);
    unit_tensor_set_type(&c.q[1], I8);
    FAILS(&c, E_INVALIDARG, QAP, "InputZeroPointTensor.DataType (INT8)",
          "InputTensor.DataType (UINT8)");
    setup_qpool(&c, U8, I8);
    unit_tensor_set_type(&c.q[3], U8);
    FAILS(&c, E_INVALIDARG, QAP, "OutputZeroPointTensor.DataType (UINT8)",
          "OutputTensor.DataType (INT8)");
    setup_qpool(&c, U8, U8);
    unit_tensor_set_type(&c.q[2], F16);
    FAILS(&c, E_INVALIDARG, QAP, "OutputScaleTensor.DataType (FLOAT16)", "must be FLOAT32");
    setup_qpool(&c, U8, U8);
    c.d.InputScaleTensor = unit_tensor_set(&c.q[0], F32, 4, wrong, NULL);
    FAILS(&c, E_INVALIDARG, QAP, "InputScaleTensor holds 2 elements", "C = 3");
    setup_qpool(&c, U8, U8);
    c.d.OutputScaleTensor = unit_tensor_set(&c.q[2], F32, 3, three, NULL);
    FAILS(&c, E_INVALIDARG, QAP, "OutputScaleTensor holds 3 elements");
    setup_qpool(&c, U8, U8);
    c.d.InputScaleTensor = NULL;
    FAILS(&c, E_INVALIDARG, QAP, "InputScaleTensor");
    /* The pooling's own rules (AVERAGE_POOLING1's): one of each. */
    setup_qpool(&c, U8, U8);
    c.window[1] = 0;
    FAILS(&c, E_INVALIDARG, QAP, "WindowSize[1] (0) must be at least 1");
    setup_qpool(&c, U8, U8);
    c.d.DimensionCount = 3;
    FAILS(&c, E_INVALIDARG, QAP, "DimensionCount (3)", "spatial");
    setup_qpool(&c, U8, U8);
    c.d.Dilations = NULL;
    FAILS(&c, E_INVALIDARG, QAP, "Dilations is NULL");
    setup_qpool(&c, U8, U8);
    c.strides[0] = 2;
    FAILS(&c, E_INVALIDARG, QAP, "OutputTensor.Sizes ({1,3,4,4})", "{1,3,2,4}");
}

/* Its launch: the pool family's QUANT variant (the generic kernel, the sum in long, no vector
 * loads), the zero points' presence, the channel strides in the table. */
Test(quantize_validate, quantized_average_pooling_launch)
{
    qpool_case c;
    static const UINT chan[4] = {1, 3, 1, 1};
    setup_qpool(&c, I8, U8);
    c.d.InputZeroPointTensor = NULL;
    c.d.OutputScaleTensor = unit_tensor_set(&c.q[2], F32, 4, chan, NULL);
    dmlcl_operator *op = NULL;
    cr_assert(SUCCEEDED(dmlcl_operator_create(NULL, &c.op, &op)), "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_POOL && st->compute.n_tensors == 6);
    dmli_device_desc dev;
    memset(&dev, 0, sizeof dev);
    dev.device_class = DMLCL_DEVICE_CLASS_CPU;
    dev.max_work_group_size = 1024;
    dev.max_item_sizes[0] = dev.max_item_sizes[1] = dev.max_item_sizes[2] = 1024;
    dev.local_mem_size = 65536;
    dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &dev, &l);
    cr_expect(strstr(l.options, "-DQUANT=1") && strstr(l.options, "-DHAS_IZP=0") &&
                  strstr(l.options, "-DHAS_OZP=1") && strstr(l.options, "-DIN_T=char") &&
                  strstr(l.options, "-DOUT_T=uchar") && strstr(l.options, "-DCOMPUTE_T=long") &&
                  !strstr(l.options, "VLOAD") && !strstr(l.options, "RUN") &&
                  strcmp(l.kernel, "pool") == 0,
              "%s %s", l.kernel, l.options);
    cr_expect(l.table[DMLI_POOL_QSTRIDE(0)] == 0 && l.table[DMLI_POOL_QSTRIDE(2)] == 1 &&
              l.table[DMLI_POOL_QSTRIDE(3)] == 0);
    dmlcl_operator_release(op);
}
