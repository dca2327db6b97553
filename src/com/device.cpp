// SPDX-License-Identifier: MIT
/* IDMLDevice1 / IDMLDebugDevice, DMLCreateDevice and DMLCreateDevice1. */
#include <stdio.h>

#include "children.h"

namespace dmli_com
{

/* ID3D12Device's IID: GetParentDevice answers it with the dmlcl_device. */
static const GUID id3d12device_iid = {
    0x189819f1, 0x1db6, 0x4b57, {0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7}};

device::device(dmlcl_device *dev, UINT flags) : object(kind::device), dev_(dev), flags_(flags) {}

device::~device()
{
    dmlcl_device_release(dev_);
}

HRESULT STDMETHODCALLTYPE device::QueryInterface(REFIID riid, void **ppv)
{
    /* DirectML's debug layer is what implements IDMLDebugDevice. */
    if (ppv && riid == __uuidof(IDMLDebugDevice) && (flags_ & DML_CREATE_DEVICE_FLAG_DEBUG)) {
        *ppv = static_cast<IDMLDebugDevice *>(this);
        AddRef();
        return S_OK;
    }
    return query<IUnknown, IDMLObject, IDMLDevice, IDMLDevice1>(riid, ppv);
}

HRESULT device::report(HRESULT hr)
{
    if (FAILED(hr) && (flags_ & DML_CREATE_DEVICE_FLAG_DEBUG) &&
        !__atomic_load_n(&muted_, __ATOMIC_RELAXED))
        fprintf(stderr, "dmlcl (DirectML debug): %s: %s\n", dmlcl_hresult_name(hr),
                dmlcl_last_error());
    return hr;
}

void device::remove(HRESULT hr)
{
    HRESULT alive = S_OK;
    /* The first failure's message, written by its thread alone, then published. */
    if (__atomic_compare_exchange_n(&removed_, &alive, DXGI_ERROR_DEVICE_REMOVED, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        snprintf(removed_why_, sizeof removed_why_, "%s (%s)", dmlcl_last_error(),
                 dmlcl_hresult_name(hr));
        __atomic_store_n(&why_ready_, true, __ATOMIC_RELEASE);
    }
    report(hr);
}

const char *device::removed_why() const
{
    return __atomic_load_n(&why_ready_, __ATOMIC_ACQUIRE)
               ? removed_why_
               : "a failure on another thread (its message is being recorded)";
}

HRESULT device::check_alive()
{
    if (__atomic_load_n(&removed_, __ATOMIC_ACQUIRE) == S_OK)
        return S_OK;
    return report(dmli_fail(DXGI_ERROR_DEVICE_REMOVED,
                            "the DirectML device was removed by an earlier failure: %s",
                            removed_why()));
}

HRESULT STDMETHODCALLTYPE device::GetDeviceRemovedReason()
{
    HRESULT reason = __atomic_load_n(&removed_, __ATOMIC_ACQUIRE);
    /* The message again, for the thread that asks. */
    if (FAILED(reason))
        dmli_fail(reason, "the DirectML device was removed: %s", removed_why());
    return reason;
}

void STDMETHODCALLTYPE device::SetMuteDebugOutput(BOOL mute)
{
    __atomic_store_n(&muted_, mute, __ATOMIC_RELAXED);
}

/* The last DML_FEATURE value of this DML_TARGET_VERSION. */
#if DML_TARGET_VERSION >= 0x2000
static const UINT last_feature = DML_FEATURE_FEATURE_LEVELS;
#else
static const UINT last_feature = DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT;
#endif

HRESULT STDMETHODCALLTYPE device::CheckFeatureSupport(DML_FEATURE feature, UINT query_size,
                                                      const void *query, UINT data_size, void *data)
{
    UINT f = raw(feature);
    /* An unrecognised feature (one a newer header defines) is unsupported, not an invalid
     * argument (CheckFeatureSupport's page). */
    if (f > last_feature)
        return report(dmli_fail(DXGI_ERROR_UNSUPPORTED,
                                "CheckFeatureSupport: feature (%u) is not a DML_FEATURE dmlcl "
                                "knows (DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT 0 to %u)",
                                f, last_feature));
    return report(dmlcl_device_check_feature_support(dev_, static_cast<DML_FEATURE>(f), query_size,
                                                     query, data_size, data));
}

/* DML_EXECUTION_FLAGS as an integer: DirectML's three bits, or E_INVALIDARG. */
static HRESULT execution_flags(const char *call, const DML_EXECUTION_FLAGS &flags,
                               DML_EXECUTION_FLAGS *out)
{
    const UINT known = DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION |
                       DML_EXECUTION_FLAG_DISABLE_META_COMMANDS |
                       DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
    UINT f = raw(flags);
    DMLI_INVALID_IF(f & ~known,
                    "%s: flags (0x%x) has unknown bits; DML_EXECUTION_FLAGS are "
                    "ALLOW_HALF_PRECISION_COMPUTATION (0x1), DISABLE_META_COMMANDS (0x2) and "
                    "DESCRIPTORS_VOLATILE (0x4)",
                    call, f);
    *out = static_cast<DML_EXECUTION_FLAGS>(f);
    return S_OK;
}

HRESULT STDMETHODCALLTYPE device::CreateOperator(const DML_OPERATOR_DESC *desc, REFIID riid,
                                                 void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    dmlcl_operator *o;
    HRESULT hr = dmlcl_operator_create(dev_, desc, &o);
    if (FAILED(hr))
        return report(hr);
    op *obj = new op(this, o);
    if (!obj) {
        dmlcl_operator_release(o);
        return report(dmli_fail(E_OUTOFMEMORY, "CreateOperator: out of host memory"));
    }
    return report(hand_out(obj, riid, ppv));
}

HRESULT STDMETHODCALLTYPE device::CompileOperator(IDMLOperator *o, DML_EXECUTION_FLAGS flags,
                                                  REFIID riid, void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    DML_EXECUTION_FLAGS checked = DML_EXECUTION_FLAG_NONE;
    HRESULT hr = execution_flags("CompileOperator", flags, &checked);
    if (FAILED(hr))
        return report(hr);
    op *from = static_cast<op *>(impl_of(o, kind::op));
    if (!from || from->dev() != this)
        return report(dmli_fail(E_INVALIDARG,
                                "CompileOperator: op (%p) is not an IDMLOperator "
                                "created by this device",
                                static_cast<void *>(o)));
    dmlcl_compiled_operator *c;
    hr = dmlcl_operator_compile(from->cl(), checked, &c);
    if (FAILED(hr))
        return report(hr);
    compiled *obj = new compiled(this, c);
    if (!obj) {
        dmlcl_compiled_operator_release(c);
        return report(dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory"));
    }
    return report(hand_out(obj, riid, ppv));
}

HRESULT STDMETHODCALLTYPE device::CreateOperatorInitializer(UINT count,
                                                            IDMLCompiledOperator *const *ops,
                                                            REFIID riid, void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    initializer *obj = new initializer(this);
    if (!obj)
        return report(dmli_fail(E_OUTOFMEMORY, "CreateOperatorInitializer: out of host memory"));
    HRESULT hr = obj->Reset(count, ops);
    if (FAILED(hr)) {
        obj->Release();
        return hr; /* reported by Reset */
    }
    return report(hand_out(obj, riid, ppv));
}

HRESULT STDMETHODCALLTYPE device::CreateCommandRecorder(REFIID riid, void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    recorder *obj = new recorder(this);
    if (!obj)
        return report(dmli_fail(E_OUTOFMEMORY, "CreateCommandRecorder: out of host memory"));
    return report(hand_out(obj, riid, ppv));
}

HRESULT STDMETHODCALLTYPE device::CreateBindingTable(const DML_BINDING_TABLE_DESC *desc,
                                                     REFIID riid, void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    binding_table *obj = new binding_table(this);
    if (!obj)
        return report(dmli_fail(E_OUTOFMEMORY, "CreateBindingTable: out of host memory"));
    HRESULT hr = desc ? obj->Reset(desc) : S_OK;
    if (FAILED(hr)) {
        obj->Release();
        return hr; /* reported by Reset */
    }
    return report(hand_out(obj, riid, ppv));
}

/* OpenCL has no residency control: buffers are resident while they exist. */
static HRESULT check_pageables(const char *call, UINT count, IDMLPageable *const *objects)
{
    DMLI_INVALID_IF(count && !objects, "%s: ppObjects (NULL) is required for count %u", call,
                    count);
    for (UINT i = 0; i < count; ++i)
        DMLI_INVALID_IF(!objects[i], "%s: ppObjects[%u] (NULL) must be an IDMLPageable", call, i);
    return S_OK;
}

HRESULT STDMETHODCALLTYPE device::Evict(UINT count, IDMLPageable *const *objects)
{
    return report(check_pageables("Evict", count, objects));
}

HRESULT STDMETHODCALLTYPE device::MakeResident(UINT count, IDMLPageable *const *objects)
{
    return report(check_pageables("MakeResident", count, objects));
}

HRESULT STDMETHODCALLTYPE device::GetParentDevice(REFIID riid, void **ppv)
{
    if (!ppv)
        return report(dmli_fail(E_POINTER, "GetParentDevice: ppv (NULL) is required"));
    *ppv = nullptr;
    if (riid != id3d12device_iid)
        return report(dmli_fail(E_NOINTERFACE,
                                "GetParentDevice: the parent is a dmlcl_device (ID3D12Device); "
                                "riid names another interface"));
    /* Not a COM object: the caller releases it with dmlcl_device_release. */
    dmlcl_device_retain(dev_);
    *ppv = dev_;
    return S_OK;
}

/*
 * The C API takes each node's dmlcl_operator (cast to IDMLOperator*): a copy
 * of the nodes with every IDMLOperator of this device replaced by the
 * dmlcl_operator behind it; the rest of desc is the C API's to check (it
 * reads Type as an integer too). Nodes are copied as bytes: a Type outside
 * DML_GRAPH_NODE_TYPE is never loaded as the enum.
 */
static HRESULT c_nodes(device *dev, const DML_GRAPH_DESC *desc, DML_GRAPH_NODE_DESC *nodes,
                       DML_OPERATOR_GRAPH_NODE_DESC *ops)
{
    memcpy(nodes, desc->Nodes, desc->NodeCount * sizeof *nodes);
    for (UINT i = 0; i < desc->NodeCount; ++i) {
        if (raw(nodes[i].Type) != DML_GRAPH_NODE_TYPE_OPERATOR || !nodes[i].Desc)
            continue;
        ops[i] = *static_cast<const DML_OPERATOR_GRAPH_NODE_DESC *>(nodes[i].Desc);
        op *o = static_cast<op *>(impl_of(ops[i].Operator, kind::op));
        DMLI_INVALID_IF(!o || o->dev() != dev,
                        "CompileGraph: Nodes[%u].Operator (%p) is not an IDMLOperator created "
                        "by this device",
                        i, static_cast<void *>(ops[i].Operator));
        ops[i].Operator = reinterpret_cast<IDMLOperator *>(o->cl());
        nodes[i].Desc = &ops[i];
    }
    return S_OK;
}

HRESULT STDMETHODCALLTYPE device::CompileGraph(const DML_GRAPH_DESC *desc,
                                               DML_EXECUTION_FLAGS flags, REFIID riid, void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_TRY(check_alive());
    DML_EXECUTION_FLAGS checked = DML_EXECUTION_FLAG_NONE;
    HRESULT hr = execution_flags("CompileGraph", flags, &checked);
    if (FAILED(hr))
        return report(hr);
    if (!desc)
        return report(dmli_fail(E_INVALIDARG, "CompileGraph: desc (NULL) is required"));
    /* Before the copy below is sized by it (the C API checks it again, with the rest). */
    if (desc->NodeCount > DMLCL_GRAPH_NODE_COUNT_MAX)
        return report(dmli_fail(E_INVALIDARG,
                                "CompileGraph: NodeCount (%u) is more than "
                                "DMLCL_GRAPH_NODE_COUNT_MAX (%u), the most nodes dmlcl compiles "
                                "into one graph",
                                desc->NodeCount, DMLCL_GRAPH_NODE_COUNT_MAX));
    DML_GRAPH_DESC c_desc = *desc;
    DML_GRAPH_NODE_DESC *nodes = nullptr;
    DML_OPERATOR_GRAPH_NODE_DESC *ops = nullptr;
    if (desc->NodeCount && desc->Nodes) {
        nodes = static_cast<DML_GRAPH_NODE_DESC *>(calloc(desc->NodeCount, sizeof *nodes));
        ops = static_cast<DML_OPERATOR_GRAPH_NODE_DESC *>(calloc(desc->NodeCount, sizeof *ops));
        hr = nodes && ops ? c_nodes(this, desc, nodes, ops)
                          : dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
        c_desc.Nodes = nodes;
    }
    dmlcl_compiled_operator *c = nullptr;
    if (SUCCEEDED(hr))
        hr = dmlcl_graph_compile(dev_, &c_desc, checked, &c);
    free(nodes);
    free(ops);
    if (FAILED(hr))
        return report(hr);
    compiled *obj = new compiled(this, c);
    if (!obj) {
        dmlcl_compiled_operator_release(c);
        return report(dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory"));
    }
    return report(hand_out(obj, riid, ppv));
}

} // namespace dmli_com

using dmli_com::device;
using dmli_com::raw;

/* DMLCreateDevice and DMLCreateDevice1, with the enums as the integers they hold. */
static HRESULT create_device(ID3D12Device *d3d12Device, UINT flags, UINT level, REFIID riid,
                             void **ppv)
{
    if (ppv)
        *ppv = nullptr;
    DMLI_INVALID_IF(flags & ~(UINT)DML_CREATE_DEVICE_FLAG_DEBUG,
                    "DMLCreateDevice: flags (0x%x) has unknown bits; "
                    "DML_CREATE_DEVICE_FLAG_DEBUG (0x1) is the only flag",
                    flags);
    DMLI_INVALID_IF(!dmli_feature_level_defined(level) && !dmli_feature_level_later(level),
                    "DMLCreateDevice1: minimumFeatureLevel (0x%x) is not a DML_FEATURE_LEVEL "
                    "(DML_FEATURE_LEVEL_1_0 0x1000 to 6_4 0x6400, or a later 0xMm00)",
                    level);
    DMLI_UNSUPPORTED_IF(dmli_feature_level_later(level),
                        "DMLCreateDevice1: minimumFeatureLevel (0x%x) is above the feature "
                        "level dmlcl emulates (0x%x)",
                        level, (unsigned)DMLCL_FEATURE_LEVEL);
    dmlcl_device *dev = d3d12Device;
    if (dev) {
        /* Checked before it is kept: any pointer converts to ID3D12Device*. */
        DMLI_TRY(dmli_device_check(dev, "DMLCreateDevice"));
        dmlcl_device_retain(dev);
    } else
        DMLI_TRY(dmlcl_device_create(&dev));
    device *obj = new device(dev, flags);
    if (!obj) {
        dmlcl_device_release(dev);
        return dmli_fail(E_OUTOFMEMORY, "DMLCreateDevice: out of host memory");
    }
    return dmli_com::hand_out(obj, riid, ppv);
}

extern "C" DMLCL_API HRESULT DMLCreateDevice1(ID3D12Device *d3d12Device,
                                              DML_CREATE_DEVICE_FLAGS flags,
                                              DML_FEATURE_LEVEL minimumFeatureLevel, REFIID riid,
                                              void **ppv)
{
    return create_device(d3d12Device, raw(flags), raw(minimumFeatureLevel), riid, ppv);
}

extern "C" DMLCL_API HRESULT DMLCreateDevice(ID3D12Device *d3d12Device,
                                             DML_CREATE_DEVICE_FLAGS flags, REFIID riid, void **ppv)
{
    return create_device(d3d12Device, raw(flags), DML_FEATURE_LEVEL_1_0, riid, ppv);
}
