/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's resampling operators (CASE-FORMAT version 3): UPSAMPLE_2D (attrs
 * ScaleSize {"Width", "Height"}, InterpolationMode), RESAMPLE (InterpolationMode, Scales:
 * ScaleCount is its length), RESAMPLE1 (and InputPixelOffsets, OutputPixelOffsets: lists of
 * Scales' length; DimensionCount is that length), RESAMPLE2 (and RoundingDirection), RESAMPLE3
 * (and Antialiased, true/false), VALUE_SCALE_2D (Scale, Bias: ChannelCount is its length).
 * Enumerations by their DirectML names (absent: NEAREST_NEIGHBOR, INCREASING); float lists
 * hold numbers or "inf", "-inf", "nan". Tensors InputTensor and OutputTensor.
 * Default tolerances (reference/precision.md): nearest neighbour exact, LINEAR 84 ULP,
 * VALUE_SCALE_2D 2 ULP (x * Scale + Bias); integer outputs exact.
 * RESAMPLE_GRAD (RESAMPLE1's attrs) and RESAMPLE_GRAD1 (RESAMPLE2's): tensors
 * InputGradientTensor (data) and OutputGradientTensor; DimensionCount the length of Scales.
 * Their default tolerance: none (exact); a gradient is a sum whose bound depends on how many
 * outputs read an element, so each case states its own (gen/resample_grad.py).
 */
#include <math.h>
#include <string.h>

#include "runner.h"

static const char *const one_output[] = {"OutputTensor", NULL};
static const char *const io[] = {"InputTensor", "OutputTensor", NULL};

static int attr_enum(rt_build *b, const char *attr, const char *const *names, unsigned n, int def,
                     int *out)
{
    const cJSON *v = rt_attr(b, attr);
    *out = def;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v)) {
        *out = v->valueint;
        return 0;
    }
    for (unsigned i = 0; i < n; ++i)
        if (cJSON_IsString(v) && strcmp(v->valuestring, names[i]) == 0) {
            *out = (int)i;
            return 0;
        }
    return rt_fail(b, "attrs.%s must be one of its enumeration's names", attr);
}

static int attr_mode(rt_build *b, DML_INTERPOLATION_MODE *out)
{
    static const char *const names[] = {"DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                                        "DML_INTERPOLATION_MODE_LINEAR"};
    int v;
    if (attr_enum(b, "InterpolationMode", names, 2, 0, &v))
        return -1;
    *out = (DML_INTERPOLATION_MODE)v;
    return 0;
}

/* A list of FLOATs (numbers, "inf", "-inf", "nan"); absent: *vals NULL, *count 0. */
static int attr_floats(rt_build *b, const char *name, FLOAT **vals, unsigned *count)
{
    const cJSON *v = rt_attr(b, name);
    *vals = NULL;
    *count = 0;
    if (v == NULL)
        return 0;
    if (!cJSON_IsArray(v))
        return rt_fail(b, "attrs.%s must be a list of numbers", name);
    unsigned n = (unsigned)cJSON_GetArraySize(v);
    FLOAT *p = rt_alloc(b, (n ? n : 1) * sizeof *p);
    unsigned i = 0;
    for (const cJSON *e = v->child; e != NULL; e = e->next, ++i) {
        if (cJSON_IsNumber(e))
            p[i] = (FLOAT)e->valuedouble;
        else if (cJSON_IsString(e) && strcmp(e->valuestring, "inf") == 0)
            p[i] = INFINITY;
        else if (cJSON_IsString(e) && strcmp(e->valuestring, "-inf") == 0)
            p[i] = -INFINITY;
        else if (cJSON_IsString(e) && strcmp(e->valuestring, "nan") == 0)
            p[i] = NAN;
        else
            return rt_fail(b, "attrs.%s[%u] must be a number, \"inf\", \"-inf\" or \"nan\"", name,
                           i);
    }
    *vals = p;
    *count = n;
    return 0;
}

static const DML_TENSOR_DESC *bind_output(rt_build *b, const char *name, const rt_tensor *like)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes the output and takes no data", name);
        return NULL;
    }
    if (src == NULL)
        src = like;
    rt_tensor *t = rt_add_output(b, name, src->type, src->rank, src->sizes,
                                 src != like && src->has_strides ? src->strides : NULL);
    return t ? &t->desc : NULL;
}

/* Input in_name bound with its data, and output out_name. */
static int bind_named(rt_build *b, const char *in_name, const char *out_name,
                      const DML_TENSOR_DESC **in, const DML_TENSOR_DESC **out)
{
    const rt_tensor *t = rt_data_input(b, in_name);
    if (t == NULL || rt_bind_input(b, t) != 0 || (*out = bind_output(b, out_name, t)) == NULL)
        return -1;
    *in = &t->desc;
    return 0;
}

/* InputTensor bound with its data, and the output. */
static int bind_pair(rt_build *b, const DML_TENSOR_DESC **in, const DML_TENSOR_DESC **out)
{
    return bind_named(b, "InputTensor", "OutputTensor", in, out);
}

static void set_tolerance(rt_build *b, unsigned ulps)
{
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16)
        b->ulp_tolerance = ulps;
}

static int build_upsample(rt_build *b)
{
    static const char *const attrs[] = {"ScaleSize", "InterpolationMode", NULL};
    if (rt_check_names(b, io, attrs, one_output))
        return -1;
    DML_UPSAMPLE_2D_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (bind_pair(b, &d->InputTensor, &d->OutputTensor) || attr_mode(b, &d->InterpolationMode))
        return -1;
    const cJSON *s = rt_attr(b, "ScaleSize");
    if (!cJSON_IsObject(s))
        return rt_fail(b, "attrs.ScaleSize must be {\"Width\": w, \"Height\": h}");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(s, "Width");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(s, "Height");
    if (!cJSON_IsNumber(w) || !cJSON_IsNumber(h) || !rt_json_integral(w, 0, 4294967295.0) ||
        !rt_json_integral(h, 0, 4294967295.0))
        return rt_fail(b, "attrs.ScaleSize's Width and Height must be integers in [0, 2^32 - 1]");
    d->ScaleSize = (DML_SIZE_2D){(UINT)w->valuedouble, (UINT)h->valuedouble};
    set_tolerance(b, d->InterpolationMode == DML_INTERPOLATION_MODE_LINEAR ? 84 : 0);
    b->desc.Type = DML_OPERATOR_UPSAMPLE_2D;
    b->desc.Desc = d;
    return 0;
}

/* RESAMPLE (0) to RESAMPLE3 (3): the version is the operator name's last digit. */
static int build_resample(rt_build *b)
{
    const char *op = b->c->op;
    size_t len = strlen(op);
    int version = op[len - 1] >= '1' && op[len - 1] <= '3' ? op[len - 1] - '0' : 0;
    static const char *const attrs[4][7] = {
        {"InterpolationMode", "Scales", NULL},
        {"InterpolationMode", "Scales", "InputPixelOffsets", "OutputPixelOffsets", NULL},
        {"InterpolationMode", "RoundingDirection", "Scales", "InputPixelOffsets",
         "OutputPixelOffsets", NULL},
        {"InterpolationMode", "RoundingDirection", "Scales", "InputPixelOffsets",
         "OutputPixelOffsets", "Antialiased", NULL}};
    if (rt_check_names(b, io, attrs[version], one_output))
        return -1;
    DML_RESAMPLE3_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    static const char *const directions[] = {"DML_AXIS_DIRECTION_INCREASING",
                                             "DML_AXIS_DIRECTION_DECREASING"};
    int rounding = 0;
    unsigned n, n_in = 0, n_out = 0;
    FLOAT *in_off = NULL, *out_off = NULL;
    if (bind_pair(b, &d->InputTensor, &d->OutputTensor) || attr_mode(b, &d->InterpolationMode) ||
        attr_enum(b, "RoundingDirection", directions, 2, 0, &rounding) ||
        attr_floats(b, "Scales", (FLOAT **)&d->Scales, &n) ||
        attr_floats(b, "InputPixelOffsets", &in_off, &n_in) ||
        attr_floats(b, "OutputPixelOffsets", &out_off, &n_out))
        return -1;
    if (version >= 1 && (n_in != n || n_out != n))
        return rt_fail(b, "attrs.InputPixelOffsets and OutputPixelOffsets must be lists of "
                          "Scales' length");
    const cJSON *aa = rt_attr(b, "Antialiased");
    if (aa != NULL && !cJSON_IsBool(aa))
        return rt_fail(b, "attrs.Antialiased must be true or false");
    d->Antialiased = cJSON_IsTrue(aa) ? 1 : 0;
    d->RoundingDirection = (DML_AXIS_DIRECTION)rounding;
    d->DimensionCount = n;
    d->InputPixelOffsets = in_off;
    d->OutputPixelOffsets = out_off;
    set_tolerance(b, d->InterpolationMode == DML_INTERPOLATION_MODE_LINEAR ? 84 : 0);
    static const DML_OPERATOR_TYPE types[] = {DML_OPERATOR_RESAMPLE, DML_OPERATOR_RESAMPLE1,
                                              DML_OPERATOR_RESAMPLE2, DML_OPERATOR_RESAMPLE3};
    b->desc.Type = types[version];
    if (version == 0) {
        DML_RESAMPLE_OPERATOR_DESC *r = rt_alloc(b, sizeof *r);
        *r = (DML_RESAMPLE_OPERATOR_DESC){d->InputTensor, d->OutputTensor, d->InterpolationMode, n,
                                          d->Scales};
        b->desc.Desc = r;
    } else if (version == 1) {
        DML_RESAMPLE1_OPERATOR_DESC *r = rt_alloc(b, sizeof *r);
        *r = (DML_RESAMPLE1_OPERATOR_DESC){
            d->InputTensor, d->OutputTensor, d->InterpolationMode, n, d->Scales, in_off, out_off};
        b->desc.Desc = r;
    } else if (version == 2) {
        DML_RESAMPLE2_OPERATOR_DESC *r = rt_alloc(b, sizeof *r);
        *r = (DML_RESAMPLE2_OPERATOR_DESC){d->InputTensor,
                                           d->OutputTensor,
                                           d->InterpolationMode,
                                           d->RoundingDirection,
                                           n,
                                           d->Scales,
                                           in_off,
                                           out_off};
        b->desc.Desc = r;
    } else {
        b->desc.Desc = d;
    }
    return 0;
}

/* RESAMPLE_GRAD and RESAMPLE_GRAD1 (the operator name's last character). */
static int build_resample_grad(rt_build *b)
{
    static const char *const grad_io[] = {"InputGradientTensor", "OutputGradientTensor", NULL};
    static const char *const grad_out[] = {"OutputGradientTensor", NULL};
    static const char *const attrs[2][6] = {
        {"InterpolationMode", "Scales", "InputPixelOffsets", "OutputPixelOffsets", NULL},
        {"InterpolationMode", "RoundingDirection", "Scales", "InputPixelOffsets",
         "OutputPixelOffsets", NULL}};
    const char *op = b->c->op;
    int version = op[strlen(op) - 1] == '1';
    if (rt_check_names(b, grad_io, attrs[version], grad_out))
        return -1;
    DML_RESAMPLE_GRAD1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    static const char *const directions[] = {"DML_AXIS_DIRECTION_INCREASING",
                                             "DML_AXIS_DIRECTION_DECREASING"};
    int rounding = 0;
    unsigned n, n_in = 0, n_out = 0;
    FLOAT *scales = NULL, *in_off = NULL, *out_off = NULL;
    if (bind_named(b, "InputGradientTensor", "OutputGradientTensor", &d->InputGradientTensor,
                   &d->OutputGradientTensor) ||
        attr_mode(b, &d->InterpolationMode) ||
        attr_enum(b, "RoundingDirection", directions, 2, 0, &rounding) ||
        attr_floats(b, "Scales", &scales, &n) ||
        attr_floats(b, "InputPixelOffsets", &in_off, &n_in) ||
        attr_floats(b, "OutputPixelOffsets", &out_off, &n_out))
        return -1;
    if (n_in != n || n_out != n)
        return rt_fail(b, "attrs.InputPixelOffsets and OutputPixelOffsets must be lists of "
                          "Scales' length");
    d->RoundingDirection = (DML_AXIS_DIRECTION)rounding;
    d->DimensionCount = n;
    d->Scales = scales;
    d->InputPixelOffsets = in_off;
    d->OutputPixelOffsets = out_off;
    if (version == 1) {
        b->desc.Type = DML_OPERATOR_RESAMPLE_GRAD1;
        b->desc.Desc = d;
        return 0;
    }
    DML_RESAMPLE_GRAD_OPERATOR_DESC *g = rt_alloc(b, sizeof *g);
    *g = (DML_RESAMPLE_GRAD_OPERATOR_DESC){d->InputGradientTensor,
                                           d->OutputGradientTensor,
                                           d->InterpolationMode,
                                           n,
                                           scales,
                                           in_off,
                                           out_off};
    b->desc.Type = DML_OPERATOR_RESAMPLE_GRAD;
    b->desc.Desc = g;
    return 0;
}

static int build_value_scale(rt_build *b)
{
    static const char *const attrs[] = {"Scale", "Bias", NULL};
    if (rt_check_names(b, io, attrs, one_output))
        return -1;
    DML_VALUE_SCALE_2D_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    FLOAT *bias;
    unsigned n;
    if (bind_pair(b, &d->InputTensor, &d->OutputTensor) ||
        (rt_attr(b, "Scale") && rt_attr_float(b, "Scale", b->c->attrs, &d->Scale)) ||
        attr_floats(b, "Bias", &bias, &n))
        return -1;
    if (rt_attr(b, "Scale") == NULL)
        d->Scale = 1;
    d->ChannelCount = n;
    d->Bias = bias;
    set_tolerance(b, 2);
    b->desc.Type = DML_OPERATOR_VALUE_SCALE_2D;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_resample[] = {
    {"DML_OPERATOR_UPSAMPLE_2D", build_upsample},
    {"DML_OPERATOR_RESAMPLE", build_resample},
    {"DML_OPERATOR_RESAMPLE1", build_resample},
    {"DML_OPERATOR_RESAMPLE2", build_resample},
    {"DML_OPERATOR_RESAMPLE3", build_resample},
    {"DML_OPERATOR_VALUE_SCALE_2D", build_value_scale},
    {"DML_OPERATOR_RESAMPLE_GRAD", build_resample_grad},
    {"DML_OPERATOR_RESAMPLE_GRAD1", build_resample_grad},
    {NULL, NULL},
};
