/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's MULTIHEAD_ATTENTION and MULTIHEAD_ATTENTION1 (src/ops/attention.c):
 * the descriptor's tensors by their member names (every input optional: an absent one NULL,
 * its slot bound empty), the present outputs described under inputs (no data) or by the
 * expected outputs (an output neither gives is absent); attributes `Scale` and
 * `MaskFilterValue` (default 1 and 0), `HeadCount` (MULTIHEAD_ATTENTION) or `QueryHeadCount`
 * and `KeyValueHeadCount` (MULTIHEAD_ATTENTION1), `MaskType` (a DML_MULTIHEAD_ATTENTION_MASK_
 * TYPE name or number). Float outputs need the case's tolerance: the default is exact.
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static int attr_mask_type(rt_build *b, DML_MULTIHEAD_ATTENTION_MASK_TYPE *out)
{
    static const char *const names[] = {
        "DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE",
        "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH",
        "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START",
        "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END",
        "DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN"};
    const cJSON *v = rt_attr(b, "MaskType");
    *out = DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v) && rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_MULTIHEAD_ATTENTION_MASK_TYPE)v->valueint;
        return 0;
    }
    for (int i = 0; i < 5 && cJSON_IsString(v); ++i)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (DML_MULTIHEAD_ATTENTION_MASK_TYPE)i;
            return 0;
        }
    return rt_fail(b, "attrs.MaskType must be a DML_MULTIHEAD_ATTENTION_MASK_TYPE name");
}

static int attr_float_or(rt_build *b, const char *name, FLOAT def, FLOAT *out)
{
    *out = def;
    return rt_attr(b, name) ? rt_attr_float(b, name, b->c->attrs, out) : 0;
}

static int build_mha(rt_build *b)
{
    const bool v1 = strcmp(b->c->op, "DML_OPERATOR_MULTIHEAD_ATTENTION1") == 0;
    const char *const ins[] = {"QueryTensor",
                               "KeyTensor",
                               "ValueTensor",
                               "StackedQueryKeyTensor",
                               "StackedKeyValueTensor",
                               "StackedQueryKeyValueTensor",
                               "BiasTensor",
                               "MaskTensor",
                               "RelativePositionBiasTensor",
                               "PastKeyTensor",
                               "PastValueTensor",
                               v1 ? "PastSequenceLengthsTensor" : NULL};
    static const char *const outs[] = {"OutputTensor", "OutputPresentKeyTensor",
                                       "OutputPresentValueTensor", NULL};
    const char *names[16];
    unsigned n = 0;
    for (unsigned i = 0; i < 12 && ins[i]; ++i)
        names[n++] = ins[i];
    for (unsigned i = 0; outs[i]; ++i)
        names[n++] = outs[i];
    names[n] = NULL;
    const char *const attrs[] = {"Scale",
                                 "MaskFilterValue",
                                 "MaskType",
                                 v1 ? "QueryHeadCount" : "HeadCount",
                                 v1 ? "KeyValueHeadCount" : NULL,
                                 NULL};
    if (rt_check_names(b, names, attrs, outs))
        return -1;
    const DML_TENSOR_DESC *t[15] = {0};
    unsigned n_in = v1 ? 12 : 11;
    for (unsigned i = 0; i < n_in; ++i)
        if (rt_optional_input(b, ins[i], &t[i]))
            return -1;
    for (unsigned i = 0; i < 3; ++i)
        if (rt_optional_output(b, outs[i], &t[12 + i]))
            return -1;
    FLOAT scale, filter;
    UINT heads, kv_heads = 0;
    DML_MULTIHEAD_ATTENTION_MASK_TYPE mask_type;
    if (attr_float_or(b, "Scale", 1.0f, &scale) ||
        attr_float_or(b, "MaskFilterValue", 0.0f, &filter) || attr_mask_type(b, &mask_type) ||
        rt_attr_uint(b, v1 ? "QueryHeadCount" : "HeadCount", 0, &heads) ||
        (v1 && rt_attr_uint(b, "KeyValueHeadCount", 0, &kv_heads)))
        return -1;
    if (v1) {
        DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC){
            t[0],  t[1],  t[2],  t[3],  t[4],  t[5],  t[6],   t[7],  t[8],     t[9],
            t[10], t[11], t[12], t[13], t[14], scale, filter, heads, kv_heads, mask_type};
        b->desc.Type = DML_OPERATOR_MULTIHEAD_ATTENTION1;
        b->desc.Desc = d;
    } else {
        DML_MULTIHEAD_ATTENTION_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
        *d = (DML_MULTIHEAD_ATTENTION_OPERATOR_DESC){t[0],  t[1],  t[2],  t[3],   t[4],  t[5],
                                                     t[6],  t[7],  t[8],  t[9],   t[10], t[12],
                                                     t[13], t[14], scale, filter, heads, mask_type};
        b->desc.Type = DML_OPERATOR_MULTIHEAD_ATTENTION;
        b->desc.Desc = d;
    }
    return 0;
}

const rt_op rt_ops_attention[] = {
    {"DML_OPERATOR_MULTIHEAD_ATTENTION", build_mha},
    {"DML_OPERATOR_MULTIHEAD_ATTENTION1", build_mha},
    {NULL, NULL},
};
