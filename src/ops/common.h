/* SPDX-License-Identifier: MIT */
/* Helpers shared by the operator files. */
#ifndef DMLI_OPS_COMMON_H
#define DMLI_OPS_COMMON_H

#include "internal.h"

/* The index types DirectML's gathers take; else an error naming field. */
HRESULT dmli_ops_index_type(const char *op, const char *field, DML_TENSOR_DATA_TYPE type,
                            dmli_index_type *out);

/* Same DimensionCount and, when type_too, same DataType as `ref`. */
HRESULT dmli_ops_same_rank(const char *op, const char *field, const dmli_tensor *t,
                           const char *ref_field, const dmli_tensor *ref);
HRESULT dmli_ops_same_type(const char *op, const char *field, const dmli_tensor *t,
                           const char *ref_field, const dmli_tensor *ref);

/* OutputTensor.Sizes must equal want (rank entries). */
HRESULT dmli_ops_expect_sizes(const char *op, const char *field, const dmli_tensor *t,
                              const uint64_t *want, const char *rule);

/* Row-major logical strides of a tensor's sizes (positions, not memory). */
void dmli_ops_packed(const dmli_tensor *t, int64_t *pos);

#endif /* DMLI_OPS_COMMON_H */
