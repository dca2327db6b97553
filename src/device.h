/* The device object (private to device.c and runtime.c). */
#ifndef DMLI_DEVICE_H
#define DMLI_DEVICE_H

#include <pthread.h>

#include "launch.h"

typedef struct dmli_cached_program {
    dmli_kernel_source source;
    char *options;
    cl_program program;
} dmli_cached_program;

struct dmlcl_device {
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

#endif /* DMLI_DEVICE_H */
