/* SPDX-License-Identifier: MIT */
/*
 * The objects of the C API (runtime.c, dispatch.c, execute.c, status.c): operators,
 * compiled operators (an operator's or a graph's program), binding tables.
 */
#ifndef DMLI_RUNTIME_H
#define DMLI_RUNTIME_H

#include "graph.h"
#include "program.h"

/* A compiled operator or graph: its program, and what the program's signature borrows. */
struct dmlcl_compiled_operator {
    int refcount;
    dmlcl_operator *op; /* an operator's; NULL for a graph */
    dmli_graph *graph;  /* a graph's validated graph (its binding tensors); NULL for an operator */
    dmlcl_device *device;
    dmli_program program;
};

struct dmlcl_binding_table {
    dmlcl_compiled_operator *compiled;
    DML_BUFFER_BINDING *inputs, *outputs; /* per slot of the signature */
    DML_BUFFER_BINDING *checked;          /* a Bind call's bindings until all pass */
    DML_BUFFER_BINDING temp, persistent;  /* Buffer NULL: none bound */
    bool inputs_bound, outputs_bound, temp_bound;
    unsigned generation;           /* counts Bind calls: kernel arguments are reset after one */
    unsigned hazards_checked;      /* generation + 1 whose bindings passed the hazard check */
    cl_mem status;                 /* ERROR policy: smallest bad index position */
    cl_uint status_host;           /* read back after each dispatch */
    cl_event status_read;          /* NULL when no dispatch is pending */
    cl_command_queue status_queue; /* the last ERROR-policy dispatch's queue (retained) */
};

/* graph_compile.c: a validated graph's program (its planned steps, constants, signature). */
HRESULT dmli_graph_compile(const dmli_graph *graph, dmli_program *program);

#endif /* DMLI_RUNTIME_H */
