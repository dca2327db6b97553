/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_GATHER: output[...] = input[..., indices[...], ...].
 * Validation and the output-size rule follow DirectML's page and DirectMLX's
 * shape code; the lowering is the indexed-copy plan with the CLAMP policy.
 */
#include "ops/common.h"

#define OP "GATHER"

/*
 * DirectMLX's placement, right to left: input dims after Axis, then the last
 * IndexDimensions index dims (the last one at Axis), then input dims before
 * Axis. What finds no position must be 1 (cropped leading padding).
 */
static HRESULT output_sizes(const dmli_tensor *in, const dmli_tensor *idx, uint32_t axis,
                            uint32_t index_dims, uint64_t *want)
{
    int d = (int)in->rank, pos = d - 1, j = d - 1;
    for (int i = 0; i < d; ++i)
        want[i] = 1;
    for (; pos > (int)axis; --pos)
        want[pos] = in->sizes[pos];
    uint32_t lead_ones = 0;
    while (lead_ones < in->rank && in->sizes[lead_ones] == 1)
        ++lead_ones;
    uint32_t original_rank = in->rank - lead_ones;
    for (uint32_t k = 0; k < index_dims; ++k, --j) {
        if (pos >= 0)
            want[pos--] = idx->sizes[j];
        else
            DMLI_INVALID_IF(idx->sizes[j] != 1,
                            OP ": IndexDimensions (%u) with Axis (%u) leaves no output position "
                               "for IndicesTensor.Sizes[%d] (%llu)",
                            index_dims, axis, j, (unsigned long long)idx->sizes[j]);
    }
    for (; j >= 0; --j)
        DMLI_INVALID_IF(idx->sizes[j] != 1,
                        OP ": IndicesTensor.Sizes[%d] (%llu) must be 1: only the last "
                           "IndexDimensions (%u) dimensions of IndicesTensor are meaningful",
                        j, (unsigned long long)idx->sizes[j], index_dims);
    for (int i = (int)axis - 1; i >= 0; --i) {
        if (pos >= 0)
            want[pos--] = in->sizes[i];
        else
            DMLI_INVALID_IF(in->sizes[i] != 1,
                            OP ": IndexDimensions (%u) is too large: InputTensor's original rank "
                               "(%u) + IndexDimensions - 1 = %u must be at most DimensionCount "
                               "(%u); InputTensor.Sizes[%d] (%llu) has no output position",
                            index_dims, original_rank, original_rank + index_dims - 1, in->rank, i,
                            (unsigned long long)in->sizes[i]);
    }
    return S_OK;
}

/* What validate finds for lower. */
typedef struct gather_scratch {
    dmli_index_type type;
} gather_scratch;

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_OPERATOR_DESC *g = desc;
    dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", g->InputTensor, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(OP, "IndicesTensor", g->IndicesTensor, DMLI_TENSOR_INPUT, idx));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", g->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_rank(OP, "IndicesTensor", idx, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_index_type(OP, "IndicesTensor", idx->type,
                                 &DMLI_OP_SCRATCH(st, gather_scratch)->type));
    DMLI_INVALID_IF(g->Axis >= in->rank,
                    OP ": Axis (%u) must be less than InputTensor.DimensionCount (%u)", g->Axis,
                    in->rank);
    DMLI_INVALID_IF(g->IndexDimensions > in->rank,
                    OP ": IndexDimensions (%u) must be at most IndicesTensor.DimensionCount (%u)",
                    g->IndexDimensions, idx->rank);
    st->n_inputs = 2;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->input_names[1] = "IndicesTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    st->index_input = 1;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_OPERATOR_DESC *g = desc;
    uint64_t want[DMLI_MAX_RANK];
    DMLI_TRY(output_sizes(&st->inputs[0], &st->inputs[1], g->Axis, g->IndexDimensions, want));
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], want,
                                 "InputTensor.Sizes split at Axis around the last "
                                 "IndexDimensions sizes of IndicesTensor, right-aligned");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_GATHER_OPERATOR_DESC *g = desc;
    uint32_t axis = g->Axis, index_dims = g->IndexDimensions;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    int64_t pos[DMLI_MAX_RANK];
    dmli_ops_packed(idx, pos);
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_INDEXED, in->elem_bytes);
    int d = (int)in->rank, first_index = (int)axis - (int)index_dims + 1;
    for (int o = 0; o < d; ++o) {
        int64_t n = (int64_t)out->sizes[o], os = out->strides[o];
        if (o > (int)axis) {
            dmli_plan_push(p, n, os, in->strides[o], 0, 0);
        } else if (o >= first_index) {
            int j = d - 1 - ((int)axis - o);
            dmli_plan_push(p, n, os, 0, idx->strides[j], pos[j]);
        } else {
            int i = o + (int)index_dims - 1;
            dmli_plan_push(p, n, os, i >= 0 ? in->strides[i] : 0, 0, 0);
        }
    }
    p->idx_type = DMLI_OP_SCRATCH(st, gather_scratch)->type;
    p->wrap_negative = true;
    p->policy = DMLI_OOR_CLAMP;
    p->components = 1;
    p->axis_size[0] = (int64_t)in->sizes[axis];
    p->axis_stride[0] = in->strides[axis];
}

const dmli_op_steps dmli_op_gather = {.validate = validate, .infer = infer, .lower = lower};
