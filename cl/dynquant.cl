/* SPDX-License-Identifier: MIT */
/*
 * The dynamic quantization family: DYNAMIC_QUANTIZE_LINEAR (src/ops/dynamic_quantize.c states
 * the rules). One work-group of GROUP items reads the whole input twice: first its minimum and
 * maximum (fmin and fmax: a NaN is passed over; exact in any order, so the tree below gives one
 * result on every device), from which every item derives the same scale and zero point in
 * float32, then the quantized elements, rint(x / scale) + zero point saturated to the output's
 * range (NaN 0), as ELEMENT_WISE_QUANTIZE_LINEAR computes them. Item 0 writes the scale and the
 * zero point. Each tensor is read and written through its strides (the table, cl/dynquant_abi.h).
 *
 * Macros (defaults build a valid program):
 *   IN_T, IN_HALF  the input's storage (FLOAT16 as ushort, IN_HALF 1)
 *   OUT_T          the output's and zero point's storage: char (INT8) or uchar (UINT8)
 *   QMIN, QMAX     the output type's range
 *   GROUP          work-items of the one work-group, a power of two
 */
#include "dynquant_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef IN_T
#define IN_T float
#endif
#ifndef IN_HALF
#define IN_HALF 0
#endif
#ifndef OUT_T
#define OUT_T uchar
#endif
#ifndef QMIN
#define QMIN 0
#endif
#ifndef QMAX
#define QMAX 255
#endif
#ifndef GROUP
#define GROUP 64
#endif

static float load_input(__global const IN_T *in, long i)
{
#if IN_HALF
    return vload_half((size_t)i, (__global const half *)in);
#else
    return in[i];
#endif
}

/* Element i (row-major over the sizes) of the input and of the output, as element offsets. */
static void locate(__constant long *t, long i, long *in_off, long *out_off)
{
    long a = 0, b = 0;
    for (int d = (int)t[DMLI_DQ_RANK] - 1; d >= 0; --d) {
        long n = t[DMLI_DQ_SIZE(d)], c = i % n;
        i /= n;
        a += c * t[DMLI_DQ_IN_STRIDE(d)];
        b += c * t[DMLI_DQ_OUT_STRIDE(d)];
    }
    *in_off = a;
    *out_off = b;
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void
dynamic_quantize(__constant long *t, __global const IN_T *in, long in_base, __global OUT_T *out,
                 long out_base, __global float *scale, long scale_base, __global OUT_T *zp,
                 long zp_base)
{
    __local float lo[GROUP], hi[GROUP];
    const int lid = (int)get_local_id(0);
    const long n = t[DMLI_DQ_COUNT];
    /* Work units: runs of the innermost dimension, each row cut into enough runs that every
     * item has one where the rows are fewer than the items; a run's first element located
     * once (its coordinates), the rest walked by the innermost strides. */
    const int last = (int)t[DMLI_DQ_RANK] - 1;
    const long inner = last >= 0 ? t[DMLI_DQ_SIZE(last)] : 1;
    const long rows = inner > 0 ? n / inner : 0;
    long cuts = rows > 0 && rows < GROUP ? (GROUP + rows - 1) / rows : 1;
    cuts = cuts > inner ? (inner > 0 ? inner : 1) : cuts;
    const long run = inner > 0 ? (inner + cuts - 1) / cuts : 0, units = rows * cuts;
    const long is = last >= 0 ? t[DMLI_DQ_IN_STRIDE(last)] : 0;
    const long os = last >= 0 ? t[DMLI_DQ_OUT_STRIDE(last)] : 0;
    float mn = INFINITY, mx = -INFINITY;
    for (long u = lid; u < units; u += GROUP) {
        const long j0 = u % cuts * run, j1 = j0 + run < inner ? j0 + run : inner;
        long a, b;
        locate(t, u / cuts * inner + j0, &a, &b);
        for (long j = j0; j < j1; ++j) {
            const float v = load_input(in, in_base + a + (j - j0) * is);
            mn = fmin(mn, v);
            mx = fmax(mx, v);
        }
    }
    lo[lid] = mn;
    hi[lid] = mx;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s) {
            lo[lid] = fmin(lo[lid], lo[lid + s]);
            hi[lid] = fmax(hi[lid], hi[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* The range widened to hold 0; a scale of 1 where it is empty (every element 0). */
    const float a = fmin(lo[0], 0.0f), b = fmax(hi[0], 0.0f);
    const float s = b == a ? 1.0f : (b - a) / (float)(QMAX - QMIN);
    /* The zero point: QMIN - a / s clamped to the range (a NaN to QMAX, as fmin gives), halves
     * to even. */
    const float z = rint(fmax((float)QMIN, fmin((float)QMAX, (float)QMIN - a / s)));
    if (lid == 0) {
        scale[scale_base] = s;
        zp[zp_base] = (OUT_T)(int)z;
    }
    for (long u = lid; u < units; u += GROUP) {
        const long j0 = u % cuts * run, j1 = j0 + run < inner ? j0 + run : inner;
        long ia, ib;
        locate(t, u / cuts * inner + j0, &ia, &ib);
        for (long j = j0; j < j1; ++j) {
            float q = rint(load_input(in, in_base + ia + (j - j0) * is) / s) + z;
            q = isnan(q) ? 0.0f : fmax((float)QMIN, fmin((float)QMAX, q));
            out[out_base + ib + (j - j0) * os] = (OUT_T)(int)q;
        }
    }
}
