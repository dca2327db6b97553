/* SPDX-License-Identifier: MIT */
/*
 * Binding tables and dispatch, for every compiled operator and graph alike (program.h): the
 * bindings checked against the program's signature, the persistent resource and its
 * initialization, DirectML's hazard rules, the steps' arguments and their enqueue. The one
 * place that binds, checks and enqueues.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "runtime.h"

/* ---- Binding tables ---------------------------------------------------------------------- */

HRESULT dmlcl_binding_table_create(dmlcl_compiled_operator *compiled, dmlcl_binding_table **table)
{
    DMLI_NULL_IF(!table, "CreateBindingTable: the output pointer (NULL) is required");
    *table = NULL;
    DMLI_NULL_IF(!compiled, "CreateBindingTable: the compiled operator (NULL) is required");
    const dmli_program *p = &compiled->program;
    dmlcl_binding_table *t = calloc(1, sizeof *t);
    uint32_t most = p->n_inputs > p->n_outputs ? p->n_inputs : p->n_outputs;
    if (t) {
        t->inputs = calloc(p->n_inputs ? p->n_inputs : 1, sizeof *t->inputs);
        t->outputs = calloc(p->n_outputs ? p->n_outputs : 1, sizeof *t->outputs);
        t->checked = calloc(most ? most : 1, sizeof *t->checked);
    }
    if (!t || !t->inputs || !t->outputs || !t->checked) {
        if (t) {
            free(t->inputs);
            free(t->outputs);
            free(t->checked);
        }
        free(t);
        return dmli_fail(E_OUTOFMEMORY, "CreateBindingTable: out of host memory");
    }
    if (p->status) {
        cl_int err;
        t->status = clCreateBuffer(p->dev->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS) {
            free(t->inputs);
            free(t->outputs);
            free(t->checked);
            free(t);
            return dmli_fail_cl(err, "clCreateBuffer (status)");
        }
    }
    __atomic_add_fetch(&compiled->refcount, 1, __ATOMIC_RELAXED);
    t->compiled = compiled;
    *table = t;
    return S_OK;
}

void dmlcl_binding_table_release(dmlcl_binding_table *t)
{
    if (!t)
        return;
    if (t->status_read) {
        clWaitForEvents(1, &t->status_read);
        clReleaseEvent(t->status_read);
    }
    if (t->status_queue)
        clReleaseCommandQueue(t->status_queue);
    if (t->status)
        clReleaseMemObject(t->status);
    dmli_program *p = &t->compiled->program;
    pthread_mutex_lock(&p->lock); /* a later table may reuse this address */
    if (p->args_table == t)
        p->args_table = NULL;
    pthread_mutex_unlock(&p->lock);
    dmlcl_compiled_operator_release(t->compiled);
    free(t->inputs);
    free(t->outputs);
    free(t->checked);
    free(t);
}

/*
 * One buffer binding checked against a tensor (type, alignment, size, inside its cl_mem, of
 * the device's context); op, call, i and name make the messages.
 */
static HRESULT check_binding(const char *op, const char *call, UINT i, const char *name,
                             const dmli_tensor *tensor, const DML_BINDING_DESC *b,
                             cl_context context, DML_BUFFER_BINDING *out)
{
    memset(out, 0, sizeof *out);
    if (tensor->unused) {
        /* A graph input no node reads: NONE or a buffer, which is never read. */
        DMLI_INVALID_IF(b->Type != DML_BINDING_TYPE_NONE && b->Type != DML_BINDING_TYPE_BUFFER,
                        "%s: %s binding %u (%s).Type (%d) must be DML_BINDING_TYPE_BUFFER (1) or "
                        "NONE (0) for execution",
                        op, call, i, name, (int)b->Type);
        DMLI_NULL_IF(b->Type == DML_BINDING_TYPE_BUFFER && !b->Desc,
                     "%s: %s binding %u (%s).Desc (NULL) must point to a DML_BUFFER_BINDING", op,
                     call, i, name);
        return S_OK;
    }
    if (b->Type == DML_BINDING_TYPE_NONE) {
        DMLI_INVALID_IF(tensor->present,
                        "%s: %s binding %u (%s) is DML_BINDING_TYPE_NONE but "
                        "the tensor is required",
                        op, call, i, name);
        return S_OK;
    }
    DMLI_INVALID_IF(b->Type != DML_BINDING_TYPE_BUFFER,
                    "%s: %s binding %u (%s).Type (%d) must be DML_BINDING_TYPE_BUFFER (1) or "
                    "NONE (0) for execution",
                    op, call, i, name, (int)b->Type);
    DMLI_INVALID_IF(!tensor->present,
                    "%s: %s binding %u (%s) is bound but the operator has no "
                    "such tensor; use DML_BINDING_TYPE_NONE",
                    op, call, i, name);
    const DML_BUFFER_BINDING *bb = b->Desc;
    DMLI_NULL_IF(!bb, "%s: %s binding %u (%s).Desc (NULL) must point to a DML_BUFFER_BINDING", op,
                 call, i, name);
    DMLI_NULL_IF(!bb->Buffer, "%s: %s binding %u (%s).Buffer (NULL) must be a cl_mem", op, call, i,
                 name);
    uint64_t align = tensor->base_align > DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT
                         ? tensor->base_align
                         : DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT;
    DMLI_INVALID_IF(bb->Offset % align != 0,
                    "%s: %s binding %u (%s).Offset (%llu) must be a multiple of %llu", op, call, i,
                    name, (unsigned long long)bb->Offset, (unsigned long long)align);
    DMLI_INVALID_IF(bb->SizeInBytes < tensor->total_bytes,
                    "%s: %s binding %u (%s).SizeInBytes (%llu) must be at least the tensor's "
                    "TotalTensorSizeInBytes (%llu)",
                    op, call, i, name, (unsigned long long)bb->SizeInBytes,
                    (unsigned long long)tensor->total_bytes);
    size_t mem_size = 0;
    cl_int err =
        clGetMemObjectInfo((cl_mem)bb->Buffer, CL_MEM_SIZE, sizeof mem_size, &mem_size, NULL);
    DMLI_INVALID_IF(err != CL_SUCCESS, "%s: %s binding %u (%s).Buffer is not a valid cl_mem (%s)",
                    op, call, i, name, dmli_cl_error_name(err));
    DMLI_INVALID_IF(bb->Offset > mem_size || bb->SizeInBytes > mem_size - bb->Offset,
                    "%s: %s binding %u (%s): Offset (%llu) + SizeInBytes (%llu) must lie inside "
                    "the cl_mem (%zu bytes)",
                    op, call, i, name, (unsigned long long)bb->Offset,
                    (unsigned long long)bb->SizeInBytes, mem_size);
    cl_context mem_context = NULL;
    err = clGetMemObjectInfo((cl_mem)bb->Buffer, CL_MEM_CONTEXT, sizeof mem_context, &mem_context,
                             NULL);
    DMLI_INVALID_IF(err != CL_SUCCESS || mem_context != context,
                    "%s: %s binding %u (%s).Buffer belongs to another cl_context than the "
                    "device's: a kernel can only use buffers of its own context",
                    op, call, i, name);
    *out = *bb;
    return S_OK;
}

/* Owned input i's copy in persistent (zeroes while persistent->Buffer is NULL). */
static DML_BUFFER_BINDING persistent_slice(const dmli_program *p, uint32_t i,
                                           const DML_BUFFER_BINDING *persistent)
{
    if (!persistent->Buffer)
        return (DML_BUFFER_BINDING){NULL, 0, 0};
    return (DML_BUFFER_BINDING){
        persistent->Buffer, persistent->Offset + dmli_persistent_offset(p->inputs, p->n_inputs, i),
        p->inputs[i].total_bytes};
}

static HRESULT bind(dmlcl_binding_table *t, bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    DMLI_NULL_IF(!t, "Bind: the binding table (NULL) is required");
    const dmli_program *p = &t->compiled->program;
    const char *op = p->name, *call = outputs ? "BindOutputs" : "BindInputs";
    UINT want = outputs ? p->n_outputs : p->n_inputs;
    DMLI_INVALID_IF(count != want, "%s: %s count (%u) must equal the %s's %s count (%u)", op, call,
                    count, p->noun, outputs ? "output" : "input", want);
    DMLI_NULL_IF(count && !b, "%s: %s bindings (NULL) are required", op, call);
    /* A refused call leaves the earlier bindings as they were. */
    for (UINT i = 0; i < count; ++i) {
        const char *name = outputs ? p->output_names[i] : p->input_names[i];
        if (!outputs && dmli_owned(&p->inputs[i])) {
            DMLI_INVALID_IF(
                b[i].Type != DML_BINDING_TYPE_NONE,
                "%s: %s binding %u (%s).Type (%d) must be DML_BINDING_TYPE_NONE (0): the "
                "tensor has DML_TENSOR_FLAG_OWNED_BY_DML, so it is bound at initialization "
                "(IDMLOperatorInitializer, dmlcl_compiled_operator_initialize) and read from "
                "the persistent resource",
                op, call, i, name, (int)b[i].Type);
            t->checked[i] = persistent_slice(p, i, &t->persistent);
            continue;
        }
        DMLI_TRY(check_binding(op, call, i, name, outputs ? &p->outputs[i] : &p->inputs[i], &b[i],
                               p->dev->context, &t->checked[i]));
    }
    memcpy(outputs ? t->outputs : t->inputs, t->checked, count * sizeof *t->checked);
    *(outputs ? &t->outputs_bound : &t->inputs_bound) = true;
    t->generation++;
    return S_OK;
}

HRESULT dmlcl_binding_table_bind_inputs(dmlcl_binding_table *t, UINT count,
                                        const DML_BINDING_DESC *bindings)
{
    return bind(t, false, count, bindings);
}

HRESULT dmlcl_binding_table_bind_outputs(dmlcl_binding_table *t, UINT count,
                                         const DML_BINDING_DESC *bindings)
{
    return bind(t, true, count, bindings);
}

/*
 * A resource of `bytes` at a multiple of `align` (the temporary or persistent resource). When
 * the size is 0, NONE or NULL only: DirectML refuses a resource the dispatchable does not need
 * (microsoft/DirectML#65, on an initializer's temporary; its samples and DxDispatch bind one
 * only when the size is not 0), one rule for both resources.
 */
static HRESULT check_resource(const dmli_program *p, const char *call, const char *what,
                              uint64_t bytes, uint64_t align, const DML_BINDING_DESC *b,
                              DML_BUFFER_BINDING *out)
{
    const char *field = what[0] == 't' ? "TemporaryResourceSize" : "PersistentResourceSize";
    DMLI_INVALID_IF(bytes == 0 && b && (unsigned)b->Type == DML_BINDING_TYPE_BUFFER,
                    "%s: %s: a buffer is bound as the %s resource, which is not needed (%s 0): "
                    "bind DML_BINDING_TYPE_NONE or nullptr, as DirectML requires (it refuses a "
                    "resource the dispatchable does not need)",
                    p->name, call, what, field);
    dmli_tensor need = {0};
    need.total_bytes = bytes;
    need.present = bytes > 0;
    need.base_align = (uint32_t)align;
    DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, NULL};
    char name[96];
    snprintf(name, sizeof name, "the %s resource (%s %llu)", what, field,
             (unsigned long long)bytes);
    return check_binding(p->name, call, 0, name, &need, b ? b : &none, p->dev->context, out);
}

HRESULT dmlcl_binding_table_bind_temporary(dmlcl_binding_table *t, const DML_BINDING_DESC *b)
{
    DMLI_NULL_IF(!t, "BindTemporaryResource: the binding table (NULL) is required");
    const dmli_program *p = &t->compiled->program;
    DML_BUFFER_BINDING checked;
    DMLI_TRY(check_resource(p, "BindTemporaryResource", "temporary", p->temp_bytes,
                            DML_TEMPORARY_BUFFER_ALIGNMENT, b, &checked));
    t->temp = checked;
    t->temp_bound = true;
    t->generation++;
    return S_OK;
}

/* A persistent resource binding: PersistentResourceSize bytes, or NONE when that size is 0. */
static HRESULT check_persistent(const dmli_program *p, const char *call, const DML_BINDING_DESC *b,
                                DML_BUFFER_BINDING *out)
{
    return check_resource(p, call, "persistent", p->persistent_bytes,
                          DML_PERSISTENT_BUFFER_ALIGNMENT, b, out);
}

HRESULT dmlcl_binding_table_bind_persistent(dmlcl_binding_table *t, const DML_BINDING_DESC *b)
{
    DMLI_NULL_IF(!t, "BindPersistentResource: the binding table (NULL) is required");
    const dmli_program *p = &t->compiled->program;
    DML_BUFFER_BINDING checked;
    DMLI_TRY(check_persistent(p, "BindPersistentResource", b, &checked));
    t->persistent = checked;
    for (uint32_t i = 0; checked.Buffer && i < p->n_inputs; ++i)
        if (dmli_owned(&p->inputs[i]))
            t->inputs[i] = persistent_slice(p, i, &checked);
    t->generation++;
    return S_OK;
}

static bool overlap(const DML_BUFFER_BINDING *a, uint64_t an, const DML_BUFFER_BINDING *b,
                    uint64_t bn)
{
    return a->Buffer && a->Buffer == b->Buffer && a->Offset < b->Offset + bn &&
           b->Offset < a->Offset + an;
}

/* ---- Initialization: the owned inputs copied into the persistent resource ---------------- */

/* Argument arg of step s: the buffer mem, and (where the kernel takes one) its base in units, the
 * binding's byte offset over the argument's unit, plus its own. */
static cl_int set_step_arg(const dmli_step *s, const dmli_step_arg *arg, cl_mem mem,
                           uint64_t offset)
{
    cl_int err = clSetKernelArg(s->kernel, arg->mem_arg, sizeof mem, &mem);
    if (err == CL_SUCCESS && arg->base_arg >= 0) {
        cl_long base = (cl_long)(offset / arg->unit) + arg->add;
        err = clSetKernelArg(s->kernel, (cl_uint)arg->base_arg, sizeof base, &base);
    }
    return err;
}

/* The initialization's steps, each after the one before (the first after the wait list), their
 * arguments from the persistent resource pers: an owned input's copy, or the resource at an
 * offset; *last: the last step's event. Under the program's lock (the steps' kernels are their
 * own, but a program's arguments are set one caller at a time). */
static HRESULT init_steps(dmli_program *p, const DML_BUFFER_BINDING *pers, cl_command_queue q,
                          cl_uint nwait, const cl_event *wait, cl_event *last)
{
    cl_event prev = NULL;
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < p->n_init_steps && err == CL_SUCCESS; ++i) {
        const dmli_step *s = &p->init_steps[i];
        for (uint32_t a = 0; a < s->n_args && err == CL_SUCCESS; ++a) {
            const dmli_step_arg *arg = &s->args[a];
            uint64_t offset = pers->Offset + arg->slot.offset;
            if (arg->slot.kind == DMLI_SLOT_INPUT)
                offset += dmli_persistent_offset(p->inputs, p->n_inputs, arg->slot.index);
            else if (arg->slot.kind != DMLI_SLOT_PERSISTENT)
                err = CL_INVALID_ARG_VALUE; /* the compiler binds nothing else here */
            if (err == CL_SUCCESS)
                err = set_step_arg(s, arg, (cl_mem)pers->Buffer, offset);
        }
        cl_event e = NULL;
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(q, s->kernel, 3, NULL, s->global, s->local,
                                         prev ? 1 : nwait, prev ? &prev : wait, &e);
        if (prev)
            clReleaseEvent(prev);
        prev = e;
    }
    if (err != CL_SUCCESS) {
        if (prev)
            clReleaseEvent(prev);
        return dmli_fail_cl(err, "clEnqueueNDRangeKernel (initialize)");
    }
    *last = prev;
    return S_OK;
}

HRESULT dmlcl_compiled_operator_initialize(dmlcl_compiled_operator *c, cl_command_queue queue,
                                           UINT count, const DML_BINDING_DESC *inputs,
                                           const DML_BINDING_DESC *persistent, cl_uint nwait,
                                           const cl_event *wait, cl_event *event)
{
    DMLI_NULL_IF(!c, "initialize: the compiled operator (NULL) is required");
    const dmli_program *p = &c->program;
    const char *op = p->name;
    uint32_t n = p->n_inputs;
    uint64_t need = p->persistent_bytes;
    DMLI_INVALID_IF(count != n && !(count == 0 && need == 0),
                    "%s: initialize: BindInputs count (%u) must be the input count (%u), or 0 when "
                    "no input has DML_TENSOR_FLAG_OWNED_BY_DML",
                    op, count, n);
    DMLI_NULL_IF(count && !inputs, "%s: initialize: input bindings (NULL) are required", op);
    DML_BUFFER_BINDING dst;
    DMLI_TRY(
        check_persistent(p, "initialize: BindOutputs (the persistent resource)", persistent, &dst));
    for (uint32_t i = 0; i < count; ++i) {
        const char *what = p->input_names[i];
        if (!dmli_owned(&p->inputs[i])) {
            DMLI_INVALID_IF(inputs[i].Type != DML_BINDING_TYPE_NONE,
                            "%s: initialize: BindInputs binding %u (%s).Type (%d) must be "
                            "DML_BINDING_TYPE_NONE (0): only inputs with "
                            "DML_TENSOR_FLAG_OWNED_BY_DML are bound for initialization, the "
                            "others at execution",
                            op, i, what, (int)inputs[i].Type);
            continue;
        }
        DML_BUFFER_BINDING src;
        DMLI_TRY(check_binding(op, "initialize: BindInputs", i, what, &p->inputs[i], &inputs[i],
                               p->dev->context, &src));
        /* The copies may run in any order: no source lies where any copy lands. */
        DMLI_INVALID_IF(overlap(&src, p->inputs[i].total_bytes, &dst, need),
                        "%s: initialize: BindInputs binding %u (%s) overlaps the persistent "
                        "resource it is copied into",
                        op, i, what);
    }
    /* The copies, each after the wait list; the event (or a marker) after all of them. */
    cl_command_queue q = queue ? queue : p->dev->queue;
    cl_event done[DMLI_MAX_SLOTS];
    cl_uint n_done = 0;
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < count && err == CL_SUCCESS; ++i) {
        if (!dmli_owned(&p->inputs[i]) || !p->inputs[i].total_bytes)
            continue;
        const DML_BUFFER_BINDING *src = inputs[i].Desc;
        cl_event *e = n_done < DMLI_MAX_SLOTS ? &done[n_done] : NULL;
        err = clEnqueueCopyBuffer(q, (cl_mem)src->Buffer, (cl_mem)dst.Buffer, (size_t)src->Offset,
                                  (size_t)(dst.Offset + dmli_persistent_offset(p->inputs, n, i)),
                                  (size_t)p->inputs[i].total_bytes, nwait, wait, e);
        if (err == CL_SUCCESS && e)
            n_done++;
        else if (err == CL_SUCCESS) /* more owned graph inputs than events kept: in order */
            err = clFinish(q);
    }
    if (err != CL_SUCCESS) {
        for (cl_uint k = 0; k < n_done; ++k)
            clReleaseEvent(done[k]);
        return dmli_fail_cl(err, "clEnqueueCopyBuffer (initialize)");
    }
    /* Then the initialization's steps (program.h init_steps), in order, after every copy. */
    if (p->n_init_steps) {
        cl_event last = NULL;
        dmli_program *pm = &c->program;
        pthread_mutex_lock(&pm->lock);
        HRESULT hr = init_steps(pm, &dst, q, n_done ? n_done : nwait, n_done ? done : wait, &last);
        pthread_mutex_unlock(&pm->lock);
        for (cl_uint k = 0; k < n_done; ++k)
            clReleaseEvent(done[k]);
        if (FAILED(hr))
            return hr;
        if (event)
            *event = last;
        else
            clReleaseEvent(last);
        return S_OK;
    }
    if (event)
        err = clEnqueueMarkerWithWaitList(q, n_done ? n_done : nwait, n_done ? done : wait, event);
    for (cl_uint k = 0; k < n_done; ++k)
        clReleaseEvent(done[k]);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clEnqueueMarkerWithWaitList (initialize)");
}

/* ---- Dispatch ------------------------------------------------------------------------------ */

/* One layout: the same strides wherever a dimension has more than one element. */
static bool same_layout(const dmli_tensor *a, const dmli_tensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (uint32_t d = 0; d < a->rank; ++d)
        if (a->sizes[d] > 1 && a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* A bound range for the hazard sweep: [lo, hi) of one cl_mem, and which binding it is. */
typedef enum range_kind { RANGE_INPUT, RANGE_OUTPUT, RANGE_TEMP, RANGE_PERSISTENT } range_kind;
typedef struct range {
    uintptr_t mem;
    uint64_t lo, hi;
    range_kind kind;
    uint32_t index;
    bool in_place; /* an input on exactly an output's range, read where it is written */
} range;

static int by_place(const void *pa, const void *pb)
{
    const range *a = pa, *b = pb;
    if (a->mem != b->mem)
        return a->mem < b->mem ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return (int)a->kind - (int)b->kind;
}

static void add_range(range *r, uint32_t *n, const DML_BUFFER_BINDING *bb, uint64_t bytes,
                      range_kind kind, uint32_t index)
{
    if (bb->Buffer && bytes) /* no bytes, no hazard */
        r[(*n)++] =
            (range){(uintptr_t)bb->Buffer, bb->Offset, bb->Offset + bytes, kind, index, false};
}

/* The message for two overlapping ranges, at least one of them written. */
static HRESULT overlapping(const dmli_program *p, const range *a, const range *b)
{
    if (a->kind > b->kind || (a->kind == b->kind && a->index > b->index)) {
        const range *t = a;
        a = b;
        b = t;
    }
    const char *op = p->name;
    if (b->kind == RANGE_PERSISTENT)
        return dmli_fail(E_INVALIDARG,
                         "%s: the persistent resource and %s overlap in one cl_mem: the operator "
                         "reads it at every dispatch (DirectML's binding hazards: no output or "
                         "temporary resource may overlap it)",
                         op,
                         a->kind == RANGE_TEMP     ? "the temporary resource"
                         : a->kind == RANGE_OUTPUT ? p->output_names[a->index]
                                                   : p->input_names[a->index]);
    if (a->kind == RANGE_INPUT && b->kind == RANGE_OUTPUT)
        return dmli_fail(E_INVALIDARG,
                         "%s: %s and %s overlap in one cl_mem; only an in-place operator "
                         "(element-wise) may share a range, and only the identical range",
                         op, p->input_names[a->index], p->output_names[b->index]);
    if (a->kind == RANGE_OUTPUT && b->kind == RANGE_OUTPUT)
        return dmli_fail(E_INVALIDARG, "%s: %s and %s overlap in one cl_mem", op,
                         p->output_names[a->index], p->output_names[b->index]);
    return dmli_fail(E_INVALIDARG, "%s: the temporary resource and %s overlap in one cl_mem", op,
                     a->kind == RANGE_INPUT ? p->input_names[a->index] : p->output_names[a->index]);
}

/*
 * In place: an input on exactly an output's range (sorted next to it) of the output's layout
 * is read where it is written and takes no further part in the sweep (the output's range
 * stands for its bytes); of another layout it is refused.
 */
static HRESULT mark_in_place(const dmli_program *p, range *r, uint32_t n)
{
    for (uint32_t k = 0; k < n; ++k) {
        if (r[k].kind != RANGE_INPUT)
            continue;
        for (uint32_t j = k + 1;
             j < n && r[j].mem == r[k].mem && r[j].lo == r[k].lo && r[j].hi == r[k].hi; ++j) {
            if (r[j].kind != RANGE_OUTPUT)
                continue;
            const char *in = p->input_names[r[k].index], *out = p->output_names[r[j].index];
            DMLI_INVALID_IF(!same_layout(&p->inputs[r[k].index], &p->outputs[r[j].index]),
                            "%s: %s and %s share one range, but %s.Strides and %s.Strides "
                            "differ: in-place execution needs one layout (a layout change in "
                            "place would overwrite elements before reading them; bind another "
                            "output range)",
                            p->name, in, out, in, out);
            r[k].in_place = true;
        }
    }
    return S_OK;
}

/*
 * DirectML's hazard rules: what a dispatch writes (outputs, the temporary resource) overlaps
 * nothing else (the persistent resource included, which every dispatch reads), but an
 * in-place operator's input on exactly an output's range of its layout; inputs and the
 * persistent resource may share bytes. A sweep over the ranges sorted by buffer and start, O(k log
 * k) in the k bindings, not pairwise (a graph may have hundreds of thousands of inputs and
 * outputs): a range overlaps an earlier one of its buffer exactly when it starts before the
 * largest end among them (all of them, for a written range; the written ones, for an input).
 */
static HRESULT check_hazards(const dmlcl_binding_table *t)
{
    const dmli_program *p = &t->compiled->program;
    range *r = malloc(((size_t)p->n_inputs + p->n_outputs + 2) * sizeof *r);
    if (!r)
        return dmli_fail(E_OUTOFMEMORY, "%s: RecordDispatch: out of host memory", p->name);
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->n_inputs; ++i)
        add_range(r, &n, &t->inputs[i], p->inputs[i].total_bytes, RANGE_INPUT, i);
    for (uint32_t o = 0; o < p->n_outputs; ++o)
        add_range(r, &n, &t->outputs[o], p->outputs[o].total_bytes, RANGE_OUTPUT, o);
    add_range(r, &n, &t->temp, p->temp_bytes, RANGE_TEMP, 0);
    add_range(r, &n, &t->persistent, p->persistent_bytes, RANGE_PERSISTENT, 0);
    qsort(r, n, sizeof *r, by_place);
    HRESULT hr = p->in_place ? mark_in_place(p, r, n) : S_OK;
    const range *any = NULL, *written = NULL; /* the earlier ranges ending last */
    for (uint32_t k = 0; k < n && SUCCEEDED(hr); ++k) {
        const range *cur = &r[k];
        if (k == 0 || cur->mem != r[k - 1].mem)
            any = written = NULL;
        if (cur->in_place)
            continue;
        /* Read ranges (inputs, the persistent resource) may share bytes with each other. */
        const bool read = cur->kind == RANGE_INPUT || cur->kind == RANGE_PERSISTENT;
        const range *prev = read ? written : any;
        if (prev && cur->lo < prev->hi)
            hr = overlapping(p, prev, cur);
        if (!any || cur->hi > any->hi)
            any = cur;
        if (!read && (!written || cur->hi > written->hi))
            written = cur;
    }
    free(r);
    return hr;
}

/* What a dispatch needs bound first. */
static HRESULT check_bound(const dmlcl_binding_table *t)
{
    const dmli_program *p = &t->compiled->program;
    const char *op = p->name;
    DMLI_INVALID_IF(p->persistent_bytes && !t->persistent.Buffer,
                    "%s: RecordDispatch needs BindPersistentResource first: inputs with "
                    "DML_TENSOR_FLAG_OWNED_BY_DML are read from the persistent resource "
                    "(PersistentResourceSize %llu), initialized by the operator initializer",
                    op, (unsigned long long)p->persistent_bytes);
    DMLI_INVALID_IF((!t->inputs_bound && p->n_inputs) || !t->outputs_bound,
                    "%s: RecordDispatch needs BindInputs and BindOutputs first", op);
    DMLI_INVALID_IF(p->temp_bytes && !t->temp_bound,
                    "%s: RecordDispatch needs BindTemporaryResource first: the %s's "
                    "TemporaryResourceSize is %llu bytes",
                    op, p->noun, (unsigned long long)p->temp_bytes);
    return S_OK;
}

/* The cl_mem and byte offset a slot binds in t. */
static cl_mem slot_binding(const dmlcl_binding_table *t, dmli_slot s, uint64_t *offset)
{
    const dmli_program *p = &t->compiled->program;
    const DML_BUFFER_BINDING *b = NULL;
    switch (s.kind) {
    case DMLI_SLOT_INPUT: b = &t->inputs[s.index]; break;
    case DMLI_SLOT_OUTPUT: b = &t->outputs[s.index]; break;
    case DMLI_SLOT_TEMP: b = &t->temp; break;
    case DMLI_SLOT_CONSTANT: *offset = s.offset; return p->constants[s.index];
    case DMLI_SLOT_STATUS: *offset = 0; return t->status;
    case DMLI_SLOT_PERSISTENT: b = &t->persistent; break;
    }
    *offset = b->Offset + s.offset;
    return (cl_mem)b->Buffer;
}

/* Every step's buffers and base offsets from t's bindings, unless t's are already set
 * (repeated dispatches of one table cost one enqueue per step). Under the program's lock. */
static HRESULT set_args(dmlcl_binding_table *t)
{
    dmli_program *p = &t->compiled->program;
    if (p->args_table == t && p->args_generation == t->generation)
        return S_OK;
    p->args_table = NULL;
    for (uint32_t i = 0; i < p->n_steps; ++i) {
        const dmli_step *s = &p->steps[i];
        for (uint32_t a = 0; a < s->n_args; ++a) {
            const dmli_step_arg *arg = &s->args[a];
            uint64_t offset;
            cl_mem mem = slot_binding(t, arg->slot, &offset);
            cl_int err = set_step_arg(s, arg, mem, offset);
            if (err != CL_SUCCESS)
                return dmli_fail_cl(err, "clSetKernelArg");
        }
    }
    p->args_table = t;
    p->args_generation = t->generation;
    return S_OK;
}

static HRESULT enqueue_status_fill(dmlcl_binding_table *t, cl_command_queue q, cl_uint *nwait,
                                   const cl_event **wait, cl_event *fill)
{
    cl_uint init = UINT32_MAX;
    cl_int err =
        clEnqueueFillBuffer(q, t->status, &init, sizeof init, 0, sizeof init, *nwait, *wait, fill);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clEnqueueFillBuffer (status)");
    *nwait = 1;
    *wait = fill;
    return S_OK;
}

/* The status read after the last step (done), on the dispatch's queue. */
static HRESULT enqueue_status_read(dmlcl_binding_table *t, cl_command_queue q, cl_event done)
{
    cl_int err = clEnqueueReadBuffer(q, t->status, CL_FALSE, 0, sizeof t->status_host,
                                     &t->status_host, 1, &done, &t->status_read);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clEnqueueReadBuffer (status)");
    /* The offending index is read on this queue too: the caller's queue may be the only one
     * its thread may use (PoCL's basic driver shares none safely). */
    if (t->status_queue != q) {
        clRetainCommandQueue(q);
        if (t->status_queue)
            clReleaseCommandQueue(t->status_queue);
        t->status_queue = q;
    }
    return S_OK;
}

/* The steps in order, each after the one before it (the queue may be out of order: a graph's
 * steps depend on each other, an operator's write disjoint parts but a caller's event covers
 * them all). Under the program's lock. */
static HRESULT enqueue_steps(dmlcl_binding_table *t, cl_command_queue q, cl_uint nwait,
                             const cl_event *wait, cl_event *event)
{
    const dmli_program *p = &t->compiled->program;
    DMLI_TRY(set_args(t));
    cl_event fill = NULL;
    if (t->status)
        DMLI_TRY(enqueue_status_fill(t, q, &nwait, &wait, &fill));
    cl_event done = NULL;
    const bool profile = dmli_profile_enabled();
    bool want_done = event || t->status || profile;
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < p->n_steps && err == CL_SUCCESS; ++i) {
        const dmli_step *s = &p->steps[i];
        bool last = i + 1 == p->n_steps;
        cl_event prev = done;
        done = NULL;
        err = clEnqueueNDRangeKernel(q, s->kernel, 3, NULL, s->global, s->local, prev ? 1 : nwait,
                                     prev ? &prev : wait, (!last || want_done) ? &done : NULL);
        if (err == CL_SUCCESS && profile)
            dmli_profile_watch(&t->compiled->program, i, done);
        if (prev)
            clReleaseEvent(prev);
    }
    if (fill)
        clReleaseEvent(fill);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clEnqueueNDRangeKernel");
    if (t->status) {
        HRESULT hr = enqueue_status_read(t, q, done);
        if (FAILED(hr)) {
            clReleaseEvent(done);
            return hr;
        }
    }
    if (event)
        *event = done;
    else if (done)
        clReleaseEvent(done);
    return S_OK;
}

HRESULT dmlcl_binding_table_dispatch(dmlcl_binding_table *t, cl_command_queue queue, cl_uint nwait,
                                     const cl_event *wait, cl_event *event)
{
    DMLI_NULL_IF(!t, "RecordDispatch: the binding table (NULL) is required");
    dmli_program *p = &t->compiled->program;
    DMLI_TRY(check_bound(t));
    if (t->hazards_checked != t->generation + 1) { /* bindings change only by Bind */
        DMLI_TRY(check_hazards(t));
        t->hazards_checked = t->generation + 1;
    }
    cl_command_queue q = queue ? queue : p->dev->queue;
    if (t->status_read) {
        clReleaseEvent(t->status_read);
        t->status_read = NULL;
    }
    if (!p->n_steps) {
        cl_int err = event ? clEnqueueMarkerWithWaitList(q, nwait, wait, event) : CL_SUCCESS;
        return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    pthread_mutex_lock(&p->lock);
    HRESULT hr = enqueue_steps(t, q, nwait, wait, event);
    pthread_mutex_unlock(&p->lock);
    return hr;
}
