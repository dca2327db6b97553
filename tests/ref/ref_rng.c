/* SPDX-License-Identifier: MIT */
/*
 * ref_rng.c: the seeded PRNG (splitmix64) and the run's seed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref.h"

uint64_t ref_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

ref_rng ref_rng_make(uint64_t seed)
{
    ref_rng rng = {seed};
    return rng;
}

uint64_t ref_rng_next(ref_rng *rng)
{
    rng->state += 0x9E3779B97F4A7C15ull;
    return ref_mix64(rng->state);
}

uint64_t ref_rng_below(ref_rng *rng, uint64_t n)
{
    /* Modulo bias is irrelevant for n far below 2^64. */
    return ref_rng_next(rng) % n;
}

int64_t ref_rng_range(ref_rng *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)ref_rng_below(rng, (uint64_t)(hi - lo) + 1);
}

bool ref_rng_chance(ref_rng *rng, unsigned percent)
{
    return ref_rng_below(rng, 100) < percent;
}

void ref_rng_bytes(ref_rng *rng, void *dst, size_t n)
{
    unsigned char *p = dst;
    while (n > 0) {
        uint64_t r = ref_rng_next(rng);
        size_t k = n < sizeof r ? n : sizeof r;
        memcpy(p, &r, k);
        p += k;
        n -= k;
    }
}

uint64_t ref_test_seed(uint64_t fallback)
{
    const char *text = getenv("DMLCL_TEST_SEED");
    if (!text || !*text)
        return fallback;
    if (strcmp(text, "random") == 0)
        return ref_mix64((uint64_t)time(NULL) ^ (uint64_t)clock());
    return strtoull(text, NULL, 0);
}
