/* SPDX-License-Identifier: MIT */
/*
 * The depth/space rearrangements on the host (no OpenCL device): every rule
 * of DirectML's SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_DEPTH1 and
 * DEPTH_TO_SPACE1 pages, and of the OpenVINO / ONNX front-ends
 * (dmlcl/frontend_depth_space.h), has a test that breaks it and checks the
 * HRESULT and that the message names the operator and the field; the plans
 * and the front-ends' views are checked against strides worked out by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "dmlcl/frontends.h"
#include "internal.h"
#include "support.h"

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    else
        cr_expect_null(op, "a failed create must not return an operator");
    return hr;
}

/* ---- DirectML ------------------------------------------------------------------------------ */

typedef struct ds {
    unit_tensor in, out;
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC d; /* the other three descriptors are its prefix */
    DML_OPERATOR_DESC op;
} ds;

static const DML_OPERATOR_TYPE types[4] = {DML_OPERATOR_SPACE_TO_DEPTH, DML_OPERATOR_DEPTH_TO_SPACE,
                                           DML_OPERATOR_SPACE_TO_DEPTH1,
                                           DML_OPERATOR_DEPTH_TO_SPACE1};
static const char *const names[4] = {"SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "SPACE_TO_DEPTH1",
                                     "DEPTH_TO_SPACE1"};

static bool to_space(int k)
{
    return k == 1 || k == 3;
}

/* Operator k on the documented shapes: depth {1,8,2,3}, space {1,2,4,6}, BlockSize 2, UINT32. */
static void ds_init(ds *c, int k)
{
    static const UINT depth[4] = {1, 8, 2, 3}, space[4] = {1, 2, 4, 6};
    memset(c, 0, sizeof *c);
    c->d.InputTensor =
        unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_UINT32, 4, to_space(k) ? depth : space, NULL);
    c->d.OutputTensor =
        unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_UINT32, 4, to_space(k) ? space : depth, NULL);
    c->d.BlockSize = 2;
    c->d.Order = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
    c->op = (DML_OPERATOR_DESC){types[k], &c->d};
}

static void expect(ds *c, int k, HRESULT want, const char *field, int line)
{
    const char *const needles[] = {names[k], field, NULL};
    unit_expect_needles(create(&c->op), want, needles, line);
}

Test(depth_space, documented_shapes_are_valid)
{
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        cr_expect_eq(create(&c.op), S_OK, "%s: %s", names[k], dmlcl_last_error());
    }
}

Test(depth_space, every_dml_type)
{
    static const DML_TENSOR_DATA_TYPE t[] = {
        DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
        DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8};
    ds c;
    for (int k = 0; k < 4; ++k)
        for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i) {
            ds_init(&c, k);
            unit_tensor_set_type(&c.in, t[i]);
            unit_tensor_set_type(&c.out, t[i]);
            cr_expect_eq(create(&c.op), S_OK, "%s: %s", names[k], dmlcl_last_error());
        }
}

Test(depth_space, rule_input_required)
{
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        c.d.InputTensor = NULL;
        expect(&c, k, E_INVALIDARG, "InputTensor", __LINE__);
    }
}

Test(depth_space, rule_same_data_type)
{
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        unit_tensor_set_type(&c.out, DML_TENSOR_DATA_TYPE_INT32);
        expect(&c, k, E_INVALIDARG, "OutputTensor.DataType", __LINE__);
    }
}

Test(depth_space, rule_extension_types_refused)
{
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        unit_tensor_set_type(&c.in, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
        unit_tensor_set_type(&c.out, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
        expect(&c, k, DXGI_ERROR_UNSUPPORTED, "InputTensor.DataType", __LINE__);
    }
}

Test(depth_space, rule_four_dimensions)
{
    static const UINT three[3] = {8, 2, 3}, five[5] = {1, 1, 8, 2, 3};
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT32, 3, three, NULL);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 3, three, NULL);
        expect(&c, k, E_INVALIDARG, "InputTensor.DimensionCount (3) must be 4", __LINE__);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT32, 5, five, NULL);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 5, five, NULL);
        expect(&c, k, E_INVALIDARG, "InputTensor.DimensionCount (5) must be 4", __LINE__);
        ds_init(&c, k);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 5, five, NULL);
        expect(&c, k, E_INVALIDARG, "OutputTensor.DimensionCount", __LINE__);
    }
}

Test(depth_space, rule_block_size_positive)
{
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        c.d.BlockSize = 0;
        expect(&c, k, E_INVALIDARG, "BlockSize (0)", __LINE__);
    }
}

Test(depth_space, rule_order_known)
{
    ds c;
    for (int k = 2; k < 4; ++k) {
        ds_init(&c, k);
        c.d.Order = (DML_DEPTH_SPACE_ORDER)2;
        expect(&c, k, E_INVALIDARG, "Order (2)", __LINE__);
    }
    /* The first versions have no Order: whatever follows BlockSize is not read. */
    for (int k = 0; k < 2; ++k) {
        ds_init(&c, k);
        c.d.Order = (DML_DEPTH_SPACE_ORDER)7;
        cr_expect_eq(create(&c.op), S_OK, "%s: %s", names[k], dmlcl_last_error());
    }
}

Test(depth_space, rule_channels_multiple_of_block_area)
{
    static const UINT depth[4] = {1, 6, 2, 3}, space[4] = {1, 1, 4, 6};
    ds c;
    for (int k = 1; k < 4; k += 2) {
        ds_init(&c, k);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT32, 4, depth, NULL);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 4, space, NULL);
        expect(&c, k, E_INVALIDARG, "InputTensor.Sizes[1] (6", __LINE__);
    }
}

Test(depth_space, rule_spatial_multiple_of_block)
{
    static const UINT tall[4] = {1, 2, 5, 6}, wide[4] = {1, 2, 4, 7}, depth[4] = {1, 8, 2, 3};
    ds c;
    for (int k = 0; k < 4; k += 2) {
        ds_init(&c, k);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT32, 4, tall, NULL);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 4, depth, NULL);
        expect(&c, k, E_INVALIDARG, "InputTensor.Sizes[2] (5", __LINE__);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT32, 4, wide, NULL);
        expect(&c, k, E_INVALIDARG, "InputTensor.Sizes[3] (7", __LINE__);
    }
}

Test(depth_space, rule_output_sizes)
{
    static const UINT depth_t[4] = {1, 8, 3, 2}, space_t[4] = {1, 2, 6, 4};
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT32, 4, to_space(k) ? space_t : depth_t,
                        NULL);
        expect(&c, k, E_INVALIDARG, "OutputTensor.Sizes", __LINE__);
    }
}

/* The plan before normalisation: {N, C, H, bh, W, bw} with the strides worked out by hand. */
static dmli_plan lowered(const DML_OPERATOR_DESC *desc)
{
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    cr_assert_not_null(cls);
    cr_assert_eq(dmli_op_class_create(cls, desc->Desc, &st), S_OK, "%s", dmlcl_last_error());
    return st.plan;
}

static void expect_strides(const dmli_plan *p, const int64_t *out, const int64_t *in, int line)
{
    static const int64_t size[6] = {1, 2, 2, 2, 3, 2};
    cr_assert_eq(p->kind, DMLI_PLAN_VIEW);
    cr_assert_eq(p->rank, 6, "line %d: rank %d", line, p->rank);
    for (int d = 0; d < 6; ++d) {
        cr_expect_eq(p->size[d], size[d], "line %d: size[%d] %lld", line, d, (long long)p->size[d]);
        cr_expect_eq(p->out_stride[d], out[d], "line %d: out_stride[%d] %lld, want %lld", line, d,
                     (long long)p->out_stride[d], (long long)out[d]);
        cr_expect_eq(p->in_stride[d], in[d], "line %d: in_stride[%d] %lld, want %lld", line, d,
                     (long long)p->in_stride[d], (long long)in[d]);
    }
}

Test(depth_space, lowering_strides)
{
    /* Space {1,2,4,6} packed {48,24,6,1}: N, C, H (2 rows of blocks), bh, W (3), bw. */
    const int64_t space[6] = {0, 24, 12, 6, 2, 1};
    /* Depth {1,8,2,3} packed {48,6,3,1}; N's stride does not matter (size 1, dropped: 0). */
    const int64_t dcr[6] = {0, 6, 3, 24, 1, 12}; /* d = (bh*2 + bw)*2 + c */
    const int64_t crd[6] = {0, 24, 3, 12, 1, 6}; /* d = c*4 + bh*2 + bw */
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        c.d.Order = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
        dmli_plan p = lowered(&c.op);
        p.out_stride[0] = p.in_stride[0] = 0;
        expect_strides(&p, to_space(k) ? space : dcr, to_space(k) ? dcr : space, __LINE__);
        if (k < 2)
            continue;
        c.d.Order = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
        p = lowered(&c.op);
        p.out_stride[0] = p.in_stride[0] = 0;
        expect_strides(&p, to_space(k) ? space : crd, to_space(k) ? crd : space, __LINE__);
    }
}

Test(depth_space, block_size_one_is_one_run)
{
    static const UINT sizes[4] = {2, 3, 4, 5};
    ds c;
    for (int k = 0; k < 4; ++k) {
        ds_init(&c, k);
        unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_UINT16, 4, sizes, NULL);
        unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_UINT16, 4, sizes, NULL);
        c.d.BlockSize = 1;
        dmli_plan p = lowered(&c.op);
        dmli_plan_normalize(&p);
        cr_expect_eq(p.rank, 1, "%s: BlockSize 1 is a copy: one run, got rank %d", names[k],
                     p.rank);
    }
}

/* ---- Front-ends ---------------------------------------------------------------------------- */

static dmlcl_frontend_result result;

static HRESULT ov(bool d2s, const dmlcl_shape *s, DML_TENSOR_DATA_TYPE t, const char *mode,
                  int64_t block)
{
    dmlcl_openvino_depth_space_args a = {
        .data = s, .data_type = t, .mode = mode, .block_size = block};
    return d2s ? dmlcl_openvino_depth_to_space(1, &a, &result)
               : dmlcl_openvino_space_to_depth(1, &a, &result);
}

#define FE_EXPECT(call, want, a, b) unit_expect_error((call), (want), (a), (b))

Test(depth_space_frontend, openvino_rules)
{
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    dmlcl_shape good = {4, {1, 8, 2, 2}}, r2 = {2, {8, 4}}, neg = {4, {1, -8, 2, 2}};
    dmlcl_shape r17 = {17, {0}};
    for (int d2s = 0; d2s < 2; ++d2s) {
        const char *op = d2s ? "OpenVINO DepthToSpace-1" : "OpenVINO SpaceToDepth-1";
        cr_expect_eq(ov(d2s, &good, f32, "blocks_first", 2), S_OK, "%s", dmlcl_last_error());
        FE_EXPECT(ov(d2s, &r2, f32, "blocks_first", 2), E_INVALIDARG, op, "rank 2");
        FE_EXPECT(ov(d2s, &neg, f32, "blocks_first", 2), E_INVALIDARG, op, "(-8)");
        FE_EXPECT(ov(d2s, &r17, f32, "blocks_first", 2), DXGI_ERROR_UNSUPPORTED, op, "rank 17");
        FE_EXPECT(ov(d2s, NULL, f32, "blocks_first", 2), E_POINTER, op, "input data");
        FE_EXPECT(ov(d2s, &good, f32, "blocks_first", 0), E_INVALIDARG, "block_size (0)",
                  "positive");
        FE_EXPECT(ov(d2s, &good, f32, "blocks_first", -3), E_INVALIDARG, "block_size (-3)", NULL);
        FE_EXPECT(ov(d2s, &good, f32, "blocks_first", (int64_t)1 << 32), DXGI_ERROR_UNSUPPORTED,
                  "block_size (4294967296)", NULL);
        FE_EXPECT(ov(d2s, &good, f32, NULL, 2), E_INVALIDARG, op, "mode (NULL)");
        FE_EXPECT(ov(d2s, &good, f32, "BLOCKS_FIRST", 2), E_INVALIDARG, op,
                  "mode (\"BLOCKS_FIRST\")");
        FE_EXPECT(ov(d2s, &good, DMLCL_TENSOR_DATA_TYPE_STRING, "blocks_first", 2),
                  DXGI_ERROR_UNSUPPORTED, op, "STRING");
        FE_EXPECT(ov(d2s, &good, DML_TENSOR_DATA_TYPE_UNKNOWN, "blocks_first", 2), E_INVALIDARG, op,
                  "type");
        dmlcl_openvino_depth_space_args a = {
            .data = &good, .data_type = f32, .mode = "depth_first", .block_size = 2};
        FE_EXPECT(d2s ? dmlcl_openvino_depth_to_space(1, &a, NULL)
                      : dmlcl_openvino_space_to_depth(1, &a, NULL),
                  E_POINTER, op, "result");
        FE_EXPECT(d2s ? dmlcl_openvino_depth_to_space(1, NULL, &result)
                      : dmlcl_openvino_space_to_depth(1, NULL, &result),
                  E_POINTER, op, "args");
        FE_EXPECT(d2s ? dmlcl_openvino_depth_to_space(0, &a, &result)
                      : dmlcl_openvino_space_to_depth(0, &a, &result),
                  E_INVALIDARG, "opset (0)", NULL);
    }
    dmlcl_shape odd_depth = {5, {1, 12, 1, 1, 1}}, odd_space = {5, {1, 1, 2, 3, 2}};
    FE_EXPECT(ov(true, &odd_depth, f32, "depth_first", 2), E_INVALIDARG, "dimension 1 (12",
              "block_size^3");
    FE_EXPECT(ov(false, &odd_space, f32, "depth_first", 2), E_INVALIDARG, "dimension 3 (3",
              "multiple of block_size");
    /* Beyond UINT sizes, legal: only an empty tensor can get there. */
    dmlcl_shape wide = {3, {0, 4, (int64_t)1 << 31}}, deep = {3, {0, (int64_t)1 << 31, 2}};
    FE_EXPECT(ov(true, &wide, f32, "depth_first", 2), DXGI_ERROR_UNSUPPORTED, "output dimension 2",
              "2^32-1");
    FE_EXPECT(ov(false, &deep, f32, "depth_first", 2), DXGI_ERROR_UNSUPPORTED, "output dimension 1",
              "2^32-1");
    dmlcl_shape tall_block = {4, {1, 0, 1, 1}};
    FE_EXPECT(ov(true, &tall_block, f32, "depth_first", 70000), DXGI_ERROR_UNSUPPORTED,
              "block_size^2", "2^32-1");
}

Test(depth_space_frontend, openvino_view_too_deep)
{
    /* K = 9 spatial dims of 2, block 2: 2 + 18 view dimensions; N drops, C' and D1 merge. */
    dmlcl_shape s = {11, {1, 1024, 2, 2, 2, 2, 2, 2, 2, 2, 2}};
    FE_EXPECT(ov(true, &s, DML_TENSOR_DATA_TYPE_UINT8, "blocks_first", 2), DXGI_ERROR_UNSUPPORTED,
              "a view of 18 dimensions", "at most 16");
    /* The same rank with dimensions of one element fits: they drop out. */
    dmlcl_shape t = {11, {1, 4, 1, 1, 1, 1, 1, 1, 1, 3, 2}};
    cr_expect_eq(ov(false, &t, DML_TENSOR_DATA_TYPE_UINT8, "blocks_first", 1), S_OK, "%s",
                 dmlcl_last_error());
}

/* The view a front-end describes: sizes, the input's strides, the packed output. */
static void expect_view(uint32_t rank, const UINT *sizes, const UINT *strides, int line)
{
    const DML_BUFFER_TENSOR_DESC *in = &result.buffers[0], *out = &result.buffers[1];
    cr_assert_eq(result.desc.Type, DMLCL_OPERATOR_STRIDED_SLICE, "line %d", line);
    cr_assert_eq(in->DimensionCount, rank, "line %d: view rank %u, want %u", line,
                 in->DimensionCount, rank);
    cr_assert_eq(out->DimensionCount, rank, "line %d", line);
    cr_expect_null(out->Strides, "line %d: the output is packed", line);
    cr_expect_eq(in->TotalTensorSizeInBytes, out->TotalTensorSizeInBytes, "line %d", line);
    for (uint32_t i = 0; i < rank; ++i) {
        cr_expect_eq(in->Sizes[i], sizes[i], "line %d: size %u: %u, want %u", line, i, in->Sizes[i],
                     sizes[i]);
        cr_expect_eq(out->Sizes[i], sizes[i], "line %d", line);
        cr_expect_eq(in->Strides[i], strides[i], "line %d: stride %u: %u, want %u", line, i,
                     in->Strides[i], strides[i]);
    }
}

Test(depth_space_frontend, views)
{
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    /* DepthToSpace blocks_first {1,8,2,3} b 2: {C'=2, D1=2, b=2, D2=3, b=2} with input
     * strides {6, 3, 24, 1, 12}; N drops, and C' merges with D1 (6 = 3 * 2). */
    dmlcl_shape d = {4, {1, 8, 2, 3}};
    cr_assert_eq(ov(true, &d, f32, "blocks_first", 2), S_OK, "%s", dmlcl_last_error());
    expect_view(4, (const UINT[]){4, 2, 3, 2}, (const UINT[]){3, 24, 1, 12}, __LINE__);
    cr_expect_eq(result.output_shape.rank, 4);
    cr_expect_eq(result.output_shape.dims[1], 2);
    cr_expect_eq(result.output_shape.dims[2], 4);
    cr_expect_eq(result.output_shape.dims[3], 6);
    cr_assert_eq(ov(true, &d, f32, "depth_first", 2), S_OK, "%s", dmlcl_last_error());
    expect_view(5, (const UINT[]){2, 2, 2, 3, 2}, (const UINT[]){24, 3, 12, 1, 6}, __LINE__);
    /* SpaceToDepth depth_first {2,2,4,6} b 2: {N, C, b, b, D1'=2, D2'=3} with strides
     * {48, 24, 6, 1, 12, 2}: N and C merge. blocks_first: {N, b, b, C, D1', D2'} with
     * {48, 6, 1, 24, 12, 2}: C and D1' merge. */
    dmlcl_shape s = {4, {2, 2, 4, 6}};
    cr_assert_eq(ov(false, &s, f32, "depth_first", 2), S_OK, "%s", dmlcl_last_error());
    expect_view(5, (const UINT[]){4, 2, 2, 2, 3}, (const UINT[]){24, 6, 1, 12, 2}, __LINE__);
    cr_assert_eq(ov(false, &s, f32, "blocks_first", 2), S_OK, "%s", dmlcl_last_error());
    expect_view(5, (const UINT[]){2, 2, 2, 4, 3}, (const UINT[]){48, 6, 1, 12, 2}, __LINE__);
    /* Block size 1: a copy, one contiguous run. */
    cr_assert_eq(ov(true, &d, f32, "depth_first", 1), S_OK, "%s", dmlcl_last_error());
    expect_view(1, (const UINT[]){48}, (const UINT[]){1}, __LINE__);
    /* Empty: {0}. */
    dmlcl_shape e = {3, {2, 0, 5}};
    cr_assert_eq(ov(true, &e, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, "depth_first", 3), S_OK, "%s",
                 dmlcl_last_error());
    expect_view(1, (const UINT[]){0}, (const UINT[]){0}, __LINE__);
    cr_expect_eq(result.output_shape.dims[2], 15);
}

Test(depth_space_frontend, onnx_rules)
{
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    dmlcl_shape good = {4, {1, 8, 2, 2}}, r3 = {3, {8, 2, 2}}, r5 = {5, {1, 1, 8, 2, 2}};
    dmlcl_onnx_depth_to_space_args d = {.input = &good, .input_type = f32, .blocksize = 2};
    dmlcl_onnx_space_to_depth_args s = {.input = &good, .input_type = f32, .blocksize = 2};
    cr_expect_eq(dmlcl_onnx_depth_to_space(13, &d, &result), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_onnx_space_to_depth(13, &s, &result), S_OK, "%s", dmlcl_last_error());
    /* Earlier versions: no mode before 11, no bfloat16 before 13. */
    cr_expect_eq(dmlcl_onnx_depth_to_space(12, &d, &result), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_onnx_depth_to_space(1, &d, &result), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_onnx_space_to_depth(12, &s, &result), S_OK, "%s", dmlcl_last_error());
    d.mode = "DCR";
    FE_EXPECT(dmlcl_onnx_depth_to_space(10, &d, &result), E_INVALIDARG, "ONNX DepthToSpace-1",
              "mode (\"DCR\") came with version 11");
    cr_expect_eq(dmlcl_onnx_depth_to_space(11, &d, &result), S_OK, "%s", dmlcl_last_error());
    d.mode = NULL;
    d.input_type = s.input_type = DMLCL_TENSOR_DATA_TYPE_BFLOAT16;
    FE_EXPECT(dmlcl_onnx_depth_to_space(12, &d, &result), E_INVALIDARG, "ONNX DepthToSpace-11",
              "BFLOAT16");
    FE_EXPECT(dmlcl_onnx_space_to_depth(12, &s, &result), E_INVALIDARG, "ONNX SpaceToDepth-1",
              "BFLOAT16");
    cr_expect_eq(dmlcl_onnx_depth_to_space(13, &d, &result), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_onnx_space_to_depth(13, &s, &result), S_OK, "%s", dmlcl_last_error());
    d.input_type = s.input_type = f32;
    FE_EXPECT(dmlcl_onnx_space_to_depth(0, &s, &result), E_INVALIDARG, "SpaceToDepth", "opset");
    d.mode = "DRC";
    FE_EXPECT(dmlcl_onnx_depth_to_space(13, &d, &result), E_INVALIDARG, "ONNX DepthToSpace-13",
              "mode (\"DRC\")");
    d.mode = "CRD";
    cr_expect_eq(dmlcl_onnx_depth_to_space(13, &d, &result), S_OK, "%s", dmlcl_last_error());
    for (int k = 0; k < 2; ++k) {
        const dmlcl_shape *bad[2] = {&r3, &r5};
        d.input = s.input = bad[k];
        FE_EXPECT(dmlcl_onnx_depth_to_space(13, &d, &result), E_INVALIDARG, "DepthToSpace-13",
                  "it must be 4");
        FE_EXPECT(dmlcl_onnx_space_to_depth(13, &s, &result), E_INVALIDARG, "SpaceToDepth-13",
                  "it must be 4");
    }
    d.input = s.input = &good;
    d.blocksize = s.blocksize = 0;
    FE_EXPECT(dmlcl_onnx_depth_to_space(13, &d, &result), E_INVALIDARG, "blocksize (0)", NULL);
    FE_EXPECT(dmlcl_onnx_space_to_depth(13, &s, &result), E_INVALIDARG, "blocksize (0)", NULL);
    d.blocksize = s.blocksize = 3;
    FE_EXPECT(dmlcl_onnx_depth_to_space(13, &d, &result), E_INVALIDARG, "dimension 1 (8",
              "multiple");
    FE_EXPECT(dmlcl_onnx_space_to_depth(13, &s, &result), E_INVALIDARG, "dimension 2 (2",
              "multiple");
}

/* Every description a front-end gives is one dmlcl_operator_create accepts. */
Test(depth_space_frontend, results_create)
{
    static const DML_TENSOR_DATA_TYPE t[] = {
        DMLCL_TENSOR_DATA_TYPE_BOOLEAN, DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
        DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_FLOAT64};
    const dmlcl_shape shapes[] = {
        {3, {2, 8, 3}},           {4, {1, 18, 1, 2}},          {5, {2, 8, 2, 1, 3}},
        {6, {1, 16, 2, 2, 2, 2}}, {16, {1, 1, 2, 2, 2, 2, 2}}, {4, {0, 4, 2, 2}},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int d2s = 0; d2s < 2; ++d2s)
            for (int bf = 0; bf < 2; ++bf) {
                int64_t b = shapes[i].rank == 4 && shapes[i].dims[1] == 18 ? 3 : 2;
                HRESULT hr = ov(d2s, &shapes[i], t[i % 4], bf ? "blocks_first" : "depth_first", b);
                if (FAILED(hr))
                    continue; /* not every shape divides both ways */
                cr_expect_eq(create(&result.desc), S_OK, "shape %zu d2s %d: %s", i, d2s,
                             dmlcl_last_error());
            }
}
