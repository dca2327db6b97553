/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_scan.h"

static double read_float(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

static void write_float(DML_TENSOR_DATA_TYPE t, double v, unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

/* An integer element sign- or zero-extended to 64 bits. */
static uint64_t read_int(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_INT8: return (uint64_t)(int64_t)(int8_t)p[0];
    case DML_TENSOR_DATA_TYPE_UINT8: return p[0];
    case DML_TENSOR_DATA_TYPE_INT16: {
        int16_t v;
        memcpy(&v, p, 2);
        return (uint64_t)(int64_t)v;
    }
    case DML_TENSOR_DATA_TYPE_UINT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        return (uint64_t)(int64_t)v;
    }
    case DML_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static bool same_shape(const ref_tensor *a, const ref_tensor *b)
{
    return a->type == b->type && a->rank == b->rank &&
           memcmp(a->sizes, b->sizes, a->rank * sizeof a->sizes[0]) == 0;
}

/* Row-major logical position of coord in sizes. */
static uint64_t linear(uint32_t rank, const uint32_t *sizes, const uint32_t *coord)
{
    uint64_t i = 0;
    for (uint32_t d = 0; d < rank; ++d)
        i = i * sizes[d] + coord[d];
    return i;
}

bool ref_cumulative(bool product, const ref_tensor *in, const ref_tensor *out, uint32_t axis,
                    bool reverse, bool exclusive, double *bound)
{
    if (!same_shape(in, out) || axis >= in->rank)
        return false;
    if (ref_element_count(in->rank, in->sizes) == 0)
        return true;
    bool is_float = ref_type_is_float(in->type);
    uint32_t n = in->sizes[axis];
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char e[16];
    /* Every sequence: the coordinates with c[axis] = 0. */
    do {
        if (coord[axis] != 0)
            continue;
        double sum = product ? 1.0 : 0.0, mag = product ? 1.0 : 0.0;
        uint64_t isum = product ? 1 : 0;
        for (uint32_t s = 0; s < n; ++s) {
            uint32_t c[REF_MAX_DIMS];
            memcpy(c, coord, sizeof c);
            c[axis] = reverse ? n - 1 - s : s;
            ref_get(in, c, e);
            uint32_t combined = exclusive ? s : s + 1;
            if (is_float) {
                double x = read_float(in->type, e);
                if (!exclusive) {
                    sum = product ? sum * x : sum + x;
                    mag = product ? mag : mag + fabs(x);
                }
                write_float(out->type, sum, e);
                if (bound) {
                    double b = product ? combined * 0x1p-24 * fabs(sum) + combined * 0x1p-149
                                       : combined * 0x1p-24 * mag;
                    bound[linear(out->rank, out->sizes, c)] = b;
                }
                if (exclusive) {
                    sum = product ? sum * x : sum + x;
                    mag = product ? mag : mag + fabs(x);
                }
            } else {
                uint64_t x = read_int(in->type, e);
                if (!exclusive)
                    isum = product ? isum * x : isum + x;
                memcpy(e, &isum, 8); /* the low bytes: the wrap into the width */
                if (bound)
                    bound[linear(out->rank, out->sizes, c)] = 0;
                if (exclusive)
                    isum = product ? isum * x : isum + x;
            }
            ref_put(out, c, e);
        }
    } while (ref_next_coord(in->rank, in->sizes, coord));
    return true;
}

/* ---- TOP_K ----------------------------------------------------------------------------- */

typedef struct ranked {
    unsigned char bytes[8];
    uint32_t index;
    bool nan;
    double f;   /* floats */
    uint64_t u; /* integers: sign-extended (signed) or zero-extended */
} ranked;

static DML_TENSOR_DATA_TYPE sort_type;
static bool sort_smallest;

/* -1 when a ranks before b. */
static int compare_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int c = 0; /* a's value against b's: -1 less, 1 greater */
    if (ref_type_is_float(sort_type)) {
        if (a->nan || b->nan)
            c = a->nan && b->nan ? 0 : a->nan ? 1 : -1;
        else
            c = a->f < b->f ? -1 : a->f > b->f ? 1 : 0;
    } else if (ref_type_is_signed_int(sort_type)) {
        int64_t x = (int64_t)a->u, y = (int64_t)b->u;
        c = x < y ? -1 : x > y ? 1 : 0;
    } else {
        c = a->u < b->u ? -1 : a->u > b->u ? 1 : 0;
    }
    if (c != 0)
        return sort_smallest ? c : -c;
    return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

bool ref_top_k(const ref_tensor *in, const ref_tensor *values, const ref_tensor *indices,
               uint32_t axis, uint32_t k, bool smallest)
{
    if (axis >= in->rank || values->type != in->type || values->rank != in->rank ||
        indices->rank != in->rank ||
        (indices->type != DML_TENSOR_DATA_TYPE_UINT32 &&
         indices->type != DML_TENSOR_DATA_TYPE_UINT64) ||
        k < 1 || k > in->sizes[axis])
        return false;
    for (uint32_t d = 0; d < in->rank; ++d) {
        uint32_t want = d == axis ? k : in->sizes[d];
        if (values->sizes[d] != want || indices->sizes[d] != want)
            return false;
    }
    uint32_t n = in->sizes[axis];
    ranked *row = malloc(n * sizeof *row);
    if (!row)
        return false;
    sort_type = in->type;
    sort_smallest = smallest;
    uint32_t coord[REF_MAX_DIMS] = {0};
    do {
        if (coord[axis] != 0)
            continue;
        uint32_t c[REF_MAX_DIMS];
        memcpy(c, coord, sizeof c);
        for (uint32_t s = 0; s < n; ++s) {
            c[axis] = s;
            ranked *r = &row[s];
            memset(r, 0, sizeof *r);
            ref_get(in, c, r->bytes);
            r->index = s;
            if (ref_type_is_float(in->type)) {
                r->f = read_float(in->type, r->bytes);
                r->nan = isnan(r->f);
            } else {
                r->u = read_int(in->type, r->bytes);
            }
        }
        qsort(row, n, sizeof *row, compare_ranked);
        for (uint32_t r = 0; r < k; ++r) {
            c[axis] = r;
            ref_put(values, c, row[r].bytes);
            uint64_t idx = row[r].index;
            unsigned char e[8];
            memcpy(e, &idx, 8);
            ref_put(indices, c, e);
        }
    } while (ref_next_coord(in->rank, in->sizes, coord));
    free(row);
    return true;
}
