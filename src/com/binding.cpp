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
    for (UINT i = 0; i < init_count_; ++i) {
        free(init_[i].buffers);
        free(init_[i].descs);
    }
    free(init_);
    init_ = nullptr;
    init_count_ = 0;
    table_ = nullptr;
    target_ = nullptr;
    kept_[0].bound = kept_[1].bound = temporary_.bound = persistent_.bound = false;
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
    init_binding *init = nullptr;
    UINT ops = d->what == kind::initializer ? static_cast<initializer *>(d)->count() : 0;
    if (ops && !(init = static_cast<init_binding *>(calloc(ops, sizeof *init))))
        return dev()->report(
            dmli_fail(E_OUTOFMEMORY, "IDMLBindingTable::Reset: out of host memory"));
    d->self->AddRef();
    clear();
    target_ = d;
    table_ = t;
    init_ = init;
    init_count_ = ops;
    for (UINT i = 0; i < ops; ++i)
        init_[i].persistent = {DML_BINDING_TYPE_NONE, nullptr};
    return S_OK;
}

/*
 * An initializer's bindings (DirectML's rules): inputs are one
 * BUFFER_ARRAY per operator, as long as its input count, binding only its
 * DML_TENSOR_FLAG_OWNED_BY_DML tensors (Buffer NULL for the others); outputs
 * are one persistent resource per operator. Kept for RecordDispatch, which
 * checks the rest (dmlcl_compiled_operator_initialize).
 */
HRESULT binding_table::bind_initializer(bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    const initializer *init = static_cast<initializer *>(target_);
    const char *call = outputs ? "BindOutputs" : "BindInputs";
    DMLI_INVALID_IF(init->count() != init_count_,
                    "IDMLOperatorInitializer: %s: the initializer was Reset (%u operators) after "
                    "this binding table (%u); Reset the binding table again",
                    call, init->count(), init_count_);
    if (count == 0) { /* 0 and nullptr unbind every operator's (the BindInputs page) */
        for (UINT i = 0; i < init_count_; ++i) {
            init_binding &k = init_[i];
            if (outputs) {
                k.persistent = DML_BINDING_DESC{DML_BINDING_TYPE_NONE, nullptr};
                continue;
            }
            free(k.buffers);
            free(k.descs);
            k.buffers = nullptr;
            k.descs = nullptr;
            k.count = 0;
        }
        return S_OK;
    }
    DMLI_INVALID_IF(count != init->count(),
                    "IDMLOperatorInitializer: %s count (%u) must be 0 or the initializer's "
                    "operator count (%u)",
                    call, count, init->count());
    DMLI_NULL_IF(!b, "IDMLOperatorInitializer: %s bindings (NULL) are required", call);
    for (UINT i = 0; i < count; ++i) {
        if (outputs) {
            DMLI_INVALID_IF(raw(b[i].Type) != DML_BINDING_TYPE_NONE &&
                                (raw(b[i].Type) != DML_BINDING_TYPE_BUFFER || !b[i].Desc),
                            "IDMLOperatorInitializer: BindOutputs binding %u (operator %u's "
                            "persistent resource).Type (%u) must be DML_BINDING_TYPE_BUFFER "
                            "with a DML_BUFFER_BINDING, or NONE",
                            i, i, raw(b[i].Type));
            continue;
        }
        /* An operator with nothing to bind: NONE, or an array given as nullptr or empty (the
         * BindInputs page). */
        if (raw(b[i].Type) == DML_BINDING_TYPE_NONE ||
            (raw(b[i].Type) == DML_BINDING_TYPE_BUFFER_ARRAY && !b[i].Desc))
            continue;
        DMLI_INVALID_IF(raw(b[i].Type) != DML_BINDING_TYPE_BUFFER_ARRAY,
                        "IDMLOperatorInitializer: BindInputs binding %u.Type (%u) must be "
                        "DML_BINDING_TYPE_BUFFER_ARRAY (one array per operator) or NONE",
                        i, raw(b[i].Type));
        const DML_BUFFER_ARRAY_BINDING *a =
            static_cast<const DML_BUFFER_ARRAY_BINDING *>(b[i].Desc);
        dmlcl_operator *op = dmlcl_compiled_operator_operator(init->target(i)->cl());
        UINT inputs = op ? dmlcl_operator_input_count(op) : a->BindingCount;
        DMLI_INVALID_IF(a->BindingCount != 0 && a->BindingCount != inputs,
                        "IDMLOperatorInitializer: BindInputs binding %u.BindingCount (%u) must "
                        "be 0 or operator %u's input count (%u)",
                        i, a->BindingCount, i, inputs);
        DMLI_NULL_IF(a->BindingCount && !a->Bindings,
                     "IDMLOperatorInitializer: BindInputs binding %u.Bindings (NULL) is "
                     "required for BindingCount %u",
                     i, a->BindingCount);
    }
    /* Kept (copies: the application's arrays may go away before RecordDispatch). */
    for (UINT i = 0; i < count; ++i) {
        init_binding &k = init_[i];
        if (outputs) {
            k.persistent = b[i];
            if (raw(b[i].Type) == DML_BINDING_TYPE_BUFFER) {
                k.persistent_buffer = *static_cast<const DML_BUFFER_BINDING *>(b[i].Desc);
                k.persistent.Desc = &k.persistent_buffer;
            }
            continue;
        }
        const DML_BUFFER_ARRAY_BINDING *a =
            raw(b[i].Type) == DML_BINDING_TYPE_NONE
                ? nullptr
                : static_cast<const DML_BUFFER_ARRAY_BINDING *>(b[i].Desc); /* may be nullptr */
        UINT n = a ? a->BindingCount : 0;
        auto *buffers =
            static_cast<DML_BUFFER_BINDING *>(calloc(n ? n : 1, sizeof(DML_BUFFER_BINDING)));
        auto *descs = static_cast<DML_BINDING_DESC *>(calloc(n ? n : 1, sizeof(DML_BINDING_DESC)));
        if (!buffers || !descs) {
            free(buffers);
            free(descs);
            return dmli_fail(E_OUTOFMEMORY, "IDMLOperatorInitializer: BindInputs: out of memory");
        }
        for (UINT j = 0; j < n; ++j) {
            buffers[j] = a->Bindings[j];
            descs[j] = a->Bindings[j].Buffer
                           ? DML_BINDING_DESC{DML_BINDING_TYPE_BUFFER, &buffers[j]}
                           : DML_BINDING_DESC{DML_BINDING_TYPE_NONE, nullptr};
        }
        free(k.buffers);
        free(k.descs);
        k.buffers = buffers;
        k.descs = descs;
        k.count = n;
    }
    return S_OK;
}

/* The initializer's dispatch: each operator's owned inputs into its persistent resource. */
HRESULT binding_table::initialize(cl_command_queue queue)
{
    const initializer *init = static_cast<initializer *>(target_);
    DMLI_INVALID_IF(init->count() != init_count_,
                    "RecordDispatch: the initializer was Reset (%u operators) after its binding "
                    "table (%u); Reset the binding table again",
                    init->count(), init_count_);
    for (UINT i = 0; i < init_count_; ++i)
        DMLI_TRY(dmlcl_compiled_operator_initialize(init->target(i)->cl(), queue, init_[i].count,
                                                    init_[i].descs, &init_[i].persistent, 0,
                                                    nullptr, nullptr));
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
        if (raw(b[i].Type) == DML_BINDING_TYPE_BUFFER) {
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
    if (SUCCEEDED(hr) && persistent_.bound)
        hr = dmlcl_binding_table_bind_persistent(t, persistent_.descs);
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

/*
 * An initializer's own temporary and persistent resources: both of size 0
 * (copying owned inputs needs no scratch; persistent resources are its
 * operators', bound as its outputs). DirectML's rule for a resource a
 * dispatchable does not need: nullptr or NONE; a buffer is refused
 * (microsoft/DirectML#65), as for compiled operators and graphs.
 */
static HRESULT check_resource(const char *call, const char *field, const DML_BINDING_DESC *b)
{
    if (!b || raw(b->Type) == DML_BINDING_TYPE_NONE)
        return S_OK;
    DMLI_INVALID_IF(raw(b->Type) != DML_BINDING_TYPE_BUFFER,
                    "IDMLOperatorInitializer: %s: binding.Type (%u) must be "
                    "DML_BINDING_TYPE_NONE (0)",
                    call, raw(b->Type));
    return dmli_fail(E_INVALIDARG,
                     "IDMLOperatorInitializer: %s: a buffer is bound as a resource the "
                     "initializer does not need (%s 0): bind DML_BINDING_TYPE_NONE or nullptr, as "
                     "DirectML requires (it refuses a resource the dispatchable does not need)",
                     call, field);
}

/* Keeps one resource binding the C table took (nullptr: none), to bind again (unbind). */
static void keep_one(binding_table::kept &k, const DML_BINDING_DESC *b)
{
    k.bound = b != nullptr;
    if (!b)
        return;
    k.count = 1;
    k.descs[0] = *b;
    if (raw(b->Type) == DML_BINDING_TYPE_BUFFER) {
        k.buffers[0] = *static_cast<const DML_BUFFER_BINDING *>(b->Desc);
        k.descs[0].Desc = &k.buffers[0];
    }
}

/* A compiled graph's scratch (TemporaryResourceSize), checked by the C table. */
HRESULT binding_table::bind_temporary(const DML_BINDING_DESC *b)
{
    DMLI_TRY(dmlcl_binding_table_bind_temporary(table_, b));
    keep_one(temporary_, b);
    return S_OK;
}

void STDMETHODCALLTYPE binding_table::BindTemporaryResource(const DML_BINDING_DESC *binding)
{
    DMLI_BIND("BindTemporaryResource",
              table_ ? bind_temporary(binding)
                     : check_resource("BindTemporaryResource", "TemporaryResourceSize", binding));
}

/* A compiled operator's persistent resource (PersistentResourceSize), checked by the C table. */
HRESULT binding_table::bind_persistent(const DML_BINDING_DESC *b)
{
    DMLI_TRY(dmlcl_binding_table_bind_persistent(table_, b));
    keep_one(persistent_, b);
    return S_OK;
}

void STDMETHODCALLTYPE binding_table::BindPersistentResource(const DML_BINDING_DESC *binding)
{
    /* An initializer has none of its own (its operators' are its outputs). */
    DMLI_BIND("BindPersistentResource",
              table_ ? bind_persistent(binding)
                     : check_resource("BindPersistentResource", "PersistentResourceSize", binding));
}

HRESULT binding_table::dispatch(cl_command_queue queue, impl *d)
{
    DMLI_INVALID_IF(target_ != d,
                    "RecordDispatch: the binding table was made for another dispatchable; "
                    "Reset it with DML_BINDING_TABLE_DESC.Dispatchable = this one first");
    if (!table_)
        return initialize(queue);
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
