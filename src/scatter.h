/* SPDX-License-Identifier: MIT */
/*
 * The scatter family's description (internal.h dmli_compute, kind DMLI_COMPUTE_SCATTER),
 * written by SCATTER_ELEMENTS' and SCATTER_ND's lower (ops/scatter.c) and launched by
 * launch_scatter.c (cl/scatter.cl). Two steps (program.c): the input copied to the output by
 * a view copy (the copy plans' kernels, streaming where large), then the scatter kernel:
 *
 *   for each parallel position p, for each walked position w in row-major order:
 *     out[out(p) + sum_k fix(idx[x(p) + x(w) + k * comp_xs]) * axis_stride_k] = upd[u(p) + u(w)]
 *
 * fix() resolves an index as the DirectML gathers do (a negative value of a signed type counts
 * from the end of its axis, then it is clamped into the axis). Two updates can only meet at
 * one output element when they share their parallel position (the output's coordinates off
 * the indexed axes), and one work-item walks each parallel position's sequence in order: the
 * update last in row-major order of the updates wins, on every device.
 *
 * The compute tensors are InputTensor (read by the copy only), IndicesTensor, UpdatesTensor and
 * OutputTensor, in that order (DMLI_SCATTER_*).
 */
#ifndef DMLI_SCATTER_H
#define DMLI_SCATTER_H

#include "../cl/scatter_abi.h"
#include "internal.h"

enum { DMLI_SCATTER_INPUT, DMLI_SCATTER_INDICES, DMLI_SCATTER_UPDATES, DMLI_SCATTER_OUTPUT };

typedef struct dmli_scatter {
    uint32_t elem_bytes; /* the data's element width: the kernel moves bits */
    dmli_index_type idx_type;
    /* The parallel dimensions, outermost first; the last one is the run (an item's chunk of
     * it), at least one (of size 1 when every dimension is indexed). */
    int n_outer;
    int64_t outer_size[DMLI_SC_DIMS + 1];
    int64_t outer_us[DMLI_SC_DIMS + 1], outer_xs[DMLI_SC_DIMS + 1], outer_os[DMLI_SC_DIMS + 1];
    /* The walked dimensions, outermost first (ELEMENTS: the axis; ND: the index tuples'). */
    int n_walk;
    int64_t walk_size[DMLI_SC_DIMS], walk_us[DMLI_SC_DIMS], walk_xs[DMLI_SC_DIMS];
    /* The index components: each tuple's values, comp_xs apart in the indices, each an axis of
     * the output. */
    int components;
    int64_t comp_xs;
    int64_t axis_size[DMLI_SC_DIMS], axis_os[DMLI_SC_DIMS];
    /* The copy: the output's dimensions, its strides and the input's. */
    int copy_rank;
    int64_t copy_size[DMLI_SC_DIMS], copy_os[DMLI_SC_DIMS], copy_is[DMLI_SC_DIMS];
} dmli_scatter;

/* Appends a parallel (walk: false) or walked dimension, outermost first. */
void dmli_scatter_push(dmli_scatter *s, bool walk, int64_t size, int64_t us, int64_t xs,
                       int64_t os);
/* Drops dimensions of size 1 and merges neighbours of one kind contiguous in every tensor they
 * step (row-major order kept: the walk's order decides which update wins). */
void dmli_scatter_normalize(dmli_scatter *s);
/* The copy step's view plan (not normalised). */
void dmli_scatter_copy_plan(const dmli_scatter *s, dmli_plan *plan);

#endif /* DMLI_SCATTER_H */
