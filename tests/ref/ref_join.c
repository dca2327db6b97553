/* SPDX-License-Identifier: MIT */
/* The join / split oracle (ref_join.h). */
#include <string.h>

#include "ref_join.h"

bool ref_join_fits(const ref_tensor *pieces, uint32_t count, const ref_tensor *whole, uint32_t axis)
{
    if (count == 0 || axis >= whole->rank)
        return false;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (pieces[i].rank != whole->rank || pieces[i].elem_size != whole->elem_size)
            return false;
        for (uint32_t d = 0; d < whole->rank; ++d)
            if (d != axis && pieces[i].sizes[d] != whole->sizes[d])
                return false;
        sum += pieces[i].sizes[axis];
    }
    return sum == whole->sizes[axis];
}

/*
 * For coordinate c of the whole tensor: the piece holding it and the
 * coordinate inside that piece (c with the axis made relative).
 */
static uint32_t locate(const ref_tensor *pieces, uint32_t axis, const uint32_t *c, uint32_t rank,
                       uint32_t *inner)
{
    uint32_t i = 0, at = c[axis];
    while (at >= pieces[i].sizes[axis]) {
        at -= pieces[i].sizes[axis];
        ++i;
    }
    memcpy(inner, c, rank * sizeof *c);
    inner[axis] = at;
    return i;
}

bool ref_join(const ref_tensor *inputs, uint32_t count, const ref_tensor *output, uint32_t axis)
{
    if (!ref_join_fits(inputs, count, output, axis))
        return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t c[REF_MAX_DIMS] = {0}, inner[REF_MAX_DIMS];
    unsigned char element[16];
    do {
        uint32_t i = locate(inputs, axis, c, output->rank, inner);
        ref_get(&inputs[i], inner, element);
        ref_put(output, c, element);
    } while (ref_next_coord(output->rank, output->sizes, c));
    return true;
}

bool ref_split(const ref_tensor *input, const ref_tensor *outputs, uint32_t count, uint32_t axis)
{
    if (!ref_join_fits(outputs, count, input, axis))
        return false;
    if (ref_element_count(input->rank, input->sizes) == 0)
        return true;
    uint32_t c[REF_MAX_DIMS] = {0}, inner[REF_MAX_DIMS];
    unsigned char element[16];
    do {
        uint32_t i = locate(outputs, axis, c, input->rank, inner);
        ref_get(input, c, element);
        ref_put(&outputs[i], inner, element);
    } while (ref_next_coord(input->rank, input->sizes, c));
    return true;
}
