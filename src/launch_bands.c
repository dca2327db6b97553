/* SPDX-License-Identifier: MIT */
/*
 * The launch of a band (bands.h): cl/bands.cl's variant, grid and segment
 * table. Pure host code, unit-tested with the band rules (tests/unit/bands.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bands.h"

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

/* CPUs: bytes a work-item moves (rows grouped), as launch.c's chunks. */
#define ITEM_BYTES 16384
/* GPUs: work-items per compute unit a band's grid reaches where it can (an
 * SM holds 2048). */
#define GPU_ITEMS_PER_UNIT 2048

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

bool dmli_band_launch_make(const dmli_band *b, const dmli_device_desc *dev, dmli_band_launch *l)
{
    memset(l, 0, sizeof *l);
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    l->nbuf = dmli_band_nbuf(b->n_bufs, dev);
    l->serial = !gpu;
    /* Non-temporal stores as launch.c's, but units under 4 bytes (whose lines
     * are assembled, below) only from the whole cache on, not a quarter of
     * it: the reflect pad u8 [512,226,226] (26 MB) ran 0.68-0.71x with
     * assembled lines and 0.15x without, against plain stores; split f16
     * (unit 16, 19 MB) 1.34x (dmlcl-ab, PoCL, 32 MiB cache). */
    l->stream = dmli_launch_streams(dev, b->unit < 4 ? b->op_bytes / 4 : b->op_bytes);
    /* Units narrower than 4 bytes have no non-temporal store of their own (x86's movnti
     * takes 4 or 8): with one output, each item's runs continue one another and bands.cl
     * assembles whole lines across them (ASSEMBLE: 1.4-1.6x on f16 padding; with 4-byte
     * units and reflection it lost 0.65-0.8x to storing each run's own lines, dmlcl-ab). */
    bool one_output = true;
    for (uint32_t k = 1; k < b->n_segs; ++k)
        one_output = one_output && b->segs[k].out_buf == b->segs[0].out_buf;
    int assemble = l->stream && l->serial && one_output && b->unit < 4;
    dmli_opt_str(&l->defs, "UNIT_T", unit_type(b->unit));
    dmli_opt_int(&l->defs, "SERIAL", l->serial);
    dmli_opt_int(&l->defs, "STREAM", l->stream);
    dmli_opt_int(&l->defs, "ASSEMBLE", assemble);
    dmli_opt_int(&l->defs, "NBUF", l->nbuf);
    dmli_options_render(&l->defs, l->options, sizeof l->options);
    /* GPUs: lanes the power of two that holds the longest run, at most 64
     * (JOIN's runs of 4-12 units of 16 bytes kept 4-12 of 64 lanes busy). */
    size_t lanes = 1;
    int64_t longest = 1, lines = 1;
    for (uint32_t k = 0; k < b->n_segs; ++k)
        longest = b->segs[k].run > longest ? b->segs[k].run : longest;
    for (uint32_t k = 0; k < b->n_strips; ++k)
        lines = b->strips[k].lines > lines ? b->strips[k].lines : lines;
    while (gpu && lanes < 64 && (int64_t)lanes < longest)
        lanes <<= 1;
    if (lanes > dev->max_item_sizes[0])
        lanes = dev->max_item_sizes[0];
    if (lanes > dev->max_work_group_size)
        lanes = dev->max_work_group_size;
    uint64_t cu = dev->compute_units;
    l->rows_per_item = 1;
    if (!gpu) {
        uint64_t row_bytes = b->bytes / b->rows ? b->bytes / b->rows : 1;
        uint64_t by_size = ITEM_BYTES / row_bytes, by_count = b->rows / (16 * cu);
        l->rows_per_item = by_size < by_count ? by_size : by_count;
        if (l->rows_per_item < 1)
            l->rows_per_item = 1;
    }
    uint64_t items = (b->rows + l->rows_per_item - 1) / l->rows_per_item;
    size_t per_group = gpu ? 256 / lanes : 64;
    if (!gpu && items / per_group < 4 * cu)
        per_group = (size_t)(items / (4 * cu) ? items / (4 * cu) : 1);
    if (per_group > items)
        per_group = (size_t)items;
    if (per_group > dev->max_work_group_size / lanes)
        per_group = dev->max_work_group_size / lanes;
    if (per_group > dev->max_item_sizes[2])
        per_group = dev->max_item_sizes[2];
    if (per_group < 1)
        per_group = 1;
    /* GPUs: a row's lines split over enough items (dimension 1) that the
     * grid holds GPU_ITEMS_PER_UNIT per compute unit (PADDING's 1024 rows of
     * 132 lines in one warp each filled a quarter of an H200). */
    uint64_t split = 1;
    if (gpu) {
        uint64_t have = items * lanes, want = GPU_ITEMS_PER_UNIT * cu;
        split = have < want ? (want + have - 1) / have : 1;
        if (split > (uint64_t)lines)
            split = (uint64_t)lines;
    }
    l->local[0] = l->global[0] = lanes;
    l->local[1] = 1;
    l->global[1] = (size_t)split;
    l->local[2] = per_group;
    l->global[2] = round_up((size_t)items, per_group);

    l->table_count = dmli_band_table_count(b);
    l->table = calloc(l->table_count, sizeof *l->table);
    if (!l->table)
        return false;
    cl_long *t = l->table;
    int rr = b->row_rank;
    t[DMLI_BANDS_STRIPS] = b->n_strips;
    t[DMLI_BANDS_ROW_RANK] = rr;
    t[DMLI_BANDS_ROWS] = (cl_long)b->rows;
    t[DMLI_BANDS_ROWS_PER_ITEM] = (cl_long)l->rows_per_item;
    size_t segs = DMLI_BANDS_HEADER + (size_t)rr + DMLI_BANDS_STRIP * (size_t)b->n_strips;
    t[DMLI_BANDS_SEGMENTS] = (cl_long)segs;
    for (int d = 0; d < rr; ++d)
        t[DMLI_BANDS_HEADER + d] = b->row_size[rr - 1 - d];
    for (uint32_t k = 0; k < b->n_strips; ++k) {
        cl_long *s = t + DMLI_BANDS_HEADER + rr + DMLI_BANDS_STRIP * k;
        s[0] = b->strips[k].first;
        s[1] = b->strips[k].count;
        s[2] = b->strips[k].lines;
    }
    for (uint32_t k = 0; k < b->n_segs; ++k) {
        const dmli_band_seg *s = &b->segs[k];
        cl_long *g = t + segs + (DMLI_SEG_FIXED + 2 * (size_t)rr) * k;
        g[DMLI_SEG_OUT_BUF] = s->out_buf;
        g[DMLI_SEG_IN_BUF] = s->in_buf;
        g[DMLI_SEG_OUT_OFF] = s->out_off;
        g[DMLI_SEG_IN_OFF] = s->in_off;
        g[DMLI_SEG_LINE_OS] = s->line_os;
        g[DMLI_SEG_LINE_IS] = s->line_is;
        g[DMLI_SEG_RUN] = s->run;
        g[DMLI_SEG_RUN_IS] = s->run_is;
        for (int d = 0; d < rr; ++d) {
            g[DMLI_SEG_FIXED + 2 * d] = s->os[rr - 1 - d];
            g[DMLI_SEG_FIXED + 2 * d + 1] = s->is[rr - 1 - d];
        }
    }
    return true;
}

void dmli_band_launch_free(dmli_band_launch *l)
{
    free(l->table);
    l->table = NULL;
}

void dmli_band_describe(const dmli_band *b, const dmli_band_launch *l, const char *op, void *f)
{
    FILE *out = f;
    fprintf(out,
            "dmlcl: band %s unit %u rows %llu (%d dims) x %llu per item, %u segments in %u "
            "strips, %u buffers, %llu bytes | global {%zu,%zu,%zu} local {%zu,%zu,%zu} | %s\n",
            op, b->unit, (unsigned long long)b->rows, b->row_rank,
            (unsigned long long)l->rows_per_item, b->n_segs, b->n_strips, b->n_bufs,
            (unsigned long long)b->bytes, l->global[0], l->global[1], l->global[2], l->local[0],
            l->local[1], l->local[2], l->options);
    for (uint32_t k = 0; k < b->n_strips; ++k) {
        const dmli_band_strip *s = &b->strips[k];
        for (uint32_t j = s->first; j < s->first + s->count; ++j) {
            const dmli_band_seg *g = &b->segs[j];
            const dmli_band_buf *ob = &b->bufs[g->out_buf], *ib = &b->bufs[g->in_buf];
            fprintf(out,
                    "dmlcl:   strip %u step %u: output %d @%lld <- %s%d @%lld, %lld lines (os "
                    "%lld is %lld) of %lld (is %lld)\n",
                    k, g->step, ob->slot, (long long)g->out_off,
                    ib->slot == DMLI_STEP_CONSTANT ? "constant" : "input ",
                    ib->slot == DMLI_STEP_CONSTANT ? 0 : ib->slot, (long long)g->in_off,
                    (long long)g->lines, (long long)g->line_os, (long long)g->line_is,
                    (long long)g->run, (long long)g->run_is);
        }
    }
}
