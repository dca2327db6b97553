/* SPDX-License-Identifier: MIT */
/*
 * views.c: DML_OPERATOR_TILE and the view front-ends (OpenVINO Tile-1,
 * Transpose-1, Reverse-1; ONNX Tile-13, Transpose-13) on the device against
 * the C reference (tests/ref/ref_views.h).
 *
 * TILE: ranks 1..8, every DirectML type by width, 1 to 4 copies per
 * dimension, padded, permuted, broadcast and aliasing input layouts, padded
 * or permuted outputs, guarded bindings at non-zero offsets, three ways of
 * submitting. Front-ends: data of rank 0..10 (beyond DirectML's 8, so the
 * extension descriptions run too), 0-sized dimensions, extension types, list
 * inputs of several integer types, now and then a broken rule: the
 * front-end must accept exactly what the oracle's rules accept, infer its
 * shape, and its description must compute the oracle's output. Every
 * failure prints the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n>
 * one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_views.h"

#define VIEWS_DEFAULT_SEED 0x646D6C636C564957ull
#define VIEWS_MAX_ELEMENTS 3000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE dml_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE all_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32,     DML_TENSOR_DATA_TYPE_UINT8,
    DML_TENSOR_DATA_TYPE_FLOAT16,     DML_TENSOR_DATA_TYPE_INT64,
    DMLCL_TENSOR_DATA_TYPE_BOOLEAN,   DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
};
static const DML_TENSOR_DATA_TYPE list_types[] = {
    DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,  DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT64};

static ops_seed run_seed = OPS_SEED(VIEWS_DEFAULT_SEED);

typedef struct view_case {
    const char *test, *op;
    unsigned number;
    ops_layout layout[2];
    bool shared;
    ops_submit submit;
    ops_tensor input, output;
    uint32_t repeats[REF_MAX_DIMS];
    DML_TILE_OPERATOR_DESC tile;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} view_case;

static const char *describe(const view_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512];
    snprintf(
        buf, len, "%s\n  layouts %s/%s; %s; submit %s\n  %s\n  %s",
        ops_replay(head, sizeof head, c->op, "views", c->test, c->number, ops_base_seed(&run_seed)),
        ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
        c->shared ? "one buffer" : "two buffers", ops_submit_name(c->submit),
        ops_tensor_describe(&c->input, in, sizeof in),
        ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

/* Runs c->desc and compares the whole memory image with the reference's. */
static void run(view_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    ops_tensor *all[2] = {&c->input, &c->output};
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", describe(c, what, sizeof what), bad,
              diff);
}

/* ---- DML_OPERATOR_TILE ------------------------------------------------------------------ */

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    *layout = ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL,
                    ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0,
                    ref_rng_chance(rng, 20) ? 64 : 0);
}

static void tile_case(view_case *c, ref_rng *rng, DML_TENSOR_DATA_TYPE type, uint32_t rank)
{
    static char what[4096];
    uint32_t in[REF_MAX_DIMS], out[REF_MAX_DIMS];
    uint64_t total;
    do {
        total = 1;
        for (uint32_t i = 0; i < rank; ++i) {
            in[i] = ref_rng_chance(rng, 20) ? 1 : 1 + (uint32_t)ref_rng_below(rng, 6);
            c->repeats[i] = ref_rng_chance(rng, 35) ? 1 : 1 + (uint32_t)ref_rng_below(rng, 4);
            out[i] = in[i] * c->repeats[i];
            total *= out[i];
        }
    } while (total > VIEWS_MAX_ELEMENTS);
    random_tensor(&c->input, rng, "InputTensor", false, type, rank, in, &c->layout[0]);
    random_tensor(&c->output, rng, "OutputTensor", true, type, rank, out, &c->layout[1]);
    c->tile = (DML_TILE_OPERATOR_DESC){ops_tensor_desc(&c->input), ops_tensor_desc(&c->output),
                                       rank, c->repeats};
    c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &c->tile};
    ops_memory_unary(&c->mem, rng, &c->input, &c->output, c->shared, type);
    ref_tensor vi = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor vo = ops_view(&c->mem, OPS_EXPECT, &c->output);
    cr_assert(ref_tile(&vi, &vo), "%s\n  test bug: the reference rejected the case",
              describe(c, what, sizeof what));
    ops_poison_output(&c->mem, &c->output);
}

OPS_DEVICE_SUITE(views);

Test(views, random_tile)
{
    static view_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(120); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, "random_tile", n);
        memset(&c, 0, sizeof c);
        c.test = "random_tile";
        c.op = "TILE";
        c.number = n;
        c.shared = ref_rng_chance(&rng, 25);
        c.submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        /* Every rank, 8 (16 plan dimensions) included. */
        tile_case(&c, &rng, dml_types[n % COUNT_OF(dml_types)], 1 + n % 8);
        run(&c);
        ops_memory_release(&c.mem);
    }
}

/* Long rows: one row tiled many times, a long row repeated, every element width. */
Test(views, long_tiles)
{
    static view_case c;
    static const DML_TENSOR_DATA_TYPE widths[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT64};
    static const uint32_t shapes[][4] = {{1, 3, 5000, 4}, {3, 17, 8, 300}, {2, 1, 1, 40000}};
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(widths); ++t)
        for (unsigned s = 0; s < COUNT_OF(shapes); ++s, ++n) {
            ref_rng rng = ops_case_rng(&run_seed, "long_tiles", n);
            uint32_t out[2];
            memset(&c, 0, sizeof c);
            c.test = "long_tiles";
            c.op = "TILE";
            c.number = n;
            memcpy(c.repeats, &shapes[s][0], 2 * sizeof(uint32_t));
            for (int i = 0; i < 2; ++i)
                out[i] = shapes[s][2 + i] * shapes[s][i];
            ops_tensor_init(&c.input, "InputTensor", false, widths[t], 2, &shapes[s][2], NULL, 0,
                            0);
            ops_tensor_init(&c.output, "OutputTensor", true, widths[t], 2, out, NULL, 0, 0);
            c.tile = (DML_TILE_OPERATOR_DESC){ops_tensor_desc(&c.input), ops_tensor_desc(&c.output),
                                              2, c.repeats};
            c.desc = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &c.tile};
            ops_memory_unary(&c.mem, &rng, &c.input, &c.output, false, widths[t]);
            ref_tensor vi = ops_view(&c.mem, OPS_INIT, &c.input);
            ref_tensor vo = ops_view(&c.mem, OPS_EXPECT, &c.output);
            cr_assert(ref_tile(&vi, &vo));
            ops_poison_output(&c.mem, &c.output);
            run(&c);
            ops_memory_release(&c.mem);
        }
}

/* Outputs past the streaming threshold (32 MB: non-temporal stores on CPUs), rows starting on
 * and off 64-byte lines. */
Test(views, streaming_tiles)
{
    static view_case c;
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16};
    static const uint32_t shapes[][4] = {{8, 2, 512, 1024}, {7, 5, 1000, 1001}, {700, 3, 3, 3001}};
    for (unsigned n = 0; n < COUNT_OF(shapes); ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "streaming_tiles", n);
        uint32_t out[2];
        memset(&c, 0, sizeof c);
        c.test = "streaming_tiles";
        c.op = "TILE";
        c.number = n;
        memcpy(c.repeats, &shapes[n][0], 2 * sizeof(uint32_t));
        for (int i = 0; i < 2; ++i)
            out[i] = shapes[n][2 + i] * shapes[n][i];
        ops_tensor_init(&c.input, "InputTensor", false, types[n], 2, &shapes[n][2], NULL, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, types[n], 2, out, NULL, 0, 0);
        c.tile = (DML_TILE_OPERATOR_DESC){ops_tensor_desc(&c.input), ops_tensor_desc(&c.output), 2,
                                          c.repeats};
        c.desc = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &c.tile};
        ops_memory_unary(&c.mem, &rng, &c.input, &c.output, false, types[n]);
        ref_tensor vi = ops_view(&c.mem, OPS_INIT, &c.input);
        ref_tensor vo = ops_view(&c.mem, OPS_EXPECT, &c.output);
        cr_assert(ref_tile(&vi, &vo));
        ops_poison_output(&c.mem, &c.output);
        run(&c);
        ops_memory_release(&c.mem);
    }
}

/* Broadcasts of one element along each run (input stride 0) past the streaming threshold:
 * runs of every unit width whose rows start on and off 64-byte lines, with tails. */
Test(views, streaming_splats)
{
    static view_case c;
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16,
        DML_TENSOR_DATA_TYPE_UINT64};
    static const uint32_t shapes[][3] = {
        {9, 7, 140001}, {5, 3, 2236963}, {4, 1, 4194311}, {2, 3, 1398103}};
    for (unsigned n = 0; n < COUNT_OF(shapes); ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "streaming_splats", n);
        static const uint32_t in_strides[3] = {0, 1, 0};
        memset(&c, 0, sizeof c);
        c.test = "streaming_splats";
        c.op = "ELEMENT_WISE_IDENTITY";
        c.number = n;
        ops_tensor_init(&c.input, "InputTensor", false, types[n], 3, shapes[n], in_strides, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, types[n], 3, shapes[n], NULL, 0, 0);
        c.identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){ops_tensor_desc(&c.input),
                                                               ops_tensor_desc(&c.output), NULL};
        c.desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c.identity};
        ops_memory_unary(&c.mem, &rng, &c.input, &c.output, false, types[n]);
        ref_tensor vi = ops_view(&c.mem, OPS_INIT, &c.input);
        ref_tensor vo = ops_view(&c.mem, OPS_EXPECT, &c.output);
        cr_assert(ref_identity(&vi, &vo, NULL));
        ops_poison_output(&c.mem, &c.output);
        run(&c);
        ops_memory_release(&c.mem);
    }
}

/* ---- Front-ends ------------------------------------------------------------------------- */

typedef enum fe_kind { OV_TILE, ONNX_TILE, OV_TRANSPOSE, ONNX_TRANSPOSE, OV_REVERSE } fe_kind;
static const char *const fe_names[] = {"OpenVINO Tile-1", "ONNX Tile-13", "OpenVINO Transpose-1",
                                       "ONNX Transpose-13", "OpenVINO Reverse-1"};

typedef struct fe_case {
    fe_kind kind;
    bool mask;
    DML_TENSOR_DATA_TYPE type, list_type;
    dmlcl_shape data;
    int64_t list[REF_MAX_DIMS];
    uint32_t count;
} fe_case;

/* The list as list_type's bytes (mask mode: BOOLEAN). */
static dmlcl_int_array fe_list(const fe_case *f, unsigned char *bytes)
{
    size_t w = ref_type_size(f->list_type);
    for (uint32_t i = 0; i < f->count; ++i) {
        int64_t v = f->list[i];
        memcpy(bytes + i * w, &v, w); /* little-endian: the low bytes */
    }
    return (dmlcl_int_array){f->list_type, f->count, bytes};
}

static HRESULT fe_call(const fe_case *f, dmlcl_frontend_result *r)
{
    unsigned char bytes[REF_MAX_DIMS * 8];
    dmlcl_int_array l = fe_list(f, bytes);
    switch (f->kind) {
    case OV_TILE: {
        dmlcl_openvino_tile_args a = {.data = &f->data, .data_type = f->type, .repeats = &l};
        return dmlcl_openvino_tile(1, &a, r);
    }
    case ONNX_TILE: {
        dmlcl_onnx_tile_args a = {.input = &f->data, .input_type = f->type, .repeats = &l};
        return dmlcl_onnx_tile(13, &a, r);
    }
    case OV_TRANSPOSE: {
        dmlcl_openvino_transpose_args a = {
            .data = &f->data, .data_type = f->type, .input_order = &l};
        return dmlcl_openvino_transpose(1, &a, r);
    }
    case ONNX_TRANSPOSE: {
        dmlcl_onnx_transpose_args a = {
            .data = &f->data, .data_type = f->type, .perm = f->list, .perm_count = f->count};
        return dmlcl_onnx_transpose(13, &a, r);
    }
    default: {
        dmlcl_openvino_reverse_args a = {
            .data = &f->data, .data_type = f->type, .axis = &l, .mode = f->mask ? "mask" : "index"};
        return dmlcl_openvino_reverse(1, &a, r);
    }
    }
}

/* Mostly valid lists, with a broken rule now and then; small tensors of rank 0..10. */
static void fe_generate(fe_case *f, ref_rng *rng)
{
    memset(f, 0, sizeof *f);
    f->kind = (fe_kind)ref_rng_below(rng, 5);
    f->type = all_types[ref_rng_below(rng, COUNT_OF(all_types))];
    f->list_type = f->kind == ONNX_TILE ? DML_TENSOR_DATA_TYPE_INT64
                                        : list_types[ref_rng_below(rng, COUNT_OF(list_types))];
    uint32_t rank = (uint32_t)ref_rng_below(rng, 11);
    uint64_t total = 1;
    f->data.rank = rank;
    for (uint32_t i = 0; i < rank; ++i) {
        uint32_t cap = total > 400 ? 1 : 4;
        f->data.dims[i] = ref_rng_chance(rng, 5) ? 0 : 1 + (int64_t)ref_rng_below(rng, cap);
        total *= f->data.dims[i] ? (uint64_t)f->data.dims[i] : 1;
    }
    if (f->kind == OV_TILE || f->kind == ONNX_TILE) {
        f->count = f->kind == ONNX_TILE ? rank : (uint32_t)ref_rng_below(rng, rank + 3);
        if (f->count > REF_MAX_DIMS)
            f->count = REF_MAX_DIMS;
        /* At most 3 repeats other than 1: the output stays under ~50k elements. */
        for (uint32_t i = 0, big = 0; i < f->count; ++i) {
            f->list[i] = big < 3 && ref_rng_chance(rng, 50) ? (int64_t)ref_rng_below(rng, 4) : 1;
            big += f->list[i] != 1;
        }
        if (ref_rng_chance(rng, 8) && f->count) /* negative */
            f->list[ref_rng_below(rng, f->count)] = -1;
        if (f->kind == ONNX_TILE && ref_rng_chance(rng, 5)) /* wrong length */
            f->count = f->count ? f->count - 1 : 1;
    } else if (f->kind == OV_REVERSE) {
        f->mask = ref_rng_chance(rng, 40);
        if (f->mask) {
            f->list_type = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
            f->count = ref_rng_chance(rng, 8) ? rank + 1 : rank;
            for (uint32_t i = 0; i < f->count; ++i)
                f->list[i] = ref_rng_chance(rng, 50);
        } else {
            f->count = (uint32_t)ref_rng_below(rng, rank + (ref_rng_chance(rng, 8) ? 2 : 1));
            for (uint32_t i = 0; i < f->count; ++i)
                f->list[i] = ref_rng_range(rng, -(int64_t)rank - 1, rank);
        }
    } else {
        f->count = ref_rng_chance(rng, 20) ? 0 : rank;
        for (uint32_t i = 0; i < f->count; ++i)
            f->list[i] = i;
        for (uint32_t i = f->count; i > 1; --i) { /* shuffle */
            uint32_t j = (uint32_t)ref_rng_below(rng, i);
            int64_t t = f->list[i - 1];
            f->list[i - 1] = f->list[j];
            f->list[j] = t;
        }
        if (f->count && ref_rng_chance(rng, 8))
            f->list[ref_rng_below(rng, f->count)] = ref_rng_range(rng, -2, rank + 1);
    }
}

/*
 * The values the list's type holds (what the front-end reads): unsigned
 * types wrap negatives, and UINT64 values over INT64_MAX read as INT64_MAX
 * (dmlcl/frontends.h).
 */
static void fe_typed(fe_case *f)
{
    size_t w = ref_type_size(f->list_type);
    bool is_signed = ref_type_is_signed_int(f->list_type);
    for (uint32_t i = 0; i < f->count && f->list_type != DMLCL_TENSOR_DATA_TYPE_BOOLEAN; ++i) {
        uint64_t u = (uint64_t)f->list[i], m = w == 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;
        u &= m;
        if (is_signed && w < 8 && (u >> (8 * w - 1)))
            f->list[i] = (int64_t)(u | ~m);
        else if (!is_signed && u > INT64_MAX)
            f->list[i] = INT64_MAX;
        else
            f->list[i] = (int64_t)u;
    }
}

/* What the oracle's rules say: the output shape, and how to compute it. */
typedef struct fe_expect {
    bool valid;
    const char *why;
    uint32_t rank;
    int64_t in_dims[REF_MAX_DIMS], out_dims[REF_MAX_DIMS];
    uint32_t perm[REF_MAX_DIMS];
    bool reversed[REF_MAX_DIMS];
    bool too_big; /* valid, but a dimension or the element count is over 2^32-1 */
} fe_expect;

static void fe_oracle(const fe_case *f, fe_expect *e)
{
    const dmlcl_shape *d = &f->data;
    memset(e, 0, sizeof *e);
    e->rank = d->rank;
    memcpy(e->in_dims, d->dims, d->rank * sizeof *d->dims);
    memcpy(e->out_dims, d->dims, d->rank * sizeof *d->dims);
    if (f->kind == OV_TILE || f->kind == ONNX_TILE) {
        e->valid = ref_tile_shape(d->rank, d->dims, f->count, f->list, f->kind == ONNX_TILE,
                                  &e->rank, e->in_dims, e->out_dims, &e->why);
    } else if (f->kind == OV_REVERSE) {
        e->valid = ref_reverse_axes(d->rank, f->mask, f->count, f->list, e->reversed, &e->why);
    } else {
        e->valid = ref_transpose_order(d->rank, f->count, f->list, e->perm, &e->why);
        for (uint32_t k = 0; e->valid && k < d->rank; ++k)
            e->out_dims[k] = d->dims[e->perm[k]];
    }
    uint64_t count = 1;
    for (uint32_t k = 0; e->valid && k < e->rank; ++k) {
        e->too_big |= e->out_dims[k] > UINT32_MAX;
        count = count && e->out_dims[k] <= UINT32_MAX ? count * (uint64_t)e->out_dims[k] : 0;
    }
    e->too_big |= count > UINT32_MAX;
}

/* Packed ops_tensor of a framework shape (0-D as {1}). */
static void fe_tensor(ops_tensor *t, const char *name, bool output, DML_TENSOR_DATA_TYPE type,
                      uint32_t rank, const int64_t *dims)
{
    uint32_t sizes[REF_MAX_DIMS] = {1};
    for (uint32_t i = 0; i < rank; ++i)
        sizes[i] = (uint32_t)dims[i];
    ops_tensor_init(t, name, output, type, rank ? rank : 1, sizes, NULL, 0, 0);
}

static void fe_check(const fe_case *f, unsigned n)
{
    static view_case c;
    static char what[4096];
    fe_expect e;
    fe_oracle(f, &e);
    dmlcl_frontend_result r;
    HRESULT hr = fe_call(f, &r);
    cr_assert_eq(SUCCEEDED(hr), e.valid && !e.too_big,
                 "front-end case %u (%s, data rank %u, %u list values): front-end %s (%s), "
                 "oracle %s (%s); seed 0x%" PRIx64,
                 n, fe_names[f->kind], f->data.rank, f->count, dmlcl_hresult_name(hr),
                 dmlcl_last_error(), e.valid ? "accepts" : "rejects", e.why ? e.why : "",
                 ops_base_seed(&run_seed));
    if (!e.valid) {
        cr_assert_eq(hr, E_INVALIDARG, "case %u: %s", n, dmlcl_last_error());
        return;
    }
    if (e.too_big) {
        cr_assert_eq(hr, DXGI_ERROR_UNSUPPORTED, "case %u: %s", n, dmlcl_last_error());
        return;
    }
    cr_assert_eq(r.output_shape.rank, e.rank, "case %u: output rank", n);
    cr_assert(!memcmp(r.output_shape.dims, e.out_dims, e.rank * sizeof *e.out_dims),
              "case %u (%s): output shape", n, fe_names[f->kind]);

    /* Run the front-end's description on packed data and output, against the oracle. */
    ref_rng rng = ops_case_rng(&run_seed, "frontends_run", n);
    memset(&c, 0, sizeof c);
    c.test = "frontends";
    c.op = fe_names[f->kind];
    c.number = n;
    fe_tensor(&c.input, "InputTensor", false, f->type, f->data.rank, f->data.dims);
    fe_tensor(&c.output, "OutputTensor", true, f->type, e.rank, e.out_dims);
    cr_assert_eq(c.input.buffer.TotalTensorSizeInBytes, r.buffers[0].TotalTensorSizeInBytes);
    cr_assert_eq(c.output.buffer.TotalTensorSizeInBytes, r.buffers[1].TotalTensorSizeInBytes);
    c.desc = r.desc; /* the front-end's own description, its tensors in r */
    ops_memory_unary(&c.mem, &rng, &c.input, &c.output, false, f->type);
    ref_tensor vi = ops_view(&c.mem, OPS_INIT, &c.input);
    ref_tensor vo = ops_view(&c.mem, OPS_EXPECT, &c.output);
    /* The framework's shapes: the promoted input of a tile, 0-D as rank 0. */
    vi.rank = e.rank;
    vo.rank = e.rank;
    for (uint32_t k = 0; k < e.rank; ++k) {
        vi.sizes[k] =
            (uint32_t)(f->kind == OV_TILE || f->kind == ONNX_TILE ? e.in_dims[k] : f->data.dims[k]);
        vo.sizes[k] = (uint32_t)e.out_dims[k];
    }
    uint32_t ps[REF_MAX_DIMS];
    ref_packed_strides(e.rank, vi.sizes, ps);
    for (uint32_t k = 0; k < e.rank; ++k)
        vi.strides[k] = ps[k];
    ref_packed_strides(e.rank, vo.sizes, ps);
    for (uint32_t k = 0; k < e.rank; ++k)
        vo.strides[k] = ps[k];
    bool ok = f->kind == OV_TILE || f->kind == ONNX_TILE ? ref_tile(&vi, &vo)
              : f->kind == OV_REVERSE                    ? ref_reverse(&vi, &vo, e.reversed)
                                                         : ref_transpose(&vi, &vo, e.perm);
    cr_assert(ok, "%s\n  test bug: the reference rejected the case",
              describe(&c, what, sizeof what));
    ops_poison_output(&c.mem, &c.output);
    run(&c);
    ops_memory_release(&c.mem);
}

Test(views, frontends_against_oracle)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(400); ++n) {
        fe_case f;
        ref_rng rng = ops_case_rng(&run_seed, "frontends", n);
        fe_generate(&f, &rng);
        fe_typed(&f);
        if (only < 0 || (unsigned long)only == n)
            fe_check(&f, n);
    }
}
