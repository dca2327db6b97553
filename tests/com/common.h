/* SPDX-License-Identifier: MIT */
/*
 * What the DirectML API tests share: checks that count failures, and one
 * operator run written as a DirectML program writes it (create, compile,
 * initialize, bind, record, execute), with only the D3D12 parts replaced:
 * the device is a dmlcl_device, buffers are cl_mem, the command list is a
 * cl_command_queue.
 */
#ifndef DMLCL_TESTS_COM_COMMON_H
#define DMLCL_TESTS_COM_COMMON_H

#include <DirectML.h>
#include <wsl/wrladapter.h>

#include <dmlcl/dmlcl.h>

#include "ref.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using Microsoft::WRL::ComPtr;

static int g_failures;

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, __LINE__, \
                         #cond, dmlcl_last_error());                                              \
            ++g_failures;                                                                         \
        }                                                                                         \
    } while (0)

#define CHECK_HR(expr, want)                                                                       \
    do {                                                                                           \
        HRESULT got_ = (expr);                                                                     \
        if (got_ != (want)) {                                                                      \
            std::fprintf(stderr, "%s:%d: %s returned %s, expected %s; last error: %s\n", __FILE__, \
                         __LINE__, #expr, dmlcl_hresult_name(got_), dmlcl_hresult_name(want),      \
                         dmlcl_last_error());                                                      \
            ++g_failures;                                                                          \
        }                                                                                          \
    } while (0)

static int finish(const char *name)
{
    std::printf("%s: %s (%d failed checks)\n", name, g_failures ? "FAIL" : "PASS", g_failures);
    return g_failures ? 1 : 0;
}

/* A buffer tensor: its description and its bytes on the host. */
struct Tensor {
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    std::vector<UINT> sizes, strides;
    std::vector<unsigned char> bytes;

    Tensor(DML_TENSOR_DATA_TYPE type, std::vector<UINT> s, std::vector<UINT> st = {})
        : sizes(std::move(s)), strides(std::move(st))
    {
        buffer.DataType = type;
        buffer.Flags = DML_TENSOR_FLAG_NONE;
        buffer.DimensionCount = (UINT)sizes.size();
        buffer.Sizes = sizes.data();
        buffer.Strides = strides.empty() ? nullptr : strides.data();
        /* DirectML programs use DirectMLX's DMLCalcBufferTensorSize; the oracle's own here. */
        buffer.TotalTensorSizeInBytes =
            ref_buffer_bytes(type, buffer.DimensionCount, buffer.Sizes, buffer.Strides);
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
        bytes.assign((size_t)buffer.TotalTensorSizeInBytes, 0xA5); /* unwritten bytes show */
    }
    Tensor(const Tensor &) = delete;
    Tensor &operator=(const Tensor &) = delete;
};

static bool Owned(const Tensor *t)
{
    return t && (t->buffer.Flags & DML_TENSOR_FLAG_OWNED_BY_DML);
}

/*
 * Initializes and executes compiled on queue, inputs and outputs in binding
 * order (nullptr for an absent optional tensor); outputs' bytes are replaced
 * by what the device wrote. Inputs with DML_TENSOR_FLAG_OWNED_BY_DML go to
 * the initializer (one DML_BUFFER_ARRAY_BINDING, the persistent resource as
 * its output) and are overwritten after it ran: execution binds them as NONE
 * and must read DirectML's copy. Returns the first failure, or the device's
 * removed reason (void methods report through it).
 */
[[maybe_unused]] static HRESULT RunCompiled(IDMLDevice *device, cl_context context,
                                            cl_command_queue queue, IDMLCompiledOperator *compiled,
                                            const std::vector<Tensor *> &inputs,
                                            const std::vector<Tensor *> &outputs)
{
    ComPtr<IDMLOperatorInitializer> initializer;
    IDMLCompiledOperator *toInitialize[] = {compiled};
    HRESULT hr = device->CreateOperatorInitializer(1, toInitialize, IID_PPV_ARGS(&initializer));
    if (FAILED(hr))
        return hr;

    DML_BINDING_PROPERTIES initProps = initializer->GetBindingProperties();
    DML_BINDING_PROPERTIES execProps = compiled->GetBindingProperties();
    UINT descriptorCount =
        std::max(initProps.RequiredDescriptorCount, execProps.RequiredDescriptorCount);

    /* DirectML: a shader-visible descriptor heap of descriptorCount; dmlcl needs none. */
    DML_BINDING_TABLE_DESC tableDesc = {initializer.Get(), {}, {}, descriptorCount};
    ComPtr<IDMLBindingTable> table;
    hr = device->CreateBindingTable(&tableDesc, IID_PPV_ARGS(&table));
    if (FAILED(hr))
        return hr;
    ComPtr<IDMLCommandRecorder> recorder;
    hr = device->CreateCommandRecorder(IID_PPV_ARGS(&recorder));
    if (FAILED(hr))
        return hr;
    if (initProps.TemporaryResourceSize != 0 || initProps.PersistentResourceSize != 0)
        return E_UNEXPECTED; /* copying owned inputs needs no scratch */

    /* DirectML: ID3D12Resource buffers in a DEFAULT heap; here cl_mem. */
    std::vector<cl_mem> mems;
    std::vector<DML_BUFFER_BINDING> buffers(inputs.size() + outputs.size());
    std::vector<DML_BINDING_DESC> bindings(inputs.size() + outputs.size());
    std::vector<DML_BUFFER_BINDING> initBuffers(inputs.size());
    bool anyOwned = false;
    size_t k = 0;
    for (const std::vector<Tensor *> *list : {&inputs, &outputs}) {
        for (Tensor *t : *list) {
            if (!t) {
                bindings[k++] = {DML_BINDING_TYPE_NONE, nullptr};
                continue;
            }
            cl_int err;
            cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                        t->bytes.size(), t->bytes.data(), &err);
            if (err != CL_SUCCESS)
                return E_OUTOFMEMORY;
            mems.push_back(mem);
            buffers[k] = {mem, 0, t->bytes.size()};
            bindings[k] = {DML_BINDING_TYPE_BUFFER, &buffers[k]};
            if (Owned(t)) { /* given to the initializer, not to the execution */
                initBuffers[k] = buffers[k];
                bindings[k] = {DML_BINDING_TYPE_NONE, nullptr};
                anyOwned = true;
            }
            ++k;
        }
    }
    /* DirectML: a DEFAULT-heap resource of the size asked for, when one is asked for. */
    auto resource = [context](UINT64 size, DML_BUFFER_BINDING &buffer, DML_BINDING_DESC &binding) {
        cl_int err;
        cl_mem mem = size ? clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)size, nullptr, &err)
                          : nullptr;
        buffer = {mem, 0, size};
        binding = mem ? DML_BINDING_DESC{DML_BINDING_TYPE_BUFFER, &buffer}
                      : DML_BINDING_DESC{DML_BINDING_TYPE_NONE, nullptr};
        return mem;
    };
    DML_BUFFER_BINDING persistentBuffer, temporaryBuffer;
    DML_BINDING_DESC persistentBinding, temporaryBinding;
    cl_mem persistent =
        resource(execProps.PersistentResourceSize, persistentBuffer, persistentBinding);
    if (anyOwned) {
        DML_BUFFER_ARRAY_BINDING initArray = {(UINT)inputs.size(), initBuffers.data()};
        DML_BINDING_DESC initInputs = {DML_BINDING_TYPE_BUFFER_ARRAY, &initArray};
        table->BindInputs(1, &initInputs);
    }
    if (persistent)
        table->BindOutputs(1, &persistentBinding);
    recorder->RecordDispatch(queue, initializer.Get(), table.Get());
    /* The owned bytes are DirectML's now: the application may reuse its buffers. */
    for (size_t i = 0; i < inputs.size(); ++i) {
        unsigned char junk = 0xEE;
        if (initBuffers[i].Buffer)
            clEnqueueFillBuffer(queue, static_cast<cl_mem>(initBuffers[i].Buffer), &junk, 1, 0,
                                (size_t)initBuffers[i].SizeInBytes, 0, nullptr, nullptr);
    }
    cl_mem temporary = resource(execProps.TemporaryResourceSize, temporaryBuffer, temporaryBinding);

    tableDesc.Dispatchable = compiled;
    hr = table->Reset(&tableDesc);
    if (SUCCEEDED(hr)) {
        table->BindInputs((UINT)inputs.size(), bindings.data());
        table->BindOutputs((UINT)outputs.size(), bindings.data() + inputs.size());
        if (temporary)
            table->BindTemporaryResource(&temporaryBinding);
        if (persistent)
            table->BindPersistentResource(&persistentBinding);
        recorder->RecordDispatch(queue, compiled, table.Get());
        /* DirectML: Close, ExecuteCommandLists, a fence wait; here the queue drains. */
        clFinish(queue);
        hr = device->GetDeviceRemovedReason();
    }
    size_t m = mems.size() - outputs.size();
    for (Tensor *t : outputs) {
        if (SUCCEEDED(hr))
            clEnqueueReadBuffer(queue, mems[m], CL_TRUE, 0, t->bytes.size(), t->bytes.data(), 0,
                                nullptr, nullptr);
        ++m;
    }
    for (cl_mem mem : mems)
        clReleaseMemObject(mem);
    if (temporary)
        clReleaseMemObject(temporary);
    if (persistent)
        clReleaseMemObject(persistent);
    return hr;
}

/* CreateOperator, CompileOperator, then RunCompiled. */
[[maybe_unused]] static HRESULT RunOperator(IDMLDevice *device, cl_context context,
                                            cl_command_queue queue, const DML_OPERATOR_DESC &desc,
                                            const std::vector<Tensor *> &inputs,
                                            const std::vector<Tensor *> &outputs)
{
    ComPtr<IDMLOperator> op;
    HRESULT hr = device->CreateOperator(&desc, IID_PPV_ARGS(&op));
    if (FAILED(hr))
        return hr;
    DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE;
    flags |= DML_EXECUTION_FLAG_DISABLE_META_COMMANDS;
    ComPtr<IDMLCompiledOperator> compiled;
    hr = device->CompileOperator(op.Get(), flags, IID_PPV_ARGS(&compiled));
    if (FAILED(hr))
        return hr;
    return RunCompiled(device, context, queue, compiled.Get(), inputs, outputs);
}

#endif /* DMLCL_TESTS_COM_COMMON_H */
