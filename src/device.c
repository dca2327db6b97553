/* SPDX-License-Identifier: MIT */
/*
 * Devices: choosing an OpenCL device, wrapping an application's, and the
 * per-device program cache (one build per kernel variant, not per shape).
 */
#define _POSIX_C_SOURCE 200809L /* open, O_CLOEXEC */
#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "device.h"
#include "enums.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return true;
    }
    return n == 0;
}

static bool is_index(const char *s, long *value)
{
    char *end;
    if (!*s)
        return false;
    *value = strtol(s, &end, 10);
    return *end == '\0' && *value >= 0;
}

static bool platform_matches(cl_platform_id p, int index, const char *spec)
{
    long want;
    char name[256] = "";
    if (!spec || !*spec)
        return true;
    if (is_index(spec, &want))
        return want == index;
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
    return contains_nocase(name, spec);
}

static bool device_matches(cl_device_id d, int index, const char *spec, cl_device_type type)
{
    long want;
    char name[256] = "";
    if (!spec || !*spec)
        return true;
    if (is_index(spec, &want))
        return want == index;
    if (!strcmp(spec, "gpu") || !strcmp(spec, "GPU"))
        return type & CL_DEVICE_TYPE_GPU;
    if (!strcmp(spec, "cpu") || !strcmp(spec, "CPU"))
        return type & CL_DEVICE_TYPE_CPU;
    if (!strcmp(spec, "accelerator"))
        return type & CL_DEVICE_TYPE_ACCELERATOR;
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    return contains_nocase(name, spec);
}

/* Rank of a candidate when no device is named: GPU first, then CPU, then any. */
static int preference(cl_device_type type)
{
    return (type & CL_DEVICE_TYPE_GPU) ? 0 : (type & CL_DEVICE_TYPE_CPU) ? 1 : 2;
}

static HRESULT find_device(const char *platform_spec, const char *device_spec,
                           cl_platform_id *out_platform, cl_device_id *out_device)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    if (err == -1001 || np == 0)
        return dmli_fail(DXGI_ERROR_UNSUPPORTED,
                         "device: no OpenCL platform found (is an ICD such as PoCL installed? "
                         "see scripts/deps)");
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clGetPlatformIDs");
    int best = 3;
    for (cl_uint p = 0; p < np && np <= MAX_PLATFORMS; ++p) {
        if (!platform_matches(platforms[p], (int)p, platform_spec))
            continue;
        cl_device_id devices[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &nd) !=
            CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAX_DEVICES; ++d) {
            cl_device_type type = 0;
            clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            if (!device_matches(devices[d], (int)d, device_spec, type))
                continue;
            int rank = (device_spec && *device_spec) ? -1 : preference(type);
            if (rank < best) {
                best = rank;
                *out_platform = platforms[p];
                *out_device = devices[d];
            }
            if (rank < 0)
                return S_OK;
        }
    }
    if (best < 3)
        return S_OK;
    return dmli_fail(E_INVALIDARG,
                     "device: no OpenCL device matches platform \"%s\" and device \"%s\" "
                     "(DMLCL_PLATFORM / DMLCL_DEVICE: an index or part of the name; "
                     "DMLCL_DEVICE may also be gpu, cpu or accelerator)",
                     platform_spec ? platform_spec : "", device_spec ? device_spec : "");
}

/* DMLCL_DEVICE_CLASS: unset or empty is DEFAULT; anything else must name a class. */
static HRESULT env_class(dmlcl_device_class *out)
{
    const char *v = getenv("DMLCL_DEVICE_CLASS");
    *out = DMLCL_DEVICE_CLASS_DEFAULT;
    if (!v || !*v)
        return S_OK;
    for (int c = DMLCL_DEVICE_CLASS_CPU; c <= DMLCL_DEVICE_CLASS_ACCELERATOR; ++c)
        if (!strcasecmp(v, dmli_device_class_name((dmlcl_device_class)c))) {
            *out = (dmlcl_device_class)c;
            return S_OK;
        }
    return dmli_fail(E_INVALIDARG,
                     "device: DMLCL_DEVICE_CLASS (\"%.64s\") must be cpu, gpu or accelerator "
                     "(or unset: the device's own type)",
                     v);
}

/* The class the launch rules follow: forced, else DMLCL_DEVICE_CLASS, else the type. */
static HRESULT resolve_class(dmlcl_device_class forced, cl_device_type type,
                             dmlcl_device_class *out)
{
    DMLI_INVALID_IF((unsigned)forced > DMLCL_DEVICE_CLASS_ACCELERATOR,
                    "device: dmlcl_device_options.device_class (%d) must be DEFAULT (0), CPU "
                    "(1), GPU (2) or ACCELERATOR (3)",
                    (int)forced);
    dmlcl_device_class env;
    DMLI_TRY(env_class(&env));
    if (forced == DMLCL_DEVICE_CLASS_DEFAULT)
        forced = env;
    if (forced != DMLCL_DEVICE_CLASS_DEFAULT)
        *out = forced;
    else if (type & CL_DEVICE_TYPE_GPU)
        *out = DMLCL_DEVICE_CLASS_GPU;
    else if (type & (CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM))
        *out = DMLCL_DEVICE_CLASS_ACCELERATOR;
    else
        *out = DMLCL_DEVICE_CLASS_CPU;
    return S_OK;
}

static cl_uint uint_info(cl_device_id d, cl_device_info what)
{
    cl_uint v = 0;
    clGetDeviceInfo(d, what, sizeof v, &v, NULL);
    return v;
}

static HRESULT read_desc(dmlcl_device *dev, dmlcl_device_class forced)
{
    char pname[128] = "", dname[128] = "";
    cl_platform_id platform = NULL;
    clGetDeviceInfo(dev->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetDeviceInfo(dev->device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    snprintf(dev->description, sizeof dev->description, "%s / %s", pname, dname);
    dmli_device_desc *d = &dev->desc;
    cl_device_type type = 0;
    clGetDeviceInfo(dev->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    DMLI_TRY(resolve_class(forced, type, &d->device_class));
    d->compute_units = uint_info(dev->device, CL_DEVICE_MAX_COMPUTE_UNITS);
    clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_work_group_size,
                    &d->max_work_group_size, NULL);
    d->mem_base_addr_align = uint_info(dev->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    cl_ulong local = 0;
    clGetDeviceInfo(dev->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    d->local_mem_size = local;
    d->preferred_vector_width_char = uint_info(dev->device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR);
    d->preferred_vector_width_int = uint_info(dev->device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
    d->native_vector_width_float = uint_info(dev->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
    d->prefetch = strstr(pname, "Oclgrind") == NULL; /* see launch.h */
    cl_ulong cache = 0;
    clGetDeviceInfo(dev->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    d->cache_size = cache;
    clGetDeviceInfo(dev->device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof d->max_parameter_size,
                    &d->max_parameter_size, NULL);
    size_t items[3] = {1, 1, 1};
    clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
    for (int i = 0; i < 3; ++i)
        d->max_item_sizes[i] = items[i] ? items[i] : 1;
    if (d->compute_units == 0)
        d->compute_units = 1;
    if (d->max_work_group_size == 0)
        d->max_work_group_size = 1;
    return S_OK;
}

const char *dmli_device_class_name(dmlcl_device_class device_class)
{
    switch (device_class) {
    case DMLCL_DEVICE_CLASS_DEFAULT: return "default";
    case DMLCL_DEVICE_CLASS_CPU: return "cpu";
    case DMLCL_DEVICE_CLASS_GPU: return "gpu";
    case DMLCL_DEVICE_CLASS_ACCELERATOR: return "accelerator";
    }
    return "?";
}

static bool profiling;
static pthread_once_t profiling_once = PTHREAD_ONCE_INIT;

static void read_profile_variable(void)
{
    const char *v = getenv("DMLCL_PROFILE");
    profiling = v && *v && strcmp(v, "0") != 0;
}

bool dmli_profile_enabled(void)
{
    pthread_once(&profiling_once, read_profile_variable);
    return profiling;
}

cl_command_queue_properties dmli_profile_queue_properties(void)
{
    return dmli_profile_enabled() ? CL_QUEUE_PROFILING_ENABLE : 0;
}

/* DMLCL_VERBOSE=1: the device and the description the launch rules read, on stderr. */
static void verbose_device(const dmlcl_device *dev)
{
    const char *v = getenv("DMLCL_VERBOSE");
    if (!v || !*v || *v == '0')
        return;
    const dmli_device_desc *d = &dev->desc;
    fprintf(stderr,
            "dmlcl: device %s | class %s, %u compute units, work-group %zu, items "
            "{%zu,%zu,%zu}, local %llu bytes, vector width char %u int %u float (native) %u, base "
            "align %u\n",
            dev->description, dmli_device_class_name(d->device_class), d->compute_units,
            d->max_work_group_size, d->max_item_sizes[0], d->max_item_sizes[1],
            d->max_item_sizes[2], (unsigned long long)d->local_mem_size,
            d->preferred_vector_width_char, d->preferred_vector_width_int,
            d->native_vector_width_float, d->mem_base_addr_align);
}

static HRESULT device_new(cl_context context, cl_device_id device_id, cl_command_queue queue,
                          dmlcl_device_class forced, dmlcl_device **out)
{
    dmlcl_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return dmli_fail(E_OUTOFMEMORY, "device: out of host memory");
    dev->tag = DMLI_DEVICE_TAG;
    dev->refcount = 1;
    dev->context = context;
    dev->device = device_id;
    dev->queue = queue;
    HRESULT hr = read_desc(dev, forced);
    if (FAILED(hr)) {
        free(dev);
        return hr;
    }
    pthread_mutex_init(&dev->lock, NULL);
    verbose_device(dev);
    *out = dev;
    return S_OK;
}

static HRESULT wrap(cl_context context, cl_device_id device_id, cl_command_queue queue,
                    dmlcl_device_class forced, dmlcl_device **device)
{
    DMLI_NULL_IF(!device, "device: the output pointer (NULL) is required");
    *device = NULL;
    DMLI_NULL_IF(!context || !device_id, "device: context and device_id (NULL) are required");
    cl_int err = CL_SUCCESS;
    if (queue)
        err = clRetainCommandQueue(queue);
    else
        queue = clCreateCommandQueue(context, device_id, dmli_profile_queue_properties(), &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, queue ? "clRetainCommandQueue" : "clCreateCommandQueue");
    clRetainContext(context);
    HRESULT hr = device_new(context, device_id, queue, forced, device);
    if (FAILED(hr)) {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    return hr;
}

static HRESULT choose(const char *spec, dmlcl_device_class forced, dmlcl_device **device)
{
    DMLI_NULL_IF(!device, "device: the output pointer (NULL) is required");
    *device = NULL;
    char platform_spec[128] = "", device_spec[128] = "";
    const char *env_platform = getenv("DMLCL_PLATFORM");
    /* DMLCL_DEVICE alone may hold a whole "PLATFORM:DEVICE" spec (as dmlcl-info prints). */
    if (!spec && (!env_platform || !*env_platform) && getenv("DMLCL_DEVICE") &&
        strchr(getenv("DMLCL_DEVICE"), ':'))
        spec = getenv("DMLCL_DEVICE");
    if (spec) {
        const char *colon = strchr(spec, ':');
        if (colon) {
            snprintf(platform_spec, sizeof platform_spec, "%.*s", (int)(colon - spec), spec);
            snprintf(device_spec, sizeof device_spec, "%s", colon + 1);
        } else {
            snprintf(device_spec, sizeof device_spec, "%s", spec);
        }
    } else {
        const char *p = env_platform, *d = getenv("DMLCL_DEVICE");
        snprintf(platform_spec, sizeof platform_spec, "%s", p ? p : "");
        snprintf(device_spec, sizeof device_spec, "%s", d ? d : "");
    }
    cl_platform_id platform = NULL;
    cl_device_id device_id = NULL;
    DMLI_TRY(find_device(platform_spec, device_spec, &platform, &device_id));
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err;
    cl_context context = clCreateContext(props, 1, &device_id, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateContext");
    cl_command_queue queue =
        clCreateCommandQueue(context, device_id, dmli_profile_queue_properties(), &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(context);
        return dmli_fail_cl(err, "clCreateCommandQueue");
    }
    HRESULT hr = device_new(context, device_id, queue, forced, device);
    if (FAILED(hr)) {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    return hr;
}

HRESULT dmlcl_device_create_from_cl(cl_context context, cl_device_id device_id,
                                    cl_command_queue queue, dmlcl_device **device)
{
    return wrap(context, device_id, queue, DMLCL_DEVICE_CLASS_DEFAULT, device);
}

HRESULT dmlcl_device_create_from_spec(const char *spec, dmlcl_device **device)
{
    return choose(spec, DMLCL_DEVICE_CLASS_DEFAULT, device);
}

HRESULT dmlcl_device_create(dmlcl_device **device)
{
    return choose(NULL, DMLCL_DEVICE_CLASS_DEFAULT, device);
}

HRESULT dmlcl_device_create_with_options(const dmlcl_device_options *options, dmlcl_device **device)
{
    if (!options)
        return choose(NULL, DMLCL_DEVICE_CLASS_DEFAULT, device);
    if (options->context)
        return wrap(options->context, options->device_id, options->queue, options->device_class,
                    device);
    return choose(options->spec, options->device_class, device);
}

/* Read as bytes: the pointer may be any address, of any alignment. */
static bool tagged(const dmlcl_device *device)
{
    uint64_t tag;
    memcpy(&tag, device, sizeof tag);
    return tag == DMLI_DEVICE_TAG;
}

HRESULT dmli_device_check(const dmlcl_device *device, const char *call)
{
    DMLI_INVALID_IF(!tagged(device),
                    "%s: device (%p) is not a dmlcl_device (it lacks the tag every live device "
                    "carries): pass one from dmlcl_device_create*, or NULL where the default "
                    "device is meant",
                    call, (const void *)device);
    return S_OK;
}

/* The accessors cannot fail: a pointer that is not a device reads as NULL (with a message). */
static bool usable(const dmlcl_device *device, const char *call)
{
    return device && SUCCEEDED(dmli_device_check(device, call));
}

dmlcl_device_class dmlcl_device_get_class(const dmlcl_device *device)
{
    return usable(device, "dmlcl_device_get_class") ? device->desc.device_class
                                                    : DMLCL_DEVICE_CLASS_DEFAULT;
}

void dmlcl_device_retain(dmlcl_device *device)
{
    if (usable(device, "dmlcl_device_retain"))
        __atomic_add_fetch(&device->refcount, 1, __ATOMIC_RELAXED);
}

void dmlcl_device_release(dmlcl_device *device)
{
    if (!usable(device, "dmlcl_device_release") ||
        __atomic_sub_fetch(&device->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    device->tag = 0; /* a stale pointer to it is refused while the memory is not reused */
    for (size_t i = 0; i < device->n_programs; ++i) {
        clReleaseProgram(device->programs[i].program);
        free(device->programs[i].options);
    }
    free(device->programs);
    clReleaseCommandQueue(device->queue);
    clReleaseContext(device->context);
    pthread_mutex_destroy(&device->lock);
    free(device);
}

cl_context dmlcl_device_context(const dmlcl_device *device)
{
    return usable(device, "dmlcl_device_context") ? device->context : NULL;
}

cl_device_id dmlcl_device_id(const dmlcl_device *device)
{
    return usable(device, "dmlcl_device_id") ? device->device : NULL;
}

cl_command_queue dmlcl_device_queue(const dmlcl_device *device)
{
    return usable(device, "dmlcl_device_queue") ? device->queue : NULL;
}

const char *dmlcl_device_description(const dmlcl_device *device)
{
    return usable(device, "dmlcl_device_description") ? device->description : "";
}

const dmli_device_desc *dmli_device_get_desc(const dmlcl_device *device)
{
    return &device->desc;
}

bool dmli_device_cached_program(dmlcl_device *device, size_t i, const char **family,
                                const char **options)
{
    pthread_mutex_lock(&device->lock);
    bool found = i < device->n_programs;
    if (found) {
        *family = dmli_kernel_source_names[device->programs[i].source];
        *options = device->programs[i].options;
    }
    pthread_mutex_unlock(&device->lock);
    return found;
}

unsigned dmli_device_builds(dmlcl_device *device)
{
    pthread_mutex_lock(&device->lock);
    unsigned builds = device->builds;
    pthread_mutex_unlock(&device->lock);
    return builds;
}

/*
 * Every enum the query holds is read as an integer and checked: the feature,
 * the data type, each requested level (a later DirectML's level, 0xMm00
 * above 6.4, is not supported; a value that is no level is refused).
 */
HRESULT dmlcl_device_check_feature_support(dmlcl_device *device, DML_FEATURE feature,
                                           UINT query_size, const void *query, UINT data_size,
                                           void *data)
{
    DMLI_NULL_IF(!device || !data, "CheckFeatureSupport: device and featureSupportData are "
                                   "required");
    DMLI_TRY(dmli_device_check(device, "CheckFeatureSupport"));
    unsigned f = (unsigned)feature;
    if (f == DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT) {
        const DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT *q = query;
        DMLI_INVALID_IF(!q || query_size != sizeof *q,
                        "CheckFeatureSupport: featureQueryDataSize (%u) must be %zu for "
                        "DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT",
                        query_size, sizeof *q);
        DMLI_INVALID_IF(data_size != sizeof(DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT),
                        "CheckFeatureSupport: featureSupportDataSize (%u) must be %zu", data_size,
                        sizeof(DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT));
        unsigned type = (unsigned)q->DataType;
        DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT *r = data;
        /* DML_TENSOR_DATA_TYPE_UNKNOWN is a type no tensor has: not supported, no error
         * (ONNX Runtime's DirectML provider asks for every value from 0 to INT64 and fails on
         * any error, so DirectML answers FALSE there). */
        if (type == DML_TENSOR_DATA_TYPE_UNKNOWN) {
            r->IsSupported = 0;
            return S_OK;
        }
        DMLI_INVALID_IF(!dmli_type_known(q->DataType),
                        "CheckFeatureSupport: DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT.DataType "
                        "(%u) is not a DML_TENSOR_DATA_TYPE (FLOAT32 1 to INT4 13, or a dmlcl "
                        "extension type)",
                        type);
        r->IsSupported = dmli_type_size(q->DataType) != 0;
        return S_OK;
    }
    if (f == DML_FEATURE_FEATURE_LEVELS) {
        const DML_FEATURE_QUERY_FEATURE_LEVELS *q = query;
        DMLI_INVALID_IF(!q || query_size != sizeof *q ||
                            (q->RequestedFeatureLevelCount && !q->RequestedFeatureLevels),
                        "CheckFeatureSupport: DML_FEATURE_FEATURE_LEVELS needs a "
                        "DML_FEATURE_QUERY_FEATURE_LEVELS with its levels");
        DMLI_INVALID_IF(data_size != sizeof(DML_FEATURE_DATA_FEATURE_LEVELS),
                        "CheckFeatureSupport: featureSupportDataSize (%u) must be %zu", data_size,
                        sizeof(DML_FEATURE_DATA_FEATURE_LEVELS));
        uint32_t best = 0;
        for (UINT i = 0; i < q->RequestedFeatureLevelCount; ++i) {
            uint32_t level = (uint32_t)q->RequestedFeatureLevels[i];
            DMLI_INVALID_IF(!dmli_feature_level_defined(level) && !dmli_feature_level_later(level),
                            "CheckFeatureSupport: RequestedFeatureLevels[%u] (0x%x) is not a "
                            "DML_FEATURE_LEVEL (DML_FEATURE_LEVEL_1_0 0x1000 to 6_4 0x6400, or a "
                            "later 0xMm00)",
                            i, level);
            if (dmli_feature_level_defined(level) && level > best)
                best = level;
        }
        DMLI_UNSUPPORTED_IF(best == 0,
                            "CheckFeatureSupport: none of the requested feature "
                            "levels is supported (dmlcl emulates up to 0x%x)",
                            (unsigned)DMLCL_FEATURE_LEVEL);
        ((DML_FEATURE_DATA_FEATURE_LEVELS *)data)->MaxSupportedFeatureLevel =
            (DML_FEATURE_LEVEL)best;
        return S_OK;
    }
    /* An unrecognised feature is unsupported (CheckFeatureSupport's page), not invalid. */
    return dmli_fail(DXGI_ERROR_UNSUPPORTED,
                     "CheckFeatureSupport: feature (%u) is not a DML_FEATURE dmlcl knows", f);
}

/* DMLCL_KERNEL_WERROR=1 (the test suites set it): a kernel build warning fails the build. */
static bool strict_kernels(void)
{
    const char *v = getenv("DMLCL_KERNEL_WERROR");
    return v && *v && *v != '0';
}

/* The build log of `program` into out[cap] from its first line holding `key` (the first error or
 * warning: the explanation, where a driver's log may open with pages of notes), or from its start;
 * "" when there is none. The whole log is read (a buffer too small for it reads nothing: NVIDIA's
 * logs of a few errors pass 2 KiB) and cut to cap. True when `key` was found. */
static bool build_log(dmlcl_device *dev, cl_program program, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    size_t size = 0;
    if (clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
            CL_SUCCESS ||
        size == 0)
        return false;
    char *log = malloc(size + 1);
    if (!log)
        return false;
    bool found = false;
    if (clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) ==
        CL_SUCCESS) {
        log[size] = '\0';
        const char *from = strstr(log, key);
        found = from != NULL;
        if (from)
            while (from > log && from[-1] != '\n')
                --from; /* the whole line: its file and position */
        else
            from = log;
        snprintf(out, cap, "%s", from);
    }
    free(log);
    return found;
}

/* DMLCL_KERNEL_RECORD=FILE: every kernel variant built (not one that failed: a test's own bad
 * variant) is appended to FILE as a line
 * "source<TAB>options" (one write, so processes may share the file); scripts/kernel-targets
 * then compiles each for every CPU level and target the kernels must build on. */
static void record_variant(dmli_kernel_source source, const char *options)
{
    const char *path = getenv("DMLCL_KERNEL_RECORD");
    if (!path || !*path)
        return;
    char line[4096];
    int n = snprintf(line, sizeof line, "%s\t%s\n", dmli_kernel_source_names[source], options);
    if (n <= 0 || (size_t)n >= sizeof line)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    ssize_t written = write(fd, line, (size_t)n);
    (void)written; /* a record is a test aid: a full disk loses a line, not a build */
    close(fd);
}

static HRESULT build(dmlcl_device *dev, dmli_kernel_source source, const char *options,
                     cl_program *out)
{
    const char *text = dmli_kernel_sources[source];
    cl_int err;
    cl_program program = clCreateProgramWithSource(dev->context, 1, &text, NULL, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &dev->device, options, NULL, NULL);
    char log[2048];
    if (err == CL_SUCCESS && strict_kernels() &&
        build_log(dev, program, "warning", log, sizeof log)) {
        clReleaseProgram(program);
        return dmli_fail(E_FAIL,
                         "compile: %s with \"%s\" built with warnings (DMLCL_KERNEL_WERROR): %s",
                         dmli_kernel_source_names[source], options, log);
    }
    if (err != CL_SUCCESS) {
        build_log(dev, program, "error", log, sizeof log);
        clReleaseProgram(program);
        return dmli_fail(dmli_cl_hresult(err),
                         "compile: building %s with \"%s\" failed "
                         "(%s): %s",
                         dmli_kernel_source_names[source], options, dmli_cl_error_name(err), log);
    }
    record_variant(source, options); /* built: scripts/kernel-targets builds it elsewhere too */
    *out = program;
    return S_OK;
}

HRESULT dmli_device_program(dmlcl_device *dev, dmli_kernel_source source, const char *options,
                            cl_program *program)
{
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->n_programs; ++i) {
        dmli_cached_program *c = &dev->programs[i];
        if (c->source == source && !strcmp(c->options, options)) {
            *program = c->program;
            pthread_mutex_unlock(&dev->lock);
            return S_OK;
        }
    }
    HRESULT hr = S_OK;
    if (dev->n_programs == dev->cap_programs) {
        size_t cap = dev->cap_programs ? 2 * dev->cap_programs : 16;
        void *grown = realloc(dev->programs, cap * sizeof *dev->programs);
        if (!grown)
            hr = dmli_fail(E_OUTOFMEMORY, "compile: out of host memory");
        else {
            dev->programs = grown;
            dev->cap_programs = cap;
        }
    }
    size_t olen = strlen(options) + 1;
    char *copy = SUCCEEDED(hr) ? malloc(olen) : NULL;
    if (copy)
        memcpy(copy, options, olen);
    if (SUCCEEDED(hr) && !copy)
        hr = dmli_fail(E_OUTOFMEMORY, "compile: out of host memory");
    if (SUCCEEDED(hr))
        hr = build(dev, source, options, program);
    if (SUCCEEDED(hr)) {
        dev->programs[dev->n_programs++] =
            (dmli_cached_program){.source = source, .options = copy, .program = *program};
        dev->builds++;
    } else {
        free(copy);
    }
    pthread_mutex_unlock(&dev->lock);
    return hr;
}
