/* SPDX-License-Identifier: MIT */
/*
 * elementwise_activation.c: DirectML's activations (ACTIVATION_*), PARAMETERIZED_RELU and
 * ELEMENT_WISE_ADD1 with a fused activation on the device against the C reference
 * (tests/ref/ref_activation.c), every type each operator takes.
 *
 * Random cases: ranks 1..8, inputs packed, padded, transposed, broadcast or aliasing, outputs
 * packed, padded or transposed, in place, random parameters (scales that are not powers of
 * two, so a kernel's rounding of Beta * x shows), float data half in [-20, 20] (where the
 * functions bend) and half raw bit patterns with NaNs, infinities, -0.0 and subnormals,
 * integer data over the whole type. ADD1 draws one of the fusable activations (or none).
 * Float outputs compare within the activation's tolerance, integers exactly. Fixed cases:
 * integer SHRINK, RELU's -0 and NaN, SOFTSIGN at infinity, a fused description freed after
 * CreateOperator. Failures print the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n>
 * one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "graph_support.h"
#include "harness.h"
#include "ref_activation.h"
#include "ref_broadcast.h"

#define ACT_DEFAULT_SEED 0x646D6C636C414354ull
#define ACT_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

typedef struct act_kind {
    ref_act act;
    DML_OPERATOR_TYPE type; /* ELEMENT_WISE_ADD1 for the ADD1 kind */
    int n_params;
    DML_TENSOR_DATA_TYPE types[8];
} act_kind;

/* DirectML's type tables (every feature level up to 6.4). */
static const act_kind kinds[] = {
    {REF_ACT_CELU, DML_OPERATOR_ACTIVATION_CELU, 1, {F32, F16}},
    {REF_ACT_ELU, DML_OPERATOR_ACTIVATION_ELU, 1, {F32, F16}},
    {REF_ACT_GELU, DML_OPERATOR_ACTIVATION_GELU, 0, {F32, F16}},
    {REF_ACT_HARD_SIGMOID, DML_OPERATOR_ACTIVATION_HARD_SIGMOID, 2, {F32, F16}},
    {REF_ACT_HARD_SWISH, DML_OPERATOR_ACTIVATION_HARD_SWISH, 2, {F32, F16}},
    {REF_ACT_IDENTITY, DML_OPERATOR_ACTIVATION_IDENTITY, 0, {F32, F16}},
    {REF_ACT_LEAKY_RELU, DML_OPERATOR_ACTIVATION_LEAKY_RELU, 1, {F32, F16}},
    {REF_ACT_LINEAR, DML_OPERATOR_ACTIVATION_LINEAR, 2, {F32, F16}},
    {REF_ACT_PARAMETRIC_SOFTPLUS, DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS, 2, {F32, F16}},
    {REF_ACT_RELU, DML_OPERATOR_ACTIVATION_RELU, 0, {F32, F16, I32, I16, I8}},
    {REF_ACT_SCALED_ELU, DML_OPERATOR_ACTIVATION_SCALED_ELU, 2, {F32, F16}},
    {REF_ACT_SCALED_TANH, DML_OPERATOR_ACTIVATION_SCALED_TANH, 2, {F32, F16}},
    {REF_ACT_SHRINK, DML_OPERATOR_ACTIVATION_SHRINK, 2, {F32, F16, I32, I16, I8, U32, U16, U8}},
    {REF_ACT_SIGMOID, DML_OPERATOR_ACTIVATION_SIGMOID, 0, {F32, F16}},
    {REF_ACT_SOFTPLUS, DML_OPERATOR_ACTIVATION_SOFTPLUS, 1, {F32, F16}},
    {REF_ACT_SOFTSIGN, DML_OPERATOR_ACTIVATION_SOFTSIGN, 0, {F32, F16}},
    {REF_ACT_SWISH, DML_OPERATOR_ACTIVATION_SWISH, 1, {F32, F16}},
    {REF_ACT_TANH, DML_OPERATOR_ACTIVATION_TANH, 0, {F32, F16}},
    {REF_ACT_THRESHOLDED_RELU, DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU, 1, {F32, F16}},
    {REF_ACT_PARAMETERIZED_RELU,
     DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU,
     0,
     {F32, F16, I32, I16, I8}},
    {REF_ACT_NONE, DML_OPERATOR_ELEMENT_WISE_ADD1, 0, {F32, F16, I32, I16, I8, U32, U16, U8}},
};

/* The activations DirectML fuses, for ADD1's FusedActivation (kinds[] indices). */
static const int fusable[] = {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18};

static unsigned type_count(const act_kind *k)
{
    unsigned n = 0;
    while (n < COUNT_OF(k->types) && k->types[n])
        ++n;
    return n;
}

/* Every one-input activation's descriptor: the tensors, then up to two FLOATs. */
typedef struct act_desc {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT param[2];
} act_desc;

typedef struct act_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    const act_kind *kind;
    const act_kind *fused; /* ADD1: the fused activation's kind, or NULL */
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    ops_layout layout[3];
    bool in_place;
    ops_submit submit;
    ops_tensor a, b, out;
    double p[2];
    act_desc act;
    DML_OPERATOR_DESC fused_desc;
    union {
        DML_ELEMENT_WISE_ADD1_OPERATOR_DESC add1;
        DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC prelu;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} act_case;

static ops_seed run_seed = OPS_SEED(ACT_DEFAULT_SEED);

static bool two_inputs(const act_case *c)
{
    return c->kind->act == REF_ACT_PARAMETERIZED_RELU ||
           c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1;
}

/* The activation whose parameters the case draws: the row's own, or ADD1's fused one. */
static ref_act case_act(const act_case *c)
{
    if (c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1)
        return c->fused ? c->fused->act : REF_ACT_NONE;
    return c->kind->act;
}

/* A parameter that is rarely a power of two: k / 7 or k / 13. */
static double draw(ref_rng *rng, int lo, int hi)
{
    return (double)(float)((double)ref_rng_range(rng, lo, hi) / (ref_rng_chance(rng, 50) ? 7 : 13));
}

static void draw_params(act_case *c, ref_rng *rng)
{
    ref_act act = case_act(c);
    c->p[0] = draw(rng, -30, 30);
    c->p[1] = draw(rng, -30, 30);
    switch (act) {
    case REF_ACT_CELU:
        if (c->p[0] == 0)
            c->p[0] = 1;
        break;
    case REF_ACT_SOFTPLUS: c->p[0] = (double)(float)(1 + fabs(c->p[0])); break;
    case REF_ACT_SCALED_ELU:
        if (ref_rng_chance(rng, 50)) {
            c->p[0] = 1.67326319217681884765625; /* DirectMLX's defaults */
            c->p[1] = 1.05070102214813232421875;
        }
        break;
    case REF_ACT_SHRINK:
        if (!ref_type_is_float(c->type)) { /* integer-sized thresholds, quarter biases */
            c->p[0] = (double)ref_rng_range(rng, -400, 400) / 4;
            c->p[1] = (double)ref_rng_range(rng, -200, 600) / 3;
            c->p[1] = (double)(float)c->p[1];
        }
        break;
    default: break;
    }
}

static void act_descs(act_case *c)
{
    const DML_TENSOR_DESC *a = ops_tensor_desc(&c->a), *out = ops_tensor_desc(&c->out);
    if (c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1) {
        c->act = (act_desc){NULL, NULL, {(FLOAT)c->p[0], (FLOAT)c->p[1]}};
        c->fused_desc =
            (DML_OPERATOR_DESC){c->fused ? c->fused->type : DML_OPERATOR_INVALID, &c->act};
        c->d.add1 = (DML_ELEMENT_WISE_ADD1_OPERATOR_DESC){a, ops_tensor_desc(&c->b), out,
                                                          c->fused ? &c->fused_desc : NULL};
        c->desc = (DML_OPERATOR_DESC){c->kind->type, &c->d};
    } else if (c->kind->act == REF_ACT_PARAMETERIZED_RELU) {
        c->d.prelu =
            (DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC){a, ops_tensor_desc(&c->b), out};
        c->desc = (DML_OPERATOR_DESC){c->kind->type, &c->d};
    } else {
        c->act = (act_desc){a, out, {(FLOAT)c->p[0], (FLOAT)c->p[1]}};
        c->desc = (DML_OPERATOR_DESC){c->kind->type, &c->act};
    }
}

static void act_generate(act_case *c, ref_rng *rng, const act_kind *kind, DML_TENSOR_DATA_TYPE type)
{
    uint32_t sizes[REF_MAX_DIMS];
    c->kind = kind;
    c->type = type;
    if (kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1 && ref_type_is_float(type) &&
        ref_rng_chance(rng, 85))
        c->fused = &kinds[fusable[ref_rng_below(rng, COUNT_OF(fusable))]];
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, ACT_MAX_ELEMENTS);
    c->in_place = ref_rng_chance(rng, 15);
    const char *first =
        two_inputs(c) && kind->act != REF_ACT_PARAMETERIZED_RELU ? "ATensor" : "InputTensor";
    if (c->in_place) {
        uint32_t strides[REF_MAX_DIMS];
        c->layout[0] = c->layout[2] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->a, first, false, type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->out, "OutputTensor", true, type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->a, rng, first, false, type, c->rank, sizes, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, sizes, &c->layout[2]);
    }
    if (two_inputs(c))
        ops_random_tensor(&c->b, rng,
                          kind->act == REF_ACT_PARAMETERIZED_RELU ? "SlopeTensor" : "BTensor",
                          false, type, c->rank, sizes, &c->layout[1]);
    draw_params(c, rng);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    act_descs(c);
}

static void act_place(act_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->a, false);
    if (two_inputs(c))
        ops_memory_place(&c->mem, rng, &c->b, ref_rng_chance(rng, 30));
    if (c->in_place) {
        c->out.slot = c->a.slot;
        c->out.offset = c->a.offset;
        c->out.bind_size = c->a.bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
}

/* Distinct raw values, then half of a float tensor's slots in [-20, 20]. */
static void fill(act_case *c, ref_rng *rng, ops_tensor *t)
{
    size_t w = ref_type_size(c->type);
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, t);
    ops_fill_distinct(rng, c->type, p, slots);
    if (!ref_type_is_float(c->type))
        return;
    for (uint64_t s = 0; s < slots; ++s) {
        if (!ref_rng_chance(rng, 50))
            continue;
        double v = (double)ref_rng_range(rng, -2000000, 2000000) / 100000.0;
        if (c->type == F16) {
            uint16_t h = ref_half_from_double(v);
            memcpy(p + s * w, &h, 2);
        } else {
            float f = (float)v;
            memcpy(p + s * w, &f, 4);
        }
    }
}

static void act_fill(act_case *c, ref_rng *rng)
{
    fill(c, rng, &c->a);
    if (two_inputs(c))
        fill(c, rng, &c->b);
    ops_memory_snapshot(&c->mem);
    ref_tensor a = ops_view(&c->mem, OPS_INIT, &c->a), b = ops_view(&c->mem, OPS_INIT, &c->b);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok = c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1
                  ? ref_add1(case_act(c), c->p, &a, &b, &out)
                  : ref_activation(c->kind->act, c->p, &a, two_inputs(c) ? &b : NULL, &out);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static const char *act_describe(const act_case *c, char *buf, size_t len)
{
    char head[512], a[512], b[512], out[512];
    const char *op =
        c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1 ? "ADD1" : ref_act_name(c->kind->act);
    snprintf(
        buf, len,
        "%s\n  %s; fused %s; params {%.9g, %.9g}; layouts %s/%s/%s; %s; submit %s\n  %s\n"
        "  %s\n  %s",
        ops_replay(head, sizeof head, op, "elementwise_activation", c->test, c->number, c->seed),
        ref_type_name(c->type), c->fused ? ref_act_name(c->fused->act) : "-", c->p[0], c->p[1],
        ops_layout_name(c->layout[0]), two_inputs(c) ? ops_layout_name(c->layout[1]) : "-",
        ops_layout_name(c->layout[2]), c->in_place ? "in place" : "apart",
        ops_submit_name(c->submit), ops_tensor_describe(&c->a, a, sizeof a),
        two_inputs(c) ? ops_tensor_describe(&c->b, b, sizeof b) : "",
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

/* Float elements within the tolerance count as equal: the reference's bytes go into what came
 * back, so the byte comparison then sees only real differences. */
static void accept_tolerance(act_case *c)
{
    ref_act act = case_act(c);
    if (c->kind->act == REF_ACT_PARAMETERIZED_RELU)
        act = REF_ACT_PARAMETERIZED_RELU;
    /* ADD1 without an activation is ADD (1 ULP); with one, the activation's tolerance + 1. */
    bool add1 = c->kind->type == DML_OPERATOR_ELEMENT_WISE_ADD1;
    unsigned ulps = ref_activation_ulps(act) + (add1 && act == REF_ACT_NONE);
    double abs_tol = ref_activation_abs(act, c->p);
    if (!ref_type_is_float(c->type))
        return;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    if (ref_element_count(e.rank, e.sizes) == 0)
        return;
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

static void act_run(act_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[2] = {&c->a, &c->b}, *outputs[1] = {&c->out};
    ops_tensor *all[3] = {&c->out, NULL, NULL};
    int n_all = 1;
    if (!c->in_place)
        all[n_all++] = &c->a;
    if (two_inputs(c))
        all[n_all++] = &c->b;
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, two_inputs(c) ? 2 : 1, outputs, 1,
                                c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", act_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", act_describe(c, what, sizeof what), bad,
              diff);
}

static void act_cases(const char *test, unsigned count, const act_kind *kind)
{
    static act_case c;
    long only = ops_only_case();
    unsigned types = type_count(kind);
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        act_generate(&c, &rng, kind, kind->types[n % types]);
        act_place(&c, &rng);
        act_fill(&c, &rng);
        act_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(elementwise_activation);

/* Every type of each operator, twice over (the first cases cycle through the types). */
#define ACT_RANDOM_TEST(name, index, times)                                           \
    Test(elementwise_activation, random_##name)                                       \
    {                                                                                 \
        act_cases("random_" #name, (times)*type_count(&kinds[index]), &kinds[index]); \
    }

ACT_RANDOM_TEST(celu, 0, 2)
ACT_RANDOM_TEST(elu, 1, 2)
ACT_RANDOM_TEST(gelu, 2, 2)
ACT_RANDOM_TEST(hard_sigmoid, 3, 2)
ACT_RANDOM_TEST(hard_swish, 4, 2)
ACT_RANDOM_TEST(identity, 5, 2)
ACT_RANDOM_TEST(leaky_relu, 6, 2)
ACT_RANDOM_TEST(linear, 7, 2)
ACT_RANDOM_TEST(parametric_softplus, 8, 2)
ACT_RANDOM_TEST(relu, 9, 2)
ACT_RANDOM_TEST(scaled_elu, 10, 2)
ACT_RANDOM_TEST(scaled_tanh, 11, 2)
ACT_RANDOM_TEST(shrink, 12, 2)
ACT_RANDOM_TEST(sigmoid, 13, 2)
ACT_RANDOM_TEST(softplus, 14, 2)
ACT_RANDOM_TEST(softsign, 15, 2)
ACT_RANDOM_TEST(swish, 16, 2)
ACT_RANDOM_TEST(tanh, 17, 2)
ACT_RANDOM_TEST(thresholded_relu, 18, 2)
ACT_RANDOM_TEST(parameterized_relu, 19, 2)
ACT_RANDOM_TEST(add1, 20, 3)

/* ---- Fixed cases: the rules the pages leave to the implementation -------------------- */

/* One packed 1-D operator on host memory: `desc` (its tensors set here) reads in (and in2 when
 * not NULL), writes out; each array holds the tensors' TotalTensorSizeInBytes. */
typedef struct packed {
    DML_BUFFER_TENSOR_DESC bufs[3];
    DML_TENSOR_DESC tds[3];
    UINT sizes[1];
} packed;

static const DML_TENSOR_DESC *packed_tensor(packed *p, int i, DML_TENSOR_DATA_TYPE dt, UINT n)
{
    p->sizes[0] = n;
    p->bufs[i] = (DML_BUFFER_TENSOR_DESC){
        dt, DML_TENSOR_FLAG_NONE, 1, p->sizes, NULL, DMLCalcBufferTensorSize(dt, 1, p->sizes, NULL),
        0};
    p->tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &p->bufs[i]};
    return &p->tds[i];
}

static HRESULT run_op(const DML_OPERATOR_DESC *desc, uint64_t bytes, void *in, void *in2, void *out,
                      void (*after_create)(void))
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), desc, &op);
    if (SUCCEEDED(hr) && after_create)
        after_create();
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_host_tensor ins[2] = {{in, bytes}, {in2, bytes}}, o = {out, bytes};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, in2 ? 2 : 1, ins, 1, &o);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

/* A one-input activation of type on n packed elements of dt, parameters a and b. */
static HRESULT run_unary(DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE dt, UINT n, FLOAT a, FLOAT b,
                         void *in, void *out)
{
    packed p;
    act_desc d = {packed_tensor(&p, 0, dt, n), packed_tensor(&p, 1, dt, n), {a, b}};
    DML_OPERATOR_DESC desc = {type, &d};
    return run_op(&desc, p.bufs[0].TotalTensorSizeInBytes, in, NULL, out, NULL);
}

Test(elementwise_activation, shrink_integers)
{
    /* INT8, Bias 2.5, Threshold 1.5: x > 1.5 gives trunc(x - 2.5), x < -1.5 trunc(x + 2.5),
     * else 0; -128 + 2.5 = -125.5 truncates to -125; 127 - 2.5 = 124.5 to 124. */
    int8_t x[8] = {-128, -3, -2, -1, 1, 2, 3, 127}, got[8];
    const int8_t want[8] = {-125, 0, 0, 0, 0, 0, 0, 124};
    cr_assert_eq(
        run_unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_INT8, 8, 2.5f, 1.5f, x, got),
        S_OK, "%s", dmlcl_last_error());
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want[i], "shrink(%d): %d, expected %d", x[i], got[i], want[i]);
    /* A negative Bias pushes results out of the type: they wrap (127 + 10 is -119). */
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_INT8, 8, -10.0f,
                           0.0f, x, got),
                 S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(got[7], -119, "127 - (-10) wraps: %d", got[7]);
    cr_expect_eq(got[0], 118, "-128 + (-10) wraps: %d", got[0]);
    /* UINT32 with a negative Threshold: every value is above it. */
    uint32_t u[4] = {0, 1, 4000000000u, 7}, ug[4];
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_UINT32, 4, 0.75f,
                           -3.0f, u, ug),
                 S_OK, "%s", dmlcl_last_error());
    cr_expect(ug[0] == 0 && ug[1] == 0 && ug[2] == 3999999999u && ug[3] == 6,
              "0 - 0.75 truncates to 0, 4e9 - 0.75 to 3999999999: %u %u %u %u", ug[0], ug[1], ug[2],
              ug[3]);
    /* A NaN or infinite Bias gives 0 where it applies; a NaN Threshold is never crossed. */
    int32_t s[3] = {-5, 0, 5}, sg[3];
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_INT32, 3, INFINITY,
                           1.0f, s, sg),
                 S_OK, "%s", dmlcl_last_error());
    cr_expect(sg[0] == 0 && sg[1] == 0 && sg[2] == 0);
    s[1] = 9;
    cr_assert_eq(
        run_unary(DML_OPERATOR_ACTIVATION_SHRINK, DML_TENSOR_DATA_TYPE_INT32, 3, 1.0f, NAN, s, sg),
        S_OK, "%s", dmlcl_last_error());
    cr_expect(sg[0] == 0 && sg[1] == 0 && sg[2] == 0);
}

Test(elementwise_activation, float_edges)
{
    float x[6] = {-0.0f, NAN, -INFINITY, INFINITY, -1.0f, 2.0f}, got[6];
    /* RELU: -0 gives +0 (max(+0, -0)), NaN stays NaN. */
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_RELU, F32, 6, 0, 0, x, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[0] == 0 && !signbit(got[0]), "relu(-0) is +0");
    cr_expect(isnan(got[1]), "relu(NaN) is NaN");
    cr_expect(got[2] == 0 && got[3] == INFINITY && got[4] == 0 && got[5] == 2);
    /* THRESHOLDED_RELU: NaN > Alpha is false, so 0. */
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU, F32, 6, 1.0f, 0, x, got), S_OK,
                 "%s", dmlcl_last_error());
    cr_expect(got[1] == 0 && got[4] == 0 && got[5] == 2);
    /* SOFTSIGN: the limits at infinity. */
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SOFTSIGN, F32, 6, 0, 0, x, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[2] == -1 && got[3] == 1 && got[4] == -0.5f, "%g %g %g", got[2], got[3], got[4]);
    /* SIGMOID and ELU at infinity. */
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SIGMOID, F32, 6, 0, 0, x, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[2] == 0 && got[3] == 1);
    /* SIGMOID where e^-x overflows but the result is a subnormal (scripts/diff-elementwise);
     * SWISH through it to a normal result: within their 34 and 35 ULP. */
    float tail[1] = {-95.0f}, tg[1];
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SIGMOID, F32, 1, 0, 0, tail, tg), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(fabsf(tg[0] - 0x1.ec8p-138f) <= 34 * 0x1p-149f, "sigmoid(-95) = %a", tg[0]);
    tail[0] = -60.0f;
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SWISH, F32, 1, 1.5f, 0, tail, tg), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(fabsf(tg[0] + 0x1.0bacb8p-124f) <= 35 * 0x1p-147f, "swish(-60) = %a", tg[0]);
    /* SWISH where sigmoid(z) is subnormal: the product lost up to 100 ULPs before it became one
     * exp (cl/activation.cl act_swish); x / (1 + e^-(s x)) in double. */
    const struct {
        float x, scale;
        double want;
    } swish_tail[] = {{-60.698f, 1.5f, -0x1.7c2ca7a63974cp-126},
                      {-100.04f, 1.0f, -0x1.3ef5185f3e9f7p-138}};
    for (int i = 0; i < 2; ++i) {
        tail[0] = swish_tail[i].x;
        cr_assert_eq(
            run_unary(DML_OPERATOR_ACTIVATION_SWISH, F32, 1, swish_tail[i].scale, 0, tail, tg),
            S_OK, "%s", dmlcl_last_error());
        cr_expect(fabs((double)tg[0] - swish_tail[i].want) <= 35 * 0x1p-149,
                  "swish(%a, %g) = %a, expected %a", tail[0], swish_tail[i].scale, tg[0],
                  swish_tail[i].want);
    }
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_ELU, F32, 6, 0.5f, 0, x, got), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(got[2] == -0.5f && got[3] == INFINITY && signbit(got[0]), "elu(-inf) is -Alpha");
    /* SOFTPLUS past overflow of Steepness * x: x itself. */
    float big[2] = {3e38f, -3e38f}, bg[2];
    cr_assert_eq(run_unary(DML_OPERATOR_ACTIVATION_SOFTPLUS, F32, 2, 4.0f, 0, big, bg), S_OK, "%s",
                 dmlcl_last_error());
    cr_expect(bg[0] == 3e38f && bg[1] == 0, "%g %g", bg[0], bg[1]);
}

/* ADD1 keeps no pointer into its description: the fused activation's is clobbered after
 * CreateOperator, before compile and dispatch. */
static DML_ACTIVATION_LINEAR_OPERATOR_DESC fused_linear;
static DML_OPERATOR_DESC fused_op;

static void clobber_fused(void)
{
    memset(&fused_linear, 0xA5, sizeof fused_linear);
    fused_op.Type = DML_OPERATOR_INVALID;
    fused_op.Desc = NULL;
}

Test(elementwise_activation, add1_fused_copied_at_create)
{
    packed p;
    fused_linear = (DML_ACTIVATION_LINEAR_OPERATOR_DESC){NULL, NULL, 2.0f, -1.0f};
    fused_op = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_LINEAR, &fused_linear};
    DML_ELEMENT_WISE_ADD1_OPERATOR_DESC d = {packed_tensor(&p, 0, F32, 4),
                                             packed_tensor(&p, 1, F32, 4),
                                             packed_tensor(&p, 2, F32, 4), &fused_op};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_ADD1, &d};
    float a[4] = {1, 2, 3, 4}, b[4] = {0.5f, -2, 10, 0}, got[4];
    cr_assert_eq(run_op(&desc, p.bufs[0].TotalTensorSizeInBytes, a, b, got, clobber_fused), S_OK,
                 "%s", dmlcl_last_error());
    for (int i = 0; i < 4; ++i)
        cr_expect_eq(got[i], 2 * (a[i] + b[i]) - 1, "2 (%g + %g) - 1: %g", a[i], b[i], got[i]);
}

/* A graph of ADD then an activation node: the planner may make the activation the ADD map's
 * own (a FLOAT32 intermediate rounds nothing); either way the result is ADD1's with that
 * activation fused, within its tolerance. */
Test(elementwise_activation, graph_add_then_activation)
{
    static const struct {
        DML_OPERATOR_TYPE type;
        ref_act act;
        double p[2];
    } acts[] = {{DML_OPERATOR_ACTIVATION_SIGMOID, REF_ACT_SIGMOID, {0, 0}},
                {DML_OPERATOR_ACTIVATION_GELU, REF_ACT_GELU, {0, 0}},
                {DML_OPERATOR_ACTIVATION_SOFTPLUS, REF_ACT_SOFTPLUS, {1.5, 0}},
                {DML_OPERATOR_ACTIVATION_SHRINK, REF_ACT_SHRINK, {0.25, 0.5}}};
    enum { N = 24 };
    float a[N], b[N], got[N], want[N];
    for (int i = 0; i < N; ++i) {
        a[i] = (float)(i - 12) * 0.7f;
        b[i] = (float)(i % 5) * -0.3f;
    }
    for (size_t k = 0; k < COUNT_OF(acts); ++k) {
        packed p;
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {packed_tensor(&p, 0, F32, N),
                                                  packed_tensor(&p, 1, F32, N),
                                                  packed_tensor(&p, 2, F32, N)};
        act_desc act = {&p.tds[2], &p.tds[2], {(FLOAT)acts[k].p[0], (FLOAT)acts[k].p[1]}};
        unit_graph g;
        ug_init(&g);
        ug_node(&g, DML_OPERATOR_ELEMENT_WISE_ADD, &add);
        ug_node(&g, acts[k].type, &act);
        ug_input(&g, 0, 0, 0);
        ug_input(&g, 1, 0, 1);
        ug_edge(&g, 0, 1, 0);
        ug_output(&g, 1, 0);
        dmlcl_compiled_operator *c = NULL;
        HRESULT hr = dmlcl_graph_compile(ops_device(), ug_desc(&g, 2, 1), 0, &c);
        cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
        uint64_t bytes = p.bufs[0].TotalTensorSizeInBytes;
        dmlcl_host_tensor ins[2] = {{a, bytes}, {b, bytes}}, o = {got, bytes};
        hr = dmlcl_compiled_operator_execute(c, 2, ins, 1, &o);
        dmlcl_compiled_operator_release(c);
        ug_free(&g);
        cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
        ref_tensor ra = ref_tensor_view(F32, 1, (uint32_t[]){N}, NULL, a);
        ref_tensor rb = ref_tensor_view(F32, 1, (uint32_t[]){N}, NULL, b);
        ref_tensor rw = ref_tensor_view(F32, 1, (uint32_t[]){N}, NULL, want);
        cr_assert(ref_add1(acts[k].act, acts[k].p, &ra, &rb, &rw));
        for (int i = 0; i < N; ++i)
            cr_expect(ref_float_close(F32, &want[i], &got[i], ref_activation_ulps(acts[k].act) + 1),
                      "%s(%g + %g): %.9g, expected %.9g", ref_act_name(acts[k].act), a[i], b[i],
                      got[i], want[i]);
    }
}
