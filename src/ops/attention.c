/* SPDX-License-Identifier: MIT */
/*
 * DirectML's multi-head attention (src/attention.h, cl/attention.cl): MULTIHEAD_ATTENTION
 * (feature level 6.1) and MULTIHEAD_ATTENTION1 (6.4: QueryHeadCount and KeyValueHeadCount,
 * grouped-query attention, query head h reading key/value head h / (QueryHeadCount /
 * KeyValueHeadCount)). Per batch element b, query head h and query position s:
 *   [q, k, v += Bias] -> x = Scale * q . k_t -> [+ RelativePositionBias[b, h, s, t]]
 *   -> [+ MaskFilterValue where the mask hides key t] -> softmax over t -> sum_t p_t * v_t
 * over key positions t = 0 .. past + kv_sequence_length - 1: the first `past` from
 * PastKeyTensor and PastValueTensor {batch, kv_heads, past, head_size}, the rest the new keys
 * and values. OutputPresentKey/Value {batch, kv_heads, total, head_size} are that
 * concatenation (the new rows with their bias). Query, key and value come separately
 * ({batch, seq, heads * head_size}, 4 or 5 dimensions where the leading ones are 1) or stacked
 * on dimension 3 of a 5-dimensional {batch, seq, heads, 2 or 3, head_size}: StackedQueryKey
 * (query, key), StackedKeyValue (key, value), StackedQueryKeyValue; exactly one source each.
 * The masks (INT32): KEY_SEQUENCE_LENGTH {1, batch}: t >= its entry hidden; KEY_SEQUENCE_END_
 * START {2, batch}: end then start, t outside [start, end) hidden; KEY_QUERY_SEQUENCE_LENGTH_
 * START_END {batch * 3 + 2}: the key lengths first (as KEY_SEQUENCE_LENGTH; the query and key
 * starts that follow describe packed sequences, which these tensors' padded layout does not
 * have); BOOLEAN {batch, heads, seq, total}: 0 hides. FLOAT32 or FLOAT16, computed in
 * float32.
 *
 * Chosen where the pages are silent (docs/operators.md): PastKey and PastValue come together;
 * the stacked query forms need QueryHeadCount == KeyValueHeadCount (one heads dimension);
 * PastSequenceLengthsTensor (MULTIHEAD_ATTENTION1's shared key/value cache) is
 * DXGI_ERROR_UNSUPPORTED: legal, not implemented.
 */
#include <stdio.h>
#include <string.h>

#include "attention.h"
#include "ops/common.h"

/* The descriptors' tensor members in order: inputs, then outputs. */
enum {
    M_Q,
    M_K,
    M_V,
    M_QK,
    M_KV,
    M_QKV,
    M_BIAS,
    M_MASK,
    M_RPB,
    M_PK,
    M_PV,
    M_PSL,
    M_OUT,
    M_PRK,
    M_PRV,
    MEMBERS
};

static const char *const member_names[MEMBERS] = {"QueryTensor",
                                                  "KeyTensor",
                                                  "ValueTensor",
                                                  "StackedQueryKeyTensor",
                                                  "StackedKeyValueTensor",
                                                  "StackedQueryKeyValueTensor",
                                                  "BiasTensor",
                                                  "MaskTensor",
                                                  "RelativePositionBiasTensor",
                                                  "PastKeyTensor",
                                                  "PastValueTensor",
                                                  "PastSequenceLengthsTensor",
                                                  "OutputTensor",
                                                  "OutputPresentKeyTensor",
                                                  "OutputPresentValueTensor"};

typedef struct attn_view {
    const char *op;
    bool v1; /* MULTIHEAD_ATTENTION1 */
    const DML_TENSOR_DESC *t[MEMBERS];
    float scale, filter;
    UINT heads, kv_heads;
    DML_MULTIHEAD_ATTENTION_MASK_TYPE mask_type;
} attn_view;

/* What validate and infer find for lower (st->scratch). */
typedef struct attn_scratch {
    int slot[MEMBERS]; /* the operator's input or output slot; -1 not a member */
    int q_src, k_src, v_src;
    uint64_t batch, seq, kv_seq, past, head_size, value_head_size;
} attn_scratch;

static bool is_output(int m)
{
    return m >= M_OUT;
}

static const dmli_tensor *member(const dmli_op_state *st, const attn_scratch *s, int m)
{
    if (s->slot[m] < 0)
        return NULL;
    const dmli_tensor *t = is_output(m) ? &st->outputs[s->slot[m]] : &st->inputs[s->slot[m]];
    return t->present ? t : NULL;
}

static HRESULT import(const attn_view *v, dmli_op_state *st, attn_scratch *s)
{
    uint32_t in = 0, out = 0;
    for (int m = 0; m < MEMBERS; ++m) {
        s->slot[m] = -1;
        if (m == M_PSL && !v->v1)
            continue;
        unsigned rules = (is_output(m) ? DMLI_TENSOR_OUTPUT : DMLI_TENSOR_INPUT) |
                         (m == M_OUT ? 0 : DMLI_TENSOR_OPTIONAL);
        uint32_t slot = is_output(m) ? out++ : in++;
        dmli_tensor *t = is_output(m) ? &st->outputs[slot] : &st->inputs[slot];
        DMLI_TRY(dmli_tensor_import(v->op, member_names[m], v->t[m], rules, t));
        if (is_output(m))
            st->output_names[slot] = member_names[m];
        else
            st->input_names[slot] = member_names[m];
        s->slot[m] = (int)slot;
    }
    st->n_inputs = in;
    st->n_outputs = out;
    return S_OK;
}

/* Exactly one of the n members given: its index in `which`, else an error naming them. */
static HRESULT one_source(const attn_view *v, const dmli_op_state *st, const attn_scratch *s,
                          const char *what, const int *which, int n, int *found)
{
    int count = 0;
    char names[160] = "";
    for (int i = 0; i < n; ++i) {
        if (member(st, s, which[i])) {
            *found = which[i];
            ++count;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 i == 0       ? ""
                 : i == n - 1 ? " or "
                              : ", ",
                 member_names[which[i]]);
    }
    DMLI_INVALID_IF(count != 1, "%s: the %s must come from exactly one of %s (%d given)", v->op,
                    what, names, count);
    return S_OK;
}

/* t has `rank` dimensions, or up to `most` where the leading ones are 1. */
static HRESULT check_rank(const attn_view *v, int m, const dmli_tensor *t, uint32_t rank,
                          uint32_t most)
{
    DMLI_INVALID_IF(t->rank < rank || t->rank > most, "%s: %s.DimensionCount (%u) must be %u%s",
                    v->op, member_names[m], t->rank, rank,
                    most > rank ? " (or more where the leading sizes are 1)" : "");
    for (uint32_t d = 0; d + rank < t->rank; ++d)
        DMLI_INVALID_IF(t->sizes[d] != 1,
                        "%s: %s.Sizes[%u] (%llu) must be 1 (a leading dimension past %u)", v->op,
                        member_names[m], d, (unsigned long long)t->sizes[d], rank);
    return S_OK;
}

static const uint64_t *trailing(const dmli_tensor *t, uint32_t n)
{
    return t->sizes + (t->rank - n);
}

static HRESULT check_types(const attn_view *v, const dmli_op_state *st, const attn_scratch *s)
{
    const dmli_tensor *ref = member(st, s, s->q_src);
    const char *ref_name = member_names[s->q_src];
    DMLI_INVALID_IF(ref->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        ref->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: %s.DataType (%s) must be FLOAT32 or FLOAT16", v->op, ref_name,
                    dmli_type_name(ref->type));
    for (int m = 0; m < MEMBERS; ++m) {
        const dmli_tensor *t = member(st, s, m);
        if (!t || m == s->q_src)
            continue;
        if (m == M_MASK || m == M_PSL)
            DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_INT32,
                            "%s: %s.DataType (%s) must be INT32", v->op, member_names[m],
                            dmli_type_name(t->type));
        else
            DMLI_TRY(dmli_ops_same_type(v->op, member_names[m], t, ref_name, ref));
        if (is_output(m))
            DMLI_TRY(dmli_tensor_check_disjoint(v->op, member_names[m], t));
    }
    return S_OK;
}

static HRESULT validate_view(const attn_view *v, dmli_op_state *st)
{
    attn_scratch *s = DMLI_OP_SCRATCH(st, attn_scratch);
    memset(s, 0, sizeof *s);
    DMLI_TRY(import(v, st, s));
    static const int q_from[] = {M_Q, M_QK, M_QKV}, k_from[] = {M_K, M_QK, M_KV, M_QKV},
                     v_from[] = {M_V, M_KV, M_QKV};
    DMLI_TRY(one_source(v, st, s, "query", q_from, 3, &s->q_src));
    DMLI_TRY(one_source(v, st, s, "key", k_from, 4, &s->k_src));
    DMLI_TRY(one_source(v, st, s, "value", v_from, 3, &s->v_src));
    st->data_input = s->slot[s->q_src];
    DMLI_TRY(check_types(v, st, s));
    const char *heads_name = v->v1 ? "QueryHeadCount" : "HeadCount";
    DMLI_INVALID_IF(v->heads == 0, "%s: %s (0) must be at least 1", v->op, heads_name);
    if (v->v1) {
        DMLI_INVALID_IF(v->kv_heads == 0, "%s: KeyValueHeadCount (0) must be at least 1", v->op);
        DMLI_INVALID_IF(v->heads % v->kv_heads != 0,
                        "%s: QueryHeadCount (%u) must be a multiple of KeyValueHeadCount (%u)",
                        v->op, v->heads, v->kv_heads);
        DMLI_INVALID_IF((s->q_src == M_QK || s->q_src == M_QKV) && v->heads != v->kv_heads,
                        "%s: QueryHeadCount (%u) must equal KeyValueHeadCount (%u) where the "
                        "query is stacked with the key (%s: one heads dimension)",
                        v->op, v->heads, v->kv_heads, member_names[s->q_src]);
    }
    DMLI_INVALID_IF((unsigned)v->mask_type > DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN,
                    "%s: MaskType (%d) must be a DML_MULTIHEAD_ATTENTION_MASK_TYPE (0 to 4)", v->op,
                    (int)v->mask_type);
    bool has_mask = member(st, s, M_MASK) != NULL;
    DMLI_INVALID_IF(has_mask != (v->mask_type != DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE),
                    "%s: MaskTensor must be %s where MaskType is %d (%s)", v->op,
                    has_mask ? "NULL" : "given", (int)v->mask_type,
                    has_mask ? "DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE" : "a mask kind");
    DMLI_INVALID_IF(!member(st, s, M_PK) != !member(st, s, M_PV),
                    "%s: PastKeyTensor and PastValueTensor must be given together (%s is NULL)",
                    v->op, member(st, s, M_PK) ? "PastValueTensor" : "PastKeyTensor");
    DMLI_UNSUPPORTED_IF(v->v1 && member(st, s, M_PSL),
                        "%s: PastSequenceLengthsTensor (a shared key/value cache) is not "
                        "implemented",
                        v->op);
    return S_OK;
}

/* Sizes of member m, which must equal want (its last `rank` ones; leading ones 1). */
static HRESULT expect(const attn_view *v, const dmli_op_state *st, const attn_scratch *s, int m,
                      uint32_t rank, uint32_t most, const uint64_t *want, const char *rule)
{
    const dmli_tensor *t = member(st, s, m);
    if (!t)
        return S_OK;
    DMLI_TRY(check_rank(v, m, t, rank, most));
    const uint64_t *got = trailing(t, rank);
    for (uint32_t d = 0; d < rank; ++d) {
        if (got[d] == want[d])
            continue;
        char gb[DMLI_DIMS_BUF], wb[DMLI_DIMS_BUF];
        return dmli_fail(E_INVALIDARG, "%s: %s.Sizes (%s) must be %s (%s)", v->op, member_names[m],
                         dmli_format_dims(gb, sizeof gb, t->rank, t->sizes),
                         dmli_format_dims(wb, sizeof wb, rank, want), rule);
    }
    return S_OK;
}

/* The sizes the query and value sources name: batch, seq and the head sizes. */
static HRESULT infer_sources(const attn_view *v, const dmli_op_state *st, attn_scratch *s)
{
    uint64_t hq = v->heads, hkv = v->v1 ? v->kv_heads : v->heads;
    const dmli_tensor *q = member(st, s, s->q_src);
    if (s->q_src == M_Q) {
        DMLI_TRY(check_rank(v, M_Q, q, 3, 5));
        const uint64_t *z = trailing(q, 3);
        DMLI_INVALID_IF(z[2] % hq != 0,
                        "%s: QueryTensor.Sizes[%u] (%llu, hidden_size) must be a multiple of "
                        "the query heads (%llu)",
                        v->op, q->rank - 1, (unsigned long long)z[2], (unsigned long long)hq);
        s->batch = z[0], s->seq = z[1], s->head_size = z[2] / hq;
    } else {
        DMLI_TRY(check_rank(v, s->q_src, q, 5, 5));
        s->batch = q->sizes[0], s->seq = q->sizes[1], s->head_size = q->sizes[4];
    }
    const dmli_tensor *val = member(st, s, s->v_src);
    if (s->v_src == M_V) {
        DMLI_TRY(check_rank(v, M_V, val, 3, 5));
        const uint64_t *z = trailing(val, 3);
        DMLI_INVALID_IF(z[2] % hkv != 0,
                        "%s: ValueTensor.Sizes[%u] (%llu, value_hidden_size) must be a multiple "
                        "of the key/value heads (%llu)",
                        v->op, val->rank - 1, (unsigned long long)z[2], (unsigned long long)hkv);
        s->value_head_size = z[2] / hkv;
    } else {
        s->value_head_size = s->head_size;
    }
    return S_OK;
}

static HRESULT infer_view(const attn_view *v, dmli_op_state *st)
{
    attn_scratch *s = DMLI_OP_SCRATCH(st, attn_scratch);
    uint64_t hq = v->heads, hkv = v->v1 ? v->kv_heads : v->heads;
    DMLI_TRY(infer_sources(v, st, s));
    const uint64_t b = s->batch, sq = s->seq, d = s->head_size, e = s->value_head_size;
    if (s->q_src != M_Q) {
        const uint64_t w[5] = {b, sq, hq, s->q_src == M_QK ? 2 : 3, d};
        DMLI_TRY(expect(v, st, s, s->q_src, 5, 5, w,
                        s->q_src == M_QK ? "{batch, seq, heads, 2, head_size}"
                                         : "{batch, seq, heads, 3, head_size}"));
    }
    const dmli_tensor *k = member(st, s, s->k_src);
    if (s->k_src == M_K) {
        DMLI_TRY(check_rank(v, M_K, k, 3, 5));
        s->kv_seq = trailing(k, 3)[1];
        const uint64_t w[3] = {b, s->kv_seq, hkv * d};
        DMLI_TRY(expect(v, st, s, M_K, 3, 5, w, "{batch, kv_seq, kv_heads * head_size}"));
    } else if (s->k_src == M_KV) {
        DMLI_TRY(check_rank(v, M_KV, k, 5, 5));
        s->kv_seq = k->sizes[1];
        const uint64_t w[5] = {b, s->kv_seq, hkv, 2, d};
        DMLI_TRY(expect(v, st, s, M_KV, 5, 5, w, "{batch, kv_seq, kv_heads, 2, head_size}"));
    } else {
        s->kv_seq = sq; /* stacked with the query */
    }
    if (s->v_src == M_V) {
        const uint64_t w[3] = {b, s->kv_seq, hkv * e};
        DMLI_TRY(expect(v, st, s, M_V, 3, 5, w, "{batch, kv_seq, kv_heads * value_head_size}"));
    }
    const dmli_tensor *pk = member(st, s, M_PK);
    if (pk) {
        DMLI_TRY(check_rank(v, M_PK, pk, 4, 4));
        s->past = pk->sizes[2];
    }
    const uint64_t tot = s->past + s->kv_seq;
    const uint64_t w_bias[1] = {hq * d + hkv * d + hkv * e};
    DMLI_TRY(expect(v, st, s, M_BIAS, 1, 5, w_bias,
                    "{hidden_size + kv_hidden_size + value_hidden_size}"));
    const uint64_t w_pk[4] = {b, hkv, s->past, d}, w_pv[4] = {b, hkv, s->past, e};
    DMLI_TRY(expect(v, st, s, M_PK, 4, 4, w_pk, "{batch, kv_heads, past_seq, head_size}"));
    DMLI_TRY(expect(v, st, s, M_PV, 4, 4, w_pv, "{batch, kv_heads, past_seq, value_head_size}"));
    const uint64_t w_rpb[4] = {b, hq, sq, tot};
    DMLI_TRY(expect(v, st, s, M_RPB, 4, 4, w_rpb, "{batch, heads, seq, past_seq + kv_seq}"));
    switch (v->mask_type) {
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH: {
        const uint64_t w[2] = {1, b};
        DMLI_TRY(expect(v, st, s, M_MASK, 2, 2, w, "{1, batch} for KEY_SEQUENCE_LENGTH"));
        break;
    }
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START: {
        const uint64_t w[2] = {2, b};
        DMLI_TRY(expect(v, st, s, M_MASK, 2, 2, w, "{2, batch} for KEY_SEQUENCE_END_START"));
        break;
    }
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END: {
        const uint64_t w[1] = {b * 3 + 2};
        DMLI_TRY(expect(v, st, s, M_MASK, 1, 1, w,
                        "{batch * 3 + 2} for KEY_QUERY_SEQUENCE_LENGTH_START_END"));
        break;
    }
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN: {
        const uint64_t w[4] = {b, hq, sq, tot};
        DMLI_TRY(expect(v, st, s, M_MASK, 4, 4, w,
                        "{batch, heads, seq, past_seq + kv_seq} for BOOLEAN"));
        break;
    }
    default: break;
    }
    const uint64_t w_out[3] = {b, sq, hq * e};
    DMLI_TRY(expect(v, st, s, M_OUT, 3, 5, w_out, "{batch, seq, heads * value_head_size}"));
    const uint64_t w_prk[4] = {b, hkv, tot, d}, w_prv[4] = {b, hkv, tot, e};
    DMLI_TRY(
        expect(v, st, s, M_PRK, 4, 4, w_prk, "{batch, kv_heads, past_seq + kv_seq, head_size}"));
    DMLI_TRY(expect(v, st, s, M_PRV, 4, 4, w_prv,
                    "{batch, kv_heads, past_seq + kv_seq, value_head_size}"));
    return S_OK;
}

/* The strides of a {batch, seq, heads * size} tensor over (b, s, h, d). */
static void hidden_strides(const dmli_tensor *t, uint64_t size, int64_t *out)
{
    const int64_t *z = t->strides + (t->rank - 3);
    out[0] = z[0], out[1] = z[1], out[2] = (int64_t)size * z[2], out[3] = z[2];
}

/* Adds role's tensor: member m (its last `rank` strides), at stack index `stack` of a 5-D
 * stacked tensor (-1: not stacked). */
static void add_role(dmli_compute *c, dmli_attention *a, const dmli_op_state *st,
                     const attn_scratch *s, int role, int m, int stack, uint64_t size)
{
    const dmli_tensor *t = member(st, s, m);
    a->present[role] = t != NULL;
    if (!t) {
        dmli_compute_add(c, st, false, (uint32_t)s->slot[s->q_src]); /* stands in, unread */
        return;
    }
    dmli_compute_add(c, st, is_output(m), (uint32_t)s->slot[m]);
    int64_t *w = a->stride[role];
    if (stack >= 0) {
        w[0] = t->strides[0], w[1] = t->strides[1], w[2] = t->strides[2], w[3] = t->strides[4];
        c->tensors[c->n_tensors - 1].offset = stack * t->strides[3];
    } else if (size) {
        hidden_strides(t, size, w);
    } else {
        uint32_t n = t->rank < 4 ? t->rank : 4;
        for (uint32_t d = 0; d < n; ++d)
            w[d] = t->strides[t->rank - n + d];
    }
}

static void lower_view(const attn_view *v, dmli_op_state *st)
{
    const attn_scratch *s = DMLI_OP_SCRATCH(st, attn_scratch);
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_ATTN);
    dmli_attention *a = DMLI_COMPUTE_WORK(c, dmli_attention);
    const dmli_tensor *q = member(st, s, s->q_src);
    a->type = q->type;
    a->batch = (int64_t)s->batch, a->seq = (int64_t)s->seq, a->kv_seq = (int64_t)s->kv_seq;
    a->past = (int64_t)s->past, a->heads = v->heads;
    a->kv_heads = v->v1 ? v->kv_heads : v->heads;
    a->head_size = (int64_t)s->head_size, a->value_head_size = (int64_t)s->value_head_size;
    a->scale = v->scale, a->filter = v->filter;
    a->mask = (int)v->mask_type;
    add_role(c, a, st, s, DMLI_ATTN_Q, s->q_src, s->q_src == M_Q ? -1 : 0, s->head_size);
    add_role(c, a, st, s, DMLI_ATTN_K, s->k_src,
             s->k_src == M_K    ? -1
             : s->k_src == M_KV ? 0
                                : 1,
             s->head_size);
    add_role(c, a, st, s, DMLI_ATTN_V, s->v_src,
             s->v_src == M_V    ? -1
             : s->v_src == M_KV ? 1
                                : 2,
             s->value_head_size);
    add_role(c, a, st, s, DMLI_ATTN_BIAS, M_BIAS, -1, 0);
    add_role(c, a, st, s, DMLI_ATTN_MASK, M_MASK, -1, 0);
    const dmli_tensor *mask = member(st, s, M_MASK);
    if (mask && mask->rank == 2 && a->mask == DMLI_ATTN_MASK_KEY_LENGTH)
        a->stride[DMLI_ATTN_MASK][0] = mask->strides[1]; /* {1, batch}: over b */
    add_role(c, a, st, s, DMLI_ATTN_RPB, M_RPB, -1, 0);
    add_role(c, a, st, s, DMLI_ATTN_PK, M_PK, -1, 0);
    add_role(c, a, st, s, DMLI_ATTN_PV, M_PV, -1, 0);
    add_role(c, a, st, s, DMLI_ATTN_OUT, M_OUT, -1, s->value_head_size);
    add_role(c, a, st, s, DMLI_ATTN_PRK, M_PRK, -1, 0);
    add_role(c, a, st, s, DMLI_ATTN_PRV, M_PRV, -1, 0);
    st->computed = true;
}

/* ---- MULTIHEAD_ATTENTION ------------------------------------------------------------------ */

static attn_view mha_of(const void *desc)
{
    const DML_MULTIHEAD_ATTENTION_OPERATOR_DESC *d = desc;
    attn_view v = {"MULTIHEAD_ATTENTION",
                   false,
                   {d->QueryTensor, d->KeyTensor, d->ValueTensor, d->StackedQueryKeyTensor,
                    d->StackedKeyValueTensor, d->StackedQueryKeyValueTensor, d->BiasTensor,
                    d->MaskTensor, d->RelativePositionBiasTensor, d->PastKeyTensor,
                    d->PastValueTensor, NULL, d->OutputTensor, d->OutputPresentKeyTensor,
                    d->OutputPresentValueTensor},
                   d->Scale,
                   d->MaskFilterValue,
                   d->HeadCount,
                   d->HeadCount,
                   d->MaskType};
    return v;
}

static HRESULT validate_mha(const void *desc, dmli_op_state *st)
{
    attn_view v = mha_of(desc);
    return validate_view(&v, st);
}

static HRESULT infer_mha(const void *desc, dmli_op_state *st)
{
    attn_view v = mha_of(desc);
    return infer_view(&v, st);
}

static void lower_mha(const void *desc, dmli_op_state *st)
{
    attn_view v = mha_of(desc);
    lower_view(&v, st);
}

const dmli_op_steps dmli_op_multihead_attention = {
    .validate = validate_mha, .infer = infer_mha, .lower = lower_mha};

/* ---- MULTIHEAD_ATTENTION1 ----------------------------------------------------------------- */

static attn_view mha1_of(const void *desc)
{
    const DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC *d = desc;
    attn_view v = {"MULTIHEAD_ATTENTION1",
                   true,
                   {d->QueryTensor, d->KeyTensor, d->ValueTensor, d->StackedQueryKeyTensor,
                    d->StackedKeyValueTensor, d->StackedQueryKeyValueTensor, d->BiasTensor,
                    d->MaskTensor, d->RelativePositionBiasTensor, d->PastKeyTensor,
                    d->PastValueTensor, d->PastSequenceLengthsTensor, d->OutputTensor,
                    d->OutputPresentKeyTensor, d->OutputPresentValueTensor},
                   d->Scale,
                   d->MaskFilterValue,
                   d->QueryHeadCount,
                   d->KeyValueHeadCount,
                   d->MaskType};
    return v;
}

static HRESULT validate_mha1(const void *desc, dmli_op_state *st)
{
    attn_view v = mha1_of(desc);
    return validate_view(&v, st);
}

static HRESULT infer_mha1(const void *desc, dmli_op_state *st)
{
    attn_view v = mha1_of(desc);
    return infer_view(&v, st);
}

static void lower_mha1(const void *desc, dmli_op_state *st)
{
    attn_view v = mha1_of(desc);
    lower_view(&v, st);
}

const dmli_op_steps dmli_op_multihead_attention1 = {
    .validate = validate_mha1, .infer = infer_mha1, .lower = lower_mha1};
