/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_ONE_HOT: OutputTensor[c] = OnValue where c's coordinate along Axis is the index
 * IndicesTensor holds at c (with Axis at 0), else OffValue. A map of cl/map_logic.cl (OP 77)
 * reading the indices (broadcast along Axis by a 0 stride) and the values tensor twice, at its
 * OffValue and at its OnValue (every stride 0), on encodings: the values and the output as
 * unsigned integers of their width, so that no value is rounded (FLOAT64, INT64, NaN payloads,
 * -0) and the index is compared in 64-bit integers (INT64 and UINT64 indices exactly).
 *
 * The page's rules (its tables up to feature level 4.1, the newest): IndicesTensor INT64,
 * INT32, UINT64 or UINT32; ValuesTensor and OutputTensor one of the eleven types, the same
 * DataType; the three tensors one DimensionCount (1 to 8); Axis below it; IndicesTensor's
 * Sizes the output's with 1 along Axis; ValuesTensor at least two elements: element 0 is
 * OffValue, OnValue the element at coordinate 1 along the fastest-changing dimension of size
 * greater than 1 (read through its strides). A negative index of a signed type counts from the
 * end of the axis (feature level 3.0); an index outside the axis matches no element, so that
 * its sequence is all OffValue.
 */
#include "ops/common.h"

#define OP "ONE_HOT"
#define BIT(t) (1u << (t))
#define INDEX_TYPES                                                      \
    (BIT(DML_TENSOR_DATA_TYPE_INT64) | BIT(DML_TENSOR_DATA_TYPE_INT32) | \
     BIT(DML_TENSOR_DATA_TYPE_UINT64) | BIT(DML_TENSOR_DATA_TYPE_UINT32))
#define VALUE_TYPES                                                          \
    (BIT(DML_TENSOR_DATA_TYPE_FLOAT64) | BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | \
     BIT(DML_TENSOR_DATA_TYPE_FLOAT16) | BIT(DML_TENSOR_DATA_TYPE_INT64) |   \
     BIT(DML_TENSOR_DATA_TYPE_INT32) | BIT(DML_TENSOR_DATA_TYPE_INT16) |     \
     BIT(DML_TENSOR_DATA_TYPE_INT8) | BIT(DML_TENSOR_DATA_TYPE_UINT64) |     \
     BIT(DML_TENSOR_DATA_TYPE_UINT32) | BIT(DML_TENSOR_DATA_TYPE_UINT16) |   \
     BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define VALUE_TYPE_LIST \
    "FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

/* The unsigned integer type of t's width: the map moves encodings. */
static DML_TENSOR_DATA_TYPE bits_type(DML_TENSOR_DATA_TYPE t)
{
    switch (dmli_type_size(t)) {
    case 1: return DML_TENSOR_DATA_TYPE_UINT8;
    case 2: return DML_TENSOR_DATA_TYPE_UINT16;
    case 4: return DML_TENSOR_DATA_TYPE_UINT32;
    default: return DML_TENSOR_DATA_TYPE_UINT64;
    }
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_ONE_HOT_OPERATOR_DESC *d = desc;
    DMLI_TRY(dmli_tensor_import(OP, "IndicesTensor", d->IndicesTensor, DMLI_TENSOR_INPUT,
                                &st->inputs[0]));
    DMLI_TRY(
        dmli_tensor_import(OP, "ValuesTensor", d->ValuesTensor, DMLI_TENSOR_INPUT, &st->inputs[1]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *idx = &st->inputs[0], *val = &st->inputs[1], *out = &st->outputs[0];
    DMLI_INVALID_IF(idx->type >= 32 || !(INDEX_TYPES & BIT(idx->type)),
                    OP ": IndicesTensor.DataType (%s) must be INT64, INT32, UINT64 or UINT32",
                    dmli_type_name(idx->type));
    DMLI_INVALID_IF(val->type >= 32 || !(VALUE_TYPES & BIT(val->type)),
                    OP ": ValuesTensor.DataType (%s) is not one ONE_HOT takes (" VALUE_TYPE_LIST
                       ")",
                    dmli_type_name(val->type));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "ValuesTensor", val));
    DMLI_TRY(dmli_ops_same_rank(OP, "ValuesTensor", val, "IndicesTensor", idx));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "IndicesTensor", idx));
    DMLI_INVALID_IF(d->Axis >= idx->rank,
                    OP ": Axis (%u) must be less than IndicesTensor.DimensionCount (%u)", d->Axis,
                    idx->rank);
    DMLI_INVALID_IF(val->elements < 2,
                    OP ": ValuesTensor has %llu element(s): it must have at least 2 (OffValue, "
                       "then OnValue)",
                    (unsigned long long)val->elements);
    st->n_inputs = 2;
    st->n_outputs = 1;
    st->input_names[0] = "IndicesTensor";
    st->input_names[1] = "ValuesTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_ONE_HOT_OPERATOR_DESC *d = desc;
    const dmli_tensor *idx = &st->inputs[0], *out = &st->outputs[0];
    uint64_t want[DMLI_MAX_RANK];
    for (uint32_t k = 0; k < out->rank; ++k)
        want[k] = k == d->Axis ? 1 : out->sizes[k];
    return dmli_ops_expect_sizes(OP, "IndicesTensor", idx, want,
                                 "OutputTensor.Sizes with 1 along Axis");
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_ONE_HOT_OPERATOR_DESC *d = desc;
    const dmli_tensor *idx = &st->inputs[0], *val = &st->inputs[1], *out = &st->outputs[0];
    dmli_map *m = &st->map;
    st->mapped = true;
    dmli_map_init(m, DMLI_MAP_ONE_HOT, bits_type(out->type), 3);
    m->in[0].type = idx->type;
    m->in[0].slot = 0;
    m->in[1].type = m->in[2].type = bits_type(val->type);
    m->in[1].slot = m->in[2].slot = 1;
    /* OnValue: coordinate 1 along the last dimension of ValuesTensor of size above 1. */
    for (uint32_t k = val->rank; k-- > 0;)
        if (val->sizes[k] > 1) {
            m->in[2].offset = val->strides[k];
            break;
        }
    uint64_t inner = 1;
    for (uint32_t k = d->Axis + 1; k < out->rank; ++k)
        inner *= out->sizes[k];
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, (int64_t)inner);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 1, (int64_t)out->sizes[d->Axis]);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 2,
                       idx->type == DML_TENSOR_DATA_TYPE_INT64 ||
                           idx->type == DML_TENSOR_DATA_TYPE_INT32);
    for (uint32_t k = 0; k < out->rank; ++k) {
        int64_t in_strides[DMLI_MAP_MAX_INPUTS] = {k == d->Axis ? 0 : idx->strides[k], 0, 0};
        dmli_map_push(m, (int64_t)out->sizes[k], out->strides[k], in_strides);
    }
}

const dmli_op_steps dmli_op_one_hot = {.validate = validate, .infer = infer, .lower = lower};
