/* SPDX-License-Identifier: MIT */
/* Errors: thread-local messages, the log callback, HRESULT and CL names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static _Thread_local char last_error[1024];
static dmlcl_log_callback log_callback;
static void *log_user;

const char *dmlcl_last_error(void)
{
    return last_error;
}

void dmlcl_set_log_callback(dmlcl_log_callback callback, void *user)
{
    log_callback = callback;
    log_user = user;
}

void dmli_clear_error(void)
{
    last_error[0] = '\0';
}

HRESULT dmli_fail(HRESULT hr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    if (log_callback)
        log_callback(log_user, hr, last_error);
    return hr;
}

const char *dmlcl_hresult_name(HRESULT hr)
{
    static _Thread_local char unknown[32];
#define DMLI_NAME_CASE_(name, value, text) \
    if (hr == (HRESULT)DMLCL_HR_##name)    \
        return #name;
    DMLCL_HRESULT_MAP(DMLI_NAME_CASE_)
#undef DMLI_NAME_CASE_
    snprintf(unknown, sizeof unknown, "HRESULT(0x%08X)", (unsigned)hr);
    return unknown;
}

uint32_t dmlcl_version(void)
{
    return DMLCL_VERSION_HEX;
}

const char *dmlcl_version_string(void)
{
#define DMLI_STR2_(x) #x
#define DMLI_STR_(x) DMLI_STR2_(x)
    return DMLI_STR_(DMLCL_VERSION_MAJOR) "." DMLI_STR_(DMLCL_VERSION_MINOR) "." DMLI_STR_(
        DMLCL_VERSION_PATCH);
}

const char *dmli_cl_error_name(cl_int err)
{
    switch (err) {
#define C_(x) \
    case x: return #x;
        C_(CL_SUCCESS)
        C_(CL_DEVICE_NOT_FOUND)
        C_(CL_DEVICE_NOT_AVAILABLE)
        C_(CL_COMPILER_NOT_AVAILABLE)
        C_(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        C_(CL_OUT_OF_RESOURCES)
        C_(CL_OUT_OF_HOST_MEMORY)
        C_(CL_BUILD_PROGRAM_FAILURE)
        C_(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        C_(CL_INVALID_VALUE)
        C_(CL_INVALID_DEVICE_TYPE)
        C_(CL_INVALID_PLATFORM)
        C_(CL_INVALID_DEVICE)
        C_(CL_INVALID_CONTEXT)
        C_(CL_INVALID_QUEUE_PROPERTIES)
        C_(CL_INVALID_COMMAND_QUEUE)
        C_(CL_INVALID_MEM_OBJECT)
        C_(CL_INVALID_BUILD_OPTIONS)
        C_(CL_INVALID_PROGRAM)
        C_(CL_INVALID_PROGRAM_EXECUTABLE)
        C_(CL_INVALID_KERNEL_NAME)
        C_(CL_INVALID_KERNEL)
        C_(CL_INVALID_ARG_INDEX)
        C_(CL_INVALID_ARG_VALUE)
        C_(CL_INVALID_ARG_SIZE)
        C_(CL_INVALID_KERNEL_ARGS)
        C_(CL_INVALID_WORK_DIMENSION)
        C_(CL_INVALID_WORK_GROUP_SIZE)
        C_(CL_INVALID_WORK_ITEM_SIZE)
        C_(CL_INVALID_GLOBAL_OFFSET)
        C_(CL_INVALID_EVENT_WAIT_LIST)
        C_(CL_INVALID_EVENT)
        C_(CL_INVALID_BUFFER_SIZE)
        C_(CL_INVALID_GLOBAL_WORK_SIZE)
        C_(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
#undef C_
    default: return "CL_ERROR(unknown)";
    }
}

/*
 * The HRESULT that tells the truth about an OpenCL error: memory the device or
 * host could not give; an object or value of the caller's the implementation
 * refused; no device at all; a device that failed while running (the only
 * DXGI_ERROR_DEVICE_REMOVED). The rest are dmlcl's own mistakes: E_FAIL.
 */
HRESULT dmli_cl_hresult(cl_int err)
{
    switch (err) {
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES: return E_OUTOFMEMORY;
    case CL_INVALID_BUFFER_SIZE:
    case CL_INVALID_VALUE:
    case CL_INVALID_MEM_OBJECT:
    case CL_INVALID_CONTEXT:
    case CL_INVALID_COMMAND_QUEUE:
    case CL_INVALID_EVENT:
    case CL_INVALID_EVENT_WAIT_LIST:
    case CL_INVALID_DEVICE:
    case CL_INVALID_PLATFORM:
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return E_INVALIDARG;
    case CL_DEVICE_NOT_FOUND:
    case CL_COMPILER_NOT_AVAILABLE:
    case -1001: /* CL_PLATFORM_NOT_FOUND_KHR */ return DXGI_ERROR_UNSUPPORTED;
    case CL_DEVICE_NOT_AVAILABLE:
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return DXGI_ERROR_DEVICE_REMOVED;
    default: return E_FAIL;
    }
}

HRESULT dmli_fail_cl(cl_int err, const char *what)
{
    return dmli_fail(dmli_cl_hresult(err), "OpenCL: %s failed with %s (%d)", what,
                     dmli_cl_error_name(err), (int)err);
}
