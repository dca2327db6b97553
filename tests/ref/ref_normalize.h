/* SPDX-License-Identifier: MIT */
/*
 * ref_normalize.h: the oracle for DirectML's normalising operators: ACTIVATION_SOFTMAX,
 * LOG_SOFTMAX, HARDMAX (and their *1 versions), MEAN_VARIANCE_NORMALIZATION (and 1, 2) and
 * LP_NORMALIZATION. Written from DirectML's operator pages and the rules docs/operators.md
 * states where they are silent; nothing from src/ or cl/.
 *
 * A row is the set of elements sharing every coordinate outside `reduced`. Each value is read
 * as a double, the row's statistics and each result computed in double, the result rounded
 * once to the output's type (FLOAT32 or FLOAT16):
 *   SOFTMAX      exp(x - max) / sum(exp(x - max))
 *   LOG_SOFTMAX  (x - max) - log(sum(exp(x - max)))
 *   HARDMAX      1 at the row's first largest value (row-major over the reduced dimensions
 *                in dimension order), 0 elsewhere
 *   MVN          act(scale * (x - m) / sqrt(v + eps) + bias), m = mean (0 without use_mean),
 *                v = mean((x - m)^2) (biased), the division left out without use_variance;
 *                scale 1 and bias 0 when NULL, broadcast where their size is 1
 *   LP           x / max(||row||_p, eps), p 1 or 2
 */
#ifndef DMLCL_TESTS_REF_NORMALIZE_H
#define DMLCL_TESTS_REF_NORMALIZE_H

#include "ref.h"
#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_norm_op {
    REF_NORM_SOFTMAX,
    REF_NORM_LOG_SOFTMAX,
    REF_NORM_HARDMAX,
    REF_NORM_MVN,
    REF_NORM_LP,
    REF_NORM_COUNT
} ref_norm_op;

typedef struct ref_norm_args {
    bool reduced[REF_MAX_DIMS];  /* the row's dimensions */
    bool use_mean, use_variance; /* MVN */
    double epsilon;              /* MVN, LP */
    unsigned p;                  /* LP: 1 or 2 */
    ref_act act;                 /* MVN's fused activation (REF_ACT_NONE: none) */
    double act_p[3];
} ref_norm_args;

const char *ref_norm_name(ref_norm_op op);

/* Normalises in's rows into out (same rank and sizes; FLOAT32 or FLOAT16); scale and bias
 * (MVN only, NULL when absent) of in's rank, each size in's or 1. False (nothing written)
 * when the tensors do not fit. */
bool ref_normalize(ref_norm_op op, const ref_norm_args *args, const ref_tensor *in,
                   const ref_tensor *scale, const ref_tensor *bias, const ref_tensor *out);

/* The result for one element of an exact double row (x the row's values, n of them), before
 * MVN's scale, bias and activation: the formulas above. */
double ref_norm_row_value(ref_norm_op op, const ref_norm_args *args, const double *x, size_t n,
                          size_t i);

/* Tolerances against this oracle, for a row of n elements of a FLOAT32 or FLOAT16 output:
 * a result passes when within ulps of the output type's ULPs or within abs (either). SOFTMAX
 * 3n + 3 ULP (reference/precision.md); LOG_SOFTMAX the same, or (n + 3) ULPs of 1 absolute
 * (a result near 0 cancels); HARDMAX exact; MVN 1/1024 absolute (precision.md's layer
 * normalization; for |scale| <= 1) or 2 ULP where the output's ULP is coarser; LP n + 3 ULP. */
unsigned ref_norm_ulps(ref_norm_op op, size_t n);
double ref_norm_abs(ref_norm_op op, DML_TENSOR_DATA_TYPE type, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_NORMALIZE_H */
