/* SPDX-License-Identifier: MIT */
/*
 * Plan composition (fuse.c): one copy plan from two, where the first writes
 * the tensor the second reads. Pure host code; the graph planner (graph.c)
 * decides which pairs to try.
 */
#ifndef DMLI_FUSE_H
#define DMLI_FUSE_H

#include "internal.h"

/* Which of the consumer's reads the producer's output feeds. */
typedef enum dmli_fuse_port {
    DMLI_FUSE_DATA,  /* the in tensor (views and gathers) */
    DMLI_FUSE_INDEX, /* the index tensor (gathers) */
} dmli_fuse_port;

/*
 * Undoes dmli_plan_normalize's widening: back to elements of elem_bytes
 * (the tensors' element width), the same map in smaller units. Composition
 * works in elements of the intermediate tensor.
 */
void dmli_plan_unwiden(dmli_plan *plan, uint32_t elem_bytes);

/*
 * out = consumer after producer, exactly, or false with the reason in *why.
 * Both plans in elements (see dmli_plan_unwiden); the producer's element
 * width must be the consumer's at port. The composition is exact when every
 * address the consumer reads was written by exactly one producer coordinate
 * and that coordinate is affine in the consumer's coordinates (and index
 * values): no carries between the producer's output dimensions. Then each
 * consumer step is a fixed producer coordinate step, and the producer's
 * input strides give the composed strides.
 */
bool dmli_fuse_compose(const dmli_plan *producer, const dmli_plan *consumer, dmli_fuse_port port,
                       dmli_plan *out, const char **why);

/* Bytes of one index element of a plan's index type (0 for NONE). */
uint32_t dmli_index_type_size(dmli_index_type type);

#endif /* DMLI_FUSE_H */
