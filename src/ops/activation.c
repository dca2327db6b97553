/* SPDX-License-Identifier: MIT */
/*
 * Activation descriptors (activation.h). Every activation DirectML fuses has one layout: its
 * InputTensor, its OutputTensor, then up to two FLOATs (DirectMLX builds them all through
 * DML_ACTIVATION_LINEAR_OPERATOR_DESC). The table gives each type its dmli_act, its FLOATs'
 * names and whether DirectML fuses it (the list of "Using fused operators", plus GELU, which
 * DirectMLX fuses from feature level 5.1).
 *
 * SHRINK on integer tensors (DirectML 5.1 takes INT8..INT32 and UINT8..UINT32): x > Threshold
 * and x < -Threshold are compared exactly, x - Bias and x + Bias are the exact values
 * truncated toward zero (ONNX Runtime's static_cast of x +- bias), wrapped into the type as
 * every integer result that leaves it; a NaN or infinite Bias gives 0 where it applies (as
 * Direct3D's float-to-integer conversion gives 0 for NaN). The kernel gets g0 = floor(Threshold)
 * (Threshold NaN: never crossed), g1 = floor(Bias) modulo 2^32, g2 = 1 when Bias has a
 * fraction, 2 when it is not finite.
 */
#include <math.h>
#include <stdio.h>

#include "ops/activation.h"

typedef struct act_info {
    DML_OPERATOR_TYPE type;
    dmli_act act;
    const char *name;
    int n_params;
    const char *param_names[2];
    bool fusable;
} act_info;

/* The descriptor of every one-input activation: the tensors, then its FLOATs. */
typedef struct act_layout {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_layout;

static const act_info infos[] = {
    {DML_OPERATOR_ACTIVATION_ELU, DMLI_ACT_ELU, "ELU", 1, {"Alpha"}, true},
    {DML_OPERATOR_ACTIVATION_HARD_SIGMOID,
     DMLI_ACT_HARD_SIGMOID,
     "HARD_SIGMOID",
     2,
     {"Alpha", "Beta"},
     true},
    {DML_OPERATOR_ACTIVATION_IDENTITY, DMLI_ACT_IDENTITY, "IDENTITY", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_LEAKY_RELU, DMLI_ACT_LEAKY_RELU, "LEAKY_RELU", 1, {"Alpha"}, true},
    {DML_OPERATOR_ACTIVATION_LINEAR, DMLI_ACT_LINEAR, "LINEAR", 2, {"Alpha", "Beta"}, true},
    {DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS,
     DMLI_ACT_PARAMETRIC_SOFTPLUS,
     "PARAMETRIC_SOFTPLUS",
     2,
     {"Alpha", "Beta"},
     true},
    {DML_OPERATOR_ACTIVATION_RELU, DMLI_ACT_RELU, "RELU", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_SCALED_ELU,
     DMLI_ACT_SCALED_ELU,
     "SCALED_ELU",
     2,
     {"Alpha", "Gamma"},
     true},
    {DML_OPERATOR_ACTIVATION_SCALED_TANH,
     DMLI_ACT_SCALED_TANH,
     "SCALED_TANH",
     2,
     {"Alpha", "Beta"},
     true},
    {DML_OPERATOR_ACTIVATION_SIGMOID, DMLI_ACT_SIGMOID, "SIGMOID", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_SOFTPLUS, DMLI_ACT_SOFTPLUS, "SOFTPLUS", 1, {"Steepness"}, true},
    {DML_OPERATOR_ACTIVATION_SOFTSIGN, DMLI_ACT_SOFTSIGN, "SOFTSIGN", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_TANH, DMLI_ACT_TANH, "TANH", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU,
     DMLI_ACT_THRESHOLDED_RELU,
     "THRESHOLDED_RELU",
     1,
     {"Alpha"},
     true},
    {DML_OPERATOR_ACTIVATION_SHRINK, DMLI_ACT_SHRINK, "SHRINK", 2, {"Bias", "Threshold"}, true},
    {DML_OPERATOR_ACTIVATION_CELU, DMLI_ACT_CELU, "CELU", 1, {"Alpha"}, true},
    {DML_OPERATOR_ACTIVATION_GELU, DMLI_ACT_GELU, "GELU", 0, {0}, true},
    {DML_OPERATOR_ACTIVATION_SWISH, DMLI_ACT_SWISH, "SWISH", 1, {"SigmoidInputScale"}, false},
    {DML_OPERATOR_ACTIVATION_HARD_SWISH,
     DMLI_ACT_HARD_SWISH,
     "HARD_SWISH",
     2,
     {"Alpha", "Beta"},
     false},
};

#define FUSABLE_LIST                                                                           \
    "ELU, HARD_SIGMOID, IDENTITY, LEAKY_RELU, LINEAR, PARAMETRIC_SOFTPLUS, RELU, SCALED_ELU, " \
    "SCALED_TANH, SIGMOID, SOFTPLUS, SOFTSIGN, TANH, THRESHOLDED_RELU, SHRINK, CELU, GELU"

static const act_info *info_of(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof infos / sizeof infos[0]; ++i)
        if (infos[i].type == type)
            return &infos[i];
    return NULL;
}

bool dmli_activation_read(DML_OPERATOR_TYPE type, const void *desc, dmli_activation *out)
{
    const act_info *info = info_of(type);
    if (!info)
        return false;
    const act_layout *d = desc;
    out->act = info->act;
    for (int i = 0; i < 3; ++i)
        out->param[i] = i < info->n_params ? (double)d->param[i] : 0.0;
    return true;
}

HRESULT dmli_activation_check(const char *op, const char *prefix, DML_OPERATOR_TYPE type,
                              const void *desc)
{
    if (type == DML_OPERATOR_ACTIVATION_SOFTPLUS) {
        FLOAT s = ((const DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC *)desc)->Steepness;
        /* At least 1 up to feature level 6.3; 6.4 allows less (the feature-level history). 0
         * divides, a NaN or an infinity is no steepness. */
        DMLI_INVALID_IF(!isfinite(s) || s == 0.0f,
                        "%s: %sSteepness (%g) must be finite and not 0 (ln(1 + e^(Steepness x)) / "
                        "Steepness)",
                        op, prefix, (double)s);
    }
    return S_OK;
}

HRESULT dmli_activation_fused_desc(const char *op, const char *field,
                                   const DML_OPERATOR_DESC *fused, const char *name)
{
    DMLI_INVALID_IF(!fused->Desc, "%s: %s->Desc (NULL) must point to the DML_%s_OPERATOR_DESC", op,
                    field, name);
    const act_layout *d = fused->Desc;
    DMLI_INVALID_IF(d->InputTensor || d->OutputTensor,
                    "%s: %s->Desc->%s must be NULL: a fused activation reads and writes the "
                    "operator's own output",
                    op, field, d->InputTensor ? "InputTensor" : "OutputTensor");
    return S_OK;
}

HRESULT dmli_activation_fused(const char *op, const char *field, const DML_OPERATOR_DESC *fused,
                              DML_TENSOR_DATA_TYPE out_type, dmli_activation *out)
{
    out->act = DMLI_ACT_NONE;
    out->param[0] = out->param[1] = out->param[2] = 0.0;
    if (!fused)
        return S_OK;
    const act_info *info = info_of(fused->Type);
    const char *name = dmli_operator_type_name(fused->Type);
    DMLI_INVALID_IF(!info || !info->fusable,
                    "%s: %s->Type (%s%s, %d) is not an activation DirectML fuses (%s)", op, field,
                    name ? "DML_OPERATOR_" : "", name ? name : "not an operator", (int)fused->Type,
                    FUSABLE_LIST);
    char name_[64];
    snprintf(name_, sizeof name_, "ACTIVATION_%s", info->name);
    DMLI_TRY(dmli_activation_fused_desc(op, field, fused, name_));
    DMLI_INVALID_IF(out_type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        out_type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: %s (DML_OPERATOR_ACTIVATION_%s) needs OutputTensor.DataType FLOAT32 or "
                    "FLOAT16, not %s",
                    op, field, info->name, dmli_type_name(out_type));
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s->Desc->", field);
    DMLI_TRY(dmli_activation_check(op, prefix, fused->Type, fused->Desc));
    dmli_activation_read(fused->Type, fused->Desc, out);
    return S_OK;
}

/* SHRINK's integer parameters (the top comment). */
static void shrink_integers(const dmli_activation *a, dmli_map *map)
{
    double bias = a->param[0], threshold = a->param[1];
    const double far = 1099511627776.0; /* 2^40: beyond every value of a 32-bit type */
    double t = isnan(threshold) ? far : fmin(fmax(floor(threshold), -far), far);
    int64_t b = 0, mode = 2;
    if (isfinite(bias)) {
        b = (int64_t)fmod(floor(bias), 4294967296.0);
        mode = floor(bias) != bias;
    }
    dmli_map_param_int(map, DMLI_MAP_PARAM_ACT + 0, (int64_t)t);
    dmli_map_param_int(map, DMLI_MAP_PARAM_ACT + 1, b);
    dmli_map_param_int(map, DMLI_MAP_PARAM_ACT + 2, mode);
}

void dmli_activation_apply(const dmli_activation *a, dmli_map *map)
{
    map->act = a->act;
    if (a->act == DMLI_ACT_SHRINK && !dmli_type_is_float(map->out.type)) {
        shrink_integers(a, map);
        return;
    }
    for (int i = 0; i < 3; ++i)
        dmli_map_param_real(map, DMLI_MAP_PARAM_ACT + i, a->param[i]);
}
