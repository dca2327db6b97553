/* Helpers shared by the operator files. */
#ifndef DMLCL_OPS_COMMON_H
#define DMLCL_OPS_COMMON_H

#include "internal.h"

/* The index types DirectML's gathers take; else an error naming field. */
HRESULT dmlcl_ops_index_type(const char *op, const char *field, DML_TENSOR_DATA_TYPE type,
                             dmlcl_index_type *out);

/* Same DimensionCount and, when type_too, same DataType as `ref`. */
HRESULT dmlcl_ops_same_rank(const char *op, const char *field, const dmlcl_tensor *t,
                            const char *ref_field, const dmlcl_tensor *ref);
HRESULT dmlcl_ops_same_type(const char *op, const char *field, const dmlcl_tensor *t,
                            const char *ref_field, const dmlcl_tensor *ref);

/* OutputTensor.Sizes must equal want (rank entries). */
HRESULT dmlcl_ops_expect_sizes(const char *op, const char *field, const dmlcl_tensor *t,
                               const uint64_t *want, const char *rule);

/* Row-major logical strides of a tensor's sizes (positions, not memory). */
void dmlcl_ops_packed(const dmlcl_tensor *t, int64_t *pos);

#endif /* DMLCL_OPS_COMMON_H */
