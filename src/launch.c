/* SPDX-License-Identifier: MIT */
/*
 * The launch layer: variant choice, launch geometry and the shape buffer of
 * a plan on a device description (see launch.h). Pure host code. The copy
 * families' parts, each in its file: launch_tiles.c (TRANSPOSE tiles, shared
 * by views and gathers), launch_view.c (the view variants), launch_indexed.c
 * (the indexed copy's); launch_map.c and launch_bands.c are the other families.
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
#include "launch_copy.h"
#include "tuning.h"

/* ---- Build options as named pairs (launch.h) ------------------------------------------ */

static void opt_add(dmli_options *o, const char *name, const char *value)
{
    if (o->n >= DMLI_OPTIONS_DEFS)
        return; /* cannot happen: a family sets fewer; render shows what is there */
    snprintf(o->defs[o->n].name, sizeof o->defs[o->n].name, "%s", name);
    snprintf(o->defs[o->n].value, sizeof o->defs[o->n].value, "%s", value);
    o->n++;
}

void dmli_opt_int(dmli_options *o, const char *name, long long value)
{
    char text[24];
    snprintf(text, sizeof text, "%lld", value);
    opt_add(o, name, text);
}

void dmli_opt_str(dmli_options *o, const char *name, const char *value)
{
    opt_add(o, name, value);
}

void dmli_options_render(const dmli_options *o, char *buf, size_t len)
{
    int n = snprintf(buf, len, "-cl-std=CL1.2");
    for (unsigned i = 0; i < o->n && n > 0 && (size_t)n < len; ++i)
        n += snprintf(buf + n, len - (size_t)n, " -D%s=%s", o->defs[i].name, o->defs[i].value);
}

const char *dmli_options_value(const dmli_options *o, const char *name)
{
    for (unsigned i = 0; i < o->n; ++i)
        if (strcmp(o->defs[i].name, name) == 0)
            return o->defs[i].value;
    return NULL;
}

/* The tuning table (tuning.h) of a GPU or of a CPU. */
const dmli_tuning *dmli_copy_tune(bool gpu)
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
const char *dmli_copy_vector_type(uint32_t unit)
{
    switch (unit) {
    case 1: return "uchar16";
    case 2: return "ushort8";
    case 4: return "uint4";
    case 8: return "ulong2";
    default: return "uint4";
    }
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

static void decide(const dmli_plan *p, const dmli_device_desc *dev, dmli_launch *l)
{
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    bool indexed = p->kind == DMLI_PLAN_INDEXED;
    l->source = indexed ? DMLI_SOURCE_INDEXED : DMLI_SOURCE_VIEW;
    l->kernel = indexed ? "indexed_copy" : "view_copy";
    l->unit = p->elem_bytes;
    l->serial = !gpu;
    l->interleave = dmli_view_interleaves(p, gpu);
    l->deinterleave = l->interleave ? 0 : dmli_view_deinterleaves(p, gpu);
    l->transpose = indexed                            ? dmli_indexed_transposes(p, dev)
                   : l->interleave || l->deinterleave ? 0
                                                      : dmli_view_transposes(p, dev);
    l->stream = streams(p, dev, l->transpose != 0);
    l->repeat = dmli_view_repeats(p);
    l->strided = dmli_view_strided(p, gpu, l);
    /* GPUs resolve each pick: a work-item's private cache of 256 resolved
     * offsets spills out of registers, and the rows' shared indices stay in
     * the GPU's caches anyway (inner-axis gathers on an H200 ran at 0.7 of
     * one work-item per element with it). */
    l->shared_index = !gpu && dmli_indexed_shares_index(p);
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
static void options(const dmli_plan *p, const dmli_launch *l, dmli_options *o)
{
    int in = p->rank - 1;
    bool fast = p->rank > 0 && p->out_stride[in] == 1 && p->in_stride[in] == 1;
    bool out_unit = p->rank > 0 && p->out_stride[in] == 1;
    int vn = (int)(16 / p->elem_bytes);
    char vload[16], vstore[16];
    snprintf(vload, sizeof vload, "vload%d", vn);
    snprintf(vstore, sizeof vstore, "vstore%d", vn);
    dmli_opt_str(o, "UNIT_T", unit_type(p->elem_bytes));
    dmli_opt_int(o, "FAST", fast);
    dmli_opt_int(o, "OUT_UNIT", out_unit);
    dmli_opt_int(o, "SERIAL", l->serial);
    dmli_opt_int(o, "STREAM", l->stream);
    if (!l->serial) /* GPUs: a lane's loads before its stores (cl/common.cl RUN_STORE) */
        dmli_opt_int(o, "RUN_BATCH", dmli_load_batch(dmli_tuning_for(DMLCL_DEVICE_CLASS_GPU)));
    if (p->rank > 0 && !fast && p->in_stride[in] >= -4 && p->in_stride[in] <= 4)
        dmli_opt_int(o, "RUN_IS_K", p->in_stride[in]);
    if (p->kind == DMLI_PLAN_INDEXED && p->rank > 0 && p->idx_stride[in] >= -4 &&
        p->idx_stride[in] <= 4)
        dmli_opt_int(o, "RUN_XS_K", p->idx_stride[in]);
    if (p->kind == DMLI_PLAN_INDEXED) {
        bool row = p->rank == 0 || p->idx_stride[in] == 0;
        dmli_opt_int(o, "SHARED_INDEX", l->shared_index);
        dmli_opt_int(o, "RUN_ONE", l->run_one);
        dmli_opt_int(o, "ROWS_1D", p->rank == 2);
        if (l->shared_index && dmli_indexed_cache_ints(p))
            dmli_opt_str(o, "CACHE_T", "int");
        if (l->transpose) {
            dmli_opt_int(o, "TRANSPOSE", l->transpose);
            dmli_opt_int(o, "SIDE", dmli_tile_side(p, l->transpose));
            dmli_opt_int(o, "CHUNK_MAX", dmli_tile_chunk(p, l->transpose));
        }
        if (l->transpose == 2) {
            dmli_opt_int(o, "VN", vn);
            dmli_opt_str(o, "VEC_T", dmli_copy_vector_type(p->elem_bytes));
            dmli_opt_str(o, "VLOAD", vload);
        }
        if (l->transpose && l->tile_prefetch)
            dmli_opt_int(o, "TILE_PREFETCH", l->tile_prefetch);
        if (l->transpose == 3)
            dmli_opt_int(o, "GROUP_ROWS", dmli_tile_group_rows(p));
        dmli_opt_str(o, "IDX_T", dmli_indexed_index_type(p->idx_type));
        dmli_opt_int(o, "IDX_SIGNED", dmli_index_type_signed(p->idx_type));
        dmli_opt_int(o, "WRAP", p->wrap_negative);
        dmli_opt_int(o, "POLICY", (int)p->policy);
        dmli_opt_int(o, "ROW_INDEX", row);
        dmli_opt_int(o, "CHECK_ONLY", p->check_only);
        dmli_opt_int(o, "NCOMP", p->components);
        dmli_opt_int(o, "PREFETCH", l->prefetch);
        return;
    }
    bool splat = p->rank > 0 && p->in_stride[in] == 0;
    if (l->transpose && l->tile_prefetch)
        dmli_opt_int(o, "TILE_PREFETCH", l->tile_prefetch);
    dmli_opt_int(o, "SPLAT", splat);
    dmli_opt_int(o, "REPEAT", l->repeat);
    dmli_opt_int(o, "TRANSPOSE", l->transpose);
    dmli_opt_int(o, "SIDE", dmli_tile_side(p, l->transpose));
    dmli_opt_int(o, "CHUNK_MAX", dmli_tile_chunk(p, l->transpose));
    if (l->transpose == 3)
        dmli_opt_int(o, "GROUP_ROWS", dmli_tile_group_rows(p));
    if (l->transpose == 2) {
        dmli_opt_int(o, "VN", vn);
        dmli_opt_str(o, "VEC_T", dmli_copy_vector_type(p->elem_bytes));
        dmli_opt_str(o, "VLOAD", vload);
    }
    if (l->interleave || l->deinterleave) {
        dmli_opt_int(o, l->interleave ? "INTERLEAVE" : "DEINTERLEAVE",
                     l->interleave ? l->interleave : l->deinterleave);
        dmli_opt_int(o, "RUN_N", l->interleave ? p->size[in] : p->in_stride[in]);
        dmli_opt_int(o, "VN", vn);
        dmli_opt_str(o, "VEC_T", dmli_copy_vector_type(p->elem_bytes));
        dmli_opt_str(o, "VLOAD", vload);
        dmli_opt_str(o, "VSTORE", vstore);
    }
    if (l->strided) {
        dmli_opt_int(o, "STRIDED", 1);
        dmli_opt_int(o, "SV_N", 64 / p->elem_bytes);
    }
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
        chunk = dmli_tile_chunk(p, l->transpose);
    if (l->interleave)
        chunk = dmli_view_interleave_chunk(p, per_position, t->interleave_chunk_bytes);
    if (l->deinterleave)
        chunk = dmli_view_deinterleave_chunk(p, dev, l->rows);
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
        /* A work-group per dmli_tile_group_rows() tiles: the tile rows along dimension
         * 0 (the largest grid dimension on every GPU), the run's chunks along 2. */
        l->rows_per_item = 1;
        l->local[0] = GROUP_ITEMS;
        l->local[1] = 1;
        l->local[2] = 1;
        size_t per = (size_t)dmli_tile_group_rows(p);
        l->global[0] = GROUP_ITEMS * (((size_t)l->rows + per - 1) / per);
        l->global[1] = 1;
        l->global[2] = (size_t)chunks;
    }
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
        count += dmli_tile_indexed_rows(p, l, dims, outer);
    } else if (l->transpose) {
        /* Rows are tiles of dims[0]; its real size and output stride follow. */
        cl_long n0 = dims[0], side = dmli_tile_side(p, l->transpose),
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
        int mode, s = dmli_view_deinterleave_dim(p, false, &mode);
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
    const dmli_plan *p = dmli_tile_group_reorder(plan, device, &reordered) ? &reordered : plan;
    memset(l, 0, sizeof *l);
    decide(p, device, l);
    l->prefetch = dmli_indexed_prefetch(p, device, l);
    l->tile_prefetch = l->transpose && l->transpose != 3 && device->prefetch
                           ? (int)dmli_tuning_for(device->device_class)->tile_prefetch_tiles
                           : 0;
    options(p, l, &l->defs);
    dmli_options_render(&l->defs, l->options, sizeof l->options);
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
