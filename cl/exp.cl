/* SPDX-License-Identifier: MIT */
/*
 * exp for float in plain arithmetic (no calls, no branches), so that a loop of it vectorises on
 * CPUs, where a device's built-in exp may be a scalar call per element (PoCL's).
 *
 * Cody and Waite's reduction x = k ln 2 + r, |r| <= ln 2 / 2: k = round(x / ln 2) by adding
 * and taking away 1.5 * 2^23 (whose bits then hold k: no float-to-int conversion, which is
 * undefined for NaN), r = x - k ln2_hi - k ln2_lo in two fmas (ln2_hi has 16 significant bits,
 * so k ln2_hi is exact for |k| < 256). e^r = 1 + r (1 + r P(r)), P of degree 4 a minimax fit
 * of (e^r - 1 - r) / r^2 for the relative error of e^r (0.06 of 2^-24 over the interval, with
 * its coefficients rounded to float: scripts/fit-exp), Horner's rule in fmas. Then 2^k applied so
 * that a subnormal result is rounded once, by the last product. 11 fmas and multiplies, 2 adds,
 * integer work on the exponent; within 2 ULPs of e^x (tests/ops/kernels.c checks it against
 * double), +inf above 88.72, +0 below -103.98, NaN kept.
 *
 * fma: every CPU dmlcl targets has it in hardware (x86-64 since 2013, every aarch64) as do
 * GPUs; a device without one computes the same bits through a library call, slowly.
 */
#ifndef DMLI_EXP_CL
#define DMLI_EXP_CL

/* The element functions of cl/exp.cl, cl/erf.cl and cl/activation.cl are inlined wherever they
 * are called: a call left in a loop keeps it scalar (GELU fused into GEMM: its epilogue, with
 * several call sites, called act_gelu per element, 6.8x the GEMM's own time). */
#define DMLI_INLINE __attribute__((always_inline))

/* e^r for |r| <= ln 2 / 2, and k with r: *bits holds round(x / ln 2) + 0x4B400000. */
static DMLI_INLINE __attribute__((overloadable)) float dmli_exp_reduced(float x, uint *kbits)
{
    float s = fma(x, 1.44269502735137939453125f, 12582912.0f), k = s - 12582912.0f;
    float r = fma(k, -0.693145751953125f, x);
    r = fma(k, -1.428606765330187045037746429443359375e-6f, r);
    float p = fma(fma(fma(fma(1.381461276e-03f, r, 8.368710056e-03f), r, 4.166838899e-02f), r,
                      1.666652113e-01f),
                  r, 4.999999404e-01f);
    *kbits = as_uint(s);
    return fma(fma(p, r, 1.0f), r, 1.0f);
}

/* e^x for every float x. 2^k in two factors, 2^(k/2) and 2^(k - k/2), each a normal float for
 * k in [-150, 128]. */
static DMLI_INLINE float dmli_expf(float x)
{
    float xc = x < -104.0f ? -104.0f : x > 89.0f ? 89.0f : x; /* NaN stays NaN */
    uint kb;
    float p = dmli_exp_reduced(xc, &kb);
    int k = (int)(kb - 0x4B400000u), k1 = k >> 1, k2 = k - k1;
    return p * as_float((uint)(k1 + 127) << 23) * as_float((uint)(k2 + 127) << 23);
}

/* e^x for x <= 43 (every use but EXP's own: sigmoid's e^-|z|, softmax's e^(x - max), erfc's
 * tail): 2^k as 2^(k + 64) times 2^-64, one multiply fewer. */
static DMLI_INLINE __attribute__((overloadable)) float dmli_expf_low(float x)
{
    float xc = x < -104.0f ? -104.0f : x; /* NaN stays NaN */
    uint kb;
    float p = dmli_exp_reduced(xc, &kb);
    uint scale = (kb - 0x4B400000u + 127u + 64u) << 23;
    return p * as_float(scale) * 5.42101086242752217003726400434970855712890625e-20f;
}

/* dmli_expf_low on vectors (floatN, N 2 to 16): the same operations lane by lane, so the same
 * bits as the scalar form (cl/reduce.cl's CPU rows fold N lanes at once). */
#define DMLI_EXP_LOW_VECTOR(F, U)                                                                  \
    static DMLI_INLINE __attribute__((overloadable)) F dmli_exp_reduced(F x, U *kbits)             \
    {                                                                                              \
        F s = fma(x, (F)1.44269502735137939453125f, (F)12582912.0f), k = s - 12582912.0f;          \
        F r = fma(k, (F)-0.693145751953125f, x);                                                   \
        r = fma(k, (F)-1.428606765330187045037746429443359375e-6f, r);                             \
        F p =                                                                                      \
            fma(fma(fma(fma((F)1.381461276e-03f, r, (F)8.368710056e-03f), r, (F)4.166838899e-02f), \
                    r, (F)1.666652113e-01f),                                                       \
                r, (F)4.999999404e-01f);                                                           \
        *kbits = __builtin_astype(s, U);                                                           \
        return fma(fma(p, r, (F)1.0f), r, (F)1.0f);                                                \
    }                                                                                              \
    static DMLI_INLINE __attribute__((overloadable)) F dmli_expf_low(F x)                          \
    {                                                                                              \
        F xc = select(x, (F)-104.0f, x < -104.0f); /* NaN stays NaN */                             \
        U kb;                                                                                      \
        F p = dmli_exp_reduced(xc, &kb);                                                           \
        U scale = (kb - (U)0x4B400000u + (U)(127u + 64u)) << 23;                                   \
        return p * __builtin_astype(scale, F) *                                                    \
               5.42101086242752217003726400434970855712890625e-20f;                                \
    }

#endif
