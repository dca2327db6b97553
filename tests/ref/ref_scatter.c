/* SPDX-License-Identifier: MIT */
/* ref_scatter.c: DML_SCATTER_ELEMENTS and DML_SCATTER_ND, from their pages (ref_scatter.h). */
#include <string.h>

#include "ref_scatter.h"

/* output = input, element by element over the logical coordinates. */
static void copy_all(const ref_tensor *input, const ref_tensor *output)
{
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char e[16];
    do {
        ref_get(input, c, e);
        ref_put(output, c, e);
    } while (ref_next_coord(input->rank, input->sizes, c));
}

static bool same_sizes(const ref_tensor *a, const ref_tensor *b)
{
    return a->rank == b->rank && !memcmp(a->sizes, b->sizes, a->rank * sizeof a->sizes[0]);
}

bool ref_scatter_elements(const ref_tensor *input, const ref_tensor *indices,
                          const ref_tensor *updates, const ref_tensor *output, uint32_t axis)
{
    const uint32_t r = input->rank;
    if (r == 0 || r > REF_MAX_DIMS || axis >= r || !same_sizes(input, output) ||
        !same_sizes(indices, updates) || indices->rank != r)
        return false;
    for (uint32_t i = 0; i < r; ++i)
        if (i != axis && indices->sizes[i] != input->sizes[i])
            return false;
    copy_all(input, output);
    uint32_t c[REF_MAX_DIMS] = {0}, o[REF_MAX_DIMS];
    unsigned char raw[8], e[16];
    do {
        ref_get(indices, c, raw);
        memcpy(o, c, r * sizeof o[0]);
        o[axis] = ref_gather_index(indices->type, raw, output->sizes[axis]);
        ref_get(updates, c, e);
        ref_put(output, o, e);
    } while (ref_next_coord(r, indices->sizes, c));
    return true;
}

bool ref_scatter_nd(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *updates,
                    const ref_tensor *output, uint32_t input_dims, uint32_t indices_dims)
{
    const uint32_t r = input->rank;
    if (r == 0 || r > REF_MAX_DIMS || !same_sizes(input, output) || indices->rank != r ||
        updates->rank != r || input_dims < 1 || input_dims > r || indices_dims < 1 ||
        indices_dims > r)
        return false;
    const uint32_t ip = r - input_dims, xp = r - indices_dims, m = indices->sizes[r - 1];
    if (m < 1 || m > input_dims)
        return false;
    /* The tuples' dimensions (xp .. r - 2) and the slice's (ip + m .. r - 1), right-aligned in
     * the updates. */
    const uint32_t nt = indices_dims - 1, ns = input_dims - m, n = nt + ns;
    uint32_t tsizes[REF_MAX_DIMS], ssizes[REF_MAX_DIMS];
    for (uint32_t j = 0; j < nt; ++j)
        tsizes[j] = indices->sizes[xp + j];
    for (uint32_t j = 0; j < ns; ++j)
        ssizes[j] = input->sizes[ip + m + j];
    for (uint32_t e = 0; e < n; ++e) {
        const uint32_t want = e < nt ? tsizes[e] : ssizes[e - nt];
        if (n - e <= r ? updates->sizes[r - n + e] != want : want != 1)
            return false;
    }
    for (uint32_t d = 0; d + n < r; ++d)
        if (updates->sizes[d] != 1)
            return false;
    copy_all(input, output);
    uint32_t t[REF_MAX_DIMS] = {0};
    unsigned char raw[8], v[16];
    do {
        uint32_t o[REF_MAX_DIMS] = {0}, x[REF_MAX_DIMS] = {0};
        for (uint32_t j = 0; j < nt; ++j)
            x[xp + j] = t[j];
        for (uint32_t k = 0; k < m; ++k) {
            x[r - 1] = k;
            ref_get(indices, x, raw);
            o[ip + k] = ref_gather_index(indices->type, raw, output->sizes[ip + k]);
        }
        uint32_t s[REF_MAX_DIMS] = {0};
        do {
            uint32_t u[REF_MAX_DIMS] = {0};
            for (uint32_t e = 0; e < n; ++e)
                if (n - e <= r)
                    u[r - n + e] = e < nt ? t[e] : s[e - nt];
            for (uint32_t j = 0; j < ns; ++j)
                o[ip + m + j] = s[j];
            ref_get(updates, u, v);
            ref_put(output, o, v);
        } while (ref_next_coord(ns, ssizes, s));
    } while (ref_next_coord(nt, tsizes, t));
    return true;
}
