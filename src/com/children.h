/* SPDX-License-Identifier: MIT */
/* The DirectML device's children over the C runtime's objects (internal). */
#ifndef DMLI_COM_CHILDREN_H
#define DMLI_COM_CHILDREN_H

#include "device.h"

namespace dmli_com
{

/* IDMLOperator: a dmlcl_operator. */
class op final : public child<IDMLOperator>
{
  public:
    op(device *dev, dmlcl_operator *o) : child(kind::op, dev), op_(o) {}
    ~op() override
    {
        dmlcl_operator_release(op_);
    }
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        return query<IUnknown, IDMLObject, IDMLDeviceChild, IDMLOperator>(riid, ppv);
    }
    dmlcl_operator *cl() const
    {
        return op_;
    }

  private:
    dmlcl_operator *op_;
};

/* IDMLCompiledOperator: a dmlcl_compiled_operator. */
class compiled final : public child<IDMLCompiledOperator>
{
  public:
    compiled(device *dev, dmlcl_compiled_operator *c) : child(kind::compiled, dev), c_(c) {}
    ~compiled() override
    {
        dmlcl_compiled_operator_release(c_);
    }
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        return query<IUnknown, IDMLObject, IDMLDeviceChild, IDMLPageable, IDMLDispatchable,
                     IDMLCompiledOperator>(riid, ppv);
    }
    DML_BINDING_PROPERTIES STDMETHODCALLTYPE GetBindingProperties() override
    {
        return dmlcl_compiled_operator_binding_properties(c_);
    }
    dmlcl_compiled_operator *cl() const
    {
        return c_;
    }

  private:
    dmlcl_compiled_operator *c_;
};

/*
 * IDMLOperatorInitializer: its dispatch copies each operator's inputs with
 * DML_TENSOR_FLAG_OWNED_BY_DML into that operator's persistent resource
 * (dmlcl_compiled_operator_initialize); operators without any need nothing.
 */
class initializer final : public child<IDMLOperatorInitializer>
{
  public:
    explicit initializer(device *dev) : child(kind::initializer, dev) {}
    ~initializer() override;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        return query<IUnknown, IDMLObject, IDMLDeviceChild, IDMLPageable, IDMLDispatchable,
                     IDMLOperatorInitializer>(riid, ppv);
    }
    DML_BINDING_PROPERTIES STDMETHODCALLTYPE GetBindingProperties() override;
    HRESULT STDMETHODCALLTYPE Reset(UINT count, IDMLCompiledOperator *const *ops) override;

    UINT count() const
    {
        return count_;
    }
    compiled *target(UINT i) const
    {
        return ops_[i];
    }

  private:
    void clear();
    compiled **ops_ = nullptr; /* each with a reference */
    UINT count_ = 0;
};

/* The compiled operator or initializer of dev behind d, or nullptr. */
impl *dispatchable_of(IDMLDispatchable *d, const device *dev);

/* IDMLBindingTable: a dmlcl_binding_table for a compiled operator. */
class binding_table final : public child<IDMLBindingTable>
{
  public:
    explicit binding_table(device *dev) : child(kind::binding_table, dev) {}
    ~binding_table() override;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        return query<IUnknown, IDMLObject, IDMLDeviceChild, IDMLBindingTable>(riid, ppv);
    }
    void STDMETHODCALLTYPE BindInputs(UINT count, const DML_BINDING_DESC *bindings) override;
    void STDMETHODCALLTYPE BindOutputs(UINT count, const DML_BINDING_DESC *bindings) override;
    void STDMETHODCALLTYPE BindTemporaryResource(const DML_BINDING_DESC *binding) override;
    void STDMETHODCALLTYPE BindPersistentResource(const DML_BINDING_DESC *binding) override;
    HRESULT STDMETHODCALLTYPE Reset(const DML_BINDING_TABLE_DESC *desc) override;

    /* Enqueues the dispatch of d with these bindings on queue. */
    HRESULT dispatch(cl_command_queue queue, impl *d);

    /* One side's last bindings, to bind again into a new C table (see unbind). */
    enum { max_slots = 16 }; /* dmlcl's operators have at most 4 */
    struct kept {
        bool bound;
        UINT count;
        DML_BUFFER_BINDING buffers[max_slots];
        DML_BINDING_DESC descs[max_slots];
    };

  private:
    HRESULT bind_initializer(bool outputs, UINT count, const DML_BINDING_DESC *bindings);
    HRESULT bind_compiled(bool outputs, UINT count, const DML_BINDING_DESC *bindings);
    HRESULT unbind(bool outputs);
    HRESULT bind_temporary(const DML_BINDING_DESC *binding);
    void clear();
    impl *target_ = nullptr;               /* compiled or initializer, with a reference */
    dmlcl_binding_table *table_ = nullptr; /* when target_ is a compiled operator */
    kept kept_[2] = {};                    /* [0] inputs, [1] outputs */
    kept temporary_ = {};                  /* the temporary resource (count 1) */
    kept persistent_ = {};                 /* the persistent resource (count 1) */
    /* An initializer's bindings, per operator: its owned inputs and persistent resource. */
    struct init_binding {
        UINT count; /* the BUFFER_ARRAY's BindingCount */
        DML_BUFFER_BINDING *buffers;
        DML_BINDING_DESC *descs;
        DML_BUFFER_BINDING persistent_buffer;
        DML_BINDING_DESC persistent; /* NONE until BindOutputs */
    };
    init_binding *init_ = nullptr;
    UINT init_count_ = 0;
    HRESULT bind_persistent(const DML_BINDING_DESC *binding);
    HRESULT initialize(cl_command_queue queue);
};

/* IDMLCommandRecorder: records by enqueueing onto the cl_command_queue. */
class recorder final : public child<IDMLCommandRecorder>
{
  public:
    explicit recorder(device *dev) : child(kind::recorder, dev) {}
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        return query<IUnknown, IDMLObject, IDMLDeviceChild, IDMLCommandRecorder>(riid, ppv);
    }
    void STDMETHODCALLTYPE RecordDispatch(ID3D12CommandList *list, IDMLDispatchable *dispatchable,
                                          IDMLBindingTable *bindings) override;
};

} // namespace dmli_com

#endif /* DMLI_COM_CHILDREN_H */
