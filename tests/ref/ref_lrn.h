/* SPDX-License-Identifier: MIT */
/*
 * ref_lrn.h: the oracle for DirectML's LOCAL_RESPONSE_NORMALIZATION. Written from DirectML's
 * page (Output = Input / (Bias + Alpha / LocalSize * sum of squares in the local region)^Beta)
 * and the rules dmlcl documents where it is silent (docs/operators.md: ONNX's window, from
 * i - floor((n - 1) / 2) to i + ceil((n - 1) / 2), clipped; across channels, or n x n within
 * one over height and width; the divisor LocalSize in both); nothing from src/.
 *
 * Each value read as a double, the sum and the power computed in double (Alpha, Beta, Bias the
 * descriptor's FLOATs), rounded once to the output type.
 */
#ifndef DMLCL_TESTS_REF_LRN_H
#define DMLCL_TESTS_REF_LRN_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 4-D {N, C, H, W} FLOAT32 or FLOAT16 in and out of one type and sizes, local_size >= 1 (false
 * otherwise, nothing written). */
bool ref_lrn(const ref_tensor *in, const ref_tensor *out, bool cross_channel, uint32_t local_size,
             double alpha, double beta, double bias);

/* The ULP tolerance of a FLOAT16 or FLOAT32 result: pow's 32 (reference/precision.md) plus one
 * per square summed (local_size, or its square within a channel) and 2 for the quotients. */
unsigned ref_lrn_ulps(bool cross_channel, uint32_t local_size);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_LRN_H */
