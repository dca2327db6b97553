/* SPDX-License-Identifier: MIT */
/*
 * grad.cl: the gradient family (src/grad.h): training operators' backward passes written as a
 * gather per output element, so that no two work-items write one element and every sum has one
 * order on every device (no atomics).
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
