/* SPDX-License-Identifier: MIT */
/*
 * ref_grad.c: the element-wise training gradients' oracle (ref_grad.h).
 */
#include "ref_grad.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_broadcast.h"

const char *ref_grad_name(ref_grad_op op)
{
    static const char *const names[] = {"ACTIVATION_RELU_GRAD", "ELEMENT_WISE_CLIP_GRAD",
                                        "ELEMENT_WISE_CLIP_GRAD1"};
    return op < REF_GRAD_COUNT ? names[op] : "?";
}

/* A value of a float type (FLOAT16, FLOAT32, FLOAT64) from its little-endian bytes. */
static double float_value(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

/* An integer element's value: a signed type's sign-extended to 64 bits, an unsigned type's
 * zero-extended. */
static int64_t int_signed(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    size_t n = ref_type_size(t);
    uint64_t u = 0;
    memcpy(&u, p, n);
    if (n < 8 && (u >> (8 * n - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * n);
    return (int64_t)u;
}

static uint64_t int_unsigned(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    uint64_t u = 0;
    memcpy(&u, p, ref_type_size(t));
    return u;
}

/* A FLOAT bound on an integer type: truncated toward zero, saturated, NaN 0 (as signed or
 * unsigned 64-bit values of the type's range). */
static int64_t bound_signed(DML_TENSOR_DATA_TYPE t, double v)
{
    int bits = 8 * (int)ref_type_size(t);
    double hi = ldexp(1, bits - 1) - 1, lo = -ldexp(1, bits - 1);
    if (isnan(v))
        return 0;
    v = trunc(v);
    if (v <= lo)
        return bits == 64 ? INT64_MIN : (int64_t)lo;
    if (v >= hi)
        return bits == 64 ? INT64_MAX : (int64_t)hi;
    return (int64_t)v;
}

static uint64_t bound_unsigned(DML_TENSOR_DATA_TYPE t, double v)
{
    int bits = 8 * (int)ref_type_size(t);
    if (isnan(v) || v <= 0)
        return 0;
    v = trunc(v);
    if (v >= ldexp(1, bits))
        return bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
    return (uint64_t)v;
}

/* Whether X lets the gradient through. */
static bool passes(ref_grad_op op, DML_TENSOR_DATA_TYPE t, const unsigned char *x,
                   const ref_grad_args *a)
{
    unsigned char lb[8], hb[8];
    memcpy(lb, &a->lo_bits, 8);
    memcpy(hb, &a->hi_bits, 8);
    if (ref_type_is_float(t)) {
        double v = float_value(t, x);
        if (op == REF_GRAD_RELU)
            return v > 0;
        double lo = op == REF_GRAD_CLIP ? (double)(float)a->lo : float_value(t, lb);
        double hi = op == REF_GRAD_CLIP ? (double)(float)a->hi : float_value(t, hb);
        return !(v <= lo || v >= hi);
    }
    if (ref_type_is_signed_int(t)) {
        int64_t v = int_signed(t, x);
        if (op == REF_GRAD_RELU)
            return v > 0;
        int64_t lo = op == REF_GRAD_CLIP ? bound_signed(t, a->lo) : int_signed(t, lb);
        int64_t hi = op == REF_GRAD_CLIP ? bound_signed(t, a->hi) : int_signed(t, hb);
        return !(v <= lo || v >= hi);
    }
    uint64_t v = int_unsigned(t, x);
    if (op == REF_GRAD_RELU)
        return v > 0;
    uint64_t lo = op == REF_GRAD_CLIP ? bound_unsigned(t, a->lo) : int_unsigned(t, lb);
    uint64_t hi = op == REF_GRAD_CLIP ? bound_unsigned(t, a->hi) : int_unsigned(t, hb);
    return !(v <= lo || v >= hi);
}

static bool same_shape(const ref_tensor *a, const ref_tensor *b)
{
    if (a->rank != b->rank || a->type != b->type)
        return false;
    for (uint32_t i = 0; i < a->rank; ++i)
        if (a->sizes[i] != b->sizes[i])
            return false;
    return true;
}

bool ref_grad(ref_grad_op op, const ref_tensor *x, const ref_tensor *dy, const ref_grad_args *args,
              const ref_tensor *out)
{
    static const ref_grad_args none;
    if (op >= REF_GRAD_COUNT || !same_shape(x, dy) || !same_shape(x, out))
        return false;
    if (!args)
        args = &none;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char xv[8], g[8];
    if (ref_element_count(x->rank, x->sizes) == 0)
        return true;
    do {
        ref_get(x, c, xv);
        if (passes(op, x->type, xv, args))
            ref_get(dy, c, g);
        else
            memset(g, 0, sizeof g);
        ref_put(out, c, g);
    } while (ref_next_coord(x->rank, x->sizes, c));
    return true;
}

bool ref_slice_grad(const ref_tensor *dy, const uint32_t *offsets, const uint32_t *sizes,
                    const int32_t *strides, const ref_tensor *out)
{
    if (dy->type != out->type || dy->rank != out->rank)
        return false;
    uint32_t c[REF_MAX_DIMS] = {0}, o[REF_MAX_DIMS];
    unsigned char zero[16] = {0}, v[16];
    /* Where every gradient element lands first: all inside the output, or nothing is written. */
    do {
        for (uint32_t d = 0; d < dy->rank; ++d) {
            int64_t start = strides[d] < 0 ? (int64_t)offsets[d] + sizes[d] - 1 : offsets[d];
            int64_t at = start + (int64_t)strides[d] * c[d];
            if (at < 0 || at >= (int64_t)out->sizes[d])
                return false;
        }
    } while (ref_next_coord(dy->rank, dy->sizes, c));
    do
        ref_put(out, c, zero);
    while (ref_next_coord(out->rank, out->sizes, c));
    do {
        for (uint32_t d = 0; d < dy->rank; ++d) {
            int64_t start = strides[d] < 0 ? (int64_t)offsets[d] + sizes[d] - 1 : offsets[d];
            o[d] = (uint32_t)(start + (int64_t)strides[d] * c[d]);
        }
        ref_get(dy, c, v);
        ref_put(out, o, v);
    } while (ref_next_coord(dy->rank, dy->sizes, c));
    return true;
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

/* Whether v replaces best under max pooling's order (the forward's rule). */
static bool max_better(double v, double best)
{
    if (isnan(v))
        return false;
    if (isnan(best) || v > best)
        return true;
    return v == best && v == 0 && signbit(best) && !signbit(v);
}

bool ref_pool_grad(bool max, const ref_tensor *x, const ref_tensor *dy, const ref_tensor *dx,
                   uint32_t dims, const uint32_t *strides, const uint32_t *window,
                   const uint32_t *start, const uint32_t *end, const uint32_t *dilations,
                   bool include_padding, double *mag, uint32_t *terms)
{
    uint32_t rank = dx->rank;
    if (dy->rank != rank || rank != dims + 2 || (max && (!x || x->rank != rank)))
        return false;
    uint64_t count = ref_element_count(rank, dx->sizes);
    double *sum = calloc(count, sizeof *sum), *abs_sum = calloc(count, sizeof *abs_sum);
    uint32_t *n_terms = calloc(count, sizeof *n_terms);
    if (!sum || !abs_sum || !n_terms) {
        free(sum), free(abs_sum), free(n_terms);
        return false;
    }
    uint32_t packed[REF_MAX_DIMS];
    ref_packed_strides(rank, dx->sizes, packed);
    uint32_t o[REF_MAX_DIMS] = {0}, k[REF_MAX_DIMS], p[REF_MAX_DIMS];
    unsigned char e[8];
    do {
        ref_get(dy, o, e);
        double g = float_value(dy->type, e);
        /* The window's positions, row-major: k over {1, 1, window...}. */
        uint32_t wsz[REF_MAX_DIMS] = {1, 1};
        double divisor = 1;
        for (uint32_t i = 0; i < dims; ++i) {
            wsz[2 + i] = window[i];
            int64_t first = (int64_t)o[2 + i] * strides[i] - start[i];
            int64_t lo = include_padding ? -(int64_t)start[i] : 0;
            int64_t hi = (int64_t)dx->sizes[2 + i] + (include_padding ? end[i] : 0);
            uint32_t dil = dilations ? dilations[i] : 1, inside = 0;
            for (uint32_t j = 0; j < window[i]; ++j) {
                int64_t at = first + (int64_t)j * dil;
                inside += at >= lo && at < hi;
            }
            divisor *= inside;
        }
        memset(k, 0, sizeof k);
        bool found = false;
        double best = 0;
        uint64_t best_at = 0;
        do {
            p[0] = o[0], p[1] = o[1];
            bool in = true;
            for (uint32_t i = 0; i < dims; ++i) {
                int64_t at = (int64_t)o[2 + i] * strides[i] - start[i] +
                             (int64_t)k[2 + i] * (dilations ? dilations[i] : 1);
                in = in && at >= 0 && at < (int64_t)dx->sizes[2 + i];
                p[2 + i] = (uint32_t)at;
            }
            if (!in)
                continue;
            uint64_t flat = 0;
            for (uint32_t d = 0; d < rank; ++d)
                flat += (uint64_t)p[d] * packed[d];
            if (max) {
                ref_get(x, p, e);
                double v = float_value(x->type, e);
                if (!found || max_better(v, best))
                    found = true, best = v, best_at = flat;
            } else {
                double t = g / divisor;
                sum[flat] += t;
                abs_sum[flat] += fabs(t);
                n_terms[flat]++;
            }
        } while (ref_next_coord(rank, wsz, k));
        if (max && found) {
            sum[best_at] += g;
            abs_sum[best_at] += fabs(g);
            n_terms[best_at]++;
        }
    } while (ref_next_coord(rank, dy->sizes, o));
    uint64_t flat = 0;
    do {
        write_float(dx->type, sum[flat], e);
        ref_put(dx, o, e);
        if (mag)
            mag[flat] = abs_sum[flat];
        if (terms)
            terms[flat] = n_terms[flat];
        ++flat;
    } while (ref_next_coord(rank, dx->sizes, o));
    free(sum), free(abs_sum), free(n_terms);
    return true;
}
