/* SPDX-License-Identifier: MIT */
/* The region and window operators' reference (ref_roi.h). */
#include <math.h>
#include <string.h>

#include "ref_roi.h"

static int64_t clampi(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* The page: corners rounded (halves away from zero), a region of at least one element, bins
 * [floor(i * size / P), ceil((i + 1) * size / P)) from the corner, clamped into the input; an
 * empty bin is 0 (dmlcl's rule, ONNX MaxRoiPool's). */
void ref_roi_pool(const double *in, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                  const double *rois, uint32_t r, double scale, uint32_t ph, uint32_t pw,
                  double *out)
{
    for (uint32_t i = 0; i < r; ++i) {
        const double *q = rois + 5 * (uint64_t)i;
        int64_t b = isnan(q[0]) || q[0] < 0 ? 0 : (q[0] >= n ? n - 1 : (int64_t)q[0]);
        int64_t x1 = (int64_t)round(q[1] * scale), y1 = (int64_t)round(q[2] * scale);
        int64_t x2 = (int64_t)round(q[3] * scale), y2 = (int64_t)round(q[4] * scale);
        double rh = (double)(y2 - y1 + 1 > 1 ? y2 - y1 + 1 : 1);
        double rw = (double)(x2 - x1 + 1 > 1 ? x2 - x1 + 1 : 1);
        for (uint32_t ch = 0; ch < c; ++ch)
            for (uint32_t oy = 0; oy < ph; ++oy)
                for (uint32_t ox = 0; ox < pw; ++ox) {
                    int64_t ys = clampi((int64_t)floor(oy * rh / ph) + y1, 0, h);
                    int64_t ye = clampi((int64_t)ceil((oy + 1) * rh / ph) + y1, 0, h);
                    int64_t xs = clampi((int64_t)floor(ox * rw / pw) + x1, 0, w);
                    int64_t xe = clampi((int64_t)ceil((ox + 1) * rw / pw) + x1, 0, w);
                    double best = 0.0;
                    bool any = false;
                    for (int64_t y = ys; y < ye; ++y)
                        for (int64_t x = xs; x < xe; ++x) {
                            double v = in[(((uint64_t)b * c + ch) * h + y) * w + x];
                            if (!any || v > best)
                                best = v;
                            any = true;
                        }
                    out[(((uint64_t)i * c + ch) * ph + oy) * pw + ox] = best;
                }
    }
}

/* The input at (y, x): OutOfBoundsInputValue outside [-1, H] x [-1, W]; else the coordinates
 * clamped into the input, bilinear or the nearest element (halves toward the lower one). */
static double sample(const ref_roi_align_desc *d, const double *plane, double y, double x)
{
    if (!(y >= -1.0 && y <= d->h && x >= -1.0 && x <= d->w))
        return d->oob;
    y = y < 0 ? 0 : (y > d->h - 1 ? d->h - 1 : y);
    x = x < 0 ? 0 : (x > d->w - 1 ? d->w - 1 : x);
    if (!d->linear) {
        int64_t yi = (int64_t)ceil(y - 0.5), xi = (int64_t)ceil(x - 0.5);
        return plane[clampi(yi, 0, d->h - 1) * d->w + clampi(xi, 0, d->w - 1)];
    }
    int64_t y0 = (int64_t)floor(y), x0 = (int64_t)floor(x);
    int64_t y1 = y0 + 1 < d->h ? y0 + 1 : y0, x1 = x0 + 1 < d->w ? x0 + 1 : x0;
    double ly = y - y0, lx = x - x0;
    return (1 - ly) * ((1 - lx) * plane[y0 * d->w + x0] + lx * plane[y0 * d->w + x1]) +
           ly * ((1 - lx) * plane[y1 * d->w + x0] + lx * plane[y1 * d->w + x1]);
}

/* Samples along an axis: ceil(|size| / bins) clamped into [min, max] (dmlcl: max at most
 * 1024). */
static uint32_t samples(const ref_roi_align_desc *d, double size, uint32_t bins)
{
    double hi = d->max_samples < 1024 ? d->max_samples : 1024;
    double lo = d->min_samples < hi ? d->min_samples : hi;
    double q = ceil(fabs(size) / bins);
    return (uint32_t)(q >= hi ? hi : (q > lo ? q : lo));
}

/* ROI_ALIGN1's page: sample s of an axis at (s - OutputPixelOffset) * size / (bins * S) +
 * corner - InputPixelOffset; with AlignRegionsToCorners the first and last samples of the
 * region on its corners, s * size / (bins * S - 1) + corner - InputPixelOffset. */
void ref_roi_align(const ref_roi_align_desc *d, const double *in, const double *rois,
                   const uint64_t *batch, double *out)
{
    for (uint32_t i = 0; i < d->rois; ++i) {
        const double *q = rois + 4 * (uint64_t)i;
        double x1 = q[0] * d->scale_x, y1 = q[1] * d->scale_y;
        double sx = q[2] * d->scale_x - x1, sy = q[3] * d->scale_y - y1;
        uint32_t nx = samples(d, sx, d->ow), ny = samples(d, sy, d->oh);
        double tx = (double)d->ow * nx, ty = (double)d->oh * ny, shift = d->out_offset;
        if (d->corners) {
            tx -= 1;
            ty -= 1;
            shift = 0;
        }
        double stepx = tx > 0 ? sx / tx : 0, stepy = ty > 0 ? sy / ty : 0;
        uint64_t b = batch[i] < d->n ? batch[i] : d->n - 1;
        for (uint32_t ch = 0; ch < d->c; ++ch) {
            const double *plane = in + ((uint64_t)b * d->c + ch) * d->h * d->w;
            for (uint32_t oy = 0; oy < d->oh; ++oy)
                for (uint32_t ox = 0; ox < d->ow; ++ox) {
                    double acc = d->max ? -INFINITY : 0.0;
                    for (uint32_t iy = 0; iy < ny; ++iy)
                        for (uint32_t ix = 0; ix < nx; ++ix) {
                            double y = ((double)oy * ny + iy - shift) * stepy + y1 - d->in_offset;
                            double x = ((double)ox * nx + ix - shift) * stepx + x1 - d->in_offset;
                            double v = sample(d, plane, y, x);
                            acc = d->max ? (v > acc ? v : acc) : acc + v;
                        }
                    if (!d->max)
                        acc /= (double)nx * ny;
                    out[(((uint64_t)i * d->c + ch) * d->oh + oy) * d->ow + ox] = acc;
                }
        }
    }
}

/* One axis of a sample at c (n elements): its elements and their weights (sample()'s rule),
 * and the slope's two elements (lo, hi; equal where the coordinate is clamped or integral). */
typedef struct axis_taps {
    int64_t i0, i1;
    double w0, w1;
    bool slope;
} axis_taps;

static bool in_range(double c, uint32_t n)
{
    return c >= -1.0 && c <= (double)n;
}

static axis_taps taps_of(const ref_roi_align_desc *d, double c, uint32_t n)
{
    axis_taps a = {0, 0, 0, 0, false};
    c = c < 0 ? 0 : (c > n - 1.0 ? n - 1.0 : c);
    if (!d->linear) {
        a.i0 = a.i1 = clampi((int64_t)ceil(c - 0.5), 0, (int64_t)n - 1);
        a.w0 = 1;
        return a;
    }
    a.i0 = (int64_t)floor(c);
    a.i1 = a.i0 + 1 < (int64_t)n ? a.i0 + 1 : a.i0;
    a.w1 = c - (double)a.i0;
    a.w0 = 1 - a.w1;
    a.slope = a.w1 != 0;
    return a;
}

void ref_roi_align_grad(const ref_roi_align_desc *d, const double *in, const double *rois,
                        const uint64_t *batch, const double *dy, double *dx, double *droi,
                        uint32_t *dx_terms, double *dx_mag, double *droi_mag)
{
    uint64_t plane = (uint64_t)d->h * d->w, nx_all = (uint64_t)d->n * d->c * plane;
    if (dx)
        for (uint64_t i = 0; i < nx_all; ++i) {
            dx[i] = 0;
            if (dx_terms)
                dx_terms[i] = 0;
            if (dx_mag)
                dx_mag[i] = 0;
        }
    for (uint32_t i = 0; i < d->rois; ++i) {
        const double *q = rois + 4 * (uint64_t)i;
        double x1 = q[0] * d->scale_x, y1 = q[1] * d->scale_y;
        double sx = q[2] * d->scale_x - x1, sy = q[3] * d->scale_y - y1;
        uint32_t nx = samples(d, sx, d->ow), ny = samples(d, sy, d->oh);
        double tx = (double)d->ow * nx, ty = (double)d->oh * ny, shift = d->out_offset;
        if (d->corners) {
            tx -= 1;
            ty -= 1;
            shift = 0;
        }
        double stepx = tx > 0 ? sx / tx : 0, stepy = ty > 0 ? sy / ty : 0;
        uint64_t b = batch[i] < d->n ? batch[i] : d->n - 1;
        double g4[4] = {0, 0, 0, 0}, m4[4] = {0, 0, 0, 0};
        for (uint32_t ch = 0; ch < d->c; ++ch) {
            uint64_t base = ((uint64_t)b * d->c + ch) * plane;
            for (uint32_t oy = 0; oy < d->oh; ++oy)
                for (uint32_t ox = 0; ox < d->ow; ++ox) {
                    double g = dy[(((uint64_t)i * d->c + ch) * d->oh + oy) * d->ow + ox];
                    /* MAX: the first maximal sample alone (in row-major sample order). */
                    uint32_t best_y = 0, best_x = 0;
                    if (d->max) {
                        double best = 0;
                        for (uint32_t iy = 0; iy < ny; ++iy)
                            for (uint32_t ix = 0; ix < nx; ++ix) {
                                double y =
                                    ((double)oy * ny + iy - shift) * stepy + y1 - d->in_offset;
                                double x =
                                    ((double)ox * nx + ix - shift) * stepx + x1 - d->in_offset;
                                double v = sample(d, in + base, y, x);
                                if ((iy == 0 && ix == 0) || v > best) {
                                    best = v;
                                    best_y = iy;
                                    best_x = ix;
                                }
                            }
                    }
                    for (uint32_t iy = 0; iy < ny; ++iy)
                        for (uint32_t ix = 0; ix < nx; ++ix) {
                            if (d->max && (iy != best_y || ix != best_x))
                                continue;
                            double jy = (double)oy * ny + iy, jx = (double)ox * nx + ix;
                            double y = (jy - shift) * stepy + y1 - d->in_offset;
                            double x = (jx - shift) * stepx + x1 - d->in_offset;
                            if (!in_range(y, d->h) || !in_range(x, d->w))
                                continue; /* a constant: no gradient */
                            double coef = d->max ? g : g / ((double)nx * ny);
                            axis_taps ay = taps_of(d, y, d->h), ax = taps_of(d, x, d->w);
                            if (dx) {
                                int64_t ys[2] = {ay.i0, ay.i1}, xs[2] = {ax.i0, ax.i1};
                                double wy[2] = {ay.w0, ay.w1}, wx[2] = {ax.w0, ax.w1};
                                for (int a = 0; a < 2; ++a)
                                    for (int c = 0; c < 2; ++c) {
                                        double w = wy[a] * wx[c];
                                        if (w == 0)
                                            continue;
                                        uint64_t at = base + (uint64_t)ys[a] * d->w + xs[c];
                                        dx[at] += coef * w;
                                        if (dx_terms)
                                            ++dx_terms[at];
                                        if (dx_mag)
                                            dx_mag[at] += fabs(coef * w);
                                    }
                            }
                            if (!droi || !d->linear)
                                continue;
                            const double *p = in + base;
                            double v00 = p[ay.i0 * d->w + ax.i0], v01 = p[ay.i0 * d->w + ax.i1];
                            double v10 = p[ay.i1 * d->w + ax.i0], v11 = p[ay.i1 * d->w + ax.i1];
                            double mag = fabs(v00) + fabs(v01) + fabs(v10) + fabs(v11);
                            double gx = ax.slope ? ay.w0 * (v01 - v00) + ay.w1 * (v11 - v10) : 0;
                            double gy = ay.slope ? ax.w0 * (v10 - v00) + ax.w1 * (v11 - v01) : 0;
                            double ux = tx > 0 ? (jx - shift) / tx : 0;
                            double uy = ty > 0 ? (jy - shift) / ty : 0;
                            double dc[4] = {d->scale_x * (1 - ux), d->scale_y * (1 - uy),
                                            d->scale_x * ux, d->scale_y * uy};
                            for (int k = 0; k < 4; ++k) {
                                double slope = k % 2 ? gy : gx;
                                g4[k] += coef * slope * dc[k];
                                if (slope != 0)
                                    m4[k] += fabs(coef * dc[k]) * mag;
                            }
                        }
                }
        }
        if (droi)
            for (int k = 0; k < 4; ++k) {
                droi[4 * (uint64_t)i + k] = g4[k];
                if (droi_mag)
                    droi_mag[4 * (uint64_t)i + k] = m4[k];
            }
    }
}

static uint64_t blocks(const ref_window_desc *d, uint32_t i)
{
    int64_t span = (int64_t)d->size[i] + d->start[i] + d->end[i];
    int64_t reach = (int64_t)d->dilation[i] * (d->window[i] - 1) + 1;
    return span < reach ? 0 : (uint64_t)((span - reach) / d->stride[i] + 1);
}

uint64_t ref_window_k(const ref_window_desc *d)
{
    uint64_t k = 1;
    for (uint32_t i = 0; i < d->dims; ++i)
        k *= d->window[i];
    return k;
}

uint64_t ref_window_l(const ref_window_desc *d)
{
    uint64_t l = 1;
    for (uint32_t i = 0; i < d->dims; ++i)
        l *= blocks(d, i);
    return l;
}

/* For block `l` and window position `k`: the image's packed spatial offset, or -1 in the
 * padding. */
static int64_t image_at(const ref_window_desc *d, uint64_t k, uint64_t l)
{
    int64_t at = 0;
    uint64_t kk = k, ll = l;
    int64_t pos[6];
    for (int i = (int)d->dims - 1; i >= 0; --i) {
        uint64_t b = blocks(d, (uint32_t)i);
        pos[i] = (int64_t)(ll % b) * d->stride[i] + (int64_t)(kk % d->window[i]) * d->dilation[i] -
                 d->start[i];
        ll /= b;
        kk /= d->window[i];
    }
    for (uint32_t i = 0; i < d->dims; ++i) {
        if (pos[i] < 0 || pos[i] >= d->size[i])
            return -1;
        at = at * d->size[i] + pos[i];
    }
    return at;
}

static uint64_t spatial(const ref_window_desc *d)
{
    uint64_t s = 1;
    for (uint32_t i = 0; i < d->dims; ++i)
        s *= d->size[i];
    return s;
}

void ref_unfold(const ref_window_desc *d, const double *image, double *columns)
{
    uint64_t k = ref_window_k(d), l = ref_window_l(d), s = spatial(d);
    for (uint64_t n = 0; n < d->n; ++n)
        for (uint64_t c = 0; c < d->c; ++c)
            for (uint64_t kk = 0; kk < k; ++kk)
                for (uint64_t ll = 0; ll < l; ++ll) {
                    int64_t at = image_at(d, kk, ll);
                    columns[((n * d->c + c) * k + kk) * l + ll] =
                        at < 0 ? 0.0 : image[(n * d->c + c) * s + (uint64_t)at];
                }
}

/* The adjoint of ref_unfold: every column element added into the image element it came
 * from. */
void ref_fold(const ref_window_desc *d, const double *columns, double *image)
{
    uint64_t k = ref_window_k(d), l = ref_window_l(d), s = spatial(d);
    memset(image, 0, sizeof *image * d->n * d->c * s);
    for (uint64_t n = 0; n < d->n; ++n)
        for (uint64_t c = 0; c < d->c; ++c)
            for (uint64_t kk = 0; kk < k; ++kk)
                for (uint64_t ll = 0; ll < l; ++ll) {
                    int64_t at = image_at(d, kk, ll);
                    if (at >= 0)
                        image[(n * d->c + c) * s + (uint64_t)at] +=
                            columns[((n * d->c + c) * k + kk) * l + ll];
                }
}
