/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/extensions.h: what DirectML lacks, in DirectML's style (DMLCL_
 * prefix, PascalCase members, tensor descs with Sizes and Strides).
 *
 * Extension data types are accepted by the extension operators; the DirectML
 * operators keep DirectML's own type tables. Extension operator types live
 * at DMLCL_OPERATOR_TYPE_BASE and up, far from DirectML's numbering.
 */
#ifndef DMLCL_EXTENSIONS_H
#define DMLCL_EXTENSIONS_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Up to this many dimensions in extension operators (DirectML's own: 8). */
#define DMLCL_TENSOR_DIMENSION_COUNT_MAX 16

/* Values for DML_BUFFER_TENSOR_DESC.DataType beyond DirectML's. */
#define DMLCL_TENSOR_DATA_TYPE_BOOLEAN ((DML_TENSOR_DATA_TYPE)0x100)    /* 1 byte, 0 or 1 */
#define DMLCL_TENSOR_DATA_TYPE_BFLOAT16 ((DML_TENSOR_DATA_TYPE)0x101)   /* 2 bytes */
#define DMLCL_TENSOR_DATA_TYPE_COMPLEX64 ((DML_TENSOR_DATA_TYPE)0x102)  /* 8 bytes */
#define DMLCL_TENSOR_DATA_TYPE_COMPLEX128 ((DML_TENSOR_DATA_TYPE)0x103) /* 16 bytes */
#define DMLCL_TENSOR_DATA_TYPE_STRING ((DML_TENSOR_DATA_TYPE)0x104)     /* never movable */

#define DMLCL_OPERATOR_TYPE_BASE 0x10000

/*
 * Extension operator types (cast to DML_OPERATOR_TYPE in DML_OPERATOR_DESC.Type).
 * Each is described in its own header below.
 */
#define DMLCL_OPERATOR_GATHER1 ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 1))
#define DMLCL_OPERATOR_STRIDED_SLICE ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 2))
#define DMLCL_OPERATOR_BROADCAST ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 3))
#define DMLCL_OPERATOR_PAD ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 4))
#define DMLCL_OPERATOR_ROLL ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 5))

/* ---- Buffer tensor size ------------------------------------------------------ */

/*
 * The minimum TotalTensorSizeInBytes of a buffer tensor (DirectML's
 * DMLCalcBufferTensorSize): the bytes up to the last element addressed,
 * (sum of (Sizes[i]-1)*Strides[i]) + 1 elements, or the product of Sizes
 * when strides is NULL, rounded up to 4 bytes. Counted in bits so that
 * 4-bit types round as DirectML does, in 64 bits throughout. dmlcl's
 * extension types (dmlcl/extensions.h) are sized too; a stride set with a
 * 0 size occupies nothing. Unknown type: 0.
 */
static inline UINT64 dmlcl_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE dataType,
                                                   UINT dimensionCount, const UINT *sizes,
                                                   const UINT *strides)
{
    UINT64 bits;
    UINT64 elements = 0;
    UINT i;
    switch ((int)dataType) {
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32: bits = 32; break;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16: bits = 16; break;
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8: bits = 8; break;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64: bits = 64; break;
    case 12: /* UINT4 and INT4, by number: they exist from DML_TARGET_VERSION 0x6300 */
    case 13: bits = 4; break;
    case (int)DMLCL_TENSOR_DATA_TYPE_BOOLEAN: bits = 8; break;
    case (int)DMLCL_TENSOR_DATA_TYPE_BFLOAT16: bits = 16; break;
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX64: bits = 64; break;
    case (int)DMLCL_TENSOR_DATA_TYPE_COMPLEX128: bits = 128; break;
    default: return 0;
    }
    if (strides == 0) {
        elements = 1;
        for (i = 0; i < dimensionCount; ++i)
            elements *= sizes[i];
    } else {
        UINT64 last = 0;
        for (i = 0; i < dimensionCount; ++i) {
            if (sizes[i] == 0) /* an empty (extension) tensor occupies nothing */
                return 0;
            last += (UINT64)(sizes[i] - 1) * strides[i];
        }
        elements = last + 1;
    }
    return ((elements * bits + 7) / 8 + 3) & ~(UINT64)3;
}

/*
 * DMLCalcBufferTensorSize under DirectML's name. DirectML.h does not declare
 * it: C++ programs take DirectMLX.h's (an inline function) or define their
 * own copy from DirectML's samples, so a plain declaration here would
 * collide with either. In C it is a static inline. In C++ it is a function
 * template of the same signature: a template never conflicts with a
 * non-template function, and overload resolution prefers the non-template,
 * so DirectMLX's or the program's own definition wins wherever it is
 * visible, in either include order, and dmlcl's serves everywhere else.
 */
#ifdef __cplusplus
}
extern "C++" {
template <typename DmlclNoConflict = void>
inline UINT64 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE dataType, UINT dimensionCount,
                                      const UINT *sizes, const UINT *strides)
{
    return dmlcl_calc_buffer_tensor_size(dataType, dimensionCount, sizes, strides);
}
}
extern "C" {
#else
static inline UINT64 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE dataType, UINT dimensionCount,
                                             const UINT *sizes, const UINT *strides)
{
    return dmlcl_calc_buffer_tensor_size(dataType, dimensionCount, sizes, strides);
}
#endif

#ifdef __cplusplus
}
#endif

#include "dmlcl/ext_broadcast.h"
#include "dmlcl/ext_gather.h"
#include "dmlcl/ext_join.h"
#include "dmlcl/ext_pad.h"
#include "dmlcl/ext_slice.h"

#endif /* DMLCL_EXTENSIONS_H */
