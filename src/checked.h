/* SPDX-License-Identifier: MIT */
/*
 * Checked 64-bit arithmetic for sizes, strides and offsets: the tensor rules,
 * the operators and the front-ends compute every product and sum that a
 * caller's values reach through these, so no value wraps silently and no
 * signed overflow (undefined behaviour) is ever evaluated. Each returns true
 * when the exact result does not fit (then *r is unspecified).
 */
#ifndef DMLI_CHECKED_H
#define DMLI_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

static inline bool dmli_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}

static inline bool dmli_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    return __builtin_add_overflow(a, b, r);
}

static inline bool dmli_mul_i64(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}

static inline bool dmli_add_i64(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_add_overflow(a, b, r);
}

/* *acc += a * b. */
static inline bool dmli_madd_i64(int64_t *acc, int64_t a, int64_t b)
{
    int64_t t;
    return __builtin_mul_overflow(a, b, &t) || __builtin_add_overflow(*acc, t, acc);
}

/*
 * The element count of sizes: 0 when any size is 0, wherever it stands (an
 * empty tensor is empty whatever its other sizes); UINT64_MAX when the
 * product of nonzero sizes does not fit.
 */
uint64_t dmli_count_elements(uint32_t rank, const uint64_t *sizes);

/*
 * Row-major (packed) strides of sizes, innermost 1, for sizes whose count
 * dmli_count_elements has bounded to 2^32-1: a nonempty tensor's suffix
 * products are at most that count. An empty tensor gets 0 strides: it has no
 * element to reach, and its sizes' products may exceed 64 bits (e.g.
 * {0, 2^32-1, 2^32-1, 2^32-1}).
 */
void dmli_packed_strides(uint32_t rank, const uint64_t *sizes, int64_t *strides);

#endif /* DMLI_CHECKED_H */
