/* SPDX-License-Identifier: MIT */
/*
 * Tensors of a case: parsing {"type", "shape", "data", "strides"}, flat or
 * nested data, and laying the logical elements out by DirectML element
 * strides in a buffer of DMLCalcBufferTensorSize bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* Keeps a case's buffers within reason; no documented example comes close. */
#define RT_MAX_BUFFER_BYTES ((uint64_t)1 << 30)

static int failf(char *why, size_t n, const char *fmt, ...) RT_PRINTF(3, 4);
static int failf(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

void rt_format_shape(unsigned rank, const UINT *sizes, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "[");
    for (unsigned i = 0; i < rank && used < n; ++i)
        used += (size_t)snprintf(buf + used, n - used, "%s%u", i ? "," : "", sizes[i]);
    if (used < n)
        snprintf(buf + used, n - used, "]");
}

/* Element span and byte size, with the overflow checks DMLCalcBufferTensorSize lacks. */
static int setup(rt_tensor *t, char *why, size_t n)
{
    uint64_t count = 1, last = 0;
    for (unsigned i = 0; i < t->rank; ++i) {
        if (t->sizes[i] != 0 && count > RT_MAX_BUFFER_BYTES / t->sizes[i])
            return failf(why, n, "the shape is too large");
        count *= t->sizes[i];
        if (t->has_strides && t->sizes[i] != 0) {
            uint64_t reach = (uint64_t)(t->sizes[i] - 1) * t->strides[i];
            if (reach > RT_MAX_BUFFER_BYTES || last > RT_MAX_BUFFER_BYTES)
                return failf(why, n, "the strides reach too far");
            last += reach;
        }
    }
    t->count = count;
    if (count == 0)
        t->buffer_size = 0;
    else
        t->buffer_size = DMLCalcBufferTensorSize(t->type->dml, t->rank, t->sizes,
                                                 t->has_strides ? t->strides : NULL);
    if (t->buffer_size > RT_MAX_BUFFER_BYTES)
        return failf(why, n, "needs %" PRIu64 " bytes, more than this runner allows",
                     t->buffer_size);
    t->buffer_desc.DataType = t->type->dml;
    t->buffer_desc.Flags = DML_TENSOR_FLAG_NONE;
    t->buffer_desc.DimensionCount = t->rank;
    t->buffer_desc.Sizes = t->sizes;
    t->buffer_desc.Strides = t->has_strides ? t->strides : NULL;
    t->buffer_desc.TotalTensorSizeInBytes = t->buffer_size;
    t->buffer_desc.GuaranteedBaseOffsetAlignment = 0;
    t->desc.Type = DML_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buffer_desc;
    return 0;
}

rt_tensor *rt_tensor_new(const rt_type *type, unsigned rank, const UINT *sizes, const UINT *strides,
                         char *why, size_t n)
{
    if (rank > RT_MAX_RANK) {
        failf(why, n, "rank %u exceeds %u", rank, (unsigned)RT_MAX_RANK);
        return NULL;
    }
    rt_tensor *t = calloc(1, sizeof *t);
    if (t == NULL) {
        failf(why, n, "out of memory");
        return NULL;
    }
    t->type = type;
    t->rank = rank;
    for (unsigned i = 0; i < rank; ++i) {
        t->sizes[i] = sizes[i];
        t->strides[i] = strides ? strides[i] : 0;
    }
    t->has_strides = strides != NULL;
    if (setup(t, why, n) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void rt_tensor_free(rt_tensor *t)
{
    if (t == NULL)
        return;
    free(t->elems);
    free(t->buffer);
    free(t);
}

/* ---- Parsing ------------------------------------------------------------------ */

static int parse_dims(const cJSON *j, const char *what, const char *field, UINT *out,
                      unsigned *count, char *why, size_t n)
{
    if (!cJSON_IsArray(j))
        return failf(why, n, "%s.%s must be a list of integers", what, field);
    unsigned k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        if (k == RT_MAX_RANK)
            return failf(why, n, "%s.%s has more than %u entries", what, field,
                         (unsigned)RT_MAX_RANK);
        char inner[128];
        uint64_t d;
        if (!cJSON_IsNumber(e))
            return failf(why, n, "%s.%s[%u] must be an integer in [0, 2^32)", what, field, k);
        if (rt_json_uint64(e, UINT32_MAX, &d, inner, sizeof inner) != 0)
            return failf(why, n, "%s.%s[%u] must be an integer in [0, 2^32): %s", what, field, k,
                         inner);
        out[k++] = (UINT)d;
    }
    *count = k;
    return 0;
}

typedef struct flat_ctx {
    rt_tensor *t;
    uint64_t next;
    char path[256];
    char *why;
    size_t n;
} flat_ctx;

static int put_value(flat_ctx *f, const cJSON *v)
{
    char inner[RT_WHY_MAX / 2];
    if (cJSON_IsArray(v) || cJSON_IsObject(v))
        return failf(f->why, f->n,
                     "%s: a list or object where a value belongs (nested deeper "
                     "than the shape)",
                     f->path);
    if (rt_value_parse(f->t->type, v, f->t->elems + f->next * f->t->type->size, inner,
                       sizeof inner) != 0)
        return failf(f->why, f->n, "%s: %s", f->path, inner);
    ++f->next;
    return 0;
}

/* Nested data: depth d must be a list of sizes[d] entries; values at depth rank. */
static int put_nested(flat_ctx *f, const cJSON *node, unsigned depth)
{
    if (depth == f->t->rank)
        return put_value(f, node);
    int len = cJSON_IsArray(node) ? cJSON_GetArraySize(node) : -1;
    if (len < 0 || (unsigned)len != f->t->sizes[depth]) {
        char shape[128];
        rt_format_shape(f->t->rank, f->t->sizes, shape, sizeof shape);
        if (len < 0)
            return failf(f->why, f->n, "%s: a value where a list of %u belongs (shape %s)", f->path,
                         f->t->sizes[depth], shape);
        return failf(f->why, f->n, "%s: %d entries, shape %s needs %u at depth %u", f->path, len,
                     shape, f->t->sizes[depth], depth);
    }
    size_t base = strlen(f->path);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, node)
    {
        snprintf(f->path + base, sizeof f->path - base, "[%d]", i++);
        if (put_nested(f, e, depth + 1) != 0)
            return -1;
    }
    f->path[base] = '\0';
    return 0;
}

/* The values data holds (lists counted through, values one each), up to limit + 1. */
static uint64_t json_values(const cJSON *data, uint64_t limit)
{
    if (!cJSON_IsArray(data))
        return 1;
    uint64_t k = 0;
    for (const cJSON *e = data->child; e != NULL && k <= limit; e = e->next)
        k += json_values(e, limit - (k < limit ? k : limit));
    return k;
}

static int parse_data(rt_tensor *t, const cJSON *data, const char *what, char *why, size_t n)
{
    flat_ctx f = {t, 0, "", why, n};
    snprintf(f.path, sizeof f.path, "%s.data", what);
    /* No large allocation by the shape before the data can fill it: a shape of a billion
     * elements with six values is refused here, not after a billion-element allocation (the
     * messages below, naming the place of a mismatch, take the small ones). */
    uint64_t held = t->count * t->type->size > (1u << 20) ? json_values(data, t->count) : t->count;
    if (held < t->count) {
        char shape[128];
        rt_format_shape(t->rank, t->sizes, shape, sizeof shape);
        return failf(why, n, "%s.data holds %" PRIu64 " values, shape %s needs %" PRIu64, what,
                     held, shape, t->count);
    }
    t->elems = malloc(t->count ? t->count * t->type->size : 1);
    if (t->elems == NULL)
        return failf(why, n, "%s: out of memory", what);
    if (!cJSON_IsArray(data)) {
        if (t->rank != 0)
            return failf(why, n, "%s.data must be a list", what);
        return put_value(&f, data); /* a 0-D tensor's data may be the bare value */
    }
    const cJSON *first = data->child;
    int nested = t->rank > 1 && first != NULL && cJSON_IsArray(first);
    if (nested)
        return put_nested(&f, data, 0);
    uint64_t given = (uint64_t)cJSON_GetArraySize(data);
    if (given != t->count) {
        char shape[128];
        rt_format_shape(t->rank, t->sizes, shape, sizeof shape);
        return failf(why, n, "%s.data has %" PRIu64 " elements, shape %s holds %" PRIu64, what,
                     given, shape, t->count);
    }
    size_t base = strlen(f.path);
    const cJSON *e;
    cJSON_ArrayForEach(e, data)
    {
        snprintf(f.path + base, sizeof f.path - base, "[%" PRIu64 "]", f.next);
        if (put_value(&f, e) != 0)
            return -1;
    }
    return 0;
}

/* Duplicate fields are malformed; fields other suites add are ignored. */
static int check_tensor_keys(const cJSON *j, const char *what, char *why, size_t n)
{
    for (const cJSON *k = j->child; k != NULL; k = k->next)
        for (const cJSON *o = j->child; o != k; o = o->next)
            if (strcmp(o->string, k->string) == 0)
                return failf(why, n, "%s: field \"%s\" appears twice", what, k->string);
    return 0;
}

int rt_tolerance_parse(const cJSON *j, const char *what, rt_tolerance *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    if (j == NULL || cJSON_IsNull(j))
        return 0;
    if (!cJSON_IsObject(j) || j->child == NULL)
        return failf(why, n, "%s.tolerance must be {\"ulp\": N, \"abs\": x} (either or both)",
                     what);
    for (const cJSON *k = j->child; k != NULL; k = k->next) {
        if (strcmp(k->string, "ulp") == 0) {
            if (!cJSON_IsNumber(k) || k->valuedouble < 0 || k->valuedouble != floor(k->valuedouble))
                return failf(why, n, "%s.tolerance.ulp must be a whole number >= 0", what);
            out->has_ulp = 1;
            out->ulp = (uint64_t)k->valuedouble;
        } else if (strcmp(k->string, "abs") == 0) {
            if (!cJSON_IsNumber(k) || !(k->valuedouble >= 0))
                return failf(why, n, "%s.tolerance.abs must be a number >= 0", what);
            out->has_abs = 1;
            out->abs = k->valuedouble;
        } else {
            return failf(why, n, "%s.tolerance has a field \"%s\" (only ulp and abs)", what,
                         k->string);
        }
    }
    return 0;
}

rt_tensor *rt_tensor_parse(const cJSON *j, const char *what, char *why, size_t n)
{
    if (!cJSON_IsObject(j)) {
        failf(why, n, "%s must be an object {type, shape, data}", what);
        return NULL;
    }
    if (check_tensor_keys(j, what, why, n) != 0)
        return NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    const cJSON *strides = cJSON_GetObjectItemCaseSensitive(j, "strides");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data");
    if (!cJSON_IsString(type)) {
        failf(why, n, "%s.type is required (a type name such as \"FLOAT32\")", what);
        return NULL;
    }
    const rt_type *tt = rt_type_by_name(type->valuestring);
    if (tt == NULL) {
        failf(why, n, "%s.type \"%s\" is not a type name of the case format", what,
              type->valuestring);
        return NULL;
    }
    if (shape == NULL) {
        failf(why, n, "%s.shape is required", what);
        return NULL;
    }
    UINT sizes[RT_MAX_RANK] = {0}, str[RT_MAX_RANK] = {0};
    unsigned rank = 0, nstr = 0;
    if (parse_dims(shape, what, "shape", sizes, &rank, why, n) != 0)
        return NULL;
    if (strides != NULL && !cJSON_IsNull(strides)) {
        if (parse_dims(strides, what, "strides", str, &nstr, why, n) != 0)
            return NULL;
        if (nstr != rank) {
            failf(why, n, "%s.strides has %u entries, shape has %u", what, nstr, rank);
            return NULL;
        }
    }
    char inner[RT_WHY_MAX / 2];
    rt_tensor *t = rt_tensor_new(tt, rank, sizes, nstr ? str : NULL, inner, sizeof inner);
    if (t == NULL) {
        failf(why, n, "%s: %s", what, inner);
        return NULL;
    }
    if ((data != NULL && parse_data(t, data, what, why, n) != 0) ||
        rt_tolerance_parse(cJSON_GetObjectItemCaseSensitive(j, "tolerance"), what, &t->tol, why,
                           n) != 0) {
        rt_tensor_free(t);
        return NULL;
    }
    return t;
}

/* ---- Layout ---------------------------------------------------------------------- */

uint64_t rt_tensor_offset(const rt_tensor *t, uint64_t flat)
{
    if (!t->has_strides)
        return flat * t->type->size;
    uint64_t elem = 0;
    for (unsigned i = t->rank; i-- > 0;) {
        elem += (flat % t->sizes[i]) * t->strides[i];
        flat /= t->sizes[i];
    }
    return elem * t->type->size;
}

void rt_tensor_format_coords(const rt_tensor *t, uint64_t flat, char *buf, size_t n)
{
    UINT coords[RT_MAX_RANK];
    for (unsigned i = t->rank; i-- > 0;) {
        coords[i] = (UINT)(flat % t->sizes[i]);
        flat /= t->sizes[i];
    }
    rt_format_shape(t->rank, coords, buf, n);
}

static unsigned char *alloc_buffer(const rt_tensor *t, int fill)
{
    unsigned char *p = malloc(t->buffer_size ? t->buffer_size : 1);
    if (p != NULL)
        memset(p, fill, t->buffer_size ? t->buffer_size : 1);
    return p;
}

int rt_tensor_layout(rt_tensor *t, const char *what, char *why, size_t n)
{
    const size_t size = t->type->size;
    free(t->buffer);
    t->buffer = alloc_buffer(t, RT_INPUT_PADDING);
    if (t->buffer == NULL)
        return failf(why, n, "%s: out of memory", what);
    if (!t->has_strides) {
        if (t->count)
            memcpy(t->buffer, t->elems, t->count * size);
        return 0;
    }
    /* Strides may alias elements (0 = broadcast): aliased values must agree. */
    uint64_t span = t->buffer_size / size + 1;
    unsigned char *owner_set = calloc((size_t)span, 1);
    uint64_t *owner = calloc((size_t)span, sizeof *owner);
    if (owner_set == NULL || owner == NULL) {
        free(owner_set);
        free(owner);
        return failf(why, n, "%s: out of memory", what);
    }
    int rc = 0;
    for (uint64_t i = 0; i < t->count && rc == 0; ++i) {
        uint64_t off = rt_tensor_offset(t, i);
        uint64_t slot = off / size;
        const unsigned char *src = t->elems + i * size;
        if (owner_set[slot] && memcmp(t->buffer + off, src, size) != 0) {
            char a[96], b[96];
            rt_tensor_format_coords(t, owner[slot], a, sizeof a);
            rt_tensor_format_coords(t, i, b, sizeof b);
            rc = failf(why, n,
                       "%s: strides place elements %s and %s at the same offset, but "
                       "their values differ",
                       what, a, b);
        }
        if (!owner_set[slot]) {
            memcpy(t->buffer + off, src, size);
            owner_set[slot] = 1;
            owner[slot] = i;
        }
    }
    free(owner_set);
    free(owner);
    return rc;
}

int rt_tensor_fill_sentinel(rt_tensor *t)
{
    free(t->buffer);
    t->buffer = alloc_buffer(t, RT_OUTPUT_SENTINEL);
    return t->buffer ? 0 : -1;
}
