/* SPDX-License-Identifier: MIT */
/* dmlcl-bench workloads: one operator each, with an independent expected output. */
#ifndef DMLCL_BENCH_WORKLOADS_H
#define DMLCL_BENCH_WORKLOADS_H

#include <stdbool.h>
#include <stdint.h>

#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>

#define BENCH_MAX_INPUTS 10
#define BENCH_MAX_OUTPUTS 3

/*
 * The straightforward OpenCL kernel a user would write instead (one
 * work-item per output element, coordinates by division, as OpenVINO's GPU
 * plugin's reference kernels do): out[gid] for gid over the packed output.
 *   VIEW    in[offset + sum_d coord_d * stride_d], coords over sizes (up to 8
 *           dimensions: a tile is (repeat, size) pairs, the repeats stride 0)
 *   GATHER  out [outer, k, inner] = in[(o * axis + fix(idx[b * k + j])) * inner + i],
 *           b = o with batch (batch_dims 1), else 0
 */
typedef enum naive_kind { NAIVE_NONE, NAIVE_VIEW, NAIVE_GATHER } naive_kind;
typedef struct naive_desc {
    naive_kind kind;
    unsigned elem, rank; /* VIEW: up to 8 dimensions, output order */
    long sizes[8], strides[8], offset;
    long outer, axis, k, inner, batch; /* GATHER */
} naive_desc;

/* Tensor descriptions and host data for one workload (owned storage). */
typedef struct workload {
    const char *name;
    const char *what;   /* one line for the table */
    const char *tuning; /* the GPU memory model's runs: DMLCL_TUNING for this shape, or NULL */
    naive_desc naive;
    /* 64-byte lines of each input the expected output reads (bench/limit.h
     * counts the unavoidable traffic: these lines, plus the output's). */
    unsigned char *lines[BENCH_MAX_INPUTS];
    DML_OPERATOR_DESC desc;
    unsigned n_inputs;
    void *inputs[BENCH_MAX_INPUTS];
    size_t input_bytes[BENCH_MAX_INPUTS];
    size_t output_bytes;
    void *expected; /* output_bytes, computed by plain loops */
    /* Several outputs (SPLIT): their bytes, back to back in expected; 0: one output. */
    unsigned n_outputs;
    size_t out_bytes[BENCH_MAX_OUTPUTS];
    /* descriptor storage */
    UINT sizes[12][8], strides[12][8];
    INT signed_strides[8];
    DML_BUFFER_TENSOR_DESC buffers[12];
    DML_TENSOR_DESC tensors[12];
    union {
        DML_GATHER_OPERATOR_DESC gather;
        DML_GATHER_ND1_OPERATOR_DESC gather_nd1;
        DMLCL_GATHER1_OPERATOR_DESC gather1;
        DML_SLICE1_OPERATOR_DESC slice1;
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
        DML_TILE_OPERATOR_DESC tile;
        DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space;
        DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth;
        DML_JOIN_OPERATOR_DESC join;
        DML_SPLIT_OPERATOR_DESC split;
        DML_PADDING_OPERATOR_DESC padding;
        DML_ELEMENT_WISE_ADD_OPERATOR_DESC binary; /* ADD, MULTIPLY, ... (one layout) */
        DML_ELEMENT_WISE_ADD1_OPERATOR_DESC add1;
        DML_ACTIVATION_SIGMOID_OPERATOR_DESC unary; /* activations of one tensor, CAST */
        DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC clip1;
        DML_REDUCE_OPERATOR_DESC reduce;
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC softmax1;
        DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC mvn2;
        DML_BATCH_NORMALIZATION_OPERATOR_DESC batch_norm;
        DML_ARGMAX_OPERATOR_DESC argmax;
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum;
        DML_GEMM_OPERATOR_DESC gemm;
        DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC mm_integer;
        DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC qlinear_mm;
        DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC qlinear_conv;
        DML_MAX_POOLING_OPERATOR_DESC max_pooling;
        DML_AVERAGE_POOLING_OPERATOR_DESC average_pooling;
        DML_RESAMPLE2_OPERATOR_DESC resample2;
        DML_CONVOLUTION_OPERATOR_DESC conv;
    } op;
    UINT pool_args[8];    /* pooling's Strides, WindowSize, StartPadding, EndPadding */
    float resample[3][8]; /* RESAMPLE2's Scales, InputPixelOffsets, OutputPixelOffsets */
    UINT axes[8];         /* reductions' Axes */
    DML_ACTIVATION_RELU_OPERATOR_DESC fused_relu; /* ADD1's FusedActivation */
    DML_OPERATOR_DESC fused;
    /* FLOAT32 outputs compared within this many ULPs of expected (a double result rounded
     * once): transcendental activations, held to precision.md's tolerances; 0: bytes. */
    unsigned float_ulps;
    /* ... or within this absolute difference (layer normalization's 1/1024). */
    double float_abs;
    UINT repeats[8];           /* TILE */
    DML_SCALE_BIAS scale_bias; /* IDENTITY with ScaleBias (the map family) */
    /* Compute-bound workloads (the matrix family): floating-point operations per run (a
     * multiply-add counts 2); dmlcl-bench reports GFLOP/s and the fraction of peak. 0: none. */
    double flops;
} workload;

typedef int (*workload_setup)(workload *w);

extern const workload_setup bench_workloads[];
extern const unsigned bench_workload_count;
/* The same kinds at other shapes and types (dmlcl-bench --variants). */
extern const workload_setup bench_variants[];
extern const unsigned bench_variant_count;
/* The data-movement workloads scaled down for the GPU memory model (dmlcl-gpumodel). */
extern const workload_setup bench_model_workloads[];
extern const unsigned bench_model_workload_count;

/* The helpers workloads*.c share: tensor t of w (packed unless strides given); input bytes
 * (allocated, and counted by their lines); input i's bytes [at, at + bytes) read; a seeded
 * 64-bit random number. */
const DML_TENSOR_DESC *bench_tensor(workload *w, int t, DML_TENSOR_DATA_TYPE type, UINT rank,
                                    const UINT *sizes, const UINT *strides);
void *bench_alloc_input(workload *w, size_t bytes);
void bench_touch(workload *w, unsigned i, size_t at, size_t bytes);
uint64_t bench_random(void);
/* Restarts bench_random's sequence (dmlcl-gpumodel: each workload's draws its own). */
void bench_random_seed(uint64_t seed);

/* The reductions' workloads (workloads_reduce.c), in bench_workloads after the others. */
int bench_sum_inner(workload *w);
int bench_sum_outer(workload *w);
/* The GPU memory model's shapes of the arithmetic kinds (bench_model_workloads). */
int bench_model_sum_inner(workload *w);
int bench_model_sum_outer(workload *w);
int bench_model_sum_outer_split(workload *w);
int bench_model_softmax_rows(workload *w);
int bench_model_softmax_attention(workload *w);
int bench_model_layernorm_384(workload *w);
int bench_model_layernorm_768(workload *w);
int bench_model_bn_relu(workload *w);
int bench_model_argmax_inner(workload *w);
int bench_model_cumsum(workload *w);
int bench_model_sgemm(workload *w);
int bench_model_sgemm_wide(workload *w);
int bench_model_sgemm_wide_nt(workload *w);
int bench_model_gemm_projection_gelu(workload *w);
int bench_model_gemm_attention(workload *w);
int bench_model_qgemm(workload *w);
int bench_model_mm_integer_wide(workload *w);
int bench_model_conv_stem(workload *w);
int bench_model_conv3x3(workload *w);
int bench_model_conv3x3_14(workload *w);
int bench_model_conv1x1(workload *w);
int bench_model_conv_depthwise(workload *w);
int bench_model_conv_transposed(workload *w);
int bench_model_maxpool(workload *w);
int bench_model_global_avgpool(workload *w);
int bench_model_resample_linear_x2(workload *w);
int bench_model_resample_nearest_x2(workload *w);
int bench_softmax_rows(workload *w);
int bench_softmax_attention(workload *w);
int bench_layernorm_384(workload *w);
int bench_layernorm_768(workload *w);
int bench_bn_relu(workload *w);
int bench_argmax_inner(workload *w);
int bench_cumsum(workload *w);
/* The pooling workloads (workloads_pool.c), after the reductions'. */
int bench_maxpool_stem(workload *w);
int bench_global_avgpool(workload *w);

/* The matrix family's workloads (workloads_matrix.c), after the reductions'. An input of 0
 * bytes is an absent optional tensor (bound as DML_BINDING_TYPE_NONE). */
int bench_sgemm_1024(workload *w);
int bench_sgemm_4096(workload *w);
int bench_gemm_projection(workload *w);
int bench_gemm_projection_gelu(workload *w);
int bench_qgemm_projection(workload *w);
int bench_mm_integer_1024(workload *w);
int bench_qconv3x3_56(workload *w);
int bench_gemm_attention(workload *w);
/* The resampling workloads (workloads_resample.c), after the matrix family's. */
int bench_resample_linear_x2(workload *w);
int bench_resample_nearest_x2(workload *w);

/* The convolutions' workloads (workloads_conv.c), after the reductions. */
int bench_conv_stem(workload *w);
int bench_conv3x3_56(workload *w);
int bench_conv3x3_14(workload *w);
int bench_conv1x1_56(workload *w);
int bench_conv_depthwise(workload *w);
int bench_conv_transposed(workload *w);

/* Input bytes read, counted in whole 64-byte lines (an input whose lines
 * the workload does not mark counts whole). */
size_t workload_read_bytes(const workload *w);
/* Output element got against expected under the workload's float_ulps / float_abs (floats of
 * one sign or the same NaN-ness counted in ULPs): dmlcl-bench's and dmlcl-ab's check. */
bool workload_float_ok(const workload *w, float got, float expected);
void workload_free(workload *w);

#endif
