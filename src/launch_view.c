/* SPDX-License-Identifier: MIT */
/*
 * The view family's variants (cl/view.cl): REPEAT, INTERLEAVE, STRIDED and
 * DEINTERLEAVE, each a predicate on a normalised plan with its chunk rule.
 * Pure host code (launch.h); TRANSPOSE is launch_tiles.c's.
 */
#include "launch_copy.h"

/* A VIEW plan whose outer dimensions include input stride 0: REPEAT (see cl/view.cl). */
bool dmli_view_repeats(const dmli_plan *p)
{
    for (int d = 0; p->kind == DMLI_PLAN_VIEW && d + 1 < p->rank; ++d)
        if (p->in_stride[d] == 0)
            return true;
    return false;
}

/*
 * INTERLEAVE (cl/view.cl) on a CPU: runs of 2 to 8 units (RUN_N), contiguous
 * in the output and far apart in the input (a stream per run position), the
 * next dimension contiguous in the input and packed after the runs in the
 * output: out[w * RUN_N + c] = in[w + c * run_is], as depth-to-space and
 * NCHW -> NHWC with a few channels. A work-item loads a 16-byte vector of
 * each stream and writes RUN_N whole vectors of output, instead of moving
 * one short run per row (or a tile only RUN_N units wide). It takes priority
 * over TRANSPOSE, whose tiles would be RUN_N units wide. A line's positions
 * past its last whole block are one more block ending at the line's end,
 * overlapping the one before (depth-to-space u8 block 4, rows of 56: 1.41x
 * against storing them unit by unit, dmlcl-ab, PoCL). 2 (aligned vector
 * stores, non-temporal with STREAM) where every output row starts on a
 * 16-byte boundary (binding offsets do) and is whole vectors, and a row with
 * a tail of positions is one chunk (so the tail block is its own item's and
 * aligned too); else 1 (plain unaligned stores). Rows of 100 f16 positions
 * (400 bytes) 1.31x with 2 against 1; a row's unit-by-unit tail sharing a
 * line with the next row's non-temporal stores had made them 5x slower than
 * with no streaming at all (dmlcl-bench --variants, PoCL).
 */
#define INTERLEAVE_RUN_MAX 8

/* Positions per work-item chunk, n units each: ~bytes of output, whole vectors. */
int64_t dmli_view_interleave_chunk(const dmli_plan *p, int64_t n, int64_t bytes)
{
    int64_t vn = 16 / (int64_t)p->elem_bytes, per = bytes / ((int64_t)p->elem_bytes * n);
    return per < vn ? vn : per / vn * vn;
}

int dmli_view_interleaves(const dmli_plan *p, bool gpu)
{
    int in = p->rank - 1;
    if (p->kind != DMLI_PLAN_VIEW || gpu || p->rank < 2 || dmli_view_repeats(p) ||
        p->elem_bytes > 8)
        return 0;
    int64_t run = p->size[in], vn = 16 / (int64_t)p->elem_bytes;
    if (run < 2 || run > INTERLEAVE_RUN_MAX || p->out_stride[in] != 1 || p->in_stride[in] == 0 ||
        p->out_stride[in - 1] != run || p->in_stride[in - 1] != 1 || p->size[in - 1] < vn)
        return 0;
    int64_t positions = p->size[in - 1];
    bool tail_in_one_chunk =
        (positions * run) % vn == 0 &&
        dmli_view_interleave_chunk(p, run, dmli_copy_tune(false)->interleave_chunk_bytes) >=
            positions;
    if (p->out_offset % vn != 0 || (positions % vn != 0 && !tail_in_one_chunk))
        return 1;
    for (int d = 0; d + 1 < in; ++d)
        if (p->out_stride[d] % vn != 0)
            return 1;
    return 2;
}

/*
 * STRIDED (cl/view.cl) on a CPU: a run contiguous in the output that reads
 * input stride 2, -1 or -2 (every other element, reversed, or both) of units
 * up to 8 bytes, at least two output lines long. Each output line is built
 * from the 16-byte vectors covering its input span and shuffles, stored
 * whole (non-temporal with STREAM): the compiler's own vectorisation of the
 * plain loop gathered u8 at stride -2 byte by byte (0.14 of the limit).
 * INTERLEAVE (runs of at most 8 units) and TRANSPOSE (|stride| > 4) never
 * meet it; REPEAT and DEINTERLEAVE (a stride-2 run whose other unit an
 * outer dimension reads: every loaded unit used) keep theirs.
 */
bool dmli_view_strided(const dmli_plan *p, bool gpu, const dmli_launch *l)
{
    int in = p->rank - 1;
    if (p->kind != DMLI_PLAN_VIEW || gpu || p->rank < 1 || l->repeat || l->interleave ||
        l->deinterleave || l->transpose || p->elem_bytes > 8 || p->out_stride[in] != 1)
        return false;
    int64_t is = p->in_stride[in];
    return (is == 2 || is == -1 || is == -2) && p->size[in] * (int64_t)p->elem_bytes >= 128;
}

/*
 * DEINTERLEAVE (cl/view.cl) on a CPU, the mirror of INTERLEAVE: the run is
 * contiguous in the output and reads every RUN_N-th input unit (2 to 8), and
 * an outer dimension of RUN_N reads stride 1 (the streams, any output
 * stride): out[w + c * cs] = in[w * RUN_N + c], as space-to-depth and NHWC
 * -> NCHW with a few channels. A work-item loads RUN_N whole 16-byte vectors
 * of one input line and stores one vector to each output stream, instead of
 * reading every RUN_N-th unit (or a tile only RUN_N units tall). Returns the
 * plan dimension of the streams, or -1; *mode is 2 (aligned vector stores,
 * non-temporal with STREAM) where every stream's rows start on a 16-byte
 * boundary and are whole vectors, else 1, as for INTERLEAVE.
 */
int dmli_view_deinterleave_dim(const dmli_plan *p, bool gpu, int *mode)
{
    int in = p->rank - 1;
    *mode = 0;
    if (p->kind != DMLI_PLAN_VIEW || gpu || p->rank < 2 || dmli_view_repeats(p) ||
        p->elem_bytes > 8)
        return -1;
    int64_t n = p->in_stride[in], vn = 16 / (int64_t)p->elem_bytes;
    if (n < 2 || n > INTERLEAVE_RUN_MAX || p->out_stride[in] != 1 || p->size[in] < vn)
        return -1;
    int s = in - 1;
    while (s >= 0 && !(p->in_stride[s] == 1 && p->size[s] == n))
        --s;
    if (s < 0)
        return -1;
    *mode = 2;
    if (p->out_offset % vn != 0 || p->size[in] % vn != 0)
        *mode = 1;
    for (int d = 0; d < in; ++d)
        if (p->out_stride[d] % vn != 0)
            *mode = 1;
    return s;
}

/*
 * DEINTERLEAVE chunks: as large as leaves 16 work-items per compute unit,
 * from 16 KiB to 256 KiB of output. Each chunk restarts RUN_N + 1 memory
 * streams: NHWC -> NCHW u8 C = 3 [64,3,224,224] ran at 0.63x the speed of
 * the general strided row with 16 KiB chunks, 0.86x with 64 KiB, 1.10x with
 * whole 150 KiB rows (dmlcl-ab, PoCL, 2 cores).
 */

int64_t dmli_view_deinterleave_chunk(const dmli_plan *p, const dmli_device_desc *dev, uint64_t rows)
{
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    int64_t n = p->in_stride[p->rank - 1];
    uint64_t bytes = rows * (uint64_t)p->size[p->rank - 1] * (uint64_t)n * p->elem_bytes /
                     (t->deinterleave_items_per_unit * (uint64_t)dev->compute_units);
    if (bytes < t->deinterleave_chunk_min)
        bytes = t->deinterleave_chunk_min;
    if (bytes > t->deinterleave_chunk_max)
        bytes = t->deinterleave_chunk_max;
    return dmli_view_interleave_chunk(p, n, (int64_t)bytes);
}

int dmli_view_deinterleaves(const dmli_plan *p, bool gpu)
{
    int mode;
    dmli_view_deinterleave_dim(p, gpu, &mode);
    return mode;
}
