/* SPDX-License-Identifier: MIT */
/*
 * ref_tensor.c: data types and strided views for the oracle.
 */
#include <string.h>

#include "ref.h"

size_t ref_type_size(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8: return 1;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16: return 2;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32: return 4;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64: return 8;
    case DMLCL_TENSOR_DATA_TYPE_BOOLEAN: return 1;
    case DMLCL_TENSOR_DATA_TYPE_BFLOAT16: return 2;
    case DMLCL_TENSOR_DATA_TYPE_COMPLEX64: return 8;
    case DMLCL_TENSOR_DATA_TYPE_COMPLEX128: return 16;
    default: return 0;
    }
}

const char *ref_type_name(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
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
    case DMLCL_TENSOR_DATA_TYPE_BOOLEAN: return "BOOLEAN";
    case DMLCL_TENSOR_DATA_TYPE_BFLOAT16: return "BFLOAT16";
    case DMLCL_TENSOR_DATA_TYPE_COMPLEX64: return "COMPLEX64";
    case DMLCL_TENSOR_DATA_TYPE_COMPLEX128: return "COMPLEX128";
    default: return "?";
    }
}

bool ref_type_is_float(DML_TENSOR_DATA_TYPE type)
{
    return type == DML_TENSOR_DATA_TYPE_FLOAT16 || type == DML_TENSOR_DATA_TYPE_FLOAT32 ||
           type == DML_TENSOR_DATA_TYPE_FLOAT64 || type == DMLCL_TENSOR_DATA_TYPE_BFLOAT16;
}

bool ref_type_is_signed_int(DML_TENSOR_DATA_TYPE type)
{
    return type == DML_TENSOR_DATA_TYPE_INT8 || type == DML_TENSOR_DATA_TYPE_INT16 ||
           type == DML_TENSOR_DATA_TYPE_INT32 || type == DML_TENSOR_DATA_TYPE_INT64;
}

void ref_packed_strides(uint32_t rank, const uint32_t *sizes, uint32_t *strides)
{
    uint32_t running = 1;
    for (uint32_t i = rank; i-- > 0;) {
        strides[i] = running;
        running *= sizes[i];
    }
}

uint64_t ref_element_count(uint32_t rank, const uint32_t *sizes)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < rank; ++i)
        n *= sizes[i];
    return n;
}

ref_tensor ref_tensor_view(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                           const uint32_t *strides, void *base)
{
    ref_tensor t;
    uint32_t packed[REF_MAX_DIMS];
    memset(&t, 0, sizeof t);
    t.type = type;
    t.elem_size = ref_type_size(type);
    t.rank = rank;
    t.base = base;
    if (!strides) {
        ref_packed_strides(rank, sizes, packed);
        strides = packed;
    }
    for (uint32_t i = 0; i < rank; ++i) {
        t.sizes[i] = sizes[i];
        t.strides[i] = strides[i];
    }
    return t;
}

int64_t ref_offset(const ref_tensor *t, const uint32_t *coord)
{
    int64_t offset = 0;
    for (uint32_t i = 0; i < t->rank; ++i)
        offset += (int64_t)coord[i] * t->strides[i];
    return offset;
}

void ref_get(const ref_tensor *t, const uint32_t *coord, void *element)
{
    const unsigned char *p =
        (const unsigned char *)t->base + ref_offset(t, coord) * (int64_t)t->elem_size;
    memcpy(element, p, t->elem_size);
}

void ref_put(const ref_tensor *t, const uint32_t *coord, const void *element)
{
    unsigned char *p = (unsigned char *)t->base + ref_offset(t, coord) * (int64_t)t->elem_size;
    memcpy(p, element, t->elem_size);
}

bool ref_next_coord(uint32_t rank, const uint32_t *sizes, uint32_t *coord)
{
    for (uint32_t i = rank; i-- > 0;) {
        if (++coord[i] < sizes[i])
            return true;
        coord[i] = 0;
    }
    return false;
}

uint64_t ref_buffer_bytes(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          const uint32_t *strides)
{
    return DMLCalcBufferTensorSize(type, rank, sizes, strides);
}
