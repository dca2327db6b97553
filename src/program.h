/* SPDX-License-Identifier: MIT */
/*
 * The compiled form of every operator and every graph: a program, one list of steps.
 *
 * A step is one kernel with its launch (grid, and the shape buffer or band table set once at
 * compile) and its buffer arguments, each bound to a slot: an input, an output, the temporary
 * resource at an offset, one of the program's constant buffers, or the binding table's status
 * buffer. An operator's lowering (a one-node graph: its steps, or its band) and the graph
 * planner (graph_compile.c) both produce a program; dispatch.c alone binds tables, checks
 * hazards, sets arguments and enqueues, for both.
 *
 * The signature is what a binding table binds: the input and output tensors (binding
 * requirements and names), the temporary and persistent resource sizes, whether an input
 * may share its exact range with an output (in place), and whether the steps report a bad
 * index through a status buffer (the ERROR policy).
 */
#ifndef DMLI_PROGRAM_H
#define DMLI_PROGRAM_H

#include <pthread.h>

#include "device.h"
#include "launch.h"

/* One buffer argument of a step: mem_arg gets the slot's cl_mem; base_arg (unless -1) gets
 * (binding offset + slot offset) / unit + add, the base of the kernel's view in units. */
typedef struct dmli_step_arg {
    cl_uint mem_arg;
    int base_arg;
    dmli_slot slot;
    uint32_t unit;
    int64_t add;
} dmli_step_arg;

typedef struct dmli_step {
    cl_kernel kernel;
    cl_mem table; /* the shape buffer or band table (owned) */
    size_t global[3], local[3];
    uint32_t n_args;
    dmli_step_arg *args; /* owned */
    char *label;         /* what it computes ("node 7 (GEMM)"; owned): DMLCL_PROFILE's report */
} dmli_step;

struct dmli_profile; /* profile.c: per-step device times under DMLCL_PROFILE */

typedef struct dmli_program {
    const char *name;  /* "GATHER", "graph": messages */
    const char *noun;  /* "operator", "graph" */
    dmlcl_device *dev; /* borrowed from the compiled operator */

    /* The signature. */
    uint32_t n_inputs, n_outputs;
    const dmli_tensor *inputs, *outputs; /* borrowed: the operator's or the graph's */
    const char *const *input_names, *const *output_names;
    uint64_t temp_bytes, persistent_bytes;
    /* Steps' own scratch (a split reduction's slices): at scratch_at in the temporary
     * resource, past the graph's intermediates, shared by the steps (they run in order). */
    bool has_scratch;
    uint64_t scratch_at;
    bool in_place;             /* an input may share its exact range with an output of its layout */
    bool status;               /* ERROR policy: tables keep a status buffer */
    uint32_t descriptor_count; /* RequiredDescriptorCount */

    uint32_t n_steps;
    dmli_step *steps;
    /* Run by initialization, in order, after the owned inputs' copies: they read those copies
     * (DMLI_SLOT_INPUT of an owned input) and write the persistent resource past them
     * (DMLI_SLOT_PERSISTENT); an owned filter packed once (conv_chan_pack). */
    uint32_t n_init_steps;
    dmli_step *init_steps;
    uint32_t n_constants;
    cl_mem *constants;
    char **names; /* owned names (a graph's "graph input 0"), freed with the program */

    /* Kernel arguments are per kernel: one dispatch at a time, and the table (and its
     * binding generation) whose buffers the kernels hold, so repeated dispatches of one
     * table set nothing. */
    pthread_mutex_t lock;
    const void *args_table;
    unsigned args_generation;

    /* The label given to the steps added next (the graph compiler's node; NULL: the program's
     * name), and DMLCL_PROFILE's counters (NULL until a profiled dispatch). */
    const char *label;
    struct dmli_profile *profile;
} dmli_program;

void dmli_program_init(dmli_program *p, dmlcl_device *dev, const char *name, const char *noun);
void dmli_program_free(dmli_program *p);

/* A constant buffer of the program (bytes copied, zero-padded to whole 16-byte units and at
 * least `min` bytes); *index is its CONSTANT slot index. */
HRESULT dmli_program_add_constant(dmli_program *p, const void *bytes, size_t size, size_t min,
                                  uint32_t *index);

/*
 * Appends a step: the kernel `kernel` of (source, options), its table (table_count longs, set
 * as argument table_arg), the grid, and n_args buffer arguments (copied).
 */
HRESULT dmli_program_add_step(dmli_program *p, dmli_kernel_source source, const char *options,
                              const char *kernel, const cl_long *table, size_t table_count,
                              cl_uint table_arg, const size_t global[3], const size_t local[3],
                              const dmli_step_arg *args, uint32_t n_args);

/*
 * The step of a view or indexed launch: out, in and idx bound to those slots (idx only when
 * the launch has one; its unit is idx_unit bytes), offsets from the plan, and the status
 * argument to the table's status buffer.
 */
HRESULT dmli_program_add_launch(dmli_program *p, const dmli_launch *l, const dmli_plan *plan,
                                dmli_slot out, dmli_slot in, dmli_slot idx, uint32_t idx_unit);

/* A map's step (cl/map.cl), its output and inputs bound to these slots. */
HRESULT dmli_program_add_map(dmli_program *p, const dmli_map *map, const dmli_slot *out,
                             const dmli_slot *in);

/* A reduction's step (cl/reduce.cl), its outputs and inputs bound to these slots. */
HRESULT dmli_program_add_reduce(dmli_program *p, const dmli_reduce *r, const dmli_slot *out,
                                const dmli_slot *in);

/* A computed operator's step (its family's kernel), tensor i bound to slots[i]. */
HRESULT dmli_program_add_compute(dmli_program *p, const dmli_compute *c, const dmli_slot *slots);

/* The persistent resource: inputs with DML_TENSOR_FLAG_OWNED_BY_DML, copied at
 * initialization in slot order, each at a multiple of DML_PERSISTENT_BUFFER_ALIGNMENT. */
bool dmli_owned(const dmli_tensor *t);
uint64_t dmli_persistent_offset(const dmli_tensor *inputs, uint32_t n, uint32_t i);

#endif /* DMLI_PROGRAM_H */
