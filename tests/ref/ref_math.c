/* SPDX-License-Identifier: MIT */
/* ref_math.c: see ref_math.h. */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_math.h"

static const char *const names[REF_MATH_COUNT] = {
    "ACOS",         "ACOSH", "ASIN", "ASINH",     "ATAN",    "ATANH",         "COS",
    "COSH",         "ERF",   "SIN",  "SINH",      "TAN",     "TANH",          "CLIP",
    "CONSTANT_POW", "ROUND", "SIGN", "THRESHOLD", "ATAN_YX", "MODULUS_FLOOR", "MODULUS_TRUNCATE",
    "POW"};

const char *ref_math_name(ref_math_op op)
{
    return op < REF_MATH_COUNT ? names[op] : "?";
}

bool ref_math_binary(ref_math_op op)
{
    return op >= REF_MATH_ATAN_YX && op < REF_MATH_COUNT;
}

unsigned ref_math_ulps(ref_math_op op)
{
    switch (op) {
    /* Not in precision.md: OpenCL 1.2's full-profile bound for the built-in. */
    case REF_MATH_ACOS:
    case REF_MATH_ACOSH:
    case REF_MATH_ASIN:
    case REF_MATH_ASINH:
    case REF_MATH_COSH:
    case REF_MATH_SINH: return 4;
    case REF_MATH_ATAN:
    case REF_MATH_ATANH: return 5;
    case REF_MATH_ATAN_YX: return 6;
    case REF_MATH_CONSTANT_POW:
    case REF_MATH_POW: return 32;          /* precision.md: pow */
    case REF_MATH_MODULUS_FLOOR: return 1; /* fmod is exact; the divisor's add rounds once */
    default: return 0;
    }
}

double ref_math_abs(ref_math_op op)
{
    switch (op) {
    case REF_MATH_COS:
    case REF_MATH_SIN:
    case REF_MATH_TAN:
    case REF_MATH_TANH:
    case REF_MATH_ERF: return 1.0 / 1024; /* precision.md */
    default: return 0;
    }
}

/* ---- Values ------------------------------------------------------------------------------ */

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

/* An integer element: signed types sign-extended, unsigned zero-extended, as 64 bits. */
static uint64_t read_int(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    size_t w = ref_type_size(t);
    uint64_t u = 0;
    memcpy(&u, p, w);
    if (ref_type_is_signed_int(t) && w < 8 && ((u >> (8 * w - 1)) & 1))
        u |= ~(uint64_t)0 << (8 * w);
    return u;
}

static double int_value(DML_TENSOR_DATA_TYPE t, uint64_t u)
{
    return ref_type_is_signed_int(t) ? (double)(int64_t)u : (double)u;
}

/* ---- Floating point ----------------------------------------------------------------------- */

/* MAX's and MIN's order (docs/operators.md): a NaN gives the other operand, -0 below +0. */
static bool above(double a, double b)
{
    return a > b || (a == b && !signbit(a) && signbit(b));
}

/* POW's pages: a negative base with a non-integral exponent is NaN, -inf too (C99's pow gives
 * pow(-inf, 0.5) = +inf). */
static double dml_pow(double a, double e)
{
    return a == -INFINITY && rint(e) != e ? NAN : pow(a, e);
}

static double dml_max(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : above(b, a) ? b : a;
}

static double dml_min(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : above(a, b) ? b : a;
}

/* numpy.mod: the remainder with the divisor's sign. */
static double py_mod(double a, double b)
{
    double r = fmod(a, b);
    if (r == 0)
        return copysign(0, b);
    return (b < 0) != (r < 0) ? r + b : r;
}

static double round_by(double x, int mode)
{
    return mode == 0 ? nearbyint(x) : mode == 1 ? trunc(x) : round(x);
}

static double float_op(ref_math_op op, double a, double b, double lo, double hi, int mode)
{
    switch (op) {
    case REF_MATH_ACOS: return acos(a);
    case REF_MATH_ACOSH: return acosh(a);
    case REF_MATH_ASIN: return asin(a);
    case REF_MATH_ASINH: return asinh(a);
    case REF_MATH_ATAN: return atan(a);
    case REF_MATH_ATANH: return atanh(a);
    case REF_MATH_COS: return cos(a);
    case REF_MATH_COSH: return cosh(a);
    case REF_MATH_ERF: return erf(a);
    case REF_MATH_SIN: return sin(a);
    case REF_MATH_SINH: return sinh(a);
    case REF_MATH_TAN: return tan(a);
    case REF_MATH_TANH: return tanh(a);
    case REF_MATH_CLIP: return isnan(a) ? a : dml_max(lo, dml_min(a, hi));
    case REF_MATH_THRESHOLD: return isnan(a) ? a : dml_max(a, lo);
    case REF_MATH_CONSTANT_POW: return dml_pow(a, lo);
    case REF_MATH_ROUND: return round_by(a, mode);
    case REF_MATH_SIGN: return a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0;
    case REF_MATH_ATAN_YX: return atan2(a, b);
    case REF_MATH_MODULUS_FLOOR: return py_mod(a, b);
    case REF_MATH_MODULUS_TRUNCATE: return fmod(a, b);
    case REF_MATH_POW: return dml_pow(a, b);
    default: return NAN;
    }
}

/* ---- Integers ----------------------------------------------------------------------------- */

/* A FLOAT bound in an integer type: truncated toward zero, saturated, NaN 0. */
static uint64_t int_bound(DML_TENSOR_DATA_TYPE t, double v)
{
    int bits = 8 * (int)ref_type_size(t);
    if (isnan(v))
        return 0;
    v = trunc(v);
    if (ref_type_is_signed_int(t)) {
        double top = ldexp(1, bits - 1);
        if (v >= top)
            return (uint64_t)(int64_t)(top - 1 == top ? INT64_MAX : (int64_t)(top - 1));
        if (v <= -top)
            return bits == 64 ? (uint64_t)INT64_MIN : (uint64_t)(-(int64_t)top);
        return (uint64_t)(int64_t)v;
    }
    if (v <= 0)
        return 0;
    if (v >= ldexp(1, bits))
        return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return (uint64_t)v;
}

static bool less(DML_TENSOR_DATA_TYPE t, uint64_t a, uint64_t b)
{
    return ref_type_is_signed_int(t) ? (int64_t)a < (int64_t)b : a < b;
}

/* a^e modulo 2^64 for e >= 0; a negative e gives 1 / a^-e truncated (1 / 0: every bit set). */
static uint64_t int_pow(uint64_t a, int64_t e, bool a_signed)
{
    if (e < 0) {
        if (a == 1)
            return 1;
        if (a == 0)
            return ~(uint64_t)0;
        if (a_signed && (int64_t)a == -1)
            return (e % 2) ? ~(uint64_t)0 : 1;
        return 0;
    }
    uint64_t r = 1;
    for (uint64_t n = (uint64_t)e; n; n >>= 1, a *= a)
        if (n & 1)
            r *= a;
    return r;
}

static uint64_t int_op(ref_math_op op, DML_TENSOR_DATA_TYPE t, uint64_t a, uint64_t b, uint64_t lo,
                       uint64_t hi)
{
    bool s = ref_type_is_signed_int(t);
    switch (op) {
    case REF_MATH_CLIP: {
        uint64_t y = less(t, hi, a) ? hi : a;
        return less(t, y, lo) ? lo : y;
    }
    case REF_MATH_THRESHOLD: return less(t, a, lo) ? lo : a;
    case REF_MATH_SIGN:
        return s ? ((int64_t)a > 0 ? 1 : (int64_t)a < 0 ? ~(uint64_t)0 : 0) : a != 0;
    case REF_MATH_MODULUS_TRUNCATE:
    case REF_MATH_MODULUS_FLOOR: {
        if (b == 0)
            return a; /* x mod 0 is x */
        if (!s)
            return a % b;
        if ((int64_t)b == -1)
            return 0;
        int64_t r = (int64_t)a % (int64_t)b;
        if (op == REF_MATH_MODULUS_FLOOR && r != 0 && ((r < 0) != ((int64_t)b < 0)))
            r += (int64_t)b;
        return (uint64_t)r;
    }
    default: return 0;
    }
}

/* ---- The operator ---------------------------------------------------------------------------- */

static bool same_shape(const ref_tensor *x, const ref_tensor *y)
{
    if (x->rank != y->rank)
        return false;
    for (uint32_t i = 0; i < x->rank; ++i)
        if (x->sizes[i] != y->sizes[i])
            return false;
    return true;
}

/* A float to an integer output: truncated toward zero, saturated, NaN 0. */
static uint64_t saturate(DML_TENSOR_DATA_TYPE t, double v)
{
    return int_bound(t, v);
}

static void element(ref_math_op op, const ref_tensor *a, const ref_tensor *b,
                    const DML_SCALE_BIAS *sb, const ref_math_args *args, const unsigned char *x,
                    const unsigned char *y, unsigned char *r)
{
    DML_TENSOR_DATA_TYPE t = a->type, bt = b ? b->type : t;
    bool fa = ref_type_is_float(t), fb = ref_type_is_float(bt);
    if (op == REF_MATH_POW && !fa && !fb) {
        uint64_t v = int_pow(read_int(t, x), (int64_t)read_int(bt, y), ref_type_is_signed_int(t));
        memcpy(r, &v, ref_type_size(t));
        return;
    }
    if (fa || (op == REF_MATH_POW && fb)) {
        double va = fa ? read_float(t, x) : int_value(t, read_int(t, x));
        double vb = 0;
        if (b)
            vb = fb ? read_float(bt, y) : (double)(float)int_value(bt, read_int(bt, y));
        if (!fa)
            va = (double)(float)va; /* an integer base converted to FLOAT32 */
        if (sb)
            va = fmaf((float)va, sb->Scale, sb->Bias);
        double lo = args ? args->lo : 0, hi = args ? args->hi : 0;
        if (args && args->typed) {
            unsigned char lb[8], hb[8];
            memcpy(lb, &args->lo_bits, 8);
            memcpy(hb, &args->hi_bits, 8);
            lo = read_float(t, lb);
            hi = read_float(t, hb);
        }
        double v = float_op(op, va, vb, lo, hi, args ? args->mode : 0);
        if (fa) {
            write_float(t, v, r);
        } else {
            uint64_t u = saturate(t, (double)(float)v);
            memcpy(r, &u, ref_type_size(t));
        }
        return;
    }
    uint64_t lo = 0, hi = 0;
    if (args) {
        lo = args->typed ? read_int(t, (const unsigned char *)&args->lo_bits)
                         : int_bound(t, args->lo);
        hi = args->typed ? read_int(t, (const unsigned char *)&args->hi_bits)
                         : int_bound(t, args->hi);
    }
    uint64_t v = int_op(op, t, read_int(t, x), b ? read_int(t, y) : 0, lo, hi);
    memcpy(r, &v, ref_type_size(t));
}

bool ref_math(ref_math_op op, const ref_tensor *a, const ref_tensor *b, const DML_SCALE_BIAS *sb,
              const ref_math_args *args, const ref_tensor *out)
{
    if (op >= REF_MATH_COUNT || a->type != out->type || !same_shape(a, out) ||
        ref_math_binary(op) != (b != NULL) || (b && !same_shape(a, b)) ||
        (b && op != REF_MATH_POW && b->type != a->type))
        return false;
    if (sb && !ref_type_is_float(a->type))
        return false;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], y[8] = {0}, r[8];
    if (ref_element_count(a->rank, a->sizes) == 0)
        return true;
    do {
        ref_get(a, c, x);
        if (b)
            ref_get(b, c, y);
        element(op, a, b, sb, args, x, y, r);
        ref_put(out, c, r);
    } while (ref_next_coord(a->rank, a->sizes, c));
    return true;
}
