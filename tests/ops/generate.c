/* SPDX-License-Identifier: MIT */
/*
 * generate.c: DirectML's generators that read an element's position (ONE_HOT,
 * DIAGONAL_MATRIX, DIAGONAL_MATRIX1) on the device against the C reference
 * (tests/ref/ref_generate.c), every type each operator takes, bit-exact.
 *
 * Random cases: ranks 1..8 (the diagonals 2..4), every index and value type, inputs packed,
 * padded, transposed, broadcast or aliasing, outputs packed, padded or transposed; ONE_HOT's
 * indices valid, negative (signed types) and invalid (past either end, the type's extremes,
 * 64-bit values that look valid truncated to 32 bits), its values tensor of any shape of two
 * or more elements read through its strides; size-1 axes. Fixed cases: the pages' examples,
 * INT64 and UINT64 indices past 2^32 and 2^63. Failures print the seed; DMLCL_TEST_SEED
 * replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_generate.h"
#include "ref_logic.h"

#define GEN_DEFAULT_SEED 0x646D6C636C47454Eull
#define GEN_MAX_ELEMENTS 3000
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

static ops_seed run_seed = OPS_SEED(GEN_DEFAULT_SEED);

OPS_DEVICE_SUITE(generate);

static const DML_TENSOR_DATA_TYPE value_types[] = {F64, F32, F16, I64, I32, I16,
                                                   I8,  U64, U32, U16, U8};
static const DML_TENSOR_DATA_TYPE index_types[] = {I64, I32, U64, U32};

/* Elements that fit in a binding's TotalTensorSizeInBytes. */
static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

/* ---- ONE_HOT ------------------------------------------------------------------------ */

static void one_hot_case(const char *test, unsigned n)
{
    static char what[4096], diff[4096];
    static ops_tensor idx, val, out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE vt = value_types[n % COUNT_OF(value_types)];
    DML_TENSOR_DATA_TYPE it = index_types[(n / COUNT_OF(value_types)) % COUNT_OF(index_types)];
    uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), sizes[REF_MAX_DIMS];
    uint32_t axis = (uint32_t)ref_rng_below(&rng, rank);
    ops_random_sizes(&rng, rank, sizes, GEN_MAX_ELEMENTS);
    if (ref_rng_chance(&rng, 10))
        sizes[axis] = 1; /* a depth of 1: only index 0 (or -1) is on */
    uint32_t isizes[REF_MAX_DIMS], vsizes[REF_MAX_DIMS];
    memcpy(isizes, sizes, sizeof isizes);
    isizes[axis] = 1;
    /* The values: any shape of two or more elements (the page's {1,1,1,2} and {1,1,3,1}, and
     * sizes above 1 before the fastest such dimension). */
    for (uint32_t k = 0; k < rank; ++k)
        vsizes[k] = ref_rng_chance(&rng, 30) ? 1 + (uint32_t)ref_rng_below(&rng, 3) : 1;
    vsizes[ref_rng_below(&rng, rank)] = 2 + (uint32_t)ref_rng_below(&rng, 2);
    ops_layout layout[3];
    ops_random_tensor(&idx, &rng, "IndicesTensor", false, it, rank, isizes, &layout[0]);
    ops_random_tensor(&val, &rng, "ValuesTensor", false, vt, rank, vsizes, &layout[1]);
    ops_random_tensor(&out, &rng, "OutputTensor", true, vt, rank, sizes, &layout[2]);
    bool shared = ref_rng_chance(&rng, 25);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &idx, false);
    ops_memory_place(&mem, &rng, &val, shared);
    ops_memory_place(&mem, &rng, &out, shared);
    ops_memory_alloc(&mem, &rng);
    ops_fill_distinct(&rng, vt, ops_ptr(&mem, OPS_INIT, &val), slots(&val));
    unsigned negative = ref_type_is_signed_int(it) ? 30 : 0;
    unsigned invalid = ref_rng_chance(&rng, 30) ? 0 : (unsigned)ref_rng_range(&rng, 1, 40);
    ops_fill_indices(&rng, it, ops_ptr(&mem, OPS_INIT, &idx), slots(&idx), sizes[axis], negative,
                     invalid);
    ops_memory_snapshot(&mem);
    ref_tensor ri = ops_view(&mem, OPS_EXPECT, &idx), rv = ops_view(&mem, OPS_EXPECT, &val),
               ro = ops_view(&mem, OPS_EXPECT, &out);
    cr_assert(ref_one_hot(&ri, &rv, axis, &ro), "test bug: the reference rejected a case");
    ops_poison_output(&mem, &out);
    DML_ONE_HOT_OPERATOR_DESC d = {ops_tensor_desc(&idx), ops_tensor_desc(&val),
                                   ops_tensor_desc(&out), axis};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ONE_HOT, &d};
    ops_tensor *inputs[2] = {&idx, &val}, *all[3] = {&idx, &val, &out}, *outputs[1] = {&out};
    char head[512], a[512], b[512], c[512];
    snprintf(
        what, sizeof what,
        "%s\n  Axis %u, negative %u%%, invalid %u%%, layouts %s/%s/%s\n  %s\n  %s\n  %s",
        ops_replay(head, sizeof head, "ONE_HOT", "generate", test, n, ops_base_seed(&run_seed)),
        axis, negative, invalid, ops_layout_name(layout[0]), ops_layout_name(layout[1]),
        ops_layout_name(layout[2]), ops_tensor_describe(&idx, a, sizeof a),
        ops_tensor_describe(&val, b, sizeof b), ops_tensor_describe(&out, c, sizeof c));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &mem, inputs, 2, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    uint64_t bad = ops_compare(&mem, all, 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&mem);
}

Test(generate, random_one_hot)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(value_types) * COUNT_OF(index_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            one_hot_case("random_one_hot", n);
}

/* One ONE_HOT of packed tensors on host memory. */
static void one_hot_host(const char *what, DML_TENSOR_DATA_TYPE it, const void *indices,
                         const UINT *isizes, DML_TENSOR_DATA_TYPE vt, const void *values,
                         const UINT *vsizes, const UINT *osizes, UINT rank, UINT axis, void *out)
{
    DML_BUFFER_TENSOR_DESC b[3] = {
        {it, DML_TENSOR_FLAG_NONE, rank, isizes, NULL, ref_buffer_bytes(it, rank, isizes, NULL), 0},
        {vt, DML_TENSOR_FLAG_NONE, rank, vsizes, NULL, ref_buffer_bytes(vt, rank, vsizes, NULL), 0},
        {vt, DML_TENSOR_FLAG_NONE, rank, osizes, NULL, ref_buffer_bytes(vt, rank, osizes, NULL), 0},
    };
    DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                            {DML_TENSOR_TYPE_BUFFER, &b[1]},
                            {DML_TENSOR_TYPE_BUFFER, &b[2]}};
    DML_ONE_HOT_OPERATOR_DESC d = {&t[0], &t[1], &t[2], axis};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ONE_HOT, &d};
    dmlcl_host_tensor ins[2] = {{(void *)indices, b[0].TotalTensorSizeInBytes},
                                {(void *)values, b[1].TotalTensorSizeInBytes}};
    ops_execute_on_host(what, &desc, 2, ins, (dmlcl_host_tensor){out, b[2].TotalTensorSizeInBytes});
}

/* The page's four examples. */
Test(generate, one_hot_page_examples)
{
    static const UINT col[4] = {1, 1, 3, 1}, row[4] = {1, 1, 1, 4}, pair[4] = {1, 1, 1, 2},
                      osz[4] = {1, 1, 3, 4};
    static const uint32_t idx1[3] = {0, 3, 2}, idx2[4] = {0, 2, 1, 0};
    static const int32_t idx4[3] = {-3, 100, 3};
    static const float v01[2] = {0, 1}, v3[3] = {4, 2, 9};
    static const float e1[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0};
    static const float e2[12] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    static const float e3[12] = {2, 4, 4, 4, 4, 4, 4, 2, 4, 4, 2, 4};
    static const float e4[12] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    float got[12];
    one_hot_host("example 1", U32, idx1, col, F32, v01, pair, osz, 4, 3, got);
    cr_expect(memcmp(got, e1, sizeof got) == 0, "example 1");
    one_hot_host("example 2", U32, idx2, row, F32, v01, pair, osz, 4, 2, got);
    cr_expect(memcmp(got, e2, sizeof got) == 0, "example 2");
    one_hot_host("example 3", U32, idx1, col, F32, v3, col, osz, 4, 3, got);
    cr_expect(memcmp(got, e3, sizeof got) == 0, "example 3");
    one_hot_host("example 4", I32, idx4, col, F32, v01, pair, osz, 4, 3, got);
    cr_expect(memcmp(got, e4, sizeof got) == 0, "example 4");
}

/* 64-bit indices compared as 64-bit integers: 2^32 + 1 is not 1, -2^32 + 1 is not 1 - depth,
 * 2^63 (UINT64) is not negative; the values' FLOAT64 and INT64 encodings copied exactly. */
Test(generate, one_hot_64_bit_indices)
{
    static const UINT isz[2] = {6, 1}, vsz[2] = {1, 2}, osz[2] = {6, 3};
    static const int64_t si[6] = {((int64_t)1 << 32) + 1, -((int64_t)1 << 32) + 2, -1, 2, -4, 1};
    static const uint64_t ui[6] = {
        ((uint64_t)1 << 32) + 1, (uint64_t)1 << 63, UINT64_MAX, 2, ((uint64_t)1 << 32), 0};
    static const int64_t iv[2] = {INT64_MIN + 5, INT64_MAX - 3};
    int64_t got[18];
    one_hot_host("INT64 indices", I64, si, isz, I64, iv, vsz, osz, 2, 1, got);
    static const int s_on[6] = {-1, -1, 2, 2, -1, 1};
    for (int r = 0; r < 6; ++r)
        for (int k = 0; k < 3; ++k)
            cr_expect_eq(got[r * 3 + k], k == s_on[r] ? iv[1] : iv[0], "INT64 row %d col %d", r, k);
    one_hot_host("UINT64 indices", U64, ui, isz, I64, iv, vsz, osz, 2, 1, got);
    static const int u_on[6] = {-1, -1, -1, 2, -1, 0};
    for (int r = 0; r < 6; ++r)
        for (int k = 0; k < 3; ++k)
            cr_expect_eq(got[r * 3 + k], k == u_on[r] ? iv[1] : iv[0], "UINT64 row %d col %d", r,
                         k);
    static const double dv[2] = {-0.0, 1.0000000000000002};
    double dg[18];
    one_hot_host("FLOAT64 values", I64, si, isz, F64, dv, vsz, osz, 2, 1, dg);
    cr_expect(memcmp(&dg[8], &dv[1], 8) == 0 && memcmp(&dg[0], &dv[0], 8) == 0,
              "FLOAT64 values copied bit-exactly");
}

/* ---- DIAGONAL_MATRIX, DIAGONAL_MATRIX1 ---------------------------------------------------- */

/* A band edge: near the matrix (either side), past it, or INT_MIN / INT_MAX. */
static int32_t band_edge(ref_rng *rng, uint32_t h, uint32_t w)
{
    if (ref_rng_chance(rng, 10))
        return ref_rng_chance(rng, 50) ? INT32_MIN : INT32_MAX;
    return (int32_t)ref_rng_range(rng, -(int64_t)h - 1, (int64_t)w + 1);
}

static void diagonal_case(const char *test, unsigned n, bool first)
{
    static char what[4096], diff[4096];
    static ops_tensor in, out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE t = value_types[n % COUNT_OF(value_types)];
    uint32_t rank = 2 + (uint32_t)ref_rng_below(&rng, 3), sizes[REF_MAX_DIMS];
    ops_random_sizes(&rng, rank, sizes, GEN_MAX_ELEMENTS);
    uint32_t h = sizes[rank - 2], w = sizes[rank - 1];
    bool has_input = !first && ref_rng_chance(&rng, 60);
    ops_layout layout[2] = {OPS_LAYOUT_NULL, OPS_LAYOUT_NULL};
    if (has_input)
        ops_random_tensor(&in, &rng, "InputTensor", false, t, rank, sizes, &layout[0]);
    ops_random_tensor(&out, &rng, "OutputTensor", true, t, rank, sizes, &layout[1]);
    memset(&mem, 0, sizeof mem);
    if (has_input)
        ops_memory_place(&mem, &rng, &in, false);
    ops_memory_place(&mem, &rng, &out, has_input && ref_rng_chance(&rng, 25));
    ops_memory_alloc(&mem, &rng);
    if (has_input)
        ops_fill_distinct(&rng, t, ops_ptr(&mem, OPS_INIT, &in), slots(&in));
    DML_DIAGONAL_MATRIX_OPERATOR_DESC d0 = {0};
    DML_DIAGONAL_MATRIX1_OPERATOR_DESC d1 = {0};
    unsigned char value[16] = {0};
    int64_t begin, end;
    if (first) {
        d0.Offset = ref_rng_chance(&rng, 5) ? INT32_MAX : band_edge(&rng, h, w);
        float v;
        ops_fill_distinct(&rng, DML_TENSOR_DATA_TYPE_FLOAT32, &v, 1);
        if (ref_rng_chance(&rng, 50)) /* finite and in range of small types too */
            v = (float)ref_rng_range(&rng, -3000, 3000) / 8;
        d0.Value = v;
        ref_cast_element(DML_TENSOR_DATA_TYPE_FLOAT32, &v, t, value);
        begin = d0.Offset, end = (int64_t)d0.Offset + 1;
    } else {
        d1.DiagonalFillBegin = band_edge(&rng, h, w);
        d1.DiagonalFillEnd = band_edge(&rng, h, w);
        d1.ValueDataType = t;
        ops_fill_distinct(&rng, t, d1.Value.Bytes, 1);
        memcpy(value, d1.Value.Bytes, ref_type_size(t));
        begin = d1.DiagonalFillBegin, end = d1.DiagonalFillEnd;
    }
    ops_memory_snapshot(&mem);
    ref_tensor ri = has_input ? ops_view(&mem, OPS_EXPECT, &in) : (ref_tensor){0};
    ref_tensor ro = ops_view(&mem, OPS_EXPECT, &out);
    cr_assert(ref_diagonal_matrix(has_input ? &ri : NULL, value, begin, end, &ro),
              "test bug: the reference rejected a case");
    ops_poison_output(&mem, &out);
    d0.OutputTensor = ops_tensor_desc(&out);
    d1.OutputTensor = ops_tensor_desc(&out);
    d1.InputTensor = has_input ? ops_tensor_desc(&in) : NULL;
    DML_OPERATOR_DESC desc = {first ? DML_OPERATOR_DIAGONAL_MATRIX : DML_OPERATOR_DIAGONAL_MATRIX1,
                              first ? (const void *)&d0 : (const void *)&d1};
    ops_tensor *inputs[1] = {has_input ? &in : NULL}, *outputs[1] = {&out};
    ops_tensor *all[2] = {&out, &in};
    char head[512], a[512], b[512];
    snprintf(what, sizeof what, "%s\n  band [%" PRId64 ", %" PRId64 "), %s\n  %s\n  %s",
             ops_replay(head, sizeof head, first ? "DIAGONAL_MATRIX" : "DIAGONAL_MATRIX1",
                        "generate", test, n, ops_base_seed(&run_seed)),
             begin, end, has_input ? ops_layout_name(layout[0]) : "no input",
             has_input ? ops_tensor_describe(&in, a, sizeof a) : "",
             ops_tensor_describe(&out, b, sizeof b));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &mem, inputs, first ? 0 : 1, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    uint64_t bad = ops_compare(&mem, all, has_input ? 2 : 1, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&mem);
}

Test(generate, random_diagonal_matrix)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(2 * COUNT_OF(value_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            diagonal_case("random_diagonal_matrix", n, true);
}

Test(generate, random_diagonal_matrix1)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(4 * COUNT_OF(value_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            diagonal_case("random_diagonal_matrix1", n, false);
}
