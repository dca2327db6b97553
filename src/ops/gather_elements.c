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

static HRESULT validate(const elements_args *a, dmlcl_op_state *st, dmlcl_index_type *type,
                        dmlcl_oor_policy *policy)
{
    const char *op = a->op;
    dmlcl_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    unsigned ext = a->ext ? DMLCL_TENSOR_EXTENSION : 0;
    DMLCL_TRY(dmlcl_tensor_import(op, "InputTensor", a->input, DMLCL_TENSOR_INPUT | ext, in));
    DMLCL_TRY(dmlcl_tensor_import(op, "IndicesTensor", a->indices, DMLCL_TENSOR_INPUT | ext, idx));
    DMLCL_TRY(dmlcl_tensor_import(op, "OutputTensor", a->output, DMLCL_TENSOR_OUTPUT | ext, out));
    DMLCL_TRY(dmlcl_ops_same_rank(op, "IndicesTensor", idx, "InputTensor", in));
    DMLCL_TRY(dmlcl_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLCL_TRY(dmlcl_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLCL_TRY(dmlcl_gathers_index_type(op, idx->type, a->ext, type));
    DMLCL_TRY(dmlcl_gathers_policy(op, a->policy, policy));
    DMLCL_INVALID_IF(a->axis >= in->rank,
                     "%s: Axis (%u) must be less than InputTensor.DimensionCount (%u)", op, a->axis,
                     in->rank);
    for (uint32_t d = 0; d < in->rank; ++d)
        DMLCL_INVALID_IF(d != a->axis && idx->sizes[d] != in->sizes[d],
                         "%s: IndicesTensor.Sizes[%u] (%llu) must equal InputTensor.Sizes[%u] "
                         "(%llu): only the Axis (%u) dimension may differ",
                         op, d, (unsigned long long)idx->sizes[d], d,
                         (unsigned long long)in->sizes[d], a->axis);
    DMLCL_TRY(dmlcl_ops_expect_sizes(op, "OutputTensor", out, idx->sizes, "IndicesTensor.Sizes"));
    return dmlcl_gathers_clamp_target(op, *policy, out, in->sizes[a->axis],
                                      "InputTensor.Sizes[Axis]");
}

static HRESULT create(const elements_args *a, dmlcl_op_state *st)
{
    dmlcl_index_type type = DMLCL_INDEX_NONE;
    dmlcl_oor_policy policy = DMLCL_OOR_CLAMP;
    DMLCL_TRY(validate(a, st, &type, &policy));
    dmlcl_gathers_slots(st);
    const dmlcl_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    int64_t pos[DMLCL_MAX_RANK];
    dmlcl_ops_packed(idx, pos);
    dmlcl_plan *p = &st->plan;
    dmlcl_plan_init(p, DMLCL_PLAN_INDEXED, in->elem_bytes);
    for (uint32_t d = 0; d < in->rank; ++d)
        dmlcl_plan_push(p, (int64_t)out->sizes[d], out->strides[d],
                        d == a->axis ? 0 : in->strides[d], idx->strides[d], pos[d]);
    p->idx_type = type;
    p->policy = policy;
    p->wrap_negative = true;
    p->components = 1;
    p->axis_size[0] = (int64_t)in->sizes[a->axis];
    p->axis_stride[0] = in->strides[a->axis];
    dmlcl_gathers_check_only(st, 0, idx->rank);
    return S_OK;
}

static HRESULT gather_elements_create(const void *desc, dmlcl_op_state *st)
{
    const DML_GATHER_ELEMENTS_OPERATOR_DESC *g = desc;
    elements_args a = {"GATHER_ELEMENTS",
                       false,
                       g->InputTensor,
                       g->IndicesTensor,
                       g->OutputTensor,
                       g->Axis,
                       DMLCL_OUT_OF_RANGE_POLICY_CLAMP};
    return create(&a, st);
}

static HRESULT gather_elements1_create(const void *desc, dmlcl_op_state *st)
{
    const DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC *g = desc;
    elements_args a = {"GATHER_ELEMENTS1", true,    g->InputTensor,     g->IndicesTensor,
                       g->OutputTensor,    g->Axis, g->OutOfRangePolicy};
    return create(&a, st);
}

const dmlcl_op_class dmlcl_op_gather_elements = {DML_OPERATOR_GATHER_ELEMENTS, "GATHER_ELEMENTS",
                                                 gather_elements_create};
const dmlcl_op_class dmlcl_op_gather_elements1 = {DMLCL_OPERATOR_GATHER_ELEMENTS1,
                                                  "GATHER_ELEMENTS1", gather_elements1_create};
