/* SPDX-License-Identifier: MIT */
/*
 * The pad and roll front-ends on the host: OpenVINO Pad-1/Pad-12 and
 * Roll-7, ONNX Pad-18/Pad-19. Each rule of the specifications is broken
 * once (HRESULT and a message naming the version and the input), and the
 * shapes and descriptors of valid calls are checked against values worked
 * out by hand from the texts.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "support.h"

static const dmlcl_shape d34 = {2, {3, 4}};

static dmlcl_int_array i64(uint64_t n, const int64_t *v)
{
    return (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, n, v};
}

static dmlcl_openvino_pad_args ov_args(const dmlcl_int_array *b, const dmlcl_int_array *e,
                                       const char *mode)
{
    return (dmlcl_openvino_pad_args){.data = &d34,
                                     .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                     .pads_begin = b,
                                     .pads_end = e,
                                     .pad_mode = mode};
}

Test(pad_frontend, openvino_pad_shapes_and_versions)
{
    dmlcl_frontend_result r;
    const int64_t b[2] = {2, -1}, e[2] = {-1, 3};
    dmlcl_int_array pb = i64(2, b), pe = i64(2, e);
    dmlcl_openvino_pad_args a = ov_args(&pb, &pe, "reflect");
    cr_assert_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.rank, 2u);
    cr_expect_eq(r.output_shape.dims[0], 4);
    cr_expect_eq(r.output_shape.dims[1], 6);
    cr_expect_eq(r.desc.Type, DMLCL_OPERATOR_PAD);
    cr_expect_eq(r.op.pad.StartPadding[1], -1);
    cr_expect_eq(r.op.pad.PaddingMode, DML_PADDING_MODE_REFLECTION);
    unit_expect_error(dmlcl_openvino_pad(1, &a, &r), E_INVALIDARG, "Pad-1", "pads_begin[1] (-1)");
    unit_expect_error(dmlcl_openvino_pad(0, &a, &r), E_INVALIDARG, "Pad", "opset (0)");
    /* Crops past the whole dimension: max(..., 0). */
    const int64_t cb[2] = {-3, 0}, ce[2] = {-2, 0};
    dmlcl_int_array cpb = i64(2, cb), cpe = i64(2, ce);
    a = ov_args(&cpb, &cpe, "constant");
    cr_assert_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.dims[0], 0);
    /* Any integer type for the pads. */
    const uint8_t ub[2] = {1, 0}, ue[2] = {0, 2};
    dmlcl_int_array u8b = {DML_TENSOR_DATA_TYPE_UINT8, 2, ub},
                    u8e = {DML_TENSOR_DATA_TYPE_UINT8, 2, ue};
    a = ov_args(&u8b, &u8e, "edge");
    cr_assert_eq(dmlcl_openvino_pad(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.dims[1], 6);
}

Test(pad_frontend, openvino_pad_rules)
{
    dmlcl_frontend_result r;
    const int64_t z[2] = {0, 0}, b4[2] = {0, 4}, e3[2] = {3, 0}, one[1] = {1};
    dmlcl_int_array pz = i64(2, z), p4 = i64(2, b4), p3 = i64(2, e3), p1 = i64(1, one);
    dmlcl_openvino_pad_args a = ov_args(&p4, &pz, "reflect");
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pads_begin[1] (4)");
    a = ov_args(&p4, &pz, "symmetric");
    cr_expect_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "symmetric allows data.shape[D]: %s",
                 dmlcl_last_error());
    a = ov_args(&pz, &p3, "reflect");
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pads_end[0] (3)");
    a = ov_args(&p1, &pz, "constant");
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pads_begin");
    a = ov_args(&pz, &pz, NULL);
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pad_mode");
    a = ov_args(&pz, &pz, "wrap");
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pad_mode (wrap)");
    float v = 1.5f;
    dmlcl_shape vec = {1, {1}};
    a = ov_args(&pz, &pz, "constant");
    a.pad_value = &v;
    a.pad_value_type = DML_TENSOR_DATA_TYPE_FLOAT32;
    a.pad_value_dims = &vec;
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pad_value");
    a.pad_value_dims = NULL;
    a.pad_value_type = DML_TENSOR_DATA_TYPE_FLOAT16;
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "pad_value");
    a.pad_value_type = DML_TENSOR_DATA_TYPE_FLOAT32;
    cr_assert_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect(!memcmp(r.value, &v, sizeof v), "the value is copied into the result");
    /* Edge on an empty dimension: nothing to repeat. */
    dmlcl_shape empty = {2, {0, 4}};
    const int64_t eb[2] = {1, 0};
    dmlcl_int_array peb = i64(2, eb);
    a = ov_args(&peb, &pz, "edge");
    a.data = &empty;
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG, "Pad-12", "dimension 0");
}

Test(pad_frontend, onnx_pad_rules)
{
    dmlcl_frontend_result r;
    const int64_t pads[4] = {1, 0, 2, 3}, two[2] = {1, 2}, ax[1] = {-1}, dup[2] = {1, -1};
    dmlcl_int_array p = i64(4, pads), p2 = i64(2, two), a1 = i64(1, ax), ad = i64(2, dup);
    dmlcl_onnx_pad_args a = {.data = &d34, .data_type = DML_TENSOR_DATA_TYPE_INT8, .pads = &p};
    cr_assert_eq(dmlcl_onnx_pad(18, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.dims[0], 6); /* 1 + 3 + 2 */
    cr_expect_eq(r.output_shape.dims[1], 7); /* 0 + 4 + 3 */
    a.pads = &p2;
    a.axes = &a1;
    cr_assert_eq(dmlcl_onnx_pad(19, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.dims[0], 3);
    cr_expect_eq(r.output_shape.dims[1], 7);
    a.axes = &ad;
    a.pads = &p;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "axes[1] (-1)");
    a.axes = NULL;
    a.pads = &p2;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "pads");
    const int32_t p32[4] = {0, 0, 0, 0};
    dmlcl_int_array pi32 = {DML_TENSOR_DATA_TYPE_INT32, 4, p32};
    a.pads = &pi32;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "INT64");
    a.pads = &p;
    a.mode = "wrap";
    unit_expect_error(dmlcl_onnx_pad(18, &a, &r), E_INVALIDARG, "Pad-18", "wrap");
    cr_expect_eq(dmlcl_onnx_pad(19, &a, &r), S_OK, "%s", dmlcl_last_error());
    a.mode = "symmetric";
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "mode");
    a.mode = NULL;
    const int64_t big[1] = {2};
    dmlcl_int_array ab = i64(1, big);
    a.axes = &ab;
    a.pads = &p2;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "axes[0] (2)");
    const int16_t a16[1] = {0};
    dmlcl_int_array ai16 = {DML_TENSOR_DATA_TYPE_INT16, 1, a16};
    a.axes = &ai16;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "axes");
    a.axes = NULL;
    a.pads = &p;
    int8_t v = -3;
    dmlcl_shape one = {1, {1}}, two_d = {1, {2}};
    a.constant_value = &v;
    a.constant_value_type = DML_TENSOR_DATA_TYPE_INT8;
    a.constant_value_dims = &one;
    cr_expect_eq(dmlcl_onnx_pad(19, &a, &r), S_OK, "one element in 1-D: %s", dmlcl_last_error());
    a.constant_value_dims = &two_d;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "constant_value");
    a.constant_value_dims = NULL;
    a.constant_value_type = DML_TENSOR_DATA_TYPE_UINT8;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), E_INVALIDARG, "Pad-19", "constant_value");
    unit_expect_error(dmlcl_onnx_pad(13, &a, &r), DXGI_ERROR_UNSUPPORTED, "Pad-13", "18");
    unit_expect_error(dmlcl_onnx_pad(0, &a, &r), E_INVALIDARG, "Pad", "opset (0)");
}

Test(pad_frontend, openvino_roll)
{
    dmlcl_frontend_result r;
    const dmlcl_shape d = {2, {4, 3}};
    const int64_t s3[3] = {1, 2, 1}, a3[3] = {0, 1, 0}, s1[1] = {-1}, a2[2] = {0, -1};
    dmlcl_int_array sh = i64(3, s3), ax = i64(3, a3), one = i64(1, s1), ax2 = i64(2, a2);
    dmlcl_openvino_roll_args a = {
        .data = &d, .data_type = DML_TENSOR_DATA_TYPE_INT32, .shift = &sh, .axes = &ax};
    cr_assert_eq(dmlcl_openvino_roll(7, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.desc.Type, DMLCL_OPERATOR_ROLL);
    cr_expect_eq(r.op.roll.Shifts[0], 2, "repeated axis 0: 1 + 1");
    cr_expect_eq(r.op.roll.Shifts[1], 2);
    dmlcl_shape scalar = {0, {0}};
    a.shift = &one;
    a.shift_dims = &scalar;
    a.axes = &ax2;
    cr_assert_eq(dmlcl_openvino_roll(7, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.op.roll.Shifts[0], 3, "-1 mod 4");
    cr_expect_eq(r.op.roll.Shifts[1], 2, "-1 mod 3");
    /* Extreme shifts meeting on one axis: reduced, no overflow. */
    const int64_t ext[2] = {INT64_MAX, INT64_MAX}, same[2] = {1, 1};
    dmlcl_int_array se = i64(2, ext), as = i64(2, same);
    a.shift = &se;
    a.shift_dims = NULL;
    a.axes = &as;
    cr_assert_eq(dmlcl_openvino_roll(7, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.op.roll.Shifts[1], (int64_t)(((__int128)INT64_MAX * 2) % 3));
    a.shift = &sh;
    a.axes = &ax2;
    unit_expect_error(dmlcl_openvino_roll(7, &a, &r), E_INVALIDARG, "Roll-7", "shift");
    const int64_t bad[1] = {-3};
    dmlcl_int_array ab = i64(1, bad);
    a.shift = &one;
    a.axes = &ab;
    unit_expect_error(dmlcl_openvino_roll(7, &a, &r), E_INVALIDARG, "Roll-7", "axes[0] (-3)");
    const uint8_t u[1] = {0};
    dmlcl_int_array au = {DML_TENSOR_DATA_TYPE_UINT8, 1, u};
    a.axes = &au;
    unit_expect_error(dmlcl_openvino_roll(7, &a, &r), E_INVALIDARG, "Roll-7", "axes");
    dmlcl_shape zero_d = {0, {0}};
    a.axes = &ax2;
    a.data = &zero_d;
    unit_expect_error(dmlcl_openvino_roll(7, &a, &r), E_INVALIDARG, "Roll-7", "rank");
    unit_expect_error(dmlcl_openvino_roll(6, &a, &r), E_INVALIDARG, "Roll", "opset (6)");
}

/*
 * The shapes of the scalar and 1-D inputs, as each framework's shape
 * inference takes them. OpenVINO (pad_shape_inference.hpp,
 * roll_shape_inference.hpp): pad_value has rank 0, checked only in constant
 * mode; shift and axes have rank 0 or 1, and a 1-D shift needs axes 1-D of
 * its length. ONNX Pad: constant_value one element (0-D, or {1} as
 * onnx.reference's numpy.pad reads it).
 */
Test(pad_frontend, scalar_and_1d_input_shapes)
{
    dmlcl_frontend_result r;
    const int64_t z[2] = {0, 0}, pads[4] = {1, 0, 2, 3};
    dmlcl_int_array pz = i64(2, z), p = i64(4, pads);
    dmlcl_shape scalar = {0, {0}}, one = {1, {1}}, one_one = {2, {1, 1}};
    float v = 2.5f;
    dmlcl_openvino_pad_args a = ov_args(&pz, &pz, "constant");
    a.pad_value = &v;
    a.pad_value_type = DML_TENSOR_DATA_TYPE_FLOAT32;
    a.pad_value_dims = &scalar;
    cr_expect_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "0-D pad_value: %s", dmlcl_last_error());
    a.pad_value_dims = &one;
    unit_expect_error(dmlcl_openvino_pad(12, &a, &r), E_INVALIDARG,
                      "OpenVINO Pad-12: input pad_value must be a scalar", "its shape is {1}");
    a.pad_mode = "edge";
    cr_expect_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "pad_value ignored outside constant: %s",
                 dmlcl_last_error());

    int8_t c = 7;
    dmlcl_onnx_pad_args o = {.data = &d34,
                             .data_type = DML_TENSOR_DATA_TYPE_INT8,
                             .pads = &p,
                             .constant_value = &c,
                             .constant_value_type = DML_TENSOR_DATA_TYPE_INT8,
                             .constant_value_dims = &scalar};
    cr_expect_eq(dmlcl_onnx_pad(19, &o, &r), S_OK, "0-D constant_value: %s", dmlcl_last_error());
    o.constant_value_dims = &one_one;
    unit_expect_error(dmlcl_onnx_pad(19, &o, &r), E_INVALIDARG,
                      "ONNX Pad-19: input constant_value must be a scalar (or hold one element)",
                      "its shape is {1,1}");
    o.constant_value_dims = NULL;
    o.pads_dims = &one_one;
    unit_expect_error(dmlcl_onnx_pad(19, &o, &r), E_INVALIDARG,
                      "ONNX Pad-19: input pads must be 1-D", "(rank 2)");

    const dmlcl_shape d = {2, {4, 3}};
    const int64_t s1[1] = {1}, a1[1] = {0};
    dmlcl_int_array shift = i64(1, s1), axes = i64(1, a1);
    dmlcl_openvino_roll_args ra = {.data = &d,
                                   .data_type = DML_TENSOR_DATA_TYPE_INT32,
                                   .shift = &shift,
                                   .shift_dims = &scalar,
                                   .axes = &axes,
                                   .axes_dims = &scalar};
    cr_expect_eq(dmlcl_openvino_roll(7, &ra, &r), S_OK, "0-D shift and axes: %s",
                 dmlcl_last_error());
    ra.shift_dims = &one;
    ra.axes_dims = &one;
    cr_expect_eq(dmlcl_openvino_roll(7, &ra, &r), S_OK, "{1} shift and axes: %s",
                 dmlcl_last_error());
    ra.axes_dims = &scalar;
    unit_expect_error(dmlcl_openvino_roll(7, &ra, &r), E_INVALIDARG,
                      "OpenVINO Roll-7: shift is 1-D with 1 values", "(it is 0-D with 1)");
    ra.shift_dims = &one_one;
    unit_expect_error(dmlcl_openvino_roll(7, &ra, &r), E_INVALIDARG,
                      "OpenVINO Roll-7: input shift must be 0-D or 1-D", "its shape is {1,1}");
    ra.shift_dims = &scalar;
    ra.axes_dims = &one_one;
    unit_expect_error(dmlcl_openvino_roll(7, &ra, &r), E_INVALIDARG,
                      "OpenVINO Roll-7: input axes must be 0-D or 1-D", "its shape is {1,1}");
}

/*
 * More copies than PAD and ROLL run (DMLI_PAD_MAX_STEPS, 16384): the front-end
 * refuses what dmlcl_operator_create would, naming the framework's operator.
 * Reflect by 1 on dimensions of 2 gives 3 segments each: 3^8 = 6561 regions
 * (every pad under the input size of 8 dimensions) run, 3^9 = 19683 do not; a
 * roll of every dimension gives 2^k: 2^14 run, 2^15 do not.
 */
Test(pad_frontend, step_limit_refused_by_the_front_ends)
{
    dmlcl_frontend_result r;
    int64_t ones[18];
    for (int i = 0; i < 18; ++i)
        ones[i] = 1;
    dmlcl_shape d8 = {8, {2, 2, 2, 2, 2, 2, 2, 2}}, d9 = {9, {2, 2, 2, 2, 2, 2, 2, 2, 2}};
    dmlcl_int_array p16 = i64(16, ones), p18 = i64(18, ones);
    dmlcl_onnx_pad_args a = {
        .data = &d8, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .pads = &p16, .mode = "reflect"};
    cr_assert_eq(dmlcl_onnx_pad(19, &a, &r), S_OK, "%s", dmlcl_last_error());
    dmlcl_frontend_result_clear(&r);
    a.data = &d9;
    a.pads = &p18;
    unit_expect_error(dmlcl_onnx_pad(19, &a, &r), DXGI_ERROR_UNSUPPORTED, "ONNX Pad-19",
                      "more than 16384 regions");
    dmlcl_frontend_result_clear(&r);
    dmlcl_shape d15 = {15, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}};
    int64_t axes[15];
    for (int i = 0; i < 15; ++i)
        axes[i] = i;
    dmlcl_int_array sh = i64(15, ones), ax = i64(15, axes);
    dmlcl_openvino_roll_args ra = {
        .data = &d15, .data_type = DML_TENSOR_DATA_TYPE_INT8, .shift = &sh, .axes = &ax};
    unit_expect_error(dmlcl_openvino_roll(7, &ra, &r), DXGI_ERROR_UNSUPPORTED, "Roll-7",
                      "more than 16384 regions");
    dmlcl_frontend_result_clear(&r);
}
