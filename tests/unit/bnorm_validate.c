/* SPDX-License-Identifier: MIT */
/*
 * Validation of DirectML's batch-normalization training operators (BATCH_NORMALIZATION_TRAINING,
 * BATCH_NORMALIZATION_GRAD, BATCH_NORMALIZATION_TRAINING_GRAD; src/ops/batch_norm_training.c)
 * on the host, one rule each: the type table (FLOAT32 and FLOAT16 taken, others refused naming
 * the field and the table), every tensor InputTensor's DataType and DimensionCount, the
 * statistics' sizes 1 or the input's, the statistics-shaped tensors the statistics' Sizes, the
 * input-shaped ones the input's, a missing tensor, the fused activation; 1 to 8 dimensions,
 * FusedAddTensor optional. The lowering (channels, reduced extents, each role's strides) and the
 * launch (a work-group per channel, one power-of-two size per device) without a device.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "bnorm.h"
#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64

static const UINT xs[4] = {2, 3, 4, 5};
static const UINT ss[4] = {1, 3, 1, 1};

typedef struct bn_case {
    unit_tensor t[8];
    union {
        DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC train;
        DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC grad;
        DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC train_grad;
    } d;
    DML_ACTIVATION_RELU_OPERATOR_DESC relu;
    DML_OPERATOR_DESC fused;
    DML_OPERATOR_DESC op;
} bn_case;

/* Which members have the input's shape (the others the statistics'). */
static bool full(DML_OPERATOR_TYPE type, int k)
{
    if (type == DML_OPERATOR_BATCH_NORMALIZATION_TRAINING)
        return k == 0 || k == 3 || k == 4;
    return k <= 1 || k == 5;
}

/* Every tensor of type ty, the input {2,3,4,5}, the statistics {1,3,1,1}. */
static void setup(bn_case *c, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE ty)
{
    memset(c, 0, sizeof *c);
    const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c->d;
    int n = type == DML_OPERATOR_BATCH_NORMALIZATION_TRAINING ? 7 : 8;
    for (int k = 0; k < n; ++k)
        members[k] = unit_tensor_set(&c->t[k], ty, 4, full(type, k) ? xs : ss, NULL);
    if (type == DML_OPERATOR_BATCH_NORMALIZATION_TRAINING)
        c->d.train.Epsilon = 1e-5f;
    else
        c->d.grad.Epsilon = 1e-5f;
    c->op.Type = type;
    c->op.Desc = &c->d;
}

static HRESULT create(const bn_case *c)
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

#define TRAIN DML_OPERATOR_BATCH_NORMALIZATION_TRAINING
#define GRAD DML_OPERATOR_BATCH_NORMALIZATION_GRAD
#define TGRAD DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD

static const DML_OPERATOR_TYPE ops[3] = {TRAIN, GRAD, TGRAD};
static const char *const op_names[3] = {"BATCH_NORMALIZATION_TRAINING", "BATCH_NORMALIZATION_GRAD",
                                        "BATCH_NORMALIZATION_TRAINING_GRAD"};

Test(bnorm_validate, type_tables)
{
    bn_case c;
    for (int i = 0; i < 3; ++i) {
        setup(&c, ops[i], F32);
        OK(&c);
        setup(&c, ops[i], F16);
        OK(&c);
        setup(&c, ops[i], I32);
        FAILS(&c, E_INVALIDARG, op_names[i], "InputTensor.DataType (INT32)", "is not one",
              "FLOAT32, FLOAT16");
        setup(&c, ops[i], F64);
        FAILS(&c, E_INVALIDARG, op_names[i], "InputTensor.DataType (FLOAT64)", "is not one");
    }
}

/* Every other member of another DataType, then of another DimensionCount, named. */
Test(bnorm_validate, same_type_and_rank)
{
    static const char *const train_names[7] = {
        "InputTensor",  "ScaleTensor",      "BiasTensor",          "FusedAddTensor",
        "OutputTensor", "OutputMeanTensor", "OutputVarianceTensor"};
    static const char *const grad_names[8] = {"InputTensor",
                                              "InputGradientTensor",
                                              "MeanTensor",
                                              "VarianceTensor",
                                              "ScaleTensor",
                                              "OutputGradientTensor",
                                              "OutputScaleGradientTensor",
                                              "OutputBiasGradientTensor"};
    bn_case c;
    for (int i = 0; i < 3; ++i) {
        int n = i == 0 ? 7 : 8;
        for (int k = 1; k < n; ++k) {
            const char *name = i == 0 ? train_names[k] : grad_names[k];
            char field[64];
            setup(&c, ops[i], F32);
            unit_tensor_set_type(&c.t[k], F16);
            snprintf(field, sizeof field, "%s.DataType", name);
            FAILS(&c, E_INVALIDARG, op_names[i], field, "FLOAT16");
            setup(&c, ops[i], F16);
            const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
            members[k] = unit_tensor_set(&c.t[k], F16, 3, full(ops[i], k) ? xs + 1 : ss + 1, NULL);
            snprintf(field, sizeof field, "%s.DimensionCount", name);
            FAILS(&c, E_INVALIDARG, op_names[i], field);
        }
    }
}

Test(bnorm_validate, statistics_sizes)
{
    bn_case c;
    const UINT bad[4] = {1, 2, 1, 1}, other[4] = {2, 1, 1, 1};
    /* The statistics' size neither 1 nor the input's. */
    setup(&c, TRAIN, F32);
    c.d.train.ScaleTensor = unit_tensor_set(&c.t[1], F32, 4, bad, NULL);
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", "ScaleTensor.Sizes[1] (2)",
          "must be 1 or InputTensor.Sizes[1] (3)");
    setup(&c, GRAD, F32);
    c.d.grad.MeanTensor = unit_tensor_set(&c.t[2], F32, 4, bad, NULL);
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_GRAD", "MeanTensor.Sizes[1] (2)",
          "must be 1 or InputTensor.Sizes[1] (3)");
    /* A statistics-shaped tensor of other (valid) statistics' sizes. */
    static const int train_stat[3] = {2, 5, 6};
    static const char *const train_stat_names[3] = {"BiasTensor", "OutputMeanTensor",
                                                    "OutputVarianceTensor"};
    for (int k = 0; k < 3; ++k) {
        setup(&c, TRAIN, F32);
        const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
        members[train_stat[k]] = unit_tensor_set(&c.t[train_stat[k]], F32, 4, other, NULL);
        FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", train_stat_names[k], "Sizes",
              "({2,1,1,1})", "ScaleTensor.Sizes");
    }
    static const int grad_stat[4] = {3, 4, 6, 7};
    static const char *const grad_stat_names[4] = {
        "VarianceTensor", "ScaleTensor", "OutputScaleGradientTensor", "OutputBiasGradientTensor"};
    for (int k = 0; k < 4; ++k) {
        setup(&c, TGRAD, F16);
        const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
        members[grad_stat[k]] = unit_tensor_set(&c.t[grad_stat[k]], F16, 4, other, NULL);
        FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING_GRAD", grad_stat_names[k], "Sizes",
              "MeanTensor.Sizes");
    }
    /* Every dimension kept (one element per channel) and none (one channel) are taken. */
    setup(&c, TRAIN, F32);
    for (int k = 1; k < 7; ++k)
        if (k != 3 && k != 4) {
            const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
            members[k] = unit_tensor_set(&c.t[k], F32, 4, xs, NULL);
        }
    OK(&c);
    setup(&c, GRAD, F32);
    const UINT ones[4] = {1, 1, 1, 1};
    for (int k = 2; k < 8; ++k)
        if (k != 5) {
            const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
            members[k] = unit_tensor_set(&c.t[k], F32, 4, ones, NULL);
        }
    OK(&c);
}

Test(bnorm_validate, input_sizes)
{
    bn_case c;
    const UINT other[4] = {2, 3, 4, 6};
    static const char *const train_full[2] = {"FusedAddTensor", "OutputTensor"};
    for (int k = 0; k < 2; ++k) {
        setup(&c, TRAIN, F32);
        const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
        members[3 + k] = unit_tensor_set(&c.t[3 + k], F32, 4, other, NULL);
        FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", train_full[k], "Sizes",
              "({2,3,4,6})", "InputTensor.Sizes");
    }
    static const int grad_full[2] = {1, 5};
    static const char *const grad_full_names[2] = {"InputGradientTensor", "OutputGradientTensor"};
    for (int k = 0; k < 2; ++k) {
        setup(&c, GRAD, F32);
        const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
        members[grad_full[k]] = unit_tensor_set(&c.t[grad_full[k]], F32, 4, other, NULL);
        FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_GRAD", grad_full_names[k], "Sizes",
              "InputTensor.Sizes");
    }
}

Test(bnorm_validate, optional_and_missing)
{
    bn_case c;
    setup(&c, TRAIN, F32);
    c.d.train.FusedAddTensor = NULL;
    OK(&c);
    setup(&c, TRAIN, F32);
    c.d.train.ScaleTensor = NULL;
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", "ScaleTensor");
    setup(&c, TRAIN, F32);
    c.d.train.OutputVarianceTensor = NULL;
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", "OutputVarianceTensor");
    setup(&c, GRAD, F32);
    c.d.grad.MeanTensor = NULL;
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_GRAD", "MeanTensor");
    setup(&c, TGRAD, F32);
    c.d.train_grad.OutputBiasGradientTensor = NULL;
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING_GRAD", "OutputBiasGradientTensor");
}

Test(bnorm_validate, fused_activation)
{
    bn_case c;
    setup(&c, TRAIN, F32);
    c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &c.relu};
    c.d.train.FusedActivation = &c.fused;
    OK(&c);
    c.fused.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
    FAILS(&c, E_INVALIDARG, "BATCH_NORMALIZATION_TRAINING", "FusedActivation");
}

Test(bnorm_validate, ranks)
{
    static const UINT x1[1] = {6}, s1[1] = {1};
    static const UINT x8[8] = {2, 1, 2, 1, 2, 1, 2, 3}, s8[8] = {1, 1, 2, 1, 1, 1, 1, 1};
    bn_case c;
    for (int i = 0; i < 3; ++i) {
        for (int r = 0; r < 2; ++r) {
            setup(&c, ops[i], F32);
            const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)&c.d;
            int n = i == 0 ? 7 : 8;
            UINT rank = r ? 8 : 1;
            for (int k = 0; k < n; ++k)
                members[k] = unit_tensor_set(&c.t[k], F32, rank,
                                             full(ops[i], k) ? (r ? x8 : x1) : (r ? s8 : s1), NULL);
            OK(&c);
        }
    }
}

/* NCHW {2,3,4,5} with statistics {1,3,1,1}: three channels of 40 elements; the input's strides
 * read where the channel's are 0 and the reverse. */
Test(bnorm_validate, lowering)
{
    bn_case c;
    setup(&c, TRAIN, F16);
    c.d.train.FusedAddTensor = NULL;
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(TRAIN), &c.d, &st), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert(st.computed);
    cr_expect_eq(st.compute.kind, DMLI_COMPUTE_BNORM);
    cr_expect_eq(st.compute.n_tensors, 6); /* FusedAddTensor absent: unlisted */
    const dmli_bnorm *b = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_bnorm);
    cr_expect(b->half && !b->has_add && b->kind == DMLI_BNORM_TRAINING);
    cr_expect_eq(b->channels, 3);
    cr_expect_eq(b->reduced, 40);
    const int64_t csize[4] = {1, 3, 1, 1}, rsize[4] = {2, 1, 4, 5}, xstride[4] = {60, 20, 5, 1};
    for (int d = 0; d < 4; ++d) {
        cr_expect_eq(b->csize[d], csize[d], "dimension %d", d);
        cr_expect_eq(b->rsize[d], rsize[d], "dimension %d", d);
        cr_expect_eq(b->stride[DMLI_BN_T_X][d], xstride[d], "dimension %d", d);
    }
    cr_expect_eq(b->stride[DMLI_BN_T_MEAN][1], 1);
    cr_expect_eq(b->stride[DMLI_BN_T_ADD][0], 0);
    dmli_op_state_release(&st);
}

Test(bnorm_validate, launch_grid)
{
    static const dmli_device_desc cpu = {.device_class = DMLCL_DEVICE_CLASS_CPU,
                                         .compute_units = 2,
                                         .max_work_group_size = 4096,
                                         .max_item_sizes = {4096, 4096, 4096},
                                         .local_mem_size = 64 * 1024};
    static const dmli_device_desc small = {.device_class = DMLCL_DEVICE_CLASS_GPU,
                                           .compute_units = 8,
                                           .max_work_group_size = 48,
                                           .max_item_sizes = {48, 48, 48},
                                           .local_mem_size = 16 * 1024};
    dmli_compute c;
    dmli_compute_init(&c, DMLI_COMPUTE_BNORM);
    dmli_bnorm *b = DMLI_COMPUTE_WORK(&c, dmli_bnorm);
    *b = (dmli_bnorm){.kind = DMLI_BNORM_TRAINING_GRAD,
                      .channels = 7,
                      .reduced = 3,
                      .rank = 2,
                      .epsilon = 1e-5,
                      .csize = {7, 1},
                      .rsize = {1, 3}};
    dmli_compute_launch *l = calloc(1, sizeof *l);
    cr_assert(l);
    dmli_launch_compute(&c, &cpu, l);
    cr_expect_str_empty(l->refusal);
    cr_expect_str_eq(l->kernel, "bn_grad");
    cr_expect(strstr(l->options, "-DTRAINING=1") != NULL, "%s", l->options);
    /* 64 items whatever the 3 elements a channel: one local size a device. */
    cr_expect_eq(l->local[0], 64);
    cr_expect_eq(l->global[0], 64);
    cr_expect_eq(l->global[1], 7);
    cr_expect_eq(l->table[DMLI_BN_REDUCED], 3);
    cr_expect_eq(l->table[DMLI_BN_RSIZE(1)], 3);
    dmli_launch_compute(&c, &small, l);
    cr_expect_eq(l->local[0], 32); /* the largest power of two within 48 */
    free(l);
}
