/* SPDX-License-Identifier: MIT */
/* ref_logic.c: see ref_logic.h. */
#include "ref_logic.h"

#include <math.h>
#include <string.h>

#include "ref_broadcast.h"

static const char *const names[REF_LG_COUNT] = {"LOGICAL_EQUALS",
                                                "LOGICAL_GREATER_THAN",
                                                "LOGICAL_GREATER_THAN_OR_EQUAL",
                                                "LOGICAL_LESS_THAN",
                                                "LOGICAL_LESS_THAN_OR_EQUAL",
                                                "LOGICAL_AND",
                                                "LOGICAL_OR",
                                                "LOGICAL_XOR",
                                                "LOGICAL_NOT",
                                                "BIT_AND",
                                                "BIT_OR",
                                                "BIT_XOR",
                                                "BIT_NOT",
                                                "BIT_SHIFT_LEFT",
                                                "BIT_SHIFT_RIGHT",
                                                "BIT_COUNT",
                                                "IS_INFINITY",
                                                "IS_NAN",
                                                "IF",
                                                "CAST"};

const char *ref_lg_name(ref_lg_op op)
{
    return op < REF_LG_COUNT ? names[op] : "?";
}

int ref_lg_arity(ref_lg_op op)
{
    switch (op) {
    case REF_LG_NOT:
    case REF_LG_BIT_NOT:
    case REF_LG_BIT_COUNT:
    case REF_LG_IS_INFINITY:
    case REF_LG_IS_NAN:
    case REF_LG_CAST: return 1;
    case REF_LG_IF: return 3;
    default: return 2;
    }
}

/* The encoding, zero-extended. */
static uint64_t bits_of(DML_TENSOR_DATA_TYPE t, const void *p)
{
    uint64_t b = 0;
    memcpy(&b, p, ref_type_size(t));
    return b;
}

/* An integer's value as 64 bits: sign-extended for signed types. */
static uint64_t int_of(DML_TENSOR_DATA_TYPE t, const void *p)
{
    uint64_t b = bits_of(t, p);
    unsigned w = 8 * (unsigned)ref_type_size(t);
    if (ref_type_is_signed_int(t) && w < 64 && (b >> (w - 1)) & 1)
        b |= ~0ull << w;
    return b;
}

static double float_of(DML_TENSOR_DATA_TYPE t, const void *p)
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

static void put_float(DML_TENSOR_DATA_TYPE t, double x, void *p)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(x);
        memcpy(p, &h, 2);
    } else if (t == DML_TENSOR_DATA_TYPE_FLOAT32) {
        float f = (float)x;
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &x, 8);
    }
}

static void put_bits(DML_TENSOR_DATA_TYPE t, uint64_t b, void *p)
{
    memcpy(p, &b, ref_type_size(t)); /* little-endian: the low bytes */
}

/* -1, 0, 1 for a < b, a == b, a > b; 2 when unordered (a NaN). */
static int order(DML_TENSOR_DATA_TYPE t, const void *a, const void *b)
{
    if (ref_type_is_float(t)) {
        double x = float_of(t, a), y = float_of(t, b);
        return isnan(x) || isnan(y) ? 2 : (x > y) - (x < y);
    }
    uint64_t x = int_of(t, a), y = int_of(t, b);
    if (ref_type_is_signed_int(t))
        return ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y);
    return (x > y) - (x < y);
}

void ref_cast_element(DML_TENSOR_DATA_TYPE ft, const void *from, DML_TENSOR_DATA_TYPE tt, void *to)
{
    if (ref_type_is_float(ft) && ref_type_is_float(tt)) {
        put_float(tt, float_of(ft, from), to);
        return;
    }
    if (ref_type_is_float(tt)) { /* integer to float: the exact value rounded once */
        uint64_t v = int_of(ft, from);
        if (tt == DML_TENSOR_DATA_TYPE_FLOAT32) {
            float f = ref_type_is_signed_int(ft) ? (float)(int64_t)v : (float)v;
            memcpy(to, &f, 4);
        } else {
            /* Exact in double below 2^53; past it, FLOAT16 overflows anyway. */
            put_float(tt, ref_type_is_signed_int(ft) ? (double)(int64_t)v : (double)v, to);
        }
        return;
    }
    if (ref_type_is_float(ft)) { /* toward zero, saturated, NaN 0 */
        double x = trunc(float_of(ft, from));
        unsigned w = 8 * (unsigned)ref_type_size(tt);
        uint64_t r;
        if (isnan(x)) {
            r = 0;
        } else if (ref_type_is_signed_int(tt)) {
            double lo = -ldexp(1, (int)w - 1), hi = ldexp(1, (int)w - 1);
            int64_t mx = (int64_t)((w == 64 ? ~0ull >> 1 : (1ull << (w - 1)) - 1));
            r = x >= hi ? (uint64_t)mx : x <= lo ? (uint64_t)(-mx - 1) : (uint64_t)(int64_t)x;
        } else {
            double hi = ldexp(1, (int)w);
            uint64_t mx = w == 64 ? ~0ull : (1ull << w) - 1;
            r = x >= hi ? mx : x <= 0 ? 0 : (uint64_t)x;
        }
        put_bits(tt, r, to);
        return;
    }
    put_bits(tt, int_of(ft, from), to); /* integers wrap */
}

static void apply(ref_lg_op op, int mode, const ref_tensor *const *in, const unsigned char x[3][16],
                  const ref_tensor *out, unsigned char *y)
{
    DML_TENSOR_DATA_TYPE t = in[0]->type, ot = out->type;
    unsigned w = 8 * (unsigned)ref_type_size(t);
    uint64_t a = bits_of(t, x[0]), b = ref_lg_arity(op) > 1 ? bits_of(in[1]->type, x[1]) : 0;
    uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
    int o = op <= REF_LG_LESS_EQUAL ? order(t, x[0], x[1]) : 0;
    uint64_t r = 0;
    switch (op) {
    case REF_LG_EQUALS: r = o == 0; break;
    case REF_LG_GREATER: r = o == 1; break;
    case REF_LG_GREATER_EQUAL: r = o == 0 || o == 1; break;
    case REF_LG_LESS: r = o == -1; break;
    case REF_LG_LESS_EQUAL: r = o == 0 || o == -1; break;
    case REF_LG_AND: r = a && b; break;
    case REF_LG_OR: r = a || b; break;
    case REF_LG_XOR: r = !a != !b; break;
    case REF_LG_NOT: r = !a; break;
    case REF_LG_BIT_AND: r = a & b; break;
    case REF_LG_BIT_OR: r = a | b; break;
    case REF_LG_BIT_XOR: r = a ^ b; break;
    case REF_LG_BIT_NOT: r = ~a & mask; break;
    case REF_LG_SHIFT_LEFT: r = b >= w ? 0 : (a << b) & mask; break;
    case REF_LG_SHIFT_RIGHT: r = b >= w ? 0 : a >> b; break;
    case REF_LG_BIT_COUNT:
        for (; a; a &= a - 1)
            ++r;
        break;
    case REF_LG_IS_INFINITY: {
        double v = float_of(t, x[0]);
        r = isinf(v) && (mode == 0 || (mode == 1 ? v > 0 : v < 0));
        break;
    }
    case REF_LG_IS_NAN: r = isnan(float_of(t, x[0])); break;
    case REF_LG_IF: memcpy(y, a ? x[1] : x[2], ref_type_size(ot)); return;
    case REF_LG_CAST: ref_cast_element(t, x[0], ot, y); return;
    default: break;
    }
    put_bits(ot, r, y);
}

bool ref_logic(ref_lg_op op, int mode, const ref_tensor *const *in, const ref_tensor *out)
{
    int n = ref_lg_arity(op);
    for (int k = 0; k < n; ++k) {
        if (in[k]->rank != out->rank)
            return false;
        for (uint32_t d = 0; d < out->rank; ++d)
            if (in[k]->sizes[d] != out->sizes[d])
                return false;
    }
    uint32_t coord[REF_MAX_DIMS] = {0};
    if (ref_element_count(out->rank, out->sizes) == 0)
        return true;
    unsigned char x[3][16], y[16];
    do {
        memset(x, 0, sizeof x);
        for (int k = 0; k < n; ++k)
            ref_get(in[k], coord, x[k]);
        apply(op, mode, in, (const unsigned char(*)[16])x, out, y);
        ref_put(out, coord, y);
    } while (ref_next_coord(out->rank, out->sizes, coord));
    return true;
}

void ref_fill_constant(const DML_SCALAR_UNION *value, const ref_tensor *out)
{
    uint32_t coord[REF_MAX_DIMS] = {0};
    do
        ref_put(out, coord, value->Bytes);
    while (ref_next_coord(out->rank, out->sizes, coord));
}

void ref_fill_sequence(const DML_SCALAR_UNION *start, const DML_SCALAR_UNION *delta,
                       const ref_tensor *out)
{
    DML_TENSOR_DATA_TYPE t = out->type;
    uint32_t coord[REF_MAX_DIMS] = {0};
    uint64_t i = 0;
    unsigned char y[16];
    do {
        if (ref_type_is_float(t))
            put_float(t, fma((double)i, float_of(t, delta->Bytes), float_of(t, start->Bytes)), y);
        else
            put_bits(t, int_of(t, start->Bytes) + i * int_of(t, delta->Bytes), y);
        ref_put(out, coord, y);
        ++i;
    } while (ref_next_coord(out->rank, out->sizes, coord));
}
