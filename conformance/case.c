/* SPDX-License-Identifier: MIT */
/*
 * Case files (dmlcl-case/1): one case object, or {"format": "dmlcl-case/1",
 * "cases": [...]}. Folders are searched recursively for *.json in sorted
 * order. Anything malformed becomes a case that fails with the reason: a
 * broken file is never skipped.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runner.h"

#define RT_FORMAT "dmlcl-case/1"

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (d == NULL) {
        fprintf(stderr, "dmlcl-conformance: out of memory\n");
        exit(2);
    }
    return d;
}

static void *xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t cap2 = *cap ? *cap * 2 : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(p, cap2 * elem);
    if (q == NULL) {
        fprintf(stderr, "dmlcl-conformance: out of memory\n");
        exit(2);
    }
    *cap = cap2;
    return q;
}

/* A case named by the file itself (it could not be read) is unnamed. */
static rt_case *add_case(rt_suite *s, const char *file, const char *name)
{
    s->cases = xgrow(s->cases, &s->cap_cases, s->n_cases + 1, sizeof *s->cases);
    rt_case *c = &s->cases[s->n_cases++];
    memset(c, 0, sizeof *c);
    c->file = xstrdup(file);
    c->name = xstrdup(name);
    c->unnamed = strcmp(file, name) == 0;
    return c;
}

static void set_malformed(rt_case *c, const char *fmt, ...) RT_PRINTF(2, 3);
static void set_malformed(rt_case *c, const char *fmt, ...)
{
    char buf[RT_WHY_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(c->malformed);
    c->malformed = xstrdup(buf);
}

/* ---- One case --------------------------------------------------------------- */

/* Every key must appear once and, unless known is NULL, be one of known. */
static int check_keys(rt_case *c, const cJSON *obj, const char *what, const char *const *known)
{
    for (const cJSON *k = obj->child; k != NULL; k = k->next) {
        int ok = known == NULL;
        for (const char *const *p = known; p != NULL && *p != NULL; ++p)
            ok |= strcmp(k->string, *p) == 0;
        if (!ok) {
            set_malformed(c, "%s: unknown field \"%s\"", what, k->string);
            return -1;
        }
        for (const cJSON *o = obj->child; o != k; o = o->next)
            if (strcmp(o->string, k->string) == 0) {
                set_malformed(c, "%s: \"%s\" appears twice", what, k->string);
                return -1;
            }
    }
    return 0;
}

static const char *opt_string(rt_case *c, const cJSON *j, const char *field, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, field);
    if (v == NULL && !required)
        return NULL;
    if (v == NULL || !cJSON_IsString(v) || v->valuestring[0] == '\0') {
        set_malformed(c, "\"%s\" %s", field,
                      v == NULL ? "is required" : "must be a non-empty string");
        return NULL;
    }
    return v->valuestring;
}

/* One tensor of a case at path; laid out when it has data. NULL: c is malformed. */
static rt_tensor *parse_one(rt_case *c, const cJSON *j, const char *path)
{
    char why[RT_WHY_MAX];
    rt_tensor *t = rt_tensor_parse(j, path, why, sizeof why);
    if (t == NULL) {
        set_malformed(c, "%s", why);
        return NULL;
    }
    if (t->elems != NULL && rt_tensor_layout(t, path, why, sizeof why) != 0) {
        set_malformed(c, "%s", why);
        rt_tensor_free(t);
        return NULL;
    }
    return t;
}

/* A JSON list of tensors under one name (version 2, "Variadic tensors"). */
static int parse_list(rt_case *c, const cJSON *k, const char *path, unsigned *used, rt_named *out)
{
    unsigned count = (unsigned)cJSON_GetArraySize(k);
    if (count > RT_MAX_TENSORS - *used) {
        set_malformed(c, "%s: more than %d tensors in all", path, RT_MAX_TENSORS);
        return -1;
    }
    out->is_list = 1;
    out->list = calloc(count ? count : 1, sizeof *out->list);
    if (out->list == NULL) {
        set_malformed(c, "%s: out of memory", path);
        return -1;
    }
    char elem[160];
    const cJSON *e;
    cJSON_ArrayForEach(e, k)
    {
        snprintf(elem, sizeof elem, "%s[%u]", path, out->count);
        if ((out->list[out->count] = parse_one(c, e, elem)) == NULL)
            return -1;
        ++out->count;
    }
    *used += count;
    return 0;
}

/* Named tensors, each one tensor or a list of them; at most RT_MAX_TENSORS in all. */
static int parse_tensors(rt_case *c, const cJSON *obj, const char *what, rt_named *out,
                         unsigned *count)
{
    char path[128];
    unsigned used = 0;
    if (!cJSON_IsObject(obj)) {
        set_malformed(c, "\"%s\" must be an object of named tensors", what);
        return -1;
    }
    if (check_keys(c, obj, what, NULL) != 0)
        return -1;
    for (const cJSON *k = obj->child; k != NULL; k = k->next) {
        if (used == RT_MAX_TENSORS) {
            set_malformed(c, "%s: more than %d tensors", what, RT_MAX_TENSORS);
            return -1;
        }
        snprintf(path, sizeof path, "%s.%s", what, k->string);
        rt_named *nd = &out[(*count)++];
        nd->name = k->string;
        if (cJSON_IsArray(k)) {
            if (parse_list(c, k, path, &used, nd) != 0)
                return -1;
        } else {
            if ((nd->t = parse_one(c, k, path)) == NULL)
                return -1;
            ++used;
        }
    }
    return 0;
}

static int parse_expected(rt_case *c, const cJSON *e)
{
    static const char *const known[] = {"outputs", "error", NULL};
    if (!cJSON_IsObject(e)) {
        set_malformed(c, "\"expected\" %s", e ? "must be an object" : "is required");
        return -1;
    }
    if (check_keys(c, e, "expected", known) != 0)
        return -1;
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(e, "outputs");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(e, "error");
    if ((outputs == NULL) == (error == NULL)) {
        set_malformed(c, "\"expected\" needs exactly one of \"outputs\" and \"error\"");
        return -1;
    }
    if (error != NULL) {
        const char *cat = cJSON_IsString(error) ? error->valuestring : "";
        if (strcmp(cat, "invalid_argument") == 0) {
            c->expect = RT_EXPECT_INVALID_ARGUMENT;
        } else if (strcmp(cat, "index_out_of_range") == 0) {
            c->expect = RT_EXPECT_INDEX_OUT_OF_RANGE;
        } else {
            set_malformed(c, "expected.error must be \"invalid_argument\" or "
                             "\"index_out_of_range\"");
            return -1;
        }
        return 0;
    }
    c->expect = RT_EXPECT_OUTPUTS;
    if (parse_tensors(c, outputs, "expected.outputs", c->outputs, &c->n_outputs) != 0)
        return -1;
    if (c->n_outputs == 0) {
        set_malformed(c, "expected.outputs is empty");
        return -1;
    }
    for (unsigned i = 0; i < c->n_outputs; ++i) {
        const rt_named *o = &c->outputs[i];
        if (o->is_list && o->count == 0) {
            set_malformed(c, "expected.outputs.%s is an empty list", o->name);
            return -1;
        }
        for (unsigned k = 0; k < (o->is_list ? o->count : 1); ++k)
            if ((o->is_list ? o->list[k] : o->t)->elems == NULL) {
                if (o->is_list)
                    set_malformed(c, "expected.outputs.%s[%u] has no data", o->name, k);
                else
                    set_malformed(c, "expected.outputs.%s has no data", o->name);
                return -1;
            }
    }
    return 0;
}

static void parse_case(rt_case *c, const cJSON *j)
{
    if (!cJSON_IsObject(j)) {
        set_malformed(c, "a case must be an object");
        return;
    }
    /* Other suites in this format may carry fields of their own (tags,
     * descriptions): a case's unknown fields are ignored, duplicates are not. */
    if (check_keys(c, j, "case", NULL) != 0)
        return;
    if (opt_string(c, j, "name", 1) == NULL)
        return;
    if ((c->source = opt_string(c, j, "source", 1)) == NULL)
        return;
    if ((c->op = opt_string(c, j, "op", 1)) == NULL)
        return;
    c->erratum = opt_string(c, j, "erratum", 0);
    c->note = opt_string(c, j, "note", 0);
    if (c->malformed)
        return;
    char why[RT_WHY_MAX];
    if (rt_tolerance_parse(cJSON_GetObjectItemCaseSensitive(j, "tolerance"), "case", &c->tol, why,
                           sizeof why) != 0) {
        set_malformed(c, "%s", why);
        return;
    }
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(j, "attrs");
    if (attrs != NULL && !cJSON_IsNull(attrs)) {
        if (!cJSON_IsObject(attrs)) {
            set_malformed(c, "\"attrs\" must be an object");
            return;
        }
        /* The builder checks the names, which depend on the operator. */
        if (check_keys(c, attrs, "attrs", NULL) != 0)
            return;
        c->attrs = attrs;
    }
    if (strcmp(c->op, "DML_GRAPH") == 0) {
        c->graph = cJSON_GetObjectItemCaseSensitive(j, "graph");
        if (!cJSON_IsObject(c->graph)) {
            set_malformed(c, "\"op\": \"DML_GRAPH\" needs a \"graph\" object");
            return;
        }
    }
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(j, "inputs");
    if (inputs == NULL) {
        set_malformed(c, "\"inputs\" is required");
        return;
    }
    if (parse_tensors(c, inputs, "inputs", c->inputs, &c->n_inputs) != 0)
        return;
    parse_expected(c, cJSON_GetObjectItemCaseSensitive(j, "expected"));
}

/* The case's name if it has a usable one, else FILE[case N]. */
static rt_case *new_case(rt_suite *s, const char *file, const cJSON *j, int index)
{
    const cJSON *name = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "name") : NULL;
    if (name != NULL && cJSON_IsString(name) && name->valuestring[0] != '\0')
        return add_case(s, file, name->valuestring);
    char buf[1024];
    if (index < 0)
        snprintf(buf, sizeof buf, "%s", file);
    else
        snprintf(buf, sizeof buf, "%s[case %d]", file, index);
    rt_case *c = add_case(s, file, buf);
    c->unnamed = 1;
    return c;
}

static void check_duplicate(rt_suite *s, rt_case *c)
{
    for (size_t i = 0; i + 1 < s->n_cases; ++i)
        if (strcmp(s->cases[i].name, c->name) == 0) {
            set_malformed(c, "duplicate case name (first defined in %s)", s->cases[i].file);
            return;
        }
}

/* ---- Files and folders ---------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *b2 = realloc(buf, cap * 2);
        if (b2 == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b2;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf == NULL || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void where(const char *text, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at && *p; ++p) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void load_file(rt_suite *s, const char *path)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    if (text == NULL) {
        set_malformed(add_case(s, path, path), "cannot read the file");
        return;
    }
    rt_suite_load_text(s, path, text, len);
    free(text);
}

void rt_suite_load_text(rt_suite *s, const char *path, const char *text, size_t len)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (root == NULL) {
        int line, col;
        where(text, end ? end : cJSON_GetErrorPtr(), &line, &col);
        set_malformed(add_case(s, path, path), "malformed JSON at line %d, column %d", line, col);
        return;
    }
    s->trees = xgrow(s->trees, &s->cap_trees, s->n_trees + 1, sizeof *s->trees);
    s->trees[s->n_trees++] = root;
    /* Integers are read from each number's literal, not cJSON's double (version 2). */
    char why[RT_WHY_MAX];
    if (rt_json_attach_literals(root, text, end, why, sizeof why) != 0) {
        set_malformed(add_case(s, path, path), "%s", why);
        return;
    }

    const cJSON *format =
        cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "format") : NULL;
    const cJSON *cases =
        cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "cases") : NULL;
    if (format == NULL && cases == NULL) {
        rt_case *c = new_case(s, path, root, -1);
        parse_case(c, root);
        check_duplicate(s, c);
        return;
    }
    rt_case *bad = NULL;
    if (format == NULL || !cJSON_IsString(format) || strcmp(format->valuestring, RT_FORMAT) != 0)
        set_malformed(bad = add_case(s, path, path), "\"format\" must be \"" RT_FORMAT "\"");
    else if (!cJSON_IsArray(cases))
        set_malformed(bad = add_case(s, path, path), "\"cases\" must be a list of cases");
    else if (cJSON_GetArraySize(root) != 2)
        set_malformed(bad = add_case(s, path, path),
                      "a case list file holds only \"format\" and \"cases\"");
    if (bad)
        return;
    int index = 0;
    const cJSON *j;
    cJSON_ArrayForEach(j, cases)
    {
        rt_case *c = new_case(s, path, j, index++);
        parse_case(c, j);
        check_duplicate(s, c);
    }
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_json_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static void load_dir(rt_suite *s, const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        set_malformed(add_case(s, path, path), "cannot open the folder");
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = xgrow(names, &cap, n + 1, sizeof(char *));
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; ++i) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *full = malloc(len);
        if (full == NULL)
            exit(2);
        snprintf(full, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
            load_dir(s, full);
        else if (has_json_suffix(names[i]))
            load_file(s, full);
        free(full);
        free(names[i]);
    }
    free(names);
}

void rt_suite_load(rt_suite *s, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        set_malformed(add_case(s, path, path), "no such file or folder");
    else if (S_ISDIR(st.st_mode))
        load_dir(s, path);
    else
        load_file(s, path);
}

static void free_named(rt_named *nd, unsigned n)
{
    for (unsigned k = 0; k < n; ++k) {
        rt_tensor_free(nd[k].t);
        for (unsigned i = 0; i < nd[k].count; ++i)
            rt_tensor_free(nd[k].list[i]);
        free(nd[k].list);
    }
}

void rt_suite_free(rt_suite *s)
{
    for (size_t i = 0; i < s->n_cases; ++i) {
        rt_case *c = &s->cases[i];
        free_named(c->inputs, c->n_inputs);
        free_named(c->outputs, c->n_outputs);
        free(c->name);
        free(c->file);
        free(c->malformed);
    }
    for (size_t i = 0; i < s->n_trees; ++i)
        cJSON_Delete(s->trees[i]);
    free(s->cases);
    free(s->trees);
    memset(s, 0, sizeof *s);
}
