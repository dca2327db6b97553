/* SPDX-License-Identifier: MIT */
/*
 * The runtime against the caller's OpenCL objects: status and synchronous
 * execution never touch the device's internal queue (here kept blocked by a
 * user event that completes only at the end: a read on it would hang), a
 * cl_mem of another cl_context is refused at binding, and a tensor larger
 * than the device allocates is out of memory, not a lost device.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/frontends.h"
#include "harness.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

OPS_DEVICE_SUITE(runtime_queues);

typedef struct blocked {
    cl_context context;
    cl_device_id id;
    cl_command_queue internal, mine;
    cl_event gate;
    dmlcl_device *device;
} blocked;

/* A dmlcl device whose queue waits on a user event: nothing enqueued there runs. */
static void blocked_init(blocked *b)
{
    cl_int err;
    b->context = dmlcl_device_context(ops_device());
    b->id = dmlcl_device_id(ops_device());
    b->internal = clCreateCommandQueue(b->context, b->id, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    b->mine = clCreateCommandQueue(b->context, b->id, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    b->gate = clCreateUserEvent(b->context, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clEnqueueMarkerWithWaitList(b->internal, 1, &b->gate, NULL), CL_SUCCESS);
    clFlush(b->internal);
    cr_assert_eq(dmlcl_device_create_from_cl(b->context, b->id, b->internal, &b->device), S_OK,
                 "%s", dmlcl_last_error());
}

static void blocked_fini(blocked *b)
{
    clSetUserEventStatus(b->gate, CL_COMPLETE);
    clFinish(b->internal);
    dmlcl_device_release(b->device);
    clReleaseEvent(b->gate);
    clReleaseCommandQueue(b->mine);
    clReleaseCommandQueue(b->internal);
}

/* ONNX Gather-13 (ERROR policy) of 4 floats by 3 indices. */
static dmlcl_compiled_operator *onnx_gather(dmlcl_device *device, dmlcl_frontend_result *f)
{
    const dmlcl_shape data = {1, {4}}, indices = {1, {3}};
    const dmlcl_onnx_gather_args args = {&data, F32, &indices, DML_TENSOR_DATA_TYPE_INT64, 0};
    cr_assert_eq(dmlcl_onnx_gather(13, &args, f), S_OK, "%s", dmlcl_last_error());
    dmlcl_operator *op;
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_operator_create(device, &f->desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_operator_release(op);
    return c;
}

static const float data[4] = {1.5f, -2.0f, 3.25f, 8.0f};
static const int64_t bad_indices[3] = {0, 7, 1};

Test(runtime_queues, status_reads_on_the_dispatch_queue, .timeout = 60)
{
    blocked b;
    blocked_init(&b);
    dmlcl_frontend_result f;
    dmlcl_compiled_operator *c = onnx_gather(b.device, &f);
    cl_int err;
    cl_mem mem[3];
    const size_t bytes[3] = {sizeof data, sizeof bad_indices, 3 * sizeof(float)};
    const void *init[3] = {data, bad_indices, NULL};
    for (int i = 0; i < 3; ++i) {
        mem[i] = clCreateBuffer(b.context, CL_MEM_READ_WRITE | (init[i] ? CL_MEM_COPY_HOST_PTR : 0),
                                bytes[i], (void *)init[i], &err);
        cr_assert_eq(err, CL_SUCCESS);
    }
    DML_BUFFER_BINDING bb[3];
    DML_BINDING_DESC bd[3];
    for (int i = 0; i < 3; ++i) {
        bb[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)mem[i], 0, bytes[i]};
        bd[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bb[i]};
    }
    dmlcl_binding_table *t;
    cr_assert_eq(dmlcl_binding_table_create(c, &t), S_OK);
    cr_assert_eq(dmlcl_binding_table_bind_inputs(t, 2, bd), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_binding_table_bind_outputs(t, 1, bd + 2), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_binding_table_dispatch(t, b.mine, 0, NULL, NULL), S_OK, "%s",
                 dmlcl_last_error());
    HRESULT hr = dmlcl_binding_table_status(t);
    cr_expect_eq(hr, DMLCL_E_INDEX_OUT_OF_RANGE, "%s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    cr_expect(strstr(dmlcl_last_error(), "element 1") && strstr(dmlcl_last_error(), "is 7"), "%s",
              dmlcl_last_error());
    dmlcl_binding_table_release(t);

    /* Synchronous execution: its own queue, the same verdict. */
    float out[3];
    dmlcl_host_tensor in_h[2] = {{(void *)data, sizeof data},
                                 {(void *)bad_indices, sizeof bad_indices}};
    dmlcl_host_tensor out_h[1] = {{out, sizeof out}};
    hr = dmlcl_compiled_operator_execute(c, 2, in_h, 1, out_h);
    cr_expect_eq(hr, DMLCL_E_INDEX_OUT_OF_RANGE, "%s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    const int64_t good[3] = {3, 0, 2};
    in_h[1].data = (void *)good;
    hr = dmlcl_compiled_operator_execute(c, 2, in_h, 1, out_h);
    cr_expect_eq(hr, S_OK, "%s", dmlcl_last_error());
    cr_expect(out[0] == 8.0f && out[1] == 1.5f && out[2] == 3.25f, "got %g %g %g", out[0], out[1],
              out[2]);
    dmlcl_compiled_operator_release(c);
    for (int i = 0; i < 3; ++i)
        clReleaseMemObject(mem[i]);
    blocked_fini(&b);
}

Test(runtime_queues, buffer_of_another_context_refused)
{
    dmlcl_device *device = ops_device();
    cl_device_id id = dmlcl_device_id(device);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &id, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    dmlcl_frontend_result f;
    dmlcl_compiled_operator *c = onnx_gather(device, &f);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem own = clCreateBuffer(dmlcl_device_context(device), CL_MEM_READ_WRITE, 64, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    DML_BUFFER_BINDING bb[2] = {{(ID3D12Resource *)own, 0, 16}, {(ID3D12Resource *)foreign, 0, 24}};
    DML_BINDING_DESC bd[2] = {{DML_BINDING_TYPE_BUFFER, &bb[0]}, {DML_BINDING_TYPE_BUFFER, &bb[1]}};
    dmlcl_binding_table *t;
    cr_assert_eq(dmlcl_binding_table_create(c, &t), S_OK);
    HRESULT hr = dmlcl_binding_table_bind_inputs(t, 2, bd);
    cr_expect_eq(hr, E_INVALIDARG, "%s: %s", dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_expect(strstr(dmlcl_last_error(), "binding 1 (IndicesTensor)") &&
                  strstr(dmlcl_last_error(), "another cl_context"),
              "%s", dmlcl_last_error());
    bb[1].Buffer = (ID3D12Resource *)own;
    cr_expect_eq(dmlcl_binding_table_bind_inputs(t, 2, bd), S_OK, "%s", dmlcl_last_error());
    dmlcl_binding_table_release(t);
    dmlcl_compiled_operator_release(c);
    clReleaseMemObject(foreign);
    clReleaseMemObject(own);
    clReleaseContext(other);
}

/* A 2^40-byte tensor: no device allocates that much at once; dmlcl says so before trying. */
Test(runtime_queues, tensor_beyond_the_device_is_out_of_memory)
{
    UINT sizes[1] = {4};
    DML_BUFFER_TENSOR_DESC ib = {F32, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, UINT64_C(1) << 40, 0};
    DML_BUFFER_TENSOR_DESC ob = {F32, DML_TENSOR_FLAG_NONE, 1, sizes, NULL, 16, 0};
    DML_TENSOR_DESC it = {DML_TENSOR_TYPE_BUFFER, &ib}, ot = {DML_TENSOR_TYPE_BUFFER, &ob};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {&it, &ot, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d};
    dmlcl_operator *op;
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    float in[4] = {1, 2, 3, 4}, out[4];
    /* The size claimed, not allocated: dmlcl must refuse before reading past in[3]. */
    dmlcl_host_tensor in_h = {in, UINT64_C(1) << 40}, out_h = {out, sizeof out};
    HRESULT hr = dmlcl_compiled_operator_execute(c, 1, &in_h, 1, &out_h);
    cr_expect_eq(hr, E_OUTOFMEMORY, "%s: %s", dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_expect(strstr(dmlcl_last_error(), "InputTensor") &&
                  strstr(dmlcl_last_error(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"),
              "%s", dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
}
