/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/ext_slice.h: a strided slice with begin/end/stride lists and the five
 * masks (DMLCL_OPERATOR_STRIDED_SLICE). Included by dmlcl/extensions.h.
 *
 * The semantics are OpenVINO's StridedSlice-1 with every list SliceCount
 * entries long. Entry i is one of:
 *   - the ellipsis (EllipsisMask[i] = 1, at most one): every input dimension
 *     no other entry takes, copied whole. Without one, there is an implicit
 *     ellipsis after the last entry;
 *   - a new axis (NewAxisMask[i] = 1): an output dimension of size 1; Begin,
 *     End and Strides of the entry are ignored;
 *   - a shrunk axis (ShrinkAxisMask[i] = 1): takes the element Begin[i] of the
 *     next input dimension (negative: counted from the end; it must lie inside
 *     the dimension) and drops the dimension; End and Strides are ignored;
 *     BeginMask[i] = 1 takes element 0;
 *   - a slice Begin[i]:End[i]:Strides[i] of the next input dimension, as in
 *     Python: negative Begin/End count from the end, values outside the
 *     dimension are clamped silently (a negative Strides[i] reverses; a
 *     Begin below the start then clamps to element 0). BeginMask[i] = 1 starts
 *     at the first element (the last one when reversing), EndMask[i] = 1 runs
 *     through the last (element 0 when reversing). Strides[i] must not be 0.
 * Where an entry sets several of these masks, the ellipsis wins over a new
 * axis, and a new axis over a shrunk one (OpenVINO's shape inference order).
 * All arithmetic is 64-bit and clamps first: any INT64 values are valid.
 *
 * The output has (input rank - shrunk axes + new axes) dimensions, each one
 * the output of its entry in order; when that is 0 (every input dimension
 * shrunk), OutputTensor is {1}. Tensors take dmlcl's extension types and
 * ranks (1 to DMLCL_TENSOR_DIMENSION_COUNT_MAX, 0 sizes allowed).
 */
#ifndef DMLCL_EXT_SLICE_H
#define DMLCL_EXT_SLICE_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct DMLCL_STRIDED_SLICE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT SliceCount;            /* entries in each list below (0: a plain copy) */
    const INT64 *Begin;         /* SliceCount entries */
    const INT64 *End;           /* SliceCount entries */
    const INT64 *Strides;       /* SliceCount entries, none 0 on a slice; NULL: all 1 */
    const UINT *BeginMask;      /* SliceCount entries of 0 or 1; NULL: all 0 */
    const UINT *EndMask;        /* as BeginMask */
    const UINT *NewAxisMask;    /* as BeginMask */
    const UINT *ShrinkAxisMask; /* as BeginMask */
    const UINT *EllipsisMask;   /* as BeginMask, with at most one 1 */
} DMLCL_STRIDED_SLICE_OPERATOR_DESC;

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_SLICE_H */
