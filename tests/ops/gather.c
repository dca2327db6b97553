/* SPDX-License-Identifier: MIT */
/*
 * gather.c: DML_GATHER on the device against the C reference.
 *
 * Random cases cover ranks 1..8, every axis, IndexDimensions 0..Axis+1,
 * leading-1 padding, every data type (by width) and index type, negative and
 * invalid indices (dmlcl clamps them into the axis), padded, transposed,
 * broadcast and aliasing strides, oversized TotalTensorSizeInBytes, bindings
 * at non-zero offsets inside guarded buffers (sometimes all in one buffer),
 * and three ways of submitting. Every failure prints the seed and the case;
 * DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> runs one case and
 * DMLCL_TEST_VERBOSE=1 prints every case before it runs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"

#define GATHER_DEFAULT_SEED 0x646D6C636C474154ull
#define GATHER_CASES_PER_TYPE 40
#define GATHER_MAX_ELEMENTS 3000

static const DML_TENSOR_DATA_TYPE data_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE index_types[] = {
    DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_UINT64,
};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Cases ------------------------------------------------------------------ */

typedef struct gather_case {
    const char *test;
    uint64_t seed; /* the run's base seed */
    unsigned number;
    uint32_t rank, axis, index_dims;
    DML_TENSOR_DATA_TYPE type, index_type;
    unsigned negative_percent, invalid_percent;
    ops_layout layout[3];
    bool shared;
    ops_submit submit;
    bool host; /* dmlcl_compiled_operator_execute instead of submit */
    ops_tensor input, indices, output;
    DML_GATHER_OPERATOR_DESC gather;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} gather_case;

/* What a test fixes; 0 / -1 fields are drawn at random. */
typedef struct gather_spec {
    DML_TENSOR_DATA_TYPE type, index_type;
    uint32_t rank;
    uint64_t max_elements;
    int invalid_percent; /* -1: random */
    uint32_t max_dim;    /* 0: small, by rank */
    bool rows;           /* contiguous rows in input and output, often 16-byte multiples */
} gather_spec;

static ops_seed run_seed = OPS_SEED(GATHER_DEFAULT_SEED);

static uint32_t random_dim(ref_rng *rng, uint32_t rank, uint32_t max_dim)
{
    uint32_t cap = max_dim ? max_dim : rank <= 1 ? 64 : rank == 2 ? 24 : rank <= 4 ? 9 : 4;
    if (ref_rng_chance(rng, 20))
        return 1;
    return 1 + (uint32_t)ref_rng_below(rng, cap);
}

static uint32_t random_alignment(ref_rng *rng, DML_TENSOR_DATA_TYPE type)
{
    static const uint32_t choices[] = {16, 32, 64, 256};
    if (!ref_rng_chance(rng, 25))
        return 0;
    if (ref_rng_chance(rng, 30))
        return (uint32_t)ref_type_size(type);
    return choices[ref_rng_below(rng, COUNT_OF(choices))];
}

/*
 * Sizes that satisfy GATHER's rules: the input's dimensions in front of the
 * ones the output keeps are padding 1s (original rank + IndexDimensions - 1
 * <= DimensionCount) and the indices' leading dimensions are 1.
 */
static void random_shape(gather_case *c, ref_rng *rng, const gather_spec *spec, uint32_t *in,
                         uint32_t *idx, uint32_t *out)
{
    const uint32_t d = c->rank, a = c->axis, k = c->index_dims;
    const uint32_t max_orig = k ? d - k + 1 : d;
    uint32_t orig = ref_rng_chance(rng, 50) ? max_orig : 1 + (uint32_t)ref_rng_below(rng, max_orig);

    for (uint32_t i = 0; i < d; ++i) {
        in[i] = i < d - orig ? 1 : random_dim(rng, d, spec->max_dim);
        idx[i] = i < d - k ? 1 : random_dim(rng, d, spec->max_dim);
    }
    if (a >= d - orig && ref_rng_chance(rng, 15))
        in[a] = 1 + (uint32_t)ref_rng_below(rng, 300);
    /* Rows of 16-byte multiples let the planner widen the unit it moves. */
    if (spec->rows && ref_rng_chance(rng, 75))
        in[d - 1] = (uint32_t)(16 / ref_type_size(c->type)) * (1 + (uint32_t)ref_rng_below(rng, 4));
    for (;;) {
        bool ok = ref_gather_output_sizes(d, in, idx, a, k, out);
        uint32_t *largest = &idx[d - 1];
        cr_assert(ok, "test bug: shape generator broke GATHER's rules");
        if (ref_element_count(d, out) <= spec->max_elements &&
            ref_element_count(d, in) <= spec->max_elements)
            return;
        for (uint32_t i = 0; i < d; ++i) {
            if (in[i] > *largest && !(spec->rows && i == d - 1))
                largest = &in[i];
            if (idx[i] > *largest)
                largest = &idx[i];
        }
        *largest = (*largest + 1) / 2;
    }
}

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          bool rows, ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    bool explicit_strides;
    uint64_t extra = ref_rng_chance(rng, 40) ? 4 * ref_rng_below(rng, 16) : 0;
    *layout = rows ? (ops_layout)ref_rng_below(rng, OPS_LAYOUT_PADDED + 1)
                   : ops_layout_random(rng, output);
    explicit_strides = ops_layout_strides(rng, *layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, explicit_strides ? strides : NULL, extra,
                    random_alignment(rng, type));
}

static void gather_descs(gather_case *c)
{
    c->gather.InputTensor = ops_tensor_desc(&c->input);
    c->gather.IndicesTensor = ops_tensor_desc(&c->indices);
    c->gather.OutputTensor = ops_tensor_desc(&c->output);
    c->gather.Axis = c->axis;
    c->gather.IndexDimensions = c->index_dims;
    c->desc.Type = DML_OPERATOR_GATHER;
    c->desc.Desc = &c->gather;
}

static void gather_generate(gather_case *c, ref_rng *rng, const gather_spec *spec)
{
    uint32_t in[REF_MAX_DIMS], idx[REF_MAX_DIMS], out[REF_MAX_DIMS];

    c->type = spec->type ? spec->type : data_types[ref_rng_below(rng, COUNT_OF(data_types))];
    c->index_type = spec->index_type ? spec->index_type
                                     : index_types[ref_rng_below(rng, COUNT_OF(index_types))];
    c->rank = spec->rank ? spec->rank : 1 + (uint32_t)ref_rng_below(rng, 8);
    if (spec->rows && c->rank < 2)
        c->rank = 2;
    /* rows: the input dimensions after Axis form the rows the kernels copy. */
    c->axis = (uint32_t)ref_rng_below(rng, spec->rows ? c->rank - 1 : c->rank);
    /* IndexDimensions <= Axis + 1: deeper index dimensions have no output position. */
    c->index_dims = ref_rng_chance(rng, 20) ? 0 : 1 + (uint32_t)ref_rng_below(rng, c->axis + 1);
    c->negative_percent = ref_type_is_signed_int(c->index_type) ? 25 : 0;
    c->invalid_percent = spec->invalid_percent >= 0 ? (unsigned)spec->invalid_percent
                         : ref_rng_chance(rng, 60)  ? 0
                                                    : (unsigned)ref_rng_range(rng, 1, 30);
    random_shape(c, rng, spec, in, idx, out);
    random_tensor(&c->input, rng, "InputTensor", false, c->type, c->rank, in, spec->rows,
                  &c->layout[0]);
    random_tensor(&c->indices, rng, "IndicesTensor", false, c->index_type, c->rank, idx, false,
                  &c->layout[1]);
    random_tensor(&c->output, rng, "OutputTensor", true, c->type, c->rank, out, spec->rows,
                  &c->layout[2]);
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    gather_descs(c);
}

/* Elements that fit in a binding's TotalTensorSizeInBytes. */
static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

/* Fills the inputs, runs the reference into expect and poisons the output in init. */
static void gather_fill(gather_case *c, ref_rng *rng)
{
    ref_tensor input, indices, output;
    uint32_t axis_size = c->input.sizes[c->axis];

    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots(&c->input));
    ops_fill_indices(rng, c->index_type, ops_ptr(&c->mem, OPS_INIT, &c->indices),
                     slots(&c->indices), axis_size, c->negative_percent, c->invalid_percent);
    ops_memory_snapshot(&c->mem);
    input = ops_view(&c->mem, OPS_EXPECT, &c->input);
    indices = ops_view(&c->mem, OPS_EXPECT, &c->indices);
    output = ops_view(&c->mem, OPS_EXPECT, &c->output);
    cr_assert(ref_gather(&input, &indices, &output, c->axis, c->index_dims),
              "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->output);
}

static void gather_place(gather_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    ops_memory_place(&c->mem, rng, &c->indices, c->shared);
    ops_memory_place(&c->mem, rng, &c->output, c->shared);
    ops_memory_alloc(&c->mem, rng);
}

static void gather_prepare(gather_case *c, const char *test, unsigned number,
                           const gather_spec *spec)
{
    ref_rng rng = ops_case_rng(&run_seed, test, number);
    memset(c, 0, sizeof *c);
    c->test = test;
    c->seed = ops_base_seed(&run_seed);
    c->number = number;
    gather_generate(c, &rng, spec);
    gather_place(c, &rng);
    gather_fill(c, &rng);
}

static const char *gather_describe(const gather_case *c, char *buf, size_t len)
{
    char head[512], in[512], idx[512], out[512];
    snprintf(buf, len,
             "%s\n"
             "  DimensionCount %u, Axis %u, IndexDimensions %u; negative %u%%, invalid %u%%; "
             "layouts %s/%s/%s; %s buffers; submit %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, "GATHER", "gather", c->test, c->number, c->seed),
             c->rank, c->axis, c->index_dims, c->negative_percent, c->invalid_percent,
             ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
             ops_layout_name(c->layout[2]), c->shared ? "shared" : "separate",
             c->host ? "host-execute" : ops_submit_name(c->submit),
             ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->indices, idx, sizeof idx),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void gather_expect_ok(const gather_case *c, HRESULT hr, const char *stage)
{
    static char what[4096];
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", gather_describe(c, what, sizeof what),
              stage, dmlcl_hresult_name(hr), dmlcl_last_error());
}

static void gather_check(gather_case *c, HRESULT hr, const char *stage)
{
    static char what[4096], diff[4096];
    ops_tensor *all[3] = {&c->input, &c->indices, &c->output};
    uint64_t bad;
    gather_expect_ok(c, hr, stage);
    bad = ops_compare(&c->mem, all, 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", gather_describe(c, what, sizeof what),
              bad, diff);
}

static void gather_run(gather_case *c)
{
    ops_tensor *inputs[2] = {&c->input, &c->indices}, *outputs[1] = {&c->output};
    const char *stage = "";
    HRESULT hr = c->host
                     ? ops_run_host(&c->desc, &c->mem, inputs, 2, outputs, 1, &stage)
                     : ops_run_device(&c->desc, &c->mem, inputs, 2, outputs, 1, c->submit, &stage);
    gather_check(c, hr, stage);
}

/* Cases first .. first + count - 1 of a test (numbers seed the cases). */
static void gather_cases(const char *test, unsigned first, unsigned count, const gather_spec *spec,
                         bool host)
{
    static gather_case c;
    long only = ops_only_case();
    bool verbose = ops_verbose();
    for (unsigned n = first; n < first + ops_case_count(count); ++n) {
        gather_spec s = *spec;
        if (only >= 0 && (unsigned long)only != n)
            continue;
        if (!s.index_type)
            s.index_type = index_types[n % COUNT_OF(index_types)];
        gather_prepare(&c, test, n, &s);
        c.host = host;
        if (verbose) {
            static char what[4096];
            fprintf(stderr, "%s\n", gather_describe(&c, what, sizeof what));
        }
        gather_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* ---- The reference against DirectML's documentation (host only) ---------------- */

typedef struct doc_example {
    const char *name;
    uint32_t rank, axis, index_dims;
    uint32_t in_sizes[3], idx_sizes[3], out_sizes[3];
    float input[9];
    uint32_t indices[5];
    float output[12];
} doc_example;

/*
 * The examples of the DML_GATHER page. Example 3 prints IndexDimensions 2,
 * which its own shapes contradict (see ref_gather_output_sizes_rule); its
 * printed output is what IndexDimensions 1 gives. The last one is the
 * variant from microsoft/DirectML#685 that every device agrees on.
 */
static const doc_example doc_examples[] = {
    {"example 1", 1, 0, 1, {4}, {5}, {5}, {11, 12, 13, 14}, {3, 1, 3, 0, 2}, {14, 12, 14, 11, 13}},
    {"example 2",
     2,
     0,
     1,
     {3, 2},
     {1, 4},
     {4, 2},
     {1, 2, 3, 4, 5, 6},
     {0, 1, 1, 2},
     {1, 2, 3, 4, 3, 4, 5, 6}},
    {"example 3 (IndexDimensions 1)",
     2,
     1,
     1,
     {3, 2},
     {1, 2},
     {3, 2},
     {1, 2, 3, 4, 5, 6},
     {1, 0},
     {2, 1, 4, 3, 6, 5}},
    {"example 4",
     3,
     2,
     2,
     {1, 3, 3},
     {1, 1, 2},
     {3, 1, 2},
     {1, 2, 3, 4, 5, 6, 7, 8, 9},
     {0, 2},
     {1, 3, 4, 6, 7, 9}},
    {"example 5",
     3,
     1,
     2,
     {1, 3, 2},
     {1, 2, 2},
     {2, 2, 2},
     {1, 2, 3, 4, 5, 6},
     {0, 1, 1, 2},
     {1, 2, 3, 4, 3, 4, 5, 6}},
    {"DirectML#685",
     2,
     1,
     1,
     {3, 3},
     {1, 2},
     {3, 2},
     {1, 2, 3, 4, 5, 6, 7, 8, 9},
     {0, 2},
     {1, 3, 4, 6, 7, 9}},
};

Test(gather_ref, documented_examples)
{
    for (size_t e = 0; e < COUNT_OF(doc_examples); ++e) {
        const doc_example *x = &doc_examples[e];
        uint32_t sizes[3];
        float out[12];
        ref_tensor input, indices, output;
        cr_assert(ref_gather_output_sizes(x->rank, x->in_sizes, x->idx_sizes, x->axis,
                                          x->index_dims, sizes),
                  "%s: shape rule", x->name);
        cr_assert(memcmp(sizes, x->out_sizes, x->rank * sizeof *sizes) == 0, "%s: output sizes",
                  x->name);
        memset(out, 0xFF, sizeof out);
        input = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, x->rank, x->in_sizes, NULL,
                                (void *)x->input);
        indices = ref_tensor_view(DML_TENSOR_DATA_TYPE_UINT32, x->rank, x->idx_sizes, NULL,
                                  (void *)x->indices);
        output = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, x->rank, x->out_sizes, NULL, out);
        cr_assert(ref_gather(&input, &indices, &output, x->axis, x->index_dims), "%s", x->name);
        cr_assert(memcmp(out, x->output, ref_element_count(x->rank, x->out_sizes) * 4) == 0,
                  "%s: output data", x->name);
    }
}

Test(gather_ref, output_sizes_rule)
{
    uint32_t out[8];
    /* IndexDimensions 0 (a scalar index): the lead shifts right by one. */
    const uint32_t in4[4] = {1, 5, 6, 7}, scalar4[4] = {1, 1, 1, 1};
    cr_assert(ref_gather_output_sizes(4, in4, scalar4, 2, 0, out));
    cr_assert(out[0] == 1 && out[1] == 1 && out[2] == 5 && out[3] == 7);
    /* Index dims replace the axis; the lead moves left by IndexDimensions - 1. */
    const uint32_t in5[5] = {1, 1, 3, 4, 5}, idx5[5] = {1, 1, 1, 2, 6};
    cr_assert(ref_gather_output_sizes(5, in5, idx5, 3, 2, out));
    cr_assert(out[0] == 1 && out[1] == 3 && out[2] == 2 && out[3] == 6 && out[4] == 5);
    /* Example 3 as printed (IndexDimensions 2) would drop input size 3. */
    const uint32_t in2[2] = {3, 2}, idx2[2] = {1, 2};
    cr_assert(!ref_gather_output_sizes(2, in2, idx2, 1, 2, out));
    /* A leading index dimension that is not 1 has no place in the output. */
    const uint32_t idx2b[2] = {2, 2};
    cr_assert(!ref_gather_output_sizes(2, in2, idx2b, 1, 1, out));
    /* Axis and IndexDimensions out of range. */
    cr_assert(!ref_gather_output_sizes(2, in2, idx2, 2, 1, out));
    cr_assert(!ref_gather_output_sizes(2, in2, idx2, 1, 3, out));
}

Test(gather_ref, index_rule)
{
    const int32_t i32[] = {0, 3, 4, -1, -4, -5, INT32_MIN, INT32_MAX};
    const uint32_t i32_want[] = {0, 3, 3, 3, 0, 0, 0, 3};
    const uint32_t u32[] = {0, 3, 4, 0x80000000u, UINT32_MAX};
    const uint32_t u32_want[] = {0, 3, 3, 3, 3};
    const int64_t i64[] = {2,         -2,       ((int64_t)1 << 32) + 1, -((int64_t)1 << 32) + 1,
                           INT64_MIN, INT64_MAX};
    const uint32_t i64_want[] = {2, 2, 3, 0, 0, 3};
    const uint64_t u64[] = {1, ((uint64_t)1 << 32) + 1, UINT64_MAX, (uint64_t)1 << 63};
    const uint32_t u64_want[] = {1, 3, 3, 3};
    for (size_t i = 0; i < COUNT_OF(i32); ++i)
        cr_assert_eq(ref_gather_index(DML_TENSOR_DATA_TYPE_INT32, &i32[i], 4), i32_want[i],
                     "INT32 %" PRId32, i32[i]);
    for (size_t i = 0; i < COUNT_OF(u32); ++i)
        cr_assert_eq(ref_gather_index(DML_TENSOR_DATA_TYPE_UINT32, &u32[i], 4), u32_want[i],
                     "UINT32 %" PRIu32, u32[i]);
    for (size_t i = 0; i < COUNT_OF(i64); ++i)
        cr_assert_eq(ref_gather_index(DML_TENSOR_DATA_TYPE_INT64, &i64[i], 4), i64_want[i],
                     "INT64 %" PRId64, i64[i]);
    for (size_t i = 0; i < COUNT_OF(u64); ++i)
        cr_assert_eq(ref_gather_index(DML_TENSOR_DATA_TYPE_UINT64, &u64[i], 4), u64_want[i],
                     "UINT64 %" PRIu64, u64[i]);
}

Test(gather_ref, strided_views)
{
    /* The strides page's example: DHW 2x2x3, strides {6,3,1}: (1,0,1) is at 7. */
    const uint32_t sizes[3] = {2, 2, 3}, strides[3] = {6, 3, 1}, coord[3] = {1, 0, 1};
    ref_tensor t = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, strides, NULL);
    cr_assert_eq(ref_offset(&t, coord), 7);
    /* DMLCalcBufferTensorSize values from the facts sheet. */
    const uint32_t s23[2] = {2, 3}, pad[2] = {5, 1}, bcast[2] = {0, 1}, s3[1] = {3};
    cr_assert_eq(ref_buffer_bytes(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s23, pad), 32);
    cr_assert_eq(ref_buffer_bytes(DML_TENSOR_DATA_TYPE_UINT8, 2, s23, pad), 8);
    cr_assert_eq(ref_buffer_bytes(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s23, bcast), 12);
    cr_assert_eq(ref_buffer_bytes(DML_TENSOR_DATA_TYPE_FLOAT16, 1, s3, NULL), 8);
    cr_assert_eq(ref_buffer_bytes(DML_TENSOR_DATA_TYPE_INT64, 2, s23, NULL), 48);
}

/* ---- The device: documented examples ------------------------------------------ */

OPS_DEVICE_SUITE(gather);

Test(gather, documented_examples)
{
    static gather_case c;
    for (size_t e = 0; e < COUNT_OF(doc_examples); ++e) {
        const doc_example *x = &doc_examples[e];
        ref_rng rng = ops_case_rng(&run_seed, "documented_examples", (unsigned)e);
        ref_tensor output;
        uint32_t coord[3] = {0};
        size_t n = 0;

        memset(&c, 0, sizeof c);
        c.test = "documented_examples";
        c.seed = ops_base_seed(&run_seed);
        c.number = (unsigned)e;
        c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
        c.index_type = DML_TENSOR_DATA_TYPE_UINT32;
        c.rank = x->rank;
        c.axis = x->axis;
        c.index_dims = x->index_dims;
        ops_tensor_init(&c.input, "InputTensor", false, c.type, c.rank, x->in_sizes, NULL, 0, 0);
        ops_tensor_init(&c.indices, "IndicesTensor", false, c.index_type, c.rank, x->idx_sizes,
                        NULL, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, c.type, c.rank, x->out_sizes, NULL, 0, 0);
        gather_descs(&c);
        gather_place(&c, &rng);
        memcpy(ops_ptr(&c.mem, OPS_INIT, &c.input), x->input,
               ref_element_count(c.rank, x->in_sizes) * 4);
        memcpy(ops_ptr(&c.mem, OPS_INIT, &c.indices), x->indices,
               ref_element_count(c.rank, x->idx_sizes) * 4);
        ops_memory_snapshot(&c.mem);
        memcpy(ops_ptr(&c.mem, OPS_EXPECT, &c.output), x->output,
               ref_element_count(c.rank, x->out_sizes) * 4);
        ops_poison_output(&c.mem, &c.output);
        gather_run(&c);
        output = ops_view(&c.mem, OPS_GOT, &c.output);
        do {
            float v;
            ref_get(&output, coord, &v);
            cr_assert(v == x->output[n], "%s: element %zu is %g, the page says %g", x->name, n, v,
                      x->output[n]);
            ++n;
        } while (ref_next_coord(c.rank, x->out_sizes, coord));
        ops_memory_release(&c.mem);
    }
}

/* ---- The device: random cases ------------------------------------------------ */

#define GATHER_RANDOM_TEST(name, dtype)                                                 \
    Test(gather, random_##name)                                                         \
    {                                                                                   \
        gather_spec spec = {                                                            \
            .type = dtype, .max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = -1}; \
        gather_cases("random_" #name, 0, GATHER_CASES_PER_TYPE, &spec, false);          \
    }

GATHER_RANDOM_TEST(float16, DML_TENSOR_DATA_TYPE_FLOAT16)
GATHER_RANDOM_TEST(float32, DML_TENSOR_DATA_TYPE_FLOAT32)
GATHER_RANDOM_TEST(float64, DML_TENSOR_DATA_TYPE_FLOAT64)
GATHER_RANDOM_TEST(int8, DML_TENSOR_DATA_TYPE_INT8)
GATHER_RANDOM_TEST(int16, DML_TENSOR_DATA_TYPE_INT16)
GATHER_RANDOM_TEST(int32, DML_TENSOR_DATA_TYPE_INT32)
GATHER_RANDOM_TEST(int64, DML_TENSOR_DATA_TYPE_INT64)
GATHER_RANDOM_TEST(uint8, DML_TENSOR_DATA_TYPE_UINT8)
GATHER_RANDOM_TEST(uint16, DML_TENSOR_DATA_TYPE_UINT16)
GATHER_RANDOM_TEST(uint32, DML_TENSOR_DATA_TYPE_UINT32)
GATHER_RANDOM_TEST(uint64, DML_TENSOR_DATA_TYPE_UINT64)

Test(gather, invalid_indices)
{
    /* Mostly invalid indices: every read must land on the clamped row. */
    gather_spec spec = {.max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = 70};
    gather_cases("invalid_indices", 0, 32, &spec, false);
}

Test(gather, every_rank)
{
    for (uint32_t rank = 1; rank <= 8; ++rank) {
        gather_spec spec = {
            .rank = rank, .max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = -1};
        gather_cases("every_rank", 4 * (rank - 1), 4, &spec, false);
    }
}

/* Contiguous rows: the fast kernel and wide units, with padded row pitches. */
Test(gather, contiguous_rows)
{
    gather_spec spec = {.max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = -1, .rows = true};
    gather_cases("contiguous_rows", 0, 64, &spec, false);
}

/* Long runs that the kernels split into chunks and wide grids. */
Test(gather, large)
{
    for (uint32_t rank = 1; rank <= 3; ++rank) {
        gather_spec spec = {.rank = rank,
                            .max_elements = 150000,
                            .invalid_percent = -1,
                            .max_dim = rank == 1 ? 100000 : 2000};
        gather_cases("large", 3 * (rank - 1), 3, &spec, false);
    }
}

/*
 * One GATHER of a [in[0], in[1]] input along `axis` by `picks` indices of
 * `index_type` (25% of them negative, wrapped), the output `out` packed or
 * with `out_strides`, against the C oracle with guard bytes.
 */
static void gather_2d(const char *test, unsigned number, uint32_t axis, DML_TENSOR_DATA_TYPE type,
                      DML_TENSOR_DATA_TYPE index_type, const uint32_t *in, uint32_t picks,
                      const uint32_t *out, const uint32_t *out_strides)
{
    static gather_case c;
    ref_rng rng = ops_case_rng(&run_seed, test, number);
    const uint32_t idx[] = {1, picks};
    memset(&c, 0, sizeof c);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.number = number;
    c.rank = 2;
    c.axis = axis;
    c.index_dims = 1;
    c.type = type;
    c.index_type = index_type;
    c.negative_percent = 25;
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, c.index_type, 2, idx, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 2, out, out_strides, 0, 0);
    gather_descs(&c);
    gather_place(&c, &rng);
    gather_fill(&c, &rng);
    gather_run(&c);
    ops_memory_release(&c.mem);
}

/*
 * Gathers along the inner axis whose outputs are 32 MiB and more, where CPUs
 * store non-temporally (src/launch.c streams()): the indices are resolved
 * once per block and applied to every row, the output stored in whole lines
 * (cl/common.cl RUN_STORE), with rows of odd length so that they start
 * anywhere in a line: each row moves its part of a block of indices from
 * its own first line boundary (cl/indexed.cl SLIDE), while the next row's
 * span is prefetched line by line (SPREAD). 1-, 2-, 4- and 8-byte elements
 * (the 4-byte rows over two chunks, several blocks of 2048 indices each;
 * the last 4-byte case in one block), the 2-byte output rows padded by 3
 * elements, wrapped negative indices.
 */
Test(gather, streaming_inner_axis)
{
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT32,
                                          DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64,
                                          DML_TENSOR_DATA_TYPE_FLOAT32};
    const uint32_t rows[] = {4099, 2053, 4099, 1031, 4201}, cols[] = {8301, 4101, 4111, 4099, 3001},
                   picks[] = {8209, 4099, 4099, 4097, 2003};
    for (unsigned n = 0; n < COUNT_OF(types); ++n) {
        const uint32_t in[] = {rows[n], cols[n]}, out[] = {rows[n], picks[n]};
        const uint32_t padded[] = {picks[n] + 3, 1};
        gather_2d("streaming_inner_axis", n, 1, types[n], DML_TENSOR_DATA_TYPE_INT32, in, picks[n],
                  out, n == 2 ? padded : NULL);
    }
}

/*
 * Whole rows gathered along axis 0 whose outputs are 32 MiB and more, where
 * CPUs store non-temporally: each row moves as 64-byte lines from the
 * output's first line boundary, and the rows a few ahead are prefetched,
 * across work-item ends (cl/indexed.cl ROW_INDEX). Rows of 4096 u8 (16-byte
 * units), 1030 f16 (4-byte units, rows starting anywhere in a line), 250
 * u32 with the output rows padded by 3 elements, 96 i64 (8-byte units);
 * signed and unsigned indices, wrapped negative ones.
 */
Test(gather, streaming_rows)
{
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                          DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64};
    const DML_TENSOR_DATA_TYPE row_index_types[] = {
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT64};
    const uint32_t rows[] = {3001, 5003, 20011, 6007}, cols[] = {4096, 1030, 250, 96},
                   picks[] = {8209, 16411, 34003, 44021};
    for (unsigned n = 0; n < COUNT_OF(types); ++n) {
        const uint32_t in[] = {rows[n], cols[n]}, out[] = {picks[n], cols[n]};
        const uint32_t padded[] = {cols[n] + 3, 1};
        gather_2d("streaming_rows", n, 0, types[n], row_index_types[n], in, picks[n], out,
                  n == 2 ? padded : NULL);
    }
}

Test(gather, host_execute)
{
    gather_spec spec = {.max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = -1};
    gather_cases("host_execute", 0, 16, &spec, true);
}

/*
 * One compiled operator, one binding table, rebound between two sets of
 * buffers and re-dispatched after the indices change: no state may stick.
 */
Test(gather, rebind_and_redispatch)
{
    static gather_case a, b;
    gather_spec spec = {.max_elements = GATHER_MAX_ELEMENTS, .invalid_percent = 10};
    for (unsigned n = 0; n < 6; ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "rebind_and_redispatch", n + 1000);
        dmlcl_operator *op;
        dmlcl_compiled_operator *compiled;
        dmlcl_binding_table *table;
        ops_tensor *ain[2] = {&a.input, &a.indices}, *aout[1] = {&a.output};
        ops_tensor *bin[2] = {&b.input, &b.indices}, *bout[1] = {&b.output};

        gather_prepare(&a, "rebind_and_redispatch", n, &spec);
        b = a;
        b.number = n + 1000;
        gather_descs(&b);
        gather_place(&b, &rng);
        gather_fill(&b, &rng);

        cr_assert(SUCCEEDED(dmlcl_operator_create(ops_device(), &a.desc, &op)), "%s",
                  dmlcl_last_error());
        cr_assert(SUCCEEDED(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled)), "%s",
                  dmlcl_last_error());
        cr_assert(SUCCEEDED(dmlcl_binding_table_create(compiled, &table)), "%s",
                  dmlcl_last_error());
        for (int round = 0; round < 3; ++round) {
            gather_case *c = round == 1 ? &b : &a;
            HRESULT hr;
            if (round == 2) {
                /* New indices and data in the same buffers. */
                ref_rng again = ops_case_rng(&run_seed, "rebind_and_redispatch", n + 2000);
                gather_fill(&a, &again);
            }
            hr = round == 1 ? ops_bind(table, &b.mem, bin, 2, bout, 1)
                            : ops_bind(table, &a.mem, ain, 2, aout, 1);
            gather_expect_ok(c, hr, "dmlcl_binding_table_bind_*");
            ops_upload(&c->mem);
            hr = dmlcl_binding_table_dispatch(table, NULL, 0, NULL, NULL);
            gather_expect_ok(c, hr, "dmlcl_binding_table_dispatch");
            clFinish(dmlcl_device_queue(ops_device()));
            gather_expect_ok(c, dmlcl_binding_table_status(table), "dmlcl_binding_table_status");
            ops_download(&c->mem);
            gather_check(c, S_OK, "");
        }
        dmlcl_binding_table_release(table);
        dmlcl_compiled_operator_release(compiled);
        dmlcl_operator_release(op);
        ops_memory_release(&a.mem);
        ops_memory_release(&b.mem);
    }
}

/* ---- The harness must be able to fail ----------------------------------------- */

Test(gather, harness_detects_mismatch)
{
    static gather_case c;
    static char diff[4096];
    ops_tensor *all[3] = {&c.input, &c.indices, &c.output};
    gather_spec spec = {.type = DML_TENSOR_DATA_TYPE_FLOAT32, .rank = 3, .max_elements = 200};
    ref_tensor expect;
    unsigned char *p;

    gather_prepare(&c, "harness_detects_mismatch", 0, &spec);
    for (int b = 0; b < c.mem.count; ++b)
        memcpy(c.mem.got[b], c.mem.expect[b], c.mem.size[b]);
    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 0, "%s", diff);

    /* One wrong expected element. */
    expect = ops_view(&c.mem, OPS_EXPECT, &c.output);
    p = (unsigned char *)expect.base;
    p[0] ^= 0x01;
    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 1);
    cr_assert(strstr(diff, "OutputTensor{0,0,0}: expected"), "%s", diff);
    p[0] ^= 0x01;

    /* A guard byte before the output. */
    ops_ptr(&c.mem, OPS_GOT, &c.output)[-1] ^= 0x80;
    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 1);
    cr_assert(strstr(diff, "guard byte"), "%s", diff);
    ops_ptr(&c.mem, OPS_GOT, &c.output)[-1] ^= 0x80;

    /* An input byte. */
    ops_ptr(&c.mem, OPS_GOT, &c.input)[0] ^= 0x10;
    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 1);
    cr_assert(strstr(diff, "InputTensor byte 0 (input data)"), "%s", diff);
    ops_ptr(&c.mem, OPS_GOT, &c.input)[0] ^= 0x10;

    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 0, "%s", diff);
    ops_memory_release(&c.mem);
}

Test(gather, harness_detects_padding_write)
{
    static gather_case c;
    static char diff[4096];
    ops_tensor *all[3] = {&c.input, &c.indices, &c.output};
    const uint32_t in[2] = {4, 3}, idx[2] = {1, 2}, out[2] = {2, 3}, padded[2] = {4, 1};
    ref_rng rng = ref_rng_make(1);
    unsigned char *p;

    memset(&c, 0, sizeof c);
    c.rank = 2;
    ops_tensor_init(&c.input, "InputTensor", false, DML_TENSOR_DATA_TYPE_UINT8, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, DML_TENSOR_DATA_TYPE_UINT32, 2, idx, NULL,
                    0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, DML_TENSOR_DATA_TYPE_UINT8, 2, out, padded, 0,
                    0);
    gather_place(&c, &rng);
    ops_memory_snapshot(&c.mem);
    for (int b = 0; b < c.mem.count; ++b)
        memcpy(c.mem.got[b], c.mem.expect[b], c.mem.size[b]);
    /* Byte 3 of the output is the padding after row 0. */
    p = ops_ptr(&c.mem, OPS_GOT, &c.output);
    p[3] ^= 0xFF;
    cr_assert_eq(ops_compare(&c.mem, all, 3, diff, sizeof diff), 1);
    cr_assert(strstr(diff, "OutputTensor byte 3 (padding"), "%s", diff);
    ops_memory_release(&c.mem);
}
