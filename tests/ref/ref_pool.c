/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_pool.h"

static double read_real(const ref_tensor *t, const uint32_t *coord)
{
    unsigned char e[8];
    ref_get(t, coord, e);
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, e, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, e, 4);
    return f;
}

static void write_real(const ref_tensor *t, const uint32_t *coord, double y)
{
    unsigned char e[8];
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(y);
        memcpy(e, &h, 2);
    } else {
        float f = (float)y;
        memcpy(e, &f, 4);
    }
    ref_put(t, coord, e);
}

/* An integer element as a signed or unsigned 64-bit value. */
static void read_int(const ref_tensor *t, const uint32_t *coord, int64_t *s, uint64_t *u)
{
    unsigned char e[8] = {0};
    ref_get(t, coord, e);
    switch ((int)t->type) {
    case DML_TENSOR_DATA_TYPE_INT8: *s = *(int8_t *)e; break;
    case DML_TENSOR_DATA_TYPE_INT16: {
        int16_t v;
        memcpy(&v, e, 2);
        *s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, e, 4);
        *s = v;
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT64: memcpy(s, e, 8); break;
    default: memcpy(u, e, 8); return;
    }
    *u = 0;
}

/* a (float value or integer) beats b: the max rule. */
static bool beats(const ref_tensor *in, const uint32_t *a, const uint32_t *b)
{
    if (ref_type_is_float(in->type)) {
        double x = read_real(in, a), y = read_real(in, b);
        if (isnan(x))
            return false;
        if (isnan(y))
            return true;
        return x > y || (x == 0 && y == 0 && !signbit(x) && signbit(y));
    }
    int64_t xs = 0, ys = 0;
    uint64_t xu = 0, yu = 0;
    read_int(in, a, &xs, &xu);
    read_int(in, b, &ys, &yu);
    return ref_type_is_signed_int(in->type) ? xs > ys : xu > yu;
}

/* The type's lowest value's bytes (-inf for floats). */
static void lowest(DML_TENSOR_DATA_TYPE type, unsigned char *e)
{
    memset(e, 0, 8);
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
        float f = -INFINITY;
        memcpy(e, &f, 4);
        break;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h = 0xfc00;
        memcpy(e, &h, 2);
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT8: e[0] = 0x80; break;
    case DML_TENSOR_DATA_TYPE_INT16: e[1] = 0x80; break;
    case DML_TENSOR_DATA_TYPE_INT32: e[3] = 0x80; break;
    case DML_TENSOR_DATA_TYPE_INT64: e[7] = 0x80; break;
    default: break; /* unsigned: 0 */
    }
}

unsigned ref_pool_ulps(const ref_pool_args *a)
{
    unsigned window = 1;
    for (uint32_t i = 0; i < a->dims; ++i)
        window *= a->window[i];
    switch (a->op) {
    case REF_POOL_MAX: return 0;
    case REF_POOL_AVERAGE: return window + 2;
    default: return window + 2 + (a->p == 1 ? 0 : a->p == 2 ? 3 : 64);
    }
}

bool ref_pool(const ref_pool_args *a, const ref_tensor *in, const ref_tensor *out,
              const ref_tensor *indices)
{
    uint32_t rank = a->dims + 2;
    if ((a->dims != 2 && a->dims != 3) || in->rank != rank || out->rank != rank ||
        out->type != in->type || in->sizes[0] != out->sizes[0] || in->sizes[1] != out->sizes[1])
        return false;
    if (a->op != REF_POOL_MAX && !ref_type_is_float(in->type))
        return false;
    if (indices && (a->op != REF_POOL_MAX || indices->rank != rank ||
                    memcmp(indices->sizes, out->sizes, rank * sizeof out->sizes[0]) != 0))
        return false;
    for (uint32_t i = 0; i < a->dims; ++i)
        if (a->strides[i] < 1 || a->window[i] < 1 || a->dilations[i] < 1)
            return false;
    if (ref_element_count(rank, out->sizes) == 0)
        return true;
    uint32_t o[5] = {0};
    do {
        uint32_t k[3] = {0}, best[5], at[5];
        bool found = false;
        double sum = 0;
        uint64_t valid = 0, padded = 0;
        at[0] = o[0];
        at[1] = o[1];
        do {
            bool inside = true, in_padded = true;
            for (uint32_t i = 0; i < a->dims; ++i) {
                int64_t pos = (int64_t)o[2 + i] * a->strides[i] - a->start[i] +
                              (int64_t)k[i] * a->dilations[i];
                inside = inside && pos >= 0 && pos < in->sizes[2 + i];
                in_padded = in_padded && pos >= -(int64_t)a->start[i] &&
                            pos < (int64_t)in->sizes[2 + i] + a->end[i];
                at[2 + i] = inside ? (uint32_t)pos : 0;
            }
            padded += in_padded;
            if (!inside)
                continue;
            ++valid;
            if (a->op == REF_POOL_MAX) {
                if (!found || beats(in, at, best))
                    memcpy(best, at, sizeof at);
                found = true;
            } else {
                double x = read_real(in, at);
                sum += a->op == REF_POOL_AVERAGE ? x
                       : a->p == 1               ? fabs(x)
                       : a->p == 2               ? x * x
                                                 : pow(fabs(x), a->p);
            }
        } while (ref_next_coord(a->dims, a->window, k));
        if (a->op == REF_POOL_MAX) {
            unsigned char e[8];
            uint64_t flat = 0;
            if (found) {
                ref_get(in, best, e);
                for (uint32_t d = 0; d < rank; ++d)
                    flat = flat * in->sizes[d] + best[d];
            } else {
                lowest(in->type, e);
            }
            ref_put(out, o, e);
            if (indices) {
                unsigned char ie[8];
                uint32_t f32 = (uint32_t)flat;
                if (indices->type == DML_TENSOR_DATA_TYPE_UINT32)
                    memcpy(ie, &f32, 4);
                else
                    memcpy(ie, &flat, 8);
                ref_put(indices, o, ie);
            }
        } else if (a->op == REF_POOL_AVERAGE) {
            uint64_t divisor = a->include_padding ? padded : valid;
            write_real(out, o, divisor ? sum / (double)divisor : 0.0);
        } else {
            write_real(out, o, a->p == 1 ? sum : a->p == 2 ? sqrt(sum) : pow(sum, 1.0 / a->p));
        }
    } while (ref_next_coord(rank, out->sizes, o));
    return true;
}
