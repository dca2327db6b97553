/* SPDX-License-Identifier: MIT */
/* The DirectML device (IDMLDevice1, IDMLDebugDevice) over a dmlcl_device (internal). */
#ifndef DMLI_COM_DEVICE_H
#define DMLI_COM_DEVICE_H

#include "object.h"

namespace dmli_com
{

class device final : public object<IDMLDevice1>, public IDMLDebugDevice
{
  public:
    /* Takes over the caller's reference on dev; flags: DML_CREATE_DEVICE_FLAGS, checked. */
    device(dmlcl_device *dev, UINT flags);
    ~device() override;

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override;
    ULONG STDMETHODCALLTYPE AddRef() override
    {
        return object::AddRef();
    }
    ULONG STDMETHODCALLTYPE Release() override
    {
        return object::Release();
    }

    HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DML_FEATURE feature, UINT query_size,
                                                  const void *query, UINT data_size,
                                                  void *data) override;
    HRESULT STDMETHODCALLTYPE CreateOperator(const DML_OPERATOR_DESC *desc, REFIID riid,
                                             void **ppv) override;
    HRESULT STDMETHODCALLTYPE CompileOperator(IDMLOperator *op, DML_EXECUTION_FLAGS flags,
                                              REFIID riid, void **ppv) override;
    HRESULT STDMETHODCALLTYPE CreateOperatorInitializer(UINT count,
                                                        IDMLCompiledOperator *const *ops,
                                                        REFIID riid, void **ppv) override;
    HRESULT STDMETHODCALLTYPE CreateCommandRecorder(REFIID riid, void **ppv) override;
    HRESULT STDMETHODCALLTYPE CreateBindingTable(const DML_BINDING_TABLE_DESC *desc, REFIID riid,
                                                 void **ppv) override;
    HRESULT STDMETHODCALLTYPE Evict(UINT count, IDMLPageable *const *objects) override;
    HRESULT STDMETHODCALLTYPE MakeResident(UINT count, IDMLPageable *const *objects) override;
    HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() override;
    HRESULT STDMETHODCALLTYPE GetParentDevice(REFIID riid, void **ppv) override;
    HRESULT STDMETHODCALLTYPE CompileGraph(const DML_GRAPH_DESC *desc, DML_EXECUTION_FLAGS flags,
                                           REFIID riid, void **ppv) override;
    void STDMETHODCALLTYPE SetMuteDebugOutput(BOOL mute) override;

    dmlcl_device *cl() const
    {
        return dev_;
    }
    /*
     * A failure of a call that returns it: shown on the debug output (DEBUG
     * devices) and returned. The message is dmlcl_last_error()'s.
     */
    HRESULT report(HRESULT hr);
    /*
     * A failure of a void method (Bind*, RecordDispatch): DirectML removes
     * the device. Sticky: GetDeviceRemovedReason answers
     * DXGI_ERROR_DEVICE_REMOVED from now on, and creation methods fail.
     */
    void remove(HRESULT hr);
    /* S_OK, or DXGI_ERROR_DEVICE_REMOVED with a message, for creation methods. */
    HRESULT check_alive();
    bool removed() const
    {
        return __atomic_load_n(&removed_, __ATOMIC_ACQUIRE) != S_OK;
    }

  private:
    dmlcl_device *dev_;
    UINT flags_; /* DML_CREATE_DEVICE_FLAGS, as an integer */
    /* The first removal's message: written by the thread that removed the device, read
     * once why_ready_ says it is complete (other threads may be reading the state). */
    const char *removed_why() const;
    HRESULT removed_ = S_OK;
    char removed_why_[1024] = "";
    bool why_ready_ = false;
    BOOL muted_ = 0;
};

template <class Iface> child<Iface>::child(kind k, device *dev) : object<Iface>(k), dev_(dev)
{
    dev_->AddRef();
}

template <class Iface> child<Iface>::~child()
{
    dev_->Release();
}

template <class Iface> HRESULT STDMETHODCALLTYPE child<Iface>::GetDevice(REFIID riid, void **ppv)
{
    if (!ppv)
        return dmli_fail(E_POINTER, "GetDevice: ppv (NULL) is required");
    return dev_->QueryInterface(riid, ppv);
}

} // namespace dmli_com

#endif /* DMLI_COM_DEVICE_H */
