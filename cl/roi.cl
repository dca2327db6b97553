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
