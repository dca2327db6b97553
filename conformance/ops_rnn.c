/* SPDX-License-Identifier: MIT */
/*
 * Builders for DirectML's recurrent layers RNN, GRU and LSTM (src/ops/recurrent.c): the
 * descriptor's tensors by their member names (the optional ones absent: NULL), outputs
 * described under inputs (no data) or by the expected outputs (an output neither gives is
 * absent); attributes `Direction` (a DML_RECURRENT_NETWORK_DIRECTION name or number),
 * `ActivationDescs` (a list of activations, each as FusedActivation's object; the count is the
 * list's length), GRU's `LinearBeforeReset`, LSTM's `ClipThreshold`, `UseClipThreshold` and
 * `CoupleInputForget`. Float outputs need the case's tolerance: the default is exact.
 */
#include <stdbool.h>
#include <string.h>

#include "runner.h"

static int attr_direction(rt_build *b, DML_RECURRENT_NETWORK_DIRECTION *out)
{
    static const char *const names[] = {"DML_RECURRENT_NETWORK_DIRECTION_FORWARD",
                                        "DML_RECURRENT_NETWORK_DIRECTION_BACKWARD",
                                        "DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL"};
    const cJSON *v = rt_attr(b, "Direction");
    *out = DML_RECURRENT_NETWORK_DIRECTION_FORWARD;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v) && rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_RECURRENT_NETWORK_DIRECTION)v->valueint;
        return 0;
    }
    for (int i = 0; i < 3 && cJSON_IsString(v); ++i)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (DML_RECURRENT_NETWORK_DIRECTION)i;
            return 0;
        }
    return rt_fail(b, "attrs.Direction must be a DML_RECURRENT_NETWORK_DIRECTION name");
}

/* RNN and GRU: the same members up to Direction; GRU adds LinearBeforeReset. */
static int build_rnn_gru(rt_build *b)
{
    const bool gru = strcmp(b->c->op, "DML_OPERATOR_GRU") == 0;
    static const char *const inputs[] = {
        "InputTensor",          "WeightTensor",       "RecurrenceTensor",
        "BiasTensor",           "HiddenInitTensor",   "SequenceLengthsTensor",
        "OutputSequenceTensor", "OutputSingleTensor", NULL};
    static const char *const outputs[] = {"OutputSequenceTensor", "OutputSingleTensor", NULL};
    const char *const attrs[] = {"ActivationDescs", "Direction", gru ? "LinearBeforeReset" : NULL,
                                 NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_GRU_OPERATOR_DESC *d = rt_alloc(b, sizeof *d); /* RNN's members are its first ones */
    DML_OPERATOR_DESC *acts = NULL;
    if (rt_required_input(b, "InputTensor", &d->InputTensor) ||
        rt_required_input(b, "WeightTensor", &d->WeightTensor) ||
        rt_required_input(b, "RecurrenceTensor", &d->RecurrenceTensor) ||
        rt_optional_input(b, "BiasTensor", &d->BiasTensor) ||
        rt_optional_input(b, "HiddenInitTensor", &d->HiddenInitTensor) ||
        rt_optional_input(b, "SequenceLengthsTensor", &d->SequenceLengthsTensor) ||
        rt_optional_output(b, "OutputSequenceTensor", &d->OutputSequenceTensor) ||
        rt_optional_output(b, "OutputSingleTensor", &d->OutputSingleTensor) ||
        rt_activation_list(b, "ActivationDescs", &acts, &d->ActivationDescCount) ||
        attr_direction(b, &d->Direction) ||
        (gru && rt_attr_bool(b, "LinearBeforeReset", &d->LinearBeforeReset)))
        return -1;
    d->ActivationDescs = acts;
    b->desc.Type = gru ? DML_OPERATOR_GRU : DML_OPERATOR_RNN;
    b->desc.Desc = d;
    return 0;
}

static int build_lstm(rt_build *b)
{
    static const char *const inputs[] = {
        "InputTensor",          "WeightTensor",       "RecurrenceTensor",       "BiasTensor",
        "HiddenInitTensor",     "CellMemInitTensor",  "SequenceLengthsTensor",  "PeepholeTensor",
        "OutputSequenceTensor", "OutputSingleTensor", "OutputCellSingleTensor", NULL};
    static const char *const outputs[] = {"OutputSequenceTensor", "OutputSingleTensor",
                                          "OutputCellSingleTensor", NULL};
    static const char *const attrs[] = {"ActivationDescs",  "Direction",         "ClipThreshold",
                                        "UseClipThreshold", "CoupleInputForget", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_LSTM_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    DML_OPERATOR_DESC *acts = NULL;
    if (rt_required_input(b, "InputTensor", &d->InputTensor) ||
        rt_required_input(b, "WeightTensor", &d->WeightTensor) ||
        rt_required_input(b, "RecurrenceTensor", &d->RecurrenceTensor) ||
        rt_optional_input(b, "BiasTensor", &d->BiasTensor) ||
        rt_optional_input(b, "HiddenInitTensor", &d->HiddenInitTensor) ||
        rt_optional_input(b, "CellMemInitTensor", &d->CellMemInitTensor) ||
        rt_optional_input(b, "SequenceLengthsTensor", &d->SequenceLengthsTensor) ||
        rt_optional_input(b, "PeepholeTensor", &d->PeepholeTensor) ||
        rt_optional_output(b, "OutputSequenceTensor", &d->OutputSequenceTensor) ||
        rt_optional_output(b, "OutputSingleTensor", &d->OutputSingleTensor) ||
        rt_optional_output(b, "OutputCellSingleTensor", &d->OutputCellSingleTensor) ||
        rt_activation_list(b, "ActivationDescs", &acts, &d->ActivationDescCount) ||
        attr_direction(b, &d->Direction) ||
        (rt_attr(b, "ClipThreshold") &&
         rt_attr_float(b, "ClipThreshold", b->c->attrs, &d->ClipThreshold)) ||
        rt_attr_bool(b, "UseClipThreshold", &d->UseClipThreshold) ||
        rt_attr_bool(b, "CoupleInputForget", &d->CoupleInputForget))
        return -1;
    d->ActivationDescs = acts;
    b->desc.Type = DML_OPERATOR_LSTM;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_rnn[] = {
    {"DML_OPERATOR_RNN", build_rnn_gru},
    {"DML_OPERATOR_GRU", build_rnn_gru},
    {"DML_OPERATOR_LSTM", build_lstm},
    {NULL, NULL},
};
