/* SPDX-License-Identifier: MIT */
/* The byte codec of the fuzz drivers (bytes.h). */
#include "bytes.h"

#define SMALL 0xF0 /* bytes below: the value itself (biased for signed) */
#define RAW 0xFF   /* then 8 raw bytes */
#define BIAS 120

static const uint64_t u_edges[] = {
    UINT32_MAX,
    (uint64_t)UINT32_MAX + 1,
    UINT32_MAX - 1,
    INT32_MAX,
    (uint64_t)INT32_MAX + 1,
    65535,
    65536,
    255,
    256,
    UINT64_MAX,
    (uint64_t)INT64_MAX,
    (uint64_t)INT64_MAX + 1,
    1u << 24,
    (1u << 24) + 1,
};
static const int64_t i_edges[] = {
    INT64_MIN,
    INT64_MAX,
    INT32_MIN,
    INT32_MAX,
    -(int64_t)UINT32_MAX,
    UINT32_MAX,
    INT64_MIN + 1,
    INT64_MAX - 1,
    -65536,
    65536,
    (int64_t)INT32_MIN - 1,
    (int64_t)INT32_MAX + 1,
    -1000000,
    1000000,
};
#define N_EDGES (sizeof u_edges / sizeof u_edges[0])
_Static_assert(N_EDGES == sizeof i_edges / sizeof i_edges[0], "one marker per edge");
_Static_assert(SMALL + N_EDGES < RAW, "markers fit below RAW");

uint8_t fuzz_u8(fuzz_in *in)
{
    if (!in->n)
        return 0;
    --in->n;
    return *in->p++;
}

static uint64_t raw64(fuzz_in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

uint64_t fuzz_u64(fuzz_in *in)
{
    uint8_t b = fuzz_u8(in);
    if (b < SMALL)
        return (b + BIAS) % SMALL; /* byte 120 is 0, as for signed values */
    if (b == RAW)
        return raw64(in);
    return u_edges[(b - SMALL) % N_EDGES];
}

uint32_t fuzz_u32(fuzz_in *in)
{
    return (uint32_t)fuzz_u64(in);
}

int64_t fuzz_i64(fuzz_in *in)
{
    uint8_t b = fuzz_u8(in);
    if (b < SMALL)
        return (int64_t)b - BIAS;
    if (b == RAW)
        return (int64_t)raw64(in);
    return i_edges[(b - SMALL) % N_EDGES];
}

void fuzz_put_u8(fuzz_out *out, uint8_t v)
{
    if (out->n < out->cap)
        out->p[out->n++] = v;
    else
        out->full = true;
}

static void put_raw(fuzz_out *out, uint64_t v)
{
    fuzz_put_u8(out, RAW);
    for (int i = 0; i < 8; ++i)
        fuzz_put_u8(out, (uint8_t)(v >> (8 * i)));
}

void fuzz_put_u64(fuzz_out *out, uint64_t v)
{
    if (v < SMALL)
        fuzz_put_u8(out, (uint8_t)((v + SMALL - BIAS) % SMALL));
    else
        put_raw(out, v);
}

void fuzz_put_u32(fuzz_out *out, uint32_t v)
{
    fuzz_put_u64(out, v);
}

void fuzz_put_i64(fuzz_out *out, int64_t v)
{
    if (v >= -BIAS && v < SMALL - BIAS)
        fuzz_put_u8(out, (uint8_t)(v + BIAS));
    else
        put_raw(out, (uint64_t)v);
}
