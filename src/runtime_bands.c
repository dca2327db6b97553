/* SPDX-License-Identifier: MIT */
/*
 * A compiled operator's band (bands.h): one dispatch of cl/bands.cl for the
 * steps that walk the same rows. Its kernel, segment table and fill
 * constant are made once at compile; a binding table sets its buffers and
 * base offsets. DMLCL_BANDS=0 in the environment (read at each compile)
 * runs every step as its own kernel, for A/B comparisons.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "runtime.h"

#define SET_ARG(k, i, v)                                       \
    do {                                                       \
        cl_int e_ = clSetKernelArg((k), (i), sizeof(v), &(v)); \
        if (e_ != CL_SUCCESS)                                  \
            return dmli_fail_cl(e_, "clSetKernelArg");         \
    } while (0)

static bool env_flag(const char *name, bool unset)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return unset;
    return *v != '0';
}

/* The fills' element repeated over 16 bytes: a band may move it in wider units. */
static HRESULT upload_constant(dmlcl_compiled_operator *c, dmli_op_band *b)
{
    const dmli_op_state *st = &c->op->st;
    unsigned char pattern[16];
    uint32_t eb = b->band.elem_bytes;
    for (uint32_t i = 0; i < sizeof pattern; ++i)
        pattern[i] = st->constant[eb <= 16 ? i % eb : i];
    cl_int err;
    b->constant = clCreateBuffer(c->op->device->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 sizeof pattern, pattern, &err);
    return err == CL_SUCCESS ? S_OK : dmli_fail_cl(err, "clCreateBuffer (band constant)");
}

HRESULT dmli_runtime_band_compile(dmlcl_compiled_operator *c, dmli_op_kernel *k)
{
    bool verbose = env_flag("DMLCL_VERBOSE", false);
    const char *name = c->op->cls->name;
    if (!env_flag("DMLCL_BANDS", true)) {
        if (verbose)
            fprintf(stderr, "dmlcl: band %s: none (DMLCL_BANDS=0)\n", name);
        return S_OK;
    }
    const dmli_device_desc *dev = dmli_device_get_desc(c->op->device);
    dmli_op_band *b = calloc(1, sizeof *b);
    if (!b)
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    const char *why;
    if (!dmli_band_build(&c->op->st, dev, &b->band, &why)) {
        free(b);
        if (verbose)
            fprintf(stderr, "dmlcl: band %s: none (%s)\n", name, why);
        return strcmp(why, "out of host memory") == 0
                   ? dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory")
                   : S_OK;
    }
    c->band = b; /* freed by dmli_runtime_band_release from here on */
    if (!dmli_band_launch_make(&b->band, dev, &b->launch))
        return dmli_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    if (verbose)
        dmli_band_describe(&b->band, &b->launch, name, stderr);
    for (uint32_t i = 0; i < b->band.n_bufs; ++i)
        if (b->band.bufs[i].slot == DMLI_STEP_CONSTANT && !b->constant)
            DMLI_TRY(upload_constant(c, b));
    k->band = true;
    k->launch.unit = b->band.unit;
    memcpy(k->launch.global, b->launch.global, sizeof k->launch.global);
    memcpy(k->launch.local, b->launch.local, sizeof k->launch.local);
    cl_program program;
    DMLI_TRY(dmli_device_program(c->op->device, DMLI_SOURCE_BANDS, b->launch.options, &program));
    cl_int err;
    k->kernel = clCreateKernel(program, "bands_copy", &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateKernel (bands_copy)");
    k->shape = clCreateBuffer(c->op->device->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              b->launch.table_count * sizeof(cl_long), b->launch.table, &err);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clCreateBuffer (band table)");
    SET_ARG(k->kernel, DMLI_BANDS_ARG_TABLE, k->shape);
    return S_OK;
}

HRESULT dmli_runtime_band_args(const dmlcl_binding_table *t, const dmli_op_kernel *k)
{
    const dmli_op_band *b = t->compiled->band;
    cl_long unit = (cl_long)b->band.unit;
    /* Arguments past the band's buffers repeat its first one (every argument must be set). */
    for (uint32_t j = 0; j < b->launch.nbuf; ++j) {
        const dmli_band_buf *buf = &b->band.bufs[j < b->band.n_bufs ? j : 0];
        cl_mem mem = b->constant;
        cl_long base = 0;
        if (buf->slot != DMLI_STEP_CONSTANT) {
            const DML_BUFFER_BINDING *bb =
                buf->output ? &t->outputs[buf->slot] : &t->inputs[buf->slot];
            mem = (cl_mem)bb->Buffer;
            base = (cl_long)bb->Offset / unit;
        }
        SET_ARG(k->kernel, (cl_uint)DMLI_BANDS_ARG_BUF(j), mem);
        SET_ARG(k->kernel, (cl_uint)DMLI_BANDS_ARG_BASE(j), base);
    }
    return S_OK;
}

void dmli_runtime_band_release(dmlcl_compiled_operator *c)
{
    dmli_op_band *b = c->band;
    if (!b)
        return;
    if (b->constant)
        clReleaseMemObject(b->constant);
    dmli_band_launch_free(&b->launch);
    dmli_band_free(&b->band);
    free(b);
    c->band = NULL;
}
