/* SPDX-License-Identifier: MIT */
/* The device object (private to device.c and runtime.c). */
#ifndef DMLI_DEVICE_H
#define DMLI_DEVICE_H

#include <pthread.h>

#include "internal.h"

typedef struct dmli_cached_program {
    dmli_kernel_source source;
    char *options;
    cl_program program;
} dmli_cached_program;

/*
 * Every dmlcl_device starts with this tag ("dmlcldev") while it lives: an
 * entry point given a pointer that is not a device (another object's
 * address, a released device) refuses it instead of keeping it.
 */
#define DMLI_DEVICE_TAG 0x7665646c636c6d64ull

struct dmlcl_device {
    uint64_t tag; /* DMLI_DEVICE_TAG; first, so a check reads no more than 8 bytes */
    int refcount;
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
    dmli_device_desc desc;
    char description[300];
    pthread_mutex_t lock; /* guards the program cache */
    dmli_cached_program *programs;
    size_t n_programs, cap_programs;
    unsigned builds; /* programs built (cache misses) */
};

/*
 * The program cache as tools show it (dmlcl-info): entry i's kernel family
 * and build options (the variant), false past the last entry; and the
 * number of programs built so far (cache misses). Pointers stay valid while
 * the device lives.
 */
bool dmli_device_cached_program(dmlcl_device *device, size_t i, const char **family,
                                const char **options);
unsigned dmli_device_builds(dmlcl_device *device);

/* DMLCL_PROFILE (profile.h): whether the variable is set (to anything but "0"), read once; and
 * the properties a queue dmlcl creates gets, CL_QUEUE_PROFILING_ENABLE while profiling. */
bool dmli_profile_enabled(void);
cl_command_queue_properties dmli_profile_queue_properties(void);

#endif /* DMLI_DEVICE_H */
