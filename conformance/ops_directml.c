/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's own descriptors: the case's attrs are the
 * descriptor's members, its tensors are keyed by the member names.
 *
 * Absent attributes are 0 and absent lists are NULL, as in a zero-initialised
 * descriptor. The output description comes from inputs.OutputTensor (type,
 * shape, strides, no data) when the case gives one, else from the expected
 * output, packed; an expected-error case with neither gets a packed output of
 * the input's type with the shape the operator's documented rule gives (the
 * input's shape where the rule cannot apply).
 */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};

/* A data tensor bound as the next input slot. */
static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *like, unsigned rank,
                                          const UINT *fallback)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    rt_tensor *t;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src != NULL)
        t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    else
        t = rt_add_output(b, "OutputTensor", like->type, rank, fallback, NULL);
    return t ? &t->desc : NULL;
}

/* ---- GATHER ---------------------------------------------------------------------------- */

/*
 * DirectMLX's rule: from the last position down, input dims after Axis, then
 * the last IndexDimensions dims of the indices, then input dims before Axis,
 * as far as DimensionCount reaches; the rest 1.
 */
static void gather_shape(const rt_tensor *in, const rt_tensor *idx, UINT axis, UINT index_dims,
                         UINT *out)
{
    int pos = (int)in->rank - 1;
    for (unsigned i = 0; i < in->rank; ++i)
        out[i] = axis < in->rank ? 1 : in->sizes[i];
    if (axis >= in->rank)
        return;
    for (int i = (int)in->rank - 1; i > (int)axis; --i)
        out[pos--] = in->sizes[i];
    for (UINT k = 0; k < index_dims && pos >= 0; ++k) {
        int src = (int)idx->rank - 1 - (int)k;
        out[pos--] = src >= 0 ? idx->sizes[src] : 1;
    }
    for (int i = (int)axis - 1; i >= 0 && pos >= 0; --i)
        out[pos--] = in->sizes[i];
}

static int build_gather(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "IndicesTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", "IndexDimensions", NULL};
    DML_GATHER_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT shape[RT_MAX_RANK];
    if (rt_check_names(b, inputs, attrs, one_output) || rt_attr_uint(b, "Axis", 0, &d->Axis) ||
        rt_attr_uint(b, "IndexDimensions", 0, &d->IndexDimensions))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    const rt_tensor *idx = in ? bind_data(b, "IndicesTensor") : NULL;
    if (idx == NULL)
        return -1;
    gather_shape(in, idx, d->Axis, d->IndexDimensions, shape);
    d->InputTensor = &in->desc;
    d->IndicesTensor = &idx->desc;
    if ((d->OutputTensor = bind_output(b, in, in->rank, shape)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_GATHER;
    b->desc.Desc = d;
    return 0;
}

static int build_gather_elements(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "IndicesTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Axis", NULL};
    DML_GATHER_ELEMENTS_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, attrs, one_output) || rt_attr_uint(b, "Axis", 0, &d->Axis))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    const rt_tensor *idx = in ? bind_data(b, "IndicesTensor") : NULL;
    if (idx == NULL)
        return -1;
    d->InputTensor = &in->desc;
    d->IndicesTensor = &idx->desc;
    /* Output.Sizes = Indices.Sizes. */
    if ((d->OutputTensor = bind_output(b, in, idx->rank, idx->sizes)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_GATHER_ELEMENTS;
    b->desc.Desc = d;
    return 0;
}

/*
 * The indices' meaningful dims but the last, then the input's trailing
 * InputDimensionCount - batch - m dims, right-aligned (m: the tuple length).
 */
static void gather_nd_shape(const rt_tensor *in, const rt_tensor *idx, UINT in_dims, UINT idx_dims,
                            UINT batch, UINT *out)
{
    const unsigned d = in->rank;
    UINT m = idx->rank ? idx->sizes[idx->rank - 1] : 0;
    memcpy(out, in->sizes, d * sizeof *out);
    if (idx_dims < 1 || idx_dims > idx->rank || in_dims > d || m < 1 || batch + m > in_dims)
        return;
    UINT list[2 * RT_MAX_RANK];
    unsigned n = 0;
    for (unsigned i = idx->rank - idx_dims; i + 1 < idx->rank; ++i)
        list[n++] = idx->sizes[i];
    for (unsigned i = d - (in_dims - batch - m); i < d; ++i)
        list[n++] = in->sizes[i];
    for (unsigned i = 0; i < d; ++i)
        out[d - 1 - i] = i < n ? list[n - 1 - i] : 1;
}

static int build_gather_nd_common(rt_build *b, int with_batch)
{
    static const char *const inputs[] = {"InputTensor", "IndicesTensor", "OutputTensor", NULL};
    static const char *const attrs_nd[] = {"InputDimensionCount", "IndicesDimensionCount", NULL};
    static const char *const attrs_nd1[] = {"InputDimensionCount", "IndicesDimensionCount",
                                            "BatchDimensionCount", NULL};
    UINT in_dims, idx_dims, batch = 0, shape[RT_MAX_RANK];
    if (rt_check_names(b, inputs, with_batch ? attrs_nd1 : attrs_nd, one_output) ||
        rt_attr_uint(b, "InputDimensionCount", 0, &in_dims) ||
        rt_attr_uint(b, "IndicesDimensionCount", 0, &idx_dims) ||
        (with_batch && rt_attr_uint(b, "BatchDimensionCount", 0, &batch)))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    const rt_tensor *idx = in ? bind_data(b, "IndicesTensor") : NULL;
    if (idx == NULL)
        return -1;
    gather_nd_shape(in, idx, in_dims, idx_dims, batch, shape);
    const DML_TENSOR_DESC *out = bind_output(b, in, in->rank, shape);
    if (out == NULL)
        return -1;
    if (with_batch) {
        DML_GATHER_ND1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_GATHER_ND1_OPERATOR_DESC){&in->desc, &idx->desc, out, in_dims, idx_dims, batch};
        b->desc.Type = DML_OPERATOR_GATHER_ND1;
        b->desc.Desc = d;
    } else {
        DML_GATHER_ND_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_GATHER_ND_OPERATOR_DESC){&in->desc, &idx->desc, out, in_dims, idx_dims};
        b->desc.Type = DML_OPERATOR_GATHER_ND;
        b->desc.Desc = d;
    }
    return 0;
}

static int build_gather_nd(rt_build *b)
{
    return build_gather_nd_common(b, 0);
}

static int build_gather_nd1(rt_build *b)
{
    return build_gather_nd_common(b, 1);
}

/* ---- SLICE, SLICE1 ----------------------------------------------------------------------- */

/*
 * DimensionCount: the attribute when given, else the length of the first
 * list present, else the input's rank. Every list present must have that
 * many entries (the library reads exactly DimensionCount of each).
 */
static int slice_dims(rt_build *b, const rt_tensor *in, const char *const *lists,
                      const unsigned *lens, UINT *dims)
{
    UINT def = in->rank;
    for (unsigned i = 0; lists[i] != NULL; ++i)
        if (rt_attr(b, lists[i]) != NULL) {
            def = lens[i];
            break;
        }
    if (rt_attr_uint(b, "DimensionCount", def, dims))
        return -1;
    for (unsigned i = 0; lists[i] != NULL; ++i)
        if (rt_attr(b, lists[i]) != NULL && lens[i] != *dims)
            return rt_fail(b, "attrs.%s has %u entries, DimensionCount is %u", lists[i], lens[i],
                           *dims);
    return 0;
}

static int build_slice(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"Offsets", "Sizes", "Strides", "DimensionCount", NULL};
    static const char *const lists[] = {"Offsets", "Sizes", "Strides", NULL};
    DML_SLICE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *offsets, *sizes, *strides, shape[RT_MAX_RANK];
    unsigned lens[3];
    if (rt_check_names(b, inputs, attrs, one_output) ||
        rt_attr_uint_list(b, "Offsets", &offsets, &lens[0]) ||
        rt_attr_uint_list(b, "Sizes", &sizes, &lens[1]) ||
        rt_attr_uint_list(b, "Strides", &strides, &lens[2]))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || slice_dims(b, in, lists, lens, &d->DimensionCount))
        return -1;
    /* Output.Sizes = Sizes. */
    for (unsigned i = 0; i < in->rank; ++i)
        shape[i] = sizes && d->DimensionCount == in->rank ? sizes[i] : in->sizes[i];
    d->InputTensor = &in->desc;
    d->Offsets = offsets;
    d->Sizes = sizes;
    d->Strides = strides;
    if ((d->OutputTensor = bind_output(b, in, in->rank, shape)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_SLICE;
    b->desc.Desc = d;
    return 0;
}

static int build_slice1(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"InputWindowOffsets", "InputWindowSizes",
                                        "InputWindowStrides", "DimensionCount", NULL};
    static const char *const lists[] = {"InputWindowOffsets", "InputWindowSizes",
                                        "InputWindowStrides", NULL};
    DML_SLICE1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *offsets, *sizes, shape[RT_MAX_RANK];
    INT *strides;
    unsigned lens[3];
    if (rt_check_names(b, inputs, attrs, one_output) ||
        rt_attr_uint_list(b, "InputWindowOffsets", &offsets, &lens[0]) ||
        rt_attr_uint_list(b, "InputWindowSizes", &sizes, &lens[1]) ||
        rt_attr_int_list(b, "InputWindowStrides", &strides, &lens[2]))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || slice_dims(b, in, lists, lens, &d->DimensionCount))
        return -1;
    /* Output.Sizes[i] = 1 + (window size - 1) / |stride|, the whole window. */
    for (unsigned i = 0; i < in->rank; ++i) {
        UINT size = sizes && d->DimensionCount == in->rank ? sizes[i] : in->sizes[i];
        INT s = strides && d->DimensionCount == in->rank ? strides[i] : 1;
        UINT step = s < 0 ? (UINT)0 - (UINT)s : (UINT)s;
        shape[i] = size == 0 || step == 0 ? size : 1 + (size - 1) / step;
    }
    d->InputTensor = &in->desc;
    d->InputWindowOffsets = offsets;
    d->InputWindowSizes = sizes;
    d->InputWindowStrides = strides;
    if ((d->OutputTensor = bind_output(b, in, in->rank, shape)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_SLICE1;
    b->desc.Desc = d;
    return 0;
}

/* ---- ELEMENT_WISE_IDENTITY --------------------------------------------------------------- */

static int build_identity(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"ScaleBias", NULL};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    const cJSON *sb = rt_attr(b, "ScaleBias");
    if (sb != NULL) {
        DML_SCALE_BIAS *v = rt_alloc(b, sizeof *v);
        if (!cJSON_IsObject(sb) || cJSON_GetArraySize(sb) != 2)
            return rt_fail(b, "attrs.ScaleBias must be {\"Scale\": s, \"Bias\": b}");
        if (rt_attr_float(b, "Scale", sb, &v->Scale) || rt_attr_float(b, "Bias", sb, &v->Bias))
            return rt_fail(b, "attrs.ScaleBias must be {\"Scale\": s, \"Bias\": b}");
        d->ScaleBias = v;
    }
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL)
        return -1;
    d->InputTensor = &in->desc;
    if ((d->OutputTensor = bind_output(b, in, in->rank, in->sizes)) == NULL)
        return -1;
    /* Scale and bias are arithmetic: DirectML allows float rounding there. */
    const DML_TENSOR_DATA_TYPE out_type = b->outputs[0]->type->dml;
    if (d->ScaleBias != NULL &&
        (out_type == DML_TENSOR_DATA_TYPE_FLOAT32 || out_type == DML_TENSOR_DATA_TYPE_FLOAT16))
        b->ulp_tolerance = 1;
    b->desc.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
    b->desc.Desc = d;
    return 0;
}

/* ---- Element-wise arithmetic (version 3) -------------------------------------------------- */

/* Each operator's tolerance on FLOAT32 and FLOAT16 outputs (reference/precision.md); exact
 * where the result is exact in any precision, and for integers. */
typedef struct ew_op {
    const char *name;
    DML_OPERATOR_TYPE type;
    int binary, scale_bias;
    unsigned ulps;
} ew_op;

static const ew_op ew_ops[] = {
    {"DML_OPERATOR_ELEMENT_WISE_ADD", DML_OPERATOR_ELEMENT_WISE_ADD, 1, 0, 1},
    {"DML_OPERATOR_ELEMENT_WISE_SUBTRACT", DML_OPERATOR_ELEMENT_WISE_SUBTRACT, 1, 0, 1},
    {"DML_OPERATOR_ELEMENT_WISE_MULTIPLY", DML_OPERATOR_ELEMENT_WISE_MULTIPLY, 1, 0, 1},
    {"DML_OPERATOR_ELEMENT_WISE_DIVIDE", DML_OPERATOR_ELEMENT_WISE_DIVIDE, 1, 0, 2},
    {"DML_OPERATOR_ELEMENT_WISE_MAX", DML_OPERATOR_ELEMENT_WISE_MAX, 1, 0, 0},
    {"DML_OPERATOR_ELEMENT_WISE_MIN", DML_OPERATOR_ELEMENT_WISE_MIN, 1, 0, 0},
    {"DML_OPERATOR_ELEMENT_WISE_MEAN", DML_OPERATOR_ELEMENT_WISE_MEAN, 1, 0, 1},
    {"DML_OPERATOR_ELEMENT_WISE_DIFFERENCE_SQUARE", DML_OPERATOR_ELEMENT_WISE_DIFFERENCE_SQUARE, 1,
     0, 2},
    {"DML_OPERATOR_ELEMENT_WISE_NEGATE", DML_OPERATOR_ELEMENT_WISE_NEGATE, 0, 0, 0},
    {"DML_OPERATOR_ELEMENT_WISE_ABS", DML_OPERATOR_ELEMENT_WISE_ABS, 0, 1, 0},
    {"DML_OPERATOR_ELEMENT_WISE_CEIL", DML_OPERATOR_ELEMENT_WISE_CEIL, 0, 1, 0},
    {"DML_OPERATOR_ELEMENT_WISE_FLOOR", DML_OPERATOR_ELEMENT_WISE_FLOOR, 0, 1, 0},
    {"DML_OPERATOR_ELEMENT_WISE_SQRT", DML_OPERATOR_ELEMENT_WISE_SQRT, 0, 1, 1},
    {"DML_OPERATOR_ELEMENT_WISE_RECIP", DML_OPERATOR_ELEMENT_WISE_RECIP, 0, 1, 2},
    {"DML_OPERATOR_ELEMENT_WISE_EXP", DML_OPERATOR_ELEMENT_WISE_EXP, 0, 1, 32},
    {"DML_OPERATOR_ELEMENT_WISE_LOG", DML_OPERATOR_ELEMENT_WISE_LOG, 0, 1, 0}, /* abs 1/1024 */
};

static int build_elementwise(rt_build *b)
{
    const ew_op *e = NULL;
    for (size_t i = 0; i < sizeof ew_ops / sizeof ew_ops[0]; ++i)
        if (strcmp(ew_ops[i].name, b->c->op) == 0)
            e = &ew_ops[i];
    if (e == NULL)
        return rt_fail(b, "no element-wise operator %s", b->c->op);
    static const char *const binary_inputs[] = {"ATensor", "BTensor", "OutputTensor", NULL};
    static const char *const unary_inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const sb_attrs[] = {"ScaleBias", NULL}, *const no_attrs[] = {NULL};
    if (rt_check_names(b, e->binary ? binary_inputs : unary_inputs,
                       e->scale_bias ? sb_attrs : no_attrs, one_output))
        return -1;
    const DML_SCALE_BIAS *scale_bias = NULL;
    const cJSON *sb = e->scale_bias ? rt_attr(b, "ScaleBias") : NULL;
    if (sb != NULL) {
        DML_SCALE_BIAS *v = rt_alloc(b, sizeof *v);
        if (!cJSON_IsObject(sb) || cJSON_GetArraySize(sb) != 2 ||
            rt_attr_float(b, "Scale", sb, &v->Scale) || rt_attr_float(b, "Bias", sb, &v->Bias))
            return rt_fail(b, "attrs.ScaleBias must be {\"Scale\": s, \"Bias\": b}");
        scale_bias = v;
    }
    const rt_tensor *a = bind_data(b, e->binary ? "ATensor" : "InputTensor");
    const rt_tensor *bt = e->binary ? bind_data(b, "BTensor") : NULL;
    if (a == NULL || (e->binary && bt == NULL))
        return -1;
    const DML_TENSOR_DESC *out = bind_output(b, a, a->rank, a->sizes);
    if (out == NULL)
        return -1;
    if (e->binary) {
        /* Every binary row's descriptor: {ATensor, BTensor, OutputTensor}. */
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_ADD_OPERATOR_DESC){&a->desc, &bt->desc, out};
        b->desc.Desc = d;
    } else if (e->scale_bias) {
        DML_ELEMENT_WISE_ABS_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_ABS_OPERATOR_DESC){&a->desc, out, scale_bias};
        b->desc.Desc = d;
    } else {
        DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC){&a->desc, out};
        b->desc.Desc = d;
    }
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16)
        b->ulp_tolerance = e->ulps;
    if (e->type == DML_OPERATOR_ELEMENT_WISE_LOG)
        b->abs_tolerance = 1.0 / 1024;
    b->desc.Type = e->type;
    return 0;
}

const rt_op rt_ops_directml[] = {
    {"DML_OPERATOR_ELEMENT_WISE_ADD", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_SUBTRACT", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_MULTIPLY", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_DIVIDE", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_MAX", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_MIN", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_MEAN", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_DIFFERENCE_SQUARE", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_NEGATE", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_ABS", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_CEIL", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_FLOOR", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_SQRT", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_RECIP", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_EXP", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_LOG", build_elementwise},
    {"DML_OPERATOR_ELEMENT_WISE_IDENTITY", build_identity},
    {"DML_OPERATOR_GATHER", build_gather},
    {"DML_OPERATOR_GATHER_ELEMENTS", build_gather_elements},
    {"DML_OPERATOR_GATHER_ND", build_gather_nd},
    {"DML_OPERATOR_GATHER_ND1", build_gather_nd1},
    {"DML_OPERATOR_SLICE", build_slice},
    {"DML_OPERATOR_SLICE1", build_slice1},
    {NULL, NULL},
};
