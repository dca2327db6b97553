/* SPDX-License-Identifier: MIT */
/*
 * erf and erfc in float, vectorisable: PoCL's built-ins take about 80 ns an element (a 64 MiB
 * GELU ran 1.3 s, 600x its memory time; dmlcl-bench gelu), these a few ns, every operation
 * a multiply-add or exp.
 *   erf, |z| < 0.5: erf(z) = z Q(z^2)
 *   erf, |z| >= 0.5, and erfc: erfc(|z|) = t exp(P(t) - z^2), t = 1 / (1 + |z| / 2), one exp
 *               (cl/exp.cl's): the rounding errors of z^2 (an fma) and of the difference (a
 *               two-sum) taken to first order
 * P (degree 11) and Q (degree 6) are least-squares Chebyshev fits of ln(erfc(z) / t) + z^2
 * over z in [0, 10.1] and of erf(z) / z over [0, 0.5], in double, against the C library's
 * erfc. Checked against erf and erfc in double by tests/ops (elementwise_math/random_erf,
 * elementwise_activation/random_gelu) and docs/kernels.md's sweeps: at most 7 ULPs (normal
 * results; 2^24 points over [-6, 6] for erf: 2), 2 - erfc(|z|) and 1 - erf for the other side.
 */
#ifndef DMLI_ERF_CL
#define DMLI_ERF_CL

#include "exp.cl"

/* erf(z) for |z| < 0.5. */
static DMLI_INLINE float dmli_erf_small(float z)
{
    float w = z * z;
    return z *
           fma(fma(fma(fma(fma(fma(1.086677294e-04f, w, -8.509853506e-04f), w, 5.223356653e-03f), w,
                           -2.686611935e-02f),
                       w, 1.128379181e-01f),
                   w, -3.761263788e-01f),
               w, 1.128379226e+00f);
}

/* erfc(a + ea) for a >= 0.5 and a small correction ea (|ea| << a ulp-sized: the rounding
 * error of how a was computed), to first order (0 from 10.1 on, where erfc rounds to 0). */
static DMLI_INLINE float dmli_erfc_tail(float a, float ea)
{
    float t = 1.0f / fma(0.5f, a, 1.0f);
    /* P by Estrin's scheme: a chain of 5 fmas and multiplies instead of Horner's 11 (a CPU's
     * FP units fill with the waiting operations of a long chain: GELU 1.2x). */
    float t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
    float p01 = fma(1.000643253e+00f, t, -1.265534759e+00f),
          p23 = fma(1.386593580e-01f, t, 3.670816422e-01f),
          p45 = fma(5.236029625e-01f, t, -3.266518116e-01f),
          p67 = fma(9.742743373e-01f, t, -1.222460270e+00f),
          p89 = fma(-9.195973277e-01f, t, 3.037856817e-01f),
          pab = fma(-1.064735502e-01f, t, 5.326704383e-01f);
    float p = fma(fma(pab, t2, p89), t8, fma(fma(p67, t2, p45), t4, fma(p23, t2, p01)));
    /* exp(p - a^2) with the rounding of a^2 (e) and of the difference (es) to first order. */
    float zz = a * a, e = fma(a, a, -zz) + 2.0f * a * ea; /* (a + ea)^2 = zz + e */
    float s = p - zz, bb = s - p, es = (p - (s - bb)) + (-zz - bb);
    float c = t * dmli_expf_low(s) * (1.0f + (es - e)); /* s < 0 */
    return a >= 10.1f ? 0.0f : c;
}

/* erfc(z + ez), ez a small correction to z (0: erfc(z)); ez matters where erfc is small
 * (z large: its relative error is about 2 z ez), and is dropped where erfc is near 2. The tail's
 * fit holds from 0, so it serves |z| < 0.5 too, where erfc is within a factor 2 of 1: at most 6
 * ULPs there (against 2 through erf's Q, which is 9 operations more). */
static DMLI_INLINE float dmli_erfc_fe(float z, float ez)
{
    float tail = dmli_erfc_tail(fabs(z), z > 0.0f ? ez : 0.0f);
    float r = z > 0.0f ? tail : 2.0f - tail;
    return isnan(z) ? z : r;
}

static DMLI_INLINE float dmli_erfc_f(float z)
{
    return dmli_erfc_fe(z, 0.0f);
}

static DMLI_INLINE float dmli_erf_f(float z)
{
    float a = fabs(z), tail = dmli_erfc_tail(a, 0.0f);
    float r = a < 0.5f ? dmli_erf_small(z) : copysign(1.0f - tail, z);
    return isnan(z) ? z : r;
}

#endif /* DMLI_ERF_CL */
