/* SPDX-License-Identifier: MIT */
/*
 * Padding and roll as output regions (pad_segments.c, pure host code):
 * along one dimension the output splits into segments, each a constant run
 * or a linear map from output to input coordinate with an input step of +1,
 * -1 or 0; the product of every dimension's segments tiles the output with
 * rectangular regions, each one view copy (or fill) of src/ops/pad.c.
 */
#ifndef DMLI_OPS_PADS_H
#define DMLI_OPS_PADS_H

#include "internal.h"

/* Most steps (kernel launches) one PADDING, PAD or ROLL lowers to. */
#define DMLI_PAD_MAX_STEPS 16384

/* How one dimension maps output coordinates to input ones. */
typedef struct dmli_pad_dim {
    DML_PADDING_MODE mode; /* ROLL: DML_PADDING_MODE_WRAP */
    int64_t in_size, out_size;
    int64_t start; /* output coordinate o reads input map(o - start) */
} dmli_pad_dim;

/* One run of output coordinates [out_start, out_start + length). */
typedef struct dmli_pad_segment {
    int64_t out_start, length;
    bool constant;    /* the padding value */
    int64_t in_start; /* input coordinate of out_start (not constant) */
    int step;         /* input step per output step: 1, -1 or 0 */
} dmli_pad_segment;

/* The segment that starts at output coordinate o (0 <= o < out_size). */
dmli_pad_segment dmli_pad_segment_at(const dmli_pad_dim *d, int64_t o);

/* Segments along d, counting no further than cap + 1. */
uint64_t dmli_pad_count_segments(const dmli_pad_dim *d, uint64_t cap);

/*
 * Steps the regions of these dimensions take: CONSTANT writes each border
 * slab once (two per padded dimension, one copy of the kept input), the
 * other modes one step per product of segments. Counts past cap stop at
 * cap + 1. An empty output takes 0.
 */
uint64_t dmli_pad_count_steps(const dmli_pad_dim *dims, uint32_t rank, uint64_t cap);

/* A rectangular output region: per dimension a segment (or a whole-range constant). */
typedef struct dmli_pad_region {
    bool constant;
    dmli_pad_segment seg[DMLI_MAX_RANK];
} dmli_pad_region;

/*
 * Calls emit for each region, in an order where none overlaps another
 * (dmli_pad_count_steps of them). Returns false when emit does.
 */
bool dmli_pad_regions(const dmli_pad_dim *dims, uint32_t rank,
                      bool (*emit)(void *ctx, const dmli_pad_region *r), void *ctx);

#endif /* DMLI_OPS_PADS_H */
