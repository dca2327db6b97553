/* SPDX-License-Identifier: MIT */
/*
 * The integer matrix family (src/ops/intmm.c, src/launch_intmm.c): MATRIX_MULTIPLY_INTEGER,
 * QUANTIZED_LINEAR_MATRIX_MULTIPLY, MATRIX_MULTIPLY_INTEGER_TO_FLOAT, CONVOLUTION_INTEGER and
 * QUANTIZED_LINEAR_CONVOLUTION. A work-item computes DMLI_IMM_BLOCK neighbouring outputs along
 * D3 (grid dimension 0: D3 / BLOCK, 1: D2, 2: D0 x D1), each the exact sum over K (a
 * convolution's window: Cin / groups x KH x KW taps, taps in the padding left out) of
 * (a - a's zero point) x (b - b's zero point) in 32-bit integers (wrapping past INT32's range,
 * as ONNX allows), then the epilogue of OUT_KIND:
 *   INT32  the sum;
 *   QUANT  (sum + bias) x ((a's scale x b's scale) / the output's scale) in float32, rounded
 *          to nearest even, + the output's zero point, saturated to QMIN..QMAX (NaN gives 0);
 *   FLOAT  sum x (a's scale x b's scale) in float32, + bias; FLOAT16 (HALF) rounded from that.
 * Every tensor is read through its strides (cl/intmm_abi.h): the zero points, scales and bias
 * broadcast over the output's coordinates by 0 strides.
 *
 * Macros (src/launch_intmm.c): CONV 1 for the convolutions; TA, TB the storage types of A and B
 * (char, uchar; their zero points' too); OUT_KIND (cl/intmm_abi.h); TO the output's storage
 * type (int; char, uchar with QMIN, QMAX; float, or ushort with HALF 1, whose scales and bias
 * are then FLOAT16 too); HAS_AZP, HAS_BZP, HAS_OZP, HAS_BIAS the optional tensors present.
 */
#include "intmm_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef CONV
#define CONV 0
#endif
#ifndef TA
#define TA char
#endif
#ifndef TB
#define TB char
#endif
#ifndef OUT_KIND
#define OUT_KIND DMLI_IMM_OUT_INT32
#endif
#ifndef TO
#define TO int
#endif
#ifndef HALF
#define HALF 0
#endif
#ifndef QMIN
#define QMIN (-128)
#endif
#ifndef QMAX
#define QMAX 127
#endif
#ifndef HAS_AZP
#define HAS_AZP 0
#endif
#ifndef HAS_BZP
#define HAS_BZP 0
#endif
#ifndef HAS_OZP
#define HAS_OZP 0
#endif
#ifndef HAS_BIAS
#define HAS_BIAS 0
#endif

/* The float tensors' storage (scales, bias of the FLOAT kind). */
#if HALF
#define COMPUTE_T float
#include "half.cl"
#define TF ushort
#define LOADF(p, i) vload_half((size_t)(i), (__global const half *)(p))
#else
#define TF float
#define LOADF(p, i) ((p)[(i)])
#endif

/* The bias's storage: INT32 for the quantized convolution, else the output's float type. */
#if OUT_KIND == DMLI_IMM_OUT_QUANT
#define TBIAS int
#else
#define TBIAS TF
#endif

#define BLOCK DMLI_IMM_BLOCK
#define S(role, d) tb[DMLI_IMM_STRIDE(role, d)]
/* Element (o0, o1, o2, o3) of the output's coordinates in role's tensor. */
#define AT(role, o0, o1, o2, o3) \
    ((o0)*S(role, 0) + (o1)*S(role, 1) + (o2)*S(role, 2) + (o3)*S(role, 3))

#if !CONV
/* acc[j] = the sums of outputs (o0, o1, o2, o3 + j), j < nb. The sums stay in registers (a
 * store through acc inside the loop may alias the char inputs: every step would reload). */
static void sum_product(__constant long *tb, __global const TA *a, __global const TB *b, long o0,
                        long o1, long o2, long o3, int nb, int za, const int *zb, uint *acc)
{
    const long k = tb[DMLI_IMM_K], sak = S(DMLI_IMM_A, 3), sbk = S(DMLI_IMM_B, 2);
    const long sbn = S(DMLI_IMM_B, 3);
    __global const TA *ap =
        a + o0 * S(DMLI_IMM_A, 0) + o1 * S(DMLI_IMM_A, 1) + o2 * S(DMLI_IMM_A, 2);
    __global const TB *bp = b + o0 * S(DMLI_IMM_B, 0) + o1 * S(DMLI_IMM_B, 1) + o3 * sbn;
    const int zb0 = zb[0], zb1 = zb[1 % BLOCK], zb2 = zb[2 % BLOCK], zb3 = zb[3 % BLOCK];
    uint s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    if (nb == BLOCK) { /* a whole block: no bounds in the loop */
        for (long i = 0; i < k; ++i) {
            const int av = (int)ap[i * sak] - za;
            __global const TB *br = bp + i * sbk;
            s0 += (uint)(av * ((int)br[0] - zb0));
#if BLOCK > 1
            s1 += (uint)(av * ((int)br[sbn] - zb1));
            s2 += (uint)(av * ((int)br[2 * sbn] - zb2));
            s3 += (uint)(av * ((int)br[3 * sbn] - zb3));
#endif
        }
    } else {
        for (long i = 0; i < k; ++i) {
            const int av = (int)ap[i * sak] - za;
            __global const TB *br = bp + i * sbk;
            s0 += (uint)(av * ((int)br[0] - zb0));
            if (nb > 1)
                s1 += (uint)(av * ((int)br[sbn] - zb1));
            if (nb > 2)
                s2 += (uint)(av * ((int)br[2 * sbn] - zb2));
        }
    }
    acc[0] = s0;
#if BLOCK > 1
    acc[1] = s1;
    acc[2] = s2;
    acc[3] = s3;
#else
    (void)s1, (void)s2, (void)s3, (void)zb1, (void)zb2, (void)zb3;
#endif
}
#else
/* acc[j] = the sums of outputs (image o0, channel o1, row o2, column o3 + j), j < nb; the
 * filter's zero point is the channel's, one for the block. */
static void sum_conv(__constant long *tb, __global const TA *x, __global const TB *w, long o0,
                     long o1, long o2, long o3, int nb, int za, const int *zb, uint *acc)
{
    const long cin_g = tb[DMLI_IMM_CIN_G], cout_g = tb[DMLI_IMM_COUT_G];
    const long ih_n = tb[DMLI_IMM_IN_H], iw_n = tb[DMLI_IMM_IN_W];
    const long kh_n = tb[DMLI_IMM_K_H], kw_n = tb[DMLI_IMM_K_W];
    const long sh = tb[DMLI_IMM_STRIDE_H], sw = tb[DMLI_IMM_STRIDE_W];
    const long dh = tb[DMLI_IMM_DIL_H], dw = tb[DMLI_IMM_DIL_W];
    const long ph = tb[DMLI_IMM_PAD_H], pw = tb[DMLI_IMM_PAD_W];
    const long xs_c = S(DMLI_IMM_A, 1), xs_h = S(DMLI_IMM_A, 2), xs_w = S(DMLI_IMM_A, 3);
    const long ws_c = S(DMLI_IMM_B, 1), ws_h = S(DMLI_IMM_B, 2), ws_w = S(DMLI_IMM_B, 3);
    const long ci0 = o1 / cout_g * cin_g;
    const int zw = zb[0];
    __global const TA *xn = x + o0 * S(DMLI_IMM_A, 0) + ci0 * xs_c;
    __global const TB *wo = w + o1 * S(DMLI_IMM_B, 0);
    uint s[BLOCK];
    for (int j = 0; j < BLOCK; ++j)
        s[j] = 0;
    for (long ci = 0; ci < cin_g; ++ci) {
        for (long kh = 0; kh < kh_n; ++kh) {
            const long ih = o2 * sh + kh * dh - ph;
            if (ih < 0 || ih >= ih_n)
                continue;
            __global const TA *xr = xn + ci * xs_c + ih * xs_h;
            __global const TB *wr = wo + ci * ws_c + kh * ws_h;
            for (long kw = 0; kw < kw_n; ++kw) {
                const int wv = (int)wr[kw * ws_w] - zw;
                const long iw0 = o3 * sw + kw * dw - pw;
                for (int j = 0; j < BLOCK; ++j) {
                    const long iw = iw0 + j * sw;
                    if (j < nb && iw >= 0 && iw < iw_n)
                        s[j] += (uint)(((int)xr[iw * xs_w] - za) * wv);
                }
            }
        }
    }
    for (int j = 0; j < BLOCK; ++j)
        acc[j] = s[j];
}
#endif

#if OUT_KIND == DMLI_IMM_OUT_QUANT
/* v rounded to nearest even, + zp, saturated to the output's range; NaN gives 0. */
static TO requantize(float v, int zp)
{
    float r = rint(v) + (float)zp;
    if (isnan(r))
        return (TO)0;
    r = r < (float)QMIN ? (float)QMIN : (r > (float)QMAX ? (float)QMAX : r);
    return (TO)(int)r;
}
#endif

__kernel void intmm(__constant long *tb, __global const TA *a, long ab, __global const TB *b,
                    long bb, __global const TA *azp, long azpb, __global const TB *bzp, long bzpb,
                    __global const TF *ascale, long asb, __global const TF *bscale, long bsb,
                    __global const TF *oscale, long osb, __global const TO *ozp, long ozpb,
                    __global const TBIAS *bias, long biasb, __global TO *out, long outb)
{
    const long d1 = tb[DMLI_IMM_D(1)], d2 = tb[DMLI_IMM_D(2)], d3 = tb[DMLI_IMM_D(3)];
    const long o3 = (long)get_global_id(0) * BLOCK, o2 = (long)get_global_id(1);
    const long o01 = (long)get_global_id(2);
    if (o3 >= d3 || o2 >= d2)
        return;
    const long o0 = o01 / d1, o1 = o01 % d1;
    const int nb = d3 - o3 < BLOCK ? (int)(d3 - o3) : BLOCK;
    a += ab;
    b += bb;
    out += outb;
    int za = 0, zb[BLOCK];
#if HAS_AZP
    za = (int)azp[azpb + AT(DMLI_IMM_AZP, o0, o1, o2, o3)];
#endif
    for (int j = 0; j < BLOCK; ++j) {
#if HAS_BZP
        zb[j] = j < nb ? (int)bzp[bzpb + AT(DMLI_IMM_BZP, o0, o1, o2, o3 + j)] : 0;
#else
        zb[j] = 0;
#endif
    }
    uint acc[BLOCK];
    for (int j = 0; j < BLOCK; ++j)
        acc[j] = 0;
#if CONV
    sum_conv(tb, a, b, o0, o1, o2, o3, nb, za, zb, acc);
#else
    sum_product(tb, a, b, o0, o1, o2, o3, nb, za, zb, acc);
#endif
    for (int j = 0; j < nb; ++j) {
        const long oj = o3 + j;
        __global TO *dst = out + AT(DMLI_IMM_OUT, o0, o1, o2, oj);
#if OUT_KIND == DMLI_IMM_OUT_INT32
        *dst = (int)acc[j];
#else
        const float sa = LOADF(ascale, asb + AT(DMLI_IMM_ASCALE, o0, o1, o2, oj));
        const float sb = LOADF(bscale, bsb + AT(DMLI_IMM_BSCALE, o0, o1, o2, oj));
#if OUT_KIND == DMLI_IMM_OUT_QUANT
        uint sum = acc[j];
#if HAS_BIAS
        sum += (uint)bias[biasb + AT(DMLI_IMM_BIAS, o0, o1, o2, oj)];
#endif
        const float so = LOADF(oscale, osb + AT(DMLI_IMM_OSCALE, o0, o1, o2, oj));
        int zo = 0;
#if HAS_OZP
        zo = (int)ozp[ozpb + AT(DMLI_IMM_OZP, o0, o1, o2, oj)];
#endif
        *dst = requantize((float)(int)sum * ((sa * sb) / so), zo);
#else
        float v = (float)(int)acc[j] * (sa * sb);
#if HAS_BIAS
        v = v + LOADF(bias, biasb + AT(DMLI_IMM_BIAS, o0, o1, o2, oj));
#endif
#if HALF
        dmli_store_half((__global ushort *)out, AT(DMLI_IMM_OUT, o0, o1, o2, oj), v);
        (void)dst;
#else
        *dst = v;
#endif
#endif
#endif
    }
}
