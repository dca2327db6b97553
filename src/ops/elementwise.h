/* SPDX-License-Identifier: MIT */
/*
 * DirectML's element-wise operators as rows of tables (src/ops/elementwise*.c, activation*.c):
 * a row names the operator, its map operation (internal.h dmli_map_op) or activation, its
 * tensors and type tables; the shared steps validate, infer and lower it to a map. The
 * descriptor of every row starts with its input tensors, in the row's order, then
 * OutputTensor; a row with scale_bias has a `const DML_SCALE_BIAS *` next. What else a
 * descriptor holds (parameters, a fused activation) a row reads through its hooks.
 */
#ifndef DMLI_OPS_ELEMENTWISE_H
#define DMLI_OPS_ELEMENTWISE_H

#include "ops/common.h"

#define DMLI_EW_BIT(t) (1u << (t))
#define DMLI_EW_F16_F32 \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_FLOAT32) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_FLOAT16))
#define DMLI_EW_I32_U32 \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT32) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT32))
#define DMLI_EW_SIGNED_INTS                                                              \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT64) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT32) | \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT16) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_INT8))
#define DMLI_EW_UNSIGNED_INTS                                                              \
    (DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT64) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT32) | \
     DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT16) | DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_UINT8))
#define DMLI_EW_TEN_TYPES (DMLI_EW_F16_F32 | DMLI_EW_SIGNED_INTS | DMLI_EW_UNSIGNED_INTS)
#define DMLI_EW_TEN_TYPE_LIST \
    "FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"

typedef struct dmli_ew_row dmli_ew_row;
struct dmli_ew_row {
    const char *name; /* "ELEMENT_WISE_ADD": the messages' operator */
    dmli_map_op op;
    dmli_act act; /* the activation the row applies itself (ACTIVATION_*), or none */
    int arity;    /* input tensors, 1 to DMLI_MAP_MAX_INPUTS */
    /* Their descriptor member names; NULL: ATensor, BTensor (arity 2), InputTensor (1). */
    const char *const *input_names;
    /* The output's member name; NULL: OutputTensor (the gradients' OutputGradientTensor). */
    const char *output_name;
    bool scale_bias; /* a `const DML_SCALE_BIAS *ScaleBias` follows OutputTensor */
    uint32_t types;  /* DMLI_EW_BIT(DML_TENSOR_DATA_TYPE_*) of the first input */
    const char *type_list;
    /* The output's types when they are not the first input's (0: the first input's type). */
    uint32_t out_types;
    const char *out_type_list;
    /* Inputs (DMLI_EW_BIT(k)) whose DataType check leaves to `check`: they need not have the
     * first input's type (a condition, a shift count). */
    uint32_t own_type_inputs;
    /* Inputs (DMLI_EW_BIT(k)) that may be NULL: DirectML's optional inputs (the quantizations'
     * ZeroPointTensor from feature level 6.2). An absent one is no operand of the map (the
     * others keep their slots); `params` reads the descriptor to choose the operation. */
    uint32_t optional_inputs;
    /* More rules, after the shared ones passed (NULL: none). */
    HRESULT (*check)(const dmli_ew_row *row, const void *desc, dmli_op_state *st);
    /* The map's parameters and activation from the descriptor (NULL: none). */
    void (*params)(const dmli_ew_row *row, const void *desc, dmli_map *map);
};

/* The shared steps of a row: import every tensor, check the types (the row's tables), ranks
 * and sizes (one shape: broadcast only by 0 strides) of those present, then `check`; lower to a
 * map of the row's op and act, reading the present inputs, with `params`. In place is allowed
 * (an output with an input's layout). */
HRESULT dmli_ew_validate(const dmli_ew_row *row, const void *desc, dmli_op_state *st);
HRESULT dmli_ew_infer(const dmli_ew_row *row, const void *desc, dmli_op_state *st);
void dmli_ew_lower(const dmli_ew_row *row, const void *desc, dmli_op_state *st);

/* dmli_op_<id> for the row `row` of the table `rows` (registry.def names id). */
#define DMLI_EW_OP(id, rows, row)                                     \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        return dmli_ew_validate(&(rows)[row], desc, st);              \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        return dmli_ew_infer(&(rows)[row], desc, st);                 \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        dmli_ew_lower(&(rows)[row], desc, st);                        \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

#endif /* DMLI_OPS_ELEMENTWISE_H */
