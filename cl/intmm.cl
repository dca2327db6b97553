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
 * are then FLOAT16 too); HAS_AZP, HAS_BZP, HAS_OZP, HAS_BIAS the optional tensors present;
 * CPUs' blocks: MR, NV, VW (intmm_blocks, intmm_conv_blocks), CHAN 1 with PB and SW
 * (intmm_conv_chan and its pre-step intmm_conv_pack); GPUs' TILES 1 with cl/tile.cl's TX, TY,
 * WM, WN, TK (intmm_tiles).
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

/* The outputs (o0, o1, o2, o3 + j), j < count, of the sums acc[j]: OUT_KIND's epilogue. Each
 * tensor's element at j = 0, then its stride along D3 (no multiplication an output). */
static void store_outputs(__constant long *tb, __global const TF *ascale, long asb,
                          __global const TF *bscale, long bsb, __global const TF *oscale, long osb,
                          __global const TO *ozp, long ozpb, __global const TBIAS *bias, long biasb,
                          __global TO *out, long o0, long o1, long o2, long o3, int count,
                          const uint *acc)
{
    (void)ascale, (void)asb, (void)bscale, (void)bsb, (void)oscale, (void)osb, (void)ozp,
        (void)ozpb, (void)bias, (void)biasb;
#define AT0(role) AT(role, o0, o1, o2, o3)
    const long od = S(DMLI_IMM_OUT, 3);
    long oi = AT0(DMLI_IMM_OUT);
#if OUT_KIND == DMLI_IMM_OUT_INT32
    for (int j = 0; j < count; ++j, oi += od)
        out[oi] = (int)acc[j];
#else
    const long sad = S(DMLI_IMM_ASCALE, 3), sbd = S(DMLI_IMM_BSCALE, 3);
    long sai = asb + AT0(DMLI_IMM_ASCALE), sbi = bsb + AT0(DMLI_IMM_BSCALE);
#if HAS_BIAS
    const long bid = S(DMLI_IMM_BIAS, 3);
    long bii = biasb + AT0(DMLI_IMM_BIAS);
#endif
#if OUT_KIND == DMLI_IMM_OUT_QUANT
    const long sod = S(DMLI_IMM_OSCALE, 3);
    long soi = osb + AT0(DMLI_IMM_OSCALE);
#if HAS_OZP
    const long zod = S(DMLI_IMM_OZP, 3);
    long zoi = ozpb + AT0(DMLI_IMM_OZP);
#endif
#endif
#if OUT_KIND == DMLI_IMM_OUT_QUANT
    /* The row's scales, zero point and bias one value (per tensor, or per row: a convolution's
     * channel): one factor, and a loop of the same operations on the same values that
     * vectorises. */
    if (sad == 0 && sbd == 0 && sod == 0 && od == 1
#if HAS_OZP
        && zod == 0
#endif
#if HAS_BIAS
        && bid == 0
#endif
    ) {
        const float f = (LOADF(ascale, sai) * LOADF(bscale, sbi)) / LOADF(oscale, soi);
        int zo = 0;
#if HAS_OZP
        zo = (int)ozp[zoi];
#endif
        uint add = 0;
#if HAS_BIAS
        add = (uint)bias[bii];
#endif
        __global TO *o = out + oi;
        for (int j = 0; j < count; ++j)
            o[j] = requantize((float)(int)(acc[j] + add) * f, zo);
        return;
    }
#endif
#if OUT_KIND == DMLI_IMM_OUT_QUANT && !HAS_BIAS
    /* B's scale a column, packed (per-channel weights), the rest one value along the row: the
     * same operations a column, in a loop that vectorises. */
    if (sad == 0 && sbd == 1 && sod == 0 && od == 1
#if HAS_OZP
        && zod == 0
#endif
    ) {
        const float sa = LOADF(ascale, sai), so = LOADF(oscale, soi);
        int zo = 0;
#if HAS_OZP
        zo = (int)ozp[zoi];
#endif
        __global TO *o = out + oi;
        for (int j = 0; j < count; ++j)
            o[j] = requantize((float)(int)acc[j] * ((sa * LOADF(bscale, sbi + j)) / so), zo);
        return;
    }
#endif
    for (int j = 0; j < count; ++j, oi += od, sai += sad, sbi += sbd) {
        const float sa = LOADF(ascale, sai), sb = LOADF(bscale, sbi);
#if OUT_KIND == DMLI_IMM_OUT_QUANT
        uint sum = acc[j];
#if HAS_BIAS
        sum += (uint)bias[bii];
        bii += bid;
#endif
        const float so = LOADF(oscale, soi);
        soi += sod;
        int zo = 0;
#if HAS_OZP
        zo = (int)ozp[zoi];
        zoi += zod;
#endif
        out[oi] = requantize((float)(int)sum * ((sa * sb) / so), zo);
#else
        float v = (float)(int)acc[j] * (sa * sb);
#if HAS_BIAS
        v = v + LOADF(bias, bii);
        bii += bid;
#endif
#if HALF
        dmli_store_half((__global ushort *)out, oi, v);
#else
        out[oi] = v;
#endif
#endif
    }
#endif
#undef AT0
}

#define STORE_ARGS ascale, asb, bscale, bsb, oscale, osb, ozp, ozpb, bias, biasb, out

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
    store_outputs(tb, STORE_ARGS, o0, o1, o2, o3, nb, acc);
}

/*
 * intmm_blocks (CPUs; the host takes it where B runs along N by unit strides, B's zero point
 * does not move along M nor A's along N): a work-item an MR x (NV * VW) block of the output (grid
 * dimension 0: blocks along M, a work-group's items sharing B's panel; 1: blocks along N; 2:
 * D0 x D1). The products (a - a's zero point) x (b - b's zero point) are integers of at most
 * 255 x 255 in magnitude, so float32 holds them and any sum of up to 256 of them exactly
 * (256 x 65025 < 2^24): the block runs on the device's float vector multiply-adds, K in chunks
 * of KCHUNK, each chunk's exact sums added into 32-bit integers (wrapping as intmm's). The same
 * sums as intmm's, bit for bit. Rows past M read row M - 1 and columns past N column N - 1 (a
 * last, partial block), never stored.
 */
#ifndef CHAN
#define CHAN 0
#endif
#ifndef TILES
#define TILES 0
#endif
#if CHAN /* intmm_conv_chan's PB positions are fold_chunk's rows */
#ifndef PB
#define PB 8
#endif
#define MR PB
#endif
#ifndef MR
#define MR 4
#endif
#ifndef NV
#define NV 1
#endif
#ifndef VW
#define VW 8
#endif
#define NB (NV * VW)
#define KCHUNK 256
#define CAT_(x, y) x##y
#define CAT(x, y) CAT_(x, y)
#define FVEC CAT(float, VW)
/* Vectors by element-wise construction (no vector-typed builtin call: cl/gemm.cl's note). */
#define VL4(L, p, i) L(p, (i)), L(p, (i) + 1), L(p, (i) + 2), L(p, (i) + 3)
#define VL8(L, p, i) VL4(L, p, i), VL4(L, p, (i) + 4)
#define VL16(L, p, i) VL8(L, p, i), VL8(L, p, (i) + 8)
#define BLOAD(p, i) ((float)(int)(p)[i])
#define BLOAD_CLAMPED(p, i) ((float)(int)(p)[min((int)(i), last)])
typedef union {
    FVEC v;
    float f[VW];
} fvec_lanes;

#define FMADD(x, y, acc)                                           \
    do {                                                           \
        _Pragma("OPENCL FP_CONTRACT ON")(acc) = (x) * (y) + (acc); \
    } while (0)

/* A chunk's exact float sums f added into the 32-bit sums acc (wrapping), f cleared for the
 * next chunk: the blocks' step between chunks of at most KCHUNK products. */
static void fold_chunk(FVEC f[MR][NV], uint acc[MR][NB])
{
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v) {
            fvec_lanes u = {f[r][v]};
            for (int x = 0; x < VW; ++x)
                acc[r][v * VW + x] += (uint)(int)u.f[x];
            f[r][v] = (FVEC)(0.0f);
        }
}

#if !CONV
/* One chunk's k steps [k0, k1) of the block: B's row through LOADER (full or clamped). */
#define CHUNK(LOADER)                                                                 \
    for (long i = k0; i < k1; ++i) {                                                  \
        __global const TB *br = bp + i * sbk;                                         \
        FVEC bv[NV];                                                                  \
        _Pragma("unroll") for (int v = 0; v < NV; ++v) bv[v] =                        \
            (FVEC)(CAT(VL, VW)(LOADER, br, v * VW)) - zbv[v];                         \
        _Pragma("unroll") for (int r = 0; r < MR; ++r)                                \
        {                                                                             \
            const float av = (float)((int)ap[r][i * sak] - za[r]);                    \
            _Pragma("unroll") for (int v = 0; v < NV; ++v) FMADD(av, bv[v], f[r][v]); \
        }                                                                             \
    }

__kernel void intmm_blocks(__constant long *tb, __global const TA *a, long ab, __global const TB *b,
                           long bb, __global const TA *azp, long azpb, __global const TB *bzp,
                           long bzpb, __global const TF *ascale, long asb,
                           __global const TF *bscale, long bsb, __global const TF *oscale, long osb,
                           __global const TO *ozp, long ozpb, __global const TBIAS *bias,
                           long biasb, __global TO *out, long outb)
{
    const long d1 = tb[DMLI_IMM_D(1)], d2 = tb[DMLI_IMM_D(2)], d3 = tb[DMLI_IMM_D(3)];
    const long o2 = (long)get_global_id(0) * MR, o3 = (long)get_global_id(1) * NB;
    const long o01 = (long)get_global_id(2);
    if (o2 >= d2 || o3 >= d3)
        return;
    const long o0 = o01 / d1, o1 = o01 % d1;
    const int rows = d2 - o2 < MR ? (int)(d2 - o2) : MR;
    const int cols = d3 - o3 < NB ? (int)(d3 - o3) : NB, last = cols - 1;
    a += ab;
    b += bb;
    out += outb;
    const long k = tb[DMLI_IMM_K], sak = S(DMLI_IMM_A, 3), sbk = S(DMLI_IMM_B, 2);
    __global const TA *ap[MR];
    int za[MR];
    for (int r = 0; r < MR; ++r) {
        const long row = o2 + (r < rows ? r : rows - 1);
        ap[r] = a + o0 * S(DMLI_IMM_A, 0) + o1 * S(DMLI_IMM_A, 1) + row * S(DMLI_IMM_A, 2);
#if HAS_AZP
        za[r] = (int)azp[azpb + AT(DMLI_IMM_AZP, o0, o1, row, o3)];
#else
        za[r] = 0;
#endif
    }
    __global const TB *bp = b + o0 * S(DMLI_IMM_B, 0) + o1 * S(DMLI_IMM_B, 1) + o3;
    FVEC zbv[NV];
    for (int v = 0; v < NV; ++v) {
        fvec_lanes z;
        for (int x = 0; x < VW; ++x) {
#if HAS_BZP
            const int j = v * VW + x < cols ? v * VW + x : last;
            z.f[x] = (float)(int)bzp[bzpb + AT(DMLI_IMM_BZP, o0, o1, o2, o3 + j)];
#else
            z.f[x] = 0.0f;
#endif
        }
        zbv[v] = z.v;
    }
    /* Whole-vector reads of B's rows: a whole block, or a last one whose lanes past N (never
     * stored) stay inside B. */
    const bool whole =
        cols == NB || (k > 0 && (long)(bp - b) + (k - 1) * sbk + NB <= tb[DMLI_IMM_EXTENT_B]);
    uint acc[MR][NB];
    for (int r = 0; r < MR; ++r)
        for (int j = 0; j < NB; ++j)
            acc[r][j] = 0;
    FVEC f[MR][NV];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v)
            f[r][v] = (FVEC)(0.0f);
    for (long k0 = 0; k0 < k; k0 += KCHUNK) {
        const long k1 = k - k0 < KCHUNK ? k : k0 + KCHUNK;
        if (whole && sak == 1) {
            /* A's rows along k by unit strides: VW values of each row a vector at a time, each
             * lane then broadcast (one conversion a value, not one a use). */
            long i = k0;
            for (; i + VW <= k1; i += VW) {
                fvec_lanes av[MR];
#pragma unroll
                for (int r = 0; r < MR; ++r)
                    av[r].v = (FVEC)(CAT(VL, VW)(BLOAD, ap[r], i)) - (FVEC)((float)za[r]);
#pragma unroll
                for (int x = 0; x < VW; ++x) {
                    __global const TB *br = bp + (i + x) * sbk;
                    FVEC bv[NV];
#pragma unroll
                    for (int v = 0; v < NV; ++v)
                        bv[v] = (FVEC)(CAT(VL, VW)(BLOAD, br, v * VW)) - zbv[v];
#pragma unroll
                    for (int r = 0; r < MR; ++r)
#pragma unroll
                        for (int v = 0; v < NV; ++v)
                            FMADD(av[r].f[x], bv[v], f[r][v]);
                }
            }
            const long k2 = k1;
            {
                const long k0 = i, k1 = k2;
                CHUNK(BLOAD)
            }
        } else if (whole) {
            CHUNK(BLOAD)
        } else {
            CHUNK(BLOAD_CLAMPED)
        }
        fold_chunk(f, acc);
    }
    for (int r = 0; r < rows; ++r)
        store_outputs(tb, STORE_ARGS, o0, o1, o2 + r, o3, cols, acc[r]);
}
#endif

#if CONV
/*
 * intmm_conv_blocks (CPUs; the host takes it where the input's zero point is one value an image
 * and the filter's one an output channel, and MR output channels of a block share their group):
 * a work-item MR output channels x (NV * VW) output columns of one output row (grid dimension 0:
 * channel blocks, a work-group's items sharing the input rows; 1: OH x column blocks; 2: the
 * images). Per tap (input channel, kh, kw) NV vectors of the input row's values under the block's
 * columns, each (x - x's zero point), 0 for a position in the padding (taps there are left out),
 * and MR filter values (w - w's zero point); MR x NV float multiply-adds, exact as intmm_blocks'
 * (chunks of at most KCHUNK taps, then into uint sums). Columns past OW repeat the last.
 */
#define XLOAD(p, i) ((float)((int)(p)[(i)] - za))
#define XLOAD2(p, i) XLOAD(p, 2 * (i)) /* every second element: stride 2 */
#define LANE(p, i) (i)
#define IVEC CAT(int, VW)

#if !CHAN
__kernel void intmm_conv_blocks(__constant long *tb, __global const TA *x, long ab,
                                __global const TB *w, long bb, __global const TA *azp, long azpb,
                                __global const TB *bzp, long bzpb, __global const TF *ascale,
                                long asb, __global const TF *bscale, long bsb,
                                __global const TF *oscale, long osb, __global const TO *ozp,
                                long ozpb, __global const TBIAS *bias, long biasb, __global TO *out,
                                long outb)
{
    const long d1 = tb[DMLI_IMM_D(1)], d2 = tb[DMLI_IMM_D(2)], d3 = tb[DMLI_IMM_D(3)];
    const long nblk = (d3 + NB - 1) / NB;
    const long o1 = (long)get_global_id(0) * MR, o0 = (long)get_global_id(2);
    const long o2 = (long)get_global_id(1) / nblk, o3 = (long)get_global_id(1) % nblk * NB;
    if (o1 >= d1 || o2 >= d2)
        return;
    const int cols = d3 - o3 < NB ? (int)(d3 - o3) : NB;
    x += ab;
    w += bb;
    out += outb;
    const long cin_g = tb[DMLI_IMM_CIN_G], cout_g = tb[DMLI_IMM_COUT_G];
    const long ih_n = tb[DMLI_IMM_IN_H], iw_n = tb[DMLI_IMM_IN_W];
    const long kh_n = tb[DMLI_IMM_K_H], kw_n = tb[DMLI_IMM_K_W];
    const long sh = tb[DMLI_IMM_STRIDE_H], sw = tb[DMLI_IMM_STRIDE_W];
    const long dh = tb[DMLI_IMM_DIL_H], dw = tb[DMLI_IMM_DIL_W];
    const long ph = tb[DMLI_IMM_PAD_H], pw = tb[DMLI_IMM_PAD_W];
    const long xs_c = S(DMLI_IMM_A, 1), xs_h = S(DMLI_IMM_A, 2), xs_w = S(DMLI_IMM_A, 3);
    const long ws_c = S(DMLI_IMM_B, 1), ws_h = S(DMLI_IMM_B, 2), ws_w = S(DMLI_IMM_B, 3);
    const long ws_o = S(DMLI_IMM_B, 0);
    int za = 0;
#if HAS_AZP
    za = (int)azp[azpb + AT(DMLI_IMM_AZP, o0, o1, o2, o3)];
#endif
    float zw[MR];
    for (int r = 0; r < MR; ++r) {
#if HAS_BZP
        zw[r] = (float)(int)bzp[bzpb + AT(DMLI_IMM_BZP, o0, o1 + r, o2, o3)];
#else
        zw[r] = 0.0f;
#endif
    }
    __global const TA *xn = x + o0 * S(DMLI_IMM_A, 0) + o1 / cout_g * cin_g * xs_c;
    __global const TB *wo = w + o1 * ws_o;
    uint acc[MR][NB];
    for (int r = 0; r < MR; ++r)
        for (int j = 0; j < NB; ++j)
            acc[r][j] = 0;
    FVEC f[MR][NV];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v)
            f[r][v] = (FVEC)(0.0f);
    int taps = 0;
    const long extent = tb[DMLI_IMM_EXTENT_A];
    const IVEC lanes = (IVEC)(CAT(VL, VW)(LANE, 0, 0));
    for (long ci = 0; ci < cin_g; ++ci) {
        for (long kh = 0; kh < kh_n; ++kh) {
            const long ih = o2 * sh + kh * dh - ph;
            if (ih < 0 || ih >= ih_n)
                continue;
            __global const TA *xr = xn + ci * xs_c + ih * xs_h;
            __global const TB *wr = wo + ci * ws_c + kh * ws_h;
            for (long kw = 0; kw < kw_n; ++kw) {
                const long iw0 = o3 * sw + kw * dw - pw;
                FVEC xv[NV];
                /* Whole-vector reads where the block's positions lie inside the input (its
                 * lanes past the row, never stored, or in the padding, then masked to 0). */
                const long at = (long)(xr - x) + iw0;
                if (sw * xs_w == 1 && at >= 0 && at + NB <= extent && iw_n < (1L << 30)) {
                    __global const TA *xp = xr + iw0;
                    if (iw0 >= 0 && iw0 + (cols - 1) < iw_n) {
#pragma unroll
                        for (int v = 0; v < NV; ++v)
                            xv[v] = (FVEC)(CAT(VL, VW)(XLOAD, xp, v * VW));
                    } else {
#pragma unroll
                        for (int v = 0; v < NV; ++v) {
                            const IVEC pos = lanes + (int)(iw0 + v * VW);
                            const IVEC in =
                                (pos >= 0) & (pos < (int)iw_n) & (lanes + v * VW < cols);
                            const FVEC raw = (FVEC)(CAT(VL, VW)(XLOAD, xp, v * VW));
                            xv[v] = CAT(as_float, VW)(CAT(as_int, VW)(raw) & in);
                        }
                    }
                } else if (sw == 2 && xs_w == 1 && at >= 0 && at + 2 * NB - 1 <= extent &&
                           iw_n < (1L << 30)) {
                    /* Stride 2 (a downsampling convolution, a stem): every second element,
                     * loads the compiler can widen, the padding's lanes masked as above. */
                    __global const TA *xp = xr + iw0;
#pragma unroll
                    for (int v = 0; v < NV; ++v) {
                        const IVEC pos = (lanes + v * VW) * 2 + (int)iw0;
                        const IVEC in = (pos >= 0) & (pos < (int)iw_n) & (lanes + v * VW < cols);
                        const FVEC raw = (FVEC)(CAT(VL, VW)(XLOAD2, xp, v * VW));
                        xv[v] = CAT(as_float, VW)(CAT(as_int, VW)(raw) & in);
                    }
                } else {
                    for (int v = 0; v < NV; ++v) {
                        fvec_lanes u;
                        for (int l = 0; l < VW; ++l) {
                            const int j = v * VW + l < cols ? v * VW + l : cols - 1;
                            const long iw = iw0 + j * sw;
                            u.f[l] = iw >= 0 && iw < iw_n ? XLOAD(xr, iw * xs_w) : 0.0f;
                        }
                        xv[v] = u.v;
                    }
                }
#pragma unroll
                for (int r = 0; r < MR; ++r) {
                    const float wv = (float)(int)wr[r * ws_o + kw * ws_w] - zw[r];
#pragma unroll
                    for (int v = 0; v < NV; ++v)
                        FMADD(wv, xv[v], f[r][v]);
                }
                if (++taps == KCHUNK) {
                    taps = 0;
                    fold_chunk(f, acc);
                }
            }
        }
    }
    fold_chunk(f, acc);
    for (int r = 0; r < MR; ++r)
        store_outputs(tb, STORE_ARGS, o0, o1 + r, o2, o3, cols, acc[r]);
}
#endif /* !CHAN */

#if CHAN
/*
 * intmm_conv_chan (CHAN 1; CPUs, where a group has at least a vector's half of output channels,
 * the filter's taps are at most KCHUNK and the zero points broadcast as intmm_conv_blocks'): a
 * work-item PB output positions (consecutive columns of one output row) x CV = NV * VW output
 * channels of one group, the vectors along the channels, as cl/conv.cl's conv_chan: per tap, NV
 * filter vectors (intmm_conv_pack's floats) and PB input values, each broadcast, PB x NV float
 * multiply-adds with no check and no lane spent on a row's end, a stride or padding. Grid
 * dimension 0: OH x the row's blocks of PB columns (a work-group's items sharing the block's
 * filter slice), 1: the groups' blocks of CV channels (DMLI_IMM_CO_BLOCKS a group), 2: images.
 *
 * Per input channel and filter row, the row's inputs under the item's positions and taps
 * ((PB - 1) x SW + (KW - 1) x DW + 1 of them, at most RLMAX vectors) are read once, each
 * (x - x's zero point) as a float, 0 in the padding: the taps then read them from there. Exact as
 * intmm_blocks': the products are integers of at most 255 x 255, a float sum of KCHUNK / taps
 * input channels' products (at most KCHUNK) is exact, and then goes into the 32-bit sums
 * (wrapping). The same sums as intmm's, bit for bit. Positions past OW and channels past the
 * group's repeat the last, never stored.
 */
#ifndef PB
#define PB 8
#endif
#ifndef SW
#define SW 0 /* the stride along W where the variant fixes it (1, 2), 0: the table's */
#endif
#define CV NB
#define RLMAX 4

/* The pre-step (src/program.c): block b's filter slice (b: grid dimension 2, a group's blocks of
 * CV channels, DMLI_IMM_CO_BLOCKS a group) as [input channel][KH][KW][CV] floats, each
 * (w - the channel's filter zero point), at b x Cin / G x KH x KW x CV of pk; an item an input
 * channel of a block (grid dimension 0). Once at initialization where the filter (and its zero
 * point) are owned, else at each dispatch. */
__kernel void intmm_conv_pack(__constant long *tb, __global const TB *w, long wb,
                              __global const TB *bzp, long bzpb, __global float *pk, long pkb)
{
    const long cin_g = tb[DMLI_IMM_CIN_G], cout_g = tb[DMLI_IMM_COUT_G];
    const long kh_n = tb[DMLI_IMM_K_H], kw_n = tb[DMLI_IMM_K_W], kvol = kh_n * kw_n;
    const long ci = get_global_id(0), blk = get_global_id(2);
    if (ci >= cin_g)
        return;
    const long co_blocks = tb[DMLI_IMM_CO_BLOCKS];
    const long g = blk / co_blocks, first = g * cout_g + blk % co_blocks * CV;
    const long last = g * cout_g + cout_g - 1;
    __global float *dst = pk + pkb + (blk * cin_g + ci) * kvol * CV;
    (void)bzp, (void)bzpb;
    for (int c = 0; c < CV; ++c) {
        const long co = min(first + c, last);
        int zw = 0;
#if HAS_BZP
        zw = (int)bzp[bzpb + AT(DMLI_IMM_BZP, 0, co, 0, 0)];
#endif
        __global const TB *src = w + wb + co * S(DMLI_IMM_B, 0) + ci * S(DMLI_IMM_B, 1);
        for (long kh = 0; kh < kh_n; ++kh)
            for (long kw = 0; kw < kw_n; ++kw)
                dst[(kh * kw_n + kw) * CV + c] =
                    (float)((int)src[kh * S(DMLI_IMM_B, 2) + kw * S(DMLI_IMM_B, 3)] - zw);
    }
}

#define PLOAD(p, i) ((p)[(i)])

__kernel void intmm_conv_chan(__constant long *tb, __global const TA *x, long ab,
                              __global const TB *w, long bb, __global const TA *azp, long azpb,
                              __global const TB *bzp, long bzpb, __global const TF *ascale,
                              long asb, __global const TF *bscale, long bsb,
                              __global const TF *oscale, long osb, __global const TO *ozp,
                              long ozpb, __global const TBIAS *bias, long biasb, __global TO *out,
                              long outb, __global const float *pk, long pkb)
{
    const long d2 = tb[DMLI_IMM_D(2)], d3 = tb[DMLI_IMM_D(3)];
    const long pblk = (d3 + PB - 1) / PB;
    const long o2 = (long)get_global_id(0) / pblk, o3 = (long)get_global_id(0) % pblk * PB;
    if (o2 >= d2)
        return;
    const long blk = get_global_id(1), o0 = get_global_id(2);
    const long cin_g = tb[DMLI_IMM_CIN_G], cout_g = tb[DMLI_IMM_COUT_G];
    const long ih_n = tb[DMLI_IMM_IN_H], iw_n = tb[DMLI_IMM_IN_W];
    const long kh_n = tb[DMLI_IMM_K_H], kw_n = tb[DMLI_IMM_K_W], kvol = kh_n * kw_n;
    const long sh = tb[DMLI_IMM_STRIDE_H];
#if SW
    const long sw = SW;
#else
    const long sw = tb[DMLI_IMM_STRIDE_W];
#endif
    const long dh = tb[DMLI_IMM_DIL_H], dw = tb[DMLI_IMM_DIL_W];
    const long ph = tb[DMLI_IMM_PAD_H], pw = tb[DMLI_IMM_PAD_W];
    const long xs_c = S(DMLI_IMM_A, 1), xs_h = S(DMLI_IMM_A, 2), xs_w = S(DMLI_IMM_A, 3);
    const long co_blocks = tb[DMLI_IMM_CO_BLOCKS];
    const long g = blk / co_blocks, c0 = blk % co_blocks * CV, o1 = g * cout_g + c0;
    const int cols = d3 - o3 < PB ? (int)(d3 - o3) : PB;
    (void)w, (void)bb, (void)bzp, (void)bzpb;
    x += ab;
    out += outb;
    int za = 0;
#if HAS_AZP
    za = (int)azp[azpb + AT(DMLI_IMM_AZP, o0, o1, o2, o3)];
#endif
    __global const TA *xn = x + o0 * S(DMLI_IMM_A, 0) + g * cin_g * xs_c;
    __global const float *wp = pk + pkb + blk * cin_g * kvol * CV;
    /* The row's inputs: from column iw_a, rv vectors. */
    const long iw_a = o3 * sw - pw;
    const int rv = (int)(((PB - 1) * sw + (kw_n - 1) * dw + VW) / VW);
    const bool vec = xs_w == 1 && iw_n < (1L << 30);
    const long extent = tb[DMLI_IMM_EXTENT_A];
    const IVEC lanes = (IVEC)(CAT(VL, VW)(LANE, 0, 0));
    uint acc[PB][CV];
    for (int r = 0; r < PB; ++r)
        for (int c = 0; c < CV; ++c)
            acc[r][c] = 0;
    FVEC f[PB][NV];
    for (int r = 0; r < PB; ++r)
        for (int v = 0; v < NV; ++v)
            f[r][v] = (FVEC)(0.0f);
    const long per_fold = KCHUNK / kvol;
    long since = 0;
    fvec_lanes row[RLMAX];
    for (long ci = 0; ci < cin_g; ++ci) {
        for (long kh = 0; kh < kh_n; ++kh) {
            const long ih = o2 * sh + kh * dh - ph;
            if (ih < 0 || ih >= ih_n)
                continue;
            __global const TA *xr = xn + ci * xs_c + ih * xs_h;
            const long at = (long)(xr - x) + iw_a;
            if (vec && at >= 0 && at + rv * VW <= extent) {
                /* Whole vectors, the lanes outside the input (padding) masked to 0. */
                for (int v = 0; v < rv; ++v) {
                    const IVEC pos = lanes + (int)(iw_a + v * VW);
                    const IVEC in = (pos >= 0) & (pos < (int)iw_n);
                    const FVEC raw = (FVEC)(CAT(VL, VW)(XLOAD, xr + iw_a, v * VW));
                    row[v].v = CAT(as_float, VW)(CAT(as_int, VW)(raw) & in);
                }
            } else {
                for (int e = 0; e < rv * VW; ++e) {
                    const long iw = iw_a + e;
                    row[e / VW].f[e % VW] = iw >= 0 && iw < iw_n ? XLOAD(xr, iw * xs_w) : 0.0f;
                }
            }
            __global const float *wt = wp + (ci * kh_n + kh) * kw_n * CV;
            for (long kw = 0; kw < kw_n; ++kw, wt += CV) {
                FVEC wv[NV];
#pragma unroll
                for (int v = 0; v < NV; ++v)
                    wv[v] = (FVEC)(CAT(VL, VW)(PLOAD, wt, v * VW));
                const float *rk = (const float *)row + kw * dw;
#pragma unroll
                for (int r = 0; r < PB; ++r) {
                    const float xv = rk[r * sw];
#pragma unroll
                    for (int v = 0; v < NV; ++v)
                        FMADD(xv, wv[v], f[r][v]);
                }
            }
        }
        if (++since == per_fold) {
            since = 0;
            fold_chunk(f, acc);
        }
    }
    fold_chunk(f, acc);
    const int cend = cout_g - c0 < CV ? (int)(cout_g - c0) : CV;
#if OUT_KIND == DMLI_IMM_OUT_QUANT
    /* A requantization whose scales, zero point and bias are one value along the row (per tensor
     * or per channel): each channel's factor, zero point and bias from offsets stepped along the
     * channels, all PB lanes in a loop of fixed length that vectorises (store_outputs'
     * operations on the same values), then the cols of them stored. */
    if (S(DMLI_IMM_OUT, 3) == 1 && S(DMLI_IMM_ASCALE, 3) == 0 && S(DMLI_IMM_BSCALE, 3) == 0 &&
        S(DMLI_IMM_OSCALE, 3) == 0
#if HAS_OZP
        && S(DMLI_IMM_OZP, 3) == 0
#endif
#if HAS_BIAS
        && S(DMLI_IMM_BIAS, 3) == 0
#endif
    ) {
        long ia = asb + AT(DMLI_IMM_ASCALE, o0, o1, o2, o3),
             ib = bsb + AT(DMLI_IMM_BSCALE, o0, o1, o2, o3),
             is = osb + AT(DMLI_IMM_OSCALE, o0, o1, o2, o3), io = AT(DMLI_IMM_OUT, o0, o1, o2, o3);
        const long da = S(DMLI_IMM_ASCALE, 1), db = S(DMLI_IMM_BSCALE, 1),
                   ds = S(DMLI_IMM_OSCALE, 1), dout = S(DMLI_IMM_OUT, 1);
#if HAS_OZP
        long iz = ozpb + AT(DMLI_IMM_OZP, o0, o1, o2, o3);
        const long dz = S(DMLI_IMM_OZP, 1);
#endif
#if HAS_BIAS
        long ibias = biasb + AT(DMLI_IMM_BIAS, o0, o1, o2, o3);
        const long dbias = S(DMLI_IMM_BIAS, 1);
#endif
        for (int c = 0; c < cend; ++c, ia += da, ib += db, is += ds, io += dout) {
            const float fc = (LOADF(ascale, ia) * LOADF(bscale, ib)) / LOADF(oscale, is);
            int zo = 0;
            uint add = 0;
#if HAS_OZP
            zo = (int)ozp[iz];
            iz += dz;
#endif
#if HAS_BIAS
            add = (uint)bias[ibias];
            ibias += dbias;
#endif
            TO y[PB];
            for (int r = 0; r < PB; ++r)
                y[r] = requantize((float)(int)(acc[r][c] + add) * fc, zo);
            __global TO *o = out + io;
            if (cols == PB)
                for (int r = 0; r < PB; ++r)
                    o[r] = y[r];
            else
                for (int r = 0; r < cols; ++r)
                    o[r] = y[r];
        }
        return;
    }
#endif
    for (int c = 0; c < cend; ++c) {
        uint col[PB];
        for (int r = 0; r < PB; ++r)
            col[r] = acc[r][c];
        store_outputs(tb, STORE_ARGS, o0, o1 + c, o2, o3, cols, col);
    }
}
#endif /* CHAN */
#endif

#if TILES && !CONV
/*
 * intmm_tiles (TILES 1; GPUs, a product whose zero points broadcast as intmm_blocks takes them:
 * A's one a row, B's one a column): cl/tile.cl's tile over the integer operands. The slabs hold
 * each value as the float (x - its zero point), an integer of at most 255 in magnitude (0 past
 * M, N or K: nothing added), so every multiply-add is exact and a float sum of up to KCHUNK
 * products is too (KCHUNK x 255^2 < 2^24); every KCHUNK / TK steps the block's float sums go
 * into 32-bit sums (wrapping) and start again: the same sums as intmm's, bit for bit. Grid: the
 * tiles along N (dimension 0) and M (1), D0 x D1 (2); then each output through store_outputs.
 */
/* Along k, runs of 32 bytes of a row (a warp's 32 items one 32-byte sector; runs of 8, the
 * float tile's, would use a quarter of each), at most TK. */
#define TILE_KRUN (TK % 32 == 0 ? 32 : TK % 16 == 0 ? 16 : TK % 8 == 0 ? 8 : TK)
#include "tile.cl"

__kernel void intmm_tiles(__constant long *tb, __global const TA *a, long ab, __global const TB *b,
                          long bb, __global const TA *azp, long azpb, __global const TB *bzp,
                          long bzpb, __global const TF *ascale, long asb, __global const TF *bscale,
                          long bsb, __global const TF *oscale, long osb, __global const TO *ozp,
                          long ozpb, __global const TBIAS *bias, long biasb, __global TO *out,
                          long outb)
{
    __local float4 as4[2 * TK * AS_W / 4];
    __local float4 bs4[2 * TK * BS_W / 4];
    __local float *as = (__local float *)as4, *bs = (__local float *)bs4;
    const long d1 = tb[DMLI_IMM_D(1)], M = tb[DMLI_IMM_D(2)], N = tb[DMLI_IMM_D(3)];
    const long K = tb[DMLI_IMM_K];
    const long o01 = get_group_id(2), o0 = o01 / d1, o1 = o01 % d1;
    const long a_m = S(DMLI_IMM_A, 2), a_k = S(DMLI_IMM_A, 3);
    const long b_k = S(DMLI_IMM_B, 2), b_n = S(DMLI_IMM_B, 3);
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int lid = ly * TX + lx;
    const long n0 = (long)get_group_id(0) * TN, m0 = (long)get_group_id(1) * TM;
    const long oa = ab + o0 * S(DMLI_IMM_A, 0) + o1 * S(DMLI_IMM_A, 1);
    const long ob = bb + o0 * S(DMLI_IMM_B, 0) + o1 * S(DMLI_IMM_B, 1);
    const bool a_along_m = a_m == 1, b_along_n = b_n == 1 || b_k != 1;
    /* The slots (cl/tile.cl), and each one's row's (column's) zero point. */
    slot sa[A_SLOTS], sb[B_SLOTS];
    float za[A_SLOTS], zb[B_SLOTS];
#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r) {
        sa[r] = slot_of(lid + ITEMS * r, TK * TM, a_along_m, TM, AS_W, m0, M, oa, a_m, a_k);
        za[r] = 0.0f;
#if HAS_AZP
        if (sa[r].live) {
            const long m =
                m0 + (a_along_m ? (lid + ITEMS * r) % TM : TILE_MN_OF(lid + ITEMS * r, TM));
            za[r] = (float)(int)azp[azpb + AT(DMLI_IMM_AZP, o0, o1, m, 0)];
        }
#endif
    }
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r) {
        sb[r] = slot_of(lid + ITEMS * r, TK * TN, b_along_n, TN, BS_W, n0, N, ob, b_n, b_k);
        zb[r] = 0.0f;
#if HAS_BZP
        if (sb[r].live) {
            const long n =
                n0 + (b_along_n ? (lid + ITEMS * r) % TN : TILE_MN_OF(lid + ITEMS * r, TN));
            zb[r] = (float)(int)bzp[bzpb + AT(DMLI_IMM_BZP, o0, o1, 0, n)];
        }
#endif
    }
    const long a_step = TK * a_k, b_step = TK * b_k;
    float4 acc[WM][RN];
    uint4 sums[WM][RN];
    TILE_ZERO(acc);
#pragma unroll
    for (int i = 0; i < WM; ++i)
#pragma unroll
        for (int h = 0; h < RN; ++h)
            sums[i][h] = (uint4)0;
    float ra[A_SLOTS], rb[B_SLOTS];
#define A_VALUE(r, left) (sa[r].live && sa[r].kk < (left) ? (float)(int)a[sa[r].at] - za[r] : 0.0f)
#define B_VALUE(r, left) (sb[r].live && sb[r].kk < (left) ? (float)(int)b[sb[r].at] - zb[r] : 0.0f)
#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r) {
        ra[r] = A_VALUE(r, K);
        if (sa[r].mine)
            as[sa[r].slab] = ra[r];
    }
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r) {
        rb[r] = B_VALUE(r, K);
        if (sb[r].mine)
            bs[sb[r].slab] = rb[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Steps a fold: at most KCHUNK products in a float sum. */
    const int per_fold = KCHUNK / TK > 0 ? KCHUNK / TK : 1;
    int steps = 0, cur = 0;
    for (long k0 = 0; k0 < K; k0 += TK) {
        const long next = k0 + TK;
        const bool more = next < K;
        if (more) {
            const long left = K - next;
#pragma unroll
            for (int r = 0; r < A_SLOTS; ++r) {
                sa[r].at += a_step;
                ra[r] = A_VALUE(r, left);
            }
#pragma unroll
            for (int r = 0; r < B_SLOTS; ++r) {
                sb[r].at += b_step;
                rb[r] = B_VALUE(r, left);
            }
        }
        TILE_MULTIPLY(as4, bs4, cur, lx, ly, acc);
        if (++steps == per_fold || !more) {
            steps = 0;
#pragma unroll
            for (int i = 0; i < WM; ++i)
#pragma unroll
                for (int h = 0; h < RN; ++h) {
                    sums[i][h] += as_uint4(convert_int4(acc[i][h]));
                    acc[i][h] = (float4)0.0f;
                }
        }
        if (more)
            TILE_STAGE_NEXT(as, bs, cur, sa, ra, sb, rb);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef A_VALUE
#undef B_VALUE
    out += outb;
#pragma unroll
    for (int i = 0; i < WM; ++i) {
        const long m = m0 + TILE_ROW(ly, i);
        if (m >= M)
            continue;
#pragma unroll
        for (int h = 0; h < RN; ++h) {
            const long n = n0 + TILE_COL(lx, h);
            if (n >= N)
                continue;
            const uint s4[4] = {sums[i][h].s0, sums[i][h].s1, sums[i][h].s2, sums[i][h].s3};
            store_outputs(tb, STORE_ARGS, o0, o1, m, n, N - n < 4 ? (int)(N - n) : 4, s4);
        }
    }
}
#endif /* TILES */
