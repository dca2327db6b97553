/* SPDX-License-Identifier: MIT */
/*
 * ref.h: the pure-C reference (oracle) for dmlcl's operators.
 *
 * Written from the specifications, not from the library: it shares nothing
 * with src/ (no planner, no normalisation, no kernels) and uses only the
 * public descriptor surface (DirectML's types and DMLCalcBufferTensorSize).
 * Every operator is a plain loop over output coordinates that copies element
 * bytes with memcpy, so it is type-agnostic and bit-exact. Slow on purpose.
 *
 * Also here: the small tools every device test needs (packed strides, buffer
 * sizes, coordinate iteration, a seeded PRNG).
 */
#ifndef DMLCL_TESTS_REF_H
#define DMLCL_TESTS_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmlcl/directml.h"
#include "dmlcl/extensions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enough for DirectML (8) and dmlcl's extension operators (16). */
#define REF_MAX_DIMS 16

/* ---- Data types ------------------------------------------------------------ */

/* Bytes per element (DirectML and dmlcl extension types); 0 when not movable. */
size_t ref_type_size(DML_TENSOR_DATA_TYPE type);
/* "FLOAT32", "UINT64", ... ("?" for others). */
const char *ref_type_name(DML_TENSOR_DATA_TYPE type);
bool ref_type_is_float(DML_TENSOR_DATA_TYPE type);
/* INT8..INT64: index values of these types may be negative. */
bool ref_type_is_signed_int(DML_TENSOR_DATA_TYPE type);

/* ---- Strided tensor views ------------------------------------------------- */

/*
 * A logical tensor over memory: element at coordinate c lives at
 * base + (sum c[i] * strides[i]) * elem_size. Strides are in elements and
 * signed, so views with reversed (negative) or broadcast (0) dimensions
 * are expressible. rank 0 is a scalar.
 */
typedef struct ref_tensor {
    DML_TENSOR_DATA_TYPE type;
    size_t elem_size;
    uint32_t rank;
    uint32_t sizes[REF_MAX_DIMS];
    int64_t strides[REF_MAX_DIMS];
    void *base;
} ref_tensor;

/* Packed row-major strides (last dimension fastest). */
void ref_packed_strides(uint32_t rank, const uint32_t *sizes, uint32_t *strides);
/* Product of sizes (1 for rank 0). */
uint64_t ref_element_count(uint32_t rank, const uint32_t *sizes);

/*
 * A view of DirectML's buffer tensor description over base: strides NULL
 * means packed, as in DML_BUFFER_TENSOR_DESC.
 */
ref_tensor ref_tensor_view(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                           const uint32_t *strides, void *base);

/* Element offset (in elements, from base) of coordinate coord. */
int64_t ref_offset(const ref_tensor *t, const uint32_t *coord);
void ref_get(const ref_tensor *t, const uint32_t *coord, void *element);
void ref_put(const ref_tensor *t, const uint32_t *coord, const void *element);

/*
 * Odometer over coordinates, last dimension fastest. Start from all zeros;
 * returns false after the last coordinate (and leaves coord all zeros).
 */
bool ref_next_coord(uint32_t rank, const uint32_t *sizes, uint32_t *coord);

/*
 * DMLCalcBufferTensorSize: the minimum TotalTensorSizeInBytes (strides NULL =
 * packed), rounded up to 4 bytes.
 */
uint64_t ref_buffer_bytes(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          const uint32_t *strides);

/* ---- Seeded PRNG ---------------------------------------------------------- */

/* splitmix64: tiny, full-period, good enough to pick shapes and fill data. */
typedef struct ref_rng {
    uint64_t state;
} ref_rng;

uint64_t ref_mix64(uint64_t x);
ref_rng ref_rng_make(uint64_t seed);
uint64_t ref_rng_next(ref_rng *rng);
/* Uniform in [0, n) (n >= 1). */
uint64_t ref_rng_below(ref_rng *rng, uint64_t n);
/* Uniform in [lo, hi]. */
int64_t ref_rng_range(ref_rng *rng, int64_t lo, int64_t hi);
/* True with probability percent / 100. */
bool ref_rng_chance(ref_rng *rng, unsigned percent);
void ref_rng_bytes(ref_rng *rng, void *dst, size_t n);

/*
 * The run's base seed: DMLCL_TEST_SEED (decimal or 0x hex; "random" picks one
 * from the clock), else fallback. Tests print it with every failure.
 */
uint64_t ref_test_seed(uint64_t fallback);

/* ---- DML_GATHER ----------------------------------------------------------- */

/*
 * OutputTensor.Sizes by DirectMLX's procedure: all D output sizes start at 1;
 * positions D-1..axis+1 copy the input's; the next index_dimensions positions
 * (axis, axis-1, ...) take the indices' last index_dimensions sizes; the
 * positions below take input sizes axis-1, axis-2, ... while both last.
 * Returns false when the result drops information: an input size > 1 or an
 * index size > 1 that found no output position (the rule "original input
 * rank + IndexDimensions - 1 <= DimensionCount" and "the leading index
 * dimensions are 1").
 */
bool ref_gather_output_sizes(uint32_t rank, const uint32_t *input_sizes,
                             const uint32_t *indices_sizes, uint32_t axis,
                             uint32_t index_dimensions, uint32_t *output_sizes);

/*
 * The input row a raw index element selects along an axis of axis_size:
 * signed index types count negative values from the end (idx += size); then
 * dmlcl's clamp for invalid indices puts the result into [0, axis_size - 1]
 * (DirectML only promises reads stay inside the input).
 */
uint32_t ref_gather_index(DML_TENSOR_DATA_TYPE index_type, const void *raw, uint32_t axis_size);

/*
 * DML_GATHER: for every output coordinate o, split o into lead (positions <=
 * axis - index_dimensions), index part (the index_dimensions positions ending
 * at axis) and trail (> axis); idx = indices at (0, ..., 0, index part); the
 * input coordinate is (lead right-aligned into [0, axis), idx, trail). Writes
 * only the output's logical elements. All three views share one rank; output
 * sizes must be what ref_gather_output_sizes gives. Returns false (writing
 * nothing) when the shapes do not fit together.
 */
bool ref_gather(const ref_tensor *input, const ref_tensor *indices, const ref_tensor *output,
                uint32_t axis, uint32_t index_dimensions);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_H */
