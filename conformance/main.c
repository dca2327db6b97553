/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-conformance [--device SPEC] [--api c|com] [--filter GLOB] [--list] [--report FILE.md]
 *                   [--json] [PATH...]
 *
 * Runs the dmlcl-case/1 files under PATH on one OpenCL device, through the C
 * runtime or through DirectML's COM API (<DirectML.h>): one line per
 * case (PASS, FAIL with the reason, ERRATUM after a PASS whose case corrects
 * its document), then "N passed, N failed" alone on the last line. Exits 0
 * only when nothing failed. --json prints one JSON object instead. Without
 * PATH: the installed cases (share/dmlcl/conformance beside the program's
 * bin/), else the source tree's when run from the build tree.
 */
#define _XOPEN_SOURCE 700 /* realpath, with POSIX.1-2008 */

#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"
#include "tool.h"

#define MAX_FILTERS 32

typedef struct options {
    const char *device;
    const char *api;
    const char *filters[MAX_FILTERS];
    unsigned n_filters;
    int list, json;
    const char *report;
} options;

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The cases run when no PATH is given: $DMLCL_CONFORMANCE_CASES; the
 * installed ones, found from the program's own folder (so a prefix can move);
 * else the source tree's, for the program in the build tree.
 */
static const char *cases_dir(void)
{
    static char dir[PATH_MAX + 64];
    const char *env = getenv("DMLCL_CONFORMANCE_CASES");
    if (env && *env)
        return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char joined[PATH_MAX + 64];
        snprintf(joined, sizeof joined, "%s/%s", dirname(exe), DMLCL_CASES_FROM_BINDIR);
        if (is_dir(joined) && realpath(joined, dir))
            return dir;
    }
    return DMLCL_CASES_SOURCE;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dmlcl-conformance [--device SPEC] [--api c|com] [--filter GLOB] [--list] "
            "[--report FILE.md] [--json] [PATH...]\n"
            "  PATH             case files, or folders searched for *.json (default: the "
            "installed cases, %s)\n"
            "  --device SPEC    [PLATFORM:]DEVICE, as DMLCL_PLATFORM/DMLCL_DEVICE "
            "(default: those variables, else the first GPU, else the first CPU)\n"
            "  --api c|com      run through the C runtime (default) or DirectML's COM API\n"
            "  --filter GLOB    run only cases whose name matches (repeatable)\n"
            "  --list           print the selected case names, run nothing\n"
            "  --report FILE    also write a markdown table of the verdicts\n"
            "  --json           print one JSON object (device, cases, verdicts) instead\n"
            "  --version        the version\n",
            cases_dir());
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
        if (strcmp(a, "--version") == 0) {
            dmlcl_tool_version("dmlcl-conformance");
            exit(0);
        }
        if (strcmp(a, "--list") == 0) {
            o->list = 1;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
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

/* ---- JSON output ------------------------------------------------------------------ */

static cJSON *json_start(const char *device, const char *api, const char *cases)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "version", dmlcl_version_string());
    cJSON_AddStringToObject(j, "api", api);
    cJSON_AddStringToObject(j, "device", device);
    if (cases)
        cJSON_AddStringToObject(j, "cases_dir", cases);
    cJSON_AddArrayToObject(j, "cases");
    return j;
}

static void json_case(cJSON *j, const rt_case *c, const rt_result *r)
{
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", c->name);
    cJSON_AddStringToObject(x, "file", c->file ? c->file : "");
    cJSON_AddStringToObject(x, "verdict", r->passed ? "PASS" : "FAIL");
    cJSON_AddStringToObject(x, "detail", r->detail);
    if (r->passed && c->erratum)
        cJSON_AddStringToObject(x, "erratum", c->erratum);
    cJSON_AddItemToArray(cJSON_GetObjectItem(j, "cases"), x);
}

static void json_end(cJSON *j, unsigned passed, unsigned failed)
{
    cJSON_AddNumberToObject(j, "passed", passed);
    cJSON_AddNumberToObject(j, "failed", failed);
    char *text = cJSON_Print(j);
    if (text)
        puts(text);
    free(text);
    cJSON_Delete(j);
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
    if (first < 0) {
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
    const char *default_cases = first < argc ? NULL : cases_dir();
    if (default_cases && !is_dir(default_cases)) {
        fprintf(stderr, "dmlcl-conformance: no PATH given and no installed cases at %s\n",
                default_cases);
        return 2;
    }
    if (default_cases)
        rt_suite_load(&suite, default_cases);
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
    const char *api_name = api == RT_API_COM ? "DirectML COM" : "C";
    cJSON *json = o.json ? json_start(desc, api_name, default_cases) : NULL;
    if (!json)
        printf("# dmlcl-conformance %s, api: %s, device: %s%s%s\n", dmlcl_version_string(),
               api_name, desc, default_cases ? ", cases: " : "",
               default_cases ? default_cases : "");
    dmlcl_tool_progress progress;
    dmlcl_tool_progress_start(&progress, "dmlcl-conformance");
    FILE *report = o.report ? report_open(o.report, desc) : NULL;

    unsigned passed = 0, failed = 0;
    for (size_t i = 0; i < suite.n_cases; ++i) {
        const rt_case *c = &suite.cases[i];
        /* A case without a usable name is reported whatever the filter. */
        if (!c->unnamed && !selected(&o, c->name))
            continue;
        rt_result r;
        dmlcl_tool_progress_step(&progress, (unsigned)i, (unsigned)suite.n_cases, c->name);
        rt_run_case(device, device_error, api, c, &r);
        if (json) {
            json_case(json, c, &r);
            r.passed ? ++passed : ++failed;
        } else if (r.passed) {
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
    dmlcl_tool_progress_end(&progress);
    if (report != NULL && fclose(report) != 0)
        perror(o.report);
    if (device != NULL)
        dmlcl_device_release(device);
    rt_suite_free(&suite);
    if (json)
        json_end(json, passed, failed);
    else
        printf("%u passed, %u failed\n", passed, failed);
    return failed || (o.report && report == NULL) ? 1 : 0;
}
