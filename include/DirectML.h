/* SPDX-License-Identifier: MIT */
/*
 * <DirectML.h> from dmlcl: DirectML 1.15's C++ API (feature level 6.4) on
 * OpenCL.
 *
 * DirectML code compiles unchanged against it: the IDML* interfaces with
 * DirectML's IIDs and method order, DMLCreateDevice and DMLCreateDevice1,
 * and every type of dmlcl/directml.h. COM plumbing (IUnknown, GUID, REFIID,
 * __uuidof, IID_PPV_ARGS, the HRESULT macros) comes from DirectX-Headers'
 * wsl/winadapter.h, as for DirectML on Linux, so Microsoft::WRL::ComPtr from
 * wsl/wrladapter.h (or <wrl/client.h>) works with these interfaces.
 *
 * What changes for a port is where DirectML meets D3D12 (dmlcl/directml.h):
 * the ID3D12Device* given to DMLCreateDevice is a dmlcl_device* (NULL for
 * the default device), buffers (ID3D12Resource*) are cl_mem, and the command
 * list that RecordDispatch records into is a cl_command_queue: the dispatch
 * is enqueued on it, in order.
 *
 * C++ only, as DirectML's header. C code uses dmlcl/dmlcl.h.
 */
#ifndef DIRECTML_H
#define DIRECTML_H

#ifndef __cplusplus
#error "<DirectML.h> is C++ (as DirectML's); C code includes <dmlcl/dmlcl.h>"
#endif

/*
 * winadapter.h includes <unknwn.h> from DirectX-Headers' wsl/stubs folder,
 * which only its own include flags (pkg-config DirectX-Headers) put on the
 * path. The stubs are self-contained, so without those flags their path
 * under the system include folder is used instead.
 */
#if defined(_WIN32)
#include <windows.h>

#include <unknwn.h>
#elif defined(__has_include)
#if __has_include(<wsl/winadapter.h>) && __has_include(<unknwn.h>)
#include <wsl/winadapter.h>
#elif __has_include(<wsl/stubs/unknwn.h>)
#include <wsl/stubs/unknwn.h>
#else
#error "<DirectML.h> needs DirectX-Headers' wsl/winadapter.h (Debian: directx-headers-dev)"
#endif
#else
#include <wsl/winadapter.h>
#endif

#include "dmlcl/directml.h"

#ifndef DML_DECLARE_INTERFACE
#define DML_DECLARE_INTERFACE(iid) DECLSPEC_UUID(iid) DECLSPEC_NOVTABLE
#endif

#if defined(_WIN32) && defined(DMLCL_BUILDING)
#define DMLCL_COM_API __declspec(dllexport)
#elif defined(__GNUC__)
#define DMLCL_COM_API __attribute__((visibility("default")))
#else
#define DMLCL_COM_API
#endif

/* ---- Device creation ------------------------------------------------------------------ */

/*
 * d3d12Device: a dmlcl_device* from the C API (retained for the DirectML
 * device's lifetime), or NULL for the device DMLCL_PLATFORM / DMLCL_DEVICE
 * choose. riid: IDMLDevice or IDMLDevice1.
 */
extern "C" DMLCL_COM_API HRESULT DMLCreateDevice(ID3D12Device *d3d12Device,
                                                 DML_CREATE_DEVICE_FLAGS flags, REFIID riid,
                                                 void **ppv);

#if DML_TARGET_VERSION >= 0x2000
/* DXGI_ERROR_UNSUPPORTED when minimumFeatureLevel is above what dmlcl emulates. */
extern "C" DMLCL_COM_API HRESULT DMLCreateDevice1(ID3D12Device *d3d12Device,
                                                  DML_CREATE_DEVICE_FLAGS flags,
                                                  DML_FEATURE_LEVEL minimumFeatureLevel,
                                                  REFIID riid, void **ppv);
#endif

/* ---- Interfaces, in DirectML's method order ----------------------------------------- */

struct DML_DECLARE_INTERFACE("c8263aac-9e0c-4a2d-9b8e-007521a3317c") IDMLObject : IUnknown {
    virtual HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT *dataSize, void *data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT dataSize,
                                                     const void *data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, IUnknown *data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetName(PCWSTR name) = 0;
};

struct DML_DECLARE_INTERFACE("6dbd6437-96fd-423f-a98c-ae5e7c2a573f") IDMLDevice : IDMLObject {
    virtual HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DML_FEATURE feature,
                                                          UINT featureQueryDataSize,
                                                          const void *featureQueryData,
                                                          UINT featureSupportDataSize,
                                                          void *featureSupportData) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateOperator(const DML_OPERATOR_DESC *desc, REFIID riid,
                                                     void **ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CompileOperator(IDMLOperator *op, DML_EXECUTION_FLAGS flags,
                                                      REFIID riid, void **ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateOperatorInitializer(
        UINT operatorCount, IDMLCompiledOperator *const *operators, REFIID riid, void **ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateCommandRecorder(REFIID riid, void **ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateBindingTable(const DML_BINDING_TABLE_DESC *desc,
                                                         REFIID riid, void **ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE Evict(UINT count, IDMLPageable *const *ppObjects) = 0;
    virtual HRESULT STDMETHODCALLTYPE MakeResident(UINT count, IDMLPageable *const *ppObjects) = 0;
    virtual HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() = 0;
    virtual HRESULT STDMETHODCALLTYPE GetParentDevice(REFIID riid, void **ppv) = 0;
};

struct DML_DECLARE_INTERFACE("27e83142-8165-49e3-974e-2fd66e4cb69d") IDMLDeviceChild : IDMLObject {
    virtual HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void **ppv) = 0;
};

struct DML_DECLARE_INTERFACE("b1ab0825-4542-4a4b-8617-6dde6e8f6201") IDMLPageable
    : IDMLDeviceChild {
};

struct DML_DECLARE_INTERFACE("26caae7a-3081-4633-9581-226fbe57695d") IDMLOperator
    : IDMLDeviceChild {
};

/*
 * GetBindingProperties returns a struct by value: its ABI follows the
 * compiler's C++ ABI (Itanium on Linux), which dmlcl's implementation shares.
 */
struct DML_DECLARE_INTERFACE("dcb821a8-1039-441e-9f1c-b1759c2f3cec") IDMLDispatchable
    : IDMLPageable {
    virtual DML_BINDING_PROPERTIES STDMETHODCALLTYPE GetBindingProperties() = 0;
};

struct DML_DECLARE_INTERFACE("6b15e56a-bf5c-4902-92d8-da3a650afea4") IDMLCompiledOperator
    : IDMLDispatchable {
};

struct DML_DECLARE_INTERFACE("427c1113-435c-469c-8676-4d5dd072f813") IDMLOperatorInitializer
    : IDMLDispatchable {
    virtual HRESULT STDMETHODCALLTYPE Reset(UINT operatorCount,
                                            IDMLCompiledOperator *const *operators) = 0;
};

/* Bind* report misuse as DirectML does: through the device's removed reason. */
struct DML_DECLARE_INTERFACE("29c687dc-de74-4e3b-ab00-1168f2fc3cfc") IDMLBindingTable
    : IDMLDeviceChild {
    virtual void STDMETHODCALLTYPE BindInputs(UINT bindingCount,
                                              const DML_BINDING_DESC *bindings) = 0;
    virtual void STDMETHODCALLTYPE BindOutputs(UINT bindingCount,
                                               const DML_BINDING_DESC *bindings) = 0;
    virtual void STDMETHODCALLTYPE BindTemporaryResource(const DML_BINDING_DESC *binding) = 0;
    virtual void STDMETHODCALLTYPE BindPersistentResource(const DML_BINDING_DESC *binding) = 0;
    virtual HRESULT STDMETHODCALLTYPE Reset(const DML_BINDING_TABLE_DESC *desc) = 0;
};

/* commandList is a cl_command_queue: the dispatch is enqueued on it. */
struct DML_DECLARE_INTERFACE("e6857a76-2e3e-4fdd-bff4-5d2ba10fb453") IDMLCommandRecorder
    : IDMLDeviceChild {
    virtual void STDMETHODCALLTYPE RecordDispatch(ID3D12CommandList *commandList,
                                                  IDMLDispatchable *dispatchable,
                                                  IDMLBindingTable *bindings) = 0;
};

struct DML_DECLARE_INTERFACE("7d6f3ac9-394a-4ac3-92a7-390cc57a8217") IDMLDebugDevice : IUnknown {
    virtual void STDMETHODCALLTYPE SetMuteDebugOutput(BOOL mute) = 0;
};

#if DML_TARGET_VERSION >= 0x2100
struct DML_DECLARE_INTERFACE("a0884f9a-d2be-4355-aa5d-5901281ad1d2") IDMLDevice1 : IDMLDevice {
    virtual HRESULT STDMETHODCALLTYPE CompileGraph(const DML_GRAPH_DESC *desc,
                                                   DML_EXECUTION_FLAGS flags, REFIID riid,
                                                   void **ppv) = 0;
};
#endif

/* ---- IIDs for __uuidof ------------------------------------------------------------------ */

/*
 * MSVC reads them from DML_DECLARE_INTERFACE; winadapter's __uuidof reads
 * them from these specialisations (its __CRT_UUID_DECL). The same numbers
 * as the strings above.
 */
#ifdef __CRT_UUID_DECL
__CRT_UUID_DECL(IDMLObject, 0xc8263aac, 0x9e0c, 0x4a2d, 0x9b, 0x8e, 0x00, 0x75, 0x21, 0xa3, 0x31,
                0x7c)
__CRT_UUID_DECL(IDMLDevice, 0x6dbd6437, 0x96fd, 0x423f, 0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57,
                0x3f)
__CRT_UUID_DECL(IDMLDeviceChild, 0x27e83142, 0x8165, 0x49e3, 0x97, 0x4e, 0x2f, 0xd6, 0x6e, 0x4c,
                0xb6, 0x9d)
__CRT_UUID_DECL(IDMLPageable, 0xb1ab0825, 0x4542, 0x4a4b, 0x86, 0x17, 0x6d, 0xde, 0x6e, 0x8f, 0x62,
                0x01)
__CRT_UUID_DECL(IDMLOperator, 0x26caae7a, 0x3081, 0x4633, 0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69,
                0x5d)
__CRT_UUID_DECL(IDMLDispatchable, 0xdcb821a8, 0x1039, 0x441e, 0x9f, 0x1c, 0xb1, 0x75, 0x9c, 0x2f,
                0x3c, 0xec)
__CRT_UUID_DECL(IDMLCompiledOperator, 0x6b15e56a, 0xbf5c, 0x4902, 0x92, 0xd8, 0xda, 0x3a, 0x65,
                0x0a, 0xfe, 0xa4)
__CRT_UUID_DECL(IDMLOperatorInitializer, 0x427c1113, 0x435c, 0x469c, 0x86, 0x76, 0x4d, 0x5d, 0xd0,
                0x72, 0xf8, 0x13)
__CRT_UUID_DECL(IDMLBindingTable, 0x29c687dc, 0xde74, 0x4e3b, 0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc,
                0x3c, 0xfc)
__CRT_UUID_DECL(IDMLCommandRecorder, 0xe6857a76, 0x2e3e, 0x4fdd, 0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f,
                0xb4, 0x53)
__CRT_UUID_DECL(IDMLDebugDevice, 0x7d6f3ac9, 0x394a, 0x4ac3, 0x92, 0xa7, 0x39, 0x0c, 0xc5, 0x7a,
                0x82, 0x17)
#if DML_TARGET_VERSION >= 0x2100
__CRT_UUID_DECL(IDMLDevice1, 0xa0884f9a, 0xd2be, 0x4355, 0xaa, 0x5d, 0x59, 0x01, 0x28, 0x1a, 0xd1,
                0xd2)
#endif
#endif /* __CRT_UUID_DECL */

#endif /* DIRECTML_H */
