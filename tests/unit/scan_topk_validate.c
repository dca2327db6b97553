/* SPDX-License-Identifier: MIT */
/*
 * CUMULATIVE_SUMMATION's, CUMULATIVE_PRODUCT's, TOP_K's and TOP_K1's validation on the host (no
 * OpenCL device): the type tables (feature levels up to 6.4), one DataType and DimensionCount,
 * Axis, AxisDirection, K (1 to the axis's size), the outputs' sizes, and the reductions they
 * lower to (one reduced dimension, the axis; reverse, exclusive, smallest, K). Each broken rule
 * checks the HRESULT and that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static const UINT xs[4] = {2, 3, 4, 5};

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* The state an operator lowers to (released by the caller). */
static void lowered(DML_OPERATOR_TYPE type, const void *desc, dmli_op_state *st)
{
    memset(st, 0, sizeof *st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(type), desc, st), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert(st->reduced);
}

/* ---- CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT ------------------------------------------ */

typedef struct scan {
    unit_tensor in, out;
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d; /* CUMULATIVE_PRODUCT's layout too */
} scan;

static void scan_init(scan *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, xs, NULL);
    c->d.Axis = 2;
}

static const DML_OPERATOR_TYPE scans[2] = {DML_OPERATOR_CUMULATIVE_SUMMATION,
                                           DML_OPERATOR_CUMULATIVE_PRODUCT};
static const char *const scan_names[2] = {"CUMULATIVE_SUMMATION", "CUMULATIVE_PRODUCT"};

Test(scan_topk_validate, scan_types)
{
    static const DML_TENSOR_DATA_TYPE ok[] = {F32,
                                              DML_TENSOR_DATA_TYPE_FLOAT16,
                                              DML_TENSOR_DATA_TYPE_INT64,
                                              DML_TENSOR_DATA_TYPE_INT32,
                                              DML_TENSOR_DATA_TYPE_UINT64,
                                              U32};
    static const DML_TENSOR_DATA_TYPE bad[] = {
        DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_INT8,
        DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT8};
    static const char *const bad_names[] = {"FLOAT64", "INT16", "INT8", "UINT16", "UINT8"};
    scan c;
    for (int s = 0; s < 2; ++s) {
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
            scan_init(&c, ok[i]);
            cr_expect_eq(create(scans[s], &c.d), S_OK, "%s", dmlcl_last_error());
        }
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            scan_init(&c, bad[i]);
            EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "InputTensor.DataType",
                   bad_names[i], "FLOAT32, FLOAT16, INT64, INT32, UINT64, UINT32");
        }
    }
}

Test(scan_topk_validate, scan_rules)
{
    scan c;
    for (int s = 0; s < 2; ++s) {
        scan_init(&c, F32);
        unit_tensor_set_type(&c.out, U32);
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "OutputTensor.DataType",
               "(UINT32)", "InputTensor.DataType (FLOAT32)");
        scan_init(&c, F32);
        unit_tensor_set(&c.out, F32, 3, xs, NULL);
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, "OutputTensor.DimensionCount (3)",
               "InputTensor.DimensionCount (4)");
        scan_init(&c, F32);
        unit_tensor_set(&c.out, F32, 4, (UINT[]){2, 3, 5, 4}, NULL);
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, "OutputTensor.Sizes", "{2,3,5,4}",
               "InputTensor.Sizes");
        scan_init(&c, F32);
        c.d.Axis = 4;
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "Axis (4)",
               "InputTensor.DimensionCount (4)");
        scan_init(&c, F32);
        c.d.AxisDirection = (DML_AXIS_DIRECTION)2;
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "AxisDirection (2)");
        scan_init(&c, F32);
        c.d.InputTensor = NULL;
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "InputTensor");
        scan_init(&c, F32);
        c.d.OutputTensor = NULL;
        EXPECT(create(scans[s], &c.d), E_INVALIDARG, scan_names[s], "OutputTensor");
        /* Any BOOL value is true; rank 1 and 8. */
        scan_init(&c, F32);
        c.d.HasExclusiveSum = 7;
        c.d.AxisDirection = DML_AXIS_DIRECTION_DECREASING;
        cr_expect_eq(create(scans[s], &c.d), S_OK, "%s", dmlcl_last_error());
        static const UINT x8[8] = {2, 1, 3, 1, 2, 1, 1, 4};
        unit_tensor_set(&c.in, F32, 8, x8, NULL);
        unit_tensor_set(&c.out, F32, 8, x8, NULL);
        c.d.Axis = 7;
        cr_expect_eq(create(scans[s], &c.d), S_OK, "%s", dmlcl_last_error());
        unit_tensor_set(&c.in, F32, 1, (UINT[]){9}, NULL);
        unit_tensor_set(&c.out, F32, 1, (UINT[]){9}, NULL);
        c.d.Axis = 0;
        cr_expect_eq(create(scans[s], &c.d), S_OK, "%s", dmlcl_last_error());
    }
}

Test(scan_topk_validate, scan_lowered)
{
    scan c;
    scan_init(&c, DML_TENSOR_DATA_TYPE_INT32);
    c.d.Axis = 1;
    c.d.AxisDirection = DML_AXIS_DIRECTION_DECREASING;
    c.d.HasExclusiveSum = 1;
    static dmli_op_state st;
    lowered(DML_OPERATOR_CUMULATIVE_PRODUCT, &c.d, &st);
    const dmli_reduce *r = &st.reduce;
    cr_expect_eq(r->op, DMLI_REDUCE_CUMPROD);
    cr_expect(r->reverse && r->exclusive);
    cr_expect_eq(r->rank, 4);
    for (int i = 0; i < 4; ++i) {
        cr_expect_eq(r->size[i], (int64_t)xs[i]);
        cr_expect_eq(r->reduced[i], i == 1, "dimension %d", i);
        cr_expect_eq(r->out[0].stride[i], r->in[0].stride[i]);
    }
    cr_expect_eq(r->in[0].type, DML_TENSOR_DATA_TYPE_INT32);
    cr_expect(st.in_place);
    dmli_op_state_release(&st);
    scan_init(&c, F32);
    lowered(DML_OPERATOR_CUMULATIVE_SUMMATION, &c.d, &st);
    cr_expect_eq(st.reduce.op, DMLI_REDUCE_CUMSUM);
    cr_expect(!st.reduce.reverse && !st.reduce.exclusive);
    dmli_op_state_release(&st);
}

/* ---- TOP_K, TOP_K1 --------------------------------------------------------------------- */

typedef struct topk {
    unit_tensor in, val, idx;
    DML_TOP_K1_OPERATOR_DESC d; /* TOP_K's leading members */
} topk;

static const UINT ks[4] = {2, 3, 2, 5}; /* Axis 2, K 2 */

static void topk_init(topk *c, DML_TENSOR_DATA_TYPE dt, DML_TENSOR_DATA_TYPE it)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputValueTensor = unit_tensor_set(&c->val, dt, 4, ks, NULL);
    c->d.OutputIndexTensor = unit_tensor_set(&c->idx, it, 4, ks, NULL);
    c->d.Axis = 2;
    c->d.K = 2;
    c->d.AxisDirection = DML_AXIS_DIRECTION_DECREASING;
}

/* TOP_K's descriptor from TOP_K1's. */
static HRESULT create_topk(bool one, const topk *c)
{
    if (one)
        return create(DML_OPERATOR_TOP_K1, &c->d);
    DML_TOP_K_OPERATOR_DESC d = {c->d.InputTensor, c->d.OutputValueTensor, c->d.OutputIndexTensor,
                                 c->d.Axis, c->d.K};
    return create(DML_OPERATOR_TOP_K, &d);
}

Test(scan_topk_validate, topk_types)
{
    static const DML_TENSOR_DATA_TYPE ok[] = {
        F32,
        DML_TENSOR_DATA_TYPE_FLOAT16,
        DML_TENSOR_DATA_TYPE_INT64,
        DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_INT8,
        DML_TENSOR_DATA_TYPE_UINT64,
        U32,
        DML_TENSOR_DATA_TYPE_UINT16,
        DML_TENSOR_DATA_TYPE_UINT8,
    };
    topk c;
    for (int one = 0; one < 2; ++one) {
        const char *name = one ? "TOP_K1" : "TOP_K";
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
            topk_init(&c, ok[i], i % 2 ? U32 : DML_TENSOR_DATA_TYPE_UINT64);
            cr_expect_eq(create_topk(one, &c), S_OK, "%s", dmlcl_last_error());
        }
        topk_init(&c, DML_TENSOR_DATA_TYPE_FLOAT64, U32);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "InputTensor.DataType (FLOAT64)",
               "FLOAT32, FLOAT16, INT64");
        topk_init(&c, F32, U32);
        unit_tensor_set_type(&c.val, DML_TENSOR_DATA_TYPE_FLOAT16);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputValueTensor.DataType (FLOAT16)",
               "InputTensor.DataType (FLOAT32)");
        static const DML_TENSOR_DATA_TYPE bad_idx[] = {DML_TENSOR_DATA_TYPE_INT32,
                                                       DML_TENSOR_DATA_TYPE_INT64,
                                                       DML_TENSOR_DATA_TYPE_UINT16, F32};
        static const char *const bad_names[] = {"(INT32)", "(INT64)", "(UINT16)", "(FLOAT32)"};
        for (int i = 0; i < 4; ++i) {
            topk_init(&c, F32, bad_idx[i]);
            EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputIndexTensor.DataType",
                   bad_names[i], "UINT32 or UINT64");
        }
    }
}

Test(scan_topk_validate, topk_rules)
{
    topk c;
    for (int one = 0; one < 2; ++one) {
        const char *name = one ? "TOP_K1" : "TOP_K";
        topk_init(&c, F32, U32);
        unit_tensor_set(&c.val, F32, 3, ks + 1, NULL);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputValueTensor.DimensionCount (3)",
               "InputTensor.DimensionCount (4)");
        topk_init(&c, F32, U32);
        unit_tensor_set(&c.idx, U32, 3, ks + 1, NULL);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputIndexTensor.DimensionCount (3)");
        topk_init(&c, F32, U32);
        c.d.Axis = 4;
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "Axis (4)",
               "InputTensor.DimensionCount (4)");
        topk_init(&c, F32, U32);
        c.d.K = 0;
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "K (0)", "at least 1",
               "InputTensor.Sizes[2] (4)");
        topk_init(&c, F32, U32);
        c.d.K = 5;
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "K (5)", "at most",
               "InputTensor.Sizes[2] (4)");
        /* K equal to the axis's size (ONNX's rule; the page says less than). */
        topk_init(&c, F32, U32);
        c.d.K = 4;
        unit_tensor_set(&c.val, F32, 4, xs, NULL);
        unit_tensor_set(&c.idx, U32, 4, xs, NULL);
        cr_expect_eq(create_topk(one, &c), S_OK, "%s", dmlcl_last_error());
        topk_init(&c, F32, U32);
        unit_tensor_set(&c.val, F32, 4, (UINT[]){2, 3, 3, 5}, NULL);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputValueTensor.Sizes", "{2,3,3,5}",
               "{2,3,2,5}", "Sizes[Axis] = K");
        topk_init(&c, F32, U32);
        unit_tensor_set(&c.idx, U32, 4, (UINT[]){2, 3, 2, 4}, NULL);
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputIndexTensor.Sizes", "{2,3,2,4}");
        topk_init(&c, F32, U32);
        c.d.OutputIndexTensor = NULL;
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputIndexTensor");
        topk_init(&c, F32, U32);
        c.d.OutputValueTensor = NULL;
        EXPECT(create_topk(one, &c), E_INVALIDARG, name, "OutputValueTensor");
    }
    topk_init(&c, F32, U32);
    c.d.AxisDirection = (DML_AXIS_DIRECTION)-1;
    EXPECT(create(DML_OPERATOR_TOP_K1, &c.d), E_INVALIDARG, "TOP_K1", "AxisDirection (-1)");
    c.d.AxisDirection = DML_AXIS_DIRECTION_INCREASING;
    cr_expect_eq(create(DML_OPERATOR_TOP_K1, &c.d), S_OK, "%s", dmlcl_last_error());
}

Test(scan_topk_validate, topk_lowered)
{
    topk c;
    topk_init(&c, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_UINT64);
    c.d.AxisDirection = DML_AXIS_DIRECTION_INCREASING;
    static dmli_op_state st;
    lowered(DML_OPERATOR_TOP_K1, &c.d, &st);
    const dmli_reduce *r = &st.reduce;
    cr_expect_eq(r->op, DMLI_REDUCE_TOP_K);
    cr_expect(r->smallest);
    cr_expect_eq(r->iparam[DMLI_MAP_PARAM_OP], 2);
    cr_expect_eq(r->n_outputs, 2u);
    cr_expect_eq(r->out[0].type, DML_TENSOR_DATA_TYPE_INT16);
    cr_expect_eq(r->out[1].type, DML_TENSOR_DATA_TYPE_UINT64);
    for (int i = 0; i < 4; ++i) {
        cr_expect_eq(r->size[i], (int64_t)xs[i]);
        cr_expect_eq(r->reduced[i], i == 2);
    }
    /* Packed outputs {2, 3, 2, 5}: the axis steps 5 elements (a rank), the input's 5 too. */
    cr_expect_eq(r->out[0].stride[2], 5);
    cr_expect_eq(r->out[1].stride[1], 10);
    cr_expect_eq(r->in[0].stride[1], 20);
    cr_expect(!st.in_place);
    dmli_op_state_release(&st);
    DML_TOP_K_OPERATOR_DESC d = {c.d.InputTensor, c.d.OutputValueTensor, c.d.OutputIndexTensor, 2,
                                 2};
    lowered(DML_OPERATOR_TOP_K, &d, &st);
    cr_expect(!st.reduce.smallest);
    dmli_op_state_release(&st);
}
