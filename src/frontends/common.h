/* Helpers shared by the front-end files (internal: hidden by -fvisibility). */
#ifndef DMLCL_FRONTENDS_COMMON_H
#define DMLCL_FRONTENDS_COMMON_H

#include "dmlcl/frontends.h"
#include "internal.h"

/* Any of DirectML's signed or unsigned 8- to 64-bit integer types. */
bool dmlcl_fe_is_int_type(DML_TENSOR_DATA_TYPE t);

/* Element i of an integer array; UINT64 values above INT64_MAX saturate. */
int64_t dmlcl_fe_int_at(const dmlcl_int_array *a, uint64_t i);

/* A framework shape as dmlcl_format_dims writes it (at most 16 dimensions). */
const char *dmlcl_fe_format_shape(char *buf, size_t len, const dmlcl_shape *s);

/* A 1-D integer input: present, of an integer type, and holding what its shape says. */
HRESULT dmlcl_fe_check_list(const char *op, const char *name, const dmlcl_int_array *a,
                            const dmlcl_shape *dims);

#endif /* DMLCL_FRONTENDS_COMMON_H */
