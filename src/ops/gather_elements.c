/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_GATHER_ELEMENTS and DMLCL_OPERATOR_GATHER_ELEMENTS1:
 * output[c] = input[c with c[Axis] = indices[c]]. DirectML's rules (one
 * DimensionCount, Indices.Sizes = Input.Sizes off the axis, Output.Sizes =
 * Indices.Sizes); the extension adds its tensor rules and a policy. Lowers to
 * the indexed-copy plan: every output dim steps indices and output, every dim
 * but Axis steps the input too.
 */
#include "ops/gathers.h"

typedef struct elements_args {
    const char *op;
    bool ext;
    const DML_TENSOR_DESC *input, *indices, *output;
    UINT axis;
    DMLCL_OUT_OF_RANGE_POLICY policy;
} elements_args;

/* What validate finds for infer and lower: the description read, the types. */
typedef struct elements_scratch {
    elements_args a;
    dmli_index_type type;
    dmli_oor_policy policy;
} elements_scratch;

static HRESULT validate_args(const elements_args *a, dmli_op_state *st)
{
    elements_scratch *s = DMLI_OP_SCRATCH(st, elements_scratch);
    s->a = *a;
    const char *op = a->op;
    dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    unsigned ext = a->ext ? DMLI_TENSOR_EXTENSION : 0;
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", a->input, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(dmli_tensor_import(op, "IndicesTensor", a->indices, DMLI_TENSOR_INPUT | ext, idx));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", a->output, DMLI_TENSOR_OUTPUT | ext, out));
    DMLI_TRY(dmli_ops_same_rank(op, "IndicesTensor", idx, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_gathers_index_type(op, idx->type, a->ext, &s->type));
    DMLI_TRY(dmli_gathers_policy(op, a->policy, &s->policy));
    DMLI_INVALID_IF(a->axis >= in->rank,
                    "%s: Axis (%u) must be less than InputTensor.DimensionCount (%u)", op, a->axis,
                    in->rank);
    dmli_gathers_slots(st);
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const elements_scratch *s = DMLI_OP_SCRATCH(st, elements_scratch);
    const elements_args *a = &s->a;
    const char *op = a->op;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    for (uint32_t d = 0; d < in->rank; ++d)
        DMLI_INVALID_IF(d != a->axis && idx->sizes[d] != in->sizes[d],
                        "%s: IndicesTensor.Sizes[%u] (%llu) must equal InputTensor.Sizes[%u] "
                        "(%llu): only the Axis (%u) dimension may differ",
                        op, d, (unsigned long long)idx->sizes[d], d,
                        (unsigned long long)in->sizes[d], a->axis);
    DMLI_TRY(dmli_ops_expect_sizes(op, "OutputTensor", out, idx->sizes, "IndicesTensor.Sizes"));
    return dmli_gathers_clamp_target(op, s->policy, out, in->sizes[a->axis],
                                     "InputTensor.Sizes[Axis]");
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const elements_scratch *s = DMLI_OP_SCRATCH(st, elements_scratch);
    const elements_args *a = &s->a;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    int64_t pos[DMLI_MAX_RANK];
    dmli_ops_packed(idx, pos);
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_INDEXED, in->elem_bytes);
    for (uint32_t d = 0; d < in->rank; ++d)
        dmli_plan_push(p, (int64_t)out->sizes[d], out->strides[d],
                       d == a->axis ? 0 : in->strides[d], idx->strides[d], pos[d]);
    p->idx_type = s->type;
    p->policy = s->policy;
    p->wrap_negative = true;
    p->components = 1;
    p->axis_size[0] = (int64_t)in->sizes[a->axis];
    p->axis_stride[0] = in->strides[a->axis];
    dmli_gathers_check_only(st, 0, idx->rank);
}

static HRESULT validate_elements(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_ELEMENTS_OPERATOR_DESC *g = desc;
    elements_args a = {"GATHER_ELEMENTS",
                       false,
                       g->InputTensor,
                       g->IndicesTensor,
                       g->OutputTensor,
                       g->Axis,
                       DMLCL_OUT_OF_RANGE_POLICY_CLAMP};
    return validate_args(&a, st);
}

static HRESULT validate_elements1(const void *desc, dmli_op_state *st)
{
    const DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC *g = desc;
    elements_args a = {"GATHER_ELEMENTS1", true,    g->InputTensor,     g->IndicesTensor,
                       g->OutputTensor,    g->Axis, g->OutOfRangePolicy};
    return validate_args(&a, st);
}

const dmli_op_steps dmli_op_gather_elements = {
    .validate = validate_elements, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_gather_elements1 = {
    .validate = validate_elements1, .infer = infer, .lower = lower};
