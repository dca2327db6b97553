/* SPDX-License-Identifier: MIT */
/*
 * Graph plans of QUANTIZE_LINEAR and DEQUANTIZE_LINEAR (src/graph_plan.c): they fuse where the
 * result is exact. A DEQUANTIZE of 8- or 16-bit integers computes in float32 and writes
 * FLOAT32, so it leads a chain (ONNX Runtime's QDQ pattern: DequantizeLinear, Add,
 * QuantizeLinear is one map) or takes the next activation; a QUANTIZE reading FLOAT32 ends
 * one (its integer output ends any chain). A DEQUANTIZE of 32-bit integers (long, on
 * encodings) and anything rounded to FLOAT16 in between stay apart.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "graph_support.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U8 DML_TENSOR_DATA_TYPE_UINT8

static const UINT shape[2] = {4, 3}, per_tensor[2] = {0, 0};

/* A QUANTIZE or DEQUANTIZE node of {4, 3}: the scale and the zero point per tensor (zp 0:
 * none). */
static UINT quant(unit_graph *g, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE in,
                  DML_TENSOR_DATA_TYPE scale, DML_TENSOR_DATA_TYPE zp, DML_TENSOR_DATA_TYPE out)
{
    unit_tensor ti, ts, tz, to;
    DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC d = {
        unit_tensor_set(&ti, in, 2, shape, NULL), unit_tensor_set(&ts, scale, 2, shape, per_tensor),
        zp ? unit_tensor_set(&tz, zp, 2, shape, per_tensor) : NULL,
        unit_tensor_set(&to, out, 2, shape, NULL)};
    return ug_node(g, type, &d); /* DEQUANTIZE's descriptor has the same members */
}

static UINT add(unit_graph *g, DML_TENSOR_DATA_TYPE type)
{
    unit_tensor ta, tb, to;
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC d = {unit_tensor_set(&ta, type, 2, shape, NULL),
                                            unit_tensor_set(&tb, type, 2, shape, NULL),
                                            unit_tensor_set(&to, type, 2, shape, NULL)};
    return ug_node(g, DML_OPERATOR_ELEMENT_WISE_ADD, &d);
}

static void done(unit_graph *g, dmli_graph *graph, dmli_graph_plan *plan)
{
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(g);
}

#define DQ DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR
#define Q DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR

Test(graph_quant_plan, qdq_add_is_one_map)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    /* DQ(a), DQ(b) (sharing their scale and zero point), ADD, Q into INT8: one map of four
     * operations, each input read once, no temporary. */
    ug_init(&g);
    quant(&g, DQ, U8, F32, U8, F32); /* 0 */
    quant(&g, DQ, U8, F32, U8, F32); /* 1 */
    add(&g, F32);                    /* 2 */
    quant(&g, Q, F32, F32, I8, I8);  /* 3 */
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_input(&g, 2, 0, 2);
    ug_input(&g, 3, 1, 0);
    ug_input(&g, 1, 1, 1);
    ug_input(&g, 2, 1, 2);
    ug_edge(&g, 0, 2, 0);
    ug_edge(&g, 1, 2, 1);
    ug_edge(&g, 2, 3, 0);
    ug_input(&g, 4, 3, 1);
    ug_input(&g, 5, 3, 2);
    ug_output(&g, 3, 0);
    ug_plan(ug_desc(&g, 6, 1), &graph, &p);
    cr_assert_eq(p->n_steps, 1, "%u steps; node 0: %s", p->n_steps,
                 p->decisions[0].why ? p->decisions[0].why : "-");
    const dmli_map *m = p->steps[0].map;
    cr_assert(m != NULL);
    cr_expect_eq(m->n_stages, 4);
    cr_expect_eq(m->n_inputs, 6, "a, b, their scale and zero point, Q's: %u", m->n_inputs);
    cr_expect_eq(m->out.type, I8);
    cr_expect_eq(m->stage[3].op, DMLI_MAP_QUANTIZE_LINEAR);
    cr_expect_eq(p->temp_bytes, 0);
    done(&g, graph, p);
    /* DQ then RELU: the RELU becomes the DEQUANTIZE's activation. */
    ug_init(&g);
    quant(&g, DQ, I8, F32, 0, F32);
    unit_tensor ri, ro;
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {unit_tensor_set(&ri, F32, 2, shape, NULL),
                                              unit_tensor_set(&ro, F32, 2, shape, NULL)};
    ug_node(&g, DML_OPERATOR_ACTIVATION_RELU, &relu);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    ug_plan(ug_desc(&g, 2, 1), &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->steps[0].map->op, DMLI_MAP_DEQUANTIZE_SCALE);
    cr_expect_eq(p->steps[0].map->act, DMLI_ACT_RELU);
    done(&g, graph, p);
}

Test(graph_quant_plan, inexact_fusions_stay_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    /* DQ of INT32 (long, on the encodings) into an ADD: two steps. */
    ug_init(&g);
    quant(&g, DQ, I32, F32, I32, F32);
    add(&g, F32);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_input(&g, 2, 0, 2);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 3, 1, 1);
    ug_output(&g, 1, 0);
    ug_plan(ug_desc(&g, 4, 1), &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "another type"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
    /* A FLOAT16 ADD into a QUANTIZE: the sum is rounded to half first. */
    ug_init(&g);
    add(&g, F16);
    quant(&g, Q, F16, F16, U8, U8);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 2, 1, 1);
    ug_input(&g, 3, 1, 2);
    ug_output(&g, 1, 0);
    ug_plan(ug_desc(&g, 4, 1), &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "rounded"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
    /* A QUANTIZE's integer output into a DEQUANTIZE: two steps (the INT8 intermediate). */
    ug_init(&g);
    quant(&g, Q, F32, F32, U8, U8);
    quant(&g, DQ, U8, F32, U8, F32);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_input(&g, 2, 0, 2);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 1, 1, 1);
    ug_input(&g, 2, 1, 2);
    ug_output(&g, 1, 0);
    ug_plan(ug_desc(&g, 3, 1), &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    done(&g, graph, p);
}
