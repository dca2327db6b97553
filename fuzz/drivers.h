/* SPDX-License-Identifier: MIT */
/*
 * The fuzz drivers: each turns arbitrary bytes into calls of one dmlcl
 * surface and checks what must hold for every input. They are plain C (no
 * libFuzzer types), so the unit tests replay fuzz/regressions and sweep
 * seeded random bytes through the same code without a fuzzing compiler.
 *
 * Each returns 0, or 1 with why filled when an invariant broke (the
 * libFuzzer targets then abort, so the input becomes a crasher). *accepted
 * (when not NULL) counts the calls dmlcl accepted, for sweeps and seeds.
 */
#ifndef DMLCL_FUZZ_DRIVERS_H
#define DMLCL_FUZZ_DRIVERS_H

#include <stddef.h>
#include <stdint.h>

#include "dmlcl/dmlcl.h"

#define FUZZ_WHY 512

/* Operator creation from a decoded descriptor (every operator type, NULL device). */
int fuzz_operators(const uint8_t *data, size_t size, char *why, unsigned *accepted);
/* Every framework front-end; an accepted result must create its operator. */
int fuzz_frontends(const uint8_t *data, size_t size, char *why, unsigned *accepted);
/* The conformance case-file parser and builders (operators created host-only). */
int fuzz_cases(const uint8_t *data, size_t size, char *why, unsigned *accepted);

/*
 * A DML_GRAPH_DESC of up to 6 nodes (operators from fuzz_operators' decoder or a few
 * shapes likely to connect, and constant data) with fuzzed edges: the import returns,
 * and an accepted graph's steps stay inside the ranges their slots bind.
 */
int fuzz_graphs(const uint8_t *data, size_t size, char *why, unsigned *accepted);

/*
 * DirectML's C++ API itself (com.cpp, built where DMLCL_COM is on; needs an
 * OpenCL device): devices, feature queries, operators, graphs, initializers,
 * binding tables and the recorder driven from the bytes, with any enum
 * value. A 0 byte then an operator's encoding runs that operator through
 * create, compile, initialize, bind and dispatch; 1, 0, then the encoding,
 * a one-node graph of it.
 */
int fuzz_com(const uint8_t *data, size_t size, char *why, unsigned *accepted);

/*
 * dmlcl-dispatch's readers (tools/dispatch): the first byte's low bit picks a JSON model (0)
 * or a dmlSerializedGraph file (1), the rest is the file; operator dispatchables are created
 * with a NULL device. Every refusal must carry a message.
 */
int fuzz_dispatch(const uint8_t *data, size_t size, char *why, unsigned *accepted);

/* The encoding fuzz_operators decodes, for seeds; returns bytes written (0: no room). */
size_t fuzz_encode_operator(const DML_OPERATOR_DESC *desc, uint8_t *buf, size_t cap);

/*
 * Host-side bounds of an accepted descriptor: every element offset its plan
 * can reach lies inside its tensors' TotalTensorSizeInBytes. 0 or 1 with why.
 */
int fuzz_check_plan(const DML_OPERATOR_DESC *desc, char *why);

/*
 * The same on an operator's state as lowered (normalises its plans): and
 * the steps write disjoint parts of the outputs. 0 or 1 with why.
 */
struct dmli_op_state;
int fuzz_check_state(struct dmli_op_state *st, char *why);
/* A reduction inside its output and input tensors, its launch one OpenCL takes. */
struct dmli_reduce;
struct dmli_tensor;
int fuzz_check_reduce(const struct dmli_reduce *r, const struct dmli_tensor *outs,
                      const struct dmli_tensor *ins, const char *stage, char *why);

/* A scatter's copy and kernel inside the tensors its slots bind (input, indices, updates,
 * output: scatter.h's order). */
struct dmli_compute;
struct dmli_tensor;
int fuzz_check_scatter(const struct dmli_compute *c, const struct dmli_tensor *tensors,
                       const char *stage, char *why);

/* One plan against the tensors its output, input and (INDEXED) indices bind; stage names it. */
struct dmli_plan;
struct dmli_tensor;
int fuzz_check_bounds(const struct dmli_plan *p, const struct dmli_tensor *out,
                      const struct dmli_tensor *in, const struct dmli_tensor *ix, const char *stage,
                      char *why);
/* Its launch on a CPU and two GPUs: a valid NDRange, shape and options inside their arrays. */
int fuzz_check_launches(const struct dmli_plan *p, const char *what, char *why);

/* bytes -> one operator description, as fuzz_operators decodes it, in storage slot `slot`
 * (0..FUZZ_OPERATOR_SLOTS-1: each slot's description lives until that slot is decoded again). */
#define FUZZ_OPERATOR_SLOTS 8
struct fuzz_in;
void fuzz_decode_operator(struct fuzz_in *in, unsigned slot, DML_OPERATOR_DESC *op);

/* A bound on the work one dispatch of op does: (its inputs' logical elements) x (its outputs'),
 * saturating. Every kernel does at most that many steps (a GEMM's M N K, a convolution's outputs
 * x channels x taps, a reduction's or a pool's input reads); zero strides make logical sizes
 * far larger than the bound buffers, so the drivers that dispatch skip the work past a limit. */
uint64_t fuzz_work_bound(const dmlcl_operator *op);

#endif /* DMLCL_FUZZ_DRIVERS_H */
