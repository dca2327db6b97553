/* SPDX-License-Identifier: MIT */
/*
 * bands.c: operators whose steps run as one band (src/bands.c, cl/bands.cl)
 * on the device against the C reference (tests/ref/ref_join.h, ref_pad.h),
 * each case dispatched twice: as a band (the default) and with
 * DMLCL_BANDS=0 (one kernel per step), the two results byte for byte the
 * same and both the reference's.
 *
 * Random cases: JOIN / SPLIT on an inner axis (many rows) and PADDING1 of
 * the innermost dimensions in every mode, every element width (1, 2, 4, 8
 * bytes; 16 through JOIN1 / SPLIT1 COMPLEX128), packed, padded and (some)
 * permuted layouts, bindings at offsets inside guarded buffers. Fixed
 * cases: JOINs over and at the parameter limit (64 and 62 inputs: per step,
 * and the widest kernel variant), zero-sized pieces (JOIN1 / SPLIT1), and
 * streaming (>= 32 MB) JOIN, SPLIT and PADDING (reflect, constant).
 * DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_join.h"
#include "ref_pad.h"

#define BANDS_DEFAULT_SEED 0x646D6C636C42414Eull
#define MAX_PIECES 64
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* One type per width. */
static const DML_TENSOR_DATA_TYPE widths[] = {
    DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_INT64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};

typedef enum band_op { OP_JOIN, OP_SPLIT, OP_PAD } band_op;
static const char *const op_names[] = {"JOIN1", "SPLIT1", "PADDING1"};

typedef struct band_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    band_op op;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank, axis, count;
    ref_pad_mode mode;
    UINT ustart[REF_MAX_DIMS], uend[REF_MAX_DIMS];
    int64_t start[REF_MAX_DIMS], end[REF_MAX_DIMS];
    unsigned char value[16];
    ops_tensor one;                /* JOIN's output, SPLIT's and PADDING's input */
    ops_tensor pieces[MAX_PIECES]; /* JOIN's inputs, SPLIT's outputs, PADDING's output */
    char names[MAX_PIECES][32];
    DML_TENSOR_DESC descs[MAX_PIECES];
    union {
        DMLCL_JOIN1_OPERATOR_DESC join;
        DMLCL_SPLIT1_OPERATOR_DESC split;
        DML_PADDING1_OPERATOR_DESC pad;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} band_case;

static ops_seed run_seed = OPS_SEED(BANDS_DEFAULT_SEED);

static const char *describe(const band_case *c, char *buf, size_t len)
{
    char head[512], t[512];
    size_t at = (size_t)snprintf(
        buf, len, "%s\n  %s, %u pieces, axis %u, mode %d\n  %s",
        ops_replay(head, sizeof head, op_names[c->op], "bands", c->test, c->number, c->seed),
        op_names[c->op], c->count, c->axis, (int)c->mode,
        ops_tensor_describe(&c->one, t, sizeof t));
    for (uint32_t i = 0; i < c->count && i < 8 && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, "\n  %s",
                               ops_tensor_describe(&c->pieces[i], t, sizeof t));
    return buf;
}

static void make_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                        DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes)
{
    uint32_t strides[REF_MAX_DIMS];
    bool empty = ref_element_count(rank, sizes) == 0;
    /* Mostly layouts whose runs stay contiguous (banded); some permuted (own kernels). */
    static const ops_layout layouts[] = {OPS_LAYOUT_NULL, OPS_LAYOUT_PACKED, OPS_LAYOUT_PADDED,
                                         OPS_LAYOUT_PADDED, OPS_LAYOUT_PERMUTED};
    ops_layout layout =
        empty || !rng ? OPS_LAYOUT_NULL : layouts[ref_rng_below(rng, COUNT_OF(layouts))];
    bool given = rng && ops_layout_strides(rng, layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, 0, 0);
}

static void descs(band_case *c)
{
    for (uint32_t i = 0; i < c->count; ++i)
        c->descs[i] = *ops_tensor_desc(&c->pieces[i]);
    const DML_TENSOR_DESC *one = ops_tensor_desc(&c->one);
    if (c->op == OP_SPLIT) {
        c->d.split = (DMLCL_SPLIT1_OPERATOR_DESC){one, c->count, c->descs, c->axis};
        c->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_SPLIT1, &c->d.split};
    } else if (c->op == OP_JOIN) {
        c->d.join = (DMLCL_JOIN1_OPERATOR_DESC){c->count, c->descs, one, c->axis};
        c->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_JOIN1, &c->d.join};
    } else {
        c->d.pad = (DML_PADDING1_OPERATOR_DESC){one,       &c->descs[0],  (DML_PADDING_MODE)c->mode,
                                                c->type,   {.UInt64 = 0}, c->rank,
                                                c->ustart, c->uend};
        memcpy(c->d.pad.PaddingValue.Bytes, c->value, ref_type_size(c->type));
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING1, &c->d.pad};
    }
}

/* Pieces along axis (lens[i]) of a tensor of sizes; rng NULL: packed layouts. */
static void join_shape(band_case *c, ref_rng *rng, uint32_t *sizes, const uint32_t *lens)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < c->count; ++i) {
        sizes[c->axis] = lens[i];
        sum += lens[i];
        snprintf(c->names[i], sizeof c->names[i], "%s[%u]",
                 c->op == OP_SPLIT ? "OutputTensors" : "InputTensors", i);
        make_tensor(&c->pieces[i], rng, c->names[i], c->op == OP_SPLIT, c->type, c->rank, sizes);
    }
    sizes[c->axis] = sum;
    make_tensor(&c->one, rng, c->op == OP_SPLIT ? "InputTensor" : "OutputTensor", c->op == OP_JOIN,
                c->type, c->rank, sizes);
    descs(c);
}

static void pad_shape(band_case *c, ref_rng *rng, const uint32_t *sizes)
{
    uint32_t out[REF_MAX_DIMS];
    for (uint32_t d = 0; d < c->rank; ++d) {
        c->start[d] = c->ustart[d];
        c->end[d] = c->uend[d];
        out[d] = sizes[d] + c->ustart[d] + c->uend[d];
    }
    c->count = 1;
    make_tensor(&c->one, rng, "InputTensor", false, c->type, c->rank, sizes);
    make_tensor(&c->pieces[0], rng, "OutputTensor", true, c->type, c->rank, out);
    descs(c);
}

static void generate(band_case *c, ref_rng *rng)
{
    c->type = widths[ref_rng_below(rng, COUNT_OF(widths) - (c->op == OP_PAD))];
    c->rank = 2 + (uint32_t)ref_rng_below(rng, 4);
    uint32_t sizes[REF_MAX_DIMS];
    /* Outer dimensions: rows to spread; inner ones small. */
    for (uint32_t d = 0; d < c->rank; ++d)
        sizes[d] = d == 0 ? 1 + (uint32_t)ref_rng_below(rng, 24)
                          : 1 + (uint32_t)ref_rng_below(rng, c->rank <= 3 ? 12 : 5);
    if (c->op == OP_PAD) {
        c->mode = (ref_pad_mode)ref_rng_below(rng, 5);
        for (uint32_t d = c->rank - (ref_rng_chance(rng, 50) ? 1 : 2); d < c->rank; ++d) {
            c->ustart[d] = (UINT)ref_rng_below(rng, 4);
            c->uend[d] = (UINT)ref_rng_below(rng, 4);
        }
        ref_rng_bytes(rng, c->value, sizeof c->value);
        pad_shape(c, rng, sizes);
        return;
    }
    c->axis = 1 + (uint32_t)ref_rng_below(rng, c->rank - 1);
    c->count = ref_rng_chance(rng, 10) ? 20 + (uint32_t)ref_rng_below(rng, 40)
                                       : 2 + (uint32_t)ref_rng_below(rng, 5);
    uint32_t lens[MAX_PIECES];
    for (uint32_t i = 0; i < c->count; ++i)
        lens[i] = 1 + (uint32_t)ref_rng_below(rng, c->count > 8 ? 2 : 6);
    join_shape(c, rng, sizes, lens);
}

/* ---- Memory, reference, runs ------------------------------------------------------------ */

static void place(band_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->one, false);
    for (uint32_t i = 0; i < c->count; ++i) {
        bool share = i > 0 && (c->mem.count == OPS_MAX_BUFFERS || ref_rng_chance(rng, 60));
        ops_memory_place(&c->mem, rng, &c->pieces[i], share);
    }
    ops_memory_alloc(&c->mem, rng);
}

static void fill(band_case *c, ref_rng *rng, const ops_tensor *t)
{
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / ref_type_size(c->type);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, t), slots);
}

static void reference(band_case *c, ref_rng *rng)
{
    ref_tensor pieces[MAX_PIECES];
    bool joins = c->op == OP_JOIN;
    if (joins)
        for (uint32_t i = 0; i < c->count; ++i)
            fill(c, rng, &c->pieces[i]);
    else
        fill(c, rng, &c->one);
    ops_memory_snapshot(&c->mem);
    for (uint32_t i = 0; i < c->count; ++i)
        pieces[i] = ops_view(&c->mem, joins ? OPS_INIT : OPS_EXPECT, &c->pieces[i]);
    ref_tensor one = ops_view(&c->mem, joins ? OPS_EXPECT : OPS_INIT, &c->one);
    bool ok = c->op == OP_JOIN    ? ref_join(pieces, c->count, &one, c->axis)
              : c->op == OP_SPLIT ? ref_split(&one, pieces, c->count, c->axis)
                                  : ref_pad(&one, &pieces[0], c->mode, c->start, c->end, c->value);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (joins)
        ops_poison_output(&c->mem, &c->one);
    else
        for (uint32_t i = 0; i < c->count; ++i)
            ops_poison_output(&c->mem, &c->pieces[i]);
}

/* Dispatches with DMLCL_BANDS as given (NULL: unset) and compares with the reference. */
static void run(band_case *c, const char *bands)
{
    static char what[8192], diff[4096];
    if (bands)
        setenv("DMLCL_BANDS", bands, 1);
    else
        unsetenv("DMLCL_BANDS");
    ops_tensor *pieces[MAX_PIECES], *one[1] = {&c->one}, *all[MAX_PIECES + 1];
    for (uint32_t i = 0; i < c->count; ++i)
        all[i] = pieces[i] = &c->pieces[i];
    all[c->count] = &c->one;
    bool joins = c->op == OP_JOIN;
    ops_tensor *const *in = joins ? pieces : one, *const *out = joins ? one : pieces;
    UINT nin = joins ? c->count : 1, nout = joins ? 1 : c->count;
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, in, nin, out, nout, OPS_SUBMIT_DEFAULT, &stage);
    unsetenv("DMLCL_BANDS");
    cr_assert(SUCCEEDED(hr), "%s\n  DMLCL_BANDS=%s: %s failed: %s: %s",
              describe(c, what, sizeof what), bands ? bands : "(unset)", stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    uint64_t bad = ops_compare(&c->mem, all, (int)c->count + 1, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  DMLCL_BANDS=%s: %" PRIu64 " mismatches:%s",
              describe(c, what, sizeof what), bands ? bands : "(unset)", bad, diff);
}

/* The band, then per step: both the reference's, and each buffer byte for byte the same. */
static void run_both(band_case *c)
{
    run(c, NULL);
    unsigned char *banded[OPS_MAX_BUFFERS];
    for (int b = 0; b < c->mem.count; ++b) {
        banded[b] = malloc(c->mem.size[b]);
        cr_assert(banded[b]);
        memcpy(banded[b], c->mem.got[b], c->mem.size[b]);
        memset(c->mem.got[b], 0, c->mem.size[b]);
    }
    run(c, "0");
    for (int b = 0; b < c->mem.count; ++b) {
        cr_expect(memcmp(banded[b], c->mem.got[b], c->mem.size[b]) == 0,
                  "buffer %d differs between the band and the per-step dispatch", b);
        free(banded[b]);
    }
}

static void random_cases(const char *test, unsigned count, band_op op)
{
    static band_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.op = op;
        generate(&c, &rng);
        if (ops_verbose()) {
            static char what[8192];
            fprintf(stderr, "%s\n", describe(&c, what, sizeof what));
        }
        place(&c, &rng);
        reference(&c, &rng);
        run_both(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(bands);

Test(bands, random_join)
{
    random_cases("random_join", 30, OP_JOIN);
}

Test(bands, random_split)
{
    random_cases("random_split", 30, OP_SPLIT);
}

Test(bands, random_pad)
{
    random_cases("random_pad", 40, OP_PAD);
}

/* A fixed JOIN or SPLIT of count pieces (lens) along axis of sizes, packed. */
static void fixed_join(const char *test, band_op op, DML_TENSOR_DATA_TYPE type, uint32_t rank,
                       const uint32_t *shape, uint32_t axis, uint32_t count, const uint32_t *lens)
{
    static band_case c;
    memset(&c, 0, sizeof c);
    ref_rng rng = ops_case_rng(&run_seed, test, 0);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.op = op;
    c.type = type;
    c.rank = rank;
    c.axis = axis;
    c.count = count;
    uint32_t sizes[REF_MAX_DIMS];
    memcpy(sizes, shape, rank * sizeof *sizes);
    join_shape(&c, NULL, sizes, lens);
    place(&c, &rng);
    reference(&c, &rng);
    run_both(&c);
    ops_memory_release(&c.mem);
}

Test(bands, joins_at_and_over_the_parameter_limit)
{
    uint32_t shape[3] = {9, 3, 0}, lens[MAX_PIECES];
    for (int i = 0; i < MAX_PIECES; ++i)
        lens[i] = 1 + (uint32_t)i % 3;
    /* 64 inputs and the output: 65 buffers, past 1024 bytes of parameters (per step). */
    fixed_join("join_64", OP_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 3, shape, 2, 64, lens);
    /* 62 inputs and the output: 63 buffers, the widest variant. */
    fixed_join("join_62", OP_JOIN, DML_TENSOR_DATA_TYPE_UINT16, 3, shape, 2, 62, lens);
    uint32_t split_shape[3] = {9, 0, 3};
    fixed_join("split_64", OP_SPLIT, DML_TENSOR_DATA_TYPE_UINT8, 3, split_shape, 1, 64, lens);
}

Test(bands, zero_sized_pieces)
{
    uint32_t shape[4] = {7, 5, 0, 3}, lens[5] = {2, 0, 3, 0, 1};
    fixed_join("join_zero", OP_JOIN, DML_TENSOR_DATA_TYPE_INT16, 4, shape, 2, 5, lens);
    fixed_join("split_zero", OP_SPLIT, DMLCL_TENSOR_DATA_TYPE_COMPLEX128, 4, shape, 2, 5, lens);
    /* Every piece empty along another dimension: nothing to launch. */
    uint32_t empty[3] = {0, 4, 0}, three[3] = {1, 2, 3};
    fixed_join("join_empty", OP_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 3, empty, 2, 3, three);
}

Test(bands, every_element_width)
{
    uint32_t shape[3] = {33, 2, 0}, lens[3] = {3, 1, 5};
    for (size_t t = 0; t < COUNT_OF(widths); ++t) {
        fixed_join("width_join", OP_JOIN, widths[t], 3, shape, 2, 3, lens);
        fixed_join("width_split", OP_SPLIT, widths[t], 3, shape, 2, 3, lens);
    }
}

/* A PADDING of the 3-D tensor [sizes] by {0, s1, s2} before and {0, e1, e2} after, in
 * `mode` (a random constant), packed, against the reference. */
static void fixed_pad(const char *test, DML_TENSOR_DATA_TYPE type, ref_pad_mode mode,
                      const uint32_t *sizes, uint32_t s1, uint32_t e1, uint32_t s2, uint32_t e2)
{
    static band_case c;
    memset(&c, 0, sizeof c);
    ref_rng rng = ops_case_rng(&run_seed, test, 0);
    c.test = test;
    c.seed = ops_base_seed(&run_seed);
    c.op = OP_PAD;
    c.type = type;
    c.rank = 3;
    c.mode = mode;
    if (mode == REF_PAD_CONSTANT)
        ref_rng_bytes(&rng, c.value, sizeof c.value);
    c.ustart[1] = s1;
    c.uend[1] = e1;
    c.ustart[2] = s2;
    c.uend[2] = e2;
    pad_shape(&c, NULL, sizes);
    place(&c, &rng);
    reference(&c, &rng);
    run_both(&c);
    ops_memory_release(&c.mem);
}

/* More than 32 MB written: non-temporal stores in whole lines, assembled across runs for
 * units under 4 bytes (CPUs). */
Test(bands, streaming)
{
    uint32_t shape[2] = {1 << 14, 0}, lens[4] = {130, 255, 1, 126};
    fixed_join("stream_join", OP_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 2, shape, 1, 4, lens);
    /* 2-byte units: lines assembled across runs. 130 x 256 x 507 halves: 33.7 MB. */
    const uint32_t sizes[3] = {130, 250, 500}, f32_sizes[3] = {62, 250, 500};
    fixed_pad("stream_pad", DML_TENSOR_DATA_TYPE_FLOAT16, REF_PAD_REFLECT, sizes, 3, 3, 5, 2);
    /* 4-byte units (no line assembly across runs): reflected borders of 40
     * units (whole reversed lines) and of 3 (unit by unit). 62 x 256 x 543
     * floats: 34.5 MB. */
    fixed_pad("stream_pad_f32", DML_TENSOR_DATA_TYPE_FLOAT32, REF_PAD_REFLECT, f32_sizes, 3, 3, 40,
              3);
    /* 16-byte units (whole output lines), then 1-byte units with constant runs. */
    uint32_t split_shape[2] = {1 << 14, 0}, split_lens[3] = {128, 256, 132};
    fixed_join("stream_split", OP_SPLIT, DML_TENSOR_DATA_TYPE_FLOAT32, 2, split_shape, 1, 3,
               split_lens);
    /* Whole constant lines; 130 x 321 x 1044 bytes: 43.6 MB. */
    const uint32_t pad_sizes[3] = {130, 250, 900};
    fixed_pad("stream_const_pad", DML_TENSOR_DATA_TYPE_UINT8, REF_PAD_CONSTANT, pad_sizes, 1, 70, 3,
              141);
}
