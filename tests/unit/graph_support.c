/* SPDX-License-Identifier: MIT */
/* graph_support.c: see graph_support.h. */
#include <criterion/criterion.h>
#include <string.h>

#include "graph_support.h"
#include "plan_eval.h"
#include "support.h"

void ug_init(unit_graph *g)
{
    memset(g, 0, sizeof *g);
}

UINT ug_node(unit_graph *g, DML_OPERATOR_TYPE type, const void *desc)
{
    cr_assert_lt(g->n_nodes, UG_MAX);
    DML_OPERATOR_DESC od = {type, desc};
    UINT v = g->n_nodes++;
    HRESULT hr = dmlcl_operator_create(NULL, &od, &g->owned[v]);
    cr_assert(SUCCEEDED(hr), "node %u: %s", v, dmlcl_last_error());
    g->ops[v] = (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)g->owned[v], NULL};
    g->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &g->ops[v]};
    return v;
}

UINT ug_constant(unit_graph *g, const void *data, size_t size)
{
    UINT v = g->n_nodes++;
    g->consts[v] = (DML_CONSTANT_DATA_GRAPH_NODE_DESC){data, size, NULL};
    g->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_CONSTANT, &g->consts[v]};
    return v;
}

void ug_input(unit_graph *g, UINT graph_input, UINT node, UINT slot)
{
    cr_assert_lt(g->n_in, UG_MAX);
    UINT i = g->n_in++;
    g->in[i] = (DML_INPUT_GRAPH_EDGE_DESC){graph_input, node, slot, NULL};
    g->in_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &g->in[i]};
}

void ug_edge(unit_graph *g, UINT from, UINT to, UINT slot)
{
    ug_edge_from(g, from, 0, to, slot);
}

void ug_edge_from(unit_graph *g, UINT from, UINT from_output, UINT to, UINT slot)
{
    cr_assert_lt(g->n_mid, UG_MAX);
    UINT i = g->n_mid++;
    g->mid[i] = (DML_INTERMEDIATE_GRAPH_EDGE_DESC){from, from_output, to, slot, NULL};
    g->mid_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &g->mid[i]};
}

void ug_output(unit_graph *g, UINT node, UINT graph_output)
{
    ug_output_from(g, node, 0, graph_output);
}

void ug_output_from(unit_graph *g, UINT node, UINT node_output, UINT graph_output)
{
    cr_assert_lt(g->n_out, UG_MAX);
    UINT i = g->n_out++;
    g->out[i] = (DML_OUTPUT_GRAPH_EDGE_DESC){node, node_output, graph_output, NULL};
    g->out_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &g->out[i]};
}

DML_GRAPH_DESC *ug_desc(unit_graph *g, UINT inputs, UINT outputs)
{
    g->desc = (DML_GRAPH_DESC){inputs,  outputs,  g->n_nodes, g->nodes, g->n_in,
                               g->in_e, g->n_out, g->out_e,   g->n_mid, g->mid_e};
    return &g->desc;
}

void ug_free(unit_graph *g)
{
    for (UINT v = 0; v < g->n_nodes; ++v)
        dmlcl_operator_release(g->owned[v]);
}

void ug_plan(const DML_GRAPH_DESC *desc, dmli_graph **graph, dmli_graph_plan **plan)
{
    HRESULT hr = dmli_graph_import(desc, graph);
    cr_assert(SUCCEEDED(hr), "import: %s", dmlcl_last_error());
    hr = dmli_graph_plan_build(*graph, plan);
    cr_assert(SUCCEEDED(hr), "plan: %s", dmlcl_last_error());
    dmli_graph_plan_print(*graph, *plan);
}

static void *slot_ptr(const dmli_graph *graph, dmli_slot s, void *const *inputs,
                      void *const *outputs, void *temp)
{
    switch (s.kind) {
    case DMLI_SLOT_INPUT: return inputs[s.index];
    case DMLI_SLOT_OUTPUT: return outputs[s.index];
    case DMLI_SLOT_TEMP: return (char *)temp + s.offset;
    case DMLI_SLOT_STATUS: return NULL; /* programs only */
    default: /* a constant node's data, or an operator node's fill element */
        return graph->nodes[s.index].st ? (void *)graph->nodes[s.index].st->constant
                                        : graph->nodes[s.index].data;
    }
}

void ug_run(const dmli_graph *graph, const dmli_graph_plan *plan, void *const *inputs,
            void *const *outputs, void *temp)
{
    for (uint32_t i = 0; i < plan->n_steps; ++i) {
        const dmli_graph_step *s = &plan->steps[i];
        if (s->plan.empty)
            continue;
        if (s->map) {
            void *ins[DMLI_MAP_MAX_INPUTS];
            for (uint32_t k = 0; k < s->map->n_inputs; ++k)
                ins[k] = slot_ptr(graph, s->ins[k], inputs, outputs, temp);
            map_eval(s->map, slot_ptr(graph, s->out, inputs, outputs, temp), ins);
            continue;
        }
        /* Reductions run on the device only (tests/ops/graph_reduce.c). */
        cr_assert(s->reduce == NULL, "ug_run: step %u is a reduction, which it does not run", i);
        void *idx = s->plan.kind == DMLI_PLAN_INDEXED
                        ? slot_ptr(graph, s->idx, inputs, outputs, temp)
                        : NULL;
        plan_eval(&s->plan, slot_ptr(graph, s->out, inputs, outputs, temp),
                  slot_ptr(graph, s->in, inputs, outputs, temp), idx);
    }
}

UINT ug_identity(unit_graph *g, UINT r, UINT c)
{
    unit_tensor in, out;
    const UINT sizes[2] = {r, c};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {
        unit_tensor_set(&in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        unit_tensor_set(&out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), NULL};
    return ug_node(g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d);
}
