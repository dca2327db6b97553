/* SPDX-License-Identifier: MIT */
/*
 * The broadcast front-ends on the host: OpenVINO Broadcast-1/3 (the
 * Broadcast-1 document, OpenVINO's shape inference for what it leaves open)
 * and ONNX Expand-13 (numpy's bidirectional rule). Output shapes are worked
 * out by hand; every broken rule checks E_INVALIDARG (or
 * DXGI_ERROR_UNSUPPORTED for what dmlcl cannot hold) and that the message
 * names the input or attribute, its value and the rule. Accepted results
 * must create an operator.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "support.h"

#define I64 DML_TENSOR_DATA_TYPE_INT64

typedef struct call {
    dmlcl_shape data, target_dims, axes_dims;
    int64_t target[20], axes[20];
    dmlcl_int_array t, a;
    dmlcl_openvino_broadcast_args args;
    dmlcl_frontend_result r;
} call;

static call *setup(call *c, uint32_t rank, const int64_t *data, uint32_t nt, const int64_t *target,
                   const char *mode)
{
    memset(c, 0, sizeof *c);
    c->data.rank = rank;
    memcpy(c->data.dims, data, rank * sizeof *data);
    memcpy(c->target, target, nt * sizeof *target);
    c->t = (dmlcl_int_array){I64, nt, c->target};
    c->args = (dmlcl_openvino_broadcast_args){.data = &c->data,
                                              .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                              .target_shape = &c->t,
                                              .mode = mode};
    return c;
}

static void with_axes(call *c, uint32_t n, const int64_t *axes)
{
    memcpy(c->axes, axes, n * sizeof *axes);
    c->a = (dmlcl_int_array){I64, n, c->axes};
    c->args.axes_mapping = &c->a;
}

/* Opsets 1 and 2 run Broadcast-1; 3 and later Broadcast-3. */
static HRESULT v1(call *c)
{
    return dmlcl_openvino_broadcast(1, &c->args, &c->r);
}

static HRESULT v3(call *c)
{
    return dmlcl_openvino_broadcast(3, &c->args, &c->r);
}

/* ONNX Expand-13 of c's data to the values of shape (1-D). */
static HRESULT expand(call *c, DML_TENSOR_DATA_TYPE type, const dmlcl_int_array *shape)
{
    dmlcl_onnx_expand_args a = {.input = &c->data, .input_type = type, .shape = shape};
    return dmlcl_onnx_expand(13, &a, &c->r);
}

/* S_OK, the output shape, and an operator that the description creates. */
static void expect_shape(HRESULT hr, const dmlcl_frontend_result *r, uint32_t rank,
                         const int64_t *dims, int line)
{
    cr_assert(SUCCEEDED(hr), "line %d: %s: %s", line, dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_expect_eq(r->output_shape.rank, rank, "line %d: rank %u, expected %u", line,
                 r->output_shape.rank, rank);
    for (uint32_t i = 0; i < rank; ++i)
        cr_expect_eq(r->output_shape.dims[i], dims[i], "line %d: dim %u is %lld, expected %lld",
                     line, i, (long long)r->output_shape.dims[i], (long long)dims[i]);
    dmlcl_operator *op = NULL;
    hr = dmlcl_operator_create(NULL, &r->desc, &op);
    cr_expect(SUCCEEDED(hr), "line %d: operator: %s", line, dmlcl_last_error());
    dmlcl_operator_release(op);
}

#define SHAPE(hr, c, ...)                                                             \
    do {                                                                              \
        const int64_t want_[] = {__VA_ARGS__};                                        \
        expect_shape((hr), &(c)->r, sizeof want_ / sizeof want_[0], want_, __LINE__); \
    } while (0)
#define FAILS(hr, want, ...)                                   \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static const int64_t t1_16_50_50[4] = {1, 16, 50, 50};

Test(broadcast_frontend, document_examples)
{
    call c;
    const int64_t d1[3] = {16, 1, 1}, d2[1] = {16}, d3[2] = {50, 50}, t3[4] = {1, 50, 50, 16};
    const int64_t ax2[1] = {1}, ax3[2] = {1, 2};
    SHAPE(v1(setup(&c, 3, d1, 4, t1_16_50_50, "numpy")), &c, 1, 16, 50, 50);
    cr_expect_eq(c.r.op.broadcast.Mode, DMLCL_BROADCAST_MODE_NUMPY);
    SHAPE(v1(setup(&c, 3, d1, 4, t1_16_50_50, NULL)), &c, 1, 16, 50, 50); /* default numpy */
    setup(&c, 1, d2, 4, t1_16_50_50, "explicit");
    with_axes(&c, 1, ax2);
    SHAPE(v1(&c), &c, 1, 16, 50, 50);
    cr_expect_eq(c.r.op.broadcast.AxesMappingCount, 1);
    cr_expect_eq(c.r.op.broadcast.AxesMapping[0], 1);
    setup(&c, 2, d3, 4, t3, "explicit");
    with_axes(&c, 2, ax3);
    SHAPE(v1(&c), &c, 1, 50, 50, 16);
    /* The same through Broadcast-3, which keeps Broadcast-1's modes. */
    SHAPE(v3(&c), &c, 1, 50, 50, 16);
}

Test(broadcast_frontend, bidirectional)
{
    call c;
    const int64_t d[3] = {16, 1, 1}, t[3] = {1, 1, 50}, d2[2] = {3, 1}, t2[1] = {4},
                  t3[3] = {2, 1, 1}, one[1] = {1}, zero[1] = {0};
    SHAPE(v3(setup(&c, 3, d, 3, t, "bidirectional")), &c, 16, 1, 50);
    SHAPE(v3(setup(&c, 2, d2, 1, t2, "bidirectional")), &c, 3, 4);
    SHAPE(v3(setup(&c, 2, d2, 3, t3, "bidirectional")), &c, 2, 3, 1);
    /* numpy: 1 against 0 is 0 (OpenVINO's evaluate gives 1; see the front-end). */
    SHAPE(v3(setup(&c, 1, one, 1, zero, "bidirectional")), &c, 0);
    SHAPE(v3(setup(&c, 1, zero, 1, one, "bidirectional")), &c, 0);
    const int64_t bad[1] = {5}, d3[2] = {3, 2};
    SHAPE(v3(setup(&c, 2, d2, 1, bad, "bidirectional")), &c, 3, 5);
    FAILS(v3(setup(&c, 2, d3, 1, bad, "bidirectional")), E_INVALIDARG, "data dimension 1 (2)",
          "target_shape[0] (5)", "equal or one of them 1");
    FAILS(v1(setup(&c, 2, d3, 1, bad, "bidirectional")), E_INVALIDARG,
          "Broadcast-1: attribute mode (\"bidirectional\")", "Broadcast-3's");
}

/* Opsets 1-2 run Broadcast-1, 3 and later Broadcast-3; Expand-8 is not in dmlcl. */
Test(broadcast_frontend, opsets)
{
    call c;
    const int64_t d[2] = {3, 1}, t[2] = {1, 4};
    setup(&c, 2, d, 2, t, "bidirectional");
    FAILS(dmlcl_openvino_broadcast(2, &c.args, &c.r), E_INVALIDARG,
          "OpenVINO Broadcast-1: attribute mode (\"bidirectional\")");
    SHAPE(dmlcl_openvino_broadcast(3, &c.args, &c.r), &c, 3, 4);
    SHAPE(dmlcl_openvino_broadcast(15, &c.args, &c.r), &c, 3, 4);
    FAILS(dmlcl_openvino_broadcast(0, &c.args, &c.r), E_INVALIDARG, "opset (0)", "at least 1");
    dmlcl_onnx_expand_args e = {
        .input = &c.data, .input_type = DML_TENSOR_DATA_TYPE_FLOAT32, .shape = &c.t};
    SHAPE(dmlcl_onnx_expand(21, &e, &c.r), &c, 3, 4);
    FAILS(dmlcl_onnx_expand(12, &e, &c.r), DXGI_ERROR_UNSUPPORTED, "ONNX Expand-8 (opset 12)",
          "version 13");
    FAILS(dmlcl_onnx_expand(7, &e, &c.r), E_INVALIDARG, "ONNX Expand: opset (7)", "at least 8");
    FAILS(dmlcl_onnx_expand(13, NULL, &c.r), E_POINTER, "args (NULL)");
}

Test(broadcast_frontend, onnx_expand)
{
    call c;
    const int64_t d[3] = {16, 1, 1}, t[3] = {1, 1, 50};
    setup(&c, 3, d, 3, t, NULL);
    SHAPE(expand(&c, DML_TENSOR_DATA_TYPE_FLOAT32, &c.t), &c, 16, 1, 50);
    cr_expect_eq(c.r.op.broadcast.Mode, DMLCL_BROADCAST_MODE_BIDIRECTIONAL);
    /* 0-D input, shape [2, 0]: empty output. */
    const int64_t t2[2] = {2, 0};
    setup(&c, 0, d, 2, t2, NULL);
    SHAPE(expand(&c, DMLCL_TENSOR_DATA_TYPE_BOOLEAN, &c.t), &c, 2, 0);
    cr_expect_eq(c.r.buffers[1].TotalTensorSizeInBytes, 0);
    cr_expect_eq(c.r.buffers[0].DimensionCount, 1);
    int32_t i32[1] = {4};
    dmlcl_int_array wrong = {DML_TENSOR_DATA_TYPE_INT32, 1, i32};
    FAILS(expand(&c, DML_TENSOR_DATA_TYPE_FLOAT32, &wrong), E_INVALIDARG,
          "Expand-13: input shape has type INT32", "INT64");
    const int64_t t3[2] = {3, -1};
    setup(&c, 1, d, 2, t3, NULL);
    FAILS(expand(&c, DML_TENSOR_DATA_TYPE_FLOAT32, &c.t), E_INVALIDARG, "shape[1] (-1)", ">= 0");
    FAILS(expand(&c, DMLCL_TENSOR_DATA_TYPE_STRING, &c.t), DXGI_ERROR_UNSUPPORTED, "STRING");
}

Test(broadcast_frontend, scalars_and_empty)
{
    call c;
    const int64_t none[1] = {0}, t[3] = {2, 1, 3}, tz[3] = {2, 0, 3}, ax1[1] = {1};
    /* 0-D data, numpy, target [] -> 0-D output, described as {1} and {1}. */
    expect_shape(v1(setup(&c, 0, none, 0, none, "numpy")), &c.r, 0, none, __LINE__);
    cr_expect_eq(c.r.buffers[1].DimensionCount, 1);
    cr_expect_eq(c.r.sizes[1][0], 1);
    SHAPE(v1(setup(&c, 0, none, 3, t, "numpy")), &c, 2, 1, 3);
    /* explicit with a 0-D data: no axes, or one whose target dimension is 1. */
    setup(&c, 0, none, 3, t, "explicit");
    with_axes(&c, 0, none);
    SHAPE(v1(&c), &c, 2, 1, 3);
    with_axes(&c, 1, ax1);
    SHAPE(v1(&c), &c, 2, 1, 3);
    const int64_t ax0[1] = {0};
    with_axes(&c, 1, ax0);
    FAILS(v1(&c), E_INVALIDARG, "target_shape[0] (2) must be 1", "0-D data");
    /* Zero-size target dimensions: an empty output, a valid operator. */
    const int64_t d[2] = {1, 3};
    SHAPE(v3(setup(&c, 2, d, 3, tz, "numpy")), &c, 2, 0, 3);
    cr_expect_eq(c.r.buffers[1].TotalTensorSizeInBytes, 0);
    const int64_t dz[2] = {0, 3}, t1[2] = {1, 3};
    FAILS(v1(setup(&c, 2, dz, 2, t1, "numpy")), E_INVALIDARG, "data dimension 0 (0)",
          "target_shape[0] (1)");
}

Test(broadcast_frontend, target_shape_rules)
{
    call c;
    const int64_t d[1] = {3}, t[2] = {2, 3};
    setup(&c, 1, d, 2, t, "numpy");
    c.target_dims = (dmlcl_shape){2, {1, 2}};
    c.args.target_shape_dims = &c.target_dims;
    FAILS(v1(&c), E_INVALIDARG, "input target_shape must be 1-D", "{1,2}");
    c.target_dims = (dmlcl_shape){1, {3}};
    FAILS(v1(&c), E_INVALIDARG, "target_shape has shape {3} but holds 2 values");
    c.target_dims = (dmlcl_shape){1, {2}};
    SHAPE(v1(&c), &c, 2, 3);
    float f[2] = {2, 3};
    dmlcl_int_array ft = {DML_TENSOR_DATA_TYPE_FLOAT32, 2, f};
    c.args.target_shape = &ft;
    FAILS(v1(&c), E_INVALIDARG, "input target_shape has type FLOAT32", "integer type");
    c.args.target_shape = NULL;
    FAILS(v3(&c), E_INVALIDARG, "Broadcast-3: input target_shape (NULL) is required");
    /* Any integer type. */
    uint8_t u8[2] = {2, 3};
    int16_t i16[2] = {2, 3};
    uint64_t u64[2] = {2, 3};
    dmlcl_int_array a8 = {DML_TENSOR_DATA_TYPE_UINT8, 2, u8};
    dmlcl_int_array a16 = {DML_TENSOR_DATA_TYPE_INT16, 2, i16};
    dmlcl_int_array a64 = {DML_TENSOR_DATA_TYPE_UINT64, 2, u64};
    c.args.target_shape = &a8;
    SHAPE(v1(&c), &c, 2, 3);
    c.args.target_shape = &a16;
    SHAPE(v1(&c), &c, 2, 3);
    c.args.target_shape = &a64;
    SHAPE(v1(&c), &c, 2, 3);
    u64[0] = UINT64_MAX;
    FAILS(v1(&c), DXGI_ERROR_UNSUPPORTED, "beyond DirectML's UINT sizes");
    const int64_t huge[3] = {65536, 65536, 3};
    FAILS(v1(setup(&c, 1, d, 3, huge, "numpy")), DXGI_ERROR_UNSUPPORTED,
          "output shape {65536,65536,3}", "elements");
    const int64_t neg[2] = {-2, 3};
    FAILS(v1(setup(&c, 1, d, 2, neg, "numpy")), E_INVALIDARG, "target_shape[0] (-2)");
    int64_t many[17];
    for (int i = 0; i < 17; ++i)
        many[i] = 1;
    FAILS(v1(setup(&c, 1, d, 17, many, "numpy")), DXGI_ERROR_UNSUPPORTED, "17 values",
          "at most 16");
}

/*
 * The shape inputs are 1-D, never 0-D: OpenVINO's shape inference wants rank 1
 * for target_shape and (explicit) axes_mapping (broadcast_shape_inference.hpp),
 * ONNX Expand's shape is "A 1-D tensor".
 */
Test(broadcast_frontend, shape_inputs_are_1d)
{
    call c;
    const int64_t d[1] = {3}, t[1] = {3}, ax[1] = {0};
    dmlcl_shape scalar = {0, {0}}, one = {1, {1}};
    setup(&c, 1, d, 1, t, "numpy");
    c.args.target_shape_dims = &one;
    SHAPE(v3(&c), &c, 3);
    c.args.target_shape_dims = &scalar;
    FAILS(v3(&c), E_INVALIDARG, "OpenVINO Broadcast-3: input target_shape must be 1-D",
          "its shape is {} (rank 0)");
    setup(&c, 1, d, 1, t, "explicit");
    with_axes(&c, 1, ax);
    c.args.axes_mapping_dims = &one;
    SHAPE(v1(&c), &c, 3);
    c.args.axes_mapping_dims = &scalar;
    FAILS(v1(&c), E_INVALIDARG, "OpenVINO Broadcast-1: input axes_mapping must be 1-D",
          "its shape is {} (rank 0)");
    setup(&c, 1, d, 1, t, NULL);
    dmlcl_onnx_expand_args e = {
        .input = &c.data, .input_type = DML_TENSOR_DATA_TYPE_FLOAT32, .shape = &c.t};
    e.shape_dims = &one;
    SHAPE(dmlcl_onnx_expand(13, &e, &c.r), &c, 3);
    e.shape_dims = &scalar;
    FAILS(dmlcl_onnx_expand(13, &e, &c.r), E_INVALIDARG, "ONNX Expand-13: input shape must be 1-D",
          "its shape is {} (rank 0)");
}

Test(broadcast_frontend, numpy_rules)
{
    call c;
    const int64_t d[3] = {2, 3, 4}, t2[2] = {3, 4}, t3[3] = {2, 5, 4};
    FAILS(v1(setup(&c, 3, d, 2, t2, "numpy")), E_INVALIDARG, "target_shape has 2 value(s)",
          "rank of data {2,3,4} (3)");
    FAILS(v3(setup(&c, 3, d, 3, t3, "numpy")), E_INVALIDARG, "data dimension 1 (3)",
          "target_shape[1] (5)", "must be 1 or 5");
    const int64_t ax[3] = {0, 1, 2};
    setup(&c, 3, d, 3, d, "numpy");
    with_axes(&c, 3, ax);
    FAILS(v1(&c), E_INVALIDARG, "input axes_mapping is given, but mode is \"numpy\"");
    FAILS(v3(&c), E_INVALIDARG, "input axes_mapping is given, but mode is \"numpy\"");
    c.args.mode = "bidirectional";
    FAILS(v3(&c), E_INVALIDARG, "mode is \"bidirectional\"");
    c.args.mode = "pdpd";
    FAILS(v3(&c), E_INVALIDARG, "attribute mode (\"pdpd\")", "\"explicit\" or \"bidirectional\"");
    FAILS(v1(&c), E_INVALIDARG, "attribute mode (\"pdpd\")", "\"numpy\" or \"explicit\"");
}

Test(broadcast_frontend, explicit_rules)
{
    call c;
    const int64_t d[2] = {3, 4}, t[3] = {2, 3, 4};
    setup(&c, 2, d, 3, t, "explicit");
    FAILS(v1(&c), E_INVALIDARG, "mode \"explicit\" needs input axes_mapping");
    const int64_t ok[2] = {1, 2}, short1[1] = {1}, unsorted[2] = {2, 1}, dup[2] = {1, 1},
                  oob[2] = {1, 3}, negative[2] = {-1, 2}, mismatch[2] = {0, 2};
    with_axes(&c, 2, ok);
    SHAPE(v1(&c), &c, 2, 3, 4);
    c.axes_dims = (dmlcl_shape){2, {1, 2}};
    c.args.axes_mapping_dims = &c.axes_dims;
    FAILS(v1(&c), E_INVALIDARG, "input axes_mapping must be 1-D");
    c.args.axes_mapping_dims = NULL;
    with_axes(&c, 1, short1);
    FAILS(v1(&c), E_INVALIDARG, "axes_mapping has 1 value(s)", "one per data dimension (2)");
    with_axes(&c, 2, unsorted);
    FAILS(v1(&c), E_INVALIDARG, "axes_mapping[1] (1) must be greater than axes_mapping[0] (2)",
          "sorted");
    with_axes(&c, 2, dup);
    FAILS(v1(&c), E_INVALIDARG, "axes_mapping[1] (1)", "strictly increasing");
    with_axes(&c, 2, oob);
    FAILS(v1(&c), E_INVALIDARG, "axes_mapping[1] (3)", "[0, 3)");
    with_axes(&c, 2, negative);
    FAILS(v1(&c), E_INVALIDARG, "axes_mapping[0] (-1)");
    with_axes(&c, 2, mismatch);
    FAILS(v1(&c), E_INVALIDARG, "data dimension 0 (3)", "target_shape[0] (2)",
          "target_shape[axes_mapping[0]]");
    float f[2] = {1, 2};
    dmlcl_int_array fa = {DML_TENSOR_DATA_TYPE_FLOAT32, 2, f};
    c.args.axes_mapping = &fa;
    FAILS(v1(&c), E_INVALIDARG, "input axes_mapping has type FLOAT32");
    /* A data dimension of 1 broadcasts wherever it lands. */
    const int64_t d1[2] = {1, 4}, ax01[2] = {0, 2};
    setup(&c, 2, d1, 3, t, "explicit");
    with_axes(&c, 2, ax01);
    SHAPE(v3(&c), &c, 2, 3, 4);
}

Test(broadcast_frontend, data_rules)
{
    call c;
    const int64_t d[1] = {-3}, t[1] = {3};
    FAILS(v1(setup(&c, 1, d, 1, t, "numpy")), E_INVALIDARG, "input data dimension 0 (-3)");
    setup(&c, 1, t, 1, t, "numpy");
    c.data.rank = 17;
    FAILS(v1(&c), DXGI_ERROR_UNSUPPORTED, "rank 17");
    setup(&c, 1, t, 1, t, "numpy");
    c.args.data = NULL;
    FAILS(v1(&c), E_POINTER, "the shape of input data (NULL)");
    FAILS(dmlcl_openvino_broadcast(1, NULL, &c.r), E_POINTER, "args (NULL)");
    setup(&c, 1, t, 1, t, "numpy");
    c.args.data_type = DMLCL_TENSOR_DATA_TYPE_STRING;
    FAILS(v1(&c), DXGI_ERROR_UNSUPPORTED, "STRING");
    c.args.data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    FAILS(v1(&c), E_INVALIDARG, "data type (UNKNOWN)");
    c.args.data_type = DMLCL_TENSOR_DATA_TYPE_COMPLEX128;
    SHAPE(v1(&c), &c, 3);
}
