/* SPDX-License-Identifier: MIT */
/* cases.c: seeds, case selection and replay lines of the device tests. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"

uint64_t ops_base_seed(ops_seed *s)
{
    if (!s->known) {
        s->base = ref_test_seed(s->fallback);
        s->known = true;
    }
    return s->base;
}

ref_rng ops_case_rng(ops_seed *s, const char *test, unsigned number)
{
    return ref_rng_make(ref_mix64(ops_base_seed(s) ^ ops_name_hash(test)) + ref_mix64(number));
}

uint64_t ops_name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *name; ++name)
        h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
    return h;
}

long ops_only_case(void)
{
    const char *text = getenv("DMLCL_TEST_CASE");
    return text && *text ? strtol(text, NULL, 0) : -1;
}

unsigned ops_case_count(unsigned count)
{
    const char *text = getenv("DMLCL_TEST_CASES");
    unsigned long cap = text && *text ? strtoul(text, NULL, 0) : count;
    return cap < count ? (unsigned)cap : count;
}

bool ops_verbose(void)
{
    return getenv("DMLCL_TEST_VERBOSE") != NULL;
}

const char *ops_replay(char *buf, size_t len, const char *op, const char *suite, const char *test,
                       unsigned number, uint64_t seed)
{
    snprintf(buf, len,
             "%s case %u of %s/%s, seed 0x%016" PRIx64 " (replay: DMLCL_TEST_SEED=0x%" PRIx64
             " DMLCL_TEST_CASE=%u dmlcl-ops --filter '%s/%s')",
             op, number, suite, test, seed, seed, number, suite, test);
    return buf;
}
