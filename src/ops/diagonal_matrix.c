/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_DIAGONAL_MATRIX and DML_OPERATOR_DIAGONAL_MATRIX1: a stack of matrices (the
 * last two dimensions; the leading ones count the batch) with Value on a band of diagonals.
 * One map of cl/map_logic.cl (OP 78) on encodings: element p of the output, at row y and
 * column x of its matrix, takes Value where the diagonal t = x - y lies in the band, else the
 * input's element (DIAGONAL_MATRIX1 with InputTensor) or 0.
 *
 * The pages' rules (the tables up to feature level 5.1): OutputTensor 2 to 4 dimensions, one
 * of the eleven types. DIAGONAL_MATRIX: Value on t == Offset; Value a FLOAT, converted to the
 * output's type (the page: "might be truncated, 10.6 becomes 10"; chosen: toward zero,
 * saturated, NaN 0, as CAST converts; FLOAT16 to nearest even). DIAGONAL_MATRIX1: the band
 * DiagonalFillBegin <= t < DiagonalFillEnd, reversed (Value outside [End, Begin)) when Begin
 * > End, the page's useValue = (End >= Begin) ^ (t >= Begin) ^ (t < End); ValueDataType
 * OutputTensor's DataType, Value its encoding; InputTensor optional, of the output's DataType
 * and DimensionCount (the page) and Sizes (chosen: the pseudocode reads
 * InputTensor[coordinate]); in place allowed.
 */
#include <math.h>
#include <string.h>

#include "ops/common.h"

#define BIT(t) (1u << (t))
#define ELEVEN_TYPES                                                         \
    (BIT(DML_TENSOR_DATA_TYPE_FLOAT64) | BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | \
     BIT(DML_TENSOR_DATA_TYPE_FLOAT16) | BIT(DML_TENSOR_DATA_TYPE_INT64) |   \
     BIT(DML_TENSOR_DATA_TYPE_INT32) | BIT(DML_TENSOR_DATA_TYPE_INT16) |     \
     BIT(DML_TENSOR_DATA_TYPE_INT8) | BIT(DML_TENSOR_DATA_TYPE_UINT64) |     \
     BIT(DML_TENSOR_DATA_TYPE_UINT32) | BIT(DML_TENSOR_DATA_TYPE_UINT16) |   \
     BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define ELEVEN_TYPE_LIST \
    "FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

/* What validate finds for lower (st->scratch). */
typedef struct diag_scratch {
    int64_t begin, end; /* the band [begin, end) of diagonals, reversed when begin > end */
    uint64_t value;     /* Value's encoding in the output's type */
} diag_scratch;

static DML_TENSOR_DATA_TYPE bits_type(DML_TENSOR_DATA_TYPE t)
{
    switch (dmli_type_size(t)) {
    case 1: return DML_TENSOR_DATA_TYPE_UINT8;
    case 2: return DML_TENSOR_DATA_TYPE_UINT16;
    case 4: return DML_TENSOR_DATA_TYPE_UINT32;
    default: return DML_TENSOR_DATA_TYPE_UINT64;
    }
}

static HRESULT check_output(const char *op, const dmli_tensor *out)
{
    DMLI_INVALID_IF(out->type >= 32 || !(ELEVEN_TYPES & BIT(out->type)),
                    "%s: OutputTensor.DataType (%s) is not one %s writes (" ELEVEN_TYPE_LIST ")",
                    op, dmli_type_name(out->type), op);
    DMLI_INVALID_IF(out->rank < 2 || out->rank > 4,
                    "%s: OutputTensor.DimensionCount (%u) must be 2 to 4 ({[Batch1], [Batch2], "
                    "OutputHeight, OutputWidth})",
                    op, out->rank);
    return S_OK;
}

/* FLOAT16's encoding of a float32, rounded to nearest even (NaN quieted, its sign kept). */
static uint64_t half_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 255)
        return sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0);
    int exp = (int)e - 112;
    if (exp >= 31)
        return sign | 0x7c00u;
    if (exp <= 0) {
        if (exp < -10)
            return sign;
        m |= 0x800000u;
        int shift = 14 - exp;
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        return sign | (h + (rem > half || (rem == half && (h & 1))));
    }
    uint32_t h = ((uint32_t)exp << 10) | (m >> 13), rem = m & 0x1fffu;
    return sign | (h + (rem > 0x1000u || (rem == 0x1000u && (h & 1))));
}

/* A FLOAT converted to t's encoding: floats rounded to nearest even, integers toward zero,
 * saturated, NaN 0. */
static uint64_t float_bits(float v, DML_TENSOR_DATA_TYPE t)
{
    double d = v, lo = 0, hi = 0;
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        return b;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        return b;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: return half_bits(v);
    case DML_TENSOR_DATA_TYPE_INT8: lo = -128, hi = 127; break;
    case DML_TENSOR_DATA_TYPE_INT16: lo = -32768, hi = 32767; break;
    case DML_TENSOR_DATA_TYPE_INT32: lo = -2147483648.0, hi = 2147483647.0; break;
    case DML_TENSOR_DATA_TYPE_INT64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
    case DML_TENSOR_DATA_TYPE_UINT8: hi = 255; break;
    case DML_TENSOR_DATA_TYPE_UINT16: hi = 65535; break;
    case DML_TENSOR_DATA_TYPE_UINT32: hi = 4294967295.0; break;
    default: hi = 18446744073709551615.0; break;
    }
    if (d != d)
        return 0;
    d = trunc(d);
    uint64_t bits;
    if (d <= lo)
        bits = lo == 0 ? 0 : (uint64_t)(int64_t)lo;
    else if (d >= hi)
        bits = t == DML_TENSOR_DATA_TYPE_UINT64  ? UINT64_MAX
               : t == DML_TENSOR_DATA_TYPE_INT64 ? (uint64_t)INT64_MAX
                                                 : (uint64_t)(int64_t)hi;
    else
        bits = lo < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
    uint32_t w = dmli_type_size(t);
    return w == 8 ? bits : bits & ((UINT64_C(1) << (8 * w)) - 1);
}

static void set_outputs(dmli_op_state *st)
{
    st->n_outputs = 1;
    st->output_names[0] = "OutputTensor";
}

static HRESULT validate_diagonal_matrix(const void *desc, dmli_op_state *st)
{
    const DML_DIAGONAL_MATRIX_OPERATOR_DESC *d = desc;
    DMLI_TRY(dmli_tensor_import("DIAGONAL_MATRIX", "OutputTensor", d->OutputTensor,
                                DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    DMLI_TRY(check_output("DIAGONAL_MATRIX", &st->outputs[0]));
    st->n_inputs = 0;
    set_outputs(st);
    diag_scratch *s = DMLI_OP_SCRATCH(st, diag_scratch);
    s->begin = d->Offset;
    s->end = (int64_t)d->Offset + 1;
    s->value = float_bits(d->Value, st->outputs[0].type);
    return S_OK;
}

static HRESULT validate_diagonal_matrix1(const void *desc, dmli_op_state *st)
{
    const char *op = "DIAGONAL_MATRIX1";
    const DML_DIAGONAL_MATRIX1_OPERATOR_DESC *d = desc;
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", d->InputTensor,
                                DMLI_TENSOR_INPUT | DMLI_TENSOR_OPTIONAL, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(check_output(op, out));
    DMLI_INVALID_IF(d->ValueDataType != out->type,
                    "%s: ValueDataType (%s) must match OutputTensor.DataType (%s)", op,
                    dmli_type_name(d->ValueDataType), dmli_type_name(out->type));
    if (in->present) {
        DMLI_TRY(dmli_ops_same_type(op, "InputTensor", in, "OutputTensor", out));
        DMLI_TRY(dmli_ops_same_rank(op, "InputTensor", in, "OutputTensor", out));
    }
    st->n_inputs = 1;
    st->input_names[0] = "InputTensor";
    st->in_place = true;
    set_outputs(st);
    diag_scratch *s = DMLI_OP_SCRATCH(st, diag_scratch);
    s->begin = d->DiagonalFillBegin;
    s->end = d->DiagonalFillEnd;
    uint64_t bits = 0;
    memcpy(&bits, d->Value.Bytes, dmli_type_size(out->type));
    s->value = bits;
    return S_OK;
}

static HRESULT infer_diagonal_matrix(const void *desc, dmli_op_state *st)
{
    (void)desc, (void)st; /* the output may have any sizes */
    return S_OK;
}

static HRESULT infer_diagonal_matrix1(const void *desc, dmli_op_state *st)
{
    (void)desc;
    if (!st->inputs[0].present)
        return S_OK;
    return dmli_ops_expect_sizes("DIAGONAL_MATRIX1", "InputTensor", &st->inputs[0],
                                 st->outputs[0].sizes,
                                 "OutputTensor.Sizes: Value or InputTensor[coordinate]");
}

static void lower_diagonal(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    const diag_scratch *s = DMLI_OP_SCRATCH(st, diag_scratch);
    bool input = st->n_inputs == 1 && in->present;
    dmli_map *m = &st->map;
    st->mapped = true;
    dmli_map_init(m, DMLI_MAP_DIAGONAL, bits_type(out->type), input ? 1 : 0);
    if (input) {
        m->in[0].type = bits_type(in->type);
        m->in[0].slot = 0;
    }
    int64_t lo = s->begin < s->end ? s->begin : s->end, hi = s->begin < s->end ? s->end : s->begin;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, (int64_t)out->sizes[out->rank - 1]);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 1, (int64_t)out->sizes[out->rank - 2]);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 2, (int64_t)s->value);
    dmli_map_param_int(m, DMLI_MAP_PARAM_ACT, lo);
    dmli_map_param_int(m, DMLI_MAP_PARAM_ACT + 1, hi - lo);
    dmli_map_param_int(m, DMLI_MAP_PARAM_ACT + 2, s->begin > s->end);
    for (uint32_t k = 0; k < out->rank; ++k) {
        int64_t in_strides[DMLI_MAP_MAX_INPUTS] = {input ? in->strides[k] : 0};
        dmli_map_push(m, (int64_t)out->sizes[k], out->strides[k], in_strides);
    }
}

const dmli_op_steps dmli_op_diagonal_matrix = {
    .validate = validate_diagonal_matrix, .infer = infer_diagonal_matrix, .lower = lower_diagonal};
const dmli_op_steps dmli_op_diagonal_matrix1 = {.validate = validate_diagonal_matrix1,
                                                .infer = infer_diagonal_matrix1,
                                                .lower = lower_diagonal};
