/* SPDX-License-Identifier: MIT */
/*
 * Activations (src/internal.h dmli_act), pasted into the kernels that apply one: ACTIVATE(y)
 * of a COMPUTE_T value y and the activation's parameters g0, g1, g2 (as dmli_act names them),
 * by ACT; the identity when ACT is 0. OPs 96-127 of the map family (activations that read
 * more than their input) define F here too. Reads COMPUTE_T, INT_COMPUTE (integers: RELU and
 * SHRINK only, in long) and FP_CONTRACT OFF from the including kernel.
 *
 * Each formula is DirectML's (docs/operators.md has the choices where its pages are silent),
 * written so that float32 stays within reference/precision.md's tolerance of the exact value:
 * expm1 and log1p where a difference cancels, the erfc form of GELU, and the rounding error of
 * a scaled input (Beta * x, x / Alpha, ...) carried to first order where the function
 * amplifies it (softplus, sigmoid and erfc tails).
 */
#include "erf.cl"
/* At the top level, never under a condition: the embedded sources include each file once,
 * where it is first named (a conditional first include hid it from reduce.cl). */
#include "exp.cl"

#ifndef ACT
#define ACT 0
#endif
#ifndef OP
#define OP 0
#endif
#ifndef COMPUTE_T
#define COMPUTE_T float
#endif
/* Whether the program applies activation n, or an operation in lo..hi (cl/map.cl widens both
 * to every stage of a chain). */
#ifndef ACT_USED
#define ACT_USED(n) (ACT == (n))
#endif
#ifndef OP_IN
#define OP_IN(lo, hi) (OP >= (lo) && OP <= (hi))
#endif
#ifndef COMPUTE_DOUBLE
#define COMPUTE_DOUBLE 0
#endif
#ifndef INT_COMPUTE
#define INT_COMPUTE 0
#endif
/* A real constant in COMPUTE_T (no double literal where the device may lack fp64). */
#if COMPUTE_DOUBLE
#define ACT_C(x) x
#else
#define ACT_C(x) x##f
#endif

#if !INT_COMPUTE && (ACT_USED(13) || ACT_USED(16) || ACT_USED(17) || ACT_USED(19))
/* The rounding error of p = a * b (0 where p is not finite). */
static DMLI_INLINE COMPUTE_T act_product_error(COMPUTE_T a, COMPUTE_T b, COMPUTE_T p)
{
    return isfinite(p) ? fma(a, b, -p) : (COMPUTE_T)0;
}
#endif

#if !INT_COMPUTE && (ACT_USED(16) || ACT_USED(17))
/* ln(1 + e^z) + e, for the exact argument z + e (e the rounding error of z). */
static DMLI_INLINE COMPUTE_T act_softplus(COMPUTE_T z, COMPUTE_T e)
{
    COMPUTE_T s = (z > 0 ? z : (COMPUTE_T)0) + log1p(exp(-fabs(z)));
    if (isnan(z))
        return z;
    return s + e / ((COMPUTE_T)1 + exp(-z)); /* d/dz softplus(z) = sigmoid(z) */
}
#endif

#if !INT_COMPUTE && (ACT_USED(12) || ACT_USED(13))
#if COMPUTE_DOUBLE
#define ACT_EXP(x) exp(x)
#else
/* cl/exp.cl's exp of x <= 0 (within 2 ULPs, plain arithmetic): a CPU driver's built-in is a
 * scalar call per element (PoCL's), which bound SIGMOID at 0.23 of the copy. */
#define ACT_EXP(x) dmli_expf_low(x)
#endif
/* 1 / (1 + e^-(z + e)), e the rounding error of z; e^z / (1 + e^z) below 0, where e^-z
 * overflows (from z < -88.7) though the result is a subnormal (z > -103.3). */
static DMLI_INLINE COMPUTE_T act_sigmoid(COMPUTE_T z, COMPUTE_T e)
{
    COMPUTE_T ez = ACT_EXP(-fabs(z));
    /* One quotient, its numerator chosen (the same bits as a quotient on each side: the loop
     * had both, a second division a vector: sigmoid 1.12x, dmlcl-ab). */
    COMPUTE_T s = (z < 0 ? ez : (COMPUTE_T)1) / ((COMPUTE_T)1 + ez);
    return e != 0 ? s + s * ((COMPUTE_T)1 - s) * e : s;
}
#endif

/* Activation n of y and its parameters g0 to g2: DMLI_ACT_n(y, g0, g1, g2), each a macro; the
 * functions behind them are compiled only where ACT_USED(n) (a map of several stages applies
 * an activation per stage: cl/map.cl). ACTIVATE(y) is ACT's. */
#define DMLI_ACT_0(y, g0, g1, g2) (y) /* none */
#define DMLI_ACT_1(y, g0, g1, g2) (y) /* IDENTITY */
/* RELU: NaN stays NaN, -0 gives +0 (max(+0, -0) is +0) */
#if INT_COMPUTE
#define DMLI_ACT_2(y, g0, g1, g2) ((y) > 0 ? (y) : (COMPUTE_T)0)
#else
#define DMLI_ACT_2(y, g0, g1, g2) (isnan(y) || (y) > 0 ? (y) : (COMPUTE_T)0)
#endif
#define DMLI_ACT_3(y, g0, g1, g2) ((y) >= 0 ? (y) : g0 * (y)) /* LEAKY_RELU */
/* THRESHOLDED_RELU: NaN gives 0 (NaN > Alpha is false) */
#define DMLI_ACT_4(y, g0, g1, g2) ((y) > g0 ? (y) : (COMPUTE_T)0)
#define DMLI_ACT_5(y, g0, g1, g2) fma(g0, (y), g1) /* LINEAR: Alpha * x + Beta rounded once */
#if ACT_USED(6) || ACT_USED(7)                     /* HARD_SIGMOID, HARD_SWISH: NaN stays NaN */
static DMLI_INLINE COMPUTE_T act_hard_sigmoid(COMPUTE_T x, COMPUTE_T alpha, COMPUTE_T beta)
{
    COMPUTE_T v = fma(alpha, x, beta);
    return v < 0 ? (COMPUTE_T)0 : v > 1 ? (COMPUTE_T)1 : v;
}
#endif
#define DMLI_ACT_6(y, g0, g1, g2) act_hard_sigmoid((y), g0, g1)
#define DMLI_ACT_7(y, g0, g1, g2) ((y)*act_hard_sigmoid((y), g0, g1))
#if ACT_USED(8) /* SHRINK */
#if INT_COMPUTE
/* Integers (src/ops/activation.c): g0 floor(Threshold), g1 floor(Bias) mod 2^32, g2 1 when
 * Bias has a fraction, 2 when it is not finite; x -+ Bias truncated toward zero, wrapped. */
static DMLI_INLINE COMPUTE_T act_shrink(COMPUTE_T x, COMPUTE_T t, COMPUTE_T b, COMPUTE_T mode)
{
    if (x > t) {
        COMPUTE_T n = (COMPUTE_T)((ulong)x - (ulong)b);
        return mode == 2 ? (COMPUTE_T)0 : n - (COMPUTE_T)(mode == 1 && n > 0);
    }
    if (x < -t) {
        COMPUTE_T m = (COMPUTE_T)((ulong)x + (ulong)b);
        return mode == 2 ? (COMPUTE_T)0 : m + (COMPUTE_T)(mode == 1 && m < 0);
    }
    return 0;
}
#else
static DMLI_INLINE COMPUTE_T act_shrink(COMPUTE_T x, COMPUTE_T bias, COMPUTE_T threshold,
                                        COMPUTE_T unused)
{
    (void)unused;
    return x > threshold ? x - bias : x < -threshold ? x + bias : (COMPUTE_T)0;
}
#endif
#endif
#define DMLI_ACT_8(y, g0, g1, g2) act_shrink((y), g0, g1, g2)
#define DMLI_ACT_9(y, g0, g1, g2) ((y) >= 0 ? (y) : g0 * expm1(y)) /* ELU */
#if ACT_USED(10) /* CELU: max(0, x) + min(0, Alpha * (exp(x / Alpha) - 1)) */
static DMLI_INLINE COMPUTE_T act_celu(COMPUTE_T x, COMPUTE_T alpha)
{
    if (!(x < 0))
        return x;
    COMPUTE_T q = x / alpha;
    COMPUTE_T e = isfinite(q) ? fma(-q, alpha, x) / alpha : (COMPUTE_T)0;
    COMPUTE_T m = expm1(q);
    if (isfinite(m) && e != 0)
        m += exp(q) * e; /* d/dq (e^q - 1) = e^q */
    COMPUTE_T v = alpha * m;
    return v < 0 ? v : (COMPUTE_T)0;
}
#endif
#define DMLI_ACT_10(y, g0, g1, g2) act_celu((y), g0)
#define DMLI_ACT_11(y, g0, g1, g2) ((y) > 0 ? g1 * (y) : g1 * (g0 * expm1(y))) /* SCALED_ELU */
#define DMLI_ACT_12(y, g0, g1, g2) act_sigmoid((y), (COMPUTE_T)0)              /* SIGMOID */
#if ACT_USED(13) /* SWISH: x * sigmoid(SigmoidInputScale * x) */
static DMLI_INLINE COMPUTE_T act_swish(COMPUTE_T x, COMPUTE_T scale)
{
    COMPUTE_T z = scale * x, e = act_product_error(scale, x, z);
    /* Below z = -80, sigmoid(z) is e^z to a 1e-35 part, and below -87 it is subnormal in float:
     * x sigmoid(z) then lost up to 100 ULPs in the product (scripts/diff-elementwise, seed 13
     * case 221). As one exp instead: sign(x) exp(z + ln|x|), the sum's rounding (a two-sum)
     * and z's (e) taken to first order. */
    if (z < (COMPUTE_T)-80 && isfinite(z) && x != 0) {
        COMPUTE_T l = log(fabs(x)), t = z + l, bb = t - z, et = (z - (t - bb)) + (l - bb);
        return copysign(exp(t) * ((COMPUTE_T)1 + (et + e)), x);
    }
    return x * act_sigmoid(z, e);
}
#endif
#define DMLI_ACT_13(y, g0, g1, g2) act_swish((y), g0)
#define DMLI_ACT_14(y, g0, g1, g2) tanh(y)               /* TANH */
#define DMLI_ACT_15(y, g0, g1, g2) (g0 * tanh(g1 * (y))) /* SCALED_TANH */
/* SOFTPLUS: ln(1 + e^(s x)) / s; PARAMETRIC_SOFTPLUS: a ln(1 + e^(b x)) */
#if !INT_COMPUTE && ACT_USED(16)
/* Past s x = 32, ln(1 + e^(s x)) / s is x to within a 2^-50 part (and s x may overflow). */
static DMLI_INLINE COMPUTE_T act_softplus_s(COMPUTE_T x, COMPUTE_T s)
{
    COMPUTE_T z = s * x;
    return z > 32 ? x : act_softplus(z, act_product_error(s, x, z)) / s;
}
#endif
#define DMLI_ACT_16(y, g0, g1, g2) act_softplus_s((y), g0)
#if !INT_COMPUTE && ACT_USED(17)
/* Where Beta x overflows, Alpha ln(1 + e^(Beta x)) is Alpha Beta x. */
static DMLI_INLINE COMPUTE_T act_softplus_ab(COMPUTE_T x, COMPUTE_T a, COMPUTE_T b)
{
    COMPUTE_T z = b * x;
    if (isinf(z) && isfinite(x))
        return z > 0 ? (a * b) * x : a * (COMPUTE_T)0;
    return a * act_softplus(z, act_product_error(b, x, z));
}
#endif
#define DMLI_ACT_17(y, g0, g1, g2) act_softplus_ab((y), g0, g1)
/* SOFTSIGN: x / (1 + |x|), +-infinity gives +-1 */
#define DMLI_ACT_18(y, g0, g1, g2) \
    (isinf(y) ? copysign((COMPUTE_T)1, (y)) : (y) / ((COMPUTE_T)1 + fabs(y)))
#if !INT_COMPUTE && \
    ACT_USED(19) /* GELU: x / 2 * (1 + erf(x / sqrt 2)) = x / 2 * erfc(-x / sqrt 2) */
static DMLI_INLINE COMPUTE_T act_gelu(COMPUTE_T x)
{
    /* 1 / sqrt 2 as a sum of two COMPUTE_T, so that -x / sqrt 2 is known to first order. */
#if COMPUTE_DOUBLE
    const COMPUTE_T hi = 0.70710678118654757, lo = -4.8336466567264567e-17;
#else
    const COMPUTE_T hi = 0.70710677f, lo = 1.2101617e-8f;
#endif
    COMPUTE_T z = -x * hi;
    COMPUTE_T e = act_product_error(-x, hi, z) - x * lo;
#if COMPUTE_DOUBLE
    COMPUTE_T c = erfc(z);
    /* d/dz erfc(z) = -2 / sqrt(pi) e^(-z^2) */
    if (e != 0 && isfinite(z))
        c -= ACT_C(1.12837916709551257390) * exp(-z * z) * e;
#else
    COMPUTE_T c = dmli_erfc_fe(z, isfinite(z) ? e : 0.0f); /* cl/erf.cl: the built-in is 600x
                                                               slower */
#endif
    return ACT_C(0.5) * x * c;
}
#endif
#define DMLI_ACT_19(y, g0, g1, g2) act_gelu(y)
#if !(ACT >= 0 && ACT <= 19)
#error "ACT names no activation"
#endif
/* Activation n (a number, or a macro that is one) of y. */
#define DMLI_ACTIVATE_(n, y, g0, g1, g2) DMLI_ACT_##n(y, g0, g1, g2)
#define DMLI_ACTIVATE(n, y, g0, g1, g2) DMLI_ACTIVATE_(n, y, g0, g1, g2)
#define ACTIVATE(y) DMLI_ACTIVATE(ACT, y, g0, g1, g2)

/* ---- OPs 96-127: activations with more inputs ---------------------------------------- */
/* PARAMETERIZED_RELU: x0 >= 0 ? x0 : slope * x0 (integers wrap) */
#define DMLI_OP_96(x0, x1, x2, x3, x4, q0, q1, q2) ((x0) >= 0 ? (x0) : (x1) * (x0))
#if OP_IN(97, 97) && !INT_COMPUTE
/* The rounding error of s = a + b (Knuth's two-sum: exact, with no contraction). */
static DMLI_INLINE COMPUTE_T bn_sum_error(COMPUTE_T a, COMPUTE_T b, COMPUTE_T s)
{
    COMPUTE_T bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

/*
 * BATCH_NORMALIZATION: scale * (x - mean) / sqrt(var + eps) + bias. The plain form's roundings
 * (sum, sqrt, quotient, difference, product) leave about 3 ULP in the product, and the sum
 * with bias amplifies that without bound where it cancels; so each step carries its error
 * term (two-sum, fma residuals of sqrt and of the quotient): s + sl is scale / sqrt(var + eps)
 * and d + dl is x - mean, each to about 2^-44 (sqrt and divide need not be correctly
 * rounded). Then y = fma(d, s, bias), d * s + bias rounded once, and z = y + (d * sl + dl * s):
 * within 1 ULP of the exact value (y's rounding and z's) unless the sum cancels to below about
 * 2^-20 of its terms, where the 2^-44 shows (6 ULP at 2^-25: the cancelling_bias test, the same
 * bits as the earlier form, which formed the product in two parts and added the bias by
 * two-sum: 1 ULP in 300 random cases for both). s, sl and their square root and
 * quotients depend on the row's statistics only: where those are constant along the run (a
 * channel's, cl/map.cl ROWC) the compiler hoists them out of the element loop, leaving 11
 * operations an element (the two-sums of the product and the bias, before: 21; BN+ReLU 1.2x
 * as fast on a CPU, where it was compute-bound). Where the plain result is not finite
 * (var + eps <= 0, an overflow, a NaN) it stands.
 */
static DMLI_INLINE COMPUTE_T batch_norm(COMPUTE_T x, COMPUTE_T mean, COMPUTE_T var, COMPUTE_T scale,
                                        COMPUTE_T bias, COMPUTE_T eps)
{
    COMPUTE_T v = var + eps, r = sqrt(v), s = scale / r, d = x - mean, y = fma(d, s, bias);
    COMPUTE_T vl = bn_sum_error(var, eps, v);
    COMPUTE_T rl = (fma(-r, r, v) + vl) / (r + r);   /* sqrt(v + vl) - r, to first order */
    COMPUTE_T sl = (fma(-s, r, scale) - s * rl) / r; /* scale / (r + rl) - s */
    COMPUTE_T dl = bn_sum_error(x, -mean, d);
    COMPUTE_T z = y + fma(d, sl, dl * s);
    return isfinite(z) ? z : y;
}
#endif
#define DMLI_OP_97(x0, x1, x2, x3, x4, q0, q1, q2) batch_norm(x0, x1, x2, x3, x4, q0)
