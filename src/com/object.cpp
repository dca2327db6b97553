// SPDX-License-Identifier: MIT
/* What every DirectML object shares: private data, identity checks. */
#include <string.h>
#include <wchar.h>

#include "object.h"

namespace dmli_com
{

/* WKPDID_D3DDebugObjectNameW: where D3D12's SetName keeps the name. */
static const GUID debug_name_guid = {
    0x4cca5fd8, 0x921f, 0x42c8, {0x85, 0x66, 0x70, 0xca, 0xf2, 0xa9, 0xb7, 0x41}};

impl *impl_of(IUnknown *p, kind k)
{
    void *v = nullptr;
    if (!p || FAILED(p->QueryInterface(impl_iid, &v)) || !v)
        return nullptr;
    impl *i = static_cast<impl *>(v);
    return i->what == k ? i : nullptr;
}

/* ---- Private data ------------------------------------------------------------------ */

struct private_data::entry {
    GUID guid;
    UINT size;
    IUnknown *iface; /* or bytes follow */
    entry *next;
    unsigned char *bytes()
    {
        return reinterpret_cast<unsigned char *>(this + 1);
    }
};

/* An interface's Release may run any destructor: never under the lock. */
static void drop(private_data::entry *e)
{
    if (e && e->iface)
        e->iface->Release();
    free(e);
}

private_data::~private_data()
{
    while (head_) {
        entry *e = head_;
        head_ = e->next;
        drop(e);
    }
    pthread_mutex_destroy(&lock_);
}

private_data::entry *private_data::find(REFGUID guid)
{
    for (entry *e = head_; e; e = e->next)
        if (e->guid == guid)
            return e;
    return nullptr;
}

/* Unlinks guid's entry and returns it (or nullptr), for drop() outside the lock. */
private_data::entry *private_data::unlink(REFGUID guid)
{
    for (entry **at = &head_; *at; at = &(*at)->next) {
        if ((*at)->guid != guid)
            continue;
        entry *e = *at;
        *at = e->next;
        return e;
    }
    return nullptr;
}

/* Replaces the entry for guid (removes it when there is nothing to keep). */
HRESULT private_data::put(REFGUID guid, UINT size, const void *bytes, IUnknown *iface)
{
    entry *e = nullptr;
    if (bytes || iface) {
        e = static_cast<entry *>(malloc(sizeof(entry) + (iface ? 0 : size)));
        if (!e)
            return dmli_fail(E_OUTOFMEMORY, "SetPrivateData: out of host memory (%u bytes)", size);
        e->guid = guid;
        e->size = iface ? (UINT)sizeof(IUnknown *) : size;
        e->iface = iface;
        if (iface)
            iface->AddRef();
        else
            memcpy(e->bytes(), bytes, size);
    }
    pthread_mutex_lock(&lock_);
    entry *old = unlink(guid);
    if (e) {
        e->next = head_;
        head_ = e;
    }
    pthread_mutex_unlock(&lock_);
    drop(old);
    return S_OK;
}

HRESULT private_data::get(REFGUID guid, UINT *size, void *data)
{
    if (!size)
        return dmli_fail(E_INVALIDARG, "GetPrivateData: dataSize (NULL) is required");
    pthread_mutex_lock(&lock_);
    entry *e = find(guid);
    HRESULT hr = S_OK;
    if (!e) {
        *size = 0;
        hr = DXGI_ERROR_NOT_FOUND;
    } else if (!data) {
        *size = e->size;
    } else if (*size < e->size) {
        hr = dmli_fail(DXGI_ERROR_MORE_DATA,
                       "GetPrivateData: *dataSize (%u) is smaller than the data (%u bytes)", *size,
                       e->size);
        *size = e->size;
    } else {
        *size = e->size;
        if (e->iface) {
            e->iface->AddRef();
            memcpy(data, &e->iface, sizeof(IUnknown *));
        } else {
            memcpy(data, e->bytes(), e->size);
        }
    }
    pthread_mutex_unlock(&lock_);
    return hr;
}

HRESULT private_data::set(REFGUID guid, UINT size, const void *data)
{
    /* D3D's rule: NULL data (which removes the entry) comes with size 0. */
    if (!data && size != 0)
        return dmli_fail(E_INVALIDARG, "SetPrivateData: dataSize (%u) must be 0 when data is NULL",
                         size);
    return put(guid, size, data, nullptr);
}

HRESULT private_data::set_interface(REFGUID guid, IUnknown *data)
{
    return put(guid, 0, nullptr, data);
}

HRESULT private_data::set_name(PCWSTR name)
{
    if (!name)
        return put(debug_name_guid, 0, nullptr, nullptr);
    size_t bytes = (wcslen(name) + 1) * sizeof *name;
    if (bytes > UINT32_MAX)
        return dmli_fail(E_INVALIDARG, "SetName: the name is too long (%zu bytes)", bytes);
    return put(debug_name_guid, (UINT)bytes, name, nullptr);
}

} // namespace dmli_com

/*
 * A pure virtual call is a bug in dmlcl (no object is ever used while an
 * abstract base is being built); the compiler still references this
 * handler from the interfaces' vtables. Defined here, weak, so that libdmlcl
 * needs no C++ runtime and yields to the C++ runtime's where one is linked.
 */
extern "C" __attribute__((weak)) void __cxa_pure_virtual(void)
{
    abort();
}
