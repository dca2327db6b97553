/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-ab: an A/B comparison of two builds of libdmlcl in one process. Each
 * library is loaded with dlopen (RTLD_DEEPBIND: its own calls stay inside
 * it) and creates its own device; every workload of dmlcl-bench is checked
 * through both, then dispatched through A and B in alternating rounds (the
 * order flips every round), so a kernel or launch-rule change is judged on
 * the same machine state, not on two runs minutes apart on a shared host.
 * Reports medians, minimums, and the median of the per-round ratio A / B
 * (above 1: B is faster) with its quartiles.
 *
 *   dmlcl-ab LIB_A LIB_B [--filter TEXT] [--variants] [--reps N] [--seconds S]
 *            [--env-a NAME=VALUE] [--env-b NAME=VALUE]
 *
 * --env-a / --env-b set an environment variable while that side's operators
 * are created and compiled (and unset it for the other side): one library
 * against itself, e.g. `dmlcl-ab L L --env-a DMLCL_BANDS=0` (runtime_bands.c).
 *
 * E.g. LIB_A from a build of the commit before the change
 * (`git worktree add /tmp/a HEAD~1 && cmake -S /tmp/a -B /tmp/a/build &&
 * cmake --build /tmp/a/build --target dmlcl`), LIB_B build/libdmlcl.so.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limit.h"
#include "workloads.h"

typedef struct lib {
    const char *path;
    void *handle;
    HRESULT (*device_create_from_spec)(const char *, dmlcl_device **);
    void (*device_release)(dmlcl_device *);
    cl_context (*device_context)(const dmlcl_device *);
    cl_command_queue (*device_queue)(const dmlcl_device *);
    HRESULT (*operator_create)(dmlcl_device *, const DML_OPERATOR_DESC *, dmlcl_operator **);
    void (*operator_release)(dmlcl_operator *);
    HRESULT (*operator_compile)(dmlcl_operator *, DML_EXECUTION_FLAGS, dmlcl_compiled_operator **);
    void (*compiled_release)(dmlcl_compiled_operator *);
    HRESULT (*table_create)(dmlcl_compiled_operator *, dmlcl_binding_table **);
    void (*table_release)(dmlcl_binding_table *);
    HRESULT (*bind_inputs)(dmlcl_binding_table *, UINT, const DML_BINDING_DESC *);
    HRESULT (*bind_outputs)(dmlcl_binding_table *, UINT, const DML_BINDING_DESC *);
    HRESULT (*bind_temporary)(dmlcl_binding_table *, const DML_BINDING_DESC *);
    DML_BINDING_PROPERTIES (*binding_properties)(const dmlcl_compiled_operator *);
    HRESULT(*dispatch)
    (dmlcl_binding_table *, cl_command_queue, cl_uint, const cl_event *, cl_event *);
    const char *(*last_error)(void);
    dmlcl_device *dev;
} lib;

static void *symbol(lib *l, const char *name)
{
    void *p = dlsym(l->handle, name);
    if (!p) {
        fprintf(stderr, "dmlcl-ab: %s: no %s\n", l->path, name);
        exit(2);
    }
    return p;
}

static void load(lib *l, const char *path)
{
    l->path = path;
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!l->handle) {
        fprintf(stderr, "dmlcl-ab: %s\n", dlerror());
        exit(2);
    }
    *(void **)&l->device_create_from_spec = symbol(l, "dmlcl_device_create_from_spec");
    *(void **)&l->device_release = symbol(l, "dmlcl_device_release");
    *(void **)&l->device_context = symbol(l, "dmlcl_device_context");
    *(void **)&l->device_queue = symbol(l, "dmlcl_device_queue");
    *(void **)&l->operator_create = symbol(l, "dmlcl_operator_create");
    *(void **)&l->operator_release = symbol(l, "dmlcl_operator_release");
    *(void **)&l->operator_compile = symbol(l, "dmlcl_operator_compile");
    *(void **)&l->compiled_release = symbol(l, "dmlcl_compiled_operator_release");
    *(void **)&l->table_create = symbol(l, "dmlcl_binding_table_create");
    *(void **)&l->table_release = symbol(l, "dmlcl_binding_table_release");
    *(void **)&l->bind_inputs = symbol(l, "dmlcl_binding_table_bind_inputs");
    *(void **)&l->bind_outputs = symbol(l, "dmlcl_binding_table_bind_outputs");
    *(void **)&l->bind_temporary = symbol(l, "dmlcl_binding_table_bind_temporary");
    *(void **)&l->binding_properties = symbol(l, "dmlcl_compiled_operator_binding_properties");
    *(void **)&l->dispatch = symbol(l, "dmlcl_binding_table_dispatch");
    *(void **)&l->last_error = symbol(l, "dmlcl_last_error");
    if (FAILED(l->device_create_from_spec(NULL, &l->dev))) {
        fprintf(stderr, "dmlcl-ab: %s: no device (%s)\n", path, l->last_error());
        exit(2);
    }
}

#define CHECK(l, expr, what)                                                               \
    do {                                                                                   \
        if (FAILED(expr)) {                                                                \
            fprintf(stderr, "dmlcl-ab: %s: %s: %s\n", (l)->path, what, (l)->last_error()); \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

/* One library's compiled workload, bound and checked. */
typedef struct side {
    dmlcl_operator *op;
    dmlcl_compiled_operator *cop;
    dmlcl_binding_table *table;
    cl_mem mems[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    cl_mem temp; /* the temporary resource, where the compiled operator asks for one */
} side;

/* Outputs of a workload: SPLIT's several, back to back in expected. */
static unsigned outputs_of(workload *w)
{
    if (!w->n_outputs)
        w->out_bytes[0] = w->output_bytes;
    return w->n_outputs ? w->n_outputs : 1;
}

/* The output bytes against expected: equal, or (float_ulps, float_abs) the floats within that
 * many ULPs or that absolute difference, as dmlcl-bench checks them. */
static bool outputs_match(const workload *w, const unsigned char *got,
                          const unsigned char *expected, size_t bytes)
{
    if (!w->float_ulps && !(w->float_abs > 0))
        return memcmp(got, expected, bytes) == 0;
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        float g, e;
        memcpy(&g, got + i, 4);
        memcpy(&e, expected + i, 4);
        if (!workload_float_ok(w, g, e))
            return false;
    }
    return true;
}

static void prepare(lib *l, workload *w, side *s)
{
    cl_context ctx = l->device_context(l->dev);
    cl_command_queue q = l->device_queue(l->dev);
    unsigned n_out = outputs_of(w), n_mem = w->n_inputs + n_out;
    DML_BUFFER_BINDING bufs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    DML_BINDING_DESC descs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    CHECK(l, l->operator_create(l->dev, &w->desc, &s->op), w->name);
    CHECK(l, l->operator_compile(s->op, DML_EXECUTION_FLAG_NONE, &s->cop), "compile");
    CHECK(l, l->table_create(s->cop, &s->table), "binding table");
    for (unsigned i = 0; i < n_mem; ++i) {
        size_t bytes = i < w->n_inputs ? w->input_bytes[i] : w->out_bytes[i - w->n_inputs];
        if (i < w->n_inputs && bytes == 0) { /* an absent optional input (a GEMM's C) */
            s->mems[i] = NULL;
            descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
            continue;
        }
        cl_int err;
        s->mems[i] = bench_buffer(ctx, bytes, &err);
        if (err == CL_SUCCESS && i < w->n_inputs)
            err =
                clEnqueueWriteBuffer(q, s->mems[i], CL_TRUE, 0, bytes, w->inputs[i], 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "dmlcl-ab: buffer (%d)\n", (int)err);
            exit(2);
        }
        bufs[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)s->mems[i], 0, bytes};
        descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bufs[i]};
    }
    CHECK(l, l->bind_inputs(s->table, w->n_inputs, descs), "bind inputs");
    CHECK(l, l->bind_outputs(s->table, n_out, descs + w->n_inputs), "bind outputs");
    UINT64 temp_bytes = l->binding_properties(s->cop).TemporaryResourceSize;
    s->temp = NULL;
    if (temp_bytes) {
        cl_int err;
        s->temp = bench_buffer(ctx, (size_t)temp_bytes, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "dmlcl-ab: temporary buffer (%d)\n", (int)err);
            exit(2);
        }
        DML_BUFFER_BINDING tb = {(ID3D12Resource *)s->temp, 0, temp_bytes};
        DML_BINDING_DESC td = {DML_BINDING_TYPE_BUFFER, &tb};
        CHECK(l, l->bind_temporary(s->table, &td), "bind temporary");
    }
    CHECK(l, l->dispatch(s->table, q, 0, NULL, NULL), "dispatch");
    /* Every output against its part of expected. */
    size_t at = 0;
    for (unsigned o = 0; o < n_out; ++o) {
        size_t bytes = w->out_bytes[o];
        unsigned char *got = malloc(bytes ? bytes : 1);
        clEnqueueReadBuffer(q, s->mems[w->n_inputs + o], CL_TRUE, 0, bytes, got, 0, NULL, NULL);
        if (!outputs_match(w, got, (unsigned char *)w->expected + at, bytes)) {
            fprintf(stderr, "dmlcl-ab: %s: %s: WRONG OUTPUT %u\n", l->path, w->name, o);
            exit(1);
        }
        free(got);
        at += bytes;
    }
}

static void release(lib *l, workload *w, side *s)
{
    l->table_release(s->table);
    l->compiled_release(s->cop);
    l->operator_release(s->op);
    for (unsigned i = 0; i < w->n_inputs + outputs_of(w); ++i)
        if (s->mems[i])
            clReleaseMemObject(s->mems[i]);
    if (s->temp)
        clReleaseMemObject(s->temp);
}

/* NAME=VALUE set (value NULL: NAME unset) while a side prepares. */
static void side_env(const char *set, const char *other)
{
    char name[128];
    if (other) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(other, "="), other);
        unsetenv(name);
    }
    if (set) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(set, "="), set);
        const char *eq = strchr(set, '=');
        setenv(name, eq ? eq + 1 : "", 1);
    }
}

static double once(lib *l, side *s)
{
    cl_command_queue q = l->device_queue(l->dev);
    double t0 = bench_now();
    CHECK(l, l->dispatch(s->table, q, 0, NULL, NULL), "dispatch");
    clFinish(q);
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    const char *filter = NULL, *env[2] = {NULL, NULL};
    int variants = 0, reps = 20;
    double seconds = 2.0;
    if (argc < 3) {
        fprintf(stderr, "usage: dmlcl-ab LIB_A LIB_B [--filter TEXT] [--variants] [--reps N] "
                        "[--seconds S] [--env-a NAME=VALUE] [--env-b NAME=VALUE]\n");
        return 2;
    }
    for (int i = 3; i < argc; ++i) {
        if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--variants"))
            variants = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--env-a") && i + 1 < argc)
            env[0] = argv[++i];
        else if (!strcmp(argv[i], "--env-b") && i + 1 < argc)
            env[1] = argv[++i];
        else {
            fprintf(stderr, "dmlcl-ab: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    reps = reps < 4 ? 4 : reps > BENCH_MAX_ROUNDS ? BENCH_MAX_ROUNDS : reps;
    lib libs[2];
    memset(libs, 0, sizeof libs);
    load(&libs[0], argv[1]);
    load(&libs[1], argv[2]);
    printf("A: %s\nB: %s\n\n| workload | A ms median (min) | B ms median (min) | A / B per round "
           "median [q1-q3] | rounds |\n|---|---|---|---|---|\n",
           argv[1], argv[2]);
    /* Each round's two dispatches start cold (bench/limit.h limit_flush). */
    cl_context ctx0 = libs[0].device_context(libs[0].dev);
    cl_device_id dev0;
    clGetContextInfo(ctx0, CL_CONTEXT_DEVICES, sizeof dev0, &dev0, NULL);
    bench_limit *flusher = limit_create(ctx0, dev0, libs[0].device_queue(libs[0].dev), 64, 64);
    unsigned count = bench_workload_count + (variants ? bench_variant_count : 0);
    for (unsigned n = 0; n < count; ++n) {
        workload w;
        memset(&w, 0, sizeof w);
        (n < bench_workload_count ? bench_workloads[n]
                                  : bench_variants[n - bench_workload_count])(&w);
        if (filter && !strstr(w.name, filter)) {
            workload_free(&w);
            continue;
        }
        side s[2];
        side_env(env[0], env[1]);
        prepare(&libs[0], &w, &s[0]);
        side_env(env[1], env[0]);
        prepare(&libs[1], &w, &s[1]);
        static double t[2][BENCH_MAX_ROUNDS], ratio[BENCH_MAX_ROUNDS];
        int rounds = 0;
        double start = bench_now();
        for (int r = -2; r < BENCH_MAX_ROUNDS; ++r) {
            if (r >= reps && bench_now() - start >= seconds)
                break;
            if (r == 0)
                start = bench_now();
            for (int k = 0; k < 2; ++k) {
                int who = (k + r) & 1;
                limit_flush(flusher);
                double v = once(&libs[who], &s[who]);
                if (r >= 0)
                    t[who][r] = v;
            }
            if (r >= 0)
                ratio[r] = t[0][r] / t[1][r];
            rounds = r + 1;
        }
        bench_timing a = bench_summarize(t[0], rounds), b = bench_summarize(t[1], rounds),
                     q = bench_summarize(ratio, rounds);
        printf("| %s | %.2f (%.2f) | %.2f (%.2f) | %.2f [%.2f-%.2f] | %d |\n", w.name,
               1e3 * a.median, 1e3 * a.min, 1e3 * b.median, 1e3 * b.min, q.median, q.q1, q.q3,
               rounds);
        fflush(stdout);
        release(&libs[0], &w, &s[0]);
        release(&libs[1], &w, &s[1]);
        workload_free(&w);
    }
    limit_release(flusher);
    libs[0].device_release(libs[0].dev);
    libs[1].device_release(libs[1].dev);
    return 0;
}
