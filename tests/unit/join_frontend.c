/* SPDX-License-Identifier: MIT */
/*
 * The concatenation and split front-ends on the host: OpenVINO Concat-1,
 * Split-1, VariadicSplit-1; ONNX Concat-13, Split-13, Split-18. Output
 * shapes come from the specifications' examples and formulas, worked by
 * hand; every rule is broken once, checking the HRESULT and the message.
 * Valid results must also pass dmlcl_operator_create (host-only), and
 * dmlcl_frontend_result_clear must be harmless on every result.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "support.h"

#define FLT DML_TENSOR_DATA_TYPE_FLOAT32

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

#define I64(x) ((int64_t)(x))
#define S4(a, b, c, d) shape(4, I64(a), I64(b), I64(c), I64(d))

static void expect_shape(const dmlcl_shape *got, const dmlcl_shape *want, uint32_t k)
{
    cr_assert_eq(got->rank, want->rank, "output %u: rank %u, expected %u", k, got->rank,
                 want->rank);
    for (uint32_t i = 0; i < want->rank; ++i)
        cr_expect_eq(got->dims[i], want->dims[i], "output %u dim %u: %lld, expected %lld", k, i,
                     (long long)got->dims[i], (long long)want->dims[i]);
}

/* A valid result: the shapes expected, and dmlcl_operator_create takes its desc. */
static void expect_result(HRESULT hr, dmlcl_frontend_result *r, uint32_t count,
                          const dmlcl_shape *want)
{
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(r->output_count, count, "%u outputs, expected %u", r->output_count, count);
    for (uint32_t k = 0; k < count; ++k)
        expect_shape(&r->output_shapes[k], &want[k], k);
    expect_shape(&r->output_shape, &want[0], 0);
    dmlcl_operator *op = NULL;
    hr = dmlcl_operator_create(NULL, &r->desc, &op);
    cr_expect_eq(hr, S_OK, "create: %s", dmlcl_last_error());
    dmlcl_operator_release(op);
    dmlcl_frontend_result_clear(r);
    cr_expect_null(r->heap);
}

static void expect_fail(HRESULT hr, HRESULT want, dmlcl_frontend_result *r, const char *a,
                        const char *b)
{
    unit_expect_error(hr, want, a, b);
    cr_expect_null(r->heap, "a failed front-end keeps no heap storage");
    dmlcl_frontend_result_clear(r);
}

/* ---- Concat -------------------------------------------------------------------------------- */

static HRESULT concat(bool onnx, const dmlcl_shape *in, DML_TENSOR_DATA_TYPE *types, uint32_t n,
                      int64_t axis, dmlcl_frontend_result *r)
{
    dmlcl_concat_args a = {.inputs = in, .inputs_type = types, .input_count = n, .axis = axis};
    return onnx ? dmlcl_onnx_concat(13, &a, r) : dmlcl_openvino_concat(1, &a, r);
}

Test(concat_frontend, openvino_examples)
{
    /* Concat-1's two examples: axis 1 and -3 give {1, 56, 50, 50}. */
    dmlcl_shape in[3] = {S4(1, 8, 50, 50), S4(1, 16, 50, 50), S4(1, 32, 50, 50)};
    DML_TENSOR_DATA_TYPE t[3] = {FLT, FLT, FLT};
    dmlcl_shape want = S4(1, 56, 50, 50);
    dmlcl_frontend_result r;
    expect_result(concat(false, in, t, 3, 1, &r), &r, 1, &want);
    expect_result(concat(false, in, t, 3, -3, &r), &r, 1, &want);
}

Test(concat_frontend, many_inputs_on_the_heap)
{
    static dmlcl_shape in[65];
    static DML_TENSOR_DATA_TYPE t[65];
    for (int i = 0; i < 65; ++i) {
        in[i] = shape(2, I64(2), I64(i % 3));
        t[i] = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
    }
    dmlcl_frontend_result r;
    /* 64 inputs: 0+1+2+0+... along axis 1 (21 full cycles of 3, then 0). */
    dmlcl_shape want = shape(2, I64(2), I64(63));
    HRESULT hr = concat(true, in, t, 64, -1, &r);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    cr_expect_not_null(r.heap);
    cr_expect_eq(r.tensor_count, 65);
    cr_expect_eq(r.op.join1.InputCount, 64);
    cr_expect_eq(((const DML_BUFFER_TENSOR_DESC *)r.op.join1.InputTensors[5].Desc)->Sizes[1], 2);
    expect_result(hr, &r, 1, &want);
    expect_fail(concat(true, in, t, 65, 1, &r), DXGI_ERROR_UNSUPPORTED, &r, "ONNX Concat-13", "65");
}

Test(concat_frontend, rules)
{
    dmlcl_shape in[3] = {shape(2, I64(2), I64(3)), shape(2, I64(2), I64(0)),
                         shape(2, I64(2), I64(4))};
    DML_TENSOR_DATA_TYPE t[3] = {FLT, FLT, FLT};
    dmlcl_frontend_result r;
    dmlcl_shape want = shape(2, I64(2), I64(7));
    expect_result(concat(true, in, t, 3, 1, &r), &r, 1, &want);
    expect_fail(concat(true, in, t, 0, 0, &r), E_INVALIDARG, &r, "ONNX Concat-13", "inputs (0)");
    expect_fail(concat(true, in, t, 3, 2, &r), E_INVALIDARG, &r, "axis (2)", "[-2, 1]");
    expect_fail(concat(false, in, t, 3, -3, &r), E_INVALIDARG, &r, "OpenVINO Concat-1",
                "axis (-3)");
    /* Shapes differ off the axis. */
    expect_fail(concat(true, in, t, 3, 0, &r), E_INVALIDARG, &r, "input 1", "dimension 1");
    t[2] = DML_TENSOR_DATA_TYPE_INT32;
    expect_fail(concat(true, in, t, 3, 1, &r), E_INVALIDARG, &r, "input 2 has type INT32", NULL);
    t[2] = FLT;
    in[1].rank = 3;
    expect_fail(concat(true, in, t, 3, 1, &r), E_INVALIDARG, &r, "input 1 has rank 3", NULL);
    dmlcl_shape scalar = shape(0);
    expect_fail(concat(false, &scalar, t, 1, 0, &r), E_INVALIDARG, &r, "rank 0", NULL);
    expect_fail(dmlcl_onnx_concat(12, &(dmlcl_concat_args){.inputs = in}, &r),
                DXGI_ERROR_UNSUPPORTED, &r, "Concat-11", NULL);
}

/* ---- OpenVINO Split and VariadicSplit ------------------------------------------------------ */

static HRESULT ov_split(const dmlcl_shape *data, int64_t axis_value, DML_TENSOR_DATA_TYPE axis_type,
                        const dmlcl_shape *axis_dims, int64_t num_splits, dmlcl_frontend_result *r)
{
    unsigned char raw[8];
    memcpy(raw, &axis_value, sizeof raw); /* little-endian: narrower types read its low bytes */
    dmlcl_int_array axis = {axis_type, 1, raw};
    dmlcl_openvino_split_args a = {.data = data,
                                   .data_type = FLT,
                                   .axis = &axis,
                                   .axis_dims = axis_dims,
                                   .num_splits = num_splits};
    return dmlcl_openvino_split(1, &a, r);
}

Test(openvino_split, example_and_rules)
{
    dmlcl_shape data = S4(6, 12, 10, 24), part = S4(6, 4, 10, 24);
    dmlcl_shape want[3] = {part, part, part};
    dmlcl_shape two = shape(1, I64(2)), scalar = shape(0);
    dmlcl_frontend_result r;
    expect_result(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_INT64, NULL, 3, &r), &r, 3, want);
    expect_result(ov_split(&data, -3, DML_TENSOR_DATA_TYPE_INT8, &scalar, 3, &r), &r, 3, want);
    expect_result(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_UINT16, NULL, 3, &r), &r, 3, want);
    expect_fail(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_INT64, NULL, 5, &r), E_INVALIDARG, &r,
                "OpenVINO Split-1", "divisible by num_splits (5)");
    expect_fail(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_INT64, NULL, 0, &r), E_INVALIDARG, &r,
                "num_splits (0)", NULL);
    expect_fail(ov_split(&data, 4, DML_TENSOR_DATA_TYPE_INT64, NULL, 1, &r), E_INVALIDARG, &r,
                "axis (4)", NULL);
    expect_fail(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_INT64, &two, 3, &r), E_INVALIDARG, &r,
                "shape {2}", "must be a scalar (rank 0)");
    expect_fail(ov_split(&data, 1, FLT, NULL, 3, &r), E_INVALIDARG, &r, "axis has type FLOAT32",
                NULL);
    expect_fail(ov_split(&data, 1, DML_TENSOR_DATA_TYPE_INT64, NULL, 65, &r),
                DXGI_ERROR_UNSUPPORTED, &r, "num_splits (65)", NULL);
    /* An empty axis splits into empty parts. */
    dmlcl_shape empty = shape(2, I64(0), I64(3)), e = shape(2, I64(0), I64(3));
    dmlcl_shape ew[4] = {e, e, e, e};
    expect_result(ov_split(&empty, 0, DML_TENSOR_DATA_TYPE_INT32, NULL, 4, &r), &r, 4, ew);
}

/*
 * Split-1's axis is a scalar: OpenVINO's shape inference checks that its rank
 * is 0 (split_shape_inference.hpp), so shape {1}, which VariadicSplit-1
 * takes, is refused here.
 */
Test(openvino_split, axis_is_a_scalar)
{
    dmlcl_shape data = shape(2, I64(2), I64(6)), part = shape(2, I64(2), I64(3));
    dmlcl_shape want[2] = {part, part}, scalar = shape(0), one = shape(1, I64(1));
    dmlcl_shape one_one = shape(2, I64(1), I64(1)), none = shape(1, I64(0));
    const DML_TENSOR_DATA_TYPE i32 = DML_TENSOR_DATA_TYPE_INT32;
    dmlcl_frontend_result r;
    expect_result(ov_split(&data, 1, i32, &scalar, 2, &r), &r, 2, want);
    expect_result(ov_split(&data, -1, i32, NULL, 2, &r), &r, 2, want);
    expect_fail(ov_split(&data, 1, i32, &one, 2, &r), E_INVALIDARG, &r,
                "OpenVINO Split-1: input axis has shape {1} (rank 1)",
                "it must be a scalar (rank 0)");
    expect_fail(ov_split(&data, 1, i32, &one_one, 2, &r), E_INVALIDARG, &r,
                "OpenVINO Split-1: input axis has shape {1,1} (rank 2)",
                "it must be a scalar (rank 0)");
    expect_fail(ov_split(&data, 1, i32, &none, 2, &r), E_INVALIDARG, &r,
                "OpenVINO Split-1: input axis has shape {0} (rank 1)",
                "it must be a scalar (rank 0)");
}

static HRESULT ov_vsplit(const dmlcl_shape *data, int64_t axis_value, const int64_t *lengths,
                         uint64_t count, DML_TENSOR_DATA_TYPE type, dmlcl_frontend_result *r)
{
    int32_t l32[8];
    for (uint64_t i = 0; i < count; ++i)
        l32[i] = (int32_t)lengths[i];
    dmlcl_int_array axis = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis_value};
    dmlcl_int_array sl = {type, count, type == DML_TENSOR_DATA_TYPE_INT32 ? (void *)l32 : lengths};
    dmlcl_openvino_variadic_split_args a = {
        .data = data, .data_type = FLT, .axis = &axis, .split_lengths = &sl};
    return dmlcl_openvino_variadic_split(1, &a, r);
}

Test(openvino_variadic_split, examples_and_rules)
{
    const DML_TENSOR_DATA_TYPE i64 = DML_TENSOR_DATA_TYPE_INT64, i32 = DML_TENSOR_DATA_TYPE_INT32;
    dmlcl_shape data = S4(6, 12, 10, 24);
    dmlcl_frontend_result r;
    /* VariadicSplit-1's examples: [1, 2, 3] and [-1, 2] on axis 0. */
    dmlcl_shape w1[3] = {S4(1, 12, 10, 24), S4(2, 12, 10, 24), S4(3, 12, 10, 24)};
    expect_result(ov_vsplit(&data, 0, (int64_t[]){1, 2, 3}, 3, i64, &r), &r, 3, w1);
    dmlcl_shape w2[2] = {S4(4, 12, 10, 24), S4(2, 12, 10, 24)};
    expect_result(ov_vsplit(&data, 0, (int64_t[]){-1, 2}, 2, i32, &r), &r, 2, w2);
    /* Zeros, and -1 taking nothing. */
    dmlcl_shape w3[3] = {S4(6, 12, 10, 0), S4(6, 12, 10, 24), S4(6, 12, 10, 0)};
    expect_result(ov_vsplit(&data, -1, (int64_t[]){0, 24, -1}, 3, i64, &r), &r, 3, w3);
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){-1, -1}, 2, i64, &r), E_INVALIDARG, &r,
                "OpenVINO VariadicSplit-1", "at most one");
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){-2, 8}, 2, i64, &r), E_INVALIDARG, &r,
                "split_lengths[0] (-2)", NULL);
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){1, 2}, 2, i64, &r), E_INVALIDARG, &r, "sum to 3",
                "data.shape[0] (6)");
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){4, 4}, 2, i64, &r), E_INVALIDARG, &r,
                "sum to more than 6", NULL);
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){7, -1}, 2, i64, &r), E_INVALIDARG, &r,
                "without its -1 entry", NULL);
    expect_fail(ov_vsplit(&data, 0, (int64_t[]){INT64_MAX, INT64_MAX, -1}, 3, i64, &r),
                E_INVALIDARG, &r, "without its -1 entry", NULL);
    expect_fail(ov_vsplit(&data, 0, NULL, 0, i64, &r), E_INVALIDARG, &r,
                "OpenVINO VariadicSplit-1: input split_lengths has shape {0}",
                "must sum to data.shape[0] (6)");
    /* No lengths on an empty axis: OpenVINO takes it (no outputs); dmlcl cannot describe it. */
    dmlcl_shape empty = shape(2, I64(0), I64(3));
    expect_fail(ov_vsplit(&empty, 0, NULL, 0, i64, &r), DXGI_ERROR_UNSUPPORTED, &r,
                "OpenVINO VariadicSplit-1: input split_lengths has shape {0} (no outputs)",
                "data.shape[0] is 0");
    /* One length of 0 on the empty axis is an ordinary split. */
    dmlcl_shape ew[1] = {empty};
    expect_result(ov_vsplit(&empty, 0, (int64_t[]){0}, 1, i64, &r), &r, 1, ew);
}

/* VariadicSplit-1's axis: a scalar or shape {1} (variadic_split_shape_inference.hpp). */
Test(openvino_variadic_split, axis_scalar_or_one_element)
{
    dmlcl_shape data = shape(2, I64(2), I64(6)), scalar = shape(0), one = shape(1, I64(1));
    dmlcl_shape two = shape(1, I64(2)), one_one = shape(2, I64(1), I64(1));
    dmlcl_shape want[2] = {shape(2, I64(2), I64(2)), shape(2, I64(2), I64(4))};
    int64_t axis_value = 1, lengths[2] = {2, 4};
    dmlcl_int_array axis = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis_value};
    dmlcl_int_array sl = {DML_TENSOR_DATA_TYPE_INT64, 2, lengths};
    dmlcl_openvino_variadic_split_args a = {
        .data = &data, .data_type = FLT, .axis = &axis, .split_lengths = &sl};
    dmlcl_frontend_result r;
    a.axis_dims = &scalar;
    expect_result(dmlcl_openvino_variadic_split(1, &a, &r), &r, 2, want);
    a.axis_dims = &one;
    expect_result(dmlcl_openvino_variadic_split(1, &a, &r), &r, 2, want);
    a.axis_dims = &two;
    expect_fail(dmlcl_openvino_variadic_split(1, &a, &r), E_INVALIDARG, &r,
                "OpenVINO VariadicSplit-1: input axis has shape {2}", "it must hold one value");
    a.axis_dims = &one_one;
    expect_fail(dmlcl_openvino_variadic_split(1, &a, &r), E_INVALIDARG, &r,
                "OpenVINO VariadicSplit-1: input axis has shape {1,1} (rank 2)",
                "it must be a scalar (or of shape {1})");
    a.axis_dims = NULL;
    a.split_lengths_dims = &one_one;
    expect_fail(dmlcl_openvino_variadic_split(1, &a, &r), E_INVALIDARG, &r,
                "OpenVINO VariadicSplit-1: input split_lengths must be 1-D", "(rank 2)");
}

/* ---- ONNX Split ----------------------------------------------------------------------------- */

static HRESULT onnx_split(int opset, const dmlcl_shape *in, const int64_t *split, uint64_t n,
                          int64_t axis, int64_t num_outputs, uint32_t outputs,
                          dmlcl_frontend_result *r)
{
    dmlcl_int_array s = {DML_TENSOR_DATA_TYPE_INT64, n, split};
    dmlcl_onnx_split_args a = {.input = in,
                               .input_type = DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
                               .split = split ? &s : NULL,
                               .axis = axis,
                               .num_outputs = num_outputs,
                               .output_count = outputs};
    return dmlcl_onnx_split(opset, &a, r);
}

Test(onnx_split, backend_node_shapes)
{
    dmlcl_frontend_result r;
    dmlcl_shape in1 = shape(1, I64(6)), two = shape(1, I64(2)), three = shape(1, I64(3));
    /* test_split_equal_parts_1d: 6 into 3 (Split-13, no split input). */
    dmlcl_shape w[3] = {two, two, two};
    expect_result(onnx_split(13, &in1, NULL, 0, 0, 0, 3, &r), &r, 3, w);
    /* test_split_variable_parts_1d: split [2, 4]. */
    dmlcl_shape w2[2] = {two, shape(1, I64(4))};
    expect_result(onnx_split(18, &in1, (int64_t[]){2, 4}, 2, 0, 0, 0, &r), &r, 2, w2);
    /* test_split_2d_uneven_split_opset18: {2, 8} into 3 on axis 1: 3, 3, 2. */
    dmlcl_shape in2 = shape(2, I64(2), I64(8));
    dmlcl_shape w3[3] = {shape(2, I64(2), I64(3)), shape(2, I64(2), I64(3)),
                         shape(2, I64(2), I64(2))};
    expect_result(onnx_split(18, &in2, NULL, 0, 1, 3, 3, &r), &r, 3, w3);
    /* test_split_1d_uneven_split_opset18: 7 into 4: 2, 2, 2, 1. */
    dmlcl_shape in7 = shape(1, I64(7)), w4[4] = {two, two, two, shape(1, I64(1))};
    expect_result(onnx_split(18, &in7, NULL, 0, 0, 4, 0, &r), &r, 4, w4);
    /* test_split_zero_size_splits: {0} split [0, 0, 0]. */
    dmlcl_shape in0 = shape(1, I64(0)), z = shape(1, I64(0)), wz[3] = {z, z, z};
    expect_result(onnx_split(13, &in0, (int64_t[]){0, 0, 0}, 3, 0, 0, 3, &r), &r, 3, wz);
    /* 6 into 4 under num_outputs: 2, 2, 2, 0 (shape inference and reference agree). */
    dmlcl_shape w5[4] = {two, two, two, z};
    expect_result(onnx_split(18, &in1, NULL, 0, -1, 4, 4, &r), &r, 4, w5);
    (void)three;
}

Test(onnx_split, rules)
{
    dmlcl_frontend_result r;
    dmlcl_shape in = shape(1, I64(6)), in5 = shape(1, I64(5));
    expect_fail(onnx_split(13, &in, NULL, 0, 0, 0, 4, &r), E_INVALIDARG, &r, "ONNX Split-13",
                "4 equal parts");
    expect_fail(onnx_split(13, &in, NULL, 0, 0, 0, 0, &r), E_INVALIDARG, &r, "outputs", "(0)");
    expect_fail(onnx_split(13, &in, NULL, 0, 0, 3, 3, &r), E_INVALIDARG, &r, "num_outputs",
                "Split-18");
    expect_fail(onnx_split(18, &in, NULL, 0, 0, 0, 3, &r), E_INVALIDARG, &r, "ONNX Split-18",
                "neither");
    expect_fail(onnx_split(18, &in, (int64_t[]){3, 3}, 2, 0, 2, 2, &r), E_INVALIDARG, &r,
                "both given", NULL);
    expect_fail(onnx_split(18, &in, NULL, 0, 0, 3, 2, &r), E_INVALIDARG, &r, "num_outputs (3)",
                "number of outputs (2)");
    expect_fail(onnx_split(18, &in5, NULL, 0, 0, 4, 4, &r), E_INVALIDARG, &r,
                "last part would have -1", NULL);
    expect_fail(onnx_split(18, &in, NULL, 0, 0, -2, 0, &r), E_INVALIDARG, &r, "num_outputs (-2)",
                NULL);
    expect_fail(onnx_split(13, &in, (int64_t[]){3, -1, 4}, 3, 0, 0, 3, &r), E_INVALIDARG, &r,
                "split[1] (-1)", NULL);
    expect_fail(onnx_split(13, &in, (int64_t[]){3, 2}, 2, 0, 0, 2, &r), E_INVALIDARG, &r,
                "sums to 5", "input.shape[0] (6)");
    expect_fail(onnx_split(13, &in, (int64_t[]){3, 3}, 2, 0, 0, 3, &r), E_INVALIDARG, &r,
                "one per output (3)", NULL);
    expect_fail(onnx_split(13, &in, NULL, 0, 1, 0, 2, &r), E_INVALIDARG, &r, "axis (1)", NULL);
    dmlcl_shape scalar = shape(0);
    expect_fail(onnx_split(13, &scalar, NULL, 0, 0, 0, 1, &r), E_INVALIDARG, &r, "rank 0", NULL);
    int32_t s32[2] = {3, 3};
    dmlcl_int_array s = {DML_TENSOR_DATA_TYPE_INT32, 2, s32};
    dmlcl_onnx_split_args a = {.input = &in, .input_type = FLT, .split = &s};
    expect_fail(dmlcl_onnx_split(13, &a, &r), E_INVALIDARG, &r, "split has type INT32", NULL);
    expect_fail(dmlcl_onnx_split(12, &a, &r), DXGI_ERROR_UNSUPPORTED, &r, "Split-11", NULL);
}

/*
 * ONNX Split's split is a list of lengths, 1-D: its text is silent on the
 * rank, its shape inference flattens the values, and onnx.reference iterates
 * them (a 0-D split fails there), so dmlcl takes 1-D only.
 */
Test(onnx_split, split_is_1d)
{
    dmlcl_frontend_result r;
    dmlcl_shape in = shape(1, I64(6)), two = shape(1, I64(2)), scalar = shape(0);
    dmlcl_shape w[2] = {shape(1, I64(2)), shape(1, I64(4))};
    int64_t lengths[2] = {2, 4}, all[1] = {6};
    dmlcl_int_array s = {DML_TENSOR_DATA_TYPE_INT64, 2, lengths};
    dmlcl_int_array s1 = {DML_TENSOR_DATA_TYPE_INT64, 1, all};
    dmlcl_onnx_split_args a = {.input = &in, .input_type = FLT, .split = &s, .split_dims = &two};
    expect_result(dmlcl_onnx_split(13, &a, &r), &r, 2, w);
    a.split = &s1;
    a.split_dims = &scalar;
    expect_fail(dmlcl_onnx_split(13, &a, &r), E_INVALIDARG, &r,
                "ONNX Split-13: input split must be 1-D", "its shape is {} (rank 0)");
}

/* ---- Clearing -------------------------------------------------------------------------- */

Test(frontend_result, clear_is_harmless_everywhere)
{
    dmlcl_frontend_result r;
    memset(&r, 0, sizeof r);
    dmlcl_frontend_result_clear(&r);
    dmlcl_frontend_result_clear(&r);
    dmlcl_frontend_result_clear(NULL);
    /* A one-output front-end: no heap, one output shape. */
    dmlcl_shape data = shape(2, I64(3), I64(4));
    dmlcl_onnx_gather_args g = {.data = &data,
                                .data_type = FLT,
                                .indices = &(dmlcl_shape){0},
                                .indices_type = DML_TENSOR_DATA_TYPE_INT64};
    cr_assert_eq(dmlcl_onnx_gather(13, &g, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_count, 1);
    cr_expect_eq(r.output_shapes, &r.output_shape);
    cr_expect_eq(r.tensor_count, 3);
    cr_expect_null(r.heap);
    dmlcl_frontend_result_clear(&r);
    dmlcl_frontend_result_clear(&r);
    cr_expect_eq(r.output_count, 0);
    /* Every single-output front-end says so, whichever way it builds its output. */
    int64_t zero = 0, two = 2;
    dmlcl_int_array starts = {DML_TENSOR_DATA_TYPE_INT64, 1, &zero};
    dmlcl_int_array ends = {DML_TENSOR_DATA_TYPE_INT64, 1, &two};
    dmlcl_onnx_slice_args sl = {.data = &data, .data_type = FLT, .starts = &starts, .ends = &ends};
    cr_assert_eq(dmlcl_onnx_slice(13, &sl, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_count, 1);
    cr_expect_eq(r.output_shapes, &r.output_shape);
    cr_expect_eq(r.output_shapes[0].dims[0], 2);
    cr_expect_eq(r.tensor_count, 2);
    dmlcl_frontend_result_clear(&r);
}
