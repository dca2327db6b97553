/* SPDX-License-Identifier: MIT */
/*
 * oclgrind_probe.c: one known fault per run, so the Oclgrind runs can be
 * trusted to fail: scripts/oclgrind must report each of them, and nothing
 * for "clean". Plain OpenCL on the first device (Oclgrind under the script).
 *
 *   oclgrind_probe clean|out-of-bounds|race|uninitialized|api
 */
#include <stdio.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define ITEMS 16

static const char *source = "__kernel void copy(__global int *out, __global const int *in)\n"
                            "{ out[get_global_id(0)] = in[get_global_id(0)]; }\n"
                            "__kernel void past_end(__global int *out, __global const int *in)\n"
                            "{ out[get_global_id(0) + 1] = in[get_global_id(0)]; }\n"
                            "__kernel void same_slot(__global int *out, __global const int *in)\n"
                            "{ out[0] = in[get_global_id(0)]; }\n";

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "oclgrind_probe: %s: OpenCL error %d\n", what, err);
    return err != CL_SUCCESS;
}

int main(int argc, char **argv)
{
    const char *fault = argc == 2 ? argv[1] : "";
    const char *kernel_name = !strcmp(fault, "out-of-bounds") ? "past_end"
                              : !strcmp(fault, "race")        ? "same_slot"
                                                              : "copy";
    int in[ITEMS], out[ITEMS];
    size_t items = ITEMS;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;

    if (strcmp(fault, "clean") && strcmp(fault, "out-of-bounds") && strcmp(fault, "race") &&
        strcmp(fault, "uninitialized") && strcmp(fault, "api")) {
        fprintf(stderr, "usage: oclgrind_probe clean|out-of-bounds|race|uninitialized|api\n");
        return 2;
    }
    for (int i = 0; i < ITEMS; ++i)
        in[i] = i;
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
    cl_kernel kernel = clCreateKernel(program, kernel_name, &err);
    cl_mem out_mem = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    /* "uninitialized": the input buffer is never written. */
    cl_mem in_mem =
        !strcmp(fault, "uninitialized")
            ? clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof in, NULL, &err)
            : clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    if (check(err, "clCreateBuffer") ||
        check(clSetKernelArg(kernel, 0, sizeof out_mem, &out_mem), "clSetKernelArg") ||
        check(clSetKernelArg(kernel, 1, sizeof in_mem, &in_mem), "clSetKernelArg"))
        return 1;
    /* "api": an argument index the kernel does not have (the error is the point). */
    if (!strcmp(fault, "api"))
        clSetKernelArg(kernel, 2, sizeof in_mem, &in_mem);
    if (check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, &items, 0, NULL, NULL),
              "clEnqueueNDRangeKernel") ||
        check(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
              "clEnqueueReadBuffer"))
        return 1;
    if (!strcmp(fault, "clean") && memcmp(in, out, sizeof in) != 0) {
        fprintf(stderr, "oclgrind_probe: copy: wrong output\n");
        return 1;
    }
    clReleaseMemObject(in_mem);
    clReleaseMemObject(out_mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
