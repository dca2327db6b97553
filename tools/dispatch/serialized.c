/* SPDX-License-Identifier: MIT */
/*
 * A dmlSerializedGraph dispatchable (docs/dispatch.md): a DirectML graph that ONNX Runtime's
 * DirectML provider serialized as a FlatBuffer (DirectML's DmlGraphDesc schema, DxDispatch's
 * DirectMLHelpers), read into a graph dispatchable as graph.c builds them.
 *
 * The FlatBuffer is read by hand, every offset checked against the file before it is followed
 * (a malformed file is refused with the byte offset and what was read there). An operator node's
 * tensors and attributes come in its desc's member order (DirectML's schema order, ops.c's
 * tables): they are written as the desc's JSON and read by dsp_op_parse, so a serialized desc
 * meets every rule a model's desc does. Constants as DxDispatch runs them: a named constant
 * (data in NAME.bin beside the graph) is a graph input after the file's own, OWNED_BY_DML,
 * bound at initialization to a hidden resource of the file's bytes; inline constant data is a
 * DML_GRAPH_NODE_TYPE_CONSTANT node.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

/* ---- FlatBuffers, bounds-checked ---------------------------------------------------- */

/* The largest FlatBuffer: its offsets are 32-bit, signed ones among them. */
#define FB_MAX ((uint64_t)INT32_MAX)

typedef struct fb {
    dsp_ctx *c;
    const unsigned char *p;
    uint64_t n;
    const char *file; /* as the model names it */
} fb;

typedef struct fb_table {
    uint64_t at, vt; /* the table, its vtable */
    unsigned vsize, tsize;
} fb_table;

/* "FILE: byte AT (WHAT): why". */
static int fb_fail(const fb *f, uint64_t at, const char *what, const char *fmt, ...)
    DSP_PRINTF(4, 5);
static int fb_fail(const fb *f, uint64_t at, const char *what, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return dsp_fail(f->c, "%s: byte %" PRIu64 " (%s): %s", f->file, at, what, why);
}

static int fb_need(const fb *f, uint64_t at, uint64_t size, const char *what)
{
    if (at > f->n || size > f->n - at)
        return fb_fail(f, at, what,
                       "%" PRIu64 " bytes from here end past the end of the file (%" PRIu64
                       " bytes)",
                       size, f->n);
    return 0;
}

static uint64_t rd(const fb *f, uint64_t at, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i)
        v |= (uint64_t)f->p[at + i] << (8 * i);
    return v;
}

/* The uoffset at `at`: where it leads. */
static int fb_ref(const fb *f, uint64_t at, const char *what, uint64_t *target)
{
    if (fb_need(f, at, 4, what))
        return -1;
    *target = at + rd(f, at, 4);
    if (*target >= f->n)
        return fb_fail(f, at, what,
                       "the offset %" PRIu64 " leads to byte %" PRIu64
                       ", past the end of the file (%" PRIu64 " bytes)",
                       rd(f, at, 4), *target, f->n);
    return 0;
}

static int fb_table_at(const fb *f, uint64_t at, const char *what, fb_table *t)
{
    if (fb_need(f, at, 4, what))
        return -1;
    int64_t vt = (int64_t)at - (int32_t)(uint32_t)rd(f, at, 4);
    if (vt < 0 || (uint64_t)vt + 4 > f->n)
        return fb_fail(f, at, what,
                       "the table's vtable offset (%" PRId32 ") leads to byte %" PRId64
                       ", outside the file (%" PRIu64 " bytes)",
                       (int32_t)(uint32_t)rd(f, at, 4), vt, f->n);
    t->at = at;
    t->vt = (uint64_t)vt;
    t->vsize = (unsigned)rd(f, t->vt, 2);
    t->tsize = (unsigned)rd(f, t->vt + 2, 2);
    if (t->vsize < 4 || t->vsize % 2)
        return fb_fail(f, t->vt, what, "a vtable of %u bytes (an even number, at least 4)",
                       t->vsize);
    if (t->tsize < 4)
        return fb_fail(f, t->vt, what, "a table of %u bytes (at least 4: its vtable offset)",
                       t->tsize);
    return fb_need(f, t->vt, t->vsize, what) || fb_need(f, at, t->tsize, what) ? -1 : 0;
}

/* Field id of t, size bytes: *pos its place, 0 if absent. */
static int fb_field(const fb *f, const fb_table *t, unsigned id, unsigned size, const char *what,
                    uint64_t *pos)
{
    unsigned o = 4 + 2 * id < t->vsize ? (unsigned)rd(f, t->vt + 4 + 2 * id, 2) : 0;
    *pos = 0;
    if (o == 0)
        return 0;
    if (o < 4 || o + size > t->tsize)
        return fb_fail(f, t->vt + 4 + 2 * id, what,
                       "the field's offset %u does not leave its %u bytes inside the table's %u", o,
                       size, t->tsize);
    *pos = t->at + o;
    return 0;
}

static int fb_u8(const fb *f, const fb_table *t, unsigned id, const char *what, unsigned *out)
{
    uint64_t pos;
    if (fb_field(f, t, id, 1, what, &pos))
        return -1;
    *out = pos ? (unsigned)f->p[pos] : 0;
    return 0;
}

/* A table field (an offset to a table): *present 0 if absent. */
static int fb_sub(const fb *f, const fb_table *t, unsigned id, const char *what, fb_table *out,
                  int *present)
{
    uint64_t pos, at;
    *present = 0;
    if (fb_field(f, t, id, 4, what, &pos) || (pos && fb_ref(f, pos, what, &at)))
        return -1;
    if (pos == 0)
        return 0;
    *present = 1;
    return fb_table_at(f, at, what, out);
}

/* A vector field of esize-byte elements: *start the first, *count of them (0 if absent). */
static int fb_vector(const fb *f, const fb_table *t, unsigned id, unsigned esize, const char *what,
                     uint64_t *start, uint32_t *count)
{
    uint64_t pos, at;
    *start = 0;
    *count = 0;
    if (fb_field(f, t, id, 4, what, &pos) || (pos && fb_ref(f, pos, what, &at)))
        return -1;
    if (pos == 0)
        return 0;
    if (fb_need(f, at, 4, what))
        return -1;
    *count = (uint32_t)rd(f, at, 4);
    *start = at + 4;
    if ((uint64_t)*count * esize > f->n - *start)
        return fb_fail(f, at, what,
                       "a vector of %" PRIu32
                       " elements of %u bytes ends past the end of the file (%" PRIu64 " bytes)",
                       *count, esize, f->n);
    return 0;
}

/* The string the uoffset at `at` leads to. */
static int fb_string_at(const fb *f, uint64_t at, const char *what, const char **out)
{
    uint64_t s;
    if (fb_ref(f, at, what, &s) || fb_need(f, s, 4, what))
        return -1;
    uint64_t len = rd(f, s, 4);
    if (len + 1 > f->n - s - 4)
        return fb_fail(f, s, what,
                       "a string of %" PRIu64
                       " bytes (and its terminating zero) ends past the end of the file (%" PRIu64
                       " bytes)",
                       len, f->n);
    const char *text = (const char *)f->p + s + 4;
    if (text[len] != '\0')
        return fb_fail(f, s, what, "a string without its terminating zero");
    if (memchr(text, '\0', (size_t)len) != NULL)
        return fb_fail(f, s, what, "a string holding a zero byte");
    *out = text;
    return 0;
}

/* A string field: "" if absent. */
static int fb_string(const fb *f, const fb_table *t, unsigned id, const char *what,
                     const char **out)
{
    uint64_t pos;
    *out = "";
    if (fb_field(f, t, id, 4, what, &pos))
        return -1;
    return pos ? fb_string_at(f, pos, what, out) : 0;
}

/* A vector of strings (absent: none), into an array. */
static int fb_strings(const fb *f, const fb_table *t, unsigned id, const char *what,
                      const char ***out, uint32_t *count)
{
    uint64_t start;
    if (fb_vector(f, t, id, 4, what, &start, count))
        return -1;
    *out = dsp_alloc(f->c, (*count ? *count : 1) * sizeof **out);
    if (*out == NULL)
        return -1;
    for (uint32_t i = 0; i < *count; ++i) {
        char at[160];
        snprintf(at, sizeof at, "%s[%" PRIu32 "]", what, i);
        if (fb_string_at(f, start + 4 * i, at, &(*out)[i]))
            return -1;
    }
    return 0;
}

/* Element i of a vector of tables. */
static int fb_element(const fb *f, uint64_t start, uint32_t i, const char *what, fb_table *out)
{
    uint64_t at;
    return fb_ref(f, start + 4 * (uint64_t)i, what, &at) || fb_table_at(f, at, what, out) ? -1 : 0;
}

/* ---- The DmlGraphDesc schema -------------------------------------------------------- */

/* Field ids (DmlGraphDesc_generated.h, OperatorFieldTypes_generated.h). */
enum { GRAPH_NODES, GRAPH_INPUT_NAMES, GRAPH_OUTPUT_NAMES };
enum { NODE_DESC_TYPE, NODE_DESC, NODE_NAME, NODE_INPUT_NAMES, NODE_OUTPUT_NAMES };
enum { NODE_DESC_OPERATOR = 1, NODE_DESC_CONSTANT = 2 };
enum { OP_TYPE, OP_INPUTS, OP_OUTPUTS, OP_ATTRIBUTES };
enum { TENSOR_DATA_TYPE, TENSOR_SIZES, TENSOR_STRIDES, TENSOR_TOTAL_SIZE };
enum { CONSTANT_DATA_TYPE, CONSTANT_DATA };
enum { CONSTANT_NAME = 1, CONSTANT_RAW_DATA = 2 };
enum { ATTR_NAME, ATTR_VAL_TYPE, ATTR_VAL };
enum { ACTIVATION_TYPE, ACTIVATION_ATTRIBUTES };
enum { SCALAR_DATA_TYPE, SCALAR_DATA };

/* AttributeFieldVariant. */
enum {
    V_NONE,
    V_ACTIVATION,
    V_ACTIVATION_ARRAY,
    V_UINT32,
    V_UINT64,
    V_INT32,
    V_FLOAT32,
    V_UINT_ARRAY,
    V_INT_ARRAY,
    V_FLOAT_ARRAY,
    V_SCALE_BIAS,
    V_SIZE_2D,
    V_SCALAR_UNION_DATA,
    V_BOOL,
    V_COUNT
};
static const char *const variant_names[V_COUNT] = {
    "NONE",      "Activation", "ActivationArray", "UInt32",   "UInt64",
    "Int32",     "Float32",    "UIntArray",       "IntArray", "FloatArray",
    "ScaleBias", "Size2D",     "ScalarUnionData", "Bool",
};
/* ScalarVariant's struct sizes (NONE, ByteArray, Int8, UInt8, ..., Float32, Float64). */
static const unsigned scalar_sizes[] = {0, 8, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

/* A value a node input may name. */
typedef enum value_kind {
    VAL_INPUT, /* graph input a */
    VAL_NODE,  /* output b of graph node a */
    VAL_NAMED, /* file node a: a named constant */
    VAL_RAW,   /* file node a: inline constant data */
} value_kind;

typedef struct value {
    const char *name;
    value_kind kind;
    unsigned a, b;
} value;

/* A file node's constant. */
typedef struct constant {
    const char *name;          /* ConstantName's: NAME.bin */
    const unsigned char *data; /* ConstantRawData's */
    uint64_t size;
    int input; /* a named constant's graph input; -1 until read */
    int node;  /* inline data's graph node; -1 until read */
} constant;

typedef struct reader {
    fb f;
    dsp_model *m;
    dsp_dispatchable *g;
    char *dir; /* the graph file's folder: named constants' files are there */
    value *values;
    unsigned n_values;
    const char **node_names;
    constant *constants; /* per file node */
    unsigned *named;     /* file nodes of the named constants read, in graph input order */
    unsigned n_named;
    uint32_t n_graph_in, n_graph_out;
    const char **in_names, **out_names;
} reader;

static const value *find_value(const reader *r, const char *name)
{
    for (unsigned i = 0; i < r->n_values; ++i)
        if (strcmp(r->values[i].name, name) == 0)
            return &r->values[i];
    return NULL;
}

/* A float as the JSON reader takes it (nan and infinities by name). */
static cJSON *float_json(double v)
{
    if (isnan(v))
        return cJSON_CreateString("nan");
    if (isinf(v))
        return cJSON_CreateString(v > 0 ? "inf" : "-inf");
    return cJSON_CreateNumber(v);
}

static float f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static cJSON *uint_json(uint64_t v)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, v);
    return cJSON_CreateString(text);
}

/* A vector of 4-byte numbers (u: UINT, i: INT, f: FLOAT) as a JSON list. */
static cJSON *list_json(const fb *f, uint64_t start, uint32_t count, char type)
{
    cJSON *list = cJSON_CreateArray();
    for (uint32_t i = 0; list != NULL && i < count; ++i) {
        uint64_t v = rd(f, start + 4 * (uint64_t)i, 4);
        cJSON *x = type == 'u'   ? cJSON_CreateNumber((double)(uint32_t)v)
                   : type == 'i' ? cJSON_CreateNumber((double)(int32_t)(uint32_t)v)
                                 : float_json(f32(v));
        cJSON_AddItemToArray(list, x);
    }
    return list;
}

/* A DmlBufferTensorDesc as a model's tensor desc. */
static int tensor_json(const fb *f, uint64_t start, uint32_t i, const char *what, int owned,
                       cJSON **out)
{
    fb_table t;
    const char *dt;
    uint64_t sizes, strides, total;
    uint32_t n_sizes, n_strides;
    char at[192];
    snprintf(at, sizeof at, "%s[%" PRIu32 "]", what, i);
    if (fb_element(f, start, i, at, &t) || fb_string(f, &t, TENSOR_DATA_TYPE, at, &dt) ||
        fb_vector(f, &t, TENSOR_SIZES, 4, at, &sizes, &n_sizes) ||
        fb_vector(f, &t, TENSOR_STRIDES, 4, at, &strides, &n_strides) ||
        fb_field(f, &t, TENSOR_TOTAL_SIZE, 8, at, &total))
        return -1;
    cJSON *x = cJSON_CreateObject();
    if (x == NULL)
        return dsp_fail(f->c, "out of memory");
    cJSON_AddItemToObject(x, "DataType", cJSON_CreateString(dt));
    cJSON_AddItemToObject(x, "Sizes", list_json(f, sizes, n_sizes, 'u'));
    if (strides)
        cJSON_AddItemToObject(x, "Strides", list_json(f, strides, n_strides, 'u'));
    if (total)
        cJSON_AddItemToObject(x, "TotalTensorSizeInBytes", uint_json(rd(f, total, 8)));
    if (owned)
        cJSON_AddItemToObject(x, "Flags", cJSON_CreateString("OWNED_BY_DML"));
    *out = x;
    return 0;
}

/* ---- Attributes ----------------------------------------------------------------------- */

typedef struct attr {
    const char *name;
    unsigned type; /* AttributeFieldVariant; V_NONE: no value */
    uint64_t at, val;
} attr;

static int read_attr(const fb *f, uint64_t start, uint32_t i, const char *what, attr *a)
{
    fb_table t;
    uint64_t pos;
    if (fb_element(f, start, i, what, &t) || fb_string(f, &t, ATTR_NAME, what, &a->name) ||
        fb_u8(f, &t, ATTR_VAL_TYPE, what, &a->type) || fb_field(f, &t, ATTR_VAL, 4, what, &pos))
        return -1;
    a->at = t.at;
    a->val = 0;
    if (a->type >= V_COUNT)
        return fb_fail(f, t.at, what, "val_type %u is no AttributeFieldVariant (0 to %d)", a->type,
                       V_COUNT - 1);
    if (pos == 0) /* ONNX Runtime writes a null FusedActivation as a type without a value */
        a->type = V_NONE;
    else if (a->type != V_NONE && fb_ref(f, pos, what, &a->val))
        return -1;
    return 0;
}

/* The vector of a UIntArray, IntArray or FloatArray. */
static int array_json(const fb *f, const attr *a, char type, const char *what, cJSON **out)
{
    fb_table t;
    uint64_t start;
    uint32_t count;
    if (fb_table_at(f, a->val, what, &t) || fb_vector(f, &t, 0, 4, what, &start, &count))
        return -1;
    *out = list_json(f, start, count, type);
    return 0;
}

/* A ScalarUnionData as DML_SCALAR_UNION's JSON in data type dt (ops.c's read_scalar). */
static int scalar_json(const fb *f, const attr *a, uint64_t dt, const char *what, cJSON **out)
{
    fb_table t;
    unsigned type;
    uint64_t pos, at;
    if (fb_table_at(f, a->val, what, &t) || fb_u8(f, &t, SCALAR_DATA_TYPE, what, &type) ||
        fb_field(f, &t, SCALAR_DATA, 4, what, &pos))
        return -1;
    if (type == 0 || type >= sizeof scalar_sizes / sizeof scalar_sizes[0] || pos == 0)
        return fb_fail(f, t.at, what, "a ScalarUnionData without a value (data_type %u)", type);
    if (fb_ref(f, pos, what, &at) || fb_need(f, at, scalar_sizes[type], what))
        return -1;
    uint64_t bits = rd(f, at, scalar_sizes[type]);
    unsigned width = 8;
    switch (dt) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: *out = float_json(f32(bits)); return 0;
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
        double v;
        memcpy(&v, &bits, sizeof v);
        *out = float_json(v);
        return 0;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16:
        *out = cJSON_CreateObject();
        cJSON_AddItemToObject(*out, "UInt16", uint_json(bits & 0xffff));
        return 0;
    case DML_TENSOR_DATA_TYPE_INT8: width = 1; break;
    case DML_TENSOR_DATA_TYPE_INT16: width = 2; break;
    case DML_TENSOR_DATA_TYPE_INT32: width = 4; break;
    case DML_TENSOR_DATA_TYPE_INT64: break;
    case DML_TENSOR_DATA_TYPE_UINT8: *out = uint_json(bits & 0xff); return 0;
    case DML_TENSOR_DATA_TYPE_UINT16: *out = uint_json(bits & 0xffff); return 0;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = uint_json(bits & 0xffffffff); return 0;
    default: *out = uint_json(bits); return 0; /* ops.c names the type it cannot hold */
    }
    /* A signed value of width bytes, sign-extended. */
    unsigned shift = 64 - 8 * width;
    int64_t v = (int64_t)(bits << shift) >> shift;
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, v);
    *out = cJSON_CreateString(text);
    return 0;
}

static int activation_json(reader *r, const attr *a, const char *what, cJSON **out);

/*
 * Attribute a for member mb, as the member's JSON (*out NULL: an optional member left out);
 * *got: a UINT's value (a data type that a DML_SCALAR_UNION member reads), dt: the data
 * type of a DSP_MEMBER_SCALAR.
 */
static int attr_json(reader *r, const char *op, const dsp_member *mb, const attr *a, uint64_t dt,
                     const char *what, cJSON **out, uint64_t *got)
{
    const fb *f = &r->f;
    static const unsigned wants[][3] = {
        [DSP_MEMBER_UINT] = {V_UINT32, V_BOOL, V_UINT64},
        [DSP_MEMBER_FLOAT] = {V_FLOAT32},
        [DSP_MEMBER_UINT_LIST] = {V_UINT_ARRAY},
        [DSP_MEMBER_INT_LIST] = {V_INT_ARRAY},
        [DSP_MEMBER_FLOAT_LIST] = {V_FLOAT_ARRAY},
        [DSP_MEMBER_ENUM] = {V_UINT32},
        [DSP_MEMBER_DATA_TYPE] = {V_UINT32},
        [DSP_MEMBER_SCALAR] = {V_SCALAR_UNION_DATA},
        [DSP_MEMBER_SCALE_BIAS] = {V_SCALE_BIAS},
        [DSP_MEMBER_FUSED] = {V_ACTIVATION},
        [DSP_MEMBER_SIZE_2D] = {V_SIZE_2D},
        [DSP_MEMBER_INT] = {V_INT32},
    };
    const unsigned *want = wants[mb->kind];
    *out = NULL;
    if (a->name[0] != '\0' && strcmp(a->name, mb->name) != 0)
        return fb_fail(f, a->at, what,
                       "the attribute is named %.100s where %s's %s is read (attributes follow "
                       "DirectML's schema order)",
                       a->name, op, mb->name);
    if (a->type == V_NONE) {
        if (mb->kind == DSP_MEMBER_SCALE_BIAS || mb->kind == DSP_MEMBER_FUSED)
            return 0; /* an optional pointer: NULL */
        return fb_fail(f, a->at, what, "no value for %s's %s (it needs a %s)", op, mb->name,
                       variant_names[want[0]]);
    }
    if (a->type != want[0] && a->type != want[1] && a->type != want[2])
        return fb_fail(f, a->at, what, "a %s where %s's %s needs a %s", variant_names[a->type], op,
                       mb->name, variant_names[want[0]]);
    static const unsigned struct_sizes[V_COUNT] = {
        [V_UINT32] = 4,     [V_UINT64] = 8,  [V_INT32] = 4, [V_FLOAT32] = 4,
        [V_SCALE_BIAS] = 8, [V_SIZE_2D] = 8, [V_BOOL] = 1,
    };
    unsigned size = struct_sizes[a->type];
    if (size && fb_need(f, a->val, size, what))
        return -1;
    uint64_t v = size ? rd(f, a->val, size) : 0;
    *got = v;
    switch (mb->kind) {
    case DSP_MEMBER_UINT: *out = uint_json(v); return 0;
    case DSP_MEMBER_FLOAT: *out = float_json(f32(v)); return 0;
    case DSP_MEMBER_INT: *out = cJSON_CreateNumber((double)(int32_t)(uint32_t)v); return 0;
    case DSP_MEMBER_ENUM:
    case DSP_MEMBER_DATA_TYPE:
        for (const dsp_enum_value *e = mb->e->values; e->name != NULL; ++e)
            if ((uint64_t)(unsigned)e->value == v) {
                *out = cJSON_CreateString(e->name);
                return 0;
            }
        return fb_fail(f, a->val, what, "%" PRIu64 " is not a %s (%s's %s)", v, mb->e->type, op,
                       mb->name);
    case DSP_MEMBER_UINT_LIST: return array_json(f, a, 'u', what, out);
    case DSP_MEMBER_INT_LIST: return array_json(f, a, 'i', what, out);
    case DSP_MEMBER_FLOAT_LIST: return array_json(f, a, 'f', what, out);
    case DSP_MEMBER_SCALE_BIAS:
        *out = cJSON_CreateObject();
        cJSON_AddItemToObject(*out, "Scale", float_json(f32(v)));
        cJSON_AddItemToObject(*out, "Bias", float_json(f32(v >> 32)));
        return 0;
    case DSP_MEMBER_SIZE_2D: /* width, then height */
        *out = cJSON_CreateObject();
        cJSON_AddItemToObject(*out, "Width", uint_json(v & 0xffffffff));
        cJSON_AddItemToObject(*out, "Height", uint_json(v >> 32));
        return 0;
    case DSP_MEMBER_SCALAR: return scalar_json(f, a, dt, what, out);
    case DSP_MEMBER_FUSED: return activation_json(r, a, what, out);
    case DSP_MEMBER_TENSOR:
    case DSP_MEMBER_TENSOR_LIST: break;
    }
    return dsp_fail(f->c, "internal: member kind %d", (int)mb->kind);
}

/* The attributes (start, count of them) for the members of op that are not tensors, into obj. */
static int attrs_json(reader *r, const char *op, const dsp_member *members, unsigned n_members,
                      uint64_t start, uint32_t count, const char *what, cJSON *obj)
{
    uint64_t values[32] = {0};
    uint32_t k = 0;
    for (unsigned i = 0; i < n_members && i < 32; ++i) {
        const dsp_member *mb = &members[i];
        if (mb->kind == DSP_MEMBER_TENSOR || mb->kind == DSP_MEMBER_TENSOR_LIST)
            continue;
        char at[192];
        snprintf(at, sizeof at, "%s[%" PRIu32 "]", what, k);
        if (k >= count)
            return fb_fail(&r->f, start, what, "%" PRIu32 " attributes; %s's %s needs one more",
                           count, op, mb->name);
        attr a;
        uint64_t dt = 0;
        for (unsigned j = 0; mb->kind == DSP_MEMBER_SCALAR && j < i; ++j)
            if (strcmp(members[j].name, mb->ref) == 0)
                dt = values[j];
        cJSON *x;
        if (read_attr(&r->f, start, k++, at, &a) ||
            attr_json(r, op, mb, &a, dt, at, &x, &values[i]))
            return -1;
        if (x != NULL)
            cJSON_AddItemToObject(obj, mb->name, x);
    }
    if (k != count)
        return fb_fail(&r->f, start, what, "%" PRIu32 " attributes, %s has %" PRIu32, count, op, k);
    return 0;
}

/* An Activation (a fused activation): {"Type": ..., its members but the tensors}. */
static int activation_json(reader *r, const attr *a, const char *what, cJSON **out)
{
    fb_table t;
    const char *type;
    uint64_t start;
    uint32_t count;
    char at[256];
    snprintf(at, sizeof at, "%.200s.val.attributes", what);
    if (fb_table_at(&r->f, a->val, what, &t) ||
        fb_string(&r->f, &t, ACTIVATION_TYPE, what, &type) ||
        fb_vector(&r->f, &t, ACTIVATION_ATTRIBUTES, 4, at, &start, &count))
        return -1;
    const dsp_member *members;
    unsigned n;
    if (dsp_op_members(r->f.c, type, &members, &n))
        return -1;
    for (unsigned i = 0; i < n; ++i)
        if (members[i].kind == DSP_MEMBER_FUSED)
            return fb_fail(&r->f, t.at, what,
                           "%s is no activation (a fused activation is an "
                           "ACTIVATION_* operator)",
                           type);
    *out = cJSON_CreateObject();
    cJSON_AddItemToObject(*out, "Type", cJSON_CreateString(type));
    if (attrs_json(r, type, members, n, start, count, at, *out)) {
        cJSON_Delete(*out); /* the caller keeps nothing of a failed read */
        *out = NULL;
        return -1;
    }
    return 0;
}

/* ---- Nodes ---------------------------------------------------------------------------- */

/*
 * An OperatorNodeDesc as the desc's JSON: each tensor member takes the next name of the node's
 * inputNames (or outputNames), an empty name for an optional tensor left out, and the next
 * tensor desc for a present one (a list member: the rest of them); the other members take the
 * attributes in order. An input named after a named constant is OWNED_BY_DML, as DxDispatch
 * reads it.
 */
static int desc_json(reader *r, const fb_table *op, const char *type, const char *const *names[2],
                     const uint32_t n_names[2], const char *what, cJSON *desc)
{
    const fb *f = &r->f;
    const dsp_member *members;
    unsigned n_members;
    size_t mark = dsp_push_key(f->c, "type");
    int rc = dsp_op_members(f->c, type, &members, &n_members);
    dsp_pop(f->c, mark);
    if (rc)
        return -1;
    uint64_t start[2], attrs;
    uint32_t count[2], n_attrs, used[2] = {0, 0}, taken[2] = {0, 0};
    char at[2][192], at_attrs[192];
    snprintf(at[0], sizeof at[0], "%s.desc.inputs", what);
    snprintf(at[1], sizeof at[1], "%s.desc.outputs", what);
    snprintf(at_attrs, sizeof at_attrs, "%s.desc.attributes", what);
    if (fb_vector(f, op, OP_INPUTS, 4, at[0], &start[0], &count[0]) ||
        fb_vector(f, op, OP_OUTPUTS, 4, at[1], &start[1], &count[1]) ||
        fb_vector(f, op, OP_ATTRIBUTES, 4, at_attrs, &attrs, &n_attrs))
        return -1;
    for (unsigned i = 0; i < n_members; ++i) {
        const dsp_member *mb = &members[i];
        int o = mb->output;
        if (mb->kind != DSP_MEMBER_TENSOR && mb->kind != DSP_MEMBER_TENSOR_LIST)
            continue;
        cJSON *list = mb->kind == DSP_MEMBER_TENSOR_LIST ? cJSON_CreateArray() : NULL;
        int bad = 0;
        do {
            if (used[o] >= n_names[o]) {
                bad = dsp_fail(f->c, "%s: %s: %s has %" PRIu32 " names; %s's %s needs one more",
                               f->file, what, o ? "outputNames" : "inputNames", n_names[o], type,
                               mb->name);
                break;
            }
            const char *name = names[o][used[o]++];
            if (name[0] == '\0' && list == NULL)
                break; /* an optional tensor left out (dsp_op_parse: is it optional?) */
            if (taken[o] >= count[o]) {
                bad = fb_fail(f, start[o], at[o],
                              "%" PRIu32 " tensor descs; %s's %s (\"%.100s\") needs one more",
                              count[o], type, mb->name, name);
                break;
            }
            const value *v = o ? NULL : find_value(r, name);
            cJSON *t = NULL;
            if (tensor_json(f, start[o], taken[o]++, at[o], v && v->kind == VAL_NAMED, &t)) {
                bad = -1;
                break;
            }
            if (list != NULL)
                cJSON_AddItemToArray(list, t);
            else
                cJSON_AddItemToObject(desc, mb->name, t);
        } while (list != NULL && taken[o] < count[o]);
        if (bad) {
            cJSON_Delete(list); /* a list member read in part (NULL: nothing to free) */
            return -1;
        }
        if (list != NULL)
            cJSON_AddItemToObject(desc, mb->name, list);
    }
    for (int o = 0; o < 2; ++o)
        if (used[o] != n_names[o] || taken[o] != count[o])
            return dsp_fail(f->c,
                            "%s: %s: %" PRIu32 " %s and %" PRIu32
                            " tensor descs, %s's %s read %" PRIu32 " and %" PRIu32,
                            f->file, what, n_names[o], o ? "outputNames" : "inputNames", count[o],
                            type, o ? "outputs" : "inputs", used[o], taken[o]);
    return attrs_json(r, type, members, n_members, attrs, n_attrs, at_attrs, desc);
}

/* Graph-wide arrays, sized by the file's counts. */
typedef struct edges {
    unsigned *uses;                      /* per graph input: the readers so far */
    const DML_TENSOR_DESC **in_tensors;  /* per graph input: its first reader's tensor */
    const DML_TENSOR_DESC **out_tensors; /* per graph output: its writer's tensor */
} edges;

static int define_value(reader *r, const char *name, value_kind kind, unsigned a, unsigned b,
                        const char *what)
{
    const value *v = find_value(r, name);
    if (v != NULL)
        return dsp_fail(r->f.c, "%s: %s: \"%.200s\" is already %s", r->f.file, what, name,
                        v->kind == VAL_INPUT ? "a graph input" : "an earlier node's output");
    r->values[r->n_values++] = (value){name, kind, a, b};
    return 0;
}

/* A named constant's file (NAME.bin beside the graph) as a hidden resource: its index. */
static int named_resource(reader *r, unsigned k, int *index)
{
    dsp_ctx *c = r->f.c;
    const char *name = r->constants[k].name;
    size_t n = strlen(r->dir) + strlen(name) + 6;
    char *file = malloc(n);
    FILE *in = NULL;
    unsigned char *bytes = NULL;
    long len = -1;
    int rc = -1;
    if (file == NULL)
        return dsp_fail(c, "out of memory");
    snprintf(file, n, "%s/%s.bin", r->dir, name);
    if ((in = fopen(file, "rb")) == NULL)
        dsp_fail(c, "%s: nodes[%u] (constant \"%.200s\"): cannot open its data, %s: %s", r->f.file,
                 k, r->node_names[k], file, strerror(errno));
    else if (fseek(in, 0, SEEK_END) != 0 || (len = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0)
        dsp_fail(c, "cannot read %s: %s", file, strerror(errno));
    else if (len == 0 || (uint64_t)len > DSP_INITIAL_BYTES_MAX)
        dsp_fail(c, "%s: %ld bytes (a constant holds 1 to %" PRIu64 ")", file, len,
                 DSP_INITIAL_BYTES_MAX);
    else if ((bytes = malloc((size_t)len)) == NULL)
        dsp_fail(c, "out of memory reading %s", file);
    else if (fread(bytes, 1, (size_t)len, in) != (size_t)len)
        dsp_fail(c, "cannot read %s", file);
    else
        rc = 0;
    if (in != NULL)
        fclose(in);
    free(file);
    dsp_resource *grown =
        rc ? NULL : realloc(r->m->resources, (r->m->n_resources + 2) * sizeof *grown);
    if (rc == 0 && grown == NULL)
        rc = dsp_fail(c, "out of memory");
    if (rc) {
        free(bytes);
        return -1;
    }
    r->m->resources = grown;
    *index = (int)r->m->n_resources++;
    memset(&grown[*index], 0, 2 * sizeof *grown);
    grown[*index].name = r->node_names[k];
    grown[*index].bytes = bytes;
    grown[*index].size = (uint64_t)len;
    grown[*index].hidden = 1;
    return 0;
}

/* Node input slot of graph node gi, named name: a graph input, a constant, another's output. */
static int connect(reader *r, edges *e, unsigned gi, unsigned slot, const char *name,
                   const char *what)
{
    dsp_dispatchable *g = r->g;
    const DML_TENSOR_DESC *t = g->nodes[gi].slot_tensors[slot];
    const value *v = find_value(r, name);
    if (v == NULL)
        return dsp_fail(r->f.c,
                        "%s: %s.inputNames[%u]: \"%.200s\" is neither a graph input nor an earlier "
                        "node's output",
                        r->f.file, what, slot, name);
    constant *k = v->kind == VAL_NAMED || v->kind == VAL_RAW ? &r->constants[v->a] : NULL;
    unsigned input = v->a;
    switch (v->kind) {
    case VAL_NAMED:
        if (k->input < 0) { /* a graph input after the file's, bound at initialization */
            int res = -1;
            if (named_resource(r, v->a, &res))
                return -1;
            k->input = (int)(r->n_graph_in + r->n_named);
            k->size = r->m->resources[res].size;
            r->named[r->n_named++] = (unsigned)res;
        }
        input = (unsigned)k->input;
        /* fall through */
    case VAL_INPUT:
        g->in_edges[g->n_in_edges++] = (DML_INPUT_GRAPH_EDGE_DESC){input, gi, slot, name};
        if (e->uses[input]++ == 0)
            e->in_tensors[input] = t;
        return 0;
    case VAL_RAW:
        if (k->node < 0) { /* a constant node, where it is first read */
            k->node = (int)g->n_nodes++;
            dsp_dispatchable *d = &g->nodes[k->node];
            d->name = r->node_names[v->a];
            d->op_name = "constant data";
            d->constant = 1;
            d->data = k->data;
            d->data_size = k->size;
        }
        g->mid_edges[g->n_mid_edges++] =
            (DML_INTERMEDIATE_GRAPH_EDGE_DESC){(UINT)k->node, 0, gi, slot, name};
        return 0;
    case VAL_NODE:
        g->mid_edges[g->n_mid_edges++] =
            (DML_INTERMEDIATE_GRAPH_EDGE_DESC){v->a, v->b, gi, slot, name};
        return 0;
    }
    return 0;
}

static int graph_output(const reader *r, const char *name)
{
    for (uint32_t i = 0; i < r->n_graph_out; ++i)
        if (strcmp(r->out_names[i], name) == 0)
            return (int)i;
    return -1;
}

static int operator_node(reader *r, edges *e, uint32_t k, const fb_table *op,
                         const char *const *names[2], const uint32_t n_names[2], const char *what)
{
    dsp_ctx *c = r->f.c;
    dsp_dispatchable *g = r->g;
    const char *type;
    if (fb_string(&r->f, op, OP_TYPE, what, &type))
        return -1;
    cJSON *node = cJSON_CreateObject(), *desc = cJSON_CreateObject();
    cJSON *type_json = cJSON_CreateString(type);
    cJSON_AddItemToObject(node, "type", type_json);
    cJSON_AddItemToObject(node, "desc", desc);
    unsigned gi = g->n_nodes;
    dsp_dispatchable *d = &g->nodes[gi];
    size_t mark = dsp_push_key(c, "nodes");
    dsp_push_index(c, k);
    int rc = node && desc && type_json ? 0 : dsp_fail(c, "out of memory");
    if (rc == 0)
        rc = desc_json(r, op, type, names, n_names, what, desc);
    if (rc == 0)
        rc = dsp_op_parse(c, type_json, desc, d);
    dsp_pop(c, mark);
    cJSON_Delete(node);
    if (rc)
        return -1;
    d->name = r->node_names[k];
    g->n_nodes++;
    if (d->n_inputs != n_names[0] || d->n_outputs != n_names[1]) /* desc_json read them so */
        return dsp_fail(c,
                        "%s: %s: internal: %u and %u slots for %" PRIu32 " and %" PRIu32 " names",
                        r->f.file, what, d->n_inputs, d->n_outputs, n_names[0], n_names[1]);
    for (unsigned s = 0; s < n_names[0]; ++s)
        if (names[0][s][0] != '\0' && connect(r, e, gi, s, names[0][s], what))
            return -1;
    for (unsigned s = 0; s < n_names[1]; ++s) {
        const char *name = names[1][s];
        int out = name[0] ? graph_output(r, name) : -1;
        if (name[0] != '\0' && define_value(r, name, VAL_NODE, gi, s, what))
            return -1;
        if (out < 0)
            continue;
        g->out_edges[g->n_out_edges++] = (DML_OUTPUT_GRAPH_EDGE_DESC){gi, s, (UINT)out, name};
        e->out_tensors[out] = d->slot_tensors[d->n_inputs + s];
    }
    return 0;
}

static int constant_node(reader *r, uint32_t k, const fb_table *cd, const uint32_t n_names[2],
                         const char *const *outputs, const char *what)
{
    const fb *f = &r->f;
    constant *cst = &r->constants[k];
    unsigned type;
    fb_table data;
    int present;
    if (fb_u8(f, cd, CONSTANT_DATA_TYPE, what, &type) ||
        fb_sub(f, cd, CONSTANT_DATA, what, &data, &present))
        return -1;
    if (!present || (type != CONSTANT_NAME && type != CONSTANT_RAW_DATA))
        return fb_fail(f, cd->at, what,
                       "a ConstantNodeDesc needs data: a ConstantName (1) or ConstantRawData "
                       "(2), not data_type %u%s",
                       type, present ? "" : " without data");
    if (n_names[0] != 0 || n_names[1] != 1 || outputs[0][0] == '\0')
        return dsp_fail(f->c,
                        "%s: %s: a constant node has no input names and one output name, not "
                        "%" PRIu32 " and %" PRIu32,
                        f->file, what, n_names[0], n_names[1]);
    if (graph_output(r, outputs[0]) >= 0)
        return dsp_fail(f->c,
                        "%s: %s: \"%.200s\" is a graph output: graph outputs come from "
                        "operators",
                        f->file, what, outputs[0]);
    if (type == CONSTANT_NAME) {
        if (fb_string(f, &data, 0, what, &cst->name))
            return -1;
        if (cst->name[0] == '\0')
            return fb_fail(f, data.at, what, "a ConstantName without a name (its file's)");
    } else {
        uint64_t start;
        uint32_t count;
        if (fb_vector(f, &data, 0, 1, what, &start, &count))
            return -1;
        if (count == 0)
            return fb_fail(f, data.at, what, "ConstantRawData of no bytes");
        cst->data = f->p + start;
        cst->size = count;
    }
    return define_value(r, outputs[0], type == CONSTANT_NAME ? VAL_NAMED : VAL_RAW, k, 0, what);
}

/* ---- The graph ------------------------------------------------------------------------ */

/* Names of graph inputs or outputs: present and unique (they are bind points). */
static int check_names(const reader *r, const char *const *names, uint32_t n, const char *what)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (names[i][0] == '\0')
            return dsp_fail(r->f.c,
                            "%s: %s[%" PRIu32 "] is empty: it needs a name (a bind point's)",
                            r->f.file, what, i);
        for (uint32_t j = 0; j < i; ++j)
            if (strcmp(names[i], names[j]) == 0)
                return dsp_fail(r->f.c, "%s: %s[%" PRIu32 "]: \"%.200s\" appears twice", r->f.file,
                                what, i, names[i]);
    }
    return 0;
}

/* One DmlGraphNode. */
static int read_node(reader *r, edges *e, uint64_t nodes, uint32_t k)
{
    const fb *f = &r->f;
    fb_table node, desc;
    unsigned type;
    int present;
    char what[64], at[2][96];
    const char **names[2];
    uint32_t n_names[2];
    snprintf(what, sizeof what, "nodes[%" PRIu32 "]", k);
    snprintf(at[0], sizeof at[0], "%s.inputNames", what);
    snprintf(at[1], sizeof at[1], "%s.outputNames", what);
    if (fb_element(f, nodes, k, what, &node) || fb_u8(f, &node, NODE_DESC_TYPE, what, &type) ||
        fb_sub(f, &node, NODE_DESC, what, &desc, &present) ||
        fb_string(f, &node, NODE_NAME, what, &r->node_names[k]) ||
        fb_strings(f, &node, NODE_INPUT_NAMES, at[0], &names[0], &n_names[0]) ||
        fb_strings(f, &node, NODE_OUTPUT_NAMES, at[1], &names[1], &n_names[1]))
        return -1;
    if (r->node_names[k][0] == '\0')
        return fb_fail(f, node.at, what, "a node without a name");
    if (!present || (type != NODE_DESC_OPERATOR && type != NODE_DESC_CONSTANT))
        return fb_fail(f, node.at, what,
                       "a node's desc is an OperatorNodeDesc (1) or a ConstantNodeDesc (2), not "
                       "desc_type %u%s",
                       type, present ? "" : " without a desc");
    if (type == NODE_DESC_CONSTANT)
        return constant_node(r, k, &desc, n_names, names[1], what);
    const char *const *cnames[2] = {names[0], names[1]};
    return operator_node(r, e, k, &desc, cnames, n_names, what);
}

/* The graph's bind points (its inputs, its named constants, its outputs) and their slots. */
static int bind_points(reader *r, const edges *e)
{
    dsp_ctx *c = r->f.c;
    dsp_dispatchable *g = r->g;
    unsigned n_in = r->n_graph_in + r->n_named, n = n_in + r->n_graph_out;
    g->n_inputs = n_in;
    g->n_outputs = r->n_graph_out;
    g->points = dsp_alloc(c, n * sizeof *g->points);
    g->slot_tensors = dsp_alloc(c, n * sizeof *g->slot_tensors);
    g->init = dsp_alloc(c, n * sizeof *g->init);
    if (!g->points || !g->slot_tensors || !g->init)
        return -1;
    for (unsigned i = 0; i < n; ++i) {
        const char *name = i < r->n_graph_in ? r->in_names[i]
                           : i < n_in        ? r->m->resources[r->named[i - r->n_graph_in]].name
                                             : r->out_names[i - n_in];
        for (unsigned j = 0; j < i; ++j)
            if (strcmp(g->points[j].name, name) == 0)
                return dsp_fail(c,
                                "%s: \"%.200s\" names two bind points (graph inputs, named "
                                "constants and graph outputs have distinct names)",
                                r->f.file, name);
        g->points[g->n_points++] = (dsp_bind_point){name, i, 1, i >= n_in};
        g->slot_tensors[i] = i < n_in ? e->in_tensors[i] : e->out_tensors[i - n_in];
        g->init[i].resource = -1;
    }
    for (unsigned i = 0; i < r->n_named; ++i) {
        const dsp_resource *res = &r->m->resources[r->named[i]];
        g->init[r->n_graph_in + i] = (dsp_binding){(int)r->named[i], 0, res->size};
    }
    g->has_owned = r->n_named > 0;
    return 0;
}

static int read_graph(reader *r)
{
    const fb *f = &r->f;
    dsp_ctx *c = f->c;
    dsp_dispatchable *g = r->g;
    fb_table root;
    uint64_t at, nodes;
    uint32_t n_nodes;
    if (fb_ref(f, 0, "the root table's offset", &at) || fb_table_at(f, at, "DmlGraphDesc", &root) ||
        fb_vector(f, &root, GRAPH_NODES, 4, "nodes", &nodes, &n_nodes) ||
        fb_strings(f, &root, GRAPH_INPUT_NAMES, "graphInputNames", &r->in_names, &r->n_graph_in) ||
        fb_strings(f, &root, GRAPH_OUTPUT_NAMES, "graphOutputNames", &r->out_names,
                   &r->n_graph_out) ||
        check_names(r, r->in_names, r->n_graph_in, "graphInputNames") ||
        check_names(r, r->out_names, r->n_graph_out, "graphOutputNames"))
        return -1;
    if (n_nodes == 0 || r->n_graph_out == 0)
        return dsp_fail(c,
                        "%s: a graph of %" PRIu32 " nodes and %" PRIu32 " outputs: it needs both",
                        f->file, n_nodes, r->n_graph_out);
    /* Every node's input and output names bound the values and edges. */
    uint64_t n_in_names = 0, n_out_names = 0;
    for (uint32_t k = 0; k < n_nodes; ++k) {
        fb_table node;
        uint64_t start;
        uint32_t n_in, n_out;
        if (fb_element(f, nodes, k, "nodes", &node) ||
            fb_vector(f, &node, NODE_INPUT_NAMES, 4, "nodes", &start, &n_in) ||
            fb_vector(f, &node, NODE_OUTPUT_NAMES, 4, "nodes", &start, &n_out))
            return -1;
        n_in_names += n_in;
        n_out_names += n_out;
    }
    edges e = {dsp_alloc(c, (r->n_graph_in + n_nodes) * sizeof *e.uses),
               dsp_alloc(c, (r->n_graph_in + n_nodes) * sizeof *e.in_tensors),
               dsp_alloc(c, r->n_graph_out * sizeof *e.out_tensors)};
    r->values = dsp_alloc(c, (r->n_graph_in + n_out_names + 1) * sizeof *r->values);
    r->node_names = dsp_alloc(c, n_nodes * sizeof *r->node_names);
    r->constants = dsp_alloc(c, n_nodes * sizeof *r->constants);
    r->named = dsp_alloc(c, n_nodes * sizeof *r->named);
    g->nodes = dsp_alloc(c, n_nodes * sizeof *g->nodes);
    g->in_edges = dsp_alloc(c, (n_in_names + 1) * sizeof *g->in_edges);
    g->mid_edges = dsp_alloc(c, (n_in_names + 1) * sizeof *g->mid_edges);
    g->out_edges = dsp_alloc(c, r->n_graph_out * sizeof *g->out_edges);
    if (!e.uses || !e.in_tensors || !e.out_tensors || !r->values || !r->node_names ||
        !r->constants || !r->named || !g->nodes || !g->in_edges || !g->mid_edges || !g->out_edges)
        return -1;
    for (uint32_t i = 0; i < r->n_graph_in; ++i)
        r->values[r->n_values++] = (value){r->in_names[i], VAL_INPUT, i, 0};
    for (uint32_t k = 0; k < n_nodes; ++k)
        r->constants[k].input = r->constants[k].node = -1;
    for (uint32_t k = 0; k < n_nodes; ++k)
        if (read_node(r, &e, nodes, k))
            return -1;
    for (uint32_t i = 0; i < r->n_graph_out; ++i)
        if (e.out_tensors[i] == NULL)
            return dsp_fail(c, "%s: graphOutputNames[%" PRIu32 "]: \"%.200s\" is no node's output",
                            f->file, i, r->out_names[i]);
    g->op_name = "the graph";
    g->graph = 1;
    return bind_points(r, &e);
}

/* The graph file: sourcePath against base, then as given; r->dir its folder. */
static int open_graph(reader *r, const char *path, const char *base)
{
    dsp_ctx *c = r->f.c;
    size_t n = strlen(base) + strlen(path) + 2;
    char *file = malloc(n);
    if (file == NULL)
        return dsp_fail(c, "out of memory");
    if (path[0] == '/')
        snprintf(file, n, "%s", path);
    else
        snprintf(file, n, "%s/%s", base, path);
    FILE *in = fopen(file, "rb");
    if (in == NULL && (in = fopen(path, "rb")) != NULL)
        snprintf(file, n, "%s", path);
    long len = -1;
    int rc = -1;
    unsigned char *bytes = NULL;
    if (in == NULL)
        dsp_fail(c, "cannot open %s: %s", path, strerror(errno));
    else if (fseek(in, 0, SEEK_END) != 0 || (len = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0)
        dsp_fail(c, "cannot read %s: %s", file, strerror(errno));
    else if (len < 8 || (uint64_t)len > FB_MAX)
        dsp_fail(c, "%s: %ld bytes: a serialized graph has 8 to %" PRIu64 " (a FlatBuffer)", path,
                 len, FB_MAX);
    else if ((bytes = dsp_alloc(c, (size_t)len)) == NULL)
        rc = -1;
    else if (fread(bytes, 1, (size_t)len, in) != (size_t)len)
        dsp_fail(c, "cannot read %s", file);
    else
        rc = 0;
    if (in != NULL)
        fclose(in);
    r->f.p = bytes;
    r->f.n = bytes ? (uint64_t)len : 0;
    char *slash = strrchr(file, '/');
    if (slash != NULL)
        *slash = '\0';
    else
        snprintf(file, n, ".");
    r->dir = file;
    return rc;
}

int dsp_serialized_parse(dsp_ctx *c, dsp_model *m, const cJSON *obj, const char *base,
                         dsp_dispatchable *g)
{
    static const char *const keys[] = {"type", "Type", "sourcePath", NULL};
    if (dsp_check_keys(c, obj, keys, "a dmlSerializedGraph dispatchable"))
        return -1;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(obj, "sourcePath");
    if (src == NULL)
        return dsp_fail(c, "a dmlSerializedGraph dispatchable needs sourcePath (its .bin file)");
    reader r;
    memset(&r, 0, sizeof r);
    r.f.c = c;
    r.m = m;
    r.g = g;
    size_t mark = dsp_push_key(c, "sourcePath");
    int rc = dsp_get_string(c, src, &r.f.file);
    if (rc == 0)
        rc = open_graph(&r, r.f.file, base);
    if (rc == 0)
        rc = read_graph(&r);
    dsp_pop(c, mark);
    free(r.dir);
    return rc;
}
