/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-bench: each workload against the hardware's limit for its traffic
 * (bench/limit.h: the best of clEnqueueCopyBuffer/FillBuffer, an all-core
 * streaming kernel with and without non-temporal stores, and memcpy on every
 * core, each moving the workload's unavoidable bytes: the output written and
 * the 64-byte input lines read) and against the straightforward OpenCL
 * kernel (one work-item per element) on the same device, in one run.
 *
 * Method: every round times each contender once (synchronous), in an order
 * that rotates round by round, so the workload and its limit see the same
 * machine; two warm-up rounds are discarded; rounds go on until both the
 * minimum count (--reps) and the time budget (--seconds per workload) are
 * met (at most 400). The ratio is the limit's time over the workload's,
 * paired within each round (a noisy moment slows both), reported as the
 * median with its quartiles; 1.0 is at the limit, the goal at least 0.85.
 * Every output (dmlcl's and the naive kernel's) is checked once against an
 * independent expectation first.
 *
 *   dmlcl-bench [--csv] [--csv-file PATH] [--reps N] [--seconds S] [--filter SUBSTRING]
 *               [--device SPEC] [--variants]
 *
 * --variants runs the same kinds at other shapes and types (names v-...)
 * after the workloads: a kernel tuned to one shape shows there.
 * Last, dispatch-overhead: dmlcl's dispatch of a small gather against empty
 * kernels and a hand-written gather, pipelined and synchronous (below).
 * --csv prints CSV lines (columns as in the header line) instead of the
 * table (the device goes to stderr); --csv-file writes them to PATH beside
 * the table.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "limit.h"
#include "tool.h"
#include "workloads.h"

#define MAX_ROUNDS BENCH_MAX_ROUNDS

typedef struct options {
    int csv, reps, variants;
    double seconds;
    const char *filter, *device;
    FILE *csv_file;
    /* A second queue on the device's context with profiling on (NULL where the device has
     * none) and a 4-byte buffer: the events contender (below). */
    cl_command_queue events_queue;
    cl_mem events_mark;
    cl_mem events_busy; /* GPUs: a fill of it keeps the device busy while the host enqueues */
    size_t events_busy_bytes;
} options;

#define now bench_now

typedef bench_timing timing;
#define summarize bench_summarize

#define CHECK_HR(expr, what)                                                            \
    do {                                                                                \
        HRESULT hr_ = (expr);                                                           \
        if (FAILED(hr_)) {                                                              \
            fprintf(stderr, "dmlcl-bench: %s: %s: %s\n", what, dmlcl_hresult_name(hr_), \
                    dmlcl_last_error());                                                \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)
#define CHECK_CL(err, what)                                                     \
    do {                                                                        \
        if ((err) != CL_SUCCESS) {                                              \
            fprintf(stderr, "dmlcl-bench: %s failed (%d)\n", what, (int)(err)); \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

static cl_mem make_buffer(cl_context ctx, cl_command_queue q, size_t bytes, const void *data)
{
    cl_int err;
    cl_mem m = bench_buffer(ctx, bytes ? bytes : 4, &err);
    CHECK_CL(err, "clCreateBuffer");
    if (data)
        CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
                 "clEnqueueWriteBuffer");
    return m;
}

/* The naive kernels (workloads.h naive_desc), built once per element size. */
static const char *naive_source =
    "__kernel void naive_view(__global T *out, __global const T *in, long8 size, long8 stride,\n"
    "                         long offset)\n"
    "{\n"
    "    long g = get_global_id(0), at = offset, c;\n"
    "    c = g % size.s7; g /= size.s7; at += c * stride.s7;\n"
    "    c = g % size.s6; g /= size.s6; at += c * stride.s6;\n"
    "    c = g % size.s5; g /= size.s5; at += c * stride.s5;\n"
    "    c = g % size.s4; g /= size.s4; at += c * stride.s4;\n"
    "    c = g % size.s3; g /= size.s3; at += c * stride.s3;\n"
    "    c = g % size.s2; g /= size.s2; at += c * stride.s2;\n"
    "    c = g % size.s1; g /= size.s1; at += c * stride.s1;\n"
    "    out[get_global_id(0)] = in[at + g * stride.s0];\n"
    "}\n"
    "__kernel void naive_gather(__global T *out, __global const T *in, __global const long *idx,\n"
    "                           long axis, long k, long inner, long batch)\n"
    "{\n"
    "    long g = get_global_id(0);\n"
    "    long i = g % inner;\n"
    "    g /= inner;\n"
    "    long j = g % k, o = g / k;\n"
    "    long x = idx[(batch ? o * k : 0) + j];\n"
    "    if (x < 0)\n"
    "        x += axis;\n"
    "    out[get_global_id(0)] = x >= 0 && x < axis ? in[(o * axis + x) * inner + i] : (T)0;\n"
    "}\n";

static cl_program naive_programs[9];

static cl_kernel naive_kernel(cl_context ctx, cl_device_id dev, const workload *w, cl_mem out,
                              const cl_mem *in)
{
    static const char *types[9] = {NULL, "uchar", "ushort", NULL,   "uint",
                                   NULL, NULL,    NULL,     "ulong"};
    cl_int err;
    if (!naive_programs[w->naive.elem]) {
        char opts[64];
        snprintf(opts, sizeof opts, "-DT=%s", types[w->naive.elem]);
        naive_programs[w->naive.elem] =
            clCreateProgramWithSource(ctx, 1, &naive_source, NULL, &err);
        CHECK_CL(err, "naive program");
        CHECK_CL(clBuildProgram(naive_programs[w->naive.elem], 1, &dev, opts, NULL, NULL),
                 "building the naive kernels");
    }
    const naive_desc *n = &w->naive;
    cl_kernel k = clCreateKernel(naive_programs[n->elem],
                                 n->kind == NAIVE_VIEW ? "naive_view" : "naive_gather", &err);
    CHECK_CL(err, "clCreateKernel");
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(cl_mem), &in[0]);
    if (n->kind == NAIVE_VIEW) {
        cl_long8 size = {{1, 1, 1, 1, 1, 1, 1, 1}}, stride = {{0, 0, 0, 0, 0, 0, 0, 0}};
        for (unsigned d = 0; d < n->rank; ++d) {
            size.s[8 - n->rank + d] = n->sizes[d];
            stride.s[8 - n->rank + d] = n->strides[d];
        }
        cl_long offset = n->offset;
        clSetKernelArg(k, 2, sizeof size, &size);
        clSetKernelArg(k, 3, sizeof stride, &stride);
        CHECK_CL(clSetKernelArg(k, 4, sizeof offset, &offset), "clSetKernelArg");
    } else {
        cl_long v[4] = {n->axis, n->k, n->inner, n->batch};
        clSetKernelArg(k, 2, sizeof(cl_mem), &in[1]);
        for (int i = 0; i < 4; ++i)
            CHECK_CL(clSetKernelArg(k, 3 + (cl_uint)i, sizeof v[i], &v[i]), "clSetKernelArg");
    }
    return k;
}

/* The n outputs, read back to back, must be the expected bytes (or, with float_ulps, the
 * expected floats within that many ULPs). */
static void expect_outputs(cl_command_queue q, const cl_mem *outs, unsigned n, const workload *w,
                           const char *who)
{
    unsigned char *got = malloc(w->output_bytes);
    for (size_t o = 0, at = 0; o < n; at += w->out_bytes[o++])
        CHECK_CL(
            clEnqueueReadBuffer(q, outs[o], CL_TRUE, 0, w->out_bytes[o], got + at, 0, NULL, NULL),
            "clEnqueueReadBuffer");
    if (w->float_ulps || w->float_abs > 0) {
        const float *e = w->expected;
        for (size_t i = 0; i < w->output_bytes / 4; ++i) {
            float g;
            memcpy(&g, got + 4 * i, 4);
            if (!workload_float_ok(w, g, e[i])) {
                fprintf(stderr,
                        "dmlcl-bench: %s: %s: WRONG OUTPUT at element %zu (expected %.9g, got "
                        "%.9g: more than %u ULPs and %g apart)\n",
                        w->name, who, i, (double)e[i], (double)g, w->float_ulps, w->float_abs);
                exit(1);
            }
        }
    } else if (memcmp(got, w->expected, w->output_bytes) != 0) {
        size_t i = 0;
        while (got[i] == ((unsigned char *)w->expected)[i])
            ++i;
        fprintf(stderr,
                "dmlcl-bench: %s: %s: WRONG OUTPUT at byte %zu (expected 0x%02x, got 0x%02x)\n",
                w->name, who, i, ((unsigned char *)w->expected)[i], got[i]);
        exit(1);
    }
    free(got);
}

/* The contenders of a round: dmlcl, the naive kernel, dmlcl timed on the device (events), each
 * limit mechanism. */
enum { C_DMLCL, C_NAIVE, C_EVENTS, C_LIMIT, C_COUNT = C_LIMIT + LIMIT_MECHANISMS };

/*
 * dmlcl's dispatch timed on the device, as a CUDA program times a kernel with events (PyTorch's
 * figures in bench/peers_torch.py): a 4-byte fill before and one after on a profiling queue,
 * the time from the first's end to the second's start (the dispatch's kernels and the gaps
 * between them; not the host's enqueue and wait, which the synchronous wall-clock figure
 * holds: some 16 us on an H200's OpenCL). On a GPU a fill of 256 MiB goes first, so that the
 * device is busy while the host enqueues the rest (else the gap before the dispatch's first
 * kernel is the host's enqueue: the first H200 run of this column, 2026-11-30, read as much as
 * the wall clock); peers_torch.py's L2 flush before its start event plays that part. 0 where
 * the device's queue takes no profiling.
 */
static double events_dispatch(const options *opt, dmlcl_binding_table *table)
{
    if (!opt->events_queue)
        return 0;
    cl_command_queue pq = opt->events_queue;
    cl_event e[2];
    cl_uint zero = 0;
    if (opt->events_busy)
        CHECK_CL(clEnqueueFillBuffer(pq, opt->events_busy, &zero, 4, 0, opt->events_busy_bytes, 0,
                                     NULL, NULL),
                 "events: busy fill");
    CHECK_CL(clEnqueueFillBuffer(pq, opt->events_mark, &zero, 4, 0, 4, 0, NULL, &e[0]),
             "events: fill");
    CHECK_HR(dmlcl_binding_table_dispatch(table, pq, 0, NULL, NULL), "dispatch (events)");
    CHECK_CL(clEnqueueFillBuffer(pq, opt->events_mark, &zero, 4, 0, 4, 0, NULL, &e[1]),
             "events: fill");
    CHECK_CL(clFinish(pq), "clFinish (events)");
    cl_ulong end0 = 0, start1 = 0;
    cl_int err = clGetEventProfilingInfo(e[0], CL_PROFILING_COMMAND_END, sizeof end0, &end0, NULL);
    if (err == CL_SUCCESS)
        err =
            clGetEventProfilingInfo(e[1], CL_PROFILING_COMMAND_START, sizeof start1, &start1, NULL);
    clReleaseEvent(e[0]);
    clReleaseEvent(e[1]);
    return err == CL_SUCCESS && start1 > end0 ? 1e-9 * (double)(start1 - end0) : 0;
}

typedef struct result {
    const char *name;
    size_t bytes, read_bytes;
    timing t[C_COUNT];
    int best;             /* the limit mechanism with the lowest median */
    timing ratio, versus; /* paired per round: limit / dmlcl, naive / dmlcl */
    int rounds;
    double first_compile_ms, cached_compile_ms;
    double flops; /* the workload's (0: not compute-bound) */
    const char *what;
} result;

static int run_workload(dmlcl_device *dev, workload_setup setup, const options *opt, result *res)
{
    workload w;
    memset(&w, 0, sizeof w);
    setup(&w);
    if (opt->filter && !strstr(w.name, opt->filter)) {
        workload_free(&w);
        return -1;
    }
    cl_context ctx = dmlcl_device_context(dev);
    cl_command_queue q = dmlcl_device_queue(dev);
    dmlcl_operator *op;
    dmlcl_compiled_operator *cop, *again;
    CHECK_HR(dmlcl_operator_create(dev, &w.desc, &op), w.name);
    double t0 = now();
    CHECK_HR(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &cop), "compile");
    double t1 = now();
    CHECK_HR(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &again), "compile (cached)");
    double t2 = now();
    dmlcl_compiled_operator_release(again);

    /* Inputs, then outputs (SPLIT: several, their expected bytes back to back). */
    unsigned n_out = w.n_outputs ? w.n_outputs : 1, n_mem = w.n_inputs + n_out;
    if (!w.n_outputs)
        w.out_bytes[0] = w.output_bytes;
    cl_mem mems[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    DML_BUFFER_BINDING bufs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    DML_BINDING_DESC descs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    for (unsigned i = 0; i < n_mem; ++i) {
        bool in = i < w.n_inputs;
        size_t bytes = in ? w.input_bytes[i] : w.out_bytes[i - w.n_inputs];
        if (in && bytes == 0) { /* an absent optional input */
            mems[i] = NULL;
            descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
            continue;
        }
        mems[i] = make_buffer(ctx, q, bytes, in ? w.inputs[i] : NULL);
        bufs[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)mems[i], 0, bytes};
        descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bufs[i]};
    }
    dmlcl_binding_table *table;
    CHECK_HR(dmlcl_binding_table_create(cop, &table), "binding table");
    CHECK_HR(dmlcl_binding_table_bind_inputs(table, w.n_inputs, descs), "bind inputs");
    CHECK_HR(dmlcl_binding_table_bind_outputs(table, n_out, descs + w.n_inputs), "bind outputs");
    /* The temporary resource, where the compiled operator asks for one (a split reduction). */
    UINT64 temp_bytes = dmlcl_compiled_operator_binding_properties(cop).TemporaryResourceSize;
    cl_mem temp = temp_bytes ? make_buffer(ctx, q, (size_t)temp_bytes, NULL) : NULL;
    if (temp) {
        DML_BUFFER_BINDING tb = {(ID3D12Resource *)temp, 0, temp_bytes};
        DML_BINDING_DESC td = {DML_BINDING_TYPE_BUFFER, &tb};
        CHECK_HR(dmlcl_binding_table_bind_temporary(table, &td), "bind temporary");
    }

    /* Correctness first, once: the benchmarked outputs must be right. */
    cl_mem out = mems[w.n_inputs];
    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
    CHECK_HR(dmlcl_binding_table_status(table), "status");
    expect_outputs(q, mems + w.n_inputs, n_out, &w, "dmlcl");
    /* The naive kernel, where the workload describes one (one output). */
    cl_kernel naive = NULL;
    size_t elements = 0;
    if (w.naive.kind != NAIVE_NONE && n_out == 1) {
        naive = naive_kernel(ctx, dmlcl_device_id(dev), &w, out, mems);
        elements = w.output_bytes / w.naive.elem;
        CHECK_CL(clEnqueueNDRangeKernel(q, naive, 1, NULL, &elements, NULL, 0, NULL, NULL),
                 "naive");
        expect_outputs(q, &out, 1, &w, "naive kernel");
    }

    size_t read = workload_read_bytes(&w), written = (w.output_bytes + 63) / 64 * 64;
    bench_limit *limit = limit_create(ctx, dmlcl_device_id(dev), q, read, written);
    static double samples[C_COUNT][MAX_ROUNDS];
    int rounds = 0;
    double start = now();
    for (int r = -2; r < MAX_ROUNDS; ++r) { /* two warm-up rounds */
        if (r >= opt->reps && now() - start >= opt->seconds)
            break;
        if (r == 0)
            start = now();
        for (int k = 0; k < C_COUNT; ++k) {
            int c = (k + (r < 0 ? 0 : r)) % C_COUNT;
            if ((c == C_NAIVE && !naive) || (c == C_EVENTS && !opt->events_queue)) {
                if (r >= 0)
                    samples[c][r] = 0; /* none: reported as n/a */
                continue;
            }
            limit_flush(limit); /* every contender starts cold */
            if (c == C_EVENTS) {
                double e = events_dispatch(opt, table);
                if (r >= 0)
                    samples[c][r] = e;
                continue;
            }
            double s = now();
            if (c == C_DMLCL) {
                CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
                CHECK_CL(clFinish(q), "clFinish");
            } else if (c == C_NAIVE) {
                CHECK_CL(clEnqueueNDRangeKernel(q, naive, 1, NULL, &elements, NULL, 0, NULL, NULL),
                         "naive");
                CHECK_CL(clFinish(q), "clFinish");
            } else {
                limit_run(limit, (limit_mechanism)(c - C_LIMIT), read, written);
            }
            if (r >= 0)
                samples[c][r] = now() - s;
        }
        rounds = r + 1;
    }
    res->name = w.name;
    res->what = w.what;
    res->flops = w.flops;
    res->bytes = w.output_bytes;
    res->read_bytes = read;
    res->rounds = rounds;
    res->best = C_LIMIT;
    for (int c = 0; c < C_COUNT; ++c) {
        res->t[c] = summarize(samples[c], rounds);
        if (c >= C_LIMIT && res->t[c].median < res->t[res->best].median)
            res->best = c;
    }
    double ratio[MAX_ROUNDS], versus[MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r) {
        ratio[r] = samples[res->best][r] / samples[C_DMLCL][r];
        versus[r] = naive ? samples[C_NAIVE][r] / samples[C_DMLCL][r] : 0;
    }
    res->ratio = summarize(ratio, rounds);
    res->versus = summarize(versus, rounds);
    res->first_compile_ms = 1e3 * (t1 - t0);
    res->cached_compile_ms = 1e3 * (t2 - t1);

    limit_release(limit);
    if (naive)
        clReleaseKernel(naive);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
    for (unsigned i = 0; i < n_mem; ++i)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (temp)
        clReleaseMemObject(temp);
    workload_free(&w);
    return 0;
}

#define CSV_HEADER                                                                       \
    "workload,bytes,dmlcl_s,limit_s,ratio,read_bytes,dmlcl_min_s,dmlcl_q1_s,dmlcl_q3_s," \
    "limit_min_s,limit_mechanism,ratio_q1,ratio_q3,ratio_of_mins,naive_s,naive_min_s,"   \
    "naive_over_dmlcl,rounds,dmlcl_events_s,dmlcl_events_min_s\n"

static void print_csv(FILE *f, const result *r)
{
    const timing *d = &r->t[C_DMLCL], *l = &r->t[r->best], *n = &r->t[C_NAIVE],
                 *e = &r->t[C_EVENTS];
    fprintf(f,
            "%s,%zu,%.9f,%.9f,%.4f,%zu,%.9f,%.9f,%.9f,%.9f,%s,%.4f,%.4f,%.4f,%.9f,%.9f,%.4f,%d,"
            "%.9f,%.9f\n",
            r->name, r->bytes, d->median, l->median, r->ratio.median, r->read_bytes, d->min, d->q1,
            d->q3, l->min, limit_name((limit_mechanism)(r->best - C_LIMIT)), r->ratio.q1,
            r->ratio.q3, l->min / d->min, n->median, n->min, r->versus.median, r->rounds, e->median,
            e->min);
}

/*
 * The dispatch-overhead workload: a 1000-element f32 gather (UINT32 indices)
 * dispatched through dmlcl against three references enqueued directly on
 * the same queue, each set up once (arguments set once, as dmlcl's are):
 *   empty-1-arg   an empty kernel of one buffer argument, one work-item
 *   empty-8-args  an empty kernel with indexed_copy's 8 arguments (cl/abi.h:
 *                 out, out_base, in, in_base, idx, idx_base, status NULL,
 *                 a __constant shape buffer), one work-item
 *   naive-gather  the straightforward gather, out[i] = in[idx[i]], one
 *                 work-item per element (3 arguments)
 * Two modes: pipelined (1000 enqueues, one clFinish) and synchronous (200
 * enqueues, a clFinish after each), time per dispatch. Every round times
 * each (contender, mode) once, in an order that rotates round by round; two
 * warm-up rounds are discarded; rounds go on as the workloads' do, to an odd
 * count (quartiles and median are then rounds' own values). The ratio is the
 * reference's time over dmlcl's, paired within each round.
 */
enum { D_DMLCL, D_EMPTY1, D_EMPTY8, D_GATHER, D_COUNT };
static const char *const dispatch_refs[D_COUNT] = {"dmlcl", "empty-1-arg", "empty-8-args",
                                                   "naive-gather"};
static const char *const dispatch_ref_what[D_COUNT] = {"dmlcl", "empty kernel, 1 argument",
                                                       "empty kernel, indexed_copy's 8 arguments",
                                                       "hand-written gather, 1000 work-items"};
static const char *const dispatch_modes[2] = {"pipelined", "synchronous"};
static const int dispatch_count[2] = {1000, 200};

static const char *dispatch_source =
    "__kernel void empty1(__global uint *p) { }\n"
    "__kernel void empty8(__global uint *out, long out_base, __global const uint *in,\n"
    "                     long in_base, __global const uint *idx, long idx_base,\n"
    "                     __global uint *status, __constant long *shape) { }\n"
    "__kernel void gather(__global float *out, __global const float *in,\n"
    "                     __global const uint *idx)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[idx[i]];\n"
    "}\n";

static void dispatch_expect(cl_command_queue q, cl_mem out, const float *want, UINT n,
                            const char *who)
{
    float got[1000];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * sizeof *got, got, 0, NULL, NULL),
             "clEnqueueReadBuffer");
    for (UINT i = 0; i < n; ++i)
        if (memcmp(&got[i], &want[i], sizeof *got) != 0) {
            fprintf(stderr, "dmlcl-bench: dispatch-overhead: %s: WRONG OUTPUT at %u: %g, not %g\n",
                    who, i, got[i], want[i]);
            exit(1);
        }
}

static void dispatch_overhead(dmlcl_device *dev, const options *opt)
{
    cl_context ctx = dmlcl_device_context(dev);
    cl_command_queue q = dmlcl_device_queue(dev);
    enum { N = 1000 };
    UINT s[1] = {N};
    DML_BUFFER_TENSOR_DESC b[3] = {{DML_TENSOR_DATA_TYPE_FLOAT32, 0, 1, s, NULL, 4 * N, 0},
                                   {DML_TENSOR_DATA_TYPE_UINT32, 0, 1, s, NULL, 4 * N, 0},
                                   {DML_TENSOR_DATA_TYPE_FLOAT32, 0, 1, s, NULL, 4 * N, 0}};
    DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                            {DML_TENSOR_TYPE_BUFFER, &b[1]},
                            {DML_TENSOR_TYPE_BUFFER, &b[2]}};
    DML_GATHER_OPERATOR_DESC g = {&t[0], &t[1], &t[2], 0, 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &g};
    dmlcl_operator *op;
    dmlcl_compiled_operator *cop;
    dmlcl_binding_table *table;
    CHECK_HR(dmlcl_operator_create(dev, &desc, &op), "overhead op");
    CHECK_HR(dmlcl_operator_compile(op, 0, &cop), "overhead compile");
    static float data[N], want[N];
    static uint32_t idx[N];
    for (UINT i = 0; i < N; ++i) {
        data[i] = 0.5f * (float)i - 100.0f;
        idx[i] = (i * 7919u) % N;
    }
    for (UINT i = 0; i < N; ++i)
        want[i] = data[idx[i]];
    /* in, idx, dmlcl's out, the hand-written gather's out, the 8-argument kernel's shape. */
    cl_mem m[5] = {make_buffer(ctx, q, sizeof data, data), make_buffer(ctx, q, sizeof idx, idx),
                   make_buffer(ctx, q, sizeof want, NULL), make_buffer(ctx, q, sizeof want, NULL),
                   make_buffer(ctx, q, 16 * sizeof(cl_long), NULL)};
    DML_BUFFER_BINDING bb[3];
    DML_BINDING_DESC bd[3];
    for (int i = 0; i < 3; ++i) {
        bb[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)m[i], 0, 4 * N};
        bd[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bb[i]};
    }
    CHECK_HR(dmlcl_binding_table_create(cop, &table), "overhead table");
    CHECK_HR(dmlcl_binding_table_bind_inputs(table, 2, bd), "overhead bind");
    CHECK_HR(dmlcl_binding_table_bind_outputs(table, 1, bd + 2), "overhead bind");

    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &dispatch_source, NULL, &err);
    CHECK_CL(err, "clCreateProgramWithSource");
    cl_device_id did = dmlcl_device_id(dev);
    CHECK_CL(clBuildProgram(prog, 1, &did, "", NULL, NULL), "build the reference kernels");
    cl_kernel k[D_COUNT] = {NULL};
    const char *names[D_COUNT] = {NULL, "empty1", "empty8", "gather"};
    for (int c = D_EMPTY1; c < D_COUNT; ++c) {
        k[c] = clCreateKernel(prog, names[c], &err);
        CHECK_CL(err, "clCreateKernel");
    }
    cl_long zero = 0;
    cl_mem none = NULL;
    CHECK_CL(clSetKernelArg(k[D_EMPTY1], 0, sizeof(cl_mem), &m[2]), "clSetKernelArg");
    const void *args8[8] = {&m[2], &zero, &m[0], &zero, &m[1], &zero, &none, &m[4]};
    for (cl_uint a = 0; a < 8; ++a)
        CHECK_CL(
            clSetKernelArg(k[D_EMPTY8], a, a % 2 && a < 6 ? sizeof zero : sizeof(cl_mem), args8[a]),
            "clSetKernelArg");
    CHECK_CL(clSetKernelArg(k[D_GATHER], 0, sizeof(cl_mem), &m[3]), "clSetKernelArg");
    CHECK_CL(clSetKernelArg(k[D_GATHER], 1, sizeof(cl_mem), &m[0]), "clSetKernelArg");
    CHECK_CL(clSetKernelArg(k[D_GATHER], 2, sizeof(cl_mem), &m[1]), "clSetKernelArg");
    size_t one = 1, n_items = N;

    /* Correctness first: dmlcl's output and the hand-written gather's. */
    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
    dispatch_expect(q, m[2], want, N, "dmlcl");
    CHECK_CL(clEnqueueNDRangeKernel(q, k[D_GATHER], 1, NULL, &n_items, NULL, 0, NULL, NULL),
             "enqueue gather");
    dispatch_expect(q, m[3], want, N, "hand-written gather");

    static double samples[2][D_COUNT][MAX_ROUNDS];
    int rounds = 0;
    double start = now();
    for (int r = -2; r < MAX_ROUNDS - 1; ++r) { /* two warm-up rounds; an odd count */
        if (r >= opt->reps && r % 2 == 1 && now() - start >= opt->seconds)
            break;
        if (r == 0)
            start = now();
        for (int j = 0; j < 2 * D_COUNT; ++j) {
            int x = (j + (r < 0 ? 0 : r)) % (2 * D_COUNT), mode = x / D_COUNT, c = x % D_COUNT;
            int count = dispatch_count[mode];
            double t0 = now();
            for (int i = 0; i < count; ++i) {
                if (c == D_DMLCL)
                    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
                else
                    CHECK_CL(clEnqueueNDRangeKernel(q, k[c], 1, NULL,
                                                    c == D_GATHER ? &n_items : &one, NULL, 0, NULL,
                                                    NULL),
                             "enqueue reference");
                if (mode == 1)
                    CHECK_CL(clFinish(q), "clFinish");
            }
            CHECK_CL(clFinish(q), "clFinish");
            if (r >= 0)
                samples[mode][c][r] = (now() - t0) / count;
        }
        rounds = r + 1;
    }
    dispatch_expect(q, m[2], want, N, "dmlcl (after the rounds)");

    if (!opt->csv)
        printf("\n| dispatch overhead | dmlcl us per dispatch median (min, q1-q3) | reference "
               "| reference us median (min) | dmlcl / reference median [q1-q3] (of mins) "
               "| rounds |\n|---|---|---|---|---|---|\n");
    for (int mode = 0; mode < 2; ++mode) {
        timing d = summarize(samples[mode][D_DMLCL], rounds);
        for (int c = D_EMPTY1; c < D_COUNT; ++c) {
            timing ref = summarize(samples[mode][c], rounds);
            double ratio[MAX_ROUNDS], over[MAX_ROUNDS];
            for (int r = 0; r < rounds; ++r) {
                ratio[r] = samples[mode][c][r] / samples[mode][D_DMLCL][r];
                over[r] = samples[mode][D_DMLCL][r] / samples[mode][c][r];
            }
            timing rt = summarize(ratio, rounds), ov = summarize(over, rounds);
            char name[64];
            snprintf(name, sizeof name, "dispatch-%s-%s", dispatch_modes[mode], dispatch_refs[c]);
            /* The workloads' columns: the reference in the limit's, no naive kernel. */
            for (int f = 0; f < 2; ++f) {
                FILE *out = f ? opt->csv_file : opt->csv ? stdout : NULL;
                if (out)
                    fprintf(out,
                            "%s,%d,%.9f,%.9f,%.4f,0,%.9f,%.9f,%.9f,%.9f,%s,%.4f,%.4f,%.4f,0,0,0,"
                            "%d,0,0\n",
                            name, 4 * N, d.median, ref.median, rt.median, d.min, d.q1, d.q3,
                            ref.min, dispatch_refs[c], rt.q1, rt.q3, ref.min / d.min, rounds);
            }
            if (!opt->csv)
                printf("| %s (%d) | %.1f (%.1f, %.1f-%.1f) | %s | %.1f (%.1f) | %.2fx "
                       "[%.2f-%.2f] (%.2fx) | %d |\n",
                       dispatch_modes[mode], dispatch_count[mode], 1e6 * d.median, 1e6 * d.min,
                       1e6 * d.q1, 1e6 * d.q3, dispatch_ref_what[c], 1e6 * ref.median,
                       1e6 * ref.min, ov.median, ov.q1, ov.q3, d.min / ref.min, rounds);
        }
    }
    for (int c = D_EMPTY1; c < D_COUNT; ++c)
        clReleaseKernel(k[c]);
    clReleaseProgram(prog);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
    for (int i = 0; i < 5; ++i)
        clReleaseMemObject(m[i]);
}

/*
 * The device's peak float32 rate, from what OpenCL reports: compute units x clock x the
 * native float vector width x 2 (a multiply-add) x 2 multiply-add pipes per core (x86-64
 * cores since Haswell and Zen 2 have two; Zen 4 runs 512-bit vectors at half that); a GPU's
 * compute units x 128 float32 lanes (NVIDIA's SMs since Ampere) x 2 x clock. A bound to
 * compare with, not a measurement.
 */
static double peak_flops(dmlcl_device *dev, const char **how)
{
    cl_device_id id = dmlcl_device_id(dev);
    cl_uint units = 0, mhz = 0, width = 0;
    cl_device_type type = 0;
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
    clGetDeviceInfo(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width, &width, NULL);
    clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    static char text[160];
    if (type & CL_DEVICE_TYPE_GPU) {
        snprintf(text, sizeof text, "%u compute units x 128 lanes x 2 x %u MHz", units, mhz);
        *how = text;
        return (double)units * 128 * 2 * mhz * 1e6;
    }
    snprintf(text, sizeof text, "%u cores x %u MHz x %u floats x 2 (multiply-add) x 2 pipes", units,
             mhz, width);
    *how = text;
    return (double)units * mhz * 1e6 * width * 2 * 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dmlcl-bench [--csv] [--csv-file PATH] [--reps N] [--seconds S] "
               "[--filter TEXT] [--device SPEC] [--variants]\n"
               "  Times each workload against the hardware's limit for its traffic (best of\n"
               "  clEnqueueCopy/Fill, a streaming kernel, memcpy on every core) and the naive\n"
               "  one-work-item-per-element kernel, in interleaved rounds.\n"
               "  --csv            CSV lines (columns as in their header) instead of the table\n"
               "  --csv-file PATH  also write those lines to PATH\n"
               "  --reps N         at least N timed rounds per workload (10..400, default 10)\n"
               "  --seconds S      and at least S seconds of rounds per workload (default 2)\n"
               "  --filter TEXT    only workloads whose name contains TEXT (dispatch-overhead:\n"
               "                   dispatch time against empty kernels and a hand-written gather)\n"
               "  --device SPEC    [PLATFORM:]DEVICE, as DMLCL_PLATFORM/DMLCL_DEVICE\n"
               "  --variants       also the same kinds at other shapes and types\n"
               "  --version        the version\n");
}

int main(int argc, char **argv)
{
    options opt = {.reps = 10, .seconds = 2.0};
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version")) {
            dmlcl_tool_version("dmlcl-bench");
            return 0;
        } else if (!strcmp(argv[i], "--csv"))
            opt.csv = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            opt.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            opt.seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--variants"))
            opt.variants = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            opt.filter = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            opt.device = argv[++i];
        else if (!strcmp(argv[i], "--csv-file") && i + 1 < argc) {
            opt.csv_file = fopen(argv[++i], "w");
            if (!opt.csv_file) {
                perror(argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "dmlcl-bench: unknown argument %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (opt.reps < 10)
        opt.reps = 10;
    if (opt.reps > MAX_ROUNDS)
        opt.reps = MAX_ROUNDS;
    dmlcl_device *dev;
    CHECK_HR(dmlcl_device_create_from_spec(opt.device, &dev), "device");
    {
        cl_int err;
        opt.events_queue = clCreateCommandQueue(dmlcl_device_context(dev), dmlcl_device_id(dev),
                                                CL_QUEUE_PROFILING_ENABLE, &err);
        if (err != CL_SUCCESS)
            opt.events_queue = NULL;
        if (opt.events_queue) {
            opt.events_mark =
                clCreateBuffer(dmlcl_device_context(dev), CL_MEM_READ_WRITE, 4, NULL, &err);
            if (err != CL_SUCCESS) {
                clReleaseCommandQueue(opt.events_queue);
                opt.events_queue = NULL;
            }
        }
        cl_device_type type = 0;
        clGetDeviceInfo(dmlcl_device_id(dev), CL_DEVICE_TYPE, sizeof type, &type, NULL);
        if (opt.events_queue && (type & CL_DEVICE_TYPE_GPU)) {
            cl_ulong max_alloc = 0;
            clGetDeviceInfo(dmlcl_device_id(dev), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                            &max_alloc, NULL);
            opt.events_busy_bytes = (size_t)256 << 20;
            while (opt.events_busy_bytes > 4096 && opt.events_busy_bytes > max_alloc / 2)
                opt.events_busy_bytes /= 2;
            opt.events_busy = clCreateBuffer(dmlcl_device_context(dev), CL_MEM_READ_WRITE,
                                             opt.events_busy_bytes, NULL, &err);
            if (err != CL_SUCCESS)
                opt.events_busy = NULL;
        }
    }
    if (opt.csv_file)
        fprintf(opt.csv_file, CSV_HEADER);
    if (opt.csv) {
        printf(CSV_HEADER);
        fprintf(stderr, "dmlcl-bench: device: %s\n", dmlcl_device_description(dev));
    } else {
        printf("device: %s\n\n| workload | traffic MB (read + written) | dmlcl ms median (min, "
               "q1-q3) | limit ms median (min), best mechanism | ratio median [q1-q3] (of mins) "
               "| naive kernel ms | dmlcl vs naive | rounds | first / cached compile | dmlcl ms on "
               "the "
               "device (events) |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n",
               dmlcl_device_description(dev));
    }
    dmlcl_tool_progress progress;
    dmlcl_tool_progress_start(&progress, "dmlcl-bench");
    unsigned count = bench_workload_count + (opt.variants ? bench_variant_count : 0);
    static result computed[64];
    unsigned n_computed = 0;
    for (unsigned i = 0; i < count; ++i) {
        result r;
        workload_setup setup = i < bench_workload_count ? bench_workloads[i]
                                                        : bench_variants[i - bench_workload_count];
        if (run_workload(dev, setup, &opt, &r) != 0)
            continue;
        if (r.flops > 0 && n_computed < sizeof computed / sizeof computed[0])
            computed[n_computed++] = r;
        dmlcl_tool_progress_step(&progress, i + 1, count, r.name);
        if (opt.csv_file)
            print_csv(opt.csv_file, &r);
        const timing *d = &r.t[C_DMLCL], *l = &r.t[r.best], *n = &r.t[C_NAIVE];
        char naive[64] = "n/a | n/a"; /* SPLIT's several outputs: no naive kernel */
        if (r.versus.median > 0)
            snprintf(naive, sizeof naive, "%.2f | %.2fx", 1e3 * n->median, r.versus.median);
        char events[64] = "n/a"; /* a queue without profiling */
        if (r.t[C_EVENTS].median > 0)
            snprintf(events, sizeof events, "%.3f (%.3f)", 1e3 * r.t[C_EVENTS].median,
                     1e3 * r.t[C_EVENTS].min);
        if (opt.csv)
            print_csv(stdout, &r);
        else
            printf("| %s | %.1f + %.1f | %.2f (%.2f, %.2f-%.2f) | %.2f (%.2f), %s | %.2f "
                   "[%.2f-%.2f] (%.2f) | %s | %d | %.1f / %.3f ms | %s |\n",
                   r.name, 1e-6 * (double)r.read_bytes, 1e-6 * (double)r.bytes, 1e3 * d->median,
                   1e3 * d->min, 1e3 * d->q1, 1e3 * d->q3, 1e3 * l->median, 1e3 * l->min,
                   limit_name((limit_mechanism)(r.best - C_LIMIT)), r.ratio.median, r.ratio.q1,
                   r.ratio.q3, l->min / d->min, naive, r.rounds, r.first_compile_ms,
                   r.cached_compile_ms, events);
        fflush(stdout);
    }
    if (n_computed && !opt.csv) {
        const char *how;
        double peak = peak_flops(dev, &how);
        printf("\n| compute workload | dmlcl ms median (min) | GFLOP/s of the median (of the min) "
               "| fraction of peak (median) | on the device (events): ms median, GFLOP/s, fraction "
               "of peak |\n|---|---|---|---|---|\n");
        for (unsigned i = 0; i < n_computed; ++i) {
            const result *r = &computed[i];
            const timing *d = &r->t[C_DMLCL], *e = &r->t[C_EVENTS];
            char events[96] = "n/a";
            if (e->median > 0)
                snprintf(events, sizeof events, "%.3f, %.1f, %.2f", 1e3 * e->median,
                         1e-9 * r->flops / e->median, r->flops / e->median / peak);
            printf("| %s: %s | %.2f (%.2f) | %.1f (%.1f) | %.2f | %s |\n", r->name, r->what,
                   1e3 * d->median, 1e3 * d->min, 1e-9 * r->flops / d->median,
                   1e-9 * r->flops / d->min, r->flops / d->median / peak, events);
        }
        printf("\npeak %.1f GFLOP/s: %s\n", 1e-9 * peak, how);
        fflush(stdout);
    }
    if (!opt.filter || strstr("dispatch-overhead", opt.filter)) {
        dmlcl_tool_progress_step(&progress, count, count, "dispatch-overhead");
        dispatch_overhead(dev, &opt);
    }
    dmlcl_tool_progress_end(&progress);
    if (opt.events_busy)
        clReleaseMemObject(opt.events_busy);
    if (opt.events_queue) {
        clReleaseMemObject(opt.events_mark);
        clReleaseCommandQueue(opt.events_queue);
    }
    dmlcl_device_release(dev);
    if (opt.csv_file)
        fclose(opt.csv_file);
    return 0;
}
