/* SPDX-License-Identifier: MIT */
/*
 * DMLCalcBufferTensorSize against the worked values in directml-facts.md
 * section 4.1: (dot(Sizes-1, Strides)+1) * element size, or product(Sizes) *
 * element size without strides, rounded up to a multiple of 4 bytes.
 */
#include <criterion/criterion.h>

#include "dmlcl/dmlcl.h"

#define N(a) ((UINT)(sizeof(a) / sizeof((a)[0])))

static UINT64 calc(DML_TENSOR_DATA_TYPE type, UINT rank, const UINT *sizes, const UINT *strides)
{
    return DMLCalcBufferTensorSize(type, rank, sizes, strides);
}

Test(calc_size, nchw_packed_and_explicit)
{
    const UINT sizes[] = {1, 1, 3, 5};
    const UINT nchw[] = {15, 15, 5, 1};
    const UINT nhwc[] = {15, 1, 5, 1};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL), 60);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, nchw), 60);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, nhwc), 60);
}

Test(calc_size, padded_rows)
{
    const UINT sizes[] = {2, 3};
    const UINT strides[] = {5, 1};
    /* Last element at 1*5 + 2*1 = 7: 8 elements. */
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, strides), 32);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT8, 2, sizes, strides), 8);
}

Test(calc_size, broadcast_strides)
{
    const UINT sizes[] = {2, 3};
    const UINT row[] = {0, 1};
    const UINT all[] = {0, 0};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, row), 12);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, all), 4);

    const UINT expand_sizes[] = {2, 4, 3};
    const UINT expand_strides[] = {0, 1, 0};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 3, expand_sizes, expand_strides), 16);
}

Test(calc_size, rounds_up_to_four_bytes)
{
    const UINT three[] = {3};
    const UINT five[] = {5};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT16, 1, three, NULL), 8); /* 6 -> 8 */
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT8, 1, five, NULL), 8);    /* 5 -> 8 */
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_INT8, 1, three, NULL), 4);    /* 3 -> 4 */
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_INT16, 1, five, NULL), 12);   /* 10 -> 12 */
}

Test(calc_size, sixty_four_bit_types)
{
    const UINT sizes[] = {2, 3};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_INT64, 2, sizes, NULL), 48);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT64, 2, sizes, NULL), 48);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT64, 2, sizes, NULL), 48);
}

Test(calc_size, ort_int64_emulation)
{
    /* UINT32 view of INT64 with doubled strides: (1*6 + 2*2 + 1) * 4 = 44. */
    const UINT sizes[] = {2, 3};
    const UINT strides[] = {6, 2};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT32, 2, sizes, strides), 44);
}

Test(calc_size, hello_directml)
{
    const UINT sizes[] = {1, 2, 3, 4};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL), 96);
}

Test(calc_size, docs_layout_examples)
{
    /* DHW 2x2x3, strides {6,3,1}: last element at 6+3+2 = 11, 12 elements. */
    const UINT dhw[] = {2, 2, 3};
    const UINT dhw_strides[] = {6, 3, 1};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 3, dhw, dhw_strides), 48);
    /* Column-major 2x3, strides {1,2}: last element at 1+4 = 5, 6 elements. */
    const UINT cm[] = {2, 3};
    const UINT cm_strides[] = {1, 2};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, cm, cm_strides), 24);
}

Test(calc_size, four_bit_types)
{
    /* DirectMLX counts bits: 5 x 4 = 20 bits -> 3 bytes -> 4. */
    const UINT five[] = {5};
    const UINT one[] = {1};
    const UINT nine[] = {9};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT4, 1, five, NULL), 4);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_INT4, 1, five, NULL), 4);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT4, 1, one, NULL), 4);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UINT4, 1, nine, NULL), 8); /* 36 bits -> 5 -> 8 */
}

Test(calc_size, every_element_width)
{
    const UINT sizes[] = {7};
    const struct {
        DML_TENSOR_DATA_TYPE type;
        UINT64 bytes;
    } cases[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, 28}, {DML_TENSOR_DATA_TYPE_FLOAT16, 16},
        {DML_TENSOR_DATA_TYPE_UINT32, 28},  {DML_TENSOR_DATA_TYPE_UINT16, 16},
        {DML_TENSOR_DATA_TYPE_UINT8, 8},    {DML_TENSOR_DATA_TYPE_INT32, 28},
        {DML_TENSOR_DATA_TYPE_INT16, 16},   {DML_TENSOR_DATA_TYPE_INT8, 8},
        {DML_TENSOR_DATA_TYPE_FLOAT64, 56}, {DML_TENSOR_DATA_TYPE_UINT64, 56},
        {DML_TENSOR_DATA_TYPE_INT64, 56},   {DML_TENSOR_DATA_TYPE_UINT4, 4},
        {DML_TENSOR_DATA_TYPE_INT4, 4},
    };
    for (UINT i = 0; i < N(cases); ++i)
        cr_expect_eq(calc(cases[i].type, 1, sizes, NULL), cases[i].bytes,
                     "type %d: expected %llu bytes", (int)cases[i].type,
                     (unsigned long long)cases[i].bytes);
}

/* Widths documented beside the extension types in dmlcl/extensions.h. */
Test(calc_size, extension_types)
{
    const UINT three[] = {3};
    cr_expect_eq(calc(DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 1, three, NULL), 4);
    cr_expect_eq(calc(DMLCL_TENSOR_DATA_TYPE_BFLOAT16, 1, three, NULL), 8);
    cr_expect_eq(calc(DMLCL_TENSOR_DATA_TYPE_COMPLEX64, 1, three, NULL), 24);
    cr_expect_eq(calc(DMLCL_TENSOR_DATA_TYPE_COMPLEX128, 1, three, NULL), 48);
}

Test(calc_size, unknown_type_is_zero)
{
    const UINT sizes[] = {2, 3};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_UNKNOWN, 2, sizes, NULL), 0);
    cr_expect_eq(calc((DML_TENSOR_DATA_TYPE)14, 2, sizes, NULL), 0);
    cr_expect_eq(calc((DML_TENSOR_DATA_TYPE)99, 2, sizes, NULL), 0);
    cr_expect_eq(calc((DML_TENSOR_DATA_TYPE)-1, 2, sizes, NULL), 0);
    cr_expect_eq(calc(DMLCL_TENSOR_DATA_TYPE_STRING, 2, sizes, NULL), 0);
}

/* The header documents 64-bit accumulation: no wrap at 2^32 elements. */
Test(calc_size, no_32_bit_wrap)
{
    const UINT sizes[] = {65536, 65536};
    const UINT strides[] = {65536, 1};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), 17179869184ull);
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, strides), 17179869184ull);
    const UINT big[] = {4294967295u};
    cr_expect_eq(calc(DML_TENSOR_DATA_TYPE_FLOAT64, 1, big, NULL), 34359738360ull);
}
