/* SPDX-License-Identifier: MIT */
/*
 * ref_grad.h: the oracle for DirectML's training operators: ACTIVATION_RELU_GRAD,
 * ELEMENT_WISE_CLIP_GRAD, ELEMENT_WISE_CLIP_GRAD1, SLICE_GRAD, AVERAGE_POOLING_GRAD and
 * MAX_POOLING_GRAD. Written from DirectML's pages
 * (the derivative of the forward operator, as each page writes it) and docs/operators.md where they
 * are silent; nothing from src/ or cl/.
 *
 *   RELU_GRAD: dX = X > 0 ? dY : 0.
 *   CLIP_GRAD: dX = (X <= Min or X >= Max) ? 0 : dY (a NaN X is neither: dY).
 *
 * X compared by value (floats in double, integers as 64-bit integers of their signedness); dY
 * copied bit for bit where it passes, else the type's +0. CLIP_GRAD's FLOAT bounds on an
 * integer tensor: truncated toward zero and saturated to the type (NaN as 0), the conversion
 * the forward CLIP applies, so the gradient is 0 exactly where CLIP changed its input or met a
 * bound.
 */
#ifndef DMLCL_TESTS_REF_GRAD_H
#define DMLCL_TESTS_REF_GRAD_H

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ref_grad_op {
    REF_GRAD_RELU,
    REF_GRAD_CLIP,  /* FLOAT bounds lo, hi */
    REF_GRAD_CLIP1, /* bounds lo_bits, hi_bits: values of the tensor's type */
    REF_GRAD_COUNT
} ref_grad_op;

typedef struct ref_grad_args {
    double lo, hi;             /* CLIP_GRAD's Min and Max (FLOATs) */
    uint64_t lo_bits, hi_bits; /* CLIP_GRAD1's: the value's bytes, little-endian, low bytes */
} ref_grad_args;

const char *ref_grad_name(ref_grad_op op);

/* out[c] = the gradient of x[c] given dy[c]. False (nothing written) when the tensors do not
 * fit the operator (one type, one shape). */
bool ref_grad(ref_grad_op op, const ref_tensor *x, const ref_tensor *dy, const ref_grad_args *args,
              const ref_tensor *out);

/*
 * SLICE_GRAD, from its page: OutputGradientTensor starts as 0 everywhere; then each incoming
 * gradient element j goes to start + InputWindowStrides * j, start the window's first element
 * (InputWindowOffsets) or, for a negative stride, its last (InputWindowOffsets +
 * InputWindowSizes - 1). Bytes copied. False (nothing written) when the tensors' types or ranks
 * differ or an element would land outside the output.
 */
bool ref_slice_grad(const ref_tensor *dy, const uint32_t *offsets, const uint32_t *sizes,
                    const int32_t *strides, const ref_tensor *out);

/*
 * AVERAGE_POOLING_GRAD (max false) and MAX_POOLING_GRAD (max true), from the forward operators'
 * definitions: for each forward output o, in row-major order, its window on each spatial axis i
 * is o * strides[i] - start[i] + k * dilations[i] (k < window[i]); AVERAGE gives every position
 * of the window inside the input dy[o] / count, count the window's positions inside the input
 * (or, with include_padding, inside the padded input [-start, size + end)); MAX gives dy[o] to
 * the window's maximum in x (NaN only where nothing else is, +0 above -0, the first of equal
 * maxima in row-major order). Sums in double, rounded once to dx's type (FLOAT32, FLOAT16).
 * mag (dx's elements, row-major) receives each element's sum of |term| and terms its count of
 * terms (for the tolerance); either may be NULL. dims 2 or 3 spatial axes of {N, C, ...}
 * tensors; dilations NULL: 1. False (nothing written) when the shapes do not fit.
 */
bool ref_pool_grad(bool max, const ref_tensor *x, const ref_tensor *dy, const ref_tensor *dx,
                   uint32_t dims, const uint32_t *strides, const uint32_t *window,
                   const uint32_t *start, const uint32_t *end, const uint32_t *dilations,
                   bool include_padding, double *mag, uint32_t *terms);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_GRAD_H */
