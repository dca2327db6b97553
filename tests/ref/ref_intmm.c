/* SPDX-License-Identifier: MIT */
/* The integer and quantized matrix operators' oracle (ref_intmm.h). */
#include "ref_intmm.h"

#include <math.h>

void ref_intmm_product(uint64_t batches, uint64_t m, uint64_t k, uint64_t n, const int32_t *a,
                       const int32_t *b, const int32_t *za, const int32_t *zb, int64_t *sum)
{
    for (uint64_t q = 0; q < batches; ++q)
        for (uint64_t i = 0; i < m; ++i)
            for (uint64_t j = 0; j < n; ++j) {
                const int64_t ai = za ? za[q * m + i] : 0, bj = zb ? zb[q * n + j] : 0;
                int64_t s = 0;
                for (uint64_t t = 0; t < k; ++t)
                    s += ((int64_t)a[(q * m + i) * k + t] - ai) *
                         ((int64_t)b[(q * k + t) * n + j] - bj);
                sum[(q * m + i) * n + j] = s;
            }
}

void ref_intmm_conv(const ref_intconv_desc *d, const int32_t *x, int32_t zx, const int32_t *w,
                    const int32_t *zw, int64_t *sum)
{
    const uint32_t cin_g = d->cin / d->groups, cout_g = d->cout / d->groups;
    for (uint32_t b = 0; b < d->batch; ++b)
        for (uint32_t co = 0; co < d->cout; ++co)
            for (uint32_t oy = 0; oy < d->oh; ++oy)
                for (uint32_t ox = 0; ox < d->ow; ++ox) {
                    const uint32_t g = co / cout_g;
                    int64_t s = 0;
                    for (uint32_t c = 0; c < cin_g; ++c)
                        for (uint32_t ky = 0; ky < d->kh; ++ky)
                            for (uint32_t kx = 0; kx < d->kw; ++kx) {
                                const int64_t y = (int64_t)oy * d->stride[0] +
                                                  (int64_t)ky * d->dilation[0] - d->pad[0];
                                const int64_t xx = (int64_t)ox * d->stride[1] +
                                                   (int64_t)kx * d->dilation[1] - d->pad[1];
                                if (y < 0 || y >= d->ih || xx < 0 || xx >= d->iw)
                                    continue;
                                const uint64_t ci = (uint64_t)g * cin_g + c;
                                const int64_t xv =
                                    x[((b * (uint64_t)d->cin + ci) * d->ih + (uint64_t)y) * d->iw +
                                      (uint64_t)xx] -
                                    (int64_t)zx;
                                const int64_t wv =
                                    w[(((uint64_t)co * cin_g + c) * d->kh + ky) * d->kw + kx] -
                                    (int64_t)(zw ? zw[co] : 0);
                                s += xv * wv;
                            }
                    sum[((b * (uint64_t)d->cout + co) * d->oh + oy) * d->ow + ox] = s;
                }
}

int32_t ref_intmm_wrap(int64_t sum)
{
    const uint32_t u = (uint32_t)((uint64_t)sum & 0xffffffffu);
    return u < 0x80000000u ? (int32_t)u : (int32_t)((int64_t)u - 4294967296LL);
}

int32_t ref_requantize(int32_t sum, float sa, float sb, float so, int32_t zp, int32_t qmin,
                       int32_t qmax, bool *near_tie)
{
    const float ab = sa * sb; /* float32 products and quotient, as ONNX's float tensors give */
    const float mult = ab / so;
    const double v = (double)sum * (double)mult;
    if (near_tie) { /* near a half-integer whose two neighbours stay apart once saturated */
        const double frac = v - floor(v), lo = floor(v) + zp;
        *near_tie = fabs(frac - 0.5) <= fabs(v) * ldexp(1.0, -18) + ldexp(1.0, -30) &&
                    lo + 1 > qmin && lo < qmax;
    }
    double r = nearbyint(v) + zp; /* the default rounding: half to even */
    if (isnan(r))
        return 0;
    r = r < qmin ? qmin : (r > qmax ? qmax : r);
    return (int32_t)r;
}
