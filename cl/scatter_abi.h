/* SPDX-License-Identifier: MIT */
/*
 * scatter_abi.h: the table of the scatter family (cl/scatter.cl), shared with its launch
 * (src/launch_scatter.c). Plain macros, valid C and OpenCL C.
 *
 * The header's scalars, then per parallel dimension besides the run (innermost first) its
 * size and the strides of the updates, the indices and the output; per walked dimension
 * (innermost first) its size and the strides of the updates and the indices; per index
 * component the output's axis: its size and stride. Strides are in elements of each tensor.
 */
#ifndef DMLI_SCATTER_ABI_H
#define DMLI_SCATTER_ABI_H

#define DMLI_SC_DIMS 8 /* dimensions of each kind and components, at most */

#define DMLI_SC_RUN 0      /* the run: the innermost parallel dimension's size */
#define DMLI_SC_RUN_US 1   /* ... its updates stride */
#define DMLI_SC_RUN_XS 2   /* ... its indices stride */
#define DMLI_SC_RUN_OS 3   /* ... its output stride */
#define DMLI_SC_CHUNK 4    /* run elements an item writes */
#define DMLI_SC_CHUNKS 5   /* items a row (the run's chunks) */
#define DMLI_SC_ITEMS 6    /* items in all: rows x chunks */
#define DMLI_SC_N_OUTER 7  /* parallel dimensions besides the run */
#define DMLI_SC_N_WALK 8   /* walked dimensions */
#define DMLI_SC_WALKS 9    /* positions walked: the product of their sizes */
#define DMLI_SC_NCOMP 10   /* index components */
#define DMLI_SC_COMP_XS 11 /* indices elements between an index tuple's components */
#define DMLI_SC_HEADER 12

#define DMLI_SC_OUTER_FIELDS 4
#define DMLI_SC_OUTER(i) (DMLI_SC_HEADER + (i)*DMLI_SC_OUTER_FIELDS) /* size, us, xs, os */
#define DMLI_SC_WALK_FIELDS 3
#define DMLI_SC_WALK(j) (DMLI_SC_OUTER(DMLI_SC_DIMS) + (j)*DMLI_SC_WALK_FIELDS) /* size, us, xs */
#define DMLI_SC_COMP(k) (DMLI_SC_WALK(DMLI_SC_DIMS) + (k)*2) /* axis size, axis stride */
#define DMLI_SC_TABLE DMLI_SC_COMP(DMLI_SC_DIMS)

#endif /* DMLI_SCATTER_ABI_H */
