/* SPDX-License-Identifier: MIT */
/* ref_normalize.c: see ref_normalize.h. Plain loops over rows, in double. */
#include "ref_normalize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_broadcast.h"

const char *ref_norm_name(ref_norm_op op)
{
    static const char *const names[REF_NORM_COUNT] = {"SOFTMAX", "LOG_SOFTMAX", "HARDMAX", "MVN",
                                                      "LP"};
    return op < REF_NORM_COUNT ? names[op] : "?";
}

static double read_real(const ref_tensor *t, const uint32_t *c)
{
    unsigned char b[8];
    ref_get(t, c, b);
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, b, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, b, 4);
    return f;
}

static void write_real(const ref_tensor *t, const uint32_t *c, double v)
{
    unsigned char b[8];
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(b, &h, 2);
    } else {
        float f = (float)v;
        memcpy(b, &f, 4);
    }
    ref_put(t, c, b);
}

/* A broadcast operand (scale, bias) at c: its size-1 dimensions read index 0. */
static double read_broadcast(const ref_tensor *t, const uint32_t *c, double absent)
{
    if (!t)
        return absent;
    uint32_t k[REF_MAX_DIMS];
    for (uint32_t d = 0; d < t->rank; ++d)
        k[d] = t->sizes[d] == 1 ? 0 : c[d];
    return read_real(t, k);
}

static double row_max(const double *x, size_t n)
{
    double m = -INFINITY;
    for (size_t i = 0; i < n; ++i)
        if (x[i] > m)
            m = x[i];
    return m;
}

double ref_norm_row_value(ref_norm_op op, const ref_norm_args *args, const double *x, size_t n,
                          size_t i)
{
    switch (op) {
    case REF_NORM_SOFTMAX:
    case REF_NORM_LOG_SOFTMAX: {
        double m = row_max(x, n), s = 0;
        for (size_t j = 0; j < n; ++j)
            s += exp(x[j] - m);
        return op == REF_NORM_SOFTMAX ? exp(x[i] - m) / s : (x[i] - m) - log(s);
    }
    case REF_NORM_HARDMAX: {
        size_t first = 0;
        for (size_t j = 1; j < n; ++j)
            if (x[j] > x[first])
                first = j;
        return i == first ? 1.0 : 0.0;
    }
    case REF_NORM_MVN: {
        double m = 0, v = 0;
        if (args->use_mean) {
            for (size_t j = 0; j < n; ++j)
                m += x[j];
            m /= (double)n;
        }
        if (!args->use_variance)
            return x[i] - m;
        for (size_t j = 0; j < n; ++j)
            v += (x[j] - m) * (x[j] - m);
        v /= (double)n;
        return (x[i] - m) / sqrt(v + args->epsilon);
    }
    case REF_NORM_LP: {
        double s = 0;
        for (size_t j = 0; j < n; ++j)
            s += args->p == 1 ? fabs(x[j]) : x[j] * x[j];
        double norm = args->p == 1 ? s : sqrt(s);
        return x[i] / fmax(norm, args->epsilon);
    }
    default: return NAN;
    }
}

static bool fits_operand(const ref_tensor *t, const ref_tensor *in)
{
    if (!t)
        return true;
    if (t->rank != in->rank || t->type != in->type)
        return false;
    for (uint32_t d = 0; d < in->rank; ++d)
        if (t->sizes[d] != 1 && t->sizes[d] != in->sizes[d])
            return false;
    return true;
}

bool ref_normalize(ref_norm_op op, const ref_norm_args *args, const ref_tensor *in,
                   const ref_tensor *scale, const ref_tensor *bias, const ref_tensor *out)
{
    if (op >= REF_NORM_COUNT || in->type != out->type || in->rank != out->rank ||
        (in->type != DML_TENSOR_DATA_TYPE_FLOAT32 && in->type != DML_TENSOR_DATA_TYPE_FLOAT16))
        return false;
    for (uint32_t d = 0; d < in->rank; ++d)
        if (in->sizes[d] != out->sizes[d])
            return false;
    if ((op != REF_NORM_MVN && (scale || bias)) || !fits_operand(scale, in) ||
        !fits_operand(bias, in))
        return false;
    uint32_t rank = in->rank, outer[REF_MAX_DIMS], inner[REF_MAX_DIMS];
    size_t n = 1;
    for (uint32_t d = 0; d < rank; ++d) {
        outer[d] = args->reduced[d] ? 1 : in->sizes[d];
        inner[d] = args->reduced[d] ? in->sizes[d] : 1;
        n *= inner[d];
    }
    if (ref_element_count(rank, in->sizes) == 0)
        return true;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return false;
    uint32_t o[REF_MAX_DIMS] = {0}, i[REF_MAX_DIMS] = {0}, c[REF_MAX_DIMS];
    do {
        size_t k = 0;
        do {
            for (uint32_t d = 0; d < rank; ++d)
                c[d] = o[d] + i[d];
            x[k++] = read_real(in, c);
        } while (ref_next_coord(rank, inner, i));
        k = 0;
        do {
            for (uint32_t d = 0; d < rank; ++d)
                c[d] = o[d] + i[d];
            double y = ref_norm_row_value(op, args, x, n, k++);
            if (op == REF_NORM_MVN) {
                y = y * read_broadcast(scale, c, 1.0) + read_broadcast(bias, c, 0.0);
                if (args->act != REF_ACT_NONE)
                    y = ref_act_real(args->act, args->act_p, y);
            }
            write_real(out, c, y);
        } while (ref_next_coord(rank, inner, i));
    } while (ref_next_coord(rank, outer, o));
    free(x);
    return true;
}

unsigned ref_norm_ulps(ref_norm_op op, size_t n)
{
    switch (op) {
    case REF_NORM_SOFTMAX:
    case REF_NORM_LOG_SOFTMAX: return (unsigned)(3 * n + 3);
    case REF_NORM_HARDMAX: return 0;
    case REF_NORM_MVN: return 2;
    case REF_NORM_LP: return (unsigned)(n + 3);
    default: return 0;
    }
}

double ref_norm_abs(ref_norm_op op, DML_TENSOR_DATA_TYPE type, size_t n)
{
    double ulp1 = type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 0x1p-10 : 0x1p-23;
    switch (op) {
    case REF_NORM_LOG_SOFTMAX: return (double)(n + 3) * ulp1;
    case REF_NORM_MVN: return 1.0 / 1024;
    default: return 0;
    }
}
