/* SPDX-License-Identifier: MIT */
/*
 * Validation and lowering of the softmax family (src/ops/softmax.c) and the normalisations
 * (src/ops/mvn.c) on the host: every rule's breach is its error naming the field, the value
 * and the rule; valid descriptions lower to the reduction the kernel runs (which dimensions
 * are reduced, every tensor's strides, scale and bias broadcast, the parameters).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "internal.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32

/* One descriptor of any of the ten operators and its tensors. */
typedef struct norm_case {
    unit_tensor in, scale, bias, out;
    UINT axes[8];
    DML_ACTIVATION_RELU_OPERATOR_DESC relu;
    DML_ACTIVATION_SOFTMAX_OPERATOR_DESC softmax_act;
    DML_OPERATOR_DESC fused;
    union {
        DML_ACTIVATION_SOFTMAX_OPERATOR_DESC softmax;
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC softmax1;
        DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC mvn;
        DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC mvn1;
        DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC mvn2;
        DML_LP_NORMALIZATION_OPERATOR_DESC lp;
    } d;
    DML_OPERATOR_DESC op;
} norm_case;

static const UINT sizes4[4] = {2, 3, 4, 5};

/* A 1.0 softmax-family descriptor (type: SOFTMAX, LOG_SOFTMAX or HARDMAX). */
static void set_softmax(norm_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE ty, UINT rank,
                        const UINT *sizes)
{
    memset(c, 0, sizeof *c);
    c->d.softmax.InputTensor = unit_tensor_set(&c->in, ty, rank, sizes, NULL);
    c->d.softmax.OutputTensor = unit_tensor_set(&c->out, ty, rank, sizes, NULL);
    c->op.Type = type;
    c->op.Desc = &c->d;
}

/* A *1 descriptor with Axes. */
static void set_softmax1(norm_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE ty, UINT rank,
                         const UINT *sizes, UINT n_axes, const UINT *axes)
{
    set_softmax(c, type, ty, rank, sizes);
    if (n_axes)
        memcpy(c->axes, axes, n_axes * sizeof *axes);
    c->d.softmax1.AxisCount = n_axes;
    c->d.softmax1.Axes = c->axes;
}

/* MVN (mvn_version 0, 1 or 2) on {2, 3, 4, 5}, no scale or bias; MVN1/2 Axes {2, 3}. */
static void set_mvn(norm_case *c, int version, DML_TENSOR_DATA_TYPE ty)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC *in = unit_tensor_set(&c->in, ty, 4, sizes4, NULL);
    const DML_TENSOR_DESC *out = unit_tensor_set(&c->out, ty, 4, sizes4, NULL);
    c->axes[0] = 2;
    c->axes[1] = 3;
    c->op.Desc = &c->d;
    if (version == 0) {
        c->op.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
        c->d.mvn = (DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC){
            .InputTensor = in, .OutputTensor = out, .NormalizeVariance = 1, .Epsilon = 1e-5f};
    } else if (version == 1) {
        c->op.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1;
        c->d.mvn1 = (DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC){.InputTensor = in,
                                                                     .OutputTensor = out,
                                                                     .AxisCount = 2,
                                                                     .Axes = c->axes,
                                                                     .NormalizeVariance = 1,
                                                                     .Epsilon = 1e-5f};
    } else {
        c->op.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2;
        c->d.mvn2 = (DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC){.InputTensor = in,
                                                                     .OutputTensor = out,
                                                                     .AxisCount = 2,
                                                                     .Axes = c->axes,
                                                                     .UseMean = 1,
                                                                     .UseVariance = 1,
                                                                     .Epsilon = 1e-5f};
    }
}

/* The MVN descriptors share their first four members. */
static const DML_TENSOR_DESC **mvn_member(norm_case *c, int k)
{
    return (const DML_TENSOR_DESC **)&c->d + k;
}

static void set_lp(norm_case *c, DML_TENSOR_DATA_TYPE ty, UINT axis, UINT p)
{
    memset(c, 0, sizeof *c);
    c->d.lp = (DML_LP_NORMALIZATION_OPERATOR_DESC){
        .InputTensor = unit_tensor_set(&c->in, ty, 4, sizes4, NULL),
        .OutputTensor = unit_tensor_set(&c->out, ty, 4, sizes4, NULL),
        .Axis = axis,
        .Epsilon = 1e-5f,
        .P = p};
    c->op.Type = DML_OPERATOR_LP_NORMALIZATION;
    c->op.Desc = &c->d;
}

static HRESULT create(const norm_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* Creates c and copies its state's reduction (which must be one). */
static dmli_reduce lowered(const norm_case *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->reduced);
    dmli_reduce r = st->reduce;
    dmlcl_operator_release(op);
    return r;
}

#define OK(c) cr_expect(SUCCEEDED(create(c)), "line %d: %s", __LINE__, dmlcl_last_error())
#define FAILS(c, hr, ...)                                         \
    do {                                                          \
        const char *const needles_[] = {__VA_ARGS__, NULL};       \
        unit_expect_needles(create(c), (hr), needles_, __LINE__); \
    } while (0)

static const DML_OPERATOR_TYPE old_types[3] = {DML_OPERATOR_ACTIVATION_SOFTMAX,
                                               DML_OPERATOR_ACTIVATION_LOG_SOFTMAX,
                                               DML_OPERATOR_ACTIVATION_HARDMAX};
static const DML_OPERATOR_TYPE new_types[3] = {DML_OPERATOR_ACTIVATION_SOFTMAX1,
                                               DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1,
                                               DML_OPERATOR_ACTIVATION_HARDMAX1};
static const dmli_reduce_op ops[3] = {DMLI_REDUCE_SOFTMAX, DMLI_REDUCE_LOG_SOFTMAX,
                                      DMLI_REDUCE_HARDMAX};

/* ---- The softmax family --------------------------------------------------------------- */

Test(normalize_validate, softmax_types_and_shapes)
{
    norm_case c;
    static const UINT two[4] = {1, 1, 3, 7}, eight[8] = {1, 2, 1, 3, 1, 2, 2, 3};
    static const UINT ax[1] = {0};
    for (int k = 0; k < 3; ++k) {
        for (int t = 0; t < 2; ++t) {
            DML_TENSOR_DATA_TYPE ty = t ? F16 : F32;
            set_softmax(&c, old_types[k], ty, 4, two);
            OK(&c);
            set_softmax(&c, old_types[k], ty, 1, two + 3);
            OK(&c);
            set_softmax1(&c, new_types[k], ty, 8, eight, 1, ax);
            OK(&c);
        }
        set_softmax(&c, old_types[k], I32, 4, two);
        FAILS(&c, E_INVALIDARG, "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
        set_softmax1(&c, new_types[k], DML_TENSOR_DATA_TYPE_FLOAT64, 4, two, 1, ax);
        FAILS(&c, E_INVALIDARG, "InputTensor.DataType (FLOAT64)", "FLOAT32, FLOAT16");
        set_softmax(&c, old_types[k], F32, 4, two);
        unit_tensor_set_type(&c.out, F16);
        FAILS(&c, E_INVALIDARG, "OutputTensor.DataType (FLOAT16)", "InputTensor.DataType");
        set_softmax(&c, old_types[k], F32, 4, two);
        unit_tensor_set(&c.out, F32, 2, two + 2, NULL);
        FAILS(&c, E_INVALIDARG, "OutputTensor.DimensionCount (2)", "InputTensor.DimensionCount");
        set_softmax(&c, old_types[k], F32, 4, two);
        unit_tensor_set(&c.out, F32, 4, sizes4, NULL);
        FAILS(&c, E_INVALIDARG, "OutputTensor.Sizes", "the input's shape");
    }
}

Test(normalize_validate, softmax_effective_rank)
{
    norm_case c;
    static const UINT three[4] = {1, 2, 3, 7}, outer[4] = {4, 1, 3, 7};
    for (int k = 0; k < 3; ++k) {
        set_softmax(&c, old_types[k], F32, 4, three);
        FAILS(&c, E_INVALIDARG, "InputTensor.Sizes ({1,2,3,7})", "Sizes[1] = 2",
              "effective rank of at most 2");
        set_softmax(&c, old_types[k], F32, 4, outer);
        FAILS(&c, E_INVALIDARG, "Sizes[0] = 4", "effective rank");
        /* The 1 size may be anywhere in the last two. */
        set_softmax(&c, old_types[k], F32, 3, (const UINT[]){1, 5, 1});
        OK(&c);
    }
}

Test(normalize_validate, softmax_axes_rules)
{
    norm_case c;
    static const UINT s3[3] = {2, 3, 4};
    for (int k = 0; k < 3; ++k) {
        set_softmax1(&c, new_types[k], F32, 3, s3, 0, NULL);
        FAILS(&c, E_INVALIDARG, "AxisCount (0)", "at least 1");
        set_softmax1(&c, new_types[k], F32, 3, s3, 4, (const UINT[]){0, 1, 2, 0});
        FAILS(&c, E_INVALIDARG, "AxisCount (4)", "InputTensor.DimensionCount (3)");
        set_softmax1(&c, new_types[k], F32, 3, s3, 1, (const UINT[]){0});
        c.d.softmax1.Axes = NULL;
        FAILS(&c, E_INVALIDARG, "Axes (NULL)", "AxisCount (1)");
        set_softmax1(&c, new_types[k], F32, 3, s3, 2, (const UINT[]){0, 3});
        FAILS(&c, E_INVALIDARG, "Axes[1] (3)", "below InputTensor.DimensionCount (3)");
        set_softmax1(&c, new_types[k], F32, 3, s3, 2, (const UINT[]){2, 2});
        FAILS(&c, E_INVALIDARG, "Axes[1] (2)", "repeats");
        /* Any order, every axis. */
        set_softmax1(&c, new_types[k], F32, 3, s3, 3, (const UINT[]){2, 0, 1});
        OK(&c);
    }
}

Test(normalize_validate, softmax_lowering)
{
    norm_case c;
    static const UINT s[4] = {1, 1, 3, 7};
    for (int k = 0; k < 3; ++k) {
        set_softmax(&c, old_types[k], F16, 4, s);
        dmli_reduce r = lowered(&c);
        cr_expect_eq(r.op, ops[k]);
        cr_expect_eq(r.rank, 4);
        cr_expect_eq(r.n_inputs, 1);
        cr_expect_eq(r.n_outputs, 1);
        cr_expect_eq(r.in[0].type, F16);
        cr_expect_eq(r.out[0].type, F16);
        cr_expect_eq(r.act, DMLI_ACT_NONE);
        for (int d = 0; d < 4; ++d) {
            cr_expect_eq(r.reduced[d], d == 3, "%d dim %d", k, d);
            cr_expect_eq(r.size[d], (int64_t)s[d]);
        }
        cr_expect_eq(r.out[0].stride[2], 7);
        cr_expect_eq(r.in[0].stride[3], 1);
    }
    /* Axes {0, 2} of a strided input: the input's strides, the output's own. */
    static const UINT s3[3] = {2, 3, 4}, strides[3] = {1, 8, 2};
    set_softmax1(&c, DML_OPERATOR_ACTIVATION_HARDMAX1, F32, 3, s3, 2, (const UINT[]){2, 0});
    unit_tensor_set_strides(&c.in, strides);
    dmli_reduce r = lowered(&c);
    cr_expect_eq(r.op, DMLI_REDUCE_HARDMAX);
    cr_expect(r.reduced[0] && !r.reduced[1] && r.reduced[2]);
    for (int d = 0; d < 3; ++d)
        cr_expect_eq(r.in[0].stride[d], (int64_t)strides[d], "dim %d", d);
    cr_expect_eq(r.out[0].stride[0], 12);
    cr_expect_eq(r.out[0].stride[1], 4);
    cr_expect_eq(r.out[0].stride[2], 1);
}

/* ---- MEAN_VARIANCE_NORMALIZATION, 1 and 2 ---------------------------------------------- */

static const char *const mvn_names[3] = {
    "MEAN_VARIANCE_NORMALIZATION", "MEAN_VARIANCE_NORMALIZATION1", "MEAN_VARIANCE_NORMALIZATION2"};

Test(normalize_validate, mvn_tensor_rules)
{
    norm_case c;
    static const UINT bcast[4] = {1, 3, 1, 5}, bad[4] = {2, 2, 4, 5}, s3[3] = {3, 4, 5};
    for (int v = 0; v < 3; ++v) {
        for (int t = 0; t < 2; ++t) {
            set_mvn(&c, v, t ? F16 : F32);
            OK(&c);
            /* Scale alone, bias alone, both, broadcast. */
            *mvn_member(&c, 1) = unit_tensor_set(&c.scale, t ? F16 : F32, 4, bcast, NULL);
            OK(&c);
            *mvn_member(&c, 2) = unit_tensor_set(&c.bias, t ? F16 : F32, 4, sizes4, NULL);
            OK(&c);
            *mvn_member(&c, 1) = NULL;
            OK(&c);
        }
        set_mvn(&c, v, I32);
        FAILS(&c, E_INVALIDARG, mvn_names[v], "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
        set_mvn(&c, v, F32);
        *mvn_member(&c, 1) = unit_tensor_set(&c.scale, F16, 4, bcast, NULL);
        FAILS(&c, E_INVALIDARG, "ScaleTensor.DataType (FLOAT16)", "InputTensor.DataType");
        set_mvn(&c, v, F32);
        *mvn_member(&c, 2) = unit_tensor_set(&c.bias, F32, 3, s3, NULL);
        FAILS(&c, E_INVALIDARG, "BiasTensor.DimensionCount (3)", "InputTensor.DimensionCount");
        set_mvn(&c, v, F32);
        *mvn_member(&c, 1) = unit_tensor_set(&c.scale, F32, 4, bad, NULL);
        FAILS(&c, E_INVALIDARG, "ScaleTensor.Sizes ({2,2,4,5})", "Sizes[1] = 2", "1 (broadcast)");
        set_mvn(&c, v, F32);
        *mvn_member(&c, 2) = unit_tensor_set(&c.bias, F32, 4, bad, NULL);
        FAILS(&c, E_INVALIDARG, "BiasTensor.Sizes", "Sizes[1] = 2");
        set_mvn(&c, v, F32);
        unit_tensor_set_type(&c.out, F16);
        FAILS(&c, E_INVALIDARG, "OutputTensor.DataType (FLOAT16)");
        set_mvn(&c, v, F32);
        unit_tensor_set(&c.out, F32, 4, bad, NULL);
        FAILS(&c, E_INVALIDARG, "OutputTensor.Sizes ({2,2,4,5})", "the input's shape");
    }
    /* MEAN_VARIANCE_NORMALIZATION takes 4 dimensions only; 1 and 2 take 1 to 8. */
    set_mvn(&c, 0, F32);
    *mvn_member(&c, 0) = unit_tensor_set(&c.in, F32, 3, s3, NULL);
    *mvn_member(&c, 3) = unit_tensor_set(&c.out, F32, 3, s3, NULL);
    FAILS(&c, E_INVALIDARG, "InputTensor.DimensionCount (3) must be 4");
    for (int v = 1; v < 3; ++v) {
        set_mvn(&c, v, F32);
        *mvn_member(&c, 0) = unit_tensor_set(&c.in, F32, 3, s3, NULL);
        *mvn_member(&c, 3) = unit_tensor_set(&c.out, F32, 3, s3, NULL);
        c.axes[0] = 0;
        c.axes[1] = 2;
        OK(&c);
        c.axes[1] = 3;
        FAILS(&c, E_INVALIDARG, mvn_names[v], "Axes[1] (3)", "DimensionCount (3)");
        c.axes[1] = 0;
        FAILS(&c, E_INVALIDARG, "Axes[1] (0)", "repeats");
    }
}

Test(normalize_validate, mvn_fused_activation)
{
    norm_case c;
    for (int v = 0; v < 3; ++v) {
        set_mvn(&c, v, F32);
        c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &c.relu};
        DML_OPERATOR_DESC **f = v == 0   ? (DML_OPERATOR_DESC **)&c.d.mvn.FusedActivation
                                : v == 1 ? (DML_OPERATOR_DESC **)&c.d.mvn1.FusedActivation
                                         : (DML_OPERATOR_DESC **)&c.d.mvn2.FusedActivation;
        *f = &c.fused;
        OK(&c);
        dmli_reduce r = lowered(&c);
        cr_expect_eq(r.act, DMLI_ACT_RELU);
        /* The softmax family is no fusable activation. */
        c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_SOFTMAX, &c.softmax_act};
        FAILS(&c, E_INVALIDARG, mvn_names[v], "FusedActivation");
        c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &c.relu};
        c.relu.InputTensor = c.d.mvn.InputTensor;
        FAILS(&c, E_INVALIDARG, "FusedActivation->Desc->InputTensor must be NULL");
    }
}

Test(normalize_validate, mvn_lowering)
{
    norm_case c;
    static const UINT bcast[4] = {1, 3, 1, 5};
    /* CrossChannel FALSE: {H, W}; TRUE: {C, H, W}. */
    for (int cross = 0; cross < 2; ++cross) {
        set_mvn(&c, 0, F32);
        c.d.mvn.CrossChannel = cross;
        c.d.mvn.Epsilon = 0.25f;
        dmli_reduce r = lowered(&c);
        cr_expect_eq(r.op, DMLI_REDUCE_MVN);
        cr_expect(!r.reduced[0] && r.reduced[1] == (cross != 0) && r.reduced[2] && r.reduced[3]);
        cr_expect(r.use_mean && r.use_variance && !r.has_scale && !r.has_bias);
        cr_expect_eq(r.param[DMLI_MAP_PARAM_OP], 0.25);
        cr_expect_eq(r.n_inputs, 3);
        cr_expect_eq(r.in[1].slot, 1);
        cr_expect_eq(r.in[2].slot, 2);
        cr_expect_eq(r.in[1].stride[3], 0); /* absent: 0 strides */
    }
    set_mvn(&c, 0, F32);
    c.d.mvn.NormalizeVariance = 0;
    cr_expect_not(lowered(&c).use_variance);
    /* MVN2's UseMean and UseVariance; scale broadcast (0 strides where its size is 1). */
    for (int m = 0; m < 2; ++m)
        for (int v = 0; v < 2; ++v) {
            set_mvn(&c, 2, F16);
            c.d.mvn2.UseMean = m;
            c.d.mvn2.UseVariance = v;
            c.d.mvn2.ScaleTensor = unit_tensor_set(&c.scale, F16, 4, bcast, NULL);
            dmli_reduce r = lowered(&c);
            cr_expect_eq(r.use_mean, m != 0);
            cr_expect_eq(r.use_variance, v != 0);
            cr_expect(r.has_scale && !r.has_bias);
            cr_expect(!r.reduced[0] && !r.reduced[1] && r.reduced[2] && r.reduced[3]);
            cr_expect_eq(r.in[1].stride[0], 0);
            cr_expect_eq(r.in[1].stride[1], 5);
            cr_expect_eq(r.in[1].stride[2], 0);
            cr_expect_eq(r.in[1].stride[3], 1);
            cr_expect_eq(r.in[1].type, F16);
        }
    /* Bias without scale (5.2): still input 2. */
    set_mvn(&c, 1, F32);
    c.d.mvn1.BiasTensor = unit_tensor_set(&c.bias, F32, 4, sizes4, NULL);
    dmli_reduce r = lowered(&c);
    cr_expect(!r.has_scale && r.has_bias);
    cr_expect_eq(r.n_inputs, 3);
    cr_expect_eq(r.in[2].slot, 2);
    cr_expect_eq(r.in[2].stride[0], 60);
}

/* ---- LP_NORMALIZATION ----------------------------------------------------------------- */

Test(normalize_validate, lp_rules_and_lowering)
{
    norm_case c;
    for (UINT p = 1; p <= 2; ++p) {
        set_lp(&c, F16, 3, p);
        dmli_reduce r = lowered(&c);
        cr_expect_eq(r.op, DMLI_REDUCE_LP_NORM);
        cr_expect_eq(r.iparam[DMLI_MAP_PARAM_OP], (int64_t)p);
        cr_expect_eq(r.param[DMLI_MAP_PARAM_OP + 1], (double)1e-5f);
        for (int d = 0; d < 4; ++d)
            cr_expect_eq(r.reduced[d], d == 3);
    }
    set_lp(&c, F32, 0, 2);
    cr_expect(lowered(&c).reduced[0]);
    set_lp(&c, F32, 4, 2);
    FAILS(&c, E_INVALIDARG, "LP_NORMALIZATION", "Axis (4)", "InputTensor.DimensionCount (4)");
    set_lp(&c, F32, 1, 3);
    FAILS(&c, E_INVALIDARG, "P (3)", "1 or 2");
    set_lp(&c, F32, 1, 0);
    FAILS(&c, E_INVALIDARG, "P (0)", "1 or 2");
    set_lp(&c, I32, 1, 2);
    FAILS(&c, E_INVALIDARG, "InputTensor.DataType (INT32)", "FLOAT32, FLOAT16");
    set_lp(&c, F32, 1, 2);
    unit_tensor_set(&c.out, F32, 4, (const UINT[]){2, 3, 4, 1}, NULL);
    FAILS(&c, E_INVALIDARG, "OutputTensor.Sizes", "the input's shape");
}
