/* SPDX-License-Identifier: MIT */
/* ref_elementwise.c: see ref_elementwise.h. */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_elementwise.h"

static const char *const names[REF_EW_COUNT] = {
    "ADD",    "SUBTRACT", "MULTIPLY", "DIVIDE", "MAX",  "MIN",   "MEAN", "DIFFERENCE_SQUARE",
    "NEGATE", "ABS",      "CEIL",     "FLOOR",  "SQRT", "RECIP", "EXP",  "LOG"};

const char *ref_ew_name(ref_ew_op op)
{
    return op < REF_EW_COUNT ? names[op] : "?";
}

bool ref_ew_binary(ref_ew_op op)
{
    return op <= REF_EW_DIFFERENCE_SQUARE;
}

unsigned ref_elementwise_ulps(ref_ew_op op)
{
    switch (op) {
    case REF_EW_ADD:
    case REF_EW_SUBTRACT:
    case REF_EW_MULTIPLY:
    case REF_EW_MEAN: return 1;
    case REF_EW_SQRT: return 1;
    case REF_EW_DIVIDE:
    case REF_EW_DIFFERENCE_SQUARE:
    case REF_EW_RECIP: return 2;
    case REF_EW_EXP: return 32;
    default: return 0;
    }
}

double ref_elementwise_abs(ref_ew_op op)
{
    return op == REF_EW_LOG ? 1.0 / 1024 : 0;
}

/* ---- Floating point ------------------------------------------------------------------ */

static double read_float(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
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

static void write_float(DML_TENSOR_DATA_TYPE t, double v, unsigned char *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else if (t == DML_TENSOR_DATA_TYPE_FLOAT32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

/* DirectML's order for MAX and MIN: a NaN gives the other operand, -0 is below +0. */
static bool above(double a, double b)
{
    return a > b || (a == b && !signbit(a) && signbit(b));
}

static double float_op(ref_ew_op op, double a, double b)
{
    switch (op) {
    case REF_EW_ADD: return a + b;
    case REF_EW_SUBTRACT: return a - b;
    case REF_EW_MULTIPLY: return a * b;
    case REF_EW_DIVIDE: return a / b;
    case REF_EW_MAX: return isnan(a) ? b : isnan(b) ? a : above(b, a) ? b : a;
    case REF_EW_MIN: return isnan(a) ? b : isnan(b) ? a : above(a, b) ? b : a;
    case REF_EW_MEAN: return (a + b) / 2;
    case REF_EW_DIFFERENCE_SQUARE: return (a - b) * (a - b);
    case REF_EW_NEGATE: return -a;
    case REF_EW_ABS: return fabs(a);
    case REF_EW_CEIL: return ceil(a);
    case REF_EW_FLOOR: return floor(a);
    case REF_EW_SQRT: return sqrt(a);
    case REF_EW_RECIP: return 1 / a;
    case REF_EW_EXP: return exp(a);
    case REF_EW_LOG: return log(a);
    default: return NAN;
    }
}

/* g(x) = x * Scale + Bias in FLOAT32, rounded once (fmaf: correctly rounded). */
static double scale_bias(double x, const DML_SCALE_BIAS *sb)
{
    return fmaf((float)x, sb->Scale, sb->Bias);
}

/* ---- Integers ------------------------------------------------------------------------ */

static bool is_signed(DML_TENSOR_DATA_TYPE t)
{
    return ref_type_is_signed_int(t);
}

static int64_t read_int(DML_TENSOR_DATA_TYPE t, const unsigned char *p, size_t w)
{
    uint64_t u = 0;
    memcpy(&u, p, w); /* little-endian */
    if (is_signed(t) && w < 8 && (u >> (8 * w - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * w);
    return (int64_t)u;
}

static uint64_t int_op(ref_ew_op op, DML_TENSOR_DATA_TYPE t, size_t w, int64_t a, int64_t b)
{
    bool s = is_signed(t);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    if (!s && w < 8) { /* unsigned values as read */
        ua &= (~(uint64_t)0) >> (64 - 8 * w);
        ub &= (~(uint64_t)0) >> (64 - 8 * w);
    }
    switch (op) {
    case REF_EW_ADD: return ua + ub;
    case REF_EW_SUBTRACT: return ua - ub;
    case REF_EW_MULTIPLY: return ua * ub;
    case REF_EW_DIFFERENCE_SQUARE: return (ua - ub) * (ua - ub);
    case REF_EW_NEGATE: return 0 - ua;
    case REF_EW_ABS: return a < 0 ? 0 - ua : ua;
    case REF_EW_MAX: return s ? (uint64_t)(a > b ? a : b) : (ua > ub ? ua : ub);
    case REF_EW_MIN: return s ? (uint64_t)(a < b ? a : b) : (ua < ub ? ua : ub);
    case REF_EW_DIVIDE:
        if (ub == 0)
            return ~(uint64_t)0; /* every bit set */
        if (!s)
            return ua / ub;
        if (b == -1)
            return 0 - ua; /* wraps for the most negative value */
        return (uint64_t)(a / b);
    case REF_EW_MEAN: {
        /* The exact mean, truncated toward zero (MEAN takes 32-bit integers only). */
        __int128 sum = s ? (__int128)a + b : (__int128)ua + ub;
        return (uint64_t)(int64_t)(sum / 2);
    }
    default: return 0;
    }
}

/* ---- The operator ----------------------------------------------------------------------- */

static bool same(const ref_tensor *x, const ref_tensor *y)
{
    if (x->type != y->type || x->rank != y->rank)
        return false;
    for (uint32_t i = 0; i < x->rank; ++i)
        if (x->sizes[i] != y->sizes[i])
            return false;
    return true;
}

bool ref_elementwise(ref_ew_op op, const ref_tensor *a, const ref_tensor *b,
                     const DML_SCALE_BIAS *sb, const ref_tensor *out)
{
    if (op >= REF_EW_COUNT || !same(a, out) || (ref_ew_binary(op) != (b != NULL)) ||
        (b && !same(a, b)))
        return false;
    DML_TENSOR_DATA_TYPE t = a->type;
    size_t w = a->elem_size;
    bool flt = ref_type_is_float(t);
    if (sb && !flt)
        return false;
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char x[8], y[8] = {0}, r[8];
    if (ref_element_count(a->rank, a->sizes) == 0)
        return true;
    do {
        ref_get(a, c, x);
        if (b)
            ref_get(b, c, y);
        if (flt) {
            double va = read_float(t, x), vb = b ? read_float(t, y) : 0;
            if (sb)
                va = scale_bias(va, sb);
            write_float(t, float_op(op, va, vb), r);
        } else {
            uint64_t v = int_op(op, t, w, read_int(t, x, w), b ? read_int(t, y, w) : 0);
            memcpy(r, &v, w); /* the low bytes: wrapped into the width */
        }
        ref_put(out, c, r);
    } while (ref_next_coord(a->rank, a->sizes, c));
    return true;
}
