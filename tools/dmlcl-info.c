/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-info [--json] [--device SPEC]: what dmlcl sees and would do on this
 * machine. The OpenCL platforms and devices with their indices and the
 * DMLCL_DEVICE spec that picks each; the device dmlcl_device_create takes
 * and why; for that device (or --device SPEC): its kernel class, the data
 * types and feature level it reports, the kernel variants a set of sample
 * operators compiles to, and the program cache (built once, then hit).
 */
#include "tool.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <dmlcl/frontends.h>

#include "device.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64
#define MAX_ENTRIES 128

typedef struct entry {
    unsigned platform, index;
    char platform_name[128], name[128], version[128], driver[128];
    cl_device_type type;
    cl_device_id id;
} entry;

static const char *type_text(cl_device_type t)
{
    return (t & CL_DEVICE_TYPE_GPU)           ? "gpu"
           : (t & CL_DEVICE_TYPE_CPU)         ? "cpu"
           : (t & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                              : "other";
}

static const char *class_text(dmlcl_device_class c)
{
    return c == DMLCL_DEVICE_CLASS_GPU   ? "gpu"
           : c == DMLCL_DEVICE_CLASS_CPU ? "cpu"
                                         : "accelerator";
}

static size_t list_devices(entry *e)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    size_t n = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &np) != CL_SUCCESS)
        return 0;
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS; ++p) {
        cl_device_id ids[MAX_DEVICES];
        cl_uint nd = 0;
        char pname[128] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAX_DEVICES && n < MAX_ENTRIES; ++d, ++n) {
            entry *x = &e[n];
            memset(x, 0, sizeof *x);
            x->platform = p;
            x->index = d;
            x->id = ids[d];
            snprintf(x->platform_name, sizeof x->platform_name, "%s", pname);
            clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof x->name - 1, x->name, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_VERSION, sizeof x->version - 1, x->version, NULL);
            clGetDeviceInfo(ids[d], CL_DRIVER_VERSION, sizeof x->driver - 1, x->driver, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof x->type, &x->type, NULL);
        }
    }
    return n;
}

/* Why dmlcl_device_create chose it: the variables, else dmlcl.h's preference order. */
static void default_reason(const entry *chosen, char *why, size_t len)
{
    const char *p = getenv("DMLCL_PLATFORM"), *d = getenv("DMLCL_DEVICE");
    if (p && *p)
        snprintf(why, len, "DMLCL_PLATFORM=\"%s\" DMLCL_DEVICE=\"%s\": the first match", p,
                 d ? d : "");
    else if (d && *d)
        snprintf(why, len, "DMLCL_DEVICE=\"%s\": the first match", d);
    else if (chosen->type & CL_DEVICE_TYPE_GPU)
        snprintf(why, len, "DMLCL_DEVICE unset: the first GPU");
    else if (chosen->type & CL_DEVICE_TYPE_CPU)
        snprintf(why, len, "DMLCL_DEVICE unset and no GPU: the first CPU");
    else
        snprintf(why, len, "DMLCL_DEVICE unset, no GPU or CPU: the first device");
}

static const struct {
    DML_TENSOR_DATA_TYPE type;
    const char *name;
} types[] = {
    {DML_TENSOR_DATA_TYPE_FLOAT32, "float32"}, {DML_TENSOR_DATA_TYPE_FLOAT16, "float16"},
    {DML_TENSOR_DATA_TYPE_UINT32, "uint32"},   {DML_TENSOR_DATA_TYPE_UINT16, "uint16"},
    {DML_TENSOR_DATA_TYPE_UINT8, "uint8"},     {DML_TENSOR_DATA_TYPE_INT32, "int32"},
    {DML_TENSOR_DATA_TYPE_INT16, "int16"},     {DML_TENSOR_DATA_TYPE_INT8, "int8"},
    {DML_TENSOR_DATA_TYPE_FLOAT64, "float64"}, {DML_TENSOR_DATA_TYPE_UINT64, "uint64"},
    {DML_TENSOR_DATA_TYPE_INT64, "int64"},
};
#define TYPE_COUNT (sizeof types / sizeof types[0])

static unsigned feature_level(dmlcl_device *dev)
{
    DML_FEATURE_LEVEL levels[] = {
        DML_FEATURE_LEVEL_1_0, DML_FEATURE_LEVEL_2_0, DML_FEATURE_LEVEL_2_1, DML_FEATURE_LEVEL_3_0,
        DML_FEATURE_LEVEL_3_1, DML_FEATURE_LEVEL_4_0, DML_FEATURE_LEVEL_4_1, DML_FEATURE_LEVEL_5_0,
        DML_FEATURE_LEVEL_5_1, DML_FEATURE_LEVEL_5_2, DML_FEATURE_LEVEL_6_0, DML_FEATURE_LEVEL_6_1,
        DML_FEATURE_LEVEL_6_2, DML_FEATURE_LEVEL_6_3, DML_FEATURE_LEVEL_6_4};
    DML_FEATURE_QUERY_FEATURE_LEVELS q = {sizeof levels / sizeof levels[0], levels};
    DML_FEATURE_DATA_FEATURE_LEVELS r = {0};
    if (FAILED(dmlcl_device_check_feature_support(dev, DML_FEATURE_FEATURE_LEVELS, sizeof q, &q,
                                                  sizeof r, &r)))
        return 0;
    return (unsigned)r.MaxSupportedFeatureLevel;
}

/* ---- Sample operators: what kernels the device gets -------------------------------- */

typedef struct sample {
    const char *name;
    HRESULT (*make)(dmlcl_frontend_result *r);
} sample;

static HRESULT gather_rows(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {2, {1024, 256}}, i = {1, {512}};
    dmlcl_onnx_gather_args a = {&d, DML_TENSOR_DATA_TYPE_FLOAT32, &i, DML_TENSOR_DATA_TYPE_INT64,
                                0};
    return dmlcl_onnx_gather(13, &a, r);
}

static HRESULT gather_columns(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {2, {1024, 256}}, i = {1, {64}};
    dmlcl_onnx_gather_args a = {&d, DML_TENSOR_DATA_TYPE_UINT8, &i, DML_TENSOR_DATA_TYPE_INT32, 1};
    return dmlcl_onnx_gather(13, &a, r);
}

static HRESULT gather_elements(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {2, {256, 256}}, i = {2, {256, 16}};
    dmlcl_onnx_gather_args a = {&d, DML_TENSOR_DATA_TYPE_FLOAT16, &i, DML_TENSOR_DATA_TYPE_INT64,
                                1};
    return dmlcl_onnx_gather_elements(13, &a, r);
}

static HRESULT gather_nd(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {3, {64, 64, 32}}, i = {2, {100, 2}};
    dmlcl_onnx_gather_nd_args a = {&d, DML_TENSOR_DATA_TYPE_INT32, &i, DML_TENSOR_DATA_TYPE_INT64,
                                   0};
    return dmlcl_onnx_gather_nd(13, &a, r);
}

static HRESULT slice_reverse(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {2, {512, 512}};
    int64_t starts[] = {-1}, ends[] = {INT64_MIN}, axes[] = {1}, steps[] = {-1};
    dmlcl_int_array s = {DML_TENSOR_DATA_TYPE_INT64, 1, starts},
                    e = {DML_TENSOR_DATA_TYPE_INT64, 1, ends},
                    x = {DML_TENSOR_DATA_TYPE_INT64, 1, axes},
                    t = {DML_TENSOR_DATA_TYPE_INT64, 1, steps};
    dmlcl_onnx_slice_args a = {.data = &d,
                               .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                               .starts = &s,
                               .ends = &e,
                               .axes = &x,
                               .steps = &t};
    return dmlcl_onnx_slice(13, &a, r);
}

static HRESULT expand_rows(dmlcl_frontend_result *r)
{
    dmlcl_shape d = {2, {1, 1024}};
    int64_t shape[] = {512, 1024};
    dmlcl_int_array s = {DML_TENSOR_DATA_TYPE_INT64, 2, shape};
    dmlcl_onnx_expand_args a = {&d, DML_TENSOR_DATA_TYPE_FLOAT32, &s, NULL};
    return dmlcl_onnx_expand(13, &a, r);
}

static const sample samples[] = {
    {"ONNX Gather float32 [1024,256] axis 0, 512 rows", gather_rows},
    {"ONNX Gather uint8 [1024,256] axis 1, 64 columns", gather_columns},
    {"ONNX GatherElements float16 [256,256] axis 1", gather_elements},
    {"ONNX GatherND int32 [64,64,32], 100 pairs", gather_nd},
    {"ONNX Slice float32 [512,512], axis 1 reversed", slice_reverse},
    {"ONNX Expand float32 [1,1024] -> [512,1024]", expand_rows},
};
#define SAMPLE_COUNT (sizeof samples / sizeof samples[0])

typedef struct compiled_samples {
    HRESULT hr[SAMPLE_COUNT];
    char error[SAMPLE_COUNT][256];
    unsigned builds_first, builds_again;
    double first_ms, again_ms;
} compiled_samples;

static HRESULT compile_sample(dmlcl_device *dev, const sample *s)
{
    dmlcl_frontend_result r;
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = s->make(&r);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_create(dev, &r.desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

/* Every sample twice: the first round builds, the second must find each program cached. */
static void compile_samples(dmlcl_device *dev, compiled_samples *out)
{
    unsigned before = dmli_device_builds(dev);
    double t0 = dmlcl_tool_now();
    dmlcl_tool_progress progress;
    dmlcl_tool_progress_start(&progress, "dmlcl-info");
    for (size_t i = 0; i < SAMPLE_COUNT; ++i) {
        dmlcl_tool_progress_step(&progress, (unsigned)i, SAMPLE_COUNT, samples[i].name);
        out->hr[i] = compile_sample(dev, &samples[i]);
        snprintf(out->error[i], sizeof out->error[i], "%s",
                 FAILED(out->hr[i]) ? dmlcl_last_error() : "");
    }
    dmlcl_tool_progress_end(&progress);
    double t1 = dmlcl_tool_now();
    out->builds_first = dmli_device_builds(dev) - before;
    for (size_t i = 0; i < SAMPLE_COUNT; ++i)
        compile_sample(dev, &samples[i]);
    out->builds_again = dmli_device_builds(dev) - before - out->builds_first;
    out->first_ms = 1e3 * (t1 - t0);
    out->again_ms = 1e3 * (dmlcl_tool_now() - t1);
}

/* ---- Output ---------------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

typedef struct report {
    entry entries[MAX_ENTRIES];
    size_t n;
    int default_entry; /* -1: none */
    char default_why[256], default_error[512];
    int shown_entry; /* the device the details are for; -1: none */
    dmlcl_device *device;
    char device_error[512];
    unsigned level;
    bool supported[TYPE_COUNT];
    compiled_samples samples;
} report;

static void print_text(const report *r)
{
    printf("dmlcl %s\n\nOpenCL devices (DMLCL_DEVICE=\"P:D\" picks one; DMLCL_DEVICE also takes "
           "part of a name, or gpu, cpu, accelerator):\n",
           dmlcl_version_string());
    if (r->n == 0)
        printf("  none: no OpenCL platform or device (is an ICD such as PoCL installed?)\n");
    for (size_t i = 0; i < r->n; ++i) {
        const entry *e = &r->entries[i];
        printf("  %s %u:%u  %-11s %s / %s (%s; driver %s)\n",
               (int)i == r->default_entry ? "*" : " ", e->platform, e->index, type_text(e->type),
               e->platform_name, e->name, e->version, e->driver);
    }
    if (r->default_entry >= 0)
        printf("\nDefault device (*): %u:%u, %s\n", r->entries[r->default_entry].platform,
               r->entries[r->default_entry].index, r->default_why);
    else
        printf("\nDefault device: none (%s)\n", r->default_error);
    if (!r->device) {
        printf("Device: %s\n", r->device_error);
        return;
    }
    printf("\nDevice: %s\n", dmlcl_device_description(r->device));
    printf("  kernel class:   %s%s\n", class_text(dmlcl_device_get_class(r->device)),
           getenv("DMLCL_DEVICE_CLASS") && *getenv("DMLCL_DEVICE_CLASS") ? " (DMLCL_DEVICE_CLASS)"
                                                                         : " (the device's type)");
    printf("  feature level:  %u.%u\n", r->level >> 12, (r->level >> 8) & 0xF);
    printf("  data types:    ");
    for (size_t t = 0; t < TYPE_COUNT; ++t)
        if (r->supported[t])
            printf(" %s", types[t].name);
    printf("\n\nKernel variants for sample operators:\n");
    for (size_t i = 0; i < SAMPLE_COUNT; ++i)
        printf("  %-52s %s%s\n", samples[i].name,
               SUCCEEDED(r->samples.hr[i]) ? "compiled" : dmlcl_hresult_name(r->samples.hr[i]),
               r->samples.error[i]);
    const char *family, *options;
    for (size_t i = 0; dmli_device_cached_program(r->device, i, &family, &options); ++i)
        printf("  program %zu: %s %s\n", i + 1, family, options);
    printf("\nProgram cache: in memory, per dmlcl_device (one build per kernel variant, not per "
           "shape; none on disk).\n  first compile of the samples: %u programs built, %.1f ms; "
           "again: %u built, %.2f ms\n",
           r->samples.builds_first, r->samples.first_ms, r->samples.builds_again,
           r->samples.again_ms);
}

static void print_json(const report *r)
{
    printf("{\"version\": ");
    json_string(dmlcl_version_string());
    printf(", \"devices\": [");
    for (size_t i = 0; i < r->n; ++i) {
        const entry *e = &r->entries[i];
        char spec[32];
        snprintf(spec, sizeof spec, "%u:%u", e->platform, e->index);
        printf("%s\n  {\"platform\": %u, \"index\": %u, \"spec\": \"%s\", \"type\": \"%s\", "
               "\"default\": %s, \"platform_name\": ",
               i ? "," : "", e->platform, e->index, spec, type_text(e->type),
               (int)i == r->default_entry ? "true" : "false");
        json_string(e->platform_name);
        printf(", \"name\": ");
        json_string(e->name);
        printf(", \"version\": ");
        json_string(e->version);
        printf(", \"driver\": ");
        json_string(e->driver);
        printf("}");
    }
    printf("],\n \"default\": {\"reason\": ");
    json_string(r->default_entry >= 0 ? r->default_why : r->default_error);
    if (r->default_entry >= 0)
        printf(", \"spec\": \"%u:%u\"", r->entries[r->default_entry].platform,
               r->entries[r->default_entry].index);
    printf("},\n \"device\": ");
    if (!r->device) {
        printf("{\"error\": ");
        json_string(r->device_error);
        printf("}}\n");
        return;
    }
    printf("{\"description\": ");
    json_string(dmlcl_device_description(r->device));
    printf(", \"class\": \"%s\", \"feature_level\": \"%u.%u\", \"types\": [",
           class_text(dmlcl_device_get_class(r->device)), r->level >> 12, (r->level >> 8) & 0xF);
    for (size_t t = 0, k = 0; t < TYPE_COUNT; ++t)
        if (r->supported[t])
            printf("%s\"%s\"", k++ ? ", " : "", types[t].name);
    printf("],\n  \"samples\": [");
    for (size_t i = 0; i < SAMPLE_COUNT; ++i) {
        printf("%s\n   {\"operator\": ", i ? "," : "");
        json_string(samples[i].name);
        printf(", \"result\": \"%s\", \"error\": ", dmlcl_hresult_name(r->samples.hr[i]));
        json_string(r->samples.error[i]);
        printf("}");
    }
    printf("],\n  \"programs\": [");
    const char *family, *options;
    for (size_t i = 0; dmli_device_cached_program(r->device, i, &family, &options); ++i) {
        printf("%s\n   {\"family\": ", i ? "," : "");
        json_string(family);
        printf(", \"options\": ");
        json_string(options);
        printf("}");
    }
    printf("],\n  \"cache\": {\"kind\": \"memory, per device\", \"built_first\": %u, "
           "\"first_ms\": %.3f, \"built_again\": %u, \"again_ms\": %.3f}}}\n",
           r->samples.builds_first, r->samples.first_ms, r->samples.builds_again,
           r->samples.again_ms);
}

/* --operators: every operator dmlcl implements, DirectML's and dmlcl's extensions. */
static void print_operators(int json)
{
    size_t n = dmli_op_class_count(), ext = 0;
    for (size_t i = 0; i < n; ++i)
        ext += dmli_op_class_at(i)->type >= DMLCL_OPERATOR_TYPE_BASE;
    if (json) {
        printf("{\"operators\": [");
        for (size_t i = 0; i < n; ++i) {
            const dmli_op_class *c = dmli_op_class_at(i);
            printf("%s{\"name\": ", i ? ", " : "");
            json_string(c->name);
            printf(", \"type\": %u, \"directml\": %s}", (unsigned)c->type,
                   c->type < DMLCL_OPERATOR_TYPE_BASE ? "true" : "false");
        }
        printf("]}\n");
        return;
    }
    printf("dmlcl %s: %zu DirectML operators (DML_OPERATOR_<NAME>), %zu extensions "
           "(DMLCL_OPERATOR_<NAME>); rules and types: docs/operators.md\n",
           dmlcl_version_string(), n - ext, ext);
    for (size_t i = 0; i < n; ++i) {
        const dmli_op_class *c = dmli_op_class_at(i);
        printf("  %s_OPERATOR_%s\n", c->type < DMLCL_OPERATOR_TYPE_BASE ? "DML" : "DMLCL", c->name);
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dmlcl-info [--json] [--device SPEC] [--operators]\n"
               "  Lists the OpenCL platforms and devices dmlcl sees, each with the DMLCL_DEVICE\n"
               "  spec that picks it, the default device and why, and for the default device\n"
               "  (or SPEC) its kernel class, data types, feature level, the kernel variants\n"
               "  sample operators compile to and the program cache.\n"
               "  --json          one JSON object on stdout\n"
               "  --device SPEC   [PLATFORM:]DEVICE, as DMLCL_PLATFORM/DMLCL_DEVICE\n"
               "  --operators     the operators dmlcl implements (no device needed)\n"
               "  --version       the version\n"
               "  --help          this text\n");
}

int main(int argc, char **argv)
{
    int json = 0, operators = 0;
    const char *spec = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--operators")) {
            operators = 1;
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            spec = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version")) {
            dmlcl_tool_version("dmlcl-info");
            return 0;
        } else {
            fprintf(stderr, "dmlcl-info: unknown argument %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (operators) {
        print_operators(json);
        return 0;
    }
    static report r;
    r.n = list_devices(r.entries);
    r.default_entry = r.shown_entry = -1;
    dmlcl_device *def = NULL;
    HRESULT hr = dmlcl_device_create(&def);
    if (FAILED(hr))
        snprintf(r.default_error, sizeof r.default_error, "%s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    for (size_t i = 0; def && i < r.n; ++i)
        if (r.entries[i].id == dmlcl_device_id(def)) {
            r.default_entry = (int)i;
            default_reason(&r.entries[i], r.default_why, sizeof r.default_why);
        }
    if (spec) {
        hr = dmlcl_device_create_from_spec(spec, &r.device);
        dmlcl_device_release(def);
    } else {
        r.device = def;
    }
    if (FAILED(hr))
        snprintf(r.device_error, sizeof r.device_error, "%s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    if (r.device) {
        r.level = feature_level(r.device);
        for (size_t t = 0; t < TYPE_COUNT; ++t) {
            DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT q = {types[t].type};
            DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT s = {0};
            r.supported[t] =
                SUCCEEDED(dmlcl_device_check_feature_support(
                    r.device, DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof q, &q, sizeof s, &s)) &&
                s.IsSupported;
        }
        compile_samples(r.device, &r.samples);
    }
    if (json)
        print_json(&r);
    else
        print_text(&r);
    int status = r.device ? 0 : 1;
    dmlcl_device_release(r.device);
    return status;
}
