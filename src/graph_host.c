/* SPDX-License-Identifier: MIT */
/*
 * dmlcl_compiled_operator_execute for compiled graphs: the synchronous
 * convenience on host memory, through the public binding-table calls
 * (graph inputs and outputs staged in device buffers, a temporary resource
 * allocated when the graph needs one, one dispatch, outputs read back).
 */
#include <stdlib.h>

#include "device.h"
#include "runtime.h"

typedef struct staged {
    cl_command_queue queue; /* the call's own, as execute.c's */
    cl_ulong max_alloc;
    uint32_t count; /* inputs, outputs, the temporary, the persistent resource */
    cl_mem *mems;
    DML_BUFFER_BINDING *bufs;
    DML_BINDING_DESC *descs;
} staged;

/* A device copy of h (an input, or an output's bytes to keep where nothing is written). */
static HRESULT stage(dmlcl_device *dev, const staged *s, const char *what, uint32_t i,
                     uint64_t bytes, const dmlcl_host_tensor *h, uint32_t slot)
{
    DMLI_NULL_IF(h && !h->data, "graph: execute: %s %u (NULL host data) is required", what, i);
    DMLI_INVALID_IF(h && h->size < bytes,
                    "graph: execute: %s %u host size (%llu) must be at least its "
                    "TotalTensorSizeInBytes (%llu)",
                    what, i, (unsigned long long)(h ? h->size : 0), (unsigned long long)bytes);
    return dmli_execute_stage(dev, s->queue, s->max_alloc, "graph", what, bytes, h ? h->data : NULL,
                              &s->mems[slot], &s->bufs[slot], &s->descs[slot]);
}

static HRESULT run(dmlcl_compiled_operator *c, staged *s, const dmlcl_host_tensor *inputs,
                   const dmlcl_host_tensor *outputs)
{
    const dmli_graph *g = dmli_graph_exec_graph(c->graph);
    dmlcl_device *dev = dmli_graph_exec_device(c->graph);
    uint32_t ni = g->n_inputs, no = g->n_outputs;
    uint64_t temp = dmlcl_compiled_operator_binding_properties(c).TemporaryResourceSize;
    for (uint32_t i = 0; i < ni; ++i)
        DMLI_TRY(stage(dev, s, "graph input", i, g->inputs[i].total_bytes, &inputs[i], i));
    for (uint32_t o = 0; o < no; ++o)
        DMLI_TRY(stage(dev, s, "graph output", o, g->outputs[o].total_bytes, &outputs[o], ni + o));
    if (temp)
        DMLI_TRY(stage(dev, s, "temporary", 0, temp, NULL, ni + no));
    uint32_t p = ni + no + 1;
    DMLI_TRY(dmli_execute_persistent(c, dev, s->queue, s->max_alloc, "graph", g->inputs, ni,
                                     s->descs, &s->mems[p], &s->bufs[p], &s->descs[p]));
    dmlcl_binding_table *t;
    DMLI_TRY(dmlcl_binding_table_create(c, &t));
    HRESULT hr = dmlcl_binding_table_bind_inputs(t, ni, s->descs);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(t, no, s->descs + ni);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_temporary(t, temp ? &s->descs[ni + no] : NULL);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_persistent(t, &s->descs[p]);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(t, s->queue, 0, NULL, NULL);
    dmlcl_binding_table_release(t);
    for (uint32_t o = 0; SUCCEEDED(hr) && o < no; ++o) {
        if (!g->outputs[o].total_bytes)
            continue;
        cl_int err =
            clEnqueueReadBuffer(s->queue, s->mems[ni + o], CL_TRUE, 0,
                                (size_t)g->outputs[o].total_bytes, outputs[o].data, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            hr = dmli_fail_cl(err, "clEnqueueReadBuffer (execute)");
    }
    return hr;
}

HRESULT dmli_graph_execute(dmlcl_compiled_operator *c, UINT input_count,
                           const dmlcl_host_tensor *inputs, UINT output_count,
                           const dmlcl_host_tensor *outputs)
{
    const dmli_graph *g = dmli_graph_exec_graph(c->graph);
    DMLI_INVALID_IF(input_count != g->n_inputs || output_count != g->n_outputs,
                    "graph: execute: counts (%u inputs, %u outputs) must be %u and %u", input_count,
                    output_count, g->n_inputs, g->n_outputs);
    DMLI_NULL_IF((input_count && !inputs) || !outputs,
                 "graph: execute: inputs and outputs (NULL) are required");
    staged s = {.count = input_count + output_count + 2};
    DMLI_TRY(dmli_execute_begin(dmli_graph_exec_device(c->graph), &s.queue, &s.max_alloc));
    s.mems = calloc(s.count, sizeof *s.mems);
    s.bufs = calloc(s.count, sizeof *s.bufs);
    s.descs = calloc(s.count, sizeof *s.descs);
    HRESULT hr = s.mems && s.bufs && s.descs
                     ? run(c, &s, inputs, outputs)
                     : dmli_fail(E_OUTOFMEMORY, "graph: execute: out of host memory");
    clFinish(s.queue);
    for (uint32_t i = 0; s.mems && i < s.count; ++i)
        if (s.mems[i])
            clReleaseMemObject(s.mems[i]);
    free(s.mems);
    free(s.bufs);
    free(s.descs);
    clReleaseCommandQueue(s.queue);
    return hr;
}
