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
 *     MR * NV vector multiply-adds. Whole blocks read B by vectors where B_UNIT (B's N stride
 *     1); blocks at the edges read clamped coordinates and store only what is inside.
 *   gemm_tiles (GPUs): a work-group of TX x TY items computes a (TY * WM) x (TX * WN) tile,
 *     stepping k by TK through A and B tiles staged in local memory (reads coalesced along
 *     the operand's unit stride where it has one), each item a WM x WN block in registers.
 *
 * Macros (defaults build a valid program):
 *   HALF         1: the tensors are FLOAT16 (ushort storage), else FLOAT32
 *   HAS_C        1: tensor 2 is C (then the output is tensor 3)
 *   ACT          the fused activation (cl/activation.cl), parameters in the table
 *   MR, NV, VW   gemm_blocks' block (VW 4, 8 or 16); B_UNIT, O_UNIT: B's / the output's N
 *                stride is 1
 *   TX, TY, WM, WN, TK  gemm_tiles' tile
 */
#include "abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef HALF
#define HALF 0
#endif
#ifndef HAS_C
#define HAS_C 0
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
#ifndef B_UNIT
#define B_UNIT 0
#endif
#ifndef O_UNIT
#define O_UNIT 0
#endif
#ifndef TX
#define TX 8
#endif
#ifndef TY
#define TY 8
#endif
#ifndef WM
#define WM 4
#endif
#ifndef WN
#define WN 4
#endif
#ifndef TK
#define TK 16
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#define INT_COMPUTE 0
#include "activation.cl"
#include "half.cl"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, VW)
#define VLOADF CAT(vload, VW)
#define VSTOREF CAT(vstore, VW)
#define VLOADH CAT(vload_half, VW)

#if HALF
typedef ushort elem_t;
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#define LOADV(p, i) VLOADH(0, (__global const half *)((p) + (i)))
#define STORE(p, i, v) dmli_store_half((p), (i), (v))
#else
typedef float elem_t;
#define LOAD(p, i) ((p)[i])
#define LOADV(p, i) VLOADF(0, (p) + (i))
#define STORE(p, i, v) ((p)[i] = (v))
#endif

#define PARAM(i) as_float((uint)t[i])

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

/* alpha * acc + beta * C, activated (a value of C read only when HAS_C). */
static float epilogue(__constant long *t, float acc, float cv)
{
    COMPUTE_T g0 = PARAM(DMLI_GEMM_ACT), g1 = PARAM(DMLI_GEMM_ACT + 1),
              g2 = PARAM(DMLI_GEMM_ACT + 2);
    (void)g0, (void)g1, (void)g2;
    float y = PARAM(DMLI_GEMM_ALPHA) * acc;
#if HAS_C
    y = y + PARAM(DMLI_GEMM_BETA) * cv;
#else
    (void)cv;
#endif
    return ACTIVATE(y);
}

__kernel void gemm_blocks(__constant long *t, __global const elem_t *a, long a_base,
                          __global const elem_t *b, long b_base
#if HAS_C
                          ,
                          __global const elem_t *c, long c_base
#endif
                          ,
                          __global elem_t *o, long o_base)
{
#if !HAS_C
    __global const elem_t *c = a;
    long c_base = 0;
#endif
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], a_k = t[DMLI_GEMM_A_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N];
    const long m0 = (long)get_global_id(1) * MR, n0 = (long)get_global_id(0) * (NV * VW);
    if (m0 >= M || n0 >= N)
        return;
    long oa = a_base, ob = b_base, oc = c_base, oo = o_base;
    batch_offsets(t, (long)get_global_id(2), &oa, &ob, &oc, &oo);
    const bool full = m0 + MR <= M && n0 + NV * VW <= N;

    VEC acc[MR][NV];
#pragma unroll
    for (int i = 0; i < MR; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[i][v] = (VEC)0.0f;

    /* A's rows and B's columns of the block, clamped into the matrix at the edges. */
    long arow[MR];
#pragma unroll
    for (int i = 0; i < MR; ++i)
        arow[i] = oa + min(m0 + i, M - 1) * a_m;
    if (full && B_UNIT) {
        __global const elem_t *bp = b + ob + n0;
        for (long k = 0; k < K; ++k) {
            VEC bv[NV];
#pragma unroll
            for (int v = 0; v < NV; ++v)
                bv[v] = LOADV(bp, v * VW);
            bp += b_k;
            long ak = k * a_k;
#pragma unroll
            for (int i = 0; i < MR; ++i) {
                VEC av = (VEC)LOAD(a, arow[i] + ak);
#pragma unroll
                for (int v = 0; v < NV; ++v)
                    acc[i][v] = mad(av, bv[v], acc[i][v]);
            }
        }
    } else {
        long bcol[NV * VW];
#pragma unroll
        for (int j = 0; j < NV * VW; ++j)
            bcol[j] = ob + min(n0 + j, N - 1) * b_n;
        for (long k = 0; k < K; ++k) {
            VEC bv[NV];
            long bk = k * b_k;
#pragma unroll
            for (int v = 0; v < NV; ++v) {
                float lanes[VW];
#pragma unroll
                for (int j = 0; j < VW; ++j)
                    lanes[j] = LOAD(b, bcol[v * VW + j] + bk);
                bv[v] = VLOADF(0, lanes);
            }
            long ak = k * a_k;
#pragma unroll
            for (int i = 0; i < MR; ++i) {
                VEC av = (VEC)LOAD(a, arow[i] + ak);
#pragma unroll
                for (int v = 0; v < NV; ++v)
                    acc[i][v] = mad(av, bv[v], acc[i][v]);
            }
        }
    }

    const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
               o_n = t[DMLI_GEMM_O_N];
#pragma unroll
    for (int i = 0; i < MR; ++i) {
        long m = m0 + i;
        if (m >= M)
            break;
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            float r[VW];
            VSTOREF(acc[i][v], 0, r);
#pragma unroll
            for (int j = 0; j < VW; ++j) {
                long n = n0 + v * VW + j;
                float cv = 0.0f;
#if HAS_C
                if (n < N)
                    cv = LOAD(c, oc + m * c_m + n * c_n);
#endif
                r[j] = epilogue(t, r[j], cv);
            }
#if O_UNIT && !HALF
            if (full) {
                VSTOREF(VLOADF(0, r), 0, o + oo + m * o_m + n0 + v * VW);
                continue;
            }
#endif
#pragma unroll
            for (int j = 0; j < VW; ++j) {
                long n = n0 + v * VW + j;
                if (n < N)
                    STORE(o, oo + m * o_m + n * o_n, r[j]);
            }
        }
    }
}

#define TM (TY * WM)
#define TN (TX * WN)

__kernel void gemm_tiles(__constant long *t, __global const elem_t *a, long a_base,
                         __global const elem_t *b, long b_base
#if HAS_C
                         ,
                         __global const elem_t *c, long c_base
#endif
                         ,
                         __global elem_t *o, long o_base)
{
#if !HAS_C
    __global const elem_t *c = a;
    long c_base = 0;
#endif
    __local float as[TK][TM + 1];
    __local float bs[TK][TN + 1];
    const long M = t[DMLI_GEMM_M], N = t[DMLI_GEMM_N], K = t[DMLI_GEMM_K];
    const long a_m = t[DMLI_GEMM_A_M], a_k = t[DMLI_GEMM_A_K], b_k = t[DMLI_GEMM_B_K],
               b_n = t[DMLI_GEMM_B_N];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int lid = ly * TX + lx;
    /* Group (gx, gy): output rows from gy * TM, columns from gx * TN; item (lx, ly): rows
     * m0 + ly + TY * i, columns n0 + lx + TX * j (neighbouring items, neighbouring columns). */
    const long n0 = (long)get_group_id(0) * TN, m0 = (long)get_group_id(1) * TM;
    long oa = a_base, ob = b_base, oc = c_base, oo = o_base;
    batch_offsets(t, (long)get_global_id(2), &oa, &ob, &oc, &oo);
    /* Staging reads run along the operand's unit stride: along m (or n) when it is the unit
     * one, else along k. */
    const bool a_along_m = a_m == 1, b_along_n = b_n == 1 || b_k != 1;

    float acc[WM][WN];
    for (int i = 0; i < WM; ++i)
        for (int j = 0; j < WN; ++j)
            acc[i][j] = 0.0f;

    for (long k0 = 0; k0 < K; k0 += TK) {
        for (int e = lid; e < TK * TM; e += TX * TY) {
            int kk = a_along_m ? e / TM : e % TK, mm = a_along_m ? e % TM : e / TK;
            long m = m0 + mm, k = k0 + kk;
            as[kk][mm] = m < M && k < K ? LOAD(a, oa + m * a_m + k * a_k) : 0.0f;
        }
        for (int e = lid; e < TK * TN; e += TX * TY) {
            int kk = b_along_n ? e / TN : e % TK, nn = b_along_n ? e % TN : e / TK;
            long n = n0 + nn, k = k0 + kk;
            bs[kk][nn] = n < N && k < K ? LOAD(b, ob + k * b_k + n * b_n) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < TK; ++kk) {
            float av[WM], bv[WN];
            for (int i = 0; i < WM; ++i)
                av[i] = as[kk][ly + TY * i];
            for (int j = 0; j < WN; ++j)
                bv[j] = bs[kk][lx + TX * j];
            for (int i = 0; i < WM; ++i)
                for (int j = 0; j < WN; ++j)
                    acc[i][j] = mad(av[i], bv[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const long c_m = t[DMLI_GEMM_C_M], c_n = t[DMLI_GEMM_C_N], o_m = t[DMLI_GEMM_O_M],
               o_n = t[DMLI_GEMM_O_N];
    for (int i = 0; i < WM; ++i) {
        long m = m0 + ly + TY * i;
        for (int j = 0; j < WN; ++j) {
            long n = n0 + lx + TX * j;
            if (m < M && n < N) {
                float cv = 0.0f;
#if HAS_C
                cv = LOAD(c, oc + m * c_m + n * c_n);
#endif
                STORE(o, oo + m * o_m + n * o_n, epilogue(t, acc[i][j], cv));
            }
        }
    }
}
