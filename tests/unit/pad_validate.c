/* SPDX-License-Identifier: MIT */
/*
 * DML_PADDING, DML_PADDING1, DMLCL_PAD and DMLCL_ROLL on the host: a test
 * per rule that breaks it (HRESULT and message naming operator and field),
 * the step counts the lowering promises (border slabs for constant, one
 * step per product of segments otherwise, 2^k for a roll, the plain plan
 * for one copy), and the lowered steps evaluated on host memory
 * (plan_eval) against the oracle (tests/ref/ref_pad.h): the documented
 * DirectML examples and seeded random cases of every mode, crops and pads
 * of several input sizes included.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "plan_eval.h"
#include "ref_pad.h"
#include "support.h"

#define PAD_SEED 0x7061647331ull

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    dmlcl_operator *op = NULL;
    DML_OPERATOR_DESC d = {type, desc};
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    return hr;
}

/* A PAD over unit tensors of FLOAT32 (or type), packed. */
typedef struct pad_case {
    unit_tensor in, out;
    INT64 start[UNIT_MAX_DIMS], end[UNIT_MAX_DIMS];
    DMLCL_PAD_OPERATOR_DESC d;
} pad_case;

static void pad_init(pad_case *c, DML_TENSOR_DATA_TYPE type, UINT rank, const UINT *in,
                     const INT64 *start, const INT64 *end, DML_PADDING_MODE mode)
{
    UINT out[UNIT_MAX_DIMS];
    memset(c, 0, sizeof *c);
    for (UINT i = 0; i < rank; ++i) {
        int64_t m = start[i] + (int64_t)in[i] + end[i];
        out[i] = m < 0 ? 0 : (UINT)m;
        c->start[i] = start[i];
        c->end[i] = end[i];
    }
    unit_tensor_set(&c->in, type, rank, in, NULL);
    unit_tensor_set(&c->out, type, rank, out, NULL);
    c->d = (DMLCL_PAD_OPERATOR_DESC){&c->in.desc, &c->out.desc, mode,   NULL,
                                     rank,        c->start,     c->end, DMLCL_PAD_FLAG_NONE};
}

/* The state after create (asserting it succeeds). */
static dmli_op_state *lowered(DML_OPERATOR_TYPE type, const void *desc)
{
    dmli_op_state *st = calloc(1, sizeof *st);
    cr_assert_not_null(st);
    HRESULT hr = dmli_op_class_create(dmli_op_class_find(type), desc, st);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    return st;
}

static void state_free(dmli_op_state *st)
{
    dmli_op_state_release(st);
    free(st);
}

/* Runs the lowered steps (or the single plan) on host images: packed in and out. */
static void run_steps(const dmli_op_state *st, void *out, const void *in)
{
    if (st->n_steps == 0) {
        plan_eval(&st->plan, out, in, NULL);
        return;
    }
    for (uint32_t k = 0; k < st->n_steps; ++k) {
        const dmli_op_step *s = &st->steps[k];
        cr_assert_eq(s->output, 0u);
        plan_eval(&s->plan, out, s->input == DMLI_STEP_CONSTANT ? st->constant : in, NULL);
    }
}

static uint32_t steps_of(const dmli_op_state *st)
{
    return st->n_steps ? st->n_steps : 1;
}

/* ---- Rules ---------------------------------------------------------------------------------- */

Test(pad_validate, padding_rules)
{
    UINT in[4] = {1, 1, 4, 4}, out[4] = {1, 1, 8, 10}, start[4] = {0, 0, 1, 2},
         end[4] = {0, 0, 3, 4};
    unit_tensor ti, to;
    unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL);
    unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
    DML_PADDING_OPERATOR_DESC d = {&ti.desc, &to.desc, DML_PADDING_MODE_CONSTANT, 9.0f, 4,
                                   start,    end};
    cr_expect_eq(create(DML_OPERATOR_PADDING, &d), S_OK, "%s", dmlcl_last_error());
    d.DimensionCount = 3;
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING", "DimensionCount");
    d.DimensionCount = 4;
    d.StartPadding = NULL;
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING", "StartPadding");
    d.StartPadding = start;
    d.EndPadding = NULL;
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING", "EndPadding");
    d.EndPadding = end;
    d.PaddingMode = (DML_PADDING_MODE)5;
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING", "PaddingMode");
    d.PaddingMode = DML_PADDING_MODE_WRAP;
    cr_expect_eq(create(DML_OPERATOR_PADDING, &d), S_OK, "%s", dmlcl_last_error());
    end[3] = 3;
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING",
                      "OutputTensor.Sizes[3] (10)");
    end[3] = 4;
    unit_tensor_set_type(&to, DML_TENSOR_DATA_TYPE_FLOAT16);
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING",
                      "OutputTensor.DataType");
    unit_tensor_set_type(&to, DML_TENSOR_DATA_TYPE_FLOAT32);
    UINT out3[3] = {1, 8, 10};
    unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 3, out3, NULL);
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), E_INVALIDARG, "PADDING",
                      "OutputTensor.DimensionCount");
    /* DirectML's tensors: no extension types, no empty sizes. */
    unit_tensor_set(&to, DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 4, out, NULL);
    unit_tensor_set_type(&ti, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    unit_expect_error(create(DML_OPERATOR_PADDING, &d), DXGI_ERROR_UNSUPPORTED, "PADDING",
                      "InputTensor.DataType");
}

Test(pad_validate, padding1_value_type)
{
    UINT in[2] = {2, 3}, out[2] = {4, 3}, start[2] = {1, 0}, end[2] = {1, 0};
    unit_tensor ti, to;
    unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_INT64, 2, in, NULL);
    unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_INT64, 2, out, NULL);
    DML_PADDING1_OPERATOR_DESC d = {
        &ti.desc, &to.desc, DML_PADDING_MODE_CONSTANT, DML_TENSOR_DATA_TYPE_INT64, {.Int64 = -7}, 2,
        start,    end};
    dmli_op_state *st = lowered(DML_OPERATOR_PADDING1, &d);
    int64_t v;
    memcpy(&v, st->constant, 8);
    cr_expect_eq(v, -7);
    state_free(st);
    d.PaddingValueDataType = DML_TENSOR_DATA_TYPE_INT32;
    unit_expect_error(create(DML_OPERATOR_PADDING1, &d), E_INVALIDARG, "PADDING1",
                      "PaddingValueDataType");
}

/* PADDING's FLOAT value in each type: truncation toward zero, saturation, FLOAT16 rounding. */
Test(pad_validate, padding_value_conversion)
{
    static const struct {
        DML_TENSOR_DATA_TYPE type;
        float value;
        uint64_t bits;
    } cases[] = {
        {DML_TENSOR_DATA_TYPE_INT32, 10.6f, 10},
        {DML_TENSOR_DATA_TYPE_INT32, -10.6f, (uint32_t)-10},
        {DML_TENSOR_DATA_TYPE_UINT8, 300.0f, 255},
        {DML_TENSOR_DATA_TYPE_UINT8, -3.0f, 0},
        {DML_TENSOR_DATA_TYPE_INT8, -200.0f, 0x80},
        {DML_TENSOR_DATA_TYPE_INT64, 1e30f, INT64_MAX},
        {DML_TENSOR_DATA_TYPE_UINT16, __builtin_nanf(""), 0},
        {DML_TENSOR_DATA_TYPE_FLOAT16, 1.0f, 0x3C00},
        {DML_TENSOR_DATA_TYPE_FLOAT16, 65520.0f, 0x7C00},   /* rounds up to infinity */
        {DML_TENSOR_DATA_TYPE_FLOAT16, 0x1p-25f, 0x0000},   /* half of the least: to even */
        {DML_TENSOR_DATA_TYPE_FLOAT16, 0x1.8p-24f, 0x0002}, /* 1.5 least: to even (2) */
        {DML_TENSOR_DATA_TYPE_FLOAT16, -2.5f, 0xC100},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        UINT in[1] = {1}, out[1] = {2}, start[1] = {1}, end[1] = {0};
        unit_tensor ti, to;
        unit_tensor_set(&ti, cases[k].type, 1, in, NULL);
        unit_tensor_set(&to, cases[k].type, 1, out, NULL);
        DML_PADDING_OPERATOR_DESC d = {
            &ti.desc, &to.desc, DML_PADDING_MODE_CONSTANT, cases[k].value, 1, start, end};
        dmli_op_state *st = lowered(DML_OPERATOR_PADDING, &d);
        uint64_t bits = 0;
        memcpy(&bits, st->constant, st->outputs[0].elem_bytes);
        cr_expect_eq(bits, cases[k].bits, "case %zu: bits 0x%llx, want 0x%llx", k,
                     (unsigned long long)bits, (unsigned long long)cases[k].bits);
        state_free(st);
    }
}

Test(pad_validate, pad_rules)
{
    UINT in[2] = {3, 4};
    INT64 start[2] = {2, -1}, end[2] = {-1, 3};
    pad_case c;
    pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, start, end, DML_PADDING_MODE_REFLECTION);
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
    c.out.sizes[1] = 7;
    unit_tensor_fit(&c.out);
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD",
                      "OutputTensor.Sizes[1] (7)");
    /* Crops past the whole dimension give 0, not a negative size. */
    INT64 s2[2] = {-5, 0}, e2[2] = {-5, 0};
    pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, s2, e2, DML_PADDING_MODE_EDGE);
    cr_expect_eq(c.out.sizes[0], 0u);
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
    /* An empty dimension has nothing to repeat. */
    UINT empty[2] = {0, 4};
    INT64 s3[2] = {1, 0}, e3[2] = {0, 0};
    pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, empty, s3, e3, DML_PADDING_MODE_EDGE);
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD",
                      "InputTensor.Sizes[0] is 0");
    c.d.PaddingMode = DML_PADDING_MODE_CONSTANT;
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
    c.d.StartPadding = NULL;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "StartPadding");
    c.d.StartPadding = c.start;
    c.d.DimensionCount = 1;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "DimensionCount");
    c.d.DimensionCount = 2;
    c.d.PaddingMode = (DML_PADDING_MODE)-1;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "PaddingMode");
    c.d.PaddingMode = DML_PADDING_MODE_CONSTANT;
    c.d.Flags = (DMLCL_PAD_FLAGS)2;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "Flags (2)");
    /* Crop first: crops may remove the whole dimension, not more. */
    UINT n4[1] = {4};
    INT64 s5[1] = {-3}, e5[1] = {-1}, s6[1] = {-3}, e6[1] = {1};
    pad_init(&c, DML_TENSOR_DATA_TYPE_INT8, 1, n4, s5, e5, DML_PADDING_MODE_CONSTANT);
    c.d.Flags = DMLCL_PAD_FLAG_CROP_FIRST;
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
    pad_init(&c, DML_TENSOR_DATA_TYPE_INT8, 1, n4, s6, e6, DML_PADDING_MODE_EDGE);
    c.d.Flags = DMLCL_PAD_FLAG_CROP_FIRST;
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
    s6[0] = -4;
    pad_init(&c, DML_TENSOR_DATA_TYPE_INT8, 1, n4, s6, e6, DML_PADDING_MODE_EDGE);
    c.d.Flags = DMLCL_PAD_FLAG_CROP_FIRST;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "once cropped");
    s6[0] = -5;
    pad_init(&c, DML_TENSOR_DATA_TYPE_INT8, 1, n4, s6, e6, DML_PADDING_MODE_CONSTANT);
    c.d.Flags = DMLCL_PAD_FLAG_CROP_FIRST;
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), E_INVALIDARG, "PAD", "crop more");
    /* INT64 extremes: sums in 128 bits, never wrapped. */
    INT64 s4[2] = {INT64_MIN, 0}, e4[2] = {INT64_MAX, 0};
    pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, s4, e4, DML_PADDING_MODE_WRAP);
    cr_expect_eq(c.out.sizes[0], 2u);
    cr_expect_eq(create(DMLCL_OPERATOR_PAD, &c.d), S_OK, "%s", dmlcl_last_error());
}

Test(pad_validate, roll_rules)
{
    UINT sizes[2] = {4, 3};
    INT64 shifts[2] = {1, -7};
    unit_tensor ti, to;
    unit_tensor_set(&ti, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, 2, sizes, NULL);
    unit_tensor_set(&to, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, 2, sizes, NULL);
    DMLCL_ROLL_OPERATOR_DESC d = {&ti.desc, &to.desc, 2, shifts};
    cr_expect_eq(create(DMLCL_OPERATOR_ROLL, &d), S_OK, "%s", dmlcl_last_error());
    d.Shifts = NULL;
    unit_expect_error(create(DMLCL_OPERATOR_ROLL, &d), E_INVALIDARG, "ROLL", "Shifts");
    d.Shifts = shifts;
    d.DimensionCount = 3;
    unit_expect_error(create(DMLCL_OPERATOR_ROLL, &d), E_INVALIDARG, "ROLL", "DimensionCount");
    d.DimensionCount = 2;
    UINT other[2] = {3, 4};
    unit_tensor_set(&to, DMLCL_TENSOR_DATA_TYPE_BFLOAT16, 2, other, NULL);
    unit_expect_error(create(DMLCL_OPERATOR_ROLL, &d), E_INVALIDARG, "ROLL", "OutputTensor.Sizes");
}

/* More regions than DMLI_PAD_MAX_STEPS: unsupported, with the limit in the message. */
Test(pad_validate, step_limit)
{
    UINT in[2] = {2, 2};
    INT64 start[2] = {3000, 3000}, end[2] = {0, 0};
    pad_case c;
    pad_init(&c, DML_TENSOR_DATA_TYPE_UINT8, 2, in, start, end, DML_PADDING_MODE_REFLECTION);
    unit_expect_error(create(DMLCL_OPERATOR_PAD, &c.d), DXGI_ERROR_UNSUPPORTED, "PAD", "16384");
    /* The same pads in constant mode are three steps. */
    c.d.PaddingMode = DML_PADDING_MODE_CONSTANT;
    dmli_op_state *st = lowered(DMLCL_OPERATOR_PAD, &c.d);
    cr_expect_eq(steps_of(st), 3u);
    state_free(st);
}

/* ---- Step counts ----------------------------------------------------------------------------- */

Test(pad_validate, step_counts)
{
    UINT in[4] = {2, 3, 8, 8};
    INT64 start[4] = {0, 0, 1, 2}, end[4] = {0, 0, 3, 4}, none[4] = {0, 0, 0, 0};
    static const struct {
        DML_PADDING_MODE mode;
        uint32_t steps;
    } want[] = {{DML_PADDING_MODE_CONSTANT, 5},
                {DML_PADDING_MODE_EDGE, 9},
                {DML_PADDING_MODE_REFLECTION, 9},
                {DML_PADDING_MODE_SYMMETRIC, 9},
                {DML_PADDING_MODE_WRAP, 9}};
    for (size_t k = 0; k < 5; ++k) {
        pad_case c;
        pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, start, end, want[k].mode);
        dmli_op_state *st = lowered(DMLCL_OPERATOR_PAD, &c.d);
        cr_expect_eq(steps_of(st), want[k].steps, "mode %d: %u steps, want %u", (int)want[k].mode,
                     steps_of(st), want[k].steps);
        state_free(st);
        /* No padding: the plain single plan, no steps. */
        pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, none, none, want[k].mode);
        st = lowered(DMLCL_OPERATOR_PAD, &c.d);
        cr_expect_eq(st->n_steps, 0u);
        state_free(st);
    }
    UINT sizes[3] = {4, 5, 6};
    INT64 shifts[3] = {1, 0, -2};
    unit_tensor ti, to;
    unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_INT16, 3, sizes, NULL);
    unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_INT16, 3, sizes, NULL);
    DMLCL_ROLL_OPERATOR_DESC d = {&ti.desc, &to.desc, 3, shifts};
    dmli_op_state *st = lowered(DMLCL_OPERATOR_ROLL, &d);
    cr_expect_eq(steps_of(st), 4u, "two rolled dimensions: 4 copies, got %u", steps_of(st));
    state_free(st);
}

/* A dimension of one element: every periodic mode repeats it, so its pads are one run each side
 * (as EDGE's), not a run per output element (SYMMETRIC and WRAP were: [2, 1, 4, 1, 2] padded by
 * {4, 4, 0, 0, 1} and {5, 3, 5, 6, 5} split into 8 x 7 x ... regions, past 4096: then the limit).
 */
Test(pad_validate, one_element_dimensions_pad_as_one_run)
{
    UINT in[2] = {1, 3};
    INT64 start[2] = {4, 1}, end[2] = {3, 0};
    static const DML_PADDING_MODE modes[] = {DML_PADDING_MODE_EDGE, DML_PADDING_MODE_REFLECTION,
                                             DML_PADDING_MODE_SYMMETRIC, DML_PADDING_MODE_WRAP};
    for (size_t k = 0; k < 4; ++k) {
        pad_case c;
        pad_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, start, end, modes[k]);
        dmli_op_state *st = lowered(DMLCL_OPERATOR_PAD, &c.d);
        /* Dimension 0: before, the element, after (3); dimension 1: before, the input (2). */
        cr_expect_eq(steps_of(st), 6u, "mode %d: %u steps, want 6", (int)modes[k], steps_of(st));
        state_free(st);
    }
    UINT big[5] = {2, 1, 4, 1, 2};
    INT64 bs[5] = {4, 4, 0, 0, 1}, be[5] = {5, 3, 5, 6, 5};
    pad_case c;
    pad_init(&c, DML_TENSOR_DATA_TYPE_UINT32, 5, big, bs, be, DML_PADDING_MODE_SYMMETRIC);
    dmli_op_state *st = lowered(DMLCL_OPERATOR_PAD, &c.d);
    cr_expect_leq(steps_of(st), 1000u, "%u steps", steps_of(st));
    state_free(st);
}

/* ---- Lowered steps against the oracle ---------------------------------------------------------
 */

/* Pads c on host memory through its steps and through ref_pad; false where they differ. */
static bool pad_matches(pad_case *c, ref_rng *rng, uint64_t *where)
{
    const dmli_op_state *st = lowered(DMLCL_OPERATOR_PAD, &c->d);
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    uint32_t eb = in->elem_bytes;
    size_t in_n = (size_t)in->elements, out_n = (size_t)out->elements;
    unsigned char *src = malloc(in_n * eb + 1), *got = calloc(out_n + 1, eb),
                  *want = calloc(out_n + 1, eb);
    ref_rng_bytes(rng, src, in_n * eb);
    memset(got, 0xA5, out_n * eb);
    memset(want, 0xA5, out_n * eb);
    run_steps(st, got, src);
    uint32_t isz[REF_MAX_DIMS], osz[REF_MAX_DIMS];
    for (uint32_t i = 0; i < in->rank; ++i) {
        isz[i] = (uint32_t)in->sizes[i];
        osz[i] = (uint32_t)out->sizes[i];
    }
    ref_tensor ri = ref_tensor_view(in->type, in->rank, isz, NULL, src);
    ref_tensor ro = ref_tensor_view(out->type, out->rank, osz, NULL, want);
    static const unsigned char value[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    const void *v = c->d.PaddingValue ? value : (const unsigned char[16]){0};
    ref_pad_mode mode = (ref_pad_mode)c->d.PaddingMode;
    cr_assert(c->d.Flags ? ref_pad_crop_first(&ri, &ro, mode, c->start, c->end, v)
                         : ref_pad(&ri, &ro, mode, c->start, c->end, v));
    bool same = true;
    for (size_t k = 0; k < out_n * eb && same; ++k)
        if (got[k] != want[k]) {
            *where = k / eb;
            same = false;
        }
    free(src);
    free(got);
    free(want);
    state_free((dmli_op_state *)st);
    return same;
}

Test(pad_validate, documented_directml_examples)
{
    /* DML_PADDING_OPERATOR_DESC examples 1-4 (and PADDING1's): 4x4 padded by {1,2} / {3,4}. */
    static const float input[16] = {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8};
    static const float reflect_row0[10] = {7, 6, 5, 6, 7, 8, 7, 6, 5, 6};
    static const float symmetric_row7[10] = {6, 5, 5, 6, 7, 8, 8, 7, 6, 5};
    static const float edge_row7[10] = {5, 5, 5, 6, 7, 8, 8, 8, 8, 8};
    static const struct {
        DML_PADDING_MODE mode;
        int row;
        const float *want;
    } rows[] = {{DML_PADDING_MODE_REFLECTION, 0, reflect_row0},
                {DML_PADDING_MODE_SYMMETRIC, 7, symmetric_row7},
                {DML_PADDING_MODE_EDGE, 7, edge_row7}};
    for (size_t k = 0; k < 3; ++k) {
        UINT in[4] = {1, 1, 4, 4}, out[4] = {1, 1, 8, 10}, start[4] = {0, 0, 1, 2},
             end[4] = {0, 0, 3, 4};
        unit_tensor ti, to;
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL);
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
        DML_PADDING_OPERATOR_DESC d = {&ti.desc, &to.desc, rows[k].mode, 0, 4, start, end};
        dmli_op_state *st = lowered(DML_OPERATOR_PADDING, &d);
        float got[80];
        run_steps(st, got, input);
        for (int j = 0; j < 10; ++j)
            cr_expect_eq(got[rows[k].row * 10 + j], rows[k].want[j], "mode %d row %d col %d: %g",
                         (int)rows[k].mode, rows[k].row, j, (double)got[rows[k].row * 10 + j]);
        state_free(st);
    }
}

Test(pad_validate, random_lowering_against_oracle)
{
    ref_rng rng = ref_rng_make(ref_test_seed(PAD_SEED));
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_FLOAT64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};
    for (int n = 0; n < 400; ++n) {
        UINT rank = 1 + (UINT)ref_rng_below(&rng, 4), in[4];
        INT64 start[4], end[4];
        DML_PADDING_MODE mode = (DML_PADDING_MODE)ref_rng_below(&rng, 5);
        for (UINT i = 0; i < rank; ++i) {
            in[i] = (UINT)ref_rng_below(&rng, 6) + (mode == DML_PADDING_MODE_CONSTANT ? 0 : 1);
            int64_t reach = 3 * (int64_t)in[i] + 2;
            start[i] = ref_rng_range(&rng, -(int64_t)in[i] - 1, reach);
            end[i] = ref_rng_range(&rng, -(int64_t)in[i] - 1, reach);
        }
        pad_case c;
        pad_init(&c, types[ref_rng_below(&rng, 5)], rank, in, start, end, mode);
        c.d.PaddingValue = ref_rng_chance(&rng, 50)
                               ? (const void *)"\x11\x22\x33\x44\x55\x66\x77\x88"
                                               "\0\0\0\0\0\0\0\0"
                               : NULL;
        /* Crop first where the crops leave something of every dimension's input. */
        bool crop_ok = true;
        for (UINT i = 0; i < rank; ++i)
            crop_ok &= (int64_t)in[i] + (start[i] < 0 ? start[i] : 0) + (end[i] < 0 ? end[i] : 0) >
                       (mode == DML_PADDING_MODE_CONSTANT ? -1 : 0);
        c.d.Flags = crop_ok && ref_rng_chance(&rng, 40) ? DMLCL_PAD_FLAG_CROP_FIRST : 0;
        uint64_t where = 0;
        cr_expect(pad_matches(&c, &rng, &where),
                  "case %d (mode %d, flags %d, rank %u, in {%u,%u,%u,%u}, start "
                  "{%lld,%lld,%lld,%lld}, end "
                  "{%lld,%lld,%lld,%lld}): element %llu differs",
                  n, (int)mode, (int)c.d.Flags, rank, in[0], in[1], in[2], in[3],
                  (long long)start[0], (long long)start[1], (long long)start[2],
                  (long long)start[3], (long long)end[0], (long long)end[1], (long long)end[2],
                  (long long)end[3], (unsigned long long)where);
    }
}

Test(pad_validate, roll_lowering_against_oracle)
{
    ref_rng rng = ref_rng_make(ref_test_seed(PAD_SEED + 1));
    for (int n = 0; n < 200; ++n) {
        UINT rank = 1 + (UINT)ref_rng_below(&rng, 4), sizes[4];
        INT64 shifts[4];
        for (UINT i = 0; i < rank; ++i) {
            sizes[i] = (UINT)ref_rng_below(&rng, 6);
            shifts[i] =
                ref_rng_chance(&rng, 10) ? (INT64)ref_rng_next(&rng) : ref_rng_range(&rng, -20, 20);
        }
        unit_tensor ti, to;
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_INT16, rank, sizes, NULL);
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_INT16, rank, sizes, NULL);
        DMLCL_ROLL_OPERATOR_DESC d = {&ti.desc, &to.desc, rank, shifts};
        dmli_op_state *st = lowered(DMLCL_OPERATOR_ROLL, &d);
        size_t count = (size_t)st->inputs[0].elements;
        int16_t src[1296], got[1296], want[1296];
        for (size_t k = 0; k < count; ++k)
            src[k] = (int16_t)k;
        memset(got, 0xA5, sizeof got);
        memset(want, 0x5A, sizeof want);
        run_steps(st, got, src);
        ref_tensor ri = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT16, rank, sizes, NULL, src);
        ref_tensor ro = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT16, rank, sizes, NULL, want);
        cr_assert(ref_roll(&ri, &ro, shifts));
        cr_expect(count == 0 || memcmp(got, want, count * 2) == 0, "roll case %d differs", n);
        state_free(st);
    }
}
