/* SPDX-License-Identifier: MIT */
/*
 * scatter.cl: the scatter family (SCATTER_ELEMENTS, SCATTER_ND; src/scatter.h), the step after
 * the input's copy to the output:
 *
 *   for each parallel position p, for each walked position w in row-major order:
 *     out[out(p) + sum_k fix(idx[x(p) + x(w) + k * comp_xs]) * axis_stride_k] = upd[u(p) + u(w)]
 *
 * fix() resolves an index as the DirectML gathers do (cl/indexed.cl's CLAMP): a negative value
 * of a signed type counts from the end of its axis, then the index is clamped into the axis.
 * Updates meet at one output element only at one parallel position, whose walk one work-item
 * makes in order: the last update in the walk's (the updates' row-major) order wins.
 *
 * An item writes a chunk of the run (the innermost parallel dimension) at one position of the
 * other parallel dimensions: for each walked position in turn, each of its chunk's elements.
 * With ROW_INDEX the run does not move the indices (SCATTER_ND's slices): the tuple is read and
 * resolved once a walked position, then the chunk moves as a strided copy.
 *
 * Macros (code generation only; sizes and strides are in the table, cl/scatter_abi.h):
 *   UNIT_T      the element moved: uchar, ushort, uint, ulong (bits: the data's width) [uint]
 *   IDX_T       the index type: int, uint, long, ulong [int]
 *   IDX_SIGNED  1 when IDX_T is signed [1]
 *   ROW_INDEX   1: the run's indices stride is 0 [0]
 *
 * Arguments (the compute family ABI): the table, then per tensor a buffer and its base in
 * elements: the input (read by the copy step only), the indices, the updates, the output.
 */
#include "scatter_abi.h"

#ifndef UNIT_T
#define UNIT_T uint
#endif
#ifndef IDX_T
#define IDX_T int
#endif
#ifndef IDX_SIGNED
#define IDX_SIGNED 1
#endif
#ifndef ROW_INDEX
#define ROW_INDEX 0
#endif

/* The output offset of the index tuple at idx[at]: each component resolved into its axis. */
static long target(__global const IDX_T *idx, long at, int ncomp, long comp_xs, const long *n,
                   const long *s)
{
    long offset = 0;
    for (int k = 0; k < ncomp; ++k) {
        IDX_T raw = idx[at + k * comp_xs];
#if IDX_SIGNED
        long x = (long)raw;
        x += x < 0 ? n[k] : 0;
        x = clamp(x, 0L, n[k] - 1);
#else
        long x = (long)min((ulong)raw, (ulong)n[k] - 1);
#endif
        offset += x * s[k];
    }
    return offset;
}

__kernel void scatter(__constant long *t, __global const UNIT_T *in, long in_base,
                      __global const IDX_T *idx, long idx_base, __global const UNIT_T *upd,
                      long upd_base, __global UNIT_T *out, long out_base)
{
    (void)in;
    (void)in_base;
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_SC_ITEMS])
        return;
    const long chunks = t[DMLI_SC_CHUNKS], chunk = t[DMLI_SC_CHUNK];
    long row = item / chunks;
    const long begin = (item - row * chunks) * chunk;
    const long count = min(chunk, t[DMLI_SC_RUN] - begin);
    const long run_us = t[DMLI_SC_RUN_US], run_os = t[DMLI_SC_RUN_OS];
#if !ROW_INDEX
    const long run_xs = t[DMLI_SC_RUN_XS];
#endif
    long u = upd_base + begin * run_us, x = idx_base + begin * t[DMLI_SC_RUN_XS],
         o = out_base + begin * run_os;
    const int n_outer = (int)t[DMLI_SC_N_OUTER];
    for (int i = 0; i < n_outer; ++i) {
        __constant long *dim = t + DMLI_SC_OUTER(i);
        const long q = row % dim[0];
        row /= dim[0];
        u += q * dim[1];
        x += q * dim[2];
        o += q * dim[3];
    }
    const int ncomp = (int)t[DMLI_SC_NCOMP];
    const long comp_xs = t[DMLI_SC_COMP_XS];
    long axis_n[DMLI_SC_DIMS], axis_s[DMLI_SC_DIMS];
    for (int k = 0; k < ncomp; ++k) {
        axis_n[k] = t[DMLI_SC_COMP(k)];
        axis_s[k] = t[DMLI_SC_COMP(k) + 1];
    }
    const int n_walk = (int)t[DMLI_SC_N_WALK];
    const long walks = t[DMLI_SC_WALKS];
    long at[DMLI_SC_DIMS];
    for (int j = 0; j < n_walk; ++j)
        at[j] = 0;
    for (long w = 0; w < walks; ++w) {
#if ROW_INDEX
        const long to = o + target(idx, x, ncomp, comp_xs, axis_n, axis_s);
        for (long e = 0; e < count; ++e)
            out[to + e * run_os] = upd[u + e * run_us];
#else
        for (long e = 0; e < count; ++e)
            out[o + e * run_os + target(idx, x + e * run_xs, ncomp, comp_xs, axis_n, axis_s)] =
                upd[u + e * run_us];
#endif
        /* The next walked position (innermost first): row-major order. */
        for (int j = 0; j < n_walk; ++j) {
            __constant long *dim = t + DMLI_SC_WALK(j);
            u += dim[1];
            x += dim[2];
            if (++at[j] < dim[0])
                break;
            at[j] = 0;
            u -= dim[0] * dim[1];
            x -= dim[0] * dim[2];
        }
    }
}
