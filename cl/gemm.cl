/* SPDX-License-Identifier: MIT */
/*
 * The matrix family: out[b, m, n] = ACTIVATE(alpha * sum_k A[b, m, k] * B[b, k, n]
 * + beta * C[b, m, n]), every tensor through its own strides (src/gemm.h; the host,
 * src/launch_gemm.c, fills the table: cl/abi.h DMLI_GEMM_*). Each output is summed over k in
 * order by one work-item (multiply-adds in float), so a device gives one result whatever the
 * launch; FLOAT16 tensors are read into float and the result rounded once.
 *
 * Two kernels:
 *   gemm_blocks (CPUs): a work-item computes an MR x (NV * VW) block of the output in
 *     registers: per k, NV vectors of VW values of B's row k and MR values of A's column k,
 *     MR * NV vector multiply-adds, where B's N stride is 1 (rows past M read row M - 1 and
 *     are not stored); the last columns, and B of another N stride, a scalar dot per output. The
 *     tensors are always A, B, C and the output: without C, A stands in for it, never read
 *     (the table's HAS_C); whether B and the output run along n by unit strides is read from
 *     the table too (branches outside the k loop), so variants differ only by type and
 *     activation.
 *   gemm_dots (CPUs, A's and B's k stride 1: B transposed): a work-item a DR x NJ block of
 *     dot products, VW lanes along k each, the lanes added by a fixed tree at the end.
 *   gemm_tiles (GPUs): a work-group of TX x TY items computes a (TY * WM) x (TX * WN) tile,
 *     stepping k by TK through A and B slabs staged in local memory, two of each (reads
 *     coalesced along the operand's unit stride where it has one), each item a WM x WN block
 *     in registers read from the slabs as float4 vectors (below, before the kernel).
 *
 * Macros (defaults build a valid program):
 *   HALF         1: the tensors are FLOAT16 (ushort storage), else FLOAT32
 *   ACT          the fused activation (cl/activation.cl), parameters in the table
 *   MR, NV, VW   gemm_blocks' block (VW 4, 8 or 16); DR, NJ: gemm_dots' block (VW lanes), DS
 *                blocks an item along n; one program has both kernels
 *   TX, TY, WM, WN, TK  gemm_tiles' tile (cl/tile.cl: defaults there)
 */
#include "abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef HALF
#define HALF 0
#endif
#ifndef MR
#define MR 4
#endif
#ifndef NV
#define NV 1
#endif
#ifndef VW
#define VW 8
#endif
#ifndef DR
#define DR 4
#endif
#ifndef NJ
#define NJ 4
#endif
#ifndef DS
#define DS 8
#endif
#ifndef KC
#define KC 128
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#define INT_COMPUTE 0
#include "activation.cl"
#include "half.cl"
#include "tile.cl"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, VW)
#define NB (NV * VW) /* gemm_blocks' columns */

/*
 * Vectors of VW floats without a vector-typed builtin call (vloadN, vstoreN, mad on floatN):
 * a call passing a 32- or 64-byte vector changes the ABI on targets without AVX or AVX-512
 * (scripts/kernel-targets builds every variant for each), while plain vector arithmetic,
 * element-wise construction and unions do not. VLOADS(p, i): p[i .. i + VW - 1] through
 * LOAD, each a scalar read (the compiler merges contiguous ones into one vector load);
 * VLOADL the same from local memory.
 */
#define VL4(L, p, i) L(p, (i)), L(p, (i) + 1), L(p, (i) + 2), L(p, (i) + 3)
#define VL8(L, p, i) VL4(L, p, i), VL4(L, p, (i) + 4)
#define VL16(L, p, i) VL8(L, p, i), VL8(L, p, (i) + 8)
#define VLOADS(p, i) ((VEC)(CAT(VL, VW)(LOAD, p, i)))
#define VLOADL(p, i) ((VEC)(CAT(VL, VW)(LLOAD, p, i))) /* local memory, float */
typedef union {
    VEC v;
    float f[VW];
} vec_lanes;

#if HALF
typedef ushort elem_t;
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#define STORE(p, i, v) dmli_store_half((p), (i), (v))
#else
typedef float elem_t;
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

#define PARAM(i) as_float((uint)t[i])
#define LLOAD(p, i) ((p)[i]) /* local memory, float */

/* acc + a * b (any of them vectors), contracted to one multiply-add where the device has one:
 * the FP_CONTRACT pragma is OFF for the file (the epilogue's activations count their
 * roundings) and ON only here. */
#define FMADD(a, b, acc)                                           \
    do {                                                           \
        _Pragma("OPENCL FP_CONTRACT ON")(acc) = (a) * (b) + (acc); \
    } while (0)

/* The batch coordinate's offset in each tensor (global id 2 over the batch dimensions). */
static void batch_offsets(__constant long *t, long bi, long *oa, long *ob, long *oc, long *oo)
{
    long rank = t[DMLI_GEMM_BATCH_RANK];
    for (long d = rank - 1; d >= 0; --d) {
        __constant long *e = t + DMLI_GEMM_HEADER + DMLI_GEMM_DIM * d;
        long size = e[0], x = bi % size;
        bi /= size;
        *oa += x * e[1];
        *ob += x * e[2];
        *oc += x * e[3];
        *oo += x * e[4];
    }
}

/* alpha * acc + beta * C, activated (C's value 0 where there is no C). */
static float epilogue(__constant long *t, float acc, float cv)
{
    COMPUTE_T g0 = PARAM(DMLI_GEMM_ACT), g1 = PARAM(DMLI_GEMM_ACT + 1),
              g2 = PARAM(DMLI_GEMM_ACT + 2);
    (void)g0, (void)g1, (void)g2;
    float y = PARAM(DMLI_GEMM_ALPHA) * acc;
    if (t[DMLI_GEMM_HAS_C])
        y = y + PARAM(DMLI_GEMM_BETA) * cv;
    return ACTIVATE(y);
}

/* The epilogue of one row of a block (width values at r, the first count of them inside the
 * output): alpha, beta times C, the activation, the stores, each in a loop of its own, so that
 * the activation's loop (no loads, no stores, a constant trip count) vectorises. One element at
 * a time between a C load and a store it did not: GELU fused into a 128 x 384 x 1536 GEMM took
 * 2.72 ms on PoCL against 0.67 without it (ACTIVATION_GELU on its own: 0.27). The same
 * operations in the same order as epilogue(): the same bits. */
static void epilogue_row(__constant long *t, const float *r, const int width, int count,
                         __global const elem_t *c, long c_at, long c_n, __global elem_t *o,
                         long o_at, long o_n, bool has_c)
{
    float y[NV * VW > NJ ? NV * VW : NJ];
    const float alpha = PARAM(DMLI_GEMM_ALPHA), beta = PARAM(DMLI_GEMM_BETA);
    COMPUTE_T g0 = PARAM(DMLI_GEMM_ACT), g1 = PARAM(DMLI_GEMM_ACT + 1),
              g2 = PARAM(DMLI_GEMM_ACT + 2);
    (void)g0, (void)g1, (void)g2;
    for (int j = 0; j < width; ++j)
        y[j] = alpha * r[j];
    if (has_c)
        for (int j = 0; j < count; ++j)
            y[j] = y[j] + beta * LOAD(c, c_at + j * c_n);
            /* Four vectors in flight: an activation's dependent chain (GELU's erfc, exp) left one
             * vector waiting on the last (GELU fused into a 1024 x 384 x 1536 GEMM 5.3 -> 4.1 ms).
             */
#if ACT != 0 && defined(__clang__)
#pragma clang loop interleave_count(4)
#endif
    for (int j = 0; j < width; ++j)
        y[j] = ACTIVATE(y[j]);
    for (int j = 0; j < count; ++j)
        STORE(o, o_at + j * o_n, y[j]);
}

#if ACT == 0 && !HALF
/* A whole block of float outputs, n-contiguous, without C or activation: alpha * acc stored
 * a vector at a time (epilogue_row's operations, the same bits; through the rows' arrays and
 * scalar stores a block cost as much as its multiply-adds when K is 64, attention's). */
#define PLAIN_BLOCK(m0, n0) (!t[DMLI_GEMM_HAS_C] && o_n == 1 && (n0) + NB <= N && (m0) + MR <= M)
static void store_plain(__constant long *t, VEC acc[MR][NV], __global elem_t *o, long at, long o_m)
{
    const float alpha = PARAM(DMLI_GEMM_ALPHA);
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            vec_lanes u = {alpha * acc[i][v]};
#pragma unroll
            for (int x = 0; x < VW; ++x)
                o[at + i * o_m + v * VW + x] = u.f[x];
        }
}
#else
#define PLAIN_BLOCK(m0, n0) false
#define store_plain(t, acc, o, at, o_m) ((void)0)
#endif

/* gemm_blocks' block where B does not run along n by unit strides (B transposed: attention's
 * K^T) or the block is the last along n: the work-group's items (blocks along m, all of one
 * n-block, so every item takes this path) first copy B's panel, KC rows of k at a time, into
 * local memory as rows of NV * VW values (columns past N repeat column N - 1, never stored),
 * then each item runs the vector loop over it. Every item takes part in the barriers (blocks
 * past M compute on clamped rows and store nothing). */
static void packed_block(__constant long *t, __global const elem_t *a, long oa,
                         __global const elem_t *b, long ob, __global const elem_t *c, long oc,
                         __global elem_t *o, long oo, long m0, long n0, __local float *panel)
{
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], a_k = t[DMLI_GEMM_A_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N];
    const int lid = (int)get_local_id(0), items = (int)get_local_size(0);
    long arow[MR];
#pragma unroll
    for (int i = 0; i < MR; ++i)
        arow[i] = oa + min(m0 + i, M - 1) * a_m;
    VEC acc[MR][NV];
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[i][v] = (VEC)0.0f;
    for (long k0 = 0; k0 < K; k0 += KC) {
        const int kc = (int)min((long)KC, K - k0);
        /* Column by column (B's unit stride is along k here, or neither runs by 1). */
        for (int j = lid; j < NV * VW; j += items) {
            __global const elem_t *col = b + ob + min(n0 + j, N - 1) * b_n + k0 * b_k;
            for (int kk = 0; kk < kc; ++kk)
                panel[kk * (NV * VW) + j] = LOAD(col, kk * b_k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < kc; ++kk) {
            VEC bv[NV];
#pragma unroll
            for (int v = 0; v < NV; ++v)
                bv[v] = VLOADL(panel, kk * NB + v * VW);
            long ak = (k0 + kk) * a_k;
#pragma unroll
            for (int i = 0; i < MR; ++i) {
                VEC av = (VEC)LOAD(a, arow[i] + ak);
#pragma unroll
                for (int v = 0; v < NV; ++v)
                    FMADD(av, bv[v], acc[i][v]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (m0 >= M)
        return;
    const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
               o_n = t[DMLI_GEMM_O_N];
    if (PLAIN_BLOCK(m0, n0)) {
        store_plain(t, acc, o, oo + m0 * o_m + n0, o_m);
        return;
    }
    const bool has_c = t[DMLI_GEMM_HAS_C] != 0;
    float res[MR][NV * VW];
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            vec_lanes u = {acc[i][v]};
#pragma unroll
            for (int x = 0; x < VW; ++x)
                res[i][v * VW + x] = u.f[x];
        }
    const int count = (int)min((long)(NV * VW), N - n0);
    for (int i = 0; i < MR && m0 + i < M; ++i) {
        long m = m0 + i;
        epilogue_row(t, res[i], NV * VW, count, c, oc + m * c_m + n0 * c_n, c_n, o,
                     oo + m * o_m + n0 * o_n, o_n, has_c);
    }
}

#ifndef PACKB
#define PACKB 0
#endif
#if PACKB
#define PACKB_ARGS , __global float *pk, long pk_base

/* B's own batch coordinate of batch coordinate bi: the batch dimensions along which B moves
 * (a non-zero stride; B broadcast along the others), the last the fastest. gemm_pack_b packs one
 * B a coordinate of these, get_global_id(2). */
static long b_batch(__constant long *t, long bi)
{
    long pb = 0, scale = 1;
    for (long d = t[DMLI_GEMM_BATCH_RANK] - 1; d >= 0; --d) {
        __constant long *e = t + DMLI_GEMM_HEADER + DMLI_GEMM_DIM * d;
        long size = e[0], x = bi % size;
        bi /= size;
        if (e[2] != 0) {
            pb += x * scale;
            scale *= size;
        }
    }
    return pb;
}

/* gemm_pack_b (PACKB): B as gemm_blocks reads it, [B's batch][n-block][k][NV * VW] floats,
 * columns past N repeating column N - 1; at initialization where B is owned by DML, else at
 * every dispatch into the temporary resource (src/launch_gemm.c says when). An item: n-block
 * get_global_id(0), DMLI_GEMM_PACK_KP rows of k from get_global_id(1) times that, B's batch
 * coordinate get_global_id(2) (b_batch()); a row's NB values read along n (B's unit stride,
 * where it has one) and stored side by side. B's columns come in groups of DMLI_GEMM_B_NL,
 * DMLI_GEMM_B_NH apart (a batch dimension joined to n: a strided 1x1 convolution's output rows,
 * launch_gemm.c fold_n); a block within one group reads as one, a block across groups through
 * each column's offset. */
__kernel void gemm_pack_b(__constant long *t, __global const elem_t *b, long b_base,
                          __global float *pk, long pk_base)
{
    const long N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N], kp = t[DMLI_GEMM_PACK_KP], nl = t[DMLI_GEMM_B_NL],
               b_nh = t[DMLI_GEMM_B_NH];
    const long blk = get_global_id(0), n0 = blk * NB, nblocks = (N + NB - 1) / NB;
    const long k_a = (long)get_global_id(1) * kp, k_b = min(k_a + kp, K);
    const int live = (int)min((long)NB, N - n0);
    /* B's batch coordinate: its offset along the dimensions B moves in. */
    long pb = get_global_id(2), ob = b_base;
    for (long d = t[DMLI_GEMM_BATCH_RANK] - 1; d >= 0; --d) {
        __constant long *e = t + DMLI_GEMM_HEADER + DMLI_GEMM_DIM * d;
        if (e[2] != 0) {
            ob += (pb % e[0]) * e[2];
            pb /= e[0];
        }
    }
    __global float *dst = pk + pk_base + (((long)get_global_id(2) * nblocks + blk) * K + k_a) * NB;
    /* A column's offset in B (its group's, then its place in the group); whether the block's
     * live columns are in one group. */
#define B_COL(c) ((c) / nl * b_nh + (c) % nl * b_n)
    const long cb = B_COL(n0);
    const bool one_group = n0 % nl + live <= nl;
    if (one_group && b_n == 1 && live == NB) {
        for (long k = k_a; k < k_b; ++k, dst += NB) {
            const long row = ob + k * b_k + cb;
#pragma unroll
            for (int j = 0; j < NB; ++j)
                dst[j] = LOAD(b, row + j);
        }
    } else if (b_k == 1) {
        /* B transposed with k contiguous (attention's K^T, a transposed weight): in chunks of
         * 64 k (64 x NB floats, in L1), each column's run read as one stream and stored NB
         * apart. Along k, NB strided loads a k, it took 1.8x as long (attention's 96 B^T of
         * 128 x 64). */
        for (long kc = k_a; kc < k_b; kc += 64, dst += 64 * NB) {
            const long kn = min(kc + 64, k_b) - kc;
            for (int j = 0; j < NB; ++j) {
                const long col = ob + B_COL(n0 + min(j, live - 1)) + kc;
                __global float *d = dst + j;
                for (long k = 0; k < kn; ++k, d += NB)
                    *d = LOAD(b, col + k);
            }
        }
    } else if (one_group && live == NB) { /* B transposed: NB streams along k */
        for (long k = k_a; k < k_b; ++k, dst += NB) {
            const long row = ob + k * b_k + cb;
#pragma unroll
            for (int j = 0; j < NB; ++j)
                dst[j] = LOAD(b, row + j * b_n);
        }
    } else { /* the last block's columns, or a block across groups: each column's offset */
        long cofs[NB];
        for (int j = 0; j < NB; ++j)
            cofs[j] = ob + B_COL(n0 + min(j, live - 1));
        for (long k = k_a; k < k_b; ++k, dst += NB)
            for (int j = 0; j < NB; ++j)
                dst[j] = LOAD(b, cofs[j] + k * b_k);
    }
#undef B_COL
}
#else
#define PACKB_ARGS
#endif

__kernel void gemm_blocks(__constant long *t, __global const elem_t *a, long a_base,
                          __global const elem_t *b, long b_base, __global const elem_t *c,
                          long c_base, __global elem_t *o, long o_base PACKB_ARGS)
{
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], a_k = t[DMLI_GEMM_A_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N];
    const long m0 = (long)get_global_id(0) * MR, n0 = (long)get_global_id(1) * (NV * VW);
    long oa = a_base, ob = b_base, oc = c_base, oo = o_base;
    batch_offsets(t, (long)get_global_id(2), &oa, &ob, &oc, &oo);
#if PACKB
    /* B packed (gemm_pack_b): the block's B one stream, every n-block alike. */
    (void)b_n, (void)b_k, (void)ob;
    if (m0 >= M)
        return;
#else
    __local float panel[KC * NV * VW];
    /* The same for every item of the work-group (one n-block, one batch coordinate). */
    if (n0 + NV * VW > N || b_n != 1) {
        packed_block(t, a, oa, b, ob, c, oc, o, oo, m0, n0, panel);
        return;
    }
    if (m0 >= M)
        return;
#endif
    const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
               o_n = t[DMLI_GEMM_O_N];
    const bool has_c = t[DMLI_GEMM_HAS_C] != 0;
    VEC acc[MR][NV];
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[i][v] = (VEC)0.0f;

    /* A's rows of the block, clamped into the matrix at the last rows (not stored). */
    long arow[MR];
#pragma unroll
    for (int i = 0; i < MR; ++i)
        arow[i] = oa + min(m0 + i, M - 1) * a_m;
#if PACKB
    __global const float *bp =
        pk + pk_base +
        (b_batch(t, (long)get_global_id(2)) * ((N + NB - 1) / NB) + (long)get_global_id(1)) * K *
            NB;
#define B_STEP NB
#define B_VLOAD(p, i) VLOADL(p, i)
#else
    __global const elem_t *bp = b + ob + n0;
#define B_STEP b_k
#define B_VLOAD(p, i) VLOADS(p, i)
#endif
    for (long k = 0; k < K; ++k) {
        VEC bv[NV];
#pragma unroll
        for (int v = 0; v < NV; ++v)
            bv[v] = B_VLOAD(bp, v * VW);
        bp += B_STEP;
        long ak = k * a_k;
#pragma unroll
        for (int i = 0; i < MR; ++i) {
            VEC av = (VEC)LOAD(a, arow[i] + ak);
#pragma unroll
            for (int v = 0; v < NV; ++v)
                FMADD(av, bv[v], acc[i][v]);
        }
    }

    if (PLAIN_BLOCK(m0, n0)) {
        store_plain(t, acc, o, oo + m0 * o_m + n0, o_m);
        return;
    }
    /* The epilogue once in the code (not unrolled: an activation is many instructions). */
    float res[MR][NV * VW];
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            vec_lanes u = {acc[i][v]};
#pragma unroll
            for (int x = 0; x < VW; ++x)
                res[i][v * VW + x] = u.f[x];
        }
    /* The block's columns inside N (PACKB: the last n-block may be partial). */
    const int count = (int)min((long)(NV * VW), N - n0);
    for (int i = 0; i < MR && m0 + i < M; ++i) {
        long m = m0 + i;
        epilogue_row(t, res[i], NV * VW, count, c, oc + m * c_m + n0 * c_n, c_n, o,
                     oo + m * o_m + n0 * o_n, o_n, has_c);
    }
}

/* Both operands unit-strided along k (B transposed, as a linear layer's weight {N, K}): a
 * work-item a DR x NJ block of dot products, each summed by VW lanes along k (whole vectors
 * of k, then the remainder in lane 0), the lanes added by a fixed tree at the end. */
__kernel void gemm_dots(__constant long *t, __global const elem_t *a, long a_base,
                        __global const elem_t *b, long b_base, __global const elem_t *c,
                        long c_base, __global elem_t *o, long o_base)
{
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], b_n = t[DMLI_GEMM_B_N];
    const long m0 = (long)get_global_id(1) * DR, first = (long)get_global_id(0) * (DS * NJ);
    if (m0 >= M || first >= N)
        return;
    long oa = a_base, ob = b_base, oc = c_base, oo = o_base;
    batch_offsets(t, (long)get_global_id(2), &oa, &ob, &oc, &oo);
    long arow[DR], bcol[NJ];
#pragma unroll
    for (int i = 0; i < DR; ++i)
        arow[i] = oa + min(m0 + i, M - 1) * a_m;
    /* DS blocks along n, one after the other: A's rows stay in L1 and the item's fixed costs
     * (the batch coordinate's division among them) are paid once. */
    for (long n0 = first; n0 < first + DS * NJ && n0 < N; n0 += NJ) {
#pragma unroll
        for (int j = 0; j < NJ; ++j)
            bcol[j] = ob + min(n0 + j, N - 1) * b_n;
        VEC acc[DR][NJ];
#pragma unroll
        for (int i = 0; i < DR; ++i)
#pragma unroll
            for (int j = 0; j < NJ; ++j)
                acc[i][j] = (VEC)0.0f;
        const long kv = K - K % VW;
        for (long k = 0; k < kv; k += VW) {
            VEC bv[NJ];
#pragma unroll
            for (int j = 0; j < NJ; ++j)
                bv[j] = VLOADS(b, bcol[j] + k);
#pragma unroll
            for (int i = 0; i < DR; ++i) {
                VEC av = VLOADS(a, arow[i] + k);
#pragma unroll
                for (int j = 0; j < NJ; ++j)
                    FMADD(av, bv[j], acc[i][j]);
            }
        }
        /* The remainder of k in lane 0; then the DR * NJ vectors' lanes summed together: each
         * level pairs neighbouring vectors, adding each one's even and odd lanes into one vector
         * (the first's sums, then the second's), so after log2(VW) levels every lane holds one
         * output's sum, in the accumulators' order (DR * NJ is a multiple of VW). */
        VEC lv[DR * NJ];
#pragma unroll
        for (int i = 0; i < DR; ++i)
#pragma unroll
            for (int j = 0; j < NJ; ++j) {
                VEC v = acc[i][j];
                for (long k = kv; k < K; ++k)
                    FMADD(LOAD(a, arow[i] + k), LOAD(b, bcol[j] + k), v.s0);
                lv[i * NJ + j] = v;
            }
#pragma unroll
        for (int count = DR * NJ; count > DR * NJ / VW; count /= 2)
#pragma unroll
            for (int x = 0; x < count / 2; ++x)
                lv[x] =
                    (VEC)(lv[2 * x].even + lv[2 * x].odd, lv[2 * x + 1].even + lv[2 * x + 1].odd);
        float sum[DR][NJ];
#pragma unroll
        for (int q = 0; q < DR * NJ / VW; ++q) {
            vec_lanes u = {lv[q]};
#pragma unroll
            for (int x = 0; x < VW; ++x)
                (&sum[0][0])[q * VW + x] = u.f[x];
        }
        const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
                   o_n = t[DMLI_GEMM_O_N];
        const bool has_c = t[DMLI_GEMM_HAS_C] != 0;
#if ACT == 0 && !HALF
        /* No C, no activation, a whole block of unit-strided rows: alpha times each row, stored
         * as a vector (small K makes the epilogue a large part of the work). */
        if (!has_c && o_n == 1 && m0 + DR <= M && n0 + NJ <= N) {
            const float alpha = PARAM(DMLI_GEMM_ALPHA);
#pragma unroll
            for (int i = 0; i < DR; ++i) {
                __global float *row = o + oo + (m0 + i) * o_m + n0;
#pragma unroll
                for (int j = 0; j < NJ; ++j)
                    row[j] = alpha * sum[i][j];
            }
            continue;
        }
#endif
        const int count = (int)min((long)NJ, N - n0);
        for (int i = 0; i < DR && m0 + i < M; ++i) {
            long m = m0 + i;
            epilogue_row(t, sum[i], NJ, count, c, oc + m * c_m + n0 * c_n, c_n, o,
                         oo + m * o_m + n0 * o_n, o_n, has_c);
        }
    }
}

/*
 * gemm_tiles: the GPU tile of cl/tile.cl over A and B read through their strides. While the
 * items multiply one slab, each holds its share of the next one's values (loaded from global
 * memory before the multiplies, stored after them), so one barrier a step separates the
 * slabs' uses. With 8 x 8 blocks an item reads 4 float4 vectors for 64 multiply-adds, where
 * one float a load (the 64 x 64 tile of 4 x 4 per item this kernel replaced) took 8 for 16 and
 * bound it by local memory's bandwidth on an H200 (9-12 TFLOP/s against PyTorch's 31-43). A
 * warp's 32 items are TX wide: its B reads are consecutive float4 vectors (no bank conflict),
 * its A reads a few vectors every lane of a row of items shares (broadcasts).
 *
 * A slab is filled a value per item and slot: along the operand's unit stride where it has one
 * (along m or n: a warp's values consecutive in both memories; along k: runs of 8 consecutive k
 * of 4 rows, cl/tile.cl TILE_K_OF, which with the 4 floats of padding land on 32 different
 * banks). Values outside the matrix are staged as 0 (rows past M, columns past N, k past K),
 * which adds exact zeros to outputs that are not stored or to nothing.
 */
__kernel void gemm_tiles(__constant long *t, __global const elem_t *a, long a_base,
                         __global const elem_t *b, long b_base, __global const elem_t *c,
                         long c_base, __global elem_t *o, long o_base TILE_SPLIT_ARGS)
{
    /* Two slabs of each operand, as float4 vectors (read a vector at a time; filled a float
     * at a time through the float pointers). */
    __local float4 as4[2 * TK * AS_W / 4];
    __local float4 bs4[2 * TK * BS_W / 4];
    __local float *as = (__local float *)as4, *bs = (__local float *)bs4;
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], a_k = t[DMLI_GEMM_A_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int lid = ly * TX + lx;
    const long n0 = (long)get_group_id(0) * TN, m0 = (long)get_group_id(1) * TM;
    long oa = a_base, ob = b_base, oc = c_base, oo = o_base;
    long z, slice, zs; /* split-K (cl/tile.cl): the unsplit grid's batch, the slice of k */
    TILE_SPLIT_Z(t[DMLI_GEMM_SPLITS], z, slice, zs);
    batch_offsets(t, z, &oa, &ob, &oc, &oo);
    float4 acc[WM][RN]; /* row i of the block, its columns 4 * h .. 4 * h + 3 */
#if SPLIT == 2
    TILE_PART_SUM(part, part_base, t[DMLI_GEMM_SPLITS], zs, z, lid, acc);
#else
    /* The slice of k this work-group sums: [kb, ke) (all of k unsplit). */
    const long kb = SPLIT == 1 ? slice * t[DMLI_GEMM_SPLIT_K] : 0;
    const long ke = SPLIT == 1 ? min(K, kb + t[DMLI_GEMM_SPLIT_K]) : K;
    /* Staging runs along the operand's unit stride: m (n) where that is the unit one, else k. */
    const bool a_along_m = a_m == 1, b_along_n = b_n == 1 || b_k != 1;
    slot sa[A_SLOTS], sb[B_SLOTS];
#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r)
        sa[r] =
            slot_of(lid + ITEMS * r, TK * TM, a_along_m, TM, AS_W, m0, M, oa + kb * a_k, a_m, a_k);
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r)
        sb[r] =
            slot_of(lid + ITEMS * r, TK * TN, b_along_n, TN, BS_W, n0, N, ob + kb * b_k, b_n, b_k);
    const long a_step = TK * a_k, b_step = TK * b_k;

    TILE_ZERO(acc);

    /* The first step's values, staged in slab 0. */
    float ra[A_SLOTS], rb[B_SLOTS];
#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r) {
        ra[r] = sa[r].live && sa[r].kk < ke - kb ? LOAD(a, sa[r].at) : 0.0f;
        if (sa[r].mine)
            as[sa[r].slab] = ra[r];
    }
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r) {
        rb[r] = sb[r].live && sb[r].kk < ke - kb ? LOAD(b, sb[r].at) : 0.0f;
        if (sb[r].mine)
            bs[sb[r].slab] = rb[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    int cur = 0;
    for (long k0 = kb; k0 < ke; k0 += TK) {
        const long next = k0 + TK;
        const bool more = next < ke;
        if (more) {
            const long left = ke - next; /* k of the next step inside the slice: kk < left */
#pragma unroll
            for (int r = 0; r < A_SLOTS; ++r) {
                sa[r].at += a_step;
                ra[r] = sa[r].live && sa[r].kk < left ? LOAD(a, sa[r].at) : 0.0f;
            }
#pragma unroll
            for (int r = 0; r < B_SLOTS; ++r) {
                sb[r].at += b_step;
                rb[r] = sb[r].live && sb[r].kk < left ? LOAD(b, sb[r].at) : 0.0f;
            }
        }
        TILE_MULTIPLY(as4, bs4, cur, lx, ly, acc);
        if (more)
            TILE_STAGE_NEXT(as, bs, cur, sa, ra, sb, rb);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if SPLIT == 1
    TILE_PART_STORE(part, part_base, slice, zs, z, lid, acc);
    return;
#endif
#endif /* SPLIT == 2 */

    const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
               o_n = t[DMLI_GEMM_O_N];
    const bool has_c = t[DMLI_GEMM_HAS_C] != 0;
#pragma unroll
    for (int i = 0; i < WM; ++i) {
        const long m = m0 + TILE_ROW(ly, i);
        if (m >= M)
            continue;
#pragma unroll
        for (int h = 0; h < RN; ++h) {
            const long n = n0 + TILE_COL(lx, h);
            const float4 v = acc[i][h];
            const float sum[4] = {v.s0, v.s1, v.s2, v.s3};
            float y[4];
#pragma unroll
            for (int x = 0; x < 4; ++x) {
                float cv = 0.0f;
                if (has_c && n + x < N)
                    cv = LOAD(c, oc + m * c_m + (n + x) * c_n);
                y[x] = epilogue(t, sum[x], cv);
            }
#if !HALF
            /* Four consecutive floats: one 16-byte store (a warp's TX items, 16 * TX bytes). */
            if (o_n == 1 && n + 4 <= N) {
                vstore4((float4)(y[0], y[1], y[2], y[3]), 0, o + oo + m * o_m + n);
                continue;
            }
#endif
#pragma unroll
            for (int x = 0; x < 4; ++x)
                if (n + x < N)
                    STORE(o, oo + m * o_m + (n + x) * o_n, y[x]);
        }
    }
}
