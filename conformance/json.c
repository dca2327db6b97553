/* SPDX-License-Identifier: MIT */
/*
 * Exact integers from case files (docs/case-format.md version 2, "64-bit
 * integers"). cJSON keeps a number only as a double, which cannot hold every
 * INT64 or UINT64, so after cJSON has parsed a file its text is scanned
 * again for number tokens, and each one's literal is attached to its number
 * node (in document order) as the node's valuestring. Integers are then read
 * from that text with exact decimal arithmetic: no double on the way.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static int failf(char *why, size_t n, const char *fmt, ...) RT_PRINTF(3, 4);
static int failf(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- Attaching literals ------------------------------------------------------ */

/*
 * cJSON reads a number as the longest run of these characters that starts
 * with '-' or a digit (and fails the file when strtod stops inside the run),
 * so in a file it accepted, each such run outside strings is one number.
 */
static int number_char(char ch)
{
    return (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' || ch == 'e' || ch == 'E' ||
           ch == '.';
}

typedef struct scan {
    const char *p, *end;
} scan;

/* The next number token in [p, end), skipping strings (escapes included). */
static int next_number(scan *s, const char **start, size_t *len)
{
    const char *q = s->p;
    while (q < s->end) {
        char ch = *q;
        if (ch == '"') {
            for (++q; q < s->end && *q != '"'; ++q)
                if (*q == '\\' && q + 1 < s->end)
                    ++q;
            if (q < s->end)
                ++q;
        } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
            *start = q;
            while (q < s->end && number_char(*q))
                ++q;
            *len = (size_t)(q - *start);
            s->p = q;
            return 1;
        } else {
            ++q;
        }
    }
    s->p = q;
    return 0;
}

/* Pre-order, the order of the nodes' text; cJSON bounds the nesting depth. */
static int attach(cJSON *node, scan *s, char *why, size_t n)
{
    for (; node != NULL; node = node->next) {
        if (cJSON_IsNumber(node)) {
            const char *start;
            size_t len;
            if (!next_number(s, &start, &len))
                return failf(why, n, "the file's numbers do not match its parse (%g has no text)",
                             node->valuedouble);
            char *lit = malloc(len + 1);
            if (lit == NULL)
                return failf(why, n, "out of memory");
            memcpy(lit, start, len);
            lit[len] = '\0';
            /* cJSON_Delete frees a node's valuestring whatever its type. */
            free(node->valuestring);
            node->valuestring = lit;
        }
        if (node->child != NULL && attach(node->child, s, why, n) != 0)
            return -1;
    }
    return 0;
}

int rt_json_attach_literals(cJSON *root, const char *text, const char *end, char *why, size_t n)
{
    scan s = {text, end != NULL ? end : text + strlen(text)};
    if (attach(root, &s, why, n) != 0)
        return -1;
    const char *start;
    size_t len;
    if (next_number(&s, &start, &len))
        return failf(why, n, "the file's numbers do not match its parse (\"%.*s\" has no node)",
                     (int)(len < 64 ? len : 64), start);
    return 0;
}

const char *rt_json_number_text(const cJSON *v)
{
    return cJSON_IsNumber(v) ? v->valuestring : NULL;
}

/* ---- Exact integers ------------------------------------------------------------- */

typedef enum lit_verdict {
    LIT_OK,
    LIT_NOT_INTEGER,
    LIT_TOO_LARGE,
    LIT_NOT_INT64, /* one or the other: too many significant digits to tell cheaply */
    LIT_SYNTAX
} lit_verdict;

/*
 * A number literal -?D[.F][(e|E)[+-]X] as sign and magnitude, exactly: its
 * value is (digits of D and F) * 10^(X - |F|), an integer when the scale is
 * not negative once the digits' trailing zeros are moved into it.
 */
static lit_verdict literal_integer(const char *s, int *neg, uint64_t *mag)
{
    const char *p = s;
    char digits[24]; /* significant digits; more than 20 cannot be a 64-bit integer */
    size_t nd = 0;
    long frac = 0, exp10 = 0, zeros = 0; /* zeros: held back until a nonzero digit follows */
    int seen = 0, in_frac = 0;
    *neg = *p == '-';
    if (*p == '-')
        ++p;
    for (;; ++p) {
        if (*p == '.' && !in_frac) {
            in_frac = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        seen = 1;
        frac += in_frac;
        if (*p == '0') {
            zeros += nd > 0; /* a leading zero adds no digit */
            continue;
        }
        if (nd + (size_t)zeros >= sizeof digits)
            return LIT_NOT_INT64;
        for (; zeros > 0; --zeros)
            digits[nd++] = '0';
        digits[nd++] = *p;
    }
    if (!seen)
        return LIT_SYNTAX;
    if (*p == 'e' || *p == 'E') {
        int eneg = *++p == '-';
        if (*p == '-' || *p == '+')
            ++p;
        if (*p < '0' || *p > '9')
            return LIT_SYNTAX;
        for (; *p >= '0' && *p <= '9'; ++p)
            if (exp10 < 100000) /* far beyond any 64-bit integer: saturate */
                exp10 = exp10 * 10 + (*p - '0');
        exp10 = eneg ? -exp10 : exp10;
    }
    if (*p != '\0')
        return LIT_SYNTAX;
    /* The value is digits * 10^scale, digits without trailing zeros. */
    long scale = exp10 - frac + zeros;
    *mag = 0;
    if (nd == 0)
        return LIT_OK; /* zero, whatever the scale */
    if (scale < 0)
        return LIT_NOT_INTEGER;
    if ((long)nd + scale > 20)
        return LIT_TOO_LARGE;
    for (size_t i = 0; i < nd; ++i) {
        uint64_t d = (uint64_t)(digits[i] - '0');
        if (*mag > (UINT64_MAX - d) / 10)
            return LIT_TOO_LARGE;
        *mag = *mag * 10 + d;
    }
    for (long i = 0; i < scale; ++i) {
        if (*mag > UINT64_MAX / 10)
            return LIT_TOO_LARGE;
        *mag *= 10;
    }
    return LIT_OK;
}

/* A decimal string: [+-]digits, nothing else. */
static lit_verdict string_integer(const char *s, int *neg, uint64_t *mag)
{
    const char *p = s;
    *neg = *p == '-';
    if (*p == '-' || *p == '+')
        ++p;
    if (*p < '0' || *p > '9')
        return LIT_SYNTAX;
    char *end;
    errno = 0;
    *mag = strtoull(p, &end, 10);
    if (*end != '\0')
        return LIT_SYNTAX;
    return errno == ERANGE ? LIT_TOO_LARGE : LIT_OK;
}

int rt_json_integer(const cJSON *v, int *neg, uint64_t *mag, char *why, size_t n)
{
    char fallback[32];
    const char *text;
    lit_verdict verdict;
    if (cJSON_IsString(v)) {
        text = v->valuestring;
        verdict = string_integer(text, neg, mag);
    } else if (cJSON_IsNumber(v)) {
        text = v->valuestring;
        if (text == NULL) {
            /* A node that rt_json_attach_literals never saw: its double is exact to 2^53. */
            double d = v->valuedouble;
            if (!(fabs(d) <= 9007199254740992.0))
                return failf(why, n, "%.17g has no literal text and is beyond 2^53", d);
            snprintf(fallback, sizeof fallback, "%.17g", d);
            text = fallback;
        }
        verdict = literal_integer(text, neg, mag);
    } else {
        return failf(why, n, "an integer must be a number or a decimal string");
    }
    switch (verdict) {
    case LIT_OK: return 0;
    case LIT_NOT_INTEGER: return failf(why, n, "%s is not an integer", text);
    case LIT_TOO_LARGE: return failf(why, n, "%s is beyond the 64-bit integers", text);
    case LIT_NOT_INT64: return failf(why, n, "%s is not a 64-bit integer", text);
    default:
        return failf(why, n,
                     cJSON_IsString(v) ? "\"%s\" is not a decimal integer"
                                       : "%s is not a number literal",
                     text);
    }
}

/* neg/mag within [lo, hi]; *out the value. */
static int in_range(int neg, uint64_t mag, int64_t lo, int64_t hi, int64_t *out)
{
    if (neg) {
        if (mag > (uint64_t)INT64_MAX + 1)
            return 0;
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)INT64_MAX)
            return 0;
        *out = (int64_t)mag;
    }
    return *out >= lo && *out <= hi;
}

/* How the file spells v, for messages. */
static const char *spelling(const cJSON *v)
{
    const char *text = cJSON_IsString(v) ? v->valuestring : rt_json_number_text(v);
    return text != NULL ? text : "the value";
}

int rt_json_int64(const cJSON *v, int64_t lo, int64_t hi, int64_t *out, char *why, size_t n)
{
    int neg;
    uint64_t mag;
    if (rt_json_integer(v, &neg, &mag, why, n) != 0)
        return -1;
    if (!in_range(neg, mag, lo, hi, out))
        return failf(why, n, "%s is outside [%lld, %lld]", spelling(v), (long long)lo,
                     (long long)hi);
    return 0;
}

int rt_json_uint64(const cJSON *v, uint64_t hi, uint64_t *out, char *why, size_t n)
{
    int neg;
    uint64_t mag;
    if (rt_json_integer(v, &neg, &mag, why, n) != 0)
        return -1;
    if ((neg && mag != 0) || mag > hi)
        return failf(why, n, "%s is outside [0, %llu]", spelling(v), (unsigned long long)hi);
    *out = mag;
    return 0;
}

int rt_json_integral(const cJSON *v, double lo, double hi)
{
    int neg;
    uint64_t mag;
    char why[128];
    if (!cJSON_IsNumber(v) || rt_json_integer(v, &neg, &mag, why, sizeof why) != 0)
        return 0;
    /* Callers' bounds are integers within +-2^63 or the whole range; compare exactly. */
    int64_t x;
    if (!in_range(neg, mag, INT64_MIN, INT64_MAX, &x))
        return !neg && hi >= 18446744073709551615.0;
    if (lo > -9223372036854775808.0 && x < (int64_t)ceil(lo))
        return 0;
    return hi >= 9223372036854775807.0 || x <= (int64_t)floor(hi);
}
