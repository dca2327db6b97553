/* SPDX-License-Identifier: MIT */
/*
 * An application of the installed package: an ONNX Gather on host memory.
 * It asks for OpenCL 3.0 declarations itself (dmlcl.h must leave that to
 * it) and takes the address of a 2.0 function, which an OpenCL 1.2 target
 * would leave undeclared.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    void (*newer)(void) = (void (*)(void))clCreateCommandQueueWithProperties;
    float data[6] = {0, 1, 2, 3, 4, 5};
    int64_t indices[2] = {2, 0};
    float out[4] = {-1, -1, -1, -1};
    /* ONNX Gather, axis 0: rows 2 and 0 of the 3x2 matrix. */
    const float expected[4] = {4, 5, 0, 1};
    dmlcl_shape ds = {.rank = 2, .dims = {3, 2}}, is = {.rank = 1, .dims = {2}};
    dmlcl_onnx_gather_args args = {.data = &ds,
                                   .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                   .indices = &is,
                                   .indices_type = DML_TENSOR_DATA_TYPE_INT64,
                                   .axis = 0};
    dmlcl_frontend_result r;
    dmlcl_device *device = NULL;
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_onnx_gather(13, &args, &r);
    if (SUCCEEDED(hr))
        hr = dmlcl_device_create(&device);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_create(device, &r.desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled);
    if (SUCCEEDED(hr)) {
        dmlcl_host_tensor in[2] = {{data, sizeof data}, {indices, sizeof indices}};
        dmlcl_host_tensor o = {out, sizeof out};
        hr = dmlcl_compiled_operator_execute(compiled, 2, in, 1, &o);
    }
    if (FAILED(hr))
        fprintf(stderr, "consumer: %s: %s\n", dmlcl_hresult_name(hr), dmlcl_last_error());
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    dmlcl_device_release(device);
    if (FAILED(hr))
        return 1;
    if (memcmp(out, expected, sizeof out) != 0 || !newer) {
        fprintf(stderr, "consumer: wrong rows %g %g %g %g\n", out[0], out[1], out[2], out[3]);
        return 1;
    }
    printf("dmlcl %s: gather ok\n", dmlcl_version_string());
    return 0;
}
