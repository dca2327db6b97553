/* SPDX-License-Identifier: MIT */
/*
 * broadcast.c: DMLCL_BROADCAST and its front-ends (OpenVINO Broadcast-1/3,
 * ONNX Expand-13) on the device against the C reference.
 *
 * Random descriptor cases: every mode, ranks 1..16, sizes of 1 and 0 (empty
 * outputs launch nothing and write nothing), every movable type (extension
 * types included), any input strides (packed, padded, transposed, 0,
 * aliasing), output layouts that give each element its own place, guarded
 * bindings at non-zero offsets, three ways of submitting. Random front-end
 * cases: framework shapes of rank 0..6 with valid and broken targets and
 * axes; the front-end's verdict and output shape must agree with the
 * oracle's rules, and accepted cases run on the device. Fixed cases: the
 * three examples of the Broadcast-1 document. Every failure prints the seed;
 * DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_broadcast.h"

#define BROADCAST_DEFAULT_SEED 0x646D6C636C425243ull
#define BROADCAST_MAX_ELEMENTS 5000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE data_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16,      DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_FLOAT64,      DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_INT16,        DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,        DML_TENSOR_DATA_TYPE_UINT8,
    DML_TENSOR_DATA_TYPE_UINT16,       DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT64,       DMLCL_TENSOR_DATA_TYPE_BOOLEAN,
    DMLCL_TENSOR_DATA_TYPE_BFLOAT16,   DMLCL_TENSOR_DATA_TYPE_COMPLEX64,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
};

static const char *const mode_names[] = {"NUMPY", "EXPLICIT", "BIDIRECTIONAL"};

typedef struct bcast_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    DML_TENSOR_DATA_TYPE type;
    ref_broadcast_mode mode;
    uint32_t map[REF_MAX_DIMS];
    UINT axes[REF_MAX_DIMS];
    ops_layout layout[2];
    bool shared;
    ops_submit submit;
    ops_tensor input, output;
    DMLCL_BROADCAST_OPERATOR_DESC bc;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} bcast_case;

static ops_seed run_seed = OPS_SEED(BROADCAST_DEFAULT_SEED);

/* ---- Running one case ---------------------------------------------------------------- */

static void bcast_descs(bcast_case *c)
{
    c->bc.InputTensor = ops_tensor_desc(&c->input);
    c->bc.OutputTensor = ops_tensor_desc(&c->output);
    c->bc.Mode = (DMLCL_BROADCAST_MODE)c->mode;
    c->bc.AxesMappingCount = c->mode == REF_BROADCAST_EXPLICIT ? c->input.buffer.DimensionCount : 0;
    c->bc.AxesMapping = c->mode == REF_BROADCAST_EXPLICIT ? c->axes : NULL;
    c->desc.Type = DMLCL_OPERATOR_BROADCAST;
    c->desc.Desc = &c->bc;
}

static bool output_empty(const bcast_case *c)
{
    return ref_element_count(c->output.buffer.DimensionCount, c->output.sizes) == 0;
}

static void bcast_prepare(bcast_case *c, ref_rng *rng)
{
    ops_memory_unary(&c->mem, rng, &c->input, &c->output, c->shared, c->type);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
    cr_assert(ref_broadcast(&in, &out, c->map), "test bug: the reference rejected a case");
    if (!output_empty(c))
        ops_poison_output(&c->mem, &c->output);
}

static const char *bcast_describe(const bcast_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512], axes[128] = "";
    size_t at = 0;
    for (uint32_t k = 0; c->mode == REF_BROADCAST_EXPLICIT && k < c->bc.AxesMappingCount; ++k)
        at += (size_t)snprintf(axes + at, sizeof axes - at, "%s%u", k ? "," : " AxesMapping ",
                               c->axes[k]);
    snprintf(buf, len, "%s\n  Mode %s%s; layouts %s/%s; %s buffers; submit %s\n  %s\n  %s",
             ops_replay(head, sizeof head, "BROADCAST", "broadcast", c->test, c->number, c->seed),
             mode_names[c->mode], axes, ops_layout_name(c->layout[0]),
             ops_layout_name(c->layout[1]), c->shared ? "shared" : "separate",
             ops_submit_name(c->submit), ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void bcast_run(bcast_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", bcast_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    /* An empty output has no elements: every byte of every buffer must stay. */
    ops_tensor out_bytes = c->output;
    out_bytes.output = !output_empty(c);
    ops_tensor *all[2] = {&c->input, &out_bytes};
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", bcast_describe(c, what, sizeof what),
              bad, diff);
}

/* ---- Random descriptor cases ------------------------------------------------------------ */

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    *layout = ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    if (ref_element_count(rank, sizes) == 0) { /* DMLCalcBufferTensorSize needs sizes >= 1 */
        given = false;
        *layout = OPS_LAYOUT_NULL;
    }
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 32 : 0);
}

typedef struct bcast_spec {
    uint32_t max_rank;
    uint64_t max_elements;
    unsigned zero_percent; /* chance of an output dimension of 0 */
} bcast_spec;

static void random_output(ref_rng *rng, const bcast_spec *s, uint32_t rank, uint32_t *out)
{
    uint32_t cap = rank <= 1 ? 2000 : rank == 2 ? 80 : rank <= 4 ? 14 : rank <= 8 ? 4 : 2;
    for (uint32_t i = 0; i < rank; ++i)
        out[i] = ref_rng_chance(rng, 15) ? 1 : 1 + (uint32_t)ref_rng_below(rng, cap);
    while (ref_element_count(rank, out) > s->max_elements) {
        uint32_t *largest = &out[0];
        for (uint32_t i = 1; i < rank; ++i)
            if (out[i] > *largest)
                largest = &out[i];
        *largest = (*largest + 1) / 2;
    }
    if (ref_rng_chance(rng, s->zero_percent))
        out[ref_rng_below(rng, rank)] = 0;
}

static void bcast_generate(bcast_case *c, ref_rng *rng, const bcast_spec *s)
{
    uint32_t out[REF_MAX_DIMS], in[REF_MAX_DIMS];
    uint32_t out_rank = 1 + (uint32_t)ref_rng_below(rng, s->max_rank);
    uint32_t in_rank = 1 + (uint32_t)ref_rng_below(rng, out_rank);
    c->type = data_types[ref_rng_below(rng, COUNT_OF(data_types))];
    c->mode = (ref_broadcast_mode)ref_rng_below(rng, 3);
    random_output(rng, s, out_rank, out);
    if (c->mode == REF_BROADCAST_EXPLICIT) {
        /* in_rank strictly increasing output axes out of out_rank. */
        uint32_t k = 0;
        for (uint32_t o = 0; o < out_rank && k < in_rank; ++o)
            if (out_rank - o == in_rank - k || ref_rng_below(rng, out_rank - o) < in_rank - k)
                c->map[k++] = o;
    } else {
        for (uint32_t k = 0; k < in_rank; ++k)
            c->map[k] = out_rank - in_rank + k;
    }
    for (uint32_t k = 0; k < in_rank; ++k) {
        c->axes[k] = c->map[k];
        in[k] = ref_rng_chance(rng, 35) ? 1 : out[c->map[k]];
    }
    random_tensor(&c->input, rng, "InputTensor", false, c->type, in_rank, in, &c->layout[0]);
    random_tensor(&c->output, rng, "OutputTensor", true, c->type, out_rank, out, &c->layout[1]);
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    bcast_descs(c);
}

static void bcast_cases(const char *test, unsigned count, const bcast_spec *spec)
{
    static bcast_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        bcast_generate(&c, &rng, spec);
        bcast_prepare(&c, &rng);
        bcast_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(broadcast);

Test(broadcast, random)
{
    bcast_spec spec = {6, BROADCAST_MAX_ELEMENTS, 5};
    bcast_cases("random", 150, &spec);
}

Test(broadcast, high_ranks)
{
    bcast_spec spec = {16, 3000, 5};
    bcast_cases("high_ranks", 40, &spec);
}

Test(broadcast, empty_outputs)
{
    bcast_spec spec = {5, 2000, 100};
    bcast_cases("empty_outputs", 20, &spec);
}

Test(broadcast, large)
{
    bcast_spec spec = {4, 300000, 0};
    bcast_cases("large", 6, &spec);
}

/* ---- Front-ends -------------------------------------------------------------------------- */

typedef enum fe_kind { FE_BROADCAST1, FE_BROADCAST3, FE_EXPAND13 } fe_kind;

typedef struct fe_case {
    fe_kind kind;
    ref_broadcast_mode mode;
    DML_TENSOR_DATA_TYPE type;
    dmlcl_shape data;
    int64_t target[REF_MAX_DIMS], axes[REF_MAX_DIMS];
    uint32_t target_count, axes_count;
    bool has_axes;
} fe_case;

static HRESULT fe_call(const fe_case *f, dmlcl_frontend_result *r)
{
    static const char *const modes[] = {"numpy", "explicit", "bidirectional"};
    dmlcl_int_array target = {DML_TENSOR_DATA_TYPE_INT64, f->target_count, f->target};
    dmlcl_int_array axes = {DML_TENSOR_DATA_TYPE_INT64, f->axes_count, f->axes};
    if (f->kind == FE_EXPAND13) {
        dmlcl_onnx_expand_args e = {.input = &f->data, .input_type = f->type, .shape = &target};
        return dmlcl_onnx_expand(13, &e, r);
    }
    dmlcl_openvino_broadcast_args a = {.data = &f->data,
                                       .data_type = f->type,
                                       .target_shape = &target,
                                       .axes_mapping = f->has_axes ? &axes : NULL,
                                       .mode = modes[f->mode]};
    return dmlcl_openvino_broadcast(f->kind == FE_BROADCAST1 ? 1 : 3, &a, r);
}

/* Mostly valid shapes, with a broken rule now and then. */
static void fe_generate(fe_case *f, ref_rng *rng)
{
    memset(f, 0, sizeof *f);
    f->kind = (fe_kind)ref_rng_below(rng, 3);
    f->mode = f->kind == FE_EXPAND13     ? REF_BROADCAST_BIDIRECTIONAL
              : f->kind == FE_BROADCAST1 ? (ref_broadcast_mode)ref_rng_below(rng, 2)
                                         : (ref_broadcast_mode)ref_rng_below(rng, 3);
    f->type = data_types[ref_rng_below(rng, COUNT_OF(data_types))];
    uint32_t out_rank = (uint32_t)ref_rng_below(rng, 6);
    int64_t out[REF_MAX_DIMS];
    for (uint32_t i = 0; i < out_rank; ++i)
        out[i] = ref_rng_chance(rng, 5) ? 0 : 1 + (int64_t)ref_rng_below(rng, 7);
    uint32_t data_rank = (uint32_t)ref_rng_below(rng, out_rank + 1);
    if (f->mode == REF_BROADCAST_BIDIRECTIONAL && ref_rng_chance(rng, 30))
        data_rank = out_rank + (uint32_t)ref_rng_below(rng, 3);
    f->data.rank = data_rank;
    f->target_count = out_rank;
    memcpy(f->target, out, sizeof out);
    for (uint32_t k = 0; k < data_rank; ++k) {
        int64_t o = k + out_rank >= data_rank ? out[k + out_rank - data_rank] : 2;
        f->data.dims[k] = ref_rng_chance(rng, 35) ? 1 : o;
    }
    if (f->mode == REF_BROADCAST_BIDIRECTIONAL)
        for (uint32_t i = 0; i < out_rank; ++i)
            if (ref_rng_chance(rng, 25))
                f->target[i] = 1;
    if (f->mode == REF_BROADCAST_EXPLICIT) {
        uint32_t k = 0;
        f->has_axes = true;
        for (uint32_t o = 0; o < out_rank && k < data_rank; ++o)
            if (out_rank - o == data_rank - k || ref_rng_below(rng, out_rank - o) < data_rank - k)
                f->axes[k++] = o;
        f->axes_count = k;
        for (uint32_t j = 0; j < k; ++j)
            f->data.dims[j] = ref_rng_chance(rng, 35) ? 1 : out[f->axes[j]];
        if (data_rank == 0 && out_rank > 0 && ref_rng_chance(rng, 50)) {
            f->axes_count = 1;
            f->axes[0] = (int64_t)ref_rng_below(rng, out_rank);
        }
    }
    switch (ref_rng_below(rng, 12)) { /* break something */
    case 0:
        if (data_rank)
            f->data.dims[ref_rng_below(rng, data_rank)] += 1 + (int64_t)ref_rng_below(rng, 3);
        break;
    case 1:
        if (out_rank)
            f->target[ref_rng_below(rng, out_rank)] = -1 - (int64_t)ref_rng_below(rng, 3);
        break;
    case 2: f->has_axes = f->kind != FE_EXPAND13 && !f->has_axes; break;
    case 3:
        if (f->axes_count > 1) {
            int64_t t = f->axes[0];
            f->axes[0] = f->axes[1];
            f->axes[1] = t;
        }
        break;
    case 4:
        if (f->axes_count)
            f->axes[f->axes_count - 1] += (int64_t)ref_rng_below(rng, 3);
        break;
    default: break;
    }
}

static void fe_check(const fe_case *f, unsigned n)
{
    static bcast_case c;
    char why[256] = "";
    uint32_t rank = 0, map[REF_MAX_DIMS] = {0};
    int64_t want[REF_MAX_DIMS];
    bool valid = ref_broadcast_shape(f->mode, f->data.rank, f->data.dims, f->target_count,
                                     f->target, f->axes_count, f->has_axes ? f->axes : NULL, &rank,
                                     want, map, why, sizeof why);
    dmlcl_frontend_result r;
    HRESULT hr = fe_call(f, &r);
    cr_assert_eq(SUCCEEDED(hr), valid,
                 "front-end case %u (kind %d, mode %s, data rank %u, %u targets, %u axes%s): "
                 "front-end %s (%s), oracle %s (%s); seed 0x%" PRIx64,
                 n, (int)f->kind, mode_names[f->mode], f->data.rank, f->target_count, f->axes_count,
                 f->has_axes ? "" : " absent", dmlcl_hresult_name(hr), dmlcl_last_error(),
                 valid ? "accepts" : "rejects", why, ops_base_seed(&run_seed));
    if (!valid) {
        cr_assert_eq(hr, E_INVALIDARG, "case %u: %s", n, dmlcl_last_error());
        return;
    }
    cr_assert_eq(r.output_shape.rank, rank, "case %u: output rank", n);
    cr_assert(!memcmp(r.output_shape.dims, want, rank * sizeof *want), "case %u: output shape", n);

    /* Run it: packed tensors as the front-end describes them. */
    ref_rng rng = ops_case_rng(&run_seed, "frontends_run", n);
    memset(&c, 0, sizeof c);
    c.test = "frontends";
    c.seed = ops_base_seed(&run_seed);
    c.number = n;
    c.type = f->type;
    c.mode = f->mode;
    if (f->data.rank)
        memcpy(c.map, map, f->data.rank * sizeof *map);
    else
        c.map[0] = f->axes_count ? (uint32_t)f->axes[0] : 0;
    ops_tensor_init(&c.input, "InputTensor", false, f->type, r.buffers[0].DimensionCount,
                    r.sizes[0], NULL, 0, 0);
    ops_tensor_init(&c.output, "OutputTensor", true, f->type, r.buffers[1].DimensionCount,
                    r.sizes[1], NULL, 0, 0);
    cr_assert_eq(c.input.buffer.TotalTensorSizeInBytes, r.buffers[0].TotalTensorSizeInBytes);
    cr_assert_eq(c.output.buffer.TotalTensorSizeInBytes, r.buffers[1].TotalTensorSizeInBytes);
    c.desc = r.desc; /* the front-end's own description, its tensors in r */
    c.bc = r.op.broadcast;
    c.submit = OPS_SUBMIT_DEFAULT;
    bcast_prepare(&c, &rng);
    bcast_run(&c);
    ops_memory_release(&c.mem);
}

Test(broadcast, frontends_against_oracle)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(300); ++n) {
        fe_case f;
        ref_rng rng = ops_case_rng(&run_seed, "frontends", n);
        fe_generate(&f, &rng);
        if (only < 0 || (unsigned long)only == n)
            fe_check(&f, n);
    }
}

/* ---- The examples of the Broadcast-1 document --------------------------------------------- */

/*
 * Example 1: numpy, data {16,1,1} to [1,16,50,50]; example 2: explicit, {16}
 * with axes_mapping [1] to [1,16,50,50]; example 3: explicit, {50,50} with
 * [1,2] to [1,50,50,16]. Data 0, 1, 2, ...: output element (n,c,h,w) is c
 * (examples 1, 2) and h*50+w (example 3).
 */
Test(broadcast, documented_examples)
{
    static bcast_case c;
    const int64_t t12[4] = {1, 16, 50, 50}, t3[4] = {1, 50, 50, 16};
    const int64_t ax2[1] = {1}, ax3[2] = {1, 2};
    dmlcl_shape d1 = {3, {16, 1, 1}}, d2 = {1, {16}}, d3 = {2, {50, 50}};
    dmlcl_int_array target12 = {DML_TENSOR_DATA_TYPE_INT64, 4, t12};
    dmlcl_int_array target3 = {DML_TENSOR_DATA_TYPE_INT64, 4, t3};
    dmlcl_int_array axes2 = {DML_TENSOR_DATA_TYPE_INT64, 1, ax2};
    dmlcl_int_array axes3 = {DML_TENSOR_DATA_TYPE_INT64, 2, ax3};
    const dmlcl_openvino_broadcast_args examples[3] = {
        {.data = &d1,
         .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
         .target_shape = &target12,
         .mode = "numpy"},
        {.data = &d2,
         .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
         .target_shape = &target12,
         .axes_mapping = &axes2,
         .mode = "explicit"},
        {.data = &d3,
         .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
         .target_shape = &target3,
         .axes_mapping = &axes3,
         .mode = "explicit"},
    };
    for (int e = 0; e < 3; ++e) {
        dmlcl_frontend_result r;
        ref_rng rng = ops_case_rng(&run_seed, "documented_examples", (unsigned)e);
        HRESULT hr = dmlcl_openvino_broadcast(1, &examples[e], &r);
        cr_assert(SUCCEEDED(hr), "example %d: %s", e + 1, dmlcl_last_error());
        cr_assert_eq(r.output_shape.rank, 4);
        cr_assert(!memcmp(r.output_shape.dims, e < 2 ? t12 : t3, sizeof t12));
        memset(&c, 0, sizeof c);
        c.test = "documented_examples";
        c.number = (unsigned)e;
        c.type = DML_TENSOR_DATA_TYPE_FLOAT32;
        c.mode = e ? REF_BROADCAST_EXPLICIT : REF_BROADCAST_NUMPY;
        ops_tensor_init(&c.input, "InputTensor", false, c.type, r.buffers[0].DimensionCount,
                        r.sizes[0], NULL, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, c.type, 4, r.sizes[1], NULL, 0, 0);
        c.desc = r.desc;
        c.bc = r.op.broadcast;
        memset(&c.mem, 0, sizeof c.mem);
        ops_memory_place(&c.mem, &rng, &c.input, false);
        ops_memory_place(&c.mem, &rng, &c.output, false);
        ops_memory_alloc(&c.mem, &rng);
        float *in = (float *)ops_ptr(&c.mem, OPS_INIT, &c.input);
        for (int i = 0; i < (e < 2 ? 16 : 2500); ++i)
            in[i] = (float)i;
        ops_memory_snapshot(&c.mem);
        float *want = (float *)ops_ptr(&c.mem, OPS_EXPECT, &c.output);
        for (int i = 0; i < 40000; ++i)
            want[i] = e < 2 ? (float)(i / 2500) : (float)(i / 16);
        ops_poison_output(&c.mem, &c.output);
        bcast_run(&c);
        ops_memory_release(&c.mem);
    }
}
