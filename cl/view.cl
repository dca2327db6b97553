/*
 * view.cl: the strided view copy (IDENTITY, SLICE, SLICE1, StridedSlice,
 * Broadcast, Expand).
 *
 *   out[out_base + sum_d o_d * os_d] = in[in_base + sum_d o_d * is_d]
 *
 * Dimensions were normalised on the host; the innermost one is the "run".
 * Work-item (lane, chunk, row): row is a position in the outer dimensions
 * (decomposed once per work-item: the only divisions), chunk a slice of the
 * run, lane an interleave inside the chunk (1 on CPUs, a warp on GPUs).
 * Strides are signed element strides: 0 broadcasts, negative reverses.
 *
 * Macros (code generation only; every size, stride and offset is an
 * argument, so one build serves every shape):
 *   UNIT_T      the moved unit: uchar, ushort, uint, uint2, uint4 (default uint)
 *   FAST        1: the run is contiguous in input and output (default 0)
 *   SCALE_BIAS  1: IDENTITY's x*scale+bias on ARITH_T (float, half, double)
 */
#ifndef UNIT_T
#define UNIT_T uint
#endif
#ifndef FAST
#define FAST 0
#endif
#ifndef SCALE_BIAS
#define SCALE_BIAS 0
#endif

#if SCALE_BIAS
#ifndef ARITH_T
#define ARITH_T float
#endif
#if defined(ARITH_IS_HALF)
#define LOAD_X(p, i) vload_half((i), (__global const half *)(p))
#define STORE_X(v, p, i) vstore_half_rte((v), (i), (__global half *)(p))
#define X_T float
#else
#define LOAD_X(p, i) (((__global const ARITH_T *)(p))[(i)])
#define STORE_X(v, p, i) (((__global ARITH_T *)(p))[(i)] = (v))
#define X_T ARITH_T
#endif
#define MOVE(o, i) STORE_X((X_T)(LOAD_X(in, (i)) * (X_T)scale + (X_T)bias), out, (o))
#else
#define MOVE(o, i) (out[(o)] = in[(i)])
#endif

/* dims: for each outer dimension, innermost first: {size, out stride, in stride}. */
__kernel void view_copy(__global UNIT_T *out, long out_base, __global const UNIT_T *in,
                        long in_base, __constant long *dims, int outer_rank, long run, long run_os,
                        long run_is, long chunk, ulong rows, float scale, float bias)
{
    ulong row = get_global_id(2);
    if (row >= rows)
        return;
    long o = out_base, i = in_base;
    for (int d = 0; d < outer_rank; ++d) {
        ulong n = (ulong)dims[3 * d];
        ulong q = row / n;
        long x = (long)(row - q * n);
        row = q;
        o += x * dims[3 * d + 1];
        i += x * dims[3 * d + 2];
    }
    long begin = (long)get_global_id(1) * chunk;
    long end = min(begin + chunk, run);
    long lanes = (long)get_global_size(0);
#if FAST
    for (long u = begin + (long)get_global_id(0); u < end; u += lanes)
        MOVE(o + u, i + u);
#else
    for (long u = begin + (long)get_global_id(0); u < end; u += lanes)
        MOVE(o + u * run_os, i + u * run_is);
#endif
}
