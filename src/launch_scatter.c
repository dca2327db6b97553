/* SPDX-License-Identifier: MIT */
/*
 * The launch of a scatter (cl/scatter.cl): its variant (the element's width, the index type,
 * whether the run shares one index tuple), its table (cl/scatter_abi.h) and its grid. Pure
 * host code, as launch.c. Shapes live in the table only: one variant serves every shape of a
 * width and an index type.
 *
 * An item writes scatter_chunk elements of the run (the innermost parallel dimension; the
 * device class's tuning: 256 on CPUs, fewer where the compute units would go without items,
 * one element on GPUs, where neighbouring items write neighbouring elements) at every walked
 * position. Grid: one dimension of rows x chunks
 * items, in work-groups of up to scatter_group items (CPUs: fewer, so that every compute unit
 * gets groups_per_unit of them); items past the end return at once.
 */
#include "launch.h"
#include "scatter.h"
#include "tuning.h"

_Static_assert(DMLI_SC_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the scatter table fits");

static const char *unit_type(uint32_t bytes)
{
    switch (bytes) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

static const char *index_type(dmli_index_type t)
{
    switch (t) {
    case DMLI_INDEX_UINT32: return "uint";
    case DMLI_INDEX_INT64: return "long";
    case DMLI_INDEX_UINT64: return "ulong";
    default: return "int";
    }
}

void dmli_launch_scatter(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(c, dmli_scatter);
    const dmli_tuning *tuning = dmli_tuning_for(dev->device_class);
    const int run = s->n_outer - 1;
    l->source = DMLI_SOURCE_SCATTER;
    l->kernel = "scatter";
    dmli_opt_str(&l->defs, "UNIT_T", unit_type(s->elem_bytes));
    dmli_opt_str(&l->defs, "IDX_T", index_type(s->idx_type));
    dmli_opt_int(&l->defs, "IDX_SIGNED", dmli_index_type_signed(s->idx_type));
    dmli_opt_int(&l->defs, "ROW_INDEX", s->outer_xs[run] == 0);

    int64_t chunk = tuning->scatter_chunk, rows = 1, walks = 1;
    chunk = chunk < s->outer_size[run] ? chunk : s->outer_size[run];
    for (int i = 0; i < run; ++i)
        rows *= s->outer_size[i];
    /* CPUs: chunks halved (down to 16 elements) while the items would leave the compute units
     * fewer than groups_per_unit each (a run of 2048 in one row: 8 items of 256). */
    const uint64_t wanted = (uint64_t)dev->compute_units * tuning->groups_per_unit;
    while (dev->device_class != DMLCL_DEVICE_CLASS_GPU && chunk > 16 &&
           (uint64_t)((s->outer_size[run] + chunk - 1) / chunk * rows) < wanted)
        chunk = (chunk + 1) / 2;
    const int64_t chunks = (s->outer_size[run] + chunk - 1) / chunk;
    for (int j = 0; j < s->n_walk; ++j)
        walks *= s->walk_size[j];
    cl_long *t = l->table;
    t[DMLI_SC_RUN] = s->outer_size[run];
    t[DMLI_SC_RUN_US] = s->outer_us[run];
    t[DMLI_SC_RUN_XS] = s->outer_xs[run];
    t[DMLI_SC_RUN_OS] = s->outer_os[run];
    t[DMLI_SC_CHUNK] = chunk;
    t[DMLI_SC_CHUNKS] = chunks;
    t[DMLI_SC_ITEMS] = chunks * rows;
    t[DMLI_SC_N_OUTER] = run;
    t[DMLI_SC_N_WALK] = s->n_walk;
    t[DMLI_SC_WALKS] = walks;
    t[DMLI_SC_NCOMP] = s->components;
    t[DMLI_SC_COMP_XS] = s->comp_xs;
    for (int i = 0; i < run; ++i) { /* innermost first */
        const int from = run - 1 - i;
        t[DMLI_SC_OUTER(i)] = s->outer_size[from];
        t[DMLI_SC_OUTER(i) + 1] = s->outer_us[from];
        t[DMLI_SC_OUTER(i) + 2] = s->outer_xs[from];
        t[DMLI_SC_OUTER(i) + 3] = s->outer_os[from];
    }
    for (int j = 0; j < s->n_walk; ++j) {
        const int from = s->n_walk - 1 - j;
        t[DMLI_SC_WALK(j)] = s->walk_size[from];
        t[DMLI_SC_WALK(j) + 1] = s->walk_us[from];
        t[DMLI_SC_WALK(j) + 2] = s->walk_xs[from];
    }
    for (int k = 0; k < s->components; ++k) {
        t[DMLI_SC_COMP(k)] = s->axis_size[k];
        t[DMLI_SC_COMP(k) + 1] = s->axis_os[k];
    }
    l->table_count = DMLI_SC_TABLE;

    const uint64_t items = (uint64_t)(chunks * rows);
    uint64_t group = tuning->scatter_group;
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU) {
        uint64_t fill = (items + wanted - 1) / wanted;
        group = fill < group ? fill : group;
    }
    group = group < items ? group : items;
    group = group < dev->max_work_group_size ? group : dev->max_work_group_size;
    group = group < dev->max_item_sizes[0] ? group : dev->max_item_sizes[0];
    group = group ? group : 1;
    l->global[0] = (size_t)((items + group - 1) / group * group);
    l->global[1] = l->global[2] = 1;
    l->local[0] = (size_t)group;
    l->local[1] = l->local[2] = 1;
}
