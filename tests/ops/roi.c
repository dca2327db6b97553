/* SPDX-License-Identifier: MIT */
/*
 * ROI_POOLING, ROI_ALIGN, ROI_ALIGN1, ROI_ALIGN_GRAD, FOLD and UNFOLD on the device against the
 * oracle (tests/ref/ref_roi.c, double) and the pages' own examples. Inputs are random from a
 * printed, overridable seed (DMLCL_TEST_SEED); a case's tensors may be strided (a padded
 * innermost run) so that the kernels must read and write through the strides; outputs are
 * poisoned first so that every element must be written.
 *
 * Tolerances (reference/precision.md): ROI_POOLING and UNFOLD exact (data movement and a
 * maximum). ROI_ALIGN computes a sample's position and its bilinear weights in float32: with
 * coordinates below 64 a position is off by at most 64 * 2^-21 and values in [-1, 1] move by
 * at most 2 per unit, so a sample is within 2^-14; an average of S samples adds S ULP of its
 * sum: atol 2^-13. FOLD sums at most K values of [-1, 1] in float32: K ULP of K, atol
 * K^2 * 2^-23 (integers: exact). FLOAT16 outputs add their rounding, 2^-11 relative.
 * ROI_ALIGN_GRAD: the same float32 positions move a weight by at most 2^-14, so a gradient
 * element is within 2^-13 of the sum of its terms' magnitudes (at least 1); a region's
 * gradient, a sum of slopes (values of [-1, 1]) times the coordinates' derivatives, within
 * 2^-12 of the sum of those magnitudes. Besides the oracle, every AVERAGE case checks the
 * adjoint identity <ROI_ALIGN1(x) - ROI_ALIGN1(0), dY> = <x, dX> with the forward oracle.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "ref_broadcast.h"
#include "ref_roi.h"

OPS_DEVICE_SUITE(roi);

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U64 DML_TENSOR_DATA_TYPE_UINT64

/* A tensor of a case: sizes, strides (packed, or the innermost run padded by 3) and its
 * host data; `values` the packed logical values as stored. */
typedef struct buf {
    DML_TENSOR_DESC desc;
    DML_BUFFER_TENSOR_DESC buffer;
    UINT sizes[8], strides[8];
    uint32_t rank;
    unsigned char *data;
    uint64_t bytes, count;
    double *values;
} buf;

static void buf_make(buf *b, DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                     bool strided)
{
    memset(b, 0, sizeof *b);
    b->rank = rank;
    uint64_t stride = 1;
    b->count = 1;
    for (int d = (int)rank - 1; d >= 0; --d) {
        b->sizes[d] = sizes[d];
        b->strides[d] = (UINT)stride;
        stride *= sizes[d] + (d == (int)rank - 1 && strided ? 3 : 0);
        b->count *= sizes[d];
    }
    b->buffer.DataType = type;
    b->buffer.DimensionCount = rank;
    b->buffer.Sizes = b->sizes;
    b->buffer.Strides = strided ? b->strides : NULL;
    b->buffer.TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(type, rank, b->sizes, b->buffer.Strides);
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
    for (int d = (int)b->rank - 1; d >= 0; --d) {
        off += (i % b->sizes[d]) * b->strides[d];
        i /= b->sizes[d];
    }
    return off;
}

static uint32_t width(DML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case I8: return 1;
    case F16: return 2;
    case F64:
    case U64: return 8;
    default: return 4;
    }
}

static void buf_store(buf *b, uint64_t i, double v)
{
    unsigned char *p = b->data + buf_offset(b, i) * width(b->buffer.DataType);
    switch (b->buffer.DataType) {
    case F16: {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
        b->values[i] = ref_half_to_double(h);
        return;
    }
    case F64: memcpy(p, &v, 8); break;
    case I8: *(int8_t *)p = (int8_t)v; break;
    case I32: {
        int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    case U32: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    case U64: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    default: {
        float f = (float)v;
        memcpy(p, &f, 4);
        b->values[i] = f;
        return;
    }
    }
    b->values[i] = v;
}

static double buf_load(const buf *b, uint64_t i)
{
    const unsigned char *p = b->data + buf_offset(b, i) * width(b->buffer.DataType);
    switch (b->buffer.DataType) {
    case F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    case F64: {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    case I8: return *(const int8_t *)p;
    case I32: {
        int32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    default: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    }
}

static double uniform(ref_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)ref_rng_below(rng, 1u << 24) / (1u << 24);
}

static void buf_random(buf *b, ref_rng *rng)
{
    bool integer = b->buffer.DataType == I8 || b->buffer.DataType == I32;
    for (uint64_t i = 0; i < b->count; ++i)
        buf_store(b, i, integer ? (double)ref_rng_below(rng, 200) - 100 : uniform(rng, -1, 1));
}

static void buf_free(buf *b)
{
    free(b->data);
    free(b->values);
}

/* Runs the operator on the bound host buffers. */
static void run(const char *name, DML_OPERATOR_TYPE type, const void *desc, buf **in, UINT n_in,
                buf *out)
{
    DML_OPERATOR_DESC op = {type, desc};
    dmlcl_host_tensor hin[3], hout = {out->data, out->bytes};
    for (UINT i = 0; i < n_in; ++i)
        hin[i] = (dmlcl_host_tensor){in[i]->data, in[i]->bytes};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &op, &o);
    cr_assert_eq(hr, S_OK, "%s: create: %s", name, dmlcl_last_error());
    hr = dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co);
    cr_assert_eq(hr, S_OK, "%s: compile: %s", name, dmlcl_last_error());
    hr = dmlcl_compiled_operator_execute(co, n_in, hin, 1, &hout);
    cr_assert_eq(hr, S_OK, "%s: execute: %s", name, dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);
}

static void compare(const char *name, const buf *out, const double *want, double atol)
{
    double rtol = out->buffer.DataType == F16 ? ldexp(1.0, -11) : 0.0;
    for (uint64_t i = 0; i < out->count; ++i) {
        double got = buf_load(out, i);
        cr_assert(fabs(got - want[i]) <= atol + rtol * fabs(want[i]),
                  "%s: element %llu: got %.9g, want %.9g (tolerance %.3g)", name,
                  (unsigned long long)i, got, want[i], atol + rtol * fabs(want[i]));
    }
}

/* ---- ROI_POOLING --------------------------------------------------------------------------- */

typedef struct pool_case {
    const char *name;
    DML_TENSOR_DATA_TYPE type;
    uint32_t n, c, h, w, rois, ph, pw;
    float scale;
    bool strided;
} pool_case;

static void run_pool(const pool_case *pc)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x524f4950));
    buf x, r, y;
    buf_make(&x, pc->type, 4, (uint32_t[]){pc->n, pc->c, pc->h, pc->w}, pc->strided);
    buf_make(&r, pc->type, 4, (uint32_t[]){1, 1, pc->rois, 5}, pc->strided);
    buf_make(&y, pc->type, 4, (uint32_t[]){pc->rois, pc->c, pc->ph, pc->pw}, pc->strided);
    buf_random(&x, &rng);
    /* Corners on a grid of quarters over the input and beyond it (scaled back by the
     * scale), some regions inverted, batch values past N (clamped). */
    for (uint32_t i = 0; i < pc->rois; ++i) {
        buf_store(&r, 5 * i, (double)ref_rng_below(&rng, pc->n + 1));
        for (int k = 1; k < 5; ++k) {
            uint32_t extent = k % 2 ? pc->w : pc->h;
            double v = ((double)ref_rng_below(&rng, 4 * extent + 12) - 6) / 4.0;
            buf_store(&r, 5 * i + k, v / pc->scale);
        }
    }
    DML_ROI_POOLING_OPERATOR_DESC d = {
        &x.desc, &r.desc, &y.desc, pc->scale, {.Width = pc->pw, .Height = pc->ph}};
    buf *in[] = {&x, &r};
    run(pc->name, DML_OPERATOR_ROI_POOLING, &d, in, 2, &y);
    double *want = calloc(y.count, sizeof *want);
    ref_roi_pool(x.values, pc->n, pc->c, pc->h, pc->w, r.values, pc->rois, pc->scale, pc->ph,
                 pc->pw, want);
    compare(pc->name, &y, want, 0.0);
    free(want);
    buf_free(&x);
    buf_free(&r);
    buf_free(&y);
}

Test(roi, pooling_float32)
{
    run_pool(&(pool_case){"roi_pooling f32", F32, 2, 3, 9, 11, 7, 3, 2, 1.0f, false});
}

Test(roi, pooling_float16_scaled_strided)
{
    run_pool(&(pool_case){"roi_pooling f16 strided", F16, 3, 2, 12, 8, 5, 4, 3, 0.5f, true});
}

Test(roi, pooling_bins_past_the_region)
{
    /* More bins than the region has elements: empty and repeated bins. */
    run_pool(&(pool_case){"roi_pooling fine bins", F32, 1, 2, 5, 6, 6, 7, 8, 1.0f, false});
}

/* ONNX's MaxRoiPool example shape (ONNX Runtime's test): spatial scale 1/16 over a 1/16 map. */
Test(roi, pooling_onnx_form)
{
    run_pool(&(pool_case){"roi_pooling onnx form", F32, 1, 3, 6, 6, 4, 2, 2, 0.0625f, false});
}

/* ---- ROI_ALIGN, ROI_ALIGN1 ----------------------------------------------------------------- */

typedef struct align_case {
    const char *name;
    bool v1;
    DML_TENSOR_DATA_TYPE type, idx_type;
    uint32_t n, c, h, w, rois, oh, ow;
    bool max, linear, corners, strided;
    bool owned; /* the rois and batch indices DML_TENSOR_FLAG_OWNED_BY_DML */
    float scale_x, scale_y, in_off, out_off, oob;
    uint32_t min_s, max_s;
    uint32_t roi_rank, idx_rank;
} align_case;

static void run_align(const align_case *ac)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x524f4941));
    buf x, r, b, y;
    uint32_t roi_sizes[4] = {1, 1, 1, 1}, idx_sizes[4] = {1, 1, 1, 1};
    uint32_t rr = ac->roi_rank ? ac->roi_rank : 2, ir = ac->idx_rank ? ac->idx_rank : 1;
    roi_sizes[rr - 2] = ac->rois;
    roi_sizes[rr - 1] = 4;
    idx_sizes[ir - 1] = ac->rois;
    buf_make(&x, ac->type, 4, (uint32_t[]){ac->n, ac->c, ac->h, ac->w}, ac->strided);
    buf_make(&r, ac->type, rr, roi_sizes, ac->strided);
    buf_make(&b, ac->idx_type, ir, idx_sizes, ac->strided);
    buf_make(&y, ac->type, 4, (uint32_t[]){ac->rois, ac->c, ac->oh, ac->ow}, ac->strided);
    buf_random(&x, &rng);
    /* Corners anywhere in [-3, extent + 3] (scaled back): regions past the input's edges,
     * inverted and empty ones among them. */
    uint64_t *batch = calloc(ac->rois, sizeof *batch);
    for (uint32_t i = 0; i < ac->rois; ++i) {
        for (int k = 0; k < 4; ++k) {
            double extent = k % 2 ? ac->h : ac->w, scale = k % 2 ? ac->scale_y : ac->scale_x;
            buf_store(&r, 4 * i + k, uniform(&rng, -3, extent + 3) / scale);
        }
        batch[i] = ref_rng_below(&rng, ac->n);
        buf_store(&b, i, (double)batch[i]);
    }
    if (ac->owned)
        r.buffer.Flags = b.buffer.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    if (ac->rois > 2) { /* an empty region and one past N (clamped) */
        buf_store(&r, 4 + 2, r.values[4]);
        batch[1] = ac->n - 1;
        buf_store(&b, 1, (double)ac->n + 5);
    }
    DML_ROI_ALIGN_OPERATOR_DESC d0 = {
        &x.desc,
        &r.desc,
        &b.desc,
        &y.desc,
        ac->max ? DML_REDUCE_FUNCTION_MAX : DML_REDUCE_FUNCTION_AVERAGE,
        ac->linear ? DML_INTERPOLATION_MODE_LINEAR : DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
        ac->scale_x,
        ac->scale_y,
        ac->oob,
        ac->min_s,
        ac->max_s};
    DML_ROI_ALIGN1_OPERATOR_DESC d1 = {&x.desc,
                                       &r.desc,
                                       &b.desc,
                                       &y.desc,
                                       d0.ReductionFunction,
                                       d0.InterpolationMode,
                                       ac->scale_x,
                                       ac->scale_y,
                                       ac->in_off,
                                       ac->out_off,
                                       ac->oob,
                                       ac->min_s,
                                       ac->max_s,
                                       ac->corners};
    buf *in[] = {&x, &r, &b};
    if (ac->v1)
        run(ac->name, DML_OPERATOR_ROI_ALIGN1, &d1, in, 3, &y);
    else
        run(ac->name, DML_OPERATOR_ROI_ALIGN, &d0, in, 3, &y);
    ref_roi_align_desc rd = {ac->n,
                             ac->c,
                             ac->h,
                             ac->w,
                             ac->rois,
                             ac->oh,
                             ac->ow,
                             ac->max,
                             ac->linear,
                             ac->v1 && ac->corners,
                             ac->scale_x,
                             ac->scale_y,
                             ac->v1 ? ac->in_off : 0.5,
                             ac->v1 ? ac->out_off : -0.5,
                             ac->oob,
                             ac->min_s,
                             ac->max_s};
    double *want = calloc(y.count, sizeof *want);
    ref_roi_align(&rd, x.values, r.values, batch, want);
    compare(ac->name, &y, want, ldexp(1.0, -13));
    free(want);
    free(batch);
    buf_free(&x);
    buf_free(&r);
    buf_free(&b);
    buf_free(&y);
}

Test(roi, align_average_linear)
{
    run_align(&(align_case){.name = "roi_align avg",
                            .type = F32,
                            .idx_type = U32,
                            .n = 2,
                            .c = 3,
                            .h = 10,
                            .w = 12,
                            .rois = 6,
                            .oh = 3,
                            .ow = 4,
                            .linear = true,
                            .scale_x = 1,
                            .scale_y = 1,
                            .min_s = 1,
                            .max_s = 4});
}

Test(roi, align_max_linear_out_of_bounds_value)
{
    run_align(&(align_case){.name = "roi_align max",
                            .type = F32,
                            .idx_type = U32,
                            .n = 2,
                            .c = 2,
                            .h = 7,
                            .w = 9,
                            .rois = 5,
                            .oh = 2,
                            .ow = 3,
                            .max = true,
                            .linear = true,
                            .scale_x = 0.5f,
                            .scale_y = 0.25f,
                            .oob = -7.5f,
                            .min_s = 2,
                            .max_s = 2});
}

Test(roi, align_nearest_float16_uint64_strided)
{
    run_align(&(align_case){.name = "roi_align nearest f16",
                            .type = F16,
                            .idx_type = U64,
                            .n = 3,
                            .c = 2,
                            .h = 8,
                            .w = 6,
                            .rois = 4,
                            .oh = 3,
                            .ow = 3,
                            .linear = false,
                            .strided = true,
                            .scale_x = 1,
                            .scale_y = 1,
                            .min_s = 1,
                            .max_s = 3,
                            .roi_rank = 4,
                            .idx_rank = 3});
}

/* ONNX Runtime's DirectML provider's RoiAlign (opset 16, half_pixel; sampling_ratio 0), the
 * rois and batch indices owned by DirectML (constants of a model). */
Test(roi, align1_half_pixel_onnx_form)
{
    run_align(&(align_case){.name = "roi_align1 half_pixel",
                            .v1 = true,
                            .type = F32,
                            .idx_type = U64,
                            .n = 2,
                            .c = 3,
                            .h = 10,
                            .w = 10,
                            .rois = 5,
                            .oh = 5,
                            .ow = 5,
                            .linear = true,
                            .scale_x = 1,
                            .scale_y = 1,
                            .in_off = 0.5f,
                            .out_off = -0.5f,
                            .min_s = 1,
                            .max_s = UINT32_MAX});
}

/* output_half_pixel (opset 10's behaviour): no input shift; sampling_ratio 2. */
Test(roi, align1_output_half_pixel_max)
{
    run_align(&(align_case){.name = "roi_align1 output_half_pixel",
                            .v1 = true,
                            .type = F32,
                            .idx_type = U32,
                            .n = 1,
                            .c = 2,
                            .h = 9,
                            .w = 8,
                            .rois = 4,
                            .oh = 3,
                            .ow = 2,
                            .max = true,
                            .linear = true,
                            .scale_x = 0.5f,
                            .scale_y = 0.5f,
                            .in_off = 0.0f,
                            .out_off = -0.5f,
                            .min_s = 2,
                            .max_s = 2});
}

Test(roi, align1_corners_float16)
{
    run_align(&(align_case){.name = "roi_align1 corners",
                            .v1 = true,
                            .type = F16,
                            .idx_type = U32,
                            .n = 2,
                            .c = 2,
                            .h = 6,
                            .w = 7,
                            .rois = 4,
                            .oh = 4,
                            .ow = 3,
                            .linear = true,
                            .corners = true,
                            .strided = true,
                            .scale_x = 1,
                            .scale_y = 1,
                            .in_off = 0.5f,
                            .out_off = -0.5f,
                            .oob = 2.0f,
                            .min_s = 1,
                            .max_s = 2,
                            .roi_rank = 3});
}

/* ROI_ALIGN_GRAD's page: the forward ROI_ALIGN1 of its example, nearest neighbour, one sample
 * per output, four 2x2 regions of a 4x4 input to 1x3 outputs. */
Test(roi, align1_the_grad_pages_forward_example)
{
    buf x, r, b, y;
    buf_make(&x, F32, 4, (uint32_t[]){1, 1, 4, 4}, false);
    buf_make(&r, F32, 2, (uint32_t[]){4, 4}, false);
    buf_make(&b, U32, 1, (uint32_t[]){4}, false);
    buf_make(&y, F32, 4, (uint32_t[]){4, 1, 1, 3}, false);
    for (int i = 0; i < 16; ++i)
        buf_store(&x, i, i + 1);
    static const double rois[16] = {0, 0, 2, 2, 2, 0, 4, 2, 0, 2, 2, 4, 2, 2, 4, 4};
    for (int i = 0; i < 16; ++i)
        buf_store(&r, i, rois[i]);
    for (int i = 0; i < 4; ++i)
        buf_store(&b, i, 0);
    DML_ROI_ALIGN1_OPERATOR_DESC d = {&x.desc,
                                      &r.desc,
                                      &b.desc,
                                      &y.desc,
                                      DML_REDUCE_FUNCTION_AVERAGE,
                                      DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                      1.0f,
                                      1.0f,
                                      0.5f,
                                      -0.5f,
                                      0.0f,
                                      1,
                                      1,
                                      0};
    buf *in[] = {&x, &r, &b};
    run("grad page example", DML_OPERATOR_ROI_ALIGN1, &d, in, 3, &y);
    static const double want[12] = {1, 1, 2, 3, 3, 4, 9, 9, 10, 11, 11, 12};
    compare("grad page example", &y, want, 0.0);
    buf_free(&x);
    buf_free(&r);
    buf_free(&b);
    buf_free(&y);
}

/* ---- ROI_ALIGN_GRAD ---------------------------------------------------------------------- */

typedef struct grad_case {
    const char *name;
    DML_TENSOR_DATA_TYPE type, idx_type;
    uint32_t n, c, h, w, rois, oh, ow;
    bool max, linear, corners, strided;
    bool no_x, no_dx, no_droi; /* the optional tensors left out */
    float scale_x, scale_y, in_off, out_off;
    uint32_t min_s, max_s;
    uint32_t roi_rank;
} grad_case;

static void compare_mag(const char *name, const buf *out, const double *want, const double *mag,
                        double rel)
{
    double rtol = out->buffer.DataType == F16 ? ldexp(1.0, -11) : 0.0;
    for (uint64_t i = 0; i < out->count; ++i) {
        double got = buf_load(out, i);
        double tol = rel * (mag[i] > 1 ? mag[i] : 1) + rtol * fabs(want[i]);
        cr_assert(fabs(got - want[i]) <= tol,
                  "%s: element %llu: got %.9g, want %.9g (tolerance %.3g)", name,
                  (unsigned long long)i, got, want[i], tol);
    }
}

static void run_align_grad(const grad_case *gc)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x52475244));
    buf x, dyb, r, b, dx, droi;
    uint32_t roi_sizes[4] = {1, 1, 1, 1}, rr = gc->roi_rank ? gc->roi_rank : 2;
    roi_sizes[rr - 2] = gc->rois;
    roi_sizes[rr - 1] = 4;
    uint32_t img[4] = {gc->n, gc->c, gc->h, gc->w};
    buf_make(&x, gc->type, 4, img, gc->strided);
    buf_make(&dyb, gc->type, 4, (uint32_t[]){gc->rois, gc->c, gc->oh, gc->ow}, gc->strided);
    buf_make(&r, gc->type, rr, roi_sizes, gc->strided);
    buf_make(&b, gc->idx_type, 1, (uint32_t[]){gc->rois}, gc->strided);
    buf_make(&dx, gc->type, 4, img, gc->strided);
    buf_make(&droi, gc->type, rr, roi_sizes, gc->strided);
    buf_random(&x, &rng);
    buf_random(&dyb, &rng);
    uint64_t *batch = calloc(gc->rois, sizeof *batch);
    for (uint32_t i = 0; i < gc->rois; ++i) {
        for (int k = 0; k < 4; ++k) { /* eighths: exact in either type */
            double extent = k % 2 ? gc->h : gc->w, scale = k % 2 ? gc->scale_y : gc->scale_x;
            double v = floor(uniform(&rng, -3, extent + 3) * 8) / 8;
            buf_store(&r, 4 * i + k, v / scale);
        }
        batch[i] = ref_rng_below(&rng, gc->n);
        buf_store(&b, i, (double)batch[i]);
    }
    if (gc->rois > 2) { /* an inverted region and one past N (clamped) */
        double t = r.values[4];
        buf_store(&r, 4, r.values[6]);
        buf_store(&r, 6, t);
        batch[1] = gc->n - 1;
        buf_store(&b, 1, (double)gc->n + 5);
    }
    DML_ROI_ALIGN_GRAD_OPERATOR_DESC d = {
        gc->no_x ? NULL : &x.desc,
        &dyb.desc,
        &r.desc,
        &b.desc,
        gc->no_dx ? NULL : &dx.desc,
        gc->no_droi ? NULL : &droi.desc,
        gc->max ? DML_REDUCE_FUNCTION_MAX : DML_REDUCE_FUNCTION_AVERAGE,
        gc->linear ? DML_INTERPOLATION_MODE_LINEAR : DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
        gc->scale_x,
        gc->scale_y,
        gc->in_off,
        gc->out_off,
        gc->min_s,
        gc->max_s,
        gc->corners};
    DML_OPERATOR_DESC op = {DML_OPERATOR_ROI_ALIGN_GRAD, &d};
    dmlcl_host_tensor hin[4] = {{gc->no_x ? NULL : x.data, gc->no_x ? 0 : x.bytes},
                                {dyb.data, dyb.bytes},
                                {r.data, r.bytes},
                                {b.data, b.bytes}};
    dmlcl_host_tensor hout[2] = {{gc->no_dx ? NULL : dx.data, gc->no_dx ? 0 : dx.bytes},
                                 {gc->no_droi ? NULL : droi.data, gc->no_droi ? 0 : droi.bytes}};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &op, &o), S_OK, "%s: create: %s", gc->name,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co), S_OK, "%s: compile: %s",
                 gc->name, dmlcl_last_error());
    cr_assert_eq(dmlcl_compiled_operator_execute(co, 4, hin, 2, hout), S_OK, "%s: execute: %s",
                 gc->name, dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);
    ref_roi_align_desc rd = {gc->n,       gc->c,       gc->h,      gc->w,       gc->rois,
                             gc->oh,      gc->ow,      gc->max,    gc->linear,  gc->corners,
                             gc->scale_x, gc->scale_y, gc->in_off, gc->out_off, 0.0,
                             gc->min_s,   gc->max_s};
    double *want_dx = calloc(dx.count, sizeof(double)), *mag_dx = calloc(dx.count, sizeof(double));
    double *want_droi = calloc(droi.count, sizeof(double));
    double *mag_droi = calloc(droi.count, sizeof(double));
    cr_assert(want_dx && mag_dx && want_droi && mag_droi);
    ref_roi_align_grad(&rd, x.values, r.values, batch, dyb.values, want_dx, want_droi, NULL, mag_dx,
                       mag_droi);
    char what[160];
    if (!gc->no_dx) {
        snprintf(what, sizeof what, "%s: OutputGradientTensor", gc->name);
        compare_mag(what, &dx, want_dx, mag_dx, ldexp(1.0, -13));
    }
    if (!gc->no_droi) {
        snprintf(what, sizeof what, "%s: OutputROIGradientTensor", gc->name);
        compare_mag(what, &droi, want_droi, mag_droi, ldexp(1.0, -12));
    }
    if (!gc->no_dx && !gc->max) { /* the adjoint identity, the forward from its own oracle */
        uint64_t ny = dyb.count;
        double *y = calloc(ny, sizeof *y), *y0 = calloc(ny, sizeof *y0);
        double *zero = calloc(x.count, sizeof *zero);
        cr_assert(y && y0 && zero);
        ref_roi_align(&rd, x.values, r.values, batch, y);
        ref_roi_align(&rd, zero, r.values, batch, y0);
        double lhs = 0, rhs = 0, mag = 0;
        for (uint64_t i = 0; i < ny; ++i) {
            lhs += (y[i] - y0[i]) * dyb.values[i];
            mag += fabs(y[i] * dyb.values[i]);
        }
        for (uint64_t i = 0; i < x.count; ++i) {
            rhs += x.values[i] * buf_load(&dx, i);
            mag += fabs(x.values[i] * buf_load(&dx, i));
        }
        double tol = (gc->type == F16 ? ldexp(1.0, -9) : ldexp(1.0, -12)) * (mag + 1);
        cr_assert(fabs(lhs - rhs) <= tol,
                  "%s: adjoint identity: <ROI_ALIGN1(x), dY> = %.12g, <x, dX> = %.12g (tolerance "
                  "%.3g)",
                  gc->name, lhs, rhs, tol);
        free(y);
        free(y0);
        free(zero);
    }
    free(want_dx);
    free(mag_dx);
    free(want_droi);
    free(mag_droi);
    free(batch);
    buf_free(&x);
    buf_free(&dyb);
    buf_free(&r);
    buf_free(&b);
    buf_free(&dx);
    buf_free(&droi);
}

Test(roi, align_grad_average_linear_both_outputs)
{
    run_align_grad(&(grad_case){.name = "roi_align_grad avg linear",
                                .type = F32,
                                .idx_type = U32,
                                .n = 2,
                                .c = 3,
                                .h = 9,
                                .w = 11,
                                .rois = 5,
                                .oh = 3,
                                .ow = 4,
                                .linear = true,
                                .scale_x = 1,
                                .scale_y = 1,
                                .in_off = 0.5f,
                                .out_off = -0.5f,
                                .min_s = 1,
                                .max_s = 3});
}

Test(roi, align_grad_max_linear_scaled_strided)
{
    run_align_grad(&(grad_case){.name = "roi_align_grad max linear",
                                .type = F32,
                                .idx_type = U64,
                                .n = 2,
                                .c = 2,
                                .h = 8,
                                .w = 7,
                                .rois = 4,
                                .oh = 2,
                                .ow = 3,
                                .max = true,
                                .linear = true,
                                .strided = true,
                                .scale_x = 0.5f,
                                .scale_y = 2,
                                .out_off = 0,
                                .min_s = 2,
                                .max_s = 2,
                                .roi_rank = 4});
}

Test(roi, align_grad_nearest_float16_no_input)
{
    run_align_grad(&(grad_case){.name = "roi_align_grad nearest f16",
                                .type = F16,
                                .idx_type = U32,
                                .n = 1,
                                .c = 2,
                                .h = 6,
                                .w = 6,
                                .rois = 3,
                                .oh = 2,
                                .ow = 2,
                                .no_x = true,
                                .no_droi = true,
                                .scale_x = 1,
                                .scale_y = 1,
                                .in_off = 0.5f,
                                .out_off = -0.5f,
                                .min_s = 1,
                                .max_s = 4});
}

Test(roi, align_grad_corners_roi_gradient_only)
{
    run_align_grad(&(grad_case){.name = "roi_align_grad corners droi",
                                .type = F32,
                                .idx_type = U32,
                                .n = 2,
                                .c = 2,
                                .h = 7,
                                .w = 9,
                                .rois = 4,
                                .oh = 3,
                                .ow = 2,
                                .linear = true,
                                .corners = true,
                                .no_dx = true,
                                .scale_x = 1,
                                .scale_y = 1,
                                .min_s = 1,
                                .max_s = 2,
                                .roi_rank = 3});
}

Test(roi, align_grad_max_float16_both)
{
    run_align_grad(&(grad_case){.name = "roi_align_grad max f16",
                                .type = F16,
                                .idx_type = U32,
                                .n = 1,
                                .c = 2,
                                .h = 5,
                                .w = 6,
                                .rois = 3,
                                .oh = 2,
                                .ow = 2,
                                .max = true,
                                .linear = true,
                                .scale_x = 1,
                                .scale_y = 1,
                                .in_off = 0.5f,
                                .out_off = -0.5f,
                                .min_s = 1,
                                .max_s = 2});
}

/* The page's example: nearest, 4 non-overlapping crops of a 4 x 4 input, 1.5x along W and
 * 0.5x along H: the gradient {1..12} lands {3, 3, 9, 6; 0...; 15, 9, 21, 12; 0...}. */
Test(roi, align_grad_the_pages_example)
{
    buf dyb, r, b, dx;
    buf_make(&dyb, F32, 4, (uint32_t[]){4, 1, 1, 3}, false);
    buf_make(&r, F32, 2, (uint32_t[]){4, 4}, false);
    buf_make(&b, U32, 1, (uint32_t[]){4}, false);
    buf_make(&dx, F32, 4, (uint32_t[]){1, 1, 4, 4}, false);
    for (int i = 0; i < 12; ++i)
        buf_store(&dyb, i, i + 1);
    static const double rois[16] = {0, 0, 2, 2, 2, 0, 4, 2, 0, 2, 2, 4, 2, 2, 4, 4};
    for (int i = 0; i < 16; ++i)
        buf_store(&r, i, rois[i]);
    for (int i = 0; i < 4; ++i)
        buf_store(&b, i, 0);
    DML_ROI_ALIGN_GRAD_OPERATOR_DESC d = {NULL,
                                          &dyb.desc,
                                          &r.desc,
                                          &b.desc,
                                          &dx.desc,
                                          NULL,
                                          DML_REDUCE_FUNCTION_AVERAGE,
                                          DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                          1.0f,
                                          1.0f,
                                          0.5f,
                                          -0.5f,
                                          1,
                                          1,
                                          0};
    DML_OPERATOR_DESC op = {DML_OPERATOR_ROI_ALIGN_GRAD, &d};
    dmlcl_host_tensor hin[4] = {
        {NULL, 0}, {dyb.data, dyb.bytes}, {r.data, r.bytes}, {b.data, b.bytes}};
    dmlcl_host_tensor hout[2] = {{dx.data, dx.bytes}, {NULL, 0}};
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *co = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &op, &o), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &co), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_compiled_operator_execute(co, 4, hin, 2, hout), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(co);
    dmlcl_operator_release(o);
    static const double want[16] = {3, 3, 9, 6, 0, 0, 0, 0, 15, 9, 21, 12, 0, 0, 0, 0};
    compare("grad page example", &dx, want, 0.0);
    buf_free(&dyb);
    buf_free(&r);
    buf_free(&b);
    buf_free(&dx);
}

/* ---- FOLD, UNFOLD -------------------------------------------------------------------------- */

typedef struct window_case {
    const char *name;
    DML_TENSOR_DATA_TYPE type;
    ref_window_desc d;
    bool strided;
    uint32_t col_rank; /* 3 or more (leading 1s) */
} window_case;

static void run_window(const window_case *wc, bool fold, const double *fixed_in,
                       const double *fixed_want)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x464f4c44));
    const ref_window_desc *d = &wc->d;
    uint64_t k = ref_window_k(d), l = ref_window_l(d);
    uint32_t img_sizes[8] = {d->n, d->c}, col_sizes[8];
    for (uint32_t i = 0; i < d->dims; ++i)
        img_sizes[2 + i] = d->size[i];
    uint32_t cr = wc->col_rank ? wc->col_rank : 3;
    for (uint32_t i = 0; i < cr; ++i)
        col_sizes[i] = 1;
    col_sizes[cr - 3] = d->n;
    col_sizes[cr - 2] = (uint32_t)(d->c * k);
    col_sizes[cr - 1] = (uint32_t)l;
    buf img, col;
    buf_make(&img, wc->type, d->dims + 2, img_sizes, wc->strided);
    buf_make(&col, wc->type, cr, col_sizes, wc->strided);
    buf *src = fold ? &col : &img, *dst = fold ? &img : &col;
    if (fixed_in)
        for (uint64_t i = 0; i < src->count; ++i)
            buf_store(src, i, fixed_in[i]);
    else
        buf_random(src, &rng);
    UINT win[6], str[6], dil[6], sp[6], ep[6];
    for (uint32_t i = 0; i < d->dims; ++i) {
        win[i] = d->window[i];
        str[i] = d->stride[i];
        dil[i] = d->dilation[i];
        sp[i] = d->start[i];
        ep[i] = d->end[i];
    }
    DML_FOLD_OPERATOR_DESC fd = {&col.desc, &img.desc, d->dims, win, str, dil, sp, ep};
    DML_UNFOLD_OPERATOR_DESC ud = {&img.desc, &col.desc, d->dims, win, str, dil, sp, ep};
    buf *in[] = {src};
    if (fold)
        run(wc->name, DML_OPERATOR_FOLD, &fd, in, 1, dst);
    else
        run(wc->name, DML_OPERATOR_UNFOLD, &ud, in, 1, dst);
    double *want = calloc(dst->count, sizeof *want);
    if (fixed_want)
        memcpy(want, fixed_want, dst->count * sizeof *want);
    else if (fold)
        ref_fold(d, col.values, want);
    else
        ref_unfold(d, img.values, want);
    bool integer = wc->type == I8 || wc->type == I32;
    double atol = fold && !integer && wc->type != F64 ? (double)k * k * ldexp(1.0, -23) : 0.0;
    if (integer && wc->type == I8) /* the sum wraps as INT8 does */
        for (uint64_t i = 0; i < dst->count; ++i)
            want[i] = (double)(int8_t)(uint8_t)(int64_t)want[i];
    compare(wc->name, dst, want, atol);
    free(want);
    buf_free(&img);
    buf_free(&col);
}

#define WD(...)     \
    {               \
        __VA_ARGS__ \
    }

/* The FOLD page's examples 1 to 3 (inputs 0, 1, 2, ... and the printed outputs). */
Test(roi, fold_the_pages_examples)
{
    double in[144];
    for (int i = 0; i < 144; ++i)
        in[i] = i;
    static const double ex1[16] = {0, 5, 13, 9, 14, 38, 54, 32, 38, 86, 102, 56, 26, 57, 65, 35};
    static const double ex3[32] = {26,  70,  102, 60,  78,  183, 231, 129, 84,  195, 243,
                                   135, 82,  182, 214, 116, 170, 358, 390, 204, 294, 615,
                                   663, 345, 300, 627, 675, 351, 226, 470, 502, 260};
    run_window(&(window_case){.name = "fold example 1",
                              .type = F32,
                              .d = WD(1, 1, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {0, 0}, {0, 0})},
               true, in, ex1);
    run_window(&(window_case){.name = "fold example 2",
                              .type = F32,
                              .d = WD(1, 1, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 0}, {1, 0})},
               true, in, ex3);
    run_window(&(window_case){.name = "fold example 3",
                              .type = F32,
                              .d = WD(1, 2, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 0}, {1, 0})},
               true, in, ex3);
}

/* The UNFOLD page's examples 1 and 2 (the input 0 .. 24). */
Test(roi, unfold_the_pages_examples)
{
    double in[25], ex1[81], ex2[135];
    for (int i = 0; i < 25; ++i)
        in[i] = i;
    /* Example 1: row (ky, kx), column (by, bx): in[(by + ky) * 5 + bx + kx]. */
    for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx)
            for (int by = 0; by < 3; ++by)
                for (int bx = 0; bx < 3; ++bx)
                    ex1[(ky * 3 + kx) * 9 + by * 3 + bx] = (by + ky) * 5 + bx + kx;
    /* Example 2, as printed: rows padded by one above and below. */
    static const double ex2_rows[9][15] = {{0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17},
                                           {0, 0, 0, 1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18},
                                           {0, 0, 0, 2, 3, 4, 7, 8, 9, 12, 13, 14, 17, 18, 19},
                                           {0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17, 20, 21, 22},
                                           {1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18, 21, 22, 23},
                                           {2, 3, 4, 7, 8, 9, 12, 13, 14, 17, 18, 19, 22, 23, 24},
                                           {5, 6, 7, 10, 11, 12, 15, 16, 17, 20, 21, 22, 0, 0, 0},
                                           {6, 7, 8, 11, 12, 13, 16, 17, 18, 21, 22, 23, 0, 0, 0},
                                           {7, 8, 9, 12, 13, 14, 17, 18, 19, 22, 23, 24, 0, 0, 0}};
    memcpy(ex2, ex2_rows, sizeof ex2);
    run_window(&(window_case){.name = "unfold example 1",
                              .type = F32,
                              .d = WD(1, 1, 2, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {0, 0}, {0, 0})},
               false, in, ex1);
    run_window(&(window_case){.name = "unfold example 2",
                              .type = F32,
                              .d = WD(1, 1, 2, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 0}, {1, 0})},
               false, in, ex2);
}

Test(roi, fold_random_strided_dilated_padded)
{
    run_window(&(window_case){.name = "fold 2d",
                              .type = F32,
                              .d = WD(2, 3, 2, {7, 8}, {3, 2}, {2, 1}, {1, 2}, {1, 0}, {2, 1}),
                              .strided = true},
               true, NULL, NULL);
    run_window(&(window_case){.name = "fold 1d",
                              .type = F32,
                              .d = WD(1, 2, 1, {11}, {4}, {3}, {1}, {2}, {1})},
               true, NULL, NULL);
    run_window(&(window_case){.name = "fold 3d f16",
                              .type = F16,
                              .d = WD(1, 2, 3, {4, 5, 3}, {2, 2, 2}, {1, 2, 1}, {1, 1, 2},
                                      {0, 1, 1}, {1, 0, 1}),
                              .strided = false,
                              .col_rank = 5},
               true, NULL, NULL);
    run_window(&(window_case){.name = "fold int32",
                              .type = I32,
                              .d = WD(2, 2, 2, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1})},
               true, NULL, NULL);
    run_window(&(window_case){.name = "fold int8 wraps",
                              .type = I8,
                              .d = WD(1, 1, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}),
                              .strided = true},
               true, NULL, NULL);
    run_window(&(window_case){.name = "fold f64",
                              .type = F64,
                              .d = WD(1, 2, 2, {6, 4}, {2, 3}, {2, 1}, {1, 1}, {0, 1}, {1, 0})},
               true, NULL, NULL);
    /* Strides past the window: image elements no block reaches (0). */
    run_window(&(window_case){.name = "fold gaps",
                              .type = F32,
                              .d = WD(1, 1, 2, {9, 9}, {2, 2}, {4, 3}, {1, 1}, {0, 0}, {0, 0})},
               true, NULL, NULL);
}

Test(roi, unfold_random_every_width)
{
    run_window(&(window_case){.name = "unfold 2d",
                              .type = F32,
                              .d = WD(2, 3, 2, {7, 8}, {3, 2}, {2, 1}, {1, 2}, {1, 0}, {2, 1}),
                              .strided = true},
               false, NULL, NULL);
    run_window(&(window_case){.name = "unfold 1d int8",
                              .type = I8,
                              .d = WD(1, 2, 1, {11}, {4}, {3}, {1}, {2}, {1})},
               false, NULL, NULL);
    run_window(&(window_case){.name = "unfold 3d f16",
                              .type = F16,
                              .d = WD(1, 2, 3, {4, 5, 3}, {2, 2, 2}, {1, 2, 1}, {1, 1, 2},
                                      {0, 1, 1}, {1, 0, 1}),
                              .strided = true,
                              .col_rank = 4},
               false, NULL, NULL);
    run_window(&(window_case){.name = "unfold f64",
                              .type = F64,
                              .d = WD(2, 1, 2, {6, 4}, {2, 3}, {2, 1}, {1, 1}, {0, 1}, {1, 0})},
               false, NULL, NULL);
}
