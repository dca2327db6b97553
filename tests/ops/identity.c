/* SPDX-License-Identifier: MIT */
/*
 * identity.c: DML_ELEMENT_WISE_IDENTITY on the device against the C reference.
 *
 * Random cases cover ranks 1..8, every DirectML type, input layouts that are
 * packed, padded, transposed, broadcast (0 strides) or aliasing, output
 * layouts that are packed, padded or transposed, ScaleBias on the float
 * types (compared within 1 ulp), bindings at non-zero offsets inside guarded
 * buffers (sometimes one buffer), in-place execution, and three ways of
 * submitting. Fixed cases: the IDENTITY examples of directml-facts 4.10,
 * NCHW <-> NHWC, padding removal, and broadcasts large enough to take every
 * kernel path (row repeats, splats, several chunks). Every failure prints
 * the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_broadcast.h"

#define IDENTITY_DEFAULT_SEED 0x646D6C636C494445ull
#define IDENTITY_MAX_ELEMENTS 4000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE data_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};

typedef struct identity_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    uint32_t rank;
    DML_TENSOR_DATA_TYPE type;
    ops_layout layout[2];
    bool shared, in_place, scale_bias;
    ops_submit submit;
    ops_tensor input, output;
    DML_SCALE_BIAS sb;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} identity_case;

static ops_seed run_seed = OPS_SEED(IDENTITY_DEFAULT_SEED);

/* ScaleBias: FLOAT16 and FLOAT32 (DirectML has none on 64-bit types). */
static bool takes_scale_bias(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32;
}

static void identity_descs(identity_case *c)
{
    c->identity.InputTensor = ops_tensor_desc(&c->input);
    c->identity.OutputTensor = ops_tensor_desc(&c->output);
    c->identity.ScaleBias = c->scale_bias ? &c->sb : NULL;
    c->desc.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
    c->desc.Desc = &c->identity;
}

/* Output elements within 1 ulp of the reference count as equal: put the reference's bytes in. */
static void accept_ulp(identity_case *c)
{
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->output);
    ref_tensor g = ops_view(&c->mem, OPS_GOT, &c->output);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char a[16], b[16];
    if (!c->scale_bias || ref_element_count(e.rank, e.sizes) == 0)
        return;
    do {
        ref_get(&e, coord, a);
        ref_get(&g, coord, b);
        if (ref_float_close(c->type, a, b, 1))
            ref_put(&g, coord, a);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void identity_place(identity_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    if (c->in_place) {
        c->output.slot = c->input.slot;
        c->output.offset = c->input.offset;
        c->output.bind_size = c->input.bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->output, c->shared);
    }
    ops_memory_alloc(&c->mem, rng);
}

/* Fills the input, runs the reference into expect and poisons the output in init. */
static void identity_fill(identity_case *c, ref_rng *rng)
{
    uint64_t slots = c->input.buffer.TotalTensorSizeInBytes / ref_type_size(c->type);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots);
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
    cr_assert(ref_identity(&in, &out, c->scale_bias ? &c->sb : NULL),
              "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->output);
}

static const char *identity_describe(const identity_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512];
    snprintf(buf, len, "%s\n  layouts %s/%s; %s; ScaleBias %s {%g, %g}; submit %s\n  %s\n  %s",
             ops_replay(head, sizeof head, "IDENTITY", "identity", c->test, c->number, c->seed),
             ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
             c->in_place ? "in place"
             : c->shared ? "one buffer"
                         : "two buffers",
             c->scale_bias ? "on" : "off", c->sb.Scale, c->sb.Bias, ops_submit_name(c->submit),
             ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void identity_run(identity_case *c, bool host)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    ops_tensor *all[2] = {&c->input, &c->output};
    const char *stage = "";
    HRESULT hr = host ? ops_run_host(&c->desc, &c->mem, inputs, 1, outputs, 1, &stage)
                      : ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", identity_describe(c, what, sizeof what),
              stage, dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_ulp(c);
    uint64_t bad =
        ops_compare(&c->mem, c->in_place ? all + 1 : all, c->in_place ? 1 : 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", identity_describe(c, what, sizeof what),
              bad, diff);
}

typedef struct identity_spec {
    DML_TENSOR_DATA_TYPE type; /* 0: random */
    uint32_t rank;             /* 0: random */
    uint64_t max_elements;
    int scale_bias_percent, in_place_percent;
} identity_spec;

static void identity_generate(identity_case *c, ref_rng *rng, const identity_spec *s)
{
    uint32_t sizes[REF_MAX_DIMS];
    c->type = s->type ? s->type : data_types[ref_rng_below(rng, COUNT_OF(data_types))];
    c->rank = s->rank ? s->rank : 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, s->max_elements);
    c->in_place = ref_rng_chance(rng, (unsigned)s->in_place_percent);
    ops_random_tensor(&c->input, rng, "InputTensor", false, c->type, c->rank, sizes, &c->layout[0]);
    if (c->in_place) {
        /* One layout for both (a copy of the input's description, as an output). */
        c->layout[0] = c->layout[1] = OPS_LAYOUT_PADDED;
        uint32_t strides[REF_MAX_DIMS];
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->input, "InputTensor", false, c->type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->output, "OutputTensor", true, c->type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->output, rng, "OutputTensor", true, c->type, c->rank, sizes,
                          &c->layout[1]);
    }
    c->scale_bias =
        takes_scale_bias(c->type) && ref_rng_chance(rng, (unsigned)s->scale_bias_percent);
    c->sb.Scale = (float)ref_rng_range(rng, -8, 8) / 4.0f;
    c->sb.Bias = (float)ref_rng_range(rng, -100, 100) / 8.0f;
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    identity_descs(c);
}

static void identity_cases(const char *test, unsigned count, const identity_spec *spec, bool host)
{
    static identity_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        identity_generate(&c, &rng, spec);
        identity_place(&c, &rng);
        identity_fill(&c, &rng);
        identity_run(&c, host);
        ops_memory_release(&c.mem);
    }
}

/* ---- Random cases ------------------------------------------------------------------ */

#define IDENTITY_RANDOM_TEST(name, dtype)                               \
    Test(identity, random_##name)                                       \
    {                                                                   \
        identity_spec spec = {dtype, 0, IDENTITY_MAX_ELEMENTS, 40, 10}; \
        identity_cases("random_" #name, 16, &spec, false);              \
    }

IDENTITY_RANDOM_TEST(float16, DML_TENSOR_DATA_TYPE_FLOAT16)
IDENTITY_RANDOM_TEST(float32, DML_TENSOR_DATA_TYPE_FLOAT32)
IDENTITY_RANDOM_TEST(float64, DML_TENSOR_DATA_TYPE_FLOAT64)
IDENTITY_RANDOM_TEST(int8, DML_TENSOR_DATA_TYPE_INT8)
IDENTITY_RANDOM_TEST(int16, DML_TENSOR_DATA_TYPE_INT16)
IDENTITY_RANDOM_TEST(int32, DML_TENSOR_DATA_TYPE_INT32)
IDENTITY_RANDOM_TEST(int64, DML_TENSOR_DATA_TYPE_INT64)
IDENTITY_RANDOM_TEST(uint8, DML_TENSOR_DATA_TYPE_UINT8)
IDENTITY_RANDOM_TEST(uint16, DML_TENSOR_DATA_TYPE_UINT16)
IDENTITY_RANDOM_TEST(uint32, DML_TENSOR_DATA_TYPE_UINT32)
IDENTITY_RANDOM_TEST(uint64, DML_TENSOR_DATA_TYPE_UINT64)

OPS_DEVICE_SUITE(identity);

Test(identity, scale_bias)
{
    identity_spec spec = {0, 0, IDENTITY_MAX_ELEMENTS, 100, 20};
    /* FLOAT16 and FLOAT32: DirectML has no 64-bit ScaleBias (unsupported). */
    static const DML_TENSOR_DATA_TYPE floats[] = {DML_TENSOR_DATA_TYPE_FLOAT16,
                                                  DML_TENSOR_DATA_TYPE_FLOAT32};
    static const char *const names[] = {"scale_bias_f16", "scale_bias_f32"};
    for (int t = 0; t < 2; ++t) {
        spec.type = floats[t];
        identity_cases(names[t], 10, &spec, false);
    }
}

Test(identity, in_place)
{
    identity_spec spec = {0, 0, IDENTITY_MAX_ELEMENTS, 50, 100};
    identity_cases("in_place", 16, &spec, false);
}

Test(identity, host_execute)
{
    identity_spec spec = {0, 0, IDENTITY_MAX_ELEMENTS, 30, 0};
    identity_cases("host_execute", 8, &spec, true);
}

/* ---- Fixed layouts ------------------------------------------------------------------- */

/* Runs one fixed case: sizes, strides (NULL = packed), optional ScaleBias, random data. */
static void fixed_case(const char *test, unsigned number, DML_TENSOR_DATA_TYPE type, uint32_t rank,
                       const uint32_t *sizes, const uint32_t *in_strides,
                       const uint32_t *out_strides, const DML_SCALE_BIAS *sb)
{
    static identity_case c;
    ref_rng rng = ops_case_rng(&run_seed, test, number);
    memset(&c, 0, sizeof c);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.number = number;
    c.type = type;
    c.rank = rank;
    c.scale_bias = sb != NULL;
    if (sb)
        c.sb = *sb;
    ops_tensor_init(&c.input, "InputTensor", false, type, rank, sizes, in_strides, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, type, rank, sizes, out_strides, 0, 0);
    identity_descs(&c);
    identity_place(&c, &rng);
    identity_fill(&c, &rng);
    identity_run(&c, false);
    ops_memory_release(&c.mem);
}

Test(identity, layout_changes)
{
    /* NCHW {2,3,4,5} packed to NHWC storage, and back; padded rows removed and added. */
    const uint32_t nchw[4] = {2, 3, 4, 5}, nhwc[4] = {60, 1, 15, 3}, padded[4] = {96, 32, 8, 1};
    const uint32_t big[4] = {2, 16, 33, 17}, big_nhwc[4] = {16 * 33 * 17, 1, 17 * 16, 16};
    for (unsigned t = 0; t < COUNT_OF(data_types); ++t) {
        fixed_case("layout_changes", 4 * t, data_types[t], 4, nchw, NULL, nhwc, NULL);
        fixed_case("layout_changes", 4 * t + 1, data_types[t], 4, nchw, nhwc, NULL, NULL);
        fixed_case("layout_changes", 4 * t + 2, data_types[t], 4, nchw, padded, NULL, NULL);
        fixed_case("layout_changes", 4 * t + 3, data_types[t], 4, nchw, NULL, padded, NULL);
    }
    fixed_case("layout_changes", 100, DML_TENSOR_DATA_TYPE_FLOAT32, 4, big, NULL, big_nhwc, NULL);
    fixed_case("layout_changes", 101, DML_TENSOR_DATA_TYPE_UINT8, 4, big, big_nhwc, NULL, NULL);
}

/*
 * Broadcasts that take each path of cl/view.cl: outer repeats with a
 * contiguous or strided run, splats short and long (several chunks, 16-byte
 * stores with unaligned heads), both together, with and without ScaleBias.
 */
Test(identity, broadcast_paths)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
        DML_TENSOR_DATA_TYPE_INT64};
    const DML_SCALE_BIAS sb = {0.5f, -3.0f};
    const uint32_t rows[2] = {300, 70}, rows_in[2] = {0, 1};            /* repeat, contiguous run */
    const uint32_t cols[2] = {70, 300}, cols_in[2] = {1, 0};            /* splat runs of 300 */
    const uint32_t long_run[2] = {3, 20000}, long_in[2] = {1, 0};       /* splat over chunks */
    const uint32_t both[3] = {40, 7, 33}, both_in[3] = {0, 1, 0};       /* repeat and splat */
    const uint32_t strided[3] = {50, 9, 11}, strided_in[3] = {0, 1, 9}; /* transposed run */
    const uint32_t many[4] = {6, 5, 4, 9}, many_in[4] = {0, 9, 0, 1};   /* two repeat dims */
    const uint32_t odd_out[2] = {71, 1};                                /* padded output rows */
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(types); ++t) {
        const DML_SCALE_BIAS *s = takes_scale_bias(types[t]) ? &sb : NULL;
        fixed_case("broadcast_paths", n++, types[t], 2, rows, rows_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 2, cols, cols_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 2, long_run, long_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 3, both, both_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 3, strided, strided_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 4, many, many_in, NULL, NULL);
        fixed_case("broadcast_paths", n++, types[t], 2, rows, rows_in, odd_out, NULL);
        if (s) {
            fixed_case("broadcast_paths", n++, types[t], 2, rows, rows_in, NULL, s);
            fixed_case("broadcast_paths", n++, types[t], 2, cols, cols_in, NULL, s);
            fixed_case("broadcast_paths", n++, types[t], 3, both, both_in, NULL, s);
        }
    }
}

/*
 * Short runs (cl/view.cl INTERLEAVE on CPUs): runs of 1 to 9 elements
 * contiguous in the output, one input stream each, at every element size.
 * NCHW -> NHWC with C channels over H*W that is under a vector, whole
 * vectors, and vectors plus a tail; NHWC rows padded off the 16-byte grid;
 * depth-to-space (DCR) as a 6-D view with block C; streams 3 elements apart
 * (overlapping). Runs of 1 and 9 are the neighbours the rule leaves out.
 */
static void short_run_cases(const char *test, unsigned *n, DML_TENSOR_DATA_TYPE type, uint32_t c)
{
    const uint32_t a[4] = {2, c, 3, 7}, b[4] = {1, c, 4, 16}, small[4] = {3, c, 1, 5},
                   pad[4] = {2, c, 5, 9};
    const uint32_t *nchw[3] = {a, b, small};
    for (int k = 0; k < 3; ++k) {
        const uint32_t *sz = nchw[k];
        uint32_t os[4] = {sz[2] * sz[3] * c, 1, sz[3] * c, c};
        fixed_case(test, (*n)++, type, 4, sz, NULL, os, NULL);
    }
    uint32_t pad_os[4] = {pad[2] * pad[3] * c + 3, 1, pad[3] * c, c};
    fixed_case(test, (*n)++, type, 4, pad, NULL, pad_os, NULL);
    /* Depth-to-space DCR, block c: output (n, cc, h, i, w, j) reads input
     * channel (i * c + j) * cc + cc_index at (h, w). */
    const uint32_t cc = 2, h = 3, w = 7, hw = h * w;
    const uint32_t d2s[6] = {2, cc, h, c, w, c},
                   d2s_in[6] = {cc * c * c * hw, hw, w, c * cc * hw, 1, cc * hw};
    fixed_case(test, (*n)++, type, 6, d2s, d2s_in, NULL, NULL);
    const uint32_t near[2] = {37, c}, near_in[2] = {1, 3};
    fixed_case(test, (*n)++, type, 2, near, near_in, NULL, NULL);
}

Test(identity, short_runs)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
        DML_TENSOR_DATA_TYPE_INT64};
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(types); ++t)
        for (uint32_t c = 1; c <= 9; ++c)
            short_run_cases("short_runs", &n, types[t], c);
}

/*
 * Short runs over outputs of 32 MiB and more (non-temporal stores on CPUs):
 * whole 16-byte rows (u8, C = 3), rows with a tail (f32, H*W = 999999) and
 * depth-to-space rows of 100 f16 (block 2).
 */
Test(identity, short_runs_streaming)
{
    const uint32_t u8[4] = {8, 3, 1024, 1400}, u8_os[4] = {1024 * 1400 * 3, 1, 1400 * 3, 3};
    const uint32_t f32[4] = {4, 3, 999, 1001}, f32_os[4] = {999 * 1001 * 3, 1, 1001 * 3, 3};
    const uint32_t cc = 32, h = 128, w = 100, hw = h * w;
    const uint32_t d2s[6] = {12, cc, h, 2, w, 2},
                   d2s_in[6] = {cc * 4 * hw, hw, w, 2 * cc * hw, 1, cc * hw};
    fixed_case("short_runs_streaming", 0, DML_TENSOR_DATA_TYPE_UINT8, 4, u8, NULL, u8_os, NULL);
    fixed_case("short_runs_streaming", 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, f32, NULL, f32_os, NULL);
    fixed_case("short_runs_streaming", 2, DML_TENSOR_DATA_TYPE_FLOAT16, 6, d2s, d2s_in, NULL, NULL);
}

/*
 * Short runs in the input (cl/view.cl DEINTERLEAVE on CPUs): C streams of
 * 1 to 9 elements interleaved in the input, each written contiguously, at
 * every element size. NHWC -> NCHW over H*W under a vector, whole vectors,
 * and vectors plus a tail; NCHW outputs padded off the 16-byte grid (and an
 * input with padded rows); space-to-depth (DCR) as a 6-D view with block C,
 * the streams' dimension away from the run; a 2-D split of C streams, and
 * streams 3 elements apart (overlapping reads). Streams of 1 and 9 are the
 * neighbours the rule leaves out.
 */
static void split_run_cases(const char *test, unsigned *n, DML_TENSOR_DATA_TYPE type, uint32_t c)
{
    const uint32_t a[4] = {2, c, 3, 7}, b[4] = {1, c, 4, 16}, small[4] = {3, c, 1, 5},
                   pad[4] = {2, c, 5, 9};
    const uint32_t *nchw[3] = {a, b, small};
    for (int k = 0; k < 3; ++k) {
        const uint32_t *sz = nchw[k];
        uint32_t is[4] = {sz[2] * sz[3] * c, 1, sz[3] * c, c};
        fixed_case(test, (*n)++, type, 4, sz, is, NULL, NULL);
    }
    const uint32_t phw = pad[2] * pad[3] + 5;
    uint32_t pad_is[4] = {pad[2] * pad[3] * c, 1, pad[3] * c, c},
             pad_os[4] = {phw * c + 3, phw, pad[3], 1};
    fixed_case(test, (*n)++, type, 4, pad, pad_is, pad_os, NULL);
    uint32_t row_is[4] = {pad[2] * (pad[3] * c + 2), 1, pad[3] * c + 2, c};
    fixed_case(test, (*n)++, type, 4, pad, row_is, NULL, NULL);
    /* Space-to-depth DCR, block c: output (n, i, j, cc, h, w) reads input
     * channel cc at (h * c + i, w * c + j). */
    const uint32_t cc = 2, h = 3, w = 21, row = w * c, plane = h * c * row;
    const uint32_t s2d[6] = {2, c, c, cc, h, w},
                   s2d_in[6] = {cc * plane, row, 1, plane, c * row, c};
    fixed_case(test, (*n)++, type, 6, s2d, s2d_in, NULL, NULL);
    const uint32_t split[2] = {c, 37}, split_in[2] = {1, c};
    fixed_case(test, (*n)++, type, 2, split, split_in, NULL, NULL);
    const uint32_t near[2] = {c, 37}, near_in[2] = {1, 3};
    fixed_case(test, (*n)++, type, 2, near, near_in, NULL, NULL);
    /* One row of two chunks on a CPU (16 KiB of output each, whole vectors:
     * launch.c), the second 5 positions, under a vector. */
    const uint32_t e = (uint32_t)ref_type_size(type), vn = 16 / e,
                   chunk = 16384 / (e * c) / vn * vn;
    const uint32_t two[2] = {c, chunk + 5}, two_in[2] = {1, c};
    fixed_case(test, (*n)++, type, 2, two, two_in, NULL, NULL);
}

Test(identity, split_runs)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
        DML_TENSOR_DATA_TYPE_INT64};
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(types); ++t)
        for (uint32_t c = 1; c <= 9; ++c)
            split_run_cases("split_runs", &n, types[t], c);
}

/*
 * Short input runs over outputs of 32 MiB and more (non-temporal stores on
 * CPUs): NHWC -> NCHW with whole 16-byte rows (u8, C = 3), rows with a tail
 * (f32, H*W = 999999) and space-to-depth rows of 100 f16 (block 2).
 */
Test(identity, split_runs_streaming)
{
    const uint32_t u8[4] = {8, 3, 1024, 1400}, u8_is[4] = {1024 * 1400 * 3, 1, 1400 * 3, 3};
    const uint32_t f32[4] = {4, 3, 999, 1001}, f32_is[4] = {999 * 1001 * 3, 1, 1001 * 3, 3};
    const uint32_t cc = 32, h = 128, w = 100, row = 2 * w, plane = 2 * h * row;
    const uint32_t s2d[6] = {12, 2, 2, cc, h, w},
                   s2d_in[6] = {cc * plane, row, 1, plane, 2 * row, 2};
    fixed_case("split_runs_streaming", 0, DML_TENSOR_DATA_TYPE_UINT8, 4, u8, u8_is, NULL, NULL);
    fixed_case("split_runs_streaming", 1, DML_TENSOR_DATA_TYPE_FLOAT32, 4, f32, f32_is, NULL, NULL);
    fixed_case("split_runs_streaming", 2, DML_TENSOR_DATA_TYPE_FLOAT16, 6, s2d, s2d_in, NULL, NULL);
}

/* ---- directml-facts 4.10 --------------------------------------------------------------- */

/* Runs IDENTITY on host arrays through the binding API; out receives the packed output. */
static void run_documented(const char *name, const uint32_t *sizes, uint32_t rank,
                           const uint32_t *in_strides, const float *input, const DML_SCALE_BIAS *sb,
                           const float *want)
{
    static identity_case c;
    ref_rng rng = ops_case_rng(&run_seed, "documented", (unsigned)ops_name_hash(name));
    memset(&c, 0, sizeof c);
    c.test = name;
    c.seed = ops_base_seed(&run_seed);
    c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c.rank = rank;
    c.scale_bias = sb != NULL;
    if (sb)
        c.sb = *sb;
    ops_tensor_init(&c.input, "InputTensor", false, c.type, rank, sizes, in_strides, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, rank, sizes, NULL, 0, 0);
    identity_descs(&c);
    identity_place(&c, &rng);
    memcpy(ops_ptr(&c.mem, OPS_INIT, &c.input), input, c.input.buffer.TotalTensorSizeInBytes);
    ops_memory_snapshot(&c.mem);
    uint64_t n = ref_element_count(rank, sizes);
    memcpy(ops_ptr(&c.mem, OPS_EXPECT, &c.output), want, n * sizeof(float));
    ops_poison_output(&c.mem, &c.output);
    identity_run(&c, false);
    ops_memory_release(&c.mem);
}

Test(identity, documented_examples)
{
    /* HelloDirectML: FLOAT32 {1,2,3,4}, 24 x 1.618 in, the same out. */
    float hello[24];
    for (int i = 0; i < 24; ++i)
        hello[i] = 1.618f;
    const uint32_t hello_sizes[4] = {1, 2, 3, 4};
    run_documented("HelloDirectML", hello_sizes, 4, NULL, hello, NULL, hello);

    /* DxDispatch dml_element_wise_identity.json: [1,2,3] * 2 + 10. */
    const uint32_t three[1] = {3};
    const float in3[4] = {1, 2, 3, 0}, out3[3] = {12, 14, 16};
    const DML_SCALE_BIAS sb = {2.0f, 10.0f};
    run_documented("DxDispatch-ScaleBias", three, 1, NULL, in3, &sb, out3);

    /* Expand style: [0,1,2,3] as Sizes {2,4,3} Strides {0,1,0}. */
    const uint32_t sizes[3] = {2, 4, 3}, strides[3] = {0, 1, 0};
    const float data[4] = {0, 1, 2, 3};
    float want[24];
    for (int i = 0; i < 24; ++i)
        want[i] = (float)((i % 12) / 3);
    run_documented("Expand-style", sizes, 3, strides, data, NULL, want);
}

/* ---- In place with another layout is refused, not raced ------------------------------------ */

Test(identity, in_place_layout_change_is_refused)
{
    static identity_case c;
    const uint32_t sizes[2] = {4, 4}, transposed[2] = {1, 4};
    ref_rng rng = ops_case_rng(&run_seed, "in_place_refused", 0);
    memset(&c, 0, sizeof c);
    c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c.in_place = true;
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 2, sizes, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 2, sizes, transposed, 0, 0);
    identity_descs(&c);
    identity_place(&c, &rng);
    ops_tensor *inputs[1] = {&c.input}, *outputs[1] = {&c.output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c.desc, &c.mem, inputs, 1, outputs, 1, OPS_SUBMIT_DEFAULT, &stage);
    cr_assert_eq(hr, E_INVALIDARG, "%s: %s", dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_assert(strstr(dmlcl_last_error(), "share one range") &&
                  strstr(dmlcl_last_error(), "Strides differ"),
              "%s", dmlcl_last_error());
    ops_memory_release(&c.mem);
}

/* ---- The harness must be able to fail ------------------------------------------------------- */

Test(identity, ulp_tolerance_is_one_ulp)
{
    float a = 1.0f, b = nextafterf(1.0f, 2.0f), c = nextafterf(b, 2.0f);
    cr_assert(ref_float_close(DML_TENSOR_DATA_TYPE_FLOAT32, &a, &b, 1));
    cr_assert_not(ref_float_close(DML_TENSOR_DATA_TYPE_FLOAT32, &a, &c, 1));
    float pz = 0.0f, nz = -0.0f, tiny = -1e-45f;
    cr_assert(ref_float_close(DML_TENSOR_DATA_TYPE_FLOAT32, &pz, &nz, 0));
    cr_assert(ref_float_close(DML_TENSOR_DATA_TYPE_FLOAT32, &pz, &tiny, 1));
    uint16_t h1 = ref_half_from_double(1.0), h2 = ref_half_from_double(1.0 + 1.0 / 1024);
    cr_assert_eq(h1, 0x3C00);
    cr_assert_eq(h2, 0x3C01);
    cr_assert_eq(ref_half_from_double(65504.0), 0x7BFF);
    cr_assert_eq(ref_half_from_double(65520.0), 0x7C00);
    cr_assert_eq(ref_half_from_double(1.0 + 1.0 / 2048), 0x3C00); /* tie to even */
    cr_assert_eq(ref_half_from_double(ldexp(1.0, -24)), 0x0001);
    cr_assert(ref_half_to_double(0x3555) > 0.333 && ref_half_to_double(0x3555) < 0.334);
}
