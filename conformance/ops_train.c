/* SPDX-License-Identifier: MIT */
/*
 * Builders for LOCAL_RESPONSE_NORMALIZATION_GRAD and ADAM_OPTIMIZER (src/ops/lrn_grad.c,
 * src/ops/adam.c).
 *
 * LOCAL_RESPONSE_NORMALIZATION_GRAD: inputs InputTensor and InputGradientTensor, the output
 * OutputGradientTensor (described by the case's expected output, or by an input entry without
 * data); attrs CrossChannel (a boolean, default false), LocalSize (default 1), Alpha (1e-4),
 * Beta (0.75), Bias (1), as LOCAL_RESPONSE_NORMALIZATION's builder reads them. Default
 * tolerance: 40 + 5 W ULP (W the window's elements, docs/operators.md); a case whose sum
 * cancels gives its own absolute one.
 *
 * ADAM_OPTIMIZER: the inputs InputParametersTensor, InputFirstMomentTensor,
 * InputSecondMomentTensor, GradientTensor and TrainingStepTensor, the outputs
 * OutputParametersTensor, OutputFirstMomentTensor and OutputSecondMomentTensor (each described
 * by the expected outputs or an input entry without data); attrs LearningRate (default 0.001),
 * Beta1 (0.9), Beta2 (0.999), Epsilon (1e-8). Default tolerance 100 ULP (two pows of 32, a
 * square root and quotients); the cases give their own per output.
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static const rt_tensor *bind_data(rt_build *b, const char *name)
{
    const rt_tensor *t = rt_data_input(b, name);
    return t != NULL && rt_bind_input(b, t) == 0 ? t : NULL;
}

/* An output described by an input entry without data or the expected output, else like. */
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

/* A FLOAT attribute (absent: def). */
static int attr_real(rt_build *b, const char *name, FLOAT def, FLOAT *out)
{
    *out = def;
    return rt_attr(b, name) ? rt_attr_float(b, name, b->c->attrs, out) : 0;
}

static int build_lrn_grad(rt_build *b)
{
    static const char *const in[] = {"InputTensor", "InputGradientTensor", "OutputGradientTensor",
                                     NULL};
    static const char *const attrs[] = {"CrossChannel", "LocalSize", "Alpha", "Beta", "Bias", NULL};
    static const char *const out[] = {"OutputGradientTensor", NULL};
    if (rt_check_names(b, in, attrs, out))
        return -1;
    DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (rt_attr_bool(b, "CrossChannel", &d->CrossChannel) ||
        rt_attr_uint(b, "LocalSize", 1, &d->LocalSize) || attr_real(b, "Alpha", 1e-4f, &d->Alpha) ||
        attr_real(b, "Beta", 0.75f, &d->Beta) || attr_real(b, "Bias", 1.0f, &d->Bias))
        return -1;
    const rt_tensor *x = bind_data(b, "InputTensor");
    const rt_tensor *dy = x ? bind_data(b, "InputGradientTensor") : NULL;
    if (x == NULL || dy == NULL ||
        (d->OutputGradientTensor = bind_output(b, "OutputGradientTensor", x)) == NULL)
        return -1;
    d->InputTensor = &x->desc;
    d->InputGradientTensor = &dy->desc;
    unsigned n = d->LocalSize > 64 ? 64 : d->LocalSize;
    b->ulp_tolerance = 40 + 5 * (d->CrossChannel ? n : n * n);
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD, d};
    return 0;
}

static int build_adam(rt_build *b)
{
    static const char *const in[] = {
        "InputParametersTensor",   "InputFirstMomentTensor",   "InputSecondMomentTensor",
        "GradientTensor",          "TrainingStepTensor",       "OutputParametersTensor",
        "OutputFirstMomentTensor", "OutputSecondMomentTensor", NULL};
    static const char *const attrs[] = {"LearningRate", "Beta1", "Beta2", "Epsilon", NULL};
    static const char *const outs[] = {"OutputParametersTensor", "OutputFirstMomentTensor",
                                       "OutputSecondMomentTensor", NULL};
    if (rt_check_names(b, in, attrs, outs))
        return -1;
    DML_ADAM_OPTIMIZER_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    if (attr_real(b, "LearningRate", 0.001f, &d->LearningRate) ||
        attr_real(b, "Beta1", 0.9f, &d->Beta1) || attr_real(b, "Beta2", 0.999f, &d->Beta2) ||
        attr_real(b, "Epsilon", 1e-8f, &d->Epsilon))
        return -1;
    const DML_TENSOR_DESC **members = (const DML_TENSOR_DESC **)d;
    const rt_tensor *first = NULL;
    for (int i = 0; i < 5; ++i) {
        const rt_tensor *t = bind_data(b, in[i]);
        if (t == NULL)
            return -1;
        first = first ? first : t;
        members[i] = &t->desc;
    }
    for (int o = 0; o < 3; ++o)
        if ((members[5 + o] = bind_output(b, outs[o], first)) == NULL)
            return -1;
    b->ulp_tolerance = 100;
    b->desc = (DML_OPERATOR_DESC){DML_OPERATOR_ADAM_OPTIMIZER, d};
    return 0;
}

const rt_op rt_ops_train[] = {
    {"DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD", build_lrn_grad},
    {"DML_OPERATOR_ADAM_OPTIMIZER", build_adam},
    {NULL, NULL},
};
