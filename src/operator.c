/* SPDX-License-Identifier: MIT */
/*
 * Operators: a description validated, deep-copied and lowered by its class (registry.c),
 * host-only or on a device. What a graph node copies from one (graph.c) is read here too, so
 * the graph layer calls down, never up into the compiled objects.
 */
#include <stdlib.h>

#include "internal.h"

static void operator_free(dmlcl_operator *op)
{
    if (op && __atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        dmlcl_device_release(op->device);
        dmli_op_state_release(&op->st);
        free(op);
    }
}

HRESULT dmlcl_operator_create(dmlcl_device *device, const DML_OPERATOR_DESC *desc,
                              dmlcl_operator **op)
{
    DMLI_NULL_IF(!op, "CreateOperator: the output pointer (NULL) is required");
    *op = NULL;
    DMLI_NULL_IF(!desc, "CreateOperator: desc (NULL) is required");
    if (device)
        DMLI_TRY(dmli_device_check(device, "CreateOperator"));
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    /* DirectML numbers its operators 1..255; other values are not operators at all. */
    bool directml_op = (int)desc->Type > 0 && (int)desc->Type < 256;
    DMLI_INVALID_IF(!cls && !directml_op,
                    "CreateOperator: DML_OPERATOR_DESC.Type (%d) is not a DML_OPERATOR_TYPE or "
                    "dmlcl extension operator",
                    (int)desc->Type);
    const char *name = dmli_operator_type_name(desc->Type);
    DMLI_UNSUPPORTED_IF(!cls && name,
                        "CreateOperator: DML_OPERATOR_%s (DML_OPERATOR_DESC.Type %d) is a "
                        "DirectML operator dmlcl does not implement",
                        name, (int)desc->Type);
    DMLI_UNSUPPORTED_IF(!cls,
                        "CreateOperator: DML_OPERATOR_DESC.Type (%d) is a DirectML operator "
                        "dmlcl does not implement",
                        (int)desc->Type);
    DMLI_INVALID_IF(!desc->Desc,
                    "%s: DML_OPERATOR_DESC.Desc (NULL) must point to the operator's "
                    "description",
                    cls->name);
    dmlcl_operator *o = calloc(1, sizeof *o);
    if (!o)
        return dmli_fail(E_OUTOFMEMORY, "CreateOperator: out of host memory");
    o->refcount = 1;
    o->cls = cls;
    o->st.data_input = 0;
    o->st.index_input = -1;
    HRESULT hr = dmli_op_class_create(cls, desc->Desc, &o->st);
    if (FAILED(hr)) {
        free(o);
        return hr;
    }
    /* Steps stay as lowered: bands are built from them, and a step that keeps its own
     * kernel is normalised when it is compiled (runtime.c); so does a map, which graphs
     * compose views and activations into (graph_plan.c). */
    dmli_plan_normalize(&o->st.plan);
    if (device) {
        dmlcl_device_retain(device);
        o->device = device;
    }
    *op = o;
    return S_OK;
}

void dmlcl_operator_release(dmlcl_operator *op)
{
    operator_free(op);
}

UINT dmlcl_operator_input_count(const dmlcl_operator *op)
{
    return op ? op->st.n_inputs : 0;
}

UINT dmlcl_operator_output_count(const dmlcl_operator *op)
{
    return op ? op->st.n_outputs : 0;
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
