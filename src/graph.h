/*
 * DirectML graphs (IDMLDevice1::CompileGraph) on the host:
 *   graph.c       validates a DML_GRAPH_DESC into a dmlcl_graph (every rule
 *                 DirectML states, each violation an E_INVALIDARG naming the
 *                 node, the edge and the rule);
 *   graph_plan.c  fuses its nodes' plans (fuse.c) into the steps a compiled
 *                 graph dispatches, one kernel each, and lays out the
 *                 intermediate tensors that stay in the temporary resource.
 * Pure host code: a graph plan is plain data, unit-tested without a device.
 */
#ifndef DMLCL_GRAPH_H
#define DMLCL_GRAPH_H

#include "internal.h"

/* What feeds a node input. */
typedef enum dmlcl_source_kind {
    DMLCL_SOURCE_NONE,  /* an absent optional tensor */
    DMLCL_SOURCE_INPUT, /* graph input `index` */
    DMLCL_SOURCE_NODE,  /* output 0 of node `index` (operator or constant) */
} dmlcl_source_kind;

typedef struct dmlcl_source {
    dmlcl_source_kind kind;
    uint32_t index;
} dmlcl_source;

typedef struct dmlcl_graph_node {
    const char *name; /* DirectML's operator name ("SLICE"), or "CONSTANT" */
    /* Operator nodes: a copy of the operator's state (tensors, plan). NULL for constants. */
    dmlcl_op_state *st;
    /* Constant data nodes (DML_TARGET_VERSION >= 0x6200): a copy of the bytes. */
    void *data;
    uint64_t data_size;
    dmlcl_source inputs[DMLCL_MAX_SLOTS];
    uint32_t consumers; /* node inputs that output 0 feeds */
    int graph_output;   /* the graph output output 0 feeds, or -1 */
} dmlcl_graph_node;

typedef struct dmlcl_graph {
    uint32_t n_inputs, n_outputs, n_nodes;
    dmlcl_graph_node *nodes;
    uint32_t *order; /* nodes in a topological order */
    /* Binding requirements: each graph input as its largest reader sees it
     * (TotalTensorSizeInBytes, alignment); each output as its node writes it. */
    dmlcl_tensor *inputs, *outputs;
} dmlcl_graph;

/* Validates desc (see graph.c) and copies what the plan needs: the operators may go after. */
HRESULT dmlcl_graph_import(const DML_GRAPH_DESC *desc, dmlcl_graph **graph);
void dmlcl_graph_free(dmlcl_graph *graph);

/* ---- Graph plans (graph_plan.c) ----------------------------------------------------- */

typedef enum dmlcl_slot_kind {
    DMLCL_SLOT_INPUT,    /* graph input `index` */
    DMLCL_SLOT_OUTPUT,   /* graph output `index` */
    DMLCL_SLOT_TEMP,     /* the temporary resource, at `offset` bytes */
    DMLCL_SLOT_CONSTANT, /* constant node `index`'s data */
} dmlcl_slot_kind;

typedef struct dmlcl_slot {
    dmlcl_slot_kind kind;
    uint32_t index;
    uint64_t offset;
} dmlcl_slot;

/* One kernel: plan (normalised) with the tensors its out / in / idx arguments bind. */
typedef struct dmlcl_graph_step {
    dmlcl_plan plan;
    dmlcl_slot out, in, idx; /* idx only for INDEXED plans */
    uint32_t node;           /* the node whose output the step writes */
    uint32_t fused;          /* other nodes composed into this step */
} dmlcl_graph_step;

/* Why a node is not a step of its own, or why its output stays a tensor. */
typedef struct dmlcl_graph_decision {
    int fused_into;  /* the node it was composed into, or -1 */
    const char *why; /* when not fused and it feeds one node: the reason (static) */
} dmlcl_graph_decision;

typedef struct dmlcl_graph_plan {
    uint32_t n_steps;
    dmlcl_graph_step *steps;
    dmlcl_graph_decision *decisions; /* per node */
    uint64_t temp_bytes;             /* TemporaryResourceSize */
} dmlcl_graph_plan;

/* Alignment of each intermediate tensor in the temporary resource (DML_TEMPORARY_BUFFER_ALIGNMENT).
 */
#define DMLCL_GRAPH_TEMP_ALIGN 256

HRESULT dmlcl_graph_plan_build(const dmlcl_graph *graph, dmlcl_graph_plan **plan);
void dmlcl_graph_plan_free(dmlcl_graph_plan *plan);

/* DMLCL_VERBOSE is set (not "0"). */
bool dmlcl_graph_verbose(void);
/* DMLCL_VERBOSE: one line per fusion decision and per step, on stderr. */
void dmlcl_graph_plan_print(const dmlcl_graph *graph, const dmlcl_graph_plan *plan);

/* ---- Compiled graphs on a device (graph_exec.c) ----------------------------------- */

typedef struct dmlcl_graph_exec dmlcl_graph_exec;   /* a compiled graph's steps and kernels */
typedef struct dmlcl_graph_binds dmlcl_graph_binds; /* a binding table's graph bindings */

typedef enum dmlcl_graph_port {
    DMLCL_GRAPH_INPUTS,
    DMLCL_GRAPH_OUTPUTS,
    DMLCL_GRAPH_TEMP,
} dmlcl_graph_port;

HRESULT dmlcl_graph_exec_create(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                                dmlcl_graph_exec **exec);
void dmlcl_graph_exec_free(dmlcl_graph_exec *exec);
DML_BINDING_PROPERTIES dmlcl_graph_exec_properties(const dmlcl_graph_exec *exec);
/* The validated graph (binding requirements) and the device (borrowed). */
const dmlcl_graph *dmlcl_graph_exec_graph(const dmlcl_graph_exec *exec);
dmlcl_device *dmlcl_graph_exec_device(const dmlcl_graph_exec *exec);

HRESULT dmlcl_graph_binds_create(const dmlcl_graph_exec *exec, dmlcl_graph_binds **binds);
void dmlcl_graph_binds_free(dmlcl_graph_binds *binds);
/* Bind{Inputs,Outputs,TemporaryResource} (count 1 and desc NULL allowed for the temporary). */
HRESULT dmlcl_graph_bind(const dmlcl_graph_exec *exec, dmlcl_graph_binds *binds,
                         dmlcl_graph_port port, UINT count, const DML_BINDING_DESC *desc);
HRESULT dmlcl_graph_dispatch(dmlcl_graph_exec *exec, dmlcl_graph_binds *binds,
                             cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                             cl_event *event);

#endif /* DMLCL_GRAPH_H */
