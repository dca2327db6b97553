/* SPDX-License-Identifier: MIT */
/*
 * slice.c: DML_SLICE, DML_SLICE1 and DMLCL_STRIDED_SLICE (directly and
 * through the OpenVINO StridedSlice-1 front-end) on the device against the C
 * reference (tests/ref/ref_slice.h).
 *
 * Random cases: input ranks 1..8 (and 16), every data type by width
 * (extension types for the strided slice), all five masks (colliding bits
 * too), negative and huge strides, begin/end far outside the dimension
 * (INT64 extremes included), empty dimensions, padded, transposed, broadcast
 * and aliasing input layouts, padded or transposed outputs, bindings at
 * non-zero offsets inside guarded buffers, three ways of submitting. A list
 * the reference rejects must be rejected by dmlcl_operator_create too.
 * Fixed cases: long reversed and forward runs of every width, the documented
 * SLICE/SLICE1 examples with their printed values. Every failure prints the
 * seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_slice.h"

#define SLICE_DEFAULT_SEED 0x646D6C636C534C43ull
#define SLICE_MAX_ELEMENTS 3000
#define MAX_ENTRIES 24
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE dml_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE ext_types[] = {
    DMLCL_TENSOR_DATA_TYPE_BOOLEAN, DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};

typedef enum slice_op { OP_SLICE, OP_SLICE1, OP_STRIDED } slice_op;
static const char *const op_names[] = {"SLICE", "SLICE1", "STRIDED_SLICE"};

typedef struct slice_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    slice_op op;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    ops_layout layout[2];
    bool shared;
    ops_submit submit;
    ops_tensor input, output;
    /* SLICE / SLICE1 */
    uint32_t offsets[REF_MAX_DIMS], sizes[REF_MAX_DIMS], ustrides[REF_MAX_DIMS];
    int32_t istrides[REF_MAX_DIMS];
    /* STRIDED_SLICE */
    uint32_t count;
    int64_t begin[MAX_ENTRIES], end[MAX_ENTRIES], strides[MAX_ENTRIES];
    uint32_t masks[5][MAX_ENTRIES];
    union {
        DML_SLICE_OPERATOR_DESC slice;
        DML_SLICE1_OPERATOR_DESC slice1;
        DMLCL_STRIDED_SLICE_OPERATOR_DESC ss;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} slice_case;

static ops_seed run_seed = OPS_SEED(SLICE_DEFAULT_SEED);

static const char *list_text(char *buf, size_t len, uint32_t n, const int64_t *v)
{
    size_t at = 0;
    at += (size_t)snprintf(buf, len, "{");
    for (uint32_t i = 0; i < n && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, i ? ",%" PRId64 : "%" PRId64, v[i]);
    if (at < len)
        snprintf(buf + at, len - at, "}");
    return buf;
}

static const char *mask_text(char *buf, size_t len, uint32_t n, const uint32_t *v)
{
    for (uint32_t i = 0; i < n && i + 1 < len; ++i)
        buf[i] = (char)('0' + v[i]);
    buf[n < len ? n : len - 1] = '\0';
    return buf;
}

static const char *slice_describe(const slice_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512], b[512], e[512], s[512], m[5][MAX_ENTRIES + 1], w[3][200];
    int64_t v[3][REF_MAX_DIMS];
    for (uint32_t i = 0; i < c->rank && c->op != OP_STRIDED; ++i) {
        v[0][i] = c->offsets[i];
        v[1][i] = c->sizes[i];
        v[2][i] = c->op == OP_SLICE ? (int64_t)c->ustrides[i] : (int64_t)c->istrides[i];
    }
    if (c->op == OP_STRIDED)
        snprintf(
            w[0], sizeof w[0], "count %u begin %s end %s strides %s masks b%s e%s n%s s%s el%s",
            c->count, list_text(b, sizeof b, c->count, c->begin),
            list_text(e, sizeof e, c->count, c->end), list_text(s, sizeof s, c->count, c->strides),
            mask_text(m[0], sizeof m[0], c->count, c->masks[0]),
            mask_text(m[1], sizeof m[1], c->count, c->masks[1]),
            mask_text(m[2], sizeof m[2], c->count, c->masks[2]),
            mask_text(m[3], sizeof m[3], c->count, c->masks[3]),
            mask_text(m[4], sizeof m[4], c->count, c->masks[4]));
    else
        snprintf(w[0], sizeof w[0], "offsets %s sizes %s strides %s",
                 list_text(b, sizeof b, c->rank, v[0]), list_text(e, sizeof e, c->rank, v[1]),
                 list_text(s, sizeof s, c->rank, v[2]));
    snprintf(buf, len,
             "%s\n  %s\n  layouts %s/%s; %s; "
             "submit %s\n  %s\n  %s",
             ops_replay(head, sizeof head, op_names[c->op], "slice", c->test, c->number, c->seed),
             w[0], ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
             c->shared ? "one buffer" : "two buffers", ops_submit_name(c->submit),
             ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

/* ---- Shapes and tensors ------------------------------------------------------------ */

static void random_sizes(ref_rng *rng, uint32_t rank, uint32_t *sizes, bool allow_empty)
{
    uint32_t cap = rank <= 1 ? 400 : rank == 2 ? 50 : rank <= 4 ? 10 : 5;
    for (uint32_t i = 0; i < rank; ++i)
        sizes[i] = ref_rng_chance(rng, 15) ? 1 : 1 + (uint32_t)ref_rng_below(rng, cap);
    while (ref_element_count(rank, sizes) > SLICE_MAX_ELEMENTS) {
        uint32_t *largest = &sizes[0];
        for (uint32_t i = 1; i < rank; ++i)
            if (sizes[i] > *largest)
                largest = &sizes[i];
        *largest = (*largest + 1) / 2;
    }
    if (allow_empty && rank && ref_rng_chance(rng, 5))
        sizes[ref_rng_below(rng, rank)] = 0;
}

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    bool empty = ref_element_count(rank, sizes) == 0;
    *layout = empty ? OPS_LAYOUT_NULL : ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 64 : 0);
}

/* ---- SLICE and SLICE1 ---------------------------------------------------------------- */

static void gen_slice(slice_case *c, ref_rng *rng)
{
    uint32_t in[REF_MAX_DIMS], out[REF_MAX_DIMS];
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    random_sizes(rng, c->rank, in, false);
    for (uint32_t i = 0; i < c->rank; ++i) {
        uint32_t n = in[i];
        if (c->op == OP_SLICE) {
            /* Sizes and Strides first, then an offset that keeps the last read inside. */
            uint32_t step = ref_rng_chance(rng, 10) ? 0 : 1 + (uint32_t)ref_rng_below(rng, 4);
            uint32_t most = step ? 1 + (n - 1) / step : n + 3;
            out[i] = 1 + (uint32_t)ref_rng_below(rng, most);
            uint32_t span = step * (out[i] - 1);
            c->offsets[i] = (uint32_t)ref_rng_below(rng, n - span);
            c->sizes[i] = out[i];
            c->ustrides[i] = step;
        } else {
            c->offsets[i] = (uint32_t)ref_rng_below(rng, n);
            c->sizes[i] = 1 + (uint32_t)ref_rng_below(rng, n - c->offsets[i]);
            int32_t mag = 1 + (int32_t)ref_rng_below(rng, 4);
            if (ref_rng_chance(rng, 5))
                mag = INT32_MAX;
            c->istrides[i] = ref_rng_chance(rng, 50) ? -mag : mag;
            uint32_t most = 1 + (c->sizes[i] - 1) / (uint32_t)mag;
            out[i] = ref_rng_chance(rng, 70) ? most : 1 + (uint32_t)ref_rng_below(rng, most);
        }
    }
    random_tensor(&c->input, rng, "InputTensor", false, c->type, c->rank, in, &c->layout[0]);
    random_tensor(&c->output, rng, "OutputTensor", true, c->type, c->rank, out, &c->layout[1]);
}

/* ---- STRIDED_SLICE ------------------------------------------------------------------- */

static int64_t random_bound(ref_rng *rng, uint32_t n)
{
    static const int64_t extremes[] = {INT64_MIN,           INT64_MIN + 1,   INT64_MAX,
                                       INT64_MAX - 1,       INT32_MIN,       INT32_MAX,
                                       -((int64_t)1 << 32), (int64_t)1 << 32};
    if (ref_rng_chance(rng, 6))
        return extremes[ref_rng_below(rng, COUNT_OF(extremes))];
    return ref_rng_range(rng, -(int64_t)n - 3, (int64_t)n + 3);
}

static int64_t random_stride(ref_rng *rng)
{
    static const int64_t huge[] = {INT64_MIN,        INT64_MIN + 1,       INT64_MAX,
                                   (int64_t)1 << 40, -((int64_t)1 << 40), 1000};
    if (ref_rng_chance(rng, 6))
        return huge[ref_rng_below(rng, COUNT_OF(huge))];
    if (ref_rng_chance(rng, 3)) /* invalid on a slice, ignored on a new or shrunk axis */
        return 0;
    int64_t mag = ref_rng_chance(rng, 60) ? 1 : ref_rng_range(rng, 2, 5);
    return ref_rng_chance(rng, 45) ? -mag : mag;
}

/*
 * Entries of random kinds (never more taking a dimension than the input has),
 * then values drawn around the size of the dimension each entry takes.
 */
static void gen_lists(slice_case *c, ref_rng *rng, const uint32_t *in)
{
    enum { K_SLICE, K_SHRINK, K_NEW, K_ELLIPSIS } kind[MAX_ENTRIES];
    uint32_t taken = 0, after = 0, j = 0;
    c->count = (uint32_t)ref_rng_below(rng, c->rank + 4);
    uint32_t at =
        c->count && ref_rng_chance(rng, 35) ? (uint32_t)ref_rng_below(rng, c->count) : UINT32_MAX;
    for (uint32_t i = 0; i < c->count; ++i) {
        unsigned pick = (unsigned)ref_rng_below(rng, 100);
        kind[i] = i == at                         ? K_ELLIPSIS
                  : taken == c->rank || pick < 15 ? K_NEW
                  : pick < 30                     ? K_SHRINK
                                                  : K_SLICE;
        taken += kind[i] == K_SHRINK || kind[i] == K_SLICE;
        after += i > at && (kind[i] == K_SHRINK || kind[i] == K_SLICE);
    }
    memset(c->masks, 0, sizeof c->masks);
    for (uint32_t i = 0; i < c->count; ++i) {
        if (kind[i] == K_ELLIPSIS)
            j = c->rank - after;
        bool real = kind[i] == K_SLICE || kind[i] == K_SHRINK;
        uint32_t n = real ? in[j++] : 1;
        c->begin[i] = random_bound(rng, n);
        c->end[i] = random_bound(rng, n);
        c->strides[i] = random_stride(rng);
        c->masks[0][i] = ref_rng_chance(rng, 25);
        c->masks[1][i] = ref_rng_chance(rng, 25);
        c->masks[2][i] = kind[i] == K_NEW;
        c->masks[3][i] = kind[i] == K_SHRINK;
        c->masks[4][i] = kind[i] == K_ELLIPSIS;
        /* Colliding bits: the new axis wins over a shrink, the ellipsis over a new axis. */
        if (kind[i] == K_NEW && ref_rng_chance(rng, 10))
            c->masks[3][i] = 1;
        if (kind[i] == K_ELLIPSIS && ref_rng_chance(rng, 10))
            c->masks[2][i] = 1;
        /* Half the slices run the stride's way (begin before end): mostly not empty. */
        if (kind[i] == K_SLICE && n && c->strides[i] && ref_rng_chance(rng, 50)) {
            int64_t b = ref_rng_range(rng, 0, (int64_t)n - 1), e;
            e = c->strides[i] > 0 ? ref_rng_range(rng, b + 1, (int64_t)n + 2)
                                  : ref_rng_range(rng, -2, b - 1);
            if (e < 0) /* before element 0: below -n (-1 would count from the end) */
                e -= (int64_t)n;
            c->begin[i] = ref_rng_chance(rng, 30) ? b - (int64_t)n : b;
            c->end[i] = e >= 0 && e < (int64_t)n && ref_rng_chance(rng, 30) ? e - (int64_t)n : e;
        }
        /* Mostly a valid shrink index. */
        if (kind[i] == K_SHRINK && n && !ref_rng_chance(rng, 4))
            c->begin[i] = ref_rng_range(rng, -(int64_t)n, (int64_t)n - 1);
    }
}

static void ss_descs(slice_case *c)
{
    c->d.ss = (DMLCL_STRIDED_SLICE_OPERATOR_DESC){ops_tensor_desc(&c->input),
                                                  ops_tensor_desc(&c->output),
                                                  c->count,
                                                  c->begin,
                                                  c->end,
                                                  c->strides,
                                                  c->masks[0],
                                                  c->masks[1],
                                                  c->masks[2],
                                                  c->masks[3],
                                                  c->masks[4]};
    c->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_STRIDED_SLICE, &c->d.ss};
}

static ref_ss_lists ss_lists(const slice_case *c)
{
    return (ref_ss_lists){c->count,    c->begin,    c->end,      c->strides, c->masks[0],
                          c->masks[1], c->masks[2], c->masks[3], c->masks[4]};
}

/*
 * Returns false when the reference rejects the lists; then the library must
 * reject them too (checked here on the host, without a device).
 */
static bool gen_strided(slice_case *c, ref_rng *rng, uint32_t rank)
{
    uint32_t in[REF_MAX_DIMS], out[REF_MAX_DIMS], out_rank;
    static const uint32_t one = 1;
    const char *why;
    c->rank = rank ? rank : 1 + (uint32_t)ref_rng_below(rng, 8);
    random_sizes(rng, c->rank, in, true);
    gen_lists(c, rng, in);
    ref_ss_lists l = ss_lists(c);
    random_tensor(&c->input, rng, "InputTensor", false, c->type, c->rank, in, &c->layout[0]);
    if (!ref_strided_slice_shape(c->rank, in, &l, &out_rank, out, &why)) {
        static char what[4096];
        ops_tensor_init(&c->output, "OutputTensor", true, c->type, 1, &one, NULL, 0, 0);
        ss_descs(c);
        dmlcl_operator *op = NULL;
        HRESULT hr = dmlcl_operator_create(NULL, &c->desc, &op);
        dmlcl_operator_release(op);
        cr_assert(hr == E_INVALIDARG || hr == DXGI_ERROR_UNSUPPORTED,
                  "%s\n  the reference rejects the lists (%s) but create gave %s",
                  slice_describe(c, what, sizeof what), why, dmlcl_hresult_name(hr));
        if (ops_verbose())
            fprintf(stderr, "%s\n  rejected as expected: %s\n",
                    slice_describe(c, what, sizeof what), dmlcl_last_error());
        return false;
    }
    if (out_rank == 0)
        random_tensor(&c->output, rng, "OutputTensor", true, c->type, 1, &one, &c->layout[1]);
    else
        random_tensor(&c->output, rng, "OutputTensor", true, c->type, out_rank, out, &c->layout[1]);
    ss_descs(c);
    return true;
}

/* ---- Running ------------------------------------------------------------------------- */

static void set_descs(slice_case *c)
{
    if (c->op == OP_SLICE) {
        c->d.slice = (DML_SLICE_OPERATOR_DESC){ops_tensor_desc(&c->input),
                                               ops_tensor_desc(&c->output),
                                               c->rank,
                                               c->offsets,
                                               c->sizes,
                                               c->ustrides};
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE, &c->d.slice};
    } else if (c->op == OP_SLICE1) {
        c->d.slice1 = (DML_SLICE1_OPERATOR_DESC){ops_tensor_desc(&c->input),
                                                 ops_tensor_desc(&c->output),
                                                 c->rank,
                                                 c->offsets,
                                                 c->sizes,
                                                 c->istrides};
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, &c->d.slice1};
    } else {
        ss_descs(c);
    }
}

static void slice_place_and_fill(slice_case *c, ref_rng *rng)
{
    static char what[4096];
    ops_memory_unary(&c->mem, rng, &c->input, &c->output, c->shared, c->type);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
    ref_ss_lists l = ss_lists(c);
    bool ok = c->op == OP_SLICE    ? ref_slice(&in, &out, c->offsets, c->ustrides)
              : c->op == OP_SLICE1 ? ref_slice1(&in, &out, c->offsets, c->sizes, c->istrides)
                                   : ref_strided_slice(&in, &out, &l);
    cr_assert(ok, "%s\n  test bug: the reference rejected a generated case",
              slice_describe(c, what, sizeof what));
    ops_poison_output(&c->mem, &c->output);
}

static void slice_run(slice_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", slice_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    ops_tensor *all[2] = {&c->input, &c->output};
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", slice_describe(c, what, sizeof what),
              bad, diff);
}

typedef struct slice_spec {
    slice_op op;
    const DML_TENSOR_DATA_TYPE *types;
    size_t n_types;
    uint32_t rank; /* 0: random 1..8 */
} slice_spec;

static void slice_cases(const char *test, unsigned count, const slice_spec *s)
{
    static slice_case c;
    long only = ops_only_case();
    bool verbose = ops_verbose();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.op = s->op;
        c.type = s->types[n % s->n_types];
        c.shared = ref_rng_chance(&rng, 25);
        c.submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        if (s->op == OP_STRIDED) {
            if (!gen_strided(&c, &rng, s->rank))
                continue;
        } else {
            gen_slice(&c, &rng);
            set_descs(&c);
        }
        if (verbose) {
            static char what[4096];
            fprintf(stderr, "%s\n", slice_describe(&c, what, sizeof what));
        }
        slice_place_and_fill(&c, &rng);
        slice_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* ---- Random cases ------------------------------------------------------------------------ */

OPS_DEVICE_SUITE(slice);

Test(slice, random_slice)
{
    slice_spec s = {OP_SLICE, dml_types, COUNT_OF(dml_types), 0};
    slice_cases("random_slice", 66, &s);
}

Test(slice, random_slice1)
{
    slice_spec s = {OP_SLICE1, dml_types, COUNT_OF(dml_types), 0};
    slice_cases("random_slice1", 66, &s);
}

Test(slice, random_strided_dml_types)
{
    slice_spec s = {OP_STRIDED, dml_types, COUNT_OF(dml_types), 0};
    slice_cases("random_strided_dml_types", 220, &s);
}

Test(slice, random_strided_extension_types)
{
    slice_spec s = {OP_STRIDED, ext_types, COUNT_OF(ext_types), 0};
    slice_cases("random_strided_extension_types", 60, &s);
}

Test(slice, random_strided_rank_16)
{
    static const DML_TENSOR_DATA_TYPE t[] = {DML_TENSOR_DATA_TYPE_UINT16};
    slice_spec s = {OP_STRIDED, t, 1, 16};
    slice_cases("random_strided_rank_16", 12, &s);
}

/* ---- Fixed cases -------------------------------------------------------------------------- */

/* Runs one STRIDED_SLICE on random data: a packed input, the output packed or
 * with out_strides. */
static void fixed_strided_to(const char *test, unsigned number, DML_TENSOR_DATA_TYPE type,
                             uint32_t rank, const uint32_t *in, uint32_t count, const int64_t *b,
                             const int64_t *e, const int64_t *s, const uint32_t *bm,
                             const uint32_t *em, const uint32_t *out_strides)
{
    static slice_case c;
    uint32_t out[REF_MAX_DIMS], out_rank;
    ref_rng rng = ops_case_rng(&run_seed, test, number);
    memset(&c, 0, sizeof c);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.number = number;
    c.op = OP_STRIDED;
    c.type = type;
    c.rank = rank;
    c.count = count;
    memcpy(c.begin, b, count * sizeof *b);
    memcpy(c.end, e, count * sizeof *e);
    memcpy(c.strides, s, count * sizeof *s);
    memcpy(c.masks[0], bm, count * sizeof *bm);
    memcpy(c.masks[1], em, count * sizeof *em);
    ref_ss_lists l = ss_lists(&c);
    cr_assert(ref_strided_slice_shape(rank, in, &l, &out_rank, out, NULL));
    ops_tensor_init(&c.input, "InputTensor", false, type, rank, in, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, type, out_rank, out, out_strides, 0, 0);
    ss_descs(&c);
    slice_place_and_fill(&c, &rng);
    slice_run(&c);
    ops_memory_release(&c.mem);
}

/* The same with packed tensors. */
static void fixed_strided(const char *test, unsigned number, DML_TENSOR_DATA_TYPE type,
                          uint32_t rank, const uint32_t *in, uint32_t count, const int64_t *b,
                          const int64_t *e, const int64_t *s, const uint32_t *bm,
                          const uint32_t *em)
{
    fixed_strided_to(test, number, type, rank, in, count, b, e, s, bm, em, NULL);
}

/* Long runs, forward and reversed, of every element width; rows that widen; an empty output. */
Test(slice, long_runs)
{
    static const DML_TENSOR_DATA_TYPE widths[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};
    const uint32_t in[] = {3, 20000}, zero[] = {0, 0}, masked[] = {1, 1};
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(widths); ++t) {
        /* x[:, ::-1], x[1:, 7:19993], x[::2, 19990:5:-3] */
        fixed_strided("long_runs", n++, widths[t], 2, in, 2, (const int64_t[]){0, 0},
                      (const int64_t[]){0, 0}, (const int64_t[]){1, -1}, masked, masked);
        fixed_strided("long_runs", n++, widths[t], 2, in, 2, (const int64_t[]){1, 7},
                      (const int64_t[]){3, 19993}, (const int64_t[]){1, 1}, zero, zero);
        fixed_strided("long_runs", n++, widths[t], 2, in, 2, (const int64_t[]){0, 19990},
                      (const int64_t[]){3, 5}, (const int64_t[]){2, -3}, zero, zero);
        /* An empty output: nothing launches, nothing is written. */
        fixed_strided("long_runs", n++, widths[t], 2, in, 2, (const int64_t[]){2, 0},
                      (const int64_t[]){2, 0}, (const int64_t[]){1, 1}, zero, zero);
    }
}

/*
 * Rows of several 16 KiB chunks (src/launch.c chunk_span): on CPUs a
 * work-group holds consecutive chunks of one row, and the chunk ids are
 * rounded up to the group's span; ids past the run must write nothing.
 * Rows of 11 chunks of u8 (6 rows leave spans of 8 on 2 compute units:
 * 6 x 11 chunk ids, one past the run), forward, reversed and into rows
 * padded by 5 bytes; small enough for Oclgrind.
 */
Test(slice, chunked_rows)
{
    const uint32_t in[] = {6, 11 * 16384 - 3}, zero[] = {0, 0}, masked[] = {1, 1};
    const uint32_t pad[] = {11 * 16384 + 2, 1};
    /* x[:, 1:], x[:, ::-1], x[1:, 2:-1] */
    fixed_strided("chunked_rows", 0, DML_TENSOR_DATA_TYPE_UINT8, 2, in, 2, (const int64_t[]){0, 1},
                  (const int64_t[]){0, 0}, (const int64_t[]){1, 1}, zero, masked);
    fixed_strided("chunked_rows", 1, DML_TENSOR_DATA_TYPE_UINT8, 2, in, 2, (const int64_t[]){0, 0},
                  (const int64_t[]){0, 0}, (const int64_t[]){1, -1}, masked, masked);
    fixed_strided_to("chunked_rows", 2, DML_TENSOR_DATA_TYPE_UINT8, 2, in, 2,
                     (const int64_t[]){1, 2}, (const int64_t[]){6, -1}, (const int64_t[]){1, 1},
                     zero, zero, pad);
}

/*
 * Runs read at input stride 2, -1 and -2 (cl/view.cl STRIDED on CPUs: whole
 * output lines from vector loads and shuffles), small enough for Oclgrind:
 * units of 1, 2, 4, 8 and 16 bytes; runs of L = 64 / unit bytes: 2L - 1
 * (one unit under the rule), 2L, 3L + 1 and 5L - 1 (lines, a head and a
 * tail); the spans tight against both ends of the input rows (x[:, ::2] on
 * an odd row, x[:, 1::2] on an even one, x[:, ::-1], x[:, ::-2] on an odd
 * row, x[:, -2::-2] on an even one) so a load past a run's span reads past
 * the last row; packed outputs (rows starting anywhere in a line) and rows
 * padded by 3 units.
 */
Test(slice, strided_runs)
{
    static const DML_TENSOR_DATA_TYPE widths[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
        DML_TENSOR_DATA_TYPE_INT64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};
    static const uint32_t bytes[] = {1, 2, 4, 8, 16};
    const uint32_t masked[] = {0, 1};
    unsigned n = 0;
    for (unsigned t = 0; t < COUNT_OF(widths); ++t) {
        int64_t l = 64 / bytes[t];
        const int64_t runs[] = {2 * l - 1, 2 * l, 3 * l + 1, 5 * l - 1};
        for (unsigned k = 0; k < COUNT_OF(runs); ++k) {
            int64_t r = runs[k];
            /* {row length, begin, step}: end and begin masked where begin is 0 or -1. */
            const int64_t forms[5][3] = {
                {2 * r - 1, 0, 2}, {2 * r, 1, 2}, {r, 0, -1}, {2 * r - 1, 0, -2}, {2 * r, -2, -2}};
            for (unsigned f = 0; f < 5; ++f) {
                const uint32_t in[2] = {3, (uint32_t)forms[f][0]};
                const int64_t b[2] = {0, forms[f][1]}, e[2] = {3, 0}, s[2] = {1, forms[f][2]};
                const uint32_t bm[2] = {0, forms[f][1] == 0 ? 1u : 0u};
                const uint32_t pad[2] = {(uint32_t)r + 3, 1};
                fixed_strided_to("strided_runs", n++, widths[t], 2, in, 2, b, e, s, bm, masked,
                                 NULL);
                fixed_strided_to("strided_runs", n++, widths[t], 2, in, 2, b, e, s, bm, masked,
                                 pad);
            }
        }
    }
}

/*
 * Outputs of 32 MiB and more, where CPUs store non-temporally (src/launch.c
 * streams()): runs reversed and strided by 2 and -2, of 1-, 2-, 4- and
 * 8-byte units, on rows whose length is odd, so the kernels' whole-line
 * stores meet rows starting anywhere in a line (cl/common.cl RUN_STORE).
 */
Test(slice, streaming_runs)
{
    const uint32_t zero[] = {0, 0}, masked[] = {1, 1};
    const uint32_t in8[] = {33, 1048583}, in16[] = {17, 2000003}, in32[] = {9, 2000001},
                   in64[] = {5, 1100003};
    /* u8 x[:, ::-1]; u16 x[:, 1::2]; u32 x[:, ::-2]; u64 x[1:, 1099999:2:-1] */
    fixed_strided("streaming_runs", 0, DML_TENSOR_DATA_TYPE_UINT8, 2, in8, 2,
                  (const int64_t[]){0, 0}, (const int64_t[]){0, 0}, (const int64_t[]){1, -1},
                  masked, masked);
    fixed_strided("streaming_runs", 1, DML_TENSOR_DATA_TYPE_UINT16, 2, in16, 2,
                  (const int64_t[]){0, 1}, (const int64_t[]){17, 2000003}, (const int64_t[]){1, 2},
                  zero, zero);
    fixed_strided("streaming_runs", 2, DML_TENSOR_DATA_TYPE_UINT32, 2, in32, 2,
                  (const int64_t[]){0, 0}, (const int64_t[]){0, 0}, (const int64_t[]){1, -2},
                  masked, masked);
    fixed_strided("streaming_runs", 3, DML_TENSOR_DATA_TYPE_UINT64, 2, in64, 2,
                  (const int64_t[]){1, 1099999}, (const int64_t[]){5, 2}, (const int64_t[]){1, -1},
                  zero, zero);
    /* Contiguous runs starting off the line grid (cl/common.cl copy_lines):
     * u32 x[1:, 5:], u64 x[:, 3:-2] */
    fixed_strided("streaming_runs", 4, DML_TENSOR_DATA_TYPE_UINT32, 2, in32, 2,
                  (const int64_t[]){1, 5}, (const int64_t[]){9, 2000001}, (const int64_t[]){1, 1},
                  zero, zero);
    fixed_strided("streaming_runs", 5, DML_TENSOR_DATA_TYPE_UINT64, 2, in64, 2,
                  (const int64_t[]){0, 3}, (const int64_t[]){5, -2}, (const int64_t[]){1, 1}, zero,
                  zero);
}

/* ---- The documented SLICE and SLICE1 examples (facts 4.8, 4.9) ------------------------------ */

static void documented(slice_op op, const uint32_t *in_sizes, const uint32_t *out_sizes,
                       const uint32_t *offsets, const uint32_t *sizes, const int32_t *strides,
                       const float *want, unsigned number)
{
    static slice_case c;
    ref_rng rng = ops_case_rng(&run_seed, "documented", number);
    memset(&c, 0, sizeof c);
    c.test = "documented";
    c.seed = ops_base_seed(&run_seed);
    c.number = number;
    c.op = op;
    c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c.rank = 4;
    for (uint32_t i = 0; i < 4; ++i) {
        c.offsets[i] = offsets[i];
        c.sizes[i] = sizes[i];
        c.ustrides[i] = (uint32_t)strides[i];
        c.istrides[i] = strides[i];
    }
    ops_tensor_init(&c.input, "InputTensor", false, c.type, 4, in_sizes, NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, 4, out_sizes, NULL, 0, 0);
    set_descs(&c);
    memset(&c.mem, 0, sizeof c.mem);
    ops_memory_place(&c.mem, &rng, &c.input, false);
    ops_memory_place(&c.mem, &rng, &c.output, false);
    ops_memory_alloc(&c.mem, &rng);
    float *x = (float *)ops_ptr(&c.mem, OPS_INIT, &c.input);
    for (uint32_t i = 0; i < ref_element_count(4, in_sizes); ++i)
        x[i] = (float)(i + 1);
    ops_memory_snapshot(&c.mem);
    memcpy(ops_ptr(&c.mem, OPS_EXPECT, &c.output), want,
           ref_element_count(4, out_sizes) * sizeof *want);
    /* The reference must give the printed values too. */
    static float ref_out[64];
    ref_tensor in = ops_view(&c.mem, OPS_INIT, &c.input);
    ref_tensor out = ref_tensor_view(c.type, 4, out_sizes, NULL, ref_out);
    cr_assert(op == OP_SLICE ? ref_slice(&in, &out, c.offsets, c.ustrides)
                             : ref_slice1(&in, &out, c.offsets, c.sizes, c.istrides));
    cr_expect_arr_eq(ref_out, want, ref_element_count(4, out_sizes) * sizeof *want,
                     "example %u: the reference disagrees with the documentation", number);
    ops_poison_output(&c.mem, &c.output);
    slice_run(&c);
    ops_memory_release(&c.mem);
}

Test(slice, documented_examples)
{
    const uint32_t in4[] = {1, 1, 4, 4}, in5[] = {1, 1, 5, 5};
    documented(OP_SLICE, in4, (const uint32_t[]){1, 1, 3, 2}, (const uint32_t[]){0, 0, 1, 2},
               (const uint32_t[]){1, 1, 3, 2}, (const int32_t[]){1, 1, 1, 1},
               (const float[]){7, 8, 11, 12, 15, 16}, 1);
    documented(OP_SLICE, in4, (const uint32_t[]){1, 1, 2, 2}, (const uint32_t[]){0, 0, 1, 0},
               (const uint32_t[]){1, 1, 2, 2}, (const int32_t[]){1, 1, 2, 3},
               (const float[]){5, 8, 13, 16}, 2);
    documented(OP_SLICE, in5, (const uint32_t[]){1, 1, 3, 2}, (const uint32_t[]){0, 0, 1, 1},
               (const uint32_t[]){1, 1, 3, 2}, (const int32_t[]){1, 1, 1, 2},
               (const float[]){7, 9, 12, 14, 17, 19}, 3);
    documented(OP_SLICE1, in4, (const uint32_t[]){1, 1, 2, 2}, (const uint32_t[]){0, 0, 0, 1},
               (const uint32_t[]){1, 1, 4, 3}, (const int32_t[]){1, 1, 2, 2},
               (const float[]){2, 4, 10, 12}, 4);
    documented(OP_SLICE1, in4, (const uint32_t[]){1, 1, 2, 2}, (const uint32_t[]){0, 0, 0, 1},
               (const uint32_t[]){1, 1, 4, 3}, (const int32_t[]){1, 1, -2, 2},
               (const float[]){14, 16, 6, 8}, 5);
}

/* ---- Through the OpenVINO front-end (packed tensors, 0-D data) ---------------------------- */

Test(slice, openvino_frontend)
{
    static slice_case c;
    for (unsigned n = 0; n < 40; ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "openvino_frontend", n);
        uint32_t in[REF_MAX_DIMS];
        memset(&c, 0, sizeof c);
        c.test = "openvino_frontend";
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.op = OP_STRIDED;
        c.type = dml_types[n % COUNT_OF(dml_types)];
        c.rank = (uint32_t)ref_rng_below(&rng, 6); /* 0: a scalar */
        random_sizes(&rng, c.rank, in, true);
        gen_lists(&c, &rng, in);
        dmlcl_shape data = {c.rank, {0}};
        for (uint32_t i = 0; i < c.rank; ++i)
            data.dims[i] = in[i];
        int64_t masks[5][MAX_ENTRIES];
        dmlcl_int_array lists[3], m[5];
        const int64_t *v[3] = {c.begin, c.end, c.strides};
        for (int k = 0; k < 3; ++k)
            lists[k] = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, c.count, v[k]};
        for (int k = 0; k < 5; ++k) {
            /* Trailing zeros dropped: a shorter mask means the same. */
            uint32_t len = c.count;
            while (len && !c.masks[k][len - 1])
                --len;
            for (uint32_t i = 0; i < len; ++i)
                masks[k][i] = c.masks[k][i];
            m[k] = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, len, masks[k]};
        }
        dmlcl_openvino_strided_slice_args a = {.data = &data,
                                               .data_type = c.type,
                                               .begin = &lists[0],
                                               .end = &lists[1],
                                               .stride = &lists[2],
                                               .begin_mask = &m[0],
                                               .end_mask = &m[1],
                                               .new_axis_mask = &m[2],
                                               .shrink_axis_mask = &m[3],
                                               .ellipsis_mask = &m[4]};
        static dmlcl_frontend_result r;
        ref_ss_lists l = ss_lists(&c);
        uint32_t out[REF_MAX_DIMS], out_rank;
        bool valid = ref_strided_slice_shape(c.rank, in, &l, &out_rank, out, NULL);
        HRESULT hr = dmlcl_openvino_strided_slice(1, &a, &r);
        cr_assert_eq(SUCCEEDED(hr), valid, "case %u: front-end %s, reference %s: %s", n,
                     dmlcl_hresult_name(hr), valid ? "valid" : "invalid", dmlcl_last_error());
        if (!valid)
            continue;
        cr_assert_eq(r.output_shape.rank, out_rank, "case %u", n);
        for (uint32_t i = 0; i < out_rank; ++i)
            cr_assert_eq(r.output_shape.dims[i], out[i], "case %u dim %u", n, i);
        /* Run what the front-end described (0-D as {1}); the reference on the framework shape. */
        const DML_BUFFER_TENSOR_DESC *ib = &r.buffers[0], *ob = &r.buffers[1];
        ops_tensor_init(&c.input, "InputTensor", false, c.type, ib->DimensionCount, ib->Sizes, NULL,
                        0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, c.type, ob->DimensionCount, ob->Sizes,
                        NULL, 0, 0);
        r.op.strided_slice.InputTensor = ops_tensor_desc(&c.input);
        r.op.strided_slice.OutputTensor = ops_tensor_desc(&c.output);
        c.desc = r.desc;
        c.submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        memset(&c.mem, 0, sizeof c.mem);
        ops_memory_place(&c.mem, &rng, &c.input, false);
        ops_memory_place(&c.mem, &rng, &c.output, false);
        ops_memory_alloc(&c.mem, &rng);
        uint64_t slots = c.input.buffer.TotalTensorSizeInBytes / ref_type_size(c.type);
        ops_fill_distinct(&rng, c.type, ops_ptr(&c.mem, OPS_INIT, &c.input), slots);
        ops_memory_snapshot(&c.mem);
        ref_tensor rin = ops_view(&c.mem, OPS_INIT, &c.input);
        ref_tensor rout = ops_view(&c.mem, OPS_EXPECT, &c.output);
        rin.rank = c.rank; /* the framework's rank (0-D data: no dimensions) */
        cr_assert(ref_strided_slice(&rin, &rout, &l), "case %u: reference", n);
        ops_poison_output(&c.mem, &c.output);
        slice_run(&c);
        ops_memory_release(&c.mem);
    }
}
