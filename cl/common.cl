/* SPDX-License-Identifier: MIT */
/*
 * common.cl: what both kernel families share: the ABI (abi.h), the macros
 * every family reads, and the row odometer. Included by view.cl and
 * indexed.cl; cmake/embed_kernels.cmake pastes the text in their place.
 *
 * Macros (code generation only; defaults in brackets):
 *   UNIT_T    the moved unit: uchar, ushort, uint, ulong, uint4 [uint]
 *   FAST      1: the run is contiguous in input and output [0]
 *   OUT_UNIT  1: the run is contiguous in the output, input stride free [0]
 *   SERIAL    1: no lanes (CPUs): one work-item walks its chunk alone, so
 *             loops are unit-stride and the compiler vectorises them [0]
 *   STREAM    1: non-temporal stores (outputs far larger than the caches on
 *             CPUs: no read-for-ownership of lines only written) [0]
 *   RUN_IS_K, RUN_XS_K  the run's input / index stride when the host knows
 *             it is small (|k| <= 4), as a compile-time constant [unset]
 * The kernel families, their variants and why each exists: docs/kernels.md.
 */
#include "abi.h"

#ifndef DMLI_COMMON_CL
#define DMLI_COMMON_CL

#ifndef UNIT_T
#define UNIT_T uint
#endif
/* UNIT_T's size for the preprocessor (UNIT_T is one of these tokens). */
#define DMLI_CAT_(a, b) a##b
#define DMLI_CAT(a, b) DMLI_CAT_(a, b)
#define DMLI_BYTES_uchar 1
#define DMLI_BYTES_ushort 2
#define DMLI_BYTES_uint 4
#define DMLI_BYTES_ulong 8
#define DMLI_BYTES_uint4 16
#define UNIT_BYTES DMLI_CAT(DMLI_BYTES_, UNIT_T)
#ifndef FAST
#define FAST 0
#endif
#ifndef OUT_UNIT
#define OUT_UNIT 0
#endif

#ifndef SERIAL
#define SERIAL 0
#endif
#if SERIAL
#define LANE 0L
#define LANES 1L
#else
#define LANE ((long)get_global_id(0))
#define LANES ((long)get_global_size(0))
#endif

#ifndef STREAM
#define STREAM 0
#endif
#if STREAM && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define PUT(p, v) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef PUT
#define PUT(p, v) (*(p) = (v))
#endif

/* Units from p (a UNIT_T pointer) to the next 64-byte line boundary; 0 on one. */
#define LINE_GAP(p) ((long)(((64 - ((ulong)(p)&63)) & 63) / sizeof(UNIT_T)))

/*
 * RUN_STORE(outp, begin, end, EXPR): outp[u] = EXPR (an expression of u)
 * for u in [begin, end), interleaved by lanes. With STREAM on a run
 * contiguous in the output (SERIAL), the non-temporal stores are whole
 * 64-byte lines: LLVM vectorises no loop of scalar non-temporal stores, so
 * a strided, reversed or indexed run would be moved one unit at a time.
 * (Contiguous runs and 16-byte units vectorise as they are: one loop.)
 * Units up to the first line boundary go one by one, then blocks of up to
 * RUN_BLOCK bytes (whole lines) are assembled in private memory by a plain
 * loop (which the compiler vectorises: wide loads and shuffles for strides
 * 2 and -1) and stored as lines; the tail goes one by one. RUN_BLOCK:
 * 1024 beat 256 by 1.35x on the reversing slice (dmlcl-ab, PoCL).
 */
#define RUN_BLOCK 1024
#if STREAM && OUT_UNIT && SERIAL
#define RUN_UNITS ((long)(RUN_BLOCK / sizeof(UNIT_T)))
#define LINE_UNITS ((long)(64 / sizeof(UNIT_T)))
#define RUN_STORE(outp, begin, end, EXPR)                                               \
    do {                                                                                \
        __global UNIT_T *p_ = (outp);                                                   \
        long u_ = (begin), end_ = (end);                                                \
        long head_ = u_ + LINE_GAP(p_ + u_);                                            \
        if (FAST || sizeof(UNIT_T) >= 16)                                               \
            head_ = end_; /* plain stores already vectorise, or are vectors */          \
        for (head_ = min(head_, end_); u_ < head_; ++u_) {                              \
            long u = u_;                                                                \
            PUT(p_ + u, (EXPR));                                                        \
        }                                                                               \
        for (long n_; (n_ = min(RUN_UNITS, (end_ - u_) / LINE_UNITS * LINE_UNITS)) > 0; \
             u_ += n_) {                                                                \
            union {                                                                     \
                UNIT_T a[RUN_BLOCK / sizeof(UNIT_T)];                                   \
                uint16 v[RUN_BLOCK / 64];                                               \
            } b_;                                                                       \
            for (int k_ = 0; k_ < (int)n_; ++k_) {                                      \
                long u = u_ + k_;                                                       \
                b_.a[k_] = (EXPR);                                                      \
            }                                                                           \
            for (int j_ = 0; j_ < (int)(n_ / LINE_UNITS); ++j_)                         \
                PUT((__global uint16 *)(p_ + u_) + j_, b_.v[j_]);                       \
        }                                                                               \
        for (; u_ < end_; ++u_) {                                                       \
            long u = u_;                                                                \
            PUT(p_ + u, (EXPR));                                                        \
        }                                                                               \
    } while (0)
#elif !SERIAL
/* GPUs: a lane's units LANES apart, up to RUN_BATCH of them loaded (EXPR evaluated) before
 * any is stored. A GPU issues in order and waits at the first use of a load's value; a unit
 * stored as soon as it was loaded left one load in flight a lane (4 bytes for float32), and
 * the compiler may not move the next unit's load above a store that might alias it.
 * Batched, a lane has RUN_BATCH loads in flight (the host's gpu_load_batch, 8: a lane's whole
 * share of a chunk of gpu_chunk_per_lane units); a lane with fewer units left loads them under
 * a test, still before its first store. The same units in the same places. */
#ifndef RUN_BATCH
#define RUN_BATCH 8
#endif
#define RUN_STORE(outp, begin, end, EXPR)                                                      \
    do {                                                                                       \
        __global UNIT_T *p_ = (outp);                                                          \
        const long e_ = (end);                                                                 \
        for (long u_ = (begin) + LANE; u_ < e_; u_ += RUN_BATCH * LANES) {                     \
            UNIT_T b_[RUN_BATCH];                                                              \
            _Pragma("unroll") for (int k_ = 0; k_ < RUN_BATCH; ++k_)                           \
            {                                                                                  \
                long u = u_ + k_ * LANES;                                                      \
                if (u < e_)                                                                    \
                    b_[k_] = (EXPR);                                                           \
            }                                                                                  \
            _Pragma("unroll") for (int k_ = 0; k_ < RUN_BATCH; ++k_) if (u_ + k_ * LANES < e_) \
                PUT(p_ + (u_ + k_ * LANES) * RUN_OS, b_[k_]);                                  \
        }                                                                                      \
    } while (0)
#else
#define RUN_STORE(outp, begin, end, EXPR)                    \
    do {                                                     \
        __global UNIT_T *p_ = (outp);                        \
        for (long u = (begin) + LANE; u < (end); u += LANES) \
            PUT(p_ + u * RUN_OS, (EXPR));                    \
    } while (0)
#endif

#if SERIAL
/* d[0 .. 64 bytes) = src[0 .. 64 bytes): one 64-byte line, loaded unaligned through a packed
 * struct (one vector load, e.g. vmovdqu64 with AVX-512, two with AVX2) and stored with PUT to d,
 * which is line-aligned. No 64-byte vector crosses a call, vload16 included: passed or returned
 * by value it changes the x86-64 ABI below AVX-512 (clang's -Wpsabi, for every CPU level below
 * skylake-avx512; scripts/kernel-targets checks them all). Four vload4 assembled into the line
 * were 0.94x on the row slice (dmlcl-ab, PoCL): LLVM kept four loads. The value is a plain
 * uint16 before PUT: __builtin_nontemporal_store takes its alignment from the value's type. */
typedef struct __attribute__((packed)) {
    uint16 v;
} dmli_unaligned_line;
static void put_line(__global UNIT_T *d, __global const UNIT_T *src)
{
    uint16 line = ((__global const dmli_unaligned_line *)src)->v;
    PUT((__global uint16 *)d, line);
}
#endif

/*
 * copy_lines(d, s, begin, end): d[u] = s[u] for u in [begin, end), a run
 * contiguous on both sides (FAST) streamed to the output (STREAM, SERIAL):
 * units up to the output's first line boundary, then whole 64-byte lines
 * loaded as one vector (unaligned) and stored non-temporally, as the limit
 * kernel moves them (LLVM keeps a loop of 16-byte non-temporal stores as
 * 16-byte stores), then the tail. COPY_LINES: the plain and indexed runs
 * take it for units of 4 bytes or more (1- and 2-byte units keep RUN_STORE's
 * assembled blocks); REPEAT's runs at every width.
 */
#if STREAM && FAST && SERIAL
#define COPY_LINES (sizeof(UNIT_T) >= 4)
static void copy_lines(__global UNIT_T *d, __global const UNIT_T *s, long begin, long end)
{
    long u = begin, line = 64 / (long)sizeof(UNIT_T);
    long head = min(end, u + LINE_GAP(d + u));
    for (; u < head; ++u)
        PUT(d + u, s[u]);
    for (; u + line <= end; u += line)
        put_line(d + u, s + u);
    for (; u < end; ++u)
        PUT(d + u, s[u]);
}
#else
#define COPY_LINES 0
#endif

/* Strides the host knows are small are compile-time constants, so the
 * compiler can vectorise strided (2, -1, ...) and broadcast (0) runs. */
#if FAST
#define RUN_OS 1
#define RUN_IS 1
#else
#if OUT_UNIT
#define RUN_OS 1
#else
#define RUN_OS run_os
#endif
#ifdef RUN_IS_K
#define RUN_IS ((long)(RUN_IS_K))
#else
#define RUN_IS run_is
#endif
#endif
#ifdef RUN_XS_K
#define RUN_XS ((long)(RUN_XS_K))
#else
#define RUN_XS run_xs
#endif

/* Up to 16 dimensions (DMLCL_TENSOR_DIMENSION_COUNT_MAX). */
#define MAX_DIMS 16

/*
 * The row odometer over dims (per longs a dimension: its size, then one
 * stride per offset in off[0 .. per - 2]). Callers pass per as a constant,
 * so the offset loops unroll into registers.
 */

/* r / n in 32-bit arithmetic when both fit (rows and sizes almost always do): a GPU divides
 * 64-bit integers in software, some ten times the instructions, and a row odometer's
 * divisions per work-item bounded the first H200 run's strided copies (2026-11-28). */
static inline ulong div_narrow(ulong r, ulong n)
{
    return ((r | n) >> 32) == 0 ? (ulong)((uint)r / (uint)n) : r / n;
}

/* Row r's offsets: decomposes r once (the only divisions); at[] holds its digits. */
static void row_start(__constant long *dims, int per, int rank, ulong r, long *at, long *off)
{
    for (int d = 0; d < rank; ++d) {
        __constant long *dim = dims + per * d;
        ulong n = (ulong)dim[0], q = div_narrow(r, n);
        at[d] = (long)(r - q * n);
        r = q;
        for (int t = 0; t + 1 < per; ++t)
            off[t] += at[d] * dim[1 + t];
    }
}

/* The next row: an odometer step, no division. */
static void row_next(__constant long *dims, int per, int rank, long *at, long *off)
{
    for (int d = 0; d < rank; ++d) {
        __constant long *dim = dims + per * d;
        for (int t = 0; t + 1 < per; ++t)
            off[t] += dim[1 + t];
        if (++at[d] < dim[0])
            return;
        at[d] = 0;
        for (int t = 0; t + 1 < per; ++t)
            off[t] -= dim[0] * dim[1 + t];
    }
}

#endif /* DMLI_COMMON_CL */
