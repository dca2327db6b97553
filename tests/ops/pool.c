/* SPDX-License-Identifier: MIT */
/*
 * pool.c: DirectML's pooling operators on the device against the C reference
 * (tests/ref/ref_pool.c): MAX_POOLING, MAX_POOLING1, MAX_POOLING2 (indices UINT32 or UINT64, or
 * none), AVERAGE_POOLING, AVERAGE_POOLING1 (IncludePadding) and LP_POOLING, LP_POOLING1 (P 1, 2
 * or 3).
 *
 * Random cases: 2 or 3 spatial axes; windows 1 to 4, strides 1 to 3, dilations 1 to 3 (the
 * descriptors that have them), start and end padding up to the window; the output-size rule's
 * sizes or ceil_mode's one more; every type of each table (max pooling's 10, average and LP
 * FLOAT32 and FLOAT16); the input and outputs packed, padded or transposed (ops_random_tensor).
 * Max pooling's data: distinct bit patterns (NaN, infinities, -0.0 among them) or small
 * integers (ties); average and LP values in [-8, 8]. Max pooling compares exactly, the others
 * within ref_pool_ulps (the window's element count + 2 ULP, and LP's root). Fixed cases: the
 * ResNet stem's 3x3/2 pooling with padding 1, rows long enough for several work-items.
 * Failures print the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_pool.h"

#define POOL_DEFAULT_SEED 0x646D6C636C504F4Full
#define POOL_MAX_ELEMENTS 1500
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static const DML_TENSOR_DATA_TYPE max_types[] = {
    F32,
    F16,
    DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT8,
};

/* The seven operators: which members each has. */
static const struct {
    DML_OPERATOR_TYPE type;
    const char *name;
    ref_pool_op op;
    bool indices, dilations;
} ops[] = {
    {DML_OPERATOR_MAX_POOLING, "MAX_POOLING", REF_POOL_MAX, false, false},
    {DML_OPERATOR_MAX_POOLING1, "MAX_POOLING1", REF_POOL_MAX, true, false},
    {DML_OPERATOR_MAX_POOLING2, "MAX_POOLING2", REF_POOL_MAX, true, true},
    {DML_OPERATOR_AVERAGE_POOLING, "AVERAGE_POOLING", REF_POOL_AVERAGE, false, false},
    {DML_OPERATOR_AVERAGE_POOLING1, "AVERAGE_POOLING1", REF_POOL_AVERAGE, false, true},
    {DML_OPERATOR_LP_POOLING, "LP_POOLING", REF_POOL_LP, false, false},
    {DML_OPERATOR_LP_POOLING1, "LP_POOLING1", REF_POOL_LP, false, true},
};

typedef struct pool_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    int which; /* ops[] */
    DML_TENSOR_DATA_TYPE type;
    bool ties;
    ref_pool_args a;
    bool has_idx;
    ops_tensor in, out, idx;
    ops_layout layout[3];
    union {
        DML_MAX_POOLING_OPERATOR_DESC m0;
        DML_MAX_POOLING1_OPERATOR_DESC m1;
        DML_MAX_POOLING2_OPERATOR_DESC m2;
        DML_AVERAGE_POOLING_OPERATOR_DESC a0;
        DML_AVERAGE_POOLING1_OPERATOR_DESC a1;
        DML_LP_POOLING_OPERATOR_DESC l0;
        DML_LP_POOLING1_OPERATOR_DESC l1;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} pool_case;

static ops_seed run_seed = OPS_SEED(POOL_DEFAULT_SEED);

/* The descriptor of c->which over c's tensors and arguments. */
static void pool_describe_op(pool_case *c)
{
    ref_pool_args *a = &c->a;
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->in), *out = ops_tensor_desc(&c->out);
    const DML_TENSOR_DESC *idx = c->has_idx ? ops_tensor_desc(&c->idx) : NULL;
    UINT n = a->dims;
    switch (ops[c->which].type) {
    case DML_OPERATOR_MAX_POOLING:
        c->d.m0 =
            (DML_MAX_POOLING_OPERATOR_DESC){in, out, n, a->strides, a->window, a->start, a->end};
        break;
    case DML_OPERATOR_MAX_POOLING1:
        c->d.m1 = (DML_MAX_POOLING1_OPERATOR_DESC){in,         out,       idx,      n,
                                                   a->strides, a->window, a->start, a->end};
        break;
    case DML_OPERATOR_MAX_POOLING2:
        c->d.m2 = (DML_MAX_POOLING2_OPERATOR_DESC){
            in, out, idx, n, a->strides, a->window, a->start, a->end, a->dilations};
        break;
    case DML_OPERATOR_AVERAGE_POOLING:
        c->d.a0 = (DML_AVERAGE_POOLING_OPERATOR_DESC){
            in, out, n, a->strides, a->window, a->start, a->end, a->include_padding};
        break;
    case DML_OPERATOR_AVERAGE_POOLING1:
        c->d.a1 = (DML_AVERAGE_POOLING1_OPERATOR_DESC){
            in, out, n, a->strides, a->window, a->start, a->end, a->dilations, a->include_padding};
        break;
    case DML_OPERATOR_LP_POOLING:
        c->d.l0 = (DML_LP_POOLING_OPERATOR_DESC){in,        out,      n,      a->strides,
                                                 a->window, a->start, a->end, a->p};
        break;
    default:
        c->d.l1 = (DML_LP_POOLING1_OPERATOR_DESC){
            in, out, n, a->strides, a->window, a->start, a->end, a->dilations, a->p};
        break;
    }
    c->desc = (DML_OPERATOR_DESC){ops[c->which].type, &c->d};
}

static void pool_generate(pool_case *c, ref_rng *rng, int which)
{
    ref_pool_args *a = &c->a;
    c->which = which;
    a->op = ops[which].op;
    c->type = a->op == REF_POOL_MAX     ? max_types[ref_rng_below(rng, COUNT_OF(max_types))]
              : ref_rng_chance(rng, 50) ? F32
                                        : F16;
    a->dims = ref_rng_chance(rng, 70) ? 2 : 3;
    uint32_t rank = a->dims + 2, xs[5], ys[5];
    ops_random_sizes(rng, rank, xs, POOL_MAX_ELEMENTS);
    bool ceil = ref_rng_chance(rng, 20);
    for (uint32_t i = 0; i < a->dims; ++i) {
        uint32_t n = xs[2 + i];
        a->window[i] = 1 + (uint32_t)ref_rng_below(rng, 4);
        a->strides[i] = 1 + (uint32_t)ref_rng_below(rng, 3);
        a->dilations[i] = ops[which].dilations ? 1 + (uint32_t)ref_rng_below(rng, 3) : 1;
        a->start[i] = (uint32_t)ref_rng_below(rng, a->window[i] + 1);
        a->end[i] = (uint32_t)ref_rng_below(rng, a->window[i] + 1);
        uint32_t span = (a->window[i] - 1) * a->dilations[i] + 1;
        while (span > n + a->start[i] + a->end[i]) { /* the window must fit: shrink it */
            a->dilations[i] = 1;
            a->window[i] = a->window[i] > 1 ? a->window[i] - 1 : 1;
            span = a->window[i];
            if (span > n + a->start[i] + a->end[i])
                a->end[i] += 1;
        }
        uint32_t r = n + a->start[i] + a->end[i] - span;
        ys[2 + i] = r / a->strides[i] + 1 + (ceil && r % a->strides[i] ? 1 : 0);
    }
    ys[0] = xs[0];
    ys[1] = xs[1];
    a->include_padding = ref_rng_chance(rng, 50);
    static const uint32_t ps[] = {1, 2, 2, 3};
    a->p = ps[ref_rng_below(rng, 4)];
    c->ties = a->op == REF_POOL_MAX && ref_rng_chance(rng, 30);
    ops_random_tensor(&c->in, rng, "InputTensor", false, c->type, rank, xs, &c->layout[0]);
    ops_random_tensor(&c->out, rng, "OutputTensor", true, c->type, rank, ys, &c->layout[1]);
    c->has_idx = ops[which].indices && ref_rng_chance(rng, 70);
    if (c->has_idx)
        ops_random_tensor(&c->idx, rng, "OutputIndicesTensor", true,
                          ref_rng_chance(rng, 50) ? DML_TENSOR_DATA_TYPE_UINT32
                                                  : DML_TENSOR_DATA_TYPE_UINT64,
                          rank, ys, &c->layout[2]);
    pool_describe_op(c);
}

static void put_real(DML_TENSOR_DATA_TYPE type, unsigned char *p, double v)
{
    if (type == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

static void pool_fill(pool_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->in, false);
    ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 30));
    if (c->has_idx)
        ops_memory_place(&c->mem, rng, &c->idx, ref_rng_chance(rng, 50));
    ops_memory_alloc(&c->mem, rng);
    size_t w = ref_type_size(c->type);
    uint64_t slots = c->in.buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->in);
    if (c->a.op == REF_POOL_MAX && !c->ties) {
        ops_fill_distinct(rng, c->type, p, slots);
    } else {
        for (uint64_t s = 0; s < slots; ++s) {
            int64_t v = (int64_t)ref_rng_below(rng, c->ties ? 5 : 2001) - (c->ties ? 2 : 1000);
            if (ref_type_is_float(c->type)) {
                put_real(c->type, p + s * w, c->ties ? (double)v : (double)v / 125.0);
            } else {
                if (!ref_type_is_signed_int(c->type))
                    v += 2;
                memcpy(p + s * w, &v, w); /* little-endian: the low bytes */
            }
        }
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    ref_tensor idx = c->has_idx ? ops_view(&c->mem, OPS_EXPECT, &c->idx) : out;
    cr_assert(ref_pool(&c->a, &in, &out, c->has_idx ? &idx : NULL),
              "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
    if (c->has_idx)
        ops_poison_output(&c->mem, &c->idx);
}

static const char *pool_what(const pool_case *c, char *buf, size_t len)
{
    char head[512], t[3][512];
    const ref_pool_args *a = &c->a;
    ops_tensor_describe(&c->in, t[0], sizeof t[0]);
    ops_tensor_describe(&c->out, t[1], sizeof t[1]);
    if (c->has_idx)
        ops_tensor_describe(&c->idx, t[2], sizeof t[2]);
    else
        snprintf(t[2], sizeof t[2], "no indices");
    snprintf(buf, len,
             "%s\n  %s; window {%u,%u,%u} strides {%u,%u,%u} dilations {%u,%u,%u} start "
             "{%u,%u,%u} end {%u,%u,%u}; IncludePadding %d; P %u\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, ops[c->which].name, "pool", c->test, c->number, c->seed),
             ref_type_name(c->type), a->window[0], a->window[1], a->window[2], a->strides[0],
             a->strides[1], a->strides[2], a->dilations[0], a->dilations[1], a->dilations[2],
             a->start[0], a->start[1], a->start[2], a->end[0], a->end[1], a->end[2],
             a->include_padding, a->p, t[0], t[1], t[2]);
    return buf;
}

/* Average and LP elements within the tolerance take the reference's bytes. */
static void accept_tolerance(pool_case *c)
{
    unsigned ulps = ref_pool_ulps(&c->a);
    if (ulps == 0)
        return;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        if (ref_float_close(c->type, x, y, ulps))
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void pool_run(pool_case *c)
{
    static char what[8192], diff[4096];
    ops_tensor *inputs[1] = {&c->in};
    ops_tensor *outputs[2] = {&c->out, c->has_idx ? &c->idx : NULL};
    ops_tensor *all[3] = {&c->out, &c->in, &c->idx};
    UINT n_out = ops[c->which].indices ? 2 : 1;
    const char *stage = "";
    if (ops_verbose())
        fprintf(stderr, "%s\n", pool_what(c, what, sizeof what));
    HRESULT hr =
        ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, n_out, OPS_SUBMIT_DEFAULT, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", pool_what(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, c->has_idx ? 3 : 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", pool_what(c, what, sizeof what), bad,
              diff);
}

static void pool_cases(const char *test, unsigned count, int which)
{
    static pool_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        pool_generate(&c, &rng, which >= 0 ? which : (int)(n % COUNT_OF(ops)));
        pool_fill(&c, &rng);
        pool_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(pool);

Test(pool, max)
{
    pool_cases("max", 40, 2);
}

Test(pool, max_older)
{
    pool_cases("max_older", 12, 0);
    pool_cases("max1", 12, 1);
}

Test(pool, average)
{
    pool_cases("average", 16, 3);
    pool_cases("average1", 16, 4);
}

Test(pool, lp)
{
    pool_cases("lp", 12, 5);
    pool_cases("lp1", 12, 6);
}

/* The ResNet stem's max pooling (3x3/2, padding 1) on rows of 40: several work-items a row,
 * interior and border blocks; a global average pool; the vector loads (cl/pool.cl VLOAD) of an
 * LP pooling of P 3 (stride 1) and of a FLOAT16 average (stride 2). */
Test(pool, resnet_shapes)
{
    static pool_case c;
    for (int k = 0; k < 4; ++k) {
        ref_rng rng = ops_case_rng(&run_seed, "resnet_shapes", (unsigned)k);
        memset(&c, 0, sizeof c);
        c.test = "resnet_shapes";
        c.seed = ops_base_seed(&run_seed);
        c.number = (unsigned)k;
        static const int which[4] = {2, 3, 6, 4};
        c.which = which[k];
        c.type = k == 3 ? F16 : F32;
        ref_pool_args *a = &c.a;
        a->op = ops[c.which].op;
        a->dims = 2;
        a->p = 3;
        a->include_padding = true;
        uint32_t xs[4] = {1, 4, 40, 40}, ys[4] = {1, 4, 20, 20};
        for (int i = 0; i < 2; ++i) {
            a->window[i] = k == 1 ? 40 : 3;
            a->strides[i] = k == 1 || k == 2 ? 1 : 2;
            a->dilations[i] = 1;
            a->start[i] = a->end[i] = k == 1 ? 0 : 1;
        }
        if (k == 1)
            ys[2] = ys[3] = 1;
        if (k == 2)
            ys[2] = ys[3] = 40;
        c.has_idx = k == 0;
        ops_tensor_init(&c.in, "InputTensor", false, c.type, 4, xs, NULL, 0, 0);
        ops_tensor_init(&c.out, "OutputTensor", true, c.type, 4, ys, NULL, 0, 0);
        if (c.has_idx)
            ops_tensor_init(&c.idx, "OutputIndicesTensor", true, DML_TENSOR_DATA_TYPE_UINT32, 4, ys,
                            NULL, 0, 0);
        pool_describe_op(&c);
        pool_fill(&c, &rng);
        pool_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* Max pooling of integers in bands on CPUs (cl/pool.cl pool_band, INT_COMPUTE): the stem's
 * 3x3/2 with padding 1 (the quantized ResNet's UINT8) and a 2x3 window with dilations 2 and a
 * stride of 3 along W (gathered loads), for INT8, UINT8, INT16, UINT16 and INT32, against the
 * oracle; every value exact. */
Test(pool, max_integer_bands)
{
    static pool_case c;
    static const DML_TENSOR_DATA_TYPE types[5] = {
        DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32};
    for (int k = 0; k < 10; ++k) {
        ref_rng rng = ops_case_rng(&run_seed, "max_integer_bands", (unsigned)k);
        memset(&c, 0, sizeof c);
        c.test = "max_integer_bands";
        c.seed = ops_base_seed(&run_seed);
        c.number = (unsigned)k;
        c.which = 2; /* MAX_POOLING2 */
        c.type = types[k % 5];
        ref_pool_args *a = &c.a;
        a->op = ops[c.which].op;
        a->dims = 2;
        uint32_t xs[4] = {2, 3, 37, 75}, ys[4] = {2, 3, 19, 38};
        for (int i = 0; i < 2; ++i) {
            a->window[i] = 3;
            a->strides[i] = 2;
            a->dilations[i] = 1;
            a->start[i] = a->end[i] = 1;
        }
        if (k >= 5) {
            a->window[0] = 2, a->window[1] = 3;
            a->dilations[0] = a->dilations[1] = 2;
            a->strides[0] = 1, a->strides[1] = 3;
            a->start[0] = 0, a->end[0] = 1, a->start[1] = 2, a->end[1] = 0;
            ys[2] = (37 + 1 - 3) / 1 + 1;
            ys[3] = (75 + 2 - 5) / 3 + 1;
        }
        ops_tensor_init(&c.in, "InputTensor", false, c.type, 4, xs, NULL, 0, 0);
        ops_tensor_init(&c.out, "OutputTensor", true, c.type, 4, ys, NULL, 0, 0);
        pool_describe_op(&c);
        pool_fill(&c, &rng);
        pool_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* Global pooling (cl/pool.cl RUN: the window whole contiguous rows, one run per D slice, 8
 * lanes and a tail) for each operator, FLOAT32 and FLOAT16, 2 and 3 spatial axes. */
Test(pool, global)
{
    static pool_case c;
    for (unsigned k = 0; k < 2 * COUNT_OF(ops); ++k) {
        ref_rng rng = ops_case_rng(&run_seed, "global", k);
        memset(&c, 0, sizeof c);
        c.test = "global";
        c.seed = ops_base_seed(&run_seed);
        c.number = k;
        c.which = (int)(k % COUNT_OF(ops));
        c.type = k < COUNT_OF(ops) ? F32 : F16;
        ref_pool_args *a = &c.a;
        a->op = ops[c.which].op;
        a->dims = k % 3 == 0 ? 3 : 2;
        a->p = 1 + k % 3;
        a->include_padding = k % 2;
        uint32_t xs[5] = {2, 3, 2, 5, 7}, ys[5] = {2, 3, 1, 1, 1};
        uint32_t first = 3 - a->dims;
        for (uint32_t i = 0; i < a->dims; ++i) {
            a->window[i] = xs[2 + first + i];
            a->strides[i] = a->dilations[i] = 1;
        }
        uint32_t rank = a->dims + 2;
        uint32_t in_sizes[5] = {2, 3}, out_sizes[5] = {2, 3};
        for (uint32_t i = 0; i < a->dims; ++i) {
            in_sizes[2 + i] = xs[2 + first + i];
            out_sizes[2 + i] = ys[2 + first + i];
        }
        c.has_idx = false;
        ops_tensor_init(&c.in, "InputTensor", false, c.type, rank, in_sizes, NULL, 0, 0);
        ops_tensor_init(&c.out, "OutputTensor", true, c.type, rank, out_sizes, NULL, 0, 0);
        pool_describe_op(&c);
        pool_fill(&c, &rng);
        pool_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* Global pooling over many images and channels (GPUs: cl/pool.cl STAGED, a work-group's 64
 * outputs' runs staged through local memory): 111 outputs of 49 (two work-groups, the second
 * partial), 80 of 9, 70 of 64 (8 x 8, the most staged), 66 of 1, and 35 of 70 (longer than
 * staged: the batched loop). Each shape through MAX_POOLING, AVERAGE_POOLING and LP_POOLING
 * in turn, FLOAT32 and FLOAT16. */
Test(pool, global_spans)
{
    static pool_case c;
    static const uint32_t shapes[][4] = {
        {3, 37, 7, 7}, {2, 40, 3, 3}, {1, 70, 8, 8}, {2, 33, 1, 1}, {1, 35, 7, 10},
    };
    static const int which[3] = {0, 3, 5};
    for (unsigned k = 0; k < ops_case_count(2 * COUNT_OF(shapes)); ++k) {
        const uint32_t *x = shapes[k % COUNT_OF(shapes)];
        ref_rng rng = ops_case_rng(&run_seed, "global_spans", k);
        memset(&c, 0, sizeof c);
        c.test = "global_spans";
        c.seed = ops_base_seed(&run_seed);
        c.number = k;
        c.which = which[k % 3];
        c.type = k < COUNT_OF(shapes) ? F32 : F16;
        ref_pool_args *a = &c.a;
        a->op = ops[c.which].op;
        a->dims = 2;
        a->p = 2;
        for (uint32_t i = 0; i < 2; ++i) {
            a->window[i] = x[2 + i];
            a->strides[i] = a->dilations[i] = 1;
        }
        uint32_t out_sizes[4] = {x[0], x[1], 1, 1};
        c.has_idx = false;
        ops_tensor_init(&c.in, "InputTensor", false, c.type, 4, x, NULL, 0, 0);
        ops_tensor_init(&c.out, "OutputTensor", true, c.type, 4, out_sizes, NULL, 0, 0);
        pool_describe_op(&c);
        pool_fill(&c, &rng);
        pool_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* ---- Graphs ------------------------------------------------------------------------ */

/* {IDENTITY(x NHWC read as NCHW) -> MAX_POOLING2 (3x3/2, padding 1, indices)}: the layout change
 * fused into the pooling's reads (never stored), and with keep its output a graph output too
 * (stored, then read packed): both against the oracle, bit for bit. */
static void run_layout_graph(bool keep, const float *x, float *out, uint32_t *idx, float *nchw)
{
    UINT xs[4] = {1, 3, 9, 11}, nhwc[4] = {297, 1, 33, 3}, ys[4] = {1, 3, 5, 6};
    UINT win[2] = {3, 3}, str[2] = {2, 2}, pad[2] = {1, 1}, dil[2] = {1, 1};
    DML_BUFFER_TENSOR_DESC bx = {F32, 0, 4, xs, nhwc, 297 * 4, 0},
                           bp = {F32, 0, 4, xs, NULL, 297 * 4, 0},
                           by = {F32, 0, 4, ys, NULL, 90 * 4, 0},
                           bi = {DML_TENSOR_DATA_TYPE_UINT32, 0, 4, ys, NULL, 90 * 4, 0};
    DML_TENSOR_DESC tx = {DML_TENSOR_TYPE_BUFFER, &bx}, tp = {DML_TENSOR_TYPE_BUFFER, &bp},
                    ty = {DML_TENSOR_TYPE_BUFFER, &by}, ti = {DML_TENSOR_TYPE_BUFFER, &bi};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {&tx, &tp, NULL};
    DML_MAX_POOLING2_OPERATOR_DESC md = {&tp, &ty, &ti, 2, str, win, pad, pad, dil};
    DML_OPERATOR_DESC d0 = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id},
                      d1 = {DML_OPERATOR_MAX_POOLING2, &md};
    dmlcl_device *dev = ops_device();
    dmlcl_operator *op[2];
    cr_assert_eq(dmlcl_operator_create(dev, &d0, &op[0]), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_create(dev, &d1, &op[1]), S_OK, "%s", dmlcl_last_error());
    DML_OPERATOR_GRAPH_NODE_DESC nd[2] = {{(IDMLOperator *)op[0], "layout"},
                                          {(IDMLOperator *)op[1], "pool"}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &nd[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &nd[1]}};
    DML_INPUT_GRAPH_EDGE_DESC ie = {0, 0, 0, NULL};
    DML_GRAPH_EDGE_DESC ins = {DML_GRAPH_EDGE_TYPE_INPUT, &ie};
    DML_OUTPUT_GRAPH_EDGE_DESC oe[3] = {{1, 0, 0, NULL}, {1, 1, 1, NULL}, {0, 0, 2, NULL}};
    DML_GRAPH_EDGE_DESC outs[3] = {{DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[0]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[1]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[2]}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC me = {0, 0, 1, 0, NULL};
    DML_GRAPH_EDGE_DESC mid = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me};
    UINT n_out = keep ? 3 : 2;
    DML_GRAPH_DESC g = {1, n_out, 2, nodes, 1, &ins, n_out, outs, 1, &mid};
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_graph_compile(dev, &g, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_host_tensor hi = {(void *)x, 297 * 4},
                      ho[3] = {{out, 90 * 4}, {idx, 90 * 4}, {nchw, 297 * 4}};
    cr_assert_eq(dmlcl_compiled_operator_execute(c, 1, &hi, n_out, ho), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op[0]);
    dmlcl_operator_release(op[1]);
}

Test(pool, graph_layout_fused_equals_apart)
{
    float x[297], fused[90], apart[90], want[90], nchw[297];
    uint32_t fi[90], ai[90], wi[90];
    ref_rng r = ref_rng_make(ref_mix64(0x706f6f6c67ull));
    for (int i = 0; i < 297; ++i)
        x[i] = (float)((double)ref_rng_below(&r, 41) / 4.0 - 5.0); /* ties among them */
    run_layout_graph(false, x, fused, fi, nchw);
    run_layout_graph(true, x, apart, ai, nchw);
    UINT xs[4] = {1, 3, 9, 11}, nhwc[4] = {297, 1, 33, 3}, ys[4] = {1, 3, 5, 6};
    ref_tensor in = ref_tensor_view(F32, 4, xs, nhwc, x);
    ref_tensor out = ref_tensor_view(F32, 4, ys, NULL, want);
    ref_tensor ind = ref_tensor_view(DML_TENSOR_DATA_TYPE_UINT32, 4, ys, NULL, wi);
    ref_pool_args a = {.op = REF_POOL_MAX,
                       .dims = 2,
                       .strides = {2, 2},
                       .window = {3, 3},
                       .start = {1, 1},
                       .end = {1, 1},
                       .dilations = {1, 1}};
    cr_assert(ref_pool(&a, &in, &out, &ind));
    for (int i = 0; i < 90; ++i) {
        cr_assert_eq(fused[i], want[i], "out[%d] fused %g, want %g", i, (double)fused[i],
                     (double)want[i]);
        cr_assert_eq(fi[i], wi[i], "indices[%d] fused %u, want %u", i, fi[i], wi[i]);
        cr_assert_eq(apart[i], want[i], "out[%d] apart %g", i, (double)apart[i]);
        cr_assert_eq(ai[i], wi[i], "indices[%d] apart %u", i, ai[i]);
    }
}
