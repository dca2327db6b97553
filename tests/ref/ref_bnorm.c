/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_bnorm.h"
#include "ref_broadcast.h"

static double get(const ref_tensor *t, const uint32_t *coord)
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

static void put(const ref_tensor *t, const uint32_t *coord, double v)
{
    unsigned char e[8];
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(e, &h, 2);
    } else {
        float f = (float)v;
        memcpy(e, &f, 4);
    }
    ref_put(t, coord, e);
}

static bool same_shape(const ref_tensor *a, const ref_tensor *b)
{
    return a->type == b->type && a->rank == b->rank &&
           !memcmp(a->sizes, b->sizes, a->rank * sizeof a->sizes[0]);
}

static bool float_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16;
}

/* stat's sizes are 1 or in's, one type and rank. */
static bool stat_fits(const ref_tensor *stat, const ref_tensor *in)
{
    if (stat->type != in->type || stat->rank != in->rank)
        return false;
    for (uint32_t i = 0; i < in->rank; ++i)
        if (stat->sizes[i] != 1 && stat->sizes[i] != in->sizes[i])
            return false;
    return true;
}

/* The channel of input coordinate c: its coordinates in stat (sc) and their row-major index. */
static uint64_t channel_of(const ref_tensor *stat, const uint32_t *c, uint32_t *sc)
{
    uint64_t flat = 0;
    for (uint32_t i = 0; i < stat->rank; ++i) {
        sc[i] = stat->sizes[i] == 1 ? 0 : c[i];
        flat = flat * stat->sizes[i] + sc[i];
    }
    return flat;
}

/* The row-major index of coordinate c in sizes. */
static uint64_t flat_of(uint32_t rank, const uint32_t *sizes, const uint32_t *c)
{
    uint64_t flat = 0;
    for (uint32_t i = 0; i < rank; ++i)
        flat = flat * sizes[i] + c[i];
    return flat;
}

bool ref_bn_training(const ref_tensor *in, const ref_tensor *scale, const ref_tensor *bias,
                     const ref_tensor *add, double eps, ref_act act, const double *p,
                     const ref_tensor *out, const ref_tensor *mean, const ref_tensor *variance,
                     ref_bnorm_bounds *bounds)
{
    if (!float_type(in->type) || !stat_fits(scale, in) || !same_shape(bias, scale) ||
        !same_shape(mean, scale) || !same_shape(variance, scale) || !same_shape(out, in) ||
        (add && !same_shape(add, in)))
        return false;
    uint64_t channels = ref_element_count(scale->rank, scale->sizes);
    uint64_t n = ref_element_count(in->rank, in->sizes) / channels;
    double *sum = calloc(channels, sizeof *sum), *abs_sum = calloc(channels, sizeof *abs_sum);
    double *sq = calloc(channels, sizeof *sq);
    if (!sum || !abs_sum || !sq) {
        free(sum), free(abs_sum), free(sq);
        return false;
    }
    uint32_t c[REF_MAX_DIMS] = {0}, sc[REF_MAX_DIMS];
    do {
        uint64_t ch = channel_of(scale, c, sc);
        double x = get(in, c);
        sum[ch] += x;
        abs_sum[ch] += fabs(x);
    } while (ref_next_coord(in->rank, in->sizes, c));
    for (uint64_t ch = 0; ch < channels; ++ch)
        sum[ch] /= (double)n; /* the mean */
    memset(c, 0, sizeof c);
    do {
        uint64_t ch = channel_of(scale, c, sc);
        double d = get(in, c) - sum[ch];
        sq[ch] += d * d;
    } while (ref_next_coord(in->rank, in->sizes, c));
    memset(c, 0, sizeof c);
    do {
        uint64_t ch = channel_of(scale, c, sc);
        double var = sq[ch] / (double)n, x = get(in, c), s = get(scale, sc), b = get(bias, sc);
        double k = s / sqrt(var + eps), a = add ? get(add, c) : 0;
        double y = k * (x - sum[ch]) + b + a;
        if (act != REF_ACT_NONE)
            y = ref_act_real(act, p, (double)(float)y);
        put(out, c, y);
        if (bounds)
            bounds->mag[0][flat_of(in->rank, in->sizes, c)] =
                fabs(k) * (abs_sum[ch] / (double)n + fabs(x - sum[ch])) + fabs(b) + fabs(a);
    } while (ref_next_coord(in->rank, in->sizes, c));
    memset(sc, 0, sizeof sc);
    do {
        uint64_t ch = flat_of(scale->rank, scale->sizes, sc);
        put(mean, sc, sum[ch]);
        put(variance, sc, sq[ch] / (double)n);
        if (bounds) {
            bounds->mag[1][ch] = abs_sum[ch] / (double)n;
            bounds->mag[2][ch] = sq[ch] / (double)n;
        }
    } while (ref_next_coord(scale->rank, scale->sizes, sc));
    if (bounds)
        bounds->terms[0] = bounds->terms[1] = bounds->terms[2] = (uint32_t)n;
    free(sum), free(abs_sum), free(sq);
    return true;
}

bool ref_bn_grad(bool training, const ref_tensor *in, const ref_tensor *dy, const ref_tensor *mean,
                 const ref_tensor *var, const ref_tensor *scale, double eps, const ref_tensor *dx,
                 const ref_tensor *dscale, const ref_tensor *dbias, ref_bnorm_bounds *bounds)
{
    if (!float_type(in->type) || !stat_fits(mean, in) || !same_shape(var, mean) ||
        !same_shape(scale, mean) || !same_shape(dscale, mean) || !same_shape(dbias, mean) ||
        !same_shape(dy, in) || !same_shape(dx, in))
        return false;
    uint64_t channels = ref_element_count(mean->rank, mean->sizes);
    uint64_t n = ref_element_count(in->rank, in->sizes) / channels;
    /* Per channel: sum(dy), sum(|dy|), sum(dy * (x - mean)), sum(|dy * (x - mean)|). */
    double *acc = calloc(channels * 4, sizeof *acc);
    if (!acc)
        return false;
    uint32_t c[REF_MAX_DIMS] = {0}, sc[REF_MAX_DIMS];
    do {
        uint64_t ch = channel_of(mean, c, sc);
        double g = get(dy, c), p = g * (get(in, c) - get(mean, sc));
        acc[4 * ch] += g;
        acc[4 * ch + 1] += fabs(g);
        acc[4 * ch + 2] += p;
        acc[4 * ch + 3] += fabs(p);
    } while (ref_next_coord(in->rank, in->sizes, c));
    memset(c, 0, sizeof c);
    do {
        uint64_t ch = channel_of(mean, c, sc);
        double v = get(var, sc) + eps, coef0 = 1 / sqrt(v), s = get(scale, sc), g = get(dy, c);
        double xc = get(in, c) - get(mean, sc), y, mag;
        if (training) {
            double mdy = acc[4 * ch] / (double)n, mc1 = acc[4 * ch + 2] / (double)n;
            y = s * coef0 * ((g - mdy) - xc * mc1 / v);
            mag = fabs(s * coef0) *
                  (fabs(g) + acc[4 * ch + 1] / (double)n + fabs(xc) * acc[4 * ch + 3] / n / v);
        } else {
            y = g * (s * coef0);
            mag = fabs(y);
        }
        put(dx, c, y);
        if (bounds)
            bounds->mag[0][flat_of(in->rank, in->sizes, c)] = mag;
    } while (ref_next_coord(in->rank, in->sizes, c));
    memset(sc, 0, sizeof sc);
    do {
        uint64_t ch = flat_of(mean->rank, mean->sizes, sc);
        double coef0 = 1 / sqrt(get(var, sc) + eps);
        put(dscale, sc, acc[4 * ch + 2] * coef0);
        put(dbias, sc, acc[4 * ch]);
        if (bounds) {
            bounds->mag[1][ch] = acc[4 * ch + 3] * coef0;
            bounds->mag[2][ch] = acc[4 * ch + 1];
        }
    } while (ref_next_coord(mean->rank, mean->sizes, sc));
    if (bounds) {
        bounds->terms[0] = training ? (uint32_t)n : 1;
        bounds->terms[1] = bounds->terms[2] = (uint32_t)n;
    }
    free(acc);
    return true;
}
