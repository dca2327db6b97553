// SPDX-License-Identifier: MIT
/*
 * fuzz_com: bytes -> calls of DirectML's C++ API itself (src/com), on a
 * fresh IDMLDevice over one dmlcl_device (PoCL): DMLCreateDevice/1 with any
 * device pointer, flags and level; CheckFeatureSupport with any feature,
 * type and levels; CreateOperator from fuzz_operators' decoder,
 * CompileOperator or CompileGraph (up to three such operators, chained, any
 * node and edge type) with any flags; CreateOperatorInitializer,
 * CreateBindingTable / Reset, every Bind* with any binding type, buffer
 * range or array, and RecordDispatch of the initializer and the compiled
 * operator. A byte of 0 always means the usual, valid choice, so an
 * operator seed after a 0 byte runs create, compile, initialize, bind and
 * dispatch (dmlcl-fuzz-seed writes such seeds).
 *
 * What must hold for every input: no crash and no undefined behaviour
 * under the sanitizers (an enum outside its values included); every
 * refusal leaves a message; an HRESULT method never removes the device,
 * and a removed device answers DXGI_ERROR_DEVICE_REMOVED with a message;
 * no dispatch writes outside the buffer ranges it was given (each buffer's
 * guard bytes, never bound, keep their pattern); the objects hold no
 * reference once released (the device's count returns to 1). Leaks are
 * LeakSanitizer's to report.
 */
#include <DirectML.h>
#include <wsl/wrladapter.h>

#include <dmlcl/dmlcl.h>

#include <cstdio>
#include <cstring>

extern "C" {
#include "bytes.h"
#include "drivers.h"
}

using Microsoft::WRL::ComPtr;

namespace
{

constexpr size_t kBuffers = 8;   /* one per slot: inputs, outputs, temporary, persistent */
constexpr size_t kUsable = 4096; /* what bindings may cover */
constexpr size_t kGuard = 256;   /* never bound: must keep its pattern */
constexpr unsigned char kPattern = 0x5A;
constexpr UINT kMaxSlots = 6; /* inputs bound per dispatch (and per graph node) */
/* The most work (fuzz_work_bound, summed over a graph's nodes) executed per input. */
constexpr uint64_t kMaxWork = uint64_t(1) << 26;

/* ID3D12Device's IID (GetParentDevice). */
const GUID kID3D12Device = {
    0x189819f1, 0x1db6, 0x4b57, {0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7}};

/* The process's dmlcl_device and buffers (a device is costly; its IDMLDevice is per input). */
struct Shared {
    dmlcl_device *cl = nullptr;
    cl_mem buffers[kBuffers] = {};
    bool ready = false;
    Shared()
    {
        if (FAILED(dmlcl_device_create(&cl)))
            return;
        for (cl_mem &b : buffers) {
            cl_int err;
            b = clCreateBuffer(dmlcl_device_context(cl), CL_MEM_READ_WRITE, kUsable + kGuard,
                               nullptr, &err);
            if (err != CL_SUCCESS)
                return;
        }
        ready = true;
    }
};

Shared &shared()
{
    static Shared s;
    return s;
}

/* One input's run: what it found wrong goes to why. */
struct Run {
    fuzz_in bytes;
    char *why;
    unsigned *accepted;
    Shared &s = shared();
    ComPtr<IDMLDevice1> device;
    bool broken = false;
    uint64_t work = 0; /* this input's operators' fuzz_work_bound, summed */

    Run(const uint8_t *data, size_t size, char *w, unsigned *a)
        : bytes{data, size}, why(w), accepted(a)
    {
    }

    uint8_t u8()
    {
        return fuzz_u8(&bytes);
    }
    uint32_t u32()
    {
        return fuzz_u32(&bytes);
    }
    /* An enum's value: mostly want, sometimes a small or any integer. */
    UINT Value(UINT want)
    {
        switch (u8() % 16) {
        case 1: return u8();
        case 2: return u32();
        case 3: return static_cast<UINT>(fuzz_u64(&bytes));
        default: return want;
        }
    }
    /*
     * The same as an enum prvalue, converted and never loaded: pass it straight to the call
     * (a local of the enum type holding such a value would be UB to read in this file too).
     */
    template <class E> E Enum(E want)
    {
        return static_cast<E>(Value(static_cast<UINT>(want)));
    }
    template <class E> void SetEnum(E &field, E want)
    {
        UINT v = Value(static_cast<UINT>(want));
        std::memcpy(&field, &v, sizeof v);
    }

    bool Fail(const char *what, HRESULT hr)
    {
        std::snprintf(why, FUZZ_WHY, "%s: %s", what, dmlcl_hresult_name(hr));
        broken = true;
        return false;
    }
    /* An HRESULT method's result: a failure explains itself and removes nothing. */
    bool Checked(const char *what, HRESULT hr, HRESULT removed_before)
    {
        if (FAILED(hr) && !dmlcl_last_error()[0])
            return Fail(what, hr);
        if (device && hr != DXGI_ERROR_DEVICE_REMOVED &&
            device->GetDeviceRemovedReason() != removed_before)
            return Fail(what, E_UNEXPECTED); /* an HRESULT failure removed the device */
        if (SUCCEEDED(hr) && accepted)
            ++*accepted;
        return SUCCEEDED(hr);
    }
    HRESULT Removed()
    {
        return device ? device->GetDeviceRemovedReason() : S_OK;
    }

    /* A binding: buffer `slot` over part of its usable bytes, or something else entirely. */
    DML_BUFFER_BINDING bufferBindings[kBuffers + 8];
    DML_BINDING_DESC descs[kBuffers + 8];
    DML_BUFFER_ARRAY_BINDING arrays[2];
    size_t nBound = 0;

    DML_BINDING_DESC *Binding(UINT slot)
    {
        size_t k = nBound < kBuffers + 8 ? nBound++ : kBuffers + 7;
        DML_BUFFER_BINDING &b = bufferBindings[k];
        UINT64 offset = 16 * (u8() % 8), size = kUsable - offset;
        if (u8() % 8 == 1) { /* any range inside the usable bytes */
            offset = u32() % kUsable;
            size = u32() % (kUsable - offset + 1);
        }
        b = {s.buffers[slot % kBuffers], offset, size};
        if (u8() % 16 == 1)
            b.Buffer = nullptr;
        descs[k] = {DML_BINDING_TYPE_BUFFER, &b};
        switch (u8() % 16) {
        case 1: descs[k] = {DML_BINDING_TYPE_NONE, nullptr}; break;
        case 2: descs[k].Desc = nullptr; break;
        case 3: SetEnum(descs[k].Type, DML_BINDING_TYPE_BUFFER_ARRAY); break;
        default: SetEnum(descs[k].Type, DML_BINDING_TYPE_BUFFER);
        }
        return &descs[k];
    }

    bool GuardsIntact()
    {
        cl_command_queue q = dmlcl_device_queue(s.cl);
        clFinish(q);
        unsigned char got[kGuard];
        for (size_t i = 0; i < kBuffers; ++i) {
            if (clEnqueueReadBuffer(q, s.buffers[i], CL_TRUE, kUsable, kGuard, got, 0, nullptr,
                                    nullptr) != CL_SUCCESS)
                return Fail("clEnqueueReadBuffer (guard)", E_FAIL);
            for (unsigned char c : got)
                if (c != kPattern) {
                    std::snprintf(why, FUZZ_WHY,
                                  "a dispatch wrote past its binding into buffer %zu's guard", i);
                    broken = true;
                    return false;
                }
        }
        return true;
    }

    void ResetGuards()
    {
        cl_command_queue q = dmlcl_device_queue(s.cl);
        for (cl_mem b : s.buffers)
            clEnqueueFillBuffer(q, b, &kPattern, 1, kUsable, kGuard, 0, nullptr, nullptr);
    }

    /* DMLCreateDevice/1 with any device pointer, flags and level. */
    void CreateDevices()
    {
        unsigned char notDevice[32];
        for (unsigned char &c : notDevice)
            c = u8();
        ID3D12Device *pick[] = {nullptr, s.cl, reinterpret_cast<ID3D12Device *>(notDevice)};
        ID3D12Device *dev = pick[u8() % 3];
        UINT flags = Value(DML_CREATE_DEVICE_FLAG_NONE), level = Value(DML_FEATURE_LEVEL_5_0);
        ComPtr<IDMLDevice1> d;
        HRESULT hr =
            u8() & 1 ? DMLCreateDevice(dev, static_cast<DML_CREATE_DEVICE_FLAGS>(flags),
                                       IID_PPV_ARGS(&d))
                     : DMLCreateDevice1(dev, static_cast<DML_CREATE_DEVICE_FLAGS>(flags),
                                        static_cast<DML_FEATURE_LEVEL>(level), IID_PPV_ARGS(&d));
        Checked("DMLCreateDevice", hr, S_OK);
        if (SUCCEEDED(hr) != (d != nullptr))
            Fail("DMLCreateDevice: result and object disagree", hr);
        if (dev == reinterpret_cast<ID3D12Device *>(notDevice) && SUCCEEDED(hr))
            Fail("DMLCreateDevice kept a pointer that is not a device", hr);
    }

    void FeatureQueries()
    {
        DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT type = {};
        SetEnum(type.DataType, DML_TENSOR_DATA_TYPE_FLOAT32);
        DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT typeData = {};
        DML_FEATURE_LEVEL levels[4];
        for (DML_FEATURE_LEVEL &l : levels)
            SetEnum(l, DML_FEATURE_LEVEL_4_1);
        DML_FEATURE_QUERY_FEATURE_LEVELS levelQuery = {u8() % 5u, levels};
        DML_FEATURE_DATA_FEATURE_LEVELS levelData = {};
        UINT feature = Value(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT);
        bool levelsFirst = u8() & 1;
        const void *query = levelsFirst ? static_cast<const void *>(&levelQuery) : &type;
        void *data = levelsFirst ? static_cast<void *>(&levelData) : &typeData;
        UINT qsize = levelsFirst ? sizeof levelQuery : sizeof type;
        UINT dsize = levelsFirst ? sizeof levelData : sizeof typeData;
        Checked("CheckFeatureSupport",
                device->CheckFeatureSupport(static_cast<DML_FEATURE>(feature), qsize, query, dsize,
                                            data),
                Removed());
    }

    /* One operator from the bytes, created on this device (nullptr when refused); its slot
     * counts from the same description created host-only through the C API. */
    ComPtr<IDMLOperator> Operator(unsigned slot, UINT *inputs, UINT *outputs)
    {
        DML_OPERATOR_DESC desc;
        fuzz_decode_operator(&bytes, slot, &desc);
        ComPtr<IDMLOperator> op;
        HRESULT before = Removed();
        Checked("CreateOperator", device->CreateOperator(&desc, IID_PPV_ARGS(&op)), before);
        dmlcl_operator *host = nullptr;
        *inputs = *outputs = 1;
        if (op && SUCCEEDED(dmlcl_operator_create(nullptr, &desc, &host))) {
            *inputs = dmlcl_operator_input_count(host);
            *outputs = dmlcl_operator_output_count(host);
            uint64_t w = fuzz_work_bound(host);
            work = w > UINT64_MAX - work ? UINT64_MAX : work + w;
        }
        dmlcl_operator_release(host);
        return op;
    }

    /* Up to three operators, each reading the previous one's first output. */
    ComPtr<IDMLCompiledOperator> Graph(UINT *inputs, UINT *outputs)
    {
        ComPtr<IDMLOperator> ops[3];
        UINT n = 1 + u8() % 3, ins[3] = {};
        static_assert(3 * kMaxSlots <= 24, "room for every node's input edges");
        DML_OPERATOR_GRAPH_NODE_DESC opNodes[3];
        DML_GRAPH_NODE_DESC nodes[3];
#if DML_TARGET_VERSION >= 0x6200
        /* A node whose type reads as CONSTANT points at a constant's description: a desc of
         * another node type behind it would be the caller's lie, not something to survive. */
        DML_CONSTANT_DATA_GRAPH_NODE_DESC constNodes[3];
        static const unsigned char constData[64] = {};
#endif
        DML_INPUT_GRAPH_EDGE_DESC in[24];
        DML_INTERMEDIATE_GRAPH_EDGE_DESC mid[3];
        DML_OUTPUT_GRAPH_EDGE_DESC out[3];
        DML_GRAPH_EDGE_DESC inE[24], midE[3], outE[3];
        UINT nIn = 0, nMid = 0, nOut = 0, graphInputs = 0;
        for (UINT v = 0; v < n; ++v) {
            UINT outs;
            ops[v] = Operator(v, &ins[v], &outs);
            opNodes[v] = {ops[v].Get(), u8() & 1 ? "node" : nullptr};
            nodes[v] = {DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[v]};
            SetEnum(nodes[v].Type, DML_GRAPH_NODE_TYPE_OPERATOR);
#if DML_TARGET_VERSION >= 0x6200
            UINT type;
            std::memcpy(&type, &nodes[v].Type, sizeof type);
            if (type == DML_GRAPH_NODE_TYPE_CONSTANT) {
                constNodes[v] = {u8() & 1 ? constData : nullptr, u8() % (sizeof constData + 1),
                                 opNodes[v].Name};
                nodes[v].Desc = &constNodes[v];
            }
#endif
            if (u8() % 16 == 1)
                ins[v] = u8() % 6; /* too few or too many edges */
            for (UINT k = 0; k < ins[v] && k < kMaxSlots; ++k) {
                if (v > 0 && k == 0 && nMid < 3) {
                    mid[nMid] = {v - 1, 0, v, 0, nullptr};
                    midE[nMid] = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &mid[nMid]};
                    SetEnum(midE[nMid].Type, DML_GRAPH_EDGE_TYPE_INTERMEDIATE);
                    ++nMid;
                    continue;
                }
                in[nIn] = {graphInputs++, v, k, nullptr};
                inE[nIn] = {DML_GRAPH_EDGE_TYPE_INPUT, &in[nIn]};
                SetEnum(inE[nIn].Type, DML_GRAPH_EDGE_TYPE_INPUT);
                ++nIn;
            }
        }
        out[nOut] = {n - 1, 0, 0, nullptr};
        outE[nOut] = {DML_GRAPH_EDGE_TYPE_OUTPUT, &out[nOut]};
        SetEnum(outE[nOut].Type, DML_GRAPH_EDGE_TYPE_OUTPUT);
        ++nOut;
        DML_GRAPH_DESC graph = {graphInputs, nOut, n, nodes, nIn, inE, nOut, outE, nMid, midE};
        if (u8() % 16 == 1)
            graph.NodeCount = u32(); /* any count: the limit is checked before Nodes is read */
        if (graph.NodeCount > n && graph.NodeCount <= DMLCL_GRAPH_NODE_COUNT_MAX)
            graph.NodeCount = n;
        *inputs = graphInputs;
        *outputs = nOut;
        ComPtr<IDMLCompiledOperator> compiled;
        HRESULT before = Removed();
        Checked(
            "CompileGraph",
            device->CompileGraph(&graph, Enum(DML_EXECUTION_FLAG_NONE), IID_PPV_ARGS(&compiled)),
            before);
        return compiled;
    }

    /* Initializer and execution bindings, then the dispatches; the guards afterwards. */
    void BindAndDispatch(IDMLCompiledOperator *compiled, UINT inputs, UINT outputs)
    {
        cl_command_queue queue = dmlcl_device_queue(s.cl);
        ComPtr<IDMLOperatorInitializer> init;
        ComPtr<IDMLBindingTable> table;
        ComPtr<IDMLCommandRecorder> recorder;
        IDMLCompiledOperator *ops[] = {compiled};
        HRESULT before = Removed();
        Checked("CreateOperatorInitializer",
                device->CreateOperatorInitializer(u8() % 8 == 1 ? 0 : 1, ops, IID_PPV_ARGS(&init)),
                before);
        Checked("CreateCommandRecorder", device->CreateCommandRecorder(IID_PPV_ARGS(&recorder)),
                Removed());
        if (!init || !recorder)
            return;
        DML_BINDING_PROPERTIES props = compiled->GetBindingProperties();
        DML_BINDING_TABLE_DESC desc = {init.Get(), {}, {}, 64};
        if (u8() % 16 == 1)
            desc.SizeInDescriptors = u32();
        Checked("CreateBindingTable", device->CreateBindingTable(&desc, IID_PPV_ARGS(&table)),
                Removed());
        if (!table)
            return;
        ResetGuards();
        /* Initialization: owned inputs (none unless the persistent resource is not 0). */
        if (props.PersistentResourceSize || u8() % 8 == 1) {
            for (UINT i = 0; i < inputs && i < kBuffers; ++i)
                bufferBindings[i] = {u8() & 1 ? s.buffers[i] : nullptr, 0, kUsable};
            arrays[0] = {inputs < kBuffers ? inputs : (UINT)kBuffers, bufferBindings};
            nBound = kBuffers;
            DML_BINDING_DESC array = {DML_BINDING_TYPE_BUFFER_ARRAY, &arrays[0]};
            SetEnum(array.Type, DML_BINDING_TYPE_BUFFER_ARRAY);
            table->BindInputs(1, &array);
            table->BindOutputs(1, Binding(kBuffers - 1));
        }
        if (u8() % 8 == 1)
            table->BindTemporaryResource(Binding(kBuffers - 2));
        recorder->RecordDispatch(queue, init.Get(), table.Get());
        /* Execution. */
        desc.Dispatchable = compiled;
        Checked("IDMLBindingTable::Reset", table->Reset(&desc), Removed());
        nBound = 0;
        DML_BINDING_DESC in[kBuffers], out[kBuffers];
        for (size_t i = 0; i < kBuffers; ++i)
            in[i] = out[i] = {DML_BINDING_TYPE_NONE, nullptr};
        UINT nIn = inputs < kMaxSlots ? inputs : kMaxSlots, nOut = outputs < 2 ? outputs : 2;
        for (UINT i = 0; i < nIn; ++i)
            in[i] = *Binding(i);
        for (UINT o = 0; o < nOut; ++o)
            out[o] = *Binding(nIn + o);
        if (u8() % 16 != 1)
            table->BindInputs(u8() % 16 == 1 ? u8() % kBuffers : nIn, in);
        if (u8() % 16 != 1)
            table->BindOutputs(u8() % 16 == 1 ? u8() % kBuffers : nOut, out);
        if (props.TemporaryResourceSize || u8() % 8 == 1)
            table->BindTemporaryResource(Binding(kBuffers - 2));
        if (props.PersistentResourceSize || u8() % 8 == 1)
            table->BindPersistentResource(Binding(kBuffers - 1));
        /* Binding was checked above; the execution itself only where its work is bounded (a
         * zero-stride input of 2^32 logical elements is a GEMM's K of 2^32: minutes). */
        if (work <= kMaxWork)
            recorder->RecordDispatch(queue, compiled, table.Get());
        if (u8() % 8 == 1) /* again, the other way round */
            recorder->RecordDispatch(queue, init.Get(), table.Get());
        GuardsIntact();
    }

    void Go()
    {
        if (!s.ready) {
            std::snprintf(why, FUZZ_WHY, "no OpenCL device: %s", dmlcl_last_error());
            broken = true;
            return;
        }
        unsigned action = u8();
        if (action % 4 == 3) {
            CreateDevices();
            return;
        }
        Checked("DMLCreateDevice",
                DMLCreateDevice(s.cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)), S_OK);
        if (!device)
            return;
        if (action % 4 == 2) {
            FeatureQueries();
        } else {
            ComPtr<IDMLCompiledOperator> compiled;
            UINT inputs = 0, outputs = 0;
            if (action % 4 == 0) {
                ComPtr<IDMLOperator> op = Operator(0, &inputs, &outputs);
                if (op)
                    Checked("CompileOperator",
                            device->CompileOperator(op.Get(), Enum(DML_EXECUTION_FLAG_NONE),
                                                    IID_PPV_ARGS(&compiled)),
                            Removed());
            } else {
                compiled = Graph(&inputs, &outputs);
            }
            if (compiled)
                BindAndDispatch(compiled.Get(), inputs, outputs);
        }
        HRESULT reason = device->GetDeviceRemovedReason();
        if (reason != S_OK && (reason != DXGI_ERROR_DEVICE_REMOVED || !dmlcl_last_error()[0]))
            Fail("GetDeviceRemovedReason", reason);
        /* Every child released: only this reference is left. */
        device->AddRef();
        if (device->Release() != 1)
            Fail("the device's children kept references after their release", E_UNEXPECTED);
        clFinish(dmlcl_device_queue(s.cl));
    }
};

} // namespace

extern "C" int fuzz_com(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    Run run(data, size, why, accepted);
    run.Go();
    return run.broken ? 1 : 0;
}
