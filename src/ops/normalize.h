/* SPDX-License-Identifier: MIT */
/*
 * What the normalising operators (ops/softmax.c: SOFTMAX, LOG_SOFTMAX, HARDMAX and their *1
 * versions; ops/mvn.c: MEAN_VARIANCE_NORMALIZATION, 1 and 2, LP_NORMALIZATION) share: their
 * Axes rule and their lowering to a reduction (internal.h dmli_reduce) whose output has the
 * input's shape.
 */
#ifndef DMLI_OPS_NORMALIZE_H
#define DMLI_OPS_NORMALIZE_H

#include "ops/common.h"

/* What validate finds for lower (in st->scratch): which input dimensions form a row. */
typedef struct dmli_norm_axes {
    bool reduced[DMLI_MAX_RANK];
} dmli_norm_axes;

/*
 * Axes (AxisCount entries) of a rank-`rank` input: AxisCount from 1 to rank, each axis below
 * rank, none twice (DirectML: values in [0, DimensionCount - 1]; a set, so the order is free).
 * Sets out->reduced. Every breach is E_INVALIDARG naming the field, the value and the rule.
 */
HRESULT dmli_norm_axes_check(const char *op, uint32_t count, const UINT *axes, uint32_t rank,
                             dmli_norm_axes *out);

/* InputTensor.DataType FLOAT32 or FLOAT16 (every feature level's table of these operators). */
HRESULT dmli_norm_float_type(const char *op, const char *field, const dmli_tensor *t);

/*
 * The reduction of op over st's input 0 into output 0, the dimensions marked in axes reduced;
 * the operator's inputs 1..n_inputs-1 (MVN's scale and bias) are the reduction's inputs 1, 2
 * at their positions (internal.h: input 1 the scale, input 2 the bias), each read with its
 * own strides, 0 where its size is 1 (broadcast) and everywhere when it is absent.
 */
void dmli_norm_lower(dmli_op_state *st, dmli_reduce_op op, uint32_t n_inputs,
                     const dmli_norm_axes *axes);

#endif /* DMLI_OPS_NORMALIZE_H */
