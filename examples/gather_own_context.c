/* SPDX-License-Identifier: MIT */
/*
 * dmlcl inside an application that owns its OpenCL context and queue: the
 * application creates them and its buffers, dmlcl wraps them
 * (dmlcl_device_create_from_cl), and the gather is dispatched on the
 * application's queue after its own write, returning an event the
 * application waits on. Nothing is copied behind its back.
 *
 * The gather: ONNX Gather-13 through the front-end, rows {2, 0, 2} of a 3x4
 * int32 matrix (negative-free indices; the rows as numpy.take gives them).
 */
#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>
#include <stdio.h>
#include <string.h>

#define ROWS 3
#define COLS 4
#define PICKS 3

static int cl_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "%s failed (%d)\n", what, (int)err);
    return err != CL_SUCCESS;
}

static int dml_check(HRESULT hr, const char *what)
{
    if (FAILED(hr))
        fprintf(stderr, "%s: %s: %s\n", what, dmlcl_hresult_name(hr), dmlcl_last_error());
    return FAILED(hr);
}

/* The application's part: the first device of the first platform, a context and a queue. */
static int app_open(cl_context *context, cl_device_id *device, cl_command_queue *queue)
{
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (cl_check(err, "clGetPlatformIDs") ||
        cl_check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL), "clGetDeviceIDs"))
        return 1;
    *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
    if (cl_check(err, "clCreateContext"))
        return 1;
    *queue = clCreateCommandQueue(*context, *device, 0, &err);
    return cl_check(err, "clCreateCommandQueue");
}

int main(void)
{
    int32_t data[ROWS * COLS], out[PICKS * COLS];
    int64_t indices[PICKS] = {2, 0, 2};
    for (int i = 0; i < ROWS * COLS; ++i)
        data[i] = 100 + i;
    cl_context context = NULL;
    cl_device_id device_id = NULL;
    cl_command_queue queue = NULL;
    if (app_open(&context, &device_id, &queue))
        return 1;
    cl_int err;
    cl_mem bufs[3] = {clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof data, NULL, &err),
                      clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof indices, NULL, &err),
                      clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err)};
    if (cl_check(err, "clCreateBuffer"))
        return 1;
    /* The application's own writes, non-blocking, on its queue. */
    clEnqueueWriteBuffer(queue, bufs[0], CL_FALSE, 0, sizeof data, data, 0, NULL, NULL);
    clEnqueueWriteBuffer(queue, bufs[1], CL_FALSE, 0, sizeof indices, indices, 0, NULL, NULL);

    dmlcl_shape ds = {.rank = 2, .dims = {ROWS, COLS}}, is = {.rank = 1, .dims = {PICKS}};
    dmlcl_onnx_gather_args args = {.data = &ds,
                                   .data_type = DML_TENSOR_DATA_TYPE_INT32,
                                   .indices = &is,
                                   .indices_type = DML_TENSOR_DATA_TYPE_INT64,
                                   .axis = 0};
    dmlcl_frontend_result r;
    dmlcl_device *device = NULL;
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    dmlcl_binding_table *table = NULL;
    cl_event done = NULL;
    int failed =
        dml_check(dmlcl_onnx_gather(13, &args, &r), "dmlcl_onnx_gather") ||
        dml_check(dmlcl_device_create_from_cl(context, device_id, queue, &device),
                  "dmlcl_device_create_from_cl") ||
        dml_check(dmlcl_operator_create(device, &r.desc, &op), "dmlcl_operator_create") ||
        dml_check(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled), "compile") ||
        dml_check(dmlcl_binding_table_create(compiled, &table), "dmlcl_binding_table_create");
    if (!failed) {
        /* Bindings: the application's cl_mem objects, whole. */
        DML_BUFFER_BINDING b[3];
        DML_BINDING_DESC inputs[2], output;
        const size_t sizes[3] = {sizeof data, sizeof indices, sizeof out};
        for (int i = 0; i < 3; ++i)
            b[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)bufs[i], 0, sizes[i]};
        inputs[0] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &b[0]};
        inputs[1] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &b[1]};
        output = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &b[2]};
        failed = dml_check(dmlcl_binding_table_bind_inputs(table, 2, inputs), "bind inputs") ||
                 dml_check(dmlcl_binding_table_bind_outputs(table, 1, &output), "bind output") ||
                 dml_check(dmlcl_binding_table_dispatch(table, queue, 0, NULL, &done), "dispatch");
    }
    if (!failed) {
        /* The application reads after dmlcl's event, then asks for the dispatch's status. */
        failed = cl_check(clEnqueueReadBuffer(queue, bufs[2], CL_TRUE, 0, sizeof out, out, 1, &done,
                                              NULL),
                          "clEnqueueReadBuffer") ||
                 dml_check(dmlcl_binding_table_status(table), "status");
    }
    for (int p = 0; !failed && p < PICKS; ++p)
        for (int c = 0; c < COLS; ++c)
            if (out[p * COLS + c] != data[indices[p] * COLS + c]) {
                fprintf(stderr, "row %d column %d: %d, expected %d\n", p, c, out[p * COLS + c],
                        data[indices[p] * COLS + c]);
                failed = 1;
            }
    if (!failed)
        printf("gathered rows 2, 0, 2 on the application's queue: %d %d %d ...\n", out[0], out[1],
               out[2]);
    if (done)
        clReleaseEvent(done);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    dmlcl_device_release(device);
    for (int i = 0; i < 3; ++i)
        clReleaseMemObject(bufs[i]);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return failed;
}
