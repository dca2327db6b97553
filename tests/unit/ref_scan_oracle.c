/* SPDX-License-Identifier: MIT */
/*
 * The scan and top-k oracle (tests/ref/ref_scan.c) on DirectML's examples and the rules dmlcl
 * chose (integer wrap, NaN ranking, ties by index): the device tests trust it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ref_scan.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32

static const uint32_t doc[4] = {1, 1, 3, 4};

Test(ref_scan_oracle, cumulative_examples)
{
    float x[12] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4}, y[12];
    ref_tensor in = ref_tensor_view(F32, 4, doc, NULL, x),
               out = ref_tensor_view(F32, 4, doc, NULL, y);
    const float sum_excl[12] = {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17};
    cr_assert(ref_cumulative(false, &in, &out, 3, false, true, NULL));
    cr_expect_arr_eq(y, sum_excl, sizeof y);
    const float prod_rev[12] = {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4};
    cr_assert(ref_cumulative(true, &in, &out, 3, true, false, NULL));
    cr_expect_arr_eq(y, prod_rev, sizeof y);
    const float sum_axis2[12] = {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12};
    double bound[12];
    cr_assert(ref_cumulative(false, &in, &out, 2, false, false, bound));
    cr_expect_arr_eq(y, sum_axis2, sizeof y);
    cr_expect_eq(bound[8], 3 * 0x1p-24 * 14, "3 elements, sum of magnitudes 14: %g", bound[8]);
    /* Reverse exclusive product: 1 at the end. */
    const float prod_rev_excl[12] = {15, 15, 5, 1, 168, 21, 3, 1, 48, 8, 4, 1};
    cr_assert(ref_cumulative(true, &in, &out, 3, true, true, NULL));
    cr_expect_arr_eq(y, prod_rev_excl, sizeof y);
}

Test(ref_scan_oracle, cumulative_integers_wrap)
{
    const uint32_t s[1] = {3};
    int8_t x8[3] = {100, 100, -128}, y8[3];
    /* INT8 is not a scan type, but the oracle wraps any width: 100 + 100 = -56, -56 - 128 = 72. */
    ref_tensor in = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT8, 1, s, NULL, x8),
               out = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT8, 1, s, NULL, y8);
    cr_assert(ref_cumulative(false, &in, &out, 0, false, false, NULL));
    cr_expect(y8[0] == 100 && y8[1] == -56 && y8[2] == 72);
    uint32_t u[3] = {0x10000, 0x10000, 3}, v[3];
    in = ref_tensor_view(U32, 1, s, NULL, u);
    out = ref_tensor_view(U32, 1, s, NULL, v);
    cr_assert(ref_cumulative(true, &in, &out, 0, false, false, NULL));
    cr_expect(v[0] == 0x10000 && v[1] == 0 && v[2] == 0, "2^32 wraps to 0");
    int64_t l[3] = {INT64_MAX, 1, -5}, m[3];
    in = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT64, 1, s, NULL, l);
    out = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT64, 1, s, NULL, m);
    cr_assert(ref_cumulative(false, &in, &out, 0, false, false, NULL));
    /* INT64_MAX + 1 wraps to INT64_MIN; then - 5 wraps to INT64_MAX - 4. */
    cr_expect(m[1] == INT64_MIN && m[2] == INT64_MAX - 4, "%lld", (long long)m[2]);
}

static void top_k(const float *x, uint32_t axis, uint32_t k, bool smallest, const uint32_t *os,
                  float *val, uint32_t *idx)
{
    ref_tensor in = ref_tensor_view(F32, 4, doc, NULL, (void *)x);
    ref_tensor v = ref_tensor_view(F32, 4, os, NULL, val),
               i = ref_tensor_view(U32, 4, os, NULL, idx);
    cr_assert(ref_top_k(&in, &v, &i, axis, k, smallest));
}

Test(ref_scan_oracle, top_k_examples)
{
    const float a[12] = {0, 1, 10, 11, 3, 2, 9, 8, 4, 5, 6, 7};
    const float t[12] = {1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 6, 6};
    float v[9];
    uint32_t i[9];
    top_k(a, 3, 2, false, (uint32_t[]){1, 1, 3, 2}, v, i);
    cr_expect_arr_eq(v, ((float[]){11, 10, 9, 8, 7, 6}), 6 * sizeof(float));
    cr_expect_arr_eq(i, ((uint32_t[]){3, 2, 2, 3, 3, 2}), 6 * sizeof(uint32_t));
    top_k(a, 2, 2, false, (uint32_t[]){1, 1, 2, 4}, v, i);
    cr_expect_arr_eq(v, ((float[]){4, 5, 10, 11, 3, 2, 9, 8}), 8 * sizeof(float));
    cr_expect_arr_eq(i, ((uint32_t[]){2, 2, 0, 0, 1, 1, 1, 1}), 8 * sizeof(uint32_t));
    top_k(t, 3, 3, false, (uint32_t[]){1, 1, 3, 3}, v, i);
    cr_expect_arr_eq(v, ((float[]){3, 2, 2, 5, 5, 4, 6, 6, 6}), 9 * sizeof(float));
    cr_expect_arr_eq(i, ((uint32_t[]){3, 1, 2, 2, 3, 1, 0, 1, 2}), 9 * sizeof(uint32_t));
    top_k(t, 3, 3, true, (uint32_t[]){1, 1, 3, 3}, v, i);
    cr_expect_arr_eq(v, ((float[]){1, 2, 2, 3, 4, 5, 6, 6, 6}), 9 * sizeof(float));
    cr_expect_arr_eq(i, ((uint32_t[]){0, 1, 2, 0, 1, 2, 0, 1, 2}), 9 * sizeof(uint32_t));
}

Test(ref_scan_oracle, top_k_nan_and_zeros)
{
    const uint32_t s[1] = {6}, o[1] = {6};
    float x[6] = {1, NAN, -0.0f, 0.0f, NAN, -INFINITY}, v[6];
    uint32_t i[6];
    ref_tensor in = ref_tensor_view(F32, 1, s, NULL, x);
    ref_tensor tv = ref_tensor_view(F32, 1, o, NULL, v), ti = ref_tensor_view(U32, 1, o, NULL, i);
    cr_assert(ref_top_k(&in, &tv, &ti, 0, 6, false));
    cr_expect_arr_eq(i, ((uint32_t[]){1, 4, 0, 2, 3, 5}), sizeof i, "NaN first, -0 = +0 by index");
    cr_expect(isnan(v[0]) && isnan(v[1]) && signbit(v[3]) && !signbit(v[4]));
    cr_assert(ref_top_k(&in, &tv, &ti, 0, 6, true));
    cr_expect_arr_eq(i, ((uint32_t[]){5, 2, 3, 0, 1, 4}), sizeof i, "NaN last");
}
