/* SPDX-License-Identifier: MIT */
/*
 * depth_space.c: DML_SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_DEPTH1 and
 * DEPTH_TO_SPACE1, and the OpenVINO DepthToSpace-1 / SpaceToDepth-1 and ONNX
 * DepthToSpace-13 / SpaceToDepth-13 front-ends, on the device against the C
 * reference (tests/ref/ref_depth_space.h).
 *
 * Random cases: block sizes 1 to 4, both orders, every DirectML type by
 * width (and extension types through the front-ends), padded, permuted and
 * (for inputs) broadcast or aliasing layouts, outputs padded or transposed,
 * bindings at offsets inside guarded buffers, one buffer or two, three ways
 * of submitting; front-end ranks 3 to 9 and empty tensors. Every failure
 * prints the seed; DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one
 * case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "dmlcl/frontends.h"
#include "harness.h"
#include "ref_depth_space.h"

#define DS_DEFAULT_SEED 0x646D6C636C445332ull
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const DML_TENSOR_DATA_TYPE dml_types[] = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const DML_TENSOR_DATA_TYPE all_types[] = {
    DML_TENSOR_DATA_TYPE_UINT8,       DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_INT32,       DML_TENSOR_DATA_TYPE_FLOAT64,
    DMLCL_TENSOR_DATA_TYPE_BOOLEAN,   DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128,
};

/* The DirectML operators, then the front-ends. */
typedef enum ds_op {
    OP_S2D,
    OP_D2S,
    OP_S2D1,
    OP_D2S1,
    OP_OV_D2S,
    OP_OV_S2D,
    OP_ONNX_D2S,
    OP_ONNX_S2D,
} ds_op;
static const char *const op_names[] = {
    "SPACE_TO_DEPTH",       "DEPTH_TO_SPACE",          "SPACE_TO_DEPTH1",
    "DEPTH_TO_SPACE1",      "OpenVINO DepthToSpace-1", "OpenVINO SpaceToDepth-1",
    "ONNX DepthToSpace-13", "ONNX SpaceToDepth-13",
};

static bool is_to_space(ds_op op)
{
    return op == OP_D2S || op == OP_D2S1 || op == OP_OV_D2S || op == OP_ONNX_D2S;
}

typedef struct ds_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    ds_op op;
    DML_TENSOR_DATA_TYPE type;
    uint32_t block;
    bool blocks_first;
    ops_layout layout[2];
    bool shared;
    ops_submit submit;
    ops_tensor input, output;
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC d; /* the prefix of the three others */
    DML_OPERATOR_DESC desc;
    dmlcl_frontend_result r;
    ops_memory mem;
} ds_case;

static ops_seed run_seed = OPS_SEED(DS_DEFAULT_SEED);

static const char *ds_describe(const ds_case *c, char *buf, size_t len)
{
    char head[512], in[512], out[512];
    snprintf(
        buf, len, "%s\n  block %u, %s; layouts %s/%s; %s; submit %s\n  %s\n  %s",
        ops_replay(head, sizeof head, op_names[c->op], "depth_space", c->test, c->number, c->seed),
        c->block, c->blocks_first ? "blocks first (DCR)" : "depth first (CRD)",
        ops_layout_name(c->layout[0]), ops_layout_name(c->layout[1]),
        c->shared ? "one buffer" : "two buffers", ops_submit_name(c->submit),
        ops_tensor_describe(&c->input, in, sizeof in),
        ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                          DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                          ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    *layout = ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 64 : 0);
}

/* Space [N, C, D * b] and depth [N, C * b^K, D] shapes of a random case, K = rank - 2. */
static void random_shapes(ref_rng *rng, uint32_t rank, uint32_t block, bool allow_empty,
                          uint32_t *space, uint32_t *depth)
{
    uint32_t k = rank - 2, blocks = 1;
    for (uint32_t i = 0; i < k; ++i)
        blocks *= block;
    space[0] = depth[0] = 1 + (uint32_t)ref_rng_below(rng, 3);
    space[1] = 1 + (uint32_t)ref_rng_below(rng, blocks > 8 ? 2 : 4);
    depth[1] = space[1] * blocks;
    uint64_t count = (uint64_t)depth[0] * depth[1];
    for (uint32_t i = 0; i < k; ++i) {
        uint32_t cap = count * block > 2000 ? 1 : rank <= 4 ? 6 : 3;
        depth[2 + i] = 1 + (uint32_t)ref_rng_below(rng, cap);
        space[2 + i] = depth[2 + i] * block;
        count *= (uint64_t)depth[2 + i] * block;
    }
    if (allow_empty && ref_rng_chance(rng, 6)) {
        uint32_t at = (uint32_t)ref_rng_below(rng, rank);
        space[at] = depth[at] = 0;
    }
}

/* Fills memory, runs the reference into the expected image and poisons the output. */
static void ds_prepare(ds_case *c, ref_rng *rng)
{
    static char what[4096];
    ops_memory_unary(&c->mem, rng, &c->input, &c->output, c->shared, c->type);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->input);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
    bool ok = is_to_space(c->op) ? ref_depth_to_space(&in, &out, c->block, c->blocks_first)
                                 : ref_space_to_depth(&in, &out, c->block, c->blocks_first);
    cr_assert(ok, "%s\n  test bug: the reference rejected a generated case",
              ds_describe(c, what, sizeof what));
    ops_poison_output(&c->mem, &c->output);
}

static void ds_run(ds_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->input}, *outputs[1] = {&c->output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, 1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", ds_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    ops_tensor *all[2] = {&c->input, &c->output};
    uint64_t bad = ops_compare(&c->mem, all, 2, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", ds_describe(c, what, sizeof what), bad,
              diff);
}

static void ds_begin(ds_case *c, const char *test, unsigned n, ref_rng *rng)
{
    memset(c, 0, sizeof *c);
    c->test = test;
    c->seed = ops_base_seed(&run_seed);
    c->number = n;
    c->shared = ref_rng_chance(rng, 25);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
}

/* ---- DirectML's operators ----------------------------------------------------------------- */

static const DML_OPERATOR_TYPE dml_ops[4] = {
    DML_OPERATOR_SPACE_TO_DEPTH, DML_OPERATOR_DEPTH_TO_SPACE, DML_OPERATOR_SPACE_TO_DEPTH1,
    DML_OPERATOR_DEPTH_TO_SPACE1};

static void gen_dml(ds_case *c, ref_rng *rng)
{
    static const uint32_t blocks[] = {1, 2, 2, 2, 3, 4};
    uint32_t space[4], depth[4];
    c->block = blocks[ref_rng_below(rng, COUNT_OF(blocks))];
    c->blocks_first = c->op < OP_S2D1 || ref_rng_chance(rng, 50);
    random_shapes(rng, 4, c->block, false, space, depth);
    bool d2s = is_to_space(c->op);
    random_tensor(&c->input, rng, "InputTensor", false, c->type, 4, d2s ? depth : space,
                  &c->layout[0]);
    random_tensor(&c->output, rng, "OutputTensor", true, c->type, 4, d2s ? space : depth,
                  &c->layout[1]);
    c->d = (DML_DEPTH_TO_SPACE1_OPERATOR_DESC){
        ops_tensor_desc(&c->input), ops_tensor_desc(&c->output), c->block,
        c->blocks_first ? DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
                        : DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH};
    c->desc = (DML_OPERATOR_DESC){dml_ops[c->op], &c->d};
}

static void dml_cases(const char *test, unsigned count, const DML_TENSOR_DATA_TYPE *types,
                      size_t n_types)
{
    static ds_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        ds_begin(&c, test, n, &rng);
        c.op = (ds_op)(n % 4);
        c.type = types[(n / 4) % n_types];
        gen_dml(&c, &rng);
        if (ops_verbose()) {
            static char what[4096];
            fprintf(stderr, "%s\n", ds_describe(&c, what, sizeof what));
        }
        ds_prepare(&c, &rng);
        ds_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(depth_space);

Test(depth_space, random_dml)
{
    dml_cases("random_dml", 176, dml_types, COUNT_OF(dml_types));
}

/* The pages' examples, with the printed values (UINT32). */
Test(depth_space, documented_examples)
{
    static const uint32_t depth_sizes[4] = {1, 8, 2, 3}, space_sizes[4] = {1, 2, 4, 6};
    static const uint32_t space_dcr[48] = {0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56,
                                           3,  21, 4,  22, 5,  23, 39, 57, 40, 58, 41, 59,
                                           9,  27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65,
                                           12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68};
    static const uint32_t space_crd[48] = {0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29,
                                           3,  12, 4,  13, 5,  14, 21, 30, 22, 31, 23, 32,
                                           36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65,
                                           39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68};
    static ds_case c;
    uint32_t depth[48];
    for (uint32_t i = 0; i < 48; ++i)
        depth[i] = 9 * (i / 6) + i % 6;
    unsigned number = 0;
    for (int op = 0; op < 4; ++op)
        for (int crd = 0; crd < (op >= 2 ? 2 : 1); ++crd, ++number) {
            ref_rng rng = ops_case_rng(&run_seed, "documented_examples", number);
            ds_begin(&c, "documented_examples", number, &rng);
            c.op = (ds_op)op;
            c.type = DML_TENSOR_DATA_TYPE_UINT32;
            c.block = 2;
            c.blocks_first = !crd;
            bool d2s = is_to_space(c.op);
            const uint32_t *space = crd ? space_crd : space_dcr;
            ops_tensor_init(&c.input, "InputTensor", false, c.type, 4,
                            d2s ? depth_sizes : space_sizes, NULL, 0, 0);
            ops_tensor_init(&c.output, "OutputTensor", true, c.type, 4,
                            d2s ? space_sizes : depth_sizes, NULL, 0, 0);
            c.d = (DML_DEPTH_TO_SPACE1_OPERATOR_DESC){ops_tensor_desc(&c.input),
                                                      ops_tensor_desc(&c.output), 2,
                                                      crd ? DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH
                                                          : DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
            c.desc = (DML_OPERATOR_DESC){dml_ops[op], &c.d};
            memset(&c.mem, 0, sizeof c.mem);
            ops_memory_place(&c.mem, &rng, &c.input, false);
            ops_memory_place(&c.mem, &rng, &c.output, false);
            ops_memory_alloc(&c.mem, &rng);
            memcpy(ops_ptr(&c.mem, OPS_INIT, &c.input), d2s ? depth : space, sizeof depth);
            ops_memory_snapshot(&c.mem);
            memcpy(ops_ptr(&c.mem, OPS_EXPECT, &c.output), d2s ? space : depth, sizeof depth);
            /* The reference gives the printed values too. */
            uint32_t got[48];
            ref_tensor in = ops_view(&c.mem, OPS_INIT, &c.input);
            ref_tensor out = ref_tensor_view(c.type, 4, d2s ? space_sizes : depth_sizes, NULL, got);
            cr_assert(d2s ? ref_depth_to_space(&in, &out, 2, !crd)
                          : ref_space_to_depth(&in, &out, 2, !crd));
            cr_expect_arr_eq(got, d2s ? space : depth, sizeof got,
                             "%s example %d: the reference disagrees with the page", op_names[op],
                             crd + 1);
            ops_poison_output(&c.mem, &c.output);
            ds_run(&c);
            ops_memory_release(&c.mem);
        }
}

/* ---- Front-ends ------------------------------------------------------------------------------ */

static HRESULT fe_call(ds_case *c, const dmlcl_shape *s)
{
    const char *mode = c->blocks_first ? "blocks_first" : "depth_first";
    dmlcl_openvino_depth_space_args ov = {
        .data = s, .data_type = c->type, .mode = mode, .block_size = c->block};
    switch (c->op) {
    case OP_OV_D2S: return dmlcl_openvino_depth_to_space(1, &ov, &c->r);
    case OP_OV_S2D: return dmlcl_openvino_space_to_depth(1, &ov, &c->r);
    case OP_ONNX_D2S: {
        dmlcl_onnx_depth_to_space_args a = {.input = s,
                                            .input_type = c->type,
                                            .blocksize = c->block,
                                            .mode = c->blocks_first ? "DCR" : "CRD"};
        return dmlcl_onnx_depth_to_space(13, &a, &c->r);
    }
    default: {
        dmlcl_onnx_space_to_depth_args a = {
            .input = s, .input_type = c->type, .blocksize = c->block};
        return dmlcl_onnx_space_to_depth(13, &a, &c->r);
    }
    }
}

/* Packed framework tensors; the front-end's view of them runs on the device. */
static void gen_frontend(ds_case *c, ref_rng *rng)
{
    static char what[4096];
    uint32_t space[REF_MAX_DIMS], depth[REF_MAX_DIMS];
    bool onnx = c->op >= OP_ONNX_D2S;
    uint32_t rank = onnx ? 4 : 3 + (uint32_t)ref_rng_below(rng, 7);
    c->block = 1 + (uint32_t)ref_rng_below(rng, rank <= 5 ? 3 : 2);
    c->blocks_first = c->op == OP_ONNX_S2D || ref_rng_chance(rng, 50);
    random_shapes(rng, rank, c->block, true, space, depth);
    bool d2s = is_to_space(c->op);
    const uint32_t *in = d2s ? depth : space, *out = d2s ? space : depth;
    dmlcl_shape s = {rank, {0}};
    for (uint32_t i = 0; i < rank; ++i)
        s.dims[i] = in[i];
    ops_tensor_init(&c->input, "InputTensor", false, c->type, rank, in, NULL, 0, 0);
    ops_tensor_init(&c->output, "OutputTensor", true, c->type, rank, out, NULL, 0, 0);
    c->layout[0] = c->layout[1] = OPS_LAYOUT_NULL;
    HRESULT hr = fe_call(c, &s);
    cr_assert(SUCCEEDED(hr), "%s\n  the front-end failed: %s: %s",
              ds_describe(c, what, sizeof what), dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_assert_eq(c->r.output_shape.rank, rank, "%s", ds_describe(c, what, sizeof what));
    for (uint32_t i = 0; i < rank; ++i)
        cr_assert_eq(c->r.output_shape.dims[i], (int64_t)out[i], "%s\n  output dimension %u",
                     ds_describe(c, what, sizeof what), i);
    c->desc = c->r.desc;
}

Test(depth_space, random_frontends)
{
    static ds_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(160); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, "random_frontends", n);
        ds_begin(&c, "random_frontends", n, &rng);
        c.op = (ds_op)(OP_OV_D2S + n % 4);
        c.type = all_types[(n / 4) % COUNT_OF(all_types)];
        gen_frontend(&c, &rng);
        if (ops_verbose()) {
            static char what[4096];
            fprintf(stderr, "%s\n", ds_describe(&c, what, sizeof what));
        }
        ds_prepare(&c, &rng);
        ds_run(&c);
        ops_memory_release(&c.mem);
    }
}

/* A large depth-to-space of every unit width: long runs through the fast kernels. */
Test(depth_space, large)
{
    static const DML_TENSOR_DATA_TYPE widths[] = {
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT64, DMLCL_TENSOR_DATA_TYPE_COMPLEX128};
    static ds_case c;
    for (unsigned n = 0; n < 2 * COUNT_OF(widths); ++n) {
        ref_rng rng = ops_case_rng(&run_seed, "large", n);
        ds_begin(&c, "large", n, &rng);
        c.op = n % 2 ? OP_OV_S2D : OP_OV_D2S;
        c.type = widths[n / 2];
        c.block = 2;
        c.blocks_first = n % 4 < 2;
        const uint32_t depth[4] = {2, 64, 24, 40}, space[4] = {2, 16, 48, 80};
        bool d2s = is_to_space(c.op);
        dmlcl_shape s = {4, {0}};
        for (uint32_t i = 0; i < 4; ++i)
            s.dims[i] = d2s ? depth[i] : space[i];
        ops_tensor_init(&c.input, "InputTensor", false, c.type, 4, d2s ? depth : space, NULL, 0, 0);
        ops_tensor_init(&c.output, "OutputTensor", true, c.type, 4, d2s ? space : depth, NULL, 0,
                        0);
        cr_assert_eq(fe_call(&c, &s), S_OK, "%s", dmlcl_last_error());
        c.desc = c.r.desc;
        ds_prepare(&c, &rng);
        ds_run(&c);
        ops_memory_release(&c.mem);
    }
}
