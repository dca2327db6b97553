/* SPDX-License-Identifier: MIT */
/* Helpers shared by the front-end files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX

bool dmli_fe_is_int_type(DML_TENSOR_DATA_TYPE t)
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

int64_t dmli_fe_int_at(const dmlcl_int_array *a, uint64_t i)
{
    const unsigned char *p = (const unsigned char *)a->data + i * dmli_type_size(a->type);
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
    memcpy(&v, p, dmli_type_size(a->type));
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

const char *dmli_fe_format_shape(char *buf, size_t len, const dmlcl_shape *s)
{
    size_t at = (size_t)snprintf(buf, len, "{");
    for (uint32_t i = 0; i < s->rank && i < MAX_RANK && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, i ? ",%" PRId64 : "%" PRId64, s->dims[i]);
    if (at < len)
        snprintf(buf + at, len - at, "}");
    return buf;
}

HRESULT dmli_fe_check_list(const char *op, const char *name, const dmlcl_int_array *a,
                           const dmlcl_shape *dims)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(!a, "%s: input %s (NULL) is required", op, name);
    DMLI_INVALID_IF(!dmli_fe_is_int_type(a->type),
                    "%s: input %s has type %s; it must be an integer type", op, name,
                    dmli_type_name(a->type));
    DMLI_INVALID_IF(dims && dims->rank != 1, "%s: input %s must be 1-D; its shape is %s (rank %u)",
                    op, name, dmli_fe_format_shape(buf, sizeof buf, dims), dims->rank);
    DMLI_INVALID_IF(dims && (uint64_t)dims->dims[0] != a->count,
                    "%s: input %s has shape {%lld} but holds %llu values", op, name,
                    (long long)dims->dims[0], (unsigned long long)a->count);
    DMLI_INVALID_IF(a->count && !a->data, "%s: input %s data (NULL) must hold %llu values", op,
                    name, (unsigned long long)a->count);
    return S_OK;
}

HRESULT dmli_fe_check_shape(const char *op, const char *what, const dmlcl_shape *s)
{
    DMLI_NULL_IF(!s, "%s: the shape of %s (NULL) is required", op, what);
    DMLI_UNSUPPORTED_IF(s->rank > MAX_RANK,
                        "%s: %s has rank %u; dmlcl tensors have at most %d dimensions", op, what,
                        s->rank, MAX_RANK);
    /* Every dimension, whatever comes before it; then the element count as
     * dmlcl's tensor rules count it (dmli_count_elements: a 0 anywhere makes
     * the tensor empty, whatever the other sizes). */
    uint64_t dims[MAX_RANK];
    for (uint32_t i = 0; i < s->rank; ++i) {
        DMLI_INVALID_IF(s->dims[i] < 0, "%s: %s dimension %u (%" PRId64 ") must be >= 0", op, what,
                        i, s->dims[i]);
        DMLI_UNSUPPORTED_IF(s->dims[i] > (int64_t)UINT32_MAX,
                            "%s: %s dimension %u (%" PRId64 ") is over 2^32-1, beyond "
                            "DirectML's UINT sizes",
                            op, what, i, s->dims[i]);
        dims[i] = (uint64_t)s->dims[i];
    }
    char buf[DMLI_DIMS_BUF];
    DMLI_UNSUPPORTED_IF(dmli_count_elements(s->rank, dims) > UINT32_MAX,
                        "%s: %s shape %s has more than 2^32-1 elements (DirectML's limit)", op,
                        what, dmli_fe_format_shape(buf, sizeof buf, s));
    return S_OK;
}

HRESULT dmli_fe_check_type(const char *op, const char *what, DML_TENSOR_DATA_TYPE type)
{
    DMLI_UNSUPPORTED_IF(type == DMLCL_TENSOR_DATA_TYPE_STRING,
                        "%s: %s type STRING is not supported: dmlcl moves elements of 1, 2, 4, "
                        "8 or 16 bytes, and strings have no fixed width",
                        op, what);
    DMLI_UNSUPPORTED_IF(type == DML_TENSOR_DATA_TYPE_UINT4 || type == DML_TENSOR_DATA_TYPE_INT4,
                        "%s: %s type %s is not supported: dmlcl moves whole bytes", op, what,
                        dmli_type_name(type));
    DMLI_INVALID_IF(dmli_type_size(type) == 0,
                    "%s: %s type (%s) must be a tensor data type dmlcl moves", op, what,
                    dmli_type_name(type));
    return S_OK;
}

HRESULT dmli_fe_version(const dmli_fe_versions *v, int opset, int *version, char *op, size_t len)
{
    *version = 0;
    for (int i = 0; i < v->count; ++i)
        if (opset >= v->versions[i])
            *version = v->versions[i];
    snprintf(op, len, "%s %s-%d", v->framework, v->name, *version);
    DMLI_INVALID_IF(*version == 0,
                    "%s %s: opset (%d) must be at least %d (the operator's first version)",
                    v->framework, v->name, opset, v->versions[0]);
    DMLI_UNSUPPORTED_IF(*version < v->implemented,
                        "%s (opset %d) is not supported: dmlcl implements %s from version %d "
                        "(opset %d and later)",
                        op, opset, v->name, v->implemented, v->implemented);
    return S_OK;
}

HRESULT dmli_fe_begin(const char *op, const void *args, dmlcl_frontend_result *result)
{
    DMLI_NULL_IF(!result, "%s: the result (NULL) is required", op);
    memset(result, 0, sizeof *result);
    /* One output unless the front-end says otherwise (dmli_fe_outputs_done). */
    result->output_count = 1;
    result->output_shapes = &result->output_shape;
    DMLI_NULL_IF(!args, "%s: args (NULL) are required", op);
    return S_OK;
}

/* The heap block of a result with many tensors: its arrays follow this header. */
typedef struct fe_heap {
    DML_TENSOR_DESC *tensors;
    DML_BUFFER_TENSOR_DESC *buffers;
    UINT (*sizes)[MAX_RANK];
    dmlcl_shape *shapes;
} fe_heap;

void dmlcl_frontend_result_clear(dmlcl_frontend_result *r)
{
    if (!r)
        return;
    free(r->heap);
    memset(r, 0, sizeof *r);
}

HRESULT dmli_fe_reserve(const char *op, dmlcl_frontend_result *r, uint32_t tensors,
                        uint32_t outputs)
{
    if (tensors <= DMLCL_FRONTEND_MAX_TENSORS && outputs <= 1)
        return S_OK;
    /* At most 65 tensors: no size here can overflow. */
    size_t size = sizeof(fe_heap) +
                  tensors * (sizeof(DML_TENSOR_DESC) + sizeof(DML_BUFFER_TENSOR_DESC) +
                             sizeof(UINT[MAX_RANK])) +
                  outputs * sizeof(dmlcl_shape);
    fe_heap *h = calloc(1, size);
    if (!h)
        return dmli_fail(E_OUTOFMEMORY, "%s: out of memory for %u tensor descriptions", op,
                         tensors);
    /* Largest alignment first: shapes (int64), then buffers, tensors (pointers), sizes (UINT). */
    h->shapes = (dmlcl_shape *)(h + 1);
    h->buffers = (DML_BUFFER_TENSOR_DESC *)(h->shapes + outputs);
    h->tensors = (DML_TENSOR_DESC *)(h->buffers + tensors);
    h->sizes = (UINT(*)[MAX_RANK])(h->tensors + tensors);
    r->heap = h;
    return S_OK;
}

dmlcl_shape *dmli_fe_output_shape(dmlcl_frontend_result *r, uint32_t k)
{
    fe_heap *h = r->heap;
    return h ? &h->shapes[k] : &r->output_shape;
}

void dmli_fe_outputs_done(dmlcl_frontend_result *r, uint32_t outputs)
{
    const fe_heap *h = r->heap;
    r->output_count = outputs;
    r->output_shapes = h ? h->shapes : &r->output_shape;
    r->output_shape = r->output_shapes[0];
}

DML_TENSOR_DESC *dmli_fe_tensors(dmlcl_frontend_result *r)
{
    return r->heap ? ((fe_heap *)r->heap)->tensors : r->tensors;
}

DML_TENSOR_DESC *dmli_fe_tensor(dmlcl_frontend_result *r, int k, DML_TENSOR_DATA_TYPE type,
                                const dmlcl_shape *s)
{
    fe_heap *h = r->heap;
    DML_BUFFER_TENSOR_DESC *buffer = h ? &h->buffers[k] : &r->buffers[k];
    DML_TENSOR_DESC *tensor = h ? &h->tensors[k] : &r->tensors[k];
    if ((uint32_t)k + 1 > r->tensor_count)
        r->tensor_count = (uint32_t)k + 1;
    UINT rank = s->rank ? s->rank : 1, *sizes = h ? h->sizes[k] : r->sizes[k];
    sizes[0] = 1;
    for (uint32_t i = 0; i < s->rank; ++i)
        sizes[i] = (UINT)s->dims[i];
    *buffer = (DML_BUFFER_TENSOR_DESC){
        .DataType = type,
        .Flags = DML_TENSOR_FLAG_NONE,
        .DimensionCount = rank,
        .Sizes = sizes,
        .TotalTensorSizeInBytes = DMLCalcBufferTensorSize(type, rank, sizes, NULL),
    };
    *tensor = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, buffer};
    return tensor;
}

HRESULT dmli_fe_output(const char *op, dmlcl_frontend_result *r, int k, DML_TENSOR_DATA_TYPE type,
                       const int64_t *dims, uint32_t rank)
{
    DMLI_UNSUPPORTED_IF(rank > MAX_RANK, "%s: the output rank (%u) is beyond dmlcl's %d dimensions",
                        op, rank, MAX_RANK);
    r->output_shape.rank = rank;
    memcpy(r->output_shape.dims, dims, rank * sizeof *dims);
    DMLI_TRY(dmli_fe_check_shape(op, "output", &r->output_shape));
    dmli_fe_tensor(r, k, type, &r->output_shape);
    return S_OK;
}
