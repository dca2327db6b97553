/* SPDX-License-Identifier: MIT */
/*
 * The GPU memory model against answers known from how an NVIDIA GPU issues memory requests
 * (CUDA C++ Programming Guide, "Device Memory Accesses" and "Shared Memory"; CUDA Best
 * Practices Guide, "Coalesced Access to Global Memory"): tiny kernels run under Oclgrind with
 * the plugin (scripts/gpumodel), each expected figure worked out in its comment from those
 * rules, never from the plugin.
 *
 *   scripts/gpumodel build/tools/gpumodel/dmlcl-gpumodel-known [--wrong]
 *
 * --wrong expects a coalesced copy at 50%: the run must fail (the harness catches a wrong
 * figure).
 */
#define _POSIX_C_SOURCE 200809L
#include <CL/cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

static const char *source =
    "__kernel void copy(__global const float *in, __global float *out, int shift)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[i + shift];\n"
    "}\n"
    "__kernel void stride2(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[2 * i];\n"
    "}\n"
    "__kernel void copy_u8(__global const uchar *in, __global uchar *out)\n"
    "{\n"
    "    out[get_global_id(0)] = in[get_global_id(0)];\n"
    "}\n"
    "__kernel void copy_f4(__global const float4 *in, __global float4 *out)\n"
    "{\n"
    "    out[get_global_id(0)] = in[get_global_id(0)];\n"
    "}\n"
    /* Four rounds a work-item: requests are per dynamic instruction, not per instruction. */
    "__kernel void rounds(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0), n = get_global_size(0);\n"
    "    for (int k = 0; k < 4; ++k)\n"
    "        out[k * n + i] = in[k * n + i];\n"
    "}\n"
    /* A 2-D copy of rows of 8 floats, work-groups of 8 x 32: a warp is 4 whole rows. */
    "__kernel void rows8(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(1) * 8 + get_global_id(0);\n"
    "    out[i] = in[i];\n"
    "}\n"
    /* The naive transpose of a w x h matrix: lanes read along a row, write down a column. */
    "__kernel void transpose(__global const float *in, __global float *out, int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    out[x * h + y] = in[y * w + x];\n"
    "}\n"
    /* A 32 x 32 float tile in local memory, rows `pitch` words apart: written by rows, then
     * read as `mode` says (0: columns, 1: rows, 2: one word for all, 3: every second word,
     * 4: float2 along a row). */
    "__kernel void tile(__global const float *in, __global float *out, int pitch, int mode)\n"
    "{\n"
    "    __local float t[32 * 33];\n"
    "    int x = get_local_id(0), y = get_local_id(1);\n"
    "    t[y * pitch + x] = in[y * 32 + x];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v;\n"
    "    if (mode == 0)\n"
    "        v = t[x * pitch + y];\n"
    "    else if (mode == 1)\n"
    "        v = t[y * pitch + x];\n"
    "    else if (mode == 2)\n"
    "        v = t[0];\n"
    "    else if (mode == 3)\n"
    "        v = t[2 * x + (y / 2) * 64];\n"
    "    else {\n"
    "        float2 p = vload2(x % 16, t + (x / 16) * pitch);\n"
    "        v = p.x + p.y;\n"
    "    }\n"
    "    out[y * 32 + x] = v;\n"
    "}\n"
    /* A function kept out of line, called from two sites: the odd lanes at the first, every
     * lane at the second. */
    "__attribute__((noinline)) float get(__global const float *p, size_t i)\n"
    "{\n"
    "    return p[i];\n"
    "}\n"
    "__kernel void sites(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float v = 0;\n"
    "    if (i % 2)\n"
    "        v = get(in, i);\n"
    "    out[i] = v + get(in, i + 32);\n"
    "}\n"
    /* Loads in flight: four loads before the first store (one batch of 16 bytes), two loads
     * added (8 bytes: the add waits for both), and an index loaded, then the float it names
     * (the second load's address waits for the first: two batches of 4 bytes). */
    "__kernel void batched(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0), n = get_global_size(0);\n"
    "    float a = in[i], b = in[n + i], c = in[2 * n + i], d = in[3 * n + i];\n"
    "    out[i] = a;\n"
    "    out[n + i] = b;\n"
    "    out[2 * n + i] = c;\n"
    "    out[3 * n + i] = d;\n"
    "}\n"
    "__kernel void pair(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0), n = get_global_size(0);\n"
    "    out[i] = in[i] + in[n + i];\n"
    "}\n"
    "__kernel void chase(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint j = ((__global const uint *)in)[i] % 1024;\n"
    "    out[i] = in[j];\n"
    "}\n"
    /* __constant reads: one word for the warp, or one of four. */
    "__kernel void constants(__global const float *in, __global float *out,\n"
    "                        __constant float *c, int spread)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[i] + c[spread ? i % 4 : 0];\n"
    "}\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;
static const char *out_path;
static long consumed; /* bytes of the record file already read */
static int failures, checks;

#define CHECK(err, what)                                                         \
    do {                                                                         \
        cl_int e_ = (err);                                                       \
        if (e_ != CL_SUCCESS) {                                                  \
            fprintf(stderr, "dmlcl-gpumodel-known: %s failed (%d)\n", what, e_); \
            exit(2);                                                             \
        }                                                                        \
    } while (0)

static cl_mem buffer(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err, "clCreateBuffer");
    unsigned char *fill = calloc(bytes, 1);
    for (size_t i = 0; i < bytes; ++i)
        fill[i] = (unsigned char)(i * 7 + 1);
    CHECK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, fill, 0, NULL, NULL), "write");
    free(fill);
    return m;
}

/* Kernel `name` over global x local (2-D where gy > 0), arguments as (size, pointer) pairs;
 * returns the launch's record. */
static gpumodel_record launch(const char *name, size_t gx, size_t gy, size_t lx, size_t ly,
                              int nargs, ...)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK(err, name);
    va_list ap;
    va_start(ap, nargs);
    for (int a = 0; a < nargs; ++a) {
        size_t size = va_arg(ap, size_t);
        const void *p = va_arg(ap, const void *);
        CHECK(clSetKernelArg(k, (cl_uint)a, size, p), "clSetKernelArg");
    }
    va_end(ap);
    size_t g[2] = {gx, gy}, l[2] = {lx, ly};
    CHECK(clEnqueueNDRangeKernel(queue, k, gy ? 2 : 1, NULL, g, l, 0, NULL, NULL), name);
    CHECK(clFinish(queue), "clFinish");
    clReleaseKernel(k);

    static char line[1 << 16];
    gpumodel_record r;
    FILE *f = fopen(out_path, "r");
    if (!f || fseek(f, consumed, SEEK_SET) != 0 || !fgets(line, sizeof line, f) ||
        gpumodel_parse(line, &r) != 0 || strcmp(r.kernel, name) != 0) {
        fprintf(stderr,
                "dmlcl-gpumodel-known: no record of %s in %s: is the plugin loaded "
                "(OCLGRIND_PLUGINS, scripts/gpumodel)?\n",
                name, out_path);
        exit(2);
    }
    consumed = ftell(f);
    fclose(f);
    return r;
}

static void expect(const char *what, double got, double want)
{
    ++checks;
    if (got == want) {
        printf("  ok   %-58s %g\n", what, got);
        return;
    }
    printf("  FAIL %-58s %g, expected %g\n", what, got, want);
    ++failures;
}

static size_t isz = sizeof(int), msz = sizeof(cl_mem);

int main(int argc, char **argv)
{
    int wrong = argc > 1 && !strcmp(argv[1], "--wrong");
    static char path[] = "/tmp/dmlcl-gpumodel-known-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 2;
    }
    close(fd);
    out_path = path;
    setenv("DMLCL_GPUMODEL_OUT", path, 1); /* read when the context is created */

    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs");
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err, "clCreateContext");
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err, "clCreateCommandQueue");
    program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        static char log[1 << 14];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "dmlcl-gpumodel-known: the kernels do not build:\n%s\n", log);
        return 2;
    }

    enum { N = 1024 };
    cl_mem in = buffer(4 * N * 4 + 64), out = buffer(4 * N * 4), c = buffer(64);
    int zero = 0, one = 1;
    gpumodel_record r;

    /* A coalesced float copy: a warp reads 32 consecutive floats, 128 bytes = 4 whole sectors;
     * N/32 requests each way; DRAM sees each sector once: N*4/32. */
    printf("copy: 1024 floats, work-groups of 256\n");
    r = launch("copy", N, 0, 256, 0, 3, msz, &in, msz, &out, isz, &zero);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]),
           wrong ? 0.5 : 1.0);
    expect("global store efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_STORE]), 1.0);
    expect("load requests", (double)r.kind[GPUMODEL_GLOBAL_LOAD].requests, N / 32);
    expect("load sectors", (double)r.kind[GPUMODEL_GLOBAL_LOAD].sectors, N * 4 / 32);
    expect("DRAM load sectors", (double)r.load_sectors, N * 4 / 32);
    expect("DRAM store sectors", (double)r.store_sectors, N * 4 / 32);
    expect("unavoidable bytes (loaded + stored)", (double)(r.load_bytes + r.store_bytes),
           2 * N * 4);
    expect("request sectors", (double)r.request_sectors, 2 * N * 4 / 32);
    if (wrong)
        goto done;

    /* Shifted by one float: 128 bytes straddle 5 sectors: 128 / 160 = 0.8. */
    printf("copy from one float past a sector boundary\n");
    r = launch("copy", N, 0, 256, 0, 3, msz, &in, msz, &out, isz, &one);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 0.8);
    expect("DRAM load sectors (the N floats from 4 bytes on: 129 sectors)", (double)r.load_sectors,
           N * 4 / 32 + 1);

    /* Stride 2: 32 lanes span 256 bytes = 8 sectors for 128 bytes used: 0.5. The launch reads
     * every sector of 2N floats (each holds 4 even floats): 2N*4/32, twice its N*4 bytes. */
    printf("stride-2 read\n");
    r = launch("stride2", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 0.5);
    expect("global store efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_STORE]), 1.0);
    expect("DRAM load sectors", (double)r.load_sectors, 2 * N * 4 / 32);
    expect("bytes loaded", (double)r.load_bytes, N * 4);

    /* Each item loads a float and stores it: the store waits for the load, one batch of 4
     * bytes an item. */
    expect("copy: batches in flight (1 an item)", (double)r.flight_batches, N);
    expect("copy: bytes in flight an item", gpumodel_flight(&r), 4);

    /* Bytes: 32 lanes x 1 byte = one sector, fully used; float4: 512 bytes = 16 sectors. */
    printf("uchar and float4 copies\n");
    r = launch("copy_u8", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("uchar load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("uchar load sectors (1 a request)", (double)r.kind[GPUMODEL_GLOBAL_LOAD].sectors,
           N / 32);
    r = launch("copy_f4", N / 4, 0, 64, 0, 2, msz, &in, msz, &out);
    expect("float4 load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("float4 load sectors (16 a request)", (double)r.kind[GPUMODEL_GLOBAL_LOAD].sectors,
           N / 4 / 32 * 16);
    expect("float4: bytes in flight an item", gpumodel_flight(&r), 16);

    /* Four loop rounds: four requests per warp per side, each coalesced. */
    printf("four rounds a work-item\n");
    r = launch("rounds", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("load requests (4 a warp)", (double)r.kind[GPUMODEL_GLOBAL_LOAD].requests, 4 * N / 32);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("rounds: batches (each round's store waits for its load)", (double)r.flight_batches,
           4 * N);
    expect("rounds: bytes in flight an item", gpumodel_flight(&r), 4);

    /* The same four floats an item, all loaded before the first store: one batch of 16 bytes;
     * two floats added: 8; an index then the float it names: two batches of 4. */
    printf("loads in flight\n");
    r = launch("batched", N / 4, 0, 64, 0, 2, msz, &in, msz, &out);
    expect("four loads, then four stores: batches", (double)r.flight_batches, N / 4);
    expect("four loads, then four stores: loads", (double)r.flight_loads, N);
    expect("four loads, then four stores: bytes in flight an item", gpumodel_flight(&r), 16);
    r = launch("pair", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("two loads added: bytes in flight an item", gpumodel_flight(&r), 8);
    r = launch("chase", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("an index, then its float: batches (2 an item)", (double)r.flight_batches, 2 * N);
    expect("an index, then its float: bytes in flight an item", gpumodel_flight(&r), 4);

    /* Work-groups of 8 x 32: warps in linear local-id order are 4 rows of 8 floats, 128
     * contiguous bytes; a partial last warp of a 48-item group: 2 requests, 6 sectors. */
    printf("2-D work-groups of 8 x 32, and a partial warp\n");
    r = launch("rows8", 8, 128, 8, 32, 2, msz, &in, msz, &out);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("load requests", (double)r.kind[GPUMODEL_GLOBAL_LOAD].requests, 8 * 128 / 32);
    r = launch("copy", 48, 0, 48, 0, 3, msz, &in, msz, &out, isz, &zero);
    expect("48 items: load requests", (double)r.kind[GPUMODEL_GLOBAL_LOAD].requests, 2);
    expect("48 items: load sectors", (double)r.kind[GPUMODEL_GLOBAL_LOAD].sectors, 48 * 4 / 32);

    /* Naive transpose of 64 x 64, work-groups of 32 x 8: a warp reads 32 floats of one row
     * (1.0) and writes 32 rows of the output, each float in its own sector: 4 / 32 = 0.125.
     * DRAM with a perfect cache still stores each output sector once (64*64*4/32 = 512); the
     * requests move 32 sectors each (128 requests: 4096, 8x). */
    printf("naive transpose of 64 x 64 floats\n");
    int w = 64, h = 64;
    r = launch("transpose", 64, 64, 32, 8, 4, msz, &in, msz, &out, isz, &w, isz, &h);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("global store efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_STORE]), 0.125);
    expect("store sectors (32 a request)", (double)r.kind[GPUMODEL_GLOBAL_STORE].sectors,
           64 * 64 / 32 * 32);
    expect("DRAM store sectors", (double)r.store_sectors, 64 * 64 * 4 / 32);

    /* Local memory, a 32 x 32 float tile by one work-group of 32 x 32 (32 warps): the row
     * stores hit 32 banks once (no replay). Column reads of an unpadded tile: lane x reads word
     * 32x + y, bank y for every lane: 32 distinct words in one bank, 32 wavefronts (31 replays)
     * a request; padded to 33, bank (x + y) mod 32: all distinct, no replay. */
    printf("local memory: a 32 x 32 tile\n");
    int pitch32 = 32, pitch33 = 33, mode;
    mode = 0;
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch32, isz, &mode);
    expect("row stores: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_STORE]), 0);
    expect("column reads of 32x32: wavefronts a request",
           (double)r.kind[GPUMODEL_LOCAL_LOAD].wavefronts / r.kind[GPUMODEL_LOCAL_LOAD].requests,
           32);
    expect("column reads of 32x32: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_LOAD]),
           32 * 31);
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch33, isz, &mode);
    expect("column reads of 32x33: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_LOAD]),
           0);
    expect("row stores of 32x33: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_STORE]),
           0);
    /* Rows: conflict-free. One word for the whole warp: a broadcast, free. Every second word
     * of 64: lanes x and x + 16 read words 2x and 2x + 32, one bank: 2 wavefronts. float2 along
     * a row: 256 bytes, two half-warp phases of 128 contiguous bytes, 1 wavefront each. */
    mode = 1;
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch32, isz, &mode);
    expect("row reads: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_LOAD]), 0);
    mode = 2;
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch32, isz, &mode);
    expect("broadcast of one word: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_LOAD]),
           0);
    mode = 3;
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch32, isz, &mode);
    expect("every second word: wavefronts a request",
           (double)r.kind[GPUMODEL_LOCAL_LOAD].wavefronts / r.kind[GPUMODEL_LOCAL_LOAD].requests,
           2);
    mode = 4;
    r = launch("tile", 32, 32, 32, 32, 4, msz, &in, msz, &out, isz, &pitch32, isz, &mode);
    expect("float2 rows: phases a request",
           (double)r.kind[GPUMODEL_LOCAL_LOAD].phases / r.kind[GPUMODEL_LOCAL_LOAD].requests, 2);
    expect("float2 rows: replays", (double)gpumodel_replays(&r.kind[GPUMODEL_LOCAL_LOAD]), 0);

    /* One load instruction reached from two call sites is two requests of a warp, as the GPU
     * runs each call with its own active lanes: the odd lanes' 16 floats (64 of 128 bytes, 4
     * sectors) and all 32 lanes' (4 sectors): (64 + 128) / (8 x 32) = 0.75, 48 lanes. Keyed by
     * instruction alone, the first calls of the odd and even lanes would merge (0.5). */
    printf("a load reached from two call sites\n");
    r = launch("sites", N, 0, 256, 0, 2, msz, &in, msz, &out);
    expect("load requests (2 a warp)", (double)r.kind[GPUMODEL_GLOBAL_LOAD].requests, 2 * N / 32);
    expect("load lanes (48 a warp)", (double)r.kind[GPUMODEL_GLOBAL_LOAD].lanes, 48 * N / 32);
    expect("global load efficiency", gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 0.75);

    /* __constant reads go to the constant cache, apart from global loads: one address a
     * request when uniform, four when lanes spread over c[0..3]. */
    printf("__constant reads\n");
    r = launch("constants", N, 0, 256, 0, 4, msz, &in, msz, &out, msz, &c, isz, &zero);
    expect("constant requests", (double)r.kind[GPUMODEL_CONSTANT_LOAD].requests, N / 32);
    expect("constant addresses a request",
           (double)r.kind[GPUMODEL_CONSTANT_LOAD].distinct /
               r.kind[GPUMODEL_CONSTANT_LOAD].requests,
           1);
    expect("global load efficiency (the constant apart)",
           gpumodel_efficiency(&r.kind[GPUMODEL_GLOBAL_LOAD]), 1.0);
    expect("DRAM load sectors (the constant apart)", (double)r.load_sectors, N * 4 / 32);
    r = launch("constants", N, 0, 256, 0, 4, msz, &in, msz, &out, msz, &c, isz, &one);
    expect("spread constant: addresses a request",
           (double)r.kind[GPUMODEL_CONSTANT_LOAD].distinct /
               r.kind[GPUMODEL_CONSTANT_LOAD].requests,
           4);

done:
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(c);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    unlink(path);
    printf("%s: %d of %d checks failed\n", failures ? "FAIL" : "PASS", failures, checks);
    return failures ? 1 : 0;
}
