/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: DML_OPERATOR_REDUCE (every DML_REDUCE_FUNCTION), ARGMIN and ARGMAX on the device
 * against the C oracle (tests/ref/ref_reduce.c), every type each function takes.
 *
 * Random cases: ranks 1..8, random sizes, a random set of axes (none, one, several, all),
 * packed, padded, transposed, broadcast or aliasing inputs, packed, padded or transposed
 * outputs, every index type and both AxisDirections; values suited to each function (sixteenths
 * in [-4, 4], products near 1, positive sums for LOG_SUM, small integers where ties matter,
 * the full range where integer sums wrap); the specials_* tests add NaN, infinities and -0.0
 * (FLOAT32, FLOAT16). Float outputs
 * compare within ref_reduce_ulps or the oracle's accumulation bound (docs/operators.md),
 * integers and indices exactly. Fixed cases: long rows (a tree of partial sums), the index of
 * several reduced axes, ties and NaN. DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one
 * case.
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
#include "ref_reduce.h"

#define RED_DEFAULT_SEED 0x646D6C636C524544ull
#define RED_MAX_ELEMENTS 3000

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static const DML_TENSOR_DATA_TYPE eight[8] = {F32,
                                              F16,
                                              DML_TENSOR_DATA_TYPE_INT32,
                                              DML_TENSOR_DATA_TYPE_INT16,
                                              DML_TENSOR_DATA_TYPE_INT8,
                                              DML_TENSOR_DATA_TYPE_UINT32,
                                              DML_TENSOR_DATA_TYPE_UINT16,
                                              DML_TENSOR_DATA_TYPE_UINT8};
static const DML_TENSOR_DATA_TYPE index_types[4] = {
    DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_INT64};

typedef enum red_kind { KIND_REDUCE, KIND_ARGMIN, KIND_ARGMAX } red_kind;

typedef struct red_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    red_kind kind;
    DML_REDUCE_FUNCTION f;
    DML_TENSOR_DATA_TYPE type, out_type;
    uint32_t rank;
    UINT axes[8];
    UINT axis_count;
    bool reduced[8];
    bool last;
    bool specials;
    ops_layout layout[2];
    ops_submit submit;
    ops_tensor in, out;
    union {
        DML_REDUCE_OPERATOR_DESC reduce;
        DML_ARGMAX_OPERATOR_DESC arg; /* ARGMIN's members are ARGMAX's */
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    double bound[RED_MAX_ELEMENTS];
} red_case;

static ops_seed run_seed = OPS_SEED(RED_DEFAULT_SEED);

static bool is_arg(DML_REDUCE_FUNCTION f)
{
    return f == DML_REDUCE_FUNCTION_ARGMAX || f == DML_REDUCE_FUNCTION_ARGMIN;
}

static const char *kind_name(const red_case *c)
{
    return c->kind == KIND_ARGMIN ? "ARGMIN" : c->kind == KIND_ARGMAX ? "ARGMAX" : "REDUCE";
}

static void red_descs(red_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->in), *out = ops_tensor_desc(&c->out);
    if (c->kind == KIND_REDUCE) {
        c->d.reduce = (DML_REDUCE_OPERATOR_DESC){c->f, in, out, c->axis_count, c->axes};
        c->desc.Type = DML_OPERATOR_REDUCE;
    } else {
        c->d.arg = (DML_ARGMAX_OPERATOR_DESC){in, out, c->axis_count, c->axes,
                                              c->last ? DML_AXIS_DIRECTION_DECREASING
                                                      : DML_AXIS_DIRECTION_INCREASING};
        c->desc.Type = c->kind == KIND_ARGMIN ? DML_OPERATOR_ARGMIN : DML_OPERATOR_ARGMAX;
    }
    c->desc.Desc = &c->d;
}

/* Sizes, axes (AxisCount 0 now and then), layouts; the output's sizes are the rule's. */
static void red_generate(red_case *c, ref_rng *rng)
{
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    uint32_t sizes[8], osizes[8];
    ops_random_sizes(rng, c->rank, sizes, RED_MAX_ELEMENTS);
    unsigned pick = (unsigned)ref_rng_below(rng, 10);
    for (uint32_t d = 0; d < c->rank; ++d) {
        c->reduced[d] = pick == 0 ? false : pick == 1 ? true : ref_rng_chance(rng, 40);
        if (c->reduced[d])
            c->axes[c->axis_count++] = d;
        osizes[d] = c->reduced[d] ? 1 : sizes[d];
    }
    /* Axes in any order: the index counts in dimension order whatever Axes' order is. */
    for (UINT i = c->axis_count; i > 1; --i) {
        UINT j = (UINT)ref_rng_below(rng, i), t = c->axes[i - 1];
        c->axes[i - 1] = c->axes[j];
        c->axes[j] = t;
    }
    c->out_type = is_arg(c->f) ? index_types[ref_rng_below(rng, 4)] : c->type;
    c->last = c->kind != KIND_REDUCE && ref_rng_chance(rng, 50);
    ops_random_tensor(&c->in, rng, "InputTensor", false, c->type, c->rank, sizes, &c->layout[0]);
    ops_random_tensor(&c->out, rng, "OutputTensor", true, c->out_type, c->rank, osizes,
                      &c->layout[1]);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    red_descs(c);
}

static void put_value(DML_TENSOR_DATA_TYPE t, double v, unsigned char *p)
{
    if (t == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else if (t == F32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else {
        int64_t i = (int64_t)v;
        memcpy(p, &i, ref_type_size(t)); /* little-endian: the low bytes */
    }
}

/* One input value for function f on type t. */
static double draw(const red_case *c, ref_rng *rng)
{
    DML_TENSOR_DATA_TYPE t = c->type;
    if (ref_type_is_float(t)) {
        if (c->specials && ref_rng_chance(rng, 5)) {
            static const double special[4] = {NAN, INFINITY, -INFINITY, -0.0};
            return special[ref_rng_below(rng, 4)];
        }
        switch (c->f) {
        case DML_REDUCE_FUNCTION_MULTIPLY:
            return (ref_rng_chance(rng, 50) ? -1 : 1) * (double)ref_rng_range(rng, 14, 18) / 16;
        case DML_REDUCE_FUNCTION_LOG_SUM: return (double)ref_rng_range(rng, 1, 64) / 16;
        default:
            if (is_arg(c->f) || c->f == DML_REDUCE_FUNCTION_MAX || c->f == DML_REDUCE_FUNCTION_MIN)
                return (double)ref_rng_range(rng, -8, 8) / 4; /* ties */
            return (double)ref_rng_range(rng, -64, 64) / 16;
        }
    }
    size_t w = ref_type_size(t);
    bool sgn = ref_type_is_signed_int(t);
    if (is_arg(c->f))
        return (double)ref_rng_range(rng, sgn ? -5 : 0, 5);
    if (c->f == DML_REDUCE_FUNCTION_MULTIPLY && ref_rng_chance(rng, 70))
        return (double)ref_rng_range(rng, sgn ? -3 : 0, 3);
    if (w == 4)
        return sgn ? (double)ref_rng_range(rng, INT32_MIN, INT32_MAX)
                   : (double)ref_rng_range(rng, 0, UINT32_MAX);
    int64_t hi = ((int64_t)1 << (8 * w - (sgn ? 1 : 0))) - 1;
    return (double)ref_rng_range(rng, sgn ? -hi - 1 : 0, hi);
}

static void red_fill(red_case *c, ref_rng *rng)
{
    size_t w = ref_type_size(c->type);
    uint64_t slots = c->in.buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->in);
    for (uint64_t i = 0; i < slots; ++i)
        put_value(c->type, draw(c, rng), p + i * w);
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    cr_assert(ref_reduce(c->f, &in, c->reduced, c->last, &out, c->bound),
              "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
}

static void red_place(red_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->in, false);
    ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    ops_memory_alloc(&c->mem, rng);
}

static const char *red_describe(const red_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512], axes[64] = "";
    for (UINT i = 0, n = 0; i < c->axis_count; ++i)
        n += snprintf(axes + n, sizeof axes - n, "%s%u", i ? "," : "", c->axes[i]);
    snprintf(
        buf, len, "%s\n  %s %s; Axes {%s}; %s; layouts %s/%s; %s; submit %s\n  %s\n  %s",
        ops_replay(head, sizeof head, ref_reduce_name(c->f), "reduce", c->test, c->number, c->seed),
        kind_name(c), ref_type_name(c->type), axes, c->last ? "last index" : "first index",
        ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
        c->specials ? "NaN/inf/-0 in the data" : "finite data", ops_submit_name(c->submit),
        ops_tensor_describe(&c->in, in, sizeof in), ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static double float_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* Float outputs within ref_reduce_ulps of the oracle, or within its accumulation bound (plus
 * the last rounding to the output type), count as equal; NaN matches NaN. */
static void accept_tolerance(red_case *c)
{
    DML_TENSOR_DATA_TYPE t = c->out_type;
    if (!ref_type_is_float(t))
        return;
    uint64_t n = 1;
    for (uint32_t d = 0; d < c->rank; ++d)
        if (c->reduced[d])
            n *= c->in.sizes[d];
    unsigned ulps = ref_reduce_ulps(c->f, n);
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[8], y[8];
    uint64_t k = 0;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        double dx = float_of(t, x), dy = float_of(t, y);
        bool accept = (isnan(dx) && isnan(dy)) || (ulps && ref_float_close(t, x, y, ulps)) ||
                      (isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= c->bound[k]) ||
                      (c->bound[k] > 0 && ref_float_close(t, x, y, 1));
        if (accept)
            ref_put(&g, coord, x);
        ++k;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void red_run(red_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->in}, *outputs[1] = {&c->out}, *all[2] = {&c->out, &c->in};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", red_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", red_describe(c, what, sizeof what), bad,
              diff);
}

/* count random cases of function f (REDUCE, or the ARGMIN / ARGMAX operators), cycling through
 * the function's types; specials: FLOAT32 and FLOAT16 only, with NaN, infinities and -0.0 in
 * the data (their rules apart from the arithmetic's). */
static void red_cases(const char *test, unsigned count, red_kind kind, DML_REDUCE_FUNCTION f,
                      bool specials)
{
    static red_case c;
    DML_TENSOR_DATA_TYPE types[8];
    unsigned n_types = 0;
    for (int i = 0; i < (specials ? 2 : 8); ++i)
        if (ref_reduce_takes(f, eight[i]))
            types[n_types++] = eight[i];
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.kind = kind;
        c.f = f;
        c.type = types[n % n_types];
        c.specials = specials;
        red_generate(&c, &rng);
        red_place(&c, &rng);
        red_fill(&c, &rng);
        red_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(reduce);

#define RED_RANDOM_TEST(name, kind, fn, count)                                    \
    Test(reduce, random_##name)                                                   \
    {                                                                             \
        red_cases("random_" #name, count, kind, DML_REDUCE_FUNCTION_##fn, false); \
    }                                                                             \
    Test(reduce, specials_##name)                                                 \
    {                                                                             \
        red_cases("specials_" #name, 4, kind, DML_REDUCE_FUNCTION_##fn, true);    \
    }

RED_RANDOM_TEST(argmax, KIND_REDUCE, ARGMAX, 12)
RED_RANDOM_TEST(argmin, KIND_REDUCE, ARGMIN, 12)
RED_RANDOM_TEST(average, KIND_REDUCE, AVERAGE, 6)
RED_RANDOM_TEST(l1, KIND_REDUCE, L1, 6)
RED_RANDOM_TEST(l2, KIND_REDUCE, L2, 6)
RED_RANDOM_TEST(log_sum, KIND_REDUCE, LOG_SUM, 6)
RED_RANDOM_TEST(log_sum_exp, KIND_REDUCE, LOG_SUM_EXP, 6)
RED_RANDOM_TEST(max, KIND_REDUCE, MAX, 12)
RED_RANDOM_TEST(min, KIND_REDUCE, MIN, 12)
RED_RANDOM_TEST(multiply, KIND_REDUCE, MULTIPLY, 8)
RED_RANDOM_TEST(sum, KIND_REDUCE, SUM, 12)
RED_RANDOM_TEST(sum_square, KIND_REDUCE, SUM_SQUARE, 6)
RED_RANDOM_TEST(argmin_operator, KIND_ARGMIN, ARGMIN, 16)
RED_RANDOM_TEST(argmax_operator, KIND_ARGMAX, ARGMAX, 16)

/* ---- Fixed cases ------------------------------------------------------------------------- */

/* desc (one input tensor in, one output o) compiled and run on host memory: x in, out out. */
static HRESULT run_on_host(const DML_OPERATOR_DESC *desc, const void *x, const ops_tensor *in,
                           void *out, const ops_tensor *o)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, 0, &co);
    if (SUCCEEDED(hr)) {
        dmlcl_host_tensor hi = {(void *)x, in->buffer.TotalTensorSizeInBytes};
        dmlcl_host_tensor ho = {out, o->buffer.TotalTensorSizeInBytes};
        hr = dmlcl_compiled_operator_execute(co, 1, &hi, 1, &ho);
    }
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(op);
    return hr;
}

/* A reduction's input of `sizes` (strides NULL: packed) and its packed output, 1 on each axis. */
static void reduced_pair(ops_tensor *in, ops_tensor *o, DML_TENSOR_DATA_TYPE in_type,
                         DML_TENSOR_DATA_TYPE out_type, uint32_t rank, const uint32_t *sizes,
                         const uint32_t *strides, UINT n_axes, const UINT *axes)
{
    uint32_t osizes[8];
    memcpy(osizes, sizes, rank * sizeof *sizes);
    for (UINT i = 0; i < n_axes; ++i)
        osizes[axes[i]] = 1;
    ops_tensor_init(in, "InputTensor", false, in_type, rank, sizes, strides, 0, 0);
    ops_tensor_init(o, "OutputTensor", true, out_type, rank, osizes, NULL, 0, 0);
}

/* REDUCE of f over the axes of a packed FLOAT32 input on host memory, into out. */
static HRESULT run_packed(DML_OPERATOR_TYPE type, DML_REDUCE_FUNCTION f, int last, uint32_t rank,
                          const uint32_t *sizes, const float *x, UINT n_axes, const UINT *axes,
                          DML_TENSOR_DATA_TYPE out_type, void *out)
{
    ops_tensor in, o;
    reduced_pair(&in, &o, F32, out_type, rank, sizes, NULL, n_axes, axes);
    DML_REDUCE_OPERATOR_DESC r = {f, ops_tensor_desc(&in), ops_tensor_desc(&o), n_axes, axes};
    DML_ARGMAX_OPERATOR_DESC a = {ops_tensor_desc(&in), ops_tensor_desc(&o), n_axes, axes,
                                  (DML_AXIS_DIRECTION)last};
    DML_OPERATOR_DESC desc = {type, type == DML_OPERATOR_REDUCE ? (void *)&r : (void *)&a};
    return run_on_host(&desc, x, &in, out, &o);
}

/* A row of 100000 elements (and 3 rows of 40000): partial sums over a long row, each within
 * its tolerance of the exact sum; the index of the one largest element found across the tree. */
Test(reduce, long_rows)
{
    enum { N = 120000 };
    static float x[N];
    ref_rng rng = ref_rng_make(7);
    double exact[3] = {0};
    for (int i = 0; i < N; ++i) {
        x[i] = (float)ref_rng_range(&rng, 0, 64) / 16;
        exact[i / 40000] += x[i];
    }
    exact[77777 / 40000] += 100 - x[77777];
    x[77777] = 100;
    float s[3];
    const uint32_t one[1] = {N}, three[2] = {3, 40000};
    static const UINT axis0[1] = {0}, axis1[1] = {1};
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_SUM, 0, 2, three, x, 1,
                                   axis1, F32, s)),
              "%s", dmlcl_last_error());
    for (int r = 0; r < 3; ++r)
        cr_expect(fabs(s[r] - exact[r]) <= 40000 * ldexp(1, -24) * exact[r] * 2, "row %d: %g vs %g",
                  r, s[r], exact[r]);
    uint32_t idx;
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0, 1, one, x, 1,
                                   axis0, DML_TENSOR_DATA_TYPE_UINT32, &idx)),
              "%s", dmlcl_last_error());
    cr_expect_eq(idx, 77777);
}

/* 257 rows of 37: enough rows that a CPU's item takes several in turn (src/launch_reduce.c
 * RPI: 8 an item while there are 16 items a compute unit), the last item one. SUM (exact:
 * sixteenths up to 4), ARGMAX (one largest value a row, anywhere) and HARDMAX1 (its one) for
 * every row, against the rows computed here. */
Test(reduce, many_rows_taken_in_turn)
{
    enum { ROWS = 257, RUN = 37 };
    static float x[ROWS * RUN], sums[ROWS], hard[ROWS * RUN];
    static uint32_t picks[ROWS];
    static int where[ROWS];
    ref_rng rng = ref_rng_make(0x525049ull);
    for (int r = 0; r < ROWS; ++r) {
        where[r] = (int)ref_rng_below(&rng, RUN);
        for (int u = 0; u < RUN; ++u)
            x[r * RUN + u] = u == where[r] ? 5.0f : (float)ref_rng_range(&rng, 0, 64) / 16;
    }
    const uint32_t sizes[2] = {ROWS, RUN};
    static const UINT axis1[1] = {1};
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_SUM, 0, 2, sizes, x, 1,
                                   axis1, F32, sums)),
              "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0, 2, sizes, x,
                                   1, axis1, DML_TENSOR_DATA_TYPE_UINT32, picks)),
              "%s", dmlcl_last_error());
    ops_tensor in, o;
    ops_tensor_init(&in, "InputTensor", false, F32, 2, sizes, NULL, 0, 0);
    ops_tensor_init(&o, "OutputTensor", true, F32, 2, sizes, NULL, 0, 0);
    DML_ACTIVATION_HARDMAX1_OPERATOR_DESC h = {ops_tensor_desc(&in), ops_tensor_desc(&o), 1, axis1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ACTIVATION_HARDMAX1, &h};
    cr_assert(SUCCEEDED(run_on_host(&desc, x, &in, hard, &o)), "%s", dmlcl_last_error());
    int bad_sum = 0, bad_pick = 0, bad_hard = 0;
    for (int r = 0; r < ROWS; ++r) {
        double want = 0;
        for (int u = 0; u < RUN; ++u) {
            want += x[r * RUN + u];
            bad_hard += hard[r * RUN + u] != (u == where[r] ? 1.0f : 0.0f);
        }
        bad_sum += sums[r] != (float)want;
        bad_pick += picks[r] != (uint32_t)where[r];
    }
    cr_expect(bad_sum == 0 && bad_pick == 0 && bad_hard == 0,
              "rows wrong: %d sums, %d ARGMAX indices; %d HARDMAX1 elements", bad_sum, bad_pick,
              bad_hard);
}

/* Rows of 300: a CPU deals a float pick's row to 64 lanes (src/tuning.c reduce_pick_lanes), a
 * lane's elements 64 apart. Ties between lanes and within one, NaN among numbers, an all-NaN
 * row, -0 against +0 and the row's last, partial block: ARGMAX, ARGMIN (first and last index)
 * and REDUCE MAX, MIN, each row against ref_reduce. */
Test(reduce, picks_over_rows_of_many_lanes)
{
    enum { ROWS = 6, RUN = 300 };
    static float x[ROWS * RUN];
    ref_rng rng = ref_rng_make(0x5049434bull);
    for (int i = 0; i < ROWS * RUN; ++i)
        x[i] = (float)ref_rng_range(&rng, -1000, 1000) / 8;
    float *r0 = x, *r1 = x + RUN, *r2 = x + 2 * RUN, *r3 = x + 3 * RUN, *r4 = x + 4 * RUN,
          *r5 = x + 5 * RUN;
    r0[17] = r0[81] = r0[250] = 500; /* lanes 17, 17 (a lane's own tie), 58 */
    r0[5] = r0[299] = -500;          /* the last, partial block */
    r1[3] = r1[200] = NAN;           /* NaN never wins over a number */
    r1[140] = 400;
    r1[141] = -400;
    for (int u = 0; u < RUN; ++u) /* all NaN */
        r2[u] = NAN;
    for (int u = 0; u < RUN; ++u) /* zeros of both signs: -0 equals +0 for the indices */
        r3[u] = u % 7 ? 1 : (u % 2 ? -0.0f : 0.0f);
    r3[298] = -1;
    r4[299] = 1000; /* the last element */
    r4[0] = -1000;
    r5[64] = r5[128] = r5[192] = r5[256] = 900; /* one lane, 4 of its elements */
    const uint32_t sizes[2] = {ROWS, RUN};
    static const UINT axis1[1] = {1};
    const bool reduced[2] = {false, true};
    ref_tensor in = {F32, 4, 2, {ROWS, RUN}, {RUN, 1}, x};
    const struct {
        DML_OPERATOR_TYPE type;
        DML_REDUCE_FUNCTION f;
        int last;
    } picks[] = {
        {DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0},
        {DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 1},
        {DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_ARGMIN, 0},
        {DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_ARGMIN, 1},
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MAX, 0},
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, 0},
    };
    for (size_t p = 0; p < sizeof picks / sizeof *picks; ++p) {
        bool index = picks[p].type != DML_OPERATOR_REDUCE;
        DML_TENSOR_DATA_TYPE ot = index ? DML_TENSOR_DATA_TYPE_UINT32 : F32;
        uint32_t got[ROWS], want[ROWS];
        memset(got, 0xA5, sizeof got);
        ref_tensor out = {ot, 4, 2, {ROWS, 1}, {1, 1}, want};
        cr_assert(ref_reduce(picks[p].f, &in, reduced, picks[p].last != 0, &out, NULL),
                  "test bug: ref_reduce rejected pick %zu", p);
        cr_assert(SUCCEEDED(run_packed(picks[p].type, picks[p].f, picks[p].last, 2, sizes, x, 1,
                                       axis1, ot, got)),
                  "pick %zu: %s", p, dmlcl_last_error());
        for (int r = 0; r < ROWS; ++r)
            cr_expect(memcmp(&got[r], &want[r], 4) == 0,
                      "pick %zu (function %d, last %d) row %d: got 0x%08x, want 0x%08x", p,
                      (int)picks[p].f, picks[p].last, r, got[r], want[r]);
    }
}

/* The index of several axes counts row-major over them in dimension order; ties; NaN. */
Test(reduce, index_rules)
{
    /* {2, 3, 2}: Axes {2, 0} (the rows are {x[0][j][k], x[1][j][k]} in (i, k) order). */
    static const float x[12] = {0, 1, 5, 2, 9, 9, 3, 4, 5, 7, 9, 1};
    const uint32_t sizes[3] = {2, 3, 2};
    static const UINT axes[2] = {2, 0};
    int64_t got[3];
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0, 3, sizes, x,
                                   2, axes, DML_TENSOR_DATA_TYPE_INT64, got)),
              "%s", dmlcl_last_error());
    /* j=0: {0, 1, 3, 4} -> 3; j=1: {5, 2, 5, 7} -> 3; j=2: {9, 9, 9, 1} -> 0 (first tie). */
    cr_expect(got[0] == 3 && got[1] == 3 && got[2] == 0, "%lld %lld %lld", (long long)got[0],
              (long long)got[1], (long long)got[2]);
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 1, 3, sizes, x,
                                   2, axes, DML_TENSOR_DATA_TYPE_INT64, got)),
              "%s", dmlcl_last_error());
    cr_expect(got[0] == 3 && got[1] == 3 && got[2] == 2, "last: %lld %lld %lld", (long long)got[0],
              (long long)got[1], (long long)got[2]);
    /* NaN never wins; an all-NaN row gives the first index; -0 ties +0. */
    const float z[12] = {NAN, 1, NAN, 3, NAN, NAN, NAN, NAN, -0.0f, 0.0f, -1, -0.0f};
    const uint32_t zs[2] = {3, 4};
    static const UINT axis1[1] = {1};
    uint32_t i32[3];
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0, 2, zs, z, 1,
                                   axis1, DML_TENSOR_DATA_TYPE_UINT32, i32)),
              "%s", dmlcl_last_error());
    cr_expect(i32[0] == 3 && i32[1] == 0 && i32[2] == 0, "%u %u %u", i32[0], i32[1], i32[2]);
    float m[3];
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MAX, 0, 2, zs, z, 1,
                                   axis1, F32, m)),
              "%s", dmlcl_last_error());
    cr_expect(m[0] == 3 && isnan(m[1]) && m[2] == 0 && !signbit(m[2]), "%g %g %g", m[0], m[1],
              m[2]);
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, 0, 2, zs, z, 1,
                                   axis1, F32, m)),
              "%s", dmlcl_last_error());
    cr_expect(m[0] == 1 && isnan(m[1]) && m[2] == -1, "%g %g %g", m[0], m[1], m[2]);
}

/* ULPs between two floats of one sign (or zeros). */
static uint32_t ulps_between(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    return ia > ib ? (uint32_t)(ia - ib) : (uint32_t)(ib - ia);
}

/* SOFTMAX1 over rows whose elements lie up to 87 below the row's largest (x - max inexact,
 * e^(x - max) down to 1e-38): every element within precision.md's 3N + 3 ULPs of the softmax
 * in double. Rows under 64 carry the rounding of x - max into exp (cl/reduce.cl exp_diff):
 * within 8 ULPs; from 64 on x - max is taken as rounded, up to |x - max| 2^-24 relative. */
Test(reduce, softmax_far_below_the_maximum)
{
    static const uint32_t lengths[] = {5, 63, 64, 128, 4096};
    for (size_t li = 0; li < sizeof lengths / sizeof *lengths; ++li) {
        uint32_t n = lengths[li];
        const uint32_t sizes[2] = {2, n};
        float *x = malloc(2 * n * sizeof *x), *y = malloc(2 * n * sizeof *y);
        ref_rng rng = ref_rng_make(11 + li);
        for (uint32_t i = 0; i < 2 * n; ++i)
            x[i] = 1.2345678f - (float)ref_rng_range(&rng, 0, 87 << 16) / 65536.0f -
                   (float)ref_rng_range(&rng, 0, 1000) / 1e7f;
        x[3] = x[n + 1] = 1.2345678f; /* each row's largest */
        ops_tensor in, o;
        ops_tensor_init(&in, "InputTensor", false, F32, 2, sizes, NULL, 0, 0);
        ops_tensor_init(&o, "OutputTensor", true, F32, 2, sizes, NULL, 0, 0);
        static const UINT axis1[1] = {1};
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sd = {ops_tensor_desc(&in), ops_tensor_desc(&o), 1,
                                                    axis1};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_ACTIVATION_SOFTMAX1, &sd};
        cr_assert(SUCCEEDED(run_on_host(&desc, x, &in, y, &o)), "rows of %u: %s", n,
                  dmlcl_last_error());
        uint32_t worst = 0;
        for (uint32_t r = 0; r < 2; ++r) {
            const float *xr = x + r * n;
            double m = xr[0], s = 0;
            for (uint32_t c = 1; c < n; ++c)
                m = xr[c] > m ? xr[c] : m;
            for (uint32_t c = 0; c < n; ++c)
                s += exp((double)xr[c] - m);
            for (uint32_t c = 0; c < n; ++c) {
                uint32_t u = ulps_between(y[r * n + c], (float)(exp((double)xr[c] - m) / s));
                worst = u > worst ? u : worst;
            }
        }
        uint32_t allowed = n < 64 ? 8 : 3 * n + 3;
        cr_expect(worst <= allowed, "rows of %u: %u ULPs from the softmax in double (%u allowed)",
                  n, worst, allowed);
        if (ops_verbose())
            fprintf(stderr, "rows of %u: at most %u ULPs\n", n, worst);
        free(x);
        free(y);
    }
}

/* Folds over an outer axis with the innermost kept (COLS): on CPUs a work-group's items walk
 * the rows in step with barriers (SYNC), an item's columns partly past the row (1100 = 17 x 64
 * + 12) and items wholly past it (groups of 16 over the 18 items of each of 2 rows): each sum
 * and each index exact. */
Test(reduce, outer_axes_in_step)
{
    enum { A = 2, R = 77, C = 1100 };
    static float x[A * R * C];
    ref_rng rng = ref_rng_make(23);
    for (int i = 0; i < A * R * C; ++i)
        x[i] = (float)ref_rng_range(&rng, -64, 64) / 16;
    const uint32_t sizes[3] = {A, R, C};
    static const UINT axis1[1] = {1};
    static float s[A * C];
    static uint32_t idx[A * C];
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_SUM, 0, 3, sizes, x, 1,
                                   axis1, F32, s)),
              "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(run_packed(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, 0, 3, sizes, x,
                                   1, axis1, DML_TENSOR_DATA_TYPE_UINT32, idx)),
              "%s", dmlcl_last_error());
    int bad = 0;
    for (int a = 0; a < A; ++a)
        for (int c = 0; c < C; ++c) {
            double exact = 0;
            uint32_t best = 0;
            for (int r = 0; r < R; ++r) {
                float v = x[(a * R + r) * C + c];
                exact += v;
                if (v > x[(a * R + best) * C + c])
                    best = (uint32_t)r;
            }
            /* Sixteenths summed in float: exact (every partial sum is a multiple of 1/16 below
             * 2^20). */
            bad += s[a * C + c] != (float)exact || idx[a * C + c] != best;
        }
    cr_expect_eq(bad, 0, "%d of %d columns wrong", bad, A * C);
}

/* ---- Column folds split into slices (launch_reduce.c dmli_reduce_split) ------------------ */

/* The random folds again with every column fold split where its shape allows (a quarter of the
 * cache, a GPU's reduce_split_bytes, lowered to nothing): the slices' results in the temporary
 * resource (poisoned by ops_run_device), folded by a second step, each output within the
 * oracle's tolerance. */
#define RED_SPLIT_TEST(name, fn, count)                                                     \
    Test(reduce, split_##name)                                                              \
    {                                                                                       \
        char *saved = ops_tuning_set("stream_cache_divisor=1000000,reduce_split_bytes=1");  \
        red_cases("split_" #name, count, KIND_REDUCE, DML_REDUCE_FUNCTION_##fn, false);     \
        red_cases("split_specials_" #name, 4, KIND_REDUCE, DML_REDUCE_FUNCTION_##fn, true); \
        ops_tuning_restore(saved);                                                          \
    }

RED_SPLIT_TEST(sum, SUM, 12)
RED_SPLIT_TEST(average, AVERAGE, 8)
RED_SPLIT_TEST(l1, L1, 6)
RED_SPLIT_TEST(l2, L2, 8)
RED_SPLIT_TEST(log_sum, LOG_SUM, 6)
RED_SPLIT_TEST(max, MAX, 8)
RED_SPLIT_TEST(min, MIN, 8)
RED_SPLIT_TEST(multiply, MULTIPLY, 6)
RED_SPLIT_TEST(sum_square, SUM_SQUARE, 6)

/* REDUCE f over `axes` of a `type` input of `sizes` (strides: NULL packed), compiled under
 * tuning spec: its TemporaryResourceSize, and its output (run on host memory) in out. */
static UINT64 run_tuned(const char *spec, DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type,
                        uint32_t rank, const uint32_t *sizes, const uint32_t *strides,
                        const void *x, UINT n_axes, const UINT *axes, void *out)
{
    ops_tensor in, o;
    reduced_pair(&in, &o, type, type, rank, sizes, strides, n_axes, axes);
    DML_REDUCE_OPERATOR_DESC r = {f, ops_tensor_desc(&in), ops_tensor_desc(&o), n_axes, axes};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_REDUCE, &r};
    char *saved = ops_tuning_set(spec);
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *co = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, 0, &co), S_OK, "%s", dmlcl_last_error());
    ops_tuning_restore(saved);
    UINT64 temp = dmlcl_compiled_operator_binding_properties(co).TemporaryResourceSize;
    dmlcl_host_tensor hi = {(void *)x, in.buffer.TotalTensorSizeInBytes};
    dmlcl_host_tensor ho = {out, o.buffer.TotalTensorSizeInBytes};
    cr_assert_eq(dmlcl_compiled_operator_execute(co, 1, &hi, 1, &ho), S_OK, "%s",
                 dmlcl_last_error());
    if (temp) {
        /* Bound without its temporary resource, the dispatch is refused, naming it. */
        dmlcl_binding_table *t = NULL;
        cr_assert_eq(dmlcl_binding_table_create(co, &t), S_OK, "%s", dmlcl_last_error());
        cl_int err;
        cl_context ctx = dmlcl_device_context(ops_device());
        cl_mem mi = clCreateBuffer(ctx, CL_MEM_READ_WRITE, hi.size, NULL, &err);
        cl_mem mo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ho.size, NULL, &err);
        DML_BUFFER_BINDING bi = {(ID3D12Resource *)mi, 0, hi.size};
        DML_BUFFER_BINDING bo = {(ID3D12Resource *)mo, 0, ho.size};
        DML_BINDING_DESC di = {DML_BINDING_TYPE_BUFFER, &bi}, dout = {DML_BINDING_TYPE_BUFFER, &bo};
        cr_assert_eq(dmlcl_binding_table_bind_inputs(t, 1, &di), S_OK, "%s", dmlcl_last_error());
        cr_assert_eq(dmlcl_binding_table_bind_outputs(t, 1, &dout), S_OK, "%s", dmlcl_last_error());
        HRESULT hr =
            dmlcl_binding_table_dispatch(t, dmlcl_device_queue(ops_device()), 0, NULL, NULL);
        cr_expect_eq(hr, E_INVALIDARG, "a dispatch without the temporary resource: %s",
                     dmlcl_hresult_name(hr));
        cr_expect(strstr(dmlcl_last_error(), "BindTemporaryResource") != NULL, "%s",
                  dmlcl_last_error());
        dmlcl_binding_table_release(t);
        clReleaseMemObject(mi);
        clReleaseMemObject(mo);
    }
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(op);
    return temp;
}

/* Where a column fold splits (2 or more compute units, its whole rows fewer, its outermost
 * reduced dimension of a divisor p from 2 up to the compute units with slices of at least 16
 * positions: 64 rows split on any device of 2 units or more, 63 on one of 3 or more, as an
 * H200's 132, into 3 slices of 21, 31 never): every function that splits on FLOAT32,
 * FLOAT16 and two integer types, over one reduced dimension, two merged, and a transposed
 * input (columns 64 elements apart), against the same operator unsplit and a reference in
 * double: picks, integers and exact sums bit for bit, averages within N + 2 ULPs
 * (reference/precision.md's mean) of the mean of |x| (the slices' averages round before the values'
 * signs cancel: 7 ULPs of a result of -0.0139 on the H200), the rest within 4 ULPs of the result. A
 * shape that cannot split asks for no temporary resource. */
Test(reduce, split_column_folds)
{
    cl_uint units = 0;
    clGetDeviceInfo(dmlcl_device_id(ops_device()), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                    &units, NULL);
    if (units < 2)
        cr_skip_test("one compute unit: a column fold never splits");
    static const DML_REDUCE_FUNCTION fns[] = {
        DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_SUM_SQUARE, DML_REDUCE_FUNCTION_MULTIPLY,
        DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_MIN,        DML_REDUCE_FUNCTION_AVERAGE,
        DML_REDUCE_FUNCTION_L1,  DML_REDUCE_FUNCTION_L2,         DML_REDUCE_FUNCTION_LOG_SUM};
    static const DML_TENSOR_DATA_TYPE types[] = {F32, F16, DML_TENSOR_DATA_TYPE_INT32,
                                                 DML_TENSOR_DATA_TYPE_UINT8};
    static const struct {
        uint32_t rank, sizes[3], strides[3];
        UINT n_axes, axes[2];
        bool splits;
    } shapes[] = {
        {2, {64, 40}, {0}, 1, {0}, true},
        {3, {4, 16, 40}, {0}, 2, {0, 1}, true},
        {2, {64, 40}, {1, 64}, 1, {0}, true},
        {2, {63, 40}, {0}, 1, {0}, false}, /* splits: decided below from the device's units */
        {2, {31, 40}, {0}, 1, {0}, false},
    };
    static unsigned char x[64 * 64 * 8], split[64 * 8], whole[64 * 8];
    ref_rng rng = ref_rng_make(42);
    int checked = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (size_t fi = 0; fi < sizeof fns / sizeof fns[0]; ++fi)
            for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
                DML_REDUCE_FUNCTION f = fns[fi];
                DML_TENSOR_DATA_TYPE t = types[ti];
                if (!ref_reduce_takes(f, t))
                    continue;
                bool fl = ref_type_is_float(t),
                     picks = f == DML_REDUCE_FUNCTION_MAX || f == DML_REDUCE_FUNCTION_MIN;
                uint32_t rank = shapes[s].rank;
                const uint32_t *sz = shapes[s].sizes;
                const uint32_t *st = shapes[s].strides[0] ? shapes[s].strides : NULL;
                uint64_t total = 1;
                for (uint32_t d = 0; d < rank; ++d)
                    total *= sz[d];
                size_t es = ref_type_size(t);
                /* Values whose sums, squares and products are exact in the type: integers in
                 * [-4, 4] (FLOAT16 and the integers), sixteenths (FLOAT32); products of
                 * +-1 and +-2 (wrapping as the integers do); positive for the logs. */
                double v[64 * 64];
                for (uint64_t i = 0; i < total; ++i) {
                    double a;
                    if (f == DML_REDUCE_FUNCTION_MULTIPLY) /* FLOAT16: +-1 (65504 at most) */
                        a = (ref_rng_below(&rng, 2) ? -1.0 : 1.0) *
                            (t == F16 || ref_rng_below(&rng, 4) ? 1 : 2);
                    else if (t == F32)
                        a = (double)ref_rng_range(&rng, -64, 64) / 16;
                    else
                        a = (double)ref_rng_range(&rng, -4, 4);
                    if (t == DML_TENSOR_DATA_TYPE_UINT8 || f == DML_REDUCE_FUNCTION_LOG_SUM)
                        a = fabs(a) + (f == DML_REDUCE_FUNCTION_MULTIPLY ? 0 : 1);
                    v[i] = a;
                    put_value(t, a, x + i * es);
                }
                UINT64 ts = run_tuned("stream_cache_divisor=1000000,reduce_split_bytes=1", f, t,
                                      rank, sz, st, x, shapes[s].n_axes, shapes[s].axes, split);
                UINT64 tw = run_tuned("stream_cache_divisor=1000000,reduce_split_lanes=1", f, t,
                                      rank, sz, st, x, shapes[s].n_axes, shapes[s].axes, whole);
                /* The split's rule (src/launch_reduce.c dmli_reduce_split): every shape here
                 * keeps one whole row (kept 1), so up to `units` slices of the reduced axes. */
                uint32_t size0 = 1; /* the reduced axes (adjacent: merged into one) */
                for (UINT a = 0; a < shapes[s].n_axes; ++a)
                    size0 *= sz[shapes[s].axes[a]];
                bool splits = false;
                for (uint32_t p = 2; p <= units && !splits; ++p)
                    splits = size0 % p == 0 && size0 / p >= 16;
                cr_assert(!shapes[s].splits || splits, "shape %zu splits wherever 2 units do", s);
                cr_expect_eq(ts != 0, splits,
                             "shape %zu function %d type %d: TemporaryResourceSize %llu", s, (int)f,
                             (int)t, (unsigned long long)ts);
                cr_expect_eq(tw, 0, "unsplit: TemporaryResourceSize %llu", (unsigned long long)tw);
                /* The reference: columns of the input's last dimension, rows the rest. */
                uint32_t cols = sz[rank - 1];
                uint64_t rows = total / cols;
                for (uint32_t c = 0; c < cols; ++c) {
                    double acc = f == DML_REDUCE_FUNCTION_MULTIPLY ? 1 : 0, pick = 0, mag = 0;
                    uint64_t iacc = f == DML_REDUCE_FUNCTION_MULTIPLY; /* integers: wrapping */
                    for (uint64_t r = 0; r < rows; ++r) {
                        /* element (r, c) of the logical tensor: packed index r * cols + c; a
                         * strided input {1, 64} holds it at c * 64 + r */
                        double a = st ? v[c * 64 + r] : v[r * cols + c];
                        if (r == 0)
                            pick = a;
                        mag += fabs(a);
                        uint64_t ia = (uint64_t)(int64_t)a;
                        iacc = f == DML_REDUCE_FUNCTION_MULTIPLY     ? iacc * ia
                               : f == DML_REDUCE_FUNCTION_SUM_SQUARE ? iacc + ia * ia
                                                                     : iacc + ia;
                        switch (f) {
                        case DML_REDUCE_FUNCTION_SUM_SQUARE:
                        case DML_REDUCE_FUNCTION_L2: acc += a * a; break;
                        case DML_REDUCE_FUNCTION_MULTIPLY: acc *= a; break;
                        case DML_REDUCE_FUNCTION_L1: acc += fabs(a); break;
                        case DML_REDUCE_FUNCTION_MAX: pick = a > pick ? a : pick; break;
                        case DML_REDUCE_FUNCTION_MIN: pick = a < pick ? a : pick; break;
                        default: acc += a;
                        }
                    }
                    double want = picks ? pick : acc;
                    if (f == DML_REDUCE_FUNCTION_AVERAGE)
                        want = acc / (double)rows;
                    else if (f == DML_REDUCE_FUNCTION_L2)
                        want = sqrt(acc);
                    else if (f == DML_REDUCE_FUNCTION_LOG_SUM)
                        want = log(acc);
                    bool exact = !fl || picks || f == DML_REDUCE_FUNCTION_SUM ||
                                 f == DML_REDUCE_FUNCTION_SUM_SQUARE ||
                                 f == DML_REDUCE_FUNCTION_MULTIPLY || f == DML_REDUCE_FUNCTION_L1;
                    double got, unsplit;
                    if (fl) {
                        got = float_of(t, split + c * es);
                        unsplit = float_of(t, whole + c * es);
                    } else {
                        int64_t g = 0, w = 0;
                        memcpy(&g, split + c * es, es);
                        memcpy(&w, whole + c * es, es);
                        if (t == DML_TENSOR_DATA_TYPE_INT32) {
                            got = (int32_t)g;
                            unsplit = (int32_t)w;
                        } else {
                            got = (double)(uint8_t)g;
                            unsplit = (double)(uint8_t)w;
                        }
                        /* integers wrap to the type's width */
                        if (!picks)
                            want = t == DML_TENSOR_DATA_TYPE_INT32 ? (double)(int32_t)iacc
                                                                   : (double)(uint8_t)iacc;
                    }
                    /* An average's error is bounded by its values' magnitudes (the mean of
                     * |x|), not by a result their signs cancel to. */
                    const double ulps = f == DML_REDUCE_FUNCTION_AVERAGE ? (double)rows + 2 : 4,
                                 scale = f == DML_REDUCE_FUNCTION_AVERAGE ? mag / (double)rows
                                                                          : fabs(want);
                    double tol = exact ? 0 : ulps * scale * (t == F16 ? 0x1p-10 : 0x1p-23);
                    cr_expect(fabs(got - want) <= tol && fabs(unsplit - want) <= tol,
                              "shape %zu function %d type %d column %u: split %.9g, unsplit "
                              "%.9g, want %.9g",
                              s, (int)f, (int)t, c, got, unsplit, want);
                    if (exact)
                        cr_expect(memcmp(split + c * es, whole + c * es, es) == 0,
                                  "shape %zu function %d type %d column %u: split and unsplit "
                                  "differ",
                                  s, (int)f, (int)t, c);
                }
                ++checked;
            }
    cr_expect_gt(checked, 40, "%d cases", checked);
}
