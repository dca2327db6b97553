// SPDX-License-Identifier: MIT
/*
 * A case through DirectML's COM API: the calls a DirectML program makes,
 * with the device's cl_command_queue as the command list and cl_mem buffers.
 */
#include <DirectML.h>
#include <wsl/wrladapter.h>

#include <vector>

extern "C" {
#include "runner.h"
}

using Microsoft::WRL::ComPtr;

extern "C" int rt_com_available(void)
{
    return 1;
}

/* The device-side copies of a case's tensors, released on every path. */
struct buffers {
    std::vector<cl_mem> mems;
    ~buffers()
    {
        for (cl_mem m : mems)
            if (m)
                clReleaseMemObject(m);
    }
};

static HRESULT bind_all(cl_context context, unsigned n, const dmlcl_host_tensor *host, buffers &b,
                        std::vector<DML_BUFFER_BINDING> &bufs, std::vector<DML_BINDING_DESC> &descs)
{
    bufs.resize(n);
    descs.resize(n);
    for (unsigned i = 0; i < n; ++i) {
        b.mems.push_back(nullptr);
        if (!host[i].data) {
            descs[i] = {DML_BINDING_TYPE_NONE, nullptr};
            continue;
        }
        /* Empty tensors (extension operators) still get a buffer to bind. */
        size_t size = host[i].size ? (size_t)host[i].size : 16;
        cl_int err;
        cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
        if (err != CL_SUCCESS)
            return E_OUTOFMEMORY;
        b.mems.back() = m;
        bufs[i] = {m, 0, host[i].size};
        descs[i] = {DML_BINDING_TYPE_BUFFER, &bufs[i]};
    }
    return S_OK;
}

static HRESULT upload(cl_command_queue q, unsigned n, const dmlcl_host_tensor *host,
                      const buffers &b, size_t first)
{
    for (unsigned i = 0; i < n; ++i) {
        cl_mem m = b.mems[first + i];
        if (m && host[i].size &&
            clEnqueueWriteBuffer(q, m, CL_TRUE, 0, host[i].size, host[i].data, 0, nullptr,
                                 nullptr) != CL_SUCCESS)
            return E_FAIL;
    }
    return S_OK;
}

/* execute() names its own failing step. */
#define DMLCL_TRY_STEP(expr)  \
    do {                      \
        HRESULT hr_ = (expr); \
        if (FAILED(hr_))      \
            return hr_;       \
    } while (0)

#define STEP(name, expr)      \
    do {                      \
        *step = (name);       \
        HRESULT hr_ = (expr); \
        if (FAILED(hr_))      \
            return hr_;       \
    } while (0)

/* Initializes and executes compiled on the device's queue, on host tensors. */
static HRESULT execute(IDMLDevice *dml, dmlcl_device *device, IDMLCompiledOperator *compiled,
                       unsigned n_inputs, const dmlcl_host_tensor *inputs, unsigned n_outputs,
                       const dmlcl_host_tensor *outputs, const char **step)
{
    IDMLCompiledOperator *targets[] = {compiled};
    ComPtr<IDMLOperatorInitializer> init;
    STEP("CreateOperatorInitializer",
         dml->CreateOperatorInitializer(1, targets, IID_PPV_ARGS(&init)));
    DML_BINDING_PROPERTIES props = compiled->GetBindingProperties();
    DML_BINDING_TABLE_DESC table_desc = {init.Get(), {}, {}, props.RequiredDescriptorCount};
    ComPtr<IDMLBindingTable> table;
    STEP("CreateBindingTable", dml->CreateBindingTable(&table_desc, IID_PPV_ARGS(&table)));
    ComPtr<IDMLCommandRecorder> recorder;
    STEP("CreateCommandRecorder", dml->CreateCommandRecorder(IID_PPV_ARGS(&recorder)));
    cl_command_queue queue = dmlcl_device_queue(device);
    recorder->RecordDispatch(queue, init.Get(), table.Get());

    buffers b;
    std::vector<DML_BUFFER_BINDING> in_bufs, out_bufs;
    std::vector<DML_BINDING_DESC> in_descs, out_descs;
    cl_context context = dmlcl_device_context(device);
    STEP("clCreateBuffer", bind_all(context, n_inputs, inputs, b, in_bufs, in_descs));
    STEP("clCreateBuffer", bind_all(context, n_outputs, outputs, b, out_bufs, out_descs));
    STEP("clEnqueueWriteBuffer", upload(queue, n_inputs, inputs, b, 0));
    STEP("clEnqueueWriteBuffer", upload(queue, n_outputs, outputs, b, n_inputs));
    /* A graph's scratch, when it needs one. */
    DML_BUFFER_BINDING temp_buf = {};
    DML_BINDING_DESC temp = {DML_BINDING_TYPE_NONE, nullptr};
    if (props.TemporaryResourceSize) {
        dmlcl_host_tensor scratch = {nullptr, props.TemporaryResourceSize};
        std::vector<DML_BUFFER_BINDING> bufs;
        std::vector<DML_BINDING_DESC> descs;
        scratch.data = &temp_buf; /* any non-NULL: bind_all allocates, nothing is uploaded */
        STEP("clCreateBuffer", bind_all(context, 1, &scratch, b, bufs, descs));
        temp_buf = bufs[0];
        temp = {DML_BINDING_TYPE_BUFFER, &temp_buf};
    }

    table_desc.Dispatchable = compiled;
    STEP("IDMLBindingTable::Reset", table->Reset(&table_desc));
    table->BindInputs(n_inputs, in_descs.data());
    table->BindOutputs(n_outputs, out_descs.data());
    if (props.TemporaryResourceSize)
        table->BindTemporaryResource(&temp);
    recorder->RecordDispatch(queue, compiled, table.Get());
    STEP("clFinish", clFinish(queue) == CL_SUCCESS ? S_OK : E_FAIL);
    STEP("Bind* or RecordDispatch (GetDeviceRemovedReason)", dml->GetDeviceRemovedReason());
    for (unsigned i = 0; i < n_outputs; ++i) {
        cl_mem m = b.mems[n_inputs + i];
        if (m && outputs[i].size &&
            clEnqueueReadBuffer(queue, m, CL_TRUE, 0, outputs[i].size, outputs[i].data, 0, nullptr,
                                nullptr) != CL_SUCCESS)
            STEP("clEnqueueReadBuffer", E_FAIL);
    }
    return S_OK;
}

extern "C" HRESULT rt_com_run(dmlcl_device *device, const DML_OPERATOR_DESC *desc,
                              unsigned n_inputs, const dmlcl_host_tensor *inputs,
                              unsigned n_outputs, const dmlcl_host_tensor *outputs,
                              const char **step)
{
    /* A DirectML device per case: a removal stays with its case. */
    ComPtr<IDMLDevice> dml;
    STEP("DMLCreateDevice",
         DMLCreateDevice(device, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&dml)));
    ComPtr<IDMLOperator> op;
    STEP("CreateOperator", dml->CreateOperator(desc, IID_PPV_ARGS(&op)));
    ComPtr<IDMLCompiledOperator> compiled;
    STEP("CreateOperator and CompileOperator",
         dml->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)));
    DMLCL_TRY_STEP(
        execute(dml.Get(), device, compiled.Get(), n_inputs, inputs, n_outputs, outputs, step));
    *step = "CreateOperator, CompileOperator and the dispatch";
    return S_OK;
}

extern "C" HRESULT rt_com_run_graph(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                                    const DML_OPERATOR_DESC *const *node_descs, unsigned n_inputs,
                                    const dmlcl_host_tensor *inputs, unsigned n_outputs,
                                    const dmlcl_host_tensor *outputs, const char **step)
{
    ComPtr<IDMLDevice> dml;
    STEP("DMLCreateDevice",
         DMLCreateDevice(device, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(&dml)));
    ComPtr<IDMLDevice1> dml1;
    STEP("QueryInterface(IDMLDevice1)", dml.As(&dml1));
    /* The same graph with DirectML operators in its nodes. */
    std::vector<ComPtr<IDMLOperator>> ops(desc->NodeCount);
    std::vector<DML_OPERATOR_GRAPH_NODE_DESC> op_nodes(desc->NodeCount);
    std::vector<DML_GRAPH_NODE_DESC> nodes(desc->Nodes, desc->Nodes + desc->NodeCount);
    for (UINT i = 0; i < desc->NodeCount; ++i) {
        STEP("CreateOperator", dml->CreateOperator(node_descs[i], IID_PPV_ARGS(&ops[i])));
        op_nodes[i] = *static_cast<const DML_OPERATOR_GRAPH_NODE_DESC *>(nodes[i].Desc);
        op_nodes[i].Operator = ops[i].Get();
        nodes[i].Desc = &op_nodes[i];
    }
    DML_GRAPH_DESC graph = *desc;
    graph.Nodes = nodes.data();
    ComPtr<IDMLCompiledOperator> compiled;
    STEP("CreateOperator and CompileGraph",
         dml1->CompileGraph(&graph, DML_EXECUTION_FLAG_NONE, IID_PPV_ARGS(&compiled)));
    DMLCL_TRY_STEP(
        execute(dml.Get(), device, compiled.Get(), n_inputs, inputs, n_outputs, outputs, step));
    *step = "CreateOperator, CompileGraph and the dispatch";
    return S_OK;
}
