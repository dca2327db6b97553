/* SPDX-License-Identifier: MIT */
/*
 * The launch of the gradient family (cl/grad.cl): its variant (the kernel, the element width or
 * the floating type, the pooling's operation), its table (cl/grad_abi.h) and its grid, one
 * work-item per output element in groups of 64. Pure host code, as launch.c.
 */
#include "grad.h"
#include "launch.h"

_Static_assert(DMLI_GRAD_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the gradient table fits");
_Static_assert(DMLI_PG_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the pooling gradients' table fits");
_Static_assert(DMLI_LG_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the LRN gradient's table fits");
_Static_assert(DMLI_AD_TABLE <= DMLI_COMPUTE_TABLE_MAX, "Adam's table fits");

#define GRAD_GROUP 64

static const char *unit_type(uint32_t bytes)
{
    switch (bytes) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

static void slice_table(const dmli_grad *g, dmli_compute_launch *l)
{
    l->kernel = "slice_grad";
    dmli_opt_str(&l->defs, "UNIT_T", unit_type(g->elem_bytes));
    l->table[DMLI_GRAD_COUNT] = g->count;
    l->table[DMLI_GRAD_RANK] = g->rank;
    for (uint32_t d = 0; d < g->rank; ++d) {
        const dmli_grad_dim *x = &g->dim[d];
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_OUT_SIZE)] = x->out_size;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_OUT_STRIDE)] = x->out_stride;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_IN_SIZE)] = x->in_size;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_IN_STRIDE)] = x->in_stride;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_ANCHOR)] = x->anchor;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_STEP)] = x->step;
        l->table[DMLI_GRAD_DIM(d, DMLI_GRAD_SIGN)] = x->sign;
    }
    l->table_count = DMLI_GRAD_TABLE;
}

static void pool_table(const dmli_grad *g, dmli_compute_launch *l)
{
    const dmli_grad_pool *p = &g->pool;
    l->kernel = "pool_grad";
    dmli_opt_int(&l->defs, "POOL_MAX", g->kind == DMLI_GRAD_MAX_POOL);
    dmli_opt_int(&l->defs, "IN_HALF", p->half);
    l->table[DMLI_PG_COUNT] = g->count;
    l->table[DMLI_PG_N] = p->n;
    l->table[DMLI_PG_C] = p->c;
    l->table[DMLI_PG_INCLUDE_PAD] = p->include_padding;
    for (int a = 0; a < 3; ++a) {
        l->table[DMLI_PG_AXIS(a, DMLI_PG_IN)] = p->in[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_OUT)] = p->out[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_WIN)] = p->window[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_STRIDE)] = p->stride[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_DIL)] = p->dilation[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_START)] = p->start[a];
        l->table[DMLI_PG_AXIS(a, DMLI_PG_END)] = p->end[a];
    }
    for (int x = 0; x < 3; ++x)
        for (int d = 0; d < 5; ++d)
            l->table[DMLI_PG_STRIDES(x, d)] = p->strides[x][d];
    l->table_count = DMLI_PG_TABLE;
}

static void lrn_table(const dmli_grad *g, dmli_compute_launch *l)
{
    const dmli_grad_lrn *p = &g->lrn;
    l->kernel = "lrn_grad";
    dmli_opt_int(&l->defs, "IN_HALF", p->half);
    l->table[DMLI_LG_COUNT] = g->count;
    for (int d = 0; d < 4; ++d)
        l->table[DMLI_LG_SIZE(d)] = p->sizes[d];
    l->table[DMLI_LG_CROSS] = p->cross_channel;
    l->table[DMLI_LG_LOCAL] = p->local_size;
    l->table[DMLI_LG_ALPHA] = dmli_float_bits(p->alpha);
    l->table[DMLI_LG_BETA] = dmli_float_bits(p->beta);
    l->table[DMLI_LG_BIAS] = dmli_float_bits(p->bias);
    for (int t = 0; t < 3; ++t)
        for (int d = 0; d < 4; ++d)
            l->table[DMLI_LG_STRIDES(t, d)] = p->strides[t][d];
    l->table_count = DMLI_LG_TABLE;
}

static void adam_table(const dmli_grad *g, dmli_compute_launch *l)
{
    const dmli_grad_adam *p = &g->adam;
    l->kernel = "adam";
    dmli_opt_int(&l->defs, "IN_HALF", p->half);
    l->table[DMLI_AD_COUNT] = g->count;
    for (int d = 0; d < 4; ++d)
        l->table[DMLI_AD_SIZE(d)] = p->sizes[d];
    l->table[DMLI_AD_LR] = dmli_float_bits(p->learning_rate);
    l->table[DMLI_AD_BETA1] = dmli_float_bits(p->beta1);
    l->table[DMLI_AD_BETA2] = dmli_float_bits(p->beta2);
    l->table[DMLI_AD_EPSILON] = dmli_float_bits(p->epsilon);
    for (int t = 0; t < 7; ++t)
        for (int d = 0; d < 4; ++d)
            l->table[DMLI_AD_STRIDES(t, d)] = p->strides[t][d];
    l->table_count = DMLI_AD_TABLE;
}

void dmli_launch_grad(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_grad *g = DMLI_COMPUTE_WORK_CONST(c, dmli_grad);
    l->source = DMLI_SOURCE_GRAD;
    if (g->kind == DMLI_GRAD_SLICE)
        slice_table(g, l);
    else if (g->kind == DMLI_GRAD_LRN)
        lrn_table(g, l);
    else if (g->kind == DMLI_GRAD_ADAM)
        adam_table(g, l);
    else
        pool_table(g, l);
    size_t group = GRAD_GROUP;
    if (group > dev->max_work_group_size)
        group = dev->max_work_group_size;
    if (group > dev->max_item_sizes[0])
        group = dev->max_item_sizes[0];
    group = group ? group : 1;
    l->global[0] = (size_t)(((uint64_t)g->count + group - 1) / group * group);
    l->global[1] = l->global[2] = 1;
    l->local[0] = group;
    l->local[1] = l->local[2] = 1;
}
