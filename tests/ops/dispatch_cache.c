/* SPDX-License-Identifier: MIT */
/*
 * dispatch_cache.c: the program cache and the kernel arguments across
 * operators, tables and bindings. Operators of one kernel variant at other
 * shapes build one program between them (the device's build count, the
 * number dmlcl-info prints), and every one still gives the C reference's
 * output; a compiled operator rebound to other buffers, or dispatched from
 * several tables in turn (the kernel's arguments are set once per table and
 * binding, src/runtime.c set_binding_args), writes each table's own output
 * and reports into each table's own status.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cases.h"
#include "device.h"
#include "dmlcl/frontends.h"
#include "harness.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define U32 DML_TENSOR_DATA_TYPE_UINT32

OPS_DEVICE_SUITE(dispatch_cache);

static ops_seed run_seed = OPS_SEED(0x646D6C636C444350ull);

/*
 * An embedding gather: rows of an input {rows, width} picked by count
 * indices {1, count} along axis 0, into {count, width}. With an odd width
 * (a row of 4-byte units no wider unit divides) and count >= 2 every such
 * shape is one kernel variant: the shape goes to the shape buffer only.
 */
typedef struct emb_case {
    DML_TENSOR_DATA_TYPE type;
    uint32_t rows, width, count;
    ops_tensor input, indices, output;
    DML_GATHER_OPERATOR_DESC gather;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} emb_case;

static void emb_init(emb_case *c, DML_TENSOR_DATA_TYPE type, uint32_t rows, uint32_t width,
                     uint32_t count)
{
    memset(c, 0, sizeof *c);
    c->type = type;
    c->rows = rows;
    c->width = width;
    c->count = count;
    const uint32_t in[2] = {rows, width}, idx[2] = {1, count}, out[2] = {count, width};
    ops_tensor_init(&c->input, "InputTensor", false, type, 2, in, NULL, 0, 0);
    ops_tensor_init(&c->indices, "IndicesTensor", false, U32, 2, idx, NULL, 0, 0);
    ops_tensor_init(&c->output, "OutputTensor", true, type, 2, out, NULL, 0, 0);
    c->gather = (DML_GATHER_OPERATOR_DESC){ops_tensor_desc(&c->input), ops_tensor_desc(&c->indices),
                                           ops_tensor_desc(&c->output), 0, 1};
    c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &c->gather};
}

static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

/* New buffers (offsets drawn by rng), new data, the reference's output, the output poisoned. */
static void emb_memory(emb_case *c, ref_rng *rng)
{
    ops_memory_release(&c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    ops_memory_place(&c->mem, rng, &c->indices, false);
    ops_memory_place(&c->mem, rng, &c->output, false);
    ops_memory_alloc(&c->mem, rng);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots(&c->input));
    ops_fill_indices(rng, U32, ops_ptr(&c->mem, OPS_INIT, &c->indices), slots(&c->indices), c->rows,
                     0, 0);
    ops_memory_snapshot(&c->mem);
    ref_tensor input = ops_view(&c->mem, OPS_EXPECT, &c->input),
               indices = ops_view(&c->mem, OPS_EXPECT, &c->indices),
               output = ops_view(&c->mem, OPS_EXPECT, &c->output);
    cr_assert(ref_gather(&input, &indices, &output, 0, 1), "test bug: the reference refused");
    ops_poison_output(&c->mem, &c->output);
    ops_upload(&c->mem);
}

static HRESULT emb_bind(dmlcl_binding_table *t, const emb_case *c)
{
    ops_tensor *in[2] = {(ops_tensor *)&c->input, (ops_tensor *)&c->indices};
    ops_tensor *out[1] = {(ops_tensor *)&c->output};
    return ops_bind(t, &c->mem, in, 2, out, 1);
}

/* Reads the buffers back and compares every byte with the reference's image. */
static void emb_expect(emb_case *c, const char *what)
{
    char msg[2048];
    ops_tensor *all[3] = {&c->input, &c->indices, &c->output};
    ops_download(&c->mem);
    uint64_t bad = ops_compare(&c->mem, all, 3, msg, sizeof msg);
    cr_assert(bad == 0, "%s: gather {%u,%u} by %u (%s), seed 0x%016" PRIx64 ": %s", what, c->rows,
              c->width, c->count, ref_type_name(c->type), ops_base_seed(&run_seed), msg);
}

/* A device object of its own on the suite's context and queue: its program cache starts empty. */
static dmlcl_device *fresh_device(void)
{
    dmlcl_device *base = ops_device(), *d = NULL;
    HRESULT hr = dmlcl_device_create_from_cl(dmlcl_device_context(base), dmlcl_device_id(base),
                                             dmlcl_device_queue(base), &d);
    cr_assert(hr == S_OK, "dmlcl_device_create_from_cl: %s", dmlcl_last_error());
    cr_assert(dmli_device_builds(d) == 0);
    return d;
}

static size_t cache_entries(dmlcl_device *d)
{
    const char *family, *options;
    size_t n = 0;
    while (dmli_device_cached_program(d, n, &family, &options))
        ++n;
    return n;
}

static dmlcl_compiled_operator *compile(dmlcl_device *d, const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op;
    dmlcl_compiled_operator *c;
    cr_assert(dmlcl_operator_create(d, desc, &op) == S_OK, "%s", dmlcl_last_error());
    cr_assert(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c) == S_OK, "%s",
              dmlcl_last_error());
    dmlcl_operator_release(op);
    return c;
}

static dmlcl_binding_table *table_for(dmlcl_compiled_operator *c, const emb_case *e)
{
    dmlcl_binding_table *t;
    cr_assert(dmlcl_binding_table_create(c, &t) == S_OK, "%s", dmlcl_last_error());
    cr_assert(emb_bind(t, e) == S_OK, "%s", dmlcl_last_error());
    return t;
}

static void dispatch(dmlcl_binding_table *t)
{
    cr_assert(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL) == S_OK, "%s",
              dmlcl_last_error());
}

static void finish(dmlcl_device *d)
{
    cr_assert(clFinish(dmlcl_device_queue(d)) == CL_SUCCESS);
}

/* The shapes of one variant: rows, odd width, count >= 2. */
static const uint32_t one_variant[][3] = {
    {7, 3, 5}, {50, 5, 17}, {300, 33, 64}, {2, 7, 2}, {1000, 3, 999}};
#define SHAPES (sizeof one_variant / sizeof one_variant[0])

Test(dispatch_cache, one_build_per_variant_not_per_shape)
{
    dmlcl_device *d = fresh_device();
    emb_case c[SHAPES];
    dmlcl_compiled_operator *compiled[SHAPES];
    for (size_t i = 0; i < SHAPES; ++i) {
        emb_init(&c[i], F32, one_variant[i][0], one_variant[i][1], one_variant[i][2]);
        compiled[i] = compile(d, &c[i].desc);
        cr_expect(dmli_device_builds(d) == 1, "after %zu shapes of one variant: %u builds", i + 1,
                  dmli_device_builds(d));
    }
    /* Compiling one of them again, or an operator of the same description, builds nothing. */
    dmlcl_compiled_operator *again = compile(d, &c[2].desc);
    cr_expect(dmli_device_builds(d) == 1 && cache_entries(d) == 1, "%u builds, %zu entries",
              dmli_device_builds(d), cache_entries(d));
    /* Another variant (1-byte units) is one more build, once. */
    emb_case u8a, u8b;
    emb_init(&u8a, DML_TENSOR_DATA_TYPE_UINT8, 9, 3, 4);
    emb_init(&u8b, DML_TENSOR_DATA_TYPE_UINT8, 40, 5, 31);
    dmlcl_compiled_operator *c8a = compile(d, &u8a.desc), *c8b = compile(d, &u8b.desc);
    cr_expect(dmli_device_builds(d) == 2 && cache_entries(d) == 2,
              "two variants: %u builds, %zu entries", dmli_device_builds(d), cache_entries(d));

    /* Every operator sharing the program gives its own right output. */
    ref_rng rng = ops_case_rng(&run_seed, "one_build_per_variant_not_per_shape", 0);
    for (size_t i = 0; i < SHAPES; ++i) {
        emb_memory(&c[i], &rng);
        dmlcl_binding_table *t = table_for(compiled[i], &c[i]);
        dispatch(t);
        finish(d);
        emb_expect(&c[i], "shared program");
        dmlcl_binding_table_release(t);
    }
    emb_memory(&c[2], &rng);
    dmlcl_binding_table *t = table_for(again, &c[2]);
    dispatch(t);
    finish(d);
    emb_expect(&c[2], "compiled again");
    dmlcl_binding_table_release(t);
    emb_case *u8[2] = {&u8a, &u8b};
    dmlcl_compiled_operator *c8[2] = {c8a, c8b};
    for (int i = 0; i < 2; ++i) {
        emb_memory(u8[i], &rng);
        t = table_for(c8[i], u8[i]);
        dispatch(t);
        finish(d);
        emb_expect(u8[i], "uint8 variant");
        dmlcl_binding_table_release(t);
        dmlcl_compiled_operator_release(c8[i]);
        ops_memory_release(&u8[i]->mem);
    }
    dmlcl_compiled_operator_release(again);
    for (size_t i = 0; i < SHAPES; ++i) {
        dmlcl_compiled_operator_release(compiled[i]);
        ops_memory_release(&c[i].mem);
    }
    dmlcl_device_release(d);
}

/* Operators sharing a program, dispatched in turn with no wait between: each its own output. */
Test(dispatch_cache, shared_program_interleaved_dispatches)
{
    dmlcl_device *d = fresh_device();
    ref_rng rng = ops_case_rng(&run_seed, "shared_program_interleaved_dispatches", 0);
    emb_case c[3];
    dmlcl_compiled_operator *compiled[3];
    dmlcl_binding_table *t[3];
    for (int i = 0; i < 3; ++i) {
        emb_init(&c[i], F32, one_variant[i][0], one_variant[i][1], one_variant[i][2]);
        compiled[i] = compile(d, &c[i].desc);
        emb_memory(&c[i], &rng);
        t[i] = table_for(compiled[i], &c[i]);
    }
    cr_expect(dmli_device_builds(d) == 1, "%u builds", dmli_device_builds(d));
    for (int round = 0; round < 3; ++round)
        for (int i = 0; i < 3; ++i)
            dispatch(t[(i + round) % 3]);
    finish(d);
    for (int i = 0; i < 3; ++i) {
        emb_expect(&c[i], "interleaved");
        dmlcl_binding_table_release(t[i]);
        dmlcl_compiled_operator_release(compiled[i]);
        ops_memory_release(&c[i].mem);
    }
    dmlcl_device_release(d);
}

/* One table rebound to new buffers (other offsets, other data): the new ones are written, the
 * old ones are left as they were. */
Test(dispatch_cache, rebind_to_new_buffers)
{
    ref_rng rng = ops_case_rng(&run_seed, "rebind_to_new_buffers", 0);
    emb_case a, b;
    emb_init(&a, F32, 60, 9, 40);
    emb_init(&b, F32, 60, 9, 40);
    dmlcl_compiled_operator *compiled = compile(ops_device(), &a.desc);
    emb_memory(&a, &rng);
    emb_memory(&b, &rng);
    dmlcl_binding_table *t = table_for(compiled, &a);
    dispatch(t);
    dispatch(t); /* the second dispatch of a table reuses its arguments */
    finish(ops_device());
    emb_expect(&a, "first binding");

    cr_assert(emb_bind(t, &b) == S_OK, "%s", dmlcl_last_error());
    ops_upload(&a.mem); /* a's output poisoned again: a stale binding would show there */
    dispatch(t);
    finish(ops_device());
    emb_expect(&b, "rebound");
    ops_download(&a.mem);
    cr_assert(
        memcmp(a.mem.got[a.output.slot], a.mem.init[a.output.slot], a.mem.size[a.output.slot]) == 0,
        "the dispatch after the rebinding wrote the old output buffer");

    /* Back to a's buffers with new data in them. */
    emb_memory(&a, &rng);
    cr_assert(emb_bind(t, &a) == S_OK, "%s", dmlcl_last_error());
    dispatch(t);
    finish(ops_device());
    emb_expect(&a, "bound back");
    dmlcl_binding_table_release(t);
    dmlcl_compiled_operator_release(compiled);
    ops_memory_release(&a.mem);
    ops_memory_release(&b.mem);
}

/* Two tables of one compiled operator in turn, then a new table (perhaps at a released table's
 * address): every dispatch writes its own table's output. */
Test(dispatch_cache, tables_in_turn)
{
    ref_rng rng = ops_case_rng(&run_seed, "tables_in_turn", 0);
    emb_case e[3];
    for (int i = 0; i < 3; ++i)
        emb_init(&e[i], F32, 33, 5, 21);
    dmlcl_compiled_operator *compiled = compile(ops_device(), &e[0].desc);
    for (int i = 0; i < 3; ++i)
        emb_memory(&e[i], &rng);
    dmlcl_binding_table *t1 = table_for(compiled, &e[0]), *t2 = table_for(compiled, &e[1]);
    dispatch(t1);
    finish(ops_device());
    emb_expect(&e[0], "table 1");
    ops_upload(&e[0].mem); /* poisoned again */
    dispatch(t2);
    dispatch(t1);
    dispatch(t2);
    finish(ops_device());
    emb_expect(&e[0], "table 1 after table 2");
    emb_expect(&e[1], "table 2");

    dmlcl_binding_table_release(t1);
    dmlcl_binding_table *t3 = table_for(compiled, &e[2]);
    dispatch(t3);
    finish(ops_device());
    emb_expect(&e[2], "a new table after a release");
    dmlcl_binding_table_release(t2);
    dmlcl_binding_table_release(t3);
    dmlcl_compiled_operator_release(compiled);
    for (int i = 0; i < 3; ++i)
        ops_memory_release(&e[i].mem);
}

/* ONNX Gather-13 (ERROR policy): each table reports its own indices, dispatched in turn. */
Test(dispatch_cache, error_status_per_table)
{
    static const float data[4] = {1.5f, -2.0f, 3.25f, 8.0f};
    static const int64_t bad[3] = {0, 7, 1}, good[3] = {3, 0, 2};
    const dmlcl_shape shape = {1, {4}}, ishape = {1, {3}};
    const dmlcl_onnx_gather_args args = {&shape, F32, &ishape, DML_TENSOR_DATA_TYPE_INT64, 0};
    dmlcl_frontend_result f;
    cr_assert(dmlcl_onnx_gather(13, &args, &f) == S_OK, "%s", dmlcl_last_error());
    dmlcl_compiled_operator *compiled = compile(ops_device(), &f.desc);
    cl_context ctx = dmlcl_device_context(ops_device());
    cl_int err;
    cl_mem mem[5];
    const size_t bytes[5] = {sizeof data, sizeof bad, sizeof good, sizeof data, sizeof data};
    const void *init[5] = {data, bad, good, NULL, NULL};
    for (int i = 0; i < 5; ++i) {
        mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init[i] ? CL_MEM_COPY_HOST_PTR : 0),
                                bytes[i], (void *)init[i], &err);
        cr_assert_eq(err, CL_SUCCESS);
    }
    dmlcl_binding_table *t[2];
    for (int i = 0; i < 2; ++i) {
        DML_BUFFER_BINDING bb[3] = {{(ID3D12Resource *)mem[0], 0, sizeof data},
                                    {(ID3D12Resource *)mem[1 + i], 0, sizeof bad},
                                    {(ID3D12Resource *)mem[3 + i], 0, 3 * sizeof(float)}};
        DML_BINDING_DESC bd[3] = {{DML_BINDING_TYPE_BUFFER, &bb[0]},
                                  {DML_BINDING_TYPE_BUFFER, &bb[1]},
                                  {DML_BINDING_TYPE_BUFFER, &bb[2]}};
        cr_assert(dmlcl_binding_table_create(compiled, &t[i]) == S_OK);
        cr_assert(dmlcl_binding_table_bind_inputs(t[i], 2, bd) == S_OK, "%s", dmlcl_last_error());
        cr_assert(dmlcl_binding_table_bind_outputs(t[i], 1, bd + 2) == S_OK, "%s",
                  dmlcl_last_error());
    }
    /* The good table first: the bad one's dispatch must not find the good one's arguments. */
    for (int pass = 0; pass < 2; ++pass) {
        dispatch(t[1]);
        dispatch(t[0]);
        HRESULT hr = dmlcl_binding_table_status(t[0]);
        cr_expect_eq(hr, DMLCL_E_INDEX_OUT_OF_RANGE, "pass %d: %s: %s", pass,
                     dmlcl_hresult_name(hr), dmlcl_last_error());
        cr_expect(strstr(dmlcl_last_error(), "element 1") && strstr(dmlcl_last_error(), "is 7"),
                  "%s", dmlcl_last_error());
        hr = dmlcl_binding_table_status(t[1]);
        cr_expect_eq(hr, S_OK, "pass %d: %s: %s", pass, dmlcl_hresult_name(hr), dmlcl_last_error());
    }
    float out[3];
    cr_assert(clEnqueueReadBuffer(dmlcl_device_queue(ops_device()), mem[4], CL_TRUE, 0, sizeof out,
                                  out, 0, NULL, NULL) == CL_SUCCESS);
    for (int i = 0; i < 3; ++i)
        cr_expect(out[i] == data[good[i]], "good table's output %d: %g, not %g", i, out[i],
                  data[good[i]]);
    for (int i = 0; i < 2; ++i)
        dmlcl_binding_table_release(t[i]);
    dmlcl_compiled_operator_release(compiled);
    for (int i = 0; i < 5; ++i)
        clReleaseMemObject(mem[i]);
}
