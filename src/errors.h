/* SPDX-License-Identifier: MIT */
/*
 * Errors (error.c): messages and the one-line guards. Apart from
 * internal.h so that C++ (src/com) can use them: the rest of internal.h is C11.
 */
#ifndef DMLI_ERRORS_H
#define DMLI_ERRORS_H

#include "dmlcl/dmlcl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records a message for dmlcl_last_error() and the log callback; returns hr. */
HRESULT dmli_fail(HRESULT hr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clears this thread's message (a call that succeeds leaves the old one). */
void dmli_clear_error(void);

/* One-line guards, PoCL style: return an error with a message. */
#define DMLI_INVALID_IF(cond, ...)                       \
    do {                                                 \
        if (cond)                                        \
            return dmli_fail(E_INVALIDARG, __VA_ARGS__); \
    } while (0)
#define DMLI_UNSUPPORTED_IF(cond, ...)                             \
    do {                                                           \
        if (cond)                                                  \
            return dmli_fail(DXGI_ERROR_UNSUPPORTED, __VA_ARGS__); \
    } while (0)
#define DMLI_NULL_IF(cond, ...)                       \
    do {                                              \
        if (cond)                                     \
            return dmli_fail(E_POINTER, __VA_ARGS__); \
    } while (0)
#define DMLI_TRY(expr)             \
    do {                           \
        HRESULT dmli_hr_ = (expr); \
        if (FAILED(dmli_hr_))      \
            return dmli_hr_;       \
    } while (0)

/*
 * S_OK when device is a live dmlcl_device (it carries the device tag,
 * device.h), else E_INVALIDARG naming call: every entry point that takes a
 * device checks it, the C++ layer's DMLCreateDevice too. NULL is each
 * caller's own case (device.c).
 */
HRESULT dmli_device_check(const dmlcl_device *device, const char *call);

/* An OpenCL failure as an HRESULT with the call and the CL error name. */
HRESULT dmli_fail_cl(cl_int err, const char *what);
/* The HRESULT an OpenCL error means (out of memory, invalid argument, device lost, ...). */
HRESULT dmli_cl_hresult(cl_int err);
const char *dmli_cl_error_name(cl_int err);

#ifdef __cplusplus
}
#endif

#endif /* DMLI_ERRORS_H */
