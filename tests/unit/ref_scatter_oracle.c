/* SPDX-License-Identifier: MIT */
/*
 * The scatter oracle (tests/ref/ref_scatter.c) on DirectML's examples and the rules dmlcl chose
 * (negative indices from the end, the rest clamped, the last update in row-major order wins,
 * strided views): the device tests trust it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "ref_scatter.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I64 DML_TENSOR_DATA_TYPE_INT64

/* DML_SCATTER_OPERATOR_DESC's example 1: indices {3, 1, 3, 0}; 3 twice, the page's output
 * keeps the later update (7). */
Test(ref_scatter_oracle, elements_example_1)
{
    const uint32_t s5[1] = {5}, s4[1] = {4};
    float in[5] = {0, 1, 2, 3, 4}, upd[4] = {5, 6, 7, 8}, out[5];
    uint32_t idx[4] = {3, 1, 3, 0};
    ref_tensor i = ref_tensor_view(F32, 1, s5, NULL, in),
               x = ref_tensor_view(U32, 1, s4, NULL, idx),
               u = ref_tensor_view(F32, 1, s4, NULL, upd),
               o = ref_tensor_view(F32, 1, s5, NULL, out);
    cr_assert(ref_scatter_elements(&i, &x, &u, &o, 0));
    const float want[5] = {8, 6, 2, 7, 4};
    cr_expect_arr_eq(out, want, sizeof out);
}

/* Example 2 (the page prints InputTensor.Sizes {2,3} for its 3 x 3 data: {3,3}). */
Test(ref_scatter_oracle, elements_example_2)
{
    const uint32_t s33[2] = {3, 3}, s23[2] = {2, 3};
    float in[9] = {0}, upd[6] = {10, 11, 12, 20, 21, 22}, out[9];
    uint32_t idx[6] = {1, 0, 2, 0, 2, 1};
    ref_tensor i = ref_tensor_view(F32, 2, s33, NULL, in),
               x = ref_tensor_view(U32, 2, s23, NULL, idx),
               u = ref_tensor_view(F32, 2, s23, NULL, upd),
               o = ref_tensor_view(F32, 2, s33, NULL, out);
    cr_assert(ref_scatter_elements(&i, &x, &u, &o, 0));
    const float want[9] = {20, 11, 0, 10, 0, 22, 0, 21, 12};
    cr_expect_arr_eq(out, want, sizeof out);
}

/* Along axis 1 with INT64 indices: -1 the last column, -4 past the front clamped to 0, 9 past
 * the end clamped to 2; row 1's two updates of column 0 keep the later. */
Test(ref_scatter_oracle, elements_negative_and_clamped)
{
    const uint32_t s23[2] = {2, 3}, s22[2] = {2, 2};
    int32_t in[6] = {1, 2, 3, 4, 5, 6}, upd[4] = {10, 20, 30, 40}, out[6];
    int64_t idx[4] = {-1, 9, -4, 0};
    ref_tensor i = ref_tensor_view(I32, 2, s23, NULL, in),
               x = ref_tensor_view(I64, 2, s22, NULL, idx),
               u = ref_tensor_view(I32, 2, s22, NULL, upd),
               o = ref_tensor_view(I32, 2, s23, NULL, out);
    cr_assert(ref_scatter_elements(&i, &x, &u, &o, 1));
    const int32_t want[6] = {1, 2, 20, 40, 5, 6};
    cr_expect_arr_eq(out, want, sizeof out);
}

/* Strided views: the input read transposed, the output written with padding. */
Test(ref_scatter_oracle, elements_strided_views)
{
    const uint32_t s22[2] = {2, 2}, s12[2] = {1, 2}, tr[2] = {1, 2}, pad[2] = {3, 1};
    float in[4] = {1, 2, 3, 4}, upd[2] = {9, 8}, out[6];
    uint32_t idx[2] = {1, 0};
    memset(out, 0xff, sizeof out);
    ref_tensor i = ref_tensor_view(F32, 2, s22, tr, in),
               x = ref_tensor_view(U32, 2, s12, NULL, idx),
               u = ref_tensor_view(F32, 2, s12, NULL, upd),
               o = ref_tensor_view(F32, 2, s22, pad, out);
    cr_assert(ref_scatter_elements(&i, &x, &u, &o, 0));
    /* input logical {{1,3},{2,4}}; output[1][0] = 9, output[0][1] = 8. */
    cr_expect(out[0] == 1 && out[1] == 8 && out[3] == 9 && out[4] == 4, "%g %g %g %g", out[0],
              out[1], out[3], out[4]);
    uint32_t gap[2];
    memcpy(gap, &out[2], 4);
    memcpy(gap + 1, &out[5], 4);
    cr_expect(gap[0] == 0xffffffffu && gap[1] == 0xffffffffu, "padding untouched");
}

Test(ref_scatter_oracle, elements_shapes_must_fit)
{
    const uint32_t s23[2] = {2, 3}, s22[2] = {2, 2}, s32[2] = {3, 2};
    float buf[6] = {0};
    uint32_t idx[6] = {0};
    ref_tensor i = ref_tensor_view(F32, 2, s23, NULL, buf),
               x = ref_tensor_view(U32, 2, s32, NULL, idx),
               u = ref_tensor_view(F32, 2, s32, NULL, buf),
               o = ref_tensor_view(F32, 2, s23, NULL, buf);
    cr_expect(!ref_scatter_elements(&i, &x, &u, &o, 0), "indices {3,2} differ off axis 0");
    x = ref_tensor_view(U32, 2, s22, NULL, idx);
    cr_expect(!ref_scatter_elements(&i, &x, &u, &o, 1), "updates differ from indices");
    cr_expect(!ref_scatter_elements(&i, &x, &x, &o, 2), "axis past the rank");
}

/* DML_SCATTER_ND_OPERATOR_DESC's example: input {8}, indices {4,1} (the page prints FLOAT32
 * for them: UINT32), all at DimensionCount 2. */
Test(ref_scatter_oracle, nd_example)
{
    const uint32_t s18[2] = {1, 8}, s41[2] = {4, 1}, s14[2] = {1, 4};
    float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, upd[4] = {9, 10, 11, 12}, out[8];
    uint32_t idx[4] = {4, 3, 1, 7};
    ref_tensor i = ref_tensor_view(F32, 2, s18, NULL, in),
               x = ref_tensor_view(U32, 2, s41, NULL, idx),
               u = ref_tensor_view(F32, 2, s14, NULL, upd),
               o = ref_tensor_view(F32, 2, s18, NULL, out);
    cr_assert(ref_scatter_nd(&i, &x, &u, &o, 1, 2));
    const float want[8] = {1, 11, 3, 10, 9, 6, 7, 12};
    cr_expect_arr_eq(out, want, sizeof out);
}

/* Slices: input {3, 2}, tuples of one coordinate select rows; row -1 is row 2, and row 0 named
 * twice keeps the later slice. */
Test(ref_scatter_oracle, nd_slices_negative_duplicates)
{
    const uint32_t s32[2] = {3, 2}, s31[2] = {3, 1};
    int32_t in[6] = {1, 2, 3, 4, 5, 6}, upd[6] = {10, 11, 20, 21, 30, 31}, out[6];
    int32_t idx[3] = {0, -1, 0};
    ref_tensor i = ref_tensor_view(I32, 2, s32, NULL, in),
               x = ref_tensor_view(I32, 2, s31, NULL, idx),
               u = ref_tensor_view(I32, 2, s32, NULL, upd),
               o = ref_tensor_view(I32, 2, s32, NULL, out);
    cr_assert(ref_scatter_nd(&i, &x, &u, &o, 2, 2));
    const int32_t want[6] = {30, 31, 3, 4, 20, 21};
    cr_expect_arr_eq(out, want, sizeof out);
}

/* The page's shape example: input {3,4,5,6,7} (5 meaningful), indices {1,1,1,2,3} (3
 * meaningful: a 1 x 2 array of 3-tuples), updates {1,1,2,6,7}. */
Test(ref_scatter_oracle, nd_shape_example)
{
    const uint32_t si[5] = {3, 4, 5, 6, 7}, sx[5] = {1, 1, 1, 2, 3}, su[5] = {1, 1, 2, 6, 7};
    static int32_t in[3 * 4 * 5 * 42], out[3 * 4 * 5 * 42], upd[2 * 42];
    for (int k = 0; k < 3 * 4 * 5 * 42; ++k)
        in[k] = k;
    for (int k = 0; k < 2 * 42; ++k)
        upd[k] = -1 - k;
    uint32_t idx[6] = {2, 3, 4, 0, 1, 2};
    ref_tensor i = ref_tensor_view(I32, 5, si, NULL, in),
               x = ref_tensor_view(U32, 5, sx, NULL, idx),
               u = ref_tensor_view(I32, 5, su, NULL, upd),
               o = ref_tensor_view(I32, 5, si, NULL, out);
    cr_assert(ref_scatter_nd(&i, &x, &u, &o, 5, 3));
    const int at0 = ((2 * 4 + 3) * 5 + 4) * 42, at1 = ((0 * 4 + 1) * 5 + 2) * 42;
    for (int k = 0; k < 42; ++k) {
        cr_expect_eq(out[at0 + k], -1 - k);
        cr_expect_eq(out[at1 + k], -43 - k);
    }
    cr_expect_eq(out[at0 - 1], at0 - 1);
    cr_expect_eq(out[at1 + 42], at1 + 42);
}

Test(ref_scatter_oracle, nd_shapes_must_fit)
{
    const uint32_t s18[2] = {1, 8}, s41[2] = {4, 1}, s15[2] = {1, 5}, s43[2] = {4, 3};
    float buf[16] = {0};
    uint32_t idx[12] = {0};
    ref_tensor i = ref_tensor_view(F32, 2, s18, NULL, buf),
               x = ref_tensor_view(U32, 2, s41, NULL, idx),
               u = ref_tensor_view(F32, 2, s15, NULL, buf),
               o = ref_tensor_view(F32, 2, s18, NULL, buf);
    cr_expect(!ref_scatter_nd(&i, &x, &u, &o, 1, 2), "updates {1,5} for 4 tuples");
    x = ref_tensor_view(U32, 2, s43, NULL, idx);
    cr_expect(!ref_scatter_nd(&i, &x, &u, &o, 1, 2), "3-tuples into one dimension");
}
