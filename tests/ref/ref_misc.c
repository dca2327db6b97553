/* SPDX-License-Identifier: MIT */
/* ref_misc.c: see ref_misc.h. */
#include <string.h>

#include "ref_misc.h"

void ref_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    /* The paper's S-box: two 32x32 -> 64-bit products per round, the words permuted and the
     * key mixed into the high halves; the key bumped by the Weyl constants after each round. */
    uint32_t x[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
        uint64_t p0 = (uint64_t)0xD2511F53u * x[0], p1 = (uint64_t)0xCD9E8D57u * x[2];
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0;
        uint32_t y1 = (uint32_t)p1;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1;
        uint32_t y3 = (uint32_t)p0;
        x[0] = y0;
        x[1] = y1;
        x[2] = y2;
        x[3] = y3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    memcpy(out, x, sizeof x);
}

/* c (4 little-endian words) plus n, modulo 2^128. */
static void add128(const uint32_t c[4], uint64_t n, uint32_t out[4])
{
    uint64_t carry = n;
    for (int i = 0; i < 4; ++i) {
        uint64_t s = (uint64_t)c[i] + (carry & 0xFFFFFFFFu);
        out[i] = (uint32_t)s;
        carry = (carry >> 32) + (s >> 32);
    }
}

bool ref_random_generator(const uint32_t state[6], const ref_tensor *out, uint32_t next[6])
{
    if (out->type != DML_TENSOR_DATA_TYPE_UINT32)
        return false;
    uint64_t n = ref_element_count(out->rank, out->sizes);
    uint32_t c[REF_MAX_DIMS] = {0}, block[4] = {0};
    for (uint64_t e = 0; e < n; ++e) {
        if (e % 4 == 0) {
            uint32_t ctr[4];
            add128(state, e / 4, ctr);
            ref_philox4x32_10(ctr, state + 4, block);
        }
        ref_put(out, c, &block[e % 4]);
        ref_next_coord(out->rank, out->sizes, c);
    }
    if (next) {
        add128(state, (n + 3) / 4, next);
        next[4] = state[4];
        next[5] = state[5];
    }
    return true;
}

static bool is_nonzero(const ref_tensor *t, const uint32_t *c)
{
    unsigned char raw[8] = {0};
    ref_get(t, c, raw);
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
        float v;
        memcpy(&v, raw, 4);
        return v != 0.0f;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, raw, 2);
        return (h & 0x7FFFu) != 0; /* +-0 are the only zeros; NaNs and subnormals are not */
    }
    default:
        for (size_t i = 0; i < t->elem_size; ++i)
            if (raw[i])
                return true;
        return false;
    }
}

bool ref_nonzero_coordinates(const ref_tensor *input, uint32_t *count, const ref_tensor *coords)
{
    uint32_t r = coords->rank;
    uint64_t elements = ref_element_count(input->rank, input->sizes);
    if (r < 2 || coords->type != DML_TENSOR_DATA_TYPE_UINT32 || coords->sizes[r - 2] != elements ||
        coords->sizes[r - 1] > input->rank)
        return false;
    uint32_t n = coords->sizes[r - 1], c[REF_MAX_DIMS] = {0}, at[REF_MAX_DIMS] = {0};
    uint32_t found = 0;
    for (uint64_t e = 0; e < elements; ++e) {
        if (is_nonzero(input, c)) {
            at[r - 2] = found++;
            for (uint32_t j = 0; j < n; ++j) {
                at[r - 1] = j;
                uint32_t v = c[input->rank - n + j];
                ref_put(coords, at, &v);
            }
        }
        ref_next_coord(input->rank, input->sizes, c);
    }
    *count = found;
    return true;
}

/* A length or index as a 64-bit value; signed negatives as 0 (lengths) */
static uint64_t read_u64(const ref_tensor *t, const uint32_t *c)
{
    unsigned char raw[8] = {0};
    ref_get(t, c, raw);
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, raw, 4);
        return v;
    }
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, raw, 4);
        return v < 0 ? 0 : (uint64_t)v;
    }
    case DML_TENSOR_DATA_TYPE_INT64: {
        int64_t v;
        memcpy(&v, raw, 8);
        return v < 0 ? 0 : (uint64_t)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, raw, 8);
        return v;
    }
    }
}

bool ref_reverse_subsequences(const ref_tensor *input, const ref_tensor *lengths, uint32_t axis,
                              const ref_tensor *out)
{
    if (input->rank != out->rank || lengths->rank != out->rank || axis >= out->rank ||
        input->type != out->type)
        return false;
    uint64_t elements = ref_element_count(out->rank, out->sizes);
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char v[16];
    for (uint64_t e = 0; e < elements; ++e) {
        uint32_t lc[REF_MAX_DIMS], ic[REF_MAX_DIMS];
        memcpy(lc, c, sizeof lc);
        memcpy(ic, c, sizeof ic);
        lc[axis] = 0;
        uint64_t len = read_u64(lengths, lc);
        if (len > out->sizes[axis])
            len = out->sizes[axis];
        if (c[axis] < len)
            ic[axis] = (uint32_t)(len - 1 - c[axis]);
        ref_get(input, ic, v);
        ref_put(out, c, v);
        ref_next_coord(out->rank, out->sizes, c);
    }
    return true;
}

bool ref_max_unpooling(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *out)
{
    if (input->type != out->type || indices->rank != input->rank)
        return false;
    uint64_t outputs = ref_element_count(out->rank, out->sizes);
    uint64_t inputs = ref_element_count(input->rank, input->sizes);
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char zero[16] = {0}, v[16];
    for (uint64_t e = 0; e < outputs; ++e) {
        ref_put(out, c, zero);
        ref_next_coord(out->rank, out->sizes, c);
    }
    memset(c, 0, sizeof c);
    for (uint64_t e = 0; e < inputs; ++e) {
        uint64_t at = read_u64(indices, c);
        if (at < outputs) {
            uint32_t oc[REF_MAX_DIMS];
            for (uint32_t k = out->rank; k-- > 0;) {
                oc[k] = (uint32_t)(at % out->sizes[k]);
                at /= out->sizes[k];
            }
            ref_get(input, c, v);
            ref_put(out, oc, v);
        }
        ref_next_coord(input->rank, input->sizes, c);
    }
    return true;
}
