/* SPDX-License-Identifier: MIT */
/*
 * RNN's, GRU's and LSTM's validation on the host (no OpenCL device): the types (FLOAT32,
 * FLOAT16; SequenceLengths UINT32), DimensionCount 4, every tensor's sizes, Direction,
 * ActivationDescCount and the activations, OWNED_BY_DML on inputs, LSTM's ClipThreshold, and
 * the description they lower to. Each broken rule checks the HRESULT and that the message
 * names the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "rnn.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define U32 DML_TENSOR_DATA_TYPE_UINT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* seq 3, batch 2, input 4, hidden 5, bidirectional; every tensor present. */
enum { SEQ = 3, BATCH = 2, INPUT = 4, HIDDEN = 5, DIRS = 2 };

typedef struct rnn_fixture {
    unit_tensor x, w, r, b, h0, c0, len, p, y, yh, yc;
    UINT xs[4], ws[4], rs[4], bs[4], hs[4], ls[4], ps[4], ys[4];
    DML_ACTIVATION_ELU_OPERATOR_DESC act_desc[6];
    DML_OPERATOR_DESC act[6];
    DML_RNN_OPERATOR_DESC rnn;
    DML_GRU_OPERATOR_DESC gru;
    DML_LSTM_OPERATOR_DESC lstm;
} rnn_fixture;

static void sizes4(UINT *s, UINT a, UINT b, UINT c, UINT d)
{
    s[0] = a, s[1] = b, s[2] = c, s[3] = d;
}

static void fixture(rnn_fixture *f, UINT gates)
{
    memset(f, 0, sizeof *f);
    sizes4(f->xs, 1, SEQ, BATCH, INPUT);
    sizes4(f->ws, 1, DIRS, gates * HIDDEN, INPUT);
    sizes4(f->rs, 1, DIRS, gates * HIDDEN, HIDDEN);
    sizes4(f->bs, 1, 1, DIRS, 2 * gates * HIDDEN);
    sizes4(f->hs, 1, DIRS, BATCH, HIDDEN);
    sizes4(f->ls, 1, 1, 1, BATCH);
    sizes4(f->ps, 1, 1, DIRS, 3 * HIDDEN);
    sizes4(f->ys, SEQ, DIRS, BATCH, HIDDEN);
    for (int i = 0; i < 6; ++i) {
        f->act_desc[i] = (DML_ACTIVATION_ELU_OPERATOR_DESC){NULL, NULL, 1.0f};
        f->act[i] = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_TANH, &f->act_desc[i]};
    }
    const DML_TENSOR_DESC *x = unit_tensor_set(&f->x, F32, 4, f->xs, NULL);
    const DML_TENSOR_DESC *w = unit_tensor_set(&f->w, F32, 4, f->ws, NULL);
    const DML_TENSOR_DESC *r = unit_tensor_set(&f->r, F32, 4, f->rs, NULL);
    const DML_TENSOR_DESC *b = unit_tensor_set(&f->b, F32, 4, f->bs, NULL);
    const DML_TENSOR_DESC *h0 = unit_tensor_set(&f->h0, F32, 4, f->hs, NULL);
    const DML_TENSOR_DESC *c0 = unit_tensor_set(&f->c0, F32, 4, f->hs, NULL);
    const DML_TENSOR_DESC *len = unit_tensor_set(&f->len, U32, 4, f->ls, NULL);
    const DML_TENSOR_DESC *p = unit_tensor_set(&f->p, F32, 4, f->ps, NULL);
    const DML_TENSOR_DESC *y = unit_tensor_set(&f->y, F32, 4, f->ys, NULL);
    const DML_TENSOR_DESC *yh = unit_tensor_set(&f->yh, F32, 4, f->hs, NULL);
    const DML_TENSOR_DESC *yc = unit_tensor_set(&f->yc, F32, 4, f->hs, NULL);
    const DML_RECURRENT_NETWORK_DIRECTION bi = DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL;
    f->rnn = (DML_RNN_OPERATOR_DESC){x, w, r, b, h0, len, y, yh, 2, f->act, bi};
    f->gru = (DML_GRU_OPERATOR_DESC){x, w, r, b, h0, len, y, yh, 4, f->act, bi, 0};
    f->lstm =
        (DML_LSTM_OPERATOR_DESC){x, w, r, b, h0, c0, len, p, y, yh, yc, 6, f->act, bi, 0.0f, 0, 0};
}

/* The rules every recurrent operator shares, through RNN's descriptor layout's members. */
Test(rnn_validate, rnn_accepts_the_fixture_and_its_optional_tensors_absent)
{
    rnn_fixture f;
    fixture(&f, 1);
    cr_expect_eq(create(DML_OPERATOR_RNN, &f.rnn), S_OK, "%s", dmlcl_last_error());
    f.rnn.BiasTensor = f.rnn.HiddenInitTensor = f.rnn.SequenceLengthsTensor = NULL;
    f.rnn.OutputSequenceTensor = NULL;
    cr_expect_eq(create(DML_OPERATOR_RNN, &f.rnn), S_OK, "%s", dmlcl_last_error());
    f.rnn.OutputSingleTensor = NULL; /* no output: legal, computes nothing */
    cr_expect_eq(create(DML_OPERATOR_RNN, &f.rnn), S_OK, "%s", dmlcl_last_error());
    fixture(&f, 1);
    f.rnn.Direction = DML_RECURRENT_NETWORK_DIRECTION_BACKWARD;
    f.rnn.ActivationDescCount = 1;
    f.w.sizes[1] = f.r.sizes[1] = f.b.sizes[2] = f.h0.sizes[1] = f.y.sizes[1] = 1;
    f.yh.sizes[1] = 1;
    unit_tensor *one[] = {&f.w, &f.r, &f.b, &f.h0, &f.y, &f.yh};
    for (int i = 0; i < 6; ++i)
        unit_tensor_fit(one[i]);
    cr_expect_eq(create(DML_OPERATOR_RNN, &f.rnn), S_OK, "%s", dmlcl_last_error());
}

Test(rnn_validate, rnn_required_tensors_and_types)
{
    rnn_fixture f;
    fixture(&f, 1);
    f.rnn.WeightTensor = NULL;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "WeightTensor");
    fixture(&f, 1);
    f.x.buf.DataType = DML_TENSOR_DATA_TYPE_INT32;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "InputTensor.DataType", "INT32",
           "FLOAT32 or FLOAT16");
    fixture(&f, 1);
    f.r.buf.DataType = F16;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "RecurrenceTensor", "FLOAT16");
    fixture(&f, 1);
    f.yh.buf.DataType = F16;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "OutputSingleTensor", "FLOAT16");
    fixture(&f, 1);
    f.len.buf.DataType = DML_TENSOR_DATA_TYPE_INT32;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "SequenceLengthsTensor.DataType",
           "INT32", "UINT32");
    fixture(&f, 1);
    f.h0.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "HiddenInitTensor.Flags",
           "OWNED_BY_DML");
}

Test(rnn_validate, rnn_ranks_and_sizes)
{
    static const char *const fields[] = {
        "InputTensor.Sizes[0]",       "WeightTensor.Sizes",      "RecurrenceTensor.Sizes",
        "BiasTensor.Sizes",           "HiddenInitTensor.Sizes",  "SequenceLengthsTensor.Sizes",
        "OutputSequenceTensor.Sizes", "OutputSingleTensor.Sizes"};
    for (int i = 0; i < 8; ++i) {
        rnn_fixture f;
        fixture(&f, 1);
        unit_tensor *t[] = {&f.x, &f.w, &f.r, &f.b, &f.h0, &f.len, &f.y, &f.yh};
        t[i]->sizes[i == 0 ? 0 : 3] += 1;
        unit_tensor_fit(t[i]);
        EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", fields[i]);
    }
    rnn_fixture f;
    fixture(&f, 1);
    UINT three[3] = {1, DIRS, 2 * HIDDEN};
    unit_tensor_set(&f.b, F32, 3, three, NULL);
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "BiasTensor.DimensionCount",
           "(3)", "must be 4");
}

Test(rnn_validate, rnn_direction_and_activations)
{
    rnn_fixture f;
    fixture(&f, 1);
    f.rnn.Direction = (DML_RECURRENT_NETWORK_DIRECTION)3;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "Direction", "(3)");
    fixture(&f, 1);
    f.rnn.ActivationDescCount = 1;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "ActivationDescCount", "(1)",
           "must be 2");
    fixture(&f, 1);
    f.rnn.ActivationDescs = NULL;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_POINTER, "RNN", "ActivationDescs");
    fixture(&f, 1);
    f.act[1].Type = DML_OPERATOR_ELEMENT_WISE_ADD;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "ActivationDescs[1]",
           "ELEMENT_WISE_ADD");
    fixture(&f, 1);
    f.act_desc[0].InputTensor = f.rnn.InputTensor;
    EXPECT(create(DML_OPERATOR_RNN, &f.rnn), E_INVALIDARG, "RNN", "ActivationDescs[0]",
           "InputTensor");
}

Test(rnn_validate, rnn_lowers_to_the_recurrent_family)
{
    rnn_fixture f;
    fixture(&f, 1);
    f.act[0].Type = DML_OPERATOR_ACTIVATION_ELU;
    f.act_desc[0].Alpha = 0.5f;
    f.rnn.SequenceLengthsTensor = NULL;
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    DML_OPERATOR_DESC d = {DML_OPERATOR_RNN, &f.rnn};
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(DML_OPERATOR_RNN), d.Desc, &st), S_OK,
                 "%s", dmlcl_last_error());
    cr_assert(st.computed);
    cr_expect_eq(st.compute.kind, DMLI_COMPUTE_RNN);
    cr_expect_eq(st.compute.n_tensors, DMLI_RNN_ROLES);
    const dmli_rnn *r = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_rnn);
    cr_expect_eq(r->hidden, HIDDEN);
    cr_expect_eq(r->seq, SEQ);
    cr_expect_eq(r->directions, 2);
    cr_expect(!r->present[DMLI_RNN_LEN] && r->present[DMLI_RNN_B] && r->present[DMLI_RNN_YH]);
    cr_expect_eq(r->act[0].act, DMLI_ACT_ELU);
    cr_expect_eq(r->act[0].param[0], 0.5);
    cr_expect_eq(r->act[1].act, DMLI_ACT_TANH);
    /* The state bucket and its local memory. */
    uint32_t bucket = 0;
    cr_expect_eq(dmli_rnn_local_bytes(r, &bucket), 3 * 64 * 4);
    cr_expect_eq(bucket, 64);
    dmli_op_state_release(&st);
}

Test(rnn_validate, gru_gates_and_activations)
{
    rnn_fixture f;
    fixture(&f, 3);
    cr_expect_eq(create(DML_OPERATOR_GRU, &f.gru), S_OK, "%s", dmlcl_last_error());
    f.gru.ActivationDescCount = 2;
    EXPECT(create(DML_OPERATOR_GRU, &f.gru), E_INVALIDARG, "GRU", "ActivationDescCount", "(2)",
           "must be 4");
    fixture(&f, 1); /* one gate's rows */
    EXPECT(create(DML_OPERATOR_GRU, &f.gru), E_INVALIDARG, "GRU", "RecurrenceTensor.Sizes",
           "3 * hidden_size");
    fixture(&f, 3);
    f.b.sizes[3] = 3 * HIDDEN;
    unit_tensor_fit(&f.b);
    EXPECT(create(DML_OPERATOR_GRU, &f.gru), E_INVALIDARG, "GRU", "BiasTensor.Sizes",
           "2 * gates * hidden_size");
    fixture(&f, 3);
    f.x.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    EXPECT(create(DML_OPERATOR_GRU, &f.gru), E_INVALIDARG, "GRU", "InputTensor.Flags");
}

Test(rnn_validate, lstm_tensors_clip_and_lowering)
{
    rnn_fixture f;
    fixture(&f, 4);
    cr_expect_eq(create(DML_OPERATOR_LSTM, &f.lstm), S_OK, "%s", dmlcl_last_error());
    f.lstm.ActivationDescCount = 4;
    EXPECT(create(DML_OPERATOR_LSTM, &f.lstm), E_INVALIDARG, "LSTM", "ActivationDescCount", "(4)",
           "must be 6");
    fixture(&f, 4);
    f.p.sizes[3] = 4 * HIDDEN;
    unit_tensor_fit(&f.p);
    EXPECT(create(DML_OPERATOR_LSTM, &f.lstm), E_INVALIDARG, "LSTM", "PeepholeTensor.Sizes",
           "3 * hidden_size");
    fixture(&f, 4);
    f.c0.sizes[2] = BATCH + 1;
    unit_tensor_fit(&f.c0);
    EXPECT(create(DML_OPERATOR_LSTM, &f.lstm), E_INVALIDARG, "LSTM", "CellMemInitTensor.Sizes");
    fixture(&f, 4);
    unit_tensor_set_type(&f.yc, F16);
    EXPECT(create(DML_OPERATOR_LSTM, &f.lstm), E_INVALIDARG, "LSTM", "OutputCellSingleTensor",
           "FLOAT16");
    fixture(&f, 4);
    f.lstm.UseClipThreshold = 1;
    f.lstm.ClipThreshold = 0.0f;
    EXPECT(create(DML_OPERATOR_LSTM, &f.lstm), E_INVALIDARG, "LSTM", "ClipThreshold", "(0)");
    f.lstm.ClipThreshold = 2.5f;
    f.lstm.CoupleInputForget = 1;
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(DML_OPERATOR_LSTM), &f.lstm, &st), S_OK,
                 "%s", dmlcl_last_error());
    const dmli_rnn *r = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_rnn);
    cr_expect(r->clip && r->couple && r->clip_threshold == 2.5f);
    cr_expect_eq(r->cell, DMLI_RNN_CELL_LSTM);
    cr_expect(r->present[DMLI_RNN_P] && r->present[DMLI_RNN_C0] && r->present[DMLI_RNN_YC]);
    dmli_op_state_release(&st);
}
