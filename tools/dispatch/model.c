/* SPDX-License-Identifier: MIT */
/*
 * A DxDispatch model file: {"resources", "dispatchables", "commands"}, read
 * as DxDispatch reads it (comments and trailing commas allowed), every member
 * known and checked. Bindings are resolved here to byte ranges of resources,
 * so that a binding out of its resource's range fails before anything runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dispatch.h"

/* ---- JSON as DxDispatch reads it -------------------------------------------------- */

/*
 * DxDispatch's parser accepts // and block comments and trailing commas; cJSON does
 * not. Both become spaces (so offsets, lines and columns stay those of the file).
 */
static void blank_extensions(char *text, size_t len)
{
    size_t last_comma = SIZE_MAX;
    for (size_t i = 0; i < len; ++i) {
        char ch = text[i];
        if (ch == '"') {
            for (++i; i < len && text[i] != '"'; ++i)
                if (text[i] == '\\')
                    ++i;
            last_comma = SIZE_MAX;
        } else if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
            for (; i < len && text[i] != '\n'; ++i)
                text[i] = ' ';
        } else if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
            size_t j = i;
            for (; j < len && !(text[j] == '*' && j + 1 < len && text[j + 1] == '/' && j > i + 1);
                 ++j)
                if (text[j] != '\n')
                    text[j] = ' ';
            for (size_t k = j; k < len && k < j + 2; ++k)
                text[k] = ' ';
            i = j + 1;
        } else if (ch == ',') {
            last_comma = i;
        } else if ((ch == '}' || ch == ']') && last_comma != SIZE_MAX) {
            text[last_comma] = ' ';
            last_comma = SIZE_MAX;
        } else if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') {
            last_comma = SIZE_MAX;
        }
    }
}

static cJSON *parse_json(dsp_ctx *c, const char *file, char **text_out)
{
    FILE *f = fopen(file, "rb");
    if (f == NULL) {
        dsp_fail(c, "cannot open the model: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (size_t got; text != NULL && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *bigger = cap < ((size_t)1 << 30) ? realloc(text, cap * 2) : NULL;
            if (bigger == NULL) {
                free(text);
                text = NULL;
            }
            text = bigger;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (text == NULL || err) {
        free(text);
        dsp_fail(c, err ? "cannot read the model" : "the model is too large (1 GiB at most)");
        return NULL;
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        free(text);
        dsp_fail(c, "the model holds a NUL byte: it is not a JSON text");
        return NULL;
    }
    blank_extensions(text, len);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root == NULL) {
        size_t at = end ? (size_t)(end - text) : 0, line = 1, col = 1;
        for (size_t i = 0; i < at && i < len; ++i, ++col)
            if (text[i] == '\n') {
                ++line;
                col = 0;
            }
        dsp_fail(c, "not valid JSON: the parser stopped at line %zu, column %zu", line, col);
        free(text);
        return NULL;
    }
    char why[RT_WHY_MAX];
    if (rt_json_attach_literals(root, text, text + len, why, sizeof why) != 0) {
        dsp_fail(c, "%s", why);
        cJSON_Delete(root);
        free(text);
        return NULL;
    }
    *text_out = text;
    return root;
}

/* ---- Lookups ------------------------------------------------------------------------ */

static int find_resource(const dsp_model *m, const char *name)
{
    for (unsigned i = 0; i < m->n_resources; ++i)
        if (!m->resources[i].hidden && strcmp(m->resources[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int find_dispatchable(const dsp_model *m, const char *name)
{
    for (unsigned i = 0; i < m->n_dispatchables; ++i)
        if (strcmp(m->dispatchables[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int check_unique(dsp_ctx *c, const cJSON *obj, const char *what)
{
    for (const cJSON *a = obj->child; a != NULL; a = a->next)
        for (const cJSON *b = obj->child; b != a; b = b->next)
            if (strcmp(a->string, b->string) == 0)
                return dsp_fail_at(c, a->string, "a second %s of this name (names are unique)",
                                   what);
    return 0;
}

/* ---- Bindings ----------------------------------------------------------------------- */

static int binding_member(dsp_ctx *c, const cJSON *obj, const char *key, uint64_t *out)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (x == NULL)
        return 0;
    size_t mark = dsp_push_key(c, key);
    int rc = dsp_get_uint(c, x, UINT64_MAX, out);
    dsp_pop(c, mark);
    return rc ? -1 : 1;
}

/*
 * "A" or {"name", "elementOffset", "elementCount", "elementSizeInBytes" (or
 * "elementStride"), "format", "shape"}: a byte range of a resource. Elements are
 * of the resource's type unless a size is given; no count: up to the end.
 */
static int binding_source(dsp_ctx *c, const dsp_model *m, const cJSON *v, dsp_binding *b)
{
    static const char *const keys[] = {
        "name",   "elementOffset", "elementCount", "elementSizeInBytes", "elementStride",
        "format", "shape",         "counter",      "counterOffsetBytes", NULL};
    const char *name;
    const cJSON *obj = cJSON_IsObject(v) ? v : NULL;
    if (obj != NULL) {
        if (dsp_check_keys(c, obj, keys, "a binding"))
            return -1;
        if (cJSON_GetObjectItemCaseSensitive(obj, "counter") != NULL ||
            cJSON_GetObjectItemCaseSensitive(obj, "counterOffsetBytes") != NULL)
            return dsp_fail(c, "counter resources belong to HLSL dispatchables (unsupported)");
        v = cJSON_GetObjectItemCaseSensitive(obj, "name");
        if (v == NULL)
            return dsp_fail(c, "a binding object needs name (the resource to bind)");
    } else if (!cJSON_IsString(v)) {
        return dsp_fail(c, "a binding is a resource name or {\"name\": ..., \"elementOffset\": "
                           "..., \"elementCount\": ...}");
    }
    size_t mark = obj ? dsp_push_key(c, "name") : c->path_len;
    int rc = dsp_get_string(c, v, &name);
    if (rc == 0 && (b->resource = find_resource(m, name)) < 0)
        rc = dsp_fail(c, "no resource is named \"%.200s\"", name);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    const dsp_resource *r = &m->resources[b->resource];
    uint64_t esize = r->type ? r->type->size : 1, offset = 0, count = 0;
    int has_count = 0;
    if (obj != NULL) {
        const cJSON *x;
        if (binding_member(c, obj, "elementSizeInBytes", &esize) < 0 ||
            binding_member(c, obj, "elementStride", &esize) < 0 ||
            binding_member(c, obj, "elementOffset", &offset) < 0 ||
            (has_count = binding_member(c, obj, "elementCount", &count)) < 0)
            return -1;
        if (esize == 0)
            return dsp_fail(c, "an element of 0 bytes cannot be bound");
        if ((x = cJSON_GetObjectItemCaseSensitive(obj, "format")) != NULL) {
            /* A DXGI_FORMAT for HLSL views: DirectML operators ignore it, as in DxDispatch. */
            const char *f;
            mark = dsp_push_key(c, "format");
            rc = dsp_get_string(c, x, &f);
            dsp_pop(c, mark);
            if (rc)
                return -1;
        }
        if ((x = cJSON_GetObjectItemCaseSensitive(obj, "shape")) != NULL) {
            /* ONNX binding shapes: a DirectML tensor's shape is its desc's; checked, unused. */
            mark = dsp_push_key(c, "shape");
            rc = cJSON_IsArray(x) ? 0 : dsp_fail(c, "must be a list of sizes");
            size_t i = 0;
            for (const cJSON *d = x->child; rc == 0 && d != NULL; d = d->next, ++i) {
                uint64_t u;
                size_t mi = dsp_push_index(c, i);
                rc = dsp_get_uint(c, d, UINT32_MAX, &u);
                dsp_pop(c, mi);
            }
            dsp_pop(c, mark);
            if (rc)
                return -1;
        }
    }
    if (offset > r->size / esize)
        return dsp_fail_at(c, "elementOffset",
                           "%" PRIu64 " elements of %" PRIu64 " bytes start past the end of "
                           "resource '%s' (%" PRIu64 " bytes)",
                           offset, esize, r->name, r->size);
    b->offset = offset * esize;
    if (has_count && count > (r->size - b->offset) / esize)
        return dsp_fail_at(c, "elementCount",
                           "%" PRIu64 " elements of %" PRIu64 " bytes from elementOffset %" PRIu64
                           " end past the end of resource '%s' (%" PRIu64 " bytes)",
                           count, esize, offset, r->name, r->size);
    b->size = has_count ? count * esize : r->size - b->offset;
    return 0;
}

static const dsp_bind_point *bind_point(const dsp_dispatchable *d, const char *name)
{
    for (unsigned i = 0; i < d->n_points; ++i)
        if (strcmp(d->points[i].name, name) == 0)
            return &d->points[i];
    return NULL;
}

static int owned(const dsp_dispatchable *d, unsigned slot)
{
    const DML_TENSOR_DESC *t = d->slot_tensors[slot];
    if (t == NULL) /* an optional tensor the desc leaves out */
        return 0;
    const DML_BUFFER_TENSOR_DESC *b = t->Desc;
    return slot < d->n_inputs && (b->Flags & DML_TENSOR_FLAG_OWNED_BY_DML);
}

/*
 * A "bindings" object: bind point name -> one source, or a list of them. slots has one
 * entry per slot of d (inputs then outputs), resource -1 where nothing is bound.
 */
static int read_bindings(dsp_ctx *c, const dsp_model *m, const cJSON *obj,
                         const dsp_dispatchable *d, int init, dsp_binding *slots)
{
    for (unsigned i = 0; i < d->n_inputs + d->n_outputs; ++i)
        slots[i].resource = -1;
    if (!cJSON_IsObject(obj))
        return dsp_fail(c, "bindings must be an object: bind point -> resource");
    if (check_unique(c, obj, "bind point"))
        return -1;
    for (const cJSON *x = obj->child; x != NULL; x = x->next) {
        size_t mark = dsp_push_key(c, x->string);
        const dsp_bind_point *p = bind_point(d, x->string);
        int rc = 0;
        char list[512] = "";
        for (unsigned i = 0, len = 0; p == NULL && i < d->n_points && len < sizeof list; ++i)
            len += (unsigned)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                      d->points[i].name);
        unsigned n = cJSON_IsArray(x) ? (unsigned)cJSON_GetArraySize(x) : 1;
        if (p == NULL)
            rc = dsp_fail(c, "%s has no bind point of this name (its bind points: %s)", d->op_name,
                          list);
        else if (init && p->output)
            rc = dsp_fail(c, "outputs are bound by dispatch commands, not at initialization");
        else if (n != p->count)
            rc = dsp_fail(c, "%s takes %u resource%s, %u %s bound", p->name, p->count,
                          p->count == 1 ? "" : "s", n, n == 1 ? "is" : "are");
        for (unsigned k = 0; rc == 0 && k < n; ++k) {
            unsigned slot = p->first + k;
            const cJSON *src = cJSON_IsArray(x) ? cJSON_GetArrayItem(x, (int)k) : x;
            size_t mk = cJSON_IsArray(x) ? dsp_push_index(c, k) : c->path_len;
            /* A graph input that feeds no node has no tensor and may be bound (never read). */
            if (d->slot_tensors[slot] == NULL && !(d->n_nodes && slot < d->n_inputs && !init))
                rc = dsp_fail(c,
                              "%s is absent from the desc (an optional tensor left out): "
                              "nothing binds to it",
                              p->name);
            else if (init && !owned(d, slot))
                rc = dsp_fail(c, "only inputs with Flags OWNED_BY_DML are bound at "
                                 "initialization; this one is bound by dispatch commands");
            else if (!init && owned(d, slot))
                rc = dsp_fail(c, "this input has Flags OWNED_BY_DML: it is bound at "
                                 "initialization (the dispatchable's bindings), not by dispatch");
            else
                rc = binding_source(c, m, src, &slots[slot]);
            dsp_pop(c, mk);
        }
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    /* Every slot the dispatch (or the initializer) must bind is bound. */
    for (unsigned i = 0; i < d->n_points; ++i) {
        const dsp_bind_point *p = &d->points[i];
        for (unsigned k = 0; k < p->count; ++k) {
            unsigned slot = p->first + k;
            int needed = d->slot_tensors[slot] != NULL && (init ? owned(d, slot) : !owned(d, slot));
            if (needed && slots[slot].resource < 0)
                return dsp_fail(c, "%s%s is not bound%s", p->name, p->count > 1 ? " (a list)" : "",
                                init ? " (inputs with Flags OWNED_BY_DML are bound here, once)"
                                     : "");
        }
    }
    return 0;
}

/* ---- Dispatchables ------------------------------------------------------------------ */

static const dsp_enum_value exec_flag_values[] = {
    {"NONE", DML_EXECUTION_FLAG_NONE},
    {"ALLOW_HALF_PRECISION_COMPUTATION", DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION},
    {"DISABLE_META_COMMANDS", DML_EXECUTION_FLAG_DISABLE_META_COMMANDS},
    {"DESCRIPTORS_VOLATILE", DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE},
    {NULL, 0},
};
static const dsp_enum exec_flags = {"DML_EXECUTION_FLAGS", "DML_EXECUTION_FLAG_", exec_flag_values};
static const dsp_enum_value compile_type_values[] = {
    {"DmlCompileOp", 0}, {"DmlCompileGraph", 1}, {NULL, 0}};
static const dsp_enum compile_type = {"dmlCompileType", "", compile_type_values};

/* DxDispatch reads "type" or "Type", "desc" or "Desc". */
static const cJSON *either(const cJSON *obj, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, a);
    return x ? x : cJSON_GetObjectItemCaseSensitive(obj, b);
}

static int read_dispatchable(dsp_ctx *c, dsp_model *m, const cJSON *obj, const char *base,
                             dsp_dispatchable *d)
{
    static const char *const keys[] = {"type",           "Type",           "desc",     "Desc",
                                       "executionFlags", "dmlCompileType", "bindings", NULL};
    if (!cJSON_IsObject(obj))
        return dsp_fail(c, "a dispatchable must be an object ({\"type\": ..., \"desc\": ...})");
    const cJSON *type = either(obj, "type", "Type");
    if (cJSON_IsString(type) &&
        (strcmp(type->valuestring, "hlsl") == 0 || strcmp(type->valuestring, "onnx") == 0))
        return dsp_fail_at(c, type->string,
                           "\"%s\" dispatchables are not supported: dmlcl-dispatch runs DirectML "
                           "operators (unsupported)",
                           type->valuestring);
    if (cJSON_IsString(type) && strcmp(type->valuestring, "dmlSerializedGraph") == 0)
        return dsp_serialized_parse(c, m, obj, base, d);
    static const char *const graph_keys[] = {
        "type", "inputs", "outputs", "nodes", "executionFlags", "dmlCompileType", "bindings", NULL};
    int is_graph = cJSON_IsString(type) && strcmp(type->valuestring, "graph") == 0;
    if (dsp_check_keys(c, obj, is_graph ? graph_keys : keys,
                       is_graph ? "a graph dispatchable" : "a DirectML operator dispatchable"))
        return -1;
    if (is_graph) {
        if (dsp_graph_parse(c, obj, d))
            return -1;
    } else {
        if (type == NULL)
            return dsp_fail(c, "a dispatchable needs type (DML_OPERATOR_<NAME>)");
        if (cJSON_GetObjectItemCaseSensitive(obj, "type") &&
            cJSON_GetObjectItemCaseSensitive(obj, "Type"))
            return dsp_fail_at(c, "Type", "give type or Type, not both");
        if (cJSON_GetObjectItemCaseSensitive(obj, "desc") &&
            cJSON_GetObjectItemCaseSensitive(obj, "Desc"))
            return dsp_fail_at(c, "Desc", "give desc or Desc, not both");
        if (dsp_op_parse(c, type, either(obj, "desc", "Desc"), d))
            return -1;
    }
    const cJSON *x;
    int v;
    if ((x = cJSON_GetObjectItemCaseSensitive(obj, "executionFlags")) != NULL) {
        size_t mark = dsp_push_key(c, "executionFlags");
        int rc = dsp_get_flags(c, x, &exec_flags, &v);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        d->flags = (DML_EXECUTION_FLAGS)v;
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(obj, "dmlCompileType")) != NULL) {
        size_t mark = dsp_push_key(c, "dmlCompileType");
        int rc = dsp_get_enum(c, x, &compile_type, &v);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        if (is_graph && v == 0)
            return dsp_fail_at(c, "dmlCompileType",
                               "a graph dispatchable compiles as a graph "
                               "(DmlCompileGraph)");
        d->graph = v;
    }
    unsigned slots = d->n_inputs + d->n_outputs;
    for (unsigned i = 0; i < d->n_inputs; ++i)
        d->has_owned |= owned(d, i);
    d->init = dsp_alloc(c, (size_t)(slots ? slots : 1) * sizeof *d->init);
    if (d->init == NULL)
        return -1;
    x = cJSON_GetObjectItemCaseSensitive(obj, "bindings");
    if (x == NULL && !d->has_owned) {
        for (unsigned i = 0; i < slots; ++i)
            d->init[i].resource = -1;
        return 0;
    }
    cJSON none;
    memset(&none, 0, sizeof none);
    none.type = cJSON_Object;
    size_t mark = dsp_push_key(c, "bindings");
    int rc = read_bindings(c, m, x ? x : &none, d, 1, d->init);
    dsp_pop(c, mark);
    return rc;
}

/* ---- Commands ----------------------------------------------------------------------- */

static int read_dispatch(dsp_ctx *c, const dsp_model *m, const cJSON *obj, dsp_command *cmd)
{
    static const char *const keys[] = {"type", "dispatchable", "bindings", "threadGroupCount",
                                       NULL};
    const char *name;
    if (dsp_check_keys(c, obj, keys, "a dispatch command"))
        return -1;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "dispatchable");
    if (x == NULL)
        return dsp_fail(c, "a dispatch command needs dispatchable");
    size_t mark = dsp_push_key(c, "dispatchable");
    int rc = dsp_get_string(c, x, &name);
    if (rc == 0 && (cmd->dispatchable = find_dispatchable(m, name)) < 0)
        rc = dsp_fail(c, "no dispatchable is named \"%.200s\"", name);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    if ((x = cJSON_GetObjectItemCaseSensitive(obj, "threadGroupCount")) != NULL) {
        /* HLSL's; DirectML operators ignore it, as in DxDispatch. */
        mark = dsp_push_key(c, "threadGroupCount");
        rc = cJSON_IsArray(x) && cJSON_GetArraySize(x) == 3
                 ? 0
                 : dsp_fail(c, "must be a list of 3 thread group counts");
        for (int i = 0; rc == 0 && i < 3; ++i) {
            uint64_t u;
            size_t mi = dsp_push_index(c, (size_t)i);
            rc = dsp_get_uint(c, cJSON_GetArrayItem(x, i), UINT32_MAX, &u);
            dsp_pop(c, mi);
        }
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    const dsp_dispatchable *d = &m->dispatchables[cmd->dispatchable];
    x = cJSON_GetObjectItemCaseSensitive(obj, "bindings");
    if (x == NULL)
        return dsp_fail(c, "a dispatch command needs bindings");
    cmd->slots = dsp_alloc(c, (size_t)(d->n_inputs + d->n_outputs + 1) * sizeof *cmd->slots);
    if (cmd->slots == NULL)
        return -1;
    mark = dsp_push_key(c, "bindings");
    rc = read_bindings(c, m, x, d, 0, cmd->slots);
    dsp_pop(c, mark);
    return rc;
}

static int read_resource_ref(dsp_ctx *c, const dsp_model *m, const cJSON *obj, dsp_command *cmd)
{
    const char *name;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "resource");
    if (x == NULL)
        return dsp_fail(c, "the command needs resource");
    size_t mark = dsp_push_key(c, "resource");
    int rc = dsp_get_string(c, x, &name);
    if (rc == 0 && (cmd->resource = find_resource(m, name)) < 0)
        rc = dsp_fail(c, "no resource is named \"%.200s\"", name);
    if (rc == 0 && m->resources[cmd->resource].type == NULL && cmd->kind == DSP_PRINT)
        rc = dsp_fail(c,
                      "resource '%s' has initialValuesDataType UNKNOWN: it has no element type "
                      "to print",
                      name);
    dsp_pop(c, mark);
    return rc;
}

static int read_print(dsp_ctx *c, const dsp_model *m, const cJSON *obj, dsp_command *cmd)
{
    static const char *const keys[] = {"type", "resource", "verbose", NULL};
    if (dsp_check_keys(c, obj, keys, "a print command") || read_resource_ref(c, m, obj, cmd))
        return -1;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "verbose");
    if (x != NULL && !cJSON_IsBool(x))
        return dsp_fail_at(c, "verbose", "must be true or false");
    cmd->verbose = x != NULL && cJSON_IsTrue(x);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

static int read_write_file(dsp_ctx *c, const dsp_model *m, const cJSON *obj, const char *base,
                           dsp_command *cmd)
{
    static const char *const keys[] = {"type", "resource", "targetPath", "dimensions", NULL};
    const char *target;
    if (dsp_check_keys(c, obj, keys, "a writeFile command") || read_resource_ref(c, m, obj, cmd))
        return -1;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "targetPath");
    if (x == NULL)
        return dsp_fail(c, "a writeFile command needs targetPath");
    size_t mark = dsp_push_key(c, "targetPath");
    int rc = dsp_get_string(c, x, &target);
    if (rc == 0 && (ends_with(target, ".png") || ends_with(target, ".jpg")))
        rc = dsp_fail(c, "\"%s\": image files are not written by dmlcl-dispatch (unsupported)",
                      target);
    cmd->npy = rc == 0 && ends_with(target, ".npy");
    const dsp_resource *r = &m->resources[cmd->resource];
    if (rc == 0 && cmd->npy && r->type == NULL)
        rc = dsp_fail(c,
                      "resource '%s' has initialValuesDataType UNKNOWN: a .npy file needs an "
                      "element type",
                      r->name);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    size_t n = strlen(base) + strlen(target) + 2;
    char *path = dsp_alloc(c, n);
    if (path == NULL)
        return -1;
    snprintf(path, n, target[0] == '/' ? "%.0s%s" : "%s/%s", base, target);
    cmd->target = path;
    if ((x = cJSON_GetObjectItemCaseSensitive(obj, "dimensions")) == NULL)
        return 0;
    mark = dsp_push_key(c, "dimensions");
    rc = cJSON_IsArray(x) && cJSON_GetArraySize(x) > 0
             ? 0
             : dsp_fail(c, "must be a non-empty list of sizes");
    cmd->n_dims = rc ? 0 : (unsigned)cJSON_GetArraySize(x);
    cmd->dims = rc ? NULL : dsp_alloc(c, cmd->n_dims * sizeof *cmd->dims);
    uint64_t count = 1;
    for (unsigned i = 0; rc == 0 && i < cmd->n_dims; ++i) {
        uint64_t u;
        size_t mi = dsp_push_index(c, i);
        rc = cmd->dims ? dsp_get_uint(c, cJSON_GetArrayItem(x, (int)i), UINT32_MAX, &u) : -1;
        dsp_pop(c, mi);
        if (rc == 0) {
            cmd->dims[i] = (UINT)u;
            count = u && count > UINT64_MAX / u ? UINT64_MAX : count * u;
        }
    }
    uint64_t esize = r->type ? r->type->size : 1;
    if (rc == 0 && count > r->size / esize)
        rc = dsp_fail(c, "%" PRIu64 " elements, more than resource '%s' holds (%" PRIu64 ")", count,
                      r->name, r->size / esize);
    dsp_pop(c, mark);
    return rc;
}

static int read_command(dsp_ctx *c, const dsp_model *m, const cJSON *obj, const dsp_paths *paths,
                        dsp_command *cmd)
{
    const char *type;
    if (!cJSON_IsObject(obj))
        return dsp_fail(c, "a command must be an object ({\"type\": ..., ...})");
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, "type");
    if (x == NULL)
        return dsp_fail(c, "a command needs type (dispatch, print or writeFile)");
    size_t mark = dsp_push_key(c, "type");
    int rc = dsp_get_string(c, x, &type);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    cmd->path = dsp_strdup(c, c->path);
    if (strcasecmp(type, "dispatch") == 0) {
        cmd->kind = DSP_DISPATCH;
        return read_dispatch(c, m, obj, cmd);
    }
    if (strcasecmp(type, "print") == 0) {
        cmd->kind = DSP_PRINT;
        return read_print(c, m, obj, cmd);
    }
    if (strcasecmp(type, "writeFile") == 0) {
        cmd->kind = DSP_WRITE_FILE;
        return read_write_file(c, m, obj, paths->output, cmd);
    }
    return dsp_fail_at(c, "type", "\"%.100s\" is not a command (dispatch, print or writeFile)",
                       type);
}

/* ---- The model ---------------------------------------------------------------------- */

static const cJSON *section(dsp_ctx *c, const cJSON *root, const char *key, int array)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, key);
    if (x == NULL)
        dsp_fail(c, "a model needs %s", key);
    else if (array ? !cJSON_IsArray(x) : !cJSON_IsObject(x))
        dsp_fail_at(c, key, "must be %s", array ? "a list" : "an object");
    else
        return x;
    return NULL;
}

static int read_model(dsp_ctx *c, const cJSON *root, const dsp_paths *paths, dsp_model *m)
{
    static const char *const keys[] = {"$schema", "resources", "dispatchables", "commands", NULL};
    if (!cJSON_IsObject(root))
        return dsp_fail(c,
                        "a model is an object: {\"resources\", \"dispatchables\", \"commands\"}");
    if (dsp_check_keys(c, root, keys, "a model"))
        return -1;
    const cJSON *res = section(c, root, "resources", 0);
    const cJSON *disp = res ? section(c, root, "dispatchables", 0) : NULL;
    const cJSON *cmds = disp ? section(c, root, "commands", 1) : NULL;
    if (cmds == NULL)
        return -1;
    m->n_resources = (unsigned)cJSON_GetArraySize(res);
    m->n_dispatchables = (unsigned)cJSON_GetArraySize(disp);
    m->n_commands = (unsigned)cJSON_GetArraySize(cmds);
    m->resources = calloc(m->n_resources + 1, sizeof *m->resources);
    m->dispatchables = calloc(m->n_dispatchables + 1, sizeof *m->dispatchables);
    m->commands = calloc(m->n_commands + 1, sizeof *m->commands);
    if (!m->resources || !m->dispatchables || !m->commands)
        return dsp_fail(c, "out of memory");
    size_t mark = dsp_push_key(c, "resources");
    int rc = check_unique(c, res, "resource");
    unsigned i = 0;
    for (const cJSON *x = res->child; rc == 0 && x != NULL; x = x->next, ++i) {
        size_t mi = dsp_push_key(c, x->string);
        m->resources[i].name = x->string;
        rc = dsp_resource_parse(c, x, paths->input, &m->resources[i]);
        dsp_pop(c, mi);
    }
    dsp_pop(c, mark);
    mark = dsp_push_key(c, "dispatchables");
    rc = rc ? rc : check_unique(c, disp, "dispatchable");
    i = 0;
    for (const cJSON *x = disp->child; rc == 0 && x != NULL; x = x->next, ++i) {
        size_t mi = dsp_push_key(c, x->string);
        m->dispatchables[i].name = x->string;
        rc = read_dispatchable(c, m, x, paths->input, &m->dispatchables[i]);
        dsp_pop(c, mi);
    }
    dsp_pop(c, mark);
    mark = dsp_push_key(c, "commands");
    i = 0;
    for (const cJSON *x = cmds->child; rc == 0 && x != NULL; x = x->next, ++i) {
        size_t mi = dsp_push_index(c, i);
        rc = read_command(c, m, x, paths, &m->commands[i]);
        dsp_pop(c, mi);
    }
    dsp_pop(c, mark);
    return rc;
}

int dsp_model_load(dsp_ctx *c, const char *file, const dsp_paths *paths, dsp_model *m)
{
    memset(m, 0, sizeof *m);
    m->json = parse_json(c, file, &m->text);
    return m->json ? read_model(c, m->json, paths, m) : -1;
}

void dsp_model_free(dsp_model *m)
{
    for (unsigned i = 0; m->resources && i < m->n_resources; ++i)
        free(m->resources[i].bytes);
    free(m->resources);
    free(m->dispatchables);
    free(m->commands);
    cJSON_Delete(m->json);
    free(m->text);
    memset(m, 0, sizeof *m);
}
