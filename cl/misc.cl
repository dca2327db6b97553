/* SPDX-License-Identifier: MIT */
/*
 * misc.cl: the selection family (src/misc.h): four operators whose work no copy, map or
 * reduction expresses, each its own kernel over the table of cl/misc_abi.h. Shape A is walked
 * in row-major order of its logical coordinates; every tensor is read and written through its
 * own strides.
 *
 *   nonzero:   NONZERO_COORDINATES. One work-group of GROUP items (or fewer): each counts the
 *              nonzero elements of its contiguous share of the input's row-major order, the
 *              counts are scanned in local memory (in item order), then each item writes the
 *              coordinates of its share from its prefix on: ascending element order on every
 *              device, no atomics. Item 0 writes the count. P0 the coordinate columns N, P1
 *              the input dimension of column 0, P2 the coordinates' row stride, P3 their
 *              column stride. Tensors: input (A stride 0), count, coordinates.
 *   reverse:   REVERSE_SUBSEQUENCES. out[c] = in[c with c_axis -> L - 1 - c_axis when c_axis <
 *              L], L the sequence length at c (its axis stride 0), clamped to the axis (a
 *              negative signed length reverses nothing). P0 the axis. Tensors: input,
 *              lengths, output (A strides 0, 1, 2).
 *   unpool:    MAX_UNPOOLING. Item i owns output elements [i * CHUNK, (i + 1) * CHUNK) of the
 *              output's row-major order (shape B): it writes them 0, then walks every input
 *              element in row-major order and writes those whose index falls in its range (the
 *              last in the input's order wins; an index past the output writes nothing). P0
 *              the output's elements, P1 its rank. Tensors: input, indices (A strides 0, 1),
 *              output (B).
 *   philox:    RANDOM_GENERATOR (PHILOX_4X32_10). Output element e (row-major) is word e % 4
 *              of Philox-4x32-10 of the counter c + e / 4 (the 128-bit counter of state words
 *              0-3, word 0 least significant) under the key (words 4, 5); item i makes blocks
 *              [i * CHUNK, (i + 1) * CHUNK). With HAS_STATE item 0 writes the next state: the
 *              counter plus ceil(elements / 4), the key. P0 the state's stride, P1 the output
 *              state's. Tensors: state, output (A stride 0), output state.
 *
 * Macros (code generation only):
 *   UNIT_T     the element moved or tested: uchar, ushort, uint, ulong (bits) [uint]
 *   MASK       nonzero: the bits that make an element nonzero (floats leave the sign out) [~0]
 *   GROUP      nonzero: the work-group's items, at most [256]
 *   LEN_T      reverse: the lengths' type: uint, ulong, int, long [uint]
 *   LEN_SIGNED reverse: 1 when LEN_T is signed [0]
 *   IDX_T      unpool: the indices' type: uint, ulong [uint]
 *   HAS_STATE  philox: the output state is bound [0]
 */
#include "misc_abi.h"

#ifndef UNIT_T
#define UNIT_T uint
#endif
#ifndef MASK
#define MASK (~(UNIT_T)0)
#endif
#ifndef GROUP
#define GROUP 256
#endif
#ifndef LEN_T
#define LEN_T uint
#endif
#ifndef LEN_SIGNED
#define LEN_SIGNED 0
#endif
#ifndef IDX_T
#define IDX_T uint
#endif
#ifndef HAS_STATE
#define HAS_STATE 0
#endif

#define DIM_A(t, d) ((t)[DMLI_MI_DIM(d)])
#define STRIDE_A(t, d, k) ((t)[DMLI_MI_DIM(d) + 1 + (k)])
#define DIM_B(t, d) ((t)[DMLI_MI_DIM(d) + 5])
#define STRIDE_B(t, d) ((t)[DMLI_MI_DIM(d) + 6])

/* Element f of shape A: its coordinates and the offsets of tensors 0 .. n - 1. */
static void place_a(__constant long *t, long f, int n, long *c, long *o)
{
    for (int k = 0; k < n; ++k)
        o[k] = 0;
    for (int d = (int)t[DMLI_MI_RANK] - 1; d >= 0; --d) {
        const long q = f % DIM_A(t, d);
        f /= DIM_A(t, d);
        c[d] = q;
        for (int k = 0; k < n; ++k)
            o[k] += q * STRIDE_A(t, d, k);
    }
}

/* The next element of shape A in row-major order (innermost coordinate first). */
static void step_a(__constant long *t, int n, long *c, long *o)
{
    for (int d = (int)t[DMLI_MI_RANK] - 1; d >= 0; --d) {
        for (int k = 0; k < n; ++k)
            o[k] += STRIDE_A(t, d, k);
        if (++c[d] < DIM_A(t, d))
            return;
        for (int k = 0; k < n; ++k)
            o[k] -= DIM_A(t, d) * STRIDE_A(t, d, k);
        c[d] = 0;
    }
}

/* The offset of element f of shape B (ranked `rank`). */
static long place_b(__constant long *t, long f, int rank)
{
    long o = 0;
    for (int d = rank - 1; d >= 0; --d) {
        o += f % DIM_B(t, d) * STRIDE_B(t, d);
        f /= DIM_B(t, d);
    }
    return o;
}

__kernel void nonzero(__constant long *t, __global const UNIT_T *in, long in_base,
                      __global uint *count, long count_base, __global uint *coords,
                      long coords_base)
{
    __local uint share[GROUP];
    const uint li = (uint)get_local_id(0), items = (uint)get_local_size(0);
    const long total = t[DMLI_MI_ELEMENTS];
    const long lo = total * li / items, hi = total * (li + 1) / items;
    long c[DMLI_MI_DIMS], o[1];
    uint mine = 0;
    if (lo < hi) {
        place_a(t, lo, 1, c, o);
        for (long f = lo; f < hi; ++f) {
            mine += (in[in_base + o[0]] & (UNIT_T)(MASK)) != 0;
            step_a(t, 1, c, o);
        }
    }
    share[li] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == 0) { /* exclusive scan in item order; the sum is the count */
        uint run = 0;
        for (uint i = 0; i < items; ++i) {
            const uint n = share[i];
            share[i] = run;
            run += n;
        }
        count[count_base] = run;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lo >= hi)
        return;
    const int cols = (int)t[DMLI_MI_P(0)], first = (int)t[DMLI_MI_P(1)];
    const long row_s = t[DMLI_MI_P(2)], col_s = t[DMLI_MI_P(3)];
    long row = share[li];
    place_a(t, lo, 1, c, o);
    for (long f = lo; f < hi; ++f) {
        if ((in[in_base + o[0]] & (UNIT_T)(MASK)) != 0) {
            const long at = coords_base + row * row_s;
            for (int j = 0; j < cols; ++j)
                coords[at + j * col_s] = (uint)c[first + j];
            ++row;
        }
        step_a(t, 1, c, o);
    }
}

__kernel void reverse(__constant long *t, __global const UNIT_T *in, long in_base,
                      __global const LEN_T *len, long len_base, __global UNIT_T *out, long out_base)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_MI_ITEMS])
        return;
    const long chunk = t[DMLI_MI_CHUNK];
    const long lo = item * chunk, hi = min(t[DMLI_MI_ELEMENTS], lo + chunk);
    const int axis = (int)t[DMLI_MI_P(0)];
    const long n = DIM_A(t, axis), axis_s = STRIDE_A(t, axis, 0);
    long c[DMLI_MI_DIMS], o[3];
    place_a(t, lo, 3, c, o);
    for (long f = lo; f < hi; ++f) {
        const LEN_T raw = len[len_base + o[1]];
#if LEN_SIGNED
        const long l = min(max((long)raw, 0L), n);
#else
        const long l = (long)min((ulong)raw, (ulong)n);
#endif
        const long a = c[axis];
        const long from = a < l ? l - 1 - a : a;
        out[out_base + o[2]] = in[in_base + o[0] + (from - a) * axis_s];
        step_a(t, 3, c, o);
    }
}

__kernel void unpool(__constant long *t, __global const UNIT_T *in, long in_base,
                     __global const IDX_T *idx, long idx_base, __global UNIT_T *out, long out_base)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_MI_ITEMS])
        return;
    const long outputs = t[DMLI_MI_P(0)];
    const int out_rank = (int)t[DMLI_MI_P(1)];
    const long lo = item * t[DMLI_MI_CHUNK], hi = min(outputs, lo + t[DMLI_MI_CHUNK]);
    for (long f = lo; f < hi; ++f)
        out[out_base + place_b(t, f, out_rank)] = (UNIT_T)0;
    const long total = t[DMLI_MI_ELEMENTS];
    if (total == 0)
        return;
    long c[DMLI_MI_DIMS], o[2];
    place_a(t, 0, 2, c, o);
    for (long e = 0; e < total; ++e) {
        const ulong v = (ulong)idx[idx_base + o[1]];
        if (v >= (ulong)lo && v < (ulong)hi)
            out[out_base + place_b(t, (long)v, out_rank)] = in[in_base + o[0]];
        step_a(t, 2, c, o);
    }
}

/* Philox-4x32-10 (Salmon et al., SC11): ten rounds of two multiplications, the key bumped by
 * the Weyl constants between rounds. */
static uint4 philox_block(uint4 x, uint2 k)
{
    for (int r = 0; r < 10; ++r) {
        if (r > 0)
            k += (uint2)(0x9E3779B9u, 0xBB67AE85u);
        const uint hi0 = mul_hi(0xD2511F53u, x.x), lo0 = 0xD2511F53u * x.x;
        const uint hi1 = mul_hi(0xCD9E8D57u, x.z), lo1 = 0xCD9E8D57u * x.z;
        x = (uint4)(hi1 ^ x.y ^ k.x, lo1, hi0 ^ x.w ^ k.y, lo0);
    }
    return x;
}

/* The 128-bit counter (x the least significant word) plus n. */
static uint4 counter_add(uint4 c, ulong n)
{
    const ulong low = (ulong)c.x | ((ulong)c.y << 32);
    const ulong sum = low + n;
    const ulong high = ((ulong)c.z | ((ulong)c.w << 32)) + (sum < low ? 1 : 0);
    return (uint4)((uint)sum, (uint)(sum >> 32), (uint)high, (uint)(high >> 32));
}

__kernel void philox(__constant long *t, __global const uint *state, long state_base,
                     __global uint *out, long out_base
#if HAS_STATE
                     ,
                     __global uint *next, long next_base
#endif
)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_MI_ITEMS])
        return;
    const long ss = t[DMLI_MI_P(0)], total = t[DMLI_MI_ELEMENTS];
    const uint4 ctr = (uint4)(state[state_base], state[state_base + ss], state[state_base + 2 * ss],
                              state[state_base + 3 * ss]);
    const uint2 key = (uint2)(state[state_base + 4 * ss], state[state_base + 5 * ss]);
#if HAS_STATE
    if (item == 0) {
        const long ns = t[DMLI_MI_P(1)];
        const uint4 after = counter_add(ctr, (ulong)(total / 4 + (total % 4 != 0)));
        next[next_base] = after.x;
        next[next_base + ns] = after.y;
        next[next_base + 2 * ns] = after.z;
        next[next_base + 3 * ns] = after.w;
        next[next_base + 4 * ns] = key.x;
        next[next_base + 5 * ns] = key.y;
    }
#endif
    const long first = item * t[DMLI_MI_CHUNK];
    const long last = min((total + 3) / 4, first + t[DMLI_MI_CHUNK]);
    if (first >= last)
        return;
    long c[DMLI_MI_DIMS], o[1];
    place_a(t, first * 4, 1, c, o);
    for (long b = first; b < last; ++b) {
        const uint4 r = philox_block(counter_add(ctr, (ulong)b), key);
        const uint words[4] = {r.x, r.y, r.z, r.w};
        for (int w = 0; w < 4 && b * 4 + w < total; ++w) {
            out[out_base + o[0]] = words[w];
            step_a(t, 1, c, o);
        }
    }
}
