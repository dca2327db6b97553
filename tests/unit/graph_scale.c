/* SPDX-License-Identifier: MIT */
/*
 * Graph compile cost (issue 35): validation and planning do work linear in
 * the nodes and edges, counted, not timed (dmli_graph_work_done: one per
 * node, node slot, edge or step each pass visits). Each shape at 1k, 4k and
 * 16k nodes: every pass's count grows 4x and 16x, within a tenth, where a
 * quadratic pass would grow 16x and 256x. Then DMLCL_GRAPH_NODE_COUNT_MAX:
 * a graph that long validates and plans, one node more is refused before
 * anything is read, and so are graph input and output counts no node can
 * connect.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "graph_support.h"
#include "support.h"

typedef enum shape {
    CHAIN,          /* identity after identity: every node fused into the last */
    CHAIN_REVERSED, /* the same, nodes listed last first (the sort does the work) */
    GATHERS,        /* gather of gathered data: no fusion, a step and a temporary each */
    FAN,            /* one node read by all the others, each a graph output */
} shape;

static const char *const shape_names[] = {"chain", "reversed chain", "gathers", "fan"};

/* A DML_GRAPH_DESC of n nodes of one shape, its arrays sized for it. */
typedef struct big_graph {
    dmlcl_operator *op;
    DML_OPERATOR_GRAPH_NODE_DESC node_op;
    DML_GRAPH_NODE_DESC *nodes;
    DML_INPUT_GRAPH_EDGE_DESC *in;
    DML_INTERMEDIATE_GRAPH_EDGE_DESC *mid;
    DML_OUTPUT_GRAPH_EDGE_DESC *out;
    DML_GRAPH_EDGE_DESC *in_e, *mid_e, *out_e;
    DML_GRAPH_DESC desc;
} big_graph;

static dmlcl_operator *make_operator(shape s)
{
    unit_tensor a, b, c;
    dmlcl_operator *op = NULL;
    HRESULT hr;
    if (s == GATHERS) {
        const UINT data[2] = {4, 4}, idx[2] = {1, 4};
        DML_GATHER_OPERATOR_DESC d = {
            unit_tensor_set(&a, DML_TENSOR_DATA_TYPE_FLOAT32, 2, data, NULL),
            unit_tensor_set(&b, DML_TENSOR_DATA_TYPE_UINT32, 2, idx, NULL),
            unit_tensor_set(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, data, NULL), 0, 1};
        hr = dmlcl_operator_create(NULL, &(DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &d}, &op);
    } else {
        const UINT sizes[2] = {2, 3};
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {
            unit_tensor_set(&a, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
            unit_tensor_set(&b, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), NULL};
        hr = dmlcl_operator_create(
            NULL, &(DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, &op);
    }
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    return op;
}

static void add_input(big_graph *g, UINT graph_input, UINT to, UINT slot)
{
    UINT i = g->desc.InputEdgeCount++;
    g->in[i] = (DML_INPUT_GRAPH_EDGE_DESC){graph_input, to, slot, NULL};
    g->in_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &g->in[i]};
}

static void add_edge(big_graph *g, UINT from, UINT to, UINT slot)
{
    UINT i = g->desc.IntermediateEdgeCount++;
    g->mid[i] = (DML_INTERMEDIATE_GRAPH_EDGE_DESC){from, 0, to, slot, NULL};
    g->mid_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &g->mid[i]};
}

static void add_output(big_graph *g, UINT from, UINT graph_output)
{
    UINT i = g->desc.OutputEdgeCount++;
    g->out[i] = (DML_OUTPUT_GRAPH_EDGE_DESC){from, 0, graph_output, NULL};
    g->out_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &g->out[i]};
}

static void big_make(big_graph *g, shape s, UINT n)
{
    memset(g, 0, sizeof *g);
    g->op = make_operator(s);
    g->node_op = (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)g->op, NULL};
    g->nodes = calloc(n, sizeof *g->nodes);
    g->in = calloc(n + 1, sizeof *g->in);
    g->mid = calloc(n, sizeof *g->mid);
    g->out = calloc(n, sizeof *g->out);
    g->in_e = calloc(n + 1, sizeof *g->in_e);
    g->mid_e = calloc(n, sizeof *g->mid_e);
    g->out_e = calloc(n, sizeof *g->out_e);
    cr_assert(g->nodes && g->in && g->mid && g->out && g->in_e && g->mid_e && g->out_e);
    for (UINT v = 0; v < n; ++v)
        g->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &g->node_op};
    g->desc = (DML_GRAPH_DESC){1, 1, n, g->nodes, 0, g->in_e, 0, g->out_e, 0, g->mid_e};
    switch (s) {
    case CHAIN:
    case GATHERS:
        add_input(g, 0, 0, 0);
        for (UINT v = 1; v < n; ++v)
            add_edge(g, v - 1, v, 0);
        add_output(g, n - 1, 0);
        if (s == GATHERS) { /* every gather's indices: graph input 1 */
            g->desc.InputCount = 2;
            for (UINT v = 0; v < n; ++v)
                add_input(g, 1, v, 1);
        }
        break;
    case CHAIN_REVERSED:
        add_input(g, 0, n - 1, 0);
        for (UINT v = n - 1; v > 0; --v)
            add_edge(g, v, v - 1, 0);
        add_output(g, 0, 0);
        break;
    case FAN:
        add_input(g, 0, 0, 0);
        for (UINT v = 1; v < n; ++v) {
            add_edge(g, 0, v, 0);
            add_output(g, v, v - 1);
        }
        g->desc.OutputCount = n - 1;
        break;
    }
}

static void big_free(big_graph *g)
{
    dmlcl_operator_release(g->op);
    free(g->nodes);
    free(g->in);
    free(g->mid);
    free(g->out);
    free(g->in_e);
    free(g->mid_e);
    free(g->out_e);
}

/* The work of importing and planning a graph of n nodes; also checks what the plan is. */
static dmli_graph_work work_for(shape s, UINT n)
{
    big_graph g;
    big_make(&g, s, n);
    dmli_graph *graph;
    dmli_graph_plan *plan;
    memset(&dmli_graph_work_done, 0, sizeof dmli_graph_work_done);
    cr_assert(SUCCEEDED(dmli_graph_import(&g.desc, &graph)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmli_graph_plan_build(graph, &plan)), "%s", dmlcl_last_error());
    dmli_graph_work w = dmli_graph_work_done;
    UINT want_steps = s == CHAIN || s == CHAIN_REVERSED ? 1 : n;
    cr_expect_eq(plan->n_steps, want_steps, "%s of %u: %u steps", shape_names[s], n, plan->n_steps);
    if (s == GATHERS)
        cr_expect_eq(plan->temp_bytes, (uint64_t)(n - 2) * 256 + 64, "%s: temp %llu",
                     shape_names[s], (unsigned long long)plan->temp_bytes);
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    big_free(&g);
    return w;
}

static void expect_linear(shape s, const char *pass, uint64_t w1, uint64_t w4, uint64_t w16)
{
    cr_expect_gt(w1, 0, "%s: the %s pass counted nothing", shape_names[s], pass);
    /* 1k -> 4k -> 16k nodes: 4x and 16x the work, within a tenth. */
    cr_expect(w4 * 10 <= w1 * 44 && w16 * 10 <= w1 * 176,
              "%s: the %s pass grows faster than the graph: %llu, %llu, %llu for 1k, 4k, 16k "
              "nodes",
              shape_names[s], pass, (unsigned long long)w1, (unsigned long long)w4,
              (unsigned long long)w16);
    cr_expect(w4 * 10 >= w1 * 36 && w16 * 10 >= w1 * 144,
              "%s: the %s pass is not counted per item: %llu, %llu, %llu", shape_names[s], pass,
              (unsigned long long)w1, (unsigned long long)w4, (unsigned long long)w16);
}

Test(graph_scale, every_pass_is_linear_in_the_graph)
{
    for (shape s = CHAIN; s <= FAN; ++s) {
        dmli_graph_work w[3];
        for (int k = 0; k < 3; ++k)
            w[k] = work_for(s, 1000u << (2 * k));
        expect_linear(s, "import", w[0].import, w[1].import, w[2].import);
        expect_linear(s, "sort", w[0].sort, w[1].sort, w[2].sort);
        expect_linear(s, "plan", w[0].plan, w[1].plan, w[2].plan);
        expect_linear(s, "emit", w[0].emit, w[1].emit, w[2].emit);
    }
}

Test(graph_scale, the_node_limit)
{
    /* At the limit: validated and planned (into one step). */
    big_graph g;
    big_make(&g, CHAIN, DMLCL_GRAPH_NODE_COUNT_MAX);
    dmli_graph *graph;
    dmli_graph_plan *plan;
    cr_assert(SUCCEEDED(dmli_graph_import(&g.desc, &graph)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmli_graph_plan_build(graph, &plan)), "%s", dmlcl_last_error());
    cr_expect_eq(plan->n_steps, 1);
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    /* One more, refused before Nodes is read (it has one node too few: ASan would see it). */
    g.desc.NodeCount = DMLCL_GRAPH_NODE_COUNT_MAX + 1;
    unit_expect_error(dmli_graph_import(&g.desc, &graph), E_INVALIDARG,
                      "NodeCount (262145) is more than DMLCL_GRAPH_NODE_COUNT_MAX (262144)", NULL);
    g.desc.NodeCount = UINT32_MAX;
    unit_expect_error(dmli_graph_import(&g.desc, &graph), E_INVALIDARG, "NodeCount (4294967295)",
                      "DMLCL_GRAPH_NODE_COUNT_MAX");
    big_free(&g);
}

Test(graph_scale, counts_no_node_can_connect)
{
    /* Nothing is sized by InputCount or OutputCount beyond what the nodes can connect or
     * DMLCL_GRAPH_INPUT_COUNT_MAX and DMLCL_GRAPH_OUTPUT_COUNT_MAX. */
    big_graph g;
    big_make(&g, CHAIN, 3);
    dmli_graph *graph;
    g.desc.InputCount = UINT32_MAX;
    unit_expect_error(dmli_graph_import(&g.desc, &graph), E_INVALIDARG,
                      "InputCount (4294967295) is more than both the nodes' inputs (3)",
                      "DMLCL_GRAPH_INPUT_COUNT_MAX (65536)");
    /* Unused inputs up to the limit are legal (each feeds no node). */
    g.desc.InputCount = DMLCL_GRAPH_INPUT_COUNT_MAX;
    cr_assert(SUCCEEDED(dmli_graph_import(&g.desc, &graph)), "%s", dmlcl_last_error());
    cr_expect(graph->inputs[DMLCL_GRAPH_INPUT_COUNT_MAX - 1].unused);
    dmli_graph_free(graph);
    g.desc.InputCount = DMLCL_GRAPH_INPUT_COUNT_MAX + 1;
    unit_expect_error(dmli_graph_import(&g.desc, &graph), E_INVALIDARG,
                      "InputCount (65537) is more than both", NULL);
    g.desc.InputCount = 1;
    g.desc.OutputCount = UINT32_MAX;
    unit_expect_error(dmli_graph_import(&g.desc, &graph), E_INVALIDARG,
                      "OutputCount (4294967295) is more than both the operator nodes' outputs (3)",
                      "DMLCL_GRAPH_OUTPUT_COUNT_MAX (65536)");
    g.desc.OutputCount = DMLCL_GRAPH_OUTPUT_COUNT_MAX;
    cr_assert(SUCCEEDED(dmli_graph_import(&g.desc, &graph)), "%s", dmlcl_last_error());
    cr_expect(graph->outputs[DMLCL_GRAPH_OUTPUT_COUNT_MAX - 1].unused);
    dmli_graph_free(graph);
    big_free(&g);
}
