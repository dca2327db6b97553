// SPDX-License-Identifier: MIT
/*
 * The DirectML objects' own rules, as DirectML's documentation states them:
 * reference counts (a child keeps its device alive), QueryInterface along
 * each interface chain, private data (D3D12's semantics), feature queries,
 * refusals (an unimplemented operator, a feature level above dmlcl's),
 * misuse of a void method surfacing through GetDeviceRemovedReason, and one
 * binding table reset across operators.
 */
#include "common.h"

#include <cwchar>
#include <string>
#include <unistd.h>

/* WKPDID_D3DDebugObjectNameW, as DirectX-Headers' d3dcommon.h defines it. */
static const GUID kDebugObjectNameW = {
    0x4cca5fd8, 0x921f, 0x42c8, {0x85, 0x66, 0x70, 0xca, 0xf2, 0xa9, 0xb7, 0x41}};
/* ID3D12Device's IID (DirectX-Headers' d3d12.h): GetParentDevice answers it. */
static const GUID kID3D12Device = {
    0x189819f1, 0x1db6, 0x4b57, {0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7}};
static const GUID kAppData = {0x12345678, 0x1234, 0x5678, {1, 2, 3, 4, 5, 6, 7, 8}};
static const GUID kAppInterface = {0x87654321, 0x4321, 0x8765, {8, 7, 6, 5, 4, 3, 2, 1}};

/* The reference count, read as AddRef + Release report it. */
static ULONG Refs(IUnknown *p)
{
    p->AddRef();
    return p->Release();
}

/* A small valid GATHER: {4,3} by 2 indices along axis 0. */
struct GatherDesc {
    Tensor input{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 4, 3}};
    Tensor indices{DML_TENSOR_DATA_TYPE_UINT32, {1, 1, 1, 2}};
    Tensor output{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 2, 3}};
    DML_GATHER_OPERATOR_DESC gather{&input.desc, &indices.desc, &output.desc, 2, 1};
    DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
};

static ComPtr<IDMLDevice> NewDevice(DML_CREATE_DEVICE_FLAGS flags = DML_CREATE_DEVICE_FLAG_NONE)
{
    ComPtr<IDMLDevice> device;
    CHECK_HR(DMLCreateDevice(nullptr, flags, IID_PPV_ARGS(&device)), S_OK);
    return device;
}

static void RefCounts()
{
    GatherDesc g;
    IDMLDevice *device = nullptr;
    CHECK_HR(DMLCreateDevice(nullptr, DML_CREATE_DEVICE_FLAG_NONE, __uuidof(IDMLDevice),
                             reinterpret_cast<void **>(&device)),
             S_OK);
    if (!device)
        return;
    CHECK(Refs(device) == 1);
    IDMLOperator *op = nullptr;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    CHECK(Refs(device) == 2); /* the operator holds its device */
    IDMLCompiledOperator *compiled = nullptr;
    CHECK_HR(device->CompileOperator(op, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)), S_OK);
    CHECK(Refs(device) == 3);
    CHECK(Refs(op) == 1); /* the compiled operator needs no reference on the COM operator */

    IDMLOperatorInitializer *init = nullptr;
    CHECK_HR(device->CreateOperatorInitializer(1, &compiled, IID_PPV_ARGS(&init)), S_OK);
    CHECK(Refs(compiled) == 2); /* the initializer targets it */
    DML_BINDING_TABLE_DESC tableDesc = {compiled, {}, {}, 8};
    IDMLBindingTable *table = nullptr;
    CHECK_HR(device->CreateBindingTable(&tableDesc, IID_PPV_ARGS(&table)), S_OK);
    IDMLCommandRecorder *recorder = nullptr;
    CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    CHECK(Refs(device) == 6);

    /* The application lets go of the device first: its children keep it alive. */
    CHECK(device->Release() == 5);
    IDMLDevice *again = nullptr;
    CHECK_HR(recorder->GetDevice(IID_PPV_ARGS(&again)), S_OK);
    CHECK(again == device);
    CHECK(again && again->Release() == 5);

    CHECK(op->Release() == 0);
    CHECK(recorder->Release() == 0);
    CHECK(table->Release() == 0);
    CHECK(init->Release() == 0);
    CHECK(compiled->Release() == 0); /* the device's last child: the device goes too */
}

/* What a failing CreateOperator writes to stderr (the debug output). */
static std::string DebugOutput(IDMLDevice *device)
{
    std::fflush(stderr);
    int saved = dup(2);
    FILE *capture = std::tmpfile();
    dup2(fileno(capture), 2);
    DML_OPERATOR_DESC broken = {DML_OPERATOR_GATHER, nullptr};
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&broken, IID_PPV_ARGS(&op)), E_INVALIDARG);
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    std::rewind(capture);
    for (int c; (c = std::fgetc(capture)) != EOF;)
        text += (char)c;
    std::fclose(capture);
    return text;
}

static void QueryInterfaces()
{
    GatherDesc g;
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
    ComPtr<IDMLDevice1> device1;
    CHECK_HR(device.As(&device1), S_OK);
    ComPtr<IDMLObject> object;
    CHECK_HR(device.As(&object), S_OK);
    ComPtr<IDMLDebugDevice> debug;
    CHECK_HR(device.As(&debug), E_NOINTERFACE); /* only with DML_CREATE_DEVICE_FLAG_DEBUG */
    CHECK(!debug);
    ComPtr<IDMLDeviceChild> notChild;
    CHECK_HR(device.As(&notChild), E_NOINTERFACE);

    ComPtr<IDMLDevice> debugDevice = NewDevice(DML_CREATE_DEVICE_FLAG_DEBUG);
    CHECK_HR(debugDevice.As(&debug), S_OK);
    if (debug) {
        CHECK(DebugOutput(debugDevice.Get()).find("dmlcl (DirectML debug): E_INVALIDARG") !=
              std::string::npos);
        debug->SetMuteDebugOutput(TRUE);
        CHECK(DebugOutput(debugDevice.Get()).empty());
        CHECK(DebugOutput(device.Get()).empty()); /* no debug layer, no output */
        ComPtr<IDMLDevice> back;                  /* the same object answers every interface */
        CHECK_HR(debug.As(&back), S_OK);
        ComPtr<IUnknown> u1, u2;
        CHECK_HR(debug.As(&u1), S_OK);
        CHECK_HR(debugDevice.As(&u2), S_OK);
        CHECK(u1.Get() == u2.Get());
    }

    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    ComPtr<IDMLDeviceChild> child;
    CHECK_HR(op.As(&child), S_OK);
    ComPtr<IDMLPageable> pageable;
    CHECK_HR(op.As(&pageable), E_NOINTERFACE); /* IDMLOperator is not pageable */
    ComPtr<IDMLDevice> parent;
    CHECK_HR(child->GetDevice(IID_PPV_ARGS(&parent)), S_OK);
    CHECK(parent.Get() == device.Get());

    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             S_OK);
    ComPtr<IDMLDispatchable> dispatchable;
    CHECK_HR(compiled.As(&dispatchable), S_OK);
    CHECK_HR(compiled.As(&pageable), S_OK);
    ComPtr<IDMLOperator> notOp;
    CHECK_HR(compiled.As(&notOp), E_NOINTERFACE);
    ComPtr<IDMLOperatorInitializer> notInit;
    CHECK_HR(compiled.As(&notInit), E_NOINTERFACE);
    ComPtr<IUnknown> a, b;
    CHECK_HR(compiled.As(&a), S_OK);
    CHECK_HR(dispatchable.As(&b), S_OK);
    CHECK(a.Get() == b.Get());

    /* No output pointer: the call is checked, nothing is handed out (S_FALSE, as D3D12). */
    CHECK_HR(device->CreateOperator(&g.desc, __uuidof(IDMLOperator), nullptr), S_FALSE);
    DML_OPERATOR_DESC broken = {DML_OPERATOR_GATHER, nullptr};
    CHECK_HR(device->CreateOperator(&broken, __uuidof(IDMLOperator), nullptr), E_INVALIDARG);

    ComPtr<IDMLCompiledOperator> viaCreate; /* a riid other than the documented one */
    CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&viaCreate)), E_NOINTERFACE);
    CHECK(!viaCreate);
}

static void PrivateData()
{
    GatherDesc g;
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);

    const uint64_t value = 0x0123456789abcdefu;
    CHECK_HR(op->SetPrivateData(kAppData, sizeof value, &value), S_OK);
    UINT size = 0;
    CHECK_HR(op->GetPrivateData(kAppData, &size, nullptr), S_OK);
    CHECK(size == sizeof value);
    uint64_t got = 0;
    size = 4;
    CHECK_HR(op->GetPrivateData(kAppData, &size, &got), DXGI_ERROR_MORE_DATA);
    CHECK(size == sizeof value && got == 0);
    size = sizeof got;
    CHECK_HR(op->GetPrivateData(kAppData, &size, &got), S_OK);
    CHECK(got == value);
    size = 99;
    CHECK_HR(op->GetPrivateData(kAppInterface, &size, &got), DXGI_ERROR_NOT_FOUND);
    CHECK(size == 0);

    /* An interface is held with a reference, and handed out with another. */
    ComPtr<IDMLCommandRecorder> recorder;
    CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    CHECK_HR(op->SetPrivateDataInterface(kAppInterface, recorder.Get()), S_OK);
    CHECK(Refs(recorder.Get()) == 2);
    IUnknown *held = nullptr;
    size = sizeof held;
    CHECK_HR(op->GetPrivateData(kAppInterface, &size, &held), S_OK);
    CHECK(held == static_cast<IUnknown *>(recorder.Get()));
    CHECK(Refs(recorder.Get()) == 3);
    if (held)
        held->Release();
    CHECK_HR(op->SetPrivateData(kAppInterface, 4, nullptr), E_INVALIDARG);
    CHECK(Refs(recorder.Get()) == 2);
    CHECK_HR(op->SetPrivateData(kAppInterface, 0, nullptr), S_OK); /* removes, releases */
    CHECK(Refs(recorder.Get()) == 1);
    CHECK_HR(op->GetPrivateData(kAppInterface, &size, nullptr), DXGI_ERROR_NOT_FOUND);

    /* SetName is D3D12's debug-object name: a wide string, terminator included. */
    CHECK_HR(op->SetName(L"gather rows"), S_OK);
    wchar_t name[32] = {};
    size = sizeof name;
    CHECK_HR(op->GetPrivateData(kDebugObjectNameW, &size, name), S_OK);
    CHECK(size == (std::wcslen(L"gather rows") + 1) * sizeof(wchar_t));
    CHECK(std::wcscmp(name, L"gather rows") == 0);

    /* Held data is released with its object (LSan checks under the ASan build). */
    CHECK_HR(op->SetPrivateDataInterface(kAppInterface, recorder.Get()), S_OK);
    CHECK(Refs(recorder.Get()) == 2);
    op.Reset();
    CHECK(Refs(recorder.Get()) == 1);
}

static void FeatureQueries()
{
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
#if DML_TARGET_VERSION >= 0x2000
    /* docs/operators.md's promise: feature level 6.4 (DirectML 1.15's) for the operators dmlcl
     * implements. The query answers the highest level it was given that the device supports
     * (a list without 6.4 gets its own highest), nothing above 6.4. */
    const DML_FEATURE_LEVEL beyond = (DML_FEATURE_LEVEL)0x7000;
    const DML_FEATURE_LEVEL levels[] = {DML_FEATURE_LEVEL_1_0,     DML_FEATURE_LEVEL_2_0,
                                        DML_FEATURE_LEVEL_4_1,     DML_FEATURE_LEVEL_5_0,
                                        (DML_FEATURE_LEVEL)0x6400, beyond};
    DML_FEATURE_QUERY_FEATURE_LEVELS query = {6, levels};
    DML_FEATURE_DATA_FEATURE_LEVELS data = {};
    CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof query, &query,
                                         sizeof data, &data),
             S_OK);
    CHECK(data.MaxSupportedFeatureLevel == (DML_FEATURE_LEVEL)0x6400);
    query.RequestedFeatureLevelCount = 4;
    CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof query, &query,
                                         sizeof data, &data),
             S_OK);
    CHECK(data.MaxSupportedFeatureLevel == DML_FEATURE_LEVEL_5_0);
    const DML_FEATURE_LEVEL onlyBeyond[] = {beyond};
    DML_FEATURE_QUERY_FEATURE_LEVELS tooHigh = {1, onlyBeyond};
    CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof tooHigh, &tooHigh,
                                         sizeof data, &data),
             DXGI_ERROR_UNSUPPORTED);

    /* ONNX Runtime's DirectML provider asks for 5.0; every level up to 6.4 gets a device. */
    for (DML_FEATURE_LEVEL minimum :
         {DML_FEATURE_LEVEL_1_0, DML_FEATURE_LEVEL_4_1, DML_FEATURE_LEVEL_5_0,
          (DML_FEATURE_LEVEL)0x6200, (DML_FEATURE_LEVEL)0x6400}) {
        ComPtr<IDMLDevice1> enough;
        CHECK_HR(
            DMLCreateDevice1(nullptr, DML_CREATE_DEVICE_FLAG_NONE, minimum, IID_PPV_ARGS(&enough)),
            S_OK);
        CHECK(enough);
    }
    ComPtr<IDMLDevice> tooNew;
    CHECK_HR(DMLCreateDevice1(nullptr, DML_CREATE_DEVICE_FLAG_NONE, beyond, IID_PPV_ARGS(&tooNew)),
             DXGI_ERROR_UNSUPPORTED);
    CHECK(!tooNew);
#endif
    /* Data movement is type-agnostic: every type of 1..8 bytes moves. */
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT8,
          DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT q = {type};
        DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {};
        CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                             sizeof s, &s),
                 S_OK);
        CHECK(s.IsSupported);
    }
    /* ONNX Runtime's DirectML provider builds its type mask so, failing on any error: every
     * value from 0 (UNKNOWN) to INT64 is answered. */
    uint32_t mask = 0;
    for (UINT i = 0; i <= DML_TENSOR_DATA_TYPE_INT64; ++i) {
        DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT q = {static_cast<DML_TENSOR_DATA_TYPE>(i)};
        DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {};
        CHECK_HR(device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                             sizeof s, &s),
                 S_OK);
        mask |= s.IsSupported ? 1u << i : 0u;
    }
    CHECK(mask == 0xFFEu); /* all but UNKNOWN */
    DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {};
    CHECK_HR(
        device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, 0, nullptr, sizeof s, &s),
        E_INVALIDARG);
}

static void Refusals()
{
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
    /* A valid QUANTIZE into INT4 (DirectML's 6.3 table): dmlcl has no packed 4-bit tensors. */
    Tensor x(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 4}), scale(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1}),
        q4(DML_TENSOR_DATA_TYPE_INT4, {1, 4});
    DML_QUANTIZE_OPERATOR_DESC quant = {&x.desc, DML_QUANTIZATION_TYPE_SCALE, 1, &scale.desc,
                                        &q4.desc};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_QUANTIZE, &quant};
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&desc, IID_PPV_ARGS(&op)), DXGI_ERROR_UNSUPPORTED);
    CHECK(!op);
    CHECK(std::strstr(dmlcl_last_error(), "QUANTIZE") != nullptr);
    CHECK(std::strstr(dmlcl_last_error(), "OutputTensor.DataType (INT4)") != nullptr);
    CHECK_HR(device->GetDeviceRemovedReason(), S_OK); /* an HRESULT failure removes nothing */

    ComPtr<IDMLDevice> bad;
    CHECK_HR(
        DMLCreateDevice(nullptr, static_cast<DML_CREATE_DEVICE_FLAGS>(0x10), IID_PPV_ARGS(&bad)),
        E_INVALIDARG);
    CHECK(!bad);

    dmlcl_device *parent = nullptr;
    dmlcl_device *mine = nullptr;
    CHECK_HR(dmlcl_device_create(&mine), S_OK);
    ComPtr<IDMLDevice> onMine;
    CHECK_HR(DMLCreateDevice(mine, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&onMine)), S_OK);
    if (onMine) {
        CHECK_HR(onMine->GetParentDevice(kID3D12Device, reinterpret_cast<void **>(&parent)), S_OK);
        CHECK(parent == mine);
        if (parent)
            dmlcl_device_release(parent);
    }
    onMine.Reset();
    dmlcl_device_release(mine);
}

/* CompileGraph: DirectML's graph rules (the C API's), and nodes from this device only. */
static void GraphRules()
{
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
#if DML_TARGET_VERSION >= 0x2100
    ComPtr<IDMLDevice1> device1;
    CHECK_HR(device.As(&device1), S_OK);
    DML_GRAPH_DESC graph = {}; /* no nodes, no outputs: DirectML's graph rules refuse it */
    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(device1->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             E_INVALIDARG);
    CHECK(!compiled);
    /* A node's operator must come from the device compiling the graph. */
    GatherDesc g;
    ComPtr<IDMLDevice> other = NewDevice();
    ComPtr<IDMLOperator> foreign;
    CHECK_HR(other->CreateOperator(&g.desc, IID_PPV_ARGS(&foreign)), S_OK);
    DML_OPERATOR_GRAPH_NODE_DESC opNode = {foreign.Get(), "gather"};
    DML_GRAPH_NODE_DESC node = {DML_GRAPH_NODE_TYPE_OPERATOR, &opNode};
    DML_INPUT_GRAPH_EDGE_DESC in[2] = {{0, 0, 0, nullptr}, {1, 0, 1, nullptr}};
    DML_GRAPH_EDGE_DESC inEdges[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &in[0]},
                                      {DML_GRAPH_EDGE_TYPE_INPUT, &in[1]}};
    DML_OUTPUT_GRAPH_EDGE_DESC out = {0, 0, 0, nullptr};
    DML_GRAPH_EDGE_DESC outEdge = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out};
    DML_GRAPH_DESC one = {2, 1, 1, &node, 2, inEdges, 1, &outEdge, 0, nullptr};
    CHECK_HR(device1->CompileGraph(&one, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             E_INVALIDARG);
    CHECK(std::strstr(dmlcl_last_error(), "Nodes[0].Operator") != nullptr);
    ComPtr<IDMLOperator> mine;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&mine)), S_OK);
    opNode.Operator = mine.Get();
    CHECK_HR(device1->CompileGraph(&one, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)), S_OK);
    CHECK(compiled);
#endif
}

/* Void methods cannot return an error: DirectML removes the device instead. */
static void VoidMisuse()
{
    GatherDesc g;
    ComPtr<IDMLDevice> device = NewDevice();
    if (!device)
        return;
    ComPtr<IDMLOperator> op;
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
    ComPtr<IDMLCompiledOperator> compiled;
    CHECK_HR(device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
             S_OK);
    DML_BINDING_PROPERTIES props = compiled->GetBindingProperties();
    CHECK(props.RequiredDescriptorCount >= 1);
    CHECK(props.TemporaryResourceSize == 0 && props.PersistentResourceSize == 0);

    /* Too few descriptors: an HRESULT method, so an error and no removal. */
    DML_BINDING_TABLE_DESC tableDesc = {compiled.Get(), {}, {}, 0};
    ComPtr<IDMLBindingTable> table;
    CHECK_HR(device->CreateBindingTable(&tableDesc, IID_PPV_ARGS(&table)), E_INVALIDARG);
    tableDesc.SizeInDescriptors = props.RequiredDescriptorCount;
    CHECK_HR(device->CreateBindingTable(&tableDesc, IID_PPV_ARGS(&table)), S_OK);
    CHECK_HR(device->GetDeviceRemovedReason(), S_OK);

    /* GATHER has two inputs; binding one removes the device. */
    DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, nullptr};
    table->BindInputs(1, &none);
    CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(std::strstr(dmlcl_last_error(), "BindInputs") != nullptr);
    ComPtr<IDMLOperator> later; /* removal is sticky */
    CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&later)), DXGI_ERROR_DEVICE_REMOVED);
    CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);

    /* RecordDispatch with a table made for another dispatchable, on a fresh device. */
    ComPtr<IDMLDevice> fresh = NewDevice();
    ComPtr<IDMLOperator> op2;
    ComPtr<IDMLCompiledOperator> compiled2;
    ComPtr<IDMLOperatorInitializer> init;
    ComPtr<IDMLBindingTable> initTable;
    ComPtr<IDMLCommandRecorder> recorder;
    CHECK_HR(fresh->CreateOperator(&g.desc, IID_PPV_ARGS(&op2)), S_OK);
    CHECK_HR(fresh->CompileOperator(op2.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled2)),
             S_OK);
    IDMLCompiledOperator *ops[] = {compiled2.Get()};
    CHECK_HR(fresh->CreateOperatorInitializer(1, ops, IID_PPV_ARGS(&init)), S_OK);
    DML_BINDING_TABLE_DESC initDesc = {
        init.Get(), {}, {}, init->GetBindingProperties().RequiredDescriptorCount};
    CHECK_HR(fresh->CreateBindingTable(&initDesc, IID_PPV_ARGS(&initTable)), S_OK);
    CHECK_HR(fresh->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    if (!recorder || !initTable)
        return;
    /* The initializer's inputs: empty, or one BUFFER_ARRAY per operator. */
    DML_BUFFER_ARRAY_BINDING empty = {0, nullptr};
    DML_BINDING_DESC array = {DML_BINDING_TYPE_BUFFER_ARRAY, &empty};
    initTable->BindInputs(1, &array);
    /* ... or an array given as nullptr: nothing to bind (the BindInputs page). */
    DML_BINDING_DESC nullArray = {DML_BINDING_TYPE_BUFFER_ARRAY, nullptr};
    initTable->BindInputs(1, &nullArray);
    CHECK_HR(fresh->GetDeviceRemovedReason(), S_OK);
    initTable->BindInputs(0, nullptr);
    dmlcl_device *cl = nullptr;
    CHECK_HR(fresh->GetParentDevice(kID3D12Device, reinterpret_cast<void **>(&cl)), S_OK);
    cl_command_queue queue = cl ? dmlcl_device_queue(cl) : nullptr;
    recorder->RecordDispatch(queue, init.Get(), initTable.Get());
    CHECK_HR(fresh->GetDeviceRemovedReason(), S_OK);
    recorder->RecordDispatch(queue, compiled2.Get(), initTable.Get());
    CHECK_HR(fresh->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
    CHECK(std::strstr(dmlcl_last_error(), "another dispatchable") != nullptr);
    if (cl)
        dmlcl_device_release(cl);

    /* An initializer's input binding that is not a BUFFER_ARRAY. */
    ComPtr<IDMLDevice> third = NewDevice();
    ComPtr<IDMLOperator> op3;
    ComPtr<IDMLCompiledOperator> compiled3;
    ComPtr<IDMLOperatorInitializer> init3;
    CHECK_HR(third->CreateOperator(&g.desc, IID_PPV_ARGS(&op3)), S_OK);
    CHECK_HR(third->CompileOperator(op3.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled3)),
             S_OK);
    IDMLCompiledOperator *ops3[] = {compiled3.Get()};
    CHECK_HR(third->CreateOperatorInitializer(1, ops3, IID_PPV_ARGS(&init3)), S_OK);
    ComPtr<IDMLBindingTable> t3;
    DML_BINDING_TABLE_DESC d3 = {init3.Get(), {}, {}, 8};
    CHECK_HR(third->CreateBindingTable(&d3, IID_PPV_ARGS(&t3)), S_OK);
    DML_BUFFER_BINDING buffer = {nullptr, 0, 0};
    DML_BINDING_DESC notArray = {DML_BINDING_TYPE_BUFFER, &buffer};
    if (t3)
        t3->BindInputs(1, &notArray);
    CHECK_HR(third->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
}

/*
 * DML_TENSOR_FLAG_OWNED_BY_DML: a persistent resource of 256 bytes per owned input; the
 * initializer must be given the owned input, and execution must not bind it (a void method:
 * the device is removed, the message names the rule).
 */
static void OwnedByDml()
{
    for (int misuse = 0; misuse < 4; ++misuse) {
        GatherDesc g;
        g.indices.buffer.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
        ComPtr<IDMLDevice> device = NewDevice();
        ComPtr<IDMLOperator> op;
        ComPtr<IDMLCompiledOperator> compiled;
        ComPtr<IDMLOperatorInitializer> init;
        ComPtr<IDMLBindingTable> table;
        ComPtr<IDMLCommandRecorder> recorder;
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
        CHECK_HR(
            device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
            S_OK);
        if (!compiled)
            return;
        CHECK(compiled->GetBindingProperties().PersistentResourceSize == 256);
        IDMLCompiledOperator *ops[] = {compiled.Get()};
        CHECK_HR(device->CreateOperatorInitializer(1, ops, IID_PPV_ARGS(&init)), S_OK);
        DML_BINDING_TABLE_DESC desc = {init.Get(), {}, {}, 8};
        CHECK_HR(device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)), S_OK);
        CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
        dmlcl_device *cl = nullptr;
        CHECK_HR(device->GetParentDevice(kID3D12Device, reinterpret_cast<void **>(&cl)), S_OK);
        if (!cl || !table || !recorder)
            return;
        cl_int err;
        cl_mem mem =
            clCreateBuffer(dmlcl_device_context(cl), CL_MEM_READ_WRITE, 1024, nullptr, &err);
        cl_command_queue queue = dmlcl_device_queue(cl);
        /* The owned indices for the initializer, and the persistent resource. */
        DML_BUFFER_BINDING owned[2] = {{nullptr, 0, 0}, {mem, 0, 16}};
        DML_BUFFER_ARRAY_BINDING array = {2, owned};
        DML_BINDING_DESC initIn = {DML_BINDING_TYPE_BUFFER_ARRAY, &array};
        DML_BUFFER_BINDING pers = {mem, 256, 256};
        DML_BINDING_DESC persDesc = {DML_BINDING_TYPE_BUFFER, &pers};
        if (misuse == 0 || misuse == 2) {
            /* The initializer without the owned input; 2: bound, then unbound by
             * BindInputs(0, nullptr) (the BindInputs page: it unbinds every input). */
            if (misuse == 2) {
                table->BindInputs(1, &initIn);
                table->BindInputs(0, nullptr);
            }
            recorder->RecordDispatch(queue, init.Get(), table.Get());
            CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
            CHECK(std::strstr(dmlcl_last_error(), "count (0) must be the input count (2)"));
        } else {
            table->BindInputs(1, &initIn);
            table->BindOutputs(1, &persDesc);
            recorder->RecordDispatch(queue, init.Get(), table.Get());
            CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
            desc.Dispatchable = compiled.Get();
            CHECK_HR(table->Reset(&desc), S_OK);
            DML_BUFFER_BINDING in[2] = {{mem, 512, 48}, {mem, 0, 16}};
            DML_BINDING_DESC inDesc[2] = {{DML_BINDING_TYPE_BUFFER, &in[0]},
                                          {DML_BINDING_TYPE_BUFFER, &in[1]}};
            if (misuse == 1) {
                /* Execution binding the owned indices again. */
                table->BindInputs(2, inDesc);
                CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
                CHECK(std::strstr(dmlcl_last_error(), "IndicesTensor") &&
                      std::strstr(dmlcl_last_error(), "DML_TENSOR_FLAG_OWNED_BY_DML"));
            } else {
                /* Executed with the output inside the persistent resource (DirectML's hazards:
                 * no output overlaps it; here it holds the indices' copy: tests/ops/persistent.c
                 * holds an output to the packed form past a copy). */
                inDesc[1] = {DML_BINDING_TYPE_NONE, nullptr};
                DML_BUFFER_BINDING out = {mem, 256, 256};
                DML_BINDING_DESC outDesc = {DML_BINDING_TYPE_BUFFER, &out};
                table->BindInputs(2, inDesc);
                table->BindOutputs(1, &outDesc);
                table->BindPersistentResource(&persDesc);
                CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
                recorder->RecordDispatch(queue, compiled.Get(), table.Get());
                CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
                CHECK(std::strstr(dmlcl_last_error(), "and OutputTensor overlap in one cl_mem"));
            }
        }
        clFinish(queue);
        clReleaseMemObject(mem);
        dmlcl_device_release(cl);
    }
}

/* BindInputs(0, nullptr) unbinds the inputs only; a dispatch then needs them again. */
static void Unbind()
{
    GatherDesc g;
    dmlcl_device *cl = nullptr;
    CHECK_HR(dmlcl_device_create(&cl), S_OK);
    ComPtr<IDMLDevice> device;
    CHECK_HR(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)), S_OK);
    ComPtr<IDMLOperator> op;
    ComPtr<IDMLCompiledOperator> compiled;
    ComPtr<IDMLBindingTable> table;
    ComPtr<IDMLCommandRecorder> recorder;
    if (device) {
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&op)), S_OK);
        CHECK_HR(
            device->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)),
            S_OK);
        DML_BINDING_TABLE_DESC desc = {compiled.Get(), {}, {}, 8};
        CHECK_HR(device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)), S_OK);
        CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    }
    if (table && recorder) {
        cl_int err;
        cl_mem mem =
            clCreateBuffer(dmlcl_device_context(cl), CL_MEM_READ_WRITE, 256, nullptr, &err);
        DML_BUFFER_BINDING in = {mem, 0, 48}, ix = {mem, 64, 8}, out = {mem, 128, 24};
        DML_BINDING_DESC inputs[2] = {{DML_BINDING_TYPE_BUFFER, &in},
                                      {DML_BINDING_TYPE_BUFFER, &ix}};
        DML_BINDING_DESC output = {DML_BINDING_TYPE_BUFFER, &out};
        table->BindInputs(2, inputs);
        table->BindOutputs(1, &output);
        table->BindInputs(0, nullptr);
        CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
        table->BindInputs(2, inputs); /* the outputs stayed bound */
        recorder->RecordDispatch(dmlcl_device_queue(cl), compiled.Get(), table.Get());
        CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
        table->BindInputs(0, nullptr);
        recorder->RecordDispatch(dmlcl_device_queue(cl), compiled.Get(), table.Get());
        CHECK_HR(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
        clFinish(dmlcl_device_queue(cl));
        clReleaseMemObject(mem);
    }
    recorder.Reset();
    table.Reset();
    compiled.Reset();
    op.Reset();
    device.Reset();
    dmlcl_device_release(cl);
}

/* Reads n bytes of mem (blocking) on queue. */
static std::vector<unsigned char> ReadBack(cl_command_queue queue, cl_mem mem, size_t n)
{
    std::vector<unsigned char> got(n);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n, got.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
    return got;
}

/*
 * One binding table Reset from a compiled GATHER to a compiled transposing
 * ELEMENT_WISE_IDENTITY and back (DirectML programs reuse one table for every
 * dispatch of a command list): each dispatch writes its own operator's output,
 * checked against the definitions computed here.
 */
static void TableAcrossOperators()
{
    GatherDesc g; /* {4,3} rows picked by 2 indices */
    /* The transpose: a {4,3} matrix read through strides {1,3} as {3,4}. */
    Tensor tin{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 3, 4}, {12, 12, 1, 3}};
    Tensor tout{DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 3, 4}};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{&tin.desc, &tout.desc, nullptr};
    DML_OPERATOR_DESC transposeDesc{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};

    dmlcl_device *cl = nullptr;
    CHECK_HR(dmlcl_device_create(&cl), S_OK);
    if (!cl)
        return;
    ComPtr<IDMLDevice> device;
    CHECK_HR(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)), S_OK);
    ComPtr<IDMLOperator> gatherOp, transposeOp;
    ComPtr<IDMLCompiledOperator> gather, transpose;
    ComPtr<IDMLBindingTable> table;
    ComPtr<IDMLCommandRecorder> recorder;
    if (device) {
        CHECK_HR(device->CreateOperator(&g.desc, IID_PPV_ARGS(&gatherOp)), S_OK);
        CHECK_HR(device->CreateOperator(&transposeDesc, IID_PPV_ARGS(&transposeOp)), S_OK);
        if (gatherOp && transposeOp) {
            CHECK_HR(device->CompileOperator(gatherOp.Get(), DML_EXECUTION_FLAG_NONE,
                                             IID_PPV_ARGS(&gather)),
                     S_OK);
            CHECK_HR(device->CompileOperator(transposeOp.Get(), DML_EXECUTION_FLAG_NONE,
                                             IID_PPV_ARGS(&transpose)),
                     S_OK);
        }
        CHECK_HR(device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)), S_OK);
    }
    if (gather && transpose && recorder) {
        DML_BINDING_TABLE_DESC desc = {gather.Get(), {}, {}, 8};
        CHECK_HR(device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)), S_OK);
    }
    if (!table) {
        dmlcl_device_release(cl);
        return;
    }
    float matrix[12]; /* the {4,3} input of both */
    for (int i = 0; i < 12; ++i)
        matrix[i] = 0.25f * (float)i - 1.0f;
    const uint32_t rows[2][2] = {{3, 1}, {0, 2}};
    cl_context context = dmlcl_device_context(cl);
    cl_command_queue queue = dmlcl_device_queue(cl);
    cl_int err;
    auto buffer = [&](size_t n, const void *init) {
        cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                                  const_cast<void *>(init), &err);
        CHECK(err == CL_SUCCESS);
        if (!init) {
            const unsigned char poison = 0xA5;
            clEnqueueFillBuffer(queue, m, &poison, 1, 0, n, 0, nullptr, nullptr);
        }
        return m;
    };
    cl_mem in = buffer(sizeof matrix, matrix), idx[2] = {buffer(8, rows[0]), buffer(8, rows[1])};
    cl_mem gathered[2] = {buffer(24, nullptr), buffer(24, nullptr)},
           transposed = buffer(48, nullptr);

    /* GATHER with indices 0, the transpose, GATHER again with indices 1 into another output. */
    for (int step = 0; step < 3; ++step) {
        bool isGather = step != 1;
        int k = step / 2;
        DML_BINDING_TABLE_DESC desc = {isGather ? static_cast<IDMLDispatchable *>(gather.Get())
                                                : static_cast<IDMLDispatchable *>(transpose.Get()),
                                       {},
                                       {},
                                       8};
        if (step > 0)
            CHECK_HR(table->Reset(&desc), S_OK);
        DML_BUFFER_BINDING bIn = {in, 0, sizeof matrix}, bIdx = {idx[k], 0, 8},
                           bOut = {isGather ? gathered[k] : transposed, 0, isGather ? 24u : 48u};
        DML_BINDING_DESC inputs[2] = {{DML_BINDING_TYPE_BUFFER, &bIn},
                                      {DML_BINDING_TYPE_BUFFER, &bIdx}};
        DML_BINDING_DESC output = {DML_BINDING_TYPE_BUFFER, &bOut};
        table->BindInputs(isGather ? 2 : 1, inputs);
        table->BindOutputs(1, &output);
        recorder->RecordDispatch(queue, desc.Dispatchable, table.Get());
        CHECK_HR(device->GetDeviceRemovedReason(), S_OK);
    }
    clFinish(queue);

    for (int k = 0; k < 2; ++k) {
        std::vector<unsigned char> got = ReadBack(queue, gathered[k], 24);
        float want[6];
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 3; ++c)
                want[r * 3 + c] = matrix[rows[k][r] * 3 + c];
        CHECK(std::memcmp(got.data(), want, sizeof want) == 0);
    }
    std::vector<unsigned char> got = ReadBack(queue, transposed, 48);
    float want[12];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            want[r * 4 + c] = matrix[c * 3 + r];
    CHECK(std::memcmp(got.data(), want, sizeof want) == 0);

    for (cl_mem m : {in, idx[0], idx[1], gathered[0], gathered[1], transposed})
        clReleaseMemObject(m);
    recorder.Reset();
    table.Reset();
    gather.Reset();
    transpose.Reset();
    gatherOp.Reset();
    transposeOp.Reset();
    device.Reset();
    dmlcl_device_release(cl);
}

int main()
{
    RefCounts();
    QueryInterfaces();
    PrivateData();
    FeatureQueries();
    Refusals();
    GraphRules();
    VoidMisuse();
    OwnedByDml();
    Unbind();
    TableAcrossOperators();
    return finish("dmlcl-com-objects");
}
