/* SPDX-License-Identifier: MIT */
/*
 * The resampling operators' validation on the host (no OpenCL device): UPSAMPLE_2D, RESAMPLE,
 * RESAMPLE1, RESAMPLE2, RESAMPLE3, VALUE_SCALE_2D, RESAMPLE_GRAD and RESAMPLE_GRAD1, their
 * type tables, ranks, counts, modes,
 * scales and offsets, output sizes, RESAMPLE3's Antialiased; and the oracle
 * (tests/ref/ref_resample.c) on values worked by hand; the launch per device class; a graph's
 * transpose read through new strides. Each broken rule checks the HRESULT and
 * that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "graph_support.h"
#include "internal.h"
#include "launch.h"
#include "ref_resample.h"
#include "resample.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define NEAREST DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR
#define LINEAR DML_INTERPOLATION_MODE_LINEAR

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static const UINT xs[4] = {1, 3, 2, 4};
static const UINT ys[4] = {1, 3, 4, 8};

typedef struct rs {
    unit_tensor in, out;
    float scales[4], in_off[4], out_off[4];
    DML_RESAMPLE3_OPERATOR_DESC d;
} rs;

static void rs_init(rs *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, ys, NULL);
    for (int i = 0; i < 4; ++i) {
        c->scales[i] = i < 2 ? 1.0f : 2.0f;
        c->in_off[i] = 0.5f;
        c->out_off[i] = -0.5f;
    }
    c->d.InterpolationMode = LINEAR;
    c->d.RoundingDirection = DML_AXIS_DIRECTION_DECREASING;
    c->d.DimensionCount = 4;
    c->d.Scales = c->scales;
    c->d.InputPixelOffsets = c->in_off;
    c->d.OutputPixelOffsets = c->out_off;
}

/* The descriptor as RESAMPLE3, RESAMPLE2, RESAMPLE1 or RESAMPLE (the shared members). */
static HRESULT create_as(const rs *c, DML_OPERATOR_TYPE type)
{
    DML_RESAMPLE_OPERATOR_DESC r0 = {c->d.InputTensor, c->d.OutputTensor, c->d.InterpolationMode,
                                     c->d.DimensionCount, c->d.Scales};
    DML_RESAMPLE1_OPERATOR_DESC r1 = {
        c->d.InputTensor, c->d.OutputTensor,      c->d.InterpolationMode, c->d.DimensionCount,
        c->d.Scales,      c->d.InputPixelOffsets, c->d.OutputPixelOffsets};
    DML_RESAMPLE2_OPERATOR_DESC r2 = {
        c->d.InputTensor,    c->d.OutputTensor, c->d.InterpolationMode, c->d.RoundingDirection,
        c->d.DimensionCount, c->d.Scales,       c->d.InputPixelOffsets, c->d.OutputPixelOffsets};
    const void *p = type == DML_OPERATOR_RESAMPLE    ? (const void *)&r0
                    : type == DML_OPERATOR_RESAMPLE1 ? (const void *)&r1
                    : type == DML_OPERATOR_RESAMPLE2 ? (const void *)&r2
                                                     : (const void *)&c->d;
    DML_OPERATOR_DESC d = {type, p};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

static HRESULT create(const rs *c)
{
    return create_as(c, DML_OPERATOR_RESAMPLE3);
}

Test(resample_validate, resample_rules)
{
    rs c;
    static const DML_OPERATOR_TYPE types[] = {DML_OPERATOR_RESAMPLE, DML_OPERATOR_RESAMPLE1,
                                              DML_OPERATOR_RESAMPLE2, DML_OPERATOR_RESAMPLE3};
    static const DML_TENSOR_DATA_TYPE ok_types[] = {F32, F16, DML_TENSOR_DATA_TYPE_INT8,
                                                    DML_TENSOR_DATA_TYPE_UINT8};
    for (int t = 0; t < 4; ++t)
        for (int k = 0; k < 4; ++k) {
            rs_init(&c, ok_types[k]);
            cr_expect_eq(create_as(&c, types[t]), S_OK, "%s", dmlcl_last_error());
        }
    /* Ranks 1 to 4; output sizes free (crop and clamp). */
    rs_init(&c, F32);
    unit_tensor_set(&c.in, F32, 1, (UINT[]){5}, NULL);
    unit_tensor_set(&c.out, F32, 1, (UINT[]){3}, NULL);
    c.d.DimensionCount = 1;
    cr_expect_eq(create(&c), S_OK, "%s", dmlcl_last_error());
    rs_init(&c, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(create(&c), E_INVALIDARG, "RESAMPLE3", "InputTensor.DataType (INT32)",
           "FLOAT32, FLOAT16, INT8, UINT8");
    rs_init(&c, F32);
    unit_tensor_set(&c.in, F32, 5, (UINT[]){1, 1, 3, 2, 4}, NULL);
    unit_tensor_set(&c.out, F32, 5, (UINT[]){1, 1, 3, 4, 8}, NULL);
    c.d.DimensionCount = 5;
    EXPECT(create(&c), E_INVALIDARG, "InputTensor.DimensionCount (5)", "1 to 4");
    rs_init(&c, F32);
    unit_tensor_set_type(&c.out, F16);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DataType (FLOAT16)");
    rs_init(&c, F32);
    unit_tensor_set(&c.out, F32, 3, ys + 1, NULL);
    EXPECT(create(&c), E_INVALIDARG, "OutputTensor.DimensionCount (3)");
    rs_init(&c, F32);
    c.d.InterpolationMode = (DML_INTERPOLATION_MODE)2;
    EXPECT(create(&c), E_INVALIDARG, "InterpolationMode (2)");
    rs_init(&c, F32);
    c.d.RoundingDirection = (DML_AXIS_DIRECTION)7;
    EXPECT(create(&c), E_INVALIDARG, "RoundingDirection (7)");
    rs_init(&c, F32);
    c.d.DimensionCount = 3;
    EXPECT(create(&c), E_INVALIDARG, "DimensionCount (3)", "InputTensor.DimensionCount (4)");
    EXPECT(create_as(&c, DML_OPERATOR_RESAMPLE), E_INVALIDARG, "RESAMPLE:", "ScaleCount (3)");
    rs_init(&c, F32);
    c.scales[2] = 0;
    EXPECT(create(&c), E_INVALIDARG, "Scales[2] (0)", "greater than 0");
    rs_init(&c, F32);
    c.scales[3] = -2;
    EXPECT(create_as(&c, DML_OPERATOR_RESAMPLE), E_INVALIDARG, "Scales[3] (-2)");
    rs_init(&c, F32);
    c.scales[1] = INFINITY;
    EXPECT(create(&c), E_INVALIDARG, "Scales[1] (inf)", "finite");
    rs_init(&c, F32);
    c.in_off[0] = NAN;
    EXPECT(create(&c), E_INVALIDARG, "InputPixelOffsets[0] (nan)", "finite");
    rs_init(&c, F32);
    c.out_off[3] = -INFINITY;
    EXPECT(create_as(&c, DML_OPERATOR_RESAMPLE1), E_INVALIDARG, "OutputPixelOffsets[3] (-inf)");
    rs_init(&c, F32);
    c.d.Scales = NULL;
    EXPECT(create(&c), E_POINTER, "Scales is NULL");
    rs_init(&c, F32);
    c.d.InputPixelOffsets = NULL;
    EXPECT(create_as(&c, DML_OPERATOR_RESAMPLE2), E_POINTER, "InputPixelOffsets is NULL");
    rs_init(&c, F32);
}

Test(resample_validate, antialiased)
{
    rs c;
    rs_init(&c, F32);
    c.d.Antialiased = 1;
    cr_expect_eq(create(&c), S_OK, "upscaling: %s", dmlcl_last_error());
    c.scales[2] = 0.5f;
    unit_tensor_set(&c.out, F32, 4, (UINT[]){1, 3, 1, 8}, NULL);
    cr_expect_eq(create(&c), S_OK, "downscaling: %s", dmlcl_last_error());
}

typedef struct up {
    unit_tensor in, out;
    DML_UPSAMPLE_2D_OPERATOR_DESC d;
} up;

static HRESULT create_up(const up *c)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_UPSAMPLE_2D, &c->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

static void up_init(up *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, ys, NULL);
    c->d.ScaleSize = (DML_SIZE_2D){2, 2};
    c->d.InterpolationMode = NEAREST;
}

Test(resample_validate, upsample_2d_rules)
{
    up c;
    up_init(&c, F32);
    cr_expect_eq(create_up(&c), S_OK, "%s", dmlcl_last_error());
    up_init(&c, F16);
    unit_tensor_set(&c.in, F16, 5, (UINT[]){1, 2, 3, 2, 4}, NULL);
    unit_tensor_set(&c.out, F16, 5, (UINT[]){1, 2, 3, 6, 4}, NULL);
    c.d.ScaleSize = (DML_SIZE_2D){1, 3};
    c.d.InterpolationMode = LINEAR;
    cr_expect_eq(create_up(&c), S_OK, "%s", dmlcl_last_error());
    up_init(&c, DML_TENSOR_DATA_TYPE_UINT8);
    EXPECT(create_up(&c), E_INVALIDARG, "UPSAMPLE_2D", "InputTensor.DataType (UINT8)",
           "FLOAT32, FLOAT16");
    up_init(&c, F32);
    unit_tensor_set(&c.in, F32, 3, xs + 1, NULL);
    unit_tensor_set(&c.out, F32, 3, ys + 1, NULL);
    EXPECT(create_up(&c), E_INVALIDARG, "InputTensor.DimensionCount (3)", "4");
    up_init(&c, F32);
    c.d.ScaleSize.Height = 0;
    EXPECT(create_up(&c), E_INVALIDARG, "ScaleSize.Height (0)");
    up_init(&c, F32);
    c.d.ScaleSize.Width = 0x40000000u;
    EXPECT(create_up(&c), E_INVALIDARG, "ScaleSize.Width (1073741824)", "UINT_MAX / InputWidth");
    up_init(&c, F32);
    c.d.ScaleSize = (DML_SIZE_2D){3, 2};
    EXPECT(create_up(&c), E_INVALIDARG, "OutputTensor.Sizes", "{1,3,4,8}", "ScaleSize");
    up_init(&c, F32);
    c.d.InterpolationMode = (DML_INTERPOLATION_MODE)9;
    EXPECT(create_up(&c), E_INVALIDARG, "UPSAMPLE_2D", "InterpolationMode (9)");
}

typedef struct vs {
    unit_tensor in, out;
    float bias[3];
    DML_VALUE_SCALE_2D_OPERATOR_DESC d;
} vs;

static HRESULT create_vs(const vs *c)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_VALUE_SCALE_2D, &c->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

static void vs_init(vs *c, DML_TENSOR_DATA_TYPE dt)
{
    memset(c, 0, sizeof *c);
    c->d.InputTensor = unit_tensor_set(&c->in, dt, 4, xs, NULL);
    c->d.OutputTensor = unit_tensor_set(&c->out, dt, 4, xs, NULL);
    c->d.Scale = 2;
    c->d.ChannelCount = 3;
    c->d.Bias = c->bias;
}

Test(resample_validate, value_scale_2d_rules)
{
    vs c;
    vs_init(&c, F32);
    cr_expect_eq(create_vs(&c), S_OK, "%s", dmlcl_last_error());
    vs_init(&c, F16);
    unit_tensor_set(&c.in, F16, 4, (UINT[]){2, 1, 3, 3}, NULL);
    unit_tensor_set(&c.out, F16, 4, (UINT[]){2, 1, 3, 3}, NULL);
    c.d.ChannelCount = 1;
    cr_expect_eq(create_vs(&c), S_OK, "%s", dmlcl_last_error());
    vs_init(&c, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT(create_vs(&c), E_INVALIDARG, "VALUE_SCALE_2D", "InputTensor.DataType (INT8)");
    vs_init(&c, F32);
    c.d.ChannelCount = 2;
    EXPECT(create_vs(&c), E_INVALIDARG, "ChannelCount (2)", "1 or 3");
    vs_init(&c, F32);
    c.d.ChannelCount = 1;
    EXPECT(create_vs(&c), E_INVALIDARG, "ChannelCount (1)", "InputTensor.Sizes[1]");
    vs_init(&c, F32);
    c.d.Bias = NULL;
    EXPECT(create_vs(&c), E_POINTER, "Bias is NULL");
    vs_init(&c, F32);
    unit_tensor_set(&c.out, F32, 4, ys, NULL);
    EXPECT(create_vs(&c), E_INVALIDARG, "OutputTensor.Sizes");
    vs_init(&c, F32);
    unit_tensor_set(&c.in, F32, 3, xs + 1, NULL);
    unit_tensor_set(&c.out, F32, 3, xs + 1, NULL);
    EXPECT(create_vs(&c), E_INVALIDARG, "InputTensor.DimensionCount (3)");
}

/* The oracle on values worked by hand. */
static ref_tensor view(float *data, uint32_t n)
{
    uint32_t sizes[1] = {n};
    return ref_tensor_view(F32, 1, sizes, NULL, data);
}

Test(resample_validate, oracle_by_hand)
{
    float in[3] = {1, 2, 4}, out[6];
    ref_tensor ti = view(in, 3), to = view(out, 6);
    /* half_pixel, scale 2: x = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, 1.75, 2.25. */
    ref_resample_desc d = {
        .linear = true, .scales = {2}, .input_offsets = {0.5f}, .output_offsets = {-0.5f}};
    cr_assert(ref_resample(&ti, &to, &d, NULL));
    const float lin[6] = {1, 1.25f, 1.75f, 2.5f, 3.5f, 4};
    for (int i = 0; i < 6; ++i)
        cr_expect_float_eq(out[i], lin[i], 0, "linear %d: %g", i, (double)out[i]);
    /* Nearest, half up: floor(x + 0.5) = 0, 0, 1, 1, 2, 2. */
    d.linear = false;
    d.half_up = true;
    cr_assert(ref_resample(&ti, &to, &d, NULL));
    const float near[6] = {1, 1, 2, 2, 4, 4};
    for (int i = 0; i < 6; ++i)
        cr_expect_float_eq(out[i], near[i], 0, "nearest %d", i);
    /* Ceil (RESAMPLE2 INCREASING): ceil(x) = 0, 1, 1, 2, 2, 3 -> clamped 2. */
    d.half_up = false;
    d.ceil = true;
    cr_assert(ref_resample(&ti, &to, &d, NULL));
    const float ceil_want[6] = {1, 2, 2, 4, 4, 4};
    for (int i = 0; i < 6; ++i)
        cr_expect_float_eq(out[i], ceil_want[i], 0, "ceil %d", i);
    /* Asymmetric downscale by 2 (scale 0.5, offsets 0): x = 2o: 0, 2, 4 (clamped). */
    float small[2];
    ref_tensor ts = view(small, 2);
    d = (ref_resample_desc){.scales = {0.5f}};
    cr_assert(ref_resample(&ti, &ts, &d, NULL));
    cr_expect(small[0] == 1 && small[1] == 4, "%g %g", (double)small[0], (double)small[1]);
}

/* ---- RESAMPLE_GRAD and RESAMPLE_GRAD1 --------------------------------------------------- */

/* The gradient of the forward c describes: InputGradientTensor c's output ({1,3,4,8}),
 * OutputGradientTensor c's input ({1,3,2,4}). */
static HRESULT create_grad(const rs *c, DML_OPERATOR_TYPE type, dmlcl_operator **keep)
{
    DML_RESAMPLE_GRAD_OPERATOR_DESC g0 = {
        c->d.OutputTensor, c->d.InputTensor,       c->d.InterpolationMode, c->d.DimensionCount,
        c->d.Scales,       c->d.InputPixelOffsets, c->d.OutputPixelOffsets};
    DML_RESAMPLE_GRAD1_OPERATOR_DESC g1 = {
        c->d.OutputTensor,   c->d.InputTensor, c->d.InterpolationMode, c->d.RoundingDirection,
        c->d.DimensionCount, c->d.Scales,      c->d.InputPixelOffsets, c->d.OutputPixelOffsets};
    DML_OPERATOR_DESC d = {type, type == DML_OPERATOR_RESAMPLE_GRAD ? (const void *)&g0
                                                                    : (const void *)&g1};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    if (keep)
        *keep = op;
    else
        dmlcl_operator_release(op);
    return hr;
}

#define G0 DML_OPERATOR_RESAMPLE_GRAD
#define G1 DML_OPERATOR_RESAMPLE_GRAD1

Test(resample_validate, grad_rules)
{
    rs c;
    for (int t = 0; t < 2; ++t) {
        DML_OPERATOR_TYPE type = t ? G1 : G0;
        rs_init(&c, F32);
        cr_expect_eq(create_grad(&c, type, NULL), S_OK, "%s", dmlcl_last_error());
        rs_init(&c, F16);
        c.d.InterpolationMode = NEAREST;
        cr_expect_eq(create_grad(&c, type, NULL), S_OK, "%s", dmlcl_last_error());
        /* The pages' tables: FLOAT32 and FLOAT16 only. */
        rs_init(&c, DML_TENSOR_DATA_TYPE_UINT8);
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG,
               t ? "RESAMPLE_GRAD1:" : "RESAMPLE_GRAD:", "InputGradientTensor.DataType (UINT8)",
               "(FLOAT32, FLOAT16)");
        rs_init(&c, F32);
        unit_tensor_set_type(&c.in, F16);
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG,
               "OutputGradientTensor.DataType (FLOAT16)");
        rs_init(&c, F32);
        unit_tensor_set(&c.in, F32, 3, xs + 1, NULL);
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG,
               "OutputGradientTensor.DimensionCount (3)");
        rs_init(&c, F32);
        c.d.InterpolationMode = (DML_INTERPOLATION_MODE)5;
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG, "InterpolationMode (5)");
        rs_init(&c, F32);
        c.d.DimensionCount = 2;
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG, "DimensionCount (2)",
               "InputGradientTensor.DimensionCount (4)");
        rs_init(&c, F32);
        c.scales[1] = -1;
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG, "Scales[1] (-1)", "greater than 0");
        rs_init(&c, F32);
        c.in_off[2] = INFINITY;
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG, "InputPixelOffsets[2] (inf)", "finite");
        rs_init(&c, F32);
        c.d.OutputPixelOffsets = NULL;
        EXPECT(create_grad(&c, type, NULL), E_POINTER, "OutputPixelOffsets is NULL");
        rs_init(&c, F32);
        c.d.OutputTensor = NULL;
        EXPECT(create_grad(&c, type, NULL), E_INVALIDARG, "InputGradientTensor");
    }
    /* Ranks: RESAMPLE_GRAD 4 only (its page), RESAMPLE_GRAD1 1 to 4. */
    rs_init(&c, F32);
    unit_tensor_set(&c.in, F32, 2, (UINT[]){3, 5}, NULL);
    unit_tensor_set(&c.out, F32, 2, (UINT[]){6, 2}, NULL);
    c.d.DimensionCount = 2;
    cr_expect_eq(create_grad(&c, G1, NULL), S_OK, "%s", dmlcl_last_error());
    EXPECT(create_grad(&c, G0, NULL), E_INVALIDARG, "InputGradientTensor.DimensionCount (2)",
           "must be 4");
    unit_tensor_set(&c.in, F32, 5, (UINT[]){1, 1, 3, 2, 4}, NULL);
    unit_tensor_set(&c.out, F32, 5, (UINT[]){1, 1, 3, 4, 8}, NULL);
    c.d.DimensionCount = 5;
    EXPECT(create_grad(&c, G1, NULL), E_INVALIDARG, "InputGradientTensor.DimensionCount (5)",
           "1 to 4");
    /* RoundingDirection (RESAMPLE_GRAD1's). */
    rs_init(&c, F32);
    c.d.RoundingDirection = (DML_AXIS_DIRECTION)3;
    EXPECT(create_grad(&c, G1, NULL), E_INVALIDARG, "RoundingDirection (3)");
}

/* The oracle on the pages' example: a nearest resample of {2, 2} by 0.5 (H) and 1.5 (W) reads
 * element 0 twice and element 1 once; its gradient of {4, 5, 6} is {9, 6, 0, 0}. Offsets 0
 * (x = o / Scale), floor; the transposed weights of LINEAR by hand. */
Test(resample_validate, grad_oracle_by_hand)
{
    float dy[3] = {4, 5, 6}, dx[4];
    ref_tensor ty = ref_tensor_view(F32, 2, (uint32_t[]){1, 3}, NULL, dy);
    ref_tensor tx = ref_tensor_view(F32, 2, (uint32_t[]){2, 2}, NULL, dx);
    ref_resample_desc d = {.scales = {0.5f, 1.5f}};
    uint32_t terms[4];
    cr_assert(ref_resample_grad(&ty, &tx, &d, terms, NULL));
    const float want[4] = {9, 6, 0, 0};
    for (int i = 0; i < 4; ++i)
        cr_expect_float_eq(dx[i], want[i], 0, "page example %d: %g", i, (double)dx[i]);
    cr_expect(terms[0] == 2 && terms[1] == 1 && terms[2] == 0, "%u %u %u", terms[0], terms[1],
              terms[2]);
    /* LINEAR half_pixel, scale 2 of {3}: x = -0.25 (clamped), 0.25, 0.75, 1.25, 1.75, 2.25
     * (clamped): dX[0] = g0 + 0.75 g1 + 0.25 g2, dX[1] = 0.25 g1 + 0.75 g2 + 0.75 g3 +
     * 0.25 g4, dX[2] = 0.25 g3 + 0.75 g4 + g5. */
    float g[6] = {1, 2, 4, 8, 16, 32}, r[3];
    ref_tensor tg = view(g, 6), tr = view(r, 3);
    d = (ref_resample_desc){
        .linear = true, .scales = {2}, .input_offsets = {0.5f}, .output_offsets = {-0.5f}};
    cr_assert(ref_resample_grad(&tg, &tr, &d, NULL, NULL));
    cr_expect_float_eq(r[0], 1 + 1.5f + 1, 0, "%g", (double)r[0]);
    cr_expect_float_eq(r[1], 0.5f + 3 + 6 + 4, 0, "%g", (double)r[1]);
    cr_expect_float_eq(r[2], 2 + 12 + 32, 0, "%g", (double)r[2]);
}

/* ---- The launch (src/launch_resample.c), per device class, no device -------------------- */

static const dmli_device_desc unit_cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
static const dmli_device_desc unit_gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};

static float bits_float(cl_long v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

Test(resample_validate, launch)
{
    rs c;
    rs_init(&c, F16); /* {1,3,2,4} -> {1,3,4,8}, LINEAR, scales 2 on H and W */
    DML_OPERATOR_DESC d = {DML_OPERATOR_RESAMPLE3, &c.d};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_RESAMPLE);
    cr_assert_eq(st->compute.n_tensors, 2);
    cr_expect(!st->compute.tensors[0].output && st->compute.tensors[1].output);
    static dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &unit_cpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "T"), "ushort");
    cr_expect_str_eq(dmli_options_value(&l.defs, "HALF"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "LINEAR"), "1");
    /* CPUs: bands (N and C scaled by 1 from pixel centres: every coordinate integral, no
     * interpolation there), 32 rows x 512 columns a work-group of one item. */
    cr_expect_str_eq(l.kernel, "resample_band");
    cr_expect_str_eq(dmli_options_value(&l.defs, "BAND"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "VEC"), "512");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ROWS"), "32");
    /* Padded to five dimensions: {1, 1, 3, 4, 8}. */
    cr_expect_eq(l.table[DMLI_RS_AT(4, DMLI_RS_OSIZE)], 8);
    cr_expect_eq(l.table[DMLI_RS_AT(3, DMLI_RS_ISIZE)], 2);
    cr_expect_eq(l.table[DMLI_RS_AT(2, DMLI_RS_IS)], 8);
    cr_expect_float_eq(bits_float(l.table[DMLI_RS_AT(3, DMLI_RS_SCALE_OF)]), 2.0f, 0);
    cr_expect_float_eq(bits_float(l.table[DMLI_RS_AT(3, DMLI_RS_RECIP)]), 0.5f, 0);
    cr_expect_float_eq(bits_float(l.table[DMLI_RS_AT(3, DMLI_RS_IN_OFF)]), 0.5f, 0);
    cr_expect_eq(l.global[0], 1); /* 8 columns: a band of 512 */
    cr_expect_eq(l.global[1], 1); /* 4 rows: a band of 32 */
    cr_expect_eq(l.global[2], 3); /* the planes */
    cr_expect(l.local[0] == 1 && l.local[1] == 1 && l.local[2] == 1);
    cr_expect(strstr(l.options, "-DLINEAR=1"), "%s", l.options);
    /* A CPU whose local memory holds no stage of 64 rows + 4 column tables of 512 floats
     * (139264 bytes): the generic kernel, 8 x 8 outputs an item. */
    dmli_device_desc small = unit_cpu;
    small.local_mem_size = 139264 - 1;
    dmli_launch_compute(&st->compute, &small, &l);
    cr_expect_str_eq(l.kernel, "resample");
    cr_expect_null(dmli_options_value(&l.defs, "BAND"));
    cr_expect_str_eq(dmli_options_value(&l.defs, "VEC"), "8");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ROWS"), "8");
    cr_expect_eq(l.global[0], 1); /* 8 outputs: a chunk */
    cr_expect_eq(l.global[1], 1); /* 4 rows: a block of 8 */
    small.local_mem_size = 139264;
    dmli_launch_compute(&st->compute, &small, &l);
    cr_expect_str_eq(l.kernel, "resample_band");
    /* GPUs: a column of 4 output rows an item (the 4 rows here one item's), a group of up to
     * 64 along W, the grid whole groups. */
    dmli_launch_compute(&st->compute, &unit_gpu, &l);
    cr_expect_str_eq(l.kernel, "resample");
    cr_expect_str_eq(dmli_options_value(&l.defs, "VEC"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ROWS"), "4");
    cr_expect_eq(l.local[0], 8);
    cr_expect_eq(l.local[1], 1);
    cr_expect_eq(l.global[0] % l.local[0], 0);
    cr_expect_eq(l.global[1], 1);
    dmlcl_operator_release(op);
    /* Nearest half up (RESAMPLE1): the input offset 0.5 less; RESAMPLE2 INCREASING: CEIL. */
    rs_init(&c, F32);
    c.d.InterpolationMode = NEAREST;
    DML_RESAMPLE1_OPERATOR_DESC r1 = {c.d.InputTensor, c.d.OutputTensor, NEAREST,  4,
                                      c.scales,        c.in_off,         c.out_off};
    d = (DML_OPERATOR_DESC){DML_OPERATOR_RESAMPLE1, &r1};
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    dmli_launch_compute(&dmli_operator_state(op)->compute, &unit_cpu, &l);
    cr_expect_float_eq(bits_float(l.table[DMLI_RS_AT(4, DMLI_RS_IN_OFF)]), 0.0f, 0);
    cr_expect_str_eq(dmli_options_value(&l.defs, "CEIL"), "0");
    dmlcl_operator_release(op);
    c.d.RoundingDirection = DML_AXIS_DIRECTION_INCREASING;
    d = (DML_OPERATOR_DESC){DML_OPERATOR_RESAMPLE3, &c.d};
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    dmli_launch_compute(&dmli_operator_state(op)->compute, &unit_gpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "CEIL"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ANTIALIAS"), "0");
    cr_expect_float_eq(bits_float(l.table[DMLI_RS_AT(4, DMLI_RS_IN_OFF)]), 0.5f, 0);
    dmlcl_operator_release(op);
}

/* The gradients: resample_grad (GRAD 1), one item per element of the gradient written, in
 * groups; the table the forward's, the forward's input the output's; a graph's view of the
 * incoming gradient restrides the forward output's fields. */
Test(resample_validate, grad_launch)
{
    rs c;
    rs_init(&c, F16);
    dmlcl_operator *op = NULL;
    cr_assert_eq(create_grad(&c, G1, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_RESAMPLE);
    cr_expect(!st->compute.tensors[0].output && st->compute.tensors[1].output);
    static dmli_compute_launch l;
    static dmli_compute copy;
    for (int k = 0; k < 2; ++k) {
        dmli_launch_compute(&st->compute, k ? &unit_gpu : &unit_cpu, &l);
        cr_expect_str_eq(l.kernel, "resample_grad");
        cr_expect_str_eq(dmli_options_value(&l.defs, "GRAD"), "1");
        cr_expect_str_eq(dmli_options_value(&l.defs, "HALF"), "1");
        cr_expect_str_eq(dmli_options_value(&l.defs, "LINEAR"), "1");
        cr_expect_eq(l.table[DMLI_RS_AT(4, DMLI_RS_ISIZE)], 4); /* dX {1,3,2,4} */
        cr_expect_eq(l.table[DMLI_RS_AT(4, DMLI_RS_OSIZE)], 8); /* dY {1,3,4,8} */
        cr_expect_eq(l.table[DMLI_RS_AT(3, DMLI_RS_OS)], 8);
        cr_expect(l.global[0] >= 24 && l.global[0] % l.local[0] == 0, "%zu %zu", l.global[0],
                  l.local[0]);
        cr_expect(l.global[1] == 1 && l.global[2] == 1);
    }
    int64_t strides[4] = {96, 1, 3, 12}; /* dY read through a transposed view */
    copy = st->compute;
    cr_assert(dmli_compute_restride(&copy, 0, strides, 5));
    dmli_launch_compute(&copy, &unit_cpu, &l);
    cr_expect_eq(l.table[DMLI_RS_AT(2, DMLI_RS_OS)], 1);
    cr_expect_eq(l.table[DMLI_RS_AT(4, DMLI_RS_OS)], 12);
    cr_expect_eq(l.table[DMLI_RS_AT(4, DMLI_RS_IS)], 1); /* dX's own */
    dmlcl_operator_release(op);
}

/* Where a band would read more than one input plane (dimensions 0 to 2 interpolated) or write
 * a row with gaps, or RESAMPLE3 antialiases: the generic kernel on CPUs. */
Test(resample_validate, launch_band_rules)
{
    static const struct {
        float c_scale, c_in_off, c_out_off;
        DML_INTERPOLATION_MODE mode;
        BOOL antialiased;
        bool out_strided;
        bool band;
    } k[] = {
        {1.0f, 0.5f, -0.5f, LINEAR, 0, false, true},  /* C from pixel centres: x = o */
        {2.0f, 0.5f, -0.5f, LINEAR, 0, false, false}, /* C x2: o = 1 at 0.25 */
        {2.0f, 0.5f, -0.5f, NEAREST, 0, false, true}, /* nearest never interpolates */
        {1.0f, 0.25f, 0.0f, LINEAR, 0, false, false}, /* C shifted a quarter: x = o - 1/4 */
        {1.0f, 0.0f, 0.0f, LINEAR, 0, false, true},   /* the asymmetric identity */
        {1.0f, 0.5f, -0.5f, LINEAR, 0, true, false},  /* W's output stride 2 */
        {1.0f, 0.5f, -0.5f, LINEAR, 1, false, true},  /* antialiased, scales >= 1 */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        rs c;
        rs_init(&c, F32);
        UINT outs[4] = {1, k[i].c_scale == 2.0f ? 6 : 3, 4, 8};
        UINT ostr[4] = {3 * 4 * 16, 4 * 16, 16, 2};
        c.d.OutputTensor = unit_tensor_set(&c.out, F32, 4, outs, k[i].out_strided ? ostr : NULL);
        c.scales[1] = k[i].c_scale;
        c.in_off[1] = k[i].c_in_off;
        c.out_off[1] = k[i].c_out_off;
        c.d.InterpolationMode = k[i].mode;
        c.d.Antialiased = k[i].antialiased;
        DML_OPERATOR_DESC d = {DML_OPERATOR_RESAMPLE3, &c.d};
        dmlcl_operator *op = NULL;
        cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "case %zu: %s", i,
                     dmlcl_last_error());
        static dmli_compute_launch l;
        dmli_launch_compute(&dmli_operator_state(op)->compute, &unit_cpu, &l);
        cr_expect_str_eq(l.kernel, k[i].band ? "resample_band" : "resample", "case %zu", i);
        dmlcl_operator_release(op);
    }
    /* Antialiased with a scale below 1 (W halved): the generic kernel. */
    rs c;
    rs_init(&c, F32);
    UINT outs[4] = {1, 3, 4, 2};
    c.d.OutputTensor = unit_tensor_set(&c.out, F32, 4, outs, NULL);
    c.scales[3] = 0.5f;
    c.d.Antialiased = 1;
    DML_OPERATOR_DESC d = {DML_OPERATOR_RESAMPLE3, &c.d};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    static dmli_compute_launch l;
    dmli_launch_compute(&dmli_operator_state(op)->compute, &unit_cpu, &l);
    cr_expect_str_eq(l.kernel, "resample");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ANTIALIAS"), "1");
    dmlcl_operator_release(op);
}

/* ---- Graphs: a transpose fused into the resample's reads (dmli_restride_resample) -------- */

/* {IDENTITY(in 0: x {1, 3, 2, 4} NCHW read from NHWC memory) -> RESAMPLE2 nearest x2 on H, W}:
 * one step, the input read from graph input 0 through the transpose's strides. */
Test(resample_validate, graph_transpose_fused)
{
    static const UINT xs4[4] = {1, 3, 2, 4}, nhwc[4] = {24, 1, 12, 3}, ys4[4] = {1, 3, 4, 8};
    static unit_tensor t_in, t_mid, r_in, r_out;
    static float scales[4] = {1, 1, 2, 2}, io[4] = {0, 0, 0, 0},
                 oo[4] = {-0.5f, -0.5f, -0.5f, -0.5f};
    static DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
    static DML_RESAMPLE2_OPERATOR_DESC r2;
    id =
        (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){unit_tensor_set(&t_in, F32, 4, xs4, nhwc),
                                                  unit_tensor_set(&t_mid, F32, 4, xs4, NULL), NULL};
    r2 = (DML_RESAMPLE2_OPERATOR_DESC){unit_tensor_set(&r_in, F32, 4, xs4, NULL),
                                       unit_tensor_set(&r_out, F32, 4, ys4, NULL),
                                       NEAREST,
                                       DML_AXIS_DIRECTION_DECREASING,
                                       4,
                                       scales,
                                       io,
                                       oo};
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
    ug_node(&g, DML_OPERATOR_RESAMPLE2, &r2);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 1, 0);
    ug_desc(&g, 1, 1);
    ug_plan(&g.desc, &graph, &plan);
    cr_assert_eq(plan->n_steps, 1, "%u steps", plan->n_steps);
    const dmli_graph_step *s = &plan->steps[0];
    cr_assert(s->compute != NULL);
    cr_expect_eq(plan->temp_bytes, 0, "the transpose is never stored");
    cr_expect(s->tensors[0].kind == DMLI_SLOT_INPUT && s->tensors[0].index == 0);
    const dmli_resample *r = DMLI_COMPUTE_WORK_CONST(s->compute, dmli_resample);
    for (int d = 1; d < 4; ++d) /* N has one element: its stride is never read */
        cr_expect_eq(r->in_stride[1 + d], (int64_t)nhwc[d], "dimension %d", d);
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}
