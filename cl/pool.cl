/* SPDX-License-Identifier: MIT */
/*
 * The pool family: MAX_POOLING(1, 2), AVERAGE_POOLING(1) and LP_POOLING(1). Each output
 * element folds a window of the input's spatial axes {D, H, W}: positions
 * o * stride - pad + k * dilation, k < window; positions outside the input are padding,
 * never read. The host (src/launch_pool.c) fills the table (cl/pool_abi.h).
 *
 * A work-item computes VEC consecutive outputs along W (CPUs: they share the window's rows,
 * and the interior blocks run one loop of VEC lanes per window column, which the compiler
 * vectorises); FLAT 1 (GPUs) a work-item per output, the grid flat over the outputs. The
 * window's valid range on each axis is computed, never tested per element.
 *
 * Macros (defaults build a valid program):
 *   POP        0 max, 1 average, 2 LP (src/pool.h dmli_pool_op)
 *   LP_P       LP: 1, 2, or 0 (any P: the table's, through pow)
 *   IN_T, IN_HALF, OUT_T, OUT_HALF  storage types (FLOAT16 as ushort, IN_HALF 1)
 *   COMPUTE_T  float (FLOAT16, FLOAT32), long (signed integers) or ulong (unsigned)
 *   INT_COMPUTE 1 for the integers (max pooling only); LOWEST the type's lowest value
 *   INDICES    1: max pooling writes indices of IDX_T (uint or ulong)
 *   INCLUDE_PADDING  average: padding counts in the divisor
 *   VEC        outputs per work-item along W; FLAT 1: one per item, a flat grid
 *   VLOAD      1 or 2 (VEC a multiple of 4, float compute, no indices, the input's W stride 1):
 * interior blocks load the 8 outputs' window column as two vectors of 4 (stride 1: vload4; stride
 * 2: the even lanes of two vload4) and fold VEC lanes at once RUN        1 (one output along W
 * whose window is whole rows, no dilation on H or W, rows contiguous; float compute, no indices:
 * global pooling): each D slice's window is one run of the input, folded VEC lanes at a time, the
 * lanes then combined
 *
 *   PB         FLAT: the window's taps an item loads before it folds the first (GPUs: the
 *              host's gpu_load_batch; 1 folds each as loaded)
 *   QUANT      1: QUANTIZED_LINEAR_AVERAGE_POOLING (POP 1, INT8 or UINT8 IN_T and OUT_T, the sum
 *              in long): four more tensors (input scale and zero point, output scale and zero
 *              point, each read at the channel times its QSTRIDE; HAS_IZP, HAS_OZP 0: absent,
 *              bound to a stand-in never read); the window's sum less the input zero point per
 *              element read, times the input scale, over the divisor, then quantized: rint(x /
 *              output scale) + output zero point, saturated to [QMIN, QMAX] (NaN 0)
 *   STAGED     FLAT, global pooling of adjacent contiguous runs of at most STAGE elements,
 *              GROUP items a work-group (GPUs): the group's span staged in local memory first
 *   BAND       1 (max pooling of floats without indices, 2-D, the output's W stride 1: CPUs):
 *              pool_band (below), a band of output rows x VEC columns a work-group of one item
 *   SLOTS      BAND: input rows a band stages (local memory: SLOTS x VEC ints)
 *   BSW        BAND: the window's stride along W where it is 1 or 2 and the input's W stride 1,
 *              else 0
 *
 * Max pooling ignores NaN unless the window holds nothing else (then it gives the window's
 * first NaN, copied bit for bit), orders -0 below +0, and keeps
 * the first of equal maxima; a window with no input element gives LOWEST (-inf) and index 0,
 * its average 0 (docs/operators.md#pooling).
 */
#include "pool_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef POP
#define POP 0
#endif
#ifndef LP_P
#define LP_P 2
#endif
#ifndef IN_T
#define IN_T float
#endif
#ifndef IN_HALF
#define IN_HALF 0
#endif
#ifndef OUT_T
#define OUT_T float
#endif
#ifndef OUT_HALF
#define OUT_HALF 0
#endif
#ifndef COMPUTE_T
#define COMPUTE_T float
#endif
#define COMPUTE_DOUBLE 0
#ifndef INT_COMPUTE
#define INT_COMPUTE 0
#endif
#ifndef LOWEST
#define LOWEST (-INFINITY)
#endif
#ifndef INDICES
#define INDICES 0
#endif
#ifndef IDX_T
#define IDX_T uint
#endif
#ifndef INCLUDE_PADDING
#define INCLUDE_PADDING 0
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef FLAT
#define FLAT 0
#endif
#ifndef VLOAD
#define VLOAD 0
#endif
#ifndef RUN
#define RUN 0
#endif
#ifndef BAND
#define BAND 0
#endif
#ifndef PB
#define PB 1
#endif
#ifndef STAGED
#define STAGED 0
#endif
#ifndef QUANT
#define QUANT 0
#endif
#ifndef HAS_IZP
#define HAS_IZP 0
#endif
#ifndef HAS_OZP
#define HAS_OZP 0
#endif

#if OUT_HALF
#include "half.cl"
#endif

#define AX(a, f) t[DMLI_POOL_AXIS(a, f)]

#if IN_HALF
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#else
#define LOAD(p, i) ((COMPUTE_T)(p)[i])
#endif

/* The window positions k < K of an axis, start s, dilation dil, inside [lo, hi): [*k0, *k1). */
static void window_range(long s, long K, long dil, long lo, long hi, long *k0, long *k1)
{
    /* Divisions only at the borders (most windows lie inside: no 64-bit division there). */
    long a = 0, b = K;
    if (s < lo)
        a = (lo - s + dil - 1) / dil;
    if (s + (K - 1) * dil >= hi)
        b = hi - 1 < s ? 0 : (hi - 1 - s) / dil + 1;
    *k0 = a;
    *k1 = max(a, min(K, b));
}

#if POP == 1 && INCLUDE_PADDING
static long padded_count(__constant long *t, int a, long s)
{
    long k0, k1;
    window_range(s, AX(a, DMLI_POOL_K), AX(a, DMLI_POOL_DIL), -AX(a, DMLI_POOL_PAD),
                 AX(a, DMLI_POOL_END), &k0, &k1);
    return k1 - k0;
}
#endif

#if POP == 0
#if INT_COMPUTE
#define GREATER(x, best) ((x) > (best))
#else
/* x replaces best: larger, a number over NaN, +0 over -0 (their bits order them). */
#define GREATER(x, best)                           \
    ((x) > (best) || (isnan(best) && !isnan(x)) || \
     ((x) == (best) && as_int((float)(x)) > as_int((float)(best))))
#endif
#if INDICES
#define FOLD(acc, idx, err, x, at)           \
    do {                                     \
        COMPUTE_T x_ = (x);                  \
        if ((idx) < 0 || GREATER(x_, acc)) { \
            acc = x_;                        \
            idx = (at);                      \
        }                                    \
    } while (0)
#else
#define FOLD(acc, idx, err, x, at)         \
    do {                                   \
        COMPUTE_T x_ = (x);                \
        acc = GREATER(x_, acc) ? x_ : acc; \
    } while (0)
#endif
#if INT_COMPUTE
#define INIT ((COMPUTE_T)(LOWEST))
#else
#define INIT ((COMPUTE_T)NAN)
#endif
#elif POP == 1
/* A compensated sum (two-sum: err gathers each addition's rounding error), so that the average
 * keeps its few ULPs when the window's values cancel. */
#define FOLD(acc, idx, err, x, at)                        \
    do {                                                  \
        COMPUTE_T x_ = (x), t_ = acc + x_, z_ = t_ - acc; \
        err += (acc - (t_ - z_)) + (x_ - z_);             \
        acc = t_;                                         \
    } while (0)
#define INIT ((COMPUTE_T)0)
#else
#if LP_P == 1
#define FOLD(acc, idx, err, x, at) acc += fabs(x)
#elif LP_P == 2
#define FOLD(acc, idx, err, x, at) \
    do {                           \
        COMPUTE_T x_ = (x);        \
        acc += x_ * x_;            \
    } while (0)
#else
#define FOLD(acc, idx, err, x, at) acc += pow(fabs(x), p)
#endif
#define INIT ((COMPUTE_T)0)
#endif

/* Vectors of 4 (16 bytes: no wider vector crosses a call, which would change the ABI where
 * a CPU has no AVX): VEC lanes are NV of them. */
#if VLOAD || RUN
#if IN_HALF
#define VLOAD4(i, k) vload_half4((k), (__global const half *)in + (i))
#else
#define VLOAD4(i, k) vload4((k), in + (i))
#endif
/* The 4 lanes of 4 consecutive values from position i, or (stride 2) of the even ones of 8. */
#define VLOAD_STEP1(i) VLOAD4(i, 0)
#define VLOAD_STEP2(i) ((float4)(VLOAD4(i, 0).s02, VLOAD4(i, 1).s02))
#endif
#if VLOAD || RUN
#define NV (VEC / 4) /* vectors of 4 per VEC lanes (VEC a multiple of 4 here) */
/* The scalar FOLD's rule on 4 lanes (no indices); NEUTRAL a lane that reads nothing. */
#define NEUTRAL (POP == 0 ? (COMPUTE_T)NAN : (COMPUTE_T)0)
#if POP == 0
#define VFOLD(acc, err, x) acc = max(acc, vkey(x))
#define VINIT ((int4)INT_MIN)
typedef int4 vacc_t;
/* Floats as ordered integers (the sign bit flips the others): -0 orders below +0, -inf below
 * every number; a NaN, and nothing at all, is INT_MIN, below everything, which vunkey reads
 * back as a NaN. One integer max per element keeps the scalar fold's rule. */
static int4 vkey(float4 x)
{
    int4 b = as_int4(x);
    b ^= (b >> 31) & (int4)0x7fffffff;
    return select(b, (int4)INT_MIN, b > (int4)0x7f800000); /* a positive NaN */
}
static float4 vunkey(int4 k)
{
    return as_float4(k ^ ((k >> 31) & (int4)0x7fffffff));
}
#else
#define VINIT ((float4)(INIT))
#define vunkey(a) (a)
typedef float4 vacc_t;
#endif
#if POP == 1
#define VFOLD(acc, err, x)                             \
    do {                                               \
        float4 x_ = (x), t_ = acc + x_, z_ = t_ - acc; \
        err += (acc - (t_ - z_)) + (x_ - z_);          \
        acc = t_;                                      \
    } while (0)
#elif POP == 2 && LP_P == 1
#define VFOLD(acc, err, x) acc += fabs(x)
#elif POP == 2 && LP_P == 2
#define VFOLD(acc, err, x) \
    do {                   \
        float4 x_ = (x);   \
        acc += x_ * x_;    \
    } while (0)
#elif POP == 2
#define VFOLD(acc, err, x) acc += pow(fabs(x), (float4)p)
#endif
#endif
#if RUN
/* The lanes of a run combined: max by the fold's rule, sums with their errors. */
#if POP == 0
#define COMBINE(acc, err, x, e) FOLD(acc, unused_, err, x, 0)
#elif POP == 1
#define COMBINE(acc, err, x, e)        \
    do {                               \
        FOLD(acc, unused_, err, x, 0); \
        err += (e);                    \
    } while (0)
#else
#define COMBINE(acc, err, x, e) acc += (x)
#endif
#endif

#if BAND
#ifndef BSW
#define BSW 0
#endif
#if defined(__clang__) /* the stage's loops vectorise for float; FLOAT16's loads stay scalar */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#if INT_COMPUTE
/* The band's integers (8, 16 or 32 bits, the host's rule: every value above INT_MIN, which
 * marks nothing) are their own keys. */
#define BAND_T int
static int key(COMPUTE_T x)
{
    return (int)x;
}
static int unkey(int k)
{
    return k;
}
#else
#define BAND_T float
/* vkey and vunkey's rule on one float. */
static int key(float x)
{
    int b = as_int(x);
    b ^= (b >> 31) & 0x7fffffff;
    return b > 0x7f800000 ? INT_MIN : b;
}
static float unkey(int k)
{
    return as_float(k ^ ((k >> 31) & 0x7fffffff));
}
#endif

/* Columns [u0, u1) of a staged row, whose windows reach past the input row: their taps inside
 * it, [lo, hi). */
static void border(__global const IN_T *in, long row, long sw0, long SW, long DW, long isW,
                   const int *lo, const int *hi, int u0, int u1, __local int *h)
{
    for (int u = u0; u < u1; ++u) {
        int m = INT_MIN;
        for (long kw = lo[u]; kw < hi[u]; ++kw)
            m = max(m, key(LOAD(in, row + (sw0 + u * SW + kw * DW) * isW)));
        h[u] = m;
    }
}

/*
 * BAND 1: a work-group of one item writes a band of output rows (the table's BAND_ROWS) x VEC
 * columns of one image and channel. Max pooling is separable: each input row the band's windows
 * cover is folded along W once, at the band's columns, into local memory (as ordered integers:
 * the fold's rule is one integer max, kernels.md#pool), then each output row is the maximum of
 * its window's rows there: loops over the columns, which the compiler vectorises. A window
 * with no input element gives LOWEST, as the generic kernel.
 */
__kernel void pool_band(__constant long *t, __global const IN_T *in, long in_base,
                        __global OUT_T *out, long out_base)
{
    __local int stage[SLOTS * VEC];
    int lo[VEC], hi[VEC], acc[VEC];
    const long OW = AX(2, DMLI_POOL_OUT), OH = AX(1, DMLI_POOL_OUT);
    const long IW = AX(2, DMLI_POOL_IN), IH = AX(1, DMLI_POOL_IN);
    const long SW = AX(2, DMLI_POOL_S), KW = AX(2, DMLI_POOL_K), DW = AX(2, DMLI_POOL_DIL);
    const long SH = AX(1, DMLI_POOL_S), KH = AX(1, DMLI_POOL_K), DH = AX(1, DMLI_POOL_DIL);
    const long rb = t[DMLI_POOL_BAND_ROWS];
    const long c0 = (long)get_group_id(0) * VEC, oh0 = (long)get_group_id(1) * rb;
    const uint nc = (uint)get_group_id(2);
    const int nu = (int)min((long)VEC, OW - c0), nr = (int)min(rb, OH - oh0);
    const long n = nc / (uint)t[DMLI_POOL_C], c = nc % (uint)t[DMLI_POOL_C];
    const long isW = t[DMLI_POOL_STRIDE(0, 4)], isH = t[DMLI_POOL_STRIDE(0, 3)];
    const long base = in_base + n * t[DMLI_POOL_STRIDE(0, 0)] + c * t[DMLI_POOL_STRIDE(0, 1)];
    /* The input rows the band's windows cover, [ylo, yhi): at most SLOTS (the host's rb). */
    const long ylo = max(0L, oh0 * SH - AX(1, DMLI_POOL_PAD));
    const long yhi = min(IH, (oh0 + nr - 1) * SH - AX(1, DMLI_POOL_PAD) + (KH - 1) * DH + 1);
    /* The columns' window ranges; those whose window lies inside the row, [ua, ub). */
    const long sw0 = c0 * SW - AX(2, DMLI_POOL_PAD);
    int ua = nu, ub = 0;
    for (int u = 0; u < nu; ++u) {
        long k0, k1;
        window_range(sw0 + u * SW, KW, DW, 0, IW, &k0, &k1);
        lo[u] = (int)k0;
        hi[u] = (int)k1;
        if (k0 == 0 && k1 == KW) {
            ua = min(ua, u);
            ub = u + 1;
        }
    }
    ub = max(ua, ub);
    for (long y = ylo; y < yhi; ++y) {
        __local int *h = stage + (y - ylo) * VEC;
        const long row = base + y * isH;
        border(in, row, sw0, SW, DW, isW, lo, hi, 0, ua, h);
        border(in, row, sw0, SW, DW, isW, lo, hi, ub, nu, h);
        for (int u = ua; u < ub; ++u)
            h[u] = INT_MIN;
        for (long kw = 0; ua < ub && kw < KW; ++kw) { /* no inner column: no walk of KW */
            /* BSW: the stride along W a constant (1 or 2, the input's W stride 1): contiguous
             * or interleaved vector loads; else gathers. */
            const long at = row + (sw0 + kw * DW) * isW, step = BSW ? BSW : SW * isW;
#pragma clang loop vectorize(assume_safety)
            for (int u = ua; u < ub; ++u)
                h[u] = max(h[u], key(LOAD(in, at + u * step)));
        }
    }
    for (int r = 0; r < nr; ++r) {
        const long sh = (oh0 + r) * SH - AX(1, DMLI_POOL_PAD);
        long kh0, kh1;
        window_range(sh, KH, DH, 0, IH, &kh0, &kh1);
        for (int u = 0; u < nu; ++u)
            acc[u] = INT_MIN;
        for (long kh = kh0; kh < kh1; ++kh) {
            __local const int *h = stage + (sh + kh * DH - ylo) * VEC;
#pragma clang loop vectorize(assume_safety)
            for (int u = 0; u < nu; ++u)
                acc[u] = max(acc[u], h[u]);
        }
        const long o = out_base + n * t[DMLI_POOL_STRIDE(1, 0)] + c * t[DMLI_POOL_STRIDE(1, 1)] +
                       (oh0 + r) * t[DMLI_POOL_STRIDE(1, 3)] + c0;
        const bool rows = kh1 > kh0;
        bool nan = false;
        for (int u = 0; u < nu; ++u) {
            BAND_T v = rows && hi[u] > lo[u] ? unkey(acc[u]) : (BAND_T)(LOWEST);
#if !INT_COMPUTE
            nan |= isnan(v);
#endif
#if OUT_HALF
            dmli_store_half((__global ushort *)out, o + u, v);
#else
            out[o + u] = (OUT_T)v;
#endif
        }
        /* A window of nothing but NaN gives its first one, bit for bit: rewritten after the
         * row's stores (a test in their loop cost the stem's pooling 15%). */
#if INT_COMPUTE
        (void)nan;
#else
        if (nan)
            for (int u = 0; u < nu; ++u)
                if (rows && hi[u] > lo[u] && isnan(unkey(acc[u])))
                    out[o + u] =
                        in[base + (sh + kh0 * DH) * isH + (sw0 + u * SW + lo[u] * DW) * isW];
#endif
    }
}
#else
__kernel void pool(__constant long *t, __global const IN_T *in, long in_base, __global OUT_T *out,
                   long out_base
#if INDICES
                   ,
                   __global IDX_T *ind, long ind_base
#endif
#if QUANT
                   ,
                   __global const float *isc, long isc_base, __global const uchar *izp,
                   long izp_base, __global const float *osc, long osc_base,
                   __global const uchar *ozp, long ozp_base
#endif
)
{
    const long OW = AX(2, DMLI_POOL_OUT), OH = AX(1, DMLI_POOL_OUT);
#if FLAT
    /* Every coordinate and count fits 32 bits (a tensor has fewer than 2^32 elements): 32-bit
     * divisions, several times cheaper than 64-bit ones on CPUs. */
#if STAGED
    __local float stage[GROUP * (STAGE | 1)];
    /* Every item of the work-group stages its share (one barrier): those past the outputs
     * take output 0's coordinates and store nothing. */
    const bool item_live = get_global_id(0) < (size_t)t[DMLI_POOL_TOTAL];
    uint g = item_live ? (uint)get_global_id(0) : 0, od_n = (uint)AX(0, DMLI_POOL_OUT);
#else
    if (get_global_id(0) >= (size_t)t[DMLI_POOL_TOTAL])
        return;
    uint g = (uint)get_global_id(0), od_n = (uint)AX(0, DMLI_POOL_OUT);
#endif
    long ow0 = g % (uint)OW;
    g /= (uint)OW;
    long oh = g % (uint)OH;
    g /= (uint)OH;
    long od = g % od_n;
    uint nc = g / od_n;
#else
    long ow0 = (long)get_global_id(0) * VEC;
    uint odh = (uint)get_global_id(1);
    uint nc = (uint)get_global_id(2);
    if (ow0 >= OW || nc >= (uint)t[DMLI_POOL_NC])
        return;
    long oh = odh, od = 0;
    if (AX(0, DMLI_POOL_OUT) > 1) {
        oh = odh % (uint)OH;
        od = odh / (uint)OH;
    }
#endif
    long n = nc / (uint)t[DMLI_POOL_C], c = nc % (uint)t[DMLI_POOL_C];
#if POP == 2 && LP_P == 0
    COMPUTE_T p = (COMPUTE_T)t[DMLI_POOL_P];
#endif
    const long IW = AX(2, DMLI_POOL_IN), IH = AX(1, DMLI_POOL_IN), ID = AX(0, DMLI_POOL_IN);
    const long SW = AX(2, DMLI_POOL_S), KW = AX(2, DMLI_POOL_K), DW = AX(2, DMLI_POOL_DIL);
    const long sd = od * AX(0, DMLI_POOL_S) - AX(0, DMLI_POOL_PAD);
    const long sh = oh * AX(1, DMLI_POOL_S) - AX(1, DMLI_POOL_PAD);
    long kd0, kd1, kh0, kh1;
    window_range(sd, AX(0, DMLI_POOL_K), AX(0, DMLI_POOL_DIL), 0, ID, &kd0, &kd1);
    window_range(sh, AX(1, DMLI_POOL_K), AX(1, DMLI_POOL_DIL), 0, IH, &kh0, &kh1);
    const long isW = t[DMLI_POOL_STRIDE(0, 4)];
    const long base = in_base + n * t[DMLI_POOL_STRIDE(0, 0)] + c * t[DMLI_POOL_STRIDE(0, 1)];

    COMPUTE_T acc[VEC], err[VEC];
    long idx[VEC], kw0[VEC], kw1[VEC], sw[VEC];
    /* Interior: the block's first window starts inside the row and its last ends inside it
     * (windows move right with v): no per-output ranges to compute. */
    const long sw0 = ow0 * SW - AX(2, DMLI_POOL_PAD);
    const bool interior = ow0 + VEC <= OW && sw0 >= 0 && sw0 + (VEC - 1) * SW + (KW - 1) * DW < IW;
    for (int v = 0; v < VEC; ++v) {
        acc[v] = INIT;
        err[v] = 0;
        idx[v] = -1;
        sw[v] = sw0 + v * SW;
        kw0[v] = 0;
        kw1[v] = KW;
        if (!interior)
            window_range(sw[v], KW, DW, 0, IW, &kw0[v], &kw1[v]);
        if (ow0 + v >= OW)
            kw0[v] = kw1[v] = 0;
    }
#if VLOAD
    /* Stride 2 reads one element past the last window's: it must still be in the row. */
    const bool vec = interior && (VLOAD == 1 || sw[VEC - 1] + (KW - 1) * DW + 1 < IW);
    long kwa = KW, kwb = 0; /* the union of the lanes' window ranges */
    for (int v = 0; v < VEC; ++v)
        if (kw0[v] < kw1[v]) {
            kwa = min(kwa, kw0[v]);
            kwb = max(kwb, kw1[v]);
        }
    vacc_t vacc[NV];
    float4 verr[NV];
    for (int h = 0; h < NV; ++h) {
        vacc[h] = VINIT;
        verr[h] = (float4)0;
    }
#endif
#if RUN
    {
        vacc_t racc[NV];
        float4 rerr[NV];
        for (int h = 0; h < NV; ++h) {
            racc[h] = VINIT;
            rerr[h] = (float4)0;
        }
        long unused_ = 0;
        (void)unused_;
        (void)isW; /* 1, and the H stride IW (the host checks) */
        const long len = (kh1 - kh0) * IW;
        for (long kd = kd0; kd < kd1; ++kd) {
            long id = sd + kd * AX(0, DMLI_POOL_DIL);
            long run = base + id * t[DMLI_POOL_STRIDE(0, 2)] + (sh + kh0) * IW;
            long j = 0;
            for (; j + VEC <= len; j += VEC)
                for (int h = 0; h < NV; ++h)
                    VFOLD(racc[h], rerr[h], VLOAD4(run + j, h));
            for (; j < len; ++j)
                FOLD(acc[0], unused_, err[0], LOAD(in, run + j), 0);
        }
        COMPUTE_T lane[VEC], lane_err[VEC];
        for (int h = 0; h < NV; ++h) {
            vstore4(vunkey(racc[h]), h, lane);
            vstore4(rerr[h], h, lane_err);
        }
        for (int k = 0; k < VEC; ++k)
            COMBINE(acc[0], err[0], lane[k], lane_err[k]);
    }
#elif STAGED
    {
        /* GPUs, global pooling of adjacent runs (the host checks: a window of the whole D x H x
         * W, contiguous, no padding or dilation; output g's run starts at g x len): the
         * work-group's outputs read one contiguous span, staged in local memory by consecutive
         * lanes (whole sectors, PB loads a lane before its stores), rows STAGE | 1 apart (odd:
         * a warp's lanes, each reading its own row, on 32 different banks); then each item folds
         * its row in order, as the loop below would. */
        const uint len = (uint)(ID * IH * IW), pitch = len | 1, lid = (uint)get_local_id(0);
        const ulong first = (ulong)get_group_id(0) * GROUP;
        const uint outs = (uint)min((ulong)GROUP, (ulong)t[DMLI_POOL_TOTAL] - first);
        const uint span = outs * len;
        const long run0 = in_base + (long)first * len;
        /* Lane lid's element e = lid + GROUP x step is row r, column j of the span; (r, j)
         * advanced by GROUP = dq rows + dr columns each step, without a division. */
        const uint dq = GROUP / len, dr = GROUP % len;
        uint r = lid / len, j = lid % len;
        for (uint e0 = lid; e0 < span; e0 += PB * GROUP) {
            float v[PB];
            uint at[PB];
#pragma unroll
            for (int b = 0; b < PB; ++b) {
                const uint e = e0 + (uint)b * GROUP;
                v[b] = e < span ? LOAD(in, run0 + e) : 0.0f;
                at[b] = r * pitch + j;
                r += dq;
                j += dr;
                if (j >= len) {
                    j -= len;
                    ++r;
                }
            }
#pragma unroll
            for (int b = 0; b < PB; ++b)
                if (e0 + (uint)b * GROUP < span)
                    stage[at[b]] = v[b];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (item_live)
            for (uint q = 0; q < len; ++q)
                FOLD(acc[0], idx[0], err[0], stage[lid * pitch + q], 0);
    }
#elif FLAT && PB > 1
    {
        /* GPUs: the window's taps in its order (D, H, W), PB loaded before the first is folded
         * (a GPU issues in order and waits at a load's first use: folded as loaded, an item
         * had one load in flight); a batch past the last tap loads nothing. The same folds in
         * the same order as below. */
        const long DD = AX(0, DMLI_POOL_DIL), DH = AX(1, DMLI_POOL_DIL);
        const long isD = t[DMLI_POOL_STRIDE(0, 2)], isH = t[DMLI_POOL_STRIDE(0, 3)];
        const long taps = (kd1 - kd0) * (kh1 - kh0) * (kw1[0] - kw0[0]);
        long kd = kd0, kh = kh0, kw = kw0[0];
        for (long q = 0; q < taps; q += PB) {
            COMPUTE_T x[PB];
#if INDICES
            long at[PB];
#define AT_(b) at[b]
#else
#define AT_(b) 0
#endif
#pragma unroll
            for (int b = 0; b < PB; ++b) {
                const long id = sd + kd * DD, ih = sh + kh * DH, iw = sw[0] + kw * DW;
#if INDICES
                at[b] = ((nc * ID + id) * IH + ih) * IW + iw;
#endif
                x[b] = q + b < taps ? LOAD(in, base + id * isD + ih * isH + iw * isW) : INIT;
                if (++kw == kw1[0]) {
                    kw = kw0[0];
                    if (++kh == kh1) {
                        kh = kh0;
                        ++kd;
                    }
                }
            }
#pragma unroll
            for (int b = 0; b < PB; ++b)
                if (q + b < taps)
                    FOLD(acc[0], idx[0], err[0], x[b], AT_(b));
#undef AT_
        }
    }
#else
    for (long kd = kd0; kd < kd1; ++kd) {
        long id = sd + kd * AX(0, DMLI_POOL_DIL);
        for (long kh = kh0; kh < kh1; ++kh) {
            long ih = sh + kh * AX(1, DMLI_POOL_DIL);
            long row = base + id * t[DMLI_POOL_STRIDE(0, 2)] + ih * t[DMLI_POOL_STRIDE(0, 3)];
            long flat = ((nc * ID + id) * IH + ih) * IW;
            (void)flat;
#if VLOAD
            if (vec) {
                for (long kw = 0; kw < KW; ++kw) {
                    long at = row + sw[0] + kw * DW;
#if VLOAD == 1
                    for (int h = 0; h < NV; ++h)
                        VFOLD(vacc[h], verr[h], VLOAD_STEP1(at + 4 * h));
#else
                    for (int h = 0; h < NV; ++h)
                        VFOLD(vacc[h], verr[h], VLOAD_STEP2(at + 8 * h));
#endif
                }
            } else {
                /* Border blocks: the lanes gathered, a position outside the row (or an output
                 * past the end) the fold's neutral value; the walk spans the lanes' ranges only
                 * (a window past the row costs what it reads, not its length). */
                for (long kw = kwa; kw < kwb; ++kw) {
                    COMPUTE_T lane[VEC];
                    for (int v = 0; v < VEC; ++v)
                        lane[v] = kw >= kw0[v] && kw < kw1[v]
                                      ? LOAD(in, row + (sw[v] + kw * DW) * isW)
                                      : NEUTRAL;
                    for (int h = 0; h < NV; ++h)
                        VFOLD(vacc[h], verr[h], vload4(h, lane));
                }
            }
#else
            if (interior) {
                for (long kw = 0; kw < KW; ++kw)
                    for (int v = 0; v < VEC; ++v) {
                        long iw = sw[v] + kw * DW;
                        FOLD(acc[v], idx[v], err[v], LOAD(in, row + iw * isW), flat + iw);
                    }
            } else {
                for (int v = 0; v < VEC; ++v)
                    for (long kw = kw0[v]; kw < kw1[v]; ++kw) {
                        long iw = sw[v] + kw * DW;
                        FOLD(acc[v], idx[v], err[v], LOAD(in, row + iw * isW), flat + iw);
                    }
            }
#endif
        }
    }
#endif

#if VLOAD
    for (int h = 0; h < NV; ++h) {
        vstore4(vunkey(vacc[h]), h, acc);
        vstore4(verr[h], h, err);
    }
#endif
#if POP == 0 || (POP == 1 && !INCLUDE_PADDING) || QUANT
    const long valid_dh = (kd1 - kd0) * (kh1 - kh0);
#endif
#if QUANT
    const float in_scale = isc[isc_base + c * t[DMLI_POOL_QSTRIDE(0)]];
    const float out_scale = osc[osc_base + c * t[DMLI_POOL_QSTRIDE(2)]];
#if HAS_IZP
    const long in_zp = (long)((__global const IN_T *)izp)[izp_base + c * t[DMLI_POOL_QSTRIDE(1)]];
#else
    const long in_zp = 0;
#endif
#if HAS_OZP
    const float out_zp =
        (float)((__global const OUT_T *)ozp)[ozp_base + c * t[DMLI_POOL_QSTRIDE(3)]];
#else
    const float out_zp = 0.0f;
#endif
#endif
#if POP == 1 && INCLUDE_PADDING
    const long padded_dh = padded_count(t, 0, sd) * padded_count(t, 1, sh);
#endif
#if STAGED
    if (!item_live)
        return;
#endif
    long o = out_base + n * t[DMLI_POOL_STRIDE(1, 0)] + c * t[DMLI_POOL_STRIDE(1, 1)] +
             od * t[DMLI_POOL_STRIDE(1, 2)] + oh * t[DMLI_POOL_STRIDE(1, 3)];
#if INDICES
    long oi = ind_base + n * t[DMLI_POOL_STRIDE(2, 0)] + c * t[DMLI_POOL_STRIDE(2, 1)] +
              od * t[DMLI_POOL_STRIDE(2, 2)] + oh * t[DMLI_POOL_STRIDE(2, 3)];
#endif
    for (int v = 0; v < VEC; ++v) {
        if (ow0 + v >= OW)
            break;
        COMPUTE_T r = acc[v];
#if POP == 0
        if (valid_dh * (kw1[v] - kw0[v]) == 0) {
            r = (COMPUTE_T)(LOWEST);
            idx[v] = 0;
        }
#if !INT_COMPUTE
        /* A window of nothing but NaN gives its first one, bit for bit (the folds keep NaN's
         * place, not its bits; FLOAT16's conversions would quiet a signalling one), index and
         * all: max pooling's input and output are of one type. */
        else if (isnan(r)) {
            long first = (sd + kd0 * AX(0, DMLI_POOL_DIL)) * t[DMLI_POOL_STRIDE(0, 2)] +
                         (sh + kh0 * AX(1, DMLI_POOL_DIL)) * t[DMLI_POOL_STRIDE(0, 3)] +
                         (sw[v] + kw0[v] * DW) * isW;
            out[o + (ow0 + v) * t[DMLI_POOL_STRIDE(1, 4)]] = in[base + first];
#if INDICES
            ind[oi + (ow0 + v) * t[DMLI_POOL_STRIDE(2, 4)]] = (IDX_T)idx[v];
#endif
            continue;
        }
#endif
#elif POP == 1
#if INCLUDE_PADDING
        long divisor = padded_dh * padded_count(t, 2, sw[v]);
#else
        long divisor = valid_dh * (kw1[v] - kw0[v]);
#endif
#if QUANT
        {
            /* The integers' sum exact, less the zero point per element read (padding is the
             * zero point: it adds nothing); one rounding per operation in float. */
            const long d = (long)r - in_zp * (valid_dh * (kw1[v] - kw0[v]));
            const float x = (float)d * in_scale;
            const float avg = divisor > 0 ? x / (float)divisor : 0.0f;
            float q = rint(avg / out_scale) + out_zp;
            q = isnan(q) ? 0.0f : fmax((float)QMIN, fmin((float)QMAX, q));
            out[o + (ow0 + v) * t[DMLI_POOL_STRIDE(1, 4)]] = (OUT_T)(int)q;
            continue;
        }
#else
        if (isfinite(r)) /* an infinite or NaN sum makes err NaN: the sum alone stands */
            r += err[v];
        r = divisor > 0 ? r / (COMPUTE_T)divisor : (COMPUTE_T)0;
#endif
#else
#if LP_P == 2
        r = sqrt(r);
#elif LP_P == 0
        r = pow(r, (COMPUTE_T)1 / p);
#endif
#endif
        long ov = o + (ow0 + v) * t[DMLI_POOL_STRIDE(1, 4)];
#if OUT_HALF
        dmli_store_half((__global ushort *)out, ov, r);
#else
        out[ov] = (OUT_T)r;
#endif
#if INDICES
        ind[oi + (ow0 + v) * t[DMLI_POOL_STRIDE(2, 4)]] = (IDX_T)idx[v];
#endif
    }
}
#endif
