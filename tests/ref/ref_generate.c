/* SPDX-License-Identifier: MIT */
/* ref_generate.c: see ref_generate.h. */
#include <string.h>

#include "ref_generate.h"

/* The index as a signed 64-bit value (UINT64 past INT64_MAX: outside any axis anyway). */
static bool read_index(const ref_tensor *t, const uint32_t *coord, int64_t *out)
{
    unsigned char raw[8] = {0};
    ref_get(t, coord, raw);
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, raw, 4);
        *out = v;
        return true;
    }
    case DML_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, raw, 4);
        *out = v;
        return true;
    }
    case DML_TENSOR_DATA_TYPE_INT64: memcpy(out, raw, 8); return true;
    case DML_TENSOR_DATA_TYPE_UINT64: {
        uint64_t v;
        memcpy(&v, raw, 8);
        *out = v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
        return true;
    }
    default: return false;
    }
}

bool ref_one_hot(const ref_tensor *indices, const ref_tensor *values, uint32_t axis,
                 const ref_tensor *out)
{
    if (indices->rank != out->rank || values->rank != out->rank || axis >= out->rank ||
        values->type != out->type || ref_element_count(values->rank, values->sizes) < 2)
        return false;
    for (uint32_t k = 0; k < out->rank; ++k)
        if (indices->sizes[k] != (k == axis ? 1 : out->sizes[k]))
            return false;
    uint32_t vc[REF_MAX_DIMS] = {0};
    unsigned char off[16] = {0}, on[16] = {0};
    ref_get(values, vc, off);
    for (uint32_t k = values->rank; k-- > 0;)
        if (values->sizes[k] > 1) {
            vc[k] = 1;
            break;
        }
    ref_get(values, vc, on);
    bool sign =
        indices->type == DML_TENSOR_DATA_TYPE_INT32 || indices->type == DML_TENSOR_DATA_TYPE_INT64;
    int64_t depth = out->sizes[axis];
    uint32_t c[REF_MAX_DIMS] = {0};
    if (ref_element_count(out->rank, out->sizes) == 0)
        return true;
    do {
        uint32_t ic[REF_MAX_DIMS];
        memcpy(ic, c, sizeof ic);
        ic[axis] = 0;
        int64_t index;
        if (!read_index(indices, ic, &index))
            return false;
        if (sign && index < 0)
            index += depth;
        ref_put(out, c, index == (int64_t)c[axis] ? on : off);
    } while (ref_next_coord(out->rank, out->sizes, c));
    return true;
}

bool ref_diagonal_matrix(const ref_tensor *input, const void *value, int64_t begin, int64_t end,
                         const ref_tensor *out)
{
    if (out->rank < 2)
        return false;
    if (input != NULL && (input->type != out->type || input->rank != out->rank ||
                          memcmp(input->sizes, out->sizes, out->rank * sizeof out->sizes[0]) != 0))
        return false;
    uint32_t c[REF_MAX_DIMS] = {0};
    if (ref_element_count(out->rank, out->sizes) == 0)
        return true;
    do {
        int64_t t = (int64_t)c[out->rank - 1] - (int64_t)c[out->rank - 2];
        bool use = (end >= begin) ^ (t >= begin) ^ (t < end);
        unsigned char e[16] = {0};
        if (use)
            memcpy(e, value, out->elem_size);
        else if (input != NULL)
            ref_get(input, c, e);
        ref_put(out, c, e);
    } while (ref_next_coord(out->rank, out->sizes, c));
    return true;
}
