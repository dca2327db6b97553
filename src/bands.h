/* SPDX-License-Identifier: MIT */
/*
 * Bands (bands.c, launch_bands.c: pure host code): an operator's steps that walk the same
 * rows, run as one dispatch of cl/bands.cl (launch_bands.c for its launch,
 * a step of the operator's program for its kernel and arguments: runtime.c).
 *
 * Built from the steps as lowered (not normalised): every step of the
 * operator has the output's rank, so the outer dimensions where every step
 * has the same size are the band's rows, and what a step writes inside one
 * row is its segment: lines of a run contiguous in the output, read with
 * input step -1, 0 or 1. Steps whose part of a row is not such a segment
 * (more than two dimensions after merging, a strided or transposed run)
 * keep their own kernel. An operator's steps write disjoint parts of its
 * outputs (fuzz/plancheck.c checks it), so the band and the steps left out
 * of it may run in any order.
 */
#ifndef DMLI_BANDS_H
#define DMLI_BANDS_H

#include "launch.h"

/* Buffer arguments of the widest bands_copy variant (cl/bands.cl NBUF). */
#define DMLI_BANDS_MAX_BUFS 63
/* The table is __constant: OpenCL guarantees 64 KiB. */
#define DMLI_BANDS_TABLE_MAX (64 * 1024 / 8)

/* One step in a band: its part of a row. Offsets and strides in elements. */
typedef struct dmli_band_seg {
    uint32_t step;       /* index in the operator's steps */
    int out_buf, in_buf; /* indices into the band's buffers */
    int64_t out_off, in_off;
    int64_t lines, line_os, line_is;              /* lines of the segment in a row (1: one run) */
    int64_t run, run_is;                          /* run output stride 1; input stride -1, 0 or 1 */
    int64_t os[DMLI_MAX_RANK], is[DMLI_MAX_RANK]; /* per row dimension (band order) */
} dmli_band_seg;

/* A buffer of the band: an output slot, an input slot, or the fill constant. */
typedef struct dmli_band_buf {
    bool output;
    int slot; /* input or output slot; DMLI_STEP_CONSTANT: the constant */
} dmli_band_buf;

/* Consecutive segments (output order) walked together line by line. */
typedef struct dmli_band_strip {
    uint32_t first, count;
    int64_t lines;
} dmli_band_strip;

typedef struct dmli_band {
    uint32_t elem_bytes;
    uint32_t unit; /* bytes moved per unit (widened where every quantity allows) */
    int row_rank;  /* after merging and dropping size-1 dimensions */
    int64_t row_size[DMLI_MAX_RANK]; /* outermost first */
    uint64_t rows;
    uint64_t bytes;    /* bytes the band writes */
    uint64_t op_bytes; /* bytes the operator writes (every step) */
    uint32_t n_segs, n_strips, n_bufs;
    dmli_band_seg *segs; /* output order */
    dmli_band_strip *strips;
    dmli_band_buf bufs[2 * DMLI_MAX_SLOTS + 1];
    bool *in_band; /* per step: true when a segment of the band */
} dmli_band;

/*
 * The band of st's steps on dev, or false with the reason in why (a static
 * string) when the operator runs per step: no steps, fewer than 2 steps
 * share a band, more distinct buffers than dev's parameter size allows,
 * too few rows to fill the device, or a table larger than 64 KiB.
 * DMLCL_BANDS=0 in the environment is the caller's (runtime.c).
 * Out of memory is false with why "out of host memory".
 */
bool dmli_band_build(const dmli_op_state *st, const dmli_device_desc *dev, dmli_band *band,
                     const char **why);
void dmli_band_free(dmli_band *band);

/* Longs in the band's table (cl/abi.h DMLI_BANDS_*). */
size_t dmli_band_table_count(const dmli_band *band);

/* Buffer arguments (cl/bands.cl NBUF) for n distinct buffers on dev; 0: none fits. */
uint32_t dmli_band_nbuf(uint32_t n, const dmli_device_desc *dev);

/* The launch of a band: the kernel's options, grid and table. */
typedef struct dmli_band_launch {
    dmli_options defs; /* the variant's macros (launch.h) */
    char options[DMLI_LAUNCH_OPTIONS_MAX];
    uint32_t nbuf;
    bool serial, stream;
    uint64_t rows_per_item;
    size_t global[3], local[3];
    size_t table_count;
    cl_long *table; /* owned (dmli_band_launch_free) */
} dmli_band_launch;

/* Pure: false only when out of host memory. */
bool dmli_band_launch_make(const dmli_band *band, const dmli_device_desc *dev, dmli_band_launch *l);
void dmli_band_launch_free(dmli_band_launch *l);

/* One line per strip and segment for DMLCL_VERBOSE, written to f (a FILE *). */
void dmli_band_describe(const dmli_band *band, const dmli_band_launch *l, const char *op, void *f);

#endif /* DMLI_BANDS_H */
