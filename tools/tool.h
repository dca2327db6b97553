/* SPDX-License-Identifier: MIT */
/*
 * What every dmlcl tool shares: --version text and a progress line on
 * stderr for long runs (none for runs shorter than DMLCL_TOOL_PROGRESS_AFTER
 * seconds, so quick runs and the machine-readable output stay clean).
 */
#ifndef DMLCL_TOOL_H
#define DMLCL_TOOL_H

#if !defined _POSIX_C_SOURCE && !defined _XOPEN_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <dmlcl/dmlcl.h>

#ifndef DMLCL_TOOL_VERSION
#error "DMLCL_TOOL_VERSION: the project version, set by tools/CMakeLists.txt"
#endif
#define DMLCL_TOOL_PROGRESS_AFTER 3.0

static inline void dmlcl_tool_version(const char *tool)
{
    printf("%s %s (libdmlcl %s)\n", tool, DMLCL_TOOL_VERSION, dmlcl_version_string());
}

static inline double dmlcl_tool_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct dmlcl_tool_progress {
    const char *tool;
    double start, last;
    int tty, shown;
} dmlcl_tool_progress;

static inline void dmlcl_tool_progress_start(dmlcl_tool_progress *p, const char *tool)
{
    p->tool = tool;
    p->start = p->last = dmlcl_tool_now();
    p->tty = isatty(2);
    p->shown = 0;
}

/* "[done/total] name": rewritten in place on a terminal, else a line every few seconds. */
static inline void dmlcl_tool_progress_step(dmlcl_tool_progress *p, unsigned done, unsigned total,
                                            const char *name)
{
    double t = dmlcl_tool_now();
    if (t - p->start < DMLCL_TOOL_PROGRESS_AFTER)
        return;
    if (!p->tty && t - p->last < DMLCL_TOOL_PROGRESS_AFTER)
        return;
    p->last = t;
    p->shown = 1;
    fprintf(stderr, "%s%s: [%u/%u] %.0f s, %s%s", p->tty ? "\r" : "", p->tool, done, total,
            t - p->start, name, p->tty ? "\033[K" : "\n");
}

static inline void dmlcl_tool_progress_end(dmlcl_tool_progress *p)
{
    if (p->shown && p->tty)
        fputs("\r\033[K", stderr);
}

#endif /* DMLCL_TOOL_H */
