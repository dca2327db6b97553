/* SPDX-License-Identifier: MIT */
/*
 * Graph plans: which kernels a validated graph runs, and where its
 * intermediate tensors live.
 *
 * Nodes are visited in topological order. Each starts from its operator's
 * plan; for each tensor it reads (data, then indices) that another operator
 * node writes, the producer is composed into it (fuse.c) when
 *   - the producer's output feeds this one node input and no graph output
 *     (fusing a fan-out would run the producer's reads once per reader), and
 *   - the composition is exact (else fuse.c says why).
 * A composed producer runs no kernel; the reader takes over its sources.
 *
 * Element-wise nodes (maps) compose too, where the result is exact:
 *   - a copy that is a view (a slice, a broadcast, a layout change: no
 *     indices) feeding one map input is read through by the map (its input
 *     strides become the composed ones), so the map reads the copy's source
 *     and the copy runs no kernel;
 *   - an activation node (IDENTITY map with an activation, one input) after
 *     a map without one becomes that map's activation, when the map's result
 *     type is its compute type (FLOAT32, FLOAT64: the intermediate store
 *     rounds nothing) and the activation reads the intermediate as the map
 *     wrote it.
 * Both under the fan-out and graph-output rules above.
 * Every other node is a step, in topological order, writing its graph output
 * or, when it only feeds nodes, an intermediate tensor in the temporary
 * resource (each at a 256-byte aligned offset, sized by the producer's
 * TotalTensorSizeInBytes; no reuse between tensors whose lifetimes do not
 * overlap, which keeps the binding check simple and the layout obvious).
 *
 * Like DirectML, the temporary resource is the caller's: the compiled graph
 * reports TemporaryResourceSize and BindTemporaryResource binds it. DirectML
 * code already sizes, allocates and binds it whenever the size is not 0, so
 * it runs unchanged, and the memory stays under the application's control
 * (one allocation can serve several graphs run one after another).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse.h"
#include "graph.h"
#include "launch.h"

/* A node's plan while planning, and the tensors its data / index reads come from. */
typedef struct pending {
    dmli_plan plan;
    dmli_source data, index;
    uint32_t fused;
} pending;

static bool is_operator(const dmli_graph *g, dmli_source s)
{
    return s.kind == DMLI_SOURCE_NODE && g->nodes[s.index].st != NULL;
}

/* One copy kernel, one output: what fusion composes into a copy (JOIN, SPLIT, PADDING run
 * as their steps; a map is composed into by views and activations, never into a copy). */
static bool single_kernel(const dmli_graph_node *node)
{
    return node->st && !node->st->mapped && !node->st->reduced && !node->st->computed &&
           node->st->n_steps == 0 && node->st->n_outputs == 1;
}

static void start(const dmli_graph_node *node, pending *p)
{
    const dmli_op_state *st = node->st;
    p->plan = st->plan;
    dmli_plan_unwiden(&p->plan, st->outputs[0].elem_bytes);
    p->data = node->inputs[st->data_input];
    p->index = st->index_input >= 0 ? node->inputs[st->index_input]
                                    : (dmli_source){DMLI_SOURCE_NONE, 0, 0};
    p->fused = 0;
}

/*
 * The plans being composed, in a pool: a node takes an entry when it is
 * planned and gives it back when it is composed into its reader, so a
 * fusing chain of any length holds a few entries, and what stays are the
 * plans that become steps.
 */
#define NO_ENTRY UINT32_MAX
typedef struct pending_pool {
    pending *entries;
    uint32_t *free_list, n_free, used, cap;
    uint32_t *of; /* per node: its entry, or NO_ENTRY */
} pending_pool;

static pending *pending_of(const pending_pool *pool, uint32_t v)
{
    return &pool->entries[pool->of[v]];
}

static HRESULT pending_take(pending_pool *pool, uint32_t v)
{
    if (pool->n_free) {
        pool->of[v] = pool->free_list[--pool->n_free];
        return S_OK;
    }
    if (pool->used == pool->cap) {
        uint32_t cap = pool->cap ? 2 * pool->cap : 16;
        pending *entries = realloc(pool->entries, cap * sizeof *entries);
        if (entries)
            pool->entries = entries;
        uint32_t *free_list = entries ? realloc(pool->free_list, cap * sizeof *free_list) : NULL;
        if (free_list)
            pool->free_list = free_list;
        if (!entries || !free_list)
            return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
        pool->cap = cap;
    }
    pool->of[v] = pool->used++;
    return S_OK;
}

static void pending_give_back(pending_pool *pool, uint32_t v)
{
    pool->free_list[pool->n_free++] = pool->of[v];
    pool->of[v] = NO_ENTRY;
}

/*
 * An indexed copy whose innermost run reads the input with a stride: a
 * layout change composed into a gather. Fused, the indexed kernel moves it
 * in tiles (a work-item's on CPUs, a work-group's on GPUs) when its inner
 * dimensions are a transpose that leaves the indices alone (launch.c
 * dmli_indexed_tiles, the CPUs' rule, which GPUs meet too but for input-
 * contiguous dimensions of 16-31 4-byte units; cl/indexed.cl TRANSPOSE);
 * otherwise one element at a time, many times a contiguous run (measured
 * with dmlcl-bench-chains: NCHW to NHWC, then a row gather, ran ~2x slower
 * fused element by element than as two kernels).
 */
static bool strided_indexed_run(const dmli_plan *plan, int *tiles)
{
    dmli_plan p = *plan;
    dmli_plan_normalize(&p);
    *tiles = 0;
    if (p.kind != DMLI_PLAN_INDEXED || p.empty || p.rank == 0)
        return false;
    int64_t s = p.in_stride[p.rank - 1];
    if (s > 1 || s < -1) {
        *tiles = dmli_indexed_tiles(&p);
        return true;
    }
    return false;
}

static uint64_t elements(const dmli_plan *p)
{
    uint64_t n = 1;
    for (int d = 0; d < p->rank; ++d)
        n *= (uint64_t)p->size[d];
    return n;
}

/*
 * Why a layout change stays out of the indexed copy it would compose into,
 * or NULL. Fused and tiled, the copy transposes each of its output elements
 * once: cheaper than a transpose and a gather apart, unless the reader
 * writes more elements than the producer (a gather repeating rows of the
 * layout change), where fusing would redo the producer's work per copy.
 */
static const char *layout_cost(const dmli_plan *producer, const dmli_plan *consumer,
                               const dmli_plan *composed)
{
    int tiles, unused;
    if (!strided_indexed_run(composed, &tiles) || strided_indexed_run(producer, &unused) ||
        strided_indexed_run(consumer, &unused))
        return NULL;
    if (!tiles)
        return "fused, the indexed copy would read its runs with a stride, one element at a "
               "time; apart, a layout change runs as a tiled view and the gather copies whole "
               "runs";
    if (elements(consumer) > elements(producer))
        return "fused, the tiled indexed copy would repeat the producer's work: the reader "
               "writes more elements than the producer";
    return NULL;
}

/* Composes the producer of port into v when allowed and exact; records the decision. */
static void try_fuse(const dmli_graph *g, pending_pool *pool, dmli_graph_decision *dec, uint32_t v,
                     dmli_fuse_port port)
{
    dmli_graph_work_done.plan++;
    pending *c = pending_of(pool, v);
    dmli_source src = port == DMLI_FUSE_DATA ? c->data : c->index;
    if (!is_operator(g, src))
        return;
    uint32_t u = src.index;
    const dmli_graph_node *producer = &g->nodes[u];
    if (!single_kernel(producer)) {
        dec[u].why = producer->st->mapped
                         ? "its operator is element-wise arithmetic (a map), which runs as its "
                           "own step"
                     : producer->st->reduced
                         ? "its operator is a reduction, which runs as its own step"
                     : producer->st->computed
                         ? "its operator computes (GEMM, convolution, pooling, resampling) as its "
                           "own step"
                         : "its operator runs as several kernels or has several outputs";
        return;
    }
    if (producer->consumers[0] != 1 || producer->graph_output[0] >= 0) {
        dec[u].why = producer->graph_output[0] >= 0
                         ? "its output is also a graph output"
                         : "its output feeds several node inputs (fusing would repeat its reads)";
        return;
    }
    const pending *p = pending_of(pool, u);
    dmli_plan composed;
    if (!dmli_fuse_compose(&p->plan, &c->plan, port, &composed, &dec[u].why))
        return;
    const char *why = layout_cost(&p->plan, &c->plan, &composed);
    if (why) {
        dec[u].why = why;
        return;
    }
    bool producer_indexed = p->plan.kind == DMLI_PLAN_INDEXED;
    c->plan = composed;
    if (port == DMLI_FUSE_INDEX)
        c->index = p->data;
    else
        c->data = p->data;
    if (producer_indexed)
        c->index = p->index;
    c->fused += 1 + p->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    pending_give_back(pool, u);
}

/* A map node's map while planning: the operator's, as lowered (not normalised), and the
 * source of each input, until the node is a step or becomes part of another. */
typedef struct pending_map {
    dmli_map map;
    dmli_source src[DMLI_MAP_MAX_INPUTS];
    uint32_t fused;
} pending_map;

static bool is_map(const dmli_graph *g, dmli_source s)
{
    return is_operator(g, s) && g->nodes[s.index].st->mapped;
}

/* The producer's output feeds this one node input and no graph output; else why not. */
static const char *single_reader(const dmli_graph_node *producer, uint32_t output)
{
    if (producer->graph_output[output] >= 0)
        return "its output is also a graph output";
    if (producer->consumers[output] != 1)
        return "its output feeds several node inputs (fusing would repeat its reads)";
    return NULL;
}

/* Whether map input k, normalised, reads its innermost run with a stride other than 0 or +-1
 * (measured with dmlcl-bench-chains: NCHW to NHWC then a bias ADD read through the transpose
 * element by element ran 2.5x slower than the tiled transpose and the map apart). */
static bool strided_map_run(const dmli_map *m, uint32_t k)
{
    dmli_map n = *m;
    dmli_map_normalize(&n);
    if (n.empty || n.rank == 0)
        return false;
    int64_t s = n.in[k].stride[n.rank - 1];
    return s > 1 || s < -1;
}

/* Whether the map, normalised, reads an input across its run in tiles on device dev (a CPU's
 * map kernel, cl/map.cl TILE: launch_map.c dmli_map_tiles; NULL: a plan for any device, GPUs'
 * maps have no tiles). Fused and tiled, NCHW to NHWC + a channel bias is one kernel reading
 * each byte once (dmlcl-bench-chains layout-bias). */
static bool map_tiles_on(const dmli_device_desc *dev, const dmli_map *m)
{
    if (!dev || dev->device_class == DMLCL_DEVICE_CLASS_GPU)
        return false;
    dmli_map n = *m;
    dmli_map_normalize(&n);
    return !n.empty && dmli_map_tiles(&n);
}

/* The tensor type of a gather's index type. */
static DML_TENSOR_DATA_TYPE index_tensor_type(dmli_index_type t)
{
    switch (t) {
    case DMLI_INDEX_INT8: return DML_TENSOR_DATA_TYPE_INT8;
    case DMLI_INDEX_UINT8: return DML_TENSOR_DATA_TYPE_UINT8;
    case DMLI_INDEX_INT16: return DML_TENSOR_DATA_TYPE_INT16;
    case DMLI_INDEX_UINT16: return DML_TENSOR_DATA_TYPE_UINT16;
    case DMLI_INDEX_INT32: return DML_TENSOR_DATA_TYPE_INT32;
    case DMLI_INDEX_UINT32: return DML_TENSOR_DATA_TYPE_UINT32;
    case DMLI_INDEX_INT64: return DML_TENSOR_DATA_TYPE_INT64;
    default: return DML_TENSOR_DATA_TYPE_UINT64;
    }
}

/* Map input k's reads of the tensor the producer plan p writes, composed with p (a view
 * stays a view, a gather an indexed plan), in the map's own dimensions; else false and why. */
static bool compose_map_read(const dmli_map *m, uint32_t k, const dmli_plan *p, dmli_plan *out,
                             const char **why)
{
    dmli_plan reader;
    dmli_plan_init(&reader, DMLI_PLAN_VIEW, dmli_type_size(m->in[k].type));
    for (int d = 0; d < m->rank; ++d)
        dmli_plan_push(&reader, m->size[d], m->out.stride[d], m->in[k].stride[d], 0, 0);
    reader.in_offset = m->in[k].offset;
    reader.out_offset = m->out.offset;
    if (!dmli_fuse_compose(p, &reader, DMLI_FUSE_DATA, out, why))
        return false;
    bool same_box = out->kind == p->kind && out->rank == m->rank;
    for (int d = 0; same_box && d < m->rank; ++d)
        same_box = out->size[d] == m->size[d];
    if (!same_box)
        *why = "the composed read does not keep the map's dimensions";
    return same_box;
}

/* Map input k read through the gather u that writes it (one index per output element: GATHER,
 * GATHER_ELEMENTS and the front-ends' gathers; CLAMP or ZERO): the map reads the gather's data
 * at the gathered positions, the gather's indices becoming one more input of the map (no
 * operand), and the gather's output is never written (an embedding lookup and the ADD of its
 * positions: one kernel). */
static void try_fuse_gather_into_map(pending_pool *pool, pending_map *pm, dmli_graph_decision *dec,
                                     uint32_t v, uint32_t k, uint32_t u)
{
    const pending *p = pending_of(pool, u);
    dmli_map *m = &pm->map;
    if (p->plan.components != 1) {
        dec[u].why = "its gather reads several index components per element (GATHER_ND): a map "
                     "reads through one";
        return;
    }
    if (m->gather.on || m->n_inputs >= DMLI_MAP_MAX_INPUTS) {
        dec[u].why = m->gather.on ? "the map already reads through another gather"
                                  : "the map reads as many tensors as it takes (8): the "
                                    "indices would be one more";
        return;
    }
    dmli_plan c;
    if (!compose_map_read(m, k, &p->plan, &c, &dec[u].why))
        return;
    uint32_t x = m->n_inputs++;
    m->in[x] = (dmli_map_tensor){index_tensor_type(c.idx_type), 0, c.idx_offset, {0}};
    for (int d = 0; d < m->rank; ++d) {
        m->in[k].stride[d] = c.in_stride[d];
        m->in[x].stride[d] = c.idx_stride[d];
    }
    m->in[k].offset = c.in_offset;
    m->gather.on = true;
    m->gather.input = k;
    m->gather.index = x;
    m->gather.wrap = c.wrap_negative;
    m->gather.policy = c.policy;
    m->gather.axis_size = c.axis_size[0];
    m->gather.axis_stride = c.axis_stride[0];
    pm->src[k] = p->data;
    pm->src[x] = p->index;
    pm->fused += 1 + p->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    pending_give_back(pool, u);
}

/* Map input k read through the view that writes it (a copy node still pending). */
static void try_fuse_view_into_map(const dmli_graph *g, const dmli_device_desc *dev,
                                   pending_pool *pool, pending_map *pm, dmli_graph_decision *dec,
                                   uint32_t v, uint32_t k)
{
    dmli_graph_work_done.plan++;
    dmli_source src = pm->src[k];
    if (!is_operator(g, src) || g->nodes[src.index].st->mapped)
        return;
    uint32_t u = src.index;
    const dmli_graph_node *producer = &g->nodes[u];
    if (!single_kernel(producer)) {
        dec[u].why = "its operator runs as several kernels or has several outputs";
        return;
    }
    if ((dec[u].why = single_reader(producer, 0)) != NULL)
        return;
    const pending *p = pending_of(pool, u);
    if (p->plan.kind != DMLI_PLAN_VIEW) {
        try_fuse_gather_into_map(pool, pm, dec, v, k, u);
        return;
    }
    dmli_map *m = &pm->map;
    dmli_plan composed;
    if (!compose_map_read(m, k, &p->plan, &composed, &dec[u].why))
        return;
    dmli_map fused = *m;
    for (int d = 0; d < m->rank; ++d)
        fused.in[k].stride[d] = composed.in_stride[d];
    fused.in[k].offset = composed.in_offset;
    if (strided_map_run(&fused, k) && !strided_map_run(m, k) && !map_tiles_on(dev, &fused)) {
        dec[u].why = "fused, the map would read this input along its run with a stride, one "
                     "element at a time; apart, the layout change runs as a tiled view and the "
                     "map reads contiguous runs";
        return;
    }
    *m = fused;
    pm->src[k] = p->data;
    pm->fused += 1 + p->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    pending_give_back(pool, u);
}

/* A computed node's description while planning, and the source of each of its tensors that
 * is an input. */
typedef struct pending_compute {
    dmli_compute compute;
    dmli_source src[DMLI_COMPUTE_MAX_TENSORS];
    uint32_t fused;
} pending_compute;

/* Computed node v reads its input tensor i through the view that writes it (a transpose as
 * IDENTITY with permuted strides, a reshape, a broadcast), where the family takes new strides
 * (dmli_compute_restride: GEMM's operands): the view's output is never written. */
static void try_fuse_view_into_compute(const dmli_graph *g, pending_pool *pool, pending_compute *pc,
                                       dmli_graph_decision *dec, uint32_t v, uint32_t i)
{
    dmli_graph_work_done.plan++;
    const dmli_compute_tensor *t = &pc->compute.tensors[i];
    dmli_source src = pc->src[i];
    if (t->output || !is_operator(g, src) || g->nodes[src.index].st->mapped)
        return;
    for (uint32_t j = 0; j < i; ++j)
        if (!pc->compute.tensors[j].output && pc->compute.tensors[j].slot == t->slot)
            return; /* a stand-in for an absent tensor: follows tensor j */
    uint32_t u = src.index;
    const dmli_graph_node *producer = &g->nodes[u];
    if (!single_kernel(producer)) {
        dec[u].why = producer->st->computed || producer->st->reduced
                         ? NULL
                         : "its operator runs as several kernels or has several outputs";
        return;
    }
    if ((dec[u].why = single_reader(producer, 0)) != NULL)
        return;
    const pending *p = pending_of(pool, u);
    if (p->plan.kind != DMLI_PLAN_VIEW) {
        dec[u].why = "a gather feeding a computed operator keeps its output (the operator reads "
                     "its inputs through strides, not indices)";
        return;
    }
    const dmli_tensor *in = &g->nodes[v].st->inputs[t->slot];
    dmli_plan reader;
    dmli_plan_init(&reader, DMLI_PLAN_VIEW, in->elem_bytes);
    int64_t pos[DMLI_MAX_RANK], at = 1;
    for (int d = (int)in->rank - 1; d >= 0; --d) {
        pos[d] = at;
        at *= (int64_t)in->sizes[d];
    }
    for (uint32_t d = 0; d < in->rank; ++d)
        dmli_plan_push(&reader, (int64_t)in->sizes[d], pos[d], in->strides[d], 0, 0);
    reader.in_offset = t->offset;
    reader.out_offset = 0;
    dmli_plan composed;
    if (!dmli_fuse_compose(&p->plan, &reader, DMLI_FUSE_DATA, &composed, &dec[u].why))
        return;
    bool same_box = composed.kind == DMLI_PLAN_VIEW && composed.rank == (int)in->rank;
    for (uint32_t d = 0; same_box && d < in->rank; ++d)
        same_box = composed.size[d] == (int64_t)in->sizes[d];
    if (!same_box) {
        dec[u].why = "the composed read does not keep the operator's dimensions";
        return;
    }
    dmli_compute trial = pc->compute;
    if (!dmli_compute_restride(&trial, i, composed.in_stride, composed.in_offset)) {
        dec[u].why = "its operator's family reads this input in its own layout (no new strides)";
        return;
    }
    pc->compute = trial;
    for (uint32_t j = i; j < pc->compute.n_tensors; ++j)
        if (!pc->compute.tensors[j].output && pc->compute.tensors[j].slot == t->slot)
            pc->src[j] = p->data; /* stand-ins follow */
    pc->fused += 1 + p->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    pending_give_back(pool, u);
}

/* The compute type stores its own type: a result kept in it rounds nothing. */
static bool exact_intermediate(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT64;
}

static int float_compute(const dmli_map *m);

/* An activation node v (pm, as lowered) after the map node u that writes its input: u's map
 * with v's activation, writing v's output. */
static bool try_fuse_activation(const dmli_graph *g, pending_map *maps, const uint32_t *map_of,
                                dmli_graph_decision *dec, uint32_t v)
{
    dmli_graph_work_done.plan++;
    pending_map *pv = &maps[map_of[v]];
    const dmli_map *a = &pv->map;
    if (a->op != DMLI_MAP_IDENTITY || a->act == DMLI_ACT_NONE || a->scale_bias ||
        a->n_inputs != 1 || !is_map(g, pv->src[0]))
        return false;
    uint32_t u = pv->src[0].index;
    pending_map *pu = &maps[map_of[u]];
    const dmli_map *m = &pu->map;
    if ((dec[u].why = single_reader(&g->nodes[u], 0)) != NULL)
        return false;
    /* Not onto the generators of encodings (DIAGONAL keeps its band in the activation's
     * parameters). */
    if (m->op == DMLI_MAP_ONE_HOT || m->op == DMLI_MAP_DIAGONAL) {
        dec[u].why = "it writes encodings, not values";
        return false;
    }
    /* The activation of the map's last operation (a chain's last stage). */
    uint32_t last = m->n_stages > 1 ? m->n_stages - 1 : 0;
    dmli_map_stage st = dmli_map_get_stage(m, last);
    if (st.act != DMLI_ACT_NONE)
        return false; /* a stage of its own follows (try_fuse_map_chain) */
    /* ... and the map computes in the intermediate's type (a CAST from FLOAT64 to FLOAT32
     * computes in double: fused, the activation would read the unrounded double). */
    if (!exact_intermediate(m->out.type) || m->out.type != a->in[0].type ||
        a->out.type != a->in[0].type ||
        (m->out.type == DML_TENSOR_DATA_TYPE_FLOAT64) != (float_compute(m) == 2)) {
        dec[u].why = "its result is rounded to the intermediate tensor's type before the "
                     "activation (fused, it would not be)";
        return false;
    }
    bool same = m->rank == a->rank && m->out.offset == a->in[0].offset;
    for (int d = 0; same && d < m->rank; ++d)
        same =
            m->size[d] == a->size[d] && (m->size[d] == 1 || m->out.stride[d] == a->in[0].stride[d]);
    if (!same) {
        dec[u].why = "the activation reads the intermediate tensor in another layout";
        return false;
    }
    pending_map fused = *pu;
    st.act = a->act;
    for (int i = DMLI_MAP_PARAM_ACT; i < DMLI_MAP_MAX_PARAMS; ++i) {
        st.param[i] = a->param[i];
        st.iparam[i] = a->iparam[i];
    }
    dmli_map_set_stage(&fused.map, last, &st);
    fused.map.out = a->out;
    fused.fused += 1 + pv->fused;
    *pv = fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    return true;
}

/* Whether op may be a stage of a chain: value-based in a float compute type (not the fills,
 * which read no input, nor the bit operations, IF, ONE_HOT and DIAGONAL, which work on
 * encodings). */
static bool chainable(dmli_map_op op)
{
    switch (op) {
    case DMLI_MAP_BIT_LOGIC:
    case DMLI_MAP_BIT_NOT:
    case DMLI_MAP_SHIFT:
    case DMLI_MAP_BIT_COUNT:
    case DMLI_MAP_IF:
    case DMLI_MAP_FILL_BITS:
    case DMLI_MAP_FILL_SEQUENCE:
    case DMLI_MAP_ONE_HOT:
    case DMLI_MAP_DIAGONAL: return false;
    default: return true;
    }
}

static uint32_t stages_of(const dmli_map *m)
{
    return m->n_stages > 1 ? m->n_stages : 1;
}

/* The map's compute type as launch_map.c picks it: 1 float, 2 double, 0 an integer type. */
static int float_compute(const dmli_map *m)
{
    bool dbl = m->out.type == DML_TENSOR_DATA_TYPE_FLOAT64, flt = dmli_type_is_float(m->out.type);
    for (uint32_t k = 0; k < m->n_inputs; ++k) {
        dbl = dbl || m->in[k].type == DML_TENSOR_DATA_TYPE_FLOAT64;
        flt = flt || dmli_type_is_float(m->in[k].type);
    }
    return !flt ? 0 : dbl ? 2 : 1;
}

/* Input t (read from src) of the chain being built: an existing input that reads the same
 * elements of the same source in the same way, else a new one; -1 past DMLI_MAP_MAX_INPUTS. */
static int chain_input(dmli_map *f, dmli_source *srcs, const dmli_map_tensor *t, dmli_source src)
{
    for (uint32_t j = 0; j < f->n_inputs; ++j) {
        const dmli_map_tensor *e = &f->in[j];
        bool same = srcs[j].kind == src.kind && srcs[j].index == src.index &&
                    srcs[j].output == src.output && e->type == t->type && e->offset == t->offset;
        for (int d = 0; same && d < f->rank; ++d)
            same = f->size[d] == 1 || e->stride[d] == t->stride[d];
        if (same)
            return (int)j;
    }
    if (f->n_inputs >= DMLI_MAP_MAX_INPUTS)
        return -1;
    f->in[f->n_inputs] = *t;
    f->in[f->n_inputs].slot = f->n_inputs;
    srcs[f->n_inputs] = src;
    return (int)f->n_inputs++;
}

/* Appends the stages of m (reading its inputs through in_of, its input `from_input` (if
 * any) as stage `from_stage`'s result) to the chain f; false past DMLI_MAP_MAX_STAGES. */
static bool chain_stages(dmli_map *f, const dmli_map *m, const int *in_of, int from_input,
                         uint32_t from_stage)
{
    uint32_t base = f->n_stages;
    for (uint32_t s = 0; s < stages_of(m); ++s) {
        if (f->n_stages >= DMLI_MAP_MAX_STAGES)
            return false;
        dmli_map_stage st = dmli_map_get_stage(m, s);
        for (uint32_t j = 0; j < st.n_args; ++j) {
            uint8_t a = st.arg[j];
            if (a >= DMLI_MAP_ARG_STAGE(0))
                st.arg[j] = (uint8_t)(a + base);
            else if ((int)a == from_input)
                st.arg[j] = (uint8_t)DMLI_MAP_ARG_STAGE(from_stage);
            else
                st.arg[j] = (uint8_t)in_of[a];
        }
        dmli_map_set_stage(f, f->n_stages++, &st);
    }
    return true;
}

/* Map node v (pv) reads its input k as map node u (pu) writes it: one map of both
 * operations' stages, u's first, reading both nodes' other inputs once each; the
 * intermediate tensor is never written. Exact where the intermediate is FLOAT32 or FLOAT64
 * and both nodes compute in that type (a stage's result passes as it is). */
static bool try_fuse_map_chain(const dmli_graph *g, pending_map *maps, const uint32_t *map_of,
                               dmli_graph_decision *dec, uint32_t v, uint32_t k)
{
    dmli_graph_work_done.plan++;
    pending_map *pv = &maps[map_of[v]];
    if (!is_map(g, pv->src[k]))
        return false;
    uint32_t u = pv->src[k].index;
    pending_map *pu = &maps[map_of[u]];
    const dmli_map *a = &pu->map, *b = &pv->map;
    if ((dec[u].why = single_reader(&g->nodes[u], pv->src[k].output)) != NULL)
        return false;
    if (a->gather.on || b->gather.on) {
        dec[u].why = "a map that reads through a gather is not chained";
        return false;
    }
    int kind = float_compute(a);
    if (!exact_intermediate(a->out.type) || a->out.type != b->in[k].type || kind == 0 ||
        kind != float_compute(b) || (a->out.type == DML_TENSOR_DATA_TYPE_FLOAT64) != (kind == 2)) {
        dec[u].why = "its result is rounded to the intermediate tensor's type, or computed in "
                     "another type than the next operation's (fused, it would not be)";
        return false;
    }
    for (uint32_t s = 0; s < stages_of(a) + stages_of(b); ++s) {
        dmli_map_stage st =
            s < stages_of(a) ? dmli_map_get_stage(a, s) : dmli_map_get_stage(b, s - stages_of(a));
        if (!chainable(st.op) || st.n_args == 0) {
            dec[u].why = "a fill, a bit operation or IF (on encodings) is not fused into a chain";
            return false;
        }
    }
    bool same = a->rank == b->rank && a->out.offset == b->in[k].offset;
    for (int d = 0; same && d < a->rank; ++d)
        same =
            a->size[d] == b->size[d] && (a->size[d] == 1 || a->out.stride[d] == b->in[k].stride[d]);
    if (!same) {
        dec[u].why = "the next operation reads the intermediate tensor in another layout (or "
                     "broadcasts it: fused, its work would repeat)";
        return false;
    }
    if (stages_of(a) + stages_of(b) > DMLI_MAP_MAX_STAGES) {
        dec[u].why = "the chain would have more operations than a map applies (8)";
        return false;
    }
    dmli_map chain = *b;
    chain.n_inputs = 0;
    chain.n_stages = 0;
    memset(chain.stage, 0, sizeof chain.stage);
    dmli_source srcs[DMLI_MAP_MAX_INPUTS];
    int in_a[DMLI_MAP_MAX_INPUTS], in_b[DMLI_MAP_MAX_INPUTS];
    bool fits = true;
    for (uint32_t j = 0; j < a->n_inputs && fits; ++j)
        fits = (in_a[j] = chain_input(&chain, srcs, &a->in[j], pu->src[j])) >= 0;
    for (uint32_t j = 0; j < b->n_inputs && fits; ++j)
        fits = j == k || (in_b[j] = chain_input(&chain, srcs, &b->in[j], pv->src[j])) >= 0;
    if (!fits) {
        dec[u].why = "the chain would read more tensors than a map takes (8)";
        return false;
    }
    chain_stages(&chain, a, in_a, -1, 0);
    uint32_t last_a = chain.n_stages - 1;
    chain_stages(&chain, b, in_b, (int)k, last_a);
    memcpy(pv->src, srcs, sizeof srcs);
    pv->map = chain;
    pv->fused += 1 + pu->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
    return true;
}

/* A reduction node's reduction while planning, and the source of each input. */
typedef struct pending_reduce {
    dmli_reduce reduce;
    dmli_source src[DMLI_REDUCE_MAX_INPUTS];
    uint32_t fused;
} pending_reduce;

/* The reduction node v (pr, as lowered) reads its input 0 through the element-wise ADD,
 * SUBTRACT or MULTIPLY node that writes it (SkipLayerNormalization's ADD before MVN, an
 * attention mask's ADD before SOFTMAX): the reduction reads the map's two inputs and applies
 * its operation (cl/reduce.cl PRE_OP), and the map's output is never written. Exact where the
 * intermediate tensor is FLOAT32 or FLOAT64 (the reduction computes in that type). */
static void try_fuse_map_into_reduce(const dmli_graph *g, const pending_map *maps,
                                     const uint32_t *map_of, dmli_graph_decision *dec,
                                     pending_reduce *pr, uint32_t v)
{
    dmli_graph_work_done.plan++;
    dmli_reduce *r = &pr->reduce;
    bool folds = r->op <= DMLI_REDUCE_SUM_SQUARE;
    bool normalises = r->op >= DMLI_REDUCE_SOFTMAX && r->op <= DMLI_REDUCE_LP_NORM;
    if (!is_map(g, pr->src[0]) || (!folds && !normalises))
        return;
    uint32_t u = pr->src[0].index;
    const pending_map *pm = &maps[map_of[u]];
    const dmli_map *m = &pm->map;
    if ((dec[u].why = single_reader(&g->nodes[u], pr->src[0].output)) != NULL)
        return;
    if ((m->op != DMLI_MAP_ADD && m->op != DMLI_MAP_SUBTRACT && m->op != DMLI_MAP_MULTIPLY) ||
        m->n_inputs != 2 || m->gather.on || m->scale_bias || m->act != DMLI_ACT_NONE ||
        m->n_stages > 1) {
        dec[u].why = "a reduction reads through an ADD, SUBTRACT or MULTIPLY without an "
                     "activation only";
        return;
    }
    if (r->n_inputs >= DMLI_REDUCE_MAX_INPUTS) {
        dec[u].why = "the reduction reads as many tensors as its kernel takes";
        return;
    }
    if (!exact_intermediate(m->out.type) || m->out.type != r->in[0].type ||
        m->in[0].type != m->out.type || m->in[1].type != m->out.type) {
        dec[u].why = "its result is rounded to the intermediate tensor's type before the "
                     "reduction reads it (fused, it would not be)";
        return;
    }
    bool same = m->rank == r->rank && m->out.offset == r->in[0].offset;
    for (int d = 0; same && d < m->rank; ++d)
        same =
            m->size[d] == r->size[d] && (m->size[d] == 1 || m->out.stride[d] == r->in[0].stride[d]);
    if (!same) {
        dec[u].why = "the reduction reads the intermediate tensor in another layout";
        return;
    }
    uint32_t k = r->n_inputs++;
    r->in[k] = m->in[1];
    r->in[0] = m->in[0];
    r->pre_op = m->op;
    pr->src[k] = pm->src[1];
    pr->src[0] = pm->src[0];
    pr->fused += 1 + pm->fused;
    dec[u].fused_into = (int)v;
    dec[u].why = NULL;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* Where node v's output j lives (one entry per node output). */
#define WHERE(g, where, v, j) ((where)[(g)->nodes[v].output_base + (j)])

/* Where each node output lives: its graph output, or a temporary region. */
static void place_outputs(const dmli_graph *g, const dmli_graph_decision *dec, dmli_slot *where,
                          uint64_t *temp_bytes)
{
    uint64_t temp = 0;
    for (uint32_t i = 0; i < g->n_nodes; ++i) {
        uint32_t v = g->order[i];
        const dmli_graph_node *n = &g->nodes[v];
        dmli_graph_work_done.emit++;
        if (!n->st) {
            WHERE(g, where, v, 0) = (dmli_slot){DMLI_SLOT_CONSTANT, v, 0};
            continue;
        }
        for (uint32_t j = 0; j < n->n_outputs; ++j) {
            dmli_graph_work_done.emit++;
            const dmli_tensor *out = &n->st->outputs[j];
            if (n->graph_output[j] >= 0) {
                WHERE(g, where, v, j) =
                    (dmli_slot){DMLI_SLOT_OUTPUT, (uint32_t)n->graph_output[j], 0};
            } else if (dec[v].fused_into < 0) {
                uint64_t align = out->base_align > DMLI_GRAPH_TEMP_ALIGN ? out->base_align
                                                                         : DMLI_GRAPH_TEMP_ALIGN;
                temp = align_up(temp, align);
                WHERE(g, where, v, j) = (dmli_slot){DMLI_SLOT_TEMP, v, temp};
                temp += out->total_bytes;
            }
        }
    }
    *temp_bytes = temp;
}

static dmli_slot slot_of(const dmli_graph *g, dmli_source s, const dmli_slot *where)
{
    if (s.kind == DMLI_SOURCE_INPUT)
        return (dmli_slot){DMLI_SLOT_INPUT, s.index, 0};
    return WHERE(g, where, s.index, s.output);
}

/* A multi-kernel node's steps, each with the slots of its own input and output. */
static void emit_node_steps(const dmli_graph *g, uint32_t v, const dmli_slot *where,
                            dmli_graph_plan *gp)
{
    const dmli_graph_node *n = &g->nodes[v];
    for (uint32_t k = 0; k < n->st->n_steps; ++k) {
        dmli_graph_work_done.emit++;
        const dmli_op_step *os = &n->st->steps[k];
        dmli_graph_step *s = &gp->steps[gp->n_steps++];
        s->plan = os->plan;
        dmli_plan_normalize(&s->plan);
        s->node = v;
        s->fused = 0;
        s->out = WHERE(g, where, v, os->output);
        s->in = os->input == DMLI_STEP_CONSTANT ? (dmli_slot){DMLI_SLOT_CONSTANT, v, 0}
                                                : slot_of(g, n->inputs[os->input], where);
    }
}

/* An element-wise node: its map (with what was composed into it), normalised, each input
 * from where its source lives. */
static void emit_map_step(const dmli_graph *g, uint32_t v, const pending_map *pm,
                          const dmli_slot *where, dmli_graph_plan *gp)
{
    dmli_graph_work_done.emit++;
    dmli_map *m = &gp->maps[gp->n_maps++];
    *m = pm->map;
    dmli_map_normalize(m);
    dmli_graph_step *s = &gp->steps[gp->n_steps++];
    s->map = m;
    s->plan.empty = m->empty;
    s->node = v;
    s->fused = pm->fused;
    s->out = WHERE(g, where, v, m->out.slot);
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        s->ins[k] = slot_of(g, pm->src[k], where);
}

/* A reduction's node: its reduction (with what was fused into its reads), normalised, each
 * tensor from where it lives. */
static void emit_reduce_step(const dmli_graph *g, uint32_t v, const pending_reduce *pr,
                             const dmli_slot *where, dmli_graph_plan *gp)
{
    dmli_graph_work_done.emit++;
    dmli_reduce *r = &gp->reduces[gp->n_reduces++];
    *r = pr->reduce;
    dmli_reduce_normalize(r);
    dmli_graph_step *s = &gp->steps[gp->n_steps++];
    s->reduce = r;
    s->plan.empty = r->empty;
    s->node = v;
    s->fused = pr->fused;
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        s->outs[j] = WHERE(g, where, v, r->out[j].slot);
    s->out = s->outs[0];
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        s->ins[k] = slot_of(g, pr->src[k], where);
}

/* A computed node: its description (with the views fused into its reads), each tensor from
 * where it lives. */
static void emit_compute_step(const dmli_graph *g, uint32_t v, const pending_compute *pc,
                              const dmli_slot *where, dmli_graph_plan *gp)
{
    dmli_graph_work_done.emit++;
    dmli_compute *c = &gp->computes[gp->n_computes++];
    *c = pc->compute;
    dmli_graph_step *s = &gp->steps[gp->n_steps++];
    s->compute = c;
    s->plan.empty = c->empty;
    s->node = v;
    s->fused = pc->fused;
    bool have_out = false, have_in = false;
    for (uint32_t i = 0; i < c->n_tensors; ++i) {
        const dmli_compute_tensor *t = &c->tensors[i];
        s->tensors[i] = t->output ? WHERE(g, where, v, t->slot) : slot_of(g, pc->src[i], where);
        if (t->output && !have_out)
            s->out = s->tensors[i];
        if (!t->output && !have_in)
            s->in = s->tensors[i];
        have_out |= t->output;
        have_in |= !t->output;
    }
}

/* The steps, in topological order: one per node that was not composed into another. */
static HRESULT emit(const dmli_graph *g, const pending_pool *pool, const pending_map *maps,
                    const uint32_t *map_of, const pending_reduce *reds,
                    const pending_compute *comps, dmli_graph_plan *gp)
{
    size_t n_steps = 0, n_maps = 0, n_reduces = 0, n_computes = 0;
    for (uint32_t v = 0; v < g->n_nodes; ++v)
        if (g->nodes[v].st && gp->decisions[v].fused_into < 0) {
            n_steps += g->nodes[v].st->n_steps ? g->nodes[v].st->n_steps : 1;
            n_maps += g->nodes[v].st->mapped;
            n_reduces += g->nodes[v].st->reduced;
            n_computes += g->nodes[v].st->computed;
        }
    n_steps += g->n_copies;
    dmli_slot *where = calloc(g->n_node_outputs, sizeof *where);
    gp->steps = calloc(n_steps ? n_steps : 1, sizeof *gp->steps);
    gp->maps = calloc(n_maps ? n_maps : 1, sizeof *gp->maps);
    gp->reduces = calloc(n_reduces ? n_reduces : 1, sizeof *gp->reduces);
    gp->computes = calloc(n_computes ? n_computes : 1, sizeof *gp->computes);
    if (!where || !gp->steps || !gp->maps || !gp->reduces || !gp->computes) {
        free(where);
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    }
    place_outputs(g, gp->decisions, where, &gp->temp_bytes);
    for (uint32_t i = 0; i < g->n_nodes; ++i) {
        uint32_t v = g->order[i];
        if (!g->nodes[v].st || gp->decisions[v].fused_into >= 0)
            continue;
        if (g->nodes[v].st->n_steps) {
            emit_node_steps(g, v, where, gp);
            continue;
        }
        if (g->nodes[v].st->mapped) {
            emit_map_step(g, v, &maps[map_of[v]], where, gp);
            continue;
        }
        if (g->nodes[v].st->reduced) {
            emit_reduce_step(g, v, &reds[map_of[v]], where, gp);
            continue;
        }
        if (g->nodes[v].st->computed) {
            emit_compute_step(g, v, &comps[map_of[v]], where, gp);
            continue;
        }
        dmli_graph_work_done.emit++;
        const pending *p = pending_of(pool, v);
        dmli_graph_step *s = &gp->steps[gp->n_steps++];
        s->plan = p->plan;
        dmli_plan_normalize(&s->plan);
        s->node = v;
        s->fused = p->fused;
        s->out = WHERE(g, where, v, 0);
        s->in = slot_of(g, p->data, where);
        if (s->plan.kind == DMLI_PLAN_INDEXED)
            s->idx = slot_of(g, p->index, where);
    }
    /* A graph output that one node output feeds after another: copied from the first, element
     * by element through the node output's strides, after every other step. */
    for (uint32_t c = 0; c < g->n_copies; ++c) {
        dmli_graph_work_done.emit++;
        const struct dmli_graph_output_copy *cp = &g->copies[c];
        const dmli_tensor *t = &g->outputs[cp->to];
        dmli_graph_step *s = &gp->steps[gp->n_steps++];
        dmli_plan_init(&s->plan, DMLI_PLAN_VIEW, t->elem_bytes);
        for (uint32_t d = 0; d < t->rank; ++d)
            dmli_plan_push(&s->plan, (int64_t)t->sizes[d], t->strides[d], t->strides[d], 0, 0);
        dmli_plan_normalize(&s->plan);
        s->node = cp->node;
        s->fused = 0;
        s->out = (dmli_slot){DMLI_SLOT_OUTPUT, cp->to, 0};
        s->in = (dmli_slot){DMLI_SLOT_OUTPUT, cp->from, 0};
    }
    free(where);
    return S_OK;
}

/*
 * One pass over the nodes in topological order, constant work per node
 * (a composition is bounded by the rank), then one pass to place outputs
 * and one to write steps: O(nodes + node outputs + steps).
 */
HRESULT dmli_graph_plan_build(const dmli_graph *g, dmli_graph_plan **out)
{
    return dmli_graph_plan_build_on(g, NULL, out);
}

HRESULT dmli_graph_plan_build_on(const dmli_graph *g, const dmli_device_desc *dev,
                                 dmli_graph_plan **out)
{
    *out = NULL;
    dmli_graph_plan *gp = calloc(1, sizeof *gp);
    pending_pool pool = {0};
    pool.of = malloc(g->n_nodes * sizeof *pool.of);
    uint32_t n_mapped = 0, n_reduced = 0, n_computed = 0;
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        n_mapped += g->nodes[v].st && g->nodes[v].st->mapped;
        n_reduced += g->nodes[v].st && g->nodes[v].st->reduced;
        n_computed += g->nodes[v].st && g->nodes[v].st->computed;
    }
    pending_map *maps = malloc((n_mapped ? n_mapped : 1) * sizeof *maps);
    pending_reduce *reds = malloc((n_reduced ? n_reduced : 1) * sizeof *reds);
    pending_compute *comps = malloc((n_computed ? n_computed : 1) * sizeof *comps);
    uint32_t *map_of = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *map_of);
    if (gp)
        gp->decisions = calloc(g->n_nodes, sizeof *gp->decisions);
    HRESULT hr = gp && pool.of && gp->decisions && maps && reds && comps && map_of
                     ? S_OK
                     : dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    uint32_t n_maps = 0, n_reds = 0, n_comps = 0;
    for (uint32_t v = 0; SUCCEEDED(hr) && v < g->n_nodes; ++v) {
        gp->decisions[v] = (dmli_graph_decision){-1, NULL};
        pool.of[v] = NO_ENTRY;
    }
    for (uint32_t i = 0; SUCCEEDED(hr) && i < g->n_nodes; ++i) {
        uint32_t v = g->order[i];
        dmli_graph_work_done.plan++;
        const dmli_graph_node *node = &g->nodes[v];
        if (node->st && node->st->mapped) {
            pending_map *pm = &maps[map_of[v] = n_maps++];
            pm->map = node->st->map;
            pm->fused = 0;
            for (uint32_t k = 0; k < pm->map.n_inputs; ++k)
                pm->src[k] = node->inputs[pm->map.in[k].slot];
            for (uint32_t k = 0; k < pm->map.n_inputs; ++k)
                try_fuse_view_into_map(g, dev, &pool, pm, gp->decisions, v, k);
            try_fuse_activation(g, maps, map_of, gp->decisions, v);
            for (uint32_t k = 0; k < pm->map.n_inputs;)
                k = try_fuse_map_chain(g, maps, map_of, gp->decisions, v, k) ? 0 : k + 1;
            continue;
        }
        if (node->st && node->st->reduced) {
            /* map_of numbers the reductions too (a node is one or the other). */
            pending_reduce *pr = &reds[map_of[v] = n_reds++];
            pr->reduce = node->st->reduce;
            pr->fused = 0;
            /* An absent optional input (MVN's scale or bias) is never read: input 0's source
             * stands in. */
            for (uint32_t k = 0; k < pr->reduce.n_inputs; ++k) {
                dmli_source src = node->inputs[pr->reduce.in[k].slot];
                pr->src[k] =
                    src.kind == DMLI_SOURCE_NONE ? node->inputs[pr->reduce.in[0].slot] : src;
            }
            try_fuse_map_into_reduce(g, maps, map_of, gp->decisions, pr, v);
            continue;
        }
        if (node->st && node->st->computed) {
            /* map_of numbers the computed nodes too. */
            pending_compute *pc = &comps[map_of[v] = n_comps++];
            pc->compute = node->st->compute;
            pc->fused = 0;
            for (uint32_t x = 0; x < pc->compute.n_tensors; ++x)
                pc->src[x] = pc->compute.tensors[x].output
                                 ? (dmli_source){DMLI_SOURCE_NONE, 0, 0}
                                 : node->inputs[pc->compute.tensors[x].slot];
            for (uint32_t x = 0; x < pc->compute.n_tensors; ++x)
                try_fuse_view_into_compute(g, &pool, pc, gp->decisions, v, x);
            continue;
        }
        if (!single_kernel(node))
            continue; /* constants, and operators that run as their own steps */
        hr = pending_take(&pool, v);
        if (FAILED(hr))
            break;
        start(&g->nodes[v], pending_of(&pool, v));
        try_fuse(g, &pool, gp->decisions, v, DMLI_FUSE_DATA);
        if (pending_of(&pool, v)->plan.kind == DMLI_PLAN_INDEXED)
            try_fuse(g, &pool, gp->decisions, v, DMLI_FUSE_INDEX);
    }
    if (SUCCEEDED(hr))
        hr = emit(g, &pool, maps, map_of, reds, comps, gp);
    free(maps);
    free(reds);
    free(comps);
    free(map_of);
    free(pool.entries);
    free(pool.free_list);
    free(pool.of);
    if (FAILED(hr)) {
        dmli_graph_plan_free(gp);
        return hr;
    }
    *out = gp;
    return S_OK;
}

void dmli_graph_plan_free(dmli_graph_plan *gp)
{
    if (!gp)
        return;
    free(gp->steps);
    free(gp->maps);
    free(gp->reduces);
    free(gp->computes);
    free(gp->decisions);
    free(gp);
}

static const char *slot_text(dmli_slot s, char *buf, size_t len)
{
    static const char *const kinds[] = {"input", "output", "temp", "constant node", "status"};
    if (s.kind == DMLI_SLOT_TEMP)
        snprintf(buf, len, "temp+%llu", (unsigned long long)s.offset);
    else
        snprintf(buf, len, "%s %u", kinds[s.kind], s.index);
    return buf;
}

bool dmli_graph_verbose(void)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *v = getenv("DMLCL_VERBOSE");
        enabled = v && *v && *v != '0';
    }
    return enabled;
}

void dmli_graph_plan_print(const dmli_graph *g, const dmli_graph_plan *gp)
{
    if (!dmli_graph_verbose())
        return;
    for (uint32_t v = 0; v < g->n_nodes; ++v) {
        const dmli_graph_decision *d = &gp->decisions[v];
        if (d->fused_into >= 0)
            fprintf(stderr, "dmlcl: graph node %u (%s) fused into node %d (%s)\n", v,
                    g->nodes[v].name, d->fused_into, g->nodes[d->fused_into].name);
        else if (d->why)
            fprintf(stderr, "dmlcl: graph node %u (%s) keeps its output: %s\n", v, g->nodes[v].name,
                    d->why);
    }
    for (uint32_t i = 0; i < gp->n_steps; ++i) {
        const dmli_graph_step *s = &gp->steps[i];
        char o[48], in[48], ix[48];
        if (s->compute) {
            fprintf(stderr, "dmlcl: graph step %u: node %u (%s), computed (%u tensors), %s <- %s\n",
                    i, s->node, g->nodes[s->node].name, s->compute->n_tensors,
                    slot_text(s->out, o, sizeof o), slot_text(s->in, in, sizeof in));
            continue;
        }
        if (s->reduce) {
            fprintf(stderr,
                    "dmlcl: graph step %u: node %u (%s) + %u fused, reduction of %u input(s) "
                    "rank %d%s, %s <- %s\n",
                    i, s->node, g->nodes[s->node].name, s->fused, s->reduce->n_inputs,
                    s->reduce->rank, s->reduce->pre_op ? " reading through a map" : "",
                    slot_text(s->out, o, sizeof o), slot_text(s->ins[0], in, sizeof in));
            continue;
        }
        if (s->map) {
            fprintf(stderr,
                    "dmlcl: graph step %u: node %u (%s) + %u fused, map of %u input(s), %u "
                    "operation(s), rank %d%s, %s <- %s\n",
                    i, s->node, g->nodes[s->node].name, s->fused, s->map->n_inputs,
                    s->map->n_stages > 1 ? s->map->n_stages : 1, s->map->rank,
                    s->map->gather.on ? ", an input read through a gather's indices" : "",
                    slot_text(s->out, o, sizeof o), slot_text(s->ins[0], in, sizeof in));
            continue;
        }
        fprintf(stderr,
                "dmlcl: graph step %u: node %u (%s) + %u fused, %s plan rank %d unit %u, "
                "%s <- %s%s%s\n",
                i, s->node, g->nodes[s->node].name, s->fused,
                s->plan.kind == DMLI_PLAN_INDEXED ? "indexed" : "view", s->plan.rank,
                s->plan.elem_bytes, slot_text(s->out, o, sizeof o), slot_text(s->in, in, sizeof in),
                s->plan.kind == DMLI_PLAN_INDEXED ? " indices " : "",
                s->plan.kind == DMLI_PLAN_INDEXED ? slot_text(s->idx, ix, sizeof ix) : "");
    }
    fprintf(stderr, "dmlcl: graph temporary resource %llu bytes\n",
            (unsigned long long)gp->temp_bytes);
}
