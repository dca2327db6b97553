/* SPDX-License-Identifier: MIT */
/*
 * ref_attention.h: the oracle for DirectML's MULTIHEAD_ATTENTION and MULTIHEAD_ATTENTION1,
 * written from their pages' decomposition ([bias] -> Q . K^T * Scale -> [relative position
 * bias] -> [mask] -> softmax -> . V) and the mask kinds of DML_MULTIHEAD_ATTENTION_MASK_TYPE;
 * nothing from src/. Every value in double. Arrays are packed (NULL for an absent one):
 *   q {batch, seq, heads, head}, k {batch, kv_seq, kv_heads, head},
 *   v {batch, kv_seq, kv_heads, vhead}, bias {heads * head + kv_heads * (head + vhead)},
 *   rpb {batch, heads, seq, total}, pk {batch, kv_heads, past, head},
 *   pv {batch, kv_heads, past, vhead}, out {batch, seq, heads, vhead},
 *   prk {batch, kv_heads, total, head}, prv {batch, kv_heads, total, vhead},
 * total = past + kv_seq; the mask as its page lays it out: KEY_SEQUENCE_LENGTH {batch},
 * KEY_SEQUENCE_END_START {2, batch} (ends, then starts), KEY_QUERY_SEQUENCE_LENGTH_START_END
 * {batch * 3 + 2} (the key lengths first), BOOLEAN {batch, heads, seq, total}.
 */
#ifndef DMLCL_TESTS_REF_ATTENTION_H
#define DMLCL_TESTS_REF_ATTENTION_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_attention_desc {
    uint32_t batch, seq, kv_seq, past, heads, kv_heads, head, vhead;
    double scale, filter;
    int mask_type; /* DML_MULTIHEAD_ATTENTION_MASK_TYPE's value */
} ref_attention_desc;

void ref_attention(const ref_attention_desc *d, const double *q, const double *k, const double *v,
                   const double *bias, const int32_t *mask, const double *rpb, const double *pk,
                   const double *pv, double *out, double *prk, double *prv);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_TESTS_REF_ATTENTION_H */
