/* SPDX-License-Identifier: MIT */
/*
 * The recurrent family (src/ops/recurrent.c, src/launch_rnn.c): RNN, GRU and LSTM. One
 * work-group per (batch element, direction) (grid dimensions 1 and 2) steps through that
 * direction's sequence; its items share the hidden state in local memory, each computing hidden
 * units j, j + items, ... of a step, a barrier between steps. Every gate's sum accumulates in
 * float32 in one order (x . W over the input, then H . R over the hidden units, then the
 * biases, then the peephole), whatever the launch: the result is the same on every device
 * class. FLOAT16 tensors are read into float32 and the state stays float32 between steps.
 *
 * Macros (src/launch_rnn.c): T the storage type (ushort for FLOAT16, with HALF 1); CELL 0 RNN,
 * 1 GRU, 2 LSTM; HMAX the state's bucket (>= hidden_size); NACT activations per direction,
 * ACT_0 .. ACT_5 each activation's number (cl/activation.cl; direction d's k-th is
 * ACT_<d * NACT + k>); BACKWARD (one direction, run backward); HAS_B, HAS_H0, HAS_C0, HAS_LEN,
 * HAS_P, HAS_Y, HAS_YH, HAS_YC the tensors present; LBR GRU's LinearBeforeReset; CLIP and
 * COUPLE LSTM's UseClipThreshold and CoupleInputForget. Sizes and strides are in the table
 * (cl/rnn_abi.h): one compile serves every shape of a bucket.
 */
#include "rnn_abi.h"

#pragma OPENCL FP_CONTRACT OFF

#ifndef T
#define T float
#endif
#ifndef HALF
#define HALF 0
#endif
#ifndef CELL
#define CELL 0
#endif
#ifndef HMAX
#define HMAX 64
#endif
#ifndef NACT
#define NACT 1
#endif
#ifndef BACKWARD
#define BACKWARD 0
#endif
#ifndef ACT_0
#define ACT_0 14
#endif
#ifndef ACT_1
#define ACT_1 0
#endif
#ifndef ACT_2
#define ACT_2 0
#endif
#ifndef ACT_3
#define ACT_3 0
#endif
#ifndef ACT_4
#define ACT_4 0
#endif
#ifndef ACT_5
#define ACT_5 0
#endif
#ifndef HAS_B
#define HAS_B 0
#endif
#ifndef HAS_H0
#define HAS_H0 0
#endif
#ifndef HAS_C0
#define HAS_C0 0
#endif
#ifndef HAS_LEN
#define HAS_LEN 0
#endif
#ifndef HAS_P
#define HAS_P 0
#endif
#ifndef HAS_Y
#define HAS_Y 1
#endif
#ifndef HAS_YH
#define HAS_YH 0
#endif
#ifndef HAS_YC
#define HAS_YC 0
#endif
#ifndef LBR
#define LBR 0
#endif
#ifndef CLIP
#define CLIP 0
#endif
#ifndef COUPLE
#define COUPLE 0
#endif

#define COMPUTE_T float
#define COMPUTE_DOUBLE 0
#define ACT_USED(n)                                                                            \
    ((ACT_0) == (n) || (ACT_1) == (n) || (ACT_2) == (n) || (ACT_3) == (n) || (ACT_4) == (n) || \
     (ACT_5) == (n))
#include "activation.cl"

#if HALF
#include "half.cl"
#define LOAD(p, i) vload_half((i), (__global const half *)(p))
#define STORE(p, i, v) dmli_store_half((__global ushort *)(p), (i), (v))
#else
#define LOAD(p, i) ((float)(p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = (T)(v))
#endif

/* Element (a, b, c, d) of role's tensor, in elements from its base. */
#define AT(role, a, b, c, d)                                               \
    ((a)*tb[DMLI_RNN_STRIDE(role, 0)] + (b)*tb[DMLI_RNN_STRIDE(role, 1)] + \
     (c)*tb[DMLI_RNN_STRIDE(role, 2)] + (d)*tb[DMLI_RNN_STRIDE(role, 3)])

static float table_float(__constant long *tb, int k)
{
    return as_float((uint)tb[k]);
}

/* Activation k of direction dir (ACT_<dir * NACT + k>) of v. */
static float activate(__constant long *tb, int dir, int k, float v)
{
    int i = dir * NACT + k;
    float g0 = table_float(tb, DMLI_RNN_ACT_PARAM(i, 0));
    float g1 = table_float(tb, DMLI_RNN_ACT_PARAM(i, 1));
    float g2 = table_float(tb, DMLI_RNN_ACT_PARAM(i, 2));
    switch (i) {
    case 0: return DMLI_ACTIVATE(ACT_0, v, g0, g1, g2);
    case 1: return DMLI_ACTIVATE(ACT_1, v, g0, g1, g2);
    case 2: return DMLI_ACTIVATE(ACT_2, v, g0, g1, g2);
    case 3: return DMLI_ACTIVATE(ACT_3, v, g0, g1, g2);
    case 4: return DMLI_ACTIVATE(ACT_4, v, g0, g1, g2);
    default: return DMLI_ACTIVATE(ACT_5, v, g0, g1, g2);
    }
}

#if CLIP
static float clip(__constant long *tb, float v)
{
    float c = table_float(tb, DMLI_RNN_CLIP);
    return v < -c ? -c : (v > c ? c : v);
}
#else
#define clip(tb, v) (v)
#endif

#define GATES (CELL == 0 ? 1 : (CELL == 1 ? 3 : 4))
#if HAS_B
#define WBIAS(g, j) LOAD(bias, AT(DMLI_RNN_B, 0, 0, dir, (g)*hid + (j)))
#define RBIAS(g, j) LOAD(bias, AT(DMLI_RNN_B, 0, 0, dir, (GATES + (g)) * hid + (j)))
#else
#define WBIAS(g, j) 0.0f
#define RBIAS(g, j) 0.0f
#endif
#if HAS_P
#define PEEP(g, j) LOAD(p, AT(DMLI_RNN_P, 0, 0, dir, (g)*hid + (j)))
#else
#define PEEP(g, j) 0.0f
#endif

/* x[t, b] . W[dir, row] over the input, in order. */
static float xdot(__constant long *tb, __global const T *x, __global const T *w, int dir, long t,
                  long b, long row)
{
    float acc = 0.0f;
    for (long k = 0; k < tb[DMLI_RNN_INPUT]; ++k)
        acc += LOAD(x, AT(DMLI_RNN_X, 0, t, b, k)) * LOAD(w, AT(DMLI_RNN_W, 0, dir, row, k));
    return acc;
}

/* h . R[dir, row] over the hidden units, in order (h the state, or GRU's r * H). */
static float hdot(__constant long *tb, __local const float *h, __global const T *r, int dir,
                  long row)
{
    float acc = 0.0f;
    for (long k = 0; k < tb[DMLI_RNN_HIDDEN]; ++k)
        acc += h[k] * LOAD(r, AT(DMLI_RNN_R, 0, dir, row, k));
    return acc;
}

/* Gate g's sum for unit j: (x . W + Wb) + (h . R + Rb). */
#define GATE(g, j, hv)                                          \
    ((xdot(tb, x, w, dir, t, b, (g)*hid + (j)) + WBIAS(g, j)) + \
     (hdot(tb, hv, r, dir, (g)*hid + (j)) + RBIAS(g, j)))

__kernel void rnn(__constant long *tb, __global const T *x, long xb, __global const T *w, long wb,
                  __global const T *r, long rb, __global const T *bias, long bb,
                  __global const T *h0, long h0b, __global const T *c0, long c0b,
                  __global const uint *len, long lenb, __global const T *p, long pb, __global T *y,
                  long yb, __global T *yh, long yhb, __global T *yc, long ycb)
{
    __local float state[2][HMAX];
#if CELL == 1 && !LBR
    __local float reset[HMAX]; /* r * H of the step */
#endif
#if CELL == 2
    __local float cell[HMAX]; /* unit j's only by the item that computes it */
#endif
    x += xb;
    w += wb;
    r += rb;
    bias += bb;
    h0 += h0b;
    c0 += c0b;
    len += lenb;
    p += pb;
    y += yb;
    yh += yhb;
    yc += ycb;
    const long seq = tb[DMLI_RNN_SEQ], hid = tb[DMLI_RNN_HIDDEN];
    const long b = get_group_id(1);
    const int dir = (int)get_group_id(2);
    const long lid = get_local_id(0), items = get_local_size(0);
    const bool backward = BACKWARD || dir == 1;
    long n = seq;
#if HAS_LEN
    n = min((long)len[AT(DMLI_RNN_LEN, 0, 0, 0, b)], seq);
#endif
    int cur = 0;
    for (long j = lid; j < hid; j += items) {
#if HAS_H0
        state[0][j] = LOAD(h0, AT(DMLI_RNN_H0, 0, dir, b, j));
#else
        state[0][j] = 0.0f;
#endif
#if CELL == 2
#if HAS_C0
        cell[j] = LOAD(c0, AT(DMLI_RNN_C0, 0, dir, b, j));
#else
        cell[j] = 0.0f;
#endif
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long s = 0; s < n; ++s) {
        const long t = backward ? n - 1 - s : s;
        __local const float *h = state[cur];
        __local float *next = state[cur ^ 1];
#if CELL == 1 && !LBR
        for (long j = lid; j < hid; j += items) {
            float rg = activate(tb, dir, 0, GATE(1, j, h));
            reset[j] = rg * h[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        for (long j = lid; j < hid; j += items) {
            float v;
#if CELL == 0
            v = activate(tb, dir, 0, GATE(0, j, h));
#elif CELL == 1
            float z = activate(tb, dir, 0, GATE(0, j, h));
#if LBR
            float rg = activate(tb, dir, 0, GATE(1, j, h));
            /* LinearBeforeReset: the reset scales H . R_h + Rb_h. */
            float xh = xdot(tb, x, w, dir, t, b, 2 * hid + j) + WBIAS(2, j);
            float rh = hdot(tb, h, r, dir, 2 * hid + j) + RBIAS(2, j);
            float hc = activate(tb, dir, 1, xh + rg * rh);
#else
            float hc = activate(tb, dir, 1, GATE(2, j, reset));
#endif
            v = (1.0f - z) * hc + z * h[j];
#else
            float c = cell[j];
            float ai = GATE(0, j, h) + PEEP(0, j) * c;
            float ig = activate(tb, dir, 0, clip(tb, ai));
            float fg;
#if COUPLE
            fg = 1.0f - ig;
#else
            float af = GATE(2, j, h) + PEEP(2, j) * c;
            fg = activate(tb, dir, 0, clip(tb, af));
#endif
            float cc = activate(tb, dir, 1, clip(tb, GATE(3, j, h)));
            c = fg * c + ig * cc;
            float ao = GATE(1, j, h) + PEEP(1, j) * c;
            float og = activate(tb, dir, 0, clip(tb, ao));
            cell[j] = c;
            v = og * activate(tb, dir, 2, c);
#endif
            next[j] = v;
#if HAS_Y
            STORE(y, AT(DMLI_RNN_Y, t, dir, b, j), v);
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        cur ^= 1;
    }
    for (long j = lid; j < hid; j += items) {
#if HAS_Y
        for (long t = n; t < seq; ++t)
            STORE(y, AT(DMLI_RNN_Y, t, dir, b, j), 0.0f);
#endif
#if HAS_YH
        STORE(yh, AT(DMLI_RNN_YH, 0, dir, b, j), state[cur][j]);
#endif
#if HAS_YC && CELL == 2
        STORE(yc, AT(DMLI_RNN_YC, 0, dir, b, j), cell[j]);
#endif
    }
}
