/* SPDX-License-Identifier: MIT */
/*
 * DML_TENSOR_FLAG_OWNED_BY_DML on the device: an owned input is given once,
 * to dmlcl_compiled_operator_initialize, which copies it into the persistent
 * resource (PersistentResourceSize: each owned input at a multiple of 256,
 * in input order); execution binds it as DML_BINDING_TYPE_NONE and reads the
 * copy. The sources are overwritten after initialization, so an output that
 * still matches came from the copies. Expected values: a direct loop over
 * the gather's definition (out[r][c] = data[idx[r]][c]), not the library.
 * Also every rule around it, for operators and graphs.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "graph_support.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "support.h"

OPS_DEVICE_SUITE(persistent);

enum { ROWS = 5, COLS = 4, PICKS = 3, PAD = 256 };

static const int32_t k_idx[PICKS] = {4, 0, 2};

typedef struct gather_case {
    unit_tensor data, idx, out;
    DML_GATHER_OPERATOR_DESC desc;
    DML_OPERATOR_DESC op;
    float values[ROWS * COLS];
    float want[PICKS * COLS];
} gather_case;

/* GATHER data [5,4] f32 by indices [1,3] INT32 along axis 0; owned: which inputs carry the flag
 * (bit 0 data, bit 1 indices). */
static void gather_case_make(gather_case *g, unsigned owned)
{
    const UINT ds[2] = {ROWS, COLS}, is[2] = {1, PICKS}, os[2] = {PICKS, COLS};
    unit_tensor_set(&g->data, DML_TENSOR_DATA_TYPE_FLOAT32, 2, ds, NULL);
    unit_tensor_set(&g->idx, DML_TENSOR_DATA_TYPE_INT32, 2, is, NULL);
    unit_tensor_set(&g->out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, os, NULL);
    if (owned & 1)
        g->data.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    if (owned & 2)
        g->idx.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    g->desc = (DML_GATHER_OPERATOR_DESC){&g->data.desc, &g->idx.desc, &g->out.desc, 0, 1};
    g->op = (DML_OPERATOR_DESC){DML_OPERATOR_GATHER, &g->desc};
    for (int i = 0; i < ROWS * COLS; ++i)
        g->values[i] = 0.25f * (float)i - 1.0f;
    for (int r = 0; r < PICKS; ++r)
        for (int c = 0; c < COLS; ++c)
            g->want[r * COLS + c] = g->values[k_idx[r] * COLS + c];
}

static dmlcl_compiled_operator *compile(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op;
    dmlcl_compiled_operator *c;
    cr_assert(SUCCEEDED(dmlcl_operator_create(ops_device(), desc, &op)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_operator_compile(op, 0, &c)), "%s", dmlcl_last_error());
    dmlcl_operator_release(op);
    return c;
}

/* A buffer of PAD + bytes + PAD, the middle bound; contents written when data is given. */
typedef struct buf {
    cl_mem mem;
    DML_BUFFER_BINDING binding;
    DML_BINDING_DESC desc;
} buf;

static void buf_make(buf *b, uint64_t bytes, const void *data)
{
    cl_int err;
    b->mem = clCreateBuffer(dmlcl_device_context(ops_device()), CL_MEM_READ_WRITE,
                            (size_t)(2 * PAD + bytes), NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    unsigned char fill = 0xC3;
    cr_assert_eq(clEnqueueFillBuffer(dmlcl_device_queue(ops_device()), b->mem, &fill, 1, 0,
                                     (size_t)(2 * PAD + bytes), 0, NULL, NULL),
                 CL_SUCCESS);
    if (data)
        cr_assert_eq(clEnqueueWriteBuffer(dmlcl_device_queue(ops_device()), b->mem, CL_TRUE, PAD,
                                          (size_t)bytes, data, 0, NULL, NULL),
                     CL_SUCCESS);
    b->binding = (DML_BUFFER_BINDING){(ID3D12Resource *)b->mem, PAD, bytes};
    b->desc = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &b->binding};
}

/* Overwrites the bound bytes: what the operator reads afterwards must be its own copy. */
static void buf_spoil(const buf *b)
{
    unsigned char junk = 0xEE;
    cr_assert_eq(clEnqueueFillBuffer(dmlcl_device_queue(ops_device()), b->mem, &junk, 1,
                                     (size_t)b->binding.Offset, (size_t)b->binding.SizeInBytes, 0,
                                     NULL, NULL),
                 CL_SUCCESS);
}

static void buf_release(buf *data, buf *idx, buf *out, buf *pers)
{
    const buf *all[4] = {data, idx, out, pers};
    for (int i = 0; i < 4; ++i)
        clReleaseMemObject(all[i]->mem);
}

static void buf_read(const buf *b, void *dst, size_t bytes)
{
    cr_assert_eq(clEnqueueReadBuffer(dmlcl_device_queue(ops_device()), b->mem, CL_TRUE, PAD, bytes,
                                     dst, 0, NULL, NULL),
                 CL_SUCCESS);
}

static const DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, NULL};

Test(persistent, owned_inputs_are_copied_at_initialization)
{
    /* Data owned, indices owned, both; the persistent resource bound before or after the
     * inputs. */
    for (unsigned owned = 1; owned <= 3; ++owned)
        for (int persistent_first = 0; persistent_first < 2; ++persistent_first) {
            gather_case g;
            gather_case_make(&g, owned);
            dmlcl_compiled_operator *c = compile(&g.op);
            DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
            /* 80 bytes of data, 12 of indices, each in its own 256-byte place. */
            uint64_t want_size = (owned & 1 ? 256 : 0) + (owned & 2 ? 256 : 0);
            cr_expect_eq(props.PersistentResourceSize, want_size, "owned %u: %llu", owned,
                         (unsigned long long)props.PersistentResourceSize);
            cr_expect_eq(props.TemporaryResourceSize, 0);

            buf data, idx, out, pers;
            buf_make(&data, g.data.buf.TotalTensorSizeInBytes, g.values);
            buf_make(&idx, g.idx.buf.TotalTensorSizeInBytes, k_idx);
            buf_make(&out, g.out.buf.TotalTensorSizeInBytes, NULL);
            buf_make(&pers, props.PersistentResourceSize, NULL);
            DML_BINDING_DESC init_in[2] = {owned & 1 ? data.desc : none,
                                           owned & 2 ? idx.desc : none};
            cl_event done = NULL;
            cr_assert(SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, 2, init_in, &pers.desc,
                                                                   0, NULL, &done)),
                      "%s", dmlcl_last_error());
            cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
            clReleaseEvent(done);
            if (owned & 1)
                buf_spoil(&data);
            if (owned & 2)
                buf_spoil(&idx);

            DML_BINDING_DESC exec_in[2] = {owned & 1 ? none : data.desc,
                                           owned & 2 ? none : idx.desc};
            dmlcl_binding_table *t;
            cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
            if (persistent_first)
                cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers.desc)), "%s",
                          dmlcl_last_error());
            cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(t, 2, exec_in)), "%s",
                      dmlcl_last_error());
            cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out.desc)), "%s",
                      dmlcl_last_error());
            if (!persistent_first)
                cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers.desc)), "%s",
                          dmlcl_last_error());
            cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL)), "%s",
                      dmlcl_last_error());
            float got[PICKS * COLS];
            buf_read(&out, got, sizeof got);
            cr_expect_arr_eq(got, g.want, sizeof got, "owned %u, persistent bound %s", owned,
                             persistent_first ? "first" : "last");
            dmlcl_binding_table_release(t);
            dmlcl_compiled_operator_release(c);
            buf_release(&data, &idx, &out, &pers);
        }
}

Test(persistent, execute_on_host_memory_takes_owned_inputs_as_inputs)
{
    gather_case g;
    gather_case_make(&g, 3);
    dmlcl_compiled_operator *c = compile(&g.op);
    float got[PICKS * COLS];
    dmlcl_host_tensor in[2] = {{g.values, sizeof g.values}, {(void *)k_idx, sizeof k_idx}};
    dmlcl_host_tensor out = {got, sizeof got};
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_execute(c, 2, in, 1, &out)), "%s",
              dmlcl_last_error());
    cr_expect_arr_eq(got, g.want, sizeof got);
    dmlcl_compiled_operator_release(c);
}

Test(persistent, rules)
{
    gather_case g;
    gather_case_make(&g, 2); /* the indices owned: 256 bytes of persistent resource */
    dmlcl_compiled_operator *c = compile(&g.op);
    buf data, idx, out, pers;
    buf_make(&data, g.data.buf.TotalTensorSizeInBytes, g.values);
    buf_make(&idx, g.idx.buf.TotalTensorSizeInBytes, k_idx);
    buf_make(&out, g.out.buf.TotalTensorSizeInBytes, NULL);
    buf_make(&pers, 256, NULL);

    /* Initialization: every input slot, the owned ones bound, the others not. */
    DML_BINDING_DESC init_in[2] = {none, idx.desc};
    unit_expect_error(
        dmlcl_compiled_operator_initialize(c, NULL, 1, init_in, &pers.desc, 0, NULL, NULL),
        E_INVALIDARG, "count (1) must be the input count (2)", NULL);
    DML_BINDING_DESC both[2] = {data.desc, idx.desc};
    unit_expect_error(
        dmlcl_compiled_operator_initialize(c, NULL, 2, both, &pers.desc, 0, NULL, NULL),
        E_INVALIDARG, "InputTensor", "only inputs with DML_TENSOR_FLAG_OWNED_BY_DML");
    DML_BINDING_DESC neither[2] = {none, none};
    unit_expect_error(
        dmlcl_compiled_operator_initialize(c, NULL, 2, neither, &pers.desc, 0, NULL, NULL),
        E_INVALIDARG, "IndicesTensor", "the tensor is required");
    unit_expect_error(dmlcl_compiled_operator_initialize(c, NULL, 2, init_in, NULL, 0, NULL, NULL),
                      E_INVALIDARG, "persistent resource (PersistentResourceSize 256)",
                      "the tensor is required");
    /* The copy may not land on its own source. */
    DML_BUFFER_BINDING onto = {(ID3D12Resource *)idx.mem, PAD, 256};
    DML_BINDING_DESC onto_desc = {DML_BINDING_TYPE_BUFFER, &onto};
    unit_expect_error(
        dmlcl_compiled_operator_initialize(c, NULL, 2, init_in, &onto_desc, 0, NULL, NULL),
        E_INVALIDARG, "overlaps the persistent resource it is copied into", NULL);
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, 2, init_in, &pers.desc, 0, NULL,
                                                           NULL)),
              "%s", dmlcl_last_error());

    /* Execution: the owned input is not bound again; the persistent resource is. */
    dmlcl_binding_table *t;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
    unit_expect_error(dmlcl_binding_table_bind_inputs(t, 2, both), E_INVALIDARG,
                      "binding 1 (IndicesTensor).Type (1) must be DML_BINDING_TYPE_NONE",
                      "DML_TENSOR_FLAG_OWNED_BY_DML");
    DML_BINDING_DESC exec_in[2] = {data.desc, none};
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(t, 2, exec_in)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out.desc)));
    unit_expect_error(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL), E_INVALIDARG,
                      "needs BindPersistentResource first", "PersistentResourceSize 256");
    unit_expect_error(dmlcl_binding_table_bind_persistent(t, NULL), E_INVALIDARG,
                      "the tensor is required", NULL);
    pers.binding.SizeInBytes = 255;
    unit_expect_error(dmlcl_binding_table_bind_persistent(t, &pers.desc), E_INVALIDARG,
                      "SizeInBytes (255) must be at least", NULL);
    pers.binding.SizeInBytes = 256;
    pers.binding.Offset = 128;
    unit_expect_error(dmlcl_binding_table_bind_persistent(t, &pers.desc), E_INVALIDARG,
                      "Offset (128) must be a multiple of 256", NULL);
    /* An output on the persistent resource would overwrite the owned copy. */
    pers.binding.Offset = PAD;
    DML_BUFFER_BINDING over = {(ID3D12Resource *)pers.mem, PAD, 48};
    DML_BINDING_DESC over_desc = {DML_BINDING_TYPE_BUFFER, &over};
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers.desc)), "%s",
              dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &over_desc)));
    unit_expect_error(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL), E_INVALIDARG, "overlap",
                      NULL);
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out.desc)));
    cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL)), "%s",
              dmlcl_last_error());
    float got[PICKS * COLS];
    buf_read(&out, got, sizeof got);
    cr_expect_arr_eq(got, g.want, sizeof got);
    dmlcl_binding_table_release(t);
    dmlcl_compiled_operator_release(c);

    /* The flag is for inputs only; an operator without owned inputs needs nothing. */
    gather_case h;
    gather_case_make(&h, 0);
    h.out.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    dmlcl_operator *op;
    unit_expect_error(dmlcl_operator_create(ops_device(), &h.op, &op), E_INVALIDARG,
                      "OutputTensor.Flags (DML_TENSOR_FLAG_OWNED_BY_DML) is allowed on inputs only",
                      NULL);
    h.out.buf.Flags = DML_TENSOR_FLAG_NONE;
    c = compile(&h.op);
    cr_expect_eq(dmlcl_compiled_operator_binding_properties(c).PersistentResourceSize, 0);
    cr_expect(SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, 0, NULL, NULL, 0, NULL, NULL)),
              "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
    cr_expect(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, NULL)), "%s", dmlcl_last_error());
    /* A buffer where none is needed: refused, as DirectML refuses it (microsoft/DirectML#65). */
    unit_expect_error(dmlcl_binding_table_bind_persistent(t, &pers.desc), E_INVALIDARG,
                      "a buffer is bound as the persistent resource, which is not needed",
                      "PersistentResourceSize 0");
    unit_expect_error(
        dmlcl_compiled_operator_initialize(c, NULL, 0, NULL, &pers.desc, 0, NULL, NULL),
        E_INVALIDARG, "initialize: BindOutputs (the persistent resource)", "not needed");
    DML_BINDING_DESC array = {DML_BINDING_TYPE_BUFFER_ARRAY, NULL};
    unit_expect_error(dmlcl_binding_table_bind_persistent(t, &array), E_INVALIDARG,
                      "must be DML_BINDING_TYPE_BUFFER (1) or NONE (0)", NULL);
    dmlcl_binding_table_release(t);
    dmlcl_compiled_operator_release(c);
    buf_release(&data, &idx, &out, &pers);
}

/* Graph input 0 (data, owned) and 1 (indices) -> GATHER -> SLICE1 of its first two rows
 * (slice_owned: the slice's input has the flag too). */
static void owned_graph(unit_graph *ug, gather_case *g, unit_tensor *sin, unit_tensor *sout,
                        DML_SLICE1_OPERATOR_DESC *slice, bool slice_owned)
{
    static const UINT offsets[2] = {0, 0}, sizes[2] = {2, COLS};
    static const INT strides[2] = {1, 1};
    const UINT os[2] = {PICKS, COLS}, ss[2] = {2, COLS};
    gather_case_make(g, 1);
    unit_tensor_set(sin, DML_TENSOR_DATA_TYPE_FLOAT32, 2, os, NULL);
    unit_tensor_set(sout, DML_TENSOR_DATA_TYPE_FLOAT32, 2, ss, NULL);
    if (slice_owned)
        sin->buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    *slice = (DML_SLICE1_OPERATOR_DESC){&sin->desc, &sout->desc, 2, offsets, sizes, strides};
    ug_init(ug);
    ug_node(ug, DML_OPERATOR_GATHER, &g->desc);
    ug_node(ug, DML_OPERATOR_SLICE1, slice);
    ug_input(ug, 0, 0, 0);
    ug_input(ug, 1, 0, 1);
    ug_edge(ug, 0, 1, 0);
    ug_output(ug, 1, 0);
    ug_desc(ug, 2, 1);
}

Test(persistent, graph_inputs_owned_by_dml)
{
    unit_graph ug;
    gather_case g;
    unit_tensor sin, sout;
    DML_SLICE1_OPERATOR_DESC slice;
    owned_graph(&ug, &g, &sin, &sout, &slice, false);
    dmlcl_compiled_operator *c;
    cr_assert(SUCCEEDED(dmlcl_graph_compile(ops_device(), &ug.desc, 0, &c)), "%s",
              dmlcl_last_error());
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
    cr_expect_eq(props.PersistentResourceSize, 256);
    buf data, idx, out, pers;
    buf_make(&data, g.data.buf.TotalTensorSizeInBytes, g.values);
    buf_make(&idx, g.idx.buf.TotalTensorSizeInBytes, k_idx);
    buf_make(&out, sout.buf.TotalTensorSizeInBytes, NULL);
    buf_make(&pers, 256, NULL);
    DML_BINDING_DESC init_in[2] = {data.desc, none};
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, 2, init_in, &pers.desc, 0, NULL,
                                                           NULL)),
              "%s", dmlcl_last_error());
    buf_spoil(&data);
    dmlcl_binding_table *t;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
    DML_BINDING_DESC exec_in[2] = {data.desc, idx.desc};
    unit_expect_error(dmlcl_binding_table_bind_inputs(t, 2, exec_in), E_INVALIDARG, "graph input 0",
                      "must be DML_BINDING_TYPE_NONE");
    exec_in[0] = none;
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(t, 2, exec_in)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out.desc)));
    unit_expect_error(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL), E_INVALIDARG,
                      "graph: RecordDispatch needs BindPersistentResource first", NULL);
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers.desc)), "%s",
              dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL)), "%s",
              dmlcl_last_error());
    float got[2 * COLS];
    buf_read(&out, got, sizeof got);
    cr_expect_arr_eq(got, g.want, sizeof got);

    /* The synchronous call stages the owned input like any other. */
    float host_got[2 * COLS];
    dmlcl_host_tensor in[2] = {{g.values, sizeof g.values}, {(void *)k_idx, sizeof k_idx}};
    dmlcl_host_tensor hout = {host_got, sizeof host_got};
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_execute(c, 2, in, 1, &hout)), "%s",
              dmlcl_last_error());
    cr_expect_arr_eq(host_got, g.want, sizeof host_got);
    dmlcl_binding_table_release(t);
    dmlcl_compiled_operator_release(c);
    ug_free(&ug);
    buf_release(&data, &idx, &out, &pers);
}

Test(persistent, graph_rules_for_owned_tensors)
{
    /* An owned tensor is given at initialization: not another node's output. */
    unit_graph ug;
    gather_case g;
    unit_tensor sin, sout;
    DML_SLICE1_OPERATOR_DESC slice;
    owned_graph(&ug, &g, &sin, &sout, &slice, true);
    dmlcl_compiled_operator *c;
    unit_expect_error(dmlcl_graph_compile(ops_device(), &ug.desc, 0, &c), E_INVALIDARG,
                      "IntermediateEdges[0]", "takes a graph input edge");
    ug_free(&ug);

    /* The readers of one graph input agree on the flag. */
    gather_case a, b;
    gather_case_make(&a, 1);
    gather_case_make(&b, 0);
    ug_init(&ug);
    ug_node(&ug, DML_OPERATOR_GATHER, &a.desc);
    ug_node(&ug, DML_OPERATOR_GATHER, &b.desc);
    ug_input(&ug, 0, 0, 0);
    ug_input(&ug, 1, 0, 1);
    ug_input(&ug, 0, 1, 0);
    ug_input(&ug, 1, 1, 1);
    ug_output(&ug, 0, 0);
    ug_output(&ug, 1, 1);
    ug_desc(&ug, 2, 2);
    unit_expect_error(dmlcl_graph_compile(ops_device(), &ug.desc, 0, &c), E_INVALIDARG,
                      "graph input 0", "readers of a graph input agree");
    ug_free(&ug);
}

/* ---- An owned convolution filter, packed at initialization ---------------------------------
 * CONVOLUTION [2, 6, 7, 5] x [5, 6, 3, 3], pad 1, a bias; the filter owned. Where the kernel
 * packs its filter (conv_chan, CPUs: cl/conv.cl conv_chan_pack) it does so once, at
 * initialization, into the persistent resource past the filter's copy: so spoiling that copy
 * after initialization changes nothing there; everywhere the output follows the filter given
 * to the latest initialization. Small integers: every sum exact, the output compared exactly
 * with a direct loop over the definition. */
enum { CN = 2, CC = 6, CH = 7, CW = 5, CO = 5, CK = 3 };

typedef struct conv_owned {
    unit_tensor x, w, b, y;
    DML_CONVOLUTION_OPERATOR_DESC desc;
    DML_OPERATOR_DESC op;
    float xs[CN * CC * CH * CW], ws[CO * CC * CK * CK], bs[CO];
} conv_owned;

static void conv_owned_make(conv_owned *k)
{
    static const UINT strides[2] = {1, 1}, dil[2] = {1, 1}, pad[2] = {1, 1}, opad[2] = {0, 0};
    const UINT xs[4] = {CN, CC, CH, CW}, wsz[4] = {CO, CC, CK, CK}, bsz[4] = {1, CO, 1, 1},
               ys[4] = {CN, CO, CH, CW};
    unit_tensor_set(&k->x, DML_TENSOR_DATA_TYPE_FLOAT32, 4, xs, NULL);
    unit_tensor_set(&k->w, DML_TENSOR_DATA_TYPE_FLOAT32, 4, wsz, NULL);
    unit_tensor_set(&k->b, DML_TENSOR_DATA_TYPE_FLOAT32, 4, bsz, NULL);
    unit_tensor_set(&k->y, DML_TENSOR_DATA_TYPE_FLOAT32, 4, ys, NULL);
    k->w.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    k->desc = (DML_CONVOLUTION_OPERATOR_DESC){&k->x.desc,
                                              &k->w.desc,
                                              &k->b.desc,
                                              &k->y.desc,
                                              DML_CONVOLUTION_MODE_CROSS_CORRELATION,
                                              DML_CONVOLUTION_DIRECTION_FORWARD,
                                              2,
                                              strides,
                                              dil,
                                              pad,
                                              pad,
                                              opad,
                                              1,
                                              NULL};
    k->op = (DML_OPERATOR_DESC){DML_OPERATOR_CONVOLUTION, &k->desc};
    for (int i = 0; i < CN * CC * CH * CW; ++i)
        k->xs[i] = (float)(i * 7 % 11 - 5);
    for (int i = 0; i < CO; ++i)
        k->bs[i] = (float)(i - 2);
}

/* A filter of small integers from seed s. */
static void conv_owned_filter(conv_owned *k, int s)
{
    for (int i = 0; i < CO * CC * CK * CK; ++i)
        k->ws[i] = (float)((i * 5 + s) % 5 - 2);
}

/* The definition: cross-correlation with zero padding, plus the bias. */
static void conv_owned_want(const conv_owned *k, float *want)
{
    for (int n = 0; n < CN; ++n)
        for (int o = 0; o < CO; ++o)
            for (int h = 0; h < CH; ++h)
                for (int w = 0; w < CW; ++w) {
                    double s = k->bs[o];
                    for (int c = 0; c < CC; ++c)
                        for (int i = 0; i < CK; ++i)
                            for (int j = 0; j < CK; ++j) {
                                int ih = h + i - 1, iw = w + j - 1;
                                if (ih < 0 || ih >= CH || iw < 0 || iw >= CW)
                                    continue;
                                s += (double)k->xs[((n * CC + c) * CH + ih) * CW + iw] *
                                     k->ws[((o * CC + c) * CK + i) * CK + j];
                            }
                    want[((n * CO + o) * CH + h) * CW + w] = (float)s;
                }
}

/* Initializes c (three inputs, input 1 owned: bound to `owned` for initialization, NONE in
 * exec_in) with persistent resource pers, spoils owned's bytes and, where pers holds more than
 * its copy (the packed form past it), the copy too; then dispatches c on exec_in into out, with
 * a temporary resource where c asks for one. Returns whether the copy was spoiled. */
/* Initializes c (n inputs; init_in: the owned ones bound, the others NONE) with persistent
 * resource pers, spoils the n_spoil sources and, where pers holds more than the copies at its
 * start (copies bytes: the packed form past them), the copies too; then dispatches c on exec_in
 * into out, with a temporary resource where c asks for one. Returns whether the copies were
 * spoiled. */
static bool run_initialized(dmlcl_compiled_operator *c, const buf *pers, UINT n,
                            const DML_BINDING_DESC *init_in, const buf *const *spoil, int n_spoil,
                            uint64_t copies, const DML_BINDING_DESC *exec_in, const buf *out,
                            const char *what)
{
    cl_event done = NULL;
    cr_assert(SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, n, init_in, &pers->desc, 0,
                                                           NULL, &done)),
              "%s: %s", what, dmlcl_last_error());
    cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    for (int i = 0; i < n_spoil; ++i)
        buf_spoil(spoil[i]);
    const bool packed = pers->binding.SizeInBytes > copies;
    if (packed) {
        unsigned char junk = 0xEE;
        cr_assert_eq(clEnqueueFillBuffer(dmlcl_device_queue(ops_device()), pers->mem, &junk, 1,
                                         (size_t)pers->binding.Offset, (size_t)copies, 0, NULL,
                                         NULL),
                     CL_SUCCESS);
    }
    dmlcl_binding_table *t;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(t, n, exec_in)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out->desc)), "%s",
              dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers->desc)), "%s",
              dmlcl_last_error());
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
    buf tmp = {0};
    if (props.TemporaryResourceSize) {
        buf_make(&tmp, props.TemporaryResourceSize, NULL);
        cr_assert(SUCCEEDED(dmlcl_binding_table_bind_temporary(t, &tmp.desc)), "%s",
                  dmlcl_last_error());
    }
    cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL)), "%s: %s", what,
              dmlcl_last_error());
    cr_assert_eq(clFinish(dmlcl_device_queue(ops_device())), CL_SUCCESS);
    dmlcl_binding_table_release(t);
    if (tmp.mem)
        clReleaseMemObject(tmp.mem);
    return packed;
}

/* run_initialized with three inputs, input 1 owned (owned_bytes, its copy rounded to 256). */
static bool run_owned(dmlcl_compiled_operator *c, const buf *pers, const buf *owned,
                      uint64_t owned_bytes, const DML_BINDING_DESC exec_in[3], const buf *out,
                      const char *what)
{
    const DML_BINDING_DESC init_in[3] = {none, owned->desc, none};
    const buf *spoil[1] = {owned};
    return run_initialized(c, pers, 3, init_in, spoil, 1, (owned_bytes + 255) / 256 * 256, exec_in,
                           out, what);
}

/* Runs c (run_owned) with filter seed s and compares. */
static void conv_owned_round(conv_owned *k, dmlcl_compiled_operator *c, const buf *pers, int s,
                             const char *what)
{
    conv_owned_filter(k, s);
    buf x, w, b, y;
    buf_make(&x, k->x.buf.TotalTensorSizeInBytes, k->xs);
    buf_make(&w, k->w.buf.TotalTensorSizeInBytes, k->ws);
    buf_make(&b, k->b.buf.TotalTensorSizeInBytes, k->bs);
    buf_make(&y, k->y.buf.TotalTensorSizeInBytes, NULL);
    DML_BINDING_DESC exec_in[3] = {x.desc, none, b.desc};
    const bool packed = run_owned(c, pers, &w, k->w.buf.TotalTensorSizeInBytes, exec_in, &y, what);
    static float got[CN * CO * CH * CW], want[CN * CO * CH * CW];
    buf_read(&y, got, sizeof got);
    conv_owned_want(k, want);
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        cr_assert_eq(got[i], want[i], "%s, filter %d (%s): output %zu: %g, want %g", what, s,
                     packed ? "packed at initialization" : "copied", i, (double)got[i],
                     (double)want[i]);
    buf_release(&x, &w, &b, &y);
}

Test(persistent, owned_filters_are_packed_at_initialization)
{
    static conv_owned k;
    conv_owned_make(&k);
    dmlcl_compiled_operator *c = compile(&k.op);
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
    /* The filter's copy (1080 bytes: 1280), and on CPUs (default tuning) its packed form past
     * it. */
    cr_expect_geq(props.PersistentResourceSize, 1280);
    if (dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_CPU && !getenv("DMLCL_TUNING"))
        cr_expect_gt(props.PersistentResourceSize, 1280, "%llu",
                     (unsigned long long)props.PersistentResourceSize);
    buf pers;
    buf_make(&pers, props.PersistentResourceSize, NULL);
    /* Initialized twice: the output follows the filter of the latest. */
    conv_owned_round(&k, c, &pers, 1, "operator");
    conv_owned_round(&k, c, &pers, 3, "operator, initialized again");
    clReleaseMemObject(pers.mem);
    dmlcl_compiled_operator_release(c);

    /* The same as a graph's one node, its filter a graph input owned by DML. */
    unit_graph ug;
    ug_init(&ug);
    ug_node(&ug, DML_OPERATOR_CONVOLUTION, &k.desc);
    for (UINT i = 0; i < 3; ++i)
        ug_input(&ug, i, 0, i);
    ug_output(&ug, 0, 0);
    ug_desc(&ug, 3, 1);
    cr_assert(SUCCEEDED(dmlcl_graph_compile(ops_device(), &ug.desc, 0, &c)), "%s",
              dmlcl_last_error());
    props = dmlcl_compiled_operator_binding_properties(c);
    buf_make(&pers, props.PersistentResourceSize, NULL);
    conv_owned_round(&k, c, &pers, 2, "graph");
    clReleaseMemObject(pers.mem);
    dmlcl_compiled_operator_release(c);
    ug_free(&ug);
}

/* ---- An owned GEMM B, packed at initialization ----------------------------------------------
 * GEMM [2, 3, 5, 40] x B (40 x 69, the same for every batch coordinate: zero batch strides),
 * with C [2, 3, 5, 69], alpha 0.5, beta 2 and a fused RELU; B owned, given as stored or
 * transposed (TransB), FLOAT32 and FLOAT16. Where gemm_blocks reads B packed (CPUs:
 * cl/gemm.cl gemm_pack_b: whole blocks, of 64 columns with AVX-512 or 32, and a last block of
 * 5 columns) the pack runs at initialization into the
 * persistent resource past B's copy, so spoiling that copy changes nothing; elsewhere the copy
 * is what is read. Small integers: every value and sum exact in both types, compared bit for
 * bit with a direct loop. */
enum { GB0 = 2, GB1 = 3, GM = 5, GK = 40, GNN = 69 };
#define GEMM_A_COUNT (GB0 * GB1 * GM * GK)
#define GEMM_Y_COUNT (GB0 * GB1 * GM * GNN)
#define GEMM_B_COUNT (GK * GNN)
/* The most values of one tensor (A 1200, B 2760, C and the output 2070). */
#define GEMM_MAX_COUNT                                                                         \
    (GEMM_A_COUNT > GEMM_B_COUNT ? (GEMM_A_COUNT > GEMM_Y_COUNT ? GEMM_A_COUNT : GEMM_Y_COUNT) \
                                 : (GEMM_B_COUNT > GEMM_Y_COUNT ? GEMM_B_COUNT : GEMM_Y_COUNT))

typedef struct gemm_owned {
    bool half;
    unit_tensor a, b, c, y;
    DML_ACTIVATION_RELU_OPERATOR_DESC relu;
    DML_OPERATOR_DESC act;
    DML_GEMM_OPERATOR_DESC desc;
    DML_OPERATOR_DESC op;
    float as[GEMM_A_COUNT], bs[GEMM_B_COUNT], cs[GEMM_Y_COUNT];
    unsigned char bytes[GEMM_MAX_COUNT * 4]; /* a tensor's values in its type */
} gemm_owned;

static void gemm_owned_make(gemm_owned *g, bool trans, bool half)
{
    const UINT as[4] = {GB0, GB1, GM, GK}, ys[4] = {GB0, GB1, GM, GNN};
    const UINT bsz[4] = {GB0, GB1, trans ? GNN : GK, trans ? GK : GNN};
    const UINT bst[4] = {0, 0, trans ? GK : GNN, 1};
    const DML_TENSOR_DATA_TYPE type =
        half ? DML_TENSOR_DATA_TYPE_FLOAT16 : DML_TENSOR_DATA_TYPE_FLOAT32;
    g->half = half;
    unit_tensor_set(&g->a, type, 4, as, NULL);
    unit_tensor_set(&g->b, type, 4, bsz, bst);
    unit_tensor_set(&g->c, type, 4, ys, NULL);
    unit_tensor_set(&g->y, type, 4, ys, NULL);
    g->b.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    g->relu = (DML_ACTIVATION_RELU_OPERATOR_DESC){NULL, NULL};
    g->act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &g->relu};
    g->desc =
        (DML_GEMM_OPERATOR_DESC){&g->a.desc,
                                 &g->b.desc,
                                 &g->c.desc,
                                 &g->y.desc,
                                 DML_MATRIX_TRANSFORM_NONE,
                                 trans ? DML_MATRIX_TRANSFORM_TRANSPOSE : DML_MATRIX_TRANSFORM_NONE,
                                 0.5f,
                                 2.0f,
                                 &g->act};
    g->op = (DML_OPERATOR_DESC){DML_OPERATOR_GEMM, &g->desc};
    for (int i = 0; i < GEMM_A_COUNT; ++i)
        g->as[i] = (float)(i * 3 % 7 - 3);
    for (int i = 0; i < GEMM_Y_COUNT; ++i)
        g->cs[i] = (float)(i % 5 - 2);
}

/* n values in the tensors' type, in g->bytes. */
static const void *gemm_owned_typed(gemm_owned *g, const float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (g->half) {
            uint16_t h = ref_half_from_double(v[i]);
            memcpy(g->bytes + 2 * i, &h, 2);
        } else {
            memcpy(g->bytes + 4 * i, &v[i], 4);
        }
    }
    return g->bytes;
}

/* B's values from seed s, in the layout the tensor has (stored [k][n], or [n][k] transposed). */
static void gemm_owned_b(gemm_owned *g, bool trans, int s)
{
    for (int k = 0; k < GK; ++k)
        for (int n = 0; n < GNN; ++n)
            g->bs[trans ? n * GK + k : k * GNN + n] = (float)((k * 7 + n * 3 + s) % 5 - 2);
}

static void gemm_owned_want(const gemm_owned *g, bool trans, float *want)
{
    for (int b = 0; b < GB0 * GB1; ++b)
        for (int m = 0; m < GM; ++m)
            for (int n = 0; n < GNN; ++n) {
                double s = 0;
                for (int k = 0; k < GK; ++k)
                    s += (double)g->as[(b * GM + m) * GK + k] *
                         g->bs[trans ? n * GK + k : k * GNN + n];
                double y = 0.5 * s + 2.0 * g->cs[(b * GM + m) * GNN + n];
                want[(b * GM + m) * GNN + n] = (float)(y > 0 ? y : 0);
            }
}

static void gemm_owned_round(gemm_owned *g, dmlcl_compiled_operator *c, const buf *pers, bool trans,
                             int s, const char *what)
{
    gemm_owned_b(g, trans, s);
    buf a, b, cc, y;
    buf_make(&a, g->a.buf.TotalTensorSizeInBytes, gemm_owned_typed(g, g->as, GEMM_A_COUNT));
    buf_make(&b, g->b.buf.TotalTensorSizeInBytes, gemm_owned_typed(g, g->bs, GEMM_B_COUNT));
    buf_make(&cc, g->c.buf.TotalTensorSizeInBytes, gemm_owned_typed(g, g->cs, GEMM_Y_COUNT));
    buf_make(&y, g->y.buf.TotalTensorSizeInBytes, NULL);
    DML_BINDING_DESC exec_in[3] = {a.desc, none, cc.desc};
    const bool packed = run_owned(c, pers, &b, g->b.buf.TotalTensorSizeInBytes, exec_in, &y, what);
    static float want[GEMM_Y_COUNT];
    static unsigned char got[GEMM_Y_COUNT * 4];
    const size_t unit = g->half ? 2 : 4;
    buf_read(&y, got, GEMM_Y_COUNT * unit);
    gemm_owned_want(g, trans, want);
    const unsigned char *expect = gemm_owned_typed(g, want, GEMM_Y_COUNT);
    for (size_t i = 0; i < GEMM_Y_COUNT; ++i)
        cr_assert(memcmp(got + i * unit, expect + i * unit, unit) == 0,
                  "%s, %s, B %d (%s): output %zu differs from %g", what,
                  g->half ? "FLOAT16" : "FLOAT32", s,
                  packed ? "packed at initialization" : "copied", i, (double)want[i]);
    buf_release(&a, &b, &cc, &y);
}

Test(persistent, owned_gemm_b_is_packed_at_initialization)
{
    for (int half = 0; half < 2; ++half)
        for (int trans = 0; trans < 2; ++trans) {
            static gemm_owned g;
            gemm_owned_make(&g, trans, half);
            dmlcl_compiled_operator *c = compile(&g.op);
            DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
            /* B's copy (5920 bytes, FLOAT16 2960: 6144, 3072), and on CPUs (default tuning)
             * its packed form past it. */
            const uint64_t copy = half ? 3072 : 6144;
            cr_expect_geq(props.PersistentResourceSize, copy);
            if (dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_CPU &&
                !getenv("DMLCL_TUNING"))
                cr_expect_gt(props.PersistentResourceSize, copy, "%llu",
                             (unsigned long long)props.PersistentResourceSize);
            buf pers;
            buf_make(&pers, props.PersistentResourceSize, NULL);
            const char *what = trans ? "B transposed" : "B as stored";
            gemm_owned_round(&g, c, &pers, trans, 1, what);
            gemm_owned_round(&g, c, &pers, trans, 4, what);
            clReleaseMemObject(pers.mem);
            dmlcl_compiled_operator_release(c);
        }
}

/* DirectML's binding hazards: no output and no temporary resource overlaps the persistent
 * resource, which every dispatch reads (here B's packed form past its copy: an output there
 * would overwrite it between dispatches). Refused at dispatch, naming both. */
Test(persistent, outputs_never_overlap_the_persistent_resource)
{
    static gemm_owned g;
    gemm_owned_make(&g, false, false);
    gemm_owned_b(&g, false, 1);
    dmlcl_compiled_operator *c = compile(&g.op);
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
    const uint64_t pers_bytes = props.PersistentResourceSize,
                   out_bytes = g.y.buf.TotalTensorSizeInBytes;
    /* One buffer: the persistent resource at 0, then room for the output. */
    cl_int err;
    cl_mem mem = clCreateBuffer(dmlcl_device_context(ops_device()), CL_MEM_READ_WRITE,
                                (size_t)(pers_bytes + out_bytes + 4096), NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    DML_BUFFER_BINDING pb = {mem, 0, pers_bytes};
    DML_BINDING_DESC pers = {DML_BINDING_TYPE_BUFFER, &pb};
    buf a, b, cc;
    buf_make(&a, g.a.buf.TotalTensorSizeInBytes, gemm_owned_typed(&g, g.as, GEMM_A_COUNT));
    buf_make(&b, g.b.buf.TotalTensorSizeInBytes, gemm_owned_typed(&g, g.bs, GEMM_B_COUNT));
    buf_make(&cc, g.c.buf.TotalTensorSizeInBytes, gemm_owned_typed(&g, g.cs, GEMM_Y_COUNT));
    DML_BINDING_DESC init_in[3] = {none, b.desc, none};
    cl_event done = NULL;
    cr_assert(
        SUCCEEDED(dmlcl_compiled_operator_initialize(c, NULL, 3, init_in, &pers, 0, NULL, &done)),
        "%s", dmlcl_last_error());
    cr_assert_eq(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    dmlcl_binding_table *t;
    cr_assert(SUCCEEDED(dmlcl_binding_table_create(c, &t)));
    DML_BINDING_DESC exec_in[3] = {a.desc, none, cc.desc};
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_inputs(t, 3, exec_in)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_persistent(t, &pers)), "%s", dmlcl_last_error());
    DML_BINDING_PROPERTIES p = dmlcl_compiled_operator_binding_properties(c);
    buf tmp = {0};
    if (p.TemporaryResourceSize) {
        buf_make(&tmp, p.TemporaryResourceSize, NULL);
        cr_assert(SUCCEEDED(dmlcl_binding_table_bind_temporary(t, &tmp.desc)));
    }
    /* The output on the persistent resource's last bytes (past B's copy where B is packed). */
    DML_BUFFER_BINDING ob = {mem, (pers_bytes - 1) / 256 * 256, out_bytes};
    DML_BINDING_DESC out = {DML_BINDING_TYPE_BUFFER, &ob};
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out)), "%s", dmlcl_last_error());
    unit_expect_error(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL), E_INVALIDARG,
                      "the persistent resource and OutputTensor overlap", NULL);
    /* Past it: dispatched. */
    ob.Offset = (pers_bytes + 255) / 256 * 256;
    cr_assert(SUCCEEDED(dmlcl_binding_table_bind_outputs(t, 1, &out)), "%s", dmlcl_last_error());
    cr_assert(SUCCEEDED(dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL)), "%s",
              dmlcl_last_error());
    cr_assert_eq(clFinish(dmlcl_device_queue(ops_device())), CL_SUCCESS);
    dmlcl_binding_table_release(t);
    if (tmp.mem)
        clReleaseMemObject(tmp.mem);
    clReleaseMemObject(a.mem);
    clReleaseMemObject(b.mem);
    clReleaseMemObject(cc.mem);
    clReleaseMemObject(mem);
    dmlcl_compiled_operator_release(c);
}

/* ---- An owned integer convolution filter and its zero points, packed at initialization ------
 * CONVOLUTION_INTEGER UINT8 [1, 16, 5, 6] x INT8 [16, 16, 3, 3], pad 1, the input's zero point
 * one value, the filter's one a channel ([1, 16, 1, 1]). Where the kernel packs its filter
 * (intmm_conv_chan, CPUs: cl/intmm.cl intmm_conv_pack, (w - the channel's zero point) as floats)
 * it does so once, at initialization, where the filter and its zero point are both owned: the
 * copies of both spoiled after initialization change nothing. With the zero point bound at
 * execution the pack runs at each dispatch (the persistent resource holds the filter's copy
 * alone). Expected values: a direct loop over the definition, in integers. */
enum { IC = 16, IH = 5, IW = 6, IO = 16, IK = 3 };

typedef struct iconv_owned {
    unit_tensor x, xz, w, wz, y;
    DML_CONVOLUTION_INTEGER_OPERATOR_DESC desc;
    DML_OPERATOR_DESC op;
    uint8_t xs[IC * IH * IW], xzs[1];
    int8_t ws[IO * IC * IK * IK], wzs[IO];
} iconv_owned;

static void iconv_owned_make(iconv_owned *k, bool zp_owned)
{
    static const UINT strides[2] = {1, 1}, dil[2] = {1, 1}, pad[2] = {1, 1};
    const UINT xs[4] = {1, IC, IH, IW}, one[4] = {1, 1, 1, 1}, wsz[4] = {IO, IC, IK, IK},
               wz[4] = {1, IO, 1, 1}, ys[4] = {1, IO, IH, IW};
    unit_tensor_set(&k->x, DML_TENSOR_DATA_TYPE_UINT8, 4, xs, NULL);
    unit_tensor_set(&k->xz, DML_TENSOR_DATA_TYPE_UINT8, 4, one, NULL);
    unit_tensor_set(&k->w, DML_TENSOR_DATA_TYPE_INT8, 4, wsz, NULL);
    unit_tensor_set(&k->wz, DML_TENSOR_DATA_TYPE_INT8, 4, wz, NULL);
    unit_tensor_set(&k->y, DML_TENSOR_DATA_TYPE_INT32, 4, ys, NULL);
    k->w.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    if (zp_owned)
        k->wz.buf.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    k->desc = (DML_CONVOLUTION_INTEGER_OPERATOR_DESC){
        &k->x.desc, &k->xz.desc, &k->w.desc, &k->wz.desc, &k->y.desc, 2, strides, dil, pad, pad, 1};
    k->op = (DML_OPERATOR_DESC){DML_OPERATOR_CONVOLUTION_INTEGER, &k->desc};
    for (int i = 0; i < IC * IH * IW; ++i)
        k->xs[i] = (uint8_t)(i * 37 % 256);
    k->xzs[0] = 131;
}

/* Filter and zero points from seed s. */
static void iconv_owned_filter(iconv_owned *k, int s)
{
    for (int i = 0; i < IO * IC * IK * IK; ++i)
        k->ws[i] = (int8_t)((i * 53 + s * 17) % 256 - 128);
    for (int i = 0; i < IO; ++i)
        k->wzs[i] = (int8_t)((i * 29 + s) % 256 - 128);
}

static void iconv_owned_want(const iconv_owned *k, int32_t *want)
{
    for (int o = 0; o < IO; ++o)
        for (int h = 0; h < IH; ++h)
            for (int w = 0; w < IW; ++w) {
                int64_t s = 0;
                for (int c = 0; c < IC; ++c)
                    for (int i = 0; i < IK; ++i)
                        for (int j = 0; j < IK; ++j) {
                            const int ih = h + i - 1, iw = w + j - 1;
                            if (ih < 0 || ih >= IH || iw < 0 || iw >= IW)
                                continue;
                            s += (int64_t)(k->xs[(c * IH + ih) * IW + iw] - k->xzs[0]) *
                                 (k->ws[((o * IC + c) * IK + i) * IK + j] - k->wzs[o]);
                        }
                want[(o * IH + h) * IW + w] = (int32_t)s;
            }
}

/* Initializes c with filter seed s (the owned inputs bound, the others NONE), spoils the bound
 * sources and the copies at the start of the persistent resource (copies bytes), dispatches
 * with the rest bound and compares. */
static void iconv_owned_round(iconv_owned *k, dmlcl_compiled_operator *c, const buf *pers, int s,
                              bool zp_owned, uint64_t copies, const char *what)
{
    iconv_owned_filter(k, s);
    buf x, xz, w, wz, y;
    buf_make(&x, sizeof k->xs, k->xs);
    buf_make(&xz, k->xz.buf.TotalTensorSizeInBytes, k->xzs);
    buf_make(&w, sizeof k->ws, k->ws);
    buf_make(&wz, k->wz.buf.TotalTensorSizeInBytes, k->wzs);
    buf_make(&y, k->y.buf.TotalTensorSizeInBytes, NULL);
    const DML_BINDING_DESC init_in[4] = {none, none, w.desc, zp_owned ? wz.desc : none};
    const DML_BINDING_DESC exec_in[4] = {x.desc, xz.desc, none, zp_owned ? none : wz.desc};
    const buf *spoil[2] = {&w, &wz};
    const bool packed =
        run_initialized(c, pers, 4, init_in, spoil, zp_owned ? 2 : 1, copies, exec_in, &y, what);
    static int32_t got[IO * IH * IW], want[IO * IH * IW];
    buf_read(&y, got, sizeof got);
    iconv_owned_want(k, want);
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        cr_assert_eq(got[i], want[i], "%s, filter %d (%s): output %zu: %d, want %d", what, s,
                     packed ? "packed at initialization" : "copied", i, got[i], want[i]);
    const buf *all[5] = {&x, &xz, &w, &wz, &y};
    for (int i = 0; i < 5; ++i)
        clReleaseMemObject(all[i]->mem);
}

Test(persistent, owned_integer_filters_are_packed_at_initialization)
{
    static iconv_owned k;
    /* The filter's copy (2304 bytes) and its zero point's (16: 256): 2560; on CPUs (default
     * tuning) the packed floats past them (16 x 9 x at least 8 channels x 4 bytes). */
    const uint64_t copies = 2304 + 256;
    iconv_owned_make(&k, true);
    dmlcl_compiled_operator *c = compile(&k.op);
    DML_BINDING_PROPERTIES props = dmlcl_compiled_operator_binding_properties(c);
    cr_expect_geq(props.PersistentResourceSize, copies);
    const bool cpu =
        dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_CPU && !getenv("DMLCL_TUNING");
    if (cpu)
        cr_expect_geq(props.PersistentResourceSize, copies + IC * IK * IK * 8 * 4, "%llu",
                      (unsigned long long)props.PersistentResourceSize);
    buf pers;
    buf_make(&pers, props.PersistentResourceSize, NULL);
    iconv_owned_round(&k, c, &pers, 1, true, copies, "operator");
    iconv_owned_round(&k, c, &pers, 4, true, copies, "operator, initialized again");
    clReleaseMemObject(pers.mem);
    dmlcl_compiled_operator_release(c);

    /* The zero point bound at execution: the filter's copy alone persists, packed at each
     * dispatch into the temporary resource. */
    iconv_owned_make(&k, false);
    c = compile(&k.op);
    props = dmlcl_compiled_operator_binding_properties(c);
    cr_expect_eq(props.PersistentResourceSize, 2304, "%llu",
                 (unsigned long long)props.PersistentResourceSize);
    if (cpu)
        cr_expect_geq(props.TemporaryResourceSize, IC * IK * IK * 8 * 4, "%llu",
                      (unsigned long long)props.TemporaryResourceSize);
    buf_make(&pers, props.PersistentResourceSize, NULL);
    iconv_owned_round(&k, c, &pers, 2, false, 2304, "zero point bound at execution");
    clReleaseMemObject(pers.mem);
    dmlcl_compiled_operator_release(c);
}
