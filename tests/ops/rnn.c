/* SPDX-License-Identifier: MIT */
/*
 * RNN, GRU and LSTM on the device against the oracle (tests/ref/ref_rnn.c, double). Inputs are
 * random in [-1, 1] (weights in [-0.5, 0.5]), from a printed, overridable seed
 * (DMLCL_TEST_SEED); each case's tensors may be strided (a padded innermost run) to check that
 * the kernel reads and writes through the strides.
 *
 * Tolerance (reference/precision.md): a gate's sum is a float32 product over K = input_size +
 * hidden_size + 2 terms (the GEMM rule: 2K ULP of the sum's magnitude, here at most K / 2, so
 * K^2 * 2^-24 absolute), and the activations used here (sigmoid, tanh, ELU, ...) have slopes at
 * most 1 (ELU's Alpha beyond: times max(1, Alpha)) and errors within 1/1024 (TANH's row);
 * each step carries the previous state's error through H . R (|R| <= 0.5, hidden terms), so
 * the bound grows with the steps: atol = steps * (K^2 * 2^-23 + 2^-10 when an activation is
 * TANH, else 2^-20) * max(1, Alpha). FLOAT16 adds the output's rounding, 2^-11 relative.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "ref_broadcast.h"
#include "ref_rnn.h"

OPS_DEVICE_SUITE(rnn);

typedef struct rnn_case {
    const char *name;
    ref_rnn_desc d;
    DML_TENSOR_DATA_TYPE type;
    bool bias, h0, c0, peephole, y, yh, yc;
    const uint32_t *len; /* batch entries, or NULL */
    bool strided;        /* every tensor's innermost run padded by 3 elements */
    DML_OPERATOR_TYPE act_type[6];
    float alpha[6]; /* ELU, LEAKY_RELU: Alpha */
} rnn_case;

/* A tensor of the case: its sizes, strides and host buffer. */
typedef struct rnn_buf {
    DML_TENSOR_DESC desc;
    DML_BUFFER_TENSOR_DESC buffer;
    UINT sizes[4], strides[4];
    unsigned char *data;
    uint64_t bytes;
    double *values; /* packed logical values (inputs: as stored) */
    uint64_t count;
} rnn_buf;

static void buf_make(rnn_buf *b, DML_TENSOR_DATA_TYPE type, const uint32_t *sizes, bool strided)
{
    memset(b, 0, sizeof *b);
    memcpy(b->sizes, sizes, sizeof b->sizes);
    uint64_t stride = 1;
    for (int d = 3; d >= 0; --d) {
        b->strides[d] = (UINT)stride;
        stride *= sizes[d] + (d == 3 && strided ? 3 : 0);
    }
    b->count = (uint64_t)sizes[0] * sizes[1] * sizes[2] * sizes[3];
    b->buffer.DataType = type;
    b->buffer.DimensionCount = 4;
    b->buffer.Sizes = b->sizes;
    b->buffer.Strides = strided ? b->strides : NULL;
    b->buffer.TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(type, 4, b->sizes, b->buffer.Strides);
    b->desc.Type = DML_TENSOR_TYPE_BUFFER;
    b->desc.Desc = &b->buffer;
    b->bytes = b->buffer.TotalTensorSizeInBytes;
    b->data = calloc(1, b->bytes);
    b->values = calloc(b->count, sizeof *b->values);
    cr_assert(b->data && b->values);
}

static uint64_t buf_offset(const rnn_buf *b, uint64_t i)
{
    uint64_t off = 0;
    for (int d = 3; d >= 0; --d) {
        off += (i % b->sizes[d]) * b->strides[d];
        i /= b->sizes[d];
    }
    return off;
}

static void buf_store(rnn_buf *b, uint64_t i, double v)
{
    uint64_t off = buf_offset(b, i);
    if (b->buffer.DataType == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(b->data + off * 2, &h, 2);
        b->values[i] = ref_half_to_double(h);
    } else if (b->buffer.DataType == DML_TENSOR_DATA_TYPE_UINT32) {
        uint32_t u = (uint32_t)v;
        memcpy(b->data + off * 4, &u, 4);
        b->values[i] = v;
    } else {
        float f = (float)v;
        memcpy(b->data + off * 4, &f, 4);
        b->values[i] = f;
    }
}

static double buf_load(const rnn_buf *b, uint64_t i)
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

static void buf_random(rnn_buf *b, ref_rng *rng, double scale)
{
    for (uint64_t i = 0; i < b->count; ++i)
        buf_store(b, i, scale * ((double)ref_rng_below(rng, 1u << 20) / (1u << 19) - 1.0));
}

static void buf_free(rnn_buf *b)
{
    free(b->data);
    free(b->values);
}

static ref_act ref_of(DML_OPERATOR_TYPE t)
{
    switch (t) {
    case DML_OPERATOR_ACTIVATION_SIGMOID: return REF_ACT_SIGMOID;
    case DML_OPERATOR_ACTIVATION_TANH: return REF_ACT_TANH;
    case DML_OPERATOR_ACTIVATION_RELU: return REF_ACT_RELU;
    case DML_OPERATOR_ACTIVATION_ELU: return REF_ACT_ELU;
    case DML_OPERATOR_ACTIVATION_LEAKY_RELU: return REF_ACT_LEAKY_RELU;
    case DML_OPERATOR_ACTIVATION_SOFTSIGN: return REF_ACT_SOFTSIGN;
    default: cr_assert_fail("activation %d not in this test's table", (int)t); return REF_ACT_NONE;
    }
}

enum { X, W, R, B, H0, C0, LEN, P, Y, YH, YC, ROLES };

/* Creates, compiles and runs the case's operator; compares each output with the oracle. */
static void run_case(rnn_case *c)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x524e4e));
    ref_rnn_desc *d = &c->d;
    const uint32_t g = ref_rnn_gates(d->cell), acts = ref_rnn_acts(d->cell), dirs = d->directions;
    const uint32_t n = d->hidden;
    const uint32_t shapes[ROLES][4] = {{1, d->seq, d->batch, d->input},
                                       {1, dirs, g * n, d->input},
                                       {1, dirs, g * n, n},
                                       {1, 1, dirs, 2 * g * n},
                                       {1, dirs, d->batch, n},
                                       {1, dirs, d->batch, n},
                                       {1, 1, 1, d->batch},
                                       {1, 1, dirs, 3 * n},
                                       {d->seq, dirs, d->batch, n},
                                       {1, dirs, d->batch, n},
                                       {1, dirs, d->batch, n}};
    const bool present[ROLES] = {true,           true,        true, c->bias, c->h0, c->c0,
                                 c->len != NULL, c->peephole, c->y, c->yh,   c->yc};
    rnn_buf t[ROLES];
    for (int k = 0; k < ROLES; ++k) {
        if (!present[k])
            continue;
        buf_make(&t[k], k == LEN ? DML_TENSOR_DATA_TYPE_UINT32 : c->type, shapes[k], c->strided);
        if (k == LEN)
            for (uint32_t i = 0; i < d->batch; ++i)
                buf_store(&t[k], i, c->len[i]);
        else if (k < Y)
            buf_random(&t[k], &rng, k == W || k == R || k == P ? 0.5 : 1.0);
        else
            memset(t[k].data, 0xA5, t[k].bytes); /* poison: every element must be written */
    }
    DML_OPERATOR_DESC act_ops[6];
    DML_ACTIVATION_ELU_OPERATOR_DESC act_descs[6]; /* {NULL, NULL, Alpha} fits every one used */
    double alpha_max = 1.0;
    bool tanh_used = false;
    for (uint32_t i = 0; i < dirs * acts; ++i) {
        act_descs[i] = (DML_ACTIVATION_ELU_OPERATOR_DESC){NULL, NULL, c->alpha[i]};
        act_ops[i] = (DML_OPERATOR_DESC){c->act_type[i], &act_descs[i]};
        d->act[i] = ref_of(c->act_type[i]);
        d->param[i][0] = c->alpha[i];
        if (fabs(c->alpha[i]) > alpha_max)
            alpha_max = fabs(c->alpha[i]);
        tanh_used |= c->act_type[i] == DML_OPERATOR_ACTIVATION_TANH;
    }
#define TD(k) (present[k] ? &t[k].desc : NULL)
    DML_RNN_OPERATOR_DESC rnn = {TD(X),
                                 TD(W),
                                 TD(R),
                                 TD(B),
                                 TD(H0),
                                 TD(LEN),
                                 TD(Y),
                                 TD(YH),
                                 dirs * acts,
                                 act_ops,
                                 d->backward ? DML_RECURRENT_NETWORK_DIRECTION_BACKWARD
                                 : dirs == 2 ? DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL
                                             : DML_RECURRENT_NETWORK_DIRECTION_FORWARD};
    DML_GRU_OPERATOR_DESC gru = {TD(X),       TD(W),   TD(R),         TD(B),
                                 TD(H0),      TD(LEN), TD(Y),         TD(YH),
                                 dirs * acts, act_ops, rnn.Direction, d->linear_before_reset};
    DML_LSTM_OPERATOR_DESC lstm = {
        TD(X),   TD(W),       TD(R),   TD(B),         TD(H0),
        TD(C0),  TD(LEN),     TD(P),   TD(Y),         TD(YH),
        TD(YC),  dirs * acts, act_ops, rnn.Direction, (float)d->clip_threshold,
        d->clip, d->couple};
#undef TD
    DML_OPERATOR_DESC op = {DML_OPERATOR_RNN, &rnn};
    if (d->cell == REF_RNN_GRU)
        op = (DML_OPERATOR_DESC){DML_OPERATOR_GRU, &gru};
    if (d->cell == REF_RNN_LSTM)
        op = (DML_OPERATOR_DESC){DML_OPERATOR_LSTM, &lstm};
    /* The operator's inputs and outputs in its descriptor's order. */
    static const int rnn_in[] = {X, W, R, B, H0, LEN}, rnn_out[] = {Y, YH};
    static const int lstm_in[] = {X, W, R, B, H0, C0, LEN, P}, lstm_out[] = {Y, YH, YC};
    bool is_lstm = d->cell == REF_RNN_LSTM;
    const int *ins = is_lstm ? lstm_in : rnn_in, *outs = is_lstm ? lstm_out : rnn_out;
    UINT n_in = is_lstm ? 8 : 6, n_out = is_lstm ? 3 : 2;
    dmlcl_host_tensor hin[8], hout[3];
    for (UINT i = 0; i < n_in; ++i)
        hin[i] = present[ins[i]] ? (dmlcl_host_tensor){t[ins[i]].data, t[ins[i]].bytes}
                                 : (dmlcl_host_tensor){NULL, 0};
    for (UINT i = 0; i < n_out; ++i)
        hout[i] = present[outs[i]] ? (dmlcl_host_tensor){t[outs[i]].data, t[outs[i]].bytes}
                                   : (dmlcl_host_tensor){NULL, 0};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &op, &o);
    cr_assert_eq(hr, S_OK, "%s: create: %s", c->name, dmlcl_last_error());
    hr = dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co);
    cr_assert_eq(hr, S_OK, "%s: compile: %s", c->name, dmlcl_last_error());
    hr = dmlcl_compiled_operator_execute(co, n_in, hin, n_out, hout);
    cr_assert_eq(hr, S_OK, "%s: execute: %s", c->name, dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);

    for (int k = Y; k < ROLES; ++k)
        if (present[k])
            free(t[k].values), t[k].values = calloc(t[k].count, sizeof(double));
    ref_rnn(d, t[X].values, t[W].values, t[R].values, present[B] ? t[B].values : NULL,
            present[H0] ? t[H0].values : NULL, present[C0] ? t[C0].values : NULL, c->len,
            present[P] ? t[P].values : NULL, present[Y] ? t[Y].values : NULL,
            present[YH] ? t[YH].values : NULL, present[YC] ? t[YC].values : NULL);
    double k2 = (double)(d->input + n + 2) * (d->input + n + 2);
    double atol = d->seq *
                  (k2 * ldexp(1.0, -23) + (tanh_used ? ldexp(1.0, -10) : ldexp(1.0, -20))) *
                  alpha_max;
    double rtol = c->type == DML_TENSOR_DATA_TYPE_FLOAT16 ? ldexp(1.0, -11) : 0.0;
    static const char *const names[ROLES] = {
        "", "", "", "", "", "", "", "", "OutputSequence", "OutputSingle", "OutputCellSingle"};
    for (int k = Y; k < ROLES; ++k) {
        if (!present[k])
            continue;
        for (uint64_t i = 0; i < t[k].count; ++i) {
            double got = buf_load(&t[k], i), want = t[k].values[i];
            cr_assert(fabs(got - want) <= atol + rtol * fabs(want),
                      "%s: %s element %llu: got %.9g, want %.9g (tolerance %.3g)", c->name,
                      names[k], (unsigned long long)i, got, want, atol + rtol * fabs(want));
        }
    }
    for (int k = 0; k < ROLES; ++k)
        if (present[k])
            buf_free(&t[k]);
}

#define ACTL(...)   \
    {               \
        __VA_ARGS__ \
    }
#define SIG DML_OPERATOR_ACTIVATION_SIGMOID
#define TANH DML_OPERATOR_ACTIVATION_TANH
#define RELU DML_OPERATOR_ACTIVATION_RELU
#define ELU DML_OPERATOR_ACTIVATION_ELU
#define LEAKY DML_OPERATOR_ACTIVATION_LEAKY_RELU
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

Test(rnn, rnn_forward_tanh_bias_init)
{
    rnn_case c = {.name = "rnn forward",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 3,
                        .batch = 2,
                        .input = 4,
                        .hidden = 5,
                        .directions = 1},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .y = true,
                  .yh = true,
                  .act_type = ACTL(TANH)};
    run_case(&c);
}

/* DxDispatch's dml_rnn.json shape: bidirectional, ELU of another Alpha per direction, no bias,
 * no initial state, the single output alone. */
Test(rnn, rnn_bidirectional_elu_per_direction)
{
    rnn_case c = {.name = "rnn bidirectional",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 1,
                        .batch = 8,
                        .input = 4,
                        .hidden = 5,
                        .directions = 2},
                  .type = F32,
                  .yh = true,
                  .act_type = ACTL(ELU, ELU),
                  .alpha = {0.5f, 3.5f}};
    run_case(&c);
    rnn_case c2 = {.name = "rnn bidirectional seq 4",
                   .d = {.cell = REF_RNN_SIMPLE,
                         .seq = 4,
                         .batch = 3,
                         .input = 3,
                         .hidden = 6,
                         .directions = 2},
                   .type = F32,
                   .bias = true,
                   .h0 = true,
                   .y = true,
                   .yh = true,
                   .act_type = ACTL(RELU, LEAKY),
                   .alpha = {0, 0.25f}};
    run_case(&c2);
}

Test(rnn, rnn_backward_sequence_lengths)
{
    static const uint32_t len[] = {3, 1, 0, 9};
    rnn_case c = {.name = "rnn backward lengths",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 4,
                        .batch = 4,
                        .input = 3,
                        .hidden = 4,
                        .directions = 1,
                        .backward = true},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .len = len,
                  .y = true,
                  .yh = true,
                  .act_type = ACTL(SIG)};
    run_case(&c);
    rnn_case c2 = {.name = "rnn bidirectional lengths",
                   .d = {.cell = REF_RNN_SIMPLE,
                         .seq = 4,
                         .batch = 4,
                         .input = 3,
                         .hidden = 4,
                         .directions = 2},
                   .type = F32,
                   .len = len,
                   .y = true,
                   .yh = true,
                   .act_type = ACTL(TANH, SIG)};
    run_case(&c2);
}

Test(rnn, rnn_float16_and_strides)
{
    rnn_case c = {.name = "rnn float16",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 3,
                        .batch = 2,
                        .input = 5,
                        .hidden = 4,
                        .directions = 2},
                  .type = F16,
                  .bias = true,
                  .h0 = true,
                  .y = true,
                  .yh = true,
                  .act_type = ACTL(TANH, TANH)};
    run_case(&c);
    rnn_case s = {.name = "rnn strided",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 3,
                        .batch = 2,
                        .input = 5,
                        .hidden = 4,
                        .directions = 1},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .y = true,
                  .yh = true,
                  .strided = true,
                  .act_type = ACTL(TANH)};
    run_case(&s);
}

/* More hidden units than a work-group's items (256): each item computes several; the 1024
 * bucket. */
Test(rnn, rnn_hidden_beyond_the_work_group)
{
    rnn_case c = {.name = "rnn hidden 300",
                  .d = {.cell = REF_RNN_SIMPLE,
                        .seq = 2,
                        .batch = 2,
                        .input = 3,
                        .hidden = 300,
                        .directions = 1},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .y = true,
                  .yh = true,
                  .act_type = ACTL(SIG)};
    run_case(&c);
}

Test(rnn, gru_forward_and_backward)
{
    rnn_case c = {
        .name = "gru forward",
        .d = {.cell = REF_RNN_GRU, .seq = 3, .batch = 2, .input = 4, .hidden = 5, .directions = 1},
        .type = F32,
        .bias = true,
        .h0 = true,
        .y = true,
        .yh = true,
        .act_type = ACTL(SIG, TANH)};
    run_case(&c);
    static const uint32_t len[] = {2, 0, 3};
    rnn_case b = {.name = "gru backward lengths",
                  .d = {.cell = REF_RNN_GRU,
                        .seq = 3,
                        .batch = 3,
                        .input = 3,
                        .hidden = 4,
                        .directions = 1,
                        .backward = true},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .len = len,
                  .y = true,
                  .yh = true,
                  .act_type = ACTL(SIG, TANH)};
    run_case(&b);
}

Test(rnn, gru_linear_before_reset_bidirectional)
{
    for (int lbr = 0; lbr < 2; ++lbr) {
        rnn_case c = {.name = lbr ? "gru bidirectional LinearBeforeReset" : "gru bidirectional",
                      .d = {.cell = REF_RNN_GRU,
                            .seq = 4,
                            .batch = 2,
                            .input = 3,
                            .hidden = 6,
                            .directions = 2,
                            .linear_before_reset = lbr},
                      .type = F32,
                      .bias = true,
                      .h0 = true,
                      .y = true,
                      .yh = true,
                      .act_type = ACTL(SIG, TANH, SIG, RELU)};
        run_case(&c);
    }
}

Test(rnn, gru_float16_strided_and_wide)
{
    rnn_case c = {.name = "gru float16 strided",
                  .d = {.cell = REF_RNN_GRU,
                        .seq = 3,
                        .batch = 2,
                        .input = 5,
                        .hidden = 4,
                        .directions = 1,
                        .linear_before_reset = true},
                  .type = F16,
                  .bias = true,
                  .h0 = true,
                  .y = true,
                  .yh = true,
                  .strided = true,
                  .act_type = ACTL(SIG, TANH)};
    run_case(&c);
    rnn_case w = {
        .name = "gru hidden 270",
        .d =
            {.cell = REF_RNN_GRU, .seq = 2, .batch = 1, .input = 3, .hidden = 270, .directions = 1},
        .type = F32,
        .bias = true,
        .y = true,
        .yh = true,
        .act_type = ACTL(SIG, TANH)};
    run_case(&w);
}

Test(rnn, lstm_forward_every_tensor)
{
    rnn_case c = {
        .name = "lstm forward",
        .d = {.cell = REF_RNN_LSTM, .seq = 3, .batch = 2, .input = 4, .hidden = 5, .directions = 1},
        .type = F32,
        .bias = true,
        .h0 = true,
        .c0 = true,
        .peephole = true,
        .y = true,
        .yh = true,
        .yc = true,
        .act_type = ACTL(SIG, TANH, TANH)};
    run_case(&c);
}

Test(rnn, lstm_bidirectional_lengths_clip_couple)
{
    static const uint32_t len[] = {3, 1, 0};
    rnn_case c = {
        .name = "lstm bidirectional lengths",
        .d = {.cell = REF_RNN_LSTM, .seq = 3, .batch = 3, .input = 3, .hidden = 4, .directions = 2},
        .type = F32,
        .bias = true,
        .h0 = true,
        .c0 = true,
        .len = len,
        .y = true,
        .yh = true,
        .yc = true,
        .act_type = ACTL(SIG, TANH, TANH, SIG, RELU, TANH)};
    run_case(&c);
    rnn_case k = {.name = "lstm backward clip couple",
                  .d = {.cell = REF_RNN_LSTM,
                        .seq = 4,
                        .batch = 2,
                        .input = 3,
                        .hidden = 4,
                        .directions = 1,
                        .backward = true,
                        .clip = true,
                        .couple = true,
                        .clip_threshold = 0.25},
                  .type = F32,
                  .bias = true,
                  .h0 = true,
                  .c0 = true,
                  .peephole = true,
                  .y = true,
                  .yh = true,
                  .yc = true,
                  .act_type = ACTL(SIG, TANH, TANH)};
    run_case(&k);
}

Test(rnn, lstm_float16_strided_and_wide)
{
    rnn_case c = {
        .name = "lstm float16 strided",
        .d = {.cell = REF_RNN_LSTM, .seq = 3, .batch = 2, .input = 5, .hidden = 4, .directions = 2},
        .type = F16,
        .bias = true,
        .h0 = true,
        .c0 = true,
        .peephole = true,
        .y = true,
        .yh = true,
        .yc = true,
        .strided = true,
        .act_type = ACTL(SIG, TANH, TANH, SIG, TANH, TANH)};
    run_case(&c);
    rnn_case w = {.name = "lstm hidden 260, the cell alone",
                  .d = {.cell = REF_RNN_LSTM,
                        .seq = 2,
                        .batch = 1,
                        .input = 3,
                        .hidden = 260,
                        .directions = 1},
                  .type = F32,
                  .bias = true,
                  .yc = true,
                  .act_type = ACTL(SIG, TANH, TANH)};
    run_case(&w);
}
