/* SPDX-License-Identifier: MIT */
/*
 * DirectML's COM objects over the C runtime (internal). Every object is a
 * thin shell: validation, compile, bind and dispatch are the C runtime's.
 *
 * The layer is built without the C++ runtime (no exceptions, no global
 * operator new, and no RTTI unless DMLCL_COM_RTTI), so libdmlcl does not
 * depend on libstdc++: objects come from malloc through a class-level
 * operator new, and pure virtual calls resolve to our own
 * __cxa_pure_virtual (object.cpp).
 */
#ifndef DMLI_COM_OBJECT_H
#define DMLI_COM_OBJECT_H

#include <DirectML.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "enums.h"
#include "errors.h"

namespace dmli_com
{

/* Allocation through malloc: no dependency on libstdc++'s operator new. */
struct heap {
    static void *operator new(size_t size) noexcept
    {
        return malloc(size);
    }
    static void operator delete(void *p)
    {
        free(p);
    }
};

/*
 * An enum a caller passes, as the integer it holds (see enums.h): copied
 * out of its storage, never loaded as the enum, so any value can be
 * range-checked. Only a value found in range is then converted back.
 */
template <class E> UINT raw(const E &e)
{
    static_assert(sizeof(E) == sizeof(UINT), "DirectML's enums are 32-bit");
    UINT v;
    memcpy(&v, &e, sizeof v);
    return v;
}

/* ---- Private data (IDMLObject::GetPrivateData and friends) ------------------ */

/* D3D12's rules: one entry per GUID, bytes or an interface (held with a reference). */
class private_data
{
  public:
    private_data() = default;
    private_data(const private_data &) = delete;
    private_data &operator=(const private_data &) = delete;
    ~private_data();
    HRESULT get(REFGUID guid, UINT *size, void *data);
    HRESULT set(REFGUID guid, UINT size, const void *data);
    HRESULT set_interface(REFGUID guid, IUnknown *data);
    HRESULT set_name(PCWSTR name);

    struct entry;

  private:
    entry *find(REFGUID guid);
    HRESULT put(REFGUID guid, UINT size, const void *bytes, IUnknown *iface);
    entry *unlink(REFGUID guid);
    entry *head_ = nullptr;
    pthread_mutex_t lock_ = PTHREAD_MUTEX_INITIALIZER;
};

/* ---- Finding our object behind an interface pointer ------------------------------ */

enum class kind { device, op, compiled, initializer, binding_table, recorder };

/*
 * What every dmlcl object shares. QueryInterface answers impl_iid (a dmlcl
 * GUID no DirectML interface uses) with this base, without a reference, so
 * an interface pointer an application passes in is checked to be ours
 * before it is used.
 */
struct impl {
    kind what;
    IUnknown *self; /* the object's identity, for AddRef and Release */
    impl(kind k, IUnknown *unknown) : what(k), self(unknown) {}
};
/* {d1c8a0e2-6b0f-4c55-9d1a-6d6c636c0001}: dmlcl's own, answered only by dmlcl objects. */
inline constexpr GUID impl_iid = {
    0xd1c8a0e2, 0x6b0f, 0x4c55, {0x9d, 0x1a, 0x6d, 0x6c, 0x63, 0x6c, 0x00, 0x01}};

/* The object behind p when it is a dmlcl object of kind k, else nullptr. */
impl *impl_of(IUnknown *p, kind k);

class device;

/* ---- IUnknown and IDMLObject for one interface chain -------------------------- */

template <class Iface> class object : public Iface, public impl, public heap
{
  public:
    explicit object(kind k) : impl(k, static_cast<Iface *>(this)) {}
    object(const object &) = delete;
    object &operator=(const object &) = delete;
    virtual ~object() = default;

    ULONG STDMETHODCALLTYPE AddRef() override
    {
        return __atomic_add_fetch(&refs_, 1, __ATOMIC_RELAXED);
    }
    ULONG STDMETHODCALLTYPE Release() override
    {
        ULONG left = __atomic_sub_fetch(&refs_, 1, __ATOMIC_ACQ_REL);
        if (left == 0)
            delete this;
        return left;
    }
    HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT *size, void *data) override
    {
        return data_.get(guid, size, data);
    }
    HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void *data) override
    {
        return data_.set(guid, size, data);
    }
    HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, IUnknown *data) override
    {
        return data_.set_interface(guid, data);
    }
    HRESULT STDMETHODCALLTYPE SetName(PCWSTR name) override
    {
        return data_.set_name(name);
    }

  protected:
    /*
     * QueryInterface over the chain Iface derives along: Chain... are the
     * interfaces (IUnknown first) that this object answers with itself.
     */
    template <class... Chain> HRESULT query(REFIID riid, void **ppv)
    {
        if (!ppv)
            return dmli_fail(E_POINTER, "QueryInterface: ppvObject (NULL) is required");
        *ppv = nullptr;
        if (riid == impl_iid) {
            *ppv = static_cast<impl *>(this);
            return S_OK;
        }
        bool match = ((riid == __uuidof(Chain)) || ...);
        if (!match)
            return E_NOINTERFACE;
        *ppv = static_cast<Iface *>(this);
        AddRef();
        return S_OK;
    }

  private:
    ULONG refs_ = 1;
    private_data data_;
};

/* IDMLDeviceChild: holds a reference on its device for its whole life. */
template <class Iface> class child : public object<Iface>
{
  public:
    child(kind k, device *dev);
    ~child() override;
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void **ppv) override;
    device *dev() const
    {
        return dev_;
    }

  private:
    device *dev_;
};

/*
 * Creates T and hands out the interface riid asks for (or, with ppv NULL,
 * S_FALSE after a successful creation, as D3D12 does for optional outputs).
 */
template <class T> HRESULT hand_out(T *obj, REFIID riid, void **ppv)
{
    if (!ppv) {
        obj->Release();
        return S_FALSE;
    }
    HRESULT hr = obj->QueryInterface(riid, ppv);
    obj->Release();
    if (hr == E_NOINTERFACE)
        dmli_fail(E_NOINTERFACE, "the object does not implement the interface riid names");
    return hr;
}

} // namespace dmli_com

#endif /* DMLI_COM_OBJECT_H */
