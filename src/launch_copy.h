/* SPDX-License-Identifier: MIT */
/*
 * The copy families' launch parts shared across launch.c, launch_tiles.c,
 * launch_view.c and launch_indexed.c (not used outside the launch layer).
 * Each is a pure decision on a normalised plan, documented where it is defined
 * with the measurement behind it (tuning.h holds the figures).
 */
#ifndef DMLI_LAUNCH_COPY_H
#define DMLI_LAUNCH_COPY_H

#include "launch.h"
#include "tuning.h"

/* Items of a GPU work-group that moves tiles (launch_tiles.c says why 256). */
#define GROUP_ITEMS 256

/* launch.c */
const dmli_tuning *dmli_copy_tune(bool gpu);
const char *dmli_copy_vector_type(uint32_t unit);

/* launch_tiles.c: TRANSPOSE tiles */
int dmli_tile_group_rows(const dmli_plan *p);
bool dmli_tile_group_reorder(const dmli_plan *p, const dmli_device_desc *dev, dmli_plan *q);
int dmli_tile_side(const dmli_plan *p, int transpose);
int dmli_tile_chunk(const dmli_plan *p, int transpose);
int dmli_view_transposes(const dmli_plan *p, const dmli_device_desc *dev);
int dmli_indexed_transposes(const dmli_plan *p, const dmli_device_desc *dev);
size_t dmli_tile_indexed_rows(const dmli_plan *p, dmli_launch *l, cl_long *dims, int outer);

/* launch_view.c: REPEAT, INTERLEAVE, STRIDED, DEINTERLEAVE */
bool dmli_view_repeats(const dmli_plan *p);
int64_t dmli_view_interleave_chunk(const dmli_plan *p, int64_t n, int64_t bytes);
int dmli_view_interleaves(const dmli_plan *p, bool gpu);
bool dmli_view_strided(const dmli_plan *p, bool gpu, const dmli_launch *l);
int dmli_view_deinterleave_dim(const dmli_plan *p, bool gpu, int *mode);
int64_t dmli_view_deinterleave_chunk(const dmli_plan *p, const dmli_device_desc *dev,
                                     uint64_t rows);
int dmli_view_deinterleaves(const dmli_plan *p, bool gpu);

/* launch_indexed.c: index types, prefetches, SHARED_INDEX */
const char *dmli_indexed_index_type(dmli_index_type t);
int dmli_indexed_prefetch(const dmli_plan *p, const dmli_device_desc *dev, const dmli_launch *l);
bool dmli_indexed_cache_ints(const dmli_plan *p);
bool dmli_indexed_shares_index(const dmli_plan *p);

#endif /* DMLI_LAUNCH_COPY_H */
