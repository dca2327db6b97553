/* SPDX-License-Identifier: MIT */
/*
 * cases.h: how the device tests seed, select and name their random cases.
 * Case n of a test draws from a stream of its own, made from the run's base
 * seed (DMLCL_TEST_SEED, else the test file's default), the test's name and
 * n, so the seed and the case number printed with a failure replay it.
 */
#ifndef DMLCL_TESTS_OPS_CASES_H
#define DMLCL_TESTS_OPS_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ref.h"

/* A test file's base seed: read once, so that "random" picks one seed per run. */
typedef struct ops_seed {
    uint64_t fallback; /* the file's default */
    bool known;
    uint64_t base;
} ops_seed;

#define OPS_SEED(fallback)   \
    {                        \
        (fallback), false, 0 \
    }

uint64_t ops_base_seed(ops_seed *s);
/* The generator of case `number` of `test`. */
ref_rng ops_case_rng(ops_seed *s, const char *test, unsigned number);
/* FNV-1a of a name. */
uint64_t ops_name_hash(const char *name);
/* The case number DMLCL_TEST_CASE selects, or -1 for all. */
long ops_only_case(void);
/*
 * How many of a test's count random cases run: count, or fewer when
 * DMLCL_TEST_CASES=N caps every test at its first N cases (the runs on slow
 * implementations: each test and each of its code paths, fewer random draws).
 */
unsigned ops_case_count(unsigned count);
/* DMLCL_TEST_VERBOSE is set: print every case before it runs. */
bool ops_verbose(void);

/*
 * "GATHER case 3 of gather/random, seed 0x... (replay: DMLCL_TEST_SEED=0x...
 * DMLCL_TEST_CASE=3 dmlcl-ops --filter 'gather/random')"
 */
const char *ops_replay(char *buf, size_t len, const char *op, const char *suite, const char *test,
                       unsigned number, uint64_t seed);

#endif /* DMLCL_TESTS_OPS_CASES_H */
