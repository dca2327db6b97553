/* SPDX-License-Identifier: MIT */
/*
 * CONVOLUTION's validation on the host (no OpenCL device): its table (FLOAT32, FLOAT16, 3 to 5
 * dimensions), one DataType and DimensionCount, DimensionCount the spatial count, Mode and
 * Direction, the five arrays, GroupCount against the channels and the filter (FORWARD {Cout,
 * Cin / G}, BACKWARD {Cin, Cout / G}), the bias's sizes, the output-size rules (FORWARD exact,
 * BACKWARD at least), FusedActivation; the description it lowers to (flipped filter strides,
 * the direction's channel strides) and the launch per device class; and the oracle
 * (tests/ref/ref_conv.c) on values worked by hand. Each broken rule checks the HRESULT and that
 * the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "conv.h"
#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "ref_conv.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

typedef struct conv {
    unit_tensor in, filter, bias, out;
    UINT strides[3], dilations[3], start[3], end[3], opad[3];
    DML_CONVOLUTION_OPERATOR_DESC d;
} conv;

/* [1, 4, 6, 8] * [6, 2, 3, 3], GroupCount 2, pad 1: [1, 6, 6, 8]. */
static void conv_init(conv *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, (UINT[]){1, 4, 6, 8}, NULL);
    c->d.FilterTensor = unit_tensor_set(&c->filter, dt, 4, (UINT[]){6, 2, 3, 3}, NULL);
    c->d.BiasTensor = unit_tensor_set(&c->bias, dt, 4, (UINT[]){1, 6, 1, 1}, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, (UINT[]){1, 6, 6, 8}, NULL);
    c->d.Mode = DML_CONVOLUTION_MODE_CROSS_CORRELATION;
    c->d.Direction = DML_CONVOLUTION_DIRECTION_FORWARD;
    c->d.DimensionCount = 2;
    for (int i = 0; i < 3; ++i) {
        c->strides[i] = c->dilations[i] = 1;
        c->start[i] = c->end[i] = 1;
    }
    c->d.Strides = c->strides;
    c->d.Dilations = c->dilations;
    c->d.StartPadding = c->start;
    c->d.EndPadding = c->end;
    c->d.OutputPadding = c->opad;
    c->d.GroupCount = 2;
}

static HRESULT create(const conv *c)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_CONVOLUTION, &c->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

Test(conv_validate, accepted)
{
    conv c;
    conv_init(&c, F32);
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    conv_init(&c, F16);
    c.d.BiasTensor = NULL;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* 1-D: {N, C, W}, DimensionCount 1; stride 2, dilation 2: (8 + 2 - 5) / 2 + 1 = 3. */
    conv_init(&c, F32);
    unit_tensor_set(&c.in, F32, 3, (UINT[]){1, 4, 8}, NULL);
    unit_tensor_set(&c.filter, F32, 3, (UINT[]){6, 2, 3}, NULL);
    unit_tensor_set(&c.bias, F32, 3, (UINT[]){1, 6, 1}, NULL);
    unit_tensor_set(&c.out, F32, 3, (UINT[]){1, 6, 3}, NULL);
    c.d.DimensionCount = 1;
    c.strides[0] = c.dilations[0] = 2;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* 3-D, depthwise. */
    conv_init(&c, F32);
    unit_tensor_set(&c.in, F32, 5, (UINT[]){2, 4, 3, 4, 5}, NULL);
    unit_tensor_set(&c.filter, F32, 5, (UINT[]){8, 1, 3, 3, 3}, NULL);
    unit_tensor_set(&c.bias, F32, 5, (UINT[]){1, 8, 1, 1, 1}, NULL);
    unit_tensor_set(&c.out, F32, 5, (UINT[]){2, 8, 3, 4, 5}, NULL);
    c.d.DimensionCount = 3;
    c.d.GroupCount = 4;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* BACKWARD: filter {Cin 4, Cout / G 3}: output {1, 6, (6-1)*2+3-2+1 = 12, (8-1)*2+3-2+1 =
     * 16}, and larger (ONNX Runtime's output_padding). */
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 3, 3, 3}, NULL);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 6, 12, 16}, NULL);
    c.strides[0] = c.strides[1] = 2;
    c.opad[0] = c.opad[1] = 1;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    c.opad[0] = c.opad[1] = 0;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    /* A fused activation. */
    conv_init(&c, F32);
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {NULL, NULL};
    DML_OPERATOR_DESC fused = {DML_OPERATOR_ACTIVATION_RELU, &relu};
    c.d.FusedActivation = &fused;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
}

Test(conv_validate, tensors)
{
    conv c;
    conv_init(&c, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(create(&c), E_INVALIDARG, "CONVOLUTION", "InputTensor.DataType (INT32)",
           "FLOAT32, FLOAT16");
    conv_init(&c, F32);
    unit_tensor_set(&c.in, F32, 2, (UINT[]){4, 6}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "InputTensor.DimensionCount (2)", "3 to 5");
    conv_init(&c, F32);
    unit_tensor_set_type(&c.filter, F16);
    EXPECT(create(&c), E_INVALIDARG, "FilterTensor.DataType (FLOAT16)");
    conv_init(&c, F32);
    unit_tensor_set_type(&c.bias, F16);
    EXPECT(create(&c), E_INVALIDARG, "BiasTensor.DataType (FLOAT16)");
    conv_init(&c, F32);
    unit_tensor_set_type(&c.out, F16);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DataType (FLOAT16)");
    conv_init(&c, F32);
    unit_tensor_set(&c.filter, F32, 5, (UINT[]){6, 2, 1, 3, 3}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "FilterTensor.DimensionCount (5)");
    conv_init(&c, F32);
    unit_tensor_set(&c.bias, F32, 3, (UINT[]){1, 6, 1}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "BiasTensor.DimensionCount (3)");
    conv_init(&c, F32);
    unit_tensor_set(&c.out, F32, 3, (UINT[]){1, 6, 48}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DimensionCount (3)");
    conv_init(&c, F32);
    c.d.FilterTensor = NULL;
    EXPECT(create(&c), E_INVALIDARG, "CONVOLUTION", "FilterTensor");
    conv_init(&c, F32);
    unit_tensor_set(&c.bias, F32, 4, (UINT[]){1, 5, 1, 1}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "BiasTensor.Sizes ({1,5,1,1})", "{1,6,1,1}");
    conv_init(&c, F32);
    unit_tensor_set(&c.bias, F32, 4, (UINT[]){1, 6, 6, 8}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "BiasTensor.Sizes ({1,6,6,8})");
}

Test(conv_validate, fields)
{
    conv c;
    conv_init(&c, F32);
    c.d.Mode = (DML_CONVOLUTION_MODE)2;
    EXPECT(create(&c), E_INVALIDARG, "Mode (2)", "DML_CONVOLUTION_MODE");
    conv_init(&c, F32);
    c.d.Direction = (DML_CONVOLUTION_DIRECTION)5;
    EXPECT(create(&c), E_INVALIDARG, "Direction (5)", "DML_CONVOLUTION_DIRECTION");
    conv_init(&c, F32);
    c.d.DimensionCount = 3;
    EXPECT(create(&c), E_INVALIDARG, "DimensionCount (3)", "InputTensor.DimensionCount - 2 (2)");
    const char *const arrays[5] = {"Strides", "Dilations", "StartPadding", "EndPadding",
                                   "OutputPadding"};
    for (int a = 0; a < 5; ++a) {
        conv_init(&c, F32);
        const UINT **p[5] = {&c.d.Strides, &c.d.Dilations, &c.d.StartPadding, &c.d.EndPadding,
                             &c.d.OutputPadding};
        *p[a] = NULL;
        EXPECT(create(&c), E_INVALIDARG, arrays[a], "is NULL");
    }
    conv_init(&c, F32);
    c.strides[1] = 0;
    EXPECT(create(&c), E_INVALIDARG, "Strides[1] (0)", "at least 1");
    conv_init(&c, F32);
    c.dilations[0] = 0;
    EXPECT(create(&c), E_INVALIDARG, "Dilations[0] (0)", "at least 1");
    conv_init(&c, F32);
    c.opad[1] = 1;
    EXPECT(create(&c), E_INVALIDARG, "OutputPadding[1] (1)", "FORWARD");
    conv_init(&c, F32);
    c.d.GroupCount = 0;
    EXPECT(create(&c), E_INVALIDARG, "GroupCount (0)", "at least 1");
    conv_init(&c, F32);
    c.d.GroupCount = 3;
    EXPECT(create(&c), E_INVALIDARG, "GroupCount (3)", "InputTensor.Sizes[1] = 4");
    conv_init(&c, F32);
    c.d.GroupCount = 1;
    EXPECT(create(&c), E_INVALIDARG, "FilterTensor.Sizes[1] (2) x GroupCount (1)",
           "InputTensor.Sizes[1] = 4");
    conv_init(&c, F32);
    c.d.GroupCount = 4;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 1, 3, 3}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "GroupCount (4)", "output channels",
           "FilterTensor.Sizes[0] = 6");
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 3, 3, 3}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "FilterTensor.Sizes[0] (6)", "InputTensor.Sizes[1] = 4",
           "BACKWARD");
    conv_init(&c, F32);
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {NULL, NULL};
    DML_OPERATOR_DESC fused = {DML_OPERATOR_ELEMENT_WISE_ADD, &relu};
    c.d.FusedActivation = &fused;
    EXPECT(create(&c), E_INVALIDARG, "FusedActivation");
}

Test(conv_validate, output_sizes)
{
    conv c;
    conv_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 6, 6, 9}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.Sizes", "{1,6,6,9}", "{1,6,6,8}");
    conv_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){2, 6, 6, 8}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.Sizes", "{2,6,6,8}");
    /* A window larger than the padded input: 5 x 5 dilated 2 (9) over 6 + 2. */
    conv_init(&c, F32);
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 2, 5, 5}, NULL);
    c.dilations[0] = 2;
    EXPECT(create(&c), E_INVALIDARG, "window of spatial dimension 0", "StartPadding[0]");
    /* BACKWARD: smaller than the rule, or the padding eats every output. */
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 3, 3, 3}, NULL);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 6, 5, 8}, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.Sizes ({1,6,5,8})", "at least", "{1,6,6,8}");
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 3, 3, 3}, NULL);
    c.start[0] = 5;
    c.end[0] = 3;
    EXPECT(create(&c), E_INVALIDARG, "spatial dimension 0 has no output");
}

static const dmli_conv *lowered(const conv *c, dmli_op_state *st)
{
    memset(st, 0, sizeof *st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(DML_OPERATOR_CONVOLUTION), &c->d, st),
                 S_OK, "%s", dmlcl_last_error());
    cr_assert(st->computed);
    cr_assert_eq(st->compute.kind, DMLI_COMPUTE_CONV);
    return (const dmli_conv *)(const void *)st->compute.work;
}

Test(conv_validate, lowered)
{
    static dmli_op_state st;
    conv c;
    conv_init(&c, F32);
    c.d.Mode = DML_CONVOLUTION_MODE_CONVOLUTION;
    const dmli_conv *v = lowered(&c, &st);
    /* Filter {6, 2, 3, 3} packed: strides {18, 9, 3, 1}; flipped: -3, -1 from (2 x 3 + 2). */
    cr_expect_eq(v->ws[1], -3);
    cr_expect_eq(v->ws[2], -1);
    cr_expect_eq(v->ws[0], 0);
    cr_expect_eq(v->ws_co, 18);
    cr_expect_eq(v->ws_ci, 9);
    cr_expect_eq(v->ws_g, 3 * 18);
    cr_expect_eq(st.compute.tensors[2].offset, 8);
    cr_expect_eq(st.compute.n_tensors, 4);
    cr_expect_eq(v->cin_g, 2);
    cr_expect_eq(v->cout_g, 3);
    cr_expect_eq(v->k[0], 1);
    cr_expect_eq(v->in[2], 8);
    dmli_op_state_release(&st);
    /* BACKWARD: the filter {Cin 4, Cout / G 3}: channel strides swap, groups step Cin / G. */
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    c.d.BiasTensor = NULL;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 3, 3, 3}, NULL);
    v = lowered(&c, &st);
    cr_expect(v->backward);
    cr_expect_eq(v->ws_co, 9);
    cr_expect_eq(v->ws_ci, 27);
    cr_expect_eq(v->ws_g, 2 * 27);
    cr_expect_eq(v->ws[2], 1);
    cr_expect_eq(st.compute.n_tensors, 4); /* no bias: the input bound again */
    cr_expect_eq(st.compute.tensors[3].slot, 0);
    dmli_op_state_release(&st);
}

static dmli_device_desc device(dmlcl_device_class cls)
{
    dmli_device_desc d = {0};
    d.device_class = cls;
    d.compute_units = 2;
    d.max_work_group_size = 1024;
    d.max_item_sizes[0] = d.max_item_sizes[1] = d.max_item_sizes[2] = 1024;
    d.local_mem_size = 65536;
    return d;
}

Test(conv_validate, launch)
{
    static dmli_op_state st;
    static dmli_compute_launch l;
    conv c;
    conv_init(&c, F32);
    lowered(&c, &st);
    dmli_device_desc cpu = device(DMLCL_DEVICE_CLASS_CPU), gpu = device(DMLCL_DEVICE_CLASS_GPU);
    /* A CPU: the channel-vector kernel. {1, 4, 6, 8} * {6, 2, 3, 3}, 2 groups: 3 channels a
     * group (one vector of 4: VW 4 from a device that reports no width), 48 positions in 6
     * blocks of 8, all in one work-group a (group, channel block) slice (fewer blocks than the
     * tuning's fewest a work-group), of that fewest, 32 items (26 idle: one work-group size for
     * a model's small layers and its large ones, one compile on PoCL); their 6 output rows
     * read a patch of 8 x 10 floats an input channel, so both input channels in one chunk (64
     * KiB of local memory: 16384 floats). The filter packed first (conv_chan_pack), for both
     * slices: 2 x 2 input channels x 9 taps x 4 channels, 576 bytes; an item each of the 2
     * slices' 2 input channels (fewer than the 16 x 2 work-groups it aims at). */
    dmli_launch_compute(&st.compute, &cpu, &l);
    cr_expect_str_eq(l.kernel, "conv_chan");
    cr_expect_str_eq(dmli_options_value(&l.defs, "PACKED"), "1");
    cr_expect_str_eq(l.pre_kernel, "conv_chan_pack");
    cr_expect_eq(l.pre_bytes, 576);
    cr_expect_eq(l.table[DMLI_CONV_PACK_CIP], 1);
    cr_expect(l.pre_global[0] == 2 && l.pre_global[1] == 1 && l.pre_global[2] == 2 &&
                  l.pre_local[0] == 1 && l.pre_local[1] == 1 && l.pre_local[2] == 1,
              "pack global {%zu,%zu,%zu} local {%zu,%zu,%zu}", l.pre_global[0], l.pre_global[1],
              l.pre_global[2], l.pre_local[0], l.pre_local[1], l.pre_local[2]);
    cr_expect_str_eq(dmli_options_value(&l.defs, "CHAN"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "VW"), "4");
    cr_expect_str_eq(dmli_options_value(&l.defs, "NV"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "PB"), "8");
    cr_expect_str_eq(dmli_options_value(&l.defs, "LW"), "16384");
    cr_expect_eq(l.table[DMLI_CONV_HAS_BIAS], 1);
    cr_expect_eq(l.table[DMLI_CONV_CO_BLOCKS], 1);
    cr_expect_eq(l.table[DMLI_CONV_CIC], 2);
    cr_expect_eq(l.local[0], 32);
    cr_expect_eq(l.global[0], 32);
    cr_expect_eq(l.global[1], 2);
    cr_expect_eq(l.global[2], 1);
    /* 512 bytes: 128 floats, one input channel a chunk. */
    cpu.local_mem_size = 512;
    dmli_launch_compute(&st.compute, &cpu, &l);
    cr_expect_str_eq(l.kernel, "conv_chan");
    cr_expect_str_eq(dmli_options_value(&l.defs, "LW"), "128");
    cr_expect_eq(l.table[DMLI_CONV_CIC], 1);
    /* 256 bytes, 64 floats: the patch of 2 blocks (16 positions, 3 output rows: 5 x 10 floats);
     * with the slice staged beside it (conv_chan_prepack=2), not even one block's patch (8
     * positions, 2 rows: 4 x 10 floats) beside the taps (36): the direct kernel, unpacked. */
    cpu.local_mem_size = 256;
    dmli_launch_compute(&st.compute, &cpu, &l);
    cr_expect_str_eq(l.kernel, "conv_chan");
    cr_expect_eq(l.local[0], 2);
    cr_expect_eq(l.table[DMLI_CONV_CIC], 1);
    char *unpacked = unit_tuning_set("conv_chan_prepack=2");
    dmli_launch_compute(&st.compute, &cpu, &l);
    unit_tuning_restore(unpacked);
    cr_expect_null(l.pre_kernel);
    cr_expect_str_eq(l.kernel, "conv_direct");
    cr_expect_str_eq(dmli_options_value(&l.defs, "TILED"), "0");
    cr_expect_str_eq(dmli_options_value(&l.defs, "VLOAD"), "1");
    cr_expect_null(dmli_options_value(&l.defs, "PACKW"));
    /* 128 bytes: not even one block's patch alone. */
    cpu.local_mem_size = 128;
    dmli_launch_compute(&st.compute, &cpu, &l);
    cr_expect_str_eq(l.kernel, "conv_direct");
    cr_expect_null(l.pre_kernel);
    cpu.local_mem_size = 65536;
    /* A GPU: the implicit GEMM, each group's [3, 2 x 9] filter times its [18, 48] windows in
     * GEMM's tile (src/launch_gemm.c dmli_tile_choose): 4 x 4 blocks (a block of 8 would
     * leave half its tile idle along both sides), 16 x 16 items (the 2 groups' tiles of 64 x 64
     * already one a compute unit); the groups along dimension 2. */
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IGEMM"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "WN"), "4");
    cr_expect_str_eq(dmli_options_value(&l.defs, "WM"), "4");
    cr_expect_str_eq(dmli_options_value(&l.defs, "TAPS"), "256");
    cr_expect(l.local[0] == 16 && l.local[1] == 16 && l.local[2] == 1, "local %zu %zu %zu",
              l.local[0], l.local[1], l.local[2]);
    cr_expect(l.global[0] == 16 && l.global[1] == 16 && l.global[2] == 2, "global %zu %zu %zu",
              l.global[0], l.global[1], l.global[2]);
    /* Eight compute units: 8 x 8 items, tiles of 32 x 32, 2 x 1 of them a group. */
    gpu.compute_units = 8;
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect(l.local[0] == 8 && l.local[1] == 8 && l.global[0] == 16 && l.global[1] == 8,
              "local %zu %zu global %zu %zu", l.local[0], l.local[1], l.global[0], l.global[1]);
    gpu.compute_units = 2;
    /* Off by tuning (another value than 1): the work-group tiles of one output row. */
    char *saved = unit_tuning_set("conv_gemm=2");
    dmli_launch_compute(&st.compute, &gpu, &l);
    unit_tuning_restore(saved);
    cr_expect_str_eq(l.kernel, "conv_tiled");
    cr_expect_neq(l.local[0], 0);
    cr_expect_eq(l.global[0] % l.local[0], 0);
    cr_expect_eq(l.global[1] % l.local[1], 0);
    cr_expect_geq(l.table[DMLI_CONV_CIC], 1);
    /* A GPU without the local memory runs the direct kernel. */
    gpu.local_mem_size = 1024;
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_direct");
    dmli_op_state_release(&st);
    /* BACKWARD {1, 4, 6, 8} x {4, 3, 3, 3} stride 2 -> {1, 6, 12, 16} (2 groups of 3 output
     * channels): the implicit GEMM a phase of the strides, 2 x 2 of them, each a grid of
     * ceil(12 / 2) x ceil(16 / 2) = 48 positions; groups x phases along dimension 2. */
    conv_init(&c, F32);
    c.d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 3, 3, 3}, NULL);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 6, 12, 16}, NULL);
    c.strides[0] = c.strides[1] = 2;
    lowered(&c, &st);
    gpu.local_mem_size = 65536;
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    cr_expect_str_eq(dmli_options_value(&l.defs, "BACKWARD"), "1");
    cr_expect(l.local[0] == 16 && l.local[1] == 16 && l.global[0] == 16 && l.global[1] == 16 &&
                  l.global[2] == 2 * 4,
              "local %zu %zu global %zu %zu %zu", l.local[0], l.local[1], l.global[0], l.global[1],
              l.global[2]);
    dmli_op_state_release(&st);
    /* FORWARD at stride 1 with several taps and 16 input channels a group or more: conv_tiled,
     * whose staged patch serves every tap (conv_tiled_from_cin); 8 channels or stride 2: the
     * implicit GEMM (a 1x1 layer is a GEMM already); the tuning at 17 puts 16 channels back in
     * the implicit GEMM. */
    conv_init(&c, F32);
    c.d.GroupCount = 1;
    unit_tensor_set(&c.in, F32, 4, (UINT[]){1, 16, 6, 8}, NULL);
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 16, 3, 3}, NULL);
    lowered(&c, &st);
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_tiled");
    saved = unit_tuning_set("conv_tiled_from_cin=17");
    dmli_launch_compute(&st.compute, &gpu, &l);
    unit_tuning_restore(saved);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    dmli_op_state_release(&st);
    unit_tensor_set(&c.in, F32, 4, (UINT[]){1, 8, 6, 8}, NULL);
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 8, 3, 3}, NULL);
    lowered(&c, &st);
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm", "8 channels");
    dmli_op_state_release(&st);
    unit_tensor_set(&c.in, F32, 4, (UINT[]){1, 16, 11, 15}, NULL);
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){6, 16, 3, 3}, NULL);
    c.strides[0] = c.strides[1] = 2;
    lowered(&c, &st);
    dmli_launch_compute(&st.compute, &gpu, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm", "stride 2");
    dmli_op_state_release(&st);
    /* Depthwise: one channel a block. */
    conv_init(&c, F32);
    c.d.GroupCount = 4;
    unit_tensor_set(&c.filter, F32, 4, (UINT[]){4, 1, 3, 3}, NULL);
    unit_tensor_set(&c.bias, F32, 4, (UINT[]){1, 4, 1, 1}, NULL);
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 4, 6, 8}, NULL);
    lowered(&c, &st);
    dmli_launch_compute(&st.compute, &cpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "COB"), "1");
    cr_expect_eq(l.global[1], 4);
    dmli_op_state_release(&st);
}

Test(conv_validate, oracle)
{
    /* 1-D: x = {1, 2, 3}, w = {1, 10}, stride 1, pad 1 each side: windows over {0, 1, 2, 3, 0}:
     * {10, 21, 32, 3}; BACKWARD stride 2: x[i] w[k] at 2 i + k: {1, 10, 2, 20, 3, 30}. */
    float x[3] = {1, 2, 3}, w[2] = {1, 10}, y[6];
    uint32_t xs[3] = {1, 1, 3}, ws[3] = {1, 1, 2}, ys[3] = {1, 1, 4}, bs[3] = {1, 1, 6};
    ref_conv_params p = {.spatial = 1, .groups = 1};
    p.strides[0] = p.dilations[0] = 1;
    p.start[0] = p.end[0] = 1;
    ref_tensor in = ref_tensor_view(F32, 3, xs, NULL, x), f = ref_tensor_view(F32, 3, ws, NULL, w);
    ref_tensor out = ref_tensor_view(F32, 3, ys, NULL, y);
    cr_assert(ref_conv(&p, &in, &f, NULL, &out, NULL));
    cr_expect(y[0] == 10 && y[1] == 21 && y[2] == 32 && y[3] == 3, "%g %g %g %g", y[0], y[1], y[2],
              y[3]);
    p.backward = true;
    p.strides[0] = 2;
    p.start[0] = p.end[0] = 0;
    out = ref_tensor_view(F32, 3, bs, NULL, y);
    cr_assert(ref_conv(&p, &in, &f, NULL, &out, NULL));
    const float want[6] = {1, 10, 2, 20, 3, 30};
    for (int i = 0; i < 6; ++i)
        cr_expect_eq(y[i], want[i], "%d: %g", i, y[i]);
    cr_expect_eq(ref_conv_ulps(&p, &f), 4);
}

/* A square FLOAT32 convolution [1, cin, hw, hw] * [cout, cin, k, k], stride s, padding p on
 * every side, one group, no bias: FORWARD, or BACKWARD (the transposed convolution, whose
 * filter is [cin, cout, k, k] and output (hw - 1) * s - 2p + k). */
static void square(conv *c, UINT cin, UINT hw, UINT cout, UINT k, UINT s, UINT p, bool backward)
{
    conv_init(c, F32);
    const UINT out = backward ? (hw - 1) * s - 2 * p + k : (hw + 2 * p - k) / s + 1;
    c->d.InputTensor = unit_tensor_set(&c->in, F32, 4, (UINT[]){1, cin, hw, hw}, NULL);
    c->d.FilterTensor = unit_tensor_set(
        &c->filter, F32, 4, backward ? (UINT[]){cin, cout, k, k} : (UINT[]){cout, cin, k, k}, NULL);
    c->d.BiasTensor = NULL;
    c->d.OutputTensor = unit_tensor_set(&c->out, F32, 4, (UINT[]){1, cout, out, out}, NULL);
    c->d.Direction =
        backward ? DML_CONVOLUTION_DIRECTION_BACKWARD : DML_CONVOLUTION_DIRECTION_FORWARD;
    c->d.GroupCount = 1;
    for (int i = 0; i < 2; ++i) {
        c->strides[i] = s;
        c->start[i] = c->end[i] = p;
    }
}

/* c's launch on dev (the lowered state released). */
static void launch_of(const conv *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    static dmli_op_state st;
    lowered(c, &st);
    dmli_launch_compute(&st.compute, dev, l);
    dmli_op_state_release(&st);
}

Test(conv_validate, gpu_split_k)
{
    static dmli_compute_launch l;
    /* An H200 (132 compute units, 48 KiB of local memory) and src/tuning.c's GPU table. */
    dmli_device_desc h200 = device(DMLCL_DEVICE_CLASS_GPU);
    h200.compute_units = 132;
    h200.local_mem_size = 48 * 1024;
    conv c;
    /* ResNet's 3x3 at 14 x 14, 256 -> 256: conv_gemm's 56 tiles of 32 x 32 (3584 items, 384 a
     * unit wanted) split k (256 x 9 = 2304, 288 steps of 8) in 15 slices of 160, and take it
     * from conv_tiled. */
    square(&c, 256, 14, 256, 3, 1, 1, false);
    launch_of(&c, &h200, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    cr_expect_eq(l.splits, 15);
    cr_expect_eq(l.table[DMLI_CONV_SPLITS], 15);
    cr_expect_eq(l.table[DMLI_CONV_SPLIT_K], 160);
    cr_expect_eq(l.split_bytes, 15ull * 56 * 32 * 32 * 4);
    cr_expect(l.global[2] == 1, "global %zu", l.global[2]);
    /* At 56 x 56, 64 -> 64: 196 tiles of 32 x 32, k 576 in 72 steps: 4 slices of 144. */
    square(&c, 64, 56, 64, 3, 1, 1, false);
    launch_of(&c, &h200, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    cr_expect_eq(l.splits, 4);
    cr_expect_eq(l.table[DMLI_CONV_SPLIT_K], 144);
    /* Without the split (tile_split_max 1) both go to conv_tiled, as before it. */
    char *saved = unit_tuning_set("tile_split_max=1");
    square(&c, 256, 14, 256, 3, 1, 1, false);
    launch_of(&c, &h200, &l);
    cr_expect_str_eq(l.kernel, "conv_tiled");
    cr_expect_eq(l.splits, 1);
    cr_expect_eq(l.table[DMLI_CONV_SPLITS], 1);
    unit_tuning_restore(saved);
    /* Enough positions (a batch of 16 at 56 x 56: 64 channels x 50176 positions in 392 tiles
     * of 64 x 128, 256 items each: 100352): no split, conv_tiled. (A batch of 8: 196 tiles,
     * 50176 items, just under 50688: 2 slices.) */
    square(&c, 64, 56, 64, 3, 1, 1, false);
    c.d.InputTensor = unit_tensor_set(&c.in, F32, 4, (UINT[]){16, 64, 56, 56}, NULL);
    c.d.OutputTensor = unit_tensor_set(&c.out, F32, 4, (UINT[]){16, 64, 56, 56}, NULL);
    launch_of(&c, &h200, &l);
    cr_expect_str_eq(l.kernel, "conv_tiled");
    cr_expect_eq(l.splits, 1);
    /* BACKWARD 4 x 4 / 2, padding 1, 512 -> 32 at 7 x 7 (output 14 x 14): a phase of the
     * strides takes 2 of the 4 taps along each dimension (tap k reaches phase (k - 1) mod 2),
     * so k is 512 x 4 = 2048 (not 512 x 16), 256 steps of 8; 4 phases of 7 x 7 positions x 32
     * channels in tiles of 32 x 32: 8 groups of 64 items, 16 slices (the most) of 128. */
    square(&c, 512, 7, 32, 4, 2, 1, true);
    launch_of(&c, &h200, &l);
    cr_expect_str_eq(l.kernel, "conv_gemm");
    cr_expect_eq(l.splits, 16);
    cr_expect_eq(l.table[DMLI_CONV_SPLIT_K], 128);
    cr_expect_eq(l.global[2], 4);
    /* A CPU: no split. */
    dmli_device_desc cpu = h200;
    cpu.device_class = DMLCL_DEVICE_CLASS_CPU;
    square(&c, 256, 14, 256, 3, 1, 1, false);
    launch_of(&c, &cpu, &l);
    cr_expect_eq(l.splits, 1);
}
