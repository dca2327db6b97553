/* SPDX-License-Identifier: MIT */
/*
 * ref_broadcast.h: the oracle for ELEMENT_WISE_IDENTITY, DMLCL_BROADCAST
 * and the broadcast front-ends (OpenVINO Broadcast-1/3, ONNX Expand-13).
 * Written from DirectML's IDENTITY page, the Broadcast-1 specification,
 * OpenVINO's shape inference and numpy's broadcasting rules; nothing from src/.
 */
#ifndef DMLCL_TESTS_REF_BROADCAST_H
#define DMLCL_TESTS_REF_BROADCAST_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- IEEE half precision ------------------------------------------------- */

double ref_half_to_double(uint16_t h);
/* Round to nearest, ties to even; overflow gives infinity, NaN stays NaN. */
uint16_t ref_half_from_double(double x);

/* ---- ELEMENT_WISE_IDENTITY -------------------------------------------------- */

/*
 * output[c] = input[c] for every coordinate (bytes copied); with scale_bias
 * (FLOAT16, FLOAT32, FLOAT64 only) output[c] = input[c] * Scale + Bias,
 * computed in double and rounded once to the element type. Input and output
 * must have the same type, rank and sizes (false otherwise, nothing written).
 * The views must not overlap unless they are the same layout.
 */
bool ref_identity(const ref_tensor *input, const ref_tensor *output,
                  const DML_SCALE_BIAS *scale_bias);

/* Within `ulps` units in the last place (two NaNs are equal; +0 and -0 are 0 apart). */
bool ref_float_close(DML_TENSOR_DATA_TYPE type, const void *a, const void *b, unsigned ulps);

/* ---- Broadcast ------------------------------------------------------------- */

typedef enum ref_broadcast_mode {
    REF_BROADCAST_NUMPY,
    REF_BROADCAST_EXPLICIT,
    REF_BROADCAST_BIDIRECTIONAL,
} ref_broadcast_mode;

/*
 * The framework rule: the output shape of broadcasting data (data_rank dims)
 * under mode with target (target_count values) and, for EXPLICIT, axes
 * (axes_count values; NULL when the input is absent). Also gives map[k],
 * the output axis data axis k lands on (for a 0-D data with one axis:
 * map[0] = axes[0]). Returns false with the broken rule in why.
 *   NUMPY          target_count >= data_rank; right-aligned, each data dim is
 *                  1 or equals the target's; output = target
 *   BIDIRECTIONAL  right-aligned; equal or one of them 1; output = the other
 *                  (1 with 0 gives 0, as numpy)
 *   EXPLICIT       axes given, one per data dim (a 0-D data: 0 or 1 entries,
 *                  the entry's target dim 1), strictly increasing, each below
 *                  target_count, each data dim 1 or the target dim it maps
 *                  to; output = target
 * Negative target values are invalid.
 */
bool ref_broadcast_shape(ref_broadcast_mode mode, uint32_t data_rank, const int64_t *data,
                         uint32_t target_count, const int64_t *target, uint32_t axes_count,
                         const int64_t *axes, uint32_t *out_rank, int64_t *out, uint32_t *map,
                         char *why, size_t why_len);

/*
 * output[o] = input[i] with i[k] = (input size k == 1) ? 0 : o[map[k]], for
 * every output coordinate (bytes copied). False when a size does not fit.
 */
bool ref_broadcast(const ref_tensor *input, const ref_tensor *output, const uint32_t *map);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_BROADCAST_H */
