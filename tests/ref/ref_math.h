/* SPDX-License-Identifier: MIT */
/*
 * ref_math.h: the oracle for DirectML's further element-wise arithmetic (ACOS, ACOSH, ASIN,
 * ASINH, ATAN, ATANH, ATAN_YX, CLIP, CLIP1, CONSTANT_POW, COS, COSH, ERF, MODULUS_FLOOR,
 * MODULUS_TRUNCATE, POW, ROUND, SIGN, SIN, SINH, TAN, TANH, THRESHOLD). Written from
 * DirectML's operator pages and the rules docs/operators.md states where they are silent;
 * nothing from src/ or cl/.
 *
 * Floating point: values read as doubles, ScaleBias g(x) = x * Scale + Bias in FLOAT32 rounded
 * once, f in double (C's libm), rounded once to the output type. Integers: exact in 64 bits,
 * wrapped into the output's width. POW of an integer by a float: pow in double rounded to
 * FLOAT32 (DirectML computes in float), then truncated toward zero and saturated (NaN 0).
 */
#ifndef DMLCL_TESTS_REF_MATH_H
#define DMLCL_TESTS_REF_MATH_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_math_op {
    REF_MATH_ACOS,
    REF_MATH_ACOSH,
    REF_MATH_ASIN,
    REF_MATH_ASINH,
    REF_MATH_ATAN,
    REF_MATH_ATANH,
    REF_MATH_COS,
    REF_MATH_COSH,
    REF_MATH_ERF,
    REF_MATH_SIN,
    REF_MATH_SINH,
    REF_MATH_TAN,
    REF_MATH_TANH,
    REF_MATH_CLIP,         /* args lo, hi (FLOATs) or lo_bits, hi_bits (typed: CLIP1) */
    REF_MATH_CONSTANT_POW, /* args lo: the exponent */
    REF_MATH_ROUND,        /* args mode: a DML_ROUNDING_MODE */
    REF_MATH_SIGN,
    REF_MATH_THRESHOLD, /* args lo: Min */
    /* Binary from here. */
    REF_MATH_ATAN_YX,
    REF_MATH_MODULUS_FLOOR,
    REF_MATH_MODULUS_TRUNCATE,
    REF_MATH_POW, /* B (the exponent) may have another type */
    REF_MATH_COUNT
} ref_math_op;

typedef struct ref_math_args {
    double lo, hi;             /* FLOAT parameters */
    bool typed;                /* CLIP1: the bounds are lo_bits, hi_bits of the tensor's type */
    uint64_t lo_bits, hi_bits; /* the value's bytes, little-endian, in the low bytes */
    int mode;
} ref_math_args;

const char *ref_math_name(ref_math_op op);
bool ref_math_binary(ref_math_op op);

/* out[c] = f(a[c], b[c]) (b NULL for unary operators; sb applies to a). False (nothing
 * written) when the tensors do not fit the operator. */
bool ref_math(ref_math_op op, const ref_tensor *a, const ref_tensor *b, const DML_SCALE_BIAS *sb,
              const ref_math_args *args, const ref_tensor *out);

/* Tolerances of a FLOAT32 or FLOAT16 output, in the output type's ULPs and absolute: see
 * docs/operators.md (reference/precision.md where it has the function). */
unsigned ref_math_ulps(ref_math_op op);
double ref_math_abs(ref_math_op op);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_MATH_H */
