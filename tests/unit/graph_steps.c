/* SPDX-License-Identifier: MIT */
/*
 * Graphs with multi-kernel, multi-output operators (src/graph.c,
 * src/graph_plan.c): a SPLIT node's outputs feed different nodes and graph
 * outputs by FromNodeOutputIndex; JOIN and PADDING nodes run as their own
 * steps (never fused), reading their inputs' slots and their fill element.
 * Expected values are written out by hand from the operators' definitions.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "graph_support.h"
#include "support.h"

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

/* SPLIT of a FLOAT32 {r, c} along axis 0 into rows {a, c} and {r - a, c}. */
static UINT split_rows(unit_graph *g, UINT r, UINT c, UINT a)
{
    unit_tensor ti, to[2];
    const UINT in[2] = {r, c}, s0[2] = {a, c}, s1[2] = {r - a, c};
    DML_TENSOR_DESC outs[2] = {*unit_tensor_set(&to[0], DML_TENSOR_DATA_TYPE_FLOAT32, 2, s0, NULL),
                               *unit_tensor_set(&to[1], DML_TENSOR_DATA_TYPE_FLOAT32, 2, s1, NULL)};
    DML_SPLIT_OPERATOR_DESC d = {unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, NULL), 2,
                                 outs, 0};
    return ug_node(g, DML_OPERATOR_SPLIT, &d);
}

/* JOIN of FLOAT32 {r, c0} and {r, c1} along axis 1. */
static UINT join_cols(unit_graph *g, UINT r, UINT c0, UINT c1)
{
    unit_tensor ti[2], to;
    const UINT s0[2] = {r, c0}, s1[2] = {r, c1}, out[2] = {r, c0 + c1};
    DML_TENSOR_DESC ins[2] = {*unit_tensor_set(&ti[0], DML_TENSOR_DATA_TYPE_FLOAT32, 2, s0, NULL),
                              *unit_tensor_set(&ti[1], DML_TENSOR_DATA_TYPE_FLOAT32, 2, s1, NULL)};
    DML_JOIN_OPERATOR_DESC d = {
        2, ins, unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out, NULL), 1};
    return ug_node(g, DML_OPERATOR_JOIN, &d);
}

/* Constant PADDING of a FLOAT32 {r, c} by one element on every side, with value v. */
static UINT pad_ring(unit_graph *g, UINT r, UINT c, float v)
{
    unit_tensor ti, to;
    const UINT in[2] = {r, c}, out[2] = {r + 2, c + 2}, one[2] = {1, 1};
    DML_PADDING_OPERATOR_DESC d = {unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, NULL),
                                   unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out, NULL),
                                   DML_PADDING_MODE_CONSTANT,
                                   v,
                                   2,
                                   one,
                                   one};
    return ug_node(g, DML_OPERATOR_PADDING, &d);
}

static void plan_of(unit_graph *g, UINT inputs, UINT outputs, dmli_graph **graph,
                    dmli_graph_plan **plan)
{
    ug_plan(ug_desc(g, inputs, outputs), graph, plan);
}

/*
 * x {4,3} -> SPLIT rows {1,3} | {3,3}; output 1 -> identity -> graph output 0,
 * output 0 -> graph output 1. Both halves written where they belong.
 */
Test(graph_steps, split_outputs_go_their_own_ways)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    ug_init(&g);
    UINT s = split_rows(&g, 4, 3, 1);
    UINT id = ug_identity(&g, 3, 3);
    ug_input(&g, 0, s, 0);
    ug_edge_from(&g, s, 1, id, 0);
    ug_output(&g, id, 0);
    ug_output_from(&g, s, 0, 1);
    plan_of(&g, 1, 2, &graph, &p);
    /* Two SPLIT steps (output 1 into the temporary: it feeds the identity), then the identity. */
    cr_assert_eq(p->n_steps, 3);
    cr_expect_eq(p->steps[0].node, s);
    cr_expect_eq(p->steps[1].node, s);
    cr_expect_eq(p->steps[2].node, id);
    cr_expect_eq(p->decisions[s].fused_into, -1);
    cr_expect_str_eq(p->decisions[s].why, "its operator runs as several kernels or has several "
                                          "outputs");
    cr_expect_eq(p->temp_bytes, 3 * 3 * 4);
    float x[12], y0[9], y1[3], temp[9];
    for (int i = 0; i < 12; ++i)
        x[i] = (float)(10 + i);
    memset(y0, 0, sizeof y0);
    memset(y1, 0, sizeof y1);
    void *ins[1] = {x}, *outs[2] = {y0, y1};
    ug_run(graph, p, ins, outs, temp);
    /* y1 = row 0 of x; y0 = rows 1..3 of x. */
    for (int c = 0; c < 3; ++c)
        cr_expect_eq(y1[c], 10.0f + (float)c, "y1[%d]", c);
    for (int i = 0; i < 9; ++i)
        cr_expect_eq(y0[i], 13.0f + (float)i, "y0[%d]", i);
    dmli_graph_plan_free(p);
    dmli_graph_free(graph);
    ug_free(&g);
}

/*
 * a {2,2}, b {2,1} -> JOIN columns {2,3} -> PADDING by 1 with -1 -> {4,5}.
 * The JOIN's output stays in the temporary; PADDING fills and copies from it.
 */
Test(graph_steps, join_then_padding_run_as_their_steps)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    ug_init(&g);
    UINT j = join_cols(&g, 2, 2, 1);
    UINT pad = pad_ring(&g, 2, 3, -1.0f);
    ug_input(&g, 0, j, 0);
    ug_input(&g, 1, j, 1);
    ug_edge(&g, j, pad, 0);
    ug_output(&g, pad, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_geq(p->n_steps, 3); /* two JOIN copies, at least one fill and one copy */
    bool fill = false;
    for (uint32_t i = 0; i < p->n_steps; ++i)
        fill |= p->steps[i].in.kind == DMLI_SLOT_CONSTANT && p->steps[i].in.index == pad;
    cr_expect(fill, "PADDING reads its own fill element");
    float a[4] = {1, 2, 3, 4}, b[2] = {5, 6}, y[20], temp[6];
    memset(y, 0, sizeof y);
    void *ins[2] = {a, b}, *outs[1] = {y};
    ug_run(graph, p, ins, outs, temp);
    const float want[20] = {-1,      -1, -1, -1, -1, /**/ -1, 1, 2, 5, -1, /**/ -1, 3, 4, 6, -1,
                            /**/ -1, -1, -1, -1, -1};
    for (int i = 0; i < 20; ++i)
        cr_expect_eq(y[i], want[i], "y[%d] = %g, want %g", i, (double)y[i], (double)want[i]);
    dmli_graph_plan_free(p);
    dmli_graph_free(graph);
    ug_free(&g);
}

Test(graph_steps, every_split_output_is_checked)
{
    unit_graph g;
    ug_init(&g);
    UINT s = split_rows(&g, 4, 3, 1);
    ug_input(&g, 0, s, 0);
    ug_output_from(&g, s, 0, 0);
    dmli_graph *graph = NULL;
    /* Output 1 feeds nothing. */
    EXPECT(dmli_graph_import(ug_desc(&g, 1, 1), &graph), E_INVALIDARG,
           "output 1 (OutputTensors[1]) is not connected");
    dmli_graph_free(graph);
    graph = NULL;
    /* A third output does not exist. */
    ug_output_from(&g, s, 2, 1);
    EXPECT(dmli_graph_import(ug_desc(&g, 1, 2), &graph), E_INVALIDARG,
           "FromNodeOutputIndex (2) must be less than", "output count (2)");
    dmli_graph_free(graph);
    ug_free(&g);
}
