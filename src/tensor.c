/* SPDX-License-Identifier: MIT */
/*
 * Buffer-tensor rules, in one place: what a DML_TENSOR_DESC must satisfy
 * before any operator looks at it. 64-bit arithmetic with overflow checks.
 */
#include <stdio.h>
#include <string.h>

#include "checked.h"
#include "internal.h"

uint32_t dmli_type_size(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8:
    case (int)DMLCL_TENSOR_DATA_TYPE_BOOLEAN: return 1;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16:
    case (int)DMLCL_TENSOR_DATA_TYPE_BFLOAT16: return 2;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32: return 4;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64:
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX64: return 8;
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX128: return 16;
    default: return 0;
    }
}

const char *dmli_type_name(DML_TENSOR_DATA_TYPE type)
{
    static _Thread_local char buf[4][32];
    static _Thread_local int next;
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_UNKNOWN: return "UNKNOWN";
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    case DML_TENSOR_DATA_TYPE_UINT4: return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4: return "INT4";
    case (int)DMLCL_TENSOR_DATA_TYPE_BOOLEAN: return "BOOLEAN";
    case (int)DMLCL_TENSOR_DATA_TYPE_BFLOAT16: return "BFLOAT16";
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX64: return "COMPLEX64";
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX128: return "COMPLEX128";
    case (int)DMLCL_TENSOR_DATA_TYPE_STRING: return "STRING";
    default:
        next = (next + 1) & 3;
        snprintf(buf[next], sizeof buf[next], "DataType(%d)", (int)type);
        return buf[next];
    }
}

bool dmli_type_is_float(DML_TENSOR_DATA_TYPE type)
{
    return type == DML_TENSOR_DATA_TYPE_FLOAT32 || type == DML_TENSOR_DATA_TYPE_FLOAT16 ||
           type == DML_TENSOR_DATA_TYPE_FLOAT64;
}

static bool is_dml_type(DML_TENSOR_DATA_TYPE type)
{
    return (int)type >= DML_TENSOR_DATA_TYPE_FLOAT32 && (int)type <= DML_TENSOR_DATA_TYPE_INT4;
}

bool dmli_type_known(DML_TENSOR_DATA_TYPE type)
{
    return is_dml_type(type) || dmli_type_size(type) != 0 || type == DMLCL_TENSOR_DATA_TYPE_STRING;
}

const char *dmli_format_dims(char *buf, size_t len, uint32_t rank, const uint64_t *dims)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, len - at, "{");
    for (uint32_t i = 0; i < rank && at < len; ++i)
        at +=
            (size_t)snprintf(buf + at, len - at, i ? ",%llu" : "%llu", (unsigned long long)dims[i]);
    if (at < len)
        snprintf(buf + at, len - at, "}");
    return buf;
}

uint64_t dmli_tensor_min_bytes(uint32_t elem_bytes, uint32_t rank, const uint64_t *sizes,
                               const int64_t *strides)
{
    uint64_t last = 0;
    for (uint32_t i = 0; i < rank; ++i) {
        if (sizes[i] == 0)
            return 0;
        uint64_t step = (uint64_t)strides[i], term;
        if (__builtin_mul_overflow(sizes[i] - 1, step, &term) ||
            __builtin_add_overflow(last, term, &last))
            return UINT64_MAX;
    }
    uint64_t bytes;
    if (__builtin_add_overflow(last, 1, &last) ||
        __builtin_mul_overflow(last, (uint64_t)elem_bytes, &bytes) || bytes > UINT64_MAX - 3)
        return UINT64_MAX;
    return (bytes + 3) & ~(uint64_t)3;
}

static HRESULT import_type(const char *op, const char *field, const DML_BUFFER_TENSOR_DESC *b,
                           unsigned rules, dmli_tensor *t)
{
    DML_TENSOR_DATA_TYPE type = b->DataType;
    DMLI_INVALID_IF(type == DML_TENSOR_DATA_TYPE_UNKNOWN,
                    "%s: %s.DataType (UNKNOWN) must be a tensor data type", op, field);
    DMLI_INVALID_IF(!dmli_type_known(type),
                    "%s: %s.DataType (%d) is not a DML_TENSOR_DATA_TYPE value", op, field,
                    (int)type);
    DMLI_UNSUPPORTED_IF(!(rules & DMLI_TENSOR_EXTENSION) && !is_dml_type(type),
                        "%s: %s.DataType (%s) is a dmlcl extension type; DirectML operators "
                        "take DirectML's types only",
                        op, field, dmli_type_name(type));
    DMLI_UNSUPPORTED_IF(dmli_type_size(type) == 0,
                        "%s: %s.DataType (%s) is not supported: dmlcl moves elements of 1, 2, "
                        "4, 8 or 16 bytes",
                        op, field, dmli_type_name(type));
    t->type = type;
    t->elem_bytes = dmli_type_size(type);
    return S_OK;
}

uint64_t dmli_count_elements(uint32_t rank, const uint64_t *sizes)
{
    uint64_t n = 1;
    bool overflow = false;
    for (uint32_t i = 0; i < rank; ++i) {
        if (sizes[i] == 0)
            return 0;
        overflow |= dmli_mul_u64(n, sizes[i], &n);
    }
    return overflow ? UINT64_MAX : n;
}

void dmli_packed_strides(uint32_t rank, const uint64_t *sizes, int64_t *strides)
{
    bool empty = dmli_count_elements(rank, sizes) == 0;
    uint64_t packed = 1;
    for (uint32_t i = rank; i-- > 0;) {
        strides[i] = empty ? 0 : (int64_t)packed;
        /* Nonempty: every suffix product is at most the element count. */
        if (!empty)
            packed *= sizes[i];
    }
}

static HRESULT import_dims(const char *op, const char *field, const DML_BUFFER_TENSOR_DESC *b,
                           unsigned rules, dmli_tensor *t)
{
    uint32_t max =
        (rules & DMLI_TENSOR_EXTENSION) ? DMLI_MAX_RANK : DML_TENSOR_DIMENSION_COUNT_MAX1;
    DMLI_INVALID_IF(b->DimensionCount < 1 || b->DimensionCount > max,
                    "%s: %s.DimensionCount (%u) must be in [1, %u]", op, field, b->DimensionCount,
                    max);
    DMLI_INVALID_IF(!b->Sizes, "%s: %s.Sizes (NULL) must point to %u sizes", op, field,
                    b->DimensionCount);
    t->rank = b->DimensionCount;
    for (uint32_t i = 0; i < t->rank; ++i) {
        DMLI_INVALID_IF(b->Sizes[i] == 0 && !(rules & DMLI_TENSOR_EXTENSION),
                        "%s: %s.Sizes[%u] (0) must be at least 1", op, field, i);
        t->sizes[i] = b->Sizes[i];
    }
    t->elements = dmli_count_elements(t->rank, t->sizes);
    DMLI_INVALID_IF(t->elements > UINT32_MAX,
                    "%s: %s.Sizes (element count > %u) must describe at most 2^32-1 elements", op,
                    field, UINT32_MAX);
    /* An empty tensor addresses nothing: its strides never reach memory, and
     * 0 keeps every offset computed from them in range. */
    dmli_packed_strides(t->rank, t->sizes, t->strides);
    for (uint32_t i = 0; b->Strides && t->elements && i < t->rank; ++i)
        t->strides[i] = (int64_t)b->Strides[i];
    t->explicit_strides = b->Strides != NULL;
    return S_OK;
}

static HRESULT import_size(const char *op, const char *field, const DML_BUFFER_TENSOR_DESC *b,
                           unsigned rules, dmli_tensor *t)
{
    uint64_t min = dmli_tensor_min_bytes(t->elem_bytes, t->rank, t->sizes, t->strides);
    DMLI_INVALID_IF(min == UINT64_MAX,
                    "%s: %s.Strides make the tensor's byte extent overflow 64 bits", op, field);
    /* Element offsets are signed 64-bit in plans and kernels. */
    DMLI_UNSUPPORTED_IF(min > (uint64_t)INT64_MAX,
                        "%s: %s spans %llu bytes (its Sizes and Strides); dmlcl addresses at "
                        "most 2^63-1",
                        op, field, (unsigned long long)min);
    DMLI_INVALID_IF(b->TotalTensorSizeInBytes < min,
                    "%s: %s.TotalTensorSizeInBytes (%llu) must be at least %llu "
                    "(DMLCalcBufferTensorSize of its Sizes and Strides)",
                    op, field, (unsigned long long)b->TotalTensorSizeInBytes,
                    (unsigned long long)min);
    uint32_t a = b->GuaranteedBaseOffsetAlignment;
    DMLI_INVALID_IF(a != 0 && ((a & (a - 1)) != 0 || a < t->elem_bytes),
                    "%s: %s.GuaranteedBaseOffsetAlignment (%u) must be 0 or a power of two "
                    "no smaller than the element size (%u)",
                    op, field, a, t->elem_bytes);
    t->total_bytes = b->TotalTensorSizeInBytes;
    t->base_align = a;
    return S_OK;
}

HRESULT dmli_tensor_import(const char *op, const char *field, const DML_TENSOR_DESC *desc,
                           unsigned rules, dmli_tensor *out)
{
    memset(out, 0, sizeof *out);
    if (!desc && (rules & DMLI_TENSOR_OPTIONAL))
        return S_OK;
    DMLI_INVALID_IF(!desc, "%s: %s (NULL) is required", op, field);
    DMLI_INVALID_IF(desc->Type != DML_TENSOR_TYPE_BUFFER,
                    "%s: %s.Type (%d) must be DML_TENSOR_TYPE_BUFFER (1)", op, field,
                    (int)desc->Type);
    DMLI_INVALID_IF(!desc->Desc, "%s: %s.Desc (NULL) must point to a DML_BUFFER_TENSOR_DESC", op,
                    field);
    const DML_BUFFER_TENSOR_DESC *b = desc->Desc;
    DMLI_INVALID_IF((b->Flags & ~DML_TENSOR_FLAG_OWNED_BY_DML) != 0,
                    "%s: %s.Flags (0x%x) has unknown bits", op, field, (unsigned)b->Flags);
    DMLI_INVALID_IF((rules & DMLI_TENSOR_OUTPUT) && (b->Flags & DML_TENSOR_FLAG_OWNED_BY_DML),
                    "%s: %s.Flags (DML_TENSOR_FLAG_OWNED_BY_DML) is allowed on inputs only", op,
                    field);
    out->flags = b->Flags;
    DMLI_TRY(import_type(op, field, b, rules, out));
    DMLI_TRY(import_dims(op, field, b, rules, out));
    DMLI_TRY(import_size(op, field, b, rules, out));
    if (rules & DMLI_TENSOR_OUTPUT)
        DMLI_TRY(dmli_tensor_check_disjoint(op, field, out));
    out->present = true;
    out->optional = (rules & DMLI_TENSOR_OPTIONAL) != 0;
    return S_OK;
}
