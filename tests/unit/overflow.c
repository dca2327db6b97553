/* SPDX-License-Identifier: MIT */
/*
 * Sizes, strides and offsets at the edges of 64 bits: the findings of the
 * fuzzing audit (issue 13) as reproducers. Each descriptor here is legal or
 * nearly so; before the checked arithmetic the sanitizer build aborted on
 * signed overflow, the slice front-ends skipped dimensions after a 0, and
 * front-ends produced descriptors the operator refused.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "support.h"

#define U32MAX 4294967295u
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define I64 DML_TENSOR_DATA_TYPE_INT64

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    dmlcl_operator_release(op);
    return hr;
}

static void expect_created(const DML_OPERATOR_DESC *desc, int line)
{
    HRESULT hr = create(desc);
    cr_expect_eq(hr, S_OK, "line %d: the front-end's descriptor is refused: %s: %s", line,
                 dmlcl_hresult_name(hr), dmlcl_last_error());
}

static dmlcl_shape shape(uint32_t rank, const int64_t *dims)
{
    dmlcl_shape s = {rank, {0}};
    memcpy(s.dims, dims, rank * sizeof *dims);
    return s;
}

/* ONNX Expand of an empty tensor whose trailing sizes multiply past 2^64. */
Test(overflow, expand_empty_with_huge_trailing_dims)
{
    const int64_t dims[] = {0, U32MAX, U32MAX, U32MAX}, one[] = {1};
    dmlcl_shape in = shape(4, dims), one_dims = shape(1, (const int64_t[]){1});
    dmlcl_int_array target = {I64, 1, one};
    dmlcl_frontend_result r;
    dmlcl_onnx_expand_args a = {&in, F32, &target, &one_dims};
    HRESULT hr = dmlcl_onnx_expand(13, &a, &r);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.output_shape.rank, 4);
    for (int i = 0; i < 4; ++i)
        cr_expect_eq(r.output_shape.dims[i], dims[i], "output dimension %d", i);
    expect_created(&r.desc, __LINE__);
}

/* Sizes {2^32-1, 2, 0}: no elements; the front-ends accepted it and the operator refused it. */
Test(overflow, broadcast_empty_past_2_32_partial_product)
{
    const int64_t dims[] = {U32MAX, 2, 0};
    dmlcl_shape in = shape(3, dims), three = shape(1, (const int64_t[]){3});
    dmlcl_int_array target = {I64, 3, dims};
    dmlcl_frontend_result r;
    dmlcl_onnx_expand_args x = {&in, F32, &target, &three};
    HRESULT hr = dmlcl_onnx_expand(13, &x, &r);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    expect_created(&r.desc, __LINE__);
    dmlcl_openvino_broadcast_args a = {&in, F32, &target, &three, NULL, NULL, "numpy"};
    hr = dmlcl_openvino_broadcast(3, &a, &r);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    expect_created(&r.desc, __LINE__);
}

/* DirectML-legal SLICE: a size-1 dimension with input stride and slice stride 2^32-1. */
Test(overflow, slice_step_on_one_element)
{
    unit_tensor in, out;
    const UINT sizes[] = {1, 2}, strides[] = {U32MAX, 1};
    unit_tensor_set(&in, F32, 2, sizes, strides);
    unit_tensor_set(&out, F32, 2, sizes, NULL);
    const UINT offsets[] = {0, 0}, steps[] = {U32MAX, 1};
    DML_SLICE_OPERATOR_DESC d = {&in.desc, &out.desc, 2, offsets, sizes, steps};
    DML_OPERATOR_DESC op = {DML_OPERATOR_SLICE, &d};
    cr_expect_eq(create(&op), S_OK, "%s", dmlcl_last_error());
}

/* The extent fits 64 bits unsigned but not the signed offsets plans and kernels use. */
Test(overflow, extent_past_2_63_is_unsupported)
{
    unit_tensor in, out;
    const UINT sizes[] = {U32MAX}, strides[] = {U32MAX};
    unit_tensor_set(&in, DML_TENSOR_DATA_TYPE_UINT8, 1, sizes, strides);
    unit_tensor_set(&out, DML_TENSOR_DATA_TYPE_UINT8, 1, sizes, NULL);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {&in.desc, &out.desc, NULL};
    DML_OPERATOR_DESC op = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d};
    unit_expect_error(create(&op), DXGI_ERROR_UNSUPPORTED, "InputTensor spans", "2^63-1");
}

/* ONNX Slice-13 checks every data dimension, also after a 0. */
Test(overflow, onnx_slice_negative_dim_after_zero)
{
    const int64_t dims[] = {0, -5}, starts[] = {0}, ends[] = {1};
    dmlcl_shape data = shape(2, dims);
    dmlcl_int_array s = {I64, 1, starts}, e = {I64, 1, ends};
    dmlcl_onnx_slice_args a = {&data, F32, &s, NULL, &e, NULL, NULL, NULL, NULL, NULL};
    dmlcl_frontend_result r;
    unit_expect_error(dmlcl_onnx_slice(13, &a, &r), E_INVALIDARG, "data dimension 1 (-5)", ">= 0");
}

Test(overflow, openvino_strided_slice_int64_min_after_zero)
{
    const int64_t dims[] = {0, INT64_MIN}, begin[] = {0, 0}, end[] = {1, 1};
    dmlcl_shape data = shape(2, dims);
    dmlcl_int_array b = {I64, 2, begin}, e = {I64, 2, end};
    dmlcl_openvino_strided_slice_args a = {.data = &data, .data_type = F32, .begin = &b, .end = &e};
    dmlcl_frontend_result r;
    unit_expect_error(dmlcl_openvino_strided_slice(1, &a, &r), E_INVALIDARG, "data dimension 1",
                      ">= 0");
    const int64_t big[] = {0, (int64_t)U32MAX + 1};
    data = shape(2, big);
    unit_expect_error(dmlcl_openvino_strided_slice(1, &a, &r), DXGI_ERROR_UNSUPPORTED,
                      "data dimension 1", "2^32-1");
}

/* Gather front-ends agree with the operator on empty shapes past 2^32 partial products. */
Test(overflow, gather_empty_past_2_32_partial_product)
{
    const int64_t dims[] = {U32MAX, 2, 0}, idx[] = {1};
    dmlcl_shape data = shape(3, dims), indices = shape(1, idx);
    dmlcl_frontend_result f;
    dmlcl_onnx_gather_args a = {&data, F32, &indices, I64, 1};
    HRESULT hr = dmlcl_onnx_gather(13, &a, &f);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    expect_created(&f.desc, __LINE__);
}

/* ---- Every front-end result creates its operator, over edge shapes ---------------------- */

static const int64_t edge_dims[] = {0, 1, 2, 65536, U32MAX};
#define N_EDGE 5

/* Shape number k of ranks 0..3 over edge_dims (1 + 5 + 25 + 125 shapes). */
static dmlcl_shape edge_shape(unsigned k)
{
    dmlcl_shape s = {0, {0}};
    unsigned first = 1;
    while (k >= first) {
        k -= first;
        first *= N_EDGE;
        ++s.rank;
    }
    for (uint32_t i = 0; i < s.rank; ++i, k /= N_EDGE)
        s.dims[i] = edge_dims[k % N_EDGE];
    return s;
}
#define N_SHAPES 156

typedef struct tally {
    unsigned accepted, refused;
} tally;

static void created(HRESULT hr, const DML_OPERATOR_DESC *desc, tally *t, const char *what,
                    unsigned a, unsigned b)
{
    if (FAILED(hr)) {
        cr_expect(dmlcl_last_error()[0], "%s shapes %u/%u: failed without a message", what, a, b);
        ++t->refused;
        return;
    }
    ++t->accepted;
    HRESULT c = create(desc);
    cr_expect_eq(c, S_OK, "%s shapes %u/%u: accepted, but the operator refuses it: %s", what, a, b,
                 dmlcl_last_error());
}

Test(overflow, broadcast_frontends_create_what_they_accept)
{
    tally t = {0, 0};
    for (unsigned a = 0; a < N_SHAPES; ++a)
        for (unsigned b = 0; b < N_SHAPES; ++b) {
            dmlcl_shape data = edge_shape(a), target = edge_shape(b);
            dmlcl_int_array shape = {I64, target.rank, target.dims};
            dmlcl_frontend_result r;
            dmlcl_onnx_expand_args x = {&data, F32, &shape, NULL};
            created(dmlcl_onnx_expand(13, &x, &r), &r.desc, &t, "Expand", a, b);
            dmlcl_openvino_broadcast_args args = {&data, F32,  &shape,         NULL,
                                                  NULL,  NULL, "bidirectional"};
            created(dmlcl_openvino_broadcast(3, &args, &r), &r.desc, &t, "Broadcast-3", a, b);
            args.mode = "numpy";
            created(dmlcl_openvino_broadcast(1, &args, &r), &r.desc, &t, "Broadcast-1", a, b);
        }
    cr_expect(t.accepted > 1000 && t.refused > 1000, "%u accepted, %u refused", t.accepted,
              t.refused);
}

Test(overflow, slice_and_gather_frontends_create_what_they_accept)
{
    static const int64_t starts[] = {0, 1, -1, INT64_MIN, INT64_MAX};
    tally t = {0, 0};
    for (unsigned a = 0; a < N_SHAPES; ++a)
        for (unsigned v = 0; v < 5; ++v) {
            dmlcl_shape data = edge_shape(a);
            const int64_t begin[] = {starts[v]}, end[] = {starts[(v + 2) % 5]};
            dmlcl_int_array b = {I64, 1, begin}, e = {I64, 1, end};
            dmlcl_frontend_result r;
            dmlcl_onnx_slice_args os = {&data, F32, &b, NULL, &e, NULL, NULL, NULL, NULL, NULL};
            created(dmlcl_onnx_slice(13, &os, &r), &r.desc, &t, "Slice-13", a, v);
            dmlcl_openvino_strided_slice_args ss = {
                .data = &data, .data_type = F32, .begin = &b, .end = &e};
            created(dmlcl_openvino_strided_slice(1, &ss, &r), &r.desc, &t, "StridedSlice-1", a, v);
            for (unsigned x = 0; x < N_SHAPES; x += 7) {
                dmlcl_shape idx = edge_shape(x);
                dmlcl_frontend_result f;
                int64_t axis = (int64_t)v - 2;
                dmlcl_onnx_gather_args g = {&data, F32, &idx, I64, axis};
                created(dmlcl_onnx_gather(13, &g, &f), &f.desc, &t, "Gather-13", a, x);
                created(dmlcl_onnx_gather_elements(13, &g, &f), &f.desc, &t, "GatherElements-13", a,
                        x);
                dmlcl_onnx_gather_nd_args nd = {&data, F32, &idx, I64, v % 2};
                created(dmlcl_onnx_gather_nd(13, &nd, &f), &f.desc, &t, "GatherND-13", a, x);
                const dmlcl_int_array ax = {I64, 1, &axis};
                dmlcl_openvino_gather_args o = {&data, F32, &idx, I64, &ax, NULL, 0};
                created(dmlcl_openvino_gather(8, &o, &f), &f.desc, &t, "Gather-8", a, x);
            }
        }
    cr_expect(t.accepted > 1000 && t.refused > 1000, "%u accepted, %u refused", t.accepted,
              t.refused);
}
