/* SPDX-License-Identifier: MIT */
/*
 * A resource's initial values, as DxDispatch's initializers give them: a
 * list of values (or, with initialValuesDataType UNKNOWN, of {type, value}
 * objects), a constant {valueCount, value}, a sequence {valueCount,
 * valueStart, valueDelta} accumulated in the element type, or a file
 * {sourcePath}: .npy (its own type), anything else raw bytes. Then
 * initialValuesOffsetInBytes and sizeInBytes place them in the buffer.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dispatch.h"

typedef struct values {
    unsigned char *bytes;
    uint64_t size;
} values;

static int grow(dsp_ctx *c, values *v, uint64_t count, unsigned esize)
{
    if (count == 0)
        return dsp_fail(c, "the initial values are empty (a buffer needs at least one value)");
    if (count > DSP_INITIAL_BYTES_MAX / esize)
        return dsp_fail(c,
                        "%" PRIu64 " values of %u bytes exceed the %" PRIu64
                        " bytes dmlcl-dispatch holds for one resource",
                        count, esize, DSP_INITIAL_BYTES_MAX);
    v->size = count * esize;
    v->bytes = malloc((size_t)v->size);
    return v->bytes ? 0 : dsp_fail(c, "out of memory (%" PRIu64 " bytes)", v->size);
}

static int value_at(dsp_ctx *c, const rt_type *t, const cJSON *x, void *dst)
{
    char why[RT_WHY_MAX];
    return rt_value_parse(t, x, dst, why, sizeof why) ? dsp_fail(c, "%s", why) : 0;
}

static int from_list(dsp_ctx *c, const rt_type *t, const cJSON *list, values *v)
{
    if (grow(c, v, (uint64_t)cJSON_GetArraySize(list), t->size))
        return -1;
    size_t i = 0;
    for (const cJSON *x = list->child; x != NULL; x = x->next, ++i) {
        size_t mark = dsp_push_index(c, i);
        int rc = value_at(c, t, x, v->bytes + i * t->size);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    return 0;
}

/* initialValuesDataType UNKNOWN: [{"type": "UINT32", "value": 6, "name": "n"}, ...]. */
static int from_typed_list(dsp_ctx *c, const cJSON *list, values *v)
{
    static const char *const keys[] = {"type", "value", "name", NULL};
    uint64_t total = 0;
    for (int pass = 0; pass < 2; ++pass) {
        size_t i = 0, at = 0;
        for (const cJSON *x = list->child; x != NULL; x = x->next, ++i) {
            size_t mark = dsp_push_index(c, i);
            const cJSON *type =
                cJSON_IsObject(x) ? cJSON_GetObjectItemCaseSensitive(x, "type") : NULL;
            const cJSON *value =
                cJSON_IsObject(x) ? cJSON_GetObjectItemCaseSensitive(x, "value") : NULL;
            const rt_type *t = NULL;
            int rc = 0;
            if (!cJSON_IsObject(x) || type == NULL || value == NULL)
                rc = dsp_fail(c, "with initialValuesDataType UNKNOWN, each value is "
                                 "{\"type\": ..., \"value\": ...}");
            else if (dsp_check_keys(c, x, keys, "a typed initial value"))
                rc = -1;
            if (rc == 0) {
                size_t m = dsp_push_key(c, "type");
                rc = dsp_get_data_type(c, type, &t);
                dsp_pop(c, m);
            }
            if (rc == 0 && pass == 1) {
                size_t m = dsp_push_key(c, "value");
                rc = value_at(c, t, value, v->bytes + at);
                dsp_pop(c, m);
            }
            dsp_pop(c, mark);
            if (rc)
                return -1;
            at += t->size;
            total = at;
        }
        if (pass == 0 && grow(c, v, total, 1))
            return -1;
    }
    return 0;
}

static int value_count(dsp_ctx *c, const cJSON *obj, uint64_t *count)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "valueCount");
    if (x == NULL)
        return dsp_fail(c, "needs valueCount");
    size_t mark = dsp_push_key(c, "valueCount");
    int rc = dsp_get_uint(c, x, UINT32_MAX, count);
    if (rc == 0 && *count == 0)
        rc = dsp_fail(c, "0: a buffer needs at least one value");
    dsp_pop(c, mark);
    return rc;
}

static int from_constant(dsp_ctx *c, const rt_type *t, const cJSON *obj, values *v)
{
    static const char *const keys[] = {"valueCount", "value", NULL};
    uint64_t count;
    unsigned char one[8];
    if (dsp_check_keys(c, obj, keys, "a constant initializer") || value_count(c, obj, &count))
        return -1;
    size_t mark = dsp_push_key(c, "value");
    int rc = value_at(c, t, cJSON_GetObjectItemCaseSensitive(obj, "value"), one);
    dsp_pop(c, mark);
    if (rc || grow(c, v, count, t->size))
        return -1;
    for (uint64_t i = 0; i < count; ++i)
        memcpy(v->bytes + i * t->size, one, t->size);
    return 0;
}

/* One step of a sequence in the element type: float types round each sum once; integers must
 * stay in their range. */
static int step(const rt_type *t, unsigned char *prev, const unsigned char *delta)
{
    if (t->kind == RT_KIND_FLOAT) {
        if (t->size == 4) {
            float a, d;
            memcpy(&a, prev, 4);
            memcpy(&d, delta, 4);
            a += d;
            memcpy(prev, &a, 4);
        } else if (t->size == 8) {
            double a, d;
            memcpy(&a, prev, 8);
            memcpy(&d, delta, 8);
            a += d;
            memcpy(prev, &a, 8);
        } else {
            double sum = rt_value_double(t, prev) + rt_value_double(t, delta);
            uint16_t bits = (uint16_t)rt_float_encode(sum, t->exp_bits, t->man_bits);
            memcpy(prev, &bits, 2);
        }
        return 0;
    }
    uint64_t bits = rt_value_bits(t, prev) + rt_value_bits(t, delta);
    unsigned width = t->size * 8;
    uint64_t mask = width == 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    int64_t a = rt_value_int(t, prev), d = rt_value_int(t, delta);
    int overflow;
    if (t->kind == RT_KIND_UINT)
        overflow = width == 64 ? bits < rt_value_bits(t, prev) : (bits & ~mask) != 0;
    else if (width == 64)
        overflow = (d > 0 && a > INT64_MAX - d) || (d < 0 && a < INT64_MIN - d);
    else {
        int64_t s = a + d, lim = (int64_t)1 << (width - 1);
        overflow = s < -lim || s >= lim;
    }
    bits &= mask;
    memcpy(prev, &bits, t->size); /* little-endian hosts (dmlcl's) */
    return overflow ? -1 : 0;
}

static int from_sequence(dsp_ctx *c, const rt_type *t, const cJSON *obj, values *v)
{
    static const char *const keys[] = {"valueCount", "valueStart", "valueDelta", NULL};
    uint64_t count;
    unsigned char cur[8] = {0}, delta[8] = {0};
    if (dsp_check_keys(c, obj, keys, "a sequence initializer") || value_count(c, obj, &count))
        return -1;
    for (int i = 0; i < 2; ++i) {
        const char *key = i ? "valueDelta" : "valueStart";
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
        if (x == NULL)
            return dsp_fail(c, "a sequence initializer needs %s", key);
        size_t mark = dsp_push_key(c, key);
        int rc = value_at(c, t, x, i ? delta : cur);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    if (grow(c, v, count, t->size))
        return -1;
    for (uint64_t i = 0; i < count; ++i) {
        memcpy(v->bytes + i * t->size, cur, t->size);
        if (i + 1 < count && step(t, cur, delta) != 0)
            return dsp_fail(c, "element %" PRIu64 " of the sequence is out of range for %s", i + 1,
                            t->name);
    }
    return 0;
}

/* ---- Files -------------------------------------------------------------------------- */

static int read_file(dsp_ctx *c, const char *file, values *v)
{
    FILE *f = fopen(file, "rb");
    if (f == NULL)
        return dsp_fail(c, "cannot open %s: %s", file, strerror(errno));
    int rc = -1;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        dsp_fail(c, "cannot read %s: %s", file, strerror(errno));
    } else if ((uint64_t)len > DSP_INITIAL_BYTES_MAX) {
        dsp_fail(c, "%s has %ld bytes, more than the %" PRIu64 " dmlcl-dispatch holds", file, len,
                 DSP_INITIAL_BYTES_MAX);
    } else if ((v->bytes = malloc(len ? (size_t)len : 1)) == NULL) {
        dsp_fail(c, "out of memory reading %s", file);
    } else if (len > 0 && fread(v->bytes, 1, (size_t)len, f) != (size_t)len) {
        dsp_fail(c, "cannot read %s", file);
    } else {
        v->size = (uint64_t)len;
        rc = 0;
    }
    fclose(f);
    return rc;
}

static const struct {
    const char *descr;
    const char *type;
} npy_types[] = {
    {"<f2", "FLOAT16"}, {"<f4", "FLOAT32"}, {"<f8", "FLOAT64"}, {"|i1", "INT8"},
    {"|u1", "UINT8"},   {"<i2", "INT16"},   {"<u2", "UINT16"},  {"<i4", "INT32"},
    {"<u4", "UINT32"},  {"<i8", "INT64"},   {"<u8", "UINT64"},
};

/* The value of 'key' in a .npy header dict: a pointer past "'key':" and its spaces. */
static const char *npy_item(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s':", key);
    const char *p = strstr(header, quoted);
    if (p == NULL)
        return NULL;
    for (p += strlen(quoted); *p == ' '; ++p)
        ;
    return p;
}

/* Parses a .npy file (format versions 1 to 3, little-endian or byte types, C order). */
static int npy_parse(dsp_ctx *c, const char *file, values *v, const rt_type **type)
{
    static const char magic[] = "\x93NUMPY";
    const unsigned char *b = v->bytes;
    if (v->size < 12 || memcmp(b, magic, 6) != 0)
        return dsp_fail(c, "%s is not a .npy file (no \\x93NUMPY magic)", file);
    uint64_t hlen = b[6] == 1 ? (uint64_t)b[8] | (uint64_t)b[9] << 8
                              : (uint64_t)b[8] | (uint64_t)b[9] << 8 | (uint64_t)b[10] << 16 |
                                    (uint64_t)b[11] << 24;
    uint64_t start = (b[6] == 1 ? 10 : 12) + hlen;
    if (b[6] < 1 || b[6] > 3 || start > v->size)
        return dsp_fail(c, "%s: a .npy header of version %u and %" PRIu64 " bytes does not fit",
                        file, b[6], hlen);
    char *header = malloc((size_t)hlen + 1);
    if (header == NULL)
        return dsp_fail(c, "out of memory");
    memcpy(header, b + start - hlen, (size_t)hlen);
    header[hlen] = '\0';
    int rc = -1;
    const char *descr = npy_item(header, "descr"), *order = npy_item(header, "fortran_order");
    const char *shape = npy_item(header, "shape");
    *type = NULL;
    for (size_t i = 0; descr && i < sizeof npy_types / sizeof npy_types[0]; ++i)
        if (strncmp(descr + 1, npy_types[i].descr, 3) == 0 && descr[4] == descr[0])
            *type = rt_type_by_name(npy_types[i].type);
    uint64_t count = 1;
    if (descr == NULL || shape == NULL || order == NULL || *shape != '(') {
        dsp_fail(c, "%s: the .npy header has no descr, fortran_order and shape", file);
        goto done;
    }
    if (*type == NULL) {
        dsp_fail(c, "%s: .npy element type %.8s is none of DirectML's (little-endian)", file,
                 descr);
        goto done;
    }
    for (const char *p = shape + 1; *p != ')' && *p != '\0';) {
        char *end;
        errno = 0;
        unsigned long long d = strtoull(p, &end, 10);
        if (end == p || errno != 0 || (d != 0 && count > DSP_INITIAL_BYTES_MAX / d)) {
            dsp_fail(c, "%s: the .npy shape %.40s is not one that fits", file, shape);
            goto done;
        }
        count *= d;
        for (p = end; *p == ',' || *p == ' ' || *p == 'L'; ++p)
            ;
    }
    if (strncmp(order, "True", 4) == 0 && strchr(shape, ',') != strrchr(shape, ',')) {
        dsp_fail(c, "%s: a .npy array in Fortran order is not read (save it in C order)", file);
        goto done;
    }
    if (count * (*type)->size > v->size - start) {
        dsp_fail(c,
                 "%s: the .npy shape %.40s needs %" PRIu64 " bytes of data, the file has %" PRIu64,
                 file, shape, count * (*type)->size, v->size - start);
        goto done;
    }
    memmove(v->bytes, v->bytes + start, (size_t)(count * (*type)->size));
    v->size = count * (*type)->size;
    rc = v->size ? 0 : dsp_fail(c, "%s holds no values (a buffer needs at least one)", file);
done:
    free(header);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* sourcePath against base (the model's folder or --input_path), then as given. */
static int from_file(dsp_ctx *c, const cJSON *obj, const char *base, values *v,
                     const rt_type **type)
{
    static const char *const keys[] = {"sourcePath", NULL};
    const char *path;
    if (dsp_check_keys(c, obj, keys, "a file initializer"))
        return -1;
    size_t mark = dsp_push_key(c, "sourcePath");
    int rc = dsp_get_string(c, cJSON_GetObjectItemCaseSensitive(obj, "sourcePath"), &path);
    if (rc == 0 && (ends_with(path, ".png") || ends_with(path, ".jpg") || ends_with(path, ".jpeg")))
        rc = dsp_fail(c, "\"%s\": image files are not read by dmlcl-dispatch (unsupported)", path);
    char *file = NULL;
    if (rc == 0) {
        size_t n = strlen(base) + strlen(path) + 2;
        file = malloc(n);
        if (file == NULL)
            rc = dsp_fail(c, "out of memory");
        else if (path[0] == '/')
            snprintf(file, n, "%s", path);
        else
            snprintf(file, n, "%s/%s", base, path);
    }
    if (rc == 0) {
        FILE *probe = fopen(file, "rb");
        if (probe != NULL)
            fclose(probe);
        rc = read_file(c, probe != NULL ? file : path, v);
    }
    const rt_type *npy = NULL;
    if (rc == 0 && ends_with(path, ".npy"))
        rc = npy_parse(c, path, v, &npy);
    else if (rc == 0 && v->size == 0)
        rc = dsp_fail(c, "%s is empty (a buffer needs at least one value)", path);
    dsp_pop(c, mark);
    free(file);
    if (rc)
        return -1;
    if (npy != NULL && *type != NULL && *type != npy)
        return dsp_fail_at(c, "sourcePath",
                           "the .npy file holds %s, initialValuesDataType is %s "
                           "(they must agree)",
                           npy->name, (*type)->name);
    if (npy != NULL)
        *type = npy;
    if (*type == NULL)
        return dsp_fail(c, "a raw file needs initialValuesDataType (the element type of its "
                           "bytes)");
    return 0;
}

/* ---- The resource ------------------------------------------------------------------- */

static int initial_values(dsp_ctx *c, const cJSON *iv, const char *base, values *v,
                          const rt_type **type, int unknown)
{
    if (cJSON_IsString(iv) && strcmp(iv->valuestring, "deferred") == 0)
        return dsp_fail(c, "\"deferred\" resources belong to ONNX dispatchables (unsupported)");
    if (cJSON_IsArray(iv)) {
        if (unknown)
            return from_typed_list(c, iv, v);
        if (*type == NULL)
            return dsp_fail(c, "a list of values needs initialValuesDataType");
        return from_list(c, *type, iv, v);
    }
    if (!cJSON_IsObject(iv))
        return dsp_fail(c, "must be a list of values, or an object: {valueCount, value}, "
                           "{valueCount, valueStart, valueDelta} or {sourcePath}");
    if (cJSON_GetObjectItemCaseSensitive(iv, "sourcePath") != NULL)
        return from_file(c, iv, base, v, type);
    int constant = cJSON_GetObjectItemCaseSensitive(iv, "value") != NULL;
    int sequence = cJSON_GetObjectItemCaseSensitive(iv, "valueStart") != NULL ||
                   cJSON_GetObjectItemCaseSensitive(iv, "valueDelta") != NULL;
    if (constant && sequence)
        return dsp_fail(c, "value (a constant) and valueStart/valueDelta (a sequence) exclude "
                           "each other");
    if (!constant && !sequence)
        return dsp_fail(c, "an initializer object needs value, valueStart and valueDelta, or "
                           "sourcePath");
    if (*type == NULL)
        return dsp_fail(c, "a %s initializer needs an initialValuesDataType other than UNKNOWN",
                        constant ? "constant" : "sequence");
    return constant ? from_constant(c, *type, iv, v) : from_sequence(c, *type, iv, v);
}

static int size_member(dsp_ctx *c, const cJSON *obj, const char *key, uint64_t *out, int *given)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    *given = x != NULL;
    if (x == NULL)
        return 0;
    size_t mark = dsp_push_key(c, key);
    int rc = dsp_get_uint(c, x, UINT64_MAX, out);
    dsp_pop(c, mark);
    return rc;
}

int dsp_resource_parse(dsp_ctx *c, const cJSON *obj, const char *base, dsp_resource *r)
{
    static const char *const keys[] = {
        "type",        "initialValuesDataType", "initialValues", "initialValuesOffsetInBytes",
        "sizeInBytes", "resampleSize",          "resampleMode",  NULL};
    if (!cJSON_IsObject(obj))
        return dsp_fail(c, "a resource must be an object ({\"initialValuesDataType\": ..., "
                           "\"initialValues\": ...})");
    if (dsp_check_keys(c, obj, keys, "a buffer resource"))
        return -1;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "type");
    if (x != NULL && (!cJSON_IsString(x) || strcmp(x->valuestring, "buffer") != 0))
        return dsp_fail_at(c, "type", "resources are buffers (\"buffer\")");
    if (cJSON_GetObjectItemCaseSensitive(obj, "resampleSize") != NULL ||
        cJSON_GetObjectItemCaseSensitive(obj, "resampleMode") != NULL)
        return dsp_fail_at(c,
                           cJSON_GetObjectItemCaseSensitive(obj, "resampleSize") ? "resampleSize"
                                                                                 : "resampleMode",
                           "resampling applies to image files, which dmlcl-dispatch does not read "
                           "(unsupported)");
    int unknown = 0;
    r->type = NULL;
    if ((x = cJSON_GetObjectItemCaseSensitive(obj, "initialValuesDataType")) != NULL) {
        int t;
        size_t mark = dsp_push_key(c, "initialValuesDataType");
        int rc = dsp_get_enum(c, x, &dsp_data_types, &t);
        if (rc == 0 && t != DML_TENSOR_DATA_TYPE_UNKNOWN &&
            (r->type = dsp_type_of((DML_TENSOR_DATA_TYPE)t)) == NULL)
            rc = dsp_fail(c, "\"%s\": dmlcl-dispatch holds no values of this type (unsupported)",
                          x->valuestring);
        unknown = t == DML_TENSOR_DATA_TYPE_UNKNOWN;
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(obj, "initialValues");
    if (iv == NULL)
        return dsp_fail(c, "a resource needs initialValues");
    values v = {NULL, 0};
    size_t mark = dsp_push_key(c, "initialValues");
    int rc = initial_values(c, iv, base, &v, &r->type, unknown);
    dsp_pop(c, mark);
    uint64_t offset = 0, size = 0;
    int has_offset, has_size;
    if (rc == 0)
        rc = size_member(c, obj, "initialValuesOffsetInBytes", &offset, &has_offset);
    if (rc == 0)
        rc = size_member(c, obj, "sizeInBytes", &size, &has_size);
    if (rc == 0 && offset > DSP_INITIAL_BYTES_MAX)
        rc = dsp_fail_at(c, "initialValuesOffsetInBytes",
                         "%" PRIu64 " is beyond the %" PRIu64 " bytes dmlcl-dispatch holds", offset,
                         DSP_INITIAL_BYTES_MAX);
    if (rc == 0 && !has_size) /* DxDispatch's default, rounded up to DirectML's 4 bytes */
        size = (offset + v.size + 3) & ~(uint64_t)3;
    if (rc == 0 && has_size && (size < v.size || size - v.size < offset))
        rc = dsp_fail_at(c, "sizeInBytes",
                         "%" PRIu64 " bytes are too few for the %" PRIu64
                         " bytes of initial values at offset %" PRIu64,
                         size, v.size, offset);
    if (rc == 0 && size > DSP_INITIAL_BYTES_MAX)
        rc = dsp_fail_at(c, "sizeInBytes",
                         "%" PRIu64 " is beyond the %" PRIu64
                         " bytes dmlcl-dispatch holds for one resource",
                         size, DSP_INITIAL_BYTES_MAX);
    if (rc == 0 && (r->bytes = calloc(1, (size_t)size)) == NULL)
        rc = dsp_fail(c, "out of memory (%" PRIu64 " bytes)", size);
    if (rc == 0) {
        memcpy(r->bytes + offset, v.bytes, (size_t)v.size);
        r->size = size;
        /* What print and writeFile show: the buffer when its size is given, else up to the end of
         * the initial values (not the padding to 4 bytes). */
        uint64_t esize = r->type ? r->type->size : 1;
        r->shown = (has_size ? size : offset + v.size) / esize;
    }
    free(v.bytes);
    return rc;
}

/* ---- Writing .npy --------------------------------------------------------------------- */

int dsp_npy_write(const char *file, const rt_type *t, const UINT *dims, unsigned n_dims,
                  const void *data, char *why, size_t n)
{
    const char *descr = NULL;
    for (size_t i = 0; i < sizeof npy_types / sizeof npy_types[0]; ++i)
        if (strcmp(npy_types[i].type, t->name) == 0)
            descr = npy_types[i].descr;
    char header[1024];
    int len = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                       descr);
    uint64_t count = 1;
    for (unsigned i = 0; i < n_dims && len < 900; ++i) {
        len += snprintf(header + len, sizeof header - (size_t)len, "%u%s", dims[i],
                        n_dims == 1      ? ","
                        : i + 1 < n_dims ? ", "
                                         : "");
        count *= dims[i];
    }
    len += snprintf(header + len, sizeof header - (size_t)len, "), }");
    /* Version 1.0: magic, version, 2-byte length, then the header padded with spaces to a
     * multiple of 64 bytes in all, ending in a newline. */
    size_t total = ((size_t)10 + (size_t)len + 1 + 63) / 64 * 64;
    while ((size_t)len + 10 + 1 < total)
        header[len++] = ' ';
    header[len++] = '\n';
    unsigned char pre[10] = {0x93,
                             'N',
                             'U',
                             'M',
                             'P',
                             'Y',
                             1,
                             0,
                             (unsigned char)(len & 0xff),
                             (unsigned char)(len >> 8)};
    FILE *f = fopen(file, "wb");
    if (f == NULL) {
        snprintf(why, n, "cannot create %s: %s", file, strerror(errno));
        return -1;
    }
    int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre &&
             fwrite(header, 1, (size_t)len, f) == (size_t)len &&
             (count == 0 || fwrite(data, t->size, (size_t)count, f) == (size_t)count);
    ok = fclose(f) == 0 && ok;
    if (!ok)
        snprintf(why, n, "cannot write %s: %s", file, strerror(errno));
    return ok ? 0 : -1;
}
