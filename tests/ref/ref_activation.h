/* SPDX-License-Identifier: MIT */
/*
 * ref_activation.h: the oracle for DirectML's activations (ACTIVATION_*), ELEMENT_WISE_ADD1
 * with a fused activation, and PARAMETERIZED_RELU. Written from DirectML's operator pages and
 * the rules dmlcl documents where they are silent (docs/operators.md); nothing from src/.
 *
 * Floating point: each value read as a double, the activation computed in double (in the
 * forms that keep double accurate: expm1, log1p, erfc) and rounded once to the output type.
 * ADD1 rounds a + b to FLOAT32 first (the fused activation applies to ADD's FLOAT32 result).
 * Integers (RELU, PARAMETERIZED_RELU, SHRINK): exact, then wrapped into the output's width;
 * SHRINK's x -+ Bias truncated toward zero (0 for a NaN or infinite Bias).
 */
#ifndef DMLCL_TESTS_REF_ACTIVATION_H
#define DMLCL_TESTS_REF_ACTIVATION_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_act {
    REF_ACT_NONE,
    REF_ACT_CELU, /* p0 Alpha */
    REF_ACT_ELU,  /* p0 Alpha */
    REF_ACT_GELU,
    REF_ACT_HARD_SIGMOID, /* p0 Alpha, p1 Beta */
    REF_ACT_HARD_SWISH,   /* p0 Alpha, p1 Beta */
    REF_ACT_IDENTITY,
    REF_ACT_LEAKY_RELU,          /* p0 Alpha */
    REF_ACT_LINEAR,              /* p0 Alpha, p1 Beta */
    REF_ACT_PARAMETRIC_SOFTPLUS, /* p0 Alpha, p1 Beta */
    REF_ACT_RELU,
    REF_ACT_SCALED_ELU,  /* p0 Alpha, p1 Gamma */
    REF_ACT_SCALED_TANH, /* p0 Alpha, p1 Beta */
    REF_ACT_SHRINK,      /* p0 Bias, p1 Threshold */
    REF_ACT_SIGMOID,
    REF_ACT_SOFTPLUS, /* p0 Steepness */
    REF_ACT_SOFTSIGN,
    REF_ACT_SWISH, /* p0 SigmoidInputScale */
    REF_ACT_TANH,
    REF_ACT_THRESHOLDED_RELU,   /* p0 Alpha */
    REF_ACT_PARAMETERIZED_RELU, /* the slope is a tensor */
    REF_ACT_COUNT
} ref_act;

/* "CELU", ... */
const char *ref_act_name(ref_act act);

/* The activation of x, exact in double (p the descriptor's FLOATs). */
double ref_act_real(ref_act act, const double *p, double x);

/* out[c] = act(in[c]) (PARAMETERIZED_RELU: slope[c] the slope; else slope NULL). Tensors of
 * one type, rank and sizes (false otherwise, nothing written). */
bool ref_activation(ref_act act, const double *p, const ref_tensor *in, const ref_tensor *slope,
                    const ref_tensor *out);

/* ELEMENT_WISE_ADD1: out[c] = act(a[c] + b[c]) (act REF_ACT_NONE: ADD). */
bool ref_add1(ref_act act, const double *p, const ref_tensor *a, const ref_tensor *b,
              const ref_tensor *out);

/* The ULP tolerance of a FLOAT16 or FLOAT32 result against this oracle (reference/precision.md
 * where it lists the function; the count of roundings otherwise), and an absolute one (TANH and
 * SCALED_TANH: 1/1024, times |Alpha| for SCALED_TANH), else 0. */
unsigned ref_activation_ulps(ref_act act);
double ref_activation_abs(ref_act act, const double *p);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_ACTIVATION_H */
