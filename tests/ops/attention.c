/* SPDX-License-Identifier: MIT */
/*
 * MULTIHEAD_ATTENTION and MULTIHEAD_ATTENTION1 on the device against the oracle
 * (tests/ref/ref_attention.c, double): every query/key/value form (separate, stacked query and
 * key, stacked key and value, stacked all three), Bias, each mask kind, RelativePositionBias,
 * PastKey/PastValue with the present outputs, grouped-query heads, FLOAT16, strided tensors
 * (the innermost run padded) and a total sequence past a work-group. Inputs are random in
 * [-1, 1] from a printed, overridable seed (DMLCL_TEST_SEED); outputs are poisoned first.
 *
 * Tolerance (reference/precision.md, composed): a score x = Scale * q . k is a GEMM over
 * K = head_size terms (2K ULP, +1 for Scale) of at most X = Scale * 4K (|q + bias|,
 * |k + bias| <= 2), then + RelativePositionBias (1 ULP of |x| <= X + 1): |dx| <= (2K + 3) *
 * 2^-24 * (X + 1). The softmax over N = total keys is 3N + 3 ULP of each probability, and a
 * score error dx moves each probability by at most 2|dx| relative; the product with V is a
 * GEMM over N (2N ULP of sum_t p_t |v_t| <= 2). So |d out| <= 2 * (2 * |dx| + (5N + 3) *
 * 2^-24). Masked keys add MaskFilterValue (-10000): exp(-10000) is 0 in either precision, so
 * every row here keeps a key unmasked and the filter's rounding does not count. FLOAT16 adds
 * the output's rounding, 2^-11 relative. The present outputs are copies (+ Bias: 1 ULP).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "ref_attention.h"
#include "ref_broadcast.h"

OPS_DEVICE_SUITE(attention);

typedef enum form { SEPARATE, STACKED_QK, STACKED_KV, STACKED_QKV } form;

typedef struct attn_case {
    const char *name;
    ref_attention_desc d;
    DML_TENSOR_DATA_TYPE type;
    form form;
    bool v1, bias, rpb, past, prk, prv, strided;
} attn_case;

/* A tensor of the case: its sizes, strides and host buffer. */
typedef struct abuf {
    DML_TENSOR_DESC desc;
    DML_BUFFER_TENSOR_DESC buffer;
    UINT rank, sizes[5], strides[5];
    unsigned char *data;
    uint64_t bytes, count;
    double *values; /* packed logical values (inputs: as stored) */
} abuf;

static void buf_make(abuf *b, DML_TENSOR_DATA_TYPE type, UINT rank, const UINT *sizes, bool strided)
{
    memset(b, 0, sizeof *b);
    b->rank = rank;
    memcpy(b->sizes, sizes, rank * sizeof *sizes);
    uint64_t stride = 1;
    b->count = 1;
    for (int d = (int)rank - 1; d >= 0; --d) {
        b->strides[d] = (UINT)stride;
        stride *= sizes[d] + (d == (int)rank - 1 && strided ? 3 : 0);
        b->count *= sizes[d];
    }
    b->buffer.DataType = type;
    b->buffer.DimensionCount = rank;
    b->buffer.Sizes = b->sizes;
    b->buffer.Strides = strided ? b->strides : NULL;
    b->buffer.TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(type, rank, b->sizes, b->buffer.Strides);
    b->desc.Type = DML_TENSOR_TYPE_BUFFER;
    b->desc.Desc = &b->buffer;
    b->bytes = b->buffer.TotalTensorSizeInBytes;
    b->data = calloc(1, b->bytes);
    b->values = calloc(b->count, sizeof *b->values);
    cr_assert(b->data && b->values);
}

static uint64_t buf_offset(const abuf *b, uint64_t i)
{
    uint64_t off = 0;
    for (int d = (int)b->rank - 1; d >= 0; --d) {
        off += (i % b->sizes[d]) * b->strides[d];
        i /= b->sizes[d];
    }
    return off;
}

static void buf_store(abuf *b, uint64_t i, double v)
{
    uint64_t off = buf_offset(b, i);
    if (b->buffer.DataType == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(b->data + off * 2, &h, 2);
        b->values[i] = ref_half_to_double(h);
    } else if (b->buffer.DataType == DML_TENSOR_DATA_TYPE_INT32) {
        int32_t u = (int32_t)v;
        memcpy(b->data + off * 4, &u, 4);
        b->values[i] = v;
    } else {
        float f = (float)v;
        memcpy(b->data + off * 4, &f, 4);
        b->values[i] = f;
    }
}

static double buf_load(const abuf *b, uint64_t i)
{
    uint64_t off = buf_offset(b, i);
    if (b->buffer.DataType == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, b->data + off * 2, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, b->data + off * 4, 4);
    return f;
}

static void buf_random(abuf *b, ref_rng *rng)
{
    for (uint64_t i = 0; i < b->count; ++i)
        buf_store(b, i, (double)ref_rng_below(rng, 1u << 20) / (1u << 19) - 1.0);
}

static void buf_free(abuf *b)
{
    free(b->data);
    free(b->values);
}

/* The descriptor's members (MULTIHEAD_ATTENTION1's order; the first has no PSL). */
enum { Q, K, V, QK, KV, QKV, BIAS, MASK, RPB, PK, PV, PSL, OUT, PRK, PRV, MEMBERS };

/* Element (b, t, h, i) of a {batch, n, heads, width} view of a separate or stacked tensor. */
static double unstack(const abuf *t, bool stacked, uint32_t n, uint32_t heads, uint32_t width,
                      uint32_t stack, uint32_t b, uint32_t s, uint32_t h, uint32_t i)
{
    if (!stacked)
        return t->values[(((uint64_t)b * n + s) * heads + h) * width + i];
    uint32_t depth = t->sizes[3];
    return t->values[((((uint64_t)b * n + s) * heads + h) * depth + stack) * width + i];
}

static double *gather(const abuf *t, bool stacked, uint32_t batch, uint32_t n, uint32_t heads,
                      uint32_t width, uint32_t stack)
{
    double *out = malloc(sizeof *out * batch * n * heads * width + 1);
    uint64_t o = 0;
    for (uint32_t b = 0; b < batch; ++b)
        for (uint32_t s = 0; s < n; ++s)
            for (uint32_t h = 0; h < heads; ++h)
                for (uint32_t i = 0; i < width; ++i)
                    out[o++] = unstack(t, stacked, n, heads, width, stack, b, s, h, i);
    return out;
}

/* Mask entries a case's kind takes (every row keeps a key unmasked). */
static void fill_mask(abuf *m, const ref_attention_desc *d, ref_rng *rng)
{
    uint32_t total = d->past + d->kv_seq;
    switch (d->mask_type) {
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH:
        for (uint32_t b = 0; b < d->batch; ++b)
            buf_store(m, b, 1 + (double)ref_rng_below(rng, total + 1)); /* past the end too */
        break;
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START:
        for (uint32_t b = 0; b < d->batch; ++b) {
            uint32_t start = (uint32_t)ref_rng_below(rng, total);
            buf_store(m, b, start + 1 + (double)ref_rng_below(rng, total - start));
            buf_store(m, d->batch + b, start);
        }
        break;
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END:
        for (uint64_t i = 0; i < m->count; ++i)
            buf_store(m, i, i < d->batch ? 1 + (double)ref_rng_below(rng, total) : (double)i);
        break;
    case DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN:
        for (uint64_t i = 0; i < m->count; ++i)
            buf_store(m, i, i % total == 0 ? 1 : (double)ref_rng_below(rng, 2));
        break;
    default: break;
    }
}

static void run_case(const attn_case *c)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x4d4841));
    const ref_attention_desc *d = &c->d;
    const UINT b = d->batch, s = d->seq, kv = d->kv_seq, hq = d->heads, hkv = d->kv_heads;
    const UINT e = d->head, ve = d->vhead, total = d->past + kv;
    bool present[MEMBERS] = {0};
    present[Q] = c->form == SEPARATE || c->form == STACKED_KV;
    present[K] = c->form == SEPARATE;
    present[V] = c->form == SEPARATE || c->form == STACKED_QK;
    present[QK] = c->form == STACKED_QK;
    present[KV] = c->form == STACKED_KV;
    present[QKV] = c->form == STACKED_QKV;
    present[BIAS] = c->bias;
    present[MASK] = d->mask_type != 0;
    present[RPB] = c->rpb;
    present[PK] = present[PV] = c->past;
    present[OUT] = true;
    present[PRK] = c->prk;
    present[PRV] = c->prv;
    const UINT shapes[MEMBERS][5] = {
        {b, s, hq * e},     {b, kv, hkv * e},     {b, kv, hkv * ve},         {b, s, hq, 2, e},
        {b, kv, hkv, 2, e}, {b, s, hq, 3, e},     {hq * e + hkv * (e + ve)}, {0},
        {b, hq, s, total},  {b, hkv, d->past, e}, {b, hkv, d->past, ve},     {b},
        {b, s, hq * ve},    {b, hkv, total, e},   {b, hkv, total, ve}};
    const UINT ranks[MEMBERS] = {3, 3, 3, 5, 5, 5, 1, 0, 4, 4, 4, 1, 3, 4, 4};
    abuf t[MEMBERS];
    for (int m = 0; m < MEMBERS; ++m) {
        if (!present[m])
            continue;
        if (m == MASK) {
            UINT ms[4], mr;
            switch (d->mask_type) {
            case 1: mr = 2, ms[0] = 1, ms[1] = b; break;
            case 2: mr = 2, ms[0] = 2, ms[1] = b; break;
            case 3: mr = 1, ms[0] = 3 * b + 2; break;
            default: mr = 4, ms[0] = b, ms[1] = hq, ms[2] = s, ms[3] = total; break;
            }
            buf_make(&t[m], DML_TENSOR_DATA_TYPE_INT32, mr, ms, c->strided);
            fill_mask(&t[m], d, &rng);
            continue;
        }
        buf_make(&t[m], c->type, ranks[m], shapes[m], c->strided);
        if (m < OUT)
            buf_random(&t[m], &rng);
        else
            memset(t[m].data, 0xA5, t[m].bytes); /* poison: every element must be written */
    }
#define TD(m) (present[m] ? &t[m].desc : NULL)
    DML_MULTIHEAD_ATTENTION_OPERATOR_DESC mha = {TD(Q),
                                                 TD(K),
                                                 TD(V),
                                                 TD(QK),
                                                 TD(KV),
                                                 TD(QKV),
                                                 TD(BIAS),
                                                 TD(MASK),
                                                 TD(RPB),
                                                 TD(PK),
                                                 TD(PV),
                                                 TD(OUT),
                                                 TD(PRK),
                                                 TD(PRV),
                                                 (FLOAT)d->scale,
                                                 (FLOAT)d->filter,
                                                 hq,
                                                 (DML_MULTIHEAD_ATTENTION_MASK_TYPE)d->mask_type};
    DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC mha1 = {TD(Q),
                                                   TD(K),
                                                   TD(V),
                                                   TD(QK),
                                                   TD(KV),
                                                   TD(QKV),
                                                   TD(BIAS),
                                                   TD(MASK),
                                                   TD(RPB),
                                                   TD(PK),
                                                   TD(PV),
                                                   NULL,
                                                   TD(OUT),
                                                   TD(PRK),
                                                   TD(PRV),
                                                   (FLOAT)d->scale,
                                                   (FLOAT)d->filter,
                                                   hq,
                                                   hkv,
                                                   (DML_MULTIHEAD_ATTENTION_MASK_TYPE)d->mask_type};
#undef TD
    DML_OPERATOR_DESC op = c->v1 ? (DML_OPERATOR_DESC){DML_OPERATOR_MULTIHEAD_ATTENTION1, &mha1}
                                 : (DML_OPERATOR_DESC){DML_OPERATOR_MULTIHEAD_ATTENTION, &mha};
    dmlcl_host_tensor hin[12], hout[3];
    UINT n_in = 0;
    for (int m = 0; m < OUT; ++m) {
        if (m == PSL && !c->v1)
            continue;
        hin[n_in++] =
            present[m] ? (dmlcl_host_tensor){t[m].data, t[m].bytes} : (dmlcl_host_tensor){NULL, 0};
    }
    for (int m = OUT; m < MEMBERS; ++m)
        hout[m - OUT] =
            present[m] ? (dmlcl_host_tensor){t[m].data, t[m].bytes} : (dmlcl_host_tensor){NULL, 0};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &op, &o);
    cr_assert_eq(hr, S_OK, "%s: create: %s", c->name, dmlcl_last_error());
    hr = dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co);
    cr_assert_eq(hr, S_OK, "%s: compile: %s", c->name, dmlcl_last_error());
    hr = dmlcl_compiled_operator_execute(co, n_in, hin, 3, hout);
    cr_assert_eq(hr, S_OK, "%s: execute: %s", c->name, dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);

    /* The oracle's packed operands. */
    const abuf *qs = present[Q] ? &t[Q] : present[QK] ? &t[QK] : &t[QKV];
    const abuf *ks = present[K] ? &t[K] : present[QK] ? &t[QK] : present[KV] ? &t[KV] : &t[QKV];
    const abuf *vs = present[V] ? &t[V] : present[KV] ? &t[KV] : &t[QKV];
    double *q = gather(qs, !present[Q], b, s, hq, e, 0);
    double *k = gather(ks, !present[K], b, kv, hkv, e, present[KV] ? 0 : 1);
    double *v = gather(vs, !present[V], b, kv, hkv, ve, present[KV] ? 1 : 2);
    int32_t *mask = NULL;
    if (present[MASK]) {
        mask = malloc(sizeof *mask * t[MASK].count);
        for (uint64_t i = 0; i < t[MASK].count; ++i)
            mask[i] = (int32_t)t[MASK].values[i];
    }
    double *out = calloc((size_t)b * s * hq * ve, sizeof *out);
    double *prk = calloc((size_t)b * hkv * total * e + 1, sizeof *prk);
    double *prv = calloc((size_t)b * hkv * total * ve + 1, sizeof *prv);
    ref_attention(d, q, k, v, present[BIAS] ? t[BIAS].values : NULL, mask,
                  present[RPB] ? t[RPB].values : NULL, present[PK] ? t[PK].values : NULL,
                  present[PV] ? t[PV].values : NULL, out, prk, prv);

    double x = fabs(d->scale) * 4.0 * e + (c->rpb ? 1.0 : 0.0);
    double dx = (2.0 * e + 3) * ldexp(1.0, -24) * (x + 1);
    double atol = 2.0 * (2.0 * dx + (5.0 * total + 3) * ldexp(1.0, -24));
    double rtol = c->type == DML_TENSOR_DATA_TYPE_FLOAT16 ? ldexp(1.0, -11) : 0.0;
    const double *want[3] = {out, prk, prv};
    static const char *const names[3] = {"Output", "OutputPresentKey", "OutputPresentValue"};
    for (int m = OUT; m < MEMBERS; ++m) {
        if (!present[m])
            continue;
        double tol_abs = m == OUT ? atol : 0.0;
        double tol_rel = m == OUT ? rtol
                                  : (c->type == DML_TENSOR_DATA_TYPE_FLOAT16 ? ldexp(1.0, -11)
                                                                             : ldexp(1.0, -24));
        for (uint64_t i = 0; i < t[m].count; ++i) {
            double got = buf_load(&t[m], i), w = want[m - OUT][i];
            cr_assert(fabs(got - w) <= tol_abs + tol_rel * fabs(w),
                      "%s: %s element %llu: got %.9g, want %.9g (tolerance %.3g)", c->name,
                      names[m - OUT], (unsigned long long)i, got, w, tol_abs + tol_rel * fabs(w));
        }
    }
    free(q), free(k), free(v), free(mask), free(out), free(prk), free(prv);
    for (int m = 0; m < MEMBERS; ++m)
        if (present[m])
            buf_free(&t[m]);
}

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define DESC(B, S, KV, P, H, HKV, E, VE, MT)                                                   \
    {                                                                                          \
        .batch = B, .seq = S, .kv_seq = KV, .past = P, .heads = H, .kv_heads = HKV, .head = E, \
        .vhead = VE, .scale = 1.0 / sqrt(E), .filter = -10000.0, .mask_type = MT               \
    }

Test(attention, separate_plain)
{
    attn_case c = {.name = "separate", .d = DESC(2, 3, 5, 0, 2, 2, 4, 3, 0), .type = F32};
    run_case(&c);
}

Test(attention, separate_bias_rpb_strided)
{
    attn_case c = {.name = "separate bias rpb strided",
                   .d = DESC(2, 4, 3, 0, 3, 3, 2, 5, 0),
                   .type = F32,
                   .bias = true,
                   .rpb = true,
                   .strided = true};
    run_case(&c);
}

Test(attention, stacked_forms)
{
    attn_case qk = {.name = "stacked QK + value, bias",
                    .d = DESC(2, 3, 3, 0, 2, 2, 4, 6, 0),
                    .type = F32,
                    .form = STACKED_QK,
                    .bias = true};
    run_case(&qk);
    attn_case kv = {.name = "query + stacked KV, strided",
                    .d = DESC(1, 2, 5, 0, 2, 2, 3, 3, 0),
                    .type = F32,
                    .form = STACKED_KV,
                    .strided = true};
    run_case(&kv);
    attn_case qkv = {.name = "stacked QKV, bias, rpb",
                     .d = DESC(2, 4, 4, 0, 3, 3, 2, 2, 0),
                     .type = F32,
                     .form = STACKED_QKV,
                     .bias = true,
                     .rpb = true};
    run_case(&qkv);
}

Test(attention, masks)
{
    for (int mt = 1; mt <= 4; ++mt) {
        char name[40];
        snprintf(name, sizeof name, "mask type %d", mt);
        attn_case c = {.name = name, .d = DESC(3, 2, 6, 0, 2, 2, 3, 2, mt), .type = F32};
        run_case(&c);
        attn_case p = {.name = name,
                       .d = DESC(2, 3, 2, 3, 2, 2, 2, 3, mt),
                       .type = F32,
                       .past = true,
                       .strided = true};
        run_case(&p);
    }
}

Test(attention, past_and_present)
{
    attn_case c = {.name = "past, presents, bias",
                   .d = DESC(2, 2, 3, 4, 2, 2, 3, 2, 0),
                   .type = F32,
                   .bias = true,
                   .past = true,
                   .prk = true,
                   .prv = true};
    run_case(&c);
    attn_case p = {.name = "presents without past, strided",
                   .d = DESC(1, 5, 2, 0, 3, 3, 2, 4, 0),
                   .type = F32,
                   .prk = true,
                   .prv = true,
                   .strided = true};
    run_case(&p);
}

Test(attention, grouped_query_mha1)
{
    attn_case c = {.name = "GQA 4:2 with past and presents",
                   .d = DESC(2, 3, 3, 2, 4, 2, 4, 4, 4),
                   .type = F32,
                   .v1 = true,
                   .bias = true,
                   .past = true,
                   .prk = true,
                   .prv = true};
    run_case(&c);
    attn_case kv = {.name = "GQA 6:1, stacked KV",
                    .d = DESC(1, 2, 4, 0, 6, 1, 3, 3, 1),
                    .type = F32,
                    .v1 = true,
                    .form = STACKED_KV,
                    .prk = true};
    run_case(&kv);
}

Test(attention, float16)
{
    attn_case c = {.name = "FLOAT16 separate, everything",
                   .d = DESC(2, 3, 4, 2, 2, 2, 4, 3, 4),
                   .type = F16,
                   .bias = true,
                   .rpb = true,
                   .past = true,
                   .prk = true,
                   .prv = true,
                   .strided = true};
    run_case(&c);
    attn_case q = {.name = "FLOAT16 stacked QKV",
                   .d = DESC(1, 4, 4, 0, 2, 2, 8, 8, 1),
                   .type = F16,
                   .form = STACKED_QKV,
                   .bias = true};
    run_case(&q);
}

/* A total sequence past the work-group (64 items) and past the first scores bucket. */
Test(attention, long_sequence)
{
    attn_case c = {.name = "total 100",
                   .d = DESC(1, 2, 90, 10, 2, 1, 4, 70, 2),
                   .type = F32,
                   .v1 = true,
                   .past = true,
                   .prk = true,
                   .prv = true};
    run_case(&c);
}

/* CPUs' kernels: attention_block's row blocks (seq 19: a partial block of 16, 8 or 4 lanes),
 * each lane its own mask row and relative position bias, past keys and presents; and head
 * sizes past its 128 (attention_rows' private rows). */
Test(attention, cpu_row_blocks_and_wide_heads)
{
    attn_case c = {.name = "row blocks: seq 19, BOOLEAN mask, rpb, past, presents",
                   .d = DESC(2, 19, 7, 3, 2, 2, 5, 6, 4),
                   .type = F32,
                   .bias = true,
                   .rpb = true,
                   .past = true,
                   .prk = true,
                   .prv = true};
    run_case(&c);
    attn_case w = {.name = "head sizes 136 and 140",
                   .d = DESC(1, 3, 4, 0, 2, 1, 136, 140, 1),
                   .type = F32,
                   .v1 = true,
                   .bias = true};
    run_case(&w);
}
