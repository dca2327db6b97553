/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-bench-chains: chains of data-movement operators as one DirectML graph
 * (dmlcl_graph_compile: fused into as few kernels as the planner can) against
 * the same operators dispatched one by one through intermediate buffers, and
 * against the hardware's copy of the output's bytes (bench/limit.h: the best
 * of clEnqueueCopyBuffer, the streaming copy kernel and memcpy on every
 * core). Rounds as in dmlcl-bench: each contender once per round in a
 * rotating order, two warm-up rounds discarded, at least --reps rounds and
 * --seconds per chain; the ratio (copy time over the graph's) is paired per
 * round. The graph's output must equal the operators' output byte for byte.
 * bench/peers.py --chains runs the same chains in ONNX Runtime and OpenVINO.
 *
 *   dmlcl-bench-chains [--reps N] [--seconds S] [--csv-file PATH] [--device SPEC]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dmlcl/dmlcl.h>

#include "limit.h"

#define MAX_NODES 4
#define FAIL_IF(c, ...)                                          \
    do {                                                         \
        if (c) {                                                 \
            fprintf(stderr, "dmlcl-bench-chains: " __VA_ARGS__); \
            fprintf(stderr, " (%s)\n", dmlcl_last_error());      \
            exit(1);                                             \
        }                                                        \
    } while (0)

/* A chain: node k reads node k-1's output (node 0 reads the input); gathers read `indices`. */
typedef struct chain {
    const char *id, *name;
    int n;
    DML_OPERATOR_DESC ops[MAX_NODES];
    int takes_indices[MAX_NODES];
    size_t in_bytes, idx_bytes, out_bytes[MAX_NODES];
    void *input, *indices;
    UINT sizes[12][4], strides[12][4];
    DML_BUFFER_TENSOR_DESC buf[12];
    DML_TENSOR_DESC t[12];
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
    DML_SLICE_OPERATOR_DESC slice;
    DML_SLICE1_OPERATOR_DESC slice1;
    DML_GATHER_OPERATOR_DESC gather;
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC add;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity2;
    DML_ACTIVATION_SIGMOID_OPERATOR_DESC sigmoid;
    DML_ACTIVATION_RELU_OPERATOR_DESC relu;
    DML_SCALE_BIAS sb[2];
    UINT offsets[4], wsizes[4], steps[4];
    INT wsteps[4];
} chain;

#define now bench_now

static const DML_TENSOR_DESC *tensor(chain *c, int k, DML_TENSOR_DATA_TYPE type, const UINT *sizes,
                                     const UINT *strides)
{
    memcpy(c->sizes[k], sizes, sizeof c->sizes[k]);
    if (strides)
        memcpy(c->strides[k], strides, sizeof c->strides[k]);
    c->buf[k] =
        (DML_BUFFER_TENSOR_DESC){type, 0, 4, c->sizes[k], strides ? c->strides[k] : NULL, 0, 0};
    c->buf[k].TotalTensorSizeInBytes = DMLCalcBufferTensorSize(type, 4, sizes, strides);
    c->t[k] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &c->buf[k]};
    return &c->t[k];
}

static void *random_bytes(size_t n)
{
    unsigned char *p = malloc(n);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (unsigned char)x;
    }
    return p;
}

/* NCHW -> NHWC (identity through strides), rows 8..55 of H, then those rows permuted (gather). */
static void layout_slice_gather(chain *c)
{
    const UINT N = 16, C = 32, H = 64, W = 64, R = 48;
    const UINT nhwc[4] = {N, H, W, C}, read[4] = {C * H * W, W, 1, H * W}, rows[4] = {N, R, W, C};
    const UINT isz[4] = {1, 1, 1, R};
    c->id = "layout-slice-gather";
    c->name = "nchw-to-nhwc, row slice, row gather";
    c->n = 3;
    c->in_bytes = (size_t)N * C * H * W * 4;
    c->input = random_bytes(c->in_bytes);
    c->identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 0, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, read),
        tensor(c, 1, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, NULL), NULL};
    memcpy(c->offsets, (UINT[4]){0, 8, 0, 0}, sizeof c->offsets);
    memcpy(c->wsizes, rows, sizeof c->wsizes);
    memcpy(c->steps, (UINT[4]){1, 1, 1, 1}, sizeof c->steps);
    c->slice = (DML_SLICE_OPERATOR_DESC){tensor(c, 2, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, NULL),
                                         tensor(c, 3, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL),
                                         4,
                                         c->offsets,
                                         c->wsizes,
                                         c->steps};
    c->idx_bytes = R * 4;
    uint32_t *idx = malloc(c->idx_bytes);
    for (UINT i = 0; i < R; ++i)
        idx[i] = (i * 29u) % R;
    c->indices = idx;
    c->gather =
        (DML_GATHER_OPERATOR_DESC){tensor(c, 4, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL),
                                   tensor(c, 5, DML_TENSOR_DATA_TYPE_UINT32, isz, NULL),
                                   tensor(c, 6, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL), 1, 1};
    c->ops[0] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity};
    c->ops[1] = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE, &c->slice};
    c->ops[2] = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &c->gather};
    c->takes_indices[2] = 1;
    c->out_bytes[0] = (size_t)N * H * W * C * 4;
    c->out_bytes[1] = c->out_bytes[2] = (size_t)N * R * W * C * 4;
}

/* A channel vector broadcast over N, H, W (identity with 0 strides), then W reversed (SLICE1). */
static void broadcast_reverse(chain *c)
{
    const UINT N = 8, C = 64, H = 64, W = 64;
    const UINT full[4] = {N, C, H, W}, bcast[4] = {0, 1, 0, 0};
    c->id = "broadcast-reverse";
    c->name = "channel broadcast, reversing slice";
    c->n = 2;
    c->in_bytes = C * 4;
    c->input = random_bytes(c->in_bytes);
    c->identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 0, DML_TENSOR_DATA_TYPE_FLOAT32, full, bcast),
        tensor(c, 1, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL), NULL};
    memcpy(c->offsets, (UINT[4]){0, 0, 0, 0}, sizeof c->offsets);
    memcpy(c->wsizes, full, sizeof c->wsizes);
    memcpy(c->wsteps, (INT[4]){1, 1, 1, -1}, sizeof c->wsteps);
    c->slice1 = (DML_SLICE1_OPERATOR_DESC){tensor(c, 2, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
                                           tensor(c, 3, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
                                           4,
                                           c->offsets,
                                           c->wsizes,
                                           c->wsteps};
    c->ops[0] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity};
    c->ops[1] = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, &c->slice1};
    c->out_bytes[0] = c->out_bytes[1] = (size_t)N * C * H * W * 4;
}

/* NCHW -> NHWC (identity through strides), then a per-channel bias added (ELEMENT_WISE_ADD,
 * the bias read with strides {0,0,0,1}): the graph reads both inputs in one map. The bias
 * travels as the chain's second input (the `indices` buffer). */
static void layout_bias(chain *c)
{
    const UINT N = 16, C = 32, H = 64, W = 64;
    const UINT nhwc[4] = {N, H, W, C}, read[4] = {C * H * W, W, 1, H * W}, bias[4] = {0, 0, 0, 1};
    c->id = "layout-bias";
    c->name = "nchw-to-nhwc, add a channel bias";
    c->n = 2;
    c->in_bytes = (size_t)N * C * H * W * 4;
    c->input = random_bytes(c->in_bytes);
    c->identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 0, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, read),
        tensor(c, 1, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, NULL), NULL};
    c->idx_bytes = C * 4;
    c->indices = random_bytes(c->idx_bytes);
    c->add = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){
        tensor(c, 2, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, NULL),
        tensor(c, 3, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, bias),
        tensor(c, 4, DML_TENSOR_DATA_TYPE_FLOAT32, nhwc, NULL)};
    c->ops[0] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity};
    c->ops[1] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_ADD, &c->add};
    c->takes_indices[1] = 1;
    c->out_bytes[0] = c->out_bytes[1] = (size_t)N * H * W * C * 4;
}

/* Element-wise nodes in a row, as exporters write a formula (here sigmoid(x / 2 + 1/8) / 2 + 1/2,
 * then RELU): the graph is one map of two operations (the SIGMOID and the RELU activations of
 * the scale-biases), reading the input and writing the output once; apart, each node reads and
 * writes 64 MiB. */
static void elementwise_chain(chain *c)
{
    /* Values an activation sees (-8 to 8): random bytes would make most of them huge, their
     * sigmoids subnormal, and time the CPU's subnormal arithmetic instead. */
    const UINT N = 16, C = 64, H = 128, W = 128;
    const UINT full[4] = {N, C, H, W};
    c->id = "elementwise-chain";
    c->name = "scale-bias, sigmoid, scale-bias, relu";
    c->n = 4;
    c->in_bytes = (size_t)N * C * H * W * 4;
    c->input = random_bytes(c->in_bytes);
    float *v = c->input;
    for (size_t e = 0; e < c->in_bytes / 4; ++e)
        v[e] = (float)(((const unsigned char *)c->input)[4 * e] & 0xFF) / 16.0f - 8.0f;
    c->sb[0] = (DML_SCALE_BIAS){0.5f, 0.125f};
    c->sb[1] = (DML_SCALE_BIAS){0.5f, 0.5f};
    c->identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 0, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
        tensor(c, 1, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL), &c->sb[0]};
    c->sigmoid = (DML_ACTIVATION_SIGMOID_OPERATOR_DESC){
        tensor(c, 2, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
        tensor(c, 3, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL)};
    c->identity2 = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 4, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
        tensor(c, 5, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL), &c->sb[1]};
    c->relu =
        (DML_ACTIVATION_RELU_OPERATOR_DESC){tensor(c, 6, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL),
                                            tensor(c, 7, DML_TENSOR_DATA_TYPE_FLOAT32, full, NULL)};
    c->ops[0] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity};
    c->ops[1] = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_SIGMOID, &c->sigmoid};
    c->ops[2] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity2};
    c->ops[3] = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &c->relu};
    for (int k = 0; k < 4; ++k)
        c->out_bytes[k] = c->in_bytes;
}

/* An embedding lookup scaled as transformers scale it (GATHER of 16384 rows of a [50000, 512]
 * f32 table, then IDENTITY with ScaleBias {sqrt 512, 0}): the graph is one map reading the
 * table through the indices; apart, the gathered rows are written and read again. */
static void embedding_scale(chain *c)
{
    const UINT V = 50000, D = 512, T = 16384;
    const UINT table[4] = {1, 1, V, D}, isz[4] = {1, 1, 1, T}, rows[4] = {1, 1, T, D};
    c->id = "embedding-scale";
    c->name = "embedding gather, scale-bias";
    c->n = 2;
    c->in_bytes = (size_t)V * D * 4;
    c->input = random_bytes(c->in_bytes);
    float *v = c->input;
    for (size_t e = 0; e < c->in_bytes / 4; ++e)
        v[e] = (float)(((const unsigned char *)c->input)[4 * e] & 0xFF) / 128.0f - 1.0f;
    c->idx_bytes = (size_t)T * 8;
    int64_t *idx = malloc(c->idx_bytes);
    for (UINT i = 0; i < T; ++i)
        idx[i] = (int64_t)(((uint64_t)i * 2654435761u) % V);
    c->indices = idx;
    c->gather =
        (DML_GATHER_OPERATOR_DESC){tensor(c, 0, DML_TENSOR_DATA_TYPE_FLOAT32, table, NULL),
                                   tensor(c, 1, DML_TENSOR_DATA_TYPE_INT64, isz, NULL),
                                   tensor(c, 2, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL), 2, 1};
    c->sb[0] = (DML_SCALE_BIAS){22.627417f, 0.0f};
    c->identity = (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){
        tensor(c, 3, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL),
        tensor(c, 4, DML_TENSOR_DATA_TYPE_FLOAT32, rows, NULL), &c->sb[0]};
    c->ops[0] = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &c->gather};
    c->ops[1] = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_IDENTITY, &c->identity};
    c->takes_indices[0] = 1;
    c->out_bytes[0] = c->out_bytes[1] = (size_t)T * D * 4;
}

static cl_mem buffer(dmlcl_device *dev, size_t bytes, const void *data)
{
    cl_int err;
    cl_mem m = bench_buffer(dmlcl_device_context(dev), bytes ? bytes : 4, &err);
    FAIL_IF(err != CL_SUCCESS, "clCreateBuffer (%d)", err);
    unsigned char zero = 0;
    err = data ? clEnqueueWriteBuffer(dmlcl_device_queue(dev), m, CL_TRUE, 0, bytes, data, 0, NULL,
                                      NULL)
               : clEnqueueFillBuffer(dmlcl_device_queue(dev), m, &zero, 1, 0, bytes, 0, NULL, NULL);
    FAIL_IF(err != CL_SUCCESS, "filling a buffer (%d)", err);
    clFinish(dmlcl_device_queue(dev));
    return m;
}

static DML_BINDING_DESC *bind(DML_BUFFER_BINDING *b, DML_BINDING_DESC *d, cl_mem m, size_t bytes)
{
    *b = (DML_BUFFER_BINDING){(ID3D12Resource *)m, 0, bytes};
    *d = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, b};
    return d;
}

/* The contenders of a round: the graph, the nodes one by one, each limit mechanism. */
enum { C_GRAPH, C_NODES, C_LIMIT, C_COUNT = C_LIMIT + LIMIT_MECHANISMS };

typedef struct settings {
    int reps;
    double seconds;
    FILE *csv;
} settings;

static double run_once(dmlcl_device *dev, int c, dmlcl_binding_table *graph,
                       dmlcl_binding_table **nodes, int n, bench_limit *limit, size_t bytes)
{
    cl_command_queue q = dmlcl_device_queue(dev);
    if (c >= C_LIMIT)
        return limit_run(limit, (limit_mechanism)(c - C_LIMIT), bytes, bytes);
    double t0 = now();
    if (c == C_GRAPH)
        FAIL_IF(FAILED(dmlcl_binding_table_dispatch(graph, q, 0, NULL, NULL)), "graph");
    for (int k = 0; c == C_NODES && k < n; ++k)
        FAIL_IF(FAILED(dmlcl_binding_table_dispatch(nodes[k], q, 0, NULL, NULL)), "node");
    clFinish(q);
    return now() - t0;
}

typedef struct rig {
    dmlcl_operator *ops[MAX_NODES];
    dmlcl_compiled_operator *compiled[MAX_NODES], *graph;
    dmlcl_binding_table *tables[MAX_NODES], *graph_table;
    cl_mem input, indices, mid[MAX_NODES], out_nodes, out_graph, temp;
} rig;

/* The operators one by one: node k writes mid[k] (the last: out_nodes). */
static void build_nodes(dmlcl_device *dev, const chain *c, rig *g)
{
    for (int k = 0; k < c->n; ++k) {
        DML_BUFFER_BINDING b[3];
        DML_BINDING_DESC d[3];
        FAIL_IF(FAILED(dmlcl_operator_create(dev, &c->ops[k], &g->ops[k])), "%s node %d", c->name,
                k);
        FAIL_IF(FAILED(dmlcl_operator_compile(g->ops[k], 0, &g->compiled[k])), "compile");
        FAIL_IF(FAILED(dmlcl_binding_table_create(g->compiled[k], &g->tables[k])), "table");
        cl_mem in = k ? g->mid[k - 1] : g->input;
        size_t in_bytes = k ? c->out_bytes[k - 1] : c->in_bytes;
        bind(&b[0], &d[0], in, in_bytes);
        bind(&b[1], &d[1], g->indices, c->idx_bytes);
        g->mid[k] = k + 1 < c->n ? buffer(dev, c->out_bytes[k], NULL) : NULL;
        bind(&b[2], &d[2], k + 1 < c->n ? g->mid[k] : g->out_nodes, c->out_bytes[k]);
        FAIL_IF(FAILED(dmlcl_binding_table_bind_inputs(g->tables[k], 1 + c->takes_indices[k], d)),
                "bind");
        FAIL_IF(FAILED(dmlcl_binding_table_bind_outputs(g->tables[k], 1, &d[2])), "bind");
    }
}

/* The same operators as one graph: input 0 the data, input 1 the indices (if any). */
static void build_graph(dmlcl_device *dev, const chain *c, rig *g)
{
    DML_OPERATOR_GRAPH_NODE_DESC on[MAX_NODES];
    DML_GRAPH_NODE_DESC nodes[MAX_NODES];
    DML_INPUT_GRAPH_EDGE_DESC ie[2];
    DML_INTERMEDIATE_GRAPH_EDGE_DESC me[MAX_NODES];
    DML_OUTPUT_GRAPH_EDGE_DESC oe = {(UINT)c->n - 1, 0, 0, NULL};
    DML_GRAPH_EDGE_DESC in_e[2], mid_e[MAX_NODES], out_e = {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe};
    UINT n_in = 0, n_mid = 0;
    for (int k = 0; k < c->n; ++k) {
        on[k] = (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)g->ops[k], NULL};
        nodes[k] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &on[k]};
        if (k == 0)
            ie[n_in++] = (DML_INPUT_GRAPH_EDGE_DESC){0, 0, 0, NULL};
        else
            me[n_mid++] = (DML_INTERMEDIATE_GRAPH_EDGE_DESC){(UINT)k - 1, 0, (UINT)k, 0, NULL};
        if (c->takes_indices[k])
            ie[n_in++] = (DML_INPUT_GRAPH_EDGE_DESC){1, (UINT)k, 1, NULL};
    }
    for (UINT i = 0; i < n_in; ++i)
        in_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &ie[i]};
    for (UINT i = 0; i < n_mid; ++i)
        mid_e[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me[i]};
    DML_GRAPH_DESC desc = {n_in, 1, (UINT)c->n, nodes, n_in, in_e, 1, &out_e, n_mid, mid_e};
    FAIL_IF(FAILED(dmlcl_graph_compile(dev, &desc, 0, &g->graph)), "%s: graph", c->name);
    FAIL_IF(FAILED(dmlcl_binding_table_create(g->graph, &g->graph_table)), "graph table");
    DML_BUFFER_BINDING b[4];
    DML_BINDING_DESC d[4];
    bind(&b[0], &d[0], g->input, c->in_bytes);
    bind(&b[1], &d[1], g->indices, c->idx_bytes);
    bind(&b[2], &d[2], g->out_graph, c->out_bytes[c->n - 1]);
    FAIL_IF(FAILED(dmlcl_binding_table_bind_inputs(g->graph_table, n_in, d)), "bind");
    FAIL_IF(FAILED(dmlcl_binding_table_bind_outputs(g->graph_table, 1, &d[2])), "bind");
    uint64_t temp = dmlcl_compiled_operator_binding_properties(g->graph).TemporaryResourceSize;
    g->temp = temp ? buffer(dev, (size_t)temp, NULL) : NULL;
    FAIL_IF(FAILED(dmlcl_binding_table_bind_temporary(
                g->graph_table, temp ? bind(&b[3], &d[3], g->temp, (size_t)temp) : NULL)),
            "bind temporary");
}

static void run_chain(dmlcl_device *dev, chain *c, const settings *set)
{
    rig g;
    memset(&g, 0, sizeof g);
    size_t out = c->out_bytes[c->n - 1];
    g.input = buffer(dev, c->in_bytes, c->input);
    g.indices = buffer(dev, c->idx_bytes ? c->idx_bytes : 4, c->indices);
    g.out_nodes = buffer(dev, out, NULL);
    g.out_graph = buffer(dev, out, NULL);
    build_nodes(dev, c, &g);
    build_graph(dev, c, &g);
    /* The graph's output must be the operators' output, byte for byte. */
    cl_command_queue q = dmlcl_device_queue(dev);
    run_once(dev, C_NODES, NULL, g.tables, c->n, NULL, 0);
    run_once(dev, C_GRAPH, g.graph_table, NULL, 0, NULL, 0);
    unsigned char *a = malloc(out), *b = malloc(out);
    clEnqueueReadBuffer(q, g.out_nodes, CL_TRUE, 0, out, a, 0, NULL, NULL);
    clEnqueueReadBuffer(q, g.out_graph, CL_TRUE, 0, out, b, 0, NULL, NULL);
    FAIL_IF(memcmp(a, b, out) != 0, "%s: the graph's output differs from the operators'", c->name);
    size_t lines = (out + 63) / 64 * 64;
    bench_limit *limit =
        limit_create(dmlcl_device_context(dev), dmlcl_device_id(dev), q, lines, lines);
    static double t[C_COUNT][BENCH_MAX_ROUNDS];
    int rounds = 0;
    double start = now();
    for (int r = -2; r < BENCH_MAX_ROUNDS; ++r) { /* two warm-up rounds */
        if (r >= set->reps && now() - start >= set->seconds)
            break;
        if (r == 0)
            start = now();
        for (int k = 0; k < C_COUNT; ++k) {
            int kind = (k + (r < 0 ? 0 : r)) % C_COUNT;
            limit_flush(limit); /* every contender starts cold */
            double s = run_once(dev, kind, g.graph_table, g.tables, c->n, limit, lines);
            if (r >= 0)
                t[kind][r] = s;
        }
        rounds = r + 1;
    }
    bench_timing s[C_COUNT];
    int best = C_LIMIT;
    for (int k = 0; k < C_COUNT; ++k) {
        s[k] = bench_summarize(t[k], rounds);
        if (k >= C_LIMIT && s[k].median < s[best].median)
            best = k;
    }
    double paired[BENCH_MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r)
        paired[r] = t[best][r] / t[C_GRAPH][r];
    bench_timing ratio = bench_summarize(paired, rounds);
    printf("| %s | %zu | %.2f ms (%.2f) | %.2f ms (%.2f) | %.2f ms (%.2f), %s | %.2f | %.2f "
           "[%.2f-%.2f] | %d |\n",
           c->name, out, 1e3 * s[C_GRAPH].median, 1e3 * s[C_GRAPH].min, 1e3 * s[C_NODES].median,
           1e3 * s[C_NODES].min, 1e3 * s[best].median, 1e3 * s[best].min,
           limit_name((limit_mechanism)(best - C_LIMIT)), s[C_NODES].median / s[C_GRAPH].median,
           ratio.median, ratio.q1, ratio.q3, rounds);
    fflush(stdout);
    if (set->csv)
        fprintf(set->csv, "%s,%zu,%.9f,%.9f,%.9f,%.9f,%s,%.4f,%.4f,%.4f,%d\n", c->id, out,
                s[C_GRAPH].median, s[C_GRAPH].min, s[C_NODES].median, s[best].median,
                limit_name((limit_mechanism)(best - C_LIMIT)), ratio.median, ratio.q1, ratio.q3,
                rounds);
    limit_release(limit);
    free(a);
    free(b);
    dmlcl_binding_table_release(g.graph_table);
    dmlcl_compiled_operator_release(g.graph);
    for (int k = 0; k < c->n; ++k) {
        dmlcl_binding_table_release(g.tables[k]);
        dmlcl_compiled_operator_release(g.compiled[k]);
        dmlcl_operator_release(g.ops[k]);
        if (g.mid[k])
            clReleaseMemObject(g.mid[k]);
    }
    cl_mem all[5] = {g.input, g.indices, g.out_nodes, g.out_graph, g.temp};
    for (int i = 0; i < 5; ++i)
        if (all[i])
            clReleaseMemObject(all[i]);
    free(c->input);
    free(c->indices);
}

int main(int argc, char **argv)
{
    settings set = {20, 2.0, NULL};
    const char *spec = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            set.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            set.seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            spec = argv[++i];
        else if (!strcmp(argv[i], "--csv-file") && i + 1 < argc) {
            set.csv = fopen(argv[++i], "w");
            if (!set.csv) {
                perror(argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: dmlcl-bench-chains [--reps N] [--seconds S] [--csv-file PATH] "
                            "[--device SPEC]\n");
            return 2;
        }
    }
    set.reps = set.reps < 5 ? 5 : set.reps > BENCH_MAX_ROUNDS ? BENCH_MAX_ROUNDS : set.reps;
    dmlcl_device *dev;
    FAIL_IF(FAILED(dmlcl_device_create_from_spec(spec, &dev)), "device");
    printf("device: %s\n\n| chain | output bytes | graph median (min) | nodes one by one | "
           "copy of the output, best mechanism | nodes / graph | copy / graph median [q1-q3] | "
           "rounds |\n|---|---|---|---|---|---|---|---|\n",
           dmlcl_device_description(dev));
    if (set.csv)
        fprintf(set.csv, "chain,bytes,graph_s,graph_min_s,nodes_s,limit_s,limit_mechanism,ratio,"
                         "ratio_q1,ratio_q3,rounds\n");
    void (*const setups[])(chain *) = {layout_slice_gather, broadcast_reverse, layout_bias,
                                       elementwise_chain, embedding_scale};
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; ++i) {
        chain *c = calloc(1, sizeof *c);
        setups[i](c);
        run_chain(dev, c, &set);
        free(c);
    }
    dmlcl_device_release(dev);
    if (set.csv)
        fclose(set.csv);
    return 0;
}
