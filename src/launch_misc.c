/* SPDX-License-Identifier: MIT */
/*
 * The launch of the selection family (cl/misc.cl): the kernel, its variant (the element's width,
 * the nonzero mask, the lengths' or indices' type, the output state), its table
 * (cl/misc_abi.h) and its grid. Pure host code, as launch.c.
 *
 *   nonzero: one work-group of up to 256 items (the kernel's GROUP), fewer where the input has
 *            under 64 elements an item; its scan is in local memory, so one group does it all.
 *   reverse, philox: an item makes a chunk of elements (blocks of four for philox): one on
 *            GPUs, where neighbouring items write neighbouring elements; 64 on CPUs.
 *   unpool:  an item owns a chunk of the output and walks every input element: on CPUs as many
 *            items as four per compute unit, on GPUs up to 256 (each walk reads every index:
 *            more items cost more reads than they win).
 */
#include "launch.h"
#include "misc.h"

_Static_assert(DMLI_MI_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the selection table fits");

static const char *unit_type(uint32_t bytes)
{
    switch (bytes) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

static const char *int_type(DML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_INT32: return "int";
    case DML_TENSOR_DATA_TYPE_INT64: return "long";
    case DML_TENSOR_DATA_TYPE_UINT64: return "ulong";
    default: return "uint";
    }
}

static int64_t elements_of(int rank, const int64_t *size)
{
    int64_t n = 1;
    for (int d = 0; d < rank; ++d)
        n *= size[d];
    return n;
}

static size_t fit_group(uint64_t want, const dmli_device_desc *dev)
{
    uint64_t g = want;
    g = g < dev->max_work_group_size ? g : dev->max_work_group_size;
    g = g < dev->max_item_sizes[0] ? g : dev->max_item_sizes[0];
    return (size_t)(g ? g : 1);
}

/* A one-dimensional grid of `items` items in groups of up to `group`. */
static void grid(dmli_compute_launch *l, uint64_t items, uint64_t group,
                 const dmli_device_desc *dev)
{
    size_t g = fit_group(group < items ? group : (items ? items : 1), dev);
    l->global[0] = (size_t)((items + g - 1) / g * g);
    l->global[1] = l->global[2] = 1;
    l->local[0] = g;
    l->local[1] = l->local[2] = 1;
    l->table[DMLI_MI_ITEMS] = (cl_long)items;
}

void dmli_launch_misc(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_misc *m = DMLI_COMPUTE_WORK_CONST(c, dmli_misc);
    const bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    const int64_t elements = elements_of(m->rank, m->size);
    cl_long *t = l->table;
    t[DMLI_MI_RANK] = m->rank;
    t[DMLI_MI_ELEMENTS] = elements;
    for (int i = 0; i < 8; ++i)
        t[DMLI_MI_P(i)] = m->param[i];
    for (int d = 0; d < m->rank; ++d) {
        t[DMLI_MI_DIM(d)] = m->size[d];
        for (int k = 0; k < 4; ++k)
            t[DMLI_MI_DIM(d) + 1 + k] = m->stride[k][d];
    }
    for (int d = 0; d < m->rank_b; ++d) {
        t[DMLI_MI_DIM(d) + 5] = m->size_b[d];
        t[DMLI_MI_DIM(d) + 6] = m->stride_b[d];
    }
    l->table_count = DMLI_MI_TABLE;
    l->source = DMLI_SOURCE_MISC;
    dmli_opt_str(&l->defs, "UNIT_T", unit_type(dmli_type_size(m->type)));
    switch (m->kind) {
    case DMLI_MISC_NONZERO: {
        l->kernel = "nonzero";
        /* Floats: -0.0 is zero; the sign bit is left out of the test. */
        const char *mask = m->type == DML_TENSOR_DATA_TYPE_FLOAT32   ? "0x7fffffffu"
                           : m->type == DML_TENSOR_DATA_TYPE_FLOAT16 ? "0x7fff"
                           : m->type == DML_TENSOR_DATA_TYPE_FLOAT64 ? "0x7fffffffffffffffUL"
                                                                     : "(~(UNIT_T)0)";
        dmli_opt_str(&l->defs, "MASK", mask);
        uint64_t group = (uint64_t)(elements + 63) / 64;
        group = group < 256 ? group : 256;
        const size_t g = fit_group(group ? group : 1, dev);
        l->global[0] = l->local[0] = g;
        l->global[1] = l->global[2] = l->local[1] = l->local[2] = 1;
        t[DMLI_MI_ITEMS] = (cl_long)g;
        t[DMLI_MI_CHUNK] = 0;
        return;
    }
    case DMLI_MISC_REVERSE: {
        l->kernel = "reverse";
        dmli_opt_str(&l->defs, "LEN_T", int_type(m->aux_type));
        dmli_opt_int(&l->defs, "LEN_SIGNED",
                     m->aux_type == DML_TENSOR_DATA_TYPE_INT32 ||
                         m->aux_type == DML_TENSOR_DATA_TYPE_INT64);
        const int64_t chunk = gpu ? 1 : 64;
        t[DMLI_MI_CHUNK] = chunk;
        grid(l, (uint64_t)((elements + chunk - 1) / chunk), gpu ? 256 : 16, dev);
        return;
    }
    case DMLI_MISC_UNPOOL: {
        l->kernel = "unpool";
        dmli_opt_str(&l->defs, "IDX_T", int_type(m->aux_type));
        const int64_t outputs = m->param[0];
        uint64_t items = gpu ? 256 : 4ull * dev->compute_units;
        items = items < (uint64_t)outputs ? items : (uint64_t)outputs;
        items = items ? items : 1;
        const int64_t chunk = (outputs + (int64_t)items - 1) / (int64_t)items;
        t[DMLI_MI_CHUNK] = chunk ? chunk : 1;
        grid(l, (uint64_t)((outputs + t[DMLI_MI_CHUNK] - 1) / t[DMLI_MI_CHUNK]), gpu ? 64 : 1, dev);
        return;
    }
    case DMLI_MISC_PHILOX: {
        l->kernel = "philox";
        dmli_opt_int(&l->defs, "HAS_STATE", m->has_state);
        const int64_t blocks = (elements + 3) / 4, chunk = gpu ? 1 : 64;
        t[DMLI_MI_CHUNK] = chunk;
        /* At least one item: it writes the output state. */
        const int64_t items = (blocks + chunk - 1) / chunk;
        grid(l, (uint64_t)(items ? items : 1), gpu ? 256 : 16, dev);
        return;
    }
    }
}
