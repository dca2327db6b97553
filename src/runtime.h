/* SPDX-License-Identifier: MIT */
/* runtime.c's internals shared with execute.c and graph_api.c: the objects. */
#ifndef DMLI_RUNTIME_H
#define DMLI_RUNTIME_H

#include <pthread.h>

#include "bands.h"
#include "graph.h"
#include "launch.h"

struct dmlcl_operator {
    int refcount;
    dmlcl_device *device; /* NULL: host-only */
    const dmli_op_class *cls;
    dmli_op_state st;
};

/* One kernel of a compiled operator: its launch, and the slots its arguments bind. */
typedef struct dmli_op_kernel {
    dmli_launch launch; /* a band's: its grid only (the rest is the band's launch) */
    cl_kernel kernel;
    cl_mem shape;          /* the launch's shape buffer (a band's: its table) */
    const dmli_plan *plan; /* the operator's plan, or own */
    dmli_plan own;         /* a step's plan, normalised for its kernel */
    int input;             /* input slot, or DMLI_STEP_CONSTANT */
    uint32_t output;
    bool band; /* the band of the operator's steps (runtime_bands.c) */
} dmli_op_kernel;

/* A compiled operator's band: the band, its launch, and the fill constant replicated. */
typedef struct dmli_op_band {
    dmli_band band;
    dmli_band_launch launch;
    cl_mem constant;
} dmli_op_band;

struct dmlcl_compiled_operator {
    int refcount;
    dmlcl_operator *op;
    uint32_t n_kernels; /* 0 when the output is empty */
    dmli_op_kernel *kernels;
    cl_mem constant;      /* the fills' element (steps reading DMLI_STEP_CONSTANT) */
    dmli_op_band *band;   /* NULL: every step its own kernel */
    pthread_mutex_t lock; /* kernel arguments are per kernel: one dispatch at a time */
    /* The table (and its binding generation) whose buffers the kernel holds. */
    const dmlcl_binding_table *args_table;
    unsigned args_generation;
    dmli_graph_exec *graph;    /* a compiled graph (graph_exec.c); op is then NULL */
    uint64_t persistent_bytes; /* PersistentResourceSize: its owned inputs' copies */
};

struct dmlcl_binding_table {
    dmlcl_compiled_operator *compiled;
    DML_BUFFER_BINDING inputs[DMLI_MAX_SLOTS], outputs[DMLI_MAX_SLOTS];
    bool inputs_bound, outputs_bound;
    unsigned generation;           /* counts Bind calls: kernel arguments are reset after one */
    unsigned hazards_checked;      /* generation + 1 whose bindings passed check_hazards */
    cl_mem status;                 /* ERROR policy: smallest bad index position */
    cl_uint status_host;           /* read back after each dispatch */
    cl_event status_read;          /* NULL when no dispatch is pending */
    cl_command_queue status_queue; /* the last ERROR-policy dispatch's queue (retained) */
    dmli_graph_binds *graph_binds; /* a compiled graph's bindings (graph_exec.c) */
    DML_BUFFER_BINDING persistent; /* BindPersistentResource (Buffer NULL: none bound) */
};

/* The compiled operator's state, with its operator's name and device (borrowed). */
const dmli_op_state *dmli_compiled_operator_state(const dmlcl_compiled_operator *compiled,
                                                  const char **name, dmlcl_device **device);

/*
 * One buffer binding checked against a tensor (type, alignment, size, inside
 * its cl_mem, of the device's context); op, call, i and name make the
 * messages. Also graph_exec.c's.
 */
HRESULT dmli_runtime_check_binding(const char *op, const char *call, UINT i, const char *name,
                                   const dmli_tensor *tensor, const DML_BINDING_DESC *b,
                                   cl_context context, DML_BUFFER_BINDING *out);

/*
 * The temporary or persistent resource (kind "temporary" or "persistent") of
 * size bytes: a buffer of at least size bytes at a multiple of align; when
 * size is 0, DML_BINDING_TYPE_NONE or NULL only (DirectML's rule: it refuses
 * a resource the dispatchable does not need, microsoft/DirectML#65). *out is
 * the checked binding, zeroes when none. Also graph_api.c's and graph_exec.c's.
 */
HRESULT dmli_runtime_check_resource(const char *op, const char *call, const char *kind,
                                    uint64_t size, uint64_t align, const DML_BINDING_DESC *b,
                                    cl_context context, DML_BUFFER_BINDING *out);

/*
 * Inputs with DML_TENSOR_FLAG_OWNED_BY_DML are copied into the persistent
 * resource at initialization, in slot order, each at a multiple of
 * DML_PERSISTENT_BUFFER_ALIGNMENT; execution reads them there.
 * dmli_persistent_offset gives input i's place (i == n: the resource's size).
 */
bool dmli_owned(const dmli_tensor *t);
uint64_t dmli_persistent_offset(const dmli_tensor *inputs, uint32_t n, uint32_t i);
/* Owned input i's copy in persistent (zeroes while persistent->Buffer is NULL). */
DML_BUFFER_BINDING dmli_persistent_slice(const dmli_tensor *inputs, uint32_t n, uint32_t i,
                                         const DML_BUFFER_BINDING *persistent);
/* Sets c->persistent_bytes from its inputs (a compiled operator's or graph's, once compiled). */
void dmli_runtime_persistent_size(dmlcl_compiled_operator *c);
/* An execution binding of owned input i: it must be DML_BINDING_TYPE_NONE; *out is its
 * copy in persistent (zeroes while persistent->Buffer is NULL). Also graph_exec.c's. */
HRESULT dmli_owned_binding(const char *op, const char *call, uint32_t i, const char *name,
                           const dmli_tensor *inputs, uint32_t n, const DML_BINDING_DESC *b,
                           const DML_BUFFER_BINDING *persistent, DML_BUFFER_BINDING *out);

/* The kernel of a launch (program from the device's cache) with its shape buffer
 * created and set; an operator's or a graph step's (graph_exec.c). */
HRESULT dmli_runtime_build_kernel(dmlcl_device *dev, const dmli_launch *l, cl_kernel *kernel,
                                  cl_mem *shape);

/*
 * runtime_bands.c: the band of c's steps as kernel k, unless DMLCL_BANDS=0 or
 * the steps run per step (then c->band stays NULL and k is untouched).
 */
HRESULT dmli_runtime_band_compile(dmlcl_compiled_operator *c, dmli_op_kernel *k);
/* The band kernel's buffers and base offsets from t's bindings. */
HRESULT dmli_runtime_band_args(const dmlcl_binding_table *t, const dmli_op_kernel *k);
void dmli_runtime_band_release(dmlcl_compiled_operator *c);

/* Synchronous execution (execute.c, graph_host.c): a queue of the call's own (execute may
 * run on several threads at once) and the device's largest allocation. */
HRESULT dmli_execute_begin(dmlcl_device *dev, cl_command_queue *queue, cl_ulong *max_alloc);
/* A device buffer of bytes (at least 4) for one tensor, written from host on queue
 * unless host is NULL; too large for the device is E_OUTOFMEMORY before allocating. */
HRESULT dmli_execute_stage(dmlcl_device *dev, cl_command_queue queue, cl_ulong max_alloc,
                           const char *op, const char *name, uint64_t bytes, const void *host,
                           cl_mem *mem, DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc);

/* A synchronous call's owned inputs (staged in descs[0..n)): copied into a persistent
 * resource of the call's own by dmlcl_compiled_operator_initialize, their bindings then
 * NONE; *desc binds the resource (NONE when PersistentResourceSize is 0). */
HRESULT dmli_execute_persistent(dmlcl_compiled_operator *c, dmlcl_device *dev,
                                cl_command_queue queue, cl_ulong max_alloc, const char *op,
                                const dmli_tensor *inputs, uint32_t n, DML_BINDING_DESC *descs,
                                cl_mem *mem, DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc);

/* dmlcl_compiled_operator_execute for a compiled graph (graph_host.c). */
HRESULT dmli_graph_execute(dmlcl_compiled_operator *compiled, UINT input_count,
                           const dmlcl_host_tensor *inputs, UINT output_count,
                           const dmlcl_host_tensor *outputs);

#endif /* DMLI_RUNTIME_H */
