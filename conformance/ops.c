/* SPDX-License-Identifier: MIT */
/*
 * The operator-builder registry and the helpers builders share: attribute
 * readers, name checks, input and output binding, framework front-end
 * inputs and outcomes, a per-build arena.
 * A new family (ops_openvino.c, ops_onnx.c) adds its table to `families`.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static const rt_op *const families[] = {
    rt_ops_directml,    rt_ops_gather,    rt_ops_broadcast, rt_ops_slice,      rt_ops_views,
    rt_ops_depth_space, rt_ops_joins,     rt_ops_pad,       rt_ops_activation, rt_ops_logic,
    rt_ops_math,        rt_ops_bnscan,    rt_ops_normalize, rt_ops_reduce,     rt_ops_pool,
    rt_ops_resample,    rt_ops_gemm,      rt_ops_conv,      rt_ops_quant,      rt_ops_scatter,
    rt_ops_generate,    rt_ops_rnn,       rt_ops_misc,      rt_ops_roi,        rt_ops_grad,
    rt_ops_intmm,       rt_ops_attention, rt_ops_train};

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

int rt_build_op(const rt_op *op, rt_build *b)
{
    return op->build(b) != 0 || b->malformed ? -1 : 0;
}

/* A builder carrying on past a malformed tensor fails later for a lesser reason: keep the first. */
int rt_fail(rt_build *b, const char *fmt, ...)
{
    if (b->malformed)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* The case gives a list where the operator takes one tensor, or the reverse. */
static void mark_form(rt_build *b, const char *side, const char *name, int is_list)
{
    const char *verb = strcmp(side, "inputs") == 0 ? "takes" : "writes";
    if (is_list)
        rt_fail(b, "%s.%s is a list of tensors; %s %s one tensor there", side, name, b->c->op,
                verb);
    else
        rt_fail(b, "%s.%s is one tensor; %s %s a list of tensors there (a JSON list)", side, name,
                b->c->op, verb);
    b->malformed = 1;
}

/* ---- Names ------------------------------------------------------------------------ */

/* A NULL list names nothing (an operator without attributes passes NULL). */
static int listed(const char *const *list, const char *name)
{
    for (; list != NULL && *list != NULL; ++list)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

static void join(const char *const *list, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; list != NULL && *list != NULL && used < n; ++list)
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

static const rt_named *find_named(const rt_named *list, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; ++i)
        if (strcmp(list[i].name, name) == 0)
            return &list[i];
    return NULL;
}

const rt_tensor *rt_input(rt_build *b, const char *name)
{
    const rt_named *nd = find_named(b->c->inputs, b->c->n_inputs, name);
    if (nd != NULL && nd->is_list) {
        mark_form(b, "inputs", name, 1);
        return NULL;
    }
    return nd ? nd->t : NULL;
}

const rt_tensor *rt_data_input(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_input(b, name);
    if (b->malformed)
        return NULL;
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

const rt_tensor *rt_expected(rt_build *b, const char *name)
{
    const rt_named *nd = find_named(b->c->outputs, b->c->n_outputs, name);
    if (nd != NULL && nd->is_list) {
        mark_form(b, "expected.outputs", name, 1);
        return NULL;
    }
    return nd ? nd->t : NULL;
}

static int named_list(rt_build *b, const rt_named *nd, const char *side, const char *name,
                      const rt_tensor *const **tensors, unsigned *count, int *given)
{
    *tensors = NULL;
    *count = 0;
    if (given != NULL)
        *given = nd != NULL;
    if (nd == NULL)
        return given != NULL
                   ? 0
                   : rt_fail(b, "%s needs %s.%s (a list of tensors)", b->c->op, side, name);
    if (!nd->is_list) {
        mark_form(b, side, name, 0);
        return -1;
    }
    *tensors = (const rt_tensor *const *)nd->list;
    *count = nd->count;
    return 0;
}

int rt_input_list(rt_build *b, const char *name, const rt_tensor *const **tensors, unsigned *count,
                  int *given)
{
    return named_list(b, find_named(b->c->inputs, b->c->n_inputs, name), "inputs", name, tensors,
                      count, given);
}

int rt_expected_list(rt_build *b, const char *name, const rt_tensor *const **tensors,
                     unsigned *count, int *given)
{
    return named_list(b, find_named(b->c->outputs, b->c->n_outputs, name), "expected.outputs", name,
                      tensors, count, given);
}

int rt_output_count(rt_build *b, const char *out_name, const char *desc_name, unsigned *count)
{
    const rt_tensor *const *t;
    unsigned n_out = 0, n_desc = 0;
    int has_out, has_desc = 0;
    if (rt_expected_list(b, out_name, &t, &n_out, &has_out) != 0 ||
        (desc_name && rt_input_list(b, desc_name, &t, &n_desc, &has_desc) != 0))
        return -1;
    if (has_out && has_desc && n_out != n_desc)
        return rt_fail(b, "expected.outputs.%s has %u tensors, inputs.%s describes %u", out_name,
                       n_out, desc_name, n_desc);
    if (!has_out && !has_desc) {
        if (desc_name)
            return rt_fail(b,
                           "%s: the output count is the length of expected.outputs.%s or of "
                           "inputs.%s; the case gives neither",
                           b->c->op, out_name, desc_name);
        return rt_fail(b,
                       "%s: the output count is the length of expected.outputs.%s, which "
                       "the case does not give",
                       b->c->op, out_name);
    }
    *count = has_out ? n_out : n_desc;
    return 0;
}

/* ---- Attributes ---------------------------------------------------------------------- */

const cJSON *rt_attr(const rt_build *b, const char *name)
{
    const cJSON *a = b->c->attrs ? cJSON_GetObjectItemCaseSensitive(b->c->attrs, name) : NULL;
    return cJSON_IsNull(a) ? NULL : a;
}

int rt_attr_bool(rt_build *b, const char *name, BOOL *out)
{
    const cJSON *v = rt_attr(b, name);
    *out = 0;
    if (v == NULL)
        return 0;
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    }
    if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1)) {
        *out = (BOOL)v->valueint;
        return 0;
    }
    return rt_fail(b, "attrs.%s must be true or false", name);
}

int rt_attr_uint(rt_build *b, const char *name, UINT def, UINT *out)
{
    char why[256];
    uint64_t u = def;
    const cJSON *v = rt_attr(b, name);
    if (v != NULL && rt_json_uint64(v, UINT32_MAX, &u, why, sizeof why) != 0)
        return rt_fail(b, "attrs.%s must be an integer in [0, 2^32): %s", name, why);
    *out = (UINT)u;
    return 0;
}

int rt_attr_int64(rt_build *b, const char *name, int64_t def, int64_t *out)
{
    char why[256];
    const cJSON *v = rt_attr(b, name);
    *out = def;
    if (v != NULL && rt_json_int64(v, INT64_MIN, INT64_MAX, out, why, sizeof why) != 0)
        return rt_fail(b, "attrs.%s must be a 64-bit signed integer: %s", name, why);
    return 0;
}

int rt_attr_uint64(rt_build *b, const char *name, uint64_t def, uint64_t *out)
{
    char why[256];
    const cJSON *v = rt_attr(b, name);
    *out = def;
    if (v != NULL && rt_json_uint64(v, UINT64_MAX, out, why, sizeof why) != 0)
        return rt_fail(b, "attrs.%s must be a 64-bit unsigned integer: %s", name, why);
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

typedef enum list_kind { LIST_UINT, LIST_INT, LIST_INT64 } list_kind;

static int attr_list(rt_build *b, const char *name, list_kind kind, void **vals, unsigned *count)
{
    static const char *const rule[] = {"an integer in [0, 2^32)", "a 32-bit signed integer",
                                       "a 64-bit signed integer"};
    static const size_t elem[] = {sizeof(UINT), sizeof(INT), sizeof(int64_t)};
    const cJSON *v = rt_attr(b, name);
    *vals = NULL;
    *count = 0;
    if (v == NULL)
        return 0;
    if (!cJSON_IsArray(v))
        return rt_fail(b, "attrs.%s must be a list of integers", name);
    unsigned n = (unsigned)cJSON_GetArraySize(v);
    unsigned char *p = rt_alloc(b, (n ? n : 1) * elem[kind]);
    unsigned i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        char why[256];
        uint64_t u;
        int64_t x;
        int rc = kind == LIST_UINT  ? rt_json_uint64(e, UINT32_MAX, &u, why, sizeof why)
                 : kind == LIST_INT ? rt_json_int64(e, INT32_MIN, INT32_MAX, &x, why, sizeof why)
                                    : rt_json_int64(e, INT64_MIN, INT64_MAX, &x, why, sizeof why);
        if (rc != 0)
            return rt_fail(b, "attrs.%s[%u] must be %s: %s", name, i, rule[kind], why);
        if (kind == LIST_UINT) {
            UINT w = (UINT)u;
            memcpy(p + i * elem[kind], &w, sizeof w);
        } else if (kind == LIST_INT) {
            INT w = (INT)x;
            memcpy(p + i * elem[kind], &w, sizeof w);
        } else {
            memcpy(p + i * elem[kind], &x, sizeof x);
        }
        ++i;
    }
    *vals = p;
    *count = n;
    return 0;
}

int rt_attr_uint_list(rt_build *b, const char *name, UINT **vals, unsigned *count)
{
    void *p;
    int rc = attr_list(b, name, LIST_UINT, &p, count);
    *vals = p;
    return rc;
}

int rt_attr_int_list(rt_build *b, const char *name, INT **vals, unsigned *count)
{
    void *p;
    int rc = attr_list(b, name, LIST_INT, &p, count);
    *vals = p;
    return rc;
}

int rt_attr_int64_list(rt_build *b, const char *name, int64_t **vals, unsigned *count)
{
    void *p;
    int rc = attr_list(b, name, LIST_INT64, &p, count);
    *vals = p;
    return rc;
}

int rt_attr_type(rt_build *b, const char *name, const rt_type **out)
{
    const cJSON *v = rt_attr(b, name);
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!cJSON_IsString(v) || (*out = rt_type_by_name(v->valuestring)) == NULL)
        return rt_fail(b, "attrs.%s must be a type name of the case format (FLOAT32, INT64, ...)",
                       name);
    return 0;
}

int rt_attr_value(rt_build *b, const char *name, const rt_type *t, void *dst)
{
    char why[RT_WHY_MAX / 2];
    const cJSON *v = rt_attr(b, name);
    memset(dst, 0, t->size);
    if (v != NULL && rt_value_parse(t, v, dst, why, sizeof why) != 0)
        return rt_fail(b, "attrs.%s: %s", name, why);
    return 0;
}

/* ---- Bindings ------------------------------------------------------------------- */

int rt_bind_input(rt_build *b, const rt_tensor *t)
{
    if (b->n_inputs == RT_MAX_TENSORS)
        return rt_fail(b, "more than %d inputs", RT_MAX_TENSORS);
    b->inputs[b->n_inputs++] = t;
    return 0;
}

static rt_tensor *add_output(rt_build *b, const char *name, int index, const rt_type *type,
                             unsigned rank, const UINT *sizes, const UINT *strides)
{
    char why[RT_WHY_MAX / 2];
    if (b->n_outputs == RT_MAX_TENSORS) {
        rt_fail(b, "more than %d outputs", RT_MAX_TENSORS);
        return NULL;
    }
    rt_tensor *t = rt_tensor_new(type, rank, sizes, strides, why, sizeof why);
    if (t == NULL) {
        if (index < 0)
            rt_fail(b, "%s: %s", name, why);
        else
            rt_fail(b, "%s[%d]: %s", name, index, why);
        return NULL;
    }
    b->outputs[b->n_outputs] = t;
    b->output_index[b->n_outputs] = index;
    b->output_names[b->n_outputs++] = name;
    return t;
}

/* An optional data input: bound (NULL when absent, its slot bound empty). */
int rt_optional_input(rt_build *b, const char *name, const DML_TENSOR_DESC **out)
{
    *out = NULL;
    if (rt_input(b, name) == NULL)
        return rt_bind_input(b, NULL);
    const rt_tensor *t = rt_data_input(b, name);
    if (t == NULL || rt_bind_input(b, t))
        return -1;
    *out = &t->desc;
    return 0;
}

int rt_required_input(rt_build *b, const char *name, const DML_TENSOR_DESC **out)
{
    const rt_tensor *t = rt_data_input(b, name);
    if (t == NULL || rt_bind_input(b, t))
        return -1;
    *out = &t->desc;
    return 0;
}

/* An optional output: described under inputs or expected; neither: absent, its slot bound
 * NONE (the binding counts every member). */
int rt_optional_output(rt_build *b, const char *name, const DML_TENSOR_DESC **out)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    *out = NULL;
    if (given != NULL && given->elems != NULL)
        return rt_fail(b, "inputs.%s describes the output and takes no data", name);
    if (src == NULL)
        return rt_add_absent_output(b, name);
    rt_tensor *t = rt_add_output(b, name, src->type, src->rank, src->sizes,
                                 src->has_strides ? src->strides : NULL);
    if (t == NULL)
        return -1;
    *out = &t->desc;
    return 0;
}

int rt_add_absent_output(rt_build *b, const char *name)
{
    if (b->n_outputs == RT_MAX_TENSORS)
        return rt_fail(b, "more than %d outputs", RT_MAX_TENSORS);
    b->outputs[b->n_outputs] = NULL;
    b->output_index[b->n_outputs] = -1;
    b->output_names[b->n_outputs++] = name;
    return 0;
}

rt_tensor *rt_add_output(rt_build *b, const char *name, const rt_type *type, unsigned rank,
                         const UINT *sizes, const UINT *strides)
{
    return add_output(b, name, -1, type, rank, sizes, strides);
}

rt_tensor *rt_add_list_output(rt_build *b, const char *name, unsigned index, const rt_type *type,
                              unsigned rank, const UINT *sizes, const UINT *strides)
{
    return add_output(b, name, (int)index, type, rank, sizes, strides);
}

int rt_bind_output_list(rt_build *b, const char *name, const DML_TENSOR_DESC **descs,
                        unsigned *count)
{
    const rt_tensor *const *given, *const *expected;
    unsigned n_given, n_expected;
    int has_given, has_expected;
    *descs = NULL;
    if (rt_output_count(b, name, name, count) != 0 ||
        rt_input_list(b, name, &given, &n_given, &has_given) != 0 ||
        rt_expected_list(b, name, &expected, &n_expected, &has_expected) != 0)
        return -1;
    DML_TENSOR_DESC *d = rt_alloc(b, (*count ? *count : 1) * sizeof *d);
    for (unsigned i = 0; i < *count; ++i) {
        const rt_tensor *src = has_given ? given[i] : expected[i];
        if (has_given && src->elems != NULL)
            return rt_fail(b, "inputs.%s[%u] describes an output and takes no data", name, i);
        rt_tensor *t = rt_add_list_output(b, name, i, src->type, src->rank, src->sizes,
                                          src->has_strides ? src->strides : NULL);
        if (t == NULL)
            return -1;
        d[i] = t->desc;
    }
    *descs = d;
    return 0;
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
