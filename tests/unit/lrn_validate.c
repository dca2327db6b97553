/* SPDX-License-Identifier: MIT */
/*
 * LOCAL_RESPONSE_NORMALIZATION's validation on the host (no OpenCL device): its table (FLOAT32,
 * FLOAT16, 4 dimensions), one DataType and Sizes, LocalSize at least 1, the reduction it lowers
 * to (the window's dimensions reduced: C across channels, H and W within one), and the oracle
 * (tests/ref/ref_lrn.c) on values worked by hand. Each broken rule checks the HRESULT and that
 * the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "ref_lrn.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static const UINT xs[4] = {1, 5, 3, 3};

typedef struct lrn {
    unit_tensor in, out;
    DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC d;
} lrn;

static void lrn_init(lrn *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, xs, NULL);
    c->d.CrossChannel = 1;
    c->d.LocalSize = 3;
    c->d.Alpha = 1e-4f;
    c->d.Beta = 0.75f;
    c->d.Bias = 1;
}

static HRESULT create(const lrn *c)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION, &c->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

Test(lrn_validate, rules)
{
    lrn c;
    lrn_init(&c, F32);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    lrn_init(&c, DML_TENSOR_DATA_TYPE_FLOAT16);
    c.d.CrossChannel = 0;
    c.d.LocalSize = 1;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    lrn_init(&c, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(create(&c), E_INVALIDARG, "LOCAL_RESPONSE_NORMALIZATION", "InputTensor.DataType (INT32)",
           "FLOAT32, FLOAT16");
    lrn_init(&c, F32);
    unit_tensor_set(&c.in, F32, 3, xs + 1, NULL);
    unit_tensor_set(&c.out, F32, 3, xs + 1, NULL);
    EXPECT(create(&c), E_INVALIDARG, "InputTensor.DimensionCount (3)", "must be 4");
    lrn_init(&c, F32);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_FLOAT16);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DataType (FLOAT16)",
           "InputTensor.DataType (FLOAT32)");
    lrn_init(&c, F32);
    unit_tensor_set(&c.out, F32, 3, xs + 1, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DimensionCount (3)");
    lrn_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 5, 3, 4}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.Sizes", "{1,5,3,4}", "InputTensor.Sizes");
    lrn_init(&c, F32);
    c.d.LocalSize = 0;
    EXPECT(create(&c), E_INVALIDARG, "LOCAL_RESPONSE_NORMALIZATION", "LocalSize (0)", "at least 1");
    lrn_init(&c, F32);
    c.d.InputTensor = NULL;
    EXPECT(create(&c), E_INVALIDARG, "LOCAL_RESPONSE_NORMALIZATION", "InputTensor");
}

Test(lrn_validate, lowered)
{
    lrn c;
    lrn_init(&c, F32);
    c.d.LocalSize = 5;
    static dmli_op_state st;
    for (int cross = 0; cross < 2; ++cross) {
        c.d.CrossChannel = cross;
        memset(&st, 0, sizeof st);
        cr_assert_eq(dmli_op_class_create(
                         dmli_op_class_find(DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION), &c.d, &st),
                     S_OK, "%s", dmlcl_last_error());
        const dmli_reduce *r = &st.reduce;
        cr_assert(st.reduced);
        cr_expect_eq(r->op, DMLI_REDUCE_LRN);
        cr_expect_eq(r->iparam[DMLI_MAP_PARAM_OP], 5);
        cr_expect_eq(r->param[DMLI_MAP_PARAM_OP + 1], (double)1e-4f);
        cr_expect_eq(r->param[DMLI_MAP_PARAM_OP + 2], 0.75);
        cr_expect_eq(r->param[DMLI_MAP_PARAM_BIAS], 1.0);
        for (int i = 0; i < 4; ++i)
            cr_expect_eq(r->reduced[i], cross ? i == 1 : i >= 2, "cross %d dimension %d", cross, i);
        dmli_op_state_release(&st);
    }
}

Test(lrn_validate, oracle)
{
    /* One pixel, 4 channels x = 1, 2, 3, 4; LocalSize 3 across channels: windows {0,1},
     * {0,1,2}, {1,2,3}, {2,3}; Alpha 3, Beta 1, Bias 1: y = x / (1 + s). */
    float x[4] = {1, 2, 3, 4}, y[4];
    uint32_t s4[4] = {1, 4, 1, 1};
    ref_tensor in = ref_tensor_view(F32, 4, s4, NULL, x),
               out = ref_tensor_view(F32, 4, s4, NULL, y);
    cr_assert(ref_lrn(&in, &out, true, 3, 3, 1, 1));
    const double want[4] = {1.0 / 6, 2.0 / 15, 3.0 / 30, 4.0 / 26};
    for (int i = 0; i < 4; ++i)
        cr_expect_eq(y[i], (float)want[i], "%d: %g", i, y[i]);
    /* LocalSize 4 (even): the window from i - 1 to i + 2. */
    cr_assert(ref_lrn(&in, &out, true, 4, 4, 1, 1));
    cr_expect_eq(y[0], (float)(1.0 / (1 + 1 + 4 + 9)));
    cr_expect_eq(y[3], (float)(4.0 / (1 + 9 + 16)));
    /* Within a channel: a 2x2 plane, LocalSize 3 covers all of it; Beta 0.5, Bias 2. */
    uint32_t p[4] = {1, 1, 2, 2};
    in = ref_tensor_view(F32, 4, p, NULL, x);
    out = ref_tensor_view(F32, 4, p, NULL, y);
    cr_assert(ref_lrn(&in, &out, false, 3, 3, 0.5, 2));
    cr_expect_eq(y[2], (float)(3 / sqrt(2 + 30.0)));
}
