/* SPDX-License-Identifier: MIT */
/*
 * TRANSPOSE tiles for the copy families (cl/transpose.cl, shared by views and
 * gathers): whether a plan is a layout change moved in tiles, the tiles' side
 * and chunk per device class, the GPUs' work-group tiles (group_*), and the
 * rows an indexed tile walks. Pure host code (launch.h).
 */
#include "launch_copy.h"

/*
 * TRANSPOSE tiles (cl/view.cl): SIDE units along the input-contiguous
 * dimension (one line read per input row), a chunk of the run along the
 * output-contiguous one (whole lines written per output row). Where the
 * run's input rows are far apart (transpose_far_rows), each is a stream of
 * its own, and streams cost read bandwidth: those tiles take one line per
 * output row, half the streams. Sizes and the measurements that set them:
 * tuning.c.
 */

/*
 * GPUs (TRANSPOSE 3, cl/transpose.cl group_tile): a work-group of
 * GROUP_ITEMS items moves GROUP_ROWS tiles through local memory, each
 * CHUNK_MAX units of the run (the power of two that holds it, at most
 * group_chunk, tuning.h) x SIDE units along the input-contiguous dimension (the rest
 * of group_units(), no more than the power of two that holds that
 * dimension), and as many consecutive tiles (at most group_max_rows) as
 * fill group_units(): a warp reads whole input rows and writes whole output
 * rows, and each item has several loads in flight before the barrier.
 * Without it a GPU read each unit of a strided run from its own sector:
 * NCHW -> NHWC f32 on an H200 (NVIDIA's OpenCL) ran at 0.16 of a copy of
 * its bytes, u8 0.04, slower than one work-item per element; one 32 x 32
 * tile a group took them to 0.48 and 0.19 (dmlcl-bench --variants), but
 * depth-to-space block 2 (tiles of 64 x 2) fell from 0.13 to 0.10.
 */
/* GROUP_ITEMS: launch_copy.h. */

/* Units a group moves: 1024, and 4 KiB of narrow units. */
static int64_t group_units(const dmli_plan *p)
{
    int64_t by_bytes = 4096 / (int64_t)p->elem_bytes;
    return by_bytes > 1024 ? by_bytes : 1024;
}

static int64_t pow2_at_least(int64_t v)
{
    int64_t q = 1;
    while (q < v)
        q <<= 1;
    return q;
}

static bool group_packed(const dmli_plan *p);

/* Packed tiles (group_packed) take all of group_units() along the run:
 * their loads are one contiguous span however long the run's chunk is. */
static int group_chunk(const dmli_plan *p)
{
    int64_t run = p->size[p->rank - 1];
    if (group_packed(p)) {
        int64_t most = group_units(p) / pow2_at_least(p->size[p->rank - 2]);
        return (int)(pow2_at_least(run) < most ? pow2_at_least(run) : most);
    }
    int64_t most = dmli_copy_tune(true)->group_chunk;
    return (int)(run >= most ? most : pow2_at_least(run));
}

static int group_side(const dmli_plan *p)
{
    int64_t side = group_units(p) / group_chunk(p), n0 = pow2_at_least(p->size[p->rank - 2]);
    return (int)(n0 < side ? n0 : side);
}

int dmli_tile_group_rows(const dmli_plan *p)
{
    int64_t rows = group_units(p) / ((int64_t)group_side(p) * group_chunk(p));
    int64_t most = dmli_copy_tune(true)->group_max_rows;
    return (int)(rows > most ? most : rows < 1 ? 1 : rows);
}

/*
 * GPUs: a run strided in the input by exactly the size of the dimension next
 * to it, which is contiguous in the input (the two together one contiguous
 * input span): space-to-depth's output rows read every b-th unit, its
 * column-in-block dimension the b units between; NHWC -> NCHW of a few
 * channels. A group tile of SIDE (that dimension) x a chunk of the run
 * filling group_units() (group_chunk) reads the span whole and writes whole
 * rows of the run. A work-item per unit read each unit
 * of such a run on its own (space-to-depth on an H200: 0.04-0.13 of a copy,
 * half the speed of one work-item per element).
 */
static bool group_packed(const dmli_plan *p)
{
    int in = p->rank - 1;
    int64_t is = p->in_stride[in], n0 = p->size[in - 1];
    int64_t chunk = dmli_copy_tune(true)->group_chunk;
    return p->size[in] >= chunk && n0 >= 2 && n0 <= chunk && is == n0;
}

/*
 * GPUs: a view whose run is contiguous in the output and strided in the
 * input, and whose input-contiguous dimension d is not next to the run (a
 * space-to-depth's column-in-block dimension sits above its rows): q is p
 * with d moved next to the run, when that makes it packed (group_packed).
 * The order of the row dimensions is free: it only orders the rows.
 */
bool dmli_tile_group_reorder(const dmli_plan *p, const dmli_device_desc *dev, dmli_plan *q)
{
    int in = p->rank - 1;
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU || p->kind != DMLI_PLAN_VIEW || p->rank < 3 ||
        p->out_stride[in] != 1 || p->in_stride[in - 1] == 1)
        return false;
    for (int d = in - 2; d >= 0; --d) {
        if (p->in_stride[d] != 1)
            continue;
        *q = *p;
        for (int k = d; k < in - 1; ++k) {
            q->size[k] = p->size[k + 1];
            q->out_stride[k] = p->out_stride[k + 1];
            q->in_stride[k] = p->in_stride[k + 1];
            q->idx_stride[k] = p->idx_stride[k + 1];
            q->idx_pos[k] = p->idx_pos[k + 1];
        }
        q->size[in - 1] = p->size[d];
        q->out_stride[in - 1] = p->out_stride[d];
        q->in_stride[in - 1] = p->in_stride[d];
        q->idx_stride[in - 1] = p->idx_stride[d];
        q->idx_pos[in - 1] = p->idx_pos[d];
        return group_packed(q);
    }
    return false;
}

int dmli_tile_side(const dmli_plan *p, int transpose)
{
    return transpose == 3 ? group_side(p)
                          : (int)dmli_copy_tune(false)->transpose_side_bytes / (int)p->elem_bytes;
}

int dmli_tile_chunk(const dmli_plan *p, int transpose)
{
    if (transpose == 3)
        return group_chunk(p);
    int64_t is = p->rank ? p->in_stride[p->rank - 1] * (int64_t)p->elem_bytes : 0;
    const dmli_tuning *t = dmli_copy_tune(false);
    bool far = is >= t->transpose_far_rows || is <= -(int64_t)t->transpose_far_rows;
    return (int)(far ? t->transpose_far_chunk_bytes : t->transpose_chunk_bytes) /
           (int)p->elem_bytes;
}

/*
 * The tiles of a layout change (cl/transpose.cl), from the shape alone: the
 * run is contiguous in the output and far-strided in the input, the next
 * dimension is contiguous in the input and at least a tile. 2 (register
 * blocks) where the run, the output offset and every output stride are whole
 * 16-byte vectors (binding offsets are 16-byte aligned), else 1; 0: no tiles.
 */
static int transpose_tiles(const dmli_plan *p, bool gpu)
{
    int in = p->rank - 1;
    if (gpu && p->rank >= 2 && p->out_stride[in] == 1 && p->in_stride[in - 1] == 1 &&
        group_packed(p))
        return 3;
    if (p->rank < 2 || p->out_stride[in] != 1 ||
        (p->in_stride[in] <= 4 && p->in_stride[in] >= -4) || p->in_stride[in - 1] != 1 ||
        p->size[in - 1] < (gpu ? (int64_t)dmli_copy_tune(true)->group_chunk : dmli_tile_side(p, 1)))
        return 0;
    if (gpu)
        return 3;
    int64_t vn = 16 / (int64_t)p->elem_bytes;
    if (p->size[in] % vn != 0 || p->out_offset % vn != 0)
        return 1;
    for (int d = 0; d < in; ++d)
        if (p->out_stride[d] % vn != 0)
            return 1;
    return 2;
}

/* Work-groups of GROUP_ITEMS, and local memory for the group's tiles:
 * GROUP_ROWS tiles of GROUP_TILE_UNITS (cl/transpose.cl): rows along the
 * longer of SIDE and CHUNK_MAX, padded by 32 / n bank words of 4 bytes (1
 * from n = 32 on) for the shorter side n. */
static bool group_tiles_fit(const dmli_plan *p, const dmli_device_desc *dev)
{
    uint64_t chunk = (uint64_t)group_chunk(p), side = (uint64_t)group_side(p);
    uint64_t major = side >= chunk ? side : chunk, minor = side >= chunk ? chunk : side;
    uint64_t word = p->elem_bytes < 4 ? 4 / (uint64_t)p->elem_bytes : 1;
    uint64_t pad = (minor >= 32 ? 1 : 32 / minor) * word;
    uint64_t units = (uint64_t)dmli_tile_group_rows(p) * minor * (major + pad);
    return dev->max_work_group_size >= GROUP_ITEMS && dev->max_item_sizes[0] >= GROUP_ITEMS &&
           dev->local_mem_size >= units * p->elem_bytes;
}

/* The tiles of a layout change on dev: a work-item's on CPUs, a
 * work-group's of GROUP_ITEMS on GPUs that take them. */
static int device_tiles(const dmli_plan *p, const dmli_device_desc *dev)
{
    int tiles = transpose_tiles(p, dev->device_class == DMLCL_DEVICE_CLASS_GPU);
    return tiles == 3 && !group_tiles_fit(p, dev) ? 0 : tiles;
}

/* A layout change of a view (see cl/view.cl TRANSPOSE). */
int dmli_view_transposes(const dmli_plan *p, const dmli_device_desc *dev)
{
    if (p->kind != DMLI_PLAN_VIEW || dmli_view_repeats(p))
        return 0;
    return device_tiles(p, dev);
}

/*
 * A gather whose inner dimensions are a layout change (cl/indexed.cl
 * TRANSPOSE): the same tiles as view_transposes, and neither tile dimension
 * moves the indices, so a tile resolves one index tuple. Not the element
 * walk of an ERROR check with nothing to write.
 */
int dmli_indexed_tiles(const dmli_plan *p)
{
    int in = p->rank - 1;
    if (p->kind != DMLI_PLAN_INDEXED || p->check_only || p->rank < 2 || p->idx_stride[in] != 0 ||
        p->idx_stride[in - 1] != 0)
        return 0;
    return transpose_tiles(p, false);
}

/* The tiles of a gather of a layout change on dev (as view_transposes). */
int dmli_indexed_transposes(const dmli_plan *p, const dmli_device_desc *dev)
{
    return dmli_indexed_tiles(p) ? device_tiles(p, dev) : 0;
}

/*
 * TRANSPOSE of an indexed plan: rows are tiles of dims[0] (its index strides
 * are 0); its real size and output stride follow the rows as one more
 * dimension, {size, os, 1, 0, 0}. Returns the longs appended.
 */
size_t dmli_tile_indexed_rows(const dmli_plan *p, dmli_launch *l, cl_long *dims, int outer)
{
    cl_long n0 = dims[0], side = dmli_tile_side(p, l->transpose), tiles = (n0 + side - 1) / side;
    cl_long *real = dims + DMLI_INDEXED_DIM * outer;
    for (int k = 0; k < DMLI_INDEXED_DIM; ++k)
        real[k] = k == 0 ? n0 : k == 1 ? dims[1] : k == 2 ? 1 : 0;
    dims[0] = tiles;
    for (int k = 1; k < DMLI_INDEXED_DIM; ++k)
        dims[k] *= side;
    l->rows = l->rows / (uint64_t)n0 * (uint64_t)tiles;
    return DMLI_INDEXED_DIM;
}
