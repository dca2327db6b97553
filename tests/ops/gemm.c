/* SPDX-License-Identifier: MIT */
/*
 * gemm.c: DirectML's GEMM on the device against the C reference (tests/ref/ref_gemm.c),
 * FLOAT32 and FLOAT16, through every kernel the launch chooses (CPU blocks where B runs
 * along n, dot products where A and B run along k, the edge paths; the GPU tiles with
 * DMLCL_DEVICE_CLASS=gpu).
 *
 * Random cases: ranks 2..8 (batch dimensions of sizes 1..3), M, N, K from 1 to 40 (now and
 * then up to 90), TransA and TransB, every tensor packed, padded, transposed by strides or
 * (inputs) broadcast by zero strides, C present in half the cases, Alpha and Beta from
 * {1, -1, 0.5, 2, 0.125, 0}, a fused activation in a third of the FLOAT32 cases (RELU or
 * SIGMOID: slopes at most 1, so the accumulation bound carries through); input values in [-4, 4],
 * and in a tenth of the cases a few NaN, infinities and -0.0. Outputs compare within 2·K ULP (+1
 * for alpha, +1 for C; reference/precision.md), or within the reference's accumulation bound where
 * the sum cancels, plus the activation's tolerance. Fixed cases: a known product with C and alpha,
 * beta, a 4-D batched product against hand-computed values; larger shapes that take the vector
 * paths (DMLCL_GEMM_LARGE=1 adds a sweep of them). Failures print the seed; DMLCL_TEST_SEED replays
 * a run, DMLCL_TEST_CASE=<n> one case.
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
#include "ref_gemm.h"

#define GEMM_DEFAULT_SEED 0x646D6C636C47454Dull
#define GEMM_MAX_OUT 4096
#define GEMM_WIDE_OUT 40000 /* tile_configs' cases */
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16

static const char *const names[3] = {"ATensor", "BTensor", "CTensor"};

/* Fused activations of slope at most 1 (parameters in [0.25, 1]): the epilogue's wiring (the
 * activations themselves are the activation suite's, cl/activation.cl being shared); each
 * one a kernel variant per type, so a few. */
static const struct {
    ref_act act;
    DML_OPERATOR_TYPE type;
} fusable[] = {{REF_ACT_RELU, DML_OPERATOR_ACTIVATION_RELU},
               {REF_ACT_SIGMOID, DML_OPERATOR_ACTIVATION_SIGMOID}};

/* The fused activations' descriptors: two NULL tensors, then up to two FLOATs. */
typedef struct act_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_desc;

typedef struct gemm_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank, m, n, k;
    bool trans_a, trans_b, has_c, specials;
    ops_submit submit;
    ops_tensor t[3], out;
    ops_layout layout[4];
    float alpha, beta;
    int fused; /* fusable[] index, or -1 */
    double p[2];
    act_desc act;
    DML_OPERATOR_DESC fused_desc;
    DML_GEMM_OPERATOR_DESC d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    double bound[GEMM_WIDE_OUT];
} gemm_case;

static ops_seed run_seed = OPS_SEED(GEMM_DEFAULT_SEED);

static uint32_t dim(ref_rng *rng)
{
    return ref_rng_chance(rng, 10) ? 41 + (uint32_t)ref_rng_below(rng, 50)
                                   : 1 + (uint32_t)ref_rng_below(rng, 40);
}

/* tile_configs' M and N: whole GPU tiles of 64 and 128 and one more, a tile and a few, and
 * anything up to 300 (several tiles and a partial one in every configuration). */
static uint32_t wide_dim(ref_rng *rng)
{
    static const uint32_t whole[] = {64, 128, 129, 192, 256, 257, 131, 65};
    return ref_rng_chance(rng, 40) ? whole[ref_rng_below(rng, COUNT_OF(whole))]
                                   : 1 + (uint32_t)ref_rng_below(rng, 300);
}

/* K of tile_configs: below, at and past the steps of 4, 8 and 16, and long. */
static uint32_t wide_k(ref_rng *rng)
{
    static const uint32_t ks[] = {1, 3, 7, 8, 9, 16, 17, 31, 64, 100, 129};
    return ks[ref_rng_below(rng, COUNT_OF(ks))];
}

/* A random case; wide: M and N of several GPU tiles (tile_configs), else small shapes. */
static void gemm_generate(gemm_case *c, ref_rng *rng, DML_TENSOR_DATA_TYPE type, bool wide)
{
    c->type = type;
    c->rank = ref_rng_chance(rng, 25) ? 3 + (uint32_t)ref_rng_below(rng, 6)
                                      : 2 + (uint32_t)ref_rng_below(rng, 3);
    uint32_t batch[REF_MAX_DIMS];
    uint64_t batches = 1;
    for (uint32_t i = 0; i + 2 < c->rank; ++i) {
        batch[i] = batches < 8 ? 1 + (uint32_t)ref_rng_below(rng, 3) : 1;
        batches *= batch[i];
    }
    const uint64_t most = wide ? GEMM_WIDE_OUT : GEMM_MAX_OUT;
    do {
        c->m = wide ? wide_dim(rng) : dim(rng);
        c->n = wide ? wide_dim(rng) : dim(rng);
        c->k = wide ? wide_k(rng) : dim(rng);
    } while (batches * ((uint64_t)c->m * c->n + (uint64_t)c->k * (c->m + c->n)) > 3 * most ||
             batches * c->m * c->n > most);
    c->trans_a = ref_rng_chance(rng, 50);
    c->trans_b = ref_rng_chance(rng, 50);
    c->has_c = ref_rng_chance(rng, 50);
    c->specials = ref_rng_chance(rng, 10);
    uint32_t sa[REF_MAX_DIMS], sb[REF_MAX_DIMS], so[REF_MAX_DIMS];
    memcpy(sa, batch, sizeof batch);
    memcpy(sb, batch, sizeof batch);
    memcpy(so, batch, sizeof batch);
    uint32_t r = c->rank;
    sa[r - 2] = c->trans_a ? c->k : c->m;
    sa[r - 1] = c->trans_a ? c->m : c->k;
    sb[r - 2] = c->trans_b ? c->n : c->k;
    sb[r - 1] = c->trans_b ? c->k : c->n;
    so[r - 2] = c->m;
    so[r - 1] = c->n;
    ops_random_tensor(&c->t[0], rng, names[0], false, type, r, sa, &c->layout[0]);
    ops_random_tensor(&c->t[1], rng, names[1], false, type, r, sb, &c->layout[1]);
    if (c->has_c)
        ops_random_tensor(&c->t[2], rng, names[2], false, type, r, so, &c->layout[2]);
    ops_random_tensor(&c->out, rng, "OutputTensor", true, type, r, so, &c->layout[3]);
    static const float scalars[] = {1, -1, 0.5f, 2, 0.125f, 0};
    c->alpha = ref_rng_chance(rng, 50) ? 1 : scalars[ref_rng_below(rng, COUNT_OF(scalars))];
    c->beta = scalars[ref_rng_below(rng, COUNT_OF(scalars))];
    /* Activations on FLOAT32 only: each pair of type and activation is a program to build. */
    c->fused =
        type == F32 && ref_rng_chance(rng, 33) ? (int)ref_rng_below(rng, COUNT_OF(fusable)) : -1;
    c->p[0] = 0.25 + (double)ref_rng_below(rng, 4) / 4;
    c->p[1] = 0.25 + (double)ref_rng_below(rng, 4) / 4;
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    c->act = (act_desc){NULL, NULL, {(FLOAT)c->p[0], (FLOAT)c->p[1]}};
    if (c->fused >= 0)
        c->fused_desc = (DML_OPERATOR_DESC){fusable[c->fused].type, &c->act};
    c->d = (DML_GEMM_OPERATOR_DESC){
        ops_tensor_desc(&c->t[0]),
        ops_tensor_desc(&c->t[1]),
        c->has_c ? ops_tensor_desc(&c->t[2]) : NULL,
        ops_tensor_desc(&c->out),
        c->trans_a ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
        c->trans_b ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
        c->alpha,
        c->beta,
        c->fused >= 0 ? &c->fused_desc : NULL};
    c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GEMM, &c->d};
}

static void gemm_place(gemm_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    for (int k = 0; k < (c->has_c ? 3 : 2); ++k)
        ops_memory_place(&c->mem, rng, &c->t[k], k > 0 && ref_rng_chance(rng, 50));
    ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
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

/* Values in [-4, 4] with 10 significant bits (FLOAT16 holds them); with specials, one in 50 a
 * NaN, an infinity or -0.0. */
static void gemm_fill(gemm_case *c, ref_rng *rng)
{
    size_t w = ref_type_size(c->type);
    for (int k = 0; k < (c->has_c ? 3 : 2); ++k) {
        ops_tensor *t = &c->t[k];
        uint64_t slots = t->buffer.TotalTensorSizeInBytes / w;
        unsigned char *p = ops_ptr(&c->mem, OPS_INIT, t);
        for (uint64_t s = 0; s < slots; ++s) {
            double v = ((double)ref_rng_below(rng, 2049) - 1024) / 256.0;
            if (c->specials && ref_rng_chance(rng, 2)) {
                static const double special[3] = {NAN, INFINITY, -0.0};
                v = special[ref_rng_below(rng, 3)];
                if (ref_rng_chance(rng, 50))
                    v = -v;
            }
            put(c->type, p + s * w, v);
        }
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor v[3];
    for (int k = 0; k < (c->has_c ? 3 : 2); ++k)
        v[k] = ops_view(&c->mem, OPS_INIT, &c->t[k]);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok =
        ref_gemm(&v[0], &v[1], c->has_c ? &v[2] : NULL, c->trans_a, c->trans_b, c->alpha, c->beta,
                 c->fused >= 0 ? fusable[c->fused].act : REF_ACT_NONE, c->p, &out, c->bound);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
}

static const char *gemm_describe(const gemm_case *c, char *buf, size_t len)
{
    char head[512], t[4][512];
    for (int k = 0; k < 3; ++k)
        if (k < 2 || c->has_c)
            ops_tensor_describe(&c->t[k], t[k], sizeof t[k]);
        else
            snprintf(t[k], sizeof t[k], "CTensor absent");
    ops_tensor_describe(&c->out, t[3], sizeof t[3]);
    snprintf(buf, len,
             "%s\n  %s; M %u N %u K %u; TransA %d TransB %d; alpha %g beta %g; fused %s "
             "{%.9g, %.9g}; specials %d; submit %s\n  %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, "GEMM", "gemm", c->test, c->number, c->seed),
             ref_type_name(c->type), c->m, c->n, c->k, c->trans_a, c->trans_b, (double)c->alpha,
             (double)c->beta, c->fused >= 0 ? ref_act_name(fusable[c->fused].act) : "-", c->p[0],
             c->p[1], c->specials, ops_submit_name(c->submit), t[0], t[1], t[2], t[3]);
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
 * only real differences; NaN matches NaN. */
static void accept_tolerance(gemm_case *c)
{
    ref_act act = c->fused >= 0 ? fusable[c->fused].act : REF_ACT_NONE;
    unsigned ulps = ref_gemm_ulps(c->k, c->alpha != 1, c->has_c) +
                    (act != REF_ACT_NONE ? ref_activation_ulps(act) : 0);
    double abs_tol = act != REF_ACT_NONE ? ref_activation_abs(act, c->p) : 0;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    uint64_t at = 0;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        double dx = value_of(c->type, x), dy = value_of(c->type, y);
        bool accept = (isnan(dx) && isnan(dy)) || ref_float_close(c->type, x, y, ulps) ||
                      (isfinite(dx) && isfinite(dy) && fabs(dx - dy) <= c->bound[at] + abs_tol) ||
                      ref_float_close(c->type, x, y, 1);
        if (accept)
            ref_put(&g, coord, x);
        ++at;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void gemm_run(gemm_case *c)
{
    static char what[8192], diff[4096];
    ops_tensor *inputs[3] = {&c->t[0], &c->t[1], c->has_c ? &c->t[2] : NULL};
    ops_tensor *outputs[1] = {&c->out};
    ops_tensor *all[4] = {&c->out, &c->t[0], &c->t[1], &c->t[2]};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 3, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", gemm_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, c->has_c ? 4 : 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", gemm_describe(c, what, sizeof what), bad,
              diff);
}

/* count random cases; tunings (NULL: none): DMLCL_TUNING for case n is tunings[n % ntunings],
 * with wide shapes. */
static void gemm_cases(const char *test, unsigned count, const char *const *tunings,
                       unsigned ntunings)
{
    static gemm_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        gemm_generate(&c, &rng, n % 3 == 2 ? F16 : F32, tunings != NULL);
        gemm_place(&c, &rng);
        gemm_fill(&c, &rng);
        char *saved = tunings ? ops_tuning_set(tunings[n % ntunings]) : NULL;
        gemm_run(&c);
        if (tunings)
            ops_tuning_restore(saved);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(gemm);

Test(gemm, random)
{
    gemm_cases("random", 80, NULL, 0);
}

/* Shapes of several GPU tiles and a partial one, under each of gemm_tiles' configurations
 * (cl/gemm.cl): the launch's own choice (a work-group per compute unit), then each forced
 * (gemm_tile_fill=1: no shrinking on a device of under 100 units), last with a thousand times
 * the groups wanted (4 x 4 blocks almost always), the same with k steps grown up to 32 (the 32 x 32
 * tiles' where K reaches it) and not grown: blocks of 8 x 8, 8 x 4, 4 x 8 and 4 x 4, k steps of 8,
 * 16, 4 and 32, work-groups of 16 x 16, 8 x 16 and 16 x 8 items. Every layout, C, alpha and beta,
 * FLOAT16, specials and activations as the random cases. On a CPU the same shapes go through the
 * CPU kernels (the tunings do not apply). */
Test(gemm, tile_configs)
{
    static const char *const tunings[] = {
        "gemm_tile_fill=100",
        "gemm_tile_block.0=8,gemm_tile_block.1=8,gemm_tile_fill=1",
        "gemm_tile_block.0=8,gemm_tile_block.1=4,gemm_tile_k=16,gemm_tile_fill=1",
        "gemm_tile_block.0=4,gemm_tile_block.1=8,gemm_tile_k=4,gemm_tile_fill=1",
        "gemm_tile_block.0=4,gemm_tile_block.1=4,gemm_tile_fill=1",
        "gemm_tile_items.0=8,gemm_tile_items.1=16,gemm_tile_fill=1",
        "gemm_tile_items.0=16,gemm_tile_items.1=8,gemm_tile_block.1=4,gemm_tile_fill=1",
        "gemm_tile_fill=100000",
        "gemm_tile_k_max=32,gemm_tile_fill=100000",
        "gemm_tile_k_max=8,gemm_tile_fill=100000",
    };
    /* 3 cases a configuration; 10 of them, so that each takes float32 and FLOAT16 cases. */
    gemm_cases("tile_configs", 30, tunings, COUNT_OF(tunings));
}

/* B packed into the temporary resource at every dispatch (src/launch_gemm.c pack_each): the
 * random cases with the rule's thresholds at their least (from M 1, every row a set's ways
 * full, any B gemm_dots would read), so that every CPU case packs its B, one packed B per batch
 * coordinate B moves along (broadcast batch dimensions, transposed and strided B, FLOAT16 read
 * into float once, the last block's columns past N); and the defaults. The pack changes nothing
 * in gemm_blocks' order of summation. On GPUs the tunings do not apply. */
Test(gemm, packed_at_dispatch)
{
    static const char *const tunings[] = {
        "gemm_pack_min_m=1,gemm_pack_way_bytes=128,gemm_pack_ways=1,gemm_pack_dots_bytes=1",
        "gemm_pack_min_m=64",
    };
    gemm_cases("packed_at_dispatch", 40, tunings, COUNT_OF(tunings));
}

/* ---- Fixed cases ------------------------------------------------------------------- */

/* A {2, 3} x B {3, 2} + C, alpha 2, beta -1: hand-computed. */
Test(gemm, known_values)
{
    UINT as[2] = {2, 3}, bs[2] = {3, 2}, os[2] = {2, 2};
    DML_BUFFER_TENSOR_DESC ba = {F32, 0, 2, as, NULL, 24, 0}, bb = {F32, 0, 2, bs, NULL, 24, 0},
                           bo = {F32, 0, 2, os, NULL, 16, 0};
    DML_TENSOR_DESC ta = {DML_TENSOR_TYPE_BUFFER, &ba}, tb = {DML_TENSOR_TYPE_BUFFER, &bb},
                    to = {DML_TENSOR_TYPE_BUFFER, &bo};
    DML_GEMM_OPERATOR_DESC d = {
        &ta,  &tb,   &to, &to, DML_MATRIX_TRANSFORM_NONE, DML_MATRIX_TRANSFORM_NONE,
        2.0f, -1.0f, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GEMM, &d};
    const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12}, c[4] = {1, 2, 3, 4};
    /* A x B = {{58, 64}, {139, 154}}; 2 * that - C. */
    const float want[4] = {115, 126, 275, 304};
    float out[4] = {0};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &co);
    dmlcl_host_tensor ins[3] = {{(void *)a, 24}, {(void *)b, 24}, {(void *)c, 16}}, o = {out, 16};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(co, 3, ins, 1, &o);
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(op);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    for (int i = 0; i < 4; ++i)
        cr_expect_eq(out[i], want[i], "out[%d] = %g, want %g", i, (double)out[i], (double)want[i]);
}

/* Beta 0 with C present: the formula as written (docs/operators.md): C is read, 0 * NaN and
 * 0 * infinity give NaN, 0 * 5 gives 0. */
Test(gemm, beta_zero_reads_c)
{
    UINT s2[2] = {2, 2};
    DML_BUFFER_TENSOR_DESC bt = {F32, 0, 2, s2, NULL, 16, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &bt};
    DML_GEMM_OPERATOR_DESC d = {
        &t, &t, &t, &t, DML_MATRIX_TRANSFORM_NONE, DML_MATRIX_TRANSFORM_NONE, 1.0f, 0.0f, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GEMM, &d};
    const float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {NAN, INFINITY, 5, -0.0f};
    float out[4] = {0};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &co);
    dmlcl_host_tensor ins[3] = {{(void *)a, 16}, {(void *)b, 16}, {(void *)c, 16}}, o = {out, 16};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(co, 3, ins, 1, &o);
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(op);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_expect(isnan(out[0]) && isnan(out[1]), "0 * NaN, 0 * inf: %g %g", (double)out[0],
              (double)out[1]);
    cr_expect_eq(out[2], 3.0f);
    cr_expect_eq(out[3], 4.0f);
}

/* Shapes whose blocks are whole (the vector paths of every kernel), FLOAT32 packed: NN, NT,
 * TN, and a batched NT; with DMLCL_GEMM_LARGE=1 also larger ones. Values exact in float (small
 * integers), so every order of summation gives the reference's bytes. */
static void large_case(uint32_t batch, uint32_t m, uint32_t n, uint32_t k, bool ta, bool tb)
{
    static gemm_case c;
    memset(&c, 0, sizeof c);
    ref_rng rng = ops_case_rng(&run_seed, "large", m * 7 + n * 3 + k);
    c.test = "large";
    c.type = F32;
    c.rank = 3;
    c.m = m;
    c.n = n;
    c.k = k;
    c.trans_a = ta;
    c.trans_b = tb;
    uint32_t sa[3] = {batch, ta ? k : m, ta ? m : k}, sb[3] = {batch, tb ? n : k, tb ? k : n},
             so[3] = {batch, m, n};
    ops_tensor_init(&c.t[0], names[0], false, F32, 3, sa, NULL, 0, 0);
    ops_tensor_init(&c.t[1], names[1], false, F32, 3, sb, NULL, 0, 0);
    ops_tensor_init(&c.out, "OutputTensor", true, F32, 3, so, NULL, 0, 0);
    c.alpha = 1;
    c.fused = -1;
    c.d = (DML_GEMM_OPERATOR_DESC){ops_tensor_desc(&c.t[0]),
                                   ops_tensor_desc(&c.t[1]),
                                   NULL,
                                   ops_tensor_desc(&c.out),
                                   ta ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
                                   tb ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
                                   1.0f,
                                   0.0f,
                                   NULL};
    c.desc = (DML_OPERATOR_DESC){DML_OPERATOR_GEMM, &c.d};
    memset(&c.mem, 0, sizeof c.mem);
    ops_memory_place(&c.mem, &rng, &c.t[0], false);
    ops_memory_place(&c.mem, &rng, &c.t[1], false);
    ops_memory_place(&c.mem, &rng, &c.out, false);
    ops_memory_alloc(&c.mem, &rng);
    for (int x = 0; x < 2; ++x) {
        float *p = (float *)(void *)ops_ptr(&c.mem, OPS_INIT, &c.t[x]);
        uint64_t count = c.t[x].buffer.TotalTensorSizeInBytes / 4;
        for (uint64_t i = 0; i < count; ++i)
            p[i] = (float)((int)ref_rng_below(&rng, 17) - 8);
    }
    ops_memory_snapshot(&c.mem);
    ref_tensor va = ops_view(&c.mem, OPS_INIT, &c.t[0]), vb = ops_view(&c.mem, OPS_INIT, &c.t[1]),
               vo = ops_view(&c.mem, OPS_EXPECT, &c.out);
    cr_assert(ref_gemm(&va, &vb, NULL, ta, tb, 1, 0, REF_ACT_NONE, NULL, &vo, NULL));
    ops_poison_output(&c.mem, &c.out);
    static char what[8192], diff[4096];
    ops_tensor *inputs[3] = {&c.t[0], &c.t[1], NULL}, *outputs[1] = {&c.out};
    ops_tensor *all[3] = {&c.out, &c.t[0], &c.t[1]};
    const char *stage = "";
    HRESULT hr =
        ops_run_device(&c.desc, &c.mem, inputs, 3, outputs, 1, OPS_SUBMIT_COUNT - 1, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s", gemm_describe(&c, what, sizeof what), stage,
              dmlcl_last_error());
    uint64_t bad = ops_compare(&c.mem, all, 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", gemm_describe(&c, what, sizeof what),
              bad, diff);
    ops_memory_release(&c.mem);
}

Test(gemm, whole_blocks)
{
    large_case(1, 16, 64, 20, false, false);
    large_case(1, 16, 64, 20, false, true);
    large_case(1, 16, 64, 20, true, false);
    large_case(2, 9, 33, 17, false, true);
    large_case(1, 18, 128, 20, false, false); /* 6 x 64 blocks (AVX-512), all whole */
    const char *large = getenv("DMLCL_GEMM_LARGE");
    if (large && *large == '1') {
        large_case(1, 384, 512, 384, false, false);
        large_case(1, 384, 512, 384, false, true);
        large_case(12, 128, 128, 64, false, true);
        large_case(1, 257, 1000, 129, true, true);
    }
}

/* ---- Graphs ------------------------------------------------------------------------ */

/* {IDENTITY(Bt {N, K} read as {K, N}) -> GEMM(A, .)}: the transpose fused into GEMM's reads
 * (never stored), and with keep its output a graph output too (stored, then read packed). */
static void run_transpose_graph(bool keep, const float *a, const float *bt, float *out, float *b,
                                UINT m, UINT n, UINT k)
{
    UINT as[2] = {m, k}, ts[2] = {k, n}, t_strides[2] = {1, k}, os[2] = {m, n};
    DML_BUFFER_TENSOR_DESC ba = {F32, 0, 2, as, NULL, (UINT64)m * k * 4, 0},
                           bt_in = {F32, 0, 2, ts, t_strides, (UINT64)n * k * 4, 0},
                           bt_out = {F32, 0, 2, ts, NULL, (UINT64)n * k * 4, 0},
                           bo = {F32, 0, 2, os, NULL, (UINT64)m * n * 4, 0};
    DML_TENSOR_DESC ta = {DML_TENSOR_TYPE_BUFFER, &ba}, ti = {DML_TENSOR_TYPE_BUFFER, &bt_in},
                    tt = {DML_TENSOR_TYPE_BUFFER, &bt_out}, to = {DML_TENSOR_TYPE_BUFFER, &bo};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {&ti, &tt, NULL};
    DML_GEMM_OPERATOR_DESC gd = {
        &ta,  &tt,  NULL, &to, DML_MATRIX_TRANSFORM_NONE, DML_MATRIX_TRANSFORM_NONE,
        1.0f, 0.0f, NULL};
    DML_OPERATOR_DESC d0 = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id}, d1 = {DML_OPERATOR_GEMM, &gd};
    dmlcl_device *dev = ops_device();
    dmlcl_operator *ops[2];
    cr_assert_eq(dmlcl_operator_create(dev, &d0, &ops[0]), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_create(dev, &d1, &ops[1]), S_OK, "%s", dmlcl_last_error());
    DML_OPERATOR_GRAPH_NODE_DESC nd[2] = {{(IDMLOperator *)ops[0], "transpose"},
                                          {(IDMLOperator *)ops[1], "gemm"}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &nd[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &nd[1]}};
    DML_INPUT_GRAPH_EDGE_DESC ie[2] = {{0, 1, 0, NULL}, {1, 0, 0, NULL}};
    DML_GRAPH_EDGE_DESC ins[2] = {{DML_GRAPH_EDGE_TYPE_INPUT, &ie[0]},
                                  {DML_GRAPH_EDGE_TYPE_INPUT, &ie[1]}};
    DML_OUTPUT_GRAPH_EDGE_DESC oe[2] = {{1, 0, 0, NULL}, {0, 0, 1, NULL}};
    DML_GRAPH_EDGE_DESC outs[2] = {{DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[0]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[1]}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC me = {0, 0, 1, 1, NULL};
    DML_GRAPH_EDGE_DESC mid = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me};
    UINT n_out = keep ? 2 : 1;
    DML_GRAPH_DESC g = {2, n_out, 2, nodes, 2, ins, n_out, outs, 1, &mid};
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_graph_compile(dev, &g, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_host_tensor hi[2] = {{(void *)a, (size_t)m * k * 4}, {(void *)bt, (size_t)n * k * 4}},
                      ho[2] = {{out, (size_t)m * n * 4}, {b, (size_t)n * k * 4}};
    cr_assert_eq(dmlcl_compiled_operator_execute(c, 2, hi, n_out, ho), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(ops[0]);
    dmlcl_operator_release(ops[1]);
}

/* Packed at every dispatch by the default rule (src/launch_gemm.c pack_each), on a CPU: B
 * transposed with K under gemm_dot_min_k, one B a batch coordinate; B's rows 4 KiB apart, 13 of
 * them a set of a 128 KiB way (K 416); B transposed, 2.25 MiB, read by gemm_dots otherwise.
 * Large for the slow drivers (tests/drivers.cmake DMLCL_OPS_LARGE). */
Test(gemm, packed_by_the_default_rule)
{
    large_case(3, 64, 40, 70, false, true);
    large_case(1, 64, 1024, 416, false, false);
    large_case(1, 64, 1536, 384, false, true);
}

Test(gemm, graph_transpose_fused_equals_apart)
{
    const UINT m = 19, n = 45, k = 70;
    float *a = malloc((size_t)m * k * 4), *bt = malloc((size_t)n * k * 4);
    float *fused = malloc((size_t)m * n * 4), *apart = malloc((size_t)m * n * 4);
    float *b = malloc((size_t)n * k * 4);
    ref_rng r = ref_rng_make(ref_mix64(0x67656d6d74ull));
    for (UINT i = 0; i < m * k; ++i)
        a[i] = (float)((double)ref_rng_below(&r, 2001) / 500.0 - 2.0);
    for (UINT i = 0; i < n * k; ++i)
        bt[i] = (float)((double)ref_rng_below(&r, 2001) / 500.0 - 2.0);
    run_transpose_graph(false, a, bt, fused, b, m, n, k);
    run_transpose_graph(true, a, bt, apart, b, m, n, k);
    for (UINT x = 0; x < k; ++x)
        for (UINT y = 0; y < n; ++y)
            cr_assert_eq(b[x * n + y], bt[y * k + x], "the transpose kept apart is wrong");
    for (UINT i = 0; i < m * n; ++i) {
        double want = 0, mag = 0;
        for (UINT x = 0; x < k; ++x) {
            want += (double)a[(i / n) * k + x] * bt[(i % n) * k + x];
            mag += fabs((double)a[(i / n) * k + x] * bt[(i % n) * k + x]);
        }
        cr_assert(fabs(fused[i] - want) <= 2.0 * (k + 1) * 0x1p-24 * mag,
                  "out[%u] = %.9g, want %.9g", i, (double)fused[i], want);
        cr_assert_eq(fused[i], apart[i], "out[%u]: fused %.9g, apart %.9g (one summation order)", i,
                     (double)fused[i], (double)apart[i]);
    }
    free(a);
    free(bt);
    free(fused);
    free(apart);
    free(b);
}
