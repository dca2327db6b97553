/* SPDX-License-Identifier: MIT */
/* Helpers shared by the operator files. */
#include <string.h>

#include "checked.h"
#include "ops/common.h"

HRESULT dmli_ops_index_type(const char *op, const char *field, DML_TENSOR_DATA_TYPE type,
                            dmli_index_type *out)
{
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_INT32: *out = DMLI_INDEX_INT32; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = DMLI_INDEX_UINT32; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT64: *out = DMLI_INDEX_INT64; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT64: *out = DMLI_INDEX_UINT64; return S_OK;
    default:
        return dmli_fail(E_INVALIDARG,
                         "%s: %s.DataType (%s) must be INT32, UINT32, INT64 or UINT64", op, field,
                         dmli_type_name(type));
    }
}

HRESULT dmli_ops_same_rank(const char *op, const char *field, const dmli_tensor *t,
                           const char *ref_field, const dmli_tensor *ref)
{
    DMLI_INVALID_IF(t->rank != ref->rank,
                    "%s: %s.DimensionCount (%u) must equal %s.DimensionCount (%u)", op, field,
                    t->rank, ref_field, ref->rank);
    return S_OK;
}

HRESULT dmli_ops_same_type(const char *op, const char *field, const dmli_tensor *t,
                           const char *ref_field, const dmli_tensor *ref)
{
    DMLI_INVALID_IF(t->type != ref->type, "%s: %s.DataType (%s) must equal %s.DataType (%s)", op,
                    field, dmli_type_name(t->type), ref_field, dmli_type_name(ref->type));
    return S_OK;
}

HRESULT dmli_ops_expect_sizes(const char *op, const char *field, const dmli_tensor *t,
                              const uint64_t *want, const char *rule)
{
    if (!memcmp(t->sizes, want, t->rank * sizeof *want))
        return S_OK;
    char got_s[DMLI_DIMS_BUF], want_s[DMLI_DIMS_BUF];
    return dmli_fail(E_INVALIDARG, "%s: %s.Sizes (%s) must be %s (%s)", op, field,
                     dmli_format_dims(got_s, sizeof got_s, t->rank, t->sizes),
                     dmli_format_dims(want_s, sizeof want_s, t->rank, want), rule);
}

void dmli_ops_packed(const dmli_tensor *t, int64_t *pos)
{
    dmli_packed_strides(t->rank, t->sizes, pos);
}
