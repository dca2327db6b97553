/* SPDX-License-Identifier: MIT */
/*
 * DML_GRAPH_DESC validation (IDMLDevice1::CompileGraph). The rules, from
 * DirectML's pages for DML_GRAPH_DESC, the node and edge descriptions and
 * CompileGraph, and from what DirectMLX's graph builder relies on:
 *   - at least one operator node and one graph output; every count with its
 *     array; node and edge Types as their arrays say (read as integers: a
 *     value outside the enum is refused, never loaded as the enum); at most
 *     DMLCL_GRAPH_NODE_COUNT_MAX nodes (dmlcl's limit, checked first);
 *   - operator nodes hold an operator (in the C API a dmlcl_operator*, as
 *     DML_BUFFER_BINDING.Buffer holds a cl_mem); constant data nodes
 *     (DML_TARGET_VERSION >= 0x6200) hold DataSize bytes;
 *   - edge indices in range: graph inputs and outputs, nodes, each node's
 *     inputs and outputs; constant nodes have one output and no inputs;
 *   - a graph forms a directed acyclic graph;
 *   - every node input is connected exactly once, except absent optional
 *     tensors, which are never connected; every node output is connected;
 *     every graph input feeds a node; every graph output is fed exactly once;
 *   - a node input fed by another node reads that node's output tensor as
 *     bytes, with its own description: DirectMLX's Reinterpret changes
 *     DataType, Sizes and Strides across an edge and keeps only
 *     TotalTensorSizeInBytes. The reader must stay inside what the writer
 *     describes (its TotalTensorSizeInBytes, or a constant's DataSize); a
 *     smaller reader reads the first bytes (a prefix, docs/porting.md);
 *   - a DML_TENSOR_FLAG_OWNED_BY_DML node input takes a graph input edge (or
 *     a constant), given once at initialization; a graph input's readers
 *     agree on the flag.
 * Each violation is an E_INVALIDARG naming the node, the edge and the rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

#define CG "CompileGraph"

_Thread_local dmli_graph_work dmli_graph_work_done;
#define WORK(pass) (dmli_graph_work_done.pass++)

typedef struct importer {
    const DML_GRAPH_DESC *d;
    dmli_graph *g;
    uint32_t *graph_output_edge; /* per graph output: fed by OutputEdges[e] + 1, 0: not yet */
    uint32_t *input_readers;     /* per graph input: node inputs it feeds */
} importer;

/* "node 3 (GATHER "name")" for messages. */
static const char *node_label(const DML_GRAPH_DESC *d, const dmli_graph *g, uint32_t v, char *buf,
                              size_t len)
{
    const char *name = NULL;
    if (g->nodes[v].st)
        name = ((const DML_OPERATOR_GRAPH_NODE_DESC *)d->Nodes[v].Desc)->Name;
#if DML_TARGET_VERSION >= 0x6200
    else
        name = ((const DML_CONSTANT_DATA_GRAPH_NODE_DESC *)d->Nodes[v].Desc)->Name;
#endif
    if (name)
        snprintf(buf, len, "node %u (%s \"%s\")", v, g->nodes[v].name, name);
    else
        snprintf(buf, len, "node %u (%s)", v, g->nodes[v].name);
    return buf;
}

/* An edge, described only when a message needs it (most edges are valid). */
typedef enum edge_kind { EDGE_INPUT, EDGE_INTERMEDIATE, EDGE_OUTPUT } edge_kind;
typedef struct edge_ref {
    edge_kind kind;
    uint32_t i;    /* its index in its array */
    const void *e; /* its DML_*_GRAPH_EDGE_DESC */
} edge_ref;

static const char *edge_text(edge_ref r, char *buf, size_t len)
{
    if (r.kind == EDGE_INPUT) {
        const DML_INPUT_GRAPH_EDGE_DESC *e = r.e;
        snprintf(buf, len, "InputEdges[%u] (graph input %u -> node %u input %u)", r.i,
                 e->GraphInputIndex, e->ToNodeIndex, e->ToNodeInputIndex);
    } else if (r.kind == EDGE_INTERMEDIATE) {
        const DML_INTERMEDIATE_GRAPH_EDGE_DESC *e = r.e;
        snprintf(buf, len, "IntermediateEdges[%u] (node %u output %u -> node %u input %u)", r.i,
                 e->FromNodeIndex, e->FromNodeOutputIndex, e->ToNodeIndex, e->ToNodeInputIndex);
    } else {
        const DML_OUTPUT_GRAPH_EDGE_DESC *e = r.e;
        snprintf(buf, len, "OutputEdges[%u] (node %u output %u -> graph output %u)", r.i,
                 e->FromNodeIndex, e->FromNodeOutputIndex, e->GraphOutputIndex);
    }
    return buf;
}
#define EDGE(r) edge_text((r), edge_s, sizeof edge_s)

static HRESULT check_counts(const DML_GRAPH_DESC *d)
{
    DMLI_INVALID_IF(d->NodeCount == 0, CG ": NodeCount (0) must be at least 1: a graph runs its "
                                          "operator nodes");
    DMLI_INVALID_IF(d->NodeCount > DMLCL_GRAPH_NODE_COUNT_MAX,
                    CG ": NodeCount (%u) is more than DMLCL_GRAPH_NODE_COUNT_MAX (%u), the most "
                       "nodes dmlcl compiles into one graph",
                    d->NodeCount, DMLCL_GRAPH_NODE_COUNT_MAX);
    DMLI_INVALID_IF(d->OutputCount == 0, CG ": OutputCount (0) must be at least 1");
    DMLI_INVALID_IF(!d->Nodes, CG ": Nodes (NULL) must point to NodeCount (%u) nodes",
                    d->NodeCount);
    DMLI_INVALID_IF(d->InputEdgeCount && !d->InputEdges,
                    CG ": InputEdges (NULL) must point to InputEdgeCount (%u) edges",
                    d->InputEdgeCount);
    DMLI_INVALID_IF(!d->OutputEdges,
                    CG ": OutputEdges (NULL) must point to OutputEdgeCount (%u) edges",
                    d->OutputEdgeCount);
    DMLI_INVALID_IF(d->IntermediateEdgeCount && !d->IntermediateEdges,
                    CG ": IntermediateEdges (NULL) must point to IntermediateEdgeCount (%u) edges",
                    d->IntermediateEdgeCount);
    return S_OK;
}

/* The graph shares the operator (with a reference): its state is immutable once created. */
static HRESULT import_operator(const DML_GRAPH_NODE_DESC *n, uint32_t v, dmli_graph_node *node)
{
    const DML_OPERATOR_GRAPH_NODE_DESC *od = n->Desc;
    DMLI_INVALID_IF(!od, CG ": Nodes[%u].Desc (NULL) must point to a DML_OPERATOR_GRAPH_NODE_DESC",
                    v);
    dmlcl_operator *op = (dmlcl_operator *)od->Operator;
    DMLI_INVALID_IF(!op, CG ": Nodes[%u].Desc->Operator (NULL) must be an operator", v);
    dmli_operator_retain(op);
    node->op = op;
    node->st = dmli_operator_state(op);
    node->name = dmli_operator_name(op);
    node->n_inputs = node->st->n_inputs;
    node->n_outputs = node->st->n_outputs;
    return S_OK;
}

static HRESULT import_constant(const DML_GRAPH_NODE_DESC *n, uint32_t v, dmli_graph_node *node)
{
#if DML_TARGET_VERSION >= 0x6200
    const DML_CONSTANT_DATA_GRAPH_NODE_DESC *cd = n->Desc;
    DMLI_INVALID_IF(
        !cd, CG ": Nodes[%u].Desc (NULL) must point to a DML_CONSTANT_DATA_GRAPH_NODE_DESC", v);
    DMLI_INVALID_IF(cd->DataSize && !cd->Data,
                    CG ": Nodes[%u].Desc->Data (NULL) must point to DataSize (%llu) bytes", v,
                    (unsigned long long)cd->DataSize);
    node->name = "CONSTANT";
    node->n_outputs = 1;
    node->data_size = cd->DataSize;
    node->data = malloc(cd->DataSize ? cd->DataSize : 1);
    if (!node->data)
        return dmli_fail(E_OUTOFMEMORY, CG ": out of host memory");
    if (cd->DataSize)
        memcpy(node->data, cd->Data, cd->DataSize);
    return S_OK;
#else
    (void)node;
    return dmli_fail(E_INVALIDARG,
                     CG ": Nodes[%u].Type (%d) must be DML_GRAPH_NODE_TYPE_OPERATOR (1)", v,
                     (int)n->Type);
#endif
}

/* The node's label, kept for its steps (DMLCL_PROFILE's report names them by it). */
static HRESULT keep_label(importer *im, uint32_t v)
{
    char buf[160];
    const char *text = node_label(im->d, im->g, v, buf, sizeof buf);
    im->g->nodes[v].label = malloc(strlen(text) + 1);
    if (!im->g->nodes[v].label)
        return dmli_fail(E_OUTOFMEMORY, CG ": out of host memory");
    strcpy(im->g->nodes[v].label, text);
    return S_OK;
}

static HRESULT import_nodes(importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    bool any_operator = false;
    for (uint32_t v = 0; v < d->NodeCount; ++v) {
        WORK(import);
        const DML_GRAPH_NODE_DESC *n = &d->Nodes[v];
        dmli_graph_node *node = &im->g->nodes[v];
        /* As an integer: C++ callers may put any value in the enum's storage. */
        unsigned type = (unsigned)n->Type;
        if (type == DML_GRAPH_NODE_TYPE_OPERATOR) {
            DMLI_TRY(import_operator(n, v, node));
            DMLI_TRY(keep_label(im, v));
            any_operator = true;
            continue;
        }
#if DML_TARGET_VERSION >= 0x6200
        DMLI_INVALID_IF(type != DML_GRAPH_NODE_TYPE_CONSTANT,
                        CG ": Nodes[%u].Type (%u) must be DML_GRAPH_NODE_TYPE_OPERATOR (1) or "
                           "DML_GRAPH_NODE_TYPE_CONSTANT (2)",
                        v, type);
#endif
        DMLI_TRY(import_constant(n, v, node));
        DMLI_TRY(keep_label(im, v));
    }
    DMLI_INVALID_IF(!any_operator, CG ": the graph has no operator node: there is nothing to run "
                                      "(an output cannot come straight from a constant)");
    return S_OK;
}

/*
 * The nodes' slot arrays as slices of three pools, and the graph's input and
 * output arrays. A graph input may feed no node and a graph output may be fed
 * by none (DirectML's pages require edges for the nodes' inputs and outputs
 * only; DirectMLX's Compile asks for unused inputs on purpose and leaves an
 * empty Expression's output without an edge), so InputCount and OutputCount
 * are bounded by the nodes' inputs and outputs or by
 * DMLCL_GRAPH_INPUT_COUNT_MAX and DMLCL_GRAPH_OUTPUT_COUNT_MAX, whichever is
 * larger, before anything is sized by them.
 */
static HRESULT make_slots(importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    dmli_graph *g = im->g;
    uint64_t n_in = 0, n_out = 0, present = 0, op_outputs = 0;
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_graph_node *node = &g->nodes[v];
        n_in += node->n_inputs;
        n_out += node->n_outputs;
        for (uint32_t k = 0; k < node->n_inputs; ++k)
            present += node->st->inputs[k].present;
        op_outputs += node->st ? node->n_outputs : 0;
    }
    DMLI_INVALID_IF(d->InputCount > present && d->InputCount > DMLCL_GRAPH_INPUT_COUNT_MAX,
                    CG ": InputCount (%u) is more than both the nodes' inputs (%llu) and "
                       "DMLCL_GRAPH_INPUT_COUNT_MAX (%u), the most graph inputs dmlcl binds when "
                       "some feed no node",
                    d->InputCount, (unsigned long long)present, DMLCL_GRAPH_INPUT_COUNT_MAX);
    DMLI_INVALID_IF(d->OutputCount > op_outputs && d->OutputCount > DMLCL_GRAPH_OUTPUT_COUNT_MAX,
                    CG ": OutputCount (%u) is more than both the operator nodes' outputs (%llu) "
                       "and DMLCL_GRAPH_OUTPUT_COUNT_MAX (%u), the most graph outputs dmlcl binds "
                       "when some are fed by no node",
                    d->OutputCount, (unsigned long long)op_outputs, DMLCL_GRAPH_OUTPUT_COUNT_MAX);
    g->n_node_outputs = (uint32_t)n_out;
    g->sources = calloc(n_in ? n_in : 1, sizeof *g->sources);
    g->consumer_counts = calloc(n_out, sizeof *g->consumer_counts);
    g->output_links = malloc(n_out * sizeof *g->output_links);
    g->inputs = calloc(d->InputCount ? d->InputCount : 1, sizeof *g->inputs);
    g->outputs = calloc(d->OutputCount, sizeof *g->outputs);
    g->copies = calloc(d->OutputCount, sizeof *g->copies);
    im->graph_output_edge = calloc(d->OutputCount, sizeof(uint32_t));
    im->input_readers = calloc(d->InputCount ? d->InputCount : 1, sizeof(uint32_t));
    if (!g->sources || !g->consumer_counts || !g->output_links || !g->inputs || !g->outputs ||
        !im->graph_output_edge || !im->input_readers || !g->copies)
        return dmli_fail(E_OUTOFMEMORY, CG ": out of host memory");
    uint64_t at_in = 0, at_out = 0;
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        WORK(import);
        dmli_graph_node *node = &g->nodes[v];
        node->inputs = g->sources + at_in;
        node->consumers = g->consumer_counts + at_out;
        node->graph_output = g->output_links + at_out;
        node->output_base = (uint32_t)at_out;
        for (uint32_t j = 0; j < node->n_outputs; ++j)
            node->graph_output[j] = -1;
        at_in += node->n_inputs;
        at_out += node->n_outputs;
    }
    return S_OK;
}

/* The edge's Desc, checked for Type (read as an integer); array names it in messages. */
static HRESULT edge_desc(const DML_GRAPH_EDGE_DESC *e, const char *array, uint32_t i,
                         DML_GRAPH_EDGE_TYPE want, const char *want_name, const void **desc)
{
    unsigned type = (unsigned)e->Type;
    DMLI_INVALID_IF(type != (unsigned)want, CG ": %s[%u].Type (%u) must be %s (%d)", array, i, type,
                    want_name, (int)want);
    DMLI_INVALID_IF(!e->Desc, CG ": %s[%u].Desc (NULL) is required", array, i);
    *desc = e->Desc;
    return S_OK;
}

/* Connects a node input; edge names the edge in messages. */
static HRESULT connect_input(importer *im, edge_ref edge, uint32_t to, uint32_t slot,
                             dmli_source src)
{
    const DML_GRAPH_DESC *d = im->d;
    dmli_graph *g = im->g;
    char s[160], edge_s[160];
    DMLI_INVALID_IF(to >= d->NodeCount,
                    CG ": %s: ToNodeIndex (%u) must be less than NodeCount (%u)", EDGE(edge), to,
                    d->NodeCount);
    dmli_graph_node *node = &g->nodes[to];
    DMLI_INVALID_IF(!node->st, CG ": %s: %s has no inputs (a constant node only feeds others)",
                    EDGE(edge), node_label(d, g, to, s, sizeof s));
    DMLI_INVALID_IF(slot >= node->n_inputs,
                    CG ": %s: ToNodeInputIndex (%u) must be less than %s's input count (%u)",
                    EDGE(edge), slot, node_label(d, g, to, s, sizeof s), node->n_inputs);
    const char *field = node->st->input_names[slot];
    DMLI_INVALID_IF(!node->st->inputs[slot].present,
                    CG ": %s: %s's %s is absent (NULL) in its operator; an absent optional "
                       "tensor takes no edge",
                    EDGE(edge), node_label(d, g, to, s, sizeof s), field);
    DMLI_INVALID_IF(node->inputs[slot].kind != DMLI_SOURCE_NONE,
                    CG ": %s: %s's %s is already connected; a node input takes exactly one edge",
                    EDGE(edge), node_label(d, g, to, s, sizeof s), field);
    node->inputs[slot] = src;
    return S_OK;
}

static HRESULT import_input_edges(importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    char edge_s[160];
    for (uint32_t i = 0; i < d->InputEdgeCount; ++i) {
        WORK(import);
        const DML_INPUT_GRAPH_EDGE_DESC *e = NULL;
        DMLI_TRY(edge_desc(&d->InputEdges[i], "InputEdges", i, DML_GRAPH_EDGE_TYPE_INPUT,
                           "DML_GRAPH_EDGE_TYPE_INPUT", (const void **)&e));
        edge_ref edge = {EDGE_INPUT, i, e};
        DMLI_INVALID_IF(e->GraphInputIndex >= d->InputCount,
                        CG ": %s: GraphInputIndex (%u) must be less than InputCount (%u)",
                        EDGE(edge), e->GraphInputIndex, d->InputCount);
        DMLI_TRY(connect_input(im, edge, e->ToNodeIndex, e->ToNodeInputIndex,
                               (dmli_source){DMLI_SOURCE_INPUT, e->GraphInputIndex, 0}));
        im->input_readers[e->GraphInputIndex]++;
    }
    return S_OK;
}

/*
 * Bytes up to the end of t's last element, without DMLCalcBufferTensorSize's
 * rounding to 4: constant data is often an initializer's exact bytes.
 */
static uint64_t element_extent(const dmli_tensor *t)
{
    if (t->elements == 0)
        return 0;
    uint64_t last = 0;
    for (uint32_t d = 0; d < t->rank; ++d)
        last += (t->sizes[d] - 1) * (uint64_t)t->strides[d];
    return (last + 1) * t->elem_bytes;
}

/* The reader of an intermediate edge must stay inside what its writer describes. */
static HRESULT check_reader(importer *im, edge_ref edge, uint32_t from, uint32_t output,
                            uint32_t to, uint32_t slot)
{
    const dmli_graph *g = im->g;
    const dmli_graph_node *src = &g->nodes[from], *dst = &g->nodes[to];
    const dmli_tensor *in = &dst->st->inputs[slot];
    char from_s[160], to_s[160], a[DMLI_DIMS_BUF], b[DMLI_DIMS_BUF], edge_s[160];
    if (!src->st) {
        DMLI_INVALID_IF(
            element_extent(in) > src->data_size,
            CG ": %s: %s's %s (%s %s, %llu bytes to its last element) reads past "
               "%s's DataSize (%llu)",
            EDGE(edge), node_label(im->d, g, to, to_s, sizeof to_s), dst->st->input_names[slot],
            dmli_type_name(in->type), dmli_format_dims(b, sizeof b, in->rank, in->sizes),
            (unsigned long long)element_extent(in),
            node_label(im->d, g, from, from_s, sizeof from_s), (unsigned long long)src->data_size);
        return S_OK;
    }
    DMLI_INVALID_IF(in->flags & DML_TENSOR_FLAG_OWNED_BY_DML,
                    CG ": %s: %s's %s has DML_TENSOR_FLAG_OWNED_BY_DML: such a tensor is given "
                       "once, at initialization, so it takes a graph input edge, not %s's output",
                    EDGE(edge), node_label(im->d, g, to, to_s, sizeof to_s),
                    dst->st->input_names[slot], node_label(im->d, g, from, from_s, sizeof from_s));
    /* A smaller reader reads the first TotalTensorSizeInBytes bytes (docs/porting.md). */
    const dmli_tensor *out = &src->st->outputs[output];
    DMLI_INVALID_IF(
        in->total_bytes > out->total_bytes,
        CG ": %s: %s's %s (%s %s, TotalTensorSizeInBytes %llu) reads past %s's %s "
           "(%s %s, TotalTensorSizeInBytes %llu): a node input reads its producer's "
           "output tensor as bytes and must stay inside it",
        EDGE(edge), node_label(im->d, g, to, to_s, sizeof to_s), dst->st->input_names[slot],
        dmli_type_name(in->type), dmli_format_dims(b, sizeof b, in->rank, in->sizes),
        (unsigned long long)in->total_bytes, node_label(im->d, g, from, from_s, sizeof from_s),
        src->st->output_names[output], dmli_type_name(out->type),
        dmli_format_dims(a, sizeof a, out->rank, out->sizes), (unsigned long long)out->total_bytes);
    return S_OK;
}

/* FromNodeIndex / FromNodeOutputIndex of an intermediate or output edge. */
static HRESULT check_from(const importer *im, edge_ref edge, uint32_t from, uint32_t output)
{
    const DML_GRAPH_DESC *d = im->d;
    char s[160], edge_s[160];
    DMLI_INVALID_IF(from >= d->NodeCount,
                    CG ": %s: FromNodeIndex (%u) must be less than NodeCount (%u)", EDGE(edge),
                    from, d->NodeCount);
    const dmli_graph_node *n = &im->g->nodes[from];
    DMLI_INVALID_IF(output >= n->n_outputs,
                    CG ": %s: FromNodeOutputIndex (%u) must be less than %s's output count (%u)",
                    EDGE(edge), output, node_label(d, im->g, from, s, sizeof s), n->n_outputs);
    DMLI_INVALID_IF(n->st && !n->st->outputs[output].present,
                    CG ": %s: %s's %s is absent (NULL) in its operator; an absent optional "
                       "tensor takes no edge",
                    EDGE(edge), node_label(d, im->g, from, s, sizeof s),
                    n->st->output_names[output]);
    return S_OK;
}

static HRESULT import_intermediate_edges(importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    for (uint32_t i = 0; i < d->IntermediateEdgeCount; ++i) {
        WORK(import);
        const DML_INTERMEDIATE_GRAPH_EDGE_DESC *e = NULL;
        DMLI_TRY(edge_desc(&d->IntermediateEdges[i], "IntermediateEdges", i,
                           DML_GRAPH_EDGE_TYPE_INTERMEDIATE, "DML_GRAPH_EDGE_TYPE_INTERMEDIATE",
                           (const void **)&e));
        edge_ref edge = {EDGE_INTERMEDIATE, i, e};
        DMLI_TRY(check_from(im, edge, e->FromNodeIndex, e->FromNodeOutputIndex));
        DMLI_TRY(connect_input(
            im, edge, e->ToNodeIndex, e->ToNodeInputIndex,
            (dmli_source){DMLI_SOURCE_NODE, e->FromNodeIndex, e->FromNodeOutputIndex}));
        DMLI_TRY(check_reader(im, edge, e->FromNodeIndex, e->FromNodeOutputIndex, e->ToNodeIndex,
                              e->ToNodeInputIndex));
        im->g->nodes[e->FromNodeIndex].consumers[e->FromNodeOutputIndex]++;
    }
    return S_OK;
}

static HRESULT import_output_edges(importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    dmli_graph *g = im->g;
    char edge_s[160], s[160];
    for (uint32_t i = 0; i < d->OutputEdgeCount; ++i) {
        WORK(import);
        const DML_OUTPUT_GRAPH_EDGE_DESC *e = NULL;
        DMLI_TRY(edge_desc(&d->OutputEdges[i], "OutputEdges", i, DML_GRAPH_EDGE_TYPE_OUTPUT,
                           "DML_GRAPH_EDGE_TYPE_OUTPUT", (const void **)&e));
        edge_ref edge = {EDGE_OUTPUT, i, e};
        DMLI_TRY(check_from(im, edge, e->FromNodeIndex, e->FromNodeOutputIndex));
        DMLI_INVALID_IF(e->GraphOutputIndex >= d->OutputCount,
                        CG ": %s: GraphOutputIndex (%u) must be less than OutputCount (%u)",
                        EDGE(edge), e->GraphOutputIndex, d->OutputCount);
        DMLI_INVALID_IF(im->graph_output_edge[e->GraphOutputIndex],
                        CG ": %s: graph output %u is already fed by OutputEdges[%u]; each graph "
                           "output takes exactly one edge",
                        EDGE(edge), e->GraphOutputIndex,
                        im->graph_output_edge[e->GraphOutputIndex] - 1);
        dmli_graph_node *n = &g->nodes[e->FromNodeIndex];
        DMLI_INVALID_IF(!n->st,
                        CG ": %s: %s is a constant: a graph output must come from an operator "
                           "node",
                        EDGE(edge), node_label(d, g, e->FromNodeIndex, s, sizeof s));
        uint32_t j = e->FromNodeOutputIndex;
        im->graph_output_edge[e->GraphOutputIndex] = i + 1;
        if (n->graph_output[j] >= 0) {
            /* A second graph output of one node output: a copy of the first. */
            g->copies[g->n_copies++] = (struct dmli_graph_output_copy){
                (uint32_t)n->graph_output[j], e->GraphOutputIndex, e->FromNodeIndex};
        } else {
            n->graph_output[j] = (int32_t)e->GraphOutputIndex;
        }
        g->outputs[e->GraphOutputIndex] = n->st->outputs[j];
    }
    return S_OK;
}

/*
 * Everything connected: node inputs and outputs (present ones), but an optional output
 * (DML_GRAPH_DESC's remarks: "except for inputs and outputs that are optional for the
 * associated operator"): GRU's OutputSingleTensor beside a used OutputSequenceTensor, as
 * DirectMLX's GRUOutputOptions::Both builds, is computed into temporary memory and dropped.
 * A graph input no edge reads and a graph output no edge feeds are unused
 * (input_requirements marks them).
 */
static HRESULT check_connected(const importer *im)
{
    const DML_GRAPH_DESC *d = im->d;
    const dmli_graph *g = im->g;
    char s[160];
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_graph_node *n = &g->nodes[v];
        for (uint32_t k = 0; k < n->n_inputs; ++k) {
            WORK(import);
            DMLI_INVALID_IF(n->st->inputs[k].present && n->inputs[k].kind == DMLI_SOURCE_NONE,
                            CG ": %s's input %u (%s) is not connected: every node input takes "
                               "an input or intermediate edge",
                            node_label(d, g, v, s, sizeof s), k, n->st->input_names[k]);
        }
        for (uint32_t j = 0; j < n->n_outputs; ++j) {
            WORK(import);
            /* An absent optional output (MAX_POOLING2's OutputIndicesTensor) has nothing to
             * connect, a present one may stay unconnected. */
            bool required = !n->st || (n->st->outputs[j].present && !n->st->outputs[j].optional);
            DMLI_INVALID_IF(required && n->consumers[j] == 0 && n->graph_output[j] < 0,
                            CG ": %s's output %u (%s) is not connected: every node output feeds "
                               "a node input or a graph output",
                            node_label(d, g, v, s, sizeof s), j,
                            n->st ? n->st->output_names[j] : "Data");
        }
    }
    return S_OK;
}

/*
 * Kahn's algorithm: each node's readers listed once (grouped by producer, in
 * one array), then each placed node releases its readers. O(nodes + edges).
 */
static HRESULT sort_nodes(const importer *im)
{
    const dmli_graph *g = im->g;
    uint32_t n = g->n_nodes, done = 0;
    size_t edges = 0;
    for (uint32_t v = 0; v < n; ++v)
        for (uint32_t k = 0; k < g->nodes[v].n_inputs; ++k)
            edges += g->nodes[v].inputs[k].kind == DMLI_SOURCE_NODE;
    uint32_t *missing = calloc(n, sizeof *missing), *first = calloc((size_t)n + 1, sizeof *first);
    uint32_t *readers = malloc((edges ? edges : 1) * sizeof *readers);
    HRESULT hr = S_OK;
    if (!missing || !first || !readers) {
        hr = dmli_fail(E_OUTOFMEMORY, CG ": out of host memory");
        goto out;
    }
    /* first[u] counts u's readers, then is where they end, then where they start. */
    for (uint32_t v = 0; v < n; ++v)
        for (uint32_t k = 0; k < g->nodes[v].n_inputs; ++k) {
            WORK(sort);
            dmli_source s = g->nodes[v].inputs[k];
            if (s.kind == DMLI_SOURCE_NODE) {
                missing[v]++;
                first[s.index]++;
            }
        }
    for (uint32_t u = 1; u < n; ++u)
        first[u] += first[u - 1];
    first[n] = first[n - 1];
    /* Back to front, so each node's readers come out in index order. */
    for (uint32_t v = n; v-- > 0;)
        for (uint32_t k = g->nodes[v].n_inputs; k-- > 0;) {
            dmli_source s = g->nodes[v].inputs[k];
            if (s.kind == DMLI_SOURCE_NODE)
                readers[--first[s.index]] = v;
        }
    for (uint32_t v = 0; v < n; ++v)
        if (!missing[v])
            g->order[done++] = v;
    for (uint32_t i = 0; i < done; ++i) {
        uint32_t u = g->order[i];
        WORK(sort);
        for (uint32_t r = first[u]; r < first[u + 1]; ++r) {
            WORK(sort);
            if (--missing[readers[r]] == 0)
                g->order[done++] = readers[r];
        }
    }
    if (done < n) {
        uint32_t stuck = 0;
        while (missing[stuck] == 0)
            ++stuck;
        char s[160];
        hr = dmli_fail(E_INVALIDARG,
                       CG ": the intermediate edges form a cycle through %s: a graph must be "
                          "directed and acyclic",
                       node_label(im->d, g, stuck, s, sizeof s));
    }
out:
    free(missing);
    free(first);
    free(readers);
    return hr;
}
/* Graph input bindings must satisfy every reader: the largest size, the strictest alignment;
 * the readers agree on DML_TENSOR_FLAG_OWNED_BY_DML (given at initialization or execution). */
static HRESULT input_requirements(const importer *im)
{
    dmli_graph *g = im->g;
    for (uint32_t v = 0; v < g->n_nodes; ++v)
        for (uint32_t k = 0; k < g->nodes[v].n_inputs; ++k) {
            WORK(import);
            dmli_source s = g->nodes[v].inputs[k];
            if (s.kind != DMLI_SOURCE_INPUT)
                continue;
            const dmli_tensor *t = &g->nodes[v].st->inputs[k];
            dmli_tensor *req = &g->inputs[s.index];
            char to_s[160];
            DMLI_INVALID_IF(
                req->present && ((req->flags ^ t->flags) & DML_TENSOR_FLAG_OWNED_BY_DML),
                CG ": graph input %u: %s's %s %s DML_TENSOR_FLAG_OWNED_BY_DML and an "
                   "earlier reader's %s: the readers of a graph input agree (an owned "
                   "input is given at initialization, the others at execution)",
                s.index, node_label(im->d, g, v, to_s, sizeof to_s), g->nodes[v].st->input_names[k],
                (t->flags & DML_TENSOR_FLAG_OWNED_BY_DML) ? "has" : "lacks",
                (t->flags & DML_TENSOR_FLAG_OWNED_BY_DML) ? "does not" : "does");
            if (!req->present || t->total_bytes > req->total_bytes) {
                uint32_t align = req->present && req->base_align > t->base_align ? req->base_align
                                                                                 : t->base_align;
                *req = *t;
                req->base_align = align;
            } else if (t->base_align > req->base_align) {
                req->base_align = t->base_align;
            }
        }
    for (uint32_t i = 0; i < g->n_inputs; ++i)
        g->inputs[i].unused = !im->input_readers[i];
    for (uint32_t o = 0; o < g->n_outputs; ++o)
        g->outputs[o].unused = !im->graph_output_edge[o];
    return S_OK;
}

/*
 * Each pass is linear: nodes, then each node's slots, then each edge once
 * (an edge is refused as soon as it would connect a node input twice, so at
 * most one more edge than node inputs is read); the sort is Kahn's
 * algorithm over per-node reader lists. Messages are formatted only on
 * refusal.
 */
static HRESULT import(importer *im)
{
    DMLI_TRY(import_nodes(im));
    DMLI_TRY(make_slots(im));
    DMLI_TRY(import_input_edges(im));
    DMLI_TRY(import_intermediate_edges(im));
    DMLI_TRY(import_output_edges(im));
    DMLI_TRY(check_connected(im));
    DMLI_TRY(sort_nodes(im));
    return input_requirements(im);
}

HRESULT dmli_graph_import(const DML_GRAPH_DESC *desc, dmli_graph **graph)
{
    DMLI_NULL_IF(!graph, CG ": the output pointer (NULL) is required");
    *graph = NULL;
    DMLI_NULL_IF(!desc, CG ": desc (NULL) is required");
    /* The counts first: nothing is sized by a count before it is checked. */
    DMLI_TRY(check_counts(desc));
    dmli_graph *g = calloc(1, sizeof *g);
    importer im = {desc, g, NULL, NULL};
    if (g) {
        g->n_inputs = desc->InputCount;
        g->n_outputs = desc->OutputCount;
        g->n_nodes = desc->NodeCount;
        g->nodes = calloc(desc->NodeCount, sizeof *g->nodes);
        g->order = calloc(desc->NodeCount, sizeof *g->order);
    }
    HRESULT hr = !g || !g->nodes || !g->order ? dmli_fail(E_OUTOFMEMORY, CG ": out of host memory")
                                              : import(&im);
    free(im.graph_output_edge);
    free(im.input_readers);
    if (FAILED(hr)) {
        dmli_graph_free(g);
        return hr;
    }
    *graph = g;
    return S_OK;
}

void dmli_graph_free(dmli_graph *g)
{
    if (!g)
        return;
    for (uint32_t v = 0; g->nodes && v < g->n_nodes; ++v) {
        if (g->nodes[v].op)
            dmlcl_operator_release(g->nodes[v].op);
        free(g->nodes[v].data);
        free(g->nodes[v].label);
    }
    free(g->nodes);
    free(g->order);
    free(g->inputs);
    free(g->outputs);
    free(g->sources);
    free(g->consumer_counts);
    free(g->output_links);
    free(g->copies);
    free(g);
}
