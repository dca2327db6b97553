/* SPDX-License-Identifier: MIT */
/*
 * DirectML's element-wise activations (ACTIVATION_*) and ELEMENT_WISE_ADD1, rows of the
 * element-wise engine (ops/elementwise.h). An activation is the identity map followed by its
 * activation (cl/activation.cl), read from the descriptor by ops/activation.c, the module
 * every operator with a FusedActivation shares; PARAMETERIZED_RELU reads its SlopeTensor as a
 * second input (map OP 96). ADD1 is ADD with an optional fused activation.
 *
 * Data types: the union of each operator's tables up to feature level 6.4: FLOAT32 and
 * FLOAT16 for every activation; RELU and PARAMETERIZED_RELU also INT32, INT16, INT8 and SHRINK
 * also UINT32, UINT16, UINT8 (5.1); ADD1 FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32,
 * UINT16, UINT8 (3.0; a fused activation only on FLOAT32 and FLOAT16 outputs). Semantics
 * chosen where the pages are silent: docs/operators.md.
 */
#include "ops/activation.h"
#include "ops/elementwise.h"

#define F16_F32 DMLI_EW_F16_F32
#define SMALL_SIGNED                                                                     \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT32) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT16) | \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT8))
#define SMALL_UNSIGNED                                                                     \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT32) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT16) | \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT8))

/* The ACTIVATION_* operator type of each row, which ops/activation.c reads. */
static DML_OPERATOR_TYPE row_type(const dmli_ew_row *r);

static HRESULT act_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)st;
    return dmli_activation_check(r->name, "", row_type(r), desc);
}

static void act_params(const dmli_ew_row *r, const void *desc, dmli_map *map)
{
    dmli_activation a;
    dmli_activation_read(row_type(r), desc, &a);
    dmli_activation_apply(&a, map);
}

/* ADD1's FusedActivation: validated here, applied by add1_params. */
static HRESULT add1_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    const DML_ELEMENT_WISE_ADD1_OPERATOR_DESC *d = desc;
    dmli_activation a;
    return dmli_activation_fused(r->name, "FusedActivation", d->FusedActivation,
                                 st->outputs[0].type, &a);
}

static void add1_params(const dmli_ew_row *r, const void *desc, dmli_map *map)
{
    (void)r;
    const DML_OPERATOR_DESC *fused =
        ((const DML_ELEMENT_WISE_ADD1_OPERATOR_DESC *)desc)->FusedActivation;
    dmli_activation a = {DMLI_ACT_NONE, {0, 0, 0}};
    if (fused) /* validated by add1_check */
        dmli_activation_read(fused->Type, fused->Desc, &a);
    dmli_activation_apply(&a, map);
}

static const char *const prelu_names[] = {"InputTensor", "SlopeTensor"};

#define ACT_ROW(NAME, TYPES, LIST)                                                                \
    {                                                                                             \
        .name = "ACTIVATION_" #NAME, .op = DMLI_MAP_IDENTITY, .act = DMLI_ACT_##NAME, .arity = 1, \
        .types = (TYPES), .type_list = (LIST), .check = act_check, .params = act_params           \
    }

static const dmli_ew_row rows[] = {
    ACT_ROW(CELU, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(ELU, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(GELU, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(HARD_SIGMOID, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(HARD_SWISH, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(IDENTITY, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(LEAKY_RELU, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(LINEAR, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(PARAMETRIC_SOFTPLUS, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(RELU, F16_F32 | SMALL_SIGNED, "FLOAT32, FLOAT16, INT32, INT16, INT8"),
    ACT_ROW(SCALED_ELU, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(SCALED_TANH, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(SHRINK, F16_F32 | SMALL_SIGNED | SMALL_UNSIGNED,
            "FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32, UINT16, UINT8"),
    ACT_ROW(SIGMOID, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(SOFTPLUS, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(SOFTSIGN, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(SWISH, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(TANH, F16_F32, "FLOAT32, FLOAT16"),
    ACT_ROW(THRESHOLDED_RELU, F16_F32, "FLOAT32, FLOAT16"),
    {.name = "ACTIVATION_PARAMETERIZED_RELU",
     .op = DMLI_MAP_PARAMETERIZED_RELU,
     .arity = 2,
     .input_names = prelu_names,
     .types = F16_F32 | SMALL_SIGNED,
     .type_list = "FLOAT32, FLOAT16, INT32, INT16, INT8"},
    {.name = "ELEMENT_WISE_ADD1",
     .op = DMLI_MAP_ADD,
     .arity = 2,
     .types = F16_F32 | SMALL_SIGNED | SMALL_UNSIGNED,
     .type_list = "FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32, UINT16, UINT8",
     .check = add1_check,
     .params = add1_params},
};

enum {
    ROW_CELU,
    ROW_ELU,
    ROW_GELU,
    ROW_HARD_SIGMOID,
    ROW_HARD_SWISH,
    ROW_IDENTITY,
    ROW_LEAKY_RELU,
    ROW_LINEAR,
    ROW_PARAMETRIC_SOFTPLUS,
    ROW_RELU,
    ROW_SCALED_ELU,
    ROW_SCALED_TANH,
    ROW_SHRINK,
    ROW_SIGMOID,
    ROW_SOFTPLUS,
    ROW_SOFTSIGN,
    ROW_SWISH,
    ROW_TANH,
    ROW_THRESHOLDED_RELU,
    ROW_PARAMETERIZED_RELU,
    ROW_ADD1
};

static const DML_OPERATOR_TYPE row_types[] = {
    DML_OPERATOR_ACTIVATION_CELU,
    DML_OPERATOR_ACTIVATION_ELU,
    DML_OPERATOR_ACTIVATION_GELU,
    DML_OPERATOR_ACTIVATION_HARD_SIGMOID,
    DML_OPERATOR_ACTIVATION_HARD_SWISH,
    DML_OPERATOR_ACTIVATION_IDENTITY,
    DML_OPERATOR_ACTIVATION_LEAKY_RELU,
    DML_OPERATOR_ACTIVATION_LINEAR,
    DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS,
    DML_OPERATOR_ACTIVATION_RELU,
    DML_OPERATOR_ACTIVATION_SCALED_ELU,
    DML_OPERATOR_ACTIVATION_SCALED_TANH,
    DML_OPERATOR_ACTIVATION_SHRINK,
    DML_OPERATOR_ACTIVATION_SIGMOID,
    DML_OPERATOR_ACTIVATION_SOFTPLUS,
    DML_OPERATOR_ACTIVATION_SOFTSIGN,
    DML_OPERATOR_ACTIVATION_SWISH,
    DML_OPERATOR_ACTIVATION_TANH,
    DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU,
};

static DML_OPERATOR_TYPE row_type(const dmli_ew_row *r)
{
    return row_types[r - rows];
}

DMLI_EW_OP(act_celu, rows, ROW_CELU)
DMLI_EW_OP(act_elu, rows, ROW_ELU)
DMLI_EW_OP(act_gelu, rows, ROW_GELU)
DMLI_EW_OP(act_hard_sigmoid, rows, ROW_HARD_SIGMOID)
DMLI_EW_OP(act_hard_swish, rows, ROW_HARD_SWISH)
DMLI_EW_OP(act_identity, rows, ROW_IDENTITY)
DMLI_EW_OP(act_leaky_relu, rows, ROW_LEAKY_RELU)
DMLI_EW_OP(act_linear, rows, ROW_LINEAR)
DMLI_EW_OP(act_parametric_softplus, rows, ROW_PARAMETRIC_SOFTPLUS)
DMLI_EW_OP(act_relu, rows, ROW_RELU)
DMLI_EW_OP(act_scaled_elu, rows, ROW_SCALED_ELU)
DMLI_EW_OP(act_scaled_tanh, rows, ROW_SCALED_TANH)
DMLI_EW_OP(act_shrink, rows, ROW_SHRINK)
DMLI_EW_OP(act_sigmoid, rows, ROW_SIGMOID)
DMLI_EW_OP(act_softplus, rows, ROW_SOFTPLUS)
DMLI_EW_OP(act_softsign, rows, ROW_SOFTSIGN)
DMLI_EW_OP(act_swish, rows, ROW_SWISH)
DMLI_EW_OP(act_tanh, rows, ROW_TANH)
DMLI_EW_OP(act_thresholded_relu, rows, ROW_THRESHOLDED_RELU)
DMLI_EW_OP(act_parameterized_relu, rows, ROW_PARAMETERIZED_RELU)
DMLI_EW_OP(ew_add1, rows, ROW_ADD1)
