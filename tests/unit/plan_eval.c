/* SPDX-License-Identifier: MIT */
/* plan_eval.c: see plan_eval.h. */
#include <string.h>

#include "plan_eval.h"

static int64_t read_index(dmli_index_type t, const unsigned char *p)
{
    switch (t) {
    case DMLI_INDEX_INT8: return *(const int8_t *)p;
    case DMLI_INDEX_UINT8: return *p;
    case DMLI_INDEX_INT16: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case DMLI_INDEX_UINT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case DMLI_INDEX_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case DMLI_INDEX_UINT32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case DMLI_INDEX_INT64: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v > INT64_MAX ? INT64_MAX : (int64_t)v;
    }
    }
}

static size_t index_bytes(dmli_index_type t)
{
    switch (t) {
    case DMLI_INDEX_INT8:
    case DMLI_INDEX_UINT8: return 1;
    case DMLI_INDEX_INT16:
    case DMLI_INDEX_UINT16: return 2;
    case DMLI_INDEX_INT32:
    case DMLI_INDEX_UINT32: return 4;
    default: return 8;
    }
}

static bool is_signed(dmli_index_type t)
{
    return t == DMLI_INDEX_INT8 || t == DMLI_INDEX_INT16 || t == DMLI_INDEX_INT32 ||
           t == DMLI_INDEX_INT64;
}

/* The input element offset for the index components at idx_at; false: write zeros. */
static bool resolve(const dmli_plan *p, const unsigned char *idx, int64_t idx_at, int64_t *in_at)
{
    size_t ib = index_bytes(p->idx_type);
    bool zero = false;
    for (int k = 0; k < p->components; ++k) {
        int64_t v = read_index(p->idx_type, idx + (idx_at + k * p->comp_idx_stride) * (int64_t)ib);
        int64_t n = p->axis_size[k];
        if (p->wrap_negative && is_signed(p->idx_type) && v < 0)
            v += n;
        if (v < 0 || v >= n) {
            if (p->policy != DMLI_OOR_CLAMP)
                zero = true;
            v = v < 0 ? 0 : n - 1;
        }
        *in_at += v * p->axis_stride[k];
    }
    return !zero;
}

void plan_eval(const dmli_plan *p, void *out, const void *in, const void *idx)
{
    int64_t c[DMLI_MAX_RANK] = {0};
    size_t eb = p->elem_bytes;
    for (int d = 0; d < p->rank; ++d)
        if (p->size[d] == 0)
            return;
    for (;;) {
        int64_t o = p->out_offset, i = p->in_offset, x = p->idx_offset;
        for (int d = 0; d < p->rank; ++d) {
            o += c[d] * p->out_stride[d];
            i += c[d] * p->in_stride[d];
            x += c[d] * p->idx_stride[d];
        }
        unsigned char *dst = (unsigned char *)out + o * (int64_t)eb;
        bool copy = p->kind != DMLI_PLAN_INDEXED || resolve(p, idx, x, &i);
        const unsigned char *src = (const unsigned char *)in + i * (int64_t)eb;
        if (!copy)
            memset(dst, 0, eb);
        else
            memcpy(dst, src, eb);
        int d = p->rank - 1;
        for (; d >= 0 && ++c[d] == p->size[d]; --d)
            c[d] = 0;
        if (d < 0)
            return;
    }
}

/* The map's operation on one element of each input: IDENTITY with or without ScaleBias on
 * FLOAT32 or FLOAT64, ADD, SUBTRACT and MULTIPLY on FLOAT32 (the graph tests' maps; the
 * element-wise operators' own oracle is tests/ref/ref_elementwise.c). */
static void map_apply(const dmli_map *m, unsigned char *dst, const unsigned char *const *src)
{
    if (m->out.type == DML_TENSOR_DATA_TYPE_FLOAT64) {
        double x;
        memcpy(&x, src[0], 8);
        if (m->scale_bias)
            x = x * m->param[DMLI_MAP_PARAM_SCALE] + m->param[DMLI_MAP_PARAM_BIAS];
        memcpy(dst, &x, 8);
        return;
    }
    float x, y = 0;
    memcpy(&x, src[0], 4);
    if (m->n_inputs > 1)
        memcpy(&y, src[1], 4);
    if (m->scale_bias)
        x = x * (float)m->param[DMLI_MAP_PARAM_SCALE] + (float)m->param[DMLI_MAP_PARAM_BIAS];
    switch (m->op) {
    case DMLI_MAP_ADD: x = x + y; break;
    case DMLI_MAP_SUBTRACT: x = x - y; break;
    case DMLI_MAP_MULTIPLY: x = x * y; break;
    default: break;
    }
    memcpy(dst, &x, 4);
}

void map_eval(const dmli_map *m, void *out, void *const *in)
{
    int64_t c[DMLI_MAX_RANK] = {0};
    for (int d = 0; d < m->rank; ++d)
        if (m->size[d] == 0)
            return;
    size_t ob = dmli_type_size(m->out.type);
    for (;;) {
        int64_t o = m->out.offset;
        const unsigned char *src[DMLI_MAP_MAX_INPUTS] = {0};
        for (int d = 0; d < m->rank; ++d)
            o += c[d] * m->out.stride[d];
        for (uint32_t k = 0; k < m->n_inputs; ++k) {
            int64_t i = m->in[k].offset;
            for (int d = 0; d < m->rank; ++d)
                i += c[d] * m->in[k].stride[d];
            src[k] = (const unsigned char *)in[k] + i * (int64_t)dmli_type_size(m->in[k].type);
        }
        map_apply(m, (unsigned char *)out + o * (int64_t)ob, src);
        int d = m->rank - 1;
        for (; d >= 0 && ++c[d] == m->size[d]; --d)
            c[d] = 0;
        if (d < 0)
            return;
    }
}
