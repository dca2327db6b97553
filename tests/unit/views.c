/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_TILE and the view front-ends on the host (no OpenCL device):
 * every TILE rule of its page has a test that breaks it and checks the
 * HRESULT and that the message names the field; the lowering (copies as
 * stride-0 dimensions) is checked on the plan, before and after
 * normalisation, and on its launch (REPEAT); each front-end rule is broken
 * once, and the descriptions they produce (DirectML's operator where its
 * rules allow, else the extension one) are checked member by member.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "internal.h"
#include "launch.h"
#include "support.h"

#define N(a) ((UINT)(sizeof(a) / sizeof((a)[0])))

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    return hr;
}

/* ---- DML_OPERATOR_TILE ------------------------------------------------------------------- */

typedef struct tile {
    unit_tensor in, out;
    UINT repeats[UNIT_MAX_DIMS];
    DML_TILE_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} tile;

/* The page's example: {1,1,2,3} FLOAT32, Repeats {1,1,3,3}, output {1,1,6,9}. */
static void tile_base(tile *c)
{
    const UINT in[] = {1, 1, 2, 3}, out[] = {1, 1, 6, 9}, rep[] = {1, 1, 3, 3};
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL);
    unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
    memcpy(c->repeats, rep, sizeof rep);
    c->d = (DML_TILE_OPERATOR_DESC){&c->in.desc, &c->out.desc, 4, c->repeats};
    c->op = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &c->d};
}

static dmli_plan lowered(const DML_OPERATOR_DESC *desc)
{
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    cr_assert_not_null(cls);
    cr_assert_eq(dmli_op_class_create(cls, desc->Desc, &st), S_OK, "%s", dmlcl_last_error());
    return st.plan;
}

Test(tile, example_is_valid)
{
    tile c;
    tile_base(&c);
    cr_expect_eq(create(&c.op), S_OK, "%s", dmlcl_last_error());
}

Test(tile, every_rule)
{
    tile c;
    tile_base(&c);
    c.d.RepeatsCount = 3;
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: RepeatsCount (3)",
                      "InputTensor.DimensionCount (4)");
    tile_base(&c);
    c.d.Repeats = NULL;
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: Repeats (NULL)", NULL);
    tile_base(&c);
    c.repeats[2] = 0;
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: Repeats[2] (0)", "larger than 0");
    tile_base(&c);
    c.out.sizes[3] = 8;
    unit_tensor_fit(&c.out);
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: OutputTensor.Sizes ({1,1,6,8})",
                      "{1,1,6,9}");
    tile_base(&c);
    unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_FLOAT16);
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: OutputTensor.DataType (FLOAT16)",
                      "InputTensor.DataType (FLOAT32)");
    tile_base(&c);
    const UINT out3[] = {1, 6, 9};
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 3, out3, NULL);
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: OutputTensor.DimensionCount (3)", NULL);
    tile_base(&c);
    const UINT in9[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_FLOAT32, 9, in9, NULL);
    unit_expect_error(create(&c.op), E_INVALIDARG, "TILE: InputTensor.DimensionCount (9)",
                      "[1, 8]");
    tile_base(&c);
    unit_tensor_set_type(&c.in, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    unit_tensor_set_type(&c.out, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    unit_expect_error(create(&c.op), DXGI_ERROR_UNSUPPORTED, "TILE: InputTensor.DataType",
                      "DirectML's types only");
    /* An output whose strides make two elements share bytes (tensor.c's rule for outputs). */
    tile_base(&c);
    const UINT overlap[] = {54, 54, 4, 1};
    unit_tensor_set_strides(&c.out, overlap);
    unit_expect_error(create(&c.op), DXGI_ERROR_UNSUPPORTED, "TILE: OutputTensor.Strides",
                      "never overlaps");
}

/* Before normalisation: each repeated dimension is copies (stride 0) around its elements. */
/* PoCL on a 16-core CPU (the launch rules' view of it; no cache size reported). */
static const dmli_device_desc cpu = {DMLCL_DEVICE_CLASS_CPU,
                                     16,
                                     4096,
                                     {4096, 4096, 4096},
                                     512 * 1024,
                                     16,
                                     8,
                                     128,
                                     true,
                                     4352,
                                     0,
                                     16};

Test(tile, lowering)
{
    tile c;
    tile_base(&c);
    dmli_plan p = lowered(&c.op);
    const int64_t size[] = {1, 1, 3, 2, 3, 3}, out[] = {54, 54, 18, 9, 3, 1},
                  in[] = {6, 6, 0, 3, 0, 1};
    cr_assert_eq(p.kind, DMLI_PLAN_VIEW);
    cr_assert_eq(p.rank, 6);
    for (int d = 0; d < 6; ++d) {
        cr_expect_eq(p.size[d], size[d], "size[%d] %lld", d, (long long)p.size[d]);
        cr_expect_eq(p.out_stride[d], out[d], "out_stride[%d] %lld", d, (long long)p.out_stride[d]);
        cr_expect_eq(p.in_stride[d], in[d], "in_stride[%d] %lld", d, (long long)p.in_stride[d]);
    }
    /* Normalised: the size-1 dims go, nothing else merges (copies never merge with
     * elements); the launch repeats the source rows (REPEAT) instead of dividing. */
    dmli_plan_normalize(&p);
    cr_assert_eq(p.rank, 4);
    dmli_launch l;
    dmli_launch_plan(&p, &cpu, &l);
    cr_expect(l.repeat);
    cr_expect_eq(l.reps, 9u, "reps %llu: 3 x 3 copies", (unsigned long long)l.reps);
    cr_expect_eq(l.rows, 2u);
}

/* Rank 8 with every dimension repeated: 16 plan dimensions, DMLI_MAX_RANK. */
Test(tile, rank_8_fills_the_plan)
{
    tile c;
    UINT in[8], out[8];
    memset(&c, 0, sizeof c);
    for (int i = 0; i < 8; ++i) {
        in[i] = 2;
        out[i] = 4;
        c.repeats[i] = 2;
    }
    unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT8, 8, in, NULL);
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT8, 8, out, NULL);
    c.d = (DML_TILE_OPERATOR_DESC){&c.in.desc, &c.out.desc, 8, c.repeats};
    c.op = (DML_OPERATOR_DESC){DML_OPERATOR_TILE, &c.d};
    dmli_plan p = lowered(&c.op);
    cr_expect_eq(p.rank, DMLI_MAX_RANK);
    cr_expect_eq(p.in_stride[0], 0);
    cr_expect_eq(p.in_stride[1], 128);
    cr_expect_eq(p.out_stride[0], 2 * 16384);
}

/* ---- Front-ends --------------------------------------------------------------------------- */

static dmlcl_int_array i64(uint64_t n, const int64_t *v)
{
    return (dmlcl_int_array){DML_TENSOR_DATA_TYPE_INT64, n, v};
}

static void expect_shape(const dmlcl_frontend_result *r, uint32_t rank, const int64_t *dims)
{
    cr_assert_eq(r->output_shape.rank, rank);
    for (uint32_t i = 0; i < rank; ++i)
        cr_expect_eq(r->output_shape.dims[i], dims[i], "dim %u: %lld", i,
                     (long long)r->output_shape.dims[i]);
}

Test(views_frontend, openvino_tile)
{
    const int64_t rep3[] = {1, 2, 3}, rep4[] = {5, 1, 2, 3};
    dmlcl_shape d234 = {3, {2, 3, 4}}, d5234 = {4, {5, 2, 3, 4}};
    dmlcl_int_array r3 = i64(3, rep3), r4 = i64(4, rep4);
    dmlcl_frontend_result r;
    /* The page's examples 2 and 3: both {5,2,6,12}. */
    dmlcl_openvino_tile_args a = {
        .data = &d234, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .repeats = &r4};
    cr_assert_eq(dmlcl_openvino_tile(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 4, (const int64_t[]){5, 2, 6, 12});
    cr_assert_eq(r.desc.Type, DML_OPERATOR_TILE);
    const DML_TILE_OPERATOR_DESC *t = r.desc.Desc;
    const DML_BUFFER_TENSOR_DESC *in = t->InputTensor->Desc;
    cr_expect_eq(in->DimensionCount, 4u, "data promoted to {1,2,3,4}");
    cr_expect_eq(in->Sizes[0], 1u);
    cr_expect_eq(t->RepeatsCount, 4u);
    cr_expect_eq(t->Repeats[0], 5u);
    a = (dmlcl_openvino_tile_args){
        .data = &d5234, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .repeats = &r3};
    cr_assert_eq(dmlcl_openvino_tile(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 4, (const int64_t[]){5, 2, 6, 12});
    t = r.desc.Desc;
    cr_expect_eq(t->Repeats[0], 1u, "repeats promoted to {1,1,2,3}");
    /* A 0 repeat: an empty output through the extension broadcast of split dims. */
    const int64_t rep0[] = {0, 2};
    dmlcl_int_array r0 = i64(2, rep0);
    dmlcl_shape d23 = {2, {2, 3}};
    a = (dmlcl_openvino_tile_args){
        .data = &d23, .data_type = DML_TENSOR_DATA_TYPE_INT8, .repeats = &r0};
    cr_assert_eq(dmlcl_openvino_tile(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 2, (const int64_t[]){0, 6});
    cr_expect_eq(r.desc.Type, DMLCL_OPERATOR_BROADCAST);
    const DML_BUFFER_TENSOR_DESC *o = r.tensors[1].Desc;
    cr_expect_eq(o->DimensionCount, 4u, "{0, 2, 2, 3}: both dims split");
    unit_expect_error(dmlcl_openvino_tile(0, &a, &r), E_INVALIDARG, "OpenVINO Tile", "opset");
    /* A negative repeat is 0 copies (OpenVINO's shape inference). */
    const int64_t neg[] = {1, -1};
    dmlcl_int_array rn = i64(2, neg);
    a.repeats = &rn;
    cr_assert_eq(dmlcl_openvino_tile(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 2, (const int64_t[]){2, 0});
    a.repeats = NULL;
    unit_expect_error(dmlcl_openvino_tile(1, &a, &r), E_INVALIDARG, "repeats (NULL)", NULL);
    /* 2^31 copies of 3 elements: beyond DirectML's UINT sizes. */
    const int64_t big[] = {1, (int64_t)1 << 31};
    dmlcl_int_array rb = i64(2, big);
    a.repeats = &rb;
    unit_expect_error(dmlcl_openvino_tile(1, &a, &r), DXGI_ERROR_UNSUPPORTED, "output dimension 1",
                      "2^32-1");
}

Test(views_frontend, onnx_tile)
{
    const int64_t rep[] = {1, 2}, rep1[] = {2};
    const int32_t rep32[] = {1, 2};
    dmlcl_shape d22 = {2, {2, 2}};
    dmlcl_int_array r = i64(2, rep), r1 = i64(1, rep1);
    dmlcl_int_array r32 = {DML_TENSOR_DATA_TYPE_INT32, 2, rep32};
    dmlcl_frontend_result res;
    dmlcl_onnx_tile_args a = {
        .input = &d22, .input_type = DML_TENSOR_DATA_TYPE_FLOAT32, .repeats = &r};
    cr_assert_eq(dmlcl_onnx_tile(13, &a, &res), S_OK, "%s", dmlcl_last_error());
    expect_shape(&res, 2, (const int64_t[]){2, 4});
    a.repeats = &r1;
    unit_expect_error(dmlcl_onnx_tile(13, &a, &res), E_INVALIDARG, "repeats has 1 values",
                      "one per dimension of input (2)");
    a.repeats = &r32;
    unit_expect_error(dmlcl_onnx_tile(13, &a, &res), E_INVALIDARG, "type INT32", "INT64");
    const int64_t neg[] = {1, -1};
    dmlcl_int_array rn = i64(2, neg);
    a.repeats = &rn;
    unit_expect_error(dmlcl_onnx_tile(13, &a, &res), E_INVALIDARG, "repeats[1] (-1)", ">= 0");
    a.repeats = &r;
    unit_expect_error(dmlcl_onnx_tile(6, &a, &res), DXGI_ERROR_UNSUPPORTED, "ONNX Tile-6", NULL);
}

Test(views_frontend, transposes)
{
    const int64_t order[] = {2, 0, 1};
    dmlcl_shape d = {3, {2, 3, 4}};
    dmlcl_int_array o = i64(3, order), none = i64(0, NULL);
    dmlcl_frontend_result r;
    dmlcl_openvino_transpose_args a = {
        .data = &d, .data_type = DML_TENSOR_DATA_TYPE_FLOAT32, .input_order = &o};
    cr_assert_eq(dmlcl_openvino_transpose(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 3, (const int64_t[]){4, 2, 3});
    /* DirectML's transpose: IDENTITY reading the input through permuted strides. */
    cr_assert_eq(r.desc.Type, DML_OPERATOR_ELEMENT_WISE_IDENTITY);
    const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *id = r.desc.Desc;
    const DML_BUFFER_TENSOR_DESC *in = id->InputTensor->Desc, *out = id->OutputTensor->Desc;
    cr_assert_not_null(in->Strides);
    cr_expect_eq(in->Strides[0], 1u);
    cr_expect_eq(in->Strides[1], 12u);
    cr_expect_eq(in->Strides[2], 4u);
    cr_expect_null(out->Strides);
    cr_expect_eq(in->TotalTensorSizeInBytes, 96u);
    a.input_order = &none;
    cr_assert_eq(dmlcl_openvino_transpose(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 3, (const int64_t[]){4, 3, 2});
    /* BOOLEAN data: the same view through the extension broadcast. */
    a.data_type = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
    cr_assert_eq(dmlcl_openvino_transpose(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.desc.Type, DMLCL_OPERATOR_BROADCAST);
    const int64_t dup[] = {0, 1, 1}, two[] = {1, 0};
    dmlcl_int_array od = i64(3, dup), o2 = i64(2, two);
    a.input_order = &od;
    unit_expect_error(dmlcl_openvino_transpose(1, &a, &r), E_INVALIDARG, "input_order[2] (1)",
                      "permutation");
    a.input_order = &o2;
    unit_expect_error(dmlcl_openvino_transpose(1, &a, &r), E_INVALIDARG, "input_order has 2", NULL);

    dmlcl_onnx_transpose_args b = {.data = &d, .data_type = DML_TENSOR_DATA_TYPE_INT64};
    cr_assert_eq(dmlcl_onnx_transpose(13, &b, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 3, (const int64_t[]){4, 3, 2});
    const int64_t bad[] = {0, 3, 1};
    b.perm = bad;
    b.perm_count = 3;
    unit_expect_error(dmlcl_onnx_transpose(13, &b, &r), E_INVALIDARG, "perm[1] (3)", "[0, 3)");
    b.perm = NULL;
    unit_expect_error(dmlcl_onnx_transpose(13, &b, &r), E_INVALIDARG, "perm (NULL)", NULL);
    b.perm_count = 0;
    cr_expect_eq(dmlcl_onnx_transpose(21, &b, &r), S_OK, "Transpose-21: the same rules");
}

Test(views_frontend, reverse)
{
    const int64_t axes[] = {-1, 0};
    const unsigned char mask[] = {1, 0, 1};
    dmlcl_shape d = {3, {2, 3, 4}};
    dmlcl_int_array ax = i64(2, axes), m = {DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 3, mask};
    dmlcl_frontend_result r;
    dmlcl_openvino_reverse_args a = {
        .data = &d, .data_type = DML_TENSOR_DATA_TYPE_FLOAT16, .axis = &ax, .mode = "index"};
    cr_assert_eq(dmlcl_openvino_reverse(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    expect_shape(&r, 3, d.dims);
    cr_assert_eq(r.desc.Type, DML_OPERATOR_SLICE1);
    const DML_SLICE1_OPERATOR_DESC *s = r.desc.Desc;
    cr_expect_eq(s->DimensionCount, 3u);
    cr_expect_eq(s->InputWindowStrides[0], -1);
    cr_expect_eq(s->InputWindowStrides[1], 1);
    cr_expect_eq(s->InputWindowStrides[2], -1);
    cr_expect_eq(s->InputWindowSizes[2], 4u);
    cr_expect_eq(s->InputWindowOffsets[2], 0u);
    a = (dmlcl_openvino_reverse_args){
        .data = &d, .data_type = DML_TENSOR_DATA_TYPE_FLOAT16, .axis = &m, .mode = "mask"};
    cr_assert_eq(dmlcl_openvino_reverse(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    s = r.desc.Desc;
    cr_expect_eq(s->InputWindowStrides[1], 1);
    cr_expect_eq(s->InputWindowStrides[2], -1);
    /* A 0-sized tensor: the extension strided slice (strides -1, whole dimensions). */
    dmlcl_shape e = {2, {0, 3}};
    a.data = &e;
    m.count = 2;
    cr_assert_eq(dmlcl_openvino_reverse(1, &a, &r), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(r.desc.Type, DMLCL_OPERATOR_STRIDED_SLICE);
    const DMLCL_STRIDED_SLICE_OPERATOR_DESC *ss = r.desc.Desc;
    cr_expect_eq(ss->SliceCount, 2u);
    cr_expect_eq(ss->Strides[0], -1);
    cr_expect_eq(ss->BeginMask[1], 1u);
    cr_expect_eq(ss->EndMask[0], 1u);
    a.data = &d;
    a.mode = NULL;
    unit_expect_error(dmlcl_openvino_reverse(1, &a, &r), E_INVALIDARG, "mode (NULL)", NULL);
    a.mode = "mask";
    unit_expect_error(dmlcl_openvino_reverse(1, &a, &r), E_INVALIDARG, "axis has 2 values",
                      "one per dimension");
    a.axis = &ax;
    unit_expect_error(dmlcl_openvino_reverse(1, &a, &r), E_INVALIDARG, "type INT64", "BOOLEAN");
    a.mode = "index";
    const int64_t far[] = {3};
    dmlcl_int_array af = i64(1, far);
    a.axis = &af;
    unit_expect_error(dmlcl_openvino_reverse(1, &a, &r), E_INVALIDARG, "axis[0] (3)", "[-3, 3)");
}
