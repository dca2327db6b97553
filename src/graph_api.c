/* SPDX-License-Identifier: MIT */
/*
 * The C API of graphs (include/dmlcl/dmlcl.h): a compiled operator that
 * holds a compiled graph (graph_exec.c) instead of one operator's kernel,
 * BindTemporaryResource, and what graph nodes read of their operators.
 */
#include <stdlib.h>

#include "device.h"
#include "runtime.h"

HRESULT dmlcl_graph_compile(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                            DML_EXECUTION_FLAGS flags, dmlcl_compiled_operator **compiled)
{
    DMLI_NULL_IF(!compiled, "CompileGraph: the output pointer (NULL) is required");
    *compiled = NULL;
    DMLI_NULL_IF(!device, "CompileGraph: device (NULL) is required");
    DMLI_TRY(dmli_device_check(device, "CompileGraph"));
    DMLI_INVALID_IF((unsigned)flags & ~7u, "CompileGraph: flags (0x%x) has unknown bits",
                    (unsigned)flags);
    dmlcl_compiled_operator *c = calloc(1, sizeof *c);
    if (!c)
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    c->refcount = 1;
    pthread_mutex_init(&c->lock, NULL);
    HRESULT hr = dmli_graph_exec_create(device, desc, &c->graph);
    if (FAILED(hr)) {
        dmlcl_compiled_operator_release(c);
        return hr;
    }
    dmli_runtime_persistent_size(c);
    *compiled = c;
    return S_OK;
}

const dmli_op_state *dmli_operator_state(const dmlcl_operator *op)
{
    return &op->st;
}

const char *dmli_operator_name(const dmlcl_operator *op)
{
    return op->cls->name;
}

void dmli_operator_retain(dmlcl_operator *op)
{
    __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
}

HRESULT dmlcl_binding_table_bind_temporary(dmlcl_binding_table *t, const DML_BINDING_DESC *binding)
{
    DMLI_NULL_IF(!t, "BindTemporaryResource: the binding table (NULL) is required");
    if (t->compiled->graph)
        return dmli_graph_bind(t->compiled->graph, t->graph_binds, DMLI_GRAPH_TEMP, 1, binding,
                               NULL);
    /* Operators need none (TemporaryResourceSize 0): only NONE (or NULL) binds. */
    DML_BUFFER_BINDING unused;
    return dmli_runtime_check_resource(t->compiled->op->cls->name, "BindTemporaryResource",
                                       "temporary", 0, DML_TEMPORARY_BUFFER_ALIGNMENT, binding,
                                       t->compiled->op->device->context, &unused);
}
