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
 */
#include "abi.h"

#ifndef DMLI_COMMON_CL
#define DMLI_COMMON_CL

#ifndef UNIT_T
#define UNIT_T uint
#endif
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

/* Row r's offsets: decomposes r once (the only divisions); at[] holds its digits. */
static void row_start(__constant long *dims, int per, int rank, ulong r, long *at, long *off)
{
    for (int d = 0; d < rank; ++d) {
        __constant long *dim = dims + per * d;
        ulong n = (ulong)dim[0], q = r / n;
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
