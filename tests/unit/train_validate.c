/* SPDX-License-Identifier: MIT */
/*
 * Validation of LOCAL_RESPONSE_NORMALIZATION_GRAD (src/ops/lrn_grad.c) and ADAM_OPTIMIZER
 * (src/ops/adam.c) on the host, one broken rule each, the message checked for the operator, the
 * field, its value and the rule: the type tables (FLOAT32 and FLOAT16 taken, others refused),
 * 4 dimensions, every other tensor's DataType, DimensionCount and Sizes those of the first
 * input (ADAM's TrainingStepTensor {1, 1, 1, 1} and of the parameters' type, UINT32 refused as
 * the table says), LocalSize at least 1, a missing tensor.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32

static const UINT sizes[4] = {2, 3, 4, 5}, one[4] = {1, 1, 1, 1};

typedef struct train_case {
    unit_tensor t[8];
    union {
        DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC lrn;
        DML_ADAM_OPTIMIZER_OPERATOR_DESC adam;
    } d;
    DML_OPERATOR_DESC op;
} train_case;

static void setup_lrn(train_case *c, DML_TENSOR_DATA_TYPE ty)
{
    memset(c, 0, sizeof *c);
    c->d.lrn.InputTensor = unit_tensor_set(&c->t[0], ty, 4, sizes, NULL);
    c->d.lrn.InputGradientTensor = unit_tensor_set(&c->t[1], ty, 4, sizes, NULL);
    c->d.lrn.OutputGradientTensor = unit_tensor_set(&c->t[2], ty, 4, sizes, NULL);
    c->d.lrn.CrossChannel = 1;
    c->d.lrn.LocalSize = 5;
    c->d.lrn.Alpha = 0.0001f;
    c->d.lrn.Beta = 0.75f;
    c->d.lrn.Bias = 1;
    c->op.Type = DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD;
    c->op.Desc = &c->d;
}

static void setup_adam(train_case *c, DML_TENSOR_DATA_TYPE ty)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c->d.adam;
    for (int i = 0; i < 8; ++i)
        members[i] = unit_tensor_set(&c->t[i], ty, 4, i == 4 ? one : sizes, NULL);
    c->d.adam.LearningRate = 0.001f;
    c->d.adam.Beta1 = 0.9f;
    c->d.adam.Beta2 = 0.999f;
    c->d.adam.Epsilon = 1e-8f;
    c->op.Type = DML_OPERATOR_ADAM_OPTIMIZER;
    c->op.Desc = &c->d;
}

static HRESULT create(const train_case *c)
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

#define LRN "LOCAL_RESPONSE_NORMALIZATION_GRAD"

Test(train_validate, lrn_grad_types_and_rank)
{
    train_case c;
    setup_lrn(&c, F32);
    OK(&c);
    setup_lrn(&c, F16);
    c.d.lrn.CrossChannel = 0;
    c.d.lrn.LocalSize = 1;
    OK(&c);
    setup_lrn(&c, F64);
    FAILS(&c, E_INVALIDARG, LRN ": InputTensor.DataType (FLOAT64) is not one", "FLOAT32, FLOAT16");
    setup_lrn(&c, I32);
    FAILS(&c, E_INVALIDARG, LRN ": InputTensor.DataType (INT32) is not one");
    setup_lrn(&c, F32);
    c.d.lrn.InputTensor = unit_tensor_set(&c.t[0], F32, 3, sizes, NULL);
    FAILS(&c, E_INVALIDARG, LRN ": InputTensor.DimensionCount (3) must be 4");
}

Test(train_validate, lrn_grad_tensor_rules)
{
    train_case c;
    const UINT other[4] = {2, 3, 4, 6};
    setup_lrn(&c, F32);
    unit_tensor_set_type(&c.t[1], F16);
    FAILS(&c, E_INVALIDARG, LRN ": InputGradientTensor.DataType (FLOAT16) must equal",
          "InputTensor.DataType (FLOAT32)");
    setup_lrn(&c, F32);
    c.d.lrn.InputGradientTensor = unit_tensor_set(&c.t[1], F32, 5, (UINT[]){1, 2, 3, 4, 5}, NULL);
    FAILS(&c, E_INVALIDARG, LRN ": InputGradientTensor.DimensionCount (5) must equal");
    setup_lrn(&c, F32);
    c.d.lrn.InputGradientTensor = unit_tensor_set(&c.t[1], F32, 4, other, NULL);
    FAILS(&c, E_INVALIDARG, LRN ": InputGradientTensor.Sizes", "InputTensor.Sizes");
    setup_lrn(&c, F16);
    unit_tensor_set_type(&c.t[2], F32);
    FAILS(&c, E_INVALIDARG, LRN ": OutputGradientTensor.DataType (FLOAT32) must equal");
    setup_lrn(&c, F32);
    c.d.lrn.OutputGradientTensor = unit_tensor_set(&c.t[2], F32, 2, sizes, NULL);
    FAILS(&c, E_INVALIDARG, LRN ": OutputGradientTensor.DimensionCount (2) must equal");
    setup_lrn(&c, F32);
    c.d.lrn.OutputGradientTensor = unit_tensor_set(&c.t[2], F32, 4, other, NULL);
    FAILS(&c, E_INVALIDARG, LRN ": OutputGradientTensor.Sizes", "the gradient of the input");
    setup_lrn(&c, F32);
    c.d.lrn.LocalSize = 0;
    FAILS(&c, E_INVALIDARG, LRN ": LocalSize (0) must be at least 1");
    setup_lrn(&c, F32);
    c.d.lrn.InputGradientTensor = NULL;
    FAILS(&c, E_INVALIDARG, LRN, "InputGradientTensor");
}

#define ADAM "ADAM_OPTIMIZER"

static const char *const adam_names[8] = {"InputParametersTensor",   "InputFirstMomentTensor",
                                          "InputSecondMomentTensor", "GradientTensor",
                                          "TrainingStepTensor",      "OutputParametersTensor",
                                          "OutputFirstMomentTensor", "OutputSecondMomentTensor"};

Test(train_validate, adam_types_and_rank)
{
    train_case c;
    setup_adam(&c, F32);
    OK(&c);
    setup_adam(&c, F16);
    OK(&c);
    setup_adam(&c, F64);
    FAILS(&c, E_INVALIDARG, ADAM ": InputParametersTensor.DataType (FLOAT64) is not one",
          "FLOAT32, FLOAT16");
    setup_adam(&c, F32);
    c.d.adam.InputParametersTensor = unit_tensor_set(&c.t[0], F32, 2, sizes, NULL);
    FAILS(&c, E_INVALIDARG, ADAM ": InputParametersTensor.DimensionCount (2) must be 4");
}

/* Every member but the first: of another type, of another rank, of other sizes. */
Test(train_validate, adam_tensor_rules)
{
    train_case c;
    const UINT other[4] = {2, 3, 4, 1};
    char want[160];
    for (int i = 1; i < 8; ++i) {
        const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d.adam;
        setup_adam(&c, F32);
        unit_tensor_set_type(&c.t[i], F16);
        snprintf(want, sizeof want, ADAM ": %s.DataType (FLOAT16) must equal", adam_names[i]);
        FAILS(&c, E_INVALIDARG, want, "InputParametersTensor.DataType (FLOAT32)");
        setup_adam(&c, F32);
        members[i] = unit_tensor_set(&c.t[i], F32, 3, i == 4 ? one : sizes, NULL);
        snprintf(want, sizeof want, ADAM ": %s.DimensionCount (3) must equal", adam_names[i]);
        FAILS(&c, E_INVALIDARG, want);
        setup_adam(&c, F32);
        members[i] = unit_tensor_set(&c.t[i], F32, 4, i == 4 ? sizes : other, NULL);
        snprintf(want, sizeof want, ADAM ": %s.Sizes", adam_names[i]);
        FAILS(&c, E_INVALIDARG, want, i == 4 ? "{1, 1, 1, 1}" : "InputParametersTensor.Sizes");
    }
}

Test(train_validate, adam_training_step)
{
    train_case c;
    /* UINT32, as the member's prose says, is refused: the table and constraints rule. */
    setup_adam(&c, F32);
    unit_tensor_set_type(&c.t[4], U32);
    FAILS(&c, E_INVALIDARG, ADAM ": TrainingStepTensor.DataType (UINT32) must equal",
          "InputParametersTensor.DataType (FLOAT32)");
    setup_adam(&c, F16);
    c.d.adam.TrainingStepTensor = NULL;
    FAILS(&c, E_INVALIDARG, ADAM, "TrainingStepTensor");
    setup_adam(&c, F32);
    c.d.adam.OutputSecondMomentTensor = NULL;
    FAILS(&c, E_INVALIDARG, ADAM, "OutputSecondMomentTensor");
}
