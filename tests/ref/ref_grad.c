/* SPDX-License-Identifier: MIT */
/*
 * ref_grad.c: the element-wise training gradients' oracle (ref_grad.h).
 */
#include "ref_grad.h"

#include <math.h>
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
