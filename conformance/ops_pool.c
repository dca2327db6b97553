/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's pooling operators: MAX_POOLING, MAX_POOLING1, MAX_POOLING2,
 * AVERAGE_POOLING, AVERAGE_POOLING1, LP_POOLING, LP_POOLING1 (and QUANTIZED_LINEAR_AVERAGE_POOLING,
 * build_qpool below). Attributes: `Strides`,
 * `WindowSize`, `StartPadding`, `EndPadding`, `Dilations` (lists of the spatial count; absent:
 * 1s, 1s, 0s, 0s, 1s), `IncludePadding` (boolean), `P` (absent: 2), and `DimensionCount`
 * (absent: InputTensor's DimensionCount - 2; a case may give another to test the rule).
 * Tensors: `InputTensor`, `OutputTensor`, and for MAX_POOLING1/2 the optional
 * `OutputIndicesTensor` (present when expected or described under inputs; else its binding is
 * NONE). An output under `inputs` (type, shape, optional strides, no data) gives its
 * descriptor; else the expected one's; else the output-size rule's (floor).
 *
 * Default tolerances on FLOAT32 and FLOAT16 outputs: max pooling exact; average pooling the
 * window's element count + 2 ULP (reference/precision.md); LP pooling the same, + 3 for P 2
 * (sqrt) and + 64 for other P (pow twice) (docs/operators.md#pooling).
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

typedef enum { POOL_MAX, POOL_AVERAGE, POOL_LP } pool_kind;

typedef struct pool_row {
    const char *name;
    DML_OPERATOR_TYPE type;
    pool_kind kind;
    bool indices, dilations;
} pool_row;

static const pool_row rows[] = {
    {"DML_OPERATOR_MAX_POOLING", DML_OPERATOR_MAX_POOLING, POOL_MAX, false, false},
    {"DML_OPERATOR_MAX_POOLING1", DML_OPERATOR_MAX_POOLING1, POOL_MAX, true, false},
    {"DML_OPERATOR_MAX_POOLING2", DML_OPERATOR_MAX_POOLING2, POOL_MAX, true, true},
    {"DML_OPERATOR_AVERAGE_POOLING", DML_OPERATOR_AVERAGE_POOLING, POOL_AVERAGE, false, false},
    {"DML_OPERATOR_AVERAGE_POOLING1", DML_OPERATOR_AVERAGE_POOLING1, POOL_AVERAGE, false, true},
    {"DML_OPERATOR_LP_POOLING", DML_OPERATOR_LP_POOLING, POOL_LP, false, false},
    {"DML_OPERATOR_LP_POOLING1", DML_OPERATOR_LP_POOLING1, POOL_LP, false, true},
};

/* A list attribute of `count` entries (absent: def each); its length must be count. */
static int attr_list(rt_build *b, const char *name, unsigned count, UINT def, UINT **out)
{
    UINT *vals;
    unsigned n;
    if (rt_attr_uint_list(b, name, &vals, &n))
        return -1;
    UINT *a = rt_alloc(b, (count ? count : 1) * sizeof *a);
    for (unsigned i = 0; i < count; ++i)
        a[i] = def;
    if (vals != NULL) {
        if (n != count)
            return rt_fail(b, "attrs.%s has %u entries; the spatial count is %u", name, n, count);
        memcpy(a, vals, count * sizeof *a);
    }
    *out = a;
    return 0;
}

static int attr_bool(rt_build *b, const char *name, BOOL *out)
{
    const cJSON *v = rt_attr(b, name);
    *out = 0;
    if (v == NULL)
        return 0;
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    }
    return rt_fail(b, "attrs.%s must be true or false", name);
}

/* Output `name` as described under inputs, else as expected, else sizes of `type`. */
static const DML_TENSOR_DESC *bind_output(rt_build *b, const char *name, const rt_type *type,
                                          unsigned rank, const UINT *sizes, bool optional)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes the output and takes no data", name);
        return NULL;
    }
    rt_tensor *t;
    if (src != NULL) {
        t = rt_add_output(b, name, src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    } else if (optional) {
        /* Absent: the slot is bound NONE. */
        rt_add_absent_output(b, name);
        return NULL;
    } else {
        t = rt_add_output(b, name, type, rank, sizes, NULL);
    }
    if (t == NULL)
        rt_fail(b, "%s: cannot be built", name);
    return t ? &t->desc : NULL;
}

static int build_pool(rt_build *b)
{
    const pool_row *row = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        if (strcmp(b->c->op, rows[i].name) == 0)
            row = &rows[i];
    static const char *const in_max[] = {"InputTensor", "OutputTensor", "OutputIndicesTensor",
                                         NULL};
    static const char *const out_max[] = {"OutputTensor", "OutputIndicesTensor", NULL};
    static const char *const one_output[] = {"OutputTensor", NULL};
    const char *attrs[] = {"Strides", "WindowSize", "StartPadding", "EndPadding", "DimensionCount",
                           NULL,      NULL};
    attrs[5] = row->kind == POOL_AVERAGE ? "IncludePadding" : row->kind == POOL_LP ? "P" : NULL;
    const char *with_dilations[8];
    memcpy(with_dilations, attrs, sizeof attrs);
    if (row->dilations) {
        with_dilations[attrs[5] ? 6 : 5] = "Dilations";
        with_dilations[attrs[5] ? 7 : 6] = NULL;
    }
    if (rt_check_names(b, row->indices ? in_max : in_max + 0, with_dilations,
                       row->indices ? out_max : one_output))
        return -1;
    if (!row->indices && (rt_input(b, "OutputIndicesTensor") != NULL))
        return rt_fail(b, "%s has no OutputIndicesTensor", b->c->op);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in) != 0)
        return -1;
    UINT dims = in->rank >= 2 ? in->rank - 2 : 0;
    if (rt_attr_uint(b, "DimensionCount", dims, &dims))
        return -1;
    unsigned n = dims > 3 ? 3 : dims; /* the lists' length when the rule fails */
    UINT *strides, *window, *start, *end, *dilations;
    if (attr_list(b, "Strides", n, 1, &strides) || attr_list(b, "WindowSize", n, 1, &window) ||
        attr_list(b, "StartPadding", n, 0, &start) || attr_list(b, "EndPadding", n, 0, &end) ||
        attr_list(b, "Dilations", n, 1, &dilations))
        return -1;
    BOOL include = 0;
    UINT p = 2;
    if (attr_bool(b, "IncludePadding", &include) || rt_attr_uint(b, "P", 2, &p))
        return -1;
    /* The floor rule's sizes (for an output neither described nor expected). */
    UINT sizes[RT_MAX_RANK];
    memcpy(sizes, in->sizes, in->rank * sizeof sizes[0]);
    unsigned window_elems = 1;
    for (unsigned i = 0; i < n && 2 + i < in->rank; ++i) {
        uint64_t padded = (uint64_t)in->sizes[2 + i] + start[i] + end[i];
        uint64_t w = (uint64_t)(window[i] ? window[i] - 1 : 0) * dilations[i] + 1;
        sizes[2 + i] = w <= padded && strides[i] ? (UINT)((padded - w) / strides[i] + 1) : 1;
        window_elems *= window[i];
    }
    const DML_TENSOR_DESC *out = bind_output(b, "OutputTensor", in->type, in->rank, sizes, false);
    if (out == NULL)
        return -1;
    const DML_TENSOR_DESC *indices = NULL;
    if (row->indices) {
        indices =
            bind_output(b, "OutputIndicesTensor", rt_type_by_name("UINT32"), in->rank, sizes, true);
        if (indices == NULL && b->why[0])
            return -1;
    }
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        if (window_elems > 100000)
            window_elems = 100000;
        b->ulp_tolerance = row->kind == POOL_MAX       ? 0
                           : row->kind == POOL_AVERAGE ? window_elems + 2
                                                       : window_elems + 2 +
                                                             (p == 1   ? 0
                                                              : p == 2 ? 3
                                                                       : 64);
    }
    /* The seven descriptors share their leading members' layout but not all; each is filled. */
    switch (row->type) {
    case DML_OPERATOR_MAX_POOLING: {
        DML_MAX_POOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MAX_POOLING_OPERATOR_DESC){&in->desc, out, dims, strides, window, start, end};
        b->desc.Desc = d;
        break;
    }
    case DML_OPERATOR_MAX_POOLING1: {
        DML_MAX_POOLING1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MAX_POOLING1_OPERATOR_DESC){&in->desc, out,    indices, dims,
                                              strides,   window, start,   end};
        b->desc.Desc = d;
        break;
    }
    case DML_OPERATOR_MAX_POOLING2: {
        DML_MAX_POOLING2_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MAX_POOLING2_OPERATOR_DESC){&in->desc, out,   indices, dims,     strides,
                                              window,    start, end,     dilations};
        b->desc.Desc = d;
        break;
    }
    case DML_OPERATOR_AVERAGE_POOLING: {
        DML_AVERAGE_POOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_AVERAGE_POOLING_OPERATOR_DESC){&in->desc, out,   dims, strides,
                                                 window,    start, end,  include};
        b->desc.Desc = d;
        break;
    }
    case DML_OPERATOR_AVERAGE_POOLING1: {
        DML_AVERAGE_POOLING1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_AVERAGE_POOLING1_OPERATOR_DESC){&in->desc, out, dims,      strides, window,
                                                  start,     end, dilations, include};
        b->desc.Desc = d;
        break;
    }
    case DML_OPERATOR_LP_POOLING: {
        DML_LP_POOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_LP_POOLING_OPERATOR_DESC){&in->desc, out, dims, strides, window, start, end, p};
        b->desc.Desc = d;
        break;
    }
    default: {
        DML_LP_POOLING1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_LP_POOLING1_OPERATOR_DESC){&in->desc, out, dims,      strides, window,
                                             start,     end, dilations, p};
        b->desc.Desc = d;
        break;
    }
    }
    b->desc.Type = row->type;
    return 0;
}

/* QUANTIZED_LINEAR_AVERAGE_POOLING: InputTensor, InputScaleTensor, InputZeroPointTensor,
 * OutputScaleTensor, OutputZeroPointTensor (the zero points optional), OutputTensor (described
 * under inputs or expected); AVERAGE_POOLING1's attributes. Exact (integers). */
static int build_qpool(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor",
                                         "InputScaleTensor",
                                         "InputZeroPointTensor",
                                         "OutputScaleTensor",
                                         "OutputZeroPointTensor",
                                         "OutputTensor",
                                         NULL};
    static const char *const attrs[] = {"Strides",        "WindowSize", "StartPadding",
                                        "EndPadding",     "Dilations",  "IncludePadding",
                                        "DimensionCount", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    const DML_TENSOR_DESC *m[5];
    for (int k = 0; k < 5; ++k) {
        const rt_tensor *t = NULL;
        if ((k == 2 || k == 4) && rt_input(b, inputs[k]) == NULL) {
            if (rt_bind_input(b, NULL))
                return -1;
            m[k] = NULL;
            continue;
        }
        if ((t = rt_data_input(b, inputs[k])) == NULL || rt_bind_input(b, t))
            return -1;
        m[k] = &t->desc;
    }
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    UINT dims = in->rank >= 2 ? in->rank - 2 : 0;
    if (rt_attr_uint(b, "DimensionCount", dims, &dims))
        return -1;
    unsigned n = dims > 3 ? 3 : dims;
    UINT *strides, *window, *start, *end, *dilations;
    BOOL include = 0;
    if (attr_list(b, "Strides", n, 1, &strides) || attr_list(b, "WindowSize", n, 1, &window) ||
        attr_list(b, "StartPadding", n, 0, &start) || attr_list(b, "EndPadding", n, 0, &end) ||
        attr_list(b, "Dilations", n, 1, &dilations) || attr_bool(b, "IncludePadding", &include))
        return -1;
    const DML_TENSOR_DESC *out =
        bind_output(b, "OutputTensor", in->type, in->rank, in->sizes, false);
    if (out == NULL)
        return -1;
    DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    *d = (DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC){
        m[0], m[1], m[2], m[3], m[4], out, dims, strides, window, start, end, dilations, include};
    b->desc.Type = DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_pool[] = {
    {"DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING", build_qpool},
    {"DML_OPERATOR_MAX_POOLING", build_pool},
    {"DML_OPERATOR_MAX_POOLING1", build_pool},
    {"DML_OPERATOR_MAX_POOLING2", build_pool},
    {"DML_OPERATOR_AVERAGE_POOLING", build_pool},
    {"DML_OPERATOR_AVERAGE_POOLING1", build_pool},
    {"DML_OPERATOR_LP_POOLING", build_pool},
    {"DML_OPERATOR_LP_POOLING1", build_pool},
    {NULL, NULL},
};
