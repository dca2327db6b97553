/* SPDX-License-Identifier: MIT */
/* The multi-head attention oracle (ref_attention.h): every value in double. */
#include "ref_attention.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Key (or value) row element: the past's for t < past, else the new tensor's plus its bias. */
static double kv_elem(const ref_attention_desc *d, const double *now, const double *past,
                      const double *bias, uint32_t bias_at, uint32_t width, uint32_t b, uint32_t hk,
                      uint32_t t, uint32_t i)
{
    if (t < d->past)
        return past[(((uint64_t)b * d->kv_heads + hk) * d->past + t) * width + i];
    uint32_t tn = t - d->past;
    double x = now[(((uint64_t)b * d->kv_seq + tn) * d->kv_heads + hk) * width + i];
    return x + (bias ? bias[bias_at + hk * width + i] : 0.0);
}

static bool hidden(const ref_attention_desc *d, const int32_t *mask, uint32_t b, uint32_t h,
                   uint32_t s, uint32_t t)
{
    uint32_t total = d->past + d->kv_seq;
    switch (d->mask_type) {
    case 1: /* KEY_SEQUENCE_LENGTH */
    case 3: /* KEY_QUERY_SEQUENCE_LENGTH_START_END: its key lengths */ return (int64_t)t >= mask[b];
    case 2: /* KEY_SEQUENCE_END_START */
        return (int64_t)t >= mask[b] || (int64_t)t < mask[d->batch + b];
    case 4: /* BOOLEAN */ return mask[(((uint64_t)b * d->heads + h) * d->seq + s) * total + t] == 0;
    default: return false;
    }
}

void ref_attention(const ref_attention_desc *d, const double *q, const double *k, const double *v,
                   const double *bias, const int32_t *mask, const double *rpb, const double *pk,
                   const double *pv, double *out, double *prk, double *prv)
{
    const uint32_t total = d->past + d->kv_seq, group = d->heads / d->kv_heads;
    const uint32_t kbias = d->heads * d->head, vbias = kbias + d->kv_heads * d->head;
    double *x = malloc(sizeof *x * (total ? total : 1));
    for (uint32_t b = 0; b < d->batch; ++b)
        for (uint32_t h = 0; h < d->heads; ++h)
            for (uint32_t s = 0; s < d->seq; ++s) {
                uint32_t hk = h / group;
                double top = -INFINITY;
                for (uint32_t t = 0; t < total; ++t) {
                    double dot = 0.0;
                    for (uint32_t i = 0; i < d->head; ++i) {
                        double qi = q[(((uint64_t)b * d->seq + s) * d->heads + h) * d->head + i];
                        qi += bias ? bias[h * d->head + i] : 0.0;
                        dot += qi * kv_elem(d, k, pk, bias, kbias, d->head, b, hk, t, i);
                    }
                    x[t] = dot * d->scale;
                    if (rpb)
                        x[t] += rpb[(((uint64_t)b * d->heads + h) * d->seq + s) * total + t];
                    if (mask && hidden(d, mask, b, h, s, t))
                        x[t] += d->filter;
                    top = x[t] > top ? x[t] : top;
                }
                double sum = 0.0;
                for (uint32_t t = 0; t < total; ++t)
                    sum += exp(x[t] - top);
                for (uint32_t e = 0; e < d->vhead; ++e) {
                    double acc = 0.0;
                    for (uint32_t t = 0; t < total; ++t)
                        acc += exp(x[t] - top) / sum *
                               kv_elem(d, v, pv, bias, vbias, d->vhead, b, hk, t, e);
                    out[(((uint64_t)b * d->seq + s) * d->heads + h) * d->vhead + e] = acc;
                }
            }
    for (uint32_t b = 0; b < d->batch; ++b)
        for (uint32_t hk = 0; hk < d->kv_heads; ++hk)
            for (uint32_t t = 0; t < total; ++t) {
                uint64_t row = ((uint64_t)b * d->kv_heads + hk) * total + t;
                for (uint32_t i = 0; prk && i < d->head; ++i)
                    prk[row * d->head + i] = kv_elem(d, k, pk, bias, kbias, d->head, b, hk, t, i);
                for (uint32_t e = 0; prv && e < d->vhead; ++e)
                    prv[row * d->vhead + e] = kv_elem(d, v, pv, bias, vbias, d->vhead, b, hk, t, e);
            }
    free(x);
}
