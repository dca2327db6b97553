/* SPDX-License-Identifier: MIT */
/*
 * ref_broadcast.c: IDENTITY, broadcast and the broadcast shape rules, as
 * plain loops over output coordinates.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ref_broadcast.h"

/* ---- Half precision --------------------------------------------------------------- */

double ref_half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    double v;
    if (exp == 0x1F)
        v = man ? NAN : INFINITY;
    else if (exp == 0)
        v = ldexp(man, -24);
    else
        v = ldexp(man + 1024, exp - 25);
    return sign ? -v : v;
}

uint16_t ref_half_from_double(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x))
        return 0x7E00 | sign;
    if (a >= 65520.0) /* halfway between 65504 and 2^16 rounds up to infinity */
        return 0x7C00 | sign;
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1 < -14 ? -14 : e - 1;
    /* a / 2^(exp-10): the significand in units of the last place, rounded to even */
    double units = ldexp(a, 10 - exp);
    double r = nearbyint(units);
    uint32_t m = (uint32_t)r;
    if (m == 2048) { /* rounded up into the next binade */
        m = 1024;
        ++exp;
    }
    if (m < 1024) /* subnormal (or zero) */
        return (uint16_t)(sign | m);
    return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | (m - 1024));
}

/* ---- IDENTITY ---------------------------------------------------------------------- */

static bool same_shape(const ref_tensor *a, const ref_tensor *b)
{
    if (a->type != b->type || a->rank != b->rank)
        return false;
    for (uint32_t i = 0; i < a->rank; ++i)
        if (a->sizes[i] != b->sizes[i])
            return false;
    return true;
}

static void scale_bias_element(DML_TENSOR_DATA_TYPE type, const DML_SCALE_BIAS *sb, const void *src,
                               void *dst)
{
    if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
        float x, y;
        memcpy(&x, src, 4);
        y = (float)((double)x * sb->Scale + sb->Bias);
        memcpy(dst, &y, 4);
    } else if (type == DML_TENSOR_DATA_TYPE_FLOAT64) {
        double x, y;
        memcpy(&x, src, 8);
        y = x * sb->Scale + sb->Bias;
        memcpy(dst, &y, 8);
    } else {
        uint16_t h;
        memcpy(&h, src, 2);
        h = ref_half_from_double(ref_half_to_double(h) * sb->Scale + sb->Bias);
        memcpy(dst, &h, 2);
    }
}

bool ref_identity(const ref_tensor *input, const ref_tensor *output, const DML_SCALE_BIAS *sb)
{
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char in[16], out[16];
    if (!same_shape(input, output))
        return false;
    if (sb && input->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
        input->type != DML_TENSOR_DATA_TYPE_FLOAT16 && input->type != DML_TENSOR_DATA_TYPE_FLOAT64)
        return false;
    if (ref_element_count(input->rank, input->sizes) == 0)
        return true;
    do {
        ref_get(input, c, in);
        if (sb)
            scale_bias_element(input->type, sb, in, out);
        else
            memcpy(out, in, input->elem_size);
        ref_put(output, c, out);
    } while (ref_next_coord(input->rank, input->sizes, c));
    return true;
}

/* Bits of a float of this type, ordered so that adjacent floats differ by 1. */
static int64_t ordered(DML_TENSOR_DATA_TYPE type, const void *p, bool *nan)
{
    int64_t bits = 0, sign_bit;
    if (type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        *nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
        bits = h;
        sign_bit = 0x8000;
    } else if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
        uint32_t f;
        memcpy(&f, p, 4);
        *nan = (f & 0x7F800000u) == 0x7F800000u && (f & 0x7FFFFFu);
        bits = f;
        sign_bit = 0x80000000ll;
    } else {
        double d;
        memcpy(&d, p, 8);
        *nan = isnan(d);
        memcpy(&bits, p, 8);
        return bits < 0 ? INT64_MIN - bits : bits;
    }
    return (bits & sign_bit) ? -(bits & (sign_bit - 1)) : bits;
}

bool ref_float_close(DML_TENSOR_DATA_TYPE type, const void *a, const void *b, unsigned ulps)
{
    bool na, nb;
    int64_t x = ordered(type, a, &na), y = ordered(type, b, &nb);
    if (na || nb)
        return na && nb;
    return (x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x) <= ulps;
}

/* ---- Broadcast ------------------------------------------------------------------------ */

static bool fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && n)
        vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return false;
}

static bool shape_numpy(uint32_t rank, const int64_t *data, uint32_t count, const int64_t *target,
                        uint32_t *map, char *why, size_t n)
{
    if (count < rank)
        return fail(why, n, "target rank %u < data rank %u", count, rank);
    for (uint32_t k = 0; k < rank; ++k) {
        map[k] = count - rank + k;
        if (data[k] != 1 && data[k] != target[map[k]])
            return fail(why, n, "data dim %u (%lld) vs target %lld", k, (long long)data[k],
                        (long long)target[map[k]]);
    }
    return true;
}

static bool shape_explicit(uint32_t rank, const int64_t *data, uint32_t count,
                           const int64_t *target, uint32_t naxes, const int64_t *axes,
                           uint32_t *map, char *why, size_t n)
{
    if (!axes)
        return fail(why, n, "explicit mode without axes_mapping");
    if (naxes != rank && !(rank == 0 && naxes == 1))
        return fail(why, n, "%u axes for data rank %u", naxes, rank);
    for (uint32_t k = 0; k < naxes; ++k) {
        int64_t d = rank ? data[k] : 1;
        if (axes[k] < 0 || axes[k] >= (int64_t)count)
            return fail(why, n, "axis %lld outside target rank %u", (long long)axes[k], count);
        if (k > 0 && axes[k] <= axes[k - 1])
            return fail(why, n, "axes not strictly increasing");
        if (rank == 0 && target[axes[k]] != 1)
            return fail(why, n, "0-D data mapped to target dim %lld", (long long)target[axes[k]]);
        if (d != 1 && d != target[axes[k]])
            return fail(why, n, "data dim %u (%lld) vs target %lld", k, (long long)d,
                        (long long)target[axes[k]]);
        map[k] = (uint32_t)axes[k];
    }
    return true;
}

bool ref_broadcast_shape(ref_broadcast_mode mode, uint32_t rank, const int64_t *data,
                         uint32_t count, const int64_t *target, uint32_t naxes, const int64_t *axes,
                         uint32_t *out_rank, int64_t *out, uint32_t *map, char *why, size_t n)
{
    for (uint32_t i = 0; i < count; ++i)
        if (target[i] < 0)
            return fail(why, n, "negative target value %lld", (long long)target[i]);
    if (mode != REF_BROADCAST_EXPLICIT && axes)
        return fail(why, n, "axes_mapping outside explicit mode");
    if (mode == REF_BROADCAST_NUMPY || mode == REF_BROADCAST_EXPLICIT) {
        bool ok = mode == REF_BROADCAST_NUMPY
                      ? shape_numpy(rank, data, count, target, map, why, n)
                      : shape_explicit(rank, data, count, target, naxes, axes, map, why, n);
        if (!ok)
            return false;
        *out_rank = count;
        memcpy(out, target, count * sizeof *target);
        return true;
    }
    *out_rank = rank > count ? rank : count;
    for (uint32_t o = 0; o < *out_rank; ++o) {
        int64_t d = o + rank >= *out_rank ? data[o + rank - *out_rank] : 1;
        int64_t t = o + count >= *out_rank ? target[o + count - *out_rank] : 1;
        if (d != t && d != 1 && t != 1)
            return fail(why, n, "dims %lld and %lld", (long long)d, (long long)t);
        out[o] = d == 1 ? t : d;
    }
    for (uint32_t k = 0; k < rank; ++k)
        map[k] = *out_rank - rank + k;
    return true;
}

bool ref_broadcast(const ref_tensor *input, const ref_tensor *output, const uint32_t *map)
{
    uint32_t o[REF_MAX_DIMS] = {0}, i[REF_MAX_DIMS];
    unsigned char e[16];
    if (input->type != output->type)
        return false;
    for (uint32_t k = 0; k < input->rank; ++k)
        if (map[k] >= output->rank ||
            (input->sizes[k] != 1 && input->sizes[k] != output->sizes[map[k]]))
            return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    do {
        for (uint32_t k = 0; k < input->rank; ++k)
            i[k] = input->sizes[k] == 1 ? 0 : o[map[k]];
        ref_get(input, i, e);
        ref_put(output, o, e);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}
