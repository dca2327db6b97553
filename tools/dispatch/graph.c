/* SPDX-License-Identifier: MIT */
/*
 * A graph dispatchable (a dmlcl extension of DxDispatch's format, docs/dispatch.md): a
 * DML_GRAPH_DESC of several operator nodes written in JSON, compiled with CompileGraph.
 * Values are named: the graph's inputs, and each node's outputs. A node's input names a
 * graph input (an input edge) or another node's output (an intermediate edge); the graph's
 * outputs name node outputs (output edges). The graph's bind points are its inputs and
 * outputs by name, one slot each, so dispatch commands and the initialization bindings
 * (OWNED_BY_DML inputs) read as they do for an operator.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "dispatch.h"

/* A named value: a graph input (node -1, index: the graph input) or a node output. */
typedef struct value {
    const char *name;
    int node;
    unsigned index;
} value;

static const value *find_value(const value *v, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; ++i)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

/* A list of names at PATH.key: a JSON list of unique strings. */
static int name_list(dsp_ctx *c, const cJSON *obj, const char *key, unsigned *n, const cJSON **list)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (x == NULL)
        return dsp_fail(c, "a graph dispatchable needs %s (a list of value names)", key);
    size_t mark = dsp_push_key(c, key);
    int rc = 0;
    if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) == 0)
        rc = dsp_fail(c, "must be a list of at least one value name");
    *n = rc ? 0 : (unsigned)cJSON_GetArraySize(x);
    unsigned i = 0;
    for (const cJSON *e = rc ? NULL : x->child; e != NULL && rc == 0; e = e->next, ++i) {
        size_t mi = dsp_push_index(c, i);
        if (!cJSON_IsString(e))
            rc = dsp_fail(c, "a value name is a string");
        for (const cJSON *o = x->child; rc == 0 && o != e; o = o->next)
            if (strcmp(o->valuestring, e->valuestring) == 0)
                rc = dsp_fail(c, "\"%.200s\" appears twice", e->valuestring);
        dsp_pop(c, mi);
    }
    dsp_pop(c, mark);
    *list = x;
    return rc;
}

/* The bind point of node d named key, or a failure listing them. */
static const dsp_bind_point *node_point(dsp_ctx *c, const dsp_dispatchable *d, const char *key,
                                        int output)
{
    char list[512] = "";
    for (unsigned i = 0, len = 0; i < d->n_points && len < sizeof list; ++i) {
        if (strcmp(d->points[i].name, key) == 0) {
            if (d->points[i].output != output)
                break;
            return &d->points[i];
        }
        if (d->points[i].output == output)
            len += (unsigned)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                      d->points[i].name);
    }
    dsp_fail(c, "%s has no %s of this name (its %ss: %s)", d->op_name, output ? "output" : "input",
             output ? "output" : "input", list);
    return NULL;
}

/* Each entry of a node's "inputs" or "outputs": bind point -> a name, or a list of names for a
 * list member; calls back with (slot, name). */
typedef int (*slot_fn)(dsp_ctx *c, void *ctx, unsigned node, const dsp_dispatchable *d,
                       unsigned slot, const char *name);

static int node_slots(dsp_ctx *c, const cJSON *obj, const char *key, unsigned node,
                      const dsp_dispatchable *d, int output, slot_fn fn, void *ctx)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (x == NULL)
        return dsp_fail(c, "a graph node needs %s (bind point -> value name)", key);
    size_t mark = dsp_push_key(c, key);
    int rc = cJSON_IsObject(x) ? 0 : dsp_fail(c, "must be an object: bind point -> value name");
    for (const cJSON *p = rc ? NULL : x->child; p != NULL && rc == 0; p = p->next) {
        size_t mp = dsp_push_key(c, p->string);
        const dsp_bind_point *bp = node_point(c, d, p->string, output);
        unsigned n = cJSON_IsArray(p) ? (unsigned)cJSON_GetArraySize(p) : 1;
        if (bp == NULL)
            rc = -1;
        for (const cJSON *o = x->child; rc == 0 && o != p; o = o->next)
            if (strcmp(o->string, p->string) == 0)
                rc = dsp_fail(c, "appears twice");
        if (rc == 0 && n != bp->count)
            rc = dsp_fail(c, "%s takes %u value%s, %u %s given", bp->name, bp->count,
                          bp->count == 1 ? "" : "s", n, n == 1 ? "is" : "are");
        for (unsigned k = 0; rc == 0 && k < n; ++k) {
            const cJSON *e = cJSON_IsArray(p) ? cJSON_GetArrayItem(p, (int)k) : p;
            size_t mk = cJSON_IsArray(p) ? dsp_push_index(c, k) : c->path_len;
            if (!cJSON_IsString(e))
                rc = dsp_fail(c, "a value name is a string");
            else if (d->slot_tensors[bp->first + k] == NULL)
                rc = dsp_fail(c,
                              "%s is absent from the desc (an optional tensor left out): "
                              "nothing connects to it",
                              bp->name);
            else
                rc = fn(c, ctx, node, d, bp->first + k, e->valuestring);
            dsp_pop(c, mk);
        }
        dsp_pop(c, mp);
    }
    dsp_pop(c, mark);
    return rc;
}

typedef struct reader {
    value *values;
    unsigned n_values;
    dsp_dispatchable *g;
    unsigned *uses; /* per graph input: the nodes that read it */
} reader;

static int define_output(dsp_ctx *c, void *ctx, unsigned node, const dsp_dispatchable *d,
                         unsigned slot, const char *name)
{
    reader *r = ctx;
    const value *v = find_value(r->values, r->n_values, name);
    if (v != NULL)
        return dsp_fail(c, "\"%.200s\" is already %s", name,
                        v->node < 0 ? "a graph input" : "another node's output");
    r->values[r->n_values++] = (value){name, (int)node, slot - d->n_inputs};
    return 0;
}

static int connect_input(dsp_ctx *c, void *ctx, unsigned node, const dsp_dispatchable *d,
                         unsigned slot, const char *name)
{
    reader *r = ctx;
    dsp_dispatchable *g = r->g;
    const value *v = find_value(r->values, r->n_values, name);
    if (v == NULL)
        return dsp_fail(c, "\"%.200s\" is neither a graph input nor a node's output", name);
    if (v->node == (int)node)
        return dsp_fail(c, "\"%.200s\" is this node's own output", name);
    if (v->node < 0) {
        g->in_edges[g->n_in_edges++] = (DML_INPUT_GRAPH_EDGE_DESC){v->index, node, slot, NULL};
        /* The graph input's tensor (its flags: OWNED_BY_DML) is its first reader's. */
        if (r->uses[v->index]++ == 0)
            g->slot_tensors[v->index] = d->slot_tensors[slot];
    } else {
        g->mid_edges[g->n_mid_edges++] =
            (DML_INTERMEDIATE_GRAPH_EDGE_DESC){(UINT)v->node, v->index, node, slot, NULL};
    }
    return 0;
}

int dsp_graph_parse(dsp_ctx *c, const cJSON *obj, dsp_dispatchable *g)
{
    const cJSON *inputs, *outputs, *nodes = cJSON_GetObjectItemCaseSensitive(obj, "nodes");
    unsigned n_in, n_out;
    if (name_list(c, obj, "inputs", &n_in, &inputs) ||
        name_list(c, obj, "outputs", &n_out, &outputs))
        return -1;
    if (nodes == NULL)
        return dsp_fail(c, "a graph dispatchable needs nodes (name -> {type, desc, inputs, "
                           "outputs})");
    size_t mark = dsp_push_key(c, "nodes");
    if (!cJSON_IsObject(nodes) || cJSON_GetArraySize(nodes) == 0) {
        int rc = dsp_fail(c, "must be an object of at least one node: name -> {type, desc, "
                             "inputs, outputs}");
        dsp_pop(c, mark);
        return rc;
    }
    g->op_name = "the graph";
    g->graph = 1;
    g->n_nodes = (unsigned)cJSON_GetArraySize(nodes);
    g->nodes = dsp_alloc(c, g->n_nodes * sizeof *g->nodes);
    /* Read every node, and count the edges. */
    unsigned n_values = n_in, n_node_inputs = 0, i = 0;
    int rc = g->nodes ? 0 : -1;
    for (const cJSON *x = nodes->child; x != NULL && rc == 0; x = x->next, ++i) {
        static const char *const keys[] = {"type", "desc", "inputs", "outputs", NULL};
        dsp_dispatchable *d = &g->nodes[i];
        size_t mn = dsp_push_key(c, x->string);
        d->name = x->string;
        if (!cJSON_IsObject(x))
            rc = dsp_fail(c, "a graph node is {type, desc, inputs, outputs}");
        else if ((rc = dsp_check_keys(c, x, keys, "a graph node")) == 0)
            rc = dsp_op_parse(c, cJSON_GetObjectItemCaseSensitive(x, "type"),
                              cJSON_GetObjectItemCaseSensitive(x, "desc"), d);
        for (const cJSON *o = nodes->child; rc == 0 && o != x; o = o->next)
            if (strcmp(o->string, x->string) == 0)
                rc = dsp_fail(c, "a second node of this name (names are unique)");
        n_values += d->n_outputs;
        n_node_inputs += d->n_inputs;
        dsp_pop(c, mn);
    }
    reader r = {dsp_alloc(c, (n_values + 1) * sizeof *r.values), 0, g,
                dsp_alloc(c, n_in * sizeof *r.uses)};
    g->in_edges = dsp_alloc(c, (n_node_inputs + 1) * sizeof *g->in_edges);
    g->mid_edges = dsp_alloc(c, (n_node_inputs + 1) * sizeof *g->mid_edges);
    g->out_edges = dsp_alloc(c, n_out * sizeof *g->out_edges);
    g->slot_tensors = dsp_alloc(c, (n_in + n_out) * sizeof *g->slot_tensors);
    g->points = dsp_alloc(c, (n_in + n_out) * sizeof *g->points);
    if (!r.values || !r.uses || !g->in_edges || !g->mid_edges || !g->out_edges ||
        !g->slot_tensors || !g->points)
        rc = -1;
    /* The values: graph inputs, then each node's outputs (the names its "outputs" give). */
    i = 0;
    for (const cJSON *e = rc ? NULL : inputs->child; e != NULL; e = e->next, ++i)
        r.values[r.n_values++] = (value){e->valuestring, -1, i};
    i = 0;
    for (const cJSON *x = rc ? NULL : nodes->child; x != NULL && rc == 0; x = x->next, ++i) {
        size_t mn = dsp_push_key(c, x->string);
        rc = node_slots(c, x, "outputs", i, &g->nodes[i], 1, define_output, &r);
        dsp_pop(c, mn);
    }
    /* The edges into each node. */
    i = 0;
    for (const cJSON *x = rc ? NULL : nodes->child; x != NULL && rc == 0; x = x->next, ++i) {
        size_t mn = dsp_push_key(c, x->string);
        const dsp_dispatchable *d = &g->nodes[i];
        unsigned before = g->n_in_edges + g->n_mid_edges;
        rc = node_slots(c, x, "inputs", i, d, 0, connect_input, &r);
        unsigned present = 0;
        for (unsigned s = 0; s < d->n_inputs; ++s)
            present += d->slot_tensors[s] != NULL;
        if (rc == 0 && g->n_in_edges + g->n_mid_edges - before != present)
            rc = dsp_fail_at(c, "inputs",
                             "%u of %s's %u inputs are connected: every input the "
                             "desc has needs a value",
                             g->n_in_edges + g->n_mid_edges - before, d->op_name, present);
        dsp_pop(c, mn);
    }
    dsp_pop(c, mark);
    if (rc)
        return -1;
    /* Bind points: each graph input, then each output, by name, one slot each. */
    mark = dsp_push_key(c, "inputs");
    i = 0;
    for (const cJSON *e = inputs->child; e != NULL && rc == 0; e = e->next, ++i)
        g->points[g->n_points++] = (dsp_bind_point){e->valuestring, i, 1, 0};
    dsp_pop(c, mark);
    g->n_inputs = n_in;
    mark = dsp_push_key(c, "outputs");
    i = 0;
    for (const cJSON *e = rc ? NULL : outputs->child; e != NULL && rc == 0; e = e->next, ++i) {
        const value *v = find_value(r.values, r.n_values, e->valuestring);
        size_t mi = dsp_push_index(c, i);
        if (v == NULL || v->node < 0)
            rc = dsp_fail(c, "\"%.200s\" is %s: a graph output is a node's output", e->valuestring,
                          v ? "a graph input" : "no node's output");
        else {
            const dsp_dispatchable *d = &g->nodes[v->node];
            g->out_edges[g->n_out_edges++] =
                (DML_OUTPUT_GRAPH_EDGE_DESC){(UINT)v->node, v->index, i, NULL};
            g->slot_tensors[n_in + i] = d->slot_tensors[d->n_inputs + v->index];
            g->points[g->n_points++] = (dsp_bind_point){e->valuestring, n_in + i, 1, 1};
        }
        dsp_pop(c, mi);
    }
    dsp_pop(c, mark);
    g->n_outputs = n_out;
    return rc;
}
