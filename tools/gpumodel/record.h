/* SPDX-License-Identifier: MIT */
/*
 * The GPU memory model's launch records (tools/gpumodel/plugin.cpp writes them, one JSON
 * object a line): read back into a struct by the known-answer test and dmlcl-gpumodel. The
 * plugin writes a fixed layout, so a key's first occurrence is its top-level one (the
 * "worst" list comes last).
 */
#ifndef DMLCL_GPUMODEL_RECORD_H
#define DMLCL_GPUMODEL_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    GPUMODEL_GLOBAL_LOAD,
    GPUMODEL_GLOBAL_STORE,
    GPUMODEL_LOCAL_LOAD,
    GPUMODEL_LOCAL_STORE,
    GPUMODEL_CONSTANT_LOAD,
    GPUMODEL_KINDS
};
static const char *const gpumodel_kind_names[GPUMODEL_KINDS] = {
    "global_load", "global_store", "local_load", "local_store", "constant_load"};

/* Per kind: requests (warp-instructions), active lanes, distinct sectors and bytes per request
 * summed (global, constant), wavefronts and phases (local), distinct addresses (constant). */
typedef struct gpumodel_totals {
    uint64_t requests, lanes, sectors, bytes, wavefronts, phases, distinct;
} gpumodel_totals;

typedef struct gpumodel_record {
    char kernel[64];
    char options[2048];
    uint64_t global[3], local[3];
    gpumodel_totals kind[GPUMODEL_KINDS];
    /* The launch's distinct sectors and bytes loaded and stored; sectors summed per request. */
    uint64_t load_sectors, store_sectors, load_bytes, store_bytes, request_sectors;
    uint64_t group_accesses;
    /* Loads in flight (tools/gpumodel/plugin.cpp): batches closed by a wait, their loads and
     * bytes. */
    uint64_t flight_batches, flight_loads, flight_bytes;
    const char *worst; /* into the line: the JSON list of the most wasteful instructions */
} gpumodel_record;

/* The number after "key": at or after from; 0 when absent. */
static inline uint64_t gpumodel_number(const char *from, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(from, pattern);
    return p ? strtoull(p + strlen(pattern), NULL, 10) : 0;
}

/* The JSON string after "key": into out (escapes kept as they are). */
static inline void gpumodel_string(const char *from, const char *key, char *out, size_t n)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *p = strstr(from, pattern);
    size_t k = 0;
    if (p)
        for (p += strlen(pattern); *p && *p != '"' && k + 1 < n; ++p) {
            if (*p == '\\' && p[1])
                ++p;
            out[k++] = *p;
        }
    out[k] = 0;
}

static inline void gpumodel_triple(const char *from, const char *key, uint64_t *v)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":[", key);
    const char *p = strstr(from, pattern);
    for (int i = 0; i < 3; ++i) {
        char *end;
        v[i] = p ? strtoull(p + (i ? 1 : strlen(pattern)), &end, 10) : 0;
        if (p)
            p = end;
    }
}

/* One record line into r; 0 on success, -1 when the line is not a launch record. The line
 * must outlive r->worst. */
static inline int gpumodel_parse(const char *line, gpumodel_record *r)
{
    memset(r, 0, sizeof *r);
    if (!strstr(line, "\"launch\":") || !strstr(line, "\"dram\":"))
        return -1;
    gpumodel_string(line, "kernel", r->kernel, sizeof r->kernel);
    gpumodel_string(line, "options", r->options, sizeof r->options);
    gpumodel_triple(line, "global", r->global);
    gpumodel_triple(line, "local", r->local);
    for (int k = 0; k < GPUMODEL_KINDS; ++k) {
        char pattern[64];
        snprintf(pattern, sizeof pattern, "\"%s\":{", gpumodel_kind_names[k]);
        const char *p = strstr(line, pattern);
        if (!p)
            return -1;
        gpumodel_totals *t = &r->kind[k];
        t->requests = gpumodel_number(p, "requests");
        t->lanes = gpumodel_number(p, "lanes");
        t->sectors = gpumodel_number(p, "sectors");
        t->bytes = gpumodel_number(p, "bytes");
        t->wavefronts = gpumodel_number(p, "wavefronts");
        t->phases = gpumodel_number(p, "phases");
        t->distinct = gpumodel_number(p, "distinct");
    }
    const char *d = strstr(line, "\"dram\":{");
    r->load_sectors = gpumodel_number(d, "load_sectors");
    r->store_sectors = gpumodel_number(d, "store_sectors");
    r->load_bytes = gpumodel_number(d, "load_bytes");
    r->store_bytes = gpumodel_number(d, "store_bytes");
    r->request_sectors = gpumodel_number(d, "request_sectors");
    r->group_accesses = gpumodel_number(d, "group_accesses");
    const char *fl = strstr(line, "\"flight\":{");
    if (fl) {
        r->flight_batches = gpumodel_number(fl, "batches");
        r->flight_loads = gpumodel_number(fl, "loads");
        r->flight_bytes = gpumodel_number(fl, "bytes");
    }
    const char *w = strstr(line, "\"worst\":");
    r->worst = w ? w + strlen("\"worst\":") : "[]";
    return 0;
}

/* Coalescing efficiency of a global kind: bytes used / bytes moved (1 when none moved). */
static inline double gpumodel_efficiency(const gpumodel_totals *t)
{
    return t->sectors ? (double)t->bytes / (32.0 * (double)t->sectors) : 1.0;
}

/* Bytes a work-item has in flight when it waits, on average over its batches (0: no load). */
static inline double gpumodel_flight(const gpumodel_record *r)
{
    return r->flight_batches ? (double)r->flight_bytes / (double)r->flight_batches : 0.0;
}

/* Bank-conflict replays of a local kind: wavefronts beyond one a phase. */
static inline uint64_t gpumodel_replays(const gpumodel_totals *t)
{
    return t->wavefronts - t->phases;
}

#endif
