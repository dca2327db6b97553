/*
 * The operator-builder registry and the helpers builders share: attribute
 * readers, name checks, input and output binding, framework front-end
 * inputs and outcomes, a per-build arena.
 * A new family (ops_openvino.c, ops_onnx.c) adds its table to `families`.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static const rt_op *const families[] = {rt_ops_directml, rt_ops_gather, rt_ops_broadcast,
                                        rt_ops_slice, rt_ops_pad};

const rt_op *rt_op_find(const char *name)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; ++f)
        for (const rt_op *op = families[f]; op->name != NULL; ++op)
            if (strcmp(op->name, name) == 0)
                return op;
    return NULL;
}

/* ---- Arena ---------------------------------------------------------------------- */

struct rt_block {
    struct rt_block *next;
    max_align_t data[];
};

void *rt_alloc(rt_build *b, size_t size)
{
    rt_block *blk = calloc(1, sizeof *blk + size);
    if (blk == NULL) {
        fprintf(stderr, "dmlcl-conformance: out of memory\n");
        exit(2);
    }
    blk->next = b->arena;
    b->arena = blk;
    return blk->data;
}

void rt_build_free(rt_build *b)
{
    while (b->arena != NULL) {
        rt_block *next = b->arena->next;
        free(b->arena);
        b->arena = next;
    }
    for (unsigned i = 0; i < b->n_outputs; ++i)
        rt_tensor_free(b->outputs[i]);
    b->n_outputs = 0;
}

int rt_fail(rt_build *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- Names ------------------------------------------------------------------------ */

static int listed(const char *const *list, const char *name)
{
    for (; *list != NULL; ++list)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

static void join(const char *const *list, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; *list != NULL && used < n; ++list)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", *list);
}

int rt_check_names(rt_build *b, const char *const *inputs, const char *const *attrs,
                   const char *const *outputs)
{
    const rt_case *c = b->c;
    char known[256];
    for (unsigned i = 0; i < c->n_inputs; ++i)
        if (!listed(inputs, c->inputs[i].name)) {
            join(inputs, known, sizeof known);
            return rt_fail(b, "%s has no input \"%s\" (inputs: %s)", c->op, c->inputs[i].name,
                           known);
        }
    for (const cJSON *a = c->attrs ? c->attrs->child : NULL; a != NULL; a = a->next)
        if (!listed(attrs, a->string)) {
            join(attrs, known, sizeof known);
            return rt_fail(b, "%s has no attribute \"%s\" (attributes: %s)", c->op, a->string,
                           known[0] ? known : "none");
        }
    for (unsigned i = 0; i < c->n_outputs; ++i)
        if (!listed(outputs, c->outputs[i].name)) {
            join(outputs, known, sizeof known);
            return rt_fail(b, "%s has no output \"%s\" (outputs: %s)", c->op, c->outputs[i].name,
                           known);
        }
    return 0;
}

const rt_tensor *rt_input(const rt_build *b, const char *name)
{
    for (unsigned i = 0; i < b->c->n_inputs; ++i)
        if (strcmp(b->c->inputs[i].name, name) == 0)
            return b->c->inputs[i].t;
    return NULL;
}

const rt_tensor *rt_data_input(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_input(b, name);
    if (t == NULL) {
        rt_fail(b, "%s needs inputs.%s", b->c->op, name);
        return NULL;
    }
    if (t->elems == NULL) {
        rt_fail(b, "inputs.%s has no data", name);
        return NULL;
    }
    return t;
}

const rt_tensor *rt_expected(const rt_build *b, const char *name)
{
    for (unsigned i = 0; i < b->c->n_outputs; ++i)
        if (strcmp(b->c->outputs[i].name, name) == 0)
            return b->c->outputs[i].t;
    return NULL;
}

/* ---- Attributes ---------------------------------------------------------------------- */

const cJSON *rt_attr(const rt_build *b, const char *name)
{
    const cJSON *a = b->c->attrs ? cJSON_GetObjectItemCaseSensitive(b->c->attrs, name) : NULL;
    return cJSON_IsNull(a) ? NULL : a;
}

int rt_json_integral(const cJSON *v, double lo, double hi)
{
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
           v->valuedouble == floor(v->valuedouble);
}

int rt_attr_uint(rt_build *b, const char *name, UINT def, UINT *out)
{
    const cJSON *v = rt_attr(b, name);
    if (v == NULL) {
        *out = def;
        return 0;
    }
    if (!rt_json_integral(v, 0, 4294967295.0))
        return rt_fail(b, "attrs.%s must be an integer in [0, 2^32)", name);
    *out = (UINT)v->valuedouble;
    return 0;
}

int rt_attr_float(rt_build *b, const char *name, const cJSON *obj, FLOAT *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!cJSON_IsNumber(v))
        return rt_fail(b, "%s must be a number", name);
    *out = (FLOAT)v->valuedouble;
    return 0;
}

static int attr_list(rt_build *b, const char *name, int is_signed, void **vals, unsigned *count)
{
    const cJSON *v = rt_attr(b, name);
    *vals = NULL;
    *count = 0;
    if (v == NULL)
        return 0;
    if (!cJSON_IsArray(v))
        return rt_fail(b, "attrs.%s must be a list of integers", name);
    unsigned n = (unsigned)cJSON_GetArraySize(v);
    UINT *u = rt_alloc(b, (n ? n : 1) * sizeof *u);
    INT *s = (INT *)u;
    unsigned i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (is_signed ? !rt_json_integral(e, -2147483648.0, 2147483647.0)
                      : !rt_json_integral(e, 0, 4294967295.0))
            return rt_fail(b, "attrs.%s[%u] must be %s", name, i,
                           is_signed ? "a 32-bit signed integer" : "an integer in [0, 2^32)");
        if (is_signed)
            s[i++] = (INT)e->valuedouble;
        else
            u[i++] = (UINT)e->valuedouble;
    }
    *vals = u;
    *count = n;
    return 0;
}

int rt_attr_uint_list(rt_build *b, const char *name, UINT **vals, unsigned *count)
{
    void *p;
    int rc = attr_list(b, name, 0, &p, count);
    *vals = p;
    return rc;
}

int rt_attr_int_list(rt_build *b, const char *name, INT **vals, unsigned *count)
{
    void *p;
    int rc = attr_list(b, name, 1, &p, count);
    *vals = p;
    return rc;
}

/* ---- Bindings ------------------------------------------------------------------- */

int rt_bind_input(rt_build *b, const rt_tensor *t)
{
    if (b->n_inputs == RT_MAX_TENSORS)
        return rt_fail(b, "too many inputs");
    b->inputs[b->n_inputs++] = t;
    return 0;
}

rt_tensor *rt_add_output(rt_build *b, const char *name, const rt_type *type, unsigned rank,
                         const UINT *sizes, const UINT *strides)
{
    char why[RT_WHY_MAX];
    if (b->n_outputs == RT_MAX_TENSORS) {
        rt_fail(b, "too many outputs");
        return NULL;
    }
    rt_tensor *t = rt_tensor_new(type, rank, sizes, strides, why, sizeof why);
    if (t == NULL) {
        rt_fail(b, "%s: %s", name, why);
        return NULL;
    }
    b->outputs[b->n_outputs] = t;
    b->output_names[b->n_outputs++] = name;
    return t;
}

/* ---- Framework front-ends ------------------------------------------------------- */

int rt_framework_shape(rt_build *b, const char *name, const rt_tensor *t, dmlcl_shape *shape)
{
    if (t->has_strides)
        return rt_fail(b,
                       "inputs.%s: framework tensors are packed; strides are for DirectML "
                       "operators",
                       name);
    shape->rank = t->rank;
    for (unsigned i = 0; i < t->rank; ++i)
        shape->dims[i] = t->sizes[i];
    return 0;
}

const rt_tensor *rt_framework_input(rt_build *b, const char *name, dmlcl_shape *shape)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_framework_shape(b, name, t, shape) == 0 ? t : NULL;
}

dmlcl_int_array rt_int_array(const rt_tensor *t)
{
    return (dmlcl_int_array){t->type->dml, t->count, t->elems};
}

int rt_frontend_finish(rt_build *b, HRESULT hr, const dmlcl_frontend_result *r,
                       const rt_tensor *data, int bind_data)
{
    const dmlcl_shape *shape = &r->output_shape;
    if (FAILED(hr)) {
        b->frontend_hr = hr;
        return 0;
    }
    UINT sizes[RT_MAX_RANK];
    for (unsigned i = 0; i < shape->rank; ++i)
        sizes[i] = (UINT)shape->dims[i];
    if ((bind_data && rt_bind_input(b, data) != 0) ||
        rt_add_output(b, "output", data->type, shape->rank, sizes, NULL) == NULL)
        return -1;
    b->desc = r->desc;
    return 0;
}
