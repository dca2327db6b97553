/* SPDX-License-Identifier: MIT */
/*
 * ref_depth_space.h: the oracle for the depth/space rearrangements, written
 * from the specifications' words (DML_DEPTH_SPACE_ORDER's layouts, OpenVINO
 * DepthToSpace-1 / SpaceToDepth-1: "the input depth is divided to
 * [block_size, ..., block_size, new_depth]" or "[new_depth, block_size, ...]"),
 * element by element: each output coordinate is split into block and
 * position coordinates with divisions, and the depth index is assembled from
 * them. Nothing from src/ (which lowers to strides instead).
 *
 * K = rank - 2 spatial dimensions (DirectML: K = 2). blocks_first is
 * DirectML's DEPTH_COLUMN_ROW and ONNX's DCR; otherwise depth first
 * (COLUMN_ROW_DEPTH, CRD).
 */
#ifndef DMLCL_TESTS_REF_DEPTH_SPACE_H
#define DMLCL_TESTS_REF_DEPTH_SPACE_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * depth [N, C * b^K, D1, ..., DK] -> space [N, C, D1 * b, ..., DK * b].
 * False (nothing written) when the shapes do not match that rule.
 */
bool ref_depth_to_space(const ref_tensor *depth, const ref_tensor *space, uint32_t block,
                        bool blocks_first);

/* space [N, C, D1 * b, ..., DK * b] -> depth [N, C * b^K, D1, ..., DK]; false likewise. */
bool ref_space_to_depth(const ref_tensor *space, const ref_tensor *depth, uint32_t block,
                        bool blocks_first);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_DEPTH_SPACE_H */
