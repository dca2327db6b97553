/* SPDX-License-Identifier: MIT */
/*
 * transpose.cl: the layout-change tile both families share (view.cl's
 * TRANSPOSE, indexed.cl's TRANSPOSE: a gather whose inner dimensions are a
 * transpose). Included after common.cl; cmake/embed_kernels.cmake pastes the
 * text in its place.
 *
 * A tile is tw (at most SIDE) units along the input-contiguous dimension x
 * nc (at most CHUNK_MAX) units of the run, the output-contiguous dimension:
 * whole cache lines on each side, instead of one line per element.
 *
 * Macros (code generation only; defaults in brackets):
 *   TRANSPOSE  0: none, 1: through a private tile, 2: VN x VN register
 *              blocks (VEC_T, VLOAD) where output rows and the run are whole
 *              16-byte vectors, 3 (GPUs): a work-group's tile through local
 *              memory (group_tile: GROUP_ROWS tiles of SIDE x CHUNK_MAX
 *              units, powers of two) [0]
 *   SIDE       units of a tile along the input-contiguous dimension [16]
 *   CHUNK_MAX  units of a tile along the run [SIDE]
 *   VN, VEC_T, VLOAD  TRANSPOSE 2: units per 16 bytes, their vector type and
 *              its load (uint4 and vload4 for 4-byte units, ...)
 *   TILE_PREFETCH  tiles ahead along the line whose input lines a tile
 *              prefetches (__builtin_prefetch: devices whose compiler takes
 *              it); 0: none [0]
 * When the host picks each tile, and the measurements behind it:
 * docs/kernels.md.
 */
#ifndef DMLI_TRANSPOSE_CL
#define DMLI_TRANSPOSE_CL

#ifndef TRANSPOSE
#define TRANSPOSE 0
#endif
#ifndef SIDE
#define SIDE 16
#endif
#ifndef CHUNK_MAX
#define CHUNK_MAX SIDE
#endif
#ifndef TILE_PREFETCH
#define TILE_PREFETCH 0
#endif

#if TRANSPOSE == 2
/* Interleaving the low (ZIP_LO) or high (ZIP_HI) halves of two VN-unit
 * vectors: Clang's shuffle builtin where there is one (PoCL's shuffle2 on
 * uchar16 is a library call), shuffle2 elsewhere. */
#if VN == 16
#define LO_IDX 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define HI_IDX 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#elif VN == 8
#define LO_IDX 0, 8, 1, 9, 2, 10, 3, 11
#define HI_IDX 4, 12, 5, 13, 6, 14, 7, 15
#elif VN == 4
#define LO_IDX 0, 4, 1, 5
#define HI_IDX 2, 6, 3, 7
#elif VN == 2
#define LO_IDX 0, 2
#define HI_IDX 1, 3
#endif
#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define ZIP_LO(a, b) __builtin_shufflevector((a), (b), LO_IDX)
#define ZIP_HI(a, b) __builtin_shufflevector((a), (b), HI_IDX)
#endif
#endif
#ifndef ZIP_LO
#define ZIP_LO(a, b) shuffle2((a), (b), (VEC_T)(LO_IDX))
#define ZIP_HI(a, b) shuffle2((a), (b), (VEC_T)(HI_IDX))
#endif

/*
 * A VN x VN block (VN units = 16 bytes) transposed in registers: VN vector
 * loads along the input rows, log2(VN) rounds of interleaving row k with row
 * k + VN/2, VN vectors out, qs vectors apart.
 */
static void transpose_block(VEC_T *q, int qs, __global const UNIT_T *p, long is)
{
#if VN == 1
    *q = *p;
#else
    VEC_T r[VN], t[VN];
#pragma unroll
    for (int k = 0; k < VN; ++k)
        r[k] = VLOAD(0, p + k * is);
#pragma unroll
    for (int round = 1; round < VN; round *= 2) {
#pragma unroll
        for (int k = 0; k < VN / 2; ++k) {
            t[2 * k] = ZIP_LO(r[k], r[k + VN / 2]);
            t[2 * k + 1] = ZIP_HI(r[k], r[k + VN / 2]);
        }
#pragma unroll
        for (int k = 0; k < VN; ++k)
            r[k] = t[k];
    }
#pragma unroll
    for (int j = 0; j < VN; ++j)
        q[j * qs] = r[j];
#endif
}
#endif

#if TRANSPOSE == 3
/*
 * A work-group of GROUP_ITEMS items moves GROUP_ROWS tiles (consecutive
 * tile rows), GROUP_LANES items each; a tile is out[o + w * os + begin + c]
 * = in[i + w + (begin + c) * is] for w < tw (at most SIDE), c < nc (at most
 * CHUNK_MAX), both powers of two. A tile's items first walk it in input
 * order (w fastest: a warp reads whole input rows), then, after the
 * barrier, in output order (c fastest: a warp writes whole output rows, or
 * one span where output rows are CHUNK_MAX apart). The local tile is laid
 * out along its longer side (GROUP_AT: w fastest where SIDE >= CHUNK_MAX,
 * else c fastest), its rows padded by GROUP_PAD of the shorter side: 32 /
 * n bank words (1 from n = 32 on; a word is 4 bytes, 4 / sizeof(UNIT_T)
 * narrow units), so a warp's units in either order (32 along the long
 * side, or n x 32 / n across rows) sit in distinct banks. (Rows of SIDE +
 * 32 / CHUNK_MAX units in every case put space-to-depth's stores, SIDE 2
 * or 4, and the f16 and u8 transposes' loads, a column's units in pairs of
 * one word, 2 to 4 wavefronts a request: the GPU memory model, docs/kernels.md.)
 * Every item reaches the barrier: the bounds only guard loads and stores
 * (tw is 0 for a tile past the last). zero: the tile is zeros, nothing is
 * read (a gather's index out of range under ZERO or ERROR). tile: this
 * tile's GROUP_TILE_UNITS of the kernel's __local array (OpenCL C 1.2
 * declares local memory in kernels only).
 */
#define GROUP_ITEMS 256
#ifndef GROUP_ROWS
#define GROUP_ROWS 1
#endif
#define GROUP_LANES (GROUP_ITEMS / GROUP_ROWS)
/* Units of a 4-byte bank word (1 for units of 4 bytes or more); the padding
 * of rows whose other side is n. launch_tiles.c group_tiles_fit sizes the
 * same layout. */
#define GROUP_WORD_UNITS (sizeof(UNIT_T) < 4 ? (int)(4 / sizeof(UNIT_T)) : 1)
#define GROUP_PAD(n) (((n) >= 32 ? 1 : 32 / (n)) * GROUP_WORD_UNITS)
#if SIDE >= CHUNK_MAX
#define GROUP_STRIDE (SIDE + GROUP_PAD(CHUNK_MAX))
#define GROUP_TILE_UNITS (CHUNK_MAX * GROUP_STRIDE)
#define GROUP_AT(c, w) (GROUP_STRIDE * (c) + (w))
#else
#define GROUP_STRIDE (CHUNK_MAX + GROUP_PAD(SIDE))
#define GROUP_TILE_UNITS (SIDE * GROUP_STRIDE)
#define GROUP_AT(c, w) (GROUP_STRIDE * (w) + (c))
#endif
#define GROUP_ROUNDS ((SIDE * CHUNK_MAX + GROUP_LANES - 1) / GROUP_LANES)
static void group_tile(__local UNIT_T *tile, __global UNIT_T *out, long o, long os,
                       __global const UNIT_T *in, long i, long is, long begin, int nc, int tw,
                       bool zero)
{
    int lane = (int)get_local_id(0) % GROUP_LANES;
    /* Each side's units are all loaded before the first is stored: a GPU issues in order
     * and waits at the first use of a load, so a load stored at once left one unit in flight
     * an item (the GPU memory model's batches, docs/kernels.md). */
    UNIT_T v[GROUP_ROUNDS];
#pragma unroll
    for (int k = 0; k < GROUP_ROUNDS; ++k) {
        int t = lane + k * GROUP_LANES, c = t / SIDE, w = t % SIDE;
        if (c < nc && w < tw)
            v[k] = zero ? (UNIT_T)0 : in[i + w + (begin + c) * is];
    }
#pragma unroll
    for (int k = 0; k < GROUP_ROUNDS; ++k) {
        int t = lane + k * GROUP_LANES, c = t / SIDE, w = t % SIDE;
        if (c < nc && w < tw)
            tile[GROUP_AT(c, w)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < GROUP_ROUNDS; ++k) {
        int t = lane + k * GROUP_LANES, w = t / CHUNK_MAX, c = t % CHUNK_MAX;
        if (c < nc && w < tw)
            v[k] = tile[GROUP_AT(c, w)];
    }
#pragma unroll
    for (int k = 0; k < GROUP_ROUNDS; ++k) {
        int t = lane + k * GROUP_LANES, w = t / CHUNK_MAX, c = t % CHUNK_MAX;
        if (c < nc && w < tw)
            PUT(out + o + w * os + begin + c, v[k]);
    }
}
#elif TRANSPOSE
/* Prefetches the lines at in[a + c * is], c < n (TILE_PREFETCH; a no-op without). */
static void prefetch_rows(__global const UNIT_T *in, long a, long is, int n)
{
#if TILE_PREFETCH
    for (int c = 0; c < n; ++c)
        __builtin_prefetch(in + a + c * is);
#else
    (void)in, (void)a, (void)is, (void)n;
#endif
}

/* Prefetches for writing the lines of out[a + w * os + c], w < n, c < nc
 * (TILE_PREFETCH without STREAM: plain stores whose lines would be fetched
 * on the first store). */
static void prefetch_out(__global UNIT_T *out, long a, long os, int n, int nc)
{
#if TILE_PREFETCH && !STREAM
    for (int w = 0; w < n; ++w)
        for (int c = 0; c < nc; c += 64 / (int)sizeof(UNIT_T))
            __builtin_prefetch(out + a + w * os + c, 1);
#else
    (void)out, (void)a, (void)os, (void)n, (void)nc;
#endif
}

/* Output rows a page or more apart take register blocks' rows directly
 * (TRANSPOSE 2 with blocks of at most 4 rows; see transpose_tile). */
#if TRANSPOSE == 2 && VN <= 4
#define DIRECT_ROWS 1
#else
#define DIRECT_ROWS 0
#endif

/*
 * One tile: out[o + w * os + begin + c] = in[i + w + (begin + c) * is] for
 * w < tw, c < nc. Whole tiles (TRANSPOSE 2) go through register blocks into
 * a private tile, then out in whole output rows, in order, so each line is
 * complete while its write-combining buffer is open; where output rows are a
 * page or more apart (DIRECT_ROWS), each block's rows go out as they are
 * (no private tile: NHWC -> NCHW f32 1.37x, dmlcl-ab on PoCL; with 8 or 16
 * rows a block, u8 and f16, 3x slower), and so do tiles of one line per
 * output row (CHUNK_MAX: launch.c transpose_chunk; [32,48,112,112] f32
 * 1.07x, f64 1.09x). The rest through a private tile of units.
 * TILE_PREFETCH: pf and po (>= 0; -1: none) are the input and output
 * offsets of a tile further on (pw units wide; the callers' second
 * odometer), whose input lines of this chunk are prefetched (block by block
 * for register-block tiles, all first otherwise) and, without STREAM, whose
 * output lines are prefetched for writing (the layout-slice-gather chain,
 * 6 MB of output, 1.08x: its plain stores' lines came in one by one).
 */
static void transpose_tile(__global UNIT_T *out, long o, long os, __global const UNIT_T *in, long i,
                           long is, long begin, int nc, int tw, long pf, long po, int pw)
{
    if (po >= 0)
        prefetch_out(out, po + begin, os, pw, nc);
#if TRANSPOSE == 2
#if DIRECT_ROWS
    long direct_from = CHUNK_MAX * sizeof(UNIT_T) <= 64 ? 0 : 4096; /* bytes between output rows */
    if (tw == SIDE && os * (long)sizeof(UNIT_T) >= direct_from) {
        if (pf >= 0)
            prefetch_rows(in, pf + begin * is, is, nc);
        for (int w = 0; w < SIDE; w += VN)
            for (int c = 0; c < nc; c += VN) {
                VEC_T q[VN];
                transpose_block(q, 1, in + i + w + (begin + c) * is, is);
#pragma unroll
                for (int j = 0; j < VN; ++j)
                    PUT((__global VEC_T *)(out + o + (w + j) * os + begin + c), q[j]);
            }
        return;
    }
#endif
    if (tw == SIDE) {
        VEC_T tile[SIDE][CHUNK_MAX / VN];
        for (int c = 0; c < nc; c += VN) {
            if (pf >= 0)
                prefetch_rows(in, pf + (begin + c) * is, is, VN);
            for (int w = 0; w < SIDE; w += VN)
                transpose_block(&tile[w][c / VN], CHUNK_MAX / VN, in + i + w + (begin + c) * is,
                                is);
        }
        for (int w = 0; w < SIDE; ++w) {
            __global VEC_T *row = (__global VEC_T *)(out + o + w * os + begin);
            for (int c = 0; c < nc / VN; ++c)
                PUT(row + c, tile[w][c]);
        }
        return;
    }
#endif
    if (pf >= 0)
        prefetch_rows(in, pf + begin * is, is, nc);
    UNIT_T tile[SIDE][CHUNK_MAX];
    for (int c = 0; c < nc; ++c)
        for (int w = 0; w < tw; ++w)
            tile[w][c] = in[i + w + (begin + c) * is];
    for (int w = 0; w < tw; ++w)
        for (int c = 0; c < nc; ++c)
            PUT(out + o + w * os + begin + c, tile[w][c]);
}
#endif

#endif /* DMLI_TRANSPOSE_CL */
