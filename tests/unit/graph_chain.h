/* SPDX-License-Identifier: MIT */
/*
 * graph_chain.h: seeded random graphs of 2-6 data-movement nodes (slices,
 * SLICE1 with negative steps, identities that transpose, pad or broadcast
 * through strides, gathers and gather-elements whose indices come from graph
 * inputs, from slices of them, or from other gathers), with the reference
 * (tests/ref) applied node by node as each node is added. The expected
 * graph outputs are the reference's; a graph plan run on the same inputs
 * must reproduce them bit for bit, sentinel bytes around them included.
 */
#ifndef DMLCL_TESTS_UNIT_GRAPH_CHAIN_H
#define DMLCL_TESTS_UNIT_GRAPH_CHAIN_H

#include "graph_support.h"
#include "ref.h"

#define CHAIN_MAX_IO 12
#define CHAIN_SENTINEL 0x5A

typedef struct chain {
    unit_graph g;
    UINT n_inputs, n_outputs;
    void *inputs[CHAIN_MAX_IO];
    uint64_t input_bytes[CHAIN_MAX_IO];
    void *expect[CHAIN_MAX_IO]; /* reference outputs, sentinel-filled around the elements */
    uint64_t output_bytes[CHAIN_MAX_IO];
    void *values[UG_MAX]; /* each node's reference output */
    char log[1024];       /* the nodes, for failure messages */
} chain;

/* Builds a random chain of `nodes` (2-6) main nodes from rng. */
void chain_make(chain *c, ref_rng *rng, int nodes);
void chain_free(chain *c);

#endif /* DMLCL_TESTS_UNIT_GRAPH_CHAIN_H */
