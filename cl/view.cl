/* SPDX-License-Identifier: MIT */
/*
 * view.cl: the strided view copy (IDENTITY, SLICE, SLICE1, StridedSlice,
 * Broadcast, Expand).
 *
 *   out[out_base + sum_d o_d * os_d] = in[in_base + sum_d o_d * is_d]
 *
 * Dimensions were normalised on the host; the innermost one is the "run".
 * Work-item (lane, chunk, item): item names rows_per_item consecutive rows
 * (positions in the outer dimensions: the first is decomposed once, the only
 * divisions; the next ones are odometer steps) or, with REPEAT, one row and a
 * group of repeats; chunk is a slice of the run, lane an interleave inside
 * the chunk (one lane on CPUs, a warp on GPUs). Strides are signed element
 * strides: 0 broadcasts, negative reverses.
 *
 * Macros (code generation only; every size, stride and offset is in the
 * shape buffer, so one build serves every shape): common.cl's UNIT_T, FAST,
 * OUT_UNIT, SERIAL, STREAM, RUN_IS_K, and the variants below. When the host
 * picks each one, and the measurements behind it: docs/kernels.md.
 * Broadcasting is write-bound, so a source element is read once and stored
 * to every place that repeats it (SPLAT, REPEAT):
 *   SPLAT       1: the run's input stride is 0: its one source element is
 *               loaded once and stored along the run, 16 bytes per store
 *               where the run is contiguous in the output (default 0)
 *   REPEAT      1: the outer dimensions with input stride 0 ("repeats") are
 *               not rows: rep_rank repeat dimensions follow the rows in dims,
 *               and a work-item loads a tile of its chunk once, then stores
 *               it to each repeat of its group (an odometer over the
 *               repeats, no division) (default 0)
 *   TRANSPOSE   a layout change: the run is contiguous in the output
 *               and strided in the input, the innermost row dimension the
 *               reverse; a work-item moves tiles of SIDE rows x a chunk of
 *               at most CHUNK_MAX run units, whole cache lines on each
 *               side, instead of one line per element. 1: through a private
 *               tile; 2: VN x VN register blocks (VEC_T, VLOAD) where output
 *               rows and the run are whole 16-byte vectors; 3 (GPUs): a
 *               work-group moves a tile through local memory (default 0);
 *               the tile and its macros are transpose.cl's
 *   INTERLEAVE  runs of RUN_N (2..8) units, contiguous in the output and
 *               one input stream each (CPUs): out[w * RUN_N + c] =
 *               in[w + c * run_is] over the interleaved dimension w
 *               (input stride 1), which dims lists after the rows; chunks
 *               split w. A work-item loads VN units (a 16-byte vector,
 *               VEC_T, VLOAD) of each stream and stores RUN_N whole vectors
 *               of output lines. 1: plain unaligned stores (VSTORE); 2:
 *               aligned ones, non-temporal with STREAM (default 0)
 *   DEINTERLEAVE  the mirror (CPUs): the run reads every RUN_N-th input
 *               unit (2..8), the RUN_N streams (a dimension of input stride
 *               1, output stride cs, listed after the rows in dims) write
 *               out[w + c * cs] = in[w * RUN_N + c]; chunks split the run.
 *               A work-item loads RUN_N whole vectors of one input line and
 *               stores a vector to each stream. 1 and 2 as for INTERLEAVE
 *   STRIDED     1: the run is contiguous in the output and reads input
 *               stride RUN_IS_K = 2, -1 or -2 (CPUs): whole 64-byte output
 *               lines (SV_N units), each from the one or two line-wide
 *               loads that cover its input span, lanes picked (and
 *               reversed) by one shuffle; non-temporal with STREAM
 *               (default 0)
 *
 * Arguments (abi.h DMLCL_VIEW_ARG_*): out, out_base, in, in_base, shape.
 * shape holds the DMLCL_VIEW_* header scalars, then dims: {size, out stride,
 * in stride} per outer dimension, innermost first: outer_rank rows, then
 * (REPEAT) rep_rank repeats. rows is the product of the row sizes, reps of
 * the repeat sizes; the grid's third dimension covers ceil(rows /
 * rows_per_item) items, or with REPEAT rows * ceil(reps / reps_per_item).
 */
#include "common.cl"
#include "transpose.cl"

#ifndef SPLAT
#define SPLAT 0
#endif
#ifndef REPEAT
#define REPEAT 0
#endif
#define VAL_T UNIT_T
#define LOAD(i) (in[(i)])
#define STORE(o, v) PUT(out + (o), (v))

/* Units a REPEAT work-item holds between its load and its stores. */
#define TILE 16
/* Units per 16-byte store. */
#define PER16 (16 / sizeof(UNIT_T))

/* out[o + u * run_os] = v for u in [begin, end), interleaved by lanes. */
static void splat_run(__global UNIT_T *out, long o, VAL_T v, long begin, long end, long lane,
                      long lanes, long run_os)
{
#if STREAM && SERIAL
    /* Streaming: whole 64-byte lines from the first line boundary, as the limit's kernel
     * stores them (16-byte non-temporal stores, four a line, moved a broadcast of 268 MB
     * at 0.74 of it where memory was fast). */
    if (run_os == 1) {
        union {
            UNIT_T u[64 / sizeof(UNIT_T)];
            uint16 w;
        } line;
        for (uint k = 0; k < 64 / sizeof(UNIT_T); ++k)
            line.u[k] = v;
        long head = min(end, begin + LINE_GAP(out + o + begin));
        long lines = (end - head) / (long)(64 / sizeof(UNIT_T));
        __global uint16 *w = (__global uint16 *)(out + o + head);
        for (long u = begin; u < head; ++u)
            PUT(out + o + u, v);
        for (long k = 0; k < lines; ++k)
            PUT(w + k, line.w);
        for (long u = head + lines * (long)(64 / sizeof(UNIT_T)); u < end; ++u)
            PUT(out + o + u, v);
        return;
    }
#endif
    if (run_os == 1) {
        union {
            UNIT_T u[PER16];
            uint4 w;
        } pattern;
        for (uint k = 0; k < PER16; ++k)
            pattern.u[k] = v;
        /* Units before the first 16-byte boundary (bindings start on one). */
        long head = min(end, begin + (long)((PER16 - (ulong)(o + begin) % PER16) % PER16));
        long blocks = (end - head) / (long)PER16;
        __global uint4 *w = (__global uint4 *)(out + o + head);
        for (long u = begin + lane; u < head; u += lanes)
            PUT(out + o + u, v);
        for (long k = lane; k < blocks; k += lanes)
            PUT(w + k, pattern.w);
        for (long u = head + blocks * (long)PER16 + lane; u < end; u += lanes)
            PUT(out + o + u, v);
        return;
    }
    for (long u = begin + lane; u < end; u += lanes)
        STORE(o + u * run_os, v);
}

/* Repeat r as odometer digits at[] (innermost first); returns its output offset. */
static long repeat_first(__constant long *rep, int rank, ulong r, long *at)
{
    long off = 0;
    for (int d = 0; d < rank; ++d) {
        ulong n = (ulong)rep[DMLI_VIEW_DIM * d], next = div_narrow(r, n);
        at[d] = (long)(r - next * n);
        r = next;
        off += at[d] * rep[DMLI_VIEW_DIM * d + 1];
    }
    return off;
}

/* Advances the odometer by one repeat; returns the new output offset (no division). */
static long repeat_next(__constant long *rep, int rank, long *at, long off)
{
    for (int d = 0; d < rank; ++d) {
        if (++at[d] < rep[DMLI_VIEW_DIM * d])
            return off + rep[DMLI_VIEW_DIM * d + 1];
        at[d] = 0;
        off -= (rep[DMLI_VIEW_DIM * d] - 1) * rep[DMLI_VIEW_DIM * d + 1];
    }
    return off;
}

/* The row odometer (common.cl) on the two offsets of a view. */
static void view_row_start(__constant long *dims, int rank, ulong r, long *at, long *o, long *i)
{
    long off[2] = {*o, *i};
    row_start(dims, DMLI_VIEW_DIM, rank, r, at, off);
    *o = off[0];
    *i = off[1];
}

static void view_row_next(__constant long *dims, int rank, long *at, long *o, long *i)
{
    long off[2] = {*o, *i};
    row_next(dims, DMLI_VIEW_DIM, rank, at, off);
    *o = off[0];
    *i = off[1];
}

#ifndef INTERLEAVE
#define INTERLEAVE 0
#endif
#ifndef DEINTERLEAVE
#define DEINTERLEAVE 0
#endif
#if INTERLEAVE || DEINTERLEAVE
/*
 * The permutation of a block: source vector c (stream c, VN units) to output
 * vectors j, out unit g = j * VN + e = stream g % RUN_N, unit g / RUN_N.
 * Clang's shuffle builtin with constant masks, in two forms:
 *  - RUN_N 4 or 8: log2(RUN_N) rounds zipping vector k with k + RUN_N / 2
 *    (low and high halves), as a transpose does;
 *  - otherwise output j is built from source 0 and 1, then each further
 *    source c overwrites its units (a mask per (j, c), masks evaluated by
 *    the compiler): RUN_N - 1 two-vector shuffles per output vector.
 * Without the builtin, or unoptimised (-cl-opt-disable, as scripts/oclgrind
 * builds), a plain permutation in private memory: the same loads and
 * stores. Oclgrind 21.10's uninitialised-value check reports shuffles it
 * gets wrong (uchar16 reading its first operand's high half, ushort8 its
 * second operand's low half: the right bytes written) and crashes on
 * undefined (-1) mask elements, so it checks this form instead; the
 * shuffles are checked byte for byte by the device tests on PoCL.
 */
#if defined(__clang__) && defined(__has_builtin) && defined(__OPTIMIZE__)
#if __has_builtin(__builtin_shufflevector)
#define IL_SHUFFLE 1
#endif
#endif
#ifndef IL_SHUFFLE
#define IL_SHUFFLE 0
#endif
#if IL_SHUFFLE
/* IL_LIST(M, a, b): M(a, b, e) for each lane e, the mask of a shuffle (two arguments always, a
 * macro with an unused one where it needs one: OpenCL C 1.2 has no variadic macros). */
#if VN == 16
#define IL_LIST(M, a, b)                                                                        \
    M(a, b, 0), M(a, b, 1), M(a, b, 2), M(a, b, 3), M(a, b, 4), M(a, b, 5), M(a, b, 6),         \
        M(a, b, 7), M(a, b, 8), M(a, b, 9), M(a, b, 10), M(a, b, 11), M(a, b, 12), M(a, b, 13), \
        M(a, b, 14), M(a, b, 15)
#elif VN == 8
#define IL_LIST(M, a, b) \
    M(a, b, 0), M(a, b, 1), M(a, b, 2), M(a, b, 3), M(a, b, 4), M(a, b, 5), M(a, b, 6), M(a, b, 7)
#elif VN == 4
#define IL_LIST(M, a, b) M(a, b, 0), M(a, b, 1), M(a, b, 2), M(a, b, 3)
#else
#define IL_LIST(M, a, b) M(a, b, 0), M(a, b, 1)
#endif
/* Output vector j (clamped: masks of the outputs RUN_N leaves out stay in range). */
#define IL_J(j) ((j) < RUN_N ? (j) : 0)
#define IL_ZIP_LO(j, unused, e) ((e) / 2 + ((e) % 2) * VN)
#define IL_ZIP_HI(j, unused, e) (VN / 2 + (e) / 2 + ((e) % 2) * VN)
#define IL_EVEN(j, unused, e) (2 * (e))
#define IL_ODD(j, unused, e) (2 * (e) + 1)
#endif

/* Unaligned vector accesses: loads always, stores in (DE)INTERLEAVE 1 (as
 * plain vector moves: PoCL's vstore16 on uchar was 2x slower). */
typedef VEC_T __attribute__((aligned(sizeof(UNIT_T)))) IL_UNALIGNED;
#endif

#if INTERLEAVE
#if IL_SHUFFLE
#define IL_C(j, e) ((IL_J(j) * VN + (e)) % RUN_N)
#define IL_K(j, e) ((IL_J(j) * VN + (e)) / RUN_N)
#define IL_FIRST(j, unused, e) \
    (IL_C(j, e) == 0 ? IL_K(j, e) : IL_C(j, e) == 1 ? VN + IL_K(j, e) : -1)
#define IL_NEXT(j, c, e) (IL_C(j, e) == (c) ? VN + IL_K(j, e) : (e))
#define IL_STEP(v, j, c, acc)                                                                 \
    ((c) < RUN_N                                                                              \
         ? __builtin_shufflevector((acc), (v)[(c) < RUN_N ? (c) : 0], IL_LIST(IL_NEXT, j, c)) \
         : (acc))
#define IL_OUT(v, j)                                                     \
    IL_STEP(                                                             \
        v, j, 7,                                                         \
        IL_STEP(v, j, 6,                                                 \
                IL_STEP(v, j, 5,                                         \
                        IL_STEP(v, j, 4,                                 \
                                IL_STEP(v, j, 3,                         \
                                        IL_STEP(v, j, 2,                 \
                                                __builtin_shufflevector( \
                                                    (v)[0], (v)[1], IL_LIST(IL_FIRST, j, 0))))))))
#endif

static void interleave_block(VEC_T *dst, const VEC_T *src)
{
#if IL_SHUFFLE && (RUN_N == 4 || RUN_N == 8)
    VEC_T r[RUN_N];
#pragma unroll
    for (int c = 0; c < RUN_N; ++c)
        r[c] = src[c];
#pragma unroll
    for (int round = 1; round < RUN_N; round *= 2) {
#pragma unroll
        for (int k = 0; k < RUN_N / 2; ++k) {
            dst[2 * k] = __builtin_shufflevector(r[k], r[k + RUN_N / 2], IL_LIST(IL_ZIP_LO, 0, 0));
            dst[2 * k + 1] =
                __builtin_shufflevector(r[k], r[k + RUN_N / 2], IL_LIST(IL_ZIP_HI, 0, 0));
        }
#pragma unroll
        for (int k = 0; k < RUN_N; ++k)
            r[k] = dst[k];
    }
#elif IL_SHUFFLE
    dst[0] = IL_OUT(src, 0);
    dst[1] = IL_OUT(src, 1);
#if RUN_N > 2
    dst[2] = IL_OUT(src, 2);
#endif
#if RUN_N > 3
    dst[3] = IL_OUT(src, 3);
#endif
#if RUN_N > 4
    dst[4] = IL_OUT(src, 4);
#endif
#if RUN_N > 5
    dst[5] = IL_OUT(src, 5);
#endif
#if RUN_N > 6
    dst[6] = IL_OUT(src, 6);
#endif
#if RUN_N > 7
    dst[7] = IL_OUT(src, 7);
#endif
#else
    union {
        VEC_T v[RUN_N];
        UNIT_T u[RUN_N * VN];
    } s, d;
    for (int c = 0; c < RUN_N; ++c)
        s.v[c] = src[c];
    for (int k = 0; k < VN; ++k)
        for (int c = 0; c < RUN_N; ++c)
            d.u[k * RUN_N + c] = s.u[c * VN + k];
    for (int j = 0; j < RUN_N; ++j)
        dst[j] = d.v[j];
#endif
}

/* The VN positions from w of an interleaved line: RUN_N vector loads, the
 * permutation above, RUN_N vector stores (16-byte aligned in INTERLEAVE 2). */
static void interleave_at(__global UNIT_T *out, __global const UNIT_T *in, long w, long is)
{
    VEC_T src[RUN_N], dst[RUN_N];
#pragma unroll
    for (int c = 0; c < RUN_N; ++c)
        src[c] = *(__global const IL_UNALIGNED *)(in + w + c * is);
    interleave_block(dst, src);
    __global UNIT_T *o = out + w * RUN_N;
#pragma unroll
    for (int j = 0; j < RUN_N; ++j)
#if INTERLEAVE == 2
        PUT((__global VEC_T *)o + j, dst[j]);
#else
        ((__global IL_UNALIGNED *)o)[j] = dst[j];
#endif
}

/*
 * Positions [w, we) of an interleaved line: out[k * RUN_N + c] = in[k + c *
 * is], whole blocks of VN positions through registers. A tail after at
 * least one block is one more block ending at we, overlapping the one before
 * (its units written twice, with the same values, by this work-item; the
 * loads stay inside the streams' spans; aligned in INTERLEAVE 2, whose rows
 * are whole vectors); a range under a block goes unit by unit.
 */
static void interleave_line(__global UNIT_T *out, __global const UNIT_T *in, long w, long we,
                            long is)
{
    long first = w;
    for (; w + VN <= we; w += VN)
        interleave_at(out, in, w, is);
    if (w < we && we - VN >= first) {
        interleave_at(out, in, we - VN, is);
        return;
    }
    for (; w < we; ++w)
        for (int c = 0; c < RUN_N; ++c)
#if INTERLEAVE == 2
            PUT(out + w * RUN_N + c, in[w + c * is]);
#else
            out[w * RUN_N + c] = in[w + c * is];
#endif
}
#endif

#if DEINTERLEAVE
/*
 * The inverse permutation: RUN_N source vectors (VN positions of RUN_N
 * interleaved streams) to one vector per stream, stream c unit k = source
 * unit g = k * RUN_N + c (vector g / VN). RUN_N 2, 4 or 8: log2(RUN_N)
 * rounds taking the even and the odd units of vectors 2k and 2k + 1 (the
 * inverse of INTERLEAVE's zip rounds); otherwise stream c is built from
 * sources 0 and 1, then each further source overwrites its units. Without
 * the shuffles (Oclgrind, see above) the same permutation in private memory.
 */
#if IL_SHUFFLE
#define DL_G(c, k) (IL_J(c) + (k)*RUN_N)
#define DL_FIRST(c, unused, k) (DL_G(c, k) < 2 * VN ? DL_G(c, k) : -1)
#define DL_NEXT(c, s, k) (DL_G(c, k) / VN == (s) ? VN + DL_G(c, k) % VN : (k))
#define DL_STEP(v, c, s, acc)                                                                 \
    ((s) < RUN_N                                                                              \
         ? __builtin_shufflevector((acc), (v)[(s) < RUN_N ? (s) : 0], IL_LIST(DL_NEXT, c, s)) \
         : (acc))
#define DL_OUT(v, c)                                                     \
    DL_STEP(                                                             \
        v, c, 7,                                                         \
        DL_STEP(v, c, 6,                                                 \
                DL_STEP(v, c, 5,                                         \
                        DL_STEP(v, c, 4,                                 \
                                DL_STEP(v, c, 3,                         \
                                        DL_STEP(v, c, 2,                 \
                                                __builtin_shufflevector( \
                                                    (v)[0], (v)[1], IL_LIST(DL_FIRST, c, 0))))))))
#endif

static void deinterleave_block(VEC_T *dst, const VEC_T *src)
{
#if IL_SHUFFLE && (RUN_N == 2 || RUN_N == 4 || RUN_N == 8)
    VEC_T r[RUN_N];
#pragma unroll
    for (int c = 0; c < RUN_N; ++c)
        r[c] = src[c];
#pragma unroll
    for (int round = 1; round < RUN_N; round *= 2) {
#pragma unroll
        for (int k = 0; k < RUN_N / 2; ++k) {
            dst[k] = __builtin_shufflevector(r[2 * k], r[2 * k + 1], IL_LIST(IL_EVEN, 0, 0));
            dst[k + RUN_N / 2] =
                __builtin_shufflevector(r[2 * k], r[2 * k + 1], IL_LIST(IL_ODD, 0, 0));
        }
#pragma unroll
        for (int k = 0; k < RUN_N; ++k)
            r[k] = dst[k];
    }
#elif IL_SHUFFLE
    dst[0] = DL_OUT(src, 0);
    dst[1] = DL_OUT(src, 1);
    dst[2] = DL_OUT(src, 2);
#if RUN_N > 3
    dst[3] = DL_OUT(src, 3);
#endif
#if RUN_N > 4
    dst[4] = DL_OUT(src, 4);
#endif
#if RUN_N > 5
    dst[5] = DL_OUT(src, 5);
#endif
#if RUN_N > 6
    dst[6] = DL_OUT(src, 6);
#endif
#else
    union {
        VEC_T v[RUN_N];
        UNIT_T u[RUN_N * VN];
    } s, d;
    for (int c = 0; c < RUN_N; ++c)
        s.v[c] = src[c];
    for (int c = 0; c < RUN_N; ++c)
        for (int k = 0; k < VN; ++k)
            d.u[c * VN + k] = s.u[k * RUN_N + c];
    for (int c = 0; c < RUN_N; ++c)
        dst[c] = d.v[c];
#endif
}

/* Positions [w, w + VN) of a deinterleaved line: RUN_N vector loads of
 * one input line, the permutation above, a vector store to each stream. */
static void deinterleave_at(__global UNIT_T *out, __global const UNIT_T *in, long w, long cs)
{
    VEC_T src[RUN_N], dst[RUN_N];
    __global const IL_UNALIGNED *s = (__global const IL_UNALIGNED *)(in + w * RUN_N);
#pragma unroll
    for (int c = 0; c < RUN_N; ++c)
        src[c] = s[c];
    deinterleave_block(dst, src);
#pragma unroll
    for (int c = 0; c < RUN_N; ++c)
#if DEINTERLEAVE == 2
        PUT((__global VEC_T *)(out + w + c * cs), dst[c]);
#else
        *(__global IL_UNALIGNED *)(out + w + c * cs) = dst[c];
#endif
}

/*
 * Positions [w, we) of a deinterleaved line: out[k + c * cs] = in[k * RUN_N
 * + c], whole blocks of VN positions (16-byte aligned stores when w is a
 * multiple of VN). DEINTERLEAVE 1: a tail after at least one block is one
 * more block ending at we, overlapping the one before (its units written
 * twice, with the same values, by this work-item); a range under a block
 * goes unit by unit. DEINTERLEAVE 2 has no tail (rows and chunks are whole
 * vectors).
 */
#define LINE_BLOCKS ((int)(64 / sizeof(VEC_T)))
static void deinterleave_line(__global UNIT_T *out, __global const UNIT_T *in, long w, long we,
                              long cs)
{
    long first = w;
#if DEINTERLEAVE == 2 && STREAM
    /* Where every stream's lines start together: a 64-byte line of each
     * stream from 64 / sizeof(VEC_T) blocks (non-temporal; block by block
     * until the first boundary). */
    if ((cs * sizeof(UNIT_T)) % 64 == 0) {
        for (; w + VN <= we && ((ulong)(out + w) & 63) != 0; w += VN)
            deinterleave_at(out, in, w, cs);
        for (; w + LINE_BLOCKS * VN <= we; w += LINE_BLOCKS * VN) {
            union {
                VEC_T v[LINE_BLOCKS];
                uint16 l;
            } line[RUN_N];
            for (int b = 0; b < LINE_BLOCKS; ++b) {
                VEC_T src[RUN_N], dst[RUN_N];
                __global const IL_UNALIGNED *s =
                    (__global const IL_UNALIGNED *)(in + (w + b * VN) * RUN_N);
#pragma unroll
                for (int c = 0; c < RUN_N; ++c)
                    src[c] = s[c];
                deinterleave_block(dst, src);
#pragma unroll
                for (int c = 0; c < RUN_N; ++c)
                    line[c].v[b] = dst[c];
            }
#pragma unroll
            for (int c = 0; c < RUN_N; ++c)
                PUT((__global uint16 *)(out + w + c * cs), line[c].l);
        }
    }
#endif
    for (; w + VN <= we; w += VN)
        deinterleave_at(out, in, w, cs);
#if DEINTERLEAVE == 1
    if (w < we && we - VN >= first) {
        deinterleave_at(out, in, we - VN, cs);
        return;
    }
#endif
    (void)first;
    for (; w < we; ++w)
        for (int c = 0; c < RUN_N; ++c)
#if DEINTERLEAVE == 2
            PUT(out + w + c * cs, in[w * RUN_N + c]);
#else
            out[w + c * cs] = in[w * RUN_N + c];
#endif
}
#endif

#ifndef STRIDED
#define STRIDED 0
#endif
#if STRIDED
/*
 * Output line w (SV_N units from run position w) of a run read at input
 * stride RUN_IS_K from in: one load (-1) or two (+-2) of SV_N units covering
 * its span, then one shuffle. Stride 2 loads [2w, 2w + 2 SV_N) and -2 loads
 * (-2w - 2 SV_N, -2w]: one unit past the span's far end, which is past the
 * run's for its last line: that one loads one unit toward the run's start
 * instead (put_strided_last). Clang's shuffle builtin with constant
 * masks where the compiler optimises; else (Oclgrind, -cl-opt-disable: see
 * INTERLEAVE's note) the same loads and a permutation in private memory.
 */
#if defined(__clang__) && defined(__has_builtin) && defined(__OPTIMIZE__)
#if __has_builtin(__builtin_shufflevector)
#define SV_SHUFFLE 1
#endif
#endif
#ifndef SV_SHUFFLE
#define SV_SHUFFLE 0
#endif
#define SV_8(M, b) M(b), M(b + 1), M(b + 2), M(b + 3), M(b + 4), M(b + 5), M(b + 6), M(b + 7)
#define SV_16(M, b) SV_8(M, b), SV_8(M, b + 8)
#define SV_32(M, b) SV_16(M, b), SV_16(M, b + 16)
#if SV_N == 64
#define SV_LIST(M) SV_32(M, 0), SV_32(M, 32)
#elif SV_N == 32
#define SV_LIST(M) SV_32(M, 0)
#elif SV_N == 16
#define SV_LIST(M) SV_16(M, 0)
#else
#define SV_LIST(M) SV_8(M, 0)
#endif
/* A whole line of units (Clang's vector extension: OpenCL C has no 32 or 64 lanes). */
typedef UNIT_T SV_T __attribute__((ext_vector_type(SV_N)));
/* Lane e of the output: its unit in the loaded pair (a, b), or in a alone;
 * S = 1 shifts a stride-2 pair one unit toward the run's start. */
#if RUN_IS_K == 2
#define SV_LANE(e, S) (2 * (e) + (S))
#elif RUN_IS_K == -2
#define SV_LANE(e, S) (2 * SV_N - 1 - 2 * (e) - (S))
#else
#define SV_LANE(e, S) (SV_N - 1 - (e))
#endif
#define SV_LANE0(e) SV_LANE(e, 0)
#define SV_LANE1(e) SV_LANE(e, 1)
typedef SV_T __attribute__((aligned(sizeof(UNIT_T)))) SV_UNALIGNED;

/* The loads of output vector w: a (and b), from unit p of in. */
#if RUN_IS_K == 2
#define SV_FIRST(w, S) (2 * (w) - (S))
#elif RUN_IS_K == -2
#define SV_FIRST(w, S) (-2 * (w) - (2 * SV_N - 1) + (S))
#else
#define SV_FIRST(w, S) (-(w) - (SV_N - 1))
#endif
#if RUN_IS_K == -1
#define SV_LOAD(in, w, S, a, b) (b = a = *(__global const SV_UNALIGNED *)((in) + SV_FIRST(w, S)))
#else
#define SV_LOAD(in, w, S, a, b)                                   \
    (a = *(__global const SV_UNALIGNED *)((in) + SV_FIRST(w, S)), \
     b = *(__global const SV_UNALIGNED *)((in) + SV_FIRST(w, S) + SV_N))
#endif

/*
 * put_strided(d, in, w) / put_strided_last: output vector w (its span's loads, then its lanes
 * picked) stored at d (line-aligned); _last shifts the loads one unit toward the run's start
 * (w >= 1). A whole line never crosses a call by value: a 64-byte vector passed or returned
 * by value changes the x86-64 ABI below AVX-512 (scripts/kernel-targets).
 */
#if SV_SHUFFLE
#define SV_PUT(name, S)                                                     \
    static void name(__global UNIT_T *d, __global const UNIT_T *in, long w) \
    {                                                                       \
        SV_T a, b;                                                          \
        SV_LOAD(in, w, S, a, b);                                            \
        SV_T line = __builtin_shufflevector(a, b, SV_LIST(SV_LANE##S));     \
        PUT((__global SV_T *)d, line);                                      \
    }
#else
/* The loaded pair and the line in private memory, lanes moved one by one. */
typedef union {
    SV_T v[2];
    UNIT_T u[2 * SV_N];
} sv_pair;
static void strided_permute(__global UNIT_T *d, const sv_pair *s, int shift)
{
    union {
        SV_T v;
        UNIT_T u[SV_N];
    } o;
    for (int e = 0; e < SV_N; ++e)
        o.u[e] = s->u[SV_LANE(e, shift)];
    PUT((__global SV_T *)d, o.v);
}
#define SV_PUT(name, S)                                                     \
    static void name(__global UNIT_T *d, __global const UNIT_T *in, long w) \
    {                                                                       \
        sv_pair p;                                                          \
        SV_LOAD(in, w, S, p.v[0], p.v[1]);                                  \
        strided_permute(d, &p, S);                                          \
    }
#endif
SV_PUT(put_strided, 0)
SV_PUT(put_strided_last, 1)

/*
 * Run positions [u, end) of a run of `run` units: out[u] = in[u * RUN_IS_K].
 * Units up to the output's first line boundary go one by one, then whole
 * lines (each line's input span loaded once, every loaded line's units
 * used), then the tail one by one.
 */
static void strided_run(__global UNIT_T *out, __global const UNIT_T *in, long u, long end, long run)
{
    long vend = RUN_IS_K != -1 && end == run ? end - 1 : end;
    long head = min(end, u + LINE_GAP(out + u));
    for (; u < head; ++u)
        PUT(out + u, in[u * RUN_IS_K]);
    for (; u + SV_N <= vend; u += SV_N)
        put_strided(out + u, in, u);
    if (RUN_IS_K != -1 && u > 0 && u + SV_N <= end) {
        put_strided_last(out + u, in, u);
        u += SV_N;
    }
    for (; u < end; ++u)
        PUT(out + u, in[u * RUN_IS_K]);
}
#endif

__kernel void view_copy(__global UNIT_T *out, long out_base, __global const UNIT_T *in,
                        long in_base, __constant long *shape)
{
    int outer_rank = (int)shape[DMLI_VIEW_OUTER_RANK];
    long run = shape[DMLI_VIEW_RUN], run_os = shape[DMLI_VIEW_RUN_OS],
         run_is = shape[DMLI_VIEW_RUN_IS], chunk = shape[DMLI_VIEW_CHUNK];
    ulong rows = (ulong)shape[DMLI_VIEW_ROWS];
    int rep_rank = (int)shape[DMLI_VIEW_REP_RANK];
    ulong reps = (ulong)shape[DMLI_VIEW_REPS],
          reps_per_item = (ulong)shape[DMLI_VIEW_REPS_PER_ITEM],
          rows_per_item = (ulong)shape[DMLI_VIEW_ROWS_PER_ITEM];
    __constant long *dims = shape + DMLI_SHAPE_HEADER;
#if TRANSPOSE == 3
    __local UNIT_T tiles[GROUP_ROWS * GROUP_TILE_UNITS];
#endif
    (void)run_os, (void)run_is, (void)rep_rank, (void)reps, (void)reps_per_item,
        (void)rows_per_item;
    long at[MAX_DIMS];
    long o = out_base, i = in_base;
#if TRANSPOSE == 3
    /* A work-group per GROUP_ROWS tiles (GPUs): tile rows (the rows count
     * SIDE-unit tiles of dims[0], whose real size and output stride follow
     * the rows in dims) along group dimension 0, the run's chunks along 2;
     * each tile's GROUP_LANES items resolve its row once. Every item
     * reaches group_tile's barrier. */
    {
        int k = (int)get_local_id(0) / GROUP_LANES;
        ulong r = get_group_id(0) * GROUP_ROWS + k;
        long begin = (long)get_group_id(2) * CHUNK_MAX;
        int tw = 0;
        long os0 = 0;
        if (r < rows) {
            view_row_start(dims, outer_rank, r, at, &o, &i);
            long n0 = dims[DMLI_VIEW_DIM * outer_rank];
            os0 = dims[DMLI_VIEW_DIM * outer_rank + 1];
            tw = (int)min((long)SIDE, n0 - at[0] * SIDE);
        }
        group_tile(tiles + k * GROUP_TILE_UNITS, out, o, os0, in, i, run_is, begin,
                   (int)min((long)CHUNK_MAX, run - begin), tw, false);
        return;
    }
#endif
    ulong item = get_global_id(2);
    long begin = (long)get_global_id(1) * chunk;
    long end = min(begin + chunk, run);
    long lane = LANE, lanes = LANES;
#if INTERLEAVE
    if (begin > 0 && begin >= dims[DMLI_VIEW_DIM * outer_rank])
        return; /* a chunk id rounded up to the group's span */
#else
    if (begin > 0 && begin >= run)
        return; /* a chunk id rounded up to the group's span */
#endif
#if REPEAT
    ulong groups = div_narrow(reps + reps_per_item - 1, reps_per_item);
    if (item >= rows * groups)
        return;
    ulong group = div_narrow(item, rows);
    view_row_start(dims, outer_rank, item - group * rows, at, &o, &i);
    __constant long *rep = dims + DMLI_VIEW_DIM * outer_rank;
    ulong r0 = group * reps_per_item, r1 = min(r0 + reps_per_item, reps);
    long first[MAX_DIMS];
    long first_off = repeat_first(rep, rep_rank, r0, first);
#if SPLAT
    VAL_T v = LOAD(i);
    long off = first_off;
    for (int d = 0; d < rep_rank; ++d)
        at[d] = first[d];
    for (ulong r = r0; r < r1; ++r, off = repeat_next(rep, rep_rank, at, off))
        splat_run(out, o + off, v, begin, end, lane, lanes, run_os);
#elif STREAM && SERIAL && FAST
    /* Each repeat's copy of the chunk in turn, stored as whole 64-byte lines
     * (non-temporal) from its own first line boundary: the chunk is read from
     * memory once, then from the cache. */
    long off = first_off;
    for (int d = 0; d < rep_rank; ++d)
        at[d] = first[d];
    for (ulong r = r0; r < r1; ++r, off = repeat_next(rep, rep_rank, at, off))
        copy_lines(out + o + off, in + i, begin, end);
#else
    for (long t = begin + lane; t < end; t += TILE * lanes) {
        /* The tile's units loaded under a test each (a constant index: registers), all before
         * the first store: a GPU waits at a load's first use, so a counted loop that stored
         * each unit into the private tile as it came had one load in flight. */
        VAL_T tile[TILE];
        int n = (int)min((long)TILE, (end - t + lanes - 1) / lanes);
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            if (k < n)
                tile[k] = LOAD(i + (t + k * lanes) * RUN_IS);
        long off = first_off;
        for (int d = 0; d < rep_rank; ++d)
            at[d] = first[d];
        for (ulong r = r0; r < r1; ++r, off = repeat_next(rep, rep_rank, at, off)) {
#pragma unroll
            for (int k = 0; k < TILE; ++k)
                if (k < n)
                    STORE(o + off + (t + k * lanes) * RUN_OS, tile[k]);
        }
    }
#endif
#elif INTERLEAVE
    /* The interleaved dimension follows the rows in dims; this chunk of it
     * in each of rows_per_item rows. */
    ulong r = item * rows_per_item;
    if (r >= rows)
        return;
    ulong stop = min(r + rows_per_item, rows);
    view_row_start(dims, outer_rank, r, at, &o, &i);
    long wn = dims[DMLI_VIEW_DIM * outer_rank], we = min(begin + chunk, wn);
    for (;;) {
        interleave_line(out + o, in + i, begin, we, run_is);
        if (++r >= stop)
            break;
        view_row_next(dims, outer_rank, at, &o, &i);
    }
#elif DEINTERLEAVE
    /* The streams' dimension {RUN_N, cs, 1} follows the rows in dims; this
     * chunk of the run in each of rows_per_item rows. */
    ulong r = item * rows_per_item;
    if (r >= rows)
        return;
    ulong stop = min(r + rows_per_item, rows);
    view_row_start(dims, outer_rank, r, at, &o, &i);
    long cs = dims[DMLI_VIEW_DIM * outer_rank + 1];
    for (;;) {
        deinterleave_line(out + o, in + i, begin, end, cs);
        if (++r >= stop)
            break;
        view_row_next(dims, outer_rank, at, &o, &i);
    }
#elif TRANSPOSE && TRANSPOSE != 3
    /* Rows here are tiles: dims[0] counts the SIDE-unit tiles of the
     * innermost row dimension (input stride 1), whose real size and output
     * stride follow the rows in dims. A tile is SIDE of its units x this
     * chunk of the run (output stride 1); the last tile of a line may be
     * narrower. */
    ulong r = item * rows_per_item;
    if (r >= rows)
        return;
    ulong stop = min(r + rows_per_item, rows);
    view_row_start(dims, outer_rank, r, at, &o, &i);
    long n0 = dims[DMLI_VIEW_DIM * outer_rank], os0 = dims[DMLI_VIEW_DIM * outer_rank + 1];
    int nc = (int)(end - begin);
#if TILE_PREFETCH
    /* A second odometer TILE_PREFETCH tiles on, across line and item ends
     * (inside the tensor): the tile whose lines this one prefetches. */
    ulong rp = r;
    long atp[MAX_DIMS], op = o, ip = i;
    for (int d = 0; d < outer_rank; ++d)
        atp[d] = at[d];
    for (; rp < r + TILE_PREFETCH && rp + 1 < rows; ++rp)
        view_row_next(dims, outer_rank, atp, &op, &ip);
#endif
    for (;;) {
        int tw = (int)min((long)SIDE, n0 - at[0] * SIDE);
        long pf = -1, po = -1;
        int pw = 0;
#if TILE_PREFETCH
        if (rp > r)
            pf = ip, po = op, pw = (int)min((long)SIDE, n0 - atp[0] * SIDE);
        if (rp + 1 < rows) {
            view_row_next(dims, outer_rank, atp, &op, &ip);
            ++rp;
        }
#endif
        transpose_tile(out, o, os0, in, i, run_is, begin, nc, tw, pf, po, pw);
        if (++r >= stop)
            break;
        view_row_next(dims, outer_rank, at, &o, &i);
    }
#else
    ulong r = item * rows_per_item;
    if (r >= rows)
        return;
    ulong last = min(r + rows_per_item, rows) - 1;
    view_row_start(dims, outer_rank, r, at, &o, &i);
    /* The innermost row dimension steps in registers; carries are rare. */
    long n0 = outer_rank ? dims[0] : 1, os0 = outer_rank ? dims[1] : 0,
         is0 = outer_rank ? dims[2] : 0;
    for (;; ++r) {
#if SPLAT
        splat_run(out, o, LOAD(i), begin, end, lane, lanes, run_os);
#elif STRIDED
        strided_run(out + o, in + i, begin, end, run);
#else
#if STREAM && FAST && SERIAL
        if (COPY_LINES)
            copy_lines(out + o, in + i, begin, end);
        else
#endif
            RUN_STORE(out + o, begin, end, LOAD(i + u * RUN_IS));
#endif
        if (r == last)
            break;
        o += os0;
        i += is0;
        if (++at[0] == n0) {
            at[0] = 0;
            o -= n0 * os0;
            i -= n0 * is0;
            view_row_next(dims + DMLI_VIEW_DIM, outer_rank - 1, at + 1, &o, &i);
        }
    }
#endif
}
