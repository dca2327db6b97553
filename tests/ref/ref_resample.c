/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_resample.h"

static double read_value(const ref_tensor *t, const uint32_t *coord)
{
    unsigned char e[8];
    ref_get(t, coord, e);
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, e, 2);
        return ref_half_to_double(h);
    }
    case DML_TENSOR_DATA_TYPE_INT8: return (int8_t)e[0];
    case DML_TENSOR_DATA_TYPE_UINT8: return e[0];
    default: {
        float f;
        memcpy(&f, e, 4);
        return f;
    }
    }
}

static void write_value(const ref_tensor *t, const uint32_t *coord, double y)
{
    unsigned char e[8] = {0};
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h = ref_half_from_double(y);
        memcpy(e, &h, 2);
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8: {
        double lo = t->type == DML_TENSOR_DATA_TYPE_INT8 ? -128 : 0;
        double hi = t->type == DML_TENSOR_DATA_TYPE_INT8 ? 127 : 255;
        double r = nearbyint(y); /* the default rounding: to nearest even */
        r = r < lo ? lo : r > hi ? hi : r;
        if (t->type == DML_TENSOR_DATA_TYPE_INT8)
            e[0] = (unsigned char)(int8_t)r;
        else
            e[0] = (unsigned char)r;
        break;
    }
    default: {
        float f = (float)y;
        memcpy(e, &f, 4);
    }
    }
    ref_put(t, coord, e);
}

static bool supported(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16 ||
           t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

/* Dimension k's input coordinate for output coordinate o. */
static float coordinate(const ref_resample_desc *d, int k, uint32_t o)
{
    double in_off = d->input_offsets[k];
    if (!d->linear && d->half_up)
        in_off -= 0.5;
    float y = d->scales[k], inv = (float)(1.0 / (double)y);
    float u = (float)o - d->output_offsets[k];
    float q = u * inv;
    q = fmaf(fmaf(-q, y, u), inv, q);
    return q - (float)in_off;
}

/* Dimension d's neighbours and the weight of the second for output coordinate o. */
static void neighbours(const ref_resample_desc *d, int k, uint32_t n, uint32_t o, uint32_t *i0,
                       uint32_t *i1, double *w)
{
    float x = coordinate(d, k, o);
    float f = d->linear || !d->ceil ? floorf(x) : ceilf(x);
    *w = 0;
    if (!(f >= 0.0f))
        *i0 = 0;
    else if ((double)f >= (double)n - 1)
        *i0 = n - 1;
    else {
        *i0 = (uint32_t)f;
        if (d->linear)
            *w = (double)x - (double)f;
    }
    *i1 = *w != 0 ? *i0 + 1 : *i0;
}

/* One antialiased output (the header's rule), and the sum of |weight * input| in *mag. */
static double antialiased(const ref_tensor *in, const ref_resample_desc *d, const uint32_t *c,
                          double *mag)
{
    uint32_t rank = in->rank;
    int64_t first[REF_RESAMPLE_MAX_RANK], k[REF_RESAMPLE_MAX_RANK], start[REF_RESAMPLE_MAX_RANK];
    double ratio[REF_RESAMPLE_MAX_RANK], sc[REF_RESAMPLE_MAX_RANK], sum[REF_RESAMPLE_MAX_RANK];
    for (uint32_t j = 0; j < rank; ++j) {
        float x = coordinate(d, (int)j, c[j]);
        double f = floor((double)x);
        float s = d->scales[j] < 1.0f ? d->scales[j] : 1.0f;
        float inv = d->scales[j] < 1.0f ? (float)(1.0 / (double)d->scales[j]) : 1.0f;
        start[j] = (int64_t)floor(-(double)inv) + 1;
        ratio[j] = (double)x - f;
        sc[j] = s;
        first[j] = (int64_t)f;
        sum[j] = 0;
        for (int64_t t = start[j]; t <= 1 - start[j]; ++t)
            sum[j] += fmax(0.0, 1.0 - fabs((double)t - ratio[j]) * sc[j]);
        k[j] = start[j];
    }
    double r = 0, m = 0;
    for (;;) {
        double w = 1;
        uint32_t at[REF_RESAMPLE_MAX_RANK];
        for (uint32_t j = 0; j < rank; ++j) {
            w *= fmax(0.0, 1.0 - fabs((double)k[j] - ratio[j]) * sc[j]) / sum[j];
            int64_t i = first[j] + k[j];
            at[j] = (uint32_t)(i < 0 ? 0 : i >= (int64_t)in->sizes[j] ? in->sizes[j] - 1 : i);
        }
        if (w != 0) {
            double v = read_value(in, at);
            r += w * v;
            m += fabs(w * v);
        }
        int j = (int)rank - 1;
        for (; j >= 0; --j) {
            if (++k[j] <= 1 - start[j])
                break;
            k[j] = start[j];
        }
        if (j < 0)
            break;
    }
    *mag = m;
    return r;
}

bool ref_resample(const ref_tensor *in, const ref_tensor *out, const ref_resample_desc *d,
                  double *mag)
{
    uint32_t rank = in->rank;
    if (!supported(in->type) || out->type != in->type || out->rank != rank || rank < 1 ||
        rank > REF_RESAMPLE_MAX_RANK)
        return false;
    if (ref_element_count(rank, out->sizes) == 0)
        return true;
    if (ref_element_count(rank, in->sizes) == 0)
        return false;
    uint32_t c[REF_RESAMPLE_MAX_RANK] = {0};
    uint64_t flat = 0;
    bool aa = false;
    for (uint32_t k = 0; k < rank; ++k)
        aa |= d->linear && d->antialias && d->scales[k] < 1.0f;
    do {
        if (aa) {
            double m;
            write_value(out, c, antialiased(in, d, c, &m));
            if (mag)
                mag[flat] = m;
            ++flat;
            continue;
        }
        uint32_t i0[REF_RESAMPLE_MAX_RANK], i1[REF_RESAMPLE_MAX_RANK];
        double w[REF_RESAMPLE_MAX_RANK];
        for (uint32_t k = 0; k < rank; ++k)
            neighbours(d, (int)k, in->sizes[k], c[k], &i0[k], &i1[k], &w[k]);
        double sum = 0, m = 0;
        for (uint32_t corner = 0; corner < (1u << rank); ++corner) {
            double weight = 1;
            uint32_t at[REF_RESAMPLE_MAX_RANK];
            bool skip = false;
            for (uint32_t k = 0; k < rank && !skip; ++k) {
                bool second = (corner >> k) & 1;
                skip = second && w[k] == 0;
                weight *= second ? w[k] : 1 - w[k];
                at[k] = second ? i1[k] : i0[k];
            }
            if (skip)
                continue;
            double v = read_value(in, at);
            sum += weight * v;
            m += fabs(weight * v);
        }
        write_value(out, c, sum);
        if (mag)
            mag[flat] = m;
        ++flat;
    } while (ref_next_coord(rank, out->sizes, c));
    return true;
}

bool ref_resample_grad(const ref_tensor *dy, const ref_tensor *dx, const ref_resample_desc *d,
                       uint32_t *terms, double *mag)
{
    uint32_t rank = dx->rank;
    bool is_float =
        dx->type == DML_TENSOR_DATA_TYPE_FLOAT32 || dx->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    if (!is_float || dy->type != dx->type || dy->rank != rank || rank < 1 ||
        rank > REF_RESAMPLE_MAX_RANK || d->antialias)
        return false;
    uint64_t count = ref_element_count(rank, dx->sizes);
    if (count == 0)
        return true;
    double *acc = calloc(count, sizeof *acc), *abs_sum = calloc(count, sizeof *abs_sum);
    uint32_t *n = calloc(count, sizeof *n);
    if (!acc || !abs_sum || !n) {
        free(acc), free(abs_sum), free(n);
        return false;
    }
    uint32_t c[REF_RESAMPLE_MAX_RANK] = {0};
    if (ref_element_count(rank, dy->sizes) != 0) {
        do {
            uint32_t i0[REF_RESAMPLE_MAX_RANK], i1[REF_RESAMPLE_MAX_RANK];
            double w[REF_RESAMPLE_MAX_RANK];
            for (uint32_t k = 0; k < rank; ++k)
                neighbours(d, (int)k, dx->sizes[k], c[k], &i0[k], &i1[k], &w[k]);
            double g = read_value(dy, c);
            for (uint32_t corner = 0; corner < (1u << rank); ++corner) {
                double weight = 1;
                uint64_t flat = 0;
                bool skip = false;
                for (uint32_t k = 0; k < rank && !skip; ++k) {
                    bool second = (corner >> k) & 1;
                    skip = second && w[k] == 0;
                    weight *= second ? w[k] : 1 - w[k];
                    flat = flat * dx->sizes[k] + (second ? i1[k] : i0[k]);
                }
                if (skip || weight == 0)
                    continue;
                acc[flat] += weight * g;
                abs_sum[flat] += fabs(weight * g);
                ++n[flat];
            }
        } while (ref_next_coord(rank, dy->sizes, c));
    }
    uint64_t flat = 0;
    do {
        write_value(dx, c, acc[flat]);
        if (terms)
            terms[flat] = n[flat];
        if (mag)
            mag[flat] = abs_sum[flat];
        ++flat;
    } while (ref_next_coord(rank, dx->sizes, c));
    free(acc), free(abs_sum), free(n);
    return true;
}

bool ref_value_scale_2d(const ref_tensor *in, const ref_tensor *out, float scale, const float *bias,
                        uint32_t channels)
{
    if ((in->type != DML_TENSOR_DATA_TYPE_FLOAT32 && in->type != DML_TENSOR_DATA_TYPE_FLOAT16) ||
        out->type != in->type || in->rank != 4 || out->rank != 4 || in->sizes[1] != channels ||
        memcmp(in->sizes, out->sizes, 4 * sizeof in->sizes[0]) != 0)
        return false;
    uint32_t c[4] = {0};
    if (ref_element_count(4, in->sizes) == 0)
        return true;
    do {
        write_value(out, c, read_value(in, c) * (double)scale + (double)bias[c[1]]);
    } while (ref_next_coord(4, in->sizes, c));
    return true;
}
