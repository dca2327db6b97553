/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_SLICE_GRAD: SLICE1's backward pass. The incoming gradient has the sizes of
 * SLICE1's output and OutputGradientTensor those of SLICE1's input; each gradient element goes
 * where SLICE1 read it, every other output element is 0:
 *
 *   OutputGradient[start + InputWindowStrides * j] = InputGradient[j], start the window's first
 *   element (its last where the stride is negative); 0 off that lattice.
 *
 * The rules are SLICE1's with the roles swapped (the window inside OutputGradientTensor, a
 * stride never 0, the gradient at most 1 + (size - 1) / |stride| long along each dimension),
 * InputGradientTensor and OutputGradientTensor of one DataType and DimensionCount, DimensionCount
 * theirs. Types: feature level 4.1's table (FLOAT64, FLOAT32, FLOAT16 and the 8- to 64-bit
 * integers; 3.0 had the floats and integers up to 32 bits). The lattice is one to one, so the
 * result is a copy or a zero, bit-exact: the gradient family's slice_grad kernel (cl/grad.cl),
 * a gather per output element.
 */
#include "grad.h"
#include "ops/common.h"

#define OP "SLICE_GRAD"
#define TYPE_LIST \
    "FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

static bool type_taken(DML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_INT64:
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_UINT8: return true;
    default: return false;
    }
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_SLICE_GRAD_OPERATOR_DESC *d = desc;
    dmli_tensor *dy = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "InputGradientTensor", d->InputGradientTensor,
                                DMLI_TENSOR_INPUT, dy));
    DMLI_TRY(dmli_tensor_import(OP, "OutputGradientTensor", d->OutputGradientTensor,
                                DMLI_TENSOR_OUTPUT, out));
    DMLI_INVALID_IF(!type_taken(dy->type),
                    OP ": InputGradientTensor.DataType (%s) is not one " OP " takes (" TYPE_LIST
                       ")",
                    dmli_type_name(dy->type));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputGradientTensor", out, "InputGradientTensor", dy));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputGradientTensor", out, "InputGradientTensor", dy));
    DMLI_INVALID_IF(d->DimensionCount != dy->rank,
                    OP ": DimensionCount (%u) must equal InputGradientTensor.DimensionCount (%u)",
                    d->DimensionCount, dy->rank);
    static const char *const names[3] = {"InputWindowOffsets", "InputWindowSizes",
                                         "InputWindowStrides"};
    const void *const lists[3] = {d->InputWindowOffsets, d->InputWindowSizes,
                                  d->InputWindowStrides};
    for (int k = 0; k < 3; ++k)
        DMLI_INVALID_IF(!lists[k], OP ": %s (NULL) must point to DimensionCount (%u) values",
                        names[k], d->DimensionCount);
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputGradientTensor";
    st->output_names[0] = "OutputGradientTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_SLICE_GRAD_OPERATOR_DESC *d = desc;
    const dmli_tensor *dy = &st->inputs[0], *out = &st->outputs[0];
    for (uint32_t i = 0; i < dy->rank; ++i) {
        uint64_t off = d->InputWindowOffsets[i], size = d->InputWindowSizes[i];
        int64_t s = d->InputWindowStrides[i];
        DMLI_INVALID_IF(size == 0, OP ": InputWindowSizes[%u] (0) must be at least 1", i);
        DMLI_INVALID_IF(off + size > out->sizes[i],
                        OP ": InputWindowOffsets[%u] (%llu) + InputWindowSizes[%u] (%llu) = %llu "
                           "must be at most OutputGradientTensor.Sizes[%u] (%llu): the window "
                           "must stay inside the output",
                        i, (unsigned long long)off, i, (unsigned long long)size,
                        (unsigned long long)(off + size), i, (unsigned long long)out->sizes[i]);
        DMLI_INVALID_IF(s == 0, OP ": InputWindowStrides[%u] (0) must not be 0", i);
        uint64_t mag = s < 0 ? (uint64_t)-s : (uint64_t)s, most = 1 + (size - 1) / mag;
        DMLI_INVALID_IF(dy->sizes[i] > most,
                        OP ": InputGradientTensor.Sizes[%u] (%llu) must be at most 1 + "
                           "(InputWindowSizes[%u] (%llu) - 1) / |InputWindowStrides[%u]| (%lld) "
                           "= %llu: the gradient must stay inside the window",
                        i, (unsigned long long)dy->sizes[i], i, (unsigned long long)size, i,
                        (long long)s, (unsigned long long)most);
    }
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_SLICE_GRAD_OPERATOR_DESC *d = desc;
    const dmli_tensor *dy = &st->inputs[0], *out = &st->outputs[0];
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_GRAD);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, 0);
    dmli_grad *g = DMLI_COMPUTE_WORK(c, dmli_grad);
    g->kind = DMLI_GRAD_SLICE;
    g->elem_bytes = out->elem_bytes;
    g->count = (int64_t)out->elements;
    g->rank = out->rank;
    for (uint32_t i = 0; i < out->rank; ++i) {
        int64_t s = d->InputWindowStrides[i];
        int64_t off = d->InputWindowOffsets[i], size = d->InputWindowSizes[i];
        g->dim[i] = (dmli_grad_dim){.out_size = (int64_t)out->sizes[i],
                                    .out_stride = out->strides[i],
                                    .in_size = (int64_t)dy->sizes[i],
                                    .in_stride = dy->strides[i],
                                    .anchor = s < 0 ? off + size - 1 : off,
                                    .step = s < 0 ? -s : s,
                                    .sign = s < 0 ? -1 : 1};
    }
    st->computed = true;
}

const dmli_op_steps dmli_op_slice_grad = {.validate = validate, .infer = infer, .lower = lower};
