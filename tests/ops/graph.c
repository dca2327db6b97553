/* SPDX-License-Identifier: MIT */
/*
 * Compiled graphs on the device: seeded random chains (tests/unit/graph_chain.c,
 * the reference applied node by node) through dmlcl_graph_compile and the
 * binding-table API, bit-exact. Every binding sits between guard bytes; the
 * inputs, the guards and the temporary resource's guards must come back
 * unchanged, and the outputs' bytes outside their elements must keep their
 * sentinel. Each chain runs twice, its temporary resource filled with 0x00
 * and then 0xFF: a step that read temporary bytes no earlier step wrote would
 * pass those bytes on and miss the reference in one of the two runs. Also the
 * temporary resource's binding rules.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "graph_chain.h"
#include "harness.h"
#include "launch.h"
#include "support.h"

#define GUARD 256
#define GUARD_BYTE 0xC3

typedef struct dev_buf {
    cl_mem mem;
    uint64_t bytes;       /* the bound range */
    unsigned char *image; /* GUARD + bytes + GUARD: what is uploaded */
    DML_BUFFER_BINDING binding;
    DML_BINDING_DESC desc;
} dev_buf;

static void buf_make(dev_buf *b, uint64_t bytes, const void *data, unsigned char fill)
{
    size_t total = (size_t)(2 * GUARD + bytes);
    b->bytes = bytes;
    b->image = malloc(total);
    memset(b->image, GUARD_BYTE, total);
    if (data)
        memcpy(b->image + GUARD, data, (size_t)bytes);
    else
        memset(b->image + GUARD, fill, (size_t)bytes);
    cl_int err;
    b->mem =
        clCreateBuffer(dmlcl_device_context(ops_device()), CL_MEM_READ_WRITE, total, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    err = clEnqueueWriteBuffer(dmlcl_device_queue(ops_device()), b->mem, CL_TRUE, 0, total,
                               b->image, 0, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS);
    b->binding = (DML_BUFFER_BINDING){(ID3D12Resource *)b->mem, GUARD, bytes};
    b->desc = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &b->binding};
}

static unsigned char *buf_read(const dev_buf *b)
{
    size_t total = (size_t)(2 * GUARD + b->bytes);
    unsigned char *got = malloc(total);
    cl_int err = clEnqueueReadBuffer(dmlcl_device_queue(ops_device()), b->mem, CL_TRUE, 0, total,
                                     got, 0, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS);
    return got;
}

static void buf_free(dev_buf *b)
{
    clReleaseMemObject(b->mem);
    free(b->image);
}

/* Runs chain c on the device, the temporary's bytes all temp_fill; returns its size. */
static uint64_t run_chain(const chain *c, uint64_t seed, int t, unsigned char temp_fill)
{
    dmlcl_compiled_operator *compiled;
    HRESULT hr = dmlcl_graph_compile(ops_device(), &c->g.desc, DML_EXECUTION_FLAG_NONE, &compiled);
    cr_assert(SUCCEEDED(hr), "seed 0x%llx case %d: %s; graph: %s", (unsigned long long)seed, t,
              dmlcl_last_error(), c->log);
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(compiled);
    dev_buf in[CHAIN_MAX_IO], out[CHAIN_MAX_IO], temp;
    DML_BINDING_DESC in_desc[CHAIN_MAX_IO], out_desc[CHAIN_MAX_IO];
    for (UINT i = 0; i < c->n_inputs; ++i) {
        buf_make(&in[i], c->input_bytes[i], c->inputs[i], 0);
        in_desc[i] = in[i].desc;
    }
    for (UINT o = 0; o < c->n_outputs; ++o) {
        buf_make(&out[o], c->output_bytes[o], NULL, CHAIN_SENTINEL);
        out_desc[o] = out[o].desc;
    }
    buf_make(&temp, props.TemporaryResourceSize, NULL, temp_fill);
    dmlcl_binding_table *table;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(compiled, &table)));
    hr = dmlcl_binding_table_bind_inputs(table, c->n_inputs, in_desc);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(table, c->n_outputs, out_desc);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_temporary(table,
                                                props.TemporaryResourceSize ? &temp.desc : NULL);
    cl_event done = NULL;
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(table, NULL, 0, NULL, &done);
    cr_assert(SUCCEEDED(hr), "seed 0x%llx case %d: %s", (unsigned long long)seed, t,
              dmlcl_last_error());
    cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    for (UINT o = 0; o < c->n_outputs; ++o) {
        unsigned char *got = buf_read(&out[o]);
        memcpy(out[o].image + GUARD, c->expect[o], (size_t)c->output_bytes[o]);
        cr_assert_arr_eq(got, out[o].image, (size_t)(2 * GUARD + c->output_bytes[o]),
                         "seed 0x%llx case %d (temporary filled with 0x%02X): output %u (or "
                         "its guards) differs; graph: %s",
                         (unsigned long long)seed, t, temp_fill, o, c->log);
        free(got);
    }
    for (UINT i = 0; i < c->n_inputs; ++i) {
        unsigned char *got = buf_read(&in[i]);
        cr_assert_arr_eq(got, in[i].image, (size_t)(2 * GUARD + c->input_bytes[i]),
                         "seed 0x%llx case %d: input %u changed", (unsigned long long)seed, t, i);
        free(got);
    }
    unsigned char *got = buf_read(&temp);
    cr_assert_arr_eq(got, temp.image, GUARD, "seed 0x%llx case %d: temporary's front guard",
                     (unsigned long long)seed, t);
    cr_assert_arr_eq(got + GUARD + temp.bytes, temp.image + GUARD + temp.bytes, GUARD,
                     "seed 0x%llx case %d: temporary's back guard", (unsigned long long)seed, t);
    free(got);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    for (UINT i = 0; i < c->n_inputs; ++i)
        buf_free(&in[i]);
    for (UINT o = 0; o < c->n_outputs; ++o)
        buf_free(&out[o]);
    buf_free(&temp);
    return props.TemporaryResourceSize;
}

OPS_DEVICE_SUITE(graph);

Test(graph, random_chains_bit_exact)
{
    uint64_t seed = ref_test_seed(0x6772617068ull);
    int with_temp = 0;
    for (int t = 0; t < 40; ++t) {
        ref_rng r = ref_rng_make(ref_mix64(seed + (uint64_t)t));
        chain c;
        chain_make(&c, &r, 2 + t % 5);
        with_temp += run_chain(&c, seed, t, 0x00) > 0;
        run_chain(&c, seed, t, 0xFF);
        chain_free(&c);
    }
    cr_log_info("graph chains on the device: 40 run, %d with a temporary resource", with_temp);
}

/* graph input 0 -> gather (indices: gather of a table) -> output: a temporary is needed. */
static void gathered_indices(unit_graph *g)
{
    unit_tensor ti, tx, to, di, dx, dout;
    const UINT table[2] = {1, 5}, k[2] = {1, 3}, data[2] = {4, 6}, osz[2] = {4, 3};
    ug_init(g);
    DML_GATHER_OPERATOR_DESC a = {unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_INT32, 2, table, NULL),
                                  unit_tensor_set(&tx, DML_TENSOR_DATA_TYPE_INT32, 2, k, NULL),
                                  unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_INT32, 2, k, NULL), 1,
                                  1};
    DML_GATHER_OPERATOR_DESC b = {
        unit_tensor_set(&di, DML_TENSOR_DATA_TYPE_FLOAT32, 2, data, NULL),
        unit_tensor_set(&dx, DML_TENSOR_DATA_TYPE_INT32, 2, k, NULL),
        unit_tensor_set(&dout, DML_TENSOR_DATA_TYPE_FLOAT32, 2, osz, NULL), 1, 1};
    ug_node(g, DML_OPERATOR_GATHER, &a);
    ug_node(g, DML_OPERATOR_GATHER, &b);
    ug_input(g, 0, 0, 0);
    ug_input(g, 1, 0, 1);
    ug_input(g, 2, 1, 0);
    ug_edge(g, 0, 1, 1);
    ug_output(g, 1, 0);
    ug_desc(g, 3, 1);
}

Test(graph, temporary_resource_rules)
{
    unit_graph g;
    gathered_indices(&g);
    dmlcl_compiled_operator *compiled;
    cr_assert(SUCCEEDED(dmlcl_graph_compile(ops_device(), &g.desc, 0, &compiled)), "%s",
              dmlcl_last_error());
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(compiled);
    cr_assert_eq(props.TemporaryResourceSize, 12);
    dev_buf in[3], out, temp;
    buf_make(&in[0], 20, NULL, 0);
    buf_make(&in[1], 12, NULL, 0);
    buf_make(&in[2], 96, NULL, 0);
    buf_make(&out, 48, NULL, 0);
    buf_make(&temp, 12, NULL, 0);
    DML_BINDING_DESC ins[3] = {in[0].desc, in[1].desc, in[2].desc};
    dmlcl_binding_table *table;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(compiled, &table)));
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(table, 3, ins)));
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(table, 1, &out.desc)));
    cr_expect_eq(dmlcl_binding_table_dispatch(table, NULL, 0, NULL, NULL), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "BindTemporaryResource"), "%s", dmlcl_last_error());
    cr_expect_eq(dmlcl_binding_table_bind_temporary(table, NULL), E_INVALIDARG);
    temp.binding.Offset = 16; /* not a multiple of 256 */
    cr_expect_eq(dmlcl_binding_table_bind_temporary(table, &temp.desc), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "must be a multiple of 256"), "%s", dmlcl_last_error());
    temp.binding.Offset = GUARD;
    temp.binding.SizeInBytes = 8;
    cr_expect_eq(dmlcl_binding_table_bind_temporary(table, &temp.desc), E_INVALIDARG);
    temp.binding.SizeInBytes = 12;
    temp.binding.Buffer = (ID3D12Resource *)out.mem; /* overlaps the output */
    temp.binding.Offset = GUARD;
    cr_expect(SUCCEEDED(dmlcl_binding_table_bind_temporary(table, &temp.desc)));
    cr_expect_eq(dmlcl_binding_table_dispatch(table, NULL, 0, NULL, NULL), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "temporary resource and graph output 0 overlap"), "%s",
              dmlcl_last_error());
    /* Graph bindings, like an operator's, must be buffers of the device's context. */
    cl_device_id id = dmlcl_device_id(ops_device());
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &id, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 2 * GUARD + 64, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    temp.binding.Buffer = (ID3D12Resource *)foreign;
    cr_expect_eq(dmlcl_binding_table_bind_temporary(table, &temp.desc), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "another cl_context"), "%s", dmlcl_last_error());
    DML_BUFFER_BINDING foreign_out = {(ID3D12Resource *)foreign, 0, 48};
    DML_BINDING_DESC foreign_desc = {DML_BINDING_TYPE_BUFFER, &foreign_out};
    cr_expect_eq(dmlcl_binding_table_bind_outputs(table, 1, &foreign_desc), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "graph output 0") &&
                  strstr(dmlcl_last_error(), "another cl_context"),
              "%s", dmlcl_last_error());
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    temp.binding.Buffer = (ID3D12Resource *)temp.mem;
    cr_expect(SUCCEEDED(dmlcl_binding_table_bind_temporary(table, &temp.desc)));
    cr_expect(SUCCEEDED(dmlcl_binding_table_dispatch(table, NULL, 0, NULL, NULL)), "%s",
              dmlcl_last_error());
    clFinish(dmlcl_device_queue(ops_device()));
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    for (int i = 0; i < 3; ++i)
        buf_free(&in[i]);
    buf_free(&out);
    buf_free(&temp);
    ug_free(&g);
}

Test(graph, execute_on_host_memory)
{
    uint64_t seed = ref_test_seed(0x65786563ull);
    for (int t = 0; t < 10; ++t) {
        ref_rng r = ref_rng_make(ref_mix64(seed + (uint64_t)t));
        chain c;
        chain_make(&c, &r, 2 + t % 5);
        dmlcl_compiled_operator *compiled;
        HRESULT hr = dmlcl_graph_compile(ops_device(), &c.g.desc, 0, &compiled);
        cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
        dmlcl_host_tensor in[CHAIN_MAX_IO], out[CHAIN_MAX_IO];
        for (UINT i = 0; i < c.n_inputs; ++i)
            in[i] = (dmlcl_host_tensor){c.inputs[i], c.input_bytes[i]};
        for (UINT o = 0; o < c.n_outputs; ++o) {
            out[o] = (dmlcl_host_tensor){malloc(c.output_bytes[o]), c.output_bytes[o]};
            memset(out[o].data, CHAIN_SENTINEL, c.output_bytes[o]);
        }
        hr = dmlcl_compiled_operator_execute(compiled, c.n_inputs, in, c.n_outputs, out);
        cr_assert(SUCCEEDED(hr), "seed 0x%llx case %d: %s", (unsigned long long)seed, t,
                  dmlcl_last_error());
        for (UINT o = 0; o < c.n_outputs; ++o) {
            cr_assert_arr_eq(out[o].data, c.expect[o], c.output_bytes[o],
                             "seed 0x%llx case %d: output %u differs; graph: %s",
                             (unsigned long long)seed, t, o, c.log);
            free(out[o].data);
        }
        dmlcl_compiled_operator_release(compiled);
        chain_free(&c);
    }
}

Test(graph, error_policy_is_not_supported_in_graphs)
{
    unit_graph g;
    unit_tensor ti, tx, to;
    const UINT s[2] = {2, 3};
    ug_init(&g);
    DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC d = {
        unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL),
        unit_tensor_set(&tx, DML_TENSOR_DATA_TYPE_INT32, 2, s, NULL),
        unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL), 1,
        DMLCL_OUT_OF_RANGE_POLICY_ERROR};
    ug_node(&g, DMLCL_OPERATOR_GATHER_ELEMENTS1, &d);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 0, 1);
    ug_output(&g, 0, 0);
    dmlcl_compiled_operator *compiled = NULL;
    cr_expect_eq(dmlcl_graph_compile(ops_device(), ug_desc(&g, 2, 1), 0, &compiled),
                 DXGI_ERROR_UNSUPPORTED);
    cr_expect(strstr(dmlcl_last_error(), "node 0 (GATHER_ELEMENTS1) uses the ERROR"), "%s",
              dmlcl_last_error());
    cr_expect_null(compiled);
    ug_free(&g);
}

/*
 * Graph inputs that feed no node and outputs fed by none (DirectMLX compiles such): bound as
 * NONE or as any buffer, even one that aliases another binding; an unused input is never
 * read, an unfed output never written; a binding of another type is refused.
 */
Test(graph, unused_graph_inputs_and_outputs_bind_anything)
{
    unit_graph g;
    ug_init(&g);
    ug_identity(&g, 2, 3);
    ug_input(&g, 1, 0, 0);
    ug_output(&g, 0, 1);
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_graph_compile(ops_device(), ug_desc(&g, 3, 2), 0, &compiled);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    const float x[6] = {1.5f, -2, 3, -0.0f, 5e-39f, 6};
    dev_buf in, out, spare;
    buf_make(&in, sizeof x, x, 0);
    buf_make(&out, sizeof x, NULL, CHAIN_SENTINEL);
    buf_make(&spare, 40, NULL, CHAIN_SENTINEL);
    dmlcl_binding_table *table;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(compiled, &table)));
    DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, NULL};
    DML_BUFFER_ARRAY_BINDING array = {1, &in.binding};
    DML_BINDING_DESC bad = {DML_BINDING_TYPE_BUFFER_ARRAY, &array};
    DML_BINDING_DESC refused[3] = {none, in.desc, bad};
    cr_expect_eq(dmlcl_binding_table_bind_inputs(table, 3, refused), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "binding 2 (graph input 2).Type (2)"), "%s",
              dmlcl_last_error());
    DML_BINDING_DESC refused_out[2] = {bad, out.desc};
    cr_expect_eq(dmlcl_binding_table_bind_outputs(table, 2, refused_out), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "binding 0 (graph output 0).Type (2)"), "%s",
              dmlcl_last_error());
    for (int round = 0; round < 2; ++round) {
        DML_BINDING_DESC inputs[3] = {round ? out.desc : none, in.desc, round ? in.desc : none};
        DML_BINDING_DESC outputs[2] = {round ? spare.desc : none, out.desc};
        cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(table, 3, inputs)), "%s",
                  dmlcl_last_error());
        cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(table, 2, outputs)), "%s",
                  dmlcl_last_error());
        cl_event done = NULL;
        cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(table, NULL, 0, NULL, &done)), "%s",
                  dmlcl_last_error());
        cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
        unsigned char *got = buf_read(&out);
        cr_expect_arr_eq(got + GUARD, x, sizeof x, "round %d: the output is not the input", round);
        free(got);
        got = buf_read(&spare);
        cr_expect_arr_eq(got, spare.image, 2 * GUARD + 40, "round %d: the unfed output changed",
                         round);
        free(got);
    }
    /* Host execution: an unused input's data and an unfed output's may be NULL or anything. */
    float y[6], z[2] = {7, 8};
    dmlcl_host_tensor hin[3] = {{NULL, 0}, {(void *)x, sizeof x}, {(void *)x, 1}};
    dmlcl_host_tensor hout[2] = {{z, sizeof z}, {y, sizeof y}};
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_execute(compiled, 3, hin, 2, hout)), "%s",
              dmlcl_last_error());
    cr_expect_arr_eq(y, x, sizeof x);
    cr_expect(z[0] == 7 && z[1] == 8, "the unfed output's host data changed");
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    buf_free(&in);
    buf_free(&out);
    buf_free(&spare);
    ug_free(&g);
}

/*
 * One node output feeding several graph outputs (DirectMLX's Compile(flags, {s, s})): each is
 * a copy of the node's values, written through the node output's strides (the gaps between
 * elements keep their bytes), also when the node output feeds another node besides.
 */
Test(graph, one_node_output_feeds_several_graph_outputs)
{
    unit_graph g;
    ug_init(&g);
    /* node 0: identity into a strided {2, 3} (row pitch 4); node 1: identity of that. */
    unit_tensor a, b, c2, d;
    const UINT sizes[2] = {2, 3}, pitch[2] = {4, 1};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC n0 = {
        unit_tensor_set(&a, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL),
        unit_tensor_set(&b, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, pitch), NULL};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC n1 = {
        unit_tensor_set(&c2, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, pitch),
        unit_tensor_set(&d, DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, NULL), NULL};
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &n0);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &n1);
    ug_input(&g, 0, 0, 0);
    ug_edge(&g, 0, 1, 0);
    ug_output(&g, 0, 2);
    ug_output(&g, 0, 0);
    ug_output(&g, 1, 1);
    ug_output(&g, 0, 3);
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_graph_compile(ops_device(), ug_desc(&g, 1, 4), 0, &compiled);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    const float x[6] = {1.5f, -2, 3, -0.0f, 5e-39f, 6};
    float strided[7];
    memset(strided, 0xAB, sizeof strided);
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 3; ++k)
            strided[4 * r + k] = x[3 * r + k];
    float o[4][7], packed[6];
    memset(o, 0xAB, sizeof o);
    dmlcl_host_tensor in = {(void *)x, sizeof x};
    dmlcl_host_tensor out[4] = {{o[0], sizeof strided},
                                {packed, sizeof packed},
                                {o[2], sizeof strided},
                                {o[3], sizeof strided}};
    hr = dmlcl_compiled_operator_execute(compiled, 1, &in, 4, out);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_expect_arr_eq(packed, x, sizeof x);
    for (int k = 0; k < 4; k += k == 0 ? 2 : 1)
        cr_expect_arr_eq(o[k], strided, sizeof strided, "graph output %d", k);
    dmlcl_compiled_operator_release(compiled);
    ug_free(&g);
}

/*
 * A present optional node output no edge reads (DML_GRAPH_DESC's remarks exempt optional
 * outputs from connection; DirectMLX's MaxPooling with outputIndices, or its GRU with
 * GRUOutputOptions::Both, where a program uses one output): computed into temporary memory,
 * the used output exact.
 */
Test(graph, optional_output_left_unconnected)
{
    static const UINT in_sizes[4] = {1, 1, 4, 4}, out_sizes[4] = {1, 1, 2, 2};
    static const UINT two[2] = {2, 2}, one[2] = {1, 1}, zero[2] = {0, 0};
    DML_BUFFER_TENSOR_DESC b[3] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, NULL, 64, 0},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0},
        {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0}};
    DML_TENSOR_DESC t[3] = {{DML_TENSOR_TYPE_BUFFER, &b[0]},
                            {DML_TENSOR_TYPE_BUFFER, &b[1]},
                            {DML_TENSOR_TYPE_BUFFER, &b[2]}};
    DML_MAX_POOLING2_OPERATOR_DESC mp = {&t[0], &t[1], &t[2], 2, two, two, zero, zero, one};
    unit_graph g;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_MAX_POOLING2, &mp);
    ug_input(&g, 0, 0, 0);
    ug_output(&g, 0, 0);
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_graph_compile(ops_device(), ug_desc(&g, 1, 1), 0, &compiled);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    float x[16], y[4];
    for (int i = 0; i < 16; ++i)
        x[i] = (float)((i * 7) % 16);
    memset(y, 0xAB, sizeof y);
    dmlcl_host_tensor in = {x, sizeof x}, out = {y, sizeof y};
    hr = dmlcl_compiled_operator_execute(compiled, 1, &in, 1, &out);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    /* x = 0 7 14 5 / 12 3 10 1 / 8 15 6 13 / 4 11 2 9: the 2x2 windows' maxima */
    const float want[4] = {12, 14, 15, 13};
    cr_expect_arr_eq(y, want, sizeof want);
    dmlcl_compiled_operator_release(compiled);
    ug_free(&g);
}

/*
 * NCHW read as NHWC (identity through strides), a slice of H rows, a gather
 * of those rows: one indexed step whose inner dimensions are the transpose
 * (cl/indexed.cl TRANSPOSE on CPUs), against the C oracle applied node by
 * node. C 16 (whole 16-byte vectors: register blocks) and 19 (private
 * tiles); W 37 (two tiles of 16 and a narrow one); indices negative and past
 * the axis (GATHER clamps).
 */
Test(graph, layout_change_gather_fused_bit_exact)
{
    static const UINT channels[2] = {16, 19};
    const UINT N = 2, H = 12, W = 37, H0 = 2, R = 8;
    const int32_t idx[8] = {3, -1, 0, 7, -8, 5, 9, 2};
    for (int k = 0; k < 2; ++k) {
        const UINT C = channels[k];
        const UINT nhwc[4] = {N, H, W, C}, read[4] = {C * H * W, W, 1, H * W},
                   rows[4] = {N, R, W, C}, off[4] = {0, H0, 0, 0}, step[4] = {1, 1, 1, 1},
                   isz[4] = {1, 1, 1, R};
        unit_graph g;
        unit_tensor ti, to, si, so, gi, gx, go;
        ug_init(&g);
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {
            unit_tensor_set(&ti, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, read),
            unit_tensor_set(&to, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL), NULL};
        DML_SLICE_OPERATOR_DESC sl = {
            unit_tensor_set(&si, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nhwc, NULL),
            unit_tensor_set(&so, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL),
            4,
            off,
            rows,
            step};
        DML_GATHER_OPERATOR_DESC ga = {
            unit_tensor_set(&gi, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL),
            unit_tensor_set(&gx, DML_TENSOR_DATA_TYPE_INT32, 4, isz, NULL),
            unit_tensor_set(&go, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL), 1, 1};
        ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id);
        ug_node(&g, DML_OPERATOR_SLICE, &sl);
        ug_node(&g, DML_OPERATOR_GATHER, &ga);
        ug_input(&g, 0, 0, 0);
        ug_edge(&g, 0, 1, 0);
        ug_edge(&g, 1, 2, 0);
        ug_input(&g, 1, 2, 1);
        ug_output(&g, 2, 0);
        ug_desc(&g, 2, 1);
        /* The planner fuses the three into one indexed copy that tiles. */
        dmli_graph *graph;
        dmli_graph_plan *plan;
        ug_plan(&g.desc, &graph, &plan);
        cr_assert_eq(plan->n_steps, 1, "C %u: %u steps", C, plan->n_steps);
        cr_expect_eq(plan->steps[0].fused, 2);
        cr_expect_neq(dmli_indexed_tiles(&plan->steps[0].plan), 0, "C %u: the fused copy tiles", C);
        dmli_graph_plan_free(plan);
        dmli_graph_free(graph);
        /* The oracle node by node: T = the NHWC view, S = its rows H0.., out = gather(S). */
        size_t in_n = (size_t)N * C * H * W, mid_n = (size_t)N * R * W * C;
        uint32_t *in = malloc(in_n * 4), *t = malloc(in_n * 4), *s = malloc(mid_n * 4),
                 *want = malloc(mid_n * 4);
        ref_rng r = ref_rng_make(ref_mix64(0x6C61796F7574ull + k));
        for (size_t i = 0; i < in_n; ++i)
            in[i] = (uint32_t)ref_rng_next(&r);
        for (UINT n = 0; n < N; ++n)
            for (UINT h = 0; h < H; ++h)
                for (UINT w = 0; w < W; ++w)
                    for (UINT c = 0; c < C; ++c)
                        t[((n * H + h) * W + w) * C + c] = in[((n * C + c) * H + h) * W + w];
        for (UINT n = 0; n < N; ++n)
            for (UINT h = 0; h < R; ++h)
                memcpy(s + (size_t)(n * R + h) * W * C, t + (size_t)(n * H + H0 + h) * W * C,
                       (size_t)W * C * 4);
        ref_tensor sv = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL, s);
        ref_tensor xv = ref_tensor_view(DML_TENSOR_DATA_TYPE_INT32, 4, isz, NULL, (void *)idx);
        ref_tensor ov = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL, want);
        cr_assert(ref_gather(&sv, &xv, &ov, 1, 1));
        chain c = {.g = g, .n_inputs = 2, .n_outputs = 1};
        c.inputs[0] = in;
        c.input_bytes[0] = in_n * 4;
        c.inputs[1] = (void *)idx;
        c.input_bytes[1] = sizeof idx;
        c.expect[0] = want;
        c.output_bytes[0] = mid_n * 4;
        snprintf(c.log, sizeof c.log, "NCHW {%u,%u,%u,%u} as NHWC, rows %u..%u, gather of %u rows",
                 N, C, H, W, H0, H0 + R - 1, R);
        /* c.g.desc still points into g, which outlives the runs. */
        run_chain(&c, 0, k, 0x00);
        run_chain(&c, 0, k, 0xFF);
        free(in);
        free(t);
        free(s);
        free(want);
        ug_free(&g);
    }
}

/*
 * A slice and a broadcast feeding ELEMENT_WISE_ADD: rows H0.. of an NCHW batch (SLICE) plus a
 * per-channel bias broadcast over N, H, W (IDENTITY with 0 strides). The planner composes
 * both views into the map, which reads the graph's inputs directly: one kernel, no
 * temporary. The oracle is the nodes one by one on the host (a float sum is one IEEE
 * rounding: bit-exact).
 */
Test(graph, views_read_through_by_a_map_bit_exact)
{
    const UINT N = 2, C = 19, H = 9, W = 37, H0 = 2, R = 5;
    const UINT full[4] = {N, C, H, W}, rows[4] = {N, C, R, W}, off[4] = {0, 0, H0, 0},
               step[4] = {1, 1, 1, 1}, bias_read[4] = {0, 1, 0, 0};
    unit_graph g;
    unit_tensor si, so, bi, bo, aa, ab, ao;
    ug_init(&g);
    DML_SLICE_OPERATOR_DESC sl = {unit_tensor_set(&si, DML_TENSOR_DATA_TYPE_FLOAT32, 4, full, NULL),
                                  unit_tensor_set(&so, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL),
                                  4,
                                  off,
                                  rows,
                                  step};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC bias = {
        unit_tensor_set(&bi, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, bias_read),
        unit_tensor_set(&bo, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL), NULL};
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {
        unit_tensor_set(&aa, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL),
        unit_tensor_set(&ab, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL),
        unit_tensor_set(&ao, DML_TENSOR_DATA_TYPE_FLOAT32, 4, rows, NULL)};
    ug_node(&g, DML_OPERATOR_SLICE, &sl);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &bias);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_ADD, &add);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 0);
    ug_edge(&g, 0, 2, 0);
    ug_edge(&g, 1, 2, 1);
    ug_output(&g, 2, 0);
    ug_desc(&g, 2, 1);
    dmli_graph *graph;
    dmli_graph_plan *plan;
    ug_plan(&g.desc, &graph, &plan);
    cr_assert_eq(plan->n_steps, 1, "%u steps", plan->n_steps);
    cr_expect(plan->steps[0].map != NULL);
    cr_expect_eq(plan->steps[0].fused, 2);
    cr_expect_eq(plan->temp_bytes, 0);
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    size_t n = (size_t)N * C * H * W, m = (size_t)N * C * R * W;
    float *in = malloc(n * 4), *b = malloc(C * 4), *want = malloc(m * 4);
    ref_rng r = ref_rng_make(ref_mix64(0x6D61707669657773ull));
    for (size_t i = 0; i < n; ++i)
        in[i] = (float)((int64_t)(ref_rng_next(&r) % 2000001) - 1000000) / 1024.0f;
    for (UINT c = 0; c < C; ++c)
        b[c] = (float)((int64_t)(ref_rng_next(&r) % 20001) - 10000) / 3.0f;
    for (UINT i = 0; i < N; ++i)
        for (UINT c = 0; c < C; ++c)
            for (UINT h = 0; h < R; ++h)
                for (UINT w = 0; w < W; ++w)
                    want[((i * C + c) * R + h) * W + w] =
                        in[((i * C + c) * H + H0 + h) * W + w] + b[c];
    chain c = {.g = g, .n_inputs = 2, .n_outputs = 1};
    c.inputs[0] = in;
    c.input_bytes[0] = n * 4;
    c.inputs[1] = b;
    c.input_bytes[1] = C * 4;
    c.expect[0] = want;
    c.output_bytes[0] = m * 4;
    snprintf(c.log, sizeof c.log, "rows %u.. of NCHW {%u,%u,%u,%u} + a channel bias", H0, N, C, H,
             W);
    run_chain(&c, 0, 0, 0x00);
    free(in);
    free(b);
    free(want);
    ug_free(&g);
}

/*
 * A GATHER feeding element-wise arithmetic: the map reads the gathered rows through the
 * gather's indices (one kernel; the gather's output never written). Case 0, an embedding
 * lookup: rows of a [V, D] table by INT32 indices (negative ones from the end, ones past
 * the axis clamped, as DirectML's GATHER), plus a bias broadcast over the rows. Case 1, an
 * inner-axis gather by INT64 indices (the index changes along the map's run) times a tensor.
 * Case 2, case 1 as dmlcl's GATHER1 with the ZERO policy (OpenVINO's: an index outside the
 * axis reads 0) and INT32 indices. The oracle: ref_gather (case 2: the rule by hand), then
 * the float operation on the host (one IEEE rounding: exact).
 */
Test(graph, gather_read_through_by_a_map_bit_exact)
{
    for (int k = 0; k < 3; ++k) {
        const UINT V = 11, D = 37, M = 23, R = 7;
        bool inner = k >= 1, zero = k == 2;
        const UINT data_sz[4] = {1, 1, inner ? R : V, inner ? V : D}, idx_sz[4] = {1, 1, 1, M},
                   out_sz[4] = {1, 1, inner ? R : M, inner ? M : D}, bias_read[4] = {0, 0, 0, 1};
        DML_TENSOR_DATA_TYPE it = k == 1 ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32;
        unit_graph g;
        unit_tensor gi, gx, go, aa, ab, ao;
        ug_init(&g);
        DML_GATHER_OPERATOR_DESC ga = {
            unit_tensor_set(&gi, DML_TENSOR_DATA_TYPE_FLOAT32, 4, data_sz, NULL),
            unit_tensor_set(&gx, it, 4, idx_sz, NULL),
            unit_tensor_set(&go, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sz, NULL), inner ? 3u : 2u,
            1};
        DMLCL_GATHER1_OPERATOR_DESC ga1 = {ga.InputTensor,
                                           ga.IndicesTensor,
                                           ga.OutputTensor,
                                           3,
                                           1,
                                           0,
                                           DMLCL_OUT_OF_RANGE_POLICY_ZERO,
                                           1};
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC op = {
            unit_tensor_set(&aa, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sz, NULL),
            unit_tensor_set(&ab, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sz, inner ? NULL : bias_read),
            unit_tensor_set(&ao, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sz, NULL)};
        if (zero)
            ug_node(&g, (DML_OPERATOR_TYPE)DMLCL_OPERATOR_GATHER1, &ga1);
        else
            ug_node(&g, DML_OPERATOR_GATHER, &ga);
        ug_node(&g, inner ? DML_OPERATOR_ELEMENT_WISE_MULTIPLY : DML_OPERATOR_ELEMENT_WISE_ADD,
                &op);
        ug_input(&g, 0, 0, 0);
        ug_input(&g, 1, 0, 1);
        ug_input(&g, 2, 1, 1);
        ug_edge(&g, 0, 1, 0);
        ug_output(&g, 1, 0);
        ug_desc(&g, 3, 1);
        dmli_graph *graph;
        dmli_graph_plan *plan;
        ug_plan(&g.desc, &graph, &plan);
        cr_assert_eq(plan->n_steps, 1, "case %d: %u steps", k, plan->n_steps);
        cr_assert(plan->steps[0].map != NULL);
        cr_expect(plan->steps[0].map->gather.on && plan->steps[0].map->n_inputs == 3);
        cr_expect_eq(plan->temp_bytes, 0);
        dmli_graph_plan_free(plan);
        dmli_graph_free(graph);
        size_t dn = (size_t)data_sz[2] * data_sz[3], on = (size_t)out_sz[2] * out_sz[3],
               bn = inner ? on : D;
        float *data = malloc(dn * 4), *b = malloc(bn * 4), *gathered = malloc(on * 4),
              *want = malloc(on * 4);
        int64_t idx64[23];
        int32_t idx32[23];
        ref_rng r = ref_rng_make(ref_mix64(0x676174686D6170ull + (uint64_t)k));
        for (size_t i = 0; i < dn; ++i)
            data[i] = (float)((int64_t)(ref_rng_next(&r) % 2000001) - 1000000) / 1024.0f;
        for (size_t i = 0; i < bn; ++i)
            b[i] = (float)((int64_t)(ref_rng_next(&r) % 20001) - 10000) / 3.0f;
        for (UINT i = 0; i < M; ++i) {
            idx64[i] = (int64_t)(ref_rng_next(&r) % (2 * V + 6)) - (int64_t)V - 3; /* -V-3 .. V+2 */
            idx32[i] = (int32_t)idx64[i];
        }
        void *idx = k == 1 ? (void *)idx64 : (void *)idx32;
        if (zero) { /* [R, V] by columns: from the end when negative, 0 outside the axis */
            for (UINT row = 0; row < R; ++row)
                for (UINT i = 0; i < M; ++i) {
                    int64_t j = idx32[i] < 0 ? idx32[i] + (int64_t)V : idx32[i];
                    gathered[row * M + i] = j >= 0 && j < V ? data[row * V + (UINT)j] : 0.0f;
                }
        } else {
            ref_tensor dv = ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 4, data_sz, NULL, data);
            ref_tensor xv = ref_tensor_view(it, 4, idx_sz, NULL, idx);
            ref_tensor gv =
                ref_tensor_view(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sz, NULL, gathered);
            cr_assert(ref_gather(&dv, &xv, &gv, inner ? 3 : 2, 1));
        }
        for (size_t i = 0; i < on; ++i)
            want[i] = inner ? gathered[i] * b[i] : gathered[i] + b[i % D];
        chain c = {.g = g, .n_inputs = 3, .n_outputs = 1};
        c.inputs[0] = data;
        c.input_bytes[0] = dn * 4;
        c.inputs[1] = idx;
        c.input_bytes[1] = (uint64_t)M * (k == 1 ? 8 : 4);
        c.inputs[2] = b;
        c.input_bytes[2] = bn * 4;
        c.expect[0] = want;
        c.output_bytes[0] = on * 4;
        snprintf(c.log, sizeof c.log, "%s",
                 inner ? "inner-axis gather (INT64) times a tensor"
                       : "embedding gather (INT32) plus a bias");
        run_chain(&c, 0, k, 0x00);
        free(data);
        free(b);
        free(gathered);
        free(want);
        ug_free(&g);
    }
}

/*
 * Chains of element-wise nodes (FLOAT32): the planner fuses them into one map of up to eight
 * operations (tests/unit/graph_plan.c holds its decisions). Each random chain runs twice:
 * fused, and apart, every intermediate also a graph output (which keeps each node its own
 * step: the single-operation kernels that the element-wise suites check against the oracle).
 * Fusing passes each float result on as it is, so the two agree bit for bit; where every
 * operation is exactly rounded (ADD, SUBTRACT, MULTIPLY, MAX, MIN, ABS, NEGATE, RELU, ScaleBias
 * as one fma), both also equal the host's float arithmetic node by node.
 */
typedef struct ew_kind {
    DML_OPERATOR_TYPE type;
    int arity;
    bool scale_bias; /* the descriptor has a ScaleBias */
    bool exact;      /* host float arithmetic rounds as the device must */
    const char *name;
} ew_kind;

static const ew_kind ew_kinds[] = {
    {DML_OPERATOR_ELEMENT_WISE_ADD, 2, false, true, "ADD"},
    {DML_OPERATOR_ELEMENT_WISE_SUBTRACT, 2, false, true, "SUBTRACT"},
    {DML_OPERATOR_ELEMENT_WISE_MULTIPLY, 2, false, true, "MULTIPLY"},
    {DML_OPERATOR_ELEMENT_WISE_MAX, 2, false, true, "MAX"},
    {DML_OPERATOR_ELEMENT_WISE_MIN, 2, false, true, "MIN"},
    {DML_OPERATOR_ELEMENT_WISE_ABS, 1, true, true, "ABS"},
    {DML_OPERATOR_ELEMENT_WISE_NEGATE, 1, false, true, "NEGATE"},
    {DML_OPERATOR_ACTIVATION_RELU, 1, false, true, "RELU"},
    {DML_OPERATOR_ELEMENT_WISE_DIVIDE, 2, false, false, "DIVIDE"},
    {DML_OPERATOR_ELEMENT_WISE_EXP, 1, true, false, "EXP"},
    {DML_OPERATOR_ELEMENT_WISE_ERF, 1, true, false, "ERF"},
    {DML_OPERATOR_ELEMENT_WISE_TANH, 1, true, false, "TANH"},
    {DML_OPERATOR_ACTIVATION_SIGMOID, 1, false, false, "SIGMOID"},
    {DML_OPERATOR_ACTIVATION_GELU, 1, false, false, "GELU"},
};
#define EW_KINDS (sizeof ew_kinds / sizeof ew_kinds[0])
#define EW_MAX_NODES 10

typedef struct ew_chain {
    int n;
    const ew_kind *kind[EW_MAX_NODES];
    int operand[EW_MAX_NODES]; /* a binary node's second operand: graph input 0 or its own */
    bool sb[EW_MAX_NODES];
    DML_SCALE_BIAS scale_bias[EW_MAX_NODES];
    UINT n_inputs;
} ew_chain;

/* The nodes of ch as a graph; apart: every node's output is a graph output (the last one
 * graph output 0). */
static void ew_graph(const ew_chain *ch, const UINT *sizes, bool apart, unit_graph *g)
{
    ug_init(g);
    for (int i = 0; i < ch->n; ++i) {
        const ew_kind *k = ch->kind[i];
        unit_tensor a, b, o;
        const DML_TENSOR_DESC *ta =
            unit_tensor_set(&a, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL);
        const DML_TENSOR_DESC *tb =
            unit_tensor_set(&b, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL);
        const DML_TENSOR_DESC *to =
            unit_tensor_set(&o, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, NULL);
        const DML_SCALE_BIAS *sb = ch->sb[i] ? &ch->scale_bias[i] : NULL;
        if (k->arity == 2) {
            DML_ELEMENT_WISE_ADD_OPERATOR_DESC d = {ta, tb, to};
            ug_node(g, k->type, &d);
        } else if (k->scale_bias) {
            DML_ELEMENT_WISE_EXP_OPERATOR_DESC d = {ta, to, sb};
            ug_node(g, k->type, &d);
        } else {
            DML_ACTIVATION_RELU_OPERATOR_DESC d = {ta, to};
            ug_node(g, k->type, &d);
        }
        if (i == 0)
            ug_input(g, 0, 0, 0);
        else
            ug_edge(g, (UINT)i - 1, (UINT)i, 0);
        if (k->arity == 2)
            ug_input(g, (UINT)ch->operand[i], (UINT)i, 1);
        if (apart || i == ch->n - 1)
            ug_output(g, (UINT)i, i == ch->n - 1 ? 0 : (UINT)i + 1);
    }
    ug_desc(g, ch->n_inputs, apart ? (UINT)ch->n : 1);
}

/* Runs the graph of g once on inputs (each n floats), returning its output 0 (n floats). */
static float *ew_dispatch(const unit_graph *g, UINT n_inputs, UINT n_outputs, float *const *inputs,
                          size_t n)
{
    dmlcl_compiled_operator *compiled;
    cr_assert(
        SUCCEEDED(dmlcl_graph_compile(ops_device(), &g->desc, DML_EXECUTION_FLAG_NONE, &compiled)),
        "%s", dmlcl_last_error());
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(compiled);
    dev_buf in[CHAIN_MAX_IO], out[CHAIN_MAX_IO], temp;
    DML_BINDING_DESC in_desc[CHAIN_MAX_IO], out_desc[CHAIN_MAX_IO];
    for (UINT i = 0; i < n_inputs; ++i) {
        buf_make(&in[i], n * 4, inputs[i], 0);
        in_desc[i] = in[i].desc;
    }
    for (UINT o = 0; o < n_outputs; ++o) {
        buf_make(&out[o], n * 4, NULL, 0);
        out_desc[o] = out[o].desc;
    }
    buf_make(&temp, props.TemporaryResourceSize, NULL, 0);
    dmlcl_binding_table *table;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(compiled, &table)));
    HRESULT hr = dmlcl_binding_table_bind_inputs(table, n_inputs, in_desc);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(table, n_outputs, out_desc);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_temporary(table,
                                                props.TemporaryResourceSize ? &temp.desc : NULL);
    cl_event done = NULL;
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(table, NULL, 0, NULL, &done);
    cr_assert(SUCCEEDED(hr), "%s", dmlcl_last_error());
    cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    unsigned char *got = buf_read(&out[0]);
    float *result = malloc(n * 4);
    memcpy(result, got + GUARD, n * 4);
    free(got);
    dmlcl_binding_table_release(table);
    dmlcl_compiled_operator_release(compiled);
    for (UINT i = 0; i < n_inputs; ++i)
        buf_free(&in[i]);
    for (UINT o = 0; o < n_outputs; ++o)
        buf_free(&out[o]);
    buf_free(&temp);
    return result;
}

/* The host's float arithmetic for the exactly rounded kinds (NaN never arises: finite inputs,
 * no division). */
static float ew_host(const ew_kind *k, float a, float b, const DML_SCALE_BIAS *sb)
{
    if (sb) {
        volatile float p = fmaf(a, sb->Scale, sb->Bias); /* DirectML: x * Scale + Bias, once */
        a = p;
    }
    switch (k->type) {
    case DML_OPERATOR_ELEMENT_WISE_ADD: return a + b;
    case DML_OPERATOR_ELEMENT_WISE_SUBTRACT: return a - b;
    case DML_OPERATOR_ELEMENT_WISE_MULTIPLY: return a * b;
    case DML_OPERATOR_ELEMENT_WISE_MAX: return a > b || (a == b && !signbit(a)) ? a : b;
    case DML_OPERATOR_ELEMENT_WISE_MIN: return a < b || (a == b && signbit(a)) ? a : b;
    case DML_OPERATOR_ELEMENT_WISE_ABS: return fabsf(a);
    case DML_OPERATOR_ELEMENT_WISE_NEGATE: return -a;
    default: return a > 0 ? a : 0.0f; /* RELU */
    }
}

Test(graph, element_wise_chains_fused_bit_exact)
{
    uint64_t seed = ref_test_seed(0x6577636861696eull);
    const UINT sizes[3] = {3, 17, 41};
    const size_t n = 3 * 17 * 41;
    int fused_steps = 0, chains = (int)ops_case_count(24);
    for (int t = 0; t < chains; ++t) {
        ref_rng r = ref_rng_make(ref_mix64(seed + (uint64_t)t));
        bool exact_only = t % 3 == 0;
        ew_chain ch = {.n = 2 + (int)(ref_rng_next(&r) % 8), .n_inputs = 1}; /* 2 to 9 nodes */
        char log[512];
        int len = snprintf(log, sizeof log, "seed 0x%llx chain %d:", (unsigned long long)seed, t);
        bool exact = true;
        for (int i = 0; i < ch.n; ++i) {
            const ew_kind *k;
            do
                k = &ew_kinds[ref_rng_next(&r) % EW_KINDS];
            while (exact_only && !k->exact);
            ch.kind[i] = k;
            exact = exact && k->exact;
            ch.operand[i] = 0;
            if (k->arity == 2 && ref_rng_next(&r) % 3 != 0 && ch.n_inputs < 8)
                ch.operand[i] = (int)ch.n_inputs++;
            ch.sb[i] = k->scale_bias && ref_rng_next(&r) % 2;
            ch.scale_bias[i] = (DML_SCALE_BIAS){(float)((int)(ref_rng_next(&r) % 64) - 32) / 16.0f,
                                                (float)((int)(ref_rng_next(&r) % 64) - 32) / 8.0f};
            len += snprintf(log + len, sizeof log - (size_t)len, " %s%s(x, in%d)", k->name,
                            ch.sb[i] ? "+sb" : "", k->arity == 2 ? ch.operand[i] : -1);
        }
        float *inputs[CHAIN_MAX_IO];
        for (UINT i = 0; i < ch.n_inputs; ++i) {
            inputs[i] = malloc(n * 4);
            for (size_t e = 0; e < n; ++e) /* finite, nonzero, some equal across inputs */
                inputs[i][e] = (float)((int)(ref_rng_next(&r) % 4001) - 2000) / 512.0f + 0.25f;
        }
        unit_graph fused, apart;
        ew_graph(&ch, sizes, false, &fused);
        ew_graph(&ch, sizes, true, &apart);
        dmli_graph *graph;
        dmli_graph_plan *plan;
        ug_plan(&fused.desc, &graph, &plan);
        fused_steps += plan->n_steps == 1;
        /* Up to eight operations and eight inputs are one map. */
        if (ch.n <= 8)
            cr_expect_eq(plan->n_steps, 1, "%s: %u steps", log, plan->n_steps);
        dmli_graph_plan_free(plan);
        dmli_graph_free(graph);
        float *got = ew_dispatch(&fused, ch.n_inputs, 1, inputs, n);
        float *want = ew_dispatch(&apart, ch.n_inputs, (UINT)ch.n, inputs, n);
        for (size_t e = 0; e < n; ++e)
            cr_assert(memcmp(&got[e], &want[e], 4) == 0, "%s: element %zu fused %a, apart %a", log,
                      e, (double)got[e], (double)want[e]);
        if (exact) {
            for (size_t e = 0; e < n; ++e) {
                float x = inputs[0][e];
                for (int i = 0; i < ch.n; ++i)
                    x = ew_host(ch.kind[i], x, inputs[ch.operand[i]][e],
                                ch.sb[i] ? &ch.scale_bias[i] : NULL);
                cr_assert(memcmp(&x, &got[e], 4) == 0, "%s: element %zu device %a, host %a", log, e,
                          (double)got[e], (double)x);
            }
        }
        free(got);
        free(want);
        for (UINT i = 0; i < ch.n_inputs; ++i)
            free(inputs[i]);
        ug_free(&fused);
        ug_free(&apart);
    }
    cr_log_info("element-wise chains: %d run, %d as one step", chains, fused_steps);
}
