/* SPDX-License-Identifier: MIT */
/*
 * The FLOAT16 store of the kernels that write one from a float or double compute type
 * (cl/map.cl, cl/reduce.cl): reads COMPUTE_T and COMPUTE_DOUBLE from the including kernel.
 */
#ifndef DMLI_HALF_CL
#define DMLI_HALF_CL

/* The FLOAT16 bits of v rounded to nearest even, in integer and float arithmetic without
 * branches, so that a loop of it vectorises (PoCL's vstore_half_rte kept a CPU's loop scalar:
 * a CAST to FLOAT16 ran at 0.24 of the copy). Normal results: the exponent rebiased and the
 * mantissa rounded by adding 0xFFF plus its last kept bit; subnormal ones by the float sum
 * |v| + 0.5, whose rounding is the half's; 65520 and above to infinity; NaN keeps its sign and
 * top payload bits, quieted (as x86's F16C and numpy convert). The same bits as
 * vstore_half_rte for every float but NaN (all 2^32 compared on PoCL). */
static ushort dmli_half_bits(float v)
{
    uint b = as_uint(v), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    uint nan = sign | 0x7e00u | ((b >> 13) & 0x3ffu);
    uint sub = as_uint(as_float(a) + 0.5f) - 0x3f000000u;
    uint nrm = (a + 0xC8000FFFu + ((a >> 13) & 1u)) >> 13; /* exponent - 112, + 0xFFF */
    uint h = a < 0x38800000u ? sub : nrm;                  /* below 2^-14: subnormal */
    h = a >= 0x47800000u ? 0x7c00u : h;                    /* 65536 and up (and inf) */
    return (ushort)(a > 0x7f800000u ? nan : h | sign);
}

/* FLOAT16 rounded once to nearest even (from double where the compute is double): its bits. */
static ushort dmli_half_value(COMPUTE_T v)
{
#if COMPUTE_DOUBLE
    ulong b = as_ulong(v);
    ushort nan = (ushort)(((b >> 48) & 0x8000) | 0x7e00 | ((b >> 42) & 0x3ff));
    /* Rounded to odd in float (toward zero, the last bit set when inexact), float's 13 spare
     * bits make the rounding to FLOAT16 that follows the one rounding of v. */
    float f = convert_float_rtz(v);
    f = (double)f != v ? as_float(as_uint(f) | 1u) : f;
    return isnan(v) ? nan : dmli_half_bits(f);
#else
    return dmli_half_bits(v);
#endif
}

static void dmli_store_half(__global ushort *out, long o, COMPUTE_T v)
{
    out[o] = dmli_half_value(v);
}
#endif
