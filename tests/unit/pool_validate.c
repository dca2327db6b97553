/* SPDX-License-Identifier: MIT */
/*
 * The pooling operators' validation on the host (no OpenCL device): their tables (max pooling
 * the 10 types of the 5.0 tables, average and LP FLOAT32 and FLOAT16), DimensionCount 4 or 5
 * and the descriptor's DimensionCount, one DataType and DimensionCount, the arrays (non-NULL,
 * Strides, WindowSize, Dilations at least 1), P at least 1, the output-size rule (floor, or
 * ceil_mode's one more), the indices' type and sizes; the pool family's launch per device
 * class; and the oracle (tests/ref/ref_pool.c) on values worked by hand. Each broken rule
 * checks the HRESULT and that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../cl/pool_abi.h"
#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "pool.h"
#include "ref_pool.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

/* {1, 2, 5, 6} pooled 3x2, strides 2x2, padding {1, 0} / {1, 1}: {1, 2, 3, 3}. */
static const UINT xs[4] = {1, 2, 5, 6}, ys[4] = {1, 2, 3, 3};

typedef struct pool {
    unit_tensor in, out, idx;
    UINT strides[3], window[3], start[3], end[3], dil[3];
    DML_MAX_POOLING2_OPERATOR_DESC m;
    DML_AVERAGE_POOLING1_OPERATOR_DESC a;
    DML_LP_POOLING1_OPERATOR_DESC l;
} pool;

static void pool_init(pool *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC *in = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    const DML_TENSOR_DESC *out = unit_tensor_set(&c->out, dt, 4, ys, NULL);
    const DML_TENSOR_DESC *idx = unit_tensor_set(&c->idx, DML_TENSOR_DATA_TYPE_UINT32, 4, ys, NULL);
    memcpy(c->strides, (UINT[]){2, 2, 1}, sizeof c->strides);
    memcpy(c->window, (UINT[]){3, 2, 1}, sizeof c->window);
    memcpy(c->start, (UINT[]){1, 0, 0}, sizeof c->start);
    memcpy(c->end, (UINT[]){1, 1, 0}, sizeof c->end);
    memcpy(c->dil, (UINT[]){1, 1, 1}, sizeof c->dil);
    c->m = (DML_MAX_POOLING2_OPERATOR_DESC){in,        out,      idx,    2,     c->strides,
                                            c->window, c->start, c->end, c->dil};
    c->a = (DML_AVERAGE_POOLING1_OPERATOR_DESC){in,       out,    2,      c->strides, c->window,
                                                c->start, c->end, c->dil, 1};
    c->l = (DML_LP_POOLING1_OPERATOR_DESC){in,       out,    2,      c->strides, c->window,
                                           c->start, c->end, c->dil, 2};
}

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define MAX2(c) create(DML_OPERATOR_MAX_POOLING2, &(c).m)
#define AVG1(c) create(DML_OPERATOR_AVERAGE_POOLING1, &(c).a)
#define LP1(c) create(DML_OPERATOR_LP_POOLING1, &(c).l)

Test(pool_validate, valid_descriptions)
{
    pool c;
    static const DML_TENSOR_DATA_TYPE max_types[] = {
        F32,
        DML_TENSOR_DATA_TYPE_FLOAT16,
        DML_TENSOR_DATA_TYPE_INT64,
        DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_INT8,
        DML_TENSOR_DATA_TYPE_UINT64,
        DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,
        DML_TENSOR_DATA_TYPE_UINT8,
    };
    for (size_t i = 0; i < sizeof max_types / sizeof max_types[0]; ++i) {
        pool_init(&c, max_types[i]);
        cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    }
    pool_init(&c, DML_TENSOR_DATA_TYPE_FLOAT16);
    cr_expect_eq(AVG1(c), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(LP1(c), S_OK, "%s", dmlcl_last_error());
    /* Without indices; UINT64 indices; the older descriptors. */
    pool_init(&c, F32);
    c.m.OutputIndicesTensor = NULL;
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    pool_init(&c, F32);
    unit_tensor_set_type(&c.idx, DML_TENSOR_DATA_TYPE_UINT64);
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    DML_MAX_POOLING_OPERATOR_DESC m0 = {c.m.InputTensor, c.m.OutputTensor, 2,    c.strides,
                                        c.window,        c.start,          c.end};
    cr_expect_eq(create(DML_OPERATOR_MAX_POOLING, &m0), S_OK, "%s", dmlcl_last_error());
    DML_MAX_POOLING1_OPERATOR_DESC m1 = {c.m.InputTensor,
                                         c.m.OutputTensor,
                                         c.m.OutputIndicesTensor,
                                         2,
                                         c.strides,
                                         c.window,
                                         c.start,
                                         c.end};
    cr_expect_eq(create(DML_OPERATOR_MAX_POOLING1, &m1), S_OK, "%s", dmlcl_last_error());
    DML_AVERAGE_POOLING_OPERATOR_DESC a0 = {c.a.InputTensor, c.a.OutputTensor, 2,     c.strides,
                                            c.window,        c.start,          c.end, 0};
    cr_expect_eq(create(DML_OPERATOR_AVERAGE_POOLING, &a0), S_OK, "%s", dmlcl_last_error());
    DML_LP_POOLING_OPERATOR_DESC l0 = {c.l.InputTensor, c.l.OutputTensor, 2,     c.strides,
                                       c.window,        c.start,          c.end, 1};
    cr_expect_eq(create(DML_OPERATOR_LP_POOLING, &l0), S_OK, "%s", dmlcl_last_error());
    /* 5-D: {N, C, D, H, W} with 3 spatial axes. */
    pool_init(&c, F32);
    unit_tensor_set(&c.in, F32, 5, (UINT[]){1, 2, 4, 5, 6}, NULL);
    unit_tensor_set(&c.out, F32, 5, (UINT[]){1, 2, 2, 3, 3}, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 5, (UINT[]){1, 2, 2, 3, 3}, NULL);
    memcpy(c.strides, (UINT[]){2, 2, 2}, sizeof c.strides);
    memcpy(c.window, (UINT[]){2, 3, 2}, sizeof c.window);
    memcpy(c.start, (UINT[]){0, 1, 0}, sizeof c.start);
    memcpy(c.end, (UINT[]){0, 1, 1}, sizeof c.end);
    c.m.DimensionCount = c.a.DimensionCount = 3;
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(AVG1(c), S_OK, "%s", dmlcl_last_error());
    /* ceil_mode: one more output where the division is inexact (H: (5 + 2 - 3) / 2 exact;
     * W: (6 + 1 - 2) / 2 inexact, so 4 is also valid). */
    pool_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 4}, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, (UINT[]){1, 2, 3, 4}, NULL);
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    /* Dilations: a 2-wide window dilated by 3 spans 4 (6 + 1 - 4) / 2 + 1 = 2. */
    pool_init(&c, F32);
    c.dil[1] = 3;
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 2}, NULL);
    c.m.OutputIndicesTensor = NULL;
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(LP1(c), S_OK, "%s", dmlcl_last_error());
}

Test(pool_validate, types_and_ranks)
{
    pool c;
    pool_init(&c, DML_TENSOR_DATA_TYPE_FLOAT64);
    EXPECT(MAX2(c), E_INVALIDARG, "MAX_POOLING2", "InputTensor.DataType (FLOAT64)", "UINT8");
    pool_init(&c, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(AVG1(c), E_INVALIDARG, "AVERAGE_POOLING1", "InputTensor.DataType (INT32)",
           "FLOAT32, FLOAT16");
    EXPECT(LP1(c), E_INVALIDARG, "LP_POOLING1", "InputTensor.DataType (INT32)");
    pool_init(&c, F32);
    unit_tensor_set(&c.in, F32, 3, xs + 1, NULL);
    unit_tensor_set(&c.out, F32, 3, ys + 1, NULL);
    EXPECT(MAX2(c), E_INVALIDARG, "InputTensor.DimensionCount (3)", "must be 4");
    pool_init(&c, F32);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_FLOAT16);
    EXPECT(AVG1(c), E_INVALIDARG, "OutputTensor.DataType (FLOAT16)", "InputTensor.DataType");
    pool_init(&c, F32);
    unit_tensor_set(&c.out, F32, 5, (UINT[]){1, 1, 2, 3, 3}, NULL);
    EXPECT(AVG1(c), E_INVALIDARG, "OutputTensor.DimensionCount (5)");
    pool_init(&c, F32);
    unit_tensor_set_type(&c.idx, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(MAX2(c), E_INVALIDARG, "OutputIndicesTensor.DataType (INT32)", "UINT32 or UINT64");
    pool_init(&c, F32);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 5, (UINT[]){1, 1, 2, 3, 3}, NULL);
    EXPECT(MAX2(c), E_INVALIDARG, "OutputIndicesTensor.DimensionCount (5)");
    pool_init(&c, F32);
    c.m.DimensionCount = 3;
    EXPECT(MAX2(c), E_INVALIDARG, "DimensionCount (3)", "InputTensor.DimensionCount - 2 (2)");
}

Test(pool_validate, arrays_and_parameters)
{
    pool c;
    pool_init(&c, F32);
    c.m.Strides = NULL;
    EXPECT(MAX2(c), E_INVALIDARG, "Strides is NULL");
    pool_init(&c, F32);
    c.a.WindowSize = NULL;
    EXPECT(AVG1(c), E_INVALIDARG, "WindowSize is NULL");
    pool_init(&c, F32);
    c.l.StartPadding = NULL;
    EXPECT(LP1(c), E_INVALIDARG, "StartPadding is NULL");
    pool_init(&c, F32);
    c.m.EndPadding = NULL;
    EXPECT(MAX2(c), E_INVALIDARG, "EndPadding is NULL");
    pool_init(&c, F32);
    c.m.Dilations = NULL;
    EXPECT(MAX2(c), E_INVALIDARG, "Dilations is NULL");
    pool_init(&c, F32);
    c.strides[1] = 0;
    EXPECT(MAX2(c), E_INVALIDARG, "Strides[1] (0)", "at least 1");
    pool_init(&c, F32);
    c.window[0] = 0;
    EXPECT(AVG1(c), E_INVALIDARG, "WindowSize[0] (0)", "at least 1");
    pool_init(&c, F32);
    c.dil[0] = 0;
    EXPECT(LP1(c), E_INVALIDARG, "Dilations[0] (0)", "at least 1");
    pool_init(&c, F32);
    c.l.P = 0;
    EXPECT(LP1(c), E_INVALIDARG, "LP_POOLING1: P (0)", "at least 1");
}

Test(pool_validate, output_sizes)
{
    pool c;
    pool_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 4, 3}, NULL);
    EXPECT(AVG1(c), E_INVALIDARG, "OutputTensor.Sizes ({1,2,4,3})", "{1,2,3,3}", "ceil_mode");
    pool_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 5}, NULL);
    EXPECT(AVG1(c), E_INVALIDARG, "OutputTensor.Sizes ({1,2,3,5})");
    pool_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 3, 3, 3}, NULL);
    EXPECT(MAX2(c), E_INVALIDARG, "OutputTensor.Sizes ({1,3,3,3})");
    pool_init(&c, F32);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, (UINT[]){1, 2, 3, 2}, NULL);
    EXPECT(MAX2(c), E_INVALIDARG, "OutputIndicesTensor.Sizes ({1,2,3,2})", "OutputTensor.Sizes");
    /* A window wider than the padded input (6 + 0 + 1 < 8): one output on that axis (DirectMLX's
     * MaxPooling sizes it so), no other size. */
    pool_init(&c, F32);
    c.window[1] = 8;
    EXPECT(MAX2(c), E_INVALIDARG, "OutputTensor.Sizes ({1,2,3,3})", "{1,2,3,1}",
           "1 where the window is larger than the padded input");
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 1}, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, (UINT[]){1, 2, 3, 1}, NULL);
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(AVG1(c), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(LP1(c), S_OK, "%s", dmlcl_last_error());
    pool_init(&c, F32);
    c.window[1] = 3;
    c.dil[1] = 3; /* (3 - 1) * 3 + 1 = 7 <= 7 */
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 1}, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, (UINT[]){1, 2, 3, 1}, NULL);
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    c.dil[1] = 0x10000; /* 2 * 65536 + 1 > 7: one output; */
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    c.window[1] = 0x10002; /* (65537 * 65536 + 1) past a UINT: refused */
    EXPECT(MAX2(c), E_INVALIDARG, "spatial axis 1", "4294967295");
    c.window[1] = 3;
    c.dil[1] = 4; /* 9 > 7: one output */
    cr_expect_eq(MAX2(c), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 2, 3, 2}, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, (UINT[]){1, 2, 3, 2}, NULL);
    EXPECT(MAX2(c), E_INVALIDARG, "OutputTensor.Sizes ({1,2,3,2})", "{1,2,3,1}");
}

/* The family's launch per device class, from the description lower wrote. */
Test(pool_validate, launch)
{
    pool c;
    pool_init(&c, DML_TENSOR_DATA_TYPE_FLOAT16);
    DML_OPERATOR_DESC d = {DML_OPERATOR_MAX_POOLING2, &c.m};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->computed);
    cr_expect_eq(st->compute.n_tensors, 3);
    dmli_device_desc dev = {.device_class = DMLCL_DEVICE_CLASS_CPU,
                            .compute_units = 4,
                            .max_work_group_size = 1024,
                            .max_item_sizes = {1024, 1024, 1024}};
    dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &dev, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "IN_HALF"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "INDICES"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IDX_T"), "uint");
    cr_expect_str_eq(dmli_options_value(&l.defs, "FLAT"), "0");
    cr_expect_eq(l.global[0], 1); /* 3 outputs along W, 8 an item */
    cr_expect_eq(l.global[1], 3);
    cr_expect_eq(l.global[2], 2); /* N * C = 2, a work-item a group */
    cr_expect_eq(l.local[2], 1);
    dev.device_class = DMLCL_DEVICE_CLASS_GPU;
    dmli_launch_compute(&st->compute, &dev, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "FLAT"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "VEC"), "1");
    cr_expect_eq(l.global[0], 64); /* 18 outputs, a group of 64 */
    cr_expect_eq(l.local[0], 64);
    /* A graph's view as the input (NHWC strides, an offset): the table's input strides on
     * {N, C, D, H, W}; the outputs are not restrided. */
    dmli_compute cp = st->compute;
    const int64_t nhwc[4] = {60, 1, 12, 2};
    cr_assert(dmli_compute_restride(&cp, 0, nhwc, 7));
    cr_expect_not(dmli_compute_restride(&cp, 1, nhwc, 0));
    cr_expect_eq(cp.tensors[0].offset, 7);
    dev.device_class = DMLCL_DEVICE_CLASS_CPU;
    dmli_launch_compute(&cp, &dev, &l);
    cr_expect_eq(l.table[DMLI_POOL_STRIDE(0, 0)], 60);
    cr_expect_eq(l.table[DMLI_POOL_STRIDE(0, 1)], 1);
    cr_expect_eq(l.table[DMLI_POOL_STRIDE(0, 3)], 12);
    cr_expect_eq(l.table[DMLI_POOL_STRIDE(0, 4)], 2);
    cr_expect_eq(l.table[DMLI_POOL_STRIDE(1, 4)], 1); /* the output's own */
    dmlcl_operator_release(op);
}

/* Max pooling without indices on CPUs: bands (cl/pool.cl pool_band), the rows a band from the
 * staged input rows (40 slots: (rows - 1) x stride + (window - 1) x dilation + 1 of them). */
Test(pool_validate, launch_band)
{
    pool c;
    pool_init(&c, F32); /* window 3 x 2, strides 2 x 2, W: 6 -> 3 */
    c.m.OutputIndicesTensor = NULL;
    const UINT tall[4] = {1, 2, 45, 6};
    c.m.InputTensor = c.a.InputTensor = unit_tensor_set(&c.in, F32, 4, tall, NULL);
    c.start[0] = c.end[0] = 0;
    dmli_device_desc dev = {.device_class = DMLCL_DEVICE_CLASS_CPU,
                            .compute_units = 4,
                            .max_work_group_size = 1024,
                            .max_item_sizes = {1024, 1024, 1024}};
    static const struct {
        UINT dil_h;
        DML_OPERATOR_TYPE type;
        uint64_t local;
        int64_t rows; /* 0: the generic kernel */
    } k[] = {
        {1, DML_OPERATOR_MAX_POOLING2, 40 * 512 * 4, 16},    /* 3 rows a window: 1 + 37 / 2 */
        {1, DML_OPERATOR_MAX_POOLING2, 40 * 512 * 4 - 1, 0}, /* the stage does not fit */
        {10, DML_OPERATOR_MAX_POOLING2, 40 * 512 * 4, 10},   /* 21 rows a window: 1 + 19 / 2 */
        {19, DML_OPERATOR_MAX_POOLING2, 40 * 512 * 4, 1},    /* 39 rows a window: 1 + 1 / 2 */
        {20, DML_OPERATOR_MAX_POOLING2, 40 * 512 * 4, 0},    /* 41 rows: not in 40 slots */
        {1, DML_OPERATOR_AVERAGE_POOLING1, 40 * 512 * 4, 0}, /* max pooling only */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        c.dil[0] = k[i].dil_h;
        UINT oh = (45 - (2 * k[i].dil_h + 1)) / 2 + 1; /* 22, 13, 4, 3 */
        const UINT ys1[4] = {1, 2, oh, 3};
        c.m.OutputTensor = c.a.OutputTensor = unit_tensor_set(&c.out, F32, 4, ys1, NULL);
        DML_OPERATOR_DESC d = {k[i].type, k[i].type == DML_OPERATOR_MAX_POOLING2
                                              ? (const void *)&c.m
                                              : (const void *)&c.a};
        dmlcl_operator *op = NULL;
        cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "case %zu: %s", i,
                     dmlcl_last_error());
        dev.local_mem_size = k[i].local;
        static dmli_compute_launch l;
        dmli_launch_compute(&dmli_operator_state(op)->compute, &dev, &l);
        dmlcl_operator_release(op);
        if (!k[i].rows) {
            cr_expect_str_eq(l.kernel, "pool", "case %zu", i);
            continue;
        }
        cr_expect_str_eq(l.kernel, "pool_band", "case %zu", i);
        cr_expect_str_eq(dmli_options_value(&l.defs, "BAND"), "1");
        cr_expect_str_eq(dmli_options_value(&l.defs, "SLOTS"), "40");
        cr_expect_str_eq(dmli_options_value(&l.defs, "BSW"), "2"); /* W stride 2, packed */
        cr_expect_null(dmli_options_value(&l.defs, "VLOAD"));
        cr_expect_eq(l.table[DMLI_POOL_BAND_ROWS], k[i].rows, "case %zu", i);
        cr_expect_eq(l.global[0], 1); /* 3 columns: a band of 512 */
        cr_expect_eq(l.global[1], (oh + k[i].rows - 1) / k[i].rows, "case %zu", i);
        cr_expect_eq(l.global[2], 2); /* N * C */
        cr_expect(l.local[0] == 1 && l.local[1] == 1 && l.local[2] == 1);
    }
}

/* The oracle on a 1x1x3x4 input worked by hand. */
Test(pool_validate, oracle)
{
    float x[12] = {1, 5, -2, 0, 3, NAN, 4, -0.0f, 7, 7, -1, 2};
    float y[4];
    uint32_t ind[4];
    UINT xsz[4] = {1, 1, 3, 4}, ysz[4] = {1, 1, 2, 2};
    ref_tensor in = ref_tensor_view(F32, 4, xsz, NULL, x);
    ref_tensor out = ref_tensor_view(F32, 4, ysz, NULL, y);
    ref_tensor idx = ref_tensor_view(DML_TENSOR_DATA_TYPE_UINT32, 4, ysz, NULL, ind);
    ref_pool_args a = {
        .op = REF_POOL_MAX, .dims = 2, .strides = {1, 2}, .window = {2, 2}, .dilations = {1, 1}};
    cr_assert(ref_pool(&a, &in, &out, &idx));
    /* {1,5,3,NaN} -> 5 @1; {-2,0,4,-0} -> 4 @6; {3,NaN,7,7} -> 7 @8; {4,-0,-1,2} -> 4 @6. */
    cr_expect_eq(y[0], 5);
    cr_expect_eq(ind[0], 1);
    cr_expect_eq(y[1], 4);
    cr_expect_eq(ind[1], 6);
    cr_expect_eq(y[2], 7);
    cr_expect_eq(ind[2], 8);
    cr_expect_eq(ind[3], 6);
    /* Average with a start padding of 1 on W: the first window {pad, 1, pad, 3}. */
    a.op = REF_POOL_AVERAGE;
    a.start[1] = 1;
    a.strides[1] = 3;
    cr_assert(ref_pool(&a, &in, &out, NULL));
    cr_expect_eq(y[0], 2.0f); /* (1 + 3) / 2 */
    a.include_padding = true;
    cr_assert(ref_pool(&a, &in, &out, NULL));
    cr_expect_eq(y[0], 1.0f); /* (1 + 3) / 4 */
    cr_expect_eq(y[1], 0.5f); /* (-2 + 0 + 4 - 0) / 4 */
    a.op = REF_POOL_LP;
    a.p = 2;
    a.include_padding = false;
    cr_assert(ref_pool(&a, &in, &out, NULL));
    cr_expect_float_eq(y[0], sqrtf(10), 1e-6);
}
