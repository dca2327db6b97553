// SPDX-License-Identifier: MIT
/*
 * A DirectML program on dmlcl: GATHER of DirectML's documentation (example
 * 2: rows 0, 1, 1, 2 of a 3x2 tensor). Every DirectML call is as written for
 * Windows; only the blocks under "D3D12 -> OpenCL" differ: the device is a
 * dmlcl_device, buffers are cl_mem, the command list is a cl_command_queue.
 * docs/porting.md quotes this file (a test keeps the two in step).
 */
#include <DirectML.h>
#include <wsl/wrladapter.h>

#include <dmlcl/dmlcl.h>

#include <cstdio>
#include <cstdlib>

using Microsoft::WRL::ComPtr;

/*
 * DirectML programs take this helper from DirectMLX.h (or write their own,
 * as Microsoft's HelloDirectML sample does); dmlcl has it under its own name.
 */
static UINT64 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE dataType, UINT dimensionCount,
                                      const UINT *sizes, const UINT *strides)
{
    return dmlcl_calc_buffer_tensor_size(dataType, dimensionCount, sizes, strides);
}

static void Check(HRESULT hr, const char *what)
{
    if (FAILED(hr)) {
        std::fprintf(stderr, "%s failed: %s: %s\n", what, dmlcl_hresult_name(hr),
                     dmlcl_last_error());
        std::exit(1);
    }
}

int main()
{
    // D3D12 -> OpenCL: the device, its context and queue (the command list).
    dmlcl_device *d3d12Device = nullptr;
    Check(dmlcl_device_create(&d3d12Device), "dmlcl_device_create");
    cl_context context = dmlcl_device_context(d3d12Device);
    cl_command_queue commandList = dmlcl_device_queue(d3d12Device);

    const float inputData[6] = {1, 2, 3, 4, 5, 6};
    const UINT indicesData[4] = {0, 1, 1, 2};
    float outputData[8] = {};
    {
        DML_CREATE_DEVICE_FLAGS dmlCreateDeviceFlags = DML_CREATE_DEVICE_FLAG_NONE;
        ComPtr<IDMLDevice> dmlDevice;
        Check(DMLCreateDevice(d3d12Device, dmlCreateDeviceFlags, IID_PPV_ARGS(&dmlDevice)),
              "DMLCreateDevice");

        UINT inputSizes[2] = {3, 2}, indicesSizes[2] = {1, 4}, outputSizes[2] = {4, 2};
        DML_BUFFER_TENSOR_DESC inputBuffer = {
            DML_TENSOR_DATA_TYPE_FLOAT32,
            DML_TENSOR_FLAG_NONE,
            2,
            inputSizes,
            nullptr,
            DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, inputSizes, nullptr),
            0};
        DML_BUFFER_TENSOR_DESC indicesBuffer = {
            DML_TENSOR_DATA_TYPE_UINT32,
            DML_TENSOR_FLAG_NONE,
            2,
            indicesSizes,
            nullptr,
            DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT32, 2, indicesSizes, nullptr),
            0};
        DML_BUFFER_TENSOR_DESC outputBuffer = {
            DML_TENSOR_DATA_TYPE_FLOAT32,
            DML_TENSOR_FLAG_NONE,
            2,
            outputSizes,
            nullptr,
            DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, outputSizes, nullptr),
            0};
        DML_TENSOR_DESC inputTensor = {DML_TENSOR_TYPE_BUFFER, &inputBuffer};
        DML_TENSOR_DESC indicesTensor = {DML_TENSOR_TYPE_BUFFER, &indicesBuffer};
        DML_TENSOR_DESC outputTensor = {DML_TENSOR_TYPE_BUFFER, &outputBuffer};
        DML_GATHER_OPERATOR_DESC gatherDesc = {&inputTensor, &indicesTensor, &outputTensor,
                                               /*Axis*/ 0, /*IndexDimensions*/ 1};
        DML_OPERATOR_DESC opDesc = {DML_OPERATOR_GATHER, &gatherDesc};

        ComPtr<IDMLOperator> dmlOperator;
        Check(dmlDevice->CreateOperator(&opDesc, IID_PPV_ARGS(&dmlOperator)), "CreateOperator");
        DML_EXECUTION_FLAGS executionFlags = DML_EXECUTION_FLAG_NONE;
        executionFlags |= DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
        ComPtr<IDMLCompiledOperator> compiledOperator;
        Check(dmlDevice->CompileOperator(dmlOperator.Get(), executionFlags,
                                         IID_PPV_ARGS(&compiledOperator)),
              "CompileOperator");

        IDMLCompiledOperator *operators[] = {compiledOperator.Get()};
        ComPtr<IDMLOperatorInitializer> initializer;
        Check(dmlDevice->CreateOperatorInitializer(1, operators, IID_PPV_ARGS(&initializer)),
              "CreateOperatorInitializer");
        UINT descriptorCount = compiledOperator->GetBindingProperties().RequiredDescriptorCount;
        if (initializer->GetBindingProperties().RequiredDescriptorCount > descriptorCount)
            descriptorCount = initializer->GetBindingProperties().RequiredDescriptorCount;

        DML_BINDING_TABLE_DESC tableDesc = {initializer.Get(), {}, {}, descriptorCount};
        ComPtr<IDMLBindingTable> bindingTable;
        Check(dmlDevice->CreateBindingTable(&tableDesc, IID_PPV_ARGS(&bindingTable)),
              "CreateBindingTable");
        ComPtr<IDMLCommandRecorder> commandRecorder;
        Check(dmlDevice->CreateCommandRecorder(IID_PPV_ARGS(&commandRecorder)),
              "CreateCommandRecorder");
        commandRecorder->RecordDispatch(commandList, initializer.Get(), bindingTable.Get());

        // D3D12 -> OpenCL: buffers.
        cl_int err;
        cl_mem inputResource = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                              sizeof inputData, (void *)inputData, &err);
        cl_mem indicesResource = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                                sizeof indicesData, (void *)indicesData, &err);
        cl_mem outputResource =
            clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof outputData, nullptr, &err);

        tableDesc.Dispatchable = compiledOperator.Get();
        Check(bindingTable->Reset(&tableDesc), "IDMLBindingTable::Reset");
        DML_BUFFER_BINDING inputBindings[2] = {
            {inputResource, 0, inputBuffer.TotalTensorSizeInBytes},
            {indicesResource, 0, indicesBuffer.TotalTensorSizeInBytes}};
        DML_BINDING_DESC inputDescs[2] = {{DML_BINDING_TYPE_BUFFER, &inputBindings[0]},
                                          {DML_BINDING_TYPE_BUFFER, &inputBindings[1]}};
        bindingTable->BindInputs(2, inputDescs);
        DML_BUFFER_BINDING outputBinding = {outputResource, 0, outputBuffer.TotalTensorSizeInBytes};
        DML_BINDING_DESC outputDesc = {DML_BINDING_TYPE_BUFFER, &outputBinding};
        bindingTable->BindOutputs(1, &outputDesc);
        commandRecorder->RecordDispatch(commandList, compiledOperator.Get(), bindingTable.Get());
        Check(dmlDevice->GetDeviceRemovedReason(), "GetDeviceRemovedReason");

        // D3D12 -> OpenCL: execute, wait, read back.
        clEnqueueReadBuffer(commandList, outputResource, CL_TRUE, 0, sizeof outputData, outputData,
                            0, nullptr, nullptr);
        clReleaseMemObject(inputResource);
        clReleaseMemObject(indicesResource);
        clReleaseMemObject(outputResource);
    }
    dmlcl_device_release(d3d12Device);

    /* DirectML's documented output: rows 0, 1, 1, 2. */
    const float expected[8] = {1, 2, 3, 4, 3, 4, 5, 6};
    int bad = 0;
    for (int i = 0; i < 8; ++i) {
        std::printf("%g%s", outputData[i], i % 2 ? "\n" : " ");
        bad += outputData[i] != expected[i];
    }
    return bad ? 1 : 0;
}
