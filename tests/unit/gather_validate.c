/* SPDX-License-Identifier: MIT */
/*
 * DML_GATHER validation on the host (no OpenCL device): every rule of the
 * DML_GATHER_OPERATOR_DESC page and of directml-facts.md sections 4.1-4.4
 * has a test that breaks it and checks the HRESULT and that the message names
 * the operator and the offending field. Output sizes are computed by hand
 * with DirectMLX's procedure (facts 4.4), never by the code under test.
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

#define N(a) ((UINT)(sizeof(a) / sizeof((a)[0])))

/* One DML_GATHER description; build with gather_init, then break one thing. */
typedef struct gather {
    unit_tensor in, idx, out;
    DML_GATHER_OPERATOR_DESC g;
    DML_OPERATOR_DESC op;
} gather;

static void gather_init(gather *c, UINT rank, const UINT *in, const UINT *idx, const UINT *out,
                        UINT axis, UINT index_dims)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_FLOAT32, rank, in, NULL);
    unit_tensor_set(&c->idx, DML_TENSOR_DATA_TYPE_UINT32, rank, idx, NULL);
    unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_FLOAT32, rank, out, NULL);
    c->g.InputTensor = &c->in.desc;
    c->g.IndicesTensor = &c->idx.desc;
    c->g.OutputTensor = &c->out.desc;
    c->g.Axis = axis;
    c->g.IndexDimensions = index_dims;
    c->op.Type = DML_OPERATOR_GATHER;
    c->op.Desc = &c->g;
}

/* The page's example 2: rows 0,1,1,2 of a 3x2 matrix. Valid as built. */
static void gather_base(gather *c)
{
    const UINT in[] = {3, 2}, idx[] = {1, 4}, out[] = {4, 2};
    gather_init(c, 2, in, idx, out, 0, 1);
}

static HRESULT create(const gather *c)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &c->op, &op);
    if (SUCCEEDED(hr)) {
        cr_expect_not_null(op, "a successful create must return an operator");
        dmlcl_operator_release(op);
    } else {
        cr_expect_null(op, "a failed create must not return an operator");
    }
    return hr;
}

static void check_ok(const gather *c, int line)
{
    HRESULT hr = create(c);
    cr_expect_eq(hr, S_OK, "line %d: expected S_OK, got %s; message: %s", line,
                 dmlcl_hresult_name(hr), dmlcl_last_error());
}

/* Fails with `expected` and a message naming GATHER and one of `fields`. */
static void check_fail_any(const gather *c, HRESULT expected, const char *const *fields,
                           UINT n_fields, int line)
{
    HRESULT hr = create(c);
    const char *msg = dmlcl_last_error();
    cr_expect_eq(hr, expected, "line %d: expected %s, got %s; message: %s", line,
                 dmlcl_hresult_name(expected), dmlcl_hresult_name(hr), msg);
    if (hr != expected)
        return;
    cr_expect(strstr(msg, "GATHER") != NULL, "line %d: message lacks \"GATHER\": %s", line, msg);
    bool named = false;
    for (UINT i = 0; i < n_fields; ++i)
        named = named || strstr(msg, fields[i]) != NULL;
    cr_expect(named, "line %d: message lacks \"%s\"%s: %s", line, fields[0],
              n_fields > 1 ? " (or an equivalent field)" : "", msg);
}

static void check_fail(const gather *c, HRESULT expected, const char *field, int line)
{
    check_fail_any(c, expected, &field, 1, line);
}

#define EXPECT_OK(c) check_ok((c), __LINE__)
#define EXPECT_INVALID(c, field) check_fail((c), E_INVALIDARG, (field), __LINE__)
#define EXPECT_UNSUPPORTED(c, field) check_fail((c), DXGI_ERROR_UNSUPPORTED, (field), __LINE__)
/* DirectML answers NULL pointers inside a description with E_INVALIDARG (facts 4.2). */
#define EXPECT_NULL(c, field) check_fail((c), E_INVALIDARG, (field), __LINE__)

/* ---- The base case and the documented examples ------------------------------ */

Test(gather_validate, base_case_is_valid)
{
    gather c;
    gather_base(&c);
    EXPECT_OK(&c);

    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &c.op, &op), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_operator_input_count(op), 2);
    cr_expect_eq(dmlcl_operator_output_count(op), 1);
    dmlcl_operator_release(op);
}

/* facts 4.4's table, with the sizes printed there (example 3 with IndexDimensions 1). */
Test(gather_validate, documented_examples)
{
    static const struct {
        UINT rank, axis, index_dims;
        UINT in[3], idx[3], out[3];
    } ex[] = {
        {1, 0, 1, {4}, {5}, {5}},
        {2, 0, 1, {3, 2}, {1, 4}, {4, 2}},
        {2, 1, 1, {3, 2}, {1, 2}, {3, 2}},
        {3, 2, 2, {1, 3, 3}, {1, 1, 2}, {3, 1, 2}},
        {3, 1, 2, {1, 3, 2}, {1, 2, 2}, {2, 2, 2}},
        {2, 1, 1, {3, 3}, {1, 2}, {3, 2}}, /* microsoft/DirectML#685's variant */
    };
    for (UINT i = 0; i < N(ex); ++i) {
        gather c;
        gather_init(&c, ex[i].rank, ex[i].in, ex[i].idx, ex[i].out, ex[i].axis, ex[i].index_dims);
        HRESULT hr = create(&c);
        cr_expect_eq(hr, S_OK, "example %u: got %s: %s", i + 1, dmlcl_hresult_name(hr),
                     dmlcl_last_error());
    }
}

/* Example 3 as printed: IndexDimensions 2 needs rank 2 + 2 - 1 = 3 > 2. */
Test(gather_validate, example3_as_printed_is_invalid)
{
    const UINT in[] = {3, 2}, idx[] = {1, 2}, out[] = {3, 2};
    const char *const fields[] = {"IndexDimensions", "InputTensor.Sizes[0]"};
    gather c;
    gather_init(&c, 2, in, idx, out, 1, 2);
    check_fail_any(&c, E_INVALIDARG, fields, N(fields), __LINE__);
}

/* ---- NULL pointers -------------------------------------------------------------- */

Test(gather_validate, null_arguments)
{
    gather c;
    gather_base(&c);
    dmlcl_operator *op = NULL;
    cr_expect_eq(dmlcl_operator_create(NULL, NULL, &op), E_POINTER);
    cr_expect_null(op);
    cr_expect_str_neq(dmlcl_last_error(), "");
    cr_expect_eq(dmlcl_operator_create(NULL, &c.op, NULL), E_POINTER);
}

Test(gather_validate, null_operator_desc)
{
    gather c;
    gather_base(&c);
    c.op.Desc = NULL;
    EXPECT_NULL(&c, "Desc");
}

Test(gather_validate, null_tensor_descs)
{
    gather c;
    gather_base(&c);
    c.g.InputTensor = NULL;
    EXPECT_NULL(&c, "InputTensor");
    gather_base(&c);
    c.g.IndicesTensor = NULL;
    EXPECT_NULL(&c, "IndicesTensor");
    gather_base(&c);
    c.g.OutputTensor = NULL;
    EXPECT_NULL(&c, "OutputTensor");
}

Test(gather_validate, null_buffer_desc_and_sizes)
{
    gather c;
    gather_base(&c);
    c.in.desc.Desc = NULL;
    EXPECT_NULL(&c, "InputTensor.Desc");
    gather_base(&c);
    c.out.desc.Desc = NULL;
    EXPECT_NULL(&c, "OutputTensor.Desc");
    gather_base(&c);
    c.idx.buf.Sizes = NULL;
    EXPECT_NULL(&c, "IndicesTensor.Sizes");
}

/* ---- Tensor type, flags and data types ------------------------------------------ */

Test(gather_validate, tensor_type_must_be_buffer)
{
    gather c;
    gather_base(&c);
    c.in.desc.Type = DML_TENSOR_TYPE_INVALID;
    EXPECT_INVALID(&c, "InputTensor.Type");
    gather_base(&c);
    c.idx.desc.Type = (DML_TENSOR_TYPE)2;
    EXPECT_INVALID(&c, "IndicesTensor.Type");
    gather_base(&c);
    c.out.desc.Type = DML_TENSOR_TYPE_INVALID;
    EXPECT_INVALID(&c, "OutputTensor.Type");
}

Test(gather_validate, owned_by_dml_output_is_invalid)
{
    gather c;
    gather_base(&c);
    c.out.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    EXPECT_INVALID(&c, "OutputTensor.Flags");
}

/* DML_TENSOR_FLAGS has no value 0x2. */
Test(gather_validate, unknown_flag_bits_are_invalid)
{
    gather c;
    gather_base(&c);
    c.in.buf.Flags = (DML_TENSOR_FLAGS)0x2;
    EXPECT_INVALID(&c, "InputTensor.Flags");
}

Test(gather_validate, unknown_data_type_is_invalid)
{
    gather c;
    gather_base(&c);
    c.in.buf.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
    EXPECT_INVALID(&c, "InputTensor.DataType");
    gather_base(&c);
    c.idx.buf.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
    EXPECT_INVALID(&c, "IndicesTensor.DataType");
    gather_base(&c);
    c.out.buf.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
    EXPECT_INVALID(&c, "OutputTensor.DataType");
}

/* 14 is past INT4, the last DML_TENSOR_DATA_TYPE value. */
Test(gather_validate, out_of_enum_data_type_is_invalid)
{
    gather c;
    gather_base(&c);
    c.in.buf.DataType = (DML_TENSOR_DATA_TYPE)14;
    c.out.buf.DataType = (DML_TENSOR_DATA_TYPE)14;
    EXPECT_INVALID(&c, "InputTensor.DataType");
}

/* 4-bit data is a DirectML type dmlcl cannot move: legal, not implemented. */
Test(gather_validate, four_bit_data_is_unsupported)
{
    gather c;
    gather_base(&c);
    unit_tensor_set_type(&c.in, DML_TENSOR_DATA_TYPE_UINT4);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_UINT4);
    EXPECT_UNSUPPORTED(&c, "InputTensor.DataType");
    gather_base(&c);
    unit_tensor_set_type(&c.in, DML_TENSOR_DATA_TYPE_INT4);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_INT4);
    EXPECT_UNSUPPORTED(&c, "InputTensor.DataType");
}

/* dmlcl's extension types belong to the extension operators only. */
Test(gather_validate, extension_data_type_is_refused)
{
    gather c;
    gather_base(&c);
    unit_tensor_set_type(&c.in, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    unit_tensor_set_type(&c.out, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    HRESULT hr = create(&c);
    cr_expect(FAILED(hr), "BOOLEAN data in DML_GATHER must fail, got %s", dmlcl_hresult_name(hr));
    cr_expect(strstr(dmlcl_last_error(), "InputTensor.DataType") != NULL, "%s", dmlcl_last_error());
}

/* FL4.1 table: FLOAT64 FLOAT32 FLOAT16 INT64 INT32 INT16 INT8 UINT64 UINT32 UINT16 UINT8. */
Test(gather_validate, every_fl41_data_type_is_valid)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
        DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,
    };
    for (UINT i = 0; i < N(types); ++i) {
        gather c;
        gather_base(&c);
        unit_tensor_set_type(&c.in, types[i]);
        unit_tensor_set_type(&c.out, types[i]);
        HRESULT hr = create(&c);
        cr_expect_eq(hr, S_OK, "data type %d: got %s: %s", (int)types[i], dmlcl_hresult_name(hr),
                     dmlcl_last_error());
    }
}

Test(gather_validate, every_index_type_is_valid)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_INT64,
        DML_TENSOR_DATA_TYPE_UINT64,
    };
    for (UINT i = 0; i < N(types); ++i) {
        gather c;
        gather_base(&c);
        unit_tensor_set_type(&c.idx, types[i]);
        HRESULT hr = create(&c);
        cr_expect_eq(hr, S_OK, "index type %d: got %s: %s", (int)types[i], dmlcl_hresult_name(hr),
                     dmlcl_last_error());
    }
}

Test(gather_validate, other_index_types_are_invalid)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_INT8,
    };
    for (UINT i = 0; i < N(types); ++i) {
        gather c;
        gather_base(&c);
        unit_tensor_set_type(&c.idx, types[i]);
        EXPECT_INVALID(&c, "IndicesTensor.DataType");
    }
}

Test(gather_validate, output_type_must_equal_input_type)
{
    gather c;
    gather_base(&c);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_FLOAT16);
    EXPECT_INVALID(&c, "OutputTensor.DataType");
    /* Same width is not enough. */
    gather_base(&c);
    unit_tensor_set_type(&c.in, DML_TENSOR_DATA_TYPE_INT32);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_UINT32);
    EXPECT_INVALID(&c, "OutputTensor.DataType");
}

/* ---- DimensionCount ------------------------------------------------------------- */

Test(gather_validate, ranks_must_match)
{
    const UINT in[] = {3, 2}, out[] = {4, 2};
    const UINT idx3[] = {1, 1, 4}, out3[] = {1, 4, 2};
    gather c;
    gather_init(&c, 2, in, idx3, out, 0, 1);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 3, idx3, NULL);
    EXPECT_INVALID(&c, "IndicesTensor.DimensionCount");

    const UINT idx[] = {1, 4};
    gather_init(&c, 2, in, idx, out, 0, 1);
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 3, out3, NULL);
    EXPECT_INVALID(&c, "OutputTensor.DimensionCount");
}

Test(gather_validate, rank_zero_is_invalid)
{
    const UINT one[] = {1};
    gather c;
    gather_base(&c);
    c.idx.buf.DimensionCount = 0;
    unit_tensor_fit(&c.idx);
    EXPECT_INVALID(&c, "IndicesTensor.DimensionCount");

    /* Either message ("must be in [1, 8]" or "must equal") names the input's count. */
    gather_init(&c, 1, one, one, one, 0, 1);
    c.in.buf.DimensionCount = 0;
    unit_tensor_fit(&c.in);
    EXPECT_INVALID(&c, "InputTensor.DimensionCount");
}

Test(gather_validate, rank_above_eight_is_invalid)
{
    const UINT ones9[] = {1, 1, 1, 1, 1, 1, 1, 1, 4};
    const UINT in[] = {3, 2}, idx[] = {1, 4};
    gather c;
    gather_init(&c, 9, ones9, ones9, ones9, 8, 1);
    unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, NULL);
    unit_tensor_set(&c.idx, DML_TENSOR_DATA_TYPE_UINT32, 2, idx, NULL);
    c.g.Axis = 0;
    /* Output rank 9 breaks both "<= 8" and "equal to the input's": both name it. */
    EXPECT_INVALID(&c, "OutputTensor.DimensionCount");

    /* All three at rank 9 with a consistent shape: only the 1..8 rule is broken. */
    gather_init(&c, 9, ones9, ones9, ones9, 8, 1);
    EXPECT_INVALID(&c, "DimensionCount");
}

Test(gather_validate, rank_eight_is_valid)
{
    /* ONNX data {2,3,4}, axis 1, indices {5,6} -> {2,5,6,4}, right-aligned to 8. */
    const UINT in[] = {1, 1, 1, 1, 1, 2, 3, 4};
    const UINT idx[] = {1, 1, 1, 1, 1, 1, 5, 6};
    const UINT out[] = {1, 1, 1, 1, 2, 5, 6, 4};
    gather c;
    gather_init(&c, 8, in, idx, out, 6, 2);
    EXPECT_OK(&c);
}

/* ---- Sizes and element counts ------------------------------------------------------ */

Test(gather_validate, zero_size_is_invalid)
{
    gather c;
    gather_base(&c);
    c.in.sizes[1] = 0;
    unit_tensor_fit(&c.in);
    EXPECT_INVALID(&c, "InputTensor.Sizes[1]");
    gather_base(&c);
    c.idx.sizes[0] = 0;
    unit_tensor_fit(&c.idx);
    EXPECT_INVALID(&c, "IndicesTensor.Sizes[0]");
    gather_base(&c);
    c.out.sizes[1] = 0;
    unit_tensor_fit(&c.out);
    EXPECT_INVALID(&c, "OutputTensor.Sizes");
}

/* 65535 * 65537 = 2^32 - 1 elements is the largest legal tensor. */
Test(gather_validate, element_count_limit_input)
{
    const UINT zero[] = {0, 0};
    const UINT in_max[] = {65535, 65537}, idx[] = {1, 1}, out_max[] = {1, 65537};
    gather c;
    gather_init(&c, 2, in_max, idx, out_max, 0, 1);
    unit_tensor_set_strides(&c.in, zero);
    EXPECT_OK(&c);

    const UINT in_over[] = {65536, 65536}, out_over[] = {1, 65536};
    gather_init(&c, 2, in_over, idx, out_over, 0, 1);
    unit_tensor_set_strides(&c.in, zero);
    EXPECT_INVALID(&c, "InputTensor.Sizes");
}

Test(gather_validate, element_count_limit_output)
{
    const UINT zero[] = {0, 0};
    const UINT in[] = {2, 65536}, idx[] = {1, 65536}, out[] = {65536, 65536};
    gather c;
    gather_init(&c, 2, in, idx, out, 0, 1);
    unit_tensor_set_strides(&c.in, zero);
    EXPECT_INVALID(&c, "OutputTensor.Sizes");
}

/* ---- TotalTensorSizeInBytes --------------------------------------------------------- */

Test(gather_validate, total_size_below_minimum_is_invalid)
{
    gather c;
    gather_base(&c); /* input {3,2} FLOAT32: 24 bytes */
    c.in.buf.TotalTensorSizeInBytes = 20;
    EXPECT_INVALID(&c, "InputTensor.TotalTensorSizeInBytes");
    gather_base(&c);
    c.in.buf.TotalTensorSizeInBytes = 0;
    EXPECT_INVALID(&c, "InputTensor.TotalTensorSizeInBytes");
    gather_base(&c); /* indices {1,4} UINT32: 16 bytes */
    c.idx.buf.TotalTensorSizeInBytes = 12;
    EXPECT_INVALID(&c, "IndicesTensor.TotalTensorSizeInBytes");
    gather_base(&c); /* output {4,2} FLOAT32: 32 bytes */
    c.out.buf.TotalTensorSizeInBytes = 31;
    EXPECT_INVALID(&c, "OutputTensor.TotalTensorSizeInBytes");
}

Test(gather_validate, total_size_at_or_above_minimum_is_valid)
{
    gather c;
    gather_base(&c);
    c.in.buf.TotalTensorSizeInBytes = 24;
    c.idx.buf.TotalTensorSizeInBytes = 16;
    c.out.buf.TotalTensorSizeInBytes = 32;
    EXPECT_OK(&c);
    c.in.buf.TotalTensorSizeInBytes = 4096;
    c.out.buf.TotalTensorSizeInBytes = 1000;
    EXPECT_OK(&c);
}

/* The minimum is rounded up to 4 bytes: 5 UINT8 elements need 8 bytes. */
Test(gather_validate, total_size_minimum_is_rounded_to_four)
{
    const UINT in[] = {5}, idx[] = {3}, out[] = {3};
    gather c;
    for (UINT64 bytes = 5; bytes < 8; ++bytes) {
        gather_init(&c, 1, in, idx, out, 0, 1);
        unit_tensor_set_type(&c.in, DML_TENSOR_DATA_TYPE_UINT8);
        unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_UINT8);
        c.in.buf.TotalTensorSizeInBytes = bytes;
        EXPECT_INVALID(&c, "InputTensor.TotalTensorSizeInBytes");
    }
    c.in.buf.TotalTensorSizeInBytes = 8;
    EXPECT_OK(&c);
}

/* Strides decide the minimum: {3,2} with row stride 4 spans (2*4 + 1 + 1) * 4 = 40 bytes. */
Test(gather_validate, total_size_minimum_follows_strides)
{
    const UINT strides[] = {4, 1};
    gather c;
    gather_base(&c);
    unit_tensor_set_strides(&c.in, strides);
    cr_assert_eq(c.in.buf.TotalTensorSizeInBytes, 40);
    EXPECT_OK(&c);
    c.in.buf.TotalTensorSizeInBytes = 36;
    EXPECT_INVALID(&c, "InputTensor.TotalTensorSizeInBytes");
}

/* ---- GuaranteedBaseOffsetAlignment ---------------------------------------------------- */

Test(gather_validate, base_offset_alignment_valid_values)
{
    static const UINT ok[] = {0, 4, 8, 16, 32, 256, 65536};
    for (UINT i = 0; i < N(ok); ++i) {
        gather c;
        gather_base(&c);
        c.in.buf.GuaranteedBaseOffsetAlignment = ok[i];
        c.out.buf.GuaranteedBaseOffsetAlignment = ok[i];
        HRESULT hr = create(&c);
        cr_expect_eq(hr, S_OK, "alignment %u: got %s: %s", ok[i], dmlcl_hresult_name(hr),
                     dmlcl_last_error());
    }
    /* 1-byte elements may promise 1 or 2. */
    const UINT in[] = {5}, idx[] = {3}, out[] = {3};
    gather c;
    gather_init(&c, 1, in, idx, out, 0, 1);
    unit_tensor_set_type(&c.in, DML_TENSOR_DATA_TYPE_UINT8);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_UINT8);
    c.in.buf.GuaranteedBaseOffsetAlignment = 1;
    c.out.buf.GuaranteedBaseOffsetAlignment = 2;
    EXPECT_OK(&c);
}

Test(gather_validate, base_offset_alignment_not_power_of_two)
{
    static const UINT bad[] = {3, 6, 12, 24, 100};
    for (UINT i = 0; i < N(bad); ++i) {
        gather c;
        gather_base(&c);
        c.in.buf.GuaranteedBaseOffsetAlignment = bad[i];
        EXPECT_INVALID(&c, "InputTensor.GuaranteedBaseOffsetAlignment");
    }
}

Test(gather_validate, base_offset_alignment_below_element_size)
{
    gather c;
    gather_base(&c); /* FLOAT32: 4 bytes */
    c.in.buf.GuaranteedBaseOffsetAlignment = 2;
    EXPECT_INVALID(&c, "InputTensor.GuaranteedBaseOffsetAlignment");
    gather_base(&c);
    c.out.buf.GuaranteedBaseOffsetAlignment = 1;
    EXPECT_INVALID(&c, "OutputTensor.GuaranteedBaseOffsetAlignment");
    gather_base(&c);
    unit_tensor_set_type(&c.idx, DML_TENSOR_DATA_TYPE_INT64);
    c.idx.buf.GuaranteedBaseOffsetAlignment = 4;
    EXPECT_INVALID(&c, "IndicesTensor.GuaranteedBaseOffsetAlignment");
}

/* ---- Axis and IndexDimensions ---------------------------------------------------------- */

Test(gather_validate, axis_must_be_below_rank)
{
    static const UINT bad[] = {2, 3, 100, UINT32_MAX};
    for (UINT i = 0; i < N(bad); ++i) {
        gather c;
        gather_base(&c);
        c.g.Axis = bad[i];
        EXPECT_INVALID(&c, "Axis");
    }
}

Test(gather_validate, index_dimensions_at_most_rank)
{
    gather c;
    gather_base(&c);
    c.g.IndexDimensions = 3;
    EXPECT_INVALID(&c, "IndexDimensions");
    gather_base(&c);
    c.g.IndexDimensions = UINT32_MAX;
    EXPECT_INVALID(&c, "IndexDimensions");
}

/*
 * originalInputRank + IndexDimensions - 1 <= DimensionCount. Input {2,3,4},
 * Axis 2, IndexDimensions 2: 3 + 2 - 1 = 4 > 3; equivalently Sizes[0] (2)
 * has no output position left and is not 1.
 */
Test(gather_validate, original_rank_plus_index_dims_too_large)
{
    const UINT in[] = {2, 3, 4}, idx[] = {1, 5, 6};
    const UINT outs[][3] = {{3, 5, 6}, {2, 5, 6}, {2, 3, 30}, {1, 5, 6}};
    const char *const fields[] = {"IndexDimensions", "InputTensor.Sizes[0]"};
    for (UINT i = 0; i < N(outs); ++i) {
        gather c;
        gather_init(&c, 3, in, idx, outs[i], 2, 2);
        check_fail_any(&c, E_INVALIDARG, fields, N(fields), __LINE__);
    }
}

/* The same rule holds with padding: input {1,1,3,4} has original rank 2; 2 + 3 - 1 = 4 <= 4. */
Test(gather_validate, original_rank_counts_only_real_dims)
{
    const UINT in[] = {1, 1, 6, 7}, idx[] = {1, 2, 3, 4}, out[] = {2, 3, 4, 7};
    gather c;
    gather_init(&c, 4, in, idx, out, 2, 3);
    EXPECT_OK(&c);
    /* Input {1,2,6,7}: original rank 3, 3 + 3 - 1 = 5 > 4. */
    const UINT in_bad[] = {1, 2, 6, 7};
    const char *const fields[] = {"IndexDimensions", "InputTensor.Sizes[1]"};
    gather_init(&c, 4, in_bad, idx, out, 2, 3);
    check_fail_any(&c, E_INVALIDARG, fields, N(fields), __LINE__);
}

/* IndexDimensions 2 at Axis 0 of a 2-D tensor needs three output dims ({2,5} ++ {4}). */
Test(gather_validate, index_dims_do_not_fit_before_axis)
{
    const UINT in[] = {1, 4}, idx[] = {2, 5};
    const UINT outs[][2] = {{2, 5}, {5, 4}, {10, 4}, {2, 20}};
    const char *const fields[] = {"IndexDimensions", "IndicesTensor.Sizes[0]"};
    for (UINT i = 0; i < N(outs); ++i) {
        gather c;
        gather_init(&c, 2, in, idx, outs[i], 0, 2);
        check_fail_any(&c, E_INVALIDARG, fields, N(fields), __LINE__);
    }
}

/* Indices dims before the last IndexDimensions are padding and must be 1. */
Test(gather_validate, leading_index_dims_must_be_one)
{
    const UINT in[] = {3, 2}, idx[] = {2, 4}, out[] = {4, 2};
    gather c;
    gather_init(&c, 2, in, idx, out, 0, 1);
    EXPECT_INVALID(&c, "IndicesTensor.Sizes[0]");

    const UINT in3[] = {1, 3, 2}, idx3[] = {1, 3, 4}, out3[] = {1, 4, 2};
    gather_init(&c, 3, in3, idx3, out3, 1, 1);
    EXPECT_INVALID(&c, "IndicesTensor.Sizes[1]");

    /* IndexDimensions 0: every index dim is padding. */
    const UINT in1[] = {4}, idx1[] = {2}, out1[] = {1};
    gather_init(&c, 1, in1, idx1, out1, 0, 0);
    EXPECT_INVALID(&c, "IndicesTensor.Sizes[0]");
}

/* ---- The output size rule ------------------------------------------------------------- */

typedef struct shape_case {
    const char *name;
    UINT rank, axis, index_dims;
    UINT in[8], idx[8], out[8];
    /* A plausible wrong answer that must be refused ({0} = none). */
    UINT wrong[8];
} shape_case;

/*
 * Hand-computed with facts 4.4's procedure: start with D ones; positions
 * D-1..Axis+1 copy the input; the next IndexDimensions positions take the
 * indices' last sizes (the last at Axis); further positions take input
 * sizes Axis-1, Axis-2, ... while both last.
 */
static const shape_case shape_cases[] = {
    {"4-D, axis 1", 4, 1, 1, {2, 3, 4, 5}, {1, 1, 1, 6}, {2, 6, 4, 5}, {0}},
    {"axis 0", 3, 0, 1, {5, 6, 7}, {1, 1, 4}, {4, 6, 7}, {0}},
    {"last axis", 3, 2, 1, {2, 3, 4}, {1, 1, 5}, {2, 3, 5}, {0}},
    /* Scalar index: dims before the axis shift right by one. */
    {"scalar index, axis 2", 4, 2, 0, {1, 2, 3, 4}, {1, 1, 1, 1}, {1, 1, 2, 4}, {1, 2, 1, 4}},
    {"scalar index, no padding", 4, 2, 0, {2, 3, 4, 5}, {1, 1, 1, 1}, {1, 2, 3, 5}, {2, 3, 1, 5}},
    {"scalar index, axis 0", 2, 0, 0, {3, 4}, {1, 1}, {1, 4}, {0}},
    {"scalar index, last axis", 3, 2, 0, {2, 3, 4}, {1, 1, 1}, {1, 2, 3}, {2, 3, 1}},
    {"scalar index, 1-D", 1, 0, 0, {4}, {1}, {1}, {0}},
    /* Leading 1s of the input are cropped to make room. */
    {"crop one", 4, 2, 2, {1, 1, 3, 4}, {1, 1, 2, 5}, {1, 2, 5, 4}, {0}},
    {"crop, pre-axis dim kept", 4, 2, 2, {1, 2, 3, 4}, {1, 1, 2, 5}, {2, 2, 5, 4}, {0}},
    {"crop two", 4, 2, 3, {1, 1, 6, 7}, {1, 2, 3, 4}, {2, 3, 4, 7}, {0}},
    {"IndexDimensions = rank", 2, 1, 2, {1, 4}, {3, 5}, {3, 5}, {0}},
    {"nested, 3-D", 3, 1, 2, {1, 3, 2}, {1, 2, 2}, {2, 2, 2}, {0}},
    {"8-D",
     8,
     6,
     2,
     {1, 1, 1, 1, 1, 2, 3, 4},
     {1, 1, 1, 1, 1, 1, 5, 6},
     {1, 1, 1, 1, 2, 5, 6, 4},
     {0}},
};

static HRESULT create_shape(const shape_case *s, const UINT *out)
{
    gather c;
    gather_init(&c, s->rank, s->in, s->idx, out, s->axis, s->index_dims);
    return create(&c);
}

static void expect_refused(const shape_case *s, const UINT *out)
{
    HRESULT hr = create_shape(s, out);
    const char *msg = dmlcl_last_error();
    char sizes[64] = "{";
    for (UINT d = 0; d < s->rank; ++d)
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), d ? ",%u" : "%u", out[d]);
    cr_expect_eq(hr, E_INVALIDARG, "%s: output %s}: expected E_INVALIDARG, got %s", s->name, sizes,
                 dmlcl_hresult_name(hr));
    if (hr == E_INVALIDARG) {
        cr_expect(strstr(msg, "GATHER") != NULL, "%s: %s", s->name, msg);
        cr_expect(strstr(msg, "OutputTensor.Sizes") != NULL,
                  "%s: %s}: message lacks "
                  "\"OutputTensor.Sizes\": %s",
                  s->name, sizes, msg);
    }
}

Test(gather_shape, exact_sizes_are_accepted)
{
    for (UINT i = 0; i < N(shape_cases); ++i) {
        HRESULT hr = create_shape(&shape_cases[i], shape_cases[i].out);
        cr_expect_eq(hr, S_OK, "%s: got %s: %s", shape_cases[i].name, dmlcl_hresult_name(hr),
                     dmlcl_last_error());
    }
}

Test(gather_shape, other_sizes_are_refused)
{
    for (UINT i = 0; i < N(shape_cases); ++i) {
        const shape_case *s = &shape_cases[i];
        for (UINT d = 0; d < s->rank; ++d) {
            UINT out[8];
            memcpy(out, s->out, sizeof out);
            out[d] = s->out[d] + 1;
            expect_refused(s, out);
            if (s->out[d] > 1) {
                out[d] = s->out[d] - 1;
                expect_refused(s, out);
            }
        }
        if (s->wrong[0] != 0)
            expect_refused(s, s->wrong);
    }
}

/* Swapping two unequal output sizes keeps the element count but breaks the rule. */
Test(gather_shape, permuted_sizes_are_refused)
{
    for (UINT i = 0; i < N(shape_cases); ++i) {
        const shape_case *s = &shape_cases[i];
        for (UINT d = 0; d + 1 < s->rank; ++d) {
            if (s->out[d] == s->out[d + 1])
                continue;
            UINT out[8];
            memcpy(out, s->out, sizeof out);
            out[d] = s->out[d + 1];
            out[d + 1] = s->out[d];
            expect_refused(s, out);
        }
    }
}

/* ---- Layouts through strides --------------------------------------------------------- */

Test(gather_validate, strided_tensors_are_valid)
{
    const UINT padded[] = {3, 1};       /* output {4,2} rows 3 apart */
    const UINT broadcast[] = {0, 1};    /* input rows all the same */
    const UINT column_major[] = {1, 3}; /* input {3,2} stored transposed */
    gather c;
    gather_base(&c);
    unit_tensor_set_strides(&c.out, padded);
    EXPECT_OK(&c);
    gather_base(&c);
    unit_tensor_set_strides(&c.in, broadcast);
    EXPECT_OK(&c);
    gather_base(&c);
    unit_tensor_set_strides(&c.in, column_major);
    EXPECT_OK(&c);
}
