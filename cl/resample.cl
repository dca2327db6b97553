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
 * A work-item writes VEC consecutive outputs of the innermost dimension: the outer four
 * dimensions' neighbours and weights are computed once for them (up to 8 corners), the
 * innermost per output. Grid: dimension 0 the innermost's chunks, 1 dimension 3, 2 the
 * product of dimensions 0 to 2.
 *
 * Macros (defaults build a valid program):
 *   T            the storage type (float, ushort for FLOAT16, char, uchar)
 *   HALF         1: FLOAT16 (vload_half; stores round to nearest even once)
 *   INT_OUT      1: an integer type: LINEAR's results rounded to nearest even, saturated
 *   LINEAR, CEIL the interpolation and nearest's rounding
 *   AFFINE       1: VALUE_SCALE_2D: y = fma(x, Scale, Bias[c]), c the coordinate of
 *                DMLI_RS_CHANNEL_DIM
 *   VEC          outputs per work-item along the innermost dimension
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

/* Dimension d's neighbours i0, i1 and the weight w of i1 for output coordinate o; i1 is i0
 * where w is 0 (x integral, or clamped to an edge). */
static void neighbours(__constant long *t, int d, long o, long *i0, long *i1, float *w)
{
    long n = AT(d, DMLI_RS_ISIZE);
    float y = table_float(t, DMLI_RS_AT(d, DMLI_RS_SCALE_OF));
    float inv = table_float(t, DMLI_RS_AT(d, DMLI_RS_RECIP));
    float u = (float)o - table_float(t, DMLI_RS_AT(d, DMLI_RS_OUT_OFF));
    float q = u * inv;
    q = fma(fma(-q, y, u), inv, q); /* the remainder, exact, corrects the quotient */
    float x = q - table_float(t, DMLI_RS_AT(d, DMLI_RS_IN_OFF));
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

__kernel void resample(__constant long *t, __global const T *in, long in_base, __global T *out,
                       long out_base)
{
    long u0 = (long)get_global_id(0) * VEC;
    long n4 = AT(4, DMLI_RS_OSIZE);
    if (u0 >= n4)
        return;
    long oc[4];
    long z = get_global_id(2);
    oc[3] = get_global_id(1);
    oc[2] = z % AT(2, DMLI_RS_OSIZE);
    z /= AT(2, DMLI_RS_OSIZE);
    oc[1] = z % AT(1, DMLI_RS_OSIZE);
    oc[0] = z / AT(1, DMLI_RS_OSIZE);
    long ob = out_base;
    long off[8];
    float wt[8];
    int nc = 1;
    off[0] = in_base;
    wt[0] = 1.0f;
    for (int d = 0; d < 4; ++d) {
        long i0, i1;
        float w;
        ob += oc[d] * AT(d, DMLI_RS_OS);
        neighbours(t, d, oc[d], &i0, &i1, &w);
        long s = AT(d, DMLI_RS_IS);
#if LINEAR
        if (w != 0.0f && nc < 8) { /* rank 4 at most: 3 outer dimensions */
            for (int c = 0; c < nc; ++c) {
                off[c + nc] = off[c] + i1 * s;
                wt[c + nc] = wt[c] * w;
                off[c] += i0 * s;
                wt[c] *= 1.0f - w;
            }
            nc *= 2;
            continue;
        }
#endif
        for (int c = 0; c < nc; ++c)
            off[c] += i0 * s;
    }
    long is4 = AT(4, DMLI_RS_IS), os4 = AT(4, DMLI_RS_OS);
#if AFFINE
    float scale = table_float(t, DMLI_RS_SCALE);
    float bias = table_float(t, DMLI_RS_BIAS(oc[DMLI_RS_CHANNEL_DIM]));
#endif
    for (int v = 0; v < VEC; ++v) {
        long u = u0 + v;
        if (u >= n4)
            break;
        long i0, i1;
        float w;
        neighbours(t, 4, u, &i0, &i1, &w);
#if LINEAR
        float r = 0.0f;
        for (int c = 0; c < nc; ++c) {
            float a = LOAD(off[c] + i0 * is4);
            if (w != 0.0f)
                a = (1.0f - w) * a + w * LOAD(off[c] + i1 * is4);
            r = c == 0 ? wt[0] * a : r + wt[c] * a;
        }
#else
        float r = LOAD(off[0] + i0 * is4);
#endif
#if AFFINE
        r = fma(r, scale, bias);
#endif
        STORE(ob + u * os4, r);
    }
}
