/* SPDX-License-Identifier: MIT */
/*
 * oclgrind_reuse.c: Oclgrind 21.10's uninitialised-value check on a buffer
 * that reuses a released buffer's slot, outside dmlcl.
 *
 *   oclgrind_reuse fresh|reuse
 *
 * Both modes copy 16 ints from an initialised buffer into a buffer the host
 * never writes (mid), then from mid into an initialised output, and check
 * the output. Every byte of mid is written by the first kernel before the
 * second reads it, so a correct check reports nothing. "reuse" first creates,
 * writes and releases a 16-byte buffer, so mid takes its slot: 21.10's
 * plugin keeps a shadow per slot (made by a host write, or poisoned when a
 * kernel first sees a slot with none), has no hook for buffer release, and a
 * host write sizes the shadow to the bytes written. mid inherits that 16-byte
 * shadow, the stores past it are dropped, and the second kernel's reads past
 * it come back poisoned: 12 "Uninitialized value written" reports with the
 * right values written. Seen in dmlcl: a compiled graph's temporary resource
 * (written only by its steps) allocated by dmlcl_compiled_operator_execute
 * after an earlier graph's smaller buffers were released.
 */
#include <stdio.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define ITEMS 16

static const char *source = "__kernel void copy(__global int *out, __global const int *in)\n"
                            "{ out[get_global_id(0)] = in[get_global_id(0)]; }\n";

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "oclgrind_reuse: %s: OpenCL error %d\n", what, err);
    return err != CL_SUCCESS;
}

static int copy(cl_command_queue queue, cl_kernel kernel, cl_mem out, cl_mem in)
{
    size_t items = ITEMS;
    return check(clSetKernelArg(kernel, 0, sizeof out, &out), "clSetKernelArg") ||
           check(clSetKernelArg(kernel, 1, sizeof in, &in), "clSetKernelArg") ||
           check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, &items, 0, NULL, NULL),
                 "clEnqueueNDRangeKernel");
}

int main(int argc, char **argv)
{
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "fresh") && strcmp(mode, "reuse")) {
        fprintf(stderr, "usage: oclgrind_reuse fresh|reuse\n");
        return 2;
    }
    int in[ITEMS], out[ITEMS] = {0};
    for (int i = 0; i < ITEMS; ++i)
        in[i] = i + 1;
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
    cl_mem in_mem =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    if (check(err, "clCreateBuffer"))
        return 1;
    if (!strcmp(mode, "reuse")) {
        cl_mem small = clCreateBuffer(context, CL_MEM_READ_WRITE, 16, NULL, &err);
        if (check(err, "clCreateBuffer") ||
            check(clEnqueueWriteBuffer(queue, small, CL_TRUE, 0, 16, in, 0, NULL, NULL),
                  "clEnqueueWriteBuffer") ||
            check(clReleaseMemObject(small), "clReleaseMemObject"))
            return 1;
    }
    cl_mem mid = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof in, NULL, &err);
    if (check(err, "clCreateBuffer"))
        return 1;
    cl_mem out_mem =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    if (check(err, "clCreateBuffer") || copy(queue, kernel, mid, in_mem) ||
        copy(queue, kernel, out_mem, mid) ||
        check(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
              "clEnqueueReadBuffer"))
        return 1;
    if (memcmp(in, out, sizeof in) != 0) {
        fprintf(stderr, "oclgrind_reuse: wrong output\n");
        return 1;
    }
    clReleaseMemObject(out_mem);
    clReleaseMemObject(mid);
    clReleaseMemObject(in_mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
