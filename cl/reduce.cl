/* SPDX-License-Identifier: MIT */
/*
 * The reduce family: every row (the elements that share their kept coordinates) folded to one
 * value (REDUCE, ARGMIN, ARGMAX), normalised (softmax, log-softmax, hardmax, MVN, LP), scanned
 * (cumulative sum and product) or ranked (top-k). The host (src/launch_reduce.c) normalises the
 * reduction (src/reduce.c) and fills the table (cl/abi.h DMLI_RED_*).
 *
 * Two shapes of work:
 *   ROWS (COLS 0): a work-item (CPUs, GROUP 1) or a work-group of GROUP items (GPUs) per row.
 *     The row's elements are dealt to LANES lanes by their position in the innermost reduced
 *     dimension (u % LANES); each lane folds its elements in order, and the lanes combine by
 *     a fixed tree (lane l with lane l + w, w = LANES/2 ... 1). LANES is fixed per device
 *     class, so a device gives one result whatever the launch.
 *   COLS (COLS 1): the innermost input dimension is kept: a work-item folds LANES neighbouring
 *     rows (columns) at once, each in order, reading LANES contiguous values per step.
 * Scans run a row per work-item in order; top-k ranks every element of a row against the row.
 *
 * Macros (defaults build a valid program):
 *   ROP          the operation (src/internal.h dmli_reduce_op)
 *   NIN, NOUT    inputs (1..3) and outputs (1..2)
 *   COMPUTE_T    float (FLOAT16/FLOAT32), double (COMPUTE_DOUBLE 1), long or ulong (INT_COMPUTE
 *                1; SIGNED_COMPUTE 1 for long)
 *   INk_T, INk_HALF, OUT0_T, OUT0_HALF, OUT1_T  storage types, as cl/map.cl's
 *   INDEX_OUT    1: output 0 receives the index (ARGMIN, ARGMAX)
 *   LANES, GROUP, COLS  the shape of work above
 *   INDEX_LAST   ties give the last index; SMALLEST: top-k's K smallest; REVERSE, EXCLUSIVE:
 *                scans; USE_MEAN, USE_VARIANCE, HAS_SCALE, HAS_BIAS: MVN (input 1 the scale,
 *                input 2 the bias, each read when present); LP_P: 1 or 2
 *   ACT          an activation applied to each normalised value (cl/activation.cl)
 *   SYNC         CPUs, COLS folds: rows between the work-group's barriers (see ROW_LOOP)
 *   RPF          CPUs, VACC: elements of input 0 the first pass prefetches ahead
 *   CPF          CPUs, SYNC, input 0's columns of stride 1: rows ahead an item prefetches
 *   NATIVE_VW    CPUs, float computes, ROWS: the device's native float width (VN below); the loop
 * over a row's lanes vectorised VN wide, the lane states NL / VN vectors (VACC)
 */
#include "abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef ROP
#define ROP 10
#endif
#ifndef NIN
#define NIN 1
#endif
#ifndef NOUT
#define NOUT 1
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
#ifndef INT_COMPUTE
#define INT_COMPUTE 0
#endif
#ifndef SIGNED_COMPUTE
#define SIGNED_COMPUTE 0
#endif
#ifndef IN0_T
#define IN0_T float
#endif
#ifndef IN0_HALF
#define IN0_HALF 0
#endif
#ifndef IN1_T
#define IN1_T float
#endif
#ifndef IN1_HALF
#define IN1_HALF 0
#endif
#ifndef IN2_T
#define IN2_T float
#endif
#ifndef IN2_HALF
#define IN2_HALF 0
#endif
#ifndef IN3_T
#define IN3_T float
#endif
#ifndef IN3_HALF
#define IN3_HALF 0
#endif
#ifndef PRE_OP
#define PRE_OP 0
#endif
#ifndef OUT0_T
#define OUT0_T float
#endif
#ifndef OUT0_HALF
#define OUT0_HALF 0
#endif
#ifndef OUT1_T
#define OUT1_T uint
#endif
#ifndef INDEX_OUT
#define INDEX_OUT 0
#endif
#ifndef LANES
#define LANES 16
#endif
#ifndef GROUP
#define GROUP 1
#endif
#ifndef COLS
#define COLS 0
#endif
#ifndef INDEX_LAST
#define INDEX_LAST 0
#endif
#ifndef SMALLEST
#define SMALLEST 0
#endif
#ifndef REVERSE
#define REVERSE 0
#endif
#ifndef EXCLUSIVE
#define EXCLUSIVE 0
#endif
#ifndef USE_MEAN
#define USE_MEAN 1
#endif
#ifndef USE_VARIANCE
#define USE_VARIANCE 1
#endif
#ifndef HAS_SCALE
#define HAS_SCALE 0
#endif
#ifndef HAS_BIAS
#define HAS_BIAS 0
#endif
#ifndef LP_P
#define LP_P 2
#endif
#ifndef ACT
#define ACT 0
#endif
#ifndef RPI
#define RPI 1 /* CPUs, ROWS, GROUP 1: rows an item takes in turn */
#endif
#ifdef NATIVE_VW
#define VN NATIVE_VW
#endif
/* cl/activation.cl reads OP (the map's operation): none here. */
#define OP 0

#define FOLD (ROP <= 11)
#define NORMALIZE (ROP >= 32 && ROP <= 36)
#define SCAN (ROP == 48 || ROP == 49)
#ifndef SEGS
#define SEGS 1 /* scans: a block of a row scanned from the identity (CPUs; 1: in order) */
#endif
#define SCAN_BLOCKS 32 /* ... blocks a pass covers (in cache for the second) */
#ifndef VSCAN
#define VSCAN                                                                          \
    0 /* scans: float32 rows of stride 1 in vectors of this many, scanned in registers \
       */
#endif
/* Token pasting after expansion (common.cl's, for the vector types and index lists below). */
#ifndef DMLI_CAT
#define DMLI_CAT_(a, b) a##b
#define DMLI_CAT(a, b) DMLI_CAT_(a, b)
#endif
#if VSCAN
#define VS_CAT3(a, b, c) DMLI_CAT(DMLI_CAT(a, b), c)
#define VS_T DMLI_CAT(float, VSCAN)
#define VS_U DMLI_CAT(uint, VSCAN)
#define VS_BYTES (VSCAN * 4)
typedef struct __attribute__((packed)) {
    VS_T v;
} vs_unaligned;
#if ROP == 49
#define VS_OP(a, b) ((a) * (b))
#else
#define VS_OP(a, b) ((a) + (b))
#endif
/* VS_SHIFT(s, k): lane i takes lane i - k (i + k from the end when REVERSE), the identity
 * (zv's lanes, index VSCAN) where there is none. */
#define VS_IX4_F1 4, 0, 1, 2
#define VS_IX4_F2 4, 4, 0, 1
#define VS_IX4_R1 1, 2, 3, 4
#define VS_IX4_R2 2, 3, 4, 4
#define VS_IX8_F1 8, 0, 1, 2, 3, 4, 5, 6
#define VS_IX8_F2 8, 8, 0, 1, 2, 3, 4, 5
#define VS_IX8_F4 8, 8, 8, 8, 0, 1, 2, 3
#define VS_IX8_R1 1, 2, 3, 4, 5, 6, 7, 8
#define VS_IX8_R2 2, 3, 4, 5, 6, 7, 8, 8
#define VS_IX8_R4 4, 5, 6, 7, 8, 8, 8, 8
#define VS_IX16_F1 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
#define VS_IX16_F2 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define VS_IX16_F4 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
#define VS_IX16_F8 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7
#define VS_IX16_R1 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
#define VS_IX16_R2 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16
#define VS_IX16_R4 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16
#define VS_IX16_R8 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16
#if REVERSE
#define VS_IX(k) VS_CAT3(DMLI_CAT(VS_IX, VSCAN), _R, k)
#define VS_LAST(s) ((VS_T)((s).s0))
#else
#define VS_IX(k) VS_CAT3(DMLI_CAT(VS_IX, VSCAN), _F, k)
#if VSCAN == 16
#define VS_LAST(s) ((VS_T)((s).sF))
#elif VSCAN == 8
#define VS_LAST(s) ((VS_T)((s).s7))
#else
#define VS_LAST(s) ((VS_T)((s).s3))
#endif
#endif
/* OpenCL's shuffle2 (its masks constants: PoCL emits the same vpermt2ps as clang's
 * __builtin_shufflevector, which Oclgrind's uninitialised-value tracking flagged on 16 lanes,
 * wrongly: the values were right). */
#define VS_SHUFFLE(a, b, ix) shuffle2(a, b, (VS_U)(ix))
#define VS_SHIFT(s, k) DMLI_CAT(as_, VS_T)(VS_SHUFFLE(DMLI_CAT(as_, VS_U)(s), zv, VS_IX(k)))
#if STREAM && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define VS_PUT(p, v) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef VS_PUT
#define VS_PUT(p, v) (*(p) = (v))
#endif
#endif
#define TOPK (ROP == 56)
#define LRN (ROP == 64)
#define ARG (ROP == 0 || ROP == 1 || ROP == 34)
/* Folds that pick an element: ARGMAX, ARGMIN, MAX, MIN, and HARDMAX's argmax. */
#define PICK (ARG || ROP == 7 || ROP == 8)
/* Which way a pick looks: the largest (ARGMAX, MAX, HARDMAX) or the smallest. */
#define PICK_LARGEST (ROP == 0 || ROP == 7 || ROP == 34)

#if COLS
#define NL LANES
#else
#define NL (LANES / GROUP)
#endif

#if IN0_HALF
#define LOAD0(i) vload_half((i), (__global const half *)in0)
#else
#define LOAD0(i) ((COMPUTE_T)in0[(i)])
#endif
#if IN1_HALF
#define LOAD1(i) vload_half((i), (__global const half *)in1)
#else
#define LOAD1(i) ((COMPUTE_T)in1[(i)])
#endif
#if IN2_HALF
#define LOAD2(i) vload_half((i), (__global const half *)in2)
#else
#define LOAD2(i) ((COMPUTE_T)in2[(i)])
#endif
#if IN3_HALF
#define LOAD3(i) vload_half((i), (__global const half *)in3)
#else
#define LOAD3(i) ((COMPUTE_T)in3[(i)])
#endif

#if INT_COMPUTE
#define PARAM(i) ((COMPUTE_T)t[DMLI_RED_PARAM(i)])
#elif COMPUTE_DOUBLE
#define PARAM(i) as_double(t[DMLI_RED_PARAM(i)])
#else
#define PARAM(i) as_float((uint)t[DMLI_RED_PARAM(i)])
#endif

#include "activation.cl"
#include "exp.cl"

#if OUT0_HALF
#include "half.cl"
#define STORE0(o, v) dmli_store_half((__global ushort *)out0, (o), (COMPUTE_T)(v))
#else
#define STORE0(o, v) (out0[(o)] = (OUT0_T)(v))
#endif

/* The offset of coordinate r over `count` dimensions of the table from `dim` (innermost
 * first) in tensor x. */
static long offset_of(__constant long *dim, int count, ulong r, int x)
{
    long at = 0;
    for (int d = 0; d < count - 1; ++d, dim += DMLI_RED_DIM) {
        ulong n = (ulong)dim[0];
        /* In 32 bits when both fit: a GPU divides 64-bit integers in software. */
        ulong q = ((r | n) >> 32) == 0 ? (ulong)((uint)r / (uint)n) : r / n;
        at += (long)(r - q * n) * dim[1 + x];
        r = q;
    }
    /* The outermost coordinate is what is left of r (r is within the dimensions): no division
     * (a row of a reduction that keeps one dimension is found without any). */
    return count > 0 ? at + (long)r * dim[1 + x] : at;
}

#define KEPT_DIMS(t) ((t) + DMLI_RED_HEADER)
#define RED_DIMS(t) ((t) + DMLI_RED_HEADER + (t)[DMLI_RED_KEPT] * DMLI_RED_DIM)

/* ---- Picks, sums and their order ---- */
#if INT_COMPUTE
#define ABS(x) ((x) < 0 ? (COMPUTE_T)0 - (x) : (x))
#else
#define ABS(x) fabs(x)
#endif
/* x comes before y in a pick. A NaN never comes before a number (MAX and MIN ignore it, as
 * Direct3D's max and min; ARGMAX and ARGMIN pick a number), two NaNs tie. MAX orders -0 below
 * +0 and MIN the reverse (as the element-wise MAX and MIN); the arg picks tie them (numpy's and
 * ONNX's rule), so their ties decide by index. */
#if INT_COMPUTE
#define SIGNED_ZERO_FIRST(x, y) 0
#elif ROP == 7
#define SIGNED_ZERO_FIRST(x, y) ((x) == (y) && !signbit(x) && signbit(y))
#elif ROP == 8
#define SIGNED_ZERO_FIRST(x, y) ((x) == (y) && signbit(x) && !signbit(y))
#else
#define SIGNED_ZERO_FIRST(x, y) 0
#endif
#if INT_COMPUTE && PICK_LARGEST
#define BEFORE(x, y) ((x) > (y))
#elif INT_COMPUTE
#define BEFORE(x, y) ((x) < (y))
#elif PICK_LARGEST
#define BEFORE(x, y) (!isnan(x) && (isnan(y) || (x) > (y) || SIGNED_ZERO_FIRST(x, y)))
#else
#define BEFORE(x, y) (!isnan(x) && (isnan(y) || (x) < (y) || SIGNED_ZERO_FIRST(x, y)))
#endif
#if INT_COMPUTE
#define TIED(x, y) ((x) == (y))
#else
#define TIED(x, y) ((x) == (y) || (isnan(x) && isnan(y)))
#endif

/* LOG_SUM_EXP and the softmaxes fold in two passes: the row's maximum m, then the sum of
 * exp(x - m) (LOG_SUM_EXP: 1 where x is m, EXP_AT_MAX_ONE below). A
 * SOFTMAX whose output holds float32 or more keeps exp(x - m) there, so that the writing pass
 * divides (one exp per element). */
#define EXP_PASSES (ROP == 6 || ROP == 32 || ROP == 33)
#define SOFTMAX_STASH (ROP == 32 && !OUT0_HALF)
/* exp(x - m) is 1 where x is m for LOG_SUM_EXP: an infinite maximum makes the row's log-sum-exp
 * that infinity (as ONNX Runtime gives it), not exp(inf - inf). The softmaxes take IEEE's NaN
 * there, as ONNX Runtime and onnx.reference do: a row holding +inf, or only -inf, is NaN. For a
 * finite x = m both forms give exactly 1. */
#define EXP_AT_MAX_ONE (ROP == 6)
#if COMPUTE_DOUBLE
#define EXP_OF(x, m) (EXP_AT_MAX_ONE && (x) == (m) ? (COMPUTE_T)1 : exp((x) - (m)))
#else
/* e^(x - m) with the rounding error of x - m carried to first order (two-sum): float32's
 * x - m alone is off by up to |x - m| 2^-24 relative, which exp turns into as much relative
 * error of the result: up to 87 ULPs where e^(x - m) is a normal float (|x - m| < 87.4).
 * EXP_ROUNDED (the host sets it for rows of 64 elements or more, whose tolerance, 3N + 3 ULPs
 * in precision.md, covers those 87 and the rest) takes x - m as rounded: 10 vector operations
 * of 38 fewer per element (softmax over rows of 128 1.2x, docs/kernels.md). */
#ifndef EXP_ROUNDED
#define EXP_ROUNDED 0
#endif
static float exp_diff(float x, float m)
{
    float d = x - m;
    float e = dmli_expf_low(d); /* d <= 0 */
#if !EXP_ROUNDED
    float z = d - x;
    float err = (x - (d - z)) - (m + z);
    e = isfinite(err) ? e + e * err : e;
#endif
    return EXP_AT_MAX_ONE && x == m ? 1.0f : e;
}
#define EXP_OF(x, m) exp_diff((x), (m))
#endif

/* Lane state: a (a sum, a product, the picked value, LOG_SUM_EXP's and softmax's maximum), b
 * (LOG_SUM_EXP's and softmax's scaled sum, MVN's sum of squares), ix (the picked element's
 * index in its row, -1 while the lane is empty). */
typedef struct lane {
    COMPUTE_T a, b;
    long ix;
} lane;

#if ROP == 9
#define FOLD_INIT ((COMPUTE_T)1)
#else
#define FOLD_INIT ((COMPUTE_T)0)
#endif

/* Folds element x (index e) into a lane's state (a, b, ix: kept in arrays of their own while
 * a row is walked, so that the loop over the lanes vectorises) for the fold pass (FOLD ops, and the
 * first pass of the normalisations). */
static void visit(COMPUTE_T *a, COMPUTE_T *b, long *ix, COMPUTE_T x, long e, COMPUTE_T k)
{
    (void)k, (void)a, (void)b, (void)ix, (void)e;
#if PICK
#if INDEX_LAST
    if (*ix < 0 || BEFORE(x, *a) || TIED(x, *a)) {
#else
    if (*ix < 0 || BEFORE(x, *a)) {
#endif
        *a = x;
        *ix = e;
    }
#elif ROP == 10 || ROP == 2 || ROP == 5
    *a += x;
#elif ROP == 11 || ROP == 4 || (ROP == 36 && LP_P == 2)
    *a += x * x;
#elif ROP == 3 || (ROP == 36 && LP_P == 1)
    *a += ABS(x);
#elif ROP == 9
    *a *= x;
#elif EXP_PASSES
    /* The first pass: the maximum (a NaN ignored here: exp makes the sum NaN). */
    *a = x > *a ? x : *a;
#elif ROP == 35
    COMPUTE_T d = x - k;
    *a += d;
    *b += d * d;
#endif
}

/* A lane (a, b, ix) takes lane o's elements (o's elements all later in the fixed order of the
 * tree). */
static void merge_into(COMPUTE_T *a, COMPUTE_T *b, long *ix, COMPUTE_T oa, COMPUTE_T ob, long oix)
{
    (void)a, (void)b, (void)ix, (void)oa, (void)ob, (void)oix;
#if PICK
    if (oix >= 0 &&
        (*ix < 0 || BEFORE(oa, *a) || (TIED(oa, *a) && (INDEX_LAST ? oix > *ix : oix < *ix)))) {
        *a = oa;
        *ix = oix;
    }
#elif ROP == 9
    *a *= oa;
#elif EXP_PASSES
    *a = oa > *a ? oa : *a; /* the first pass's maximum */
    *b += ob;               /* the second pass's sum */
#else
    *a += oa;
    *b += ob;
#endif
}

static void merge(lane *s, lane o)
{
    merge_into(&s->a, &s->b, &s->ix, o.a, o.b, o.ix);
}

static lane lane_init(void)
{
    lane s;
#if EXP_PASSES
    s.a = -INFINITY;
#else
    s.a = FOLD_INIT;
#endif
    s.b = (COMPUTE_T)0;
    s.ix = -1;
    return s;
}

/* ---- The row walk ---- */
/* Tensor x's offset of element (q's outer reduced coordinates, run position u) and lane i's
 * column (COLS). The stride along the lanes (the run in ROWS mode, the columns in COLS mode)
 * is the constant 1 where the host knows it (LANE1_IN0 for input 0, LANE1_OUT0 for output 0,
 * LANE1_IN1 to LANE1_IN3 for the other inputs: MVN's scale and bias, a fused map's operand), so
 * that the loop over the lanes vectorises with vector loads (with a runtime stride, the scale
 * and bias of a layer normalisation were gathers: layernorm-384 1.03-1.07x without them). */
#ifndef LANE1_IN0
#define LANE1_IN0 0
#endif
#ifndef LANE1_IN1
#define LANE1_IN1 0
#endif
#ifndef LANE1_IN2
#define LANE1_IN2 0
#endif
#ifndef LANE1_IN3
#define LANE1_IN3 0
#endif
#ifndef LANE1_OUT0
#define LANE1_OUT0 0
#endif
#define LANE1_OF(x)          \
    ((x) == 0   ? LANE1_OUT0 \
     : (x) == 2 ? LANE1_IN0  \
     : (x) == 3 ? LANE1_IN1  \
     : (x) == 4 ? LANE1_IN2  \
     : (x) == 5 ? LANE1_IN3  \
                : 0)
#define LANE_S(x, v) (LANE1_OF(x) ? 1L : (v)[x])
#if COLS
#define COL_OF(i) (c0 + (i))
#define LANE_OK(u, i) (c0 + (i) < cols)
#define U_OF(base, i) (base)
#define U_STEP 1
#define U_BLOCK 1
#define FULL_LANES (c0 + LANES <= cols)
#define AT(x, u, i) (ro[x] + (u)*rs[x] + COL_OF(i) * LANE_S(x, cs))
#else
#define COL_OF(i) 0L
#define LANE_OK(u, i) ((u) < run)
#define U_OF(base, i) ((base) + j + (i)*GROUP)
#define U_STEP LANES
#define U_BLOCK LANES
#define FULL_LANES 1
#define AT(x, u, i) (ro[x] + (u)*LANE_S(x, rs))
#endif

/* A CPU's loop over a row's lanes at the native float width where the host says (VN): LLVM's
 * own choice on AVX-512 was 8 of the 16 lanes. */
#define DMLI_PRAGMA(x) _Pragma(#x)
#if defined(VN) && defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#define LANE_LOOP DMLI_PRAGMA(clang loop vectorize_width(VN))
#else
#define LANE_LOOP
#endif

/* CPUs, COLS folds (SYNC rows): the work-group's items (neighbouring columns) walk the rows in
 * step, a barrier every SYNC rows, so that the lines of a row are read together (an item's
 * 256 bytes a row alone missed at every row, 16 KiB apart); every item, past the columns too,
 * meets every barrier. */
#ifndef SYNC
#define SYNC 0
#endif
/* CPF (with SYNC, input 0's columns of stride 1): each item prefetches its NL columns of input 0
 * CPF rows ahead, a 64-byte line at a time (past the run's end too: a prefetch does not fault). */
#ifndef CPF
#define CPF 0
#endif
#if CPF
#define COLS_PREFETCH(ub)                                                              \
    {                                                                                  \
        __global const char *p_ = (__global const char *)(in0 + AT(2, (ub) + CPF, 0)); \
        for (int l_ = 0; l_ < NL * (int)sizeof(*in0); l_ += 64)                        \
            __builtin_prefetch(p_ + l_);                                               \
    }
#else
#define COLS_PREFETCH(ub)
#endif
#if COLS && SYNC
#define ROW_LOOP(BODY)                                               \
    for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {               \
        long ro[DMLI_RED_TENSORS];                                   \
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)                   \
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x); \
        for (long ub = 0; ub < run; ++ub) {                          \
            if (FULL_LANES) {                                        \
                COLS_PREFETCH(ub)                                    \
                LANE_LOOP                                            \
                for (int i = 0; i < NL; ++i) {                       \
                    long u = ub, e = e0 + u;                         \
                    (void)e;                                         \
                    BODY(i, u, e)                                    \
                }                                                    \
            } else {                                                 \
                for (int i = 0; i < NL; ++i) {                       \
                    long u = ub, e = e0 + u;                         \
                    (void)e;                                         \
                    if (LANE_OK(u, i)) {                             \
                        BODY(i, u, e)                                \
                    }                                                \
                }                                                    \
            }                                                        \
            if (ub % SYNC == SYNC - 1)                               \
                barrier(CLK_LOCAL_MEM_FENCE);                        \
        }                                                            \
    }
#else
/* BODY(i, u, e) for each element of the row: lane i, run position u, index e in the row; AT
 * gives a tensor's offset. Whole blocks of lanes first (no test per lane: the loop over the
 * lanes vectorises), then the rest. */
#define ROW_LOOP(BODY)                                               \
    for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {               \
        long ro[DMLI_RED_TENSORS];                                   \
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)                   \
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x); \
        long ub = 0;                                                 \
        if (FULL_LANES)                                              \
            for (; ub + U_BLOCK <= run; ub += U_STEP) {              \
                LANE_LOOP                                            \
                for (int i = 0; i < NL; ++i) {                       \
                    long u = U_OF(ub, i), e = e0 + u;                \
                    (void)e;                                         \
                    BODY(i, u, e)                                    \
                }                                                    \
            }                                                        \
        for (; ub < run; ub += U_STEP)                               \
            for (int i = 0; i < NL; ++i) {                           \
                long u = U_OF(ub, i), e = e0 + u;                    \
                (void)e;                                             \
                if (LANE_OK(u, i)) {                                 \
                    BODY(i, u, e)                                    \
                }                                                    \
            }                                                        \
    }

#endif

/* RBATCH (GPUs, the host's RB: a work-group a row, or an item a column): a lane's elements RB
 * at a time, each pass's loads of all RB issued before the first is used. A GPU issues in order and
 * waits at the first use of a load; element by element, a lane had one element (4 bytes of float32)
 * in flight, and a pass that stores (softmax's stash, the writing pass) may not have its next load
 * moved above the store by the compiler. Each lane folds its elements in the same order as
 * ROW_LOOP: the same results. RB_BEGIN ... RB_END wrap a pass; RB_EACH(S) runs S for each of
 * the RB elements of lane i (u its run position, e its index; r_ its slot in the batch). */
#if defined(RB) && !SYNC
#define RBATCH 1
#define RB_BEGIN                                                     \
    for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {               \
        long ro[DMLI_RED_TENSORS];                                   \
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)                   \
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x); \
        for (long ub = 0; ub < run; ub += RB * U_STEP) {
#define RB_END \
    }          \
    }
#define RB_EACH(S)                                      \
    _Pragma("unroll") for (int r_ = 0; r_ < RB; ++r_)   \
        _Pragma("unroll") for (int i = 0; i < NL; ++i)  \
    {                                                   \
        long u = U_OF(ub + r_ * U_STEP, i), e = e0 + u; \
        (void)e;                                        \
        if (u < run && LANE_OK(u, i)) {                 \
            S                                           \
        }                                               \
    }
#else
#define RBATCH 0
#endif

/* CPUs (VN set: float, ROWS, a work-item a row) where every tensor a pass reads or stashes
 * runs with stride 1 along the lanes: the lanes' running states of the passes that fold (every
 * fold and normalisation but the picks) as NV vectors of VN lanes held in registers, each full
 * block of the row read (and softmax's exponentials stashed) as NV vector loads. In arrays the
 * states went through memory each block (a store-to-load chain on the fold's latency: softmax's
 * sum of exponentials waited on it), and a block gathered lane by lane into a private array
 * came back as a vector through a dozen shuffles. The row's last, partial block is padded with
 * the fold's identity, so that each lane folds its own elements in order, as visit() does.
 * VN is the device's native width, so that no vector wider than the target's registers crosses
 * a call (-Wpsabi: float16 changes the x86-64 ABI below AVX-512). */
/* A map fused into the reads (PRE_OP): its other operand, the last input, along the run. */
#define LANE1_INP LANE1_OF(1 + NIN)
#ifndef PICK32
#define PICK32 0
#endif
#if defined(VN) && GROUP == 1 && !COLS && (!PICK || PICK32) && (FOLD || NORMALIZE) && \
    !INT_COMPUTE && !COMPUTE_DOUBLE && (VN == 2 || VN == 4 || VN == 8 || VN == 16) && \
    NL % VN == 0 && LANE1_IN0 && (!PRE_OP || LANE1_INP) && (!SOFTMAX_STASH || LANE1_OUT0)
#define VACC 1
#else
#define VACC 0
#endif
#if VACC
#define NV (NL / VN)
#define VEC_T DMLI_CAT(float, VN)
#define VLOAD(p) DMLI_CAT(vload, VN)(0, (p))
#define VLOAD_HALF(p) DMLI_CAT(vload_half, VN)(0, (p))
/* Global vectors at any float's alignment, through a packed struct: one vector load or store
 * (PoCL's vstore16 stored four pieces). */
typedef struct __attribute__((packed)) {
    VEC_T v;
} dmli_vec_unaligned;
#define VGLOAD(p) (((__global const dmli_vec_unaligned *)(p))->v)
#define VGSTORE(x, p) (((__global dmli_vec_unaligned *)(p))->v = (x))

/* combine()'s fixed tree on NV vectors of VN lanes (v, an array, modified), by MERGE(x, o)
 * (lane x takes lane o): lanes l and l + w for w = NL / 2 ... 1, the vectors' halves once w is
 * within a vector; lane 0's state into out. */
#define VTREE_IN2(t, MERGE, out) out = MERGE((t).x, (t).y);
#define VTREE_IN4(t, MERGE, out)            \
    {                                       \
        float2 t2_ = MERGE((t).lo, (t).hi); \
        VTREE_IN2(t2_, MERGE, out)          \
    }
#define VTREE_IN8(t, MERGE, out)            \
    {                                       \
        float4 t4_ = MERGE((t).lo, (t).hi); \
        VTREE_IN4(t4_, MERGE, out)          \
    }
#define VTREE_IN16(t, MERGE, out)           \
    {                                       \
        float8 t8_ = MERGE((t).lo, (t).hi); \
        VTREE_IN8(t8_, MERGE, out)          \
    }
#define VTREE_IN DMLI_CAT(VTREE_IN, VN)
#define VTREE(v, MERGE, out)                  \
    {                                         \
        DMLI_PRAGMA(unroll)                   \
        for (int w = NV / 2; w > 0; w /= 2) { \
            DMLI_PRAGMA(unroll)               \
            for (int h = 0; h < w; ++h)       \
                v[h] = MERGE(v[h], v[h + w]); \
        }                                     \
        VTREE_IN(v[0], MERGE, out)            \
    }
/* merge_into()'s operations: a the maximum (the exponential passes), the product or the sum;
 * b the sum. */
#if EXP_PASSES
#define MERGE_A(x, o) ((o) > (x) ? (o) : (x))
#elif ROP == 9
#define MERGE_A(x, o) ((x) * (o))
#else
#define MERGE_A(x, o) ((x) + (o))
#endif
#define MERGE_B(x, o) ((x) + (o))

#if PICK
/* The picks (PICK32: every index of the row fits an int): a lane's picked value and its index
 * in the row (-1: none yet) as vectors; the lane takes x where merge_into() would. */
#define VI_T DMLI_CAT(int, VN)
#if VN == 16
#define VIOTA ((int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#elif VN == 8
#define VIOTA ((int8)(0, 1, 2, 3, 4, 5, 6, 7))
#elif VN == 4
#define VIOTA ((int4)(0, 1, 2, 3))
#else
#define VIOTA ((int2)(0, 1))
#endif
#if INDEX_LAST
#define PICK_TIE(oi, si) ((oi) > (si))
#define PICK_STEP_TAKES(x, a) (BEFORE(x, a) || TIED(x, a))
#else
#define PICK_TIE(oi, si) ((oi) < (si))
#define PICK_STEP_TAKES(x, a) BEFORE(x, a)
#endif
/* Lane state (sa, si) takes (oa, oi): merge_into()'s rule. */
#define PTAKE(sa, si, oa, oi) \
    ((oi) >= 0 && ((si) < 0 || BEFORE(oa, sa) || (TIED(oa, sa) && PICK_TIE(oi, si))))
#define PSTEP(T, TI, ra, ri, sa_, si_, oa_, oi_) \
    T ra;                                        \
    TI ri;                                       \
    {                                            \
        TI t_ = PTAKE(sa_, si_, oa_, oi_);       \
        ra = select(sa_, oa_, t_);               \
        ri = select(si_, oi_, t_);               \
    }
/* combine()'s tree on the picks' vectors into (out_a, out_i): a vector of N lanes halves
 * into one of N / 2, down to the scalar. */
#define VPTREE_IN2(a, ix, out_a, out_i)                           \
    {                                                             \
        PSTEP(float, int, a1_, i1_, (a).x, (ix).x, (a).y, (ix).y) \
        out_a = a1_;                                              \
        out_i = i1_;                                              \
    }
#define VPTREE_IN4(a, ix, out_a, out_i)                              \
    {PSTEP(float2, int2, a2_, i2_, (a).lo, (ix).lo, (a).hi, (ix).hi) \
         VPTREE_IN2(a2_, i2_, out_a, out_i)}
#define VPTREE_IN8(a, ix, out_a, out_i)                                 \
    {                                                                   \
        PSTEP(float4, int4, a4_, i4_, (a).lo, (ix).lo, (a).hi, (ix).hi) \
        VPTREE_IN4(a4_, i4_, out_a, out_i)                              \
    }
#define VPTREE_IN16(a, ix, out_a, out_i)                                \
    {                                                                   \
        PSTEP(float8, int8, a8_, i8_, (a).lo, (ix).lo, (a).hi, (ix).hi) \
        VPTREE_IN8(a8_, i8_, out_a, out_i)                              \
    }
#define VPTREE_IN DMLI_CAT(VPTREE_IN, VN)
#define VPTREE(a, ix, out_a, out_i)                                \
    {                                                              \
        DMLI_PRAGMA(unroll)                                        \
        for (int w = NV / 2; w > 0; w /= 2) {                      \
            DMLI_PRAGMA(unroll)                                    \
            for (int h = 0; h < w; ++h) {                          \
                VI_T t_ = PTAKE(a[h], ix[h], a[h + w], ix[h + w]); \
                a[h] = select(a[h], a[h + w], t_);                 \
                ix[h] = select(ix[h], ix[h + w], t_);              \
            }                                                      \
        }                                                          \
        VPTREE_IN(a[0], ix[0], out_a, out_i)                       \
    }
#endif
DMLI_EXP_LOW_VECTOR(VEC_T, DMLI_CAT(uint, VN))

/* visit() on NL lanes at once: the same operations in the same order. */
static void visitv(VEC_T *a, VEC_T *b, VEC_T x, VEC_T k)
{
    (void)a, (void)b, (void)k;
#if ROP == 10 || ROP == 2 || ROP == 5
    *a += x;
#elif ROP == 11 || ROP == 4 || (ROP == 36 && LP_P == 2)
    *a += x * x;
#elif ROP == 3 || (ROP == 36 && LP_P == 1)
    *a += fabs(x);
#elif ROP == 9
    *a *= x;
#elif EXP_PASSES
    *a = x > *a ? x : *a;
#elif ROP == 35
    VEC_T d = x - k;
    *a += d;
    *b += d * d;
#endif
}
/* The first pass's padding: x that leaves a lane's state as it is (-0 adds nothing to any sum,
 * -0 included; MVN's x - k is then +0). */
#if ROP == 9
#define PAD_X(i) 1.0f
#elif EXP_PASSES
#define PAD_X(i) (-INFINITY)
#elif ROP == 35
#define PAD_X(i) k[i]
#else
#define PAD_X(i) (-0.0f)
#endif

#if !COMPUTE_DOUBLE && EXP_PASSES
/* exp_diff on NL lanes: the same operations. */
static VEC_T exp_diffv(VEC_T x, VEC_T m)
{
    VEC_T d = x - m;
    VEC_T e = dmli_expf_low(d);
#if !EXP_ROUNDED
    VEC_T z = d - x;
    VEC_T err = (x - (d - z)) - (m + z);
    e = select(e, e + e * err, isfinite(err));
#endif
#if EXP_AT_MAX_ONE
    e = select(e, (VEC_T)1.0f, x == m);
#endif
    return e;
}
#endif

/* ROW_LOOP in blocks of NL: FULL(ub) a full block from run position ub; a partial block's
 * lanes ELEM(i, u) (side effects only where u is in the row) or PAD(i), its vector h folded by
 * FOLDV(h, v). */
#define VROW_LOOP(FULL, ELEM, PAD, FOLDV)                            \
    for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {               \
        long ro[DMLI_RED_TENSORS];                                   \
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)                   \
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x); \
        long ub = 0;                                                 \
        for (; ub + NL <= run; ub += NL) {                           \
            DMLI_PRAGMA(unroll)                                      \
            for (int h = 0; h < NV; ++h) {                           \
                FULL(ub + h * VN, h)                                 \
            }                                                        \
        }                                                            \
        if (ub < run) {                                              \
            COMPUTE_T v_[NL];                                        \
            for (int i = 0; i < NL; ++i) {                           \
                long u = ub + i;                                     \
                v_[i] = u < run ? ELEM(i, u) : PAD(i);               \
            }                                                        \
            DMLI_PRAGMA(unroll)                                      \
            for (int h = 0; h < NV; ++h) {                           \
                FOLDV(h, VLOAD(v_ + h * VN))                         \
            }                                                        \
        }                                                            \
    }
#endif

#if FOLD || NORMALIZE
/* Combines the lanes of a row (ROWS) into s[0] (every item's); COLS keeps them apart in s. The
 * lanes' states come in the arrays a, b, ix (an item's NL lanes); a CPU's tree runs on them
 * (structs built per lane were a scatter per row). */
#define TREE_B (EXP_PASSES || ROP == 35)
static void combine(lane *s, COMPUTE_T *a, COMPUTE_T *b, long *ix, __local lane *shared)
{
#if COLS
    (void)shared;
    for (int i = 0; i < NL; ++i)
        s[i] = (lane){a[i], b[i], ix[i]};
#elif GROUP > 1
    /* The group's lane states as a structure of arrays in its local memory (the lanes' array of
     * structs reinterpreted: the same bytes): a warp's lanes read and write consecutive words of
     * each, one wavefront a request, where 16-byte structs spread a warp over 512 bytes of banks
     * (4 wavefronts a request, 0.84-0.91 replays: the GPU memory model, 2026-11-30). b only
     * where a fold keeps it (the exponential passes, MVN), the index only for picks. The same
     * tree, the same merges: the same results. */
    __local COMPUTE_T *la = (__local COMPUTE_T *)shared, *lb = la + GROUP;
    __local long *li = (__local long *)(lb + GROUP);
    (void)lb, (void)li;
    uint j = get_local_id(0);
    la[j] = a[0];
#if TREE_B
    lb[j] = b[0];
#endif
#if PICK
    li[j] = ix[0];
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint w = GROUP / 2; w > 0; w /= 2) {
        if (j < w) {
            COMPUTE_T ma = la[j], mb = (COMPUTE_T)0;
            long mi = -1;
#if TREE_B
            mb = lb[j];
            COMPUTE_T ob = lb[j + w];
#else
            COMPUTE_T ob = (COMPUTE_T)0;
#endif
#if PICK
            mi = li[j];
            long oi = li[j + w];
#else
            long oi = -1;
#endif
            merge_into(&ma, &mb, &mi, la[j + w], ob, oi);
            la[j] = ma;
#if TREE_B
            lb[j] = mb;
#endif
#if PICK
            li[j] = mi;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    s[0].a = la[0];
#if TREE_B
    s[0].b = lb[0];
#else
    s[0].b = (COMPUTE_T)0;
#endif
#if PICK
    s[0].ix = li[0];
#else
    s[0].ix = -1;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    (void)shared;
    for (int w = LANES / 2; w > 0; w /= 2)
        for (int l = 0; l < w; ++l)
            merge_into(&a[l], &b[l], &ix[l], a[l + w], b[l + w], ix[l + w]);
    s[0] = (lane){a[0], b[0], ix[0]};
#endif
}
#endif

/* The lane whose result element i of a COLS item (or every lane of a row) reads. */
#if COLS
#define RESULT_LANE(i) s[(i)]
#else
#define RESULT_LANE(i) s[0]
#endif

/* The row's value at (u, i): input 0, or with a map fused into the reads (PRE_OP: the map's
 * ADD 1, SUBTRACT 2 or MULTIPLY 3), input 0 with the last input (in the compute type: a float32
 * intermediate the map would have stored holds the same value). */
#if PRE_OP
#if NIN == 2
#define LOADP(i) LOAD1(i)
#elif NIN == 3
#define LOADP(i) LOAD2(i)
#else
#define LOADP(i) LOAD3(i)
#endif
#if PRE_OP == 1
#define PRE_X(a, b) ((a) + (b))
#elif PRE_OP == 2
#define PRE_X(a, b) ((a) - (b))
#else
#define PRE_X(a, b) ((a) * (b))
#endif
#define X_AT(u, i) PRE_X(LOAD0(AT(2, u, i)), LOADP(AT(1 + NIN, u, i)))
#else
#define X_AT(u, i) LOAD0(AT(2, u, i))
#endif

#if VACC
/* A full block's values from run position ub, every lane's stride 1 (VACC). */
#if IN0_HALF
#define VLOAD0(at) VLOAD_HALF((__global const half *)in0 + (at))
#else
#define VLOAD0(at) VGLOAD(in0 + (at))
#endif
#if PRE_OP
#if NIN == 2
#define VLOADP_PTR in1
#define VLOADP_HALF IN1_HALF
#elif NIN == 3
#define VLOADP_PTR in2
#define VLOADP_HALF IN2_HALF
#else
#define VLOADP_PTR in3
#define VLOADP_HALF IN3_HALF
#endif
#if VLOADP_HALF
#define VLOADP(at) VLOAD_HALF((__global const half *)VLOADP_PTR + (at))
#else
#define VLOADP(at) VGLOAD(VLOADP_PTR + (at))
#endif
#define VX_ROW(R, ub) PRE_X(VLOAD0((R)[2] + (ub)), VLOADP((R)[1 + NIN] + (ub)))
#define VX_FULL(ub) VX_ROW(ro, ub)
#else
#define VX_ROW(R, ub) VLOAD0((R)[2] + (ub))
#define VX_FULL(ub) VX_ROW(ro, ub)
#endif
#endif

/* NORMALIZE's second pass: the normalised value of element x (lane i, run position u, index e)
 * from the row's statistics st0, st1 (and pick), then the activation, stored. */
#if ROP == 32
#define NORMALISED(x, i, u, e) (EXP_OF(x, st0[i]) * st1[i])
#elif ROP == 33
#define NORMALISED(x, i, u, e) (((x)-st0[i]) - st1[i])
#elif ROP == 34
#define NORMALISED(x, i, u, e) ((COMPUTE_T)((e) == pick[i] ? 1 : 0))
#elif ROP == 35
#if USE_MEAN
/* st0: the row's shift (its first finite element), st2: the mean of the shifted row. x - shift
 * is exact where x is near it (a near-constant row, whose mean a float cannot hold: x - mean
 * through the rounded mean was off by 1.3e-3 for a row of 1000 +- 0.0125), and the shifted
 * mean is small, so its rounding is too. */
#define MVN_MEAN(x, i) (((x)-st0[i]) - st2[i])
#else
#define MVN_MEAN(x, i) (x)
#endif
#if USE_VARIANCE
#define MVN_VAR(y, i) ((y)*st1[i]) /* st1: 1 / the deviation */
#else
#define MVN_VAR(y, i) (y)
#endif
/* NORMALISED_B: with the element's scale and bias given (sc, bi: RBATCH loads them
 * beforehand); NORMALISED loads them where the element is normalised. */
#if HAS_SCALE
#define MVN_SCALE(y, sc) ((y) * (sc))
#else
#define MVN_SCALE(y, sc) (y)
#endif
#if HAS_BIAS
#define MVN_BIAS(y, bi) ((y) + (bi))
#else
#define MVN_BIAS(y, bi) (y)
#endif
#define NORMALISED_B(x, i, u, e, sc, bi) MVN_BIAS(MVN_SCALE(MVN_VAR(MVN_MEAN(x, i), i), sc), bi)
#define NORMALISED(x, i, u, e) NORMALISED_B(x, i, u, e, LOAD1(AT(3, u, i)), LOAD2(AT(4, u, i)))
#elif ROP == 36
#define NORMALISED(x, i, u, e) ((x) / st0[i])
#endif
#ifndef NORMALISED_B
#define NORMALISED_B(x, i, u, e, sc, bi) NORMALISED(x, i, u, e)
#endif
#if SOFTMAX_STASH
#define WRITE_BODY(i, u, e)                                \
    {                                                      \
        long o_ = AT(0, u, i);                             \
        out0[o_] = (OUT0_T)((COMPUTE_T)out0[o_] * st1[i]); \
    }
#else
#define WRITE_BODY(i, u, e)                             \
    {                                                   \
        COMPUTE_T y_ = NORMALISED(X_AT(u, i), i, u, e); \
        STORE0(AT(0, u, i), ACTIVATE(y_));              \
    }
#endif
/* STREAM (CPUs, a row per item, output 0 of stride 1 along the run, past a quarter of the cache:
 * src/launch_reduce.c): the writing pass stores whole 64-byte lines without reading them first
 * (non-temporal), as the map's STREAM does: the elements up to a line boundary one by one, then
 * blocks of up to RS_CAP elements computed by the vectorised loop into private memory and
 * stored as lines, then the tail. The same values and conversions as WRITE_BODY. Every lane of
 * a ROWS item holds the row's statistics, so lane 0's serve. */
#ifndef STREAM
#define STREAM 0
#endif
#if STREAM && NORMALIZE && !COLS && GROUP == 1 && LANE1_OUT0 && !SOFTMAX_STASH
#define WRITE_STREAMS 1
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define PUT_LINE(p, v) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef PUT_LINE
#define PUT_LINE(p, v) (*(p) = (v))
#endif
#define RS_CAP 128
#define RS_ELEMENT(u, e) ACTIVATE(NORMALISED(X_AT(u, 0), 0, u, e))
#if OUT0_HALF
#define RS_T ushort
#define RS_VALUE(v) dmli_half_value((COMPUTE_T)(v))
#else
#define RS_T OUT0_T
#define RS_VALUE(v) ((OUT0_T)(v))
#endif
/* Elements u0 .. u0 + nb - 1 of the run (nb <= RS_CAP, whole lines of RS_T) as lines at orow + u0.
 */
#define RS_LINES(orow, u0, nb)                                           \
    do {                                                                 \
        union {                                                          \
            RS_T a[RS_CAP];                                              \
            uint16 v[RS_CAP * sizeof(RS_T) / 64];                        \
        } b_;                                                            \
        LANE_LOOP                                                        \
        for (int k_ = 0; k_ < (int)(nb); ++k_) {                         \
            long u = (u0) + k_, e = e0 + u;                              \
            (void)e;                                                     \
            b_.a[k_] = RS_VALUE(RS_ELEMENT(u, e));                       \
        }                                                                \
        for (int l_ = 0; l_ < (int)((nb) * sizeof(RS_T) / 64); ++l_)     \
            PUT_LINE((__global uint16 *)((orow) + (u0)) + l_, b_.v[l_]); \
    } while (0)
#define WRITE_ROW_STREAMED()                                                                  \
    for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {                                        \
        long ro[DMLI_RED_TENSORS];                                                            \
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)                                            \
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);                          \
        __global RS_T *orow = (__global RS_T *)out0 + ro[0];                                  \
        ulong a_ = (ulong)orow;                                                               \
        long head = a_ % sizeof(RS_T) ? run : (long)(((64 - (a_ & 63)) & 63) / sizeof(RS_T)); \
        head = head < run ? head : run;                                                       \
        long u_ = 0;                                                                          \
        for (; u_ < head; ++u_)                                                               \
            WRITE_BODY(0, u_, e0 + u_)                                                        \
        for (; u_ + RS_CAP <= run; u_ += RS_CAP)                                              \
            RS_LINES(orow, u_, RS_CAP);                                                       \
        long whole_ = (run - u_) * (long)sizeof(RS_T) / 64 * 64 / (long)sizeof(RS_T);         \
        if (whole_ > 0)                                                                       \
            RS_LINES(orow, u_, whole_);                                                       \
        for (u_ += whole_; u_ < run; ++u_)                                                    \
            WRITE_BODY(0, u_, e0 + u_)                                                        \
    }
#else
#define WRITE_STREAMS 0
#endif
/* The exponential pass: each lane's sum of exp(x - m), m in k. EXP_ELEM: one element's
 * exp(x - m) (stored where the writing pass will read it, SOFTMAX_STASH). */
#if SOFTMAX_STASH
static COMPUTE_T stash_exp(__global OUT0_T *out0, long o, COMPUTE_T x, COMPUTE_T m)
{
    COMPUTE_T ex = EXP_OF(x, m);
    out0[o] = (OUT0_T)ex;
    return ex;
}
#define EXP_ELEM(i, u) stash_exp(out0, AT(0, u, i), X_AT(u, i), k[i])
#else
#define EXP_ELEM(i, u) EXP_OF(X_AT(u, i), k[i])
#endif
#if SOFTMAX_STASH
#define EXP_BODY(i, u, e)                                  \
    {                                                      \
        COMPUTE_T x_ = X_AT(u, i), ex_ = EXP_OF(x_, k[i]); \
        sb[i] += ex_;                                      \
        out0[AT(0, u, i)] = (OUT0_T)ex_;                   \
    }
#else
#define EXP_BODY(i, u, e)          \
    {                              \
        COMPUTE_T x_ = X_AT(u, i); \
        sb[i] += EXP_OF(x_, k[i]); \
    }
#endif

/* SOFTMAX_PAIRS (CPUs, VACC, RPI > 1; PAIRS: the host's word that every row is one run of
 * whole blocks of NL, short enough that two stay in the L1 cache through the three passes):
 * a float32 softmax takes its item's rows two at a time: a row's passes are chains of latency (the
 * maximum's and the sum's trees, the exponentials' polynomial, the reciprocal) that the core's
 * window did not overlap with the next row's; two rows' chains interleaved in the code do.
 * Each row's operations and their order are those of the one-row path: the same results. */
#ifndef PAIRS
#define PAIRS 0
#endif
#if PAIRS && VACC && ROP == 32 && SOFTMAX_STASH && RPI > 1 && !COLS && GROUP == 1 && NOUT == 1
#define SOFTMAX_PAIRS 1
#if PRE_OP && NIN == 2
#define PAIR_P in1
#define PAIR_P_BASE in1_base
#define PAIR_P_T IN1_T
#elif PRE_OP && NIN == 3
#define PAIR_P in2
#define PAIR_P_BASE in2_base
#define PAIR_P_T IN2_T
#elif PRE_OP
#define PAIR_P in3
#define PAIR_P_BASE in3_base
#define PAIR_P_T IN3_T
#endif
static void softmax_pair(__constant long *t, int kept, ulong r, long run, __global OUT0_T *out0,
                         long out0_base, __global const IN0_T *in0, long in0_base
#if PRE_OP
                         ,
                         __global const PAIR_P_T *PAIR_P, long PAIR_P_BASE
#endif
)
{
    long ra[DMLI_RED_TENSORS] = {0}, rb[DMLI_RED_TENSORS] = {0};
    ra[0] = out0_base + offset_of(KEPT_DIMS(t), kept, r, 0);
    rb[0] = out0_base + offset_of(KEPT_DIMS(t), kept, r + 1, 0);
    ra[2] = in0_base + offset_of(KEPT_DIMS(t), kept, r, 2);
    rb[2] = in0_base + offset_of(KEPT_DIMS(t), kept, r + 1, 2);
#if PRE_OP
    ra[1 + NIN] = PAIR_P_BASE + offset_of(KEPT_DIMS(t), kept, r, 1 + NIN);
    rb[1 + NIN] = PAIR_P_BASE + offset_of(KEPT_DIMS(t), kept, r + 1, 1 + NIN);
#endif
    VEC_T ma[NV], mb[NV], sa[NV], sb[NV], unused;
    DMLI_PRAGMA(unroll)
    for (int h = 0; h < NV; ++h) {
        ma[h] = mb[h] = -INFINITY;
        sa[h] = sb[h] = 0.0f;
    }
    /* The maxima (visitv's operation), the first pass prefetching as the one-row path's. */
    for (long ub = 0; ub < run; ub += NL) {
        DMLI_PRAGMA(unroll)
        for (int h = 0; h < NV; ++h) {
#if RPF
            __builtin_prefetch(in0 + ra[2] + ub + h * VN + RPF);
            __builtin_prefetch(in0 + rb[2] + ub + h * VN + RPF);
#endif
            visitv(&ma[h], &unused, VX_ROW(ra, ub + h * VN), unused);
            visitv(&mb[h], &unused, VX_ROW(rb, ub + h * VN), unused);
        }
    }
    float mxa, mxb;
    VTREE(ma, MERGE_A, mxa)
    VTREE(mb, MERGE_A, mxb)
    VEC_T ka = (VEC_T)mxa, kb = (VEC_T)mxb;
    /* The exponentials, stashed in the output, and their sums. */
    for (long ub = 0; ub < run; ub += NL) {
        DMLI_PRAGMA(unroll)
        for (int h = 0; h < NV; ++h) {
            long u = ub + h * VN;
            VEC_T ea = exp_diffv(VX_ROW(ra, u), ka), eb = exp_diffv(VX_ROW(rb, u), kb);
            VGSTORE(ea, out0 + ra[0] + u);
            VGSTORE(eb, out0 + rb[0] + u);
            sa[h] += ea;
            sb[h] += eb;
        }
    }
    float suma, sumb;
    VTREE(sa, MERGE_B, suma)
    VTREE(sb, MERGE_B, sumb)
    float ia = 1.0f / suma, ib = 1.0f / sumb;
    /* Each stashed exponential times 1 / the sum. */
    for (long u = 0; u < run; u += VN) {
        VGSTORE(VGLOAD(out0 + ra[0] + u) * ia, out0 + ra[0] + u);
        VGSTORE(VGLOAD(out0 + rb[0] + u) * ib, out0 + rb[0] + u);
    }
}
#else
#define SOFTMAX_PAIRS 0
#endif

__kernel void reduce_rows(__constant long *t, __global OUT0_T *out0, long out0_base
#if NOUT > 1
                          ,
                          __global OUT1_T *out1, long out1_base
#endif
                          ,
                          __global const IN0_T *in0, long in0_base
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
)
{
    int kept = (int)t[DMLI_RED_KEPT], outer = (int)t[DMLI_RED_OUTER];
    ulong rows = (ulong)t[DMLI_RED_ROWS];
    long n = t[DMLI_RED_N], run = t[DMLI_RED_RUN], cols = t[DMLI_RED_COLS];
    __constant long *red = RED_DIMS(t);
    long rs[DMLI_RED_TENSORS], cs[DMLI_RED_TENSORS], base_of[DMLI_RED_TENSORS];
    for (int x = 0; x < DMLI_RED_TENSORS; ++x) {
        rs[x] = t[DMLI_RED_RUN_S(x)];
        cs[x] = t[DMLI_RED_COL_S(x)];
    }
#if (FOLD || NORMALIZE) && GROUP > 1 && !COLS
    __local lane shared[GROUP];
#elif FOLD || NORMALIZE
    __local lane shared[1];
#endif
    COMPUTE_T q0 = PARAM(2), q1 = PARAM(3), q2 = PARAM(4);
    COMPUTE_T g0 = PARAM(5), g1 = PARAM(6), g2 = PARAM(7);
    (void)q0, (void)q1, (void)q2, (void)g0, (void)g1, (void)g2, (void)cols, (void)cs;
#if LRN
    /* An item per element: dimension 0 the element, 1 the row. The window: the run (the
     * innermost reduced dimension) and at most one outer reduced dimension (normalisation
     * keeps an LRN's reduced dimensions apart), each from p - floor((size - 1) / 2) to
     * p + ceil((size - 1) / 2), clipped. */
    ulong r = get_global_id(1);
    long e = (long)get_global_id(0);
    if (r >= rows || e >= n)
        return;
    long at0 = in0_base + offset_of(KEPT_DIMS(t), kept, r, 2);
    long size = (long)q0, before = (size - 1) / 2, after = size - 1 - before;
    long u = e % run, q = e / run, nq = n / run;
    long qs = outer > 0 ? red[1 + 2] : 0;
    long u_lo = max(u - before, 0L), u_hi = min(u + after, run - 1);
    long q_lo = max(q - before, 0L), q_hi = min(q + after, nq - 1);
    COMPUTE_T sum = 0;
    for (long qq = q_lo; qq <= q_hi; ++qq)
        for (long uu = u_lo; uu <= u_hi; ++uu) {
            COMPUTE_T v = LOAD0(at0 + qq * qs + uu * rs[2]);
            sum += v * v;
        }
    COMPUTE_T x = LOAD0(at0 + q * qs + u * rs[2]);
    COMPUTE_T y = x / pow(PARAM(1) + q1 / (COMPUTE_T)size * sum, q2);
    long o = out0_base + offset_of(KEPT_DIMS(t), kept, r, 0) + q * (outer > 0 ? red[1 + 0] : 0) +
             u * rs[0];
    STORE0(o, y);
#elif TOPK
    /* An item per element: dimension 0 the element, 1 the row. */
    ulong r = get_global_id(1);
    long e = (long)get_global_id(0);
    if (r >= rows || e >= n)
        return;
    long at0 = in0_base + offset_of(KEPT_DIMS(t), kept, r, 2);
    COMPUTE_T x = LOAD0(at0 + e * rs[2]);
    long rank = 0;
    for (long e2 = 0; e2 < n; ++e2) {
        COMPUTE_T v = LOAD0(at0 + e2 * rs[2]);
#if INT_COMPUTE && SMALLEST
        bool first = v < x;
#elif INT_COMPUTE
        bool first = v > x;
#elif SMALLEST
        /* The K smallest: NaNs after every number (numpy's sort). */
        bool first = (!isnan(v) && isnan(x)) || v < x;
#else
        /* The K largest: NaNs before every number. */
        bool first = (isnan(v) && !isnan(x)) || v > x;
#endif
        bool tied = TIED(v, x);
        rank += first || (tied && e2 < e);
    }
    if (rank < (long)q0) {
        STORE0(out0_base + offset_of(KEPT_DIMS(t), kept, r, 0) + rank * rs[0], x);
#if NOUT > 1
        out1[out1_base + offset_of(KEPT_DIMS(t), kept, r, 1) + rank * rs[1]] = (OUT1_T)e;
#endif
    }
    (void)outer, (void)red;
#else
#if COLS
    /* Dimension 0: LANES columns per item; 1: the other kept coordinates. */
    ulong r = get_global_id(1);
    long c0 = (long)get_global_id(0) * LANES;
#if SYNC
    if (r >= rows) /* the items past the columns meet the barriers */
        return;
#else
    if (r >= rows || c0 >= cols)
        return;
#endif
    uint j = 0;
#elif GROUP > 1
    ulong r = get_group_id(0);
    uint j = get_local_id(0);
    if (r >= rows)
        return;
#else
    /* CPUs: an item's RPI rows in turn (a row's chains of latency overlap the next's; PoCL's
     * scheduling, and the table's reads, once for them all). */
    uint j = 0;
    ulong r_end = min(rows, (get_global_id(0) + 1) * (ulong)RPI);
    for (ulong r = get_global_id(0) * (ulong)RPI; r < r_end; ++r) {
#endif
    (void)j;
#if SOFTMAX_PAIRS
    /* Two rows of a float softmax at once where each is one run of whole blocks: the same
     * operations in the same order as one row's (below), the two rows' chains side by side. */
    if (r + 1 < r_end) {
        softmax_pair(t, kept, r, run, out0, out0_base, in0, in0_base
#if PRE_OP
                     ,
                     PAIR_P, PAIR_P_BASE
#endif
        );
        ++r;
        continue;
    }
#endif
    base_of[0] = out0_base + offset_of(KEPT_DIMS(t), kept, r, 0);
#if NOUT > 1
    base_of[1] = out1_base + offset_of(KEPT_DIMS(t), kept, r, 1);
#else
    base_of[1] = 0;
#endif
    base_of[2] = in0_base + offset_of(KEPT_DIMS(t), kept, r, 2);
#if NIN > 1
    base_of[3] = in1_base + offset_of(KEPT_DIMS(t), kept, r, 3);
#else
    base_of[3] = 0;
#endif
#if NIN > 2
    base_of[4] = in2_base + offset_of(KEPT_DIMS(t), kept, r, 4);
#else
    base_of[4] = 0;
#endif
#if NIN > 3
    base_of[5] = in3_base + offset_of(KEPT_DIMS(t), kept, r, 5);
#else
    base_of[5] = 0;
#endif

#if SCAN && GROUP > 1 && !COLS
    /* GPUs: a work-group per row, GROUP elements of it at a time (coalesced): a Hillis-Steele
     * scan of the chunk in local memory, a fixed tree (one result whatever the device), after
     * the carry of the chunks before it; from the end when REVERSE. The error bound of a float
     * scan holds in any order (reference/precision.md). An item a row (below) read its row
     * alone, a sector per element across a warp, with one item per group (the first H200
     * run, 2026-11-28: cumsum of 4096 rows of 4096 at 0.13 of the copy). */
    __local COMPUTE_T part[GROUP];
    const COMPUTE_T ident = (COMPUTE_T)(ROP == 49 ? 1 : 0);
    COMPUTE_T carry = ident;
    long nq = n / run;
    for (long qi = 0; qi < nq; ++qi) {
        long q = REVERSE ? nq - 1 - qi : qi;
        long ro[DMLI_RED_TENSORS];
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);
        /* The next chunk's element is loaded before this chunk's tree, so that its latency
         * passes during the tree's barriers (a load waited on at once, then the tree, left
         * both in turn). */
        COMPUTE_T next = j < run ? LOAD0(AT(2, REVERSE ? run - 1 - (long)j : (long)j, 0)) : ident;
        for (long u0 = 0; u0 < run; u0 += GROUP) {
            long ui = u0 + (long)j, u = REVERSE ? run - 1 - ui : ui;
            part[j] = next;
            long un = ui + GROUP;
            next = un < run ? LOAD0(AT(2, REVERSE ? run - 1 - un : un, 0)) : ident;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint w = 1; w < GROUP; w *= 2) {
                COMPUTE_T y = part[j];
                if (j >= w)
#if ROP == 49
                    y = part[j - w] * y;
#else
                    y = part[j - w] + y;
#endif
                barrier(CLK_LOCAL_MEM_FENCE);
                part[j] = y;
                barrier(CLK_LOCAL_MEM_FENCE);
            }
#if ROP == 49
            COMPUTE_T incl = carry * part[j], excl = j == 0 ? carry : carry * part[j - 1];
#else
            COMPUTE_T incl = carry + part[j], excl = j == 0 ? carry : carry + part[j - 1];
#endif
            if (ui < run)
                STORE0(AT(0, u, 0), EXCLUSIVE ? excl : incl);
#if ROP == 49
            carry = carry * part[GROUP - 1];
#else
            carry = carry + part[GROUP - 1];
#endif
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
#elif SCAN && !COLS && VSCAN
    /* CPUs, float32 rows of stride 1 (src/launch_reduce.c): VSCAN elements a vector, each
     * vector scanned in registers (log2 VSCAN steps: the vector plus itself shifted by 1, 2, 4
     * ... lanes towards the walk's end, the identity shifted in), then offset by the carry of
     * the vectors before it, whose chain is one operation a vector (the vectors' own scans are
     * independent, so the processor overlaps them). The elements before the output's first
     * whole vector in the walk's order, and the tail, go one by one. Stores whole non-temporal
     * lines with STREAM. The error bound of a float scan holds in any order
     * (reference/precision.md). */
    const COMPUTE_T ident = (COMPUTE_T)(ROP == 49 ? 1 : 0);
    /* The identity's bits as a value the compiler cannot see (run is never negative): with a
     * constant it lowers the shifts to masked expands (vexpandps), 2-3x slower than the
     * two-source permutes it emits for this. */
    const VS_U zv = (VS_U)(as_uint(ident) | (uint)((ulong)run >> 63));
    COMPUTE_T c = ident;
    /* Element ui of the walk one by one (the head and the tail), c the carry. */
#define VS_ONE(ui)                                       \
    {                                                    \
        const long u_ = REVERSE ? run - 1 - (ui) : (ui); \
        const COMPUTE_T before_ = c;                     \
        c = VS_OP(before_, xr[u_]);                      \
        yr[u_] = EXCLUSIVE ? before_ : c;                \
    }
    long nq = n / run;
    for (long qi = 0; qi < nq; ++qi) {
        long q = REVERSE ? nq - 1 - qi : qi;
        long ro[DMLI_RED_TENSORS];
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);
        __global const float *xr = (__global const float *)in0 + ro[2];
        __global float *yr = (__global float *)out0 + ro[0];
        /* The elements before the first aligned vector of the output, in the walk's order. */
        ulong ya = (ulong)yr;
        long head = ya % sizeof(float) ? run
                    : REVERSE
                        ? (long)(((ya + (ulong)run * sizeof(float)) % VS_BYTES) / sizeof(float))
                        : (long)(((VS_BYTES - ya % VS_BYTES) % VS_BYTES) / sizeof(float));
        head = head < run ? head : run;
        long nvec = (run - head) / VSCAN;
        for (long ui = 0; ui < head; ++ui)
            VS_ONE(ui);
        VS_T cv = (VS_T)c;
        for (long k = 0; k < nvec; ++k) {
            long u0 = REVERSE ? run - head - (k + 1) * VSCAN : head + k * VSCAN;
            VS_T s = ((__global const vs_unaligned *)(xr + u0))->v;
            s = VS_OP(s, VS_SHIFT(s, 1));
            s = VS_OP(s, VS_SHIFT(s, 2));
#if VSCAN >= 8
            s = VS_OP(s, VS_SHIFT(s, 4));
#endif
#if VSCAN >= 16
            s = VS_OP(s, VS_SHIFT(s, 8));
#endif
            VS_T o = VS_OP(cv, EXCLUSIVE ? VS_SHIFT(s, 1) : s);
            VS_PUT((__global VS_T *)(yr + u0), o);
            cv = VS_OP(cv, VS_LAST(s));
        }
        c = cv.s0;
        for (long ui = head + nvec * VSCAN; ui < run; ++ui)
            VS_ONE(ui);
    }
#elif SCAN && !COLS && SEGS > 1
        /* CPUs, a row per item in blocks of SEGS elements: each block scanned from the identity
         * (the blocks' chains of additions independent: the processor overlaps them, where a scan
         * in order waits on each addition), then, in cache, each block's results offset by the
         * carry of the blocks before it. The error bound of a float scan holds in any order
         * (reference/precision.md); integers wrap the same whatever the order; the output's type
         * is the compute type's (FLOAT16 outputs scan in order: a rounded result read back would
         * round twice). */
        const COMPUTE_T ident = (COMPUTE_T)(ROP == 49 ? 1 : 0);
        COMPUTE_T carry = ident;
        long nq = n / run;
        for (long qi = 0; qi < nq; ++qi) {
            long q = REVERSE ? nq - 1 - qi : qi;
            long ro[DMLI_RED_TENSORS];
            for (int x = 0; x < DMLI_RED_TENSORS; ++x)
                ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);
            for (long c0 = 0; c0 < run; c0 += SEGS * SCAN_BLOCKS) {
                const long ce = min(run, c0 + SEGS * SCAN_BLOCKS);
                COMPUTE_T total[SCAN_BLOCKS];
                int nb = 0;
                for (long b0 = c0; b0 < ce; b0 += SEGS, ++nb) {
                    const long be = min(ce, b0 + SEGS);
                    COMPUTE_T s = ident;
                    for (long ui = b0; ui < be; ++ui) {
                        long u = REVERSE ? run - 1 - ui : ui;
                        COMPUTE_T before = s;
#if ROP == 49
                        s = before * LOAD0(AT(2, u, 0));
#else
                        s = before + LOAD0(AT(2, u, 0));
#endif
                        STORE0(AT(0, u, 0), EXCLUSIVE ? before : s);
                    }
                    total[nb] = s;
                }
                nb = 0;
                for (long b0 = c0; b0 < ce; b0 += SEGS, ++nb) {
                    const long be = min(ce, b0 + SEGS);
                    for (long ui = b0; ui < be; ++ui) {
                        long u = REVERSE ? run - 1 - ui : ui;
#if ROP == 49
                        STORE0(AT(0, u, 0), carry * (COMPUTE_T)out0[AT(0, u, 0)]);
#else
                        STORE0(AT(0, u, 0), carry + (COMPUTE_T)out0[AT(0, u, 0)]);
#endif
                    }
#if ROP == 49
                    carry = carry * total[nb];
#else
                    carry = carry + total[nb];
#endif
                }
            }
        }
#elif SCAN
    /* One row per item (COLS: LANES rows at once), in order, from the end when REVERSE. */
    COMPUTE_T acc[NL];
    for (int i = 0; i < NL; ++i)
        acc[i] = (COMPUTE_T)(ROP == 49 ? 1 : 0);
    long nq = n / run;
    for (long qi = 0; qi < nq; ++qi) {
        long q = REVERSE ? nq - 1 - qi : qi;
        long ro[DMLI_RED_TENSORS];
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)
            ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);
        for (long ui = 0; ui < run; ++ui) {
            long u = REVERSE ? run - 1 - ui : ui;
#if COLS
            int lanes = FULL_LANES ? NL : (int)(cols - c0);
#else
            int lanes = NL;
#endif
            for (int i = 0; i < lanes; ++i) {
                COMPUTE_T before = acc[i];
#if ROP == 49
                acc[i] = before * LOAD0(AT(2, u, i));
#else
                acc[i] = before + LOAD0(AT(2, u, i));
#endif
                STORE0(AT(0, u, i), EXCLUSIVE ? before : acc[i]);
            }
        }
    }
#else /* FOLD, NORMALIZE */
    (void)shared; /* VACC combines in registers */
    lane s[NL];
    COMPUTE_T sa[NL], sb[NL];
    long si[NL];
    for (int i = 0; i < NL; ++i) {
        lane z = lane_init();
        sa[i] = z.a;
        sb[i] = z.b;
        si[i] = z.ix;
    }
    COMPUTE_T k[NL];
    for (int i = 0; i < NL; ++i)
        k[i] = (COMPUTE_T)0;
#if ROP == 35 && USE_MEAN
    /* MVN sums the distances from the row's first element (exact for near-constant rows);
     * every lane of a row the same. From 0 where that element is not finite (an infinity or a
     * NaN as the shift would make every distance NaN: the mean of [+inf, 1] is +inf, and
     * 1 - mean is -inf, not NaN). */
    {
        long ro[DMLI_RED_TENSORS];
        for (int x = 0; x < DMLI_RED_TENSORS; ++x)
            ro[x] = base_of[x] + offset_of(red, outer, 0, x);
        for (int i = 0; i < NL; ++i)
#if COLS
            if (COL_OF(i) < cols)
#endif
            {
                COMPUTE_T first = X_AT(0L, i);
                k[i] = isfinite(first) ? first : (COMPUTE_T)0;
            }
    }
#endif
#if VACC && PICK
    {
        VEC_T pa[NV];
        VI_T pi[NV];
        DMLI_PRAGMA(unroll)
        for (int h = 0; h < NV; ++h) {
            pa[h] = 0.0f;
            pi[h] = -1;
        }
#define VPICK(x, ebase, h, valid)                                       \
    {                                                                   \
        VEC_T x_ = (x);                                                 \
        VI_T t_ = (valid) && (pi[h] < 0 || PICK_STEP_TAKES(x_, pa[h])); \
        pa[h] = select(pa[h], x_, t_);                                  \
        pi[h] = select(pi[h], (VI_T)(int)(ebase) + VIOTA, t_);          \
    }
        for (long q = 0, e0 = 0; e0 < n; ++q, e0 += run) {
            long ro[DMLI_RED_TENSORS];
            for (int x = 0; x < DMLI_RED_TENSORS; ++x)
                ro[x] = base_of[x] + offset_of(red, outer, (ulong)q, x);
            long ub = 0;
            for (; ub + NL <= run; ub += NL) {
                DMLI_PRAGMA(unroll)
                for (int h = 0; h < NV; ++h)
                    VPICK(VX_FULL(ub + h * VN), e0 + ub + h * VN, h, (VI_T)(-1))
            }
            if (ub < run) {
                COMPUTE_T v_[NL];
                for (int i = 0; i < NL; ++i)
                    v_[i] = ub + i < run ? X_AT(ub + i, i) : 0.0f;
                DMLI_PRAGMA(unroll)
                for (int h = 0; h < NV; ++h)
                    VPICK(VLOAD(v_ + h * VN), e0 + ub + h * VN, h,
                          (VI_T)(int)(ub + h * VN) + VIOTA < (VI_T)(int)run)
            }
        }
        int pick_ix;
        VPTREE(pa, pi, s[0].a, pick_ix)
        s[0].ix = pick_ix;
        s[0].b = 0;
    }
#elif VACC
    {
        VEC_T va[NV], vb[NV], vk[NV];
        DMLI_PRAGMA(unroll)
        for (int h = 0; h < NV; ++h) {
            va[h] = VLOAD(sa + h * VN);
            vb[h] = VLOAD(sb + h * VN);
            vk[h] = VLOAD(k + h * VN);
        }
/* RPF: input 0's elements ahead that a full block of the first pass prefetches (the pass that
 * reads the row from memory; the next row's start once near the end). */
#ifndef RPF
#define RPF 0
#endif
#if RPF
#define VFOLD_PREFETCH(ub) __builtin_prefetch(in0 + ro[2] + (ub) + RPF);
#else
#define VFOLD_PREFETCH(ub)
#endif
#define VFOLD_FULL(ub, h) VFOLD_PREFETCH(ub) visitv(&va[h], &vb[h], VX_FULL(ub), vk[h]);
#define VFOLD_ELEM(i, u) X_AT(u, i)
#define VFOLD(h, x) visitv(&va[h], &vb[h], (x), vk[h]);
        VROW_LOOP(VFOLD_FULL, VFOLD_ELEM, PAD_X, VFOLD)
        s[0].ix = -1;
        VTREE(va, MERGE_A, s[0].a)
        VTREE(vb, MERGE_B, s[0].b)
    }
#elif RBATCH
    RB_BEGIN
    COMPUTE_T xb_[RB][NL];
    RB_EACH(xb_[r_][i] = X_AT(u, i);)
    RB_EACH(visit(&sa[i], &sb[i], &si[i], xb_[r_][i], e, k[i]);)
    RB_END
    combine(s, sa, sb, si, shared);
#else
#define FOLD_BODY(i, u, e) visit(&sa[i], &sb[i], &si[i], X_AT(u, i), e, k[i]);
    ROW_LOOP(FOLD_BODY)
    combine(s, sa, sb, si, shared);
#endif
#if EXP_PASSES
    /* The second pass sums exp(x - maximum) per lane; the lanes' maxima combine again (the
     * same maximum). */
    for (int i = 0; i < NL; ++i) {
        k[i] = RESULT_LANE(i).a;
        sb[i] = (COMPUTE_T)0;
    }
#if VACC
    {
        VEC_T vb[NV], vk[NV];
        DMLI_PRAGMA(unroll)
        for (int h = 0; h < NV; ++h) {
            vb[h] = 0.0f;
            vk[h] = VLOAD(k + h * VN);
        }
#if SOFTMAX_STASH
#define VEXP_STASH(ub, ex) VGSTORE((ex), out0 + ro[0] + (ub));
#else
#define VEXP_STASH(ub, ex)
#endif
#define VEXP_FULL(ub, h)                           \
    {                                              \
        VEC_T ex_ = exp_diffv(VX_FULL(ub), vk[h]); \
        VEXP_STASH(ub, ex_)                        \
        vb[h] += ex_;                              \
    }
#define VEXP_PAD(i) 0.0f
#define VEXP_SUM(h, x) vb[h] += (x);
        VROW_LOOP(VEXP_FULL, EXP_ELEM, VEXP_PAD, VEXP_SUM)
        VTREE(vb, MERGE_B, s[0].b)
    }
#elif RBATCH
    RB_BEGIN
    COMPUTE_T xb_[RB][NL];
    RB_EACH(xb_[r_][i] = X_AT(u, i);)
#if SOFTMAX_STASH
    RB_EACH({
        COMPUTE_T ex_ = EXP_OF(xb_[r_][i], k[i]);
        sb[i] += ex_;
        out0[AT(0, u, i)] = (OUT0_T)ex_;
    })
#else
    RB_EACH(sb[i] += EXP_OF(xb_[r_][i], k[i]);)
#endif
    RB_END
    combine(s, sa, sb, si, shared);
#else
    ROW_LOOP(EXP_BODY)
    combine(s, sa, sb, si, shared);
#endif
#endif

#if FOLD
    for (int i = 0; i < NL; ++i) {
#if !COLS
        if (j != 0 || i > 0)
            break;
#else
        if (c0 + i >= cols)
            break;
#endif
        lane z = RESULT_LANE(i);
        long o = base_of[0] + COL_OF(i) * cs[0];
#if INDEX_OUT
        out0[o] = (OUT0_T)(z.ix < 0 ? 0 : z.ix);
#else
#if ROP == 2
        COMPUTE_T y = z.a / (COMPUTE_T)n;
#elif ROP == 4
        COMPUTE_T y = sqrt(z.a);
#elif ROP == 5
        COMPUTE_T y = log(z.a);
#elif ROP == 6
        COMPUTE_T y = z.a + log(z.b); /* z.a the maximum */
#else
        COMPUTE_T y = z.a;
#endif
        STORE0(o, y);
#endif
    }
#else /* NORMALIZE: the second pass writes the row */
    COMPUTE_T st0[NL], st1[NL];
#if ROP == 35 && USE_MEAN
    COMPUTE_T st2[NL];
#endif
    long pick[NL];
    for (int i = 0; i < NL; ++i) {
        lane z = RESULT_LANE(i);
        pick[i] = z.ix;
#if ROP == 32
        st0[i] = z.a;                /* the maximum */
        st1[i] = (COMPUTE_T)1 / z.b; /* over the sum of exp(x - maximum): a product per element
                                        (within 1 ULP of the quotient; 3N + 3 allowed) */
#elif ROP == 33
        st0[i] = z.a;
        st1[i] = log(z.b);
#elif ROP == 34
        st0[i] = st1[i] = 0;
#elif ROP == 35
        COMPUTE_T mean_d = z.a / (COMPUTE_T)n;
#if USE_MEAN
        st0[i] = k[i];
        st2[i] = mean_d;
        COMPUTE_T var = z.b / (COMPUTE_T)n - mean_d * mean_d;
        /* Rounding's negatives to 0; a NaN (an infinity in the row: inf - inf) stays, so the row
         * is NaN as (x - mean) / sqrt(variance + epsilon) makes it in IEEE arithmetic. */
        var = var < 0 ? (COMPUTE_T)0 : var;
#else
        st0[i] = 0;
        COMPUTE_T var = z.b / (COMPUTE_T)n;
#endif
        /* q0: epsilon; a product per element by the reciprocal (within 1 ULP of the quotient,
         * against 2 ULPs and 1/1024 allowed) */
        st1[i] = (COMPUTE_T)1 / sqrt(var + q0);
#elif ROP == 36
#if LP_P == 1
        st0[i] = z.a;
#else
        st0[i] = sqrt(z.a);
#endif
        st0[i] = st0[i] > q1 ? st0[i] : q1; /* q1: epsilon (q0 is P) */
        st1[i] = 0;
#endif
    }
    /* The second pass: write the normalised row. */
#if WRITE_STREAMS
    WRITE_ROW_STREAMED()
#elif RBATCH && SOFTMAX_STASH
    RB_BEGIN
    COMPUTE_T xb_[RB][NL];
    RB_EACH(xb_[r_][i] = (COMPUTE_T)out0[AT(0, u, i)];)
    RB_EACH(out0[AT(0, u, i)] = (OUT0_T)(xb_[r_][i] * st1[i]);)
    RB_END
#elif RBATCH
    RB_BEGIN
    COMPUTE_T xb_[RB][NL];
    RB_EACH(xb_[r_][i] = X_AT(u, i);)
#if ROP == 35 && HAS_SCALE
    COMPUTE_T sc_[RB][NL];
    RB_EACH(sc_[r_][i] = LOAD1(AT(3, u, i));)
#endif
#if ROP == 35 && HAS_BIAS
    COMPUTE_T bi_[RB][NL];
    RB_EACH(bi_[r_][i] = LOAD2(AT(4, u, i));)
#endif
    RB_EACH({
        COMPUTE_T y_ = NORMALISED_B(xb_[r_][i], i, u, e, sc_[r_][i], bi_[r_][i]);
        STORE0(AT(0, u, i), ACTIVATE(y_));
    })
    RB_END
#else
    ROW_LOOP(WRITE_BODY)
#endif
#endif
#endif
#if !COLS && GROUP == 1
} /* the item's rows */
#endif
#endif
}
