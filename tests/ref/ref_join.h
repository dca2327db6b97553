/* SPDX-License-Identifier: MIT */
/*
 * ref_join.h: the oracle for DML_JOIN / DML_SPLIT and their extension twins
 * JOIN1 / SPLIT1 (OpenVINO Concat, Split, VariadicSplit; ONNX Concat,
 * Split). Written from DirectML's pages (the pieces tile the joined tensor
 * along the axis, in order), nothing from src/: every element of the joined
 * tensor finds its piece by walking the pieces' lengths along the axis.
 */
#ifndef DMLCL_TESTS_REF_JOIN_H
#define DMLCL_TESTS_REF_JOIN_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whether pieces (count of them) tile whole along axis: one rank, the same
 * sizes except along axis, whose sizes sum to whole's.
 */
bool ref_join_fits(const ref_tensor *pieces, uint32_t count, const ref_tensor *whole,
                   uint32_t axis);

/* output = the inputs joined along axis; false (nothing written) when they do not fit. */
bool ref_join(const ref_tensor *inputs, uint32_t count, const ref_tensor *output, uint32_t axis);

/* outputs = input cut along axis; false (nothing written) when they do not fit. */
bool ref_split(const ref_tensor *input, const ref_tensor *outputs, uint32_t count, uint32_t axis);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_JOIN_H */
