/* SPDX-License-Identifier: MIT */
/*
 * conv.c: DirectML's CONVOLUTION on the device against the C reference (tests/ref/ref_conv.c),
 * FLOAT32 and FLOAT16.
 *
 * Random cases: 1, 2 or 3 spatial dimensions, FORWARD and BACKWARD, CONVOLUTION and
 * CROSS_CORRELATION, GroupCount 1, 2 or the channels (depthwise), strides 1 to 3, dilations 1
 * or 2, start and end padding, OutputPadding (BACKWARD), BACKWARD outputs larger than the rule's
 * (as ONNX Runtime passes output_padding), a bias in half the cases and a fused activation in a
 * quarter, FLOAT16 in a quarter; every tensor packed, padded or permuted (an NHWC input described
 * by strides is a permuted layout), the input and filter sometimes broadcast. Data in [-2, 2]
 * (finite: a zero pad times an infinite weight is NaN, a rule the cases do not test). Outputs
 * compare within 2 x taps ULP (reference/precision.md) or the reference's absolute bound of a
 * float32 sum (cancellation), plus the activation's tolerance. Fixed cases: known values, the
 * register blocks' edges on larger shapes (every W block interior and at both edges, channel blocks
 * with a remainder, depthwise, BACKWARD with stride 2), each variant's compile. Failures print the
 * seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_conv.h"

#define CONV_DEFAULT_SEED 0x646D6C636C434F4Eull
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static const char *const names[3] = {"InputTensor", "FilterTensor", "BiasTensor"};

/* Fused activations whose slope is bounded (ref_conv's bound scales by it). */
static const struct {
    ref_act act;
    DML_OPERATOR_TYPE type;
} fusable[] = {{REF_ACT_RELU, DML_OPERATOR_ACTIVATION_RELU},
               {REF_ACT_LEAKY_RELU, DML_OPERATOR_ACTIVATION_LEAKY_RELU},
               {REF_ACT_SIGMOID, DML_OPERATOR_ACTIVATION_SIGMOID},
               {REF_ACT_LINEAR, DML_OPERATOR_ACTIVATION_LINEAR}};

typedef struct act_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_desc;

/* A case's shape before the tensors exist. */
typedef struct conv_shape {
    DML_TENSOR_DATA_TYPE type;
    ref_conv_params p;
    uint32_t in[5], filter[5];
    uint32_t extra[3]; /* BACKWARD: output positions past the rule's */
    bool bias;
    int fused; /* fusable[] index, or -1 */
    bool nhwc; /* input and output in NHWC order through their strides */
} conv_shape;

typedef struct conv_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    conv_shape s;
    ops_tensor t[3], out;
    ops_layout layout[4];
    act_desc act;
    DML_OPERATOR_DESC fused_desc;
    UINT strides[3], dilations[3], start[3], end[3], opad[3];
    DML_CONVOLUTION_OPERATOR_DESC d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    double *bound;
} conv_case;

static ops_seed run_seed = OPS_SEED(CONV_DEFAULT_SEED);

/* NHWC strides of {N, C, spatial...} sizes (channels innermost). */
static void nhwc_strides(uint32_t rank, const uint32_t *sizes, uint32_t *strides)
{
    uint32_t s = 1;
    strides[1] = s;
    s *= sizes[1];
    for (int d = (int)rank - 1; d >= 2; --d) {
        strides[d] = s;
        s *= sizes[d];
    }
    strides[0] = s;
}

static void conv_tensors(conv_case *c, ref_rng *rng)
{
    const conv_shape *s = &c->s;
    const uint32_t rank = s->p.spatial + 2;
    uint32_t out[5], bias[5] = {1, 1, 1, 1, 1}, st[5];
    cr_assert(ref_conv_output_sizes(&s->p, s->in, s->filter, out), "test bug: shape");
    for (uint32_t i = 0; i < s->p.spatial; ++i)
        out[2 + i] += s->extra[i];
    bias[1] = out[1];
    if (s->nhwc) {
        nhwc_strides(rank, s->in, st);
        ops_tensor_init(&c->t[0], names[0], false, s->type, rank, s->in, st, 0, 0);
        nhwc_strides(rank, out, st);
        ops_tensor_init(&c->out, "OutputTensor", true, s->type, rank, out, st, 0, 0);
        c->layout[0] = c->layout[3] = OPS_LAYOUT_PERMUTED;
    } else {
        ops_random_tensor(&c->t[0], rng, names[0], false, s->type, rank, s->in, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, s->type, rank, out, &c->layout[3]);
    }
    ops_random_tensor(&c->t[1], rng, names[1], false, s->type, rank, s->filter, &c->layout[1]);
    if (s->bias)
        ops_random_tensor(&c->t[2], rng, names[2], false, s->type, rank, bias, &c->layout[2]);
    for (uint32_t i = 0; i < 3; ++i) {
        c->strides[i] = s->p.strides[i];
        c->dilations[i] = s->p.dilations[i];
        c->start[i] = s->p.start[i];
        c->end[i] = s->p.end[i];
        c->opad[i] = s->p.output_padding[i];
    }
    c->act = (act_desc){NULL, NULL, {(FLOAT)s->p.act_param[0], (FLOAT)s->p.act_param[1]}};
    if (s->fused >= 0)
        c->fused_desc = (DML_OPERATOR_DESC){fusable[s->fused].type, &c->act};
    c->d = (DML_CONVOLUTION_OPERATOR_DESC){
        ops_tensor_desc(&c->t[0]),
        ops_tensor_desc(&c->t[1]),
        s->bias ? ops_tensor_desc(&c->t[2]) : NULL,
        ops_tensor_desc(&c->out),
        s->p.convolution ? DML_CONVOLUTION_MODE_CONVOLUTION
                         : DML_CONVOLUTION_MODE_CROSS_CORRELATION,
        s->p.backward ? DML_CONVOLUTION_DIRECTION_BACKWARD : DML_CONVOLUTION_DIRECTION_FORWARD,
        s->p.spatial,
        c->strides,
        c->dilations,
        c->start,
        c->end,
        c->opad,
        s->p.groups,
        s->fused >= 0 ? &c->fused_desc : NULL};
    c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_CONVOLUTION, &c->d};
}

static uint32_t pick(ref_rng *rng, uint32_t lo, uint32_t hi)
{
    return (uint32_t)ref_rng_range(rng, lo, hi);
}

/* A random shape: small enough for the oracle and for a few thousand outputs. */
static void conv_random_shape(conv_shape *s, ref_rng *rng, DML_TENSOR_DATA_TYPE type)
{
    memset(s, 0, sizeof *s);
    s->type = type;
    ref_conv_params *p = &s->p;
    p->spatial = 1 + (uint32_t)ref_rng_below(rng, 3);
    p->backward = ref_rng_chance(rng, 35);
    p->convolution = ref_rng_chance(rng, 30);
    int kind = (int)ref_rng_below(rng, 3); /* 0 dense, 1 grouped, 2 depthwise */
    uint32_t g = kind == 0 ? 1 : kind == 1 ? 2 : pick(rng, 2, 6);
    uint32_t cin = kind == 2 ? g : g * pick(rng, 1, 4);
    uint32_t cout_g = kind == 2 ? pick(rng, 1, 2) : pick(rng, 1, 9);
    p->groups = g;
    s->in[0] = pick(rng, 1, 2);
    s->in[1] = cin;
    s->filter[0] = p->backward ? cin : g * cout_g;
    s->filter[1] = p->backward ? cout_g : cin / g;
    const uint32_t max_side = p->spatial == 1 ? 40 : p->spatial == 2 ? 12 : 5;
    for (uint32_t i = 0; i < p->spatial; ++i) {
        p->strides[i] = pick(rng, 1, 3);
        p->dilations[i] = ref_rng_chance(rng, 25) ? 2 : 1;
        s->filter[2 + i] = pick(rng, 1, p->spatial == 3 ? 2 : 3);
        uint32_t window = (s->filter[2 + i] - 1) * p->dilations[i] + 1;
        s->in[2 + i] = pick(rng, p->backward ? 1 : window, max_side);
        p->start[i] = ref_rng_chance(rng, 50) ? pick(rng, 0, 2) : 0;
        p->end[i] = ref_rng_chance(rng, 50) ? pick(rng, 0, 2) : 0;
        if (p->backward) {
            uint32_t full = (s->in[2 + i] - 1) * p->strides[i] + window;
            while (p->start[i] + p->end[i] >= full)
                p->start[i] = p->end[i] = 0;
            p->output_padding[i] = ref_rng_chance(rng, 30) ? pick(rng, 0, p->strides[i] - 1) : 0;
            s->extra[i] = ref_rng_chance(rng, 15) ? pick(rng, 1, 2) : 0;
        }
    }
    s->bias = ref_rng_chance(rng, 50);
    s->fused = ref_rng_chance(rng, 25) ? (int)ref_rng_below(rng, COUNT_OF(fusable)) : -1;
    p->act = s->fused >= 0 ? fusable[s->fused].act : REF_ACT_NONE;
    p->act_param[0] = (double)(float)(0.25 + (double)ref_rng_below(rng, 8) / 7);
    p->act_param[1] = (double)(float)((double)ref_rng_below(rng, 8) / 7 - 0.5);
    s->nhwc = ref_rng_chance(rng, 15);
}

/* A random pointwise shape of 64 output channels a group or more (FORWARD, every window 1, no
 * padding): on CPUs the matrix family with B, the input, packed at every dispatch, and at
 * strides past 1 the output rows joined to n (src/launch_gemm.c fold_n). Strides 1 to 3 and
 * dilations along each dimension, groups 1 to 3, images 1 or 2, NHWC in some. */
static void conv_pointwise_shape(conv_shape *s, ref_rng *rng, DML_TENSOR_DATA_TYPE type)
{
    memset(s, 0, sizeof *s);
    s->type = type;
    ref_conv_params *p = &s->p;
    p->spatial = 1 + (uint32_t)ref_rng_below(rng, 3);
    p->convolution = ref_rng_chance(rng, 30);
    const uint32_t g = pick(rng, 1, 3), cin_g = pick(rng, 1, 6), cout_g = pick(rng, 64, 80);
    p->groups = g;
    s->in[0] = pick(rng, 1, 2);
    s->in[1] = g * cin_g;
    s->filter[0] = g * cout_g;
    s->filter[1] = cin_g;
    const uint32_t max_side = p->spatial == 1 ? 40 : p->spatial == 2 ? 13 : 6;
    for (uint32_t i = 0; i < p->spatial; ++i) {
        p->strides[i] = pick(rng, 1, 3);
        p->dilations[i] = ref_rng_chance(rng, 25) ? 2 : 1;
        s->filter[2 + i] = 1;
        s->in[2 + i] = pick(rng, 1, max_side);
    }
    s->bias = ref_rng_chance(rng, 50);
    s->fused = ref_rng_chance(rng, 25) ? (int)ref_rng_below(rng, COUNT_OF(fusable)) : -1;
    p->act = s->fused >= 0 ? fusable[s->fused].act : REF_ACT_NONE;
    p->act_param[0] = (double)(float)(0.25 + (double)ref_rng_below(rng, 8) / 7);
    p->act_param[1] = (double)(float)((double)ref_rng_below(rng, 8) / 7 - 0.5);
    s->nhwc = ref_rng_chance(rng, 15);
}

static void put(DML_TENSOR_DATA_TYPE type, unsigned char *p, double v)
{
    if (type == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

static void conv_place_fill(conv_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    for (int k = 0; k < 3; ++k)
        if (k < 2 || c->s.bias)
            ops_memory_place(&c->mem, rng, &c->t[k], k > 0);
    ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    ops_memory_alloc(&c->mem, rng);
    size_t w = ref_type_size(c->s.type);
    for (int k = 0; k < 3; ++k) {
        if (k == 2 && !c->s.bias)
            continue;
        uint64_t slots = c->t[k].buffer.TotalTensorSizeInBytes / w;
        unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->t[k]);
        for (uint64_t i = 0; i < slots; ++i)
            put(c->s.type, p + i * w, ((double)ref_rng_below(rng, 4001) - 2000) / 1000);
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor v[3], out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    for (int k = 0; k < 3; ++k)
        if (k < 2 || c->s.bias)
            v[k] = ops_view(&c->mem, OPS_INIT, &c->t[k]);
    free(c->bound);
    c->bound = malloc(ref_element_count(out.rank, out.sizes) * sizeof *c->bound);
    cr_assert(c->bound);
    bool ok = ref_conv(&c->s.p, &v[0], &v[1], c->s.bias ? &v[2] : NULL, &out, c->bound);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
}

static const char *conv_describe(const conv_case *c, char *buf, size_t len)
{
    char head[512], t[4][512], arrays[256] = "";
    for (int k = 0; k < 3; ++k)
        if (k < 2 || c->s.bias)
            ops_tensor_describe(&c->t[k], t[k], sizeof t[k]);
        else
            snprintf(t[k], sizeof t[k], "BiasTensor absent");
    ops_tensor_describe(&c->out, t[3], sizeof t[3]);
    const ref_conv_params *p = &c->s.p;
    size_t at = 0;
    for (uint32_t i = 0; i < p->spatial; ++i)
        at += (size_t)snprintf(arrays + at, sizeof arrays - at, " [s%u d%u pad %u,%u op %u]",
                               p->strides[i], p->dilations[i], p->start[i], p->end[i],
                               p->output_padding[i]);
    snprintf(buf, len, "%s\n  %s %s %s groups %u%s; fused %s {%.9g, %.9g}\n  %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, "CONVOLUTION", "conv", c->test, c->number, c->seed),
             ref_type_name(c->s.type), p->backward ? "BACKWARD" : "FORWARD",
             p->convolution ? "CONVOLUTION" : "CROSS_CORRELATION", p->groups, arrays,
             c->s.fused >= 0 ? ref_act_name(fusable[c->s.fused].act) : "-", p->act_param[0],
             p->act_param[1], t[0], t[1], t[2], t[3]);
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

/* Elements within the tolerance take the reference's bytes, so that the byte comparison sees
 * only real differences: 2 x taps ULP, or the float32 sum's absolute bound (+ the output's
 * half ULP for FLOAT16). */
static void accept_tolerance(conv_case *c)
{
    ref_tensor f = ops_view(&c->mem, OPS_INIT, &c->t[1]);
    unsigned ulps = ref_conv_ulps(&c->s.p, &f);
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    uint64_t k = 0;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        bool accept = ref_float_close(c->s.type, x, y, ulps);
        double dx = value_of(c->s.type, x), dy = value_of(c->s.type, y);
        double tol = c->bound[k] + (c->s.type == F16 ? fabs(dx) * 0x1p-10 : 0);
        if (!accept)
            accept = isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= tol;
        if (accept)
            ref_put(&g, coord, x);
        ++k;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void conv_run(conv_case *c)
{
    static char what[8192], diff[4096];
    ops_tensor *inputs[3] = {&c->t[0], &c->t[1], c->s.bias ? &c->t[2] : NULL};
    ops_tensor *outputs[1] = {&c->out};
    ops_tensor *all[4] = {&c->out, &c->t[0], &c->t[1], &c->t[2]};
    const char *stage = "";
    if (ops_verbose())
        fprintf(stderr, "%s\n", conv_describe(c, what, sizeof what));
    HRESULT hr =
        ops_run_device(&c->desc, &c->mem, inputs, 3, outputs, 1, OPS_SUBMIT_DEFAULT, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", conv_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, c->s.bias ? 4 : 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", conv_describe(c, what, sizeof what), bad,
              diff);
}

static void conv_one(conv_case *c, ref_rng *rng)
{
    conv_tensors(c, rng);
    conv_place_fill(c, rng);
    conv_run(c);
    ops_memory_release(&c->mem);
    free(c->bound);
    c->bound = NULL;
}

static void conv_cases_of(const char *test, unsigned count,
                          void (*shape)(conv_shape *, ref_rng *, DML_TENSOR_DATA_TYPE))
{
    static conv_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        shape(&c.s, &rng, n % 4 == 3 ? F16 : F32);
        conv_one(&c, &rng);
    }
}

static void conv_cases(const char *test, unsigned count)
{
    conv_cases_of(test, count, conv_random_shape);
}

OPS_DEVICE_SUITE(conv);

Test(conv, random)
{
    conv_cases("random", 32);
}

Test(conv, pointwise_random)
{
    conv_cases_of("pointwise_random", 16, conv_pointwise_shape);
}

/* ---- Fixed shapes: the register blocks' edges --------------------------------------------- */

typedef struct fixed_shape {
    const char *name;
    bool backward;
    uint32_t spatial, groups;
    uint32_t in[5], filter[5];
    uint32_t stride, dil, pad;
    bool bias, nhwc;
    bool convolution; /* CONVOLUTION mode (the filter walked backwards) */
} fixed_shape;

/* Case `number` of shape f: the stride, dilation and padding along every spatial dimension,
 * FLOAT16 or FLOAT32, with or without a bias, the first fusable activation or none. */
static void fixed_case(conv_case *c, const fixed_shape *f, unsigned number, bool half, bool bias,
                       bool act)
{
    memset(c, 0, sizeof *c);
    c->test = f->name;
    c->seed = ops_base_seed(&run_seed);
    c->number = number;
    c->s.type = half ? F16 : F32;
    c->s.p.backward = f->backward;
    c->s.p.convolution = f->convolution;
    c->s.p.spatial = f->spatial;
    c->s.p.groups = f->groups;
    for (uint32_t i = 0; i < f->spatial; ++i) {
        c->s.p.strides[i] = f->stride;
        c->s.p.dilations[i] = f->dil;
        c->s.p.start[i] = c->s.p.end[i] = f->pad;
    }
    memcpy(c->s.in, f->in, sizeof c->s.in);
    memcpy(c->s.filter, f->filter, sizeof c->s.filter);
    c->s.bias = bias;
    c->s.nhwc = f->nhwc;
    c->s.fused = act ? 0 : -1;
    c->s.p.act = act ? fusable[0].act : REF_ACT_NONE;
}

/* W of 37 and 40: blocks of 16 interior and at both edges; 10 output channels: a block of 8
 * and a remainder; depthwise; BACKWARD 4 x 4 stride 2; the stem's 7 x 7 stride 2; a 1 x 1. */
static const fixed_shape blocks[] = {
    {"3x3 pad 1", false, 2, 1, {1, 5, 6, 37}, {10, 5, 3, 3}, 1, 1, 1, true, false, false},
    {"3x3 pad 1 NHWC", false, 2, 1, {1, 6, 5, 40}, {9, 6, 3, 3}, 1, 1, 1, false, true, false},
    {"1x1", false, 2, 1, {2, 12, 3, 33}, {8, 12, 1, 1}, 1, 1, 0, true, false, false},
    {"depthwise 3x3", false, 2, 8, {1, 8, 9, 35}, {8, 1, 3, 3}, 1, 1, 1, true, false, false},
    {"7x7 stride 2", false, 2, 1, {1, 3, 15, 45}, {4, 3, 7, 7}, 2, 1, 3, false, false, false},
    {"dilated 3x3", false, 2, 2, {1, 4, 8, 40}, {6, 2, 3, 3}, 1, 2, 2, true, false, false},
    {"transposed 4x4 stride 2",
     true,
     2,
     1,
     {1, 5, 5, 20},
     {5, 3, 4, 4},
     2,
     1,
     1,
     true,
     false,
     false},
    {"transposed 3x3 stride 1",
     true,
     2,
     1,
     {1, 4, 4, 36},
     {4, 9, 3, 3},
     1,
     1,
     1,
     false,
     false,
     false},
    {"1-D stride 1", false, 1, 1, {1, 3, 70}, {5, 3, 5}, 1, 1, 2, true, false, false},
    {"3-D", false, 3, 1, {1, 2, 4, 5, 34}, {3, 2, 3, 3, 3}, 1, 1, 1, true, false, false},
    /* Pointwise: the matrix family (ops/conv.c), groups and images as batch dimensions, NHWC
     * a transposed B, spatial dimensions merged; dilations change nothing with one tap. */
    {"1x1 NHWC groups 2", false, 2, 2, {2, 12, 5, 17}, {8, 6, 1, 1}, 1, 1, 0, true, true, false},
    {"1x1 groups 3 dilated", false, 2, 3, {1, 9, 4, 6}, {6, 3, 1, 1}, 1, 3, 0, false, false, false},
    {"1x1x1 3-D", false, 3, 1, {2, 6, 3, 4, 9}, {5, 6, 1, 1, 1}, 1, 1, 0, true, false, false},
    {"1-D 1 tap", false, 1, 1, {3, 7, 50}, {9, 7, 1}, 1, 1, 0, true, false, false},
    {"1x1 1x1 images", false, 2, 1, {4, 5, 1, 1}, {3, 5, 1, 1}, 1, 1, 0, true, false, false},
    {"1x1 stride 2", false, 2, 1, {2, 8, 9, 14}, {6, 8, 1, 1}, 2, 1, 0, true, false, false},
    {"1x1 stride 3 NHWC", false, 2, 1, {1, 5, 7, 20}, {4, 5, 1, 1}, 3, 1, 0, false, true, false},
    /* 64 output channels and more: B (the input, strided) packed at every dispatch, the output
     * rows joined into one product's columns (launch_gemm.c fold_n), blocks of 64 columns across
     * rows (11, 5 and 7 columns a row), the last block partial; images, groups and an outer
     * spatial dimension still batch dimensions; NHWC: B's k contiguous. */
    {"1x1 stride 2 rows joined",
     false,
     2,
     1,
     {2, 16, 23, 21},
     {64, 16, 1, 1},
     2,
     1,
     0,
     true,
     false,
     false},
    {"1x1 stride 2 groups rows joined",
     false,
     2,
     2,
     {1, 12, 9, 30},
     {128, 6, 1, 1},
     2,
     1,
     0,
     true,
     false,
     false},
    {"1x1x1 stride 2 rows joined",
     false,
     3,
     1,
     {1, 8, 5, 6, 9},
     {72, 8, 1, 1, 1},
     2,
     1,
     0,
     false,
     false,
     false},
    {"1x1 stride 3 NHWC rows joined",
     false,
     2,
     1,
     {1, 5, 7, 20},
     {64, 5, 1, 1},
     3,
     1,
     0,
     true,
     true,
     false},
    /* Taps whose lanes all fall off the row (cl/conv.cl EDGE_LOAD: a shift of a whole window
     * or more): a BACKWARD dilation of 3 over rows of 5 (the GPU class's 4 lanes read before
     * their private buffer: garbage outputs by chance, Oclgrind's invalid reads), and a
     * padding of 6 past rows of 9 (every vector width's shift past its window). */
    {"transposed dilated 3 rows of 5",
     true,
     1,
     3,
     {1, 9, 5},
     {9, 3, 3},
     1,
     3,
     0,
     true,
     false,
     false},
    {"transposed dilated 3 2-D",
     true,
     2,
     1,
     {1, 2, 3, 6},
     {2, 3, 3, 3},
     1,
     3,
     1,
     false,
     false,
     false},
    {"1-D padding 6", false, 1, 1, {1, 2, 9}, {3, 2, 3}, 1, 1, 6, true, false, false},
    {"padding 9 over rows of 17",
     false,
     2,
     1,
     {1, 2, 3, 17},
     {3, 2, 2, 3},
     1,
     2,
     9,
     true,
     false,
     false},
};

Test(conv, blocks)
{
    static conv_case c;
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(blocks)); ++n)
        for (int t = 0; t < 2; ++t) {
            const fixed_shape *f = &blocks[n];
            ref_rng rng = ops_case_rng(&run_seed, f->name, (unsigned)t);
            fixed_case(&c, f, (unsigned)t, t, f->bias, t);
            conv_one(&c, &rng);
        }
}

/* ---- conv_tiled ---------------------------------------------------------------------------- */

/* GPUs' conv_tiled (cl/conv.cl), forced (conv_gemm=2: no implicit GEMM): input channels in
 * three chunks of its local arrays, stride 2 and dilation 2, groups over NHWC strides, 1-D, 3-D.
 * Small, so that Oclgrind runs them with its checks. */
static const fixed_shape tiled_shapes[] = {
    {"tiled chunks", false, 2, 1, {1, 40, 3, 10}, {5, 40, 3, 3}, 1, 1, 1, true, false, false},
    {"tiled stride 2 dil 2",
     false,
     2,
     1,
     {1, 5, 9, 23},
     {7, 5, 3, 3},
     2,
     2,
     2,
     false,
     false,
     false},
    {"tiled groups NHWC", false, 2, 2, {2, 8, 5, 9}, {6, 4, 3, 3}, 1, 1, 1, true, true, false},
    {"tiled 1-D mode", false, 1, 1, {1, 4, 40}, {3, 4, 5}, 1, 1, 2, false, false, true},
    {"tiled 3-D", false, 3, 1, {1, 3, 3, 4, 5}, {4, 3, 2, 2, 2}, 1, 1, 1, true, false, false},
};

Test(conv, tiled)
{
    static conv_case c;
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(tiled_shapes)); ++n)
        for (unsigned h = 0; h < 2; ++h) {
            const fixed_shape *f = &tiled_shapes[n];
            ref_rng rng = ops_case_rng(&run_seed, f->name, h);
            /* FLOAT16 with the shape's bias and an activation; FLOAT32 plain. */
            fixed_case(&c, f, h, h, h && f->bias, h);
            char *saved = ops_tuning_set("conv_gemm=2");
            conv_one(&c, &rng);
            ops_tuning_restore(saved);
        }
}

/* ---- Depthwise tiles ----------------------------------------------------------------------- */

/* GPUs' conv_dwt (cl/conv.cl): tiles of 32 x 16 outputs, partial along both axes and over two
 * images; a channel multiplier of 3 with 5 x 5 taps at stride 2, CONVOLUTION mode; dilated over
 * NHWC strides; CONVOLUTION mode at stride 3, whose 7 x 7 patch does not fit (conv_direct); 1-D
 * with 4 taps, CONVOLUTION mode; 3-D (conv_direct). Each with the depthwise tiles and without them
 * (conv_direct). */
static const fixed_shape dw_shapes[] = {
    {"dw 3x3 partial tiles",
     false,
     2,
     3,
     {2, 3, 19, 37},
     {3, 1, 3, 3},
     1,
     1,
     1,
     true,
     false,
     false},
    {"dw x3 5x5 stride 2 mode",
     false,
     2,
     4,
     {1, 4, 40, 41},
     {12, 1, 5, 5},
     2,
     1,
     2,
     true,
     false,
     true},
    {"dw dilated NHWC", false, 2, 8, {1, 8, 20, 35}, {8, 1, 3, 3}, 1, 2, 2, false, true, false},
    {"dw 7x7 stride 3 mode", false, 2, 3, {1, 3, 30, 50}, {3, 1, 7, 7}, 3, 1, 3, true, false, true},
    {"dw 1-D 4 taps mode", false, 1, 5, {2, 5, 77}, {5, 1, 4}, 1, 1, 0, false, false, true},
    {"dw 3-D", false, 3, 4, {1, 4, 3, 6, 7}, {4, 1, 2, 3, 3}, 1, 1, 1, true, false, false},
};

static const char *const dw_tunings[] = {NULL, "conv_dw_tiled=2"};

Test(conv, depthwise_tiles)
{
    static conv_case c;
    /* Elsewhere than on a GPU conv_dw_tiled changes nothing: the default only. */
    const bool gpu = dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_GPU;
    const unsigned configs = gpu ? COUNT_OF(dw_tunings) : 1;
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(dw_shapes)); ++n)
        for (unsigned t = 0; t < configs; ++t)
            for (unsigned h = 0; h < 2; ++h) {
                const fixed_shape *f = &dw_shapes[n];
                ref_rng rng = ops_case_rng(&run_seed, f->name, 2 * t + h);
                /* FLOAT16 with the shape's bias and an activation; FLOAT32 plain. */
                fixed_case(&c, f, 2 * t + h, h, h && f->bias, h);
                char *saved = dw_tunings[t] ? ops_tuning_set(dw_tunings[t]) : NULL;
                conv_one(&c, &rng);
                if (dw_tunings[t])
                    ops_tuning_restore(saved);
            }
}

/* ---- The implicit GEMM's tiles ------------------------------------------------------------ */

/* Shapes of several tiles along the output channels, the positions and k, each with a
 * partial tile (GPUs: conv_gemm, cl/conv.cl; CPUs: their own kernels): 3 x 3 layers of 70
 * channels (small: the first, which the slow drivers run) and of 136, the stem's 7 x 7 / 2 over two
 * images, 3-D, grouped and dilated, NHWC, 1-D over three images, CONVOLUTION mode, 17 x 17 taps
 * (more than conv_gemm's table: another kernel); BACKWARD (a product a phase of the strides): 4 x 4
 * / 2, stride 3 with 2 x 2 taps (phases no tap reaches: their outputs are the bias), 3-D grouped.
 */
static const fixed_shape tile_shapes[] = {
    {"tiles 3x3 70", false, 2, 1, {1, 8, 9, 15}, {70, 8, 3, 3}, 1, 1, 1, false, false, false},
    {"tiles 3x3 136", false, 2, 1, {1, 40, 14, 14}, {136, 40, 3, 3}, 1, 1, 1, false, false, false},
    {"tiles stem", false, 2, 1, {2, 3, 30, 31}, {17, 3, 7, 7}, 2, 1, 3, false, false, false},
    {"tiles 3-D", false, 3, 1, {1, 6, 5, 6, 7}, {20, 6, 2, 3, 3}, 1, 1, 1, false, false, false},
    {"tiles g4 dil", false, 2, 4, {1, 16, 11, 12}, {36, 4, 3, 3}, 1, 2, 2, false, false, false},
    {"tiles NHWC", false, 2, 1, {2, 24, 9, 13}, {70, 24, 3, 3}, 1, 1, 1, false, true, false},
    {"tiles 1-D", false, 1, 1, {3, 10, 100}, {33, 10, 5}, 1, 1, 2, false, false, false},
    {"tiles mode", false, 2, 1, {1, 9, 12, 20}, {40, 9, 3, 3}, 2, 1, 1, false, false, true},
    {"tiles 17x17", false, 2, 1, {1, 2, 20, 20}, {3, 2, 17, 17}, 1, 1, 8, false, false, false},
    {"tiles bwd 4x4", true, 2, 1, {1, 40, 10, 12}, {40, 70, 4, 4}, 2, 1, 1, false, false, false},
    {"tiles bwd /3", true, 2, 1, {2, 5, 6, 7}, {5, 9, 2, 2}, 3, 1, 0, false, false, true},
    {"tiles bwd 3-D", true, 3, 2, {1, 8, 3, 4, 5}, {8, 5, 3, 3, 3}, 2, 1, 1, false, false, false},
};

/* The tile's configurations (src/tuning.c gemm_tile_*): the launch's own, 8 x 8 blocks in 16 x
 * 16 items (gemm_tile_fill=1: no shrinking on a device of under 100 units), 4 x 8 with k by 16,
 * 8 x 8 items with k by 4; each with the layers of many channels at stride 1, which go to
 * conv_tiled by default (conv_tiled_from_cin), through the tile too. */
static const char *const tile_tunings[] = {
    "conv_gemm=1,conv_tiled_from_cin=1000000",
    "gemm_tile_block.0=8,gemm_tile_block.1=8,gemm_tile_fill=1,conv_tiled_from_cin=1000000",
    "gemm_tile_block.0=4,gemm_tile_block.1=8,gemm_tile_k=16,gemm_tile_fill=1,"
    "conv_tiled_from_cin=1000000",
    "gemm_tile_items.0=8,gemm_tile_items.1=8,gemm_tile_k=4,gemm_tile_fill=1,"
    "conv_tiled_from_cin=1000000",
};

Test(conv, gemm_tiles)
{
    static conv_case c;
    /* Elsewhere than on a GPU the tunings change nothing: each shape once, in float32 (the
     * four configurations, FLOAT16 among them, took 54 s cold on PoCL, the float32 ones 27). */
    const bool gpu = dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_GPU;
    const unsigned configs = gpu ? COUNT_OF(tile_tunings) : 1;
    for (unsigned n = 0; n < ops_case_count(COUNT_OF(tile_shapes)); ++n)
        for (unsigned t = 0; t < configs; ++t) {
            const fixed_shape *f = &tile_shapes[n];
            ref_rng rng = ops_case_rng(&run_seed, f->name, t);
            /* FLOAT16 with a bias and an activation in one configuration of each. */
            const bool half = t == 2;
            fixed_case(&c, f, t, half, half || t == 1, half);
            char *saved = ops_tuning_set(tile_tunings[t]);
            conv_one(&c, &rng);
            ops_tuning_restore(saved);
        }
}

/* ---- Known values ----------------------------------------------------------------------- */

static HRESULT run_1d(const DML_CONVOLUTION_OPERATOR_DESC *d, const float *x, size_t nx,
                      const float *w, size_t nw, float *out, size_t nout)
{
    DML_OPERATOR_DESC desc = {DML_OPERATOR_CONVOLUTION, d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_host_tensor ins[3] = {{(void *)x, nx * 4}, {(void *)w, nw * 4}, {NULL, 0}},
                      o = {out, nout * 4};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, 3, ins, 1, &o);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

Test(conv, known_values)
{
    /* x = {1, 2, 3, 4}, w = {1, 10}: CROSS_CORRELATION gives x[i] + 10 x[i + 1] = {21, 32, 43};
     * CONVOLUTION flips w: 10 x[i] + x[i + 1] = {12, 23, 34}; BACKWARD (stride 1) scatters
     * x[i] w[k] to i + k: {1, 12, 23, 34, 40}. */
    const float x[4] = {1, 2, 3, 4}, w[2] = {1, 10};
    UINT xs[3] = {1, 1, 4}, ws[3] = {1, 1, 2}, os[3] = {1, 1, 3}, bs[3] = {1, 1, 5};
    DML_BUFFER_TENSOR_DESC bx = {F32, 0, 3, xs, NULL, 16, 0}, bw = {F32, 0, 3, ws, NULL, 8, 0};
    DML_BUFFER_TENSOR_DESC bo = {F32, 0, 3, os, NULL, 12, 0}, bb = {F32, 0, 3, bs, NULL, 20, 0};
    DML_TENSOR_DESC tx = {DML_TENSOR_TYPE_BUFFER, &bx}, tw = {DML_TENSOR_TYPE_BUFFER, &bw};
    DML_TENSOR_DESC to = {DML_TENSOR_TYPE_BUFFER, &bo}, tb = {DML_TENSOR_TYPE_BUFFER, &bb};
    UINT one[1] = {1}, zero[1] = {0};
    DML_CONVOLUTION_OPERATOR_DESC d = {&tx,
                                       &tw,
                                       NULL,
                                       &to,
                                       DML_CONVOLUTION_MODE_CROSS_CORRELATION,
                                       DML_CONVOLUTION_DIRECTION_FORWARD,
                                       1,
                                       one,
                                       one,
                                       zero,
                                       zero,
                                       zero,
                                       1,
                                       NULL};
    float out[5];
    HRESULT hr = run_1d(&d, x, 4, w, 2, out, 3);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_expect(out[0] == 21 && out[1] == 32 && out[2] == 43, "{%g, %g, %g}", out[0], out[1], out[2]);
    d.Mode = DML_CONVOLUTION_MODE_CONVOLUTION;
    hr = run_1d(&d, x, 4, w, 2, out, 3);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_expect(out[0] == 12 && out[1] == 23 && out[2] == 34, "{%g, %g, %g}", out[0], out[1], out[2]);
    d.Mode = DML_CONVOLUTION_MODE_CROSS_CORRELATION;
    d.Direction = DML_CONVOLUTION_DIRECTION_BACKWARD;
    d.OutputTensor = &tb;
    hr = run_1d(&d, x, 4, w, 2, out, 5);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_expect(out[0] == 1 && out[1] == 12 && out[2] == 23 && out[3] == 34 && out[4] == 40,
              "{%g, %g, %g, %g, %g}", out[0], out[1], out[2], out[3], out[4]);
    /* BACKWARD, stride 2, w = {1, 10, 100}: x[i] w[k] to 2 i + k, windows overlapping by one:
     * {1, 10, 100 + 2, 20, 200 + 3, 30, 300 + 4, 40, 400}; each phase of the output (even,
     * odd) takes its own taps. */
    const float w3[3] = {1, 10, 100}, want[9] = {1, 10, 102, 20, 203, 30, 304, 40, 400};
    UINT ws3[3] = {1, 1, 3}, os9[3] = {1, 1, 9}, two[1] = {2};
    DML_BUFFER_TENSOR_DESC bw3 = {F32, 0, 3, ws3, NULL, 12, 0}, bo9 = {F32, 0, 3, os9, NULL, 36, 0};
    DML_TENSOR_DESC tw3 = {DML_TENSOR_TYPE_BUFFER, &bw3}, to9 = {DML_TENSOR_TYPE_BUFFER, &bo9};
    d.FilterTensor = &tw3;
    d.OutputTensor = &to9;
    d.Strides = two;
    float out9[9];
    hr = run_1d(&d, x, 4, w3, 3, out9, 9);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    for (int i = 0; i < 9; ++i)
        cr_expect(out9[i] == want[i], "output %d: %g, expected %g", i, out9[i], want[i]);
}
