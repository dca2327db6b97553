/* SPDX-License-Identifier: MIT */
/*
 * ref_bnorm.h: the oracle for DirectML's BATCH_NORMALIZATION_TRAINING, BATCH_NORMALIZATION_GRAD
 * and BATCH_NORMALIZATION_TRAINING_GRAD. Written from DirectML's pages; nothing from src/.
 *
 * A channel is an element of the statistics' shape (ScaleTensor's, or MeanTensor's for the
 * gradients); its statistics and sums run over the input's elements whose coordinates equal the
 * channel's wherever the statistics' size is not 1. Values are read as doubles, every formula is
 * computed in double (Epsilon a float, as DirectML's FLOAT) and rounded once to the output type;
 * a fused activation applies to the FLOAT32-rounded normalized value (as ref_batch_norm).
 *
 * Along with each output element the oracle gives its error scale (`mag`, row-major over that
 * output's sizes) and the count of terms its value sums (`terms`): the sums' tolerance is the
 * reduce-sum rule (reference/precision.md, N + 2 ULP), or, where a sum cancels, (N + 2) times
 * the type's epsilon times mag, the value the same sum of the terms' magnitudes would have.
 */
#ifndef DMLCL_TESTS_REF_BNORM_H
#define DMLCL_TESTS_REF_BNORM_H

#include "ref.h"
#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per output k (in the operator's order): its elements' error scales and term counts. */
typedef struct ref_bnorm_bounds {
    double *mag[3];
    uint32_t terms[3];
} ref_bnorm_bounds;

/*
 * BATCH_NORMALIZATION_TRAINING: mean = sum(x) / N, variance = sum((x - mean)^2) / N (N the
 * channel's elements), out = act(scale * (x - mean) / sqrt(variance + eps) + bias + add), add
 * NULL when absent. FLOAT32 or FLOAT16 tensors of one type and rank; scale's sizes 1 or in's,
 * bias, mean and variance scale's, add and out in's (false otherwise, nothing written).
 * bounds: out's scale |scale / sqrt(variance + eps)| * (mean(|x|) + |x - mean|) + |bias| +
 * |add| with N terms (the statistics it rests on); mean's mean(|x|), variance's itself.
 */
bool ref_bn_training(const ref_tensor *in, const ref_tensor *scale, const ref_tensor *bias,
                     const ref_tensor *add, double eps, ref_act act, const double *p,
                     const ref_tensor *out, const ref_tensor *mean, const ref_tensor *variance,
                     ref_bnorm_bounds *bounds);

/*
 * BATCH_NORMALIZATION_GRAD (training false) and BATCH_NORMALIZATION_TRAINING_GRAD (true):
 *   dbias = sum(dy), dscale = sum(dy * (x - mean) / sqrt(var + eps)),
 *   dx = dy * scale / sqrt(var + eps)                                          (false)
 *   dx = scale / sqrt(var + eps) * ((dy - mean(dy))
 *        - (x - mean) * mean(dy * (x - mean)) / (var + eps))                    (true)
 * mean, var, scale, dscale, dbias of one shape (each size 1 or in's), dy and dx in's.
 * bounds: dx's scale (false: |dx| with 1 term; true: |scale / sqrt(var + eps)| * (|dy| +
 * mean(|dy|) + |x - mean| * mean(|dy * (x - mean)|) / (var + eps)) with N terms); dscale's and
 * dbias's the sums of their terms' magnitudes with N terms.
 */
bool ref_bn_grad(bool training, const ref_tensor *in, const ref_tensor *dy, const ref_tensor *mean,
                 const ref_tensor *var, const ref_tensor *scale, double eps, const ref_tensor *dx,
                 const ref_tensor *dscale, const ref_tensor *dbias, ref_bnorm_bounds *bounds);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_BNORM_H */
