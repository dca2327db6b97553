/* SPDX-License-Identifier: MIT */
/*
 * The hardware's limit for a workload's traffic: the fastest way this machine
 * has to read R bytes and write W bytes, measured in the same run as the
 * workload (bench/limit.c). Each mechanism moves exactly that traffic: the
 * common min(R, W) bytes as a copy, the rest as extra reads (R > W) or extra
 * writes (W > R), interleaved with the copy.
 */
#ifndef DMLCL_BENCH_LIMIT_H
#define DMLCL_BENCH_LIMIT_H

#include <stddef.h>

#include <CL/cl.h>

/* The mechanisms, each timed in every round (limit_run). */
typedef enum limit_mechanism {
    LIMIT_CL_ENQUEUE, /* clEnqueueCopyBuffer, clEnqueueFillBuffer */
    LIMIT_KERNEL_NT,  /* all-core 64-byte-vector kernel, non-temporal stores */
    LIMIT_KERNEL,     /* the same kernel with plain stores */
    LIMIT_HOST,       /* memcpy/memset/reads on every core (pthreads) */
    LIMIT_MECHANISMS
} limit_mechanism;

typedef struct bench_limit bench_limit;

/* Buffers for up to max_read bytes read and max_write bytes written. */
bench_limit *limit_create(cl_context ctx, cl_device_id dev, cl_command_queue q, size_t max_read,
                          size_t max_write);
void limit_release(bench_limit *l);

const char *limit_name(limit_mechanism m);

/* Evicts the device's caches before a timed contender: reads a buffer twice
 * the device's global memory cache (clean lines, so no write-back of the
 * previous contender's output falls on the next one), so that every
 * contender starts cold, whatever ran before it (synchronous). */
void limit_flush(bench_limit *l);

/* Moves read_bytes in and write_bytes out once with mechanism m (synchronous); seconds. */
double limit_run(bench_limit *l, limit_mechanism m, size_t read_bytes, size_t write_bytes);

/* A read-write buffer of bytes for a contender or the limit. On a CPU device, from 4 MiB on, in
 * host memory aligned to 2 MiB and advised to transparent huge pages (madvise MADV_HUGEPAGE),
 * wrapped by CL_MEM_USE_HOST_PTR: numpy, whose arrays the peers read, advises its arrays of
 * 4 MiB and more the same way, and huge pages change how fast a stream is read (fewer TLB
 * misses). Elsewhere, or with DMLCL_BENCH_HUGEPAGES=0, clCreateBuffer's own memory. */
cl_mem bench_buffer(cl_context ctx, size_t bytes, cl_int *err);

double bench_now(void);

/* Order statistics of n timings (n <= BENCH_MAX_ROUNDS). */
#define BENCH_MAX_ROUNDS 400
typedef struct bench_timing {
    double min, q1, median, q3;
} bench_timing;
bench_timing bench_summarize(const double *samples, int n);

#endif
