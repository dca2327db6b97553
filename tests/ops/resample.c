/* SPDX-License-Identifier: MIT */
/*
 * resample.c: DirectML's resampling operators on the device against the C reference
 * (tests/ref/ref_resample.c): UPSAMPLE_2D, RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 and
 * VALUE_SCALE_2D, and the gradients RESAMPLE_GRAD and RESAMPLE_GRAD1.
 *
 * Random cases: ranks 1 to 4 (UPSAMPLE_2D 4 and 5, VALUE_SCALE_2D 4), FLOAT32 and FLOAT16
 * (RESAMPLE*: INT8 and UINT8 too), NEAREST_NEIGHBOR and LINEAR, both rounding directions;
 * per dimension a scale from upsampling to downsampling (integral, dyadic and not), the
 * offsets of one of ONNX Runtime's coordinate modes (half_pixel, asymmetric, align_corners,
 * tf_half_pixel_for_nn, pytorch_half_pixel's large scale) or random ones, the output's size
 * floor(in * scale) or one more or less (the pages' crop and clamp); inputs and outputs in
 * any layout (packed, padded, permuted; inputs broadcast or aliasing). Data in [-20, 20]
 * (integers: the type's range). Nearest neighbour is exact; LINEAR within 84 ULPs
 * (precision.md) or, where the weighted terms cancel, 16 float32 epsilons of the sum of
 * their magnitudes (RESAMPLE3's Antialiased LINEAR downscale, half its cases: 64); integer LINEAR
 * within 1 (float32 against double at a tie).
 * RESAMPLE_GRAD (rank 4) and RESAMPLE_GRAD1 (ranks 1 to 4; both rounding directions): the same
 * draws (FLOAT32 and FLOAT16), InputGradientTensor of the forward output's sizes and
 * OutputGradientTensor of the forward input's, against ref_resample_grad (the forward's weights
 * scattered in double): each element within N + 2 ULPs (N its terms: reduce sum's bound in
 * precision.md) or, where the terms cancel, (N + 2) float32 epsilons of the sum of their
 * magnitudes. Each case also checks the adjoint identity <RESAMPLE(x), dY> = <x, dX> in double
 * for a random x, the forward from ref_resample (not from the gradient's oracle), within
 * 2^-20 of the sums of the products' magnitudes. The pages' example (9, 6, 0, 0).
 * Failures print the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
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
#include "ref_resample.h"

#define RS_DEFAULT_SEED 0x646D6C636C525331ull
#define RS_MAX_ELEMENTS 1200
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U8 DML_TENSOR_DATA_TYPE_UINT8

typedef enum rs_form {
    FORM_UPSAMPLE,
    FORM_R0,
    FORM_R1,
    FORM_R2,
    FORM_R3,
    FORM_VALUE_SCALE,
    FORM_GRAD,
    FORM_GRAD1
} rs_form;

typedef struct rs_case {
    rs_form form;
    const char *name;
    const char *test;
    uint64_t seed;
    unsigned number;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank;
    uint32_t in_sizes[REF_MAX_DIMS], out_sizes[REF_MAX_DIMS];
    ref_resample_desc ref;
    DML_INTERPOLATION_MODE mode;
    DML_AXIS_DIRECTION rounding;
    UINT scale_h, scale_w;
    FLOAT vs_scale, vs_bias[3];
    ops_tensor in, out;
    ops_layout layout[2];
    ops_memory mem;
    ops_submit submit;
    double *mag;     /* per output element (ref_resample; the gradients': per dX element) */
    uint32_t *terms; /* the gradients: per dX element, its terms */
    union {
        DML_UPSAMPLE_2D_OPERATOR_DESC up;
        DML_RESAMPLE_OPERATOR_DESC r0;
        DML_RESAMPLE1_OPERATOR_DESC r1;
        DML_RESAMPLE2_OPERATOR_DESC r2;
        DML_RESAMPLE3_OPERATOR_DESC r3;
        DML_VALUE_SCALE_2D_OPERATOR_DESC vs;
        DML_RESAMPLE_GRAD_OPERATOR_DESC rg;
        DML_RESAMPLE_GRAD1_OPERATOR_DESC rg1;
    } d;
    DML_OPERATOR_DESC desc;
} rs_case;

static ops_seed run_seed = OPS_SEED(RS_DEFAULT_SEED);

static const float scale_pool[] = {1.0f, 2.0f, 3.0f, 0.5f, 1.5f, 0.75f, 0.6f, 1.7f, 0.3f, 4.0f};

/* One dimension's scale, offsets and output size. */
static void draw_axis(rs_case *c, ref_rng *rng, uint32_t k)
{
    float s = scale_pool[ref_rng_below(rng, COUNT_OF(scale_pool))];
    uint32_t n = c->in_sizes[k];
    uint32_t m = (uint32_t)floor((double)n * s);
    if (m == 0)
        m = 1;
    if (ref_rng_chance(rng, 20))
        m = m > 1 && ref_rng_chance(rng, 50) ? m - 1 : m + 1;
    float in_off = 0.5f, out_off = -0.5f;
    switch (ref_rng_below(rng, 6)) {
    case 0: break;                                /* half_pixel */
    case 1: in_off = 0.0f, out_off = 0.0f; break; /* asymmetric */
    case 2:                                       /* align_corners */
        in_off = 0.0f, out_off = 0.0f;
        s = n > 1 && m > 1 ? (float)(m - 1) / (float)(n - 1) : 3.4e38f;
        break;
    case 3: in_off = 0.0f, out_off = -0.5f; break; /* tf_half_pixel_for_nn */
    case 4: in_off = 0.0f, out_off = 0.0f, s = n <= 1 ? 3.4e38f : s; break;
    default:
        in_off = (float)ref_rng_range(rng, -8, 8) / 8.0f;
        out_off = (float)ref_rng_range(rng, -8, 8) / 8.0f;
    }
    c->ref.scales[k] = s;
    c->ref.input_offsets[k] = in_off;
    c->ref.output_offsets[k] = out_off;
    c->out_sizes[k] = m;
}

static void make_descs(rs_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->in), *out = ops_tensor_desc(&c->out);
    float *s = c->ref.scales, *io = c->ref.input_offsets, *oo = c->ref.output_offsets;
    switch (c->form) {
    case FORM_UPSAMPLE:
        c->d.up = (DML_UPSAMPLE_2D_OPERATOR_DESC){in, out, {c->scale_w, c->scale_h}, c->mode};
        c->desc.Type = DML_OPERATOR_UPSAMPLE_2D;
        break;
    case FORM_R0:
        c->d.r0 = (DML_RESAMPLE_OPERATOR_DESC){in, out, c->mode, c->rank, s};
        c->desc.Type = DML_OPERATOR_RESAMPLE;
        break;
    case FORM_R1:
        c->d.r1 = (DML_RESAMPLE1_OPERATOR_DESC){in, out, c->mode, c->rank, s, io, oo};
        c->desc.Type = DML_OPERATOR_RESAMPLE1;
        break;
    case FORM_R2:
        c->d.r2 = (DML_RESAMPLE2_OPERATOR_DESC){in, out, c->mode, c->rounding, c->rank, s, io, oo};
        c->desc.Type = DML_OPERATOR_RESAMPLE2;
        break;
    case FORM_R3:
        c->d.r3 = (DML_RESAMPLE3_OPERATOR_DESC){in, out, c->mode, c->rounding,     c->rank,
                                                s,  io,  oo,      c->ref.antialias};
        c->desc.Type = DML_OPERATOR_RESAMPLE3;
        break;
    case FORM_VALUE_SCALE:
        c->d.vs =
            (DML_VALUE_SCALE_2D_OPERATOR_DESC){in, out, c->vs_scale, c->in_sizes[1], c->vs_bias};
        c->desc.Type = DML_OPERATOR_VALUE_SCALE_2D;
        break;
    case FORM_GRAD: /* in is dY (InputGradientTensor), out dX */
        c->d.rg = (DML_RESAMPLE_GRAD_OPERATOR_DESC){in, out, c->mode, c->rank, s, io, oo};
        c->desc.Type = DML_OPERATOR_RESAMPLE_GRAD;
        break;
    case FORM_GRAD1:
        c->d.rg1 =
            (DML_RESAMPLE_GRAD1_OPERATOR_DESC){in, out, c->mode, c->rounding, c->rank, s, io, oo};
        c->desc.Type = DML_OPERATOR_RESAMPLE_GRAD1;
        break;
    }
    c->desc.Desc = &c->d;
}

static void generate(rs_case *c, ref_rng *rng)
{
    static const DML_TENSOR_DATA_TYPE all_types[] = {F32, F16, I8, U8};
    bool resample = c->form >= FORM_R0 && c->form <= FORM_R3;
    bool grad = c->form == FORM_GRAD || c->form == FORM_GRAD1;
    c->type = all_types[ref_rng_below(rng, resample && !grad ? 4 : 2)];
    c->mode = ref_rng_chance(rng, 50) ? DML_INTERPOLATION_MODE_LINEAR
                                      : DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR;
    c->rounding =
        ref_rng_chance(rng, 50) ? DML_AXIS_DIRECTION_INCREASING : DML_AXIS_DIRECTION_DECREASING;
    c->rank = c->form == FORM_UPSAMPLE ? 4 + (uint32_t)ref_rng_below(rng, 2)
              : c->form == FORM_VALUE_SCALE || c->form == FORM_GRAD
                  ? 4
                  : 1 + (uint32_t)ref_rng_below(rng, 4);
    ops_random_sizes(rng, c->rank, c->in_sizes, RS_MAX_ELEMENTS / 4);
    c->ref.linear = c->mode == DML_INTERPOLATION_MODE_LINEAR;
    c->ref.half_up = c->form == FORM_UPSAMPLE || c->form == FORM_R0 || c->form == FORM_R1 ||
                     c->form == FORM_GRAD;
    c->ref.ceil = !c->ref.half_up && c->rounding == DML_AXIS_DIRECTION_INCREASING;
    c->ref.antialias = c->form == FORM_R3 && ref_rng_chance(rng, 50);
    for (uint32_t k = 0; k < c->rank; ++k) {
        c->ref.scales[k] = 1.0f;
        c->ref.input_offsets[k] = 0.5f;
        c->ref.output_offsets[k] = -0.5f;
        c->out_sizes[k] = c->in_sizes[k];
    }
    if (c->form == FORM_UPSAMPLE) {
        c->scale_h = 1 + (UINT)ref_rng_below(rng, 3);
        c->scale_w = 1 + (UINT)ref_rng_below(rng, 3);
        c->ref.scales[c->rank - 2] = (float)c->scale_h;
        c->ref.scales[c->rank - 1] = (float)c->scale_w;
        c->out_sizes[c->rank - 2] *= c->scale_h;
        c->out_sizes[c->rank - 1] *= c->scale_w;
    } else if (c->form == FORM_VALUE_SCALE) {
        c->in_sizes[1] = c->out_sizes[1] = ref_rng_chance(rng, 50) ? 1 : 3;
        c->vs_scale = (float)ref_rng_range(rng, -3000, 3000) / 1000.0f;
        for (int i = 0; i < 3; ++i)
            c->vs_bias[i] = (float)ref_rng_range(rng, -5000, 5000) / 1000.0f;
    } else {
        for (uint32_t k = 0; k < c->rank; ++k)
            if (ref_rng_chance(rng, 70))
                draw_axis(c, rng, k);
        if (c->ref.antialias) { /* LINEAR, downscaling the innermost dimension at least */
            uint32_t k = c->rank - 1;
            c->mode = DML_INTERPOLATION_MODE_LINEAR;
            c->ref.linear = true;
            c->ref.ceil = false;
            if (c->ref.scales[k] >= 1.0f) {
                c->ref.scales[k] = ref_rng_chance(rng, 50) ? 0.6f : 0.3f;
                uint32_t m = (uint32_t)floor((double)c->in_sizes[k] * c->ref.scales[k]);
                c->out_sizes[k] = m ? m : 1;
            }
        }
        if (c->form == FORM_R0)
            for (uint32_t k = 0; k < c->rank; ++k) {
                c->ref.input_offsets[k] = 0.5f;
                c->ref.output_offsets[k] = -0.5f;
            }
    }
    if (grad) { /* dY has the forward output's sizes, dX the forward input's */
        ops_random_tensor(&c->in, rng, "InputGradientTensor", false, c->type, c->rank, c->out_sizes,
                          &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputGradientTensor", true, c->type, c->rank, c->in_sizes,
                          &c->layout[1]);
    } else {
        ops_random_tensor(&c->in, rng, "InputTensor", false, c->type, c->rank, c->in_sizes,
                          &c->layout[0]);
        ops_random_tensor(&c->out, rng, "OutputTensor", true, c->type, c->rank, c->out_sizes,
                          &c->layout[1]);
    }
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    make_descs(c);
}

static void fill_input(rs_case *c, ref_rng *rng)
{
    size_t w = ref_type_size(c->type);
    uint64_t slots = c->in.buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->in);
    for (uint64_t s = 0; s < slots; ++s) {
        double v = 20.0 * (double)ref_rng_range(rng, -100000, 100000) / 100000.0;
        if (c->type == F16) {
            uint16_t h = ref_half_from_double(v);
            memcpy(p + s * w, &h, 2);
        } else if (c->type == F32) {
            float f = (float)v;
            memcpy(p + s * w, &f, 4);
        } else {
            p[s] = (unsigned char)ref_rng_below(rng, 256);
        }
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    uint64_t most =
        ref_element_count(c->rank, c->out_sizes) + ref_element_count(c->rank, c->in_sizes);
    c->mag = calloc(most + 1, sizeof *c->mag);
    c->terms = calloc(most + 1, sizeof *c->terms);
    cr_assert(c->mag != NULL && c->terms != NULL);
    bool ok = c->form == FORM_VALUE_SCALE
                  ? ref_value_scale_2d(&in, &out, c->vs_scale, c->vs_bias, c->in_sizes[1])
              : c->form >= FORM_GRAD ? ref_resample_grad(&in, &out, &c->ref, c->terms, c->mag)
                                     : ref_resample(&in, &out, &c->ref, c->mag);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    ops_poison_output(&c->mem, &c->out);
}

static const char *describe(const rs_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512], axes[512] = "";
    for (uint32_t k = 0, at = 0; k < c->rank && at < sizeof axes - 64; ++k)
        at += (uint32_t)snprintf(axes + at, sizeof axes - at, "%s%g/%g/%g", k ? ", " : "",
                                 (double)c->ref.scales[k], (double)c->ref.input_offsets[k],
                                 (double)c->ref.output_offsets[k]);
    snprintf(buf, len,
             "%s\n  %s %s%s rounding %s; scale/in/out offsets {%s}; layouts %s/%s; submit %s\n"
             "  %s\n  %s",
             ops_replay(head, sizeof head, c->name, "resample", c->test, c->number, c->seed),
             ref_type_name(c->type), c->ref.linear ? "LINEAR" : "NEAREST",
             c->ref.antialias ? " antialiased" : "",
             c->ref.half_up ? "half-up"
             : c->ref.ceil  ? "ceil"
                            : "floor",
             axes, ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
             ops_submit_name(c->submit), ops_tensor_describe(&c->in, in, sizeof in),
             ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    switch (t) {
    case F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    case I8: return (int8_t)p[0];
    case U8: return p[0];
    default: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    }
}

/* LINEAR's elements within tolerance count as equal (the reference's bytes go into what came
 * back); VALUE_SCALE_2D's within 2 ULPs (precision.md's x * scale + bias). */
static void accept_tolerance(rs_case *c)
{
    bool vs = c->form == FORM_VALUE_SCALE, grad = c->form >= FORM_GRAD;
    if (!c->ref.linear && !vs && !grad)
        return;
    bool integer = c->type == I8 || c->type == U8;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    uint64_t flat = 0;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        double dx = value_of(c->type, x), dy = value_of(c->type, y);
        bool accept;
        if (grad) /* a sum of terms: N + 2 ULPs, or of the terms' magnitudes */
            accept = ref_float_close(c->type, x, y, c->terms[flat] + 2) ||
                     fabs(dx - dy) <= (c->terms[flat] + 2) * 0x1p-24 * c->mag[flat];
        else if (integer)
            accept = fabs(dx - dy) <= 1;
        else if (vs)
            accept = ref_float_close(c->type, x, y, 2);
        else /* antialiased: the normalised weights' rounding, 64 epsilons */
            accept = ref_float_close(c->type, x, y, REF_RESAMPLE_LINEAR_ULPS) ||
                     fabs(dx - dy) <= (c->ref.antialias ? 64 : 16) * 0x1p-24 * c->mag[flat];
        if (accept)
            ref_put(&g, coord, x);
        ++flat;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

/* The adjoint identity, in double: <RESAMPLE(x), dY> against <x, dX>, x random FLOAT32, the
 * forward from ref_resample (rounded to float32: its error is in the bound), dX what the device
 * returned. */
static void check_adjoint(rs_case *c)
{
    static char what[4096];
    uint32_t *nx = c->in_sizes, *ny = c->out_sizes;
    uint64_t cx = ref_element_count(c->rank, nx), cy = ref_element_count(c->rank, ny);
    float *x = calloc(cx + 1, sizeof *x), *y = calloc(cy + 1, sizeof *y);
    cr_assert(x && y);
    ref_rng rng = ref_rng_make(c->seed ^ (0x9E3779B97F4A7C15ull * (c->number + 1)));
    for (uint64_t i = 0; i < cx; ++i)
        x[i] = (float)ref_rng_range(&rng, -1000, 1000) / 256.0f;
    ref_tensor tx = ref_tensor_view(F32, c->rank, nx, NULL, x);
    ref_tensor ty = ref_tensor_view(F32, c->rank, ny, NULL, y);
    ref_resample_desc fwd = c->ref;
    cr_assert(ref_resample(&tx, &ty, &fwd, NULL), "test bug: the forward reference refused");
    ref_tensor dy = ops_view(&c->mem, OPS_INIT, &c->in), dx = ops_view(&c->mem, OPS_GOT, &c->out);
    double lhs = 0, rhs = 0, mag = 0;
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char e[16];
    uint64_t flat = 0;
    do {
        ref_get(&dy, coord, e);
        double p = (double)y[flat++] * value_of(c->type, e);
        lhs += p;
        mag += fabs(p);
    } while (ref_next_coord(c->rank, ny, coord));
    flat = 0;
    do {
        ref_get(&dx, coord, e);
        double p = (double)x[flat++] * value_of(c->type, e);
        rhs += p;
        mag += fabs(p);
    } while (ref_next_coord(c->rank, nx, coord));
    double tol = (c->type == F16 ? 0x1p-10 : 0x1p-20) * mag + 1e-30;
    cr_assert(fabs(lhs - rhs) <= tol,
              "%s\n  adjoint identity: <RESAMPLE(x), dY> = %.17g, <x, dX> = %.17g (|diff| %g > %g)",
              describe(c, what, sizeof what), lhs, rhs, fabs(lhs - rhs), tol);
    free(x);
    free(y);
}

static void run_case(rs_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->in}, *outputs[1] = {&c->out};
    ops_tensor *all[2] = {&c->out, &c->in};
    const char *stage = "";
    if (ops_verbose())
        fprintf(stderr, "%s\n", describe(c, what, sizeof what));
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    if (c->form >= FORM_GRAD) /* before the tolerance puts the reference's bytes in */
        check_adjoint(c);
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", describe(c, what, sizeof what), bad,
              diff);
}

static void rs_cases(const char *test, const char *name, rs_form form, unsigned count)
{
    static rs_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.form = form;
        c.name = name;
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        generate(&c, &rng);
        memset(&c.mem, 0, sizeof c.mem);
        ops_memory_place(&c.mem, &rng, &c.in, false);
        ops_memory_place(&c.mem, &rng, &c.out, ref_rng_chance(&rng, 25));
        ops_memory_alloc(&c.mem, &rng);
        fill_input(&c, &rng);
        run_case(&c);
        ops_memory_release(&c.mem);
        free(c.mag);
        free(c.terms);
    }
}

OPS_DEVICE_SUITE(resample);

#define RS_RANDOM_TEST(id, name, form, times)             \
    Test(resample, random_##id)                           \
    {                                                     \
        rs_cases("random_" #id, (name), (form), (times)); \
    }

RS_RANDOM_TEST(upsample_2d, "UPSAMPLE_2D", FORM_UPSAMPLE, 16)
RS_RANDOM_TEST(resample, "RESAMPLE", FORM_R0, 20)
RS_RANDOM_TEST(resample1, "RESAMPLE1", FORM_R1, 24)
RS_RANDOM_TEST(resample2, "RESAMPLE2", FORM_R2, 32)
RS_RANDOM_TEST(resample3, "RESAMPLE3", FORM_R3, 20)
RS_RANDOM_TEST(value_scale_2d, "VALUE_SCALE_2D", FORM_VALUE_SCALE, 12)
RS_RANDOM_TEST(resample_grad, "RESAMPLE_GRAD", FORM_GRAD, 16)
RS_RANDOM_TEST(resample_grad1, "RESAMPLE_GRAD1", FORM_GRAD1, 24)
