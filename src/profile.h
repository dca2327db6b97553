/* SPDX-License-Identifier: MIT */
/*
 * DMLCL_PROFILE=1: the device time of every step of every compiled operator and graph, the
 * way a DirectML port reads PIX's timeline. Each dispatch's steps are timed by OpenCL
 * profiling events (where the queue it is recorded on has CL_QUEUE_PROFILING_ENABLE; dmlcl's
 * own queues get it while the variable is set), summed per step as they complete, and printed
 * to stderr when the compiled operator is released: per step its label (the graph node, or the
 * operator), kernel, grid, dispatches, mean device time and share of the program's, then the
 * total (docs/porting.md, "Profiling").
 */
#ifndef DMLI_PROFILE_H
#define DMLI_PROFILE_H

#include <stdbool.h>

#include "program.h"

/* Whether profiling is on, and the queue properties it asks for: device.h
 * (dmli_profile_enabled, dmli_profile_queue_properties), read below the program layer. */

/* Counts step `step`'s time when `event` completes (the event retained until then). Under the
 * program's lock, from dispatch.c. */
void dmli_profile_watch(dmli_program *p, uint32_t step, cl_event event);

/* Prints the program's steps' times (nothing if it was never dispatched under the variable)
 * once its watched events have completed, and frees the counters. */
void dmli_profile_report(dmli_program *p);

#endif /* DMLI_PROFILE_H */
