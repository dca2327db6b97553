/* SPDX-License-Identifier: MIT */
/*
 * The attention family's kernel ABI (cl/attention.cl, src/launch_attention.c): the tensors'
 * roles, which are also the kernel's tensor arguments in order, and the table's layout. Shared
 * by the host and the kernel.
 *
 * Every tensor is read through four element strides over its logical coordinates (stacked
 * tensors resolved on the host: their stack index is in the tensor's base):
 *   Q (b, s, h, d), K (b, t, hk, d), V (b, t, hk, e), BIAS (i, -, -, -), MASK (see MASK_*),
 *   RPB (b, h, s, t), PK and PRK (b, hk, t, d), PV and PRV (b, hk, t, e), OUT (b, s, h, e)
 * with b the batch, s a query position, t a key position, h a query head, hk its key/value
 * head, d < head_size and e < value_head_size.
 */
#ifndef DMLI_ATTN_ABI_H
#define DMLI_ATTN_ABI_H

/* Roles (the kernel's tensor arguments, in this order; an absent one is bound to Q, unread). */
#define DMLI_ATTN_Q 0    /* QueryTensor, or the stacked tensor's query */
#define DMLI_ATTN_K 1    /* KeyTensor, or the stacked tensor's key */
#define DMLI_ATTN_V 2    /* ValueTensor, or the stacked tensor's value */
#define DMLI_ATTN_BIAS 3 /* BiasTensor {hidden + kv_hidden + value_hidden} */
#define DMLI_ATTN_MASK 4 /* MaskTensor (INT32) */
#define DMLI_ATTN_RPB 5  /* RelativePositionBiasTensor {batch, heads, seq, total} */
#define DMLI_ATTN_PK 6   /* PastKeyTensor {batch, kv_heads, past, head_size} */
#define DMLI_ATTN_PV 7   /* PastValueTensor {batch, kv_heads, past, value_head_size} */
#define DMLI_ATTN_OUT 8  /* OutputTensor {batch, seq, heads * value_head_size} */
#define DMLI_ATTN_PRK 9  /* OutputPresentKeyTensor {batch, kv_heads, total, head_size} */
#define DMLI_ATTN_PRV 10 /* OutputPresentValueTensor {batch, kv_heads, total, value_head_size} */
#define DMLI_ATTN_ROLES 11

/* The mask's kinds (the MASK macro): DML_MULTIHEAD_ATTENTION_MASK_TYPE's values. */
#define DMLI_ATTN_MASK_NONE 0
#define DMLI_ATTN_MASK_KEY_LENGTH 1 /* MASK (b): key t kept where t < MASK[b] */
#define DMLI_ATTN_MASK_END_START 2  /* MASK (0, b) end, (1, b) start: start <= t < end */
#define DMLI_ATTN_MASK_KEY_QUERY 3  /* MASK (b) over [batch * 3 + 2]: the key lengths first */
#define DMLI_ATTN_MASK_BOOLEAN 4    /* MASK (b, h, s, t): 0 masks */

/* Table: the sizes, Scale and MaskFilterValue (float bits), each role's four strides. */
#define DMLI_ATTN_BATCH 0
#define DMLI_ATTN_SEQ 1
#define DMLI_ATTN_KV_SEQ 2
#define DMLI_ATTN_PAST 3
#define DMLI_ATTN_HEADS 4
#define DMLI_ATTN_KV_HEADS 5
#define DMLI_ATTN_HEAD_SIZE 6
#define DMLI_ATTN_VALUE_HEAD_SIZE 7
#define DMLI_ATTN_SCALE 8
#define DMLI_ATTN_FILTER 9
#define DMLI_ATTN_STRIDE(role, d) (10 + 4 * (role) + (d))
#define DMLI_ATTN_TABLE DMLI_ATTN_STRIDE(DMLI_ATTN_ROLES, 0)

#endif /* DMLI_ATTN_ABI_H */
