/* SPDX-License-Identifier: MIT */
/*
 * oclgrind_copy.c: Oclgrind 21.10's uninitialised-value check after
 * clEnqueueCopyBuffer, outside dmlcl.
 *
 *   oclgrind_copy start|offset
 *
 * Both modes copy 16 ints, written by the host, into a buffer the host never
 * wrote (dst, 512 bytes), then a kernel copies them from dst into an
 * initialised output, which is checked. "start" copies to the start of dst:
 * no report. "offset" copies to byte 256 of dst: the right values arrive
 * (the output is checked), but the check reports every one of the 16 reads
 * as uninitialised ("Uninitialized value written", 16 reports). The same
 * holds when dst was filled by clEnqueueFillBuffer first, and through a
 * sub-buffer at 256. Seen in dmlcl: dmlcl_compiled_operator_initialize
 * copies each DML_TENSOR_FLAG_OWNED_BY_DML input to its place in the
 * persistent resource (offsets of 256 and up) with clEnqueueCopyBuffer.
 *
 *   oclgrind_copy filled|written
 *
 * The same after clEnqueueFillBuffer: dst is filled (0xFF bytes) or written
 * by the host (the same bytes), then a kernel puts the 16 ints at its start
 * and a second kernel copies them out. "written": no report; "filled": the
 * right values arrive, and the check reports the 16 reads. Seen in dmlcl: the
 * device tests poisoned the temporary resource with a fill, and a split
 * product's second step read its first step's sums there (tests/ops/harness.c
 * now writes the poison).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define ITEMS 16

static const char *source = "__kernel void copy(__global int *out, __global const int *in,\n"
                            "                   int at)\n"
                            "{ out[get_global_id(0)] = in[at + get_global_id(0)]; }\n"
                            "__kernel void put(__global int *out, __global const int *in)\n"
                            "{ out[get_global_id(0)] = in[get_global_id(0)]; }\n";

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "oclgrind_copy: %s: OpenCL error %d\n", what, err);
    return err != CL_SUCCESS;
}

int main(int argc, char **argv)
{
    const char *mode = argc == 2 ? argv[1] : "";
    const bool filled = !strcmp(mode, "filled"), written = !strcmp(mode, "written");
    if (strcmp(mode, "start") && strcmp(mode, "offset") && !filled && !written) {
        fprintf(stderr, "usage: oclgrind_copy start|offset|filled|written\n");
        return 2;
    }
    int in[ITEMS], out[ITEMS] = {0};
    for (int i = 0; i < ITEMS; ++i)
        in[i] = i + 1;
    cl_int at = strcmp(mode, "offset") ? 0 : 256 / (cl_int)sizeof(int);
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (check(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs") ||
        check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs"))
        return 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (check(err, "clCreateContext"))
        return 1;
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (check(err, "clCreateProgramWithSource") ||
        check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram"))
        return 1;
    cl_kernel kernel = clCreateKernel(program, "copy", &err);
    cl_mem src =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem dst = clCreateBuffer(context, CL_MEM_READ_WRITE, 512, NULL, &err);
    cl_mem out_mem =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    if (check(err, "clCreateBuffer"))
        return 1;
    size_t items = ITEMS;
    if (filled || written) {
        /* dst poisoned, then a kernel puts the ints at its start (at 0). */
        unsigned char poison[512];
        memset(poison, 0xFF, sizeof poison);
        cl_kernel put = clCreateKernel(program, "put", &err);
        if (check(err, "clCreateKernel") ||
            check(filled
                      ? clEnqueueFillBuffer(queue, dst, poison, 1, 0, sizeof poison, 0, NULL, NULL)
                      : clEnqueueWriteBuffer(queue, dst, CL_TRUE, 0, sizeof poison, poison, 0, NULL,
                                             NULL),
                  "poisoning dst") ||
            check(clSetKernelArg(put, 0, sizeof dst, &dst), "clSetKernelArg") ||
            check(clSetKernelArg(put, 1, sizeof src, &src), "clSetKernelArg") ||
            check(clEnqueueNDRangeKernel(queue, put, 1, NULL, &items, &items, 0, NULL, NULL),
                  "clEnqueueNDRangeKernel"))
            return 1;
        clReleaseKernel(put);
    } else if (check(clEnqueueCopyBuffer(queue, src, dst, 0, (size_t)at * sizeof(int), sizeof in, 0,
                                         NULL, NULL),
                     "clEnqueueCopyBuffer"))
        return 1;
    if (check(clSetKernelArg(kernel, 0, sizeof out_mem, &out_mem), "clSetKernelArg") ||
        check(clSetKernelArg(kernel, 1, sizeof dst, &dst), "clSetKernelArg") ||
        check(clSetKernelArg(kernel, 2, sizeof at, &at), "clSetKernelArg") ||
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, &items, 0, NULL, NULL),
              "clEnqueueNDRangeKernel") ||
        check(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
              "clEnqueueReadBuffer"))
        return 1;
    if (memcmp(in, out, sizeof in) != 0) {
        fprintf(stderr, "oclgrind_copy: wrong output\n");
        return 1;
    }
    clReleaseMemObject(out_mem);
    clReleaseMemObject(dst);
    clReleaseMemObject(src);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
