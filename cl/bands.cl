/* SPDX-License-Identifier: MIT */
/*
 * bands.cl: one dispatch for the steps of an operator that walk the same
 * rows (JOIN's inputs, SPLIT's outputs, PADDING's regions; src/bands.c
 * builds the band on the host).
 *
 * A band's rows are the outer dimensions its steps share; each step is one
 * segment of every row: up to `lines` lines of `run` units each, contiguous
 * in the output, read with input step -1, 0 or 1. A row's segments are
 * grouped in strips (consecutive segments in output order with the same
 * number of lines, the same line stride and the same output), and a strip
 * is walked line by line, each line's segments in output order: writes
 * stream through each output line in order (PADDING: left border, input
 * row, right border, then the next line).
 *
 * Work-item (lane, line, item): item names rows_per_item consecutive rows
 * (the first decomposed once, the next ones odometer steps), lane an
 * interleave inside each run (one lane on CPUs; on GPUs the power of two
 * that holds the longest run, at most 64), line the first of a row's lines
 * the item walks (0 and all of them on CPUs; see LINE0).
 *
 * Macros (code generation only; every size, stride and offset is in the
 * table, so one build serves every shape): common.cl's UNIT_T, SERIAL,
 * STREAM (OUT_UNIT is 1, FAST 0: runs are contiguous in the output), and
 *   ASSEMBLE  1 (with STREAM and SERIAL): the band has one output, whose
 *         lines are assembled from consecutive runs (see copy_run) [0]
 *   NBUF  buffer arguments: 2, 4, 8, 16, 32 or 63 (bands.c picks the
 *         smallest that holds the band's distinct buffers)
 * When an operator runs as a band, and the measurements behind it:
 * docs/kernels.md.
 *
 * Arguments (abi.h DMLI_BANDS_ARG_*): table, then per buffer its pointer
 * and its base offset in units (the binding's offset).
 */
#ifndef OUT_UNIT
#define OUT_UNIT 1
#endif
#ifndef FAST
#define FAST 0
#endif
#include "common.cl"

#ifndef ASSEMBLE
#define ASSEMBLE 0
#endif
#ifndef NBUF
#define NBUF 2
#endif

/* clang-format off */
#define BUFS2(X) X(0) X(1)
#define BUFS4(X) BUFS2(X) X(2) X(3)
#define BUFS8(X) BUFS4(X) X(4) X(5) X(6) X(7)
#define BUFS16(X) BUFS8(X) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define BUFS32(X) BUFS16(X) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) \
    X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define BUFS63(X) BUFS32(X) X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) \
    X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49) X(50) X(51) \
    X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62)
/* clang-format on */

#if NBUF == 2
#define BUFS BUFS2
#elif NBUF == 4
#define BUFS BUFS4
#elif NBUF == 8
#define BUFS BUFS8
#elif NBUF == 16
#define BUFS BUFS16
#elif NBUF == 32
#define BUFS BUFS32
#else
#define BUFS BUFS63
#endif

#define BUF_PARAM(k) , __global UNIT_T *b##k, long o##k
#define BUF_SET(k) bufs[k] = b##k + o##k;

#if STREAM && SERIAL
/* Non-temporal stores of whole 64-byte lines (16-byte ones: 1.25x on split-3,
 * dmlcl-ab, PoCL). */
#ifndef LINE_UNITS
#define LINE_UNITS ((long)(64 / sizeof(UNIT_T)))
#endif
typedef union {
    UNIT_T a[64 / sizeof(UNIT_T)];
    uint16 v;
} line_t;

#if !ASSEMBLE
/* out[u] = src[u] for u in [u, end), a part of a line: units up to the
 * output's first 16-byte boundary, then 16-byte vectors (non-temporal
 * stores of 16 bytes where units are narrower: a quarter of the partial
 * line stores of 4-byte units), then units. Returns end. */
static long copy_part(__global UNIT_T *out, __global const UNIT_T *src, long u, long end)
{
    if (sizeof(UNIT_T) < 16) {
        long vu = 16 / (long)sizeof(UNIT_T);
        for (; u < end && ((ulong)(out + u) & 15) != 0; ++u)
            PUT(out + u, src[u]);
        for (; u + vu <= end; u += vu)
            PUT((__global uint4 *)(out + u), vload4(0, (__global const uint *)(src + u)));
    }
    for (; u < end; ++u)
        PUT(out + u, src[u]);
    return end;
}

/* out[u] = src[u * run_is] for u in [0, run): units up to the output's first
 * line boundary one by one, then one 64-byte vector a line (an unaligned
 * vector load of the input, or the constant repeated), then the tail. */
static void copy_run(__global UNIT_T *out, __global const UNIT_T *src, long run, long run_is)
{
    long u = 0;
    if (run_is == -1) {
        /* Reversed: whole lines assembled where the run has any (RUN_STORE),
         * a short run (PADDING's reflected borders) unit by unit. */
        if (run < 2 * LINE_UNITS) {
            for (; u < run; ++u)
                PUT(out + u, src[-u]);
        } else {
            RUN_STORE(out, 0, run, src[-u]);
        }
        return;
    }
    long head = min(run, LINE_GAP(out));
    if (run_is == 1) {
        u = copy_part(out, src, u, head);
        for (; u + LINE_UNITS <= run; u += LINE_UNITS)
            put_line(out + u, src + u);
        copy_part(out, src, u, run);
        return;
    }
    for (; u < head; ++u)
        PUT(out + u, src[0]);
    if (u + LINE_UNITS <= run) {
        line_t l;
        for (int k = 0; k < (int)LINE_UNITS; ++k)
            l.a[k] = src[0];
        for (; u + LINE_UNITS <= run; u += LINE_UNITS)
            PUT((__global uint16 *)(out + u), l.v);
    }
    for (; u < run; ++u)
        PUT(out + u, src[0]);
}
#define WRITER
#define COPY_RUN copy_run
#define FLUSH
#else
/*
 * The output as a stream of 64-byte lines: each run is appended to a block
 * assembled in private memory (a plain loop, which the compiler vectorises),
 * and the block's whole lines are stored non-temporally when it fills or the
 * next run does not continue it; only the partial lines at such breaks go
 * unit by unit. Runs continuing a line boundary move whole lines directly.
 * (PADDING's borders and JOIN's short pieces make lines of several runs.)
 */
#define BLOCK_UNITS ((int)(RUN_BLOCK / sizeof(UNIT_T)))
typedef struct writer {
    __global UNIT_T *base; /* the block's first unit, on a 64-byte line */
    int lo, hi;            /* units [lo, hi) of the block are held */
    union {
        UNIT_T a[RUN_BLOCK / sizeof(UNIT_T)];
        uint16 v[RUN_BLOCK / 64];
    } buf;
} writer;

/* Stores the held units: whole lines as vectors, the partial ones unit by unit. */
static void flush(writer *w)
{
    int lu = (int)LINE_UNITS, l0 = (w->lo + lu - 1) / lu, l1 = w->hi / lu;
    if (l0 >= l1) {
        for (int u = w->lo; u < w->hi; ++u)
            PUT(w->base + u, w->buf.a[u]);
        return;
    }
    for (int u = w->lo; u < l0 * lu; ++u)
        PUT(w->base + u, w->buf.a[u]);
    for (int j = l0; j < l1; ++j)
        PUT((__global uint16 *)w->base + j, w->buf.v[j]);
    for (int u = l1 * lu; u < w->hi; ++u)
        PUT(w->base + u, w->buf.a[u]);
}

/* out[u] = src[u * run_is] for u in [0, run), through the writer. */
static void copy_run(writer *w, __global UNIT_T *out, __global const UNIT_T *src, long run,
                     long run_is)
{
    if (out != w->base + w->hi) {
        flush(w);
        int mis = (int)(((ulong)out & 63) / sizeof(UNIT_T));
        w->base = out - mis;
        w->lo = w->hi = mis;
    }
    int lu = (int)LINE_UNITS;
    for (long u = 0; u < run;) {
        if (w->hi % lu == 0 && run_is != -1 && run - u >= lu) {
            if (w->hi > w->lo)
                flush(w);
            long n = (run - u) / lu * lu;
            if (run_is == 1) {
                for (long k = 0; k < n; k += lu)
                    put_line(out + u + k, src + u + k);
            } else {
                line_t l;
                for (int k = 0; k < lu; ++k)
                    l.a[k] = src[0];
                for (long k = 0; k < n; k += lu)
                    PUT((__global uint16 *)(out + u + k), l.v);
            }
            u += n;
            w->base = out + u;
            w->lo = w->hi = 0;
            continue;
        }
        int n = (int)min(run - u, (long)(BLOCK_UNITS - w->hi));
        /* Up to the next line boundary when whole lines follow: they go directly. */
        int to_line = lu - w->hi % lu;
        if (run_is != -1 && run - u - to_line >= lu)
            n = min(n, to_line);
        UNIT_T *a = w->buf.a + w->hi;
        if (run_is == 1)
            for (int k = 0; k < n; ++k)
                a[k] = src[u + k];
        else if (run_is == 0)
            for (int k = 0; k < n; ++k)
                a[k] = src[0];
        else
            for (int k = 0; k < n; ++k)
                a[k] = src[-(u + k)];
        w->hi += n;
        u += n;
        if (w->hi == BLOCK_UNITS) {
            flush(w);
            w->base += BLOCK_UNITS;
            w->lo = w->hi = 0;
        }
    }
}
#define WRITER   \
    writer w_;   \
    w_.base = 0; \
    w_.lo = w_.hi = 0;
#define COPY_RUN(out, src, run, run_is) copy_run(&w_, out, src, run, run_is)
#define FLUSH flush(&w_)
#endif
#else
/* One line of a segment: out[u] = src[u * run_is] for u in [0, run). */
static void copy_run(__global UNIT_T *out, __global const UNIT_T *src, long run, long run_is)
{
    if (run_is == 1) {
        RUN_STORE(out, 0, run, src[u]);
    } else if (run_is == 0) {
#if !SERIAL
        /* Lanes past the run load nothing (GPUs: a warp with no unit of a
         * short border run issued a load of the fill value it never used). */
        if (LANE >= run)
            return;
#endif
        UNIT_T v = src[0];
        RUN_STORE(out, 0, run, v);
    } else {
        RUN_STORE(out, 0, run, src[-u]);
    }
}
#define WRITER
#define COPY_RUN copy_run
#define FLUSH
#endif

/* The lines of a strip an item walks: all of them in order on CPUs (the
 * writer assembles consecutive runs), every get_global_size(1)-th from
 * get_global_id(1) on GPUs (bands with few rows and many lines, PADDING's,
 * still fill the device). */
#if SERIAL
#define LINE0 0L
#define LINE_STEP 1L
#else
#define LINE0 ((long)get_global_id(1))
#define LINE_STEP ((long)get_global_size(1))
#endif

__kernel void bands_copy(__constant long *table BUFS(BUF_PARAM))
{
    __global UNIT_T *bufs[NBUF];
    BUFS(BUF_SET)
    long strips = table[DMLI_BANDS_STRIPS];
    int rank = (int)table[DMLI_BANDS_ROW_RANK];
    ulong rows = (ulong)table[DMLI_BANDS_ROWS],
          rows_per_item = (ulong)table[DMLI_BANDS_ROWS_PER_ITEM];
    __constant long *sizes = table + DMLI_BANDS_HEADER;
    __constant long *strip = sizes + rank;
    __constant long *segs = table + table[DMLI_BANDS_SEGMENTS];
    long seg_longs = DMLI_SEG_FIXED + 2 * (long)rank;
    ulong r = get_global_id(2) * rows_per_item;
    if (r >= rows)
        return;
    ulong last = min(r + rows_per_item, rows) - 1;
    long at[MAX_DIMS];
    WRITER
    for (int d = 0; d < rank; ++d) {
        ulong n = (ulong)sizes[d], q = div_narrow(r, n);
        at[d] = (long)(r - q * n);
        r = q;
    }
    for (ulong row = get_global_id(2) * rows_per_item;; ++row) {
        for (long s = 0; s < strips; ++s) {
            __constant long *st = strip + DMLI_BANDS_STRIP * s;
            __constant long *first = segs + st[0] * seg_longs;
            long count = st[1], lines = st[2];
            for (long line = LINE0; line < lines; line += LINE_STEP)
                for (long k = 0; k < count; ++k) {
                    __constant long *g = first + k * seg_longs;
                    long o = g[DMLI_SEG_OUT_OFF] + line * g[DMLI_SEG_LINE_OS],
                         i = g[DMLI_SEG_IN_OFF] + line * g[DMLI_SEG_LINE_IS];
                    for (int d = 0; d < rank; ++d) {
                        o += at[d] * g[DMLI_SEG_FIXED + 2 * d];
                        i += at[d] * g[DMLI_SEG_FIXED + 2 * d + 1];
                    }
                    COPY_RUN(bufs[g[DMLI_SEG_OUT_BUF]] + o, bufs[g[DMLI_SEG_IN_BUF]] + i,
                             g[DMLI_SEG_RUN], g[DMLI_SEG_RUN_IS]);
                }
        }
        if (row == last)
            break;
        for (int d = 0; d < rank; ++d) {
            if (++at[d] < sizes[d])
                break;
            at[d] = 0;
        }
    }
    FLUSH;
}
