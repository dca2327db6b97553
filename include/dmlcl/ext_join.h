/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/ext_join.h: DirectML's JOIN and SPLIT under the extension tensor
 * rules (DMLCL_OPERATOR_JOIN1, DMLCL_OPERATOR_SPLIT1). Included by
 * dmlcl/extensions.h.
 *
 * The members, their order and the rules are DML_JOIN_OPERATOR_DESC's and
 * DML_SPLIT_OPERATOR_DESC's: every tensor has the same DataType and
 * DimensionCount, the same Sizes except along Axis, and the sizes along
 * Axis sum to the joined tensor's. What differs is what a tensor may be:
 * DimensionCount 1 to 16, any movable type (extension types included), and
 * sizes of 0. A tensor empty along Axis takes no part (ONNX and OpenVINO
 * allow them in Concat and Split); an empty joined tensor launches nothing.
 * The framework front-ends (dmlcl/frontend_join.h) lower onto these.
 *
 * InputCount (JOIN1) and OutputCount (SPLIT1) are 1 to
 * DMLCL_JOIN_MAX_TENSORS: dmlcl binds at most that many inputs and as many
 * outputs per operator; a larger count is DXGI_ERROR_UNSUPPORTED, for
 * DML_OPERATOR_JOIN and DML_OPERATOR_SPLIT too.
 */
#ifndef DMLCL_EXT_JOIN_H
#define DMLCL_EXT_JOIN_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DMLCL_OPERATOR_JOIN1 ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 6))
#define DMLCL_OPERATOR_SPLIT1 ((DML_OPERATOR_TYPE)(DMLCL_OPERATOR_TYPE_BASE + 7))

/* Most tensors on either side of a JOIN or SPLIT (the other side is one tensor). */
#define DMLCL_JOIN_MAX_TENSORS 64

typedef struct DMLCL_JOIN1_OPERATOR_DESC {
    UINT InputCount;
    const DML_TENSOR_DESC *InputTensors; /* InputCount descriptions */
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DMLCL_JOIN1_OPERATOR_DESC;

typedef struct DMLCL_SPLIT1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    UINT OutputCount;
    const DML_TENSOR_DESC *OutputTensors; /* OutputCount descriptions */
    UINT Axis;
} DMLCL_SPLIT1_OPERATOR_DESC;

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_JOIN_H */
