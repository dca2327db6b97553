/* SPDX-License-Identifier: MIT */
/*
 * scatter.c: DML_SCATTER_ELEMENTS and DML_SCATTER_ND on the device against the C reference
 * (tests/ref/ref_scatter.c), bit-exact.
 *
 * Random cases cover 1 to 8 dimensions, leading-1 padding (SCATTER_ND's meaningful counts),
 * every data type of the pages' tables, the four index types, negative and out-of-range
 * indices (clamped), duplicate indices (the last update in row-major order wins: the
 * reference writes the updates in that order), index permutations (every element written
 * once), padded / transposed / broadcast / aliasing input strides, padded and transposed
 * outputs, oversized TotalTensorSizeInBytes, guarded bindings at non-zero offsets, the three
 * submit modes and host execution. Edge cases: the pages' examples, every rank, every type,
 * size-1 axes, long walks of duplicates, an output past the caches (the streaming copy), a
 * re-dispatch, the in-place binding refused, and a scatter between two nodes of a graph.
 * Every failure prints the seed and the case; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n>
 * runs one case, DMLCL_TEST_VERBOSE=1 prints each case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "graph_support.h"
#include "harness.h"
#include "ref_scatter.h"
#include "support.h"

#define SC_DEFAULT_SEED 0x646D6C6353434154ull
#define SC_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

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

typedef enum sc_op { SC_ELEMENTS, SC_ND } sc_op;
static const char *const op_names[] = {"SCATTER_ELEMENTS", "SCATTER_ND"};

/* What a test fixes; 0 / UNKNOWN / false: drawn at random. */
typedef struct sc_spec {
    sc_op op;
    uint32_t rank;
    DML_TENSOR_DATA_TYPE type, index_type;
    bool permutation;  /* indices a permutation: no two updates meet */
    bool axis_one;     /* ELEMENTS: the scattered axis of size 1 */
    bool broadcast;    /* every input read through a broadcast layout */
    bool host;         /* dmlcl_compiled_operator_execute */
    unsigned max_elem; /* 0: SC_MAX_ELEMENTS */
} sc_spec;

typedef struct sc_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    sc_spec spec;
    DML_TENSOR_DATA_TYPE type, index_type;
    uint32_t rank, axis, input_dims, indices_dims, m;
    uint32_t in[REF_MAX_DIMS], idx[REF_MAX_DIMS], upd[REF_MAX_DIMS];
    unsigned negative_percent, invalid_percent;
    ops_layout layout[4];
    bool shared;
    ops_submit submit;
    ops_tensor input, indices, updates, output;
    union {
        DML_SCATTER_ELEMENTS_OPERATOR_DESC e;
        DML_SCATTER_ND_OPERATOR_DESC nd;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} sc_case;

static ops_seed run_seed = OPS_SEED(SC_DEFAULT_SEED);

static uint64_t count(uint32_t rank, const uint32_t *sizes)
{
    return ref_element_count(rank, sizes);
}

static uint32_t random_dim(ref_rng *rng, uint32_t rank)
{
    uint32_t cap = rank <= 1 ? 40 : rank == 2 ? 12 : rank <= 4 ? 6 : 3;
    if (ref_rng_chance(rng, 20))
        return 1;
    return 1 + (uint32_t)ref_rng_below(rng, cap);
}

static uint32_t max_elements(const sc_case *c)
{
    return c->spec.max_elem ? c->spec.max_elem : SC_MAX_ELEMENTS;
}

/* ELEMENTS: indices and updates the input's sizes but along the axis. */
static void shape_elements(sc_case *c, ref_rng *rng)
{
    c->axis = (uint32_t)ref_rng_below(rng, c->rank);
    for (;;) {
        for (uint32_t i = 0; i < c->rank; ++i)
            c->in[i] = random_dim(rng, c->rank);
        if (c->spec.axis_one)
            c->in[c->axis] = 1;
        memcpy(c->idx, c->in, sizeof c->idx);
        if (!c->spec.permutation)
            c->idx[c->axis] =
                c->spec.axis_one ? 1 + (uint32_t)ref_rng_below(rng, 4) : random_dim(rng, c->rank);
        memcpy(c->upd, c->idx, sizeof c->upd);
        if (count(c->rank, c->in) <= max_elements(c) && count(c->rank, c->idx) <= max_elements(c))
            return;
    }
}

/* ND: InputDimensionCount, IndicesDimensionCount and the tuple length m drawn; updates the
 * tuples' sizes then the input's after the m indexed dimensions, right-aligned. */
static void shape_nd(sc_case *c, ref_rng *rng)
{
    for (;;) {
        c->input_dims = 1 + (uint32_t)ref_rng_below(rng, c->rank);
        c->indices_dims = 1 + (uint32_t)ref_rng_below(rng, c->rank);
        c->m = 1 + (uint32_t)ref_rng_below(rng, c->input_dims);
        uint32_t nt = c->indices_dims - 1, ns = c->input_dims - c->m;
        if (nt + ns > c->rank)
            continue;
        uint32_t ip = c->rank - c->input_dims, xp = c->rank - c->indices_dims;
        for (uint32_t i = 0; i < c->rank; ++i) {
            c->in[i] = i < ip ? 1 : random_dim(rng, c->rank);
            c->idx[i] = i < xp ? 1 : random_dim(rng, c->rank);
            c->upd[i] = 1;
        }
        c->idx[c->rank - 1] = c->m;
        uint64_t places = count(c->m, c->in + ip), tuples = count(nt, c->idx + xp);
        if (c->spec.permutation && tuples > places)
            continue;
        uint32_t at = c->rank - nt - ns;
        for (uint32_t j = 0; j < nt; ++j)
            c->upd[at++] = c->idx[xp + j];
        for (uint32_t j = 0; j < ns; ++j)
            c->upd[at++] = c->in[ip + c->m + j];
        if (count(c->rank, c->in) <= max_elements(c) && count(c->rank, c->idx) <= max_elements(c) &&
            count(c->rank, c->upd) <= max_elements(c))
            return;
    }
}

static void make_tensor(sc_case *c, ops_tensor *t, ref_rng *rng, const char *name, bool output,
                        DML_TENSOR_DATA_TYPE type, const uint32_t *sizes, ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    *layout = c->spec.broadcast && !output ? OPS_LAYOUT_BROADCAST : ops_layout_random(rng, output);
    bool explicit_strides = ops_layout_strides(rng, *layout, c->rank, sizes, strides);
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    ops_tensor_init(t, name, output, type, c->rank, sizes, explicit_strides ? strides : NULL, extra,
                    0);
}

static void descs(sc_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->input), *idx = ops_tensor_desc(&c->indices),
                          *upd = ops_tensor_desc(&c->updates), *out = ops_tensor_desc(&c->output);
    if (c->spec.op == SC_ELEMENTS) {
        c->d.e = (DML_SCATTER_ELEMENTS_OPERATOR_DESC){in, idx, upd, out, c->axis};
        c->desc.Type = DML_OPERATOR_SCATTER_ELEMENTS;
    } else {
        c->d.nd = (DML_SCATTER_ND_OPERATOR_DESC){in, idx, upd, out, c->input_dims, c->indices_dims};
        c->desc.Type = DML_OPERATOR_SCATTER_ND;
    }
    c->desc.Desc = &c->d;
}

static void generate(sc_case *c, ref_rng *rng)
{
    c->type = c->spec.type ? c->spec.type : data_types[ref_rng_below(rng, COUNT_OF(data_types))];
    c->index_type = c->spec.index_type ? c->spec.index_type
                                       : index_types[ref_rng_below(rng, COUNT_OF(index_types))];
    c->rank = c->spec.rank ? c->spec.rank : 1 + (uint32_t)ref_rng_below(rng, 5);
    if (c->spec.op == SC_ELEMENTS)
        shape_elements(c, rng);
    else
        shape_nd(c, rng);
    c->negative_percent = ref_type_is_signed_int(c->index_type) ? 25 : 0;
    c->invalid_percent =
        c->spec.permutation || ref_rng_chance(rng, 50) ? 0 : (unsigned)ref_rng_range(rng, 1, 25);
    make_tensor(c, &c->input, rng, "InputTensor", false, c->type, c->in, &c->layout[0]);
    make_tensor(c, &c->indices, rng, "IndicesTensor", false, c->index_type, c->idx, &c->layout[1]);
    make_tensor(c, &c->updates, rng, "UpdatesTensor", false, c->type, c->upd, &c->layout[2]);
    make_tensor(c, &c->output, rng, "OutputTensor", true, c->type, c->in, &c->layout[3]);
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    descs(c);
}

static uint64_t slots(const ops_tensor *t)
{
    size_t w = ref_type_size(t->buffer.DataType);
    return w ? t->buffer.TotalTensorSizeInBytes / w : 0;
}

/* An index value written at coordinate x of the indices (the low bytes, little-endian). */
static void put_index(ref_tensor *v, const uint32_t *x, int64_t value)
{
    ref_put(v, x, &value);
}

/* value as the index type shows it: a signed type's negative form now and then. */
static int64_t index_value(const sc_case *c, ref_rng *rng, uint32_t value, uint32_t axis_size)
{
    bool negative = ref_type_is_signed_int(c->index_type) && ref_rng_chance(rng, 30);
    return negative ? (int64_t)value - axis_size : (int64_t)value;
}

/* A random permutation of [0, n) into p. */
static void permutation(ref_rng *rng, uint32_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        p[i] = i;
    for (uint32_t i = n; i > 1; --i) {
        uint32_t j = (uint32_t)ref_rng_below(rng, i), t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* Permutations: along the axis per line (ELEMENTS), or distinct positions of the m indexed
 * dimensions per tuple (ND), written through the indices' view (an aliasing or broadcast
 * layout may still repeat a value: the last update wins, as the reference writes it). */
static void fill_permutation(sc_case *c, ref_rng *rng)
{
    static uint32_t p[SC_MAX_ELEMENTS];
    ref_tensor x = ops_view(&c->mem, OPS_INIT, &c->indices);
    uint32_t coord[REF_MAX_DIMS] = {0};
    if (c->spec.op == SC_ELEMENTS) {
        uint32_t n = c->in[c->axis], line[REF_MAX_DIMS];
        memcpy(line, c->idx, sizeof line);
        line[c->axis] = 1;
        do {
            permutation(rng, p, n);
            for (uint32_t k = 0; k < n; ++k) {
                coord[c->axis] = k;
                put_index(&x, coord, index_value(c, rng, p[k], n));
            }
            coord[c->axis] = 0;
        } while (ref_next_coord(c->rank, line, coord));
        return;
    }
    uint32_t ip = c->rank - c->input_dims, places = (uint32_t)count(c->m, c->in + ip);
    uint32_t tuples[REF_MAX_DIMS];
    memcpy(tuples, c->idx, sizeof tuples);
    tuples[c->rank - 1] = 1;
    permutation(rng, p, places);
    uint32_t t = 0;
    do {
        uint32_t rest = p[t++];
        for (uint32_t k = c->m; k-- > 0;) {
            uint32_t n = c->in[ip + k];
            coord[c->rank - 1] = k;
            put_index(&x, coord, index_value(c, rng, rest % n, n));
            rest /= n;
        }
        coord[c->rank - 1] = 0;
    } while (ref_next_coord(c->rank, tuples, coord));
}

/* Random indices: each element for its own axis (ND: its component's), a share of them
 * negative and out of range; the span's other slots too (aliasing layouts read them). */
static void fill_random(sc_case *c, ref_rng *rng)
{
    unsigned char *base = ops_ptr(&c->mem, OPS_INIT, &c->indices);
    const uint32_t ip = c->rank - c->input_dims;
    uint32_t first = c->spec.op == SC_ELEMENTS ? c->in[c->axis] : c->in[ip];
    ops_fill_indices(rng, c->index_type, base, slots(&c->indices), first, c->negative_percent,
                     c->invalid_percent);
    if (c->spec.op == SC_ELEMENTS || c->m == 1)
        return;
    ref_tensor x = ops_view(&c->mem, OPS_INIT, &c->indices);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char v[8];
    do {
        uint32_t k = coord[c->rank - 1];
        ops_fill_indices(rng, c->index_type, v, 1, c->in[ip + k], c->negative_percent,
                         c->invalid_percent);
        ref_put(&x, coord, v);
    } while (ref_next_coord(c->rank, c->idx, coord));
}

static bool reference(sc_case *c, ops_image image)
{
    ref_tensor in = ops_view(&c->mem, image, &c->input), x = ops_view(&c->mem, image, &c->indices),
               u = ops_view(&c->mem, image, &c->updates),
               o = ops_view(&c->mem, OPS_EXPECT, &c->output);
    return c->spec.op == SC_ELEMENTS
               ? ref_scatter_elements(&in, &x, &u, &o, c->axis)
               : ref_scatter_nd(&in, &x, &u, &o, c->input_dims, c->indices_dims);
}

static void fill(sc_case *c, ref_rng *rng)
{
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots(&c->input));
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->updates), slots(&c->updates));
    if (c->spec.permutation)
        fill_permutation(c, rng);
    else
        fill_random(c, rng);
    ops_memory_snapshot(&c->mem);
    cr_assert(reference(c, OPS_EXPECT), "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->output);
}

static void place(sc_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    ops_memory_place(&c->mem, rng, &c->indices, c->shared);
    ops_memory_place(&c->mem, rng, &c->updates, c->shared);
    ops_memory_place(&c->mem, rng, &c->output, c->shared);
    ops_memory_alloc(&c->mem, rng);
}

static const char *describe(const sc_case *c, char *buf, size_t len)
{
    char head[512], in[512], idx[512], upd[512], out[512];
    snprintf(
        buf, len,
        "%s\n"
        "  rank %u, axis %u, InputDimensionCount %u, IndicesDimensionCount %u, m %u; "
        "%s; negative %u%%, invalid %u%%; layouts %s/%s/%s/%s; %s buffers; submit %s\n"
        "  %s\n  %s\n  %s\n  %s",
        ops_replay(head, sizeof head, op_names[c->spec.op], "scatter", c->test, c->number, c->seed),
        c->rank, c->axis, c->input_dims, c->indices_dims, c->m,
        c->spec.permutation ? "permutation" : "random indices", c->negative_percent,
        c->invalid_percent, ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
        ops_layout_name(c->layout[2]), ops_layout_name(c->layout[3]),
        c->shared ? "shared" : "separate",
        c->spec.host ? "host-execute" : ops_submit_name(c->submit),
        ops_tensor_describe(&c->input, in, sizeof in),
        ops_tensor_describe(&c->indices, idx, sizeof idx),
        ops_tensor_describe(&c->updates, upd, sizeof upd),
        ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void run(sc_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[3] = {&c->input, &c->indices, &c->updates}, *outputs[1] = {&c->output};
    ops_tensor *all[4] = {&c->input, &c->indices, &c->updates, &c->output};
    const char *stage = "";
    HRESULT hr = c->spec.host
                     ? ops_run_host(&c->desc, &c->mem, inputs, 3, outputs, 1, &stage)
                     : ops_run_device(&c->desc, &c->mem, inputs, 3, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    uint64_t bad = ops_compare(&c->mem, all, 4, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", describe(c, what, sizeof what), bad,
              diff);
}

static void prepare(sc_case *c, const char *test, unsigned k, const sc_spec *spec)
{
    ref_rng rng = ops_case_rng(&run_seed, test, k);
    memset(c, 0, sizeof *c);
    c->test = test;
    c->seed = ops_base_seed(&run_seed);
    c->number = k;
    c->spec = *spec;
    generate(c, &rng);
    place(c, &rng);
    fill(c, &rng);
    if (ops_verbose()) {
        static char what[4096];
        fprintf(stderr, "%s\n", describe(c, what, sizeof what));
    }
}

/* Cases first .. first + n - 1 of test (fewer under DMLCL_TEST_CASES). */
static void cases(const char *test, unsigned first, unsigned n, const sc_spec *spec)
{
    static sc_case c;
    long only = ops_only_case();
    for (unsigned k = first; k < first + ops_case_count(n); ++k) {
        if (only >= 0 && (unsigned long)only != k)
            continue;
        sc_spec s = *spec;
        s.host = s.host || k % 8 == 7;
        prepare(&c, test, k, &s);
        run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(scatter);

Test(scatter, elements_random)
{
    cases("elements_random", 0, 60, &(sc_spec){.op = SC_ELEMENTS});
}

Test(scatter, nd_random)
{
    cases("nd_random", 0, 60, &(sc_spec){.op = SC_ND});
}

Test(scatter, elements_permutations)
{
    cases("elements_permutations", 0, 24, &(sc_spec){.op = SC_ELEMENTS, .permutation = true});
}

Test(scatter, nd_permutations)
{
    cases("nd_permutations", 0, 24, &(sc_spec){.op = SC_ND, .permutation = true});
}

/* 1 to 8 dimensions, each with a type and an index type in turn. */
Test(scatter, every_rank)
{
    for (uint32_t r = 1; r <= 8; ++r) {
        sc_spec e = {.op = SC_ELEMENTS,
                     .rank = r,
                     .type = data_types[r % COUNT_OF(data_types)],
                     .index_type = index_types[r % COUNT_OF(index_types)]};
        cases("every_rank", 4 * r, 2, &e);
        sc_spec n = e;
        n.op = SC_ND;
        n.index_type = index_types[(r + 1) % COUNT_OF(index_types)];
        cases("every_rank", 4 * r + 2, 2, &n);
    }
}

/* Every data type with every index type, both operators. */
Test(scatter, every_type)
{
    for (size_t t = 0; t < COUNT_OF(data_types); ++t)
        for (size_t k = 0; k < COUNT_OF(index_types); ++k) {
            sc_spec s = {.op = (sc_op)((t + k) % 2),
                         .type = data_types[t],
                         .index_type = index_types[k],
                         .max_elem = 300};
            cases("every_type", (unsigned)(t * COUNT_OF(index_types) + k), 1, &s);
        }
}

/* A scattered axis of one element: every index clamps (or wraps) to 0, the last update wins. */
Test(scatter, size_one_axes)
{
    cases("size_one_axes", 0, 12, &(sc_spec){.op = SC_ELEMENTS, .axis_one = true});
}

/* Inputs, indices and updates read through 0 strides. */
Test(scatter, broadcast_inputs)
{
    cases("broadcast_inputs", 0, 12, &(sc_spec){.op = SC_ELEMENTS, .broadcast = true});
    cases("broadcast_inputs", 12, 12, &(sc_spec){.op = SC_ND, .broadcast = true});
}

/* ---- Fixed cases ---------------------------------------------------------------------------- */

/* One case's tensors given in full: packed, each in a buffer of its own, run and compared. */
static void fixed(const char *test, sc_op op, DML_TENSOR_DATA_TYPE type,
                  DML_TENSOR_DATA_TYPE index_type, uint32_t rank, const uint32_t *in,
                  const uint32_t *idx, const uint32_t *upd, const void *in_data,
                  const void *idx_data, const void *upd_data, const void *want, uint32_t a,
                  uint32_t b)
{
    static sc_case c;
    ref_rng rng = ops_case_rng(&run_seed, test, 0);
    memset(&c, 0, sizeof c);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.spec.op = op;
    c.type = type;
    c.index_type = index_type;
    c.rank = rank;
    c.axis = a;
    c.input_dims = a;
    c.indices_dims = b;
    memcpy(c.in, in, rank * sizeof *in);
    memcpy(c.idx, idx, rank * sizeof *idx);
    memcpy(c.upd, upd, rank * sizeof *upd);
    c.m = idx[rank - 1];
    ops_tensor_init(&c.input, "InputTensor", false, type, rank, in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, index_type, rank, idx, NULL, 0, 0);
    ops_tensor_init(&c.updates, "UpdatesTensor", false, type, rank, upd, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, type, rank, in, NULL, 0, 0);
    descs(&c);
    place(&c, &rng);
    size_t w = ref_type_size(type);
    memcpy(ops_ptr(&c.mem, OPS_INIT, &c.input), in_data, count(rank, in) * w);
    memcpy(ops_ptr(&c.mem, OPS_INIT, &c.indices), idx_data,
           count(rank, idx) * ref_type_size(index_type));
    memcpy(ops_ptr(&c.mem, OPS_INIT, &c.updates), upd_data, count(rank, upd) * w);
    ops_memory_snapshot(&c.mem);
    cr_assert(reference(&c, OPS_EXPECT));
    cr_assert_arr_eq(ops_ptr(&c.mem, OPS_EXPECT, &c.output), want, count(rank, in) * w,
                     "the reference misses the page's output");
    ops_poison_output(&c.mem, &c.output);
    run(&c);
    ops_memory_release(&c.mem);
}

Test(scatter, documented_examples)
{
    const uint32_t s5[1] = {5}, s4[1] = {4};
    const float in1[5] = {0, 1, 2, 3, 4}, upd1[4] = {5, 6, 7, 8}, out1[5] = {8, 6, 2, 7, 4};
    const uint32_t idx1[4] = {3, 1, 3, 0};
    fixed("example_1", SC_ELEMENTS, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, 1,
          s5, s4, s4, in1, idx1, upd1, out1, 0, 0);
    const uint32_t s33[2] = {3, 3}, s23[2] = {2, 3};
    const float in2[9] = {0}, upd2[6] = {10, 11, 12, 20, 21, 22},
                out2[9] = {20, 11, 0, 10, 0, 22, 0, 21, 12};
    const uint32_t idx2[6] = {1, 0, 2, 0, 2, 1};
    fixed("example_2", SC_ELEMENTS, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, 2,
          s33, s23, s23, in2, idx2, upd2, out2, 0, 0);
    const uint32_t s18[2] = {1, 8}, s41[2] = {4, 1}, s14[2] = {1, 4};
    const float in3[8] = {1, 2, 3, 4, 5, 6, 7, 8}, upd3[4] = {9, 10, 11, 12},
                out3[8] = {1, 11, 3, 10, 9, 6, 7, 12};
    const uint32_t idx3[4] = {4, 3, 1, 7};
    fixed("example_nd", SC_ND, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, 2, s18,
          s41, s14, in3, idx3, upd3, out3, 1, 2);
}

/* Long walks of duplicates, one work-item each: 20000 updates into 7 elements (a 1-D
 * ELEMENTS, indices from -9 to 9: negative and clamped ones too), and 3000 tuples into the
 * 3 rows of a {3, 64} (ND). The reference keeps the last update of each element; one that
 * kept the first would differ (checked, so the case discriminates). */
Test(scatter, duplicates_last_wins)
{
    static int32_t in[3 * 64], upd[3000 * 64], want[3 * 64];
    static int64_t idx[20000];
    const uint32_t s7[1] = {7}, s20k[1] = {20000};
    ref_rng rng = ref_rng_make(ref_test_seed(7));
    for (int k = 0; k < 20000; ++k) {
        idx[k] = ref_rng_range(&rng, -9, 9);
        upd[k] = k;
    }
    for (int k = 0; k < 7; ++k)
        in[k] = -1 - k;
    memcpy(want, in, 7 * sizeof *want);
    int32_t first[7];
    memcpy(first, in, sizeof first);
    bool seen[7] = {false};
    for (int k = 0; k < 20000; ++k) {
        int64_t v = idx[k] < 0 ? idx[k] + 7 : idx[k];
        int at = v < 0 ? 0 : v > 6 ? 6 : (int)v;
        want[at] = upd[k];
        if (!seen[at])
            first[at] = upd[k];
        seen[at] = true;
    }
    cr_assert(memcmp(first, want, sizeof first) != 0);
    fixed("duplicates_1d", SC_ELEMENTS, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, 1,
          s7, s20k, s20k, in, idx, upd, want, 0, 0);
    const uint32_t si[2] = {3, 64}, sx[2] = {3000, 1}, su[2] = {3000, 64};
    uint32_t rows[3000];
    for (int t = 0; t < 3000; ++t)
        rows[t] = (uint32_t)ref_rng_below(&rng, 3);
    for (int k = 0; k < 3 * 64; ++k)
        in[k] = k;
    for (int k = 0; k < 3000 * 64; ++k)
        upd[k] = 1000 + k;
    memcpy(want, in, sizeof want);
    for (int t = 0; t < 3000; ++t)
        memcpy(want + rows[t] * 64, upd + t * 64, 64 * sizeof *want);
    fixed("duplicates_nd", SC_ND, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32, 2, si,
          sx, su, in, rows, upd, want, 2, 2);
}

/* An output of 16 MiB (FLOAT32 {2048, 2048}), a row of updates along axis 0: the copy of the
 * input streams on CPUs (past a quarter of the cache), then 2048 elements are scattered. */
Test(scatter, large_output)
{
    static sc_case c;
    const uint32_t in[2] = {2048, 2048}, idx[2] = {1, 2048};
    ref_rng rng = ops_case_rng(&run_seed, "large_output", 0);
    memset(&c, 0, sizeof c);
    c.test = "large_output";
    c.seed = ops_base_seed(&run_seed);
    c.spec.op = SC_ELEMENTS;
    c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c.index_type = DML_TENSOR_DATA_TYPE_INT32;
    c.rank = 2;
    c.axis = 0;
    c.invalid_percent = 5;
    c.negative_percent = 25;
    memcpy(c.in, in, sizeof in);
    memcpy(c.idx, idx, sizeof idx);
    memcpy(c.upd, idx, sizeof idx);
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, c.index_type, 2, idx, NULL, 0, 0);
    ops_tensor_init(&c.updates, "UpdatesTensor", false, c.type, 2, idx, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 2, in, NULL, 0, 0);
    descs(&c);
    place(&c, &rng);
    fill(&c, &rng);
    run(&c);
    ops_memory_release(&c.mem);
}

/* One compiled operator dispatched twice from one binding table, the indices and updates
 * changed between: the copy and the scatter both run again, nothing of the first stays. */
Test(scatter, redispatch)
{
    static sc_case c;
    static char diff[4096];
    sc_spec spec = {.op = SC_ND, .rank = 3, .type = DML_TENSOR_DATA_TYPE_UINT16};
    prepare(&c, "redispatch", 0, &spec);
    ops_tensor *inputs[3] = {&c.input, &c.indices, &c.updates}, *outputs[1] = {&c.output};
    ops_tensor *all[4] = {&c.input, &c.indices, &c.updates, &c.output};
    dmlcl_operator *op;
    dmlcl_compiled_operator *compiled;
    dmlcl_binding_table *table;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &c.desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_binding_table_create(compiled, &table), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(ops_bind(table, &c.mem, inputs, 3, outputs, 1), S_OK, "%s", dmlcl_last_error());
    for (int round = 0; round < 2; ++round) {
        if (round == 1) {
            ref_rng again = ops_case_rng(&run_seed, "redispatch", 1000);
            fill_random(&c, &again);
            ops_fill_distinct(&again, c.type, ops_ptr(&c.mem, OPS_INIT, &c.updates),
                              slots(&c.updates));
            ops_memory_snapshot(&c.mem);
            cr_assert(reference(&c, OPS_EXPECT));
            ops_poison_output(&c.mem, &c.output);
        }
        ops_upload(&c.mem);
        cr_assert_eq(dmlcl_binding_table_dispatch(table, NULL, 0, NULL, NULL), S_OK, "%s",
                     dmlcl_last_error());
        clFinish(dmlcl_device_queue(ops_device()));
        ops_download(&c.mem);
        uint64_t bad = ops_compare(&c.mem, all, 4, diff, sizeof diff);
        cr_assert(bad == 0, "round %d: %" PRIu64 " mismatches:%s", round, bad, diff);
    }
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    ops_memory_release(&c.mem);
}

/* The pages list no in-place execution: the output bound on the input's exact range is
 * refused at dispatch, as an overlap, and so is the updates' range. */
Test(scatter, in_place_refused)
{
    static sc_case c;
    const uint32_t in[2] = {4, 4};
    sc_spec spec = {.op = SC_ELEMENTS, .rank = 2, .type = DML_TENSOR_DATA_TYPE_FLOAT32};
    ref_rng rng = ops_case_rng(&run_seed, "in_place_refused", 0);
    memset(&c, 0, sizeof c);
    c.spec = spec;
    c.type = spec.type;
    c.index_type = DML_TENSOR_DATA_TYPE_UINT32;
    c.rank = 2;
    memcpy(c.in, in, sizeof in);
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, c.index_type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.updates, "UpdatesTensor", false, c.type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 2, in, NULL, 0, 0);
    descs(&c);
    place(&c, &rng);
    ops_tensor *inputs[3] = {&c.input, &c.indices, &c.updates}, *outputs[1] = {&c.output};
    for (int k = 0; k < 2; ++k) {
        const ops_tensor *onto = k == 0 ? &c.input : &c.updates;
        c.output.slot = onto->slot;
        c.output.offset = onto->offset;
        c.output.bind_size = onto->bind_size;
        const char *stage = "";
        HRESULT hr =
            ops_run_device(&c.desc, &c.mem, inputs, 3, outputs, 1, OPS_SUBMIT_DEFAULT, &stage);
        cr_expect_eq(hr, E_INVALIDARG, "%s: %s", stage, dmlcl_hresult_name(hr));
        cr_expect(strstr(dmlcl_last_error(), "SCATTER_ELEMENTS") &&
                      strstr(dmlcl_last_error(), "OutputTensor") &&
                      strstr(dmlcl_last_error(), "overlap"),
                  "%s", dmlcl_last_error());
    }
    ops_memory_release(&c.mem);
}

/* In a graph: a transpose (IDENTITY reading through permuted strides) feeds the scatter's
 * input, the scatter feeds a layout change into a padded graph output. Each tensor between
 * them is its own; the result is the reference's chain, bit-exact. */
Test(scatter, in_a_graph)
{
    const UINT s[2] = {5, 4}, tr[2] = {1, 5}, x[2] = {5, 1}, u[2] = {5, 4}, pad[2] = {6, 1};
    const DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    unit_tensor a, b, i_in, i_idx, i_upd, i_out, c, d;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id1 = {unit_tensor_set(&a, F32, 2, s, tr),
                                                   unit_tensor_set(&b, F32, 2, s, NULL), NULL};
    DML_SCATTER_ND_OPERATOR_DESC sc = {
        unit_tensor_set(&i_in, F32, 2, s, NULL),
        unit_tensor_set(&i_idx, DML_TENSOR_DATA_TYPE_INT32, 2, x, NULL),
        unit_tensor_set(&i_upd, F32, 2, u, NULL),
        unit_tensor_set(&i_out, F32, 2, s, NULL),
        2,
        2};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id2 = {unit_tensor_set(&c, F32, 2, s, NULL),
                                                   unit_tensor_set(&d, F32, 2, s, pad), NULL};
    unit_graph g;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id1);
    ug_node(&g, DML_OPERATOR_SCATTER_ND, &sc);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id2);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 1);
    ug_input(&g, 2, 1, 2);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 0);
    ug_output(&g, 2, 0);
    ug_desc(&g, 3, 1);
    dmlcl_compiled_operator *compiled;
    cr_assert_eq(dmlcl_graph_compile(ops_device(), &g.desc, 0, &compiled), S_OK, "%s",
                 dmlcl_last_error());
    float src[20], upd[20], out[30], want[30];
    const int32_t rows[5] = {3, -1, 0, 3, 7}; /* row 3 twice (the later wins), 7 clamped to 4 */
    for (int k = 0; k < 20; ++k) {
        src[k] = (float)k;
        upd[k] = 100.0f + (float)k;
    }
    memset(out, 0x7f, sizeof out);
    memcpy(want, out, sizeof want);
    /* The transpose: element (r, c) of the {5, 4} view is src[c * 5 + r]. */
    for (int r = 0; r < 5; ++r)
        for (int col = 0; col < 4; ++col)
            want[r * 6 + col] = src[col * 5 + r];
    const uint32_t s32[2] = {5, 4}, p32[2] = {6, 1}, t32[2] = {1, 5}, x32[2] = {5, 1};
    ref_tensor vi = ref_tensor_view(F32, 2, s32, t32, src),
               vx = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 2, x32, NULL, (void *)rows),
               vu = ref_tensor_view(F32, 2, s32, NULL, upd),
               vo = ref_tensor_view(F32, 2, s32, p32, want);
    cr_assert(ref_scatter_nd(&vi, &vx, &vu, &vo, 2, 2));
    cr_expect(want[3 * 6] == 112.0f && want[4 * 6] == 116.0f && want[0] == 108.0f,
              "%g %g %g: the reference's rows", (double)want[18], (double)want[24],
              (double)want[0]);
    dmlcl_host_tensor ins[3] = {{src, sizeof src}, {(void *)rows, sizeof rows}, {upd, sizeof upd}};
    dmlcl_host_tensor outs[1] = {{out, sizeof out}};
    cr_assert_eq(dmlcl_compiled_operator_execute(compiled, 3, ins, 1, outs), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect_arr_eq(out, want, sizeof out);
    dmlcl_compiled_operator_release(compiled);
    ug_free(&g);
}
