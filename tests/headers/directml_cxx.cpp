// SPDX-License-Identifier: MIT
/*
 * <DirectML.h> alone, as a DirectML program includes it (compiled with
 * -Wall -Wextra -Wundef -Werror): the interfaces' IIDs against DirectML's
 * GUID strings, their bases, the vtable slot of every method (DirectML's
 * declaration order), the flag operators, and ComPtr / IID_PPV_ARGS from
 * DirectX-Headers' wrladapter.h on a minimal object.
 */
#include <DirectML.h>

#include <wsl/wrladapter.h>

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "checks.h"

namespace
{

/* "c8263aac-9e0c-4a2d-9b8e-007521a3317c" -> GUID, independently of __uuidof. */
GUID parse_guid(const char *text)
{
    unsigned v[11];
    GUID g{};
    if (std::sscanf(text, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &v[0], &v[1], &v[2], &v[3],
                    &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 11)
        return g;
    g.Data1 = v[0];
    g.Data2 = static_cast<uint16_t>(v[1]);
    g.Data3 = static_cast<uint16_t>(v[2]);
    for (int i = 0; i < 8; ++i)
        g.Data4[i] = static_cast<uint8_t>(v[3 + i]);
    return g;
}

bool same_guid(const GUID &iid, const char *text)
{
    const GUID expected = parse_guid(text);
    return std::memcmp(&iid, &expected, sizeof(GUID)) == 0;
}

#define CHECK_IID(I, text) CHECK(same_guid(__uuidof(I), text), "IID of " #I)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* Itanium C++ ABI: a pointer to a virtual member holds 1 + its vtable offset. */
template <typename F> long slot(F f)
{
    static_assert(sizeof(F) == 2 * sizeof(long), "Itanium member pointer");
    long raw;
    std::memcpy(&raw, &f, sizeof raw);
    return (raw & 1) ? (raw - 1) / static_cast<long>(sizeof(void *)) : -1;
}
#define CHECK_SLOT(member, n) CHECK(slot(&member) == (n), "vtable slot of " #member)
#else
#define CHECK_SLOT(member, n) ((void)0)
#endif

/* The least a DirectML object implements: enough for ComPtr to hold it. */
struct TestOperator final : IDMLOperator {
    ULONG refs = 1;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        if (riid == __uuidof(IUnknown) || riid == __uuidof(IDMLObject) ||
            riid == __uuidof(IDMLDeviceChild) || riid == __uuidof(IDMLOperator)) {
            AddRef();
            *ppv = static_cast<IDMLOperator *>(this);
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
        return --refs;
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
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID, void **ppv) override
    {
        *ppv = nullptr;
        return E_NOTIMPL;
    }
};

void check_iids()
{
    CHECK_IID(IDMLObject, "c8263aac-9e0c-4a2d-9b8e-007521a3317c");
    CHECK_IID(IDMLDevice, "6dbd6437-96fd-423f-a98c-ae5e7c2a573f");
    CHECK_IID(IDMLDeviceChild, "27e83142-8165-49e3-974e-2fd66e4cb69d");
    CHECK_IID(IDMLPageable, "b1ab0825-4542-4a4b-8617-6dde6e8f6201");
    CHECK_IID(IDMLOperator, "26caae7a-3081-4633-9581-226fbe57695d");
    CHECK_IID(IDMLDispatchable, "dcb821a8-1039-441e-9f1c-b1759c2f3cec");
    CHECK_IID(IDMLCompiledOperator, "6b15e56a-bf5c-4902-92d8-da3a650afea4");
    CHECK_IID(IDMLOperatorInitializer, "427c1113-435c-469c-8676-4d5dd072f813");
    CHECK_IID(IDMLBindingTable, "29c687dc-de74-4e3b-ab00-1168f2fc3cfc");
    CHECK_IID(IDMLCommandRecorder, "e6857a76-2e3e-4fdd-bff4-5d2ba10fb453");
    CHECK_IID(IDMLDebugDevice, "7d6f3ac9-394a-4ac3-92a7-390cc57a8217");
    CHECK_IID(IDMLDevice1, "a0884f9a-d2be-4355-aa5d-5901281ad1d2");
    CHECK_IID(IUnknown, "00000000-0000-0000-c000-000000000046");
}

template <typename Base, typename Derived> constexpr bool derives()
{
    return std::is_base_of<Base, Derived>::value;
}

void check_hierarchy()
{
    static_assert(derives<IUnknown, IDMLObject>(), "");
    static_assert(derives<IDMLObject, IDMLDevice>(), "");
    static_assert(derives<IDMLDevice, IDMLDevice1>(), "");
    static_assert(derives<IDMLObject, IDMLDeviceChild>(), "");
    static_assert(derives<IDMLDeviceChild, IDMLPageable>(), "");
    static_assert(derives<IDMLDeviceChild, IDMLOperator>(), "");
    static_assert(!derives<IDMLPageable, IDMLOperator>(), "IDMLOperator is not pageable");
    static_assert(derives<IDMLPageable, IDMLDispatchable>(), "");
    static_assert(derives<IDMLDispatchable, IDMLCompiledOperator>(), "");
    static_assert(derives<IDMLDispatchable, IDMLOperatorInitializer>(), "");
    static_assert(derives<IDMLDeviceChild, IDMLBindingTable>(), "");
    static_assert(derives<IDMLDeviceChild, IDMLCommandRecorder>(), "");
    static_assert(derives<IUnknown, IDMLDebugDevice>(), "");
    static_assert(!derives<IDMLObject, IDMLDebugDevice>(), "IDMLDebugDevice is a bare IUnknown");
    static_assert(std::is_abstract<IDMLCompiledOperator>::value, "");
}

void check_slots()
{
    CHECK_SLOT(IDMLObject::GetPrivateData, 3);
    CHECK_SLOT(IDMLObject::SetPrivateData, 4);
    CHECK_SLOT(IDMLObject::SetPrivateDataInterface, 5);
    CHECK_SLOT(IDMLObject::SetName, 6);
    CHECK_SLOT(IDMLDevice::CheckFeatureSupport, 7);
    CHECK_SLOT(IDMLDevice::CreateOperator, 8);
    CHECK_SLOT(IDMLDevice::CompileOperator, 9);
    CHECK_SLOT(IDMLDevice::CreateOperatorInitializer, 10);
    CHECK_SLOT(IDMLDevice::CreateCommandRecorder, 11);
    CHECK_SLOT(IDMLDevice::CreateBindingTable, 12);
    CHECK_SLOT(IDMLDevice::Evict, 13);
    CHECK_SLOT(IDMLDevice::MakeResident, 14);
    CHECK_SLOT(IDMLDevice::GetDeviceRemovedReason, 15);
    CHECK_SLOT(IDMLDevice::GetParentDevice, 16);
    CHECK_SLOT(IDMLDevice1::CompileGraph, 17);
    CHECK_SLOT(IDMLDeviceChild::GetDevice, 7);
    CHECK_SLOT(IDMLDispatchable::GetBindingProperties, 8);
    CHECK_SLOT(IDMLOperatorInitializer::Reset, 9);
    CHECK_SLOT(IDMLBindingTable::BindInputs, 8);
    CHECK_SLOT(IDMLBindingTable::BindOutputs, 9);
    CHECK_SLOT(IDMLBindingTable::BindTemporaryResource, 10);
    CHECK_SLOT(IDMLBindingTable::BindPersistentResource, 11);
    CHECK_SLOT(IDMLBindingTable::Reset, 12);
    CHECK_SLOT(IDMLCommandRecorder::RecordDispatch, 8);
    CHECK_SLOT(IDMLDebugDevice::SetMuteDebugOutput, 3);
}

void check_signatures()
{
    static_assert(
        std::is_same<decltype(&DMLCreateDevice),
                     HRESULT (*)(ID3D12Device *, DML_CREATE_DEVICE_FLAGS, REFIID, void **)>::value,
        "DMLCreateDevice");
    static_assert(std::is_same<decltype(&DMLCreateDevice1),
                               HRESULT (*)(ID3D12Device *, DML_CREATE_DEVICE_FLAGS,
                                           DML_FEATURE_LEVEL, REFIID, void **)>::value,
                  "DMLCreateDevice1");
    static_assert(std::is_same<decltype(std::declval<IDMLDispatchable &>().GetBindingProperties()),
                               DML_BINDING_PROPERTIES>::value,
                  "GetBindingProperties returns the struct");
    static_assert(DML_TARGET_VERSION == 0x6400, "latest when no Windows target is set");
}

void check_flag_operators()
{
    DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE;
    flags |= DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION;
    flags |= DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
    CHECK(flags == 0x5, "DML_EXECUTION_FLAGS |=");
    flags &= ~DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION;
    CHECK(flags == DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE, "DML_EXECUTION_FLAGS &= ~");
    flags ^= DML_EXECUTION_FLAG_DISABLE_META_COMMANDS;
    CHECK(flags == 0x6, "DML_EXECUTION_FLAGS ^=");
    constexpr DML_TENSOR_FLAGS owned = DML_TENSOR_FLAG_NONE | DML_TENSOR_FLAG_OWNED_BY_DML;
    static_assert(owned == DML_TENSOR_FLAG_OWNED_BY_DML, "constexpr |");
    DML_TENSOR_FLAGS tf = DML_TENSOR_FLAG_NONE;
    tf |= DML_TENSOR_FLAG_OWNED_BY_DML;
    CHECK((tf & DML_TENSOR_FLAG_OWNED_BY_DML) == DML_TENSOR_FLAG_OWNED_BY_DML, "DML_TENSOR_FLAGS");
    DML_CREATE_DEVICE_FLAGS cf = DML_CREATE_DEVICE_FLAG_NONE;
    cf |= DML_CREATE_DEVICE_FLAG_DEBUG;
    CHECK(cf == DML_CREATE_DEVICE_FLAG_DEBUG, "DML_CREATE_DEVICE_FLAGS");
}

void check_com_pointers()
{
    TestOperator object;
    {
        Microsoft::WRL::ComPtr<IDMLOperator> op(&object);
        CHECK(object.refs == 2, "ComPtr takes a reference");
        Microsoft::WRL::ComPtr<IDMLDeviceChild> child;
        CHECK(SUCCEEDED(op.As(&child)) && child, "ComPtr::As along the hierarchy");
        Microsoft::WRL::ComPtr<IDMLObject> base;
        CHECK(SUCCEEDED(op->QueryInterface(IID_PPV_ARGS(&base))) && base, "IID_PPV_ARGS");
        Microsoft::WRL::ComPtr<IDMLCompiledOperator> other;
        CHECK(op.As(&other) == E_NOINTERFACE && !other, "E_NOINTERFACE for a foreign IID");
        IDMLDeviceChild *raw = nullptr;
        CHECK(SUCCEEDED(op->QueryInterface(&raw)) && raw, "IUnknown::QueryInterface<Q>");
        raw->Release();
    }
    CHECK(object.refs == 1, "every ComPtr released its reference");
}

} // namespace

int check_order_dmlcl_first();
int check_order_directml_first();

int main()
{
    check_iids();
    check_hierarchy();
    check_slots();
    check_signatures();
    check_flag_operators();
    check_com_pointers();
    checks_failed += check_order_dmlcl_first();
    checks_failed += check_order_directml_first();
    return checks_report("DirectML.h");
}
