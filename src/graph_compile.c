/* SPDX-License-Identifier: MIT */
/*
 * A compiled graph's program (program.h): the graph plan's steps (graph_plan.c), one kernel
 * each (the launch layer decides variant, grid and shape buffer per step, exactly as for an
 * operator), constant nodes and fill elements uploaded once as the program's constants, and
 * the signature a binding table checks: graph inputs and outputs (each as its largest reader
 * or its writer needs it), the temporary resource of the intermediate tensors. Binding and
 * dispatch are dispatch.c's: the steps run in order, each after the previous one, so an
 * out-of-order queue keeps the graph's data dependencies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse.h"
#include "runtime.h"

/* A node's fills read its operator's constant element. */
static bool reads_constant(const dmli_op_state *st)
{
    for (uint32_t k = 0; k < st->n_steps; ++k)
        if (st->steps[k].input == DMLI_STEP_CONSTANT)
            return true;
    return false;
}

/* Constant data and operators' fill elements as the program's constants (constant[v]: node
 * v's), zero-padded to whole 16-byte units and one unit more. */
static HRESULT upload_constants(const dmli_graph *g, dmli_program *p, uint32_t *constant)
{
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_graph_node *node = &g->nodes[v];
        if (node->st && !reads_constant(node->st))
            continue;
        const void *data = node->st ? (const void *)node->st->constant : node->data;
        size_t size = node->st ? sizeof node->st->constant : (size_t)node->data_size;
        DMLI_TRY(dmli_program_add_constant(p, data, size, (size + 31) / 16 * 16, &constant[v]));
    }
    return S_OK;
}

/* The ERROR policy reports through a table's status buffer, which graph steps do not carry. */
static HRESULT check_policies(const dmli_graph *g)
{
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_op_state *st = g->nodes[v].st;
        DMLI_UNSUPPORTED_IF(st && st->plan.kind == DMLI_PLAN_INDEXED &&
                                st->plan.policy == DMLI_OOR_ERROR,
                            "CompileGraph: node %u (%s) uses the ERROR out-of-range policy, which "
                            "graphs do not support (no status per step); dispatch it as an "
                            "operator",
                            v, g->nodes[v].name);
    }
    return S_OK;
}

/* "graph input 0", ...: the names the signature gives bindings in messages. */
static HRESULT name_slots(const dmli_graph *g, dmli_program *p)
{
    uint32_t n = g->n_inputs + g->n_outputs;
    p->names = calloc(n ? n : 1, sizeof *p->names);
    if (!p->names)
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    for (uint32_t i = 0; i < n; ++i) {
        bool out = i >= g->n_inputs;
        char name[48];
        snprintf(name, sizeof name, "graph %s %u", out ? "output" : "input",
                 out ? i - g->n_inputs : i);
        p->names[i] = malloc(strlen(name) + 1);
        if (!p->names[i])
            return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
        strcpy(p->names[i], name);
    }
    p->input_names = (const char *const *)p->names;
    p->output_names = (const char *const *)p->names + g->n_inputs;
    return S_OK;
}

/* A plan slot as the program binds it: constant nodes to their constant buffers. */
static dmli_slot program_slot(dmli_slot s, const uint32_t *constant)
{
    if (s.kind == DMLI_SLOT_CONSTANT)
        return (dmli_slot){DMLI_SLOT_CONSTANT, constant[s.index], 0};
    return s;
}

static HRESULT add_steps(const dmli_graph *g, const dmli_graph_plan *plan, dmli_program *p,
                         const uint32_t *constant)
{
    for (uint32_t i = 0; i < plan->n_steps; ++i) {
        const dmli_graph_step *s = &plan->steps[i];
        if (s->plan.empty)
            continue;
        p->label = g->nodes[s->node].label; /* the steps of this node (DMLCL_PROFILE) */
        if (s->map) {
            dmli_slot out = program_slot(s->out, constant), in[DMLI_MAP_MAX_INPUTS];
            for (uint32_t k = 0; k < s->map->n_inputs; ++k)
                in[k] = program_slot(s->ins[k], constant);
            DMLI_TRY(dmli_program_add_map(p, s->map, &out, in));
            continue;
        }
        if (s->compute) {
            dmli_slot slots[DMLI_COMPUTE_MAX_TENSORS];
            for (uint32_t k = 0; k < s->compute->n_tensors; ++k)
                slots[k] = program_slot(s->tensors[k], constant);
            DMLI_TRY(dmli_program_add_compute(p, s->compute, slots));
            continue;
        }
        if (s->reduce) {
            dmli_slot out[DMLI_REDUCE_MAX_OUTPUTS], in[DMLI_REDUCE_MAX_INPUTS];
            for (uint32_t j = 0; j < s->reduce->n_outputs; ++j)
                out[j] = program_slot(s->outs[j], constant);
            for (uint32_t k = 0; k < s->reduce->n_inputs; ++k)
                in[k] = program_slot(s->ins[k], constant);
            DMLI_TRY(dmli_program_add_reduce(p, s->reduce, out, in));
            continue;
        }
        dmli_launch launch;
        dmli_launch_plan(&s->plan, dmli_device_get_desc(p->dev), &launch);
        if (dmli_graph_verbose()) {
            char line[768];
            dmli_launch_describe(&launch, line, sizeof line);
            fprintf(stderr, "dmlcl: graph step %u launch | %s\n", (unsigned)i, line);
        }
        uint32_t idx_unit =
            s->plan.kind == DMLI_PLAN_INDEXED ? dmli_index_type_size(s->plan.idx_type) : 1;
        DMLI_TRY(dmli_program_add_launch(p, &launch, &s->plan, program_slot(s->out, constant),
                                         program_slot(s->in, constant),
                                         program_slot(s->idx, constant), idx_unit));
    }
    return S_OK;
}

HRESULT dmli_graph_compile(const dmli_graph *g, dmli_program *p)
{
    DMLI_TRY(check_policies(g));
    p->n_inputs = g->n_inputs;
    p->n_outputs = g->n_outputs;
    p->inputs = g->inputs;
    p->outputs = g->outputs;
    p->descriptor_count = g->n_inputs + g->n_outputs + 1;
    p->persistent_bytes = dmli_persistent_offset(g->inputs, g->n_inputs, g->n_inputs);
    DMLI_TRY(name_slots(g, p));
    dmli_graph_plan *plan;
    DMLI_TRY(dmli_graph_plan_build_on(g, dmli_device_get_desc(p->dev), &plan));
    dmli_graph_plan_print(g, plan);
    p->temp_bytes = plan->temp_bytes;
    uint32_t *constant = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *constant);
    HRESULT hr = constant ? upload_constants(g, p, constant)
                          : dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    if (SUCCEEDED(hr))
        hr = add_steps(g, plan, p, constant);
    p->label = NULL;
    free(constant);
    dmli_graph_plan_free(plan);
    return hr;
}
