/* SPDX-License-Identifier: MIT */
/*
 * The byte codec of the fuzz drivers. Small values are one byte; edge values
 * (2^31, 2^32-1, INT64_MIN, ...) one marker byte; anything else a marker and
 * raw little-endian bytes, so every value is reachable and encodable while
 * random bytes still mostly mean something. Past the end, reads give 0.
 */
#ifndef DMLCL_FUZZ_BYTES_H
#define DMLCL_FUZZ_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

typedef struct fuzz_out {
    uint8_t *p;
    size_t n, cap;
    bool full;
} fuzz_out;

uint8_t fuzz_u8(fuzz_in *in);
uint32_t fuzz_u32(fuzz_in *in); /* small: 0..239, byte 120 is 0 */
int64_t fuzz_i64(fuzz_in *in);  /* small: -120..119, byte 120 is 0 */
uint64_t fuzz_u64(fuzz_in *in);

void fuzz_put_u8(fuzz_out *out, uint8_t v);
void fuzz_put_u32(fuzz_out *out, uint32_t v);
void fuzz_put_i64(fuzz_out *out, int64_t v);
void fuzz_put_u64(fuzz_out *out, uint64_t v);

#endif /* DMLCL_FUZZ_BYTES_H */
