/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-dispatch-check EXPECTED.json OUTDIR STDOUT: the files a test model
 * wrote (raw .dat or .npy) against the values gen.py computed, each element
 * within the file's tolerance (ulp, abs; none: bit-exact), and the lines its
 * print commands must have shown, in order. Prints every mismatch; exit 1 if
 * any.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static char *slurp(const char *file, size_t *len)
{
    FILE *f = fopen(file, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (b == NULL)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* The data of a .npy file, after checking its descr's element size and its shape. */
static const char *npy_data(const char *name, const char *bytes, size_t len, const rt_type *t,
                            const cJSON *shape, size_t *data_len)
{
    if (len < 10 || memcmp(bytes, "\x93NUMPY\x01", 7) != 0) {
        printf("FAIL %s: not a version 1 .npy file\n", name);
        return NULL;
    }
    size_t hlen = (unsigned char)bytes[8] | (size_t)(unsigned char)bytes[9] << 8;
    if (10 + hlen > len || (10 + hlen) % 64 != 0 || bytes[10 + hlen - 1] != '\n') {
        printf("FAIL %s: the .npy header is not padded to 64 bytes with a final newline\n", name);
        return NULL;
    }
    char header[1024], want[256] = "";
    snprintf(header, sizeof header, "%.*s", (int)hlen, bytes + 10);
    size_t w = 0;
    for (const cJSON *d = shape ? shape->child : NULL; d != NULL; d = d->next)
        w += (size_t)snprintf(want + w, sizeof want - w, "%s%d", w ? ", " : "", d->valueint);
    if (shape && cJSON_GetArraySize(shape) == 1)
        w += (size_t)snprintf(want + w, sizeof want - w, ",");
    char shape_text[300];
    snprintf(shape_text, sizeof shape_text, "'shape': (%s)", want);
    char size_text[8];
    snprintf(size_text, sizeof size_text, "%u'", t->size);
    if (strstr(header, shape_text) == NULL || strstr(header, "'fortran_order': False") == NULL ||
        strstr(header, size_text) == NULL) {
        printf("FAIL %s: .npy header %s does not say %s of %u-byte elements in C order\n", name,
               header, shape_text, t->size);
        return NULL;
    }
    *data_len = len - 10 - hlen;
    return bytes + 10 + hlen;
}

static int check_file(const char *outdir, const cJSON *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, e->string);
    const rt_type *t = rt_type_by_name(cJSON_GetObjectItem(e, "type")->valuestring);
    const cJSON *values = cJSON_GetObjectItem(e, "values");
    rt_tolerance tol = {0, 0, 0, 0};
    char why[RT_WHY_MAX];
    const cJSON *ulp = cJSON_GetObjectItem(e, "ulp"), *abs_tol = cJSON_GetObjectItem(e, "abs");
    tol.has_ulp = ulp != NULL;
    tol.ulp = ulp ? (uint64_t)ulp->valuedouble : 0;
    tol.has_abs = abs_tol != NULL;
    tol.abs = abs_tol ? abs_tol->valuedouble : 0;
    size_t len, data_len;
    char *bytes = slurp(path, &len);
    if (bytes == NULL) {
        printf("FAIL %s: not written\n", e->string);
        return 1;
    }
    const char *data = bytes;
    data_len = len;
    if (strstr(e->string, ".npy") != NULL &&
        (data = npy_data(e->string, bytes, len, t, cJSON_GetObjectItem(e, "shape"), &data_len)) ==
            NULL) {
        free(bytes);
        return 1;
    }
    size_t n = (size_t)cJSON_GetArraySize(values), fails = 0;
    if (data_len < n * t->size) {
        printf("FAIL %s: %zu bytes, %zu elements of %s expected\n", e->string, data_len, n,
               t->name);
        free(bytes);
        return 1;
    }
    size_t i = 0;
    for (const cJSON *v = values->child; v != NULL; v = v->next, ++i) {
        unsigned char want[8], got[8];
        if (rt_value_parse(t, v, want, why, sizeof why) != 0) {
            printf("FAIL %s[%zu]: expected value: %s\n", e->string, i, why);
            ++fails;
            continue;
        }
        memcpy(got, data + i * t->size, t->size);
        int ok;
        if (t->kind != RT_KIND_FLOAT || (!tol.has_ulp && !tol.has_abs))
            ok = memcmp(want, got, t->size) == 0;
        else
            ok = (tol.has_ulp && rt_ulp_distance(t, want, got) <= tol.ulp) ||
                 (tol.has_abs &&
                  fabs(rt_value_double(t, want) - rt_value_double(t, got)) <= tol.abs);
        if (!ok && fails++ < 10) {
            char a[64], b[64];
            rt_value_format(t, want, a, sizeof a);
            rt_value_format(t, got, b, sizeof b);
            printf("FAIL %s[%zu]: %s expected, %s written\n", e->string, i, a, b);
        }
    }
    free(bytes);
    if (fails == 0)
        printf("ok   %s: %zu %s elements\n", e->string, n, t->name);
    return fails != 0;
}

static int check_stdout(const char *file, const cJSON *lines)
{
    size_t len;
    char *text = slurp(file, &len);
    if (text == NULL) {
        printf("FAIL %s: cannot read the output\n", file);
        return 1;
    }
    const char *at = text;
    int rc = 0;
    for (const cJSON *l = lines ? lines->child : NULL; l != NULL; l = l->next) {
        const char *p = at;
        size_t k = strlen(l->valuestring);
        while ((p = strstr(p, l->valuestring)) != NULL &&
               ((p != text && p[-1] != '\n') || (p[k] != '\n' && p[k] != '\0')))
            ++p;
        if (p == NULL) {
            printf("FAIL stdout: no line \"%s\" (in order) in:\n%s\n", l->valuestring, text);
            rc = 1;
            break;
        }
        printf("ok   stdout: %s\n", l->valuestring);
        at = p + k;
    }
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: dmlcl-dispatch-check EXPECTED.json OUTDIR STDOUT\n");
        return 2;
    }
    size_t len;
    char *text = slurp(argv[1], &len), why[RT_WHY_MAX];
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    if (root == NULL || rt_json_attach_literals(root, text, text + len, why, sizeof why) != 0) {
        fprintf(stderr, "dmlcl-dispatch-check: cannot read %s\n", argv[1]);
        return 2;
    }
    int fails = 0;
    for (const cJSON *e = cJSON_GetObjectItem(root, "files")->child; e != NULL; e = e->next)
        fails += check_file(argv[2], e);
    fails += check_stdout(argv[3], cJSON_GetObjectItem(root, "stdout"));
    cJSON_Delete(root);
    free(text);
    return fails ? 1 : 0;
}
