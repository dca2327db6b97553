/* SPDX-License-Identifier: MIT */
/*
 * The launch of a multi-head attention (cl/attention.cl): its variant (storage type, the mask's
 * kind, the tensors present, the scores' bucket), its table (cl/attention_abi.h) and its grid:
 * one work-group per (query position, batch element and query head). Pure host code, as
 * launch.c.
 *
 * CPUs take attention_block (head sizes up to ATTN_BLOCK_HEAD_MAX: a work-item a block of query
 * rows, a row a vector lane) or attention_rows (up to 512: a work-item a query row, in
 * work-groups of up to ATTN_ROWS_GROUP rows), without local memory; the head sizes' buckets
 * KDMAX and VDMAX size their private arrays. Else the bucket TMAX is the smallest of 64, 256, 1024,
 * ... at least the total sequence length (past + key/value): a kernel per bucket, not per shape. A
 * work-group keeps TMAX float scores in local memory; where that exceeds the device's local
 * memory the launch refuses (DXGI_ERROR_UNSUPPORTED at compile).
 */
#include <stdio.h>
#include <string.h>

#include "attention.h"
#include "launch.h"

_Static_assert(DMLI_ATTN_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the attention table fits");

/* Work-items a work-group: the longer of the key positions and the value columns, at most
 * this many (each item then walks positions or columns i, i + items, ...). */
#define ATTN_GROUP_MAX 64

uint64_t dmli_attention_local_bytes(const dmli_attention *a, uint32_t *bucket)
{
    uint32_t b = 64;
    while ((int64_t)b < a->past + a->kv_seq && b < (1u << 30))
        b *= 4;
    if (bucket)
        *bucket = b;
    return (uint64_t)b * sizeof(float);
}

static void options(const dmli_attention *a, uint32_t bucket, dmli_options *o)
{
    dmli_opt_str(o, "T", dmli_map_storage_type(a->type));
    dmli_opt_int(o, "HALF", a->type == DML_TENSOR_DATA_TYPE_FLOAT16);
    dmli_opt_int(o, "TMAX", bucket);
    dmli_opt_int(o, "MASK", a->mask);
    dmli_opt_int(o, "HAS_BIAS", a->present[DMLI_ATTN_BIAS]);
    dmli_opt_int(o, "HAS_RPB", a->present[DMLI_ATTN_RPB]);
    dmli_opt_int(o, "HAS_PAST", a->present[DMLI_ATTN_PK]);
    dmli_opt_int(o, "HAS_PRK", a->present[DMLI_ATTN_PRK]);
    dmli_opt_int(o, "HAS_PRV", a->present[DMLI_ATTN_PRV]);
}

/* A head size's bucket for the CPU kernels' private arrays (32, 64, ... 512), 0 past it. */
static uint32_t head_bucket(int64_t vd)
{
    for (uint32_t b = 32; b <= 512; b *= 2)
        if (vd <= (int64_t)b)
            return b;
    return 0;
}

/* The table: sizes, Scale, MaskFilterValue, strides. */
static void table(const dmli_attention *a, dmli_compute_launch *l)
{
    const int64_t sizes[] = {a->batch, a->seq,      a->kv_seq,    a->past,
                             a->heads, a->kv_heads, a->head_size, a->value_head_size};
    for (int i = 0; i < 8; ++i)
        l->table[i] = sizes[i];
    l->table[DMLI_ATTN_SCALE] = dmli_float_bits(a->scale);
    l->table[DMLI_ATTN_FILTER] = dmli_float_bits(a->filter);
    for (int role = 0; role < DMLI_ATTN_ROLES; ++role)
        for (int d = 0; d < 4; ++d)
            l->table[DMLI_ATTN_STRIDE(role, d)] = a->stride[role][d];
    l->table_count = DMLI_ATTN_TABLE;
}

/* The largest head size attention_block keeps in private vectors (larger: attention_rows). */
#define ATTN_BLOCK_HEAD_MAX 128
/* Query rows a work-group of attention_rows: the device runs a group's items as vector lanes. */
#define ATTN_ROWS_GROUP 16

void dmli_launch_attention(const dmli_compute *c, const dmli_device_desc *dev,
                           dmli_compute_launch *l)
{
    const dmli_attention *a = DMLI_COMPUTE_WORK_CONST(c, dmli_attention);
    uint32_t bucket;
    uint64_t bytes = dmli_attention_local_bytes(a, &bucket);
    l->source = DMLI_SOURCE_ATTENTION;
    l->kernel = "attention";
    const uint32_t vbucket = head_bucket(a->value_head_size), kbucket = head_bucket(a->head_size);
    if (dev->device_class == DMLCL_DEVICE_CLASS_CPU && vbucket && kbucket &&
        vbucket <= ATTN_BLOCK_HEAD_MAX && kbucket <= ATTN_BLOCK_HEAD_MAX) {
        /* CPUs, head sizes up to 128: a work-item a block of query rows, a row a vector lane
         * (the device's preferred int vector width, as the GEMM blocks': 4 to 16). */
        uint32_t rv = dev->preferred_vector_width_int;
        rv = rv >= 16 ? 16 : rv >= 8 ? 8 : 4;
        options(a, 64, &l->defs);
        dmli_opt_int(&l->defs, "VDMAX", (int)vbucket);
        dmli_opt_int(&l->defs, "KDMAX", (int)kbucket);
        dmli_opt_int(&l->defs, "RV", (int)rv);
        l->kernel = "attention_block";
        table(a, l);
        l->global[0] = ((size_t)a->seq + rv - 1) / rv;
        l->global[1] = (size_t)(a->batch * a->heads);
        l->global[2] = 1;
        l->local[0] = l->local[1] = l->local[2] = 1;
        return;
    }
    if (dev->device_class == DMLCL_DEVICE_CLASS_CPU && vbucket && kbucket) {
        /* CPUs: a work-item a query row, no local memory (no length limit). */
        options(a, 64, &l->defs);
        dmli_opt_int(&l->defs, "VDMAX", (int)vbucket);
        dmli_opt_int(&l->defs, "KDMAX", (int)kbucket);
        l->kernel = "attention_rows";
        table(a, l);
        size_t group = ATTN_ROWS_GROUP;
        while (group > 1 && ((int64_t)group / 2 >= a->seq || group > dev->max_work_group_size ||
                             group > dev->max_item_sizes[0]))
            group /= 2;
        l->global[0] = ((size_t)a->seq + group - 1) / group * group;
        l->global[1] = (size_t)(a->batch * a->heads);
        l->global[2] = 1;
        l->local[0] = group;
        l->local[1] = l->local[2] = 1;
        return;
    }
    if (bytes > dev->local_mem_size) {
        snprintf(l->refusal, sizeof l->refusal,
                 "a total sequence length of %lld needs %llu bytes of local memory a "
                 "work-group (the scores' bucket %u), the device has %llu",
                 (long long)(a->past + a->kv_seq), (unsigned long long)bytes, bucket,
                 (unsigned long long)dev->local_mem_size);
        return;
    }
    options(a, bucket, &l->defs);
    table(a, l);
    int64_t want =
        a->past + a->kv_seq > a->value_head_size ? a->past + a->kv_seq : a->value_head_size;
    size_t items = ATTN_GROUP_MAX;
    if ((int64_t)items > want)
        items = (size_t)want;
    if (items > dev->max_work_group_size)
        items = dev->max_work_group_size;
    if (items > dev->max_item_sizes[0])
        items = dev->max_item_sizes[0];
    items = items ? items : 1;
    l->global[0] = items;
    l->global[1] = (size_t)a->seq;
    l->global[2] = (size_t)(a->batch * a->heads);
    l->local[0] = items;
    l->local[1] = l->local[2] = 1;
}
