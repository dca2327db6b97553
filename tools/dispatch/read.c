/* SPDX-License-Identifier: MIT */
/*
 * Reading JSON values with a path: every failure names the model, the JSON
 * path of the offending value, the value and the rule it breaks.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

struct dsp_arena {
    dsp_arena *next;
    max_align_t data[];
};

void *dsp_alloc(dsp_ctx *c, size_t size)
{
    if (size > SIZE_MAX - sizeof(dsp_arena)) {
        dsp_fail(c, "out of memory");
        return NULL;
    }
    dsp_arena *a = calloc(1, sizeof *a + (size ? size : 1));
    if (a == NULL) {
        dsp_fail(c, "out of memory (%zu bytes)", size);
        return NULL;
    }
    a->next = c->arena;
    c->arena = a;
    return a->data;
}

char *dsp_strdup(dsp_ctx *c, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = dsp_alloc(c, n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

void dsp_arena_free(dsp_ctx *c)
{
    while (c->arena != NULL) {
        dsp_arena *next = c->arena->next;
        free(c->arena);
        c->arena = next;
    }
}

/* ---- Paths -------------------------------------------------------------------------- */

static int plain_key(const char *key)
{
    if (!isalpha((unsigned char)key[0]) && key[0] != '_' && key[0] != '$')
        return 0;
    for (const char *p = key; *p; ++p)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '$')
            return 0;
    return 1;
}

static size_t push(dsp_ctx *c, const char *fmt, ...) DSP_PRINTF(2, 3);
static size_t push(dsp_ctx *c, const char *fmt, ...)
{
    size_t mark = c->path_len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->path + mark, sizeof c->path - mark, fmt, ap);
    va_end(ap);
    c->path_len =
        n < 0 || (size_t)n >= sizeof c->path - mark ? sizeof c->path - 1 : mark + (size_t)n;
    return mark;
}

size_t dsp_push_key(dsp_ctx *c, const char *key)
{
    if (plain_key(key))
        return push(c, ".%s", key);
    /* Quoted, with the characters JSON escapes escaped. */
    size_t mark = push(c, "[\"");
    for (const char *p = key; *p; ++p) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '"' || ch == '\\')
            push(c, "\\%c", ch);
        else if (ch < 0x20)
            push(c, "\\u%04x", ch);
        else
            push(c, "%c", ch);
    }
    push(c, "\"]");
    return mark;
}

size_t dsp_push_index(dsp_ctx *c, size_t index)
{
    return push(c, "[%zu]", index);
}

void dsp_pop(dsp_ctx *c, size_t mark)
{
    c->path_len = mark;
    c->path[mark] = '\0';
}

static int vfail(dsp_ctx *c, const char *fmt, va_list ap)
{
    if (c->msg[0] != '\0')
        return -1;
    char why[DSP_MSG_MAX - DSP_PATH_MAX - 8];
    vsnprintf(why, sizeof why, fmt, ap);
    snprintf(c->msg, sizeof c->msg, "%.1023s: %s", c->path, why);
    return -1;
}

int dsp_fail(dsp_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, fmt, ap);
    va_end(ap);
    return -1;
}

int dsp_fail_at(dsp_ctx *c, const char *key, const char *fmt, ...)
{
    size_t mark = dsp_push_key(c, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(c, fmt, ap);
    va_end(ap);
    dsp_pop(c, mark);
    return -1;
}

/* ---- Values ------------------------------------------------------------------------- */

void dsp_spell(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsString(v)) {
        snprintf(buf, n, "\"%.200s\"", v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        const char *text = rt_json_number_text(v);
        if (text != NULL)
            snprintf(buf, n, "%.64s", text);
        else
            snprintf(buf, n, "%.17g", v->valuedouble);
    } else if (cJSON_IsBool(v)) {
        snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNull(v)) {
        snprintf(buf, n, "null");
    } else if (cJSON_IsArray(v)) {
        snprintf(buf, n, "a list");
    } else {
        snprintf(buf, n, "an object");
    }
}

int dsp_check_keys(dsp_ctx *c, const cJSON *obj, const char *const *allowed, const char *what)
{
    for (const cJSON *m = obj->child; m != NULL; m = m->next) {
        int known = 0;
        for (size_t i = 0; allowed[i] != NULL && !known; ++i)
            known = strcmp(allowed[i], m->string) == 0;
        if (!known) {
            char list[DSP_MSG_MAX / 2] = "";
            size_t len = 0;
            for (size_t i = 0; allowed[i] != NULL && len < sizeof list; ++i) {
                int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", allowed[i]);
                len += w > 0 ? (size_t)w : 0;
            }
            return dsp_fail_at(c, m->string, "unknown field of %s (its fields: %s)", what, list);
        }
        for (const cJSON *o = obj->child; o != m; o = o->next)
            if (strcmp(o->string, m->string) == 0)
                return dsp_fail_at(c, m->string, "appears twice in %s", what);
    }
    return 0;
}

int dsp_get_uint(dsp_ctx *c, const cJSON *v, uint64_t max, uint64_t *out)
{
    char why[RT_WHY_MAX];
    if (cJSON_IsBool(v)) { /* a BOOL member, as DxDispatch's models write them: true, false */
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    }
    if (!cJSON_IsNumber(v) && !cJSON_IsString(v)) {
        char spell[64];
        dsp_spell(v, spell, sizeof spell);
        return dsp_fail(
            c, "%s is not an integer (an unsigned integer of at most %" PRIu64 " is expected)",
            spell, max);
    }
    if (rt_json_uint64(v, max, out, why, sizeof why) != 0)
        return dsp_fail(c, "%s (an unsigned integer of at most %" PRIu64 " is expected)", why, max);
    return 0;
}

int dsp_get_int(dsp_ctx *c, const cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
    char why[RT_WHY_MAX];
    if (!cJSON_IsNumber(v) && !cJSON_IsString(v)) {
        char spell[64];
        dsp_spell(v, spell, sizeof spell);
        return dsp_fail(
            c, "%s is not an integer (an integer in [%" PRId64 ", %" PRId64 "] is expected)", spell,
            lo, hi);
    }
    if (rt_json_int64(v, lo, hi, out, why, sizeof why) != 0)
        return dsp_fail(c, "%s (an integer in [%" PRId64 ", %" PRId64 "] is expected)", why, lo,
                        hi);
    return 0;
}

int dsp_get_float(dsp_ctx *c, const cJSON *v, float *out)
{
    char why[RT_WHY_MAX];
    if (rt_value_parse(rt_type_by_name("FLOAT32"), v, out, why, sizeof why) != 0)
        return dsp_fail(c, "%s", why);
    return 0;
}

int dsp_get_string(dsp_ctx *c, const cJSON *v, const char **out)
{
    if (!cJSON_IsString(v)) {
        char spell[64];
        dsp_spell(v, spell, sizeof spell);
        return dsp_fail(c, "%s is not a string", spell);
    }
    *out = v->valuestring;
    return 0;
}

int dsp_get_enum(dsp_ctx *c, const cJSON *v, const dsp_enum *e, int *out)
{
    const char *s = NULL;
    if (dsp_get_string(c, v, &s))
        return -1;
    size_t plen = strlen(e->prefix);
    const char *bare = strncmp(s, e->prefix, plen) == 0 ? s + plen : s;
    for (const dsp_enum_value *x = e->values; x->name != NULL; ++x)
        if (strcmp(x->name, bare) == 0) {
            *out = x->value;
            return 0;
        }
    char list[DSP_MSG_MAX / 2] = "";
    size_t len = 0;
    for (const dsp_enum_value *x = e->values; x->name != NULL && len < sizeof list; ++x) {
        int w =
            snprintf(list + len, sizeof list - len, "%s%s", x == e->values ? "" : ", ", x->name);
        len += w > 0 ? (size_t)w : 0;
    }
    return dsp_fail(c, "\"%.200s\" is not a %s (one of %s, with or without the prefix %s)", s,
                    e->type, list, e->prefix);
}

int dsp_get_flags(dsp_ctx *c, const cJSON *v, const dsp_enum *e, int *out)
{
    if (!cJSON_IsArray(v))
        return dsp_get_enum(c, v, e, out);
    int flags = 0, i = 0;
    for (const cJSON *x = v->child; x != NULL; x = x->next, ++i) {
        int f;
        size_t mark = dsp_push_index(c, (size_t)i);
        int rc = dsp_get_enum(c, x, e, &f);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        flags |= f;
    }
    *out = flags;
    return 0;
}

static const dsp_enum_value data_type_values[] = {
    {"UNKNOWN", DML_TENSOR_DATA_TYPE_UNKNOWN},
    {"FLOAT32", DML_TENSOR_DATA_TYPE_FLOAT32},
    {"FLOAT16", DML_TENSOR_DATA_TYPE_FLOAT16},
    {"UINT32", DML_TENSOR_DATA_TYPE_UINT32},
    {"UINT16", DML_TENSOR_DATA_TYPE_UINT16},
    {"UINT8", DML_TENSOR_DATA_TYPE_UINT8},
    {"INT32", DML_TENSOR_DATA_TYPE_INT32},
    {"INT16", DML_TENSOR_DATA_TYPE_INT16},
    {"INT8", DML_TENSOR_DATA_TYPE_INT8},
    {"FLOAT64", DML_TENSOR_DATA_TYPE_FLOAT64},
    {"UINT64", DML_TENSOR_DATA_TYPE_UINT64},
    {"INT64", DML_TENSOR_DATA_TYPE_INT64},
    {"UINT4", DML_TENSOR_DATA_TYPE_UINT4},
    {"INT4", DML_TENSOR_DATA_TYPE_INT4},
    {NULL, 0},
};
const dsp_enum dsp_data_types = {"DML_TENSOR_DATA_TYPE", "DML_TENSOR_DATA_TYPE_", data_type_values};

const rt_type *dsp_type_of(DML_TENSOR_DATA_TYPE t)
{
    for (const dsp_enum_value *x = data_type_values; x->name != NULL; ++x)
        if (x->value == (int)t)
            return rt_type_by_name(x->name);
    return NULL;
}

int dsp_get_data_type(dsp_ctx *c, const cJSON *v, const rt_type **out)
{
    int t;
    if (dsp_get_enum(c, v, &dsp_data_types, &t))
        return -1;
    *out = dsp_type_of((DML_TENSOR_DATA_TYPE)t);
    if (*out == NULL)
        return dsp_fail(c, "\"%s\" has no values dmlcl-dispatch can read or print (unsupported)",
                        v->valuestring);
    return 0;
}
