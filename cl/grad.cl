/* SPDX-License-Identifier: MIT */
/*
 * grad.cl: the gradient family (src/grad.h): training operators' backward passes written as a
 * gather per output element, so that no two work-items write one element and every sum has one
 * order on every device (no atomics); and ADAM_OPTIMIZER's update, a map of four tensors and
 * the training step to three (adam, at the end).
 *
 * slice_grad (SLICE_GRAD): each output element, at coordinates o, is the incoming gradient's
 * element j where o is on the slice's lattice along every dimension d, and 0 elsewhere:
 *
 *   rel_d = sign_d * (o_d - anchor_d),  on the lattice when rel_d >= 0, rel_d % step_d == 0 and
 *   j_d = rel_d / step_d < in_size_d
 *
 * (anchor_d the window's first position, or its last for a negative stride). A lattice point
 * is one gradient element (the map j -> o is one to one), so the result is a copy or a zero:
 * the kernel moves bits.
 *
 * Macros (code generation only; sizes and strides are in the table, cl/grad_abi.h):
 *   UNIT_T  the element moved: uchar, ushort, uint, ulong (the type's width) [uint]
 *
 * Arguments (the compute family ABI): the table, then per tensor a buffer and its base in
 * elements: InputGradientTensor, OutputGradientTensor.
 */
#include "grad_abi.h"

#ifndef UNIT_T
#define UNIT_T uint
#endif

__kernel void slice_grad(__constant long *t, __global const UNIT_T *dy, long dy_base,
                         __global UNIT_T *out, long out_base)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_GRAD_COUNT])
        return;
    const int rank = (int)t[DMLI_GRAD_RANK];
    long rest = item, o_at = out_base, in_at = dy_base;
    bool on = true;
    for (int d = rank - 1; d >= 0; --d) {
        const long n = t[DMLI_GRAD_DIM(d, DMLI_GRAD_OUT_SIZE)];
        const long o = rest % n;
        rest /= n;
        o_at += o * t[DMLI_GRAD_DIM(d, DMLI_GRAD_OUT_STRIDE)];
        const long rel =
            t[DMLI_GRAD_DIM(d, DMLI_GRAD_SIGN)] * (o - t[DMLI_GRAD_DIM(d, DMLI_GRAD_ANCHOR)]);
        const long step = t[DMLI_GRAD_DIM(d, DMLI_GRAD_STEP)];
        const long j = rel >= 0 ? rel / step : -1;
        on = on && rel >= 0 && j * step == rel && j < t[DMLI_GRAD_DIM(d, DMLI_GRAD_IN_SIZE)];
        in_at += (on ? j : 0) * t[DMLI_GRAD_DIM(d, DMLI_GRAD_IN_STRIDE)];
    }
    out[o_at] = on ? dy[in_at] : (UNIT_T)0;
}

/*
 * pool_grad (AVERAGE_POOLING_GRAD, MAX_POOLING_GRAD): each element of the output gradient, at
 * the forward input's position x, gathers the incoming gradient of every forward window that
 * holds x, walked in row-major order of the windows: the window o holds x on axis a where
 * q = x + StartPadding = o * Strides + k * Dilations for some k < WindowSize. AVERAGE adds
 * dY[o] / count(o), count the window's positions inside the input (or, with IncludePadding,
 * inside the padded input), a product over the axes; MAX adds dY[o] where x is the window's
 * maximum: the forward's rule (the largest value, NaN only where nothing else is, +0 above -0,
 * the first of equal maxima in the window's row-major order, which is the lowest logical
 * index). The sum is compensated (two-sum) in float and rounded once to the output (an
 * infinite or NaN partial sum is kept as it is: its compensation means nothing).
 *
 * Macros: POOL_MAX 1: MAX_POOLING_GRAD [0]; IN_HALF 1: FLOAT16 tensors [0].
 * Arguments: the table, then X (MAX; AVERAGE binds the gradient there, unread), the incoming
 * gradient, the output, each with its base.
 */
#ifndef POOL_MAX
#define POOL_MAX 0
#endif
#ifndef IN_HALF
#define IN_HALF 0
#endif
#if IN_HALF
#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#include "half.cl"
#define PG_T ushort
#define PG_LOAD(p, i) vload_half((i), (__global const half *)(p))
#define PG_STORE(p, i, v) ((p)[i] = dmli_half_bits(v))
#else
#define PG_T float
#define PG_LOAD(p, i) ((p)[i])
#define PG_STORE(p, i, v) ((p)[i] = (v))
#endif
#define PG_AX(a, f) t[DMLI_PG_AXIS(a, f)]
#define PG_ST(x, d) t[DMLI_PG_STRIDES(x, d)]

#if POOL_MAX
/* Whether v replaces the best so far under max pooling's order. */
static bool pg_better(float v, float best)
{
    if (isnan(v))
        return false;
    if (isnan(best) || v > best)
        return true;
    return v == best && v == 0 && signbit(best) && !signbit(v);
}

/* Whether the forward window o (per axis) of batch n, channel c has its maximum at p. */
static bool pg_is_max(__constant long *t, __global const PG_T *x, long x_base, long n, long c,
                      const long *o, const long *p)
{
    long lo[3], hi[3], first[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = o[a] * PG_AX(a, DMLI_PG_STRIDE) - PG_AX(a, DMLI_PG_START);
        const long dil = PG_AX(a, DMLI_PG_DIL), win = PG_AX(a, DMLI_PG_WIN);
        /* The window's k inside [0, IN): [lo, hi). */
        lo[a] = first[a] < 0 ? (-first[a] + dil - 1) / dil : 0;
        const long last = PG_AX(a, DMLI_PG_IN) - 1 - first[a];
        hi[a] = last < 0 ? 0 : min(win, last / dil + 1);
    }
    const long base = x_base + n * PG_ST(DMLI_PG_X, 0) + c * PG_ST(DMLI_PG_X, 1);
    bool any = false;
    float best = 0;
    long at[3] = {0, 0, 0};
    for (long kd = lo[0]; kd < hi[0]; ++kd)
        for (long kh = lo[1]; kh < hi[1]; ++kh)
            for (long kw = lo[2]; kw < hi[2]; ++kw) {
                const long pd = first[0] + kd * PG_AX(0, DMLI_PG_DIL);
                const long ph = first[1] + kh * PG_AX(1, DMLI_PG_DIL);
                const long pw = first[2] + kw * PG_AX(2, DMLI_PG_DIL);
                const float v = PG_LOAD(x, base + pd * PG_ST(DMLI_PG_X, 2) +
                                               ph * PG_ST(DMLI_PG_X, 3) + pw * PG_ST(DMLI_PG_X, 4));
                if (!any || pg_better(v, best)) {
                    any = true;
                    best = v;
                    at[0] = pd, at[1] = ph, at[2] = pw;
                }
            }
    return any && at[0] == p[0] && at[1] == p[1] && at[2] == p[2];
}
#else
/* The window o's positions inside the input (or the padded input) along axis a. */
static long pg_count(__constant long *t, int a, long o)
{
    const bool pad = t[DMLI_PG_INCLUDE_PAD] != 0;
    const long lo = pad ? -PG_AX(a, DMLI_PG_START) : 0;
    const long hi = PG_AX(a, DMLI_PG_IN) + (pad ? PG_AX(a, DMLI_PG_END) : 0);
    const long s = o * PG_AX(a, DMLI_PG_STRIDE) - PG_AX(a, DMLI_PG_START);
    return max(0L, min(s + PG_AX(a, DMLI_PG_WIN), hi) - max(s, lo));
}
#endif

__kernel void pool_grad(__constant long *t, __global const PG_T *x, long x_base,
                        __global const PG_T *dy, long dy_base, __global PG_T *dx, long dx_base)
{
#if !POOL_MAX
    (void)x;
    (void)x_base;
#endif
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_PG_COUNT])
        return;
    long p[3], rest = item;
    for (int a = 2; a >= 0; --a) {
        const long size = PG_AX(a, DMLI_PG_IN);
        p[a] = rest % size;
        rest /= size;
    }
    const long c = rest % t[DMLI_PG_C], n = rest / t[DMLI_PG_C];
    /* The windows holding p: o in [lo, hi] per axis, those where the dilation lands on p. */
    long lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        const long q = p[a] + PG_AX(a, DMLI_PG_START), s = PG_AX(a, DMLI_PG_STRIDE);
        const long reach = q - (PG_AX(a, DMLI_PG_WIN) - 1) * PG_AX(a, DMLI_PG_DIL);
        lo[a] = reach <= 0 ? 0 : (reach + s - 1) / s;
        hi[a] = min(PG_AX(a, DMLI_PG_OUT) - 1, q / s);
    }
    const long gbase = dy_base + n * PG_ST(DMLI_PG_DY, 0) + c * PG_ST(DMLI_PG_DY, 1);
    float sum = 0, comp = 0;
    long o[3];
    for (o[0] = lo[0]; o[0] <= hi[0]; ++o[0]) {
        if ((p[0] + PG_AX(0, DMLI_PG_START) - o[0] * PG_AX(0, DMLI_PG_STRIDE)) %
            PG_AX(0, DMLI_PG_DIL))
            continue;
        for (o[1] = lo[1]; o[1] <= hi[1]; ++o[1]) {
            if ((p[1] + PG_AX(1, DMLI_PG_START) - o[1] * PG_AX(1, DMLI_PG_STRIDE)) %
                PG_AX(1, DMLI_PG_DIL))
                continue;
            for (o[2] = lo[2]; o[2] <= hi[2]; ++o[2]) {
                if ((p[2] + PG_AX(2, DMLI_PG_START) - o[2] * PG_AX(2, DMLI_PG_STRIDE)) %
                    PG_AX(2, DMLI_PG_DIL))
                    continue;
                float g =
                    PG_LOAD(dy, gbase + o[0] * PG_ST(DMLI_PG_DY, 2) + o[1] * PG_ST(DMLI_PG_DY, 3) +
                                    o[2] * PG_ST(DMLI_PG_DY, 4));
#if POOL_MAX
                if (!pg_is_max(t, x, x_base, n, c, o, p))
                    continue;
#else
                g = g / (float)(pg_count(t, 0, o[0]) * pg_count(t, 1, o[1]) * pg_count(t, 2, o[2]));
#endif
                /* Two-sum: sum + comp is the running total, one rounding off. */
                const float s = sum + g, b = s - sum;
                comp += (sum - (s - b)) + (g - b);
                sum = s;
            }
        }
    }
    PG_STORE(dx,
             dx_base + n * PG_ST(DMLI_PG_DX, 0) + c * PG_ST(DMLI_PG_DX, 1) +
                 p[0] * PG_ST(DMLI_PG_DX, 2) + p[1] * PG_ST(DMLI_PG_DX, 3) +
                 p[2] * PG_ST(DMLI_PG_DX, 4),
             isfinite(sum) ? sum + comp : sum);
}

/*
 * lrn_grad (LOCAL_RESPONSE_NORMALIZATION_GRAD): the derivative of the forward (cl/reduce.cl's
 * LRN, Y_i = X_i / D_i^Beta, D_i = Bias + Alpha / LocalSize * S_i, S_i the squares of X summed
 * over i's window) at each input element j, a gather:
 *
 *   dX_j = dY_j / D_j^Beta - 2 * Alpha / LocalSize * Beta * X_j * sum_i dY_i * (X_i / D_i^Beta) /
 * D_i
 *
 * over the i whose window holds j: from j - after to j + before per window axis (the window,
 * from p - before to p + after, before = floor((LocalSize - 1) / 2), mirrored), clipped. Each
 * S_i is summed again in the forward's order (the outer window axis, then the inner), the i in
 * row-major order; float compute. The window's axes: C (CrossChannel), or H then W.
 *
 * Macros: IN_HALF 1: FLOAT16 tensors [0]. Arguments: the table (grad_abi.h DMLI_LG_*), then
 * X, dY, dX, each with its base.
 */
#define LG_STR(k, d) t[DMLI_LG_STRIDES(k, d)]

static float grad_table_float(__constant long *t, int k)
{
    return as_float((uint)t[k]);
}

/* S at window position (a, b): X's squares over a's and b's windows, clipped. */
static float lg_sum(__global const PG_T *x, long base, long a, long b, long na, long nb, long sa,
                    long sb, long before, long after)
{
    const long a_lo = max(a - before, 0L), a_hi = min(a + after, na - 1);
    const long b_lo = max(b - before, 0L), b_hi = min(b + after, nb - 1);
    float s = 0;
    for (long i = a_lo; i <= a_hi; ++i)
        for (long k = b_lo; k <= b_hi; ++k) {
            const float v = PG_LOAD(x, base + i * sa + k * sb);
            s += v * v;
        }
    return s;
}

__kernel void lrn_grad(__constant long *t, __global const PG_T *x, long x_base,
                       __global const PG_T *dy, long dy_base, __global PG_T *dx, long dx_base)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_LG_COUNT])
        return;
    long p[4], rest = item;
    for (int d = 3; d >= 0; --d) {
        const long n = t[DMLI_LG_SIZE(d)];
        p[d] = rest % n;
        rest /= n;
    }
    /* The window's axes: a (C, or H) and b (none, or W: size 1, stride 0). */
    const bool cross = t[DMLI_LG_CROSS] != 0;
    const int ax = cross ? 1 : 2;
    const long na = t[DMLI_LG_SIZE(ax)], nb = cross ? 1 : t[DMLI_LG_SIZE(3)];
    const long a = p[ax], b = cross ? 0 : p[3];
    long off[3], sa[3], sb[3];
    for (int k = 0; k < 3; ++k) {
        long o = 0;
        for (int d = 0; d < 4; ++d)
            o += (d == ax || (!cross && d == 3) ? 0 : p[d]) * LG_STR(k, d);
        off[k] = o;
        sa[k] = LG_STR(k, ax);
        sb[k] = cross ? 0 : LG_STR(k, 3);
    }
    const long size = t[DMLI_LG_LOCAL], before = (size - 1) / 2, after = size - 1 - before;
    const float alpha = grad_table_float(t, DMLI_LG_ALPHA);
    const float beta = grad_table_float(t, DMLI_LG_BETA);
    const float bias = grad_table_float(t, DMLI_LG_BIAS);
    const float scale = alpha / (float)size;
    const long xb = x_base + off[0], gb = dy_base + off[1];
    const float xj = PG_LOAD(x, xb + a * sa[0] + b * sb[0]);
    const float dj = bias + scale * lg_sum(x, xb, a, b, na, nb, sa[0], sb[0], before, after);
    const float own = PG_LOAD(dy, gb + a * sa[1] + b * sb[1]) / pow(dj, beta);
    float acc = 0;
    const long i_hi = min(a + before, na - 1), k_hi = min(b + before, nb - 1);
    for (long i = max(a - after, 0L); i <= i_hi; ++i)
        for (long k = max(b - after, 0L); k <= k_hi; ++k) {
            const float di =
                bias + scale * lg_sum(x, xb, i, k, na, nb, sa[0], sb[0], before, after);
            const float xi = PG_LOAD(x, xb + i * sa[0] + k * sb[0]);
            const float gi = PG_LOAD(dy, gb + i * sa[1] + k * sb[1]);
            acc += gi * (xi / pow(di, beta)) / di;
        }
    PG_STORE(dx, dx_base + off[2] + a * sa[2] + b * sb[2], own - 2.0f * scale * beta * xj * acc);
}

/*
 * adam (ADAM_OPTIMIZER): one Adam step per element, the page's formula in float:
 *
 *   M' = Beta1 * M + (1 - Beta1) * G,   V' = Beta2 * V + (1 - Beta2) * G * G,
 *   X' = X - LearningRate * (sqrt(1 - Beta2^T) / (1 - Beta1^T)) * M' / (sqrt(V') + Epsilon)
 *
 * T the training step, TrainingStepTensor's one element. Every input is read before any output
 * is written, so an output may share its range with an input (in place).
 *
 * Macros: IN_HALF 1: FLOAT16 tensors [0]. Arguments: the table (grad_abi.h DMLI_AD_*), then
 * X, M, V, G, T, X', M', V', each with its base.
 */
__kernel void adam(__constant long *t, __global const PG_T *x, long x_base, __global const PG_T *m,
                   long m_base, __global const PG_T *v, long v_base, __global const PG_T *g,
                   long g_base, __global const PG_T *step, long step_base, __global PG_T *xo,
                   long xo_base, __global PG_T *mo, long mo_base, __global PG_T *vo, long vo_base)
{
    const long item = (long)get_global_id(0);
    if (item >= t[DMLI_AD_COUNT])
        return;
    long at[7] = {0, 0, 0, 0, 0, 0, 0}, rest = item;
    for (int d = 3; d >= 0; --d) {
        const long n = t[DMLI_AD_SIZE(d)], p = rest % n;
        rest /= n;
        for (int k = 0; k < 7; ++k)
            at[k] += p * t[DMLI_AD_STRIDES(k, d)];
    }
    const float x0 = PG_LOAD(x, x_base + at[0]), m0 = PG_LOAD(m, m_base + at[1]);
    const float v0 = PG_LOAD(v, v_base + at[2]), g0 = PG_LOAD(g, g_base + at[3]);
    const float steps = PG_LOAD(step, step_base);
    const float lr = grad_table_float(t, DMLI_AD_LR), eps = grad_table_float(t, DMLI_AD_EPSILON);
    const float b1 = grad_table_float(t, DMLI_AD_BETA1), b2 = grad_table_float(t, DMLI_AD_BETA2);
    const float m1 = b1 * m0 + (1.0f - b1) * g0;
    const float v1 = b2 * v0 + (1.0f - b2) * g0 * g0;
    const float corr = sqrt(1.0f - pow(b2, steps)) / (1.0f - pow(b1, steps));
    const float x1 = x0 - lr * corr * m1 / (sqrt(v1) + eps);
    PG_STORE(xo, xo_base + at[4], x1);
    PG_STORE(mo, mo_base + at[5], m1);
    PG_STORE(vo, vo_base + at[6], v1);
}
