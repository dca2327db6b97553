/* SPDX-License-Identifier: MIT */
/*
 * Copy plans: construction and host-side normalisation. Fewer, longer,
 * wider dimensions mean fewer index computations per byte in the kernels.
 */
#include <string.h>

#include "internal.h"

void dmli_plan_init(dmli_plan *plan, dmli_plan_kind kind, uint32_t elem_bytes)
{
    memset(plan, 0, sizeof *plan);
    plan->kind = kind;
    plan->elem_bytes = elem_bytes;
}

void dmli_plan_push(dmli_plan *plan, int64_t size, int64_t out_stride, int64_t in_stride,
                    int64_t idx_stride, int64_t idx_pos)
{
    int d = plan->rank++;
    plan->size[d] = size;
    plan->out_stride[d] = out_stride;
    plan->in_stride[d] = in_stride;
    plan->idx_stride[d] = idx_stride;
    plan->idx_pos[d] = idx_pos;
}

/* Outer dim a and inner dim b form one dimension in every tensor. */
static bool mergeable(const dmli_plan *p, int a, int b)
{
    int64_t n = p->size[b];
    return p->out_stride[a] == p->out_stride[b] * n && p->in_stride[a] == p->in_stride[b] * n &&
           p->idx_stride[a] == p->idx_stride[b] * n && p->idx_pos[a] == p->idx_pos[b] * n;
}

static int64_t magnitude(int64_t v)
{
    return v < 0 ? -v : v;
}

typedef struct dim {
    int64_t size, out_stride, in_stride, idx_stride, idx_pos;
} dim;

static dim get_dim(const dmli_plan *p, int d)
{
    return (dim){p->size[d], p->out_stride[d], p->in_stride[d], p->idx_stride[d], p->idx_pos[d]};
}

static void put_dim(dmli_plan *p, int d, dim v)
{
    p->size[d] = v.size;
    p->out_stride[d] = v.out_stride;
    p->in_stride[d] = v.in_stride;
    p->idx_stride[d] = v.idx_stride;
    p->idx_pos[d] = v.idx_pos;
}

/*
 * Visits the output in memory order: a stable insertion sort of the dims by
 * decreasing |out_stride| (the copy is a bijection, so any order is valid).
 * Packed outputs keep their order; a layout change (NCHW to NHWC) then writes
 * contiguous runs and reads with the stride, instead of the reverse.
 */
static void order_by_output(dmli_plan *p)
{
    for (int d = 1; d < p->rank; ++d) {
        dim v = get_dim(p, d);
        int j = d;
        for (; j > 0 && magnitude(p->out_stride[j - 1]) < magnitude(v.out_stride); --j)
            put_dim(p, j, get_dim(p, j - 1));
        put_dim(p, j, v);
    }
}

static void drop_and_merge(dmli_plan *p)
{
    int r = 0;
    for (int d = 0; d < p->rank; ++d) {
        if (p->size[d] == 1)
            continue;
        if (r > 0 && mergeable(p, r - 1, d)) {
            int64_t outer = p->size[r - 1];
            put_dim(p, r - 1, get_dim(p, d));
            p->size[r - 1] *= outer;
            continue;
        }
        put_dim(p, r++, get_dim(p, d));
    }
    p->rank = r;
}

static bool divides(int64_t value, int64_t unit)
{
    return value % unit == 0;
}

/* The largest unit (bytes) that every byte quantity of the plan is a multiple of. */
static uint32_t widest_unit(const dmli_plan *p)
{
    int64_t eb = p->elem_bytes;
    uint32_t unit = 16;
    for (; unit > p->elem_bytes; unit >>= 1) {
        bool ok = divides(p->size[p->rank - 1] * eb, unit) && divides(p->out_offset * eb, unit) &&
                  divides(p->in_offset * eb, unit);
        for (int d = 0; ok && d < p->rank - 1; ++d)
            ok = divides(p->out_stride[d] * eb, unit) && divides(p->in_stride[d] * eb, unit);
        for (int k = 0; ok && p->kind == DMLI_PLAN_INDEXED && k < p->components; ++k)
            ok = divides(p->axis_stride[k] * eb, unit);
        if (ok)
            break;
    }
    return unit;
}

static void widen(dmli_plan *p)
{
    int in = p->rank - 1;
    if (p->rank == 0 || p->out_stride[in] != 1 || p->in_stride[in] != 1 || p->idx_stride[in] != 0)
        return;
    if (p->elem_bytes >= 16 || (16 % p->elem_bytes) != 0)
        return;
    uint32_t unit = widest_unit(p);
    int64_t f = unit / p->elem_bytes;
    if (f == 1)
        return;
    p->size[in] /= f;
    for (int d = 0; d < in; ++d) {
        p->out_stride[d] /= f;
        p->in_stride[d] /= f;
    }
    p->out_offset /= f;
    p->in_offset /= f;
    for (int k = 0; p->kind == DMLI_PLAN_INDEXED && k < p->components; ++k)
        p->axis_stride[k] /= f;
    p->elem_bytes = unit;
}

void dmli_plan_normalize(dmli_plan *plan)
{
    for (int d = 0; d < plan->rank; ++d)
        if (plan->size[d] == 0) {
            plan->empty = true;
            return;
        }
    drop_and_merge(plan);
    order_by_output(plan);
    drop_and_merge(plan);
    widen(plan);
}
