/* SPDX-License-Identifier: MIT */
/*
 * elementwise.c: DirectML's element-wise arithmetic (ADD, SUBTRACT, MULTIPLY, DIVIDE, MAX,
 * MIN, MEAN, DIFFERENCE_SQUARE, NEGATE, ABS, CEIL, FLOOR, SQRT, RECIP, EXP, LOG) on the device
 * against the C reference (tests/ref/ref_elementwise.c), every type each operator takes.
 *
 * Random cases: ranks 1..8, inputs packed, padded, transposed, broadcast (0 strides) or
 * aliasing, outputs packed, padded or transposed, data with NaNs, infinities, -0.0,
 * subnormals and integer extremes (ops_fill_distinct), ScaleBias on the unary operators'
 * float types, in place (the output on A's range, one layout), bindings inside guarded
 * buffers and three ways of submitting. Float outputs compare within the operator's ULP
 * tolerance (reference/precision.md), integers exactly; every other byte must be unchanged.
 * Fixed cases: integer wrap, division by zero and by -1, NaN in MAX/MIN. Failures print the
 * seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
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
#include "ref_elementwise.h"

#define EW_DEFAULT_SEED 0x646D6C636C455731ull
#define EW_MAX_ELEMENTS 3000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct ew_kind {
    ref_ew_op op;
    DML_OPERATOR_TYPE type;
    bool scale_bias; /* the descriptor has ScaleBias */
    DML_TENSOR_DATA_TYPE types[10];
} ew_kind;

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define ALL_TEN                                                                                  \
    {                                                                                            \
        F32, F16, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,                        \
            DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT64,  \
            DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT8 \
    }
#define SIGNED_SIX                                                        \
    {                                                                     \
        F32, F16, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32, \
            DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_INT8         \
    }

/* DirectML's type tables (every feature level up to 6.4). */
static const ew_kind kinds[] = {
    {REF_EW_ADD, DML_OPERATOR_ELEMENT_WISE_ADD, false, ALL_TEN},
    {REF_EW_SUBTRACT, DML_OPERATOR_ELEMENT_WISE_SUBTRACT, false, ALL_TEN},
    {REF_EW_MULTIPLY, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, false, ALL_TEN},
    {REF_EW_DIVIDE, DML_OPERATOR_ELEMENT_WISE_DIVIDE, false, ALL_TEN},
    {REF_EW_MAX, DML_OPERATOR_ELEMENT_WISE_MAX, false, ALL_TEN},
    {REF_EW_MIN, DML_OPERATOR_ELEMENT_WISE_MIN, false, ALL_TEN},
    {REF_EW_MEAN,
     DML_OPERATOR_ELEMENT_WISE_MEAN,
     false,
     {F32, F16, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32}},
    {REF_EW_DIFFERENCE_SQUARE,
     DML_OPERATOR_ELEMENT_WISE_DIFFERENCE_SQUARE,
     false,
     {F32, F16, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32}},
    {REF_EW_NEGATE, DML_OPERATOR_ELEMENT_WISE_NEGATE, false, SIGNED_SIX},
    {REF_EW_ABS, DML_OPERATOR_ELEMENT_WISE_ABS, true, SIGNED_SIX},
    {REF_EW_CEIL, DML_OPERATOR_ELEMENT_WISE_CEIL, true, {F32, F16}},
    {REF_EW_FLOOR, DML_OPERATOR_ELEMENT_WISE_FLOOR, true, {F32, F16}},
    {REF_EW_SQRT, DML_OPERATOR_ELEMENT_WISE_SQRT, true, {F32, F16}},
    {REF_EW_RECIP, DML_OPERATOR_ELEMENT_WISE_RECIP, true, {F32, F16}},
    {REF_EW_EXP, DML_OPERATOR_ELEMENT_WISE_EXP, true, {F32, F16}},
    {REF_EW_LOG, DML_OPERATOR_ELEMENT_WISE_LOG, true, {F32, F16}},
};

static unsigned type_count(const ew_kind *k)
{
    unsigned n = 0;
    while (n < COUNT_OF(k->types) && k->types[n])
        ++n;
    return n;
}

typedef struct ew_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    const ew_kind *kind;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    ops_layout layout[3];
    bool in_place, scale_bias;
    ops_submit submit;
    ops_tensor a, b, out;
    DML_SCALE_BIAS sb;
    union {
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC binary; /* every binary row's layout */
        DML_ELEMENT_WISE_ABS_OPERATOR_DESC unary;  /* every unary row's with ScaleBias */
        DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC negate;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} ew_case;

static ops_seed run_seed = OPS_SEED(EW_DEFAULT_SEED);

static bool binary(const ew_case *c)
{
    return ref_ew_binary(c->kind->op);
}

static void ew_descs(ew_case *c)
{
    if (binary(c))
        c->d.binary = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){
            ops_tensor_desc(&c->a), ops_tensor_desc(&c->b), ops_tensor_desc(&c->out)};
    else if (c->kind->scale_bias)
        c->d.unary = (DML_ELEMENT_WISE_ABS_OPERATOR_DESC){
            ops_tensor_desc(&c->a), ops_tensor_desc(&c->out), c->scale_bias ? &c->sb : NULL};
    else
        c->d.negate = (DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC){ops_tensor_desc(&c->a),
                                                              ops_tensor_desc(&c->out)};
    c->desc.Type = c->kind->type;
    c->desc.Desc = &c->d;
}

static void ew_generate(ew_case *c, ref_rng *rng, const ew_kind *kind, DML_TENSOR_DATA_TYPE type)
{
    uint32_t sizes[REF_MAX_DIMS];
    c->kind = kind;
    c->type = type;
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, EW_MAX_ELEMENTS);
    c->in_place = ref_rng_chance(rng, 15);
    const char *first = binary(c) ? "ATensor" : "InputTensor";
    if (c->in_place) {
        /* A and the output on one range, one layout. */
        uint32_t strides[REF_MAX_DIMS];
        c->layout[0] = c->layout[2] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->a, first, false, type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->out, "OutputTensor", true, type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->a, rng, first, false, type, c->rank, sizes, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, sizes, &c->layout[2]);
    }
    if (binary(c))
        ops_random_tensor(&c->b, rng, "BTensor", false, type, c->rank, sizes, &c->layout[1]);
    c->scale_bias =
        kind->scale_bias &&
        (type == DML_TENSOR_DATA_TYPE_FLOAT32 || type == DML_TENSOR_DATA_TYPE_FLOAT16) &&
        ref_rng_chance(rng, 40);
    c->sb.Scale = (float)ref_rng_range(rng, -8, 8) / 4.0f;
    c->sb.Bias = (float)ref_rng_range(rng, -100, 100) / 8.0f;
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    ew_descs(c);
}

static void ew_place(ew_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->a, false);
    if (binary(c))
        ops_memory_place(&c->mem, rng, &c->b, ref_rng_chance(rng, 30));
    if (c->in_place) {
        c->out.slot = c->a.slot;
        c->out.offset = c->a.offset;
        c->out.bind_size = c->a.bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
}

static void fill(ew_case *c, ref_rng *rng, ops_tensor *t)
{
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / ref_type_size(c->type);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, t), slots);
}

/* Fills the inputs, runs the reference into expect and poisons the output in init. */
static void ew_fill(ew_case *c, ref_rng *rng)
{
    fill(c, rng, &c->a);
    if (binary(c))
        fill(c, rng, &c->b);
    ops_memory_snapshot(&c->mem);
    ref_tensor a = ops_view(&c->mem, OPS_INIT, &c->a), b = ops_view(&c->mem, OPS_INIT, &c->b);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    cr_assert(ref_elementwise(c->kind->op, &a, binary(c) ? &b : NULL, c->scale_bias ? &c->sb : NULL,
                              &out),
              "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static const char *ew_describe(const ew_case *c, char *buf, size_t len)
{
    char head[512], a[512], b[512], out[512];
    snprintf(buf, len,
             "%s\n  %s; layouts %s/%s/%s; %s; ScaleBias %s {%g, %g}; submit %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, ref_ew_name(c->kind->op), "elementwise", c->test,
                        c->number, c->seed),
             ref_type_name(c->type), ops_layout_name(c->layout[0]),
             binary(c) ? ops_layout_name(c->layout[1]) : "-", ops_layout_name(c->layout[2]),
             c->in_place ? "in place" : "apart", c->scale_bias ? "on" : "off", c->sb.Scale,
             c->sb.Bias, ops_submit_name(c->submit), ops_tensor_describe(&c->a, a, sizeof a),
             binary(c) ? ops_tensor_describe(&c->b, b, sizeof b) : "",
             ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

static bool is_nan(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
    }
    float f;
    memcpy(&f, p, 4);
    return isnan(f);
}

/* Float output elements within the operator's tolerance count as equal: the reference's bytes
 * go into what came back, so the byte comparison then sees only real differences. */
static void accept_tolerance(ew_case *c)
{
    unsigned ulps = ref_elementwise_ulps(c->kind->op);
    double abs_tol = ref_elementwise_abs(c->kind->op);
    if (!ref_type_is_float(c->type))
        return;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    if (ref_element_count(e.rank, e.sizes) == 0)
        return;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        /* Exact operators compare bits (-0 is not +0), but any NaN matches any NaN; an absolute
         * tolerance holds between finite values (an infinity matches only itself). */
        bool accept =
            ulps ? ref_float_close(c->type, x, y, ulps) : is_nan(c->type, x) && is_nan(c->type, y);
        if (!accept && abs_tol > 0) {
            double dx = value_of(c->type, x), dy = value_of(c->type, y);
            accept = isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= abs_tol;
        }
        if (accept)
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void ew_run(ew_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[2] = {&c->a, &c->b}, *outputs[1] = {&c->out};
    /* The output, and the inputs that are not its range. */
    ops_tensor *all[3] = {&c->out, NULL, NULL};
    int n_all = 1;
    if (!c->in_place)
        all[n_all++] = &c->a;
    if (binary(c))
        all[n_all++] = &c->b;
    const char *stage = "";
    UINT n_in = binary(c) ? 2 : 1;
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, n_in, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", ew_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", ew_describe(c, what, sizeof what), bad,
              diff);
}

static void ew_cases(const char *test, unsigned count, const ew_kind *kind)
{
    static ew_case c;
    long only = ops_only_case();
    unsigned types = type_count(kind);
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        ew_generate(&c, &rng, kind, kind->types[n % types]);
        ew_place(&c, &rng);
        ew_fill(&c, &rng);
        ew_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(elementwise);

/* Every type of each operator, twice over (the first cases cycle through the types). */
#define EW_RANDOM_TEST(name, index)                                              \
    Test(elementwise, random_##name)                                             \
    {                                                                            \
        ew_cases("random_" #name, 2 * type_count(&kinds[index]), &kinds[index]); \
    }

EW_RANDOM_TEST(add, 0)
EW_RANDOM_TEST(subtract, 1)
EW_RANDOM_TEST(multiply, 2)
EW_RANDOM_TEST(divide, 3)
EW_RANDOM_TEST(max, 4)
EW_RANDOM_TEST(min, 5)
EW_RANDOM_TEST(mean, 6)
EW_RANDOM_TEST(difference_square, 7)
EW_RANDOM_TEST(negate, 8)
EW_RANDOM_TEST(abs, 9)
EW_RANDOM_TEST(ceil, 10)
EW_RANDOM_TEST(floor, 11)
EW_RANDOM_TEST(sqrt, 12)
EW_RANDOM_TEST(recip, 13)
EW_RANDOM_TEST(exp, 14)
EW_RANDOM_TEST(log, 15)

/* ---- Fixed cases: the rules the pages leave to the implementation -------------------- */

/* One packed 1-D binary operation on host memory: out = op(a, b), each array holding the
 * tensor's TotalTensorSizeInBytes (n elements rounded up to 4 bytes). */
static HRESULT run_packed(DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE dt, UINT n, void *a, void *b,
                          void *out)
{
    UINT sizes[1] = {n};
    DML_BUFFER_TENSOR_DESC bufs[3];
    DML_TENSOR_DESC tds[3];
    for (int i = 0; i < 3; ++i) {
        bufs[i] = (DML_BUFFER_TENSOR_DESC){
            dt, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, DMLCalcBufferTensorSize(dt, 1, sizes, NULL),
            0};
        tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &bufs[i]};
    }
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC d = {&tds[0], &tds[1], &tds[2]}; /* every binary desc */
    DML_OPERATOR_DESC desc = {type, &d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    uint64_t bytes = bufs[0].TotalTensorSizeInBytes;
    dmlcl_host_tensor in[2] = {{a, bytes}, {b, bytes}}, o = {out, bytes};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, 2, in, 1, &o);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

Test(elementwise, integer_rules)
{
    /* INT32: wrap on ADD and MULTIPLY; DIVIDE truncates toward zero, x / 0 is -1 (every bit
     * set), INT32_MIN / -1 wraps to INT32_MIN; MEAN truncates toward zero. */
    int32_t a[6] = {INT32_MAX, -7, 7, INT32_MIN, 5, -3};
    int32_t b[6] = {1, 2, -2, -1, 0, 0};
    int32_t got[6];
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_INT32, 6, a, b, got), S_OK,
        "%s", dmlcl_last_error());
    cr_expect_eq(got[0], INT32_MIN, "INT32_MAX + 1 wraps: %d", got[0]);
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_DIVIDE, DML_TENSOR_DATA_TYPE_INT32, 6, a, b, got),
        S_OK, "%s", dmlcl_last_error());
    const int32_t want_div[6] = {INT32_MAX, -3, -3, INT32_MIN, -1, -1};
    for (int i = 0; i < 6; ++i)
        cr_expect_eq(got[i], want_div[i], "%d / %d: %d, expected %d", a[i], b[i], got[i],
                     want_div[i]);
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_MEAN, DML_TENSOR_DATA_TYPE_INT32, 6, a, b, got), S_OK,
        "%s", dmlcl_last_error());
    cr_expect_eq(got[1], -2, "mean(-7, 2) = -2.5 truncates to -2: %d", got[1]);
    cr_expect_eq(got[0], 1073741824, "mean(INT32_MAX, 1) without overflow: %d", got[0]);
    /* UINT8: 250 + 10 wraps to 4; 3 - 5 to 254; 7 / 0 is 255. */
    uint8_t ua[4] = {250, 3, 7, 1}, ub[4] = {10, 5, 0, 1};
    uint8_t ug[4];
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_UINT8, 4, ua, ub, ug), S_OK,
        "%s", dmlcl_last_error());
    cr_expect_eq(ug[0], 4);
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_SUBTRACT, DML_TENSOR_DATA_TYPE_UINT8, 4, ua, ub, ug),
        S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(ug[1], 254);
    cr_assert_eq(
        run_packed(DML_OPERATOR_ELEMENT_WISE_DIVIDE, DML_TENSOR_DATA_TYPE_UINT8, 4, ua, ub, ug),
        S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(ug[2], 255);
}

Test(elementwise, float_max_min_nan_and_zeros)
{
    float a[4] = {NAN, 1.0f, -0.0f, NAN}, b[4] = {2.0f, NAN, 0.0f, NAN};
    float got[4];
    cr_assert_eq(run_packed(DML_OPERATOR_ELEMENT_WISE_MAX, F32, 4, a, b, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[0] == 2.0f && got[1] == 1.0f, "a NaN gives the other operand: %g %g", got[0],
              got[1]);
    cr_expect(got[2] == 0.0f && !signbit(got[2]), "max(-0, +0) is +0");
    cr_expect(isnan(got[3]), "max(NaN, NaN) is NaN");
    cr_assert_eq(run_packed(DML_OPERATOR_ELEMENT_WISE_MIN, F32, 4, a, b, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[0] == 2.0f && got[1] == 1.0f);
    cr_expect(got[2] == 0.0f && signbit(got[2]), "min(-0, +0) is -0");
}

/* ---- Non-temporal stores (CPUs: cl/map.cl STREAM) ------------------------------------ */

/* One operator on host memory: inputs [rows, run] packed, the output [rows, run] with rows
 * `pitch` elements apart (the padding between them must come back unchanged). */
static void run_rows(const char *what, const DML_OPERATOR_DESC *desc, int n_in, void **in,
                     size_t in_bytes, void *out, size_t out_bytes)
{
    dmlcl_host_tensor ins[2] = {{n_in > 0 ? in[0] : NULL, in_bytes},
                                {n_in > 1 ? in[1] : NULL, in_bytes}};
    ops_execute_on_host(what, desc, (UINT)n_in, ins, (dmlcl_host_tensor){out, out_bytes});
}

Test(elementwise, streaming_stores_every_width)
{
    /* Every map made to stream (DMLCL_TUNING: non-temporal stores from 1/2^30 of the cache):
     * rows of 700 or 1000 elements, 3 elements of padding between output rows, so each row
     * starts at another offset in a 64-byte line: elements one by one up to a line boundary,
     * blocks of whole lines, then the tail. FLOAT32 ADD (exact in float), CAST FLOAT32 to
     * FLOAT16 (rounded once to nearest even: ref_half_from_double), CLIP1 on INT8 and
     * FILL_VALUE_SEQUENCE (which reads the element's index) against the rule computed here;
     * the padding between rows comes back as it was. */
    char *saved = ops_tuning_set("stream_cache_divisor=1073741824");
    enum { ROWS = 5, PAD = 3 };
    for (int t = 0; t < 4; ++t) {
        UINT run = t == 2 ? 1000 : 700, pitch = run + PAD;
        UINT sizes[2] = {ROWS, run}, out_strides[2] = {pitch, 1};
        DML_TENSOR_DATA_TYPE in_type = t == 2 ? DML_TENSOR_DATA_TYPE_INT8 : F32;
        DML_TENSOR_DATA_TYPE out_type = t == 1 ? F16 : in_type;
        size_t n = (size_t)ROWS * run, in_size = t == 2 ? 1 : 4, out_size = t == 1 ? 2 : in_size;
        DML_BUFFER_TENSOR_DESC ib = {in_type, DML_TENSOR_FLAG_NONE,
                                     2,       sizes,
                                     NULL,    DMLCalcBufferTensorSize(in_type, 2, sizes, NULL),
                                     0};
        DML_BUFFER_TENSOR_DESC ob = {out_type,
                                     DML_TENSOR_FLAG_NONE,
                                     2,
                                     sizes,
                                     out_strides,
                                     DMLCalcBufferTensorSize(out_type, 2, sizes, out_strides),
                                     0};
        DML_TENSOR_DESC it = {DML_TENSOR_TYPE_BUFFER, &ib}, ot = {DML_TENSOR_TYPE_BUFFER, &ob};
        size_t in_bytes = (size_t)ib.TotalTensorSizeInBytes,
               out_bytes = (size_t)ob.TotalTensorSizeInBytes;
        unsigned char *a = malloc(in_bytes), *b = malloc(in_bytes), *out = malloc(out_bytes);
        cr_assert(a && b && out);
        ref_rng rng = ref_rng_make(0x5354524541ull + (uint64_t)t);
        for (size_t i = 0; i < n; ++i) {
            if (t == 2) {
                ((int8_t *)a)[i] = (int8_t)(ref_rng_next(&rng) >> 56);
            } else {
                ((float *)a)[i] = (float)((double)(int32_t)(ref_rng_next(&rng) >> 32) / 65536.0);
                ((float *)b)[i] = (float)((double)(int32_t)(ref_rng_next(&rng) >> 32) / 3.0);
            }
        }
        memset(out, 0xA5, out_bytes);
        void *ins[2] = {a, b};
        DML_OPERATOR_DESC desc;
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {&it, &it, &ot};
        DML_CAST_OPERATOR_DESC cast = {&it, &ot};
        DML_SCALAR_UNION lo = {0}, hi = {0}, start = {0}, delta = {0};
        lo.Int8 = -50;
        hi.Int8 = 50;
        DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC clip = {&it, &ot, NULL, DML_TENSOR_DATA_TYPE_INT8,
                                                     lo,  hi};
        start.Float32 = 1.0f;
        delta.Float32 = 2.0f;
        DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC seq = {&ot, F32, start, delta};
        const char *what[4] = {"ADD FLOAT32", "CAST FLOAT32 to FLOAT16", "CLIP1 INT8",
                               "FILL_VALUE_SEQUENCE FLOAT32"};
        if (t == 0)
            desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_ADD, &add};
        else if (t == 1)
            desc = (DML_OPERATOR_DESC){DML_OPERATOR_CAST, &cast};
        else if (t == 2)
            desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP1, &clip};
        else
            desc = (DML_OPERATOR_DESC){DML_OPERATOR_FILL_VALUE_SEQUENCE, &seq};
        run_rows(what[t], &desc, t == 0 ? 2 : t == 3 ? 0 : 1, ins, in_bytes, out, out_bytes);
        size_t bad = 0;
        for (size_t p = 0; p * out_size < out_bytes; ++p) {
            size_t r = p / pitch, u = p % pitch, i = r * run + u;
            unsigned char want[4];
            if (u >= run) {
                memset(want, 0xA5, sizeof want); /* padding: unchanged */
            } else if (t == 0) {
                float v = ((float *)a)[i] + ((float *)b)[i];
                memcpy(want, &v, 4);
            } else if (t == 1) {
                uint16_t h = ref_half_from_double((double)((float *)a)[i]);
                memcpy(want, &h, 2);
            } else if (t == 2) {
                int8_t x = ((int8_t *)a)[i];
                want[0] = (unsigned char)(int8_t)(x < -50 ? -50 : x > 50 ? 50 : x);
            } else {
                float v = 1.0f + 2.0f * (float)i;
                memcpy(want, &v, 4);
            }
            if (memcmp(out + p * out_size, want, out_size) != 0 && bad++ < 5)
                cr_log_error("%s: element %zu (row %zu, column %zu) differs", what[t], p, r, u);
        }
        cr_expect_eq(bad, 0, "%s: %zu elements differ", what[t], bad);
        free(a);
        free(b);
        free(out);
    }
    ops_tuning_restore(saved);
}

/* ---- An input read across the run in tiles (CPUs: cl/map.cl TILE) ------------------------ */

/* NHWC sizes {n, h, w, c} of A read from NCHW memory (strides {c*h*w, w, 1, h*w}), B either a
 * channel bias (strides {0, 0, 0, 1}) or NHWC memory, the output NHWC with rows pitch apart
 * (c <= pitch). Every element checked against the rule computed here; padding unchanged. */
typedef struct tile_case {
    const char *what;
    DML_OPERATOR_TYPE op;
    DML_TENSOR_DATA_TYPE a_type, out_type;
    UINT n, h, w, c, pitch;
    bool bias; /* B a channel bias (else NHWC memory); ADD and MULTIPLY only */
} tile_case;

static void run_tile_case(const tile_case *tc)
{
    UINT sizes[4] = {tc->n, tc->h, tc->w, tc->c};
    UINT a_strides[4] = {tc->c * tc->h * tc->w, tc->w, 1, tc->h * tc->w};
    UINT b_strides[4] = {0, 0, 0, 1};
    UINT o_strides[4] = {tc->h * tc->w * tc->pitch, tc->w * tc->pitch, tc->pitch, 1};
    bool binary_op =
        tc->op == DML_OPERATOR_ELEMENT_WISE_ADD || tc->op == DML_OPERATOR_ELEMENT_WISE_MULTIPLY;
    DML_BUFFER_TENSOR_DESC ab = {
        tc->a_type, DML_TENSOR_FLAG_NONE,
        4,          sizes,
        a_strides,  DMLCalcBufferTensorSize(tc->a_type, 4, sizes, a_strides),
        0};
    DML_BUFFER_TENSOR_DESC bb = {
        tc->a_type,
        DML_TENSOR_FLAG_NONE,
        4,
        sizes,
        tc->bias ? b_strides : NULL,
        DMLCalcBufferTensorSize(tc->a_type, 4, sizes, tc->bias ? b_strides : NULL),
        0};
    DML_BUFFER_TENSOR_DESC ob = {tc->out_type,
                                 DML_TENSOR_FLAG_NONE,
                                 4,
                                 sizes,
                                 o_strides,
                                 DMLCalcBufferTensorSize(tc->out_type, 4, sizes, o_strides),
                                 0};
    DML_TENSOR_DESC at = {DML_TENSOR_TYPE_BUFFER, &ab}, bt = {DML_TENSOR_TYPE_BUFFER, &bb},
                    ot = {DML_TENSOR_TYPE_BUFFER, &ob};
    size_t a_bytes = (size_t)ab.TotalTensorSizeInBytes, b_bytes = (size_t)bb.TotalTensorSizeInBytes,
           o_bytes = (size_t)ob.TotalTensorSizeInBytes;
    size_t osz = tc->out_type == F16 ? 2 : 4;
    unsigned char *a = malloc(a_bytes), *b = malloc(b_bytes), *out = malloc(o_bytes);
    cr_assert(a && b && out);
    ref_rng rng = ref_rng_make(0x54494c45ull + tc->c);
    for (size_t i = 0; i < a_bytes / 4; ++i) {
        uint32_t v = (uint32_t)(ref_rng_next(&rng) >> 32);
        if (tc->a_type == F32) {
            float f = (float)((int32_t)v >> 12) / 64.0f;
            memcpy(a + 4 * i, &f, 4);
        } else {
            memcpy(a + 4 * i, &v, 4);
        }
    }
    for (size_t i = 0; i < b_bytes / 4; ++i) {
        uint32_t v = (uint32_t)(ref_rng_next(&rng) >> 32);
        if (tc->a_type == F32) {
            float f = (float)((int32_t)v >> 16) / 8.0f;
            memcpy(b + 4 * i, &f, 4);
        } else {
            memcpy(b + 4 * i, &v, 4);
        }
    }
    memset(out, 0xA5, o_bytes);
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC bin = {&at, &bt, &ot};
    DML_CAST_OPERATOR_DESC cast = {&at, &ot};
    DML_SCALAR_UNION lo = {0}, hi = {0};
    lo.UInt32 = 1000;
    hi.UInt32 = 3000000000u;
    DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC clip = {&at, &ot, NULL, DML_TENSOR_DATA_TYPE_UINT32,
                                                 lo,  hi};
    DML_OPERATOR_DESC desc = {tc->op, binary_op                     ? (void *)&bin
                                      : tc->op == DML_OPERATOR_CAST ? (void *)&cast
                                                                    : (void *)&clip};
    void *ins[2] = {a, b};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &op), S_OK, "%s: %s", tc->what,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s: %s", tc->what,
                 dmlcl_last_error());
    dmlcl_host_tensor hin[2] = {{ins[0], a_bytes}, {ins[1], b_bytes}}, hout = {out, o_bytes};
    cr_assert_eq(dmlcl_compiled_operator_execute(c, binary_op ? 2 : 1, hin, 1, &hout), S_OK,
                 "%s: %s", tc->what, dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    size_t bad = 0, rows = (size_t)tc->n * tc->h * tc->w;
    for (size_t r = 0; r < rows; ++r)
        for (UINT p = 0; p < tc->pitch; ++p) {
            size_t n = r / ((size_t)tc->h * tc->w), hw = r % ((size_t)tc->h * tc->w);
            unsigned char want[4], *got = out + (r * tc->pitch + p) * osz;
            if ((r * tc->pitch + p + 1) * osz > o_bytes)
                break; /* the last row's padding is past the tensor */
            if (p >= tc->c) {
                memset(want, 0xA5, sizeof want);
            } else {
                const unsigned char *ap =
                    a + 4 * (n * tc->c * tc->h * tc->w + (size_t)p * tc->h * tc->w + hw);
                const unsigned char *bp = b + 4 * (tc->bias ? p : r * tc->c + p);
                if (tc->op == DML_OPERATOR_CAST) {
                    uint16_t hbits = ref_half_from_double(value_of(F32, ap));
                    memcpy(want, &hbits, 2);
                } else if (tc->op == DML_OPERATOR_ELEMENT_WISE_CLIP1) {
                    uint32_t x;
                    memcpy(&x, ap, 4);
                    x = x < 1000u ? 1000u : x > 3000000000u ? 3000000000u : x;
                    memcpy(want, &x, 4);
                } else if (tc->a_type == F32) {
                    float x, y;
                    memcpy(&x, ap, 4);
                    memcpy(&y, bp, 4);
                    float v = tc->op == DML_OPERATOR_ELEMENT_WISE_ADD ? x + y : x * y;
                    memcpy(want, &v, 4);
                } else {
                    uint32_t x, y;
                    memcpy(&x, ap, 4);
                    memcpy(&y, bp, 4);
                    uint32_t v = tc->op == DML_OPERATOR_ELEMENT_WISE_ADD ? x + y : x * y;
                    memcpy(want, &v, 4);
                }
            }
            if (memcmp(got, want, osz) != 0 && bad++ < 5)
                cr_log_error("%s: row %zu, channel %u differs", tc->what, r, p);
        }
    cr_expect_eq(bad, 0, "%s: %zu elements differ", tc->what, bad);
    free(a);
    free(b);
    free(out);
}

Test(elementwise, transposed_input_tiles)
{
    /* NCHW read as NHWC into an element-wise operator: H x W a multiple of 16 and C of 16 (a
     * CPU map's tiles, cl/map.cl TILE: C = 160 two chunks of the run, the second short), then
     * shapes that take the element-by-element path (C = 40, H x W = 24); a bias, a second
     * NHWC input (its stride along W runtime), integer types, a FLOAT16 output, output rows
     * padded (pitch > C). Run three times: with the default streaming threshold, with every
     * output streaming (whole-line non-temporal rows where a row is line-aligned, plain
     * stores where not), and with the tiles transposed by 4 x 4 blocks (map_tile_block16 off:
     * a CPU whose floats are 16 wide takes 16 x 16 blocks, TILE16, the others 4 x 4). */
    const tile_case cases[] = {
        {"ADD FLOAT32 + channel bias", DML_OPERATOR_ELEMENT_WISE_ADD, F32, F32, 2, 4, 8, 48, 48,
         true},
        {"MULTIPLY FLOAT32 x NHWC", DML_OPERATOR_ELEMENT_WISE_MULTIPLY, F32, F32, 1, 2, 16, 32, 32,
         false},
        {"ADD INT32, C 160, padded rows", DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_INT32,
         DML_TENSOR_DATA_TYPE_INT32, 1, 2, 8, 160, 164, true},
        {"CLIP1 UINT32", DML_OPERATOR_ELEMENT_WISE_CLIP1, DML_TENSOR_DATA_TYPE_UINT32,
         DML_TENSOR_DATA_TYPE_UINT32, 2, 1, 32, 16, 16, false},
        {"CAST FLOAT32 to FLOAT16", DML_OPERATOR_CAST, F32, F16, 1, 4, 4, 64, 64, false},
        {"ADD FLOAT32, C 40 (no tiles)", DML_OPERATOR_ELEMENT_WISE_ADD, F32, F32, 1, 4, 8, 40, 40,
         true},
        {"ADD FLOAT32, H x W 24 (no tiles)", DML_OPERATOR_ELEMENT_WISE_ADD, F32, F32, 1, 4, 6, 32,
         32, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        run_tile_case(&cases[i]);
    char *saved = ops_tuning_set("stream_cache_divisor=1073741824");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        run_tile_case(&cases[i]);
    ops_tuning_restore(saved);
    saved = ops_tuning_set("map_tile_block16=2");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        run_tile_case(&cases[i]);
    ops_tuning_restore(saved);
}
