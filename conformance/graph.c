/* SPDX-License-Identifier: MIT */
/*
 * Graph cases (an addition to docs/case-format.md; conformance/README.md,
 * "Graph cases"):
 * "op": "DML_GRAPH" with a "graph" object of nodes. Each node is built by
 * the same builder as a one-operator case (its own op, attrs and member
 * names); its tensors are names: the case's inputs (graph inputs, in file
 * order), other nodes' outputs, described in graph.tensors, and the expected
 * outputs (graph outputs, in file order). A member the operator takes as a
 * list (JOIN's InputTensors, SPLIT's OutputTensors) is a list of names; each
 * edge takes the slot its tensor was bound to, FromNodeOutputIndex the
 * writer's output slot. A node's "tensors" may redescribe how it reads a
 * tensor (type, shape, strides: a reinterpretation). The graph is compiled
 * with dmlcl_graph_compile (with --api com: IDMLDevice1::CompileGraph) and
 * executed on host buffers.
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
    int producer;   /* node writing it, or -1: graph input `input`, -2: none yet */
    unsigned input; /* graph input index */
    int owned;
    const char *member; /* the producer's output member writing it */
    int list_index;     /* its place in that member's list; -1: one tensor */
    unsigned out_slot;  /* the producer's output binding slot: FromNodeOutputIndex */
} named_value;

typedef struct graph_run {
    const rt_case *c;
    unsigned n_values, n_nodes;
    named_value values[RT_MAX_NAMES];
    rt_build builds[RT_MAX_NODES];
    rt_case node_cases[RT_MAX_NODES];
    rt_tensor *views[RT_MAX_NODES * RT_MAX_TENSORS]; /* per member copies, owned */
    unsigned n_views;
    rt_tensor *lists[2 * RT_MAX_NODES * RT_MAX_TENSORS]; /* list members' tensors, in runs */
    unsigned n_lists;
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

/* An output's tolerance in a graph case: its own, else the case's (NULL: exact). */
static const rt_tolerance *graph_tolerance(const rt_case *c, const rt_tensor *t)
{
    if (t->tol.has_ulp || t->tol.has_abs)
        return &t->tol;
    return c->tol.has_ulp || c->tol.has_abs ? &c->tol : NULL;
}

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
        g->values[g->n_values++] =
            (named_value){g->c->inputs[i].name, g->c->inputs[i].t, -1, i, 0, NULL, -1, 0};
    for (const cJSON *k = tensors ? tensors->child : NULL; k != NULL; k = k->next) {
        if (g->n_values == RT_MAX_NAMES || find(g, k->string))
            return fail(g, "graph.tensors.%s: a duplicate name or too many tensors", k->string);
        char what[128];
        snprintf(what, sizeof what, "graph.tensors.%s", k->string);
        rt_tensor *t = describe(g, k, what);
        if (t == NULL)
            return -1;
        g->values[g->n_values++] = (named_value){k->string, t, -2, 0, 1, NULL, -1, 0};
    }
    return 0;
}

/*
 * The tensor node v reads as input member `member` (list element `index`, or
 * -1): a per-member copy (distinct binding slots even for one tensor read
 * twice), or the node's redescription of it (not for list members).
 */
static rt_tensor *node_input(graph_run *g, const cJSON *views, unsigned v, const char *member,
                             int index, const cJSON *name)
{
    char what[160];
    if (index < 0)
        snprintf(what, sizeof what, "graph.nodes[%u].inputs.%s", v, member);
    else
        snprintf(what, sizeof what, "graph.nodes[%u].inputs.%s[%d]", v, member, index);
    named_value *src = cJSON_IsString(name) ? find(g, name->valuestring) : NULL;
    if (src == NULL) {
        fail(g, "%s must be a tensor name: a graph input or a graph.tensors entry", what);
        return NULL;
    }
    const cJSON *view = views ? cJSON_GetObjectItemCaseSensitive(views, member) : NULL;
    if (view && index >= 0) {
        fail(g, "graph.nodes[%u].tensors.%s: a list member takes no redescription", v, member);
        return NULL;
    }
    if (g->n_views == RT_MAX_NODES * RT_MAX_TENSORS) {
        fail(g, "%s: too many node inputs", what);
        return NULL;
    }
    rt_tensor *t = view ? describe(g, view, member) : malloc(sizeof *t);
    if (t == NULL) {
        fail(g, "graph.nodes[%u].tensors.%s: %s", v, member, view ? g->why : "out of memory");
        return NULL;
    }
    if (!view) {
        *t = *src->t; /* shares nothing: the copy gets its own placeholder data */
        t->elems = calloc(t->count ? t->count : 1, t->type->size);
        t->buffer = NULL;
    }
    g->views[g->n_views++] = t;
    return t;
}

/* The value node v writes as output member `member` (list element `index`, or -1). */
static rt_tensor *node_output(graph_run *g, unsigned v, const char *member, int index,
                              const cJSON *name)
{
    char what[160];
    if (index < 0)
        snprintf(what, sizeof what, "graph.nodes[%u].outputs.%s", v, member);
    else
        snprintf(what, sizeof what, "graph.nodes[%u].outputs.%s[%d]", v, member, index);
    if (!cJSON_IsString(name)) {
        fail(g, "%s must be a tensor name", what);
        return NULL;
    }
    named_value *dst = find(g, name->valuestring);
    const rt_tensor *expected = NULL;
    for (unsigned o = 0; o < g->c->n_outputs; ++o)
        if (strcmp(g->c->outputs[o].name, name->valuestring) == 0)
            expected = g->c->outputs[o].t;
    if ((dst && dst->producer != -2) || (!dst && !expected)) {
        fail(g,
             "%s (\"%s\") must name a graph.tensors entry or an expected output, written by "
             "one node",
             what, name->valuestring);
        return NULL;
    }
    if (!dst) {
        if (g->n_values == RT_MAX_NAMES) {
            fail(g, "too many graph tensors");
            return NULL;
        }
        dst = &g->values[g->n_values++];
        *dst = (named_value){name->valuestring, (rt_tensor *)expected, -2, 0, 0, NULL, -1, 0};
    }
    dst->producer = (int)v;
    dst->member = member;
    dst->list_index = index;
    return dst->t;
}

/*
 * One member of a node: a tensor name, or a list of names (version 2's
 * variadic tensors: JOIN's InputTensors, SPLIT's OutputTensors), which the
 * node's case gets as a list of tensors.
 */
static int node_member(graph_run *g, const cJSON *views, unsigned v, const cJSON *k, int output,
                       rt_named *nd)
{
    *nd = (rt_named){k->string, NULL, 0, 0, NULL};
    if (!cJSON_IsArray(k)) {
        nd->t = output ? node_output(g, v, k->string, -1, k)
                       : node_input(g, views, v, k->string, -1, k);
        return nd->t ? 0 : -1;
    }
    unsigned n = (unsigned)cJSON_GetArraySize(k);
    if (n > RT_MAX_TENSORS || g->n_lists + n > sizeof g->lists / sizeof g->lists[0])
        return fail(g, "graph.nodes[%u].%s.%s: a list of at most %d tensor names", v,
                    output ? "outputs" : "inputs", k->string, RT_MAX_TENSORS);
    nd->is_list = 1;
    nd->count = n;
    nd->list = &g->lists[g->n_lists];
    g->n_lists += n;
    int i = 0;
    for (const cJSON *e = k->child; e != NULL; e = e->next, ++i) {
        nd->list[i] =
            output ? node_output(g, v, k->string, i, e) : node_input(g, views, v, k->string, i, e);
        if (nd->list[i] == NULL)
            return -1;
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
    for (const cJSON *k = ins->child; k != NULL; k = k->next) {
        if (nc->n_inputs == RT_MAX_TENSORS)
            return fail(g, "graph.nodes[%u].inputs: at most %d members", v, RT_MAX_TENSORS);
        if (node_member(g, views, v, k, 0, &nc->inputs[nc->n_inputs++]) != 0)
            return -1;
    }
    for (const cJSON *k = outs->child; k != NULL; k = k->next) {
        if (nc->n_outputs == RT_MAX_TENSORS)
            return fail(g, "graph.nodes[%u].outputs: at most %d members", v, RT_MAX_TENSORS);
        if (node_member(g, views, v, k, 1, &nc->outputs[nc->n_outputs++]) != 0)
            return -1;
    }
    return 0;
}

/* Each value node v writes: the output binding slot its member names in v's build. */
static int output_slots(graph_run *g, unsigned v)
{
    const rt_build *b = &g->builds[v];
    for (unsigned i = 0; i < g->n_values; ++i) {
        named_value *val = &g->values[i];
        if (val->producer != (int)v)
            continue;
        unsigned k = 0;
        while (k < b->n_outputs && (strcmp(b->output_names[k], val->member) != 0 ||
                                    b->output_index[k] != val->list_index))
            ++k;
        if (k == b->n_outputs) {
            if (val->list_index < 0)
                return fail(g, "graph.nodes[%u].outputs.%s is not an output of %s", v, val->member,
                            g->node_cases[v].op);
            return fail(g, "graph.nodes[%u].outputs.%s[%d] is not an output of %s", v, val->member,
                        val->list_index, g->node_cases[v].op);
        }
        val->out_slot = k;
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

/* The edge into node v's input slot `slot` from value src. */
static void edge_in(graph_run *g, const named_value *src, unsigned v, unsigned slot)
{
    if (src->producer == -1) {
        g->in[g->n_in] = (DML_INPUT_GRAPH_EDGE_DESC){src->input, v, slot, NULL};
        g->in_e[g->n_in] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &g->in[g->n_in]};
        g->n_in++;
    } else {
        g->mid[g->n_mid] =
            (DML_INTERMEDIATE_GRAPH_EDGE_DESC){(UINT)src->producer, src->out_slot, v, slot, NULL};
        g->mid_e[g->n_mid] =
            (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &g->mid[g->n_mid]};
        g->n_mid++;
    }
}

/* Edges into node v: from graph inputs or from the nodes writing its members' tensors. */
static int connect(graph_run *g, const cJSON *node, unsigned v)
{
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(node, "inputs");
    const rt_case *nc = &g->node_cases[v];
    unsigned m = 0;
    for (const cJSON *k = ins->child; k != NULL; k = k->next, ++m) {
        const rt_named *nd = &nc->inputs[m];
        unsigned n = nd->is_list ? nd->count : 1;
        for (unsigned e = 0; e < n; ++e) {
            const cJSON *name = nd->is_list ? cJSON_GetArrayItem(k, (int)e) : k;
            char what[160];
            if (nd->is_list)
                snprintf(what, sizeof what, "graph.nodes[%u].inputs.%s[%u]", v, k->string, e);
            else
                snprintf(what, sizeof what, "graph.nodes[%u].inputs.%s", v, k->string);
            named_value *src = find(g, name->valuestring);
            int slot = slot_of(&g->builds[v], nd->is_list ? nd->list[e] : nd->t);
            if (slot < 0)
                return fail(g, "%s is not an input of %s", what, nc->op);
            if (src->producer == -2)
                return fail(g, "%s: no node writes \"%s\"", what, name->valuestring);
            edge_in(g, src, v, (UINT)slot);
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
        g->got[o] = b->outputs[val->out_slot];
        g->out[g->n_out] =
            (DML_OUTPUT_GRAPH_EDGE_DESC){(UINT)val->producer, val->out_slot, o, NULL};
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
        if (FAILED(b->frontend_hr)) {
            *hr = b->frontend_hr; /* the front-end's verdict stands for the creation's */
            return 1;
        }
        if (output_slots(g, v) != 0)
            return -1;
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
        if (rt_compare_output(g->c->outputs[o].name, g->c->outputs[o].t, g->got[o],
                              graph_tolerance(g->c, g->c->outputs[o].t), r) != 0)
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
        if (rt_compare_output(g->c->outputs[o].name, g->c->outputs[o].t, g->got[o],
                              graph_tolerance(g->c, g->c->outputs[o].t), r) != 0)
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
    /* Graph inputs and outputs are one tensor each; lists belong to nodes' members. */
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
