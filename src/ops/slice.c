/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_SLICE and DML_OPERATOR_SLICE1: a window of the input, read
 * with a step per dimension. Both lower to the strided view copy.
 *
 *   SLICE:  Output[o] = Input[Offsets + Strides * o], Output.Sizes = Sizes.
 *   SLICE1: Output[o] = Input[start + InputWindowStrides * o], where start is
 *           the window's first element, or its last when the stride is
 *           negative; the output need not cover the whole window.
 *
 * DirectML's page for SLICE sets no rule on Strides, and its formula stays
 * inside the input with a stride of 0 (every output element along that
 * dimension reads Input at Offsets[i]): dmlcl accepts 0 there, so no
 * descriptor DirectML may take is refused. SLICE1 forbids 0 in its text.
 * Every bound is checked in 64 bits, so UINT/INT extremes cannot wrap.
 */
#include "checked.h"
#include "ops/common.h"

/* Tensors, DimensionCount and the three lists' pointers: what both operators share. */
static HRESULT import_common(const char *op, const DML_TENSOR_DESC *input,
                             const DML_TENSOR_DESC *output, UINT dims, const void *const lists[3],
                             const char *const list_names[3], dmli_op_state *st)
{
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", input, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", output, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(dims != in->rank,
                    "%s: DimensionCount (%u) must equal InputTensor.DimensionCount (%u)", op, dims,
                    in->rank);
    for (int k = 0; k < 3; ++k)
        DMLI_INVALID_IF(!lists[k], "%s: %s (NULL) must point to DimensionCount (%u) values", op,
                        list_names[k], dims);
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

/* What infer finds for lower: the first element read, and the input step per dimension. */
typedef struct slice_scratch {
    int64_t offset, in_step[DMLI_MAX_RANK];
} slice_scratch;

/*
 * start[i] and step[i] (in elements of the input's dimension i) as input
 * element offsets. A step along a dimension of one output element never
 * applies, and times the input stride may pass 2^63 (both 2^32-1,
 * DirectML-legal): then 0. Other products stay inside the input, whose
 * extent import bounded under 2^63; checked all the same.
 */
static HRESULT input_steps(const char *op, dmli_op_state *st, const int64_t *start,
                           const int64_t *step)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    slice_scratch *s = DMLI_OP_SCRATCH(st, slice_scratch);
    s->offset = 0;
    for (uint32_t d = 0; d < in->rank; ++d) {
        bool overflow = dmli_madd_i64(&s->offset, start[d], in->strides[d]);
        if (dmli_mul_i64(step[d], in->strides[d], &s->in_step[d])) {
            overflow |= out->sizes[d] > 1;
            s->in_step[d] = 0;
        }
        DMLI_UNSUPPORTED_IF(overflow,
                            "%s: the offset or step along dimension %u is beyond 2^63-1 input "
                            "elements",
                            op, d);
    }
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const slice_scratch *s = DMLI_OP_SCRATCH(st, slice_scratch);
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    p->in_offset = s->offset;
    for (uint32_t d = 0; d < in->rank; ++d)
        dmli_plan_push(p, (int64_t)out->sizes[d], out->strides[d], s->in_step[d], 0, 0);
}

/* ---- SLICE ---------------------------------------------------------------------------------- */

static HRESULT slice_validate(const void *desc, dmli_op_state *st)
{
    static const char *const list_names[3] = {"Offsets", "Sizes", "Strides"};
    const DML_SLICE_OPERATOR_DESC *d = desc;
    const void *const lists[3] = {d->Offsets, d->Sizes, d->Strides};
    return import_common("SLICE", d->InputTensor, d->OutputTensor, d->DimensionCount, lists,
                         list_names, st);
}

static HRESULT slice_infer(const void *desc, dmli_op_state *st)
{
    const DML_SLICE_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    int64_t start[DMLI_MAX_RANK], step[DMLI_MAX_RANK];
    for (uint32_t i = 0; i < in->rank; ++i) {
        DMLI_INVALID_IF(d->Sizes[i] != out->sizes[i],
                        "SLICE: OutputTensor.Sizes[%u] (%llu) must equal Sizes[%u] (%u)", i,
                        (unsigned long long)out->sizes[i], i, d->Sizes[i]);
        /* Sizes[i] >= 1 here: output sizes are. */
        uint64_t last = (uint64_t)d->Offsets[i] + (uint64_t)(d->Sizes[i] - 1) * d->Strides[i];
        DMLI_INVALID_IF(last >= in->sizes[i],
                        "SLICE: Offsets[%u] (%u) + (Sizes[%u] (%u) - 1) * Strides[%u] (%u) = "
                        "%llu must be less than InputTensor.Sizes[%u] (%llu): the slice must "
                        "stay inside the input",
                        i, d->Offsets[i], i, d->Sizes[i], i, d->Strides[i],
                        (unsigned long long)last, i, (unsigned long long)in->sizes[i]);
        start[i] = d->Offsets[i];
        step[i] = d->Strides[i];
    }
    return input_steps("SLICE", st, start, step);
}

/* ---- SLICE1 --------------------------------------------------------------------------------- */

static HRESULT slice1_window(const DML_SLICE1_OPERATOR_DESC *d, const dmli_tensor *in,
                             const dmli_tensor *out, uint32_t i, int64_t *start, int64_t *step)
{
    uint64_t off = d->InputWindowOffsets[i], size = d->InputWindowSizes[i];
    int64_t s = d->InputWindowStrides[i];
    DMLI_INVALID_IF(size == 0, "SLICE1: InputWindowSizes[%u] (0) must be at least 1", i);
    DMLI_INVALID_IF(off + size > in->sizes[i],
                    "SLICE1: InputWindowOffsets[%u] (%llu) + InputWindowSizes[%u] (%llu) = "
                    "%llu must be at most InputTensor.Sizes[%u] (%llu): the window must stay "
                    "inside the input",
                    i, (unsigned long long)off, i, (unsigned long long)size,
                    (unsigned long long)(off + size), i, (unsigned long long)in->sizes[i]);
    DMLI_INVALID_IF(s == 0, "SLICE1: InputWindowStrides[%u] (0) must not be 0", i);
    uint64_t mag = s < 0 ? (uint64_t)-s : (uint64_t)s, most = 1 + (size - 1) / mag;
    DMLI_INVALID_IF(out->sizes[i] > most,
                    "SLICE1: OutputTensor.Sizes[%u] (%llu) must be at most 1 + "
                    "(InputWindowSizes[%u] (%llu) - 1) / |InputWindowStrides[%u]| (%lld) = "
                    "%llu: the output must stay inside the window",
                    i, (unsigned long long)out->sizes[i], i, (unsigned long long)size, i,
                    (long long)s, (unsigned long long)most);
    *start = (int64_t)(s < 0 ? off + size - 1 : off);
    *step = s;
    return S_OK;
}

static HRESULT slice1_validate(const void *desc, dmli_op_state *st)
{
    static const char *const list_names[3] = {"InputWindowOffsets", "InputWindowSizes",
                                              "InputWindowStrides"};
    const DML_SLICE1_OPERATOR_DESC *d = desc;
    const void *const lists[3] = {d->InputWindowOffsets, d->InputWindowSizes,
                                  d->InputWindowStrides};
    return import_common("SLICE1", d->InputTensor, d->OutputTensor, d->DimensionCount, lists,
                         list_names, st);
}

static HRESULT slice1_infer(const void *desc, dmli_op_state *st)
{
    int64_t start[DMLI_MAX_RANK], step[DMLI_MAX_RANK];
    for (uint32_t i = 0; i < st->inputs[0].rank; ++i)
        DMLI_TRY(slice1_window(desc, &st->inputs[0], &st->outputs[0], i, &start[i], &step[i]));
    return input_steps("SLICE1", st, start, step);
}

const dmli_op_steps dmli_op_slice = {
    .validate = slice_validate, .infer = slice_infer, .lower = lower};
const dmli_op_steps dmli_op_slice1 = {
    .validate = slice1_validate, .infer = slice1_infer, .lower = lower};
