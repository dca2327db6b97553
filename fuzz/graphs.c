/* SPDX-License-Identifier: MIT */
/*
 * fuzz_graphs: bytes -> a DML_GRAPH_DESC (IDMLDevice1::CompileGraph's
 * input) of up to 6 nodes: operators from fuzz_operators' decoder, or
 * IDENTITY / GATHER / SLICE1 / JOIN / PADDING of one small 2-D shape (so
 * that edges often connect; now and then an input DML_TENSOR_FLAG_OWNED_BY_DML,
 * which only a graph input may feed), created host-only (a refused one leaves its
 * node's Operator NULL), constant data nodes, and nodes of a wrong type or
 * no Desc; then edges wired from the bytes (each node input from a graph
 * input or an earlier node's output, every output nothing reads a graph
 * output) plus raw edges of any type and index, and counts that may
 * disagree.
 *
 * dmli_graph_import must return, with a message when it refuses (no crash,
 * no undefined behaviour under the sanitizers). An accepted graph is planned
 * (dmli_graph_plan_build, host-only) and every step must stay inside what
 * its slots bind: graph inputs and outputs their TotalTensorSizeInBytes,
 * an intermediate the temporary resource from its offset, a constant its
 * DataSize (or an operator's 16-byte fill element), with a launch OpenCL
 * accepts on each device description (fuzz_check_launches).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "drivers.h"
#include "graph.h"
#include "scatter.h"

#define MAX_NODES 6
#define MAX_EDGES 24

typedef struct shaped {
    UINT in_sizes[2], in_strides[2], idx_sizes[2], out_sizes[2], out2_sizes[2];
    DML_BUFFER_TENSOR_DESC in, idx, out, in2;
    DML_TENSOR_DESC in_t, idx_t, out_t, in2_t, join_in[2];
    UINT offsets[2], sizes[2], start[2], end[2];
    INT strides[2];
    union {
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
        DML_GATHER_OPERATOR_DESC gather;
        DML_SLICE1_OPERATOR_DESC slice;
        DML_JOIN_OPERATOR_DESC join;
        DML_PADDING_OPERATOR_DESC pad;
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC binary;
        DML_ELEMENT_WISE_EXP_OPERATOR_DESC unary;
    } d;
    DML_SCALE_BIAS scale_bias;
} shaped;

typedef struct graph_storage {
    shaped shapes[MAX_NODES];
    DML_OPERATOR_DESC ops[MAX_NODES];
    dmlcl_operator *made[MAX_NODES];
    DML_OPERATOR_GRAPH_NODE_DESC op_nodes[MAX_NODES];
#if DML_TARGET_VERSION >= 0x6200
    DML_CONSTANT_DATA_GRAPH_NODE_DESC const_nodes[MAX_NODES];
#endif
    unsigned char const_data[MAX_NODES][64];
    DML_GRAPH_NODE_DESC nodes[MAX_NODES];
    UINT inputs_of[MAX_NODES]; /* each node's input count, as wiring sees it */
    DML_INPUT_GRAPH_EDGE_DESC in_e[MAX_EDGES];
    DML_INTERMEDIATE_GRAPH_EDGE_DESC mid_e[MAX_EDGES];
    DML_OUTPUT_GRAPH_EDGE_DESC out_e[MAX_EDGES];
    DML_GRAPH_EDGE_DESC in_g[MAX_EDGES], mid_g[MAX_EDGES], out_g[MAX_EDGES];
    UINT n_in, n_mid, n_out;
} graph_storage;

static void buffer(DML_BUFFER_TENSOR_DESC *b, DML_TENSOR_DESC *t, DML_TENSOR_DATA_TYPE type,
                   const UINT *sizes, const UINT *strides)
{
    *b = (DML_BUFFER_TENSOR_DESC){type, DML_TENSOR_FLAG_NONE, 2, sizes, strides, 0, 0};
    b->TotalTensorSizeInBytes = DMLCalcBufferTensorSize(type, 2, sizes, strides);
    *t = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, b};
}

/* One of seven operators on the graph's shape [r, c] of type `type` (element-wise ones too, so
 * that chains form and fuse), parameters from the bytes. */
static void shaped_op(fuzz_in *in, shaped *s, const UINT *rc, DML_TENSOR_DATA_TYPE type,
                      DML_OPERATOR_DESC *op);

/* The same, its first input DML_TENSOR_FLAG_OWNED_BY_DML now and then (a graph input's). */
static void shaped_node(fuzz_in *in, shaped *s, const UINT *rc, DML_TENSOR_DATA_TYPE type,
                        DML_OPERATOR_DESC *op)
{
    shaped_op(in, s, rc, type, op);
    if (fuzz_u8(in) % 8 == 0)
        s->in.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
}

static void shaped_op(fuzz_in *in, shaped *s, const UINT *rc, DML_TENSOR_DATA_TYPE type,
                      DML_OPERATOR_DESC *op)
{
    memset(s, 0, sizeof *s);
    UINT r = rc[0], c = rc[1];
    s->in_sizes[0] = r;
    s->in_sizes[1] = c;
    s->out_sizes[0] = r;
    s->out_sizes[1] = c;
    unsigned kind = fuzz_u8(in) % 7;
    const UINT *strides = NULL;
    if (fuzz_u8(in) % 4 == 0) { /* read transposed ([c, r] packed), or broadcast along rows */
        bool broadcast = fuzz_u8(in) & 1;
        s->in_strides[0] = broadcast ? 0 : 1;
        s->in_strides[1] = broadcast ? 1 : r;
        strides = s->in_strides;
    }
    if (kind == 1) { /* GATHER along axis a, k indices */
        UINT a = fuzz_u8(in) & 1, k = 1 + fuzz_u32(in) % 6;
        s->idx_sizes[0] = 1;
        s->idx_sizes[1] = k;
        s->out_sizes[a] = k;
        buffer(&s->idx, &s->idx_t,
               fuzz_u8(in) & 1 ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32,
               s->idx_sizes, NULL);
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        s->d.gather = (DML_GATHER_OPERATOR_DESC){&s->in_t, &s->idx_t, &s->out_t, a, 1};
        *op = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &s->d.gather};
        return;
    }
    if (kind == 2) { /* SLICE1: a window, read forwards or backwards */
        for (int d = 0; d < 2; ++d) {
            UINT n = s->in_sizes[d];
            s->offsets[d] = fuzz_u32(in) % n;
            s->sizes[d] = 1 + fuzz_u32(in) % (n - s->offsets[d]);
            s->strides[d] = (INT)(1 + fuzz_u8(in) % 2) * (fuzz_u8(in) & 1 ? -1 : 1);
            UINT step = (UINT)(s->strides[d] < 0 ? -s->strides[d] : s->strides[d]);
            s->out_sizes[d] = (s->sizes[d] + step - 1) / step;
        }
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        s->d.slice =
            (DML_SLICE1_OPERATOR_DESC){&s->in_t, &s->out_t, 2, s->offsets, s->sizes, s->strides};
        *op = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, &s->d.slice};
        return;
    }
    if (kind == 3) { /* JOIN of two [r, c] along axis a */
        UINT a = fuzz_u8(in) & 1;
        s->out_sizes[a] *= 2;
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->in2, &s->in2_t, type, s->in_sizes, NULL);
        s->join_in[0] = s->in_t;
        s->join_in[1] = s->in2_t;
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        s->d.join = (DML_JOIN_OPERATOR_DESC){2, s->join_in, &s->out_t, a};
        *op = (DML_OPERATOR_DESC){DML_OPERATOR_JOIN, &s->d.join};
        return;
    }
    if (kind == 4) { /* PADDING, constant or reflected */
        for (int d = 0; d < 2; ++d) {
            s->start[d] = fuzz_u8(in) % 3;
            s->end[d] = fuzz_u8(in) % 3;
            s->out_sizes[d] += s->start[d] + s->end[d];
        }
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        DML_PADDING_MODE mode =
            fuzz_u8(in) & 1 ? DML_PADDING_MODE_REFLECTION : DML_PADDING_MODE_CONSTANT;
        s->d.pad =
            (DML_PADDING_OPERATOR_DESC){&s->in_t, &s->out_t, mode, 0.0f, 2, s->start, s->end};
        *op = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING, &s->d.pad};
        return;
    }
    if (kind == 5) { /* an element-wise binary operator (a type it refuses: no node) */
        static const DML_OPERATOR_TYPE ops[] = {
            DML_OPERATOR_ELEMENT_WISE_ADD,     DML_OPERATOR_ELEMENT_WISE_MULTIPLY,
            DML_OPERATOR_ELEMENT_WISE_MAX,     DML_OPERATOR_ELEMENT_WISE_DIVIDE,
            DML_OPERATOR_ELEMENT_WISE_BIT_AND, DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS};
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->in2, &s->in2_t, type, s->in_sizes, NULL);
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        s->d.binary = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){&s->in_t, &s->in2_t, &s->out_t};
        *op = (DML_OPERATOR_DESC){ops[fuzz_u8(in) % 6], &s->d.binary};
        return;
    }
    if (kind == 6) { /* an element-wise unary operator or activation, ScaleBias now and then */
        static const DML_OPERATOR_TYPE ops[] = {
            DML_OPERATOR_ELEMENT_WISE_EXP,   DML_OPERATOR_ELEMENT_WISE_ABS,
            DML_OPERATOR_ELEMENT_WISE_ERF,   DML_OPERATOR_ACTIVATION_RELU,
            DML_OPERATOR_ACTIVATION_SIGMOID, DML_OPERATOR_ELEMENT_WISE_IDENTITY};
        unsigned which = fuzz_u8(in) % 6;
        buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
        buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
        s->scale_bias = (DML_SCALE_BIAS){(float)(fuzz_u8(in) % 5) - 2.0f, 0.5f};
        bool sb = which != 3 && which != 4 && (fuzz_u8(in) & 1); /* the activations have none */
        s->d.unary =
            (DML_ELEMENT_WISE_EXP_OPERATOR_DESC){&s->in_t, &s->out_t, sb ? &s->scale_bias : NULL};
        *op = (DML_OPERATOR_DESC){ops[which], &s->d.unary};
        return;
    }
    buffer(&s->in, &s->in_t, type, s->in_sizes, strides);
    buffer(&s->out, &s->out_t, type, s->out_sizes, NULL);
    s->d.identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){&s->in_t, &s->out_t, NULL};
    *op = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &s->d.identity};
}

static const char *maybe_name(fuzz_in *in, const char *name)
{
    return fuzz_u8(in) & 1 ? name : NULL;
}

static void decode_nodes(fuzz_in *in, graph_storage *s, UINT n)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT64,
        DML_TENSOR_DATA_TYPE_FLOAT16};
    UINT rc[2] = {1 + fuzz_u32(in) % 8, 1 + fuzz_u32(in) % 8};
    DML_TENSOR_DATA_TYPE type = types[fuzz_u8(in) % 4];
    for (UINT v = 0; v < n; ++v) {
        unsigned kind = fuzz_u8(in) % 8;
        s->inputs_of[v] = 1;
        if (kind < 5) { /* an operator: the graph's shape mostly, any descriptor sometimes */
            if (kind == 0)
                fuzz_decode_operator(in, v, &s->ops[v]);
            else
                shaped_node(in, &s->shapes[v], rc, type, &s->ops[v]);
            if (SUCCEEDED(dmlcl_operator_create(NULL, &s->ops[v], &s->made[v])))
                s->inputs_of[v] = dmlcl_operator_input_count(s->made[v]);
            s->op_nodes[v] =
                (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)s->made[v], maybe_name(in, "node")};
            s->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &s->op_nodes[v]};
            continue;
        }
#if DML_TARGET_VERSION >= 0x6200
        if (kind < 7) { /* constant data */
            UINT size = fuzz_u32(in) % 65;
            for (UINT b = 0; b < size; ++b)
                s->const_data[v][b] = fuzz_u8(in);
            s->const_nodes[v] = (DML_CONSTANT_DATA_GRAPH_NODE_DESC){
                fuzz_u8(in) % 8 ? s->const_data[v] : NULL, size, maybe_name(in, "constant")};
            s->nodes[v] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_CONSTANT, &s->const_nodes[v]};
            s->inputs_of[v] = 0;
            continue;
        }
#endif
        /* Not a node DirectML knows, or no description. */
        s->nodes[v] = (DML_GRAPH_NODE_DESC){(DML_GRAPH_NODE_TYPE)(fuzz_u8(in) % 4),
                                            fuzz_u8(in) & 1 ? &s->op_nodes[v] : NULL};
    }
}

static void add_input(graph_storage *s, UINT graph_input, UINT to, UINT slot, const char *name)
{
    if (s->n_in < MAX_EDGES)
        s->in_e[s->n_in++] = (DML_INPUT_GRAPH_EDGE_DESC){graph_input, to, slot, name};
}

static void add_mid(graph_storage *s, UINT from, UINT out, UINT to, UINT slot, const char *name)
{
    if (s->n_mid < MAX_EDGES)
        s->mid_e[s->n_mid++] = (DML_INTERMEDIATE_GRAPH_EDGE_DESC){from, out, to, slot, name};
}

static void add_output(graph_storage *s, UINT from, UINT out, UINT graph_output, const char *name)
{
    if (s->n_out < MAX_EDGES)
        s->out_e[s->n_out++] = (DML_OUTPUT_GRAPH_EDGE_DESC){from, out, graph_output, name};
}

/*
 * Each node input from a graph input (a new one, or now and then one already fed) or an
 * earlier node's first output; every node output nothing reads (and now and then one that
 * is read) becomes a graph output; then raw edges. *inputs, *outputs: the counts wired.
 */
static void decode_edges(fuzz_in *in, graph_storage *s, UINT n, UINT *inputs, UINT *outputs)
{
    UINT consumed[MAX_NODES] = {0}, next_in = 0, next_out = 0;
    for (UINT v = 0; v < n; ++v)
        for (UINT k = 0; k < s->inputs_of[v] && k < 8; ++k) {
            unsigned pick = fuzz_u8(in) % 16;
            if (pick == 15)
                continue; /* left unconnected */
            if (v == 0 || pick < 6) {
                UINT gi = next_in && fuzz_u8(in) % 4 == 0 ? fuzz_u32(in) % next_in : next_in++;
                add_input(s, gi, v, k, maybe_name(in, "in"));
            } else {
                UINT from = fuzz_u32(in) % v;
                add_mid(s, from, 0, v, k, maybe_name(in, "mid"));
                consumed[from]++;
            }
        }
    for (UINT v = 0; v < n; ++v)
        if (!consumed[v] || fuzz_u8(in) % 8 == 0)
            add_output(s, v, 0, next_out++, maybe_name(in, "out"));
    for (unsigned extra = fuzz_u8(in) % 8 == 0 ? 1 + fuzz_u8(in) % 3 : 0; extra; --extra) {
        UINT a = fuzz_u32(in), b = fuzz_u32(in), c = fuzz_u32(in), d = fuzz_u32(in);
        switch (fuzz_u8(in) % 3) {
        case 0: add_input(s, a, b, c, NULL); break;
        case 1: add_mid(s, a, b, c, d, NULL); break;
        default: add_output(s, a, b, c, NULL);
        }
    }
    for (UINT e = 0; e < s->n_in; ++e)
        s->in_g[e] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &s->in_e[e]};
    for (UINT e = 0; e < s->n_mid; ++e)
        s->mid_g[e] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &s->mid_e[e]};
    for (UINT e = 0; e < s->n_out; ++e)
        s->out_g[e] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &s->out_e[e]};
    if (s->n_mid && fuzz_u8(in) % 16 == 0) /* an edge of the wrong type, or no Desc */
        s->mid_g[fuzz_u32(in) % s->n_mid] = (DML_GRAPH_EDGE_DESC){
            (DML_GRAPH_EDGE_TYPE)(fuzz_u8(in) % 4), fuzz_u8(in) & 1 ? &s->in_e[0] : NULL};
    *inputs = next_in;
    *outputs = next_out;
}

static uint32_t index_bytes(dmli_index_type t)
{
    switch (t) {
    case DMLI_INDEX_INT8:
    case DMLI_INDEX_UINT8: return 1;
    case DMLI_INDEX_INT16:
    case DMLI_INDEX_UINT16: return 2;
    case DMLI_INDEX_INT64:
    case DMLI_INDEX_UINT64: return 8;
    default: return 4;
    }
}

/* What a step's slot binds, as a tensor of its bytes; 1 with why when the slot is off. */
static int slot_tensor(const dmli_graph *g, const dmli_graph_plan *p, dmli_slot s,
                       uint32_t elem_bytes, dmli_tensor *t, char *why)
{
    memset(t, 0, sizeof *t);
    t->present = true;
    t->elem_bytes = elem_bytes;
    switch (s.kind) {
    case DMLI_SLOT_INPUT:
        if (s.index >= g->n_inputs)
            break;
        t->total_bytes = g->inputs[s.index].total_bytes;
        return 0;
    case DMLI_SLOT_OUTPUT:
        if (s.index >= g->n_outputs)
            break;
        t->total_bytes = g->outputs[s.index].total_bytes;
        return 0;
    case DMLI_SLOT_TEMP:
        if (s.offset > p->temp_bytes || s.offset % DMLI_GRAPH_TEMP_ALIGN)
            break;
        t->total_bytes = p->temp_bytes - s.offset;
        return 0;
    case DMLI_SLOT_CONSTANT:
        if (s.index >= g->n_nodes)
            break;
        t->total_bytes = g->nodes[s.index].st ? 16 : g->nodes[s.index].data_size;
        return 0;
    case DMLI_SLOT_STATUS: /* programs only: a graph plan binds no status */ break;
    case DMLI_SLOT_PERSISTENT: /* programs only: a graph plan binds no persistent resource */ break;
    }
    snprintf(why, FUZZ_WHY, "graph step slot kind %d index %u offset %llu is outside the graph",
             (int)s.kind, s.index, (unsigned long long)s.offset);
    return 1;
}

/* A map step: each tensor it reaches inside what its slot binds. */
static int check_map_step(const dmli_graph *g, const dmli_graph_plan *p, const dmli_graph_step *st,
                          const char *stage, char *why)
{
    const dmli_map *m = st->map;
    if (m->empty)
        return 0;
    for (uint32_t k = 0; k <= m->n_inputs; ++k) {
        const dmli_map_tensor *t = k ? &m->in[k - 1] : &m->out;
        dmli_slot slot = k ? st->ins[k - 1] : st->out;
        uint32_t eb = dmli_type_size(t->type);
        dmli_tensor bound;
        if (slot_tensor(g, p, slot, eb, &bound, why))
            return 1;
        __int128 lo = t->offset, hi = t->offset;
        for (int d = 0; d < m->rank; ++d) {
            __int128 span = (__int128)(m->size[d] - 1) * t->stride[d];
            *(span < 0 ? &lo : &hi) += span;
        }
        if (lo < 0 || (hi + 1) * eb > (__int128)bound.total_bytes) {
            snprintf(why, FUZZ_WHY, "%s: map %s reaches elements [%lld, %lld] of %llu bytes", stage,
                     k ? "input" : "output", (long long)lo, (long long)hi,
                     (unsigned long long)bound.total_bytes);
            return 1;
        }
    }
    if (st->out.kind == DMLI_SLOT_INPUT || st->out.kind == DMLI_SLOT_CONSTANT) {
        snprintf(why, FUZZ_WHY, "%s writes a graph input or a constant", stage);
        return 1;
    }
    return 0;
}

static int check_plan(const dmli_graph *g, const dmli_graph_plan *p, char *why)
{
    for (uint32_t i = 0; i < p->n_steps; ++i) {
        const dmli_graph_step *st = &p->steps[i];
        dmli_tensor out, src, idx;
        char stage[48];
        snprintf(stage, sizeof stage, "graph step %u", i);
        if (st->map) {
            if (check_map_step(g, p, st, stage, why))
                return 1;
            continue;
        }
        if (st->compute && st->compute->kind == DMLI_COMPUTE_SCATTER) {
            const dmli_compute *c = st->compute;
            dmli_tensor tensors[4];
            for (uint32_t k = 0; k < 4; ++k)
                if (slot_tensor(g, p, st->tensors[k], dmli_type_size(c->tensors[k].type),
                                &tensors[k], why))
                    return 1;
            if (fuzz_check_scatter(c, tensors, stage, why))
                return 1;
            if (st->tensors[DMLI_SCATTER_OUTPUT].kind == DMLI_SLOT_INPUT ||
                st->tensors[DMLI_SCATTER_OUTPUT].kind == DMLI_SLOT_CONSTANT) {
                snprintf(why, FUZZ_WHY, "%s writes a graph input or a constant", stage);
                return 1;
            }
            continue;
        }
        if (st->reduce) {
            const dmli_reduce *r = st->reduce;
            dmli_tensor outs[DMLI_REDUCE_MAX_OUTPUTS], ins[DMLI_REDUCE_MAX_INPUTS];
            for (uint32_t j = 0; j < r->n_outputs; ++j)
                if (slot_tensor(g, p, st->outs[j], dmli_type_size(r->out[j].type), &outs[j], why))
                    return 1;
            for (uint32_t k = 0; k < r->n_inputs; ++k)
                if (slot_tensor(g, p, st->ins[k], dmli_type_size(r->in[k].type), &ins[k], why))
                    return 1;
            if (fuzz_check_reduce(r, outs, ins, stage, why))
                return 1;
            for (uint32_t j = 0; j < r->n_outputs; ++j)
                if (st->outs[j].kind == DMLI_SLOT_INPUT || st->outs[j].kind == DMLI_SLOT_CONSTANT) {
                    snprintf(why, FUZZ_WHY, "%s writes a graph input or a constant", stage);
                    return 1;
                }
            continue;
        }
        if (slot_tensor(g, p, st->out, st->plan.elem_bytes, &out, why) ||
            slot_tensor(g, p, st->in, st->plan.elem_bytes, &src, why) ||
            (st->plan.kind == DMLI_PLAN_INDEXED &&
             slot_tensor(g, p, st->idx, index_bytes(st->plan.idx_type), &idx, why)) ||
            fuzz_check_bounds(&st->plan, &out, &src,
                              st->plan.kind == DMLI_PLAN_INDEXED ? &idx : NULL, stage, why) ||
            fuzz_check_launches(&st->plan, stage, why))
            return 1;
        if (st->out.kind == DMLI_SLOT_INPUT || st->out.kind == DMLI_SLOT_CONSTANT) {
            snprintf(why, FUZZ_WHY, "graph step %u writes a graph input or a constant", i);
            return 1;
        }
    }
    return 0;
}

int fuzz_graphs(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    fuzz_in in = {data, size};
    static _Thread_local graph_storage s;
    memset(&s, 0, sizeof s);
    UINT n = fuzz_u8(&in) % (MAX_NODES + 1), inputs, outputs;
    decode_nodes(&in, &s, n);
    decode_edges(&in, &s, n, &inputs, &outputs);
    /* The counts as wired, or off by one now and then. */
    unsigned skew = fuzz_u8(&in);
    DML_GRAPH_DESC desc = {inputs + (skew % 16 == 1),
                           outputs + (skew % 16 == 2),
                           n,
                           skew % 16 == 3 ? NULL : s.nodes,
                           s.n_in,
                           s.in_g,
                           s.n_out,
                           s.out_g,
                           s.n_mid - (s.n_mid && skew % 16 == 4),
                           s.mid_g};
    dmli_graph *g = NULL;
    int bad = 0;
    HRESULT hr = dmli_graph_import(&desc, &g);
    if (FAILED(hr) && !dmlcl_last_error()[0]) {
        snprintf(why, FUZZ_WHY, "graph of %u nodes: %s with no message", n, dmlcl_hresult_name(hr));
        bad = 1;
    }
    if (SUCCEEDED(hr)) {
        if (accepted)
            ++*accepted;
        dmli_graph_plan *p = NULL;
        hr = dmli_graph_plan_build(g, &p);
        if (SUCCEEDED(hr))
            bad = check_plan(g, p, why);
        else if (!dmlcl_last_error()[0]) {
            snprintf(why, FUZZ_WHY, "graph plan: %s with no message", dmlcl_hresult_name(hr));
            bad = 1;
        }
        dmli_graph_plan_free(p);
        dmli_graph_free(g);
    }
    for (UINT v = 0; v < n; ++v)
        dmlcl_operator_release(s.made[v]);
    return bad;
}
