/* SPDX-License-Identifier: MIT */
/*
 * ref_intmm.h: the oracle for DirectML's integer and quantized matrix operators
 * (MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, MATRIX_MULTIPLY_INTEGER_TO_FLOAT,
 * CONVOLUTION_INTEGER, QUANTIZED_LINEAR_CONVOLUTION), written from their pages and ONNX's
 * MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv and com.microsoft's
 * MatMulIntegerToFloat; nothing from src/. Sums are exact (64-bit); the requantization and the
 * float conversion in double. Arrays are packed, row-major, in the operators' logical layouts.
 */
#ifndef DMLCL_TESTS_REF_INTMM_H
#define DMLCL_TESTS_REF_INTMM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sum[b, m, n] = sum over k of (a[b, m, k] - za[b, m]) (b[b, k, n] - zb[b, n]): `batches`
 * products of {m, k} . {k, n}; za, zb NULL for 0. */
void ref_intmm_product(uint64_t batches, uint64_t m, uint64_t k, uint64_t n, const int32_t *a,
                       const int32_t *b, const int32_t *za, const int32_t *zb, int64_t *sum);

/* A forward 2-D cross-correlation of x {batch, cin, ih, iw} (minus zx) with w {cout, cin /
 * groups, kh, kw} (minus zw[cout], NULL for 0): sum {batch, cout, oh, ow}; taps outside the
 * input (the padding) add nothing. */
typedef struct ref_intconv_desc {
    uint32_t batch, cin, ih, iw, cout, kh, kw, groups, oh, ow;
    uint32_t stride[2], dilation[2], pad[2]; /* {H, W}; pad: StartPadding */
} ref_intconv_desc;
void ref_intmm_conv(const ref_intconv_desc *d, const int32_t *x, int32_t zx, const int32_t *w,
                    const int32_t *zw, int64_t *sum);

/* The sum as INT32 holds it: wrapped modulo 2^32 (ONNX: the accumulation may overflow in 32
 * bits only). */
int32_t ref_intmm_wrap(int64_t sum);

/*
 * Requantization as ONNX's QLinearMatMul and QLinearConv define it: multiplier
 * float32(float32(sa * sb) / so), value = sum x multiplier (in double), rounded half to even,
 * + zp, saturated to [qmin, qmax]. *near_tie (when not NULL) is set where the value lies within
 * 2^-18 of a half-integer relative to its magnitude (there a float32 computation may round
 * either way).
 */
int32_t ref_requantize(int32_t sum, float sa, float sb, float so, int32_t zp, int32_t qmin,
                       int32_t qmax, bool *near_tie);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_INTMM_H */
