/* SPDX-License-Identifier: MIT */
/*
 * The kernel files build on their own, and the device class can be forced.
 *  - Each family as the library embeds it (cl/abi.h and cl/common.cl pasted
 *    in by cmake/embed_kernels.cmake), built with no -D at all: the defaults
 *    of every macro must make a valid program.
 *  - Each cl/<family>.cl as it lies in the source tree, with -I cl: the
 *    includes resolve and the same defaults build.
 *  - dmlcl_device_create_with_options forces a class; DMLCL_DEVICE_CLASS is
 *    read at device creation and a bad value is refused there.
 * Built with -Werror, so a warning (e.g. a macro redefined) fails too.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

/* Per embedded source: a kernel it must define (NULL: none yet), and whether it pastes in
 * cl/abi.h (the families with a table of their own paste cl/pool_abi.h, cl/resample_abi.h)
 * and cl/common.cl (the copy families and the map). */
static const struct {
    const char *kernel;
    bool abi, common;
} sources[DMLI_SOURCE_COUNT] = {
    [DMLI_SOURCE_VIEW] = {"view_copy", true, true},
    [DMLI_SOURCE_INDEXED] = {"indexed_copy", true, true},
    [DMLI_SOURCE_BANDS] = {"bands_copy", true, true},
    [DMLI_SOURCE_MAP] = {"map_elementwise", true, true},
    [DMLI_SOURCE_REDUCE] = {"reduce_rows", true, false},
    [DMLI_SOURCE_GEMM] = {"gemm_blocks", true, false},
    [DMLI_SOURCE_CONV] = {"conv_direct", true, false},
    [DMLI_SOURCE_POOL] = {"pool", false, false},
    [DMLI_SOURCE_RESAMPLE] = {"resample", false, false},
    [DMLI_SOURCE_SCATTER] = {"scatter", false, false},
    [DMLI_SOURCE_RNN] = {"rnn", false, false},
    [DMLI_SOURCE_MISC] = {"nonzero", false, false},
    [DMLI_SOURCE_ROI] = {"roi_align", false, false},
    [DMLI_SOURCE_GRAD] = {"slice_grad", false, false},
    [DMLI_SOURCE_INTMM] = {"intmm", false, false},
    [DMLI_SOURCE_DYNQUANT] = {"dynamic_quantize", false, false},
    [DMLI_SOURCE_ATTENTION] = {"attention", false, false},
    [DMLI_SOURCE_BNORM] = {"bn_training", false, false},
};

static void build_and_check(cl_context ctx, cl_device_id dev, const char *text, const char *opts,
                            const char *what, const char *kernel)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS, "%s: clCreateProgramWithSource: %d", what, err);
    err = clBuildProgram(program, 1, &dev, opts, NULL, NULL);
    /* The whole log (a buffer smaller than it reads nothing: NVIDIA's logs of a few errors pass
     * 4 KiB). */
    size_t size = 0;
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(1, size + 1);
    cr_assert(log);
    if (size)
        clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    cr_expect_eq(err, CL_SUCCESS, "%s with \"%s\": build failed: %s", what, opts, log);
    free(log);
    if (err == CL_SUCCESS && kernel) {
        cl_kernel k = clCreateKernel(program, kernel, &err);
        cr_expect_eq(err, CL_SUCCESS, "%s: no kernel %s (%d)", what, kernel, err);
        if (err == CL_SUCCESS)
            clReleaseKernel(k);
    }
    clReleaseProgram(program);
}

OPS_DEVICE_SUITE(kernels);

Test(kernels, embedded_families_build_with_default_macros)
{
    dmlcl_device *d = ops_device();
    for (int s = 0; s < DMLI_SOURCE_COUNT; ++s) {
        const char *text = dmli_kernel_sources[s];
        cr_expect(!sources[s].abi || strstr(text, "#define DMLI_ABI_H"),
                  "%s: abi.h must be pasted in", dmli_kernel_source_names[s]);
        cr_expect(!sources[s].common || strstr(text, "#define DMLI_COMMON_CL"),
                  "%s: common.cl must be pasted in", dmli_kernel_source_names[s]);
        cr_expect(!strstr(text, "#include"), "%s: an #include is left in the embedded text",
                  dmli_kernel_source_names[s]);
        build_and_check(dmlcl_device_context(d), dmlcl_device_id(d), text, "-cl-std=CL1.2 -Werror",
                        dmli_kernel_source_names[s], sources[s].kernel);
    }
}

/* A kernel that does not build fails with the driver's first error in the message, whatever the
 * size of the log before it: here an operation number the map does not have (its #error). */
Test(kernels, build_failure_names_the_error)
{
    cl_program program = NULL;
    HRESULT hr = dmli_device_program(
        ops_device(), DMLI_SOURCE_MAP,
        "-cl-std=CL1.2 -DNIN=2 -DOP=200 -DSCALE_BIAS=0 -DCOMPUTE_T=float -DCOMPUTE_DOUBLE=0 "
        "-DINT_COMPUTE=0 -DSIGNED_COMPUTE=0 -DOUT_T=float -DOUT_HALF=0 -DOUT_SAT=0 -DFAST=1 "
        "-DACT=0 "
        "-DIN0_T=float -DIN0_HALF=0 -DIN1_T=float -DIN1_HALF=0",
        &program);
    cr_expect(FAILED(hr));
    cr_expect(program == NULL);
    const char *e = dmlcl_last_error();
    cr_expect(strstr(e, "building map.cl") && strstr(e, "CL_BUILD_PROGRAM_FAILURE") &&
                  strstr(e, "OP names no operation"),
              "%s", e);
}

/* The source tree's cl/ directory: DMLCL_CL_DIR when set, else DMLCL_CL_FROM_BINARY (cl/ as
 * a path relative to this binary's directory, from the build) beside /proc/self/exe, so a
 * build tree moved with its source tree (scripts/gpu-check on a machine that cannot build)
 * still finds it. */
static void cl_dir(char *buf, size_t len)
{
    const char *env = getenv("DMLCL_CL_DIR");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return;
    }
    char exe[960]; /* with the relative path, inside the caller's 1024 */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    cr_assert(n > 0, "cannot read /proc/self/exe to find cl/: set DMLCL_CL_DIR to the source "
                     "tree's cl directory");
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(buf, len, "%s/%s", exe, DMLCL_CL_FROM_BINARY);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s (DMLCL_CL_DIR names the source tree's cl directory)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc(1, (size_t)n + 1);
    cr_assert(text && fread(text, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
    fclose(f);
    return text;
}

Test(kernels, source_files_build_standalone)
{
    dmlcl_device *d = ops_device();
    char dir[1024], path[1100], opts[1200];
    cl_dir(dir, sizeof dir);
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -Werror -I %s", dir);
    for (int s = 0; s < DMLI_SOURCE_COUNT; ++s) {
        snprintf(path, sizeof path, "%s/%s", dir, dmli_kernel_source_names[s]);
        char *text = read_text(path);
        build_and_check(dmlcl_device_context(d), dmlcl_device_id(d), text, opts, path,
                        sources[s].kernel);
        free(text);
    }
}

Test(kernels, forced_device_class)
{
    dmlcl_device *d = ops_device();
    dmlcl_device_options o = {.context = dmlcl_device_context(d),
                              .device_id = dmlcl_device_id(d),
                              .device_class = DMLCL_DEVICE_CLASS_GPU};
    dmlcl_device *forced = NULL;
    cr_assert_eq(dmlcl_device_create_with_options(&o, &forced), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_device_get_class(forced), DMLCL_DEVICE_CLASS_GPU);
    dmlcl_device_release(forced);
    o.device_class = DMLCL_DEVICE_CLASS_ACCELERATOR;
    cr_assert_eq(dmlcl_device_create_with_options(&o, &forced), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_device_get_class(forced), DMLCL_DEVICE_CLASS_ACCELERATOR);
    dmlcl_device_release(forced);
    o.device_class = (dmlcl_device_class)7;
    cr_expect_eq(dmlcl_device_create_with_options(&o, &forced), E_INVALIDARG);
    cr_expect(forced == NULL);
    cr_expect(strstr(dmlcl_last_error(), "device_class (7)"), "%s", dmlcl_last_error());
}

Test(kernels, device_class_environment)
{
    dmlcl_device *d = ops_device();
    const char *saved = getenv("DMLCL_DEVICE_CLASS");
    char keep[64] = "";
    if (saved)
        snprintf(keep, sizeof keep, "%s", saved);
    dmlcl_device *made = NULL;
    setenv("DMLCL_DEVICE_CLASS", "Accelerator", 1);
    cr_expect_eq(
        dmlcl_device_create_from_cl(dmlcl_device_context(d), dmlcl_device_id(d), NULL, &made), S_OK,
        "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_device_get_class(made), DMLCL_DEVICE_CLASS_ACCELERATOR);
    dmlcl_device_release(made);
    /* An explicit option wins over the environment. */
    dmlcl_device_options o = {.context = dmlcl_device_context(d),
                              .device_id = dmlcl_device_id(d),
                              .device_class = DMLCL_DEVICE_CLASS_CPU};
    cr_expect_eq(dmlcl_device_create_with_options(&o, &made), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_device_get_class(made), DMLCL_DEVICE_CLASS_CPU);
    dmlcl_device_release(made);
    setenv("DMLCL_DEVICE_CLASS", "tpu", 1);
    cr_expect_eq(
        dmlcl_device_create_from_cl(dmlcl_device_context(d), dmlcl_device_id(d), NULL, &made),
        E_INVALIDARG);
    cr_expect(made == NULL);
    cr_expect(strstr(dmlcl_last_error(), "DMLCL_DEVICE_CLASS (\"tpu\")") &&
                  strstr(dmlcl_last_error(), "cpu, gpu or accelerator"),
              "%s", dmlcl_last_error());
    if (saved)
        setenv("DMLCL_DEVICE_CLASS", keep, 1);
    else
        unsetenv("DMLCL_DEVICE_CLASS");
}

/* The ULP distance of two floats on the integer line of their bit patterns. */
static uint32_t ulps_apart(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    int64_t d = (int64_t)ia - ib;
    return (uint32_t)(d < 0 ? -d : d);
}

/* cl/exp.cl's exp `fn` against exp in double rounded once: within 2 ULPs on every float from
 * -104 to `top` in steps of 2^-12 (and a spread of bit patterns between), the overflow and
 * underflow edges (those up to `top`), infinities and NaN kept. */
/* fn over [-104, top] in steps of 2^-12, bit patterns and edges, within 2 ULPs of exp in double;
 * vector: fn on vectors of the device's native float width, as cl/reduce.cl uses it (cl/exp.cl
 * DMLI_EXP_LOW_VECTOR; a width the device does not report is 4), whose lanes must also give the
 * scalar form's bits. */
static void check_exp_width(const char *fn, int top, bool vector)
{
    dmlcl_device *d = ops_device();
    char dir[1024], opts[1200], text[720];
    cl_dir(dir, sizeof dir);
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -Werror -I %s", dir);
    int width = 1;
    if (vector) {
        cl_uint native = 0;
        clGetDeviceInfo(dmlcl_device_id(d), CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof native,
                        &native, NULL);
        width = native == 2 || native == 8 || native == 16 ? (int)native : 4;
        snprintf(text, sizeof text,
                 "#include \"exp.cl\"\n"
                 "DMLI_EXP_LOW_VECTOR(float%d, uint%d)\n"
                 "__kernel void exp_of(__global const float *x, __global float *y)\n"
                 "{ size_t i = get_global_id(0); vstore%d(%s(vload%d(i, x)), i, y); }\n"
                 "__kernel void exp_scalar(__global const float *x, __global float *y)\n"
                 "{ size_t i = get_global_id(0); y[i] = %s(x[i]); }\n",
                 width, width, width, fn, width, fn);
    } else
        snprintf(text, sizeof text,
                 "#include \"exp.cl\"\n"
                 "__kernel void exp_of(__global const float *x, __global float *y)\n"
                 "{ size_t i = get_global_id(0); y[i] = %s(x[i]); }\n",
                 fn);
    const char *source = text;
    cl_context ctx = dmlcl_device_context(d);
    cl_device_id dev = dmlcl_device_id(d);
    cl_int err;
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &dev, opts, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS, "exp.cl does not build (%d)", err);
    cl_kernel k = clCreateKernel(program, "exp_of", &err);
    cr_assert_eq(err, CL_SUCCESS);
    size_t n = (size_t)(104 + top) * 4096 + 4096 + 32; /* + edges + padding to 16 */
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    size_t m = 0;
    for (long i = -104 * 4096; i <= top * 4096; ++i)
        x[m++] = (float)i / 4096.0f;
    for (uint32_t b = 0; m < n - 32; b += 0x00100fff) { /* bit patterns from 0 up */
        float v;
        uint32_t bits = b;
        memcpy(&v, &bits, 4);
        x[m++] = fabsf(v) < 105.0f && v < (float)top ? v : -fabsf(v) / 1e30f;
    }
    const float edges[16] = {88.72283f,   88.72284f,  88.7228394f, -103.972084f,
                             -103.97209f, -87.33655f, -87.33656f,  -100.5f,
                             INFINITY,    -INFINITY,  NAN,         0.0f,
                             -0.0f,       1e-30f,     -1e-30f,     0.6931472f};
    for (int i = 0; i < 16; ++i)
        if (!(edges[i] > (float)top))
            x[m++] = edges[i];
    while (m % 16)
        x[m++] = 0.5f;
    cl_command_queue q = dmlcl_device_queue(d);
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * 4, x, &err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, m * 4, NULL, &err);
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof by, &by);
    size_t items = m / (size_t)width;
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(q, by, CL_TRUE, 0, m * 4, y, 0, NULL, NULL), CL_SUCCESS);
    if (width > 1) {
        cl_kernel ks = clCreateKernel(program, "exp_scalar", &err);
        cr_assert_eq(err, CL_SUCCESS);
        float *ys = malloc(m * sizeof *ys);
        clSetKernelArg(ks, 0, sizeof bx, &bx);
        clSetKernelArg(ks, 1, sizeof by, &by);
        cr_assert_eq(clEnqueueNDRangeKernel(q, ks, 1, NULL, &m, NULL, 0, NULL, NULL), CL_SUCCESS);
        cr_assert_eq(clEnqueueReadBuffer(q, by, CL_TRUE, 0, m * 4, ys, 0, NULL, NULL), CL_SUCCESS);
        size_t differ = 0, first = 0;
        for (size_t i = 0; i < m; ++i)
            if (memcmp(&y[i], &ys[i], 4) != 0 && !differ++)
                first = i;
        cr_expect_eq(differ, 0, "%s on float16 and on float differ at %zu inputs, first %.9g", fn,
                     differ, differ ? (double)x[first] : 0.0);
        free(ys);
        clReleaseKernel(ks);
    }
    uint32_t worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < m; ++i) {
        float want = (float)exp((double)x[i]);
        if (isnan(x[i])) {
            cr_expect(isnan(y[i]), "%s(NaN) gave %g", fn, (double)y[i]);
            continue;
        }
        uint32_t u = ulps_apart(y[i], want);
        if (u > worst) {
            worst = u;
            at = i;
        }
    }
    cr_expect(worst <= 2, "%s(%.9g) = %.9g, exp in double %.9g: %u ULPs apart", fn, (double)x[at],
              (double)y[at], exp((double)x[at]), worst);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseKernel(k);
    clReleaseProgram(program);
    free(x);
    free(y);
}

static void check_exp(const char *fn, int top)
{
    check_exp_width(fn, top, false);
}

Test(kernels, exp_within_two_ulps)
{
    check_exp("dmli_expf", 89);
}

/* The exp of the arguments at most 43 that sigmoid, softmax and erfc take. */
Test(kernels, exp_low_within_two_ulps)
{
    check_exp("dmli_expf_low", 43);
}

/* Its vector form (cl/reduce.cl's CPU rows: softmax's exponentials a native vector at a time). */
Test(kernels, exp_low_vector_is_the_scalar_form)
{
    check_exp_width("dmli_expf_low", 43, true);
}
