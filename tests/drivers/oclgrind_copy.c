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
 */
#include <stdio.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define ITEMS 16

static const char *source = "__kernel void copy(__global int *out, __global const int *in,\n"
                            "                   int at)\n"
                            "{ out[get_global_id(0)] = in[at + get_global_id(0)]; }\n";

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "oclgrind_copy: %s: OpenCL error %d\n", what, err);
    return err != CL_SUCCESS;
}

int main(int argc, char **argv)
{
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "start") && strcmp(mode, "offset")) {
        fprintf(stderr, "usage: oclgrind_copy start|offset\n");
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
    if (check(clEnqueueCopyBuffer(queue, src, dst, 0, (size_t)at * sizeof(int), sizeof in, 0, NULL,
                                  NULL),
              "clEnqueueCopyBuffer") ||
        check(clSetKernelArg(kernel, 0, sizeof out_mem, &out_mem), "clSetKernelArg") ||
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
