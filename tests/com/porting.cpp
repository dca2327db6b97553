// SPDX-License-Identifier: MIT
/*
 * DirectML programs through dmlcl's DirectML API: ELEMENT_WISE_IDENTITY
 * (a layout change), GATHER (negative and out-of-range indices, clamped),
 * GATHER_ND1 (a batch dimension, INT64 indices) and SLICE1 (a negative
 * stride), each compared byte for byte with the C oracle (tests/ref); GATHER
 * and the graph again with their inputs DML_TENSOR_FLAG_OWNED_BY_DML (given
 * to the operator initializer, kept in the persistent resource); a graph with
 * inputs that feed no node, as DirectMLX compiles them.
 */
#include "common.h"

#include "ref.h"
#include "ref_activation.h"
#include "ref_broadcast.h"
#include "ref_gather_ext.h"
#include "ref_slice.h"

/* Distinct bytes, so a misplaced element cannot hide. */
static void Fill(Tensor &t, unsigned seed)
{
    ref_rng rng = ref_rng_make(ref_test_seed(seed));
    ref_rng_bytes(&rng, t.bytes.data(), t.bytes.size());
}

static ref_tensor View(Tensor &t)
{
    return ref_tensor_view(t.buffer.DataType, t.buffer.DimensionCount, t.sizes.data(),
                           t.strides.empty() ? nullptr : t.strides.data(), t.bytes.data());
}

struct Fixture {
    dmlcl_device *d3d12Device = nullptr; /* DirectML: an ID3D12Device on an adapter */
    ComPtr<IDMLDevice> dmlDevice;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr; /* DirectML: a command list and queue */

    Fixture()
    {
        CHECK_HR(dmlcl_device_create(&d3d12Device), S_OK);
        DML_CREATE_DEVICE_FLAGS flags = DML_CREATE_DEVICE_FLAG_NONE;
        CHECK_HR(DMLCreateDevice(d3d12Device, flags, IID_PPV_ARGS(&dmlDevice)), S_OK);
        context = dmlcl_device_context(d3d12Device);
        queue = dmlcl_device_queue(d3d12Device);
    }
    ~Fixture()
    {
        dmlDevice.Reset();
        dmlcl_device_release(d3d12Device);
    }
};

static void Compare(const char *what, const Tensor &got, const std::vector<unsigned char> &want)
{
    if (got.bytes == want)
        return;
    size_t i = 0;
    while (got.bytes[i] == want[i])
        ++i;
    std::fprintf(stderr, "%s: byte %zu is 0x%02x, the oracle's 0x%02x\n", what, i, got.bytes[i],
                 want[i]);
    ++g_failures;
}

static void Identity(Fixture &f)
{
    /* NCHW read as NHWC: the output is packed, the input strided. */
    Tensor input(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 4, 5}, {60, 1, 15, 3});
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 4, 5});
    Fill(input, 11);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&input.desc, &output.desc, nullptr};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};

    std::vector<unsigned char> want = output.bytes;
    ref_tensor in = View(input), out = View(output);
    out.base = want.data();
    CHECK(ref_identity(&in, &out, nullptr));
    CHECK_HR(RunOperator(f.dmlDevice.Get(), f.context, f.queue, desc, {&input}, {&output}), S_OK);
    Compare("ELEMENT_WISE_IDENTITY", output, want);
}

static void Gather(Fixture &f, DML_TENSOR_FLAGS owned)
{
    Tensor input(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2, 4, 3});
    Tensor indices(DML_TENSOR_DATA_TYPE_INT32, {1, 1, 1, 6});
    input.buffer.Flags = indices.buffer.Flags = owned;
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2, 6, 3});
    Fill(input, 12);
    /* -1 counts from the end; 7 and -9 are outside the axis of 4: clamped. */
    const int32_t idx[6] = {2, -1, 7, -9, 0, 3};
    std::memcpy(indices.bytes.data(), idx, sizeof idx);
    DML_GATHER_OPERATOR_DESC gather = {&input.desc, &indices.desc, &output.desc, 2, 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &gather};

    std::vector<unsigned char> want = output.bytes;
    ref_tensor in = View(input), ix = View(indices), out = View(output);
    out.base = want.data();
    CHECK(ref_gather(&in, &ix, &out, 2, 1));
    CHECK_HR(
        RunOperator(f.dmlDevice.Get(), f.context, f.queue, desc, {&input, &indices}, {&output}),
        S_OK);
    Compare(owned ? "GATHER, inputs owned by DirectML" : "GATHER", output, want);
}

static void GatherNd1(Fixture &f)
{
#if DML_TARGET_VERSION >= 0x3000
    Tensor input(DML_TENSOR_DATA_TYPE_UINT16, {3, 5, 4});
    Tensor indices(DML_TENSOR_DATA_TYPE_INT64, {3, 4, 1});
    Tensor output(DML_TENSOR_DATA_TYPE_UINT16, {3, 4, 4});
    Fill(input, 13);
    const int64_t idx[12] = {4, -1, 0, 2, 9, -6, 1, 3, 0, 0, -5, 2};
    std::memcpy(indices.bytes.data(), idx, sizeof idx);
    DML_GATHER_ND1_OPERATOR_DESC gather = {&input.desc, &indices.desc, &output.desc, 3, 3, 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER_ND1, &gather};

    std::vector<unsigned char> want = output.bytes;
    ref_tensor in = View(input), ix = View(indices), out = View(output);
    out.base = want.data();
    int64_t bad = -1;
    CHECK(ref_gather_nd(&in, &ix, &out, 1, REF_CLAMP, &bad));
    CHECK_HR(
        RunOperator(f.dmlDevice.Get(), f.context, f.queue, desc, {&input, &indices}, {&output}),
        S_OK);
    Compare("GATHER_ND1", output, want);
#else
    std::fprintf(stderr, "GATHER_ND1 needs DML_TARGET_VERSION >= 0x3000\n");
    ++g_failures;
#endif
}

static void Slice1(Fixture &f)
{
#if DML_TARGET_VERSION >= 0x2100
    Tensor input(DML_TENSOR_DATA_TYPE_INT32, {2, 4, 7});
    Tensor output(DML_TENSOR_DATA_TYPE_INT32, {2, 3, 3});
    Fill(input, 14);
    /* Rows 1..3, and columns 0..5 read backwards by 2: 5, 3, 1. */
    const UINT offsets[3] = {0, 1, 0}, sizes[3] = {2, 3, 6};
    const INT strides[3] = {1, 1, -2};
    DML_SLICE1_OPERATOR_DESC slice = {&input.desc, &output.desc, 3, offsets, sizes, strides};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE1, &slice};

    std::vector<unsigned char> want = output.bytes;
    ref_tensor in = View(input), out = View(output);
    out.base = want.data();
    CHECK(ref_slice1(&in, &out, offsets, sizes, strides));
    CHECK_HR(RunOperator(f.dmlDevice.Get(), f.context, f.queue, desc, {&input}, {&output}), S_OK);
    Compare("SLICE1", output, want);
#else
    std::fprintf(stderr, "SLICE1 needs DML_TARGET_VERSION >= 0x2100\n");
    ++g_failures;
#endif
}

/* A graph through IDMLDevice1::CompileGraph: a layout change, then a gather of its rows. */
static void Graph(Fixture &f, DML_TENSOR_FLAGS owned)
{
#if DML_TARGET_VERSION >= 0x2100
    ComPtr<IDMLDevice1> device1;
    CHECK_HR(f.dmlDevice.As(&device1), S_OK);
    if (!device1)
        return;
    Tensor input(DML_TENSOR_DATA_TYPE_UINT8, {1, 3, 4, 5}, {60, 1, 15, 3});
    Tensor packed(DML_TENSOR_DATA_TYPE_UINT8, {1, 3, 4, 5});
    Tensor indices(DML_TENSOR_DATA_TYPE_INT32, {1, 1, 1, 3});
    Tensor output(DML_TENSOR_DATA_TYPE_UINT8, {1, 3, 3, 5});
    input.buffer.Flags = indices.buffer.Flags = owned;
    Fill(input, 15);
    const int32_t idx[3] = {3, -4, 9}; /* 9 is clamped into the axis of 4 */
    std::memcpy(indices.bytes.data(), idx, sizeof idx);

    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&input.desc, &packed.desc, nullptr};
    DML_OPERATOR_DESC identityDesc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
    DML_GATHER_OPERATOR_DESC gather = {&packed.desc, &indices.desc, &output.desc, 2, 1};
    DML_OPERATOR_DESC gatherDesc = {DML_OPERATOR_GATHER, &gather};
    ComPtr<IDMLOperator> ops[2];
    CHECK_HR(f.dmlDevice->CreateOperator(&identityDesc, IID_PPV_ARGS(&ops[0])), S_OK);
    CHECK_HR(f.dmlDevice->CreateOperator(&gatherDesc, IID_PPV_ARGS(&ops[1])), S_OK);
    if (!ops[0] || !ops[1])
        return;

    DML_OPERATOR_GRAPH_NODE_DESC opNodes[2] = {{ops[0].Get(), "relayout"},
                                               {ops[1].Get(), "gather"}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[1]}};
    DML_INPUT_GRAPH_EDGE_DESC inputs[2] = {{0, 0, 0, "input"}, {1, 1, 1, "indices"}};
    DML_GRAPH_EDGE_DESC inputEdges[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &inputs[0]},
                                         {DML_GRAPH_EDGE_TYPE_INPUT, &inputs[1]}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC middle = {0, 0, 1, 0, "packed"};
    DML_GRAPH_EDGE_DESC middleEdge = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &middle};
    DML_OUTPUT_GRAPH_EDGE_DESC out = {1, 0, 0, "output"};
    DML_GRAPH_EDGE_DESC outputEdge = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out};
    DML_GRAPH_DESC graph = {2, 1, 2, nodes, 2, inputEdges, 1, &outputEdge, 1, &middleEdge};
    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(device1->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)), S_OK);
    if (!compiled)
        return;

    std::vector<unsigned char> between = packed.bytes, want = output.bytes;
    ref_tensor in = View(input), mid = View(packed), ix = View(indices), res = View(output);
    mid.base = between.data();
    res.base = want.data();
    CHECK(ref_identity(&in, &mid, nullptr));
    CHECK(ref_gather(&mid, &ix, &res, 2, 1));
    CHECK_HR(RunCompiled(f.dmlDevice.Get(), f.context, f.queue, compiled.Get(), {&input, &indices},
                         {&output}),
             S_OK);
    Compare(owned ? "graph IDENTITY -> GATHER, inputs owned by DirectML"
                  : "graph IDENTITY -> GATHER",
            output, want);
#else
    std::fprintf(stderr, "graphs need DML_TARGET_VERSION >= 0x2100\n");
    ++g_failures;
#endif
}

/*
 * Graph inputs that feed no node: DirectMLX's Graph::Compile counts every InputTensor a
 * program made (and takes a larger inputCount on purpose), so a program that makes an input
 * it ends up not using compiles a graph with an input no edge reads. Graph inputs 0 and 2
 * here are such; each is bound as nothing, then as a buffer (never read). Graph output 0 is
 * fed by no node (DirectMLX gives an empty Expression's output no edge): never written.
 */
static void UnusedGraphInputs(Fixture &f)
{
#if DML_TARGET_VERSION >= 0x2100
    ComPtr<IDMLDevice1> device1;
    CHECK_HR(f.dmlDevice.As(&device1), S_OK);
    if (!device1)
        return;
    Tensor unused0(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 2, 3});
    Tensor input(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 4, 5}, {60, 1, 15, 3});
    Tensor unused2(DML_TENSOR_DATA_TYPE_UINT8, {7});
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 4, 5});
    Fill(input, 17);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&input.desc, &output.desc, nullptr};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
    ComPtr<IDMLOperator> op;
    CHECK_HR(f.dmlDevice->CreateOperator(&desc, IID_PPV_ARGS(&op)), S_OK);
    if (!op)
        return;
    DML_OPERATOR_GRAPH_NODE_DESC opNode = {op.Get(), "relayout"};
    DML_GRAPH_NODE_DESC node = {DML_GRAPH_NODE_TYPE_OPERATOR, &opNode};
    DML_INPUT_GRAPH_EDGE_DESC in = {1, 0, 0, "input"};
    DML_GRAPH_EDGE_DESC inputEdge = {DML_GRAPH_EDGE_TYPE_INPUT, &in};
    DML_OUTPUT_GRAPH_EDGE_DESC out = {0, 0, 1, "output"};
    DML_GRAPH_EDGE_DESC outputEdge = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out};
    DML_GRAPH_DESC graph = {3, 2, 1, &node, 1, &inputEdge, 1, &outputEdge, 0, nullptr};
    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(device1->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)), S_OK);
    if (!compiled)
        return;
    std::vector<unsigned char> want = output.bytes;
    ref_tensor rin = View(input), rout = View(output);
    rout.base = want.data();
    CHECK(ref_identity(&rin, &rout, nullptr));
    Tensor unfed(DML_TENSOR_DATA_TYPE_FLOAT32, {5});
    std::vector<unsigned char> untouched = unfed.bytes;
    CHECK_HR(RunCompiled(f.dmlDevice.Get(), f.context, f.queue, compiled.Get(),
                         {nullptr, &input, nullptr}, {&unfed, &output}),
             S_OK);
    Compare("graph with unused inputs bound as nothing", output, want);
    Compare("graph output 0, fed by no node", unfed, untouched);
    output.bytes.assign(output.bytes.size(), 0xA5);
    CHECK_HR(RunCompiled(f.dmlDevice.Get(), f.context, f.queue, compiled.Get(),
                         {&unused0, &input, &unused2}, {&unfed, &output}),
             S_OK);
    Compare("graph with unused inputs bound to buffers", output, want);
    Compare("graph output 0, fed by no node, again", unfed, untouched);
#endif
}

/* ELEMENT_WISE_ADD1 with a fused LEAKY_RELU, its descriptions built in a scope that ends at
 * CreateOperator and overwritten there: the operator keeps no pointer into them. */
static void Add1Fused(Fixture &f)
{
    Tensor a(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}), b(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}, {0, 1});
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3});
    const float av[6] = {1, -2, 3, -4, 5, -6}, bv[3] = {0.5f, -8, 2};
    std::memcpy(a.bytes.data(), av, sizeof av);
    std::memcpy(b.bytes.data(), bv, sizeof bv);
    ComPtr<IDMLOperator> op;
    {
        DML_ACTIVATION_LEAKY_RELU_OPERATOR_DESC leaky = {nullptr, nullptr, 0.25f};
        DML_OPERATOR_DESC fused = {DML_OPERATOR_ACTIVATION_LEAKY_RELU, &leaky};
        DML_ELEMENT_WISE_ADD1_OPERATOR_DESC add1 = {&a.desc, &b.desc, &output.desc, &fused};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_ADD1, &add1};
        CHECK_HR(f.dmlDevice->CreateOperator(&desc, IID_PPV_ARGS(&op)), S_OK);
        std::memset(&leaky, 0xA5, sizeof leaky);
        fused = {DML_OPERATOR_INVALID, nullptr};
    }
    if (!op)
        return;
    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(
        f.dmlDevice->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
        S_OK);
    std::vector<unsigned char> want = output.bytes;
    ref_tensor ra = View(a), rb = View(b), out = View(output);
    out.base = want.data();
    const double alpha[2] = {0.25, 0};
    CHECK(ref_add1(REF_ACT_LEAKY_RELU, alpha, &ra, &rb, &out));
    CHECK_HR(
        RunCompiled(f.dmlDevice.Get(), f.context, f.queue, compiled.Get(), {&a, &b}, {&output}),
        S_OK);
    Compare("ELEMENT_WISE_ADD1 + LEAKY_RELU", output, want);
}

int main()
{
    {
        Fixture f;
        if (!f.dmlDevice)
            return finish("dmlcl-com-porting");
        Identity(f);
        Gather(f, DML_TENSOR_FLAG_NONE);
        Gather(f, DML_TENSOR_FLAG_OWNED_BY_DML);
        GatherNd1(f);
        Slice1(f);
        Add1Fused(f);
        Graph(f, DML_TENSOR_FLAG_NONE);
        Graph(f, DML_TENSOR_FLAG_OWNED_BY_DML);
        UnusedGraphInputs(f);
    }
    return finish("dmlcl-com-porting");
}
