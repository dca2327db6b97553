/* SPDX-License-Identifier: MIT */
/*
 * The activations' and ELEMENT_WISE_ADD1's validation on the host (no OpenCL device): the type
 * tables (every feature level up to 6.4), SOFTPLUS's Steepness, PARAMETERIZED_RELU's
 * SlopeTensor, and the rules of a fused activation ("Using fused operators": the activations
 * DirectML fuses, their tensors NULL; ADD1's page: FLOAT32 or FLOAT16 output only). Each broken
 * rule checks the HRESULT and that the message names the operator, the field and the value.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

static const UINT sizes[2] = {3, 5};

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* A one-input activation of `type` on tensors of dt with params a, b. */
static HRESULT unary(DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE dt, FLOAT a, FLOAT b)
{
    unit_tensor in, out;
    DML_ACTIVATION_LINEAR_OPERATOR_DESC d = {unit_tensor_set(&in, dt, 2, sizes, NULL),
                                             unit_tensor_set(&out, dt, 2, sizes, NULL), a, b};
    return create(type, &d);
}

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

Test(activation_validate, type_tables)
{
    static const DML_OPERATOR_TYPE float_only[] = {DML_OPERATOR_ACTIVATION_CELU,
                                                   DML_OPERATOR_ACTIVATION_ELU,
                                                   DML_OPERATOR_ACTIVATION_GELU,
                                                   DML_OPERATOR_ACTIVATION_HARD_SIGMOID,
                                                   DML_OPERATOR_ACTIVATION_HARD_SWISH,
                                                   DML_OPERATOR_ACTIVATION_IDENTITY,
                                                   DML_OPERATOR_ACTIVATION_LEAKY_RELU,
                                                   DML_OPERATOR_ACTIVATION_LINEAR,
                                                   DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS,
                                                   DML_OPERATOR_ACTIVATION_SCALED_ELU,
                                                   DML_OPERATOR_ACTIVATION_SCALED_TANH,
                                                   DML_OPERATOR_ACTIVATION_SIGMOID,
                                                   DML_OPERATOR_ACTIVATION_SOFTPLUS,
                                                   DML_OPERATOR_ACTIVATION_SOFTSIGN,
                                                   DML_OPERATOR_ACTIVATION_SWISH,
                                                   DML_OPERATOR_ACTIVATION_TANH,
                                                   DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU};
    for (size_t i = 0; i < sizeof float_only / sizeof float_only[0]; ++i) {
        cr_expect_eq(unary(float_only[i], F32, 1, 1), S_OK, "%s", dmlcl_last_error());
        cr_expect_eq(unary(float_only[i], DML_TENSOR_DATA_TYPE_FLOAT16, 1, 1), S_OK, "%s",
                     dmlcl_last_error());
        EXPECT(unary(float_only[i], DML_TENSOR_DATA_TYPE_INT32, 1, 1), E_INVALIDARG,
               "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
        EXPECT(unary(float_only[i], DML_TENSOR_DATA_TYPE_FLOAT64, 1, 1), E_INVALIDARG,
               "InputTensor.DataType (FLOAT64)");
    }
    /* RELU: INT32, INT16, INT8 from 5.1; no unsigned, no 64-bit. */
    cr_expect_eq(unary(DML_OPERATOR_ACTIVATION_RELU, DML_TENSOR_DATA_TYPE_INT8, 0, 0), S_OK);
    EXPECT(unary(DML_OPERATOR_ACTIVATION_RELU, DML_TENSOR_DATA_TYPE_UINT32, 0, 0), E_INVALIDARG,
           "ACTIVATION_RELU", "UINT32", "FLOAT32, FLOAT16, INT32, INT16, INT8");
    EXPECT(unary(DML_OPERATOR_ACTIVATION_RELU, DML_TENSOR_DATA_TYPE_INT64, 0, 0), E_INVALIDARG,
           "INT64");
    /* SHRINK: unsigned too, from 5.1. */
    cr_expect_eq(unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_UINT16, 0, 0), S_OK);
    EXPECT(unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_UINT64, 0, 0), E_INVALIDARG,
           "ACTIVATION_SHRINK", "UINT64");
}

Test(activation_validate, shapes_and_types_agree)
{
    unit_tensor in, out;
    UINT other[2] = {3, 4};
    DML_ACTIVATION_ELU_OPERATOR_DESC d = {unit_tensor_set(&in, F32, 2, sizes, NULL),
                                          unit_tensor_set(&out, F32, 2, other, NULL), 1};
    EXPECT(create(DML_OPERATOR_ACTIVATION_ELU, &d), E_INVALIDARG, "ACTIVATION_ELU",
           "OutputTensor.Sizes");
    unit_tensor_set(&out, DML_TENSOR_DATA_TYPE_FLOAT16, 2, sizes, NULL);
    EXPECT(create(DML_OPERATOR_ACTIVATION_ELU, &d), E_INVALIDARG, "OutputTensor.DataType");
}

Test(activation_validate, softplus_steepness)
{
    cr_expect_eq(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, 1, 0), S_OK);
    /* Below 1 from feature level 6.4; not 0, not NaN or infinite. */
    cr_expect_eq(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, 0.5f, 0), S_OK);
    cr_expect_eq(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, -2.0f, 0), S_OK);
    EXPECT(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, 0.0f, 0), E_INVALIDARG,
           "ACTIVATION_SOFTPLUS", "Steepness (0)", "not 0");
    EXPECT(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, NAN, 0), E_INVALIDARG, "Steepness (nan)");
    EXPECT(unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, INFINITY, 0), E_INVALIDARG,
           "Steepness (inf)");
}

Test(activation_validate, parameterized_relu_slope)
{
    unit_tensor in, slope, out;
    DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC d = {
        unit_tensor_set(&in, DML_TENSOR_DATA_TYPE_INT16, 2, sizes, NULL),
        unit_tensor_set(&slope, DML_TENSOR_DATA_TYPE_INT16, 2, sizes, (UINT[]){0, 1}),
        unit_tensor_set(&out, DML_TENSOR_DATA_TYPE_INT16, 2, sizes, NULL)};
    cr_expect_eq(create(DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU, &d), S_OK, "%s",
                 dmlcl_last_error());
    unit_tensor_set_type(&slope, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(create(DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU, &d), E_INVALIDARG,
           "ACTIVATION_PARAMETERIZED_RELU", "SlopeTensor.DataType");
    unit_tensor_set(&slope, DML_TENSOR_DATA_TYPE_INT16, 2, (UINT[]){1, 5}, NULL);
    EXPECT(create(DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU, &d), E_INVALIDARG,
           "SlopeTensor.Sizes");
    unit_tensor_set(&in, DML_TENSOR_DATA_TYPE_UINT8, 2, sizes, NULL);
    EXPECT(create(DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU, &d), E_INVALIDARG,
           "InputTensor.DataType (UINT8)");
}

/* ---- ADD1 and its FusedActivation ------------------------------------------------------ */

typedef struct add1 {
    unit_tensor a, b, out;
    DML_ACTIVATION_LINEAR_OPERATOR_DESC act; /* every fusable activation's layout */
    DML_OPERATOR_DESC fused;
    DML_ELEMENT_WISE_ADD1_OPERATOR_DESC d;
} add1;

static void add1_init(add1 *c, DML_TENSOR_DATA_TYPE dt, DML_OPERATOR_TYPE fused)
{
    memset(c, 0, sizeof *c);
    c->d.ATensor = unit_tensor_set(&c->a, dt, 2, sizes, NULL);
    c->d.BTensor = unit_tensor_set(&c->b, dt, 2, sizes, (UINT[]){0, 1});
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 2, sizes, NULL);
    c->act.Alpha = 1;
    c->act.Beta = 0.5f;
    c->fused = (DML_OPERATOR_DESC){fused, &c->act};
    c->d.FusedActivation = fused ? &c->fused : NULL;
}

Test(activation_validate, add1_types)
{
    static const DML_TENSOR_DATA_TYPE ok[] = {F32,
                                              DML_TENSOR_DATA_TYPE_FLOAT16,
                                              DML_TENSOR_DATA_TYPE_INT32,
                                              DML_TENSOR_DATA_TYPE_INT16,
                                              DML_TENSOR_DATA_TYPE_INT8,
                                              DML_TENSOR_DATA_TYPE_UINT32,
                                              DML_TENSOR_DATA_TYPE_UINT16,
                                              DML_TENSOR_DATA_TYPE_UINT8};
    add1 c;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
        add1_init(&c, ok[i], DML_OPERATOR_INVALID);
        cr_expect_eq(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), S_OK, "%s", dmlcl_last_error());
    }
    add1_init(&c, DML_TENSOR_DATA_TYPE_INT64, DML_OPERATOR_INVALID);
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG, "ELEMENT_WISE_ADD1",
           "ATensor.DataType (INT64)");
}

Test(activation_validate, add1_fusable_activations)
{
    static const DML_OPERATOR_TYPE fusable[] = {
        DML_OPERATOR_ACTIVATION_ELU,         DML_OPERATOR_ACTIVATION_HARD_SIGMOID,
        DML_OPERATOR_ACTIVATION_IDENTITY,    DML_OPERATOR_ACTIVATION_LEAKY_RELU,
        DML_OPERATOR_ACTIVATION_LINEAR,      DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS,
        DML_OPERATOR_ACTIVATION_RELU,        DML_OPERATOR_ACTIVATION_SCALED_ELU,
        DML_OPERATOR_ACTIVATION_SCALED_TANH, DML_OPERATOR_ACTIVATION_SIGMOID,
        DML_OPERATOR_ACTIVATION_SOFTPLUS,    DML_OPERATOR_ACTIVATION_SOFTSIGN,
        DML_OPERATOR_ACTIVATION_TANH,        DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU,
        DML_OPERATOR_ACTIVATION_SHRINK,      DML_OPERATOR_ACTIVATION_CELU,
        DML_OPERATOR_ACTIVATION_GELU};
    add1 c;
    for (size_t i = 0; i < sizeof fusable / sizeof fusable[0]; ++i) {
        add1_init(&c, DML_TENSOR_DATA_TYPE_FLOAT16, fusable[i]);
        cr_expect_eq(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), S_OK, "%d: %s", (int)fusable[i],
                     dmlcl_last_error());
    }
    static const DML_OPERATOR_TYPE not_fusable[] = {
        DML_OPERATOR_ACTIVATION_SWISH, DML_OPERATOR_ACTIVATION_HARD_SWISH,
        DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU, DML_OPERATOR_ACTIVATION_SOFTMAX,
        DML_OPERATOR_ELEMENT_WISE_ADD};
    for (size_t i = 0; i < sizeof not_fusable / sizeof not_fusable[0]; ++i) {
        add1_init(&c, F32, not_fusable[i]);
        EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG, "ELEMENT_WISE_ADD1",
               "FusedActivation->Type", "not an activation DirectML fuses");
    }
    add1_init(&c, F32, (DML_OPERATOR_TYPE)100000);
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG, "FusedActivation->Type",
           "100000");
}

Test(activation_validate, add1_fused_rules)
{
    add1 c;
    add1_init(&c, F32, DML_OPERATOR_ACTIVATION_RELU);
    c.fused.Desc = NULL;
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG, "FusedActivation->Desc",
           "DML_ACTIVATION_RELU_OPERATOR_DESC");
    add1_init(&c, F32, DML_OPERATOR_ACTIVATION_RELU);
    c.act.InputTensor = &c.a.desc;
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG,
           "FusedActivation->Desc->InputTensor", "must be NULL");
    add1_init(&c, F32, DML_OPERATOR_ACTIVATION_RELU);
    c.act.OutputTensor = &c.out.desc;
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG,
           "FusedActivation->Desc->OutputTensor", "must be NULL");
    /* A fused activation on an integer output: ADD1's page allows FLOAT32 and FLOAT16 only. */
    add1_init(&c, DML_TENSOR_DATA_TYPE_INT32, DML_OPERATOR_ACTIVATION_RELU);
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG, "FusedActivation",
           "OutputTensor.DataType FLOAT32 or FLOAT16, not INT32");
    /* The activation's own rules hold fused. */
    add1_init(&c, F32, DML_OPERATOR_ACTIVATION_SOFTPLUS);
    c.act.Alpha = 0.0f; /* SOFTPLUS's Steepness */
    EXPECT(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), E_INVALIDARG,
           "FusedActivation->Desc->Steepness (0)", "not 0");
    c.act.Alpha = 0.25f; /* below 1: feature level 6.4 */
    cr_expect_eq(create(DML_OPERATOR_ELEMENT_WISE_ADD1, &c.d), S_OK, "%s", dmlcl_last_error());
}
