/* SPDX-License-Identifier: MIT */
/*
 * DirectML's batch-normalization training operators, the batch-normalization training family
 * (src/bnorm.h, cl/bnorm.cl: one work-group per channel, a fixed tree of compensated float
 * sums, every tensor read through its strides):
 *
 * BATCH_NORMALIZATION_TRAINING (feature level 4.1): per channel (an element of ScaleTensor's
 * shape), the mean and the variance of the input over every dimension where ScaleTensor's size
 * is 1 (the biased variance: the squared deviations' sum over their count), then
 *   Output = FusedActivation(Scale * (Input - Mean) / sqrt(Variance + Epsilon) + Bias + FusedAdd)
 * with OutputMeanTensor and OutputVarianceTensor the statistics.
 *
 * BATCH_NORMALIZATION_GRAD (3.1) and BATCH_NORMALIZATION_TRAINING_GRAD (4.1): the sums run over
 * every dimension where MeanTensor's size is 1;
 *   OutputScaleGradient = sum(InputGradient * (Input - Mean) / sqrt(Variance + Epsilon))
 *   OutputBiasGradient  = sum(InputGradient)
 * and OutputGradient = InputGradient * Scale / sqrt(Variance + Epsilon) (GRAD), or (TRAINING_GRAD,
 * the forward's statistics depending on the input)
 *   Scale / sqrt(Variance + Epsilon) * (InputGradient - mean(InputGradient)
 *       - (Input - Mean) * mean(InputGradient * (Input - Mean)) / (Variance + Epsilon))
 * where the page's mean(Input) is MeanTensor (the forward's OutputMeanTensor, its documented
 * source) and the means run over the summed dimensions.
 *
 * DirectML's rules (the pages' tensor constraints and support tables, every feature level
 * that has the operator): every tensor one DataType, FLOAT32 or FLOAT16, and one DimensionCount
 * (1 to 8); the input-shaped tensors (InputTensor, FusedAddTensor, OutputTensor; InputTensor,
 * InputGradientTensor, OutputGradientTensor) one Sizes, the statistics-shaped ones (ScaleTensor,
 * BiasTensor, OutputMeanTensor, OutputVarianceTensor; MeanTensor, VarianceTensor, ScaleTensor,
 * OutputScaleGradientTensor, OutputBiasGradientTensor) one Sizes, each 1 or the input's.
 * Epsilon has no rule (it enters the formulas as given). FusedActivation as every fused
 * activation (ops/activation.h).
 */
#include <stdio.h>

#include "bnorm.h"
#include "ops/activation.h"
#include "ops/common.h"

#define OP_T "BATCH_NORMALIZATION_TRAINING"
#define OP_G "BATCH_NORMALIZATION_GRAD"
#define OP_TG "BATCH_NORMALIZATION_TRAINING_GRAD"

/* The tensors in the kernels' role order (cl/bnorm_abi.h): inputs, then outputs. */
static const char *const train_in[4] = {"InputTensor", "ScaleTensor", "BiasTensor",
                                        "FusedAddTensor"};
static const char *const train_out[3] = {"OutputTensor", "OutputMeanTensor",
                                         "OutputVarianceTensor"};
static const char *const grad_in[5] = {"InputTensor", "InputGradientTensor", "MeanTensor",
                                       "VarianceTensor", "ScaleTensor"};
static const char *const grad_out[3] = {"OutputGradientTensor", "OutputScaleGradientTensor",
                                        "OutputBiasGradientTensor"};

/* Every present tensor of st has InputTensor's DataType (FLOAT32 or FLOAT16) and rank. */
static HRESULT same_types(const char *op, dmli_op_state *st)
{
    const dmli_tensor *x = &st->inputs[0];
    DMLI_INVALID_IF(x->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", op,
                    dmli_type_name(x->type), op);
    for (uint32_t k = 0; k < st->n_inputs + st->n_outputs; ++k) {
        bool out = k >= st->n_inputs;
        const dmli_tensor *t = out ? &st->outputs[k - st->n_inputs] : &st->inputs[k];
        const char *name = out ? st->output_names[k - st->n_inputs] : st->input_names[k];
        if (k == 0 || !t->present)
            continue;
        DMLI_TRY(dmli_ops_same_type(op, name, t, "InputTensor", x));
        DMLI_TRY(dmli_ops_same_rank(op, name, t, "InputTensor", x));
    }
    return S_OK;
}

static HRESULT import_all(const char *op, dmli_op_state *st, const DML_TENSOR_DESC *const *ins,
                          const char *const *in_names, uint32_t n_in, int optional_in,
                          const DML_TENSOR_DESC *const *outs, const char *const *out_names)
{
    for (uint32_t k = 0; k < n_in; ++k) {
        unsigned rules = DMLI_TENSOR_INPUT | ((int)k == optional_in ? DMLI_TENSOR_OPTIONAL : 0);
        DMLI_TRY(dmli_tensor_import(op, in_names[k], ins[k], rules, &st->inputs[k]));
        st->input_names[k] = in_names[k];
    }
    for (uint32_t k = 0; k < 3; ++k) {
        DMLI_TRY(
            dmli_tensor_import(op, out_names[k], outs[k], DMLI_TENSOR_OUTPUT, &st->outputs[k]));
        st->output_names[k] = out_names[k];
    }
    st->n_inputs = n_in;
    st->n_outputs = 3;
    return same_types(op, st);
}

/*
 * The statistics' shape: `stat` (named stat_name) has each size 1 or InputTensor's; every
 * tensor in `same` (statistics-shaped) has stat's Sizes, every tensor in `full` InputTensor's.
 */
static HRESULT check_shapes(const char *op, const dmli_op_state *st, const dmli_tensor *stat,
                            const char *stat_name, const dmli_tensor *const *same,
                            const char *const *same_names, int n_same,
                            const dmli_tensor *const *full, const char *const *full_names,
                            int n_full)
{
    const dmli_tensor *x = &st->inputs[0];
    for (uint32_t i = 0; i < x->rank; ++i)
        DMLI_INVALID_IF(stat->sizes[i] != 1 && stat->sizes[i] != x->sizes[i],
                        "%s: %s.Sizes[%u] (%llu) must be 1 or InputTensor.Sizes[%u] (%llu): the "
                        "statistics are per channel, broadcast where their size is 1",
                        op, stat_name, i, (unsigned long long)stat->sizes[i], i,
                        (unsigned long long)x->sizes[i]);
    char rule[128];
    for (int k = 0; k < n_same; ++k) {
        snprintf(rule, sizeof rule, "%s.Sizes: the statistics' shape", stat_name);
        DMLI_TRY(dmli_ops_expect_sizes(op, same_names[k], same[k], stat->sizes, rule));
    }
    for (int k = 0; k < n_full; ++k)
        if (full[k]->present)
            DMLI_TRY(dmli_ops_expect_sizes(op, full_names[k], full[k], x->sizes,
                                           "InputTensor.Sizes: the input's shape"));
    return S_OK;
}

/* ---- BATCH_NORMALIZATION_TRAINING ------------------------------------------------------ */

static HRESULT train_validate(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *ins[4] = {d->InputTensor, d->ScaleTensor, d->BiasTensor,
                                     d->FusedAddTensor};
    const DML_TENSOR_DESC *outs[3] = {d->OutputTensor, d->OutputMeanTensor,
                                      d->OutputVarianceTensor};
    DMLI_TRY(import_all(OP_T, st, ins, train_in, 4, 3, outs, train_out));
    dmli_activation a;
    DMLI_TRY(dmli_activation_fused(OP_T, "FusedActivation", d->FusedActivation, st->outputs[0].type,
                                   &a));
    return S_OK;
}

static HRESULT train_infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *same[3] = {&st->inputs[2], &st->outputs[1], &st->outputs[2]};
    const char *same_names[3] = {"BiasTensor", "OutputMeanTensor", "OutputVarianceTensor"};
    const dmli_tensor *full[2] = {&st->inputs[3], &st->outputs[0]};
    const char *full_names[2] = {"FusedAddTensor", "OutputTensor"};
    return check_shapes(OP_T, st, &st->inputs[1], "ScaleTensor", same, same_names, 3, full,
                        full_names, 2);
}

/* The channel and reduced extents from the statistics' sizes, and each role's strides. */
static void describe(dmli_bnorm *b, const dmli_tensor *x, const dmli_tensor *stat,
                     const dmli_tensor *const *roles, int n_roles)
{
    b->half = x->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    b->rank = x->rank;
    b->channels = (int64_t)stat->elements;
    b->reduced = (int64_t)(x->elements / stat->elements);
    for (uint32_t i = 0; i < x->rank; ++i) {
        b->csize[i] = (int64_t)stat->sizes[i];
        b->rsize[i] = stat->sizes[i] == 1 ? (int64_t)x->sizes[i] : 1;
        for (int r = 0; r < n_roles; ++r)
            b->stride[r][i] = roles[r] && roles[r]->present ? roles[r]->strides[i] : 0;
    }
}

static void train_lower(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC *d = desc;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_BNORM);
    for (uint32_t k = 0; k < 4; ++k)
        if (st->inputs[k].present)
            dmli_compute_add(c, st, false, k);
    for (uint32_t k = 0; k < 3; ++k)
        dmli_compute_add(c, st, true, k);
    dmli_bnorm *b = DMLI_COMPUTE_WORK(c, dmli_bnorm);
    b->kind = DMLI_BNORM_TRAINING;
    b->has_add = st->inputs[3].present;
    b->epsilon = d->Epsilon;
    dmli_activation a = {DMLI_ACT_NONE, {0, 0, 0}};
    if (d->FusedActivation) /* validated */
        dmli_activation_read(d->FusedActivation->Type, d->FusedActivation->Desc, &a);
    b->act = a.act;
    for (int i = 0; i < 3; ++i)
        b->act_param[i] = a.param[i];
    const dmli_tensor *roles[DMLI_BN_ROLES] = {
        [DMLI_BN_T_X] = &st->inputs[0],    [DMLI_BN_T_SCALE] = &st->inputs[1],
        [DMLI_BN_T_BIAS] = &st->inputs[2], [DMLI_BN_T_ADD] = &st->inputs[3],
        [DMLI_BN_T_Y] = &st->outputs[0],   [DMLI_BN_T_MEAN] = &st->outputs[1],
        [DMLI_BN_T_VAR] = &st->outputs[2]};
    describe(b, &st->inputs[0], &st->inputs[1], roles, DMLI_BN_ROLES);
    st->computed = true;
}

const dmli_op_steps dmli_op_batch_normalization_training = {
    .validate = train_validate, .infer = train_infer, .lower = train_lower};

/* ---- BATCH_NORMALIZATION_GRAD, BATCH_NORMALIZATION_TRAINING_GRAD ----------------------- */

/* Both descriptors have one layout (directml_ops_3.h); each is read through its own type. */
static HRESULT grad_validate_as(const char *op, const DML_TENSOR_DESC *const *ins,
                                const DML_TENSOR_DESC *const *outs, dmli_op_state *st)
{
    return import_all(op, st, ins, grad_in, 5, -1, outs, grad_out);
}

static HRESULT grad_infer_as(const char *op, dmli_op_state *st)
{
    const dmli_tensor *same[4] = {&st->inputs[3], &st->inputs[4], &st->outputs[1], &st->outputs[2]};
    const char *same_names[4] = {"VarianceTensor", "ScaleTensor", "OutputScaleGradientTensor",
                                 "OutputBiasGradientTensor"};
    const dmli_tensor *full[2] = {&st->inputs[1], &st->outputs[0]};
    const char *full_names[2] = {"InputGradientTensor", "OutputGradientTensor"};
    return check_shapes(op, st, &st->inputs[2], "MeanTensor", same, same_names, 4, full, full_names,
                        2);
}

static void grad_lower_as(dmli_bnorm_kind kind, double epsilon, dmli_op_state *st)
{
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_BNORM);
    for (uint32_t k = 0; k < 5; ++k)
        dmli_compute_add(c, st, false, k);
    for (uint32_t k = 0; k < 3; ++k)
        dmli_compute_add(c, st, true, k);
    dmli_bnorm *b = DMLI_COMPUTE_WORK(c, dmli_bnorm);
    b->kind = kind;
    b->epsilon = epsilon;
    const dmli_tensor *roles[DMLI_BN_ROLES] = {
        [DMLI_BN_G_X] = &st->inputs[0],       [DMLI_BN_G_DY] = &st->inputs[1],
        [DMLI_BN_G_MEAN] = &st->inputs[2],    [DMLI_BN_G_VAR] = &st->inputs[3],
        [DMLI_BN_G_SCALE] = &st->inputs[4],   [DMLI_BN_G_DX] = &st->outputs[0],
        [DMLI_BN_G_DSCALE] = &st->outputs[1], [DMLI_BN_G_DBIAS] = &st->outputs[2]};
    describe(b, &st->inputs[0], &st->inputs[2], roles, DMLI_BN_ROLES);
    st->computed = true;
}

static HRESULT grad_validate(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *ins[5] = {d->InputTensor, d->InputGradientTensor, d->MeanTensor,
                                     d->VarianceTensor, d->ScaleTensor};
    const DML_TENSOR_DESC *outs[3] = {d->OutputGradientTensor, d->OutputScaleGradientTensor,
                                      d->OutputBiasGradientTensor};
    return grad_validate_as(OP_G, ins, outs, st);
}

static HRESULT grad_infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return grad_infer_as(OP_G, st);
}

static void grad_lower(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC *d = desc;
    grad_lower_as(DMLI_BNORM_GRAD, d->Epsilon, st);
}

const dmli_op_steps dmli_op_batch_normalization_grad = {
    .validate = grad_validate, .infer = grad_infer, .lower = grad_lower};

static HRESULT train_grad_validate(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *ins[5] = {d->InputTensor, d->InputGradientTensor, d->MeanTensor,
                                     d->VarianceTensor, d->ScaleTensor};
    const DML_TENSOR_DESC *outs[3] = {d->OutputGradientTensor, d->OutputScaleGradientTensor,
                                      d->OutputBiasGradientTensor};
    return grad_validate_as(OP_TG, ins, outs, st);
}

static HRESULT train_grad_infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return grad_infer_as(OP_TG, st);
}

static void train_grad_lower(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC *d = desc;
    grad_lower_as(DMLI_BNORM_TRAINING_GRAD, d->Epsilon, st);
}

const dmli_op_steps dmli_op_batch_normalization_training_grad = {
    .validate = train_grad_validate, .infer = train_grad_infer, .lower = train_grad_lower};
