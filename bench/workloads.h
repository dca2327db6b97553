/* SPDX-License-Identifier: MIT */
/* dmlcl-bench workloads: one operator each, with an independent expected output. */
#ifndef DMLCL_BENCH_WORKLOADS_H
#define DMLCL_BENCH_WORKLOADS_H

#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>

#define BENCH_MAX_INPUTS 4
#define BENCH_MAX_OUTPUTS 3

typedef enum limit_kind { LIMIT_COPY, LIMIT_FILL } limit_kind;

/* Tensor descriptions and host data for one workload (owned storage). */
typedef struct workload {
    const char *name;
    const char *what; /* one line for the table */
    limit_kind limit; /* what the same bytes cost: a buffer copy, or a fill */
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
    UINT sizes[6][8], strides[6][8];
    INT signed_strides[8];
    DML_BUFFER_TENSOR_DESC buffers[6];
    DML_TENSOR_DESC tensors[6];
    union {
        DML_GATHER_OPERATOR_DESC gather;
        DML_GATHER_ND1_OPERATOR_DESC gather_nd1;
        DML_SLICE1_OPERATOR_DESC slice1;
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
        DML_TILE_OPERATOR_DESC tile;
        DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space;
        DML_JOIN_OPERATOR_DESC join;
        DML_SPLIT_OPERATOR_DESC split;
        DML_PADDING_OPERATOR_DESC padding;
    } op;
    UINT repeats[8]; /* TILE */
} workload;

typedef int (*workload_setup)(workload *w);

extern const workload_setup bench_workloads[];
extern const unsigned bench_workload_count;
/* The same kinds at other shapes and types (dmlcl-bench --variants). */
extern const workload_setup bench_variants[];
extern const unsigned bench_variant_count;

void workload_free(workload *w);

#endif
