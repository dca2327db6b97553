/* SPDX-License-Identifier: MIT */
/*
 * Graphs with reductions: an element-wise ADD or MULTIPLY whose only reader is a reduction is
 * fused into the reduction's reads (src/graph_plan.c; SkipLayerNormalization's ADD before
 * MEAN_VARIANCE_NORMALIZATION2, an attention mask's ADD before ACTIVATION_SOFTMAX1). The same
 * graph with the ADD's output also a graph output keeps the ADD apart (two kernels, the sum
 * stored in float32 and read back); the fused result must equal it bit for bit, and both must
 * be within the operator's tolerance of the double oracle computed here.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ref.h"

OPS_DEVICE_SUITE(graph_reduce);

typedef struct tensor {
    UINT sizes[4], strides[4];
    DML_BUFFER_TENSOR_DESC buffer;
    DML_TENSOR_DESC desc;
} tensor;

static const DML_TENSOR_DESC *make(tensor *t, UINT rank, const UINT *sizes, const UINT *strides)
{
    memcpy(t->sizes, sizes, rank * sizeof *sizes);
    if (strides)
        memcpy(t->strides, strides, rank * sizeof *strides);
    t->buffer =
        (DML_BUFFER_TENSOR_DESC){DML_TENSOR_DATA_TYPE_FLOAT32,
                                 0,
                                 rank,
                                 t->sizes,
                                 strides ? t->strides : NULL,
                                 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, rank,
                                                         t->sizes, strides ? t->strides : NULL),
                                 0};
    t->desc = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &t->buffer};
    return &t->desc;
}

/* The graph {binary(in 0, in 1) -> reduction(.., in 2, in 3)}: out 0 the reduction's, and with
 * keep the binary's output as out 1 too. Inputs and outputs on host memory. */
static void run_graph(DML_OPERATOR_TYPE binary, const void *binary_desc, DML_OPERATOR_TYPE red,
                      const void *red_desc, UINT red_inputs, bool keep, void *const *in,
                      const uint64_t *in_bytes, void *out, uint64_t out_bytes, void *sum,
                      uint64_t sum_bytes)
{
    dmlcl_device *dev = ops_device();
    dmlcl_operator *ops[2];
    DML_OPERATOR_DESC d0 = {binary, binary_desc}, d1 = {red, red_desc};
    cr_assert_eq(dmlcl_operator_create(dev, &d0, &ops[0]), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_create(dev, &d1, &ops[1]), S_OK, "%s", dmlcl_last_error());
    DML_OPERATOR_GRAPH_NODE_DESC nd[2] = {{(IDMLOperator *)ops[0], "binary"},
                                          {(IDMLOperator *)ops[1], "reduction"}};
    DML_GRAPH_NODE_DESC nodes[2] = {{DML_GRAPH_NODE_TYPE_OPERATOR, &nd[0]},
                                    {DML_GRAPH_NODE_TYPE_OPERATOR, &nd[1]}};
    DML_INPUT_GRAPH_EDGE_DESC ie[4] = {
        {0, 0, 0, NULL}, {1, 0, 1, NULL}, {2, 1, 1, NULL}, {3, 1, 2, NULL}};
    DML_GRAPH_EDGE_DESC ins[4];
    for (int i = 0; i < 4; ++i)
        ins[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &ie[i]};
    DML_OUTPUT_GRAPH_EDGE_DESC oe[2] = {{1, 0, 0, NULL}, {0, 0, 1, NULL}};
    DML_GRAPH_EDGE_DESC outs[2] = {{DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[0]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[1]}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC me = {0, 0, 1, 0, NULL};
    DML_GRAPH_EDGE_DESC mid = {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me};
    UINT n_in = 2 + red_inputs, n_out = keep ? 2 : 1;
    DML_GRAPH_DESC g = {n_in, n_out, 2, nodes, n_in, ins, n_out, outs, 1, &mid};
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_graph_compile(dev, &g, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_host_tensor hi[4], ho[2] = {{out, out_bytes}, {sum, sum_bytes}};
    for (UINT i = 0; i < n_in; ++i)
        hi[i] = (dmlcl_host_tensor){in[i], in_bytes[i]};
    cr_assert_eq(dmlcl_compiled_operator_execute(c, n_in, hi, n_out, ho), S_OK, "%s",
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(ops[0]);
    dmlcl_operator_release(ops[1]);
}

static float uniform(ref_rng *r, double lo, double hi)
{
    return (float)(lo + (hi - lo) * (double)(ref_rng_next(r) >> 11) / 9007199254740992.0);
}

static uint32_t ulps_apart(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    int64_t d = (int64_t)ia - ib;
    return (uint32_t)(d < 0 ? -d : d);
}

/* SkipLayerNormalization: x + skip over the last axis of [T, W], scale and bias [W]. */
Test(graph_reduce, skip_layer_normalization_fused_bit_exact)
{
    const UINT T = 7, W = 41, sizes[2] = {T, W}, vec[2] = {0, 1};
    UINT axes[1] = {1};
    tensor ta, tb, ts, ms, mb, mo;
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {make(&ta, 2, sizes, NULL), make(&tb, 2, sizes, NULL),
                                              make(&ts, 2, sizes, NULL)};
    DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC mvn = {make(&ts, 2, sizes, NULL),
                                                          make(&ms, 2, sizes, vec),
                                                          make(&mb, 2, sizes, vec),
                                                          make(&mo, 2, sizes, NULL),
                                                          1,
                                                          axes,
                                                          1,
                                                          1,
                                                          1e-5f,
                                                          NULL};
    size_t n = (size_t)T * W;
    float *x = malloc(n * 4), *skip = malloc(n * 4), *g = malloc(W * 4), *b = malloc(W * 4);
    float *fused = malloc(n * 4), *apart = malloc(n * 4), *sum = malloc(n * 4);
    ref_rng r = ref_rng_make(ref_mix64(0x736b69706c6eull));
    for (size_t i = 0; i < n; ++i) {
        x[i] = uniform(&r, -4, 4);
        skip[i] = uniform(&r, -2, 2);
    }
    for (UINT c = 0; c < W; ++c) {
        g[c] = uniform(&r, 0.5, 1.5);
        b[c] = uniform(&r, -1, 1);
    }
    void *in[4] = {x, skip, g, b};
    uint64_t bytes[4] = {n * 4, n * 4, W * 4, W * 4};
    run_graph(DML_OPERATOR_ELEMENT_WISE_ADD, &add, DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2, &mvn,
              2, false, in, bytes, fused, n * 4, NULL, 0);
    run_graph(DML_OPERATOR_ELEMENT_WISE_ADD, &add, DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2, &mvn,
              2, true, in, bytes, apart, n * 4, sum, n * 4);
    cr_expect(memcmp(fused, apart, n * 4) == 0, "fused and apart differ");
    for (UINT t = 0; t < T; ++t) {
        double mean = 0, var = 0;
        for (UINT c = 0; c < W; ++c)
            mean += (double)(x[t * W + c] + skip[t * W + c]);
        mean /= W;
        for (UINT c = 0; c < W; ++c) {
            double d = (double)(x[t * W + c] + skip[t * W + c]) - mean;
            var += d * d;
        }
        var /= W;
        for (UINT c = 0; c < W; ++c) {
            double want = ((double)(x[t * W + c] + skip[t * W + c]) - mean) /
                              sqrt(var + (double)1e-5f) * g[c] +
                          b[c];
            cr_assert(fabs(fused[t * W + c] - want) <= 1.0 / 1024, "[%u,%u]: %.9g, want %.9g", t, c,
                      (double)fused[t * W + c], want);
        }
    }
    free(x), free(skip), free(g), free(b), free(fused), free(apart), free(sum);
}

/* Attention: scores [B, H, S, S] + a mask [B, 1, 1, S] (broadcast by strides), softmax over
 * the last axis. */
static void masked_softmax(const UINT B, const UINT H, const UINT S)
{
    const UINT sizes[4] = {B, H, S, S}, mask_strides[4] = {S, 0, 0, 1};
    UINT axes[1] = {3};
    tensor ta, tb, ts, so;
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {
        make(&ta, 4, sizes, NULL), make(&tb, 4, sizes, mask_strides), make(&ts, 4, sizes, NULL)};
    DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sm = {make(&ts, 4, sizes, NULL),
                                                make(&so, 4, sizes, NULL), 1, axes};
    size_t n = (size_t)B * H * S * S;
    float *x = malloc(n * 4), *mask = malloc((size_t)B * S * 4);
    float *fused = malloc(n * 4), *apart = malloc(n * 4), *sum = malloc(n * 4);
    ref_rng r = ref_rng_make(ref_mix64(0x6d61736bull));
    for (size_t i = 0; i < n; ++i)
        x[i] = uniform(&r, -8, 8);
    for (size_t i = 0; i < (size_t)B * S; ++i)
        mask[i] = i % 7 == 3 ? -10000.0f : 0.0f;
    void *in[2] = {x, mask};
    uint64_t bytes[2] = {n * 4, (uint64_t)B * S * 4};
    run_graph(DML_OPERATOR_ELEMENT_WISE_ADD, &add, DML_OPERATOR_ACTIVATION_SOFTMAX1, &sm, 0, false,
              in, bytes, fused, n * 4, NULL, 0);
    run_graph(DML_OPERATOR_ELEMENT_WISE_ADD, &add, DML_OPERATOR_ACTIVATION_SOFTMAX1, &sm, 0, true,
              in, bytes, apart, n * 4, sum, n * 4);
    cr_expect(memcmp(fused, apart, n * 4) == 0, "fused and apart differ");
    for (size_t row = 0; row < (size_t)B * H * S; ++row) {
        size_t bi = row / (H * S);
        double v[128], m = -INFINITY, s = 0;
        for (UINT c = 0; c < S; ++c) {
            v[c] = (double)(x[row * S + c] + mask[bi * S + c]);
            m = v[c] > m ? v[c] : m;
        }
        for (UINT c = 0; c < S; ++c)
            s += exp(v[c] - m);
        for (UINT c = 0; c < S; ++c) {
            float want = (float)(exp(v[c] - m) / s);
            cr_assert(ulps_apart(fused[row * S + c], want) <= 3 * S + 3,
                      "row %zu col %u: %.9g, want %.9g", row, c, (double)fused[row * S + c],
                      (double)want);
        }
    }
    free(x), free(mask), free(fused), free(apart), free(sum);
}

Test(graph_reduce, masked_softmax_fused_bit_exact)
{
    masked_softmax(2, 2, 19);
    /* 128 rows of 128: a 2-core CPU's items take 4 rows each, two at a time
     * (src/launch_reduce.c RPI, PAIRS), the mask added in the reads (PRE_OP) and apart. */
    masked_softmax(1, 1, 128);
}

/* A split reduction in a graph (launch.h dmli_reduce_split, forced on small inputs by tuning):
 * {t = ADD(a, b); s = REDUCE SUM of t over axis 0; p = MULTIPLY(t, b)}, t read twice, so kept in
 * the temporary resource; the reduction's slices go past it there (program.h scratch_at), so p,
 * computed after them from t, is right only if they did not overwrite t. Sums and products of
 * sixteenths: exact, compared bit for bit. */
Test(graph_reduce, split_reduction_scratch_past_the_intermediates)
{
    enum { R = 64, C = 40 };
    cl_uint units = 0;
    clGetDeviceInfo(dmlcl_device_id(ops_device()), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                    &units, NULL);
    bool splits = units >= 2 && dmlcl_device_get_class(ops_device()) == DMLCL_DEVICE_CLASS_CPU;
    static float a[R * C], b[R * C], s[C], p[R * C];
    ref_rng rng = ref_rng_make(77);
    for (int i = 0; i < R * C; ++i) {
        a[i] = (float)ref_rng_range(&rng, -64, 64) / 16;
        b[i] = (float)ref_rng_range(&rng, -64, 64) / 16;
    }
    tensor ta, tb, tt, ts, tm, tp;
    const UINT full[2] = {R, C}, row[2] = {1, C};
    static const UINT axis0[1] = {0};
    DML_ELEMENT_WISE_ADD_OPERATOR_DESC add = {make(&ta, 2, full, NULL), make(&tb, 2, full, NULL),
                                              make(&tt, 2, full, NULL)};
    DML_REDUCE_OPERATOR_DESC red = {DML_REDUCE_FUNCTION_SUM, &tt.desc, make(&ts, 2, row, NULL), 1,
                                    axis0};
    DML_ELEMENT_WISE_MULTIPLY_OPERATOR_DESC mul = {make(&tm, 2, full, NULL), &tb.desc,
                                                   make(&tp, 2, full, NULL)};
    dmlcl_device *dev = ops_device();
    dmlcl_operator *ops[3];
    DML_OPERATOR_DESC d[3] = {{DML_OPERATOR_ELEMENT_WISE_ADD, &add},
                              {DML_OPERATOR_REDUCE, &red},
                              {DML_OPERATOR_ELEMENT_WISE_MULTIPLY, &mul}};
    for (int i = 0; i < 3; ++i)
        cr_assert_eq(dmlcl_operator_create(dev, &d[i], &ops[i]), S_OK, "%s", dmlcl_last_error());
    DML_OPERATOR_GRAPH_NODE_DESC nd[3] = {{(IDMLOperator *)ops[0], "add"},
                                          {(IDMLOperator *)ops[1], "sum"},
                                          {(IDMLOperator *)ops[2], "multiply"}};
    DML_GRAPH_NODE_DESC nodes[3];
    for (int i = 0; i < 3; ++i)
        nodes[i] = (DML_GRAPH_NODE_DESC){DML_GRAPH_NODE_TYPE_OPERATOR, &nd[i]};
    DML_INPUT_GRAPH_EDGE_DESC ie[3] = {{0, 0, 0, NULL}, {1, 0, 1, NULL}, {1, 2, 1, NULL}};
    DML_GRAPH_EDGE_DESC ins[3];
    for (int i = 0; i < 3; ++i)
        ins[i] = (DML_GRAPH_EDGE_DESC){DML_GRAPH_EDGE_TYPE_INPUT, &ie[i]};
    DML_OUTPUT_GRAPH_EDGE_DESC oe[2] = {{1, 0, 0, NULL}, {2, 0, 1, NULL}};
    DML_GRAPH_EDGE_DESC outs[2] = {{DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[0]},
                                   {DML_GRAPH_EDGE_TYPE_OUTPUT, &oe[1]}};
    DML_INTERMEDIATE_GRAPH_EDGE_DESC me[2] = {{0, 0, 1, 0, NULL}, {0, 0, 2, 0, NULL}};
    DML_GRAPH_EDGE_DESC mid[2] = {{DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me[0]},
                                  {DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &me[1]}};
    DML_GRAPH_DESC g = {2, 2, 3, nodes, 3, ins, 2, outs, 2, mid};
    char *saved = ops_tuning_set("stream_cache_divisor=1000000");
    dmlcl_compiled_operator *c;
    cr_assert_eq(dmlcl_graph_compile(dev, &g, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s",
                 dmlcl_last_error());
    ops_tuning_restore(saved);
    UINT64 temp = dmlcl_compiled_operator_binding_properties(c).TemporaryResourceSize;
    /* t (R x C floats) and, where the sum splits, 2 or more slices of C floats past it. */
    if (splits)
        cr_expect_geq(temp, (UINT64)(R * C + 2 * C) * 4, "TemporaryResourceSize %llu",
                      (unsigned long long)temp);
    dmlcl_host_tensor hi[2] = {{a, sizeof a}, {b, sizeof b}};
    dmlcl_host_tensor ho[2] = {{s, sizeof s}, {p, sizeof p}};
    cr_assert_eq(dmlcl_compiled_operator_execute(c, 2, hi, 2, ho), S_OK, "%s", dmlcl_last_error());
    int bad = 0;
    for (int col = 0; col < C; ++col) {
        double want = 0;
        for (int r = 0; r < R; ++r)
            want += (double)a[r * C + col] + b[r * C + col];
        bad += s[col] != (float)want;
    }
    for (int i = 0; i < R * C; ++i)
        bad += p[i] != (a[i] + b[i]) * b[i];
    cr_expect_eq(bad, 0, "%d of %d values wrong", bad, C + R * C);
    dmlcl_compiled_operator_release(c);
    for (int i = 0; i < 3; ++i)
        dmlcl_operator_release(ops[i]);
}
