/* SPDX-License-Identifier: MIT */
/*
 * DirectML's comparisons, logic, bit operations, tests, select, casts and fills as rows of the
 * element-wise engine (ops/elementwise.h), each a map of cl/map_logic.cl (OPs 64-95). Type
 * tables: the union of each operator's feature-level tables up to 6.4, as DirectML's pages
 * list them. Rules where the pages are silent (docs/operators.md, chosen and tested):
 *
 * - Comparisons compare the operands in their own type (INT64 and UINT64 exactly, FLOAT16 in
 *   float): a NaN compares false, -0 equals +0; the result is 1 or 0 in UINT8 or UINT32.
 * - LOGICAL_*: an operand is true when it is not 0; the result is 1 or 0.
 * - BIT_*: on the elements' encodings (the pages: the data type only gives the width), so
 *   float tensors are read as unsigned integers of their width. Shifts are logical; a count
 *   at or past the width shifts every bit out (0), as numpy's shifts (ONNX BitShift's
 *   reference implementation) define it; a count is never reduced modulo the width.
 * - CAST: floats to integers truncate toward zero and saturate, NaN gives 0 (Direct3D's ftoi
 *   and ftou, dmlcl's PADDING value rule); integers to narrower integers wrap (two's
 *   complement, ONNX Runtime's static_cast); to a float type, rounded once to nearest even
 *   (FLOAT64 to FLOAT16 too); float to float keeps NaN, infinities and -0.
 * - FILL_VALUE_CONSTANT writes Value's encoding (bit-exact: NaN payloads, -0);
 *   FILL_VALUE_SEQUENCE writes ValueStart + i * ValueDelta, i the element's flat logical
 *   index, integers wrapping, floats rounded once from a fused multiply-add (FLOAT16: the
 *   float result rounded again, within 1 ulp).
 * ValueDataType must equal OutputTensor.DataType (the pages' rule).
 */
#include <math.h>
#include <string.h>

#include "ops/elementwise.h"

#define TEN_TYPES DMLI_EW_TEN_TYPES
#define F16_F32 DMLI_EW_F16_F32
#define BIT DMLI_EW_BIT
#define ELEVEN_TYPES (TEN_TYPES | BIT(DML_TENSOR_DATA_TYPE_FLOAT64))
#define ELEVEN_TYPE_LIST "FLOAT64, " DMLI_EW_TEN_TYPE_LIST
#define U8_U32 (BIT(DML_TENSOR_DATA_TYPE_UINT8) | BIT(DML_TENSOR_DATA_TYPE_UINT32))
#define U8_U32_LIST "UINT32, UINT8"

/* The unsigned integer type of t's width: bit operations read encodings. */
static DML_TENSOR_DATA_TYPE bits_type(DML_TENSOR_DATA_TYPE t)
{
    switch (dmli_type_size(t)) {
    case 1: return DML_TENSOR_DATA_TYPE_UINT8;
    case 2: return DML_TENSOR_DATA_TYPE_UINT16;
    case 4: return DML_TENSOR_DATA_TYPE_UINT32;
    default: return DML_TENSOR_DATA_TYPE_UINT64;
    }
}

static void bits_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)desc;
    for (int k = 0; k < r->arity; ++k)
        m->in[k].type = bits_type(m->in[k].type);
    if (r->out_types == 0) /* BIT_COUNT keeps its UINT8 or UINT32 output */
        m->out.type = bits_type(m->out.type);
}

/* The operators of a family share one map operation (and so their kernels); the row's name
 * gives the variant, q0 (q1 for the shifts). */
static const char *const compare_names[] = {"ELEMENT_WISE_LOGICAL_EQUALS",
                                            "ELEMENT_WISE_LOGICAL_GREATER_THAN",
                                            "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL",
                                            "ELEMENT_WISE_LOGICAL_LESS_THAN",
                                            "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL",
                                            NULL};
static const char *const logical_names[] = {"ELEMENT_WISE_LOGICAL_AND", "ELEMENT_WISE_LOGICAL_OR",
                                            "ELEMENT_WISE_LOGICAL_XOR", NULL};
static const char *const bit_names[] = {"ELEMENT_WISE_BIT_AND", "ELEMENT_WISE_BIT_OR",
                                        "ELEMENT_WISE_BIT_XOR", NULL};
static const char *const shift_names[] = {"ELEMENT_WISE_BIT_SHIFT_LEFT",
                                          "ELEMENT_WISE_BIT_SHIFT_RIGHT", NULL};

static int64_t variant(const dmli_ew_row *r, const char *const *names)
{
    int64_t v = 0;
    while (names[v] && strcmp(names[v], r->name) != 0)
        ++v;
    return v;
}

static void compare_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)desc;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, variant(r, compare_names));
}

static void logical_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)desc;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, variant(r, logical_names));
}

static void bit_logic_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    bits_params(r, desc, m);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, variant(r, bit_names));
}

/* IF selects encodings: A, B and the output as unsigned types of their width (bit-exact, NaN
 * payloads included); the condition stays UINT8. */
static void if_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r, (void)desc;
    m->in[1].type = bits_type(m->in[1].type);
    m->in[2].type = bits_type(m->in[2].type);
    m->out.type = bits_type(m->out.type);
}

static void shift_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    bits_params(r, desc, m);
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, 8 * (int64_t)dmli_type_size(m->out.type));
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP + 1, variant(r, shift_names));
}

/* IS_INFINITY: InputTensor, OutputTensor, then InfinityMode. */
static HRESULT is_infinity_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)st;
    const DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC *d = desc;
    DMLI_INVALID_IF((unsigned)d->InfinityMode > DML_IS_INFINITY_MODE_NEGATIVE,
                    "%s: InfinityMode (%d) is not a DML_IS_INFINITY_MODE (EITHER 0, POSITIVE 1, "
                    "NEGATIVE 2)",
                    r->name, (int)d->InfinityMode);
    return S_OK;
}

static void is_infinity_params(const dmli_ew_row *r, const void *desc, dmli_map *m)
{
    (void)r;
    const DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC *d = desc;
    dmli_map_param_int(m, DMLI_MAP_PARAM_OP, (int64_t)d->InfinityMode);
}

/* IF: ATensor, BTensor and OutputTensor share one DataType (the condition is UINT8). */
static HRESULT if_check(const dmli_ew_row *r, const void *desc, dmli_op_state *st)
{
    (void)desc;
    DMLI_TRY(dmli_ops_same_type(r->name, "BTensor", &st->inputs[2], "ATensor", &st->inputs[1]));
    return dmli_ops_same_type(r->name, "OutputTensor", &st->outputs[0], "ATensor", &st->inputs[1]);
}

static const char *const if_names[] = {"ConditionTensor", "ATensor", "BTensor"};

#define COMPARE_ROW(label)                                                                     \
    {                                                                                          \
        .name = label, .op = DMLI_MAP_COMPARE, .arity = 2, .types = TEN_TYPES,                 \
        .type_list = DMLI_EW_TEN_TYPE_LIST, .out_types = U8_U32, .out_type_list = U8_U32_LIST, \
        .params = compare_params                                                               \
    }
#define LOGICAL_ROW(label)                                                  \
    {                                                                       \
        .name = label, .op = DMLI_MAP_LOGICAL, .arity = 2, .types = U8_U32, \
        .type_list = U8_U32_LIST, .params = logical_params                  \
    }
#define BITS_ROW(label)                                                             \
    {                                                                               \
        .name = label, .op = DMLI_MAP_BIT_LOGIC, .arity = 2, .types = ELEVEN_TYPES, \
        .type_list = ELEVEN_TYPE_LIST, .params = bit_logic_params                   \
    }
#define SHIFT_ROW(label)                                                                 \
    {                                                                                    \
        .name = label, .op = DMLI_MAP_SHIFT, .arity = 2, .types = DMLI_EW_UNSIGNED_INTS, \
        .type_list = "UINT64, UINT32, UINT16, UINT8", .params = shift_params             \
    }

static const dmli_ew_row rows[] = {
    COMPARE_ROW("ELEMENT_WISE_LOGICAL_EQUALS"),
    COMPARE_ROW("ELEMENT_WISE_LOGICAL_GREATER_THAN"),
    COMPARE_ROW("ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL"),
    COMPARE_ROW("ELEMENT_WISE_LOGICAL_LESS_THAN"),
    COMPARE_ROW("ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL"),
    LOGICAL_ROW("ELEMENT_WISE_LOGICAL_AND"),
    LOGICAL_ROW("ELEMENT_WISE_LOGICAL_OR"),
    LOGICAL_ROW("ELEMENT_WISE_LOGICAL_XOR"),
    {.name = "ELEMENT_WISE_LOGICAL_NOT",
     .op = DMLI_MAP_LOGICAL_NOT,
     .arity = 1,
     .types = U8_U32,
     .type_list = U8_U32_LIST},
    BITS_ROW("ELEMENT_WISE_BIT_AND"),
    BITS_ROW("ELEMENT_WISE_BIT_OR"),
    BITS_ROW("ELEMENT_WISE_BIT_XOR"),
    {.name = "ELEMENT_WISE_BIT_NOT",
     .op = DMLI_MAP_BIT_NOT,
     .arity = 1,
     .types = ELEVEN_TYPES,
     .type_list = ELEVEN_TYPE_LIST,
     .params = bits_params},
    SHIFT_ROW("ELEMENT_WISE_BIT_SHIFT_LEFT"),
    SHIFT_ROW("ELEMENT_WISE_BIT_SHIFT_RIGHT"),
    {.name = "ELEMENT_WISE_BIT_COUNT",
     .op = DMLI_MAP_BIT_COUNT,
     .arity = 1,
     .types = ELEVEN_TYPES,
     .type_list = ELEVEN_TYPE_LIST,
     .out_types = U8_U32,
     .out_type_list = U8_U32_LIST,
     .params = bits_params},
    {.name = "ELEMENT_WISE_IS_INFINITY",
     .op = DMLI_MAP_IS_INFINITY,
     .arity = 1,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16",
     .out_types = BIT(DML_TENSOR_DATA_TYPE_UINT8),
     .out_type_list = "UINT8",
     .check = is_infinity_check,
     .params = is_infinity_params},
    {.name = "ELEMENT_WISE_IS_NAN",
     .op = DMLI_MAP_IS_NAN,
     .arity = 1,
     .types = F16_F32,
     .type_list = "FLOAT32, FLOAT16",
     .out_types = U8_U32,
     .out_type_list = U8_U32_LIST},
    {.name = "ELEMENT_WISE_IF",
     .op = DMLI_MAP_IF,
     .arity = 3,
     .input_names = if_names,
     .types = BIT(DML_TENSOR_DATA_TYPE_UINT8),
     .type_list = "UINT8",
     .out_types = ELEVEN_TYPES,
     .out_type_list = ELEVEN_TYPE_LIST,
     .own_type_inputs = BIT(1) | BIT(2),
     .check = if_check,
     .params = if_params},
    {.name = "CAST",
     .op = DMLI_MAP_CAST,
     .arity = 1,
     .types = ELEVEN_TYPES,
     .type_list = ELEVEN_TYPE_LIST,
     .out_types = ELEVEN_TYPES,
     .out_type_list = ELEVEN_TYPE_LIST},
};

enum {
    ROW_EQUALS,
    ROW_GREATER,
    ROW_GREATER_EQUAL,
    ROW_LESS,
    ROW_LESS_EQUAL,
    ROW_AND,
    ROW_OR,
    ROW_XOR,
    ROW_NOT,
    ROW_BIT_AND,
    ROW_BIT_OR,
    ROW_BIT_XOR,
    ROW_BIT_NOT,
    ROW_SHIFT_LEFT,
    ROW_SHIFT_RIGHT,
    ROW_BIT_COUNT,
    ROW_IS_INFINITY,
    ROW_IS_NAN,
    ROW_IF,
    ROW_CAST
};

DMLI_EW_OP(ew_logical_equals, rows, ROW_EQUALS)
DMLI_EW_OP(ew_logical_greater_than, rows, ROW_GREATER)
DMLI_EW_OP(ew_logical_greater_than_or_equal, rows, ROW_GREATER_EQUAL)
DMLI_EW_OP(ew_logical_less_than, rows, ROW_LESS)
DMLI_EW_OP(ew_logical_less_than_or_equal, rows, ROW_LESS_EQUAL)
DMLI_EW_OP(ew_logical_and, rows, ROW_AND)
DMLI_EW_OP(ew_logical_or, rows, ROW_OR)
DMLI_EW_OP(ew_logical_xor, rows, ROW_XOR)
DMLI_EW_OP(ew_logical_not, rows, ROW_NOT)
DMLI_EW_OP(ew_bit_and, rows, ROW_BIT_AND)
DMLI_EW_OP(ew_bit_or, rows, ROW_BIT_OR)
DMLI_EW_OP(ew_bit_xor, rows, ROW_BIT_XOR)
DMLI_EW_OP(ew_bit_not, rows, ROW_BIT_NOT)
DMLI_EW_OP(ew_bit_shift_left, rows, ROW_SHIFT_LEFT)
DMLI_EW_OP(ew_bit_shift_right, rows, ROW_SHIFT_RIGHT)
DMLI_EW_OP(ew_bit_count, rows, ROW_BIT_COUNT)
DMLI_EW_OP(ew_is_infinity, rows, ROW_IS_INFINITY)
DMLI_EW_OP(ew_is_nan, rows, ROW_IS_NAN)
DMLI_EW_OP(ew_if, rows, ROW_IF)
DMLI_EW_OP(cast, rows, ROW_CAST)

/* ---- FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE: maps of no input ------------------- */

/* Both descriptors start OutputTensor, ValueDataType, then their values. */
typedef struct fill_head {
    const DML_TENSOR_DESC *OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
} fill_head;

/* CONSTANT writes the eleven types (FLOAT64 from feature level 4.1), SEQUENCE the ten (no table
 * of its page, up to 5.0, lists FLOAT64). */
static HRESULT fill_validate(const char *op, unsigned types, const char *type_list,
                             const void *desc, dmli_op_state *st)
{
    const fill_head *d = desc;
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *out = &st->outputs[0];
    DMLI_INVALID_IF(out->type >= 32 || !(types & BIT(out->type)),
                    "%s: OutputTensor.DataType (%s) is not one %s writes (%s)", op,
                    dmli_type_name(out->type), op, type_list);
    DMLI_INVALID_IF(d->ValueDataType != out->type,
                    "%s: ValueDataType (%s) must match OutputTensor.DataType (%s)", op,
                    dmli_type_name(d->ValueDataType), dmli_type_name(out->type));
    st->n_inputs = 0;
    st->n_outputs = 1;
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT fill_infer(const void *desc, dmli_op_state *st)
{
    (void)desc, (void)st; /* the output may have any sizes */
    return S_OK;
}

static void fill_map(dmli_op_state *st, dmli_map_op op, DML_TENSOR_DATA_TYPE type)
{
    const dmli_tensor *out = &st->outputs[0];
    st->mapped = true;
    dmli_map_init(&st->map, op, type, 0);
    int64_t none[DMLI_MAP_MAX_INPUTS] = {0};
    for (uint32_t d = 0; d < out->rank; ++d)
        dmli_map_push(&st->map, (int64_t)out->sizes[d], out->strides[d], none);
}

/* The scalar's encoding, zero-extended (the union's first bytes hold it). */
static int64_t scalar_bits(DML_TENSOR_DATA_TYPE t, const DML_SCALAR_UNION *v)
{
    uint64_t bits = 0;
    memcpy(&bits, v->Bytes, dmli_type_size(t));
    return (int64_t)bits;
}

/* The scalar as a value: floats exactly (FLOAT16 from its bits), integers with their sign. */
static void scalar_param(dmli_map *m, int i, DML_TENSOR_DATA_TYPE t, const DML_SCALAR_UNION *v)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT64: dmli_map_param_real(m, i, v->Float64); return;
    case DML_TENSOR_DATA_TYPE_FLOAT32: dmli_map_param_real(m, i, v->Float32); return;
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint32_t h = v->UInt16, e = (h >> 10) & 31, f = h & 1023;
        double x = e == 31  ? (f ? (double)NAN : (double)INFINITY)
                   : e == 0 ? ldexp((double)f, -24)
                            : ldexp((double)(f | 1024), (int)e - 25);
        dmli_map_param_real(m, i, (h & 0x8000) ? -x : x);
        return;
    }
    case DML_TENSOR_DATA_TYPE_INT8: dmli_map_param_int(m, i, v->Int8); return;
    case DML_TENSOR_DATA_TYPE_INT16: dmli_map_param_int(m, i, v->Int16); return;
    case DML_TENSOR_DATA_TYPE_INT32: dmli_map_param_int(m, i, v->Int32); return;
    default: dmli_map_param_int(m, i, scalar_bits(t, v)); return; /* INT64, unsigned */
    }
}

static HRESULT validate_fill_value_constant(const void *desc, dmli_op_state *st)
{
    return fill_validate("FILL_VALUE_CONSTANT", ELEVEN_TYPES, ELEVEN_TYPE_LIST, desc, st);
}

static void lower_fill_value_constant(const void *desc, dmli_op_state *st)
{
    const DML_FILL_VALUE_CONSTANT_OPERATOR_DESC *d = desc;
    DML_TENSOR_DATA_TYPE t = st->outputs[0].type;
    fill_map(st, DMLI_MAP_FILL_BITS, bits_type(t));
    dmli_map_param_int(&st->map, DMLI_MAP_PARAM_OP, scalar_bits(t, &d->Value));
}

const dmli_op_steps dmli_op_fill_value_constant = {.validate = validate_fill_value_constant,
                                                   .infer = fill_infer,
                                                   .lower = lower_fill_value_constant};

static HRESULT validate_fill_value_sequence(const void *desc, dmli_op_state *st)
{
    return fill_validate("FILL_VALUE_SEQUENCE", TEN_TYPES, DMLI_EW_TEN_TYPE_LIST, desc, st);
}

static void lower_fill_value_sequence(const void *desc, dmli_op_state *st)
{
    const DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC *d = desc;
    DML_TENSOR_DATA_TYPE t = st->outputs[0].type;
    fill_map(st, DMLI_MAP_FILL_SEQUENCE, t);
    scalar_param(&st->map, DMLI_MAP_PARAM_OP, t, &d->ValueStart);
    scalar_param(&st->map, DMLI_MAP_PARAM_OP + 1, t, &d->ValueDelta);
}

const dmli_op_steps dmli_op_fill_value_sequence = {.validate = validate_fill_value_sequence,
                                                   .infer = fill_infer,
                                                   .lower = lower_fill_value_sequence};
