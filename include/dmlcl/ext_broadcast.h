/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/ext_broadcast.h: broadcast with NUMPY / EXPLICIT / BIDIRECTIONAL
 * modes (DMLCL_OPERATOR_BROADCAST). Included by dmlcl/extensions.h.
 *
 * DirectML broadcasts only through zero strides on an element-wise input
 * (an ELEMENT_WISE_IDENTITY whose InputTensor carries the output's Sizes).
 * This operator takes the input with its own shape and maps its dimensions
 * onto the output's, the way OpenVINO's Broadcast and ONNX's Expand do:
 *
 *   OutputTensor[o] = InputTensor[i], i[k] = (Sizes[k] == 1) ? 0 : o[map(k)]
 *
 * map(k) is the output dimension that input dimension k lands on:
 *   NUMPY, BIDIRECTIONAL  right-aligned: map(k) = k + Out.DimensionCount -
 *                         In.DimensionCount (In.DimensionCount <= Out's)
 *   EXPLICIT              map(k) = AxesMapping[k]: AxesMappingCount equals
 *                         In.DimensionCount, strictly increasing, each below
 *                         Out.DimensionCount
 * Every input size must be 1 or equal the size it lands on. The two right-
 * aligned modes check the same rule here, because OutputTensor.Sizes is
 * given: they differ in how a front-end infers it from a target shape
 * (NUMPY: the target itself; BIDIRECTIONAL: numpy's broadcast of both).
 *
 * Tensors follow the extension import rules: DimensionCount 1 to 16, any
 * movable type (extension types included), sizes of 0 (an empty output
 * launches nothing), any element strides. AxesMapping is read only when
 * Mode is EXPLICIT and must be NULL with a count of 0 otherwise.
 */
#ifndef DMLCL_EXT_BROADCAST_H
#define DMLCL_EXT_BROADCAST_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum DMLCL_BROADCAST_MODE {
    DMLCL_BROADCAST_MODE_NUMPY = 0,
    DMLCL_BROADCAST_MODE_EXPLICIT = 1,
    DMLCL_BROADCAST_MODE_BIDIRECTIONAL = 2,
} DMLCL_BROADCAST_MODE;

typedef struct DMLCL_BROADCAST_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DMLCL_BROADCAST_MODE Mode;
    UINT AxesMappingCount;
    const UINT *AxesMapping; /* AxesMappingCount entries; EXPLICIT only */
} DMLCL_BROADCAST_OPERATOR_DESC;

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_BROADCAST_H */
