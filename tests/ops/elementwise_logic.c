/* SPDX-License-Identifier: MIT */
/*
 * elementwise_logic.c: DirectML's comparisons, logic, bit operations, IS_NAN, IS_INFINITY, IF,
 * CAST and the fills on the device against the C reference (tests/ref/ref_logic.c), every
 * type each operator takes (CAST: every input and every output type, each pair that picks a
 * different conversion path).
 *
 * Random cases: ranks 1..8, inputs packed, padded, transposed, broadcast or aliasing, outputs
 * packed, padded or transposed (the fills' flat index through a strided output), in place
 * where the output has an input's type; comparisons, logic and IF read values drawn from a
 * small pool (with 0, -0, NaN) so that equal operands and zeros are common; shift counts
 * reach past the width. Results compare exactly (any NaN matches any NaN), FLOAT
 * FILL_VALUE_SEQUENCE within 2 ULP (reference/precision.md). Fixed cases: CAST's saturation,
 * NaN and rounding, shifts past the width, 64-bit comparisons, a column-major sequence, and
 * every validation rule. Failures print the seed; DMLCL_TEST_SEED replays a run,
 * DMLCL_TEST_CASE=<n> one case.
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
#include "ref_logic.h"

#define LG_DEFAULT_SEED 0x646D6C636C4C4731ull
#define LG_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
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
#define ELEVEN                                              \
    {                                                       \
        F64, F32, F16, I64, I32, I16, I8, U64, U32, U16, U8 \
    }

typedef struct lg_kind {
    ref_lg_op op;
    DML_OPERATOR_TYPE type;
    DML_TENSOR_DATA_TYPE types[12]; /* the first input's (IF: A's), 0-terminated */
    DML_TENSOR_DATA_TYPE outs[12];  /* the output's when not the input's, 0-terminated */
} lg_kind;

/* DirectML's type tables (every feature level up to 6.4). */
static const lg_kind kinds[] = {
    {REF_LG_EQUALS, DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS, TEN, {U8, U32}},
    {REF_LG_GREATER, DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN, TEN, {U8, U32}},
    {REF_LG_GREATER_EQUAL, DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL, TEN, {U8, U32}},
    {REF_LG_LESS, DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN, TEN, {U8, U32}},
    {REF_LG_LESS_EQUAL, DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL, TEN, {U8, U32}},
    {REF_LG_AND, DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND, {U8, U32}, {0}},
    {REF_LG_OR, DML_OPERATOR_ELEMENT_WISE_LOGICAL_OR, {U8, U32}, {0}},
    {REF_LG_XOR, DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR, {U8, U32}, {0}},
    {REF_LG_NOT, DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT, {U8, U32}, {0}},
    {REF_LG_BIT_AND, DML_OPERATOR_ELEMENT_WISE_BIT_AND, ELEVEN, {0}},
    {REF_LG_BIT_OR, DML_OPERATOR_ELEMENT_WISE_BIT_OR, ELEVEN, {0}},
    {REF_LG_BIT_XOR, DML_OPERATOR_ELEMENT_WISE_BIT_XOR, ELEVEN, {0}},
    {REF_LG_BIT_NOT, DML_OPERATOR_ELEMENT_WISE_BIT_NOT, ELEVEN, {0}},
    {REF_LG_SHIFT_LEFT, DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT, {U64, U32, U16, U8}, {0}},
    {REF_LG_SHIFT_RIGHT, DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT, {U64, U32, U16, U8}, {0}},
    {REF_LG_BIT_COUNT, DML_OPERATOR_ELEMENT_WISE_BIT_COUNT, ELEVEN, {U8, U32}},
    {REF_LG_IS_INFINITY, DML_OPERATOR_ELEMENT_WISE_IS_INFINITY, {F32, F16}, {U8}},
    {REF_LG_IS_NAN, DML_OPERATOR_ELEMENT_WISE_IS_NAN, {F32, F16}, {U8, U32}},
    {REF_LG_IF, DML_OPERATOR_ELEMENT_WISE_IF, ELEVEN, {0}},
    {REF_LG_CAST, DML_OPERATOR_CAST, ELEVEN, ELEVEN},
};

static unsigned count_types(const DML_TENSOR_DATA_TYPE *t)
{
    unsigned n = 0;
    while (n < 12 && t[n])
        ++n;
    return n;
}

typedef struct lg_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    const lg_kind *kind;
    DML_TENSOR_DATA_TYPE type, out_type;
    int arity, in_place; /* in_place: the input on the output's range, or -1 */
    int mode;            /* IS_INFINITY's */
    uint32_t rank;
    ops_layout layout[4];
    ops_submit submit;
    ops_tensor in[3], out;
    union {
        DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC binary;
        DML_ELEMENT_WISE_LOGICAL_NOT_OPERATOR_DESC unary;
        DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC is_inf;
        DML_ELEMENT_WISE_IF_OPERATOR_DESC select;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} lg_case;

static ops_seed run_seed = OPS_SEED(LG_DEFAULT_SEED);

static DML_TENSOR_DATA_TYPE input_type(const lg_case *c, int k)
{
    return c->kind->op == REF_LG_IF && k == 0 ? U8 : c->type;
}

static const char *input_name(const lg_case *c, int k)
{
    static const char *const binary[] = {"ATensor", "BTensor"};
    static const char *const select[] = {"ConditionTensor", "ATensor", "BTensor"};
    if (c->kind->op == REF_LG_IF)
        return select[k];
    return c->arity == 1 ? "InputTensor" : binary[k];
}

static void lg_descs(lg_case *c)
{
    ops_tensor *in = c->in;
    if (c->kind->op == REF_LG_IF)
        c->d.select =
            (DML_ELEMENT_WISE_IF_OPERATOR_DESC){ops_tensor_desc(&in[0]), ops_tensor_desc(&in[1]),
                                                ops_tensor_desc(&in[2]), ops_tensor_desc(&c->out)};
    else if (c->kind->op == REF_LG_IS_INFINITY)
        c->d.is_inf = (DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC){
            ops_tensor_desc(&in[0]), ops_tensor_desc(&c->out), (DML_IS_INFINITY_MODE)c->mode};
    else if (c->arity == 2)
        c->d.binary = (DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC){
            ops_tensor_desc(&in[0]), ops_tensor_desc(&in[1]), ops_tensor_desc(&c->out)};
    else
        c->d.unary = (DML_ELEMENT_WISE_LOGICAL_NOT_OPERATOR_DESC){ops_tensor_desc(&in[0]),
                                                                  ops_tensor_desc(&c->out)};
    c->desc.Type = c->kind->type;
    c->desc.Desc = &c->d;
}

static void lg_generate(lg_case *c, ref_rng *rng, unsigned n)
{
    const lg_kind *kind = c->kind;
    unsigned nt = count_types(kind->types), no = count_types(kind->outs);
    uint32_t sizes[REF_MAX_DIMS];
    c->type = kind->types[n % nt];
    /* CAST: n walks the input types, and each pass shifts the output types by a step prime
     * to 11, so 2 * 11 cases meet every input and output type in 22 distinct pairs. */
    c->out_type = no ? kind->outs[(n + (n / nt) * 4 + (kind->op == REF_LG_CAST)) % no] : c->type;
    c->arity = ref_lg_arity(kind->op);
    c->mode = (int)(n % 3);
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, LG_MAX_ELEMENTS);
    int same = kind->op == REF_LG_IF ? 1 : 0; /* the input that has the output's type */
    c->in_place = input_type(c, same) == c->out_type && ref_rng_chance(rng, 15) ? same : -1;
    for (int k = 0; k < c->arity; ++k) {
        if (k == c->in_place) {
            uint32_t strides[REF_MAX_DIMS];
            c->layout[k] = c->layout[3] = OPS_LAYOUT_PADDED;
            ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
            ops_tensor_init(&c->in[k], input_name(c, k), false, input_type(c, k), c->rank, sizes,
                            strides, 0, 0);
            ops_tensor_init(&c->out, "OutputTensor", true, c->out_type, c->rank, sizes, strides, 0,
                            0);
        } else {
            ops_random_tensor(&c->in[k], rng, input_name(c, k), false, input_type(c, k), c->rank,
                              sizes, &c->layout[k]);
        }
    }
    if (c->in_place < 0)
        ops_random_tensor(&c->out, rng, "OutputTensor", true, c->out_type, c->rank, sizes,
                          &c->layout[3]);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    lg_descs(c);
}

static void lg_place(lg_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    for (int k = 0; k < c->arity; ++k)
        ops_memory_place(&c->mem, rng, &c->in[k], k > 0 && ref_rng_chance(rng, 30));
    if (c->in_place >= 0) {
        c->out.slot = c->in[c->in_place].slot;
        c->out.offset = c->in[c->in_place].offset;
        c->out.bind_size = c->in[c->in_place].bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
}

/* Elements drawn from 8 values: 0, -0 for floats, and distinct others (NaN among them); one
 * pool_seed gives every input of the type the same pool, so equal operands are common. */
static void fill_pool(ref_rng *rng, uint64_t pool_seed, DML_TENSOR_DATA_TYPE t, unsigned char *dst,
                      uint64_t count)
{
    unsigned char pool[8 * 8];
    size_t w = ref_type_size(t);
    ref_rng pool_rng = ref_rng_make(pool_seed);
    ops_fill_distinct(&pool_rng, t, pool, 8);
    memset(pool, 0, w);
    if (ref_type_is_float(t))
        pool[2 * w - 1] = 0x80; /* -0: the sign bit of element 1 */
    for (uint64_t i = 0; i < count; ++i)
        memcpy(dst + i * w, pool + w * ref_rng_below(rng, 8), w);
}

/* Shift counts: mostly below the width, some at it or past it, a few huge. */
static void fill_counts(ref_rng *rng, DML_TENSOR_DATA_TYPE t, unsigned char *dst, uint64_t count)
{
    size_t w = ref_type_size(t);
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t v = ref_rng_chance(rng, 5) ? ref_rng_next(rng) : ref_rng_below(rng, 8 * w + 4);
        memcpy(dst + i * w, &v, w);
    }
}

static void lg_fill(lg_case *c, ref_rng *rng)
{
    ref_lg_op op = c->kind->op;
    uint64_t pool_seed = ref_rng_next(rng);
    for (int k = 0; k < c->arity; ++k) {
        DML_TENSOR_DATA_TYPE t = input_type(c, k);
        uint64_t n = c->in[k].buffer.TotalTensorSizeInBytes / ref_type_size(t);
        unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->in[k]);
        if ((op == REF_LG_SHIFT_LEFT || op == REF_LG_SHIFT_RIGHT) && k == 1)
            fill_counts(rng, t, p, n);
        else if (op <= REF_LG_NOT || (op == REF_LG_IF && k == 0))
            fill_pool(rng, pool_seed, t, p, n);
        else
            ops_fill_distinct(rng, t, p, n);
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor in[3];
    const ref_tensor *ins[3] = {&in[0], &in[1], &in[2]};
    for (int k = 0; k < c->arity; ++k)
        in[k] = ops_view(&c->mem, OPS_INIT, &c->in[k]);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    cr_assert(ref_logic(op, c->mode, ins, &out), "test bug: the reference rejected a case");
    if (c->in_place < 0)
        ops_poison_output(&c->mem, &c->out);
}

static const char *lg_describe(const lg_case *c, char *buf, size_t len)
{
    char head[512], t[4][512] = {"", "", "", ""};
    for (int k = 0; k < c->arity; ++k)
        ops_tensor_describe(&c->in[k], t[k], sizeof t[k]);
    ops_tensor_describe(&c->out, t[3], sizeof t[3]);
    snprintf(buf, len, "%s\n  %s -> %s; mode %d; in place %d; submit %s\n  %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, ref_lg_name(c->kind->op), "elementwise_logic", c->test,
                        c->number, c->seed),
             ref_type_name(c->type), ref_type_name(c->out_type), c->mode, c->in_place,
             ops_submit_name(c->submit), t[0], t[1], t[2], t[3]);
    return buf;
}

static bool is_nan(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
    }
    if (t == F32) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    double d;
    memcpy(&d, p, 8);
    return isnan(d);
}

/* Float outputs: any NaN matches any NaN, and (ulps > 0) values within ulps count as equal:
 * the reference's bytes go into what came back, so the comparison sees only real differences. */
static void accept_float(ops_memory *m, const ops_tensor *t, DML_TENSOR_DATA_TYPE type,
                         unsigned ulps)
{
    if (!ref_type_is_float(type))
        return;
    ref_tensor e = ops_view(m, OPS_EXPECT, t), g = ops_view(m, OPS_GOT, t);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        bool ok = (is_nan(type, x) && is_nan(type, y)) ||
                  (ulps && type != F64 && ref_float_close(type, x, y, ulps));
        if (ok)
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void lg_run(lg_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[3] = {&c->in[0], &c->in[1], &c->in[2]}, *outputs[1] = {&c->out};
    ops_tensor *all[4] = {&c->out};
    int n_all = 1;
    for (int k = 0; k < c->arity; ++k)
        if (k != c->in_place)
            all[n_all++] = &c->in[k];
    const char *stage = "";
    HRESULT hr =
        ops_run_device(&c->desc, &c->mem, inputs, (UINT)c->arity, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", lg_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_float(&c->mem, &c->out, c->out_type, 0);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", lg_describe(c, what, sizeof what), bad,
              diff);
}

static void lg_cases(const char *test, unsigned count, const lg_kind *kind)
{
    static lg_case c;
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
        lg_generate(&c, &rng, n);
        lg_place(&c, &rng);
        lg_fill(&c, &rng);
        lg_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(elementwise_logic);

/* Every input type once (the first cases cycle through them); CAST twice over. */
#define LG_RANDOM_TEST(name, index, times)                                                 \
    Test(elementwise_logic, random_##name)                                                 \
    {                                                                                      \
        lg_cases("random_" #name, (times)*count_types(kinds[index].types), &kinds[index]); \
    }

LG_RANDOM_TEST(equals, 0, 1)
LG_RANDOM_TEST(greater_than, 1, 1)
LG_RANDOM_TEST(greater_than_or_equal, 2, 1)
LG_RANDOM_TEST(less_than, 3, 1)
LG_RANDOM_TEST(less_than_or_equal, 4, 1)
LG_RANDOM_TEST(logical_and, 5, 2)
LG_RANDOM_TEST(logical_or, 6, 2)
LG_RANDOM_TEST(logical_xor, 7, 2)
LG_RANDOM_TEST(logical_not, 8, 2)
LG_RANDOM_TEST(bit_and, 9, 1)
LG_RANDOM_TEST(bit_or, 10, 1)
LG_RANDOM_TEST(bit_xor, 11, 1)
LG_RANDOM_TEST(bit_not, 12, 1)
LG_RANDOM_TEST(bit_shift_left, 13, 2)
LG_RANDOM_TEST(bit_shift_right, 14, 2)
LG_RANDOM_TEST(bit_count, 15, 1)
LG_RANDOM_TEST(is_infinity, 16, 3)
LG_RANDOM_TEST(is_nan, 17, 2)
LG_RANDOM_TEST(if, 18, 1)
LG_RANDOM_TEST(cast, 19, 2)

/* ---- The fills: no input, the output in any layout ----------------------------------- */

static const DML_TENSOR_DATA_TYPE fill_types[] = ELEVEN;

static void fill_case(const char *test, unsigned n, bool sequence)
{
    static char what[2048], diff[4096];
    static ops_tensor out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE t = fill_types[n % COUNT_OF(fill_types)];
    if (sequence && t == DML_TENSOR_DATA_TYPE_FLOAT64) /* not in SEQUENCE's table */
        t = DML_TENSOR_DATA_TYPE_FLOAT32;
    uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), sizes[REF_MAX_DIMS];
    ops_layout layout;
    ops_random_sizes(&rng, rank, sizes, LG_MAX_ELEMENTS);
    ops_random_tensor(&out, &rng, "OutputTensor", true, t, rank, sizes, &layout);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &out, false);
    ops_memory_alloc(&mem, &rng);
    DML_SCALAR_UNION a = {{0}}, b = {{0}};
    ops_fill_distinct(&rng, t, a.Bytes, 1);
    ops_fill_distinct(&rng, t, b.Bytes, 1);
    if (sequence && ref_type_is_float(t)) { /* finite steps: quarters */
        double s = (double)ref_rng_range(&rng, -400, 400) / 4,
               d = (double)ref_rng_range(&rng, -40, 40) / 4;
        if (t == F64)
            a.Float64 = s, b.Float64 = d;
        else if (t == F32)
            a.Float32 = (float)s, b.Float32 = (float)d;
        else
            a.UInt16 = ref_half_from_double(s), b.UInt16 = ref_half_from_double(d);
    }
    ops_memory_snapshot(&mem);
    ref_tensor e = ops_view(&mem, OPS_EXPECT, &out);
    if (sequence)
        ref_fill_sequence(&a, &b, &e);
    else
        ref_fill_constant(&a, &e);
    ops_poison_output(&mem, &out);
    DML_FILL_VALUE_CONSTANT_OPERATOR_DESC dc = {ops_tensor_desc(&out), t, a};
    DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC ds = {ops_tensor_desc(&out), t, a, b};
    DML_OPERATOR_DESC desc = {sequence ? DML_OPERATOR_FILL_VALUE_SEQUENCE
                                       : DML_OPERATOR_FILL_VALUE_CONSTANT,
                              sequence ? (const void *)&ds : (const void *)&dc};
    ops_tensor *outputs[1] = {&out};
    const char *stage = "";
    char head[512], od[512];
    snprintf(what, sizeof what, "%s\n  %s %s",
             ops_replay(head, sizeof head, sequence ? "FILL_VALUE_SEQUENCE" : "FILL_VALUE_CONSTANT",
                        "elementwise_logic", test, n, ops_base_seed(&run_seed)),
             ops_layout_name(layout), ops_tensor_describe(&out, od, sizeof od));
    HRESULT hr = ops_run_device(&desc, &mem, NULL, 0, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    if (sequence) /* a constant is its encoding, NaN payloads included */
        accept_float(&mem, &out, t, 2);
    uint64_t bad = ops_compare(&mem, outputs, 1, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&mem);
}

Test(elementwise_logic, random_fill_value_constant)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(fill_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            fill_case("random_fill_value_constant", n, false);
}

Test(elementwise_logic, random_fill_value_sequence)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(2 * COUNT_OF(fill_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            fill_case("random_fill_value_sequence", n, true);
}

/* ---- Fixed cases: the rules the pages leave to the implementation -------------------- */

/* One packed 1-D operator of n elements on host memory: inputs of their types, one output. */
static HRESULT run_host(DML_OPERATOR_TYPE type, const DML_TENSOR_DATA_TYPE *types, int n_in,
                        DML_TENSOR_DATA_TYPE out_type, UINT n, void *const *in, void *out,
                        const void *extra, size_t extra_bytes)
{
    UINT sizes[1] = {n};
    DML_BUFFER_TENSOR_DESC bufs[4];
    DML_TENSOR_DESC tds[4];
    dmlcl_host_tensor hin[3], hout;
    for (int i = 0; i <= n_in; ++i) {
        DML_TENSOR_DATA_TYPE t = i < n_in ? types[i] : out_type;
        bufs[i] = (DML_BUFFER_TENSOR_DESC){
            t, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, DMLCalcBufferTensorSize(t, 1, sizes, NULL), 0};
        tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &bufs[i]};
        if (i < n_in)
            hin[i] = (dmlcl_host_tensor){in[i], bufs[i].TotalTensorSizeInBytes};
    }
    hout = (dmlcl_host_tensor){out, bufs[n_in].TotalTensorSizeInBytes};
    /* Every descriptor here: its tensors in order, then (IS_INFINITY) a mode. */
    struct {
        const DML_TENSOR_DESC *t[4];
        unsigned char extra[16];
    } d;
    for (int i = 0; i <= n_in; ++i)
        d.t[i] = &tds[i];
    if (extra_bytes)
        memcpy((unsigned char *)&d.t[n_in + 1], extra, extra_bytes);
    DML_OPERATOR_DESC desc = {type, &d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, (UINT)n_in, hin, 1, &hout);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

static HRESULT cast(DML_TENSOR_DATA_TYPE from, DML_TENSOR_DATA_TYPE to, UINT n, void *in, void *out)
{
    void *ins[1] = {in};
    return run_host(DML_OPERATOR_CAST, &from, 1, to, n, ins, out, NULL, 0);
}

Test(elementwise_logic, cast_float_to_integer_saturates)
{
    float x[12] = {NAN,   INFINITY, -INFINITY, 1e30f,  -1e30f,  2.7f,
                   -2.7f, -0.5f,    127.9f,    128.0f, -129.0f, 255.5f};
    int8_t i8[12];
    uint8_t u8[12];
    int32_t i32[12];
    uint64_t u64[12];
    cr_assert_eq(cast(F32, I8, 12, x, i8), S_OK, "%s", dmlcl_last_error());
    const int8_t w8[12] = {0, 127, -128, 127, -128, 2, -2, 0, 127, 127, -128, 127};
    for (int i = 0; i < 12; ++i)
        cr_expect_eq(i8[i], w8[i], "INT8(%g) = %d, expected %d", x[i], i8[i], w8[i]);
    cr_assert_eq(cast(F32, U8, 12, x, u8), S_OK, "%s", dmlcl_last_error());
    const uint8_t wu8[12] = {0, 255, 0, 255, 0, 2, 0, 0, 127, 128, 0, 255};
    for (int i = 0; i < 12; ++i)
        cr_expect_eq(u8[i], wu8[i], "UINT8(%g) = %u, expected %u", x[i], u8[i], wu8[i]);
    cr_assert_eq(cast(F32, I32, 12, x, i32), S_OK, "%s", dmlcl_last_error());
    cr_expect(i32[0] == 0 && i32[1] == INT32_MAX && i32[2] == INT32_MIN && i32[3] == INT32_MAX &&
                  i32[6] == -2,
              "INT32: %d %d %d %d %d", i32[0], i32[1], i32[2], i32[3], i32[6]);
    cr_assert_eq(cast(F32, U64, 12, x, u64), S_OK, "%s", dmlcl_last_error());
    cr_expect(
        u64[0] == 0 && u64[1] == UINT64_MAX && u64[2] == 0 && u64[3] == UINT64_MAX && u64[5] == 2,
        "UINT64: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, u64[0], u64[1], u64[2], u64[3]);
    double big[2] = {9.3e18, -9.3e18};
    int64_t i64[2];
    cr_assert_eq(cast(F64, I64, 2, big, i64), S_OK, "%s", dmlcl_last_error());
    cr_expect(i64[0] == INT64_MAX && i64[1] == INT64_MIN, "FLOAT64 -> INT64 saturates");
}

Test(elementwise_logic, cast_rounds_once)
{
    /* 1 + 2^-11 + 2^-40 is just above the midpoint of 1 and 1 + 2^-10: FLOAT16 1 + 2^-10
     * (0x3C01); through FLOAT32 (1 + 2^-11, a tie) it would round to 1.0. */
    double d[3] = {1.0 + ldexp(1, -11) + ldexp(1, -40), -0.0, 65520.0};
    uint16_t h[4];
    cr_assert_eq(cast(F64, F16, 3, d, h), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(h[0], 0x3C01, "FLOAT64 -> FLOAT16 rounds once: 0x%04X", h[0]);
    cr_expect_eq(h[1], 0x8000, "-0 stays -0: 0x%04X", h[1]);
    cr_expect_eq(h[2], 0x7C00, "65520 rounds to infinity: 0x%04X", h[2]);
    int64_t i[2] = {(INT64_C(1) << 53) + 1, -((INT64_C(1) << 24) + 3)};
    float f[2];
    cr_assert_eq(cast(I64, F32, 2, i, f), S_OK, "%s", dmlcl_last_error());
    cr_expect(f[0] == 9007199254740992.0f && f[1] == -16777220.0f, "INT64 -> FLOAT32: %.1f %.1f",
              f[0], f[1]);
    uint64_t u = UINT64_MAX;
    double g[2];
    cr_assert_eq(cast(U64, F64, 1, &u, g), S_OK, "%s", dmlcl_last_error());
    cr_expect(g[0] == 18446744073709551616.0, "UINT64_MAX -> FLOAT64: %.1f", g[0]);
}

Test(elementwise_logic, cast_integers_wrap)
{
    int32_t a[4] = {300, -129, -1, 65536 + 7};
    int8_t b[4];
    uint16_t c[4];
    cr_assert_eq(cast(I32, I8, 4, a, b), S_OK, "%s", dmlcl_last_error());
    cr_expect(b[0] == 44 && b[1] == 127 && b[2] == -1 && b[3] == 7, "%d %d %d %d", b[0], b[1], b[2],
              b[3]);
    cr_assert_eq(cast(I32, U16, 4, a, c), S_OK, "%s", dmlcl_last_error());
    cr_expect(c[2] == 65535 && c[3] == 7, "%u %u", c[2], c[3]);
    int8_t s[4] = {-1, -128, 5, 0};
    uint64_t w[4];
    cr_assert_eq(cast(I8, U64, 4, s, w), S_OK, "%s", dmlcl_last_error());
    cr_expect(w[0] == UINT64_MAX && w[1] == (uint64_t)-128, "sign-extended then wrapped");
}

static HRESULT binary(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE t, DML_TENSOR_DATA_TYPE out_t,
                      UINT n, void *a, void *b, void *out)
{
    DML_TENSOR_DATA_TYPE types[2] = {t, t};
    void *ins[2] = {a, b};
    return run_host(op, types, 2, out_t, n, ins, out, NULL, 0);
}

Test(elementwise_logic, shifts_past_the_width)
{
    uint8_t a8[4] = {0x81, 0x81, 0x81, 0x81}, n8[4] = {7, 8, 9, 200}, r8[4];
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT, U8, U8, 4, a8, n8, r8), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(r8[0] == 0x80 && r8[1] == 0 && r8[2] == 0 && r8[3] == 0, "%x %x %x %x", r8[0], r8[1],
              r8[2], r8[3]);
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT, U8, U8, 4, a8, n8, r8), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(r8[0] == 1 && r8[1] == 0 && r8[2] == 0 && r8[3] == 0, "%x %x %x %x", r8[0], r8[1],
              r8[2], r8[3]);
    uint64_t a[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX},
             n[4] = {63, 64, 65, UINT64_C(1) << 63};
    uint64_t r[4];
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT, U64, U64, 4, a, n, r), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(r[0] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0, "a count >= 64 gives 0");
}

Test(elementwise_logic, compares_in_the_operands_type)
{
    int64_t a[3] = {(INT64_C(1) << 53) + 1, -1, INT64_MIN};
    int64_t b[3] = {INT64_C(1) << 53, 1, INT64_MAX};
    uint8_t r[4];
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN, I64, U8, 3, a, b, r), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(r[0] == 1 && r[1] == 0 && r[2] == 0, "INT64 exactly, signed: %u %u %u", r[0], r[1],
              r[2]);
    uint64_t ua[2] = {UINT64_MAX, 1}, ub[2] = {1, UINT64_MAX};
    uint32_t r32[2];
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN, U64, U32, 2, ua, ub, r32),
                 S_OK, "%s", dmlcl_last_error());
    cr_expect(r32[0] == 1 && r32[1] == 0, "UINT64 unsigned: %u %u", r32[0], r32[1]);
    float fa[4] = {NAN, -0.0f, 1.0f, NAN}, fb[4] = {NAN, 0.0f, NAN, 1.0f};
    cr_assert_eq(binary(DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS, F32, U8, 4, fa, fb, r), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 0, "NaN unequal, -0 == +0");
    cr_assert_eq(
        binary(DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL, F32, U8, 4, fa, fb, r), S_OK,
        "%s", dmlcl_last_error());
    cr_expect(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 0, "NaN compares false");
}

Test(elementwise_logic, sequence_follows_the_logical_order)
{
    /* Sizes {2, 3} stored column-major (strides {1, 2}): element (i, j) is number 3i + j. */
    UINT sizes[2] = {2, 3}, strides[2] = {1, 2};
    DML_BUFFER_TENSOR_DESC buf = {I32,     DML_TENSOR_FLAG_NONE,
                                  2,       sizes,
                                  strides, DMLCalcBufferTensorSize(I32, 2, sizes, strides),
                                  0};
    DML_TENSOR_DESC td = {DML_TENSOR_TYPE_BUFFER, &buf};
    DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC d = {&td, I32, {{0}}, {{0}}};
    d.ValueStart.Int32 = 10;
    d.ValueDelta.Int32 = -2;
    DML_OPERATOR_DESC desc = {DML_OPERATOR_FILL_VALUE_SEQUENCE, &d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    int32_t got[6] = {0};
    dmlcl_host_tensor out = {got, sizeof got};
    cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_compiled_operator_execute(c, 0, NULL, 1, &out), S_OK, "%s",
                 dmlcl_last_error());
    const int32_t want[6] = {10, 4, 8, 2, 6, 0}; /* memory order: (0,0) (1,0) (0,1) ... */
    for (int i = 0; i < 6; ++i)
        cr_expect_eq(got[i], want[i], "memory[%d] = %d, expected %d", i, got[i], want[i]);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
}

/* ---- Validation -------------------------------------------------------------------- */

static HRESULT create(DML_OPERATOR_TYPE type, const DML_TENSOR_DATA_TYPE *types, int n,
                      const void *extra, size_t extra_bytes, const UINT *out_sizes)
{
    UINT sizes[2] = {2, 3};
    DML_BUFFER_TENSOR_DESC bufs[4];
    DML_TENSOR_DESC tds[4];
    struct {
        const DML_TENSOR_DESC *t[4];
        unsigned char extra[40];
    } d;
    memset(&d, 0, sizeof d);
    for (int i = 0; i < n; ++i) {
        const UINT *s = i == n - 1 && out_sizes ? out_sizes : sizes;
        bufs[i] = (DML_BUFFER_TENSOR_DESC){types[i], DML_TENSOR_FLAG_NONE,
                                           2,        s,
                                           NULL,     DMLCalcBufferTensorSize(types[i], 2, s, NULL),
                                           0};
        tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &bufs[i]};
        d.t[i] = &tds[i];
    }
    if (extra_bytes)
        memcpy((unsigned char *)&d.t[n], extra, extra_bytes);
    DML_OPERATOR_DESC desc = {type, &d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    dmlcl_operator_release(op);
    return hr;
}

#define EXPECT_HR(want, call, why)                                               \
    do {                                                                         \
        HRESULT got_ = (call);                                                   \
        cr_expect_eq(got_, (want), "%s: %s (%s)", why, dmlcl_hresult_name(got_), \
                     dmlcl_last_error());                                        \
    } while (0)

Test(elementwise_logic, validation)
{
    const DML_TENSOR_DATA_TYPE ok_cmp[3] = {I64, I64, U8}, bad_out[3] = {I64, I64, F32},
                               mixed[3] = {I32, I64, U8};
    EXPECT_HR(S_OK, create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS, ok_cmp, 3, NULL, 0, NULL),
              "EQUALS INT64 -> UINT8");
    EXPECT_HR(E_INVALIDARG,
              create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN, bad_out, 3, NULL, 0, NULL),
              "a comparison's FLOAT32 output");
    EXPECT_HR(E_INVALIDARG,
              create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN, mixed, 3, NULL, 0, NULL),
              "A and B of two types");
    const DML_TENSOR_DATA_TYPE f64_cmp[3] = {F64, F64, U8};
    EXPECT_HR(E_INVALIDARG,
              create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS, f64_cmp, 3, NULL, 0, NULL),
              "FLOAT64 is in no comparison table");
    const DML_TENSOR_DATA_TYPE i32x3[3] = {I32, I32, I32}, u8x2[2] = {U8, U32};
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND, i32x3, 3, NULL, 0, NULL),
              "LOGICAL_AND on INT32");
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT, u8x2, 2, NULL, 0, NULL),
              "LOGICAL_NOT's output of another type");
    EXPECT_HR(E_INVALIDARG,
              create(DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT, i32x3, 3, NULL, 0, NULL),
              "shifts on signed types");
    const DML_TENSOR_DATA_TYPE f32x3[3] = {F32, F32, F32}, f64_u8[2] = {F64, U8};
    EXPECT_HR(S_OK, create(DML_OPERATOR_ELEMENT_WISE_BIT_XOR, f32x3, 3, NULL, 0, NULL),
              "BIT_XOR on FLOAT32's encoding");
    EXPECT_HR(S_OK, create(DML_OPERATOR_ELEMENT_WISE_BIT_COUNT, f64_u8, 2, NULL, 0, NULL),
              "BIT_COUNT FLOAT64 -> UINT8");
    const DML_TENSOR_DATA_TYPE cnt_bad[2] = {U32, U16};
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_BIT_COUNT, cnt_bad, 2, NULL, 0, NULL),
              "BIT_COUNT's UINT16 output");
    const DML_TENSOR_DATA_TYPE inf_ok[2] = {F16, U8}, inf_u32[2] = {F32, U32};
    DML_IS_INFINITY_MODE mode = DML_IS_INFINITY_MODE_NEGATIVE, bad_mode = (DML_IS_INFINITY_MODE)3;
    EXPECT_HR(S_OK,
              create(DML_OPERATOR_ELEMENT_WISE_IS_INFINITY, inf_ok, 2, &mode, sizeof mode, NULL),
              "IS_INFINITY NEGATIVE");
    EXPECT_HR(
        E_INVALIDARG,
        create(DML_OPERATOR_ELEMENT_WISE_IS_INFINITY, inf_ok, 2, &bad_mode, sizeof mode, NULL),
        "InfinityMode 3");
    EXPECT_HR(E_INVALIDARG,
              create(DML_OPERATOR_ELEMENT_WISE_IS_INFINITY, inf_u32, 2, &mode, sizeof mode, NULL),
              "IS_INFINITY's UINT32 output");
    const DML_TENSOR_DATA_TYPE nan_i32[2] = {I32, U8};
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_IS_NAN, nan_i32, 2, NULL, 0, NULL),
              "IS_NAN on INT32");
    const DML_TENSOR_DATA_TYPE if_ok[4] = {U8, F64, F64, F64}, if_cond[4] = {F32, F32, F32, F32},
                               if_mixed[4] = {U8, F32, F16, F32}, if_out[4] = {U8, I8, I8, U8};
    EXPECT_HR(S_OK, create(DML_OPERATOR_ELEMENT_WISE_IF, if_ok, 4, NULL, 0, NULL), "IF FLOAT64");
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_IF, if_cond, 4, NULL, 0, NULL),
              "a FLOAT32 condition");
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_IF, if_mixed, 4, NULL, 0, NULL),
              "A and B of two types");
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_ELEMENT_WISE_IF, if_out, 4, NULL, 0, NULL),
              "an output of another type than A");
    const DML_TENSOR_DATA_TYPE cast_ok[2] = {F64, U8};
    const UINT other[2] = {3, 2};
    EXPECT_HR(S_OK, create(DML_OPERATOR_CAST, cast_ok, 2, NULL, 0, NULL), "CAST FLOAT64 -> UINT8");
    EXPECT_HR(E_INVALIDARG, create(DML_OPERATOR_CAST, cast_ok, 2, NULL, 0, other),
              "CAST to other Sizes");
    struct {
        DML_TENSOR_DATA_TYPE type;
        DML_SCALAR_UNION v[2];
    } fill = {F32, {{{0}}, {{0}}}}, fill_bad = {I32, {{{0}}, {{0}}}};
    const DML_TENSOR_DATA_TYPE out_f32[1] = {F32};
    EXPECT_HR(S_OK, create(DML_OPERATOR_FILL_VALUE_SEQUENCE, out_f32, 1, &fill, sizeof fill, NULL),
              "FILL_VALUE_SEQUENCE FLOAT32");
    EXPECT_HR(
        E_INVALIDARG,
        create(DML_OPERATOR_FILL_VALUE_CONSTANT, out_f32, 1, &fill_bad, sizeof fill_bad, NULL),
        "ValueDataType INT32 for a FLOAT32 output");
}
