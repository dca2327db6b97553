/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/frontends.h: OpenVINO and ONNX conventions on top of dmlcl's
 * descriptors. Each front-end takes framework shapes (any rank, 0-D
 * included, 64-bit dims) and attribute values as the framework gives them
 * (negative axes, masks of any length, shape inputs as host arrays of any
 * integer type), checks every rule of the framework's specification with a
 * message, infers the output shape, and fills a DML_OPERATOR_DESC (DirectML
 * or dmlcl extension operator) whose storage lives in the result.
 *
 * One rule names every front-end and its arguments:
 *
 *   HRESULT dmlcl_<framework>_<operator>(int opset,
 *                                        const dmlcl_<framework>_<operator>_args *args,
 *                                        dmlcl_frontend_result *result);
 *
 *   dmlcl_frontend_result r;
 *   dmlcl_onnx_gather_args a = {.data = &ds, .data_type = ..., .indices = &is, ...};
 *   hr = dmlcl_onnx_gather(13, &a, &r);
 *   hr = dmlcl_operator_create(device, &r.desc, &op);  // bind inputs, output in order
 *
 * - <framework> is openvino or onnx; <operator> is the framework's operator
 *   type in snake_case (Gather: gather, StridedSlice: strided_slice,
 *   GatherND: gather_nd). No version in the name.
 * - opset is the framework opset the model is written against (ONNX: the
 *   opset_import version of the default domain; OpenVINO: N of the IR's
 *   "opsetN"). The call applies the operator version in effect there (the
 *   newest version at or below opset). An opset before the operator's first
 *   version is E_INVALIDARG; a version dmlcl does not implement is
 *   DXGI_ERROR_UNSUPPORTED, naming the versions it does.
 * - args holds the specification's inputs in its order, then its attributes,
 *   in its words in snake_case. A tensor input x is its shape
 *   (const dmlcl_shape *x) and element type (x_type); an input whose values
 *   shape inference reads (a target shape, axes, begin) is its values
 *   (const dmlcl_int_array *x) and the shape of the tensor holding them
 *   (x_dims; NULL: as many values as given, 1-D for a list). An absent
 *   optional input is NULL; attributes are values, and 0 (NULL for strings
 *   and lists) is the specification's default. One args struct serves every
 *   version; initialise it with designated initialisers, so members a later
 *   version adds keep their defaults.
 * - result is one struct for every front-end: desc for
 *   dmlcl_operator_create, the framework's output shape, and the storage
 *   desc points into (so never copy or move a result in use). Tensors are
 *   packed (a transpose reads its input through strides; a rearrangement's
 *   tensors describe the same packed bytes through a view:
 *   dmlcl/frontend_depth_space.h), 0-D is described as {1}, and an empty
 *   output (a 0 in its shape) is valid and launches nothing.
 * - A front-end with many tensors (Concat, Split: up to 64 inputs or
 *   outputs) may keep them on the heap: call dmlcl_frontend_result_clear
 *   when done with any result, and before a front-end call reuses it (the
 *   call starts from a cleared result and would lose the heap block).
 *   Clearing is harmless on every result a front-end filled, whatever it
 *   returned, on a zero-initialised one, twice, and on NULL. A Split has
 *   output_count outputs, their shapes in output_shapes[] (output_shape is
 *   the first); every other front-end has one, output_shapes pointing at
 *   output_shape. tensor_count counts the tensors desc binds, inputs first.
 * - Broken rules give E_INVALIDARG with a message naming the operator and
 *   version ("ONNX Gather-13"), the input or attribute, its value and the
 *   rule; what is legal but beyond dmlcl (string tensors, more than 16
 *   dimensions, a dimension or element count over 2^32-1) gives
 *   DXGI_ERROR_UNSUPPORTED.
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

/* Tensors a result describes: the operator's inputs, then its output. */
#define DMLCL_FRONTEND_MAX_TENSORS 3
/* Most entries a StridedSlice can have and still be valid and supported. */
#define DMLCL_STRIDED_SLICE_MAX_ENTRIES (2 * DMLCL_TENSOR_DIMENSION_COUNT_MAX + 1)

/* Every front-end's answer: pass &desc to dmlcl_operator_create. */
typedef struct dmlcl_frontend_result {
    DML_OPERATOR_DESC desc;
    dmlcl_shape output_shape; /* the framework's output shape (rank 0: a scalar) */

    /* Storage behind desc (read it through desc): tensors in binding order. */
    DML_TENSOR_DESC tensors[DMLCL_FRONTEND_MAX_TENSORS];
    DML_BUFFER_TENSOR_DESC buffers[DMLCL_FRONTEND_MAX_TENSORS];
    UINT sizes[DMLCL_FRONTEND_MAX_TENSORS][DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    /* Element strides of a tensor that reads a view (depth/space); unused ones stay 0. */
    UINT tensor_strides[DMLCL_FRONTEND_MAX_TENSORS][DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    union {
        DMLCL_GATHER1_OPERATOR_DESC gather1;
        DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC gather_elements1;
        DMLCL_GATHER_ND2_OPERATOR_DESC gather_nd2;
        DMLCL_BROADCAST_OPERATOR_DESC broadcast;
        DMLCL_STRIDED_SLICE_OPERATOR_DESC strided_slice;
        DML_TILE_OPERATOR_DESC tile;
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
        DML_SLICE1_OPERATOR_DESC slice1;
        DMLCL_JOIN1_OPERATOR_DESC join1;
        DMLCL_SPLIT1_OPERATOR_DESC split1;
        DMLCL_PAD_OPERATOR_DESC pad;
        DMLCL_ROLL_OPERATOR_DESC roll;
    } op;
    /* The operator's lists: a slice's begin, end, strides and five masks; broadcast axes;
     * a pad's start and end (begin, end), a roll's shifts (begin). */
    INT64 begin[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    INT64 end[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    INT64 strides[DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1];
    UINT masks[5][DMLCL_STRIDED_SLICE_MAX_ENTRIES + 1]; /* begin, end, new axis, shrink, ellipsis */
    UINT axes[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    /* The views' lists: a transpose's input Strides, TILE's Repeats, SLICE1's window. */
    UINT view_lists[3][DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    INT view_strides[DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    /* Tensors desc binds (inputs, then outputs) and outputs it writes. */
    uint32_t tensor_count, output_count;
    const dmlcl_shape *output_shapes; /* output_count shapes */
    /* Concat and Split beyond the inline storage: one block, freed by clear. */
    void *heap;
    unsigned char value[16]; /* a pad value: one element */
} dmlcl_frontend_result;

/* Frees what a front-end allocated in r and zeroes it (NULL: nothing to do). */
DMLCL_API void dmlcl_frontend_result_clear(dmlcl_frontend_result *r);

#ifdef __cplusplus
}
#endif

#include "dmlcl/frontend_broadcast.h"
#include "dmlcl/frontend_depth_space.h"
#include "dmlcl/frontend_gather.h"
#include "dmlcl/frontend_join.h"
#include "dmlcl/frontend_pad.h"
#include "dmlcl/frontend_slice.h"
#include "dmlcl/frontend_views.h"

#endif /* DMLCL_FRONTENDS_H */
