/* SPDX-License-Identifier: MIT */
/*
 * misc.c: the selection family's operators (NONZERO_COORDINATES, REVERSE_SUBSEQUENCES,
 * MAX_UNPOOLING, RANDOM_GENERATOR) on the device against the C reference (tests/ref/ref_misc.c),
 * every type each takes, bit-exact.
 *
 * Random cases: inputs packed, padded, transposed or broadcast, outputs packed, padded or
 * transposed (NONZERO's coordinates too: ONNX Runtime's {M, N} with strides {2, 2M} is a
 * transposed, padded layout). NONZERO: zero densities from none to all, -0.0 among the zeros,
 * NaN and subnormals among the nonzeros, its two forms ({1,1,M,N} beside a 4- or 5-D input;
 * {M, N} beside a 1- to 8-D input); its coordinates' rows past the count must be left as they
 * were. REVERSE: lengths 0 to past the axis (clamped), negative signed ones, 64-bit ones past
 * 2^32. MAX_UNPOOLING: indices valid, repeated (the last in the input's order wins) and past
 * the output (UINT64 ones that look valid truncated to 32 bits). RANDOM_GENERATOR: counters
 * that carry across words and wrap at 2^128, with and without the output state. Fixed cases:
 * Random123's known answers through the operator. Failures print the seed; DMLCL_TEST_SEED
 * replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_misc.h"

#define MISC_DEFAULT_SEED 0x646D6C636C4D4953ull
#define MISC_MAX_ELEMENTS 3000
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

static ops_seed run_seed = OPS_SEED(MISC_DEFAULT_SEED);

OPS_DEVICE_SUITE(misc);

static const DML_TENSOR_DATA_TYPE data_types[] = {F32, F16, I64, I32, I16, I8, U64, U32, U16, U8};

/* Elements that fit in a binding's TotalTensorSizeInBytes. */
static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

static void run_and_compare(const char *what, const DML_OPERATOR_DESC *desc, ops_memory *mem,
                            ops_tensor *const *inputs, UINT n_in, ops_tensor *const *outputs,
                            UINT n_out, ops_tensor *const *all, int n_all, unsigned n)
{
    static char diff[4096];
    const char *stage = "";
    HRESULT hr = ops_run_device(desc, mem, inputs, n_in, outputs, n_out,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    uint64_t bad = ops_compare(mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
}

/* ---- NONZERO_COORDINATES -------------------------------------------------------------- */

static void nonzero_case(const char *test, unsigned n)
{
    static char what[4096];
    static ops_tensor in, count, coords;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE type = data_types[n % COUNT_OF(data_types)];
    bool onnx_form = (n / COUNT_OF(data_types)) % 2 == 1;
    uint32_t rank =
        onnx_form ? 1 + (uint32_t)ref_rng_below(&rng, 8) : 4 + (uint32_t)ref_rng_below(&rng, 2);
    uint32_t sizes[REF_MAX_DIMS];
    ops_random_sizes(&rng, rank, sizes, MISC_MAX_ELEMENTS);
    uint32_t effective = rank;
    while (effective > 0 && sizes[rank - effective] == 1)
        --effective;
    uint32_t cols = effective + (uint32_t)ref_rng_below(&rng, rank - effective + 1);
    uint32_t crank = onnx_form ? 2 : rank, csizes[REF_MAX_DIMS], nsizes[REF_MAX_DIMS];
    for (uint32_t k = 0; k < crank; ++k)
        csizes[k] = nsizes[k] = 1;
    csizes[crank - 2] = (uint32_t)ref_element_count(rank, sizes);
    csizes[crank - 1] = cols;
    uint32_t nrank = onnx_form ? 1 : rank;
    ops_layout layout[3];
    ops_random_tensor(&in, &rng, "InputTensor", false, type, rank, sizes, &layout[0]);
    ops_random_tensor(&count, &rng, "OutputCountTensor", true, U32, nrank, nsizes, &layout[1]);
    ops_random_tensor(&coords, &rng, "OutputCoordinatesTensor", true, U32, crank, csizes,
                      &layout[2]);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &in, false);
    ops_memory_place(&mem, &rng, &count, false);
    ops_memory_place(&mem, &rng, &coords, false);
    ops_memory_alloc(&mem, &rng);
    unsigned char *src = ops_ptr(&mem, OPS_INIT, &in);
    size_t es = ref_type_size(type);
    ops_fill_distinct(&rng, type, src, slots(&in));
    unsigned zeros = (unsigned)ref_rng_below(&rng, 101);
    for (uint64_t i = 0; i < slots(&in); ++i)
        if (ref_rng_chance(&rng, zeros)) {
            memset(src + i * es, 0, es);
            if (ref_type_is_float(type) && ref_rng_chance(&rng, 50))
                src[i * es + es - 1] = 0x80; /* -0.0 */
        }
    /* Rows the device must write start as no coordinate any input has. */
    memset(ops_ptr(&mem, OPS_INIT, &coords), 0xA5, coords.buffer.TotalTensorSizeInBytes);
    ops_memory_snapshot(&mem);
    ref_tensor ri = ops_view(&mem, OPS_EXPECT, &in), rc = ops_view(&mem, OPS_EXPECT, &coords),
               rn = ops_view(&mem, OPS_EXPECT, &count);
    uint32_t found = 0, zero[REF_MAX_DIMS] = {0};
    cr_assert(ref_nonzero_coordinates(&ri, &found, &rc), "test bug: the reference rejected");
    ref_put(&rn, zero, &found);
    ops_poison_output(&mem, &count);
    DML_NONZERO_COORDINATES_OPERATOR_DESC d = {ops_tensor_desc(&in), ops_tensor_desc(&count),
                                               ops_tensor_desc(&coords)};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_NONZERO_COORDINATES, &d};
    ops_tensor *inputs[1] = {&in}, *outputs[2] = {&count, &coords},
               *all[3] = {&in, &count, &coords};
    char head[512], a[512], b[512];
    snprintf(what, sizeof what, "%s\n  zeros %u%%, N %u, %u found, layouts %s/%s\n  %s\n  %s",
             ops_replay(head, sizeof head, "NONZERO_COORDINATES", "misc", test, n,
                        ops_base_seed(&run_seed)),
             zeros, cols, found, ops_layout_name(layout[0]), ops_layout_name(layout[2]),
             ops_tensor_describe(&in, a, sizeof a), ops_tensor_describe(&coords, b, sizeof b));
    run_and_compare(what, &desc, &mem, inputs, 1, outputs, 2, all, 3, n);
    ops_memory_release(&mem);
}

Test(misc, random_nonzero)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(4 * COUNT_OF(data_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            nonzero_case("random_nonzero", n);
}

/* ---- REVERSE_SUBSEQUENCES ------------------------------------------------------------- */

static const DML_TENSOR_DATA_TYPE length_types[] = {U32, U64, I32, I64};

static void fill_lengths(ref_rng *rng, DML_TENSOR_DATA_TYPE t, unsigned char *dst, uint64_t count,
                         uint32_t axis_size)
{
    for (uint64_t i = 0; i < count; ++i) {
        int64_t v = ref_rng_range(rng, 0, (int64_t)axis_size + 1);
        if (ref_rng_chance(rng, 10))
            v = (int64_t)axis_size + ref_rng_range(rng, 1, 1000);
        if (ref_type_is_signed_int(t) && ref_rng_chance(rng, 10))
            v = -ref_rng_range(rng, 1, 5);
        if (ref_type_size(t) == 8) {
            if (ref_rng_chance(rng, 5))
                v = (int64_t)((uint64_t)1 << 32) + (v & 3); /* looks short truncated */
            memcpy(dst + i * 8, &v, 8);
        } else {
            int32_t w = (int32_t)v;
            memcpy(dst + i * 4, &w, 4);
        }
    }
}

static void reverse_case(const char *test, unsigned n)
{
    static char what[4096];
    static ops_tensor in, len, out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE type = data_types[n % COUNT_OF(data_types)];
    DML_TENSOR_DATA_TYPE lt = length_types[(n / COUNT_OF(data_types)) % COUNT_OF(length_types)];
    uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), sizes[REF_MAX_DIMS];
    uint32_t axis = (uint32_t)ref_rng_below(&rng, rank), lsizes[REF_MAX_DIMS];
    ops_random_sizes(&rng, rank, sizes, MISC_MAX_ELEMENTS);
    memcpy(lsizes, sizes, sizeof lsizes);
    lsizes[axis] = 1;
    ops_layout layout[3];
    ops_random_tensor(&in, &rng, "InputTensor", false, type, rank, sizes, &layout[0]);
    ops_random_tensor(&len, &rng, "SequenceLengthsTensor", false, lt, rank, lsizes, &layout[1]);
    ops_random_tensor(&out, &rng, "OutputTensor", true, type, rank, sizes, &layout[2]);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &in, false);
    ops_memory_place(&mem, &rng, &len, false);
    ops_memory_place(&mem, &rng, &out, false);
    ops_memory_alloc(&mem, &rng);
    ops_fill_distinct(&rng, type, ops_ptr(&mem, OPS_INIT, &in), slots(&in));
    fill_lengths(&rng, lt, ops_ptr(&mem, OPS_INIT, &len), slots(&len), sizes[axis]);
    ops_memory_snapshot(&mem);
    ref_tensor ri = ops_view(&mem, OPS_EXPECT, &in), rl = ops_view(&mem, OPS_EXPECT, &len),
               ro = ops_view(&mem, OPS_EXPECT, &out);
    cr_assert(ref_reverse_subsequences(&ri, &rl, axis, &ro), "test bug: the reference rejected");
    ops_poison_output(&mem, &out);
    DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC d = {ops_tensor_desc(&in), ops_tensor_desc(&len),
                                                ops_tensor_desc(&out), axis};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_REVERSE_SUBSEQUENCES, &d};
    ops_tensor *inputs[2] = {&in, &len}, *outputs[1] = {&out}, *all[3] = {&in, &len, &out};
    char head[512], a[512], b[512];
    snprintf(what, sizeof what, "%s\n  Axis %u, layouts %s/%s/%s\n  %s\n  %s",
             ops_replay(head, sizeof head, "REVERSE_SUBSEQUENCES", "misc", test, n,
                        ops_base_seed(&run_seed)),
             axis, ops_layout_name(layout[0]), ops_layout_name(layout[1]),
             ops_layout_name(layout[2]), ops_tensor_describe(&in, a, sizeof a),
             ops_tensor_describe(&len, b, sizeof b));
    run_and_compare(what, &desc, &mem, inputs, 2, outputs, 1, all, 3, n);
    ops_memory_release(&mem);
}

Test(misc, random_reverse_subsequences)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(data_types) * COUNT_OF(length_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            reverse_case("random_reverse_subsequences", n);
}

/* ---- MAX_UNPOOLING -------------------------------------------------------------------- */

static void unpool_case(const char *test, unsigned n)
{
    static char what[4096];
    static ops_tensor in, idx, out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE type = data_types[n % COUNT_OF(data_types)];
    DML_TENSOR_DATA_TYPE it = (n / COUNT_OF(data_types)) % 2 ? U64 : U32;
    uint32_t sizes[4], osizes[4];
    ops_random_sizes(&rng, 4, sizes, 600);
    ops_random_sizes(&rng, 4, osizes, MISC_MAX_ELEMENTS);
    uint64_t outputs = ref_element_count(4, osizes);
    ops_layout layout[3];
    ops_random_tensor(&in, &rng, "InputTensor", false, type, 4, sizes, &layout[0]);
    ops_random_tensor(&idx, &rng, "IndicesTensor", false, it, 4, sizes, &layout[1]);
    ops_random_tensor(&out, &rng, "OutputTensor", true, type, 4, osizes, &layout[2]);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &in, false);
    ops_memory_place(&mem, &rng, &idx, false);
    ops_memory_place(&mem, &rng, &out, false);
    ops_memory_alloc(&mem, &rng);
    ops_fill_distinct(&rng, type, ops_ptr(&mem, OPS_INIT, &in), slots(&in));
    unsigned char *ip = ops_ptr(&mem, OPS_INIT, &idx);
    unsigned invalid = ref_rng_chance(&rng, 40) ? 0 : (unsigned)ref_rng_range(&rng, 1, 30);
    uint64_t repeat_span = ref_rng_chance(&rng, 50) ? outputs : 1 + outputs / 8;
    for (uint64_t i = 0; i < slots(&idx); ++i) {
        uint64_t v = ref_rng_below(&rng, repeat_span);
        if (ref_rng_chance(&rng, invalid)) {
            switch (ref_rng_below(&rng, 3)) {
            case 0: v = outputs + ref_rng_below(&rng, 4); break;
            case 1:
                v = it == U64 ? ((uint64_t)1 << 32) + ref_rng_below(&rng, outputs) : UINT32_MAX;
                break;
            default: v = it == U64 ? UINT64_MAX : UINT32_MAX - 1; break;
            }
        }
        if (it == U64)
            memcpy(ip + i * 8, &v, 8);
        else {
            uint32_t w = (uint32_t)v;
            memcpy(ip + i * 4, &w, 4);
        }
    }
    ops_memory_snapshot(&mem);
    ref_tensor ri = ops_view(&mem, OPS_EXPECT, &in), rx = ops_view(&mem, OPS_EXPECT, &idx),
               ro = ops_view(&mem, OPS_EXPECT, &out);
    cr_assert(ref_max_unpooling(&ri, &rx, &ro), "test bug: the reference rejected");
    ops_poison_output(&mem, &out);
    DML_MAX_UNPOOLING_OPERATOR_DESC d = {ops_tensor_desc(&in), ops_tensor_desc(&idx),
                                         ops_tensor_desc(&out)};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_MAX_UNPOOLING, &d};
    ops_tensor *inputs[2] = {&in, &idx}, *outs[1] = {&out}, *all[3] = {&in, &idx, &out};
    char head[512], a[512], b[512];
    snprintf(
        what, sizeof what, "%s\n  invalid %u%%, layouts %s/%s/%s\n  %s\n  %s",
        ops_replay(head, sizeof head, "MAX_UNPOOLING", "misc", test, n, ops_base_seed(&run_seed)),
        invalid, ops_layout_name(layout[0]), ops_layout_name(layout[1]), ops_layout_name(layout[2]),
        ops_tensor_describe(&in, a, sizeof a), ops_tensor_describe(&out, b, sizeof b));
    run_and_compare(what, &desc, &mem, inputs, 2, outs, 1, all, 3, n);
    ops_memory_release(&mem);
}

Test(misc, random_max_unpooling)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(2 * COUNT_OF(data_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            unpool_case("random_max_unpooling", n);
}

/* ---- RANDOM_GENERATOR ----------------------------------------------------------------- */

static void philox_case(const char *test, unsigned n)
{
    static char what[4096];
    static ops_tensor state, out, next;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    bool with_state = n % 2 == 0;
    uint32_t sizes[4], ssizes[4] = {1, 1, 1, 6};
    ops_random_sizes(&rng, 4, sizes, MISC_MAX_ELEMENTS);
    ops_layout layout[3];
    ops_random_tensor(&state, &rng, "InputStateTensor", false, U32, 4, ssizes, &layout[0]);
    ops_random_tensor(&out, &rng, "OutputTensor", true, U32, 4, sizes, &layout[1]);
    ops_random_tensor(&next, &rng, "OutputStateTensor", true, U32, 4, ssizes, &layout[2]);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &state, false);
    ops_memory_place(&mem, &rng, &out, false);
    if (with_state)
        ops_memory_place(&mem, &rng, &next, false);
    ops_memory_alloc(&mem, &rng);
    uint32_t s[6];
    for (int i = 0; i < 6; ++i)
        s[i] = (uint32_t)ref_rng_next(&rng);
    switch (n % 5) {
    case 1: s[0] = s[1] = UINT32_MAX; break;                   /* carries into word 2 */
    case 2: s[0] = s[1] = s[2] = s[3] = UINT32_MAX - 1; break; /* wraps at 2^128 */
    case 3: s[0] = s[1] = s[2] = s[3] = 0; break;
    default: break;
    }
    ref_tensor rs = ops_view(&mem, OPS_INIT, &state);
    uint32_t c[REF_MAX_DIMS] = {0};
    for (uint32_t i = 0; i < 6; ++i) {
        c[3] = i;
        ref_put(&rs, c, &s[i]);
    }
    ops_memory_snapshot(&mem);
    ref_tensor ro = ops_view(&mem, OPS_EXPECT, &out);
    uint32_t after[6];
    cr_assert(ref_random_generator(s, &ro, after), "test bug: the reference rejected");
    if (with_state) {
        ref_tensor rn = ops_view(&mem, OPS_EXPECT, &next);
        for (uint32_t i = 0; i < 6; ++i) {
            c[3] = i;
            ref_put(&rn, c, &after[i]);
        }
        ops_poison_output(&mem, &next);
    }
    ops_poison_output(&mem, &out);
    DML_RANDOM_GENERATOR_OPERATOR_DESC d = {ops_tensor_desc(&state), ops_tensor_desc(&out),
                                            with_state ? ops_tensor_desc(&next) : NULL,
                                            DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_RANDOM_GENERATOR, &d};
    ops_tensor *inputs[1] = {&state}, *outs[2] = {&out, with_state ? &next : NULL};
    ops_tensor *all[3] = {&state, &out, &next};
    char head[512], a[512];
    snprintf(what, sizeof what,
             "%s\n  state %08x %08x %08x %08x key %08x %08x, output state %s, layouts %s/%s\n  %s",
             ops_replay(head, sizeof head, "RANDOM_GENERATOR", "misc", test, n,
                        ops_base_seed(&run_seed)),
             s[0], s[1], s[2], s[3], s[4], s[5], with_state ? "bound" : "absent",
             ops_layout_name(layout[0]), ops_layout_name(layout[1]),
             ops_tensor_describe(&out, a, sizeof a));
    run_and_compare(what, &desc, &mem, inputs, 1, outs, 2, all, with_state ? 3 : 2, n);
    ops_memory_release(&mem);
}

Test(misc, random_philox)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(20); ++n)
        if (only < 0 || (unsigned long)only == n)
            philox_case("random_philox", n);
}

/* Random123's published known answers (kat_vectors, philox4x32 10) through the operator: the
 * state's counter and key are Philox's, the first four output elements its block, and the
 * output state the counter plus 1. */
Test(misc, philox_known_answers)
{
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
         0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
         0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    static const UINT ssz[4] = {1, 1, 1, 6}, osz[4] = {1, 1, 2, 2};
    for (int v = 0; v < 3; ++v) {
        DML_BUFFER_TENSOR_DESC b[3] = {
            {U32, DML_TENSOR_FLAG_NONE, 4, ssz, NULL, 24, 0},
            {U32, DML_TENSOR_FLAG_NONE, 4, osz, NULL, 16, 0},
            {U32, DML_TENSOR_FLAG_NONE, 4, ssz, NULL, 24, 0},
        };
        DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                                {DML_TENSOR_TYPE_BUFFER, &b[1]},
                                {DML_TENSOR_TYPE_BUFFER, &b[2]}};
        DML_RANDOM_GENERATOR_OPERATOR_DESC d = {&t[0], &t[1], &t[2],
                                                DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_RANDOM_GENERATOR, &d};
        uint32_t got[4], next[6];
        dmlcl_host_tensor ins[1] = {{(void *)kat[v], 24}};
        dmlcl_host_tensor outs[2] = {{got, sizeof got}, {next, sizeof next}};
        dmlcl_operator *o = NULL;
        dmlcl_compiled_operator *c = NULL;
        cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &o), S_OK, "%s",
                     dmlcl_last_error());
        cr_assert_eq(dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                     dmlcl_last_error());
        cr_assert_eq(dmlcl_compiled_operator_execute(c, 1, ins, 2, outs), S_OK, "%s",
                     dmlcl_last_error());
        dmlcl_compiled_operator_release(c);
        dmlcl_operator_release(o);
        for (int i = 0; i < 4; ++i)
            cr_expect_eq(got[i], kat[v][6 + i], "vector %d word %d: %08x, Random123 %08x", v, i,
                         got[i], kat[v][6 + i]);
        /* One block: the counter plus 1 (vector 1 wraps to 0 at 2^128), the key kept. */
        uint32_t carry = 1;
        for (int i = 0; i < 4; ++i) {
            uint32_t want = kat[v][i] + carry;
            carry = carry && want == 0;
            cr_expect_eq(next[i], want, "vector %d state word %d", v, i);
        }
        cr_expect(next[4] == kat[v][4] && next[5] == kat[v][5], "vector %d: the key kept", v);
    }
}

/* The REVERSE_SUBSEQUENCES page's two examples. */
Test(misc, reverse_page_examples)
{
    static const UINT isz[4] = {1, 1, 3, 4}, l1[4] = {1, 1, 3, 1}, l2[4] = {1, 1, 1, 4};
    static const float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const uint32_t len1[3] = {2, 4, 3}, len2[4] = {2, 3, 1, 0};
    static const float e1[12] = {2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12};
    static const float e2[12] = {5, 10, 3, 4, 1, 6, 7, 8, 9, 2, 11, 12};
    const UINT *lsz[2] = {l1, l2};
    const uint32_t *lens[2] = {len1, len2};
    const float *want[2] = {e1, e2};
    for (int ex = 0; ex < 2; ++ex) {
        DML_BUFFER_TENSOR_DESC b[3] = {
            {F32, DML_TENSOR_FLAG_NONE, 4, isz, NULL, 48, 0},
            {U32, DML_TENSOR_FLAG_NONE, 4, lsz[ex], NULL, ex ? 16 : 12, 0},
            {F32, DML_TENSOR_FLAG_NONE, 4, isz, NULL, 48, 0},
        };
        DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                                {DML_TENSOR_TYPE_BUFFER, &b[1]},
                                {DML_TENSOR_TYPE_BUFFER, &b[2]}};
        DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC d = {&t[0], &t[1], &t[2], ex ? 2u : 3u};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_REVERSE_SUBSEQUENCES, &d};
        float got[12];
        dmlcl_host_tensor ins[2] = {{(void *)x, 48}, {(void *)lens[ex], ex ? 16 : 12}};
        ops_execute_on_host("REVERSE_SUBSEQUENCES example", &desc, 2, ins,
                            (dmlcl_host_tensor){got, sizeof got});
        cr_expect(memcmp(got, want[ex], sizeof got) == 0, "example %d", ex + 1);
    }
}
