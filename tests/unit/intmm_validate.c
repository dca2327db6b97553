/* SPDX-License-Identifier: MIT */
/*
 * The integer and quantized matrix operators' validation on the host (no OpenCL device):
 * types, DimensionCounts, sizes, the zero points', scales' and bias's broadcast forms, the
 * convolutions' geometry, and the description they lower to. Each broken rule checks the
 * HRESULT and that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "intmm.h"
#include "launch.h"
#include "support.h"

#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U8 DML_TENSOR_DATA_TYPE_UINT8
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* ---- The products: {2, 3, M 4, K 5} . {2, 3, K 5, N 6} ----------------------------------- */

typedef struct product_fixture {
    unit_tensor a, as, az, b, bs, bz, os, oz, bias, out;
    DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC q;
    DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC i;
    DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC f;
} product_fixture;

static void product(product_fixture *p, DML_TENSOR_DATA_TYPE out_type)
{
    memset(p, 0, sizeof *p);
    const UINT a[4] = {2, 3, 4, 5}, b[4] = {2, 3, 5, 6}, o[4] = {2, 3, 4, 6};
    const UINT row[4] = {1, 1, 4, 1}, col[4] = {1, 1, 1, 6}, one[1] = {1};
    const DML_TENSOR_DATA_TYPE ft = out_type == F16 ? F16 : F32;
    unit_tensor_set(&p->a, I8, 4, a, NULL);
    unit_tensor_set(&p->as, ft, 4, row, NULL);
    unit_tensor_set(&p->az, I8, 4, row, NULL);
    unit_tensor_set(&p->b, U8, 4, b, NULL);
    unit_tensor_set(&p->bs, ft, 4, col, NULL);
    unit_tensor_set(&p->bz, U8, 1, col + 3, NULL);
    unit_tensor_set(&p->os, F32, 1, one, NULL);
    unit_tensor_set(&p->oz, out_type, 1, one, NULL);
    unit_tensor_set(&p->bias, ft, 4, col, NULL);
    unit_tensor_set(&p->out, out_type, 4, o, NULL);
#define T(x) ((const DML_TENSOR_DESC *)&(x).desc)
    p->q = (DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC){
        T(p->a), T(p->as), T(p->az), T(p->b), T(p->bs), T(p->bz), T(p->os), T(p->oz), T(p->out)};
    p->i = (DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC){T(p->a), T(p->az), T(p->b), T(p->bz),
                                                       T(p->out)};
    p->f = (DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC){
        T(p->a), T(p->as), T(p->az), T(p->b), T(p->bs), T(p->bz), T(p->bias), T(p->out)};
}

#define QLMM DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY
#define MMI DML_OPERATOR_MATRIX_MULTIPLY_INTEGER
#define MMITF DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT
#define QLC DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION
#define CI DML_OPERATOR_CONVOLUTION_INTEGER

Test(intmm_validate, products_accept_the_fixtures_and_their_forms)
{
    product_fixture p;
    product(&p, I8);
    cr_expect_eq(create(QLMM, &p.q), S_OK, "%s", dmlcl_last_error());
    p.q.AZeroPointTensor = p.q.BZeroPointTensor = p.q.OutputZeroPointTensor = NULL;
    cr_expect_eq(create(QLMM, &p.q), S_OK, "%s", dmlcl_last_error());
    product(&p, I32);
    cr_expect_eq(create(MMI, &p.i), S_OK, "%s", dmlcl_last_error());
    p.i.AZeroPointTensor = p.i.BZeroPointTensor = NULL;
    cr_expect_eq(create(MMI, &p.i), S_OK, "%s", dmlcl_last_error());
    for (int t = 0; t < 2; ++t) {
        product(&p, t ? F16 : F32);
        cr_expect_eq(create(MMITF, &p.f), S_OK, "%s", dmlcl_last_error());
        /* ONNX Runtime's bias: the output's sizes, 0 strides but along N. */
        const UINT sizes[4] = {2, 3, 4, 6}, strides[4] = {0, 0, 0, 1};
        unit_tensor_set(&p.bias, t ? F16 : F32, 4, sizes, strides);
        cr_expect_eq(create(MMITF, &p.f), S_OK, "%s", dmlcl_last_error());
    }
    /* Rank 2 (feature level 4.0): {M, K} . {K, N}; batched per-row zero points. */
    product(&p, I32);
    const UINT a2[2] = {4, 5}, b2[2] = {5, 6}, o2[2] = {4, 6};
    unit_tensor_set(&p.a, I8, 2, a2, NULL);
    unit_tensor_set(&p.b, U8, 2, b2, NULL);
    unit_tensor_set(&p.out, I32, 2, o2, NULL);
    cr_expect_eq(create(MMI, &p.i), S_OK, "%s", dmlcl_last_error());
    product(&p, I32);
    const UINT batched[4] = {2, 3, 4, 1};
    unit_tensor_set(&p.az, I8, 4, batched, NULL);
    cr_expect_eq(create(MMI, &p.i), S_OK, "%s", dmlcl_last_error());
}

Test(intmm_validate, products_types)
{
    product_fixture p;
    product(&p, I8);
    p.q.ATensor = NULL;
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "QUANTIZED_LINEAR_MATRIX_MULTIPLY", "ATensor");
    product(&p, I8);
    p.q.AScaleTensor = NULL;
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "AScaleTensor");
    product(&p, I8);
    unit_tensor_set_type(&p.a, DML_TENSOR_DATA_TYPE_INT16);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "ATensor.DataType", "INT16", "INT8 or UINT8");
    product(&p, I8);
    unit_tensor_set_type(&p.b, F32);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "BTensor.DataType", "FLOAT32", "INT8 or UINT8");
    product(&p, I32);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "OutputTensor.DataType", "INT32", "INT8 or UINT8");
    product(&p, I8);
    EXPECT(create(MMI, &p.i), E_INVALIDARG, "MATRIX_MULTIPLY_INTEGER", "OutputTensor.DataType",
           "INT8", "must be INT32");
    product(&p, I32);
    EXPECT(create(MMITF, &p.f), E_INVALIDARG, "OutputTensor.DataType", "INT32",
           "FLOAT32 or FLOAT16");
    product(&p, I8);
    unit_tensor_set_type(&p.az, U8);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "AZeroPointTensor", "UINT8");
    product(&p, I8);
    unit_tensor_set_type(&p.bz, I8);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "BZeroPointTensor", "INT8");
    product(&p, I8);
    unit_tensor_set_type(&p.oz, U8);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "OutputZeroPointTensor", "UINT8");
    product(&p, I8);
    unit_tensor_set_type(&p.os, F16);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "OutputScaleTensor.DataType", "FLOAT16",
           "must be FLOAT32");
    product(&p, F32);
    unit_tensor_set_type(&p.bs, F16);
    EXPECT(create(MMITF, &p.f), E_INVALIDARG, "BScaleTensor", "FLOAT16");
    product(&p, F16);
    unit_tensor_set_type(&p.bias, F32);
    EXPECT(create(MMITF, &p.f), E_INVALIDARG, "BiasTensor", "FLOAT32");
}

Test(intmm_validate, products_ranks_and_sizes)
{
    product_fixture p;
    product(&p, I8);
    const UINT five[5] = {1, 2, 3, 4, 5}, ones5[5] = {1, 1, 1, 1, 1};
    unit_tensor_set(&p.a, I8, 5, five, NULL);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "ATensor.DimensionCount", "(5)", "2 to 4");
    product(&p, I8);
    const UINT b3[3] = {3, 5, 6};
    unit_tensor_set(&p.b, U8, 3, b3, NULL);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "BTensor.DimensionCount", "(3)");
    product(&p, I8);
    unit_tensor_set(&p.os, F32, 5, ones5, NULL);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "OutputScaleTensor.DimensionCount", "(5)", "1 to 4");
    product(&p, I8);
    p.b.sizes[2] = 7;
    unit_tensor_fit(&p.b);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "BTensor.Sizes", "{2,3,7,6}");
    product(&p, I8);
    p.out.sizes[3] = 5;
    unit_tensor_fit(&p.out);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "OutputTensor.Sizes", "{2,3,4,5}");
    product(&p, I8);
    const UINT per_k[4] = {1, 1, 1, 5};
    unit_tensor_set(&p.as, F32, 4, per_k, NULL);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "AScaleTensor.Sizes", "{1,1,1,5}", "per row");
    product(&p, I8);
    const UINT per_k_b[2] = {5, 1};
    unit_tensor_set(&p.bz, U8, 2, per_k_b, NULL);
    EXPECT(create(QLMM, &p.q), E_INVALIDARG, "BZeroPointTensor.Sizes", "{5,1}", "per column");
    product(&p, F32);
    const UINT wrong[4] = {1, 1, 3, 1};
    unit_tensor_set(&p.bias, F32, 4, wrong, NULL);
    EXPECT(create(MMITF, &p.f), E_INVALIDARG, "BiasTensor.Sizes", "{1,1,3,1}");
    /* An output whose elements overlap. */
    product(&p, I8);
    const UINT overlap[4] = {0, 0, 1, 1};
    unit_tensor_set_strides(&p.out, overlap);
    EXPECT(create(QLMM, &p.q), DXGI_ERROR_UNSUPPORTED, "OutputTensor.Strides[0] (0)", "overlaps");
}

Test(intmm_validate, products_lower_to_the_integer_family)
{
    product_fixture p;
    product(&p, F32);
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(MMITF), &p.f, &st), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert(st.computed);
    cr_expect_eq(st.compute.kind, DMLI_COMPUTE_INTMM);
    cr_expect_eq(st.compute.n_tensors, DMLI_IMM_ROLES);
    cr_expect_eq(st.n_inputs, 7);
    const dmli_intmm *m = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_intmm);
    cr_expect_eq(m->out_kind, DMLI_IMM_OUT_FLOAT);
    cr_expect_eq(m->d[0], 2);
    cr_expect_eq(m->d[2], 4);
    cr_expect_eq(m->d[3], 6);
    cr_expect_eq(m->k, 5);
    /* Per row: along M only; per column {N}: along N only; absent roles bound to A. */
    const int64_t row[4] = {0, 0, 1, 0}, col[4] = {0, 0, 0, 1};
    cr_expect_arr_eq(m->strides[DMLI_IMM_ASCALE], row, sizeof row);
    cr_expect_arr_eq(m->strides[DMLI_IMM_BZP], col, sizeof col);
    cr_expect(!m->present[DMLI_IMM_OSCALE] && m->present[DMLI_IMM_BIAS]);
    cr_expect_eq(st.compute.tensors[DMLI_IMM_OSCALE].slot, 0);
    cr_expect_eq(st.compute.tensors[DMLI_IMM_BIAS].slot, 6);
    cr_expect(st.compute.tensors[DMLI_IMM_OUT].output);
    dmli_op_state_release(&st);
}

/* ---- The convolutions: {1, 4, 5, 5} * {6, 2, 3, 3}, 2 groups -> {1, 6, 3, 3} --------------- */

typedef struct conv_fixture {
    unit_tensor x, xs, xz, w, ws, wz, bias, os, oz, out;
    UINT strides[2], dilations[2], start[2], end[2];
    DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC q;
    DML_CONVOLUTION_INTEGER_OPERATOR_DESC i;
} conv_fixture;

static void conv(conv_fixture *c, DML_TENSOR_DATA_TYPE out_type)
{
    memset(c, 0, sizeof *c);
    const UINT x[4] = {1, 4, 5, 5}, w[4] = {6, 2, 3, 3}, o[4] = {1, 6, 3, 3};
    const UINT one[4] = {1, 1, 1, 1}, chan[4] = {1, 6, 1, 1};
    unit_tensor_set(&c->x, U8, 4, x, NULL);
    unit_tensor_set(&c->xs, F32, 4, one, NULL);
    unit_tensor_set(&c->xz, U8, 4, one, NULL);
    unit_tensor_set(&c->w, I8, 4, w, NULL);
    unit_tensor_set(&c->ws, F32, 4, chan, NULL);
    unit_tensor_set(&c->wz, I8, 1, chan + 1, NULL);
    unit_tensor_set(&c->bias, I32, 4, chan, NULL);
    unit_tensor_set(&c->os, F32, 4, one, NULL);
    unit_tensor_set(&c->oz, out_type, 4, one, NULL);
    unit_tensor_set(&c->out, out_type, 4, o, NULL);
    for (int i = 0; i < 2; ++i)
        c->strides[i] = c->dilations[i] = 1;
    c->q = (DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC){
        T(c->x),  T(c->xs),  T(c->xz), T(c->w),    T(c->ws),     T(c->wz), T(c->bias), T(c->os),
        T(c->oz), T(c->out), 2,        c->strides, c->dilations, c->start, c->end,     2};
    c->i = (DML_CONVOLUTION_INTEGER_OPERATOR_DESC){T(c->x),   T(c->xz), T(c->w),    T(c->wz),
                                                   T(c->out), 2,        c->strides, c->dilations,
                                                   c->start,  c->end,   2};
}

Test(intmm_validate, convolutions_accept_the_fixtures_and_their_forms)
{
    conv_fixture c;
    conv(&c, U8);
    cr_expect_eq(create(QLC, &c.q), S_OK, "%s", dmlcl_last_error());
    c.q.BiasTensor = c.q.InputZeroPointTensor = c.q.FilterZeroPointTensor = NULL;
    c.q.OutputZeroPointTensor = NULL;
    cr_expect_eq(create(QLC, &c.q), S_OK, "%s", dmlcl_last_error());
    conv(&c, U8);
    const UINT right[4] = {1, 1, 1, 6}; /* ONNX's w_scale [Cout] right-aligned */
    unit_tensor_set(&c.ws, F32, 4, right, NULL);
    cr_expect_eq(create(QLC, &c.q), S_OK, "%s", dmlcl_last_error());
    conv(&c, I32);
    cr_expect_eq(create(CI, &c.i), S_OK, "%s", dmlcl_last_error());
    /* One spatial dimension (feature level 4.0): {1, 4, 5} * {6, 2, 3} -> {1, 6, 3}. */
    const UINT x3[3] = {1, 4, 5}, w3[3] = {6, 2, 3}, o3[3] = {1, 6, 3};
    unit_tensor_set(&c.x, U8, 3, x3, NULL);
    unit_tensor_set(&c.w, I8, 3, w3, NULL);
    unit_tensor_set(&c.out, I32, 3, o3, NULL);
    c.i.DimensionCount = 1;
    cr_expect_eq(create(CI, &c.i), S_OK, "%s", dmlcl_last_error());
}

Test(intmm_validate, convolutions_rules)
{
    conv_fixture c;
    conv(&c, U8);
    const UINT x3[3] = {1, 4, 5}, w3[3] = {6, 2, 3}, o3[3] = {1, 6, 3};
    unit_tensor_set(&c.x, U8, 3, x3, NULL);
    unit_tensor_set(&c.w, I8, 3, w3, NULL);
    unit_tensor_set(&c.out, U8, 3, o3, NULL);
    c.q.DimensionCount = 1;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "QUANTIZED_LINEAR_CONVOLUTION",
           "InputTensor.DimensionCount", "(3)", "must be 4");
    conv(&c, I32);
    const UINT x5[5] = {1, 4, 5, 5, 1};
    unit_tensor_set(&c.x, U8, 5, x5, NULL);
    EXPECT(create(CI, &c.i), E_INVALIDARG, "CONVOLUTION_INTEGER", "InputTensor.DimensionCount",
           "(5)", "3 to 4");
    conv(&c, U8);
    c.q.DimensionCount = 1;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "DimensionCount (1)");
    conv(&c, U8);
    c.q.Strides = NULL;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "Strides is NULL");
    conv(&c, U8);
    c.strides[0] = 0;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "Strides[0] (0)");
    conv(&c, U8);
    c.dilations[1] = 0;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "Dilations[1] (0)");
    conv(&c, U8);
    c.q.GroupCount = 0;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "GroupCount (0)");
    conv(&c, U8);
    c.q.GroupCount = 3;
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "GroupCount (3)", "divide the input channels");
    conv(&c, U8);
    c.w.sizes[1] = 3;
    unit_tensor_fit(&c.w);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "FilterTensor.Sizes[1] (3)");
    conv(&c, U8);
    c.w.sizes[0] = 5;
    unit_tensor_fit(&c.w);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "GroupCount (2)", "FilterTensor.Sizes[0] = 5");
    conv(&c, U8);
    c.w.sizes[2] = 6;
    unit_tensor_fit(&c.w);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "window of spatial dimension 0", "= 6", "(5)");
    conv(&c, U8);
    c.out.sizes[3] = 4;
    unit_tensor_fit(&c.out);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "OutputTensor.Sizes", "{1,6,3,4}");
    conv(&c, U8);
    c.ws.sizes[1] = 5;
    unit_tensor_fit(&c.ws);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "FilterScaleTensor.Sizes", "{1,5,1,1}",
           "output channels (6)");
    conv(&c, U8);
    c.xz.sizes[1] = 4;
    unit_tensor_fit(&c.xz);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "InputZeroPointTensor.Sizes", "{1,4,1,1}",
           "one element");
    conv(&c, U8);
    unit_tensor_set_type(&c.bias, F32);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "BiasTensor.DataType", "FLOAT32", "INT32");
    conv(&c, U8);
    unit_tensor_set_type(&c.xs, F16);
    EXPECT(create(QLC, &c.q), E_INVALIDARG, "InputScaleTensor.DataType", "FLOAT16");
}

Test(intmm_validate, convolutions_lower_to_the_integer_family)
{
    conv_fixture c;
    conv(&c, U8);
    c.start[1] = 1;
    c.end[1] = 1;
    c.strides[1] = 2;
    c.out.sizes[3] = 3; /* (5 + 2 - 3) / 2 + 1 */
    unit_tensor_fit(&c.out);
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(QLC), &c.q, &st), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect_eq(st.compute.kind, DMLI_COMPUTE_INTMM);
    const dmli_intmm *m = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_intmm);
    cr_expect(m->conv);
    cr_expect_eq(m->out_kind, DMLI_IMM_OUT_QUANT);
    cr_expect_eq(m->cin_g, 2);
    cr_expect_eq(m->cout_g, 3);
    cr_expect_eq(m->pad[1], 1);
    cr_expect_eq(m->stride[1], 2);
    const int64_t chan[4] = {0, 1, 0, 0}, none[4] = {0, 0, 0, 0};
    cr_expect_arr_eq(m->strides[DMLI_IMM_BSCALE], chan, sizeof chan);
    cr_expect_arr_eq(m->strides[DMLI_IMM_BZP], chan, sizeof chan);
    cr_expect_arr_eq(m->strides[DMLI_IMM_AZP], none, sizeof none);
    cr_expect(m->present[DMLI_IMM_BIAS] && m->present[DMLI_IMM_OZP]);
    dmli_op_state_release(&st);
}

/* The grid: a work-item per DMLI_IMM_BLOCK outputs along D3, each local size dividing its global
 * size within the device's limits, the table's sizes and strides. */
Test(intmm_validate, launch_geometry_within_device_limits)
{
    static const dmli_device_desc small = {.device_class = DMLCL_DEVICE_CLASS_CPU,
                                           .compute_units = 2,
                                           .max_work_group_size = 24,
                                           .max_item_sizes = {8, 24, 1},
                                           .local_mem_size = 32768};
    dmli_compute c;
    dmli_compute_init(&c, DMLI_COMPUTE_INTMM);
    dmli_intmm *m = DMLI_COMPUTE_WORK(&c, dmli_intmm);
    m->a_type = m->b_type = I8;
    m->out_type = I32;
    const int64_t d[4] = {2, 3, 37, 61};
    memcpy(m->d, d, sizeof d);
    m->k = 5;
    m->strides[DMLI_IMM_OUT][3] = 1;
    dmli_compute_launch l;
    memset(&l, 0, sizeof l);
    dmli_launch_intmm(&c, &small, &l);
    cr_expect_str_eq(l.kernel, "intmm");
    cr_expect_eq(l.source, DMLI_SOURCE_INTMM);
    cr_expect_geq(l.global[0] * DMLI_IMM_BLOCK, 61);
    cr_expect_geq(l.global[1], 37);
    cr_expect_eq(l.global[2], 6);
    for (int i = 0; i < 3; ++i) {
        cr_expect_eq(l.global[i] % l.local[i], 0, "dimension %d", i);
        cr_expect_leq(l.local[i], small.max_item_sizes[i], "dimension %d", i);
    }
    cr_expect_leq(l.local[0] * l.local[1] * l.local[2], small.max_work_group_size);
    cr_expect_eq(l.table[DMLI_IMM_D(3)], 61);
    cr_expect_eq(l.table[DMLI_IMM_K], 5);
    cr_expect_eq(l.table[DMLI_IMM_STRIDE(DMLI_IMM_OUT, 3)], 1);
    cr_expect_eq(l.table_count, DMLI_IMM_TABLE);
}
