/* SPDX-License-Identifier: MIT */
/*
 * Plan composition: consumer after producer as one plan.
 *
 * The producer writes element o (a coordinate of its output dimensions) at
 * address out_offset + sum o_d * out_stride_d of the intermediate tensor; the
 * consumer reads that tensor at base + sum c_e * stride_e (its dimensions,
 * and for a gather's data also one "dimension" per index component, index
 * values in [0, axis size)). Fusing replaces each read address by the
 * producer coordinate that wrote it and then by the producer's read of that
 * coordinate. This is exact under three conditions, checked here:
 *   - the producer's output layout is injective and nested: its dimensions,
 *     ordered by output stride, each step past the whole extent of the next
 *     (then an address has at most one coordinate, found by division);
 *   - the consumer's first read and its first step along each dimension land
 *     on written elements (padding the producer skips is never read fused);
 *   - over the consumer's whole box, base coordinate + sum c_e * step_e stays
 *     inside every producer dimension: no carries, so the coordinate is
 *     affine in c and each step is one fixed producer step.
 * Everything else (a reinterpretation to another element width, gathers of
 * gathered data or indices, ScaleBias next to a gather or twice, the ERROR
 * policy whose report names the node's own index tensor) is refused with a
 * reason, and the graph keeps the intermediate tensor.
 */
#include <string.h>

#include "fuse.h"

#define MAX_READS (DMLI_MAX_RANK + DMLI_MAX_COMPONENTS)

uint32_t dmli_index_type_size(dmli_index_type type)
{
    switch (type) {
    case DMLI_INDEX_INT8:
    case DMLI_INDEX_UINT8: return 1;
    case DMLI_INDEX_INT16:
    case DMLI_INDEX_UINT16: return 2;
    case DMLI_INDEX_INT32:
    case DMLI_INDEX_UINT32: return 4;
    case DMLI_INDEX_INT64:
    case DMLI_INDEX_UINT64: return 8;
    default: return 0;
    }
}

void dmli_plan_unwiden(dmli_plan *p, uint32_t elem_bytes)
{
    if (p->rank == 0 || elem_bytes == 0 || p->elem_bytes <= elem_bytes)
        return;
    int64_t f = p->elem_bytes / elem_bytes;
    int in = p->rank - 1;
    p->size[in] *= f;
    for (int d = 0; d < in; ++d) {
        p->out_stride[d] *= f;
        p->in_stride[d] *= f;
    }
    p->out_offset *= f;
    p->in_offset *= f;
    for (int k = 0; p->kind == DMLI_PLAN_INDEXED && k < p->components; ++k)
        p->axis_stride[k] *= f;
    p->elem_bytes = elem_bytes;
}

/* The producer's output dimensions of size > 1, by decreasing stride. */
typedef struct layout {
    int n;
    int dim[DMLI_MAX_RANK];
    int64_t size[DMLI_MAX_RANK], stride[DMLI_MAX_RANK];
} layout;

static bool make_layout(const dmli_plan *p, layout *l, const char **why)
{
    l->n = 0;
    for (int d = 0; d < p->rank; ++d) {
        if (p->size[d] == 1)
            continue;
        if (p->out_stride[d] <= 0) {
            *why = "the producer's output layout is not injective (an output stride <= 0)";
            return false;
        }
        int j = l->n++;
        for (; j > 0 && l->stride[j - 1] < p->out_stride[d]; --j) {
            l->dim[j] = l->dim[j - 1];
            l->size[j] = l->size[j - 1];
            l->stride[j] = l->stride[j - 1];
        }
        l->dim[j] = d;
        l->size[j] = p->size[d];
        l->stride[j] = p->out_stride[d];
    }
    for (int i = 1; i < l->n; ++i) {
        int64_t extent;
        if (__builtin_mul_overflow(l->stride[i], l->size[i], &extent) ||
            l->stride[i - 1] < extent) {
            *why = "the producer's output dimensions interleave (its layout is not nested)";
            return false;
        }
    }
    return true;
}

/* The coordinate (layout order) written at rel elements past out_offset, if any. */
static bool decompose(const layout *l, int64_t rel, int64_t *coord)
{
    if (rel < 0)
        return false;
    for (int i = 0; i < l->n; ++i) {
        int64_t q = rel / l->stride[i];
        if (q >= l->size[i])
            return false;
        coord[i] = q;
        rel -= q * l->stride[i];
    }
    return rel == 0;
}

/* The consumer's reads of the port's tensor: base + sum c_e * stride_e. */
typedef struct reads {
    int n;
    int64_t base;
    int64_t size[MAX_READS], stride[MAX_READS];
} reads;

static void push_read(reads *r, int64_t size, int64_t stride)
{
    r->size[r->n] = size;
    r->stride[r->n++] = stride;
}

static void consumer_reads(const dmli_plan *c, dmli_fuse_port port, reads *r)
{
    bool data = port == DMLI_FUSE_DATA;
    r->n = 0;
    r->base = data ? c->in_offset : c->idx_offset;
    for (int d = 0; d < c->rank; ++d)
        push_read(r, c->size[d], data ? c->in_stride[d] : c->idx_stride[d]);
    if (c->kind != DMLI_PLAN_INDEXED)
        return;
    if (data)
        for (int k = 0; k < c->components; ++k)
            push_read(r, c->axis_size[k], c->axis_stride[k]);
    else if (c->components > 1)
        push_read(r, c->components, c->comp_idx_stride);
}

/* Dimension d of p as two: (size / m) outer, m inner; the same map. */
static void split_dim(dmli_plan *p, int d, int64_t m)
{
    for (int e = p->rank; e > d + 1; --e) {
        p->size[e] = p->size[e - 1];
        p->out_stride[e] = p->out_stride[e - 1];
        p->in_stride[e] = p->in_stride[e - 1];
        p->idx_stride[e] = p->idx_stride[e - 1];
        p->idx_pos[e] = p->idx_pos[e - 1];
    }
    p->rank++;
    p->size[d + 1] = m;
    p->out_stride[d + 1] = p->out_stride[d];
    p->in_stride[d + 1] = p->in_stride[d];
    p->idx_stride[d + 1] = p->idx_stride[d];
    p->idx_pos[d + 1] = p->idx_pos[d];
    p->size[d] /= m;
    p->out_stride[d] *= m;
    p->in_stride[d] *= m;
    p->idx_stride[d] *= m;
    p->idx_pos[d] *= m;
}

/*
 * Normalisation merges dimensions the consumer reads contiguously, e.g. two
 * rows of a packed 4x3 tensor as one run of 6; the producer may have written
 * those rows with different input strides (a transpose). Splitting the run
 * back where it crosses a producer dimension's stride (a multiple of the
 * read stride that divides the run) restores one stride per piece; the
 * composed plan is normalised again afterwards.
 */
static void split_at_producer(dmli_plan *c, dmli_fuse_port port, const layout *l)
{
    for (int d = 0; d < c->rank && c->rank < DMLI_MAX_RANK; ++d) {
        int64_t s = port == DMLI_FUSE_DATA ? c->in_stride[d] : c->idx_stride[d];
        s = s < 0 ? -s : s;
        for (int i = 0; s && i < l->n && c->rank < DMLI_MAX_RANK; ++i) {
            int64_t m = l->stride[i] / s;
            if (l->stride[i] % s == 0 && m > 1 && m < c->size[d] && c->size[d] % m == 0) {
                split_dim(c, d--, m); /* look at the outer piece again, with its stride */
                break;
            }
        }
    }
}

/* base and per-read steps in producer coordinates, or false (see the file comment). */
typedef struct mapping {
    int64_t base[DMLI_MAX_RANK];
    int64_t step[MAX_READS][DMLI_MAX_RANK];
} mapping;

static bool map_reads(const layout *l, const reads *r, int64_t out_offset, mapping *m,
                      const char **why)
{
    static const char unwritten[] = "the consumer reads elements the producer does not write";
    if (!decompose(l, r->base - out_offset, m->base)) {
        *why = unwritten;
        return false;
    }
    for (int e = 0; e < r->n; ++e) {
        memset(m->step[e], 0, sizeof m->step[e]);
        if (r->size[e] < 2)
            continue;
        int64_t at[DMLI_MAX_RANK];
        if (!decompose(l, r->base + r->stride[e] - out_offset, at)) {
            *why = unwritten;
            return false;
        }
        for (int i = 0; i < l->n; ++i)
            m->step[e][i] = at[i] - m->base[i];
    }
    for (int i = 0; i < l->n; ++i) {
        int64_t lo = m->base[i], hi = m->base[i];
        for (int e = 0; e < r->n; ++e) {
            int64_t ext;
            if (r->size[e] < 2)
                continue;
            if (__builtin_mul_overflow(r->size[e] - 1, m->step[e][i], &ext) ||
                __builtin_add_overflow(ext < 0 ? lo : hi, ext, ext < 0 ? &lo : &hi)) {
                *why = "the consumer's extent overflows";
                return false;
            }
        }
        if (lo < 0 || hi >= l->size[i]) {
            *why = "a consumer dimension carries across the producer's output dimensions "
                   "(no single stride into the producer's input)";
            return false;
        }
    }
    return true;
}

/* sum over layout dims of coord[i] * per_dim[dim[i]]: a producer quantity at a coordinate. */
static int64_t combine(const layout *l, const int64_t *coord, const int64_t *per_dim)
{
    int64_t v = 0;
    for (int i = 0; i < l->n; ++i)
        v += coord[i] * per_dim[l->dim[i]];
    return v;
}

static const char *refusal(const dmli_plan *p, const dmli_plan *c, dmli_fuse_port port)
{
    bool p_idx = p->kind == DMLI_PLAN_INDEXED, c_idx = c->kind == DMLI_PLAN_INDEXED;
    if ((p_idx && (p->policy == DMLI_OOR_ERROR || p->check_only)) ||
        (c_idx && (c->policy == DMLI_OOR_ERROR || c->check_only)))
        return "the ERROR policy reports positions in the node's own IndicesTensor";
    if (port == DMLI_FUSE_INDEX && !c_idx)
        return "the consumer has no index tensor";
    uint32_t want = port == DMLI_FUSE_DATA ? c->elem_bytes : dmli_index_type_size(c->idx_type);
    if (p->elem_bytes != want)
        return "the consumer reinterprets the tensor with another element width";
    if (p_idx && c_idx)
        return port == DMLI_FUSE_DATA ? "a gather of gathered data needs two index lookups"
                                      : "a gather of gathered indices needs two index lookups";
    for (int d = 0; d < p->rank; ++d)
        if (p->size[d] == 0)
            return "the tensor is empty";
    for (int d = 0; d < c->rank; ++d)
        if (c->size[d] == 0)
            return "the tensor is empty";
    return NULL;
}

/* Producer a view: the consumer keeps its shape, its reads of port move to the producer's input. */
static void compose_view(const dmli_plan *p, const dmli_plan *c, dmli_fuse_port port,
                         const layout *l, const mapping *m, dmli_plan *out)
{
    *out = *c;
    int64_t base = p->in_offset + combine(l, m->base, p->in_stride);
    if (port == DMLI_FUSE_INDEX) {
        for (int d = 0; d < c->rank; ++d)
            out->idx_stride[d] = combine(l, m->step[d], p->in_stride);
        if (c->components > 1)
            out->comp_idx_stride = combine(l, m->step[c->rank], p->in_stride);
        out->idx_offset = base;
        return;
    }
    for (int d = 0; d < c->rank; ++d)
        out->in_stride[d] = combine(l, m->step[d], p->in_stride);
    for (int k = 0; c->kind == DMLI_PLAN_INDEXED && k < c->components; ++k)
        out->axis_stride[k] = combine(l, m->step[c->rank + k], p->in_stride);
    out->in_offset = base;
}

/* Producer a gather, consumer a view of its output: the gather, walked in the view's shape. */
static void compose_indexed(const dmli_plan *p, const dmli_plan *c, const layout *l,
                            const mapping *m, dmli_plan *out)
{
    *out = *p;
    out->rank = c->rank;
    for (int d = 0; d < c->rank; ++d) {
        out->size[d] = c->size[d];
        out->out_stride[d] = c->out_stride[d];
        out->in_stride[d] = combine(l, m->step[d], p->in_stride);
        out->idx_stride[d] = combine(l, m->step[d], p->idx_stride);
        out->idx_pos[d] = combine(l, m->step[d], p->idx_pos);
    }
    out->out_offset = c->out_offset;
    out->in_offset = p->in_offset + combine(l, m->base, p->in_stride);
    out->idx_offset = p->idx_offset + combine(l, m->base, p->idx_stride);
}

bool dmli_fuse_compose(const dmli_plan *producer, const dmli_plan *consumer, dmli_fuse_port port,
                       dmli_plan *out, const char **why)
{
    const char *no = refusal(producer, consumer, port);
    if (no) {
        *why = no;
        return false;
    }
    layout l;
    reads r;
    mapping m;
    if (!make_layout(producer, &l, why))
        return false;
    dmli_plan split = *consumer;
    split_at_producer(&split, port, &l);
    consumer_reads(&split, port, &r);
    if (!map_reads(&l, &r, producer->out_offset, &m, why))
        return false;
    if (producer->kind == DMLI_PLAN_VIEW)
        compose_view(producer, &split, port, &l, &m, out);
    else
        compose_indexed(producer, &split, &l, &m, out);
    return true;
}
