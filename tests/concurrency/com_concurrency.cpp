// SPDX-License-Identifier: MIT
/*
 * dmlcl-com-concurrency: 8 threads share one IDMLDevice1 through DirectML's
 * C++ API. Each thread, at the same time as the others: creates operators
 * on the shared device, compiles shared and its own operators, compiles a
 * graph of shared operators, creates initializers, binding tables and
 * command recorders, initializes an operator whose indices are
 * DML_TENSOR_FLAG_OWNED_BY_DML, and each round binds and records
 * dispatches of shared and its own compiled operators and graphs on a
 * queue of its own, while it also queries features, the removed reason and
 * private data of shared objects. Every output must equal, bit for bit, what
 * a single-threaded run of the same work produced first, and the device must
 * never be removed. Then a removal race: on a second IDMLDevice one thread
 * misuses a void method (the device is removed) while the others create
 * operators and ask for the removed reason, which each sees as S_OK or
 * DXGI_ERROR_DEVICE_REMOVED with a message, nothing else. Run under
 * ThreadSanitizer in CI (scripts/test).
 */
#include <DirectML.h>
#include <wsl/wrladapter.h>

#include <dmlcl/dmlcl.h>

#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Microsoft::WRL::ComPtr;

namespace
{

constexpr int kThreads = 8;
constexpr int kRounds = 6;
constexpr UINT kRows = 16, kCols = 16; /* FLOAT32 {16,16}: 1 KiB */
constexpr UINT kPicks = 12;            /* gathered rows */

/* A buffer tensor description. */
struct Tensor {
    UINT sizes[4] = {}, strides[4] = {};
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    Tensor(DML_TENSOR_DATA_TYPE type, std::vector<UINT> s, std::vector<UINT> st = {},
           DML_TENSOR_FLAGS flags = DML_TENSOR_FLAG_NONE)
    {
        UINT elements = 1, last = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            sizes[i] = s[i];
            elements *= s[i];
            if (!st.empty()) {
                strides[i] = st[i];
                last += (s[i] - 1) * st[i];
            }
        }
        UINT bytes = (st.empty() ? elements : last + 1) * 4;
        buffer = {
            type, flags, (UINT)s.size(), sizes, st.empty() ? nullptr : strides, (bytes + 3) / 4 * 4,
            0};
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
};

/* The operators every thread runs: a transpose, a row GATHER, the same with owned indices. */
struct Descs {
    Tensor matrix{DML_TENSOR_DATA_TYPE_FLOAT32, {kRows, kCols}};
    Tensor transposedIn{DML_TENSOR_DATA_TYPE_FLOAT32, {kCols, kRows}, {1, kCols}};
    Tensor transposedOut{DML_TENSOR_DATA_TYPE_FLOAT32, {kCols, kRows}};
    Tensor indices{DML_TENSOR_DATA_TYPE_UINT32, {1, kPicks}};
    Tensor owned{DML_TENSOR_DATA_TYPE_UINT32, {1, kPicks}, {}, DML_TENSOR_FLAG_OWNED_BY_DML};
    Tensor gathered{DML_TENSOR_DATA_TYPE_FLOAT32, {kPicks, kCols}};
    Tensor gatheredIn{DML_TENSOR_DATA_TYPE_FLOAT32, {kCols, kPicks}, {1, kCols}};
    Tensor gatheredOut{DML_TENSOR_DATA_TYPE_FLOAT32, {kCols, kPicks}};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC transpose{&transposedIn.desc, &transposedOut.desc,
                                                      nullptr};
    DML_GATHER_OPERATOR_DESC gather{&matrix.desc, &indices.desc, &gathered.desc, 0, 1};
    DML_GATHER_OPERATOR_DESC gatherOwned{&matrix.desc, &owned.desc, &gathered.desc, 0, 1};
    /* The graph's second node: the gathered rows transposed. */
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC transposeGathered{&gatheredIn.desc, &gatheredOut.desc,
                                                              nullptr};
    DML_OPERATOR_DESC ops[4] = {{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &transpose},
                                {DML_OPERATOR_GATHER, &gather},
                                {DML_OPERATOR_GATHER, &gatherOwned},
                                {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &transposeGathered}};
};

Descs descs;
dmlcl_device *cl;
ComPtr<IDMLDevice1> device; /* shared by every thread */
ComPtr<IDMLOperator> sharedOps[4];
ComPtr<IDMLCompiledOperator> sharedCompiled[2]; /* the transpose and the gather */
ComPtr<IDMLCompiledOperator> sharedGraph;
const GUID kTag = {0x11223344, 0x5566, 0x7788, {1, 2, 3, 4, 5, 6, 7, 8}};

enum Work { TRANSPOSE, GATHER, GATHER_OWNED, GRAPH, WORKS };
const char *const kNames[WORKS] = {"transpose", "gather", "gather (owned indices)", "graph"};
const size_t kOutBytes[WORKS] = {kRows * kCols * 4, kPicks *kCols * 4, kPicks *kCols * 4,
                                 kPicks *kCols * 4};

struct Result {
    std::vector<unsigned char> out[kRounds][WORKS][2]; /* [..][0] shared, [1] the thread's own */
};

struct ThreadArg {
    int t;
    Result *res;
    char error[512];
};

/* Inputs of thread t, round r: distinct bit patterns; indices in range. */
void Fill(int t, int r, std::vector<float> &matrix, std::vector<uint32_t> &indices)
{
    uint32_t x = 2654435761u * (uint32_t)(t * 100 + r + 1);
    matrix.resize(kRows * kCols);
    indices.resize(kPicks);
    for (float &f : matrix) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        std::memcpy(&f, &x, 4);
    }
    for (uint32_t &i : indices) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        i = x % kRows;
    }
}

HRESULT GraphOf(IDMLOperator *gather, IDMLOperator *transpose, IDMLCompiledOperator **out)
{
    DML_OPERATOR_GRAPH_NODE_DESC opNodes[2] = {{gather, "gather"}, {transpose, "transpose"}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &opNodes[1]}};
    DML_INPUT_GRAPH_EDGE_DESC in[2] = {{0, 0, 0, nullptr}, {1, 0, 1, nullptr}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC mid = {0, 0, 1, 0, nullptr};
    DML_OUTPUT_GRAPH_EDGE_DESC outEdge = {1, 0, 0, nullptr};
    DML_GRAPH_EDGE_DESC inE[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &in[0]},
                                  {DML_GRAPH_EDGE_TYPE_INPUT, &in[1]}};
    DML_GRAPH_EDGE_DESC midE = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &mid};
    DML_GRAPH_EDGE_DESC outE = {DML_GRAPH_EDGE_TYPE_OUTPUT, &outEdge};
    DML_GRAPH_DESC graph = {2, 1, 2, nodes, 2, inE, 1, &outE, 1, &midE};
    return device->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator),
                                reinterpret_cast<void **>(out));
}

/* One thread's objects: its own compiled operators, graph, table and recorder. */
struct Mine {
    ComPtr<IDMLOperator> ops[3];
    ComPtr<IDMLCompiledOperator> compiled[3];
    ComPtr<IDMLCompiledOperator> graph;
    ComPtr<IDMLBindingTable> table;
    ComPtr<IDMLCommandRecorder> recorder;
    cl_mem persistent = nullptr; /* the owned-indices gather's */
};

bool Failed(ThreadArg *a, const char *what, HRESULT hr)
{
    if (SUCCEEDED(hr) && device->GetDeviceRemovedReason() == S_OK)
        return false;
    if (!a->error[0])
        std::snprintf(a->error, sizeof a->error, "thread %d: %s: %s (%s)", a->t, what,
                      dmlcl_hresult_name(FAILED(hr) ? hr : device->GetDeviceRemovedReason()),
                      dmlcl_last_error());
    return true;
}

cl_mem Buffer(size_t n, const void *init)
{
    cl_int err;
    return clCreateBuffer(dmlcl_device_context(cl),
                          CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                          const_cast<void *>(init), &err);
}

/* Creation, compilation and initialization: all on the shared device, all at once. */
bool Prepare(ThreadArg *a, Mine &m, cl_command_queue q, const std::vector<uint32_t> &ownedIndices)
{
    for (int k = 0; k < 3; ++k) {
        if (Failed(a, "CreateOperator",
                   device->CreateOperator(&descs.ops[k], IID_PPV_ARGS(&m.ops[k]))))
            return false;
        /* The gather from the shared IDMLOperator (compiled by every thread at once). */
        IDMLOperator *from = k == GATHER ? sharedOps[GATHER].Get() : m.ops[k].Get();
        if (Failed(a, "CompileOperator",
                   device->CompileOperator(from, DML_EXECUTION_FLAG_NONE,
                                           IID_PPV_ARGS(&m.compiled[k]))))
            return false;
    }
    if (Failed(a, "CompileGraph", GraphOf(sharedOps[GATHER].Get(), sharedOps[3].Get(), &m.graph)))
        return false;
    if (Failed(a, "CreateCommandRecorder",
               device->CreateCommandRecorder(IID_PPV_ARGS(&m.recorder))))
        return false;
    /* Initialize the owned-indices gather: its indices go into its persistent resource. */
    IDMLCompiledOperator *toInit[] = {m.compiled[GATHER_OWNED].Get()};
    ComPtr<IDMLOperatorInitializer> init;
    if (Failed(a, "CreateOperatorInitializer",
               device->CreateOperatorInitializer(1, toInit, IID_PPV_ARGS(&init))))
        return false;
    DML_BINDING_TABLE_DESC desc = {init.Get(), {}, {}, 16};
    if (Failed(a, "CreateBindingTable", device->CreateBindingTable(&desc, IID_PPV_ARGS(&m.table))))
        return false;
    UINT64 persistentBytes =
        m.compiled[GATHER_OWNED]->GetBindingProperties().PersistentResourceSize;
    cl_mem idx = Buffer(kPicks * 4, ownedIndices.data());
    m.persistent = Buffer((size_t)persistentBytes, nullptr);
    DML_BUFFER_BINDING initIn[2] = {{nullptr, 0, 0}, {idx, 0, kPicks * 4}};
    DML_BUFFER_ARRAY_BINDING array = {2, initIn};
    DML_BINDING_DESC arrayDesc = {DML_BINDING_TYPE_BUFFER_ARRAY, &array};
    DML_BUFFER_BINDING pers = {m.persistent, 0, persistentBytes};
    DML_BINDING_DESC persDesc = {DML_BINDING_TYPE_BUFFER, &pers};
    m.table->BindInputs(1, &arrayDesc);
    m.table->BindOutputs(1, &persDesc);
    m.recorder->RecordDispatch(q, init.Get(), m.table.Get());
    clFinish(q);
    clReleaseMemObject(idx);
    return !Failed(a, "initialization", S_OK);
}

/* Binds and records one dispatch of work w (compiled c) on q; reads the output back. */
bool RunOne(ThreadArg *a, Mine &m, cl_command_queue q, IDMLCompiledOperator *c, Work w,
            const std::vector<float> &matrix, const std::vector<uint32_t> &indices,
            std::vector<unsigned char> &out)
{
    DML_BINDING_TABLE_DESC desc = {c, {}, {}, 16};
    if (Failed(a, "IDMLBindingTable::Reset", m.table->Reset(&desc)))
        return false;
    cl_mem in = Buffer(matrix.size() * 4, matrix.data());
    cl_mem idx = Buffer(indices.size() * 4, indices.data());
    cl_mem res = Buffer(kOutBytes[w], nullptr);
    DML_BUFFER_BINDING bIn = {in, 0, matrix.size() * 4}, bIdx = {idx, 0, indices.size() * 4},
                       bOut = {res, 0, kOutBytes[w]};
    DML_BINDING_DESC inputs[2] = {{DML_BINDING_TYPE_BUFFER, &bIn},
                                  {DML_BINDING_TYPE_BUFFER, &bIdx}};
    if (w == GATHER_OWNED)
        inputs[1] = {DML_BINDING_TYPE_NONE, nullptr};
    DML_BINDING_DESC output = {DML_BINDING_TYPE_BUFFER, &bOut};
    m.table->BindInputs(w == TRANSPOSE ? 1 : 2, inputs);
    m.table->BindOutputs(1, &output);
    DML_BINDING_PROPERTIES props = c->GetBindingProperties();
    cl_mem temp = props.TemporaryResourceSize ? Buffer((size_t)props.TemporaryResourceSize, nullptr)
                                              : nullptr;
    DML_BUFFER_BINDING bTemp = {temp, 0, props.TemporaryResourceSize};
    DML_BINDING_DESC tempDesc = {DML_BINDING_TYPE_BUFFER, &bTemp};
    if (temp)
        m.table->BindTemporaryResource(&tempDesc);
    DML_BUFFER_BINDING bPers = {m.persistent, 0, props.PersistentResourceSize};
    DML_BINDING_DESC persDesc = {DML_BINDING_TYPE_BUFFER, &bPers};
    if (props.PersistentResourceSize)
        m.table->BindPersistentResource(&persDesc);
    m.recorder->RecordDispatch(q, c, m.table.Get());
    out.resize(kOutBytes[w]);
    cl_int err =
        clEnqueueReadBuffer(q, res, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    for (cl_mem mem : {in, idx, res, temp})
        if (mem)
            clReleaseMemObject(mem);
    return !Failed(a, kNames[w], err == CL_SUCCESS ? S_OK : E_FAIL);
}

/* The shared objects' other methods, called while the dispatches run. */
bool Queries(ThreadArg *a, int r)
{
    DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT q = {DML_TENSOR_DATA_TYPE_FLOAT16};
    DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {};
    if (Failed(a, "CheckFeatureSupport",
               device->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q,
                                           sizeof s, &s)))
        return false;
    uint64_t value = (uint64_t)a->t << 32 | (uint64_t)r;
    if (Failed(a, "SetPrivateData",
               sharedOps[TRANSPOSE]->SetPrivateData(kTag, sizeof value, &value)))
        return false;
    UINT size = sizeof value;
    uint64_t got = 0;
    return !Failed(a, "GetPrivateData", sharedOps[TRANSPOSE]->GetPrivateData(kTag, &size, &got));
}

void *ThreadMain(void *p)
{
    ThreadArg *a = static_cast<ThreadArg *>(p);
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(dmlcl_device_context(cl), dmlcl_device_id(cl), 0, &err);
    if (err != CL_SUCCESS) {
        std::snprintf(a->error, sizeof a->error, "thread %d: clCreateCommandQueue %d", a->t, err);
        return nullptr;
    }
    std::vector<float> matrix;
    std::vector<uint32_t> indices, ownedIndices;
    Fill(a->t, 99, matrix, ownedIndices);
    Mine m;
    if (Prepare(a, m, q, ownedIndices)) {
        for (int r = 0; r < kRounds && !a->error[0]; ++r) {
            Fill(a->t, r, matrix, indices);
            IDMLCompiledOperator *shared[WORKS] = {sharedCompiled[TRANSPOSE].Get(),
                                                   sharedCompiled[GATHER].Get(), nullptr,
                                                   sharedGraph.Get()};
            IDMLCompiledOperator *own[WORKS] = {m.compiled[TRANSPOSE].Get(),
                                                m.compiled[GATHER].Get(),
                                                m.compiled[GATHER_OWNED].Get(), m.graph.Get()};
            for (int w = 0; w < WORKS && !a->error[0]; ++w)
                for (int mineToo = 0; mineToo < 2 && !a->error[0]; ++mineToo) {
                    IDMLCompiledOperator *c = mineToo ? own[w] : shared[w];
                    if (c)
                        RunOne(a, m, q, c, (Work)w, matrix,
                               w == GATHER_OWNED ? ownedIndices : indices,
                               a->res->out[r][w][mineToo]);
                }
            Queries(a, r);
        }
    }
    if (m.persistent)
        clReleaseMemObject(m.persistent);
    clReleaseCommandQueue(q);
    return nullptr;
}

/* The removal race's device and the compiled operator its misuse binds. */
ComPtr<IDMLDevice1> victim;
ComPtr<IDMLCompiledOperator> victimCompiled;

void *RemovalMain(void *p)
{
    ThreadArg *a = static_cast<ThreadArg *>(p);
    if (a->t == 0) {
        DML_BINDING_TABLE_DESC desc = {victimCompiled.Get(), {}, {}, 16};
        ComPtr<IDMLBindingTable> table;
        if (FAILED(victim->CreateBindingTable(&desc, IID_PPV_ARGS(&table))))
            return nullptr; /* another thread's view of an early removal: not this one's */
        DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, nullptr};
        table->BindInputs(1, &none); /* GATHER has two inputs: the device is removed */
        return nullptr;
    }
    for (int i = 0; i < 40; ++i) {
        ComPtr<IDMLOperator> op;
        HRESULT hr = victim->CreateOperator(&descs.ops[TRANSPOSE], IID_PPV_ARGS(&op));
        HRESULT reason = victim->GetDeviceRemovedReason();
        bool removed = reason == DXGI_ERROR_DEVICE_REMOVED;
        if ((hr != S_OK && hr != DXGI_ERROR_DEVICE_REMOVED) || (reason != S_OK && !removed) ||
            (removed && !std::strstr(dmlcl_last_error(), "removed"))) {
            std::snprintf(a->error, sizeof a->error,
                          "thread %d: during the removal: CreateOperator %s, "
                          "GetDeviceRemovedReason %s (%s)",
                          a->t, dmlcl_hresult_name(hr), dmlcl_hresult_name(reason),
                          dmlcl_last_error());
            break;
        }
    }
    return nullptr;
}

int RemovalRace()
{
    ComPtr<IDMLOperator> gather;
    if (FAILED(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&victim))) ||
        FAILED(victim->CreateOperator(&descs.ops[GATHER], IID_PPV_ARGS(&gather))) ||
        FAILED(victim->CompileOperator(gather.Get(), DML_EXECUTION_FLAG_NONE,
                                       IID_PPV_ARGS(&victimCompiled)))) {
        std::fprintf(stderr, "dmlcl-com-concurrency: removal race setup: %s\n", dmlcl_last_error());
        return 1;
    }
    ThreadArg args[kThreads];
    pthread_t th[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        args[t] = ThreadArg{t, nullptr, ""};
        pthread_create(&th[t], nullptr, RemovalMain, &args[t]);
    }
    for (pthread_t &h : th)
        pthread_join(h, nullptr);
    int bad = victim->GetDeviceRemovedReason() != DXGI_ERROR_DEVICE_REMOVED ||
              !std::strstr(dmlcl_last_error(), "BindInputs");
    if (bad)
        std::fprintf(stderr, "dmlcl-com-concurrency: the misuse did not remove the device: %s\n",
                     dmlcl_last_error());
    for (ThreadArg &a : args)
        if (a.error[0]) {
            std::fprintf(stderr, "dmlcl-com-concurrency: %s\n", a.error);
            bad = 1;
        }
    victimCompiled.Reset();
    gather.Reset();
    victim.Reset();
    return bad;
}

} // namespace

int main()
{
    if (FAILED(dmlcl_device_create(&cl)) ||
        FAILED(DMLCreateDevice(cl, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&device)))) {
        std::fprintf(stderr, "dmlcl-com-concurrency: setup: %s\n", dmlcl_last_error());
        return 1;
    }
    for (int k = 0; k < 4; ++k)
        if (FAILED(device->CreateOperator(&descs.ops[k], IID_PPV_ARGS(&sharedOps[k])))) {
            std::fprintf(stderr, "dmlcl-com-concurrency: CreateOperator: %s\n", dmlcl_last_error());
            return 1;
        }
    for (int k = 0; k < 2; ++k)
        if (FAILED(device->CompileOperator(sharedOps[k].Get(), DML_EXECUTION_FLAG_NONE,
                                           IID_PPV_ARGS(&sharedCompiled[k])))) {
            std::fprintf(stderr, "dmlcl-com-concurrency: CompileOperator: %s\n",
                         dmlcl_last_error());
            return 1;
        }
    if (FAILED(GraphOf(sharedOps[GATHER].Get(), sharedOps[3].Get(), &sharedGraph))) {
        std::fprintf(stderr, "dmlcl-com-concurrency: CompileGraph: %s\n", dmlcl_last_error());
        return 1;
    }
    static Result single[kThreads], multi[kThreads];
    ThreadArg args[kThreads];
    /* The reference: each thread's work, one thread after the other. */
    for (int t = 0; t < kThreads; ++t) {
        args[t] = ThreadArg{t, &single[t], ""};
        ThreadMain(&args[t]);
        if (args[t].error[0]) {
            std::fprintf(stderr, "dmlcl-com-concurrency: single-threaded: %s\n", args[t].error);
            return 1;
        }
    }
    pthread_t th[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        args[t] = ThreadArg{t, &multi[t], ""};
        pthread_create(&th[t], nullptr, ThreadMain, &args[t]);
    }
    for (pthread_t &h : th)
        pthread_join(h, nullptr);
    int bad = 0;
    for (int t = 0; t < kThreads; ++t) {
        if (args[t].error[0]) {
            std::fprintf(stderr, "dmlcl-com-concurrency: %s\n", args[t].error);
            bad = 1;
            continue;
        }
        for (int r = 0; r < kRounds; ++r)
            for (int w = 0; w < WORKS; ++w)
                for (int own = 0; own < 2; ++own)
                    if (single[t].out[r][w][own] != multi[t].out[r][w][own]) {
                        std::fprintf(stderr,
                                     "dmlcl-com-concurrency: thread %d round %d %s (%s): output "
                                     "differs from the single-threaded run\n",
                                     t, r, kNames[w], own ? "its own" : "shared");
                        bad = 1;
                    }
    }
    /* The comparison cannot pass vacuously: the gather picks the rows its indices name. */
    {
        std::vector<float> matrix;
        std::vector<uint32_t> indices;
        Fill(0, 0, matrix, indices);
        const std::vector<unsigned char> &got = single[0].out[0][GATHER][0];
        for (UINT p = 0; p < kPicks && got.size() == kPicks * kCols * 4; ++p)
            if (std::memcmp(got.data() + p * kCols * 4, &matrix[indices[p] * kCols], kCols * 4)) {
                std::fprintf(stderr, "dmlcl-com-concurrency: the gather's row %u is wrong\n", p);
                bad = 1;
                break;
            }
    }
    HRESULT removed = device->GetDeviceRemovedReason();
    bad |= RemovalRace();
    for (ComPtr<IDMLOperator> &o : sharedOps)
        o.Reset();
    for (ComPtr<IDMLCompiledOperator> &c : sharedCompiled)
        c.Reset();
    sharedGraph.Reset();
    device.Reset();
    dmlcl_device_release(cl);
    std::printf("dmlcl-com-concurrency: %d threads x %d rounds on one IDMLDevice1, and a removal "
                "race: %s\n",
                kThreads, kRounds,
                bad || removed != S_OK ? "FAILED" : "bit-exact against the single-threaded run");
    return bad || removed != S_OK;
}
