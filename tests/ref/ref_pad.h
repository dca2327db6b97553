/* SPDX-License-Identifier: MIT */
/*
 * ref_pad.h: the oracle for padding (DML PADDING/PADDING1, DMLCL_PAD and the
 * Pad front-ends) and roll (DMLCL_ROLL, OpenVINO Roll-7). Written from
 * DirectML's PADDING pages, OpenVINO's Pad-12 and Roll-7 texts and numpy's
 * pad and roll; nothing from src/. Each output element is computed on its
 * own: the input coordinate is folded back into the input one reflection
 * (or one period) at a time.
 */
#ifndef DMLCL_TESTS_REF_PAD_H
#define DMLCL_TESTS_REF_PAD_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_pad_mode {
    REF_PAD_CONSTANT,
    REF_PAD_EDGE,
    REF_PAD_REFLECT,
    REF_PAD_SYMMETRIC,
    REF_PAD_WRAP,
} ref_pad_mode;

/*
 * output[o] = input[x] with x[d] = fold(o[d] - start[d]), or *value where
 * that lies outside the input in constant mode. Output sizes must be
 * max(0, start + n + end) (false otherwise, nothing written); a dimension
 * of size 0 padded in another mode is false too.
 */
bool ref_pad(const ref_tensor *input, const ref_tensor *output, ref_pad_mode mode,
             const int64_t *start, const int64_t *end, const void *value);

/*
 * ONNX Runtime's reading (DMLCL_PAD_FLAG_CROP_FIRST): the negative pads crop
 * the input first (false when they remove more than a dimension), then
 * ref_pad pads the rest with the positive ones.
 */
bool ref_pad_crop_first(const ref_tensor *input, const ref_tensor *output, ref_pad_mode mode,
                        const int64_t *start, const int64_t *end, const void *value);

/* numpy.roll per dimension: output[o] = input[(o - shift) mod n]; same sizes. */
bool ref_roll(const ref_tensor *input, const ref_tensor *output, const int64_t *shifts);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_PAD_H */
