/* SPDX-License-Identifier: MIT */
/*
 * The FLOAT16 store of the kernels that write one from a float or double compute type
 * (cl/map.cl, cl/reduce.cl): reads COMPUTE_T and COMPUTE_DOUBLE from the including kernel.
 */
#ifndef DMLI_HALF_CL
#define DMLI_HALF_CL

/* FLOAT16 rounded once to nearest even (from double where the compute is double); a NaN keeps
 * its sign and top payload bits, quieted (as x86's F16C and numpy convert), whatever the
 * device's vstore_half makes of it. */
static void dmli_store_half(__global ushort *out, long o, COMPUTE_T v)
{
#if COMPUTE_DOUBLE
    ulong b = as_ulong(v);
    ushort nan = (ushort)(((b >> 48) & 0x8000) | 0x7e00 | ((b >> 42) & 0x3ff));
#else
    uint b = as_uint(v);
    ushort nan = (ushort)(((b >> 16) & 0x8000) | 0x7e00 | ((b >> 13) & 0x3ff));
#endif
    if (isnan(v)) {
        out[o] = nan;
        return;
    }
#if COMPUTE_DOUBLE
    /* Rounded to odd in float (toward zero, the last bit set when inexact), float's 13 spare
     * bits make the rounding to FLOAT16 that follows the one rounding of v; the double
     * vstore_half is not on every device (Oclgrind writes nothing). */
    float f = convert_float_rtz(v);
    if ((double)f != v)
        f = as_float(as_uint(f) | 1u);
    vstore_half_rte(f, o, (__global half *)out);
#else
    vstore_half_rte(v, o, (__global half *)out);
#endif
}
#endif
