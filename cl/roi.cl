/* SPDX-License-Identifier: MIT */
/*
 * The window family (src/ops/roi.c, src/ops/fold.c, src/launch_roi.c): ROI_POOLING
 * (roi_pool), ROI_ALIGN and ROI_ALIGN1 (roi_align), FOLD (fold) and UNFOLD (unfold). One
 * work-item per output element, items past the end return at once; every tensor is read
 * through its strides (cl/roi_abi.h's table), so one compile serves every shape.
 *
 *   roi_pool   the maximum over a region's bin, rounded corners and integer bins (the page's
 *              formulas), clamped into the input; an empty bin writes 0
 *   roi_align  samples per bin along each axis, the clamp of ceil(|size| / bins) into
 *              [MIN_S, MAX_S] (table), each bilinear (LINEAR 1) or nearest (halves down);
 *              a sample outside [-1, H] x [-1, W] reads OutOfBoundsInputValue; the average of
 *              the samples in row-major order (float32) or their maximum (MAXMODE 1)
 *   fold       each image element the sum, in window-position order, of the column elements
 *              that land on it (ACC_T: float, double, long or ulong, converted back to T)
 *   unfold     each column element its image element, or 0 in the padding (UNIT_T: bits)
 *   roi_align_grad  ROI_ALIGN_GRAD (ALIGN_GRAD 1, with HAS_X, HAS_DX, HAS_DROI: which tensors
 *              are bound): roi_align's transpose as gathers (below)
 *
 * Macros (src/launch_roi.c): T the data's storage type (ushort with HALF 1 for FLOAT16),
 * IDX_T the batch indices' (uint, ulong), MAXMODE, LINEAR, CORNERS; ACC_T and ACC_DOUBLE
 * (fold); UNIT_T (unfold). FLOAT16 is read into float32 and rounded once to nearest even.
 */
#include "roi_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef T
#define T float
#endif
#ifndef HALF
#define HALF 0
#endif
#ifndef IDX_T
#define IDX_T uint
#endif
#ifndef MAXMODE
#define MAXMODE 0
#endif
#ifndef LINEAR
#define LINEAR 1
#endif
#ifndef CORNERS
#define CORNERS 0
#endif
#ifndef ALIGN_GRAD
#define ALIGN_GRAD 0
#endif
#ifndef ACC_T
#define ACC_T float
#endif
#ifndef ACC_DOUBLE
#define ACC_DOUBLE 0
#endif
#ifndef UNIT_T
#define UNIT_T uint
#endif

#if ACC_DOUBLE && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#if HALF
#include "half.cl"
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#define STORE(p, i, v) ((p)[(i)] = dmli_half_bits(v))
#define LOAD_ACC(p, i) ((ACC_T)vload_half((i), (__global const half *)(p)))
#define STORE_ACC(p, i, v) ((p)[(i)] = dmli_half_bits((float)(v)))
#else
#define LOAD(p, i) ((float)(p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = (T)(v))
#define LOAD_ACC(p, i) ((ACC_T)(p)[(i)])
#define STORE_ACC(p, i, v) ((p)[(i)] = (T)(v))
#endif

static float table_float(__constant long *tb, int k)
{
    return as_float((uint)tb[k]);
}

/* A region's output coordinates from the item: (roi, channel, y, x); false past the end. */
static bool region_item(__constant long *tb, long *r, long *ch, long *oy, long *ox)
{
    long g = (long)get_global_id(0);
    if (g >= tb[DMLI_RG_ITEMS])
        return false;
    *ox = g % tb[DMLI_RG_OUT_W];
    g /= tb[DMLI_RG_OUT_W];
    *oy = g % tb[DMLI_RG_OUT_H];
    g /= tb[DMLI_RG_OUT_H];
    *ch = g % tb[DMLI_RG_CHANNELS];
    *r = g / tb[DMLI_RG_CHANNELS];
    return true;
}

static long out_at(__constant long *tb, long r, long ch, long oy, long ox)
{
    return r * tb[DMLI_RG_OUT_S] + ch * tb[DMLI_RG_OUT_S + 1] + oy * tb[DMLI_RG_OUT_S + 2] +
           ox * tb[DMLI_RG_OUT_S + 3];
}

/* A coordinate rounded half away from zero, kept within +-2^24 (any region past the input is
 * clamped into it anyway). */
static long pool_corner(float v, float scale)
{
    float s = round(v * scale);
    s = isnan(s) ? 0.0f : fmin(fmax(s, -16777216.0f), 16777216.0f);
    return (long)s;
}

__kernel void roi_pool(__constant long *tb, __global const T *in, long inb, __global const T *roi,
                       long roib, __global T *out, long outb)
{
    long r, ch, oy, ox;
    if (!region_item(tb, &r, &ch, &oy, &ox))
        return;
    in += inb;
    roi += roib;
    out += outb;
    const long sr = tb[DMLI_RG_ROI_SR], sk = tb[DMLI_RG_ROI_SK];
    const float scale = table_float(tb, DMLI_RG_SCALE_X);
    const long n = tb[DMLI_RG_BATCH], h = tb[DMLI_RG_IN_H], w = tb[DMLI_RG_IN_W];
    float bf = LOAD(roi, r * sr);
    long b = isnan(bf) || bf < 0.0f ? 0 : (bf >= (float)n ? n - 1 : (long)bf);
    long x1 = pool_corner(LOAD(roi, r * sr + sk), scale);
    long y1 = pool_corner(LOAD(roi, r * sr + 2 * sk), scale);
    long x2 = pool_corner(LOAD(roi, r * sr + 3 * sk), scale);
    long y2 = pool_corner(LOAD(roi, r * sr + 4 * sk), scale);
    const long ph = tb[DMLI_RG_OUT_H], pw = tb[DMLI_RG_OUT_W];
    long rh = max(y2 - y1 + 1, 1L), rw = max(x2 - x1 + 1, 1L);
    long ys = clamp(oy * rh / ph + y1, 0L, h),
         ye = clamp(((oy + 1) * rh + ph - 1) / ph + y1, 0L, h);
    long xs = clamp(ox * rw / pw + x1, 0L, w),
         xe = clamp(((ox + 1) * rw + pw - 1) / pw + x1, 0L, w);
    float best = 0.0f;
    bool any = false;
    __global const T *plane = in + b * tb[DMLI_RG_IN_S] + ch * tb[DMLI_RG_IN_S + 1];
    for (long y = ys; y < ye; ++y)
        for (long x = xs; x < xe; ++x) {
            float v = LOAD(plane, y * tb[DMLI_RG_IN_S + 2] + x * tb[DMLI_RG_IN_S + 3]);
            best = !any || v > best ? v : best;
            any = true;
        }
    STORE(out, out_at(tb, r, ch, oy, ox), best);
}

/* Samples along an axis: ceil(|size| / bins) clamped into [MIN_S, MAX_S] (NaN: MIN_S). */
static long samples_of(__constant long *tb, float size, long bins)
{
    float q = ceil(fabs(size) / (float)bins);
    long lo = tb[DMLI_RG_MIN_S], hi = tb[DMLI_RG_MAX_S];
    return q >= (float)hi ? hi : (q > (float)lo ? (long)q : lo);
}

/* The input at (y, x) of one plane: bilinear or nearest, the coordinates clamped into the
 * input; OutOfBoundsInputValue outside [-1, H] x [-1, W]. */
static float sample(__constant long *tb, __global const T *plane, float y, float x)
{
    const long h = tb[DMLI_RG_IN_H], w = tb[DMLI_RG_IN_W];
    const long sy = tb[DMLI_RG_IN_S + 2], sx = tb[DMLI_RG_IN_S + 3];
    if (!(y >= -1.0f && y <= (float)h && x >= -1.0f && x <= (float)w))
        return table_float(tb, DMLI_RG_OOB);
    y = fmax(y, 0.0f);
    x = fmax(x, 0.0f);
#if LINEAR
    long y0 = (long)y, x0 = (long)x, y1, x1;
    float ly, lx;
    if (y0 >= h - 1) {
        y0 = y1 = h - 1;
        ly = 0.0f;
    } else {
        y1 = y0 + 1;
        ly = y - (float)y0;
    }
    if (x0 >= w - 1) {
        x0 = x1 = w - 1;
        lx = 0.0f;
    } else {
        x1 = x0 + 1;
        lx = x - (float)x0;
    }
    float hy = 1.0f - ly, hx = 1.0f - lx;
    float v00 = LOAD(plane, y0 * sy + x0 * sx), v01 = LOAD(plane, y0 * sy + x1 * sx);
    float v10 = LOAD(plane, y1 * sy + x0 * sx), v11 = LOAD(plane, y1 * sy + x1 * sx);
    return hy * hx * v00 + hy * lx * v01 + ly * hx * v10 + ly * lx * v11;
#else
    long yi = min((long)ceil(y - 0.5f), h - 1), xi = min((long)ceil(x - 0.5f), w - 1);
    return LOAD(plane, max(yi, 0L) * sy + max(xi, 0L) * sx);
#endif
}

__kernel void roi_align(__constant long *tb, __global const T *in, long inb, __global const T *roi,
                        long roib, __global const IDX_T *idx, long idxb, __global T *out, long outb)
{
    long r, ch, oy, ox;
    if (!region_item(tb, &r, &ch, &oy, &ox))
        return;
    in += inb;
    roi += roib;
    idx += idxb;
    out += outb;
    const long sr = tb[DMLI_RG_ROI_SR], sk = tb[DMLI_RG_ROI_SK];
    const long oh = tb[DMLI_RG_OUT_H], ow = tb[DMLI_RG_OUT_W], n = tb[DMLI_RG_BATCH];
    const float in_off = table_float(tb, DMLI_RG_IN_OFF),
                out_off = table_float(tb, DMLI_RG_OUT_OFF);
    float x1 = LOAD(roi, r * sr) * table_float(tb, DMLI_RG_SCALE_X);
    float y1 = LOAD(roi, r * sr + sk) * table_float(tb, DMLI_RG_SCALE_Y);
    float x2 = LOAD(roi, r * sr + 2 * sk) * table_float(tb, DMLI_RG_SCALE_X);
    float y2 = LOAD(roi, r * sr + 3 * sk) * table_float(tb, DMLI_RG_SCALE_Y);
    float size_x = x2 - x1, size_y = y2 - y1;
    long nx = samples_of(tb, size_x, ow), ny = samples_of(tb, size_y, oh);
#if CORNERS
    long tx = ow * nx - 1, ty = oh * ny - 1;
    float step_x = tx > 0 ? size_x / (float)tx : 0.0f, step_y = ty > 0 ? size_y / (float)ty : 0.0f;
    const float shift = 0.0f;
#else
    float step_x = size_x / (float)(ow * nx), step_y = size_y / (float)(oh * ny);
    const float shift = out_off;
#endif
    IDX_T bi = idx[r * tb[DMLI_RG_IDX_S]];
    long b = bi >= (IDX_T)n ? n - 1 : (long)bi;
    __global const T *plane = in + b * tb[DMLI_RG_IN_S] + ch * tb[DMLI_RG_IN_S + 1];
    float acc = 0.0f;
    for (long iy = 0; iy < ny; ++iy) {
        float y = ((float)(oy * ny + iy) - shift) * step_y + y1 - in_off;
        for (long ix = 0; ix < nx; ++ix) {
            float x = ((float)(ox * nx + ix) - shift) * step_x + x1 - in_off;
            float v = sample(tb, plane, y, x);
#if MAXMODE
            acc = iy == 0 && ix == 0 ? v : fmax(acc, v);
#else
            acc += v;
#endif
        }
    }
#if !MAXMODE
    acc = acc / (float)(nx * ny);
#endif
    STORE(out, out_at(tb, r, ch, oy, ox), acc);
}

#if ALIGN_GRAD
/*
 * roi_align_grad (ROI_ALIGN_GRAD): the transpose of roi_align above, as gathers. Items: the
 * elements of OutputGradientTensor (HAS_DX), then the 4 x NumROIs of OutputROIGradientTensor
 * (HAS_DROI); InputTensor bound where MAXMODE or HAS_DROI need it (HAS_X).
 *   dX[b, c, p, q]: over the regions of batch b in order, their bins in row-major order, the
 *     incoming gradient times each bin's weight of the element: AVERAGE the sum over the bin's
 *     samples of the sample's bilinear (or nearest) weight of (p, q), over nx * ny (the weight
 *     of a sample is a product of an axis weight along y and one along x, so the bin's is the
 *     product of two sums); MAX the weight of the bin's first maximal sample alone (the
 *     forward's fmax order). A sample outside [-1, H] x [-1, W] reads a constant: no weight.
 *   dROI[r, k]: over channels, bins and samples (MAX: the maximal one), the incoming gradient
 *     times the sample's derivative along x (k 0, 2) or y (1, 3), the page's imageGradX and
 *     imageGradY (0 where the coordinate is integral or clamped, or NEAREST), times the
 *     derivative of the sample's coordinate by the region's value: SpatialScale * (1 - t) for
 *     x1, y1 and SpatialScale * t for x2, y2, t = (s - OutputPixelOffset) / (bins * S) (the
 *     corners rule: s / (bins * S - 1)).
 * Sums compensated (two-sum) in float and rounded once, in one fixed order; no atomics.
 */
#ifndef HAS_X
#define HAS_X 0
#endif
#ifndef HAS_DX
#define HAS_DX 0
#endif
#ifndef HAS_DROI
#define HAS_DROI 0
#endif

/* A region's samples along one axis, placed as roi_align places them. */
typedef struct rg_axis {
    float c1, step, shift, den;
    long n, bins;
} rg_axis;

static rg_axis rg_place(__constant long *tb, float c1, float c2, long bins)
{
    rg_axis a;
    float size = c2 - c1;
    a.c1 = c1;
    a.bins = bins;
    a.n = samples_of(tb, size, bins);
#if CORNERS
    long t = bins * a.n - 1;
    a.step = t > 0 ? size / (float)t : 0.0f;
    a.shift = 0.0f;
    a.den = (float)t;
#else
    a.step = size / (float)(bins * a.n);
    a.shift = table_float(tb, DMLI_RG_OUT_OFF);
    a.den = (float)(bins * a.n);
#endif
    return a;
}

/* Sample j's coordinate (roi_align's expression) and the derivative of it by the region's
 * second corner (t; by the first: 1 - t). */
static float rg_coord(__constant long *tb, const rg_axis *a, long j)
{
    return ((float)j - a->shift) * a->step + a->c1 - table_float(tb, DMLI_RG_IN_OFF);
}

static float rg_t(const rg_axis *a, long j)
{
    return a->den > 0.0f ? ((float)j - a->shift) / a->den : 0.0f;
}

/* The weight of element p of an axis of n elements in a sample at coordinate c (sample()'s
 * rule): 0 outside [-1, n]. */
static float rg_weight(float c, long n, long p)
{
    if (!(c >= -1.0f && c <= (float)n))
        return 0.0f;
    c = fmax(c, 0.0f);
#if LINEAR
    long c0 = (long)c;
    if (c0 >= n - 1)
        return p == n - 1 ? 1.0f : 0.0f;
    float l = c - (float)c0;
    return p == c0 ? 1.0f - l : (p == c0 + 1 ? l : 0.0f);
#else
    long ci = max(min((long)ceil(c - 0.5f), n - 1), 0L);
    return p == ci ? 1.0f : 0.0f;
#endif
}

#if HAS_X
/* The bin's first maximal sample (the forward's fmax order: a later sample wins where it is
 * greater, or where the maximum so far is NaN and it is not). */
static void rg_argmax(__constant long *tb, __global const T *plane, const rg_axis *ay,
                      const rg_axis *ax, long oy, long ox, long *jy, long *jx)
{
    float best = 0.0f;
    for (long iy = 0; iy < ay->n; ++iy)
        for (long ix = 0; ix < ax->n; ++ix) {
            long y = oy * ay->n + iy, x = ox * ax->n + ix;
            float v = sample(tb, plane, rg_coord(tb, ay, y), rg_coord(tb, ax, x));
            if ((iy == 0 && ix == 0) || v > best || (isnan(best) && !isnan(v))) {
                best = v;
                *jy = y;
                *jx = x;
            }
        }
}

/* The bilinear sample's derivatives by x and y at (y, x) (the page's imageGradX, imageGradY):
 * 0 outside [-1, H] x [-1, W], along an axis clamped to an edge or at an integral coordinate. */
static void rg_slopes(__constant long *tb, __global const T *plane, float y, float x, float *gx,
                      float *gy)
{
    const long h = tb[DMLI_RG_IN_H], w = tb[DMLI_RG_IN_W];
    const long sy = tb[DMLI_RG_IN_S + 2], sx = tb[DMLI_RG_IN_S + 3];
    *gx = *gy = 0.0f;
#if LINEAR
    if (!(y >= -1.0f && y <= (float)h && x >= -1.0f && x <= (float)w))
        return;
    y = fmax(y, 0.0f);
    x = fmax(x, 0.0f);
    long y0 = (long)y, x0 = (long)x, y1 = y0 + 1, x1 = x0 + 1;
    float ly = y - (float)y0, lx = x - (float)x0;
    if (y0 >= h - 1) {
        y0 = y1 = h - 1;
        ly = 0.0f;
    }
    if (x0 >= w - 1) {
        x0 = x1 = w - 1;
        lx = 0.0f;
    }
    float v00 = LOAD(plane, y0 * sy + x0 * sx), v01 = LOAD(plane, y0 * sy + x1 * sx);
    float v10 = LOAD(plane, y1 * sy + x0 * sx), v11 = LOAD(plane, y1 * sy + x1 * sx);
    if (lx != 0.0f)
        *gx = (1.0f - ly) * (v01 - v00) + ly * (v11 - v10);
    if (ly != 0.0f)
        *gy = (1.0f - lx) * (v10 - v00) + lx * (v11 - v01);
#endif
}
#endif

/* Region r's corners (scaled) and its batch, as roi_align reads them. */
static long rg_region(__constant long *tb, __global const T *roi, __global const IDX_T *idx, long r,
                      rg_axis *ay, rg_axis *ax)
{
    const long sr = tb[DMLI_RG_ROI_SR], sk = tb[DMLI_RG_ROI_SK], n = tb[DMLI_RG_BATCH];
    float x1 = LOAD(roi, r * sr) * table_float(tb, DMLI_RG_SCALE_X);
    float y1 = LOAD(roi, r * sr + sk) * table_float(tb, DMLI_RG_SCALE_Y);
    float x2 = LOAD(roi, r * sr + 2 * sk) * table_float(tb, DMLI_RG_SCALE_X);
    float y2 = LOAD(roi, r * sr + 3 * sk) * table_float(tb, DMLI_RG_SCALE_Y);
    *ax = rg_place(tb, x1, x2, tb[DMLI_RG_OUT_W]);
    *ay = rg_place(tb, y1, y2, tb[DMLI_RG_OUT_H]);
    IDX_T bi = idx[r * tb[DMLI_RG_IDX_S]];
    return bi >= (IDX_T)n ? n - 1 : (long)bi;
}

/* Two-sum: *sum + *comp is the running total, one rounding off. */
static void rg_add(float *sum, float *comp, float g)
{
    const float s = *sum + g, b = s - *sum;
    *comp += (*sum - (s - b)) + (g - b);
    *sum = s;
}

__kernel void roi_align_grad(__constant long *tb,
#if HAS_X
                             __global const T *in, long inb,
#endif
                             __global const T *dy, long dyb, __global const T *roi, long roib,
                             __global const IDX_T *idx, long idxb
#if HAS_DX
                             ,
                             __global T *dx, long dxb
#endif
#if HAS_DROI
                             ,
                             __global T *droi, long droib
#endif
)
{
    long g = (long)get_global_id(0);
    const long ndx = tb[DMLI_RG_DX_ITEMS];
    if (g >= ndx + tb[DMLI_RG_DROI_ITEMS])
        return;
    dy += dyb;
    roi += roib;
    idx += idxb;
#if HAS_X
    in += inb;
#endif
    const long C = tb[DMLI_RG_CHANNELS], H = tb[DMLI_RG_IN_H], W = tb[DMLI_RG_IN_W];
    const long R = tb[DMLI_RG_ROIS], oh = tb[DMLI_RG_OUT_H], ow = tb[DMLI_RG_OUT_W];
    const long d0 = tb[DMLI_RG_OUT_S], d1 = tb[DMLI_RG_OUT_S + 1], d2 = tb[DMLI_RG_OUT_S + 2],
               d3 = tb[DMLI_RG_OUT_S + 3];
    float sum = 0.0f, comp = 0.0f;
    rg_axis ay, ax;
#if HAS_DX
    if (g < ndx) {
        const long px = g % W, py = (g / W) % H, ch = (g / (W * H)) % C, b = g / (W * H * C);
        for (long r = 0; r < R; ++r) {
            if (rg_region(tb, roi, idx, r, &ay, &ax) != b)
                continue;
#if MAXMODE
            __global const T *plane = in + b * tb[DMLI_RG_IN_S] + ch * tb[DMLI_RG_IN_S + 1];
#endif
            for (long oy = 0; oy < oh; ++oy) {
                float sy = 0.0f;
                for (long iy = 0; iy < ay.n; ++iy)
                    sy += rg_weight(rg_coord(tb, &ay, oy * ay.n + iy), H, py);
                if (sy == 0.0f)
                    continue;
                for (long ox = 0; ox < ow; ++ox) {
                    float sx = 0.0f;
                    for (long ix = 0; ix < ax.n; ++ix)
                        sx += rg_weight(rg_coord(tb, &ax, ox * ax.n + ix), W, px);
                    if (sx == 0.0f)
                        continue;
                    float gv = LOAD(dy, r * d0 + ch * d1 + oy * d2 + ox * d3);
#if MAXMODE
                    long jy = 0, jx = 0;
                    rg_argmax(tb, plane, &ay, &ax, oy, ox, &jy, &jx);
                    float wgt = rg_weight(rg_coord(tb, &ay, jy), H, py) *
                                rg_weight(rg_coord(tb, &ax, jx), W, px);
#else
                    float wgt = sy * sx / (float)(ay.n * ax.n);
#endif
                    if (wgt != 0.0f)
                        rg_add(&sum, &comp, gv * wgt);
                }
            }
        }
        STORE(dx,
              dxb + ch * tb[DMLI_RG_DX_S + 1] + b * tb[DMLI_RG_DX_S] + py * tb[DMLI_RG_DX_S + 2] +
                  px * tb[DMLI_RG_DX_S + 3],
              isfinite(sum) ? sum + comp : sum);
        return;
    }
#endif
#if HAS_DROI
    const long q = g - ndx, r = q / 4, k = q % 4;
    const long b = rg_region(tb, roi, idx, r, &ay, &ax);
#if LINEAR
    const float scale = table_float(tb, k % 2 ? DMLI_RG_SCALE_Y : DMLI_RG_SCALE_X);
    for (long ch = 0; ch < C; ++ch) {
        __global const T *plane = in + b * tb[DMLI_RG_IN_S] + ch * tb[DMLI_RG_IN_S + 1];
        for (long oy = 0; oy < oh; ++oy)
            for (long ox = 0; ox < ow; ++ox) {
                float gv = LOAD(dy, r * d0 + ch * d1 + oy * d2 + ox * d3);
#if MAXMODE
                long jy = 0, jx = 0;
                rg_argmax(tb, plane, &ay, &ax, oy, ox, &jy, &jx);
                const long y_lo = jy, y_hi = jy + 1, x_lo = jx, x_hi = jx + 1;
                const float per = 1.0f;
#else
                const long y_lo = oy * ay.n, y_hi = y_lo + ay.n, x_lo = ox * ax.n,
                           x_hi = x_lo + ax.n;
                const float per = 1.0f / (float)(ay.n * ax.n);
#endif
                for (long jy = y_lo; jy < y_hi; ++jy)
                    for (long jx = x_lo; jx < x_hi; ++jx) {
                        float gxv, gyv;
                        rg_slopes(tb, plane, rg_coord(tb, &ay, jy), rg_coord(tb, &ax, jx), &gxv,
                                  &gyv);
                        float t = k % 2 ? rg_t(&ay, jy) : rg_t(&ax, jx);
                        float slope = k % 2 ? gyv : gxv;
                        float dc = scale * (k < 2 ? 1.0f - t : t);
                        if (slope != 0.0f)
                            rg_add(&sum, &comp, gv * per * slope * dc);
                    }
            }
    }
#else
    (void)b;
#endif
    STORE(droi, droib + r * tb[DMLI_RG_DROI_SR] + k * tb[DMLI_RG_DROI_SK],
          isfinite(sum) ? sum + comp : sum);
#endif
}
#endif

/* An image element (n, c, position): over the window positions k in row-major order, the
 * column element (n, c * K + k, l) of the block l whose position k lands on it, where one
 * does (on the stride's grid, within the blocks). */
__kernel void fold(__constant long *tb, __global const T *col, long colb, __global T *img,
                   long imgb)
{
    long g = (long)get_global_id(0);
    if (g >= tb[DMLI_WN_ITEMS])
        return;
    col += colb;
    img += imgb;
    const int nd = (int)tb[DMLI_WN_ND];
    long pos[DMLI_WN_DIMS], rest = g, img_at = 0;
    for (int d = nd - 1; d >= 0; --d) {
        const long size = tb[DMLI_WN_DIM(d)];
        pos[d] = rest % size;
        rest /= size;
        img_at += pos[d] * tb[DMLI_WN_DIM(d) + 6];
    }
    const long c = rest % tb[DMLI_WN_CHANNELS], nb = rest / tb[DMLI_WN_CHANNELS];
    img_at += nb * tb[DMLI_WN_IMG_SN] + c * tb[DMLI_WN_IMG_SC];
    const long kk = tb[DMLI_WN_K];
    __global const T *base = col + nb * tb[DMLI_WN_COL_SN] + c * kk * tb[DMLI_WN_COL_SK];
    ACC_T acc = (ACC_T)0;
    for (long k = 0; k < kk; ++k) {
        long wk = k, block = 0, scale = 1;
        bool on = true;
        for (int d = nd - 1; d >= 0; --d) {
            const long win = tb[DMLI_WN_DIM(d) + 1], stride = tb[DMLI_WN_DIM(d) + 2];
            const long t = pos[d] + tb[DMLI_WN_DIM(d) + 4] - (wk % win) * tb[DMLI_WN_DIM(d) + 3];
            const long blocks = tb[DMLI_WN_DIM(d) + 5];
            wk /= win;
            on = on && t >= 0 && t % stride == 0 && t / stride < blocks;
            block += (on ? t / stride : 0) * scale;
            scale *= blocks;
        }
        if (on)
            acc += LOAD_ACC(base, k * tb[DMLI_WN_COL_SK] + block * tb[DMLI_WN_COL_SL]);
    }
    STORE_ACC(img, img_at, acc);
}

/* A column element (n, c * K + k, l): block l's window position k in the image, or 0 in the
 * padding. */
__kernel void unfold(__constant long *tb, __global const UNIT_T *img, long imgb,
                     __global UNIT_T *col, long colb)
{
    long g = (long)get_global_id(0);
    if (g >= tb[DMLI_WN_ITEMS])
        return;
    img += imgb;
    col += colb;
    const int nd = (int)tb[DMLI_WN_ND];
    const long l_all = tb[DMLI_WN_L], kk = tb[DMLI_WN_K];
    const long l = g % l_all, ck = (g / l_all) % (tb[DMLI_WN_CHANNELS] * kk);
    const long nb = g / l_all / (tb[DMLI_WN_CHANNELS] * kk);
    long wk = ck % kk, block = l, at = nb * tb[DMLI_WN_IMG_SN] + (ck / kk) * tb[DMLI_WN_IMG_SC];
    bool inside = true;
    for (int d = nd - 1; d >= 0; --d) {
        const long win = tb[DMLI_WN_DIM(d) + 1], blocks = tb[DMLI_WN_DIM(d) + 5];
        const long p = (block % blocks) * tb[DMLI_WN_DIM(d) + 2] +
                       (wk % win) * tb[DMLI_WN_DIM(d) + 3] - tb[DMLI_WN_DIM(d) + 4];
        block /= blocks;
        wk /= win;
        inside = inside && p >= 0 && p < tb[DMLI_WN_DIM(d)];
        at += (inside ? p : 0) * tb[DMLI_WN_DIM(d) + 6];
    }
    col[nb * tb[DMLI_WN_COL_SN] + ck * tb[DMLI_WN_COL_SK] + l * tb[DMLI_WN_COL_SL]] =
        inside ? img[at] : (UNIT_T)0;
}
