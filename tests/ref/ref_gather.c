/* SPDX-License-Identifier: MIT */
/*
 * ref_gather.c: DML_GATHER, from the DirectML page and DirectMLX's shape code.
 */
#include <string.h>

#include "ref.h"

bool ref_gather_output_sizes(uint32_t rank, const uint32_t *input_sizes,
                             const uint32_t *indices_sizes, uint32_t axis,
                             uint32_t index_dimensions, uint32_t *output_sizes)
{
    const int d = (int)rank;
    const int k = (int)index_dimensions;
    bool lossless = true;
    int o = d - 1;

    if (rank == 0 || rank > REF_MAX_DIMS || axis >= rank || index_dimensions > rank)
        return false;
    for (int i = 0; i < d; ++i)
        output_sizes[i] = 1;
    for (; o > (int)axis; --o)
        output_sizes[o] = input_sizes[o];
    for (int j = d - 1; j >= d - k; --j, --o) {
        if (o >= 0)
            output_sizes[o] = indices_sizes[j];
        else if (indices_sizes[j] != 1)
            lossless = false;
    }
    for (int j = 0; j < d - k; ++j)
        if (indices_sizes[j] != 1)
            lossless = false;
    for (int i = (int)axis - 1; i >= 0; --i, --o) {
        if (o >= 0)
            output_sizes[o] = input_sizes[i];
        else if (input_sizes[i] != 1)
            lossless = false;
    }
    return lossless;
}

uint32_t ref_gather_index(DML_TENSOR_DATA_TYPE index_type, const void *raw, uint32_t axis_size)
{
    int64_t s = 0;
    uint64_t u = 0;
    bool is_signed = true;

    switch ((int)index_type) {
    case DML_TENSOR_DATA_TYPE_INT8: {
        int8_t v;
        memcpy(&v, raw, sizeof v);
        s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT16: {
        int16_t v;
        memcpy(&v, raw, sizeof v);
        s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, raw, sizeof v);
        s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT64: {
        int64_t v;
        memcpy(&v, raw, sizeof v);
        s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_UINT8: {
        uint8_t v;
        memcpy(&v, raw, sizeof v);
        u = v;
        is_signed = false;
        break;
    }
    case DML_TENSOR_DATA_TYPE_UINT16: {
        uint16_t v;
        memcpy(&v, raw, sizeof v);
        u = v;
        is_signed = false;
        break;
    }
    case DML_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, raw, sizeof v);
        u = v;
        is_signed = false;
        break;
    }
    case DML_TENSOR_DATA_TYPE_UINT64: {
        uint64_t v;
        memcpy(&v, raw, sizeof v);
        u = v;
        is_signed = false;
        break;
    }
    default: return 0;
    }
    if (is_signed) {
        /* axis_size < 2^32, so adding it to INT64_MIN cannot overflow. */
        if (s < 0)
            s += axis_size;
        if (s < 0)
            return 0;
        return s >= (int64_t)axis_size ? axis_size - 1 : (uint32_t)s;
    }
    return u >= axis_size ? axis_size - 1 : (uint32_t)u;
}

/* The input and indices coordinates output coordinate o reads. */
static void gather_source(uint32_t rank, uint32_t axis, uint32_t index_dimensions,
                          const uint32_t *o, uint32_t *input_coord, uint32_t *indices_coord)
{
    const int d = (int)rank, a = (int)axis, k = (int)index_dimensions;

    memset(input_coord, 0, rank * sizeof *input_coord);
    memset(indices_coord, 0, rank * sizeof *indices_coord);
    for (int p = a + 1; p < d; ++p)
        input_coord[p] = o[p];
    /* Index dimension j sits at output position axis - (d - 1 - j). */
    for (int j = d - k; j < d; ++j) {
        int p = a - (d - 1 - j);
        indices_coord[j] = p >= 0 ? o[p] : 0;
    }
    /* Lead: output positions <= axis - k, right-aligned into input [0, axis). */
    for (int q = a - k, i = a - 1; q >= 0 && i >= 0; --q, --i)
        input_coord[i] = o[q];
}

bool ref_gather(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                uint32_t axis, uint32_t index_dimensions)
{
    const uint32_t rank = input->rank;
    uint32_t expect[REF_MAX_DIMS];
    uint32_t o[REF_MAX_DIMS] = {0};
    uint32_t ic[REF_MAX_DIMS], xc[REF_MAX_DIMS];
    unsigned char raw[16], element[16];

    if (indices->rank != rank || output->rank != rank || input->elem_size != output->elem_size ||
        input->elem_size > sizeof element || indices->elem_size > sizeof raw)
        return false;
    if (!ref_gather_output_sizes(rank, input->sizes, indices->sizes, axis, index_dimensions,
                                 expect))
        return false;
    if (memcmp(expect, output->sizes, rank * sizeof *expect) != 0)
        return false;
    do {
        gather_source(rank, axis, index_dimensions, o, ic, xc);
        ref_get(indices, xc, raw);
        ic[axis] = ref_gather_index(indices->type, raw, input->sizes[axis]);
        ref_get(input, ic, element);
        ref_put(output, o, element);
    } while (ref_next_coord(rank, output->sizes, o));
    return true;
}
