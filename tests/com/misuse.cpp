// SPDX-License-Identifier: MIT
/*
 * DirectML's C++ API under the C API's guarantees (issue 35), each a
 * regression test the sanitizer build runs (UBSan's enum check included):
 * every enum a caller passes is read as an integer and refused outside its
 * values, never loaded as the enum first (a node type of 9, a binding type of
 * 77, flags, feature queries and levels); a pointer that is not a dmlcl
 * device (the address of a GUID) is refused by DMLCreateDevice, not kept;
 * one rule for a temporary or persistent resource nobody needs (DirectML's:
 * refused); and a graph edge read as a prefix of its producer's output.
 */
#include "common.h"

#include <climits>

/* ID3D12Device's IID: GetParentDevice answers it. */
static const GUID kID3D12Device = {
    0x189819f1, 0x1db6, 0x4b57, {0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7}};

/*
 * Stores v in an enum field as its bytes: the test must not itself load a
 * value outside the enum's range (what UBSan checks in the library).
 */
template <class E> static void SetRaw(E &field, UINT v)
{
    static_assert(sizeof(E) == sizeof(UINT), "32-bit enums");
    std::memcpy(&field, &v, sizeof v);
}

/* An enum argument outside its values, as a prvalue: converted, never loaded in the test. */
template <class E> static E Bad(UINT v)
{
    return static_cast<E>(v);
}

/* The message of the last failure holds needle. */
static bool Says(const char *needle)
{
    bool found = std::strstr(dmlcl_last_error(), needle) != nullptr;
    if (!found)
        std::fprintf(stderr, "  expected \"%s\" in: %s\n", needle, dmlcl_last_error());
    return found;
}

/* A small valid GATHER: {4,3} by 2 indices along axis 2. */
struct GatherDesc {
    Tensor input{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 4, 3}};
    Tensor indices{DML_TENSOR_DATA_TYPE_UINT32, {1, 1, 1, 2}};
    Tensor output{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 2, 3}};
    DML_GATHER_OPERATOR_DESC gather{&input.desc, &indices.desc, &output.desc, 2, 1};
    DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
};

static ComPtr<IDMLDevice1> NewDevice()
{
    ComPtr<IDMLDevice1> device;
    CHECK_HR(DMLCreateDevice(nullptr, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)), S_OK);
    return device;
}

/* A device with one compiled GATHER and a binding table for it (or for its initializer). */
struct Bound {
    ComPtr<IDMLDevice1> device = NewDevice();
    GatherDesc g;
    ComPtr<IDMLOperator> op;
    ComPtr<IDMLCompiledOperator> compiled;
    ComPtr<IDMLOperatorInitializer> init;
    ComPtr<IDMLBindingTable> table;
    explicit Bound(bool initializer = false)
    {
        if (!device)
            return;
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
        CHECK_HR(
            device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
            S_OK);
        IDMLDispatchable *target = compiled.Get();
        if (initializer) {
            IDMLCompiledOperator *ops[] = {compiled.Get()};
            CHECK_HR(device->CreateOperatorInitializer(1, ops, IID_PPV_ARGS(&init)), S_OK);
            target = init.Get();
        }
        DML_BINDING_TABLE_DESC desc = {target, {}, {}, 8};
        CHECK_HR(device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)), S_OK);
    }
    /* A void method failed: the device is removed and the message says why. */
    bool Removed(const char *needle)
    {
        return device->GetDeviceRemovedReason() == DXGI_ERROR_DEVICE_REMOVED && Says(needle);
    }
};

static void NodeAndEdgeTypes()
{
    ComPtr<IDMLDevice1> device = NewDevice();
    if (!device)
        return;
    GatherDesc g;
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    DML_OPERATOR_GRAPH_NODE_DESC opNode = {op.Get(), nullptr};
    DML_GRAPH_NODE_DESC node = {DML_GRAPH_NODE_TYPE_OPERATOR, &opNode};
    DML_INPUT_GRAPH_EDGE_DESC in[2] = {{0, 0, 0, nullptr}, {1, 0, 1, nullptr}};
    DML_GRAPH_EDGE_DESC inEdges[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &in[0]},
                                      {DML_GRAPH_EDGE_TYPE_INPUT, &in[1]}};
    DML_OUTPUT_GRAPH_EDGE_DESC out = {0, 0, 0, nullptr};
    DML_GRAPH_EDGE_DESC outEdge = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out};
    DML_GRAPH_DESC graph = {2, 1, 1, &node, 2, inEdges, 1, &outEdge, 0, nullptr};
    ComPtr<IDMLCompiledOperator> compiled;

    for (UINT type : {9u, 77u, 0u, 3u, 0x80000000u, UINT_MAX}) {
        SetRaw(node.Type, type);
        CHECK_HR(device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
                 E_INVALIDARG);
        char needle[64];
        std::snprintf(needle, sizeof needle, "Nodes[0].Type (%u)", type);
        CHECK(Says(needle));
    }
    node.Type = DML_GRAPH_NODE_TYPE_OPERATOR;
    for (UINT type : {0u, 4u, 77u, UINT_MAX}) {
        SetRaw(inEdges[1].Type, type);
        CHECK_HR(device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
                 E_INVALIDARG);
        char needle[64];
        std::snprintf(needle, sizeof needle, "InputEdges[1].Type (%u)", type);
        CHECK(Says(needle));
    }
    inEdges[1].Type = DML_GRAPH_EDGE_TYPE_INPUT;
    SetRaw(outEdge.Type, 77);
    CHECK_HR(device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             E_INVALIDARG);
    CHECK(Says("OutputEdges[0].Type (77)"));
    outEdge.Type = DML_GRAPH_EDGE_TYPE_OUTPUT;
    CHECK_HR(device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)), S_OK);
    CHECK_HR(device->GetDeviceRemovedReason(), S_OK); /* HRESULT refusals remove nothing */
}

static void ExecutionAndCreationFlags()
{
    ComPtr<IDMLDevice1> device = NewDevice();
    if (!device)
        return;
    GatherDesc g;
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    ComPtr<IDMLCompiledOperator> compiled;
    for (UINT flags : {0x8u, 0x80000000u, UINT_MAX}) {
        CHECK_HR(device->CompileOperator(op.Get(), Bad<DML_EXECUTION_FLAGS>(flags),
                                         IID_PPV_ARGS(&compiled)),
                 E_INVALIDARG);
        CHECK(Says("CompileOperator: flags") && Says("unknown bits"));
        DML_GRAPH_DESC empty = {};
        CHECK_HR(
            device->CompileGraph(&empty, Bad<DML_EXECUTION_FLAGS>(flags), IID_PPV_ARGS(&compiled)),
            E_INVALIDARG);
        CHECK(Says("CompileGraph: flags") && Says("unknown bits"));
    }
    CHECK_HR(
        device->CompileOperator(op.Get(), Bad<DML_EXECUTION_FLAGS>(7), IID_PPV_ARGS(&compiled)),
        S_OK);

    for (UINT flags : {0x2u, 0x80000000u, UINT_MAX}) {
        ComPtr<IDMLDevice> bad;
        CHECK_HR(DMLCreateDevice(nullptr, Bad<DML_CREATE_DEVICE_FLAGS>(flags), IID_PPV_ARGS(&bad)),
                 E_INVALIDARG);
        CHECK(!bad && Says("flags") && Says("unknown bits"));
    }
#if DML_TARGET_VERSION >= 0x2000
    /* A level that is none of DirectML's: refused; a later DirectML's (0xMm00): unsupported. */
    for (UINT level : {0u, 0x1234u, 0x0500u, 0x6401u, 0x10000u, UINT_MAX}) {
        ComPtr<IDMLDevice> bad;
        CHECK_HR(DMLCreateDevice1(nullptr, DML_CREATE_DEVICE_FLAG_NONE,
                                  Bad<DML_FEATURE_LEVEL>(level), IID_PPV_ARGS(&bad)),
                 E_INVALIDARG);
        CHECK(!bad && Says("minimumFeatureLevel") && Says("is not a DML_FEATURE_LEVEL"));
    }
    ComPtr<IDMLDevice> later;
    CHECK_HR(DMLCreateDevice1(nullptr, DML_CREATE_DEVICE_FLAG_NONE, Bad<DML_FEATURE_LEVEL>(0x6500),
                              IID_PPV_ARGS(&later)),
             DXGI_ERROR_UNSUPPORTED);
#endif
}

static void FeatureQueries()
{
    ComPtr<IDMLDevice1> device = NewDevice();
    if (!device)
        return;
    DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT q = {DML_TENSOR_DATA_TYPE_FLOAT32};
    DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {};
    for (UINT feature : {2u, 77u, 0x80000000u, UINT_MAX}) {
        /* An unrecognised feature is unsupported (the page), not an invalid argument. */
        CHECK_HR(device->CheckFeatureSupport(Bad<DML_FEATURE>(feature), sizeof q, &q, sizeof s, &s),
                 DXGI_ERROR_UNSUPPORTED);
        CHECK(Says("is not a DML_FEATURE"));
    }
    for (UINT type : {14u, 77u, UINT_MAX}) {
        SetRaw(q.DataType, type);
        CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                             sizeof s, &s),
                 E_INVALIDARG);
        CHECK(Says("DataType") && Says("is not a DML_TENSOR_DATA_TYPE"));
    }
    /* UNKNOWN is answered, not refused: ONNX Runtime's DirectML provider asks for every value
     * from 0 to INT64 when it partitions a model and fails on any error. */
    q.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
    s.IsSupported = TRUE;
    CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                         sizeof s, &s),
             S_OK);
    CHECK(!s.IsSupported);
    q.DataType = DML_TENSOR_DATA_TYPE_UINT4; /* a type, not one data movement moves */
    CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                         sizeof s, &s),
             S_OK);
    CHECK(!s.IsSupported);
#if DML_TARGET_VERSION >= 0x2000
    DML_FEATURE_LEVEL levels[3] = {DML_FEATURE_LEVEL_5_0, DML_FEATURE_LEVEL_5_0,
                                   DML_FEATURE_LEVEL_5_0};
    SetRaw(levels[1], 0x9999);
    DML_FEATURE_QUERY_FEATURE_LEVELS lq = {3, levels};
    DML_FEATURE_DATA_FEATURE_LEVELS ld = {};
    CHECK_HR(
        device->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof lq, &lq, sizeof ld, &ld),
        E_INVALIDARG);
    CHECK(Says("RequestedFeatureLevels[1] (0x9999) is not a DML_FEATURE_LEVEL"));
    SetRaw(levels[1], 0x7000); /* a later DirectML's: not supported, not an error */
    CHECK_HR(
        device->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof lq, &lq, sizeof ld, &ld),
        S_OK);
    CHECK(ld.MaxSupportedFeatureLevel == DML_FEATURE_LEVEL_5_0);
#endif
}

/* Descriptions the C API reads: operator type, tensor type, data type, flags. */
static void DescriptionEnums()
{
    ComPtr<IDMLDevice1> device = NewDevice();
    if (!device)
        return;
    ComPtr<IDMLOperator> op;
    for (UINT type : {0u, 256u, 0x7fffffffu, 0x80000000u, UINT_MAX}) {
        GatherDesc g;
        SetRaw(g.desc.Type, type);
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), E_INVALIDARG);
        CHECK(Says("DML_OPERATOR_DESC.Type"));
    }
    {
        GatherDesc g;
        SetRaw(g.input.desc.Type, 77);
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), E_INVALIDARG);
        CHECK(Says("InputTensor.Type (77)"));
    }
    {
        GatherDesc g;
        SetRaw(g.input.buffer.DataType, 77);
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), E_INVALIDARG);
        CHECK(Says("InputTensor.DataType (77)"));
    }
    {
        GatherDesc g;
        SetRaw(g.input.buffer.Flags, 0x80000000u);
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), E_INVALIDARG);
        CHECK(Says("InputTensor.Flags (0x80000000) has unknown bits"));
    }
    CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
}

/* Binding types: a void method, so the device is removed, naming the value. */
static void BindingTypes()
{
    DML_BUFFER_BINDING buffer = {nullptr, 0, 0};
    for (UINT type : {3u, 77u, 0x7fffffffu}) {
        DML_BINDING_DESC b = {DML_BINDING_TYPE_BUFFER, &buffer};
        SetRaw(b.Type, type);
        DML_BINDING_DESC two[2] = {b, b};
        char needle[32];
        std::snprintf(needle, sizeof needle, "Type (%u)", type);
        {
            Bound t(true); /* the initializer's inputs, then its outputs */
            if (t.table)
                t.table->BindInputs(1, &b);
            CHECK(t.Removed(needle));
        }
        {
            Bound t(true);
            if (t.table)
                t.table->BindOutputs(1, &b);
            CHECK(t.Removed(needle));
        }
        {
            Bound t(true);
            if (t.table)
                t.table->BindTemporaryResource(&b);
            CHECK(t.Removed(needle));
        }
        {
            Bound t;
            if (t.table)
                t.table->BindInputs(2, two);
            CHECK(t.Removed(needle));
        }
        {
            Bound t;
            if (t.table)
                t.table->BindOutputs(1, &b);
            CHECK(t.Removed(needle));
        }
        {
            Bound t;
            if (t.table)
                t.table->BindTemporaryResource(&b);
            CHECK(t.Removed(needle));
        }
        {
            Bound t;
            if (t.table)
                t.table->BindPersistentResource(&b);
            CHECK(t.Removed(needle));
        }
    }
}

/* ID3D12Device* is a dmlcl_device*: DMLCreateDevice checks the device tag before keeping it. */
static void DeviceIdentity()
{
    GUID guid = kID3D12Device;
    ComPtr<IDMLDevice> fromGuid;
    CHECK_HR(DMLCreateDevice(reinterpret_cast<ID3D12Device *>(&guid), DML_CREATE_DEVICE_FLAG_NONE,
                             IID_PPV_ARGS(&fromGuid)),
             E_INVALIDARG);
    CHECK(!fromGuid && Says("DMLCreateDevice: device") && Says("is not a dmlcl_device"));
    ComPtr<IDMLDevice1> fromGuid1;
    CHECK_HR(DMLCreateDevice1(reinterpret_cast<ID3D12Device *>(&guid), DML_CREATE_DEVICE_FLAG_DEBUG,
                              DML_FEATURE_LEVEL_5_0, IID_PPV_ARGS(&fromGuid1)),
             E_INVALIDARG);
    CHECK(!fromGuid1);
    /* An IDMLDevice is not an ID3D12Device either. */
    ComPtr<IDMLDevice1> real = NewDevice();
    ComPtr<IDMLDevice> fromCom;
    if (real)
        CHECK_HR(DMLCreateDevice(reinterpret_cast<ID3D12Device *>(real.Get()),
                                 DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&fromCom)),
                 E_INVALIDARG);
    /* A real one is kept (GetParentDevice hands it back). */
    dmlcl_device *cl = nullptr;
    CHECK_HR(dmlcl_device_create(&cl), S_OK);
    ComPtr<IDMLDevice> onCl;
    CHECK_HR(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&onCl)), S_OK);
    dmlcl_device *parent = nullptr;
    if (onCl)
        CHECK_HR(onCl->GetParentDevice(kID3D12Device, reinterpret_cast<void **>(&parent)), S_OK);
    CHECK(parent == cl);
    if (parent)
        dmlcl_device_release(parent);
    onCl.Reset();
    dmlcl_device_release(cl);
}

/* A device on a dmlcl_device of the test's own, for buffers and a queue. */
struct OnCl {
    dmlcl_device *cl = nullptr;
    ComPtr<IDMLDevice1> device;
    OnCl()
    {
        CHECK_HR(dmlcl_device_create(&cl), S_OK);
        CHECK_HR(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)), S_OK);
    }
    ~OnCl()
    {
        device.Reset();
        dmlcl_device_release(cl);
    }
    cl_mem Buffer(size_t n, const void *init = nullptr)
    {
        cl_int err;
        cl_mem m = clCreateBuffer(dmlcl_device_context(cl),
                                  CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                                  const_cast<void *>(init), &err);
        CHECK(err == CL_SUCCESS);
        return m;
    }
};

/*
 * A temporary or persistent resource the dispatchable does not need (its size
 * is 0) takes nullptr or NONE; a buffer is refused, for both resources, on
 * compiled operators, graphs and initializers alike: DirectML's rule (its
 * developer in microsoft/DirectML#65: it fails when "the operator initializer
 * receives a buffer binding for a temporary resource that it doesn't need";
 * HelloDirectML binds each resource only when its size is not 0).
 */
static void UnneededResources()
{
    for (int k = 0; k < 4; ++k) {
        bool initializer = k >= 2, temporary = k % 2 == 0;
        OnCl d;
        Bound t(initializer);
        if (!t.table)
            continue;
        cl_mem mem = d.Buffer(1024);
        DML_BUFFER_BINDING buffer = {mem, 0, 1024};
        DML_BINDING_DESC bound = {DML_BINDING_TYPE_BUFFER, &buffer};
        DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, nullptr};
        auto bind = [&](const DML_BINDING_DESC *b) {
            if (temporary)
                t.table->BindTemporaryResource(b);
            else
                t.table->BindPersistentResource(b);
        };
        bind(nullptr);
        bind(&none);
        CHECK_HR(t.device->GetDeviceRemovedReason(), S_OK);
        bind(&bound);
        CHECK(t.Removed(temporary ? "TemporaryResourceSize 0" : "PersistentResourceSize 0"));
        CHECK(Says("not need"));
        clReleaseMemObject(mem);
    }
    /* The C API: E_INVALIDARG for the same. */
    OnCl d;
    GatherDesc g;
    dmlcl_operator *op = nullptr;
    dmlcl_compiled_operator *c = nullptr;
    dmlcl_binding_table *table = nullptr;
    CHECK_HR(dmlcl_operator_create(d.cl, &g.desc, &op), S_OK);
    if (op)
        CHECK_HR(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c), S_OK);
    if (c)
        CHECK_HR(dmlcl_binding_table_create(c, &table), S_OK);
    if (table) {
        cl_mem mem = d.Buffer(1024);
        DML_BUFFER_BINDING buffer = {mem, 0, 1024};
        DML_BINDING_DESC bound = {DML_BINDING_TYPE_BUFFER, &buffer};
        CHECK_HR(dmlcl_binding_table_bind_temporary(table, &bound), E_INVALIDARG);
        CHECK(Says("TemporaryResourceSize 0"));
        CHECK_HR(dmlcl_binding_table_bind_persistent(table, &bound), E_INVALIDARG);
        CHECK(Says("PersistentResourceSize 0"));
        CHECK_HR(
            dmlcl_compiled_operator_initialize(c, nullptr, 0, nullptr, &bound, 0, nullptr, nullptr),
            E_INVALIDARG);
        CHECK_HR(dmlcl_binding_table_bind_temporary(table, nullptr), S_OK);
        CHECK_HR(dmlcl_binding_table_bind_persistent(table, nullptr), S_OK);
        clReleaseMemObject(mem);
        dmlcl_binding_table_release(table);
    }
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
}

/* An initializer's output (an operator's persistent resource of size 0) given a buffer. */
static void UnneededPersistentAtInitialization()
{
    OnCl d;
    if (!d.device)
        return;
    GatherDesc g;
    ComPtr<IDMLOperator> op;
    ComPtr<IDMLCompiledOperator> compiled;
    ComPtr<IDMLOperatorInitializer> init;
    ComPtr<IDMLBindingTable> table;
    ComPtr<IDMLCommandRecorder> recorder;
    CHECK_HR(d.device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    CHECK_HR(d.device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             S_OK);
    IDMLCompiledOperator *ops[] = {compiled.Get()};
    CHECK_HR(d.device->CreateOperatorInitializer(1, ops, IID_PPV_ARGS(&init)), S_OK);
    DML_BINDING_TABLE_DESC desc = {init.Get(), {}, {}, 8};
    CHECK_HR(d.device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)), S_OK);
    CHECK_HR(d.device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    if (!table || !recorder)
        return;
    cl_mem mem = d.Buffer(1024);
    DML_BUFFER_BINDING buffer = {mem, 0, 1024};
    DML_BINDING_DESC bound = {DML_BINDING_TYPE_BUFFER, &buffer};
    table->BindOutputs(1, &bound);
    recorder->RecordDispatch(dmlcl_device_queue(d.cl), init.Get(), table.Get());
    CHECK_HR(d.device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(Says("PersistentResourceSize 0"));
    clFinish(dmlcl_device_queue(d.cl));
    clReleaseMemObject(mem);
}

/* IDENTITY of FLOAT32 {n}. */
struct Identity {
    Tensor in, out;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id{&in.desc, &out.desc, nullptr};
    DML_OPERATOR_DESC desc{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id};
    explicit Identity(UINT n)
        : in(DML_TENSOR_DATA_TYPE_FLOAT32, {n}), out(DML_TENSOR_DATA_TYPE_FLOAT32, {n})
    {
    }
};

/*
 * An intermediate edge whose reader's TotalTensorSizeInBytes is smaller than
 * its writer's (a 256-byte output into a 128-byte input) reads the first
 * bytes: a prefix. DirectML states no rule for an edge's sizes; DirectMLX's
 * Reinterpret keeps the writer's TotalTensorSizeInBytes and changes only the
 * type, sizes and strides, so its readers (fewer elements included) read
 * inside the writer's bytes, and a graph input read by several nodes serves
 * each its own size. dmlcl takes any reader inside the writer's bytes and
 * refuses one that reads past them (docs/porting.md).
 */
static void EdgePrefixRead()
{
    OnCl d;
    if (!d.device)
        return;
    for (int larger = 0; larger < 2; ++larger) {
        Identity first(larger ? 32 : 64), second(larger ? 64 : 32);
        ComPtr<IDMLOperator> a, b;
        CHECK_HR(d.device->CreateOperator(&first.desc, IID_PPV_ARGS(&a)), S_OK);
        CHECK_HR(d.device->CreateOperator(&second.desc, IID_PPV_ARGS(&b)), S_OK);
        DML_OPERATOR_GRAPH_NODE_DESC ops[2] = {{a.Get(), "writer"}, {b.Get(), "reader"}};
        DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &ops[0]},
                                        {DML_GRAPH_NODE_TYPE_OPERATOR, &ops[1]}};
        DML_INPUT_GRAPH_EDGE_DESC in = {0, 0, 0, nullptr};
        DML_INTERMEDIATE_GRAPH_EDGE_DESC mid = {0, 0, 1, 0, nullptr};
        DML_OUTPUT_GRAPH_EDGE_DESC out = {1, 0, 0, nullptr};
        DML_GRAPH_EDGE_DESC inE = {DML_GRAPH_EDGE_TYPE_INPUT, &in},
                            midE = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &mid},
                            outE = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out};
        DML_GRAPH_DESC graph = {1, 1, 2, nodes, 1, &inE, 1, &outE, 1, &midE};
        ComPtr<IDMLCompiledOperator> compiled;
        HRESULT hr =
            d.device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled));
        if (larger) {
            CHECK_HR(hr, E_INVALIDARG);
            CHECK(Says("TotalTensorSizeInBytes 256) reads past node 0") &&
                  Says("TotalTensorSizeInBytes 128)"));
            continue;
        }
        CHECK_HR(hr, S_OK);
        if (!compiled)
            continue;
        float input[64], got[32];
        for (int i = 0; i < 64; ++i)
            input[i] = 1.5f * (float)i - 7.0f;
        std::vector<Tensor *> ins = {&first.in}, outs = {&second.out};
        std::memcpy(first.in.bytes.data(), input, sizeof input);
        hr = RunCompiled(d.device.Get(), dmlcl_device_context(d.cl), dmlcl_device_queue(d.cl),
                         compiled.Get(), ins, outs);
        CHECK_HR(hr, S_OK);
        std::memcpy(got, second.out.bytes.data(), sizeof got);
        CHECK(std::memcmp(got, input, sizeof got) == 0); /* the first 128 bytes */
    }
}

/*
 * A graph's hazards (dispatch.c sweeps the bound ranges sorted by buffer and start, no
 * longer every pair): two independent identity nodes, graph inputs 0, 1 and outputs 0, 1 of
 * 64 bytes each, placed at random 16-byte offsets of one buffer, 300 times; a dispatch is
 * refused exactly when a written range (an output) overlaps any other range, as the pairwise
 * rule says, and names such a pair.
 */
static void GraphHazards()
{
    OnCl d;
    if (!d.cl)
        return;
    Identity a(16), b(16);
    dmlcl_operator *ops[2] = {};
    CHECK_HR(dmlcl_operator_create(d.cl, &a.desc, &ops[0]), S_OK);
    CHECK_HR(dmlcl_operator_create(d.cl, &b.desc, &ops[1]), S_OK);
    DML_OPERATOR_GRAPH_NODE_DESC opNodes[2] = {{reinterpret_cast<IDMLOperator *>(ops[0]), nullptr},
                                               {reinterpret_cast<IDMLOperator *>(ops[1]), nullptr}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[1]}};
    DML_INPUT_GRAPH_EDGE_DESC in[2] = {{0, 0, 0, nullptr}, {1, 1, 0, nullptr}};
    DML_OUTPUT_GRAPH_EDGE_DESC out[2] = {{0, 0, 0, nullptr}, {1, 0, 1, nullptr}};
    DML_GRAPH_EDGE_DESC inE[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &in[0]},
                                  {DML_GRAPH_EDGE_TYPE_INPUT, &in[1]}};
    DML_GRAPH_EDGE_DESC outE[2] = {{DML_GRAPH_EDGE_TYPE_OUTPUT, &out[0]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &out[1]}};
    DML_GRAPH_DESC graph = {2, 2, 2, nodes, 2, inE, 2, outE, 0, nullptr};
    dmlcl_compiled_operator *c = nullptr;
    CHECK_HR(dmlcl_graph_compile(d.cl, &graph, DML_EXECUTION_FLAG_NONE, &c), S_OK);
    dmlcl_binding_table *table = nullptr;
    if (c)
        CHECK_HR(dmlcl_binding_table_create(c, &table), S_OK);
    cl_mem mem = d.Buffer(512);
    unsigned state = 35, refused = 0;
    for (int trial = 0; table && trial < 300; ++trial) {
        UINT64 at[4]; /* inputs 0, 1, outputs 0, 1 */
        for (UINT64 &x : at) {
            state = state * 1103515245u + 12345u;
            x = 16 * ((state >> 16) % 29); /* the 4 ranges inside 512 bytes */
        }
        auto hits = [&](int i, int j) { return at[i] < at[j] + 64 && at[j] < at[i] + 64; };
        bool want = hits(0, 2) || hits(0, 3) || hits(1, 2) || hits(1, 3) || hits(2, 3);
        DML_BUFFER_BINDING bb[4];
        DML_BINDING_DESC bd[4];
        for (int k = 0; k < 4; ++k) {
            bb[k] = {mem, at[k], 64};
            bd[k] = {DML_BINDING_TYPE_BUFFER, &bb[k]};
        }
        CHECK_HR(dmlcl_binding_table_bind_inputs(table, 2, bd), S_OK);
        CHECK_HR(dmlcl_binding_table_bind_outputs(table, 2, bd + 2), S_OK);
        HRESULT hr = dmlcl_binding_table_dispatch(table, nullptr, 0, nullptr, nullptr);
        CHECK_HR(hr, want ? E_INVALIDARG : S_OK);
        if (want && hr == E_INVALIDARG) {
            ++refused;
            CHECK(Says("overlap in one cl_mem"));
        }
    }
    CHECK(refused > 20 && refused < 280); /* both answers drawn */
    clFinish(dmlcl_device_queue(d.cl));
    clReleaseMemObject(mem);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(ops[0]);
    dmlcl_operator_release(ops[1]);
}

int main()
{
    NodeAndEdgeTypes();
    ExecutionAndCreationFlags();
    FeatureQueries();
    DescriptionEnums();
    BindingTypes();
    DeviceIdentity();
    UnneededResources();
    UnneededPersistentAtInitialization();
    EdgePrefixRead();
    GraphHazards();
    return finish("dmlcl-com-misuse");
}
