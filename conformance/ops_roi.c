/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's region and window operators: ROI_POOLING (`SpatialScale`, absent 1;
 * `PooledSize` {"Width", "Height"}, absent: the output's last two sizes), ROI_ALIGN and
 * ROI_ALIGN1 (`ReductionFunction` "DML_REDUCE_FUNCTION_AVERAGE" or "_MAX" (absent AVERAGE),
 * `InterpolationMode` "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR" or "_LINEAR" (absent LINEAR),
 * `SpatialScaleX`, `SpatialScaleY` (absent 1), `OutOfBoundsInputValue` (absent 0),
 * `MinimumSamplesPerOutput` (absent 1), `MaximumSamplesPerOutput` (absent 2^32 - 1); ROI_ALIGN1
 * also `InputPixelOffset` (absent 0.5), `OutputPixelOffset` (absent -0.5),
 * `AlignRegionsToCorners` (absent false)), FOLD and UNFOLD (`DimensionCount`, absent: the
 * image's DimensionCount - 2; `WindowSizes`; `Strides`, `Dilations` absent 1s; `StartPadding`,
 * `EndPadding` absent 0s). Tensors are the members, bound in the descriptor's order; the
 * output is OutputTensor as described under `inputs` or as expected.
 *
 * ROI_ALIGN_GRAD: ROI_ALIGN1's attrs but OutOfBoundsInputValue; tensors InputTensor (optional),
 * InputGradientTensor, ROITensor, BatchIndicesTensor, and the optional outputs
 * OutputGradientTensor and OutputROIGradientTensor (each present where described under inputs
 * or expected). Its sums' tolerances depend on the case (gen/roi_grad.py states each); absent
 * one, 2^-12 absolute and 8 ULP as ROI_ALIGN*.
 *
 * Default tolerances (docs/operators.md): ROI_POOLING and UNFOLD exact; ROI_ALIGN* 2^-12
 * absolute (float32 sample positions and weights) and 8 ULP; FOLD on floats K + 2 ULP (a sum of
 * at most K = the window's positions, reference/precision.md's reduce sum).
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* OutputTensor as described under inputs, else as expected. */
static rt_tensor *bind_out(rt_build *b)
{
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
        return NULL;
    }
    if (src == NULL) {
        rt_fail(b, "OutputTensor: neither described under inputs nor expected");
        return NULL;
    }
    rt_tensor *t = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                 src->has_strides ? src->strides : NULL);
    if (t == NULL)
        rt_fail(b, "OutputTensor: cannot be built");
    return t;
}

static int attr_float_or(rt_build *b, const char *name, FLOAT def, FLOAT *out)
{
    *out = def;
    return rt_attr(b, name) ? rt_attr_float(b, name, b->c->attrs, out) : 0;
}

static int attr_enum(rt_build *b, const char *attr, const char *const *names, const int *values,
                     unsigned n, int def, int *out)
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
            *out = values[i];
            return 0;
        }
    return rt_fail(b, "attrs.%s must be one of its enumeration's names", attr);
}

static bool is_float(const rt_tensor *t)
{
    return t->type->dml == DML_TENSOR_DATA_TYPE_FLOAT32 ||
           t->type->dml == DML_TENSOR_DATA_TYPE_FLOAT16;
}

static int build_roi_pooling(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "ROITensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"SpatialScale", "PooledSize", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    DML_ROI_POOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_check_names(b, inputs, attrs, outputs) ||
        attr_float_or(b, "SpatialScale", 1.0f, &d->SpatialScale))
        return -1;
    const rt_tensor *x = bind_data(b, "InputTensor");
    const rt_tensor *r = x ? bind_data(b, "ROITensor") : NULL;
    rt_tensor *y = r ? bind_out(b) : NULL;
    if (y == NULL)
        return -1;
    d->InputTensor = &x->desc;
    d->ROITensor = &r->desc;
    d->OutputTensor = &y->desc;
    d->PooledSize.Height = y->rank >= 2 ? y->sizes[y->rank - 2] : 1;
    d->PooledSize.Width = y->rank >= 1 ? y->sizes[y->rank - 1] : 1;
    const cJSON *ps = rt_attr(b, "PooledSize");
    if (ps != NULL &&
        (rt_attr_float(b, "Width", ps, &(FLOAT){0}) || rt_attr_float(b, "Height", ps, &(FLOAT){0})))
        return -1;
    if (ps != NULL) {
        d->PooledSize.Width = (UINT)cJSON_GetObjectItemCaseSensitive(ps, "Width")->valuedouble;
        d->PooledSize.Height = (UINT)cJSON_GetObjectItemCaseSensitive(ps, "Height")->valuedouble;
    }
    b->desc.Type = DML_OPERATOR_ROI_POOLING;
    b->desc.Desc = d;
    return 0;
}

static int build_roi_align(rt_build *b)
{
    bool v1 = strcmp(b->c->op, "DML_OPERATOR_ROI_ALIGN1") == 0;
    static const char *const inputs[] = {"InputTensor", "ROITensor", "BatchIndicesTensor",
                                         "OutputTensor", NULL};
    static const char *const attrs0[] = {"ReductionFunction",       "InterpolationMode",
                                         "SpatialScaleX",           "SpatialScaleY",
                                         "OutOfBoundsInputValue",   "MinimumSamplesPerOutput",
                                         "MaximumSamplesPerOutput", NULL};
    static const char *const attrs1[] = {"ReductionFunction",
                                         "InterpolationMode",
                                         "SpatialScaleX",
                                         "SpatialScaleY",
                                         "InputPixelOffset",
                                         "OutputPixelOffset",
                                         "OutOfBoundsInputValue",
                                         "MinimumSamplesPerOutput",
                                         "MaximumSamplesPerOutput",
                                         "AlignRegionsToCorners",
                                         NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    static const char *const reductions[] = {"DML_REDUCE_FUNCTION_AVERAGE",
                                             "DML_REDUCE_FUNCTION_MAX"};
    static const int reduction_values[] = {DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_MAX};
    static const char *const modes[] = {"DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                                        "DML_INTERPOLATION_MODE_LINEAR"};
    static const int mode_values[] = {DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                      DML_INTERPOLATION_MODE_LINEAR};
    DML_ROI_ALIGN1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    int reduction, mode;
    if (rt_check_names(b, inputs, v1 ? attrs1 : attrs0, outputs) ||
        attr_enum(b, "ReductionFunction", reductions, reduction_values, 2,
                  DML_REDUCE_FUNCTION_AVERAGE, &reduction) ||
        attr_enum(b, "InterpolationMode", modes, mode_values, 2, DML_INTERPOLATION_MODE_LINEAR,
                  &mode) ||
        attr_float_or(b, "SpatialScaleX", 1.0f, &d->SpatialScaleX) ||
        attr_float_or(b, "SpatialScaleY", 1.0f, &d->SpatialScaleY) ||
        attr_float_or(b, "InputPixelOffset", 0.5f, &d->InputPixelOffset) ||
        attr_float_or(b, "OutputPixelOffset", -0.5f, &d->OutputPixelOffset) ||
        attr_float_or(b, "OutOfBoundsInputValue", 0.0f, &d->OutOfBoundsInputValue) ||
        rt_attr_uint(b, "MinimumSamplesPerOutput", 1, &d->MinimumSamplesPerOutput) ||
        rt_attr_uint(b, "MaximumSamplesPerOutput", UINT32_MAX, &d->MaximumSamplesPerOutput) ||
        rt_attr_bool(b, "AlignRegionsToCorners", &d->AlignRegionsToCorners))
        return -1;
    d->ReductionFunction = (DML_REDUCE_FUNCTION)reduction;
    d->InterpolationMode = (DML_INTERPOLATION_MODE)mode;
    const rt_tensor *x = bind_data(b, "InputTensor");
    const rt_tensor *r = x ? bind_data(b, "ROITensor") : NULL;
    const rt_tensor *i = r ? bind_data(b, "BatchIndicesTensor") : NULL;
    rt_tensor *y = i ? bind_out(b) : NULL;
    if (y == NULL)
        return -1;
    d->InputTensor = &x->desc;
    d->ROITensor = &r->desc;
    d->BatchIndicesTensor = &i->desc;
    d->OutputTensor = &y->desc;
    if (is_float(y)) {
        b->ulp_tolerance = 8;
        b->abs_tolerance = 1.0 / 4096;
    }
    if (v1) {
        b->desc.Type = DML_OPERATOR_ROI_ALIGN1;
        b->desc.Desc = d;
        return 0;
    }
    DML_ROI_ALIGN_OPERATOR_DESC *d0 = rt_alloc(b, sizeof *d0);
    *d0 = (DML_ROI_ALIGN_OPERATOR_DESC){d->InputTensor,
                                        d->ROITensor,
                                        d->BatchIndicesTensor,
                                        d->OutputTensor,
                                        d->ReductionFunction,
                                        d->InterpolationMode,
                                        d->SpatialScaleX,
                                        d->SpatialScaleY,
                                        d->OutOfBoundsInputValue,
                                        d->MinimumSamplesPerOutput,
                                        d->MaximumSamplesPerOutput};
    b->desc.Type = DML_OPERATOR_ROI_ALIGN;
    b->desc.Desc = d0;
    return 0;
}

static int build_roi_align_grad(rt_build *b)
{
    static const char *const inputs[] = {
        "InputTensor",          "InputGradientTensor",     "ROITensor", "BatchIndicesTensor",
        "OutputGradientTensor", "OutputROIGradientTensor", NULL};
    static const char *const attrs[] = {"ReductionFunction",       "InterpolationMode",
                                        "SpatialScaleX",           "SpatialScaleY",
                                        "InputPixelOffset",        "OutputPixelOffset",
                                        "MinimumSamplesPerOutput", "MaximumSamplesPerOutput",
                                        "AlignRegionsToCorners",   NULL};
    static const char *const outputs[] = {"OutputGradientTensor", "OutputROIGradientTensor", NULL};
    static const char *const reductions[] = {"DML_REDUCE_FUNCTION_AVERAGE",
                                             "DML_REDUCE_FUNCTION_MAX"};
    static const int reduction_values[] = {DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_MAX};
    static const char *const modes[] = {"DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                                        "DML_INTERPOLATION_MODE_LINEAR"};
    static const int mode_values[] = {DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                      DML_INTERPOLATION_MODE_LINEAR};
    DML_ROI_ALIGN_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    int reduction, mode;
    if (rt_check_names(b, inputs, attrs, outputs) ||
        attr_enum(b, "ReductionFunction", reductions, reduction_values, 2,
                  DML_REDUCE_FUNCTION_AVERAGE, &reduction) ||
        attr_enum(b, "InterpolationMode", modes, mode_values, 2, DML_INTERPOLATION_MODE_LINEAR,
                  &mode) ||
        attr_float_or(b, "SpatialScaleX", 1.0f, &d->SpatialScaleX) ||
        attr_float_or(b, "SpatialScaleY", 1.0f, &d->SpatialScaleY) ||
        attr_float_or(b, "InputPixelOffset", 0.5f, &d->InputPixelOffset) ||
        attr_float_or(b, "OutputPixelOffset", -0.5f, &d->OutputPixelOffset) ||
        rt_attr_uint(b, "MinimumSamplesPerOutput", 1, &d->MinimumSamplesPerOutput) ||
        rt_attr_uint(b, "MaximumSamplesPerOutput", UINT32_MAX, &d->MaximumSamplesPerOutput) ||
        rt_attr_bool(b, "AlignRegionsToCorners", &d->AlignRegionsToCorners))
        return -1;
    d->ReductionFunction = (DML_REDUCE_FUNCTION)reduction;
    d->InterpolationMode = (DML_INTERPOLATION_MODE)mode;
    if (rt_optional_input(b, "InputTensor", &d->InputTensor) ||
        rt_required_input(b, "InputGradientTensor", &d->InputGradientTensor) ||
        rt_required_input(b, "ROITensor", &d->ROITensor) ||
        rt_required_input(b, "BatchIndicesTensor", &d->BatchIndicesTensor) ||
        rt_optional_output(b, "OutputGradientTensor", &d->OutputGradientTensor) ||
        rt_optional_output(b, "OutputROIGradientTensor", &d->OutputROIGradientTensor))
        return -1;
    b->ulp_tolerance = 8;
    b->abs_tolerance = 1.0 / 4096;
    b->desc.Type = DML_OPERATOR_ROI_ALIGN_GRAD;
    b->desc.Desc = d;
    return 0;
}

/* A list of `count` entries (absent: def each). */
static int attr_list(rt_build *b, const char *name, unsigned count, UINT def, bool required,
                     UINT **out)
{
    UINT *vals;
    unsigned n;
    if (rt_attr_uint_list(b, name, &vals, &n))
        return -1;
    if (vals == NULL && required)
        return rt_fail(b, "attrs.%s is required", name);
    UINT *a = rt_alloc(b, (count ? count : 1) * sizeof *a);
    for (unsigned i = 0; i < count; ++i)
        a[i] = def;
    if (vals != NULL) {
        if (n != count)
            return rt_fail(b, "attrs.%s has %u entries; DimensionCount is %u", name, n, count);
        memcpy(a, vals, count * sizeof *a);
    }
    *out = a;
    return 0;
}

static int build_fold(rt_build *b)
{
    bool fold = strcmp(b->c->op, "DML_OPERATOR_FOLD") == 0;
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"DimensionCount", "WindowSizes", "Strides", "Dilations",
                                        "StartPadding",   "EndPadding",  NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    const rt_tensor *x = bind_data(b, "InputTensor");
    rt_tensor *y = x ? bind_out(b) : NULL;
    if (y == NULL)
        return -1;
    const rt_tensor *img = fold ? y : x;
    UINT dims = img->rank >= 2 ? img->rank - 2 : 0;
    if (rt_attr_uint(b, "DimensionCount", dims, &dims))
        return -1;
    unsigned n = dims > 8 ? 8 : dims;
    UINT *window, *strides, *dilations, *start, *end;
    if (attr_list(b, "WindowSizes", n, 1, true, &window) ||
        attr_list(b, "Strides", n, 1, false, &strides) ||
        attr_list(b, "Dilations", n, 1, false, &dilations) ||
        attr_list(b, "StartPadding", n, 0, false, &start) ||
        attr_list(b, "EndPadding", n, 0, false, &end))
        return -1;
    if (fold && is_float(y)) {
        unsigned k = 1;
        for (unsigned i = 0; i < n && k < 100000; ++i)
            k *= window[i] ? window[i] : 1;
        b->ulp_tolerance = k + 2;
    }
    if (fold) {
        DML_FOLD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_FOLD_OPERATOR_DESC){&x->desc, &y->desc,  dims,  window,
                                      strides,  dilations, start, end};
        b->desc.Type = DML_OPERATOR_FOLD;
        b->desc.Desc = d;
    } else {
        DML_UNFOLD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_UNFOLD_OPERATOR_DESC){&x->desc, &y->desc,  dims,  window,
                                        strides,  dilations, start, end};
        b->desc.Type = DML_OPERATOR_UNFOLD;
        b->desc.Desc = d;
    }
    return 0;
}

const rt_op rt_ops_roi[] = {
    {"DML_OPERATOR_ROI_POOLING", build_roi_pooling},
    {"DML_OPERATOR_ROI_ALIGN", build_roi_align},
    {"DML_OPERATOR_ROI_ALIGN1", build_roi_align},
    {"DML_OPERATOR_ROI_ALIGN_GRAD", build_roi_align_grad},
    {"DML_OPERATOR_FOLD", build_fold},
    {"DML_OPERATOR_UNFOLD", build_fold},
    {NULL, NULL},
};
