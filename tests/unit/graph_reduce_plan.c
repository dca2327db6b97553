/* SPDX-License-Identifier: MIT */
/*
 * The planner's fusion of an element-wise producer into a reduction's reads (src/graph_plan.c
 * try_fuse_map_into_reduce): where it applies (ADD, SUBTRACT, MULTIPLY of FLOAT32 read in its
 * own layout by its only reader) and where it must not (a FLOAT16 intermediate rounds, a second
 * reader, a fused activation, a scan), with the reason each refusal records.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "graph_support.h"
#include "support.h"

/* {binary(in 0, in 1) -> SOFTMAX1 over the last axis} of [4, 33] in type t; with also_out the
 * binary's output is a graph output as well; with relu, the binary is ADD1 with a fused RELU. */
static void plan_of(DML_OPERATOR_TYPE binary, DML_TENSOR_DATA_TYPE t, bool also_out, bool relu,
                    dmli_graph **graph, dmli_graph_plan **plan, unit_graph *g)
{
    static const UINT sizes[2] = {4, 33};
    static UINT axes[1] = {1};
    static unit_tensor ta, tb, ts, so;
    static DML_ELEMENT_WISE_ADD_OPERATOR_DESC add;
    static DML_ELEMENT_WISE_ADD1_OPERATOR_DESC add1;
    static DML_ACTIVATION_RELU_OPERATOR_DESC r;
    static DML_OPERATOR_DESC fused;
    static DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sm;
    add = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){unit_tensor_set(&ta, t, 2, sizes, NULL),
                                               unit_tensor_set(&tb, t, 2, sizes, NULL),
                                               unit_tensor_set(&ts, t, 2, sizes, NULL)};
    r = (DML_ACTIVATION_RELU_OPERATOR_DESC){NULL, NULL};
    fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &r};
    add1 =
        (DML_ELEMENT_WISE_ADD1_OPERATOR_DESC){add.ATensor, add.BTensor, add.OutputTensor, &fused};
    sm = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){unit_tensor_set(&ts, t, 2, sizes, NULL),
                                                 unit_tensor_set(&so, t, 2, sizes, NULL), 1, axes};
    ug_init(g);
    if (relu)
        ug_node(g, DML_OPERATOR_ELEMENT_WISE_ADD1, &add1);
    else
        ug_node(g, binary, &add);
    ug_node(g, DML_OPERATOR_ACTIVATION_SOFTMAX1, &sm);
    ug_input(g, 0, 0, 0);
    ug_input(g, 1, 0, 1);
    ug_edge(g, 0, 1, 0);
    ug_output(g, 1, 0);
    if (also_out)
        ug_output(g, 0, 1);
    ug_desc(g, 2, also_out ? 2 : 1);
    ug_plan(&g->desc, graph, plan);
}

static void expect_apart(dmli_graph_plan *plan, const char *why_part)
{
    cr_assert_eq(plan->n_steps, 2, "%u steps", plan->n_steps);
    cr_expect(plan->steps[1].reduce != NULL && plan->steps[1].reduce->pre_op == DMLI_MAP_IDENTITY);
    cr_expect_eq(plan->decisions[0].fused_into, -1);
    cr_expect(plan->decisions[0].why && strstr(plan->decisions[0].why, why_part), "why: %s",
              plan->decisions[0].why ? plan->decisions[0].why : "(none)");
}

Test(graph_reduce_plan, add_then_softmax_is_one_step)
{
    static const DML_OPERATOR_TYPE binaries[3] = {DML_OPERATOR_ELEMENT_WISE_ADD,
                                                  DML_OPERATOR_ELEMENT_WISE_SUBTRACT,
                                                  DML_OPERATOR_ELEMENT_WISE_MULTIPLY};
    static const dmli_map_op ops[3] = {DMLI_MAP_ADD, DMLI_MAP_SUBTRACT, DMLI_MAP_MULTIPLY};
    for (int i = 0; i < 3; ++i) {
        unit_graph g;
        dmli_graph *graph;
        dmli_graph_plan *plan;
        plan_of(binaries[i], DML_TENSOR_DATA_TYPE_FLOAT32, false, false, &graph, &plan, &g);
        cr_assert_eq(plan->n_steps, 1, "%u steps", plan->n_steps);
        const dmli_graph_step *s = &plan->steps[0];
        cr_assert(s->reduce != NULL);
        cr_expect_eq(s->reduce->pre_op, ops[i]);
        cr_expect_eq(s->reduce->n_inputs, 2);
        cr_expect_eq(s->fused, 1);
        cr_expect_eq(plan->decisions[0].fused_into, 1);
        cr_expect_eq(plan->temp_bytes, 0, "the sum is never stored");
        cr_expect(s->ins[0].kind == DMLI_SLOT_INPUT && s->ins[0].index == 0);
        cr_expect(s->ins[1].kind == DMLI_SLOT_INPUT && s->ins[1].index == 1);
        dmli_graph_plan_free(plan);
        dmli_graph_free(graph);
        ug_free(&g);
    }
}

Test(graph_reduce_plan, a_float16_sum_is_rounded_so_stays_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    plan_of(DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_FLOAT16, false, false, &graph,
            &plan, &g);
    expect_apart(plan, "rounded");
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}

Test(graph_reduce_plan, a_sum_also_read_elsewhere_stays_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    plan_of(DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_FLOAT32, true, false, &graph, &plan,
            &g);
    expect_apart(plan, "graph output");
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}

Test(graph_reduce_plan, a_fused_activation_stays_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    plan_of(DML_OPERATOR_ELEMENT_WISE_ADD, DML_TENSOR_DATA_TYPE_FLOAT32, false, true, &graph, &plan,
            &g);
    expect_apart(plan, "without an activation");
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}
