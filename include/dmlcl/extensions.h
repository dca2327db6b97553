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

#ifdef __cplusplus
}
#endif

#include "dmlcl/ext_broadcast.h"
#include "dmlcl/ext_gather.h"
#include "dmlcl/ext_slice.h"

#endif /* DMLCL_EXTENSIONS_H */
