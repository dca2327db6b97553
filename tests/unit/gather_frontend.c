/* SPDX-License-Identifier: MIT */
/*
 * The gather front-ends on the host: OpenVINO Gather-8 and ONNX Gather-1/11/13,
 * GatherElements, GatherND. Output shapes come from the specifications'
 * formulas and examples, worked by hand; every rule of each specification is
 * broken once, checking the HRESULT and that the message names the attribute
 * or input and its value. Valid results must also pass dmlcl_operator_create
 * (host-only, NULL device).
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "support.h"

static dmlcl_shape shape(uint32_t rank, ...)
{
    dmlcl_shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank;
    va_list ap;
    va_start(ap, rank);
    for (uint32_t i = 0; i < rank; ++i)
        s.dims[i] = va_arg(ap, int64_t);
    va_end(ap);
    return s;
}

#define SHAPE(...) shape(__VA_ARGS__)
#define I64(x) ((int64_t)(x))

static void expect_shape(const dmlcl_shape *got, uint32_t rank, const int64_t *dims)
{
    cr_assert_eq(got->rank, rank, "rank %u, expected %u", got->rank, rank);
    for (uint32_t i = 0; i < rank; ++i)
        cr_expect_eq(got->dims[i], dims[i], "dim %u: %lld, expected %lld", i,
                     (long long)got->dims[i], (long long)dims[i]);
}

/* The front-ends with their arguments in the specifications' order. */
static HRESULT ov8(const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                   const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                   const dmlcl_shape *axis_dims, const dmlcl_int_array *axis, int64_t batch_dims,
                   dmlcl_frontend_result *f)
{
    dmlcl_openvino_gather_args a = {.data = data,
                                    .data_type = data_type,
                                    .indices = indices,
                                    .indices_type = indices_type,
                                    .axis = axis,
                                    .axis_dims = axis_dims,
                                    .batch_dims = batch_dims};
    return dmlcl_openvino_gather(8, &a, f);
}

static HRESULT onnx_gather(int opset, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                           const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                           int64_t axis, dmlcl_frontend_result *f)
{
    dmlcl_onnx_gather_args a = {.data = data,
                                .data_type = data_type,
                                .indices = indices,
                                .indices_type = indices_type,
                                .axis = axis};
    return dmlcl_onnx_gather(opset, &a, f);
}

static HRESULT onnx_gather_elements(int opset, const dmlcl_shape *data,
                                    DML_TENSOR_DATA_TYPE data_type, const dmlcl_shape *indices,
                                    DML_TENSOR_DATA_TYPE indices_type, int64_t axis,
                                    dmlcl_frontend_result *f)
{
    dmlcl_onnx_gather_elements_args a = {.data = data,
                                         .data_type = data_type,
                                         .indices = indices,
                                         .indices_type = indices_type,
                                         .axis = axis};
    return dmlcl_onnx_gather_elements(opset, &a, f);
}

static HRESULT onnx_gather_nd(int opset, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                              const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                              int64_t batch_dims, dmlcl_frontend_result *f)
{
    dmlcl_onnx_gather_nd_args a = {.data = data,
                                   .data_type = data_type,
                                   .indices = indices,
                                   .indices_type = indices_type,
                                   .batch_dims = batch_dims};
    return dmlcl_onnx_gather_nd(opset, &a, f);
}

/* The result's descriptor must create (host-only). */
static void expect_creates(const dmlcl_frontend_result *f)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &f->desc, &op);
    cr_expect_eq(hr, S_OK, "create: %s", dmlcl_last_error());
    dmlcl_operator_release(op);
}

/* ---- OpenVINO Gather-8 ---------------------------------------------------------------------- */

static HRESULT ov(dmlcl_shape data, dmlcl_shape indices, int64_t axis, int64_t batch_dims,
                  dmlcl_frontend_result *f)
{
    dmlcl_shape axis_shape = SHAPE(0);
    dmlcl_int_array a = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis};
    return ov8(&data, DML_TENSOR_DATA_TYPE_FLOAT32, &indices, DML_TENSOR_DATA_TYPE_INT32,
               &axis_shape, &a, batch_dims, f);
}

Test(gather_frontend_openvino, examples)
{
    dmlcl_frontend_result f;
    static const int64_t e1[] = {3}, e2[] = {2, 3}, e3[] = {2, 2, 3}, e4[] = {2, 1, 3, 4},
                         ir[] = {2, 32, 21, 128};
    cr_assert_eq(ov(SHAPE(1, I64(5)), SHAPE(1, I64(3)), 0, 0, &f), S_OK);
    expect_shape(&f.output_shape, 1, e1);
    cr_assert_eq(ov(SHAPE(2, I64(2), I64(5)), SHAPE(2, I64(2), I64(3)), 1, 1, &f), S_OK);
    expect_shape(&f.output_shape, 2, e2);
    cr_assert_eq(ov(SHAPE(3, I64(2), I64(2), I64(5)), SHAPE(3, I64(2), I64(2), I64(3)), 2, 2, &f),
                 S_OK);
    expect_shape(&f.output_shape, 3, e3);
    cr_assert_eq(ov(SHAPE(4, I64(2), I64(1), I64(5), I64(4)), SHAPE(2, I64(2), I64(3)), 2, 1, &f),
                 S_OK);
    expect_shape(&f.output_shape, 4, e4);
    cr_assert_eq(ov(SHAPE(2, I64(2), I64(5)), SHAPE(2, I64(2), I64(3)), 1, -1, &f), S_OK);
    expect_shape(&f.output_shape, 2, e2);
    cr_expect_eq(f.op.gather1.BatchDimensionCount, 1, "batch_dims -1 + indices rank 2");
    cr_assert_eq(
        ov(SHAPE(3, I64(2), I64(64), I64(128)), SHAPE(3, I64(2), I64(32), I64(21)), 1, 1, &f),
        S_OK);
    expect_shape(&f.output_shape, 4, ir);
    cr_expect_eq(f.desc.Type, DMLCL_OPERATOR_GATHER1);
    cr_expect_eq(f.op.gather1.Axis, 1);
    cr_expect_eq(f.op.gather1.IndexDimensions, 3);
    cr_expect_eq(f.op.gather1.OutOfRangePolicy, DMLCL_OUT_OF_RANGE_POLICY_ZERO);
    cr_expect(f.op.gather1.AllowNegativeIndices);
    expect_creates(&f);
}

Test(gather_frontend_openvino, negative_axis_and_axis_types)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(3, I64(2), I64(3), I64(4)), x = SHAPE(1, I64(5)), scalar = SHAPE(0),
                one = SHAPE(1, I64(1));
    int8_t a8 = -1;
    uint64_t a64 = 1;
    dmlcl_int_array arr8 = {DML_TENSOR_DATA_TYPE_INT8, 1, &a8};
    dmlcl_int_array arr64 = {DML_TENSOR_DATA_TYPE_UINT64, 1, &a64};
    static const int64_t last[] = {2, 3, 5}, mid[] = {2, 5, 4};
    cr_assert_eq(
        ov8(&d, DML_TENSOR_DATA_TYPE_INT16, &x, DML_TENSOR_DATA_TYPE_UINT8, &scalar, &arr8, 0, &f),
        S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 3, last);
    cr_assert_eq(ov8(&d, DMLCL_TENSOR_DATA_TYPE_BOOLEAN, &x, DML_TENSOR_DATA_TYPE_INT16, &one,
                     &arr64, 0, &f),
                 S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 3, mid);
    expect_creates(&f);
    a64 = UINT64_MAX;
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_INT16, &x, DML_TENSOR_DATA_TYPE_UINT8, NULL, &arr64, 0, &f),
        E_INVALIDARG, "axis (18446744073709551615)", NULL);
}

Test(gather_frontend_openvino, scalars_and_empty)
{
    dmlcl_frontend_result f;
    static const int64_t rows[] = {3}, empty[] = {2, 0};
    cr_assert_eq(ov(SHAPE(2, I64(2), I64(3)), SHAPE(0), 0, 0, &f), S_OK);
    expect_shape(&f.output_shape, 1, rows);
    cr_expect_eq(f.op.gather1.IndexDimensions, 0);
    cr_expect_eq(f.buffers[1].DimensionCount, 1, "0-D indices are described as {1}");
    cr_expect_eq(f.sizes[1][0], 1);
    expect_creates(&f);
    cr_assert_eq(ov(SHAPE(1, I64(4)), SHAPE(0), 0, 0, &f), S_OK);
    cr_expect_eq(f.output_shape.rank, 0, "a 0-D output");
    cr_expect_eq(f.buffers[2].DimensionCount, 1);
    expect_creates(&f);
    cr_assert_eq(ov(SHAPE(2, I64(2), I64(3)), SHAPE(1, I64(0)), 1, 0, &f), S_OK);
    expect_shape(&f.output_shape, 2, empty);
    cr_expect_eq(f.buffers[2].TotalTensorSizeInBytes, 0);
    expect_creates(&f);
}

Test(gather_frontend_openvino, rules)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(2, I64(2), I64(3)), x = SHAPE(2, I64(2), I64(1));
    unit_expect_error(ov(d, x, 2, 0, &f), E_INVALIDARG, "OpenVINO Gather-8: axis (2)", "[-2, 1]");
    unit_expect_error(ov(d, x, -3, 0, &f), E_INVALIDARG, "axis (-3)", NULL);
    unit_expect_error(ov(d, x, 0, 1, &f), E_INVALIDARG, "batch_dims (1", "axis (0");
    unit_expect_error(ov(d, x, 1, 3, &f), E_INVALIDARG, "batch_dims (3)", "[-2, 2]");
    unit_expect_error(ov(d, x, 1, -3, &f), E_INVALIDARG, "batch_dims (-3)", "[-2, 2]");
    unit_expect_error(ov(d, SHAPE(2, I64(3), I64(1)), 1, 1, &f), E_INVALIDARG, "batch dimension 0",
                      "{3,1}");
    unit_expect_error(ov(SHAPE(0), x, 0, 0, &f), E_INVALIDARG, "data rank (0)", NULL);
    unit_expect_error(ov(SHAPE(2, I64(-1), I64(3)), x, 0, 0, &f), E_INVALIDARG,
                      "data dimension 0 (-1)", NULL);

    int64_t axis = 0, two[] = {0, 1};
    float fa = 0;
    dmlcl_shape scalar = SHAPE(0), pair = SHAPE(1, I64(2)), square = SHAPE(2, I64(1), I64(1));
    dmlcl_int_array a = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis};
    dmlcl_int_array a2 = {DML_TENSOR_DATA_TYPE_INT64, 2, two};
    dmlcl_int_array af = {DML_TENSOR_DATA_TYPE_FLOAT32, 1, &fa};
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DML_TENSOR_DATA_TYPE_FLOAT32, &scalar, &a, 0, &f),
        E_INVALIDARG, "indices type (FLOAT32)", NULL);
    unit_expect_error(ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DMLCL_TENSOR_DATA_TYPE_BOOLEAN,
                          &scalar, &a, 0, &f),
                      E_INVALIDARG, "indices type (BOOLEAN)", NULL);
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DML_TENSOR_DATA_TYPE_INT32, &scalar, &af, 0, &f),
        E_INVALIDARG, "axis input's type (FLOAT32)", NULL);
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DML_TENSOR_DATA_TYPE_INT32, &pair, &a2, 0, &f),
        E_INVALIDARG, "axis input's shape [2]", NULL);
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DML_TENSOR_DATA_TYPE_INT32, &square, &a, 0, &f),
        E_INVALIDARG, "axis input's rank (2)", NULL);
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_FLOAT32, &x, DML_TENSOR_DATA_TYPE_INT32, &scalar, NULL, 0, &f),
        E_POINTER, "axis", NULL);
}

/* The opset names the version in effect: Gather-8 from opset 8; Gather-1 and -7 are not in dmlcl.
 */
Test(gather_frontend_openvino, opsets)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(2, I64(2), I64(3)), x = SHAPE(1, I64(2));
    int64_t axis = 1;
    dmlcl_int_array a = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis};
    dmlcl_openvino_gather_args args = {.data = &d,
                                       .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                       .indices = &x,
                                       .indices_type = DML_TENSOR_DATA_TYPE_INT32,
                                       .axis = &a};
    static const int64_t out[] = {2, 2};
    cr_assert_eq(dmlcl_openvino_gather(15, &args, &f), S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 2, out);
    cr_expect_eq(f.op.gather1.OutOfRangePolicy, DMLCL_OUT_OF_RANGE_POLICY_ZERO);
    unit_expect_error(dmlcl_openvino_gather(7, &args, &f), DXGI_ERROR_UNSUPPORTED,
                      "OpenVINO Gather-7 (opset 7)", "Gather from version 8");
    unit_expect_error(dmlcl_openvino_gather(1, &args, &f), DXGI_ERROR_UNSUPPORTED, "Gather-1",
                      NULL);
    unit_expect_error(dmlcl_openvino_gather(0, &args, &f), E_INVALIDARG, "opset (0)", "at least 1");
    unit_expect_error(dmlcl_openvino_gather(8, NULL, &f), E_POINTER, "Gather-8: args (NULL)", NULL);
    unit_expect_error(dmlcl_openvino_gather(8, &args, NULL), E_POINTER, "result (NULL)", NULL);
}

Test(gather_frontend_openvino, unsupported)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(2, I64(2), I64(3)), x = SHAPE(1, I64(2)), scalar = SHAPE(0);
    int64_t axis = 0;
    dmlcl_int_array a = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis};
    unit_expect_error(
        ov8(&d, DMLCL_TENSOR_DATA_TYPE_STRING, &x, DML_TENSOR_DATA_TYPE_INT32, &scalar, &a, 0, &f),
        DXGI_ERROR_UNSUPPORTED, "STRING", NULL);
    unit_expect_error(
        ov8(&d, DML_TENSOR_DATA_TYPE_INT4, &x, DML_TENSOR_DATA_TYPE_INT32, &scalar, &a, 0, &f),
        DXGI_ERROR_UNSUPPORTED, "INT4", NULL);
    dmlcl_shape big = SHAPE(2, I64(1) << 20, I64(1) << 13);
    unit_expect_error(ov(big, x, 0, 0, &f), DXGI_ERROR_UNSUPPORTED, "2^32-1 elements", NULL);
    /*
     * Elements are counted as dmlcl's tensor rules count them: a 0 anywhere
     * makes the tensor empty, whatever the other sizes multiply to (issue 13:
     * the front-end and the operator must agree).
     */
    static const int64_t empty_late[] = {2, I64(1) << 20, 0};
    cr_assert_eq(ov(SHAPE(3, I64(1) << 20, I64(1) << 20, I64(0)), x, 0, 0, &f), S_OK, "%s",
                 dmlcl_last_error());
    expect_shape(&f.output_shape, 3, empty_late);
    static const int64_t empty_big[] = {2, 0, I64(1) << 20};
    cr_assert_eq(ov(SHAPE(3, I64(1) << 20, I64(0), I64(1) << 20), x, 0, 0, &f), S_OK, "%s",
                 dmlcl_last_error());
    expect_shape(&f.output_shape, 3, empty_big);
    expect_creates(&f);
    /* data rank 16 with 2-D indices: the output rank 17 is beyond 16 dims. */
    dmlcl_shape d16 = SHAPE(0);
    d16.rank = 16;
    for (int i = 0; i < 16; ++i)
        d16.dims[i] = 1;
    unit_expect_error(ov(d16, SHAPE(2, I64(1), I64(1)), 0, 0, &f), DXGI_ERROR_UNSUPPORTED,
                      "output rank (17)", NULL);
    d16.rank = 17;
    unit_expect_error(ov(d16, x, 0, 0, &f), DXGI_ERROR_UNSUPPORTED, "input data has rank 17", NULL);
}

/* ---- ONNX Gather
 * ------------------------------------------------------------------------------------- */

Test(gather_frontend_onnx, shape_table)
{
    dmlcl_frontend_result f;
    dmlcl_shape pq = SHAPE(2, I64(3), I64(4)), pqr = SHAPE(3, I64(3), I64(4), I64(2)),
                rs = SHAPE(2, I64(5), I64(6)), scalar = SHAPE(0);
    static const int64_t r1[] = {4}, r2[] = {3, 2}, r3[] = {5, 6, 4}, r4[] = {3, 5, 6};
    DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32, i64 = DML_TENSOR_DATA_TYPE_INT64;
    cr_assert_eq(onnx_gather(13, &pq, f32, &scalar, i64, 0, &f), S_OK);
    expect_shape(&f.output_shape, 1, r1);
    cr_assert_eq(onnx_gather(13, &pqr, f32, &scalar, i64, 1, &f), S_OK);
    expect_shape(&f.output_shape, 2, r2);
    cr_assert_eq(onnx_gather(13, &pq, f32, &rs, i64, 0, &f), S_OK);
    expect_shape(&f.output_shape, 3, r3);
    cr_assert_eq(onnx_gather(13, &pq, f32, &rs, i64, -1, &f), S_OK);
    expect_shape(&f.output_shape, 3, r4);
    cr_expect_eq(f.op.gather1.OutOfRangePolicy, DMLCL_OUT_OF_RANGE_POLICY_ERROR);
    expect_creates(&f);
}

Test(gather_frontend_onnx, versions)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(1, I64(5)), x = SHAPE(1, I64(2));
    DML_TENSOR_DATA_TYPE i32 = DML_TENSOR_DATA_TYPE_INT32;
    cr_assert_eq(onnx_gather(1, &d, i32, &x, i32, 0, &f), S_OK);
    cr_expect(!f.op.gather1.AllowNegativeIndices, "Gather-1 has no negative indices");
    cr_assert_eq(onnx_gather(10, &d, i32, &x, i32, 0, &f), S_OK);
    cr_expect(!f.op.gather1.AllowNegativeIndices, "opset 10 runs Gather-1");
    cr_assert_eq(onnx_gather(12, &d, i32, &x, i32, 0, &f), S_OK);
    cr_expect(f.op.gather1.AllowNegativeIndices, "opset 12 runs Gather-11");
    unit_expect_error(onnx_gather(12, &d, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, &x, i32, 0, &f),
                      E_INVALIDARG, "ONNX Gather-11: data type (BFLOAT16)", NULL);
    cr_expect_eq(onnx_gather(13, &d, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, &x, i32, 0, &f), S_OK);
    cr_expect_eq(onnx_gather(21, &d, DMLCL_TENSOR_DATA_TYPE_COMPLEX64, &x, i32, 0, &f), S_OK);
    expect_creates(&f);
    unit_expect_error(onnx_gather(0, &d, i32, &x, i32, 0, &f), E_INVALIDARG, "opset (0)", NULL);
}

Test(gather_frontend_onnx, rules)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(2, I64(3), I64(2)), x = SHAPE(2, I64(2), I64(2)), scalar = SHAPE(0);
    DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32, i64 = DML_TENSOR_DATA_TYPE_INT64;
    unit_expect_error(onnx_gather(13, &d, f32, &x, i64, 2, &f), E_INVALIDARG,
                      "ONNX Gather-13: axis (2)", "[-2, 1]");
    unit_expect_error(onnx_gather(11, &d, f32, &x, i64, -3, &f), E_INVALIDARG, "axis (-3)", NULL);
    unit_expect_error(onnx_gather(13, &d, f32, &x, DML_TENSOR_DATA_TYPE_INT16, 0, &f), E_INVALIDARG,
                      "indices type (INT16)", "INT32 or INT64");
    unit_expect_error(onnx_gather(13, &d, f32, &x, DML_TENSOR_DATA_TYPE_UINT64, 0, &f),
                      E_INVALIDARG, "indices type (UINT64)", NULL);
    unit_expect_error(onnx_gather(13, &scalar, f32, &x, i64, 0, &f), E_INVALIDARG, "data rank (0)",
                      NULL);
    unit_expect_error(onnx_gather(13, &d, DMLCL_TENSOR_DATA_TYPE_STRING, &x, i64, 0, &f),
                      DXGI_ERROR_UNSUPPORTED, "STRING", NULL);
    unit_expect_error(onnx_gather(13, NULL, f32, &x, i64, 0, &f), E_POINTER, "data", NULL);
}

/* ---- ONNX GatherElements and GatherND -----------------------------------------------------------
 */

Test(gather_frontend_onnx_elements, shapes_and_rules)
{
    dmlcl_frontend_result f;
    dmlcl_shape d = SHAPE(2, I64(3), I64(3)), x = SHAPE(2, I64(2), I64(3));
    DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32, i32 = DML_TENSOR_DATA_TYPE_INT32;
    static const int64_t out[] = {2, 3};
    cr_assert_eq(onnx_gather_elements(13, &d, f32, &x, i32, 0, &f), S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 2, out);
    cr_expect_eq(f.desc.Type, DMLCL_OPERATOR_GATHER_ELEMENTS1);
    cr_expect_eq(f.op.gather_elements1.OutOfRangePolicy, DMLCL_OUT_OF_RANGE_POLICY_ERROR);
    expect_creates(&f);
    cr_expect_eq(onnx_gather_elements(13, &d, f32, &x, i32, -2, &f), S_OK);
    cr_expect_eq(f.op.gather_elements1.Axis, 0);
    unit_expect_error(onnx_gather_elements(13, &d, f32, &x, i32, 1, &f), E_INVALIDARG,
                      "ONNX GatherElements-13: indices shape {2,3}", "dimension 0 differs");
    dmlcl_shape x1 = SHAPE(1, I64(3));
    unit_expect_error(onnx_gather_elements(13, &d, f32, &x1, i32, 0, &f), E_INVALIDARG,
                      "indices rank (1)", "data rank (2)");
    unit_expect_error(onnx_gather_elements(13, &d, f32, &x, i32, 2, &f), E_INVALIDARG, "axis (2)",
                      NULL);
    unit_expect_error(onnx_gather_elements(10, &d, f32, &x, i32, 0, &f), E_INVALIDARG, "opset (10)",
                      NULL);
}

Test(gather_frontend_onnx_nd, shapes_and_rules)
{
    dmlcl_frontend_result f;
    DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32, i64 = DML_TENSOR_DATA_TYPE_INT64;
    dmlcl_shape d = SHAPE(3, I64(2), I64(2), I64(2));
    dmlcl_shape x3 = SHAPE(3, I64(2), I64(1), I64(2)), xb = SHAPE(2, I64(2), I64(1));
    static const int64_t e4[] = {2, 1, 2}, e5[] = {2, 2};
    cr_assert_eq(onnx_gather_nd(13, &d, f32, &x3, i64, 0, &f), S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 3, e4);
    cr_expect_eq(f.desc.Type, DMLCL_OPERATOR_GATHER_ND2);
    expect_creates(&f);
    cr_assert_eq(onnx_gather_nd(13, &d, f32, &xb, i64, 1, &f), S_OK, "%s", dmlcl_last_error());
    expect_shape(&f.output_shape, 2, e5);
    cr_expect_eq(f.op.gather_nd2.BatchDimensionCount, 1);
    expect_creates(&f);
    dmlcl_shape d1 = SHAPE(1, I64(3)), x1 = SHAPE(1, I64(1));
    cr_assert_eq(onnx_gather_nd(13, &d1, f32, &x1, i64, 0, &f), S_OK);
    cr_expect_eq(f.output_shape.rank, 0, "a 0-D output");
    expect_creates(&f);

    unit_expect_error(onnx_gather_nd(13, &d, f32, &xb, DML_TENSOR_DATA_TYPE_INT32, 0, &f),
                      E_INVALIDARG, "indices type (INT32)", "INT64");
    unit_expect_error(onnx_gather_nd(13, &d, f32, &xb, i64, 2, &f), E_INVALIDARG, "batch_dims (2)",
                      NULL);
    unit_expect_error(onnx_gather_nd(11, &d, f32, &xb, i64, 1, &f), E_INVALIDARG,
                      "ONNX GatherND-11: batch_dims (1)", "opset 12");
    dmlcl_shape long_tuple = SHAPE(2, I64(1), I64(4));
    unit_expect_error(onnx_gather_nd(13, &d, f32, &long_tuple, i64, 0, &f), E_INVALIDARG,
                      "indices.shape[-1] (4)", NULL);
    dmlcl_shape other_batch = SHAPE(2, I64(3), I64(1));
    unit_expect_error(onnx_gather_nd(13, &d, f32, &other_batch, i64, 1, &f), E_INVALIDARG,
                      "batch dimension 0", NULL);
    dmlcl_shape scalar = SHAPE(0);
    unit_expect_error(onnx_gather_nd(13, &d, f32, &scalar, i64, 0, &f), E_INVALIDARG,
                      "indices rank (0)", NULL);
}
