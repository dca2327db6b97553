/* SPDX-License-Identifier: MIT */
/*
 * Graph cases (CASE-FORMAT.md addition, README "Conformance graph cases"):
 * "op": "DML_GRAPH" with a "graph" object of nodes. Each node is built by
 * the same builder as a one-operator case (its own op, attrs and member
 * names); its tensors are names: the case's inputs (graph inputs, in file
 * order), other nodes' outputs, described in graph.tensors, and the expected
 * outputs (graph outputs, in file order). A node's "tensors" may redescribe
 * how it reads a tensor (type, shape, strides: a reinterpretation). The graph
 * is compiled with dmlcl_graph_compile (with --api com: IDMLDevice1::CompileGraph)
 * and executed on host buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define RT_MAX_NODES 32
#define RT_MAX_NAMES (2 * RT_MAX_NODES + RT_MAX_TENSORS)

typedef struct named_value {
    const char *name;
    rt_tensor *t;   /* describes the tensor (owned when an intermediate) */
    int producer;   /* node writing it, or -1: graph input `input` */
    unsigned input; /* graph input index */
    int owned;
} named_value;

typedef struct graph_run {
    const rt_case *c;
    unsigned n_values, n_nodes;
    named_value values[RT_MAX_NAMES];
    rt_build builds[RT_MAX_NODES];
    rt_case node_cases[RT_MAX_NODES];
    rt_tensor *views[RT_MAX_NODES * RT_MAX_TENSORS]; /* per member copies, owned */
    unsigned n_views;
    dmlcl_operator *ops[RT_MAX_NODES];
    DML_OPERATOR_GRAPH_NODE_DESC op_nodes[RT_MAX_NODES];
    DML_GRAPH_NODE_DESC nodes[RT_MAX_NODES];
    DML_INPUT_GRAPH_EDGE_DESC in[RT_MAX_NODES * RT_MAX_TENSORS];
    DML_INTERMEDIATE_GRAPH_EDGE_DESC mid[RT_MAX_NODES * RT_MAX_TENSORS];
    DML_OUTPUT_GRAPH_EDGE_DESC out[RT_MAX_TENSORS];
    DML_GRAPH_EDGE_DESC in_e[RT_MAX_NODES * RT_MAX_TENSORS], mid_e[RT_MAX_NODES * RT_MAX_TENSORS],
        out_e[RT_MAX_TENSORS];
    unsigned n_in, n_mid, n_out;
    rt_tensor *got[RT_MAX_TENSORS]; /* per graph output: the producing build's output */
    char why[RT_WHY_MAX];
} graph_run;

static int fail(graph_run *g, const char *fmt, ...) RT_PRINTF(2, 3);
static int fail(graph_run *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, ap);
    va_end(ap);
    return -1;
}

static named_value *find(graph_run *g, const char *name)
{
    for (unsigned i = 0; i < g->n_values; ++i)
        if (strcmp(g->values[i].name, name) == 0)
            return &g->values[i];
    return NULL;
}

/* A described tensor with placeholder data: builders read descriptions, not data. */
static rt_tensor *describe(graph_run *g, const cJSON *j, const char *what)
{
    rt_tensor *t = rt_tensor_parse(j, what, g->why, sizeof g->why);
    if (t != NULL && t->elems == NULL)
        t->elems = calloc(t->count ? t->count : 1, t->type->size);
    return t;
}

/* graph.tensors: the intermediates; the case's inputs: the graph inputs. */
static int collect_values(graph_run *g, const cJSON *tensors)
{
    for (unsigned i = 0; i < g->c->n_inputs; ++i)
        g->values[g->n_values++] = (named_value){g->c->inputs[i].name, g->c->inputs[i].t, -1, i, 0};
    for (const cJSON *k = tensors ? tensors->child : NULL; k != NULL; k = k->next) {
        if (g->n_values == RT_MAX_NAMES || find(g, k->string))
            return fail(g, "graph.tensors.%s: a duplicate name or too many tensors", k->string);
        char what[128];
        snprintf(what, sizeof what, "graph.tensors.%s", k->string);
        rt_tensor *t = describe(g, k, what);
        if (t == NULL)
            return -1;
        g->values[g->n_values++] = (named_value){k->string, t, -2, 0, 1};
    }
    return 0;
}

/* The node's case: its op and attrs, its members' tensors, its output descriptions. */
static int node_case(graph_run *g, const cJSON *node, unsigned v, rt_case *nc)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(node, "op");
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(node, "inputs");
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(node, "outputs");
    const cJSON *views = cJSON_GetObjectItemCaseSensitive(node, "tensors");
    if (!cJSON_IsString(op) || !cJSON_IsObject(ins) || !cJSON_IsObject(outs))
        return fail(g, "graph.nodes[%u] needs \"op\", \"inputs\" and \"outputs\"", v);
    memset(nc, 0, sizeof *nc);
    nc->name = g->c->name;
    nc->op = op->valuestring;
    nc->attrs = cJSON_GetObjectItemCaseSensitive(node, "attrs");
    nc->expect = RT_EXPECT_OUTPUTS;
    for (const cJSON *k = ins->child; k != NULL && nc->n_inputs < RT_MAX_TENSORS; k = k->next) {
        named_value *src = cJSON_IsString(k) ? find(g, k->valuestring) : NULL;
        if (src == NULL)
            return fail(g, "graph.nodes[%u].inputs.%s names no input or graph tensor", v,
                        k->string);
        const cJSON *view = views ? cJSON_GetObjectItemCaseSensitive(views, k->string) : NULL;
        rt_tensor *t = view ? describe(g, view, k->string) : malloc(sizeof *t);
        if (t == NULL)
            return fail(g, "graph.nodes[%u].tensors.%s: %s", v, k->string, g->why);
        if (!view) {
            *t = *src->t; /* a per-member copy (distinct slots), sharing the data */
            t->elems = calloc(t->count ? t->count : 1, t->type->size);
            t->buffer = NULL;
        }
        g->views[g->n_views++] = t;
        nc->inputs[nc->n_inputs++] = (rt_named){k->string, t, 0, 0, NULL};
    }
    for (const cJSON *k = outs->child; k != NULL && nc->n_outputs < RT_MAX_TENSORS; k = k->next) {
        named_value *dst = cJSON_IsString(k) ? find(g, k->valuestring) : NULL;
        const rt_tensor *expected = NULL;
        for (unsigned o = 0; o < g->c->n_outputs && cJSON_IsString(k); ++o)
            if (strcmp(g->c->outputs[o].name, k->valuestring) == 0)
                expected = g->c->outputs[o].t;
        if ((!dst || dst->producer != -2) && !expected)
            return fail(g,
                        "graph.nodes[%u].outputs.%s must name a graph.tensors entry or an "
                        "expected output, written by one node",
                        v, k->string);
        if (!dst) {
            if (g->n_values == RT_MAX_NAMES)
                return fail(g, "too many graph tensors");
            dst = &g->values[g->n_values++];
            *dst = (named_value){k->valuestring, (rt_tensor *)expected, -2, 0, 0};
        }
        dst->producer = (int)v;
        nc->outputs[nc->n_outputs++] = (rt_named){k->string, dst->t, 0, 0, NULL};
    }
    return 0;
}

/* The slot of member `name` in a build: the slot holding the member's tensor. */
static int slot_of(const rt_build *b, const rt_tensor *t)
{
    for (unsigned k = 0; k < b->n_inputs; ++k)
        if (b->inputs[k] == t)
            return (int)k;
    return -1;
}

/* Edges into node v: from graph inputs or from the nodes writing its members' tensors. */
static int connect(graph_run *g, const cJSON *node, unsigned v)
{
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(node, "inputs");
    const rt_case *nc = &g->node_cases[v];
    unsigned m = 0;
    for (const cJSON *k = ins->child; k != NULL; k = k->next, ++m) {
        named_value *src = find(g, k->valuestring);
        int slot = slot_of(&g->builds[v], nc->inputs[m].t);
        if (slot < 0)
            return fail(g, "graph.nodes[%u].inputs.%s is not an input of %s", v, k->string, nc->op);
        if (src->producer == -1) {
            g->in[g->n_in] = (DML_INPUT_GRAPH_EDGE_DESC){src->input, v, (UINT)slot, NULL};
            g->in_e[g->n_in] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &g->in[g->n_in]};
            g->n_in++;
        } else if (src->producer >= 0) {
            g->mid[g->n_mid] =
                (DML_INTERMEDIATE_GRAPH_EDGE_DESC){(UINT)src->producer, 0, v, (UINT)slot, NULL};
            g->mid_e[g->n_mid] =
                (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &g->mid[g->n_mid]};
            g->n_mid++;
        } else {
            return fail(g, "graph.nodes[%u].inputs.%s: no node writes \"%s\"", v, k->string,
                        k->valuestring);
        }
    }
    return 0;
}

/* The name of graph output o: an expected output, or (error cases) graph.outputs[o]. */
static const char *output_name(const graph_run *g, unsigned o)
{
    if (g->c->n_outputs)
        return g->c->outputs[o].name;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(g->c->graph, "outputs");
    const cJSON *item = cJSON_GetArrayItem(list, (int)o);
    return cJSON_IsString(item) ? item->valuestring : "";
}

/* Output edges: each graph output from the node that writes it. */
static int connect_outputs(graph_run *g, unsigned count)
{
    for (unsigned o = 0; o < count; ++o) {
        named_value *val = find(g, output_name(g, o));
        if (val == NULL || val->producer < 0)
            return fail(g, "graph output %u (\"%s\"): no node writes it", o, output_name(g, o));
        const rt_build *b = &g->builds[val->producer];
        g->got[o] = b->n_outputs ? b->outputs[0] : NULL;
        g->out[g->n_out] = (DML_OUTPUT_GRAPH_EDGE_DESC){(UINT)val->producer, 0, o, NULL};
        g->out_e[g->n_out] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &g->out[g->n_out]};
        g->n_out++;
    }
    return 0;
}

/* Builds and creates every node, then the edges. */
static int prepare(graph_run *g, dmlcl_device *device, DML_GRAPH_DESC *desc, HRESULT *hr)
{
    const cJSON *graph = g->c->graph, *nodes = cJSON_GetObjectItemCaseSensitive(graph, "nodes");
    if (!cJSON_IsArray(nodes) || cJSON_GetArraySize(nodes) < 1 ||
        cJSON_GetArraySize(nodes) > RT_MAX_NODES)
        return fail(g, "graph.nodes must be a list of 1 to %d nodes", RT_MAX_NODES);
    if (collect_values(g, cJSON_GetObjectItemCaseSensitive(graph, "tensors")) != 0)
        return -1;
    const cJSON *node;
    cJSON_ArrayForEach(node, nodes)
    {
        unsigned v = g->n_nodes++;
        if (node_case(g, node, v, &g->node_cases[v]) != 0)
            return -1;
        const rt_op *op = rt_op_find(g->node_cases[v].op);
        if (op == NULL)
            return fail(g, "graph.nodes[%u]: unknown op \"%s\"", v, g->node_cases[v].op);
        rt_build *b = &g->builds[v];
        b->c = &g->node_cases[v];
        if (rt_build_op(op, b) != 0)
            return fail(g, "graph.nodes[%u]: %s", v, b->why);
        *hr = dmlcl_operator_create(device, &b->desc, &g->ops[v]);
        if (FAILED(*hr))
            return 1; /* the library's verdict */
        g->op_nodes[v] = (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)g->ops[v], NULL};
        g->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &g->op_nodes[v]};
    }
    unsigned v = 0;
    cJSON_ArrayForEach(node, nodes)
    {
        if (connect(g, node, v++) != 0)
            return -1;
    }
    const cJSON *listed = cJSON_GetObjectItemCaseSensitive(graph, "outputs");
    unsigned n_out = g->c->n_outputs ? g->c->n_outputs : (unsigned)cJSON_GetArraySize(listed);
    if (n_out == 0 || n_out > RT_MAX_TENSORS)
        return fail(g, "a graph case with an expected error lists its outputs in graph.outputs");
    if (connect_outputs(g, n_out) != 0)
        return -1;
    *desc = (DML_GRAPH_DESC){g->c->n_inputs, n_out,    g->n_nodes, g->nodes, g->n_in,
                             g->in_e,        g->n_out, g->out_e,   g->n_mid, g->mid_e};
    return 0;
}

/* The graph through DirectML's COM API (run_com.cpp): CompileGraph and a dispatch. */
static void execute_com(graph_run *g, dmlcl_device *device, const DML_GRAPH_DESC *desc,
                        rt_result *r)
{
    dmlcl_host_tensor in[RT_MAX_TENSORS], out[RT_MAX_TENSORS];
    const DML_OPERATOR_DESC *node_descs[RT_MAX_NODES];
    for (unsigned v = 0; v < g->n_nodes; ++v)
        node_descs[v] = &g->builds[v].desc;
    for (unsigned i = 0; i < g->c->n_inputs; ++i)
        in[i] = (dmlcl_host_tensor){g->c->inputs[i].t->buffer, g->c->inputs[i].t->buffer_size};
    for (unsigned o = 0; o < g->c->n_outputs; ++o) {
        if (rt_tensor_fill_sentinel(g->got[o]) != 0) {
            rt_verdict(r, 0, "out of memory");
            return;
        }
        out[o] = (dmlcl_host_tensor){g->got[o]->buffer, g->got[o]->buffer_size};
    }
    const char *step = "";
    HRESULT hr =
        rt_com_run_graph(device, desc, node_descs, g->c->n_inputs, in, g->c->n_outputs, out, &step);
    if (g->c->expect == RT_EXPECT_INVALID_ARGUMENT) {
        rt_expected_error(g->c, step, hr, E_INVALIDARG, r);
        return;
    }
    if (FAILED(hr)) {
        rt_verdict(r, 0, "%s returned %s: %s", step, dmlcl_hresult_name(hr), dmlcl_last_error());
        return;
    }
    for (unsigned o = 0; o < g->c->n_outputs; ++o)
        if (rt_compare_output(g->c->outputs[o].name, g->c->outputs[o].t, g->got[o], 0, r) != 0)
            return;
    rt_verdict(r, 1, "%s", "");
}

static void execute(graph_run *g, dmlcl_compiled_operator *cop, rt_result *r)
{
    dmlcl_host_tensor in[RT_MAX_TENSORS], out[RT_MAX_TENSORS];
    for (unsigned i = 0; i < g->c->n_inputs; ++i)
        in[i] = (dmlcl_host_tensor){g->c->inputs[i].t->buffer, g->c->inputs[i].t->buffer_size};
    for (unsigned o = 0; o < g->c->n_outputs; ++o) {
        if (rt_tensor_fill_sentinel(g->got[o]) != 0) {
            rt_verdict(r, 0, "out of memory");
            return;
        }
        out[o] = (dmlcl_host_tensor){g->got[o]->buffer, g->got[o]->buffer_size};
    }
    HRESULT hr = dmlcl_compiled_operator_execute(cop, g->c->n_inputs, in, g->c->n_outputs, out);
    if (FAILED(hr)) {
        rt_verdict(r, 0, "dmlcl_compiled_operator_execute returned %s: %s", dmlcl_hresult_name(hr),
                   dmlcl_last_error());
        return;
    }
    for (unsigned o = 0; o < g->c->n_outputs; ++o)
        if (rt_compare_output(g->c->outputs[o].name, g->c->outputs[o].t, g->got[o], 0, r) != 0)
            return;
    rt_verdict(r, 1, "%s", "");
}

static void run(graph_run *g, dmlcl_device *device, rt_api api, rt_result *r)
{
    DML_GRAPH_DESC desc;
    HRESULT hr = S_OK;
    int ready = prepare(g, device, &desc, &hr);
    if (ready < 0) {
        rt_verdict(r, 0, "malformed case: %s", g->why);
        return;
    }
    if (api == RT_API_COM && ready == 0) {
        execute_com(g, device, &desc, r);
        return;
    }
    dmlcl_compiled_operator *cop = NULL;
    if (ready == 0)
        hr = dmlcl_graph_compile(device, &desc, DML_EXECUTION_FLAG_NONE, &cop);
    if (g->c->expect == RT_EXPECT_INVALID_ARGUMENT)
        rt_expected_error(g->c, "dmlcl_operator_create and dmlcl_graph_compile", hr, E_INVALIDARG,
                          r);
    else if (FAILED(hr))
        rt_verdict(r, 0, "%s returned %s: %s",
                   ready ? "dmlcl_operator_create" : "dmlcl_graph_compile", dmlcl_hresult_name(hr),
                   dmlcl_last_error());
    else
        execute(g, cop, r);
    dmlcl_compiled_operator_release(cop);
}

void rt_run_graph(dmlcl_device *device, const char *device_error, rt_api api, const rt_case *c,
                  rt_result *r)
{
    if (device == NULL) {
        rt_verdict(r, 0, "no device: %s", device_error);
        return;
    }
    /* Graph edges name one tensor each: lists (version 2) are for single operators. */
    for (unsigned i = 0; i < c->n_inputs + c->n_outputs; ++i) {
        const rt_named *nd = i < c->n_inputs ? &c->inputs[i] : &c->outputs[i - c->n_inputs];
        if (nd->is_list) {
            rt_verdict(r, 0,
                       "malformed case: %s.%s is a list of tensors; a graph case's inputs "
                       "and outputs are single tensors",
                       i < c->n_inputs ? "inputs" : "expected.outputs", nd->name);
            return;
        }
    }
    graph_run *g = calloc(1, sizeof *g);
    if (g == NULL) {
        rt_verdict(r, 0, "out of memory");
        return;
    }
    g->c = c;
    run(g, device, api, r);
    for (unsigned v = 0; v < g->n_nodes; ++v) {
        dmlcl_operator_release(g->ops[v]);
        rt_build_free(&g->builds[v]);
    }
    for (unsigned i = 0; i < g->n_views; ++i)
        rt_tensor_free(g->views[i]);
    for (unsigned i = 0; i < g->n_values; ++i)
        if (g->values[i].owned)
            rt_tensor_free(g->values[i].t);
    free(g);
}
