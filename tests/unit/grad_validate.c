/* SPDX-License-Identifier: MIT */
/*
 * Validation of DirectML's element-wise training gradients (ACTIVATION_RELU_GRAD,
 * ELEMENT_WISE_CLIP_GRAD, ELEMENT_WISE_CLIP_GRAD1; src/ops/elementwise_math.c) on the host: each
 * type table (every type taken, one refused naming the field and the table), one rule each:
 * InputGradientTensor's and OutputGradientTensor's DataType, DimensionCount and Sizes those of
 * InputTensor, CLIP_GRAD1's MinMaxDataType the output's type, a missing tensor, 1 to 8
 * dimensions; in place over InputTensor accepted.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

static const UINT sizes[3] = {2, 3, 4};

typedef struct grad_case {
    unit_tensor t[3];
    union {
        DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC relu;
        DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC clip;
        DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC clip1;
    } d;
    DML_OPERATOR_DESC op;
} grad_case;

/* InputTensor, InputGradientTensor and OutputGradientTensor of type ty and sizes {2,3,4};
 * CLIP_GRAD1's MinMaxDataType ty, bounds 0 and 1 (CLIP_GRAD's too). */
static void setup(grad_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE ty)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c->d;
    for (int i = 0; i < 3; ++i)
        members[i] = unit_tensor_set(&c->t[i], ty, 3, sizes, NULL);
    if (type == DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD)
        c->d.clip.Max = 1;
    if (type == DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1) {
        c->d.clip1.MinMaxDataType = ty;
        c->d.clip1.Max.UInt8 = 1;
    }
    c->op.Type = type;
    c->op.Desc = &c->d;
}

static HRESULT create(const grad_case *c)
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

static const DML_TENSOR_DATA_TYPE ten[10] = {F32, F16, I64, I32, I16, I8, U64, U32, U16, U8};

Test(grad_validate, type_tables)
{
    grad_case c;
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, F32);
    OK(&c);
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, F16);
    OK(&c);
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, I32);
    FAILS(&c, E_INVALIDARG, "ACTIVATION_RELU_GRAD", "InputTensor.DataType (INT32)", "is not one",
          "FLOAT32, FLOAT16");
    for (int i = 0; i < 10; ++i) {
        setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, ten[i]);
        OK(&c);
        setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, ten[i]);
        OK(&c);
    }
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, F64);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD", "InputTensor.DataType (FLOAT64)",
          "is not one");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, F64);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD1", "InputTensor.DataType (FLOAT64)",
          "is not one");
}

Test(grad_validate, tensor_rules)
{
    grad_case c;
    /* InputGradientTensor of another type, rank or size. */
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, F32);
    unit_tensor_set_type(&c.t[1], F16);
    FAILS(&c, E_INVALIDARG, "ACTIVATION_RELU_GRAD", "InputGradientTensor.DataType", "FLOAT16");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, I32);
    c.d.clip.InputGradientTensor = unit_tensor_set(&c.t[1], I32, 2, sizes, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD", "InputGradientTensor.DimensionCount");
    const UINT other[3] = {2, 3, 5};
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, U8);
    c.d.clip1.InputGradientTensor = unit_tensor_set(&c.t[1], U8, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD1", "InputGradientTensor.Sizes");
    /* OutputGradientTensor of another type, rank or size: named as the page names it. */
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, F16);
    unit_tensor_set_type(&c.t[2], F32);
    FAILS(&c, E_INVALIDARG, "ACTIVATION_RELU_GRAD", "OutputGradientTensor.DataType", "FLOAT32");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, F32);
    c.d.clip.OutputGradientTensor =
        unit_tensor_set(&c.t[2], F32, 4, (const UINT[]){1, 2, 3, 4}, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD", "OutputGradientTensor.DimensionCount");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, F32);
    c.d.clip.OutputGradientTensor = unit_tensor_set(&c.t[2], F32, 3, other, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD", "OutputGradientTensor.Sizes");
    /* A missing tensor. */
    setup(&c, DML_OPERATOR_ACTIVATION_RELU_GRAD, F32);
    c.d.relu.InputGradientTensor = NULL;
    FAILS(&c, E_INVALIDARG, "ACTIVATION_RELU_GRAD", "InputGradientTensor");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, F32);
    c.d.clip1.OutputGradientTensor = NULL;
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD1", "OutputGradientTensor");
    /* 1 to 8 dimensions. */
    static const UINT nine[9] = {1, 1, 1, 1, 1, 1, 1, 2, 2};
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, F32);
    for (int i = 0; i < 3; ++i)
        ((const DML_TENSOR_DESC **)&c.d)[i] = unit_tensor_set(&c.t[i], F32, 9, nine, NULL);
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD", "InputTensor.DimensionCount (9)");
    for (int i = 0; i < 3; ++i)
        ((const DML_TENSOR_DESC **)&c.d)[i] = unit_tensor_set(&c.t[i], F32, 8, nine + 1, NULL);
    OK(&c);
}

Test(grad_validate, clip_grad1_min_max_type)
{
    grad_case c;
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, I16);
    c.d.clip1.MinMaxDataType = I32;
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD1", "MinMaxDataType (INT32)",
          "OutputGradientTensor.DataType (INT16)");
    setup(&c, DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, F16);
    c.d.clip1.MinMaxDataType = F32;
    FAILS(&c, E_INVALIDARG, "ELEMENT_WISE_CLIP_GRAD1", "MinMaxDataType (FLOAT32)", "FLOAT16");
}

/* ---- SLICE_GRAD ---------------------------------------------------------------------------- */

typedef struct slice_case {
    unit_tensor t[2];
    UINT offsets[3], sizes[3];
    INT strides[3];
    DML_SLICE_GRAD_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} slice_case;

/* The page's example widened to 3 dimensions: a {1, 2, 2} gradient of a {1, 4, 4} output,
 * window offsets 0, sizes 3, strides 2. */
static void slice_setup(slice_case *c, DML_TENSOR_DATA_TYPE ty)
{
    static const UINT dsz[3] = {1, 2, 2}, osz[3] = {1, 4, 4};
    memset(c, 0, sizeof *c);
    c->d.InputGradientTensor = unit_tensor_set(&c->t[0], ty, 3, dsz, NULL);
    c->d.OutputGradientTensor = unit_tensor_set(&c->t[1], ty, 3, osz, NULL);
    for (int i = 0; i < 3; ++i) {
        c->offsets[i] = 0;
        c->sizes[i] = i == 0 ? 1 : 3;
        c->strides[i] = i == 0 ? 1 : 2;
    }
    c->d.DimensionCount = 3;
    c->d.InputWindowOffsets = c->offsets;
    c->d.InputWindowSizes = c->sizes;
    c->d.InputWindowStrides = c->strides;
    c->op = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE_GRAD, &c->d};
}

static HRESULT slice_create(const slice_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define SLICE_OK(c) \
    cr_expect(SUCCEEDED(slice_create(c)), "line %d: %s", __LINE__, dmlcl_last_error())
#define SLICE_FAILS(c, ...)                                                     \
    do {                                                                        \
        const char *const needles_[] = {"SLICE_GRAD", __VA_ARGS__, NULL};       \
        unit_expect_needles(slice_create(c), E_INVALIDARG, needles_, __LINE__); \
    } while (0)

Test(grad_validate, slice_grad_types)
{
    static const DML_TENSOR_DATA_TYPE takes[11] = {F64, F32, F16, I64, I32, I16,
                                                   I8,  U64, U32, U16, U8};
    slice_case c;
    for (int i = 0; i < 11; ++i) {
        slice_setup(&c, takes[i]);
        SLICE_OK(&c);
    }
    slice_setup(&c, DML_TENSOR_DATA_TYPE_UINT4);
    cr_expect(FAILED(slice_create(&c)), "UINT4 refused");
    slice_setup(&c, F32);
    unit_tensor_set_type(&c.t[1], F16);
    SLICE_FAILS(&c, "OutputGradientTensor.DataType", "FLOAT16");
}

Test(grad_validate, slice_grad_rules)
{
    slice_case c;
    /* DimensionCount: the tensors'. */
    slice_setup(&c, F32);
    c.d.DimensionCount = 2;
    SLICE_FAILS(&c, "DimensionCount (2)", "InputGradientTensor.DimensionCount (3)");
    /* The two tensors of one rank. */
    slice_setup(&c, F32);
    c.d.OutputGradientTensor = unit_tensor_set(&c.t[1], F32, 2, (const UINT[]){4, 4}, NULL);
    SLICE_FAILS(&c, "OutputGradientTensor.DimensionCount");
    /* A list missing. */
    slice_setup(&c, F32);
    c.d.InputWindowStrides = NULL;
    SLICE_FAILS(&c, "InputWindowStrides (NULL)");
    /* An empty window. */
    slice_setup(&c, F32);
    c.sizes[1] = 0;
    SLICE_FAILS(&c, "InputWindowSizes[1] (0)", "at least 1");
    /* The window past the output. */
    slice_setup(&c, F32);
    c.offsets[2] = 2;
    SLICE_FAILS(&c, "InputWindowOffsets[2] (2) + InputWindowSizes[2] (3) = 5",
                "OutputGradientTensor.Sizes[2] (4)");
    /* A stride of 0. */
    slice_setup(&c, F32);
    c.strides[1] = 0;
    SLICE_FAILS(&c, "InputWindowStrides[1] (0)", "must not be 0");
    /* A gradient longer than the window allows: 3 elements of a window of 3 at stride 2. */
    slice_setup(&c, F32);
    c.d.InputGradientTensor = unit_tensor_set(&c.t[0], F32, 3, (const UINT[]){1, 2, 3}, NULL);
    SLICE_FAILS(&c, "InputGradientTensor.Sizes[2] (3)", "= 2");
    /* Negative strides, a shorter gradient: valid. */
    slice_setup(&c, F32);
    c.strides[1] = c.strides[2] = -2;
    SLICE_OK(&c);
    c.d.InputGradientTensor = unit_tensor_set(&c.t[0], F32, 3, (const UINT[]){1, 1, 2}, NULL);
    SLICE_OK(&c);
    /* A missing tensor. */
    slice_setup(&c, F32);
    c.d.InputGradientTensor = NULL;
    SLICE_FAILS(&c, "InputGradientTensor");
}

/* ---- AVERAGE_POOLING_GRAD, MAX_POOLING_GRAD -------------------------------------------------- */

typedef struct pool_case {
    unit_tensor t[3]; /* InputTensor (MAX), InputGradientTensor, OutputGradientTensor */
    UINT strides[2], window[2], start[2], end[2], dil[2];
    DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC avg;
    DML_MAX_POOLING_GRAD_OPERATOR_DESC max;
    DML_OPERATOR_DESC op;
} pool_case;

/* The pages' example: a {1, 1, 2, 2} gradient of a {1, 1, 3, 3} input, window 2 x 2, stride 1. */
static void pool_setup(pool_case *c, bool max, DML_TENSOR_DATA_TYPE ty)
{
    static const UINT ysz[4] = {1, 1, 2, 2}, xsz[4] = {1, 1, 3, 3};
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC *x = unit_tensor_set(&c->t[0], ty, 4, xsz, NULL);
    const DML_TENSOR_DESC *dy = unit_tensor_set(&c->t[1], ty, 4, ysz, NULL);
    const DML_TENSOR_DESC *dx = unit_tensor_set(&c->t[2], ty, 4, xsz, NULL);
    for (int i = 0; i < 2; ++i) {
        c->strides[i] = c->dil[i] = 1;
        c->window[i] = 2;
    }
    c->avg = (DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC){dy,        dx,       2,      c->strides,
                                                      c->window, c->start, c->end, 0};
    c->max = (DML_MAX_POOLING_GRAD_OPERATOR_DESC){x,         dy,       dx,     2,     c->strides,
                                                  c->window, c->start, c->end, c->dil};
    c->op = max ? (DML_OPERATOR_DESC){DML_OPERATOR_MAX_POOLING_GRAD, &c->max}
                : (DML_OPERATOR_DESC){DML_OPERATOR_AVERAGE_POOLING_GRAD, &c->avg};
}

static HRESULT pool_create(const pool_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define POOL_OK(c) cr_expect(SUCCEEDED(pool_create(c)), "line %d: %s", __LINE__, dmlcl_last_error())
#define POOL_FAILS(c, ...)                                                     \
    do {                                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};                    \
        unit_expect_needles(pool_create(c), E_INVALIDARG, needles_, __LINE__); \
    } while (0)

Test(grad_validate, pooling_grad_rules)
{
    pool_case c;
    for (int m = 0; m < 2; ++m) {
        const char *name = m ? "MAX_POOLING_GRAD" : "AVERAGE_POOLING_GRAD";
        pool_setup(&c, m, F32);
        POOL_OK(&c);
        pool_setup(&c, m, F16);
        POOL_OK(&c);
        /* Types: FLOAT32 and FLOAT16. */
        pool_setup(&c, m, I32);
        POOL_FAILS(&c, name, "InputGradientTensor.DataType (INT32)", "FLOAT32, FLOAT16");
        /* The output gradient of the incoming one's type. */
        pool_setup(&c, m, F32);
        unit_tensor_set_type(&c.t[2], F16);
        POOL_FAILS(&c, name, "OutputGradientTensor.DataType");
        /* 4 or 5 dimensions. */
        pool_setup(&c, m, F32);
        c.avg.OutputGradientTensor = c.max.OutputGradientTensor =
            unit_tensor_set(&c.t[2], F32, 3, (const UINT[]){1, 3, 3}, NULL);
        POOL_FAILS(&c, name, "OutputGradientTensor.DimensionCount (3)", "4");
        /* DimensionCount the spatial count. */
        pool_setup(&c, m, F32);
        c.avg.DimensionCount = c.max.DimensionCount = 3;
        POOL_FAILS(&c, name, "DimensionCount (3)", "- 2 (2)");
        /* Arrays: present, Strides and WindowSize at least 1. */
        pool_setup(&c, m, F32);
        c.avg.Strides = c.max.Strides = NULL;
        POOL_FAILS(&c, name, "Strides is NULL");
        pool_setup(&c, m, F32);
        c.window[1] = 0;
        POOL_FAILS(&c, name, "WindowSize[1] (0)", "at least 1");
        pool_setup(&c, m, F32);
        c.avg.EndPadding = c.max.EndPadding = NULL;
        POOL_FAILS(&c, name, "EndPadding is NULL");
        /* InputGradientTensor: the forward output's sizes ({1, 1, 2, 2}); ceil_mode's one more
         * only where the division is inexact (here it is exact). */
        pool_setup(&c, m, F32);
        c.avg.InputGradientTensor = c.max.InputGradientTensor =
            unit_tensor_set(&c.t[1], F32, 4, (const UINT[]){1, 1, 3, 2}, NULL);
        POOL_FAILS(&c, name, "InputGradientTensor.Sizes");
        /* Stride 2 over 3: (3 - 2) / 2 + 1 = 1, an inexact division: 2 (ceil_mode) and 1. */
        pool_setup(&c, m, F32);
        c.strides[0] = c.strides[1] = 2;
        c.avg.InputGradientTensor = c.max.InputGradientTensor =
            unit_tensor_set(&c.t[1], F32, 4, (const UINT[]){1, 1, 2, 2}, NULL);
        POOL_OK(&c);
        c.avg.InputGradientTensor = c.max.InputGradientTensor =
            unit_tensor_set(&c.t[1], F32, 4, (const UINT[]){1, 1, 1, 1}, NULL);
        POOL_OK(&c);
    }
    /* MAX: InputTensor of the output gradient's type and sizes; Dilations at least 1. */
    pool_setup(&c, true, F32);
    unit_tensor_set_type(&c.t[0], F16);
    POOL_FAILS(&c, "MAX_POOLING_GRAD", "InputTensor.DataType");
    pool_setup(&c, true, F32);
    c.max.InputTensor = unit_tensor_set(&c.t[0], F32, 4, (const UINT[]){1, 1, 3, 4}, NULL);
    POOL_FAILS(&c, "MAX_POOLING_GRAD", "InputTensor.Sizes");
    pool_setup(&c, true, F32);
    c.max.InputTensor = NULL;
    POOL_FAILS(&c, "MAX_POOLING_GRAD", "InputTensor");
    pool_setup(&c, true, F32);
    c.dil[0] = 0;
    POOL_FAILS(&c, "MAX_POOLING_GRAD", "Dilations[0] (0)");
    pool_setup(&c, true, F32);
    c.max.Dilations = NULL;
    POOL_FAILS(&c, "MAX_POOLING_GRAD", "Dilations is NULL");
}
