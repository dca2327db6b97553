/* SPDX-License-Identifier: MIT */
/*
 * Graph plans (src/graph_plan.c): which steps a graph compiles to, and that
 * running them (plan_eval) gives the reference applied node by node.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "graph_chain.h"
#include "launch.h"
#include "support.h"

static const UINT one[3] = {1, 1, 1};

static UINT slice(unit_graph *g, UINT rank, const UINT *in_sizes, const UINT *off,
                  const UINT *sizes, const UINT *step)
{
    unit_tensor ti, to;
    DML_SLICE_OPERATOR_DESC d = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, rank, in_sizes, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, rank, sizes, NULL),
        rank,
        off,
        sizes,
        step};
    return ug_node(g, DML_OPERATOR_SLICE, &d);
}

/* GATHER on rank 2 along axis with indices {1,k} of index_type. */
static UINT gather(unit_graph *g, DML_TENSOR_DATA_TYPE type, const UINT *in_sizes, UINT axis,
                   UINT k)
{
    unit_tensor ti, tx, to;
    UINT isz[2] = {1, k}, osz[2] = {in_sizes[0], in_sizes[1]};
    osz[axis] = k;
    DML_GATHER_OPERATOR_DESC d = {unit_tensor_set(&ti, type, 2, in_sizes, NULL),
                                  unit_tensor_set(&tx, DML_TENSOR_DATA_TYPE_INT32, 2, isz, NULL),
                                  unit_tensor_set(&to, type, 2, osz, NULL), axis, 1};
    return ug_node(g, DML_OPERATOR_GATHER, &d);
}

static void plan_of(unit_graph *g, UINT inputs, UINT outputs, dmli_graph **graph,
                    dmli_graph_plan **plan)
{
    ug_plan(ug_desc(g, inputs, outputs), graph, plan);
}

static void done(unit_graph *g, dmli_graph *graph, dmli_graph_plan *plan)
{
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(g);
}

Test(graph_plan, slice_of_slice_is_one_view)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT s0[2] = {4, 6}, o0[2] = {1, 0}, z0[2] = {2, 6}, o1[2] = {0, 1}, z1[2] = {2, 2},
               st1[2] = {1, 2};
    ug_init(&g);
    slice(&g, 2, s0, o0, z0, one);
    slice(&g, 2, z0, o1, z1, st1);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    plan_of(&g, 1, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->steps[0].plan.kind, DMLI_PLAN_VIEW);
    cr_expect_eq(p->steps[0].fused, 1);
    cr_expect_eq(p->steps[0].in.kind, DMLI_SLOT_INPUT);
    cr_expect_eq(p->steps[0].out.kind, DMLI_SLOT_OUTPUT);
    cr_expect_eq(p->temp_bytes, 0);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    /* out[r][c] = in[1 + r][1 + 2c]: 2 rows of 2 from a 4x6 input. */
    float in[24], out[4] = {0};
    for (int i = 0; i < 24; ++i)
        in[i] = (float)i;
    void *ins[1] = {in}, *outs[1] = {out};
    ug_run(graph, p, ins, outs, NULL);
    const float want[4] = {7, 9, 13, 15};
    cr_expect_arr_eq(out, want, sizeof want);
    done(&g, graph, p);
}

Test(graph_plan, transpose_slice_gather_is_one_indexed_step)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ti, to;
    const UINT s[2] = {3, 4}, t[2] = {4, 3}, ts[2] = {1, 4}, o[2] = {1, 0}, z[2] = {2, 3};
    ug_init(&g);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, ts),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, NULL), NULL};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    slice(&g, 2, t, o, z, one);
    gather(&g, DML_TENSOR_DATA_TYPE_FLOAT32, z, 1, 2);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 0);
    ug_input(&g, 1, 2, 1);
    ug_output(&g, 2, 0);
    (void)s;
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->steps[0].plan.kind, DMLI_PLAN_INDEXED);
    cr_expect_eq(p->steps[0].fused, 2);
    cr_expect_eq(p->steps[0].in.kind, DMLI_SLOT_INPUT);
    cr_expect_eq(p->steps[0].in.index, 0);
    cr_expect_eq(p->steps[0].idx.index, 1);
    /* in 3x4 (value = 10 r + c); transposed 4x3: T[i][j] = in[j][i]; rows 1-2: S[i][j] =
     * in[j][1 + i]; gather columns {2, -3 -> 0}: out[i][k] = in[col k][1 + i]. */
    float in[12], out[4] = {0};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            in[r * 4 + c] = (float)(10 * r + c);
    int32_t idx[2] = {2, -3};
    void *ins[2] = {in, idx}, *outs[1] = {out};
    ug_run(graph, p, ins, outs, NULL);
    const float want[4] = {21, 1, 22, 2};
    cr_expect_arr_eq(out, want, sizeof want);
    done(&g, graph, p);
}

Test(graph_plan, gathered_indices_keep_a_temporary)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT table[2] = {1, 5}, data[2] = {4, 6};
    ug_init(&g);
    gather(&g, DML_TENSOR_DATA_TYPE_INT32, table, 1, 3); /* indices {1,3} from a table */
    gather(&g, DML_TENSOR_DATA_TYPE_FLOAT32, data, 1, 3);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_input(&g, 2, 1, 0);
    ug_edge(&g, 0, 1, 1);
    ug_output(&g, 1, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->steps[0].out.kind, DMLI_SLOT_TEMP);
    cr_expect_eq(p->steps[1].idx.kind, DMLI_SLOT_TEMP);
    cr_expect_eq(p->temp_bytes, 12);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "gathered indices"));
    done(&g, graph, p);
}

Test(graph_plan, fan_out_and_graph_outputs_keep_their_tensors)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT s[2] = {2, 3}, o[2] = {0, 1}, z[2] = {2, 2};
    ug_init(&g);
    ug_identity(&g, 2, 3);
    slice(&g, 2, s, o, z, one);
    slice(&g, 2, s, o, z, one);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 0, 2, 0);
    ug_output(&g, 1, 0);
    ug_output(&g, 2, 1);
    plan_of(&g, 1, 2, &graph, &p);
    cr_expect_eq(p->n_steps, 3);
    cr_expect_eq(p->temp_bytes, 24);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "several"));
    done(&g, graph, p);
    /* Node 0 is a graph output and feeds node 1, which reads the output binding. */
    ug_init(&g);
    ug_identity(&g, 2, 3);
    slice(&g, 2, s, o, z, one);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 0, 0);
    ug_output(&g, 1, 1);
    plan_of(&g, 1, 2, &graph, &p);
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->temp_bytes, 0);
    cr_expect_eq(p->steps[1].in.kind, DMLI_SLOT_OUTPUT);
    cr_expect_eq(p->steps[1].in.index, 0);
    done(&g, graph, p);
}

Test(graph_plan, scale_bias_is_a_map_step)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ti, to;
    const UINT data[2] = {4, 6}, z[2] = {4, 3}, o[2] = {1, 0}, zz[2] = {2, 3};
    DML_SCALE_BIAS sb = {2.0f, 1.0f};
    ug_init(&g);
    gather(&g, DML_TENSOR_DATA_TYPE_FLOAT32, data, 1, 3);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, z, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, z, NULL), &sb};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    slice(&g, 2, z, o, zz, one);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 0);
    ug_output(&g, 2, 0);
    plan_of(&g, 2, 1, &graph, &p);
    /* The map (ScaleBias is element-wise arithmetic: its own step, reading the gathered
     * columns through the gather's indices), the slice of the map's output. */
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    cr_expect(p->decisions[1].why && strstr(p->decisions[1].why, "a map"), "%s",
              p->decisions[1].why);
    cr_assert(p->steps[0].map != NULL);
    cr_expect(p->steps[0].map->gather.on);
    cr_expect_eq(p->steps[0].ins[0].kind, DMLI_SLOT_INPUT);
    cr_expect_eq(p->steps[1].in.kind, DMLI_SLOT_TEMP);
    done(&g, graph, p);
}

static UINT binary(unit_graph *g, DML_OPERATOR_TYPE type, const UINT *sizes)
{
    unit_tensor ta, tb, to;
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC d = {
        unit_tensor_set(&ta, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        unit_tensor_set(&tb, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL)};
    return ug_node(g, type, &d);
}

Test(graph_plan, views_feeding_a_map_are_read_through)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ti, to;
    /* A: rows 1-4 of a 6x3; B: a row of 3 broadcast over 4 rows (IDENTITY reading with
     * strides {0, 1}). ADD(A, B): one map reading both graph inputs through the views. */
    const UINT t[2] = {4, 3}, bs[2] = {6, 3}, o[2] = {1, 0}, row[2] = {0, 1};
    ug_init(&g);
    slice(&g, 2, bs, o, t, one);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, row),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, NULL), NULL};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 0);
    ug_edge(&g, 0, 2, 0);
    ug_edge(&g, 1, 2, 1);
    ug_output(&g, 2, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_assert(p->steps[0].map != NULL);
    cr_expect_eq(p->steps[0].fused, 2);
    cr_expect_eq(p->decisions[0].fused_into, 2);
    cr_expect_eq(p->decisions[1].fused_into, 2);
    cr_expect_eq(p->temp_bytes, 0);
    cr_expect(p->steps[0].ins[0].kind == DMLI_SLOT_INPUT && p->steps[0].ins[0].index == 0);
    cr_expect(p->steps[0].ins[1].kind == DMLI_SLOT_INPUT && p->steps[0].ins[1].index == 1);
    /* out[i][j] = a[1 + i][j] + b[j], a 6x3 (value 10 r + c), b {100, 200, 300}. */
    float a[18], b[3] = {100, 200, 300}, out[12] = {0};
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 3; ++c)
            a[r * 3 + c] = (float)(10 * r + c);
    void *ins[2] = {a, b}, *outs[1] = {out};
    ug_run(graph, p, ins, outs, NULL);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j)
            cr_expect_eq(out[i * 3 + j], (float)(10 * (1 + i) + j) + b[j], "out[%d][%d] = %g", i, j,
                         (double)out[i * 3 + j]);
    done(&g, graph, p);
}

/* Node 0 an IDENTITY reading graph input 0 with strides ts (a transpose) into sizes t, node 1
 * an ADD of its output and graph input 1: graph output 0. */
static void transpose_then_add(unit_graph *g, const UINT *t, const UINT *ts)
{
    unit_tensor ti, to;
    ug_init(g);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, ts),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, NULL), NULL};
    ug_node(g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    binary(g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
    ug_input(g, 0, 0, 0);
    ug_edge(g, 0, 1, 0);
    ug_input(g, 1, 1, 1);
    ug_output(g, 1, 0);
}

Test(graph_plan, a_layout_change_stays_apart_from_a_map)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    /* A 3x4 transposed to 4x3 (IDENTITY reading with strides {1, 4}) feeding an ADD: fused,
     * the map would read A along its run with stride 4; apart, the transpose tiles. */
    const UINT t[2] = {4, 3}, ts[2] = {1, 4};
    transpose_then_add(&g, t, ts);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->decisions[0].fused_into, -1);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "tiled view"), "%s",
              p->decisions[0].why);
    cr_expect_eq(p->steps[1].ins[0].kind, DMLI_SLOT_TEMP);
    /* out[i][j] = a[j][i] + b[i][j]. */
    float a[12], b[12], out[12] = {0}, temp[16];
    for (int i = 0; i < 12; ++i) {
        a[i] = (float)i;
        b[i] = (float)(100 * i);
    }
    void *ins[2] = {a, b}, *outs[1] = {out};
    cr_assert_leq(p->temp_bytes, sizeof temp);
    ug_run(graph, p, ins, outs, temp);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j)
            cr_expect_eq(out[i * 3 + j], a[j * 4 + i] + b[i * 3 + j]);
    done(&g, graph, p);
}

Test(graph_plan, a_layout_change_fuses_into_a_cpu_map_that_tiles)
{
    /* A 16x32 transposed to 32x16 (IDENTITY reading with strides {1, 32}) feeding an ADD: the
     * next dimension out from the run (32) and the run (16) are whole tiles, so a CPU's map
     * reads it in tiles (launch_map.c dmli_map_tiles): fused on a CPU; apart on a GPU and in a
     * plan for any device (the map would read along its run with a stride there). */
    static const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
        (uint64_t)32 << 20,     16};
    static const dmli_device_desc gpu = {
        DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
        (uint64_t)50 << 20,     1};
    const UINT t[2] = {32, 16}, ts[2] = {1, 32};
    for (int device = 0; device < 3; ++device) {
        unit_graph g;
        dmli_graph *graph;
        dmli_graph_plan *p;
        transpose_then_add(&g, t, ts);
        cr_assert(SUCCEEDED(dmli_graph_import(ug_desc(&g, 2, 1), &graph)), "%s",
                  dmlcl_last_error());
        cr_assert(SUCCEEDED(dmli_graph_plan_build_on(graph,
                                                     device == 0   ? &cpu
                                                     : device == 1 ? &gpu
                                                                   : NULL,
                                                     &p)),
                  "%s", dmlcl_last_error());
        if (device == 0) {
            cr_expect_eq(p->n_steps, 1, "a CPU: one map");
            cr_expect_eq(p->decisions[0].fused_into, 1);
        } else {
            cr_expect_eq(p->n_steps, 2, "device %d: the transpose apart", device);
            cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "tiled view"), "%s",
                      p->decisions[0].why);
        }
        /* out[i][j] = a[j][i] + b[i][j], whichever plan. */
        float a[512], b[512], out[512] = {0}, temp[512];
        for (int i = 0; i < 512; ++i) {
            a[i] = (float)i;
            b[i] = (float)(1000 * i);
        }
        void *ins[2] = {a, b}, *outs[1] = {out};
        cr_assert_leq(p->temp_bytes, sizeof temp);
        ug_run(graph, p, ins, outs, temp);
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 16; ++j)
                cr_expect_eq(out[i * 16 + j], a[j * 32 + i] + b[i * 16 + j], "device %d [%d][%d]",
                             device, i, j);
        done(&g, graph, p);
    }
}

/* Node 0 a GATHER of graph inputs 0 (data) and 1 (indices), node 1 an ADD of its output and
 * graph input 2. */
static void gather_add(unit_graph *g, const UINT *data, const UINT *z)
{
    ug_init(g);
    gather(g, DML_TENSOR_DATA_TYPE_FLOAT32, data, 1, 3);
    binary(g, DML_OPERATOR_ELEMENT_WISE_ADD, z);
    ug_input(g, 0, 0, 0);
    ug_input(g, 1, 0, 1);
    ug_edge(g, 0, 1, 0);
    ug_input(g, 2, 1, 1);
}

Test(graph_plan, a_map_reads_through_a_gather_keeps_fan_outs_and_graph_outputs_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT data[2] = {4, 6}, z[2] = {4, 3};
    /* A gather feeding ADD: the map reads the gathered columns through the indices, which
     * become its third input (no operand): one step, the gather's output never written. */
    gather_add(&g, data, z);
    ug_output(&g, 1, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    const dmli_map *m = p->steps[0].map;
    cr_assert(m != NULL);
    cr_expect(m->gather.on && m->gather.input == 0 && m->gather.index == 2 && m->n_inputs == 3);
    cr_expect(m->gather.wrap && m->gather.policy == DMLI_OOR_CLAMP);
    cr_expect(m->gather.axis_size == 6 && m->gather.axis_stride == 1);
    cr_expect_eq(m->in[2].type, DML_TENSOR_DATA_TYPE_INT32);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    cr_expect_eq(p->temp_bytes, 0);
    cr_expect(p->steps[0].ins[2].kind == DMLI_SLOT_INPUT && p->steps[0].ins[2].index == 1);
    done(&g, graph, p);
    /* GATHER, ADD, MULTIPLY: the gather into the ADD, which then stays apart from the
     * MULTIPLY (a map reading through a gather is not chained). */
    gather_add(&g, data, z);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, z);
    ug_edge(&g, 1, 2, 0);
    ug_input(&g, 2, 2, 1);
    ug_output(&g, 2, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    cr_expect(p->decisions[1].why && strstr(p->decisions[1].why, "gather"), "%s",
              p->decisions[1].why);
    done(&g, graph, p);
    /* A gather read by two maps keeps its output (fused, its reads would repeat). */
    gather_add(&g, data, z);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, z);
    ug_edge(&g, 0, 2, 0);
    ug_input(&g, 2, 2, 1);
    ug_output(&g, 1, 0);
    ug_output(&g, 2, 1);
    plan_of(&g, 3, 2, &graph, &p);
    cr_expect_eq(p->n_steps, 3);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "several"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
    /* A view that is also a graph output, and one feeding both inputs of the ADD. */
    ug_init(&g);
    ug_identity(&g, 4, 3);
    ug_identity(&g, 4, 3);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, z);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 0);
    ug_edge(&g, 0, 2, 0);
    ug_edge(&g, 1, 2, 1);
    ug_output(&g, 2, 0);
    ug_output(&g, 0, 1);
    plan_of(&g, 2, 2, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "graph output"));
    cr_expect_eq(p->decisions[1].fused_into, 2);
    done(&g, graph, p);
    ug_init(&g);
    ug_identity(&g, 4, 3);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, z);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 0, 1, 1);
    ug_output(&g, 1, 0);
    plan_of(&g, 1, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "several"));
    done(&g, graph, p);
}

Test(graph_plan, random_chains_match_the_reference)
{
    uint64_t seed = ref_test_seed(0x636861696eull);
    unsigned nodes = 0, steps = 0;
    for (int t = 0; t < 400; ++t) {
        ref_rng r = ref_rng_make(ref_mix64(seed + (uint64_t)t));
        chain c;
        chain_make(&c, &r, 2 + t % 5);
        dmli_graph *graph;
        dmli_graph_plan *p;
        ug_plan(&c.g.desc, &graph, &p);
        void *outs[CHAIN_MAX_IO];
        for (UINT o = 0; o < c.n_outputs; ++o) {
            outs[o] = malloc(c.output_bytes[o]);
            memset(outs[o], CHAIN_SENTINEL, c.output_bytes[o]);
        }
        unsigned char *temp = malloc(p->temp_bytes + 1);
        memset(temp, 0xEE, p->temp_bytes + 1);
        ug_run(graph, p, c.inputs, outs, temp);
        for (UINT o = 0; o < c.n_outputs; ++o)
            cr_assert_arr_eq(outs[o], c.expect[o], c.output_bytes[o],
                             "seed 0x%llx case %d output %u differs; graph: %s",
                             (unsigned long long)seed, t, o, c.log);
        /* JOIN, SPLIT and PADDING run as their own steps, never fused: left out. */
        for (UINT v = 0; v < c.g.n_nodes; ++v)
            nodes += !graph->nodes[v].st || graph->nodes[v].st->n_steps <= 1;
        for (UINT k = 0; k < p->n_steps; ++k) {
            const dmli_op_state *st = graph->nodes[p->steps[k].node].st;
            steps += !st || st->n_steps <= 1;
        }
        for (UINT o = 0; o < c.n_outputs; ++o)
            free(outs[o]);
        free(temp);
        dmli_graph_plan_free(p);
        dmli_graph_free(graph);
        chain_free(&c);
    }
    /* Fusion must happen: fewer kernels than nodes over the run (single-step nodes). */
    cr_expect_lt(steps * 10, nodes * 8, "seed 0x%llx: %u steps for %u nodes",
                 (unsigned long long)seed, steps, nodes);
    cr_log_info("random chains: %u nodes ran as %u steps", nodes, steps);
}

Test(graph_plan, sliced_indices_stay_inside_the_gather)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ti, to;
    const UINT raw[2] = {1, 7}, off[2] = {0, 1}, z[2] = {1, 3}, st[2] = {1, 2}, data[2] = {2, 5};
    ug_init(&g);
    DML_SLICE_OPERATOR_DESC s = {unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_INT32, 2, raw, NULL),
                                 unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_INT32, 2, z, NULL),
                                 2,
                                 off,
                                 z,
                                 st};
    ug_node(&g, DML_OPERATOR_SLICE, &s);
    gather(&g, DML_TENSOR_DATA_TYPE_FLOAT32, data, 1, 3);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 0);
    ug_edge(&g, 0, 1, 1);
    ug_output(&g, 1, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->steps[0].idx.kind, DMLI_SLOT_INPUT);
    cr_expect_eq(p->steps[0].idx.index, 0);
    cr_expect_eq(p->steps[0].plan.idx_offset, 1);
    /* Columns raw[1], raw[3], raw[5] = 4, -1 (from the end: 4), 1 of a 2x5 input. */
    int32_t idx[7] = {0, 4, 0, -1, 0, 1, 0};
    float in[10], out[6] = {0};
    for (int i = 0; i < 10; ++i)
        in[i] = (float)i;
    void *ins[2] = {idx, in}, *outs[1] = {out};
    ug_run(graph, p, ins, outs, NULL);
    const float want[6] = {4, 4, 1, 9, 9, 6};
    cr_expect_arr_eq(out, want, sizeof want);
    done(&g, graph, p);
}

Test(graph_plan, layout_changes_stay_out_of_gathers)
{
    /* NCHW {2,3,4,5} read as NHWC, then a gather of H rows: fused, every run of C would be
     * read with stride H*W; apart, the transpose is a view and the gather copies rows. */
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ti, to, gi, gx, go;
    const UINT nhwc[4] = {2, 4, 5, 3}, read[4] = {60, 5, 1, 20}, isz[4] = {1, 1, 1, 2},
               osz[4] = {2, 2, 5, 3};
    ug_init(&g);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, read),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL), NULL};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    DML_GATHER_OPERATOR_DESC ga = {
        unit_tensor_set(&gi, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL),
        unit_tensor_set(&gx, DML_TENSOR_DATA_TYPE_INT32, 4, isz, NULL),
        unit_tensor_set(&go, DML_TENSOR_DATA_TYPE_FLOAT32, 4, osz, NULL), 1, 1};
    ug_node(&g, DML_OPERATOR_GATHER, &ga);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 1);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "with a stride"), "%s",
              p->decisions[0].why);
    cr_expect_eq(p->steps[0].plan.kind, DMLI_PLAN_VIEW);
    done(&g, graph, p);
}

/*
 * NCHW {2,3,4,w} read as NHWC by an identity, then a GATHER of k indices
 * along axis of the NHWC tensor (graph inputs: the data, then the indices).
 */
static void layout_then_gather(unit_graph *g, UINT w, UINT axis, UINT k)
{
    static unit_tensor ti, to, gi, gx, go;
    static UINT nhwc[4], read[4], isz[4], osz[4];
    memcpy(nhwc, (UINT[4]){2, 4, w, 3}, sizeof nhwc);
    memcpy(read, (UINT[4]){3 * 4 * w, w, 1, 4 * w}, sizeof read);
    memcpy(isz, (UINT[4]){1, 1, 1, k}, sizeof isz);
    memcpy(osz, nhwc, sizeof osz);
    osz[axis] = k;
    ug_init(g);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, read),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL), NULL};
    ug_node(g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    DML_GATHER_OPERATOR_DESC ga = {
        unit_tensor_set(&gi, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL),
        unit_tensor_set(&gx, DML_TENSOR_DATA_TYPE_INT32, 4, isz, NULL),
        unit_tensor_set(&go, DML_TENSOR_DATA_TYPE_FLOAT32, 4, osz, NULL), axis, 1};
    ug_node(g, DML_OPERATOR_GATHER, &ga);
    ug_input(g, 0, 0, 0);
    ug_input(g, 1, 1, 1);
    ug_edge(g, 0, 1, 0);
    ug_output(g, 1, 0);
}

Test(graph_plan, layout_change_fuses_into_a_gather_that_tiles)
{
    /* W 16 is a tile of floats, the gather picks H rows (indices unmoved by W and C): one
     * indexed step whose inner dimensions are the transpose, moved in tiles on CPUs. */
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    layout_then_gather(&g, 16, 1, 2);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    cr_expect_eq(p->steps[0].plan.kind, DMLI_PLAN_INDEXED);
    cr_expect_eq(p->steps[0].fused, 1);
    cr_expect_eq(p->steps[0].in.kind, DMLI_SLOT_INPUT);
    cr_expect_eq(p->temp_bytes, 0);
    cr_expect_eq(dmli_indexed_tiles(&p->steps[0].plan), 1, "run C = 3: private tiles");
    /* out[n][r][w][c] = in[n][c][idx[r]][w] (NCHW), by plain loops. */
    float in[2 * 3 * 4 * 16], out[2 * 2 * 16 * 3] = {0}, want[2 * 2 * 16 * 3];
    for (int i = 0; i < 2 * 3 * 4 * 16; ++i)
        in[i] = (float)i;
    int32_t idx[2] = {3, 1};
    for (int n = 0; n < 2; ++n)
        for (int r = 0; r < 2; ++r)
            for (int w = 0; w < 16; ++w)
                for (int c = 0; c < 3; ++c)
                    want[((n * 2 + r) * 16 + w) * 3 + c] = in[((n * 3 + c) * 4 + idx[r]) * 16 + w];
    void *ins[2] = {in, idx}, *outs[1] = {out};
    ug_run(graph, p, ins, outs, NULL);
    cr_expect_arr_eq(out, want, sizeof want);
    done(&g, graph, p);
}

Test(graph_plan, layout_change_stays_out_of_a_gather_that_repeats_it)
{
    /* The same gather of 6 H rows out of 4: fused, it would transpose 6 rows per image
     * where apart the transpose moves 4 once and the gather copies contiguous rows. */
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    layout_then_gather(&g, 16, 1, 6);
    plan_of(&g, 2, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect_eq(p->decisions[0].fused_into, -1);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "repeat"), "%s",
              p->decisions[0].why);
    cr_expect_eq(p->steps[0].plan.kind, DMLI_PLAN_VIEW);
    cr_expect_eq(p->steps[1].plan.kind, DMLI_PLAN_INDEXED);
    done(&g, graph, p);
}

Test(graph_plan, layout_change_stays_out_of_a_gather_along_its_rows)
{
    /* A gather along W, the input-contiguous dimension: the fused run's neighbour moves the
     * indices, so no tile could resolve them once; apart, the transpose tiles as a view. */
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    layout_then_gather(&g, 16, 2, 2);
    plan_of(&g, 2, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "with a stride"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
}

static UINT relu(unit_graph *g, DML_TENSOR_DATA_TYPE type, const UINT *sizes)
{
    unit_tensor ti, to;
    DML_ACTIVATION_RELU_OPERATOR_DESC d = {unit_tensor_set(&ti, type, 2, sizes, NULL),
                                           unit_tensor_set(&to, type, 2, sizes, NULL)};
    return ug_node(g, DML_OPERATOR_ACTIVATION_RELU, &d);
}

Test(graph_plan, an_activation_after_a_map_becomes_its_activation)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT t[2] = {4, 3};
    /* ADD then RELU, FLOAT32: one map step, the RELU its activation, writing the output. */
    ug_init(&g);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
    relu(&g, DML_TENSOR_DATA_TYPE_FLOAT32, t);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->decisions[0].fused_into, 1);
    cr_assert(p->steps[0].map != NULL);
    cr_expect_eq(p->steps[0].map->op, DMLI_MAP_ADD);
    cr_expect_neq(p->steps[0].map->act, DMLI_ACT_NONE);
    cr_expect_eq(p->steps[0].map->n_inputs, 2);
    cr_expect_eq(p->steps[0].fused, 1);
    cr_expect_eq(p->temp_bytes, 0);
    done(&g, graph, p);
    /* The ADD's output is also a graph output: both stay steps. */
    ug_init(&g);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
    relu(&g, DML_TENSOR_DATA_TYPE_FLOAT32, t);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    ug_output(&g, 0, 1);
    plan_of(&g, 2, 2, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "graph output"));
    done(&g, graph, p);
}

Test(graph_plan, a_rounded_intermediate_keeps_the_activation_apart)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ta, tb, to;
    const UINT t[2] = {4, 3};
    /* FLOAT16: the ADD's result is rounded to half before the RELU reads it; fused it would
     * not be, so the two stay apart. */
    ug_init(&g);
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC d = {
        unit_tensor_set(&ta, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL),
        unit_tensor_set(&tb, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL)};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_ADD, &d);
    relu(&g, DML_TENSOR_DATA_TYPE_FLOAT16, t);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "rounded"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
}

static UINT unary(unit_graph *g, DML_OPERATOR_TYPE type, const UINT *sizes)
{
    unit_tensor ti, to;
    DML_ELEMENT_WISE_ERF_OPERATOR_DESC d = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), NULL};
    return ug_node(g, type, &d);
}

Test(graph_plan, element_wise_chains_are_one_map)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    const UINT t[2] = {4, 3};
    /* GELU as ONNX exporters write it: x * 0.5 * (1 + erf(x / sqrt 2)), five nodes reading x
     * twice: one map of five operations reading x once and the three constants' inputs. */
    ug_init(&g);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, t); /* 0: x * (1 / sqrt 2) */
    unary(&g, DML_OPERATOR_ELEMENT_WISE_ERF, t);       /* 1 */
    binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);      /* 2: + 1 */
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, t); /* 3: x * */
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, t); /* 4: * 0.5 */
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 0);
    ug_input(&g, 2, 2, 1);
    ug_input(&g, 0, 3, 0);
    ug_edge(&g, 2, 3, 1);
    ug_edge(&g, 3, 4, 0);
    ug_input(&g, 3, 4, 1);
    ug_output(&g, 4, 0);
    plan_of(&g, 4, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_assert(p->steps[0].map != NULL);
    const dmli_map *m = p->steps[0].map;
    cr_expect_eq(m->n_stages, 5);
    cr_expect_eq(m->n_inputs, 4, "x is read once: %u inputs", m->n_inputs);
    cr_expect_eq(p->steps[0].fused, 4);
    cr_expect_eq(p->temp_bytes, 0);
    /* Each node into its reader (the last one's pending map took the others' stages). */
    for (UINT v = 0; v < 4; ++v)
        cr_expect_eq(p->decisions[v].fused_into, (int)v + 1, "node %u: fused into %d", v,
                     p->decisions[v].fused_into);
    /* Stage 3 (x * ...) reads input 0 and stage 2's result; stage 4 reads stage 3's. */
    cr_expect_eq(m->stage[3].op, DMLI_MAP_MULTIPLY);
    cr_expect_eq(m->stage[3].arg[0], 0);
    cr_expect_eq(m->stage[3].arg[1], DMLI_MAP_ARG_STAGE(2));
    cr_expect_eq(m->stage[4].arg[0], DMLI_MAP_ARG_STAGE(3));
    done(&g, graph, p);
    /* ADD, RELU, MULTIPLY: the RELU becomes the ADD's activation, the MULTIPLY a second stage. */
    ug_init(&g);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
    relu(&g, DML_TENSOR_DATA_TYPE_FLOAT32, t);
    binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, t);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 1);
    ug_input(&g, 2, 2, 0);
    ug_output(&g, 2, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 1);
    cr_expect_eq(p->steps[0].map->n_stages, 2);
    cr_expect_eq(p->steps[0].map->act, DMLI_ACT_RELU);
    cr_expect_eq(p->steps[0].map->n_inputs, 3);
    done(&g, graph, p);
}

Test(graph_plan, chains_stop_where_fusing_would_change_results_or_overflow_a_map)
{
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *p;
    unit_tensor ta, tb, to, ua, ub, uo;
    const UINT t[2] = {4, 3}, row[2] = {1, 3}, bcast[2] = {0, 1};
    /* FLOAT16: each result is rounded to half before the next node reads it. */
    ug_init(&g);
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC h = {
        unit_tensor_set(&ta, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL),
        unit_tensor_set(&tb, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT16, 2, t, NULL)};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_ADD, &h);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, &h);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 2, 1, 1);
    ug_output(&g, 1, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "rounded"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
    /* A row broadcast over the next node's rows: fused, the row's work would repeat. */
    ug_init(&g);
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC r = {
        unit_tensor_set(&ta, DML_TENSOR_DATA_TYPE_FLOAT32, 2, row, NULL),
        unit_tensor_set(&tb, DML_TENSOR_DATA_TYPE_FLOAT32, 2, row, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, row, NULL)};
    DML_ELEMENT_WISE_MULTIPLY_OPERATOR_DESC b = {
        unit_tensor_set(&ua, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, bcast),
        unit_tensor_set(&ub, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, NULL),
        unit_tensor_set(&uo, DML_TENSOR_DATA_TYPE_FLOAT32, 2, t, NULL)};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_ADD, &r);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, &b);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_edge(&g, 0, 1, 0);
    ug_input(&g, 2, 1, 1);
    ug_output(&g, 1, 0);
    plan_of(&g, 3, 1, &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect(p->decisions[0].why && strstr(p->decisions[0].why, "layout"), "%s",
              p->decisions[0].why);
    done(&g, graph, p);
    /* Nine MULTIPLYs by one input: eight operations are one map, the ninth its own step. */
    ug_init(&g);
    for (UINT v = 0; v < 9; ++v) {
        binary(&g, DML_OPERATOR_ELEMENT_WISE_MULTIPLY, t);
        if (v == 0)
            ug_input(&g, 0, 0, 0);
        else
            ug_edge(&g, v - 1, v, 0);
        ug_input(&g, 1, v, 1);
    }
    ug_output(&g, 8, 0);
    plan_of(&g, 2, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->steps[0].map->n_stages, 8);
    cr_expect_eq(p->steps[0].map->n_inputs, 2, "the shared input is read once");
    cr_expect(p->decisions[7].why && strstr(p->decisions[7].why, "more operations"), "%s",
              p->decisions[7].why);
    done(&g, graph, p);
    /* Eight ADDs, each of a new input: the chain of seven reads eight tensors, the eighth ADD
     * would make nine. */
    ug_init(&g);
    for (UINT v = 0; v < 8; ++v) {
        binary(&g, DML_OPERATOR_ELEMENT_WISE_ADD, t);
        if (v == 0)
            ug_input(&g, 0, 0, 0);
        else
            ug_edge(&g, v - 1, v, 0);
        ug_input(&g, v + 1, v, 1);
    }
    ug_output(&g, 7, 0);
    plan_of(&g, 9, 1, &graph, &p);
    cr_assert_eq(p->n_steps, 2);
    cr_expect_eq(p->steps[0].map->n_inputs, 8);
    cr_expect(p->decisions[6].why && strstr(p->decisions[6].why, "more tensors"), "%s",
              p->decisions[6].why);
    done(&g, graph, p);
}

/* An activation after DIAGONAL_MATRIX1 (a map of encodings that keeps its band in the
 * activation's parameters) stays a step of its own: fused, it would overwrite the band. */
Test(graph_plan, no_activation_fused_onto_a_diagonal)
{
    unit_graph g;
    unit_tensor to, ri, ro;
    const UINT s[2] = {3, 4};
    ug_init(&g);
    DML_DIAGONAL_MATRIX1_OPERATOR_DESC d = {
        NULL,
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL),
        DML_TENSOR_DATA_TYPE_FLOAT32,
        {.Float32 = -2.0f},
        0,
        2};
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {
        unit_tensor_set(&ri, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL),
        unit_tensor_set(&ro, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL)};
    ug_node(&g, DML_OPERATOR_DIAGONAL_MATRIX1, &d);
    ug_node(&g, DML_OPERATOR_ACTIVATION_RELU, &relu);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    dmli_graph *graph;
    dmli_graph_plan *p;
    ug_plan(ug_desc(&g, 0, 1), &graph, &p);
    cr_expect_eq(p->n_steps, 2);
    cr_expect_eq(p->decisions[0].fused_into, -1);
    dmli_graph_plan_free(p);
    dmli_graph_free(graph);
    ug_free(&g);
}
