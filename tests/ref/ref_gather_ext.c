/* SPDX-License-Identifier: MIT */
/*
 * ref_gather_ext.c: the reference for GATHER1 (OpenVINO Gather-8, ONNX
 * Gather), GATHER_ELEMENTS and GATHER_ND; see ref_gather_ext.h.
 */
#include <string.h>

#include "ref_gather_ext.h"

ref_index ref_index_read(DML_TENSOR_DATA_TYPE type, const void *raw)
{
    ref_index v = {ref_type_is_signed_int(type), 0, 0};
    size_t w = ref_type_size(type);
    uint64_t bits = 0;
    memcpy(&bits, raw, w); /* little-endian host */
    if (v.is_signed && w < 8 && (bits >> (8 * w - 1)) & 1)
        bits |= ~(uint64_t)0 << (8 * w);
    v.s = (int64_t)bits;
    v.u = bits;
    return v;
}

bool ref_index_resolve(ref_index v, uint32_t axis_size, bool wrap_negative, uint32_t *row)
{
    int64_t x;
    bool ok;
    if (v.is_signed) {
        x = v.s < 0 && wrap_negative ? v.s + (int64_t)axis_size : v.s;
        ok = x >= 0 && x < (int64_t)axis_size;
    } else {
        ok = v.u < axis_size;
        x = ok ? (int64_t)v.u : (int64_t)axis_size;
    }
    if (!ok)
        x = x < 0 ? 0 : (int64_t)axis_size - 1;
    *row = (uint32_t)(x < 0 ? 0 : x);
    return ok;
}

/* Row-major position of coord in t's logical elements. */
static int64_t position(const ref_tensor *t, const uint32_t *coord)
{
    int64_t p = 0;
    for (uint32_t d = 0; d < t->rank; ++d)
        p = p * t->sizes[d] + coord[d];
    return p;
}

/*
 * Under ERROR, the smallest position of an index element outside the axis
 * its component k = position % components addresses (axis_sizes[k]).
 */
static int64_t first_bad(const ref_tensor *indices, const uint32_t *axis_sizes, uint32_t components,
                         bool wrap_negative)
{
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char raw[16];
    if (ref_element_count(indices->rank, indices->sizes) == 0)
        return -1;
    do {
        uint32_t row;
        int64_t p = position(indices, coord);
        ref_get(indices, coord, raw);
        uint32_t k = components > 1 ? coord[indices->rank - 1] : 0;
        if (!ref_index_resolve(ref_index_read(indices->type, raw), axis_sizes[k], wrap_negative,
                               &row))
            return p; /* the walk is in row-major order: the first is the smallest */
    } while (ref_next_coord(indices->rank, indices->sizes, coord));
    return -1;
}

/* Copies input[in] to output[out], or zeros when !ok under ZERO/ERROR. */
static void move(const ref_tensor *input, const uint32_t *in, const ref_tensor *output,
                 const uint32_t *out, bool ok, ref_policy policy)
{
    unsigned char e[16] = {0};
    if (ok || policy == REF_CLAMP)
        ref_get(input, in, e);
    ref_put(output, out, e);
}

bool ref_gather1(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                 uint32_t axis, uint32_t batch_dims, ref_policy policy, bool wrap_negative,
                 int64_t *bad)
{
    const uint32_t r = input->rank, q = indices->rank, b = batch_dims;
    if (axis >= r || b > axis || b > q || output->rank != r - 1 + q - b)
        return false;
    for (uint32_t i = 0; i < b; ++i)
        if (input->sizes[i] != indices->sizes[i])
            return false;
    uint32_t axis_size = input->sizes[axis];
    *bad = policy == REF_ERROR ? first_bad(indices, &axis_size, 1, wrap_negative) : -1;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, in[REF_MAX_DIMS], x[REF_MAX_DIMS];
    unsigned char raw[16];
    do {
        /* o = (p_0..p_{axis-1}, i_b..i_{q-1}, p_{axis+1}..p_{r-1}) */
        for (uint32_t i = 0; i < axis; ++i)
            in[i] = o[i];
        for (uint32_t i = 0; i < b; ++i)
            x[i] = o[i];
        for (uint32_t j = b; j < q; ++j)
            x[j] = o[axis + (j - b)];
        for (uint32_t i = axis + 1; i < r; ++i)
            in[i] = o[axis + (q - b) + (i - axis - 1)];
        ref_get(indices, x, raw);
        bool ok = ref_index_resolve(ref_index_read(indices->type, raw), axis_size, wrap_negative,
                                    &in[axis]);
        move(input, in, output, o, ok, policy);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

bool ref_gather_elements(const ref_tensor *input, const ref_tensor *indices,
                         const ref_tensor *output, uint32_t axis, ref_policy policy, int64_t *bad)
{
    const uint32_t r = input->rank;
    if (axis >= r || indices->rank != r || output->rank != r)
        return false;
    for (uint32_t d = 0; d < r; ++d)
        if ((d != axis && indices->sizes[d] != input->sizes[d]) ||
            output->sizes[d] != indices->sizes[d])
            return false;
    uint32_t axis_size = input->sizes[axis];
    *bad = policy == REF_ERROR ? first_bad(indices, &axis_size, 1, true) : -1;
    if (ref_element_count(r, output->sizes) == 0)
        return true;
    uint32_t c[REF_MAX_DIMS] = {0}, in[REF_MAX_DIMS];
    unsigned char raw[16];
    do {
        memcpy(in, c, r * sizeof *c);
        ref_get(indices, c, raw);
        bool ok = ref_index_resolve(ref_index_read(indices->type, raw), axis_size, true, &in[axis]);
        move(input, in, output, c, ok, policy);
    } while (ref_next_coord(r, output->sizes, c));
    return true;
}

bool ref_gather_nd(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                   uint32_t batch_dims, ref_policy policy, int64_t *bad)
{
    const uint32_t r = input->rank, q = indices->rank, b = batch_dims;
    if (q < 1 || b >= q || b >= r)
        return false;
    const uint32_t m = indices->sizes[q - 1];
    if (m < 1 || m > r - b || output->rank != q - 1 + r - b - m)
        return false;
    for (uint32_t i = 0; i < b; ++i)
        if (input->sizes[i] != indices->sizes[i])
            return false;
    *bad = policy == REF_ERROR ? first_bad(indices, input->sizes + b, m, true) : -1;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, in[REF_MAX_DIMS], x[REF_MAX_DIMS];
    unsigned char raw[16];
    do {
        /* o = (batch.., i.. (q-1-b of them), trailing input dims) */
        for (uint32_t i = 0; i < b; ++i)
            in[i] = o[i];
        for (uint32_t j = 0; j + 1 < q; ++j)
            x[j] = o[j];
        for (uint32_t t = b + m; t < r; ++t)
            in[t] = o[(q - 1) + (t - b - m)];
        bool ok = true;
        for (uint32_t k = 0; k < m; ++k) {
            x[q - 1] = k;
            ref_get(indices, x, raw);
            ok &= ref_index_resolve(ref_index_read(indices->type, raw), input->sizes[b + k], true,
                                    &in[b + k]);
        }
        move(input, in, output, o, ok, policy);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}
