/* SPDX-License-Identifier: MIT */
/*
 * bnorm.cl: the batch-normalization training family (src/bnorm.h): one work-group per channel
 * (an element of the statistics' shape), its items walking the channel's reduced elements
 * (every dimension where the statistics' size is 1) in a fixed order and adding their partial
 * sums in a fixed tree in local memory: one order of every sum for a device and a shape, no
 * atomics. Sums are compensated (two-sum) in float, so FLOAT16 and FLOAT32 tensors alike
 * accumulate in float with about twice its precision; every tensor is read through its strides.
 *
 * bn_training (BATCH_NORMALIZATION_TRAINING): the channel's mean, then its variance as the
 * mean of the squared deviations (two passes, the biased variance: divided by the count),
 * then each element's
 *   Output = act(Scale * (Input - Mean) / sqrt(Variance + Epsilon) + Bias + FusedAdd)
 * and the mean and variance written by the group's first item.
 *
 * bn_grad (BATCH_NORMALIZATION_GRAD, and with TRAINING 1 _TRAINING_GRAD): the sums of dY and
 * of dY * (X - Mean) (Mean and Variance read from their tensors), then
 *   OutputScaleGradient = sum(dY * (X - Mean)) / sqrt(Variance + Epsilon)
 *   OutputBiasGradient  = sum(dY)
 *   OutputGradient      = dY * Scale / sqrt(Variance + Epsilon)                 (TRAINING 0)
 *                       = Scale / sqrt(Variance + Epsilon) * (dY - mean(dY)
 *                         - (X - Mean) * mean(dY * (X - Mean)) / (Variance + Epsilon))
 *                                                                              (TRAINING 1)
 *
 * Macros (code generation only; sizes, strides, Epsilon and the activation's parameters are in
 * the table, cl/bnorm_abi.h):
 *   HALF      1: FLOAT16 tensors (else FLOAT32) [0]
 *   HAS_ADD   bn_training: FusedAddTensor is bound [0]
 *   ACT       bn_training: the fused activation (cl/activation.cl) [0: none]
 *   TRAINING  bn_grad: the training gradient [0]
 *   GROUP_MAX the largest work-group (a power of two; the launch's is one too) [64]
 *
 * Arguments (the compute family ABI): the table, then per tensor a buffer and its base in
 * elements, in the roles' order (cl/bnorm_abi.h).
 */
#include "bnorm_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef HALF
#define HALF 0
#endif
#ifndef HAS_ADD
#define HAS_ADD 0
#endif
#ifndef TRAINING
#define TRAINING 0
#endif
#ifndef GROUP_MAX
#define GROUP_MAX 64
#endif
#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#include "activation.cl"
#include "half.cl"

#if HALF
#define BN_T ushort
#define BN_LOAD(p, i) vload_half((size_t)(i), (__global const half *)(p))
#define BN_STORE(p, i, v) ((p)[i] = dmli_half_bits(v))
#else
#define BN_T float
#define BN_LOAD(p, i) ((p)[i])
#define BN_STORE(p, i, v) ((p)[i] = (v))
#endif

/* The rounding error of s = a + b (two-sum: exact without contraction). */
static float bn_sum_error(float a, float b, float s)
{
    const float bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

/* hi + lo += v, hi rounded, lo the running error. */
static void bn_add(float *hi, float *lo, float v)
{
    const float s = *hi + v;
    *lo += bn_sum_error(*hi, v, s);
    *hi = s;
}

/* The element offset of the channel `ch` along role r's strides. */
static long bn_channel(__constant long *t, long ch, int r)
{
    long at = 0;
    for (int d = (int)t[DMLI_BN_RANK] - 1; d >= 0; --d) {
        const long n = t[DMLI_BN_CSIZE(d)];
        at += (ch % n) * t[DMLI_BN_STRIDE(r, d)];
        ch /= n;
    }
    return at;
}

/* The element offset of the channel's reduced element i (row-major over the reduced
 * dimensions) along role r's strides. */
static long bn_at(__constant long *t, long i, int r)
{
    long at = 0;
    for (int d = (int)t[DMLI_BN_RANK] - 1; d >= 0; --d) {
        const long n = t[DMLI_BN_RSIZE(d)];
        at += (i % n) * t[DMLI_BN_STRIDE(r, d)];
        i /= n;
    }
    return at;
}

/*
 * The group's sums of two compensated pairs (a, b: hi and lo each), by a fixed tree over the
 * items (the group's size a power of two); every item gets the totals.
 */
static void bn_tree(__local float *s, float *ah, float *al, float *bh, float *bl)
{
    const int lid = (int)get_local_id(0), items = (int)get_local_size(0);
    __local float *a_hi = s, *a_lo = s + GROUP_MAX, *b_hi = s + 2 * GROUP_MAX,
                  *b_lo = s + 3 * GROUP_MAX;
    a_hi[lid] = *ah;
    a_lo[lid] = *al;
    b_hi[lid] = *bh;
    b_lo[lid] = *bl;
    for (int half_n = items / 2; half_n > 0; half_n /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < half_n) {
            float h = a_hi[lid], l = a_lo[lid] + a_lo[lid + half_n];
            bn_add(&h, &l, a_hi[lid + half_n]);
            a_hi[lid] = h;
            a_lo[lid] = l;
            h = b_hi[lid];
            l = b_lo[lid] + b_lo[lid + half_n];
            bn_add(&h, &l, b_hi[lid + half_n]);
            b_hi[lid] = h;
            b_lo[lid] = l;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *ah = a_hi[0];
    *al = a_lo[0];
    *bh = b_hi[0];
    *bl = b_lo[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tree may overwrite s */
}

/* The quotient hi + lo of the pair (h, l) by n, to about twice float's precision. */
static void bn_div(float h, float l, float n, float *qh, float *ql)
{
    const float s = h + l, q = s / n;
    *qh = q;
    *ql = (fma(-q, n, s) + bn_sum_error(h, l, s)) / n;
}

/*
 * k + kl = scale / sqrt(var + eps) to about 2^-44 (sqrt and divide need not be correctly
 * rounded), and r = sqrt(var + eps) as computed. Where it is not finite, kl is 0.
 */
static float bn_coefficient(float scale, float var, float eps, float *kl, float *r_out)
{
    const float v = var + eps, r = sqrt(v), k = scale / r;
    const float vl = bn_sum_error(var, eps, v);
    const float rl = (fma(-r, r, v) + vl) / (r + r);
    const float l = (fma(-k, r, scale) - k * rl) / r;
    *kl = isfinite(l) ? l : 0.0f;
    *r_out = r;
    return k;
}

__kernel void bn_training(__constant long *t, __global const BN_T *x, long x_base,
                          __global const BN_T *scale, long scale_base, __global const BN_T *bias,
                          long bias_base,
#if HAS_ADD
                          __global const BN_T *add, long add_base,
#endif
                          __global BN_T *y, long y_base, __global BN_T *mean_out, long mean_base,
                          __global BN_T *var_out, long var_base)
{
    __local float s[4 * GROUP_MAX];
    const long ch = (long)get_group_id(1), n = t[DMLI_BN_REDUCED];
    const long step = (long)get_local_size(0);
    const float fn = (float)n, eps = as_float((uint)t[DMLI_BN_EPS]);
    const long xb = x_base + bn_channel(t, ch, DMLI_BN_T_X);
    float ah = 0, al = 0, bh = 0, bl = 0;
    for (long i = (long)get_local_id(0); i < n; i += step)
        bn_add(&ah, &al, BN_LOAD(x, xb + bn_at(t, i, DMLI_BN_T_X)));
    bn_tree(s, &ah, &al, &bh, &bl);
    float mh, ml;
    bn_div(ah, al, fn, &mh, &ml);
    /* The squared deviations, (d + dl)^2 with d + dl = x - mean to about 2^-44. */
    ah = al = 0;
    for (long i = (long)get_local_id(0); i < n; i += step) {
        const float v = BN_LOAD(x, xb + bn_at(t, i, DMLI_BN_T_X)), d = v - mh;
        const float dl = bn_sum_error(v, -mh, d) - ml, q = d * d;
        bn_add(&ah, &al, q);
        al += fma(d, d, -q) + 2.0f * d * dl;
    }
    bn_tree(s, &ah, &al, &bh, &bl);
    float vh, vl;
    bn_div(ah, al, fn, &vh, &vl);
    const float var = vh + vl;
    const float sc = BN_LOAD(scale, scale_base + bn_channel(t, ch, DMLI_BN_T_SCALE));
    const float bi = BN_LOAD(bias, bias_base + bn_channel(t, ch, DMLI_BN_T_BIAS));
    float kl, r;
    const float k = bn_coefficient(sc, var, eps, &kl, &r);
    const float g0 = as_float((uint)t[DMLI_BN_ACT(0)]);
    const float g1 = as_float((uint)t[DMLI_BN_ACT(1)]);
    const float g2 = as_float((uint)t[DMLI_BN_ACT(2)]);
    (void)g0, (void)g1, (void)g2, (void)r;
    const long yb = y_base + bn_channel(t, ch, DMLI_BN_T_Y);
#if HAS_ADD
    const long ab = add_base + bn_channel(t, ch, DMLI_BN_T_ADD);
#endif
    for (long i = (long)get_local_id(0); i < n; i += step) {
        const float v = BN_LOAD(x, xb + bn_at(t, i, DMLI_BN_T_X)), d = v - mh;
        const float dl = bn_sum_error(v, -mh, d) - ml, p = fma(d, k, bi);
        const float z = p + fma(d, kl, dl * k);
        float o = isfinite(z) ? z : p;
#if HAS_ADD
        o += BN_LOAD(add, ab + bn_at(t, i, DMLI_BN_T_ADD));
#endif
        BN_STORE(y, yb + bn_at(t, i, DMLI_BN_T_Y), ACTIVATE(o));
    }
    if (get_local_id(0) == 0) {
        BN_STORE(mean_out, mean_base + bn_channel(t, ch, DMLI_BN_T_MEAN), mh + ml);
        BN_STORE(var_out, var_base + bn_channel(t, ch, DMLI_BN_T_VAR), var);
    }
}

__kernel void bn_grad(__constant long *t, __global const BN_T *x, long x_base,
                      __global const BN_T *dy, long dy_base, __global const BN_T *mean,
                      long mean_base, __global const BN_T *var, long var_base,
                      __global const BN_T *scale, long scale_base, __global BN_T *dx, long dx_base,
                      __global BN_T *dscale, long dscale_base, __global BN_T *dbias,
                      long dbias_base)
{
    __local float s[4 * GROUP_MAX];
    const long ch = (long)get_group_id(1), n = t[DMLI_BN_REDUCED];
    const long step = (long)get_local_size(0);
    const float eps = as_float((uint)t[DMLI_BN_EPS]);
    const float m = BN_LOAD(mean, mean_base + bn_channel(t, ch, DMLI_BN_G_MEAN));
    const float va = BN_LOAD(var, var_base + bn_channel(t, ch, DMLI_BN_G_VAR));
    const float sc = BN_LOAD(scale, scale_base + bn_channel(t, ch, DMLI_BN_G_SCALE));
    const long xb = x_base + bn_channel(t, ch, DMLI_BN_G_X);
    const long gb = dy_base + bn_channel(t, ch, DMLI_BN_G_DY);
    /* a: sum(dY); b: sum(dY * (X - Mean)), each product with its rounding error. */
    float ah = 0, al = 0, bh = 0, bl = 0;
    for (long i = (long)get_local_id(0); i < n; i += step) {
        const float v = BN_LOAD(x, xb + bn_at(t, i, DMLI_BN_G_X));
        const float g = BN_LOAD(dy, gb + bn_at(t, i, DMLI_BN_G_DY));
        const float d = v - m, dl = bn_sum_error(v, -m, d), p = g * d;
        bn_add(&ah, &al, g);
        bn_add(&bh, &bl, p);
        const float pl = fma(g, d, -p) + g * dl;
        bl += isfinite(pl) ? pl : 0.0f;
    }
    bn_tree(s, &ah, &al, &bh, &bl);
    float kl, r;
    const float k = bn_coefficient(sc, va, eps, &kl, &r);
    if (get_local_id(0) == 0) {
        BN_STORE(dbias, dbias_base + bn_channel(t, ch, DMLI_BN_G_DBIAS), ah + al);
        BN_STORE(dscale, dscale_base + bn_channel(t, ch, DMLI_BN_G_DSCALE), (bh + bl) / r);
    }
    const long ob = dx_base + bn_channel(t, ch, DMLI_BN_G_DX);
#if TRAINING
    const float fn = (float)n;
    float gmh, gml, cmh, cml;
    bn_div(ah, al, fn, &gmh, &gml);
    bn_div(bh, bl, fn, &cmh, &cml);
    /* c = mean(dY * (X - Mean)) / (Variance + Epsilon) */
    const float c = (cmh + cml) / (va + eps);
#endif
    for (long i = (long)get_local_id(0); i < n; i += step) {
        const float g = BN_LOAD(dy, gb + bn_at(t, i, DMLI_BN_G_DY));
#if TRAINING
        const float v = BN_LOAD(x, xb + bn_at(t, i, DMLI_BN_G_X));
        /* u = dY - mean(dY) - (X - Mean) * c, its leading terms each with their errors. */
        const float d = v - m, dl = bn_sum_error(v, -m, d);
        const float u1 = g - gmh, u1l = bn_sum_error(g, -gmh, u1) - gml;
        const float q = d * c, u = u1 - q, ul = bn_sum_error(u1, -q, u) + u1l - dl * c;
        const float o = fma(u, k, fma(u, kl, ul * k));
#else
        const float o = fma(g, k, g * kl);
#endif
        BN_STORE(dx, ob + bn_at(t, i, DMLI_BN_G_DX), o);
    }
}
