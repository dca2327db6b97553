/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-gpumodel: the GPU memory model's table (docs/testing.md, "The GPU memory model").
 * Runs each data-movement bench workload at its model shape (bench_model_workloads) with
 * the GPU class's kernels on Oclgrind, whose plugin (tools/gpumodel/plugin.cpp) reduces every
 * launch's accesses to the requests an NVIDIA GPU issues, and prints per launch:
 *
 *   load, store   coalescing efficiency of global loads and stores: bytes used / bytes moved
 *                 in 32-byte sectors, per warp request (1.00: every sector moved is used)
 *   replays       local-memory bank-conflict replays per local request (0: conflict-free)
 *   DRAM          distinct sectors the launch loads and stores (a perfect cache) x 32 over the
 *                 unavoidable bytes: the distinct bytes it reads and writes (1.00: no byte
 *                 moved in vain)
 *   requests      the same with the sectors summed over requests (no cache reuse at all)
 *   B/request     global bytes used per load or store request (512: 32 lanes of 16 bytes;
 *                 fewer bytes a request, more requests for the same traffic)
 *   B/flight      global bytes a work-item has in flight when it waits for a load (the loads
 *                 it issued since its last wait, on average; the plugin's in-order model): an
 *                 SM hides DRAM's latency with its items' bytes in flight together
 *
 * A workload of several launches gets a row of them all ("all": sums over its launches).
 * Every output is checked against the workload's expected bytes first.
 *
 *   scripts/gpumodel [build/bench/dmlcl-gpumodel [--filter TEXT] [--check FLOORS] [--worst]
 *                    [--suggest-floors]]
 *
 * --check FLOORS holds each launch to the floors the file states (tools/gpumodel/floors.txt)
 * and exits 1 when one falls below or a launch has no floor; --worst lists each launch's most
 * wasteful source lines with their figures; --suggest-floors prints floors a little below
 * what was measured (for floors.txt, once a kernel has improved).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/gpumodel/record.h"
#include "tool.h"
#include "workloads.h"

#define CHECK_HR(expr, what)                                                               \
    do {                                                                                   \
        HRESULT hr_ = (expr);                                                              \
        if (FAILED(hr_)) {                                                                 \
            fprintf(stderr, "dmlcl-gpumodel: %s: %s: %s\n", what, dmlcl_hresult_name(hr_), \
                    dmlcl_last_error());                                                   \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)
#define CHECK_CL(err, what)                                                        \
    do {                                                                           \
        if ((err) != CL_SUCCESS) {                                                 \
            fprintf(stderr, "dmlcl-gpumodel: %s failed (%d)\n", what, (int)(err)); \
            exit(2);                                                               \
        }                                                                          \
    } while (0)

enum { MAX_ROWS = 256, LINE = 1 << 16 };

/* One launch of one workload, as the table shows it. */
typedef struct row {
    char workload[48], kernel[64], variant[160];
    unsigned launch;
    char grid[64];
    double load, store, replays, dram, requests, bytes_per_request, flight;
    bool has_load, has_store, has_local;
    gpumodel_record rec; /* the launch's figures (rec.worst: NULL) */
    char *worst;
} row;

/* The macros that tell a variant apart, from the build options. */
static void variant_of(const char *options, char *out, size_t n)
{
    static const char *const keys[] = {
        "UNIT_T", "TRANSPOSE", "SIDE",     "CHUNK_MAX", "GROUP_ROWS",  "REPEAT", "SPLAT",
        "FAST",   "OUT_UNIT",  "RUN_IS_K", "RUN_XS_K",  "GATHER_ROWS", "ROWS",   "LANES",
        "BANDS",  "MIRROR",    "ROP",      "GROUP",     "COLS",        "ACT",    "TM",
        "TN",     "TK",        "WM",       "WN",        "MODE",        "KIND"};
    size_t k = 0;
    out[0] = 0;
    for (const char *p = strstr(options, "-D"); p; p = strstr(p + 2, "-D")) {
        const char *name = p + 2, *end = name + strcspn(name, " =");
        bool shown = false;
        for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
            shown |= strlen(keys[i]) == (size_t)(end - name) &&
                     !strncmp(keys[i], name, (size_t)(end - name));
        if (!shown)
            continue;
        size_t len = strcspn(name, " ");
        if (k + len + 2 >= n)
            break;
        k += (size_t)snprintf(out + k, n - k, "%s%.*s", k ? " " : "", (int)len, name);
    }
}

static void figures(row *r, const gpumodel_record *rec);

static void fill_row(row *r, const char *name, unsigned launch, const gpumodel_record *rec)
{
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", name);
    snprintf(r->kernel, sizeof r->kernel, "%s", rec->kernel);
    variant_of(rec->options, r->variant, sizeof r->variant);
    r->launch = launch;
    /* "X[xY[xZ]] / X[xY[xZ]]", trailing 1s dropped. */
    for (int side = 0; side < 2; ++side) {
        const uint64_t *v = side ? rec->local : rec->global;
        int dims = v[2] > 1 ? 3 : v[1] > 1 ? 2 : 1;
        for (int d = 0; d < dims; ++d)
            snprintf(r->grid + strlen(r->grid), sizeof r->grid - strlen(r->grid), "%s%llu",
                     d      ? "x"
                     : side ? " / "
                            : "",
                     (unsigned long long)v[d]);
    }
    figures(r, rec);
    r->rec = *rec;
    r->rec.worst = NULL;
    size_t len = strlen(rec->worst);
    while (len && (rec->worst[len - 1] == '\n' || rec->worst[len - 1] == '}'))
        --len; /* the list without the record's closing brace */
    r->worst = strndup(rec->worst, len);
}

/* The table's figures of a record (one launch's, or a workload's launches summed). */
static void figures(row *r, const gpumodel_record *rec)
{
    const gpumodel_totals *k = rec->kind;
    r->has_load = k[GPUMODEL_GLOBAL_LOAD].requests > 0;
    r->has_store = k[GPUMODEL_GLOBAL_STORE].requests > 0;
    r->load = gpumodel_efficiency(&k[GPUMODEL_GLOBAL_LOAD]);
    r->store = gpumodel_efficiency(&k[GPUMODEL_GLOBAL_STORE]);
    uint64_t local = k[GPUMODEL_LOCAL_LOAD].requests + k[GPUMODEL_LOCAL_STORE].requests;
    r->has_local = local > 0;
    r->replays = local ? (double)(gpumodel_replays(&k[GPUMODEL_LOCAL_LOAD]) +
                                  gpumodel_replays(&k[GPUMODEL_LOCAL_STORE])) /
                             (double)local
                       : 0;
    uint64_t global = k[GPUMODEL_GLOBAL_LOAD].requests + k[GPUMODEL_GLOBAL_STORE].requests;
    r->bytes_per_request =
        global ? (double)(k[GPUMODEL_GLOBAL_LOAD].bytes + k[GPUMODEL_GLOBAL_STORE].bytes) /
                     (double)global
               : 0;
    double unavoidable = (double)(rec->load_bytes + rec->store_bytes);
    r->dram =
        unavoidable > 0 ? 32.0 * (double)(rec->load_sectors + rec->store_sectors) / unavoidable : 1;
    r->requests = unavoidable > 0 ? 32.0 * (double)rec->request_sectors / unavoidable : 1;
    r->flight = gpumodel_flight(rec);
}

/* The outputs read back must be the expected bytes, or (float_ulps, float_abs: the arithmetic
 * workloads) the expected floats within that many ULPs or that absolute difference. */
static bool floats_within(const workload *w, const unsigned char *got)
{
    if (!w->float_ulps && !(w->float_abs > 0))
        return false;
    for (size_t i = 0; i + 4 <= w->output_bytes; i += 4) {
        float g, e;
        memcpy(&g, got + i, 4);
        memcpy(&e, (const unsigned char *)w->expected + i, 4);
        if (!workload_float_ok(w, g, e))
            return false;
    }
    return true;
}

static void expect_outputs(cl_command_queue q, const cl_mem *outs, unsigned n, const workload *w)
{
    unsigned char *got = malloc(w->output_bytes);
    for (size_t o = 0, at = 0; o < n; at += w->out_bytes[o++])
        CHECK_CL(
            clEnqueueReadBuffer(q, outs[o], CL_TRUE, 0, w->out_bytes[o], got + at, 0, NULL, NULL),
            "clEnqueueReadBuffer");
    if (memcmp(got, w->expected, w->output_bytes) != 0 && !floats_within(w, got)) {
        size_t i = 0;
        while (got[i] == ((unsigned char *)w->expected)[i])
            ++i;
        fprintf(stderr,
                "dmlcl-gpumodel: %s: WRONG OUTPUT at byte %zu (expected 0x%02x, got 0x%02x)\n",
                w->name, i, ((unsigned char *)w->expected)[i], got[i]);
        exit(1);
    }
    free(got);
}

/* Runs the workload once; its launches' records, appended to `records` since `*consumed`,
 * become rows. Returns the rows added. */
static unsigned run_workload(dmlcl_device *dev, workload *w, const char *records, long *consumed,
                             row *rows, unsigned room)
{
    cl_context ctx = dmlcl_device_context(dev);
    cl_command_queue q = dmlcl_device_queue(dev);
    dmlcl_operator *op;
    dmlcl_compiled_operator *cop;
    /* A shape's own tuning (a configuration the launch picks on a GPU's larger shapes),
     * for its launch decisions: the operator's compile. */
    char *saved = getenv("DMLCL_TUNING") ? strdup(getenv("DMLCL_TUNING")) : NULL;
    if (w->tuning)
        setenv("DMLCL_TUNING", w->tuning, 1);
    CHECK_HR(dmlcl_operator_create(dev, &w->desc, &op), w->name);
    CHECK_HR(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &cop), "compile");
    if (w->tuning) {
        if (saved)
            setenv("DMLCL_TUNING", saved, 1);
        else
            unsetenv("DMLCL_TUNING");
    }
    free(saved);
    unsigned n_out = w->n_outputs ? w->n_outputs : 1, n_mem = w->n_inputs + n_out;
    if (!w->n_outputs)
        w->out_bytes[0] = w->output_bytes;
    cl_mem mems[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    DML_BUFFER_BINDING bufs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    DML_BINDING_DESC descs[BENCH_MAX_INPUTS + BENCH_MAX_OUTPUTS];
    for (unsigned i = 0; i < n_mem; ++i) {
        bool in = i < w->n_inputs;
        size_t bytes = in ? w->input_bytes[i] : w->out_bytes[i - w->n_inputs];
        if (in && bytes == 0) { /* an absent optional input (a GEMM's C) */
            mems[i] = NULL;
            descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
            continue;
        }
        cl_int err;
        mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CHECK_CL(err, "clCreateBuffer");
        if (in)
            CHECK_CL(
                clEnqueueWriteBuffer(q, mems[i], CL_TRUE, 0, bytes, w->inputs[i], 0, NULL, NULL),
                "clEnqueueWriteBuffer");
        bufs[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)mems[i], 0, bytes};
        descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bufs[i]};
    }
    dmlcl_binding_table *table;
    CHECK_HR(dmlcl_binding_table_create(cop, &table), "binding table");
    CHECK_HR(dmlcl_binding_table_bind_inputs(table, w->n_inputs, descs), "bind inputs");
    CHECK_HR(dmlcl_binding_table_bind_outputs(table, n_out, descs + w->n_inputs), "bind outputs");
    UINT64 temp_bytes = dmlcl_compiled_operator_binding_properties(cop).TemporaryResourceSize;
    cl_mem temp = NULL;
    if (temp_bytes) {
        cl_int err;
        temp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)temp_bytes, NULL, &err);
        CHECK_CL(err, "clCreateBuffer");
        DML_BUFFER_BINDING tb = {(ID3D12Resource *)temp, 0, temp_bytes};
        DML_BINDING_DESC td = {DML_BINDING_TYPE_BUFFER, &tb};
        CHECK_HR(dmlcl_binding_table_bind_temporary(table, &td), "bind temporary");
    }
    CHECK_CL(clFinish(q), "clFinish"); /* the uploads' records (none: host copies) first */

    FILE *f = fopen(records, "r");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "dmlcl-gpumodel: cannot read %s\n", records);
        exit(2);
    }
    *consumed = ftell(f);
    CHECK_HR(dmlcl_binding_table_dispatch(table, q, 0, NULL, NULL), "dispatch");
    CHECK_CL(clFinish(q), "clFinish");
    CHECK_HR(dmlcl_binding_table_status(table), "status");
    expect_outputs(q, mems + w->n_inputs, n_out, w);

    static char line[LINE];
    unsigned added = 0;
    fseek(f, *consumed, SEEK_SET);
    while (fgets(line, sizeof line, f)) {
        gpumodel_record rec;
        if (gpumodel_parse(line, &rec) != 0)
            continue;
        if (added == room) {
            fprintf(stderr, "dmlcl-gpumodel: more than %d launches\n", MAX_ROWS);
            exit(2);
        }
        fill_row(&rows[added], w->name, added, &rec);
        ++added;
    }
    *consumed = ftell(f);
    fclose(f);
    if (!added) {
        fprintf(stderr,
                "dmlcl-gpumodel: %s: no launch records in %s: is the plugin loaded "
                "(OCLGRIND_PLUGINS; run through scripts/gpumodel)?\n",
                w->name, records);
        exit(2);
    }
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
    for (unsigned i = 0; i < n_mem; ++i)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (temp)
        clReleaseMemObject(temp);
    return added;
}

static void print_value(bool present, double v)
{
    if (present)
        printf(" %.2f |", v);
    else
        printf(" - |");
}

static void print_figures(const row *r)
{
    print_value(r->has_load, r->load);
    print_value(r->has_store, r->store);
    print_value(r->has_local, r->replays);
    printf(" %.2f | %.2f | %.0f |", r->dram, r->requests, r->bytes_per_request);
    if (r->has_load)
        printf(" %.1f |\n", r->flight);
    else
        printf(" - |\n");
}

/* sum += one launch's figures (distinct bytes and sectors add: each launch its own). */
static void add_record(gpumodel_record *sum, const gpumodel_record *r)
{
    for (int k = 0; k < GPUMODEL_KINDS; ++k) {
        gpumodel_totals *a = &sum->kind[k];
        const gpumodel_totals *b = &r->kind[k];
        a->requests += b->requests;
        a->lanes += b->lanes;
        a->sectors += b->sectors;
        a->bytes += b->bytes;
        a->wavefronts += b->wavefronts;
        a->phases += b->phases;
        a->distinct += b->distinct;
    }
    sum->flight_batches += r->flight_batches;
    sum->flight_loads += r->flight_loads;
    sum->flight_bytes += r->flight_bytes;
    sum->load_sectors += r->load_sectors;
    sum->store_sectors += r->store_sectors;
    sum->load_bytes += r->load_bytes;
    sum->store_bytes += r->store_bytes;
    sum->request_sectors += r->request_sectors;
}

/*
 * Floors: one line per launch, "workload launch kernel load store replays dram requests
 * flight", each figure a floor for efficiencies and bytes in flight (at least) or a ceiling
 * for replays per request and traffic ratios (at most); "-" where the launch has none of that
 * kind (flight: no global load). A launch without a
 * line, or a line without its launch, fails too: floors are stated for every launch.
 */
static int check_floors(const char *path, const row *rows, unsigned n, const char *filter)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 2;
    }
    char line[512];
    int failures = 0, lineno = 0;
    bool *seen = calloc(n ? n : 1, sizeof *seen);
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        char wl[48], kernel[64], fig[6][16];
        unsigned launch;
        if (line[0] == '#' || strspn(line, " \t\n") == strlen(line))
            continue;
        if (sscanf(line, "%47s %u %63s %15s %15s %15s %15s %15s %15s", wl, &launch, kernel, fig[0],
                   fig[1], fig[2], fig[3], fig[4], fig[5]) != 9) {
            fprintf(stderr,
                    "%s:%d: not \"workload launch kernel load store replays dram "
                    "requests flight\"\n",
                    path, lineno);
            ++failures;
            continue;
        }
        if (filter && !strstr(wl, filter))
            continue;
        const row *r = NULL;
        for (unsigned i = 0; i < n; ++i)
            if (!strcmp(rows[i].workload, wl) && rows[i].launch == launch) {
                r = &rows[i];
                seen[i] = true;
            }
        if (!r || strcmp(r->kernel, kernel)) {
            printf("FAIL %s launch %u (%s): %s\n", wl, launch, kernel,
                   r ? "another kernel runs there" : "no such launch");
            ++failures;
            continue;
        }
        const char *names[6] = {"load efficiency",
                                "store efficiency",
                                "replays per request",
                                "DRAM / unavoidable",
                                "request sectors / unavoidable",
                                "bytes in flight"};
        double got[6] = {r->load, r->store, r->replays, r->dram, r->requests, r->flight};
        bool present[6] = {r->has_load, r->has_store, r->has_local, true, true, r->has_load};
        for (int i = 0; i < 6; ++i) {
            bool dash = !strcmp(fig[i], "-"), at_least = i < 2 || i == 5;
            double bound = dash ? 0 : atof(fig[i]);
            bool ok =
                dash ? !present[i] : present[i] && (at_least ? got[i] >= bound : got[i] <= bound);
            if (!ok) {
                if (dash || !present[i])
                    printf("FAIL %s launch %u (%s): %s %s, the floor says %s\n", wl, launch, kernel,
                           names[i], present[i] ? "present" : "absent", fig[i]);
                else
                    printf("FAIL %s launch %u (%s): %s %.3f, %s %s\n", wl, launch, kernel, names[i],
                           got[i], at_least ? "floor" : "ceiling", fig[i]);
                ++failures;
            }
        }
    }
    fclose(f);
    for (unsigned i = 0; i < n; ++i)
        if (!seen[i]) {
            printf("FAIL %s launch %u (%s): no floor in %s\n", rows[i].workload, rows[i].launch,
                   rows[i].kernel, path);
            ++failures;
        }
    free(seen);
    printf("%s: %u launches against %s, %d below their floor or without one\n",
           failures ? "FAIL" : "PASS", n, path, failures);
    return failures ? 1 : 0;
}

/* Floors a little below what was measured (efficiencies 0.02 lower, traffic ratios 3% higher,
 * replays 0.05 higher, none where there were none, bytes in flight 10% lower), for a floors
 * file. */
static void suggest_floors(const row *rows, unsigned n)
{
    printf("# workload launch kernel load>= store>= replays<= DRAM<= requests<= flight>=\n");
    for (unsigned k = 0; k < n; ++k) {
        const row *r = &rows[k];
        char f[6][16];
        double eff[2] = {r->load, r->store};
        bool has[2] = {r->has_load, r->has_store};
        for (int i = 0; i < 2; ++i) {
            double v = floor(100 * eff[i] - 2) / 100;
            snprintf(f[i], sizeof f[i], has[i] ? "%.2f" : "-", v < 0 ? 0 : v);
        }
        snprintf(f[2], sizeof f[2], r->has_local ? "%.2f" : "-",
                 r->replays > 0 ? ceil(100 * r->replays + 5) / 100 : 0);
        snprintf(f[3], sizeof f[3], "%.2f", ceil(103 * r->dram) / 100);
        snprintf(f[4], sizeof f[4], "%.2f", ceil(103 * r->requests) / 100);
        snprintf(f[5], sizeof f[5], r->has_load ? "%.1f" : "-", floor(9 * r->flight) / 10);
        printf("%-26s %u %-13s %5s %5s %5s %6s %6s %6s\n", r->workload, r->launch, r->kernel, f[0],
               f[1], f[2], f[3], f[4], f[5]);
    }
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: scripts/gpumodel [dmlcl-gpumodel [--filter TEXT] [--check FLOORS] "
            "[--worst] [--suggest-floors]]\n"
            "  The GPU memory model of each data-movement workload's GPU-class kernels\n"
            "  (Oclgrind with dmlcl's plugin; docs/testing.md).\n"
            "  --filter TEXT   only workloads whose name contains TEXT\n"
            "  --check FLOORS  hold each launch to its floors (tools/gpumodel/floors.txt)\n"
            "  --worst         each launch's most wasteful source lines\n"
            "  --suggest-floors  after the table, floors a little below each launch's figures\n");
}

int main(int argc, char **argv)
{
    const char *filter = NULL, *floors = NULL;
    bool worst = false, suggest = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version")) {
            dmlcl_tool_version("dmlcl-gpumodel");
            return 0;
        } else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--check") && i + 1 < argc)
            floors = argv[++i];
        else if (!strcmp(argv[i], "--worst"))
            worst = true;
        else if (!strcmp(argv[i], "--suggest-floors"))
            suggest = true;
        else {
            fprintf(stderr, "dmlcl-gpumodel: unknown argument %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    /* The plugin appends to DMLCL_GPUMODEL_OUT, read when Oclgrind creates its context. */
    static char path[] = "/tmp/dmlcl-gpumodel-XXXXXX";
    const char *records = getenv("DMLCL_GPUMODEL_OUT");
    bool own = !records || !*records;
    if (own) {
        int fd = mkstemp(path);
        if (fd < 0) {
            perror("mkstemp");
            return 2;
        }
        close(fd);
        setenv("DMLCL_GPUMODEL_OUT", path, 1);
        records = path;
    }
    dmlcl_device_options o = {.device_class = DMLCL_DEVICE_CLASS_GPU};
    dmlcl_device *dev;
    CHECK_HR(dmlcl_device_create_with_options(&o, &dev), "device");
    if (!strstr(dmlcl_device_description(dev), "Oclgrind")) {
        fprintf(stderr,
                "dmlcl-gpumodel: the device is %s, not Oclgrind: run it through "
                "scripts/gpumodel\n",
                dmlcl_device_description(dev));
        return 2;
    }
    static row rows[MAX_ROWS];
    unsigned n = 0;
    long consumed = 0;
    dmlcl_tool_progress progress;
    dmlcl_tool_progress_start(&progress, "dmlcl-gpumodel");
    printf("| workload | launch | kernel: variant | grid / work-group | load | store | replays "
           "| DRAM | requests | B/request | B/flight "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    double start = dmlcl_tool_now();
    for (unsigned i = 0; i < bench_model_workload_count; ++i) {
        workload w;
        memset(&w, 0, sizeof w);
        bench_random_seed(0x9E3779B97F4A7C15ull); /* the same draws whatever runs before */
        bench_model_workloads[i](&w);
        if (filter && !strstr(w.name, filter)) {
            workload_free(&w);
            continue;
        }
        dmlcl_tool_progress_step(&progress, i + 1, bench_model_workload_count, w.name);
        unsigned added = run_workload(dev, &w, records, &consumed, rows + n, MAX_ROWS - n);
        gpumodel_record sum;
        memset(&sum, 0, sizeof sum);
        for (unsigned k = n; k < n + added; ++k) {
            row *r = &rows[k];
            printf("| %s | %u | %s: %s | %s |", r->workload, r->launch, r->kernel, r->variant,
                   r->grid);
            print_figures(r);
            if (worst)
                printf("|   | worst: %s |\n", r->worst);
            add_record(&sum, &r->rec);
        }
        if (added > 1) { /* the workload's launches together (no floor of their own) */
            row total;
            memset(&total, 0, sizeof total);
            figures(&total, &sum);
            printf("| %s | all | %u launches | |", w.name, added);
            print_figures(&total);
        }
        fflush(stdout);
        n += added;
        workload_free(&w);
    }
    dmlcl_tool_progress_end(&progress);
    fprintf(stderr, "dmlcl-gpumodel: %u launches in %.1f s\n", n, dmlcl_tool_now() - start);
    dmlcl_device_release(dev);
    if (own)
        unlink(path);
    if (suggest)
        suggest_floors(rows, n);
    int status = floors ? check_floors(floors, rows, n, filter) : 0;
    for (unsigned k = 0; k < n; ++k)
        free(rows[k].worst);
    return status;
}
