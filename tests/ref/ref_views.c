/* SPDX-License-Identifier: MIT */
/* ref_views.c: the views' oracle (see ref_views.h). */
#include "ref_views.h"

static bool same_kind(const ref_tensor *a, const ref_tensor *b)
{
    return a->rank == b->rank && a->type == b->type && a->elem_size == b->elem_size;
}

bool ref_tile(const ref_tensor *input, const ref_tensor *output)
{
    if (!same_kind(input, output))
        return false;
    for (uint32_t d = 0; d < input->rank; ++d)
        if (input->sizes[d] == 0 ? output->sizes[d] != 0 : output->sizes[d] % input->sizes[d])
            return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, c[REF_MAX_DIMS];
    unsigned char elem[16];
    do {
        for (uint32_t d = 0; d < input->rank; ++d)
            c[d] = o[d] % input->sizes[d];
        ref_get(input, c, elem);
        ref_put(output, o, elem);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

bool ref_transpose(const ref_tensor *input, const ref_tensor *output, const uint32_t *perm)
{
    if (!same_kind(input, output))
        return false;
    for (uint32_t k = 0; k < output->rank; ++k)
        if (perm[k] >= input->rank || output->sizes[k] != input->sizes[perm[k]])
            return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, c[REF_MAX_DIMS];
    unsigned char elem[16];
    do {
        for (uint32_t k = 0; k < output->rank; ++k)
            c[perm[k]] = o[k];
        ref_get(input, c, elem);
        ref_put(output, o, elem);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

bool ref_reverse(const ref_tensor *input, const ref_tensor *output, const bool *reversed)
{
    if (!same_kind(input, output))
        return false;
    for (uint32_t d = 0; d < input->rank; ++d)
        if (input->sizes[d] != output->sizes[d])
            return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, c[REF_MAX_DIMS];
    unsigned char elem[16];
    do {
        for (uint32_t d = 0; d < input->rank; ++d)
            c[d] = reversed[d] ? input->sizes[d] - 1 - o[d] : o[d];
        ref_get(input, c, elem);
        ref_put(output, o, elem);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

static bool fail(const char **why, const char *rule)
{
    if (why)
        *why = rule;
    return false;
}

bool ref_tile_shape(uint32_t rank, const int64_t *dims, uint32_t count, const int64_t *repeats,
                    bool same_length, uint32_t *out_rank, int64_t *in_dims, int64_t *out_dims,
                    const char **why)
{
    if (same_length && count != rank)
        return fail(why, "repeats needs one value per dimension");
    uint32_t n = rank > count ? rank : count;
    if (n > REF_MAX_DIMS)
        return fail(why, "more than 16 dimensions");
    for (uint32_t k = 0; k < n; ++k) {
        int64_t d = k + rank >= n ? dims[k + rank - n] : 1;
        int64_t r = k + count >= n ? repeats[k + count - n] : 1;
        if (r < 0 && same_length)
            return fail(why, "a negative repeat");
        r = r < 0 ? 0 : r;
        in_dims[k] = d;
        out_dims[k] = d && r > INT64_MAX / d ? INT64_MAX : d * r; /* saturated: too large */
    }
    *out_rank = n;
    return true;
}

bool ref_transpose_order(uint32_t rank, uint32_t count, const int64_t *order, uint32_t *perm,
                         const char **why)
{
    bool seen[REF_MAX_DIMS] = {false};
    if (count == 0) {
        for (uint32_t k = 0; k < rank; ++k)
            perm[k] = rank - 1 - k;
        return true;
    }
    if (count != rank)
        return fail(why, "the order needs one value per dimension");
    for (uint32_t k = 0; k < rank; ++k) {
        if (order[k] < 0 || order[k] >= (int64_t)rank)
            return fail(why, "an order value outside [0, rank)");
        if (seen[order[k]])
            return fail(why, "an axis twice in the order");
        seen[order[k]] = true;
        perm[k] = (uint32_t)order[k];
    }
    return true;
}

bool ref_reverse_axes(uint32_t rank, bool mask_mode, uint32_t count, const int64_t *axis,
                      bool *reversed, const char **why)
{
    for (uint32_t d = 0; d < rank; ++d)
        reversed[d] = false;
    if (mask_mode) {
        if (count != rank)
            return fail(why, "the mask needs one flag per dimension");
        for (uint32_t d = 0; d < rank; ++d)
            reversed[d] = axis[d] != 0;
        return true;
    }
    if (count > rank)
        return fail(why, "more axes than dimensions");
    for (uint32_t i = 0; i < count; ++i) {
        if (axis[i] < -(int64_t)rank || axis[i] >= (int64_t)rank)
            return fail(why, "an axis outside [-rank, rank)");
        reversed[axis[i] < 0 ? axis[i] + rank : axis[i]] = true;
    }
    return true;
}
