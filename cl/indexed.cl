/*
 * indexed.cl: the indexed copy (GATHER, GATHER_ELEMENTS, GATHER_ND(1),
 * Gather-8, ONNX Gather*).
 *
 *   out[o] = in[in_base + sum_d o_d * is_d + sum_k fix(idx[i_k]) * axis_stride_k]
 *   i_k    = idx_base + sum_d o_d * xs_d + k * comp_stride
 *
 * fix() makes a raw index an element of its axis: negative values of signed
 * types count from the end (WRAP), then the out-of-range policy applies:
 * CLAMP (DirectML: reads stay inside the input), ZERO (OpenVINO: the element
 * is 0) or ERROR (ONNX: 0, and the smallest offending position in the indices
 * tensor is recorded in status[0] for the dispatch to report).
 *
 * Work-items as in view.cl: (lane, chunk, row), row decomposed once. With
 * ROW_INDEX the whole run shares one index tuple, read once per work-item.
 *
 * Macros (code generation only):
 *   UNIT_T      moved unit: uchar, ushort, uint, uint2, uint4 (default uint)
 *   IDX_T       index type: int, uint, long, ulong (default int)
 *   IDX_SIGNED  1 when IDX_T is signed (default 1)
 *   WRAP        1: negative indices count from the end (default 1)
 *   POLICY      0 CLAMP, 1 ZERO, 2 ERROR (default 0)
 *   ROW_INDEX   1: the run's index stride is 0 (default 1)
 *   FAST        1: the run is contiguous in input and output (default 0)
 *   CHECK_ONLY  1: POLICY 2 with an empty output: the dims walk the indices
 *               only; nothing is read from in or written to out (default 0)
 */
#ifndef UNIT_T
#define UNIT_T uint
#endif
#ifndef IDX_T
#define IDX_T int
#endif
#ifndef IDX_SIGNED
#define IDX_SIGNED 1
#endif
#ifndef WRAP
#define WRAP 1
#endif
#ifndef POLICY
#define POLICY 0
#endif
#ifndef ROW_INDEX
#define ROW_INDEX 1
#endif
#ifndef FAST
#define FAST 0
#endif
#ifndef CHECK_ONLY
#define CHECK_ONLY 0
#endif

/* Element offset of the index tuple at idx[at]; under ZERO and ERROR, -1-k
 * when component k is out of range. comps: {axis size, axis stride} per k. */
static long resolve(__global const IDX_T *idx, long at, __constant long *comps, int ncomp,
                    long comp_stride)
{
    long offset = 0;
    for (int k = 0; k < ncomp; ++k) {
        long n = comps[2 * k];
        IDX_T raw = idx[at + k * comp_stride];
#if IDX_SIGNED
        long x = (long)raw;
#if WRAP
        x += x < 0 ? n : 0;
#endif
        bool bad = x < 0 || x >= n;
#else
        bool bad = (ulong)raw >= (ulong)n;
        long x = bad ? n : (long)raw;
#endif
#if POLICY == 0
        x = bad ? clamp(x, 0L, n - 1) : x;
#else
        if (bad)
            return -1 - k;
#endif
        offset += x * comps[2 * k + 1];
    }
    return offset;
}

#if POLICY == 2
#define REPORT(pos) atomic_min(status, (uint)(pos))
#else
#define REPORT(pos) ((void)0)
#endif

/* dims: per outer dimension, innermost first: {size, os, is, xs, ps}; then
 * comps: {axis size, axis stride} per index component. */
__kernel void indexed_copy(__global UNIT_T *out, long out_base, __global const UNIT_T *in,
                           long in_base, __global const IDX_T *idx, long idx_base,
                           __global uint *status, __constant long *dims, int outer_rank,
                           __constant long *comps, int ncomp, long comp_stride, long comp_pos,
                           long run, long run_os, long run_is, long run_xs, long run_ps, long chunk,
                           ulong rows)
{
    ulong row = get_global_id(2);
    if (row >= rows)
        return;
    long o = out_base, i = in_base, x = idx_base, p = 0;
    for (int d = 0; d < outer_rank; ++d) {
        __constant long *dim = dims + 5 * d;
        ulong n = (ulong)dim[0];
        ulong q = row / n;
        long c = (long)(row - q * n);
        row = q;
        o += c * dim[1];
        i += c * dim[2];
        x += c * dim[3];
        p += c * dim[4];
    }
    long begin = (long)get_global_id(1) * chunk;
    long end = min(begin + chunk, run);
    long lanes = (long)get_global_size(0);
    long u0 = begin + (long)get_global_id(0);
#if CHECK_ONLY
    for (long u = u0; u < end; u += lanes) {
        long at = resolve(idx, x + u * run_xs, comps, ncomp, comp_stride);
        if (at < 0)
            REPORT(p + u * run_ps + (-1 - at) * comp_pos);
    }
#elif ROW_INDEX
    long at = resolve(idx, x, comps, ncomp, comp_stride);
    if (at < 0) {
        if (get_global_id(0) == 0 && begin == 0)
            REPORT(p + (-1 - at) * comp_pos);
        for (long u = u0; u < end; u += lanes)
            out[o + u * run_os] = (UNIT_T)0;
        return;
    }
    i += at;
#if FAST
    for (long u = u0; u < end; u += lanes)
        out[o + u] = in[i + u];
#else
    for (long u = u0; u < end; u += lanes)
        out[o + u * run_os] = in[i + u * run_is];
#endif
#else
    for (long u = u0; u < end; u += lanes) {
        long at = resolve(idx, x + u * run_xs, comps, ncomp, comp_stride);
        if (at < 0) {
            REPORT(p + u * run_ps + (-1 - at) * comp_pos);
            out[o + u * run_os] = (UNIT_T)0;
        } else {
            out[o + u * run_os] = in[i + u * run_is + at];
        }
    }
#endif
}
