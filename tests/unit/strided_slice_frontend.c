/* SPDX-License-Identifier: MIT */
/*
 * The slice front-ends on the host: OpenVINO StridedSlice-1 and ONNX
 * Slice-13. Output shapes are worked out by hand from the specifications
 * (and, where they are unclear, from OpenVINO's CPU plugin and onnx.reference
 * runs recorded in the conformance cases); every validation rule has a test
 * that checks the HRESULT and that the message names the input or attribute.
 * The descriptions the front-ends fill must create an operator, and its plan
 * must start at the element worked out by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "dmlcl/frontends.h"
#include "internal.h"
#include "support.h"

#define N(a) ((uint64_t)(sizeof(a) / sizeof((a)[0])))

static dmlcl_int_array i64(const int64_t *v, uint64_t n)
{
    return (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, n, v};
}

static dmlcl_shape shape(uint32_t rank, const int64_t *dims)
{
    dmlcl_shape s = {rank, {0}};
    for (uint32_t i = 0; i < rank; ++i)
        s.dims[i] = dims[i];
    return s;
}

/* One StridedSlice-1 call; mask lists of any length (count -1: absent). */
typedef struct ov_call {
    dmlcl_shape data;
    DML_TENSOR_DATA_TYPE type;
    dmlcl_int_array begin, end, stride;
    bool has_stride;
    dmlcl_int_array masks[5];
    bool has_mask[5];
} ov_call;

static void ov_init(ov_call *c, uint32_t rank, const int64_t *dims, uint64_t m, const int64_t *b,
                    const int64_t *e, const int64_t *s)
{
    memset(c, 0, sizeof *c);
    c->data = shape(rank, dims);
    c->type = DML_TENSOR_DATA_TYPE_FLOAT32;
    c->begin = i64(b, m);
    c->end = i64(e, m);
    if (s) {
        c->stride = i64(s, m);
        c->has_stride = true;
    }
}

static void ov_mask(ov_call *c, int which, const int64_t *v, uint64_t n)
{
    c->masks[which] = i64(v, n);
    c->has_mask[which] = true;
}

static HRESULT ov_run(const ov_call *c, dmlcl_frontend_result *r)
{
    dmlcl_openvino_strided_slice_args a = {.data = &c->data,
                                           .data_type = c->type,
                                           .begin = &c->begin,
                                           .end = &c->end,
                                           .stride = c->has_stride ? &c->stride : NULL,
                                           .begin_mask = c->has_mask[0] ? &c->masks[0] : NULL,
                                           .end_mask = c->has_mask[1] ? &c->masks[1] : NULL,
                                           .new_axis_mask = c->has_mask[2] ? &c->masks[2] : NULL,
                                           .shrink_axis_mask = c->has_mask[3] ? &c->masks[3] : NULL,
                                           .ellipsis_mask = c->has_mask[4] ? &c->masks[4] : NULL};
    return dmlcl_openvino_strided_slice(1, &a, r);
}

/* The result's description creates an operator; returns its plan (before normalisation). */
static dmli_plan plan_of(const dmlcl_frontend_result *r)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &r->desc, &op);
    cr_assert_eq(hr, S_OK, "the front-end's description must create: %s", dmlcl_last_error());
    dmlcl_operator_release(op);
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(r->desc.Type), r->desc.Desc, &st), S_OK);
    return st.plan;
}

static void expect_shape(const dmlcl_frontend_result *r, uint32_t rank, const int64_t *dims,
                         int line)
{
    cr_assert_eq(r->output_shape.rank, rank, "line %d: output rank %u, want %u", line,
                 r->output_shape.rank, rank);
    for (uint32_t i = 0; i < rank; ++i)
        cr_expect_eq(r->output_shape.dims[i], dims[i], "line %d: dim %u is %lld, want %lld", line,
                     i, (long long)r->output_shape.dims[i], (long long)dims[i]);
    plan_of(r);
}

static void ov_expect(const ov_call *c, uint32_t rank, const int64_t *dims, int line)
{
    dmlcl_frontend_result r;
    HRESULT hr = ov_run(c, &r);
    cr_assert_eq(hr, S_OK, "line %d: %s", line, dmlcl_last_error());
    expect_shape(&r, rank, dims, line);
}

static void ov_fail(const ov_call *c, HRESULT want, const char *needle, int line)
{
    dmlcl_frontend_result r;
    HRESULT hr = ov_run(c, &r);
    const char *msg = dmlcl_last_error();
    cr_expect_eq(hr, want, "line %d: expected %s, got %s: %s", line, dmlcl_hresult_name(want),
                 dmlcl_hresult_name(hr), msg);
    cr_expect(strstr(msg, "StridedSlice-1") && strstr(msg, needle),
              "line %d: message lacks \"%s\": %s", line, needle, msg);
}

#define OV_EXPECT(c, rank, ...) ov_expect((c), (rank), (const int64_t[]){__VA_ARGS__}, __LINE__)
#define OV_INVALID(c, needle) ov_fail((c), E_INVALIDARG, (needle), __LINE__)

/* ---- The document's examples (corrected where the document is wrong) ------------------ */

Test(strided_slice_frontend, examples_1_to_6)
{
    ov_call c;
    const int64_t d6[] = {4, 4, 4, 4, 4, 4};
    ov_init(&c, 6, d6, 6, (const int64_t[]){0, 1, 0, 1, 3, 3}, (const int64_t[]){4, 4, 4, 4, 0, 0},
            (const int64_t[]){1, 1, 2, 2, -1, -2});
    OV_EXPECT(&c, 6, 4, 3, 2, 2, 3, 2); /* erratum: 3:0:-1 takes 3 elements */

    ov_init(&c, 2, (const int64_t[]){2, 2}, 2, (const int64_t[]){1234, 2},
            (const int64_t[]){1234, 4321}, (const int64_t[]){1, -1});
    OV_EXPECT(&c, 2, 0, 0); /* erratum: both empty */

    const int64_t d3[] = {2, 3, 4};
    ov_init(&c, 3, d3, 3, (const int64_t[]){0, 0, 0}, (const int64_t[]){2, 2, -1},
            (const int64_t[]){1, 1, 1});
    OV_EXPECT(&c, 3, 2, 2, 3);

    ov_init(&c, 3, d3, 3, (const int64_t[]){1, 1, 123}, (const int64_t[]){0, 0, 2},
            (const int64_t[]){1, 1, -1});
    ov_mask(&c, 0, (const int64_t[]){0, 1, 1}, 3);
    ov_mask(&c, 1, (const int64_t[]){1, 1, 1}, 3);
    ov_mask(&c, 2, (const int64_t[]){0, 0, 0, 0, 0}, 5);
    ov_mask(&c, 3, (const int64_t[]){0, 0}, 2);
    ov_mask(&c, 4, (const int64_t[]){0}, 1);
    OV_EXPECT(&c, 3, 1, 3, 4); /* erratum: end_mask reversed runs through 0 */

    ov_init(&c, 2, (const int64_t[]){2, 4}, 4, (const int64_t[]){1234, 0, -1, 0},
            (const int64_t[]){1234, 2, 9876, 4}, (const int64_t[]){132, 1, 241, 1});
    ov_mask(&c, 2, (const int64_t[]){1, 0, 1, 0}, 4);
    OV_EXPECT(&c, 4, 1, 2, 1, 4);

    ov_init(&c, 5, (const int64_t[]){1, 2, 384, 640, 8}, 5, (const int64_t[]){0, 0, 0, 0, 0},
            (const int64_t[]){1, 0, 384, 640, 8}, (const int64_t[]){1, 1, 1, 1, 1});
    ov_mask(&c, 3, (const int64_t[]){0, 1, 0, 0, 0}, 5);
    OV_EXPECT(&c, 4, 1, 384, 640, 8);
}

/* The ellipsis examples on a 10-D input (the document's text; it lists 12 dims). */
Test(strided_slice_frontend, examples_7_and_8)
{
    const int64_t d10[] = {10, 2, 2, 2, 2, 2, 2, 2, 2, 10};
    ov_call c;
    ov_init(&c, 10, d10, 3, (const int64_t[]){0, 0, 0}, (const int64_t[]){4, 0, 5},
            (const int64_t[]){1, -1, 1});
    ov_mask(&c, 4, (const int64_t[]){0, 1, 0}, 3);
    OV_EXPECT(&c, 10, 4, 2, 2, 2, 2, 2, 2, 2, 2, 5);

    ov_init(&c, 10, d10, 4, (const int64_t[]){2, 1, 10, 10}, (const int64_t[]){123, 1, 10, 5},
            (const int64_t[]){1, -1, 1, 1});
    ov_mask(&c, 0, (const int64_t[]){0, 0, 1, 1}, 4);
    ov_mask(&c, 1, (const int64_t[]){1, 1, 0, 0}, 4);
    ov_mask(&c, 2, (const int64_t[]){0, 0, 1}, 3);
    ov_mask(&c, 3, (const int64_t[]){0}, 1);
    ov_mask(&c, 4, (const int64_t[]){0, 1}, 2);
    OV_EXPECT(&c, 11, 8, 2, 2, 2, 2, 2, 2, 2, 2, 1, 5);
}

/* ---- Masks, types, scalars -------------------------------------------------------------- */

Test(strided_slice_frontend, masks_of_any_length)
{
    ov_call c;
    const int64_t d[] = {5, 6};
    ov_init(&c, 2, d, 2, (const int64_t[]){1, 1}, (const int64_t[]){3, 3}, NULL);
    ov_mask(&c, 0, (const int64_t[]){1}, 1); /* shorter: entry 1 is 0 */
    OV_EXPECT(&c, 2, 3, 2);
    /* Longer: what lies past the entries is ignored, even a second ellipsis or a new axis. */
    ov_mask(&c, 2, (const int64_t[]){0, 0, 1, 1}, 4);
    ov_mask(&c, 4, (const int64_t[]){0, 0, 1, 1}, 4);
    OV_EXPECT(&c, 2, 3, 2);
    /* ...but its values must still be 0 or 1. */
    ov_mask(&c, 1, (const int64_t[]){0, 0, 0, 2}, 4);
    OV_INVALID(&c, "end_mask[3] (2)");
    ov_mask(&c, 1, (const int64_t[]){-1}, 1);
    OV_INVALID(&c, "end_mask[0] (-1)");
}

Test(strided_slice_frontend, integer_types_of_every_width)
{
    ov_call c;
    const int64_t d[] = {300};
    const int8_t b8[] = {-3};
    const uint8_t e8[] = {255};
    const int16_t s16[] = {-1};
    ov_init(&c, 1, d, 1, (const int64_t[]){0}, (const int64_t[]){0}, NULL);
    c.begin = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT8, 1, b8};
    c.end = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_UINT8, 1, e8};
    c.stride = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT16, 1, s16};
    c.has_stride = true;
    OV_EXPECT(&c, 1, 42); /* 297 down to 256 */
    /* UINT64 above INT64_MAX: a huge positive value, clamped. */
    const uint64_t big[] = {UINT64_MAX};
    const uint32_t one[] = {1};
    c.begin = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_UINT32, 1, one};
    c.end = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_UINT64, 1, big};
    c.has_stride = false;
    OV_EXPECT(&c, 1, 299);
    c.end = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_FLOAT32, 1, one};
    OV_INVALID(&c, "end has type FLOAT32");
}

Test(strided_slice_frontend, scalar_data)
{
    ov_call c;
    ov_init(&c, 0, NULL, 0, NULL, NULL, NULL);
    OV_EXPECT(&c, 0, 0);
    ov_init(&c, 0, NULL, 2, (const int64_t[]){0, 0}, (const int64_t[]){0, 0}, NULL);
    ov_mask(&c, 2, (const int64_t[]){1, 1}, 2);
    OV_EXPECT(&c, 2, 1, 1);
    ov_mask(&c, 2, (const int64_t[]){0, 1}, 2);
    ov_mask(&c, 4, (const int64_t[]){1}, 1);
    OV_EXPECT(&c, 1, 1);
    ov_mask(&c, 4, (const int64_t[]){0}, 1);
    OV_INVALID(&c, "take input dimensions");
}

Test(strided_slice_frontend, lowering_offsets)
{
    /* x[1:, ::-1, -2] of {3,4,5}: first element (1, 3, 3) = 20 + 15 + 3. */
    ov_call c;
    const int64_t d[] = {3, 4, 5};
    ov_init(&c, 3, d, 3, (const int64_t[]){1, 0, -2}, (const int64_t[]){0, 0, 0},
            (const int64_t[]){1, -1, 1});
    ov_mask(&c, 0, (const int64_t[]){0, 1}, 2);
    ov_mask(&c, 1, (const int64_t[]){1, 1}, 2);
    ov_mask(&c, 3, (const int64_t[]){0, 0, 1}, 3);
    dmlcl_frontend_result r;
    cr_assert_eq(ov_run(&c, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 2, (const int64_t[]){2, 4}, __LINE__);
    dmli_plan p = plan_of(&r);
    cr_expect_eq(p.in_offset, 38);
    cr_expect_eq(p.in_stride[0], 20);
    cr_expect_eq(p.in_stride[1], -5);
}

/* ---- Every validation error -------------------------------------------------------------- */

Test(strided_slice_frontend, errors)
{
    ov_call c;
    const int64_t d[] = {4, 5};
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){4, 5}, (const int64_t[]){1, 0});
    OV_INVALID(&c, "stride[1] (0)");
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){4, 5}, NULL);
    ov_mask(&c, 4, (const int64_t[]){1, 1}, 2);
    OV_INVALID(&c, "ellipsis");
    ov_init(&c, 2, d, 3, (const int64_t[]){0, 0, 0}, (const int64_t[]){4, 5, 1}, NULL);
    OV_INVALID(&c, "3 entries of begin/end/stride take input dimensions");
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 5}, (const int64_t[]){4, 5}, NULL);
    ov_mask(&c, 3, (const int64_t[]){0, 1}, 2);
    OV_INVALID(&c, "begin[1] (5)");
    ov_init(&c, 2, d, 2, (const int64_t[]){0, -6}, (const int64_t[]){4, 5}, NULL);
    ov_mask(&c, 3, (const int64_t[]){0, 1}, 2);
    OV_INVALID(&c, "begin[1] (-6)");
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){4, 5}, NULL);
    c.end.count = 1;
    OV_INVALID(&c, "end has 1 values");
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){4, 5}, (const int64_t[]){1});
    c.stride.count = 1;
    OV_INVALID(&c, "stride has 1 values");

    /* Not 1-D. */
    ov_init(&c, 2, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){4, 5}, NULL);
    dmlcl_shape two_d = shape(2, (const int64_t[]){1, 2});
    dmlcl_openvino_strided_slice_args a = {.data = &c.data,
                                           .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                           .begin = &c.begin,
                                           .begin_dims = &two_d,
                                           .end = &c.end};
    dmlcl_frontend_result r;
    cr_expect_eq(dmlcl_openvino_strided_slice(1, &a, &r), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "begin must be 1-D"), "%s", dmlcl_last_error());

    /* Data rules. */
    ov_init(&c, 2, d, 0, NULL, NULL, NULL);
    c.type = DMLCL_TENSOR_DATA_TYPE_STRING;
    ov_fail(&c, DXGI_ERROR_UNSUPPORTED, "STRING", __LINE__);
    ov_init(&c, 2, (const int64_t[]){-1, 3}, 0, NULL, NULL, NULL);
    OV_INVALID(&c, "dimension 0 (-1)");
    ov_init(&c, 2, (const int64_t[]){1 << 20, 1 << 20}, 0, NULL, NULL, NULL);
    ov_fail(&c, DXGI_ERROR_UNSUPPORTED, "2^32-1", __LINE__);
}

Test(strided_slice_frontend, too_many_entries)
{
    /* 40 new axes: unsupported (output rank); 40 real entries: invalid. */
    static int64_t z[40], ones[40];
    for (int i = 0; i < 40; ++i)
        ones[i] = 1;
    ov_call c;
    ov_init(&c, 1, (const int64_t[]){3}, 40, z, z, NULL);
    ov_mask(&c, 2, ones, 40);
    ov_fail(&c, DXGI_ERROR_UNSUPPORTED, "dimensions", __LINE__);
    ov_mask(&c, 2, z, 40);
    OV_INVALID(&c, "40 entries");
}

/* ---- ONNX Slice-13 ------------------------------------------------------------------------ */

typedef struct onnx_call {
    dmlcl_shape data;
    dmlcl_int_array starts, ends, axes, steps;
    bool has_axes, has_steps;
} onnx_call;

static void onnx_init(onnx_call *c, uint32_t rank, const int64_t *dims, uint64_t k,
                      const int64_t *starts, const int64_t *ends, const int64_t *axes,
                      const int64_t *steps)
{
    memset(c, 0, sizeof *c);
    c->data = shape(rank, dims);
    c->starts = i64(starts, k);
    c->ends = i64(ends, k);
    c->axes = i64(axes, k);
    c->steps = i64(steps, k);
    c->has_axes = axes != NULL;
    c->has_steps = steps != NULL;
}

static HRESULT onnx_run(const onnx_call *c, dmlcl_frontend_result *r)
{
    dmlcl_onnx_slice_args a = {.data = &c->data,
                               .data_type = DML_TENSOR_DATA_TYPE_INT16,
                               .starts = &c->starts,
                               .ends = &c->ends,
                               .axes = c->has_axes ? &c->axes : NULL,
                               .steps = c->has_steps ? &c->steps : NULL};
    return dmlcl_onnx_slice(13, &a, r);
}

/* The output shape, and the plan's first element and innermost-sliced step. */
static void onnx_expect(const onnx_call *c, uint32_t rank, const int64_t *dims, int64_t offset,
                        int line)
{
    dmlcl_frontend_result r;
    HRESULT hr = onnx_run(c, &r);
    cr_assert_eq(hr, S_OK, "line %d: %s", line, dmlcl_last_error());
    expect_shape(&r, rank, dims, line);
    dmli_plan p = plan_of(&r);
    cr_expect_eq(p.in_offset, offset, "line %d: in_offset %lld, want %lld", line,
                 (long long)p.in_offset, (long long)offset);
}

static void onnx_fail(const onnx_call *c, const char *needle, int line)
{
    dmlcl_frontend_result r;
    HRESULT hr = onnx_run(c, &r);
    const char *msg = dmlcl_last_error();
    cr_expect_eq(hr, E_INVALIDARG, "line %d: got %s: %s", line, dmlcl_hresult_name(hr), msg);
    cr_expect(strstr(msg, "Slice-13") && strstr(msg, needle), "line %d: message lacks \"%s\": %s",
              line, needle, msg);
}

#define ONNX_EXPECT(c, offset, rank, ...) \
    onnx_expect((c), (rank), (const int64_t[]){__VA_ARGS__}, (offset), __LINE__)
#define ONNX_INVALID(c, needle) onnx_fail((c), (needle), __LINE__)

Test(onnx_slice_frontend, clamping_like_numpy)
{
    onnx_call c;
    const int64_t d[] = {10};
    onnx_init(&c, 1, d, 1, (const int64_t[]){9}, (const int64_t[]){0}, NULL, (const int64_t[]){-2});
    ONNX_EXPECT(&c, 9, 1, 5); /* 9,7,5,3,1 */
    onnx_init(&c, 1, d, 1, (const int64_t[]){8}, (const int64_t[]){INT64_MIN}, NULL,
              (const int64_t[]){-2});
    ONNX_EXPECT(&c, 8, 1, 5); /* 8,6,4,2,0: through element 0 */
    onnx_init(&c, 1, d, 1, (const int64_t[]){-10 - 5}, (const int64_t[]){0}, NULL,
              (const int64_t[]){-1});
    ONNX_EXPECT(&c, 0, 1, 0); /* numpy: a start below the beginning, reversed, is empty */
    onnx_init(&c, 1, d, 1, (const int64_t[]){INT64_MAX}, (const int64_t[]){INT64_MIN}, NULL,
              (const int64_t[]){INT64_MIN});
    ONNX_EXPECT(&c, 9, 1, 1);
    onnx_init(&c, 1, d, 1, (const int64_t[]){-3}, (const int64_t[]){INT64_MAX}, NULL, NULL);
    ONNX_EXPECT(&c, 7, 1, 3);
    onnx_init(&c, 1, d, 1, (const int64_t[]){3}, (const int64_t[]){3}, NULL, NULL);
    ONNX_EXPECT(&c, 0, 1, 0);
}

Test(onnx_slice_frontend, axes)
{
    onnx_call c;
    const int64_t d[] = {2, 3, 4};
    /* Negative axes, in any order; unsliced dims whole. */
    onnx_init(&c, 3, d, 2, (const int64_t[]){1, -1}, (const int64_t[]){4, INT64_MIN},
              (const int64_t[]){-1, 0}, (const int64_t[]){2, -1});
    ONNX_EXPECT(&c, 12 + 1, 3, 2, 3, 2); /* dim 0 reversed from 1, dim 2 = 1, 3 */
    onnx_init(&c, 3, d, 2, (const int64_t[]){0, 0}, (const int64_t[]){1, 1},
              (const int64_t[]){1, -2}, NULL);
    ONNX_INVALID(&c, "again");
    onnx_init(&c, 3, d, 1, (const int64_t[]){0}, (const int64_t[]){1}, (const int64_t[]){3}, NULL);
    ONNX_INVALID(&c, "axes[0] (3)");
    onnx_init(&c, 3, d, 1, (const int64_t[]){0}, (const int64_t[]){1}, (const int64_t[]){-4}, NULL);
    ONNX_INVALID(&c, "axes[0] (-4)");
    onnx_init(&c, 1, (const int64_t[]){4}, 2, (const int64_t[]){0, 0}, (const int64_t[]){1, 1},
              NULL, NULL);
    ONNX_INVALID(&c, "axes is absent");
}

Test(onnx_slice_frontend, inputs)
{
    onnx_call c;
    const int64_t d[] = {5};
    onnx_init(&c, 1, d, 1, (const int64_t[]){0}, (const int64_t[]){5}, NULL, (const int64_t[]){0});
    ONNX_INVALID(&c, "steps[0] (0)");
    const int32_t s32[] = {INT32_MIN}, e32[] = {INT32_MAX}, st32[] = {-1};
    onnx_init(&c, 1, d, 1, (const int64_t[]){0}, (const int64_t[]){5}, NULL, NULL);
    c.starts = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT32, 1, s32};
    ONNX_INVALID(&c, "Tind");
    c.ends = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT32, 1, e32};
    ONNX_EXPECT(&c, 0, 1, 5);
    /* INT32 sentinels reversed: from the end through element 0. */
    c.starts = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT32, 1, e32};
    c.ends = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT32, 1, s32};
    c.steps = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT32, 1, st32};
    c.has_steps = true;
    ONNX_EXPECT(&c, 4, 1, 5);
    c.steps = (dmlcl_int_array){DML_TENSOR_DATA_TYPE_UINT32, 1, st32};
    ONNX_INVALID(&c, "INT32 or INT64");
    onnx_init(&c, 1, d, 1, (const int64_t[]){0}, (const int64_t[]){5}, NULL, NULL);
    c.ends.count = 0;
    ONNX_INVALID(&c, "ends has 0 values");
}

/*
 * Every list input is 1-D, and a 0-D one is refused: StridedSlice-1's shape
 * inference wants rank 1 for begin, end and stride
 * (strided_slice_shape_inference.hpp); ONNX Slice's text says "1-D tensor"
 * for starts, ends, axes and steps (its shape inference flattens the values,
 * and ONNX Runtime refuses other ranks).
 */
Test(onnx_slice_frontend, list_inputs_are_1d)
{
    const int64_t d[] = {5}, b[] = {1}, e[] = {4}, st[] = {1}, ax[] = {0};
    dmlcl_int_array begin = i64(b, 1), end = i64(e, 1), stride = i64(st, 1), axes = i64(ax, 1);
    dmlcl_shape data = shape(1, d), one = shape(1, (const int64_t[]){1}), scalar = shape(0, NULL);
    dmlcl_frontend_result r;
    dmlcl_openvino_strided_slice_args o = {.data = &data,
                                           .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                           .begin = &begin,
                                           .begin_dims = &one,
                                           .end = &end,
                                           .end_dims = &one,
                                           .stride = &stride,
                                           .stride_dims = &one};
    cr_expect_eq(dmlcl_openvino_strided_slice(1, &o, &r), S_OK, "%s", dmlcl_last_error());
    const dmlcl_shape **ov_dims[3] = {&o.begin_dims, &o.end_dims, &o.stride_dims};
    const char *ov_names[3] = {"input begin must be 1-D", "input end must be 1-D",
                               "input stride must be 1-D"};
    for (int i = 0; i < 3; ++i) {
        *ov_dims[i] = &scalar;
        unit_expect_error(dmlcl_openvino_strided_slice(1, &o, &r), E_INVALIDARG, ov_names[i],
                          "its shape is {} (rank 0)");
        cr_expect(strstr(dmlcl_last_error(), "OpenVINO StridedSlice-1"), "%s", dmlcl_last_error());
        *ov_dims[i] = &one;
    }
    dmlcl_onnx_slice_args a = {.data = &data,
                               .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                               .starts = &begin,
                               .starts_dims = &one,
                               .ends = &end,
                               .ends_dims = &one,
                               .axes = &axes,
                               .axes_dims = &one,
                               .steps = &stride,
                               .steps_dims = &one};
    cr_expect_eq(dmlcl_onnx_slice(13, &a, &r), S_OK, "%s", dmlcl_last_error());
    const dmlcl_shape **onnx_dims[4] = {&a.starts_dims, &a.ends_dims, &a.axes_dims, &a.steps_dims};
    const char *onnx_names[4] = {"input starts must be 1-D", "input ends must be 1-D",
                                 "input axes must be 1-D", "input steps must be 1-D"};
    for (int i = 0; i < 4; ++i) {
        *onnx_dims[i] = &scalar;
        unit_expect_error(dmlcl_onnx_slice(13, &a, &r), E_INVALIDARG, onnx_names[i],
                          "its shape is {} (rank 0)");
        cr_expect(strstr(dmlcl_last_error(), "ONNX Slice-13"), "%s", dmlcl_last_error());
        *onnx_dims[i] = &one;
    }
}

/* Slice-13 from opset 13; Slice-1, -10, -11 are not in dmlcl. StridedSlice-1 from opset 1. */
Test(onnx_slice_frontend, opsets)
{
    dmlcl_shape data = shape(1, (const int64_t[]){5});
    const int64_t s[] = {1}, e[] = {3};
    dmlcl_int_array starts = i64(s, 1), ends = i64(e, 1);
    dmlcl_onnx_slice_args a = {
        .data = &data, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .starts = &starts, .ends = &ends};
    dmlcl_frontend_result r;
    cr_expect_eq(dmlcl_onnx_slice(21, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 1, (const int64_t[]){2}, __LINE__);
    cr_expect_eq(dmlcl_onnx_slice(11, &a, &r), DXGI_ERROR_UNSUPPORTED);
    cr_expect(strstr(dmlcl_last_error(), "ONNX Slice-11 (opset 11) is not supported"), "%s",
              dmlcl_last_error());
    cr_expect_eq(dmlcl_onnx_slice(0, &a, &r), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "opset (0)"), "%s", dmlcl_last_error());
    dmlcl_openvino_strided_slice_args o = {
        .data = &data, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .begin = &starts, .end = &ends};
    cr_expect_eq(dmlcl_openvino_strided_slice(15, &o, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 1, (const int64_t[]){2}, __LINE__);
    cr_expect_eq(dmlcl_openvino_strided_slice(0, &o, &r), E_INVALIDARG);
    cr_expect_eq(dmlcl_openvino_strided_slice(1, NULL, &r), E_POINTER);
}

Test(onnx_slice_frontend, scalar_and_empty)
{
    onnx_call c;
    onnx_init(&c, 0, NULL, 0, NULL, NULL, NULL, NULL);
    ONNX_EXPECT(&c, 0, 0, 0);
    /* An empty data tensor has 0 strides (no element to reach): the start moves nothing. */
    onnx_init(&c, 2, (const int64_t[]){0, 3}, 1, (const int64_t[]){1}, (const int64_t[]){3},
              (const int64_t[]){1}, NULL);
    ONNX_EXPECT(&c, 0, 2, 0, 2);
}
