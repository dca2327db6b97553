/* SPDX-License-Identifier: MIT */
/*
 * dmli_fuse_compose on hand-built plans (expected plans worked out by hand
 * from the address maps), and a property check: whenever it composes two
 * random plans, running the composed plan equals running the two in turn
 * (plan_eval), on distinct-valued data.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fuse.h"
#include "plan_eval.h"
#include "ref.h"

static dmli_plan view1(int64_t n, int64_t os, int64_t is, int64_t in_off)
{
    dmli_plan p;
    dmli_plan_init(&p, DMLI_PLAN_VIEW, 4);
    dmli_plan_push(&p, n, os, is, 0, 0);
    p.in_offset = in_off;
    return p;
}

Test(graph_fuse, slice_of_slice_is_one_view)
{
    /* mid[j] = in[1 + 2j] (4 elements); out[k] = mid[1 + k] (2): out[k] = in[3 + 2k]. */
    dmli_plan a = view1(4, 1, 2, 1), b = view1(2, 1, 1, 1), c;
    const char *why = NULL;
    cr_assert(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why), "%s", why);
    cr_expect_eq(c.kind, DMLI_PLAN_VIEW);
    cr_expect_eq(c.rank, 1);
    cr_expect_eq(c.size[0], 2);
    cr_expect_eq(c.in_stride[0], 2);
    cr_expect_eq(c.in_offset, 3);
}

Test(graph_fuse, row_of_a_transpose)
{
    /* A 2x3 input read transposed into a packed 3x2 mid (mid[r][c] = in[c][r], in
     * strides {3,1}: mid strides {2,1}, in strides {1,3}); then mid's row 1: out[k] =
     * mid[1][k] = in[k][1] = in[1 + 3k]. */
    dmli_plan a, b = view1(2, 1, 1, 2), c;
    dmli_plan_init(&a, DMLI_PLAN_VIEW, 4);
    dmli_plan_push(&a, 3, 2, 1, 0, 0);
    dmli_plan_push(&a, 2, 1, 3, 0, 0);
    const char *why = NULL;
    cr_assert(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why), "%s", why);
    cr_expect_eq(c.in_offset, 1);
    cr_expect_eq(c.in_stride[0], 3);
}

Test(graph_fuse, refusals)
{
    dmli_plan a, b, c;
    const char *why = NULL;
    /* A packed 2x3 mid read as 4 consecutive elements from 1: the run crosses a row. */
    dmli_plan_init(&a, DMLI_PLAN_VIEW, 4);
    dmli_plan_push(&a, 2, 3, 7, 0, 0);
    dmli_plan_push(&a, 3, 1, 1, 0, 0);
    b = view1(4, 1, 1, 1);
    cr_expect_not(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why));
    cr_expect(why && strstr(why, "carries"), "%s", why);
    /* Rows padded to 4: element 3 is never written. */
    a.out_stride[0] = 4;
    b = view1(1, 1, 1, 3);
    cr_expect_not(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why));
    cr_expect(why && strstr(why, "does not write"), "%s", why);
    /* Another element width: a reinterpretation. */
    b = view1(2, 1, 1, 0);
    b.elem_bytes = 2;
    cr_expect_not(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why));
    cr_expect(why && strstr(why, "element width"), "%s", why);
    /* Gathered indices into a gather. */
    dmli_plan_init(&a, DMLI_PLAN_INDEXED, 4);
    dmli_plan_push(&a, 3, 1, 0, 1, 1);
    a.idx_type = DMLI_INDEX_INT32;
    a.components = 1;
    a.axis_size[0] = 5;
    a.axis_stride[0] = 1;
    b = a;
    cr_expect_not(dmli_fuse_compose(&a, &b, DMLI_FUSE_INDEX, &c, &why));
    cr_expect(why && strstr(why, "gathered indices"), "%s", why);
    cr_expect_not(dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why));
    cr_expect(why && strstr(why, "gathered data"), "%s", why);
}

Test(graph_fuse, view_of_a_gather_and_gather_of_a_view)
{
    /* Gather rows: mid[r][c] = in[idx[r]][c], in 5x4 packed, idx 3 elements, mid 3x4
     * packed. A view of column 2, rows reversed: out[k] = mid[2 - k][2]: idx stride -1,
     * idx offset 2, in offset 2, output run over k. */
    dmli_plan g, v, c;
    dmli_plan_init(&g, DMLI_PLAN_INDEXED, 4);
    dmli_plan_push(&g, 3, 4, 0, 1, 1);
    dmli_plan_push(&g, 4, 1, 1, 0, 0);
    g.idx_type = DMLI_INDEX_INT32;
    g.wrap_negative = true;
    g.components = 1;
    g.axis_size[0] = 5;
    g.axis_stride[0] = 4;
    v = view1(3, 1, -4, 10);
    const char *why = NULL;
    cr_assert(dmli_fuse_compose(&g, &v, DMLI_FUSE_DATA, &c, &why), "%s", why);
    cr_expect_eq(c.kind, DMLI_PLAN_INDEXED);
    cr_expect_eq(c.rank, 1);
    cr_expect_eq(c.idx_stride[0], -1);
    cr_expect_eq(c.idx_offset, 2);
    cr_expect_eq(c.in_stride[0], 0);
    cr_expect_eq(c.in_offset, 2);
    cr_expect_eq(c.axis_stride[0], 4);
    /* Indices read through a view: idx'[r] = raw[6 - 2r] (raw 7 elements): the gather
     * reads raw at offset 6, stride -2. */
    dmli_plan iv = view1(3, 1, -2, 6);
    cr_assert(dmli_fuse_compose(&iv, &g, DMLI_FUSE_INDEX, &c, &why), "%s", why);
    cr_expect_eq(c.idx_offset, 6);
    cr_expect_eq(c.idx_stride[0], -2);
    cr_expect_eq(c.idx_stride[1], 0);
    cr_expect_eq(c.in_stride[1], 1);
}

/* ---- Property: compose == run both ------------------------------------------------ */

#define MAXN 4096

typedef struct shape {
    int rank;
    int64_t size[4], stride[4]; /* a layout: packed, padded or permuted */
    int64_t extent;             /* elements spanned */
} shape;

/* A random injective layout of random sizes: a permuted packing with padding. */
static void random_layout(ref_rng *r, shape *s)
{
    s->rank = 1 + (int)ref_rng_below(r, 3);
    for (int d = 0; d < s->rank; ++d)
        s->size[d] = 1 + (int64_t)ref_rng_below(r, 4);
    int perm[4] = {0, 1, 2, 3};
    for (int d = s->rank - 1; d > 0; --d) {
        int j = (int)ref_rng_below(r, (uint64_t)d + 1), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    int64_t step = 1;
    for (int k = s->rank - 1; k >= 0; --k) {
        int d = perm[k];
        s->stride[d] = step;
        step *= s->size[d] + (ref_rng_chance(r, 25) ? 1 : 0);
    }
    s->extent = step;
}

/* A random read of a tensor with `of`'s sizes: a slice, maybe reversed or broadcast. */
static void random_read(ref_rng *r, const shape *of, dmli_plan *p, const shape *out)
{
    dmli_plan_init(p, DMLI_PLAN_VIEW, 4);
    for (int d = 0; d < of->rank; ++d) {
        int64_t n = out->size[d], step = (int64_t)ref_rng_below(r, 3) - 1;
        if (n > 1 && step == 0 && !ref_rng_chance(r, 30))
            step = 1;
        int64_t span = (n - 1) * (step < 0 ? -step : step);
        if (span >= of->size[d]) {
            step = 0;
            span = 0;
        }
        int64_t first = (int64_t)ref_rng_below(r, (uint64_t)(of->size[d] - span));
        int64_t start = step < 0 ? first + span : first;
        p->in_offset += start * of->stride[d];
        dmli_plan_push(p, n, out->stride[d], step * of->stride[d], 0, 0);
    }
}

Test(graph_fuse, composed_equals_sequential)
{
    uint64_t seed = ref_test_seed(0x6772617068ull);
    ref_rng r = ref_rng_make(seed);
    static uint32_t in[MAXN], mid[MAXN], out_a[MAXN], out_b[MAXN];
    int composed = 0;
    for (int t = 0; t < 2000; ++t) {
        shape src, m, dst;
        random_layout(&r, &src);
        m = src;
        random_layout(&r, &m);
        m.rank = src.rank;
        random_layout(&r, &dst);
        dst.rank = src.rank;
        for (int d = 0; d < src.rank; ++d) {
            m.size[d] = 1 + (int64_t)ref_rng_below(&r, (uint64_t)src.size[d]);
            dst.size[d] = 1 + (int64_t)ref_rng_below(&r, (uint64_t)m.size[d]);
        }
        /* Recompute strides for the chosen sizes: packed in the permuted order. */
        int64_t step = 1;
        for (int d = src.rank - 1; d >= 0; --d) {
            m.stride[d] = step;
            step *= m.size[d];
        }
        m.extent = step;
        step = 1;
        for (int d = src.rank - 1; d >= 0; --d) {
            dst.stride[d] = step;
            step *= dst.size[d];
        }
        dst.extent = step;
        dmli_plan a, b, c;
        random_read(&r, &src, &a, &m);
        random_read(&r, &m, &b, &dst);
        const char *why = NULL;
        if (!dmli_fuse_compose(&a, &b, DMLI_FUSE_DATA, &c, &why))
            continue;
        composed++;
        for (int i = 0; i < MAXN; ++i)
            in[i] = (uint32_t)ref_rng_next(&r);
        memset(mid, 0xAB, sizeof mid);
        memset(out_a, 0xCD, sizeof out_a);
        memset(out_b, 0xCD, sizeof out_b);
        plan_eval(&a, mid, in, NULL);
        plan_eval(&b, out_a, mid, NULL);
        dmli_plan_normalize(&c);
        plan_eval(&c, out_b, in, NULL);
        cr_assert_arr_eq(out_a, out_b, sizeof out_a, "seed 0x%llx case %d: composed differs",
                         (unsigned long long)seed, t);
    }
    cr_expect_gt(composed, 1000, "seed 0x%llx: only %d of 2000 composed", (unsigned long long)seed,
                 composed);
}
