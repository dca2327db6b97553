/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the gather family beyond DML_GATHER: GATHER1 (gather1.c),
 * GATHER_ELEMENTS(1) (gather_elements.c), GATHER_ND(1, 2) (gather_nd.c).
 * Defined in gather1.c.
 */
#ifndef DMLI_OPS_GATHERS_H
#define DMLI_OPS_GATHERS_H

#include "ops/common.h"

/*
 * The index type of IndicesTensor: DirectML's four for DirectML operators,
 * any 8- to 64-bit integer type for the extension operators (ext).
 */
HRESULT dmli_gathers_index_type(const char *op, DML_TENSOR_DATA_TYPE type, bool ext,
                                dmli_index_type *out);

/* DMLCL_OUT_OF_RANGE_POLICY -> the plan's policy, or an error. */
HRESULT dmli_gathers_policy(const char *op, DMLCL_OUT_OF_RANGE_POLICY policy, dmli_oor_policy *out);

/*
 * The dims of t before its last `meaningful` ones must be 1 (DirectML's
 * right-aligned padding); count_field names the member giving `meaningful`.
 */
HRESULT dmli_gathers_padding(const char *op, const char *field, const dmli_tensor *t,
                             uint32_t meaningful, const char *count_field);

/*
 * OutputTensor.Sizes must be `list` (n sizes) right-aligned after leading 1s;
 * entries that find no position (n > DimensionCount) must be 1. rule says
 * where the list comes from. On success pos[e] is the output dim of entry e,
 * or -1.
 */
HRESULT dmli_gathers_output(const char *op, const dmli_tensor *out, const uint64_t *list, int n,
                            const char *rule, int *pos);

/*
 * Under CLAMP an index needs a row to clamp into: a non-empty output may not
 * gather from an empty axis.
 */
HRESULT dmli_gathers_clamp_target(const char *op, dmli_oor_policy policy, const dmli_tensor *out,
                                  uint64_t axis_size, const char *axis_what);

/*
 * Under ERROR every index must be checked, also when the output is empty
 * (a 0 in a dim the indices do not have): the plan then walks indices dims
 * [from, to) only, reporting without reading or writing. No-op otherwise.
 */
void dmli_gathers_check_only(dmli_op_state *st, uint32_t from, uint32_t to);

/* Slots: InputTensor, IndicesTensor -> OutputTensor. */
void dmli_gathers_slots(dmli_op_state *st);

#endif /* DMLI_OPS_GATHERS_H */
