/* SPDX-License-Identifier: MIT */
/*
 * pad.c: DML_PADDING, DML_PADDING1, DMLCL_PAD and DMLCL_ROLL (directly and
 * through the OpenVINO Pad-12 / Roll-7 and ONNX Pad-19 front-ends) on the
 * device against the C reference (tests/ref/ref_pad.h).
 *
 * Random cases: every mode, pads from crops past the whole dimension to
 * several input sizes (the mirror and wrap modes repeat), empty dimensions
 * (constant), ranks 1..5 and up to 16 for the extensions, every data type
 * by width, padded, permuted, broadcast and aliasing input layouts, padded
 * or permuted outputs, bindings at non-zero offsets inside guarded buffers,
 * one buffer or two, three ways of submitting. Each output element is
 * poisoned first, so a region no step writes cannot pass. Every failure
 * prints the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one
 * case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_pad.h"

#define PAD_DEFAULT_SEED 0x646D6C636C504144ull
#define PAD_MAX_ELEMENTS 4000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE dml_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE ext_types[] = {
    DMLCL_TENSOR_DATA_TYPE_BOOLEAN,   DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
    DML_TENSOR_DATA_TYPE_INT8,        DML_TENSOR_DATA_TYPE_FLOAT64};

typedef enum pad_op { OP_PADDING, OP_PADDING1, OP_PAD, OP_ROLL } pad_op;
static const char *const op_names[] = {"PADDING", "PADDING1", "PAD", "ROLL"};
static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};

typedef struct pad_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    pad_op op;
    DML_TENSOR_DATA_TYPE type;
    ref_pad_mode mode;
    uint32_t rank;
    int64_t start[REF_MAX_DIMS], end[REF_MAX_DIMS]; /* ROLL: start holds the shifts */
    UINT ustart[REF_MAX_DIMS], uend[REF_MAX_DIMS];
    unsigned char value[16];
    DMLCL_PAD_FLAGS flags; /* PAD */
    ops_layout layout[2];
    bool shared;
    ops_submit submit;
    ops_tensor input, output;
    union {
        DML_PADDING_OPERATOR_DESC padding;
        DML_PADDING1_OPERATOR_DESC padding1;
        DMLCL_PAD_OPERATOR_DESC pad;
        DMLCL_ROLL_OPERATOR_DESC roll;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} pad_case;

static ops_seed run_seed = OPS_SEED(PAD_DEFAULT_SEED);

static const char *list_text(char *buf, size_t len, uint32_t n, const int64_t *v)
{
    size_t at = (size_t)snprintf(buf, len, "{");
    for (uint32_t i = 0; i < n && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, i ? ",%" PRId64 : "%" PRId64, v[i]);
    if (at < len)
        snprintf(buf + at, len - at, "}");
    return buf;
}

static const char *pad_describe(const pad_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512], s[256], e[256];
    snprintf(buf, len, "%s\n  mode %s %s %s %s; layouts %s/%s; %s; submit %s\n  %s\n  %s",
             ops_replay(head, sizeof head, op_names[c->op], "pad", c->test, c->number, c->seed),
             c->op == OP_ROLL ? "-" : mode_names[c->mode],
             c->flags           ? "(crop first) start"
             : c->op == OP_ROLL ? "shifts"
                                : "start",
             list_text(s, sizeof s, c->rank, c->start),
             c->op == OP_ROLL ? "" : list_text(e, sizeof e, c->rank, c->end),
             ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
             c->shared ? "one buffer" : "two buffers", ops_submit_name(c->submit),
             ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

/* ---- Running one case ------------------------------------------------------------------ */

static bool output_empty(const pad_case *c)
{
    return ref_element_count(c->output.buffer.DimensionCount, c->output.sizes) == 0;
}

static void pad_descs(pad_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->input), *out = ops_tensor_desc(&c->output);
    DML_PADDING_MODE mode = (DML_PADDING_MODE)c->mode;
    switch (c->op) {
    case OP_PADDING: {
        float v = 0;
        memcpy(&v, c->value, sizeof v); /* the case's small integer, as FLOAT */
        c->d.padding = (DML_PADDING_OPERATOR_DESC){in, out, mode, v, c->rank, c->ustart, c->uend};
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING, &c->d.padding};
        break;
    }
    case OP_PADDING1:
        c->d.padding1 = (DML_PADDING1_OPERATOR_DESC){
            in, out, mode, c->type, {.UInt64 = 0}, c->rank, c->ustart, c->uend};
        memcpy(c->d.padding1.PaddingValue.Bytes, c->value, sizeof c->d.padding1.PaddingValue);
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING1, &c->d.padding1};
        break;
    case OP_PAD:
        c->d.pad =
            (DMLCL_PAD_OPERATOR_DESC){in, out, mode, c->value, c->rank, c->start, c->end, c->flags};
        c->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_PAD, &c->d.pad};
        break;
    case OP_ROLL:
        c->d.roll = (DMLCL_ROLL_OPERATOR_DESC){in, out, c->rank, c->start};
        c->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_ROLL, &c->d.roll};
        break;
    }
}

/* PADDING's FLOAT value k (a small integer) as an element of the type: exact in every type. */
static void padding_element(DML_TENSOR_DATA_TYPE type, int k, unsigned char *out)
{
    memset(out, 0, 16);
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
        float f = (float)k;
        memcpy(out, &f, 4);
        break;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
        double f = k;
        memcpy(out, &f, 8);
        break;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h = ref_half_from_double(k);
        memcpy(out, &h, 2);
        break;
    }
    default: { /* two's complement, little-endian, sign-extended */
        int64_t v = k;
        memcpy(out, &v, ref_type_size(type));
    }
    }
}

static void pad_prepare(pad_case *c, ref_rng *rng)
{
    ops_memory_unary(&c->mem, rng, &c->input, &c->output, c->shared, c->type);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
    unsigned char element[16];
    if (c->op == OP_PADDING) {
        float f;
        memcpy(&f, c->value, sizeof f);
        padding_element(c->type, (int)f, element);
    } else {
        memcpy(element, c->value, sizeof element);
    }
    bool ok = c->op == OP_ROLL ? ref_roll(&in, &out, c->start)
              : c->flags       ? ref_pad_crop_first(&in, &out, c->mode, c->start, c->end, element)
                               : ref_pad(&in, &out, c->mode, c->start, c->end, element);
    cr_assert(ok, "test bug: the reference rejected a case");
    if (!output_empty(c))
        ops_poison_output(&c->mem, &c->output);
}

static void pad_run(pad_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    const char *stage = "";
    if (ops_verbose())
        fprintf(stderr, "%s\n", pad_describe(c, what, sizeof what));
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", pad_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    ops_tensor out_bytes = c->output;
    out_bytes.output = !output_empty(c);
    ops_tensor *all[2] = {&c->input, &out_bytes};
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", pad_describe(c, what, sizeof what), bad,
              diff);
}

/* ---- Random cases -------------------------------------------------------------------------- */

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    *layout = ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    if (ref_element_count(rank, sizes) == 0) {
        given = false;
        *layout = OPS_LAYOUT_NULL;
    }
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 32 : 0);
}

typedef struct pad_spec {
    uint32_t max_rank;
    unsigned reach; /* pads up to reach * size + 2 */
} pad_spec;

static void pad_generate(pad_case *c, ref_rng *rng, const pad_spec *s)
{
    uint32_t in[REF_MAX_DIMS], out[REF_MAX_DIMS];
    c->op = (pad_op)ref_rng_below(rng, 4);
    bool dml = c->op == OP_PADDING || c->op == OP_PADDING1;
    uint32_t max_rank = dml && s->max_rank > 8 ? 8 : s->max_rank;
    c->rank = 1 + (uint32_t)ref_rng_below(rng, max_rank);
    c->type = dml ? dml_types[ref_rng_below(rng, COUNT_OF(dml_types))]
                  : ext_types[ref_rng_below(rng, COUNT_OF(ext_types))];
    c->mode = (ref_pad_mode)ref_rng_below(rng, 5);
    uint32_t cap = c->rank == 1 ? 60 : c->rank == 2 ? 12 : c->rank <= 4 ? 5 : 3;
    for (uint32_t i = 0; i < c->rank; ++i) {
        in[i] = 1 + (uint32_t)ref_rng_below(rng, cap);
        if (!dml && ref_rng_chance(rng, 4) && (c->mode == REF_PAD_CONSTANT || c->op == OP_ROLL))
            in[i] = 0;
        int64_t reach = (int64_t)s->reach * in[i] + 2, lo = dml ? 0 : -(int64_t)in[i] - 2;
        bool padded = ref_rng_chance(rng, 60);
        c->start[i] = padded ? ref_rng_range(rng, lo, reach) : 0;
        c->end[i] = padded ? ref_rng_range(rng, lo, reach) : 0;
        if (in[i] == 0 && c->mode != REF_PAD_CONSTANT)
            c->start[i] = c->end[i] = 0;
        if (c->op == OP_ROLL) {
            c->start[i] = ref_rng_chance(rng, 10) ? (int64_t)ref_rng_next(rng)
                                                  : ref_rng_range(rng, -3 * (int64_t)cap, 3 * cap);
            c->end[i] = 0;
        }
        int64_t m = c->op == OP_ROLL ? in[i] : c->start[i] + in[i] + c->end[i];
        out[i] = m < 0 ? 0 : (uint32_t)m;
        c->ustart[i] = (UINT)c->start[i];
        c->uend[i] = (UINT)c->end[i];
    }
    /* Keep the output small: shrink the pads of the largest output dimension. */
    while (ref_element_count(c->rank, out) > PAD_MAX_ELEMENTS) {
        uint32_t k = 0;
        for (uint32_t i = 1; i < c->rank; ++i)
            k = out[i] > out[k] ? i : k;
        if (c->op == OP_ROLL || (c->start[k] <= 0 && c->end[k] <= 0)) {
            in[k] = in[k] / 2;
            c->start[k] = c->end[k] = c->ustart[k] = c->uend[k] = 0;
            if (dml && in[k] == 0)
                in[k] = 1;
        } else {
            c->start[k] = c->start[k] > 0 ? c->start[k] / 2 : c->start[k];
            c->end[k] = c->end[k] > 0 ? c->end[k] / 2 : c->end[k];
            c->ustart[k] = (UINT)c->start[k];
            c->uend[k] = (UINT)c->end[k];
        }
        if (in[k] == 0 && c->mode != REF_PAD_CONSTANT && c->op != OP_ROLL)
            c->start[k] = c->end[k] = c->ustart[k] = c->uend[k] = 0;
        int64_t m = c->op == OP_ROLL ? in[k] : c->start[k] + in[k] + c->end[k];
        out[k] = m < 0 ? 0 : (uint32_t)m;
    }
    /* Crop first where the crops leave something to repeat (CONSTANT: anything). */
    bool crop_ok = c->op == OP_PAD && ref_rng_chance(rng, 40);
    for (uint32_t i = 0; i < c->rank && crop_ok; ++i) {
        int64_t left =
            in[i] + (c->start[i] < 0 ? c->start[i] : 0) + (c->end[i] < 0 ? c->end[i] : 0);
        crop_ok = left > 0 || (left == 0 && (c->mode == REF_PAD_CONSTANT || out[i] == 0));
    }
    c->flags = crop_ok ? DMLCL_PAD_FLAG_CROP_FIRST : DMLCL_PAD_FLAG_NONE;
    if (c->op == OP_PADDING)
        padding_element(DML_TENSOR_DATA_TYPE_FLOAT32, (int)ref_rng_below(rng, 100),
                        c->value); /* the FLOAT the descriptor carries */
    else
        ref_rng_bytes(rng, c->value, sizeof c->value);
    if (c->op == OP_PADDING1 || (c->op == OP_PAD && c->type != DMLCL_TENSOR_DATA_TYPE_COMPLEX128))
        memset(c->value + ref_type_size(c->type), 0, sizeof c->value - ref_type_size(c->type));
    if (c->mode != REF_PAD_CONSTANT && c->op == OP_PAD)
        memset(c->value, 0, sizeof c->value); /* read only in CONSTANT mode */
    random_tensor(&c->input, rng, "InputTensor", false, c->type, c->rank, in, &c->layout[0]);
    random_tensor(&c->output, rng, "OutputTensor", true, c->type, c->rank, out, &c->layout[1]);
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    pad_descs(c);
}

static void pad_cases(const char *test, unsigned count, const pad_spec *spec)
{
    static pad_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        pad_generate(&c, &rng, spec);
        pad_prepare(&c, &rng);
        pad_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(pad);

Test(pad, random)
{
    pad_spec spec = {5, 1};
    pad_cases("random", 100, &spec);
}

Test(pad, pads_past_the_input)
{
    pad_spec spec = {3, 4};
    pad_cases("pads_past_the_input", 40, &spec);
}

Test(pad, high_ranks)
{
    pad_spec spec = {16, 1};
    pad_cases("high_ranks", 20, &spec);
}

/*
 * Every dimension of an 8-D tensor padded by one on each side, in each mode but CONSTANT:
 * 3^8 = 6561 regions, one view copy each (past the 4096 regions dmlcl once capped PADDING at;
 * DirectML takes 8 dimensions, so every pad under the input size of one must run). Dimensions
 * of 2 and of 1 (one run each side). Many launches: a large test (pthread only).
 */
Test(pad, eight_dimensions_padded_everywhere)
{
    static pad_case c;
    static const ref_pad_mode modes[] = {REF_PAD_EDGE, REF_PAD_REFLECT, REF_PAD_SYMMETRIC,
                                         REF_PAD_WRAP};
    for (size_t m = 0; m < COUNT_OF(modes); ++m) {
        ref_rng rng = ops_case_rng(&run_seed, "eight_dimensions_padded_everywhere", (unsigned)m);
        memset(&c, 0, sizeof c);
        c.test = "eight_dimensions_padded_everywhere";
        c.seed = ops_base_seed(&run_seed);
        c.number = (unsigned)m;
        c.op = OP_PADDING1;
        c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
        c.mode = modes[m];
        c.rank = 8;
        uint32_t in[8], out[8];
        for (uint32_t i = 0; i < 8; ++i) {
            in[i] = i % 2 ? 1 : 2;
            c.start[i] = c.end[i] = 1;
            c.ustart[i] = c.uend[i] = 1;
            out[i] = in[i] + 2;
        }
        ops_tensor_init(&c.input, "InputTensor", false, c.type, 8, in, NULL, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, c.type, 8, out, NULL, 0, 0);
        c.submit = OPS_SUBMIT_DEFAULT;
        pad_descs(&c);
        pad_prepare(&c, &rng);
        pad_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* ---- Front-ends -------------------------------------------------------------------------------
 */

/*
 * OpenVINO Pad-12 (mixed pads), Roll-7 (repeated negative axes) and ONNX
 * Pad-19 (wrap on named axes) as their front-ends describe them, run and
 * compared with the reference on the pads and shifts the specifications
 * give: Pad-12's crop begins and ends relative to the original input,
 * Roll-7's repeated axes add their shifts, ONNX's axes place their pads.
 */
static void frontend_run(const dmlcl_frontend_result *r, ref_pad_mode mode, const int64_t *start,
                         const int64_t *end, bool roll, unsigned n)
{
    static pad_case c;
    memset(&c, 0, sizeof c);
    ref_rng rng = ops_case_rng(&run_seed, "frontends", n);
    c.test = "frontends";
    c.seed = ops_base_seed(&run_seed);
    c.number = n;
    c.op = roll ? OP_ROLL : OP_PAD;
    c.type = r->buffers[0].DataType;
    c.mode = mode;
    c.rank = r->buffers[0].DimensionCount;
    memcpy(c.start, start, c.rank * sizeof *start);
    if (!roll)
        memcpy(c.end, end, c.rank * sizeof *end);
    memcpy(c.value, r->value, sizeof c.value);
    c.flags = roll ? DMLCL_PAD_FLAG_NONE : r->op.pad.Flags;
    ops_tensor_init(&c.input, "InputTensor", false, c.type, c.rank, r->sizes[0], NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, c.type, r->buffers[1].DimensionCount,
                    r->sizes[1], NULL, 0, 0);
    c.desc = r->desc; /* the front-end's own description */
    c.submit = OPS_SUBMIT_DEFAULT;
    pad_prepare(&c, &rng);
    pad_run(&c);
    ops_memory_release(&c.mem);
}

Test(pad, frontends)
{
    dmlcl_frontend_result r;
    /* Pad-12's mixed example on a 3x4 INT32 (begin {2,-1}, end {-1,3}) in every mode. */
    static const char *const ov_modes[] = {"constant", "edge", "reflect", "symmetric"};
    dmlcl_shape data = {2, {3, 4}};
    const int64_t b[2] = {2, -1}, e[2] = {-1, 3};
    const int8_t b8[2] = {2, -1}, e8[2] = {-1, 3};
    dmlcl_int_array pb = {DML_TENSOR_DATA_TYPE_INT8, 2, b8},
                    pe = {DML_TENSOR_DATA_TYPE_INT8, 2, e8};
    const int32_t value = -5;
    dmlcl_shape scalar = {0, {0}};
    for (int m = 0; m < 4; ++m) {
        dmlcl_openvino_pad_args a = {.data = &data,
                                     .data_type = DML_TENSOR_DATA_TYPE_INT32,
                                     .pads_begin = &pb,
                                     .pads_end = &pe,
                                     .pad_value = &value,
                                     .pad_value_type = DML_TENSOR_DATA_TYPE_INT32,
                                     .pad_value_dims = &scalar,
                                     .pad_mode = ov_modes[m]};
        cr_assert_eq(dmlcl_openvino_pad(12, &a, &r), S_OK, "%s", dmlcl_last_error());
        cr_assert_eq(r.output_shape.dims[0], 4);
        cr_assert_eq(r.output_shape.dims[1], 6);
        frontend_run(&r, (ref_pad_mode)m, b, e, false, (unsigned)m);
    }
    /* Roll-7: shift {1, 2, 1} on axes {0, -1, -2} of a 4x3: axis 0 rolls by 2, axis 1 by 2. */
    dmlcl_shape rd = {2, {4, 3}};
    const int64_t sv[3] = {1, 2, 1}, av[3] = {0, -1, -2}, roll_want[2] = {2, 2};
    dmlcl_int_array shift = {DML_TENSOR_DATA_TYPE_INT64, 3, sv};
    dmlcl_int_array axes = {DML_TENSOR_DATA_TYPE_INT64, 3, av};
    dmlcl_openvino_roll_args ra = {
        .data = &rd, .data_type = DML_TENSOR_DATA_TYPE_UINT16, .shift = &shift, .axes = &axes};
    cr_assert_eq(dmlcl_openvino_roll(7, &ra, &r), S_OK, "%s", dmlcl_last_error());
    frontend_run(&r, REF_PAD_WRAP, roll_want, NULL, true, 4);
    /* ONNX Pad-19 wrap on axes {-1} of a 2x3x4: pads {5, 6} reach past the input. */
    dmlcl_shape od = {3, {2, 3, 4}};
    const int64_t pads[2] = {5, 6}, oa[1] = {-1}, ob[3] = {0, 0, 5}, oe[3] = {0, 0, 6};
    dmlcl_int_array pads_a = {DML_TENSOR_DATA_TYPE_INT64, 2, pads};
    dmlcl_int_array axes_a = {DML_TENSOR_DATA_TYPE_INT64, 1, oa};
    dmlcl_onnx_pad_args oa_args = {.data = &od,
                                   .data_type = DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
                                   .pads = &pads_a,
                                   .axes = &axes_a,
                                   .mode = "wrap"};
    cr_assert_eq(dmlcl_onnx_pad(19, &oa_args, &r), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(r.output_shape.dims[2], 15);
    frontend_run(&r, REF_PAD_WRAP, ob, oe, false, 5);
}
