/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's activations (ACTIVATION_*, PARAMETERIZED_RELU with its
 * SlopeTensor) and ELEMENT_WISE_ADD1 with `FusedActivation` given as
 * {"Type": "DML_OPERATOR_ACTIVATION_...", <its FLOAT members>} (CASE-FORMAT version 3).
 * FLOAT members are numbers, or "nan", "inf", "-inf". Default tolerances on FLOAT32 and
 * FLOAT16 outputs: reference/precision.md where it names the function (ELU, GELU, SOFTPLUS
 * and their kin 18 ULP, SIGMOID 34, TANH absolute 1/1024), the count of roundings otherwise
 * (docs/operators.md); ADD1 adds ADD's 1 ULP to its activation's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

typedef struct act_op {
    const char *name; /* without "DML_OPERATOR_" */
    DML_OPERATOR_TYPE type;
    const char *params[3]; /* its FLOAT members, in order (NULL-terminated) */
    unsigned ulps;
    double abs_tol;
} act_op;

static const act_op act_ops[] = {
    {"ACTIVATION_CELU", DML_OPERATOR_ACTIVATION_CELU, {"Alpha"}, 18, 0},
    {"ACTIVATION_ELU", DML_OPERATOR_ACTIVATION_ELU, {"Alpha"}, 18, 0},
    {"ACTIVATION_GELU", DML_OPERATOR_ACTIVATION_GELU, {0}, 18, 0},
    {"ACTIVATION_HARD_SIGMOID", DML_OPERATOR_ACTIVATION_HARD_SIGMOID, {"Alpha", "Beta"}, 1, 0},
    {"ACTIVATION_HARD_SWISH", DML_OPERATOR_ACTIVATION_HARD_SWISH, {"Alpha", "Beta"}, 2, 0},
    {"ACTIVATION_IDENTITY", DML_OPERATOR_ACTIVATION_IDENTITY, {0}, 0, 0},
    {"ACTIVATION_LEAKY_RELU", DML_OPERATOR_ACTIVATION_LEAKY_RELU, {"Alpha"}, 1, 0},
    {"ACTIVATION_LINEAR", DML_OPERATOR_ACTIVATION_LINEAR, {"Alpha", "Beta"}, 2, 0},
    {"ACTIVATION_PARAMETRIC_SOFTPLUS",
     DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS,
     {"Alpha", "Beta"},
     18,
     0},
    {"ACTIVATION_RELU", DML_OPERATOR_ACTIVATION_RELU, {0}, 0, 0},
    {"ACTIVATION_SCALED_ELU", DML_OPERATOR_ACTIVATION_SCALED_ELU, {"Alpha", "Gamma"}, 18, 0},
    {"ACTIVATION_SCALED_TANH",
     DML_OPERATOR_ACTIVATION_SCALED_TANH,
     {"Alpha", "Beta"},
     0,
     1.0 / 1024},
    {"ACTIVATION_SHRINK", DML_OPERATOR_ACTIVATION_SHRINK, {"Bias", "Threshold"}, 1, 0},
    {"ACTIVATION_SIGMOID", DML_OPERATOR_ACTIVATION_SIGMOID, {0}, 34, 0},
    {"ACTIVATION_SOFTPLUS", DML_OPERATOR_ACTIVATION_SOFTPLUS, {"Steepness"}, 18, 0},
    {"ACTIVATION_SOFTSIGN", DML_OPERATOR_ACTIVATION_SOFTSIGN, {0}, 2, 0},
    {"ACTIVATION_SWISH", DML_OPERATOR_ACTIVATION_SWISH, {"SigmoidInputScale"}, 35, 0},
    {"ACTIVATION_TANH", DML_OPERATOR_ACTIVATION_TANH, {0}, 0, 1.0 / 1024},
    {"ACTIVATION_THRESHOLDED_RELU", DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU, {"Alpha"}, 0, 0},
};

static const act_op *act_find(const char *name)
{
    if (strncmp(name, "DML_OPERATOR_", 13) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof act_ops / sizeof act_ops[0]; ++i)
        if (strcmp(act_ops[i].name, name + 13) == 0)
            return &act_ops[i];
    return NULL;
}

/* A FLOAT member of obj: a number, or "nan", "inf", "-inf". */
static int read_float(rt_build *b, const cJSON *obj, const char *where, const char *name,
                      FLOAT *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (cJSON_IsNumber(v)) {
        *out = (FLOAT)v->valuedouble;
        return 0;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0) {
            *out = (FLOAT)strtod(s, NULL);
            return 0;
        }
    }
    return rt_fail(b, "%s%s must be a number (or \"nan\", \"inf\", \"-inf\")", where, name);
}

/* Every fusable activation's layout: the tensors (NULL when fused), then two FLOATs. */
typedef struct act_layout {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_layout;

static int read_params(rt_build *b, const act_op *a, const cJSON *obj, const char *where,
                       act_layout *d)
{
    for (int i = 0; i < 2 && a->params[i]; ++i)
        if (read_float(b, obj, where, a->params[i], &d->param[i]))
            return -1;
    return 0;
}

static void set_tolerance(rt_build *b, unsigned ulps, double abs_tol)
{
    DML_TENSOR_DATA_TYPE t = b->outputs[0]->type->dml;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16) {
        b->ulp_tolerance = ulps;
        b->abs_tolerance = abs_tol;
    }
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

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

static const char *const one_output[] = {"OutputTensor", NULL};

static int build_activation(rt_build *b)
{
    const act_op *a = act_find(b->c->op);
    if (a == NULL)
        return rt_fail(b, "no activation %s", b->c->op);
    static const char *const inputs[] = {"InputTensor", "OutputTensor", NULL};
    if (rt_check_names(b, inputs, a->params, one_output))
        return -1;
    act_layout *d = rt_alloc(b, sizeof *d);
    if (a->params[0] && read_params(b, a, b->c->attrs, "attrs.", d))
        return -1;
    const rt_tensor *in = bind_data(b, "InputTensor");
    if (in == NULL || (d->OutputTensor = bind_output(b, in)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    set_tolerance(b, a->ulps, a->abs_tol);
    b->desc.Type = a->type;
    b->desc.Desc = d;
    return 0;
}

static int build_parameterized_relu(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "SlopeTensor", "OutputTensor", NULL};
    static const char *const no_attrs[] = {NULL};
    if (rt_check_names(b, inputs, no_attrs, one_output))
        return -1;
    DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = bind_data(b, "InputTensor");
    const rt_tensor *slope = in ? bind_data(b, "SlopeTensor") : NULL;
    if (slope == NULL || (d->OutputTensor = bind_output(b, in)) == NULL)
        return -1;
    d->InputTensor = &in->desc;
    d->SlopeTensor = &slope->desc;
    set_tolerance(b, 1, 0);
    b->desc.Type = DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU;
    b->desc.Desc = d;
    return 0;
}

/* FusedActivation: {"Type": name, its FLOATs}; an unknown Type is passed through as a number
 * when given as one (so that a case can name a type DirectML does not fuse). */
static int read_fused(rt_build *b, const cJSON *f, DML_OPERATOR_DESC **out, const act_op **op)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(f, "Type");
    *op = NULL;
    if (!cJSON_IsObject(f) || (!cJSON_IsString(type) && !cJSON_IsNumber(type)))
        return rt_fail(b, "attrs.FusedActivation must be {\"Type\": \"DML_OPERATOR_...\", ...}");
    DML_OPERATOR_DESC *desc = rt_alloc(b, sizeof *desc);
    /* GEMM's SOFTMAX and SOFTMAX1 (feature level 6.1): {"Type": name} and, for SOFTMAX1,
     * "Axes": [the output dimensions of a row]. */
    if (cJSON_IsString(type) &&
        (strcmp(type->valuestring, "DML_OPERATOR_ACTIVATION_SOFTMAX") == 0 ||
         strcmp(type->valuestring, "DML_OPERATOR_ACTIVATION_SOFTMAX1") == 0)) {
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC *sm = rt_alloc(b, sizeof *sm);
        const int one = type->valuestring[strlen(type->valuestring) - 1] == '1';
        desc->Type = one ? DML_OPERATOR_ACTIVATION_SOFTMAX1 : DML_OPERATOR_ACTIVATION_SOFTMAX;
        desc->Desc = sm;
        if (one) {
            const cJSON *axes = cJSON_GetObjectItemCaseSensitive(f, "Axes");
            if (!cJSON_IsArray(axes))
                return rt_fail(b, "attrs.FusedActivation.Axes must be a list of dimensions");
            const int n = cJSON_GetArraySize(axes);
            UINT *v = rt_alloc(b, (size_t)(n > 0 ? n : 1) * sizeof *v);
            for (int i = 0; i < n; ++i) {
                const cJSON *e = cJSON_GetArrayItem(axes, i);
                if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 4294967295.0)
                    return rt_fail(b, "attrs.FusedActivation.Axes[%d] must be a UINT", i);
                v[i] = (UINT)e->valuedouble;
            }
            sm->AxisCount = (UINT)n;
            sm->Axes = v;
        }
        *out = desc;
        return 0;
    }
    act_layout *d = rt_alloc(b, sizeof *d);
    desc->Desc = d;
    if (cJSON_IsNumber(type)) {
        desc->Type = (DML_OPERATOR_TYPE)type->valueint;
    } else {
        *op = act_find(type->valuestring);
        if (*op == NULL)
            return rt_fail(b, "attrs.FusedActivation.Type (%s) is not an activation",
                           type->valuestring);
        desc->Type = (*op)->type;
        if (read_params(b, *op, f, "attrs.FusedActivation.", d))
            return -1;
    }
    *out = desc;
    return 0;
}

static int build_add1(rt_build *b)
{
    static const char *const inputs[] = {"ATensor", "BTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {"FusedActivation", NULL};
    if (rt_check_names(b, inputs, attrs, one_output))
        return -1;
    DML_ELEMENT_WISE_ADD1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const act_op *fused = NULL;
    const cJSON *f = rt_attr(b, "FusedActivation");
    DML_OPERATOR_DESC *fd = NULL;
    if (f != NULL && read_fused(b, f, &fd, &fused))
        return -1;
    d->FusedActivation = fd;
    const rt_tensor *a = bind_data(b, "ATensor");
    const rt_tensor *bt = a ? bind_data(b, "BTensor") : NULL;
    if (bt == NULL || (d->OutputTensor = bind_output(b, a)) == NULL)
        return -1;
    d->ATensor = &a->desc;
    d->BTensor = &bt->desc;
    set_tolerance(b, 1 + (fused ? fused->ulps : 0), fused ? fused->abs_tol : 0);
    b->desc.Type = DML_OPERATOR_ELEMENT_WISE_ADD1;
    b->desc.Desc = d;
    return 0;
}

int rt_fused_activation(rt_build *b, DML_OPERATOR_DESC **out, unsigned *ulps, double *abs_tol)
{
    const act_op *fused = NULL;
    const cJSON *f = rt_attr(b, "FusedActivation");
    *out = NULL;
    *ulps = 0;
    *abs_tol = 0;
    if (f == NULL)
        return 0;
    if (read_fused(b, f, out, &fused))
        return -1;
    if (fused) {
        *ulps = fused->ulps;
        *abs_tol = fused->abs_tol;
    }
    return 0;
}

int rt_activation_list(rt_build *b, const char *name, DML_OPERATOR_DESC **descs, UINT *count)
{
    const cJSON *list = rt_attr(b, name);
    *descs = NULL;
    *count = 0;
    if (list == NULL)
        return 0;
    if (!cJSON_IsArray(list))
        return rt_fail(b, "attrs.%s must be a list of {\"Type\": \"DML_OPERATOR_...\", ...}", name);
    int n = cJSON_GetArraySize(list);
    DML_OPERATOR_DESC *all = rt_alloc(b, (size_t)(n > 0 ? n : 1) * sizeof *all);
    for (int i = 0; i < n; ++i) {
        DML_OPERATOR_DESC *one = NULL;
        const act_op *op = NULL;
        if (read_fused(b, cJSON_GetArrayItem(list, i), &one, &op))
            return -1;
        all[i] = *one;
    }
    *descs = all;
    *count = (UINT)n;
    return 0;
}

const rt_op rt_ops_activation[] = {
    {"DML_OPERATOR_ACTIVATION_CELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_ELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_GELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_HARD_SIGMOID", build_activation},
    {"DML_OPERATOR_ACTIVATION_HARD_SWISH", build_activation},
    {"DML_OPERATOR_ACTIVATION_IDENTITY", build_activation},
    {"DML_OPERATOR_ACTIVATION_LEAKY_RELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_LINEAR", build_activation},
    {"DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS", build_activation},
    {"DML_OPERATOR_ACTIVATION_RELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_SCALED_ELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_SCALED_TANH", build_activation},
    {"DML_OPERATOR_ACTIVATION_SHRINK", build_activation},
    {"DML_OPERATOR_ACTIVATION_SIGMOID", build_activation},
    {"DML_OPERATOR_ACTIVATION_SOFTPLUS", build_activation},
    {"DML_OPERATOR_ACTIVATION_SOFTSIGN", build_activation},
    {"DML_OPERATOR_ACTIVATION_SWISH", build_activation},
    {"DML_OPERATOR_ACTIVATION_TANH", build_activation},
    {"DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU", build_activation},
    {"DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU", build_parameterized_relu},
    {"DML_OPERATOR_ELEMENT_WISE_ADD1", build_add1},
    {NULL, NULL},
};
