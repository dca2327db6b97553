/* SPDX-License-Identifier: MIT */
/*
 * The launch layer: variant choice, launch geometry and the shape buffer of
 * a plan on a device description (see launch.h). Pure host code.
 *
 * Class rules: GPUs get lanes (a warp interleaves a run, a work-group holds
 * 256 items), layout changes of views by work-group tiles in local memory
 * (TRANSPOSE 3), and none of the CPU variants (SERIAL, STREAM, TRANSPOSE 1
 * and 2, INTERLEAVE, DEINTERLEAVE, RUN_ONE rely on one work-item walking its
 * chunk alone through the caches). CPUs and accelerators get one lane, long chunks
 * and rows grouped per item: the OpenCL accelerators dmlcl knows (DSPs,
 * PoCL's custom devices) run work-items serially like a CPU.
 */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "tuning.h"

/* The tuning table (tuning.h) of a GPU or of a CPU. */
static const dmli_tuning *tune(bool gpu)
{
    return dmli_tuning_for(gpu ? DMLCL_DEVICE_CLASS_GPU : DMLCL_DEVICE_CLASS_CPU);
}

static const char *unit_type(uint32_t unit)
{
    switch (unit) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    default: return "uint4";
    }
}

/* The 16-byte vector of units (cl/view.cl TRANSPOSE 2). */
static const char *vector_type(uint32_t unit)
{
    switch (unit) {
    case 1: return "uchar16";
    case 2: return "ushort8";
    case 4: return "uint4";
    case 8: return "ulong2";
    default: return "uint4";
    }
}

static const char *index_type(dmli_index_type t)
{
    switch (t) {
    case DMLI_INDEX_UINT32: return "uint";
    case DMLI_INDEX_INT64: return "long";
    case DMLI_INDEX_UINT64: return "ulong";
    case DMLI_INDEX_INT8: return "char";
    case DMLI_INDEX_UINT8: return "uchar";
    case DMLI_INDEX_INT16: return "short";
    case DMLI_INDEX_UINT16: return "ushort";
    default: return "int";
    }
}

bool dmli_index_type_signed(dmli_index_type t)
{
    return t == DMLI_INDEX_INT32 || t == DMLI_INDEX_INT64 || t == DMLI_INDEX_INT8 ||
           t == DMLI_INDEX_INT16;
}

/* A VIEW plan whose outer dimensions include input stride 0: REPEAT (see cl/view.cl). */
static bool view_repeats(const dmli_plan *p)
{
    for (int d = 0; p->kind == DMLI_PLAN_VIEW && d + 1 < p->rank; ++d)
        if (p->in_stride[d] == 0)
            return true;
    return false;
}

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
#define GROUP_ITEMS 256

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
    int64_t most = tune(true)->group_chunk;
    return (int)(run >= most ? most : pow2_at_least(run));
}

static int group_side(const dmli_plan *p)
{
    int64_t side = group_units(p) / group_chunk(p), n0 = pow2_at_least(p->size[p->rank - 2]);
    return (int)(n0 < side ? n0 : side);
}

static int group_rows(const dmli_plan *p)
{
    int64_t rows = group_units(p) / ((int64_t)group_side(p) * group_chunk(p));
    int64_t most = tune(true)->group_max_rows;
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
    int64_t chunk = tune(true)->group_chunk;
    return p->size[in] >= chunk && n0 >= 2 && n0 <= chunk && is == n0;
}

/*
 * GPUs: a view whose run is contiguous in the output and strided in the
 * input, and whose input-contiguous dimension d is not next to the run (a
 * space-to-depth's column-in-block dimension sits above its rows): q is p
 * with d moved next to the run, when that makes it packed (group_packed).
 * The order of the row dimensions is free: it only orders the rows.
 */
static bool group_reorder(const dmli_plan *p, const dmli_device_desc *dev, dmli_plan *q)
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

static int transpose_side(const dmli_plan *p, int transpose)
{
    return transpose == 3 ? group_side(p)
                          : (int)tune(false)->transpose_side_bytes / (int)p->elem_bytes;
}

static int transpose_chunk(const dmli_plan *p, int transpose)
{
    if (transpose == 3)
        return group_chunk(p);
    int64_t is = p->rank ? p->in_stride[p->rank - 1] * (int64_t)p->elem_bytes : 0;
    const dmli_tuning *t = tune(false);
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
        p->size[in - 1] < (gpu ? (int64_t)tune(true)->group_chunk : transpose_side(p, 1)))
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
 * GROUP_ROWS x CHUNK_MAX x GROUP_STRIDE units (cl/transpose.cl). */
static bool group_tiles_fit(const dmli_plan *p, const dmli_device_desc *dev)
{
    uint64_t chunk = (uint64_t)group_chunk(p), pad = chunk >= 32 ? 1 : 32 / chunk;
    uint64_t units = (uint64_t)group_rows(p) * chunk * ((uint64_t)group_side(p) + pad);
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
static int view_transposes(const dmli_plan *p, const dmli_device_desc *dev)
{
    if (p->kind != DMLI_PLAN_VIEW || view_repeats(p))
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
static int indexed_transposes(const dmli_plan *p, const dmli_device_desc *dev)
{
    return dmli_indexed_tiles(p) ? device_tiles(p, dev) : 0;
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
static int64_t interleave_chunk(const dmli_plan *p, int64_t n, int64_t bytes)
{
    int64_t vn = 16 / (int64_t)p->elem_bytes, per = bytes / ((int64_t)p->elem_bytes * n);
    return per < vn ? vn : per / vn * vn;
}

static int view_interleaves(const dmli_plan *p, bool gpu)
{
    int in = p->rank - 1;
    if (p->kind != DMLI_PLAN_VIEW || gpu || p->rank < 2 || view_repeats(p) || p->elem_bytes > 8)
        return 0;
    int64_t run = p->size[in], vn = 16 / (int64_t)p->elem_bytes;
    if (run < 2 || run > INTERLEAVE_RUN_MAX || p->out_stride[in] != 1 || p->in_stride[in] == 0 ||
        p->out_stride[in - 1] != run || p->in_stride[in - 1] != 1 || p->size[in - 1] < vn)
        return 0;
    int64_t positions = p->size[in - 1];
    bool tail_in_one_chunk =
        (positions * run) % vn == 0 &&
        interleave_chunk(p, run, tune(false)->interleave_chunk_bytes) >= positions;
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
static bool view_strided(const dmli_plan *p, bool gpu, const dmli_launch *l)
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
static int view_deinterleave_dim(const dmli_plan *p, bool gpu, int *mode)
{
    int in = p->rank - 1;
    *mode = 0;
    if (p->kind != DMLI_PLAN_VIEW || gpu || p->rank < 2 || view_repeats(p) || p->elem_bytes > 8)
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

static int64_t deinterleave_chunk(const dmli_plan *p, const dmli_device_desc *dev, uint64_t rows)
{
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    int64_t n = p->in_stride[p->rank - 1];
    uint64_t bytes = rows * (uint64_t)p->size[p->rank - 1] * (uint64_t)n * p->elem_bytes /
                     (t->deinterleave_items_per_unit * (uint64_t)dev->compute_units);
    if (bytes < t->deinterleave_chunk_min)
        bytes = t->deinterleave_chunk_min;
    if (bytes > t->deinterleave_chunk_max)
        bytes = t->deinterleave_chunk_max;
    return interleave_chunk(p, n, (int64_t)bytes);
}

static int view_deinterleaves(const dmli_plan *p, bool gpu)
{
    int mode;
    view_deinterleave_dim(p, gpu, &mode);
    return mode;
}

/*
 * Non-temporal stores pay off on CPUs when the output would not stay in the
 * caches and is only written (measured on PoCL: ~1.4x on a 120 MB copy):
 * plain stores first read each output line for ownership. From a quarter of
 * the device's cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) on, as glibc's memcpy
 * switches to non-temporal stores at about a quarter of the L3 (the cache is
 * shared with the input, the other cores and, in a VM, other tenants). On the
 * 2-core EPYC (32 MiB): a broadcast filling 8 MiB 1.4x (plain stores better
 * at 2-4 MiB), the NCHW <-> NHWC of 3 and 4 u8 channels (9.6 MB) 1.2-1.6x,
 * no workload slower (dmlcl-ab --variants, dmlcl-bench-chains; half the
 * cache before). Transposes stream from a sixteenth (streams() below): their
 * tiles write lines of many output rows at once, whose reads for ownership
 * the hardware prefetchers do not cover: the layout chain (NCHW -> NHWC,
 * slice, gather) of 1.5-6 MiB 1.0-1.5x, the same nodes dispatched one by one
 * (each reading the one before's output) faster too. Smaller outputs keep
 * plain stores, so a consumer finds them in the cache.
 */

bool dmli_launch_streams(const dmli_device_desc *dev, uint64_t out_bytes)
{
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    uint64_t cache = dev->cache_size ? dev->cache_size : t->stream_default_cache;
    return dev->device_class != DMLCL_DEVICE_CLASS_GPU &&
           t->stream_cache_divisor * out_bytes >= cache;
}

/* Non-temporal stores for plan p: transposes (TRANSPOSE tiles) from a
 * sixteenth of the cache, everything else from a quarter (above). */
static bool streams(const dmli_plan *p, const dmli_device_desc *dev, bool transposes)
{
    uint64_t elements = 1;
    for (int d = 0; d < p->rank; ++d)
        elements *= (uint64_t)p->size[d];
    uint64_t bytes = elements * p->elem_bytes;
    return dmli_launch_streams(
        dev,
        transposes ? dmli_tuning_for(dev->device_class)->stream_transpose_factor * bytes : bytes);
}

/*
 * One-unit rows gathered on a CPU (RUN_ONE) are random reads that miss the
 * caches (and the TLB): the kernel prefetches the row this many rows ahead
 * (cl/indexed.cl PREFETCH), past its item's end into the next item's rows,
 * so that many misses are in flight. 256 against 16 (with the prefetches
 * that crossed no item end): 2-3x on rows of 8 and 16 bytes (dmlcl-ab,
 * PoCL); 64 and 128 between, 512 and 1024 no better.
 */

/*
 * TRANSPOSE tiles read one line from each of a chunk of far-apart input rows
 * (one stream per run unit, too many for the hardware prefetcher): each tile
 * prefetches the same rows' lines this many tiles ahead along the line (the
 * last tile of the line at most, inside the input), where the device's
 * compiler takes __builtin_prefetch. 2: 1.3-2.5x on NCHW<->NHWC and a matrix
 * transpose (dmlcl-ab, PoCL); 1 no different, 3 and 4 no better.
 */

/*
 * Inner-axis gathers whose gathered axis is contiguous and at most 64 KiB
 * (SHARED_INDEX): each row's elements are read in random order, so the next
 * row's span is prefetched in line order while a row is gathered.
 */

/*
 * Contiguous rows gathered at random (any policy), at most 4 pages (16 KiB)
 * each: the chunk of a row row_ahead_bytes of rows on (1 to 16 rows) is
 * prefetched while a row moves (cl/indexed.cl ROW_INDEX), also across item
 * ends, so the page walks and misses of a few rows overlap. Against the
 * next row only, CLAMP only and none over a page (dmlcl-ab, PoCL): 1.1-1.45x
 * on rows of 512 B to 4 KiB, 1.16x on 16 KiB rows; 8 KiB ahead measured the
 * same, 4 KiB rows 4 ahead the same as 8.
 */

static int prefetch(const dmli_plan *p, const dmli_device_desc *dev, const dmli_launch *l)
{
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    if (!dev->prefetch || p->kind != DMLI_PLAN_INDEXED)
        return 0;
    if (l->run_one)
        return (int)t->row_prefetch;
    if (l->shared_index && l->serial && p->components == 1 && p->axis_stride[0] == 1 &&
        p->in_stride[p->rank - 1] == 0 &&
        p->axis_size[0] * (int64_t)p->elem_bytes <= t->span_prefetch_max)
        return 1;
    int in = p->rank - 1;
    if (l->serial && p->rank > 0 && p->idx_stride[in] == 0 && p->in_stride[in] == 1 &&
        p->out_stride[in] == 1 && p->size[in] * (int64_t)p->elem_bytes <= t->row_prefetch_max &&
        !p->check_only) {
        int64_t ahead = t->row_ahead_bytes / (p->size[in] * (int64_t)p->elem_bytes);
        int64_t most = t->row_ahead_max;
        return ahead < 1 ? 1 : ahead > most ? (int)most : (int)ahead;
    }
    return 0;
}

/*
 * SHARED_INDEX keeps a block's resolved offsets as 32-bit ints (CACHE_T)
 * where every offset fits (at most sum_k (axis size - 1) x |axis stride|)
 * and units are 4 bytes or more: the compiler then gathers 8 units per
 * instruction from 32-bit indices instead of 4 from 64-bit ones (AVX-512
 * vpgatherdd against vpgatherqd; 1.3-1.4x on the inner-axis gather, PoCL).
 * Narrower units are assembled lane by lane either way, and measured no
 * faster with ints.
 */
static bool cache_ints(const dmli_plan *p)
{
    if (p->elem_bytes < 4)
        return false;
    int64_t most = 0;
    for (int k = 0; k < p->components; ++k) {
        int64_t s = p->axis_stride[k] < 0 ? -p->axis_stride[k] : p->axis_stride[k],
                n = p->axis_size[k] - 1;
        if (n > 0 && s > (INT32_MAX - most) / n)
            return false;
        most += n > 0 ? n * s : 0;
    }
    return most <= INT32_MAX;
}

/* An element-indexed run whose indices no outer dimension moves (cl/indexed.cl). */
static bool shares_index(const dmli_plan *p)
{
    if (p->kind != DMLI_PLAN_INDEXED || p->rank < 2 || p->idx_stride[p->rank - 1] == 0 ||
        p->check_only)
        return false;
    for (int d = 0; d + 1 < p->rank; ++d)
        if (p->idx_stride[d] != 0)
            return false;
    return true;
}

static void decide(const dmli_plan *p, const dmli_device_desc *dev, dmli_launch *l)
{
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    bool indexed = p->kind == DMLI_PLAN_INDEXED;
    l->source = indexed ? DMLI_SOURCE_INDEXED : DMLI_SOURCE_VIEW;
    l->kernel = indexed ? "indexed_copy" : "view_copy";
    l->unit = p->elem_bytes;
    l->serial = !gpu;
    l->interleave = view_interleaves(p, gpu);
    l->deinterleave = l->interleave ? 0 : view_deinterleaves(p, gpu);
    l->transpose = indexed                            ? indexed_transposes(p, dev)
                   : l->interleave || l->deinterleave ? 0
                                                      : view_transposes(p, dev);
    l->stream = streams(p, dev, l->transpose != 0);
    l->repeat = view_repeats(p);
    l->strided = view_strided(p, gpu, l);
    /* GPUs resolve each pick: a work-item's private cache of 256 resolved
     * offsets spills out of registers, and the rows' shared indices stay in
     * the GPU's caches anyway (inner-axis gathers on an H200 ran at 0.7 of
     * one work-item per element with it). */
    l->shared_index = !gpu && shares_index(p);
    l->run_one = indexed && !gpu && !l->transpose && (p->rank == 0 || p->size[p->rank - 1] == 1);
    if (indexed)
        l->args = (dmli_launch_args){
            .out = DMLI_INDEXED_ARG_OUT,
            .out_base = DMLI_INDEXED_ARG_OUT_BASE,
            .in = DMLI_INDEXED_ARG_IN,
            .in_base = DMLI_INDEXED_ARG_IN_BASE,
            .idx = DMLI_INDEXED_ARG_IDX,
            .idx_base = DMLI_INDEXED_ARG_IDX_BASE,
            .status = DMLI_INDEXED_ARG_STATUS,
            .shape = DMLI_INDEXED_ARG_SHAPE,
            .count = DMLI_INDEXED_ARG_COUNT,
        };
    else
        l->args = (dmli_launch_args){
            .out = DMLI_VIEW_ARG_OUT,
            .out_base = DMLI_VIEW_ARG_OUT_BASE,
            .in = DMLI_VIEW_ARG_IN,
            .in_base = DMLI_VIEW_ARG_IN_BASE,
            .idx = -1,
            .idx_base = -1,
            .status = -1,
            .shape = DMLI_VIEW_ARG_SHAPE,
            .count = DMLI_VIEW_ARG_COUNT,
        };
}

/* The build options: the decisions above and the plan's code-generation facts. */
static void options(const dmli_plan *p, const dmli_launch *l, char *buf, size_t len)
{
    int in = p->rank - 1;
    bool fast = p->rank > 0 && p->out_stride[in] == 1 && p->in_stride[in] == 1;
    bool out_unit = p->rank > 0 && p->out_stride[in] == 1;
    int n = snprintf(buf, len,
                     "-cl-std=CL1.2 -DUNIT_T=%s -DFAST=%d -DOUT_UNIT=%d -DSERIAL=%d -DSTREAM=%d",
                     unit_type(p->elem_bytes), fast, out_unit, l->serial, l->stream);
    if (p->rank > 0 && !fast && p->in_stride[in] >= -4 && p->in_stride[in] <= 4)
        n += snprintf(buf + n, len - (size_t)n, " -DRUN_IS_K=%d", (int)p->in_stride[in]);
    if (p->kind == DMLI_PLAN_INDEXED && p->rank > 0 && p->idx_stride[in] >= -4 &&
        p->idx_stride[in] <= 4)
        n += snprintf(buf + n, len - (size_t)n, " -DRUN_XS_K=%d", (int)p->idx_stride[in]);
    if (p->kind == DMLI_PLAN_INDEXED) {
        bool row = p->rank == 0 || p->idx_stride[in] == 0;
        n += snprintf(buf + n, len - (size_t)n, " -DSHARED_INDEX=%d -DRUN_ONE=%d -DROWS_1D=%d",
                      l->shared_index, l->run_one, p->rank == 2);
        if (l->shared_index && cache_ints(p))
            n += snprintf(buf + n, len - (size_t)n, " -DCACHE_T=int");
        if (l->transpose)
            n += snprintf(buf + n, len - (size_t)n, " -DTRANSPOSE=%d -DSIDE=%d -DCHUNK_MAX=%d",
                          l->transpose, transpose_side(p, l->transpose),
                          transpose_chunk(p, l->transpose));
        if (l->transpose == 2)
            n += snprintf(buf + n, len - (size_t)n, " -DVN=%u -DVEC_T=%s -DVLOAD=vload%u",
                          16 / p->elem_bytes, vector_type(p->elem_bytes), 16 / p->elem_bytes);
        if (l->transpose && l->tile_prefetch)
            n += snprintf(buf + n, len - (size_t)n, " -DTILE_PREFETCH=%d", l->tile_prefetch);
        if (l->transpose == 3)
            n += snprintf(buf + n, len - (size_t)n, " -DGROUP_ROWS=%d", group_rows(p));
        snprintf(buf + n, len - (size_t)n,
                 " -DIDX_T=%s -DIDX_SIGNED=%d -DWRAP=%d -DPOLICY=%d "
                 "-DROW_INDEX=%d -DCHECK_ONLY=%d -DNCOMP=%d -DPREFETCH=%d",
                 index_type(p->idx_type), dmli_index_type_signed(p->idx_type), p->wrap_negative,
                 (int)p->policy, row, p->check_only, p->components, l->prefetch);
        return;
    }
    bool splat = p->rank > 0 && p->in_stride[in] == 0;
    if (l->transpose && l->tile_prefetch)
        n += snprintf(buf + n, len - (size_t)n, " -DTILE_PREFETCH=%d", l->tile_prefetch);
    n += snprintf(buf + n, len - (size_t)n,
                  " -DSPLAT=%d -DREPEAT=%d -DTRANSPOSE=%d -DSIDE=%d -DCHUNK_MAX=%d", splat,
                  l->repeat, l->transpose, transpose_side(p, l->transpose),
                  transpose_chunk(p, l->transpose));
    if (l->transpose == 3)
        n += snprintf(buf + n, len - (size_t)n, " -DGROUP_ROWS=%d", group_rows(p));
    if (l->transpose == 2)
        n += snprintf(buf + n, len - (size_t)n, " -DVN=%u -DVEC_T=%s -DVLOAD=vload%u",
                      16 / p->elem_bytes, vector_type(p->elem_bytes), 16 / p->elem_bytes);
    if (l->interleave)
        n += snprintf(buf + n, len - (size_t)n,
                      " -DINTERLEAVE=%d -DRUN_N=%d -DVN=%u -DVEC_T=%s -DVLOAD=vload%u "
                      "-DVSTORE=vstore%u",
                      l->interleave, (int)p->size[in], 16 / p->elem_bytes,
                      vector_type(p->elem_bytes), 16 / p->elem_bytes, 16 / p->elem_bytes);
    if (l->deinterleave)
        n += snprintf(buf + n, len - (size_t)n,
                      " -DDEINTERLEAVE=%d -DRUN_N=%d -DVN=%u -DVEC_T=%s -DVLOAD=vload%u "
                      "-DVSTORE=vstore%u",
                      l->deinterleave, (int)p->in_stride[in], 16 / p->elem_bytes,
                      vector_type(p->elem_bytes), 16 / p->elem_bytes, 16 / p->elem_bytes);
    if (l->strided)
        snprintf(buf + n, len - (size_t)n, " -DSTRIDED=1 -DSV_N=%u", 64 / p->elem_bytes);
}

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

/* Work-items per group along dimension 2, within every limit of the device. */
static size_t group_items(const dmli_device_desc *dev, bool gpu, size_t lanes, uint64_t rows,
                          uint64_t items)
{
    size_t per_group = gpu ? 256 / lanes : 64;
    uint64_t groups_wanted = 4 * (uint64_t)dev->compute_units;
    if (!gpu && items / per_group < groups_wanted)
        per_group = (size_t)(items / groups_wanted > 0 ? items / groups_wanted : 1);
    if (per_group > rows)
        per_group = (size_t)rows;
    size_t max_group = dev->max_work_group_size / lanes;
    if (per_group > max_group)
        per_group = max_group;
    if (per_group > dev->max_item_sizes[2])
        per_group = dev->max_item_sizes[2];
    return per_group < 1 ? 1 : per_group;
}

/*
 * CPUs: a work-group of a row split into chunks holds up to chunk_span
 * consecutive chunks of that row, not one chunk of many rows. PoCL runs a
 * group's items one after another on one core, so the core streams one
 * contiguous stretch instead of restarting in a new row every chunk: the
 * row slice [64,3,512,512] -> [:, :, 100:-100, :] (39 chunks of 16 KiB per
 * row) ran 1.7-1.96x faster (dmlcl-ab, PoCL, 2 cores). The span leaves 4 groups
 * per compute unit and rounds the chunks up the least (12 chunks: spans of
 * 6); the kernels skip chunk ids past the run.
 */

static size_t chunk_span(const dmli_device_desc *dev, bool gpu, uint64_t rows, uint64_t chunks)
{
    if (gpu || chunks < 2)
        return 1;
    uint64_t span = dmli_tuning_for(dev->device_class)->chunk_span;
    uint64_t by_count = rows * chunks / (4 * (uint64_t)dev->compute_units);
    if (span > by_count)
        span = by_count;
    if (span > chunks)
        span = chunks;
    if (span > dev->max_item_sizes[1])
        span = dev->max_item_sizes[1];
    if (span > dev->max_work_group_size)
        span = dev->max_work_group_size;
    /* The least rounding from span / 2 up to span (the larger on ties). */
    uint64_t best = span;
    for (uint64_t s = span; s > 1 && 2 * s >= span; --s)
        if (round_up((size_t)chunks, (size_t)s) < round_up((size_t)chunks, (size_t)best))
            best = s;
    return best < 1 ? 1 : (size_t)best;
}

/*
 * Work-item geometry: (lane, chunk, item); see cl/view.cl. An item is a row,
 * or with repeats (reps > 1) a row and a group of reps_per_item repeats:
 * enough groups to fill the device, each as large as that allows.
 */
static void geometry(const dmli_plan *p, const dmli_device_desc *dev, dmli_launch *l)
{
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    int64_t run = p->rank ? p->size[p->rank - 1] : 1;
    /* INTERLEAVE: chunks split the interleaved dimension; a position is a run. */
    int64_t per_position = 1;
    if (l->interleave) {
        per_position = run;
        run = p->size[p->rank - 2];
    }
    /* DEINTERLEAVE: chunks split the run; a position is one unit per stream. */
    if (l->deinterleave)
        per_position = p->in_stride[p->rank - 1];
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    size_t lanes = 1;
    if (gpu)
        while (lanes < t->gpu_lanes && (int64_t)lanes < run)
            lanes <<= 1;
    if (lanes > dev->max_item_sizes[0])
        lanes = dev->max_item_sizes[0];
    if (lanes > dev->max_work_group_size)
        lanes = dev->max_work_group_size;
    int64_t chunk = gpu ? (int64_t)lanes * t->gpu_chunk_per_lane
                        : (int64_t)(t->cpu_chunk_bytes / p->elem_bytes);
    if (l->transpose)
        chunk = transpose_chunk(p, l->transpose);
    if (l->interleave)
        chunk = interleave_chunk(p, per_position, t->interleave_chunk_bytes);
    if (l->deinterleave)
        chunk = deinterleave_chunk(p, dev, l->rows);
    if (chunk > run)
        chunk = run;
    uint64_t chunks = (uint64_t)((run + chunk - 1) / chunk);
    uint64_t want = (gpu ? 256 : 64) * (uint64_t)dev->compute_units, base = l->rows * chunks;
    uint64_t reps = l->reps;
    uint64_t rep_groups = reps > 1 && base < want ? (want + base - 1) / base : 1;
    if (rep_groups > reps)
        rep_groups = reps;
    l->reps_per_item = (reps + rep_groups - 1) / rep_groups;
    uint64_t rows = l->rows * ((reps + l->reps_per_item - 1) / l->reps_per_item);
    /* CPUs: short runs are grouped so a work-item moves ~16 KiB, while
     * leaving 16 items per compute unit. Repeats already group work. */
    l->rows_per_item = 1;
    if (l->transpose) {
        /* Tiles per item: 4 (~8 KiB of floats), leaving 16 items per compute unit. */
        uint64_t by_count = rows * chunks / (16 * (uint64_t)dev->compute_units);
        l->rows_per_item = by_count < 4 ? (by_count ? by_count : 1) : 4;
    } else if (!gpu && reps == 1 && chunks == 1) {
        uint64_t by_size = (uint64_t)(16384 / p->elem_bytes) / (uint64_t)(run * per_position);
        uint64_t by_count = rows / (16 * (uint64_t)dev->compute_units);
        /* Shared indices: enough rows to repay resolving them once. */
        if (l->shared_index && by_size < 16)
            by_size = 16;
        l->rows_per_item = by_size < by_count ? by_size : by_count;
        if (l->rows_per_item < 1)
            l->rows_per_item = 1;
    }
    rows = (rows + l->rows_per_item - 1) / l->rows_per_item;
    size_t per_group = group_items(dev, gpu, lanes, rows, rows * chunks);
    size_t span = l->transpose ? 1 : chunk_span(dev, gpu, rows, chunks);
    if (span > 1)
        per_group = per_group / span ? per_group / span : 1;
    l->local[0] = lanes;
    l->local[1] = span;
    l->local[2] = per_group;
    l->global[0] = lanes;
    l->global[1] = round_up((size_t)chunks, span);
    l->global[2] = round_up((size_t)rows, per_group);
    l->chunk = chunk;
    if (l->transpose == 3) {
        /* A work-group per group_rows() tiles: the tile rows along dimension
         * 0 (the largest grid dimension on every GPU), the run's chunks along 2. */
        l->rows_per_item = 1;
        l->local[0] = GROUP_ITEMS;
        l->local[1] = 1;
        l->local[2] = 1;
        size_t per = (size_t)group_rows(p);
        l->global[0] = GROUP_ITEMS * (((size_t)l->rows + per - 1) / per);
        l->global[1] = 1;
        l->global[2] = (size_t)chunks;
    }
}

/*
 * TRANSPOSE of an indexed plan: rows are tiles of dims[0] (its index strides
 * are 0); its real size and output stride follow the rows as one more
 * dimension, {size, os, 1, 0, 0}. Returns the longs appended.
 */
static size_t tile_indexed_rows(const dmli_plan *p, dmli_launch *l, cl_long *dims, int outer)
{
    cl_long n0 = dims[0], side = transpose_side(p, l->transpose), tiles = (n0 + side - 1) / side;
    cl_long *real = dims + DMLI_INDEXED_DIM * outer;
    for (int k = 0; k < DMLI_INDEXED_DIM; ++k)
        real[k] = k == 0 ? n0 : k == 1 ? dims[1] : k == 2 ? 1 : 0;
    dims[0] = tiles;
    for (int k = 1; k < DMLI_INDEXED_DIM; ++k)
        dims[k] *= side;
    l->rows = l->rows / (uint64_t)n0 * (uint64_t)tiles;
    return DMLI_INDEXED_DIM;
}

static cl_long magnitude(cl_long v)
{
    return v < 0 ? -v : v;
}

/*
 * DEINTERLEAVE rows walk the input in memory order (a stable sort, innermost
 * first, by increasing input stride): consecutive rows read adjacent input
 * lines, as INTERLEAVE's write adjacent output lines. In the plan's output
 * order, space-to-depth's rows read every other input row (the block's rows
 * are an outer dimension), and the lines between were fetched by the
 * prefetcher too: input order ran block 2 f32 2.5x and block 3 2.3x as fast
 * (dmlcl-ab, PoCL), with RUN_N x block contiguous output streams.
 */
static void rows_in_input_order(cl_long *dims, int rank)
{
    for (int d = 1; d < rank; ++d) {
        cl_long v[DMLI_VIEW_DIM];
        memcpy(v, dims + DMLI_VIEW_DIM * d, sizeof v);
        int j = d;
        for (; j > 0 && magnitude(dims[DMLI_VIEW_DIM * (j - 1) + 2]) > magnitude(v[2]); --j)
            memcpy(dims + DMLI_VIEW_DIM * j, dims + DMLI_VIEW_DIM * (j - 1), sizeof v);
        memcpy(dims + DMLI_VIEW_DIM * j, v, sizeof v);
    }
}

/*
 * The dims after the header: rows, then (REPEAT) the repeats, innermost
 * first; TRANSPOSE tiles the innermost row and appends its real extent
 * (tile_indexed_rows for INDEXED); INDEXED appends the index components.
 * Sets rows and reps; returns the number of longs written.
 */
static size_t fill_dims(const dmli_plan *p, dmli_launch *l, cl_long *dims, int *row_rank)
{
    bool indexed = p->kind == DMLI_PLAN_INDEXED;
    int per = indexed ? DMLI_INDEXED_DIM : DMLI_VIEW_DIM, outer = p->rank > 0 ? p->rank - 1 : 0;
    int j = 0;
    l->rows = 1;
    l->reps = 1;
    *row_rank = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int d = outer - 1; d >= 0; --d) {
            bool rep = l->repeat && p->in_stride[d] == 0;
            if (rep != (pass == 1))
                continue;
            cl_long v[DMLI_INDEXED_DIM] = {p->size[d], p->out_stride[d], p->in_stride[d],
                                           p->idx_stride[d], p->idx_pos[d]};
            memcpy(dims + per * j++, v, (size_t)per * sizeof(cl_long));
            *(rep ? &l->reps : &l->rows) *= (uint64_t)p->size[d];
            *row_rank += !rep;
        }
    size_t count = (size_t)(per * outer);
    if (l->transpose && indexed) {
        count += tile_indexed_rows(p, l, dims, outer);
    } else if (l->transpose) {
        /* Rows are tiles of dims[0]; its real size and output stride follow. */
        cl_long n0 = dims[0], side = transpose_side(p, l->transpose),
                tiles = (n0 + side - 1) / side;
        cl_long *real = dims + DMLI_VIEW_DIM * outer;
        real[0] = n0;
        real[1] = dims[1];
        real[2] = 1;
        dims[0] = tiles;
        dims[1] *= side;
        dims[2] = side;
        l->rows = l->rows / (uint64_t)n0 * (uint64_t)tiles;
        count += DMLI_VIEW_DIM;
    } else if (l->interleave) {
        /* The interleaved dimension (dims[0]) is no row: it moves after the rows. */
        cl_long w[DMLI_VIEW_DIM];
        memcpy(w, dims, sizeof w);
        memmove(dims, dims + DMLI_VIEW_DIM, (count - DMLI_VIEW_DIM) * sizeof *dims);
        memcpy(dims + count - DMLI_VIEW_DIM, w, sizeof w);
        l->rows /= (uint64_t)w[0];
        *row_rank -= 1;
    } else if (l->deinterleave) {
        /* The streams' dimension is no row: it moves after the rows. */
        int mode, s = view_deinterleave_dim(p, false, &mode);
        cl_long *at = dims + DMLI_VIEW_DIM * (outer - 1 - s), c[DMLI_VIEW_DIM];
        memcpy(c, at, sizeof c);
        memmove(at, at + DMLI_VIEW_DIM, (size_t)(dims + count - DMLI_VIEW_DIM - at) * sizeof *dims);
        memcpy(dims + count - DMLI_VIEW_DIM, c, sizeof c);
        l->rows /= (uint64_t)c[0];
        *row_rank -= 1;
        rows_in_input_order(dims, *row_rank);
    }
    for (int i = 0; indexed && i < p->components; ++i) {
        dims[count++] = p->axis_size[i];
        dims[count++] = p->axis_stride[i];
    }
    return count;
}

static void fill_header(const dmli_plan *p, const dmli_launch *l, int row_rank, cl_long *h)
{
    int in = p->rank - 1, outer = p->rank > 0 ? p->rank - 1 : 0;
    cl_long run = p->rank ? p->size[in] : 1, run_os = p->rank ? p->out_stride[in] : 0,
            run_is = p->rank ? p->in_stride[in] : 0;
    if (p->kind == DMLI_PLAN_INDEXED) {
        h[DMLI_INDEXED_OUTER_RANK] = row_rank;
        h[DMLI_INDEXED_COMP_STRIDE] = p->comp_idx_stride;
        h[DMLI_INDEXED_COMP_POS] = p->comp_pos_stride;
        h[DMLI_INDEXED_RUN] = run;
        h[DMLI_INDEXED_RUN_OS] = run_os;
        h[DMLI_INDEXED_RUN_IS] = run_is;
        h[DMLI_INDEXED_RUN_XS] = p->rank ? p->idx_stride[in] : 0;
        h[DMLI_INDEXED_RUN_PS] = p->rank ? p->idx_pos[in] : 0;
        h[DMLI_INDEXED_CHUNK] = l->chunk;
        h[DMLI_INDEXED_ROWS] = (cl_long)l->rows;
        h[DMLI_INDEXED_ROWS_PER_ITEM] = (cl_long)l->rows_per_item;
        return;
    }
    h[DMLI_VIEW_OUTER_RANK] = row_rank;
    h[DMLI_VIEW_RUN] = run;
    h[DMLI_VIEW_RUN_OS] = run_os;
    h[DMLI_VIEW_RUN_IS] = run_is;
    h[DMLI_VIEW_CHUNK] = l->chunk;
    h[DMLI_VIEW_ROWS] = (cl_long)l->rows;
    h[DMLI_VIEW_REP_RANK] = l->repeat ? outer - row_rank : 0;
    h[DMLI_VIEW_REPS] = (cl_long)l->reps;
    h[DMLI_VIEW_REPS_PER_ITEM] = (cl_long)l->reps_per_item;
    h[DMLI_VIEW_ROWS_PER_ITEM] = (cl_long)l->rows_per_item;
}

void dmli_launch_plan(const dmli_plan *plan, const dmli_device_desc *device, dmli_launch *l)
{
    dmli_plan reordered;
    const dmli_plan *p = group_reorder(plan, device, &reordered) ? &reordered : plan;
    memset(l, 0, sizeof *l);
    decide(p, device, l);
    l->prefetch = prefetch(p, device, l);
    l->tile_prefetch = l->transpose && l->transpose != 3 && device->prefetch
                           ? (int)dmli_tuning_for(device->device_class)->tile_prefetch_tiles
                           : 0;
    options(p, l, l->options, sizeof l->options);
    int row_rank;
    size_t dims = fill_dims(p, l, l->shape + DMLI_SHAPE_HEADER, &row_rank);
    geometry(p, device, l);
    fill_header(p, l, row_rank, l->shape);
    l->shape_count = DMLI_SHAPE_HEADER + dims;
}

void dmli_launch_describe(const dmli_launch *l, char *buf, size_t len)
{
    snprintf(buf, len,
             "%s global {%zu,%zu,%zu} local {%zu,%zu,%zu} rows %llu x %llu per item, chunk %lld, "
             "reps %llu x %llu per item | %s",
             l->kernel, l->global[0], l->global[1], l->global[2], l->local[0], l->local[1],
             l->local[2], (unsigned long long)l->rows, (unsigned long long)l->rows_per_item,
             (long long)l->chunk, (unsigned long long)l->reps, (unsigned long long)l->reps_per_item,
             l->options);
}
