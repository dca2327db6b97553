/* SPDX-License-Identifier: MIT */
/*
 * DMLCL_PROFILE (profile.h): per-step device times from OpenCL profiling events, counted by
 * event callbacks as the steps complete, reported when the program is freed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile.h"

typedef struct dmli_profile {
    pthread_mutex_t lock;
    pthread_cond_t settled; /* signalled as each watched event completes */
    uint32_t n;             /* the program's steps */
    uint64_t *calls, *ns;   /* per step: completed dispatches and their device nanoseconds */
    uint64_t pending;       /* watched events not completed yet */
    bool no_times;          /* an event without times: the queue had no profiling */
} dmli_profile;

typedef struct watch {
    dmli_profile *pr;
    uint32_t step;
} watch;

static void CL_CALLBACK completed(cl_event e, cl_int status, void *user)
{
    watch *w = user;
    cl_ulong start = 0, end = 0;
    bool timed = status == CL_COMPLETE &&
                 clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                         NULL) == CL_SUCCESS &&
                 clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) ==
                     CL_SUCCESS &&
                 end >= start;
    dmli_profile *pr = w->pr;
    pthread_mutex_lock(&pr->lock);
    if (timed) {
        pr->calls[w->step]++;
        pr->ns[w->step] += end - start;
    } else {
        pr->no_times = true;
    }
    pr->pending--;
    pthread_cond_broadcast(&pr->settled);
    pthread_mutex_unlock(&pr->lock);
    clReleaseEvent(e);
    free(w);
}

static dmli_profile *profile_of(dmli_program *p)
{
    if (p->profile)
        return p->profile;
    dmli_profile *pr = calloc(1, sizeof *pr);
    if (!pr)
        return NULL;
    pr->n = p->n_steps;
    pr->calls = calloc(pr->n ? pr->n : 1, sizeof *pr->calls);
    pr->ns = calloc(pr->n ? pr->n : 1, sizeof *pr->ns);
    if (!pr->calls || !pr->ns) {
        free(pr->calls);
        free(pr->ns);
        free(pr);
        return NULL;
    }
    pthread_mutex_init(&pr->lock, NULL);
    pthread_cond_init(&pr->settled, NULL);
    p->profile = pr;
    return pr;
}

void dmli_profile_watch(dmli_program *p, uint32_t step, cl_event event)
{
    dmli_profile *pr = profile_of(p);
    watch *w = pr && step < pr->n ? malloc(sizeof *w) : NULL;
    if (!w)
        return; /* out of host memory: this step goes uncounted */
    *w = (watch){pr, step};
    pthread_mutex_lock(&pr->lock);
    pr->pending++;
    pthread_mutex_unlock(&pr->lock);
    clRetainEvent(event);
    if (clSetEventCallback(event, CL_COMPLETE, completed, w) != CL_SUCCESS) {
        pthread_mutex_lock(&pr->lock);
        pr->pending--;
        pr->no_times = true;
        pthread_mutex_unlock(&pr->lock);
        clReleaseEvent(event);
        free(w);
    }
}

void dmli_profile_report(dmli_program *p)
{
    dmli_profile *pr = p->profile;
    if (!pr)
        return;
    p->profile = NULL;
    /* The steps still in flight (a program released before its last dispatch completed, which
     * DirectML leaves to the application): up to 10 s, then left to their callbacks. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&pr->lock);
    while (pr->pending && pthread_cond_timedwait(&pr->settled, &pr->lock, &until) == 0)
        ;
    uint64_t total = 0, dispatches = 0;
    for (uint32_t i = 0; i < pr->n; ++i) {
        total += pr->ns[i];
        if (pr->calls[i] > dispatches)
            dispatches = pr->calls[i];
    }
    fprintf(stderr,
            "dmlcl: profile: %s %s, %u step(s), %" PRIu64
            " dispatch(es) timed, %.3f ms of device time a dispatch%s\n",
            p->noun ? p->noun : "program", p->name ? p->name : "", pr->n, dispatches,
            dispatches ? (double)total / 1e6 / (double)dispatches : 0.0,
            pr->no_times ? " (some dispatches untimed: their queue has no "
                           "CL_QUEUE_PROFILING_ENABLE)"
                         : "");
    if (dispatches)
        fprintf(stderr, "dmlcl: profile: step | label | kernel {global} | dispatches | ms a "
                        "dispatch | share\n");
    for (uint32_t i = 0; dispatches && i < pr->n; ++i) {
        const dmli_step *s = &p->steps[i];
        char kernel[64] = "?";
        if (s->kernel)
            clGetKernelInfo(s->kernel, CL_KERNEL_FUNCTION_NAME, sizeof kernel - 1, kernel, NULL);
        fprintf(stderr,
                "dmlcl: profile: %u | %s | %s {%zu,%zu,%zu} | %" PRIu64 " | %.4f | %.1f%%\n", i,
                s->label ? s->label : "", kernel, s->global[0], s->global[1], s->global[2],
                pr->calls[i], pr->calls[i] ? (double)pr->ns[i] / 1e6 / (double)pr->calls[i] : 0.0,
                total ? 100.0 * (double)pr->ns[i] / (double)total : 0.0);
    }
    const bool settled = pr->pending == 0;
    pthread_mutex_unlock(&pr->lock);
    if (!settled)
        return; /* callbacks still to come own it now (a leak, never a use after free) */
    pthread_cond_destroy(&pr->settled);
    pthread_mutex_destroy(&pr->lock);
    free(pr->calls);
    free(pr->ns);
    free(pr);
}
