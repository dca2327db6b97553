/* SPDX-License-Identifier: MIT */
/*
 * The indexed family's decisions (cl/indexed.cl): index types, the
 * prefetches, SHARED_INDEX and its 32-bit offset cache. Pure host code
 * (launch.h); TRANSPOSE is launch_tiles.c's.
 */
#include "launch_copy.h"

const char *dmli_indexed_index_type(dmli_index_type t)
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

int dmli_indexed_prefetch(const dmli_plan *p, const dmli_device_desc *dev, const dmli_launch *l)
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
bool dmli_indexed_cache_ints(const dmli_plan *p)
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
bool dmli_indexed_shares_index(const dmli_plan *p)
{
    if (p->kind != DMLI_PLAN_INDEXED || p->rank < 2 || p->idx_stride[p->rank - 1] == 0 ||
        p->check_only)
        return false;
    for (int d = 0; d + 1 < p->rank; ++d)
        if (p->idx_stride[d] != 0)
            return false;
    return true;
}
