/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-bench: each workload against the same bytes moved by the device's
 * own copy (clEnqueueCopyBuffer; a fill for broadcasts), on the same queue, in
 * one run. Median and minimum of timed synchronous dispatches after warm-up;
 * every output checked once against an independent expectation.
 *
 *   dmlcl-bench [--csv] [--csv-file PATH] [--reps N] [--filter SUBSTRING] [--device SPEC]
 *               [--variants]
 *
 * --variants runs the same kinds at other shapes and types (names v-...)
 * after the workloads: a kernel tuned to one shape shows there.
 * --csv prints `workload,bytes,dmlcl_s,limit_s,ratio` lines instead of the
 * table (the header line, then one line per workload: the device goes to
 * stderr); --csv-file writes them to PATH beside the table.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"
#include "workloads.h"

typedef struct options {
    int csv, reps, variants;
    const char *filter, *device;
    FILE *csv_file;
} options;

static double now(void)
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

typedef struct timing {
    double median, min;
} timing;

static timing summarize(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return (timing){n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t[0]};
}

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
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    CHECK_CL(err, "clCreateBuffer");
    if (data)
        CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
                 "clEnqueueWriteBuffer");
    return m;
}

typedef struct result {
    const char *name;
    size_t bytes;
    timing op, limit;
    double first_compile_ms, cached_compile_ms;
} result;

/* Times one synchronous dispatch of `table` (or of the limit op) `reps` times. */
static timing time_op(dmlcl_binding_table *table, cl_command_queue q, int reps, limit_kind limit,
                      cl_mem src, cl_mem dst, size_t bytes)
{
    double t[256];
    for (int r = -2; r < reps; ++r) { /* two warm-up rounds */
        double t0 = now();
        if (table) {
            CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
        } else if (limit == LIMIT_FILL) {
            cl_uint pattern = 0x3f800000u;
            CHECK_CL(clEnqueueFillBuffer(q, dst, &pattern, 4, 0, bytes, 0, NULL, NULL),
                     "clEnqueueFillBuffer");
        } else {
            CHECK_CL(clEnqueueCopyBuffer(q, src, dst, 0, 0, bytes, 0, NULL, NULL),
                     "clEnqueueCopyBuffer");
        }
        CHECK_CL(clFinish(q), "clFinish");
        if (r >= 0)
            t[r] = now() - t0;
    }
    return summarize(t, reps);
}

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
        mems[i] = make_buffer(ctx, q, bytes, in ? w.inputs[i] : NULL);
        bufs[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)mems[i], 0, bytes};
        descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bufs[i]};
    }
    dmlcl_binding_table *table;
    CHECK_HR(dmlcl_binding_table_create(cop, &table), "binding table");
    CHECK_HR(dmlcl_binding_table_bind_inputs(table, w.n_inputs, descs), "bind inputs");
    CHECK_HR(dmlcl_binding_table_bind_outputs(table, n_out, descs + w.n_inputs), "bind outputs");

    /* Correctness first, once: the benchmarked output must be right. */
    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
    CHECK_HR(dmlcl_binding_table_status(table), "status");
    unsigned char *got = malloc(w.output_bytes);
    for (size_t o = 0, at = 0; o < n_out; at += w.out_bytes[o++])
        CHECK_CL(clEnqueueReadBuffer(q, mems[w.n_inputs + o], CL_TRUE, 0, w.out_bytes[o], got + at,
                                     0, NULL, NULL),
                 "clEnqueueReadBuffer");
    if (memcmp(got, w.expected, w.output_bytes) != 0) {
        size_t i = 0;
        while (((unsigned char *)got)[i] == ((unsigned char *)w.expected)[i])
            ++i;
        fprintf(stderr, "dmlcl-bench: %s: WRONG OUTPUT at byte %zu (expected 0x%02x, got 0x%02x)\n",
                w.name, i, ((unsigned char *)w.expected)[i], ((unsigned char *)got)[i]);
        exit(1);
    }
    free(got);

    res->name = w.name;
    res->bytes = w.output_bytes;
    res->first_compile_ms = 1e3 * (t1 - t0);
    res->cached_compile_ms = 1e3 * (t2 - t1);
    res->op = time_op(table, q, opt->reps, w.limit, NULL, NULL, 0);
    /* The copy reads written memory: untouched pages would read as free zero pages. */
    cl_mem src = make_buffer(ctx, q, w.output_bytes, w.expected);
    cl_mem dst = n_out > 1 ? make_buffer(ctx, q, w.output_bytes, NULL) : mems[w.n_inputs];
    res->limit = time_op(NULL, q, opt->reps, w.limit, src, dst, w.output_bytes);
    clReleaseMemObject(src);
    if (n_out > 1)
        clReleaseMemObject(dst);

    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
    for (unsigned i = 0; i < n_mem; ++i)
        clReleaseMemObject(mems[i]);
    workload_free(&w);
    return 0;
}

/* Workload 10: dispatch overhead of a 1000-element gather against an empty kernel. */
static void dispatch_overhead(dmlcl_device *dev, const options *opt)
{
    cl_context ctx = dmlcl_device_context(dev);
    cl_command_queue q = dmlcl_device_queue(dev);
    UINT n = 1000, s[1] = {n};
    DML_BUFFER_TENSOR_DESC b[3] = {{DML_TENSOR_DATA_TYPE_FLOAT32, 0, 1, s, NULL, 4000, 0},
                                   {DML_TENSOR_DATA_TYPE_UINT32, 0, 1, s, NULL, 4000, 0},
                                   {DML_TENSOR_DATA_TYPE_FLOAT32, 0, 1, s, NULL, 4000, 0}};
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
    uint32_t idx[1000];
    for (UINT i = 0; i < n; ++i)
        idx[i] = (i * 7919u) % n;
    cl_mem m[3] = {make_buffer(ctx, q, 4000, idx), make_buffer(ctx, q, 4000, idx),
                   make_buffer(ctx, q, 4000, NULL)};
    DML_BUFFER_BINDING bb[3];
    DML_BINDING_DESC bd[3];
    for (int i = 0; i < 3; ++i) {
        bb[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)m[i], 0, 4000};
        bd[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bb[i]};
    }
    CHECK_HR(dmlcl_binding_table_create(cop, &table), "overhead table");
    CHECK_HR(dmlcl_binding_table_bind_inputs(table, 2, bd), "overhead bind");
    CHECK_HR(dmlcl_binding_table_bind_outputs(table, 1, bd + 2), "overhead bind");

    const char *src = "__kernel void empty(__global uint *p) { }";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cl_device_id did = dmlcl_device_id(dev);
    CHECK_CL(clBuildProgram(prog, 1, &did, "", NULL, NULL), "build empty kernel");
    cl_kernel empty = clCreateKernel(prog, "empty", &err);
    CHECK_CL(clSetKernelArg(empty, 0, sizeof(cl_mem), &m[2]), "clSetKernelArg");
    size_t one = 1;

    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int round = 0; round < 9; ++round) {  /* best of 9 interleaved rounds: a noisy host */
        for (int kind = 0; kind < 4; ++kind) { /* gather/empty x pipelined/synchronous */
            int count = kind < 2 ? 1000 : 200;
            double t0 = now();
            for (int i = 0; i < count; ++i) {
                if (kind % 2 == 0)
                    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
                else
                    CHECK_CL(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, NULL, 0, NULL, NULL),
                             "enqueue empty");
                if (kind >= 2)
                    clFinish(q);
            }
            clFinish(q);
            double per = (now() - t0) / count;
            if (per < best[kind])
                best[kind] = per;
        }
    }
    if (opt->csv_file) {
        fprintf(opt->csv_file, "dispatch-pipelined,4000,%.9f,%.9f,%.4f\n", best[0], best[1],
                best[1] / best[0]);
        fprintf(opt->csv_file, "dispatch-synchronous,4000,%.9f,%.9f,%.4f\n", best[2], best[3],
                best[3] / best[2]);
    }
    if (opt->csv) {
        printf("dispatch-pipelined,4000,%.9f,%.9f,%.4f\n", best[0], best[1], best[1] / best[0]);
        printf("dispatch-synchronous,4000,%.9f,%.9f,%.4f\n", best[2], best[3], best[3] / best[2]);
    } else {
        printf("| dispatch overhead, pipelined (1000) | %.1f us | empty kernel %.1f us | %.2fx "
               "the empty kernel |\n",
               1e6 * best[0], 1e6 * best[1], best[0] / best[1]);
        printf("| dispatch overhead, synchronous (200) | %.1f us | empty kernel %.1f us | %.2fx "
               "the empty kernel |\n",
               1e6 * best[2], 1e6 * best[3], best[2] / best[3]);
    }
    clReleaseKernel(empty);
    clReleaseProgram(prog);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
    for (int i = 0; i < 3; ++i)
        clReleaseMemObject(m[i]);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dmlcl-bench [--csv] [--csv-file PATH] [--reps N] [--filter TEXT] "
            "[--device SPEC] [--variants]\n"
            "  Times each workload against the same bytes moved by the device's own copy.\n"
            "  --csv            workload,bytes,dmlcl_s,limit_s,ratio lines instead of the table\n"
            "  --csv-file PATH  also write those lines to PATH\n"
            "  --reps N         timed dispatches per workload (10..256, default 10)\n"
            "  --filter TEXT    only workloads whose name contains TEXT\n"
            "  --device SPEC    [PLATFORM:]DEVICE, as DMLCL_PLATFORM/DMLCL_DEVICE\n"
            "  --variants       also the same kinds at other shapes and types\n"
            "  --version        the version\n");
}

int main(int argc, char **argv)
{
    options opt = {.reps = 10};
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
    if (opt.reps > 256)
        opt.reps = 256;
    dmlcl_device *dev;
    CHECK_HR(dmlcl_device_create_from_spec(opt.device, &dev), "device");
    if (opt.csv_file)
        fprintf(opt.csv_file, "workload,bytes,dmlcl_s,limit_s,ratio\n");
    if (opt.csv) {
        printf("workload,bytes,dmlcl_s,limit_s,ratio\n");
        fprintf(stderr, "dmlcl-bench: device: %s\n", dmlcl_device_description(dev));
    } else {
        printf("device: %s\n\n| workload | bytes | dmlcl median (min) | limit median (min) | "
               "ratio | GB/s | first compile | cached compile |\n|---|---|---|---|---|---|---|---|"
               "\n",
               dmlcl_device_description(dev));
    }
    dmlcl_tool_progress progress;
    dmlcl_tool_progress_start(&progress, "dmlcl-bench");
    unsigned count = bench_workload_count + (opt.variants ? bench_variant_count : 0);
    for (unsigned i = 0; i < count; ++i) {
        result r;
        workload_setup setup = i < bench_workload_count ? bench_workloads[i]
                                                        : bench_variants[i - bench_workload_count];
        if (run_workload(dev, setup, &opt, &r) != 0)
            continue;
        dmlcl_tool_progress_step(&progress, i + 1, count, r.name);
        double ratio = r.limit.median / r.op.median;
        if (opt.csv_file)
            fprintf(opt.csv_file, "%s,%zu,%.9f,%.9f,%.4f\n", r.name, r.bytes, r.op.median,
                    r.limit.median, ratio);
        if (opt.csv)
            printf("%s,%zu,%.9f,%.9f,%.4f\n", r.name, r.bytes, r.op.median, r.limit.median, ratio);
        else
            printf("| %s | %zu | %.2f ms (%.2f) | %.2f ms (%.2f) | %.2f | %.2f | %.1f ms | %.3f ms "
                   "|\n",
                   r.name, r.bytes, 1e3 * r.op.median, 1e3 * r.op.min, 1e3 * r.limit.median,
                   1e3 * r.limit.min, ratio, 2e-9 * (double)r.bytes / r.op.median,
                   r.first_compile_ms, r.cached_compile_ms);
        fflush(stdout);
    }
    if (!opt.filter || strstr("dispatch-overhead", opt.filter)) {
        dmlcl_tool_progress_step(&progress, count, count, "dispatch-overhead");
        dispatch_overhead(dev, &opt);
    }
    dmlcl_tool_progress_end(&progress);
    dmlcl_device_release(dev);
    if (opt.csv_file)
        fclose(opt.csv_file);
    return 0;
}
