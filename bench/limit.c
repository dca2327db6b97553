/* SPDX-License-Identifier: MIT */
/*
 * The limit mechanisms (limit.h). Traffic is counted in 64-byte lines: the
 * common part of the read and written lines is copied, the rest is read
 * (xor-reduced into a sink, so the reads cannot be dropped) or written (a
 * fill pattern), interleaved with the copy in proportion so that reads and
 * writes overlap as they do in the workloads.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "limit.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64
#define MAX_THREADS 256

static void CL_CALLBACK free_host(cl_mem m, void *p)
{
    (void)m;
    free(p);
}

cl_mem bench_buffer(cl_context ctx, size_t bytes, cl_int *err)
{
    const size_t huge = (size_t)2 << 20;
    const char *env = getenv("DMLCL_BENCH_HUGEPAGES");
    cl_device_id dev = NULL;
    cl_device_type type = 0;
    if (clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) == CL_SUCCESS)
        clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    void *p = NULL;
    if (!(type & CL_DEVICE_TYPE_CPU) || bytes < ((size_t)4 << 20) ||
        (env && strcmp(env, "0") == 0) ||
        posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge) != 0)
        return clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, err);
#ifdef MADV_HUGEPAGE
    madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, p, err);
    if (*err != CL_SUCCESS) {
        free(p);
        return clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, err);
    }
    if (clSetMemObjectDestructorCallback(m, free_host, p) != CL_SUCCESS) {
        /* Without the callback the memory could not be freed after the buffer: keep it. */
    }
    return m;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_timing bench_summarize(const double *samples, int n)
{
    double t[BENCH_MAX_ROUNDS];
    memcpy(t, samples, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    return (bench_timing){t[0], t[n / 4], m, t[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1]};
}

/*
 * Work-item p of n moves its share of the copied lines in blocks of 64 (4
 * KiB), each followed by its share of the extra lines so far. Vector loads
 * of whole lines; NT 1 stores them non-temporally (no read for ownership of
 * lines that are only written). GPUs (LANES 1): consecutive work-items move
 * consecutive 16-byte units, a grid-stride loop over the copy, then over the
 * extra lines, in work-groups of 256: a warp moves 512 contiguous bytes per
 * instruction. With the CPU kernel's 8 work-items per compute unit in groups
 * of one, each on its own stretch, an H200 never beat clEnqueueFillBuffer,
 * which filled at 1.4 TB/s (half what dmlcl's broadcasts wrote).
 */
static const char *kernel_source =
    "#if NT\n"
    "#define PUT(p, v) __builtin_nontemporal_store((v), (p))\n"
    "#else\n"
    "#define PUT(p, v) (*(p) = (v))\n"
    "#endif\n"
    "#if LANES\n"
    "__kernel void traffic(__global uint4 *dst, __global const uint4 *src, ulong copy,\n"
    "                      ulong extra, int extra_reads, __global uint4 *sink)\n"
    "{\n"
    "    ulong p = get_global_id(0), n = get_global_size(0), cu = 4 * copy, eu = 4 * extra;\n"
    "    uint4 x = 0, fill = (uint4)(0x3f800000u);\n"
    "    for (ulong c = p; c < cu; c += n)\n"
    "        PUT(dst + c, src[c]);\n"
    "    if (extra_reads)\n"
    "        for (ulong e = p; e < eu; e += n)\n"
    "            x ^= src[cu + e];\n"
    "    else\n"
    "        for (ulong e = p; e < eu; e += n)\n"
    "            PUT(dst + cu + e, fill);\n"
    "    sink[p] = x;\n"
    "}\n"
    "#else\n"
    "__kernel void traffic(__global uint16 *dst, __global const uint16 *src, ulong copy,\n"
    "                      ulong extra, int extra_reads, __global uint16 *sink)\n"
    "{\n"
    "    ulong p = get_global_id(0), n = get_global_size(0);\n"
    "    ulong c = copy * p / n, c1 = copy * (p + 1) / n, c0 = c;\n"
    "    ulong e = extra * p / n, e1 = extra * (p + 1) / n, e0 = e;\n"
    "    uint16 x = 0, fill = (uint16)(0x3f800000u);\n"
    "    for (;;) {\n"
    "        ulong stop = min(c + 64, c1);\n"
    "        for (; c < stop; ++c)\n"
    "            PUT(dst + c, src[c]);\n"
    "        ulong target = c1 > c0 ? e0 + (e1 - e0) * (c - c0) / (c1 - c0) : e1;\n"
    "        if (extra_reads)\n"
    "            for (; e < target; ++e)\n"
    "                x ^= src[copy + e];\n"
    "        else\n"
    "            for (; e < target; ++e)\n"
    "                PUT(dst + copy + e, fill);\n"
    "        if (c >= c1 && e >= e1)\n"
    "            break;\n"
    "    }\n"
    "    sink[p] = x;\n"
    "}\n"
    "#endif\n";

struct bench_limit {
    cl_context ctx;
    cl_command_queue q;
    cl_program programs[2];
    cl_kernel kernels[2]; /* plain, NT */
    cl_mem src, dst, sink, flush;
    size_t items, flush_bytes;
    int lanes; /* GPUs: the LANES kernel in work-groups of 256 */
    unsigned char *host_src, *host_dst;
    unsigned threads;
};

static void check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "dmlcl-bench: limit: %s failed (%d)\n", what, (int)err);
        exit(2);
    }
}

const char *limit_name(limit_mechanism m)
{
    switch (m) {
    case LIMIT_CL_ENQUEUE: return "clEnqueueCopy/Fill";
    case LIMIT_KERNEL_NT: return "kernel-nt";
    case LIMIT_KERNEL: return "kernel";
    case LIMIT_HOST: return "host-threads";
    default: return "?";
    }
}

static void *host_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : LINE) != 0) {
        fprintf(stderr, "dmlcl-bench: limit: out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    memset(p, 0x5a, bytes); /* touched: untouched pages read as free zero pages */
    return p;
}

bench_limit *limit_create(cl_context ctx, cl_device_id dev, cl_command_queue q, size_t max_read,
                          size_t max_write)
{
    bench_limit *l = calloc(1, sizeof *l);
    cl_int err;
    size_t dst_bytes = max_write > max_read ? max_write : max_read;
    l->ctx = ctx;
    l->q = q;
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    int lanes = (type & CL_DEVICE_TYPE_GPU) != 0;
    l->lanes = lanes;
    for (int nt = 0; nt < 2; ++nt) {
        l->programs[nt] = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
        check(err, "clCreateProgramWithSource");
        char opts[32];
        snprintf(opts, sizeof opts, "-DNT=%d -DLANES=%d", nt, lanes);
        check(clBuildProgram(l->programs[nt], 1, &dev, opts, NULL, NULL),
              "building the limit kernel");
        l->kernels[nt] = clCreateKernel(l->programs[nt], "traffic", &err);
        check(err, "clCreateKernel");
    }
    cl_uint units = 1;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    /* CPUs: a few per core (the last ones balance the load); GPUs: 2048 per
     * compute unit, enough warps in flight to cover the memory's latency. */
    l->items = (lanes ? 2048 : 8) * (size_t)units;
    l->src = bench_buffer(ctx, max_read ? max_read : LINE, &err);
    check(err, "clCreateBuffer");
    l->dst = bench_buffer(ctx, dst_bytes ? dst_bytes : LINE, &err);
    check(err, "clCreateBuffer");
    l->sink = clCreateBuffer(ctx, CL_MEM_READ_WRITE, l->items * LINE, NULL, &err);
    check(err, "clCreateBuffer");
    cl_uint pattern = 0x01020304u;
    if (max_read)
        check(clEnqueueFillBuffer(q, l->src, &pattern, 4, 0, max_read, 0, NULL, NULL), "fill");
    if (dst_bytes)
        check(clEnqueueFillBuffer(q, l->dst, &pattern, 4, 0, dst_bytes, 0, NULL, NULL), "fill");
    check(clFinish(q), "clFinish");
    /* The flush buffer: twice the device's global memory cache (the LLC on
     * CPUs), 32 MiB to 512 MiB. */
    cl_ulong cache = 0;
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    l->flush_bytes = 2 * (size_t)cache;
    if (l->flush_bytes < ((size_t)32 << 20))
        l->flush_bytes = (size_t)32 << 20;
    if (l->flush_bytes > ((size_t)512 << 20))
        l->flush_bytes = (size_t)512 << 20;
    l->flush = bench_buffer(ctx, l->flush_bytes, &err);
    check(err, "clCreateBuffer");
    check(clEnqueueFillBuffer(q, l->flush, &pattern, 4, 0, l->flush_bytes, 0, NULL, NULL), "fill");
    check(clFinish(q), "clFinish");
    l->host_src = host_alloc(max_read);
    l->host_dst = host_alloc(dst_bytes);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    l->threads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
    return l;
}

void limit_release(bench_limit *l)
{
    for (int nt = 0; nt < 2; ++nt) {
        clReleaseKernel(l->kernels[nt]);
        clReleaseProgram(l->programs[nt]);
    }
    clReleaseMemObject(l->src);
    clReleaseMemObject(l->dst);
    clReleaseMemObject(l->sink);
    clReleaseMemObject(l->flush);
    free(l->host_src);
    free(l->host_dst);
    free(l);
}

typedef struct host_job {
    unsigned char *dst;
    const unsigned char *src;
    size_t copy, extra; /* lines in all */
    size_t c0, c1, e0, e1;
    int extra_reads;
    uint64_t sink;
} host_job;

/* One thread's share: the copy in 1 MiB memcpy blocks (one call when there is no extra). */
static void *host_worker(void *arg)
{
    host_job *j = arg;
    size_t c = j->c0, e = j->e0, block = j->e1 > j->e0 ? (1u << 20) / LINE : (size_t)-1;
    uint64_t x = 0;
    for (;;) {
        size_t stop = j->c1 - c < block ? j->c1 : c + block;
        memcpy(j->dst + c * LINE, j->src + c * LINE, (stop - c) * LINE);
        c = stop;
        size_t target =
            j->c1 > j->c0 ? j->e0 + (j->e1 - j->e0) * (c - j->c0) / (j->c1 - j->c0) : j->e1;
        if (target > e && j->extra_reads) {
            const uint64_t *s = (const uint64_t *)(j->src + (j->copy + e) * LINE);
            uint64_t a[4] = {0, 0, 0, 0};
            for (size_t k = 0; k < (target - e) * (LINE / 8); k += 4)
                for (int t = 0; t < 4; ++t)
                    a[t] ^= s[k + (size_t)t];
            x ^= a[0] ^ a[1] ^ a[2] ^ a[3];
        } else if (target > e) {
            memset(j->dst + (j->copy + e) * LINE, 0x3f, (target - e) * LINE);
        }
        e = target > e ? target : e;
        if (c >= j->c1 && e >= j->e1)
            break;
    }
    j->sink = x;
    return NULL;
}

static void host_run(bench_limit *l, size_t copy, size_t extra, int extra_reads)
{
    pthread_t tid[MAX_THREADS];
    host_job jobs[MAX_THREADS];
    unsigned n = l->threads;
    for (unsigned p = 0; p < n; ++p) {
        jobs[p] = (host_job){l->host_dst,   l->host_src,
                             copy,          extra,
                             copy * p / n,  copy * (p + 1) / n,
                             extra * p / n, extra * (p + 1) / n,
                             extra_reads,   0};
        if (p && pthread_create(&tid[p], NULL, host_worker, &jobs[p]) != 0) {
            fprintf(stderr, "dmlcl-bench: limit: pthread_create failed\n");
            exit(2);
        }
    }
    host_worker(&jobs[0]); /* this thread takes the first share */
    for (unsigned p = 1; p < n; ++p)
        pthread_join(tid[p], NULL);
}

/* Enqueues the traffic kernel (nt: non-temporal stores) on src: `copy` lines
 * copied to dst, `extra` lines read (extra_reads) or written after them. */
static void traffic(bench_limit *l, int nt, cl_mem src, cl_ulong copy, cl_ulong extra,
                    cl_int extra_reads)
{
    cl_kernel k = l->kernels[nt];
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &l->dst), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &src), "clSetKernelArg");
    check(clSetKernelArg(k, 2, sizeof copy, &copy), "clSetKernelArg");
    check(clSetKernelArg(k, 3, sizeof extra, &extra), "clSetKernelArg");
    check(clSetKernelArg(k, 4, sizeof extra_reads, &extra_reads), "clSetKernelArg");
    check(clSetKernelArg(k, 5, sizeof(cl_mem), &l->sink), "clSetKernelArg");
    /* CPUs: one work-item a group (its own stretch); GPUs: groups of 256
     * (2048 per compute unit divide by it). */
    size_t local = l->lanes ? 256 : 1;
    check(clEnqueueNDRangeKernel(l->q, k, 1, NULL, &l->items, &local, 0, NULL, NULL),
          "clEnqueueNDRangeKernel");
}

/* The traffic kernel reading the flush buffer (it stores nothing but the
 * sink): every core's caches end up holding its clean lines. */
void limit_flush(bench_limit *l)
{
    traffic(l, 0, l->flush, 0, l->flush_bytes / LINE, 1);
    check(clFinish(l->q), "clFinish");
}

double limit_run(bench_limit *l, limit_mechanism m, size_t read_bytes, size_t write_bytes)
{
    size_t r = read_bytes / LINE, w = write_bytes / LINE;
    size_t copy = r < w ? r : w, extra = r < w ? w - r : r - w;
    int extra_reads = r > w;
    double t0 = bench_now();
    if (m == LIMIT_HOST) {
        host_run(l, copy, extra, extra_reads);
        return bench_now() - t0;
    }
    if (m == LIMIT_CL_ENQUEUE) {
        /* No enqueued command reads without writing: extra reads are copied as
         * half their bytes read and half written (the same traffic). */
        if (copy)
            check(clEnqueueCopyBuffer(l->q, l->src, l->dst, 0, 0, copy * LINE, 0, NULL, NULL),
                  "clEnqueueCopyBuffer");
        cl_uint pattern = 0x3f800000u;
        if (extra && !extra_reads)
            check(clEnqueueFillBuffer(l->q, l->dst, &pattern, 4, copy * LINE, extra * LINE, 0, NULL,
                                      NULL),
                  "clEnqueueFillBuffer");
        if (extra / 2 && extra_reads)
            check(clEnqueueCopyBuffer(l->q, l->src, l->dst, copy * LINE, copy * LINE,
                                      extra / 2 * LINE, 0, NULL, NULL),
                  "clEnqueueCopyBuffer");
    } else {
        traffic(l, m == LIMIT_KERNEL_NT, l->src, copy, extra, extra_reads);
    }
    check(clFinish(l->q), "clFinish");
    return bench_now() - t0;
}
