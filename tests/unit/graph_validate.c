/* SPDX-License-Identifier: MIT */
/*
 * DML_GRAPH_DESC validation (src/graph.c): a valid two-node graph, then one
 * broken rule per test, each an E_INVALIDARG (or UNSUPPORTED where legal but
 * not implemented) whose message names the node, the edge and the rule.
 */
#include <criterion/criterion.h>

#include "graph_support.h"
#include "support.h"

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

/* graph input 0 -> node 0 (identity) -> node 1 (identity) -> graph output 0. */
static void chain(unit_graph *g)
{
    ug_init(g);
    ug_identity(g, 2, 3);
    ug_identity(g, 2, 3);
    ug_input(g, 0, 0, 0);
    ug_edge(g, 0, 1, 0);
    ug_output(g, 1, 0);
}

static HRESULT import(const DML_GRAPH_DESC *d)
{
    dmli_graph *graph = NULL;
    HRESULT hr = dmli_graph_import(d, &graph);
    dmli_graph_free(graph);
    return hr;
}

Test(graph_validate, a_chain_is_valid)
{
    unit_graph g;
    chain(&g);
    HRESULT hr = import(ug_desc(&g, 1, 1));
    cr_expect_eq(hr, S_OK, "%s", dmlcl_last_error());
    ug_free(&g);
}

Test(graph_validate, counts_and_arrays)
{
    unit_graph g;
    chain(&g);
    DML_GRAPH_DESC *d = ug_desc(&g, 1, 1);
    EXPECT(dmli_graph_import(NULL, &(dmli_graph *){NULL}), E_POINTER, "desc (NULL)");
    d->NodeCount = 0;
    EXPECT(import(d), E_INVALIDARG, "NodeCount (0)");
    d = ug_desc(&g, 1, 0);
    EXPECT(import(d), E_INVALIDARG, "OutputCount (0)");
    d = ug_desc(&g, 1, 1);
    d->Nodes = NULL;
    EXPECT(import(d), E_INVALIDARG, "Nodes (NULL)");
    d = ug_desc(&g, 1, 1);
    d->IntermediateEdges = NULL;
    EXPECT(import(d), E_INVALIDARG, "IntermediateEdges (NULL)", "IntermediateEdgeCount (1)");
    ug_free(&g);
}

Test(graph_validate, node_types_and_operators)
{
    unit_graph g;
    chain(&g);
    DML_GRAPH_DESC *d = ug_desc(&g, 1, 1);
    g.nodes[1].Type = (DML_GRAPH_NODE_TYPE)7;
    EXPECT(import(d), E_INVALIDARG, "Nodes[1].Type (7)");
    g.nodes[1].Type = DML_GRAPH_NODE_TYPE_OPERATOR;
    g.ops[1].Operator = NULL;
    EXPECT(import(d), E_INVALIDARG, "Nodes[1].Desc->Operator (NULL)");
    g.ops[1].Operator = (IDMLOperator *)g.owned[1];
    g.nodes[0].Desc = NULL;
    EXPECT(import(d), E_INVALIDARG, "Nodes[0].Desc (NULL)");
    ug_free(&g);
}

Test(graph_validate, edge_types_and_indices)
{
    unit_graph g;
    chain(&g);
    DML_GRAPH_DESC *d = ug_desc(&g, 1, 1);
    g.in_e[0].Type = DML_GRAPH_EDGE_TYPE_OUTPUT;
    EXPECT(import(d), E_INVALIDARG, "InputEdges[0].Type (2)", "DML_GRAPH_EDGE_TYPE_INPUT");
    g.in_e[0].Type = DML_GRAPH_EDGE_TYPE_INPUT;
    g.in[0].GraphInputIndex = 1;
    EXPECT(import(d), E_INVALIDARG, "InputEdges[0] (graph input 1 -> node 0 input 0)",
           "GraphInputIndex (1) must be less than InputCount (1)");
    g.in[0].GraphInputIndex = 0;
    g.in[0].ToNodeIndex = 2;
    EXPECT(import(d), E_INVALIDARG, "ToNodeIndex (2) must be less than NodeCount (2)");
    g.in[0].ToNodeIndex = 0;
    g.in[0].ToNodeInputIndex = 1;
    EXPECT(import(d), E_INVALIDARG, "ToNodeInputIndex (1)",
           "node 0 (ELEMENT_WISE_IDENTITY)'s input count (1)");
    g.in[0].ToNodeInputIndex = 0;
    g.mid[0].FromNodeIndex = 5;
    EXPECT(import(d), E_INVALIDARG, "IntermediateEdges[0] (node 5 output 0 -> node 1 input 0)",
           "FromNodeIndex (5)");
    g.mid[0].FromNodeIndex = 0;
    g.mid[0].FromNodeOutputIndex = 1;
    EXPECT(import(d), E_INVALIDARG, "FromNodeOutputIndex (1)", "output count (1)");
    g.mid[0].FromNodeOutputIndex = 0;
    g.out[0].GraphOutputIndex = 3;
    EXPECT(import(d), E_INVALIDARG, "OutputEdges[0] (node 1 output 0 -> graph output 3)",
           "GraphOutputIndex (3) must be less than OutputCount (1)");
    ug_free(&g);
}

Test(graph_validate, node_inputs_connected_exactly_once)
{
    unit_graph g;
    chain(&g);
    ug_input(&g, 0, 1, 0); /* node 1's input: also from graph input 0 */
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG,
           "IntermediateEdges[0] (node 0 output 0 -> node 1",
           "node 1 (ELEMENT_WISE_IDENTITY)'s InputTensor is already connected");
    ug_free(&g);
    chain(&g);
    g.mid[0].ToNodeIndex = 0; /* node 0's input twice, node 1's never */
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG, "IntermediateEdges[0]", "already connected");
    ug_free(&g);
    ug_init(&g);
    ug_identity(&g, 2, 3);
    ug_output(&g, 0, 0);
    EXPECT(import(ug_desc(&g, 0, 1)), E_INVALIDARG,
           "node 0 (ELEMENT_WISE_IDENTITY)'s input 0 (InputTensor) is not connected");
    ug_free(&g);
}

/*
 * A graph input no edge reads is legal (DirectML requires edges for the nodes' inputs and
 * outputs; DirectMLX's Compile asks for unused inputs): it takes no size and binds anything.
 */
Test(graph_validate, a_graph_input_may_feed_no_node)
{
    unit_graph g;
    chain(&g);
    g.in[0].GraphInputIndex = 2; /* inputs 0, 1 and 3 feed nothing */
    dmli_graph *graph = NULL;
    HRESULT hr = dmli_graph_import(ug_desc(&g, 4, 1), &graph);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_assert_eq(graph->n_inputs, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        cr_expect_eq(graph->inputs[i].present, i == 2, "graph input %u", i);
        cr_expect_eq(graph->inputs[i].unused, i != 2, "graph input %u", i);
        cr_expect_eq(graph->inputs[i].total_bytes, i == 2 ? 24u : 0u, "graph input %u", i);
    }
    dmli_graph_free(graph);
    ug_free(&g);
}

/* A graph output no edge feeds is legal too (DirectMLX leaves an empty Expression's output
 * without an edge): it takes no size and binds anything; nothing is written there. */
Test(graph_validate, a_graph_output_may_be_fed_by_no_node)
{
    unit_graph g;
    chain(&g);
    g.out[0].GraphOutputIndex = 1; /* outputs 0 and 2 are fed by nothing */
    dmli_graph *graph = NULL;
    HRESULT hr = dmli_graph_import(ug_desc(&g, 1, 3), &graph);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    for (uint32_t o = 0; o < 3; ++o) {
        cr_expect_eq(graph->outputs[o].present, o == 1, "graph output %u", o);
        cr_expect_eq(graph->outputs[o].unused, o != 1, "graph output %u", o);
    }
    dmli_graph_free(graph);
    ug_free(&g);
}

Test(graph_validate, graph_inputs_and_outputs_connected)
{
    unit_graph g;
    chain(&g);
    ug_output(&g, 0, 0);
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG, "OutputEdges[1]",
           "graph output 0 is already fed by OutputEdges[0]");
    ug_free(&g);
    /* One node output feeding three graph outputs (DirectMLX's Compile(flags, {s, s, s})):
     * graph outputs 1 and 2 are copies of graph output 0. */
    chain(&g);
    ug_output(&g, 1, 1);
    ug_output(&g, 1, 2);
    dmli_graph *graph = NULL;
    cr_assert(SUCCEEDED(dmli_graph_import(ug_desc(&g, 1, 3), &graph)), "%s", dmlcl_last_error());
    cr_assert_eq(graph->n_copies, 2);
    for (uint32_t c = 0; c < 2; ++c) {
        cr_expect_eq(graph->copies[c].from, 0);
        cr_expect_eq(graph->copies[c].to, c + 1);
        cr_expect_eq(graph->copies[c].node, 1);
        cr_expect(graph->outputs[c + 1].present && !graph->outputs[c + 1].unused);
        cr_expect_eq(graph->outputs[c + 1].total_bytes, graph->outputs[0].total_bytes);
    }
    dmli_graph_free(graph);
    ug_free(&g);
    /* Node 1's output goes nowhere. */
    chain(&g);
    g.out[0].FromNodeIndex = 0;
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG,
           "node 1 (ELEMENT_WISE_IDENTITY)'s output 0 (OutputTensor) is not connected");
    ug_free(&g);
}

Test(graph_validate, no_cycles)
{
    unit_graph g;
    ug_init(&g);
    ug_identity(&g, 2, 3);
    ug_identity(&g, 2, 3);
    ug_identity(&g, 2, 3);
    ug_edge(&g, 1, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 0, 2, 0);
    ug_output(&g, 2, 0);
    ug_output(&g, 1, 1);
    EXPECT(import(ug_desc(&g, 1, 2)), E_INVALIDARG, "form a cycle through node 0", "acyclic");
    ug_free(&g);
}

Test(graph_validate, readers_stay_inside_what_they_read)
{
    unit_graph g;
    ug_init(&g);
    ug_identity(&g, 2, 3);
    ug_identity(&g, 2, 4); /* reads 32 bytes of node 0's 24 */
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG,
           "IntermediateEdges[0] (node 0 output 0 -> node 1 input 0)",
           "node 1 (ELEMENT_WISE_IDENTITY)'s InputTensor (FLOAT32 {2,4}, TotalTensorSizeInBytes "
           "32) reads past node 0 (ELEMENT_WISE_IDENTITY)'s OutputTensor (FLOAT32 {2,3}, "
           "TotalTensorSizeInBytes 24)");
    ug_free(&g);
    /* A reinterpretation within the bytes is valid (DirectMLX's Reinterpret): {3,2}. */
    ug_init(&g);
    ug_identity(&g, 2, 3);
    ug_identity(&g, 3, 2);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    cr_expect_eq(import(ug_desc(&g, 1, 1)), S_OK, "%s", dmlcl_last_error());
    ug_free(&g);
}

Test(graph_validate, constants)
{
    static const float data[6] = {1, 2, 3, 4, 5, 6};
    unit_graph g;
    ug_init(&g);
    UINT c = ug_constant(&g, data, sizeof data - 1);
    UINT v = ug_identity(&g, 2, 3);
    ug_edge(&g, c, v, 0);
    ug_output(&g, v, 0);
    EXPECT(import(ug_desc(&g, 0, 1)), E_INVALIDARG,
           "(FLOAT32 {2,3}, 24 bytes to its last element) reads past node 0 (CONSTANT)'s DataSize "
           "(23)");
    g.consts[0].DataSize = sizeof data;
    cr_expect_eq(import(ug_desc(&g, 0, 1)), S_OK, "%s", dmlcl_last_error());
    g.out[0].FromNodeIndex = c;
    EXPECT(import(ug_desc(&g, 0, 1)), E_INVALIDARG, "node 0 (CONSTANT) is a constant");
    g.out[0].FromNodeIndex = v;
    ug_input(&g, 0, c, 0);
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG, "node 0 (CONSTANT) has no inputs");
    ug_free(&g);
}

/* MAX_POOLING2 {1,1,4,4} -> {1,1,2,2} (2x2 windows, stride 2), OutputIndicesTensor left out. */
static UINT max_pool_no_indices(unit_graph *g, DML_BUFFER_TENSOR_DESC b[2], DML_TENSOR_DESC t[2],
                                DML_MAX_POOLING2_OPERATOR_DESC *mp)
{
    static const UINT in_sizes[4] = {1, 1, 4, 4}, out_sizes[4] = {1, 1, 2, 2};
    static const UINT two[2] = {2, 2}, one[2] = {1, 1}, zero[2] = {0, 0};
    b[0] = (DML_BUFFER_TENSOR_DESC){
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, NULL, 64, 0};
    b[1] = (DML_BUFFER_TENSOR_DESC){
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0};
    t[0] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &b[0]};
    t[1] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &b[1]};
    *mp = (DML_MAX_POOLING2_OPERATOR_DESC){&t[0], &t[1], NULL, 2, two, two, zero, zero, one};
    return ug_node(g, DML_OPERATOR_MAX_POOLING2, mp);
}

/* An optional output the desc leaves out (MAX_POOLING2's OutputIndicesTensor, which ONNX
 * Runtime's DirectML provider leaves out for MaxPool without Indices) needs no edge, and an
 * edge from it is refused. */
Test(graph_validate, an_absent_optional_output_takes_no_edge)
{
    unit_graph g;
    DML_BUFFER_TENSOR_DESC b[2];
    DML_TENSOR_DESC t[2];
    DML_MAX_POOLING2_OPERATOR_DESC mp;
    ug_init(&g);
    max_pool_no_indices(&g, b, t, &mp);
    ug_input(&g, 0, 0, 0);
    ug_output(&g, 0, 0);
    HRESULT hr = import(ug_desc(&g, 1, 1));
    cr_expect_eq(hr, S_OK, "%s", dmlcl_last_error());
    ug_free(&g);
    ug_init(&g);
    max_pool_no_indices(&g, b, t, &mp);
    ug_input(&g, 0, 0, 0);
    ug_output(&g, 0, 0);
    ug_output_from(&g, 0, 1, 1);
    EXPECT(import(ug_desc(&g, 1, 2)), E_INVALIDARG, "OutputEdges[1]",
           "OutputIndicesTensor is absent (NULL) in its operator");
    ug_free(&g);
}

/*
 * A present optional output may stay unconnected (DML_GRAPH_DESC's remarks: connections for
 * every node input and output "except for inputs and outputs that are optional for the
 * associated operator"; DirectMLX's GRU with GRUOutputOptions::Both and one output used): it
 * is placed in temporary memory (tests/ops/graph.c runs it). A required output stays refused.
 */
Test(graph_validate, a_present_optional_output_may_stay_unconnected)
{
    static const UINT in_sizes[4] = {1, 1, 4, 4}, out_sizes[4] = {1, 1, 2, 2};
    static const UINT two[2] = {2, 2}, one[2] = {1, 1}, zero[2] = {0, 0};
    DML_BUFFER_TENSOR_DESC b[3] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, NULL, 64, 0},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0},
        {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0}};
    DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                            {DML_TENSOR_TYPE_BUFFER, &b[1]},
                            {DML_TENSOR_TYPE_BUFFER, &b[2]}};
    DML_MAX_POOLING2_OPERATOR_DESC mp = {&t[0], &t[1], &t[2], 2, two, two, zero, zero, one};
    unit_graph g;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_MAX_POOLING2, &mp);
    ug_input(&g, 0, 0, 0);
    ug_output(&g, 0, 0); /* OutputTensor used, OutputIndicesTensor (output 1) not */
    dmli_graph *graph = NULL;
    dmli_graph_plan *p = NULL;
    ug_plan(ug_desc(&g, 1, 1), &graph, &p);
    cr_expect_geq(p->temp_bytes, 16u, "the indices take temporary memory");
    dmli_graph_plan_free(p);
    dmli_graph_free(graph);
    ug_free(&g);
    /* SPLIT's outputs are required: one left unconnected is still refused */
    static const UINT ssz[2] = {2, 3}, half[2] = {1, 3};
    DML_BUFFER_TENSOR_DESC sb[3] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, ssz, NULL, 24, 0},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, half, NULL, 12, 0},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, half, NULL, 12, 0}};
    DML_TENSOR_DESC st[3] = {{DML_TENSOR_TYPE_BUFFER, &sb[0]},
                             {DML_TENSOR_TYPE_BUFFER, &sb[1]},
                             {DML_TENSOR_TYPE_BUFFER, &sb[2]}};
    DML_SPLIT_OPERATOR_DESC sd = {&st[0], 2, &st[1], 0};
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_SPLIT, &sd);
    ug_input(&g, 0, 0, 0);
    ug_output(&g, 0, 0);
    EXPECT(import(ug_desc(&g, 1, 1)), E_INVALIDARG,
           "node 0 (SPLIT)'s output 1 (OutputTensors[1]) is not connected");
    ug_free(&g);
}
