/* SPDX-License-Identifier: MIT */
/*
 * dmli_launch_plan (src/launch.c) on hand-built plans and device
 * descriptions written as data, no device. Two kinds of checks:
 *  - properties every launch must have on every device (OpenCL's rules for
 *    an NDRange, the grid covering the plan, the class rules: GPUs never get
 *    the CPU variants SERIAL / STREAM / TRANSPOSE / RUN_ONE);
 *  - exact values worked out by hand from the rules in launch.c's comments
 *    for a few (plan, device) pairs: header slots, dims, grid.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Devices ------------------------------------------------------------------------ */

/* PoCL on a 16-core CPU with a 32 MiB cache. */
static const dmli_device_desc cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
/* A large discrete GPU (132 SMs, H100-like). */
static const dmli_device_desc big_gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};
/* A small integrated GPU: 24 EUs, work-groups of 256, little local memory. */
static const dmli_device_desc igpu = {
    DMLCL_DEVICE_CLASS_GPU, 24, 256, {256, 256, 256}, 16 * 1024, 16, 4, 64, true, 1024,
    (uint64_t)4 << 20,      1};
/* An accelerator (a DSP-like device) with one-dimensional work-groups and no
 * cache size reported. */
static const dmli_device_desc accel = {
    DMLCL_DEVICE_CLASS_ACCELERATOR, 8, 1024, {1024, 1, 1}, 32 * 1024, 8, 4, 128, true, 0, 0, 4};

/* The four classes, then limits: work-groups of 64/256/1024, tiny local
 * memory, item sizes smaller than the rules want. */
static dmli_device_desc devices(int i)
{
    static const dmli_device_desc base[] = {cpu, big_gpu, igpu, accel};
    if (i < 4)
        return base[i];
    i -= 4;
    static const size_t wg[] = {64, 256, 1024};
    dmli_device_desc d = (i / 5) % 2 ? big_gpu : cpu;
    switch (i % 5) {
    case 0:
    case 1:
    case 2:
        d.max_work_group_size = wg[i % 5];
        for (int k = 0; k < 3; ++k)
            d.max_item_sizes[k] = wg[i % 5];
        break;
    case 3: d.local_mem_size = 1024; break;
    default:
        d.max_item_sizes[0] = 16;
        d.max_item_sizes[1] = 1;
        d.max_item_sizes[2] = 4;
        d.max_work_group_size = 32;
        d.compute_units = 1;
        break;
    }
    return d;
}
#define N_DEVICES (4 + 2 * 5)

/* ---- Plans, each already normal (no size-1 dim, nothing merges) ---------------------- */

typedef struct dim {
    int64_t size, out, in, idx, pos;
} dim;

typedef struct plan_case {
    const char *name;
    dmli_plan plan;
    /* Worked out by hand: rows and repeats the dims hold. */
    uint64_t rows, reps;
    bool cpu_transposes, cpu_streams;
    uint64_t tiles;     /* the rows when TRANSPOSE tiles them */
    uint64_t gpu_tiles; /* the rows when a GPU's work-groups tile them (TRANSPOSE 3), else 0 */
} plan_case;

static dmli_plan make(dmli_plan_kind kind, uint32_t elem, const dim *dims, int rank)
{
    dmli_plan p;
    dmli_plan_init(&p, kind, elem);
    for (int d = 0; d < rank; ++d)
        dmli_plan_push(&p, dims[d].size, dims[d].out, dims[d].in, dims[d].idx, dims[d].pos);
    return p;
}

static dmli_plan gather(const dim *dims, int rank, int64_t axis, int64_t axis_stride)
{
    dmli_plan p = make(DMLI_PLAN_INDEXED, 4, dims, rank);
    p.idx_type = DMLI_INDEX_INT32;
    p.wrap_negative = true;
    p.components = 1;
    p.axis_size[0] = axis;
    p.axis_stride[0] = axis_stride;
    return p;
}

static int plan_cases(plan_case *c)
{
    int n = 0;
    /* A slice: 1000 rows of 4096 contiguous floats from rows of 8192 (16 MB: streams on CPUs). */
    const dim slice[] = {{1000, 4096, 8192, 0, 0}, {4096, 1, 1, 0, 0}};
    c[n++] = (plan_case){"slice", make(DMLI_PLAN_VIEW, 4, slice, 2), 1000, 1, false, true, 0, 0};
    /* A 2-D transpose: out[512][256] from in[256][512]; 512 rows = 32 tiles of 16 on CPUs,
     * 16 group tiles of 32 rows x 32 run units on GPUs (1024 units a tile). */
    const dim transpose[] = {{512, 256, 1, 0, 0}, {256, 1, 512, 0, 0}};
    c[n++] = (plan_case){
        "transpose", make(DMLI_PLAN_VIEW, 4, transpose, 2), 512, 1, true, false, 32, 16};
    /* A broadcast: 100 repeats of 50 rows of 64 floats (input rows 128 apart). */
    const dim bcast[] = {{100, 3200, 0, 0, 0}, {50, 64, 128, 0, 0}, {64, 1, 1, 0, 0}};
    c[n++] =
        (plan_case){"broadcast", make(DMLI_PLAN_VIEW, 4, bcast, 3), 50, 100, false, false, 0, 0};
    /* A 64 MiB copy: 16 Mi floats, one contiguous run (streams on CPUs). */
    const dim big[] = {{16 << 20, 1, 1, 0, 0}};
    c[n++] = (plan_case){"big-copy", make(DMLI_PLAN_VIEW, 4, big, 1), 1, 1, false, true, 0, 0};
    /* A scalar: rank 0. */
    c[n++] = (plan_case){"scalar", make(DMLI_PLAN_VIEW, 8, NULL, 0), 1, 1, false, false, 0, 0};
    /* GATHER axis 0: 300 indices pick rows of 128 floats from 1000. */
    const dim rows[] = {{300, 128, 0, 1, 1}, {128, 1, 1, 0, 0}};
    c[n++] = (plan_case){"gather-rows", gather(rows, 2, 1000, 128), 300, 1, false, false, 0, 0};
    /* GATHER on the inner axis: 64 rows share 500 indices into rows of 1000. */
    const dim inner[] = {{64, 500, 1000, 0, 0}, {500, 1, 0, 1, 1}};
    c[n++] = (plan_case){"gather-inner", gather(inner, 2, 1000, 1), 64, 1, false, false, 0, 0};
    /* GATHER of single elements: 777 indices, one unit each (a run of 777). */
    const dim scalars[] = {{777, 1, 0, 1, 1}};
    c[n++] = (plan_case){"gather-elements", gather(scalars, 1, 50, 1), 1, 1, false, false, 0, 0};
    /* GATHER of 48 rows (H, 64 floats apart) from NCHW read as NHWC: W 64 contiguous in the
     * input, C 32 the run, 4096 apart; 48 x 64 rows = 48 x 4 tiles of 16 on CPUs, 48 x 2
     * group tiles of 32 x 32 on GPUs. */
    const dim layout[] = {{48, 2048, 0, 1, 1}, {64, 32, 1, 0, 0}, {32, 1, 4096, 0, 0}};
    c[n++] = (plan_case){
        "gather-of-a-transpose", gather(layout, 3, 60, 64), 3072, 1, true, false, 192, 96};
    return n;
}

/* ---- Properties ---------------------------------------------------------------------- */

static void check_launch(const plan_case *pc, const dmli_device_desc *d, int di)
{
    dmli_launch l;
    dmli_launch_plan(&pc->plan, d, &l);
    const dmli_plan *p = &pc->plan;
    const char *name = pc->name;
    /* The options are the named pairs rendered in order, and the pairs spell the decisions. */
    char want[DMLI_LAUNCH_OPTIONS_MAX];
    int at = snprintf(want, sizeof want, "-cl-std=CL1.2");
    for (unsigned i = 0; i < l.defs.n; ++i)
        at += snprintf(want + at, sizeof want - (size_t)at, " -D%s=%s", l.defs.defs[i].name,
                       l.defs.defs[i].value);
    cr_expect_str_eq(l.options, want, "%s on device %d", name, di);
    const char *serial = dmli_options_value(&l.defs, "SERIAL"),
               *streamed = dmli_options_value(&l.defs, "STREAM"),
               *transpose = dmli_options_value(&l.defs, "TRANSPOSE");
    cr_expect(serial && atoi(serial) == l.serial, "%s on device %d: SERIAL", name, di);
    cr_expect(streamed && atoi(streamed) == l.stream, "%s on device %d: STREAM", name, di);
    cr_expect((transpose ? atoi(transpose) : 0) == l.transpose, "%s on device %d: TRANSPOSE", name,
              di);
    cr_expect(dmli_options_value(&l.defs, "NO_SUCH_MACRO") == NULL);
    bool gpu = d->device_class == DMLCL_DEVICE_CLASS_GPU;
    size_t product = 1;
    for (int k = 0; k < 3; ++k) {
        cr_expect(l.local[k] >= 1, "%s on device %d: local[%d] is 0", name, di, k);
        cr_expect(l.local[k] <= d->max_item_sizes[k], "%s on device %d: local[%d] %zu > %zu", name,
                  di, k, l.local[k], d->max_item_sizes[k]);
        cr_expect(l.local[k] && l.global[k] % l.local[k] == 0,
                  "%s on device %d: local[%d] %zu does not divide global %zu", name, di, k,
                  l.local[k], l.global[k]);
        product *= l.local[k];
    }
    cr_expect(product <= d->max_work_group_size, "%s on device %d: work-group %zu > %zu", name, di,
              product, d->max_work_group_size);
    /* GPUs whose work-groups take 256 items and 1024 units (4 KiB of narrow
     * ones) plus 32 units of padding for each of up to 8 tiles move layout
     * changes by work-groups. */
    uint64_t group_units = 4096 / p->elem_bytes > 1024 ? 4096 / p->elem_bytes : 1024;
    bool group = gpu && pc->gpu_tiles && d->max_work_group_size >= 256 &&
                 d->max_item_sizes[0] >= 256 &&
                 d->local_mem_size >= (group_units + 8 * 32) * p->elem_bytes;
    int64_t run = p->rank ? p->size[p->rank - 1] : 1;
    bool transposes = group || (!gpu && pc->cpu_transposes), stream = !gpu && pc->cpu_streams;
    uint64_t rows = group ? pc->gpu_tiles : transposes ? pc->tiles : pc->rows;
    cr_expect_eq(l.rows, rows, "%s on device %d: rows %llu, expected %llu", name, di,
                 (unsigned long long)l.rows, (unsigned long long)rows);
    cr_expect_eq(l.reps, pc->reps, "%s on device %d: reps %llu, expected %llu", name, di,
                 (unsigned long long)l.reps, (unsigned long long)pc->reps);
    if (group) {
        /* A work-group per tile: tiles along dimension 0, chunks along 2. */
        cr_expect(l.transpose == 3 && l.local[0] == 256 && l.local[1] == 1 && l.local[2] == 1 &&
                      l.global[0] == 256 * rows && l.global[1] == 1 && l.rows_per_item == 1,
                  "%s on device %d: group tiles", name, di);
        cr_expect(l.chunk >= 1 && (int64_t)l.global[2] * l.chunk >= run &&
                      ((int64_t)l.global[2] - 1) * l.chunk < run,
                  "%s on device %d: %zu chunks of %lld for a run of %lld", name, di, l.global[2],
                  (long long)l.chunk, (long long)run);
    } else {
        /* Coverage: the chunks cover the run with none empty; the items cover
         * every row and repeat group; lanes are one work-group wide. */
        cr_expect(l.chunk >= 1 && (int64_t)l.global[1] * l.chunk >= run &&
                      ((int64_t)l.global[1] - 1) * l.chunk < run,
                  "%s on device %d: %zu chunks of %lld for a run of %lld", name, di, l.global[1],
                  (long long)l.chunk, (long long)run);
        cr_expect_eq(l.global[0], l.local[0], "%s on device %d: lanes", name, di);
        uint64_t groups = (pc->reps + l.reps_per_item - 1) / l.reps_per_item;
        uint64_t items = (rows * groups + l.rows_per_item - 1) / l.rows_per_item;
        cr_expect(l.global[2] >= items && l.global[2] < items + l.local[2],
                  "%s on device %d: %zu items for %llu needed", name, di, l.global[2],
                  (unsigned long long)items);
    }
    /* The header carries what the grid was computed from. */
    bool indexed = p->kind == DMLI_PLAN_INDEXED;
    cr_expect_eq(l.shape[indexed ? DMLI_INDEXED_ROWS : DMLI_VIEW_ROWS], (cl_long)rows);
    cr_expect_eq(l.shape[indexed ? DMLI_INDEXED_CHUNK : DMLI_VIEW_CHUNK], l.chunk);
    cr_expect_eq(l.shape[indexed ? DMLI_INDEXED_ROWS_PER_ITEM : DMLI_VIEW_ROWS_PER_ITEM],
                 (cl_long)l.rows_per_item);
    /* Class rules. */
    cr_expect_eq(l.serial, !gpu, "%s on device %d: serial", name, di);
    cr_expect(strstr(l.options, gpu ? "-DSERIAL=0" : "-DSERIAL=1"), "%s: %s", name, l.options);
    cr_expect_eq(l.transpose != 0, transposes, "%s on device %d: transpose %d", name, di,
                 l.transpose);
    cr_expect_eq(l.stream, stream, "%s on device %d: stream", name, di);
    cr_expect(strstr(l.options, stream ? "-DSTREAM=1" : "-DSTREAM=0"), "%s: %s", name, l.options);
    if (!indexed || transposes)
        cr_expect(strstr(l.options, group        ? "-DTRANSPOSE=3"
                                    : transposes ? "-DTRANSPOSE=2"
                                                 : "-DTRANSPOSE=0"),
                  "%s: %s", name, l.options);
    if (group)
        cr_expect(strstr(l.options, "-DGROUP_ROWS="), "%s: %s", name, l.options);
    if (gpu)
        cr_expect(!l.run_one && (!indexed || strstr(l.options, "-DRUN_ONE=0")), "%s: %s", name,
                  l.options);
    cr_expect(strlen(l.options) + 1 < sizeof l.options, "%s: options truncated", name);
}

Test(launch, every_plan_on_every_device)
{
    plan_case cases[16];
    int n = plan_cases(cases);
    for (int di = 0; di < N_DEVICES; ++di) {
        dmli_device_desc d = devices(di);
        for (int i = 0; i < n; ++i)
            check_launch(&cases[i], &d, di);
    }
}

/* ---- Exact launches, worked out by hand ------------------------------------------------- */

/* Header slots 6 and 7 are free (ScaleBias moved to the map family): 0. */
#define FREE 0

static void expect_longs(const cl_long *got, const cl_long *want, int n, const char *what)
{
    for (int i = 0; i < n; ++i)
        cr_expect_eq(got[i], want[i], "%s[%d]: %lld, expected %lld", what, i, (long long)got[i],
                     (long long)want[i]);
}

static void expect_grid(const dmli_launch *l, const size_t *global, const size_t *local)
{
    for (int k = 0; k < 3; ++k) {
        cr_expect_eq(l->global[k], global[k], "global[%d] %zu, expected %zu", k, l->global[k],
                     global[k]);
        cr_expect_eq(l->local[k], local[k], "local[%d] %zu, expected %zu", k, l->local[k],
                     local[k]);
    }
}

Test(launch, slice_on_cpu)
{
    const dim slice[] = {{1000, 4096, 8192, 0, 0}, {4096, 1, 1, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, slice, 2);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect_eq(l.source, DMLI_SOURCE_VIEW);
    cr_expect_str_eq(l.kernel, "view_copy");
    /* Chunk 16384 bytes = 4096 floats: the whole run. Rows per item: 16 KiB /
     * 16 KiB = 1. Items 1000; 64 per group would leave 15 groups < 4 x 16
     * CUs, so 1000 / 64 = 15 per group; global 1000 rounded up to 1005. */
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 4096, 1, 1, 4096, 1000, FREE, 0, 0, 1, 1, 1};
    const cl_long dims[] = {1000, 4096, 8192};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(dims)));
    expect_grid(&l, (size_t[]){1, 1, 1005}, (size_t[]){1, 1, 15});
    /* 16 MB written: a quarter of the 32 MiB cache or more, non-temporal stores. */
    cr_expect(strstr(l.options, "-DUNIT_T=uint -DFAST=1 -DOUT_UNIT=1 -DSERIAL=1 -DSTREAM=1"), "%s",
              l.options);
}

/* Rows longer than a chunk: a CPU work-group holds consecutive chunks of
 * one row (worked out from the rule in src/launch.c chunk_span). */
Test(launch, long_rows_group_chunks_on_cpu)
{
    /* 192 rows of 39936 floats from rows of 65536: chunks of 16384 bytes =
     * 4096 floats, 10 per row. Spans 8 down to 4 round 10 up to 16, 14, 12,
     * 10, 12: span 5, no empty chunk. 64 rows per group would leave 30
     * groups < 4 x 16 CUs: 1920 / 64 = 30 items per group, 30 / 5 = 6 rows
     * of 5 chunks; 192 rows are 32 groups of 6. */
    const dim rows[] = {{192, 39936, 65536, 0, 0}, {39936, 1, 1, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, rows, 2);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect_eq(l.chunk, 4096, "chunk %lld", (long long)l.chunk);
    expect_grid(&l, (size_t[]){1, 10, 192}, (size_t[]){1, 5, 6});
    /* 39 chunks of a row (159744 floats): span 8 rounds up to 40, the least
     * of 8..4 (5 and 4 also give 40; the larger wins): one chunk id past
     * the run, which the kernel skips. */
    const dim longer[] = {{192, 159744, 262144, 0, 0}, {159744, 1, 1, 0, 0}};
    dmli_plan q = make(DMLI_PLAN_VIEW, 4, longer, 2);
    dmli_launch_plan(&q, &cpu, &l);
    cr_expect_eq(l.chunk, 4096, "chunk %lld", (long long)l.chunk);
    cr_expect_eq(l.global[1], 40);
    cr_expect_eq(l.local[1], 8);
    /* GPUs keep one chunk per group column. */
    dmli_launch_plan(&q, &big_gpu, &l);
    cr_expect_eq(l.local[1], 1);
}

Test(launch, slice_on_gpus)
{
    const dim slice[] = {{1000, 4096, 8192, 0, 0}, {4096, 1, 1, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, slice, 2);
    dmli_launch l;
    /* 64 lanes (run >= 64), chunk 8 x 64 = 512: 8 chunks; 256 / 64 = 4 rows
     * a group; 1000 rows, a multiple of 4. */
    dmli_launch_plan(&p, &big_gpu, &l);
    expect_grid(&l, (size_t[]){64, 8, 1000}, (size_t[]){64, 1, 4});
    cr_expect_eq(l.shape[DMLI_VIEW_CHUNK], 512);
    /* Work-groups of 64: one row each. */
    dmli_device_desc small = igpu;
    small.max_work_group_size = 64;
    dmli_launch_plan(&p, &small, &l);
    expect_grid(&l, (size_t[]){64, 8, 1000}, (size_t[]){64, 1, 1});
    /* Item sizes of 16: 16 lanes, chunk 128, 32 chunks; 256 / 16 = 16 rows a
     * group, capped by the work-group (32 / 16 = 2) and item size 4 -> 2. */
    small.max_work_group_size = 32;
    small.max_item_sizes[0] = 16;
    small.max_item_sizes[2] = 4;
    dmli_launch_plan(&p, &small, &l);
    expect_grid(&l, (size_t[]){16, 32, 1000}, (size_t[]){16, 1, 2});
}

Test(launch, transpose_on_cpu)
{
    const dim transpose[] = {{512, 256, 1, 0, 0}, {256, 1, 512, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, transpose, 2);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    /* Register blocks: run 256 and output stride 256 are whole 4-float vectors.
     * Tiles of 64 / 4 = 16 input rows: 32 tiles, 16 x 256 = 4096 apart in the
     * output; the real dim {512, 256, 1} follows. Chunk 128 / 4 = 32: 8 chunks.
     * Tiles per item: 32 x 8 / (16 x 16) = 1. */
    cr_expect_eq(l.transpose, 2);
    cr_expect(strstr(l.options, "-DTRANSPOSE=2 -DSIDE=16 -DCHUNK_MAX=32 -DVN=4 -DVEC_T=uint4"),
              "%s", l.options);
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 256, 1, 512, 32, 32, FREE, 0, 0, 1, 1, 1};
    const cl_long dims[] = {32, 4096, 16, 512, 256, 1};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(dims)));
    /* Tiles prefetch the lines two tiles ahead where the compiler takes
     * __builtin_prefetch; not on Oclgrind. */
    cr_expect_eq(l.tile_prefetch, 2);
    cr_expect(strstr(l.options, "-DTILE_PREFETCH=2"), "%s", l.options);
    dmli_device_desc no_prefetch = cpu;
    no_prefetch.prefetch = false;
    dmli_launch_plan(&p, &no_prefetch, &l);
    cr_expect(l.transpose == 2 && l.tile_prefetch == 0 && !strstr(l.options, "TILE_PREFETCH"), "%s",
              l.options);
    /* The same plan on a GPU: a work-group of 256 per tile (TRANSPOSE 3) of
     * 32 run units (the run is 32 or more) x 1024 / 32 = 32 input rows: 16
     * tiles, 32 x 256 = 8192 apart in the output, 8 chunks. */
    dmli_launch_plan(&p, &big_gpu, &l);
    cr_expect_eq(l.transpose, 3);
    cr_expect(strstr(l.options, "-DTRANSPOSE=3 -DSIDE=32 -DCHUNK_MAX=32"), "%s", l.options);
    cr_expect(l.tile_prefetch == 0 && !strstr(l.options, "TILE_PREFETCH"), "%s", l.options);
    const cl_long ghead[DMLI_SHAPE_HEADER] = {1, 256, 1, 512, 32, 16, FREE, 0, 0, 1, 1, 1};
    const cl_long gdims[] = {16, 8192, 32, 512, 256, 1};
    expect_longs(l.shape, ghead, DMLI_SHAPE_HEADER, "gpu header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, gdims, N(gdims), "gpu dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(gdims)));
    expect_grid(&l, (size_t[]){16 * 256, 1, 8}, (size_t[]){256, 1, 1});
    /* A GPU whose work-groups hold fewer than 256 items reads strided runs
     * through lanes: rows are the 512 output rows. */
    dmli_device_desc small = big_gpu;
    small.max_work_group_size = 128;
    dmli_launch_plan(&p, &small, &l);
    cr_expect_eq(l.transpose, 0);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 512);
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + 3));
}

Test(launch, group_tiles_fit_the_run_and_the_rows)
{
    /* TRANSPOSE 3 tiles of f16 (a group moves 4 KiB: 2048 units): CHUNK_MAX
     * the power of two that holds the run (at most 32), SIDE the rest of
     * 2048 units, no more than the power of two that holds the
     * input-contiguous dimension, and GROUP_ROWS consecutive tiles (at most
     * 8) fill the 2048; dimensions under 32 units take no tiles unless they
     * pack the run (its input stride their size, the run 32 or more: 31 x
     * 64, whose run's chunk takes the rest of the 2048). */
    const struct {
        int64_t n0, run;
        int side, chunk, rows;
    } cases[] = {{512, 256, 64, 32, 1}, {4096, 3, 512, 4, 1},  {56, 2, 64, 2, 8},
                 {100, 1, 128, 1, 8},   {33, 17, 64, 32, 1},   {4096, 16, 128, 16, 1},
                 {31, 64, 32, 64, 1},   {1000, 9, 128, 16, 1}, {200, 4, 256, 4, 2},
                 {20, 16, 0, 0, 0}};
    for (size_t k = 0; k < N(cases); ++k) {
        const dim t[] = {{cases[k].n0, cases[k].run, 1, 0, 0},
                         {cases[k].run, 1, cases[k].n0, 0, 0}};
        dmli_plan p = make(DMLI_PLAN_VIEW, 2, t, 2);
        dmli_launch l;
        dmli_launch_plan(&p, &big_gpu, &l);
        if (!cases[k].side) {
            cr_expect_eq(l.transpose, 0, "case %zu: %s", k, l.options);
            continue;
        }
        char want[80];
        int n =
            snprintf(want, sizeof want, "-DTRANSPOSE=3 -DSIDE=%d -DCHUNK_MAX=%d -DGROUP_ROWS=%d",
                     cases[k].side, cases[k].chunk, cases[k].rows);
        const char *at = strstr(l.options, want);
        int64_t tiles = (cases[k].n0 + cases[k].side - 1) / cases[k].side;
        int64_t chunk = cases[k].chunk < cases[k].run ? cases[k].chunk : cases[k].run;
        cr_expect(l.transpose == 3 && at && (at[n] == ' ' || at[n] == '\0') && l.chunk == chunk &&
                      l.rows == (uint64_t)tiles,
                  "case %zu: rows %llu chunk %lld: %s", k, (unsigned long long)l.rows,
                  (long long)l.chunk, l.options);
        /* A work-group of 256 per GROUP_ROWS tiles. */
        size_t groups = (size_t)((tiles + cases[k].rows - 1) / cases[k].rows);
        cr_expect(l.global[0] == 256 * groups && l.local[0] == 256, "case %zu: global %zu", k,
                  l.global[0]);
    }
}

Test(launch, streams_from_a_quarter_of_the_cache)
{
    /* CPUs and accelerators stream outputs of a quarter of the device's
     * cache or more (32 MiB when it reports none); GPUs never. */
    const uint64_t mib = (uint64_t)1 << 20;
    cr_expect(dmli_launch_streams(&cpu, 8 * mib));
    cr_expect(!dmli_launch_streams(&cpu, 8 * mib - 1));
    cr_expect(dmli_launch_streams(&accel, 8 * mib) && !dmli_launch_streams(&accel, 8 * mib - 1));
    dmli_device_desc big_cache = cpu;
    big_cache.cache_size = 256 * mib;
    cr_expect(dmli_launch_streams(&big_cache, 64 * mib));
    cr_expect(!dmli_launch_streams(&big_cache, 64 * mib - 1));
    cr_expect(!dmli_launch_streams(&big_gpu, 1024 * mib) &&
              !dmli_launch_streams(&igpu, 1024 * mib));
    /* A plan: a copy of 8 MiB of floats streams on the CPU, not on a cache of 64 MiB. */
    const dim copy[] = {{2 << 20, 1, 1, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, copy, 1);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect(l.stream && strstr(l.options, "-DSTREAM=1"), "%s", l.options);
    big_cache.cache_size = 64 * mib;
    dmli_launch_plan(&p, &big_cache, &l);
    cr_expect(!l.stream && strstr(l.options, "-DSTREAM=0"), "%s", l.options);
}

Test(launch, transposes_stream_from_a_sixteenth_of_the_cache)
{
    /* A matrix transpose of floats, out[rows][256] from in[256][rows]:
     * TRANSPOSE tiles on the CPU, non-temporal stores from 2 MiB written
     * (a sixteenth of 32 MiB); the same bytes copied stream from 8 MiB. */
    const struct {
        int64_t rows;
        bool stream;
    } cases[] = {{2048, true}, {2047, false}, {512, false}};
    for (size_t k = 0; k < N(cases); ++k) {
        const dim transpose[] = {{cases[k].rows, 256, 1, 0, 0}, {256, 1, cases[k].rows, 0, 0}};
        dmli_plan p = make(DMLI_PLAN_VIEW, 4, transpose, 2);
        dmli_launch l;
        dmli_launch_plan(&p, &cpu, &l);
        cr_expect(l.transpose != 0, "case %zu: %s", k, l.options);
        cr_expect_eq(l.stream, cases[k].stream, "case %zu: %s", k, l.options);
        const dim copy[] = {{cases[k].rows * 256, 1, 1, 0, 0}};
        dmli_plan c = make(DMLI_PLAN_VIEW, 4, copy, 1);
        dmli_launch_plan(&c, &cpu, &l);
        cr_expect(!l.stream, "case %zu: %s", k, l.options);
    }
}

Test(launch, transpose_chunk_by_row_distance)
{
    /* out[512][256] from rows of 512 units is units apart, is = +-is_units:
     * the tile's chunk is two lines of each output row (128 bytes) while the
     * input rows it reads are under a page (4096 bytes) apart, one line where
     * they are a page or more apart (each its own stream). */
    const struct {
        int64_t is_units;
        size_t elem;
        int chunk;
    } cases[] = {{512, 4, 32},  {1023, 4, 32}, {1024, 4, 16}, {-1024, 4, 16},
                 {4096, 2, 32}, {2048, 2, 32}, {1024, 2, 64}, {4096, 1, 64},
                 {512, 1, 128}, {512, 8, 8},   {256, 8, 16}};
    for (size_t k = 0; k < N(cases); ++k) {
        const dim transpose[] = {{512, 256, 1, 0, 0}, {256, 1, cases[k].is_units, 0, 0}};
        dmli_plan p = make(DMLI_PLAN_VIEW, cases[k].elem, transpose, 2);
        dmli_launch l;
        dmli_launch_plan(&p, &cpu, &l);
        char want[32];
        snprintf(want, sizeof want, "-DCHUNK_MAX=%d ", cases[k].chunk);
        cr_expect(l.transpose != 0 && l.chunk == cases[k].chunk && strstr(l.options, want),
                  "case %zu: transpose %d chunk %lld: %s", k, l.transpose, (long long)l.chunk,
                  l.options);
    }
}

Test(launch, interleave_on_cpu)
{
    /* NCHW -> NHWC, 3 channels of u8: 4 images of 4096 positions. */
    const dim nhwc[] = {{4, 12288, 12288, 0, 0}, {4096, 3, 1, 0, 0}, {3, 1, 4096, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 1, nhwc, 3);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    /* Runs of 3 (2..8), output stride 1; the next dimension packs them (stride
     * 3) and reads stride 1, 4096 >= 16 positions: INTERLEAVE, not TRANSPOSE.
     * Rows of whole 16-byte vectors (4096 % 16, 12288 % 16, offset 0): 2.
     * Chunk: 16384 / 3 = 5461 -> 5456 (whole vectors) >= 4096: the row, one
     * chunk. Rows: 4 (the positions follow them in dims). Rows per item:
     * min(16384 / (4096 x 3) = 1, 4 / 256 = 0) -> 1; 4 items, groups of 1. */
    cr_expect_eq(l.interleave, 2);
    cr_expect_eq(l.transpose, 0);
    cr_expect(strstr(l.options, "-DTRANSPOSE=0"), "%s", l.options);
    cr_expect(strstr(l.options, "-DINTERLEAVE=2 -DRUN_N=3 -DVN=16 -DVEC_T=uchar16"), "%s",
              l.options);
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 3, 1, 4096, 4096, 4, FREE, 0, 0, 1, 1, 1};
    const cl_long dims[] = {4, 12288, 12288, 4096, 3, 1};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(dims)));
    expect_grid(&l, (size_t[]){1, 1, 4}, (size_t[]){1, 1, 1});
    /* GPUs tile it by work-groups: runs of 3 in chunks of 4, a group moving
     * 4 KiB of u8, 4096 / 4 = 1024 positions a tile, 4 tiles per image. */
    dmli_launch_plan(&p, &big_gpu, &l);
    cr_expect_eq(l.interleave, 0);
    cr_expect(!strstr(l.options, "-DINTERLEAVE"), "%s", l.options);
    cr_expect(l.transpose == 3 && strstr(l.options, "-DSIDE=1024 -DCHUNK_MAX=4 -DGROUP_ROWS=1"),
              "%s", l.options);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 4 * 4);
    /* Accelerators run work-items like a CPU: INTERLEAVE too. */
    dmli_launch_plan(&p, &accel, &l);
    cr_expect_eq(l.interleave, 2);
}

Test(launch, interleave_tails_aligned_where_a_row_is_one_chunk)
{
    /* Runs of 4 u8 (depth-to-space, block 4) over `positions`, rows packed
     * in the output (stride positions x 4): aligned stores (2) where rows
     * are whole 16-byte vectors and a row with a tail of positions (not a
     * multiple of 16) is one chunk (16384 / 4 = 4096 positions at most). */
    const struct {
        int64_t positions, out_offset;
        int mode;
    } cases[] = {{64, 0, 2},   {56, 0, 2}, {4096, 0, 2}, {4100, 0, 1},
                 {8192, 0, 2}, {58, 0, 1}, {56, 4, 1},   {60, 16, 2}};
    for (size_t k = 0; k < N(cases); ++k) {
        int64_t w = cases[k].positions;
        const dim d2s[] = {{8, 4 * w, 4096 * 4, 0, 0}, {w, 4, 1, 0, 0}, {4, 1, 1024, 0, 0}};
        dmli_plan p = make(DMLI_PLAN_VIEW, 1, d2s, 3);
        p.out_offset = cases[k].out_offset;
        dmli_launch l;
        dmli_launch_plan(&p, &cpu, &l);
        cr_expect_eq(l.interleave, cases[k].mode, "case %zu: %d positions: interleave %d", k,
                     (int)w, l.interleave);
    }
}

/*
 * The chunks cover `span` (what they split) with none empty, the items the
 * `rows`: with group tiles (TRANSPOSE 3) the chunks lie along dimension 2
 * and a work-group of 256 takes each item along 0; else chunks along 1 and
 * items along 2.
 */
static void expect_coverage(const dmli_launch *l, int di, bool group, int64_t span, uint64_t rows)
{
    size_t chunk_dim = group ? l->global[2] : l->global[1];
    cr_expect(l->chunk >= 1 && (int64_t)chunk_dim * l->chunk >= span &&
                  ((int64_t)chunk_dim - 1) * l->chunk < span,
              "device %d: %zu chunks of %lld", di, chunk_dim, (long long)l->chunk);
    cr_expect_eq(l->rows, rows, "device %d: rows %llu", di, (unsigned long long)l->rows);
    uint64_t items = (rows + l->rows_per_item - 1) / l->rows_per_item;
    if (group)
        cr_expect(l->global[0] == 256 * items && l->local[0] == 256, "device %d: %zu items", di,
                  l->global[0]);
    else
        cr_expect(l->global[2] >= items && l->global[2] < items + l->local[2],
                  "device %d: %zu items for %llu", di, l->global[2], (unsigned long long)items);
    cr_expect_eq(l->shape[DMLI_VIEW_ROWS], (cl_long)rows);
}

/* The short-run plan on every device: OpenCL's NDRange rules, the chunks
 * covering the interleaved dimension, the items covering the rows. */
Test(launch, interleave_on_every_device)
{
    const dim nhwc[] = {{4, 12288, 12288, 0, 0}, {4096, 3, 1, 0, 0}, {3, 1, 4096, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 1, nhwc, 3);
    for (int di = 0; di < N_DEVICES; ++di) {
        dmli_device_desc d = devices(di);
        bool gpu = d.device_class == DMLCL_DEVICE_CLASS_GPU;
        /* GPUs whose work-groups take 256 items and 4096 + 8 x 32 bytes: group
         * tiles (runs of 3 in chunks of 4, 1024 positions: 4 tiles per image). */
        bool group = gpu && d.max_work_group_size >= 256 && d.max_item_sizes[0] >= 256 &&
                     d.local_mem_size >= 4096 + 8 * 32;
        dmli_launch l;
        dmli_launch_plan(&p, &d, &l);
        cr_expect_eq(l.interleave, gpu ? 0 : 2, "device %d: interleave %d", di, l.interleave);
        cr_expect_eq(l.transpose, group ? 3 : 0, "device %d: transpose %d", di, l.transpose);
        size_t product = 1;
        for (int k = 0; k < 3; ++k) {
            cr_expect(l.local[k] >= 1 && l.local[k] <= d.max_item_sizes[k] &&
                          l.global[k] % l.local[k] == 0,
                      "device %d: local[%d] %zu, global %zu", di, k, l.local[k], l.global[k]);
            product *= l.local[k];
        }
        cr_expect(product <= d.max_work_group_size, "device %d: work-group %zu", di, product);
        int64_t span = gpu ? 3 : 4096; /* what the chunks split */
        expect_coverage(&l, di, group, span, group ? 4 * 4 : gpu ? 4 * 4096 : 4);
        cr_expect_eq(l.shape[DMLI_VIEW_CHUNK], l.chunk);
        cr_expect(strlen(l.options) + 1 < sizeof l.options, "device %d: options truncated", di);
    }
}

Test(launch, interleave_rules)
{
    dmli_launch l;
    /* Output rows off the 16-byte grid (image stride 12289), or positions not
     * whole vectors (4095): 1, plain unaligned stores. */
    const dim padded[] = {{4, 12289, 12288, 0, 0}, {4096, 3, 1, 0, 0}, {3, 1, 4096, 0, 0}};
    const dim tail[] = {{4, 12285, 12285, 0, 0}, {4095, 3, 1, 0, 0}, {3, 1, 4095, 0, 0}};
    dmli_plan a = make(DMLI_PLAN_VIEW, 1, padded, 3), b = make(DMLI_PLAN_VIEW, 1, tail, 3);
    dmli_launch_plan(&a, &cpu, &l);
    cr_expect(l.interleave == 1 && strstr(l.options, "-DINTERLEAVE=1"), "%s", l.options);
    dmli_launch_plan(&b, &cpu, &l);
    cr_expect(l.interleave == 1 && strstr(l.options, "-DINTERLEAVE=1"), "%s", l.options);
    b.out_offset = 16;
    b.size[1] = 4096;
    dmli_launch_plan(&b, &cpu, &l);
    cr_expect_eq(l.interleave, 1, "the output offset 16 is whole, the image stride 12285 is not");
    /* Runs of 9 (over 8): TRANSPOSE (far input stride, 4096 >= a tile). */
    const dim nine[] = {{4, 36864, 36864, 0, 0}, {4096, 9, 1, 0, 0}, {9, 1, 4096, 0, 0}};
    dmli_plan c = make(DMLI_PLAN_VIEW, 1, nine, 3);
    dmli_launch_plan(&c, &cpu, &l);
    cr_expect(l.interleave == 0 && l.transpose == 1, "interleave %d transpose %d", l.interleave,
              l.transpose);
    /* Fewer positions than a vector (10 u8), an input stride 2 on them, or a
     * splat run: none. */
    const dim few[] = {{4, 30, 30, 0, 0}, {10, 3, 1, 0, 0}, {3, 1, 10, 0, 0}};
    const dim strided[] = {{4, 12288, 24576, 0, 0}, {4096, 3, 2, 0, 0}, {3, 1, 8192, 0, 0}};
    const dim splat[] = {{4, 12288, 4096, 0, 0}, {4096, 3, 1, 0, 0}, {3, 1, 0, 0, 0}};
    const dim *none[] = {few, strided, splat};
    for (int i = 0; i < 3; ++i) {
        dmli_plan q = make(DMLI_PLAN_VIEW, 1, none[i], 3);
        dmli_launch_plan(&q, &cpu, &l);
        cr_expect_eq(l.interleave, 0, "case %d: %s", i, l.options);
    }
    /* Depth-to-space f32, block 2, rows of 10000 positions: chunks of 16384 /
     * (4 x 2) = 2048 positions (whole 4-float vectors), 5 of them; 3 rows. */
    const dim d2s[] = {{3, 20000, 10000, 0, 0}, {10000, 2, 1, 0, 0}, {2, 1, 30000, 0, 0}};
    dmli_plan d = make(DMLI_PLAN_VIEW, 4, d2s, 3);
    dmli_launch_plan(&d, &cpu, &l);
    cr_expect_eq(l.interleave, 2);
    cr_expect_eq(l.chunk, 2048);
    cr_expect_eq(l.global[1], 5);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 3);
    cr_expect(strstr(l.options, "-DRUN_N=2 -DVN=4 -DVEC_T=uint4"), "%s", l.options);
}

/*
 * STRIDED (a run contiguous in the output read at input stride 2, -1 or -2,
 * CPUs): units of 1 to 8 bytes, runs of at least 128 output bytes; SV_N is
 * a line of units. Everything else keeps its path.
 */
Test(launch, strided_rules)
{
    dmli_launch l;
    static const uint32_t elems[] = {1, 2, 4, 8};
    static const int64_t strides[] = {2, -1, -2};
    for (int e = 0; e < N(elems); ++e)
        for (int k = 0; k < N(strides); ++k) {
            int64_t run = 128 / elems[e];
            /* Rows of every other input row, as the reversing slice reads them. */
            const dim rows[] = {{7, run, 4 * run, 0, 0}, {run, 1, strides[k], 0, 0}};
            dmli_plan p = make(DMLI_PLAN_VIEW, elems[e], rows, 2);
            dmli_launch_plan(&p, &cpu, &l);
            char want[64];
            snprintf(want, sizeof want, "-DRUN_IS_K=%d", (int)strides[k]);
            cr_expect(l.strided && strstr(l.options, want), "%u-byte units, stride %d: %s",
                      elems[e], (int)strides[k], l.options);
            snprintf(want, sizeof want, "-DSTRIDED=1 -DSV_N=%u", 64 / elems[e]);
            cr_expect(strstr(l.options, want), "%s", l.options);
            dmli_launch_plan(&p, &accel, &l);
            cr_expect(l.strided, "accelerators run work-items as a CPU does");
            dmli_launch_plan(&p, &big_gpu, &l);
            cr_expect(!l.strided && !strstr(l.options, "-DSTRIDED"), "GPU: %s", l.options);
            /* A run one unit under 128 bytes: the general path. */
            p.size[1] = run - 1;
            dmli_launch_plan(&p, &cpu, &l);
            cr_expect(!l.strided && !strstr(l.options, "-DSTRIDED"), "short: %s", l.options);
        }
    /* Strides 1, 3, -3 and 0, 16-byte units, a strided output: none. */
    static const int64_t others[] = {1, 3, -3, 0};
    for (int k = 0; k < N(others); ++k) {
        const dim rows[] = {{7, 1000, 4000, 0, 0}, {1000, 1, others[k], 0, 0}};
        dmli_plan p = make(DMLI_PLAN_VIEW, 4, rows, 2);
        dmli_launch_plan(&p, &cpu, &l);
        cr_expect(!l.strided, "stride %d: %s", (int)others[k], l.options);
    }
    const dim rows[] = {{7, 1000, 4000, 0, 0}, {1000, 1, -1, 0, 0}};
    dmli_plan wide = make(DMLI_PLAN_VIEW, 16, rows, 2);
    dmli_launch_plan(&wide, &cpu, &l);
    cr_expect(!l.strided, "16-byte units: %s", l.options);
    const dim out2[] = {{7, 1, 4000, 0, 0}, {1000, 7, -1, 0, 0}};
    dmli_plan o = make(DMLI_PLAN_VIEW, 4, out2, 2);
    dmli_launch_plan(&o, &cpu, &l);
    cr_expect(!l.strided, "output stride 7: %s", l.options);
    /* NHWC -> NCHW with 2 channels: the stride-2 run's other unit is the
     * channel dimension's (input stride 1): DEINTERLEAVE keeps it. */
    const dim nchw2[] = {{4, 8192, 8192, 0, 0}, {2, 4096, 1, 0, 0}, {4096, 1, 2, 0, 0}};
    dmli_plan c2 = make(DMLI_PLAN_VIEW, 4, nchw2, 3);
    dmli_launch_plan(&c2, &cpu, &l);
    cr_expect(l.deinterleave && !l.strided, "%s", l.options);
    /* Repeats (an outer input stride 0): REPEAT keeps it. */
    const dim rep[] = {{7, 1000, 0, 0, 0}, {1000, 1, -1, 0, 0}};
    dmli_plan r = make(DMLI_PLAN_VIEW, 4, rep, 2);
    dmli_launch_plan(&r, &cpu, &l);
    cr_expect(l.repeat && !l.strided, "%s", l.options);
}

Test(launch, deinterleave_on_cpu)
{
    /* NHWC -> NCHW, 3 channels of u8: 4 images of 4096 positions. */
    const dim nchw[] = {{4, 12288, 12288, 0, 0}, {3, 4096, 1, 0, 0}, {4096, 1, 3, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 1, nchw, 3);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    /* The run reads every 3rd unit (2..8), output stride 1, 4096 >= 16
     * positions; the channels (size 3) read stride 1: DEINTERLEAVE. Every
     * output stride (12288, 4096) and the run whole 16-byte vectors, offset
     * 0: 2. Chunk: 16384 / 3 = 5461 -> 5456 (whole vectors) >= 4096: the
     * run, one chunk. Rows: 4 x 3 / 3 = 4, the channels follow them in dims.
     * Rows per item: min(16384 / (4096 x 3) = 1, 4 / 256 = 0) -> 1; 4 items,
     * groups of 1. */
    cr_expect_eq(l.deinterleave, 2);
    cr_expect_eq(l.interleave, 0);
    cr_expect_eq(l.transpose, 0);
    cr_expect(strstr(l.options, "-DDEINTERLEAVE=2 -DRUN_N=3 -DVN=16 -DVEC_T=uchar16"), "%s",
              l.options);
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 4096, 1, 3, 4096, 4, FREE, 0, 0, 1, 1, 1};
    const cl_long dims[] = {4, 12288, 12288, 3, 4096, 1};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(dims)));
    expect_grid(&l, (size_t[]){1, 1, 4}, (size_t[]){1, 1, 1});
    /* GPUs: packed work-group tiles (the run's input stride 3 is the size of
     * the input-contiguous channels next to it): 4 x 1024 u8 a tile (4 KiB:
     * the run's chunk as long as that allows), one tile of the 3 channels
     * per image: 4 rows, 4096 / 1024 = 4 chunks, a group per tile. */
    dmli_launch_plan(&p, &big_gpu, &l);
    cr_expect_eq(l.deinterleave, 0);
    cr_expect(!strstr(l.options, "-DDEINTERLEAVE"), "%s", l.options);
    cr_expect(l.transpose == 3 && strstr(l.options, "-DSIDE=4 -DCHUNK_MAX=1024 -DGROUP_ROWS=1"),
              "%s", l.options);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 4);
    expect_grid(&l, (size_t[]){4 * 256, 1, 4}, (size_t[]){256, 1, 1});
    /* A GPU whose local memory is under 4 x 1024 x (4 + 1) bytes: the
     * general path, rows the 4 x 3 channels. */
    dmli_device_desc small = big_gpu;
    small.local_mem_size = 4096;
    dmli_launch_plan(&p, &small, &l);
    cr_expect_eq(l.transpose, 0);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 12);
    /* Accelerators run work-items like a CPU: DEINTERLEAVE too. */
    dmli_launch_plan(&p, &accel, &l);
    cr_expect_eq(l.deinterleave, 2);
}

Test(launch, deinterleave_space_to_depth)
{
    /* Space-to-depth f32, block 2, DCR: input [3, 5, 20, 128] to output [3,
     * 20, 10, 64] as (n, i, j, c, h, w); output channel (i x 2 + j) x 5 + c
     * (stride 640), input (n, c, 2h + i, 2w + j). */
    const dim s2d[] = {{3, 12800, 12800, 0, 0}, {2, 6400, 128, 0, 0}, {2, 3200, 1, 0, 0},
                       {5, 640, 2560, 0, 0},    {10, 64, 256, 0, 0},  {64, 1, 2, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, s2d, 6);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    /* The run reads every 2nd float; j (size 2, input stride 1) is the
     * streams' dimension, three dimensions out. Output strides and the run
     * (64) whole 4-float vectors: 2. Chunk: 16384 / (4 x 2) = 2048 -> the run
     * (64). Rows: 3 x 2 x 2 x 5 x 10 / 2 = 300; rows per item: min(4096 /
     * (64 x 2) = 32, 300 / 256 = 1) = 1; 300 items in groups of 300 / 64 = 4.
     * Rows innermost first in input order (i 128, h 256, c 2560, n 12800),
     * then j. */
    cr_expect_eq(l.deinterleave, 2);
    cr_expect_eq(l.transpose, 0);
    cr_expect(strstr(l.options, "-DDEINTERLEAVE=2 -DRUN_N=2 -DVN=4 -DVEC_T=uint4"), "%s",
              l.options);
    const cl_long head[DMLI_SHAPE_HEADER] = {4, 64, 1, 2, 64, 300, FREE, 0, 0, 1, 1, 1};
    const cl_long dims[] = {2, 6400, 128, 10, 64, 256, 5, 640, 2560, 3, 12800, 12800, 2, 3200, 1};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(dims)));
    expect_grid(&l, (size_t[]){1, 1, 300}, (size_t[]){1, 1, 4});
    /* GPUs: j moves next to the run, whose input stride 2 is j's size
     * (packed): tiles of 2 x 64 floats (the run; 1024 / 2 = 512 would be
     * allowed), 1024 / 128 = 8 a group; rows 3 x 2 x 5 x 10 = 300 (j one
     * tile), innermost first: j tiled {1, 2 x 3200, 2}, h, c, i, n, then the
     * real j {2, 3200, 1}. 38 groups. */
    dmli_launch_plan(&p, &big_gpu, &l);
    cr_expect(l.transpose == 3 && l.deinterleave == 0 &&
                  strstr(l.options, "-DSIDE=2 -DCHUNK_MAX=64 -DGROUP_ROWS=8"),
              "%s", l.options);
    const cl_long ghead[DMLI_SHAPE_HEADER] = {5, 64, 1, 2, 64, 300, FREE, 0, 0, 1, 1, 1};
    const cl_long gdims[] = {1, 6400, 2,   10, 64,    256,   5, 640,  2560,
                             2, 6400, 128, 3,  12800, 12800, 2, 3200, 1};
    expect_longs(l.shape, ghead, DMLI_SHAPE_HEADER, "gpu header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, gdims, N(gdims), "gpu dims");
    expect_grid(&l, (size_t[]){38 * 256, 1, 1}, (size_t[]){256, 1, 1});
}

/* The split-run plan on every device: OpenCL's NDRange rules, the chunks
 * covering the run, the items covering the rows. */
Test(launch, deinterleave_on_every_device)
{
    const dim nchw[] = {{4, 12288, 12288, 0, 0}, {3, 4096, 1, 0, 0}, {4096, 1, 3, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 1, nchw, 3);
    for (int di = 0; di < N_DEVICES; ++di) {
        dmli_device_desc d = devices(di);
        bool gpu = d.device_class == DMLCL_DEVICE_CLASS_GPU;
        /* GPUs whose groups take 256 items and 4 x 1024 x 5 bytes: packed
         * tiles of 4 x 1024 (4 rows, 4 chunks along dimension 2). */
        bool group = gpu && d.max_work_group_size >= 256 && d.max_item_sizes[0] >= 256 &&
                     d.local_mem_size >= 1024 * 5;
        dmli_launch l;
        dmli_launch_plan(&p, &d, &l);
        cr_expect_eq(l.deinterleave, gpu ? 0 : 2, "device %d: deinterleave %d", di, l.deinterleave);
        cr_expect_eq(l.transpose, group ? 3 : 0, "device %d: transpose %d", di, l.transpose);
        size_t product = 1;
        for (int k = 0; k < 3; ++k) {
            cr_expect(l.local[k] >= 1 && l.local[k] <= d.max_item_sizes[k] &&
                          l.global[k] % l.local[k] == 0,
                      "device %d: local[%d] %zu, global %zu", di, k, l.local[k], l.global[k]);
            product *= l.local[k];
        }
        cr_expect(product <= d.max_work_group_size, "device %d: work-group %zu", di, product);
        expect_coverage(&l, di, group, 4096, group ? 4 : gpu ? 12 : 4);
        cr_expect(strlen(l.options) + 1 < sizeof l.options, "device %d: options truncated", di);
    }
}

Test(launch, deinterleave_rules)
{
    dmli_launch l;
    /* Output images off the 16-byte grid (12289), or runs not whole vectors
     * (4095): 1, plain unaligned stores. */
    const dim padded[] = {{4, 12289, 12288, 0, 0}, {3, 4096, 1, 0, 0}, {4096, 1, 3, 0, 0}};
    const dim tail[] = {{4, 12285, 12285, 0, 0}, {3, 4095, 1, 0, 0}, {4095, 1, 3, 0, 0}};
    dmli_plan a = make(DMLI_PLAN_VIEW, 1, padded, 3), b = make(DMLI_PLAN_VIEW, 1, tail, 3);
    dmli_launch_plan(&a, &cpu, &l);
    cr_expect(l.deinterleave == 1 && strstr(l.options, "-DDEINTERLEAVE=1"), "%s", l.options);
    dmli_launch_plan(&b, &cpu, &l);
    cr_expect(l.deinterleave == 1 && strstr(l.options, "-DDEINTERLEAVE=1"), "%s", l.options);
    /* 9 streams (over 8); 2 of 3 streams (input stride 3, size 2); fewer
     * positions than a vector (10 u8); a reversed run (input stride -3):
     * none, and no TRANSPOSE (streams under a tile). */
    const dim nine[] = {{4, 36864, 36864, 0, 0}, {9, 4096, 1, 0, 0}, {4096, 1, 9, 0, 0}};
    const dim two[] = {{4, 8192, 12288, 0, 0}, {2, 4096, 1, 0, 0}, {4096, 1, 3, 0, 0}};
    const dim few[] = {{4, 30, 30, 0, 0}, {3, 10, 1, 0, 0}, {10, 1, 3, 0, 0}};
    const dim reversed[] = {{4, 12288, 12288, 0, 0}, {3, 4096, 1, 0, 0}, {4096, 1, -3, 0, 0}};
    const dim *none[] = {nine, two, few, reversed};
    for (int i = 0; i < 4; ++i) {
        dmli_plan q = make(DMLI_PLAN_VIEW, 1, none[i], 3);
        dmli_launch_plan(&q, &cpu, &l);
        cr_expect(l.deinterleave == 0 && l.transpose == 0, "case %d: %s", i, l.options);
    }
    /* A 2 x 8 transpose of f64 fits both rules: INTERLEAVE (runs of 2 in the
     * output, 8 >= 2 positions) takes priority. */
    const dim both[] = {{8, 2, 1, 0, 0}, {2, 1, 8, 0, 0}};
    dmli_plan c = make(DMLI_PLAN_VIEW, 8, both, 2);
    dmli_launch_plan(&c, &cpu, &l);
    cr_expect(l.interleave == 2 && l.deinterleave == 0, "%s", l.options);
    /* NHWC -> NCHW f32 with 8 channels over 10000 positions: chunks of 16384
     * / (4 x 8) = 512 positions (whole vectors), 20 of them; 2 rows. */
    const dim c8[] = {{2, 80000, 80000, 0, 0}, {8, 10000, 1, 0, 0}, {10000, 1, 8, 0, 0}};
    dmli_plan d = make(DMLI_PLAN_VIEW, 4, c8, 3);
    dmli_launch_plan(&d, &cpu, &l);
    cr_expect_eq(l.deinterleave, 2);
    cr_expect_eq(l.chunk, 512);
    cr_expect_eq(l.global[1], 20);
    cr_expect_eq(l.shape[DMLI_VIEW_ROWS], 2);
    cr_expect(strstr(l.options, "-DRUN_N=8 -DVN=4 -DVEC_T=uint4"), "%s", l.options);
    /* Chunks grow to leave 16 items per compute unit (16 here): NHWC -> NCHW
     * u8 C = 3 of 64 x 50176 positions, 64 x 50176 x 3 / 256 = 37632 bytes,
     * 12544 positions (whole vectors), 4 per row. 64 x 10^6 positions: 750000
     * bytes, capped at 262144: 87381 -> 87376 positions, 12 per row. */
    const dim img[] = {{64, 150528, 150528, 0, 0}, {3, 50176, 1, 0, 0}, {50176, 1, 3, 0, 0}};
    const dim wide[] = {{64, 3000000, 3000000, 0, 0}, {3, 1000000, 1, 0, 0}, {1000000, 1, 3, 0, 0}};
    dmli_plan e = make(DMLI_PLAN_VIEW, 1, img, 3), f = make(DMLI_PLAN_VIEW, 1, wide, 3);
    dmli_launch_plan(&e, &cpu, &l);
    cr_expect_eq(l.chunk, 12544);
    cr_expect_eq(l.global[1], 4);
    dmli_launch_plan(&f, &cpu, &l);
    cr_expect_eq(l.chunk, 87376);
    cr_expect_eq(l.global[1], 12);
}

Test(launch, gather_of_a_transpose_tiles_on_cpu)
{
    const dim layout[] = {{48, 2048, 0, 1, 1}, {64, 32, 1, 0, 0}, {32, 1, 4096, 0, 0}};
    dmli_plan p = gather(layout, 3, 60, 64);
    dmli_launch l;
    cr_expect_eq(dmli_indexed_tiles(&p), 2);
    dmli_launch_plan(&p, &cpu, &l);
    /* Register blocks: run 32 and output strides 2048, 32 are whole 4-float
     * vectors. Tiles of 16 of W's 64: 4 tiles 16 x 32 = 512 apart in the
     * output, 16 in the input, indices unmoved; the real W {64, 32, 1, 0, 0}
     * follows the rows, then the component {60, 64}. The run's input rows
     * are 4096 x 4 bytes apart, a page or more: chunks of one line per output
     * row, 64 / 4 = 16 units, 2 of them. 48 x 4 = 192 tiles; 192 x 2 /
     * (16 x 16) = 1 tile per item; 384 items in groups of 384 / (4 x 16) = 6. */
    cr_expect_eq(l.transpose, 2);
    cr_expect(!l.run_one && !l.shared_index && l.prefetch == 0);
    cr_expect(strstr(l.options, "-DTRANSPOSE=2 -DSIDE=16 -DCHUNK_MAX=16 -DVN=4 -DVEC_T=uint4 "
                                "-DVLOAD=vload4"),
              "%s", l.options);
    cr_expect(l.tile_prefetch == 2 && strstr(l.options, "-DTILE_PREFETCH=2"), "%s", l.options);
    cr_expect(strstr(l.options, "-DROW_INDEX=1"), "%s", l.options);
    const cl_long head[DMLI_SHAPE_HEADER] = {2, 0, 0, 32, 1, 4096, 0, 0, 16, 192, 1, 0};
    const cl_long tail[] = {4, 512, 16, 0, 0, 48, 2048, 0, 1, 1, 64, 32, 1, 0, 0, 60, 64};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, tail, N(tail), "dims, real W and component");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(tail)));
    expect_grid(&l, (size_t[]){1, 2, 192}, (size_t[]){1, 1, 6});
    /* The other policies tile alike: a tile resolves one tuple, bad or not. */
    dmli_plan zero = p;
    zero.policy = DMLI_OOR_ERROR;
    dmli_launch_plan(&zero, &cpu, &l);
    cr_expect_eq(l.transpose, 2);
    cr_expect(strstr(l.options, "-DPOLICY=2"), "%s", l.options);
    /* GPUs: work-group tiles (TRANSPOSE 3) of the 32-unit run x 1024 / 32 =
     * 32 of W's 64: 2 tiles a gathered line, 32 x 32 = 1024 apart in the
     * output, 32 in the input; 48 x 2 = 96 tiles, one a group of 256; the
     * real W and the component follow as on CPUs. */
    dmli_launch_plan(&p, &big_gpu, &l);
    cr_expect_eq(l.transpose, 3);
    cr_expect(strstr(l.options, "-DTRANSPOSE=3 -DSIDE=32 -DCHUNK_MAX=32 -DGROUP_ROWS=1 "), "%s",
              l.options);
    cr_expect(l.tile_prefetch == 0 && !strstr(l.options, "TILE_PREFETCH"), "%s", l.options);
    const cl_long ghead[DMLI_SHAPE_HEADER] = {2, 0, 0, 32, 1, 4096, 0, 0, 32, 96, 1, 0};
    const cl_long gtail[] = {2, 1024, 32, 0, 0, 48, 2048, 0, 1, 1, 64, 32, 1, 0, 0, 60, 64};
    expect_longs(l.shape, ghead, DMLI_SHAPE_HEADER, "gpu header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, gtail, N(gtail), "gpu dims, real W and component");
    expect_grid(&l, (size_t[]){96 * 256, 1, 1}, (size_t[]){256, 1, 1});
    /* A GPU whose work-groups hold fewer than 256 items: no tiles; the 3072
     * rows as they are, no extra dimension. */
    dmli_device_desc small = big_gpu;
    small.max_item_sizes[0] = 128;
    dmli_launch_plan(&p, &small, &l);
    cr_expect_eq(l.transpose, 0);
    cr_expect(!strstr(l.options, "TRANSPOSE"), "%s", l.options);
    cr_expect_eq(l.shape[DMLI_INDEXED_ROWS], 3072);
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + 12));
}

static int tiles_of(dmli_plan p)
{
    return dmli_indexed_tiles(&p);
}

Test(launch, gather_of_a_transpose_tile_rules)
{
    const dim layout[] = {{48, 2048, 0, 1, 1}, {64, 32, 1, 0, 0}, {32, 1, 4096, 0, 0}};
    /* Output rows of 33: not whole vectors, private tiles. */
    const dim padded[] = {{48, 2112, 0, 1, 1}, {64, 33, 1, 0, 0}, {32, 1, 4096, 0, 0}};
    cr_expect_eq(tiles_of(gather(padded, 3, 60, 64)), 1);
    /* The indices move along W (a tile would need 16 tuples): no tiles. */
    const dim moving[] = {{48, 2048, 0, 0, 0}, {64, 32, 1, 1, 1}, {32, 1, 4096, 0, 0}};
    cr_expect_eq(tiles_of(gather(moving, 3, 60, 64)), 0);
    /* ... or along the run (element indices): no tiles. */
    const dim run_moves[] = {{48, 2048, 0, 0, 0}, {64, 32, 1, 0, 0}, {32, 1, 4096, 1, 1}};
    cr_expect_eq(tiles_of(gather(run_moves, 3, 60, 64)), 0);
    /* W under a tile (8 < 16), or the run read with a small stride: no tiles. */
    const dim narrow[] = {{48, 256, 0, 1, 1}, {8, 32, 1, 0, 0}, {32, 1, 4096, 0, 0}};
    cr_expect_eq(tiles_of(gather(narrow, 3, 60, 64)), 0);
    const dim near[] = {{48, 2048, 0, 1, 1}, {64, 32, 1, 0, 0}, {32, 1, 3, 0, 0}};
    cr_expect_eq(tiles_of(gather(near, 3, 60, 64)), 0);
    /* An ERROR check with nothing to write walks the indices only. */
    dmli_plan check = gather(layout, 3, 60, 64);
    check.policy = DMLI_OOR_ERROR;
    check.check_only = true;
    cr_expect_eq(dmli_indexed_tiles(&check), 0);
    /* Views are never indexed tiles. */
    cr_expect_eq(tiles_of(make(DMLI_PLAN_VIEW, 4, layout, 3)), 0);
}

Test(launch, broadcast_repeats)
{
    const dim bcast[] = {{100, 3200, 0, 0, 0}, {50, 64, 128, 0, 0}, {64, 1, 1, 0, 0}};
    dmli_plan p = make(DMLI_PLAN_VIEW, 4, bcast, 3);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    /* Rows first ({50, 64, 128}), then the repeat {100, 3200, 0}. 50 items
     * are under 64 x 16 CUs = 1024 wanted: ceil(1024 / 50) = 21 groups of
     * ceil(100 / 21) = 5 repeats; 50 x 20 = 1000 items. */
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 64, 1, 1, 64, 50, FREE, 0, 1, 100, 5, 1};
    const cl_long dims[] = {50, 64, 128, 100, 3200, 0};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, dims, N(dims), "dims");
    cr_expect(l.repeat && strstr(l.options, "-DREPEAT=1"), "%s", l.options);
}

Test(launch, gather_rows)
{
    const dim rows[] = {{300, 128, 0, 1, 1}, {128, 1, 1, 0, 0}};
    dmli_plan p = gather(rows, 2, 1000, 128);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect_eq(l.source, DMLI_SOURCE_INDEXED);
    cr_expect_str_eq(l.kernel, "indexed_copy");
    /* Chunk: the run, 128. Rows per item: min(4096 / 128 = 32, 300 / 256 = 1). */
    const cl_long head[DMLI_SHAPE_HEADER] = {1, 0, 0, 128, 1, 1, 0, 0, 128, 300, 1, 0};
    const cl_long tail[] = {300, 128, 0, 1, 1, 1000, 128};
    expect_longs(l.shape, head, DMLI_SHAPE_HEADER, "header");
    expect_longs(l.shape + DMLI_SHAPE_HEADER, tail, N(tail), "dims and components");
    cr_expect_eq(l.shape_count, (size_t)(DMLI_SHAPE_HEADER + N(tail)));
    cr_expect(strstr(l.options, "-DIDX_T=int -DIDX_SIGNED=1 -DWRAP=1 -DPOLICY=0 -DROW_INDEX=1 "
                                "-DCHECK_ONLY=0 -DNCOMP=1"),
              "%s", l.options);
    /* Contiguous 512-byte rows at random, CLAMP: CPUs prefetch the row 16 KiB
     * of rows on, at most 16 rows. */
    cr_expect(strstr(l.options, "-DPREFETCH=16"), "%s", l.options);
    dmli_launch_plan(&p, &igpu, &l);
    cr_expect(strstr(l.options, "-DPREFETCH=0"), "GPUs do not prefetch: %s", l.options);
    /* 4 KiB rows: 4 on; 16 KiB rows: the next one. */
    const dim page_rows[] = {{300, 1024, 0, 1, 1}, {1024, 1, 1, 0, 0}};
    dmli_plan page = gather(page_rows, 2, 1000, 1024);
    dmli_launch_plan(&page, &cpu, &l);
    cr_expect(strstr(l.options, "-DPREFETCH=4"), "%s", l.options);
    const dim wide_rows[] = {{300, 4096, 0, 1, 1}, {4096, 1, 1, 0, 0}};
    dmli_plan wide = gather(wide_rows, 2, 1000, 4096);
    dmli_launch_plan(&wide, &cpu, &l);
    cr_expect(strstr(l.options, "-DPREFETCH=1") && !strstr(l.options, "-DPREFETCH=16"), "%s",
              l.options);
    /* Under the ZERO policy too (a tuple out of range prefetches nothing). */
    dmli_plan zero = p;
    zero.policy = DMLI_OOR_ZERO;
    dmli_launch_plan(&zero, &cpu, &l);
    cr_expect(strstr(l.options, "-DPOLICY=1") && strstr(l.options, "-DPREFETCH=16"), "%s",
              l.options);
    /* Rows over 16 KiB (8192 floats): no prefetch. */
    const dim long_rows[] = {{300, 8192, 0, 1, 1}, {8192, 1, 1, 0, 0}};
    dmli_plan big = gather(long_rows, 2, 1000, 8192);
    dmli_launch_plan(&big, &cpu, &l);
    cr_expect(strstr(l.options, "-DPREFETCH=0"), "%s", l.options);
}

Test(launch, gather_inner_shares_indices)
{
    const dim inner[] = {{64, 500, 1000, 0, 0}, {500, 1, 0, 1, 1}};
    dmli_plan p = gather(inner, 2, 1000, 1);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect(l.shared_index && strstr(l.options, "-DSHARED_INDEX=1 -DRUN_ONE=0 -DROWS_1D=1"), "%s",
              l.options);
    /* The gathered axis is contiguous, 4000 bytes: the next row's span is prefetched. */
    cr_expect(strstr(l.options, "-DPREFETCH=1"), "%s", l.options);
    /* Shared indices lift rows per item to 16, capped by 64 / 256 = 0 -> 1. */
    cr_expect_eq(l.rows_per_item, 1);
    /* GPUs resolve each pick (no private cache of offsets). */
    dmli_launch_plan(&p, &igpu, &l);
    cr_expect(!l.shared_index && strstr(l.options, "-DSERIAL=0") &&
                  strstr(l.options, "-DSHARED_INDEX=0"),
              "%s", l.options);
    cr_expect(strstr(l.options, "-DPREFETCH=0"), "GPUs do not prefetch: %s", l.options);
    /* A gathered axis of 20000 floats (80 KB) or strided by 2: no span prefetch. */
    dmli_plan wide = gather(inner, 2, 20000, 1), strided = gather(inner, 2, 1000, 2);
    dmli_launch_plan(&wide, &cpu, &l);
    cr_expect(l.shared_index && strstr(l.options, "-DPREFETCH=0"), "%s", l.options);
    dmli_launch_plan(&strided, &cpu, &l);
    cr_expect(l.shared_index && strstr(l.options, "-DPREFETCH=0"), "%s", l.options);
}

/*
 * Shared indices cached as ints where every offset (axis size - 1) x |axis
 * stride|, summed over the components, is at most INT32_MAX and units are 4
 * bytes or more; else longs.
 */
Test(launch, gather_inner_cache_type)
{
    const dim inner[] = {{64, 500, 1000, 0, 0}, {500, 1, 0, 1, 1}};
    dmli_launch l;
    dmli_plan p = gather(inner, 2, 1000, 1);
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect(strstr(l.options, "-DCACHE_T=int"), "%s", l.options);
    /* (2^15 - 1) x 2^16 = 2^31 - 2^16 fits; 2^15 x 2^16 = 2^31 does not. */
    dmli_plan fits = gather(inner, 2, 32768, 65536), over = gather(inner, 2, 32769, 65536);
    dmli_launch_plan(&fits, &cpu, &l);
    cr_expect(strstr(l.options, "-DCACHE_T=int"), "%s", l.options);
    dmli_launch_plan(&over, &cpu, &l);
    cr_expect(!strstr(l.options, "-DCACHE_T"), "%s", l.options);
    /* A negative axis stride counts by its size. */
    dmli_plan neg = gather(inner, 2, 32769, -65536);
    dmli_launch_plan(&neg, &cpu, &l);
    cr_expect(!strstr(l.options, "-DCACHE_T"), "%s", l.options);
    /* Two components: each fits, the sum does not. */
    dmli_plan two = gather(inner, 2, 32768, 65536);
    two.components = 2;
    two.axis_size[1] = 2;
    two.axis_stride[1] = 65536;
    dmli_launch_plan(&two, &cpu, &l);
    cr_expect(!strstr(l.options, "-DCACHE_T"), "%s", l.options);
    /* 2-byte units: longs. Rows that are not shared (ROW_INDEX): no cache. */
    dmli_plan narrow = p;
    narrow.elem_bytes = 2;
    dmli_launch_plan(&narrow, &cpu, &l);
    cr_expect(!strstr(l.options, "-DCACHE_T"), "%s", l.options);
    const dim rows[] = {{300, 64, 0, 1, 1}, {64, 1, 1, 0, 0}};
    dmli_plan row = gather(rows, 2, 1000, 64);
    dmli_launch_plan(&row, &cpu, &l);
    cr_expect(!l.shared_index && !strstr(l.options, "-DCACHE_T"), "%s", l.options);
}

/* One-unit rows gathered at random (small rows): CPUs prefetch 256 rows ahead. */
Test(launch, gather_small_rows_prefetch)
{
    const dim rows[] = {{100000, 1, 0, 1, 1}, {1, 1, 1, 0, 0}};
    dmli_plan p = gather(rows, 2, 50000, 1);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect(l.run_one && strstr(l.options, "-DRUN_ONE=1 -DROWS_1D=1"), "%s", l.options);
    cr_expect(strstr(l.options, "-DPREFETCH=256"), "%s", l.options);
    /* A CPU whose compiler has no prefetch (Oclgrind): none. */
    dmli_device_desc no_prefetch = cpu;
    no_prefetch.prefetch = false;
    dmli_launch_plan(&p, &no_prefetch, &l);
    cr_expect(l.run_one && strstr(l.options, "-DPREFETCH=0"), "%s", l.options);
    dmli_launch_plan(&p, &igpu, &l);
    cr_expect(!l.run_one && strstr(l.options, "-DPREFETCH=0"), "%s", l.options);
}

Test(launch, argument_slots)
{
    /* The kernels' signatures (cl/view.cl, cl/indexed.cl), in order. */
    const dim d1[] = {{8, 1, 1, 0, 0}};
    dmli_plan view = make(DMLI_PLAN_VIEW, 4, d1, 1);
    const dim g1[] = {{8, 1, 0, 1, 1}};
    dmli_plan indexed = gather(g1, 1, 8, 1);
    dmli_launch l;
    dmli_launch_plan(&view, &cpu, &l);
    const int view_slots[] = {l.args.out, l.args.out_base, l.args.in, l.args.in_base, l.args.shape};
    for (int i = 0; i < N(view_slots); ++i)
        cr_expect_eq(view_slots[i], i, "view_copy argument %d is at slot %d", i, view_slots[i]);
    cr_expect_eq(l.args.count, 5);
    cr_expect(l.args.idx < 0 && l.args.idx_base < 0 && l.args.status < 0);
    dmli_launch_plan(&indexed, &cpu, &l);
    const int indexed_slots[] = {l.args.out, l.args.out_base, l.args.in,     l.args.in_base,
                                 l.args.idx, l.args.idx_base, l.args.status, l.args.shape};
    for (int i = 0; i < N(indexed_slots); ++i)
        cr_expect_eq(indexed_slots[i], i, "indexed_copy argument %d is at slot %d", i,
                     indexed_slots[i]);
    cr_expect_eq(l.args.count, 8);
}
