/* SPDX-License-Identifier: MIT */
/*
 * Reductions (internal.h dmli_reduce): building one, and its host-side normalisation.
 * Dimensions are the input's; a dimension of size 1 is dropped, and two neighbouring
 * dimensions of one kind (both kept or both reduced) merge when every tensor steps over the
 * outer one as over the inner one's whole extent. Dimensions are never reordered: the reduced
 * ones keep their row-major order, which an index (ARGMAX, TOP_K) counts in, and merging two
 * neighbours row-major keeps every position's index.
 */
#include <string.h>

#include "internal.h"

void dmli_reduce_init(dmli_reduce *r, dmli_reduce_op op, uint32_t n_inputs, uint32_t n_outputs)
{
    memset(r, 0, sizeof *r);
    r->op = op;
    r->n_inputs = n_inputs;
    r->n_outputs = n_outputs;
    for (uint32_t k = 0; k < DMLI_REDUCE_MAX_INPUTS; ++k)
        r->in[k].slot = k;
    for (uint32_t j = 0; j < DMLI_REDUCE_MAX_OUTPUTS; ++j)
        r->out[j].slot = j;
}

void dmli_reduce_push(dmli_reduce *r, int64_t size, bool reduced, const int64_t *out_strides,
                      const int64_t *in_strides)
{
    int d = r->rank++;
    r->size[d] = size;
    r->reduced[d] = reduced;
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        r->out[j].stride[d] = out_strides[j];
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        r->in[k].stride[d] = in_strides[k];
}

static bool steps_as_one(const dmli_map_tensor *t, int outer, int inner, int64_t inner_size)
{
    return t->stride[outer] == t->stride[inner] * inner_size;
}

/* Dimensions outer and inner (outer before inner) are of one kind and walk every tensor as
 * one. */
static bool mergeable(const dmli_reduce *r, int outer, int inner)
{
    if (r->reduced[outer] != r->reduced[inner])
        return false;
    /* LRN's window spans each reduced dimension apart (H and W, not H * W). */
    if (r->reduced[outer] && r->op == DMLI_REDUCE_LRN)
        return false;
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        if (!steps_as_one(&r->out[j], outer, inner, r->size[inner]))
            return false;
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        if (!steps_as_one(&r->in[k], outer, inner, r->size[inner]))
            return false;
    return true;
}

static void move_dim(dmli_reduce *r, int to, int from)
{
    r->size[to] = r->size[from];
    r->reduced[to] = r->reduced[from];
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        r->out[j].stride[to] = r->out[j].stride[from];
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        r->in[k].stride[to] = r->in[k].stride[from];
}

void dmli_reduce_normalize(dmli_reduce *r)
{
    for (int d = 0; d < r->rank; ++d)
        if (r->size[d] == 0) {
            r->empty = true;
            return;
        }
    int n = 0;
    for (int d = 0; d < r->rank; ++d) {
        if (r->size[d] == 1)
            continue;
        if (n > 0 && mergeable(r, n - 1, d)) {
            int64_t outer = r->size[n - 1];
            move_dim(r, n - 1, d);
            r->size[n - 1] *= outer;
            continue;
        }
        move_dim(r, n++, d);
    }
    r->rank = n;
}

void dmli_reduce_param_real(dmli_reduce *r, int i, double value)
{
    dmli_param_real(&r->param[i], &r->iparam[i], value);
}

void dmli_reduce_param_int(dmli_reduce *r, int i, int64_t value)
{
    r->iparam[i] = value;
    r->param[i] = (double)value;
}
