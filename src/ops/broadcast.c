/* SPDX-License-Identifier: MIT */
/*
 * DMLCL_OPERATOR_BROADCAST: OutputTensor[o] = InputTensor[i] where each input
 * dimension k lands on an output dimension map(k) and reads o[map(k)], or 0
 * where its size is 1 (see dmlcl/ext_broadcast.h). It lowers to the view
 * plan with input stride 0 on every output dimension no input dimension of
 * size > 1 lands on: the kernel then reads each source row once and stores
 * it to every repeat.
 */
#include "ops/common.h"

#define OP "BROADCAST"

static const char *mode_name(DMLCL_BROADCAST_MODE mode)
{
    switch (mode) {
    case DMLCL_BROADCAST_MODE_NUMPY: return "NUMPY";
    case DMLCL_BROADCAST_MODE_EXPLICIT: return "EXPLICIT";
    default: return "BIDIRECTIONAL";
    }
}

/* EXPLICIT: AxesMapping is one strictly increasing output dimension per input dimension. */
static HRESULT check_axes(const DMLCL_BROADCAST_OPERATOR_DESC *d, const dmli_tensor *in,
                          const dmli_tensor *out)
{
    DMLI_INVALID_IF(d->AxesMappingCount != in->rank,
                    OP ": AxesMappingCount (%u) must equal InputTensor.DimensionCount (%u): "
                       "EXPLICIT maps every input dimension",
                    d->AxesMappingCount, in->rank);
    DMLI_INVALID_IF(!d->AxesMapping, OP ": AxesMapping (NULL) must point to %u output dimensions",
                    d->AxesMappingCount);
    for (uint32_t k = 0; k < in->rank; ++k) {
        UINT a = d->AxesMapping[k];
        DMLI_INVALID_IF(a >= out->rank,
                        OP ": AxesMapping[%u] (%u) must be less than OutputTensor.DimensionCount "
                           "(%u)",
                        k, a, out->rank);
        DMLI_INVALID_IF(k > 0 && a <= d->AxesMapping[k - 1],
                        OP ": AxesMapping[%u] (%u) must be greater than AxesMapping[%u] (%u): "
                           "the mapping is strictly increasing (no transposition, one input "
                           "dimension per output dimension)",
                        k, a, k - 1, d->AxesMapping[k - 1]);
    }
    return S_OK;
}

/* map[k]: the output dimension input dimension k lands on. */
static HRESULT input_map(const DMLCL_BROADCAST_OPERATOR_DESC *d, const dmli_tensor *in,
                         const dmli_tensor *out, uint32_t *map)
{
    if (d->Mode == DMLCL_BROADCAST_MODE_EXPLICIT) {
        DMLI_TRY(check_axes(d, in, out));
        for (uint32_t k = 0; k < in->rank; ++k)
            map[k] = d->AxesMapping[k];
        return S_OK;
    }
    DMLI_INVALID_IF(d->AxesMappingCount != 0 || d->AxesMapping,
                    OP ": AxesMapping (%u entries) is for Mode EXPLICIT only; Mode is %s "
                       "(AxesMappingCount must be 0 and AxesMapping NULL)",
                    d->AxesMappingCount, mode_name(d->Mode));
    DMLI_INVALID_IF(in->rank > out->rank,
                    OP ": InputTensor.DimensionCount (%u) must be at most "
                       "OutputTensor.DimensionCount (%u) in Mode %s (right-aligned dimensions)",
                    in->rank, out->rank, mode_name(d->Mode));
    for (uint32_t k = 0; k < in->rank; ++k)
        map[k] = k + out->rank - in->rank;
    return S_OK;
}

/* What validate finds for infer and lower. */
typedef struct broadcast_scratch {
    uint32_t map[DMLI_MAX_RANK]; /* the output dimension input dimension k lands on */
} broadcast_scratch;

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_BROADCAST_OPERATOR_DESC *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    unsigned ext = DMLI_TENSOR_EXTENSION;
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(
        dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT | ext, out));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF((unsigned)d->Mode > DMLCL_BROADCAST_MODE_BIDIRECTIONAL,
                    OP ": Mode (%d) must be DMLCL_BROADCAST_MODE_NUMPY (0), EXPLICIT (1) or "
                       "BIDIRECTIONAL (2)",
                    (int)d->Mode);
    DMLI_TRY(input_map(d, in, out, DMLI_OP_SCRATCH(st, broadcast_scratch)->map));
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

/* Each input dimension is 1 or the size of the one it lands on; the output is written once. */
static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DMLCL_BROADCAST_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    const uint32_t *map = DMLI_OP_SCRATCH(st, broadcast_scratch)->map;
    for (uint32_t k = 0; k < in->rank; ++k)
        DMLI_INVALID_IF(in->sizes[k] != 1 && in->sizes[k] != out->sizes[map[k]],
                        OP ": InputTensor.Sizes[%u] (%llu) must be 1 or equal "
                           "OutputTensor.Sizes[%u] (%llu), the dimension it lands on in Mode %s",
                        k, (unsigned long long)in->sizes[k], map[k],
                        (unsigned long long)out->sizes[map[k]], mode_name(d->Mode));
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    const uint32_t *map = DMLI_OP_SCRATCH(st, broadcast_scratch)->map;
    int64_t in_stride[DMLI_MAX_RANK] = {0};
    for (uint32_t k = 0; k < in->rank; ++k)
        if (in->sizes[k] != 1)
            in_stride[map[k]] = in->strides[k];
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    for (uint32_t o = 0; o < out->rank; ++o)
        dmli_plan_push(p, (int64_t)out->sizes[o], out->strides[o], in_stride[o], 0, 0);
}

const dmli_op_steps dmli_op_broadcast = {.validate = validate, .infer = infer, .lower = lower};
