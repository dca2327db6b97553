/* SPDX-License-Identifier: MIT */
/*
 * The map family's further arithmetic (src/internal.h dmli_map_op 17-63): F, an expression
 * of x0 (x1) and the operation's parameters q0 to q2, for each of those OPs: DMLI_OP_n.
 *
 * 17-38: DirectML's ELEMENT_WISE_ ACOS ... THRESHOLD (src/ops/elementwise_math.c). The
 * transcendental functions are OpenCL's built-ins (full profile: within a few ulps in float),
 * but ERF, cl/erf.cl's (PoCL's built-in is 20x slower); the rest is exact. Rules where DirectML's
 * pages are silent (docs/operators.md): CLIP and THRESHOLD order -0 below +0 as MAX and MIN do,
 * ignore a NaN bound and keep a NaN input; SIGN gives +0 for +-0 and NaN; MODULUS_* on integers: x
 * mod 0 is x, the most negative value mod -1 is 0 (the remainder that goes with DIVIDE's
 * every-bit-set quotient, as RISC-V defines it); on floats NaN for a zero divisor, MODULUS_FLOOR as
 * numpy.mod (the sign of the divisor, a zero remainder signed as the divisor); POW of integers
 * exact (wrapped), a negative exponent giving the truncated 1 / x^-e (0 ^ negative: every bit set).
 *
 * 39-42: QUANTIZE_LINEAR and DEQUANTIZE_LINEAR, with and without a zero point
 * (src/ops/elementwise_quant.c states their rules).
 *
 * 43-44: ACTIVATION_RELU_GRAD and ELEMENT_WISE_CLIP_GRAD(1) (src/ops/elementwise_grad.c): the
 * incoming gradient x1 where the forward input x0 passed, else 0; exact (a select).
 */
#if OP_IN(17, 42) /* the helpers, where an operation needs them */

#if INT_COMPUTE
/* MODULUS_TRUNCATE: the remainder of DIVIDE's truncated quotient. */
static COMPUTE_T mod_trunc(COMPUTE_T a, COMPUTE_T b)
{
    if (b == 0)
        return a;
#if SIGNED_COMPUTE
    if (b == -1)
        return 0;
#endif
    return a % b;
}

/* MODULUS_FLOOR: the remainder takes the divisor's sign. */
static COMPUTE_T mod_floor(COMPUTE_T a, COMPUTE_T b)
{
    COMPUTE_T r = mod_trunc(a, b);
#if SIGNED_COMPUTE
    if (b != 0 && r != 0 && (r < 0) != (b < 0))
        r += b;
#endif
    return r;
}

/* POW: by squaring, modulo 2^64 (the store keeps the output's width). */
static COMPUTE_T ipow(COMPUTE_T x, COMPUTE_T e)
{
#if SIGNED_COMPUTE
    if (e < 0) {
        if (x == 1 || x == 0)
            return x == 1 ? 1 : (COMPUTE_T)-1;
        return x == -1 ? ((e & 1) ? (COMPUTE_T)-1 : 1) : 0;
    }
#endif
    ulong r = 1, b = (ulong)x, n = (ulong)e;
    while (n) {
        if (n & 1)
            r *= b;
        b *= b;
        n >>= 1;
    }
    return (COMPUTE_T)r;
}

static COMPUTE_T clip(COMPUTE_T x, COMPUTE_T lo, COMPUTE_T hi)
{
    COMPUTE_T y = x > hi ? hi : x;
    return y < lo ? lo : y;
}

static COMPUTE_T sign_of(COMPUTE_T x)
{
#if SIGNED_COMPUTE
    return x > 0 ? 1 : x < 0 ? (COMPUTE_T)-1 : 0;
#else
    return x != 0 ? 1 : 0;
#endif
}

/* DEQUANTIZE_LINEAR of 32-bit integers: the difference d, exact in long, rounded once to
 * float (nearest even), times the scale read from its encoding (FLOAT16 where is_half is set,
 * else FLOAT32), rounded once in float; the result's encoding in the output's type, FLOAT16
 * rounded to nearest even from the float product (as the float compute's FLOAT16 store). */
static COMPUTE_T dequant_bits(COMPUTE_T d, COMPUTE_T scale_bits, COMPUTE_T is_half)
{
    ushort h = (ushort)scale_bits;
    float s = is_half ? vload_half(0, (const __private half *)&h) : as_float((uint)scale_bits);
    float p = convert_float_rte(d) * s;
    return is_half ? (COMPUTE_T)dmli_half_bits(p) : (COMPUTE_T)as_uint(p);
}
#else
/* POW and CONSTANT_POW of floats: C99's pow, but a negative base with a non-integral exponent
 * is NaN, as the pages say, -inf too (C99 gives pow(-inf, 0.5) = +inf). */
static COMPUTE_T dml_pow(COMPUTE_T x, COMPUTE_T e)
{
    return x == -(COMPUTE_T)INFINITY && rint(e) != e ? (COMPUTE_T)NAN : pow(x, e);
}

/* MODULUS_FLOOR as numpy.mod: fmod (exact), moved by the divisor when the signs differ. */
static COMPUTE_T mod_floor(COMPUTE_T a, COMPUTE_T b)
{
    COMPUTE_T r = fmod(a, b);
    if (r == 0)
        return copysign((COMPUTE_T)0, b);
    if ((b < 0) != (r < 0))
        r += b;
    return r;
}

/* CLIP: DirectML's max(Min, min(x, Max)) under MAX's and MIN's rules, but a NaN input stays
 * NaN (those rules would give a bound). */
static COMPUTE_T clip(COMPUTE_T x, COMPUTE_T lo, COMPUTE_T hi)
{
    return isnan(x) ? x : maximum(lo, minimum(x, hi));
}

static COMPUTE_T sign_of(COMPUTE_T x)
{
    return x > 0 ? (COMPUTE_T)1 : x < 0 ? (COMPUTE_T)-1 : (COMPUTE_T)0;
}

/* Halves to even by adding and removing 2^(mantissa bits) in the default rounding (exact:
 * FP_CONTRACT is off and no unsafe-math flag is given); PoCL's rint is 25% slower than the
 * copy (dmlcl-bench-style timing of 2^24 floats: 3.05 ms against FLOOR's 2.45). */
static COMPUTE_T rint_even(COMPUTE_T x)
{
#if COMPUTE_DOUBLE
    COMPUTE_T big = copysign((COMPUTE_T)4503599627370496.0, x);
#else
    COMPUTE_T big = copysign((COMPUTE_T)8388608.0f, x);
#endif
    COMPUTE_T r = (x + big) - big;
    return fabs(x) < fabs(big) ? copysign(r, x) : x; /* large, infinite, NaN: x */
}

/* ROUND by DML_ROUNDING_MODE (q0): halves to even, toward zero, halves away from zero (one
 * kernel for the three: the branch is uniform across a launch and costs no measurable time,
 * TOWARD_INFINITY's ROUND timing FLOOR's OP of its own). */
static COMPUTE_T round_mode(COMPUTE_T x, COMPUTE_T mode)
{
    return mode == 0 ? rint_even(x) : mode == 1 ? trunc(x) : round(x);
}
#endif
#endif /* OP_IN(17, 42) */

/* Operation n of x0 (x1) and q0 to q2: DMLI_OP_n, a macro (cl/map.cl applies it). */
#define DMLI_OP_17(x0, x1, x2, x3, x4, q0, q1, q2) acos(x0)
#define DMLI_OP_18(x0, x1, x2, x3, x4, q0, q1, q2) acosh(x0)
#define DMLI_OP_19(x0, x1, x2, x3, x4, q0, q1, q2) asin(x0)
#define DMLI_OP_20(x0, x1, x2, x3, x4, q0, q1, q2) asinh(x0)
#define DMLI_OP_21(x0, x1, x2, x3, x4, q0, q1, q2) atan(x0)
#define DMLI_OP_22(x0, x1, x2, x3, x4, q0, q1, q2) atanh(x0)
#define DMLI_OP_23(x0, x1, x2, x3, x4, q0, q1, q2) atan2(x0, x1)
#define DMLI_OP_24(x0, x1, x2, x3, x4, q0, q1, q2) clip(x0, q0, q1)
#define DMLI_OP_25(x0, x1, x2, x3, x4, q0, q1, q2) dml_pow(x0, q0)
#define DMLI_OP_26(x0, x1, x2, x3, x4, q0, q1, q2) cos(x0)
#define DMLI_OP_27(x0, x1, x2, x3, x4, q0, q1, q2) cosh(x0)
#if COMPUTE_DOUBLE
#define DMLI_OP_28(x0, x1, x2, x3, x4, q0, q1, q2) erf(x0)
#else
/* cl/erf.cl: PoCL's built-in takes ~20 ns an element */
#define DMLI_OP_28(x0, x1, x2, x3, x4, q0, q1, q2) dmli_erf_f(x0)
#endif
#define DMLI_OP_29(x0, x1, x2, x3, x4, q0, q1, q2) mod_floor(x0, x1)
#if INT_COMPUTE
#define DMLI_OP_30(x0, x1, x2, x3, x4, q0, q1, q2) mod_trunc(x0, x1)
#else
/* exact; NaN for a zero divisor */
#define DMLI_OP_30(x0, x1, x2, x3, x4, q0, q1, q2) fmod(x0, x1)
#endif
#if INT_COMPUTE
#define DMLI_OP_31(x0, x1, x2, x3, x4, q0, q1, q2) ipow(x0, x1)
#else
#define DMLI_OP_31(x0, x1, x2, x3, x4, q0, q1, q2) dml_pow(x0, x1)
#endif
#define DMLI_OP_32(x0, x1, x2, x3, x4, q0, q1, q2) round_mode(x0, q0)
#define DMLI_OP_33(x0, x1, x2, x3, x4, q0, q1, q2) sign_of(x0)
#define DMLI_OP_34(x0, x1, x2, x3, x4, q0, q1, q2) sin(x0)
#define DMLI_OP_35(x0, x1, x2, x3, x4, q0, q1, q2) sinh(x0)
#define DMLI_OP_36(x0, x1, x2, x3, x4, q0, q1, q2) tan(x0)
#define DMLI_OP_37(x0, x1, x2, x3, x4, q0, q1, q2) tanh(x0)
/* max(x0, Min) */
#define DMLI_OP_38(x0, x1, x2, x3, x4, q0, q1, q2) clip(x0, q0, x0)
/* QUANTIZE_LINEAR (float compute: a FLOAT32, FLOAT16 or INT32 input, its value in float): the
 * quotient rounded in float, then halves to even; the saturating store to INT8 or UINT8 is the
 * page's clamp to the type (+-inf to its ends, NaN 0, as CAST converts). */
#define DMLI_OP_39(x0, x1, x2, x3, x4, q0, q1, q2) (rint_even(x0 / x1) + x2)
#define DMLI_OP_40(x0, x1, x2, x3, x4, q0, q1, q2) rint_even(x0 / x1)
/* DEQUANTIZE_LINEAR: in float, 8- and 16-bit differences are exact and the product rounds once;
 * 32-bit inputs in long on encodings (dequant_bits; q0 1: FLOAT16). */
#if INT_COMPUTE
#define DMLI_OP_41(x0, x1, x2, x3, x4, q0, q1, q2) dequant_bits(x0 - x2, x1, q0)
#define DMLI_OP_42(x0, x1, x2, x3, x4, q0, q1, q2) dequant_bits(x0, x1, q0)
#else
#define DMLI_OP_41(x0, x1, x2, x3, x4, q0, q1, q2) ((x0 - x2) * x1)
#define DMLI_OP_42(x0, x1, x2, x3, x4, q0, q1, q2) (x0 * x1)
#endif
/* RELU_GRAD: x > 0 ? dY : 0. CLIP_GRAD: 0 at or beyond either bound, else dY; a NaN x is
 * within them (neither comparison holds), as the page's conditions read. */
#define DMLI_OP_43(x0, x1, x2, x3, x4, q0, q1, q2) (x0 > 0 ? x1 : (COMPUTE_T)0)
#define DMLI_OP_44(x0, x1, x2, x3, x4, q0, q1, q2) (x0 <= q0 || x0 >= q1 ? (COMPUTE_T)0 : x1)
