/* SPDX-License-Identifier: MIT */
/*
 * The attention family (src/ops/attention.c, src/launch_attention.c): MULTIHEAD_ATTENTION and
 * MULTIHEAD_ATTENTION1. One work-group per (query position s, batch b * heads + head h) (grid
 * dimensions 1 and 2) computes output row (b, s, h): its items write the row's scores
 *   x_t = Scale * (q + bias_q) . (k_t + bias_k) + RPB[b, h, s, t] (+ MaskFilterValue, masked)
 * for key positions t = lid, lid + items, ... into local memory (a key t < past from PastKey,
 * else KeyTensor's row t - past), then, after a barrier, each item finds the row's maximum m
 * and sum S = sum_t exp(x_t - m) in order t = 0, 1, ... (every item alike: no second barrier,
 * the same values on every device class) and writes output columns e = lid, lid + items, ...:
 * sum_t exp(x_t - m) * (v_t + bias_v)[e] / S. Group (s, b * heads + h) with h the first query
 * head of its key/value head also writes present rows t = s, s + seq, ... of OutputPresentKey
 * and OutputPresentValue (the past rows, then the new rows with their bias): every present
 * element is written once. FLOAT16 tensors are read into float32; everything computes in
 * float32.
 *
 * Macros (src/launch_attention.c): T the storage type (ushort for FLOAT16, with HALF 1); TMAX
 * the scores' bucket (>= the total sequence length); MASK the mask's kind (cl/attention_abi.h);
 * HAS_BIAS, HAS_RPB, HAS_PAST, HAS_PRK, HAS_PRV the tensors present. Sizes, strides, Scale and
 * MaskFilterValue are in the table (cl/attention_abi.h): one compile serves every shape of a
 * bucket.
 */
#include "attention_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef T
#define T float
#endif
#ifndef HALF
#define HALF 0
#endif
#ifndef TMAX
#define TMAX 64
#endif
#ifndef MASK
#define MASK 0
#endif
#ifndef HAS_BIAS
#define HAS_BIAS 0
#endif
#ifndef HAS_RPB
#define HAS_RPB 0
#endif
#ifndef HAS_PAST
#define HAS_PAST 0
#endif
#ifndef HAS_PRK
#define HAS_PRK 0
#endif
#ifndef HAS_PRV
#define HAS_PRV 0
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0

#if HALF
#include "half.cl"
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#define STORE(p, i, v) dmli_store_half((__global ushort *)(p), (i), (v))
#else
#define LOAD(p, i) ((float)(p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = (T)(v))
#endif

/* Element (a, b, c, d) of role's tensor, in elements from its base. */
#define AT(role, a, b, c, d)                                                 \
    ((a)*tb[DMLI_ATTN_STRIDE(role, 0)] + (b)*tb[DMLI_ATTN_STRIDE(role, 1)] + \
     (c)*tb[DMLI_ATTN_STRIDE(role, 2)] + (d)*tb[DMLI_ATTN_STRIDE(role, 3)])

#if HAS_BIAS
#define BIAS(i) LOAD(bias, AT(DMLI_ATTN_BIAS, (i), 0, 0, 0))
#else
#define BIAS(i) 0.0f
#endif

/* Key element d of key/value head hk at key position t (the past's, else the new key's). */
static float key_at(__constant long *tb, __global const T *k, __global const T *bias,
                    __global const T *pk, long b, long hk, long t, long d)
{
    const long past = tb[DMLI_ATTN_PAST];
#if HAS_PAST
    if (t < past)
        return LOAD(pk, AT(DMLI_ATTN_PK, b, hk, t, d));
#endif
    const long hd = tb[DMLI_ATTN_HEAD_SIZE];
    const long at = tb[DMLI_ATTN_HEADS] * hd + hk * hd + d;
    return LOAD(k, AT(DMLI_ATTN_K, b, t - past, hk, d)) + BIAS(at);
}

/* Value element e of key/value head hk at key position t. */
static float value_at(__constant long *tb, __global const T *v, __global const T *bias,
                      __global const T *pv, long b, long hk, long t, long e)
{
    const long past = tb[DMLI_ATTN_PAST];
#if HAS_PAST
    if (t < past)
        return LOAD(pv, AT(DMLI_ATTN_PV, b, hk, t, e));
#endif
    const long hd = tb[DMLI_ATTN_HEAD_SIZE], vd = tb[DMLI_ATTN_VALUE_HEAD_SIZE];
    const long at = (tb[DMLI_ATTN_HEADS] + tb[DMLI_ATTN_KV_HEADS]) * hd + hk * vd + e;
    return LOAD(v, AT(DMLI_ATTN_V, b, t - past, hk, e)) + BIAS(at);
}

/* Whether the mask hides key position t from query (b, h, s). */
static bool masked(__constant long *tb, __global const int *mask, long b, long h, long s, long t)
{
#if MASK == DMLI_ATTN_MASK_KEY_LENGTH || MASK == DMLI_ATTN_MASK_KEY_QUERY
    return t >= (long)mask[AT(DMLI_ATTN_MASK, b, 0, 0, 0)];
#elif MASK == DMLI_ATTN_MASK_END_START
    return t >= (long)mask[AT(DMLI_ATTN_MASK, 0, b, 0, 0)] ||
           t < (long)mask[AT(DMLI_ATTN_MASK, 1, b, 0, 0)];
#elif MASK == DMLI_ATTN_MASK_BOOLEAN
    return mask[AT(DMLI_ATTN_MASK, b, h, s, t)] == 0;
#else
    return false;
#endif
}

/* Query (b, h, s)'s score of key position t: Scale * (q + bias_q) . (k_t + bias_k) [+ RPB]
 * [+ MaskFilterValue where the mask hides t]. */
static float score_at(__constant long *tb, __global const T *q, __global const T *k,
                      __global const T *bias, __global const int *mask, __global const T *rpb,
                      __global const T *pk, long b, long h, long hk, long s, long t)
{
    const long hd = tb[DMLI_ATTN_HEAD_SIZE];
    float dot = 0.0f;
    for (long d = 0; d < hd; ++d)
        dot += (LOAD(q, AT(DMLI_ATTN_Q, b, s, h, d)) + BIAS(h * hd + d)) *
               key_at(tb, k, bias, pk, b, hk, t, d);
    float x = dot * as_float((uint)tb[DMLI_ATTN_SCALE]);
#if HAS_RPB
    x += LOAD(rpb, AT(DMLI_ATTN_RPB, b, h, s, t));
#else
    (void)rpb;
#endif
    if (masked(tb, mask, b, h, s, t))
        x += as_float((uint)tb[DMLI_ATTN_FILTER]);
    return x;
}

/* Group (s, b * heads + h)'s present rows t = s, s + seq, ... (h the first query head of its
 * key/value head): the past rows, then the new ones with their bias; items lid, lid + items. */
static void present_rows(__constant long *tb, __global const T *k, __global const T *v,
                         __global const T *bias, __global const T *pk, __global const T *pv,
                         __global T *prk, __global T *prv, long b, long hk, long s, long lid,
                         long items)
{
    const long seq = tb[DMLI_ATTN_SEQ], total = tb[DMLI_ATTN_PAST] + tb[DMLI_ATTN_KV_SEQ];
    const long hd = tb[DMLI_ATTN_HEAD_SIZE], vd = tb[DMLI_ATTN_VALUE_HEAD_SIZE];
    (void)k, (void)v, (void)bias, (void)pk, (void)pv, (void)prk, (void)prv, (void)hd, (void)vd;
    for (long t = s; t < total; t += seq) {
#if HAS_PRK
        for (long d = lid; d < hd; d += items)
            STORE(prk, AT(DMLI_ATTN_PRK, b, hk, t, d), key_at(tb, k, bias, pk, b, hk, t, d));
#endif
#if HAS_PRV
        for (long e = lid; e < vd; e += items)
            STORE(prv, AT(DMLI_ATTN_PRV, b, hk, t, e), value_at(tb, v, bias, pv, b, hk, t, e));
#endif
    }
}

__kernel void attention(__constant long *tb, __global const T *q, long qb, __global const T *k,
                        long kb, __global const T *v, long vb, __global const T *bias, long bb,
                        __global const int *mask, long mb, __global const T *rpb, long rb,
                        __global const T *pk, long pkb, __global const T *pv, long pvb,
                        __global T *out, long ob, __global T *prk, long prkb, __global T *prv,
                        long prvb)
{
    __local float score[TMAX];
    q += qb;
    k += kb;
    v += vb;
    bias += bb;
    mask += mb;
    rpb += rb;
    pk += pkb;
    pv += pvb;
    out += ob;
    prk += prkb;
    prv += prvb;
    const long heads = tb[DMLI_ATTN_HEADS];
    const long total = tb[DMLI_ATTN_PAST] + tb[DMLI_ATTN_KV_SEQ];
    const long vd = tb[DMLI_ATTN_VALUE_HEAD_SIZE];
    const long group = heads / tb[DMLI_ATTN_KV_HEADS];
    const long s = get_group_id(1), b = get_group_id(2) / heads, h = get_group_id(2) % heads;
    const long hk = h / group;
    const long lid = get_local_id(0), items = get_local_size(0);

    for (long t = lid; t < total; t += items)
        score[t] = score_at(tb, q, k, bias, mask, rpb, pk, b, h, hk, s, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    float m = -INFINITY;
    for (long t = 0; t < total; ++t)
        m = fmax(m, score[t]);
    float sum = 0.0f;
    for (long t = 0; t < total; ++t)
        sum += exp(score[t] - m);
    for (long e = lid; e < vd; e += items) {
        float acc = 0.0f;
        for (long t = 0; t < total; ++t)
            acc += exp(score[t] - m) * value_at(tb, v, bias, pv, b, hk, t, e);
        STORE(out, AT(DMLI_ATTN_OUT, b, s, h, e), acc / sum);
    }
    if (h % group == 0)
        present_rows(tb, k, v, bias, pk, pv, prk, prv, b, hk, s, lid, items);
}

#ifndef VDMAX
#define VDMAX 64
#endif
#ifndef KDMAX
#define KDMAX 64
#endif
/* Element role[base + i * stride], a key's or value's (bias added where the row is a new one,
 * not the past's). */
#define S(role, d) tb[DMLI_ATTN_STRIDE(role, d)]

/* Row t's score of query row qv (its values with their bias, hd of them): the operations of
 * score_at in its order, the row's key through base pointers and strides. */
static float row_score(__constant long *tb, const float *qv, __global const T *k,
                       __global const T *pk, const float *kbias, __global const int *mask,
                       __global const T *rpb, long b, long h, long hk, long s, long t)
{
    const long hd = tb[DMLI_ATTN_HEAD_SIZE], past = tb[DMLI_ATTN_PAST];
    float dot = 0.0f;
#if HAS_PAST
    if (t < past) {
        const long at = AT(DMLI_ATTN_PK, b, hk, t, 0), st = S(DMLI_ATTN_PK, 3);
        for (long d = 0; d < hd; ++d)
            dot += qv[d] * LOAD(pk, at + d * st);
    } else
#endif
    {
        const long at = AT(DMLI_ATTN_K, b, t - past, hk, 0), st = S(DMLI_ATTN_K, 3);
        for (long d = 0; d < hd; ++d)
            dot += qv[d] * (LOAD(k, at + d * st) + kbias[d]);
    }
    (void)pk;
    float x = dot * as_float((uint)tb[DMLI_ATTN_SCALE]);
#if HAS_RPB
    x += LOAD(rpb, AT(DMLI_ATTN_RPB, b, h, s, t));
#else
    (void)rpb;
#endif
    if (masked(tb, mask, b, h, s, t))
        x += as_float((uint)tb[DMLI_ATTN_FILTER]);
    return x;
}

/*
 * attention_rows (CPUs): a work-item per query row (grid dimension 0: query positions s, in
 * work-groups the device runs as vector lanes; 1: b * heads + h), no local memory or barriers
 * (any total sequence length). The query row with its bias, and the key's and value's biases,
 * are read once into private arrays (KDMAX, VDMAX: the head sizes' buckets); the rows walk
 * their keys and values through base pointers and strides. Two passes over the keys: the row's
 * maximum m of the scores, then, each score computed again, exp(x_t - m) summed in order
 * t = 0, 1, ... and sum_t exp(x_t - m) * (v_t + bias_v)[e] accumulated a column at a time in
 * private floats: the same operations in the same order as attention's, so the same bits. An
 * item with h the first query head of its key/value head writes its present rows.
 */
__kernel void attention_rows(__constant long *tb, __global const T *q, long qb, __global const T *k,
                             long kb, __global const T *v, long vb, __global const T *bias, long bb,
                             __global const int *mask, long mb, __global const T *rpb, long rb,
                             __global const T *pk, long pkb, __global const T *pv, long pvb,
                             __global T *out, long ob, __global T *prk, long prkb, __global T *prv,
                             long prvb)
{
    q += qb;
    k += kb;
    v += vb;
    bias += bb;
    mask += mb;
    rpb += rb;
    pk += pkb;
    pv += pvb;
    out += ob;
    prk += prkb;
    prv += prvb;
    const long seq = tb[DMLI_ATTN_SEQ], heads = tb[DMLI_ATTN_HEADS],
               kv_heads = tb[DMLI_ATTN_KV_HEADS];
    const long past = tb[DMLI_ATTN_PAST], total = past + tb[DMLI_ATTN_KV_SEQ];
    const long hd = tb[DMLI_ATTN_HEAD_SIZE], vd = tb[DMLI_ATTN_VALUE_HEAD_SIZE];
    const long group = heads / kv_heads;
    const long s = get_global_id(0), b = get_global_id(1) / heads, h = get_global_id(1) % heads;
    if (s >= seq)
        return;
    const long hk = h / group;
    float qv[KDMAX], kbias[KDMAX], vbias[VDMAX], acc[VDMAX];
    for (long d = 0; d < hd; ++d) {
        qv[d] = LOAD(q, AT(DMLI_ATTN_Q, b, s, h, d)) + BIAS(h * hd + d);
        kbias[d] = BIAS(heads * hd + hk * hd + d);
    }
    for (long e = 0; e < vd; ++e) {
        vbias[e] = BIAS((heads + kv_heads) * hd + hk * vd + e);
        acc[e] = 0.0f;
    }
    float m = -INFINITY;
    for (long t = 0; t < total; ++t)
        m = fmax(m, row_score(tb, qv, k, pk, kbias, mask, rpb, b, h, hk, s, t));
    float sum = 0.0f;
    for (long t = 0; t < total; ++t) {
        const float p = exp(row_score(tb, qv, k, pk, kbias, mask, rpb, b, h, hk, s, t) - m);
        sum += p;
#if HAS_PAST
        if (t < past) {
            const long at = AT(DMLI_ATTN_PV, b, hk, t, 0), st = S(DMLI_ATTN_PV, 3);
            for (long e = 0; e < vd; ++e)
                acc[e] += p * LOAD(pv, at + e * st);
            continue;
        }
#endif
        const long at = AT(DMLI_ATTN_V, b, t - past, hk, 0), st = S(DMLI_ATTN_V, 3);
        for (long e = 0; e < vd; ++e)
            acc[e] += p * (LOAD(v, at + e * st) + vbias[e]);
    }
    for (long e = 0; e < vd; ++e)
        STORE(out, AT(DMLI_ATTN_OUT, b, s, h, e), acc[e] / sum);
    if (h % group == 0)
        present_rows(tb, k, v, bias, pk, pv, prk, prv, b, hk, s, 0, 1);
}
