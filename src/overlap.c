/* SPDX-License-Identifier: MIT */
/*
 * An output never overlaps itself: every element of an output tensor has
 * bytes of its own, or work-items writing two elements would race. Decided
 * exactly, in steps that cost more only when the cheaper ones cannot tell:
 *
 *   1. Zero strides on a dimension of more than one element collide at once.
 *   2. Sufficient: dimensions sorted by |stride|, each stride at least the
 *      span of the dimensions below it. Accepts every packed, padded and
 *      permuted layout.
 *   3. Exact, for the rest. Two elements collide iff a nonzero vector d,
 *      |d_i| < size_i, has sum d_i * stride_i = 0. A dimension whose stride
 *      exceeds the span of all the others must have d_i = 0: dropped. The
 *      strides left are divided by their gcd. Two dimensions left: d is a
 *      multiple of (stride_b, -stride_a), a closed form. More: each element's
 *      offset is marked in a bitmap when the span is at most BITMAP_BITS (the
 *      walk stops at the first collision, so it costs at most BITMAP_BITS + 1
 *      steps); beyond that dmlcl refuses as unsupported rather than guess.
 *
 * Negative strides cannot reach here (DML_BUFFER_TENSOR_DESC.Strides are
 * UINT); the steps use |stride| anyway, as reversing a dimension moves its
 * elements without making any two meet.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checked.h"
#include "internal.h"

#define BITMAP_BITS (UINT64_C(1) << 24)

typedef struct dim {
    uint64_t size, stride; /* stride: |element stride|, reduced by the gcd in step 3 */
    uint32_t index;        /* the tensor's dimension */
} dim;

typedef struct dims {
    uint32_t n;
    dim d[DMLI_MAX_RANK];
} dims;

/* Coordinates of two colliding elements, in the tensor's dimensions. */
typedef struct collision {
    uint64_t a[DMLI_MAX_RANK], b[DMLI_MAX_RANK];
} collision;

static uint64_t magnitude(int64_t v)
{
    return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* sum (size-1) * stride: at most the tensor's extent, checked under 2^63 at import. */
static uint64_t span(const dims *s, uint32_t skip)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < s->n; ++i)
        if (i != skip)
            total += (s->d[i].size - 1) * s->d[i].stride;
    return total;
}

static void sort_by_stride(dims *s)
{
    for (uint32_t i = 1; i < s->n; ++i)
        for (uint32_t j = i; j > 0 && s->d[j].stride < s->d[j - 1].stride; --j) {
            dim t = s->d[j];
            s->d[j] = s->d[j - 1];
            s->d[j - 1] = t;
        }
}

static bool nested(const dims *s)
{
    uint64_t below = 0; /* span of the dimensions already seen */
    for (uint32_t i = 0; i < s->n; ++i) {
        if (s->d[i].stride <= below)
            return false;
        below += (s->d[i].size - 1) * s->d[i].stride;
    }
    return true;
}

static void drop_dominant(dims *s)
{
    for (uint32_t i = 0; i < s->n;) {
        if (s->d[i].stride > span(s, i)) {
            s->d[i] = s->d[--s->n];
            i = 0;
        } else {
            ++i;
        }
    }
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void divide_by_gcd(dims *s)
{
    uint64_t g = 0;
    for (uint32_t i = 0; i < s->n; ++i)
        g = gcd(g, s->d[i].stride);
    for (uint32_t i = 0; g > 1 && i < s->n; ++i)
        s->d[i].stride /= g;
}

/* Two coprime strides: the smallest collision is (stride_b, 0) against (0, stride_a). */
static bool pair_collides(const dims *s, collision *c)
{
    const dim *x = &s->d[0], *y = &s->d[1];
    if (y->stride > x->size - 1 || x->stride > y->size - 1)
        return false;
    c->a[x->index] = y->stride;
    c->b[y->index] = x->stride;
    return true;
}

/* Walks coordinates of s in odometer order; offset is sum coord * stride. */
static bool next(const dims *s, uint64_t *coord, uint64_t *offset)
{
    for (uint32_t i = 0; i < s->n; ++i) {
        if (++coord[i] < s->d[i].size) {
            *offset += s->d[i].stride;
            return true;
        }
        *offset -= (s->d[i].size - 1) * s->d[i].stride;
        coord[i] = 0;
    }
    return false;
}

static void place(const dims *s, const uint64_t *coord, uint64_t *out)
{
    for (uint32_t i = 0; i < s->n; ++i)
        out[s->d[i].index] = coord[i];
}

/* The first element (in walk order) at offset `at`. */
static void first_at(const dims *s, uint64_t at, uint64_t *out)
{
    uint64_t coord[DMLI_MAX_RANK] = {0}, offset = 0;
    while (offset != at && next(s, coord, &offset))
        ;
    place(s, coord, out);
}

static HRESULT bitmap_collides(const dims *s, collision *c, bool *found)
{
    uint64_t bits = span(s, UINT32_MAX) + 1;
    unsigned char *map = calloc((size_t)(bits + 7) / 8, 1);
    if (!map)
        return dmli_fail(E_OUTOFMEMORY, "out of host memory checking an output's strides");
    uint64_t coord[DMLI_MAX_RANK] = {0}, offset = 0;
    *found = false;
    do {
        unsigned char bit = (unsigned char)(1u << (offset & 7));
        if (map[offset / 8] & bit) {
            place(s, coord, c->b);
            first_at(s, offset, c->a);
            *found = true;
            break;
        }
        map[offset / 8] |= bit;
    } while (next(s, coord, &offset));
    free(map);
    return S_OK;
}

static const char *format_strides(char *buf, size_t len, const dmli_tensor *t)
{
    uint64_t v[DMLI_MAX_RANK];
    for (uint32_t i = 0; i < t->rank; ++i)
        v[i] = (uint64_t)t->strides[i];
    return dmli_format_dims(buf, len, t->rank, v);
}

static HRESULT refuse(const char *op, const char *field, const dmli_tensor *t, const collision *c)
{
    char strides[DMLI_DIMS_BUF], sizes[DMLI_DIMS_BUF], a[DMLI_DIMS_BUF], b[DMLI_DIMS_BUF];
    return dmli_fail(DXGI_ERROR_UNSUPPORTED,
                     "%s: %s.Strides %s with Sizes %s put elements %s and %s at one address: "
                     "an output never overlaps itself (its writes would race)",
                     op, field, format_strides(strides, sizeof strides, t),
                     dmli_format_dims(sizes, sizeof sizes, t->rank, t->sizes),
                     dmli_format_dims(a, sizeof a, t->rank, c->a),
                     dmli_format_dims(b, sizeof b, t->rank, c->b));
}

static HRESULT zero_stride(const char *op, const char *field, const dmli_tensor *t, uint32_t i)
{
    uint64_t a[DMLI_MAX_RANK] = {0}, b[DMLI_MAX_RANK] = {0};
    char as[DMLI_DIMS_BUF], bs[DMLI_DIMS_BUF];
    b[i] = 1;
    return dmli_fail(DXGI_ERROR_UNSUPPORTED,
                     "%s: %s.Strides[%u] (0) on a dimension of size %llu puts elements %s and %s "
                     "at one address: an output never overlaps itself (its writes would race)",
                     op, field, i, (unsigned long long)t->sizes[i],
                     dmli_format_dims(as, sizeof as, t->rank, a),
                     dmli_format_dims(bs, sizeof bs, t->rank, b));
}

HRESULT dmli_tensor_check_disjoint(const char *op, const char *field, const dmli_tensor *t)
{
    if (t->elements == 0)
        return S_OK;
    dims s = {0};
    for (uint32_t i = 0; i < t->rank; ++i) {
        if (t->sizes[i] < 2)
            continue;
        if (t->strides[i] == 0)
            return zero_stride(op, field, t, i);
        s.d[s.n++] = (dim){t->sizes[i], magnitude(t->strides[i]), i};
    }
    sort_by_stride(&s);
    if (nested(&s))
        return S_OK;
    drop_dominant(&s);
    if (s.n < 2)
        return S_OK;
    divide_by_gcd(&s);
    collision c = {{0}, {0}};
    if (s.n == 2)
        return pair_collides(&s, &c) ? refuse(op, field, t, &c) : S_OK;
    char strides[DMLI_DIMS_BUF], sizes[DMLI_DIMS_BUF];
    DMLI_UNSUPPORTED_IF(span(&s, UINT32_MAX) >= BITMAP_BITS,
                        "%s: %s.Strides %s with Sizes %s interleave %u dimensions over more "
                        "than 2^24 elements; dmlcl cannot prove within its bounds that no two "
                        "elements share an address (an output never overlaps itself)",
                        op, field, format_strides(strides, sizeof strides, t),
                        dmli_format_dims(sizes, sizeof sizes, t->rank, t->sizes), s.n);
    bool found = false;
    DMLI_TRY(bitmap_collides(&s, &c, &found));
    return found ? refuse(op, field, t, &c) : S_OK;
}
