/* SPDX-License-Identifier: MIT */
/*
 * elementwise_math.c: DirectML's further element-wise arithmetic (ACOS ... THRESHOLD, the
 * map's OPs 17-38) on the device against the C oracle (tests/ref/ref_math.c), every type
 * each operator takes.
 *
 * Random cases as tests/ops/elementwise.c draws them: ranks 1..8, packed, padded, transposed,
 * broadcast or aliasing inputs, in place, ScaleBias on the float types of the descriptors that
 * have one, data with NaNs, infinities, -0.0, subnormals and integer extremes; each operator's
 * parameters drawn too (CLIP's bounds, sometimes crossed; CLIP1's typed bounds; ROUND's mode;
 * CONSTANT_POW's exponent). Float outputs compare within the operator's tolerance
 * (ref_math_ulps / ref_math_abs: docs/operators.md), integers exactly. Fixed cases: every
 * rounding mode, modulus and power rules (division by zero, the most negative value, mixed
 * POW types), CLIP's and THRESHOLD's NaN, -0 and crossed bounds, SIGN. DMLCL_TEST_SEED
 * replays a run, DMLCL_TEST_CASE=<n> one case.
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
#include "ref_math.h"

#define EWM_DEFAULT_SEED 0x646D6C636C4D5448ull
#define EWM_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8
#define TEN                                            \
    {                                                  \
        F32, F16, I64, I32, I16, I8, U64, U32, U16, U8 \
    }
#define EIGHT                                \
    {                                        \
        F32, F16, I32, I16, I8, U32, U16, U8 \
    }

typedef enum ewm_shape {
    SHAPE_UNARY_SB, /* {Input, Output, ScaleBias} */
    SHAPE_BINARY,   /* {A, B, Output} */
    SHAPE_POW,      /* {Input, Exponent, Output, ScaleBias} */
    SHAPE_CLIP,     /* {Input, Output, ScaleBias, Min, Max} */
    SHAPE_CLIP1,
    SHAPE_CONSTANT_POW,
    SHAPE_THRESHOLD,
    SHAPE_ROUND,
    SHAPE_SIGN
} ewm_shape;

typedef struct ewm_kind {
    ref_math_op op;
    DML_OPERATOR_TYPE type;
    ewm_shape shape;
    DML_TENSOR_DATA_TYPE types[10];
} ewm_kind;

/* DirectML's type tables (every feature level up to 6.4). */
static const ewm_kind kinds[] = {
    {REF_MATH_ACOS, DML_OPERATOR_ELEMENT_WISE_ACOS, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ACOSH, DML_OPERATOR_ELEMENT_WISE_ACOSH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ASIN, DML_OPERATOR_ELEMENT_WISE_ASIN, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ASINH, DML_OPERATOR_ELEMENT_WISE_ASINH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ATAN, DML_OPERATOR_ELEMENT_WISE_ATAN, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ATANH, DML_OPERATOR_ELEMENT_WISE_ATANH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_COS, DML_OPERATOR_ELEMENT_WISE_COS, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_COSH, DML_OPERATOR_ELEMENT_WISE_COSH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ERF, DML_OPERATOR_ELEMENT_WISE_ERF, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_SIN, DML_OPERATOR_ELEMENT_WISE_SIN, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_SINH, DML_OPERATOR_ELEMENT_WISE_SINH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_TAN, DML_OPERATOR_ELEMENT_WISE_TAN, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_TANH, DML_OPERATOR_ELEMENT_WISE_TANH, SHAPE_UNARY_SB, {F32, F16}},
    {REF_MATH_ATAN_YX, DML_OPERATOR_ELEMENT_WISE_ATAN_YX, SHAPE_BINARY, {F32, F16}},
    {REF_MATH_CLIP, DML_OPERATOR_ELEMENT_WISE_CLIP, SHAPE_CLIP, TEN},
    {REF_MATH_CLIP, DML_OPERATOR_ELEMENT_WISE_CLIP1, SHAPE_CLIP1, TEN},
    {REF_MATH_CONSTANT_POW, DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW, SHAPE_CONSTANT_POW, {F32, F16}},
    {REF_MATH_MODULUS_FLOOR, DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, SHAPE_BINARY, TEN},
    {REF_MATH_MODULUS_TRUNCATE, DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE, SHAPE_BINARY, TEN},
    {REF_MATH_POW, DML_OPERATOR_ELEMENT_WISE_POW, SHAPE_POW, EIGHT},
    {REF_MATH_ROUND, DML_OPERATOR_ELEMENT_WISE_ROUND, SHAPE_ROUND, {F32, F16}},
    {REF_MATH_SIGN, DML_OPERATOR_ELEMENT_WISE_SIGN, SHAPE_SIGN, TEN},
    {REF_MATH_THRESHOLD, DML_OPERATOR_ELEMENT_WISE_THRESHOLD, SHAPE_THRESHOLD, EIGHT},
};

static unsigned type_count(const ewm_kind *k)
{
    unsigned n = 0;
    while (n < COUNT_OF(k->types) && k->types[n])
        ++n;
    return n;
}

static bool has_b(const ewm_kind *k)
{
    return k->shape == SHAPE_BINARY || k->shape == SHAPE_POW;
}

static bool has_sb(const ewm_kind *k)
{
    return k->shape != SHAPE_BINARY && k->shape != SHAPE_ROUND && k->shape != SHAPE_SIGN;
}

typedef struct ewm_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    const ewm_kind *kind;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    ops_layout layout[3];
    bool in_place, scale_bias;
    ops_submit submit;
    ops_tensor a, b, out;
    DML_SCALE_BIAS sb;
    ref_math_args args;
    union {
        DML_ELEMENT_WISE_ACOS_OPERATOR_DESC unary;
        DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC binary;
        DML_ELEMENT_WISE_POW_OPERATOR_DESC pow;
        DML_ELEMENT_WISE_CLIP_OPERATOR_DESC clip;
        DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC clip1;
        DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC cpow;
        DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC threshold;
        DML_ELEMENT_WISE_ROUND_OPERATOR_DESC round;
        DML_ELEMENT_WISE_SIGN_OPERATOR_DESC sign;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} ewm_case;

static ops_seed run_seed = OPS_SEED(EWM_DEFAULT_SEED);

/* A DML_SCALAR_UNION holding bits (the value's bytes, little-endian). */
static DML_SCALAR_UNION scalar_of(uint64_t bits)
{
    DML_SCALAR_UNION s;
    memset(&s, 0, sizeof s);
    memcpy(s.Bytes, &bits, 8);
    return s;
}

static void ewm_descs(ewm_case *c)
{
    const DML_TENSOR_DESC *a = ops_tensor_desc(&c->a), *out = ops_tensor_desc(&c->out);
    const DML_TENSOR_DESC *b = has_b(c->kind) ? ops_tensor_desc(&c->b) : NULL;
    const DML_SCALE_BIAS *sb = c->scale_bias ? &c->sb : NULL;
    switch (c->kind->shape) {
    case SHAPE_UNARY_SB: c->d.unary = (DML_ELEMENT_WISE_ACOS_OPERATOR_DESC){a, out, sb}; break;
    case SHAPE_BINARY: c->d.binary = (DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC){a, b, out}; break;
    case SHAPE_POW: c->d.pow = (DML_ELEMENT_WISE_POW_OPERATOR_DESC){a, b, out, sb}; break;
    case SHAPE_CLIP:
        c->d.clip =
            (DML_ELEMENT_WISE_CLIP_OPERATOR_DESC){a, out, sb, (FLOAT)c->args.lo, (FLOAT)c->args.hi};
        break;
    case SHAPE_CLIP1:
        c->d.clip1 = (DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC){
            a, out, sb, c->type, scalar_of(c->args.lo_bits), scalar_of(c->args.hi_bits)};
        break;
    case SHAPE_CONSTANT_POW:
        c->d.cpow = (DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC){a, out, sb, (FLOAT)c->args.lo};
        break;
    case SHAPE_THRESHOLD:
        c->d.threshold = (DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC){a, out, sb, (FLOAT)c->args.lo};
        break;
    case SHAPE_ROUND:
        c->d.round =
            (DML_ELEMENT_WISE_ROUND_OPERATOR_DESC){a, out, (DML_ROUNDING_MODE)c->args.mode};
        break;
    case SHAPE_SIGN: c->d.sign = (DML_ELEMENT_WISE_SIGN_OPERATOR_DESC){a, out}; break;
    }
    c->desc.Type = c->kind->type;
    c->desc.Desc = &c->d;
}

/* A random value of an integer type t, as its bits; narrow ranges half the time (bounds that
 * cut through the data), the whole type otherwise. */
static uint64_t random_int_bits(ref_rng *rng, DML_TENSOR_DATA_TYPE t)
{
    uint64_t v;
    if (ref_rng_chance(rng, 50))
        v = (uint64_t)ref_rng_range(rng, ref_type_is_signed_int(t) ? -100 : 0, 100);
    else
        v = ref_rng_next(rng);
    size_t w = ref_type_size(t);
    if (w < 8) {
        v &= ((uint64_t)1 << (8 * w)) - 1;
        if (ref_type_is_signed_int(t) && ((v >> (8 * w - 1)) & 1))
            v |= ~(uint64_t)0 << (8 * w);
    }
    return v;
}

static double int_bits_value(DML_TENSOR_DATA_TYPE t, uint64_t v)
{
    return ref_type_is_signed_int(t) ? (double)(int64_t)v : (double)v;
}

static void float_bits(DML_TENSOR_DATA_TYPE t, double v, uint64_t *bits)
{
    *bits = 0;
    if (t == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(bits, &h, 2);
    } else {
        float f = (float)v;
        memcpy(bits, &f, 4);
    }
}

static void ewm_params(ewm_case *c, ref_rng *rng)
{
    static const double exponents[] = {2, 3, 0.5, -1, -2.5, 0, 1.5, 1.0 / 3, -0.0, 7};
    DML_TENSOR_DATA_TYPE t = c->type;
    c->args.lo = (double)ref_rng_range(rng, -400, 400) / 8;
    c->args.hi = c->args.lo + (double)ref_rng_range(rng, 0, 800) / 8;
    if (ref_rng_chance(rng, 10)) /* crossed: DirectML's formula gives Min */
        c->args.hi = c->args.lo - 3;
    if (!ref_type_is_float(t) && ref_rng_chance(rng, 20)) /* past the type's range */
        c->args.lo = -1e30, c->args.hi = 1e30;
    if (c->kind->shape == SHAPE_CLIP1) {
        c->args.typed = true;
        if (ref_type_is_float(t)) {
            float_bits(t, c->args.lo, &c->args.lo_bits);
            float_bits(t, c->args.hi, &c->args.hi_bits);
        } else {
            uint64_t x = random_int_bits(rng, t), y = random_int_bits(rng, t);
            bool swap = int_bits_value(t, x) > int_bits_value(t, y) && ref_rng_chance(rng, 85);
            c->args.lo_bits = swap ? y : x;
            c->args.hi_bits = swap ? x : y;
        }
    }
    if (c->kind->shape == SHAPE_CONSTANT_POW)
        c->args.lo = exponents[ref_rng_below(rng, COUNT_OF(exponents))];
    c->args.mode = (int)ref_rng_below(rng, 3);
}

static void ewm_generate(ewm_case *c, ref_rng *rng, const ewm_kind *kind, DML_TENSOR_DATA_TYPE type)
{
    uint32_t sizes[REF_MAX_DIMS];
    c->kind = kind;
    c->type = type;
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, EWM_MAX_ELEMENTS);
    c->in_place = ref_rng_chance(rng, 15);
    const char *first = kind->shape == SHAPE_BINARY ? "ATensor" : "InputTensor";
    if (c->in_place) {
        uint32_t strides[REF_MAX_DIMS];
        c->layout[0] = c->layout[2] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->a, first, false, type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->out, "OutputTensor", true, type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->a, rng, first, false, type, c->rank, sizes, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, sizes, &c->layout[2]);
    }
    if (has_b(kind))
        ops_random_tensor(&c->b, rng, kind->shape == SHAPE_POW ? "ExponentTensor" : "BTensor",
                          false, type, c->rank, sizes, &c->layout[1]);
    c->scale_bias = has_sb(kind) && ref_type_is_float(type) && ref_rng_chance(rng, 40);
    c->sb.Scale = (float)ref_rng_range(rng, -8, 8) / 4.0f;
    c->sb.Bias = (float)ref_rng_range(rng, -100, 100) / 8.0f;
    ewm_params(c, rng);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    ewm_descs(c);
}

static void ewm_place(ewm_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->a, false);
    if (has_b(c->kind))
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

static void fill(ewm_case *c, ref_rng *rng, ops_tensor *t)
{
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / ref_type_size(c->type);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, t), slots);
}

static void ewm_fill(ewm_case *c, ref_rng *rng)
{
    fill(c, rng, &c->a);
    if (has_b(c->kind))
        fill(c, rng, &c->b);
    ops_memory_snapshot(&c->mem);
    ref_tensor a = ops_view(&c->mem, OPS_INIT, &c->a), b = ops_view(&c->mem, OPS_INIT, &c->b);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    cr_assert(ref_math(c->kind->op, &a, has_b(c->kind) ? &b : NULL, c->scale_bias ? &c->sb : NULL,
                       &c->args, &out),
              "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static const char *ewm_describe(const ewm_case *c, char *buf, size_t len)
{
    char head[512], a[512], b[512], out[512];
    snprintf(buf, len,
             "%s\n  %s; layouts %s/%s/%s; %s; ScaleBias %s {%g, %g}; params %g %g (bits %" PRIx64
             " %" PRIx64 ") mode %d; submit %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, ref_math_name(c->kind->op), "elementwise_math", c->test,
                        c->number, c->seed),
             ref_type_name(c->type), ops_layout_name(c->layout[0]),
             has_b(c->kind) ? ops_layout_name(c->layout[1]) : "-", ops_layout_name(c->layout[2]),
             c->in_place ? "in place" : "apart", c->scale_bias ? "on" : "off", c->sb.Scale,
             c->sb.Bias, c->args.lo, c->args.hi, c->args.lo_bits, c->args.hi_bits, c->args.mode,
             ops_submit_name(c->submit), ops_tensor_describe(&c->a, a, sizeof a),
             has_b(c->kind) ? ops_tensor_describe(&c->b, b, sizeof b) : "",
             ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
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

static bool is_nan(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    return isnan(value_of(t, p));
}

/*
 * Float outputs within the operator's tolerance count as equal (the reference's bytes go into
 * what came back). An absolute tolerance (precision.md's 1/1024) holds between finite values,
 * and where the output's ulp is coarser than it, one ulp: the float32 result's last rounding
 * to the output type (FLOAT16 from 2 up, FLOAT32 from 2^13 up) may land on either side.
 */
static void accept_tolerance(ewm_case *c)
{
    unsigned ulps = ref_math_ulps(c->kind->op);
    double abs_tol = ref_math_abs(c->kind->op);
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
        bool accept =
            ulps ? ref_float_close(c->type, x, y, ulps) : is_nan(c->type, x) && is_nan(c->type, y);
        if (!accept && abs_tol > 0) {
            double dx = value_of(c->type, x), dy = value_of(c->type, y);
            accept = isfinite(dx) && isfinite(dy) &&
                     (fabs(dx - dy) <= abs_tol || ref_float_close(c->type, x, y, 1));
        }
        if (accept)
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void ewm_run(ewm_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[2] = {&c->a, &c->b}, *outputs[1] = {&c->out};
    ops_tensor *all[3] = {&c->out, NULL, NULL};
    int n_all = 1;
    if (!c->in_place)
        all[n_all++] = &c->a;
    if (has_b(c->kind))
        all[n_all++] = &c->b;
    const char *stage = "";
    UINT n_in = has_b(c->kind) ? 2 : 1;
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, n_in, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", ewm_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", ewm_describe(c, what, sizeof what), bad,
              diff);
}

static void ewm_cases(const char *test, unsigned count, const ewm_kind *kind)
{
    static ewm_case c;
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
        ewm_generate(&c, &rng, kind, kind->types[n % types]);
        ewm_place(&c, &rng);
        ewm_fill(&c, &rng);
        ewm_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(elementwise_math);

/* Every type of each operator once, the first two (FLOAT32, FLOAT16) twice: kernels are
 * compiled per (operator, types, ScaleBias, contiguity), so cases beyond that only cost time. */
#define EWM_RANDOM_TEST(name, index)                                              \
    Test(elementwise_math, random_##name)                                         \
    {                                                                             \
        ewm_cases("random_" #name, type_count(&kinds[index]) + 2, &kinds[index]); \
    }

EWM_RANDOM_TEST(acos, 0)
EWM_RANDOM_TEST(acosh, 1)
EWM_RANDOM_TEST(asin, 2)
EWM_RANDOM_TEST(asinh, 3)
EWM_RANDOM_TEST(atan, 4)
EWM_RANDOM_TEST(atanh, 5)
EWM_RANDOM_TEST(cos, 6)
EWM_RANDOM_TEST(cosh, 7)
EWM_RANDOM_TEST(erf, 8)
EWM_RANDOM_TEST(sin, 9)
EWM_RANDOM_TEST(sinh, 10)
EWM_RANDOM_TEST(tan, 11)
EWM_RANDOM_TEST(tanh, 12)
EWM_RANDOM_TEST(atan_yx, 13)
EWM_RANDOM_TEST(clip, 14)
EWM_RANDOM_TEST(clip1, 15)
EWM_RANDOM_TEST(constant_pow, 16)
EWM_RANDOM_TEST(modulus_floor, 17)
EWM_RANDOM_TEST(modulus_truncate, 18)
EWM_RANDOM_TEST(pow, 19)
EWM_RANDOM_TEST(round, 20)
EWM_RANDOM_TEST(sign, 21)
EWM_RANDOM_TEST(threshold, 22)

/* ---- Fixed cases: the rules the pages leave to the implementation ------------------------ */

/* One packed 1-D operation on host memory: `desc` points at the descriptor whose tensor
 * pointers this fills: its inputs (1 or 2, types ta and tb) then the output (type ta). */
static HRESULT run_packed(DML_OPERATOR_TYPE type, void *desc, int n_in, DML_TENSOR_DATA_TYPE ta,
                          DML_TENSOR_DATA_TYPE tb, UINT n, void *a, void *b, void *out)
{
    UINT sizes[1] = {n};
    DML_BUFFER_TENSOR_DESC bufs[3];
    DML_TENSOR_DESC tds[3];
    DML_TENSOR_DATA_TYPE types[3] = {ta, n_in == 2 ? tb : ta, ta};
    for (int i = 0; i < 3; ++i) {
        DML_TENSOR_DATA_TYPE t = i == n_in ? ta : types[i];
        bufs[i] = (DML_BUFFER_TENSOR_DESC){
            t, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, DMLCalcBufferTensorSize(t, 1, sizes, NULL), 0};
        tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &bufs[i]};
    }
    const DML_TENSOR_DESC **members = desc;
    for (int i = 0; i <= n_in; ++i)
        members[i] = &tds[i];
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &d, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    /* Host copies of each tensor's TotalTensorSizeInBytes (5 INT8 values are 8 bytes: the
     * execute call copies the whole tensor, past a 5-byte array). */
    void *host[3] = {NULL, NULL, NULL}, *given[3] = {a, b, out};
    for (int i = 0; i <= n_in; ++i) {
        host[i] = calloc(1, (size_t)bufs[i].TotalTensorSizeInBytes);
        if (i < n_in)
            memcpy(host[i], given[i], (size_t)n * ref_type_size(types[i]));
    }
    dmlcl_host_tensor in[2] = {{host[0], bufs[0].TotalTensorSizeInBytes},
                               {host[1], bufs[1].TotalTensorSizeInBytes}},
                      o = {host[n_in], bufs[n_in].TotalTensorSizeInBytes};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, (UINT)n_in, in, 1, &o);
    if (SUCCEEDED(hr))
        memcpy(out, host[n_in], (size_t)n * ref_type_size(ta));
    for (int i = 0; i <= n_in; ++i)
        free(host[i]);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

#define RUN_OK(...) cr_assert_eq(run_packed(__VA_ARGS__), S_OK, "%s", dmlcl_last_error())

static bool same_float(float got, float want)
{
    return (isnan(got) && isnan(want)) || (got == want && signbit(got) == signbit(want));
}

Test(elementwise_math, round_every_mode)
{
    float x[12] = {0.5f, 1.5f,  2.5f,  -0.5f,    -1.5f, -2.5f,
                   2.4f, -2.6f, -0.0f, INFINITY, NAN,   8388609.0f};
    /* DirectML's page: halves to even; toward zero (truncation); halves away from zero. */
    const float want[3][12] = {
        {0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 2.0f, -3.0f, -0.0f, INFINITY, NAN, 8388609.0f},
        {0.0f, 1.0f, 2.0f, -0.0f, -1.0f, -2.0f, 2.0f, -2.0f, -0.0f, INFINITY, NAN, 8388609.0f},
        {1.0f, 2.0f, 3.0f, -1.0f, -2.0f, -3.0f, 2.0f, -3.0f, -0.0f, INFINITY, NAN, 8388609.0f}};
    for (int mode = 0; mode < 3; ++mode) {
        float got[12];
        DML_ELEMENT_WISE_ROUND_OPERATOR_DESC d = {NULL, NULL, (DML_ROUNDING_MODE)mode};
        RUN_OK(DML_OPERATOR_ELEMENT_WISE_ROUND, &d, 1, F32, F32, 12, x, NULL, got);
        for (int i = 0; i < 12; ++i)
            cr_expect(same_float(got[i], want[mode][i]), "mode %d: round(%g) = %g, expected %g",
                      mode, x[i], got[i], want[mode][i]);
    }
    /* FLOAT16: 2.5 and -0.5 in half, halves to even. */
    uint16_t h[2] = {ref_half_from_double(2.5), ref_half_from_double(-0.5)}, hg[2];
    DML_ELEMENT_WISE_ROUND_OPERATOR_DESC d = {NULL, NULL, DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_ROUND, &d, 1, F16, F16, 2, h, NULL, hg);
    cr_expect(hg[0] == ref_half_from_double(2.0) && hg[1] == 0x8000, "half: %04x %04x", hg[0],
              hg[1]);
}

Test(elementwise_math, modulus_integers)
{
    /* INT32: trunc takes the dividend's sign, floor the divisor's; x mod 0 is x; the most
     * negative value mod -1 is 0. */
    int32_t a[8] = {7, -7, 7, -7, 5, INT32_MIN, INT32_MIN, -6};
    int32_t b[8] = {3, 3, -3, -3, 0, -1, 3, 3};
    const int32_t want_t[8] = {1, -1, 1, -1, 5, 0, -2, 0};
    const int32_t want_f[8] = {1, 2, -2, -1, 5, 0, 1, 0};
    int32_t got[8];
    DML_ELEMENT_WISE_MODULUS_TRUNCATE_OPERATOR_DESC dt = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE, &dt, 2, I32, I32, 8, a, b, got);
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want_t[i], "trunc %d mod %d = %d, expected %d", a[i], b[i], got[i],
                     want_t[i]);
    DML_ELEMENT_WISE_MODULUS_FLOOR_OPERATOR_DESC df = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, &df, 2, I32, I32, 8, a, b, got);
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want_f[i], "floor %d mod %d = %d, expected %d", a[i], b[i], got[i],
                     want_f[i]);
    /* UINT8 and INT64: 200 mod 0 is 200; INT64_MIN mod -1 is 0. */
    uint8_t ua[4] = {200, 200, 7, 255}, ub[4] = {0, 7, 255, 16}, ug[4];
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, &df, 2, U8, U8, 4, ua, ub, ug);
    cr_expect(ug[0] == 200 && ug[1] == 4 && ug[2] == 7 && ug[3] == 15, "%u %u %u %u", ug[0], ug[1],
              ug[2], ug[3]);
    int64_t la[2] = {INT64_MIN, -9}, lb[2] = {-1, 4}, lg[2];
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, &df, 2, I64, I64, 2, la, lb, lg);
    cr_expect(lg[0] == 0 && lg[1] == 3, "%" PRId64 " %" PRId64, lg[0], lg[1]);
}

Test(elementwise_math, modulus_floats)
{
    float a[9] = {5.5f, -5.5f, 5.5f, 1.0f, -5.0f, 5.0f, -0.0f, -6.0f, 6.0f};
    float b[9] = {2.0f, 2.0f, -2.0f, 0.0f, INFINITY, -INFINITY, 3.0f, 3.0f, -3.0f};
    /* numpy.fmod and numpy.mod (ONNX Mod fmod=1 and fmod=0). */
    const float want_t[9] = {1.5f, -1.5f, 1.5f, NAN, -5.0f, 5.0f, -0.0f, -0.0f, 0.0f};
    const float want_f[9] = {1.5f, 0.5f, -0.5f, NAN, INFINITY, -INFINITY, 0.0f, 0.0f, -0.0f};
    float got[9];
    DML_ELEMENT_WISE_MODULUS_TRUNCATE_OPERATOR_DESC dt = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE, &dt, 2, F32, F32, 9, a, b, got);
    for (int i = 0; i < 9; ++i)
        cr_expect(same_float(got[i], want_t[i]), "fmod(%g, %g) = %g, expected %g", a[i], b[i],
                  got[i], want_t[i]);
    DML_ELEMENT_WISE_MODULUS_FLOOR_OPERATOR_DESC df = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR, &df, 2, F32, F32, 9, a, b, got);
    for (int i = 0; i < 9; ++i)
        cr_expect(same_float(got[i], want_f[i]), "mod(%g, %g) = %g, expected %g", a[i], b[i],
                  got[i], want_f[i]);
}

Test(elementwise_math, pow_integers_and_mixed_types)
{
    DML_ELEMENT_WISE_POW_OPERATOR_DESC d = {0};
    /* Integers: exact, wrapped; a negative exponent gives 1 / x^-e truncated (0: every bit). */
    int32_t a[9] = {2, -2, 3, 1, -1, 0, 0, 2, 7}, e[9] = {10, 3, -1, -5, -3, -1, 0, 31, 2};
    const int32_t want[9] = {1024, -8, 0, 1, -1, -1, 1, INT32_MIN, 49};
    int32_t got[9];
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_POW, &d, 2, I32, I32, 9, a, e, got);
    for (int i = 0; i < 9; ++i)
        cr_expect_eq(got[i], want[i], "%d ^ %d = %d, expected %d", a[i], e[i], got[i], want[i]);
    /* UINT8 by INT8: the exponent keeps its sign; 0 ^ -1 is 255; 2 ^ 9 wraps to 0. */
    uint8_t ua[4] = {0, 2, 255, 2}, ug[4];
    int8_t ue[4] = {-1, -1, 2, 9};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_POW, &d, 2, U8, I8, 4, ua, ue, ug);
    cr_expect(ug[0] == 255 && ug[1] == 0 && ug[2] == 1 && ug[3] == 0, "%u %u %u %u", ug[0], ug[1],
              ug[2], ug[3]);
    /* INT32 by FLOAT32: in float, truncated toward zero, saturated, NaN 0. */
    int32_t ia[5] = {10, 2, -8, 100, -100}, ig[5];
    float fe[5] = {1.5f, -1.0f, 1.0f / 3, 10.0f, 11.0f};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_POW, &d, 2, I32, F32, 5, ia, fe, ig);
    cr_expect(ig[0] == 31 && ig[1] == 0 && ig[2] == 0 && ig[3] == INT32_MAX && ig[4] == INT32_MIN,
              "%d %d %d %d %d", ig[0], ig[1], ig[2], ig[3], ig[4]);
    /* FLOAT32 by INT32: negative bases with integral exponents. */
    float fa[3] = {-2.0f, 2.0f, -8.0f}, fg[3];
    int32_t ie[3] = {3, -2, 0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_POW, &d, 2, F32, I32, 3, fa, ie, fg);
    cr_expect(fg[0] == -8.0f && fg[1] == 0.25f && fg[2] == 1.0f, "%g %g %g", fg[0], fg[1], fg[2]);
}

Test(elementwise_math, clip_and_threshold_rules)
{
    float x[6] = {NAN, -0.0f, 0.0f, 5.0f, -5.0f, 1.0f}, got[6];
    /* NaN stays NaN; -0 is below +0 (MAX's and MIN's order); crossed bounds give Min. */
    DML_ELEMENT_WISE_CLIP_OPERATOR_DESC c = {NULL, NULL, NULL, 0.0f, 2.0f};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP, &c, 1, F32, F32, 6, x, NULL, got);
    const float want[6] = {NAN, 0.0f, 0.0f, 2.0f, 0.0f, 1.0f};
    for (int i = 0; i < 6; ++i)
        cr_expect(same_float(got[i], want[i]), "clip(%g) = %g, expected %g", x[i], got[i], want[i]);
    c.Min = 3.0f, c.Max = -3.0f;
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP, &c, 1, F32, F32, 6, x, NULL, got);
    cr_expect(got[3] == 3.0f && got[4] == 3.0f, "crossed bounds give Min: %g %g", got[3], got[4]);
    c.Min = NAN, c.Max = 2.0f;
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP, &c, 1, F32, F32, 6, x, NULL, got);
    cr_expect(got[4] == -5.0f && got[3] == 2.0f, "a NaN bound is no bound: %g %g", got[4], got[3]);
    DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC t = {NULL, NULL, NULL, 0.0f};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_THRESHOLD, &t, 1, F32, F32, 6, x, NULL, got);
    cr_expect(isnan(got[0]) && got[1] == 0.0f && !signbit(got[1]) && got[4] == 0.0f,
              "threshold: %g %g %g", got[0], got[1], got[4]);
    /* INT8: FLOAT bounds truncated toward zero and saturated; NaN is 0. */
    int8_t ix[5] = {-128, -3, 3, 127, 2}, ig[5];
    DML_ELEMENT_WISE_CLIP_OPERATOR_DESC ci = {NULL, NULL, NULL, -2.9f, 1000.0f};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP, &ci, 1, I8, I8, 5, ix, NULL, ig);
    cr_expect(ig[0] == -2 && ig[1] == -2 && ig[2] == 3 && ig[3] == 127, "%d %d %d %d", ig[0], ig[1],
              ig[2], ig[3]);
    ci.Min = -1000.0f, ci.Max = NAN;
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP, &ci, 1, I8, I8, 5, ix, NULL, ig);
    cr_expect(ig[0] == -128 && ig[2] == 0 && ig[3] == 0, "%d %d %d", ig[0], ig[2], ig[3]);
    /* Computed in the tensor's own type (src/launch_map.c): UINT32 past INT32_MAX, INT16
     * crossed bounds (Min wins), THRESHOLD on UINT8. */
    uint32_t wx[4] = {UINT32_MAX, 0, 2147483648u, 7}, wg[4];
    DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC cw = {NULL, NULL,         NULL,
                                               U32,  scalar_of(5), scalar_of(3000000000u)};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP1, &cw, 1, U32, U32, 4, wx, NULL, wg);
    cr_expect(wg[0] == 3000000000u && wg[1] == 5 && wg[2] == 2147483648u && wg[3] == 7,
              "%u %u %u %u", wg[0], wg[1], wg[2], wg[3]);
    int16_t sx[3] = {INT16_MIN, 0, INT16_MAX}, sg[3];
    DML_SCALAR_UNION lo16 = {0}, hi16 = {0};
    lo16.Int16 = 10;
    hi16.Int16 = -10;
    DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC cs = {NULL, NULL, NULL, I16, lo16, hi16};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP1, &cs, 1, I16, I16, 3, sx, NULL, sg);
    cr_expect(sg[0] == 10 && sg[1] == 10 && sg[2] == 10, "%d %d %d", sg[0], sg[1], sg[2]);
    uint8_t bx[4] = {255, 0, 100, 200}, bg[4];
    DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC tb = {NULL, NULL, NULL, 200.0f};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_THRESHOLD, &tb, 1, U8, U8, 4, bx, NULL, bg);
    cr_expect(bg[0] == 255 && bg[1] == 200 && bg[2] == 200 && bg[3] == 200, "%u %u %u %u", bg[0],
              bg[1], bg[2], bg[3]);
    /* CLIP1: typed bounds, UINT64 past INT64_MAX, FLOAT16 bits. */
    uint64_t ux[3] = {UINT64_MAX, 1, (uint64_t)1 << 63}, ug[3];
    DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC c1 = {
        NULL, NULL, NULL, U64, scalar_of(2), scalar_of(((uint64_t)1 << 63) + 5)};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP1, &c1, 1, U64, U64, 3, ux, NULL, ug);
    cr_expect(ug[0] == ((uint64_t)1 << 63) + 5 && ug[1] == 2 && ug[2] == (uint64_t)1 << 63);
    uint16_t hx[2] = {ref_half_from_double(-7.0), ref_half_from_double(7.0)}, hg[2];
    DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC c2 = {NULL,
                                               NULL,
                                               NULL,
                                               F16,
                                               scalar_of(ref_half_from_double(-0.5)),
                                               scalar_of(ref_half_from_double(0.25))};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_CLIP1, &c2, 1, F16, F16, 2, hx, NULL, hg);
    cr_expect(hg[0] == ref_half_from_double(-0.5) && hg[1] == ref_half_from_double(0.25),
              "%04x %04x", hg[0], hg[1]);
}

Test(elementwise_math, sign_rules)
{
    /* DirectML's page: -1, 1, and 0 otherwise: +-0 and NaN give 0. */
    float x[7] = {-3.0f, -0.0f, 0.0f, NAN, INFINITY, -INFINITY, 1e-45f}, got[7];
    const float want[7] = {-1.0f, 0.0f, 0.0f, 0.0f, 1.0f, -1.0f, 1.0f};
    DML_ELEMENT_WISE_SIGN_OPERATOR_DESC d = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_SIGN, &d, 1, F32, F32, 7, x, NULL, got);
    for (int i = 0; i < 7; ++i)
        cr_expect(same_float(got[i], want[i]), "sign(%g) = %g, expected %g", x[i], got[i], want[i]);
    int8_t ix[4] = {-128, 0, 127, -1}, ig[4];
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_SIGN, &d, 1, I8, I8, 4, ix, NULL, ig);
    cr_expect(ig[0] == -1 && ig[1] == 0 && ig[2] == 1 && ig[3] == -1);
    uint64_t ux[2] = {UINT64_MAX, 0}, ug[2];
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_SIGN, &d, 1, U64, U64, 2, ux, NULL, ug);
    cr_expect(ug[0] == 1 && ug[1] == 0);
}

Test(elementwise_math, transcendental_edges)
{
    /* C99's special values through OpenCL's built-ins. */
    float x[5] = {2.0f, 1.0f, -1.0f, NAN, INFINITY}, got[5];
    DML_ELEMENT_WISE_ACOS_OPERATOR_DESC d = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_ATANH, &d, 1, F32, F32, 5, x, NULL, got);
    cr_expect(isnan(got[0]) && got[1] == INFINITY && got[2] == -INFINITY && isnan(got[3]));
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_ACOS, &d, 1, F32, F32, 5, x, NULL, got);
    cr_expect(isnan(got[0]) && got[1] == 0.0f && isnan(got[4]));
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_TANH, &d, 1, F32, F32, 5, x, NULL, got);
    /* tanh(inf) within precision.md's 1/1024 (PoCL 3.1's float tanh gives 1 - 2^-24). */
    cr_expect(fabsf(got[4] - 1.0f) <= 1.0f / 1024 && isnan(got[3]),
              "tanh(inf) = %.9g, tanh(NaN) = %g", got[4], got[3]);
    float y[4] = {0.0f, -0.0f, 1.0f, -1.0f}, xx[4] = {-0.0f, -0.0f, 0.0f, -INFINITY};
    DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC a2 = {0};
    RUN_OK(DML_OPERATOR_ELEMENT_WISE_ATAN_YX, &a2, 2, F32, F32, 4, y, xx, got);
    cr_expect(fabsf(got[0] - 3.14159265f) < 1e-6f && fabsf(got[1] + 3.14159265f) < 1e-6f &&
                  fabsf(got[2] - 1.57079633f) < 1e-6f && fabsf(got[3] + 3.14159265f) < 1e-6f,
              "%g %g %g %g", got[0], got[1], got[2], got[3]);
}
