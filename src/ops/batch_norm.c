/* SPDX-License-Identifier: MIT */
/*
 * DirectML's BATCH_NORMALIZATION (inference): Output = FusedActivation(Scale * (Input - Mean) /
 * sqrt(Variance + Epsilon) + Bias), one element at a time: a map (cl/activation.cl OP 97)
 * reading five inputs, Mean, Variance, Scale and Bias broadcast by 0 strides where their size
 * is 1.
 *
 * DirectML's rules (the page, feature levels up to 6.4): the six tensors have one DataType,
 * FLOAT32 or FLOAT16, and one DimensionCount (1 to 8); Output has Input's Sizes; each size of
 * Mean, Variance, Scale and Bias is 1 or Input's. Spatial is deprecated from feature level 4.0
 * and has no effect (its old rule, Mean and Variance not broadcast over the last two
 * dimensions when FALSE, is a 4.0 no-op). Epsilon has no rule: it enters the formula as
 * given (docs/operators.md). FusedActivation as every fused activation (ops/activation.h).
 */
#include <stdio.h>

#include "ops/activation.h"
#include "ops/common.h"

#define OP "BATCH_NORMALIZATION"
#define N_IN 5

static const char *const in_names[N_IN] = {"InputTensor", "MeanTensor", "VarianceTensor",
                                           "ScaleTensor", "BiasTensor"};

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *ins[N_IN] = {d->InputTensor, d->MeanTensor, d->VarianceTensor,
                                        d->ScaleTensor, d->BiasTensor};
    for (int k = 0; k < N_IN; ++k) {
        DMLI_TRY(dmli_tensor_import(OP, in_names[k], ins[k], DMLI_TENSOR_INPUT, &st->inputs[k]));
        st->input_names[k] = in_names[k];
    }
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *x = &st->inputs[0], *out = &st->outputs[0];
    DMLI_INVALID_IF(x->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", OP,
                    dmli_type_name(x->type), OP);
    for (int k = 1; k < N_IN; ++k) {
        DMLI_TRY(dmli_ops_same_type(OP, in_names[k], &st->inputs[k], "InputTensor", x));
        DMLI_TRY(dmli_ops_same_rank(OP, in_names[k], &st->inputs[k], "InputTensor", x));
    }
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", x));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", x));
    dmli_activation a;
    DMLI_TRY(dmli_activation_fused(OP, "FusedActivation", d->FusedActivation, out->type, &a));
    st->n_inputs = N_IN;
    st->n_outputs = 1;
    st->output_names[0] = "OutputTensor";
    st->in_place = true; /* Input may share Output's range (one element, one work-item) */
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *x = &st->inputs[0];
    for (int k = 1; k < N_IN; ++k) {
        const dmli_tensor *t = &st->inputs[k];
        for (uint32_t i = 0; i < t->rank; ++i)
            DMLI_INVALID_IF(t->sizes[i] != 1 && t->sizes[i] != x->sizes[i],
                            "%s: %s.Sizes[%u] (%llu) must be 1 or InputTensor.Sizes[%u] (%llu): "
                            "the statistics broadcast over the input",
                            OP, in_names[k], i, (unsigned long long)t->sizes[i], i,
                            (unsigned long long)x->sizes[i]);
    }
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], x->sizes,
                                 "InputTensor.Sizes: batch normalization keeps the shape");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_BATCH_NORMALIZATION_OPERATOR_DESC *d = desc;
    const dmli_tensor *out = &st->outputs[0];
    dmli_map *m = &st->map;
    st->mapped = true;
    dmli_map_init(m, DMLI_MAP_BATCH_NORM, out->type, N_IN);
    for (int k = 0; k < N_IN; ++k) {
        m->in[k].type = st->inputs[k].type;
        m->in[k].slot = (uint32_t)k;
    }
    dmli_map_param_real(m, DMLI_MAP_PARAM_OP, d->Epsilon);
    dmli_activation a = {DMLI_ACT_NONE, {0, 0, 0}};
    if (d->FusedActivation) /* validated */
        dmli_activation_read(d->FusedActivation->Type, d->FusedActivation->Desc, &a);
    dmli_activation_apply(&a, m);
    for (uint32_t i = 0; i < out->rank; ++i) {
        int64_t in_strides[N_IN];
        for (int k = 0; k < N_IN; ++k)
            in_strides[k] = st->inputs[k].sizes[i] == 1 ? 0 : st->inputs[k].strides[i];
        dmli_map_push(m, (int64_t)out->sizes[i], out->strides[i], in_strides);
    }
}

const dmli_op_steps dmli_op_batch_normalization = {
    .validate = validate, .infer = infer, .lower = lower};
