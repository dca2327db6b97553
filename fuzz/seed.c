/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-fuzz-seed CASES OUT: the seed corpus. OUT/operators gets the
 * descriptor of every conformance case under CASES that builds (DirectML and
 * extension operators, and what the front-ends produce), in fuzz_operators'
 * encoding; OUT/frontends gets, per front-end, the first inputs of a seeded
 * search that it accepts (the case files do not keep front-end arguments).
 * The case files themselves seed the cases target (scripts/fuzz copies them).
 * OUT/com, when it exists, gets every 8th operator seed in fuzz_com's
 * encoding, run as an operator and as a one-node graph.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers.h"
#include "runner.h"

static int write_seed(const char *dir, const char *target, unsigned n, const uint8_t *buf,
                      size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/seed-%05u", dir, target, n);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len) {
        fprintf(stderr, "dmlcl-fuzz-seed: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* OUT/com is made by scripts/fuzz when the DirectML API target is built. */
static int com_dir_exists(const char *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/com", out);
    DIR *d = opendir(path);
    if (d)
        closedir(d);
    return d != NULL;
}

static unsigned operator_seeds(const char *cases, const char *out)
{
    rt_suite s;
    memset(&s, 0, sizeof s);
    rt_suite_load(&s, cases);
    unsigned n = 0;
    static uint8_t buf[1 << 16];
    for (size_t i = 0; i < s.n_cases; ++i) {
        const rt_case *c = &s.cases[i];
        const rt_op *op = c->malformed ? NULL : rt_op_find(c->op);
        if (!op)
            continue;
        rt_build b;
        memset(&b, 0, sizeof b);
        b.c = c;
        size_t len = 0;
        if (op->build(&b) == 0 && SUCCEEDED(b.frontend_hr))
            len = fuzz_encode_operator(&b.desc, buf + 2, sizeof buf - 2);
        if (len && write_seed(out, "operators", n, buf + 2, len) == 0) {
            /* DirectML's API (fuzz_com): the operator run, or a graph of it, every 8th case
             * (each new kernel variant is a device compile). */
            if (n % 8 == 0 && com_dir_exists(out)) {
                buf[0] = 1;
                buf[1] = 0;
                write_seed(out, "com", n / 4, buf + 1, len + 1);
                write_seed(out, "com", n / 4 + 1, buf, len + 2);
            }
            ++n;
        }
        rt_build_free(&b);
    }
    rt_suite_free(&s);
    return n;
}

/* Bytes that mostly decode to small, valid-looking values (see bytes.c). */
static void biased_bytes(uint8_t *buf, size_t len, unsigned *state)
{
    for (size_t i = 0; i < len; ++i) {
        *state = *state * 1103515245u + 12345u;
        unsigned r = *state >> 16;
        buf[i] = (uint8_t)(r % 8 ? 120 + r % 5 : r);
    }
}

static unsigned frontend_seeds(const char *out, int *broken)
{
    unsigned n = 0, state = 20261123, per_kind[8] = {0};
    uint8_t buf[160];
    char why[FUZZ_WHY];
    for (unsigned tries = 0; tries < 200000 && n < 8 * 8; ++tries) {
        biased_bytes(buf, sizeof buf, &state);
        unsigned kind = buf[0] % 8;
        if (per_kind[kind] >= 8)
            continue;
        unsigned accepted = 0;
        if (fuzz_frontends(buf, sizeof buf, why, &accepted)) {
            fprintf(stderr, "dmlcl-fuzz-seed: %s\n", why);
            *broken = 1;
        } else if (accepted && write_seed(out, "frontends", n, buf, sizeof buf) == 0) {
            ++per_kind[kind];
            ++n;
        }
    }
    return n;
}

/* Graphs the import accepted, a few of each node count (1-6). */
static unsigned graph_seeds(const char *out, int *broken)
{
    unsigned n = 0, state = 20261127, per_count[7] = {0};
    uint8_t buf[256];
    char why[FUZZ_WHY];
    for (unsigned tries = 0; tries < 200000 && n < 6 * 8; ++tries) {
        biased_bytes(buf, sizeof buf, &state);
        unsigned nodes = buf[0] % 7;
        if (nodes == 0 || per_count[nodes] >= 8)
            continue;
        unsigned accepted = 0;
        if (fuzz_graphs(buf, sizeof buf, why, &accepted)) {
            fprintf(stderr, "dmlcl-fuzz-seed: %s\n", why);
            *broken = 1;
        } else if (accepted && write_seed(out, "graphs", n, buf, sizeof buf) == 0) {
            ++per_count[nodes];
            ++n;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dmlcl-fuzz-seed CASES_DIR OUT_DIR\n");
        return 2;
    }
    int broken = 0;
    unsigned ops = operator_seeds(argv[1], argv[2]);
    unsigned fes = frontend_seeds(argv[2], &broken);
    unsigned gs = graph_seeds(argv[2], &broken);
    printf("dmlcl-fuzz-seed: %u operator seeds, %u front-end seeds, %u graph seeds\n", ops, fes,
           gs);
    return ops && fes && gs && !broken ? 0 : 1;
}
