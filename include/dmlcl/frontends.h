/*
 * dmlcl/frontends.h: OpenVINO and ONNX conventions on top of dmlcl's
 * descriptors. Each front-end takes framework shapes (any rank, 0-D
 * included, 64-bit dims) and attribute values as the framework gives them
 * (negative axes, masks of any length, shape inputs as host arrays of any
 * integer type), checks every rule of the framework's specification with a
 * message, infers the output shape, and fills a DML_OPERATOR_DESC (DirectML
 * or dmlcl extension operator) whose storage lives in the result struct.
 */
#ifndef DMLCL_FRONTENDS_H
#define DMLCL_FRONTENDS_H

#include <stdint.h>

#include "dmlcl/dmlcl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A framework tensor shape: rank 0 (scalar) to DMLCL_TENSOR_DIMENSION_COUNT_MAX. */
typedef struct dmlcl_shape {
    uint32_t rank;
    int64_t dims[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
} dmlcl_shape;

/* A 1-D host array of integers as a framework shape input gives it. */
typedef struct dmlcl_int_array {
    DML_TENSOR_DATA_TYPE type; /* INT8..INT64, UINT8..UINT64 */
    uint64_t count;
    const void *data;
} dmlcl_int_array;

#ifdef __cplusplus
}
#endif

#include "dmlcl/frontend_broadcast.h"
#include "dmlcl/frontend_gather.h"
#include "dmlcl/frontend_slice.h"

#endif /* DMLCL_FRONTENDS_H */
