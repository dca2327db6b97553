/* SPDX-License-Identifier: MIT */
/*
 * gather_ext.c: the gathers beyond DML_GATHER on the device against the C
 * reference (ref_gather_ext.h): DMLCL_GATHER1 (batch dims, CLAMP / ZERO /
 * ERROR, with and without negative indices), DML_GATHER_ELEMENTS and
 * DMLCL_GATHER_ELEMENTS1, DML_GATHER_ND, DML_GATHER_ND1 and DMLCL_GATHER_ND2.
 *
 * Random cases cover ranks 1..6, leading-1 padding, every data type by width
 * (extension types on the extension operators), every index type the
 * operator takes, negative and out-of-range indices, empty tensors,
 * padded / transposed / broadcast / aliasing strides, oversized
 * TotalTensorSizeInBytes and guarded bindings at non-zero offsets. Under
 * ERROR a case with a bad index must fail the dispatch with
 * DMLCL_E_INDEX_OUT_OF_RANGE naming the reference's first offending position,
 * and still write only zeros and valid elements inside the output binding.
 * Every failure prints the seed and the case; DMLCL_TEST_SEED replays a run,
 * DMLCL_TEST_CASE=<n> runs one case, DMLCL_TEST_VERBOSE=1 prints each case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_gather_ext.h"

#define EXT_DEFAULT_SEED 0x646D6C636C455854ull
#define EXT_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE dml_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE ext_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32,     DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_UINT16,      DML_TENSOR_DATA_TYPE_FLOAT64,
    DMLCL_TENSOR_DATA_TYPE_BOOLEAN,   DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
};
static const DML_TENSOR_DATA_TYPE dml_index_types[] = {
    DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE ext_index_types[] = {
    DML_TENSOR_DATA_TYPE_INT8,   DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32,  DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_INT64,  DML_TENSOR_DATA_TYPE_UINT64,
};

typedef enum ext_op {
    EXT_GATHER1,
    EXT_ELEMENTS,  /* DML_GATHER_ELEMENTS */
    EXT_ELEMENTS1, /* DMLCL_GATHER_ELEMENTS1 */
    EXT_ND,        /* DML_GATHER_ND */
    EXT_ND1,       /* DML_GATHER_ND1 */
    EXT_ND2,       /* DMLCL_GATHER_ND2 */
} ext_op;

static const char *const op_names[] = {"GATHER1",   "GATHER_ELEMENTS", "GATHER_ELEMENTS1",
                                       "GATHER_ND", "GATHER_ND1",      "GATHER_ND2"};
static const char *const policy_names[] = {"CLAMP", "ZERO", "ERROR"};

/* ---- Cases ------------------------------------------------------------------------ */

typedef struct ext_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    ext_op op;
    bool ext;         /* extension operator: extension types, 0 sizes, policies */
    bool host;        /* dmlcl_compiled_operator_execute instead of a submit mode */
    bool force_error; /* ERROR with invalid indices */
    DML_TENSOR_DATA_TYPE type, index_type;
    /* Meaningful dims (the framework's shapes) and each tensor's leading 1s. */
    uint32_t r, q, out_rank, axis, batch;
    uint32_t in[REF_MAX_DIMS], idx[REF_MAX_DIMS], out[REF_MAX_DIMS];
    uint32_t pad[3];
    ref_policy policy;
    bool wrap;
    unsigned negative_percent, invalid_percent;
    ops_layout layout[3];
    bool shared;
    ops_submit submit;
    ops_tensor input, indices, output;
    union {
        DMLCL_GATHER1_OPERATOR_DESC g1;
        DML_GATHER_ELEMENTS_OPERATOR_DESC ge;
        DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC ge1;
        DML_GATHER_ND_OPERATOR_DESC nd;
        DML_GATHER_ND1_OPERATOR_DESC nd1;
        DMLCL_GATHER_ND2_OPERATOR_DESC nd2;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    int64_t bad; /* ERROR: the reference's first offending position, or -1 */
} ext_case;

static ops_seed run_seed = OPS_SEED(EXT_DEFAULT_SEED);

/* Small dims; sometimes 1, and (extension operators) sometimes 0. */
static uint32_t random_dim(ref_rng *rng, const ext_case *c, uint32_t rank)
{
    uint32_t cap = rank <= 1 ? 40 : rank == 2 ? 12 : rank <= 4 ? 6 : 3;
    if (c->ext && ref_rng_chance(rng, 3))
        return 0;
    if (ref_rng_chance(rng, 20))
        return 1;
    return 1 + (uint32_t)ref_rng_below(rng, cap);
}

static uint64_t count(uint32_t rank, const uint32_t *sizes)
{
    return ref_element_count(rank, sizes);
}

/* GATHER1: axis, batch dims, index dims; output = in[<axis] ++ idx[b..] ++ in[>axis]. */
static void shape_gather1(ext_case *c, ref_rng *rng)
{
    c->r = 1 + (uint32_t)ref_rng_below(rng, 5);
    c->q = (uint32_t)ref_rng_below(rng, 4);
    c->axis = (uint32_t)ref_rng_below(rng, c->r);
    uint32_t bmax = c->axis < c->q ? c->axis : c->q;
    c->batch = ref_rng_chance(rng, 50) ? (uint32_t)ref_rng_below(rng, bmax + 1) : 0;
    for (;;) {
        for (uint32_t i = 0; i < c->r; ++i)
            c->in[i] = random_dim(rng, c, c->r);
        for (uint32_t j = 0; j < c->q; ++j)
            c->idx[j] = j < c->batch ? c->in[j] : random_dim(rng, c, c->q + 1);
        if (c->policy == REF_CLAMP && c->in[c->axis] == 0)
            c->in[c->axis] = 1;
        c->out_rank = 0;
        for (uint32_t i = 0; i < c->axis; ++i)
            c->out[c->out_rank++] = c->in[i];
        for (uint32_t j = c->batch; j < c->q; ++j)
            c->out[c->out_rank++] = c->idx[j];
        for (uint32_t i = c->axis + 1; i < c->r; ++i)
            c->out[c->out_rank++] = c->in[i];
        if (count(c->r, c->in) <= EXT_MAX_ELEMENTS && count(c->q, c->idx) <= EXT_MAX_ELEMENTS &&
            count(c->out_rank, c->out) <= EXT_MAX_ELEMENTS)
            return;
    }
}

static void shape_elements(ext_case *c, ref_rng *rng)
{
    c->r = c->q = c->out_rank = 1 + (uint32_t)ref_rng_below(rng, 5);
    c->axis = (uint32_t)ref_rng_below(rng, c->r);
    for (;;) {
        for (uint32_t i = 0; i < c->r; ++i) {
            c->in[i] = random_dim(rng, c, c->r);
            c->idx[i] = i == c->axis ? random_dim(rng, c, c->r) : c->in[i];
        }
        if (c->policy == REF_CLAMP && c->in[c->axis] == 0)
            c->in[c->axis] = 1;
        memcpy(c->out, c->idx, sizeof c->out);
        if (count(c->r, c->in) <= EXT_MAX_ELEMENTS && count(c->q, c->idx) <= EXT_MAX_ELEMENTS)
            return;
    }
}

/* ND: batch dims, tuples of m; output = idx[..q-1) ++ in[b+m..r). */
static void shape_nd(ext_case *c, ref_rng *rng)
{
    c->r = 1 + (uint32_t)ref_rng_below(rng, 5);
    c->q = 1 + (uint32_t)ref_rng_below(rng, 4);
    uint32_t lo = c->r < c->q ? c->r : c->q;
    c->batch = c->op == EXT_ND ? 0 : (uint32_t)ref_rng_below(rng, lo);
    uint32_t m = 1 + (uint32_t)ref_rng_below(rng, c->r - c->batch);
    for (;;) {
        for (uint32_t i = 0; i < c->r; ++i)
            c->in[i] = random_dim(rng, c, c->r);
        for (uint32_t j = 0; j + 1 < c->q; ++j)
            c->idx[j] = j < c->batch ? c->in[j] : random_dim(rng, c, c->q);
        c->idx[c->q - 1] = m;
        for (uint32_t k = 0; k < m && c->policy == REF_CLAMP; ++k)
            if (c->in[c->batch + k] == 0)
                c->in[c->batch + k] = 1;
        c->out_rank = 0;
        for (uint32_t j = 0; j + 1 < c->q; ++j)
            c->out[c->out_rank++] = c->idx[j];
        for (uint32_t i = c->batch + m; i < c->r; ++i)
            c->out[c->out_rank++] = c->in[i];
        if (count(c->r, c->in) <= EXT_MAX_ELEMENTS && count(c->q, c->idx) <= EXT_MAX_ELEMENTS &&
            count(c->out_rank, c->out) <= EXT_MAX_ELEMENTS)
            return;
    }
}

/* A tensor with `pad` leading 1s before its meaningful sizes (at least 1 dim). */
static void make_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                        DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                        uint32_t pad, ops_layout *layout)
{
    uint32_t full[REF_MAX_DIMS], strides[REF_MAX_DIMS];
    for (uint32_t i = 0; i < pad; ++i)
        full[i] = 1;
    memcpy(full + pad, sizes, rank * sizeof *sizes);
    uint32_t n = pad + rank;
    bool empty = count(n, full) == 0;
    *layout = empty ? OPS_LAYOUT_NULL : ops_layout_random(rng, output);
    bool explicit_strides = ops_layout_strides(rng, *layout, n, full, strides);
    uint64_t extra = !empty && ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    ops_tensor_init(t, name, output, type, n, full, explicit_strides ? strides : NULL, extra, 0);
}

static void descs(ext_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->input), *idx = ops_tensor_desc(&c->indices),
                          *out = ops_tensor_desc(&c->output);
    DMLCL_OUT_OF_RANGE_POLICY policy = (DMLCL_OUT_OF_RANGE_POLICY)c->policy;
    switch (c->op) {
    case EXT_GATHER1:
        c->d.g1 =
            (DMLCL_GATHER1_OPERATOR_DESC){in, idx, out, c->axis, c->q, c->batch, policy, c->wrap};
        c->desc.Type = DMLCL_OPERATOR_GATHER1;
        break;
    case EXT_ELEMENTS:
        c->d.ge = (DML_GATHER_ELEMENTS_OPERATOR_DESC){in, idx, out, c->axis + c->pad[0]};
        c->desc.Type = DML_OPERATOR_GATHER_ELEMENTS;
        break;
    case EXT_ELEMENTS1:
        c->d.ge1 =
            (DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC){in, idx, out, c->axis + c->pad[0], policy};
        c->desc.Type = DMLCL_OPERATOR_GATHER_ELEMENTS1;
        break;
    case EXT_ND:
        c->d.nd = (DML_GATHER_ND_OPERATOR_DESC){in, idx, out, c->r, c->q};
        c->desc.Type = DML_OPERATOR_GATHER_ND;
        break;
    case EXT_ND1:
        c->d.nd1 = (DML_GATHER_ND1_OPERATOR_DESC){in, idx, out, c->r, c->q, c->batch};
        c->desc.Type = DML_OPERATOR_GATHER_ND1;
        break;
    case EXT_ND2:
        c->d.nd2 = (DMLCL_GATHER_ND2_OPERATOR_DESC){in, idx, out, c->r, c->q, c->batch, policy};
        c->desc.Type = DMLCL_OPERATOR_GATHER_ND2;
        break;
    }
    c->desc.Desc = &c->d;
}

/*
 * Padding: DirectML's operators share one DimensionCount (GATHER_ELEMENTS
 * pads all three alike; GATHER_ND/ND1 pad each up to the largest rank);
 * the extensions pad each tensor independently, the scalar cases need one.
 */
static void choose_padding(ext_case *c, ref_rng *rng)
{
    uint32_t rank[3] = {c->r, c->q, c->out_rank};
    if (c->op == EXT_ELEMENTS) {
        uint32_t p = (uint32_t)ref_rng_below(rng, 3);
        c->pad[0] = c->pad[1] = c->pad[2] = p;
        return;
    }
    if (c->op == EXT_ND || c->op == EXT_ND1) {
        uint32_t d = rank[0] > rank[1] ? rank[0] : rank[1];
        d = d > rank[2] ? d : rank[2];
        d += (uint32_t)ref_rng_below(rng, 2);
        for (int k = 0; k < 3; ++k)
            c->pad[k] = d - rank[k];
        return;
    }
    for (int k = 0; k < 3; ++k) {
        bool may = c->op != EXT_ELEMENTS1 && (k == 1 || k == 2);
        c->pad[k] = may && ref_rng_chance(rng, 30) ? 1 + (uint32_t)ref_rng_below(rng, 2) : 0;
        if (rank[k] + c->pad[k] == 0)
            c->pad[k] = 1;
    }
    if (c->op == EXT_ELEMENTS1)
        c->pad[0] = c->pad[1] = c->pad[2] = 0;
}

static void generate(ext_case *c, ref_rng *rng)
{
    c->ext = c->op == EXT_GATHER1 || c->op == EXT_ELEMENTS1 || c->op == EXT_ND2;
    c->type = c->ext ? ext_types[ref_rng_below(rng, COUNT_OF(ext_types))]
                     : dml_types[ref_rng_below(rng, COUNT_OF(dml_types))];
    c->index_type = c->ext ? ext_index_types[ref_rng_below(rng, COUNT_OF(ext_index_types))]
                           : dml_index_types[ref_rng_below(rng, COUNT_OF(dml_index_types))];
    c->policy = c->force_error ? REF_ERROR : c->ext ? (ref_policy)ref_rng_below(rng, 3) : REF_CLAMP;
    c->wrap = c->op != EXT_GATHER1 || ref_rng_chance(rng, 75);
    if (c->op == EXT_GATHER1)
        shape_gather1(c, rng);
    else if (c->op == EXT_ELEMENTS || c->op == EXT_ELEMENTS1)
        shape_elements(c, rng);
    else
        shape_nd(c, rng);
    c->negative_percent = ref_type_is_signed_int(c->index_type) ? 25 : 0;
    c->invalid_percent = c->force_error            ? (unsigned)ref_rng_range(rng, 10, 50)
                         : c->policy == REF_ERROR  ? 0
                         : ref_rng_chance(rng, 50) ? 0
                                                   : (unsigned)ref_rng_range(rng, 1, 25);
    choose_padding(c, rng);
    make_tensor(&c->input, rng, "InputTensor", false, c->type, c->r, c->in, c->pad[0],
                &c->layout[0]);
    make_tensor(&c->indices, rng, "IndicesTensor", false, c->index_type, c->q, c->idx, c->pad[1],
                &c->layout[1]);
    make_tensor(&c->output, rng, "OutputTensor", true, c->type, c->out_rank, c->out, c->pad[2],
                &c->layout[2]);
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    descs(c);
}

/* A view of t's meaningful dims (its leading pad 1s dropped). */
static ref_tensor meaningful(const ext_case *c, const ops_tensor *t, uint32_t pad)
{
    ref_tensor v = ops_view(&c->mem, OPS_EXPECT, t);
    v.rank -= pad;
    memmove(v.sizes, v.sizes + pad, v.rank * sizeof v.sizes[0]);
    memmove(v.strides, v.strides + pad, v.rank * sizeof v.strides[0]);
    return v;
}

static uint64_t slots(const ops_tensor *t)
{
    size_t w = ref_type_size(t->buffer.DataType);
    return w ? t->buffer.TotalTensorSizeInBytes / w : 0;
}

/* The axis size the indices address (the first gathered dim for ND). */
static uint32_t index_axis_size(const ext_case *c)
{
    return c->op == EXT_ND || c->op == EXT_ND1 || c->op == EXT_ND2 ? c->in[c->batch]
                                                                   : c->in[c->axis];
}

static void fill(ext_case *c, ref_rng *rng)
{
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots(&c->input));
    unsigned char *idx = ops_ptr(&c->mem, OPS_INIT, &c->indices);
    uint32_t n = index_axis_size(c);
    if (n == 0)
        ref_rng_bytes(rng, idx, slots(&c->indices) * ref_type_size(c->index_type));
    else
        ops_fill_indices(rng, c->index_type, idx, slots(&c->indices), n, c->negative_percent,
                         c->invalid_percent);
    ops_memory_snapshot(&c->mem);
    ref_tensor in = meaningful(c, &c->input, c->pad[0]);
    ref_tensor x = meaningful(c, &c->indices, c->pad[1]);
    ref_tensor out = meaningful(c, &c->output, c->pad[2]);
    bool ok;
    if (c->op == EXT_GATHER1)
        ok = ref_gather1(&in, &x, &out, c->axis, c->batch, c->policy, c->wrap, &c->bad);
    else if (c->op == EXT_ELEMENTS || c->op == EXT_ELEMENTS1)
        ok = ref_gather_elements(&in, &x, &out, c->axis, c->policy, &c->bad);
    else
        ok = ref_gather_nd(&in, &x, &out, c->batch, c->policy, &c->bad);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (count(out.rank, out.sizes) != 0) /* see run(): empty tensors */
        ops_poison_output(&c->mem, &c->output);
}

static void place(ext_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    ops_memory_place(&c->mem, rng, &c->indices, c->shared);
    ops_memory_place(&c->mem, rng, &c->output, c->shared);
    ops_memory_alloc(&c->mem, rng);
}

static const char *describe(const ext_case *c, char *buf, size_t len)
{
    char head[512], in[512], idx[512], out[512];
    snprintf(
        buf, len,
        "%s\n"
        "  axis %u, batch %u, meaningful ranks %u/%u/%u, pads %u/%u/%u; policy %s, wrap %d "
        "(first bad index %" PRId64 "); negative %u%%, invalid %u%%; layouts %s/%s/%s; %s "
        "buffers; submit %s\n"
        "  %s\n  %s\n  %s",
        ops_replay(head, sizeof head, op_names[c->op], "gather_ext", c->test, c->number, c->seed),
        c->axis, c->batch, c->r, c->q, c->out_rank, c->pad[0], c->pad[1], c->pad[2],
        policy_names[c->policy], c->wrap, c->bad, c->negative_percent, c->invalid_percent,
        ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]), ops_layout_name(c->layout[2]),
        c->shared ? "shared" : "separate", c->host ? "host-execute" : ops_submit_name(c->submit),
        ops_tensor_describe(&c->input, in, sizeof in),
        ops_tensor_describe(&c->indices, idx, sizeof idx),
        ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

/*
 * Runs the case and compares: success, or (ERROR with a bad index) the
 * dispatch's DMLCL_E_INDEX_OUT_OF_RANGE naming the reference's position; in
 * both the memory must match the reference (bad elements zero).
 */
static void run(ext_case *c)
{
    static char what[4096], diff[4096], want[64];
    ops_tensor *inputs[2] = {&c->input, &c->indices}, *outputs[1] = {&c->output};
    /* Empty tensors stay out of the list (the harness would visit one element of
     * each): their bindings are then compared as bytes that must not change. */
    ops_tensor *all[3];
    int n_all = 0;
    for (int k = 0; k < 3; ++k) {
        ops_tensor *t = k == 0 ? &c->input : k == 1 ? &c->indices : &c->output;
        if (count(t->buffer.DimensionCount, t->sizes) != 0)
            all[n_all++] = t;
    }
    const char *stage = "";
    if (c->bad >= 0)
        c->host = false; /* execute copies no output back after a failed dispatch */
    HRESULT hr = c->host
                     ? ops_run_host(&c->desc, &c->mem, inputs, 2, outputs, 1, &stage)
                     : ops_run_device(&c->desc, &c->mem, inputs, 2, outputs, 1, c->submit, &stage);
    if (c->bad >= 0) {
        snprintf(want, sizeof want, "IndicesTensor element %" PRId64 " (", c->bad);
        cr_assert_eq(hr, DMLCL_E_INDEX_OUT_OF_RANGE, "%s\n  expected an index error at %s, got %s",
                     describe(c, what, sizeof what), want, dmlcl_hresult_name(hr));
        cr_assert(strstr(dmlcl_last_error(), want) != NULL, "%s\n  message \"%s\" lacks \"%s\"",
                  describe(c, what, sizeof what), dmlcl_last_error(), want);
        if (!c->host)
            ops_download(&c->mem);
    } else {
        cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", describe(c, what, sizeof what), stage,
                  dmlcl_hresult_name(hr), dmlcl_last_error());
    }
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", describe(c, what, sizeof what), bad,
              diff);
}

static void cases(const char *test, ext_op op, unsigned n, bool force_error)
{
    static ext_case c;
    long only = ops_only_case();
    bool verbose = ops_verbose();
    for (unsigned k = 0; k < ops_case_count(n); ++k) {
        if (only >= 0 && (unsigned long)only != k)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, k);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = k;
        c.op = op;
        c.force_error = force_error;
        c.host = k % 8 == 7;
        generate(&c, &rng);
        place(&c, &rng);
        fill(&c, &rng);
        if (verbose) {
            static char what[4096];
            fprintf(stderr, "%s\n", describe(&c, what, sizeof what));
        }
        run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(gather_ext);

Test(gather_ext, gather1)
{
    cases("gather1", EXT_GATHER1, 60, false);
}

Test(gather_ext, gather1_error)
{
    cases("gather1_error", EXT_GATHER1, 16, true);
}

/*
 * One DMLCL_GATHER1 of a [rows, cols] input by `picks` 1-D indices along
 * `axis` (0 or 1) under `policy`: 25% of them negative (wrapped) where the
 * index type is signed, invalid_percent out of range, the output packed or
 * with out_strides, against the reference.
 */
static void gather1_2d(const char *test, unsigned number, uint32_t axis, DML_TENSOR_DATA_TYPE type,
                       DML_TENSOR_DATA_TYPE index_type, ref_policy policy, uint32_t rows,
                       uint32_t cols, uint32_t picks, unsigned invalid_percent,
                       const uint32_t *out_strides)
{
    static ext_case c;
    ref_rng rng = ops_case_rng(&run_seed, test, number);
    memset(&c, 0, sizeof c);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.number = number;
    c.op = EXT_GATHER1;
    c.ext = true;
    c.force_error = policy == REF_ERROR;
    c.type = type;
    c.index_type = index_type;
    c.policy = policy;
    c.wrap = true;
    c.r = 2;
    c.q = 1;
    c.axis = axis;
    c.out_rank = 2;
    c.in[0] = rows;
    c.in[1] = cols;
    c.idx[0] = picks;
    c.out[0] = axis == 0 ? picks : rows;
    c.out[1] = axis == 0 ? cols : picks;
    c.negative_percent = ref_type_is_signed_int(c.index_type) ? 25 : 0;
    c.invalid_percent = invalid_percent;
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 2, c.in, NULL, 0, 0);
    ops_tensor_init(&c.indices, "IndicesTensor", false, c.index_type, 1, c.idx, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 2, c.out, out_strides, 0, 0);
    descs(&c);
    place(&c, &rng);
    fill(&c, &rng);
    run(&c);
    ops_memory_release(&c.mem);
}

/*
 * DMLCL_GATHER1 of whole rows along axis 0 with outputs of 32 MiB and more,
 * where CPUs store whole lines non-temporally and prefetch rows ahead
 * (cl/indexed.cl ROW_INDEX): under ZERO and ERROR a row whose index is out
 * of range is zeros, the rest are copied, and ERROR names the first bad
 * index. 4 KiB f32 rows, 2060-byte u16 rows (starting anywhere in a line),
 * 2000-byte i64 rows with the output rows padded by 3 elements.
 */
Test(gather_ext, gather1_streaming_rows)
{
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT16,
                                          DML_TENSOR_DATA_TYPE_INT64};
    const DML_TENSOR_DATA_TYPE idx_types[] = {
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT32};
    const ref_policy policies[] = {REF_ZERO, REF_ERROR, REF_ZERO};
    const uint32_t rows[] = {3001, 5003, 2003}, cols[] = {1024, 1030, 250},
                   picks[] = {8209, 16411, 17011};
    for (unsigned n = 0; n < COUNT_OF(types); ++n) {
        const uint32_t padded[] = {cols[n] + 3, 1};
        gather1_2d("gather1_streaming_rows", n, 0, types[n], idx_types[n], policies[n], rows[n],
                   cols[n], picks[n], 5, n == 2 ? padded : NULL);
    }
}

/*
 * DMLCL_GATHER1 along the inner axis of [rows, cols] (every row shares the
 * indices; the gathered axis contiguous: cl/indexed.cl SHARED_INDEX with
 * SPREAD on CPUs): blocks of 2048 indices resolved once, a block with every
 * index in range gathered line by line while the next row's span is
 * prefetched, one with an index out of range unit by unit (zeros under
 * ZERO and ERROR, the first bad index named under ERROR). Picks over three
 * blocks, with 0% and 3% of them out of range, under each policy; 4-, 2-
 * and 1-byte elements, signed (wrapped negative) and unsigned indices.
 */
Test(gather_ext, gather1_inner_axis)
{
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT16,
                                          DML_TENSOR_DATA_TYPE_UINT8};
    const DML_TENSOR_DATA_TYPE idx_types[] = {
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT32};
    const ref_policy policies[] = {REF_ZERO, REF_ERROR, REF_CLAMP};
    const uint32_t rows[] = {37, 53, 41}, cols[] = {5003, 4099, 9001}, picks[] = {4501, 4352, 6145};
    for (unsigned n = 0; n < 2 * COUNT_OF(types) * COUNT_OF(policies); ++n) {
        unsigned t = n / 2 % COUNT_OF(types), p = n / (2 * COUNT_OF(types));
        gather1_2d("gather1_inner_axis", n, 1, types[t], idx_types[t], policies[p], rows[t],
                   cols[t], picks[t], n % 2 ? 3 : 0, NULL);
    }
}

Test(gather_ext, gather_elements)
{
    cases("gather_elements", EXT_ELEMENTS, 24, false);
}

Test(gather_ext, gather_elements1)
{
    cases("gather_elements1", EXT_ELEMENTS1, 24, false);
}

Test(gather_ext, gather_elements1_error)
{
    cases("gather_elements1_error", EXT_ELEMENTS1, 8, true);
}

Test(gather_ext, gather_nd)
{
    cases("gather_nd", EXT_ND, 20, false);
}

Test(gather_ext, gather_nd1)
{
    cases("gather_nd1", EXT_ND1, 24, false);
}

Test(gather_ext, gather_nd2)
{
    cases("gather_nd2", EXT_ND2, 24, false);
}

Test(gather_ext, gather_nd2_error)
{
    cases("gather_nd2_error", EXT_ND2, 8, true);
}

/* ---- The reference against the documents (host only) ------------------------------------ */

Test(gather_ext_ref, documented_examples)
{
    /* OpenVINO Gather-8 example 7: indices [3, 10, -20] on [1..5] -> [4, 0, 0] under ZERO. */
    int32_t data[5] = {1, 2, 3, 4, 5}, idx[3] = {3, 10, -20}, out[3];
    uint32_t five = 5, three = 3;
    ref_tensor d = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 1, &five, NULL, data);
    ref_tensor x = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 1, &three, NULL, idx);
    ref_tensor o = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 1, &three, NULL, out);
    int64_t bad;
    cr_assert(ref_gather1(&d, &x, &o, 0, 0, REF_ZERO, true, &bad));
    cr_expect(out[0] == 4 && out[1] == 0 && out[2] == 0, "example 7: %d %d %d", out[0], out[1],
              out[2]);
    cr_assert(ref_gather1(&d, &x, &o, 0, 0, REF_ERROR, true, &bad));
    cr_expect_eq(bad, 1, "the first offending index is element 1");
    /* Gather-8 example 2: batch_dims 1, axis 1. */
    int32_t d2[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, x2[6] = {0, 0, 4, 4, 0, 0}, o2[6];
    static const int32_t e2[6] = {1, 1, 5, 10, 6, 6};
    uint32_t s25[2] = {2, 5}, s23[2] = {2, 3};
    d = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 2, s25, NULL, d2);
    x = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 2, s23, NULL, x2);
    o = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 2, s23, NULL, o2);
    cr_assert(ref_gather1(&d, &x, &o, 1, 1, REF_ZERO, true, &bad));
    cr_expect(memcmp(o2, e2, sizeof e2) == 0, "example 2");
    /* DML_GATHER_ND1 example 2 (facts 4.7). */
    float nd_in[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nd_out[6];
    uint32_t nd_idx[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    static const float nd_want[6] = {0, 3, 7, 4, 9, 10};
    uint32_t s322[3] = {3, 2, 2}, s32[2] = {3, 2};
    d = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 3, s322, NULL, nd_in);
    x = ref_tensor_view(DML_TENSOR_DATA_TYPE_UINT32, 3, s322, NULL, nd_idx);
    o = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s32, NULL, nd_out);
    cr_assert(ref_gather_nd(&d, &x, &o, 1, REF_CLAMP, &bad));
    cr_expect(memcmp(nd_out, nd_want, sizeof nd_want) == 0, "GATHER_ND1 example 2");
    /* DML_GATHER_ELEMENTS example (facts 4.5). */
    float ge_in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, ge_out[6];
    uint32_t ge_idx[6] = {1, 2, 0, 2, 0, 0};
    static const float ge_want[6] = {4, 8, 3, 7, 2, 3};
    uint32_t s33[2] = {3, 3};
    d = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s33, NULL, ge_in);
    x = ref_tensor_view(DML_TENSOR_DATA_TYPE_UINT32, 2, s23, NULL, ge_idx);
    o = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s23, NULL, ge_out);
    cr_assert(ref_gather_elements(&d, &x, &o, 0, REF_CLAMP, &bad));
    cr_expect(memcmp(ge_out, ge_want, sizeof ge_want) == 0, "GATHER_ELEMENTS example");
}
