/* SPDX-License-Identifier: MIT */
/*
 * Element-wise maps (internal.h): building one, and its host-side normalisation. Dimensions
 * are output dimensions; a dimension of size 1 moves nothing and is dropped, and two
 * neighbouring dimensions merge when every tensor steps over the outer one as over the inner
 * one's whole extent. The order stays the output's (a map reads every input once per
 * output element, so the output's order is the one that writes contiguous runs), and the
 * element is never widened.
 */
#include <string.h>

#include "internal.h"

void dmli_map_init(dmli_map *map, dmli_map_op op, DML_TENSOR_DATA_TYPE out_type, uint32_t n_inputs)
{
    memset(map, 0, sizeof *map);
    map->op = op;
    map->out.type = out_type;
    map->n_inputs = n_inputs;
}

void dmli_map_push(dmli_map *map, int64_t size, int64_t out_stride, const int64_t *in_strides)
{
    int d = map->rank++;
    map->size[d] = size;
    map->out.stride[d] = out_stride;
    for (uint32_t k = 0; k < map->n_inputs; ++k)
        map->in[k].stride[d] = in_strides[k];
}

/* Dimensions outer and inner (outer before inner) walk every tensor as one. */
static bool mergeable(const dmli_map *m, int outer, int inner)
{
    if (m->out.stride[outer] != m->out.stride[inner] * m->size[inner])
        return false;
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        if (m->in[k].stride[outer] != m->in[k].stride[inner] * m->size[inner])
            return false;
    return true;
}

static void move_dim(dmli_map *m, int to, int from)
{
    m->size[to] = m->size[from];
    m->out.stride[to] = m->out.stride[from];
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        m->in[k].stride[to] = m->in[k].stride[from];
}

void dmli_map_normalize(dmli_map *m)
{
    for (int d = 0; d < m->rank; ++d)
        if (m->size[d] == 0) {
            m->empty = true;
            return;
        }
    int r = 0;
    for (int d = 0; d < m->rank; ++d) {
        if (m->size[d] == 1)
            continue;
        if (r > 0 && mergeable(m, r - 1, d)) {
            int64_t outer = m->size[r - 1];
            move_dim(m, r - 1, d);
            m->size[r - 1] *= outer;
            continue;
        }
        move_dim(m, r++, d);
    }
    m->rank = r;
}

void dmli_param_real(double *real, int64_t *integer, double value)
{
    *real = value;
    if (value != value)
        *integer = 0;
    else if (value >= 9223372036854775807.0)
        *integer = INT64_MAX;
    else if (value <= -9223372036854775808.0)
        *integer = INT64_MIN;
    else
        *integer = (int64_t)value;
}

void dmli_map_param_real(dmli_map *m, int i, double value)
{
    dmli_param_real(&m->param[i], &m->iparam[i], value);
}

void dmli_map_param_int(dmli_map *m, int i, int64_t value)
{
    m->iparam[i] = value;
    m->param[i] = (double)value;
}

dmli_map_stage dmli_map_get_stage(const dmli_map *m, uint32_t s)
{
    if (s > 0)
        return m->stage[s];
    dmli_map_stage st;
    memset(&st, 0, sizeof st);
    st.op = m->op;
    st.act = m->act;
    st.scale_bias = m->scale_bias;
    memcpy(st.param, m->param, sizeof st.param);
    memcpy(st.iparam, m->iparam, sizeof st.iparam);
    if (m->n_stages > 1) {
        st.n_args = m->stage[0].n_args;
        memcpy(st.arg, m->stage[0].arg, sizeof st.arg);
    } else {
        st.n_args = (uint8_t)m->n_inputs;
        for (uint32_t j = 0; j < m->n_inputs && j < DMLI_MAP_MAX_ARGS; ++j)
            st.arg[j] = (uint8_t)j;
    }
    return st;
}

void dmli_map_set_stage(dmli_map *m, uint32_t s, const dmli_map_stage *st)
{
    if (s > 0) {
        m->stage[s] = *st;
        return;
    }
    m->op = st->op;
    m->act = st->act;
    m->scale_bias = st->scale_bias;
    memcpy(m->param, st->param, sizeof m->param);
    memcpy(m->iparam, st->iparam, sizeof m->iparam);
    m->stage[0] = *st;
}
