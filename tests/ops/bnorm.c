/* SPDX-License-Identifier: MIT */
/*
 * bnorm.c: DirectML's BATCH_NORMALIZATION_TRAINING, BATCH_NORMALIZATION_GRAD and
 * BATCH_NORMALIZATION_TRAINING_GRAD on the device against the C reference (tests/ref/ref_bnorm.c),
 * FLOAT32 and FLOAT16.
 *
 * Random cases: ranks 1..6, the statistics' shape ONNX's per-channel one (dimension 1 kept), or
 * each dimension kept or reduced at random (every dimension kept: one element per channel;
 * none: one channel); every tensor packed, padded or transposed (inputs now and then
 * broadcast), buffers shared; input data in [-8, 8] with an offset of up to 32 now and then
 * (the mean's cancellation), Scale of either sign, FusedAdd present or not, RELU or
 * LEAKY_RELU fused now and then; the gradients' Mean and Variance the input's own statistics
 * (the forward's outputs) or unrelated values. Outputs within their tolerance (ref_bnorm.h): the
 * normalized output and BATCH_NORMALIZATION_GRAD's element-wise gradient 6 ULP, the sums and
 * what rests on them N + 2 ULP (N the elements a channel sums), or, where a sum cancels, the
 * float32 computation's (N + 2) * 2^-23 times the sum of the magnitudes plus the output's own
 * rounding. Fixed cases: a hand-checked channel and the statistics' identities. Failures print
 * the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_bnorm.h"
#include "ref_broadcast.h"

#define BNT_DEFAULT_SEED 0x646D6C636C424E54ull
#define BNT_MAX_ELEMENTS 1200
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static ops_seed run_seed = OPS_SEED(BNT_DEFAULT_SEED);

OPS_DEVICE_SUITE(bnorm);

typedef enum bn_op { BN_TRAINING, BN_GRAD, BN_TRAINING_GRAD } bn_op;

static const char *const op_names[3] = {"BATCH_NORMALIZATION_TRAINING", "BATCH_NORMALIZATION_GRAD",
                                        "BATCH_NORMALIZATION_TRAINING_GRAD"};

/* A fused activation's descriptor: two NULL tensors, then its FLOAT. */
typedef struct act_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT alpha;
} act_desc;

static void put_float(DML_TENSOR_DATA_TYPE t, unsigned char *p, double v)
{
    if (t == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

static double get_float(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
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

/* Every logical element of t in the init image: lo + (hi - lo) * u, u uniform in 1/256 steps
 * (exact in either type), plus offset. */
static void fill(ops_memory *m, ref_rng *rng, const ops_tensor *t, double lo, double hi,
                 double offset)
{
    ref_tensor v = ops_view(m, OPS_INIT, t);
    uint32_t c[REF_MAX_DIMS] = {0};
    unsigned char e[8];
    do {
        put_float(v.type, e, offset + lo + (hi - lo) * (double)ref_rng_below(rng, 257) / 256);
        ref_put(&v, c, e);
    } while (ref_next_coord(v.rank, v.sizes, c));
}

/*
 * Elements within their bound count as equal (see the banner): ulps of the type, or the float32
 * computation's (terms + 2) * 2^-23 * mag plus one rounding of the output type; NaN matches NaN.
 * The reference's bytes go into what came back where accepted.
 */
static void accept(ops_memory *mem, const ops_tensor *out, const double *mag, uint32_t terms,
                   unsigned ulps)
{
    DML_TENSOR_DATA_TYPE t = out->buffer.DataType;
    double eps = t == F16 ? ldexp(1, -11) : ldexp(1, -24);
    ref_tensor e = ops_view(mem, OPS_EXPECT, out), g = ops_view(mem, OPS_GOT, out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char a[8], b[8];
    uint64_t flat = 0;
    do {
        ref_get(&e, coord, a);
        ref_get(&g, coord, b);
        double x = get_float(t, a), y = get_float(t, b);
        double bound = (terms + 2) * ldexp(1, -23) * mag[flat] + eps * fabs(x);
        bool ok = (isnan(x) && isnan(y)) || ref_float_close(t, a, b, ulps) ||
                  (isfinite(x) && isfinite(y) && fabs(x - y) <= bound);
        if (ok)
            ref_put(&g, coord, a);
        ++flat;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

typedef struct bn_case {
    bn_op op;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank, xs[REF_MAX_DIMS], ss[REF_MAX_DIMS];
    ops_tensor in[5], out[3];
    uint32_t n_in;
    bool has_add;
    int act; /* 0 none, 1 RELU, 2 LEAKY_RELU */
    float eps;
    ops_memory mem;
} bn_case;

static void shapes(bn_case *c, ref_rng *rng)
{
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 6);
    ops_random_sizes(rng, c->rank, c->xs, BNT_MAX_ELEMENTS);
    unsigned form = (unsigned)ref_rng_below(rng, 4);
    for (uint32_t i = 0; i < c->rank; ++i) {
        bool keep = form == 0   ? i == (c->rank > 1 ? 1u : 0u)
                    : form == 1 ? false
                                : ref_rng_chance(rng, 50);
        c->ss[i] = keep ? c->xs[i] : 1;
    }
}

static const char *const train_in[4] = {"InputTensor", "ScaleTensor", "BiasTensor",
                                        "FusedAddTensor"};
static const char *const train_out[3] = {"OutputTensor", "OutputMeanTensor",
                                         "OutputVarianceTensor"};
static const char *const grad_in[5] = {"InputTensor", "InputGradientTensor", "MeanTensor",
                                       "VarianceTensor", "ScaleTensor"};
static const char *const grad_out[3] = {"OutputGradientTensor", "OutputScaleGradientTensor",
                                        "OutputBiasGradientTensor"};

/* Whether input k of the case has the input's shape (else the statistics'). */
static bool full_input(bn_op op, uint32_t k)
{
    return op == BN_TRAINING ? k == 0 || k == 3 : k <= 1;
}

static void make_tensors(bn_case *c, ref_rng *rng)
{
    ops_layout layout;
    c->n_in = c->op == BN_TRAINING ? 4 : 5;
    for (uint32_t k = 0; k < c->n_in; ++k) {
        const char *name = c->op == BN_TRAINING ? train_in[k] : grad_in[k];
        ops_random_tensor(&c->in[k], rng, name, false, c->type, c->rank,
                          full_input(c->op, k) ? c->xs : c->ss, &layout);
    }
    for (uint32_t k = 0; k < 3; ++k) {
        const char *name = c->op == BN_TRAINING ? train_out[k] : grad_out[k];
        ops_random_tensor(&c->out[k], rng, name, true, c->type, c->rank, k == 0 ? c->xs : c->ss,
                          &layout);
    }
    memset(&c->mem, 0, sizeof c->mem);
    for (uint32_t k = 0; k < c->n_in; ++k)
        if (k != 3 || c->op != BN_TRAINING || c->has_add)
            ops_memory_place(&c->mem, rng, &c->in[k], k > 0);
    for (uint32_t k = 0; k < 3; ++k)
        ops_memory_place(&c->mem, rng, &c->out[k], k > 0);
    ops_memory_alloc(&c->mem, rng);
}

/* The gradients' Mean and Variance: the input's statistics (in double, rounded to the type)
 * or unrelated values. */
static void grad_statistics(bn_case *c, ref_rng *rng)
{
    if (ref_rng_chance(rng, 30)) {
        fill(&c->mem, rng, &c->in[2], -1, 1, 0);
        fill(&c->mem, rng, &c->in[3], 0, 4, 0);
        return;
    }
    ref_tensor x = ops_view(&c->mem, OPS_INIT, &c->in[0]);
    ref_tensor m = ops_view(&c->mem, OPS_INIT, &c->in[2]);
    ref_tensor v = ops_view(&c->mem, OPS_INIT, &c->in[3]);
    static unsigned char scratch[3][BNT_MAX_ELEMENTS * 4 + 64];
    ref_tensor y = ref_tensor_view(c->type, c->rank, c->xs, NULL, scratch[0]);
    ref_tensor s = ref_tensor_view(c->type, c->rank, c->ss, NULL, scratch[1]);
    ref_tensor b = ref_tensor_view(c->type, c->rank, c->ss, NULL, scratch[2]);
    /* Scale and bias of 1 and 0 (the forward's outputs are what is wanted). */
    uint32_t sc[REF_MAX_DIMS] = {0};
    unsigned char e[8];
    do {
        put_float(c->type, e, 1);
        ref_put(&s, sc, e);
        put_float(c->type, e, 0);
        ref_put(&b, sc, e);
    } while (ref_next_coord(c->rank, c->ss, sc));
    cr_assert(ref_bn_training(&x, &s, &b, NULL, 0, REF_ACT_NONE, NULL, &y, &m, &v, NULL),
              "test bug: the reference rejected the statistics");
}

static void run_case(bn_op op, const char *test, unsigned n)
{
    static char what[4096], diff[4096];
    static bn_case c;
    static double mags[3][BNT_MAX_ELEMENTS];
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    memset(&c, 0, sizeof c);
    c.op = op;
    c.type = n % 2 ? F16 : F32;
    shapes(&c, &rng);
    c.has_add = op == BN_TRAINING && ref_rng_chance(&rng, 50);
    c.act = op == BN_TRAINING && ref_rng_chance(&rng, 30) ? 1 + (int)ref_rng_below(&rng, 2) : 0;
    static const float eps[] = {1e-5f, 1e-3f, 0.1f};
    c.eps = eps[ref_rng_below(&rng, 3)];
    make_tensors(&c, &rng);
    double offset = ref_rng_chance(&rng, 25) ? (double)ref_rng_range(&rng, -32, 32) : 0;
    fill(&c.mem, &rng, &c.in[0], -8, 8, offset);
    if (op == BN_TRAINING) {
        fill(&c.mem, &rng, &c.in[1], -2, 2, 0);
        fill(&c.mem, &rng, &c.in[2], -1, 1, 0);
        if (c.has_add)
            fill(&c.mem, &rng, &c.in[3], -2, 2, 0);
    } else {
        fill(&c.mem, &rng, &c.in[1], -2, 2, 0);
        fill(&c.mem, &rng, &c.in[4], -2, 2, 0);
        grad_statistics(&c, &rng);
    }
    ops_memory_snapshot(&c.mem);
    ref_tensor r[8];
    for (uint32_t k = 0; k < c.n_in; ++k)
        if (c.in[k].slot >= 0) /* FusedAddTensor left out: never placed */
            r[k] = ops_view(&c.mem, OPS_INIT, &c.in[k]);
    for (uint32_t k = 0; k < 3; ++k)
        r[5 + k] = ops_view(&c.mem, OPS_EXPECT, &c.out[k]);
    ref_bnorm_bounds bounds = {{mags[0], mags[1], mags[2]}, {0, 0, 0}};
    double p[2] = {0.25, 0};
    static const ref_act acts[3] = {REF_ACT_NONE, REF_ACT_RELU, REF_ACT_LEAKY_RELU};
    bool ok = op == BN_TRAINING
                  ? ref_bn_training(&r[0], &r[1], &r[2], c.has_add ? &r[3] : NULL, c.eps,
                                    acts[c.act], p, &r[5], &r[6], &r[7], &bounds)
                  : ref_bn_grad(op == BN_TRAINING_GRAD, &r[0], &r[1], &r[2], &r[3], &r[4], c.eps,
                                &r[5], &r[6], &r[7], &bounds);
    cr_assert(ok, "test bug: the reference rejected a case");
    for (uint32_t k = 0; k < 3; ++k)
        ops_poison_output(&c.mem, &c.out[k]);
    act_desc ad = {NULL, NULL, 0.25f};
    static const DML_OPERATOR_TYPE act_types[3] = {
        DML_OPERATOR_INVALID, DML_OPERATOR_ACTIVATION_RELU, DML_OPERATOR_ACTIVATION_LEAKY_RELU};
    DML_OPERATOR_DESC fused = {act_types[c.act], &ad};
    DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC td = {
        ops_tensor_desc(&c.in[0]),  ops_tensor_desc(&c.in[1]),
        ops_tensor_desc(&c.in[2]),  c.has_add ? ops_tensor_desc(&c.in[3]) : NULL,
        ops_tensor_desc(&c.out[0]), ops_tensor_desc(&c.out[1]),
        ops_tensor_desc(&c.out[2]), c.eps,
        c.act ? &fused : NULL};
    DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC gd = {
        ops_tensor_desc(&c.in[0]),  ops_tensor_desc(&c.in[1]),  ops_tensor_desc(&c.in[2]),
        ops_tensor_desc(&c.in[3]),  ops_tensor_desc(&c.in[4]),  ops_tensor_desc(&c.out[0]),
        ops_tensor_desc(&c.out[1]), ops_tensor_desc(&c.out[2]), c.eps};
    DML_OPERATOR_DESC desc =
        op == BN_TRAINING ? (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION_TRAINING, &td}
        : op == BN_GRAD   ? (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION_GRAD, &gd}
                        : (DML_OPERATOR_DESC){DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD, &gd};
    ops_tensor *inputs[5], *outputs[3] = {&c.out[0], &c.out[1], &c.out[2]}, *all[8];
    for (uint32_t k = 0; k < c.n_in; ++k)
        inputs[k] = op == BN_TRAINING && k == 3 && !c.has_add ? NULL : &c.in[k];
    int n_all = 0;
    for (uint32_t k = 0; k < 3; ++k)
        all[n_all++] = &c.out[k];
    for (uint32_t k = 0; k < c.n_in; ++k)
        if (inputs[k])
            all[n_all++] = inputs[k];
    char head[512], dims[3][256];
    snprintf(
        what, sizeof what,
        "%s\n  %s; Epsilon %g; FusedAdd %d; activation %d\n  %s\n  statistics %s\n  "
        "output %s",
        ops_replay(head, sizeof head, op_names[op], "bnorm", test, n, ops_base_seed(&run_seed)),
        ref_type_name(c.type), (double)c.eps, c.has_add, c.act,
        ops_tensor_describe(&c.in[0], dims[0], sizeof dims[0]),
        ops_tensor_describe(&c.in[op == BN_TRAINING ? 1 : 2], dims[1], sizeof dims[1]),
        ops_tensor_describe(&c.out[0], dims[2], sizeof dims[2]));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &c.mem, inputs, c.n_in, outputs, 3,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    bool elementwise = op == BN_GRAD;
    accept(&c.mem, &c.out[0], mags[0], bounds.terms[0], elementwise ? 6 : bounds.terms[0] + 2);
    for (uint32_t k = 1; k < 3; ++k)
        accept(&c.mem, &c.out[k], mags[k], bounds.terms[k], bounds.terms[k] + 2);
    uint64_t bad = ops_compare(&c.mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&c.mem);
}

static void run_cases(bn_op op, const char *test, unsigned count)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n)
        if (only < 0 || (unsigned long)only == n)
            run_case(op, test, n);
}

Test(bnorm, random_training)
{
    run_cases(BN_TRAINING, "random_training", 24);
}

Test(bnorm, random_grad)
{
    run_cases(BN_GRAD, "random_grad", 16);
}

Test(bnorm, random_training_grad)
{
    run_cases(BN_TRAINING_GRAD, "random_training_grad", 24);
}

/* desc run by dmlcl_compiled_operator_execute on host arrays (absent inputs: NULL data). */
static void run_host(const char *what, const DML_OPERATOR_DESC *desc, UINT n_in,
                     const dmlcl_host_tensor *ins, UINT n_out, const dmlcl_host_tensor *outs)
{
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *c = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), desc, &o), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_compiled_operator_execute(c, n_in, ins, n_out, outs), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(o);
}

/*
 * Values checked by hand, exact in float32: X {2, 2, 1, 2} (N, C, H, W), channel 0 holding
 * 1, 2, 3, 4 (mean 2.5, variance 1.25: Epsilon 2.75 makes sqrt(Variance + Epsilon) 2) and
 * channel 1 four 10s (mean 10, variance 0: the output is Bias). Scale {2, 3}, Bias {0.5, -1}:
 * Output = X - 2 on channel 0, -1 on channel 1. Then the gradients at those statistics with
 * dY = 1: OutputBiasGradient the count (4), OutputScaleGradient 0 (the deviations sum to 0);
 * BATCH_NORMALIZATION_GRAD's OutputGradient Scale / 2 = 1 on channel 0; the training gradient 0
 * everywhere (a constant gradient moves nothing through the batch's own statistics).
 */
Test(bnorm, hand_checked_channel)
{
    static const UINT xs[4] = {2, 2, 1, 2}, ss[4] = {1, 2, 1, 1};
    static const float x[8] = {1, 2, 10, 10, 3, 4, 10, 10};
    static const float scale[2] = {2, 3}, bias[2] = {0.5f, -1};
    static const float want_y[8] = {-1, 0, -1, -1, 1, 2, -1, -1};
    static const float want_mean[2] = {2.5f, 10}, want_var[2] = {1.25f, 0};
    DML_BUFFER_TENSOR_DESC full = {F32, DML_TENSOR_FLAG_NONE, 4, xs, NULL, sizeof x, 0};
    DML_BUFFER_TENSOR_DESC stat = {F32, DML_TENSOR_FLAG_NONE, 4, ss, NULL, sizeof scale, 0};
    DML_TENSOR_DESC tf = {DML_TENSOR_TYPE_BUFFER, &full}, ts = {DML_TENSOR_TYPE_BUFFER, &stat};
    DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC td = {&tf, &ts, &ts,   NULL, &tf,
                                                         &ts, &ts, 2.75f, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_BATCH_NORMALIZATION_TRAINING, &td};
    float y[8], mean[2], var[2];
    dmlcl_host_tensor ins[4] = {
        {(void *)x, sizeof x}, {(void *)scale, sizeof scale}, {(void *)bias, sizeof bias}, {0}};
    dmlcl_host_tensor outs[3] = {{y, sizeof y}, {mean, sizeof mean}, {var, sizeof var}};
    run_host("BATCH_NORMALIZATION_TRAINING", &desc, 4, ins, 3, outs);
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(y[i], want_y[i], "Output[%d]: %g, want %g", i, (double)y[i],
                     (double)want_y[i]);
    for (int i = 0; i < 2; ++i) {
        cr_expect_eq(mean[i], want_mean[i], "OutputMean[%d]: %g", i, (double)mean[i]);
        cr_expect_eq(var[i], want_var[i], "OutputVariance[%d]: %g", i, (double)var[i]);
    }
    static const float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC gd = {&tf, &tf, &ts, &ts, &ts, &tf, &ts, &ts, 2.75f};
    float dx[8], dscale[2], dbias[2];
    dmlcl_host_tensor gins[5] = {{(void *)x, sizeof x},
                                 {(void *)ones, sizeof ones},
                                 {mean, sizeof mean},
                                 {var, sizeof var},
                                 {(void *)scale, sizeof scale}};
    dmlcl_host_tensor gouts[3] = {{dx, sizeof dx}, {dscale, sizeof dscale}, {dbias, sizeof dbias}};
    for (int training = 0; training < 2; ++training) {
        desc = (DML_OPERATOR_DESC){training ? DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD
                                            : DML_OPERATOR_BATCH_NORMALIZATION_GRAD,
                                   &gd};
        run_host(op_names[1 + training], &desc, 5, gins, 3, gouts);
        for (int i = 0; i < 2; ++i) {
            cr_expect_eq(dbias[i], 4, "%s: OutputBiasGradient[%d]: %g", op_names[1 + training], i,
                         (double)dbias[i]);
            cr_expect_eq(dscale[i], 0, "%s: OutputScaleGradient[%d]: %g", op_names[1 + training], i,
                         (double)dscale[i]);
        }
        for (int i = 0; i < 8; ++i) {
            /* Channel 1: Scale 3 / sqrt(2.75), not exact: GRAD's value within 6 ULP. */
            double want = training ? 0 : (i / 2) % 2 ? 3 / sqrt(2.75) : 1;
            cr_expect(fabs(dx[i] - want) <= 6 * ldexp(fabs(want), -23),
                      "%s: OutputGradient[%d]: "
                      "%.9g, want %.9g",
                      op_names[1 + training], i, (double)dx[i], want);
        }
    }
}
