/* SPDX-License-Identifier: MIT */
/*
 * grad.c: DirectML's training operators (ACTIVATION_RELU_GRAD, ELEMENT_WISE_CLIP_GRAD,
 * ELEMENT_WISE_CLIP_GRAD1, SLICE_GRAD) on the device against the C reference
 * (tests/ref/ref_grad.c), every type each operator takes.
 *
 * SLICE_GRAD: ranks 1..8, windows anywhere in the output, strides of either sign from 1 to 4
 * and now and then past the window (one element), gradients as long as the window allows or
 * shorter, every type by width, tensors of any layout; bit-exact. The page's example.
 *
 * Random cases: ranks 1..8, inputs packed, padded, transposed, broadcast or aliasing, outputs
 * packed, padded or transposed, now and then in place over InputTensor; the features X drawn
 * around the bounds (the bounds themselves, their neighbours, zeros of both signs, NaN,
 * infinities, the integer types' extremes) between distinct random bit patterns; bounds
 * crossed, equal and past an integer type's range. The result is a select of dY's bits or 0:
 * bit-exact, but any NaN matches a NaN (a FLOAT16 NaN's payload may be quieted through the
 * float compute). Fixed cases: the pages' formulas on hand-picked values. Failures print the
 * seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_grad.h"

#define GRAD_DEFAULT_SEED 0x646D6C636C475244ull
#define GRAD_MAX_ELEMENTS 3000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

static ops_seed run_seed = OPS_SEED(GRAD_DEFAULT_SEED);

OPS_DEVICE_SUITE(grad);

static const DML_TENSOR_DATA_TYPE float_types[] = {F32, F16};
static const DML_TENSOR_DATA_TYPE ten_types[] = {F32, F16, I64, I32, I16, I8, U64, U32, U16, U8};

typedef struct grad_case {
    ref_grad_op op;
    DML_TENSOR_DATA_TYPE type;
    ops_tensor x, dy, out;
    ops_layout layout[3];
    bool in_place;
    ref_grad_args args;
    DML_SCALAR_UNION min, max; /* CLIP_GRAD1's */
    ops_memory mem;
} grad_case;

static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

/* v's encoding in type t (floats rounded to nearest; integers wrapped to the width). */
static uint64_t encode(DML_TENSOR_DATA_TYPE t, double v)
{
    uint64_t bits = 0;
    if (t == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(&bits, &h, 2);
    } else if (t == F32) {
        float f = (float)v;
        memcpy(&bits, &f, 4);
    } else {
        bits = (uint64_t)(int64_t)v;
        if (ref_type_size(t) < 8)
            bits &= ((uint64_t)1 << (8 * ref_type_size(t))) - 1;
    }
    return bits;
}

static double int_extreme(DML_TENSOR_DATA_TYPE t, bool high)
{
    int bits = 8 * (int)ref_type_size(t);
    if (ref_type_is_signed_int(t))
        return high ? ldexp(1, bits - 1) - 1 : -ldexp(1, bits - 1);
    return high ? ldexp(1, bits) - 1 : 0;
}

/* Bounds: eighths in [-50, 50] (integers on integer types), now and then crossed, equal or
 * past an integer type's range. */
static void grad_params(grad_case *c, ref_rng *rng)
{
    bool flt = ref_type_is_float(c->type);
    double lo = (double)ref_rng_range(rng, -400, 400) / 8,
           hi = lo + (double)ref_rng_range(rng, 1, 400) / 8;
    if (!flt && c->op == REF_GRAD_CLIP1)
        lo = trunc(lo), hi = trunc(hi);
    if (!ref_type_is_signed_int(c->type) && !flt && lo < 0)
        lo = -lo, hi = lo + 20;
    if (ref_rng_chance(rng, 10))
        hi = lo - 3; /* crossed: every gradient 0 */
    if (ref_rng_chance(rng, 5))
        hi = lo;
    if (!flt && c->op == REF_GRAD_CLIP && ref_rng_chance(rng, 15))
        lo = -1e30, hi = 1e30;             /* saturated to the type's ends */
    if (c->op == REF_GRAD_CLIP1 && !flt) { /* within the type: MinMaxDataType is the type */
        lo = fmax(fmin(lo, int_extreme(c->type, true)), int_extreme(c->type, false));
        hi = fmax(fmin(hi, int_extreme(c->type, true)), int_extreme(c->type, false));
    }
    c->args.lo = lo;
    c->args.hi = hi;
    c->args.lo_bits = encode(c->type, lo);
    c->args.hi_bits = encode(c->type, hi);
    memcpy(&c->min, &c->args.lo_bits, sizeof c->args.lo_bits);
    memcpy(&c->max, &c->args.hi_bits, sizeof c->args.hi_bits);
}

/* X: distinct bit patterns, then about two thirds of the slots set to values at and around the
 * bounds and zero, and the floats' specials. */
static void fill_features(grad_case *c, ref_rng *rng)
{
    DML_TENSOR_DATA_TYPE t = c->type;
    size_t w = ref_type_size(t);
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->x);
    uint64_t n = slots(&c->x);
    ops_fill_distinct(rng, t, p, n);
    double picks[16];
    unsigned k = 0;
    double lo = c->args.lo, hi = c->args.hi;
    if (!ref_type_is_float(t)) {
        lo = fmax(fmin(trunc(lo), int_extreme(t, true)), int_extreme(t, false));
        hi = fmax(fmin(trunc(hi), int_extreme(t, true)), int_extreme(t, false));
    }
    picks[k++] = lo, picks[k++] = hi, picks[k++] = 0, picks[k++] = 1, picks[k++] = -1;
    picks[k++] = lo + 1, picks[k++] = hi - 1, picks[k++] = (lo + hi) / 2;
    if (ref_type_is_float(t)) {
        picks[k++] = lo + 0.125, picks[k++] = hi - 0.125, picks[k++] = -0.0, picks[k++] = NAN;
        picks[k++] = INFINITY, picks[k++] = -INFINITY;
    } else {
        picks[k++] = int_extreme(t, false), picks[k++] = int_extreme(t, true);
    }
    for (uint64_t i = 0; i < n; ++i) {
        if (!ref_rng_chance(rng, 66))
            continue;
        double v = picks[ref_rng_below(rng, k)];
        if (!ref_type_is_float(t))
            v = fmax(fmin(v, int_extreme(t, true)), int_extreme(t, false));
        uint64_t bits = encode(t, v);
        memcpy(p + i * w, &bits, w);
    }
}

static void grad_generate(grad_case *c, ref_rng *rng)
{
    uint32_t rank = 1 + (uint32_t)ref_rng_below(rng, 8), sizes[REF_MAX_DIMS];
    ops_random_sizes(rng, rank, sizes, GRAD_MAX_ELEMENTS);
    c->in_place = ref_rng_chance(rng, 15);
    if (c->in_place) {
        uint32_t strides[REF_MAX_DIMS];
        c->layout[0] = c->layout[2] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, rank, sizes, strides);
        ops_tensor_init(&c->x, "InputTensor", false, c->type, rank, sizes, strides, 0, 0);
        ops_tensor_init(&c->out, "OutputGradientTensor", true, c->type, rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->x, rng, "InputTensor", false, c->type, rank, sizes, &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputGradientTensor", true, c->type, rank, sizes,
                          &c->layout[2]);
    }
    ops_random_tensor(&c->dy, rng, "InputGradientTensor", false, c->type, rank, sizes,
                      &c->layout[1]);
    grad_params(c, rng);
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->x, false);
    ops_memory_place(&c->mem, rng, &c->dy, ref_rng_chance(rng, 30));
    if (c->in_place) {
        c->out.slot = c->x.slot;
        c->out.offset = c->x.offset;
        c->out.bind_size = c->x.bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
    fill_features(c, rng);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->dy), slots(&c->dy));
    ops_memory_snapshot(&c->mem);
    ref_tensor x = ops_view(&c->mem, OPS_INIT, &c->x), dy = ops_view(&c->mem, OPS_INIT, &c->dy);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    cr_assert(ref_grad(c->op, &x, &dy, &c->args, &out), "test bug: the reference rejected a case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static bool nan_element(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
    }
    if (t == F32) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    return false;
}

/* A NaN that came back where a NaN was expected counts as equal. */
static void accept_nans(grad_case *c)
{
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char a[8], b[8];
    do {
        ref_get(&e, coord, a);
        ref_get(&g, coord, b);
        if (nan_element(c->type, a) && nan_element(c->type, b))
            ref_put(&g, coord, a);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void grad_run(grad_case *c, const char *test, unsigned n)
{
    static char what[4096], diff[4096];
    DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC relu = {ops_tensor_desc(&c->x), ops_tensor_desc(&c->dy),
                                                   ops_tensor_desc(&c->out)};
    DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC clip = {relu.InputTensor, relu.InputGradientTensor,
                                                     relu.OutputGradientTensor, (FLOAT)c->args.lo,
                                                     (FLOAT)c->args.hi};
    DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC clip1 = {relu.InputTensor,
                                                       relu.InputGradientTensor,
                                                       relu.OutputGradientTensor,
                                                       c->type,
                                                       c->min,
                                                       c->max};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ACTIVATION_RELU_GRAD, &relu};
    if (c->op == REF_GRAD_CLIP)
        desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, &clip};
    if (c->op == REF_GRAD_CLIP1)
        desc = (DML_OPERATOR_DESC){DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, &clip1};
    ops_tensor *inputs[2] = {&c->x, &c->dy}, *outputs[1] = {&c->out};
    ops_tensor *all[3] = {&c->out, &c->dy, &c->x};
    char head[512], a[512], b[512], o[512];
    snprintf(what, sizeof what, "%s\n  %s; Min %g Max %g; layouts %s/%s/%s; %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, ref_grad_name(c->op), "grad", test, n,
                        ops_base_seed(&run_seed)),
             ref_type_name(c->type), c->args.lo, c->args.hi, ops_layout_name(c->layout[0]),
             ops_layout_name(c->layout[1]), ops_layout_name(c->layout[2]),
             c->in_place ? "in place" : "apart", ops_tensor_describe(&c->x, a, sizeof a),
             ops_tensor_describe(&c->dy, b, sizeof b), ops_tensor_describe(&c->out, o, sizeof o));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &c->mem, inputs, 2, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    accept_nans(c);
    uint64_t bad = ops_compare(&c->mem, all, c->in_place ? 2 : 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
}

static void grad_cases(const char *test, ref_grad_op op, const DML_TENSOR_DATA_TYPE *types,
                       unsigned n_types, unsigned count)
{
    static grad_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.op = op;
        c.type = types[n % n_types];
        grad_generate(&c, &rng);
        grad_run(&c, test, n);
        ops_memory_release(&c.mem);
    }
}

Test(grad, random_relu_grad)
{
    grad_cases("random_relu_grad", REF_GRAD_RELU, float_types, 2, 8);
}

Test(grad, random_clip_grad)
{
    grad_cases("random_clip_grad", REF_GRAD_CLIP, ten_types, 10, 20);
}

Test(grad, random_clip_grad1)
{
    grad_cases("random_clip_grad1", REF_GRAD_CLIP1, ten_types, 10, 20);
}

/* ---- Fixed cases: the pages' formulas on hand-picked values ---------------------------- */

static void host_run(const char *what, const DML_OPERATOR_DESC *desc, const void *x, const void *dy,
                     void *out, uint64_t bytes)
{
    dmlcl_host_tensor ins[2] = {{(void *)x, bytes}, {(void *)dy, bytes}};
    ops_execute_on_host(what, desc, 2, ins, (dmlcl_host_tensor){out, bytes});
}

#define FIXED_N 8

Test(grad, relu_grad_values)
{
    static const UINT sizes[1] = {FIXED_N};
    static const float x[FIXED_N] = {-1, 0, -0.0f, 2, NAN, INFINITY, -INFINITY, 1e-40f};
    static const float dy[FIXED_N] = {5, 6, 7, 8, 9, -10, 11, -12};
    static const float want[FIXED_N] = {0, 0, 0, 8, 0, -10, 0, -12};
    DML_BUFFER_TENSOR_DESC b = {F32, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, sizeof x, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC d = {&t, &t, &t};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ACTIVATION_RELU_GRAD, &d};
    float got[FIXED_N];
    host_run("RELU_GRAD", &desc, x, dy, got, sizeof got);
    cr_expect(memcmp(got, want, sizeof got) == 0, "RELU_GRAD: %g %g %g %g %g %g %g %g", got[0],
              got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
}

/* Min 0, Max 6: the bounds themselves give 0, NaN passes (neither comparison holds). */
Test(grad, clip_grad_values)
{
    static const UINT sizes[1] = {FIXED_N};
    static const float x[FIXED_N] = {-1, 0, 0.5f, 3, 6, 7, NAN, 5.999f};
    static const float dy[FIXED_N] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const float want[FIXED_N] = {0, 0, 3, 4, 0, 0, 7, 8};
    DML_BUFFER_TENSOR_DESC b = {F32, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, sizeof x, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC d = {&t, &t, &t, 0.0f, 6.0f};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, &d};
    float got[FIXED_N];
    host_run("CLIP_GRAD", &desc, x, dy, got, sizeof got);
    cr_expect(memcmp(got, want, sizeof got) == 0, "CLIP_GRAD: %g %g %g %g %g %g %g %g", got[0],
              got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
}

/* INT8 with FLOAT bounds -2.5 and 100.7: truncated to -2 and 100, as CLIP converts them. */
Test(grad, clip_grad_int8_bounds)
{
    static const UINT sizes[1] = {FIXED_N};
    static const int8_t x[FIXED_N] = {-3, -2, -1, 0, 99, 100, 127, -128};
    static const int8_t dy[FIXED_N] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const int8_t want[FIXED_N] = {0, 0, 3, 4, 5, 0, 0, 0};
    DML_BUFFER_TENSOR_DESC b = {I8, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, sizeof x, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC d = {&t, &t, &t, -2.5f, 100.7f};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD, &d};
    int8_t got[FIXED_N];
    host_run("CLIP_GRAD INT8", &desc, x, dy, got, sizeof got);
    cr_expect(memcmp(got, want, sizeof got) == 0, "CLIP_GRAD INT8: %d %d %d %d %d %d %d %d", got[0],
              got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
}

/* UINT64 bounds past 2^63 compared as unsigned 64-bit integers (a signed comparison would put
 * 2^63 + 1 below Min). */
Test(grad, clip_grad1_uint64)
{
    static const UINT sizes[1] = {4};
    static const uint64_t x[4] = {1, 2, 0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull};
    static const uint64_t dy[4] = {10, 20, 30, 40};
    static const uint64_t want[4] = {0, 20, 30, 0};
    DML_BUFFER_TENSOR_DESC b = {U64, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, sizeof x, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
    DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC d = {
        &t, &t, &t, U64, {.UInt64 = 1}, {.UInt64 = 0x8000000000000002ull}};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1, &d};
    uint64_t got[4];
    host_run("CLIP_GRAD1 UINT64", &desc, x, dy, got, sizeof got);
    cr_expect(memcmp(got, want, sizeof got) == 0,
              "CLIP_GRAD1 UINT64: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, got[0], got[1],
              got[2], got[3]);
}

/* ---- SLICE_GRAD --------------------------------------------------------------------------- */

static const DML_TENSOR_DATA_TYPE slice_types[] = {F64, F32, F16, I64, I32, I16,
                                                   I8,  U64, U32, U16, U8};

static void slice_grad_case(const char *test, unsigned n)
{
    static char what[4096], diff[4096];
    static ops_tensor dy, out;
    static ops_memory mem;
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE t = slice_types[n % COUNT_OF(slice_types)];
    uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), osizes[REF_MAX_DIMS],
             dsizes[REF_MAX_DIMS];
    UINT offsets[REF_MAX_DIMS], sizes[REF_MAX_DIMS];
    INT strides[REF_MAX_DIMS];
    ops_random_sizes(&rng, rank, osizes, GRAD_MAX_ELEMENTS);
    for (uint32_t d = 0; d < rank; ++d) {
        offsets[d] = (UINT)ref_rng_below(&rng, osizes[d]);
        sizes[d] = 1 + (UINT)ref_rng_below(&rng, osizes[d] - offsets[d]);
        if (ref_rng_chance(&rng, 30)) /* the whole dimension */
            offsets[d] = 0, sizes[d] = osizes[d];
        int mag = ref_rng_chance(&rng, 5) ? 1000 : (int)ref_rng_range(&rng, 1, 4);
        strides[d] = ref_rng_chance(&rng, 40) ? -mag : mag;
        uint32_t most = 1 + (sizes[d] - 1) / (uint32_t)mag;
        dsizes[d] = ref_rng_chance(&rng, 20) ? 1 + (uint32_t)ref_rng_below(&rng, most) : most;
    }
    ops_layout layout[2];
    ops_random_tensor(&dy, &rng, "InputGradientTensor", false, t, rank, dsizes, &layout[0]);
    ops_random_tensor(&out, &rng, "OutputGradientTensor", true, t, rank, osizes, &layout[1]);
    memset(&mem, 0, sizeof mem);
    ops_memory_place(&mem, &rng, &dy, false);
    ops_memory_place(&mem, &rng, &out, ref_rng_chance(&rng, 25));
    ops_memory_alloc(&mem, &rng);
    ops_fill_distinct(&rng, t, ops_ptr(&mem, OPS_INIT, &dy), slots(&dy));
    ops_memory_snapshot(&mem);
    ref_tensor rd = ops_view(&mem, OPS_INIT, &dy), ro = ops_view(&mem, OPS_EXPECT, &out);
    cr_assert(ref_slice_grad(&rd, offsets, sizes, strides, &ro),
              "test bug: the reference rejected a case");
    ops_poison_output(&mem, &out);
    DML_SLICE_GRAD_OPERATOR_DESC d = {
        ops_tensor_desc(&dy), ops_tensor_desc(&out), rank, offsets, sizes, strides};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE_GRAD, &d};
    ops_tensor *inputs[1] = {&dy}, *outputs[1] = {&out}, *all[2] = {&out, &dy};
    char head[512], a[512], b[512], win[512] = "";
    for (uint32_t k = 0; k < rank; ++k) {
        size_t len = strlen(win);
        snprintf(win + len, sizeof win - len, " [%u+%u/%d]", offsets[k], sizes[k], strides[k]);
    }
    snprintf(what, sizeof what, "%s\n  %s; windows%s; layouts %s/%s\n  %s\n  %s",
             ops_replay(head, sizeof head, "SLICE_GRAD", "grad", test, n, ops_base_seed(&run_seed)),
             ref_type_name(t), win, ops_layout_name(layout[0]), ops_layout_name(layout[1]),
             ops_tensor_describe(&dy, a, sizeof a), ops_tensor_describe(&out, b, sizeof b));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &mem, inputs, 1, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    uint64_t bad = ops_compare(&mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&mem);
}

Test(grad, random_slice_grad)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(2 * COUNT_OF(slice_types)); ++n)
        if (only < 0 || (unsigned long)only == n)
            slice_grad_case("random_slice_grad", n);
}

/* The page's example: a {2, 2} gradient into a 4 x 4 output, window offsets 0, sizes 4 (3 would
 * do), strides 2; and the same window read backwards (strides -2 from the window's end). */
Test(grad, slice_grad_page_example)
{
    static const UINT dsz[2] = {2, 2}, osz[2] = {4, 4}, off[2] = {0, 0}, size[2] = {3, 3};
    static const INT fwd[2] = {2, 2}, back[2] = {-2, -2};
    static const float dy[4] = {1, 3, 9, 11}; /* a, c, i, k */
    static const float want[16] = {1, 0, 3, 0, 0, 0, 0, 0, 9, 0, 11, 0, 0, 0, 0, 0};
    static const float want_back[16] = {11, 0, 9, 0, 0, 0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0};
    DML_BUFFER_TENSOR_DESC b[2] = {{F32, DML_TENSOR_FLAG_NONE, 2, dsz, NULL, sizeof dy, 0},
                                   {F32, DML_TENSOR_FLAG_NONE, 2, osz, NULL, sizeof want, 0}};
    DML_TENSOR_DESC t[2] = {{DML_TENSOR_TYPE_BUFFER, &b[0]}, {DML_TENSOR_TYPE_BUFFER, &b[1]}};
    DML_SLICE_GRAD_OPERATOR_DESC d = {&t[0], &t[1], 2, off, size, fwd};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE_GRAD, &d};
    dmlcl_host_tensor in = {(void *)dy, sizeof dy};
    float got[16];
    memset(got, 0xFF, sizeof got);
    ops_execute_on_host("SLICE_GRAD page example", &desc, 1, &in,
                        (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, want, sizeof got) == 0, "SLICE_GRAD: the page's example");
    d.InputWindowStrides = back;
    memset(got, 0xFF, sizeof got);
    ops_execute_on_host("SLICE_GRAD backwards", &desc, 1, &in,
                        (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, want_back, sizeof got) == 0, "SLICE_GRAD: negative strides");
}

/* ---- AVERAGE_POOLING_GRAD, MAX_POOLING_GRAD ---------------------------------------------- */

static void put_float(DML_TENSOR_DATA_TYPE t, unsigned char *p, double v)
{
    uint64_t bits = encode(t, v);
    memcpy(p, &bits, ref_type_size(t));
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

/* Elements within the sum's bound count as equal: (terms + 2) ulps, or (terms + 2) times the
 * output type's epsilon times the sum of the terms' magnitudes (a sum that cancels); NaN
 * matches NaN. The reference's bytes go into what came back where accepted. */
static void accept_sums(ops_memory *mem, const ops_tensor *out, const double *mag,
                        const uint32_t *terms)
{
    DML_TENSOR_DATA_TYPE t = out->buffer.DataType;
    double eps = t == F16 ? ldexp(1, -10) : ldexp(1, -23);
    ref_tensor e = ops_view(mem, OPS_EXPECT, out), g = ops_view(mem, OPS_GOT, out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char a[8], b[8];
    uint64_t flat = 0;
    do {
        ref_get(&e, coord, a);
        ref_get(&g, coord, b);
        double x = get_float(t, a), y = get_float(t, b);
        bool ok =
            (isnan(x) && isnan(y)) || ref_float_close(t, a, b, terms[flat] + 2) ||
            (isfinite(x) && isfinite(y) && fabs(x - y) <= (terms[flat] + 2) * eps * mag[flat]);
        if (ok)
            ref_put(&g, coord, a);
        ++flat;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void pool_grad_case(const char *test, unsigned n, bool max)
{
    static char what[4096], diff[4096];
    static ops_tensor x, dy, dx;
    static ops_memory mem;
    static double mag[GRAD_MAX_ELEMENTS * 4];
    static uint32_t terms[GRAD_MAX_ELEMENTS * 4];
    ref_rng rng = ops_case_rng(&run_seed, test, n);
    DML_TENSOR_DATA_TYPE t = float_types[n % 2];
    uint32_t dims = 2 + (uint32_t)ref_rng_below(&rng, 2), rank = dims + 2;
    uint32_t xs[REF_MAX_DIMS], ys[REF_MAX_DIMS];
    UINT strides[3], window[3], start[3], end[3], dil[3];
    xs[0] = ys[0] = 1 + (uint32_t)ref_rng_below(&rng, 2);
    xs[1] = ys[1] = 1 + (uint32_t)ref_rng_below(&rng, 3);
    bool ceil_mode = ref_rng_chance(&rng, 20);
    for (uint32_t i = 0; i < dims; ++i) {
        xs[2 + i] = 1 + (uint32_t)ref_rng_below(&rng, dims == 2 ? 9 : 5);
        window[i] = 1 + (UINT)ref_rng_below(&rng, 4);
        strides[i] = 1 + (UINT)ref_rng_below(&rng, 3);
        start[i] = (UINT)ref_rng_below(&rng, 3);
        end[i] = (UINT)ref_rng_below(&rng, 3);
        dil[i] = max && ref_rng_chance(&rng, 30) ? 2 + (UINT)ref_rng_below(&rng, 2) : 1;
        uint64_t padded = xs[2 + i] + start[i] + end[i];
        uint64_t span = (uint64_t)(window[i] - 1) * dil[i] + 1;
        ys[2 + i] = span > padded ? 1 : (uint32_t)((padded - span) / strides[i] + 1);
        if (ceil_mode && span <= padded && (padded - span) % strides[i])
            ys[2 + i]++;
    }
    bool include_padding = ref_rng_chance(&rng, 50);
    ops_layout layout[3];
    if (max)
        ops_random_tensor(&x, &rng, "InputTensor", false, t, rank, xs, &layout[0]);
    ops_random_tensor(&dy, &rng, "InputGradientTensor", false, t, rank, ys, &layout[1]);
    ops_random_tensor(&dx, &rng, "OutputGradientTensor", true, t, rank, xs, &layout[2]);
    memset(&mem, 0, sizeof mem);
    if (max)
        ops_memory_place(&mem, &rng, &x, false);
    ops_memory_place(&mem, &rng, &dy, max && ref_rng_chance(&rng, 30));
    ops_memory_place(&mem, &rng, &dx, ref_rng_chance(&rng, 25));
    ops_memory_alloc(&mem, &rng);
    size_t w = ref_type_size(t);
    unsigned char *pdy = ops_ptr(&mem, OPS_INIT, &dy);
    for (uint64_t i = 0; i < slots(&dy); ++i)
        put_float(t, pdy + i * w, (double)ref_rng_range(&rng, -512, 512) / 8);
    if (max) {
        /* Few distinct values: equal maxima in most windows, signed zeros, a NaN now and then. */
        static const double picks[] = {-2, -1, -0.0, 0, 1, 2, 3, NAN};
        unsigned char *px = ops_ptr(&mem, OPS_INIT, &x);
        unsigned kinds = ref_rng_chance(&rng, 30) ? 8 : 7;
        for (uint64_t i = 0; i < slots(&x); ++i)
            put_float(t, px + i * w, picks[ref_rng_below(&rng, kinds)]);
    }
    ops_memory_snapshot(&mem);
    ref_tensor rx = ops_view(&mem, OPS_INIT, &x), rdy = ops_view(&mem, OPS_INIT, &dy);
    ref_tensor rdx = ops_view(&mem, OPS_EXPECT, &dx);
    cr_assert(ref_element_count(rank, xs) <= COUNT_OF(mag), "test bug: too many elements");
    cr_assert(ref_pool_grad(max, max ? &rx : NULL, &rdy, &rdx, dims, strides, window, start, end,
                            max ? dil : NULL, include_padding, mag, terms),
              "test bug: the reference rejected a case");
    ops_poison_output(&mem, &dx);
    DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC ad = {
        ops_tensor_desc(&dy), ops_tensor_desc(&dx), dims, strides, window, start, end,
        include_padding};
    DML_MAX_POOLING_GRAD_OPERATOR_DESC md = {max ? ops_tensor_desc(&x) : NULL,
                                             ad.InputGradientTensor,
                                             ad.OutputGradientTensor,
                                             dims,
                                             strides,
                                             window,
                                             start,
                                             end,
                                             dil};
    DML_OPERATOR_DESC desc = max ? (DML_OPERATOR_DESC){DML_OPERATOR_MAX_POOLING_GRAD, &md}
                                 : (DML_OPERATOR_DESC){DML_OPERATOR_AVERAGE_POOLING_GRAD, &ad};
    ops_tensor *inputs[2] = {max ? &x : &dy, &dy}, *outputs[1] = {&dx};
    ops_tensor *all[3] = {&dx, &dy, &x};
    char head[512], a[512], b[512], c[512], win[256] = "";
    for (uint32_t i = 0; i < dims; ++i) {
        size_t len = strlen(win);
        snprintf(win + len, sizeof win - len, " [w%u s%u p%u,%u d%u]", window[i], strides[i],
                 start[i], end[i], dil[i]);
    }
    snprintf(what, sizeof what, "%s\n  %s; windows%s; IncludePadding %d\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, max ? "MAX_POOLING_GRAD" : "AVERAGE_POOLING_GRAD",
                        "grad", test, n, ops_base_seed(&run_seed)),
             ref_type_name(t), win, include_padding,
             max ? ops_tensor_describe(&x, a, sizeof a) : "", ops_tensor_describe(&dy, b, sizeof b),
             ops_tensor_describe(&dx, c, sizeof c));
    const char *stage = "";
    HRESULT hr = ops_run_device(&desc, &mem, inputs, max ? 2 : 1, outputs, 1,
                                (ops_submit)(n % OPS_SUBMIT_COUNT), &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
              dmlcl_last_error());
    accept_sums(&mem, &dx, mag, terms);
    uint64_t bad = ops_compare(&mem, all, max ? 3 : 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
    ops_memory_release(&mem);
}

Test(grad, random_average_pooling_grad)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(12); ++n)
        if (only < 0 || (unsigned long)only == n)
            pool_grad_case("random_average_pooling_grad", n, false);
}

Test(grad, random_max_pooling_grad)
{
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(12); ++n)
        if (only < 0 || (unsigned long)only == n)
            pool_grad_case("random_max_pooling_grad", n, true);
}

/* The pages' examples: a 2 x 2 window, stride 1, no padding, over a 3 x 3 input. */
Test(grad, pooling_grad_page_examples)
{
    static const UINT ysz[4] = {1, 1, 2, 2}, xsz[4] = {1, 1, 3, 3}, two[2] = {2, 2},
                      one[2] = {1, 1}, zero[2] = {0, 0};
    static const float dy[4] = {1, 2, 3, 4}, mdy[4] = {1, 2, 4, 5};
    static const float x[9] = {1, 2, 3, 2, 4, 2, 5, 6, 7};
    static const float avg_want[9] = {0.25f, 0.75f, 0.5f, 1, 2.5f, 1.5f, 0.75f, 1.75f, 1};
    static const float max_want[9] = {0, 0, 0, 0, 3, 0, 0, 4, 5};
    DML_BUFFER_TENSOR_DESC b[2] = {{F32, DML_TENSOR_FLAG_NONE, 4, ysz, NULL, sizeof dy, 0},
                                   {F32, DML_TENSOR_FLAG_NONE, 4, xsz, NULL, sizeof x, 0}};
    DML_TENSOR_DESC t[2] = {{DML_TENSOR_TYPE_BUFFER, &b[0]}, {DML_TENSOR_TYPE_BUFFER, &b[1]}};
    DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC ad = {&t[0], &t[1], 2, one, two, zero, zero, 0};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_AVERAGE_POOLING_GRAD, &ad};
    float got[9];
    dmlcl_host_tensor in = {(void *)dy, sizeof dy};
    ops_execute_on_host("AVERAGE_POOLING_GRAD", &desc, 1, &in,
                        (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, avg_want, sizeof got) == 0, "AVERAGE_POOLING_GRAD: the page's example");
    DML_MAX_POOLING_GRAD_OPERATOR_DESC md = {&t[1], &t[0], &t[1], 2, one, two, zero, zero, one};
    desc = (DML_OPERATOR_DESC){DML_OPERATOR_MAX_POOLING_GRAD, &md};
    dmlcl_host_tensor ins[2] = {{(void *)x, sizeof x}, {(void *)mdy, sizeof mdy}};
    ops_execute_on_host("MAX_POOLING_GRAD", &desc, 2, ins, (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, max_want, sizeof got) == 0, "MAX_POOLING_GRAD: the page's example");
}

/* Ties: equal maxima give the gradient to the lowest logical index; +0 counts above -0; a NaN
 * only where nothing else is. One 1 x 4 input, window 1 x 2, stride 1: windows {a, b}, {b, c},
 * {c, d}. */
Test(grad, max_pooling_grad_ties)
{
    static const UINT ysz[4] = {1, 1, 1, 3}, xsz[4] = {1, 1, 1, 4}, win[2] = {1, 2},
                      one[2] = {1, 1}, zero[2] = {0, 0};
    static const float dy[3] = {10, 20, 40};
    static const float x1[4] = {5, 5, 5, 1};        /* ties: a, b, c win in turn */
    static const float want1[4] = {10, 20, 40, 0};  /* {a,b} -> a, {b,c} -> b, {c,d} -> c */
    static const float x2[4] = {-0.0f, 0, NAN, -1}; /* +0 over -0; NaN loses to -1 */
    static const float want2[4] = {0, 30, 0, 40};
    DML_BUFFER_TENSOR_DESC b[2] = {{F32, DML_TENSOR_FLAG_NONE, 4, ysz, NULL, sizeof dy, 0},
                                   {F32, DML_TENSOR_FLAG_NONE, 4, xsz, NULL, sizeof x1, 0}};
    DML_TENSOR_DESC t[2] = {{DML_TENSOR_TYPE_BUFFER, &b[0]}, {DML_TENSOR_TYPE_BUFFER, &b[1]}};
    DML_MAX_POOLING_GRAD_OPERATOR_DESC md = {&t[1], &t[0], &t[1], 2, one, win, zero, zero, one};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_MAX_POOLING_GRAD, &md};
    float got[4];
    dmlcl_host_tensor ins[2] = {{(void *)x1, sizeof x1}, {(void *)dy, sizeof dy}};
    ops_execute_on_host("ties", &desc, 2, ins, (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, want1, sizeof got) == 0, "ties: %g %g %g %g", got[0], got[1], got[2],
              got[3]);
    ins[0].data = (void *)x2;
    ops_execute_on_host("zeros and NaN", &desc, 2, ins, (dmlcl_host_tensor){got, sizeof got});
    cr_expect(memcmp(got, want2, sizeof got) == 0, "zeros and NaN: %g %g %g %g", got[0], got[1],
              got[2], got[3]);
}
