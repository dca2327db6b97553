/* SPDX-License-Identifier: MIT */
/*
 * What scripts/kernel-targets must refuse (the kernel-targets-probe tests): a 64-byte vector
 * returned by value, as cl/common.cl's load_line did. It builds without a warning for
 * skylake-avx512 and changes the ABI (clang's -Wpsabi) for every x86-64 level below it.
 */
static uint16 line(__global const uint *p)
{
    return (uint16)(vload4(0, p), vload4(1, p), vload4(2, p), vload4(3, p));
}

kernel void psabi_probe(__global uint16 *d, __global const uint *s)
{
    size_t i = get_global_id(0);
    d[i] = line(s + 16 * i);
}
