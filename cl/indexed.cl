/* SPDX-License-Identifier: MIT */
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
 * Work-items as in view.cl: (lane, chunk, item), an item is rows_per_item
 * consecutive rows, the first decomposed once, the next odometer steps. With
 * ROW_INDEX a row's whole run shares one index tuple, read once.
 *
 * Macros (code generation only; sizes, strides and offsets are in the shape
 * buffer): common.cl's UNIT_T, FAST, OUT_UNIT, SERIAL, STREAM, RUN_IS_K,
 * RUN_XS_K, and the variants below (when the host picks each one, and the
 * measurements behind it: docs/kernels.md):
 *   IDX_T       index type: char, uchar, short, ushort, int, uint, long,
 *               ulong (default int)
 *   IDX_SIGNED  1 when IDX_T is signed (default 1)
 *   WRAP        1: negative indices count from the end (default 1)
 *   POLICY      0 CLAMP, 1 ZERO, 2 ERROR (default 0)
 *   ROW_INDEX   1: the run's index stride is 0 (default 1)
 *   CHECK_ONLY  1: POLICY 2 with an empty output: the dims walk the indices
 *               only; nothing is read from in or written to out (default 0)
 *   NCOMP       index values per output position (GATHER_ND tuples; default 1)
 *   RUN_ONE     1: each row is one unit (SERIAL only): no run loop (default 0)
 *   ROWS_1D     1: exactly one outer dimension (with RUN_ONE: a plain row
 *               loop) (default 0)
 *   PREFETCH    RUN_ONE: rows ahead that the ROWS_1D loop prefetches;
 *               SHARED_INDEX: 1, the gathered axis is contiguous and the
 *               next row's span is prefetched; ROW_INDEX (contiguous
 *               rows, every policy): rows ahead whose chunk is prefetched (0:
 *               none; default 0)
 *   SHARED_INDEX  1: not ROW_INDEX, and no outer dimension moves the indices
 *               (a gather along an inner axis): a work-item resolves a block
 *               of the run's indices once and applies it to all its rows
 *               (default 0)
 *   CACHE_T     SHARED_INDEX: the type of a resolved offset, int where
 *               every offset fits (default long)
 *   TRANSPOSE   1 or 2 (CPUs), 3 (GPUs: work-group tiles, transpose.cl's
 *               group_tile) (ROW_INDEX): the inner dimensions are a layout
 *               change, as in view.cl: the run is contiguous in the output
 *               and strided in the input, the innermost row dimension is
 *               contiguous in the input, and neither moves the indices. Rows
 *               are tiles of that dimension (transpose.cl): a tile's index
 *               tuple is resolved once, then the tile moves as a view's
 *               does; under ZERO and ERROR a bad tuple zeroes the tile
 *               (default 0)
 *
 * Arguments (abi.h DMLCL_INDEXED_ARG_*): out, out_base, in, in_base, idx,
 * idx_base, status (NULL unless ERROR), shape. shape holds the
 * DMLCL_INDEXED_* header scalars, then dims: per outer dimension, innermost
 * first, {size, os, is, xs, ps} (TRANSPOSE: dims[0] counts tiles, and one
 * more {real size, os, 1, 0, 0} follows the rows); then per index component
 * {axis size, axis stride}.
 */
#include "common.cl"
#include "transpose.cl"

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
#ifndef CHECK_ONLY
#define CHECK_ONLY 0
#endif
#ifndef NCOMP
#define NCOMP 1
#endif
#ifndef SHARED_INDEX
#define SHARED_INDEX 0
#endif
#ifndef RUN_ONE
#define RUN_ONE 0
#endif
#ifndef ROWS_1D
#define ROWS_1D 0
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
/* A resolved offset in that cache: long, or int where the host knows every
 * offset fits (src/launch.c cache_ints). */
#ifndef CACHE_T
#define CACHE_T long
#endif
/*
 * SHARED_INDEX with whole-line non-temporal stores (CLAMP, one lane, a run
 * contiguous in the output): a block of CACHE units would start and end
 * inside a line in every row whose start is off the line grid (rows of 6500
 * u8), leaving two partial lines per block and row, stored unit by unit
 * next to the lines' non-temporal stores. Instead the block resolves SLIDE
 * (a line of units) more, and each row moves the CACHE units from its own
 * first line boundary in the block: only the row's ends are partial.
 */
#if SHARED_INDEX && POLICY == 0 && SERIAL && STREAM && OUT_UNIT
#define SLIDING 1
#define SLIDE (64 / sizeof(UNIT_T))
#else
#define SLIDING 0
#define SLIDE 0
#endif
/*
 * SPREAD (SHARED_INDEX with PREFETCH: the gathered axis contiguous, CPUs;
 * one lane, a run contiguous in the output): while a row is gathered, the
 * next row's span is prefetched a line or two per output line
 * (gather_spread), not all at the row's start: 256 prefetches at once
 * filled the core's miss buffers and the gathers waited behind them (perf:
 * 75% of the kernel's samples on the gathers; a C model of the loop went
 * from 0.52 to 0.87 of a copy of the same traffic). Blocks are then 2048
 * units, so a row of up to 2048 picks is gathered in one pass, its span
 * fetched once while the row before it is gathered. Under ZERO and ERROR a
 * block with a tuple out of range takes the unit-by-unit loop instead.
 */
#if SHARED_INDEX && PREFETCH && SERIAL && OUT_UNIT
#define SPREAD 1
#else
#define SPREAD 0
#endif
/* Resolved index tuples a SHARED_INDEX work-item keeps for its rows. */
#define CACHE (SPREAD ? 2048 : 256)

#if SPREAD
/*
 * One 64-byte line of picks row[(u + k) * RUN_IS + cache[u + k]], built as
 * vectors in registers: a line assembled in private memory unit by unit and
 * then loaded whole waited for the stores to drain (a store-forwarding stall:
 * perf put half the inner-axis gather's samples on that load and the store
 * after it; dmlcl-ab, PoCL: f32 1.07-1.19x, f16 1.29x, u8 1.20x, ONNX's
 * ERROR policy 1.19x). 16-byte units keep the private line (4 of them).
 */
#define PICK(k) row[(u + (k)) * RUN_IS + cache[u + (k)]]
#define PICK4(k) PICK(k), PICK((k) + 1), PICK((k) + 2), PICK((k) + 3)
#define PICK8(k) PICK4(k), PICK4((k) + 4)
#define PICK16(k) PICK8(k), PICK8((k) + 8)
/* d[k] = PICK(k) for the 64-byte line at d (line-aligned), stored with PUT: the line is a
 * value inside this function only (see put_line, common.cl). */
static void put_picks(__global UNIT_T *d, __global const UNIT_T *row, const CACHE_T *cache, long u)
{
    __global uint16 *line = (__global uint16 *)d;
#if UNIT_BYTES == 1
    PUT(line, (uint16)(as_uint4((uchar16)(PICK16(0))), as_uint4((uchar16)(PICK16(16))),
                       as_uint4((uchar16)(PICK16(32))), as_uint4((uchar16)(PICK16(48)))));
#elif UNIT_BYTES == 2
    PUT(line, (uint16)(as_uint8((ushort16)(PICK16(0))), as_uint8((ushort16)(PICK16(16)))));
#elif UNIT_BYTES == 4
    PUT(line, (uint16)((uint8)(PICK8(0)), (uint8)(PICK8(8))));
#elif UNIT_BYTES == 8
    PUT(line, as_uint16((ulong8)(PICK8(0))));
#else
    union {
        UNIT_T a[64 / sizeof(UNIT_T)];
        uint16 v;
    } l;
    for (int k = 0; k < 64 / (int)sizeof(UNIT_T); ++k)
        l.a[k] = PICK(k);
    PUT(line, l.v);
#endif
}

/*
 * p[u] = row[u * RUN_IS + cache[u]] for u in [lo, hi) (the units before the
 * output's first line boundary one by one, then whole lines stored
 * non-temporally, then the tail), prefetching the `lines` 64-byte lines at
 * `next` evenly over the output lines as they go (a running remainder: no
 * division).
 */
static void gather_spread(__global UNIT_T *p, long lo, long hi, __global const UNIT_T *row,
                          const CACHE_T *cache, __global const UNIT_T *next, long lines)
{
    long u = lo, lu = 64 / (long)sizeof(UNIT_T);
    long head = min(hi, u + LINE_GAP(p + u));
    for (; u < head; ++u)
        PUT(p + u, row[u * RUN_IS + cache[u]]);
    long out_lines = (hi - u) / lu, owed = 0, q = 0;
    for (long j = 0; j < out_lines; ++j, u += lu) {
        for (owed += lines; owed >= out_lines && q < lines; owed -= out_lines)
            __builtin_prefetch(next + lu * q++);
        put_picks(p + u, row, cache, u);
    }
    for (; u < hi; ++u)
        PUT(p + u, row[u * RUN_IS + cache[u]]);
}
#endif

#if PREFETCH && FAST && SERIAL
/*
 * copy_lines (common.cl) for ROW_INDEX, with the same units of the row
 * PREFETCH rows ahead (`ahead`; the row itself where there is none)
 * prefetched a line at a time as the lines move, not all before: a burst
 * of 64 prefetches (4 KiB rows) stalled on the miss buffers. Stores are
 * non-temporal with STREAM, plain otherwise.
 */
static void copy_lines_ahead(__global UNIT_T *d, __global const UNIT_T *s, long begin, long end,
                             __global const UNIT_T *ahead)
{
    long u = begin, line = 64 / (long)sizeof(UNIT_T);
    long head = min(end, u + LINE_GAP(d + u));
    __builtin_prefetch(ahead + u);
    for (; u < head; ++u)
        PUT(d + u, s[u]);
    for (; u + line <= end; u += line) {
        __builtin_prefetch(ahead + u + line);
        put_line(d + u, s + u);
    }
    for (; u < end; ++u)
        PUT(d + u, s[u]);
}
/* The row copies that take it: streaming ones where copy_lines would (units
 * of 4 bytes or more; narrower ones keep RUN_STORE's assembled lines and a
 * burst of prefetches), plain ones of every unit (an embedding lookup with a
 * 16 MiB output 1.31x, dmlcl-ab, PoCL). */
#if STREAM
#define LINES_AHEAD COPY_LINES
#else
#define LINES_AHEAD 1
#endif
#endif

/* Element offset of the index tuple at idx[at]; under ZERO and ERROR, -1-k
 * when component k is out of range. comps: {axis size, axis stride} per k. */
static long resolve(__global const IDX_T *idx, long at, const long *axis_n, const long *axis_s,
                    long comp_stride)
{
    long offset = 0;
    for (int k = 0; k < NCOMP; ++k) {
        long n = axis_n[k];
        IDX_T raw = idx[at + k * comp_stride];
#if POLICY == 0 && IDX_SIGNED
        long x = (long)raw;
#if WRAP
        x += x < 0 ? n : 0;
#endif
        x = clamp(x, 0L, n - 1); /* the identity inside the axis */
#elif POLICY == 0
        long x = (long)min((ulong)raw, (ulong)n - 1);
#else
#if IDX_SIGNED
        long x = (long)raw;
#if WRAP
        x += x < 0 ? n : 0;
#endif
        bool bad = x < 0 || x >= n;
#else
        bool bad = (ulong)raw >= (ulong)n;
        long x = (long)raw;
#endif
        if (bad)
            return -1 - k;
#endif
        offset += x * axis_s[k];
    }
    return offset;
}

#if POLICY == 2
#define REPORT(pos) atomic_min(status, (uint)(pos))
#else
#define REPORT(pos) ((void)0)
#endif

/* Copies an odometer's state: digits at[0 .. rank - 1] and the four offsets. */
static void odometer_copy(int rank, const long *at, const long *off, long *to_at, long *to_off)
{
    for (int d = 0; d < rank; ++d)
        to_at[d] = at[d];
    for (int t = 0; t < 4; ++t)
        to_off[t] = off[t];
}

/* The next row: the innermost row dimension steps in registers; carries are rare. */
static void row_step(__constant long *dims, int rank, long *at, long *off, long n0,
                     const long *step0)
{
    for (int t = 0; t < 4; ++t)
        off[t] += step0[t];
    if (++at[0] == n0) {
        at[0] = 0;
        for (int t = 0; t < 4; ++t)
            off[t] -= n0 * step0[t];
        row_next(dims + DMLI_INDEXED_DIM, DMLI_INDEXED_DIM, rank - 1, at + 1, off);
    }
}

__kernel void indexed_copy(__global UNIT_T *out, long out_base, __global const UNIT_T *in,
                           long in_base, __global const IDX_T *idx, long idx_base,
                           __global uint *status, __constant long *shape)
{
    int outer_rank = (int)shape[DMLI_INDEXED_OUTER_RANK];
    long comp_stride = shape[DMLI_INDEXED_COMP_STRIDE], comp_pos = shape[DMLI_INDEXED_COMP_POS],
         run = shape[DMLI_INDEXED_RUN], run_os = shape[DMLI_INDEXED_RUN_OS],
         run_is = shape[DMLI_INDEXED_RUN_IS], run_xs = shape[DMLI_INDEXED_RUN_XS],
         run_ps = shape[DMLI_INDEXED_RUN_PS], chunk = shape[DMLI_INDEXED_CHUNK];
    ulong rows = (ulong)shape[DMLI_INDEXED_ROWS],
          rows_per_item = (ulong)shape[DMLI_INDEXED_ROWS_PER_ITEM];
    __constant long *dims = shape + DMLI_SHAPE_HEADER;
    (void)comp_pos, (void)run_os, (void)run_is, (void)run_xs, (void)run_ps, (void)status;
#if TRANSPOSE == 3
    __local UNIT_T tiles[GROUP_ROWS * GROUP_TILE_UNITS];
    /* A work-group per GROUP_ROWS tiles (GPUs), as view.cl's: tile rows along
     * group dimension 0, the run's chunks along 2; each tile's GROUP_LANES
     * items resolve its row and its one index tuple once. A tuple out of
     * range (ZERO, ERROR) zeroes the tile, and its first lane reports the
     * tile's first position. Every item reaches group_tile's barrier. */
    {
        long axis_n[NCOMP], axis_s[NCOMP];
        __constant long *comps = dims + DMLI_INDEXED_DIM * (outer_rank + 1);
        for (int k = 0; k < NCOMP; ++k) {
            axis_n[k] = comps[DMLI_COMP_LONGS * k];
            axis_s[k] = comps[DMLI_COMP_LONGS * k + 1];
        }
        int k = (int)get_local_id(0) / GROUP_LANES;
        ulong r = get_group_id(0) * GROUP_ROWS + k;
        long begin = (long)get_group_id(2) * CHUNK_MAX, os0 = 0, a = 0;
        long at[MAX_DIMS], off[4] = {out_base, in_base, idx_base, 0};
        int tw = 0;
        if (r < rows) {
            row_start(dims, DMLI_INDEXED_DIM, outer_rank, r, at, off);
            long real0 = dims[DMLI_INDEXED_DIM * outer_rank];
            os0 = dims[DMLI_INDEXED_DIM * outer_rank + 1];
            tw = (int)min((long)SIDE, real0 - at[0] * SIDE);
            a = resolve(idx, off[2], axis_n, axis_s, comp_stride);
#if POLICY != 0
            if (a < 0 && get_local_id(0) % GROUP_LANES == 0)
                REPORT(off[3] + begin * run_ps + (-1 - a) * comp_pos);
#endif
        }
        group_tile(tiles + k * GROUP_TILE_UNITS, out, off[0], os0, in, off[1] + max(a, 0L), run_is,
                   begin, (int)min((long)CHUNK_MAX, run - begin), tw, POLICY != 0 && a < 0);
        return;
    }
#endif
    ulong r = get_global_id(2) * rows_per_item;
    if (r >= rows)
        return;
    ulong last = min(r + rows_per_item, rows) - 1;
    long axis_n[NCOMP], axis_s[NCOMP];
    __constant long *comps = dims + DMLI_INDEXED_DIM * (outer_rank + (TRANSPOSE ? 1 : 0));
    for (int k = 0; k < NCOMP; ++k) {
        axis_n[k] = comps[DMLI_COMP_LONGS * k];
        axis_s[k] = comps[DMLI_COMP_LONGS * k + 1];
    }
    long at[MAX_DIMS], off[4] = {out_base, in_base, idx_base, 0};
    row_start(dims, DMLI_INDEXED_DIM, outer_rank, r, at, off);
    long n0 = outer_rank ? dims[0] : 1, step0[4] = {0, 0, 0, 0};
    for (int t = 0; t < 4 && outer_rank; ++t)
        step0[t] = dims[1 + t];
    long begin = (long)get_global_id(1) * chunk;
    long end = min(begin + chunk, run);
    if (begin > 0 && begin >= run)
        return; /* a chunk id rounded up to the group's span */
    long lanes = LANES, u0 = begin + LANE;
#if ROWS_1D && ROW_INDEX && RUN_ONE && POLICY == 0
    /* One outer dimension, one-unit rows (small-row gathers): a plain loop over
     * the item's rows, no odometer. Each row is a random read that misses
     * the caches: with PREFETCH, the row PREFETCH rows ahead is requested
     * before this one is moved, so that many misses are in flight at once
     * instead of the few the core's reorder window overlaps. */
    long count = (long)(last - r) + 1;
#if PREFETCH
    long ahead_end = (long)(rows - r) - PREFETCH;
#endif
    for (long k = 0; k < count; ++k) {
#if PREFETCH
        /* Past the item's end too (inside the tensor): the work-group's next
         * item, which this thread moves next, starts where this one ends. */
        if (k < ahead_end)
            __builtin_prefetch(
                in + off[1] + (k + PREFETCH) * step0[1] +
                resolve(idx, off[2] + (k + PREFETCH) * step0[2], axis_n, axis_s, comp_stride));
#endif
        PUT(out + off[0] + k * step0[0],
            in[off[1] + k * step0[1] +
               resolve(idx, off[2] + k * step0[2], axis_n, axis_s, comp_stride)]);
    }
    return;
#endif
#if TRANSPOSE && TRANSPOSE != 3
    /* Rows are tiles: SIDE units of the innermost row dimension (input
     * stride 1, its real size and output stride after the rows in dims) x
     * this chunk of the run (output stride 1); the last tile of a line may
     * be narrower. Neither moves the indices: one tuple per tile. */
    long real0 = dims[DMLI_INDEXED_DIM * outer_rank], os0 = dims[DMLI_INDEXED_DIM * outer_rank + 1];
    int nc = (int)(end - begin);
#if TILE_PREFETCH
    /* A second odometer TILE_PREFETCH tiles on, across line and item ends
     * (inside the tensor): the tile whose lines this one prefetches, the
     * next gathered line's first tiles included. */
    ulong rp = r;
    long atp[MAX_DIMS], offp[4];
    odometer_copy(outer_rank, at, off, atp, offp);
    for (; rp < r + TILE_PREFETCH && rp + 1 < rows; ++rp)
        row_step(dims, outer_rank, atp, offp, n0, step0);
#endif
    for (;; ++r) {
        int tw = (int)min((long)SIDE, real0 - at[0] * SIDE);
        long a = resolve(idx, off[2], axis_n, axis_s, comp_stride), pf = -1, po = -1;
        int pw = 0;
#if TILE_PREFETCH
        if (rp > r) {
            long ap = resolve(idx, offp[2], axis_n, axis_s, comp_stride);
            pf = ap < 0 ? -1 : offp[1] + ap;
            po = offp[0];
            pw = (int)min((long)SIDE, real0 - atp[0] * SIDE);
        }
        if (rp + 1 < rows) {
            row_step(dims, outer_rank, atp, offp, n0, step0);
            ++rp;
        }
#endif
#if POLICY != 0
        if (a < 0) {
            /* Positions grow along every dimension: the tile's first is its least. */
            REPORT(off[3] + begin * run_ps + (-1 - a) * comp_pos);
            for (int w = 0; w < tw; ++w)
                for (int c = 0; c < nc; ++c)
                    PUT(out + off[0] + w * os0 + begin + c, (UNIT_T)0);
        } else
#endif
            transpose_tile(out, off[0], os0, in, off[1] + a, run_is, begin, nc, tw, pf, po, pw);
        if (r == last)
            break;
        row_step(dims, outer_rank, at, off, n0, step0);
    }
#elif SHARED_INDEX
    /* The rows share their indices (every outer index stride is 0): a block
     * of the run is resolved once, then applied to each row of the item. */
    ulong first = r;
    long at0[MAX_DIMS], off0[4];
    odometer_copy(outer_rank, at, off, at0, off0);
    for (long b = u0; b < end; b += CACHE * lanes) {
        CACHE_T cache[CACHE + SLIDE];
        int n = 0;
        bool clean = true; /* ZERO, ERROR: every tuple of the block in range */
        for (long u = b; u < end && n < CACHE + SLIDE; u += lanes) {
            cache[n] = (CACHE_T)resolve(idx, off0[2] + u * RUN_XS, axis_n, axis_s, comp_stride);
            clean = clean && (POLICY == 0 || cache[n] >= 0);
            ++n;
        }
        (void)clean;
        odometer_copy(outer_rank, at0, off0, at, off);
        for (r = first;; ++r) {
#if SPREAD
            if (clean) {
                /* This row's part of the block (from its first line boundary
                 * after b under SLIDING, as below); in the first pass the
                 * next row's span (past the item's end too, inside the
                 * innermost row dimension) is prefetched as the row goes. */
                long s = SLIDING ? LINE_GAP(out + off[0] + b) : 0;
                __global const UNIT_T *row = in + off[1] + b * RUN_IS;
                long span_lines =
                    b == u0 && at[0] + 1 < n0 ? (axis_n[0] * (long)sizeof(UNIT_T) + 63) / 64 : 0;
                gather_spread(out + off[0] + b, b == u0 ? 0 : s, min((long)CACHE + s, end - b), row,
                              cache, in + off[1] + step0[1], span_lines);
            } else
#endif
            {
#if PREFETCH
                /* First pass: the next row's span (the gathered axis, contiguous)
                 * is requested in line order while this row is gathered, so its
                 * lines arrive as a stream, not as random misses. */
                if (b == u0 && r != last && at[0] + 1 < n0)
                    for (long q = 0; q < axis_n[0]; q += 64 / (long)sizeof(UNIT_T))
                        __builtin_prefetch(in + off[1] + step0[1] + q);
#endif
#if SLIDING
                {
                    /* This row's part of the block: from its first line boundary
                     * after b (from b in the first block) to the same boundary
                     * CACHE units on (to the chunk's end in the last). */
                    long s = LINE_GAP(out + off[0] + b);
                    __global const UNIT_T *row = in + off[1] + b * RUN_IS;
                    RUN_STORE(out + off[0] + b, b == u0 ? 0 : s, min((long)CACHE + s, end - b),
                              row[u * RUN_IS + cache[u]]);
                }
#elif POLICY == 0 && SERIAL
                {
                    /* One lane: the block's units are consecutive (u = b + k). */
                    __global const UNIT_T *row = in + off[1] + b * RUN_IS;
                    RUN_STORE(out + off[0] + b * RUN_OS, 0, n, row[u * RUN_IS + cache[u]]);
                }
#else
                for (int k = 0; k < n; ++k) {
                    long u = b + k * lanes, a = cache[k];
#if POLICY == 0
                    PUT(out + off[0] + u * RUN_OS, in[off[1] + u * RUN_IS + a]);
#else
                    if (a < 0) {
                        REPORT(off[3] + u * run_ps + (-1 - a) * comp_pos);
                        PUT(out + off[0] + u * RUN_OS, (UNIT_T)0);
                    } else {
                        PUT(out + off[0] + u * RUN_OS, in[off[1] + u * RUN_IS + a]);
                    }
#endif
                }
#endif
            }
            if (r == last)
                break;
            row_step(dims, outer_rank, at, off, n0, step0);
        }
    }
#else
    for (;; ++r) {
        long o = off[0], i = off[1], x = off[2], p = off[3];
#if CHECK_ONLY
        for (long u = u0; u < end; u += lanes) {
            long a = resolve(idx, x + u * RUN_XS, axis_n, axis_s, comp_stride);
            if (a < 0)
                REPORT(p + u * run_ps + (-1 - a) * comp_pos);
        }
#elif ROW_INDEX && POLICY == 0 && RUN_ONE
        /* CLAMP, one unit per row (small rows): no run loop. */
#if PREFETCH
        /* As in the ROWS_1D loop: the row PREFETCH on in the innermost row
         * dimension, past the item's end too. */
        if (at[0] + PREFETCH < n0)
            __builtin_prefetch(
                in + off[1] + PREFETCH * step0[1] +
                resolve(idx, off[2] + PREFETCH * step0[2], axis_n, axis_s, comp_stride));
#endif
        PUT(out + o, in[i + resolve(idx, x, axis_n, axis_s, comp_stride)]);
#elif ROW_INDEX
        /* CLAMP: every tuple resolves inside the input, no branch. ZERO and
         * ERROR: a tuple out of range zeroes the row. */
        long a = resolve(idx, x, axis_n, axis_s, comp_stride);
#if PREFETCH
        /* Rows at random (a page each, for 4 KiB rows): the chunk of the row
         * PREFETCH rows on (past the item's end too, inside the innermost
         * row dimension) is requested while this one moves, so its page walk
         * and misses overlap the copies between: line by line as the lines
         * go where they stream (copy_lines_ahead), all first otherwise. */
        __global const UNIT_T *ahead_row = in + i + a;
        if (at[0] + PREFETCH < n0) {
            long ahead = resolve(idx, off[2] + PREFETCH * step0[2], axis_n, axis_s, comp_stride);
            if (POLICY == 0 || ahead >= 0) {
                ahead_row = in + off[1] + PREFETCH * step0[1] + ahead;
#if FAST && SERIAL
                if (!LINES_AHEAD)
#endif
                    for (long q = begin; q < end; q += 64 / (long)sizeof(UNIT_T))
                        __builtin_prefetch(ahead_row + q);
            }
        }
#endif
#if POLICY != 0
        if (a < 0) {
            if (u0 == 0)
                REPORT(p + (-1 - a) * comp_pos);
            for (long u = u0; u < end; u += lanes)
                PUT(out + o + u * RUN_OS, (UNIT_T)0);
        } else
#endif
#if PREFETCH && FAST && SERIAL
            /* Whole 64-byte lines (where streaming, 16-byte non-temporal
             * stores of the units ran the 4 KiB rows 1.3-1.4x slower;
             * dmlcl-ab, PoCL), the rows ahead prefetched as they go. */
            if (LINES_AHEAD)
                copy_lines_ahead(out + o, in + i + a, begin, end, ahead_row);
            else
#elif STREAM && FAST && SERIAL
        if (COPY_LINES)
            copy_lines(out + o, in + i + a, begin, end);
        else
#endif
                RUN_STORE(out + o, begin, end, in[i + a + u * RUN_IS]);
#elif POLICY == 0
        RUN_STORE(out + o, begin, end,
                  in[i + u * RUN_IS + resolve(idx, x + u * RUN_XS, axis_n, axis_s, comp_stride)]);
#else
        for (long u = u0; u < end; u += lanes) {
            long a = resolve(idx, x + u * RUN_XS, axis_n, axis_s, comp_stride);
            if (a < 0) {
                REPORT(p + u * run_ps + (-1 - a) * comp_pos);
                PUT(out + o + u * RUN_OS, (UNIT_T)0);
            } else {
                PUT(out + o + u * RUN_OS, in[i + u * RUN_IS + a]);
            }
        }
#endif
        if (r == last)
            break;
        row_step(dims, outer_rank, at, off, n0, step0);
    }
#endif
}
