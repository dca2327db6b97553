/* SPDX-License-Identifier: MIT */
/*
 * The builder of DML_OPERATOR_CONVOLUTION (CASE-FORMAT version 3): InputTensor, FilterTensor,
 * optional BiasTensor and OutputTensor; attrs Mode and Direction (their DirectML names or
 * numbers; absent: CROSS_CORRELATION, FORWARD), Strides, Dilations, StartPadding, EndPadding,
 * OutputPadding (lists of the spatial count; absent: 1s for the first two, 0s for the others;
 * DimensionCount is their length, or the input's DimensionCount - 2 when absent or given as
 * attrs.DimensionCount), GroupCount (absent 1), FusedActivation.
 * Default tolerance on FLOAT32 and FLOAT16 outputs (reference/precision.md): 2 x the taps of an
 * output (the filter's spatial volume x the input channels of a group) ULP, plus a fused
 * activation's; the generated cases state theirs (with the absolute bound of a cancelling sum).
 */
#include <string.h>

#include "runner.h"

static const char *const modes[] = {"DML_CONVOLUTION_MODE_CONVOLUTION",
                                    "DML_CONVOLUTION_MODE_CROSS_CORRELATION"};
static const char *const directions[] = {"DML_CONVOLUTION_DIRECTION_FORWARD",
                                         "DML_CONVOLUTION_DIRECTION_BACKWARD"};

static int attr_enum(rt_build *b, const char *attr, const char *const *names, int def, int *out)
{
    const cJSON *v = rt_attr(b, attr);
    *out = def;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v)) {
        *out = v->valueint;
        return 0;
    }
    for (int i = 0; i < 2; ++i)
        if (cJSON_IsString(v) && strcmp(v->valuestring, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return rt_fail(b, "attrs.%s must be one of its enumeration's names", attr);
}

/* A list attribute of `count` values (absent: `def` each); its length sets *count when the
 * list is given and *count is 0. */
static int attr_list(rt_build *b, const char *name, UINT def, unsigned *count, const UINT **out)
{
    if (rt_attr(b, name) == NULL) {
        UINT *v = rt_alloc(b, 8 * sizeof *v);
        for (int i = 0; i < 8; ++i)
            v[i] = def;
        *out = v;
        return 0;
    }
    UINT *vals;
    unsigned n;
    if (rt_attr_uint_list(b, name, &vals, &n))
        return -1;
    if (*count == 0)
        *count = n;
    else if (n != *count) /* the operator reads DimensionCount values of every list */
        return rt_fail(b, "attrs.%s has %u values; DimensionCount is %u", name, n, *count);
    *out = vals;
    return 0;
}

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const rt_tensor *like)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL)
        src = like;
    rt_tensor *t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                 src != like && src->has_strides ? src->strides : NULL);
    return t ? &t->desc : NULL;
}

static int build_conv(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "FilterTensor", "BiasTensor",
                                         "OutputTensor", NULL};
    static const char *const attrs[] = {"Mode",
                                        "Direction",
                                        "DimensionCount",
                                        "Strides",
                                        "Dilations",
                                        "StartPadding",
                                        "EndPadding",
                                        "OutputPadding",
                                        "GroupCount",
                                        "FusedActivation",
                                        NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_CONVOLUTION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = bind_data(b, "InputTensor"), *f = NULL;
    if (in == NULL || (f = bind_data(b, "FilterTensor")) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    d->FilterTensor = &f->desc;
    if (rt_input(b, "BiasTensor") == NULL) {
        if (rt_bind_input(b, NULL))
            return -1;
    } else {
        const rt_tensor *bias = bind_data(b, "BiasTensor");
        if (bias == NULL)
            return -1;
        d->BiasTensor = &bias->desc;
    }
    if ((d->OutputTensor = bind_output(b, in)) == NULL)
        return -1;
    int mode, direction;
    if (attr_enum(b, "Mode", modes, 1, &mode) ||
        attr_enum(b, "Direction", directions, 0, &direction))
        return -1;
    d->Mode = (DML_CONVOLUTION_MODE)mode;
    d->Direction = (DML_CONVOLUTION_DIRECTION)direction;
    unsigned count = 0;
    if (rt_attr(b, "DimensionCount")) {
        UINT dc;
        if (rt_attr_uint(b, "DimensionCount", 0, &dc))
            return -1;
        count = dc;
    }
    if (attr_list(b, "Strides", 1, &count, &d->Strides) ||
        attr_list(b, "Dilations", 1, &count, &d->Dilations) ||
        attr_list(b, "StartPadding", 0, &count, &d->StartPadding) ||
        attr_list(b, "EndPadding", 0, &count, &d->EndPadding) ||
        attr_list(b, "OutputPadding", 0, &count, &d->OutputPadding))
        return -1;
    d->DimensionCount = count ? count : (in->rank >= 2 ? in->rank - 2 : 0);
    if (rt_attr_uint(b, "GroupCount", 1, &d->GroupCount))
        return -1;
    DML_OPERATOR_DESC *fused;
    unsigned act_ulps;
    double act_abs;
    if (rt_fused_activation(b, &fused, &act_ulps, &act_abs))
        return -1;
    d->FusedActivation = fused;
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if ((t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) && f->rank >= 2 &&
        d->GroupCount > 0) {
        uint64_t taps = direction ? f->sizes[0] / d->GroupCount : f->sizes[1];
        for (unsigned i = 2; i < f->rank; ++i)
            taps *= f->sizes[i];
        b->ulp_tolerance = (unsigned)(2 * taps) + act_ulps;
        b->abs_tolerance = act_abs;
    }
    b->desc.Type = DML_OPERATOR_CONVOLUTION;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_conv[] = {
    {"DML_OPERATOR_CONVOLUTION", build_conv},
    {NULL, NULL},
};
