/* SPDX-License-Identifier: MIT */
/* ref_reduce.c: the oracle for REDUCE, ARGMIN and ARGMAX (ref_reduce.h). */
#include "ref_reduce.h"

#include <math.h>
#include <string.h>

#include "ref_broadcast.h"

#define N_FUNCTIONS 12

static const char *const names[N_FUNCTIONS] = {"ARGMAX", "ARGMIN",   "AVERAGE",     "L1",
                                               "L2",     "LOG_SUM",  "LOG_SUM_EXP", "MAX",
                                               "MIN",    "MULTIPLY", "SUM",         "SUM_SQUARE"};

const char *ref_reduce_name(DML_REDUCE_FUNCTION f)
{
    return (unsigned)f < N_FUNCTIONS ? names[f] : "?";
}

static bool is_arg(DML_REDUCE_FUNCTION f)
{
    return f == DML_REDUCE_FUNCTION_ARGMAX || f == DML_REDUCE_FUNCTION_ARGMIN;
}

bool ref_reduce_takes(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE t)
{
    bool floats = t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16;
    bool i32 = t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_UINT32;
    bool small = t == DML_TENSOR_DATA_TYPE_INT16 || t == DML_TENSOR_DATA_TYPE_INT8 ||
                 t == DML_TENSOR_DATA_TYPE_UINT16 || t == DML_TENSOR_DATA_TYPE_UINT8;
    switch (f) {
    case DML_REDUCE_FUNCTION_ARGMAX:
    case DML_REDUCE_FUNCTION_ARGMIN:
    case DML_REDUCE_FUNCTION_MAX:
    case DML_REDUCE_FUNCTION_MIN: return floats || i32 || small;
    case DML_REDUCE_FUNCTION_SUM:
    case DML_REDUCE_FUNCTION_MULTIPLY: return floats || i32;
    default: return floats && (unsigned)f < N_FUNCTIONS;
    }
}

unsigned ref_reduce_ulps(DML_REDUCE_FUNCTION f, uint64_t n)
{
    switch (f) {
    case DML_REDUCE_FUNCTION_SUM:
    case DML_REDUCE_FUNCTION_L1:
    case DML_REDUCE_FUNCTION_MULTIPLY: return (unsigned)n;
    case DML_REDUCE_FUNCTION_SUM_SQUARE: return (unsigned)n + 1;
    case DML_REDUCE_FUNCTION_AVERAGE:
    case DML_REDUCE_FUNCTION_L2: return (unsigned)n + 2;
    case DML_REDUCE_FUNCTION_LOG_SUM:
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return 1;
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

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (ref_type_is_float(t))
        return read_float(t, p);
    uint64_t u = read_int(t, p);
    return ref_type_is_signed_int(t) ? (double)(int64_t)u : (double)u;
}

/* MAX's order: a NaN gives the other operand, -0 below +0. */
static bool above(double a, double b)
{
    return a > b || (a == b && !signbit(a) && signbit(b));
}

static double dml_max(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : above(b, a) ? b : a;
}

static double dml_min(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : above(a, b) ? b : a;
}

/* ---- One row ----------------------------------------------------------------------------- */

typedef struct row {
    uint64_t n;
    double *v; /* the row's values in row-major order over the reduced axes */
} row;

/* ARGMAX (sign 1) or ARGMIN (sign -1): NaN never wins, -0 == +0, ties by index_last. */
static uint64_t arg_of(const row *r, int sign, bool index_last)
{
    uint64_t best = 0;
    bool found = false;
    for (uint64_t i = 0; i < r->n; ++i) {
        double x = r->v[i];
        if (isnan(x))
            continue;
        double b = r->v[best];
        if (!found || sign * x > sign * b || (x == b && index_last)) {
            best = i;
            found = true;
        }
    }
    if (!found && index_last)
        best = r->n - 1;
    return best;
}

static double log_sum_exp(const row *r)
{
    double m = -INFINITY;
    for (uint64_t i = 0; i < r->n; ++i) {
        double x = r->v[i];
        if (isnan(x))
            return NAN; /* before a +inf anywhere in the row */
        if (x > m)
            m = x;
    }
    if (m == INFINITY || m == -INFINITY)
        return m;
    double s = 0;
    for (uint64_t i = 0; i < r->n; ++i)
        s += exp(r->v[i] - m);
    return m + log(s);
}

/* f of a float row, and the absolute error a float32 accumulation of it may make. */
static double float_row(DML_REDUCE_FUNCTION f, const row *r, double *bound)
{
    const double u = ldexp(1, -24);
    double n = (double)r->n, s = 0, sa = 0, sq = 0, p = 1, mx = NAN, mn = NAN;
    for (uint64_t i = 0; i < r->n; ++i) {
        double x = r->v[i];
        s += x;
        sa += fabs(x);
        sq += x * x;
        p *= x;
        mx = dml_max(mx, x);
        mn = dml_min(mn, x);
    }
    switch (f) {
    case DML_REDUCE_FUNCTION_AVERAGE: *bound = (n + 2) * u * sa / n; return s / n;
    case DML_REDUCE_FUNCTION_L1: *bound = n * u * sa; return sa;
    case DML_REDUCE_FUNCTION_L2: *bound = (n + 2) * u * sqrt(sq); return sqrt(sq);
    case DML_REDUCE_FUNCTION_LOG_SUM:
        *bound = 1.0 / 1024 + (s != 0 ? n * u * sa / fabs(s) : 0);
        return log(s);
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: *bound = 1.0 / 1024; return log_sum_exp(r);
    case DML_REDUCE_FUNCTION_MAX: *bound = 0; return mx;
    case DML_REDUCE_FUNCTION_MIN: *bound = 0; return mn;
    case DML_REDUCE_FUNCTION_MULTIPLY: *bound = n * u * fabs(p); return p;
    case DML_REDUCE_FUNCTION_SUM: *bound = n * u * sa; return s;
    default: *bound = (n + 1) * u * sq; return sq; /* SUM_SQUARE */
    }
}

/* f of an integer row (SUM, MULTIPLY, MIN, MAX), wrapped later into the output's width. */
static uint64_t int_row(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE t, const row *r)
{
    bool sgn = ref_type_is_signed_int(t);
    uint64_t acc = f == DML_REDUCE_FUNCTION_MULTIPLY ? 1 : 0;
    for (uint64_t i = 0; i < r->n; ++i) {
        uint64_t x = sgn ? (uint64_t)(int64_t)r->v[i] : (uint64_t)r->v[i];
        if (f == DML_REDUCE_FUNCTION_SUM)
            acc += x;
        else if (f == DML_REDUCE_FUNCTION_MULTIPLY)
            acc *= x;
        else if (i == 0)
            acc = x;
        else if (f == DML_REDUCE_FUNCTION_MAX
                     ? r->v[i] > (sgn ? (double)(int64_t)acc : (double)acc)
                     : r->v[i] < (sgn ? (double)(int64_t)acc : (double)acc))
            acc = x;
    }
    return acc;
}

static void write_index(DML_TENSOR_DATA_TYPE t, uint64_t idx, unsigned char *p)
{
    memcpy(p, &idx, ref_type_size(t)); /* little-endian: the low bytes */
}

static bool fits(DML_REDUCE_FUNCTION f, const ref_tensor *in, const bool *reduced,
                 const ref_tensor *out)
{
    if (!ref_reduce_takes(f, in->type) || out->rank != in->rank)
        return false;
    if (is_arg(f)) {
        DML_TENSOR_DATA_TYPE o = out->type;
        if (o != DML_TENSOR_DATA_TYPE_INT32 && o != DML_TENSOR_DATA_TYPE_UINT32 &&
            o != DML_TENSOR_DATA_TYPE_INT64 && o != DML_TENSOR_DATA_TYPE_UINT64)
            return false;
    } else if (out->type != in->type) {
        return false;
    }
    for (uint32_t d = 0; d < in->rank; ++d)
        if (out->sizes[d] != (reduced[d] ? 1 : in->sizes[d]))
            return false;
    return true;
}

bool ref_reduce(DML_REDUCE_FUNCTION f, const ref_tensor *in, const bool *reduced, bool index_last,
                const ref_tensor *out, double *bound)
{
    if (!fits(f, in, reduced, out))
        return false;
    uint32_t rank = in->rank, rsizes[REF_MAX_DIMS];
    uint64_t n = 1;
    for (uint32_t d = 0; d < rank; ++d) {
        rsizes[d] = reduced[d] ? in->sizes[d] : 1;
        n *= rsizes[d];
    }
    static double values[1 << 20];
    if (n > sizeof values / sizeof values[0])
        return false;
    row r = {n, values};
    uint32_t oc[REF_MAX_DIMS] = {0}, rc[REF_MAX_DIMS] = {0}, c[REF_MAX_DIMS];
    unsigned char e[8];
    uint64_t k = 0;
    do {
        uint64_t i = 0;
        do {
            for (uint32_t d = 0; d < rank; ++d)
                c[d] = reduced[d] ? rc[d] : oc[d];
            ref_get(in, c, e);
            values[i++] = value_of(in->type, e);
        } while (ref_next_coord(rank, rsizes, rc));
        memset(e, 0, sizeof e);
        double b = 0;
        if (is_arg(f))
            write_index(out->type, arg_of(&r, f == DML_REDUCE_FUNCTION_ARGMAX ? 1 : -1, index_last),
                        e);
        else if (ref_type_is_float(in->type))
            write_float(out->type, float_row(f, &r, &b), e);
        else {
            uint64_t v = int_row(f, in->type, &r);
            memcpy(e, &v, ref_type_size(out->type));
        }
        ref_put(out, oc, e);
        if (bound)
            bound[k] = b;
        ++k;
    } while (ref_next_coord(rank, out->sizes, oc));
    return true;
}
