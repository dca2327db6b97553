/*
 * Plan composition (fuse.c): one copy plan from two, where the first writes
 * the tensor the second reads. Pure host code; the graph planner (graph.c)
 * decides which pairs to try.
 */
#ifndef DMLCL_FUSE_H
#define DMLCL_FUSE_H

#include "internal.h"

/* Which of the consumer's reads the producer's output feeds. */
typedef enum dmlcl_fuse_port {
    DMLCL_FUSE_DATA,  /* the in tensor (views and gathers) */
    DMLCL_FUSE_INDEX, /* the index tensor (gathers) */
} dmlcl_fuse_port;

/*
 * Undoes dmlcl_plan_normalize's widening: back to elements of elem_bytes
 * (the tensors' element width), the same map in smaller units. Composition
 * works in elements of the intermediate tensor.
 */
void dmlcl_plan_unwiden(dmlcl_plan *plan, uint32_t elem_bytes);

/*
 * out = consumer after producer, exactly, or false with the reason in *why.
 * Both plans in elements (see dmlcl_plan_unwiden); the producer's element
 * width must be the consumer's at port. The composition is exact when every
 * address the consumer reads was written by exactly one producer coordinate
 * and that coordinate is affine in the consumer's coordinates (and index
 * values): no carries between the producer's output dimensions. Then each
 * consumer step is a fixed producer coordinate step, and the producer's
 * input strides give the composed strides.
 */
bool dmlcl_fuse_compose(const dmlcl_plan *producer, const dmlcl_plan *consumer,
                        dmlcl_fuse_port port, dmlcl_plan *out, const char **why);

/* Bytes of one index element of a plan's index type (0 for NONE). */
uint32_t dmlcl_index_type_size(dmlcl_index_type type);

#endif /* DMLCL_FUSE_H */
