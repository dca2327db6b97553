/* SPDX-License-Identifier: MIT */
/*
 * The conv family: DirectML's CONVOLUTION, computed directly (no im2col, padding never
 * materialised: a tap outside the input reads 0). The host (src/launch_conv.c) fills the table
 * (cl/abi.h DMLI_CONV_*): three spatial dimensions {D, H, W} (size 1 where the operator has
 * fewer), every tensor read and written through its strides, the filter through signed strides
 * (CONVOLUTION mode walks it backwards) and the group / output-channel / input-channel strides
 * that make one kernel read FORWARD's {Cout, Cin/G, ...} and BACKWARD's {Cin, Cout/G, ...}.
 *
 * Along a spatial dimension, output o reads input i through tap k where
 *   FORWARD:  i = o * S + k * DIL - PAD
 *   BACKWARD: i * S = o + PAD - k * DIL  (a gather: each output sums the inputs whose window
 *             covers it; no scatter, no atomics, no zero-inserted copy)
 * and sums over the group's input channels and the taps; then + bias, then the activation, in
 * registers, rounded once to the output's type.
 *
 * conv_direct: a work-item computes COB output channels x RB output rows x VW consecutive
 *   output positions along W (VW a float vector): every input vector loaded serves COB channels
 *   and every filter value RB x VW positions. CPUs (COB 8), depthwise (COB 1, RB rows).
 * conv_chan (CHAN 1, FORWARD, CPUs): a work-item computes PB output positions x NV * VW output
 *   channels (the vectors along the channels), from the filter slice and the input patch
 *   (padding as zeros) its work-group stages in local memory: no check in the inner loop.
 * conv_tiled (TILED 1, FORWARD only): a work-group of LX x LY items computes LY * COB output
 *   channels x LX * VW positions of one output row; each chunk of input channels is staged in
 *   local memory (the input patch its window covers, LPATCH floats, and the filter slice,
 *   LFILT floats) before the items compute from it. GPUs where conv_gemm does not fit.
 * conv_dwt (DWT 1, FORWARD, depthwise, 2-D): a work-group of LX x LY items computes LX x LY *
 *   DR outputs of one image and group from the input patch and filters it stages in local
 *   memory. GPUs.
 * conv_gemm (IGEMM 1): the implicit GEMM of each group, filter [Cout/G, Cin/G x taps] times
 *   windows [Cin/G x taps, positions], through cl/tile.cl's tile; BACKWARD a product a phase of
 *   the strides. GPUs.
 *
 * Macros (defaults build a valid program):
 *   IN_HALF, OUT_HALF  FLOAT16 storage (ushort) of the inputs (input, filter, bias) / output
 *   BACKWARD           the transposed convolution above
 *   VW, COB, RB        the register block (VW 1, 2, 4, 8 or 16)
 *   VLOAD              the input's W stride and S_W are 1: a window row's VW inputs are
 *                      contiguous (one vector load where all are inside the input)
 *   ACT                the activation (cl/activation.cl), parameters DMLI_CONV_ACT(0..2)
 *   TILED, LX, LY, LPATCH, LFILT  the work-group tiles of conv_tiled
 *   DWT, DR            conv_dwt (below): DR output rows an item of an LX x LY work-group
 *   SB                 conv_tiled, conv_dwt: the values an item loads before it stores the first to
 *                      local memory (the host's gpu_load_batch)
 *   IGEMM, TX, TY, WM, WN, TK, TAPS  conv_gemm: cl/tile.cl's tile, at most TAPS taps
 *   CHAN, NV, PB, LW   conv_chan: NV vectors of VW channels, PB positions, LW floats of local
 *                      memory for the slice and the patch
 *   PACKED             conv_chan reads the filter slices conv_chan_pack packed into its scratch
 *                      argument (the same layout as the staged slice), and stages only the
 *                      patch in local memory
 *   PACKW, LW          conv_direct (CPUs): the work-group's items (blocks of positions, all of
 *                      the same COB channels) first copy the filter slice of a chunk of
 *                      DMLI_CONV_CIC input channels into local memory (LW floats), as
 *                      [tap][input channel][COB]: the inner loop reads its COB filter values
 *                      from one pointer, consecutive, instead of COB streams Cin x K apart
 */
#include "abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef IN_HALF
#define IN_HALF 0
#endif
#ifndef OUT_HALF
#define OUT_HALF 0
#endif
#ifndef BACKWARD
#define BACKWARD 0
#endif
#ifndef VW
#define VW 8
#endif
#ifndef COB
#define COB 4
#endif
#ifndef RB
#define RB 1
#endif
#ifndef VLOAD
#define VLOAD 0
#endif
#ifndef TILED
#define TILED 0
#endif
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 4
#endif
#ifndef LPATCH
#define LPATCH 2048
#endif
#ifndef LFILT
#define LFILT 2048
#endif
#ifndef CHAN
#define CHAN 0
#endif
#ifndef NV
#define NV 2
#endif
#ifndef CHUNKED
#define CHUNKED 0
#endif
#ifndef SB
#define SB 1
#endif
#ifndef DWT
#define DWT 0
#endif
#ifndef DR
#define DR 4
#endif
#ifndef PB
#define PB 8
#endif
#ifndef PACKW
#define PACKW 0
#endif
#ifndef LW
#define LW 4096
#endif
#ifndef IGEMM
#define IGEMM 0
#endif
#ifndef TAPS
#define TAPS 256
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#define INT_COMPUTE 0
#include "activation.cl"
#include "tile.cl"

#if IN_HALF
#define IN_ST ushort
#define LOADIN(p, i) vload_half((i), (__global const half *)(p))
#else
#define IN_ST float
#define LOADIN(p, i) ((p)[(i)])
#endif

#if OUT_HALF
#include "half.cl"
#define OUT_ST ushort
#define STOREOUT(o, v) dmli_store_half(out, (o), (v))
#else
#define OUT_ST float
#define STOREOUT(o, v) (out[(o)] = (v))
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
/*
 * Vectors of VW floats without a vector-typed builtin call (vloadN, vstoreN, shuffle, select,
 * fma on floatN): a call passing a 32- or 64-byte vector changes the ABI on targets without AVX
 * or AVX-512 (scripts/kernel-targets builds every variant for each), while vector arithmetic,
 * element-wise construction and unions do not. VGATHER(L, p, i, s): the vector of L(p, i),
 * L(p, i + s), ... (contiguous reads merge into one vector load).
 */
#define VL1(L, p, i, s) L(p, (i))
#define VL2(L, p, i, s) L(p, (i)), L(p, (i) + (s))
#define VL4(L, p, i, s) VL2(L, p, i, s), VL2(L, p, (i) + 2 * (s), s)
#define VL8(L, p, i, s) VL4(L, p, i, s), VL4(L, p, (i) + 4 * (s), s)
#define VL16(L, p, i, s) VL8(L, p, i, s), VL8(L, p, (i) + 8 * (s), s)
#if VW == 1
#define VT float
#else
#define VT CAT(float, VW)
#endif
#define VGATHER(L, p, i, s) ((VT)(CAT(VL, VW)(L, p, i, s)))
typedef union {
    VT v;
    float f[VW];
} vt_lanes;
#define PLOAD(p, i) ((p)[(i)])
#define VLOADP(p) VGATHER(PLOAD, (p), 0, 1)
#define VLOADIN(p, i) VGATHER(LOADIN, p, i, 1)
#define VLOADIN2(p, i) VGATHER(LOADIN, p, i, 2) /* the even lanes of 2 * VW */
/* acc + a * b, contracted to one multiply-add where the device has one (the file's
 * FP_CONTRACT is OFF: the activations count their roundings). */
#define FMADD(a, b, acc)                                           \
    do {                                                           \
        _Pragma("OPENCL FP_CONTRACT ON")(acc) = (a) * (b) + (acc); \
    } while (0)

#define T(i) table[(i)]

/* conv_tiled, conv_dwt: the SB values v[] an item loaded for slots e0, e0 + LX * LY, ... of a
 * local array of n, stored there (those below n) once all are loaded. */
#define STAGE_STORE(dst, e0, n, v)                        \
    do {                                                  \
        _Pragma("unroll") for (int b_ = 0; b_ < SB; ++b_) \
        {                                                 \
            const uint s_ = (e0) + (uint)b_ * (LX * LY);  \
            if (s_ < (n))                                 \
                (dst)[s_] = (v)[b_];                      \
        }                                                 \
    } while (0)

/* The input coordinate that output coordinate o reads through tap k along one dimension, or
 * -1: outside the input, or (BACKWARD) o + pad - k * dil not a multiple of s. */
static long in_coord(long o, long k, long s, long dil, long pad, long n)
{
#if BACKWARD
    long t = o + pad - k * dil;
    if (t < 0 || t % s != 0)
        return -1;
    t /= s;
#else
    long t = o * s + k * dil - pad;
    if (t < 0)
        return -1;
#endif
    return t < n ? t : -1;
}

/* The bias of output channel co: 0 without one (DMLI_CONV_HAS_BIAS 0: the bias argument is
 * another tensor's buffer, never read). */
#define BIAS_OF(co) \
    (T(DMLI_CONV_HAS_BIAS) ? LOADIN(bias, bias_base + (co)*T(DMLI_CONV_BS_C)) : 0.0f)

/* out[o] = act(v) for a value before the activation. */
static void store_one(__global OUT_ST *out, long o, float v, __constant long *table)
{
    const float g0 = as_float((uint)T(DMLI_CONV_ACT(0)));
    const float g1 = as_float((uint)T(DMLI_CONV_ACT(1)));
    const float g2 = as_float((uint)T(DMLI_CONV_ACT(2)));
    (void)g0, (void)g1, (void)g2;
    float y = ACTIVATE(v);
    STOREOUT(o, y);
}

#define BIAS_ARGS , __global const IN_ST *bias, long bias_base

#if CHAN

#ifndef PACKED
#define PACKED 0
#endif
#if PACKED
#define PACK_ARGS , __global float *pk, long pk_base
#define WSPACE __global
#else
#define PACK_ARGS
#define WSPACE __local
#endif

/* conv_chan: PB output positions (consecutive in the flattened D x H x W of one image, across
 * row ends) x CV = NV * VW output channels of one group, the vectors along the channels. A
 * work-group's items (blocks of positions, all of the same CV channels) first stage, for a
 * chunk of input channels, the filter slice as [tap][input channel][CV] (PACKED: conv_chan_pack
 * wrote it so before, for every work-group) and the input patch their windows cover, padding
 * written as zeros, as [D][H][W][input channel] (LW floats in all; the host sizes the chunk);
 * then per tap and input channel each item loads NV filter
 * vectors and its PB positions' inputs, each broadcast: PB * NV multiply-adds, no check, no
 * lane spent on a row's end, a stride or padding. Sums in the order taps (d, h, w) of a chunk,
 * then its input channels, chunk after chunk. */
#define CV (NV * VW)

/* PB consecutive floats of the output from y[]: one store (a packed struct's vector: any
 * float's alignment; LLVM kept PB scalar stores), where PB is a vector's length. */
#if !OUT_HALF && (PB == 2 || PB == 4 || PB == 8 || PB == 16)
typedef struct __attribute__((packed)) {
    CAT(float, PB) v;
} pb_unaligned;
typedef union {
    CAT(float, PB) v;
    float f[PB];
} pb_lanes;
#define STORE_ROW(o, y)                                                       \
    do {                                                                      \
        pb_lanes u_;                                                          \
        _Pragma("unroll") for (int r_ = 0; r_ < PB; ++r_) u_.f[r_] = (y)[r_]; \
        ((__global pb_unaligned *)(out + (o)))->v = u_.v;                     \
    } while (0)
#else
#define STORE_ROW(o, y)                                                                \
    do {                                                                               \
        _Pragma("unroll") for (int r_ = 0; r_ < PB; ++r_) STOREOUT((o) + r_, (y)[r_]); \
    } while (0)
#endif

/* Along one spatial dimension, tap k for the positions of phase rho (BACKWARD: outputs
 * rho + s * j): whether it reads an input, and the input index's offset from the position's
 * j * J (J: FORWARD s, BACKWARD 1), as in_coord(). */
static bool tap_base(long k, long rho, long s, long dil, long pad, long *b)
{
#if BACKWARD
    const long t = rho + pad - k * dil;
    if (t % s != 0)
        return false;
    *b = t / s;
#else
    (void)rho, (void)s;
    *b = k * dil - pad;
#endif
    return true;
}

/* The least and greatest offsets of the phase's taps along a dimension (0 and 0 where no tap
 * reads: the phase's outputs are the bias). */
static void tap_span(long kn, long rho, long s, long dil, long pad, long *lo, long *hi)
{
    bool any = false;
    for (long k = 0; k < kn; ++k) {
        long b;
        if (!tap_base(k, rho, s, dil, pad, &b))
            continue;
        *lo = any ? min(*lo, b) : b;
        *hi = any ? max(*hi, b) : b;
        any = true;
    }
    if (!any)
        *lo = *hi = 0;
}

/* The block's positions: coordinates in the grid (positions past the last repeat it, never
 * stored) and each one's first tap in the patch. */
#define CHAN_POSITIONS                                                                  \
    long pd[PB], ph[PB], pw[PB];                                                        \
    int pofs[PB];                                                                       \
    {                                                                                   \
        const long p = min(p0, npos - 1);                                               \
        long x = p % gw, y = p / gw % gh, z = p / gw / gh;                              \
        _Pragma("unroll") for (int r = 0; r < PB; ++r)                                  \
        {                                                                               \
            pd[r] = z, ph[r] = y, pw[r] = x;                                            \
            pofs[r] = (int)(((z - od_a) * j_d * hp + (y - oh_a) * j_h) * wp + x * j_w); \
            if (p0 + r + 1 < npos && ++x == gw) {                                       \
                x = 0;                                                                  \
                if (++y == gh)                                                          \
                    y = 0, ++z;                                                         \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    do {                                                                                \
    } while (0)

#if PACKED
/* conv_chan_pack: every block of CV output channels' filter slices, as conv_chan stages them
 * (per chunk of DMLI_CONV_CIC input channels, [tap][input channel][CV], the block's channels
 * past the group's last repeating it), into pk: block b (global id 2: group and block of the
 * group) at b x Cin/G x taps x CV, its chunk of input channels from ci_lo at ci_lo x taps x
 * CV. An item: DMLI_CONV_PACK_CIP input channels of a block (global id 0), VW of its channels
 * at a time (below). Every value stored once, the filter read once: conv_chan's work-groups
 * then share it (at initialization for an owned filter, src/program.c). */
__kernel void conv_chan_pack(__constant long *table, __global const IN_ST *w, long w_base,
                             __global float *pk, long pk_base)
{
    const long cin_g = T(DMLI_CONV_CIN_G), cout_g = T(DMLI_CONV_COUT_G);
    const long kd_n = T(DMLI_CONV_K(0)), kh_n = T(DMLI_CONV_K(1)), kw_n = T(DMLI_CONV_K(2));
    const long kvol = kd_n * kh_n * kw_n, cic = T(DMLI_CONV_CIC), cip = T(DMLI_CONV_PACK_CIP);
    const long ws_ci = T(DMLI_CONV_WS_CI), ws_d = T(DMLI_CONV_WS(0)), ws_h = T(DMLI_CONV_WS(1)),
               ws_w = T(DMLI_CONV_WS(2)), ws_co = T(DMLI_CONV_WS_CO);
    const long blk = get_global_id(2), co_blocks = T(DMLI_CONV_CO_BLOCKS);
    const long g = blk / co_blocks, co0 = blk % co_blocks * CV;
    /* Channels past the group's last: the last's row again. */
    const int live = (int)min((long)CV, cout_g - co0);
    const long wrow = w_base + g * T(DMLI_CONV_WS_G) + co0 * ws_co;
    __global float *dst_b = pk + pk_base + blk * cin_g * kvol * CV;
    const long ci_a = (long)get_global_id(0) * cip, ci_b = min(ci_a + cip, cin_g);
    /* A vector's VW channels at a time (VW rows, whose distance is often a multiple of 4 KiB:
     * CV of them would share a few of L1's sets and evict each other), the rows read along
     * their taps and input channels, the VW values of a tap stored side by side. */
    for (int v = 0; v < NV; ++v)
        for (long ci = ci_a; ci < ci_b; ++ci) {
            const long chunk = ci / cic, cn = min(cic, cin_g - chunk * cic);
            __global float *dst = dst_b + (chunk * cic * kvol + ci - chunk * cic) * CV + v * VW;
            const long src = wrow + ci * ws_ci;
            for (long kd = 0; kd < kd_n; ++kd)
                for (long kh = 0; kh < kh_n; ++kh)
                    for (long kw = 0; kw < kw_n; ++kw, dst += cn * CV) {
                        const long tap = src + kd * ws_d + kh * ws_h + kw * ws_w;
                        if (v * VW + VW <= live) {
#pragma unroll
                            for (int c = 0; c < VW; ++c)
                                dst[c] = LOADIN(w, tap + (v * VW + c) * ws_co);
                        } else
                            for (int c = 0; c < VW; ++c)
                                dst[c] = LOADIN(w, tap + min(v * VW + c, live - 1) * ws_co);
                    }
        }
}
#endif

__kernel void conv_chan(__constant long *table, __global OUT_ST *out, long out_base,
                        __global const IN_ST *in, long in_base, __global const IN_ST *w,
                        long w_base BIAS_ARGS PACK_ARGS)
{
    const long cin_g = T(DMLI_CONV_CIN_G), cout_g = T(DMLI_CONV_COUT_G);
    const long kd_n = T(DMLI_CONV_K(0)), kh_n = T(DMLI_CONV_K(1)), kw_n = T(DMLI_CONV_K(2));
    const long in_d = T(DMLI_CONV_IN(0)), in_h = T(DMLI_CONV_IN(1)), in_w = T(DMLI_CONV_IN(2));
    const long s_d = T(DMLI_CONV_S(0)), s_h = T(DMLI_CONV_S(1)), s_w = T(DMLI_CONV_S(2));
    const long dil_d = T(DMLI_CONV_DIL(0)), dil_h = T(DMLI_CONV_DIL(1)),
               dil_w = T(DMLI_CONV_DIL(2));
    const long pad_d = T(DMLI_CONV_PAD(0)), pad_h = T(DMLI_CONV_PAD(1)),
               pad_w = T(DMLI_CONV_PAD(2));
    const long is_c = T(DMLI_CONV_IS_C), is_d = T(DMLI_CONV_IS(0)), is_h = T(DMLI_CONV_IS(1)),
               is_w = T(DMLI_CONV_IS(2));
    /* The positions: a grid of gd x gh x gw a phase. FORWARD: the output, one phase, a
     * position's input at j * s + the tap's offset. BACKWARD: s_d x s_h x s_w phases (global id
     * 2 over images and phases), position j of phase rho the output rho + s * j (one past the
     * output where the output's size is not a multiple of s: computed, never stored), its
     * input at j + the tap's offset: within a phase every position takes the same taps. */
#if BACKWARD
    const long gd = (T(DMLI_CONV_OUT(0)) + s_d - 1) / s_d,
               gh = (T(DMLI_CONV_OUT(1)) + s_h - 1) / s_h,
               gw = (T(DMLI_CONV_OUT(2)) + s_w - 1) / s_w;
    const long phases = s_d * s_h * s_w, phase = get_global_id(2) % phases;
    const long n = get_global_id(2) / phases;
    const long rho_w = phase % s_w, rho_h = phase / s_w % s_h, rho_d = phase / s_w / s_h;
    const long j_d = 1, j_h = 1, j_w = 1;
#else
    const long gd = T(DMLI_CONV_OUT(0)), gh = T(DMLI_CONV_OUT(1)), gw = T(DMLI_CONV_OUT(2));
    const long n = get_global_id(2), rho_w = 0, rho_h = 0, rho_d = 0;
    const long j_d = s_d, j_h = s_h, j_w = s_w;
#endif
    const long npos = gd * gh * gw;
    const long p0 = (long)get_global_id(0) * PB, cb = get_global_id(1);
    /* Items past the positions (a work-group rounded up) take part in the staging's barriers
     * and compute nothing. */
    const bool live = p0 < npos;
    const long co_blocks = T(DMLI_CONV_CO_BLOCKS);
    const long g = cb / co_blocks, co0 = cb % co_blocks * CV;
    long bd_lo, bd_hi, bh_lo, bh_hi, bw_lo, bw_hi;
    tap_span(kd_n, rho_d, s_d, dil_d, pad_d, &bd_lo, &bd_hi);
    tap_span(kh_n, rho_h, s_h, dil_h, pad_h, &bh_lo, &bh_hi);
    tap_span(kw_n, rho_w, s_w, dil_w, pad_w, &bw_lo, &bw_hi);

    /* The work-group's patch: its first and last positions' rows (the same for every item),
     * input depths d_lo.., rows h_lo.. (every row where the positions span depths), every
     * column the positions read (padding included). */
    const long gfirst = (long)get_group_id(0) * (long)get_local_size(0) * PB;
    const long glast = min(gfirst + (long)get_local_size(0) * PB, npos) - 1;
    const long od_a = gfirst / gw / gh, od_b = glast / gw / gh;
    const long oh_a = od_a == od_b ? gfirst / gw % gh : 0;
    const long oh_b = od_a == od_b ? glast / gw % gh : gh - 1;
    const long d_lo = od_a * j_d + bd_lo, h_lo = oh_a * j_h + bh_lo, w_lo = bw_lo;
    const long dp = (od_b - od_a) * j_d + bd_hi - bd_lo + 1;
    const long hp = (oh_b - oh_a) * j_h + bh_hi - bh_lo + 1;
    const long wp = (gw - 1) * j_w + bw_hi - bw_lo + 1;

    __local float lbuf[LW];
    const long cic = T(DMLI_CONV_CIC), kvol = kd_n * kh_n * kw_n;
    const int lid = (int)get_local_id(0), items = (int)get_local_size(0);
    const long in_n = in_base + n * T(DMLI_CONV_IS_N) + g * cin_g * is_c;
    const long ws_ci = T(DMLI_CONV_WS_CI), ws_d = T(DMLI_CONV_WS(0)), ws_h = T(DMLI_CONV_WS(1)),
               ws_w = T(DMLI_CONV_WS(2));
    /* The CV filter rows of the block (channels past the group's last repeat it: computed,
     * never stored). */
#if PACKED
    (void)w, (void)w_base, (void)ws_ci, (void)ws_d, (void)ws_h, (void)ws_w;
#else
    long wrow[CV];
    for (int c = 0; c < CV; ++c)
        wrow[c] = w_base + g * T(DMLI_CONV_WS_G) + min(co0 + c, cout_g - 1) * T(DMLI_CONV_WS_CO);
#endif
    /* CHUNKED 0 (every input channel in one chunk, the usual case): no loop around the
     * barriers, and nothing but uniform values live across them (the accumulators start after
     * the staging; PoCL compiled the looped form of a variant in 10-15 s). */
#if CHUNKED
    VT acc[PB][NV];
#pragma unroll
    for (int r = 0; r < PB; ++r)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[r][v] = (VT)0.0f;
    for (long ci_lo = 0; ci_lo < cin_g; ci_lo += cic) {
        const long cn = min(cic, cin_g - ci_lo);
        barrier(CLK_LOCAL_MEM_FENCE);
#else
    (void)cic;
    {
        const long ci_lo = 0, cn = cin_g;
#endif
#if PACKED
        /* The slice, packed by conv_chan_pack. */
        __global const float *lw = pk + pk_base + (cb * cin_g + ci_lo) * kvol * CV;
        __local float *patch = lbuf;
#else
        __local float *lw = lbuf, *patch = lbuf + cn * kvol * CV;
        /* The slice, an input channel an item: per tap, the CV channels' values stored
         * consecutively (their CV filter rows stay in L1 over the channel's taps). */
        for (long ci = lid; ci < cn; ci += items) {
            __local float *dst = lw + ci * CV;
            const long src = (ci_lo + ci) * ws_ci;
            for (long kd = 0; kd < kd_n; ++kd)
                for (long kh = 0; kh < kh_n; ++kh)
                    for (long kw = 0; kw < kw_n; ++kw, dst += cn * CV) {
                        const long tap = src + kd * ws_d + kh * ws_h + kw * ws_w;
                        for (int c = 0; c < CV; ++c)
                            dst[c] = LOADIN(w, wrow[c] + tap);
                    }
        }
#endif
        /* The patch, a row (an input depth and row) an item: zeros where the row or a column
         * is outside the input, else the row's inputs, channel by channel. */
        const long x_a = clamp(-w_lo, 0L, wp), x_b = clamp(in_w - w_lo, x_a, wp);
        for (long row = lid; row < dp * hp; row += items) {
            const long ih = h_lo + row % hp, id = d_lo + row / hp;
            __local float *dst = patch + row * wp * cn;
            const bool inside = id >= 0 && id < in_d && ih >= 0 && ih < in_h;
            const long xa = inside ? x_a : wp, xb = inside ? x_b : wp;
            for (long e = 0; e < xa * cn; ++e)
                dst[e] = 0.0f;
            for (long e = xb * cn; e < wp * cn; ++e)
                dst[e] = 0.0f;
            if (!inside)
                continue;
            __global const IN_ST *srow = in + in_n + ci_lo * is_c + id * is_d + ih * is_h;
            if (is_w == 1) /* NCHW */
                for (long ci = 0; ci < cn; ++ci, srow += is_c) {
                    __global const IN_ST *s_ = srow + w_lo;
                    /* Scalar: LLVM's vector form scatters (vscatterqps), a quarter of
                     * conv-3x3-56's time. */
#ifdef __clang__
#pragma clang loop vectorize(disable)
#endif
                    for (long x = xa; x < xb; ++x)
                        dst[x * cn + ci] = LOADIN(s_, x);
                }
            else
                for (long x = xa; x < xb; ++x) {
                    __global const IN_ST *s_ = srow + (w_lo + x) * is_w;
                    __local float *d_ = dst + x * cn;
                    for (long ci = 0; ci < cn; ++ci)
                        d_[ci] = LOADIN(s_, ci * is_c);
                }
        }
#if !CHUNKED
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!live)
        return;
    CHAN_POSITIONS;
    VT acc[PB][NV];
#pragma unroll
    for (int r = 0; r < PB; ++r)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[r][v] = (VT)0.0f;
    {
        const long cn = cin_g;
#if PACKED
        __global const float *lw = pk + pk_base + cb * cin_g * kvol * CV;
        __local float *patch = lbuf;
#else
        __local float *lw = lbuf, *patch = lbuf + cn * kvol * CV;
#endif
#else
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!live)
            continue;
        CHAN_POSITIONS;
#endif
        /* Per tap row (d, h): the taps along W and the input channels, one run where the taps
         * are consecutive (FORWARD, dilation 1: the patch's and the slice's layouts agree),
         * else a run of input channels a tap; a phase's taps only. */
        __local const float *pr[PB];
#pragma unroll
        for (int r = 0; r < PB; ++r)
            pr[r] = patch + pofs[r] * cn;
#if BACKWARD
        const bool flat = false;
#else
        const bool flat = dil_w == 1;
#endif
        const long run = flat ? kw_n * cn : cn, runs = flat ? 1 : kw_n;
        for (long kd = 0; kd < kd_n; ++kd) {
            long bd;
            if (!tap_base(kd, rho_d, s_d, dil_d, pad_d, &bd))
                continue;
            for (long kh = 0; kh < kh_n; ++kh) {
                long bh;
                if (!tap_base(kh, rho_h, s_h, dil_h, pad_h, &bh))
                    continue;
                for (long q = 0; q < runs; ++q) {
                    long bw;
                    if (!tap_base(q, rho_w, s_w, dil_w, pad_w, &bw))
                        continue;
                    WSPACE const float *wt = lw + ((kd * kh_n + kh) * kw_n + q) * cn * CV;
                    __local const float *pt[PB];
                    const long tap = (((bd - bd_lo) * hp + (bh - bh_lo)) * wp + (bw - bw_lo)) * cn;
#pragma unroll
                    for (int r = 0; r < PB; ++r)
                        pt[r] = pr[r] + tap;
                    for (long j = 0; j < run; ++j, wt += CV) {
                        VT wv[NV];
#pragma unroll
                        for (int v = 0; v < NV; ++v)
                            wv[v] = VLOADP(wt + v * VW);
#pragma unroll
                        for (int r = 0; r < PB; ++r) {
                            const float x = pt[r][j];
#pragma unroll
                            for (int v = 0; v < NV; ++v)
                                FMADD((VT)x, wv[v], acc[r][v]);
                        }
                    }
                }
            }
        }
    }
#if CHUNKED
    if (!live)
        return;
    CHAN_POSITIONS;
#endif

    const long os_c = T(DMLI_CONV_OS_C), os_w = T(DMLI_CONV_OS(2));
    const int cend = (int)min((long)CV, cout_g - co0);
    float bv[CV];
    for (int c = 0; c < CV; ++c)
        bv[c] = BIAS_OF(g * cout_g + min(co0 + c, cout_g - 1));
    const long o_n = out_base + n * T(DMLI_CONV_OS_N) + (g * cout_g + co0) * os_c;
    /* The block's sums plus the bias, position by position, as vectors (their lanes read
     * through the unions: no unrolled copy of PB x CV floats, which weighed on the compile). */
    vt_lanes ys[PB][NV];
#pragma unroll
    for (int v = 0; v < NV; ++v) {
        const VT b = VLOADP(bv + v * VW);
#pragma unroll
        for (int r = 0; r < PB; ++r)
            ys[r][v].v = acc[r][v] + b;
    }
#define YS(r, c) ys[r][(c) / VW].f[(c) % VW]
    /* Output coordinates: FORWARD the grid's, BACKWARD rho + s * j (past the output: not
     * stored). */
#define OUT_D(r) (rho_d + (BACKWARD ? s_d : 1) * pd[r])
#define OUT_H(r) (rho_h + (BACKWARD ? s_h : 1) * ph[r])
#define OUT_W(r) (rho_w + (BACKWARD ? s_w : 1) * pw[r])
    const long out_d = T(DMLI_CONV_OUT(0)), out_h = T(DMLI_CONV_OUT(1)),
               out_w = T(DMLI_CONV_OUT(2));
#if BACKWARD
    const bool unit_w = s_w == 1; /* consecutive positions, consecutive outputs */
#else
    const bool unit_w = true;
#endif
    if (os_w == 1 && unit_w && pw[0] + PB <= gw && OUT_D(0) < out_d && OUT_H(0) < out_h) {
        /* The PB positions consecutive in one output row: a channel's PB values stored
         * together (the stem wrote 64 x 12544 values one by one, strided by a channel: a
         * quarter of its time). */
        const long o0 =
            o_n + OUT_D(0) * T(DMLI_CONV_OS(0)) + OUT_H(0) * T(DMLI_CONV_OS(1)) + OUT_W(0);
        const float g0 = as_float((uint)T(DMLI_CONV_ACT(0)));
        const float g1 = as_float((uint)T(DMLI_CONV_ACT(1)));
        const float g2 = as_float((uint)T(DMLI_CONV_ACT(2)));
        (void)g0, (void)g1, (void)g2;
        for (int c = 0; c < cend; ++c) {
            float y[PB];
#pragma unroll
            for (int r = 0; r < PB; ++r)
                y[r] = ACTIVATE(YS(r, c));
            STORE_ROW(o0 + c * os_c, y);
        }
        return;
    }
    /* Not unrolled: the activation once in the code here, not PB more times (a variant with
     * ELU compiled in 5.8 s with this loop unrolled too; the stem's rows take the path above,
     * 0.85-0.97 ms with it unrolled, 1.05 not). */
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
    for (int r = 0; r < PB; ++r) {
        if (p0 + r >= npos)
            break;
        if (OUT_D(r) >= out_d || OUT_H(r) >= out_h || OUT_W(r) >= out_w)
            continue;
        const long o =
            o_n + OUT_D(r) * T(DMLI_CONV_OS(0)) + OUT_H(r) * T(DMLI_CONV_OS(1)) + OUT_W(r) * os_w;
        for (int c = 0; c < cend; ++c)
            store_one(out, o + c * os_c, YS(r, c), table);
    }
#undef OUT_D
#undef OUT_H
#undef OUT_W
#undef YS
}

#elif DWT

/*
 * conv_dwt (DWT 1; GPUs, FORWARD, depthwise: one input channel a group, one image plane): a
 * work-group of LX x LY items computes a tile of LX output columns x LY * DR output rows of
 * one image and one group, for each of the group's output channels (the channel multiplier).
 * It first stages the tile's input patch in local memory (padding as zeros; each item loads SB
 * values before it stores the first, the warps along the patch's rows) and the group's filters;
 * then item (x, y) sums the taps of its column's outputs in rows y, y + LY, ... from there, in
 * the filter's order (rows, then columns), and stores them: a warp's stores along a row. Every
 * input value is loaded once a work-group, where conv_direct loaded it once a tap.
 */
__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void
conv_dwt(__constant long *table, __global OUT_ST *out, long out_base, __global const IN_ST *in,
         long in_base, __global const IN_ST *w, long w_base BIAS_ARGS)
{
    __local float patch[LPATCH];
    __local float filt[LFILT];
    const long cout_g = T(DMLI_CONV_COUT_G);
    const int kh_n = (int)T(DMLI_CONV_K(1)), kw_n = (int)T(DMLI_CONV_K(2)), kvol = kh_n * kw_n;
    const int s_h = (int)T(DMLI_CONV_S(1)), s_w = (int)T(DMLI_CONV_S(2));
    const int d_h = (int)T(DMLI_CONV_DIL(1)), d_w = (int)T(DMLI_CONV_DIL(2));
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1), lid = ly * LX + lx;
    const long hb = (long)get_group_id(2) % T(DMLI_CONV_H_BLOCKS);
    const long n = (long)get_group_id(2) / T(DMLI_CONV_H_BLOCKS), g = get_group_id(1);
    const long ow0 = (long)get_group_id(0) * LX, oh0 = hb * (LY * DR);
    /* The patch: the rows and columns the tile's windows cover (the host checks it fits). */
    const int pw = (LX - 1) * s_w + (kw_n - 1) * d_w + 1;
    const int ph = (LY * DR - 1) * s_h + (kh_n - 1) * d_h + 1;
    const long ih0 = oh0 * T(DMLI_CONV_S(1)) - T(DMLI_CONV_PAD(1));
    const long iw0 = ow0 * T(DMLI_CONV_S(2)) - T(DMLI_CONV_PAD(2));
    const long in_h = T(DMLI_CONV_IN(1)), in_w = T(DMLI_CONV_IN(2));
    const long is_h = T(DMLI_CONV_IS(1)), is_w = T(DMLI_CONV_IS(2));
    const long in_g = in_base + n * T(DMLI_CONV_IS_N) + g * T(DMLI_CONV_IS_C);
    const uint pn = (uint)(pw * ph), upw = (uint)pw;
    for (uint e0 = (uint)lid; e0 < pn; e0 += SB * LX * LY) {
        float v[SB];
#pragma unroll
        for (int b = 0; b < SB; ++b) {
            const uint e = e0 + (uint)b * (LX * LY), r = e / upw, c = e - r * upw;
            const long ih = ih0 + r, iw = iw0 + c;
            v[b] = 0.0f;
            if (e < pn && ih >= 0 && ih < in_h && iw >= 0 && iw < in_w)
                v[b] = LOADIN(in, in_g + ih * is_h + iw * is_w);
        }
        STAGE_STORE(patch, e0, pn, v);
    }
    const long w_g = w_base + g * T(DMLI_CONV_WS_G);
    for (uint e = (uint)lid; e < (uint)(cout_g * kvol); e += LX * LY) {
        const uint m = e / (uint)kvol, k = e - m * (uint)kvol, kh = k / (uint)kw_n,
                   kw = k - kh * (uint)kw_n;
        filt[e] = LOADIN(w, w_g + m * T(DMLI_CONV_WS_CO) + kh * T(DMLI_CONV_WS(1)) +
                                kw * T(DMLI_CONV_WS(2)));
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const long out_h = T(DMLI_CONV_OUT(1)), ow = ow0 + lx;
    const bool col = ow < T(DMLI_CONV_OUT(2));
    const long o_n = out_base + n * T(DMLI_CONV_OS_N) + ow * T(DMLI_CONV_OS(2));
    for (long m = 0; m < cout_g; ++m) {
        __local const float *f = filt + m * kvol;
        float acc[DR];
#pragma unroll
        for (int r = 0; r < DR; ++r)
            acc[r] = 0.0f;
        for (int kh = 0; kh < kh_n; ++kh)
            for (int kw = 0; kw < kw_n; ++kw) {
                const float wv = f[kh * kw_n + kw];
                __local const float *p = patch + kh * d_h * pw + lx * s_w + kw * d_w;
#pragma unroll
                for (int r = 0; r < DR; ++r)
                    FMADD(wv, p[(ly + LY * r) * s_h * pw], acc[r]);
            }
        const long co = g * cout_g + m;
        const float b = BIAS_OF(co);
        const long o = o_n + co * T(DMLI_CONV_OS_C);
#pragma unroll
        for (int r = 0; r < DR; ++r) {
            const long oh = oh0 + ly + LY * r;
            if (col && oh < out_h)
                store_one(out, o + oh * T(DMLI_CONV_OS(1)), acc[r] + b, table);
        }
    }
}

#elif !TILED

/* The VW inputs p0, p0 + pstep, ... of a window row (row: its offset; in_w inputs, is_w
 * apart) into x, 0 outside the row: lane by lane (the general case). */
#define LOAD_CHECKED(x)                                                         \
    do {                                                                        \
        float xs_[VW];                                                          \
        _Pragma("unroll") for (int j = 0; j < VW; ++j)                          \
        {                                                                       \
            const long p_ = p0 + j * pstep;                                     \
            xs_[j] = p_ >= 0 && p_ < in_w ? LOADIN(in, row + p_ * is_w) : 0.0f; \
        }                                                                       \
        (x) = VLOADP(xs_);                                                      \
    } while (0)

/* ... where every lane is inside the row: VLOAD 1 one vector load, 2 two and their even lanes,
 * 0 strided reads. */
#if VLOAD == 1
#define LOAD_FAST(x) ((x) = VLOADIN(in, row + p0))
#elif VLOAD == 2
#define LOAD_FAST(x) ((x) = VLOADIN2(in, row + p0))
#else
#define LOAD_FAST(x) ((x) = VGATHER(LOADIN, in, row + p0 * is_w, pstep * is_w))
#endif

/* ... at the row's edge (VLOAD 1 or 2, a row of at least VLOAD * VW): the nearest whole window
 * of VLOAD * VW inputs (from q, decided once a tap), written between zeros in the private
 * ebuf and read back d = p0 - q further: the lanes moved into place, 0 outside the row. A
 * shift of a whole window or more (a tap's lanes all past a pad wider than the window, or a
 * dilated BACKWARD tap far off the row) is zeros without ebuf, whose bounds it would pass
 * (Oclgrind: reads before ebuf on the GPU class's 4 lanes, a BACKWARD convolution of
 * dilation 3 over rows of 5 and 6 inputs; garbage in the outputs, by chance). */
#define EDGE_PREP                                    \
    const long q = clamp(p0, 0L, in_w - VLOAD * VW); \
    const int d = (int)(p0 - q)
#if VLOAD == 2
/* The even lanes of the window a, b (2 * VW inputs) moved by a constant D: x[j] = (a, b)[2j + D],
 * 0 outside the window (as SHIFT_CASE below). */
#define SHIFT2_CASE(x, a, b, D)                                           \
    case D: {                                                             \
        float xs_[VW];                                                    \
        _Pragma("unroll") for (int j = 0; j < VW; ++j)                    \
        {                                                                 \
            const int i_ = 2 * j + (D);                                   \
            xs_[j] = i_ < 0 || i_ >= 2 * VW ? 0.0f                        \
                     : i_ < VW              ? (a).f[clamp(i_, 0, VW - 1)] \
                                            : (b).f[clamp(i_ - VW, 0, VW - 1)];        \
        }                                                                 \
        (x) = VLOADP(xs_);                                                \
        break;                                                            \
    }
#define EDGE_LOAD(x)                                         \
    do {                                                     \
        const vt_lanes a_ = {VLOADIN(in, row + q)};          \
        const vt_lanes b_ = {VLOADIN(in, row + q + VW)};     \
        switch (d) {                                         \
            SHIFT2_CASE(x, a_, b_, 0)                        \
            SHIFT2_CASE(x, a_, b_, -1)                       \
            SHIFT2_CASE(x, a_, b_, 1)                        \
            SHIFT2_CASE(x, a_, b_, -2)                       \
            SHIFT2_CASE(x, a_, b_, 2)                        \
            SHIFT2_CASE(x, a_, b_, -3)                       \
            SHIFT2_CASE(x, a_, b_, 3)                        \
        default:                                             \
            if (d <= -2 * VW || d >= 2 * VW) {               \
                (x) = (VT)0.0f; /* every lane off the row */ \
                break;                                       \
            }                                                \
            _Pragma("unroll") for (int j = 0; j < VW; ++j)   \
            {                                                \
                ebuf[2 * VW + j] = a_.f[j];                  \
                ebuf[3 * VW + j] = b_.f[j];                  \
            }                                                \
            (x) = VGATHER(PLOAD, ebuf, 2 * VW + d, 2);       \
        }                                                    \
    } while (0)
#else
/* The window's lanes moved by a constant D (x[j] = a[j + D], 0 past either end): one lane
 * permutation in registers, where the store and the overlapping reload through ebuf wait for
 * the store to complete (no store-to-load forwarding), once an input channel. */
#define SHIFT_CASE(x, a, D)                                                         \
    case D: {                                                                       \
        float xs_[VW];                                                              \
        _Pragma("unroll") for (int j = 0; j < VW; ++j) xs_[j] =                     \
            j + (D) >= 0 && j + (D) < VW ? (a).f[clamp(j + (D), 0, VW - 1)] : 0.0f; \
        (x) = VLOADP(xs_);                                                          \
        break;                                                                      \
    }
#define EDGE_LOAD(x)                                                                \
    do {                                                                            \
        const vt_lanes a_ = {VLOADIN(in, row + q)};                                 \
        switch (d) {                                                                \
            SHIFT_CASE(x, a_, 0)                                                    \
            SHIFT_CASE(x, a_, -1)                                                   \
            SHIFT_CASE(x, a_, 1)                                                    \
            SHIFT_CASE(x, a_, -2)                                                   \
            SHIFT_CASE(x, a_, 2)                                                    \
        default:                                                                    \
            if (d <= -VW || d >= VW) {                                              \
                (x) = (VT)0.0f; /* every lane off the row (a tap far past a pad) */ \
                break;                                                              \
            }                                                                       \
            _Pragma("unroll") for (int j = 0; j < VW; ++j) ebuf[VW + j] = a_.f[j];  \
            (x) = VLOADP(ebuf + VW + d);                                            \
        }                                                                           \
    } while (0)
#endif

/* a / b rounded toward -infinity (b > 0). */
static long floor_div(long a, long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The sums of the block (acc) over the group's input channels and the taps, x read by LOAD
 * (an expression of row, p0 and pstep): the kernel's loop nest, once with the checked loads
 * and once without. */
#if BACKWARD
#define TAP_W()                                                                  \
    const long t0 = phase + pad_w - kw * dil_w; /* lane 0 of the phase's taps */ \
    if ((t0 % s_w + s_w) % s_w != 0)                                             \
        continue; /* no lane of this phase takes tap kw */                       \
    const long p0 = t0 / s_w + js, pstep = 1
#else
#define TAP_W() const long p0 = ow0 * s_w + kw * dil_w - pad_w, pstep = s_w
#endif
#if PACKW
/* The chunk's slice in local memory: [tap][ci - ci_lo][c]. */
#define W_TAP __local const float *wt = lw + ((kd * kh_n + kh) * kw_n + kw) * (ci_hi - ci_lo) * COB
#define W_READ(c) wt[(ci - ci_lo) * COB + (c)]
#else
#define W_TAP const long w_k = kd * ws_d + kh * ws_h + kw * ws_w
#define W_READ(c) LOADIN(w, wco[c] + w_k + ci * ws_ci)
#endif
#define ACCUMULATE(PREP, LOAD)                                                                \
    for (long kd = 0; kd < kd_n; ++kd) {                                                      \
        const long id = in_coord(od, kd, T(DMLI_CONV_S(0)), T(DMLI_CONV_DIL(0)),              \
                                 T(DMLI_CONV_PAD(0)), T(DMLI_CONV_IN(0)));                    \
        if (id < 0)                                                                           \
            continue;                                                                         \
        for (long kh = 0; kh < kh_n; ++kh) {                                                  \
            long row0[RB];                                                                    \
            bool ok[RB];                                                                      \
            _Pragma("unroll") for (int r = 0; r < RB; ++r)                                    \
            {                                                                                 \
                const long ih = in_coord(oh0 + r, kh, T(DMLI_CONV_S(1)), T(DMLI_CONV_DIL(1)), \
                                         T(DMLI_CONV_PAD(1)), T(DMLI_CONV_IN(1)));            \
                ok[r] = ih >= 0 && oh0 + r < T(DMLI_CONV_OUT(1));                             \
                row0[r] = in_n + id * is_d + ih * is_h;                                       \
            }                                                                                 \
            for (long kw = 0; kw < kw_n; ++kw) {                                              \
                TAP_W();                                                                      \
                PREP;                                                                         \
                W_TAP;                                                                        \
                /* Innermost, the chunk's input channels: long runs of loads and FMAs. */     \
                for (long ci = ci_lo; ci < ci_hi; ++ci) {                                     \
                    float wv[COB];                                                            \
                    _Pragma("unroll") for (int c = 0; c < COB; ++c) wv[c] = W_READ(c);        \
                    _Pragma("unroll") for (int r = 0; r < RB; ++r)                            \
                    {                                                                         \
                        if (!ok[r])                                                           \
                            continue;                                                         \
                        const long row = row0[r] + ci * is_c;                                 \
                        VT x;                                                                 \
                        LOAD(x);                                                              \
                        _Pragma("unroll") for (int c = 0; c < COB; ++c)                       \
                            FMADD((VT)wv[c], x, acc[c][r]);                                   \
                    }                                                                         \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }

__kernel void conv_direct(__constant long *table, __global OUT_ST *out, long out_base,
                          __global const IN_ST *in, long in_base, __global const IN_ST *w,
                          long w_base BIAS_ARGS)
{
    const long wblocks = T(DMLI_CONV_W_BLOCKS), hblocks = T(DMLI_CONV_H_BLOCKS);
    const long cin_g = T(DMLI_CONV_CIN_G), cout_g = T(DMLI_CONV_COUT_G);
    const long kd_n = T(DMLI_CONV_K(0)), kh_n = T(DMLI_CONV_K(1)), kw_n = T(DMLI_CONV_K(2));
    const long pb = get_global_id(0), cb = get_global_id(1), n = get_global_id(2);
    const long wb = pb % wblocks, hb = pb / wblocks % hblocks, od = pb / wblocks / hblocks;
    /* Items past the output (a work-group rounded up) take part in the packing's barriers and
     * compute nothing. */
    bool live = od < T(DMLI_CONV_OUT(0));
    const long co_blocks = T(DMLI_CONV_CO_BLOCKS);
    const long g = cb / co_blocks, co0 = cb % co_blocks * COB;
    const long out_w = T(DMLI_CONV_OUT(2)), in_w = T(DMLI_CONV_IN(2)), is_w = T(DMLI_CONV_IS(2));
    const long s_w = T(DMLI_CONV_S(2)), dil_w = T(DMLI_CONV_DIL(2)), pad_w = T(DMLI_CONV_PAD(2));
    /* The block's lanes: output positions obase + ostep * j; lanes jmin..jend-1 are its own (a
     * block at the row's end starts earlier, so that its loads stay whole vectors, and leaves
     * the lanes its neighbour owns). BACKWARD deals a row's positions to s_w phases r (o = r +
     * s_w * j'): within a phase every lane takes the same taps, and reads consecutive inputs. */
#if BACKWARD
    const long phase = wb % s_w, j0 = wb / s_w * VW;
    const long m = phase < out_w ? (out_w - phase + s_w - 1) / s_w : 0;
    live = live && j0 < m;
    const long js = min(j0, max(m - VW, 0L));
    const long obase = phase + s_w * js, ostep = s_w, jmin = j0 - js, jend = min((long)VW, m - js);
#else
    const long o0 = wb * VW, ow0 = min(o0, max(out_w - VW, 0L));
    const long obase = ow0, ostep = 1, jmin = o0 - ow0, jend = min((long)VW, out_w - ow0);
#endif
    const long oh0 = hb * RB;
    const long is_c = T(DMLI_CONV_IS_C), is_d = T(DMLI_CONV_IS(0)), is_h = T(DMLI_CONV_IS(1));
    const long ws_ci = T(DMLI_CONV_WS_CI), ws_d = T(DMLI_CONV_WS(0));
    const long ws_h = T(DMLI_CONV_WS(1)), ws_w = T(DMLI_CONV_WS(2));

    VT acc[COB][RB];
    long wco[COB];
#pragma unroll
    for (int c = 0; c < COB; ++c) {
#pragma unroll
        for (int r = 0; r < RB; ++r)
            acc[c][r] = (VT)0.0f;
        /* Channels past the group's last compute a copy of it, never stored. */
        wco[c] = w_base + g * T(DMLI_CONV_WS_G) + min(co0 + c, cout_g - 1) * T(DMLI_CONV_WS_CO);
    }
    const long in_n = in_base + n * T(DMLI_CONV_IS_N) + g * cin_g * is_c;
    /* The block is inside the row for every tap (the usual case): the loads need no checks. */
#if BACKWARD
    const long p0_lo = floor_div(phase + pad_w - (kw_n - 1) * dil_w, s_w) + js;
    const long p0_hi = floor_div(phase + pad_w, s_w) + js, span = VW;
#else
    const long p0_lo = ow0 * s_w - pad_w, p0_hi = p0_lo + (kw_n - 1) * dil_w;
    const long span = VLOAD == 2 ? 2 * VW : (VW - 1) * s_w + 1;
#endif
#if VLOAD
    /* At a row's edge: the nearest whole window, its lanes moved into place through ebuf
     * (zeros on both sides of the window). */
    float ebuf[3 * VLOAD * VW];
#pragma unroll
    for (int i = 0; i < 3 * VLOAD * VW; ++i)
        ebuf[i] = 0.0f;
#endif
#if PACKW
    __local float lw[LW];
    const long cic = T(DMLI_CONV_CIC);
    const int lid = (int)get_local_id(0), items = (int)get_local_size(0);
#else
    const long cic = cin_g;
#endif
    for (long ci_lo = 0; ci_lo < cin_g; ci_lo += cic) {
        const long ci_hi = min(cin_g, ci_lo + cic);
#if PACKW
        /* Every item of the work-group has the same channels: they share the copy, a
         * (channel, input channel) pair an item, its taps in a loop (reads along the filter's
         * innermost dimensions; no division a value). */
        const uint cn = (uint)(ci_hi - ci_lo);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint q = (uint)lid; q < cn * COB; q += (uint)items) {
            const uint c = q / cn, ci = q - c * cn;
            const long src = w_base + g * T(DMLI_CONV_WS_G) +
                             min(co0 + (long)c, cout_g - 1) * T(DMLI_CONV_WS_CO) +
                             (ci_lo + ci) * ws_ci;
            __local float *dst = lw + ci * COB + c;
            const uint step = cn * COB;
            for (long kd = 0; kd < kd_n; ++kd)
                for (long kh = 0; kh < kh_n; ++kh)
                    for (long kw = 0; kw < kw_n; ++kw) {
                        *dst = LOADIN(w, src + kd * ws_d + kh * ws_h + kw * ws_w);
                        dst += step;
                    }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        if (!live) {
        } else if (p0_lo >= 0 && p0_hi + span <= in_w) {
            ACCUMULATE((void)0, LOAD_FAST)
#if VLOAD
        } else if (in_w >= VLOAD * VW) {
            ACCUMULATE(EDGE_PREP, EDGE_LOAD)
#endif
        } else {
            ACCUMULATE((void)0, LOAD_CHECKED)
        }
    }
    if (!live)
        return;

    const long os_w = T(DMLI_CONV_OS(2));
#pragma unroll
    for (int c = 0; c < COB; ++c) {
        if (co0 + c >= cout_g)
            break;
        const long co = g * cout_g + co0 + c;
        const float b = BIAS_OF(co);
        const long oc =
            out_base + n * T(DMLI_CONV_OS_N) + co * T(DMLI_CONV_OS_C) + od * T(DMLI_CONV_OS(0));
#pragma unroll
        for (int r = 0; r < RB; ++r) {
            if (oh0 + r >= T(DMLI_CONV_OUT(1)))
                break;
            const vt_lanes ys = {acc[c][r] + b};
            const long o = oc + (oh0 + r) * T(DMLI_CONV_OS(1));
            for (long j = jmin; j < jend; ++j)
                store_one(out, o + (obase + ostep * j) * os_w, ys.f[j], table);
        }
    }
}

#else /* TILED */

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void
conv_tiled(__constant long *table, __global OUT_ST *out, long out_base, __global const IN_ST *in,
           long in_base, __global const IN_ST *w, long w_base BIAS_ARGS)
{
    __local float patch[LPATCH];
    __local float filt[LFILT];
    const long cin_g = T(DMLI_CONV_CIN_G), cout_g = T(DMLI_CONV_COUT_G);
    const long kd_n = T(DMLI_CONV_K(0)), kh_n = T(DMLI_CONV_K(1)), kw_n = T(DMLI_CONV_K(2));
    const long s_w = T(DMLI_CONV_S(2)), dil_w = T(DMLI_CONV_DIL(2));
    const long lx = get_local_id(0), ly = get_local_id(1), lid = ly * LX + lx;
    const long ow0 = (long)get_group_id(0) * (LX * VW);
    const long co_tiles = T(DMLI_CONV_CO_BLOCKS), cg = get_group_id(1);
    const long g = cg / co_tiles, co0 = cg % co_tiles * (LY * COB);
    long z = get_global_id(2);
    const long oh = z % T(DMLI_CONV_OUT(1));
    z /= T(DMLI_CONV_OUT(1));
    const long od = z % T(DMLI_CONV_OUT(0)), n = z / T(DMLI_CONV_OUT(0));
    const long rows = kd_n * kh_n, kvol = rows * kw_n;
    const long len = (LX * VW - 1) * s_w + (kw_n - 1) * dil_w + 1; /* a patch row */
    const long cic = T(DMLI_CONV_CIC); /* input channels a chunk stages */
    const long in_g = in_base + n * T(DMLI_CONV_IS_N) + g * cin_g * T(DMLI_CONV_IS_C);
    const long w_g = w_base + g * T(DMLI_CONV_WS_G);

    float acc[COB][VW];
#pragma unroll
    for (int c = 0; c < COB; ++c)
#pragma unroll
        for (int j = 0; j < VW; ++j)
            acc[c][j] = 0.0f;

    /* The staging loops' and the inner loop's indices in 32 bits (they count within the local
     * arrays): a GPU divides and multiplies 64-bit integers in software, and these loops
     * divided per element staged (the first H200 run, 2026-11-28: conv-3x3-14 at 0.18 of
     * PyTorch's speed). */
    const uint ulen = (uint)len, urows = (uint)rows, ukvol = (uint)kvol, ukw = (uint)kw_n,
               ukh = (uint)kh_n;
    for (long ci0 = 0; ci0 < cin_g; ci0 += cic) {
        const uint cn = (uint)min(cic, cin_g - ci0);
        /* SB values an item loaded before it stores the first to local memory (a GPU waits at
         * a load's first use: stored as loaded, an item had one load in flight). */
        const uint pn = cn * urows * ulen, fn = LY * COB * cn * ukvol;
        for (uint e0 = (uint)lid; e0 < pn; e0 += SB * LX * LY) {
            float v[SB];
#pragma unroll
            for (int b = 0; b < SB; ++b) {
                const uint e = e0 + (uint)b * (LX * LY);
                const uint q = e / ulen, x = e - q * ulen, c = q / urows, rr = q - c * urows;
                const uint rd = rr / ukh, rh = rr - rd * ukh;
                const long id = in_coord(od, rd, T(DMLI_CONV_S(0)), T(DMLI_CONV_DIL(0)),
                                         T(DMLI_CONV_PAD(0)), T(DMLI_CONV_IN(0)));
                const long ih = in_coord(oh, rh, T(DMLI_CONV_S(1)), T(DMLI_CONV_DIL(1)),
                                         T(DMLI_CONV_PAD(1)), T(DMLI_CONV_IN(1)));
                const long iw = ow0 * s_w + x - T(DMLI_CONV_PAD(2));
                v[b] = 0.0f;
                if (e < pn && id >= 0 && ih >= 0 && iw >= 0 && iw < T(DMLI_CONV_IN(2)))
                    v[b] =
                        LOADIN(in, in_g + (ci0 + c) * T(DMLI_CONV_IS_C) + id * T(DMLI_CONV_IS(0)) +
                                       ih * T(DMLI_CONV_IS(1)) + iw * T(DMLI_CONV_IS(2)));
            }
            STAGE_STORE(patch, e0, pn, v);
        }
        for (uint e0 = (uint)lid; e0 < fn; e0 += SB * LX * LY) {
            float v[SB];
#pragma unroll
            for (int b = 0; b < SB; ++b) {
                const uint e = e0 + (uint)b * (LX * LY);
                const uint q = e / ukvol, k = e - q * ukvol, co = q / cn, c = q - co * cn;
                const uint kq = k / ukw, kw = k - kq * ukw, kd = kq / ukh, kh = kq - kd * ukh;
                v[b] = 0.0f;
                if (e < fn)
                    v[b] = LOADIN(w, w_g + min(co0 + co, cout_g - 1) * T(DMLI_CONV_WS_CO) +
                                         (ci0 + c) * T(DMLI_CONV_WS_CI) + kd * T(DMLI_CONV_WS(0)) +
                                         kh * T(DMLI_CONV_WS(1)) + kw * T(DMLI_CONV_WS(2)));
            }
            STAGE_STORE(filt, e0, fn, v);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int fstride = (int)(cn * ukvol), sw = (int)s_w, dw = (int)dil_w, ilx = (int)lx,
                  ily = (int)ly;
        for (int c = 0; c < (int)cn; ++c)
            for (int rr = 0; rr < (int)urows; ++rr) {
                __local const float *prow = patch + (c * (int)urows + rr) * (int)ulen;
                __local const float *frow = filt + c * (int)ukvol + rr * (int)ukw;
                for (int kw = 0; kw < (int)ukw; ++kw) {
                    float xv[VW];
#pragma unroll
                    for (int j = 0; j < VW; ++j)
                        xv[j] = prow[(ilx + LX * j) * sw + kw * dw];
#pragma unroll
                    for (int k = 0; k < COB; ++k) {
                        const float wv = frow[(ily + LY * k) * fstride + kw];
#pragma unroll
                        for (int j = 0; j < VW; ++j)
                            acc[k][j] = fma(wv, xv[j], acc[k][j]);
                    }
                }
            }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const long out_w = T(DMLI_CONV_OUT(2));
#pragma unroll
    for (int k = 0; k < COB; ++k) {
        const long col = co0 + ly + LY * k;
        if (col >= cout_g)
            continue;
        const long co = g * cout_g + col;
        const float b = BIAS_OF(co);
        const long o = out_base + n * T(DMLI_CONV_OS_N) + co * T(DMLI_CONV_OS_C) +
                       od * T(DMLI_CONV_OS(0)) + oh * T(DMLI_CONV_OS(1));
#pragma unroll
        for (int j = 0; j < VW; ++j) {
            const long ow = ow0 + lx + LX * j;
            if (ow < out_w)
                store_one(out, o + ow * T(DMLI_CONV_OS(2)), acc[k][j] + b, table);
        }
    }
}

#endif /* TILED */

#if IGEMM

/*
 * conv_gemm: a convolution as each group's product of its filter, [Cout/G, K] with K = Cin/G x
 * taps (k = input channel x taps + tap, taps in D, H, W order), and its input's windows, [K,
 * positions] (every image's D x H x W outputs in order), neither materialised: cl/tile.cl's tile
 * (the work-group's slabs in local memory, an item's block of output channels x positions in
 * registers, one barrier a step), each output summed in the order of k (input channels, then
 * taps), then + bias and the activation.
 *
 * BACKWARD runs by phases, as conv_chan does: the outputs o = r + S * j of one phase r of the
 * strides (per dimension) take the same taps, those with r + PAD - k * DIL a multiple of S, and
 * read input j + (r + PAD - k * DIL) / S through each: a FORWARD-like product over the phase's
 * taps and its grid of positions j, a work-group's phase along grid dimension 2 with its group.
 *
 * The work-group first tabulates its taps in local memory (BACKWARD: its phase's, in order): a
 * tap's coordinates' offsets from a window's origin (FORWARD k * DIL - PAD, BACKWARD the
 * quotient above), its offset in the input and in the filter. A staged filter value is then the
 * filter's group and channel row plus the input channel's and the tap's offsets; a window value
 * the position's origin in the input (FORWARD o * S, BACKWARD j) plus the same, or 0 where the
 * tap's coordinates fall outside the input (padding). Each slot (a value an item stages a step)
 * keeps its k as (input channel, tap), advanced by TK a step. The filter is staged along k where
 * its output-channel stride is not 1 (a warp reads TK consecutive taps of 32 / TK channels),
 * the windows along the positions (consecutive outputs of a row: consecutive inputs at stride
 * 1).
 *
 * The host checks that every coordinate and offset below fits an int where it is one.
 */
typedef struct {
    long at;     /* the slot's row (filter) or window origin (input), k aside */
    int slab;    /* index in one slab */
    int ci, t;   /* the slot's k this step: input channel, tap */
    bool live;   /* a value of the product (its channel or position exists) */
    bool mine;   /* a slot of the slab at all */
    int z, y, x; /* windows: the origin's input coordinates */
} cslot;

/* Advances a slot's k by TK: its tap, then its input channel where the taps wrap. */
#define CSLOT_STEP(s, taps)       \
    do {                          \
        (s).t += TK;              \
        while ((s).t >= (taps)) { \
            (s).t -= (taps);      \
            ++(s).ci;             \
        }                         \
    } while (0)

/* The position p's image and grid coordinates; in 32 bits where everything fits (a GPU
 * divides 64-bit integers in software: some 70 instructions a division). */
static void position_of(long p, long gd, long gh, long gw, long *img, long *d, long *h, long *w)
{
    if (p <= (long)UINT_MAX && gd <= (long)UINT_MAX && gh <= (long)UINT_MAX &&
        gw <= (long)UINT_MAX) {
        uint q = (uint)p;
        *w = q % (uint)gw;
        q /= (uint)gw;
        *h = q % (uint)gh;
        q /= (uint)gh;
        *d = q % (uint)gd;
        *img = q / (uint)gd;
        return;
    }
    *w = p % gw;
    p /= gw;
    *h = p % gh;
    p /= gh;
    *d = p % gd;
    *img = p / gd;
}

/* act(v) of a value before the activation, as store_one stores it. */
static float activated(float v, __constant long *table)
{
    const float g0 = as_float((uint)T(DMLI_CONV_ACT(0)));
    const float g1 = as_float((uint)T(DMLI_CONV_ACT(1)));
    const float g2 = as_float((uint)T(DMLI_CONV_ACT(2)));
    (void)g0, (void)g1, (void)g2;
    return ACTIVATE(v);
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
conv_gemm(__constant long *table, __global OUT_ST *out, long out_base, __global const IN_ST *in,
          long in_base, __global const IN_ST *w, long w_base BIAS_ARGS TILE_SPLIT_ARGS)
{
    __local float4 as4[2 * TK * AS_W / 4];
    __local float4 bs4[2 * TK * BS_W / 4];
    __local float *as = (__local float *)as4, *bs = (__local float *)bs4;
    __local long tap_in[TAPS], tap_w[TAPS];
    __local int4 tap_at[TAPS];
    __local int tap_count;
#if BACKWARD
    __local int tap_ok[TAPS]; /* whether each tap reaches the work-group's phase */
#endif
    const long cin_g = T(DMLI_CONV_CIN_G), cout_g = T(DMLI_CONV_COUT_G);
    const long kd_n = T(DMLI_CONV_K(0)), kh_n = T(DMLI_CONV_K(1)), kw_n = T(DMLI_CONV_K(2));
    const int kvol = (int)(kd_n * kh_n * kw_n), icin = (int)cin_g;
    const long od_n = T(DMLI_CONV_OUT(0)), oh_n = T(DMLI_CONV_OUT(1)), ow_n = T(DMLI_CONV_OUT(2));
    const long sd = T(DMLI_CONV_S(0)), sh = T(DMLI_CONV_S(1)), sw = T(DMLI_CONV_S(2));
    const int in_d = (int)T(DMLI_CONV_IN(0)), in_h = (int)T(DMLI_CONV_IN(1)),
              in_w = (int)T(DMLI_CONV_IN(2));
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1), lid = ly * TX + lx;
    const long p0 = (long)get_group_id(0) * TN, co0 = (long)get_group_id(1) * TM;
    long gz, slice, zs; /* split-K (cl/tile.cl): the unsplit grid's group, the slice of k */
    TILE_SPLIT_Z(T(DMLI_CONV_SPLITS), gz, slice, zs);
#if BACKWARD
    /* The work-group's group and phase (rd, rh, rw): outputs rd + sd * j along D, and so on;
     * its grid of positions j, as many as the phase has outputs. */
    const long phases = sd * sh * sw;
    const long g = gz / phases, ph = gz % phases;
    const long rw = ph % sw, rh = ph / sw % sh, rd = ph / sw / sh;
    const long gd_n = (od_n - rd + sd - 1) / sd, gh_n = (oh_n - rh + sh - 1) / sh,
               gw_n = (ow_n - rw + sw - 1) / sw;
#else
    const long g = gz;
    const long gd_n = od_n, gh_n = oh_n, gw_n = ow_n;
#endif
    const long positions = T(DMLI_CONV_N) * gd_n * gh_n * gw_n;
    const long in_g = in_base + g * cin_g * T(DMLI_CONV_IS_C);
    const long w_g = w_base + g * T(DMLI_CONV_WS_G);
    const long is_c = T(DMLI_CONV_IS_C), ws_ci = T(DMLI_CONV_WS_CI);

    float4 acc[WM][RN];
#if SPLIT == 2
    /* The slices' sums (no product: no taps, no staging). */
    TILE_PART_SUM(part, part_base, T(DMLI_CONV_SPLITS), zs, gz, lid, acc);
    (void)in_g, (void)w_g, (void)is_c, (void)ws_ci, (void)slice;
#else
    /* The taps, in D, H, W order (BACKWARD: the phase's own, in order: each item marks its
     * taps that reach the phase, then writes each at the count of marks before it), an item a
     * tap, in 32 bits (the host checks the coordinates fit an int). */
    const int ikw = (int)kw_n, ikh = (int)kh_n;
#if BACKWARD
    const int isd = (int)sd, ish = (int)sh, isw = (int)sw;
    const int td0 = (int)(rd + T(DMLI_CONV_PAD(0))), th0 = (int)(rh + T(DMLI_CONV_PAD(1))),
              tw0 = (int)(rw + T(DMLI_CONV_PAD(2)));
    const int dil_d = (int)T(DMLI_CONV_DIL(0)), dil_h = (int)T(DMLI_CONV_DIL(1)),
              dil_w = (int)T(DMLI_CONV_DIL(2));
    for (int e = lid; e < kvol; e += ITEMS) {
        const int kw = e % ikw, q = e / ikw, kh = q % ikh, kd = q / ikh;
        tap_ok[e] = (td0 - kd * dil_d) % isd == 0 && (th0 - kh * dil_h) % ish == 0 &&
                    (tw0 - kw * dil_w) % isw == 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = lid; e < kvol; e += ITEMS) {
        if (!tap_ok[e])
            continue;
        int n = 0;
        for (int f = 0; f < e; ++f)
            n += tap_ok[f];
        const int kw = e % ikw, q = e / ikw, kh = q % ikh, kd = q / ikh;
        const int4 at =
            (int4)((td0 - kd * dil_d) / isd, (th0 - kh * dil_h) / ish, (tw0 - kw * dil_w) / isw, 0);
        tap_at[n] = at;
        tap_in[n] =
            at.x * T(DMLI_CONV_IS(0)) + at.y * T(DMLI_CONV_IS(1)) + at.z * T(DMLI_CONV_IS(2));
        tap_w[n] = kd * T(DMLI_CONV_WS(0)) + kh * T(DMLI_CONV_WS(1)) + kw * T(DMLI_CONV_WS(2));
    }
    if (lid == 0) {
        int n = 0;
        for (int f = 0; f < kvol; ++f)
            n += tap_ok[f];
        tap_count = n;
    }
#else
    for (int e = lid; e < kvol; e += ITEMS) {
        const int kw = e % ikw, q = e / ikw, kh = q % ikh, kd = q / ikh;
        const int4 at = (int4)((int)(kd * T(DMLI_CONV_DIL(0)) - T(DMLI_CONV_PAD(0))),
                               (int)(kh * T(DMLI_CONV_DIL(1)) - T(DMLI_CONV_PAD(1))),
                               (int)(kw * T(DMLI_CONV_DIL(2)) - T(DMLI_CONV_PAD(2))), 0);
        tap_at[e] = at;
        tap_in[e] =
            at.x * T(DMLI_CONV_IS(0)) + at.y * T(DMLI_CONV_IS(1)) + at.z * T(DMLI_CONV_IS(2));
        tap_w[e] = kd * T(DMLI_CONV_WS(0)) + kh * T(DMLI_CONV_WS(1)) + kw * T(DMLI_CONV_WS(2));
    }
    if (lid == 0)
        tap_count = kvol;
#endif
    barrier(CLK_LOCAL_MEM_FENCE); /* the taps */
    const int taps = tap_count;
    /* No tap (a BACKWARD phase no tap reaches): K 0, every output its bias; no slot reads. */
    const int step_taps = taps > 0 ? taps : 1;
    const long K = cin_g * taps;

    /* The slice of k this work-group sums: [kb, ke) (all of k unsplit; a BACKWARD phase's k
     * may end before a slice begins: no step then, every value 0). */
    const long kb = SPLIT == 1 ? slice * T(DMLI_CONV_SPLIT_K) : 0;
    const long ke = SPLIT == 1 ? min(K, kb + T(DMLI_CONV_SPLIT_K)) : K;
    /* The filter's slots along its output channels where they run by unit stride, else
     * along k; the windows' along the positions. */
    const bool a_along_m = T(DMLI_CONV_WS_CO) == 1;
    cslot sa[A_SLOTS], sb[B_SLOTS];
#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r) {
        const int e = lid + ITEMS * r;
        const int kk = a_along_m ? e / TM : TILE_K_OF(e, TM),
                  mm = a_along_m ? e % TM : TILE_MN_OF(e, TM);
        sa[r].mine = e < TK * TM;
        sa[r].live = sa[r].mine && taps > 0 && co0 + mm < cout_g;
        sa[r].slab = kk * AS_W + mm;
        sa[r].ci = (int)((kb + kk) / step_taps);
        sa[r].t = (int)((kb + kk) % step_taps);
        sa[r].at = w_g + (sa[r].live ? (co0 + mm) * T(DMLI_CONV_WS_CO) : 0);
        sa[r].z = sa[r].y = sa[r].x = 0;
    }
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r) {
        const int e = lid + ITEMS * r;
        const int kk = e / TN, nn = e % TN;
        sb[r].mine = e < TK * TN;
        sb[r].live = sb[r].mine && taps > 0 && p0 + nn < positions;
        sb[r].slab = kk * BS_W + nn;
        sb[r].ci = (int)((kb + kk) / step_taps);
        sb[r].t = (int)((kb + kk) % step_taps);
        long img = 0, jd = 0, jh = 0, jw = 0;
        if (sb[r].live)
            position_of(p0 + nn, gd_n, gh_n, gw_n, &img, &jd, &jh, &jw);
#if BACKWARD
        sb[r].z = (int)jd;
        sb[r].y = (int)jh;
        sb[r].x = (int)jw;
#else
        sb[r].z = (int)(jd * sd);
        sb[r].y = (int)(jh * sh);
        sb[r].x = (int)(jw * sw);
#endif
        sb[r].at = in_g + img * T(DMLI_CONV_IS_N) + sb[r].z * T(DMLI_CONV_IS(0)) +
                   sb[r].y * T(DMLI_CONV_IS(1)) + sb[r].x * T(DMLI_CONV_IS(2));
    }

    TILE_ZERO(acc);
    float ra[A_SLOTS], rb[B_SLOTS];

/* A slot's value this step: 0 past the product (a channel or position that does not exist, k
 * past K) and, for a window, where the tap falls outside the input. */
#define A_VALUE(s) \
    ((s).live && (s).ci < icin ? LOADIN(w, (s).at + (s).ci * ws_ci + tap_w[(s).t]) : 0.0f)
#define B_VALUE(s, at_)                                                                   \
    ((s).live && (s).ci < icin && (uint)((s).z + (at_).x) < (uint)in_d &&                 \
             (uint)((s).y + (at_).y) < (uint)in_h && (uint)((s).x + (at_).z) < (uint)in_w \
         ? LOADIN(in, (s).at + (s).ci * is_c + tap_in[(s).t])                             \
         : 0.0f)

#pragma unroll
    for (int r = 0; r < A_SLOTS; ++r) {
        ra[r] = A_VALUE(sa[r]);
        if (sa[r].mine)
            as[sa[r].slab] = ra[r];
    }
#pragma unroll
    for (int r = 0; r < B_SLOTS; ++r) {
        const int4 at = tap_at[sb[r].t];
        rb[r] = B_VALUE(sb[r], at);
        if (sb[r].mine)
            bs[sb[r].slab] = rb[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    int cur = 0;
    for (long k0 = kb; k0 < ke; k0 += TK) {
        const bool more = k0 + TK < ke;
        if (more) {
#pragma unroll
            for (int r = 0; r < A_SLOTS; ++r) {
                CSLOT_STEP(sa[r], step_taps);
                ra[r] = A_VALUE(sa[r]);
            }
#pragma unroll
            for (int r = 0; r < B_SLOTS; ++r) {
                CSLOT_STEP(sb[r], step_taps);
                const int4 at = tap_at[sb[r].t];
                rb[r] = B_VALUE(sb[r], at);
            }
        }
        TILE_MULTIPLY(as4, bs4, cur, lx, ly, acc);
        if (more)
            TILE_STAGE_NEXT(as, bs, cur, sa, ra, sb, rb);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef A_VALUE
#undef B_VALUE
#if SPLIT == 1
    TILE_PART_STORE(part, part_base, slice, zs, gz, lid, acc);
    return;
#endif
#endif /* SPLIT == 2 */

    /* The block's columns (positions): where each output is and whether a group of 4 is four
     * consecutive floats of one output row (FORWARD: consecutive positions of a row with the
     * output's W stride 1; BACKWARD a phase's outputs are S apart: stride 1 only). */
    const long os_n = T(DMLI_CONV_OS_N), os_d = T(DMLI_CONV_OS(0)), os_h = T(DMLI_CONV_OS(1)),
               os_w = T(DMLI_CONV_OS(2));
#if BACKWARD
    const long step_d = sd * os_d, step_h = sh * os_h, step_w = sw * os_w;
    const long origin = rd * os_d + rh * os_h + rw * os_w;
#else
    const long step_d = os_d, step_h = os_h, step_w = os_w, origin = 0;
#endif
    long col_at[WN];
    bool col_live[WN], row_of_4[RN];
#pragma unroll
    for (int h = 0; h < RN; ++h) {
        const long p = p0 + TILE_COL(lx, h);
        long img = 0, jd = 0, jh = 0, jw = 0;
        if (p < positions)
            position_of(p, gd_n, gh_n, gw_n, &img, &jd, &jh, &jw);
        row_of_4[h] = p + 3 < positions && jw + 3 < gw_n && step_w == 1;
#pragma unroll
        for (int x = 0; x < 4; ++x) {
            col_live[4 * h + x] = p + x < positions;
            col_at[4 * h + x] = origin + img * os_n + jd * step_d + jh * step_h + jw * step_w;
            /* The next position: along W, then carried into H, D and the image. */
            if (++jw == gw_n) {
                jw = 0;
                if (++jh == gh_n) {
                    jh = 0;
                    if (++jd == gd_n) {
                        jd = 0;
                        ++img;
                    }
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < WM; ++i) {
        const long col = co0 + TILE_ROW(ly, i);
        if (col >= cout_g)
            continue;
        const long co = g * cout_g + col;
        const float b = BIAS_OF(co);
        const long o = out_base + co * T(DMLI_CONV_OS_C);
#pragma unroll
        for (int h = 0; h < RN; ++h) {
            const float4 v = acc[i][h];
            const float sum[4] = {v.s0, v.s1, v.s2, v.s3};
#if !OUT_HALF
            if (row_of_4[h]) {
                vstore4((float4)(activated(sum[0] + b, table), activated(sum[1] + b, table),
                                 activated(sum[2] + b, table), activated(sum[3] + b, table)),
                        0, out + o + col_at[4 * h]);
                continue;
            }
#endif
#pragma unroll
            for (int x = 0; x < 4; ++x)
                if (col_live[4 * h + x])
                    store_one(out, o + col_at[4 * h + x], sum[x] + b, table);
        }
    }
}

#endif /* IGEMM */
