/* SPDX-License-Identifier: MIT */
/*
 * The resample family: UPSAMPLE_2D, RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 and
 * VALUE_SCALE_2D (src/ops/resample.c). Five dimensions, outermost first, described by the
 * table (cl/resample_abi.h). Output coordinate o of dimension d reads input coordinate
 * x = (o - OutputPixelOffset) / Scale - InputPixelOffset in float32, the quotient correctly
 * rounded by one fma correction of a product by the reciprocal (so every device gives one x,
 * whatever its division's accuracy), clamped to the input's edges:
 *   nearest: the element at floor(x) (CEIL 0) or ceil(x) (CEIL 1);
 *   LINEAR: the two neighbours floor(x) and floor(x) + 1 weighted 1 - w and w, w = x -
 *   floor(x), along every dimension (products of the dimensions' weights); a neighbour of
 *   weight 0 (x integral, or clamped) is not read.
 * A work-item writes ROWS x VEC outputs: VEC consecutive ones of the innermost dimension in
 * ROWS consecutive rows of dimension 3. Dimensions 0 to 2's neighbours and weights are
 * computed once for them, the innermost dimension's once per column, dimension 3's once per
 * row (up to 8 corners besides the innermost's two). Grid: dimension 0 the innermost's
 * chunks, 1 dimension 3's blocks of ROWS, 2 the product of dimensions 0 to 2.
 *
 * Macros (defaults build a valid program):
 *   T            the storage type (float, ushort for FLOAT16, char, uchar)
 *   HALF         1: FLOAT16 (vload_half; stores round to nearest even once)
 *   INT_OUT      1: an integer type: LINEAR's results rounded to nearest even, saturated
 *   LINEAR, CEIL the interpolation and nearest's rounding
 *   ANTIALIAS    1: RESAMPLE3's Antialiased LINEAR downscale (the stretched triangle filter)
 *   AFFINE       1: VALUE_SCALE_2D: y = fma(x, Scale, Bias[c]), c the coordinate of
 *                DMLI_RS_CHANNEL_DIM
 *   VEC, ROWS    outputs per work-item along the innermost dimension and dimension 3
 *   GPU_ROWS     1 (GPUs, VEC 1): an item's ROWS rows loaded before any is summed or stored
 *                (where dimensions 0 to 2 take one neighbour each)
 *   BAND         1: resample_band (below), a band of ROWS x VEC outputs a work-group of one
 *                item, staged through local memory
 *   GRAD         1: resample_grad (RESAMPLE_GRAD, RESAMPLE_GRAD1), the adjoint: the table's
 *                "input" is the gradient written (the forward's input), its "output" the
 *                incoming gradient read (the forward's output); FLOAT32 or FLOAT16 only
 *
 * Arguments (the compute family ABI): the table, then the input and the output, each a
 * buffer and its base in elements.
 */
#include "resample_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef T
#define T float
#endif
#ifndef HALF
#define HALF 0
#endif
#ifndef INT_OUT
#define INT_OUT 0
#endif
#ifndef LINEAR
#define LINEAR 0
#endif
#ifndef CEIL
#define CEIL 0
#endif
#ifndef AFFINE
#define AFFINE 0
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef ANTIALIAS
#define ANTIALIAS 0
#endif
#ifndef BAND
#define BAND 0
#endif
#ifndef GPU_ROWS
#define GPU_ROWS 0
#endif
#ifndef GRAD
#define GRAD 0
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0

#if HALF
#include "half.cl"
#define LOAD(i) vload_half((i), (__global const half *)in)
#define STORE(o, v) dmli_store_half((__global ushort *)out, (o), (v))
#elif INT_OUT
#define LOAD(i) ((float)in[(i)])
#define CONVERT_RTE_(type, v) convert_##type##_sat_rte(v)
#define CONVERT_RTE(type, v) CONVERT_RTE_(type, v)
#define STORE(o, v) (out[(o)] = CONVERT_RTE(T, (v)))
#else
#define LOAD(i) ((float)in[(i)])
#define STORE(o, v) (out[(o)] = (T)(v))
#endif

#define AT(d, f) t[DMLI_RS_AT(d, f)]

static float table_float(__constant long *t, int k)
{
    return as_float((uint)t[k]);
}

/* Dimension d's input coordinate for output coordinate o (the quotient correctly rounded). */
static float coordinate(__constant long *t, int d, long o)
{
    float y = table_float(t, DMLI_RS_AT(d, DMLI_RS_SCALE_OF));
    float inv = table_float(t, DMLI_RS_AT(d, DMLI_RS_RECIP));
    float u = (float)o - table_float(t, DMLI_RS_AT(d, DMLI_RS_OUT_OFF));
    float q = u == 0.0f ? 0.0f : u * inv; /* 0, also where 1 / Scale is infinite */
    /* The remainder, exact, corrects the quotient; not past float's range (a Scale of 1e-37:
     * inf - inf would make the coordinate NaN, element 0, where it is past the last). */
    if (isfinite(q))
        q = fma(fma(-q, y, u), inv, q);
    return q - table_float(t, DMLI_RS_AT(d, DMLI_RS_IN_OFF));
}

/* Dimension d's neighbours i0, i1 and the weight w of i1 for output coordinate o; i1 is i0
 * where w is 0 (x integral, or clamped to an edge). */
static void neighbours(__constant long *t, int d, long o, long *i0, long *i1, float *w)
{
    long n = AT(d, DMLI_RS_ISIZE);
    float x = coordinate(t, d, o);
#if CEIL
    float f = ceil(x);
#else
    float f = floor(x);
#endif
    *w = 0.0f;
    if (!(f >= 0.0f)) { /* before the first element, or NaN */
        *i0 = 0;
    } else if (f >= (float)(n - 1)) {
        *i0 = n - 1;
    } else {
        *i0 = min((long)f, n - 1);
#if LINEAR
        *w = x - f;
#endif
    }
    *i1 = *w != 0.0f ? *i0 + 1 : *i0;
}

/* Folds dimension d's neighbours into the corners (offsets and weights): each corner splits in
 * two where the weight is not 0 (LINEAR), else moves to the one neighbour. */
static int fold(__constant long *t, int d, long o, long *off, float *wt, int nc)
{
    long i0, i1;
    float w;
    neighbours(t, d, o, &i0, &i1, &w);
    long s = AT(d, DMLI_RS_IS);
#if LINEAR
    if (w != 0.0f && nc < 8) { /* rank 4 at most: 3 dimensions besides the innermost */
        for (int c = 0; c < nc; ++c) {
            off[c + nc] = off[c] + i1 * s;
            wt[c + nc] = wt[c] * w;
            off[c] += i0 * s;
            wt[c] *= 1.0f - w;
        }
        return 2 * nc;
    }
#endif
    for (int c = 0; c < nc; ++c)
        off[c] += i0 * s;
    return nc;
}

#if ANTIALIAS
/* RESAMPLE3's Antialiased LINEAR: the triangle filter stretched by 1/Scale where Scale < 1
 * (ONNX Resize's antialias): taps floor(x) + k, each weighted max(0, 1 - |k - r| s) (s the
 * scale, at most 1; r = x - floor(x)), the weights normalised per dimension, indices clamped
 * to the input (an edge element takes the weights of the taps past it). Per dimension the work
 * is over the input's indices, not the taps: an edge's taps past the input are summed in
 * closed form, so a tiny Scale (1e-10: 2e10 taps) costs what the input's size does. */

/* The sum of max(0, 1 - |k - r| s) over taps a..b, all inside the filter's support: the left
 * side (k <= 0 <= r) 1 - (r - k) s and the right (k >= 1 > r) 1 - (k - r) s, each an
 * arithmetic series. */
static float tri_sum(long a, long b, float r, float s)
{
    float total = 0.0f;
    const long lb = min(b, 0L), ra = max(a, 1L);
    if (a <= lb) {
        const float cnt = (float)(lb - a + 1);
        total += cnt * (1.0f - r * s) + s * (((float)a + (float)lb) * 0.5f) * cnt;
    }
    if (ra <= b) {
        const float cnt = (float)(b - ra + 1);
        total += cnt * (1.0f + r * s) - s * (((float)ra + (float)b) * 0.5f) * cnt;
    }
    return total;
}

/* Input index i's weight along a dimension of n elements: the taps klo..khi from `first` that
 * land on it (clamped). */
static float tap_weight(long i, long first, long n, long klo, long khi, float r, float s)
{
    long a = i - first, b = a;
    if (i <= 0)
        a = klo;
    if (i >= n - 1)
        b = khi;
    a = max(a, klo);
    b = min(b, khi);
    return a <= b ? tri_sum(a, b, r, s) : 0.0f;
}

static float antialiased(__constant long *t, __global const T *in, long in_base, const long *oc)
{
    long first[DMLI_RS_DIMS], n[DMLI_RS_DIMS], klo[DMLI_RS_DIMS], khi[DMLI_RS_DIMS];
    long lo[DMLI_RS_DIMS], hi[DMLI_RS_DIMS], i[DMLI_RS_DIMS];
    float ratio[DMLI_RS_DIMS], sc[DMLI_RS_DIMS], sum[DMLI_RS_DIMS];
    for (int d = 0; d < DMLI_RS_DIMS; ++d) {
        /* Past 2^31 every tap lands on an edge (and an infinite x makes no ratio). */
        float x = clamp(coordinate(t, d, oc[d]), -2147483648.0f, 2147483647.0f);
        float f = floor(x);
        float scale = table_float(t, DMLI_RS_AT(d, DMLI_RS_SCALE_OF));
        sc[d] = scale < 1.0f ? scale : 1.0f;
        /* The support's half-width 1/s (at most 2^40: beyond it every weight is 1 to float). */
        float reach = scale < 1.0f
                          ? fmin(table_float(t, DMLI_RS_AT(d, DMLI_RS_RECIP)), 1099511627776.0f)
                          : 1.0f;
        ratio[d] = x - f;
        first[d] = (long)f;
        n[d] = AT(d, DMLI_RS_ISIZE);
        /* The taps of positive weight: |k - r| < 1/s. */
        klo[d] = (long)floor(ratio[d] - reach) + 1;
        khi[d] = (long)ceil(ratio[d] + reach) - 1;
        lo[d] = clamp(first[d] + klo[d], 0L, n[d] - 1);
        hi[d] = clamp(first[d] + khi[d], 0L, n[d] - 1);
        sum[d] = 0.0f;
        for (long j = lo[d]; j <= hi[d]; ++j)
            sum[d] += tap_weight(j, first[d], n[d], klo[d], khi[d], ratio[d], sc[d]);
        i[d] = lo[d];
    }
    float r = 0.0f;
    bool any = false;
    for (;;) {
        float w = 1.0f;
        long off = in_base;
        for (int d = 0; d < DMLI_RS_DIMS; ++d) {
            w *= tap_weight(i[d], first[d], n[d], klo[d], khi[d], ratio[d], sc[d]) / sum[d];
            off += i[d] * AT(d, DMLI_RS_IS);
        }
        if (w != 0.0f) {
            float v = LOAD(off);
            r = any ? r + w * v : w * v;
            any = true;
        }
        int d = DMLI_RS_DIMS - 1; /* the odometer: the innermost index first */
        for (; d >= 0; --d) {
            if (++i[d] <= hi[d])
                break;
            i[d] = lo[d];
        }
        if (d < 0)
            return r;
    }
}
#endif

#if BAND
#define CW VEC         /* a band's columns */
#define RB ROWS        /* ... and rows */
#if defined(__clang__) /* the stage's loops vectorise for float; narrower types stay scalar */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#if LINEAR
#define SLOTS (2 * RB)
#else
#define SLOTS RB
#endif

/* The slot of staged row y, appended where the band has none yet: at most two new rows an
 * output row, so SLOTS always suffice, whatever order the rows' coordinates come in. */
static int slot_of(long y, long *ys, int *n)
{
    for (int s = *n - 1; s >= 0; --s)
        if (ys[s] == y)
            return s;
    ys[*n] = y;
    return (*n)++;
}

/* A staged row: the input row at `in` interpolated along the innermost dimension at the
 * band's columns. A neighbour of weight 0 is the other one (cb = ca): its value is not used
 * (both loaded, the sum selected away: a loop of gathers without a branch). The loops are
 * declared free of dependences: PoCL passes local arrays as pointers, which the vectoriser
 * takes as overlapping the input (restrict pointers do it too, but Oclgrind rejects the
 * scopes they leave). */
static inline void stage_row(__global const T *in, const int *ca, const int *cb, const float *cw0,
                             const float *cw1, __local float *h, int nu)
{
#if LINEAR
#pragma clang loop vectorize(assume_safety)
    for (int u = 0; u < nu; ++u) {
        float a = LOAD(ca[u]), b = LOAD(cb[u]);
        float m = cw0[u] * a + cw1[u] * b;
        h[u] = select(a, m, (int)(cw1[u] != 0.0f));
    }
#else
    (void)cb;
    (void)cw0;
    (void)cw1;
#pragma clang loop vectorize(assume_safety)
    for (int u = 0; u < nu; ++u)
        h[u] = LOAD(ca[u]);
#endif
}

/*
 * BAND 1 (CPUs; the host checks that dimensions 0 to 2 interpolate nowhere, that the output's
 * innermost stride is 1 and that the input's column offsets fit an int): a work-group of one
 * item writes a band of RB output rows x CW columns of one plane. It computes the columns'
 * neighbours and weights once, interpolates each input row the band needs along the
 * innermost dimension once into local memory (a slot), then writes each output row as the
 * weighted sum of its one or two slots: contiguous loops the compiler vectorises. The
 * arithmetic is the generic kernel's, operation for operation (same bits).
 */
__kernel void resample_band(__constant long *t, __global const T *in, long in_base, __global T *out,
                            long out_base)
{
    __local float stage[SLOTS * CW];
    int ca[CW], cb[CW];
    float cw0[CW], cw1[CW];
    long n4 = AT(4, DMLI_RS_OSIZE), n3 = AT(3, DMLI_RS_OSIZE);
    long c0 = (long)get_group_id(0) * CW, r0 = (long)get_group_id(1) * RB;
    int nu = (int)min((long)CW, n4 - c0), nr = (int)min((long)RB, n3 - r0);
    long oc[3], z = get_group_id(2);
    oc[2] = z % AT(2, DMLI_RS_OSIZE);
    z /= AT(2, DMLI_RS_OSIZE);
    oc[1] = z % AT(1, DMLI_RS_OSIZE);
    oc[0] = z / AT(1, DMLI_RS_OSIZE);
    long ib = in_base, ob = out_base + c0;
    for (int d = 0; d < 3; ++d) {
        long i0, i1;
        float w;
        neighbours(t, d, oc[d], &i0, &i1, &w);
        ib += i0 * AT(d, DMLI_RS_IS);
        ob += oc[d] * AT(d, DMLI_RS_OS);
    }
    long is3 = AT(3, DMLI_RS_IS), is4 = AT(4, DMLI_RS_IS), os3 = AT(3, DMLI_RS_OS);
    for (int u = 0; u < nu; ++u) {
        long a, b;
        float w;
        neighbours(t, 4, c0 + u, &a, &b, &w);
        ca[u] = (int)(a * is4);
        cb[u] = (int)(b * is4);
        cw1[u] = w;
        cw0[u] = 1.0f - w;
    }
    /* The rows' slots and weights. */
    long ys[SLOTS];
    int s0[RB], s1[RB], ns = 0;
    float rw[RB];
    for (int r = 0; r < nr; ++r) {
        long a, b;
        neighbours(t, 3, r0 + r, &a, &b, &rw[r]);
        s0[r] = slot_of(a, ys, &ns);
        s1[r] = rw[r] != 0.0f ? slot_of(b, ys, &ns) : s0[r];
    }
    for (int s = 0; s < ns; ++s)
        stage_row(in + ib + ys[s] * is3, ca, cb, cw0, cw1, stage + s * CW, nu);
#if AFFINE
    float scale = table_float(t, DMLI_RS_SCALE);
    float bias = table_float(t, DMLI_RS_BIAS(oc[DMLI_RS_CHANNEL_DIM]));
#endif
    for (int r = 0; r < nr; ++r) {
        __local const float *h0 = stage + s0[r] * CW, *h1 = stage + s1[r] * CW;
        long o = ob + (r0 + r) * os3;
#if LINEAR
        float w = rw[r], w0 = 1.0f - w;
        if (w != 0.0f) {
            for (int u = 0; u < nu; ++u) {
                float v = w0 * h0[u] + w * h1[u];
#if AFFINE
                v = fma(v, scale, bias);
#endif
                STORE(o + u, v);
            }
            continue;
        }
#endif
        for (int u = 0; u < nu; ++u) {
            float v = h0[u];
#if AFFINE
            v = fma(v, scale, bias);
#endif
            STORE(o + u, v);
        }
    }
}
#else
__kernel void resample(__constant long *t, __global const T *in, long in_base, __global T *out,
                       long out_base)
{
    long u0 = (long)get_global_id(0) * VEC;
    long n4 = AT(4, DMLI_RS_OSIZE), n3 = AT(3, DMLI_RS_OSIZE);
    long r0 = (long)get_global_id(1) * ROWS;
    if (u0 >= n4 || r0 >= n3)
        return;
    long oc[3];
    long z = get_global_id(2);
    if (z <= (long)UINT_MAX) {
        /* 32-bit divisions (each size is a UINT): a GPU divides 64-bit integers in software,
         * some 70 instructions, twice an output where an item writes one. */
        const uint zz = (uint)z, n2 = (uint)AT(2, DMLI_RS_OSIZE), n1 = (uint)AT(1, DMLI_RS_OSIZE);
        oc[2] = zz % n2;
        oc[1] = zz / n2 % n1;
        oc[0] = zz / n2 / n1;
    } else {
        oc[2] = z % AT(2, DMLI_RS_OSIZE);
        z /= AT(2, DMLI_RS_OSIZE);
        oc[1] = z % AT(1, DMLI_RS_OSIZE);
        oc[0] = z / AT(1, DMLI_RS_OSIZE);
    }
#if ANTIALIAS
    for (long row = r0; row < min(r0 + ROWS, n3); ++row)
        for (long u = u0; u < min(u0 + VEC, n4); ++u) {
            long c5[DMLI_RS_DIMS] = {oc[0], oc[1], oc[2], row, u};
            long o = out_base;
            for (int d = 0; d < DMLI_RS_DIMS; ++d)
                o += c5[d] * AT(d, DMLI_RS_OS);
            STORE(o, antialiased(t, in, in_base, c5));
        }
    return;
#endif
    /* Dimensions 0 to 2, once for the item's ROWS x VEC outputs. */
    long ob = out_base, base[8];
    float bwt[8];
    int nb = 1;
    base[0] = in_base;
    bwt[0] = 1.0f;
    for (int d = 0; d < 3; ++d) {
        ob += oc[d] * AT(d, DMLI_RS_OS);
        nb = fold(t, d, oc[d], base, bwt, nb);
    }
    /* The innermost dimension's neighbours, once for the ROWS rows. */
    long ia[VEC], ib[VEC];
    float iw[VEC], iw1[VEC];
    int nv = n4 - u0 < VEC ? (int)(n4 - u0) : VEC;
    /* Past the end (the last chunk), the last output's neighbours: every loop runs VEC. */
    for (int v = 0; v < VEC; ++v) {
        neighbours(t, 4, min(u0 + v, n4 - 1), &ia[v], &ib[v], &iw[v]);
        iw1[v] = 1.0f - iw[v];
    }
    long is4 = AT(4, DMLI_RS_IS), os4 = AT(4, DMLI_RS_OS), os3 = AT(3, DMLI_RS_OS);
#if AFFINE
    float scale = table_float(t, DMLI_RS_SCALE);
    float bias = table_float(t, DMLI_RS_BIAS(oc[DMLI_RS_CHANNEL_DIM]));
#endif
    int nr = n3 - r0 < ROWS ? (int)(n3 - r0) : ROWS;
#if GPU_ROWS && VEC == 1
    if (nb == 1) {
        /* GPUs (an output a row): every row's loads first, then their sums and stores (a GPU
         * waits at a load's first use: loaded and stored row by row, an item had one row's
         * loads in flight). The same sums as below. */
#if LINEAR
        float xa[ROWS][2], xb[ROWS][2], wr[ROWS][2];
        int ncr[ROWS];
#else
        float x[ROWS];
#endif
#pragma unroll
        for (int row = 0; row < ROWS; ++row) {
            long off[2];
            float wt[2];
            off[0] = base[0];
            wt[0] = bwt[0];
            const int nc = fold(t, 3, min(r0 + row, n3 - 1), off, wt, 1);
#if LINEAR
            ncr[row] = nc;
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                const bool live = row < nr && c < nc;
                wr[row][c] = wt[c];
                xa[row][c] = live ? LOAD(off[c] + ia[0] * is4) : 0.0f;
                xb[row][c] = live ? LOAD(off[c] + ib[0] * is4) : 0.0f;
            }
#else
            (void)nc;
            x[row] = row < nr ? LOAD(off[0] + ia[0] * is4) : 0.0f;
#endif
        }
#pragma unroll
        for (int row = 0; row < ROWS; ++row) {
#if LINEAR
            float r = 0.0f;
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                const float a = xa[row][c], b = xb[row][c];
                const float m = iw[0] != 0.0f ? iw1[0] * a + iw[0] * b : a;
                if (c == 0)
                    r = wr[row][0] * m;
                else if (c < ncr[row])
                    r = r + wr[row][c] * m;
            }
#else
            float r = x[row];
#endif
#if AFFINE
            r = fma(r, scale, bias);
#endif
            if (row < nr)
                STORE(ob + (r0 + row) * os3 + u0 * os4, r);
        }
        return;
    }
#endif
    for (int row = 0; row < nr; ++row) {
        long off[8];
        float wt[8];
        for (int c = 0; c < nb; ++c) {
            off[c] = base[c];
            wt[c] = bwt[c];
        }
        int nc = fold(t, 3, r0 + row, off, wt, nb);
        long orow = ob + (r0 + row) * os3 + u0 * os4;
#if LINEAR
        /* Corner by corner over the row's VEC outputs: the inner loop has no branch. A
         * neighbour of weight 0 is the other one (ib = ia): its value is not used. */
        float acc[VEC];
        for (int c = 0; c < nc; ++c) {
            float wc = wt[c];
            for (int v = 0; v < VEC; ++v) {
                float a = LOAD(off[c] + ia[v] * is4), b = LOAD(off[c] + ib[v] * is4);
                float m = iw[v] != 0.0f ? iw1[v] * a + iw[v] * b : a;
                acc[v] = c == 0 ? wc * m : acc[v] + wc * m;
            }
        }
        for (int v = 0; v < nv; ++v) {
            float r = acc[v];
#else
        for (int v = 0; v < nv; ++v) {
            float r = LOAD(off[0] + ia[v] * is4);
#endif
#if AFFINE
            r = fma(r, scale, bias);
#endif
            STORE(orow + v * os4, r);
        }
    }
}
#endif

#if GRAD
/*
 * resample_grad (RESAMPLE_GRAD, RESAMPLE_GRAD1): the transpose of the forward above, written as
 * a gather. Element i of the gradient written (the forward's input) is the sum over forward
 * outputs o of weight(o, i) * dY[o], weight a product over the dimensions of the forward's own
 * weights: neighbours() of o gives i0, i1 and w; i0 takes 1 - w (1 where w is 0), i1 takes w.
 * Along a dimension the forward's i0(o) never decreases with o (the coordinate is a correctly
 * rounded monotone function, then floored or ceiled and clamped), so the outputs that read i
 * are the one run of o whose i0 is i (or i - 1, LINEAR): found by two binary searches, then
 * walked in row-major order, a weight of 0 skipped. The sum is compensated (two-sum) in float
 * and rounded once; its order is fixed: deterministic on every device, no atomics.
 * One work-item per gradient element; the grid is rounded up to whole groups.
 */

/* The first o in [0, m) whose neighbour i0 is at least key (m where none is). */
static long first_reaching(__constant long *t, int d, long key)
{
    long lo = 0, hi = AT(d, DMLI_RS_OSIZE);
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2, i0, i1;
        float w;
        neighbours(t, d, mid, &i0, &i1, &w);
        if (i0 >= key)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Dimension d's weight of element i in forward output o. */
static float weight_of(__constant long *t, int d, long o, long i)
{
    long i0, i1;
    float w;
    neighbours(t, d, o, &i0, &i1, &w);
    if (w == 0.0f)
        return i0 == i ? 1.0f : 0.0f;
    return i == i0 ? 1.0f - w : (i == i1 ? w : 0.0f);
}

__kernel void resample_grad(__constant long *t, __global const T *in, long in_base, __global T *out,
                            long out_base)
{
    long rest = (long)get_global_id(0), count = 1;
    for (int d = 0; d < DMLI_RS_DIMS; ++d)
        count *= AT(d, DMLI_RS_ISIZE);
    if (rest >= count)
        return;
    long i[DMLI_RS_DIMS], lo[DMLI_RS_DIMS], hi[DMLI_RS_DIMS], o[DMLI_RS_DIMS];
    long at = out_base;
    bool none = false;
    for (int d = DMLI_RS_DIMS - 1; d >= 0; --d) {
        long n = AT(d, DMLI_RS_ISIZE);
        i[d] = rest % n;
        rest /= n;
        at += i[d] * AT(d, DMLI_RS_IS);
        lo[d] = first_reaching(t, d, LINEAR ? i[d] - 1 : i[d]);
        hi[d] = first_reaching(t, d, i[d] + 1) - 1;
        none = none || hi[d] < lo[d];
    }
    float sum = 0.0f, comp = 0.0f;
    for (int d = 0; d < DMLI_RS_DIMS; ++d)
        o[d] = lo[d];
    while (!none) {
        float w = 1.0f;
        long src = in_base;
        for (int d = 0; d < DMLI_RS_DIMS && w != 0.0f; ++d) {
            w *= weight_of(t, d, o[d], i[d]);
            src += o[d] * AT(d, DMLI_RS_OS);
        }
        if (w != 0.0f) {
            const float g = w * LOAD(src);
            /* Two-sum: sum + comp is the running total, one rounding off. */
            const float s = sum + g, b = s - sum;
            comp += (sum - (s - b)) + (g - b);
            sum = s;
        }
        int d = DMLI_RS_DIMS - 1; /* the odometer: the innermost first */
        for (; d >= 0; --d) {
            if (++o[d] <= hi[d])
                break;
            o[d] = lo[d];
        }
        none = d < 0;
    }
    STORE(at, isfinite(sum) ? sum + comp : sum);
}
#endif
