/* SPDX-License-Identifier: MIT */
/*
 * ref_conv.h: the oracle for DirectML's CONVOLUTION. Written from DirectML's page (the
 * members, the mode table, the tensor shapes) and the rules dmlcl documents where it is silent
 * (docs/operators.md); nothing from src/.
 *
 * FORWARD computes each output as the sum over its window (taps outside the input add
 * nothing); BACKWARD scatters: every input value times every tap is added to the output
 * position i * Strides + k * Dilations - StartPadding it lands on (kept when inside the
 * output), the definition of a transposed convolution, independent of the gather dmlcl runs.
 * CONVOLUTION mode reads tap K - 1 - k for k. Products and sums in double, + bias, the
 * activation in double, rounded once to the output type.
 */
#ifndef DMLCL_TESTS_REF_CONV_H
#define DMLCL_TESTS_REF_CONV_H

#include "ref.h"
#include "ref_activation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_conv_params {
    bool backward;    /* DML_CONVOLUTION_DIRECTION_BACKWARD */
    bool convolution; /* DML_CONVOLUTION_MODE_CONVOLUTION (flipped taps) */
    uint32_t spatial; /* 1 to 3: the tensors have spatial + 2 dimensions */
    uint32_t strides[3], dilations[3], start[3], end[3], output_padding[3];
    uint32_t groups;
    ref_act act;
    double act_param[3];
} ref_conv_params;

/* The output sizes the rules give (BACKWARD: the smallest output they allow); false when the
 * shapes break a rule. */
bool ref_conv_output_sizes(const ref_conv_params *p, const uint32_t *in_sizes,
                           const uint32_t *filter_sizes, uint32_t *out_sizes);

/*
 * The convolution into out (FLOAT32 or FLOAT16, every tensor one type; bias NULL when absent).
 * bound, when not NULL, receives per output element (row-major over out's sizes) the absolute
 * error a float32 accumulation may make: (products + 1) x 2^-24 x (sum of |products| + |bias|),
 * times the activation's slope bound. False (nothing written) when the tensors break a rule.
 */
bool ref_conv(const ref_conv_params *p, const ref_tensor *in, const ref_tensor *filter,
              const ref_tensor *bias, const ref_tensor *out, double *bound);

/* The ULP tolerance: 2 x the taps of one output (filter spatial volume x its input channels per
 * group) per reference/precision.md, plus the activation's own. */
unsigned ref_conv_ulps(const ref_conv_params *p, const ref_tensor *filter);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_CONV_H */
