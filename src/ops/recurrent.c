/* SPDX-License-Identifier: MIT */
/*
 * DirectML's recurrent layers, one family (src/rnn.h, cl/rnn.cl): RNN, GRU and LSTM (feature
 * level 1.0). Each direction d and batch element b step through their sequence (forward:
 * t = 0 .. len - 1; backward: t = len - 1 .. 0, len the batch element's SequenceLengths entry,
 * else seq_length), the hidden state H (and LSTM's cell C) carried from HiddenInit (CellMemInit),
 * 0 where absent. With x = X[t, b], the gate sums a_g = x . W[d, g] + H . R[d, g] + Wb[d, g] +
 * Rb[d, g] (row g * hidden + j of W and R; Bias {Wb[gates], Rb[gates]} per direction):
 *   RNN  H = f(a)
 *   GRU  z = f(a_z), r = f(a_r) (gates z, r, h: ONNX's order),
 *        h~ = g(x . W_h + (r * H) . R_h + Rb_h + Wb_h), or with LinearBeforeReset
 *        h~ = g(x . W_h + r * (H . R_h + Rb_h) + Wb_h); H = (1 - z) * h~ + z * H
 *   LSTM (gates i, o, f, c; Peephole {P_i, P_o, P_f}) i = f(a_i + P_i * C), f = f(a_f + P_f * C)
 *        (1 - i with CoupleInputForget), c~ = g(a_c), C = f * C + i * c~,
 *        o = f(a_o + P_o * C), H = o * h(C); with UseClipThreshold every gate's sum is clipped
 *        to [-ClipThreshold, ClipThreshold] before its activation (ONNX's clip).
 * OutputSequence[t, d, b] is H after step t (0 for t >= len); OutputSingle (OutputCellSingle)
 * the state after the direction's last step (HiddenInit or CellMemInit, else 0, where len is 0).
 * ActivationDescs: per direction, RNN f; GRU f, g; LSTM f, g, h; forward's then backward's,
 * each an activation DirectML fuses (its tensors NULL). FLOAT32 or FLOAT16, computed in float32
 * (the state kept in float32 between steps).
 *
 * Chosen where the pages are silent (docs/operators.md): every tensor of rank 4 with the sizes
 * above; DML_TENSOR_FLAG_OWNED_BY_DML refused on the inputs (GRU's and LSTM's pages; RNN the
 * same); a SequenceLengths entry above seq_length counts as seq_length (nothing is read outside
 * InputTensor); UseClipThreshold needs ClipThreshold > 0 (NaN refused); no output at all is
 * legal and computes nothing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/activation.h"
#include "ops/common.h"
#include "rnn.h"

static const char *const role_names[DMLI_RNN_ROLES] = {
    "InputTensor",          "WeightTensor",       "RecurrenceTensor",      "BiasTensor",
    "HiddenInitTensor",     "CellMemInitTensor",  "SequenceLengthsTensor", "PeepholeTensor",
    "OutputSequenceTensor", "OutputSingleTensor", "OutputCellSingleTensor"};

/* A recurrent operator's description by role (NULL: absent, or not a member of its own). */
typedef struct rnn_view {
    const char *op;
    dmli_rnn_cell cell;
    uint32_t gates, acts;
    bool member[DMLI_RNN_ROLES];
    const DML_TENSOR_DESC *t[DMLI_RNN_ROLES];
    UINT act_count;
    const DML_OPERATOR_DESC *act_descs;
    DML_RECURRENT_NETWORK_DIRECTION direction;
} rnn_view;

/* What validate finds for infer and lower (st->scratch). */
typedef struct rnn_scratch {
    int slot[DMLI_RNN_ROLES]; /* the operator's input or output slot; -1 not a member */
    uint32_t directions;
    dmli_activation act[DMLI_RNN_MAX_ACTS];
} rnn_scratch;

static bool is_output(int role)
{
    return role >= DMLI_RNN_Y;
}

static const dmli_tensor *role_tensor(const dmli_op_state *st, const rnn_scratch *s, int role)
{
    return is_output(role) ? &st->outputs[s->slot[role]] : &st->inputs[s->slot[role]];
}

static HRESULT import(const rnn_view *v, dmli_op_state *st, rnn_scratch *s)
{
    uint32_t in = 0, out = 0;
    for (int role = 0; role < DMLI_RNN_ROLES; ++role) {
        s->slot[role] = -1;
        if (!v->member[role])
            continue;
        bool required = role <= DMLI_RNN_R;
        unsigned rules = (is_output(role) ? DMLI_TENSOR_OUTPUT : DMLI_TENSOR_INPUT) |
                         (required ? 0 : DMLI_TENSOR_OPTIONAL);
        uint32_t slot = is_output(role) ? out++ : in++;
        dmli_tensor *t = is_output(role) ? &st->outputs[slot] : &st->inputs[slot];
        DMLI_TRY(dmli_tensor_import(v->op, role_names[role], v->t[role], rules, t));
        if (is_output(role))
            st->output_names[slot] = role_names[role];
        else
            st->input_names[slot] = role_names[role];
        s->slot[role] = (int)slot;
    }
    st->n_inputs = in;
    st->n_outputs = out;
    st->data_input = 0;
    return S_OK;
}

static HRESULT check_tensor(const rnn_view *v, const dmli_op_state *st, const rnn_scratch *s,
                            int role)
{
    const dmli_tensor *t = role_tensor(st, s, role), *x = &st->inputs[0];
    const char *name = role_names[role];
    if (!t->present)
        return S_OK;
    DMLI_INVALID_IF(t->rank != 4, "%s: %s.DimensionCount (%u) must be 4", v->op, name, t->rank);
    if (role == DMLI_RNN_LEN) {
        DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_UINT32,
                        "%s: %s.DataType (%s) must be UINT32", v->op, name,
                        dmli_type_name(t->type));
    } else if (role != DMLI_RNN_X) {
        DMLI_TRY(dmli_ops_same_type(v->op, name, t, "InputTensor", x));
    }
    DMLI_INVALID_IF(!is_output(role) && (t->flags & DML_TENSOR_FLAG_OWNED_BY_DML),
                    "%s: %s.Flags (0x%x) must not include DML_TENSOR_FLAG_OWNED_BY_DML (the "
                    "recurrent operators read their inputs at execution)",
                    v->op, name, (unsigned)t->flags);
    if (is_output(role))
        DMLI_TRY(dmli_tensor_check_disjoint(v->op, name, t));
    return S_OK;
}

static HRESULT validate_view(const rnn_view *v, dmli_op_state *st)
{
    rnn_scratch *s = DMLI_OP_SCRATCH(st, rnn_scratch);
    memset(s, 0, sizeof *s);
    DMLI_TRY(import(v, st, s));
    const dmli_tensor *x = &st->inputs[0];
    DMLI_INVALID_IF(
        x->type != DML_TENSOR_DATA_TYPE_FLOAT32 && x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
        "%s: InputTensor.DataType (%s) must be FLOAT32 or FLOAT16", v->op, dmli_type_name(x->type));
    for (int role = 0; role < DMLI_RNN_ROLES; ++role)
        if (v->member[role])
            DMLI_TRY(check_tensor(v, st, s, role));
    DMLI_INVALID_IF((unsigned)v->direction > DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL,
                    "%s: Direction (%d) must be DML_RECURRENT_NETWORK_DIRECTION_FORWARD (0), "
                    "_BACKWARD (1) or _BIDIRECTIONAL (2)",
                    v->op, (int)v->direction);
    s->directions = v->direction == DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL ? 2 : 1;
    uint32_t want = s->directions * v->acts;
    DMLI_INVALID_IF(v->act_count != want,
                    "%s: ActivationDescCount (%u) must be %u (%u per direction, %u "
                    "direction%s)",
                    v->op, v->act_count, want, v->acts, s->directions,
                    s->directions > 1 ? "s" : "");
    DMLI_NULL_IF(!v->act_descs, "%s: ActivationDescs is NULL (%u activations are required)", v->op,
                 want);
    for (uint32_t i = 0; i < want; ++i) {
        char field[32];
        snprintf(field, sizeof field, "ActivationDescs[%u]", i);
        DMLI_TRY(dmli_activation_fused(v->op, field, &v->act_descs[i], x->type, &s->act[i]));
    }
    return S_OK;
}

static HRESULT infer_view(const rnn_view *v, dmli_op_state *st)
{
    const rnn_scratch *s = DMLI_OP_SCRATCH(st, rnn_scratch);
    const dmli_tensor *x = &st->inputs[0], *r = &st->inputs[s->slot[DMLI_RNN_R]];
    uint64_t dirs = s->directions, seq = x->sizes[1], batch = x->sizes[2], input = x->sizes[3];
    uint64_t hidden = r->sizes[3], gh = v->gates * hidden;
    DMLI_INVALID_IF(x->sizes[0] != 1, "%s: InputTensor.Sizes[0] (%llu) must be 1", v->op,
                    (unsigned long long)x->sizes[0]);
    static const char *const rules[DMLI_RNN_ROLES] = {
        NULL,
        "{1, num_directions, gates * hidden_size, input_size}",
        "{1, num_directions, gates * hidden_size, hidden_size}",
        "{1, 1, num_directions, 2 * gates * hidden_size}",
        "{1, num_directions, batch_size, hidden_size}",
        "{1, num_directions, batch_size, hidden_size}",
        "{1, 1, 1, batch_size}",
        "{1, 1, num_directions, 3 * hidden_size}",
        "{seq_length, num_directions, batch_size, hidden_size}",
        "{1, num_directions, batch_size, hidden_size}",
        "{1, num_directions, batch_size, hidden_size}"};
    const uint64_t want[DMLI_RNN_ROLES][4] = {{0},
                                              {1, dirs, gh, input},
                                              {1, dirs, gh, hidden},
                                              {1, 1, dirs, 2 * gh},
                                              {1, dirs, batch, hidden},
                                              {1, dirs, batch, hidden},
                                              {1, 1, 1, batch},
                                              {1, 1, dirs, 3 * hidden},
                                              {seq, dirs, batch, hidden},
                                              {1, dirs, batch, hidden},
                                              {1, dirs, batch, hidden}};
    /* The recurrence's rows name hidden_size: checked first, with its own rule. */
    DMLI_INVALID_IF(r->sizes[2] != gh || r->sizes[1] != dirs,
                    "%s: RecurrenceTensor.Sizes ({%llu,%llu,%llu,%llu}) must be {1, %llu, %u * "
                    "%llu, %llu} ({1, num_directions, %u * hidden_size, hidden_size}, "
                    "hidden_size its last size)",
                    v->op, (unsigned long long)r->sizes[0], (unsigned long long)r->sizes[1],
                    (unsigned long long)r->sizes[2], (unsigned long long)r->sizes[3],
                    (unsigned long long)dirs, v->gates, (unsigned long long)hidden,
                    (unsigned long long)hidden, v->gates);
    for (int role = DMLI_RNN_W; role < DMLI_RNN_ROLES; ++role) {
        if (s->slot[role] < 0 || !role_tensor(st, s, role)->present)
            continue;
        DMLI_TRY(dmli_ops_expect_sizes(v->op, role_names[role], role_tensor(st, s, role),
                                       want[role], rules[role]));
    }
    return S_OK;
}

static void lower_view(const rnn_view *v, dmli_op_state *st)
{
    const rnn_scratch *s = DMLI_OP_SCRATCH(st, rnn_scratch);
    const dmli_tensor *x = &st->inputs[0];
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_RNN);
    dmli_rnn *r = DMLI_COMPUTE_WORK(c, dmli_rnn);
    r->cell = v->cell;
    r->type = x->type;
    r->seq = (int64_t)x->sizes[1];
    r->batch = (int64_t)x->sizes[2];
    r->input = (int64_t)x->sizes[3];
    r->hidden = (int64_t)st->inputs[s->slot[DMLI_RNN_R]].sizes[3];
    r->directions = s->directions;
    r->backward = v->direction == DML_RECURRENT_NETWORK_DIRECTION_BACKWARD;
    r->acts = v->acts;
    for (uint32_t i = 0; i < DMLI_RNN_MAX_ACTS; ++i) {
        r->act[i].act = s->act[i].act;
        memcpy(r->act[i].param, s->act[i].param, sizeof r->act[i].param);
    }
    bool any_output = false;
    for (int role = 0; role < DMLI_RNN_ROLES; ++role) {
        const dmli_tensor *t = s->slot[role] >= 0 ? role_tensor(st, s, role) : NULL;
        r->present[role] = t && t->present;
        if (!r->present[role]) {
            dmli_compute_add(c, st, false, 0); /* InputTensor stands in, never read */
            continue;
        }
        dmli_compute_add(c, st, is_output(role), (uint32_t)s->slot[role]);
        memcpy(r->stride[role], t->strides, sizeof r->stride[role]);
        any_output |= is_output(role);
    }
    st->computed = true;
    if (!any_output)
        c->empty = true;
}

/* ---- RNN ---------------------------------------------------------------------------------- */

/* RNN and GRU share their members up to Direction (GRU adds LinearBeforeReset after). */
#define SHARED_VIEW(d, name, cell, gates, acts)                                                   \
    shared_view(name, cell, gates, acts,                                                          \
                (const DML_TENSOR_DESC *[]){d->InputTensor, d->WeightTensor, d->RecurrenceTensor, \
                                            d->BiasTensor, d->HiddenInitTensor,                   \
                                            d->SequenceLengthsTensor, d->OutputSequenceTensor,    \
                                            d->OutputSingleTensor},                               \
                d->ActivationDescCount, d->ActivationDescs, d->Direction)

/* in: Input, Weight, Recurrence, Bias, HiddenInit, SequenceLengths, OutputSequence,
 * OutputSingle; no cell state, peepholes or cell output. */
static rnn_view shared_view(const char *name, dmli_rnn_cell cell, uint32_t gates, uint32_t acts,
                            const DML_TENSOR_DESC *const in[8], UINT act_count,
                            const DML_OPERATOR_DESC *act_descs,
                            DML_RECURRENT_NETWORK_DIRECTION direction)
{
    rnn_view v = {name, cell, gates, acts, {0}, {0}, act_count, act_descs, direction};
    const DML_TENSOR_DESC *t[] = {in[0], in[1], in[2], in[3], in[4], NULL,
                                  in[5], NULL,  in[6], in[7], NULL};
    for (int role = 0; role < DMLI_RNN_ROLES; ++role) {
        v.t[role] = t[role];
        v.member[role] = role != DMLI_RNN_C0 && role != DMLI_RNN_P && role != DMLI_RNN_YC;
    }
    return v;
}

static rnn_view rnn_of(const void *desc)
{
    const DML_RNN_OPERATOR_DESC *d = desc;
    return SHARED_VIEW(d, "RNN", DMLI_RNN_CELL_SIMPLE, 1, 1);
}

static HRESULT validate_rnn(const void *desc, dmli_op_state *st)
{
    rnn_view v = rnn_of(desc);
    return validate_view(&v, st);
}

static HRESULT infer_rnn(const void *desc, dmli_op_state *st)
{
    rnn_view v = rnn_of(desc);
    return infer_view(&v, st);
}

static void lower_rnn(const void *desc, dmli_op_state *st)
{
    rnn_view v = rnn_of(desc);
    lower_view(&v, st);
}

const dmli_op_steps dmli_op_rnn = {
    .validate = validate_rnn, .infer = infer_rnn, .lower = lower_rnn};

/* ---- GRU ---------------------------------------------------------------------------------- */

static rnn_view gru_of(const void *desc)
{
    const DML_GRU_OPERATOR_DESC *d = desc;
    return SHARED_VIEW(d, "GRU", DMLI_RNN_CELL_GRU, 3, 2);
}

static HRESULT validate_gru(const void *desc, dmli_op_state *st)
{
    rnn_view v = gru_of(desc);
    return validate_view(&v, st);
}

static HRESULT infer_gru(const void *desc, dmli_op_state *st)
{
    rnn_view v = gru_of(desc);
    return infer_view(&v, st);
}

static void lower_gru(const void *desc, dmli_op_state *st)
{
    const DML_GRU_OPERATOR_DESC *d = desc;
    rnn_view v = gru_of(desc);
    lower_view(&v, st);
    DMLI_COMPUTE_WORK(&st->compute, dmli_rnn)->linear_before_reset = d->LinearBeforeReset != 0;
}

const dmli_op_steps dmli_op_gru = {
    .validate = validate_gru, .infer = infer_gru, .lower = lower_gru};

/* ---- LSTM --------------------------------------------------------------------------------- */

static rnn_view lstm_of(const void *desc)
{
    const DML_LSTM_OPERATOR_DESC *d = desc;
    rnn_view v = {
        "LSTM",      DMLI_RNN_CELL_LSTM, 4, 3, {0}, {0}, d->ActivationDescCount, d->ActivationDescs,
        d->Direction};
    const DML_TENSOR_DESC *t[] = {
        d->InputTensor,          d->WeightTensor,       d->RecurrenceTensor,      d->BiasTensor,
        d->HiddenInitTensor,     d->CellMemInitTensor,  d->SequenceLengthsTensor, d->PeepholeTensor,
        d->OutputSequenceTensor, d->OutputSingleTensor, d->OutputCellSingleTensor};
    for (int role = 0; role < DMLI_RNN_ROLES; ++role) {
        v.t[role] = t[role];
        v.member[role] = true;
    }
    return v;
}

static HRESULT validate_lstm(const void *desc, dmli_op_state *st)
{
    const DML_LSTM_OPERATOR_DESC *d = desc;
    rnn_view v = lstm_of(desc);
    DMLI_TRY(validate_view(&v, st));
    DMLI_INVALID_IF(d->UseClipThreshold && !(d->ClipThreshold > 0.0f),
                    "LSTM: ClipThreshold (%g) must be greater than 0 where UseClipThreshold is "
                    "TRUE",
                    (double)d->ClipThreshold);
    return S_OK;
}

static HRESULT infer_lstm(const void *desc, dmli_op_state *st)
{
    rnn_view v = lstm_of(desc);
    return infer_view(&v, st);
}

static void lower_lstm(const void *desc, dmli_op_state *st)
{
    const DML_LSTM_OPERATOR_DESC *d = desc;
    rnn_view v = lstm_of(desc);
    lower_view(&v, st);
    dmli_rnn *r = DMLI_COMPUTE_WORK(&st->compute, dmli_rnn);
    r->clip = d->UseClipThreshold != 0;
    r->clip_threshold = d->ClipThreshold;
    r->couple = d->CoupleInputForget != 0;
}

const dmli_op_steps dmli_op_lstm = {
    .validate = validate_lstm, .infer = infer_lstm, .lower = lower_lstm};
