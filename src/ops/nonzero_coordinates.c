/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_NONZERO_COORDINATES: the coordinates of InputTensor's nonzero elements (+0.0 and
 * -0.0 both zero), one row each, in ascending element order, and their count. A kernel of the
 * selection family (cl/misc.cl nonzero: one work-group counts, scans and writes in element
 * order, so that the order is the same on every device). Rows past the count are left as they
 * were (the page leaves them undefined).
 *
 * The rules: InputTensor FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or
 * UINT8 (feature level 3.0's eight and the 64-bit integers), 1 to 8 dimensions;
 * OutputCountTensor UINT32, every size 1; OutputCoordinatesTensor UINT32 of Sizes
 * {1, ..., 1, M, N} (2 to 8 dimensions): M the input's elements (so at most 2^32 - 1, a UINT
 * size, which the UINT32 count holds), N at least the input's
 * effective rank (its DimensionCount without leading 1s) and at most its DimensionCount; the
 * columns are the input's last N coordinates. Feature level 3.0's page asks the three tensors
 * for one DimensionCount of 4 or 5; ONNX Runtime's DirectML provider passes the input at its
 * own rank, the count as {1} and the coordinates as {M, N}, which is taken too.
 */
#include "misc.h"
#include "ops/common.h"

#define OP "NONZERO_COORDINATES"
#define BIT(t) (1u << (t))
#define INPUT_TYPES                                                          \
    (BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | BIT(DML_TENSOR_DATA_TYPE_FLOAT16) | \
     BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) |     \
     BIT(DML_TENSOR_DATA_TYPE_INT16) | BIT(DML_TENSOR_DATA_TYPE_INT8) |      \
     BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32) |   \
     BIT(DML_TENSOR_DATA_TYPE_UINT16) | BIT(DML_TENSOR_DATA_TYPE_UINT8))

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_NONZERO_COORDINATES_OPERATOR_DESC *d = desc;
    DMLI_TRY(
        dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputCountTensor", d->OutputCountTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputCoordinatesTensor", d->OutputCoordinatesTensor,
                                DMLI_TENSOR_OUTPUT, &st->outputs[1]));
    const dmli_tensor *in = &st->inputs[0], *count = &st->outputs[0], *coords = &st->outputs[1];
    DMLI_INVALID_IF(in->type >= 32 || !(INPUT_TYPES & BIT(in->type)),
                    OP ": InputTensor.DataType (%s) must be FLOAT32, FLOAT16, INT64, INT32, INT16, "
                       "INT8, UINT64, UINT32, UINT16 or UINT8",
                    dmli_type_name(in->type));
    DMLI_INVALID_IF(count->type != DML_TENSOR_DATA_TYPE_UINT32,
                    OP ": OutputCountTensor.DataType (%s) must be UINT32",
                    dmli_type_name(count->type));
    DMLI_INVALID_IF(coords->type != DML_TENSOR_DATA_TYPE_UINT32,
                    OP ": OutputCoordinatesTensor.DataType (%s) must be UINT32",
                    dmli_type_name(coords->type));
    DMLI_INVALID_IF(coords->rank < 2,
                    OP ": OutputCoordinatesTensor.DimensionCount (%u) must be at least 2 ({M, N})",
                    coords->rank);
    st->n_inputs = 1;
    st->n_outputs = 2;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputCountTensor";
    st->output_names[1] = "OutputCoordinatesTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *count = &st->outputs[0], *coords = &st->outputs[1];
    for (uint32_t k = 0; k < count->rank; ++k)
        DMLI_INVALID_IF(count->sizes[k] != 1,
                        OP ": OutputCountTensor.Sizes[%u] (%llu) must be 1: the count is a scalar",
                        k, (unsigned long long)count->sizes[k]);
    const uint32_t r = coords->rank;
    for (uint32_t k = 0; k + 2 < r; ++k)
        DMLI_INVALID_IF(coords->sizes[k] != 1,
                        OP ": OutputCoordinatesTensor.Sizes[%u] (%llu) must be 1: the Sizes are "
                           "{1, ..., 1, M, N}",
                        k, (unsigned long long)coords->sizes[k]);
    DMLI_INVALID_IF(coords->sizes[r - 2] != in->elements,
                    OP ": OutputCoordinatesTensor.Sizes[%u] (%llu), M, must equal InputTensor's "
                       "element count (%llu)",
                    r - 2, (unsigned long long)coords->sizes[r - 2],
                    (unsigned long long)in->elements);
    uint32_t effective = in->rank;
    while (effective > 0 && in->sizes[in->rank - effective] == 1)
        --effective;
    const uint64_t n = coords->sizes[r - 1];
    DMLI_INVALID_IF(n < effective || n > in->rank,
                    OP ": OutputCoordinatesTensor.Sizes[%u] (%llu), N, must be at least "
                       "InputTensor's effective rank (%u: its DimensionCount without leading 1s) "
                       "and at most InputTensor.DimensionCount (%u)",
                    r - 1, (unsigned long long)n, effective, in->rank);
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *coords = &st->outputs[1];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_MISC);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, 0);
    dmli_compute_add(c, st, true, 1);
    dmli_misc *m = DMLI_COMPUTE_WORK(c, dmli_misc);
    m->kind = DMLI_MISC_NONZERO;
    m->type = in->type;
    m->rank = (int)in->rank;
    for (uint32_t k = 0; k < in->rank; ++k) {
        m->size[k] = (int64_t)in->sizes[k];
        m->stride[0][k] = in->strides[k];
    }
    const uint32_t r = coords->rank;
    const int64_t n = (int64_t)coords->sizes[r - 1];
    m->param[0] = n;
    m->param[1] = (int64_t)in->rank - n;
    m->param[2] = coords->strides[r - 2];
    m->param[3] = coords->strides[r - 1];
}

const dmli_op_steps dmli_op_nonzero_coordinates = {
    .validate = validate, .infer = infer, .lower = lower};
