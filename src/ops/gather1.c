/* SPDX-License-Identifier: MIT */
/*
 * DMLCL_OPERATOR_GATHER1: a gather along Axis with batch dims and an
 * out-of-range policy (OpenVINO Gather-8, ONNX Gather-1/11/13). Lowers to the
 * indexed-copy plan: batch output dims step input, indices and output
 * together; index dims step indices and output; the rest step input and
 * output. Also the helpers the other gathers share (ops/gathers.h).
 */
#include <stdio.h>

#include "ops/gathers.h"

#define OP "GATHER1"

/* ---- Shared by the gather family ----------------------------------------------------- */

HRESULT dmli_gathers_index_type(const char *op, DML_TENSOR_DATA_TYPE type, bool ext,
                                dmli_index_type *out)
{
    if (!ext)
        return dmli_ops_index_type(op, "IndicesTensor", type, out);
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_INT8: *out = DMLI_INDEX_INT8; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT8: *out = DMLI_INDEX_UINT8; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT16: *out = DMLI_INDEX_INT16; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT16: *out = DMLI_INDEX_UINT16; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT32: *out = DMLI_INDEX_INT32; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = DMLI_INDEX_UINT32; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT64: *out = DMLI_INDEX_INT64; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT64: *out = DMLI_INDEX_UINT64; return S_OK;
    default:
        return dmli_fail(E_INVALIDARG,
                         "%s: IndicesTensor.DataType (%s) must be an integer type (INT8..INT64, "
                         "UINT8..UINT64)",
                         op, dmli_type_name(type));
    }
}

HRESULT dmli_gathers_policy(const char *op, DMLCL_OUT_OF_RANGE_POLICY policy, dmli_oor_policy *out)
{
    switch ((int)policy) {
    case DMLCL_OUT_OF_RANGE_POLICY_CLAMP: *out = DMLI_OOR_CLAMP; return S_OK;
    case DMLCL_OUT_OF_RANGE_POLICY_ZERO: *out = DMLI_OOR_ZERO; return S_OK;
    case DMLCL_OUT_OF_RANGE_POLICY_ERROR: *out = DMLI_OOR_ERROR; return S_OK;
    default:
        return dmli_fail(E_INVALIDARG,
                         "%s: OutOfRangePolicy (%d) must be DMLCL_OUT_OF_RANGE_POLICY_CLAMP (0), "
                         "ZERO (1) or ERROR (2)",
                         op, (int)policy);
    }
}

HRESULT dmli_gathers_padding(const char *op, const char *field, const dmli_tensor *t,
                             uint32_t meaningful, const char *count_field)
{
    for (uint32_t d = 0; d + meaningful < t->rank; ++d)
        DMLI_INVALID_IF(t->sizes[d] != 1,
                        "%s: %s.Sizes[%u] (%llu) must be 1: only the last %s (%u) dimensions "
                        "are meaningful",
                        op, field, d, (unsigned long long)t->sizes[d], count_field, meaningful);
    return S_OK;
}

HRESULT dmli_gathers_output(const char *op, const dmli_tensor *out, const uint64_t *list, int n,
                            const char *rule, int *pos)
{
    int d = (int)out->rank;
    uint64_t want[DMLI_MAX_RANK];
    for (int i = 0; i < d; ++i)
        want[i] = 1;
    for (int e = n - 1; e >= 0; --e) {
        int at = d - n + e;
        pos[e] = at;
        if (at >= 0) {
            want[at] = list[e];
            continue;
        }
        char got[DMLI_DIMS_BUF];
        DMLI_INVALID_IF(list[e] != 1,
                        "%s: OutputTensor.DimensionCount (%u) is too small: OutputTensor.Sizes "
                        "must end in %d sizes (%s), and the leading ones are not 1 (Sizes %s)",
                        op, out->rank, n, rule,
                        dmli_format_dims(got, sizeof got, (uint32_t)n, list));
        pos[e] = -1;
    }
    return dmli_ops_expect_sizes(op, "OutputTensor", out, want, rule);
}

HRESULT dmli_gathers_clamp_target(const char *op, dmli_oor_policy policy, const dmli_tensor *out,
                                  uint64_t axis_size, const char *axis_what)
{
    DMLI_INVALID_IF(policy == DMLI_OOR_CLAMP && axis_size == 0 && out->elements != 0,
                    "%s: %s is 0 and the output is not empty: OutOfRangePolicy CLAMP has no "
                    "element to clamp an index into (use ZERO or ERROR)",
                    op, axis_what);
    return S_OK;
}

void dmli_gathers_check_only(dmli_op_state *st, uint32_t from, uint32_t to)
{
    const dmli_tensor *idx = &st->inputs[1];
    dmli_plan *p = &st->plan;
    if (p->policy != DMLI_OOR_ERROR || st->outputs[0].elements != 0 || idx->elements == 0)
        return;
    int64_t pos[DMLI_MAX_RANK];
    dmli_ops_packed(idx, pos);
    p->rank = 0;
    for (uint32_t j = from; j < to; ++j)
        dmli_plan_push(p, (int64_t)idx->sizes[j], 0, 0, idx->strides[j], pos[j]);
    p->check_only = true;
}

void dmli_gathers_slots(dmli_op_state *st)
{
    st->n_inputs = 2;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->input_names[1] = "IndicesTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    st->index_input = 1;
}

/* ---- GATHER1 --------------------------------------------------------------------------- */

static HRESULT check_batch(const DMLCL_GATHER1_OPERATOR_DESC *g, const dmli_tensor *in,
                           const dmli_tensor *idx)
{
    uint32_t b = g->BatchDimensionCount, q = g->IndexDimensions, lead = idx->rank - q;
    DMLI_INVALID_IF(b > g->Axis, OP ": BatchDimensionCount (%u) must be at most Axis (%u)", b,
                    g->Axis);
    DMLI_INVALID_IF(b > q, OP ": BatchDimensionCount (%u) must be at most IndexDimensions (%u)", b,
                    q);
    for (uint32_t i = 0; i < b; ++i)
        DMLI_INVALID_IF(in->sizes[i] != idx->sizes[lead + i],
                        OP ": batch dimension %u differs: InputTensor.Sizes[%u] (%llu) must "
                           "equal IndicesTensor.Sizes[%u] (%llu)",
                        i, i, (unsigned long long)in->sizes[i], lead + i,
                        (unsigned long long)idx->sizes[lead + i]);
    return S_OK;
}

/* What validate and infer find for lower. */
typedef struct gather1_scratch {
    dmli_index_type type;
    dmli_oor_policy policy;
    int opos[3 * DMLI_MAX_RANK]; /* the output dim of each shape-rule entry, or -1 */
} gather1_scratch;

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_GATHER1_OPERATOR_DESC *g = desc;
    gather1_scratch *s = DMLI_OP_SCRATCH(st, gather1_scratch);
    dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    unsigned ext = DMLI_TENSOR_EXTENSION;
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", g->InputTensor, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(
        dmli_tensor_import(OP, "IndicesTensor", g->IndicesTensor, DMLI_TENSOR_INPUT | ext, idx));
    DMLI_TRY(
        dmli_tensor_import(OP, "OutputTensor", g->OutputTensor, DMLI_TENSOR_OUTPUT | ext, out));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_gathers_index_type(OP, idx->type, true, &s->type));
    DMLI_TRY(dmli_gathers_policy(OP, g->OutOfRangePolicy, &s->policy));
    DMLI_INVALID_IF(g->Axis >= in->rank,
                    OP ": Axis (%u) must be less than InputTensor.DimensionCount (%u)", g->Axis,
                    in->rank);
    DMLI_INVALID_IF(g->IndexDimensions > idx->rank,
                    OP ": IndexDimensions (%u) must be at most IndicesTensor.DimensionCount (%u)",
                    g->IndexDimensions, idx->rank);
    DMLI_TRY(dmli_gathers_padding(OP, "IndicesTensor", idx, g->IndexDimensions, "IndexDimensions"));
    DMLI_TRY(check_batch(g, in, idx));
    dmli_gathers_slots(st);
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DMLCL_GATHER1_OPERATOR_DESC *g = desc;
    gather1_scratch *s = DMLI_OP_SCRATCH(st, gather1_scratch);
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    uint32_t r = in->rank, q = g->IndexDimensions, b = g->BatchDimensionCount, lead = idx->rank - q;
    uint64_t list[3 * DMLI_MAX_RANK];
    int n = 0;
    for (uint32_t i = 0; i < g->Axis; ++i)
        list[n++] = in->sizes[i];
    for (uint32_t j = b; j < q; ++j)
        list[n++] = idx->sizes[lead + j];
    for (uint32_t i = g->Axis + 1; i < r; ++i)
        list[n++] = in->sizes[i];
    DMLI_TRY(dmli_gathers_output(OP, out, list, n,
                                 "InputTensor.Sizes before Axis, the meaningful IndicesTensor "
                                 "sizes after the batch dims, InputTensor.Sizes after Axis",
                                 s->opos));
    char what[64];
    snprintf(what, sizeof what, "InputTensor.Sizes[Axis = %u]", g->Axis);
    return dmli_gathers_clamp_target(OP, s->policy, out, in->sizes[g->Axis], what);
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DMLCL_GATHER1_OPERATOR_DESC *g = desc;
    const gather1_scratch *s = DMLI_OP_SCRATCH(st, gather1_scratch);
    const int *opos = s->opos;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    uint32_t q = g->IndexDimensions, b = g->BatchDimensionCount, lead = idx->rank - q;
    int64_t pos[DMLI_MAX_RANK];
    dmli_ops_packed(idx, pos);
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_INDEXED, in->elem_bytes);
    int e = 0;
    for (uint32_t i = 0; i < g->Axis; ++i, ++e) {
        int64_t xs = i < b ? idx->strides[lead + i] : 0, xp = i < b ? pos[lead + i] : 0;
        if (opos[e] >= 0)
            dmli_plan_push(p, (int64_t)in->sizes[i], out->strides[opos[e]], in->strides[i], xs, xp);
    }
    for (uint32_t j = lead + b; j < idx->rank; ++j, ++e)
        if (opos[e] >= 0)
            dmli_plan_push(p, (int64_t)idx->sizes[j], out->strides[opos[e]], 0, idx->strides[j],
                           pos[j]);
    for (uint32_t i = g->Axis + 1; i < in->rank; ++i, ++e)
        if (opos[e] >= 0)
            dmli_plan_push(p, (int64_t)in->sizes[i], out->strides[opos[e]], in->strides[i], 0, 0);
    p->components = 1;
    p->axis_size[0] = (int64_t)in->sizes[g->Axis];
    p->axis_stride[0] = in->strides[g->Axis];
    p->idx_type = s->type;
    p->policy = s->policy;
    p->wrap_negative = g->AllowNegativeIndices != 0;
    dmli_gathers_check_only(st, idx->rank - q, idx->rank);
}

const dmli_op_steps dmli_op_gather1 = {.validate = validate, .infer = infer, .lower = lower};
