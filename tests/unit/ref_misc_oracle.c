/* SPDX-License-Identifier: MIT */
/*
 * The selection family's oracle (tests/ref/ref_misc.c) on published answers: Philox-4x32-10
 * against Random123's known-answer vectors (kat_vectors, "philox4x32 10"), NONZERO_COORDINATES
 * and REVERSE_SUBSEQUENCES on their pages' examples, MAX_UNPOOLING on ONNX's MaxUnpool example:
 * the device tests trust it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "ref_misc.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U64 DML_TENSOR_DATA_TYPE_UINT64

Test(ref_misc_oracle, philox_random123_known_answers)
{
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
         0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
         0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int v = 0; v < 3; ++v) {
        uint32_t got[4];
        ref_philox4x32_10(kat[v], kat[v] + 4, got);
        for (int i = 0; i < 4; ++i)
            cr_expect_eq(got[i], kat[v][6 + i], "vector %d word %d: %08x", v, i, got[i]);
    }
}

/* Element e is word e % 4 of the block of counter + e / 4; the next state's counter carries
 * across words and the key is kept. */
Test(ref_misc_oracle, random_generator_layout)
{
    const uint32_t state[6] = {0xffffffff, 0xffffffff, 7, 0, 0x11, 0x22}, sz[4] = {1, 1, 1, 6};
    uint32_t out[6], next[6], block[4], ctr[4] = {0xffffffff, 0xffffffff, 7, 0};
    ref_tensor o = ref_tensor_view(U32, 4, sz, NULL, out);
    cr_assert(ref_random_generator(state, &o, next));
    ref_philox4x32_10(ctr, state + 4, block);
    cr_expect_arr_eq(out, block, sizeof block);
    uint32_t ctr1[4] = {0, 0, 8, 0};
    ref_philox4x32_10(ctr1, state + 4, block);
    cr_expect(out[4] == block[0] && out[5] == block[1]);
    const uint32_t want[6] = {1, 0, 8, 0, 0x11, 0x22};
    cr_expect_arr_eq(next, want, sizeof want);
}

/* The page's example: {1,1,2,4} with 4 nonzeros (-0.0 a zero), N 3. */
Test(ref_misc_oracle, nonzero_page_example)
{
    const uint32_t isz[4] = {1, 1, 2, 4}, csz[4] = {1, 1, 8, 3};
    float in[8] = {1.0f, 0.0f, 0.0f, 2.0f, -0.0f, 3.5f, 0.0f, -5.2f};
    uint32_t coords[24], count = 0;
    memset(coords, 0xEE, sizeof coords);
    ref_tensor i = ref_tensor_view(F32, 4, isz, NULL, in),
               c = ref_tensor_view(U32, 4, csz, NULL, coords);
    cr_assert(ref_nonzero_coordinates(&i, &count, &c));
    cr_expect_eq(count, 4);
    const uint32_t want[12] = {0, 0, 0, 0, 0, 3, 0, 1, 1, 0, 1, 3};
    cr_expect_arr_eq(coords, want, sizeof want);
    cr_expect_eq(coords[12], 0xEEEEEEEEu, "rows past the count untouched");
}

/* The page's two examples. */
Test(ref_misc_oracle, reverse_page_examples)
{
    const uint32_t isz[4] = {1, 1, 3, 4}, l1[4] = {1, 1, 3, 1}, l2[4] = {1, 1, 1, 4};
    float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, out[12];
    uint32_t len1[3] = {2, 4, 3}, len2[4] = {2, 3, 1, 0};
    ref_tensor i = ref_tensor_view(F32, 4, isz, NULL, x),
               o = ref_tensor_view(F32, 4, isz, NULL, out);
    ref_tensor a = ref_tensor_view(U32, 4, l1, NULL, len1),
               b = ref_tensor_view(U32, 4, l2, NULL, len2);
    cr_assert(ref_reverse_subsequences(&i, &a, 3, &o));
    const float e1[12] = {2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12};
    cr_expect_arr_eq(out, e1, sizeof e1);
    cr_assert(ref_reverse_subsequences(&i, &b, 2, &o));
    const float e2[12] = {5, 10, 3, 4, 1, 6, 7, 8, 9, 2, 11, 12};
    cr_expect_arr_eq(out, e2, sizeof e2);
}

/* ONNX's MaxUnpool example (export_without_output_shape), and an index past the output. */
Test(ref_misc_oracle, unpool_onnx_example)
{
    const uint32_t isz[4] = {1, 1, 2, 2}, osz[4] = {1, 1, 4, 4};
    float x[4] = {1, 2, 3, 4}, out[16];
    uint64_t idx[4] = {5, 7, 13, 15};
    ref_tensor i = ref_tensor_view(F32, 4, isz, NULL, x),
               k = ref_tensor_view(U64, 4, isz, NULL, idx),
               o = ref_tensor_view(F32, 4, osz, NULL, out);
    cr_assert(ref_max_unpooling(&i, &k, &o));
    const float want[16] = {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4};
    cr_expect_arr_eq(out, want, sizeof want);
    idx[1] = 16;
    idx[2] = 5; /* repeats index 0's: the later element wins */
    cr_assert(ref_max_unpooling(&i, &k, &o));
    const float want2[16] = {0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4};
    cr_expect_arr_eq(out, want2, sizeof want2);
}
