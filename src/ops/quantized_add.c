/* SPDX-License-Identifier: MIT */
/*
 * DirectML's ELEMENT_WISE_QUANTIZED_LINEAR_ADD (feature level 4.0): A and B dequantized, added,
 * quantized again, as the page's formula says:
 *
 *   out = clamp(round(((A - Azp) * As + (B - Bzp) * Bs) / Os) + Ozp, Min, Max)
 *
 * It lowers to one map that is a chain of four stages (cl/map.cl STAGES): DEQUANTIZE_LINEAR of
 * A, of B, their ADD and a QUANTIZE_LINEAR of the sum, each computed in float32 and each
 * rounded once: the element-wise quantizations' rules (src/ops/elementwise_quant.c: differences
 * exact, halves to even, saturation, NaN 0) with one float32 add between them. An absent zero
 * point is 0 (the stage without it).
 *
 * The rules (the page's, and ONNX Runtime's QLinearAdd, which its DirectML provider maps onto
 * this operator): ATensor, BTensor and OutputTensor each INT8 or UINT8 (they may differ), each
 * zero point of its tensor's DataType; the three scales FLOAT32; every tensor of one
 * DimensionCount; ATensor, BTensor and OutputTensor of one Sizes (an element-wise operator: a
 * broadcast A or B is a 0 stride, as that provider builds them);
 * each scale and zero point holds one element (the page's "expected number of elements is 1";
 * the provider gives them DimensionCount ones), read for every output element.
 */
#include <string.h>

#include "ops/common.h"

enum { IN_A, IN_A_SCALE, IN_A_ZP, IN_B, IN_B_SCALE, IN_B_ZP, IN_O_SCALE, IN_O_ZP, N_IN };

static const char *const names[N_IN] = {
    "ATensor",      "AScaleTensor",     "AZeroPointTensor",  "BTensor",
    "BScaleTensor", "BZeroPointTensor", "OutputScaleTensor", "OutputZeroPointTensor"};

#define OP "ELEMENT_WISE_QUANTIZED_LINEAR_ADD"

static const DML_TENSOR_DESC *member(const DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC *d,
                                     int k)
{
    const DML_TENSOR_DESC *const t[N_IN] = {
        d->ATensor,      d->AScaleTensor,     d->AZeroPointTensor,  d->BTensor,
        d->BScaleTensor, d->BZeroPointTensor, d->OutputScaleTensor, d->OutputZeroPointTensor};
    return t[k];
}

static bool is_8bit(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static bool is_zero_point(int k)
{
    return k == IN_A_ZP || k == IN_B_ZP || k == IN_O_ZP;
}

static bool is_scale(int k)
{
    return k == IN_A_SCALE || k == IN_B_SCALE || k == IN_O_SCALE;
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC *d = desc;
    for (int k = 0; k < N_IN; ++k) {
        unsigned rules = DMLI_TENSOR_INPUT | (is_zero_point(k) ? DMLI_TENSOR_OPTIONAL : 0);
        DMLI_TRY(dmli_tensor_import(OP, names[k], member(d, k), rules, &st->inputs[k]));
        st->input_names[k] = names[k];
    }
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    st->output_names[0] = "OutputTensor";
    /* A, B and the output each INT8 or UINT8, its zero point of its DataType; the scales
     * FLOAT32; one DimensionCount. */
    const dmli_tensor *a = &st->inputs[IN_A], *out = &st->outputs[0];
    const int value_of[N_IN] = {IN_A, IN_A, IN_A, IN_B, IN_B, IN_B, -1, -1};
    for (int k = 0; k < N_IN; ++k) {
        const dmli_tensor *t = &st->inputs[k];
        if (!t->present)
            continue;
        if (k == IN_A || k == IN_B)
            DMLI_INVALID_IF(!is_8bit(t->type),
                            "%s: %s.DataType (%s) is not one %s takes (INT8, UINT8)", OP, names[k],
                            dmli_type_name(t->type), OP);
        else if (is_scale(k))
            DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_FLOAT32,
                            "%s: %s.DataType (%s) must be FLOAT32", OP, names[k],
                            dmli_type_name(t->type));
        else if (k == IN_O_ZP)
            DMLI_TRY(dmli_ops_same_type(OP, names[k], t, "OutputTensor", out));
        else
            DMLI_TRY(
                dmli_ops_same_type(OP, names[k], t, names[value_of[k]], &st->inputs[value_of[k]]));
        if (k != IN_A)
            DMLI_TRY(dmli_ops_same_rank(OP, names[k], t, "ATensor", a));
    }
    DMLI_INVALID_IF(!is_8bit(out->type),
                    "%s: OutputTensor.DataType (%s) is not one %s gives (INT8, UINT8)", OP,
                    dmli_type_name(out->type), OP);
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "ATensor", a));
    st->n_inputs = N_IN;
    st->n_outputs = 1;
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const uint64_t *sizes = st->inputs[IN_A].sizes;
    DMLI_TRY(dmli_ops_expect_sizes(OP, "BTensor", &st->inputs[IN_B], sizes,
                                   "ATensor.Sizes: broadcast with 0 strides"));
    for (int k = 0; k < N_IN; ++k) {
        const dmli_tensor *t = &st->inputs[k];
        if (k == IN_A || k == IN_B || !t->present)
            continue;
        uint64_t n = t->elements;
        DMLI_INVALID_IF(n != 1,
                        "%s: %s holds %llu elements (Sizes of DimensionCount %u); a scale or "
                        "zero point holds 1 element",
                        OP, names[k], (unsigned long long)n, t->rank);
    }
    return dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], sizes,
                                 "ATensor.Sizes: the operator keeps the shape");
}

/* Stage s: op on the given operands (inputs below 16, DMLI_MAP_ARG_STAGE(s) a stage's result). */
static void add_stage(dmli_map *m, uint32_t s, dmli_map_op op, int n_args, const uint8_t *args)
{
    dmli_map_stage st;
    memset(&st, 0, sizeof st);
    st.op = op;
    st.act = DMLI_ACT_NONE;
    st.n_args = (uint8_t)n_args;
    for (int j = 0; j < n_args; ++j)
        st.arg[j] = args[j];
    dmli_map_set_stage(m, s, &st);
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *out = &st->outputs[0];
    dmli_map *m = &st->map;
    st->mapped = true;
    /* The map's inputs: the present tensors, in the descriptor's order. */
    int slot_of[N_IN], present[N_IN], n = 0;
    for (int k = 0; k < N_IN; ++k) {
        slot_of[k] = -1;
        if (st->inputs[k].present) {
            slot_of[k] = n;
            present[n++] = k;
        }
    }
    dmli_map_init(m, DMLI_MAP_DEQUANTIZE_LINEAR, out->type, (uint32_t)n);
    for (int j = 0; j < n; ++j) {
        m->in[j].type = st->inputs[present[j]].type;
        m->in[j].slot = (uint32_t)present[j];
    }
    m->n_stages = 4;
    const int x[2] = {IN_A, IN_B};
    for (uint32_t s = 0; s < 2; ++s) {
        int k = x[s];
        bool zp = slot_of[k + 2] >= 0;
        uint8_t args[3] = {(uint8_t)slot_of[k], (uint8_t)slot_of[k + 1],
                           (uint8_t)(zp ? slot_of[k + 2] : 0)};
        add_stage(m, s, zp ? DMLI_MAP_DEQUANTIZE_LINEAR : DMLI_MAP_DEQUANTIZE_SCALE, zp ? 3 : 2,
                  args);
    }
    uint8_t sum[2] = {DMLI_MAP_ARG_STAGE(0), DMLI_MAP_ARG_STAGE(1)};
    add_stage(m, 2, DMLI_MAP_ADD, 2, sum);
    bool ozp = slot_of[IN_O_ZP] >= 0;
    uint8_t q[3] = {DMLI_MAP_ARG_STAGE(2), (uint8_t)slot_of[IN_O_SCALE],
                    (uint8_t)(ozp ? slot_of[IN_O_ZP] : 0)};
    add_stage(m, 3, ozp ? DMLI_MAP_QUANTIZE_LINEAR : DMLI_MAP_QUANTIZE_SCALE, ozp ? 3 : 2, q);
    for (uint32_t d = 0; d < out->rank; ++d) {
        int64_t in_strides[DMLI_MAP_MAX_INPUTS];
        for (int j = 0; j < n; ++j) {
            const dmli_tensor *t = &st->inputs[present[j]];
            /* A scale or zero point is its one element everywhere. */
            in_strides[j] = (present[j] == IN_A || present[j] == IN_B) ? t->strides[d] : 0;
        }
        dmli_map_push(m, (int64_t)out->sizes[d], out->strides[d], in_strides);
    }
}

const dmli_op_steps dmli_op_quantized_linear_add = {
    .validate = validate, .infer = infer, .lower = lower};
