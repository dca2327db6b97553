// SPDX-License-Identifier: MIT
/*
 * Microsoft's DirectMLX.h (not shipped with dmlcl: configure with
 * -DDMLCL_DIRECTMLX_DIR=<folder holding it>) against <DirectML.h>: a
 * dml::Graph of SLICE1, GATHER, IDENTITY with ScaleBias and GATHER_ND1,
 * compiled through IDMLDevice1::CompileGraph of a recording mock device, so
 * what DirectMLX hands DirectML is checked without an OpenCL device. The C
 * API's header comes first: DirectMLX's DMLCalcBufferTensorSize must still
 * be the one called.
 */
#include <DirectML.h>

#include <dmlcl/dmlcl.h>

#include "DirectMLX.h"

#include <vector>

#include "checks.h"

namespace
{

template <class I> struct Object : I {
    ULONG refs = 1;
    virtual ~Object() = default;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        if (riid == __uuidof(I) || riid == __uuidof(IUnknown)) {
            AddRef();
            *ppv = this;
            return S_OK;
        }
        *ppv = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override
    {
        return ++refs;
    }
    ULONG STDMETHODCALLTYPE Release() override
    {
        ULONG left = --refs;
        if (left == 0)
            delete this;
        return left;
    }
    HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID, UINT *, void *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID, UINT, const void *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID, IUnknown *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE SetName(PCWSTR) override
    {
        return E_NOTIMPL;
    }
};

struct MockOperator final : Object<IDMLOperator> {
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID, void **ppv) override
    {
        *ppv = nullptr;
        return E_NOTIMPL;
    }
};

struct MockCompiled final : Object<IDMLCompiledOperator> {
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID, void **ppv) override
    {
        *ppv = nullptr;
        return E_NOTIMPL;
    }
    DML_BINDING_PROPERTIES STDMETHODCALLTYPE GetBindingProperties() override
    {
        return DML_BINDING_PROPERTIES{1, 0, 0};
    }
};

/* Records the operator types and the graph DirectMLX produces. */
struct MockDevice final : Object<IDMLDevice1> {
    std::vector<DML_OPERATOR_TYPE> created;
    DML_GRAPH_DESC graph{};
    DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE;

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        if (riid == __uuidof(IDMLDevice)) {
            AddRef();
            *ppv = static_cast<IDMLDevice *>(this);
            return S_OK;
        }
        return Object<IDMLDevice1>::QueryInterface(riid, ppv);
    }
    HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DML_FEATURE, UINT, const void *, UINT,
                                                  void *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE CreateOperator(const DML_OPERATOR_DESC *desc, REFIID riid,
                                             void **ppv) override
    {
        created.push_back(desc->Type);
        MockOperator *op = new MockOperator;
        HRESULT hr = op->QueryInterface(riid, ppv);
        op->Release();
        return hr;
    }
    HRESULT STDMETHODCALLTYPE CompileOperator(IDMLOperator *, DML_EXECUTION_FLAGS, REFIID,
                                              void **) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE CreateOperatorInitializer(UINT, IDMLCompiledOperator *const *, REFIID,
                                                        void **) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE CreateCommandRecorder(REFIID, void **) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE CreateBindingTable(const DML_BINDING_TABLE_DESC *, REFIID,
                                                 void **) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE Evict(UINT, IDMLPageable *const *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE MakeResident(UINT, IDMLPageable *const *) override
    {
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() override
    {
        return S_OK;
    }
    HRESULT STDMETHODCALLTYPE GetParentDevice(REFIID, void **ppv) override
    {
        *ppv = nullptr;
        return E_NOTIMPL;
    }
    HRESULT STDMETHODCALLTYPE CompileGraph(const DML_GRAPH_DESC *desc, DML_EXECUTION_FLAGS f,
                                           REFIID riid, void **ppv) override
    {
        graph = *desc;
        flags = f;
        MockCompiled *compiled = new MockCompiled;
        HRESULT hr = compiled->QueryInterface(riid, ppv);
        compiled->Release();
        return hr;
    }
};

} // namespace

int main()
{
    MockDevice device;
    {
        dml::Graph graph(&device);
        auto input =
            dml::InputTensor(graph, 0, dml::TensorDesc(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 4, 6}));
        auto indices =
            dml::InputTensor(graph, 1, dml::TensorDesc(DML_TENSOR_DATA_TYPE_INT32, {1, 1, 1, 3}));
        auto coords =
            dml::InputTensor(graph, 2, dml::TensorDesc(DML_TENSOR_DATA_TYPE_UINT32, {1, 1, 2, 2}));
        const uint32_t offsets[] = {0, 0, 1, 0};
        const uint32_t sizes[] = {1, 1, 2, 6};
        const int32_t strides[] = {1, 1, 1, -2};
        auto sliced = dml::Slice(input, offsets, sizes, strides);
        auto scaled = dml::Identity(dml::Gather(input, indices, 3, 1), DML_SCALE_BIAS{2.0f, 1.0f});
        auto gatheredNd = dml::GatherND(input, coords, 4, 2, 0);
        DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE;
        flags |= DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
        auto compiled = graph.Compile(flags, {sliced, scaled, gatheredNd});
        CHECK(compiled && compiled->GetBindingProperties().RequiredDescriptorCount == 1,
              "Compile returns the device's compiled operator");
        CHECK(sliced.GetOutputDesc().sizes == dml::TensorDimensions({1, 1, 2, 3}),
              "SLICE1 output sizes (window 6, stride -2: 3)");
        CHECK(gatheredNd.GetOutputDesc().sizes == dml::TensorDimensions({1, 2, 4, 6}),
              "GATHER_ND1 output sizes");
    }
    const std::vector<DML_OPERATOR_TYPE> expected = {DML_OPERATOR_SLICE1, DML_OPERATOR_GATHER,
                                                     DML_OPERATOR_ELEMENT_WISE_IDENTITY,
                                                     DML_OPERATOR_GATHER_ND1};
    CHECK(device.created == expected, "operators created in graph order");
    CHECK(device.graph.InputCount == 3 && device.graph.OutputCount == 3, "graph inputs/outputs");
    CHECK(device.graph.NodeCount == 4, "one node per operator");
    CHECK(device.graph.InputEdgeCount == 5, "input edges: slice 1, gather 2, gather_nd 2");
    CHECK(device.graph.IntermediateEdgeCount == 1, "gather -> identity");
    CHECK(device.graph.OutputEdgeCount == 3, "three outputs");
    CHECK(device.flags == DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE, "execution flags passed on");
    const UINT halfSizes[] = {2, 3};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT16, 2, halfSizes, nullptr) == 12,
          "DirectMLX's DMLCalcBufferTensorSize");
    /* dmlcl's sizes its BOOLEAN extension type; DirectMLX's knows no such type. */
    CHECK(DMLCalcBufferTensorSize(DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 2, halfSizes, nullptr) == 0,
          "DirectMLX's definition is chosen over dmlcl's template");
    CHECK(device.refs == 1, "DirectMLX released every device reference");
    return checks_report("DirectMLX.h");
}
