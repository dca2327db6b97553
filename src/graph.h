/* SPDX-License-Identifier: MIT */
/*
 * DirectML graphs (IDMLDevice1::CompileGraph) on the host:
 *   graph.c       validates a DML_GRAPH_DESC into a dmli_graph (every rule
 *                 DirectML states, each violation an E_INVALIDARG naming the
 *                 node, the edge and the rule);
 *   graph_plan.c  fuses its nodes' plans (fuse.c) into the steps a compiled
 *                 graph dispatches, one kernel each, and lays out the
 *                 intermediate tensors that stay in the temporary resource.
 * Pure host code: a graph plan is plain data, unit-tested without a device;
 * graph_compile.c makes it a program (program.h), as an operator's steps are.
 */
#ifndef DMLI_GRAPH_H
#define DMLI_GRAPH_H

#include "internal.h"

/* What feeds a node input. */
typedef enum dmli_source_kind {
    DMLI_SOURCE_NONE,  /* an absent optional tensor */
    DMLI_SOURCE_INPUT, /* graph input `index` */
    DMLI_SOURCE_NODE,  /* output `output` of node `index` (operator or constant) */
} dmli_source_kind;

typedef struct dmli_source {
    dmli_source_kind kind;
    uint32_t index;
    uint32_t output;
} dmli_source;

/*
 * A node costs what it has: its operator is shared (the graph holds a
 * reference), not copied, and its per-slot arrays are slices of the graph's
 * pools, sized by the node's own input and output counts.
 */
typedef struct dmli_graph_node {
    const char *name;   /* DirectML's operator name ("SLICE"), or "CONSTANT" */
    dmlcl_operator *op; /* operator nodes: the operator (a reference), else NULL */
    /* Operator nodes: the operator's state (tensors, plan), borrowed from op. NULL for constants.
     */
    const dmli_op_state *st;
    /* Constant data nodes (DML_TARGET_VERSION >= 0x6200): a copy of the bytes. */
    void *data;
    uint64_t data_size;
    uint32_t n_inputs, n_outputs; /* the operator's slots; 0 and 1 for a constant */
    uint32_t output_base;         /* its outputs' first index among all node outputs */
    dmli_source *inputs;          /* per node input: what feeds it */
    uint32_t *consumers;          /* per node output: the node inputs it feeds */
    int32_t *graph_output;        /* per node output: the graph output it feeds, or -1 */
    char *label;                  /* "node 3 (GATHER \"name\")": its steps' label (owned) */
} dmli_graph_node;

typedef struct dmli_graph {
    uint32_t n_inputs, n_outputs, n_nodes;
    uint32_t n_node_outputs; /* all nodes' outputs (output_base's range) */
    dmli_graph_node *nodes;
    uint32_t *order; /* nodes in a topological order */
    /* Binding requirements: each graph input as its largest reader sees it
     * (TotalTensorSizeInBytes, alignment); each output as its node writes it. */
    dmli_tensor *inputs, *outputs;
    /* The pools behind the nodes' slot arrays. */
    dmli_source *sources;
    uint32_t *consumer_counts;
    int32_t *output_links;
    /* Graph outputs fed by a node output that already feeds another graph output (DirectMLX's
     * Compile(flags, {s, s})): graph output `to` is a copy of graph output `from`, written
     * after it by a step of its own. */
    uint32_t n_copies;
    struct dmli_graph_output_copy {
        uint32_t from, to, node;
    } * copies;
} dmli_graph;

/*
 * Work done by the validation and planning passes, per thread: each pass
 * adds one per item it visits (a node, a node slot, an edge, a step), so a
 * test can check that the work grows linearly with the graph without
 * timing anything (tests/unit/graph_scale.c).
 */
typedef struct dmli_graph_work {
    uint64_t import; /* nodes, edges and node slots validated */
    uint64_t sort;   /* nodes placed and edges released (Kahn) */
    uint64_t plan;   /* nodes planned and fusions tried */
    uint64_t emit;   /* node outputs placed and steps written */
} dmli_graph_work;
extern _Thread_local dmli_graph_work dmli_graph_work_done;

/* Validates desc (see graph.c) and keeps what the plan needs (a reference on each operator, a
 * copy of each constant): the caller's operators and description may go after. */
HRESULT dmli_graph_import(const DML_GRAPH_DESC *desc, dmli_graph **graph);
void dmli_graph_free(dmli_graph *graph);

/* ---- Graph plans (graph_plan.c) ----------------------------------------------------- */

/* One kernel: plan (normalised) with the tensors its out / in / idx arguments bind. */
typedef struct dmli_graph_step {
    dmli_plan plan;                     /* a copy, unless map is set */
    dmli_slot out, in, idx;             /* idx only for INDEXED plans */
    const dmli_map *map;                /* an element-wise step's map (the plan's maps), or NULL */
    dmli_slot ins[DMLI_MAP_MAX_INPUTS]; /* a map's (or a reduction's) inputs */
    const dmli_reduce *reduce;          /* a reduction's step (the plan's reduces), or NULL */
    dmli_slot outs[DMLI_REDUCE_MAX_OUTPUTS]; /* a reduction's outputs */
    const dmli_compute *compute;             /* a computed node's step (its operator's), or NULL */
    dmli_slot tensors[DMLI_COMPUTE_MAX_TENSORS]; /* a computed step's tensors */
    uint32_t node;  /* the node whose output the step writes (or one of its steps) */
    uint32_t fused; /* other nodes composed into this step */
} dmli_graph_step;

/* Why a node is not a step of its own, or why its output stays a tensor. */
typedef struct dmli_graph_decision {
    int fused_into;  /* the node it was composed into, or -1 */
    const char *why; /* when not fused and it feeds one node: the reason (static) */
} dmli_graph_decision;

typedef struct dmli_graph_plan {
    uint32_t n_steps;
    dmli_graph_step *steps;
    uint32_t n_maps;
    dmli_map *maps; /* the map steps' maps (normalised; views and activations composed) */
    uint32_t n_reduces;
    dmli_reduce *reduces; /* the reduction steps' reductions (normalised) */
    uint32_t n_computes;
    dmli_compute *computes;         /* the computed steps' descriptions (views fused into reads) */
    dmli_graph_decision *decisions; /* per node */
    uint64_t temp_bytes;            /* TemporaryResourceSize */
} dmli_graph_plan;

/* Alignment of each intermediate tensor in the temporary resource (DML_TEMPORARY_BUFFER_ALIGNMENT).
 */
#define DMLI_GRAPH_TEMP_ALIGN 256

HRESULT dmli_graph_plan_build(const dmli_graph *graph, dmli_graph_plan **plan);
/* The same for one device (NULL: any): the fusions that pay on its class only (a layout change
 * read by a CPU's map in tiles). */
HRESULT dmli_graph_plan_build_on(const dmli_graph *graph, const dmli_device_desc *dev,
                                 dmli_graph_plan **plan);
void dmli_graph_plan_free(dmli_graph_plan *plan);

/* DMLCL_VERBOSE is set (not "0"). */
bool dmli_graph_verbose(void);
/* DMLCL_VERBOSE: one line per fusion decision and per step, on stderr. */
void dmli_graph_plan_print(const dmli_graph *graph, const dmli_graph_plan *plan);

#endif /* DMLI_GRAPH_H */
