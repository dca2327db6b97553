/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/ext_pad.h: padding with signed pads (DMLCL_OPERATOR_PAD) and a roll
 * (DMLCL_OPERATOR_ROLL). Included by dmlcl/extensions.h.
 *
 * PAD generalises DirectML's PADDING1 the way OpenVINO's Pad-12 and ONNX's
 * Pad do. Per dimension i, with n = InputTensor.Sizes[i], s = StartPadding[i]
 * and e = EndPadding[i] (any INT64 values; negative crops):
 *
 *   OutputTensor.Sizes[i] = max(0, s + n + e)
 *   OutputTensor[o] = InputTensor[x] where x[i] = map(o[i] - s), or
 *                     *PaddingValue where some map is "outside" (CONSTANT)
 *
 * map(t) is t for 0 <= t < n, and outside that, by PaddingMode:
 *   DML_PADDING_MODE_CONSTANT    outside (the padding value)
 *   DML_PADDING_MODE_EDGE        0 below, n-1 above
 *   DML_PADDING_MODE_REFLECTION  mirrored on the edge elements, repeating
 *                                with period 2(n-1) (numpy's "reflect");
 *                                n = 1: element 0
 *   DML_PADDING_MODE_SYMMETRIC   mirrored with the edge elements repeated,
 *                                period 2n (numpy's "symmetric")
 *   DML_PADDING_MODE_WRAP (4)    t mod n (numpy's "wrap")
 * Cropping and padding refer to the original input: a crop at one end never
 * changes what the other end reflects (OpenVINO Pad-12's "mixed pads").
 * With DMLCL_PAD_FLAG_CROP_FIRST the negative pads crop the input first and
 * the positive ones pad what is left (ONNX Runtime's reading of ONNX Pad):
 * the same formulas with n the cropped size and the pads' negative parts 0.
 * Crops may then remove at most the whole dimension.
 * Every mode takes pads of any size; what a framework limits (OpenVINO's
 * reflect pads below the size) its front-end checks. A dimension of size 0
 * has nothing to copy: only CONSTANT may give it a nonzero output size.
 *
 * PaddingValue points to one element of InputTensor's type (NULL: all bits
 * 0); it is read at creation, and only in CONSTANT mode.
 *
 * ROLL: OutputTensor[o] = InputTensor[x], x[i] = (o[i] - Shifts[i]) mod n,
 * i.e. numpy.roll with one shift per dimension (any INT64 value, reduced on
 * the host; a dimension of size 0 or 1 ignores it). Output and input have
 * the same Sizes.
 *
 * Both take dmlcl's extension types and ranks (1 to
 * DMLCL_TENSOR_DIMENSION_COUNT_MAX, sizes of 0, any element strides) and
 * run as a few view copies (src/ops/pad.c): each output region is written
 * once, so the output must not overlap the input.
 */
#ifndef DMLCL_EXT_PAD_H
#define DMLCL_EXT_PAD_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum DMLCL_PAD_FLAGS {
    DMLCL_PAD_FLAG_NONE = 0,
    DMLCL_PAD_FLAG_CROP_FIRST = 1,
} DMLCL_PAD_FLAGS;

typedef struct DMLCL_PAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_PADDING_MODE PaddingMode; /* CONSTANT .. WRAP (0 to 4) */
    const void *PaddingValue;     /* one element of InputTensor's type; NULL: zero */
    UINT DimensionCount;          /* InputTensor.DimensionCount */
    const INT64 *StartPadding;    /* DimensionCount values; negative crops */
    const INT64 *EndPadding;      /* DimensionCount values; negative crops */
    DMLCL_PAD_FLAGS Flags;        /* 0 or DMLCL_PAD_FLAG_CROP_FIRST */
} DMLCL_PAD_OPERATOR_DESC;

typedef struct DMLCL_ROLL_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount; /* InputTensor.DimensionCount */
    const INT64 *Shifts; /* DimensionCount values: toward larger indices when positive */
} DMLCL_ROLL_OPERATOR_DESC;

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_PAD_H */
