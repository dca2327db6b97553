/* SPDX-License-Identifier: MIT */
/*
 * support.h: what the host unit tests share: buffer tensor descriptions to
 * build and then break, and checks of a failure's HRESULT and message.
 */
#ifndef DMLCL_TESTS_UNIT_SUPPORT_H
#define DMLCL_TESTS_UNIT_SUPPORT_H

#include "dmlcl/dmlcl.h"

/* Room for ranks past dmlcl's 16 dimensions. */
#define UNIT_MAX_DIMS 17

typedef struct unit_tensor {
    UINT sizes[UNIT_MAX_DIMS];
    UINT strides[UNIT_MAX_DIMS];
    DML_BUFFER_TENSOR_DESC buf;
    DML_TENSOR_DESC desc;
} unit_tensor;

/* Recomputes TotalTensorSizeInBytes after Sizes, Strides or DataType changed. */
void unit_tensor_fit(unit_tensor *t);
/* A fitted buffer tensor (strides NULL: packed); returns its DML_TENSOR_DESC. */
const DML_TENSOR_DESC *unit_tensor_set(unit_tensor *t, DML_TENSOR_DATA_TYPE type, UINT rank,
                                       const UINT *sizes, const UINT *strides);
void unit_tensor_set_strides(unit_tensor *t, const UINT *strides);
void unit_tensor_set_type(unit_tensor *t, DML_TENSOR_DATA_TYPE type);

/* DMLCL_TUNING set to value (the library reads it at each launch decision) for the calls that
 * follow; returns what it was, for unit_tuning_restore (tests/ops/harness.h's pair). */
char *unit_tuning_set(const char *value);
/* DMLCL_TUNING back to saved (unit_tuning_set's result; NULL: unset), freed. */
void unit_tuning_restore(char *saved);

/* hr is want, and dmlcl_last_error() holds every needle (NULL-terminated); line: the caller's. */
void unit_expect_needles(HRESULT hr, HRESULT want, const char *const *needles, int line);
/* got is want, and dmlcl_last_error() holds a and (unless NULL) b. */
void unit_expect_error(HRESULT got, HRESULT want, const char *a, const char *b);

#endif /* DMLCL_TESTS_UNIT_SUPPORT_H */
