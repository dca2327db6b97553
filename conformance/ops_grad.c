/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's training operators (src/ops/elementwise_math.c's gradients):
 * ACTIVATION_RELU_GRAD, ELEMENT_WISE_CLIP_GRAD (FLOAT `Min`, `Max`: numbers, or "nan"/"inf"
 * strings) and ELEMENT_WISE_CLIP_GRAD1 (`MinMaxDataType` and its typed `Min`/`Max`). Inputs
 * InputTensor and InputGradientTensor, the output OutputGradientTensor (described by the case's
 * expected output, or by an input entry without data). Exact: a select of dY or 0.
 *
 * SLICE_GRAD: InputGradientTensor, the output OutputGradientTensor (its sizes from the case: the
 * forward slice's input), the lists InputWindowOffsets, InputWindowSizes, InputWindowStrides and
 * DimensionCount (default: the lists' length). Exact (bits moved).
 *
 * AVERAGE_POOLING_GRAD and MAX_POOLING_GRAD: InputGradientTensor (and MAX's InputTensor), the
 * output OutputGradientTensor (its sizes from the case: the forward pooling's input), the lists
 * Strides, WindowSize, StartPadding, EndPadding (and MAX's Dilations), AVERAGE's IncludePadding
 * (a boolean), DimensionCount (default: WindowSize's length). Default tolerance: a sum of k
 * terms, k + 2 ULP (a case gives its own where its sums cancel).
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const char *const grad_output[] = {"OutputGradientTensor", NULL};

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const char *name, const rt_tensor *like)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    rt_tensor *t;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes the output and takes no data", name);
        return NULL;
    }
    if (src != NULL)
        t = rt_add_output(b, name, src->type, src->rank, src->sizes,
                          src->has_strides ? src->strides : NULL);
    else
        t = rt_add_output(b, name, like->type, like->rank, like->sizes, NULL);
    return t ? &t->desc : NULL;
}

static int build_elementwise_grad(rt_build *b)
{
    static const char *const in[] = {"InputTensor", "InputGradientTensor", "OutputGradientTensor",
                                     NULL};
    static const char *const none[] = {NULL};
    static const char *const clip[] = {"Min", "Max", NULL};
    static const char *const clip1[] = {"Min", "Max", "MinMaxDataType", NULL};
    const char *op = b->c->op;
    bool is_relu = strcmp(op, "DML_OPERATOR_ACTIVATION_RELU_GRAD") == 0;
    bool is_clip1 = strcmp(op, "DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1") == 0;
    if (rt_check_names(b, in, is_relu ? none : is_clip1 ? clip1 : clip, grad_output))
        return -1;
    const rt_tensor *x = bind_data(b, "InputTensor");
    const rt_tensor *dy = bind_data(b, "InputGradientTensor");
    if (x == NULL || dy == NULL)
        return -1;
    const DML_TENSOR_DESC *out = bind_output(b, "OutputGradientTensor", x);
    if (out == NULL)
        return -1;
    if (is_relu) {
        DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC){&x->desc, &dy->desc, out};
        b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU_GRAD, d};
        return 0;
    }
    if (!is_clip1) {
        DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC){&x->desc, &dy->desc, out, 0, 0};
        b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, d};
        const rt_type *f32 = rt_type_by_name("FLOAT32");
        return rt_attr_value(b, "Min", f32, &d->Min) || rt_attr_value(b, "Max", f32, &d->Max) ? -1
                                                                                              : 0;
    }
    DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    memset(d, 0, sizeof *d);
    d->InputTensor = &x->desc;
    d->InputGradientTensor = &dy->desc;
    d->OutputGradientTensor = out;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, d};
    const rt_type *mt;
    if (rt_attr_type(b, "MinMaxDataType", &mt))
        return -1;
    if (mt == NULL)
        return rt_fail(b, "attrs.MinMaxDataType is required");
    d->MinMaxDataType = mt->dml;
    return rt_attr_value(b, "Min", mt, &d->Min) || rt_attr_value(b, "Max", mt, &d->Max) ? -1 : 0;
}

/* DirectML reads DimensionCount entries of every list: a case's lists hold exactly that many
 * (a descriptor whose lists are shorter than its count is no case: it reads past them). */
static int list_lengths(rt_build *b, const char *const *names, int n, const unsigned *lens,
                        UINT dims)
{
    for (int k = 0; k < n; ++k)
        if (rt_attr(b, names[k]) != NULL && lens[k] != dims)
            return rt_fail(b, "attrs.%s has %u entries; DimensionCount is %u", names[k], lens[k],
                           dims);
    return 0;
}

static const char *const names_slice[3] = {"InputWindowOffsets", "InputWindowSizes",
                                           "InputWindowStrides"};

static int build_slice_grad(rt_build *b)
{
    static const char *const in[] = {"InputGradientTensor", "OutputGradientTensor", NULL};
    static const char *const attrs[] = {"InputWindowOffsets", "InputWindowSizes",
                                        "InputWindowStrides", "DimensionCount", NULL};
    DML_SLICE_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    UINT *offsets, *sizes;
    INT *strides;
    unsigned lens[3];
    if (rt_check_names(b, in, attrs, grad_output) ||
        rt_attr_uint_list(b, "InputWindowOffsets", &offsets, &lens[0]) ||
        rt_attr_uint_list(b, "InputWindowSizes", &sizes, &lens[1]) ||
        rt_attr_int_list(b, "InputWindowStrides", &strides, &lens[2]))
        return -1;
    const rt_tensor *dy = bind_data(b, "InputGradientTensor");
    if (dy == NULL || rt_attr_uint(b, "DimensionCount", lens[0], &d->DimensionCount) ||
        list_lengths(b, names_slice, 3, lens, d->DimensionCount))
        return -1;
    d->InputGradientTensor = &dy->desc;
    d->InputWindowOffsets = offsets;
    d->InputWindowSizes = sizes;
    d->InputWindowStrides = strides;
    if ((d->OutputGradientTensor = bind_output(b, "OutputGradientTensor", dy)) == NULL)
        return -1;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE_GRAD, d};
    return 0;
}

static int build_pooling_grad(rt_build *b)
{
    bool max = strcmp(b->c->op, "DML_OPERATOR_MAX_POOLING_GRAD") == 0;
    static const char *const avg_in[] = {"InputGradientTensor", "OutputGradientTensor", NULL};
    static const char *const max_in[] = {"InputTensor", "InputGradientTensor",
                                         "OutputGradientTensor", NULL};
    static const char *const avg_attrs[] = {"Strides",    "WindowSize",     "StartPadding",
                                            "EndPadding", "IncludePadding", "DimensionCount",
                                            NULL};
    static const char *const max_attrs[] = {
        "Strides", "WindowSize", "StartPadding", "EndPadding", "Dilations", "DimensionCount", NULL};
    UINT *lists[5] = {NULL, NULL, NULL, NULL, NULL};
    static const char *const names[5] = {"Strides", "WindowSize", "StartPadding", "EndPadding",
                                         "Dilations"};
    unsigned lens[5] = {0, 0, 0, 0, 0};
    if (rt_check_names(b, max ? max_in : avg_in, max ? max_attrs : avg_attrs, grad_output))
        return -1;
    for (int k = 0; k < (max ? 5 : 4); ++k)
        if (rt_attr_uint_list(b, names[k], &lists[k], &lens[k]))
            return -1;
    UINT dims;
    BOOL include = 0;
    if (rt_attr_uint(b, "DimensionCount", lens[1], &dims) ||
        list_lengths(b, names, max ? 5 : 4, lens, dims) ||
        (!max && rt_attr_bool(b, "IncludePadding", &include)))
        return -1;
    const rt_tensor *x = max ? bind_data(b, "InputTensor") : NULL;
    const rt_tensor *dy = bind_data(b, "InputGradientTensor");
    if ((max && x == NULL) || dy == NULL)
        return -1;
    const DML_TENSOR_DESC *out = bind_output(b, "OutputGradientTensor", max ? x : dy);
    if (out == NULL)
        return -1;
    if (max) {
        DML_MAX_POOLING_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MAX_POOLING_GRAD_OPERATOR_DESC){&x->desc, &dy->desc, out,      dims,    lists[0],
                                                  lists[1], lists[2],  lists[3], lists[4]};
        b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_MAX_POOLING_GRAD, d};
    } else {
        DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC){&dy->desc, out,      dims,     lists[0],
                                                      lists[1],  lists[2], lists[3], include};
        b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_AVERAGE_POOLING_GRAD, d};
    }
    /* A sum of at most prod(ceil(WindowSize / Strides)) terms per element. */
    unsigned terms = 1;
    for (unsigned i = 0; i < dims && lists[0] && lists[1] && i < lens[0] && i < lens[1]; ++i)
        terms *= lists[0][i] ? (lists[1][i] + lists[0][i] - 1) / lists[0][i] : 1;
    b->ulp_tolerance = terms + 2;
    return 0;
}

const rt_op rt_ops_grad[] = {
    {"DML_OPERATOR_ACTIVATION_RELU_GRAD", build_elementwise_grad},
    {"DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD", build_elementwise_grad},
    {"DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1", build_elementwise_grad},
    {"DML_OPERATOR_SLICE_GRAD", build_slice_grad},
    {"DML_OPERATOR_AVERAGE_POOLING_GRAD", build_pooling_grad},
    {"DML_OPERATOR_MAX_POOLING_GRAD", build_pooling_grad},
    {NULL, NULL},
};
