/* SPDX-License-Identifier: MIT */
/*
 * The object model: operators (validated, deep-copied, planned) and compiled operators. An
 * operator compiles to a program (program.h) as a one-node graph would: its band (bands.h)
 * and one step per plan left out of it, each step's launch from launch.c; a graph compiles
 * to one in graph_compile.c. Binding tables and dispatch are dispatch.c's, for both; status.c
 * reads an ERROR-policy dispatch's report. How a plan runs (variant, geometry, argument
 * slots) is launch.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "runtime.h"

/* ---- Compile: an operator's program -------------------------------------------------- */

static bool env_flag(const char *name, bool unset)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return unset;
    return *v != '0';
}

/* DMLCL_VERBOSE=1: one line per compile on stderr: the plan, then the launch. */
static void verbose_launch(const char *op, const dmli_plan *p, const dmli_launch *l)
{
    if (!env_flag("DMLCL_VERBOSE", false))
        return;
    char line[1024], launch[768];
    int n = snprintf(line, sizeof line, "dmlcl: compile %s unit %u offsets out %lld in %lld dims",
                     op, p->elem_bytes, (long long)p->out_offset, (long long)p->in_offset);
    for (int d = 0; d < p->rank && n < (int)sizeof line; ++d)
        n += snprintf(line + n, sizeof line - (size_t)n, " [%lld: os %lld is %lld xs %lld]",
                      (long long)p->size[d], (long long)p->out_stride[d],
                      (long long)p->in_stride[d], (long long)p->idx_stride[d]);
    dmli_launch_describe(l, launch, sizeof launch);
    fprintf(stderr, "%s | %s\n", line, launch);
}

/*
 * The band of the operator's steps (bands.h: one dispatch of cl/bands.cl for the steps that
 * walk the same rows), as the program's first step; in_band says which steps it holds (none
 * when DMLCL_BANDS=0, read at each compile for A/B runs, or when no band forms). Its fill
 * constant is the element repeated over 16 bytes: a band may move it in wider units.
 */
static HRESULT compile_band(dmli_program *prog, const dmli_op_state *st, const char *name,
                            bool *in_band)
{
    bool verbose = env_flag("DMLCL_VERBOSE", false);
    if (!env_flag("DMLCL_BANDS", true)) {
        if (verbose)
            fprintf(stderr, "dmlcl: band %s: none (DMLCL_BANDS=0)\n", name);
        return S_OK;
    }
    const dmli_device_desc *dev = dmli_device_get_desc(prog->dev);
    dmli_band band;
    const char *why;
    if (!dmli_band_build(st, dev, &band, &why)) {
        if (verbose)
            fprintf(stderr, "dmlcl: band %s: none (%s)\n", name, why);
        return strcmp(why, "out of host memory") == 0
                   ? dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory")
                   : S_OK;
    }
    dmli_band_launch launch;
    dmli_step_arg *args = NULL;
    HRESULT hr = S_OK;
    if (!dmli_band_launch_make(&band, dev, &launch)) {
        dmli_band_free(&band);
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    }
    if (verbose)
        dmli_band_describe(&band, &launch, name, stderr);
    uint32_t constant = 0;
    for (uint32_t i = 0; i < band.n_bufs && SUCCEEDED(hr); ++i)
        if (band.bufs[i].slot == DMLI_STEP_CONSTANT) {
            unsigned char pattern[16];
            for (uint32_t b = 0; b < sizeof pattern; ++b)
                pattern[b] = st->constant[band.elem_bytes <= 16 ? b % band.elem_bytes : b];
            hr = dmli_program_add_constant(prog, pattern, sizeof pattern, 16, &constant);
            break;
        }
    /* Arguments past the band's buffers repeat its first one (every argument must be set). */
    args = SUCCEEDED(hr) ? calloc(launch.nbuf ? launch.nbuf : 1, sizeof *args) : NULL;
    if (SUCCEEDED(hr) && !args)
        hr = dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    for (uint32_t j = 0; SUCCEEDED(hr) && j < launch.nbuf; ++j) {
        const dmli_band_buf *buf = &band.bufs[j < band.n_bufs ? j : 0];
        dmli_slot slot = {DMLI_SLOT_CONSTANT, constant, 0};
        if (buf->slot != DMLI_STEP_CONSTANT)
            slot = (dmli_slot){buf->output ? DMLI_SLOT_OUTPUT : DMLI_SLOT_INPUT,
                               (uint32_t)buf->slot, 0};
        args[j] = (dmli_step_arg){(cl_uint)DMLI_BANDS_ARG_BUF(j), DMLI_BANDS_ARG_BASE(j), slot,
                                  band.unit, 0};
    }
    if (SUCCEEDED(hr))
        hr = dmli_program_add_step(prog, DMLI_SOURCE_BANDS, launch.options, "bands_copy",
                                   launch.table, launch.table_count, DMLI_BANDS_ARG_TABLE,
                                   launch.global, launch.local, args, launch.nbuf);
    if (SUCCEEDED(hr))
        memcpy(in_band, band.in_band, st->n_steps * sizeof *in_band);
    free(args);
    dmli_band_launch_free(&launch);
    dmli_band_free(&band);
    return hr;
}

/* One step per plan: the band first, then each step left out of it (or the operator's one
 * plan), normalised for its kernel; empty plans launch nothing. */
static HRESULT compile_operator(dmlcl_compiled_operator *c)
{
    const dmli_op_state *st = &c->op->st;
    const char *name = c->op->cls->name;
    dmli_program *prog = &c->program;
    prog->n_inputs = st->n_inputs;
    prog->n_outputs = st->n_outputs;
    prog->inputs = st->inputs;
    prog->outputs = st->outputs;
    prog->input_names = st->input_names;
    prog->output_names = st->output_names;
    prog->in_place = st->in_place;
    prog->status =
        st->plan.kind == DMLI_PLAN_INDEXED && st->plan.policy == DMLI_OOR_ERROR && !st->plan.empty;
    /* Applications size descriptor heaps from this; 0 could give empty heaps. */
    prog->descriptor_count = st->n_inputs + st->n_outputs;
    prog->persistent_bytes = dmli_persistent_offset(st->inputs, st->n_inputs, st->n_inputs);
    if (st->computed) {
        const dmli_compute *work = &st->compute;
        if (work->empty)
            return S_OK;
        dmli_slot slots[DMLI_COMPUTE_MAX_TENSORS];
        for (uint32_t i = 0; i < work->n_tensors; ++i)
            slots[i] = (dmli_slot){work->tensors[i].output ? DMLI_SLOT_OUTPUT : DMLI_SLOT_INPUT,
                                   work->tensors[i].slot, 0};
        return dmli_program_add_compute(prog, work, slots);
    }
    if (st->reduced) {
        dmli_reduce r = st->reduce;
        dmli_reduce_normalize(&r);
        if (r.empty)
            return S_OK;
        dmli_slot out[DMLI_REDUCE_MAX_OUTPUTS], in[DMLI_REDUCE_MAX_INPUTS];
        for (uint32_t j = 0; j < r.n_outputs; ++j)
            out[j] = (dmli_slot){DMLI_SLOT_OUTPUT, r.out[j].slot, 0};
        /* An absent optional input (MVN's scale or bias) is never read: input 0 stands in. */
        for (uint32_t k = 0; k < r.n_inputs; ++k)
            in[k] = (dmli_slot){DMLI_SLOT_INPUT,
                                st->inputs[r.in[k].slot].present ? r.in[k].slot : r.in[0].slot, 0};
        return dmli_program_add_reduce(prog, &r, out, in);
    }
    if (st->mapped) {
        dmli_map m = st->map; /* as lowered: graphs compose into it (graph_plan.c) */
        dmli_map_normalize(&m);
        if (m.empty)
            return S_OK;
        dmli_slot out = {DMLI_SLOT_OUTPUT, m.out.slot, 0}, in[DMLI_MAP_MAX_INPUTS];
        for (uint32_t k = 0; k < m.n_inputs; ++k)
            in[k] = (dmli_slot){DMLI_SLOT_INPUT, m.in[k].slot, 0};
        return dmli_program_add_map(prog, &m, &out, in);
    }

    uint32_t n = st->n_steps ? st->n_steps : 1;
    bool *in_band = calloc(n, sizeof *in_band);
    if (!in_band)
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    HRESULT hr = st->n_steps ? compile_band(prog, st, name, in_band) : S_OK;
    bool have_constant = false;
    uint32_t constant = 0;
    dmli_slot idx = {DMLI_SLOT_INPUT, st->index_input >= 0 ? (uint32_t)st->index_input : 0, 0};
    uint32_t idx_unit = st->index_input >= 0 ? st->inputs[st->index_input].elem_bytes : 1;
    for (uint32_t i = 0; i < n && SUCCEEDED(hr); ++i) {
        if (in_band[i])
            continue;
        dmli_plan own = st->n_steps ? st->steps[i].plan : st->plan;
        if (st->n_steps)
            dmli_plan_normalize(&own);
        if (own.empty)
            continue;
        int input = st->n_steps ? st->steps[i].input : st->data_input;
        uint32_t output = st->n_steps ? st->steps[i].output : 0;
        if (input == DMLI_STEP_CONSTANT && !have_constant) {
            hr = dmli_program_add_constant(prog, st->constant, sizeof st->constant, 16, &constant);
            have_constant = SUCCEEDED(hr);
            if (FAILED(hr))
                break;
        }
        dmli_slot in = input == DMLI_STEP_CONSTANT
                           ? (dmli_slot){DMLI_SLOT_CONSTANT, constant, 0}
                           : (dmli_slot){DMLI_SLOT_INPUT, (uint32_t)input, 0};
        dmli_launch launch;
        dmli_launch_plan(&own, dmli_device_get_desc(prog->dev), &launch);
        verbose_launch(name, &own, &launch);
        hr = dmli_program_add_launch(prog, &launch, &own, (dmli_slot){DMLI_SLOT_OUTPUT, output, 0},
                                     in, idx, idx_unit);
    }
    free(in_band);
    return hr;
}

void dmlcl_compiled_operator_release(dmlcl_compiled_operator *c)
{
    if (!c || __atomic_sub_fetch(&c->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    dmli_program_free(&c->program);
    dmli_graph_free(c->graph);
    dmlcl_operator_release(c->op);
    dmlcl_device_release(c->device);
    free(c);
}

/* A compiled operator or graph on dev, its program named name, before it is compiled. */
static dmlcl_compiled_operator *compiled_new(dmlcl_device *dev, const char *name, const char *noun)
{
    dmlcl_compiled_operator *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->refcount = 1;
    dmlcl_device_retain(dev);
    c->device = dev;
    dmli_program_init(&c->program, dev, name, noun);
    return c;
}

HRESULT dmlcl_operator_compile(dmlcl_operator *op, DML_EXECUTION_FLAGS flags,
                               dmlcl_compiled_operator **compiled)
{
    DMLI_NULL_IF(!compiled, "CompileOperator: the output pointer (NULL) is required");
    *compiled = NULL;
    DMLI_NULL_IF(!op, "CompileOperator: op (NULL) is required");
    DMLI_INVALID_IF(!op->device,
                    "%s: CompileOperator needs an operator created on a device "
                    "(this one was created with a NULL device, host-only)",
                    op->cls->name);
    DMLI_INVALID_IF((unsigned)flags & ~7u, "%s: CompileOperator flags (0x%x) has unknown bits",
                    op->cls->name, (unsigned)flags);
    dmlcl_compiled_operator *c = compiled_new(op->device, op->cls->name, "operator");
    if (!c)
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
    c->op = op;
    HRESULT hr = compile_operator(c);
    if (FAILED(hr)) {
        dmlcl_compiled_operator_release(c);
        return hr;
    }
    *compiled = c;
    return S_OK;
}

HRESULT dmlcl_graph_compile(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                            DML_EXECUTION_FLAGS flags, dmlcl_compiled_operator **compiled)
{
    DMLI_NULL_IF(!compiled, "CompileGraph: the output pointer (NULL) is required");
    *compiled = NULL;
    DMLI_NULL_IF(!device, "CompileGraph: device (NULL) is required");
    DMLI_TRY(dmli_device_check(device, "CompileGraph"));
    DMLI_INVALID_IF((unsigned)flags & ~7u, "CompileGraph: flags (0x%x) has unknown bits",
                    (unsigned)flags);
    dmlcl_compiled_operator *c = compiled_new(device, "graph", "graph");
    if (!c)
        return dmli_fail(E_OUTOFMEMORY, "CompileGraph: out of host memory");
    HRESULT hr = dmli_graph_import(desc, &c->graph);
    if (SUCCEEDED(hr))
        hr = dmli_graph_compile(c->graph, &c->program);
    if (FAILED(hr)) {
        dmlcl_compiled_operator_release(c);
        return hr;
    }
    *compiled = c;
    return S_OK;
}

DML_BINDING_PROPERTIES dmlcl_compiled_operator_binding_properties(const dmlcl_compiled_operator *c)
{
    DML_BINDING_PROPERTIES props = {0};
    props.RequiredDescriptorCount = c ? c->program.descriptor_count : 1;
    props.TemporaryResourceSize = c ? c->program.temp_bytes : 0;
    props.PersistentResourceSize = c ? c->program.persistent_bytes : 0;
    return props;
}

dmlcl_operator *dmlcl_compiled_operator_operator(const dmlcl_compiled_operator *c)
{
    return c ? c->op : NULL;
}
