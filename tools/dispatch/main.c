/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-dispatch: runs DxDispatch's JSON models (resources, DirectML
 * operator dispatchables, commands) on an OpenCL device through dmlcl, with
 * DxDispatch's command line where it applies (docs/dispatch.md).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "tool.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dmlcl-dispatch [OPTION...] <PATH_TO_MODEL>\n"
            "Runs a DxDispatch JSON model (resources, DirectML operator dispatchables,\n"
            "commands) on an OpenCL device through dmlcl. See docs/dispatch.md.\n"
            "\n"
            "  -m, --model PATH                 the model (or give it as the argument)\n"
            "  -i, --dispatch_iterations N      bind/dispatch/wait iterations (default 1)\n"
            "  -r, --dispatch_repeat N          dispatches per iteration (default 1)\n"
            "  -t, --milliseconds_to_run N      run each dispatch for N ms (overrides -i)\n"
            "  -I, --dispatch_interval N        at least N ms between iterations (default 0)\n"
            "  -w, --warmup_samples N           first samples left out of the hot timings\n"
            "                                   (default 1)\n"
            "  -v, --timing_verbosity N         0: hot timings; 1: also initialization and\n"
            "                                   cold; 2: also every iteration (default 0)\n"
            "  -a, --adapter SPEC               the device: a DMLCL_DEVICE spec, e.g. a\n"
            "                                   substring of its name, gpu, cpu, 1:0\n"
            "  -s, --show_adapters              list the OpenCL devices and their specs\n"
            "  -d, --debug                      accepted: dmlcl always validates\n"
            "      --input_path PATH            folder of sourcePath files (default: the model's)\n"
            "      --output_path PATH           folder of targetPath files (default: current)\n"
            "  -S, --show_dependencies          versions of dmlcl and the OpenCL platforms\n"
            "  -h, --help                       this help\n"
            "      --version                    the version\n");
}

typedef struct opt {
    const char *shortname, *longname;
    int takes_value;
} opt;

static const opt opts[] = {
    {"m", "model", 1},
    {"i", "dispatch_iterations", 1},
    {"r", "dispatch_repeat", 1},
    {"t", "milliseconds_to_run", 1},
    {"I", "dispatch_interval", 1},
    {"w", "warmup_samples", 1},
    {"v", "timing_verbosity", 1},
    {"a", "adapter", 1},
    {"s", "show_adapters", 0},
    {"d", "debug", 0},
    {NULL, "input_path", 1},
    {NULL, "output_path", 1},
    {"S", "show_dependencies", 0},
    {"h", "help", 0},
    {NULL, "version", 0},
};

/* DxDispatch's options that have no meaning here: refused by name. */
static const char *const foreign[] = {"q",
                                      "queue_type",
                                      "clear_shader_caches",
                                      "print_hlsl_disassembly",
                                      "post_dispatch_barriers",
                                      "xbox_allow_precompile",
                                      "c",
                                      "pix_capture_type",
                                      "o",
                                      "pix_capture_name",
                                      "f",
                                      "onnx_free_dim_name_override",
                                      "F",
                                      "onnx_free_dim_denotation_override",
                                      "e",
                                      "onnx_session_config_entry",
                                      "b",
                                      "binding_shape",
                                      "l",
                                      "onnx_graph_optimization_level",
                                      "L",
                                      "onnx_logging_level",
                                      "p",
                                      "print_onnx_bindings",
                                      "print_commands",
                                      "max_gpu_time_measurements",
                                      "disable_custom_heaps",
                                      "disable_gpu_timeout",
                                      "enable_dred",
                                      "disable_background_processing",
                                      "set_stable_power_state",
                                      "disable_agility_sdk",
                                      "present_separator",
                                      "dml_feature_level",
                                      "enable_ort_extensions",
                                      "enable_onnx_profiling",
                                      NULL};

static int number(const char *name, const char *v, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(v, &end, 10);
    if (end == v || *end != '\0' || errno != 0 || x > 0xffffffffUL || v[0] == '-') {
        fprintf(stderr, "dmlcl-dispatch: --%s takes an unsigned integer, not \"%s\"\n", name, v);
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

/* -s: every OpenCL device with the spec that picks it. */
static int show_adapters(void)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "dmlcl-dispatch: no OpenCL platform\n");
        return 1;
    }
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        char pname[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            nd = 0;
        for (cl_uint d = 0; d < nd && d < 64; ++d) {
            char name[256] = "", version[256] = "";
            cl_device_type type = 0;
            cl_ulong mem = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_VERSION, sizeof version, version, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
            printf("%s\n-Spec: %u:%u (-a %u:%u)\n-Platform: %s\n-Version: %s\n-Type: %s\n"
                   "-Global Memory: %.2f GB\n\n",
                   name, p, d, p, d, pname, version,
                   type & CL_DEVICE_TYPE_GPU   ? "GPU"
                   : type & CL_DEVICE_TYPE_CPU ? "CPU"
                                               : "accelerator",
                   (double)mem / (1024.0 * 1024.0 * 1024.0));
        }
    }
    return 0;
}

static void show_dependencies(void)
{
    dmlcl_tool_version("dmlcl-dispatch");
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        char name[256] = "", version[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        clGetPlatformInfo(platforms[p], CL_PLATFORM_VERSION, sizeof version, version, NULL);
        printf("  OpenCL       : %s (%s)\n", name, version);
    }
}

typedef struct args {
    dsp_options o;
    const char *model, *input, *output;
    int show_adapters, show_deps, help, version;
} args;

static int apply(args *a, const opt *o, const char *v)
{
    const char *n = o->longname;
    unsigned u;
    if (strcmp(n, "model") == 0)
        a->model = v;
    else if (strcmp(n, "adapter") == 0)
        a->o.device = v;
    else if (strcmp(n, "input_path") == 0)
        a->input = v;
    else if (strcmp(n, "output_path") == 0)
        a->output = v;
    else if (strcmp(n, "show_adapters") == 0)
        a->show_adapters = 1;
    else if (strcmp(n, "show_dependencies") == 0)
        a->show_deps = 1;
    else if (strcmp(n, "help") == 0)
        a->help = 1;
    else if (strcmp(n, "version") == 0)
        a->version = 1;
    else if (strcmp(n, "debug") == 0)
        return 0;
    else if (number(n, v, &u))
        return -1;
    else if (strcmp(n, "dispatch_iterations") == 0)
        a->o.iterations = u;
    else if (strcmp(n, "dispatch_repeat") == 0)
        a->o.repeat = u;
    else if (strcmp(n, "milliseconds_to_run") == 0)
        a->o.milliseconds = u;
    else if (strcmp(n, "dispatch_interval") == 0)
        a->o.interval_ms = u;
    else if (strcmp(n, "warmup_samples") == 0)
        a->o.warmup = u;
    else if (strcmp(n, "timing_verbosity") == 0)
        a->o.verbosity = u;
    return 0;
}

static const opt *find_opt(const char *name, int is_long)
{
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; ++i)
        if (strcmp(name,
                   is_long ? opts[i].longname : (opts[i].shortname ? opts[i].shortname : "")) == 0)
            return &opts[i];
    return NULL;
}

/* cxxopts' forms: -i 10, -i10, --dispatch_iterations 10, --dispatch_iterations=10. */
static int parse_args(int argc, char **argv, args *a)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            if (a->model != NULL) {
                fprintf(stderr, "dmlcl-dispatch: one model at a time (\"%s\", then \"%s\")\n",
                        a->model, arg);
                return -1;
            }
            a->model = arg;
            continue;
        }
        int is_long = arg[1] == '-';
        char name[128];
        const char *value = NULL;
        snprintf(name, sizeof name, "%s", arg + (is_long ? 2 : 1));
        char *eq = is_long ? strchr(name, '=') : NULL;
        if (eq != NULL) {
            *eq = '\0';
            value = arg + 2 + (eq - name) + 1;
        } else if (!is_long && name[1] != '\0') {
            value = arg + 2;
            name[1] = '\0';
        }
        const opt *o = find_opt(name, is_long);
        if (o == NULL) {
            for (size_t k = 0; foreign[k] != NULL; ++k)
                if (strcmp(foreign[k], name) == 0) {
                    fprintf(stderr,
                            "dmlcl-dispatch: %s is a DirectX, PIX or ONNX Runtime option of "
                            "DxDispatch; dmlcl-dispatch has no such option\n",
                            arg);
                    return -1;
                }
            fprintf(stderr, "dmlcl-dispatch: unknown option %s (see --help)\n", arg);
            return -1;
        }
        if (o->takes_value && value == NULL) {
            if (i + 1 >= argc) {
                fprintf(stderr, "dmlcl-dispatch: %s needs a value\n", arg);
                return -1;
            }
            value = argv[++i];
        } else if (!o->takes_value && value != NULL) {
            fprintf(stderr, "dmlcl-dispatch: %s takes no value\n", arg);
            return -1;
        }
        if (apply(a, o, value))
            return -1;
    }
    if (a->o.repeat == 0) {
        fprintf(stderr, "dmlcl-dispatch: --dispatch_repeat must be at least 1\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    args a = {{1, 1, 1, 0, 0, 0, NULL}, NULL, NULL, NULL, 0, 0, 0, 0};
    if (parse_args(argc, argv, &a))
        return 2;
    if (a.help || argc == 1) {
        usage(stdout);
        return 0;
    }
    if (a.version) {
        dmlcl_tool_version("dmlcl-dispatch");
        return 0;
    }
    if (a.show_deps) {
        show_dependencies();
        return 0;
    }
    if (a.show_adapters)
        return show_adapters();
    if (a.model == NULL) {
        fprintf(stderr, "dmlcl-dispatch: no model given (see --help)\n");
        return 2;
    }
    char *copy = strdup(a.model);
    dsp_paths paths = {a.input ? a.input : dirname(copy), a.output ? a.output : "."};
    dsp_ctx c;
    memset(&c, 0, sizeof c);
    c.model_path = a.model;
    c.path[0] = '$';
    c.path_len = 1;
    dsp_model m;
    int rc = 1;
    if (copy == NULL)
        fprintf(stderr, "dmlcl-dispatch: out of memory\n");
    else if (dsp_model_load(&c, a.model, &paths, &m) != 0)
        fprintf(stderr, "dmlcl-dispatch: %s: %s\ndmlcl-dispatch: %s: nothing was dispatched\n",
                a.model, c.msg, a.model);
    else
        rc = dsp_run(a.model, &m, &a.o);
    if (copy != NULL)
        dsp_model_free(&m);
    dsp_arena_free(&c);
    free(copy);
    return rc;
}
