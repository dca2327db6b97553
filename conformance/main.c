/*
 * dmlcl-conformance [--device SPEC] [--api c|com] [--filter GLOB] [--list] [--report FILE.md]
 *                   PATH...
 *
 * Runs the dmlcl-case/1 files under PATH on one OpenCL device, through the C
 * runtime or through DirectML's COM API (<DirectML.h>): one line per
 * case (PASS, FAIL with the reason, ERRATUM after a PASS whose case corrects
 * its document), then "N passed, N failed" alone on the last line. Exits 0
 * only when nothing failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define MAX_FILTERS 32

typedef struct options {
    const char *device;
    const char *api;
    const char *filters[MAX_FILTERS];
    unsigned n_filters;
    int list;
    const char *report;
} options;

static void usage(FILE *f)
{
    fprintf(f, "usage: dmlcl-conformance [--device SPEC] [--api c|com] [--filter GLOB] [--list] "
               "[--report FILE.md] PATH...\n"
               "  PATH             case files, or folders searched for *.json\n"
               "  --device SPEC    [PLATFORM:]DEVICE, as DMLCL_PLATFORM/DMLCL_DEVICE "
               "(default: those variables, else the first GPU, else the first CPU)\n"
               "  --api c|com      run through the C runtime (default) or DirectML's COM API\n"
               "  --filter GLOB    run only cases whose name matches (repeatable)\n"
               "  --list           print the selected case names, run nothing\n"
               "  --report FILE    also write a markdown table of the verdicts\n");
}

/* Returns the index of the first PATH, or -1 after printing why. */
static int parse_args(int argc, char **argv, options *o)
{
    int i = 1;
    for (; i < argc; ++i) {
        const char *a = argv[i];
        const char **value = NULL;
        if (strcmp(a, "--") == 0)
            return i + 1;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(a, "--list") == 0) {
            o->list = 1;
            continue;
        }
        if (strcmp(a, "--device") == 0)
            value = &o->device;
        else if (strcmp(a, "--api") == 0)
            value = &o->api;
        else if (strcmp(a, "--report") == 0)
            value = &o->report;
        else if (strcmp(a, "--filter") == 0 && o->n_filters < MAX_FILTERS)
            value = &o->filters[o->n_filters++];
        else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "dmlcl-conformance: unknown option %s\n", a);
            return -1;
        } else {
            break;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "dmlcl-conformance: %s needs a value\n", a);
            return -1;
        }
        *value = argv[++i];
    }
    return i;
}

static int selected(const options *o, const char *name)
{
    if (o->n_filters == 0)
        return 1;
    for (unsigned i = 0; i < o->n_filters; ++i)
        if (fnmatch(o->filters[i], name, 0) == 0)
            return 1;
    return 0;
}

/* ---- Markdown report --------------------------------------------------------------- */

static void md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; s && *s; ++s) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputs("<br>", f);
        else
            fputc(*s, f);
    }
    fputs(" |", f);
}

static FILE *report_open(const char *path, const char *device)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    fprintf(f,
            "# dmlcl conformance\n\nDevice: %s\n\n| name | source | verdict | detail |\n"
            "|---|---|---|---|\n",
            device);
    return f;
}

static void report_row(FILE *f, const rt_case *c, const rt_result *r)
{
    char detail[RT_WHY_MAX + 512];
    if (r->passed && c->erratum != NULL)
        snprintf(detail, sizeof detail, "%s%serratum: %s", r->detail, r->detail[0] ? "; " : "",
                 c->erratum);
    else
        snprintf(detail, sizeof detail, "%s", r->detail);
    fputc('|', f);
    md_cell(f, c->name);
    md_cell(f, c->source ? c->source : c->file);
    md_cell(f, r->passed ? "PASS" : "FAIL");
    md_cell(f, detail);
    fputc('\n', f);
}

/* ---- Main ------------------------------------------------------------------------------ */

static int list_cases(const rt_suite *s, const options *o)
{
    int bad = 0;
    for (size_t i = 0; i < s->n_cases; ++i) {
        const rt_case *c = &s->cases[i];
        if (!c->unnamed && !selected(o, c->name))
            continue;
        if (c->malformed != NULL) {
            fprintf(stderr, "malformed: %s: %s\n", c->name, c->malformed);
            bad = 1;
        } else {
            printf("%s\n", c->name);
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int first = parse_args(argc, argv, &o);
    if (first < 0 || first >= argc) {
        if (first >= 0)
            fprintf(stderr, "dmlcl-conformance: no PATH given\n");
        usage(stderr);
        return 2;
    }
    rt_api api = RT_API_C;
    if (o.api && strcmp(o.api, "com") == 0) {
        api = RT_API_COM;
        if (!rt_com_available()) {
            fprintf(stderr, "dmlcl-conformance: --api com: built without DirectML's C++ API "
                            "(it needs a C++ compiler and DirectX-Headers)\n");
            return 2;
        }
    } else if (o.api && strcmp(o.api, "c") != 0) {
        fprintf(stderr, "dmlcl-conformance: --api must be c or com, not %s\n", o.api);
        return 2;
    }
    rt_suite suite;
    memset(&suite, 0, sizeof suite);
    for (int i = first; i < argc; ++i)
        rt_suite_load(&suite, argv[i]);
    if (o.list) {
        int bad = list_cases(&suite, &o);
        rt_suite_free(&suite);
        return bad;
    }

    dmlcl_device *device = NULL;
    char device_error[RT_WHY_MAX] = "";
    HRESULT hr =
        o.device ? dmlcl_device_create_from_spec(o.device, &device) : dmlcl_device_create(&device);
    if (FAILED(hr)) {
        snprintf(device_error, sizeof device_error, "%s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
        device = NULL;
    }
    char desc[RT_WHY_MAX + 16];
    snprintf(desc, sizeof desc, "%s%s",
             device ? "" : "no device: ", device ? dmlcl_device_description(device) : device_error);
    printf("# dmlcl-conformance %s, api: %s, device: %s\n", dmlcl_version_string(),
           api == RT_API_COM ? "DirectML COM" : "C", desc);
    FILE *report = o.report ? report_open(o.report, desc) : NULL;

    unsigned passed = 0, failed = 0;
    for (size_t i = 0; i < suite.n_cases; ++i) {
        const rt_case *c = &suite.cases[i];
        /* A case without a usable name is reported whatever the filter. */
        if (!c->unnamed && !selected(&o, c->name))
            continue;
        rt_result r;
        rt_run_case(device, device_error, api, c, &r);
        if (r.passed) {
            ++passed;
            if (r.detail[0])
                printf("PASS %s (%s)\n", c->name, r.detail);
            else
                printf("PASS %s\n", c->name);
            if (c->erratum != NULL)
                printf("ERRATUM %s: %s\n", c->name, c->erratum);
        } else {
            ++failed;
            printf("FAIL %s: %s\n", c->name, r.detail);
        }
        if (report != NULL)
            report_row(report, c, &r);
    }
    if (report != NULL && fclose(report) != 0)
        perror(o.report);
    if (device != NULL)
        dmlcl_device_release(device);
    rt_suite_free(&suite);
    printf("%u passed, %u failed\n", passed, failed);
    return failed || (o.report && report == NULL) ? 1 : 0;
}
