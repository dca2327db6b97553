/* SPDX-License-Identifier: MIT */
/*
 * The launch of a recurrent layer (cl/rnn.cl): its variant (storage type, cell, the tensors
 * present, the activations, GRU's and LSTM's switches, the hidden-state bucket), its table
 * (cl/rnn_abi.h) and its grid: one work-group per (direction, batch element), which steps
 * through the sequence with the state in local memory. Pure host code, as launch.c.
 *
 * The bucket HMAX is the smallest of 64, 256, 1024, ... at least hidden_size: a kernel per
 * bucket, not per shape. A work-group takes 3 * HMAX floats of local memory (the state twice,
 * the current and the next, and GRU's r * H or LSTM's cell); where that exceeds the device's
 * local memory the launch refuses (DXGI_ERROR_UNSUPPORTED at compile).
 */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "rnn.h"

_Static_assert(DMLI_RNN_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the recurrent table fits");

/* Work-items a work-group: the hidden units, at most this many (each item then walks units j,
 * j + items, ...). */
#define RNN_GROUP_MAX 256

uint64_t dmli_rnn_local_bytes(const dmli_rnn *r, uint32_t *bucket)
{
    uint32_t b = 64;
    while ((int64_t)b < r->hidden && b < (1u << 30))
        b *= 4;
    if (bucket)
        *bucket = b;
    return 3ull * b * sizeof(float);
}

static void options(const dmli_rnn *r, uint32_t bucket, dmli_options *o)
{
    static const char *const has[DMLI_RNN_ROLES] = {NULL,     NULL,     NULL,      "HAS_B",
                                                    "HAS_H0", "HAS_C0", "HAS_LEN", "HAS_P",
                                                    "HAS_Y",  "HAS_YH", "HAS_YC"};
    dmli_opt_str(o, "T", dmli_map_storage_type(r->type));
    dmli_opt_int(o, "HALF", r->type == DML_TENSOR_DATA_TYPE_FLOAT16);
    dmli_opt_int(o, "CELL", (int64_t)r->cell);
    dmli_opt_int(o, "HMAX", bucket);
    dmli_opt_int(o, "NACT", r->acts);
    dmli_opt_int(o, "BACKWARD", r->backward);
    for (int role = DMLI_RNN_B; role < DMLI_RNN_ROLES; ++role)
        dmli_opt_int(o, has[role], r->present[role]);
    for (uint32_t i = 0; i < r->acts * r->directions; ++i) {
        char name[16]; /* "ACT_" and any UINT */
        snprintf(name, sizeof name, "ACT_%u", i);
        dmli_opt_int(o, name, r->act[i].act);
    }
    if (r->cell == DMLI_RNN_CELL_GRU)
        dmli_opt_int(o, "LBR", r->linear_before_reset);
    if (r->cell == DMLI_RNN_CELL_LSTM) {
        dmli_opt_int(o, "CLIP", r->clip);
        dmli_opt_int(o, "COUPLE", r->couple);
    }
}

void dmli_launch_rnn(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_rnn *r = DMLI_COMPUTE_WORK_CONST(c, dmli_rnn);
    uint32_t bucket;
    uint64_t bytes = dmli_rnn_local_bytes(r, &bucket);
    l->source = DMLI_SOURCE_RNN;
    l->kernel = "rnn";
    if (bytes > dev->local_mem_size) {
        snprintf(l->refusal, sizeof l->refusal,
                 "hidden_size %lld needs %llu bytes of local memory a work-group (the state "
                 "bucket %u), the device has %llu",
                 (long long)r->hidden, (unsigned long long)bytes, bucket,
                 (unsigned long long)dev->local_mem_size);
        return;
    }
    options(r, bucket, &l->defs);
    l->table[DMLI_RNN_SEQ] = r->seq;
    l->table[DMLI_RNN_BATCH] = r->batch;
    l->table[DMLI_RNN_INPUT] = r->input;
    l->table[DMLI_RNN_HIDDEN] = r->hidden;
    for (int role = 0; role < DMLI_RNN_ROLES; ++role)
        for (int d = 0; d < 4; ++d)
            l->table[DMLI_RNN_STRIDE(role, d)] = r->stride[role][d];
    for (uint32_t i = 0; i < DMLI_RNN_MAX_ACTS; ++i)
        for (int k = 0; k < 3; ++k)
            l->table[DMLI_RNN_ACT_PARAM(i, k)] = dmli_float_bits(r->act[i].param[k]);
    l->table[DMLI_RNN_CLIP] = dmli_float_bits(r->clip_threshold);
    l->table_count = DMLI_RNN_TABLE;
    size_t items = RNN_GROUP_MAX;
    if ((int64_t)items > r->hidden)
        items = (size_t)r->hidden;
    if (items > dev->max_work_group_size)
        items = dev->max_work_group_size;
    if (items > dev->max_item_sizes[0])
        items = dev->max_item_sizes[0];
    items = items ? items : 1;
    l->global[0] = items;
    l->global[1] = (size_t)r->batch;
    l->global[2] = r->directions;
    l->local[0] = items;
    l->local[1] = l->local[2] = 1;
}
