/* SPDX-License-Identifier: MIT */
/* graph_chain.c: see graph_chain.h. Every tensor has rank 3. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_chain.h"
#include "ref_broadcast.h"
#include "ref_gather_ext.h"
#include "ref_slice.h"
#include "support.h"

#define R 3

/* A tensor in the graph: who writes it, its layout, its reference bytes. */
typedef struct val {
    DML_TENSOR_DATA_TYPE type;
    UINT sizes[R], strides[R];
    int node; /* -1: graph input `input` */
    UINT input;
    void *data;
} val;

static void note(chain *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(chain *c, const char *fmt, ...)
{
    size_t n = strlen(c->log);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->log + n, sizeof c->log - n, fmt, ap);
    va_end(ap);
}

static void packed(const UINT *sizes, UINT *strides)
{
    ref_packed_strides(R, sizes, strides);
}

/* Packed, or (a quarter of the time) padded along one dimension. */
static void layout(ref_rng *r, const UINT *sizes, UINT *strides)
{
    packed(sizes, strides);
    if (!ref_rng_chance(r, 25))
        return;
    UINT d = (UINT)ref_rng_below(r, R), step = sizes[R - 1] + 1;
    strides[R - 1] = 1;
    for (int k = R - 2; k >= 0; --k) {
        strides[k] = step;
        step *= sizes[k] + ((UINT)k == d ? 1 : 0);
    }
}

static uint64_t bytes_of(DML_TENSOR_DATA_TYPE t, const UINT *sizes, const UINT *strides)
{
    return ref_buffer_bytes(t, R, sizes, strides);
}

static val new_input(chain *c, ref_rng *r, DML_TENSOR_DATA_TYPE t, const UINT *sizes)
{
    val v = {t, {0}, {0}, -1, c->n_inputs, NULL};
    memcpy(v.sizes, sizes, sizeof v.sizes);
    packed(sizes, v.strides);
    uint64_t n = bytes_of(t, v.sizes, v.strides);
    v.data = malloc(n);
    ref_rng_bytes(r, v.data, n);
    c->inputs[c->n_inputs] = v.data;
    c->input_bytes[c->n_inputs++] = n;
    return v;
}

/* Random INT32 indices for an axis of n: mostly in range, some negative, some past the end. */
static val index_input(chain *c, ref_rng *r, const UINT *sizes, UINT n)
{
    val v = new_input(c, r, DML_TENSOR_DATA_TYPE_INT32, sizes);
    int32_t *p = v.data;
    for (uint64_t i = 0; i < ref_element_count(R, sizes); ++i)
        p[i] = (int32_t)ref_rng_range(r, -(int64_t)n - 1, (int64_t)n);
    return v;
}

static void connect(chain *c, const val *src, UINT node, UINT slot)
{
    if (src->node < 0)
        ug_input(&c->g, src->input, node, slot);
    else
        ug_edge(&c->g, (UINT)src->node, node, slot);
}

/* The output value of node v: reference bytes allocated and sentinel-filled. */
static val output_of(chain *c, UINT v, DML_TENSOR_DATA_TYPE t, const UINT *sizes,
                     const UINT *strides)
{
    val o = {t, {0}, {0}, (int)v, 0, NULL};
    memcpy(o.sizes, sizes, sizeof o.sizes);
    memcpy(o.strides, strides, sizeof o.strides);
    uint64_t n = bytes_of(t, sizes, strides);
    o.data = malloc(n);
    memset(o.data, CHAIN_SENTINEL, n);
    c->values[v] = o.data;
    return o;
}

static ref_tensor view(const val *v, const UINT *sizes, const UINT *strides)
{
    return ref_tensor_view(v->type, R, sizes, strides, v->data);
}

static val slice(chain *c, ref_rng *r, const val *src)
{
    UINT off[R], size[R], step[R], os[R];
    for (int d = 0; d < R; ++d) {
        off[d] = (UINT)ref_rng_below(r, src->sizes[d]);
        step[d] = 1 + (UINT)ref_rng_below(r, 3);
        size[d] = 1 + (UINT)ref_rng_below(r, 1 + (src->sizes[d] - 1 - off[d]) / step[d]);
    }
    layout(r, size, os);
    unit_tensor ti, to;
    DML_SLICE_OPERATOR_DESC d = {unit_tensor_set(&ti, src->type, R, src->sizes, src->strides),
                                 unit_tensor_set(&to, src->type, R, size, os),
                                 R,
                                 off,
                                 size,
                                 step};
    UINT v = ug_node(&c->g, DML_OPERATOR_SLICE, &d);
    connect(c, src, v, 0);
    val o = output_of(c, v, src->type, size, os);
    ref_tensor in = view(src, src->sizes, src->strides), out = view(&o, size, os);
    cr_assert(ref_slice(&in, &out, off, step));
    note(c, " %u:SLICE", v);
    return o;
}

static val slice1(chain *c, ref_rng *r, const val *src)
{
    UINT off[R], win[R], size[R], os[R];
    INT step[R];
    for (int d = 0; d < R; ++d) {
        off[d] = (UINT)ref_rng_below(r, src->sizes[d]);
        win[d] = 1 + (UINT)ref_rng_below(r, src->sizes[d] - off[d]);
        step[d] = (INT)(1 + ref_rng_below(r, 2)) * (ref_rng_chance(r, 50) ? -1 : 1);
        size[d] = 1 + (UINT)ref_rng_below(r, 1 + (win[d] - 1) / (UINT)abs(step[d]));
    }
    layout(r, size, os);
    unit_tensor ti, to;
    DML_SLICE1_OPERATOR_DESC d = {unit_tensor_set(&ti, src->type, R, src->sizes, src->strides),
                                  unit_tensor_set(&to, src->type, R, size, os),
                                  R,
                                  off,
                                  win,
                                  step};
    UINT v = ug_node(&c->g, DML_OPERATOR_SLICE1, &d);
    connect(c, src, v, 0);
    val o = output_of(c, v, src->type, size, os);
    ref_tensor in = view(src, src->sizes, src->strides), out = view(&o, size, os);
    cr_assert(ref_slice1(&in, &out, off, win, step));
    note(c, " %u:SLICE1", v);
    return o;
}

/* An identity reading src transposed (permuted sizes and strides) or broadcast (0 strides). */
static val identity(chain *c, ref_rng *r, const val *src, bool broadcast)
{
    UINT is[R], isz[R], os[R];
    int perm[R] = {0, 1, 2};
    for (int d = R - 1; d > 0 && !broadcast; --d) {
        int j = (int)ref_rng_below(r, (uint64_t)d + 1), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    for (int d = 0; d < R; ++d) {
        isz[d] = src->sizes[perm[d]];
        is[d] = src->strides[perm[d]];
        if (broadcast && isz[d] == 1) {
            isz[d] = 2 + (UINT)ref_rng_below(r, 2);
            is[d] = 0;
        }
    }
    layout(r, isz, os);
    unit_tensor ti, to;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {unit_tensor_set(&ti, src->type, R, isz, is),
                                                 unit_tensor_set(&to, src->type, R, isz, os), NULL};
    UINT v = ug_node(&c->g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d);
    connect(c, src, v, 0);
    val o = output_of(c, v, src->type, isz, os);
    ref_tensor in = view(src, isz, is), out = view(&o, isz, os);
    cr_assert(ref_identity(&in, &out, NULL));
    note(c, " %u:IDENTITY(%s)", v, broadcast ? "broadcast" : "transpose");
    return o;
}

/* Indices {1,1,k} for an axis of n: an input, a slice of one, or gathered from a table. */
static val gather_indices(chain *c, ref_rng *r, UINT k, UINT n)
{
    UINT sizes[R] = {1, 1, k};
    uint64_t how = ref_rng_below(r, 10);
    if (how < 5)
        return index_input(c, r, sizes, n);
    UINT big[R] = {1, 1, 2 * k + 1};
    val raw = index_input(c, r, big, n);
    if (how < 8) {
        UINT off[R] = {0, 0, (UINT)ref_rng_below(r, 2)}, step[R] = {1, 1, 2}, os[R];
        packed(sizes, os);
        unit_tensor ti, to;
        DML_SLICE_OPERATOR_DESC d = {unit_tensor_set(&ti, raw.type, R, raw.sizes, raw.strides),
                                     unit_tensor_set(&to, raw.type, R, sizes, os),
                                     R,
                                     off,
                                     sizes,
                                     step};
        UINT v = ug_node(&c->g, DML_OPERATOR_SLICE, &d);
        connect(c, &raw, v, 0);
        val o = output_of(c, v, raw.type, sizes, os);
        ref_tensor in = view(&raw, raw.sizes, raw.strides), out = view(&o, sizes, os);
        cr_assert(ref_slice(&in, &out, off, step));
        note(c, " %u:SLICE(indices)", v);
        return o;
    }
    val pos = index_input(c, r, sizes, 2 * k + 1);
    UINT os[R];
    packed(sizes, os);
    unit_tensor ti, tx, to;
    DML_GATHER_OPERATOR_DESC d = {unit_tensor_set(&ti, raw.type, R, raw.sizes, raw.strides),
                                  unit_tensor_set(&tx, pos.type, R, pos.sizes, pos.strides),
                                  unit_tensor_set(&to, raw.type, R, sizes, os), 2, 1};
    UINT v = ug_node(&c->g, DML_OPERATOR_GATHER, &d);
    connect(c, &raw, v, 0);
    connect(c, &pos, v, 1);
    val o = output_of(c, v, raw.type, sizes, os);
    ref_tensor in = view(&raw, raw.sizes, raw.strides), ix = view(&pos, pos.sizes, pos.strides),
               out = view(&o, sizes, os);
    cr_assert(ref_gather(&in, &ix, &out, 2, 1));
    note(c, " %u:GATHER(indices)", v);
    return o;
}

static val gather(chain *c, ref_rng *r, const val *src)
{
    UINT axis = (UINT)ref_rng_below(r, R), k = 1 + (UINT)ref_rng_below(r, 4), size[R], os[R];
    val idx = gather_indices(c, r, k, src->sizes[axis]);
    memcpy(size, src->sizes, sizeof size);
    size[axis] = k;
    layout(r, size, os);
    unit_tensor ti, tx, to;
    DML_GATHER_OPERATOR_DESC d = {unit_tensor_set(&ti, src->type, R, src->sizes, src->strides),
                                  unit_tensor_set(&tx, idx.type, R, idx.sizes, idx.strides),
                                  unit_tensor_set(&to, src->type, R, size, os), axis, 1};
    UINT v = ug_node(&c->g, DML_OPERATOR_GATHER, &d);
    connect(c, src, v, 0);
    connect(c, &idx, v, 1);
    val o = output_of(c, v, src->type, size, os);
    ref_tensor in = view(src, src->sizes, src->strides), ix = view(&idx, idx.sizes, idx.strides),
               out = view(&o, size, os);
    cr_assert(ref_gather(&in, &ix, &out, axis, 1));
    note(c, " %u:GATHER(axis %u)", v, axis);
    return o;
}

static val gather_elements(chain *c, ref_rng *r, const val *src)
{
    UINT axis = (UINT)ref_rng_below(r, R), size[R], os[R];
    memcpy(size, src->sizes, sizeof size);
    size[axis] = 1 + (UINT)ref_rng_below(r, 4);
    val idx = index_input(c, r, size, src->sizes[axis]);
    layout(r, size, os);
    unit_tensor ti, tx, to;
    DML_GATHER_ELEMENTS_OPERATOR_DESC d = {
        unit_tensor_set(&ti, src->type, R, src->sizes, src->strides),
        unit_tensor_set(&tx, idx.type, R, idx.sizes, idx.strides),
        unit_tensor_set(&to, src->type, R, size, os), axis};
    UINT v = ug_node(&c->g, DML_OPERATOR_GATHER_ELEMENTS, &d);
    connect(c, src, v, 0);
    connect(c, &idx, v, 1);
    val o = output_of(c, v, src->type, size, os);
    ref_tensor in = view(src, src->sizes, src->strides), ix = view(&idx, idx.sizes, idx.strides),
               out = view(&o, size, os);
    int64_t bad;
    cr_assert(ref_gather_elements(&in, &ix, &out, axis, REF_CLAMP, &bad));
    note(c, " %u:GATHER_ELEMENTS(axis %u)", v, axis);
    return o;
}

static void graph_output(chain *c, const val *v)
{
    UINT o = c->n_outputs++;
    ug_output(&c->g, (UINT)v->node, o);
    c->output_bytes[o] = bytes_of(v->type, v->sizes, v->strides);
    c->expect[o] = v->data;
    note(c, " ->out%u", o);
}

static val step(chain *c, ref_rng *r, const val *cur)
{
    bool has_one = cur->sizes[0] == 1 || cur->sizes[1] == 1 || cur->sizes[2] == 1;
    switch (ref_rng_below(r, 7)) {
    case 0: return slice(c, r, cur);
    case 1: return slice1(c, r, cur);
    case 2: return identity(c, r, cur, false);
    case 3: return identity(c, r, cur, has_one);
    case 4:
    case 5: return gather(c, r, cur);
    default: return gather_elements(c, r, cur);
    }
}

void chain_make(chain *c, ref_rng *r, int nodes)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT8,
        DML_TENSOR_DATA_TYPE_INT64};
    memset(c, 0, sizeof *c);
    ug_init(&c->g);
    UINT sizes[R];
    for (int d = 0; d < R; ++d)
        sizes[d] = 1 + (UINT)ref_rng_below(r, 5);
    val cur = new_input(c, r, types[ref_rng_below(r, 4)], sizes);
    if (ref_rng_chance(r, 20)) { /* the data as a constant node instead of graph input 0 */
        c->n_inputs--;
        cur.node = (int)ug_constant(&c->g, cur.data, bytes_of(cur.type, cur.sizes, cur.strides));
        c->values[cur.node] = cur.data;
        note(c, " constant");
    }
    note(c, "%s {%u,%u,%u}:", ref_type_name(cur.type), sizes[0], sizes[1], sizes[2]);
    for (int i = 0; i < nodes; ++i) {
        val next = step(c, r, &cur);
        if (i + 1 < nodes && ref_rng_chance(r, 15)) {
            graph_output(c, &next); /* an intermediate that is also a graph output */
        } else if (i + 1 < nodes && ref_rng_chance(r, 10)) {
            val side = identity(c, r, &next, false); /* a fan-out */
            graph_output(c, &side);
        }
        cur = next;
    }
    graph_output(c, &cur);
    ug_desc(&c->g, c->n_inputs, c->n_outputs);
}

void chain_free(chain *c)
{
    for (UINT i = 0; i < c->n_inputs; ++i)
        free(c->inputs[i]);
    for (UINT v = 0; v < c->g.n_nodes; ++v)
        free(c->values[v]);
    ug_free(&c->g);
}
