/* SPDX-License-Identifier: MIT */
/*
 * The dynamic quantization family: DYNAMIC_QUANTIZE_LINEAR (src/ops/dynamic_quantize.c states
 * the rules). The work-groups read the whole input twice: first its minimum and
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
 *   GROUP          work-items of a work-group, a power of two
 *   SPLIT          1: over several work-groups (src/launch_dynquant.c). A first step,
 *                  dynamic_quantize_range, writes each work-group's minimum and maximum into
 *                  scratch (2 floats a work-group, DMLI_DQ_PARTS of them); dynamic_quantize then
 *                  folds every part's, in part order (the same result in every work-group: fmin
 *                  and fmax are exact), and quantizes its own elements. 0: one work-group.
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
#ifndef SPLIT
#define SPLIT 0
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

/* The work units: runs of the innermost dimension, each row cut into enough runs that every
 * item of the grid (items of them) has one where the rows are fewer; a run's first element
 * located once (its coordinates), the rest walked by the innermost strides. */
typedef struct units {
    long inner, cuts, run, count, is, os;
} units;

static units units_of(__constant long *t, long items)
{
    units w;
    const long n = t[DMLI_DQ_COUNT];
    const int last = (int)t[DMLI_DQ_RANK] - 1;
    w.inner = last >= 0 ? t[DMLI_DQ_SIZE(last)] : 1;
    const long rows = w.inner > 0 ? n / w.inner : 0;
    long cuts = rows > 0 && rows < items ? (items + rows - 1) / rows : 1;
    w.cuts = cuts > w.inner ? (w.inner > 0 ? w.inner : 1) : cuts;
    w.run = w.inner > 0 ? (w.inner + w.cuts - 1) / w.cuts : 0;
    w.count = rows * w.cuts;
    w.is = last >= 0 ? t[DMLI_DQ_IN_STRIDE(last)] : 0;
    w.os = last >= 0 ? t[DMLI_DQ_OUT_STRIDE(last)] : 0;
    return w;
}

/* The minimum and maximum of the units item id takes (id, id + items, ...), folded over the
 * work-group into lo[0] and hi[0] by a fixed tree. */
static void range_of(__constant long *t, __global const IN_T *in, long in_base, units w, long id,
                     long items, __local float *lo, __local float *hi)
{
    const int lid = (int)get_local_id(0);
    float mn = INFINITY, mx = -INFINITY;
    for (long u = id; u < w.count; u += items) {
        const long j0 = u % w.cuts * w.run, j1 = j0 + w.run < w.inner ? j0 + w.run : w.inner;
        long a, b;
        locate(t, u / w.cuts * w.inner + j0, &a, &b);
        __global const IN_T *p = in + in_base + a;
        if (w.is == 1) /* contiguous: a loop that vectorises */
            for (long j = 0; j < j1 - j0; ++j) {
                const float v = load_input(p, j);
                mn = fmin(mn, v);
                mx = fmax(mx, v);
            }
        else
            for (long j = 0; j < j1 - j0; ++j) {
                const float v = load_input(p, j * w.is);
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
}

#if SPLIT
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void
dynamic_quantize_range(__constant long *t, __global const IN_T *in, long in_base,
                       __global float *part, long part_base)
{
    __local float lo[GROUP], hi[GROUP];
    const units w = units_of(t, (long)get_global_size(0));
    range_of(t, in, in_base, w, (long)get_global_id(0), (long)get_global_size(0), lo, hi);
    if (get_local_id(0) == 0) {
        part[part_base + 2 * get_group_id(0)] = lo[0];
        part[part_base + 2 * get_group_id(0) + 1] = hi[0];
    }
}
#define PART_ARGS , __global const float *part, long part_base
#else
#define PART_ARGS
#endif

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void
dynamic_quantize(__constant long *t, __global const IN_T *in, long in_base, __global OUT_T *out,
                 long out_base, __global float *scale, long scale_base, __global OUT_T *zp,
                 long zp_base PART_ARGS)
{
    const long items = (long)get_global_size(0), id = (long)get_global_id(0);
    const units w = units_of(t, items);
#if SPLIT
    float mn = INFINITY, mx = -INFINITY;
    for (long g = 0; g < t[DMLI_DQ_PARTS]; ++g) {
        mn = fmin(mn, part[part_base + 2 * g]);
        mx = fmax(mx, part[part_base + 2 * g + 1]);
    }
#else
    __local float lo[GROUP], hi[GROUP];
    range_of(t, in, in_base, w, id, items, lo, hi);
    const float mn = lo[0], mx = hi[0];
#endif
    /* The range widened to hold 0; a scale of 1 where it is empty (every element 0). */
    const float a = fmin(mn, 0.0f), b = fmax(mx, 0.0f);
    const float s = b == a ? 1.0f : (b - a) / (float)(QMAX - QMIN);
    /* The zero point: QMIN - a / s clamped to the range (a NaN to QMAX, as fmin gives), halves
     * to even. */
    const float z = rint(fmax((float)QMIN, fmin((float)QMAX, (float)QMIN - a / s)));
    if (id == 0) {
        scale[scale_base] = s;
        zp[zp_base] = (OUT_T)(int)z;
    }
    for (long u = id; u < w.count; u += items) {
        const long j0 = u % w.cuts * w.run, j1 = j0 + w.run < w.inner ? j0 + w.run : w.inner;
        long ia, ib;
        locate(t, u / w.cuts * w.inner + j0, &ia, &ib);
        __global const IN_T *p = in + in_base + ia;
        __global OUT_T *o = out + out_base + ib;
#define QUANTIZE(x) \
    (isnan(q_ = rint((x) / s) + z) ? 0.0f : fmax((float)QMIN, fmin((float)QMAX, q_)))
        float q_;
        if (w.is == 1 && w.os == 1) /* contiguous: a loop that vectorises */
            for (long j = 0; j < j1 - j0; ++j)
                o[j] = (OUT_T)(int)QUANTIZE(load_input(p, j));
        else
            for (long j = 0; j < j1 - j0; ++j)
                o[j * w.os] = (OUT_T)(int)QUANTIZE(load_input(p, j * w.is));
#undef QUANTIZE
    }
}
