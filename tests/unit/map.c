/* SPDX-License-Identifier: MIT */
/*
 * The map family on the host: dmli_map_normalize (src/internal.h: a size 0 makes the map
 * empty; size-1 dimensions are dropped; an outer dimension merges with the next inner one
 * when the output's and every input's strides satisfy stride[outer] == stride[inner] *
 * size[inner]; elements are never widened) and dmli_launch_map (cl/abi.h DMLI_MAP_*: the
 * table's header and outer dimensions innermost first, the options naming each tensor's
 * storage type, FAST only when every run stride is 1). Expected values worked out by hand
 * from those rules.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "support.h"

static const dmli_device_desc cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
static const dmli_device_desc gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};
static const dmli_device_desc small_gpu = {
    DMLCL_DEVICE_CLASS_GPU, 4, 32, {32, 32, 32}, 4096, 1, 1, 64, true, 1024, 0, 1};

/* A two-input map over dims {size, out stride, in 0 stride, in 1 stride}. */
static dmli_map two_inputs(const int64_t (*dims)[4], int rank)
{
    dmli_map m;
    dmli_map_init(&m, DMLI_MAP_ADD, DML_TENSOR_DATA_TYPE_FLOAT32, 2);
    m.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    m.in[1].type = DML_TENSOR_DATA_TYPE_FLOAT16;
    for (int d = 0; d < rank; ++d)
        dmli_map_push(&m, dims[d][0], dims[d][1], &dims[d][2]);
    return m;
}

Test(map, normalise_drops_and_merges_packed_dimensions)
{
    /* {2,1,3,4} packed everywhere: one dimension of 24. */
    const int64_t dims[][4] = {{2, 12, 12, 12}, {1, 12, 12, 12}, {3, 4, 4, 4}, {4, 1, 1, 1}};
    dmli_map m = two_inputs(dims, 4);
    dmli_map_normalize(&m);
    cr_assert_eq(m.rank, 1);
    cr_expect_eq(m.size[0], 24);
    cr_expect(m.out.stride[0] == 1 && m.in[0].stride[0] == 1 && m.in[1].stride[0] == 1);
    cr_expect(!m.empty);
}

Test(map, normalise_keeps_what_one_tensor_breaks)
{
    /* Input 1 broadcasts the rows (stride 0): {3, 4} stays two dimensions; a transposed input
     * 0 as well. */
    const int64_t bcast[][4] = {{3, 4, 4, 0}, {4, 1, 1, 1}};
    dmli_map m = two_inputs(bcast, 2);
    dmli_map_normalize(&m);
    cr_assert_eq(m.rank, 2);
    cr_expect(m.size[0] == 3 && m.size[1] == 4);
    cr_expect(m.in[1].stride[0] == 0 && m.in[1].stride[1] == 1);
    const int64_t transposed[][4] = {{3, 4, 1, 4}, {4, 1, 3, 1}};
    m = two_inputs(transposed, 2);
    dmli_map_normalize(&m);
    cr_assert_eq(m.rank, 2);
    cr_expect(m.in[0].stride[0] == 1 && m.in[0].stride[1] == 3);
    /* A broadcast of both dimensions merges (0 == 0 * 4). */
    const int64_t scalar[][4] = {{3, 4, 0, 4}, {4, 1, 0, 1}};
    m = two_inputs(scalar, 2);
    dmli_map_normalize(&m);
    cr_assert_eq(m.rank, 1);
    cr_expect(m.size[0] == 12 && m.in[0].stride[0] == 0);
}

Test(map, normalise_empty_and_never_widens)
{
    const int64_t empty[][4] = {{3, 0, 0, 0}, {0, 1, 1, 1}};
    dmli_map m = two_inputs(empty, 2);
    dmli_map_normalize(&m);
    cr_expect(m.empty);
    /* 64 packed FLOAT32 elements stay 64 elements of 4 bytes (a copy plan would move them as
     * 16 units of 16 bytes). */
    const int64_t run[][4] = {{64, 1, 1, 1}};
    m = two_inputs(run, 1);
    dmli_map_normalize(&m);
    cr_expect(m.rank == 1 && m.size[0] == 64);
}

Test(map, launch_table_and_options)
{
    /* {5, 7, 9}: rows 35, the run 9 with input 0 reversed (stride -1) and input 1 broadcast
     * along the middle dimension. */
    const int64_t dims[][4] = {{5, 63, 70, 9}, {7, 9, 10, 0}, {9, 1, -1, 1}};
    dmli_map m = two_inputs(dims, 3);
    m.in[0].offset = 8;
    dmli_map_param_real(&m, DMLI_MAP_PARAM_SCALE, 2.0);
    dmli_map_param_real(&m, DMLI_MAP_PARAM_BIAS, -1.5);
    dmli_map_normalize(&m);
    cr_assert_eq(m.rank, 3);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect_eq(l.table[DMLI_MAP_OUTER_RANK], 2);
    cr_expect_eq(l.table[DMLI_MAP_RUN], 9);
    cr_expect_eq(l.table[DMLI_MAP_ROWS], 35);
    cr_expect_eq(l.table[DMLI_MAP_RUN_OS], 1);
    cr_expect_eq(l.table[DMLI_MAP_RUN_IS(0)], -1);
    cr_expect_eq(l.table[DMLI_MAP_RUN_IS(1)], 1);
    float scale, bias;
    uint32_t bits = (uint32_t)l.table[DMLI_MAP_PARAM(DMLI_MAP_PARAM_SCALE)];
    memcpy(&scale, &bits, 4);
    bits = (uint32_t)l.table[DMLI_MAP_PARAM(DMLI_MAP_PARAM_BIAS)];
    memcpy(&bias, &bits, 4);
    cr_expect(scale == 2.0f && bias == -1.5f);
    /* Outer dimensions innermost first: {7: out 9, in 10, 0}, then {5: 63, 70, 9}. */
    const cl_long *d0 = l.table + DMLI_MAP_HEADER, *d1 = d0 + DMLI_MAP_DIM;
    cr_expect(d0[0] == 7 && d0[1] == 9 && d0[2] == 10 && d0[3] == 0);
    cr_expect(d1[0] == 5 && d1[1] == 63 && d1[2] == 70 && d1[3] == 9);
    cr_expect_eq(l.table_count, (size_t)(DMLI_MAP_HEADER + 2 * DMLI_MAP_DIM));
    cr_expect(strstr(l.options, "-DNIN=2") && strstr(l.options, "-DOUT_T=float") &&
                  strstr(l.options, "-DIN0_T=float -DIN0_HALF=0") &&
                  strstr(l.options, "-DIN1_T=ushort -DIN1_HALF=1") &&
                  strstr(l.options, "-DFAST=0") && strstr(l.options, "-DCOMPUTE_T=float"),
              "%s", l.options);
    /* 35 rows under 8 x 16 items: each row in chunks (whole runs here: 9 < 64). */
    cr_expect_eq(l.chunk, 9);
    cr_expect_eq(l.rows_per_item, 1);
    cr_expect(l.global[1] == 1 && l.global[2] == 35);
}

Test(map, launch_fast_double_and_geometry)
{
    dmli_map m;
    dmli_map_init(&m, DMLI_MAP_IDENTITY, DML_TENSOR_DATA_TYPE_FLOAT64, 1);
    m.scale_bias = true;
    m.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT64;
    const int64_t one = 1;
    dmli_map_push(&m, 100000, 1, &one);
    dmli_map_normalize(&m);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DFAST=1") && strstr(l.options, "-DCOMPUTE_T=double") &&
                  strstr(l.options, "-DCOMPUTE_DOUBLE=1"),
              "%s", l.options);
    /* One row of 100000 on 16 units: 128 chunks wanted, 782 elements each, rounded up to
     * 832 (whole 64s): 121 chunks. */
    cr_expect_eq(l.chunk, 832);
    cr_expect_eq(l.global[1], 121);
    cr_expect_eq(l.global[2], 1);
    cr_expect(l.local[0] == 1 && l.local[1] == 1 && l.local[2] == 1);
    /* GPUs: one grid dimension of groups of 256 along the run, each over a chunk of 256 x K:
     * 132 units want 1056 groups, which K 2 (196 groups) cannot give: K 1, ceil(100000 /
     * 256) = 391 groups; 32 where groups are smaller, and 4 units want 32 groups: K 8. */
    dmli_launch_map(&m, &gpu, &l);
    cr_expect(strstr(l.options, "-DGRID1=1") && !strstr(l.options, "GVEC"), "%s", l.options);
    cr_expect(l.local[0] == 256 && l.chunk == 256 && l.rows_per_item == 391 &&
                  l.global[0] == 391 * 256 && l.global[1] == 1 && l.global[2] == 1,
              "local %zu chunk %lld per row %llu global %zu", l.local[0], (long long)l.chunk,
              (unsigned long long)l.rows_per_item, l.global[0]);
    cr_expect_eq(l.table[DMLI_MAP_CHUNK], 256);
    cr_expect_eq(l.table[DMLI_MAP_ROWS_PER_ITEM], 391);
    /* With vectors of 16 bytes (GVEC: 2 doubles), K no less than the vector: K 2, ceil(100000
     * / 512) = 196 groups. */
    char *vec = unit_tuning_set("map_gpu_vector_bytes=16");
    dmli_launch_map(&m, &gpu, &l);
    cr_expect(strstr(l.options, "-DGVEC=2") && l.chunk == 512 && l.rows_per_item == 196,
              "%s; chunk %lld per row %llu", l.options, (long long)l.chunk,
              (unsigned long long)l.rows_per_item);
    unit_tuning_restore(vec);
    dmli_launch_map(&m, &small_gpu, &l);
    cr_expect(l.local[0] == 32 && l.chunk == 256 && l.global[0] == 391 * 32);
    /* 1024 rows of 16384 (a channel bias): K 8, 8 groups a row, 8192 in all. */
    dmli_map rows16;
    dmli_map_init(&rows16, DMLI_MAP_IDENTITY, DML_TENSOR_DATA_TYPE_FLOAT32, 1);
    rows16.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    const int64_t sr = 32768, sc = 1;
    dmli_map_push(&rows16, 1024, sr, &sr);
    dmli_map_push(&rows16, 16384, sc, &sc);
    dmli_map_normalize(&rows16);
    dmli_launch_map(&rows16, &gpu, &l);
    cr_expect(l.chunk == 2048 && l.rows_per_item == 8 && l.global[0] == 8192 * 256,
              "chunk %lld per row %llu global %zu", (long long)l.chunk,
              (unsigned long long)l.rows_per_item, l.global[0]);
    /* CPUs keep their options: no GRID1. */
    dmli_launch_map(&rows16, &cpu, &l);
    cr_expect(!strstr(l.options, "GRID1"), "%s", l.options);
    /* Many short rows on a CPU: whole runs, several rows per item. */
    dmli_map rows;
    dmli_map_init(&rows, DMLI_MAP_IDENTITY, DML_TENSOR_DATA_TYPE_FLOAT32, 1);
    rows.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    const int64_t st0 = 8, st1 = 1;
    dmli_map_push(&rows, 1000, 4, &st0);
    dmli_map_push(&rows, 3, 1, &st1);
    dmli_map_normalize(&rows);
    dmli_launch_map(&rows, &cpu, &l);
    cr_expect_eq(l.chunk, 3);
    cr_expect_eq(l.rows_per_item, 8); /* ceil(1000 / 128) */
    cr_expect_eq(l.global[2], 125);
}

/* A CPU's float maps are vectorised at twice its native float width (16 lanes: VW 32); double
 * and integer computes keep the compiler's choice, GPUs their grid, and a device that reports
 * no width gets no hint. */
Test(map, cpu_float_loops_twice_the_native_width)
{
    dmli_map m;
    dmli_map_init(&m, DMLI_MAP_IDENTITY, DML_TENSOR_DATA_TYPE_FLOAT16, 1);
    m.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT16; /* computed in float */
    const int64_t one = 1;
    dmli_map_push(&m, 4096, 1, &one);
    dmli_map_normalize(&m);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=float") && strstr(l.options, "-DVW=32"), "%s",
              l.options);
    dmli_launch_map(&m, &gpu, &l);
    cr_expect(!strstr(l.options, "VW"), "%s", l.options);
    dmli_device_desc unknown = cpu;
    unknown.native_vector_width_float = 0;
    dmli_launch_map(&m, &unknown, &l);
    cr_expect(!strstr(l.options, "VW"), "%s", l.options);
    const DML_TENSOR_DATA_TYPE others[] = {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT32,
                                           DML_TENSOR_DATA_TYPE_UINT8};
    for (size_t i = 0; i < sizeof others / sizeof *others; ++i) {
        dmli_map_init(&m, DMLI_MAP_IDENTITY, others[i], 1);
        m.in[0].type = others[i];
        dmli_map_push(&m, 4096, 1, &one);
        dmli_map_normalize(&m);
        dmli_launch_map(&m, &cpu, &l);
        cr_expect(!strstr(l.options, "VW"), "type %d: %s", (int)others[i], l.options);
    }
}

Test(map, known_run_strides_are_constants)
{
    /* {64, 4096}: a bias broadcast along the run (stride 0) beside a contiguous input. */
    const int64_t bias[][4] = {{64, 4096, 4096, 1}, {4096, 1, 1, 0}};
    dmli_map m = two_inputs(bias, 2);
    dmli_map_normalize(&m);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DFAST=0"), "%s", l.options);
    cr_expect(strstr(l.options, "-DOUT_RS=1"), "%s", l.options);
    cr_expect(strstr(l.options, "-DIN0_RS=1"), "%s", l.options);
    cr_expect(strstr(l.options, "-DIN1_RS=0"), "%s", l.options);
    /* A run read with stride 3 stays a runtime stride; contiguous everywhere is FAST alone. */
    const int64_t strided[][4] = {{64, 4096, 4096, 12288}, {4096, 1, 1, 3}};
    m = two_inputs(strided, 2);
    dmli_map_normalize(&m);
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DIN1_RS") == NULL, "%s", l.options);
    const int64_t packed[][4] = {{64, 4096, 4096, 4096}, {4096, 1, 1, 1}};
    m = two_inputs(packed, 2);
    dmli_map_normalize(&m);
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DFAST=1") && !strstr(l.options, "_RS="), "%s", l.options);
}

Test(map, cpu_streams_memory_bound_outputs_past_the_caches)
{
    /* ADD into FLOAT32 [4096, 1024] (16 MiB, past a quarter of the 32 MiB cache): non-temporal
     * stores on a CPU (cl/map.cl STREAM); not on a GPU, not for [1024, 1024] (4 MiB), not with
     * an output run of stride 2, not for GELU or ERF (compute-bound, even as a chain's stage). */
    const int64_t big[][4] = {{4096, 1024, 1024, 1024}, {1024, 1, 1, 1}};
    dmli_map m = two_inputs(big, 2);
    dmli_map_normalize(&m);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DSTREAM=1"), "%s", l.options);
    dmli_launch_map(&m, &gpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "%s", l.options);
    cr_expect(dmli_map_memory_bound(&m));

    const int64_t small[][4] = {{1024, 1024, 1024, 1024}, {1024, 1, 1, 1}};
    dmli_map s = two_inputs(small, 2);
    dmli_map_normalize(&s);
    dmli_launch_map(&s, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "%s", l.options);

    const int64_t strided[][4] = {{4096, 2048, 1024, 1024}, {1024, 2, 1, 1}};
    dmli_map st = two_inputs(strided, 2);
    dmli_map_normalize(&st);
    dmli_launch_map(&st, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "%s", l.options);

    dmli_map g = two_inputs(big, 2);
    g.act = DMLI_ACT_GELU;
    dmli_map_normalize(&g);
    cr_expect(!dmli_map_memory_bound(&g));
    dmli_launch_map(&g, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "%s", l.options);
    g.act = DMLI_ACT_RELU;
    cr_expect(dmli_map_memory_bound(&g));
    g.n_stages = 2;
    g.stage[0].n_args = 2;
    g.stage[0].arg[0] = 0;
    g.stage[0].arg[1] = 1;
    memset(&g.stage[1], 0, sizeof g.stage[1]);
    g.stage[1].op = DMLI_MAP_ERF;
    g.stage[1].n_args = 1;
    g.stage[1].arg[0] = DMLI_MAP_ARG_STAGE(0);
    cr_expect(!dmli_map_memory_bound(&g), "an ERF stage");
    g.stage[1].op = DMLI_MAP_MULTIPLY;
    g.stage[1].n_args = 2;
    g.stage[1].arg[1] = 1;
    cr_expect(dmli_map_memory_bound(&g), "ADD, RELU then MULTIPLY");
}

Test(map, integer_min_max_clip_compute_in_their_own_type)
{
    /* MIN, MAX, CLIP and THRESHOLD of one integer type up to 32 bits compute in that type (a
     * vector of 64 INT8 lanes); INT64 stays long, ADD of INT8 ulong (it wraps in any width),
     * a CLIP with a fused activation long (activations compare with 0 in long). */
    const int64_t one = 1;
    struct {
        dmli_map_op op;
        DML_TENSOR_DATA_TYPE type;
        dmli_act act;
        const char *want;
    } cases[] = {
        {DMLI_MAP_CLIP, DML_TENSOR_DATA_TYPE_INT8, DMLI_ACT_NONE, "-DCOMPUTE_T=char "},
        {DMLI_MAP_MAX, DML_TENSOR_DATA_TYPE_UINT16, DMLI_ACT_NONE, "-DCOMPUTE_T=ushort "},
        {DMLI_MAP_MIN, DML_TENSOR_DATA_TYPE_UINT32, DMLI_ACT_NONE, "-DCOMPUTE_T=uint "},
        {DMLI_MAP_THRESHOLD, DML_TENSOR_DATA_TYPE_INT32, DMLI_ACT_NONE, "-DCOMPUTE_T=int "},
        {DMLI_MAP_MAX, DML_TENSOR_DATA_TYPE_INT64, DMLI_ACT_NONE, "-DCOMPUTE_T=long "},
        {DMLI_MAP_ADD, DML_TENSOR_DATA_TYPE_INT8, DMLI_ACT_NONE, "-DCOMPUTE_T=ulong "},
        {DMLI_MAP_CLIP, DML_TENSOR_DATA_TYPE_INT8, DMLI_ACT_RELU, "-DCOMPUTE_T=long "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        uint32_t n = cases[i].op == DMLI_MAP_ADD || cases[i].op == DMLI_MAP_MAX ||
                             cases[i].op == DMLI_MAP_MIN
                         ? 2
                         : 1;
        dmli_map m;
        dmli_map_init(&m, cases[i].op, cases[i].type, n);
        int64_t ones[2] = {1, 1};
        for (uint32_t k = 0; k < n; ++k)
            m.in[k].type = cases[i].type;
        m.act = cases[i].act;
        dmli_map_push(&m, 4096, one, ones);
        dmli_map_normalize(&m);
        dmli_map_launch l;
        dmli_launch_map(&m, &cpu, &l);
        cr_expect(strstr(l.options, cases[i].want), "case %zu: %s", i, l.options);
        cr_expect(strstr(l.options, "-DINT_COMPUTE=1"), "case %zu: %s", i, l.options);
    }
    /* MAX of INT16 and INT8 operands (not one type): long. */
    dmli_map m;
    dmli_map_init(&m, DMLI_MAP_MAX, DML_TENSOR_DATA_TYPE_INT16, 2);
    m.in[0].type = DML_TENSOR_DATA_TYPE_INT16;
    m.in[1].type = DML_TENSOR_DATA_TYPE_INT8;
    int64_t ones[2] = {1, 1};
    dmli_map_push(&m, 4096, 1, ones);
    dmli_map_normalize(&m);
    dmli_map_launch l;
    dmli_launch_map(&m, &cpu, &l);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=long "), "%s", l.options);
}

/* GPUs, map_gpu_vector_bytes=16 (off by default: src/tuning.c): a map whose runs are all
 * contiguous loads and stores 16 bytes of its widest tensor's type a lane (cl/map.cl GVEC: 16
 * uint8, 8 FLOAT16, 4 FLOAT32, 2 FLOAT64), its items' K at least that, so that a chunk is a whole
 * number of vectors; none with a broadcast or strided run, on CPUs, or at 4 bytes. */
Test(map, gpu_vectors_of_sixteen_bytes)
{
    char *on = unit_tuning_set("map_gpu_vector_bytes=16");
    static const struct {
        DML_TENSOR_DATA_TYPE in, out;
        int gvec;
    } want[] = {
        {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT8, 16},
        {DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_FLOAT16, 8},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, 4},
        {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT16, 8},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT32, 4},
        {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32, 2},
        {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT64, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
        dmli_map m;
        dmli_map_init(&m, DMLI_MAP_IDENTITY, want[i].out, 1);
        m.in[0].type = want[i].in;
        const int64_t rs = 4096, one = 1;
        dmli_map_push(&m, 64, rs, &rs);
        dmli_map_push(&m, 4096, one, &one);
        dmli_map_normalize(&m);
        dmli_map_launch l;
        dmli_launch_map(&m, &gpu, &l);
        char g[16];
        snprintf(g, sizeof g, "-DGVEC=%d", want[i].gvec);
        cr_expect(strstr(l.options, g) != NULL, "%d -> %d: %s", (int)want[i].in, (int)want[i].out,
                  l.options);
        cr_expect(l.chunk % want[i].gvec == 0 && l.chunk / (int64_t)l.local[0] >= want[i].gvec,
                  "%d -> %d: chunk %lld, group %zu", (int)want[i].in, (int)want[i].out,
                  (long long)l.chunk, l.local[0]);
        dmli_launch_map(&m, &cpu, &l);
        cr_expect(strstr(l.options, "GVEC") == NULL, "CPU: %s", l.options);
    }
    /* A bias broadcast along the run (stride 0): no vectors. */
    dmli_map b;
    dmli_map_init(&b, DMLI_MAP_ADD, DML_TENSOR_DATA_TYPE_FLOAT32, 2);
    b.in[0].type = b.in[1].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    const int64_t out_s[2] = {4096, 1}, a_s[2] = {4096, 1}, bias_s[2] = {1, 0};
    int64_t in_s0[2] = {a_s[0], bias_s[0]}, in_s1[2] = {a_s[1], bias_s[1]};
    dmli_map_push(&b, 64, out_s[0], in_s0);
    dmli_map_push(&b, 4096, out_s[1], in_s1);
    dmli_map_normalize(&b);
    dmli_map_launch l;
    dmli_launch_map(&b, &gpu, &l);
    cr_expect(strstr(l.options, "-DFAST=0") && !strstr(l.options, "GVEC"), "%s", l.options);
    /* Turned off by the tuning. */
    dmli_map f;
    dmli_map_init(&f, DMLI_MAP_IDENTITY, DML_TENSOR_DATA_TYPE_FLOAT32, 1);
    f.in[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    const int64_t one = 1;
    dmli_map_push(&f, 100000, one, &one);
    dmli_map_normalize(&f);
    unit_tuning_restore(on);
    char *four = unit_tuning_set("map_gpu_vector_bytes=4");
    dmli_launch_map(&f, &gpu, &l);
    cr_expect(!strstr(l.options, "GVEC"), "4 bytes: one float a lane: %s", l.options);
    unit_tuning_restore(four);
    dmli_launch_map(&f, &gpu, &l);
    cr_expect(!strstr(l.options, "GVEC"), "the default: %s", l.options);
}
