/* SPDX-License-Identifier: MIT */
/*
 * LOCAL_RESPONSE_NORMALIZATION_GRAD and ADAM_OPTIMIZER on the device against the oracle
 * (tests/ref/ref_train.c, double). Inputs are random from a printed, overridable seed
 * (DMLCL_TEST_SEED); a case's tensors may be strided (the innermost run padded) or, for ADAM's
 * gradient, broadcast (stride 0), so that the kernels must read and write through the strides;
 * outputs are poisoned first so that every element must be written.
 *
 * LRN_GRAD: both window modes, odd and even LocalSize (the window's placement), LocalSize 1 and
 * past the tensor, Beta negative and 0, FLOAT16; each result is also checked against central
 * finite differences of the forward (<LRN(x), dY> perturbed per element, in double), which ties
 * the gradient to the forward's definition independently of the oracle's formula.
 * Tolerance (reference/precision.md: pow 32 ULP, a sum of K squares K ULP): the device computes
 * in float, each D from a sum of W squares (W the window's elements) and the sum over the W
 * windows holding j: |got - want| <= (40 + 5 W) 2^-23 * scale, scale the sum of the terms'
 * magnitudes (the oracle's), plus 2^-11 |want| for a FLOAT16 output's rounding.
 *
 * ADAM: FLOAT32 and FLOAT16, T from 1 to 10^4, T = 0 (the formula's 0 / 0: NaN parameters,
 * the moments as usual), strided and broadcast tensors, in place through a binding table (each
 * output on its input's range). Tolerance: the moments 3 ULP of their terms' magnitudes; the
 * parameters 2 ULP of X plus 100 ULP of the update (two pows of 32 ULP, sqrt, quotients);
 * FLOAT16 outputs 2^-11 relative more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "ref_broadcast.h"
#include "ref_lrn.h"
#include "ref_train.h"

OPS_DEVICE_SUITE(train);

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

/* A 4-D tensor of a case: sizes, strides (packed, padded innermost run, or a broadcast) and its
 * host data; `values` the packed logical values as stored. */
typedef struct buf {
    DML_TENSOR_DESC desc;
    DML_BUFFER_TENSOR_DESC buffer;
    UINT sizes[4], strides[4];
    unsigned char *data;
    uint64_t bytes, count;
    double *values;
} buf;

typedef enum layout { PACKED, PADDED, BROADCAST } layout;

static void buf_make(buf *b, DML_TENSOR_DATA_TYPE type, const uint32_t *sizes, layout lay)
{
    memset(b, 0, sizeof *b);
    uint64_t stride = 1;
    b->count = 1;
    for (int d = 3; d >= 0; --d) {
        b->sizes[d] = sizes[d];
        b->strides[d] = lay == BROADCAST && d == 1 ? 0 : (UINT)stride;
        stride *= sizes[d] + (d == 3 && lay == PADDED ? 3 : 0);
        b->count *= sizes[d];
    }
    b->buffer.DataType = type;
    b->buffer.DimensionCount = 4;
    b->buffer.Sizes = b->sizes;
    b->buffer.Strides = lay == PACKED ? NULL : b->strides;
    b->buffer.TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(type, 4, b->sizes, b->buffer.Strides);
    b->desc.Type = DML_TENSOR_TYPE_BUFFER;
    b->desc.Desc = &b->buffer;
    b->bytes = b->buffer.TotalTensorSizeInBytes;
    b->data = malloc(b->bytes);
    b->values = calloc(b->count, sizeof *b->values);
    cr_assert(b->data && b->values);
    memset(b->data, 0xA5, b->bytes); /* poison */
}

static uint64_t buf_offset(const buf *b, uint64_t i)
{
    uint64_t off = 0;
    for (int d = 3; d >= 0; --d) {
        off += (i % b->sizes[d]) * b->strides[d];
        i /= b->sizes[d];
    }
    return off;
}

static unsigned width(const buf *b)
{
    return b->buffer.DataType == F16 ? 2 : 4;
}

/* v stored at logical element i (and every element sharing its address), as the type rounds
 * it. */
static void buf_store(buf *b, uint64_t i, double v)
{
    unsigned char *p = b->data + buf_offset(b, i) * width(b);
    if (b->buffer.DataType == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

static double load_at(const buf *b, const unsigned char *data, uint64_t i)
{
    const unsigned char *p = data + buf_offset(b, i) * width(b);
    if (b->buffer.DataType == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* The logical values as stored (after every store: broadcast elements share one). */
static void buf_sync(buf *b)
{
    for (uint64_t i = 0; i < b->count; ++i)
        b->values[i] = load_at(b, b->data, i);
}

static double uniform(ref_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)ref_rng_below(rng, 1u << 24) / (1u << 24);
}

static void buf_random(buf *b, ref_rng *rng, double lo, double hi)
{
    for (uint64_t i = 0; i < b->count; ++i)
        buf_store(b, i, uniform(rng, lo, hi));
    buf_sync(b);
}

static void buf_free(buf *b)
{
    free(b->data);
    free(b->values);
}

/* Runs the operator on host buffers (dmlcl_compiled_operator_execute). */
static void run(const char *name, DML_OPERATOR_TYPE type, const void *desc, buf **in, UINT n_in,
                buf **out, UINT n_out)
{
    DML_OPERATOR_DESC op = {type, desc};
    dmlcl_host_tensor hin[5], hout[3];
    for (UINT i = 0; i < n_in; ++i)
        hin[i] = (dmlcl_host_tensor){in[i]->data, in[i]->bytes};
    for (UINT o = 0; o < n_out; ++o)
        hout[o] = (dmlcl_host_tensor){out[o]->data, out[o]->bytes};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &op, &o);
    cr_assert_eq(hr, S_OK, "%s: create: %s", name, dmlcl_last_error());
    hr = dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co);
    cr_assert_eq(hr, S_OK, "%s: compile: %s", name, dmlcl_last_error());
    hr = dmlcl_compiled_operator_execute(co, n_in, hin, n_out, hout);
    cr_assert_eq(hr, S_OK, "%s: execute: %s", name, dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);
}

/* got within tol[i] + 2^-11 |want| (FLOAT16) of want; NaN only where want is NaN. */
static void compare(const char *name, const char *what, const buf *out, const double *want,
                    const double *tol, double tol_all)
{
    double rel = out->buffer.DataType == F16 ? ldexp(1.0, -11) : 0.0;
    for (uint64_t i = 0; i < out->count; ++i) {
        double got = load_at(out, out->data, i), t = (tol ? tol[i] : tol_all) + rel * fabs(want[i]);
        if (isnan(want[i])) {
            cr_assert(isnan(got), "%s: %s element %llu: got %.9g, want NaN", name, what,
                      (unsigned long long)i, got);
            continue;
        }
        cr_assert(fabs(got - want[i]) <= t,
                  "%s: %s element %llu: got %.9g, want %.9g (tolerance %.3g)", name, what,
                  (unsigned long long)i, got, want[i], t);
    }
}

/* ---- LOCAL_RESPONSE_NORMALIZATION_GRAD ------------------------------------------------------ */

typedef struct lrn_case {
    const char *name;
    DML_TENSOR_DATA_TYPE type;
    uint32_t sizes[4];
    bool cross;
    uint32_t local_size;
    float alpha, beta, bias;
    bool strided;
} lrn_case;

/* Central differences of <LRN(x), dy> in double, step h per element. */
static void finite_differences(const lrn_case *lc, const double *x, const double *dy, uint64_t n,
                               double *fd)
{
    double *xp = malloc(n * sizeof *xp), *y = malloc(n * sizeof *y);
    cr_assert(xp && y);
    memcpy(xp, x, n * sizeof *xp);
    for (uint64_t j = 0; j < n; ++j) {
        double h = 1e-5 * fmax(1.0, fabs(x[j])), f[2];
        for (int s = 0; s < 2; ++s) {
            xp[j] = x[j] + (s ? -h : h);
            ref_lrn_forward(lc->sizes, xp, lc->cross, lc->local_size, lc->alpha, lc->beta, lc->bias,
                            y);
            f[s] = 0;
            for (uint64_t i = 0; i < n; ++i)
                f[s] += y[i] * dy[i];
        }
        xp[j] = x[j];
        fd[j] = (f[0] - f[1]) / (2 * h);
    }
    free(xp);
    free(y);
}

static void run_lrn(const lrn_case *lc)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x4c524e47));
    layout lay = lc->strided ? PADDED : PACKED;
    buf x, dy, dx;
    buf_make(&x, lc->type, lc->sizes, lay);
    buf_make(&dy, lc->type, lc->sizes, lay);
    buf_make(&dx, lc->type, lc->sizes, lay);
    buf_random(&x, &rng, -2, 2);
    buf_random(&dy, &rng, -1, 1);
    DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC d = {
        &x.desc, &dy.desc, &dx.desc, lc->cross, lc->local_size, lc->alpha, lc->beta, lc->bias};
    buf *in[] = {&x, &dy}, *out[] = {&dx};
    run(lc->name, DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD, &d, in, 2, out, 1);
    uint64_t n = x.count;
    double *want = calloc(n, sizeof *want), *scale = calloc(n, sizeof *scale);
    double *tol = calloc(n, sizeof *tol), *fd = calloc(n, sizeof *fd);
    cr_assert(want && scale && tol && fd);
    ref_lrn_grad(lc->sizes, x.values, dy.values, lc->cross, lc->local_size, lc->alpha, lc->beta,
                 lc->bias, want, scale);
    uint64_t w = lc->cross ? lc->local_size : (uint64_t)lc->local_size * lc->local_size;
    for (uint64_t i = 0; i < n; ++i)
        tol[i] = (40.0 + 5.0 * (double)w) * ldexp(scale[i], -23);
    compare(lc->name, "OutputGradientTensor", &dx, want, tol, 0);
    /* The oracle against the forward's finite differences (h^2 and the sums' rounding). */
    finite_differences(lc, x.values, dy.values, n, fd);
    for (uint64_t i = 0; i < n; ++i)
        cr_assert(fabs(fd[i] - want[i]) <= 1e-6 * (1 + scale[i]),
                  "%s: element %llu: the oracle %.12g, finite differences %.12g", lc->name,
                  (unsigned long long)i, want[i], fd[i]);
    free(want);
    free(scale);
    free(tol);
    free(fd);
    buf_free(&x);
    buf_free(&dy);
    buf_free(&dx);
}

Test(train, lrn_grad_cross_channel_odd)
{
    run_lrn(&(lrn_case){"lrn_grad cross 5", F32, {2, 7, 3, 4}, true, 5, 1.0f, 0.75f, 1.0f, false});
}

Test(train, lrn_grad_cross_channel_even_strided)
{
    run_lrn(&(lrn_case){"lrn_grad cross 4", F32, {1, 9, 2, 5}, true, 4, 0.5f, 0.75f, 2.0f, true});
}

Test(train, lrn_grad_within_channel_odd)
{
    run_lrn(
        &(lrn_case){"lrn_grad within 3", F32, {1, 2, 6, 7}, false, 3, 2.0f, 0.75f, 1.0f, false});
}

Test(train, lrn_grad_within_channel_even_strided)
{
    run_lrn(&(lrn_case){"lrn_grad within 2", F32, {2, 1, 5, 6}, false, 2, 1.0f, 0.5f, 1.5f, true});
    run_lrn(
        &(lrn_case){"lrn_grad within 4", F32, {1, 2, 7, 5}, false, 4, 1.0f, 1.25f, 1.0f, false});
}

Test(train, lrn_grad_window_edges)
{
    /* LocalSize 1 (each element alone), past every channel and past the plane. */
    run_lrn(&(lrn_case){"lrn_grad cross 1", F32, {2, 3, 2, 2}, true, 1, 1.0f, 0.75f, 1.0f, false});
    run_lrn(
        &(lrn_case){"lrn_grad cross 12 > C", F32, {1, 5, 2, 3}, true, 12, 1.0f, 0.75f, 1.0f, true});
    run_lrn(&(lrn_case){
        "lrn_grad within 9 > H, W", F32, {1, 1, 4, 3}, false, 9, 1.0f, 0.75f, 1.0f, false});
}

Test(train, lrn_grad_beta_signs)
{
    /* Beta negative and 0 (then dX = dY), Alpha the documented default. */
    run_lrn(
        &(lrn_case){"lrn_grad beta -0.5", F32, {1, 6, 3, 3}, true, 3, 1.0f, -0.5f, 2.0f, false});
    run_lrn(&(lrn_case){"lrn_grad beta 0", F32, {1, 4, 2, 3}, false, 3, 1.0f, 0.0f, 1.0f, false});
    run_lrn(
        &(lrn_case){"lrn_grad defaults", F32, {1, 8, 2, 2}, true, 5, 0.0001f, 0.75f, 1.0f, false});
}

Test(train, lrn_grad_float16)
{
    run_lrn(&(lrn_case){"lrn_grad f16 cross", F16, {1, 6, 3, 5}, true, 3, 1.0f, 0.75f, 1.0f, true});
    run_lrn(
        &(lrn_case){"lrn_grad f16 within", F16, {2, 2, 4, 4}, false, 2, 1.0f, 0.75f, 1.0f, false});
}

/* The oracle's forward is the existing forward oracle's (tests/ref/ref_lrn.c): the window's
 * placement and the divisor agree on every mode and parity. */
Test(train, lrn_forward_oracles_agree)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x4c524e46));
    const uint32_t sizes[4] = {2, 5, 4, 3};
    float xs[120], ys[120];
    double x[120], y[120];
    for (int i = 0; i < 120; ++i)
        x[i] = xs[i] = (float)uniform(&rng, -2, 2);
    for (int cross = 0; cross < 2; ++cross)
        for (uint32_t n = 1; n <= 6; ++n) {
            ref_tensor ti = ref_tensor_view(F32, 4, sizes, NULL, xs);
            ref_tensor to = ref_tensor_view(F32, 4, sizes, NULL, ys);
            cr_assert(ref_lrn(&ti, &to, cross, n, 0.5, 0.75, 1.0));
            ref_lrn_forward(sizes, x, cross, n, 0.5, 0.75, 1.0, y);
            for (int i = 0; i < 120; ++i)
                cr_assert(fabs(ys[i] - y[i]) <= ldexp(fabs(y[i]), -23), "cross %d n %u: %d", cross,
                          n, i);
        }
}

/* ---- ADAM_OPTIMIZER ----------------------------------------------------------------------- */

typedef struct adam_case {
    const char *name;
    DML_TENSOR_DATA_TYPE type;
    uint32_t sizes[4];
    double step;
    float lr, beta1, beta2, epsilon;
    layout lay;
} adam_case;

typedef struct adam_want {
    double *x, *m, *v, *tx, *tm, *tv;
} adam_want;

/* The oracle's values and tolerances for inputs x, m, v, g (their stored values). */
static adam_want adam_expect(const adam_case *ac, uint64_t n, const double *x, const double *m,
                             const double *v, const double *g)
{
    adam_want w;
    double **all[6] = {&w.x, &w.m, &w.v, &w.tx, &w.tm, &w.tv};
    for (int k = 0; k < 6; ++k) {
        *all[k] = calloc(n, sizeof(double));
        cr_assert(*all[k]);
    }
    ref_adam(n, x, m, v, g, ac->step, ac->lr, ac->beta1, ac->beta2, ac->epsilon, w.x, w.m, w.v);
    double u = ldexp(1.0, -23), b1 = ac->beta1, b2 = ac->beta2;
    for (uint64_t i = 0; i < n; ++i) {
        w.tm[i] = 3 * u * (fabs(b1 * m[i]) + fabs((1 - b1) * g[i]));
        w.tv[i] = 4 * u * (fabs(b2 * v[i]) + fabs((1 - b2) * g[i] * g[i]));
        w.tx[i] = 2 * u * fabs(x[i]) + 100 * u * fabs(w.x[i] - x[i]);
    }
    return w;
}

static void adam_free(adam_want *w)
{
    double *all[6] = {w->x, w->m, w->v, w->tx, w->tm, w->tv};
    for (int k = 0; k < 6; ++k)
        free(all[k]);
}

static void run_adam(const adam_case *ac)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x4144414d));
    buf x, m, v, g, t, xo, mo, vo;
    const uint32_t one[4] = {1, 1, 1, 1};
    buf_make(&x, ac->type, ac->sizes, ac->lay == BROADCAST ? PADDED : ac->lay);
    buf_make(&m, ac->type, ac->sizes, ac->lay == BROADCAST ? PACKED : ac->lay);
    buf_make(&v, ac->type, ac->sizes, ac->lay);
    buf_make(&g, ac->type, ac->sizes, ac->lay);
    buf_make(&t, ac->type, one, PACKED);
    buf_make(&xo, ac->type, ac->sizes, ac->lay == BROADCAST ? PACKED : ac->lay);
    buf_make(&mo, ac->type, ac->sizes, ac->lay == BROADCAST ? PADDED : ac->lay);
    buf_make(&vo, ac->type, ac->sizes, ac->lay == BROADCAST ? PACKED : ac->lay);
    buf_random(&x, &rng, -3, 3);
    buf_random(&m, &rng, -1, 1);
    buf_random(&v, &rng, 0, 1);
    buf_random(&g, &rng, -2, 2);
    buf_store(&t, 0, ac->step);
    buf_sync(&t);
    DML_ADAM_OPTIMIZER_OPERATOR_DESC d = {&x.desc, &m.desc,   &v.desc,   &g.desc,
                                          &t.desc, &xo.desc,  &mo.desc,  &vo.desc,
                                          ac->lr,  ac->beta1, ac->beta2, ac->epsilon};
    buf *in[] = {&x, &m, &v, &g, &t}, *out[] = {&xo, &mo, &vo};
    run(ac->name, DML_OPERATOR_ADAM_OPTIMIZER, &d, in, 5, out, 3);
    adam_want w = adam_expect(ac, x.count, x.values, m.values, v.values, g.values);
    compare(ac->name, "OutputParametersTensor", &xo, w.x, w.tx, 0);
    compare(ac->name, "OutputFirstMomentTensor", &mo, w.m, w.tm, 0);
    compare(ac->name, "OutputSecondMomentTensor", &vo, w.v, w.tv, 0);
    adam_free(&w);
    buf *all[] = {&x, &m, &v, &g, &t, &xo, &mo, &vo};
    for (int k = 0; k < 8; ++k)
        buf_free(all[k]);
}

Test(train, adam_float32)
{
    run_adam(
        &(adam_case){"adam f32 step 1", F32, {2, 3, 4, 5}, 1, 0.001f, 0.9f, 0.999f, 1e-8f, PACKED});
    run_adam(
        &(adam_case){"adam f32 step 7", F32, {1, 1, 7, 33}, 7, 0.01f, 0.8f, 0.99f, 1e-6f, PACKED});
    run_adam(&(adam_case){"adam f32 step 10000",
                          F32,
                          {3, 1, 1, 17},
                          10000,
                          0.1f,
                          0.9f,
                          0.999f,
                          1.1920929e-7f,
                          PACKED});
}

Test(train, adam_strided_and_broadcast)
{
    run_adam(&(adam_case){"adam padded", F32, {2, 2, 3, 6}, 3, 0.05f, 0.9f, 0.999f, 1e-8f, PADDED});
    /* Every tensor but X, M and the outputs broadcast along C (stride 0). */
    run_adam(
        &(adam_case){"adam broadcast", F32, {2, 3, 2, 4}, 2, 0.05f, 0.5f, 0.75f, 1e-3f, BROADCAST});
}

Test(train, adam_float16)
{
    run_adam(&(adam_case){"adam f16", F16, {1, 2, 5, 9}, 4, 0.01f, 0.9f, 0.999f, 1e-4f, PADDED});
}

Test(train, adam_step_zero)
{
    /* The page's Alpha at T = 0 is 0 / 0: NaN parameters; the moments are updated as ever. */
    run_adam(
        &(adam_case){"adam step 0", F32, {1, 2, 2, 3}, 0, 0.001f, 0.9f, 0.999f, 1e-8f, PACKED});
}

/* In place through a binding table: each output bound on exactly its input's range (the page's
 * remarks), read and written by one work-item. */
Test(train, adam_in_place)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x41444950));
    const uint32_t sizes[4] = {2, 3, 4, 7}, one[4] = {1, 1, 1, 1};
    ops_tensor tx, tm, tv, tg, tt, ox, om, ov;
    ops_tensor_init(&tx, "InputParametersTensor", false, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&tm, "InputFirstMomentTensor", false, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&tv, "InputSecondMomentTensor", false, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&tg, "GradientTensor", false, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&tt, "TrainingStepTensor", false, F32, 4, one, NULL, 0, 0);
    ops_tensor_init(&ox, "OutputParametersTensor", true, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&om, "OutputFirstMomentTensor", true, F32, 4, sizes, NULL, 0, 0);
    ops_tensor_init(&ov, "OutputSecondMomentTensor", true, F32, 4, sizes, NULL, 0, 0);
    ops_memory mem = {0};
    ops_tensor *ins[] = {&tx, &tm, &tv, &tg, &tt}, *outs[] = {&ox, &om, &ov};
    for (int i = 0; i < 5; ++i)
        ops_memory_place(&mem, &rng, ins[i], i > 0);
    for (int o = 0; o < 3; ++o) {
        outs[o]->slot = ins[o]->slot;
        outs[o]->offset = ins[o]->offset;
        outs[o]->bind_size = ins[o]->bind_size;
    }
    ops_memory_alloc(&mem, &rng);
    uint64_t n = 2 * 3 * 4 * 7;
    double *vals[4];
    const double range[4][2] = {{-3, 3}, {-1, 1}, {0, 1}, {-2, 2}};
    for (int i = 0; i < 4; ++i) {
        vals[i] = calloc(n, sizeof(double));
        float *p = (float *)(void *)ops_ptr(&mem, OPS_INIT, ins[i]);
        for (uint64_t e = 0; e < n; ++e)
            vals[i][e] = p[e] = (float)uniform(&rng, range[i][0], range[i][1]);
    }
    *(float *)(void *)ops_ptr(&mem, OPS_INIT, &tt) = 5.0f;
    ops_memory_snapshot(&mem);
    DML_ADAM_OPTIMIZER_OPERATOR_DESC d = {ops_tensor_desc(&tx),
                                          ops_tensor_desc(&tm),
                                          ops_tensor_desc(&tv),
                                          ops_tensor_desc(&tg),
                                          ops_tensor_desc(&tt),
                                          ops_tensor_desc(&ox),
                                          ops_tensor_desc(&om),
                                          ops_tensor_desc(&ov),
                                          0.01f,
                                          0.9f,
                                          0.999f,
                                          1e-8f};
    DML_OPERATOR_DESC op = {DML_OPERATOR_ADAM_OPTIMIZER, &d};
    const char *stage = NULL;
    HRESULT hr = ops_run_device(&op, &mem, ins, 5, outs, 3, OPS_SUBMIT_DEFAULT, &stage);
    cr_assert_eq(hr, S_OK, "%s: %s", stage, dmlcl_last_error());
    adam_case ac = {"adam in place", F32, {2, 3, 4, 7}, 5, 0.01f, 0.9f, 0.999f, 1e-8f, PACKED};
    adam_want w = adam_expect(&ac, n, vals[0], vals[1], vals[2], vals[3]);
    const double *want[3] = {w.x, w.m, w.v}, *tol[3] = {w.tx, w.tm, w.tv};
    for (int o = 0; o < 3; ++o) {
        const float *p = (const float *)(const void *)ops_ptr(&mem, OPS_GOT, outs[o]);
        for (uint64_t e = 0; e < n; ++e)
            cr_assert(fabs(p[e] - want[o][e]) <= tol[o][e], "%s element %llu: got %.9g, want %.9g",
                      outs[o]->name, (unsigned long long)e, p[e], want[o][e]);
    }
    adam_free(&w);
    for (int i = 0; i < 4; ++i)
        free(vals[i]);
    ops_memory_release(&mem);
}
