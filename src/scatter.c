/* SPDX-License-Identifier: MIT */
/* The scatter family's description (scatter.h): built by the operators' lower, normalised on
 * the host, and the copy that runs before the kernel. */
#include <string.h>

#include "scatter.h"

void dmli_scatter_push(dmli_scatter *s, bool walk, int64_t size, int64_t us, int64_t xs, int64_t os)
{
    if (walk) {
        int j = s->n_walk++;
        s->walk_size[j] = size;
        s->walk_us[j] = us;
        s->walk_xs[j] = xs;
        return;
    }
    int i = s->n_outer++;
    s->outer_size[i] = size;
    s->outer_us[i] = us;
    s->outer_xs[i] = xs;
    s->outer_os[i] = os;
}

/* Whether dimension a (outer) and b (its inner neighbour) step every stride as one. */
static bool joins(int64_t size_b, const int64_t *a, const int64_t *b, int n)
{
    for (int t = 0; t < n; ++t)
        if (a[t] != size_b * b[t])
            return false;
    return true;
}

void dmli_scatter_normalize(dmli_scatter *s)
{
    int n = 0;
    for (int i = 0; i < s->n_outer; ++i) {
        if (s->outer_size[i] == 1)
            continue;
        const int64_t cur[3] = {s->outer_us[i], s->outer_xs[i], s->outer_os[i]};
        if (n > 0) {
            const int64_t prev[3] = {s->outer_us[n - 1], s->outer_xs[n - 1], s->outer_os[n - 1]};
            if (joins(s->outer_size[i], prev, cur, 3)) {
                s->outer_size[n - 1] *= s->outer_size[i];
                s->outer_us[n - 1] = cur[0];
                s->outer_xs[n - 1] = cur[1];
                s->outer_os[n - 1] = cur[2];
                continue;
            }
        }
        s->outer_size[n] = s->outer_size[i];
        s->outer_us[n] = cur[0];
        s->outer_xs[n] = cur[1];
        s->outer_os[n] = cur[2];
        ++n;
    }
    if (n == 0) { /* every dimension indexed: one element a position */
        s->outer_size[0] = 1;
        s->outer_us[0] = s->outer_xs[0] = s->outer_os[0] = 0;
        n = 1;
    }
    s->n_outer = n;
    n = 0;
    for (int j = 0; j < s->n_walk; ++j) {
        if (s->walk_size[j] == 1)
            continue;
        const int64_t cur[2] = {s->walk_us[j], s->walk_xs[j]};
        if (n > 0) {
            const int64_t prev[2] = {s->walk_us[n - 1], s->walk_xs[n - 1]};
            if (joins(s->walk_size[j], prev, cur, 2)) {
                s->walk_size[n - 1] *= s->walk_size[j];
                s->walk_us[n - 1] = cur[0];
                s->walk_xs[n - 1] = cur[1];
                continue;
            }
        }
        s->walk_size[n] = s->walk_size[j];
        s->walk_us[n] = cur[0];
        s->walk_xs[n] = cur[1];
        ++n;
    }
    s->n_walk = n;
}

void dmli_scatter_copy_plan(const dmli_scatter *s, dmli_plan *plan)
{
    dmli_plan_init(plan, DMLI_PLAN_VIEW, s->elem_bytes);
    for (int d = 0; d < s->copy_rank; ++d)
        dmli_plan_push(plan, s->copy_size[d], s->copy_os[d], s->copy_is[d], 0, 0);
}
