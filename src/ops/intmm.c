/* SPDX-License-Identifier: MIT */
/*
 * DirectML's integer and quantized matrix operators, one family (src/intmm.h, cl/intmm.cl):
 * MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, CONVOLUTION_INTEGER,
 * QUANTIZED_LINEAR_CONVOLUTION (feature level 2.1) and MATRIX_MULTIPLY_INTEGER_TO_FLOAT (6.2).
 * Each output element is the exact sum, in 32-bit integers, of (a - a's zero point) x (b - b's
 * zero point) over K (a product's: A {D0, D1, M, K} . B {D0, D1, K, N}; a convolution's window:
 * Cin / GroupCount x KH x KW taps of the input {N, Cin, H, W} under the filter {Cout, Cin /
 * GroupCount, KH, KW}, FORWARD cross-correlation, taps in the padding left out, i.e. the
 * padding holds the zero point), then:
 *   *_INTEGER                         the sum (INT32);
 *   QUANTIZED_LINEAR_*                (sum + bias) x ((a's scale x b's scale) / the output's
 *                                     scale) in float32, rounded half to even, + the output's
 *                                     zero point, saturated to INT8 or UINT8 (NaN gives 0): the
 *                                     pages' dequantize-compute-quantize as ONNX's QLinearMatMul
 *                                     and QLinearConv define it (the INT32 bias on the sum);
 *   MATRIX_MULTIPLY_INTEGER_TO_FLOAT  sum x (a's scale x b's scale) in float32, + bias, in the
 *                                     output's FLOAT32 or FLOAT16.
 *
 * The pages' tables, their union over the feature levels (docs/operators.md): A and B INT8 or
 * UINT8, each zero point of its tensor's type; the *_INTEGER outputs INT32; the quantized
 * outputs INT8 or UINT8 with the output zero point's type; their scales FLOAT32, the
 * convolution's bias INT32; MATRIX_MULTIPLY_INTEGER_TO_FLOAT's scales, bias and output one of
 * FLOAT32, FLOAT16. The products take 2 to 4 dimensions (A, B and the output one count), the
 * convolutions 4 (CONVOLUTION_INTEGER 3 too: one spatial dimension); zero points, scales and
 * bias 1 to 4.
 *
 * Zero points, scales and bias are read through their strides, right-aligned against the
 * output's coordinates: a product's A-side ones broadcast to {D0, D1, M, 1} (per tensor or per
 * row), B-side ones to {D0, D1, 1, N} (per tensor or per column), the output's and the bias to
 * {D0, D1, M, N} (each size 1 or the coordinate's). A convolution's input and output ones hold
 * one element; the filter's and the bias one or Cout, along any one dimension (the pages'
 * {1, Cout, 1, 1}; {Cout}; ONNX's vector right-aligned, {1, 1, 1, Cout}).
 */
#include <string.h>

#include "intmm.h"
#include "ops/common.h"

/* An operator's description by role. */
typedef struct imm_view {
    const char *op;
    bool conv;
    int out_kind;
    const char *const *names; /* by role */
    uint32_t n_in;
    int order[DMLI_IMM_ROLES]; /* the inputs' roles in the description's (binding) order */
    const DML_TENSOR_DESC *t[DMLI_IMM_ROLES];
    uint32_t max_rank, min_rank; /* A's, B's and the output's DimensionCount */
    UINT dims, groups;
    const UINT *strides, *dilations, *start, *end;
} imm_view;

static const char *const product_names[DMLI_IMM_ROLES] = {
    "ATensor",      "BTensor",      "AZeroPointTensor",  "BZeroPointTensor",
    "AScaleTensor", "BScaleTensor", "OutputScaleTensor", "OutputZeroPointTensor",
    "BiasTensor",   "OutputTensor"};
static const char *const conv_names[DMLI_IMM_ROLES] = {
    "InputTensor",      "FilterTensor",      "InputZeroPointTensor", "FilterZeroPointTensor",
    "InputScaleTensor", "FilterScaleTensor", "OutputScaleTensor",    "OutputZeroPointTensor",
    "BiasTensor",       "OutputTensor"};

static bool required(int role)
{
    return role == DMLI_IMM_A || role == DMLI_IMM_B || role == DMLI_IMM_OUT ||
           role == DMLI_IMM_ASCALE || role == DMLI_IMM_BSCALE || role == DMLI_IMM_OSCALE;
}

/* What validate finds for infer and lower (st->scratch): each role's slot, -1 not a member. */
typedef struct imm_scratch {
    int slot[DMLI_IMM_ROLES];
} imm_scratch;

static const dmli_tensor *role_tensor(const dmli_op_state *st, const imm_scratch *s, int role)
{
    if (s->slot[role] < 0)
        return NULL;
    const dmli_tensor *t = role == DMLI_IMM_OUT ? &st->outputs[0] : &st->inputs[s->slot[role]];
    return t->present ? t : NULL;
}

static HRESULT import(const imm_view *v, dmli_op_state *st, imm_scratch *s)
{
    for (int r = 0; r < DMLI_IMM_ROLES; ++r)
        s->slot[r] = -1;
    for (uint32_t i = 0; i < v->n_in; ++i) {
        const int role = v->order[i];
        const unsigned rules = DMLI_TENSOR_INPUT | (required(role) ? 0 : DMLI_TENSOR_OPTIONAL);
        DMLI_TRY(dmli_tensor_import(v->op, v->names[role], v->t[role], rules, &st->inputs[i]));
        st->input_names[i] = v->names[role];
        s->slot[role] = (int)i;
    }
    DMLI_TRY(dmli_tensor_import(v->op, v->names[DMLI_IMM_OUT], v->t[DMLI_IMM_OUT],
                                DMLI_TENSOR_OUTPUT, &st->outputs[0]));
    st->output_names[0] = v->names[DMLI_IMM_OUT];
    s->slot[DMLI_IMM_OUT] = 0;
    st->n_inputs = v->n_in;
    st->n_outputs = 1;
    st->data_input = 0;
    return S_OK;
}

static bool int8_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

static bool float_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT16;
}

static HRESULT check_types(const imm_view *v, const dmli_op_state *st, const imm_scratch *s)
{
    const dmli_tensor *a = role_tensor(st, s, DMLI_IMM_A), *b = role_tensor(st, s, DMLI_IMM_B);
    const dmli_tensor *out = role_tensor(st, s, DMLI_IMM_OUT);
    const char *const *n = v->names;
    DMLI_INVALID_IF(!int8_type(a->type), "%s: %s.DataType (%s) must be INT8 or UINT8", v->op,
                    n[DMLI_IMM_A], dmli_type_name(a->type));
    DMLI_INVALID_IF(!int8_type(b->type), "%s: %s.DataType (%s) must be INT8 or UINT8", v->op,
                    n[DMLI_IMM_B], dmli_type_name(b->type));
    if (v->out_kind == DMLI_IMM_OUT_INT32)
        DMLI_INVALID_IF(out->type != DML_TENSOR_DATA_TYPE_INT32,
                        "%s: OutputTensor.DataType (%s) must be INT32", v->op,
                        dmli_type_name(out->type));
    else if (v->out_kind == DMLI_IMM_OUT_QUANT)
        DMLI_INVALID_IF(!int8_type(out->type),
                        "%s: OutputTensor.DataType (%s) must be INT8 or "
                        "UINT8",
                        v->op, dmli_type_name(out->type));
    else
        DMLI_INVALID_IF(!float_type(out->type),
                        "%s: OutputTensor.DataType (%s) must be FLOAT32 "
                        "or FLOAT16",
                        v->op, dmli_type_name(out->type));
    /* Each zero point has its tensor's type. */
    static const int zp_of[3][2] = {
        {DMLI_IMM_AZP, DMLI_IMM_A}, {DMLI_IMM_BZP, DMLI_IMM_B}, {DMLI_IMM_OZP, DMLI_IMM_OUT}};
    for (int i = 0; i < 3; ++i) {
        const dmli_tensor *z = role_tensor(st, s, zp_of[i][0]);
        if (z)
            DMLI_TRY(dmli_ops_same_type(v->op, n[zp_of[i][0]], z, n[zp_of[i][1]],
                                        role_tensor(st, s, zp_of[i][1])));
    }
    /* Scales: FLOAT32 for the quantized outputs, the output's type for a float one. */
    for (int role = DMLI_IMM_ASCALE; role <= DMLI_IMM_OSCALE; ++role) {
        const dmli_tensor *t = role_tensor(st, s, role);
        if (!t)
            continue;
        if (v->out_kind == DMLI_IMM_OUT_FLOAT)
            DMLI_TRY(dmli_ops_same_type(v->op, n[role], t, "OutputTensor", out));
        else
            DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_FLOAT32,
                            "%s: %s.DataType (%s) must be FLOAT32", v->op, n[role],
                            dmli_type_name(t->type));
    }
    const dmli_tensor *bias = role_tensor(st, s, DMLI_IMM_BIAS);
    if (bias && v->out_kind == DMLI_IMM_OUT_FLOAT)
        DMLI_TRY(dmli_ops_same_type(v->op, "BiasTensor", bias, "OutputTensor", out));
    else if (bias)
        DMLI_INVALID_IF(bias->type != DML_TENSOR_DATA_TYPE_INT32,
                        "%s: BiasTensor.DataType (%s) must be INT32 (the sum's quantization: "
                        "scale the input's x the filter's, zero point 0)",
                        v->op, dmli_type_name(bias->type));
    return S_OK;
}

static HRESULT check_ranks(const imm_view *v, const dmli_op_state *st, const imm_scratch *s)
{
    const dmli_tensor *a = role_tensor(st, s, DMLI_IMM_A);
    if (v->min_rank == v->max_rank)
        DMLI_INVALID_IF(a->rank != v->max_rank, "%s: %s.DimensionCount (%u) must be %u", v->op,
                        v->names[DMLI_IMM_A], a->rank, v->max_rank);
    else
        DMLI_INVALID_IF(a->rank < v->min_rank || a->rank > v->max_rank,
                        "%s: %s.DimensionCount (%u) must be %u to %u", v->op, v->names[DMLI_IMM_A],
                        a->rank, v->min_rank, v->max_rank);
    DMLI_TRY(dmli_ops_same_rank(v->op, v->names[DMLI_IMM_B], role_tensor(st, s, DMLI_IMM_B),
                                v->names[DMLI_IMM_A], a));
    DMLI_TRY(dmli_ops_same_rank(v->op, "OutputTensor", role_tensor(st, s, DMLI_IMM_OUT),
                                v->names[DMLI_IMM_A], a));
    for (int role = DMLI_IMM_AZP; role <= DMLI_IMM_BIAS; ++role) {
        const dmli_tensor *t = role_tensor(st, s, role);
        DMLI_INVALID_IF(t && t->rank > 4, "%s: %s.DimensionCount (%u) must be 1 to 4", v->op,
                        v->names[role], t ? t->rank : 0);
    }
    return S_OK;
}

/* The convolution's arrays of DimensionCount entries: present, Strides and Dilations >= 1. */
static HRESULT check_conv_params(const imm_view *v, const dmli_op_state *st, const imm_scratch *s)
{
    const dmli_tensor *x = role_tensor(st, s, DMLI_IMM_A), *w = role_tensor(st, s, DMLI_IMM_B);
    DMLI_INVALID_IF(v->dims != x->rank - 2,
                    "%s: DimensionCount (%u) must be InputTensor.DimensionCount - 2 (%u): the "
                    "spatial dimensions",
                    v->op, v->dims, x->rank - 2);
    const UINT *arrays[4] = {v->strides, v->dilations, v->start, v->end};
    static const char *const field[4] = {"Strides", "Dilations", "StartPadding", "EndPadding"};
    for (int i = 0; i < 4; ++i)
        DMLI_INVALID_IF(!arrays[i], "%s: %s is NULL: it must hold DimensionCount (%u) values",
                        v->op, field[i], v->dims);
    for (UINT i = 0; i < v->dims; ++i) {
        DMLI_INVALID_IF(v->strides[i] < 1, "%s: Strides[%u] (%u) must be at least 1", v->op, i,
                        v->strides[i]);
        DMLI_INVALID_IF(v->dilations[i] < 1, "%s: Dilations[%u] (%u) must be at least 1", v->op, i,
                        v->dilations[i]);
    }
    const unsigned long long cin = x->sizes[1], f0 = w->sizes[0], f1 = w->sizes[1];
    DMLI_INVALID_IF(v->groups < 1, "%s: GroupCount (%u) must be at least 1", v->op, v->groups);
    DMLI_INVALID_IF(cin % v->groups != 0,
                    "%s: GroupCount (%u) must divide the input channels (InputTensor.Sizes[1] = "
                    "%llu)",
                    v->op, v->groups, cin);
    DMLI_INVALID_IF(f1 * v->groups != cin,
                    "%s: FilterTensor.Sizes[1] (%llu) x GroupCount (%u) must equal the input "
                    "channels (InputTensor.Sizes[1] = %llu): filters are {Cout, Cin / "
                    "GroupCount, ...}",
                    v->op, f1, v->groups, cin);
    DMLI_INVALID_IF(f0 % v->groups != 0,
                    "%s: GroupCount (%u) must divide the output channels (FilterTensor.Sizes[0] "
                    "= %llu)",
                    v->op, v->groups, f0);
    return S_OK;
}

static HRESULT validate_view(const imm_view *v, dmli_op_state *st)
{
    imm_scratch *s = DMLI_OP_SCRATCH(st, imm_scratch);
    DMLI_TRY(import(v, st, s));
    DMLI_TRY(check_types(v, st, s));
    DMLI_TRY(check_ranks(v, st, s));
    if (v->conv)
        DMLI_TRY(check_conv_params(v, st, s));
    return dmli_tensor_check_disjoint(v->op, "OutputTensor", &st->outputs[0]);
}

/* t's sizes and strides right-aligned to 4 dimensions (1 and 0 in front). */
static void align4(const dmli_tensor *t, uint64_t sizes[4], int64_t strides[4])
{
    for (int d = 0; d < 4; ++d) {
        const int from = (int)t->rank - 4 + d;
        sizes[d] = from >= 0 ? t->sizes[from] : 1;
        strides[d] = from >= 0 ? t->strides[from] : 0;
    }
}

/* A convolution's tensor as {N, C, H, W} (one spatial dimension: H of size 1). */
static void conv4(const dmli_tensor *t, uint64_t sizes[4], int64_t strides[4])
{
    if (t->rank == 4) {
        align4(t, sizes, strides);
        return;
    }
    const uint64_t sz[4] = {t->sizes[0], t->sizes[1], 1, t->sizes[2]};
    const int64_t st[4] = {t->strides[0], t->strides[1], 0, t->strides[2]};
    memcpy(sizes, sz, sizeof sz);
    memcpy(strides, st, sizeof st);
}

/* A product's zero point, scale or bias against `want` (each size 1 or want's; 0 where `want`
 * names a size that must be 1): its strides over the output's coordinates. */
static HRESULT product_aux(const imm_view *v, int role, const dmli_tensor *t,
                           const uint64_t want[4], const char *rule, int64_t out[4])
{
    uint64_t sizes[4];
    int64_t strides[4];
    align4(t, sizes, strides);
    for (int d = 0; d < 4; ++d) {
        const bool ok = sizes[d] == 1 || (want[d] != 0 && sizes[d] == want[d]);
        char got[DMLI_DIMS_BUF];
        DMLI_INVALID_IF(!ok,
                        "%s: %s.Sizes (%s) must broadcast to %s: each size right-aligned 1 or "
                        "the one named (%llu at dimension %d of 4 is neither)",
                        v->op, v->names[role], dmli_format_dims(got, sizeof got, t->rank, t->sizes),
                        rule, (unsigned long long)sizes[d], d);
        out[d] = sizes[d] == 1 ? 0 : strides[d];
    }
    return S_OK;
}

/* A convolution's zero point, scale or bias: one element, or (per_channel) `cout` along one
 * dimension, the rest 1 (the pages' {1, Cout, 1, 1}, a 1-dimensional {Cout}, or ONNX's 1-D
 * vector right-aligned {1, 1, 1, Cout}: with no other per-element form, none is ambiguous). */
static HRESULT conv_aux(const imm_view *v, int role, const dmli_tensor *t, bool per_channel,
                        uint64_t cout, int64_t out[4])
{
    memset(out, 0, 4 * sizeof *out);
    if (t->elements == 1)
        return S_OK;
    int ch = -1;
    for (uint32_t d = 0; d < t->rank; ++d)
        if (t->sizes[d] != 1)
            ch = ch < 0 && t->sizes[d] == cout ? (int)d : (int)DMLI_MAX_RANK;
    const bool ok = per_channel && ch >= 0 && ch < (int)DMLI_MAX_RANK;
    char got[DMLI_DIMS_BUF];
    if (per_channel)
        DMLI_INVALID_IF(!ok,
                        "%s: %s.Sizes (%s) must hold one element, or the output channels (%llu) "
                        "along one dimension and 1 elsewhere",
                        v->op, v->names[role], dmli_format_dims(got, sizeof got, t->rank, t->sizes),
                        (unsigned long long)cout);
    else
        DMLI_INVALID_IF(!ok, "%s: %s.Sizes (%s) must hold one element (every size 1)", v->op,
                        v->names[role], dmli_format_dims(got, sizeof got, t->rank, t->sizes));
    out[1] = t->strides[ch];
    return S_OK;
}

static HRESULT infer_product(const imm_view *v, const dmli_op_state *st, const imm_scratch *s,
                             dmli_intmm *m)
{
    const dmli_tensor *a = role_tensor(st, s, DMLI_IMM_A), *b = role_tensor(st, s, DMLI_IMM_B);
    const dmli_tensor *out = role_tensor(st, s, DMLI_IMM_OUT);
    uint64_t as[4], bs[4], os[4];
    int64_t ignore[4];
    align4(a, as, ignore);
    align4(b, bs, ignore);
    align4(out, os, ignore);
    char got[DMLI_DIMS_BUF], want_s[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(bs[2] != as[3] || bs[0] != as[0] || bs[1] != as[1],
                    "%s: BTensor.Sizes (%s) must be {BatchCount, ChannelCount, K, N} with "
                    "ATensor's BatchCount, ChannelCount and K (ATensor.Sizes %s)",
                    v->op, dmli_format_dims(got, sizeof got, b->rank, b->sizes),
                    dmli_format_dims(want_s, sizeof want_s, a->rank, a->sizes));
    uint64_t want[DMLI_MAX_RANK];
    const uint64_t full[4] = {as[0], as[1], as[2], bs[3]};
    for (uint32_t d = 0; d < out->rank; ++d)
        want[d] = full[4 - out->rank + d];
    DMLI_TRY(dmli_ops_expect_sizes(v->op, "OutputTensor", out, want,
                                   "{BatchCount, ChannelCount, M, N}: A's M, B's N"));
    (void)os;
    for (int d = 0; d < 4; ++d)
        m->d[d] = (int64_t)full[d];
    m->k = (int64_t)as[3];
    static const char *const rules[3] = {
        "{BatchCount, ChannelCount, M, 1} (per tensor or per row)",
        "{BatchCount, ChannelCount, 1, N} (per tensor or per column)",
        "{BatchCount, ChannelCount, M, N}"};
    const uint64_t a_side[4] = {full[0], full[1], full[2], 0};
    const uint64_t b_side[4] = {full[0], full[1], 0, full[3]};
    for (int role = DMLI_IMM_AZP; role <= DMLI_IMM_BIAS; ++role) {
        const dmli_tensor *t = role_tensor(st, s, role);
        if (!t)
            continue;
        const bool a_role = role == DMLI_IMM_AZP || role == DMLI_IMM_ASCALE;
        const bool b_role = role == DMLI_IMM_BZP || role == DMLI_IMM_BSCALE;
        DMLI_TRY(product_aux(v, role, t,
                             a_role   ? a_side
                             : b_role ? b_side
                                      : full,
                             rules[a_role   ? 0
                                   : b_role ? 1
                                            : 2],
                             m->strides[role]));
    }
    int64_t st4[4];
    align4(a, as, st4);
    memcpy(m->strides[DMLI_IMM_A], st4, sizeof st4);
    align4(b, bs, st4);
    memcpy(m->strides[DMLI_IMM_B], st4, sizeof st4);
    align4(out, os, st4);
    memcpy(m->strides[DMLI_IMM_OUT], st4, sizeof st4);
    return S_OK;
}

static HRESULT infer_conv(const imm_view *v, const dmli_op_state *st, const imm_scratch *s,
                          dmli_intmm *m)
{
    const dmli_tensor *x = role_tensor(st, s, DMLI_IMM_A), *w = role_tensor(st, s, DMLI_IMM_B);
    const dmli_tensor *out = role_tensor(st, s, DMLI_IMM_OUT);
    uint64_t xs[4], ws[4], os[4];
    conv4(x, xs, m->strides[DMLI_IMM_A]);
    conv4(w, ws, m->strides[DMLI_IMM_B]);
    conv4(out, os, m->strides[DMLI_IMM_OUT]);
    const uint64_t cout = ws[0];
    uint64_t want[DMLI_MAX_RANK] = {xs[0], cout};
    m->in[0] = m->win[0] = m->stride[0] = m->dil[0] = 1;
    m->pad[0] = 0;
    for (UINT i = 0; i < v->dims; ++i) {
        const int j = v->dims == 2 ? (int)i : 1; /* {H, W} slot */
        const uint64_t in = xs[2 + j], k = ws[2 + j];
        const uint64_t window = (k - 1) * v->dilations[i] + 1;
        const uint64_t pads = (uint64_t)v->start[i] + v->end[i];
        DMLI_INVALID_IF(window > in + pads,
                        "%s: the window of spatial dimension %u ((FilterTensor.Sizes[%u] - 1) x "
                        "Dilations[%u] + 1 = %llu) must fit in InputTensor.Sizes[%u] + "
                        "StartPadding[%u] + EndPadding[%u] (%llu)",
                        v->op, i, 2 + i, i, (unsigned long long)window, 2 + i, i, i,
                        (unsigned long long)(in + pads));
        want[2 + i] = (in + pads - window) / v->strides[i] + 1;
        m->in[j] = (int64_t)in;
        m->win[j] = (int64_t)k;
        m->stride[j] = v->strides[i];
        m->dil[j] = v->dilations[i];
        m->pad[j] = v->start[i];
    }
    DMLI_TRY(dmli_ops_expect_sizes(v->op, "OutputTensor", out, want,
                                   "{N, FilterTensor.Sizes[0], floor((In + StartPadding + "
                                   "EndPadding - window) / Strides) + 1...}"));
    for (int d = 0; d < 4; ++d)
        m->d[d] = (int64_t)os[d];
    m->cin_g = (int64_t)(xs[1] / v->groups);
    m->cout_g = (int64_t)(cout / v->groups);
    for (int role = DMLI_IMM_AZP; role <= DMLI_IMM_BIAS; ++role) {
        const dmli_tensor *t = role_tensor(st, s, role);
        if (!t)
            continue;
        const bool per_channel =
            role == DMLI_IMM_BZP || role == DMLI_IMM_BSCALE || role == DMLI_IMM_BIAS;
        DMLI_TRY(conv_aux(v, role, t, per_channel, cout, m->strides[role]));
    }
    return S_OK;
}

/* Shape rules, and the family's description where m is not NULL. */
static HRESULT describe(const imm_view *v, const dmli_op_state *st, dmli_intmm *m)
{
    const imm_scratch *s = DMLI_OP_SCRATCH(st, imm_scratch);
    dmli_intmm scratch;
    dmli_intmm *d = m ? m : &scratch;
    memset(d, 0, sizeof *d);
    return v->conv ? infer_conv(v, st, s, d) : infer_product(v, st, s, d);
}

static HRESULT infer_view(const imm_view *v, dmli_op_state *st)
{
    return describe(v, st, NULL);
}

static void lower_view(const imm_view *v, dmli_op_state *st)
{
    const imm_scratch *s = DMLI_OP_SCRATCH(st, imm_scratch);
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_INTMM);
    dmli_intmm *m = DMLI_COMPUTE_WORK(c, dmli_intmm);
    (void)describe(v, st, m); /* infer accepted it */
    m->conv = v->conv;
    m->out_kind = v->out_kind;
    m->a_type = role_tensor(st, s, DMLI_IMM_A)->type;
    m->b_type = role_tensor(st, s, DMLI_IMM_B)->type;
    m->out_type = st->outputs[0].type;
    for (int role = 0; role < DMLI_IMM_ROLES; ++role) {
        m->present[role] = role_tensor(st, s, role) != NULL;
        if (role == DMLI_IMM_OUT)
            dmli_compute_add(c, st, true, 0);
        else
            dmli_compute_add(c, st, false, m->present[role] ? (uint32_t)s->slot[role] : 0);
    }
    st->computed = true;
}

/* ---- The operators ------------------------------------------------------------------------ */

#define IMM_OPS(id, view_of)                                          \
    static HRESULT validate_##id(const void *desc, dmli_op_state *st) \
    {                                                                 \
        const imm_view v = view_of(desc);                             \
        return validate_view(&v, st);                                 \
    }                                                                 \
    static HRESULT infer_##id(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        const imm_view v = view_of(desc);                             \
        return infer_view(&v, st);                                    \
    }                                                                 \
    static void lower_##id(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        const imm_view v = view_of(desc);                             \
        lower_view(&v, st);                                           \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = validate_##id, .infer = infer_##id, .lower = lower_##id};

static imm_view product_view(const char *op, int out_kind)
{
    imm_view v = {.op = op, .out_kind = out_kind, .names = product_names};
    v.min_rank = 2;
    v.max_rank = 4;
    return v;
}

static void member(imm_view *v, int role, const DML_TENSOR_DESC *t)
{
    if (role != DMLI_IMM_OUT)
        v->order[v->n_in++] = role;
    v->t[role] = t;
}

static imm_view mmi_of(const void *desc)
{
    const DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC *d = desc;
    imm_view v = product_view("MATRIX_MULTIPLY_INTEGER", DMLI_IMM_OUT_INT32);
    member(&v, DMLI_IMM_A, d->ATensor);
    member(&v, DMLI_IMM_AZP, d->AZeroPointTensor);
    member(&v, DMLI_IMM_B, d->BTensor);
    member(&v, DMLI_IMM_BZP, d->BZeroPointTensor);
    member(&v, DMLI_IMM_OUT, d->OutputTensor);
    return v;
}
IMM_OPS(matrix_multiply_integer, mmi_of)

static imm_view qlmm_of(const void *desc)
{
    const DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC *d = desc;
    imm_view v = product_view("QUANTIZED_LINEAR_MATRIX_MULTIPLY", DMLI_IMM_OUT_QUANT);
    member(&v, DMLI_IMM_A, d->ATensor);
    member(&v, DMLI_IMM_ASCALE, d->AScaleTensor);
    member(&v, DMLI_IMM_AZP, d->AZeroPointTensor);
    member(&v, DMLI_IMM_B, d->BTensor);
    member(&v, DMLI_IMM_BSCALE, d->BScaleTensor);
    member(&v, DMLI_IMM_BZP, d->BZeroPointTensor);
    member(&v, DMLI_IMM_OSCALE, d->OutputScaleTensor);
    member(&v, DMLI_IMM_OZP, d->OutputZeroPointTensor);
    member(&v, DMLI_IMM_OUT, d->OutputTensor);
    return v;
}
IMM_OPS(quantized_linear_matrix_multiply, qlmm_of)

static imm_view mmitf_of(const void *desc)
{
    const DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC *d = desc;
    imm_view v = product_view("MATRIX_MULTIPLY_INTEGER_TO_FLOAT", DMLI_IMM_OUT_FLOAT);
    member(&v, DMLI_IMM_A, d->ATensor);
    member(&v, DMLI_IMM_ASCALE, d->AScaleTensor);
    member(&v, DMLI_IMM_AZP, d->AZeroPointTensor);
    member(&v, DMLI_IMM_B, d->BTensor);
    member(&v, DMLI_IMM_BSCALE, d->BScaleTensor);
    member(&v, DMLI_IMM_BZP, d->BZeroPointTensor);
    member(&v, DMLI_IMM_BIAS, d->BiasTensor);
    member(&v, DMLI_IMM_OUT, d->OutputTensor);
    return v;
}
IMM_OPS(matrix_multiply_integer_to_float, mmitf_of)

#define CONV_VIEW(v, d, name, kind, min)                                            \
    imm_view v = {.op = name, .conv = true, .out_kind = kind, .names = conv_names}; \
    v.min_rank = min;                                                               \
    v.max_rank = 4;                                                                 \
    v.dims = d->DimensionCount;                                                     \
    v.groups = d->GroupCount;                                                       \
    v.strides = d->Strides;                                                         \
    v.dilations = d->Dilations;                                                     \
    v.start = d->StartPadding;                                                      \
    v.end = d->EndPadding

static imm_view ci_of(const void *desc)
{
    const DML_CONVOLUTION_INTEGER_OPERATOR_DESC *d = desc;
    CONV_VIEW(v, d, "CONVOLUTION_INTEGER", DMLI_IMM_OUT_INT32, 3);
    member(&v, DMLI_IMM_A, d->InputTensor);
    member(&v, DMLI_IMM_AZP, d->InputZeroPointTensor);
    member(&v, DMLI_IMM_B, d->FilterTensor);
    member(&v, DMLI_IMM_BZP, d->FilterZeroPointTensor);
    member(&v, DMLI_IMM_OUT, d->OutputTensor);
    return v;
}
IMM_OPS(convolution_integer, ci_of)

static imm_view qlc_of(const void *desc)
{
    const DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC *d = desc;
    CONV_VIEW(v, d, "QUANTIZED_LINEAR_CONVOLUTION", DMLI_IMM_OUT_QUANT, 4);
    member(&v, DMLI_IMM_A, d->InputTensor);
    member(&v, DMLI_IMM_ASCALE, d->InputScaleTensor);
    member(&v, DMLI_IMM_AZP, d->InputZeroPointTensor);
    member(&v, DMLI_IMM_B, d->FilterTensor);
    member(&v, DMLI_IMM_BSCALE, d->FilterScaleTensor);
    member(&v, DMLI_IMM_BZP, d->FilterZeroPointTensor);
    member(&v, DMLI_IMM_BIAS, d->BiasTensor);
    member(&v, DMLI_IMM_OSCALE, d->OutputScaleTensor);
    member(&v, DMLI_IMM_OZP, d->OutputZeroPointTensor);
    member(&v, DMLI_IMM_OUT, d->OutputTensor);
    return v;
}
IMM_OPS(quantized_linear_convolution, qlc_of)
