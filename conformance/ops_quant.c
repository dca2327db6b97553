/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR
 * (src/ops/elementwise_quant.c): inputs InputTensor, ScaleTensor, the optional ZeroPointTensor
 * (absent: a NULL descriptor, feature level 6.2) and OutputTensor (a description without data,
 * or the expected output's type and shape); no attributes. Both are exact by default: QUANTIZE
 * writes integers, DEQUANTIZE rounds once (docs/operators.md).
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

const rt_op rt_ops_quant[] = {
    {"DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR", build_quant},
    {"DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR", build_quant},
    {NULL, NULL},
};
