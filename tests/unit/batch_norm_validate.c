/* SPDX-License-Identifier: MIT */
/*
 * BATCH_NORMALIZATION's validation on the host (no OpenCL device): its type table (FLOAT32,
 * FLOAT16 at every feature level up to 6.4), one DataType and DimensionCount for the six
 * tensors, the statistics' sizes (1 or the input's), the output's sizes (the input's), the
 * fused activation's rules, and the plan (a map of OP 97, statistics broadcast by 0 strides).
 * Each broken rule checks the HRESULT and that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

typedef struct bn {
    unit_tensor t[6]; /* Input, Mean, Variance, Scale, Bias, Output */
    DML_ACTIVATION_LINEAR_OPERATOR_DESC act;
    DML_OPERATOR_DESC fused;
    DML_BATCH_NORMALIZATION_OPERATOR_DESC d;
} bn;

static const UINT xs[4] = {2, 3, 4, 5}, cs[4] = {1, 3, 1, 1};

static void bn_init(bn *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->t[0], dt, 4, xs, NULL);
    c->d.MeanTensor = unit_tensor_set(&c->t[1], dt, 4, cs, NULL);
    c->d.VarianceTensor = unit_tensor_set(&c->t[2], dt, 4, cs, NULL);
    c->d.ScaleTensor = unit_tensor_set(&c->t[3], dt, 4, cs, NULL);
    c->d.BiasTensor = unit_tensor_set(&c->t[4], dt, 4, cs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->t[5], dt, 4, xs, NULL);
    c->d.Spatial = 1;
    c->d.Epsilon = 1e-5f;
}

static HRESULT create(const bn *c)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_BATCH_NORMALIZATION, &c->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

Test(batch_norm_validate, valid)
{
    bn c;
    bn_init(&c, F32);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    bn_init(&c, F16);
    c.d.Spatial = 0; /* deprecated from feature level 4.0: no effect */
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* Statistics of the input's full shape, and each its own broadcast pattern; rank 1. */
    bn_init(&c, F32);
    c.d.MeanTensor = unit_tensor_set(&c.t[1], F32, 4, xs, NULL);
    c.d.ScaleTensor = unit_tensor_set(&c.t[3], F32, 4, (UINT[]){2, 1, 4, 1}, NULL);
    c.d.BiasTensor = unit_tensor_set(&c.t[4], F32, 4, (UINT[]){1, 1, 1, 1}, NULL);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    for (int k = 0; k < 6; ++k)
        unit_tensor_set(&c.t[k], F32, 1, (UINT[]){k == 0 || k == 5 ? 7 : 1}, NULL);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* Eight dimensions. */
    static const UINT x8[8] = {1, 2, 1, 3, 1, 2, 1, 2};
    for (int k = 0; k < 6; ++k)
        unit_tensor_set(&c.t[k], F32, 8, x8, NULL);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
}

Test(batch_norm_validate, types)
{
    static const DML_TENSOR_DATA_TYPE bad[] = {
        DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT8};
    static const char *const names[] = {"FLOAT64", "INT32", "UINT8"};
    bn c;
    for (int i = 0; i < 3; ++i) {
        bn_init(&c, bad[i]);
        EXPECT(create(&c), E_INVALIDARG, "BATCH_NORMALIZATION", "InputTensor.DataType", names[i],
               "FLOAT32, FLOAT16");
    }
    static const char *const fields[] = {"MeanTensor.DataType", "VarianceTensor.DataType",
                                         "ScaleTensor.DataType", "BiasTensor.DataType",
                                         "OutputTensor.DataType"};
    for (int k = 1; k < 6; ++k) {
        bn_init(&c, F32);
        unit_tensor_set_type(&c.t[k], F16);
        EXPECT(create(&c), E_INVALIDARG, fields[k - 1], "(FLOAT16)", "InputTensor.DataType");
    }
}

Test(batch_norm_validate, ranks)
{
    static const char *const fields[] = {
        "MeanTensor.DimensionCount", "VarianceTensor.DimensionCount", "ScaleTensor.DimensionCount",
        "BiasTensor.DimensionCount", "OutputTensor.DimensionCount"};
    bn c;
    for (int k = 1; k < 6; ++k) {
        bn_init(&c, F32);
        unit_tensor_set(&c.t[k], F32, 3, k == 5 ? xs + 1 : cs + 1, NULL);
        EXPECT(create(&c), E_INVALIDARG, fields[k - 1], "(3)", "InputTensor.DimensionCount (4)");
    }
}

Test(batch_norm_validate, statistic_sizes)
{
    static const char *const fields[] = {"MeanTensor.Sizes[1]", "VarianceTensor.Sizes[1]",
                                         "ScaleTensor.Sizes[1]", "BiasTensor.Sizes[1]"};
    bn c;
    for (int k = 1; k < 5; ++k) {
        bn_init(&c, F32);
        unit_tensor_set(&c.t[k], F32, 4, (UINT[]){1, 2, 1, 1}, NULL);
        EXPECT(create(&c), E_INVALIDARG, fields[k - 1], "(2)", "must be 1 or",
               "InputTensor.Sizes[1] (3)");
    }
}

Test(batch_norm_validate, output_sizes)
{
    bn c;
    bn_init(&c, F32);
    unit_tensor_set(&c.t[5], F32, 4, (UINT[]){2, 3, 4, 6}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.Sizes", "{2,3,4,6}", "InputTensor.Sizes");
}

Test(batch_norm_validate, null_tensors)
{
    static const char *const fields[] = {"InputTensor", "MeanTensor", "VarianceTensor",
                                         "ScaleTensor", "BiasTensor", "OutputTensor"};
    for (int k = 0; k < 6; ++k) {
        bn c;
        bn_init(&c, F32);
        const DML_TENSOR_DESC **slots[6] = {&c.d.InputTensor, &c.d.MeanTensor, &c.d.VarianceTensor,
                                            &c.d.ScaleTensor, &c.d.BiasTensor, &c.d.OutputTensor};
        *slots[k] = NULL;
        EXPECT(create(&c), E_INVALIDARG, "BATCH_NORMALIZATION", fields[k]);
    }
}

Test(batch_norm_validate, fused_activation)
{
    bn c;
    bn_init(&c, F32);
    c.act.Alpha = 1;
    c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_LEAKY_RELU, &c.act};
    c.d.FusedActivation = &c.fused;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    c.fused.Type = DML_OPERATOR_ACTIVATION_SOFTMAX;
    EXPECT(create(&c), E_INVALIDARG, "BATCH_NORMALIZATION", "FusedActivation->Type",
           "not an activation DirectML fuses");
    c.fused.Type = DML_OPERATOR_ACTIVATION_RELU;
    c.fused.Desc = NULL;
    EXPECT(create(&c), E_INVALIDARG, "BATCH_NORMALIZATION", "FusedActivation->Desc");
}

/* The plan: one map of OP 97 over the input's dimensions, Epsilon its parameter, the
 * statistics' strides 0 where they broadcast. */
Test(batch_norm_validate, lowered_map)
{
    bn c;
    bn_init(&c, F32);
    c.d.Epsilon = 0.25f;
    DML_OPERATOR_DESC d = {DML_OPERATOR_BATCH_NORMALIZATION, &c.d};
    const dmli_op_class *cls = dmli_op_class_find(DML_OPERATOR_BATCH_NORMALIZATION);
    cr_assert(cls != NULL);
    static dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(cls, d.Desc, &st), S_OK, "%s", dmlcl_last_error());
    cr_assert(st.mapped);
    cr_expect_eq(st.map.op, DMLI_MAP_BATCH_NORM);
    cr_expect_eq(st.map.n_inputs, 5u);
    cr_expect_eq(st.map.param[DMLI_MAP_PARAM_OP], 0.25);
    cr_expect_eq(st.map.act, DMLI_ACT_NONE);
    dmli_op_state_release(&st);
}
