/* SPDX-License-Identifier: MIT */
/*
 * dmlcl_compiled_operator_execute: the synchronous convenience on host
 * memory, built on the public binding-table calls (device buffers staged,
 * one dispatch, status checked, outputs read back).
 */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "runtime.h"

/* One call's objects: its own in-order queue (execute may run on several threads at
 * once, and a queue shared between threads is not safe on every implementation). */
typedef struct host_run {
    cl_command_queue queue;
    cl_ulong max_alloc; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    cl_mem mems[2 * DMLI_MAX_SLOTS];
    DML_BUFFER_BINDING bufs[2 * DMLI_MAX_SLOTS];
    DML_BINDING_DESC descs[2 * DMLI_MAX_SLOTS];
    cl_mem persistent; /* DML_TENSOR_FLAG_OWNED_BY_DML inputs' copies */
    DML_BUFFER_BINDING persistent_buf;
    DML_BINDING_DESC persistent_desc;
} host_run;

HRESULT dmli_execute_begin(dmlcl_device *dev, cl_command_queue *queue, cl_ulong *max_alloc)
{
    cl_int err = clGetDeviceInfo(dev->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof *max_alloc,
                                 max_alloc, NULL);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clGetDeviceInfo (execute)");
    *queue = clCreateCommandQueue(dev->context, dev->device, 0, &err);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clCreateCommandQueue (execute)");
}

HRESULT dmli_execute_stage(dmlcl_device *dev, cl_command_queue queue, cl_ulong max_alloc,
                           const char *op, const char *name, uint64_t bytes, const void *host,
                           cl_mem *mem, DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc)
{
    /* Checked before asking: an implementation may accept a size it cannot back. */
    if (bytes > max_alloc || bytes > SIZE_MAX)
        return dmli_fail(E_OUTOFMEMORY,
                         "%s: execute: %s needs a buffer of %llu bytes "
                         "(TotalTensorSizeInBytes), more than the device allocates at once "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu)",
                         op, name, (unsigned long long)bytes, (unsigned long long)max_alloc);
    size_t n = bytes ? (size_t)bytes : 4;
    cl_int err;
    *mem = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, n, NULL, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (execute)");
    if (host && bytes) {
        err = clEnqueueWriteBuffer(queue, *mem, CL_FALSE, 0, n, host, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return dmli_fail_cl(err, "clEnqueueWriteBuffer (execute)");
    }
    *buf = (DML_BUFFER_BINDING){(ID3D12Resource *)*mem, 0, n};
    *desc = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, buf};
    return S_OK;
}

HRESULT dmli_execute_persistent(dmlcl_compiled_operator *c, dmlcl_device *dev,
                                cl_command_queue queue, cl_ulong max_alloc, const char *op,
                                const dmli_tensor *inputs, uint32_t n, DML_BINDING_DESC *descs,
                                cl_mem *mem, DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc)
{
    uint64_t bytes = c->persistent_bytes;
    *desc = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
    if (!bytes)
        return S_OK;
    DMLI_TRY(dmli_execute_stage(dev, queue, max_alloc, op, "the persistent resource", bytes, NULL,
                                mem, buf, desc));
    /* Initialization binds the owned inputs only; execution all but them. */
    DML_BINDING_DESC *init = malloc(n * sizeof *init);
    if (!init)
        return dmli_fail(E_OUTOFMEMORY, "%s: execute: out of host memory", op);
    for (uint32_t i = 0; i < n; ++i) {
        bool owned = dmli_owned(&inputs[i]);
        init[i] = owned ? descs[i] : (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
        if (owned)
            descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
    }
    HRESULT hr = dmlcl_compiled_operator_initialize(c, queue, n, init, desc, 0, NULL, NULL);
    free(init);
    return hr;
}

static HRESULT stage(dmlcl_device *dev, const host_run *r, const char *op, const char *name,
                     const dmli_tensor *t, const dmlcl_host_tensor *h, cl_mem *mem,
                     DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc)
{
    if (!t->present || !h->data) {
        DMLI_INVALID_IF(t->present, "%s: execute: %s (NULL host data) is required", op, name);
        *desc = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
        return S_OK;
    }
    DMLI_INVALID_IF(h->size < t->total_bytes,
                    "%s: execute: %s host size (%llu) must be at least its "
                    "TotalTensorSizeInBytes (%llu)",
                    op, name, (unsigned long long)h->size, (unsigned long long)t->total_bytes);
    return dmli_execute_stage(dev, r->queue, r->max_alloc, op, name, t->total_bytes, h->data, mem,
                              buf, desc);
}

static HRESULT run_host(dmlcl_compiled_operator *c, host_run *r, const dmlcl_host_tensor *inputs,
                        const dmlcl_host_tensor *outputs)
{
    const char *name;
    dmlcl_device *dev;
    const dmli_op_state *st = dmli_compiled_operator_state(c, &name, &dev);
    uint32_t ni = st->n_inputs, no = st->n_outputs;
    for (uint32_t i = 0; i < ni; ++i)
        DMLI_TRY(stage(dev, r, name, st->input_names[i], &st->inputs[i], &inputs[i], &r->mems[i],
                       &r->bufs[i], &r->descs[i]));
    for (uint32_t o = 0; o < no; ++o)
        DMLI_TRY(stage(dev, r, name, st->output_names[o], &st->outputs[o], &outputs[o],
                       &r->mems[ni + o], &r->bufs[ni + o], &r->descs[ni + o]));
    DMLI_TRY(dmli_execute_persistent(c, dev, r->queue, r->max_alloc, name, st->inputs, ni, r->descs,
                                     &r->persistent, &r->persistent_buf, &r->persistent_desc));
    dmlcl_binding_table *t;
    DMLI_TRY(dmlcl_binding_table_create(c, &t));
    HRESULT hr = dmlcl_binding_table_bind_inputs(t, ni, r->descs);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(t, no, r->descs + ni);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_persistent(t, &r->persistent_desc);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(t, r->queue, 0, NULL, NULL);
    cl_int err = clFinish(r->queue);
    if (SUCCEEDED(hr) && err != CL_SUCCESS)
        hr = dmli_fail_cl(err, "clFinish (execute)");
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_status(t);
    dmlcl_binding_table_release(t);
    for (uint32_t o = 0; SUCCEEDED(hr) && o < no; ++o) {
        if (!r->mems[ni + o] || !st->outputs[o].total_bytes)
            continue;
        err = clEnqueueReadBuffer(r->queue, r->mems[ni + o], CL_TRUE, 0, st->outputs[o].total_bytes,
                                  outputs[o].data, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            hr = dmli_fail_cl(err, "clEnqueueReadBuffer (execute)");
    }
    return hr;
}

HRESULT dmlcl_compiled_operator_execute(dmlcl_compiled_operator *c, UINT input_count,
                                        const dmlcl_host_tensor *inputs, UINT output_count,
                                        const dmlcl_host_tensor *outputs)
{
    DMLI_NULL_IF(!c, "execute: the compiled operator (NULL) is required");
    if (c->graph)
        return dmli_graph_execute(c, input_count, inputs, output_count, outputs);
    const char *name;
    dmlcl_device *dev;
    const dmli_op_state *st = dmli_compiled_operator_state(c, &name, &dev);
    DMLI_INVALID_IF(input_count != st->n_inputs || output_count != st->n_outputs,
                    "%s: execute: counts (%u inputs, %u outputs) must be %u and %u", name,
                    input_count, output_count, st->n_inputs, st->n_outputs);
    DMLI_NULL_IF((input_count && !inputs) || (output_count && !outputs),
                 "%s: execute: inputs and outputs (NULL) are required", name);
    host_run r;
    memset(&r, 0, sizeof r);
    DMLI_TRY(dmli_execute_begin(dev, &r.queue, &r.max_alloc));
    HRESULT hr = run_host(c, &r, inputs, outputs);
    clFinish(r.queue);
    for (size_t i = 0; i < 2 * DMLI_MAX_SLOTS; ++i)
        if (r.mems[i])
            clReleaseMemObject(r.mems[i]);
    if (r.persistent)
        clReleaseMemObject(r.persistent);
    clReleaseCommandQueue(r.queue);
    return hr;
}
