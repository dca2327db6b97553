/* SPDX-License-Identifier: MIT */
/* ref_quant.c: see ref_quant.h. */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_quant.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

/* An element's value: floats exactly, integers sign- or zero-extended. */
static double read_float(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

static int64_t read_int(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    size_t w = ref_type_size(t);
    uint64_t u = 0;
    memcpy(&u, p, w);
    if (ref_type_is_signed_int(t) && w < 8 && ((u >> (8 * w - 1)) & 1))
        u |= ~(uint64_t)0 << (8 * w);
    return (int64_t)u;
}

/* The integer range of an 8- to 32-bit type. */
static void range_of(DML_TENSOR_DATA_TYPE t, int64_t *lo, int64_t *hi)
{
    int bits = 8 * (int)ref_type_size(t);
    if (ref_type_is_signed_int(t)) {
        *lo = -((int64_t)1 << (bits - 1));
        *hi = ((int64_t)1 << (bits - 1)) - 1;
    } else {
        *lo = 0;
        *hi = ((int64_t)1 << bits) - 1;
    }
}

int64_t ref_quantize_value(double input, double scale, int64_t zero_point,
                           DML_TENSOR_DATA_TYPE out_type)
{
    int64_t lo, hi;
    range_of(out_type, &lo, &hi);
    /* FLOAT32 arithmetic: the input as a float (INT32 rounded to nearest), the quotient
     * rounded to float (in double, then once to float: the correctly rounded float
     * quotient, 53 >= 2 * 24 + 2 bits). */
    double x = (double)(float)input;
    double q = (double)(float)(x / scale);
    double v = nearbyint(q) + (double)zero_point; /* the default mode: halves to even */
    if (isnan(v))
        return 0;
    return v <= (double)lo ? lo : v >= (double)hi ? hi : (int64_t)v;
}

double ref_dequantize_value(int64_t input, int64_t zero_point, double scale,
                            DML_TENSOR_DATA_TYPE out_type)
{
    /* The difference exactly (33 bits at most), rounded once to float; the product of two
     * floats exact in double (48 bits), rounded once to float; then to FLOAT16 if asked. */
    double d = (double)(float)(input - zero_point);
    double p = (double)(float)(d * scale);
    return out_type == F16 ? ref_half_to_double(ref_half_from_double(p)) : p;
}

static bool same_shape(const ref_tensor *x, const ref_tensor *y)
{
    if (x->rank != y->rank)
        return false;
    for (uint32_t i = 0; i < x->rank; ++i)
        if (x->sizes[i] != y->sizes[i])
            return false;
    return true;
}

static bool is_int_type(DML_TENSOR_DATA_TYPE t)
{
    return !ref_type_is_float(t) && ref_type_size(t) >= 1 && ref_type_size(t) <= 4;
}

/* Every tensor of the input's shape; the optional zero point of type zp_type. */
static bool fits(const ref_tensor *input, const ref_tensor *scale, const ref_tensor *zp,
                 DML_TENSOR_DATA_TYPE zp_type, const ref_tensor *out)
{
    return same_shape(input, scale) && same_shape(input, out) &&
           (zp == NULL || (same_shape(input, zp) && zp->type == zp_type));
}

bool ref_quantize_linear(const ref_tensor *input, const ref_tensor *scale,
                         const ref_tensor *zero_point, const ref_tensor *out)
{
    DML_TENSOR_DATA_TYPE it = input->type, st = scale->type, ot = out->type;
    bool in_ok = it == F32 || it == F16 || it == DML_TENSOR_DATA_TYPE_INT32;
    bool scale_ok = st == (it == DML_TENSOR_DATA_TYPE_INT32 ? F32 : it);
    bool out_ok = ot == DML_TENSOR_DATA_TYPE_INT8 || ot == DML_TENSOR_DATA_TYPE_UINT8;
    if (!in_ok || !scale_ok || !out_ok || !fits(input, scale, zero_point, ot, out))
        return false;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], s[8], z[8] = {0}, r[8];
    if (ref_element_count(input->rank, input->sizes) == 0)
        return true;
    do {
        ref_get(input, c, x);
        ref_get(scale, c, s);
        if (zero_point)
            ref_get(zero_point, c, z);
        double xv = ref_type_is_float(it) ? read_float(it, x) : (double)read_int(it, x);
        int64_t v = ref_quantize_value(xv, read_float(st, s), zero_point ? read_int(ot, z) : 0, ot);
        memcpy(r, &v, 1); /* little-endian: the low byte is the INT8 or UINT8 value */
        ref_put(out, c, r);
    } while (ref_next_coord(input->rank, input->sizes, c));
    return true;
}

bool ref_dequantize_linear(const ref_tensor *input, const ref_tensor *scale,
                           const ref_tensor *zero_point, const ref_tensor *out)
{
    DML_TENSOR_DATA_TYPE it = input->type, st = scale->type, ot = out->type;
    if (!is_int_type(it) || (ot != F32 && ot != F16) || st != ot ||
        !fits(input, scale, zero_point, it, out))
        return false;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], s[8], z[8] = {0}, r[8];
    if (ref_element_count(input->rank, input->sizes) == 0)
        return true;
    do {
        ref_get(input, c, x);
        ref_get(scale, c, s);
        if (zero_point)
            ref_get(zero_point, c, z);
        double v = ref_dequantize_value(read_int(it, x), zero_point ? read_int(it, z) : 0,
                                        read_float(st, s), ot);
        if (ot == F16) {
            uint16_t h = ref_half_from_double(v);
            memcpy(r, &h, 2);
        } else {
            float f = (float)v;
            memcpy(r, &f, 4);
        }
        ref_put(out, c, r);
    } while (ref_next_coord(input->rank, input->sizes, c));
    return true;
}

/* The one element of a scale or zero point tensor (at coordinate 0). */
static double first_float(const ref_tensor *t)
{
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8];
    ref_get(t, c, x);
    return read_float(t->type, x);
}

static int64_t first_int(const ref_tensor *t)
{
    if (t == NULL)
        return 0;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8];
    ref_get(t, c, x);
    return read_int(t->type, x);
}

static bool is_8bit(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static bool one_element(const ref_tensor *t, DML_TENSOR_DATA_TYPE type)
{
    return t == NULL || (t->type == type && ref_element_count(t->rank, t->sizes) == 1);
}

bool ref_quantized_linear_add(const ref_tensor *a, const ref_tensor *a_scale,
                              const ref_tensor *a_zp, const ref_tensor *b,
                              const ref_tensor *b_scale, const ref_tensor *b_zp,
                              const ref_tensor *out_scale, const ref_tensor *out_zp,
                              const ref_tensor *out)
{
    DML_TENSOR_DATA_TYPE t = out->type;
    if (!is_8bit(a->type) || !is_8bit(b->type) || !is_8bit(t) || !same_shape(a, b) ||
        !same_shape(a, out) || !one_element(a_zp, a->type) || !one_element(b_zp, b->type) ||
        !one_element(out_zp, t) || a_scale == NULL || b_scale == NULL || out_scale == NULL ||
        !one_element(a_scale, F32) || !one_element(b_scale, F32) || !one_element(out_scale, F32))
        return false;
    double as = first_float(a_scale), bs = first_float(b_scale), os = first_float(out_scale);
    int64_t az = first_int(a_zp), bz = first_int(b_zp), oz = first_int(out_zp);
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], y[8], r[8];
    if (ref_element_count(a->rank, a->sizes) == 0)
        return true;
    do {
        ref_get(a, c, x);
        ref_get(b, c, y);
        double av = ref_dequantize_value(read_int(a->type, x), az, as, F32);
        double bv = ref_dequantize_value(read_int(b->type, y), bz, bs, F32);
        double sum = (double)(float)(av + bv); /* two floats' sum, rounded once to float */
        int64_t v = ref_quantize_value(sum, os, oz, t);
        memcpy(r, &v, 1);
        ref_put(out, c, r);
    } while (ref_next_coord(a->rank, a->sizes, c));
    return true;
}

bool ref_dynamic_quantize_linear(const ref_tensor *input, const ref_tensor *out,
                                 const ref_tensor *scale, const ref_tensor *zero_point)
{
    DML_TENSOR_DATA_TYPE it = input->type, ot = out->type;
    if ((it != F32 && it != F16) || !is_8bit(ot) || !same_shape(input, out) ||
        !one_element(scale, F32) || !one_element(zero_point, ot) || scale == NULL ||
        zero_point == NULL)
        return false;
    int64_t qmin, qmax;
    range_of(ot, &qmin, &qmax);
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], r[8];
    double lo = INFINITY, hi = -INFINITY;
    do {
        ref_get(input, c, x);
        double v = read_float(it, x);
        if (!isnan(v)) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    } while (ref_next_coord(input->rank, input->sizes, c));
    lo = lo < 0 ? lo : 0; /* also an input of NaNs only: the range [0, 0] */
    hi = hi > 0 ? hi : 0;
    /* Each operation in double, rounded once to float: the float operation's result. */
    double s = hi == lo ? 1.0 : (double)(float)((double)(float)(hi - lo) / (double)(qmax - qmin));
    double izp = (double)(float)((double)qmin - (double)(float)(lo / s));
    double zc = isnan(izp)   ? (double)qmax
                : izp < qmin ? (double)qmin
                : izp > qmax ? (double)qmax
                             : izp;
    int64_t z = (int64_t)nearbyint(zc);
    float sf = (float)s;
    memcpy(r, &sf, 4);
    uint32_t zero[REF_MAX_DIMS] = {0};
    ref_put(scale, zero, r);
    memcpy(r, &z, 1);
    ref_put(zero_point, zero, r);
    memset(c, 0, sizeof c);
    do {
        ref_get(input, c, x);
        int64_t v = ref_quantize_value(read_float(it, x), s, z, ot);
        memcpy(r, &v, 1);
        ref_put(out, c, r);
    } while (ref_next_coord(input->rank, input->sizes, c));
    return true;
}

/* A per-tensor or per-channel value's element for channel c. */
static void q_coord(const ref_tensor *q, uint32_t c, uint32_t *coord)
{
    memset(coord, 0, REF_MAX_DIMS * sizeof *coord);
    if (ref_element_count(q->rank, q->sizes) > 1)
        coord[1] = c;
}

bool ref_quantized_average_pooling(const ref_tensor *input, const ref_tensor *in_scale,
                                   const ref_tensor *in_zp, const ref_tensor *out_scale,
                                   const ref_tensor *out_zp, const ref_tensor *out, uint32_t dims,
                                   const uint32_t *strides, const uint32_t *window,
                                   const uint32_t *start, const uint32_t *end,
                                   const uint32_t *dilations, bool include_padding)
{
    DML_TENSOR_DATA_TYPE it = input->type, ot = out->type;
    if (!is_8bit(it) || !is_8bit(ot) || input->rank != dims + 2 || out->rank != input->rank ||
        in_scale->type != F32 || out_scale->type != F32 || (in_zp && in_zp->type != it) ||
        (out_zp && out_zp->type != ot))
        return false;
    uint32_t oc[REF_MAX_DIMS] = {0}, qc[REF_MAX_DIMS], ic[REF_MAX_DIMS];
    unsigned char b[8];
    do {
        uint32_t c = oc[1];
        q_coord(in_scale, c, qc);
        ref_get(in_scale, qc, b);
        double is = read_float(F32, b);
        q_coord(out_scale, c, qc);
        ref_get(out_scale, qc, b);
        double os = read_float(F32, b);
        int64_t iz = 0, oz = 0;
        if (in_zp) {
            q_coord(in_zp, c, qc);
            ref_get(in_zp, qc, b);
            iz = read_int(it, b);
        }
        if (out_zp) {
            q_coord(out_zp, c, qc);
            ref_get(out_zp, qc, b);
            oz = read_int(ot, b);
        }
        /* Every window position k (row-major over the spatial axes). */
        uint32_t k[3] = {0, 0, 0};
        int64_t sum = 0, valid = 0, padded = 0;
        for (;;) {
            bool in_input = true, in_padded = true;
            for (uint32_t a = 0; a < dims; ++a) {
                int64_t p = (int64_t)oc[2 + a] * strides[a] - (int64_t)start[a] +
                            (int64_t)k[a] * dilations[a];
                in_input = in_input && p >= 0 && p < (int64_t)input->sizes[2 + a];
                in_padded = in_padded && p >= -(int64_t)start[a] &&
                            p < (int64_t)input->sizes[2 + a] + (int64_t)end[a];
                ic[2 + a] = (uint32_t)(p < 0 ? 0 : p);
            }
            padded += in_padded;
            if (in_input) {
                ic[0] = oc[0];
                ic[1] = oc[1];
                ref_get(input, ic, b);
                sum += read_int(it, b) - iz;
                valid++;
            }
            uint32_t a = dims;
            while (a-- > 0 && ++k[a] == window[a])
                k[a] = 0;
            if (a == UINT32_MAX)
                break;
        }
        int64_t divisor = include_padding ? padded : valid;
        double x = (double)(float)((double)(float)(double)sum * is);
        double avg = divisor > 0 ? (double)(float)(x / (double)divisor) : 0.0;
        int64_t v = ref_quantize_value(avg, os, oz, ot);
        memcpy(b, &v, 1);
        ref_put(out, oc, b);
    } while (ref_next_coord(out->rank, out->sizes, oc));
    return true;
}
