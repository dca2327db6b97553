/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR
 * (src/ops/elementwise_quant.c): inputs InputTensor, ScaleTensor, the optional ZeroPointTensor
 * (absent: a NULL descriptor, feature level 6.2) and OutputTensor (a description without data,
 * or the expected output's type and shape); no attributes. Both are exact by default: QUANTIZE
 * writes integers, DEQUANTIZE rounds once (docs/operators.md).
 *
 * DML_OPERATOR_QUANTIZE and DML_OPERATOR_DEQUANTIZE (6.3): InputTensor, QuantizationTensors (a
 * list: the scale, then the zero point), OutputTensor; attrs QuantizationType (its DirectML
 * name or number; absent: SCALE_ZERO_POINT with two tensors listed, else SCALE) and
 * QuantizationTensorCount (absent: the list's length). DML_OPERATOR_ELEMENT_WISE_QUANTIZED_
 * LINEAR_ADD: ATensor, AScaleTensor, AZeroPointTensor, BTensor, BScaleTensor, BZeroPointTensor,
 * OutputScaleTensor, OutputZeroPointTensor (the zero points optional), OutputTensor.
 * DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR: InputTensor; outputs OutputTensor, OutputScaleTensor,
 * OutputZeroPointTensor (descriptions under inputs, or the expected outputs'). All exact.
 */
#include <string.h>

#include "runner.h"

static int build_quant(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "ScaleTensor", "ZeroPointTensor",
                                         "OutputTensor", NULL};
    static const char *const no_attrs[] = {NULL}, *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, no_attrs, outputs))
        return -1;
    DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    const rt_tensor *scale = rt_data_input(b, "ScaleTensor");
    if (scale == NULL || rt_bind_input(b, scale))
        return -1;
    const rt_tensor *zp = NULL;
    if (rt_input(b, "ZeroPointTensor") == NULL) {
        if (rt_bind_input(b, NULL))
            return -1;
    } else if ((zp = rt_data_input(b, "ZeroPointTensor")) == NULL || rt_bind_input(b, zp)) {
        return -1;
    }
    const rt_tensor *given = rt_input(b, "OutputTensor");
    const rt_tensor *src = given ? given : rt_expected(b, "OutputTensor");
    if (given != NULL && given->elems != NULL)
        return rt_fail(b, "inputs.OutputTensor describes the output and takes no data");
    if (src == NULL)
        return rt_fail(b,
                       "%s needs inputs.OutputTensor or an expected OutputTensor (its type "
                       "is not the input's)",
                       b->c->op);
    rt_tensor *out = rt_add_output(b, "OutputTensor", src->type, src->rank, src->sizes,
                                   src->has_strides ? src->strides : NULL);
    if (out == NULL)
        return -1;
    /* DEQUANTIZE's descriptor has the same members. */
    *d = (DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC){&in->desc, &scale->desc,
                                                          zp ? &zp->desc : NULL, &out->desc};
    b->desc.Type = strcmp(b->c->op, "DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR") == 0
                       ? DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR
                       : DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR;
    b->desc.Desc = d;
    return 0;
}

/* Output name: inputs.<name> (a description), else the expected one's type and shape. */
static const DML_TENSOR_DESC *bind_named_out(rt_build *b, const char *name)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes an output and takes no data", name);
        return NULL;
    }
    if (src == NULL) {
        rt_fail(b, "%s needs inputs.%s or an expected %s", b->c->op, name, name);
        return NULL;
    }
    rt_tensor *out = rt_add_output(b, name, src->type, src->rank, src->sizes,
                                   src->has_strides ? src->strides : NULL);
    return out ? &out->desc : NULL;
}

static const DML_TENSOR_DESC *bind_out(rt_build *b)
{
    return bind_named_out(b, "OutputTensor");
}

static int build_dynamic_quantize(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputTensor", "OutputScaleTensor",
                                         "OutputZeroPointTensor", NULL};
    static const char *const no_attrs[] = {NULL};
    static const char *const outputs[] = {"OutputTensor", "OutputScaleTensor",
                                          "OutputZeroPointTensor", NULL};
    if (rt_check_names(b, inputs, no_attrs, outputs))
        return -1;
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    d->InputTensor = &in->desc;
    if ((d->OutputTensor = bind_named_out(b, "OutputTensor")) == NULL ||
        (d->OutputScaleTensor = bind_named_out(b, "OutputScaleTensor")) == NULL ||
        (d->OutputZeroPointTensor = bind_named_out(b, "OutputZeroPointTensor")) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR;
    b->desc.Desc = d;
    return 0;
}

static int build_quant_list(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "QuantizationTensors", "OutputTensor",
                                         NULL};
    static const char *const attrs[] = {"QuantizationType", "QuantizationTensorCount", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    static const char *const types[] = {"DML_QUANTIZATION_TYPE_NONE", "DML_QUANTIZATION_TYPE_SCALE",
                                        "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT"};
    const rt_tensor *const *q = NULL;
    unsigned n = 0;
    if (rt_check_names(b, inputs, attrs, outputs) ||
        rt_input_list(b, "QuantizationTensors", &q, &n, NULL))
        return -1;
    DML_QUANTIZE_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const cJSON *qt = rt_attr(b, "QuantizationType");
    int type = n == 2 ? DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT : DML_QUANTIZATION_TYPE_SCALE;
    if (qt != NULL && cJSON_IsNumber(qt)) {
        type = qt->valueint;
    } else if (qt != NULL) {
        int found = -1;
        for (int i = 0; i < 3; ++i)
            if (cJSON_IsString(qt) && strcmp(qt->valuestring, types[i]) == 0)
                found = i;
        if (found < 0)
            return rt_fail(b, "attrs.QuantizationType must be a DML_QUANTIZATION_TYPE name");
        type = found;
    }
    d->QuantizationType = (DML_QUANTIZATION_TYPE)type;
    if (rt_attr_uint(b, "QuantizationTensorCount", n, &d->QuantizationTensorCount))
        return -1;
    if (d->QuantizationTensorCount > n)
        return rt_fail(b,
                       "attrs.QuantizationTensorCount (%u) is more than "
                       "inputs.QuantizationTensors holds (%u)",
                       d->QuantizationTensorCount, n);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    DML_TENSOR_DESC *descs = rt_alloc(b, (n ? n : 1) * sizeof *descs);
    for (unsigned i = 0; i < n; ++i) {
        if (q[i]->elems == NULL && q[i]->count != 0)
            return rt_fail(b, "inputs.QuantizationTensors[%u] has no data", i);
        if (rt_bind_input(b, q[i]))
            return -1;
        descs[i] = q[i]->desc;
    }
    d->InputTensor = &in->desc;
    d->QuantizationTensors = descs;
    if ((d->OutputTensor = bind_out(b)) == NULL)
        return -1;
    b->desc.Type = strcmp(b->c->op, "DML_OPERATOR_QUANTIZE") == 0 ? DML_OPERATOR_QUANTIZE
                                                                  : DML_OPERATOR_DEQUANTIZE;
    b->desc.Desc = d; /* DEQUANTIZE's descriptor has the same members */
    return 0;
}

static int build_quantized_add(rt_build *b)
{
    static const char *const inputs[] = {"ATensor",           "AScaleTensor",
                                         "AZeroPointTensor",  "BTensor",
                                         "BScaleTensor",      "BZeroPointTensor",
                                         "OutputScaleTensor", "OutputZeroPointTensor",
                                         "OutputTensor",      NULL};
    static const char *const no_attrs[] = {NULL}, *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, no_attrs, outputs))
        return -1;
    const DML_TENSOR_DESC *m[8];
    for (int k = 0; k < 8; ++k) {
        const rt_tensor *t = NULL;
        int optional = k == 2 || k == 5 || k == 7;
        if (optional && rt_input(b, inputs[k]) == NULL) {
            if (rt_bind_input(b, NULL))
                return -1;
            m[k] = NULL;
            continue;
        }
        if ((t = rt_data_input(b, inputs[k])) == NULL || rt_bind_input(b, t))
            return -1;
        m[k] = &t->desc;
    }
    DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    *d = (DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC){m[0], m[1], m[2], m[3], m[4],
                                                               m[5], m[6], m[7], NULL};
    if ((d->OutputTensor = bind_out(b)) == NULL)
        return -1;
    b->desc.Type = DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_quant[] = {
    {"DML_OPERATOR_QUANTIZE", build_quant_list},
    {"DML_OPERATOR_DEQUANTIZE", build_quant_list},
    {"DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD", build_quantized_add},
    {"DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR", build_dynamic_quantize},
    {"DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR", build_quant},
    {"DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR", build_quant},
    {NULL, NULL},
};
