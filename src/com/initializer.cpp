// SPDX-License-Identifier: MIT
/* IDMLOperatorInitializer: the operators it targets (binding.cpp runs their initialization). */
#include "children.h"

namespace dmli_com
{

impl *dispatchable_of(IDMLDispatchable *d, const device *dev)
{
    if (impl *c = impl_of(d, kind::compiled))
        return static_cast<compiled *>(c)->dev() == dev ? c : nullptr;
    if (impl *i = impl_of(d, kind::initializer))
        return static_cast<initializer *>(i)->dev() == dev ? i : nullptr;
    return nullptr;
}

void initializer::clear()
{
    for (UINT i = 0; i < count_; ++i)
        ops_[i]->Release();
    free(ops_);
    ops_ = nullptr;
    count_ = 0;
}

initializer::~initializer()
{
    clear();
}

HRESULT STDMETHODCALLTYPE initializer::Reset(UINT count, IDMLCompiledOperator *const *ops)
{
    if (count && !ops)
        return dev()->report(
            dmli_fail(E_INVALIDARG,
                      "IDMLOperatorInitializer::Reset: operators (NULL) is required for "
                      "operatorCount %u",
                      count));
    compiled **list = count ? static_cast<compiled **>(calloc(count, sizeof(compiled *))) : nullptr;
    if (count && !list)
        return dev()->report(
            dmli_fail(E_OUTOFMEMORY, "IDMLOperatorInitializer::Reset: out of host memory"));
    for (UINT i = 0; i < count; ++i) {
        list[i] = static_cast<compiled *>(impl_of(ops[i], kind::compiled));
        if (!list[i] || list[i]->dev() != dev()) {
            free(list);
            return dev()->report(dmli_fail(E_INVALIDARG,
                                           "IDMLOperatorInitializer::Reset: operators[%u] (%p) "
                                           "is not an IDMLCompiledOperator of this device",
                                           i, static_cast<void *>(ops[i])));
        }
    }
    for (UINT i = 0; i < count; ++i)
        list[i]->AddRef();
    clear();
    ops_ = list;
    count_ = count;
    return S_OK;
}

DML_BINDING_PROPERTIES STDMETHODCALLTYPE initializer::GetBindingProperties()
{
    /* Its own persistent and temporary sizes are 0: copying the operators' owned inputs into
     * their persistent resources needs no scratch. */
    DML_BINDING_PROPERTIES props = {};
    props.RequiredDescriptorCount = 1;
    for (UINT i = 0; i < count_; ++i) {
        UINT n = dmlcl_compiled_operator_binding_properties(ops_[i]->cl()).RequiredDescriptorCount;
        if (n > props.RequiredDescriptorCount)
            props.RequiredDescriptorCount = n;
    }
    return props;
}

} // namespace dmli_com
