/* SPDX-License-Identifier: MIT */
/*
 * Compiled graphs on a device: the graph plan's steps, one kernel each (the
 * launch layer decides variant, grid and shape buffer per step, exactly as
 * for an operator), constant nodes uploaded once, and the bindings a table
 * holds for them: graph inputs and outputs (checked like an operator's, with
 * the graph's tensor requirements) and the temporary resource. A dispatch
 * enqueues the steps in order, each waiting on the previous one, so an
 * out-of-order queue keeps the graph's data dependencies.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "fuse.h"
#include "graph.h"
#include "runtime.h"

#define G "graph"

typedef struct exec_step {
    dmli_launch launch;
    cl_kernel kernel; /* NULL: an empty step */
    cl_mem shape;
} exec_step;

struct dmli_graph_exec {
    dmlcl_device *device;
    dmli_graph *graph; /* binding requirements, node names */
    dmli_graph_plan *plan;
    exec_step *steps;
    cl_mem *constants;    /* per node: constant data on the device, else NULL */
    pthread_mutex_t lock; /* kernel arguments: one dispatch at a time */
};

struct dmli_graph_binds {
    DML_BUFFER_BINDING *inputs, *outputs, temp;
    bool inputs_bound, outputs_bound, temp_bound;
    unsigned generation, hazards_checked;
};

void dmli_graph_exec_free(dmli_graph_exec *x)
{
    if (!x)
        return;
    for (uint32_t i = 0; x->steps && i < x->plan->n_steps; ++i) {
        if (x->steps[i].kernel)
            clReleaseKernel(x->steps[i].kernel);
        if (x->steps[i].shape)
            clReleaseMemObject(x->steps[i].shape);
    }
    for (uint32_t v = 0; x->constants && v < x->graph->n_nodes; ++v)
        if (x->constants[v])
            clReleaseMemObject(x->constants[v]);
    free(x->steps);
    free(x->constants);
    dmli_graph_plan_free(x->plan);
    dmli_graph_free(x->graph);
    dmlcl_device_release(x->device);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

/* A node's fills read its operator's constant element. */
static bool reads_constant(const dmli_op_state *st)
{
    for (uint32_t k = 0; k < st->n_steps; ++k)
        if (st->steps[k].input == DMLI_STEP_CONSTANT)
            return true;
    return false;
}

/* Constant data (and operators' fill elements) as device buffers, padded with zeros to
 * whole 16-byte units. */
static HRESULT upload_constants(dmli_graph_exec *x)
{
    const dmli_graph *g = x->graph;
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_graph_node *node = &g->nodes[v];
        if (node->st && !reads_constant(node->st))
            continue;
        const void *data = node->st ? (const void *)node->st->constant : node->data;
        uint64_t size = node->st ? sizeof node->st->constant : node->data_size;
        size_t n = (size_t)((size + 31) / 16 * 16);
        unsigned char *padded = calloc(1, n);
        if (!padded)
            return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
        memcpy(padded, data, (size_t)size);
        cl_int err;
        x->constants[v] = clCreateBuffer(x->device->context,
                                         CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, padded, &err);
        free(padded);
        if (err != CL_SUCCESS)
            return dmli_fail_cl(err, "clCreateBuffer (constant node)");
    }
    return S_OK;
}

static HRESULT build_step(dmli_graph_exec *x, const dmli_graph_step *s, exec_step *e)
{
    if (s->plan.empty)
        return S_OK;
    dmli_launch_plan(&s->plan, dmli_device_get_desc(x->device), &e->launch);
    if (dmli_graph_verbose()) {
        char line[768];
        dmli_launch_describe(&e->launch, line, sizeof line);
        fprintf(stderr, "dmlcl: graph step %u launch | %s\n", (unsigned)(s - x->plan->steps), line);
    }
    return dmli_runtime_build_kernel(x->device, &e->launch, &e->kernel, &e->shape);
}

/* The ERROR policy reports through a table's status buffer, which graph steps do not carry. */
static HRESULT check_policies(const dmli_graph *g)
{
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_op_state *st = g->nodes[v].st;
        DMLI_UNSUPPORTED_IF(st && st->plan.kind == DMLI_PLAN_INDEXED &&
                                st->plan.policy == DMLI_OOR_ERROR,
                            "CompileGraph: node %u (%s) uses the ERROR out-of-range policy, which "
                            "graphs do not support (no status per step); dispatch it as an "
                            "operator",
                            v, g->nodes[v].name);
    }
    return S_OK;
}

static HRESULT build(dmli_graph_exec *x, const DML_GRAPH_DESC *desc)
{
    DMLI_TRY(dmli_graph_import(desc, &x->graph));
    DMLI_TRY(check_policies(x->graph));
    DMLI_TRY(dmli_graph_plan_build(x->graph, &x->plan));
    dmli_graph_plan_print(x->graph, x->plan);
    x->steps = calloc(x->plan->n_steps ? x->plan->n_steps : 1, sizeof *x->steps);
    x->constants = calloc(x->graph->n_nodes, sizeof *x->constants);
    if (!x->steps || !x->constants)
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    DMLI_TRY(upload_constants(x));
    for (uint32_t i = 0; i < x->plan->n_steps; ++i)
        DMLI_TRY(build_step(x, &x->plan->steps[i], &x->steps[i]));
    return S_OK;
}

HRESULT dmli_graph_exec_create(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                               dmli_graph_exec **out)
{
    *out = NULL;
    dmli_graph_exec *x = calloc(1, sizeof *x);
    if (!x)
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    pthread_mutex_init(&x->lock, NULL);
    dmlcl_device_retain(device);
    x->device = device;
    HRESULT hr = build(x, desc);
    if (FAILED(hr)) {
        dmli_graph_exec_free(x);
        return hr;
    }
    *out = x;
    return S_OK;
}

DML_BINDING_PROPERTIES dmli_graph_exec_properties(const dmli_graph_exec *x)
{
    DML_BINDING_PROPERTIES props = {0};
    props.RequiredDescriptorCount = x->graph->n_inputs + x->graph->n_outputs + 1;
    props.TemporaryResourceSize = x->plan->temp_bytes;
    return props;
}

const dmli_graph *dmli_graph_exec_graph(const dmli_graph_exec *x)
{
    return x->graph;
}

dmlcl_device *dmli_graph_exec_device(const dmli_graph_exec *x)
{
    return x->device;
}

/* ---- Bindings ------------------------------------------------------------------------ */

HRESULT dmli_graph_binds_create(const dmli_graph_exec *x, dmli_graph_binds **out)
{
    dmli_graph_binds *b = calloc(1, sizeof *b);
    if (b) {
        b->inputs = calloc(x->graph->n_inputs ? x->graph->n_inputs : 1, sizeof *b->inputs);
        b->outputs = calloc(x->graph->n_outputs, sizeof *b->outputs);
    }
    if (!b || !b->inputs || !b->outputs) {
        dmli_graph_binds_free(b);
        return dmli_fail(E_OUTOFMEMORY, "CreateBindingTable: out of host memory");
    }
    *out = b;
    return S_OK;
}

void dmli_graph_binds_free(dmli_graph_binds *b)
{
    if (!b)
        return;
    free(b->inputs);
    free(b->outputs);
    free(b);
}

HRESULT dmli_graph_bind(const dmli_graph_exec *x, dmli_graph_binds *b, dmli_graph_port port,
                        UINT count, const DML_BINDING_DESC *desc,
                        const DML_BUFFER_BINDING *persistent)
{
    static const char *const calls[] = {"BindInputs", "BindOutputs", "BindTemporaryResource"};
    const dmli_graph *g = x->graph;
    const char *call = calls[port];
    char name[48];
    if (port == DMLI_GRAPH_TEMP) {
        DML_BUFFER_BINDING checked;
        DMLI_TRY(dmli_runtime_check_resource(G, call, "temporary", x->plan->temp_bytes,
                                             DML_TEMPORARY_BUFFER_ALIGNMENT, desc,
                                             x->device->context, &checked));
        b->temp = checked;
        b->temp_bound = true;
        b->generation++;
        return S_OK;
    }
    bool outputs = port == DMLI_GRAPH_OUTPUTS;
    UINT want = outputs ? g->n_outputs : g->n_inputs;
    DMLI_INVALID_IF(count != want, G ": %s count (%u) must equal the graph's %s count (%u)", call,
                    count, outputs ? "output" : "input", want);
    DMLI_NULL_IF(count && !desc, G ": %s bindings (NULL) are required", call);
    /* A refused call leaves the earlier bindings as they were (as BindInputs on an operator). */
    DML_BUFFER_BINDING *checked = calloc(count ? count : 1, sizeof *checked);
    if (!checked)
        return dmli_fail(E_OUTOFMEMORY, G ": %s: out of host memory", call);
    HRESULT hr = S_OK;
    for (UINT i = 0; i < count && SUCCEEDED(hr); ++i) {
        snprintf(name, sizeof name, "graph %s %u", outputs ? "output" : "input", i);
        if (!outputs && dmli_owned(&g->inputs[i]))
            hr = dmli_owned_binding(G, call, i, name, g->inputs, g->n_inputs, &desc[i], persistent,
                                    &checked[i]);
        else
            hr = dmli_runtime_check_binding(G, call, i, name,
                                            outputs ? &g->outputs[i] : &g->inputs[i], &desc[i],
                                            x->device->context, &checked[i]);
    }
    if (SUCCEEDED(hr))
        memcpy(outputs ? b->outputs : b->inputs, checked, count * sizeof *checked);
    free(checked);
    DMLI_TRY(hr);
    *(outputs ? &b->outputs_bound : &b->inputs_bound) = true;
    b->generation++;
    return S_OK;
}

void dmli_graph_bind_persistent(const dmli_graph_exec *x, dmli_graph_binds *b,
                                const DML_BUFFER_BINDING *persistent)
{
    const dmli_graph *g = x->graph;
    for (uint32_t i = 0; i < g->n_inputs; ++i)
        if (dmli_owned(&g->inputs[i]))
            b->inputs[i] = dmli_persistent_slice(g->inputs, g->n_inputs, i, persistent);
    b->generation++;
}

/* A bound range for the hazard sweep: [lo, hi) of one cl_mem, and which binding it is. */
typedef enum range_kind { RANGE_INPUT, RANGE_OUTPUT, RANGE_TEMP } range_kind;
typedef struct range {
    uintptr_t mem;
    uint64_t lo, hi;
    range_kind kind;
    uint32_t index;
} range;

static int by_place(const void *pa, const void *pb)
{
    const range *a = pa, *b = pb;
    if (a->mem != b->mem)
        return a->mem < b->mem ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static void add_range(range *r, uint32_t *n, const DML_BUFFER_BINDING *bb, uint64_t bytes,
                      range_kind kind, uint32_t index)
{
    if (bb->Buffer && bytes) /* no bytes, no hazard */
        r[(*n)++] = (range){(uintptr_t)bb->Buffer, bb->Offset, bb->Offset + bytes, kind, index};
}

/* The message for two overlapping ranges, at least one of them written. */
static HRESULT overlapping(const range *a, const range *b)
{
    if (a->kind > b->kind || (a->kind == b->kind && a->index > b->index)) {
        const range *t = a;
        a = b;
        b = t;
    }
    if (a->kind == RANGE_INPUT && b->kind == RANGE_OUTPUT)
        return dmli_fail(E_INVALIDARG,
                         G ": graph input %u and graph output %u overlap in one cl_mem", a->index,
                         b->index);
    if (a->kind == RANGE_OUTPUT && b->kind == RANGE_OUTPUT)
        return dmli_fail(E_INVALIDARG, G ": graph outputs %u and %u overlap in one cl_mem",
                         a->index, b->index);
    return dmli_fail(E_INVALIDARG,
                     G ": the temporary resource and graph %s %u overlap in one cl_mem",
                     a->kind == RANGE_INPUT ? "input" : "output", a->index);
}

/*
 * Outputs and the temporary resource are written: they overlap nothing else
 * (inputs may share bytes). A sweep over the ranges sorted by buffer and
 * start, O(k log k) in the k bindings, not pairwise: a graph may have
 * hundreds of thousands of inputs and outputs. A range overlaps an earlier
 * one of its buffer exactly when it starts before the largest end among
 * them (all of them, for a written range; the written ones, for an input).
 */
static HRESULT check_hazards(const dmli_graph_exec *x, const dmli_graph_binds *b)
{
    const dmli_graph *g = x->graph;
    range *r = malloc(((size_t)g->n_inputs + g->n_outputs + 1) * sizeof *r);
    if (!r)
        return dmli_fail(E_OUTOFMEMORY, G ": RecordDispatch: out of host memory");
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->n_inputs; ++i)
        add_range(r, &n, &b->inputs[i], g->inputs[i].total_bytes, RANGE_INPUT, i);
    for (uint32_t o = 0; o < g->n_outputs; ++o)
        add_range(r, &n, &b->outputs[o], g->outputs[o].total_bytes, RANGE_OUTPUT, o);
    add_range(r, &n, &b->temp, x->plan->temp_bytes, RANGE_TEMP, 0);
    qsort(r, n, sizeof *r, by_place);
    HRESULT hr = S_OK;
    const range *any = NULL, *written = NULL; /* the earlier ranges ending last */
    for (uint32_t k = 0; k < n && SUCCEEDED(hr); ++k) {
        const range *cur = &r[k];
        if (k == 0 || cur->mem != r[k - 1].mem)
            any = written = NULL;
        const range *prev = cur->kind == RANGE_INPUT ? written : any;
        if (prev && cur->lo < prev->hi)
            hr = overlapping(prev, cur);
        if (!any || cur->hi > any->hi)
            any = cur;
        if (cur->kind != RANGE_INPUT && (!written || cur->hi > written->hi))
            written = cur;
    }
    free(r);
    return hr;
}

/* ---- Dispatch ------------------------------------------------------------------------- */

static void slot_binding(const dmli_graph_exec *x, const dmli_graph_binds *b, dmli_slot s,
                         cl_mem *mem, uint64_t *offset)
{
    switch (s.kind) {
    case DMLI_SLOT_INPUT:
        *mem = (cl_mem)b->inputs[s.index].Buffer;
        *offset = b->inputs[s.index].Offset;
        return;
    case DMLI_SLOT_OUTPUT:
        *mem = (cl_mem)b->outputs[s.index].Buffer;
        *offset = b->outputs[s.index].Offset;
        return;
    case DMLI_SLOT_TEMP:
        *mem = (cl_mem)b->temp.Buffer;
        *offset = b->temp.Offset + s.offset;
        return;
    default: *mem = x->constants[s.index]; *offset = 0;
    }
}

#define SET_ARG(k, i, v)                                                \
    do {                                                                \
        cl_int e_ = clSetKernelArg((k), (cl_uint)(i), sizeof(v), &(v)); \
        if (e_ != CL_SUCCESS)                                           \
            return dmli_fail_cl(e_, "clSetKernelArg (graph step)");     \
    } while (0)

/* Binding offsets are multiples of 16 bytes, temporary regions of 256: whole units. */
static HRESULT set_args(const dmli_graph_exec *x, const dmli_graph_binds *b,
                        const dmli_graph_step *s, const exec_step *e)
{
    const dmli_launch_args *a = &e->launch.args;
    cl_mem mem;
    uint64_t off;
    cl_long unit = e->launch.unit, base;
    slot_binding(x, b, s->out, &mem, &off);
    base = (cl_long)off / unit + s->plan.out_offset;
    SET_ARG(e->kernel, a->out, mem);
    SET_ARG(e->kernel, a->out_base, base);
    slot_binding(x, b, s->in, &mem, &off);
    base = (cl_long)off / unit + s->plan.in_offset;
    SET_ARG(e->kernel, a->in, mem);
    SET_ARG(e->kernel, a->in_base, base);
    if (a->idx < 0)
        return S_OK;
    slot_binding(x, b, s->idx, &mem, &off);
    base = (cl_long)(off / dmli_index_type_size(s->plan.idx_type)) + s->plan.idx_offset;
    cl_mem status = NULL;
    SET_ARG(e->kernel, a->idx, mem);
    SET_ARG(e->kernel, a->idx_base, base);
    SET_ARG(e->kernel, a->status, status);
    return S_OK;
}

static HRESULT enqueue_steps(const dmli_graph_exec *x, const dmli_graph_binds *b,
                             cl_command_queue q, cl_uint nwait, const cl_event *wait,
                             cl_event *event)
{
    cl_event last = NULL;
    HRESULT hr = S_OK;
    for (uint32_t i = 0; SUCCEEDED(hr) && i < x->plan->n_steps; ++i) {
        const exec_step *e = &x->steps[i];
        if (!e->kernel)
            continue;
        hr = set_args(x, b, &x->plan->steps[i], e);
        if (FAILED(hr))
            break;
        cl_event done;
        cl_int err =
            clEnqueueNDRangeKernel(q, e->kernel, 3, NULL, e->launch.global, e->launch.local,
                                   last ? 1 : nwait, last ? &last : wait, &done);
        if (last)
            clReleaseEvent(last);
        last = err == CL_SUCCESS ? done : NULL;
        if (err != CL_SUCCESS)
            hr = dmli_fail_cl(err, "clEnqueueNDRangeKernel (graph step)");
    }
    if (SUCCEEDED(hr) && !last && event) {
        cl_int err = clEnqueueMarkerWithWaitList(q, nwait, wait, &last);
        if (err != CL_SUCCESS)
            hr = dmli_fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    if (SUCCEEDED(hr) && event)
        *event = last;
    else if (last)
        clReleaseEvent(last);
    return hr;
}

HRESULT dmli_graph_dispatch(dmli_graph_exec *x, dmli_graph_binds *b, cl_command_queue queue,
                            cl_uint nwait, const cl_event *wait, cl_event *event)
{
    DMLI_INVALID_IF(!b->inputs_bound && x->graph->n_inputs,
                    G ": RecordDispatch needs BindInputs first");
    DMLI_INVALID_IF(!b->outputs_bound, G ": RecordDispatch needs BindOutputs first");
    DMLI_INVALID_IF(x->plan->temp_bytes && !b->temp_bound,
                    G ": RecordDispatch needs BindTemporaryResource first: the graph's "
                      "TemporaryResourceSize is %llu bytes",
                    (unsigned long long)x->plan->temp_bytes);
    if (b->hazards_checked != b->generation + 1) {
        DMLI_TRY(check_hazards(x, b));
        b->hazards_checked = b->generation + 1;
    }
    pthread_mutex_lock(&x->lock);
    HRESULT hr = enqueue_steps(x, b, queue ? queue : x->device->queue, nwait, wait, event);
    pthread_mutex_unlock(&x->lock);
    return hr;
}
