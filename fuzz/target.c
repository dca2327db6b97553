/* SPDX-License-Identifier: MIT */
/*
 * The libFuzzer entry point, built once per driver (FUZZ_DRIVER names it):
 * a broken invariant aborts, so libFuzzer keeps the input as a crasher.
 */
#include <stdio.h>
#include <stdlib.h>

#include "drivers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[FUZZ_WHY];
    if (FUZZ_DRIVER(data, size, why, NULL)) {
        fprintf(stderr, "dmlcl fuzz: %s\n", why);
        abort();
    }
    return 0;
}
