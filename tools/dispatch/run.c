/* SPDX-License-Identifier: MIT */
/*
 * Running a checked model, in DxDispatch's order: the device, every resource
 * (uploaded), every dispatchable (created, compiled as an operator or a
 * one-node graph, initialized with its OWNED_BY_DML inputs), every dispatch
 * command's binding table (bound, so that a binding dmlcl refuses stops the
 * model before its first dispatch), then the commands in order.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dispatch.h"

typedef struct runner {
    const char *model;
    const dsp_options *o;
    dmlcl_device *device;
    cl_context context;
    cl_command_queue queue;
    int profiling; /* the queue gives event times */
} runner;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int fail(const runner *r, const char *where, const char *fmt, ...) DSP_PRINTF(3, 4);
static int fail(const runner *r, const char *where, const char *fmt, ...)
{
    char why[DSP_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "dmlcl-dispatch: %s: %s: %s\n", r->model, where, why);
    return -1;
}

/* A dmlcl call's failure: its HRESULT's name and dmlcl's message. */
static int fail_hr(const runner *r, const char *where, const char *step, HRESULT hr)
{
    return fail(r, where, "%s failed (%s): %s", step, dmlcl_hresult_name(hr), dmlcl_last_error());
}

/* ---- Setup -------------------------------------------------------------------------- */

static int open_device(runner *r)
{
    HRESULT hr = r->o->device ? dmlcl_device_create_from_spec(r->o->device, &r->device)
                              : dmlcl_device_create(&r->device);
    if (FAILED(hr))
        return fail(r, "device", "no device (%s): %s", dmlcl_hresult_name(hr), dmlcl_last_error());
    r->context = dmlcl_device_context(r->device);
    printf("Running on '%s'\n", dmlcl_device_description(r->device));
    /* A queue of our own that records event times, for the device timings. */
    cl_int err;
    r->queue = clCreateCommandQueue(r->context, dmlcl_device_id(r->device),
                                    CL_QUEUE_PROFILING_ENABLE, &err);
    r->profiling = err == CL_SUCCESS;
    if (!r->profiling) {
        r->queue = dmlcl_device_queue(r->device);
        clRetainCommandQueue(r->queue);
    }
    return 0;
}

static cl_mem buffer(const runner *r, uint64_t size, void *init, const char *where)
{
    cl_int err;
    cl_mem mem = clCreateBuffer(r->context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                                (size_t)size, init, &err);
    if (err != CL_SUCCESS) {
        fail(r, where, "clCreateBuffer of %" PRIu64 " bytes failed (OpenCL error %d)", size, err);
        return NULL;
    }
    return mem;
}

static int upload(const runner *r, dsp_model *m)
{
    for (unsigned i = 0; i < m->n_resources; ++i) {
        dsp_resource *res = &m->resources[i];
        char where[DSP_PATH_MAX];
        snprintf(where, sizeof where, "resource '%s'", res->name);
        if ((res->mem = buffer(r, res->size, res->bytes, where)) == NULL)
            return -1;
    }
    return 0;
}

static void fill_bindings(const dsp_model *m, const dsp_binding *src, unsigned n,
                          DML_BUFFER_BINDING *buf, DML_BINDING_DESC *desc)
{
    for (unsigned i = 0; i < n; ++i) {
        if (src[i].resource < 0) {
            desc[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
            continue;
        }
        buf[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)(void *)m->resources[src[i].resource].mem,
                                      src[i].offset, src[i].size};
        desc[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &buf[i]};
    }
}

/* A slot the desc gives a tensor (an optional one left out has none). */
static int present(const dsp_dispatchable *d, unsigned slot)
{
    return d->slot_tensors[slot] != NULL;
}

/* In graph mode (DmlCompileGraph) the graph's inputs and outputs are the operator's present
 * slots only, numbered in order, as DxDispatch builds the graph: drops the absent slots' entries
 * from desc (first..first+count-1 of the slots) and returns how many are left. A graph
 * dispatchable's slots are all its graph's (an input that feeds no node binds as NONE). */
static unsigned graph_slots(const dsp_dispatchable *d, unsigned first, unsigned count,
                            DML_BINDING_DESC *desc)
{
    if (!d->graph || d->n_nodes)
        return count;
    unsigned k = 0;
    for (unsigned i = 0; i < count; ++i)
        if (present(d, first + i))
            desc[k++] = desc[i];
    return k;
}

/* The operator as a graph of one node, every present slot a graph input or output, numbered in
 * order (DmlCompileGraph, as DxDispatch builds it: an optional tensor left out is no edge). */
static HRESULT compile_graph(const runner *r, dsp_dispatchable *d)
{
    unsigned n = d->n_inputs + d->n_outputs;
    DML_INPUT_GRAPH_EDGE_DESC *in = calloc(d->n_inputs + 1, sizeof *in);
    DML_OUTPUT_GRAPH_EDGE_DESC *out = calloc(d->n_outputs + 1, sizeof *out);
    DML_GRAPH_EDGE_DESC *edges = calloc(n + 1, sizeof *edges);
    HRESULT hr = E_OUTOFMEMORY;
    if (in && out && edges) {
        unsigned n_in = 0, n_out = 0;
        for (unsigned i = 0; i < d->n_inputs; ++i) {
            if (!present(d, i))
                continue;
            in[n_in] = (DML_INPUT_GRAPH_EDGE_DESC){n_in, 0, i, NULL};
            edges[n_in] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &in[n_in]};
            ++n_in;
        }
        for (unsigned i = 0; i < d->n_outputs; ++i) {
            if (!present(d, d->n_inputs + i))
                continue;
            out[n_out] = (DML_OUTPUT_GRAPH_EDGE_DESC){0, i, n_out, NULL};
            edges[n_in + n_out] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &out[n_out]};
            ++n_out;
        }
        DML_OPERATOR_GRAPH_NODE_DESC node = {(IDMLOperator *)(void *)d->op, d->name};
        DML_GRAPH_NODE_DESC nodes[1] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &node}};
        DML_GRAPH_DESC g = {n_in, n_out, 1, nodes, n_in, edges, n_out, edges + n_in, 0, NULL};
        hr = dmlcl_graph_compile(r->device, &g, d->flags, &d->compiled);
    }
    free(in);
    free(out);
    free(edges);
    return hr;
}

/* Creates the operator of d (an operator dispatchable or a graph's node), at where. */
static int create_operator(const runner *r, const char *where, dsp_dispatchable *d)
{
    HRESULT hr = dmlcl_operator_create(r->device, &d->desc, &d->op);
    if (FAILED(hr))
        return fail_hr(r, where, "creating the operator", hr);
    if (dmlcl_operator_input_count(d->op) != d->n_inputs ||
        dmlcl_operator_output_count(d->op) != d->n_outputs)
        return fail(r, where, "internal: dmlcl counts %u inputs and %u outputs, the desc %u and %u",
                    dmlcl_operator_input_count(d->op), dmlcl_operator_output_count(d->op),
                    d->n_inputs, d->n_outputs);
    return 0;
}

/* A graph dispatchable (graph.c, serialized.c): its nodes (operators, constant data), then the
 * graph of them and its edges
 * (*hr: CompileGraph's result). -1: a node's operator failed, reported. */
static int compile_nodes(const runner *r, dsp_dispatchable *g, const char *where, HRESULT *hr_out)
{
    int rc = 0;
    DML_OPERATOR_GRAPH_NODE_DESC *ops = calloc(g->n_nodes, sizeof *ops);
    DML_CONSTANT_DATA_GRAPH_NODE_DESC *consts = calloc(g->n_nodes, sizeof *consts);
    DML_GRAPH_NODE_DESC *nodes = calloc(g->n_nodes, sizeof *nodes);
    DML_GRAPH_EDGE_DESC *in = calloc(g->n_in_edges + 1, sizeof *in);
    DML_GRAPH_EDGE_DESC *mid = calloc(g->n_mid_edges + 1, sizeof *mid);
    DML_GRAPH_EDGE_DESC *out = calloc(g->n_out_edges + 1, sizeof *out);
    HRESULT hr = ops && consts && nodes && in && mid && out ? S_OK : E_OUTOFMEMORY;
    for (unsigned i = 0; SUCCEEDED(hr) && rc == 0 && i < g->n_nodes; ++i) {
        char at[DSP_PATH_MAX + 256];
        if (g->nodes[i].constant) { /* a serialized graph's inline constant data */
            consts[i] = (DML_CONSTANT_DATA_GRAPH_NODE_DESC){
                g->nodes[i].data, (SIZE_T)g->nodes[i].data_size, g->nodes[i].name};
            nodes[i] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_CONSTANT, &consts[i]};
            continue;
        }
        snprintf(at, sizeof at, "%s.nodes.%.200s", where, g->nodes[i].name);
        if (create_operator(r, at, &g->nodes[i]))
            rc = -1;
        ops[i] = (DML_OPERATOR_GRAPH_NODE_DESC){(IDMLOperator *)(void *)g->nodes[i].op,
                                                g->nodes[i].name};
        nodes[i] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &ops[i]};
    }
    for (unsigned i = 0; SUCCEEDED(hr) && i < g->n_in_edges; ++i)
        in[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &g->in_edges[i]};
    for (unsigned i = 0; SUCCEEDED(hr) && i < g->n_mid_edges; ++i)
        mid[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &g->mid_edges[i]};
    for (unsigned i = 0; SUCCEEDED(hr) && i < g->n_out_edges; ++i)
        out[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_OUTPUT, &g->out_edges[i]};
    if (SUCCEEDED(hr) && rc == 0) {
        DML_GRAPH_DESC desc = {g->n_inputs,    g->n_outputs, g->n_nodes,     nodes,
                               g->n_in_edges,  in,           g->n_out_edges, out,
                               g->n_mid_edges, mid};
        hr = dmlcl_graph_compile(r->device, &desc, g->flags, &g->compiled);
    }
    free(ops);
    free(consts);
    free(nodes);
    free(in);
    free(mid);
    free(out);
    *hr_out = hr;
    return rc;
}

/* Creates, compiles and initializes one dispatchable. */
static int prepare_dispatchable(const runner *r, const dsp_model *m, dsp_dispatchable *d)
{
    char where[DSP_PATH_MAX];
    snprintf(where, sizeof where, "$.dispatchables.%s", d->name);
    double t0 = now_ms();
    HRESULT hr;
    if (d->n_nodes) {
        if (compile_nodes(r, d, where, &hr))
            return -1;
    } else if (create_operator(r, where, d)) {
        return -1;
    } else {
        hr = d->graph ? compile_graph(r, d) : dmlcl_operator_compile(d->op, d->flags, &d->compiled);
    }
    if (FAILED(hr))
        return fail_hr(r, where, d->graph ? "compiling it as a graph" : "compiling it", hr);
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(d->compiled);
    d->persistent_size = props.PersistentResourceSize;
    d->temporary_size = props.TemporaryResourceSize;
    if (d->temporary_size && (d->temporary = buffer(r, d->temporary_size, NULL, where)) == NULL)
        return -1;
    if (d->persistent_size && (d->persistent = buffer(r, d->persistent_size, NULL, where)) == NULL)
        return -1;
    if (d->has_owned) {
        DML_BUFFER_BINDING *buf = calloc(d->n_inputs + 1, sizeof *buf);
        DML_BINDING_DESC *desc = calloc(d->n_inputs + 1, sizeof *desc);
        DML_BUFFER_BINDING pbuf = {(ID3D12Resource *)(void *)d->persistent, 0, d->persistent_size};
        DML_BINDING_DESC pdesc = {DML_BINDING_TYPE_BUFFER, &pbuf};
        hr = E_OUTOFMEMORY;
        if (buf && desc) {
            fill_bindings(m, d->init, d->n_inputs, buf, desc);
            hr = dmlcl_compiled_operator_initialize(d->compiled, r->queue,
                                                    graph_slots(d, 0, d->n_inputs, desc), desc,
                                                    d->persistent ? &pdesc : NULL, 0, NULL, NULL);
        }
        free(buf);
        free(desc);
        if (FAILED(hr))
            return fail_hr(r, where, "initializing it (its bindings)", hr);
        clFinish(r->queue);
    }
    if (r->o->verbosity >= 1)
        printf("Initialize '%s': %.4f ms\n", d->name, now_ms() - t0);
    return 0;
}

/* A binding table per dispatch command, bound now: dmlcl checks every binding here. */
static int prepare_command(const runner *r, const dsp_model *m, dsp_command *cmd)
{
    dsp_dispatchable *d = &m->dispatchables[cmd->dispatchable];
    char where[DSP_PATH_MAX];
    snprintf(where, sizeof where, "%s.bindings", cmd->path);
    unsigned n = d->n_inputs + d->n_outputs;
    DML_BUFFER_BINDING *buf = calloc(n + 1, sizeof *buf);
    DML_BINDING_DESC *desc = calloc(n + 1, sizeof *desc);
    if (buf == NULL || desc == NULL) {
        free(buf);
        free(desc);
        return fail(r, where, "out of memory");
    }
    fill_bindings(m, cmd->slots, n, buf, desc);
    DML_BUFFER_BINDING tbuf = {(ID3D12Resource *)(void *)d->temporary, 0, d->temporary_size};
    DML_BUFFER_BINDING pbuf = {(ID3D12Resource *)(void *)d->persistent, 0, d->persistent_size};
    DML_BINDING_DESC tdesc = {DML_BINDING_TYPE_BUFFER, &tbuf},
                     pdesc = {DML_BINDING_TYPE_BUFFER, &pbuf};
    const char *step = "creating its binding table";
    HRESULT hr = dmlcl_binding_table_create(d->compiled, &cmd->table);
    if (SUCCEEDED(hr)) {
        step = "binding the inputs";
        hr =
            dmlcl_binding_table_bind_inputs(cmd->table, graph_slots(d, 0, d->n_inputs, desc), desc);
    }
    if (SUCCEEDED(hr)) {
        step = "binding the outputs";
        hr = dmlcl_binding_table_bind_outputs(
            cmd->table, graph_slots(d, d->n_inputs, d->n_outputs, desc + d->n_inputs),
            desc + d->n_inputs);
    }
    if (SUCCEEDED(hr) && d->temporary) {
        step = "binding the temporary resource";
        hr = dmlcl_binding_table_bind_temporary(cmd->table, &tdesc);
    }
    if (SUCCEEDED(hr) && d->persistent) {
        step = "binding the persistent resource";
        hr = dmlcl_binding_table_bind_persistent(cmd->table, &pdesc);
    }
    free(buf);
    free(desc);
    return FAILED(hr) ? fail_hr(r, where, step, hr) : 0;
}

/* ---- Dispatch and timing ------------------------------------------------------------- */

typedef struct stats {
    size_t count;
    double average, min, median, max;
} stats;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static stats summarize(const double *samples, size_t n)
{
    stats s = {n, 0, 0, 0, 0};
    if (n == 0)
        return s;
    double *sorted = malloc(n * sizeof *sorted);
    if (sorted == NULL)
        return s;
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    for (size_t i = 0; i < n; ++i)
        s.average += sorted[i] / (double)n;
    s.min = sorted[0];
    s.median = sorted[n / 2];
    s.max = sorted[n - 1];
    free(sorted);
    return s;
}

static void print_stats(const char *label, const char *phase, stats s)
{
    if (s.count)
        printf("%s Timings (%s)%s: %zu samples, %.4f ms average, %.4f ms min, %.4f ms median, "
               "%.4f ms max\n",
               label, phase, strcmp(phase, "Hot") == 0 ? "  " : " ", s.count, s.average, s.min,
               s.median, s.max);
}

/* Milliseconds between the marker's start and the last dispatch's end, or -1. */
static double device_ms(cl_event start, cl_event end)
{
    cl_ulong a, b;
    if (start == NULL || end == NULL ||
        clGetEventProfilingInfo(start, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(end, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL) != CL_SUCCESS ||
        b < a)
        return -1;
    return 1e-6 * (double)(b - a);
}

/* One iteration: -r dispatches, then wait. */
static int iterate(const runner *r, dsp_command *cmd, const char *where, double *cpu, double *dev)
{
    cl_event start = NULL, end = NULL;
    double t0 = now_ms();
    if (r->profiling && clEnqueueMarkerWithWaitList(r->queue, 0, NULL, &start) != CL_SUCCESS)
        start = NULL;
    HRESULT hr = S_OK;
    for (unsigned k = 0; k < r->o->repeat && SUCCEEDED(hr); ++k)
        hr = dmlcl_binding_table_dispatch(cmd->table, r->queue, 0, NULL,
                                          k + 1 == r->o->repeat && r->profiling ? &end : NULL);
    cl_int err = clFinish(r->queue);
    *cpu = (now_ms() - t0) / r->o->repeat;
    *dev = device_ms(start, end);
    if (*dev >= 0)
        *dev /= r->o->repeat;
    if (start)
        clReleaseEvent(start);
    if (end)
        clReleaseEvent(end);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_status(cmd->table);
    if (FAILED(hr))
        return fail_hr(r, where, "dispatching", hr);
    if (err != CL_SUCCESS)
        return fail(r, where, "clFinish failed (OpenCL error %d)", err);
    return 0;
}

static void sleep_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {(time_t)(ms / 1e3), (long)(fmod(ms, 1e3) * 1e6)};
    nanosleep(&ts, NULL);
}

static void report(const runner *r, const char *name, const double *cpu, const double *dev,
                   size_t n, int have_dev)
{
    size_t cold = n ? n - 1 : 0;
    if (cold > r->o->warmup)
        cold = r->o->warmup;
    stats hot = summarize(cpu + cold, n - cold), dhot = summarize(dev + cold, n - cold);
    if (r->o->verbosity == 0) {
        printf("Dispatch '%s': %zu iterations, %.4f ms median (CPU), %.4f ms min (CPU)", name, n,
               hot.median, hot.min);
        if (have_dev)
            printf(", %.6f ms median (device), %.6f ms min (device)", dhot.median, dhot.min);
        printf("\n");
        return;
    }
    printf("Dispatch '%s': %zu iterations\n", name, n);
    print_stats("CPU", "Cold", summarize(cpu, cold));
    if (have_dev)
        print_stats("Device", "Cold", summarize(dev, cold));
    print_stats("CPU", "Hot", hot);
    if (have_dev)
        print_stats("Device", "Hot", dhot);
    if (r->o->verbosity >= 2) {
        printf("The timings of each iteration:\n");
        for (size_t i = 0; i < n; ++i) {
            printf("iteration %zu: %.4f ms (CPU)", i, cpu[i]);
            if (have_dev)
                printf(", %.6f ms (device)", dev[i]);
            printf("\n");
        }
    }
}

static int run_dispatch(const runner *r, const dsp_model *m, dsp_command *cmd)
{
    const dsp_dispatchable *d = &m->dispatchables[cmd->dispatchable];
    size_t cap = 64, n = 0;
    double *cpu = malloc(cap * sizeof *cpu), *dev = malloc(cap * sizeof *dev);
    int rc = cpu && dev ? 0 : fail(r, cmd->path, "out of memory");
    int have_dev = r->profiling;
    double t0 = now_ms();
    while (rc == 0) {
        int more =
            r->o->milliseconds > 0 ? now_ms() - t0 < r->o->milliseconds : n < r->o->iterations;
        if (!more)
            break;
        if (n == cap) {
            double *c2 = realloc(cpu, 2 * cap * sizeof *cpu);
            cpu = c2 ? c2 : cpu;
            double *d2 = c2 ? realloc(dev, 2 * cap * sizeof *dev) : NULL;
            dev = d2 ? d2 : dev;
            if (c2 == NULL || d2 == NULL) {
                rc = fail(r, cmd->path, "out of memory");
                break;
            }
            cap *= 2;
        }
        double t = now_ms();
        rc = iterate(r, cmd, cmd->path, &cpu[n], &dev[n]);
        have_dev = have_dev && dev[n] >= 0;
        ++n;
        sleep_ms(r->o->interval_ms - (now_ms() - t));
    }
    if (rc == 0)
        report(r, d->name, cpu, dev, n, have_dev);
    free(cpu);
    free(dev);
    return rc;
}

/* ---- print and writeFile ------------------------------------------------------------ */

static int download(const runner *r, const dsp_resource *res, unsigned char *bytes,
                    const char *where)
{
    cl_int err = clEnqueueReadBuffer(r->queue, res->mem, CL_TRUE, 0, (size_t)res->size, bytes, 0,
                                     NULL, NULL);
    return err == CL_SUCCESS ? 0
                             : fail(r, where, "reading resource '%s' back failed (OpenCL error %d)",
                                    res->name, err);
}

static void print_value(const rt_type *t, const unsigned char *p)
{
    if (t->kind == RT_KIND_FLOAT) {
        double v = rt_value_double(t, p);
        if (isnan(v))
            fputs("nan", stdout);
        else if (isinf(v))
            fputs(v < 0 ? "-inf" : "inf", stdout);
        else
            printf("%g", v);
    } else if (t->kind == RT_KIND_UINT) {
        printf("%" PRIu64, rt_value_bits(t, p));
    } else {
        printf("%" PRId64, rt_value_int(t, p));
    }
}

static int run_print(const runner *r, const dsp_model *m, const dsp_command *cmd)
{
    const dsp_resource *res = &m->resources[cmd->resource];
    unsigned char *bytes = malloc((size_t)res->size);
    if (bytes == NULL)
        return fail(r, cmd->path, "out of memory");
    if (download(r, res, bytes, cmd->path)) {
        free(bytes);
        return -1;
    }
    const rt_type *t = res->type;
    int width = 1;
    for (uint64_t k = res->shown; k >= 10; k /= 10)
        ++width;
    printf(cmd->verbose ? "Resource '%s':\n" : "Resource '%s': ", res->name);
    for (uint64_t i = 0; i < res->shown; ++i) {
        const unsigned char *p = bytes + i * t->size;
        if (cmd->verbose) {
            printf("[%*" PRIu64 "] ", width, i);
            print_value(t, p);
            printf(" (0x%0*" PRIX64 ")\n", (int)t->size * 2, rt_value_bits(t, p));
        } else {
            print_value(t, p);
            fputs(i + 1 < res->shown ? ", " : "", stdout);
        }
    }
    if (!cmd->verbose)
        printf("\n");
    free(bytes);
    return 0;
}

/* mkdir -p of the folder that holds file. */
static void make_parents(const char *file)
{
    char *dir = strdup(file);
    for (char *p = dir ? dir + 1 : NULL; p && *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0777);
            *p = '/';
        }
    free(dir);
}

static int run_write_file(const runner *r, const dsp_model *m, const dsp_command *cmd)
{
    const dsp_resource *res = &m->resources[cmd->resource];
    unsigned char *bytes = malloc((size_t)res->size);
    if (bytes == NULL)
        return fail(r, cmd->path, "out of memory");
    int rc = download(r, res, bytes, cmd->path);
    char why[DSP_MSG_MAX] = "";
    make_parents(cmd->target);
    if (rc == 0 && cmd->npy) {
        UINT one = (UINT)res->shown;
        rc = dsp_npy_write(cmd->target, res->type, cmd->dims ? cmd->dims : &one,
                           cmd->dims ? cmd->n_dims : 1, bytes, why, sizeof why);
    } else if (rc == 0) {
        FILE *f = fopen(cmd->target, "wb");
        rc = f && fwrite(bytes, 1, (size_t)res->size, f) == res->size ? 0 : -1;
        if (f != NULL && fclose(f) != 0)
            rc = -1;
        if (rc)
            snprintf(why, sizeof why, "cannot write %s: %s", cmd->target, strerror(errno));
    }
    free(bytes);
    if (rc)
        return why[0] ? fail(r, cmd->path, "%s", why) : -1;
    printf("Resource '%s' written to '%s'\n", res->name, cmd->target);
    return 0;
}

/* ---- The model ---------------------------------------------------------------------- */

static void release(runner *r, dsp_model *m)
{
    for (unsigned i = 0; i < m->n_commands; ++i)
        if (m->commands[i].table)
            dmlcl_binding_table_release(m->commands[i].table);
    for (unsigned i = 0; i < m->n_dispatchables; ++i) {
        dsp_dispatchable *d = &m->dispatchables[i];
        if (d->compiled)
            dmlcl_compiled_operator_release(d->compiled);
        if (d->op)
            dmlcl_operator_release(d->op);
        for (unsigned k = 0; k < d->n_nodes; ++k)
            if (d->nodes[k].op)
                dmlcl_operator_release(d->nodes[k].op);
        if (d->persistent)
            clReleaseMemObject(d->persistent);
        if (d->temporary)
            clReleaseMemObject(d->temporary);
    }
    for (unsigned i = 0; i < m->n_resources; ++i)
        if (m->resources[i].mem)
            clReleaseMemObject(m->resources[i].mem);
    if (r->queue)
        clReleaseCommandQueue(r->queue);
    if (r->device)
        dmlcl_device_release(r->device);
}

int dsp_run(const char *model_path, dsp_model *m, const dsp_options *o)
{
    runner r = {model_path, o, NULL, NULL, NULL, 0};
    int rc = open_device(&r) || upload(&r, m);
    for (unsigned i = 0; rc == 0 && i < m->n_dispatchables; ++i)
        rc = prepare_dispatchable(&r, m, &m->dispatchables[i]);
    for (unsigned i = 0; rc == 0 && i < m->n_commands; ++i)
        if (m->commands[i].kind == DSP_DISPATCH)
            rc = prepare_command(&r, m, &m->commands[i]);
    if (rc)
        fprintf(stderr, "dmlcl-dispatch: %s: nothing was dispatched\n", model_path);
    for (unsigned i = 0; rc == 0 && i < m->n_commands; ++i) {
        dsp_command *cmd = &m->commands[i];
        rc = cmd->kind == DSP_DISPATCH ? run_dispatch(&r, m, cmd)
             : cmd->kind == DSP_PRINT  ? run_print(&r, m, cmd)
                                       : run_write_file(&r, m, cmd);
    }
    fflush(stdout);
    release(&r, m);
    return rc ? 1 : 0;
}
