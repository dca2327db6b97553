/* SPDX-License-Identifier: MIT */
/*
 * ref_logic.h: the oracle for DirectML's comparisons, logic, bit operations, tests (IS_NAN,
 * IS_INFINITY), select (IF), CAST and the fills (FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE).
 * Written from DirectML's operator pages and the rules docs/operators.md states where they are
 * silent; nothing from src/. Values are read exactly (integers in 64 bits, floats as doubles),
 * each result computed exactly and rounded once; bit operations work on encodings.
 */
#ifndef DMLCL_TESTS_REF_LOGIC_H
#define DMLCL_TESTS_REF_LOGIC_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_lg_op {
    REF_LG_EQUALS,
    REF_LG_GREATER,
    REF_LG_GREATER_EQUAL,
    REF_LG_LESS,
    REF_LG_LESS_EQUAL,
    REF_LG_AND,
    REF_LG_OR,
    REF_LG_XOR,
    REF_LG_NOT,
    REF_LG_BIT_AND,
    REF_LG_BIT_OR,
    REF_LG_BIT_XOR,
    REF_LG_BIT_NOT,
    REF_LG_SHIFT_LEFT,
    REF_LG_SHIFT_RIGHT,
    REF_LG_BIT_COUNT,
    REF_LG_IS_INFINITY,
    REF_LG_IS_NAN,
    REF_LG_IF,
    REF_LG_CAST,
    REF_LG_COUNT
} ref_lg_op;

/* "LOGICAL_EQUALS", ... and the number of input tensors (IF: condition, A, B). */
const char *ref_lg_name(ref_lg_op op);
int ref_lg_arity(ref_lg_op op);

/*
 * out[c] = f(in[0][c], ...) for every coordinate; mode is IS_INFINITY's
 * DML_IS_INFINITY_MODE (else unused). Every tensor has out's rank and sizes (false otherwise).
 *   comparisons   1 or 0; NaN compares false, -0 == +0, integers exactly
 *   logic         operands true when not 0; 1 or 0
 *   bits          on the encodings; shifts logical, a count >= the width gives 0
 *   IS_INFINITY   EITHER 0, POSITIVE 1, NEGATIVE 2
 *   IF            in[0] != 0 ? in[1] : in[2] (bytes)
 *   CAST          float to integer: toward zero, saturated, NaN 0; integer to integer: wraps;
 *                 to a float: rounded once to nearest even
 */
bool ref_logic(ref_lg_op op, int mode, const ref_tensor *const *in, const ref_tensor *out);

/* Every element of out: value's encoding (its first bytes). */
void ref_fill_constant(const DML_SCALAR_UNION *value, const ref_tensor *out);
/* out[c] = start + i * delta, i = c's row-major index: integers wrap, floats rounded once. */
void ref_fill_sequence(const DML_SCALAR_UNION *start, const DML_SCALAR_UNION *delta,
                       const ref_tensor *out);

/* One element converted as CAST converts it (bytes of from_type to bytes of to_type). */
void ref_cast_element(DML_TENSOR_DATA_TYPE from_type, const void *from,
                      DML_TENSOR_DATA_TYPE to_type, void *to);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_LOGIC_H */
