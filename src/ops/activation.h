/* SPDX-License-Identifier: MIT */
/*
 * DirectML's activations as one epilogue (cl/activation.cl ACTIVATE): an ACTIVATION_* operator
 * is a map of the identity followed by its activation, and an operator with a
 * `const DML_OPERATOR_DESC *FusedActivation` (ELEMENT_WISE_ADD1 now; GEMM, CONVOLUTION and the
 * normalizations later) applies the same activation to its result. This module reads an
 * activation's descriptor into {dmli_act, parameters}, validates a fused one, and writes both
 * into a map (parameters DMLI_MAP_PARAM_ACT + 0..2).
 */
#ifndef DMLI_OPS_ACTIVATION_H
#define DMLI_OPS_ACTIVATION_H

#include "internal.h"

typedef struct dmli_activation {
    dmli_act act;    /* DMLI_ACT_NONE: no activation */
    double param[3]; /* g0, g1, g2 as dmli_act names them */
} dmli_activation;

/* The activation an ACTIVATION_* operator of `type` describes, and its FLOAT members; false
 * when type is not one of them (PARAMETERIZED_RELU, whose slope is a tensor, is not). */
bool dmli_activation_read(DML_OPERATOR_TYPE type, const void *desc, dmli_activation *out);

/* The rules of an activation's parameters (SOFTPLUS: Steepness finite and not 0), messages naming
 * `op` and `prefix` (e.g. "FusedActivation->Desc->"). */
HRESULT dmli_activation_check(const char *op, const char *prefix, DML_OPERATOR_TYPE type,
                              const void *desc);

/*
 * A fused activation (`field` the member's name): NULL gives DMLI_ACT_NONE; else its Type is
 * one DirectML allows to fuse (ELU, HARD_SIGMOID, IDENTITY, LEAKY_RELU, LINEAR,
 * PARAMETRIC_SOFTPLUS, RELU, SCALED_ELU, SCALED_TANH, SIGMOID, SOFTPLUS, SOFTSIGN, TANH,
 * THRESHOLDED_RELU, SHRINK, CELU, GELU), its Desc is not NULL, its InputTensor and
 * OutputTensor are NULL, its parameters keep their rules, and out_type is FLOAT32 or FLOAT16.
 * Every breach is E_INVALIDARG naming the field.
 */
HRESULT dmli_activation_fused(const char *op, const char *field, const DML_OPERATOR_DESC *fused,
                              DML_TENSOR_DATA_TYPE out_type, dmli_activation *out);

/* What every fused activation's descriptor shares: a Desc (the DML_<name>_OPERATOR_DESC) whose
 * InputTensor and OutputTensor (its first two members) are NULL. */
HRESULT dmli_activation_fused_desc(const char *op, const char *field,
                                   const DML_OPERATOR_DESC *fused, const char *name);

/* Sets the map's activation and its parameters (after dmli_map_init, which fixes the output
 * type: SHRINK on integers takes integer parameters, see activation.c). */
void dmli_activation_apply(const dmli_activation *a, dmli_map *map);

#endif /* DMLI_OPS_ACTIVATION_H */
