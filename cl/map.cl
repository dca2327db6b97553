/* SPDX-License-Identifier: MIT */
/*
 * The map family: out[o] = f(in_0[view_0(o)], ..., in_{NIN-1}[view_{NIN-1}(o)]), every tensor
 * read and written through its own strides (0 broadcasts, negative reverses), values converted
 * to COMPUTE_T, f applied, the result converted to the output's type. The host
 * (src/launch_map.c) normalises the map (src/map.c) and fills the table (cl/abi.h DMLI_MAP_*).
 *
 * Grid: dimension 1 the run's chunks, dimension 2 the rows (ROWS_PER_ITEM each); a work-item
 * walks its chunk of each of its rows. Macros (defaults build a valid program):
 *   NIN           inputs, 0..8 (DMLI_MAP_INPUTS; 0: a fill, F of the parameters and of the
 *                 element's flat index r * run + u)
 *   OP            the operation f (src/internal.h dmli_map_op: 0 identity, 1 add, ...)
 *   SCALE_BIAS    1: input 0 is fma(x0, s0, s1) before f (DML_SCALE_BIAS)
 *   ACT           the activation applied to f's result (src/internal.h dmli_act; 0 none)
 *   COMPUTE_T     float or double (COMPUTE_DOUBLE 1 enables cl_khr_fp64); long or ulong for
 *                 integers (INT_COMPUTE 1; SIGNED_COMPUTE 1 for long), stored through the
 *                 output's unsigned type of its width (two's complement wrap)
 *   OUT_T, INk_T  storage types; OUT_HALF / INk_HALF 1: FLOAT16 stored as ushort, converted
 *                 with vload_half / vstore_half_rte (round to nearest even, once, from double
 *                 where the compute is double); OUT_SAT 1: a float compute stored to an integer
 *                 output, converted toward zero and saturated (NaN 0)
 *   FAST          1: every run stride is 1 (compile-time constants: loops vectorise)
 *   OUT_RS, INk_RS  the output's / input k's run stride when the host knows it is 0 or 1
 *                 (a broadcast or contiguous run), as a compile-time constant
 *   GRID1         1 (GPUs): a one-dimensional grid, a work-group per chunk of a row, its items
 *                 a group's width apart (src/launch_map.c geometry)
 *   GB            GPUs, no gather: an item's elements (up to GB) loaded, every input's, before
 *                 the first is computed and stored (1: element by element)
 *   GVEC          GPUs, FAST and no gather: an item's GVEC consecutive elements loaded and
 *                 stored as one vector of each tensor (16 bytes of the widest type) where the
 *                 rows are aligned to it; 1: none
 *   GATHER, GIDX  graphs: input GATHER read through the indices input GIDX holds (no operand;
 *                 GIDX_SIGNED its type's sign, GWRAP negative values from the axis's end, GZERO
 *                 0 outside the axis, else clamped; GIDX_ROW one index per row, resolved once;
 *                 the axis in the table: DMLI_MAP_GATHER_N/S)
 *   VW            CPUs, a float compute: the element loop vectorised VW lanes wide (a hint;
 *                 src/launch_map.c: twice the device's native float width)
 *   TILE, TK      CPUs: input TK read across the run (a layout change) in tiles of TILE rows
 *                 along the next outer dimension x TILE_RUN run positions, transposed in
 *                 registers (tile_block); TD<k> input k's stride along that dimension when 0 or
 *                 1; TILE_PF tiles ahead whose TK lines are prefetched
 *   STREAM        CPUs, the output's run stride 1 (common.cl): non-temporal stores of whole
 *                 64-byte lines, blocks of MAP_BLOCK_UNITS elements computed into private
 *                 memory first (src/launch_map.c: memory-bound maps past a quarter of the cache)
 */
#include "abi.h"
#include "common.cl"

/* Every operation rounds as written, never fused by the compiler, so each device gives one
 * result; ScaleBias's x * Scale + Bias is an explicit fma (rounded once: within half an ulp of
 * the exact value even where the sum cancels, which a product and a sum rounded apart are not). */
#pragma OPENCL FP_CONTRACT OFF

#ifndef NIN
#define NIN 1
#endif
#ifndef OP
#define OP 0
#endif
#ifndef COMPUTE_T
#define COMPUTE_T float
#endif
#ifndef COMPUTE_DOUBLE
#define COMPUTE_DOUBLE 0
#endif
#if COMPUTE_DOUBLE && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef OUT_T
#define OUT_T float
#endif
#ifndef OUT_HALF
#define OUT_HALF 0
#endif
#ifndef GRID1
#define GRID1 0
#endif
/* A loop hint with a macro's value in it: DMLI_VECTORIZE(VW). PoCL's first compile, which
 * does not vectorise, warns that the hint went unused; its compile at launch applies it. */
#define DMLI_PRAGMA(x) _Pragma(#x)
#define DMLI_VECTORIZE(w) DMLI_PRAGMA(clang loop vectorize_width(w))
#if defined(VW) && defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#ifndef FAST
#define FAST 0
#endif
#ifndef ACT
#define ACT 0
#endif
#if FAST
#define RUN_STRIDE(slot) 1L
#else
#define RUN_STRIDE(slot) t[(slot)]
#endif
#ifdef OUT_RS
#define OS_VALUE ((long)OUT_RS)
#else
#define OS_VALUE RUN_STRIDE(DMLI_MAP_RUN_OS)
#endif
#ifdef IN0_RS
#define IS0_VALUE ((long)IN0_RS)
#else
#define IS0_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(0))
#endif
#ifdef IN1_RS
#define IS1_VALUE ((long)IN1_RS)
#else
#define IS1_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(1))
#endif
#ifdef IN2_RS
#define IS2_VALUE ((long)IN2_RS)
#else
#define IS2_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(2))
#endif
#ifdef IN3_RS
#define IS3_VALUE ((long)IN3_RS)
#else
#define IS3_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(3))
#endif
#ifdef IN4_RS
#define IS4_VALUE ((long)IN4_RS)
#else
#define IS4_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(4))
#endif
#ifdef IN5_RS
#define IS5_VALUE ((long)IN5_RS)
#else
#define IS5_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(5))
#endif
#ifdef IN6_RS
#define IS6_VALUE ((long)IN6_RS)
#else
#define IS6_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(6))
#endif
#ifdef IN7_RS
#define IS7_VALUE ((long)IN7_RS)
#else
#define IS7_VALUE RUN_STRIDE(DMLI_MAP_RUN_IS(7))
#endif

#if NIN > 0
#ifndef IN0_T
#define IN0_T float
#endif
#if IN0_HALF
#define LOAD0_G(i) vload_half((i), (__global const half *)in0)
#else
#define LOAD0_G(i) ((COMPUTE_T)in0[(i)])
#endif
#endif
#if NIN > 1
#ifndef IN1_T
#define IN1_T float
#endif
#if IN1_HALF
#define LOAD1_G(i) vload_half((i), (__global const half *)in1)
#else
#define LOAD1_G(i) ((COMPUTE_T)in1[(i)])
#endif
#endif
#if NIN > 2
#ifndef IN2_T
#define IN2_T float
#endif
#if IN2_HALF
#define LOAD2_G(i) vload_half((i), (__global const half *)in2)
#else
#define LOAD2_G(i) ((COMPUTE_T)in2[(i)])
#endif
#endif
#if NIN > 3
#ifndef IN3_T
#define IN3_T float
#endif
#if IN3_HALF
#define LOAD3_G(i) vload_half((i), (__global const half *)in3)
#else
#define LOAD3_G(i) ((COMPUTE_T)in3[(i)])
#endif
#endif
#if NIN > 4
#ifndef IN4_T
#define IN4_T float
#endif
#if IN4_HALF
#define LOAD4_G(i) vload_half((i), (__global const half *)in4)
#else
#define LOAD4_G(i) ((COMPUTE_T)in4[(i)])
#endif
#endif
#if NIN > 5
#ifndef IN5_T
#define IN5_T float
#endif
#if IN5_HALF
#define LOAD5_G(i) vload_half((i), (__global const half *)in5)
#else
#define LOAD5_G(i) ((COMPUTE_T)in5[(i)])
#endif
#endif
#if NIN > 6
#ifndef IN6_T
#define IN6_T float
#endif
#if IN6_HALF
#define LOAD6_G(i) vload_half((i), (__global const half *)in6)
#else
#define LOAD6_G(i) ((COMPUTE_T)in6[(i)])
#endif
#endif
#if NIN > 7
#ifndef IN7_T
#define IN7_T float
#endif
#if IN7_HALF
#define LOAD7_G(i) vload_half((i), (__global const half *)in7)
#else
#define LOAD7_G(i) ((COMPUTE_T)in7[(i)])
#endif
#endif

/* LOAD<k>(i): input k's element i as COMPUTE_T, from global memory (LOAD<k>_G), or, inside
 * GVEC's vector loop (LSRC V), from the lanes the item loaded at run position gv_at. */
#ifndef GVEC
#define GVEC 1
#endif
#define LSRC G
#define LOAD0(i) DMLI_CAT(LOAD0_, LSRC)(i)
#define LOAD1(i) DMLI_CAT(LOAD1_, LSRC)(i)
#define LOAD2(i) DMLI_CAT(LOAD2_, LSRC)(i)
#define LOAD3(i) DMLI_CAT(LOAD3_, LSRC)(i)
#define LOAD4(i) DMLI_CAT(LOAD4_, LSRC)(i)
#define LOAD5(i) DMLI_CAT(LOAD5_, LSRC)(i)
#define LOAD6(i) DMLI_CAT(LOAD6_, LSRC)(i)
#define LOAD7(i) DMLI_CAT(LOAD7_, LSRC)(i)
#if GVEC > 1
#define GV_LANE(k, e) DMLI_CAT(gv, k).a[(e)-DMLI_CAT(i, k) - gv_at]
#define GV_HALF(k, e) vload_half(0, (__private const half *)&GV_LANE(k, e))
#if IN0_HALF
#define LOAD0_V(i) GV_HALF(0, i)
#else
#define LOAD0_V(i) ((COMPUTE_T)GV_LANE(0, i))
#endif
#if IN1_HALF
#define LOAD1_V(i) GV_HALF(1, i)
#else
#define LOAD1_V(i) ((COMPUTE_T)GV_LANE(1, i))
#endif
#if IN2_HALF
#define LOAD2_V(i) GV_HALF(2, i)
#else
#define LOAD2_V(i) ((COMPUTE_T)GV_LANE(2, i))
#endif
#if IN3_HALF
#define LOAD3_V(i) GV_HALF(3, i)
#else
#define LOAD3_V(i) ((COMPUTE_T)GV_LANE(3, i))
#endif
#if IN4_HALF
#define LOAD4_V(i) GV_HALF(4, i)
#else
#define LOAD4_V(i) ((COMPUTE_T)GV_LANE(4, i))
#endif
#if IN5_HALF
#define LOAD5_V(i) GV_HALF(5, i)
#else
#define LOAD5_V(i) ((COMPUTE_T)GV_LANE(5, i))
#endif
#if IN6_HALF
#define LOAD6_V(i) GV_HALF(6, i)
#else
#define LOAD6_V(i) ((COMPUTE_T)GV_LANE(6, i))
#endif
#if IN7_HALF
#define LOAD7_V(i) GV_HALF(7, i)
#else
#define LOAD7_V(i) ((COMPUTE_T)GV_LANE(7, i))
#endif
/* Input k's GVEC lanes at run position `at` of its row (ik: the row's offset), one vector load
 * (the address aligned to the vector: checked before the loop), and whether p is so aligned. */
#define GV_DECL(k, at)                                                                       \
    union {                                                                                  \
        DMLI_CAT(DMLI_CAT(IN, k), _VT) v;                                                    \
        DMLI_CAT(DMLI_CAT(IN, k), _T) a[GVEC];                                               \
    } DMLI_CAT(gv, k);                                                                       \
    DMLI_CAT(gv, k).v = *(__global const DMLI_CAT(DMLI_CAT(IN, k), _VT) *)(DMLI_CAT(in, k) + \
                                                                           DMLI_CAT(i, k) + (at))
/* The vector types, pasted by a macro of their own (they expand inside DMLI_CAT's). */
#define GV_CAT_(a, b) a##b
#define GV_CAT(a, b) GV_CAT_(a, b)
#define GV_ALIGNED(p, T) (((ulong)(p)) % (GVEC * sizeof(T)) == 0)
#define IN0_VT GV_CAT(IN0_T, GVEC)
#define IN1_VT GV_CAT(IN1_T, GVEC)
#define IN2_VT GV_CAT(IN2_T, GVEC)
#define IN3_VT GV_CAT(IN3_T, GVEC)
#define IN4_VT GV_CAT(IN4_T, GVEC)
#define IN5_VT GV_CAT(IN5_T, GVEC)
#define IN6_VT GV_CAT(IN6_T, GVEC)
#define IN7_VT GV_CAT(IN7_T, GVEC)
#define OUT_VT GV_CAT(OUT_T, GVEC)
/* The item's GVEC results as one vector value, built lane by lane (a union's vector member,
 * written a lane at a time, was stored lane by lane: the GPU memory model put sigmoid's
 * stores at 0.40 of their sectors and uint8's at 0.12). */
#define GV_L4(a, i) (a)[(i)], (a)[(i) + 1], (a)[(i) + 2], (a)[(i) + 3]
#define GV_MAKE_2(a) ((OUT_VT)((a)[0], (a)[1]))
#define GV_MAKE_4(a) ((OUT_VT)(GV_L4(a, 0)))
#define GV_MAKE_8(a) ((OUT_VT)(GV_L4(a, 0), GV_L4(a, 4)))
#define GV_MAKE_16(a) ((OUT_VT)(GV_L4(a, 0), GV_L4(a, 4), GV_L4(a, 8), GV_L4(a, 12)))
#define GV_MAKE(a) GV_CAT(GV_MAKE_, GVEC)(a)
#endif

#ifndef OUT_SAT
#define OUT_SAT 0
#endif
#define CONVERT_SAT_(type, v) convert_##type##_sat_rtz(v)
#define CONVERT_SAT(type, v) CONVERT_SAT_(type, v)
/* FLOAT16 encodings: the store of a FLOAT16 output, and DEQUANTIZE's integer compute, which
 * writes them itself (cl/map_math.cl). Outside any #if: embedded once (embed_kernels.cmake). */
#include "half.cl"
#if OUT_HALF
#define STORE(o, v) dmli_store_half((__global ushort *)out, (o), (COMPUTE_T)(v))
#define OUT_VALUE(v) dmli_half_value((COMPUTE_T)(v))
#elif OUT_SAT
/* A float to an integer type: toward zero, saturated, NaN 0 (Direct3D's ftoi and ftou; the
 * NaN test explicit, since OpenCL C only recommends 0 and Oclgrind gives the minimum). */
static void store_sat(__global OUT_T *out, long o, COMPUTE_T v)
{
    out[o] = isnan(v) ? (OUT_T)0 : CONVERT_SAT(OUT_T, v);
}
#define STORE(o, v) store_sat(out, (o), (COMPUTE_T)(v))
#define OUT_VALUE(v) (isnan((COMPUTE_T)(v)) ? (OUT_T)0 : CONVERT_SAT(OUT_T, (COMPUTE_T)(v)))
#else
#define STORE(o, v) (out[(o)] = (OUT_T)(v))
#define OUT_VALUE(v) ((OUT_T)(v))
#endif

/* STREAM (common.cl; CPUs, an output run of stride 1): blocks of MAP_BLOCK_UNITS elements
 * (whole 64-byte lines for every output type; 128: float 1.49x on add-bias, 256 1.43x; uchar
 * 1.13x on clip-i8, 256 0.99x). */
#ifndef MAP_BLOCK_UNITS
#define MAP_BLOCK_UNITS 128
#endif

#ifndef SCALE_BIAS
#define SCALE_BIAS 0
#endif
#ifndef INT_COMPUTE
#define INT_COMPUTE 0
#endif
#ifndef SIGNED_COMPUTE
#define SIGNED_COMPUTE 0
#endif

#if INT_COMPUTE
/* DIVIDE on integers: truncated toward zero; by zero, every bit set (as Direct3D's udiv:
 * -1 signed, the maximum unsigned); the most negative value by -1 wraps to itself. */
static COMPUTE_T divide(COMPUTE_T a, COMPUTE_T b)
{
    if (b == 0)
        return (COMPUTE_T)-1;
#if SIGNED_COMPUTE
    if (b == -1)
        return (COMPUTE_T)(0UL - (ulong)a);
#endif
    return a / b;
}
#else
/* MAX and MIN: a NaN operand gives the other one (Direct3D's rule); +0 is above -0. */
static COMPUTE_T maximum(COMPUTE_T a, COMPUTE_T b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a > b || (a == b && !signbit(a)) ? a : b;
}

static COMPUTE_T minimum(COMPUTE_T a, COMPUTE_T b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a < b || (a == b && signbit(a)) ? a : b;
}

/* MEAN: (a + b) / 2, halved apart where the sum alone overflows. */
static COMPUTE_T mean(COMPUTE_T a, COMPUTE_T b)
{
    COMPUTE_T s = a + b;
    if (isinf(s) && isfinite(a) && isfinite(b))
        return a * (COMPUTE_T)0.5 + b * (COMPUTE_T)0.5;
    return s * (COMPUTE_T)0.5;
}
#endif

/* Parameter i (cl/abi.h DMLI_MAP_PARAM) in the compute type; the kernel reads them once, as
 * s0, s1 (ScaleBias), q0 to q2 (the operation's) and g0 to g2 (the activation's). */
#if INT_COMPUTE
#define PARAM_AT(k) ((COMPUTE_T)t[(k)])
#elif COMPUTE_DOUBLE
#define PARAM_AT(k) as_double(t[(k)])
#else
#define PARAM_AT(k) as_float((uint)t[(k)])
#endif
#define PARAM(i) PARAM_AT(DMLI_MAP_PARAM(i))

/* f, an expression of x0 (x1, ...) and q0 to q2, by OP (src/internal.h dmli_map_op): each
 * range in its file, which defines F for its OPs only; 0-16 here. The activation of f's
 * result, ACTIVATE(y) of y and g0 to g2, is cl/activation.cl's. */
/* A chain (STAGES > 1; graphs fuse element-wise nodes into one map): stage 0 is OP with ACT
 * and SCALE_BIAS's ScaleBias on its operands, each stage s a list Ss of eight fields
 * "op,act,scale_bias,a0,a1,a2,a3,a4": its operation, activation, whether ScaleBias applies to
 * its operand a0, and its operands, each an input (x0 .. x7) or an earlier stage's result
 * (y0 .. y6); the last stage's result is stored. Stage s's parameters are the table's
 * DMLI_MAP_STAGE_PARAM(s, 0..7), as stage 0's: ScaleBias, the operation's, the activation's. A
 * chain loads its inputs as they are (ScaleBias applies in the stage), once each. */
#ifndef STAGES
#define STAGES 1
#endif
#ifndef S0
#define S0 OP, ACT, SCALE_BIAS, x0, x1, x2, x3, x4
#endif
#define DMLI_NO_STAGE -1, -1, 0, x0, x0, x0, x0, x0
#ifndef S1
#define S1 DMLI_NO_STAGE
#endif
#ifndef S2
#define S2 DMLI_NO_STAGE
#endif
#ifndef S3
#define S3 DMLI_NO_STAGE
#endif
#ifndef S4
#define S4 DMLI_NO_STAGE
#endif
#ifndef S5
#define S5 DMLI_NO_STAGE
#endif
#ifndef S6
#define S6 DMLI_NO_STAGE
#endif
#ifndef S7
#define S7 DMLI_NO_STAGE
#endif
#define DMLI_FIELD0_(op, act, sb, a0, a1, a2, a3, a4) op
#define DMLI_FIELD1_(op, act, sb, a0, a1, a2, a3, a4) act
/* A stage list's fields. The list is one parameter here, expanded before it is substituted, so
 * the inner call sees its eight fields: no variadic macro, which OpenCL C 1.2 does not have
 * (NVIDIA's compiler rejects them; clang accepts them as an extension). */
#define DMLI_STAGE_IN(lo, hi, list) (DMLI_FIELD0_(list) >= (lo) && DMLI_FIELD0_(list) <= (hi))
#define DMLI_STAGE_ACT(list) DMLI_FIELD1_(list)
#define OP_IN(lo, hi)                                                                        \
    ((OP >= (lo) && OP <= (hi)) || DMLI_STAGE_IN(lo, hi, S0) || DMLI_STAGE_IN(lo, hi, S1) || \
     DMLI_STAGE_IN(lo, hi, S2) || DMLI_STAGE_IN(lo, hi, S3) || DMLI_STAGE_IN(lo, hi, S4) ||  \
     DMLI_STAGE_IN(lo, hi, S5) || DMLI_STAGE_IN(lo, hi, S6) || DMLI_STAGE_IN(lo, hi, S7))
#define ACT_USED(n)                                                                         \
    (ACT == (n) || DMLI_STAGE_ACT(S0) == (n) || DMLI_STAGE_ACT(S1) == (n) ||                \
     DMLI_STAGE_ACT(S2) == (n) || DMLI_STAGE_ACT(S3) == (n) || DMLI_STAGE_ACT(S4) == (n) || \
     DMLI_STAGE_ACT(S5) == (n) || DMLI_STAGE_ACT(S6) == (n) || DMLI_STAGE_ACT(S7) == (n))

#include "activation.cl"
#include "map_logic.cl"
#include "map_math.cl"

#define DMLI_OP_0(x0, x1, x2, x3, x4, q0, q1, q2) x0
#define DMLI_OP_1(x0, x1, x2, x3, x4, q0, q1, q2) (x0 + x1)
#define DMLI_OP_2(x0, x1, x2, x3, x4, q0, q1, q2) (x0 - x1)
#define DMLI_OP_3(x0, x1, x2, x3, x4, q0, q1, q2) (x0 * x1)
#if INT_COMPUTE
#define DMLI_OP_4(x0, x1, x2, x3, x4, q0, q1, q2) divide(x0, x1)
#else
#define DMLI_OP_4(x0, x1, x2, x3, x4, q0, q1, q2) (x0 / x1)
#endif
#if INT_COMPUTE
#define DMLI_OP_5(x0, x1, x2, x3, x4, q0, q1, q2) (x0 > x1 ? x0 : x1)
#else
#define DMLI_OP_5(x0, x1, x2, x3, x4, q0, q1, q2) maximum(x0, x1)
#endif
#if INT_COMPUTE
#define DMLI_OP_6(x0, x1, x2, x3, x4, q0, q1, q2) (x0 < x1 ? x0 : x1)
#else
#define DMLI_OP_6(x0, x1, x2, x3, x4, q0, q1, q2) minimum(x0, x1)
#endif
#if INT_COMPUTE
#define DMLI_OP_7(x0, x1, x2, x3, x4, q0, q1, q2) ((x0 + x1) / 2)
#else
#define DMLI_OP_7(x0, x1, x2, x3, x4, q0, q1, q2) mean(x0, x1)
#endif
#define DMLI_OP_8(x0, x1, x2, x3, x4, q0, q1, q2) ((x0 - x1) * (x0 - x1))
#if INT_COMPUTE
#define DMLI_OP_9(x0, x1, x2, x3, x4, q0, q1, q2) ((COMPUTE_T)0 - x0)
#else
/* a sign flip: -(+0) is -0 */
#define DMLI_OP_9(x0, x1, x2, x3, x4, q0, q1, q2) (-x0)
#endif
#if !INT_COMPUTE
#define DMLI_OP_10(x0, x1, x2, x3, x4, q0, q1, q2) fabs(x0)
#elif SIGNED_COMPUTE
#define DMLI_OP_10(x0, x1, x2, x3, x4, q0, q1, q2) (x0 < 0 ? -x0 : x0)
#else /* INT64 in ulong: its sign bit */
#define DMLI_OP_10(x0, x1, x2, x3, x4, q0, q1, q2) ((x0 >> 63) ? (COMPUTE_T)0 - x0 : x0)
#endif
#define DMLI_OP_11(x0, x1, x2, x3, x4, q0, q1, q2) ceil(x0)
#define DMLI_OP_12(x0, x1, x2, x3, x4, q0, q1, q2) floor(x0)
/* sqrt(-0) is -0, of a negative NaN */
#define DMLI_OP_13(x0, x1, x2, x3, x4, q0, q1, q2) sqrt(x0)
/* 1 / +-0 is +-infinity */
#define DMLI_OP_14(x0, x1, x2, x3, x4, q0, q1, q2) ((COMPUTE_T)1 / x0)
/* float: cl/exp.cl's (within 2 ULPs; a CPU driver's built-in may be a scalar call) */
#if COMPUTE_DOUBLE || INT_COMPUTE
#define DMLI_OP_15(x0, x1, x2, x3, x4, q0, q1, q2) exp(x0)
#else
#define DMLI_OP_15(x0, x1, x2, x3, x4, q0, q1, q2) dmli_expf(x0)
#endif
/* log(+-0) is -infinity, of a negative NaN */
#define DMLI_OP_16(x0, x1, x2, x3, x4, q0, q1, q2) log(x0)
/* Operation n (a number, or a macro that is one) of its operands and parameters. */
#define DMLI_OPERATE_(n, x0, x1, x2, x3, x4, q0, q1, q2) DMLI_OP_##n(x0, x1, x2, x3, x4, q0, q1, q2)
#define DMLI_OPERATE(n, x0, x1, x2, x3, x4, q0, q1, q2) \
    DMLI_OPERATE_(n, x0, x1, x2, x3, x4, q0, q1, q2)
#define F DMLI_OPERATE(OP, x0, x1, x2, x3, x4, q0, q1, q2)
#if !((OP >= 0 && OP <= 44) || (OP >= 64 && OP <= 78) || OP == 96 || OP == 97)
#error "OP names no operation"
#endif

/* A gather read through (graphs, src/graph_plan.c): input GATHER reads its element at the
 * position plus j times the gathered axis's stride, j the value input GIDX (the indices, no
 * operand) holds at that position: counted from the end of the axis when negative (GWRAP),
 * then clamped into the axis (DirectML), or the element 0 outside it (GZERO: OpenVINO), as
 * cl/indexed.cl resolves it. */
#ifndef GATHER
#define GATHER (-1)
#endif
#ifndef GIDX
#define GIDX (-1)
#endif
#ifndef GIDX_SIGNED
#define GIDX_SIGNED 0
#endif
#ifndef GWRAP
#define GWRAP 0
#endif
#ifndef GZERO
#define GZERO 0
#endif
#ifndef GIDX_ROW
#define GIDX_ROW 0
#endif
#define DMLI_CAT_(a, b) a##b
#define DMLI_CAT(a, b) DMLI_CAT_(a, b)
#if GATHER >= 0
#if GIDX_SIGNED
static long gather_at(long x, long n)
{
#if GWRAP
    x += x < 0 ? n : 0;
#endif
#if GZERO
    return x >= 0 && x < n ? x : -1;
#else
    return clamp(x, 0L, n - 1);
#endif
}
#define GRAW(u) ((long)DMLI_CAT(in, GIDX)[DMLI_CAT(i, GIDX) + (u)*DMLI_CAT(is, GIDX)])
#else
static long gather_at(ulong x, long n)
{
#if GZERO
    return x < (ulong)n ? (long)x : -1;
#else
    return (long)min(x, (ulong)n - 1);
#endif
}
#define GRAW(u) ((ulong)DMLI_CAT(in, GIDX)[DMLI_CAT(i, GIDX) + (u)*DMLI_CAT(is, GIDX)])
#endif
#if GIDX_ROW
#define GPRE(u) long gj_ = gj_row;
#else
#define GPRE(u) long gj_ = gather_at(GRAW(u), gn);
#endif
#else
#define GPRE(u)
#endif

/* DMLI_VAL(k, u): input k's value at run position u (the gathered input: at the resolved
 * index, 0 where GZERO finds it outside the axis; constant conditions, folded elsewhere). */
#if GATHER >= 0
#define GSHIFT(k) ((k) == GATHER ? gj_ * gs : 0L)
#define GOUT(k) (GZERO && (k) == GATHER && gj_ < 0)
#else
#define GSHIFT(k) 0L
#define GOUT(k) 0
#endif
#define DMLI_VAL_G(k, u) \
    (GOUT(k) ? (COMPUTE_T)0 : DMLI_CAT(LOAD, k)(DMLI_CAT(i, k) + (u)*DMLI_CAT(is, k) + GSHIFT(k)))
#define DMLI_VAL(k, u) DMLI_VAL_G(k, u)
/* GB (GPUs, a map with no gather): the elements an item loads before it computes and stores
 * (src/launch_map.c: gpu_load_batch, at most map_gpu_elements); 1: element by element. */
#ifndef GB
#define GB 1
#endif
#if GATHER >= 0
#undef GB
#define GB 1
#endif

#ifndef TILE
#define TILE 0
#endif
/* ROWC<k>: input k is constant along the run (its run stride 0: a bias, BATCH_NORMALIZATION's
 * statistics), so it is loaded once a row into rc<k> (DMLI_ROWVAL), before the loop: the
 * loop's work that depends on it alone (BATCH_NORMALIZATION's square root and quotients) is
 * then invariant and hoisted out of the loop by the compiler, which a load in the loop beside
 * the output's stores (which might alias it, for all the compiler knows) prevents. */
#if NIN > 0 && GATHER != 0 && GIDX != 0 && defined(IN0_RS) && !TILE
#if IN0_RS == 0
#define ROWC0 1
#endif
#endif
#ifndef ROWC0
#define ROWC0 0
#endif
#if NIN > 1 && GATHER != 1 && GIDX != 1 && defined(IN1_RS) && !TILE
#if IN1_RS == 0
#define ROWC1 1
#endif
#endif
#ifndef ROWC1
#define ROWC1 0
#endif
#if NIN > 2 && GATHER != 2 && GIDX != 2 && defined(IN2_RS) && !TILE
#if IN2_RS == 0
#define ROWC2 1
#endif
#endif
#ifndef ROWC2
#define ROWC2 0
#endif
#if NIN > 3 && GATHER != 3 && GIDX != 3 && defined(IN3_RS) && !TILE
#if IN3_RS == 0
#define ROWC3 1
#endif
#endif
#ifndef ROWC3
#define ROWC3 0
#endif
#if NIN > 4 && GATHER != 4 && GIDX != 4 && defined(IN4_RS) && !TILE
#if IN4_RS == 0
#define ROWC4 1
#endif
#endif
#ifndef ROWC4
#define ROWC4 0
#endif
#if NIN > 5 && GATHER != 5 && GIDX != 5 && defined(IN5_RS) && !TILE
#if IN5_RS == 0
#define ROWC5 1
#endif
#endif
#ifndef ROWC5
#define ROWC5 0
#endif
#if NIN > 6 && GATHER != 6 && GIDX != 6 && defined(IN6_RS) && !TILE
#if IN6_RS == 0
#define ROWC6 1
#endif
#endif
#ifndef ROWC6
#define ROWC6 0
#endif
#if NIN > 7 && GATHER != 7 && GIDX != 7 && defined(IN7_RS) && !TILE
#if IN7_RS == 0
#define ROWC7 1
#endif
#endif
#ifndef ROWC7
#define ROWC7 0
#endif
/* TILE: input k's stride along d (the next outer dimension), a constant where the host knows it. */
#ifdef TD0
#define TD0_VALUE ((long)TD0)
#else
#define TD0_VALUE t[DMLI_MAP_HEADER + 2 + 0]
#endif
#ifdef TD1
#define TD1_VALUE ((long)TD1)
#else
#define TD1_VALUE t[DMLI_MAP_HEADER + 2 + 1]
#endif
#ifdef TD2
#define TD2_VALUE ((long)TD2)
#else
#define TD2_VALUE t[DMLI_MAP_HEADER + 2 + 2]
#endif
#ifdef TD3
#define TD3_VALUE ((long)TD3)
#else
#define TD3_VALUE t[DMLI_MAP_HEADER + 2 + 3]
#endif
#ifdef TD4
#define TD4_VALUE ((long)TD4)
#else
#define TD4_VALUE t[DMLI_MAP_HEADER + 2 + 4]
#endif
#ifdef TD5
#define TD5_VALUE ((long)TD5)
#else
#define TD5_VALUE t[DMLI_MAP_HEADER + 2 + 5]
#endif
#ifdef TD6
#define TD6_VALUE ((long)TD6)
#else
#define TD6_VALUE t[DMLI_MAP_HEADER + 2 + 6]
#endif
#ifdef TD7
#define TD7_VALUE ((long)TD7)
#else
#define TD7_VALUE t[DMLI_MAP_HEADER + 2 + 7]
#endif
/* Where input k's value comes from: SRC<k> 0 memory, 1 the row's constant (ROWC<k>), 2 the
 * transposed tile (TILE's input TK). */
#if TILE && TK == 0
#define SRC0 2
#else
#define SRC0 ROWC0
#endif
#if TILE && TK == 1
#define SRC1 2
#else
#define SRC1 ROWC1
#endif
#if TILE && TK == 2
#define SRC2 2
#else
#define SRC2 ROWC2
#endif
#if TILE && TK == 3
#define SRC3 2
#else
#define SRC3 ROWC3
#endif
#if TILE && TK == 4
#define SRC4 2
#else
#define SRC4 ROWC4
#endif
#if TILE && TK == 5
#define SRC5 2
#else
#define SRC5 ROWC5
#endif
#if TILE && TK == 6
#define SRC6 2
#else
#define SRC6 ROWC6
#endif
#if TILE && TK == 7
#define SRC7 2
#else
#define SRC7 ROWC7
#endif
#define DMLI_VALX_0(k, u) DMLI_VAL(k, u)
#define DMLI_VALX_1(k, u) DMLI_CAT(rc, k)
#define DMLI_VALX_2(k, u) \
    ((COMPUTE_T)__builtin_astype(tt[j][(u)-ub], DMLI_CAT(DMLI_CAT(IN, k), _T)))
#define DMLI_VALX_(s, k, u) DMLI_CAT(DMLI_VALX_, s)(k, u)
#define DMLI_VALX(k, u) DMLI_VALX_(DMLI_CAT(SRC, k), k, u)
#define DMLI_ROWVAL(k) DMLI_CAT(LOAD, k)(DMLI_CAT(i, k))

/* ELEMENT(u, y): declares y, the activated result of f at run position u, from x0 ... the
 * inputs loaded there (input 0 through ScaleBias; the indices of a gather read through are
 * no operand). */
#if NIN > 0 && GIDX == 0
#define X0(u)
#elif NIN > 0 && SCALE_BIAS && STAGES == 1
#define X0(u) COMPUTE_T x0 = fma(DMLI_VALX(0, u), s0, s1); /* rounded once */
#elif NIN > 0
#define X0(u) COMPUTE_T x0 = DMLI_VALX(0, u);
#else
#define X0(u)
#endif
#if NIN > 1 && GIDX != 1
#define X1(u) COMPUTE_T x1 = DMLI_VALX(1, u);
#else
#define X1(u)
#endif
#if NIN > 2 && GIDX != 2
#define X2(u) COMPUTE_T x2 = DMLI_VALX(2, u);
#else
#define X2(u)
#endif
#if NIN > 3 && GIDX != 3
#define X3(u) COMPUTE_T x3 = DMLI_VALX(3, u);
#else
#define X3(u)
#endif
#if NIN > 4 && GIDX != 4
#define X4(u) COMPUTE_T x4 = DMLI_VALX(4, u);
#else
#define X4(u)
#endif
#if NIN > 5 && GIDX != 5
#define X5(u) COMPUTE_T x5 = DMLI_VALX(5, u);
#else
#define X5(u)
#endif
#if NIN > 6 && GIDX != 6
#define X6(u) COMPUTE_T x6 = DMLI_VALX(6, u);
#else
#define X6(u)
#endif
#if NIN > 7 && GIDX != 7
#define X7(u) COMPUTE_T x7 = DMLI_VALX(7, u);
#else
#define X7(u)
#endif
#if STAGES == 1
#define ELEMENT(u, y)                                                            \
    GPRE(u) X0(u) X1(u) X2(u) X3(u) X4(u) X5(u) X6(u) X7(u) COMPUTE_T y##_f = F; \
    COMPUTE_T y = ACTIVATE(y##_f)
#else
/* Stage s of a chain: ScaleBias on operand a0 where sb is 1, the operation, the activation. */
#define DMLI_SB_0(a, scale, bias) (a)
#define DMLI_SB_1(a, scale, bias) fma((a), (scale), (bias)) /* rounded once */
#define DMLI_SB_(sb, a, scale, bias) DMLI_SB_##sb(a, scale, bias)
#define DMLI_SB(sb, a, scale, bias) DMLI_SB_(sb, a, scale, bias)
#define DMLI_STAGE_(s, op, act, sb, a0, a1, a2, a3, a4)                              \
    COMPUTE_T y##s##_a = DMLI_SB(sb, a0, sp##s##_0, sp##s##_1);                      \
    COMPUTE_T y##s##_f =                                                             \
        DMLI_OPERATE(op, y##s##_a, a1, a2, a3, a4, sp##s##_2, sp##s##_3, sp##s##_4); \
    COMPUTE_T y##s = DMLI_ACTIVATE(act, y##s##_f, sp##s##_5, sp##s##_6, sp##s##_7);
#define DMLI_STAGE(s, list) DMLI_STAGE_(s, list) /* list: eight fields once expanded */
/* Stage s's parameters, read once per work-item. */
#define DMLI_STAGE_PARAMS(s)                                                             \
    COMPUTE_T sp##s##_0 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 0)),                          \
              sp##s##_1 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 1)),                          \
              sp##s##_2 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 2)),                          \
              sp##s##_3 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 3)),                          \
              sp##s##_4 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 4)),                          \
              sp##s##_5 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 5)),                          \
              sp##s##_6 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 6)),                          \
              sp##s##_7 = PARAM_AT(DMLI_MAP_STAGE_PARAM(s, 7));                          \
    (void)sp##s##_0, (void)sp##s##_1, (void)sp##s##_2, (void)sp##s##_3, (void)sp##s##_4, \
        (void)sp##s##_5, (void)sp##s##_6, (void)sp##s##_7
#if STAGES > 8
#error "a chain has at most 8 stages"
#endif
#define DMLI_STAGES_1 DMLI_STAGE(0, S0)
#define DMLI_STAGES_2 DMLI_STAGES_1 DMLI_STAGE(1, S1)
#define DMLI_STAGES_3 DMLI_STAGES_2 DMLI_STAGE(2, S2)
#define DMLI_STAGES_4 DMLI_STAGES_3 DMLI_STAGE(3, S3)
#define DMLI_STAGES_5 DMLI_STAGES_4 DMLI_STAGE(4, S4)
#define DMLI_STAGES_6 DMLI_STAGES_5 DMLI_STAGE(5, S5)
#define DMLI_STAGES_7 DMLI_STAGES_6 DMLI_STAGE(6, S6)
#define DMLI_STAGES_8 DMLI_STAGES_7 DMLI_STAGE(7, S7)
#define DMLI_PASTE_(a, b) a##b
#define DMLI_PASTE(a, b) DMLI_PASTE_(a, b)
#if STAGES == 2
#define DMLI_LAST_STAGE y1
#elif STAGES == 3
#define DMLI_LAST_STAGE y2
#elif STAGES == 4
#define DMLI_LAST_STAGE y3
#elif STAGES == 5
#define DMLI_LAST_STAGE y4
#elif STAGES == 6
#define DMLI_LAST_STAGE y5
#elif STAGES == 7
#define DMLI_LAST_STAGE y6
#else
#define DMLI_LAST_STAGE y7
#endif
/* A run of macro calls, which clang-format lays out differently on each pass: */
/* clang-format off */
#define ELEMENT(u, y)                                                                        \
    GPRE(u) X0(u) X1(u) X2(u) X3(u) X4(u) X5(u) X6(u) X7(u) DMLI_PASTE(DMLI_STAGES_, STAGES) \
    COMPUTE_T y = DMLI_LAST_STAGE
/* clang-format on */
#endif

#if STREAM
/* STREAM_LINES(dst, first, n, CAP): the run's elements first .. first + n - 1 (n <= CAP, a whole
 * number of 64-byte lines of the output type) computed by the vectorised loop into private
 * memory, then stored at dst (a line boundary) as whole non-temporal lines. u is the element's
 * index in the run, as F may read it. */
#if defined(VW) && defined(__clang__)
#define DMLI_VW_LOOP DMLI_VECTORIZE(VW)
#else
#define DMLI_VW_LOOP
#endif
#define STREAM_LINES(dst, first, n, CAP)                             \
    do {                                                             \
        union {                                                      \
            OUT_T a[CAP];                                            \
            uint16 v[(CAP) * sizeof(OUT_T) / 64];                    \
        } b_;                                                        \
        DMLI_VW_LOOP                                                 \
        for (int k_ = 0; k_ < (int)(n); ++k_) {                      \
            long u = (first) + k_;                                   \
            ELEMENT(u, y);                                           \
            b_.a[k_] = OUT_VALUE(y);                                 \
        }                                                            \
        for (int l_ = 0; l_ < (int)((n) * sizeof(OUT_T) / 64); ++l_) \
            PUT((__global uint16 *)(dst) + l_, b_.v[l_]);            \
    } while (0)
#endif

#if TILE
#ifndef TILE_PF
#define TILE_PF 0
#endif
/* TILE's input TK: its pointer, its group base and its run stride (a constant where known). */
#define TK_PTR DMLI_CAT(in, TK)
#define TK_G DMLI_CAT(g, TK)
#define IS_TK_VALUE DMLI_CAT(DMLI_CAT(IS, TK), _VALUE)
/* A 4 x 4 block of 4-byte units transposed in registers: q[k * TILE_RUN + m] = p[m * ps + k] (rows
 * of TK along d loaded whole, two rounds of interleaving, rows of the run stored whole). */
#define TILE_LO(a, b) __builtin_shufflevector((a), (b), 0, 4, 1, 5)
#define TILE_HI(a, b) __builtin_shufflevector((a), (b), 2, 6, 3, 7)
static void tile_block(uint *q, __global const uint *p, long ps)
{
    uint4 r0 = vload4(0, p), r1 = vload4(0, p + ps), r2 = vload4(0, p + 2 * ps),
          r3 = vload4(0, p + 3 * ps);
    uint4 t0 = TILE_LO(r0, r2), t1 = TILE_HI(r0, r2), t2 = TILE_LO(r1, r3), t3 = TILE_HI(r1, r3);
    vstore4(TILE_LO(t0, t2), 0, q);
    vstore4(TILE_HI(t0, t2), 0, q + TILE_RUN);
    vstore4(TILE_LO(t1, t3), 0, q + 2 * TILE_RUN);
    vstore4(TILE_HI(t1, t3), 0, q + 3 * TILE_RUN);
}
#if TILE16
/* A 16 x 16 block at once (CPUs whose native float vectors are 16 wide: TILE16), the same
 * q[k * TILE_RUN + m] = p[m * ps + k]: 16 whole lines loaded (one 64-byte vector each), four
 * rounds of two-source shuffles (round m, for m 1, 2, 4 and 8, swaps that bit of the row and
 * the column: rows i and i + m exchange the lanes of their pairs m apart), 16 rows stored
 * whole. 64 shuffles, 16 loads and 16 stores a 256 units, where the 4 x 4 blocks take 128, 64
 * and 64 of 16 bytes. */
#define TILE16_LO1(a, b) \
    __builtin_shufflevector((a), (b), 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30)
#define TILE16_HI1(a, b) \
    __builtin_shufflevector((a), (b), 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)
#define TILE16_LO2(a, b) \
    __builtin_shufflevector((a), (b), 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29)
#define TILE16_HI2(a, b) \
    __builtin_shufflevector((a), (b), 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31)
#define TILE16_LO4(a, b) \
    __builtin_shufflevector((a), (b), 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27)
#define TILE16_HI4(a, b) \
    __builtin_shufflevector((a), (b), 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31)
#define TILE16_LO8(a, b) \
    __builtin_shufflevector((a), (b), 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)
#define TILE16_HI8(a, b) \
    __builtin_shufflevector((a), (b), 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
typedef struct __attribute__((packed)) {
    uint16 v;
} tile16_unaligned;
#define TILE16_ROUND(m)                          \
    for (int i_ = 0; i_ < 16; ++i_)              \
        if ((i_ & (m)) == 0) {                   \
            uint16 a_ = r[i_], b_ = r[i_ + (m)]; \
            r[i_] = TILE16_LO##m(a_, b_);        \
            r[i_ + (m)] = TILE16_HI##m(a_, b_);  \
        }
static void tile_block16(uint *q, __global const uint *p, long ps)
{
    uint16 r[16];
#pragma unroll
    for (int m = 0; m < 16; ++m)
        r[m] = ((__global const tile16_unaligned *)(p + m * ps))->v;
#pragma unroll
    TILE16_ROUND(1)
#pragma unroll
    TILE16_ROUND(2)
#pragma unroll
    TILE16_ROUND(4)
#pragma unroll
    TILE16_ROUND(8)
#pragma unroll
    for (int k = 0; k < 16; ++k)
        ((tile16_unaligned *)(q + k * TILE_RUN))->v = r[k];
}
#endif
#endif

/* The offset of row r (outer dimensions innermost first) in the tensor whose stride is
 * entry `which` of each dimension (1: the output; 2 + k: input k). In 32-bit arithmetic when
 * the rows fit (`narrow`: every outer size then fits too): a GPU divides 64-bit integers in
 * software. */
static long row_offset(__constant long *t, int outer, ulong r, int which, bool narrow)
{
    __constant long *dim = t + DMLI_MAP_HEADER;
    long at = 0;
    if (narrow) {
        uint r32 = (uint)r;
        for (int d = 0; d < outer; ++d, dim += DMLI_MAP_DIM) {
            uint n = (uint)dim[0], q = r32 / n;
            at += (long)(r32 - q * n) * dim[which];
            r32 = q;
        }
        return at;
    }
    for (int d = 0; d < outer; ++d, dim += DMLI_MAP_DIM) {
        ulong n = (ulong)dim[0];
        at += (long)(r % n) * dim[which];
        r /= n;
    }
    return at;
}

__kernel void map_elementwise(__global OUT_T *out, long out_base, __constant long *t
#if NIN > 0
                              ,
                              __global const IN0_T *in0, long in0_base
#endif
#if NIN > 1
                              ,
                              __global const IN1_T *in1, long in1_base
#endif
#if NIN > 2
                              ,
                              __global const IN2_T *in2, long in2_base
#endif
#if NIN > 3
                              ,
                              __global const IN3_T *in3, long in3_base
#endif
#if NIN > 4
                              ,
                              __global const IN4_T *in4, long in4_base
#endif
#if NIN > 5
                              ,
                              __global const IN5_T *in5, long in5_base
#endif
#if NIN > 6
                              ,
                              __global const IN6_T *in6, long in6_base
#endif
#if NIN > 7
                              ,
                              __global const IN7_T *in7, long in7_base
#endif
)
{
    int outer = (int)t[DMLI_MAP_OUTER_RANK];
    long run = t[DMLI_MAP_RUN], chunk = t[DMLI_MAP_CHUNK];
    ulong rows = (ulong)t[DMLI_MAP_ROWS], per = (ulong)t[DMLI_MAP_ROWS_PER_ITEM];
    COMPUTE_T s0 = PARAM(0), s1 = PARAM(1), q0 = PARAM(2), q1 = PARAM(3), q2 = PARAM(4);
    COMPUTE_T g0 = PARAM(5), g1 = PARAM(6), g2 = PARAM(7);
    (void)s0, (void)s1, (void)q0, (void)q1, (void)q2, (void)g0, (void)g1, (void)g2;
#if GATHER >= 0
    long gn = t[DMLI_MAP_GATHER_N], gs = t[DMLI_MAP_GATHER_S];
#endif
#if STAGES > 1
    DMLI_STAGE_PARAMS(0);
    DMLI_STAGE_PARAMS(1);
#endif
#if STAGES > 2
    DMLI_STAGE_PARAMS(2);
#endif
#if STAGES > 3
    DMLI_STAGE_PARAMS(3);
#endif
#if STAGES > 4
    DMLI_STAGE_PARAMS(4);
#endif
#if STAGES > 5
    DMLI_STAGE_PARAMS(5);
#endif
#if STAGES > 6
    DMLI_STAGE_PARAMS(6);
#endif
#if STAGES > 7
    DMLI_STAGE_PARAMS(7);
#endif
    bool narrow = rows <= (ulong)UINT_MAX;
#if GRID1
    /* GPUs: group g is chunk `c` of row r (per: groups a row); its items step by the group's
     * width, so that a warp's accesses are consecutive. */
    ulong g = get_group_id(0), r0;
    if (narrow && g <= (ulong)UINT_MAX)
        r0 = (uint)g / (uint)per;
    else
        r0 = g / per;
    long c = (long)(g - r0 * per), step = (long)get_local_size(0);
    long begin = c * chunk + (long)get_local_id(0);
    if (r0 >= rows)
        return;
    long end = min(c * chunk + chunk, run);
    ulong r1 = r0 + 1;
#else
    long begin = (long)get_global_id(1) * chunk, step = 1;
    ulong r0 = get_global_id(2) * per;
    if (begin >= run || r0 >= rows)
        return;
    long end = min(begin + chunk, run);
    ulong r1 = min(r0 + per, rows);
#endif
#if TILE
    /* CPUs, input TK read across the run (a layout change: its run stride large, its stride
     * along the next outer dimension d 1; every other input's run stride 0 or 1): tiles of
     * TILE rows (consecutive along d, within one row of the other dimensions: the host makes
     * d's size, the run and the rows an item walks whole tiles) x TILE_RUN run positions.
     * TK's tile is loaded along d (whole vectors) and transposed in registers by 4 x 4 blocks
     * of its 4-byte units into tt (tile_block); then each of the tile's rows is computed along
     * the run as the other maps are (its other inputs and the output contiguous or constant),
     * TK's values from tt. Every input byte is read once. */
    long tdo = t[DMLI_MAP_HEADER + 1]; /* the output's stride along d */
    long tks = IS_TK_VALUE;            /* TK's run stride */
    (void)step;
    for (ulong r = r0; r < r1; r += TILE) {
        long og = out_base + row_offset(t, outer, r, 1, narrow);
#if NIN > 0
        long g0 = in0_base + row_offset(t, outer, r, 2 + 0, narrow);
#endif
#if NIN > 1
        long g1 = in1_base + row_offset(t, outer, r, 2 + 1, narrow);
#endif
#if NIN > 2
        long g2 = in2_base + row_offset(t, outer, r, 2 + 2, narrow);
#endif
#if NIN > 3
        long g3 = in3_base + row_offset(t, outer, r, 2 + 3, narrow);
#endif
#if NIN > 4
        long g4 = in4_base + row_offset(t, outer, r, 2 + 4, narrow);
#endif
#if NIN > 5
        long g5 = in5_base + row_offset(t, outer, r, 2 + 5, narrow);
#endif
#if NIN > 6
        long g6 = in6_base + row_offset(t, outer, r, 2 + 6, narrow);
#endif
#if NIN > 7
        long g7 = in7_base + row_offset(t, outer, r, 2 + 7, narrow);
#endif
        for (long ub = begin; ub < end; ub += TILE_RUN) {
            int na = (int)min((long)TILE_RUN, end - ub); /* a multiple of 16 (the host's) */
            uint tt[TILE][TILE_RUN];
#if TILE_PF
            /* TK's lines of the tile TILE_PF tiles on along d (TILE_RUN planes far apart, more
             * streams than the core's own prefetcher follows), into the L2 cache (locality 2:
             * prefetcht1 on x86): the planes are often a multiple of 4 KiB apart, all in one
             * L1 set, where the lines prefetched for a tile evicted each other before use. */
            for (int a = 0; a < na; ++a)
                __builtin_prefetch(
                    (__global const uint *)TK_PTR + TK_G + TILE * TILE_PF + (ub + a) * tks, 0, 2);
#endif
#if TILE16 && TILE == 16
            /* 16 run positions' lines a block, each line read whole once. */
            for (int ab = 0; ab < na; ab += 16)
                tile_block16(&tt[0][ab], (__global const uint *)TK_PTR + TK_G + (ub + ab) * tks,
                             tks);
#else
            /* Each 4 run positions' lines whole before the next (their planes are far apart,
             * often a multiple of 4 KiB: all in one cache set, whose ways the tile's other
             * planes would take before a line's next block is read). */
            for (int ab = 0; ab < na; ab += 4)
                for (int jb = 0; jb < TILE; jb += 4)
                    tile_block(&tt[jb][ab],
                               (__global const uint *)TK_PTR + TK_G + jb + (ub + ab) * tks, tks);
#endif
            for (int j = 0; j < TILE; ++j) {
                long o = og + j * tdo;
#if NIN > 0
                long i0 = g0 + j * TD0_VALUE, is0 = IS0_VALUE;
                (void)i0, (void)is0;
#endif
#if NIN > 1
                long i1 = g1 + j * TD1_VALUE, is1 = IS1_VALUE;
                (void)i1, (void)is1;
#endif
#if NIN > 2
                long i2 = g2 + j * TD2_VALUE, is2 = IS2_VALUE;
                (void)i2, (void)is2;
#endif
#if NIN > 3
                long i3 = g3 + j * TD3_VALUE, is3 = IS3_VALUE;
                (void)i3, (void)is3;
#endif
#if NIN > 4
                long i4 = g4 + j * TD4_VALUE, is4 = IS4_VALUE;
                (void)i4, (void)is4;
#endif
#if NIN > 5
                long i5 = g5 + j * TD5_VALUE, is5 = IS5_VALUE;
                (void)i5, (void)is5;
#endif
#if NIN > 6
                long i6 = g6 + j * TD6_VALUE, is6 = IS6_VALUE;
                (void)i6, (void)is6;
#endif
#if NIN > 7
                long i7 = g7 + j * TD7_VALUE, is7 = IS7_VALUE;
                (void)i7, (void)is7;
#endif
#if STREAM
                /* Whole lines of the output row: computed into private memory, stored
                 * non-temporally (no read for ownership). */
                __global OUT_T *orow = out + o + ub;
                if (((ulong)orow & 63) == 0 && (na * sizeof(OUT_T)) % 64 == 0) {
                    STREAM_LINES(orow, ub, na, TILE_RUN);
                    continue;
                }
#endif
#if defined(VW) && defined(__clang__)
                DMLI_VECTORIZE(VW)
#endif
                for (long u = ub; u < ub + na; ++u) {
                    ELEMENT(u, y);
                    STORE(o + u, y);
                }
            }
        }
    }
#else
    for (ulong r = r0; r < r1; ++r) {
        long o = out_base + row_offset(t, outer, r, 1, narrow), os = OS_VALUE;
#if NIN > 0
        long i0 = in0_base + row_offset(t, outer, r, 2 + 0, narrow), is0 = IS0_VALUE;
        (void)is0;
#if ROWC0
        COMPUTE_T rc0 = DMLI_ROWVAL(0);
#endif
#endif
#if NIN > 1
        long i1 = in1_base + row_offset(t, outer, r, 2 + 1, narrow), is1 = IS1_VALUE;
        (void)is1;
#if ROWC1
        COMPUTE_T rc1 = DMLI_ROWVAL(1);
#endif
#endif
#if NIN > 2
        long i2 = in2_base + row_offset(t, outer, r, 2 + 2, narrow), is2 = IS2_VALUE;
        (void)is2;
#if ROWC2
        COMPUTE_T rc2 = DMLI_ROWVAL(2);
#endif
#endif
#if NIN > 3
        long i3 = in3_base + row_offset(t, outer, r, 2 + 3, narrow), is3 = IS3_VALUE;
        (void)is3;
#if ROWC3
        COMPUTE_T rc3 = DMLI_ROWVAL(3);
#endif
#endif
#if NIN > 4
        long i4 = in4_base + row_offset(t, outer, r, 2 + 4, narrow), is4 = IS4_VALUE;
        (void)is4;
#if ROWC4
        COMPUTE_T rc4 = DMLI_ROWVAL(4);
#endif
#endif
#if NIN > 5
        long i5 = in5_base + row_offset(t, outer, r, 2 + 5, narrow), is5 = IS5_VALUE;
        (void)is5;
#if ROWC5
        COMPUTE_T rc5 = DMLI_ROWVAL(5);
#endif
#endif
#if NIN > 6
        long i6 = in6_base + row_offset(t, outer, r, 2 + 6, narrow), is6 = IS6_VALUE;
        (void)is6;
#if ROWC6
        COMPUTE_T rc6 = DMLI_ROWVAL(6);
#endif
#endif
#if NIN > 7
        long i7 = in7_base + row_offset(t, outer, r, 2 + 7, narrow), is7 = IS7_VALUE;
        (void)is7;
#if ROWC7
        COMPUTE_T rc7 = DMLI_ROWVAL(7);
#endif
#endif
#if GATHER >= 0 && GIDX_ROW
        long gj_row = gather_at(GRAW(0), gn); /* the row's one index */
#endif
#if STREAM && !GRID1
        /* CPUs, an output run of stride 1 far larger than the caches: whole 64-byte lines
         * stored non-temporally (no read for ownership of lines only written). The elements
         * up to the first line boundary one by one, then blocks of MAP_BLOCK_UNITS computed
         * into private memory by the vectorised loop and stored as lines, then the tail. An
         * output not aligned to its element (never from DirectML's bindings) stays plain. */
        __global OUT_T *orow = out + o;
        long at = begin, end_ = end;
        long gap = (long)(((64 - ((ulong)(orow + at) & 63)) & 63) / sizeof(OUT_T));
        long head = ((ulong)orow & (sizeof(OUT_T) - 1)) ? end_ : min(end_, at + gap);
        for (long u = at; u < head; ++u) {
            ELEMENT(u, y);
            STORE(o + u, y);
        }
        for (at = max(at, head); at + MAP_BLOCK_UNITS <= end_; at += MAP_BLOCK_UNITS)
            STREAM_LINES(orow + at, at, MAP_BLOCK_UNITS, MAP_BLOCK_UNITS);
        for (long u = at; u < end_; ++u) {
            ELEMENT(u, y);
            STORE(o + u, y);
        }
#else
#if GVEC > 1
        /* GPUs, every run contiguous (FAST): an item loads GVEC consecutive elements of each
         * input as one vector (16 bytes of the widest type) and stores its GVEC results as one,
         * where every tensor's row is aligned to the vector at the chunk's start (a chunk is a
         * whole number of vectors: src/launch_map.c); the rest of the chunk (its tail, or all
         * of it where a tensor is not aligned) an element a step, as below. A warp's request
         * then moves 32 vectors: 512 bytes of float32 where it moved 128, 512 of uint8 where it
         * moved 32. Each element's operations are the scalar loop's, in the same order. */
        {
            const long c0 = begin - (long)get_local_id(0); /* the chunk's first element */
            bool al = GV_ALIGNED(out + o + c0, OUT_T);
#if NIN > 0
            al = al && GV_ALIGNED(in0 + i0 + c0, IN0_T);
#endif
#if NIN > 1
            al = al && GV_ALIGNED(in1 + i1 + c0, IN1_T);
#endif
#if NIN > 2
            al = al && GV_ALIGNED(in2 + i2 + c0, IN2_T);
#endif
#if NIN > 3
            al = al && GV_ALIGNED(in3 + i3 + c0, IN3_T);
#endif
#if NIN > 4
            al = al && GV_ALIGNED(in4 + i4 + c0, IN4_T);
#endif
#if NIN > 5
            al = al && GV_ALIGNED(in5 + i5 + c0, IN5_T);
#endif
#if NIN > 6
            al = al && GV_ALIGNED(in6 + i6 + c0, IN6_T);
#endif
#if NIN > 7
            al = al && GV_ALIGNED(in7 + i7 + c0, IN7_T);
#endif
            const long vend = al ? c0 + (end - c0) / GVEC * GVEC : c0;
#undef LSRC
#define LSRC V
            for (long gv_at = c0 + (long)get_local_id(0) * GVEC; gv_at < vend;
                 gv_at += step * GVEC) {
#if NIN > 0
                GV_DECL(0, gv_at);
#endif
#if NIN > 1
                GV_DECL(1, gv_at);
#endif
#if NIN > 2
                GV_DECL(2, gv_at);
#endif
#if NIN > 3
                GV_DECL(3, gv_at);
#endif
#if NIN > 4
                GV_DECL(4, gv_at);
#endif
#if NIN > 5
                GV_DECL(5, gv_at);
#endif
#if NIN > 6
                GV_DECL(6, gv_at);
#endif
#if NIN > 7
                GV_DECL(7, gv_at);
#endif
                OUT_T gvo[GVEC];
#pragma unroll
                for (int j = 0; j < GVEC; ++j) {
                    long u = gv_at + j;
                    ELEMENT(u, y);
                    gvo[j] = OUT_VALUE(y);
                }
                *(__global OUT_VT *)(out + o + gv_at) = GV_MAKE(gvo);
            }
#undef LSRC
#define LSRC G
            for (long u = vend + (long)get_local_id(0); u < end; u += step) {
                ELEMENT(u, y);
                STORE(o + u * os, y);
            }
        }
#elif GRID1 && GB > 1
        /* GPUs, no gather: an item's elements (GB at most: its share of the chunk) each
         * input's loaded first, then computed and stored. A GPU issues in order and waits at
         * the first use of a load; element by element, an item had one element of each input
         * in flight, and the compiler may not move a load above the output's stores (which
         * might alias it). The same operations on the same values, element by element. */
        for (long u_ = begin; u_ < end; u_ += GB * step) {
#if NIN > 0 && !ROWC0
            COMPUTE_T xb0[GB];
#endif
#if NIN > 1 && !ROWC1
            COMPUTE_T xb1[GB];
#endif
#if NIN > 2 && !ROWC2
            COMPUTE_T xb2[GB];
#endif
#if NIN > 3 && !ROWC3
            COMPUTE_T xb3[GB];
#endif
#if NIN > 4 && !ROWC4
            COMPUTE_T xb4[GB];
#endif
#if NIN > 5 && !ROWC5
            COMPUTE_T xb5[GB];
#endif
#if NIN > 6 && !ROWC6
            COMPUTE_T xb6[GB];
#endif
#if NIN > 7 && !ROWC7
            COMPUTE_T xb7[GB];
#endif
            _Pragma("unroll") for (int j_ = 0; j_ < GB; ++j_)
            {
                long u = u_ + j_ * step;
                if (u < end) {
#if NIN > 0 && !ROWC0
                    xb0[j_] = LOAD0(i0 + u * is0);
#endif
#if NIN > 1 && !ROWC1
                    xb1[j_] = LOAD1(i1 + u * is1);
#endif
#if NIN > 2 && !ROWC2
                    xb2[j_] = LOAD2(i2 + u * is2);
#endif
#if NIN > 3 && !ROWC3
                    xb3[j_] = LOAD3(i3 + u * is3);
#endif
#if NIN > 4 && !ROWC4
                    xb4[j_] = LOAD4(i4 + u * is4);
#endif
#if NIN > 5 && !ROWC5
                    xb5[j_] = LOAD5(i5 + u * is5);
#endif
#if NIN > 6 && !ROWC6
                    xb6[j_] = LOAD6(i6 + u * is6);
#endif
#if NIN > 7 && !ROWC7
                    xb7[j_] = LOAD7(i7 + u * is7);
#endif
                }
            }
#undef DMLI_VAL
#define DMLI_VAL(k, u) DMLI_CAT(xb, k)[j_]
            _Pragma("unroll") for (int j_ = 0; j_ < GB; ++j_)
            {
                long u = u_ + j_ * step;
                if (u < end) {
                    ELEMENT(u, y);
                    STORE(o + u * os, y);
                }
            }
#undef DMLI_VAL
#define DMLI_VAL(k, u) DMLI_VAL_G(k, u)
        }
#else
#if defined(VW) && !GRID1 && defined(__clang__)
        DMLI_VECTORIZE(VW) /* CPUs: the loop VW lanes wide (twice the native width) */
#endif
        for (long u = begin; u < end; u += step) {
            ELEMENT(u, y);
            STORE(o + u * os, y);
        }
#endif
#endif
    }
#endif /* TILE */
}
