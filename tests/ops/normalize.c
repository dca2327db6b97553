/* SPDX-License-Identifier: MIT */
/*
 * normalize.c: DirectML's normalising operators on the device against the C reference
 * (tests/ref/ref_normalize.c): ACTIVATION_SOFTMAX, LOG_SOFTMAX, HARDMAX and their *1 versions,
 * MEAN_VARIANCE_NORMALIZATION (and 1, 2) and LP_NORMALIZATION, FLOAT32 and FLOAT16.
 *
 * Random cases: ranks 1..8 (the 1.0 softmax family: every dimension but the last two of size
 * 1; MVN: 4), random axis sets (inner, outer, split, all; Axes in any order), inputs packed,
 * padded, transposed, broadcast or aliasing, outputs packed, padded or transposed; MVN's scale
 * and bias each present or not, each dimension the input's or 1 (broadcast), in any layout,
 * a fused activation now and then, UseMean and UseVariance (NormalizeVariance) drawn; LP's P 1
 * or 2 and Epsilon 1e-5 or 0.5. Data in [-20, 20]; a third of HARDMAX's cases draw small
 * integers, so rows hold their largest value more than once (the first wins). Float outputs
 * compare within ref_norm_ulps / ref_norm_abs (plus a fused activation's ULPs; SOFTMAX at
 * precision.md's 3N + 3: the kernel carries the rounding of x - max into exp for rows under
 * 64, tests/ops/reduce.c softmax_far_below_the_maximum). Failures
 * print the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_activation.h"
#include "ref_broadcast.h"
#include "ref_normalize.h"

#define NORM_DEFAULT_SEED 0x646D6C636C4E524Dull
#define NORM_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

typedef enum norm_form {
    FORM_OLD,  /* ACTIVATION_SOFTMAX ...: the last dimension, effective rank <= 2 */
    FORM_AXES, /* ACTIVATION_SOFTMAX1 ...: Axes */
    FORM_MVN0, /* CrossChannel */
    FORM_MVN1, /* Axes, NormalizeVariance */
    FORM_MVN2, /* Axes, UseMean, UseVariance */
    FORM_LP,   /* Axis, P */
} norm_form;

typedef struct norm_kind {
    const char *name;
    DML_OPERATOR_TYPE type;
    ref_norm_op op;
    norm_form form;
} norm_kind;

static const norm_kind kinds[] = {
    {"SOFTMAX", DML_OPERATOR_ACTIVATION_SOFTMAX, REF_NORM_SOFTMAX, FORM_OLD},
    {"SOFTMAX1", DML_OPERATOR_ACTIVATION_SOFTMAX1, REF_NORM_SOFTMAX, FORM_AXES},
    {"LOG_SOFTMAX", DML_OPERATOR_ACTIVATION_LOG_SOFTMAX, REF_NORM_LOG_SOFTMAX, FORM_OLD},
    {"LOG_SOFTMAX1", DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1, REF_NORM_LOG_SOFTMAX, FORM_AXES},
    {"HARDMAX", DML_OPERATOR_ACTIVATION_HARDMAX, REF_NORM_HARDMAX, FORM_OLD},
    {"HARDMAX1", DML_OPERATOR_ACTIVATION_HARDMAX1, REF_NORM_HARDMAX, FORM_AXES},
    {"MEAN_VARIANCE_NORMALIZATION", DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION, REF_NORM_MVN,
     FORM_MVN0},
    {"MEAN_VARIANCE_NORMALIZATION1", DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1, REF_NORM_MVN,
     FORM_MVN1},
    {"MEAN_VARIANCE_NORMALIZATION2", DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2, REF_NORM_MVN,
     FORM_MVN2},
    {"LP_NORMALIZATION", DML_OPERATOR_LP_NORMALIZATION, REF_NORM_LP, FORM_LP},
};

/* Fused activations the MVN cases draw (a subset of DirectML's fusable list, with their
 * parameters' ranges kept within |slope| <= 1 so that MVN's absolute tolerance holds). */
static const struct {
    ref_act act;
    DML_OPERATOR_TYPE type;
    int n_params;
} fusable[] = {
    {REF_ACT_RELU, DML_OPERATOR_ACTIVATION_RELU, 0},
    {REF_ACT_LEAKY_RELU, DML_OPERATOR_ACTIVATION_LEAKY_RELU, 1},
    {REF_ACT_ELU, DML_OPERATOR_ACTIVATION_ELU, 1},
    {REF_ACT_SIGMOID, DML_OPERATOR_ACTIVATION_SIGMOID, 0},
    {REF_ACT_LINEAR, DML_OPERATOR_ACTIVATION_LINEAR, 2},
    {REF_ACT_SOFTSIGN, DML_OPERATOR_ACTIVATION_SOFTSIGN, 0},
    {REF_ACT_IDENTITY, DML_OPERATOR_ACTIVATION_IDENTITY, 0},
};

typedef struct act_desc { /* a fused activation's descriptor: no tensors, two FLOATs */
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_desc;

typedef struct norm_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    const norm_kind *kind;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    uint32_t sizes[REF_MAX_DIMS];
    UINT axes[REF_MAX_DIMS];
    UINT n_axes;
    ref_norm_args args;
    bool cross, ties, has_scale, has_bias;
    int fused; /* index into fusable[], or -1 */
    ops_layout layout[4];
    ops_submit submit;
    ops_tensor in, scale, bias, out;
    act_desc act;
    DML_OPERATOR_DESC fused_desc;
    union {
        DML_ACTIVATION_SOFTMAX_OPERATOR_DESC softmax;
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC softmax1;
        DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC mvn;
        DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC mvn1;
        DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC mvn2;
        DML_LP_NORMALIZATION_OPERATOR_DESC lp;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} norm_case;

static ops_seed run_seed = OPS_SEED(NORM_DEFAULT_SEED);

static bool is_mvn(const norm_case *c)
{
    return c->kind->op == REF_NORM_MVN;
}

/* A non-empty random set of the rank dimensions, in a shuffled order. */
static void draw_axes(norm_case *c, ref_rng *rng)
{
    c->n_axes = 0;
    for (uint32_t d = 0; d < c->rank; ++d)
        if (ref_rng_chance(rng, 40))
            c->axes[c->n_axes++] = d;
    if (c->n_axes == 0)
        c->axes[c->n_axes++] = (UINT)ref_rng_below(rng, c->rank);
    for (UINT i = c->n_axes; i > 1; --i) {
        UINT j = (UINT)ref_rng_below(rng, i), t = c->axes[i - 1];
        c->axes[i - 1] = c->axes[j];
        c->axes[j] = t;
    }
}

static void draw_operand(norm_case *c, ref_rng *rng, ops_tensor *t, const char *name, int k)
{
    uint32_t sizes[REF_MAX_DIMS];
    for (uint32_t d = 0; d < c->rank; ++d)
        sizes[d] = ref_rng_chance(rng, 50) ? c->sizes[d] : 1;
    ops_random_tensor(t, rng, name, false, c->type, c->rank, sizes, &c->layout[k]);
}

static void norm_descs(norm_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->in), *out = ops_tensor_desc(&c->out);
    const DML_TENSOR_DESC *scale = c->has_scale ? ops_tensor_desc(&c->scale) : NULL;
    const DML_TENSOR_DESC *bias = c->has_bias ? ops_tensor_desc(&c->bias) : NULL;
    const DML_OPERATOR_DESC *fused = c->fused >= 0 ? &c->fused_desc : NULL;
    if (c->fused >= 0) {
        c->fused_desc.Type = fusable[c->fused].type;
        c->fused_desc.Desc = &c->act;
    }
    float eps = (float)c->args.epsilon;
    switch (c->kind->form) {
    case FORM_OLD: c->d.softmax = (DML_ACTIVATION_SOFTMAX_OPERATOR_DESC){in, out}; break;
    case FORM_AXES:
        c->d.softmax1 = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){in, out, c->n_axes, c->axes};
        break;
    case FORM_MVN0:
        c->d.mvn = (DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC){
            in, scale, bias, out, c->cross, c->args.use_variance, eps, fused};
        break;
    case FORM_MVN1:
        c->d.mvn1 = (DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC){
            in, scale, bias, out, c->n_axes, c->axes, c->args.use_variance, eps, fused};
        break;
    case FORM_MVN2:
        c->d.mvn2 = (DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC){
            in,  scale, bias, out, c->n_axes, c->axes, c->args.use_mean, c->args.use_variance,
            eps, fused};
        break;
    case FORM_LP:
        c->d.lp = (DML_LP_NORMALIZATION_OPERATOR_DESC){in, out, c->axes[0], eps, c->args.p};
        break;
    }
    c->desc.Type = c->kind->type;
    c->desc.Desc = &c->d;
}

static void norm_generate(norm_case *c, ref_rng *rng, const norm_kind *kind,
                          DML_TENSOR_DATA_TYPE type)
{
    c->kind = kind;
    c->type = type;
    c->fused = -1;
    c->rank = kind->form == FORM_MVN0 ? 4 : 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, c->sizes, NORM_MAX_ELEMENTS);
    switch (kind->form) {
    case FORM_OLD:
        for (uint32_t d = 0; d + 2 < c->rank; ++d)
            c->sizes[d] = 1;
        c->axes[0] = c->rank - 1;
        c->n_axes = 1;
        break;
    case FORM_MVN0:
        c->cross = ref_rng_chance(rng, 50);
        c->n_axes = 0;
        for (UINT d = c->cross ? 1 : 2; d < 4; ++d)
            c->axes[c->n_axes++] = d;
        break;
    case FORM_LP:
        c->axes[0] = (UINT)ref_rng_below(rng, c->rank);
        c->n_axes = 1;
        c->args.p = 1 + (unsigned)ref_rng_below(rng, 2);
        break;
    default: draw_axes(c, rng);
    }
    for (UINT i = 0; i < c->n_axes; ++i)
        c->args.reduced[c->axes[i]] = true;
    c->args.use_mean = kind->form != FORM_MVN2 || ref_rng_chance(rng, 70);
    c->args.use_variance = ref_rng_chance(rng, 80);
    c->args.epsilon = (float)(ref_rng_chance(rng, 70) ? 1e-5 : 0.5);
    c->ties = kind->op == REF_NORM_HARDMAX && ref_rng_chance(rng, 35);
    ops_random_tensor(&c->in, rng, "InputTensor", false, type, c->rank, c->sizes, &c->layout[0]);
    ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, c->sizes, &c->layout[3]);
    if (is_mvn(c)) {
        c->has_scale = ref_rng_chance(rng, 60);
        c->has_bias = ref_rng_chance(rng, 60);
        if (c->has_scale)
            draw_operand(c, rng, &c->scale, "ScaleTensor", 1);
        if (c->has_bias)
            draw_operand(c, rng, &c->bias, "BiasTensor", 2);
        if (ref_rng_chance(rng, 40)) {
            c->fused = (int)ref_rng_below(rng, COUNT_OF(fusable));
            c->args.act = fusable[c->fused].act;
            for (int i = 0; i < fusable[c->fused].n_params; ++i) {
                /* Alpha in [-1, 1] (ELU: (0, 1]), Beta in [-2, 2]. */
                double v = (double)ref_rng_range(rng, -1000, 1000) / (i ? 500.0 : 1000.0);
                if (c->args.act == REF_ACT_ELU)
                    v = fabs(v) + 0.001;
                c->act.param[i] = (FLOAT)v;
                c->args.act_p[i] = c->act.param[i];
            }
        }
    }
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    norm_descs(c);
}

static void norm_place(norm_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->in, false);
    if (c->has_scale)
        ops_memory_place(&c->mem, rng, &c->scale, ref_rng_chance(rng, 30));
    if (c->has_bias)
        ops_memory_place(&c->mem, rng, &c->bias, ref_rng_chance(rng, 30));
    ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    ops_memory_alloc(&c->mem, rng);
}

/* Every slot of t: in [-20, 20] (scale [-1, 1], bias [-2, 2]; small integers for ties). */
static void fill(norm_case *c, ref_rng *rng, ops_tensor *t, double range)
{
    size_t w = ref_type_size(c->type);
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, t);
    for (uint64_t s = 0; s < slots; ++s) {
        double v = c->ties && t == &c->in
                       ? (double)ref_rng_range(rng, -3, 3)
                       : range * (double)ref_rng_range(rng, -100000, 100000) / 100000.0;
        if (c->type == F16) {
            uint16_t h = ref_half_from_double(v);
            memcpy(p + s * w, &h, 2);
        } else {
            float f = (float)v;
            memcpy(p + s * w, &f, 4);
        }
    }
}

static void norm_fill(norm_case *c, ref_rng *rng)
{
    fill(c, rng, &c->in, 20.0);
    if (c->has_scale)
        fill(c, rng, &c->scale, 1.0);
    if (c->has_bias)
        fill(c, rng, &c->bias, 2.0);
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in);
    ref_tensor scale = ops_view(&c->mem, OPS_INIT, &c->scale);
    ref_tensor bias = ops_view(&c->mem, OPS_INIT, &c->bias);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok = ref_normalize(c->kind->op, &c->args, &in, c->has_scale ? &scale : NULL,
                            c->has_bias ? &bias : NULL, &out);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
}

static const char *norm_describe(const norm_case *c, char *buf, size_t len)
{
    char head[512], in[512], sc[512], bi[512], out[512], axes[64] = "";
    for (UINT i = 0, at = 0; i < c->n_axes && at < sizeof axes - 4; ++i)
        at += (UINT)snprintf(axes + at, sizeof axes - at, "%s%u", i ? "," : "", c->axes[i]);
    snprintf(buf, len,
             "%s\n  %s; axes {%s}; mean %d variance %d eps %g p %u; fused %s; layouts "
             "%s/%s/%s/%s; submit %s\n  %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, c->kind->name, "normalize", c->test, c->number, c->seed),
             ref_type_name(c->type), axes, c->args.use_mean, c->args.use_variance, c->args.epsilon,
             c->args.p, c->fused >= 0 ? ref_act_name(c->args.act) : "-",
             ops_layout_name(c->layout[0]), c->has_scale ? ops_layout_name(c->layout[1]) : "-",
             c->has_bias ? ops_layout_name(c->layout[2]) : "-", ops_layout_name(c->layout[3]),
             ops_submit_name(c->submit), ops_tensor_describe(&c->in, in, sizeof in),
             c->has_scale ? ops_tensor_describe(&c->scale, sc, sizeof sc) : "no scale",
             c->has_bias ? ops_tensor_describe(&c->bias, bi, sizeof bi) : "no bias",
             ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* Elements within the tolerance count as equal (the reference's bytes go into what came
 * back, so the byte comparison sees only real differences). */
static void accept_tolerance(norm_case *c)
{
    size_t n = 1;
    for (uint32_t d = 0; d < c->rank; ++d)
        if (c->args.reduced[d])
            n *= c->sizes[d];
    unsigned ulps = ref_norm_ulps(c->kind->op, n);
    double abs_tol = ref_norm_abs(c->kind->op, c->type, n);
    if (c->fused >= 0)
        ulps += ref_activation_ulps(c->args.act);
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        double dx = value_of(c->type, x), dy = value_of(c->type, y);
        bool accept = ulps ? ref_float_close(c->type, x, y, ulps) : isnan(dx) && isnan(dy);
        if (!accept && abs_tol > 0)
            accept = isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= abs_tol;
        if (accept)
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void norm_run(norm_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[3] = {&c->in, c->has_scale ? &c->scale : NULL,
                             c->has_bias ? &c->bias : NULL};
    ops_tensor *outputs[1] = {&c->out};
    ops_tensor *all[4] = {&c->out, &c->in};
    int n_all = 2;
    if (c->has_scale)
        all[n_all++] = &c->scale;
    if (c->has_bias)
        all[n_all++] = &c->bias;
    const char *stage = "";
    if (ops_verbose())
        fprintf(stderr, "%s\n", norm_describe(c, what, sizeof what));
    HRESULT hr =
        ops_run_device(&c->desc, &c->mem, inputs, is_mvn(c) ? 3 : 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", norm_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", norm_describe(c, what, sizeof what), bad,
              diff);
}

static void norm_cases(const char *test, unsigned count, const norm_kind *kind)
{
    static norm_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        norm_generate(&c, &rng, kind, n % 2 ? F16 : F32);
        norm_place(&c, &rng);
        norm_fill(&c, &rng);
        norm_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(normalize);

#define NORM_RANDOM_TEST(name, index, times)                 \
    Test(normalize, random_##name)                           \
    {                                                        \
        norm_cases("random_" #name, (times), &kinds[index]); \
    }

NORM_RANDOM_TEST(softmax, 0, 12)
NORM_RANDOM_TEST(softmax1, 1, 24)
NORM_RANDOM_TEST(log_softmax, 2, 12)
NORM_RANDOM_TEST(log_softmax1, 3, 24)
NORM_RANDOM_TEST(hardmax, 4, 12)
NORM_RANDOM_TEST(hardmax1, 5, 24)
NORM_RANDOM_TEST(mvn, 6, 16)
NORM_RANDOM_TEST(mvn1, 7, 24)
NORM_RANDOM_TEST(mvn2, 8, 24)
NORM_RANDOM_TEST(lp_normalization, 9, 16)

/* A normalisation over rows of RUN elements (5 rows, 3 elements of padding between output rows,
 * so that each row starts at another offset in a 64-byte line), run on the device with every
 * output streaming, against ref_normalize; the padding comes back as it was. kind: MVN1 with
 * a scale, a bias and RELU fused (t 0: FLOAT32, 1: FLOAT16), LOG_SOFTMAX1 (2), HARDMAX1 with
 * ties (3), LP_NORMALIZATION (4). */
static void streamed_rows(int t)
{
    enum { ROWS = 5, RUN = 700, PAD = 3, PITCH = RUN + PAD };
    DML_TENSOR_DATA_TYPE type = t == 1 ? F16 : F32;
    size_t w = t == 1 ? 2 : 4;
    UINT sizes[2] = {ROWS, RUN}, row_sizes[2] = {1, RUN}, out_strides[2] = {PITCH, 1};
    UINT axes[1] = {1};
    DML_BUFFER_TENSOR_DESC ib = {
        type, DML_TENSOR_FLAG_NONE, 2, sizes, NULL, DMLCalcBufferTensorSize(type, 2, sizes, NULL),
        0};
    DML_BUFFER_TENSOR_DESC sb = {type, DML_TENSOR_FLAG_NONE,
                                 2,    row_sizes,
                                 NULL, DMLCalcBufferTensorSize(type, 2, row_sizes, NULL),
                                 0};
    DML_BUFFER_TENSOR_DESC ob = {
        type,  DML_TENSOR_FLAG_NONE, 2,
        sizes, out_strides,          DMLCalcBufferTensorSize(type, 2, sizes, out_strides),
        0};
    DML_TENSOR_DESC it = {DML_TENSOR_TYPE_BUFFER, &ib}, st = {DML_TENSOR_TYPE_BUFFER, &sb},
                    ot = {DML_TENSOR_TYPE_BUFFER, &ob};
    size_t in_bytes = (size_t)ib.TotalTensorSizeInBytes,
           row_bytes = (size_t)sb.TotalTensorSizeInBytes,
           out_bytes = (size_t)ob.TotalTensorSizeInBytes;
    unsigned char *in = malloc(in_bytes), *scale = malloc(row_bytes), *bias = malloc(row_bytes),
                  *out = malloc(out_bytes), *want = malloc(out_bytes);
    cr_assert(in && scale && bias && out && want);
    ref_rng rng = ref_rng_make(0x4e4f524dull + (uint64_t)t);
    unsigned char *fill_of[3] = {in, scale, bias};
    size_t count_of[3] = {(size_t)ROWS * RUN, RUN, RUN};
    double range_of[3] = {20.0, 1.0, 2.0};
    for (int k = 0; k < 3; ++k)
        for (size_t i = 0; i < count_of[k]; ++i) {
            double v = t == 3 && k == 0
                           ? (double)ref_rng_range(&rng, -3, 3)
                           : range_of[k] * (double)ref_rng_range(&rng, -100000, 100000) / 100000.0;
            if (type == F16) {
                uint16_t h = ref_half_from_double(v);
                memcpy(fill_of[k] + i * w, &h, 2);
            } else {
                float f = (float)v;
                memcpy(fill_of[k] + i * w, &f, 4);
            }
        }
    ref_norm_op op = t <= 1   ? REF_NORM_MVN
                     : t == 2 ? REF_NORM_LOG_SOFTMAX
                     : t == 3 ? REF_NORM_HARDMAX
                              : REF_NORM_LP;
    ref_norm_args args = {.use_mean = true, .use_variance = true, .epsilon = 1e-5, .p = 2};
    args.reduced[1] = true;
    args.act = t <= 1 ? REF_ACT_RELU : REF_ACT_NONE;
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {NULL, NULL};
    DML_OPERATOR_DESC fused = {DML_OPERATOR_ACTIVATION_RELU, &relu};
    DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC mvn = {&it,  &st, &st,   &ot,   1,
                                                          axes, 1,   1e-5f, &fused};
    DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC lsm = {&it, &ot, 1, axes};
    DML_ACTIVATION_HARDMAX1_OPERATOR_DESC hm = {&it, &ot, 1, axes};
    DML_LP_NORMALIZATION_OPERATOR_DESC lp = {&it, &ot, 1, 1e-5f, 2};
    DML_OPERATOR_DESC desc =
        t <= 1   ? (DML_OPERATOR_DESC){DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1, &mvn}
        : t == 2 ? (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1, &lsm}
        : t == 3 ? (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_HARDMAX1, &hm}
                 : (DML_OPERATOR_DESC){DML_OPERATOR_LP_NORMALIZATION, &lp};
    /* The expected bytes: the padding poisoned as the device's output is. */
    memset(out, 0x7F, out_bytes); /* 3.4e38 in FLOAT32, a NaN in FLOAT16 */
    memset(want, 0x7F, out_bytes);
    ref_tensor rin = {type, w, 2, {ROWS, RUN}, {RUN, 1}, in};
    ref_tensor rsc = {type, w, 2, {1, RUN}, {RUN, 1}, scale};
    ref_tensor rbi = {type, w, 2, {1, RUN}, {RUN, 1}, bias};
    ref_tensor rout = {type, w, 2, {ROWS, RUN}, {PITCH, 1}, want};
    cr_assert(ref_normalize(op, &args, &rin, t <= 1 ? &rsc : NULL, t <= 1 ? &rbi : NULL, &rout),
              "test bug: the reference rejected case %d", t);
    dmlcl_host_tensor ins[3] = {{in, in_bytes}, {scale, row_bytes}, {bias, row_bytes}};
    char what[16];
    snprintf(what, sizeof what, "case %d", t);
    ops_execute_on_host(what, &desc, t <= 1 ? 3u : 1u, ins, (dmlcl_host_tensor){out, out_bytes});
    unsigned ulps = ref_norm_ulps(op, RUN) + (t <= 1 ? ref_activation_ulps(REF_ACT_RELU) : 0);
    double abs_tol = ref_norm_abs(op, type, RUN);
    size_t bad = 0, first = 0;
    for (size_t p = 0; p * w < out_bytes; ++p) {
        const unsigned char *x = want + p * w, *y = out + p * w;
        double dx = value_of(type, x), dy = value_of(type, y);
        bool ok = memcmp(x, y, w) == 0; /* the padding: unchanged */
        if (!ok && p % PITCH < RUN)
            ok = (ulps && ref_float_close(type, x, y, ulps)) ||
                 (abs_tol > 0 && isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= abs_tol);
        if (!ok && !bad++)
            first = p;
    }
    cr_expect(bad == 0, "case %d (%s %s): %zu elements wrong, the first at row %zu, element %zu", t,
              ref_norm_name(op), ref_type_name(type), bad, first / PITCH, first % PITCH);
    free(in);
    free(scale);
    free(bias);
    free(out);
    free(want);
}

Test(normalize, streaming_rows_every_alignment)
{
    /* Every output made to stream (DMLCL_TUNING: non-temporal stores from 1/2^30 of the cache):
     * the writing pass's elements one by one up to a line boundary, blocks of whole lines, the
     * tail, in each row. */
    char *saved = ops_tuning_set("stream_cache_divisor=1073741824");
    for (int t = 0; t < 5; ++t)
        streamed_rows(t);
    ops_tuning_restore(saved);
}

/* SOFTMAX1 over rows of run FLOAT32 (rows of them, packed) on the device with tuning (NULL:
 * the defaults) into out. */
static void softmax_rows(UINT rows, UINT run, const float *in, float *out, const char *tuning)
{
    char *saved = tuning ? ops_tuning_set(tuning) : NULL;
    UINT sizes[2] = {rows, run}, axes[1] = {1};
    DML_BUFFER_TENSOR_DESC b = {
        F32, DML_TENSOR_FLAG_NONE, 2, sizes, NULL, DMLCalcBufferTensorSize(F32, 2, sizes, NULL), 0};
    DML_TENSOR_DESC td = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sm = {&td, &td, 1, axes};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ACTIVATION_SOFTMAX1, &sm};
    size_t bytes = (size_t)b.TotalTensorSizeInBytes;
    dmlcl_host_tensor hi = {(void *)in, bytes};
    ops_execute_on_host("SOFTMAX1", &desc, 1, &hi, (dmlcl_host_tensor){out, bytes});
    if (tuning)
        ops_tuning_restore(saved);
}

Test(normalize, softmax_rows_in_pairs_match_one_at_a_time)
{
    /* A CPU's item takes a float32 softmax's short rows two at a time (src/launch_reduce.c
     * PAIRS): the same operations in the same order as one row at a time (pairs off:
     * reduce_pair_max_run=1), so the same bits, and within SOFTMAX's 3N + 3 ULPs of
     * ref_normalize. 129 rows of 128 and 65 of 1024 (the longest paired): on 2 compute
     * units, items of 4 and 2 rows, the last item's one row alone; rows with a large spread
     * (exp far below the maximum). GPUs take a row a work-group, paired or not: there both
     * runs would be the one kernel (the GPU class's softmaxes: reduce/softmax_*). */
    if (dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_GPU)
        cr_skip_test("a GPU takes a row a work-group: no pairs");
    const UINT shapes[2][2] = {{129, 128}, {65, 1024}};
    for (int s = 0; s < 2; ++s) {
        UINT rows = shapes[s][0], run = shapes[s][1];
        size_t n = (size_t)rows * run;
        float *x = malloc(n * 4), *paired = malloc(n * 4), *single = malloc(n * 4),
              *want = malloc(n * 4);
        cr_assert(x && paired && single && want);
        ref_rng rng = ref_rng_make(0x50414952ull + (uint64_t)s);
        for (size_t i = 0; i < n; ++i)
            x[i] = (float)ref_rng_range(&rng, -300000, 300000) / 10000.0f;
        softmax_rows(rows, run, x, paired, NULL);
        softmax_rows(rows, run, x, single, "reduce_pair_max_run=1");
        size_t differ = 0;
        for (size_t i = 0; i < n; ++i)
            differ += memcmp(&paired[i], &single[i], 4) != 0;
        cr_expect(differ == 0, "rows of %u: %zu elements differ paired and one at a time", run,
                  differ);
        ref_norm_args args = {.epsilon = 0};
        args.reduced[1] = true;
        ref_tensor rin = {F32, 4, 2, {rows, run}, {run, 1}, x};
        ref_tensor rout = {F32, 4, 2, {rows, run}, {run, 1}, want};
        cr_assert(ref_normalize(REF_NORM_SOFTMAX, &args, &rin, NULL, NULL, &rout));
        unsigned ulps = ref_norm_ulps(REF_NORM_SOFTMAX, run);
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i)
            bad += memcmp(&want[i], &paired[i], 4) != 0 &&
                   !ref_float_close(F32, &want[i], &paired[i], ulps);
        cr_expect(bad == 0, "rows of %u: %zu elements past %u ULPs", run, bad, ulps);
        free(x);
        free(paired);
        free(single);
        free(want);
    }
}

/* MVN1 over rows of L FLOAT32 (R rows, packed, [1, 1, R, L], Axes {3}) into out. */
static void mvn_rows(UINT rows, UINT run, BOOL variance, const float *in, float *out)
{
    UINT sizes[4] = {1, 1, rows, run}, axes[1] = {3};
    DML_BUFFER_TENSOR_DESC b = {
        F32, DML_TENSOR_FLAG_NONE, 4, sizes, NULL, DMLCalcBufferTensorSize(F32, 4, sizes, NULL), 0};
    DML_TENSOR_DESC td = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC mvn = {&td,  NULL,     NULL,  &td, 1,
                                                          axes, variance, 1e-5f, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1, &mvn};
    size_t bytes = (size_t)b.TotalTensorSizeInBytes;
    dmlcl_host_tensor hi[3] = {{(void *)in, bytes}, {NULL, 0}, {NULL, 0}}; /* no scale, bias */
    ops_execute_on_host("MVN1", &desc, 3, hi, (dmlcl_host_tensor){out, bytes});
}

/*
 * Infinities in an MVN row: the result is (x - mean) / sqrt(variance + epsilon) in IEEE
 * arithmetic, as ONNX Runtime's and onnx.reference's layer normalisations give it: the mean of
 * a row holding +inf is +inf, so its finite elements normalise to -inf without the variance
 * (NormalizeVariance 0) and to NaN with it (the variance is NaN: inf - inf); both infinities
 * make the mean NaN. The kernel shifts a row by its first element before summing (from 0 where
 * that element is not finite) and had clamped a NaN variance to 0 ([1, +inf] gave [-inf, NaN],
 * [+inf, 1] without the variance [NaN, NaN]; found by scripts/diff-normalize). Rows of 4 (the
 * scalar fold) and 64 (the vector fold), infinities first, inside and last; finite rows beside
 * them within layer normalisation's 1/1024.
 */
Test(normalize, mvn_rows_holding_infinities)
{
    enum { R = 6 };
    const UINT runs[2] = {4, 64};
    for (int s = 0; s < 2; ++s) {
        UINT run = runs[s];
        float x[R * 64], got[R * 64];
        for (UINT r = 0; r < R; ++r)
            for (UINT u = 0; u < run; ++u)
                x[r * run + u] = (float)((int)((r * 7 + u * 13) % 17) - 8) / 4.0f;
        x[1 * run + 0] = INFINITY;        /* first */
        x[2 * run + run / 2] = INFINITY;  /* inside */
        x[3 * run + 1] = -INFINITY;       /* both: the mean NaN */
        x[3 * run + run - 1] = INFINITY;  /* */
        x[4 * run + 0] = -INFINITY;       /* first, negative */
        x[5 * run + run - 1] = -INFINITY; /* last */
        for (BOOL variance = 0; variance <= 1; ++variance) {
            mvn_rows(R, run, variance, x, got);
            for (UINT r = 0; r < R; ++r) {
                double mean = 0, var = 0;
                for (UINT u = 0; u < run; ++u)
                    mean += x[r * run + u];
                mean /= run;
                for (UINT u = 0; u < run; ++u)
                    var += (x[r * run + u] - mean) * (x[r * run + u] - mean);
                var /= run;
                for (UINT u = 0; u < run; ++u) {
                    double want = x[r * run + u] - mean;
                    if (variance)
                        want /= sqrt(var + 1e-5);
                    float g = got[r * run + u];
                    bool ok = isnan(want)   ? isnan(g)
                              : isinf(want) ? g == (float)want
                                            : fabs(g - want) <= 1.0 / 1024;
                    cr_expect(
                        ok, "rows of %u, NormalizeVariance %d, row %u element %u: got %g, want %g",
                        run, (int)variance, r, u, (double)g, want);
                }
            }
        }
    }
}

static bool special_close(float got, double want)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == (float)want;
    return fabs(got - want) <= 1e-5 * fmax(1.0, fabs(want));
}

/*
 * Infinities in softmax rows: exp(x - max) / sum in IEEE arithmetic, as ONNX Runtime and
 * onnx.reference give it: a row holding +inf (inf - inf) or only -inf is NaN; -inf beside
 * finite values is 0 (LOG_SOFTMAX -inf). LOG_SUM_EXP keeps the limit ONNX Runtime gives
 * (log sum exp(x) in double: [+inf, 1] +inf, [-inf, -inf] -inf). The kernel had taken
 * exp(x - max) as 1 wherever x was the maximum, infinite too ([+inf, 1] softmaxed to [1, 0],
 * [-inf, -inf] to [0.5, 0.5]). Rows of 2 (scalar lanes) and of 64 (vectors).
 */
Test(normalize, softmax_rows_holding_infinities)
{
    enum { R = 6 };
    const UINT runs[2] = {2, 64};
    for (int s = 0; s < 2; ++s) {
        UINT run = runs[s];
        float x[R * 64], got[R * 64], lse[R];
        for (UINT r = 0; r < R; ++r)
            for (UINT u = 0; u < run; ++u)
                x[r * run + u] = (float)((int)((r * 5 + u * 11) % 13) - 6) / 4.0f;
        x[0 * run + 0] = INFINITY;
        x[1 * run + 0] = x[1 * run + run - 1] = INFINITY;
        for (UINT u = 0; u < run; ++u)
            x[2 * run + u] = -INFINITY; /* only -inf */
        x[3 * run + run - 1] = -INFINITY;
        x[4 * run + run / 2] = INFINITY;
        x[4 * run + 0] = -INFINITY; /* both */
        UINT sizes[2] = {R, run}, osz[2] = {R, 1}, axes[1] = {1};
        DML_BUFFER_TENSOR_DESC b = {F32, DML_TENSOR_FLAG_NONE, 2, sizes, NULL, 4u * R * run, 0};
        DML_BUFFER_TENSOR_DESC ob = {F32, DML_TENSOR_FLAG_NONE, 2, osz, NULL, 4u * R, 0};
        DML_TENSOR_DESC td = {DML_TENSOR_TYPE_BUFFER, &b}, otd = {DML_TENSOR_TYPE_BUFFER, &ob};
        for (int log_form = 0; log_form <= 1; ++log_form) {
            DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sm = {&td, &td, 1, axes};
            DML_OPERATOR_DESC desc = {log_form ? DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1
                                               : DML_OPERATOR_ACTIVATION_SOFTMAX1,
                                      &sm};
            dmlcl_host_tensor hi = {x, 4u * R * run};
            ops_execute_on_host(log_form ? "LOG_SOFTMAX1" : "SOFTMAX1", &desc, 1, &hi,
                                (dmlcl_host_tensor){got, 4u * R * run});
            for (UINT r = 0; r < R; ++r) {
                double m = -INFINITY, sum = 0;
                for (UINT u = 0; u < run; ++u)
                    m = fmax(m, x[r * run + u]);
                for (UINT u = 0; u < run; ++u)
                    sum += exp(x[r * run + u] - m);
                for (UINT u = 0; u < run; ++u) {
                    double d = x[r * run + u] - m;
                    double want = log_form ? d - log(sum) : exp(d) / sum;
                    cr_expect(special_close(got[r * run + u], want),
                              "%s rows of %u, row %u element %u: got %g, want %g",
                              log_form ? "LOG_SOFTMAX1" : "SOFTMAX1", run, r, u,
                              (double)got[r * run + u], want);
                }
            }
        }
        DML_REDUCE_OPERATOR_DESC red = {DML_REDUCE_FUNCTION_LOG_SUM_EXP, &td, &otd, 1, axes};
        DML_OPERATOR_DESC rdesc = {DML_OPERATOR_REDUCE, &red};
        dmlcl_host_tensor hi = {x, 4u * R * run};
        ops_execute_on_host("LOG_SUM_EXP", &rdesc, 1, &hi, (dmlcl_host_tensor){lse, 4u * R});
        for (UINT r = 0; r < R; ++r) {
            double sum = 0;
            bool pos = false;
            for (UINT u = 0; u < run; ++u) {
                sum += exp((double)x[r * run + u]);
                pos |= x[r * run + u] == INFINITY;
            }
            double want = pos ? INFINITY : log(sum); /* ONNX Runtime: +inf beside -inf too */
            cr_expect(special_close(lse[r], want),
                      "LOG_SUM_EXP rows of %u, row %u: got %g, want %g", run, r, (double)lse[r],
                      want);
        }
    }
}
