/* SPDX-License-Identifier: MIT */
/*
 * batch_norm.c: DirectML's BATCH_NORMALIZATION (inference) on the device against the C
 * reference (tests/ref/ref_batch_norm.c), FLOAT32 and FLOAT16.
 *
 * Random cases: ranks 1..8, the input packed, padded, transposed, broadcast or aliasing,
 * Mean, Variance, Scale and Bias each of size 1 or the input's per dimension (the per-channel
 * case among them), the output packed, padded, transposed or in place; input data half in
 * [-20, 20], half raw bit patterns (NaN, infinities, -0.0, subnormals); statistics in the
 * ranges models use (variance >= 0, sometimes 0 with Epsilon > 0); Epsilon 0, 1e-5 or 1e-3; a
 * fused activation in a third of the cases, from those that do not amplify the input's last
 * ULP (the others are the activations' own tests). Outputs compare within 6 ULP
 * (reference/precision.md) plus the activation's tolerance. Fixed cases: a known value, and a
 * sum with Bias that cancels (the kernel's compensated form), a graph of it and an activation.
 * Failures print the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "graph_support.h"
#include "harness.h"
#include "ref_batch_norm.h"
#include "ref_broadcast.h"

#define BN_DEFAULT_SEED 0x646D6C636C424E31ull
#define BN_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static const char *const names[5] = {"InputTensor", "MeanTensor", "VarianceTensor", "ScaleTensor",
                                     "BiasTensor"};

/* Fused activations whose result keeps the input's relative error (condition number <= 1,
 * or an absolute tolerance). */
static const struct {
    ref_act act;
    DML_OPERATOR_TYPE type;
} fusable[] = {{REF_ACT_IDENTITY, DML_OPERATOR_ACTIVATION_IDENTITY},
               {REF_ACT_RELU, DML_OPERATOR_ACTIVATION_RELU},
               {REF_ACT_LEAKY_RELU, DML_OPERATOR_ACTIVATION_LEAKY_RELU},
               {REF_ACT_THRESHOLDED_RELU, DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU},
               {REF_ACT_ELU, DML_OPERATOR_ACTIVATION_ELU},
               {REF_ACT_CELU, DML_OPERATOR_ACTIVATION_CELU},
               {REF_ACT_SCALED_ELU, DML_OPERATOR_ACTIVATION_SCALED_ELU},
               {REF_ACT_SOFTSIGN, DML_OPERATOR_ACTIVATION_SOFTSIGN},
               {REF_ACT_TANH, DML_OPERATOR_ACTIVATION_TANH},
               {REF_ACT_SCALED_TANH, DML_OPERATOR_ACTIVATION_SCALED_TANH}};

/* The fused activations' descriptors: two NULL tensors, then up to two FLOATs. */
typedef struct act_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_desc;

typedef struct bn_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    bool in_place;
    ops_submit submit;
    ops_tensor t[5], out;
    ops_layout layout[6];
    float eps;
    int fused; /* fusable[] index, or -1 */
    double p[2];
    act_desc act;
    DML_OPERATOR_DESC fused_desc;
    DML_BATCH_NORMALIZATION_OPERATOR_DESC d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} bn_case;

static ops_seed run_seed = OPS_SEED(BN_DEFAULT_SEED);

static void bn_generate(bn_case *c, ref_rng *rng, DML_TENSOR_DATA_TYPE type)
{
    uint32_t sizes[REF_MAX_DIMS], ssz[REF_MAX_DIMS];
    c->type = type;
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, BN_MAX_ELEMENTS);
    c->in_place = ref_rng_chance(rng, 15);
    if (c->in_place) {
        uint32_t strides[REF_MAX_DIMS];
        c->layout[0] = c->layout[5] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->t[0], names[0], false, type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->out, "OutputTensor", true, type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->t[0], rng, names[0], false, type, c->rank, sizes, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, sizes, &c->layout[5]);
    }
    /* One channel dimension shared by the statistics (ONNX's per-channel form), or each
     * statistic its own broadcast pattern. */
    bool channel = ref_rng_chance(rng, 50);
    uint32_t ch = c->rank > 1 ? 1 : 0;
    for (int k = 1; k < 5; ++k) {
        for (uint32_t i = 0; i < c->rank; ++i)
            ssz[i] = channel ? (i == ch ? sizes[i] : 1) : ref_rng_chance(rng, 50) ? sizes[i] : 1;
        ops_random_tensor(&c->t[k], rng, names[k], false, type, c->rank, ssz, &c->layout[k]);
    }
    static const float eps[] = {0.0f, 1e-5f, 1e-3f};
    c->eps = eps[ref_rng_below(rng, 3)];
    c->fused = ref_rng_chance(rng, 33) ? (int)ref_rng_below(rng, COUNT_OF(fusable)) : -1;
    c->p[0] = (double)(float)(0.25 + (double)ref_rng_below(rng, 16) / 7);
    c->p[1] = (double)(float)(0.25 + (double)ref_rng_below(rng, 16) / 7);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    c->act = (act_desc){NULL, NULL, {(FLOAT)c->p[0], (FLOAT)c->p[1]}};
    if (c->fused >= 0)
        c->fused_desc = (DML_OPERATOR_DESC){fusable[c->fused].type, &c->act};
    c->d = (DML_BATCH_NORMALIZATION_OPERATOR_DESC){ops_tensor_desc(&c->t[0]),
                                                   ops_tensor_desc(&c->t[1]),
                                                   ops_tensor_desc(&c->t[2]),
                                                   ops_tensor_desc(&c->t[3]),
                                                   ops_tensor_desc(&c->t[4]),
                                                   ops_tensor_desc(&c->out),
                                                   ref_rng_chance(rng, 50),
                                                   c->eps,
                                                   c->fused >= 0 ? &c->fused_desc : NULL};
    c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION, &c->d};
}

static void bn_place(bn_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    for (int k = 0; k < 5; ++k)
        ops_memory_place(&c->mem, rng, &c->t[k], k > 1); /* at most 4 buffers */
    if (c->in_place) {
        c->out.slot = c->t[0].slot;
        c->out.offset = c->t[0].offset;
        c->out.bind_size = c->t[0].bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
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

/* Input k: 0 half raw, half [-20, 20]; 1 mean [-5, 5]; 2 variance [0.01, 10] or 0 when
 * Epsilon > 0; 3 scale [-3, 3]; 4 bias [-10, 10]. */
static void bn_fill_one(bn_case *c, ref_rng *rng, int k)
{
    static const double lo[5] = {-20, -5, 0.01, -3, -10}, hi[5] = {20, 5, 10, 3, 10};
    ops_tensor *t = &c->t[k];
    size_t w = ref_type_size(c->type);
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, t);
    if (k == 0)
        ops_fill_distinct(rng, c->type, p, slots);
    for (uint64_t s = 0; s < slots; ++s) {
        if (k == 0 && ref_rng_chance(rng, 50))
            continue;
        double u = (double)ref_rng_below(rng, 1000001) / 1000000.0;
        double v = lo[k] + (hi[k] - lo[k]) * u;
        if (k == 2 && c->eps > 0 && ref_rng_chance(rng, 5))
            v = 0;
        put(c->type, p + s * w, v);
    }
}

static void bn_fill(bn_case *c, ref_rng *rng)
{
    for (int k = 0; k < 5; ++k)
        bn_fill_one(c, rng, k);
    ops_memory_snapshot(&c->mem);
    ref_tensor v[5];
    for (int k = 0; k < 5; ++k)
        v[k] = ops_view(&c->mem, OPS_INIT, &c->t[k]);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok = ref_batch_norm(&v[0], &v[1], &v[2], &v[3], &v[4], c->eps,
                             c->fused >= 0 ? fusable[c->fused].act : REF_ACT_NONE, c->p, &out);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static const char *bn_describe(const bn_case *c, char *buf, size_t len)
{
    char head[512], t[6][512];
    for (int k = 0; k < 5; ++k)
        ops_tensor_describe(&c->t[k], t[k], sizeof t[k]);
    ops_tensor_describe(&c->out, t[5], sizeof t[5]);
    snprintf(buf, len,
             "%s\n  %s; eps %g; fused %s {%.9g, %.9g}; %s; submit %s\n  %s\n  %s\n  %s\n  %s\n"
             "  %s\n  %s",
             ops_replay(head, sizeof head, "BATCH_NORMALIZATION", "batch_norm", c->test, c->number,
                        c->seed),
             ref_type_name(c->type), (double)c->eps,
             c->fused >= 0 ? ref_act_name(fusable[c->fused].act) : "-", c->p[0], c->p[1],
             c->in_place ? "in place" : "apart", ops_submit_name(c->submit), t[0], t[1], t[2], t[3],
             t[4], t[5]);
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
 * only real differences. */
static void accept_tolerance(bn_case *c)
{
    ref_act act = c->fused >= 0 ? fusable[c->fused].act : REF_ACT_NONE;
    unsigned ulps = ref_batch_norm_ulps() + (act != REF_ACT_NONE ? ref_activation_ulps(act) : 0);
    double abs_tol = act != REF_ACT_NONE ? ref_activation_abs(act, c->p) : 0;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    if (ref_element_count(e.rank, e.sizes) == 0)
        return;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        bool accept = ref_float_close(c->type, x, y, ulps);
        double dx = value_of(c->type, x), dy = value_of(c->type, y);
        if (!accept && abs_tol > 0)
            accept = isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= abs_tol;
        if (accept)
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void bn_run(bn_case *c)
{
    static char what[8192], diff[4096];
    ops_tensor *inputs[5] = {&c->t[0], &c->t[1], &c->t[2], &c->t[3], &c->t[4]};
    ops_tensor *outputs[1] = {&c->out};
    ops_tensor *all[6] = {&c->out};
    int n_all = 1;
    for (int k = c->in_place ? 1 : 0; k < 5; ++k)
        all[n_all++] = &c->t[k];
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 5, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", bn_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", bn_describe(c, what, sizeof what), bad,
              diff);
}

static void bn_cases(const char *test, unsigned count)
{
    static bn_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        bn_generate(&c, &rng, n % 2 ? F16 : F32);
        bn_place(&c, &rng);
        bn_fill(&c, &rng);
        bn_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(batch_norm);

Test(batch_norm, random)
{
    bn_cases("random", 60);
}

/* ---- Fixed cases ------------------------------------------------------------------- */

/* Packed FLOAT32 tensors: x {1, 2, 2, 2} (N C H W), statistics {1, 2, 1, 1}. */
static HRESULT run_nchw(const float *x, const float *stats /* mean[2] var[2] scale[2] bias[2] */,
                        float eps, const DML_OPERATOR_DESC *fused, float *out)
{
    UINT xs[4] = {1, 2, 2, 2}, ss[4] = {1, 2, 1, 1};
    DML_BUFFER_TENSOR_DESC bx = {F32, 0, 4, xs, NULL, 32, 0}, bs = {F32, 0, 4, ss, NULL, 8, 0};
    DML_TENSOR_DESC tx = {DML_TENSOR_TYPE_BUFFER, &bx}, ts = {DML_TENSOR_TYPE_BUFFER, &bs};
    DML_BATCH_NORMALIZATION_OPERATOR_DESC d = {&tx, &ts, &ts, &ts, &ts, &tx, 1, eps, fused};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_BATCH_NORMALIZATION, &d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_host_tensor ins[5] = {{(void *)x, 32},
                                {(void *)stats, 8},
                                {(void *)(stats + 2), 8},
                                {(void *)(stats + 4), 8},
                                {(void *)(stats + 6), 8}},
                      o = {out, 32};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, 5, ins, 1, &o);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

Test(batch_norm, per_channel_values)
{
    /* Channel 0: mean 1, variance 4 - eps, scale 2, bias 0.5: 2 (x - 1) / 2 + 0.5 = x - 0.5.
     * Channel 1: mean -2, variance 0.25 - eps, scale -1, bias 3: -(x + 2) / 0.5 + 3. */
    const float eps = 0x1p-10f;
    const float x[8] = {0, 1, 2, 3.5f, -2, 0, 1, -4};
    const float stats[8] = {1, -2, 4 - eps, 0.25f - eps, 2, -1, 0.5f, 3};
    float got[8];
    cr_assert_eq(run_nchw(x, stats, eps, NULL, got), S_OK, "%s", dmlcl_last_error());
    const float want[8] = {-0.5f, 0.5f, 1.5f, 3.0f, 3, -1, -3, 7};
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want[i], "element %d: %.9g, expected %.9g", i, got[i], want[i]);
    /* With a fused RELU. */
    DML_ACTIVATION_RELU_OPERATOR_DESC relu = {NULL, NULL};
    DML_OPERATOR_DESC fused = {DML_OPERATOR_ACTIVATION_RELU, &relu};
    cr_assert_eq(run_nchw(x, stats, eps, &fused, got), S_OK, "%s", dmlcl_last_error());
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want[i] > 0 ? want[i] : 0, "relu element %d: %.9g", i, got[i]);
}

Test(batch_norm, cancelling_bias)
{
    /* Bias within a few ULP of -scale (x - mean) / sqrt(var): the plain float form loses every
     * digit of the small result; the exact value in double. */
    float x[8], stats[8] = {0.3f, -0.7f, 3.0f, 0.7f, 1.7f, -2.9f, 0, 0}, got[8];
    for (int i = 0; i < 8; ++i)
        x[i] = 1.1f + 0.37f * (float)i;
    /* Bias per channel from element 0 of the channel: -s (x - m) / sqrt(v), rounded to float. */
    stats[6] = (float)(-1.7 * ((double)x[0] - 0.3) / sqrt(3.0));
    stats[7] = (float)(2.9 * ((double)x[4] + 0.7) / sqrt((double)0.7f));
    cr_assert_eq(run_nchw(x, stats, 0.0f, NULL, got), S_OK, "%s", dmlcl_last_error());
    for (int i = 0; i < 8; ++i) {
        int c = i / 4;
        double want =
            ref_batch_norm_real(x[i], stats[c], stats[2 + c], stats[4 + c], stats[6 + c], 0.0);
        float wf = (float)want;
        cr_expect(ref_float_close(F32, &wf, &got[i], ref_batch_norm_ulps()),
                  "element %d: %a, expected %a", i, got[i], want);
    }
}

/* A graph of BATCH_NORMALIZATION then ACTIVATION_ELU: the planner may make the activation the
 * batch normalization map's own (a FLOAT32 intermediate rounds nothing); either way the result
 * is the fused operator's, within 6 ULP plus ELU's 18. */
Test(batch_norm, graph_then_activation)
{
    enum { N = 24 };
    float x[N], stats[4][3] = {{0.5f, -1, 2}, {1, 0.25f, 3}, {1.5f, -0.75f, 2}, {0.1f, 2, -3}};
    float got[N], want[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)(i - 12) * 0.3f;
    UINT xs[4] = {1, 3, 2, 4}, ss[4] = {1, 3, 1, 1};
    DML_BUFFER_TENSOR_DESC bx = {F32, 0, 4, xs, NULL, 4 * N, 0}, bs = {F32, 0, 4, ss, NULL, 12, 0};
    DML_TENSOR_DESC tx = {DML_TENSOR_TYPE_BUFFER, &bx}, ts = {DML_TENSOR_TYPE_BUFFER, &bs};
    DML_BATCH_NORMALIZATION_OPERATOR_DESC bn = {&tx, &ts, &ts, &ts, &ts, &tx, 1, 1e-3f, NULL};
    act_desc elu = {&tx, &tx, {0.8f, 0}};
    unit_graph g;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_BATCH_NORMALIZATION, &bn);
    ug_node(&g, DML_OPERATOR_ACTIVATION_ELU, &elu);
    for (UINT k = 0; k < 5; ++k)
        ug_input(&g, k, 0, k);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_graph_compile(ops_device(), ug_desc(&g, 5, 1), 0, &c);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    dmlcl_host_tensor ins[5] = {{x, 4 * N},
                                {stats[0], 12},
                                {stats[1], 12},
                                {stats[2], 12},
                                {stats[3], 12}},
                      o = {got, 4 * N};
    hr = dmlcl_compiled_operator_execute(c, 5, ins, 1, &o);
    dmlcl_compiled_operator_release(c);
    ug_free(&g);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    uint32_t rs[4] = {1, 3, 2, 4}, rss[4] = {1, 3, 1, 1};
    ref_tensor rx = ref_tensor_view(F32, 4, rs, NULL, x),
               rw = ref_tensor_view(F32, 4, rs, NULL, want);
    ref_tensor r[4];
    for (int k = 0; k < 4; ++k)
        r[k] = ref_tensor_view(F32, 4, rss, NULL, stats[k]);
    const double p[2] = {(double)0.8f, 0};
    cr_assert(ref_batch_norm(&rx, &r[0], &r[1], &r[2], &r[3], (double)1e-3f, REF_ACT_ELU, p, &rw));
    for (int i = 0; i < N; ++i)
        cr_expect(ref_float_close(F32, &want[i], &got[i],
                                  ref_batch_norm_ulps() + ref_activation_ulps(REF_ACT_ELU)),
                  "element %d (x %g): %.9g, expected %.9g", i, x[i], got[i], want[i]);
}
