/* SPDX-License-Identifier: MIT */
/*
 * The object model: operators (validated, deep-copied, planned), compiled
 * operators (the launch from launch.c, its program from the device's cache,
 * the shape buffer set once, one kernel per step), binding tables (checked
 * bindings) and dispatch; status.c reads an ERROR-policy dispatch's report.
 * How a plan runs (variant, geometry, argument slots) is launch.c's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "runtime.h"

static void operator_free(dmlcl_operator *op)
{
    if (op && __atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        dmlcl_device_release(op->device);
        dmli_op_state_release(&op->st);
        free(op);
    }
}

/* ---- Operators ----------------------------------------------------------------------- */

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
     * kernel is normalised when it is compiled. */
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

/* ---- Compile: the launch (launch.c), its program, kernel and shape buffer ---------- */

#define SET_ARG(k, i, v)                                       \
    do {                                                       \
        cl_int e_ = clSetKernelArg((k), (i), sizeof(v), &(v)); \
        if (e_ != CL_SUCCESS)                                  \
            return dmli_fail_cl(e_, "clSetKernelArg");         \
    } while (0)

/* DMLCL_VERBOSE=1: one line per compile on stderr: the plan, then the launch. */
static void verbose_launch(const char *op, const dmli_plan *p, const dmli_launch *l)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *v = getenv("DMLCL_VERBOSE");
        enabled = v && *v && *v != '0';
    }
    if (!enabled)
        return;
    char line[1024], launch[768];
    int n = snprintf(line, sizeof line, "dmlcl: compile %s unit %u offsets out %lld in %lld dims",
                     op, p->elem_bytes, (long long)p->out_offset, (long long)p->in_offset);
    for (int d = 0; d < p->rank && n < (int)sizeof line; ++d)
        n += snprintf(line + n, sizeof line - (size_t)n, " [%lld: os %lld is %lld xs %lld]",
                      (long long)p->size[d], (long long)p->out_stride[d],
                      (long long)p->in_stride[d], (long long)p->idx_stride[d]);
    dmli_launch_describe(l, launch, sizeof launch);
    fprintf(stderr, "%s | %s\n", line, launch);
}

HRESULT dmli_runtime_build_kernel(dmlcl_device *dev, const dmli_launch *l, cl_kernel *kernel,
                                  cl_mem *shape)
{
    cl_program program;
    DMLI_TRY(dmli_device_program(dev, l->source, l->options, &program));
    cl_int err;
    *kernel = clCreateKernel(program, l->kernel, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateKernel");
    /* The shape buffer: set once, as one constant buffer argument (each kernel
     * argument costs PoCL ~0.2 us per enqueue). */
    *shape = clCreateBuffer(dev->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            l->shape_count * sizeof(cl_long), (void *)l->shape, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (shape arguments)");
    SET_ARG(*kernel, (cl_uint)l->args.shape, *shape);
    return S_OK;
}

/* The fills' element, padded to a whole 16-byte unit (the widest a plan moves). */
static HRESULT upload_constant(dmlcl_compiled_operator *c)
{
    cl_int err;
    c->constant = clCreateBuffer(c->op->device->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 sizeof c->op->st.constant, c->op->st.constant, &err);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clCreateBuffer (constant)");
}

/* The band of the steps (runtime_bands.c), then one kernel per step left out of it (or the
 * operator's one plan); empty plans launch nothing. */
static HRESULT compile_kernels(dmlcl_compiled_operator *c)
{
    const dmli_op_state *st = &c->op->st;
    uint32_t n = st->n_steps ? st->n_steps : 1;
    c->kernels = calloc(n + 1, sizeof *c->kernels);
    if (!c->kernels)
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    if (st->n_steps) {
        HRESULT hr = dmli_runtime_band_compile(c, &c->kernels[0]);
        c->n_kernels = c->band ? 1 : 0; /* released with the others, even half made */
        DMLI_TRY(hr);
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (c->band && c->band->band.in_band[i])
            continue;
        dmli_op_kernel *k = &c->kernels[c->n_kernels];
        if (st->n_steps) {
            k->own = st->steps[i].plan;
            dmli_plan_normalize(&k->own);
        }
        const dmli_plan *p = st->n_steps ? &k->own : &st->plan;
        if (p->empty)
            continue;
        c->n_kernels++;
        k->plan = p;
        k->input = st->n_steps ? st->steps[i].input : st->data_input;
        k->output = st->n_steps ? st->steps[i].output : 0;
        if (k->input == DMLI_STEP_CONSTANT && !c->constant)
            DMLI_TRY(upload_constant(c));
        dmli_launch_plan(p, dmli_device_get_desc(c->op->device), &k->launch);
        verbose_launch(c->op->cls->name, p, &k->launch);
        DMLI_TRY(dmli_runtime_build_kernel(c->op->device, &k->launch, &k->kernel, &k->shape));
    }
    return S_OK;
}

void dmlcl_compiled_operator_release(dmlcl_compiled_operator *c)
{
    if (!c || __atomic_sub_fetch(&c->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    for (uint32_t i = 0; i < c->n_kernels; ++i) {
        if (c->kernels[i].kernel)
            clReleaseKernel(c->kernels[i].kernel);
        if (c->kernels[i].shape)
            clReleaseMemObject(c->kernels[i].shape);
    }
    free(c->kernels);
    dmli_runtime_band_release(c);
    if (c->constant)
        clReleaseMemObject(c->constant);
    dmli_graph_exec_free(c->graph);
    operator_free(c->op);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

HRESULT dmlcl_operator_compile(dmlcl_operator *op, DML_EXECUTION_FLAGS flags,
                               dmlcl_compiled_operator **compiled)
{
    DMLI_NULL_IF(!compiled, "CompileOperator: the output pointer (NULL) is required");
    *compiled = NULL;
    DMLI_NULL_IF(!op, "CompileOperator: op (NULL) is required");
    DMLI_INVALID_IF(!op->device,
                    "%s: CompileOperator needs an operator created on a device "
                    "(this one was created with a NULL device, host-only)",
                    op->cls->name);
    DMLI_INVALID_IF((unsigned)flags & ~7u, "%s: CompileOperator flags (0x%x) has unknown bits",
                    op->cls->name, (unsigned)flags);
    dmlcl_compiled_operator *c = calloc(1, sizeof *c);
    if (!c)
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    c->refcount = 1;
    pthread_mutex_init(&c->lock, NULL);
    __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
    c->op = op;
    {
        HRESULT hr = compile_kernels(c);
        if (FAILED(hr)) {
            dmlcl_compiled_operator_release(c);
            return hr;
        }
    }
    dmli_runtime_persistent_size(c);
    *compiled = c;
    return S_OK;
}

DML_BINDING_PROPERTIES dmlcl_compiled_operator_binding_properties(const dmlcl_compiled_operator *c)
{
    DML_BINDING_PROPERTIES props = {0};
    if (c && c->graph)
        props = dmli_graph_exec_properties(c->graph);
    else /* applications size descriptor heaps from this; 0 could give empty heaps */
        props.RequiredDescriptorCount = c ? c->op->st.n_inputs + c->op->st.n_outputs : 1;
    props.PersistentResourceSize = c ? c->persistent_bytes : 0;
    return props;
}

dmlcl_operator *dmlcl_compiled_operator_operator(const dmlcl_compiled_operator *c)
{
    return c ? c->op : NULL;
}

const dmli_op_state *dmli_compiled_operator_state(const dmlcl_compiled_operator *c,
                                                  const char **name, dmlcl_device **device)
{
    *name = c->op->cls->name;
    *device = c->op->device;
    return &c->op->st;
}

/* ---- Binding tables ---------------------------------------------------------------------- */

HRESULT dmlcl_binding_table_create(dmlcl_compiled_operator *compiled, dmlcl_binding_table **table)
{
    DMLI_NULL_IF(!table, "CreateBindingTable: the output pointer (NULL) is required");
    *table = NULL;
    DMLI_NULL_IF(!compiled, "CreateBindingTable: the compiled operator (NULL) is required");
    dmlcl_binding_table *t = calloc(1, sizeof *t);
    if (!t)
        return dmli_fail(E_OUTOFMEMORY, "CreateBindingTable: out of host memory");
    if (compiled->graph) {
        HRESULT hr = dmli_graph_binds_create(compiled->graph, &t->graph_binds);
        if (FAILED(hr)) {
            free(t);
            return hr;
        }
    }
    const dmli_plan *p = compiled->graph ? NULL : &compiled->op->st.plan;
    if (p && p->kind == DMLI_PLAN_INDEXED && p->policy == DMLI_OOR_ERROR && !p->empty) {
        cl_int err;
        t->status = clCreateBuffer(compiled->op->device->context, CL_MEM_READ_WRITE,
                                   sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS) {
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
    dmli_graph_binds_free(t->graph_binds);
    pthread_mutex_lock(&t->compiled->lock); /* a later table may reuse this address */
    if (t->compiled->args_table == t)
        t->compiled->args_table = NULL;
    pthread_mutex_unlock(&t->compiled->lock);
    dmlcl_compiled_operator_release(t->compiled);
    free(t);
}

HRESULT dmli_runtime_check_binding(const char *op, const char *call, UINT i, const char *name,
                                   const dmli_tensor *tensor, const DML_BINDING_DESC *b,
                                   cl_context context, DML_BUFFER_BINDING *out)
{
    memset(out, 0, sizeof *out);
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

bool dmli_owned(const dmli_tensor *t)
{
    return t->present && (t->flags & DML_TENSOR_FLAG_OWNED_BY_DML);
}

uint64_t dmli_persistent_offset(const dmli_tensor *inputs, uint32_t n, uint32_t i)
{
    const uint64_t align = DML_PERSISTENT_BUFFER_ALIGNMENT;
    uint64_t at = 0;
    for (uint32_t k = 0; k < i && k < n; ++k)
        if (dmli_owned(&inputs[k]))
            at += (inputs[k].total_bytes + align - 1) / align * align;
    return at;
}

DML_BUFFER_BINDING dmli_persistent_slice(const dmli_tensor *inputs, uint32_t n, uint32_t i,
                                         const DML_BUFFER_BINDING *persistent)
{
    if (!persistent || !persistent->Buffer)
        return (DML_BUFFER_BINDING){NULL, 0, 0};
    return (DML_BUFFER_BINDING){persistent->Buffer,
                                persistent->Offset + dmli_persistent_offset(inputs, n, i),
                                inputs[i].total_bytes};
}

HRESULT dmli_owned_binding(const char *op, const char *call, uint32_t i, const char *name,
                           const dmli_tensor *inputs, uint32_t n, const DML_BINDING_DESC *b,
                           const DML_BUFFER_BINDING *persistent, DML_BUFFER_BINDING *out)
{
    DMLI_INVALID_IF(b->Type != DML_BINDING_TYPE_NONE,
                    "%s: %s binding %u (%s).Type (%d) must be DML_BINDING_TYPE_NONE (0): the "
                    "tensor has DML_TENSOR_FLAG_OWNED_BY_DML, so it is bound at initialization "
                    "(IDMLOperatorInitializer, dmlcl_compiled_operator_initialize) and read from "
                    "the persistent resource",
                    op, call, i, name, (int)b->Type);
    *out = dmli_persistent_slice(inputs, n, i, persistent);
    return S_OK;
}

static HRESULT bind(dmlcl_binding_table *t, bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    DMLI_NULL_IF(!t, "Bind: the binding table (NULL) is required");
    if (t->compiled->graph)
        return dmli_graph_bind(t->compiled->graph, t->graph_binds,
                               outputs ? DMLI_GRAPH_OUTPUTS : DMLI_GRAPH_INPUTS, count, b,
                               &t->persistent);
    const dmli_op_state *st = &t->compiled->op->st;
    const char *op = t->compiled->op->cls->name;
    const char *call = outputs ? "BindOutputs" : "BindInputs";
    UINT want = outputs ? st->n_outputs : st->n_inputs;
    DMLI_INVALID_IF(count != want, "%s: %s count (%u) must equal the operator's %s count (%u)", op,
                    call, count, outputs ? "output" : "input", want);
    DMLI_NULL_IF(count && !b, "%s: %s bindings (NULL) are required", op, call);
    DML_BUFFER_BINDING checked[DMLI_MAX_SLOTS];
    for (UINT i = 0; i < count; ++i) {
        const char *name = outputs ? st->output_names[i] : st->input_names[i];
        if (!outputs && dmli_owned(&st->inputs[i])) {
            DMLI_TRY(dmli_owned_binding(op, call, i, name, st->inputs, st->n_inputs, &b[i],
                                        &t->persistent, &checked[i]));
            continue;
        }
        DMLI_TRY(dmli_runtime_check_binding(op, call, i, name,
                                            outputs ? &st->outputs[i] : &st->inputs[i], &b[i],
                                            t->compiled->op->device->context, &checked[i]));
    }
    memcpy(outputs ? t->outputs : t->inputs, checked, count * sizeof *checked);
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

static bool overlap(const DML_BUFFER_BINDING *a, uint64_t an, const DML_BUFFER_BINDING *b,
                    uint64_t bn)
{
    return a->Buffer && a->Buffer == b->Buffer && a->Offset < b->Offset + bn &&
           b->Offset < a->Offset + an;
}

/* ---- Persistent resources (DML_TENSOR_FLAG_OWNED_BY_DML inputs) ------------------------- */

/* The compiled operator's inputs (a graph's: its graph inputs), its name and device. */
static const dmli_tensor *input_slots(const dmlcl_compiled_operator *c, uint32_t *n,
                                      const char **op, dmlcl_device **dev)
{
    if (c->graph) {
        const dmli_graph *g = dmli_graph_exec_graph(c->graph);
        *n = g->n_inputs;
        *op = "graph";
        *dev = dmli_graph_exec_device(c->graph);
        return g->inputs;
    }
    *n = c->op->st.n_inputs;
    *op = c->op->cls->name;
    *dev = c->op->device;
    return c->op->st.inputs;
}

static const char *input_name(const dmlcl_compiled_operator *c, uint32_t i, char *buf, size_t n)
{
    if (!c->graph)
        return c->op->st.input_names[i];
    snprintf(buf, n, "graph input %u", i);
    return buf;
}

void dmli_runtime_persistent_size(dmlcl_compiled_operator *c)
{
    uint32_t n;
    const char *op;
    dmlcl_device *dev;
    const dmli_tensor *inputs = input_slots(c, &n, &op, &dev);
    c->persistent_bytes = dmli_persistent_offset(inputs, n, n);
}

HRESULT dmli_runtime_check_resource(const char *op, const char *call, const char *kind,
                                    uint64_t size, uint64_t align, const DML_BINDING_DESC *b,
                                    cl_context context, DML_BUFFER_BINDING *out)
{
    static const DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, NULL};
    const char *field =
        strcmp(kind, "temporary") == 0 ? "TemporaryResourceSize" : "PersistentResourceSize";
    memset(out, 0, sizeof *out);
    if (!b)
        b = &none;
    DMLI_INVALID_IF(size == 0 && (unsigned)b->Type == DML_BINDING_TYPE_BUFFER,
                    "%s: %s: a buffer is bound as the %s resource, which is not needed (%s 0): "
                    "bind DML_BINDING_TYPE_NONE or nullptr, as DirectML requires (it refuses a "
                    "resource the dispatchable does not need)",
                    op, call, kind, field);
    dmli_tensor need = {0};
    need.present = size > 0;
    need.total_bytes = size;
    need.base_align = (uint32_t)align;
    char what[96];
    snprintf(what, sizeof what, "the %s resource (%s %llu)", kind, field, (unsigned long long)size);
    return dmli_runtime_check_binding(op, call, 0, what, &need, b, context, out);
}

/* A persistent resource binding for c: a buffer of PersistentResourceSize bytes at a
 * multiple of DML_PERSISTENT_BUFFER_ALIGNMENT, or NONE (NULL) when that size is 0. */
static HRESULT check_persistent(const dmlcl_compiled_operator *c, const char *call,
                                const DML_BINDING_DESC *b, DML_BUFFER_BINDING *out)
{
    uint32_t n;
    const char *op;
    dmlcl_device *dev;
    input_slots(c, &n, &op, &dev);
    return dmli_runtime_check_resource(op, call, "persistent", c->persistent_bytes,
                                       DML_PERSISTENT_BUFFER_ALIGNMENT, b, dev->context, out);
}

HRESULT dmlcl_binding_table_bind_persistent(dmlcl_binding_table *t, const DML_BINDING_DESC *b)
{
    DMLI_NULL_IF(!t, "BindPersistentResource: the binding table (NULL) is required");
    DML_BUFFER_BINDING checked;
    DMLI_TRY(check_persistent(t->compiled, "BindPersistentResource", b, &checked));
    t->persistent = checked;
    if (t->compiled->graph) {
        if (checked.Buffer)
            dmli_graph_bind_persistent(t->compiled->graph, t->graph_binds, &checked);
    } else {
        const dmli_op_state *st = &t->compiled->op->st;
        for (uint32_t i = 0; i < st->n_inputs; ++i)
            if (dmli_owned(&st->inputs[i]) && checked.Buffer)
                t->inputs[i] = dmli_persistent_slice(st->inputs, st->n_inputs, i, &checked);
    }
    t->generation++;
    return S_OK;
}

/* Execution needs the persistent resource its owned inputs were copied into. */
static HRESULT check_persistent_bound(const dmlcl_binding_table *t)
{
    uint64_t need = t->compiled->persistent_bytes;
    if (!need || t->persistent.Buffer)
        return S_OK;
    uint32_t n;
    const char *op;
    dmlcl_device *dev;
    input_slots(t->compiled, &n, &op, &dev);
    return dmli_fail(E_INVALIDARG,
                     "%s: RecordDispatch needs BindPersistentResource first: inputs with "
                     "DML_TENSOR_FLAG_OWNED_BY_DML are read from the persistent resource "
                     "(PersistentResourceSize %llu), initialized by the operator initializer",
                     op, (unsigned long long)need);
}

HRESULT dmlcl_compiled_operator_initialize(dmlcl_compiled_operator *c, cl_command_queue queue,
                                           UINT count, const DML_BINDING_DESC *inputs,
                                           const DML_BINDING_DESC *persistent, cl_uint nwait,
                                           const cl_event *wait, cl_event *event)
{
    DMLI_NULL_IF(!c, "initialize: the compiled operator (NULL) is required");
    uint32_t n;
    const char *op;
    dmlcl_device *dev;
    const dmli_tensor *slots = input_slots(c, &n, &op, &dev);
    uint64_t need = c->persistent_bytes;
    DMLI_INVALID_IF(count != n && !(count == 0 && need == 0),
                    "%s: initialize: BindInputs count (%u) must be the input count (%u), or 0 when "
                    "no input has DML_TENSOR_FLAG_OWNED_BY_DML",
                    op, count, n);
    DMLI_NULL_IF(count && !inputs, "%s: initialize: input bindings (NULL) are required", op);
    DML_BUFFER_BINDING dst;
    DMLI_TRY(
        check_persistent(c, "initialize: BindOutputs (the persistent resource)", persistent, &dst));
    char name[48];
    for (uint32_t i = 0; i < count; ++i) {
        const char *what = input_name(c, i, name, sizeof name);
        if (!dmli_owned(&slots[i])) {
            DMLI_INVALID_IF(inputs[i].Type != DML_BINDING_TYPE_NONE,
                            "%s: initialize: BindInputs binding %u (%s).Type (%d) must be "
                            "DML_BINDING_TYPE_NONE (0): only inputs with "
                            "DML_TENSOR_FLAG_OWNED_BY_DML are bound for initialization, the "
                            "others at execution",
                            op, i, what, (int)inputs[i].Type);
            continue;
        }
        DML_BUFFER_BINDING src;
        DMLI_TRY(dmli_runtime_check_binding(op, "initialize: BindInputs", i, what, &slots[i],
                                            &inputs[i], dev->context, &src));
        /* The copies may run in any order: no source lies where any copy lands. */
        DMLI_INVALID_IF(overlap(&src, slots[i].total_bytes, &dst, need),
                        "%s: initialize: BindInputs binding %u (%s) overlaps the persistent "
                        "resource it is copied into",
                        op, i, what);
    }
    /* The copies, each after the wait list; the event (or a marker) after all of them. */
    cl_command_queue q = queue ? queue : dev->queue;
    cl_event done[DMLI_MAX_SLOTS];
    cl_uint n_done = 0;
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < count && err == CL_SUCCESS; ++i) {
        if (!dmli_owned(&slots[i]) || !slots[i].total_bytes)
            continue;
        const DML_BUFFER_BINDING *src = inputs[i].Desc;
        cl_event *e = n_done < DMLI_MAX_SLOTS ? &done[n_done] : NULL;
        err = clEnqueueCopyBuffer(q, (cl_mem)src->Buffer, (cl_mem)dst.Buffer, (size_t)src->Offset,
                                  (size_t)(dst.Offset + dmli_persistent_offset(slots, n, i)),
                                  (size_t)slots[i].total_bytes, nwait, wait, e);
        if (err == CL_SUCCESS && e)
            n_done++;
        else if (err == CL_SUCCESS) /* more owned graph inputs than events kept: in order */
            err = clFinish(q);
    }
    if (err == CL_SUCCESS && event)
        err = clEnqueueMarkerWithWaitList(q, n_done ? n_done : nwait, n_done ? done : wait, event);
    for (cl_uint k = 0; k < n_done; ++k)
        clReleaseEvent(done[k]);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clEnqueueCopyBuffer (initialize)");
}

/* DirectML's hazard rules: outputs' writable areas never overlap anything,
 * except an in-place operator's input on exactly the same range. */
static HRESULT check_hazards(const dmlcl_binding_table *t)
{
    const dmli_op_state *st = &t->compiled->op->st;
    const char *op = t->compiled->op->cls->name;
    for (uint32_t o = 0; o < st->n_outputs; ++o) {
        uint64_t on = st->outputs[o].total_bytes;
        for (uint32_t i = 0; i < st->n_inputs; ++i) {
            const DML_BUFFER_BINDING *in = &t->inputs[i], *out = &t->outputs[o];
            if (!overlap(in, st->inputs[i].total_bytes, out, on))
                continue;
            bool same = in->Offset == out->Offset && st->inputs[i].total_bytes == on;
            DMLI_INVALID_IF(st->in_place && same && st->in_place_denied,
                            "%s: %s and %s share one range, but %s", op, st->input_names[i],
                            st->output_names[o], st->in_place_denied);
            DMLI_INVALID_IF(!(st->in_place && same),
                            "%s: %s and %s overlap in one cl_mem; only an in-place operator "
                            "(ELEMENT_WISE_IDENTITY) may share a range, and only the identical "
                            "range",
                            op, st->input_names[i], st->output_names[o]);
        }
        for (uint32_t p = o + 1; p < st->n_outputs; ++p)
            DMLI_INVALID_IF(overlap(&t->outputs[o], on, &t->outputs[p], st->outputs[p].total_bytes),
                            "%s: %s and %s overlap in one cl_mem", op, st->output_names[o],
                            st->output_names[p]);
    }
    return S_OK;
}

static HRESULT enqueue_status(dmlcl_binding_table *t, cl_command_queue q, cl_uint *nwait,
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

/* One kernel's buffers and base offsets from the table's bindings. */
static HRESULT set_kernel_args(const dmlcl_binding_table *t, const dmli_op_kernel *k)
{
    const dmlcl_compiled_operator *c = t->compiled;
    const dmli_op_state *st = &c->op->st;
    const dmli_plan *p = k->plan;
    const dmli_launch_args *a = &k->launch.args;
    const DML_BUFFER_BINDING *out = &t->outputs[k->output];
    cl_mem out_mem = (cl_mem)out->Buffer, in_mem = c->constant;
    cl_long unit = (cl_long)k->launch.unit;
    cl_long out_base = (cl_long)out->Offset / unit + p->out_offset, in_base = p->in_offset;
    if (k->input != DMLI_STEP_CONSTANT) {
        const DML_BUFFER_BINDING *in = &t->inputs[k->input];
        in_mem = (cl_mem)in->Buffer;
        in_base += (cl_long)in->Offset / unit;
    }
    SET_ARG(k->kernel, (cl_uint)a->out, out_mem);
    SET_ARG(k->kernel, (cl_uint)a->out_base, out_base);
    SET_ARG(k->kernel, (cl_uint)a->in, in_mem);
    SET_ARG(k->kernel, (cl_uint)a->in_base, in_base);
    if (a->idx >= 0) {
        const DML_BUFFER_BINDING *ix = &t->inputs[st->index_input];
        cl_mem idx_mem = (cl_mem)ix->Buffer;
        uint32_t ib = st->inputs[st->index_input].elem_bytes;
        cl_long idx_base = (cl_long)(ix->Offset / ib) + p->idx_offset;
        cl_mem status = t->status; /* NULL (unused) unless ERROR */
        SET_ARG(k->kernel, (cl_uint)a->idx, idx_mem);
        SET_ARG(k->kernel, (cl_uint)a->idx_base, idx_base);
        SET_ARG(k->kernel, (cl_uint)a->status, status);
    }
    return S_OK;
}

/* Sets every kernel's arguments, unless this table's are already set
 * (repeated dispatches of one table cost one enqueue per kernel). */
static HRESULT set_binding_args(dmlcl_binding_table *t)
{
    dmlcl_compiled_operator *c = t->compiled;
    if (c->args_table == t && c->args_generation == t->generation)
        return S_OK;
    c->args_table = NULL;
    for (uint32_t i = 0; i < c->n_kernels; ++i)
        DMLI_TRY(c->kernels[i].band ? dmli_runtime_band_args(t, &c->kernels[i])
                                    : set_kernel_args(t, &c->kernels[i]));
    c->args_table = t;
    c->args_generation = t->generation;
    return S_OK;
}

static HRESULT enqueue_kernel(dmlcl_binding_table *t, cl_command_queue q, cl_uint nwait,
                              const cl_event *wait, cl_event *event);

HRESULT dmlcl_binding_table_dispatch(dmlcl_binding_table *t, cl_command_queue queue, cl_uint nwait,
                                     const cl_event *wait, cl_event *event)
{
    DMLI_NULL_IF(!t, "RecordDispatch: the binding table (NULL) is required");
    dmlcl_compiled_operator *c = t->compiled;
    DMLI_TRY(check_persistent_bound(t));
    if (c->graph)
        return dmli_graph_dispatch(c->graph, t->graph_binds, queue, nwait, wait, event);
    const char *op = c->op->cls->name;
    DMLI_INVALID_IF(!t->inputs_bound || !t->outputs_bound,
                    "%s: RecordDispatch needs BindInputs and BindOutputs first", op);
    if (t->hazards_checked != t->generation + 1) { /* bindings change only by Bind */
        DMLI_TRY(check_hazards(t));
        t->hazards_checked = t->generation + 1;
    }
    cl_command_queue q = queue ? queue : c->op->device->queue;
    if (t->status_read) {
        clReleaseEvent(t->status_read);
        t->status_read = NULL;
    }
    cl_int err;
    if (!c->n_kernels) {
        err = event ? clEnqueueMarkerWithWaitList(q, nwait, wait, event) : CL_SUCCESS;
        return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    pthread_mutex_lock(&c->lock);
    HRESULT hr = enqueue_kernel(t, q, nwait, wait, event);
    pthread_mutex_unlock(&c->lock);
    return hr;
}

static HRESULT enqueue_kernel(dmlcl_binding_table *t, cl_command_queue q, cl_uint nwait,
                              const cl_event *wait, cl_event *event)
{
    dmlcl_compiled_operator *c = t->compiled;
    cl_int err;
    DMLI_TRY(set_binding_args(t));
    cl_event fill = NULL;
    if (t->status)
        DMLI_TRY(enqueue_status(t, q, &nwait, &wait, &fill));
    /* Kernels in order, each after the one before it (the queue may be out of order);
     * the steps write disjoint parts, but a caller's event covers them all. */
    cl_event done = NULL;
    bool want_done = event || t->status;
    for (uint32_t i = 0; i < c->n_kernels; ++i) {
        const dmli_op_kernel *k = &c->kernels[i];
        bool last = i + 1 == c->n_kernels;
        cl_event prev = done;
        done = NULL;
        err = clEnqueueNDRangeKernel(q, k->kernel, 3, NULL, k->launch.global, k->launch.local,
                                     prev ? 1 : nwait, prev ? &prev : wait,
                                     (!last || want_done) ? &done : NULL);
        if (prev)
            clReleaseEvent(prev);
        if (err != CL_SUCCESS)
            break;
    }
    if (fill)
        clReleaseEvent(fill);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clEnqueueNDRangeKernel");
    if (t->status) {
        err = clEnqueueReadBuffer(q, t->status, CL_FALSE, 0, sizeof t->status_host, &t->status_host,
                                  1, &done, &t->status_read);
        if (err != CL_SUCCESS) {
            clReleaseEvent(done);
            return dmli_fail_cl(err, "clEnqueueReadBuffer (status)");
        }
        /* The offending index is read on this queue too: the caller's queue may be
         * the only one its thread may use (PoCL's basic driver shares none safely). */
        if (t->status_queue != q) {
            clRetainCommandQueue(q);
            if (t->status_queue)
                clReleaseCommandQueue(t->status_queue);
            t->status_queue = q;
        }
    }
    if (event)
        *event = done;
    else if (done)
        clReleaseEvent(done);
    return S_OK;
}
