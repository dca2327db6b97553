/* SPDX-License-Identifier: MIT */
/*
 * The attention family's description (cl/attention.cl): what src/ops/attention.c lowers
 * MULTIHEAD_ATTENTION and MULTIHEAD_ATTENTION1 to, and what src/launch_attention.c turns into a
 * kernel's options, table and grid.
 */
#ifndef DMLI_ATTENTION_H
#define DMLI_ATTENTION_H

#include "../cl/attention_abi.h"
#include "internal.h"

typedef struct dmli_attention {
    DML_TENSOR_DATA_TYPE type; /* every float tensor's: FLOAT32 or FLOAT16 */
    int64_t batch, seq, kv_seq, past, heads, kv_heads, head_size, value_head_size;
    float scale, filter;
    int mask; /* DMLI_ATTN_MASK_* */
    bool present[DMLI_ATTN_ROLES];
    int64_t stride[DMLI_ATTN_ROLES][4];
} dmli_attention;

/* The local memory one work-group of the kernel takes (its scores' bucket), in bytes. */
uint64_t dmli_attention_local_bytes(const dmli_attention *a, uint32_t *bucket);

#endif /* DMLI_ATTENTION_H */
