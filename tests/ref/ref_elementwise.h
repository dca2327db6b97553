/* SPDX-License-Identifier: MIT */
/*
 * ref_elementwise.h: the oracle for DirectML's element-wise arithmetic (ADD, SUBTRACT,
 * MULTIPLY, DIVIDE, MAX, MIN, MEAN, DIFFERENCE_SQUARE, NEGATE, ABS, CEIL, FLOOR, SQRT, RECIP, EXP,
 * LOG). Written from
 * DirectML's operator pages and the rules dmlcl documents where they are silent
 * (docs/operators.md); nothing from src/.
 *
 * Floating point: each value read as a double, ScaleBias g(x) = x * Scale + Bias in FLOAT32
 * rounded once (DirectML's g is FLOAT math; dmlcl computes it as one fused multiply-add), f
 * computed in double and rounded once to the output type. The device may differ by the
 * operator's ULP tolerance (ref_elementwise_ulps). Integers: exact, in 64 or 128 bits, then
 * wrapped into the output's width.
 */
#ifndef DMLCL_TESTS_REF_ELEMENTWISE_H
#define DMLCL_TESTS_REF_ELEMENTWISE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_ew_op {
    REF_EW_ADD,
    REF_EW_SUBTRACT,
    REF_EW_MULTIPLY,
    REF_EW_DIVIDE,
    REF_EW_MAX,
    REF_EW_MIN,
    REF_EW_MEAN,
    REF_EW_DIFFERENCE_SQUARE,
    REF_EW_NEGATE,
    REF_EW_ABS,
    REF_EW_CEIL,
    REF_EW_FLOOR,
    REF_EW_SQRT,
    REF_EW_RECIP,
    REF_EW_EXP,
    REF_EW_LOG,
    REF_EW_COUNT
} ref_ew_op;

/* "ADD", ... and whether the operator takes B. */
const char *ref_ew_name(ref_ew_op op);
bool ref_ew_binary(ref_ew_op op);

/*
 * out[c] = f(a[c], b[c]) (b NULL for the unary operators; sb applies to a, unary only).
 * Tensors of one type, rank and sizes (false otherwise, nothing written).
 */
bool ref_elementwise(ref_ew_op op, const ref_tensor *a, const ref_tensor *b,
                     const DML_SCALE_BIAS *sb, const ref_tensor *out);

/* The ULP tolerance of a floating-point output of op against this oracle (type FLOAT16 or
 * FLOAT32): reference/precision.md's figures; 0 where the result is exact in any precision. */
unsigned ref_elementwise_ulps(ref_ew_op op);
/* An absolute tolerance where precision.md gives one (LOG: 1/1024), else 0. */
double ref_elementwise_abs(ref_ew_op op);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_ELEMENTWISE_H */
