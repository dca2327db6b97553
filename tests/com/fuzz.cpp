// SPDX-License-Identifier: MIT
/*
 * dmlcl-com-fuzz: DirectML's C++ API fuzz driver (fuzz/com.cpp) in the
 * normal test run, with any compiler: every input under fuzz/regressions/com
 * replayed; every 4th conformance case's operator, run as an operator and
 * as a one-node graph (create, compile, initialize, bind, dispatch), then
 * each with a few bytes changed; then a seeded sweep of inputs that mostly
 * decode to small valid-looking values (fuzz/bytes.c), the first byte
 * cycling through the driver's actions (devices, feature queries, ...).
 * Any broken invariant fails, naming the input.
 */
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dmlcl/dmlcl.h>

extern "C" {
#include "drivers.h"
#ifdef DMLCL_FUZZ_CASES
#include "runner.h"
#endif
}

static int failures;

static void run(const char *name, const uint8_t *data, size_t size, unsigned *accepted)
{
    char why[FUZZ_WHY] = "";
    if (fuzz_com(data, size, why, accepted) && failures++ < 5)
        std::fprintf(stderr, "dmlcl-com-fuzz: %s: %s\n", name, why);
}

static unsigned replay(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        std::fprintf(stderr, "dmlcl-com-fuzz: cannot open %s\n", dir);
        ++failures;
        return 0;
    }
    unsigned n = 0;
    while (struct dirent *e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        std::string path = std::string(dir) + "/" + e->d_name;
        FILE *f = std::fopen(path.c_str(), "rb");
        std::vector<uint8_t> buf(1 << 16);
        size_t len = f ? std::fread(buf.data(), 1, buf.size(), f) : 0;
        if (f)
            std::fclose(f);
        run(path.c_str(), buf.data(), len, nullptr);
        ++n;
    }
    closedir(d);
    return n;
}

/* Mostly bytes 120..124 (small values in bytes.c's codes), now and then any byte. */
static void biased(uint8_t *buf, size_t len, unsigned *state)
{
    for (size_t i = 0; i < len; ++i) {
        *state = *state * 1103515245u + 12345u;
        unsigned r = *state >> 16;
        buf[i] = (uint8_t)(r % 8 ? 120 + r % 5 : r);
    }
}

/* Conformance cases' operators in fuzz_com's encoding: 0 then the operator, 1 0 then it. */
static std::vector<std::vector<uint8_t>> case_seeds()
{
    std::vector<std::vector<uint8_t>> seeds;
#ifdef DMLCL_FUZZ_CASES
    rt_suite s;
    std::memset(&s, 0, sizeof s);
    rt_suite_load(&s, DMLCL_CASES_DIR);
    static uint8_t buf[1 << 16];
    for (size_t i = 0; i < s.n_cases; i += 4) {
        const rt_op *op = s.cases[i].malformed ? nullptr : rt_op_find(s.cases[i].op);
        rt_build b;
        std::memset(&b, 0, sizeof b);
        b.c = &s.cases[i];
        size_t len = 0;
        if (op && op->build(&b) == 0 && SUCCEEDED(b.frontend_hr))
            len = fuzz_encode_operator(&b.desc, buf + 2, sizeof buf - 2);
        rt_build_free(&b);
        if (!len)
            continue;
        buf[0] = 1;
        buf[1] = 0;
        seeds.emplace_back(buf + 1, buf + 2 + len);
        seeds.emplace_back(buf, buf + 2 + len);
    }
    rt_suite_free(&s);
#endif
    return seeds;
}

int main(int argc, char **argv)
{
    unsigned runs = argc > 1 ? (unsigned)std::atoi(argv[1]) : 200, accepted = 0;
    unsigned n = replay(DMLCL_FUZZ_DIR "/regressions/com");
    unsigned state = 20261201;
    std::vector<std::vector<uint8_t>> seeds = case_seeds();
    for (size_t i = 0; i < seeds.size(); ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "case seed %zu", i);
        run(name, seeds[i].data(), seeds[i].size(), &accepted);
        std::vector<uint8_t> mutated = seeds[i];
        uint8_t noise[4];
        biased(noise, sizeof noise, &state);
        for (unsigned m = 0; m <= noise[0] % 3u; ++m)
            mutated[(state >> 8) % mutated.size()] = noise[1 + m], biased(noise, 1, &state);
        std::snprintf(name, sizeof name, "case seed %zu mutated (seed 20261201)", i);
        run(name, mutated.data(), mutated.size(), &accepted);
    }
    uint8_t buf[512];
    for (unsigned i = 0; i < runs; ++i) {
        biased(buf, sizeof buf, &state);
        buf[0] = (uint8_t)i; /* every action */
        char name[64];
        std::snprintf(name, sizeof name, "sweep run %u (seed 20261201)", i);
        run(name, buf, sizeof buf, &accepted);
    }
    std::printf("dmlcl-com-fuzz: %u regressions, %zu case seeds (and as many mutated), %u sweep "
                "runs, %u calls accepted: %s\n",
                n, seeds.size(), runs, accepted, failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
