/* Helpers shared by the front-end files. */
#include <string.h>

#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX

bool dmlcl_fe_is_int_type(DML_TENSOR_DATA_TYPE t)
{
    switch ((int)t) {
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_INT64:
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_UINT64: return true;
    default: return false;
    }
}

int64_t dmlcl_fe_int_at(const dmlcl_int_array *a, uint64_t i)
{
    const unsigned char *p = (const unsigned char *)a->data + i * dmlcl_type_size(a->type);
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
    } v;
    memcpy(&v, p, dmlcl_type_size(a->type));
    switch ((int)a->type) {
    case DML_TENSOR_DATA_TYPE_INT8: return v.i8;
    case DML_TENSOR_DATA_TYPE_INT16: return v.i16;
    case DML_TENSOR_DATA_TYPE_INT32: return v.i32;
    case DML_TENSOR_DATA_TYPE_UINT8: return v.u8;
    case DML_TENSOR_DATA_TYPE_UINT16: return v.u16;
    case DML_TENSOR_DATA_TYPE_UINT32: return v.u32;
    case DML_TENSOR_DATA_TYPE_UINT64: return v.u64 > INT64_MAX ? INT64_MAX : (int64_t)v.u64;
    default: return v.i64;
    }
}

const char *dmlcl_fe_format_shape(char *buf, size_t len, const dmlcl_shape *s)
{
    uint64_t dims[MAX_RANK];
    uint32_t rank = s->rank > MAX_RANK ? MAX_RANK : s->rank;
    for (uint32_t i = 0; i < rank; ++i)
        dims[i] = (uint64_t)s->dims[i];
    return dmlcl_format_dims(buf, len, rank, dims);
}

HRESULT dmlcl_fe_check_list(const char *op, const char *name, const dmlcl_int_array *a,
                            const dmlcl_shape *dims)
{
    char buf[DMLCL_DIMS_BUF];
    DMLCL_INVALID_IF(!a, "%s: input %s (NULL) is required", op, name);
    DMLCL_INVALID_IF(!dmlcl_fe_is_int_type(a->type),
                     "%s: input %s has type %s; it must be an integer type", op, name,
                     dmlcl_type_name(a->type));
    DMLCL_INVALID_IF(dims && dims->rank != 1, "%s: input %s must be 1-D; its shape is %s (rank %u)",
                     op, name, dmlcl_fe_format_shape(buf, sizeof buf, dims), dims->rank);
    DMLCL_INVALID_IF(dims && (uint64_t)dims->dims[0] != a->count,
                     "%s: input %s has shape {%lld} but holds %llu values", op, name,
                     (long long)dims->dims[0], (unsigned long long)a->count);
    DMLCL_INVALID_IF(a->count && !a->data, "%s: input %s data (NULL) must hold %llu values", op,
                     name, (unsigned long long)a->count);
    return S_OK;
}
