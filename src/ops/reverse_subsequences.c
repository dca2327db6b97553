/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_REVERSE_SUBSEQUENCES: along Axis, the first L elements of each sequence reversed
 * and the rest copied, L the sequence's length in SequenceLengthsTensor (clamped to the axis's
 * size, as the page says). A kernel of the selection family (cl/misc.cl reverse): each output
 * element reads its input element through the strides of both, the length through its own.
 *
 * The rules (the page's tables up to feature level 5.0): InputTensor and OutputTensor one of
 * FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8, the same DataType
 * and Sizes; SequenceLengthsTensor UINT32 or UINT64 (and INT32 or INT64: ONNX Runtime's DirectML
 * provider passes ONNX's INT64 lengths as they are; a negative length reverses nothing), its
 * Sizes the input's with 1 along Axis; the three tensors one DimensionCount (1 to 8); Axis
 * below it.
 */
#include "misc.h"
#include "ops/common.h"

#define OP "REVERSE_SUBSEQUENCES"
#define BIT(t) (1u << (t))
#define DATA_TYPES                                                           \
    (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16) | \
     BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) |     \
     BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) |      \
     BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32) |   \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define LENGTH_TYPES                                                       \
    (BIT(DML_TENSOR_DATA_TYPE_UINT32) | BIT(DML_TENSOR_DATA_TYPE_UINT64) | \
     BIT(DML_TENSOR_DATA_TYPE_INT32) | BIT(DML_TENSOR_DATA_TYPE_INT64))

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = desc;
    DMLI_TRY(
        dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "SequenceLengthsTensor", d->SequenceLengthsTensor,
                                DMLI_TENSOR_INPUT, &st->inputs[1]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *in = &st->inputs[0], *len = &st->inputs[1], *out = &st->outputs[0];
    DMLI_INVALID_IF(in->type >= 32 || !(DATA_TYPES & BIT(in->type)),
                    OP ": InputTensor.DataType (%s) must be FLOAT32, FLOAT16, INT64, INT32, INT16, "
                       "INT8, UINT64, UINT32, UINT16 or UINT8",
                    dmli_type_name(in->type));
    DMLI_INVALID_IF(len->type >= 32 || !(LENGTH_TYPES & BIT(len->type)),
                    OP ": SequenceLengthsTensor.DataType (%s) must be UINT32, UINT64, INT32 or "
                       "INT64",
                    dmli_type_name(len->type));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "SequenceLengthsTensor", len, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(d->Axis >= in->rank,
                    OP ": Axis (%u) must be less than InputTensor.DimensionCount (%u)", d->Axis,
                    in->rank);
    st->n_inputs = 2;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->input_names[1] = "SequenceLengthsTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0];
    uint64_t want[DMLI_MAX_RANK];
    for (uint32_t k = 0; k < in->rank; ++k)
        want[k] = k == d->Axis ? 1 : in->sizes[k];
    DMLI_TRY(dmli_ops_expect_sizes(OP, "SequenceLengthsTensor", &st->inputs[1], want,
                                   "InputTensor.Sizes with 1 along Axis"));
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], in->sizes,
                                 "InputTensor.Sizes");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *len = &st->inputs[1], *out = &st->outputs[0];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_MISC);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, false, 1);
    dmli_compute_add(c, st, true, 0);
    dmli_misc *m = DMLI_COMPUTE_WORK(c, dmli_misc);
    m->kind = DMLI_MISC_REVERSE;
    m->type = in->type;
    m->aux_type = len->type;
    m->rank = (int)in->rank;
    for (uint32_t k = 0; k < in->rank; ++k) {
        m->size[k] = (int64_t)in->sizes[k];
        m->stride[0][k] = in->strides[k];
        m->stride[1][k] = k == d->Axis ? 0 : len->strides[k];
        m->stride[2][k] = out->strides[k];
    }
    m->param[0] = d->Axis;
}

const dmli_op_steps dmli_op_reverse_subsequences = {
    .validate = validate, .infer = infer, .lower = lower};
