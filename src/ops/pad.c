/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_PADDING, DML_OPERATOR_PADDING1, and dmlcl's DMLCL_OPERATOR_PAD
 * and DMLCL_OPERATOR_ROLL (dmlcl/ext_pad.h): every output element reads one
 * input element, or the padding value. Each dimension splits into segments
 * (ops/pads.h); their products are rectangles, each one step: a view copy
 * of the input (input step +1, -1 or 0 per dimension) or a fill with the
 * padding value (DMLI_STEP_CONSTANT). One step that copies is the plain
 * single plan.
 *
 * DirectML's pages let REFLECTION and SYMMETRIC pads reach past the input
 * ("mirror new padding regions periodically by folding them over previous
 * padding regions"), so no pad size is refused: the mirror repeats, as
 * numpy's does. WRAP (DML_TARGET_VERSION 0x6400) has no page; dmlcl reads
 * it as numpy's "wrap", any size. PADDING's FLOAT PaddingValue is converted
 * to the tensors' type: FLOAT16 rounds to nearest even, integer types
 * truncate toward zero (the page: "10.6 will become 10") and saturate, NaN
 * becomes 0.
 */
#include <math.h>
#include <string.h>

#include "ops/common.h"
#include "ops/pads.h"

typedef struct pad_scratch {
    DML_PADDING_MODE mode;
    int64_t start[DMLI_MAX_RANK];
    /* PAD with DMLCL_PAD_FLAG_CROP_FIRST: the cropped input (else the input itself). */
    bool cropped;
    int64_t in_size[DMLI_MAX_RANK];
    int64_t in_offset; /* elements to the cropped input's first element */
} pad_scratch;

static const char *mode_name(DML_PADDING_MODE mode)
{
    static const char *const names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
    return (unsigned)mode < 5 ? names[mode] : "?";
}

/* ---- Shared steps ------------------------------------------------------------------------- */

static HRESULT import_tensors(const char *op, const DML_TENSOR_DESC *input,
                              const DML_TENSOR_DESC *output, unsigned ext, dmli_op_state *st)
{
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", input, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", output, DMLI_TENSOR_OUTPUT | ext, out));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

static HRESULT check_lists(const char *op, UINT dims, const dmli_tensor *in, const void *start,
                           const void *end, const char *start_name, const char *end_name)
{
    DMLI_INVALID_IF(dims != in->rank,
                    "%s: DimensionCount (%u) must equal InputTensor.DimensionCount (%u)", op, dims,
                    in->rank);
    DMLI_INVALID_IF(!start, "%s: %s (NULL) must point to DimensionCount (%u) values", op,
                    start_name, dims);
    DMLI_INVALID_IF(!end, "%s: %s (NULL) must point to DimensionCount (%u) values", op, end_name,
                    dims);
    return S_OK;
}

static HRESULT check_mode(const char *op, DML_PADDING_MODE mode)
{
    DMLI_INVALID_IF((unsigned)mode > 4,
                    "%s: PaddingMode (%d) must be DML_PADDING_MODE_CONSTANT (0), EDGE (1), "
                    "REFLECTION (2), SYMMETRIC (3) or WRAP (4)",
                    op, (int)mode);
    return S_OK;
}

static void pad_dims(const dmli_op_state *st, dmli_pad_dim *dims)
{
    const pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
    for (uint32_t i = 0; i < st->inputs[0].rank; ++i)
        dims[i] =
            (dmli_pad_dim){s->mode, s->cropped ? s->in_size[i] : (int64_t)st->inputs[0].sizes[i],
                           (int64_t)st->outputs[0].sizes[i], s->start[i]};
}

/* The step count, bounded: the part of infer every operator here ends with. */
static HRESULT check_steps(const char *op, const dmli_op_state *st)
{
    dmli_pad_dim dims[DMLI_MAX_RANK];
    pad_dims(st, dims);
    uint64_t steps = dmli_pad_count_steps(dims, st->inputs[0].rank, DMLI_PAD_MAX_STEPS);
    DMLI_UNSUPPORTED_IF(steps > DMLI_PAD_MAX_STEPS,
                        "%s: the output splits into more than %d regions (PaddingMode %s: each "
                        "pad of several input sizes, or every dimension rolled, multiplies "
                        "them); dmlcl runs at most %d copies per operator",
                        op, DMLI_PAD_MAX_STEPS, mode_name(DMLI_OP_SCRATCH(st, pad_scratch)->mode),
                        DMLI_PAD_MAX_STEPS);
    return S_OK;
}

typedef struct emit_ctx {
    dmli_op_state *st;
    bool single; /* the one region copies: st->plan */
} emit_ctx;

static bool emit(void *ctx, const dmli_pad_region *r)
{
    emit_ctx *c = ctx;
    dmli_op_state *st = c->st;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_plan *p;
    if (c->single) {
        p = &st->plan;
        dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    } else {
        p = dmli_op_add_step(st, r->constant ? DMLI_STEP_CONSTANT : 0, 0, DMLI_PLAN_VIEW,
                             in->elem_bytes);
        if (!p)
            return false;
    }
    if (!r->constant)
        p->in_offset = DMLI_OP_SCRATCH(st, pad_scratch)->in_offset;
    for (uint32_t i = 0; i < out->rank; ++i) {
        const dmli_pad_segment *s = &r->seg[i];
        p->out_offset += s->out_start * out->strides[i];
        if (!r->constant)
            p->in_offset += s->in_start * in->strides[i];
        dmli_plan_push(p, s->length, out->strides[i], r->constant ? 0 : s->step * in->strides[i], 0,
                       0);
    }
    return true;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    dmli_pad_dim dims[DMLI_MAX_RANK];
    pad_dims(st, dims);
    uint64_t steps = dmli_pad_count_steps(dims, in->rank, DMLI_PAD_MAX_STEPS);
    if (steps == 0) { /* an empty output: the empty plan launches nothing */
        dmli_plan_init(&st->plan, DMLI_PLAN_VIEW, in->elem_bytes);
        for (uint32_t i = 0; i < out->rank; ++i)
            dmli_plan_push(&st->plan, (int64_t)out->sizes[i], out->strides[i], 0, 0, 0);
        return;
    }
    /* One region that copies runs as the plain plan; a fill needs its step. */
    emit_ctx c = {st, steps == 1};
    for (uint32_t i = 0; i < in->rank && c.single && dims[0].mode == DML_PADDING_MODE_CONSTANT;
         ++i) {
        dmli_pad_segment first = dmli_pad_segment_at(&dims[i], 0);
        c.single = !first.constant && first.length == dims[i].out_size;
    }
    /* Out of memory is recorded by dmli_op_add_step and reported by the create call. */
    (void)dmli_pad_regions(dims, in->rank, emit, &c);
}

/* ---- Padding values ----------------------------------------------------------------------- */

/* IEEE binary32 to binary16, rounding to nearest even (NaN stays NaN, quiet). */
static uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t exp = (x >> 23) & 0xFF, man = x & 0x7FFFFF;
    if (exp == 0xFF)
        return (uint16_t)(sign | 0x7C00 | (man ? 0x200 | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7C00);
    if (e <= 0) { /* subnormal in binary16, or zero */
        if (e < -10)
            return sign;
        man |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e), half = man >> shift, rem = man & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        half += rem > mid || (rem == mid && (half & 1));
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1FFF;
    half += rem > 0x1000 || (rem == 0x1000 && (half & 1)); /* a carry into the exponent is right */
    return (uint16_t)(sign | half);
}

/* v truncated toward zero into [lo, hi]; NaN is 0. */
static double saturate(float v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    double t = trunc((double)v);
    return t < lo ? lo : t > hi ? hi : t;
}

/* PADDING's FLOAT value as one element of type, little-endian, into out. */
static void convert_float(float v, DML_TENSOR_DATA_TYPE type, unsigned char *out)
{
    union {
        uint8_t u8;
        int8_t i8;
        uint16_t u16;
        int16_t i16;
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
        int64_t i64;
        float f32;
        double f64;
    } u = {0};
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: u.f32 = v; break;
    case DML_TENSOR_DATA_TYPE_FLOAT64: u.f64 = v; break;
    case DML_TENSOR_DATA_TYPE_FLOAT16: u.u16 = half_from_float(v); break;
    case DML_TENSOR_DATA_TYPE_INT8: u.i8 = (int8_t)saturate(v, INT8_MIN, INT8_MAX); break;
    case DML_TENSOR_DATA_TYPE_UINT8: u.u8 = (uint8_t)saturate(v, 0, UINT8_MAX); break;
    case DML_TENSOR_DATA_TYPE_INT16: u.i16 = (int16_t)saturate(v, INT16_MIN, INT16_MAX); break;
    case DML_TENSOR_DATA_TYPE_UINT16: u.u16 = (uint16_t)saturate(v, 0, UINT16_MAX); break;
    case DML_TENSOR_DATA_TYPE_INT32: u.i32 = (int32_t)saturate(v, INT32_MIN, INT32_MAX); break;
    case DML_TENSOR_DATA_TYPE_UINT32: u.u32 = (uint32_t)saturate(v, 0, UINT32_MAX); break;
    case DML_TENSOR_DATA_TYPE_INT64:
        /* 2^63 is the first float past INT64_MAX: at or above it saturates. */
        u.i64 = isnan(v) ? 0 : v >= 0x1p63f ? INT64_MAX : v < -0x1p63f ? INT64_MIN : (int64_t)v;
        break;
    case DML_TENSOR_DATA_TYPE_UINT64:
        u.u64 = isnan(v) || v <= 0 ? 0 : v >= 0x1p64f ? UINT64_MAX : (uint64_t)v;
        break;
    default: break;
    }
    memcpy(out, &u, dmli_type_size(type));
}

/* ---- PADDING and PADDING1 ---------------------------------------------------------------------
 */

/* What the two share: tensors, mode, lists; start pads into the scratch. */
static HRESULT dml_validate(const char *op, const DML_TENSOR_DESC *input,
                            const DML_TENSOR_DESC *output, DML_PADDING_MODE mode, UINT dims,
                            const UINT *start, const UINT *end, dmli_op_state *st)
{
    DMLI_TRY(import_tensors(op, input, output, 0, st));
    DMLI_TRY(check_mode(op, mode));
    DMLI_TRY(check_lists(op, dims, &st->inputs[0], start, end, "StartPadding", "EndPadding"));
    pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
    *s = (pad_scratch){.mode = mode};
    for (uint32_t i = 0; i < dims; ++i)
        s->start[i] = start[i];
    return S_OK;
}

static HRESULT dml_infer(const char *op, const UINT *start, const UINT *end, dmli_op_state *st)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    for (uint32_t i = 0; i < in->rank; ++i) {
        uint64_t want = in->sizes[i] + (uint64_t)start[i] + end[i];
        DMLI_INVALID_IF(out->sizes[i] != want,
                        "%s: OutputTensor.Sizes[%u] (%llu) must equal InputTensor.Sizes[%u] "
                        "(%llu) + StartPadding[%u] (%u) + EndPadding[%u] (%u) = %llu",
                        op, i, (unsigned long long)out->sizes[i], i,
                        (unsigned long long)in->sizes[i], i, start[i], i, end[i],
                        (unsigned long long)want);
    }
    return check_steps(op, st);
}

static HRESULT padding_validate(const void *desc, dmli_op_state *st)
{
    const DML_PADDING_OPERATOR_DESC *d = desc;
    DMLI_TRY(dml_validate("PADDING", d->InputTensor, d->OutputTensor, d->PaddingMode,
                          d->DimensionCount, d->StartPadding, d->EndPadding, st));
    convert_float(d->PaddingValue, st->outputs[0].type, st->constant);
    return S_OK;
}

static HRESULT padding_infer(const void *desc, dmli_op_state *st)
{
    const DML_PADDING_OPERATOR_DESC *d = desc;
    return dml_infer("PADDING", d->StartPadding, d->EndPadding, st);
}

static HRESULT padding1_validate(const void *desc, dmli_op_state *st)
{
    const DML_PADDING1_OPERATOR_DESC *d = desc;
    DMLI_TRY(dml_validate("PADDING1", d->InputTensor, d->OutputTensor, d->PaddingMode,
                          d->DimensionCount, d->StartPadding, d->EndPadding, st));
    DMLI_INVALID_IF(d->PaddingValueDataType != st->outputs[0].type,
                    "PADDING1: PaddingValueDataType (%s) must equal OutputTensor.DataType (%s)",
                    dmli_type_name(d->PaddingValueDataType), dmli_type_name(st->outputs[0].type));
    /* DML_SCALAR_UNION's members all start at its first byte. */
    memcpy(st->constant, d->PaddingValue.Bytes, st->outputs[0].elem_bytes);
    return S_OK;
}

static HRESULT padding1_infer(const void *desc, dmli_op_state *st)
{
    const DML_PADDING1_OPERATOR_DESC *d = desc;
    return dml_infer("PADDING1", d->StartPadding, d->EndPadding, st);
}

/* ---- PAD (dmlcl/ext_pad.h) ----------------------------------------------------------------------
 */

/* CROP_FIRST: the negative pads cut the input's view; what pads it starts at 0. */
static HRESULT crop_first(const DMLCL_PAD_OPERATOR_DESC *d, dmli_op_state *st)
{
    const dmli_tensor *in = &st->inputs[0];
    pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
    s->cropped = true;
    s->in_offset = 0;
    for (uint32_t i = 0; i < in->rank; ++i) {
        int64_t cb = d->StartPadding[i] < 0 ? d->StartPadding[i] : 0;
        int64_t ce = d->EndPadding[i] < 0 ? d->EndPadding[i] : 0;
        __int128 left = (__int128)in->sizes[i] + cb + ce;
        DMLI_INVALID_IF(left < 0,
                        "PAD: StartPadding[%u] (%lld) and EndPadding[%u] (%lld) crop more than "
                        "InputTensor.Sizes[%u] (%llu) with DMLCL_PAD_FLAG_CROP_FIRST",
                        i, (long long)d->StartPadding[i], i, (long long)d->EndPadding[i], i,
                        (unsigned long long)in->sizes[i]);
        s->in_size[i] = (int64_t)left;
        s->start[i] = d->StartPadding[i] - cb;
        /* Inside the input (left >= 0): bounded by its extent, which import kept under 2^63. */
        if (left > 0)
            s->in_offset += -cb * in->strides[i];
    }
    return S_OK;
}

static HRESULT pad_validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_PAD_OPERATOR_DESC *d = desc;
    DMLI_TRY(import_tensors("PAD", d->InputTensor, d->OutputTensor, DMLI_TENSOR_EXTENSION, st));
    DMLI_TRY(check_mode("PAD", d->PaddingMode));
    DMLI_TRY(check_lists("PAD", d->DimensionCount, &st->inputs[0], d->StartPadding, d->EndPadding,
                         "StartPadding", "EndPadding"));
    DMLI_INVALID_IF((unsigned)d->Flags > DMLCL_PAD_FLAG_CROP_FIRST,
                    "PAD: Flags (%u) must be DMLCL_PAD_FLAG_NONE (0) or "
                    "DMLCL_PAD_FLAG_CROP_FIRST (1)",
                    (unsigned)d->Flags);
    pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
    *s = (pad_scratch){.mode = d->PaddingMode};
    for (uint32_t i = 0; i < d->DimensionCount; ++i)
        s->start[i] = d->StartPadding[i];
    if (d->Flags == DMLCL_PAD_FLAG_CROP_FIRST)
        DMLI_TRY(crop_first(d, st));
    if (d->PaddingMode == DML_PADDING_MODE_CONSTANT && d->PaddingValue)
        memcpy(st->constant, d->PaddingValue, st->outputs[0].elem_bytes);
    return S_OK;
}

static HRESULT pad_infer(const void *desc, dmli_op_state *st)
{
    const DMLCL_PAD_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    for (uint32_t i = 0; i < in->rank; ++i) {
        __int128 sum = (__int128)d->StartPadding[i] + (__int128)in->sizes[i] + d->EndPadding[i];
        if (sum < 0)
            sum = 0;
        DMLI_INVALID_IF((__int128)out->sizes[i] != sum,
                        "PAD: OutputTensor.Sizes[%u] (%llu) must equal max(0, StartPadding[%u] "
                        "(%lld) + InputTensor.Sizes[%u] (%llu) + EndPadding[%u] (%lld))",
                        i, (unsigned long long)out->sizes[i], i, (long long)d->StartPadding[i], i,
                        (unsigned long long)in->sizes[i], i, (long long)d->EndPadding[i]);
        const pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
        int64_t n = s->cropped ? s->in_size[i] : (int64_t)in->sizes[i];
        DMLI_INVALID_IF(n == 0 && out->sizes[i] > 0 && d->PaddingMode != DML_PADDING_MODE_CONSTANT,
                        "PAD: InputTensor.Sizes[%u] is 0%s: PaddingMode %s has no element to "
                        "repeat; only CONSTANT may pad an empty dimension (OutputTensor.Sizes[%u] "
                        "is %llu)",
                        i, in->sizes[i] ? " once cropped" : "", mode_name(d->PaddingMode), i,
                        (unsigned long long)out->sizes[i]);
    }
    return check_steps("PAD", st);
}

/* ---- ROLL (dmlcl/ext_pad.h) ---------------------------------------------------------------------
 */

static HRESULT roll_validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_ROLL_OPERATOR_DESC *d = desc;
    DMLI_TRY(import_tensors("ROLL", d->InputTensor, d->OutputTensor, DMLI_TENSOR_EXTENSION, st));
    const dmli_tensor *in = &st->inputs[0];
    DMLI_INVALID_IF(d->DimensionCount != in->rank,
                    "ROLL: DimensionCount (%u) must equal InputTensor.DimensionCount (%u)",
                    d->DimensionCount, in->rank);
    DMLI_INVALID_IF(!d->Shifts, "ROLL: Shifts (NULL) must point to DimensionCount (%u) values",
                    d->DimensionCount);
    pad_scratch *s = DMLI_OP_SCRATCH(st, pad_scratch);
    *s = (pad_scratch){.mode = DML_PADDING_MODE_WRAP};
    for (uint32_t i = 0; i < in->rank; ++i) {
        int64_t n = (int64_t)in->sizes[i];
        /* Output coordinate o reads (o - shift) mod n: WRAP with the shift as its start. */
        s->start[i] = n > 1 ? ((d->Shifts[i] % n) + n) % n : 0;
    }
    return S_OK;
}

static HRESULT roll_infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    DMLI_TRY(dmli_ops_expect_sizes("ROLL", "OutputTensor", &st->outputs[0], st->inputs[0].sizes,
                                   "InputTensor.Sizes: a roll keeps the shape"));
    return check_steps("ROLL", st);
}

const dmli_op_steps dmli_op_padding = {
    .validate = padding_validate, .infer = padding_infer, .lower = lower};
const dmli_op_steps dmli_op_padding1 = {
    .validate = padding1_validate, .infer = padding1_infer, .lower = lower};
const dmli_op_steps dmli_op_pad = {.validate = pad_validate, .infer = pad_infer, .lower = lower};
const dmli_op_steps dmli_op_roll = {.validate = roll_validate, .infer = roll_infer, .lower = lower};
