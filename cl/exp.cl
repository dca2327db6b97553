/* SPDX-License-Identifier: MIT */
/*
 * exp for float, in plain arithmetic (no calls, no branches), so that a loop of it vectorises
 * on CPUs, where a device's built-in exp may be a scalar call per element (PoCL's). Cody and
 * Waite's reduction x = k ln 2 + r, |r| <= ln 2 / 2 (k ln2_hi exact: ln2_hi has 16 significant
 * bits and |k| < 256, and x - k ln2_hi is exact), e^r by its Taylor series to r^7 / 7! (the
 * first term left out is below 2^-27 relative), and 2^k applied in two factors, so that a
 * subnormal result is rounded once, by the last product. Within 2 ULPs of e^x on the normal
 * range (tests/ops checks it against double); +inf above 88.72, +0 below -103.98, NaN kept.
 * No fma: a device without one in hardware (x86-64 before Haswell) would call a library.
 */
#ifndef DMLI_EXP_CL
#define DMLI_EXP_CL

static float dmli_expf(float x)
{
    float xc = x < -104.0f ? -104.0f : x > 89.0f ? 89.0f : x; /* NaN: 89, replaced below */
    float k = (float)(int)(xc * 1.44269502735137939453125f + (xc < 0 ? -0.5f : 0.5f));
    float r = (xc - k * 0.693145751953125f) - k * 1.428606765330187045037746429443359375e-6f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    int ki = (int)k, k1 = ki / 2, k2 = ki - k1;
    float y = p * as_float((k1 + 127) << 23) * as_float((k2 + 127) << 23);
    y = x > 88.72283935546875f ? INFINITY : y;
    y = x < -103.972084045410156f ? 0.0f : y;
    return isnan(x) ? x : y;
}

#endif
