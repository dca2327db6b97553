/* SPDX-License-Identifier: MIT */
/*
 * dmlcl_compiled_operator_execute: the synchronous convenience on host memory, for compiled
 * operators and graphs alike, built on the public binding-table calls: the program's inputs
 * and outputs staged in device buffers, a temporary and a persistent resource when it needs
 * them (owned inputs copied by the initializer), one dispatch, the status checked, outputs
 * read back.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "runtime.h"

/* One call's objects: its own in-order queue (execute may run on several threads at once,
 * and a queue shared between threads is not safe on every implementation). Slots: the
 * inputs, the outputs, the temporary resource, the persistent resource. */
typedef struct host_run {
    cl_command_queue queue;
    cl_ulong max_alloc; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    uint32_t count;
    cl_mem *mems;
    DML_BUFFER_BINDING *bufs;
    DML_BINDING_DESC *descs;
} host_run;

/* A device buffer of bytes (at least 4) for slot i, written from host unless it is NULL; too
 * large for the device is E_OUTOFMEMORY before allocating. */
static HRESULT stage(const dmli_program *p, host_run *r, const char *name, uint64_t bytes,
                     const void *host, uint32_t i)
{
    /* Checked before asking: an implementation may accept a size it cannot back. */
    if (bytes > r->max_alloc || bytes > SIZE_MAX)
        return dmli_fail(E_OUTOFMEMORY,
                         "%s: execute: %s needs a buffer of %llu bytes "
                         "(TotalTensorSizeInBytes), more than the device allocates at once "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu)",
                         p->name, name, (unsigned long long)bytes,
                         (unsigned long long)r->max_alloc);
    size_t n = bytes ? (size_t)bytes : 4;
    cl_int err;
    r->mems[i] = clCreateBuffer(p->dev->context, CL_MEM_READ_WRITE, n, NULL, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (execute)");
    if (host && bytes) {
        err = clEnqueueWriteBuffer(r->queue, r->mems[i], CL_FALSE, 0, n, host, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return dmli_fail_cl(err, "clEnqueueWriteBuffer (execute)");
    }
    r->bufs[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)r->mems[i], 0, n};
    r->descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &r->bufs[i]};
    return S_OK;
}

/* A tensor's host data staged (an output's too: bytes a kernel does not write are kept). */
static HRESULT stage_tensor(const dmli_program *p, host_run *r, const char *name,
                            const dmli_tensor *t, const dmlcl_host_tensor *h, uint32_t i)
{
    if (!t->present || !h->data) {
        DMLI_INVALID_IF(t->present, "%s: execute: %s (NULL host data) is required", p->name, name);
        r->descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
        return S_OK;
    }
    DMLI_INVALID_IF(h->size < t->total_bytes,
                    "%s: execute: %s host size (%llu) must be at least its "
                    "TotalTensorSizeInBytes (%llu)",
                    p->name, name, (unsigned long long)h->size, (unsigned long long)t->total_bytes);
    return stage(p, r, name, t->total_bytes, h->data, i);
}

/* The owned inputs (staged in descs[0..n)) copied into a persistent resource of the call's
 * own by the initializer, their execution bindings then NONE; descs[at] binds the resource
 * (NONE when PersistentResourceSize is 0). */
static HRESULT stage_persistent(dmlcl_compiled_operator *c, host_run *r, uint32_t at)
{
    const dmli_program *p = &c->program;
    r->descs[at] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
    if (!p->persistent_bytes)
        return S_OK;
    DMLI_TRY(stage(p, r, "the persistent resource", p->persistent_bytes, NULL, at));
    uint32_t n = p->n_inputs;
    DML_BINDING_DESC *init = malloc((n ? n : 1) * sizeof *init);
    if (!init)
        return dmli_fail(E_OUTOFMEMORY, "%s: execute: out of host memory", p->name);
    for (uint32_t i = 0; i < n; ++i) {
        bool owned = dmli_owned(&p->inputs[i]);
        init[i] = owned ? r->descs[i] : (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
        if (owned)
            r->descs[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
    }
    HRESULT hr =
        dmlcl_compiled_operator_initialize(c, r->queue, n, init, &r->descs[at], 0, NULL, NULL);
    free(init);
    return hr;
}

static HRESULT run(dmlcl_compiled_operator *c, host_run *r, const dmlcl_host_tensor *inputs,
                   const dmlcl_host_tensor *outputs)
{
    const dmli_program *p = &c->program;
    uint32_t ni = p->n_inputs, no = p->n_outputs, temp = ni + no, pers = ni + no + 1;
    for (uint32_t i = 0; i < ni; ++i)
        DMLI_TRY(stage_tensor(p, r, p->input_names[i], &p->inputs[i], &inputs[i], i));
    for (uint32_t o = 0; o < no; ++o)
        DMLI_TRY(stage_tensor(p, r, p->output_names[o], &p->outputs[o], &outputs[o], ni + o));
    if (p->temp_bytes)
        DMLI_TRY(stage(p, r, "the temporary resource", p->temp_bytes, NULL, temp));
    DMLI_TRY(stage_persistent(c, r, pers));
    dmlcl_binding_table *t;
    DMLI_TRY(dmlcl_binding_table_create(c, &t));
    HRESULT hr = dmlcl_binding_table_bind_inputs(t, ni, r->descs);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(t, no, r->descs + ni);
    if (SUCCEEDED(hr) && p->temp_bytes)
        hr = dmlcl_binding_table_bind_temporary(t, &r->descs[temp]);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_persistent(t, &r->descs[pers]);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(t, r->queue, 0, NULL, NULL);
    cl_int err = clFinish(r->queue);
    if (SUCCEEDED(hr) && err != CL_SUCCESS)
        hr = dmli_fail_cl(err, "clFinish (execute)");
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_status(t);
    dmlcl_binding_table_release(t);
    for (uint32_t o = 0; SUCCEEDED(hr) && o < no; ++o) {
        if (!r->mems[ni + o] || !p->outputs[o].total_bytes)
            continue;
        err =
            clEnqueueReadBuffer(r->queue, r->mems[ni + o], CL_TRUE, 0,
                                (size_t)p->outputs[o].total_bytes, outputs[o].data, 0, NULL, NULL);
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
    const dmli_program *p = &c->program;
    DMLI_INVALID_IF(input_count != p->n_inputs || output_count != p->n_outputs,
                    "%s: execute: counts (%u inputs, %u outputs) must be %u and %u", p->name,
                    input_count, output_count, p->n_inputs, p->n_outputs);
    DMLI_NULL_IF((input_count && !inputs) || (output_count && !outputs),
                 "%s: execute: inputs and outputs (NULL) are required", p->name);
    host_run r = {.count = input_count + output_count + 2};
    cl_int err = clGetDeviceInfo(p->dev->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof r.max_alloc,
                                 &r.max_alloc, NULL);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clGetDeviceInfo (execute)");
    r.queue = clCreateCommandQueue(p->dev->context, p->dev->device, dmli_profile_queue_properties(),
                                   &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateCommandQueue (execute)");
    r.mems = calloc(r.count, sizeof *r.mems);
    r.bufs = calloc(r.count, sizeof *r.bufs);
    r.descs = calloc(r.count, sizeof *r.descs);
    HRESULT hr = r.mems && r.bufs && r.descs
                     ? run(c, &r, inputs, outputs)
                     : dmli_fail(E_OUTOFMEMORY, "%s: execute: out of host memory", p->name);
    clFinish(r.queue);
    for (uint32_t i = 0; r.mems && i < r.count; ++i)
        if (r.mems[i])
            clReleaseMemObject(r.mems[i]);
    free(r.mems);
    free(r.bufs);
    free(r.descs);
    clReleaseCommandQueue(r.queue);
    return hr;
}
