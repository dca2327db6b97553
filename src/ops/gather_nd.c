/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_GATHER_ND, DML_OPERATOR_GATHER_ND1 and DMLCL_OPERATOR_GATHER_ND2:
 * output[batch, i, ...] = input[batch, indices[batch, i, 0..m), ...], where
 * m, the indices' last size, is the length of each coordinate tuple.
 * InputDimensionCount and IndicesDimensionCount are the meaningful trailing
 * dims of each tensor; DirectML's operators also share one DimensionCount.
 * Lowers to the indexed-copy plan with m index components, one per gathered
 * input dim, read at the indices' last-dim stride.
 */
#include <stdio.h>

#include "ops/gathers.h"

typedef struct nd_args {
    const char *op;
    bool ext;
    const DML_TENSOR_DESC *input, *indices, *output;
    UINT input_dims, indices_dims, batch;
    DMLCL_OUT_OF_RANGE_POLICY policy;
} nd_args;

static HRESULT check_counts(const nd_args *a, const dmli_tensor *in, const dmli_tensor *idx)
{
    const char *op = a->op;
    DMLI_INVALID_IF(a->input_dims < 1 || a->input_dims > in->rank,
                    "%s: InputDimensionCount (%u) must be in [1, InputTensor.DimensionCount "
                    "(%u)]",
                    op, a->input_dims, in->rank);
    DMLI_INVALID_IF(a->indices_dims < 1 || a->indices_dims > idx->rank,
                    "%s: IndicesDimensionCount (%u) must be in [1, IndicesTensor.DimensionCount "
                    "(%u)]",
                    op, a->indices_dims, idx->rank);
    DMLI_TRY(dmli_gathers_padding(op, "InputTensor", in, a->input_dims, "InputDimensionCount"));
    DMLI_TRY(
        dmli_gathers_padding(op, "IndicesTensor", idx, a->indices_dims, "IndicesDimensionCount"));
    DMLI_INVALID_IF(a->batch >= a->input_dims || a->batch >= a->indices_dims,
                    "%s: BatchDimensionCount (%u) must be less than InputDimensionCount (%u) "
                    "and IndicesDimensionCount (%u)",
                    op, a->batch, a->input_dims, a->indices_dims);
    uint32_t ip = in->rank - a->input_dims, xp = idx->rank - a->indices_dims;
    for (uint32_t i = 0; i < a->batch; ++i)
        DMLI_INVALID_IF(in->sizes[ip + i] != idx->sizes[xp + i],
                        "%s: batch dimension %u differs: InputTensor.Sizes[%u] (%llu) must "
                        "equal IndicesTensor.Sizes[%u] (%llu)",
                        op, i, ip + i, (unsigned long long)in->sizes[ip + i], xp + i,
                        (unsigned long long)idx->sizes[xp + i]);
    uint64_t m = idx->sizes[idx->rank - 1];
    DMLI_INVALID_IF(m < 1 || m > a->input_dims - a->batch,
                    "%s: IndicesTensor.Sizes[%u] (%llu), the coordinate tuple length, must be "
                    "in [1, InputDimensionCount - BatchDimensionCount (%u)]",
                    op, idx->rank - 1, (unsigned long long)m, a->input_dims - a->batch);
    return S_OK;
}

/* What validate and infer find for lower: the description read, the types, positions. */
typedef struct nd_scratch {
    nd_args a;
    dmli_index_type type;
    dmli_oor_policy policy;
    int opos[2 * DMLI_MAX_RANK]; /* the output dim of each shape-rule entry, or -1 */
} nd_scratch;

static HRESULT validate_args(const nd_args *a, dmli_op_state *st)
{
    nd_scratch *s = DMLI_OP_SCRATCH(st, nd_scratch);
    s->a = *a;
    const char *op = a->op;
    dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    unsigned ext = a->ext ? DMLI_TENSOR_EXTENSION : 0;
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", a->input, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(dmli_tensor_import(op, "IndicesTensor", a->indices, DMLI_TENSOR_INPUT | ext, idx));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", a->output, DMLI_TENSOR_OUTPUT | ext, out));
    if (!a->ext) {
        DMLI_TRY(dmli_ops_same_rank(op, "IndicesTensor", idx, "InputTensor", in));
        DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    }
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_gathers_index_type(op, idx->type, a->ext, &s->type));
    DMLI_TRY(dmli_gathers_policy(op, a->policy, &s->policy));
    DMLI_TRY(check_counts(a, in, idx));
    dmli_gathers_slots(st);
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    nd_scratch *s = DMLI_OP_SCRATCH(st, nd_scratch);
    const nd_args *a = &s->a;
    const char *op = a->op;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    uint32_t ip = in->rank - a->input_dims, xp = idx->rank - a->indices_dims;
    uint32_t m = (uint32_t)idx->sizes[idx->rank - 1];
    uint64_t list[2 * DMLI_MAX_RANK];
    int n = 0;
    for (uint32_t j = xp; j + 1 < idx->rank; ++j)
        list[n++] = idx->sizes[j];
    for (uint32_t i = ip + a->batch + m; i < in->rank; ++i)
        list[n++] = in->sizes[i];
    DMLI_TRY(dmli_gathers_output(op, out, list, n,
                                 "the meaningful IndicesTensor.Sizes but the last, then "
                                 "InputTensor.Sizes after the gathered dimensions",
                                 s->opos));
    for (uint32_t k = 0; k < m; ++k) {
        char what[64];
        snprintf(what, sizeof what, "InputTensor.Sizes[%u]", ip + a->batch + k);
        DMLI_TRY(dmli_gathers_clamp_target(op, s->policy, out, in->sizes[ip + a->batch + k], what));
    }
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const nd_scratch *s = DMLI_OP_SCRATCH(st, nd_scratch);
    const nd_args *a = &s->a;
    const int *opos = s->opos;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    uint32_t ip = in->rank - a->input_dims, xp = idx->rank - a->indices_dims, last = idx->rank - 1;
    uint32_t m = (uint32_t)idx->sizes[last];
    int64_t pos[DMLI_MAX_RANK];
    dmli_ops_packed(idx, pos);
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_INDEXED, in->elem_bytes);
    int e = 0;
    for (uint32_t j = xp; j < last; ++j, ++e) {
        bool batch = j - xp < a->batch;
        if (opos[e] >= 0)
            dmli_plan_push(p, (int64_t)idx->sizes[j], out->strides[opos[e]],
                           batch ? in->strides[ip + (j - xp)] : 0, idx->strides[j], pos[j]);
    }
    for (uint32_t i = ip + a->batch + m; i < in->rank; ++i, ++e)
        if (opos[e] >= 0)
            dmli_plan_push(p, (int64_t)in->sizes[i], out->strides[opos[e]], in->strides[i], 0, 0);
    p->components = (int)m;
    p->comp_idx_stride = idx->strides[last];
    p->comp_pos_stride = pos[last];
    for (uint32_t k = 0; k < m; ++k) {
        p->axis_size[k] = (int64_t)in->sizes[ip + a->batch + k];
        p->axis_stride[k] = in->strides[ip + a->batch + k];
    }
    p->idx_type = s->type;
    p->policy = s->policy;
    p->wrap_negative = true;
    dmli_gathers_check_only(st, xp, last);
}

static HRESULT gather_nd_validate(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_ND_OPERATOR_DESC *g = desc;
    nd_args a = {"GATHER_ND",
                 false,
                 g->InputTensor,
                 g->IndicesTensor,
                 g->OutputTensor,
                 g->InputDimensionCount,
                 g->IndicesDimensionCount,
                 0,
                 DMLCL_OUT_OF_RANGE_POLICY_CLAMP};
    return validate_args(&a, st);
}

static HRESULT gather_nd1_validate(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_ND1_OPERATOR_DESC *g = desc;
    nd_args a = {"GATHER_ND1",
                 false,
                 g->InputTensor,
                 g->IndicesTensor,
                 g->OutputTensor,
                 g->InputDimensionCount,
                 g->IndicesDimensionCount,
                 g->BatchDimensionCount,
                 DMLCL_OUT_OF_RANGE_POLICY_CLAMP};
    return validate_args(&a, st);
}

static HRESULT gather_nd2_validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_GATHER_ND2_OPERATOR_DESC *g = desc;
    nd_args a = {"GATHER_ND2",
                 true,
                 g->InputTensor,
                 g->IndicesTensor,
                 g->OutputTensor,
                 g->InputDimensionCount,
                 g->IndicesDimensionCount,
                 g->BatchDimensionCount,
                 g->OutOfRangePolicy};
    return validate_args(&a, st);
}

const dmli_op_steps dmli_op_gather_nd = {
    .validate = gather_nd_validate, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_gather_nd1 = {
    .validate = gather_nd1_validate, .infer = infer, .lower = lower};
const dmli_op_steps dmli_op_gather_nd2 = {
    .validate = gather_nd2_validate, .infer = infer, .lower = lower};
