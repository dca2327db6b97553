/* SPDX-License-Identifier: MIT */
/*
 * Programs (program.h): the steps of a compiled operator or graph, their kernels (programs
 * from the device's cache), tables and constant buffers. Compile-time only; dispatch.c runs
 * them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "profile.h"
#include "program.h"
#include "scatter.h"

void dmli_program_init(dmli_program *p, dmlcl_device *dev, const char *name, const char *noun)
{
    memset(p, 0, sizeof *p);
    p->dev = dev;
    p->name = name;
    p->noun = noun;
    pthread_mutex_init(&p->lock, NULL);
}

static void release_steps(dmli_step *steps, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (steps[i].kernel)
            clReleaseKernel(steps[i].kernel);
        if (steps[i].table)
            clReleaseMemObject(steps[i].table);
        free(steps[i].args);
        free(steps[i].label);
    }
    free(steps);
}

void dmli_program_free(dmli_program *p)
{
    dmli_profile_report(p); /* DMLCL_PROFILE: the program's steps' device times */
    release_steps(p->steps, p->n_steps);
    release_steps(p->init_steps, p->n_init_steps);
    p->init_steps = NULL;
    p->n_init_steps = 0;
    for (uint32_t i = 0; i < p->n_constants; ++i)
        clReleaseMemObject(p->constants[i]);
    free(p->constants);
    if (p->names)
        for (uint32_t i = 0; i < p->n_inputs + p->n_outputs; ++i)
            free(p->names[i]);
    free(p->names);
    pthread_mutex_destroy(&p->lock);
    p->steps = NULL;
    p->constants = NULL;
    p->names = NULL;
    p->n_steps = p->n_constants = 0;
}

HRESULT dmli_program_add_constant(dmli_program *p, const void *bytes, size_t size, size_t min,
                                  uint32_t *index)
{
    size_t n = (size + 15) / 16 * 16;
    if (n < min)
        n = min;
    if (n == 0)
        n = 16;
    cl_mem *grown = realloc(p->constants, (p->n_constants + 1) * sizeof *grown);
    unsigned char *padded = calloc(1, n);
    if (grown)
        p->constants = grown;
    if (!grown || !padded) {
        free(padded);
        return dmli_fail(E_OUTOFMEMORY, "%s: compile: out of host memory", p->name);
    }
    memcpy(padded, bytes, size);
    cl_int err;
    cl_mem mem =
        clCreateBuffer(p->dev->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, padded, &err);
    free(padded);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (constant)");
    *index = p->n_constants;
    p->constants[p->n_constants++] = mem;
    return S_OK;
}

HRESULT dmli_program_add_step(dmli_program *p, dmli_kernel_source source, const char *options,
                              const char *kernel, const cl_long *table, size_t table_count,
                              cl_uint table_arg, const size_t global[3], const size_t local[3],
                              const dmli_step_arg *args, uint32_t n_args)
{
    dmli_step *grown = realloc(p->steps, (p->n_steps + 1) * sizeof *grown);
    if (!grown)
        return dmli_fail(E_OUTOFMEMORY, "%s: compile: out of host memory", p->name);
    p->steps = grown;
    dmli_step *s = &p->steps[p->n_steps];
    memset(s, 0, sizeof *s);
    p->n_steps++; /* released with the others, even half made */
    memcpy(s->global, global, sizeof s->global);
    memcpy(s->local, local, sizeof s->local);
    s->args = malloc((n_args ? n_args : 1) * sizeof *s->args);
    if (!s->args)
        return dmli_fail(E_OUTOFMEMORY, "%s: compile: out of host memory", p->name);
    memcpy(s->args, args, n_args * sizeof *args);
    s->n_args = n_args;
    const char *label = p->label ? p->label : p->name;
    s->label = malloc(strlen(label) + 1);
    if (!s->label)
        return dmli_fail(E_OUTOFMEMORY, "%s: compile: out of host memory", p->name);
    strcpy(s->label, label);
    cl_program program;
    DMLI_TRY(dmli_device_program(p->dev, source, options, &program));
    cl_int err;
    s->kernel = clCreateKernel(program, kernel, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateKernel");
    /* The table: set once, as one constant buffer argument (each kernel argument costs
     * PoCL ~0.2 us per enqueue). */
    s->table = clCreateBuffer(p->dev->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              table_count * sizeof(cl_long), (void *)table, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (shape arguments)");
    err = clSetKernelArg(s->kernel, table_arg, sizeof s->table, &s->table);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clSetKernelArg");
}

HRESULT dmli_program_add_launch(dmli_program *p, const dmli_launch *l, const dmli_plan *plan,
                                dmli_slot out, dmli_slot in, dmli_slot idx, uint32_t idx_unit)
{
    const dmli_launch_args *a = &l->args;
    dmli_step_arg args[4] = {
        {(cl_uint)a->out, a->out_base, out, l->unit, plan->out_offset},
        {(cl_uint)a->in, a->in_base, in, l->unit, plan->in_offset},
    };
    uint32_t n = 2;
    if (a->idx >= 0) {
        args[n++] = (dmli_step_arg){(cl_uint)a->idx, a->idx_base, idx, idx_unit, plan->idx_offset};
        args[n++] = (dmli_step_arg){(cl_uint)a->status, -1, {DMLI_SLOT_STATUS, 0, 0}, 1, 0};
    }
    return dmli_program_add_step(p, l->source, l->options, l->kernel, l->shape, l->shape_count,
                                 (cl_uint)l->args.shape, l->global, l->local, args, n);
}

/* DMLCL_VERBOSE is set (not "0"): read at each compile. */
static bool verbose(void)
{
    const char *v = getenv("DMLCL_VERBOSE");
    return v && *v && *v != '0';
}

/* A map's step (cl/map.cl): the output and each input bound to their slots, base offsets in
 * elements of each tensor's type. */
HRESULT dmli_program_add_map(dmli_program *prog, const dmli_map *m, const dmli_slot *out,
                             const dmli_slot *in)
{
    dmli_map_launch launch;
    dmli_launch_map(m, dmli_device_get_desc(prog->dev), &launch);
    if (verbose())
        fprintf(stderr,
                "dmlcl: compile %s map of %u input(s), rank %d | %s | global {%zu,%zu,%zu} "
                "chunk %lld, %llu rows x %llu per item\n",
                prog->name, m->n_inputs, m->rank, launch.options, launch.global[0],
                launch.global[1], launch.global[2], (long long)launch.chunk,
                (unsigned long long)launch.rows, (unsigned long long)launch.rows_per_item);
    dmli_step_arg args[1 + DMLI_MAP_MAX_INPUTS];
    args[0] = (dmli_step_arg){DMLI_MAP_ARG_OUT, DMLI_MAP_ARG_OUT_BASE, *out,
                              dmli_type_size(m->out.type), m->out.offset};
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        args[1 + k] = (dmli_step_arg){(cl_uint)DMLI_MAP_ARG_IN(k), DMLI_MAP_ARG_IN_BASE(k), in[k],
                                      dmli_type_size(m->in[k].type), m->in[k].offset};
    return dmli_program_add_step(prog, DMLI_SOURCE_MAP, launch.options, "map_elementwise",
                                 launch.table, launch.table_count, DMLI_MAP_ARG_TABLE,
                                 launch.global, launch.local, args, 1 + m->n_inputs);
}

/* The steps' scratch (program.h): `bytes` of it at the offset returned, past the graph's
 * intermediates in the temporary resource, which grows to hold it. */
static uint64_t scratch(dmli_program *prog, uint64_t bytes)
{
    if (!prog->has_scratch) {
        prog->scratch_at = (prog->temp_bytes + 255) / 256 * 256;
        prog->has_scratch = true;
    }
    if (prog->scratch_at + bytes > prog->temp_bytes)
        prog->temp_bytes = prog->scratch_at + bytes;
    return prog->scratch_at;
}

static HRESULT add_reduce_step(dmli_program *prog, const dmli_reduce *r, const dmli_slot *out,
                               const dmli_slot *in)
{
    dmli_reduce_launch launch;
    dmli_launch_reduce(r, dmli_device_get_desc(prog->dev), &launch);
    if (verbose())
        fprintf(stderr,
                "dmlcl: compile %s reduction of %u input(s), rank %d | %s | global {%zu,%zu,%zu} "
                "local {%zu,%zu,%zu}, %llu rows\n",
                prog->name, r->n_inputs, r->rank, launch.options, launch.global[0],
                launch.global[1], launch.global[2], launch.local[0], launch.local[1],
                launch.local[2], (unsigned long long)launch.rows);
    dmli_step_arg args[DMLI_REDUCE_MAX_OUTPUTS + DMLI_REDUCE_MAX_INPUTS];
    uint32_t n = 0;
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        args[n++] = (dmli_step_arg){(cl_uint)DMLI_RED_ARG_OUT(j), (cl_uint)DMLI_RED_ARG_OUT_BASE(j),
                                    out[j], dmli_type_size(r->out[j].type), r->out[j].offset};
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        args[n++] = (dmli_step_arg){(cl_uint)DMLI_RED_ARG_IN(r->n_outputs, k),
                                    (cl_uint)DMLI_RED_ARG_IN_BASE(r->n_outputs, k), in[k],
                                    dmli_type_size(r->in[k].type), r->in[k].offset};
    return dmli_program_add_step(prog, DMLI_SOURCE_REDUCE, launch.options, "reduce_rows",
                                 launch.table, launch.table_count, DMLI_RED_ARG_TABLE,
                                 launch.global, launch.local, args, n);
}

HRESULT dmli_program_add_reduce(dmli_program *prog, const dmli_reduce *r, const dmli_slot *out,
                                const dmli_slot *in)
{
    dmli_reduce part, comb;
    uint64_t bytes = 0;
    if (!dmli_reduce_split(r, dmli_device_get_desc(prog->dev), &part, &comb, &bytes))
        return add_reduce_step(prog, r, out, in);
    /* Two steps through scratch in the temporary resource (launch.h dmli_reduce_split). */
    const uint64_t at = scratch(prog, bytes);
    if (verbose())
        fprintf(stderr,
                "dmlcl: compile %s reduction split in two steps, %llu bytes of scratch at "
                "%llu of the temporary resource\n",
                prog->name, (unsigned long long)bytes, (unsigned long long)at);
    dmli_slot scratch = {DMLI_SLOT_TEMP, 0, at};
    DMLI_TRY(add_reduce_step(prog, &part, &scratch, in));
    return add_reduce_step(prog, &comb, out, &scratch);
}

/* Whether slot s binds an input with DML_TENSOR_FLAG_OWNED_BY_DML (its copy in the persistent
 * resource, there from initialization on). */
static bool owned_slot(const dmli_program *p, dmli_slot s)
{
    return s.kind == DMLI_SLOT_INPUT && s.index < p->n_inputs && dmli_owned(&p->inputs[s.index]);
}

/* The last step moved to the initialization's (program.h init_steps). */
static HRESULT to_init(dmli_program *p)
{
    dmli_step *grown = realloc(p->init_steps, (p->n_init_steps + 1) * sizeof *grown);
    if (!grown)
        return dmli_fail(E_OUTOFMEMORY, "%s: compile: out of host memory", p->name);
    p->init_steps = grown;
    p->init_steps[p->n_init_steps++] = p->steps[--p->n_steps];
    return S_OK;
}

/* A GEMM's fused SOFTMAX (gemm.h): its output's rows normalised in place, one more step that
 * reads the output the product wrote and writes it (a reduction reads each element of its row
 * before the row's write of it, and no other row's pass reads it). As two steps, the product
 * rounded to the output's type before the softmax: within its 3N + 3 ULPs for FLOAT32; a
 * FLOAT16 output's rounding moves exp(x) by up to |x| 2^-11 relative. */
static HRESULT gemm_softmax(dmli_program *prog, const dmli_compute *c, const dmli_slot *slots)
{
    const dmli_gemm *g = DMLI_COMPUTE_WORK_CONST(c, dmli_gemm);
    if (!g->softmax)
        return S_OK;
    uint32_t o = 0;
    while (o + 1 < c->n_tensors && !c->tensors[o].output)
        ++o;
    dmli_reduce r;
    dmli_reduce_init(&r, DMLI_REDUCE_SOFTMAX, 1, 1);
    r.out[0].type = r.in[0].type = g->type;
    r.out[0].offset = r.in[0].offset = c->tensors[o].offset;
    for (int j = 0; j < g->batch_rank; ++j)
        dmli_reduce_push(&r, g->batch[j], g->softmax_batch[j], &g->o_b[j], &g->o_b[j]);
    dmli_reduce_push(&r, g->m, g->softmax_m, &g->o_m, &g->o_m);
    dmli_reduce_push(&r, g->n, g->softmax_n, &g->o_n, &g->o_n);
    dmli_reduce_normalize(&r);
    if (r.empty)
        return S_OK;
    if (verbose())
        fprintf(stderr, "dmlcl: compile %s GEMM's fused SOFTMAX: its output's rows in place\n",
                prog->name);
    return dmli_program_add_reduce(prog, &r, &slots[o], &slots[o]);
}

/* A scatter's first step (scatter.h): its input copied to its output by a view copy, the copy
 * plans' kernels and launch (streaming stores where the output is large); the scatter kernel,
 * the next step, then overwrites what the indices name. */
static HRESULT scatter_copy(dmli_program *prog, const dmli_compute *c, const dmli_slot *slots)
{
    dmli_plan plan;
    dmli_scatter_copy_plan(DMLI_COMPUTE_WORK_CONST(c, dmli_scatter), &plan);
    dmli_plan_normalize(&plan);
    if (plan.empty)
        return S_OK;
    dmli_launch launch;
    dmli_launch_plan(&plan, dmli_device_get_desc(prog->dev), &launch);
    if (verbose()) {
        char line[768];
        dmli_launch_describe(&launch, line, sizeof line);
        fprintf(stderr, "dmlcl: compile %s copy of the input first | %s\n", prog->name, line);
    }
    const dmli_slot none = {DMLI_SLOT_INPUT, 0, 0}; /* a view has no indices */
    return dmli_program_add_launch(prog, &launch, &plan, slots[DMLI_SCATTER_OUTPUT],
                                   slots[DMLI_SCATTER_INPUT], none, 1);
}

HRESULT dmli_program_add_compute(dmli_program *prog, const dmli_compute *c, const dmli_slot *slots)
{
    if (c->kind == DMLI_COMPUTE_SCATTER)
        DMLI_TRY(scatter_copy(prog, c, slots));
    dmli_compute_launch *launch = malloc(sizeof *launch);
    if (!launch)
        return dmli_fail(E_OUTOFMEMORY, "%s: out of host memory", prog->name);
    dmli_launch_compute(c, dmli_device_get_desc(prog->dev), launch);
    if (launch->refusal[0]) {
        HRESULT refused = dmli_fail(DXGI_ERROR_UNSUPPORTED, "%s: %s", prog->name, launch->refusal);
        free(launch);
        return refused;
    }
    if (verbose())
        fprintf(stderr,
                "dmlcl: compile %s %s kernel of %u tensor(s) | %s | global {%zu,%zu,%zu} local "
                "{%zu,%zu,%zu}\n",
                prog->name, launch->kernel, c->n_tensors, launch->options, launch->global[0],
                launch->global[1], launch->global[2], launch->local[0], launch->local[1],
                launch->local[2]);
    dmli_step_arg args[DMLI_COMPUTE_MAX_TENSORS + 1];
    for (uint32_t i = 0; i < c->n_tensors; ++i)
        args[i] = (dmli_step_arg){1 + 2 * i, (int)(2 + 2 * i), slots[i],
                                  dmli_type_size(c->tensors[i].type), c->tensors[i].offset};
    HRESULT hr;
    if (launch->splits > 1) {
        /* Split-K (launch.h dmli_compute_launch): the slices' partial sums into scratch in the
         * temporary resource, then their sums and the epilogue, both steps binding it after
         * the tensors. */
        const uint64_t at = scratch(prog, launch->split_bytes);
        if (verbose())
            fprintf(stderr,
                    "dmlcl: compile %s %s split in %u slices of k, %llu bytes of scratch at %llu "
                    "of the temporary resource\n",
                    prog->name, launch->kernel, launch->splits,
                    (unsigned long long)launch->split_bytes, (unsigned long long)at);
        const uint32_t n = c->n_tensors;
        args[n] =
            (dmli_step_arg){1 + 2 * n, (int)(2 + 2 * n), {DMLI_SLOT_TEMP, 0, at}, sizeof(float), 0};
        size_t partial[3] = {launch->global[0], launch->global[1],
                             launch->global[2] * launch->splits};
        hr = dmli_program_add_step(prog, launch->source, launch->options, launch->kernel,
                                   launch->table, launch->table_count, 0, partial, launch->local,
                                   args, n + 1);
        if (SUCCEEDED(hr))
            hr = dmli_program_add_step(prog, launch->source, launch->options2, launch->kernel,
                                       launch->table, launch->table_count, 0, launch->global,
                                       launch->local, args, n + 1);
    } else if (launch->pre_kernel && launch->pre_owned_only &&
               !owned_slot(prog, slots[launch->pre_tensor])) {
        /* A first step worth it only once, on a tensor bound at execution: the plain kernel. */
        if (verbose())
            fprintf(stderr, "dmlcl: compile %s %s without %s (the tensor is not owned) | %s\n",
                    prog->name, launch->kernel_plain ? launch->kernel_plain : launch->kernel,
                    launch->pre_kernel, launch->options_plain);
        hr = dmli_program_add_step(prog, launch->source, launch->options_plain,
                                   launch->kernel_plain ? launch->kernel_plain : launch->kernel,
                                   launch->table, launch->table_count, 0, launch->plain_global,
                                   launch->plain_local, args, c->n_tensors);
    } else if (launch->pre_kernel) {
        /* A first step writes scratch the kernel reads (launch.h dmli_compute_launch): from an
         * owned input, once at initialization into the persistent resource; else at every
         * dispatch, into the temporary resource. */
        const uint32_t n = c->n_tensors, src = launch->pre_tensor, src2 = launch->pre_tensor2;
        const bool once =
            owned_slot(prog, slots[src]) && (!launch->pre_two || owned_slot(prog, slots[src2]));
        dmli_slot to;
        if (once) {
            const uint64_t align = DML_PERSISTENT_BUFFER_ALIGNMENT,
                           at = (prog->persistent_bytes + align - 1) / align * align;
            prog->persistent_bytes = at + launch->pre_bytes;
            to = (dmli_slot){DMLI_SLOT_PERSISTENT, 0, at};
        } else {
            to = (dmli_slot){DMLI_SLOT_TEMP, 0, scratch(prog, launch->pre_bytes)};
        }
        if (verbose())
            fprintf(stderr,
                    "dmlcl: compile %s %s first (%s), %llu bytes at %llu of the %s resource | "
                    "global {%zu,%zu,%zu} local {%zu,%zu,%zu}\n",
                    prog->name, launch->pre_kernel,
                    once ? "once, at initialization: the tensor is owned" : "at every dispatch",
                    (unsigned long long)launch->pre_bytes, (unsigned long long)to.offset,
                    once ? "persistent" : "temporary", launch->pre_global[0], launch->pre_global[1],
                    launch->pre_global[2], launch->pre_local[0], launch->pre_local[1],
                    launch->pre_local[2]);
        dmli_step_arg pre[3] = {
            {1, 2, slots[src], dmli_type_size(c->tensors[src].type), c->tensors[src].offset},
            {3, 4, to, sizeof(float), 0}};
        if (launch->pre_two) {
            pre[1] = (dmli_step_arg){3, 4, slots[src2], dmli_type_size(c->tensors[src2].type),
                                     c->tensors[src2].offset};
            pre[2] = (dmli_step_arg){5, 6, to, sizeof(float), 0};
        }
        hr = dmli_program_add_step(prog, launch->source, launch->options, launch->pre_kernel,
                                   launch->table, launch->table_count, 0, launch->pre_global,
                                   launch->pre_local, pre, launch->pre_two ? 3 : 2);
        if (SUCCEEDED(hr) && once)
            hr = to_init(prog);
        args[n] = (dmli_step_arg){1 + 2 * n, (int)(2 + 2 * n), to, sizeof(float), 0};
        if (SUCCEEDED(hr))
            hr = dmli_program_add_step(prog, launch->source, launch->options, launch->kernel,
                                       launch->table, launch->table_count, 0, launch->global,
                                       launch->local, args, n + 1);
    } else {
        hr = dmli_program_add_step(prog, launch->source, launch->options, launch->kernel,
                                   launch->table, launch->table_count, 0, launch->global,
                                   launch->local, args, c->n_tensors);
    }
    free(launch);
    if (SUCCEEDED(hr) && c->kind == DMLI_COMPUTE_GEMM)
        hr = gemm_softmax(prog, c, slots);
    return hr;
}

bool dmli_owned(const dmli_tensor *t)
{
    return t->present && (t->flags & DML_TENSOR_FLAG_OWNED_BY_DML);
}

uint64_t dmli_persistent_offset(const dmli_tensor *inputs, uint32_t n, uint32_t i)
{
    const uint64_t align = DML_PERSISTENT_BUFFER_ALIGNMENT;
    uint64_t at = 0;
    for (uint32_t k = 0; k < i && k < n; ++k)
        if (dmli_owned(&inputs[k]))
            at += (inputs[k].total_bytes + align - 1) / align * align;
    return at;
}
