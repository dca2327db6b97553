/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the front-end files (internal: hidden by -fvisibility):
 * the one shape check, the one type check, opset to version, and the
 * packed tensors of a dmlcl_frontend_result.
 */
#ifndef DMLI_FRONTENDS_COMMON_H
#define DMLI_FRONTENDS_COMMON_H

#include "dmlcl/frontends.h"
#include "internal.h"

/* Any of DirectML's signed or unsigned 8- to 64-bit integer types. */
bool dmli_fe_is_int_type(DML_TENSOR_DATA_TYPE t);

/* Element i of an integer array; UINT64 values above INT64_MAX saturate. */
int64_t dmli_fe_int_at(const dmlcl_int_array *a, uint64_t i);

/* A framework shape, signed, as "{2,-1,3}" (at most 16 dimensions shown). */
const char *dmli_fe_format_shape(char *buf, size_t len, const dmlcl_shape *s);

/* A 1-D integer input: present, of an integer type, and holding what its shape says. */
HRESULT dmli_fe_check_list(const char *op, const char *name, const dmlcl_int_array *a,
                           const dmlcl_shape *dims);

/*
 * The shape check of every front-end: a framework shape a dmlcl tensor can
 * describe. what names it ("input data", "output"). NULL: E_POINTER; a
 * negative dimension: E_INVALIDARG; a rank over 16, a dimension over 2^32-1,
 * or over 2^32-1 elements counted as tensor.c counts them (dimension by
 * dimension, up to the first 0): DXGI_ERROR_UNSUPPORTED.
 */
HRESULT dmli_fe_check_shape(const char *op, const char *what, const dmlcl_shape *s);

/* An element type dmlcl moves (no strings, no 4-bit types); what names the tensor. */
HRESULT dmli_fe_check_type(const char *op, const char *what, DML_TENSOR_DATA_TYPE type);

/* An operator's versions (ascending) and the first one dmlcl implements (later ones too). */
typedef struct dmli_fe_versions {
    const char *framework, *name; /* "ONNX", "Gather" */
    int count;
    int versions[8]; /* ONNX Pad has 7 */
    int implemented;
} dmli_fe_versions;

/*
 * The version in effect at opset and the operator's name for messages
 * ("ONNX Gather-13") in op; an error below the first version or for one
 * not implemented.
 */
HRESULT dmli_fe_version(const dmli_fe_versions *v, int opset, int *version, char *op, size_t len);
#define DMLI_FE_OP_NAME 48

/* Clears result (NULL is an error naming op): every front-end's first step. */
HRESULT dmli_fe_begin(const char *op, const void *args, dmlcl_frontend_result *result);

/*
 * Room for tensors tensors and outputs output shapes in r: inline when they
 * fit (at most DMLCL_FRONTEND_MAX_TENSORS tensors, one output), else one
 * heap block that dmli_fe_tensor and output_shapes use (E_OUTOFMEMORY).
 * Call before the first dmli_fe_tensor.
 */
HRESULT dmli_fe_reserve(const char *op, dmlcl_frontend_result *r, uint32_t tensors,
                        uint32_t outputs);
/* Output shape k of r to fill (after dmli_fe_reserve). */
dmlcl_shape *dmli_fe_output_shape(dmlcl_frontend_result *r, uint32_t k);
/* Sets output_count, output_shapes and output_shape once the shapes are filled. */
void dmli_fe_outputs_done(dmlcl_frontend_result *r, uint32_t outputs);
/* The tensor descriptions of r, contiguous, in binding order. */
DML_TENSOR_DESC *dmli_fe_tensors(dmlcl_frontend_result *r);

/* Tensor k of result: packed, type, shape s (0-D as {1}); s passed dmli_fe_check_shape. */
DML_TENSOR_DESC *dmli_fe_tensor(dmlcl_frontend_result *r, int k, DML_TENSOR_DATA_TYPE type,
                                const dmlcl_shape *s);

/* The output (rank dims) as tensor k and output_shape, after dmli_fe_check_shape. */
HRESULT dmli_fe_output(const char *op, dmlcl_frontend_result *r, int k, DML_TENSOR_DATA_TYPE type,
                       const int64_t *dims, uint32_t rank);

#endif /* DMLI_FRONTENDS_COMMON_H */
