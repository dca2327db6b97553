// SPDX-License-Identifier: MIT
/*
 * IDMLBindingTable and IDMLCommandRecorder. Their void methods report
 * failures as DirectML does: the device is removed (GetDeviceRemovedReason)
 * and the message is left for dmlcl_last_error() and the debug output.
 */
#include "children.h"

namespace dmli_com
{

void binding_table::clear()
{
    if (table_)
        dmlcl_binding_table_release(table_);
    if (target_)
        target_->self->Release();
    table_ = nullptr;
    target_ = nullptr;
    kept_[0].bound = kept_[1].bound = temporary_.bound = false;
}

binding_table::~binding_table()
{
    clear();
}

HRESULT STDMETHODCALLTYPE binding_table::Reset(const DML_BINDING_TABLE_DESC *desc)
{
    if (!desc) {
        clear();
        return S_OK;
    }
    impl *d = dispatchable_of(desc->Dispatchable, dev());
    if (!d)
        return dev()->report(
            dmli_fail(E_INVALIDARG,
                      "IDMLBindingTable::Reset: DML_BINDING_TABLE_DESC.Dispatchable (%p) is not an "
                      "IDMLCompiledOperator or IDMLOperatorInitializer of this device",
                      static_cast<void *>(desc->Dispatchable)));
    UINT need = desc->Dispatchable->GetBindingProperties().RequiredDescriptorCount;
    if (desc->SizeInDescriptors < need)
        return dev()->report(dmli_fail(E_INVALIDARG,
                                       "IDMLBindingTable::Reset: "
                                       "DML_BINDING_TABLE_DESC.SizeInDescriptors (%u) must be at "
                                       "least the dispatchable's RequiredDescriptorCount (%u)",
                                       desc->SizeInDescriptors, need));
    /* The descriptor handles are not needed: bindings are cl_mem ranges. */
    dmlcl_binding_table *t = nullptr;
    if (d->what == kind::compiled) {
        HRESULT hr = dmlcl_binding_table_create(static_cast<compiled *>(d)->cl(), &t);
        if (FAILED(hr))
            return dev()->report(hr);
    }
    d->self->AddRef();
    clear();
    target_ = d;
    table_ = t;
    return S_OK;
}

/*
 * An initializer's bindings (DirectML's rules): inputs are one
 * BUFFER_ARRAY per operator, as long as its input count, binding only
 * DML_TENSOR_FLAG_OWNED_BY_DML tensors (dmlcl has none); outputs are one
 * persistent resource per operator (none needed: size 0).
 */
HRESULT binding_table::bind_initializer(bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    const initializer *init = static_cast<initializer *>(target_);
    const char *call = outputs ? "BindOutputs" : "BindInputs";
    if (count == 0)
        return S_OK;
    DMLI_INVALID_IF(count != init->count(),
                    "IDMLOperatorInitializer: %s count (%u) must be 0 or the initializer's "
                    "operator count (%u)",
                    call, count, init->count());
    DMLI_NULL_IF(!b, "IDMLOperatorInitializer: %s bindings (NULL) are required", call);
    for (UINT i = 0; i < count; ++i) {
        if (b[i].Type == DML_BINDING_TYPE_NONE)
            continue;
        if (outputs) {
            DMLI_INVALID_IF(b[i].Type != DML_BINDING_TYPE_BUFFER || !b[i].Desc,
                            "IDMLOperatorInitializer: BindOutputs binding %u (operator %u's "
                            "persistent resource).Type (%d) must be DML_BINDING_TYPE_BUFFER "
                            "with a DML_BUFFER_BINDING, or NONE",
                            i, i, (int)b[i].Type);
            continue;
        }
        DMLI_INVALID_IF(b[i].Type != DML_BINDING_TYPE_BUFFER_ARRAY || !b[i].Desc,
                        "IDMLOperatorInitializer: BindInputs binding %u.Type (%d) must be "
                        "DML_BINDING_TYPE_BUFFER_ARRAY (one array per operator) or NONE",
                        i, (int)b[i].Type);
        const DML_BUFFER_ARRAY_BINDING *a =
            static_cast<const DML_BUFFER_ARRAY_BINDING *>(b[i].Desc);
        UINT inputs =
            dmlcl_operator_input_count(dmlcl_compiled_operator_operator(init->target(i)->cl()));
        DMLI_INVALID_IF(a->BindingCount != 0 && a->BindingCount != inputs,
                        "IDMLOperatorInitializer: BindInputs binding %u.BindingCount (%u) must "
                        "be 0 or operator %u's input count (%u)",
                        i, a->BindingCount, i, inputs);
        DMLI_NULL_IF(a->BindingCount && !a->Bindings,
                     "IDMLOperatorInitializer: BindInputs binding %u.Bindings (NULL) is "
                     "required for BindingCount %u",
                     i, a->BindingCount);
        for (UINT k = 0; k < a->BindingCount; ++k)
            DMLI_INVALID_IF(a->Bindings[k].Buffer,
                            "IDMLOperatorInitializer: BindInputs binding %u.Bindings[%u].Buffer "
                            "is set, but only inputs with DML_TENSOR_FLAG_OWNED_BY_DML are "
                            "bound for initialization (dmlcl's operators have none)",
                            i, k);
    }
    return S_OK;
}

static HRESULT bind_side(dmlcl_binding_table *t, bool outputs, UINT count,
                         const DML_BINDING_DESC *b)
{
    return outputs ? dmlcl_binding_table_bind_outputs(t, count, b)
                   : dmlcl_binding_table_bind_inputs(t, count, b);
}

HRESULT binding_table::bind_compiled(bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    if (count == 0 && !b)
        return unbind(outputs);
    DMLI_INVALID_IF(count > max_slots, "%s count (%u) is more than any operator's (%u)",
                    outputs ? "BindOutputs" : "BindInputs", count, (unsigned)max_slots);
    DMLI_TRY(bind_side(table_, outputs, count, b));
    kept &k = kept_[outputs];
    k.bound = true;
    k.count = count;
    for (UINT i = 0; i < count; ++i) {
        k.descs[i] = b[i];
        if (b[i].Type == DML_BINDING_TYPE_BUFFER) {
            k.buffers[i] = *static_cast<const DML_BUFFER_BINDING *>(b[i].Desc);
            k.descs[i].Desc = &k.buffers[i];
        }
    }
    return S_OK;
}

/*
 * DirectML: a count of 0 with NULL bindings unbinds every input (or
 * output). The C table has no unbind, so a new one takes the other side's
 * bindings again.
 */
HRESULT binding_table::unbind(bool outputs)
{
    dmlcl_binding_table *t;
    DMLI_TRY(dmlcl_binding_table_create(static_cast<compiled *>(target_)->cl(), &t));
    const kept &other = kept_[!outputs];
    HRESULT hr = other.bound ? bind_side(t, !outputs, other.count, other.descs) : S_OK;
    if (SUCCEEDED(hr) && temporary_.bound)
        hr = dmlcl_binding_table_bind_temporary(t, temporary_.descs);
    if (FAILED(hr)) {
        dmlcl_binding_table_release(t);
        return hr;
    }
    dmlcl_binding_table_release(table_);
    table_ = t;
    kept_[outputs].bound = false;
    return S_OK;
}

/* Runs one Bind*: a failure removes the device. */
#define DMLI_BIND(call, expr)                                                              \
    do {                                                                                   \
        HRESULT hr_ = !target_ ? dmli_fail(E_INVALIDARG,                                   \
                                           "%s: the binding table has no dispatchable; "   \
                                           "Reset it with a DML_BINDING_TABLE_DESC first", \
                                           (call))                                         \
                               : (expr);                                                   \
        if (FAILED(hr_))                                                                   \
            dev()->remove(hr_);                                                            \
    } while (0)

void STDMETHODCALLTYPE binding_table::BindInputs(UINT count, const DML_BINDING_DESC *bindings)
{
    DMLI_BIND("BindInputs", table_ ? bind_compiled(false, count, bindings)
                                   : bind_initializer(false, count, bindings));
}

void STDMETHODCALLTYPE binding_table::BindOutputs(UINT count, const DML_BINDING_DESC *bindings)
{
    DMLI_BIND("BindOutputs", table_ ? bind_compiled(true, count, bindings)
                                    : bind_initializer(true, count, bindings));
}

/* An initializer's temporary and any persistent resource: size 0, a buffer is accepted. */
static HRESULT check_resource(const char *call, const DML_BINDING_DESC *b)
{
    if (!b || b->Type == DML_BINDING_TYPE_NONE)
        return S_OK;
    DMLI_INVALID_IF(b->Type != DML_BINDING_TYPE_BUFFER || !b->Desc,
                    "%s: binding.Type (%d) must be DML_BINDING_TYPE_BUFFER with a "
                    "DML_BUFFER_BINDING, or NONE",
                    call, (int)b->Type);
    return S_OK;
}

/* A compiled graph's scratch (TemporaryResourceSize), checked by the C table. */
HRESULT binding_table::bind_temporary(const DML_BINDING_DESC *b)
{
    DMLI_TRY(dmlcl_binding_table_bind_temporary(table_, b));
    temporary_.bound = b != nullptr;
    if (b) {
        temporary_.count = 1;
        temporary_.descs[0] = *b;
        if (b->Type == DML_BINDING_TYPE_BUFFER) {
            temporary_.buffers[0] = *static_cast<const DML_BUFFER_BINDING *>(b->Desc);
            temporary_.descs[0].Desc = &temporary_.buffers[0];
        }
    }
    return S_OK;
}

void STDMETHODCALLTYPE binding_table::BindTemporaryResource(const DML_BINDING_DESC *binding)
{
    DMLI_BIND("BindTemporaryResource",
              table_ ? bind_temporary(binding) : check_resource("BindTemporaryResource", binding));
}

void STDMETHODCALLTYPE binding_table::BindPersistentResource(const DML_BINDING_DESC *binding)
{
    DMLI_BIND("BindPersistentResource", check_resource("BindPersistentResource", binding));
}

HRESULT binding_table::dispatch(cl_command_queue queue, impl *d)
{
    DMLI_INVALID_IF(target_ != d,
                    "RecordDispatch: the binding table was made for another dispatchable; "
                    "Reset it with DML_BINDING_TABLE_DESC.Dispatchable = this one first");
    if (!table_)
        return S_OK; /* an initializer: dmlcl's operators need no initialization */
    return dmlcl_binding_table_dispatch(table_, queue, 0, nullptr, nullptr);
}

/* ---- Command recorder --------------------------------------------------------------- */

static HRESULT record(device *dev, cl_command_queue queue, IDMLDispatchable *dispatchable,
                      IDMLBindingTable *bindings)
{
    DMLI_NULL_IF(!queue, "RecordDispatch: commandList (NULL) must be a cl_command_queue");
    impl *d = dispatchable_of(dispatchable, dev);
    DMLI_INVALID_IF(!d,
                    "RecordDispatch: dispatchable (%p) is not an IDMLCompiledOperator or "
                    "IDMLOperatorInitializer of this device",
                    static_cast<void *>(dispatchable));
    binding_table *t = static_cast<binding_table *>(impl_of(bindings, kind::binding_table));
    DMLI_INVALID_IF(!t || t->dev() != dev,
                    "RecordDispatch: bindings (%p) is not an IDMLBindingTable of this device",
                    static_cast<void *>(bindings));
    return t->dispatch(queue, d);
}

void STDMETHODCALLTYPE recorder::RecordDispatch(ID3D12CommandList *list,
                                                IDMLDispatchable *dispatchable,
                                                IDMLBindingTable *bindings)
{
    /* A removed device records nothing, as in DirectML. */
    if (dev()->removed())
        return;
    HRESULT hr = record(dev(), list, dispatchable, bindings);
    if (FAILED(hr))
        dev()->remove(hr);
}

} // namespace dmli_com
