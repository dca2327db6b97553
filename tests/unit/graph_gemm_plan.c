/* SPDX-License-Identifier: MIT */
/*
 * The planner's fusion of a view into a computed operator's reads (src/graph_plan.c
 * try_fuse_view_into_compute): a transpose written as IDENTITY with permuted strides (ONNX
 * Runtime's DirectML provider lowers Transpose so) feeding GEMM's B is read through the
 * composed strides, never stored; a second reader, or the view's output also a graph output,
 * keeps it apart with the reason recorded.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "gemm.h"
#include "graph_support.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

/* {IDENTITY(in 1: Bt {N, K} read as {K, N}) -> GEMM(in 0: A {M, K}, .)}; with also_out the
 * transpose's output is graph output 1 too. */
static void plan_of(bool also_out, dmli_graph **graph, dmli_graph_plan **plan, unit_graph *g)
{
    static const UINT M = 5, N = 7, K = 3;
    static const UINT as[2] = {M, K}, ts[2] = {K, N}, t_strides[2] = {1, K}, os[2] = {M, N};
    static unit_tensor ta, tt_in, tt_out, tb, to;
    static DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
    static DML_GEMM_OPERATOR_DESC gemm;
    id =
        (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){unit_tensor_set(&tt_in, F32, 2, ts, t_strides),
                                                  unit_tensor_set(&tt_out, F32, 2, ts, NULL), NULL};
    gemm = (DML_GEMM_OPERATOR_DESC){unit_tensor_set(&ta, F32, 2, as, NULL),
                                    unit_tensor_set(&tb, F32, 2, ts, NULL),
                                    NULL,
                                    unit_tensor_set(&to, F32, 2, os, NULL),
                                    DML_MATRIX_TRANSFORM_NONE,
                                    DML_MATRIX_TRANSFORM_NONE,
                                    1.0f,
                                    0.0f,
                                    NULL};
    ug_init(g);
    ug_node(g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    ug_node(g, DML_OPERATOR_GEMM, &gemm);
    ug_input(g, 1, 0, 0);
    ug_input(g, 0, 1, 0);
    ug_edge(g, 0, 1, 1);
    ug_output(g, 1, 0);
    if (also_out)
        ug_output(g, 0, 1);
    ug_desc(g, 2, also_out ? 2 : 1);
    ug_plan(&g->desc, graph, plan);
}

Test(graph_gemm_plan, transpose_into_gemm_is_one_step)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    plan_of(false, &graph, &plan, &g);
    cr_assert_eq(plan->n_steps, 1, "%u steps", plan->n_steps);
    const dmli_graph_step *s = &plan->steps[0];
    cr_assert(s->compute != NULL);
    cr_expect_eq(s->fused, 1);
    cr_expect_eq(plan->decisions[0].fused_into, 1);
    cr_expect_eq(plan->temp_bytes, 0, "the transpose is never stored");
    /* B is read from graph input 1 through the composed strides: along k by 1, along n by K. */
    const dmli_gemm *gm = DMLI_COMPUTE_WORK_CONST(s->compute, dmli_gemm);
    cr_expect_eq(gm->b_k, 1);
    cr_expect_eq(gm->b_n, 3);
    cr_expect(s->tensors[1].kind == DMLI_SLOT_INPUT && s->tensors[1].index == 1);
    cr_expect(s->tensors[0].kind == DMLI_SLOT_INPUT && s->tensors[0].index == 0);
    /* C's stand-in (A) is a graph input: never a fused node's output. */
    cr_expect(s->tensors[2].kind == DMLI_SLOT_INPUT && s->tensors[2].index == 0);
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}

Test(graph_gemm_plan, transpose_also_an_output_stays_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    plan_of(true, &graph, &plan, &g);
    cr_assert_eq(plan->n_steps, 2, "%u steps", plan->n_steps);
    cr_expect_eq(plan->decisions[0].fused_into, -1);
    cr_expect(plan->decisions[0].why && strstr(plan->decisions[0].why, "graph output"), "why: %s",
              plan->decisions[0].why ? plan->decisions[0].why : "(none)");
    const dmli_gemm *gm = DMLI_COMPUTE_WORK_CONST(plan->steps[1].compute, dmli_gemm);
    cr_expect_eq(gm->b_n, 1, "B read in its own packed layout");
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}
