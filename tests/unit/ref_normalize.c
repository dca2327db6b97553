/* SPDX-License-Identifier: MIT */
/*
 * The normalisation oracle (tests/ref/ref_normalize.c) against DirectML's page examples
 * (ACTIVATION_HARDMAX1's three) and values computed by hand: the oracle the device tests
 * trust must itself agree with the pages.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "ref_normalize.h"

static const float hardmax_in[8] = {12, 0, -101, 11, 3, 234, 0, -101};
static const uint32_t s222[3] = {2, 2, 2};

static void hardmax_case(bool r0, bool r1, bool r2, const float *want)
{
    float in[8], out[8];
    memcpy(in, hardmax_in, sizeof in);
    ref_tensor ti = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 3, s222, NULL, in);
    ref_tensor to = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 3, s222, NULL, out);
    ref_norm_args a = {.reduced = {r0, r1, r2}};
    cr_assert(ref_normalize(REF_NORM_HARDMAX, &a, &ti, NULL, NULL, &to));
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(out[i], want[i], "element %d: %g, want %g", i, out[i], want[i]);
}

Test(ref_normalize, hardmax1_page_examples)
{
    hardmax_case(false, true, false, (const float[]){1, 0, 0, 1, 1, 1, 0, 0});
    hardmax_case(true, false, false, (const float[]){1, 0, 0, 1, 0, 1, 1, 0});
    hardmax_case(true, false, true, (const float[]){0, 0, 0, 1, 0, 1, 0, 0});
}

Test(ref_normalize, softmax_mvn_lp_by_hand)
{
    float in[4] = {1, 2, 3, 4}, out[4], scale[1] = {2}, bias[1] = {0.5f};
    const uint32_t s[2] = {2, 2}, one[2] = {1, 1};
    ref_tensor ti = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL, in);
    ref_tensor to = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL, out);
    ref_tensor tsc = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, one, NULL, scale);
    ref_tensor tb = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, one, NULL, bias);
    ref_norm_args a = {.reduced = {false, true}};
    cr_assert(ref_normalize(REF_NORM_SOFTMAX, &a, &ti, NULL, NULL, &to));
    cr_expect_float_eq(out[0], 1 / (1 + exp(1.0)), 1e-7);
    cr_expect_float_eq(out[3], 1 / (1 + exp(-1.0)), 1e-7);
    cr_assert(ref_normalize(REF_NORM_LOG_SOFTMAX, &a, &ti, NULL, NULL, &to));
    cr_expect_float_eq(out[2], -log(1 + exp(1.0)), 1e-6);
    /* Rows {1, 2}, {3, 4}: mean 1.5, variance 0.25, eps 0: -+1, times 2 plus 0.5. */
    a.use_mean = a.use_variance = true;
    cr_assert(ref_normalize(REF_NORM_MVN, &a, &ti, &tsc, &tb, &to));
    cr_expect_float_eq(out[0], -1.5, 1e-6);
    cr_expect_float_eq(out[3], 2.5, 1e-6);
    /* Without the mean: x / sqrt(mean(x^2)) (RMS). */
    a.use_mean = false;
    cr_assert(ref_normalize(REF_NORM_MVN, &a, &ti, NULL, NULL, &to));
    cr_expect_float_eq(out[1], 2 / sqrt(2.5), 1e-6);
    /* Columns {1, 3}, {2, 4}: L2 norm sqrt(10), sqrt(20); L1 4, 6. */
    ref_norm_args lp = {.reduced = {true, false}, .p = 2, .epsilon = 1e-5};
    cr_assert(ref_normalize(REF_NORM_LP, &lp, &ti, NULL, NULL, &to));
    cr_expect_float_eq(out[2], 3 / sqrt(10.0), 1e-6);
    lp.p = 1;
    cr_assert(ref_normalize(REF_NORM_LP, &lp, &ti, NULL, NULL, &to));
    cr_expect_float_eq(out[3], 4 / 6.0, 1e-6);
    /* A zero row: max(norm, eps) keeps 0. */
    float zeros[4] = {0, 0, 0, 0};
    ref_tensor tz = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL, zeros);
    cr_assert(ref_normalize(REF_NORM_LP, &lp, &tz, NULL, NULL, &to));
    cr_expect_eq(out[0], 0.0f);
}
