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
    float mn = INFINITY, mx = -INFINITY;
    for (long i = lid; i < n; i += GROUP) {
        long a, b;
        locate(t, i, &a, &b);
        float v = load_input(in, in_base + a);
        mn = fmin(mn, v);
        mx = fmax(mx, v);
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
    for (long i = lid; i < n; i += GROUP) {
        long ia, ib;
        locate(t, i, &ia, &ib);
        float q = rint(load_input(in, in_base + ia) / s) + z;
        q = isnan(q) ? 0.0f : fmax((float)QMIN, fmin((float)QMAX, q));
        out[out_base + ib] = (OUT_T)(int)q;
    }
}
