/* SPDX-License-Identifier: MIT */
/*
 * OpenCL errors become the HRESULT that tells the truth, and the message
 * names the OpenCL error: allocation failures are out of memory, objects and
 * values the implementation refuses are invalid arguments, only a device that
 * failed is DXGI_ERROR_DEVICE_REMOVED.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "internal.h"

static void expect_mapped(cl_int err, const char *name, HRESULT want)
{
    HRESULT hr = dmli_fail_cl(err, "clSomething (test)");
    cr_expect_eq(hr, want, "%s: %s, expected %s", name, dmlcl_hresult_name(hr),
                 dmlcl_hresult_name(want));
    cr_expect(strstr(dmlcl_last_error(), name) && strstr(dmlcl_last_error(), "clSomething"),
              "message \"%s\" lacks %s or the call", dmlcl_last_error(), name);
}

Test(cl_errors, each_maps_to_the_truth)
{
    expect_mapped(CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY", E_OUTOFMEMORY);
    expect_mapped(CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE",
                  E_OUTOFMEMORY);
    expect_mapped(CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES", E_OUTOFMEMORY);
    expect_mapped(CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE", E_INVALIDARG);
    expect_mapped(CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT", E_INVALIDARG);
    expect_mapped(CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE", E_INVALIDARG);
    expect_mapped(CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT", E_INVALIDARG);
    expect_mapped(CL_INVALID_EVENT_WAIT_LIST, "CL_INVALID_EVENT_WAIT_LIST", E_INVALIDARG);
    expect_mapped(CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND", DXGI_ERROR_UNSUPPORTED);
    expect_mapped(CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE", DXGI_ERROR_DEVICE_REMOVED);
    expect_mapped(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", DXGI_ERROR_DEVICE_REMOVED);
    /* dmlcl's own mistakes (a kernel argument it set wrong) are no device loss. */
    expect_mapped(CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS", E_FAIL);
}
