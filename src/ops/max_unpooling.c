/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_MAX_UNPOOLING: OutputTensor all zeros but at the positions IndicesTensor names,
 * which take the InputTensor element at the index's position. An index counts the output's
 * elements in row-major order of its logical coordinates (the page: the output treated as a
 * contiguous one-dimensional array), so that a strided output is written through its strides.
 * A kernel of the selection family (cl/misc.cl unpool).
 *
 * The page states no rule for an index past the output's last element or for two equal
 * indices; dmlcl's: an index at or past the output's element count writes nothing (never
 * outside the output), and of equal indices the input element last in row-major order wins, on
 * every device (max pooling's indices repeat only where overlapping windows chose one element,
 * whose value they then share).
 *
 * The rules (the page's tables up to feature level 5.0): InputTensor and OutputTensor FLOAT32,
 * FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or UINT8, the same DataType;
 * IndicesTensor UINT32 or UINT64 with InputTensor's Sizes; the three tensors 4 dimensions.
 */
#include "misc.h"
#include "ops/common.h"

#define OP "MAX_UNPOOLING"
#define BIT(t) (1u << (t))
#define DATA_TYPES                                                           \
    (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16) | \
     BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) |     \
     BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) |      \
     BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32) |   \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_MAX_UNPOOLING_OPERATOR_DESC *d = desc;
    DMLI_TRY(
        dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "IndicesTensor", d->IndicesTensor, DMLI_TENSOR_INPUT,
                                &st->inputs[1]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    DMLI_INVALID_IF(in->type >= 32 || !(DATA_TYPES & BIT(in->type)),
                    OP ": InputTensor.DataType (%s) must be FLOAT32, FLOAT16, INT64, INT32, INT16, "
                       "INT8, UINT64, UINT32, UINT16 or UINT8",
                    dmli_type_name(in->type));
    DMLI_INVALID_IF(
        idx->type != DML_TENSOR_DATA_TYPE_UINT32 && idx->type != DML_TENSOR_DATA_TYPE_UINT64,
        OP ": IndicesTensor.DataType (%s) must be UINT32 or UINT64", dmli_type_name(idx->type));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(in->rank != 4, OP ": InputTensor.DimensionCount (%u) must be 4", in->rank);
    DMLI_TRY(dmli_ops_same_rank(OP, "IndicesTensor", idx, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "InputTensor", in));
    st->n_inputs = 2;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->input_names[1] = "IndicesTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    return dmli_ops_expect_sizes(OP, "IndicesTensor", &st->inputs[1], st->inputs[0].sizes,
                                 "InputTensor.Sizes");
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *out = &st->outputs[0];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_MISC);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, false, 1);
    dmli_compute_add(c, st, true, 0);
    dmli_misc *m = DMLI_COMPUTE_WORK(c, dmli_misc);
    m->kind = DMLI_MISC_UNPOOL;
    m->type = in->type;
    m->aux_type = idx->type;
    m->rank = (int)in->rank;
    m->rank_b = (int)out->rank;
    for (uint32_t k = 0; k < in->rank; ++k) {
        m->size[k] = (int64_t)in->sizes[k];
        m->stride[0][k] = in->strides[k];
        m->stride[1][k] = idx->strides[k];
    }
    for (uint32_t k = 0; k < out->rank; ++k) {
        m->size_b[k] = (int64_t)out->sizes[k];
        m->stride_b[k] = out->strides[k];
    }
    m->param[0] = (int64_t)out->elements;
    m->param[1] = (int64_t)out->rank;
}

const dmli_op_steps dmli_op_max_unpooling = {.validate = validate, .infer = infer, .lower = lower};
