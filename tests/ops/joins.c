/* SPDX-License-Identifier: MIT */
/*
 * joins.c: DML_JOIN, DML_SPLIT and the extension twins JOIN1 / SPLIT1
 * (directly and through the Concat / Split front-ends) on the device
 * against the C reference (tests/ref/ref_join.h).
 *
 * Random cases: ranks 1..8 (16 for the twins), every data type by width
 * (extension types for the twins), 1 to 64 pieces, pieces empty along the
 * axis and wholly empty tensors (twins), packed, padded, transposed,
 * broadcast and aliasing input layouts, padded or transposed outputs, each
 * binding at a non-zero offset inside guarded buffers (pieces sharing
 * buffers), three ways of submitting, and the host execute path. Fixed
 * cases: DirectML's documented JOIN and SPLIT examples with their printed
 * values. Every failure prints the seed; DMLCL_TEST_SEED replays a run,
 * DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_join.h"

#define JOINS_DEFAULT_SEED 0x646D6C636C4A4F49ull
#define JOINS_MAX_ELEMENTS 3000
#define MAX_PIECES 64
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

typedef enum join_op { OP_JOIN, OP_SPLIT, OP_JOIN1, OP_SPLIT1 } join_op;
static const char *const op_names[] = {"JOIN", "SPLIT", "JOIN1", "SPLIT1"};
static const DML_OPERATOR_TYPE op_types[] = {DML_OPERATOR_JOIN, DML_OPERATOR_SPLIT,
                                             DMLCL_OPERATOR_JOIN1, DMLCL_OPERATOR_SPLIT1};

typedef struct join_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    join_op op;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank, axis, count;
    ops_submit submit;
    bool host;
    ops_tensor one;                /* JOIN's output, SPLIT's input */
    ops_tensor pieces[MAX_PIECES]; /* JOIN's inputs, SPLIT's outputs */
    char names[MAX_PIECES][24];
    DML_TENSOR_DESC descs[MAX_PIECES];
    union {
        DML_JOIN_OPERATOR_DESC join;
        DML_SPLIT_OPERATOR_DESC split;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} join_case;

static ops_seed run_seed = OPS_SEED(JOINS_DEFAULT_SEED);

static bool is_split(const join_case *c)
{
    return c->op == OP_SPLIT || c->op == OP_SPLIT1;
}

static const char *join_describe(const join_case *c, char *buf, size_t len)
{
    char head[512], t[512];
    size_t at = (size_t)snprintf(
        buf, len, "%s\n  %s of %u pieces on axis %u; submit %s%s\n  %s",
        ops_replay(head, sizeof head, op_names[c->op], "joins", c->test, c->number, c->seed),
        op_names[c->op], c->count, c->axis, ops_submit_name(c->submit),
        c->host ? " (host execute)" : "", ops_tensor_describe(&c->one, t, sizeof t));
    for (uint32_t i = 0; i < c->count && i < 8 && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, "\n  %s",
                               ops_tensor_describe(&c->pieces[i], t, sizeof t));
    if (c->count > 8 && at < len)
        snprintf(buf + at, len - at, "\n  ... %u more pieces", c->count - 8);
    return buf;
}

/* ---- Shapes and tensors ------------------------------------------------------------ */

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    bool empty = ref_element_count(rank, sizes) == 0;
    ops_layout layout = empty ? OPS_LAYOUT_NULL : ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 64 : 0);
}

/* The descriptor over the case's tensors. */
static void join_descs(join_case *c)
{
    for (uint32_t i = 0; i < c->count; ++i)
        c->descs[i] = *ops_tensor_desc(&c->pieces[i]);
    const DML_TENSOR_DESC *one = ops_tensor_desc(&c->one);
    if (is_split(c))
        c->d.split = (DML_SPLIT_OPERATOR_DESC){one, c->count, c->descs, c->axis};
    else
        c->d.join = (DML_JOIN_OPERATOR_DESC){c->count, c->descs, one, c->axis};
    c->desc = (DML_OPERATOR_DESC){op_types[c->op], &c->d};
}

static void join_generate(join_case *c, ref_rng *rng)
{
    bool ext = c->op >= OP_JOIN1;
    c->type = ext && ref_rng_chance(rng, 40) ? ext_types[ref_rng_below(rng, COUNT_OF(ext_types))]
                                             : dml_types[ref_rng_below(rng, COUNT_OF(dml_types))];
    c->rank = ext && ref_rng_chance(rng, 10) ? 9 + (uint32_t)ref_rng_below(rng, 8)
                                             : 1 + (uint32_t)ref_rng_below(rng, 8);
    c->axis = (uint32_t)ref_rng_below(rng, c->rank);
    c->count = ref_rng_chance(rng, 8) ? 20 + (uint32_t)ref_rng_below(rng, MAX_PIECES - 19)
                                      : 1 + (uint32_t)ref_rng_below(rng, 6);
    uint32_t sizes[REF_MAX_DIMS], lens[MAX_PIECES], sum = 0;
    /* Sizes off the axis: small enough that the whole stays under the element cap. */
    uint32_t cap = c->rank <= 2 ? 12 : c->rank <= 4 ? 5 : 2;
    for (uint32_t d = 0; d < c->rank; ++d)
        sizes[d] = 1 + (uint32_t)ref_rng_below(rng, cap);
    sizes[c->axis] = 1;
    uint32_t most = (uint32_t)(JOINS_MAX_ELEMENTS / ref_element_count(c->rank, sizes) / c->count);
    most = most < 1 ? 1 : most > 7 ? 7 : most;
    for (uint32_t i = 0; i < c->count; ++i) {
        lens[i] = 1 + (uint32_t)ref_rng_below(rng, most);
        if (ext && ref_rng_chance(rng, 15))
            lens[i] = 0;
        sum += lens[i];
    }
    if (ext && ref_rng_chance(rng, 5)) /* all empty: a 0 off the axis */
        sizes[(c->axis + 1) % c->rank] = 0;
    for (uint32_t i = 0; i < c->count; ++i) {
        sizes[c->axis] = lens[i];
        snprintf(c->names[i], sizeof c->names[i], "%s[%u]",
                 is_split(c) ? "OutputTensors" : "InputTensors", i);
        random_tensor(&c->pieces[i], rng, c->names[i], is_split(c), c->type, c->rank, sizes);
    }
    sizes[c->axis] = sum;
    random_tensor(&c->one, rng, is_split(c) ? "InputTensor" : "OutputTensor", !is_split(c), c->type,
                  c->rank, sizes);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    join_descs(c);
}

/* ---- Memory, reference, run ------------------------------------------------------------ */

/* The single tensor in a buffer of its own; the pieces spread over the other three. */
static void join_place(join_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->one, false);
    for (uint32_t i = 0; i < c->count; ++i) {
        bool share = i > 0 && (c->mem.count == OPS_MAX_BUFFERS || ref_rng_chance(rng, 60));
        ops_memory_place(&c->mem, rng, &c->pieces[i], share);
    }
    ops_memory_alloc(&c->mem, rng);
}

static void fill_input(join_case *c, ref_rng *rng, const ops_tensor *t)
{
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / ref_type_size(c->type);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, t), slots);
}

/* Fills the inputs, runs the reference into expect and poisons the outputs in init. */
static void join_fill(join_case *c, ref_rng *rng)
{
    ref_tensor pieces[MAX_PIECES];
    if (is_split(c))
        fill_input(c, rng, &c->one);
    else
        for (uint32_t i = 0; i < c->count; ++i)
            fill_input(c, rng, &c->pieces[i]);
    ops_memory_snapshot(&c->mem);
    ops_image piece_image = is_split(c) ? OPS_EXPECT : OPS_INIT;
    for (uint32_t i = 0; i < c->count; ++i)
        pieces[i] = ops_view(&c->mem, piece_image, &c->pieces[i]);
    bool ok;
    if (is_split(c)) {
        ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->one);
        ok = ref_split(&in, pieces, c->count, c->axis);
        for (uint32_t i = 0; i < c->count; ++i)
            ops_poison_output(&c->mem, &c->pieces[i]);
    } else {
        ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->one);
        ok = ref_join(pieces, c->count, &out, c->axis);
        ops_poison_output(&c->mem, &c->one);
    }
    cr_assert(ok, "test bug: the reference rejected a generated case");
}

static void join_run(join_case *c)
{
    static char what[8192], diff[4096];
    ops_tensor *pieces[MAX_PIECES], *one[1] = {&c->one}, *all[MAX_PIECES + 1];
    for (uint32_t i = 0; i < c->count; ++i)
        all[i] = pieces[i] = &c->pieces[i];
    all[c->count] = &c->one;
    ops_tensor *const *in = is_split(c) ? one : pieces, *const *out = is_split(c) ? pieces : one;
    UINT nin = is_split(c) ? 1 : c->count, nout = is_split(c) ? c->count : 1;
    const char *stage = "";
    HRESULT hr = c->host ? ops_run_host(&c->desc, &c->mem, in, nin, out, nout, &stage)
                         : ops_run_device(&c->desc, &c->mem, in, nin, out, nout, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", join_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    uint64_t bad = ops_compare(&c->mem, all, (int)c->count + 1, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", join_describe(c, what, sizeof what), bad,
              diff);
}

static void join_cases(const char *test, unsigned count, join_op op, bool host)
{
    static join_case c;
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
        c.host = host;
        join_generate(&c, &rng);
        if (ops_verbose()) {
            static char what[8192];
            fprintf(stderr, "%s\n", join_describe(&c, what, sizeof what));
        }
        join_place(&c, &rng);
        join_fill(&c, &rng);
        join_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(joins);

Test(joins, random_join)
{
    join_cases("random_join", 30, OP_JOIN, false);
}

Test(joins, random_split)
{
    join_cases("random_split", 30, OP_SPLIT, false);
}

Test(joins, random_join1)
{
    join_cases("random_join1", 24, OP_JOIN1, false);
}

Test(joins, random_split1)
{
    join_cases("random_split1", 24, OP_SPLIT1, false);
}

Test(joins, host_execute)
{
    join_cases("host_join", 6, OP_JOIN, true);
    join_cases("host_split1", 6, OP_SPLIT1, true);
}

/* ---- Through the front-ends ------------------------------------------------------------ */

/*
 * A front-end's result on the device: the case's tensors rebuilt packed from
 * the result's shapes (the descriptor is the result's own), checked against
 * the reference like any other case.
 */
static void frontend_case(join_case *c, ref_rng *rng, const dmlcl_frontend_result *r)
{
    const dmlcl_shape *shapes = r->output_shapes;
    const DML_BUFFER_TENSOR_DESC *b = r->tensors[0].Desc;
    const DML_TENSOR_DESC *list =
        is_split(c) ? r->op.split1.OutputTensors : r->op.join1.InputTensors;
    c->count = is_split(c) ? r->op.split1.OutputCount : r->op.join1.InputCount;
    c->axis = is_split(c) ? r->op.split1.Axis : r->op.join1.Axis;
    for (uint32_t i = 0; i < c->count; ++i) {
        b = list[i].Desc;
        c->rank = b->DimensionCount;
        ops_tensor_init(&c->pieces[i], "piece", is_split(c), b->DataType, b->DimensionCount,
                        b->Sizes, NULL, 0, 0);
        if (is_split(c))
            cr_assert_eq(shapes[i].dims[c->axis], (int64_t)b->Sizes[c->axis]);
    }
    b = (is_split(c) ? r->op.split1.InputTensor : r->op.join1.OutputTensor)->Desc;
    ops_tensor_init(&c->one, "whole", !is_split(c), b->DataType, b->DimensionCount, b->Sizes, NULL,
                    0, 0);
    c->type = b->DataType;
    c->desc = r->desc;
    join_place(c, rng);
    join_fill(c, rng);
    join_run(c);
    ops_memory_release(&c->mem);
}

Test(joins, frontends)
{
    static join_case c;
    static dmlcl_shape shapes[MAX_PIECES];
    static DML_TENSOR_DATA_TYPE types[MAX_PIECES];
    for (unsigned n = 0; n < ops_case_count(12); ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "frontends", n);
        memset(&c, 0, sizeof c);
        c.test = "frontends";
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.submit = OPS_SUBMIT_DEFAULT;
        uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 4), count = n % 3 ? 3 : 64;
        int64_t axis = ref_rng_range(&rng, -(int64_t)rank, rank - 1);
        dmlcl_shape s = {.rank = rank};
        for (uint32_t d = 0; d < rank; ++d)
            s.dims[d] = 1 + ref_rng_range(&rng, 0, 3);
        DML_TENSOR_DATA_TYPE type = ext_types[n % COUNT_OF(ext_types)];
        dmlcl_frontend_result r;
        HRESULT hr;
        if (n % 2) {
            /* ONNX Concat: count inputs, some empty along the axis. */
            uint32_t ax = (uint32_t)(axis < 0 ? axis + rank : axis);
            for (uint32_t i = 0; i < count; ++i) {
                shapes[i] = s;
                shapes[i].dims[ax] = ref_rng_range(&rng, 0, 2);
                types[i] = type;
            }
            dmlcl_onnx_concat_args a = {shapes, types, count, axis};
            c.op = OP_JOIN1;
            hr = dmlcl_onnx_concat(13, &a, &r);
        } else {
            /* ONNX Split-18 with num_outputs: the uneven last part. */
            dmlcl_onnx_split_args a = {.input = &s, .input_type = type, .axis = axis};
            int64_t chunk = ref_rng_range(&rng, 1, 3);
            s.dims[axis < 0 ? axis + rank : axis] =
                chunk * (count - 1) + ref_rng_range(&rng, 1, chunk);
            a.num_outputs = count;
            c.op = OP_SPLIT1;
            hr = dmlcl_onnx_split(18, &a, &r);
        }
        cr_assert_eq(hr, S_OK, "case %u: %s", n, dmlcl_last_error());
        frontend_case(&c, &rng, &r);
        dmlcl_frontend_result_clear(&r);
    }
}

/* ---- The documented examples, with their printed values ------------------------------- */

typedef struct doc_tensor {
    uint32_t sizes[4];
    float values[16];
} doc_tensor;

/* One documented example: FLOAT32 pieces and the joined tensor, packed, as printed. */
static void run_documented(const char *name, join_op op, uint32_t axis, uint32_t count,
                           const doc_tensor *pieces, const doc_tensor *whole)
{
    static join_case c;
    memset(&c, 0, sizeof c);
    c.test = name;
    c.op = op;
    c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c.rank = 4;
    c.axis = axis;
    c.count = count;
    for (uint32_t i = 0; i < count; ++i)
        ops_tensor_init(&c.pieces[i], "piece", is_split(&c), c.type, 4, pieces[i].sizes, NULL, 0,
                        0);
    ops_tensor_init(&c.one, "whole", !is_split(&c), c.type, 4, whole->sizes, NULL, 0, 0);
    join_descs(&c);
    ref_rng rng = ref_rng_make(ops_name_hash(name));
    join_place(&c, &rng);
    /* Inputs take the printed values; expect holds the printed outputs. */
    const ops_tensor *ins[MAX_PIECES];
    const doc_tensor *in_docs[MAX_PIECES];
    uint32_t nin = is_split(&c) ? 1 : count;
    for (uint32_t i = 0; i < nin; ++i) {
        ins[i] = is_split(&c) ? &c.one : &c.pieces[i];
        in_docs[i] = is_split(&c) ? whole : &pieces[i];
        memcpy(ops_ptr(&c.mem, OPS_INIT, ins[i]), in_docs[i]->values,
               ref_element_count(4, in_docs[i]->sizes) * sizeof(float));
    }
    ops_memory_snapshot(&c.mem);
    for (uint32_t i = 0; i < (is_split(&c) ? count : 1); ++i) {
        const ops_tensor *t = is_split(&c) ? &c.pieces[i] : &c.one;
        const doc_tensor *dt = is_split(&c) ? &pieces[i] : whole;
        memcpy(ops_ptr(&c.mem, OPS_EXPECT, t), dt->values,
               ref_element_count(4, dt->sizes) * sizeof(float));
        ops_poison_output(&c.mem, t);
    }
    join_run(&c);
    ops_memory_release(&c.mem);
}

Test(joins, documented_examples)
{
    /* DML_JOIN_OPERATOR_DESC example 1: axis 3. */
    doc_tensor j1[2] = {{{1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}},
                        {{1, 1, 2, 4}, {7, 8, 9, 10, 11, 12, 13, 14}}};
    doc_tensor j1o = {{1, 1, 2, 7}, {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14}};
    run_documented("join_example_1", OP_JOIN, 3, 2, j1, &j1o);
    doc_tensor j2[3] = {{{1, 1, 2, 2}, {1, 2, 3, 4}},
                        {{1, 1, 2, 2}, {5, 6, 7, 8}},
                        {{1, 1, 2, 2}, {9, 10, 11, 12}}};
    doc_tensor ax1 = {{1, 3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
    doc_tensor ax2 = {{1, 1, 6, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
    doc_tensor ax3 = {{1, 1, 2, 6}, {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}};
    run_documented("join_example_2_axis_1", OP_JOIN, 1, 3, j2, &ax1);
    run_documented("join_example_2_axis_2", OP_JOIN, 2, 3, j2, &ax2);
    run_documented("join_example_2_axis_3", OP_JOIN, 3, 3, j2, &ax3);
    /* DML_SPLIT_OPERATOR_DESC: input {1,1,6,2} 1..12; example 1 axis 2 into 2, 1, 3. */
    doc_tensor s1[3] = {{{1, 1, 2, 2}, {1, 2, 3, 4}},
                        {{1, 1, 1, 2}, {5, 6}},
                        {{1, 1, 3, 2}, {7, 8, 9, 10, 11, 12}}};
    run_documented("split_example_1", OP_SPLIT, 2, 3, s1, &ax2);
    /* Example 2: axis 3 into two columns. */
    doc_tensor s2[2] = {{{1, 1, 6, 1}, {1, 3, 5, 7, 9, 11}}, {{1, 1, 6, 1}, {2, 4, 6, 8, 10, 12}}};
    run_documented("split_example_2", OP_SPLIT, 3, 2, s2, &ax2);
}
