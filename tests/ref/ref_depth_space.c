/* SPDX-License-Identifier: MIT */
/*
 * ref_depth_space.c: the depth/space oracle (see ref_depth_space.h). One
 * mapping, walked in both directions: space coordinate <-> depth coordinate.
 */
#include "ref_depth_space.h"

/* Do the two shapes pair as space {N, C, D * b} and depth {N, C * b^K, D}? */
static bool paired(const ref_tensor *depth, const ref_tensor *space, uint32_t block)
{
    if (depth->rank < 3 || depth->rank != space->rank || depth->elem_size != space->elem_size ||
        block == 0)
        return false;
    uint64_t blocks = 1;
    for (uint32_t i = 2; i < depth->rank; ++i) {
        blocks *= block;
        if ((uint64_t)depth->sizes[i] * block != space->sizes[i])
            return false;
    }
    return depth->sizes[0] == space->sizes[0] &&
           (uint64_t)space->sizes[1] * blocks == depth->sizes[1];
}

/* The depth coordinate of space coordinate s. */
static void depth_of(const ref_tensor *space, const uint32_t *s, uint32_t block, bool blocks_first,
                     uint32_t *d)
{
    uint32_t k = space->rank - 2;
    uint64_t offset = 0, blocks = 1; /* the block's number among b^K, b1 most significant */
    d[0] = s[0];
    for (uint32_t i = 0; i < k; ++i) {
        d[2 + i] = s[2 + i] / block;
        offset = offset * block + s[2 + i] % block;
        blocks *= block;
    }
    uint64_t c = space->sizes[1];
    d[1] = (uint32_t)(blocks_first ? offset * c + s[1] : s[1] * blocks + offset);
}

bool ref_depth_to_space(const ref_tensor *depth, const ref_tensor *space, uint32_t block,
                        bool blocks_first)
{
    uint32_t s[REF_MAX_DIMS] = {0}, d[REF_MAX_DIMS];
    unsigned char elem[16];
    if (!paired(depth, space, block))
        return false;
    if (ref_element_count(space->rank, space->sizes) == 0)
        return true;
    do {
        depth_of(space, s, block, blocks_first, d);
        ref_get(depth, d, elem);
        ref_put(space, s, elem);
    } while (ref_next_coord(space->rank, space->sizes, s));
    return true;
}

bool ref_space_to_depth(const ref_tensor *space, const ref_tensor *depth, uint32_t block,
                        bool blocks_first)
{
    uint32_t s[REF_MAX_DIMS] = {0}, d[REF_MAX_DIMS];
    unsigned char elem[16];
    if (!paired(depth, space, block))
        return false;
    if (ref_element_count(space->rank, space->sizes) == 0)
        return true;
    /* Every space element lands on its own depth element: walking space covers depth. */
    do {
        depth_of(space, s, block, blocks_first, d);
        ref_get(space, s, elem);
        ref_put(depth, d, elem);
    } while (ref_next_coord(space->rank, space->sizes, s));
    return true;
}
