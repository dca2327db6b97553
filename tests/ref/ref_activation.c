/* SPDX-License-Identifier: MIT */
/* ref_activation.c: see ref_activation.h. */
#include <math.h>
#include <string.h>

#include "ref_activation.h"
#include "ref_broadcast.h"

static const char *const names[REF_ACT_COUNT] = {"NONE",
                                                 "CELU",
                                                 "ELU",
                                                 "GELU",
                                                 "HARD_SIGMOID",
                                                 "HARD_SWISH",
                                                 "IDENTITY",
                                                 "LEAKY_RELU",
                                                 "LINEAR",
                                                 "PARAMETRIC_SOFTPLUS",
                                                 "RELU",
                                                 "SCALED_ELU",
                                                 "SCALED_TANH",
                                                 "SHRINK",
                                                 "SIGMOID",
                                                 "SOFTPLUS",
                                                 "SOFTSIGN",
                                                 "SWISH",
                                                 "TANH",
                                                 "THRESHOLDED_RELU",
                                                 "PARAMETERIZED_RELU"};

const char *ref_act_name(ref_act act)
{
    return act < REF_ACT_COUNT ? names[act] : "?";
}

unsigned ref_activation_ulps(ref_act act)
{
    switch (act) {
    case REF_ACT_LEAKY_RELU:
    case REF_ACT_PARAMETERIZED_RELU:
    case REF_ACT_SHRINK:
    case REF_ACT_HARD_SIGMOID: return 1;
    case REF_ACT_LINEAR:
    case REF_ACT_HARD_SWISH:
    case REF_ACT_SOFTSIGN: return 2;
    case REF_ACT_ELU:
    case REF_ACT_CELU:
    case REF_ACT_SCALED_ELU:
    case REF_ACT_GELU:
    case REF_ACT_SOFTPLUS:
    case REF_ACT_PARAMETRIC_SOFTPLUS: return 18;
    case REF_ACT_SIGMOID: return 34;
    case REF_ACT_SWISH: return 35;
    default: return 0;
    }
}

double ref_activation_abs(ref_act act, const double *p)
{
    if (act == REF_ACT_TANH)
        return 1.0 / 1024;
    if (act == REF_ACT_SCALED_TANH)
        return fmax(1.0, fabs(p[0])) / 1024;
    return 0;
}

/* ln(1 + e^z) without overflow or cancellation. */
static double softplus(double z)
{
    if (isnan(z))
        return z;
    return fmax(z, 0) + log1p(exp(-fabs(z)));
}

static double sigmoid(double z)
{
    return 1 / (1 + exp(-z));
}

static double hard_sigmoid(double x, double a, double b)
{
    double v = a * x + b;
    return v < 0 ? 0 : v > 1 ? 1 : v; /* NaN stays NaN */
}

double ref_act_real(ref_act act, const double *p, double x)
{
    switch (act) {
    case REF_ACT_NONE:
    case REF_ACT_IDENTITY: return x;
    case REF_ACT_CELU:
        /* max(0, x) + min(0, Alpha (e^(x / Alpha) - 1)) */
        return fmax(0, x) + fmin(0, p[0] * expm1(x / p[0])) + (isnan(x) ? x : 0);
    case REF_ACT_ELU: return x >= 0 ? x : p[0] * expm1(x);
    case REF_ACT_GELU: return 0.5 * x * erfc(-x / sqrt(2.0));
    case REF_ACT_HARD_SIGMOID: return hard_sigmoid(x, p[0], p[1]);
    case REF_ACT_HARD_SWISH: return x * hard_sigmoid(x, p[0], p[1]);
    case REF_ACT_LEAKY_RELU: return x >= 0 ? x : p[0] * x;
    case REF_ACT_LINEAR: return p[0] * x + p[1];
    case REF_ACT_PARAMETRIC_SOFTPLUS: return p[0] * softplus(p[1] * x);
    case REF_ACT_RELU: return isnan(x) || x > 0 ? x : 0.0;
    case REF_ACT_SCALED_ELU: return x > 0 ? p[1] * x : p[1] * (p[0] * expm1(x));
    case REF_ACT_SCALED_TANH: return p[0] * tanh(p[1] * x);
    case REF_ACT_SHRINK: return x > p[1] ? x - p[0] : x < -p[1] ? x + p[0] : 0.0;
    case REF_ACT_SIGMOID: return sigmoid(x);
    case REF_ACT_SOFTPLUS: return softplus(p[0] * x) / p[0];
    case REF_ACT_SOFTSIGN: return isinf(x) ? copysign(1.0, x) : x / (1 + fabs(x));
    case REF_ACT_SWISH: return x * sigmoid(p[0] * x);
    case REF_ACT_TANH: return tanh(x);
    case REF_ACT_THRESHOLDED_RELU: return x > p[0] ? x : 0.0;
    default: return NAN;
    }
}

/* ---- Element access ------------------------------------------------------------------ */

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

static int64_t read_int(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_INT8: return (int8_t)p[0];
    case DML_TENSOR_DATA_TYPE_UINT8: return p[0];
    case DML_TENSOR_DATA_TYPE_INT16: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case DML_TENSOR_DATA_TYPE_UINT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* The low bytes (little-endian): two's complement wrap into the type's width. */
static void write_int(DML_TENSOR_DATA_TYPE t, int64_t v, unsigned char *p)
{
    uint64_t u = (uint64_t)v;
    memcpy(p, &u, ref_type_size(t));
}

/* x - Bias (sign -1) or x + Bias (sign +1), exact, truncated toward zero; 0 for a non-finite
 * Bias. Bias = whole + frac with frac in [0, 1): the whole part is added exactly (modulo 2^32,
 * which the wrap into at most 32 bits allows), then the fraction moves a result off zero's
 * side by one. */
static int64_t shrink_shift(int64_t x, double bias, int sign)
{
    if (!isfinite(bias))
        return 0;
    double whole = floor(bias), frac = bias - whole;
    int64_t n = x + sign * (int64_t)fmod(whole, 4294967296.0);
    if (frac == 0)
        return n;
    /* n + frac (sign +1) or n - frac (sign -1), 0 < frac < 1 */
    if (sign > 0)
        return n >= 0 ? n : n + 1;
    return n > 0 ? n - 1 : n;
}

static int64_t act_int(ref_act act, const double *p, int64_t x, int64_t slope)
{
    switch (act) {
    case REF_ACT_RELU: return x > 0 ? x : 0;
    case REF_ACT_PARAMETERIZED_RELU: return x >= 0 ? x : slope * x;
    case REF_ACT_SHRINK:
        if (x > p[1])
            return shrink_shift(x, p[0], -1);
        if (x < -p[1])
            return shrink_shift(x, p[0], 1);
        return 0;
    default: return x;
    }
}

static bool same_shape(const ref_tensor *a, const ref_tensor *b)
{
    return a->type == b->type && a->rank == b->rank &&
           memcmp(a->sizes, b->sizes, a->rank * sizeof a->sizes[0]) == 0;
}

static bool apply(ref_act act, const double *p, const ref_tensor *in, const ref_tensor *other,
                  bool add, const ref_tensor *out)
{
    if (!same_shape(in, out) || (other && !same_shape(other, out)))
        return false;
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], s[16], y[16];
    bool is_float = ref_type_is_float(out->type);
    if (ref_element_count(out->rank, out->sizes) == 0)
        return true;
    do {
        ref_get(in, coord, x);
        if (other)
            ref_get(other, coord, s);
        if (is_float) {
            double v = read_float(in->type, x);
            if (add)
                v = (double)((float)v + (float)read_float(other->type, s));
            double r = act == REF_ACT_PARAMETERIZED_RELU
                           ? (v >= 0 ? v : read_float(other->type, s) * v)
                           : ref_act_real(act, p, v);
            write_float(out->type, r, y);
        } else {
            int64_t v = read_int(in->type, x), o = other ? read_int(other->type, s) : 0;
            write_int(out->type, add ? v + o : act_int(act, p, v, o), y);
        }
        ref_put(out, coord, y);
    } while (ref_next_coord(out->rank, out->sizes, coord));
    return true;
}

bool ref_activation(ref_act act, const double *p, const ref_tensor *in, const ref_tensor *slope,
                    const ref_tensor *out)
{
    if ((act == REF_ACT_PARAMETERIZED_RELU) != (slope != NULL))
        return false;
    return apply(act, p, in, slope, false, out);
}

bool ref_add1(ref_act act, const double *p, const ref_tensor *a, const ref_tensor *b,
              const ref_tensor *out)
{
    if (act != REF_ACT_NONE && !ref_type_is_float(out->type))
        return false;
    return apply(act, p, a, b, true, out);
}
