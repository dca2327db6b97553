/* SPDX-License-Identifier: MIT */
/*
 * Element types of the case format and the conversions between JSON values
 * and element bits: floats of any width rounded once, to nearest-even,
 * straight from the parsed double; integers read exactly from a number's
 * literal text or a decimal string (json.c), checked against their range.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runner.h"

static const rt_type types[] = {
    {"FLOAT16", DML_TENSOR_DATA_TYPE_FLOAT16, 2, RT_KIND_FLOAT, 5, 10},
    {"FLOAT32", DML_TENSOR_DATA_TYPE_FLOAT32, 4, RT_KIND_FLOAT, 8, 23},
    {"FLOAT64", DML_TENSOR_DATA_TYPE_FLOAT64, 8, RT_KIND_FLOAT, 11, 52},
    {"INT8", DML_TENSOR_DATA_TYPE_INT8, 1, RT_KIND_SINT, 0, 0},
    {"INT16", DML_TENSOR_DATA_TYPE_INT16, 2, RT_KIND_SINT, 0, 0},
    {"INT32", DML_TENSOR_DATA_TYPE_INT32, 4, RT_KIND_SINT, 0, 0},
    {"INT64", DML_TENSOR_DATA_TYPE_INT64, 8, RT_KIND_SINT, 0, 0},
    {"UINT8", DML_TENSOR_DATA_TYPE_UINT8, 1, RT_KIND_UINT, 0, 0},
    {"UINT16", DML_TENSOR_DATA_TYPE_UINT16, 2, RT_KIND_UINT, 0, 0},
    {"UINT32", DML_TENSOR_DATA_TYPE_UINT32, 4, RT_KIND_UINT, 0, 0},
    {"UINT64", DML_TENSOR_DATA_TYPE_UINT64, 8, RT_KIND_UINT, 0, 0},
    {"BOOLEAN", DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 1, RT_KIND_BOOL, 0, 0},
    {"BFLOAT16", DMLCL_TENSOR_DATA_TYPE_BFLOAT16, 2, RT_KIND_FLOAT, 8, 7},
};

const rt_type *rt_type_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(types[i].name, name) == 0)
            return &types[i];
    return NULL;
}

/* ---- Float encoding ---------------------------------------------------------- */

uint64_t rt_float_encode(double x, unsigned exp_bits, unsigned man_bits)
{
    const uint64_t sign = signbit(x) ? (uint64_t)1 << (exp_bits + man_bits) : 0;
    const uint64_t exp_all = ((uint64_t)1 << exp_bits) - 1;
    const uint64_t hidden = (uint64_t)1 << man_bits;
    const int bias = (1 << (exp_bits - 1)) - 1;
    if (isnan(x))
        return sign | exp_all << man_bits | hidden >> 1; /* the canonical quiet NaN */
    double a = fabs(x);
    if (isinf(a))
        return sign | exp_all << man_bits;
    if (a == 0)
        return sign;
    int e;
    (void)frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int unbiased = e - 1;
    if (unbiased < 1 - bias)
        unbiased = 1 - bias; /* subnormal: the quantum of the smallest exponent */
    /* Scaling by a power of two is exact, so this is the one rounding. */
    uint64_t m = (uint64_t)nearbyint(ldexp(a, (int)man_bits - unbiased));
    if (m == hidden << 1) {
        m = hidden;
        ++unbiased;
    }
    if (m < hidden)
        return sign | m; /* subnormal (or zero) */
    const int biased = unbiased + bias;
    if (biased >= (int)exp_all)
        return sign | exp_all << man_bits; /* overflow rounds to infinity */
    return sign | (uint64_t)biased << man_bits | (m - hidden);
}

double rt_float_decode(uint64_t bits, unsigned exp_bits, unsigned man_bits)
{
    const uint64_t exp_all = ((uint64_t)1 << exp_bits) - 1;
    const uint64_t man = bits & (((uint64_t)1 << man_bits) - 1);
    const uint64_t field = (bits >> man_bits) & exp_all;
    const int neg = (int)((bits >> (exp_bits + man_bits)) & 1);
    const int bias = (1 << (exp_bits - 1)) - 1;
    double v;
    if (field == exp_all)
        v = man ? NAN : INFINITY;
    else if (field == 0)
        v = ldexp((double)man, 1 - bias - (int)man_bits);
    else
        v = ldexp((double)(man | (uint64_t)1 << man_bits), (int)field - bias - (int)man_bits);
    return neg ? -v : v;
}

/* ---- Raw element access ---------------------------------------------------- */

uint64_t rt_value_bits(const rt_type *t, const void *src)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (t->size) {
    case 1: memcpy(&u8, src, 1); return u8;
    case 2: memcpy(&u16, src, 2); return u16;
    case 4: memcpy(&u32, src, 4); return u32;
    default: memcpy(&u64, src, 8); return u64;
    }
}

static void store_bits(const rt_type *t, uint64_t bits, void *dst)
{
    uint8_t u8 = (uint8_t)bits;
    uint16_t u16 = (uint16_t)bits;
    uint32_t u32 = (uint32_t)bits;
    switch (t->size) {
    case 1: memcpy(dst, &u8, 1); break;
    case 2: memcpy(dst, &u16, 2); break;
    case 4: memcpy(dst, &u32, 4); break;
    default: memcpy(dst, &bits, 8); break;
    }
}

int64_t rt_value_int(const rt_type *t, const void *src)
{
    uint64_t bits = rt_value_bits(t, src);
    if (t->kind == RT_KIND_SINT && t->size < 8) {
        uint64_t sign = (uint64_t)1 << (t->size * 8 - 1);
        return (int64_t)((bits ^ sign) - sign);
    }
    return (int64_t)bits;
}

double rt_value_double(const rt_type *t, const void *src)
{
    uint64_t bits = rt_value_bits(t, src);
    if (t->size == 8) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    return rt_float_decode(bits, t->exp_bits, t->man_bits);
}

/* ---- Parsing JSON values ------------------------------------------------------ */

static int parse_float_string(const char *s, double *out)
{
    const char *p = s;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (strcasecmp(p, "nan") == 0) {
        *out = neg ? -NAN : NAN;
        return 0;
    }
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return 0;
    }
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return (end == s || *end != '\0') ? -1 : 0;
}

static int parse_float(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n)
{
    double d;
    if (cJSON_IsNumber(v)) {
        d = v->valuedouble;
    } else if (cJSON_IsString(v)) {
        if (parse_float_string(v->valuestring, &d) != 0) {
            snprintf(why, n, "\"%s\" is not a %s value (a number, \"nan\", \"inf\", \"-inf\")",
                     v->valuestring, t->name);
            return -1;
        }
    } else {
        snprintf(why, n, "a %s value must be a number or a string", t->name);
        return -1;
    }
    if (t->size == 8) {
        memcpy(dst, &d, 8);
        return 0;
    }
    store_bits(t, rt_float_encode(d, t->exp_bits, t->man_bits), dst);
    return 0;
}

/* Bounds of an integer type as [lo, hi], lo as int64 and hi as uint64. */
static void int_bounds(const rt_type *t, int64_t *lo, uint64_t *hi)
{
    unsigned bits = t->size * 8;
    if (t->kind == RT_KIND_SINT) {
        *lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        *hi = ((uint64_t)1 << (bits - 1)) - 1;
    } else {
        *lo = 0;
        *hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    }
}

static int parse_int(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n)
{
    int neg;
    uint64_t mag;
    char inner[RT_WHY_MAX / 2];
    if (rt_json_integer(v, &neg, &mag, inner, sizeof inner) != 0) {
        snprintf(why, n, "%s (%s values are integers: numbers or decimal strings)", inner, t->name);
        return -1;
    }
    int64_t lo;
    uint64_t hi;
    int_bounds(t, &lo, &hi);
    int ok = neg ? (mag == 0 || (lo < 0 && mag - 1 <= (uint64_t)(-(lo + 1)))) : mag <= hi;
    if (!ok) {
        const char *text = cJSON_IsString(v) ? v->valuestring : rt_json_number_text(v);
        snprintf(why, n, "%s is out of range for %s", text ? text : "the value", t->name);
        return -1;
    }
    store_bits(t, neg ? (uint64_t)0 - mag : mag, dst);
    return 0;
}

static int parse_bool(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n)
{
    uint8_t b;
    if (cJSON_IsBool(v)) {
        b = cJSON_IsTrue(v) ? 1 : 0;
    } else if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1)) {
        b = (uint8_t)v->valuedouble;
    } else {
        snprintf(why, n, "a %s value must be true, false, 0 or 1", t->name);
        return -1;
    }
    memcpy(dst, &b, 1);
    return 0;
}

int rt_value_parse(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n)
{
    switch (t->kind) {
    case RT_KIND_FLOAT: return parse_float(t, v, dst, why, n);
    case RT_KIND_BOOL: return parse_bool(t, v, dst, why, n);
    default: return parse_int(t, v, dst, why, n);
    }
}

/* ---- Printing and comparing ------------------------------------------------- */

void rt_value_format(const rt_type *t, const void *src, char *buf, size_t n)
{
    const uint64_t bits = rt_value_bits(t, src);
    const int digits = (int)t->size * 2;
    switch (t->kind) {
    case RT_KIND_FLOAT:
        snprintf(buf, n, t->size == 8 ? "%.17g (0x%0*" PRIx64 ")" : "%.9g (0x%0*" PRIx64 ")",
                 rt_value_double(t, src), digits, bits);
        break;
    case RT_KIND_SINT:
        snprintf(buf, n, "%" PRId64 " (0x%0*" PRIx64 ")", rt_value_int(t, src), digits, bits);
        break;
    default: snprintf(buf, n, "%" PRIu64 " (0x%0*" PRIx64 ")", bits, digits, bits); break;
    }
}

/* Sign-magnitude bits onto a line where neighbours differ by one. */
static int64_t ordered(uint64_t bits, unsigned width_bits)
{
    uint64_t sign = (uint64_t)1 << (width_bits - 1);
    int64_t mag = (int64_t)(bits & (sign - 1));
    return (bits & sign) ? -mag : mag;
}

uint64_t rt_ulp_distance(const rt_type *t, const void *a, const void *b)
{
    double da = rt_value_double(t, a), db = rt_value_double(t, b);
    if (isnan(da) || isnan(db))
        return (isnan(da) && isnan(db)) ? 0 : UINT64_MAX;
    int64_t oa = ordered(rt_value_bits(t, a), t->size * 8);
    int64_t ob = ordered(rt_value_bits(t, b), t->size * 8);
    return oa > ob ? (uint64_t)oa - (uint64_t)ob : (uint64_t)ob - (uint64_t)oa;
}
