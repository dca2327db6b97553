/* SPDX-License-Identifier: MIT */
/*
 * The fuzz drivers in the normal test run: every input under
 * fuzz/regressions/<target>/ (crashers kept as regression cases) replayed,
 * and seeded sweeps of inputs that mostly decode to small valid-looking
 * values with edge values mixed in (bytes.c): every front-end result must
 * create its operator, every accepted descriptor's plan must stay inside
 * its tensors, and every refusal must explain itself.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers.h"

typedef int (*driver)(const uint8_t *, size_t, char *, unsigned *);

static unsigned replay(const char *target, driver run)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/regressions/%s", DMLCL_FUZZ_DIR, target);
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        cr_assert(f, "cannot read %s", path);
        static uint8_t buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        char why[FUZZ_WHY] = "";
        cr_expect_eq(run(buf, len, why, NULL), 0, "%s: %s", path, why);
        ++n;
    }
    closedir(d);
    return n;
}

Test(fuzz, regressions_replay)
{
    unsigned n = replay("operators", fuzz_operators) + replay("frontends", fuzz_frontends) +
                 replay("graphs", fuzz_graphs);
#ifdef DMLCL_FUZZ_CASES
    n += replay("cases", fuzz_cases);
#endif
#ifdef DMLCL_FUZZ_DISPATCH
    n += replay("dispatch", fuzz_dispatch);
#endif
    cr_expect(n > 0, "no regression inputs found under %s/regressions", DMLCL_FUZZ_DIR);
}

#define SEED_MAX 1024

/* Mostly bytes 120..124 (small values 0..4 in bytes.c's signed and unsigned codes). */
static void biased_bytes(uint8_t *buf, size_t len, unsigned *state)
{
    for (size_t i = 0; i < len; ++i) {
        *state = *state * 1103515245u + 12345u;
        unsigned r = *state >> 16;
        buf[i] = (uint8_t)(r % 8 ? 120 + r % 5 : r);
    }
}

/*
 * runs inputs: seeds[i % n] with 1-3 bytes replaced when seeds are given,
 * else biased random bytes whose first byte (the front-end or operator type)
 * cycles through every value.
 */
static void sweep(const char *name, driver run, unsigned runs, unsigned want_accepted,
                  uint8_t (*seeds)[SEED_MAX], const size_t *lens, unsigned n, unsigned kinds)
{
    unsigned seed = 20261123, state = seed, accepted = 0, broken = 0, per_kind[16] = {0};
    uint8_t buf[SEED_MAX];
    for (unsigned i = 0; i < runs; ++i) {
        size_t len = sizeof buf;
        biased_bytes(buf, len, &state);
        buf[0] = (uint8_t)i;
        if (n) {
            uint8_t noise[4];
            biased_bytes(noise, sizeof noise, &state);
            len = lens[i % n];
            memcpy(buf, seeds[i % n], len);
            for (unsigned m = 0; i >= n && m <= noise[0] % 3u; ++m)
                buf[(state >> 8) % len] = noise[1 + m], state = state * 1103515245u + 12345u;
        }
        char why[FUZZ_WHY] = "";
        unsigned before = accepted;
        if (run(buf, len, why, &accepted) && broken++ < 5)
            cr_expect(0, "%s (seed %u, run %u): %s", name, seed, i, why);
        if (kinds)
            per_kind[buf[0] % kinds] += accepted - before;
    }
    for (unsigned k = 0; k < kinds; ++k)
        cr_expect(per_kind[k] >= 5, "%s: kind %u accepted %u times only", name, k, per_kind[k]);
    cr_expect_eq(broken, 0, "%s: %u broken invariants", name, broken);
    cr_expect(accepted >= want_accepted, "%s: only %u of %u accepted: the sweep tests little", name,
              accepted, runs);
}

Test(fuzz, frontends_sweep)
{
    /* 8 front-ends, chosen by the first byte (frontends.c). */
    sweep("front-ends", fuzz_frontends, 60000, 1000, NULL, NULL, 0, 8);
}

/* Graphs of 0-6 nodes (graphs.c): at least a tenth accepted, each planned and checked. */
Test(fuzz, graphs_sweep)
{
    sweep("graphs", fuzz_graphs, 30000, 3000, NULL, NULL, 0, 0);
}

#ifdef DMLCL_FUZZ_CASES
#include "runner.h"

/* Every conformance case's descriptor, encoded for fuzz_operators, then mutated. */
Test(fuzz, operators_sweep_from_conformance_cases)
{
    static uint8_t seeds[512][SEED_MAX];
    static size_t lens[512];
    unsigned n = 0;
    rt_suite s;
    memset(&s, 0, sizeof s);
    rt_suite_load(&s, DMLCL_CASES_DIR);
    for (size_t i = 0; i < s.n_cases && n < 512; ++i) {
        const rt_op *op = s.cases[i].malformed ? NULL : rt_op_find(s.cases[i].op);
        rt_build b;
        memset(&b, 0, sizeof b);
        b.c = &s.cases[i];
        if (op && op->build(&b) == 0 && SUCCEEDED(b.frontend_hr) &&
            (lens[n] = fuzz_encode_operator(&b.desc, seeds[n], SEED_MAX)) > 0)
            ++n;
        rt_build_free(&b);
    }
    rt_suite_free(&s);
    cr_assert(n >= 50, "only %u conformance cases encoded", n);
    sweep("operators from cases", fuzz_operators, 40000, 4000, seeds, lens, n, 0);
}
#endif
