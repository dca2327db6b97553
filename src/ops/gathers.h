/*
 * Helpers shared by the gather family beyond DML_GATHER: GATHER1 (gather1.c),
 * GATHER_ELEMENTS(1) (gather_elements.c), GATHER_ND(1, 2) (gather_nd.c).
 * Defined in gather1.c.
 */
#ifndef DMLCL_OPS_GATHERS_H
#define DMLCL_OPS_GATHERS_H

#include "ops/common.h"

/*
 * The index type of IndicesTensor: DirectML's four for DirectML operators,
 * any 8- to 64-bit integer type for the extension operators (ext).
 */
HRESULT dmlcl_gathers_index_type(const char *op, DML_TENSOR_DATA_TYPE type, bool ext,
                                 dmlcl_index_type *out);

/* DMLCL_OUT_OF_RANGE_POLICY -> the plan's policy, or an error. */
HRESULT dmlcl_gathers_policy(const char *op, DMLCL_OUT_OF_RANGE_POLICY policy,
                             dmlcl_oor_policy *out);

/*
 * The dims of t before its last `meaningful` ones must be 1 (DirectML's
 * right-aligned padding); count_field names the member giving `meaningful`.
 */
HRESULT dmlcl_gathers_padding(const char *op, const char *field, const dmlcl_tensor *t,
                              uint32_t meaningful, const char *count_field);

/*
 * OutputTensor.Sizes must be `list` (n sizes) right-aligned after leading 1s;
 * entries that find no position (n > DimensionCount) must be 1. rule says
 * where the list comes from. On success pos[e] is the output dim of entry e,
 * or -1.
 */
HRESULT dmlcl_gathers_output(const char *op, const dmlcl_tensor *out, const uint64_t *list, int n,
                             const char *rule, int *pos);

/*
 * Under CLAMP an index needs a row to clamp into: a non-empty output may not
 * gather from an empty axis.
 */
HRESULT dmlcl_gathers_clamp_target(const char *op, dmlcl_oor_policy policy, const dmlcl_tensor *out,
                                   uint64_t axis_size, const char *axis_what);

/*
 * Under ERROR every index must be checked, also when the output is empty
 * (a 0 in a dim the indices do not have): the plan then walks indices dims
 * [from, to) only, reporting without reading or writing. No-op otherwise.
 */
void dmlcl_gathers_check_only(dmlcl_op_state *st, uint32_t from, uint32_t to);

/* Slots: InputTensor, IndicesTensor -> OutputTensor. */
void dmlcl_gathers_slots(dmlcl_op_state *st);

#endif /* DMLCL_OPS_GATHERS_H */
