/* SPDX-License-Identifier: MIT */
/*
 * ref_quant.h: the oracle for DirectML's ELEMENT_WISE_QUANTIZE_LINEAR and
 * ELEMENT_WISE_DEQUANTIZE_LINEAR. Written from DirectML's pages (the formulas, the type
 * tables) and the rules docs/operators.md states where they are silent; nothing from src/ or
 * cl/. Values are read exactly (integers in 64 bits, floats as doubles); each rounding the
 * rules name is made once, in double, where the result is the float32 one (a quotient or a
 * product of two floats computed in double and rounded to float is the float operation's
 * correctly rounded result).
 *
 *   QUANTIZE    q = input / scale rounded to FLOAT32 (an INT32 input first rounded to FLOAT32,
 *               nearest even), rounded halves to even, plus the zero point (0 when absent),
 *               then saturated to the output's type: NaN 0, +-inf its ends
 *   DEQUANTIZE  (input - zero point) exactly, rounded to FLOAT32, times scale rounded to
 *               FLOAT32; a FLOAT16 output is that FLOAT32 value rounded to FLOAT16
 */
#ifndef DMLCL_TESTS_REF_QUANT_H
#define DMLCL_TESTS_REF_QUANT_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[c] = f(input[c], scale[c], zero_point[c]) for every coordinate (zero_point NULL: absent).
 * False (nothing written) when the tensors do not fit the operator: the types of its tables
 * and the pages' type rules, one rank and one set of sizes. */
bool ref_quantize_linear(const ref_tensor *input, const ref_tensor *scale,
                         const ref_tensor *zero_point, const ref_tensor *out);
bool ref_dequantize_linear(const ref_tensor *input, const ref_tensor *scale,
                           const ref_tensor *zero_point, const ref_tensor *out);

/* ELEMENT_WISE_QUANTIZED_LINEAR_ADD, the page's formula with each operation in FLOAT32:
 * a = (A - Azp) * As and b = (B - Bzp) * Bs as DEQUANTIZE above, their sum rounded to FLOAT32,
 * then QUANTIZE of the sum by Os and Ozp (into out's type). Every scale and zero point holds
 * one element (read at coordinate 0); the zero points may be NULL (0), else of their tensor's
 * type. A, B and out of one shape, each INT8 or UINT8, the scales FLOAT32; false (nothing
 * written) otherwise. */
bool ref_quantized_linear_add(const ref_tensor *a, const ref_tensor *a_scale,
                              const ref_tensor *a_zp, const ref_tensor *b,
                              const ref_tensor *b_scale, const ref_tensor *b_zp,
                              const ref_tensor *out_scale, const ref_tensor *out_zp,
                              const ref_tensor *out);

/* DYNAMIC_QUANTIZE_LINEAR, from the page's formula and ONNX's DynamicQuantizeLinear: the input's
 * minimum and maximum (NaN passed over) widened to hold 0; scale = (max - min) / (Max - Min)
 * rounded to FLOAT32, or 1 where max = min; zero point = Min - min / scale (each operation
 * rounded to FLOAT32) clamped to [Min, Max] (NaN: Max) and rounded halves to even; out = the
 * QUANTIZE above with that scale and zero point. input FLOAT32 or FLOAT16; out and zero_point
 * INT8 or UINT8 of one type; scale FLOAT32 of one element; false (nothing written) otherwise. */
bool ref_dynamic_quantize_linear(const ref_tensor *input, const ref_tensor *out,
                                 const ref_tensor *scale, const ref_tensor *zero_point);

/* QUANTIZED_LINEAR_AVERAGE_POOLING on {N, C, [D,] H, W} (dims spatial axes, 2 or 3): for each
 * output element, the window positions o * stride - start + k * dilation, k < window, inside the
 * input (valid) and inside the padded input (padded); d = the sum of (q - input zero point) over
 * the valid ones, exactly; x = d * input scale, then x / (include_padding ? padded : valid) (0
 * for no divisor), each rounded to FLOAT32; out = QUANTIZE of that by the output scale and zero
 * point. The four quantization tensors hold 1 element or C (read at the channel's coordinate
 * along dimension 1); the zero points may be NULL (0). False when the tensors do not fit. */
bool ref_quantized_average_pooling(const ref_tensor *input, const ref_tensor *in_scale,
                                   const ref_tensor *in_zp, const ref_tensor *out_scale,
                                   const ref_tensor *out_zp, const ref_tensor *out, uint32_t dims,
                                   const uint32_t *strides, const uint32_t *window,
                                   const uint32_t *start, const uint32_t *end,
                                   const uint32_t *dilations, bool include_padding);

/* One element each: QUANTIZE's result as an integer of out_type's range, DEQUANTIZE's as the
 * double value of the output type (FLOAT32 or FLOAT16). */
int64_t ref_quantize_value(double input, double scale, int64_t zero_point,
                           DML_TENSOR_DATA_TYPE out_type);
double ref_dequantize_value(int64_t input, int64_t zero_point, double scale,
                            DML_TENSOR_DATA_TYPE out_type);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_QUANT_H */
