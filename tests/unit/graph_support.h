/* SPDX-License-Identifier: MIT */
/*
 * graph_support.h: building DML_GRAPH_DESCs in unit tests (nodes from
 * host-only operators, edges in order) and running a graph plan on host
 * memory through plan_eval.
 */
#ifndef DMLCL_TESTS_UNIT_GRAPH_SUPPORT_H
#define DMLCL_TESTS_UNIT_GRAPH_SUPPORT_H

#include "graph.h"

#define UG_MAX 24

typedef struct unit_graph {
    UINT n_nodes, n_in, n_out, n_mid;
    DML_GRAPH_NODE_DESC nodes[UG_MAX];
    DML_OPERATOR_GRAPH_NODE_DESC ops[UG_MAX];
    DML_CONSTANT_DATA_GRAPH_NODE_DESC consts[UG_MAX];
    dmlcl_operator *owned[UG_MAX];
    DML_INPUT_GRAPH_EDGE_DESC in[UG_MAX];
    DML_OUTPUT_GRAPH_EDGE_DESC out[UG_MAX];
    DML_INTERMEDIATE_GRAPH_EDGE_DESC mid[UG_MAX];
    DML_GRAPH_EDGE_DESC in_e[UG_MAX], out_e[UG_MAX], mid_e[UG_MAX];
    DML_GRAPH_DESC desc;
} unit_graph;

void ug_init(unit_graph *g);
/* A node running a host-only operator made from (type, desc); its index. */
UINT ug_node(unit_graph *g, DML_OPERATOR_TYPE type, const void *desc);
UINT ug_constant(unit_graph *g, const void *data, size_t size);
void ug_input(unit_graph *g, UINT graph_input, UINT node, UINT slot);
void ug_edge(unit_graph *g, UINT from, UINT to, UINT slot);
void ug_output(unit_graph *g, UINT node, UINT graph_output);
/* The same from a node's output other than 0 (SPLIT's). */
void ug_edge_from(unit_graph *g, UINT from, UINT from_output, UINT to, UINT slot);
void ug_output_from(unit_graph *g, UINT node, UINT node_output, UINT graph_output);
/* The description with these counts (edges as added). */
DML_GRAPH_DESC *ug_desc(unit_graph *g, UINT inputs, UINT outputs);
void ug_free(unit_graph *g);

/* Imports and plans desc (asserting success). */
void ug_plan(const DML_GRAPH_DESC *desc, dmli_graph **graph, dmli_graph_plan **plan);

/* Runs every step on host buffers: inputs/outputs by graph index, temp of temp_bytes. */
void ug_run(const dmli_graph *graph, const dmli_graph_plan *plan, void *const *inputs,
            void *const *outputs, void *temp);

/* Identity FLOAT32 of rank 2 {r,c}, packed: a handy node. */
UINT ug_identity(unit_graph *g, UINT r, UINT c);

#endif /* DMLCL_TESTS_UNIT_GRAPH_SUPPORT_H */
