/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what every device test shares. A test describes its tensors
 * (ops_tensor), places them in device buffers with guard bytes around each
 * binding (ops_memory), fills inputs, runs the C reference on a copy of the
 * memory image, dispatches through the real binding API and compares the
 * whole image byte for byte: the output's logical elements must match the
 * reference, and nothing else (guards, stride padding, the inputs) may change.
 */
#ifndef DMLCL_TESTS_OPS_HARNESS_H
#define DMLCL_TESTS_OPS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmlcl/dmlcl.h"
#include "ref.h"

#define OPS_MAX_BUFFERS 4
/* Tensors on one side of an operator (JOIN's inputs, SPLIT's outputs: 64). */
#define OPS_MAX_TENSORS 64
/* Largest span (in elements) a random layout may cover. */
#define OPS_MAX_SPAN (1u << 18)

/*
 * The device of the running test, created on first use from DMLCL_PLATFORM /
 * DMLCL_DEVICE and released by its suite's .fini: every suite that touches
 * the device declares OPS_DEVICE_SUITE(name) (ops_device() fails the test
 * otherwise). Not released from atexit: glibc runs the thread-local
 * destructors of the OpenCL implementation before atexit handlers, and a
 * release after them corrupts Oclgrind's heap.
 */
dmlcl_device *ops_device(void);
void ops_device_release(void);
#define OPS_DEVICE_SUITE(name) TestSuite(name, .fini = ops_device_release)

/* ---- Tensors ------------------------------------------------------------------ */

typedef struct ops_tensor {
    const char *name; /* DirectML's field: "InputTensor" */
    bool output;
    bool null_strides; /* DML_BUFFER_TENSOR_DESC.Strides = NULL (packed) */
    uint32_t sizes[REF_MAX_DIMS];
    uint32_t strides[REF_MAX_DIMS]; /* the packed strides when null_strides */
    DML_BUFFER_TENSOR_DESC buffer;
    DML_TENSOR_DESC desc;
    /* Placement, set by ops_memory_place. */
    int slot;           /* which buffer */
    uint64_t offset;    /* DML_BUFFER_BINDING.Offset */
    uint64_t bind_size; /* DML_BUFFER_BINDING.SizeInBytes */
} ops_tensor;

/*
 * strides NULL: DirectML's packed default. TotalTensorSizeInBytes =
 * DMLCalcBufferTensorSize + extra_bytes.
 */
void ops_tensor_init(ops_tensor *t, const char *name, bool output, DML_TENSOR_DATA_TYPE type,
                     uint32_t rank, const uint32_t *sizes, const uint32_t *strides,
                     uint64_t extra_bytes, uint32_t base_alignment);
/* The DML_TENSOR_DESC for an operator description (re-pointed at t's arrays). */
const DML_TENSOR_DESC *ops_tensor_desc(ops_tensor *t);
/* "InputTensor FLOAT32 {2,3} strides {3,1} total 24 @b0+32/28" */
const char *ops_tensor_describe(const ops_tensor *t, char *buf, size_t len);

/* ---- Layouts ------------------------------------------------------------------ */

typedef enum ops_layout {
    OPS_LAYOUT_NULL,      /* Strides = NULL */
    OPS_LAYOUT_PACKED,    /* explicit packed strides */
    OPS_LAYOUT_PADDED,    /* row-major with gaps between rows and planes */
    OPS_LAYOUT_PERMUTED,  /* another dimension order (transposed), with gaps */
    OPS_LAYOUT_BROADCAST, /* 0 strides on some dimensions: inputs only */
    OPS_LAYOUT_ARBITRARY, /* any small strides, elements may alias: inputs only */
    OPS_LAYOUT_COUNT
} ops_layout;

const char *ops_layout_name(ops_layout layout);
/* A random layout; for outputs only the ones that give every element its own slot. */
ops_layout ops_layout_random(ref_rng *rng, bool output);
/*
 * Strides for the layout into strides (false for OPS_LAYOUT_NULL). Strides of
 * size-1 dimensions are sometimes arbitrary, as DirectML allows. Falls back
 * to packed when the span would exceed OPS_MAX_SPAN.
 */
bool ops_layout_strides(ref_rng *rng, ops_layout layout, uint32_t rank, const uint32_t *sizes,
                        uint32_t *strides);

/*
 * Random sizes for rank dimensions (1 in about a fifth of them, smaller caps at higher ranks),
 * halved until at most max_elements; a tensor of a random layout (ops_layout_random), now and
 * then with extra bytes and a 64-byte GuaranteedBaseOffsetAlignment.
 */
void ops_random_sizes(ref_rng *rng, uint32_t rank, uint32_t *sizes, uint64_t max_elements);
void ops_random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                       DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                       ops_layout *layout);

/* ---- Memory: buffers with guarded bindings ------------------------------------- */

typedef struct ops_memory {
    int count;
    uint64_t size[OPS_MAX_BUFFERS];
    unsigned char *init[OPS_MAX_BUFFERS];   /* what is uploaded */
    unsigned char *expect[OPS_MAX_BUFFERS]; /* init with the reference's output elements */
    unsigned char *got[OPS_MAX_BUFFERS];    /* what came back */
    cl_mem mem[OPS_MAX_BUFFERS];
} ops_memory;

/*
 * Gives t a binding: a new buffer, or (share) after the last binding of the
 * current one. The offset is a non-zero multiple of 16 (and of the
 * tensor's GuaranteedBaseOffsetAlignment) with guard bytes before it, the
 * bound size may exceed TotalTensorSizeInBytes, and guard bytes follow.
 */
void ops_memory_place(ops_memory *m, ref_rng *rng, ops_tensor *t, bool share);
/* Allocates the host images (init filled with random bytes) and the cl_mem buffers. */
void ops_memory_alloc(ops_memory *m, ref_rng *rng);
void ops_memory_release(ops_memory *m);

typedef enum ops_image { OPS_INIT, OPS_EXPECT, OPS_GOT } ops_image;
/* The first byte of t's binding in an image. */
unsigned char *ops_ptr(const ops_memory *m, ops_image image, const ops_tensor *t);
/* A reference view of t in an image. */
ref_tensor ops_view(const ops_memory *m, ops_image image, const ops_tensor *t);

/*
 * The memory of a one-input operator: places input, then output (sharing its
 * buffer when shared), allocates, fills the input's whole span with distinct
 * elements of type and snapshots, ready for the reference.
 */
void ops_memory_unary(ops_memory *m, ref_rng *rng, ops_tensor *input, ops_tensor *output,
                      bool shared, DML_TENSOR_DATA_TYPE type);

/* expect = init: call after filling the inputs, before running the reference. */
void ops_memory_snapshot(ops_memory *m);
/*
 * Sets every logical element of output t in init to the complement of its
 * expected bytes, so an element the device forgets to write cannot pass.
 */
void ops_poison_output(ops_memory *m, const ops_tensor *t);

/* ---- Data ------------------------------------------------------------------- */

/*
 * Fills count elements with pairwise-distinct bit patterns (as far as the
 * width allows), with NaN payloads, -0.0, infinities and denormals sprinkled
 * into floating-point data.
 */
void ops_fill_distinct(ref_rng *rng, DML_TENSOR_DATA_TYPE type, void *dst, uint64_t count);

/*
 * Fills count index values (INT32, UINT32, INT64 or UINT64) for an axis of
 * axis_size: valid ones, negative ones (signed types, negative_percent of
 * them) and invalid ones (invalid_percent: just past either end, the type's
 * extremes, values that look valid when truncated to 32 bits or read as
 * signed).
 */
void ops_fill_indices(ref_rng *rng, DML_TENSOR_DATA_TYPE type, void *dst, uint64_t count,
                      uint32_t axis_size, unsigned negative_percent, unsigned invalid_percent);

/* ---- Running ------------------------------------------------------------------ */

typedef enum ops_submit {
    OPS_SUBMIT_DEFAULT,    /* blocking writes, the device's queue, wait on the event */
    OPS_SUBMIT_WAIT_LIST,  /* writes on a side queue, their events in the wait list */
    OPS_SUBMIT_SIDE_QUEUE, /* everything on a side queue given to dispatch, no event */
    OPS_SUBMIT_COUNT
} ops_submit;

const char *ops_submit_name(ops_submit submit);

/* Binds every tensor at its placement through the public binding API (a NULL input: an
 * absent optional tensor, DML_BINDING_TYPE_NONE). */
HRESULT ops_bind(dmlcl_binding_table *table, const ops_memory *m, ops_tensor *const *inputs,
                 UINT input_count, ops_tensor *const *outputs, UINT output_count);

/* Writes init to every buffer (blocking). */
void ops_upload(ops_memory *m);
/* Reads every buffer into got (blocking). */
void ops_download(ops_memory *m);

/*
 * create -> compile -> binding table -> bind -> upload -> dispatch -> wait ->
 * status -> download. On failure returns the HRESULT and names the call in
 * *stage (dmlcl_last_error() has the library's message).
 */
HRESULT ops_run_device(const DML_OPERATOR_DESC *desc, ops_memory *m, ops_tensor *const *inputs,
                       UINT input_count, ops_tensor *const *outputs, UINT output_count,
                       ops_submit submit, const char **stage);

/*
 * desc created, compiled and run by dmlcl_compiled_operator_execute on the
 * host arrays ins (n_in) into out (one output), asserting each call's S_OK;
 * what names the case in a failure.
 */
void ops_execute_on_host(const char *what, const DML_OPERATOR_DESC *desc, UINT n_in,
                         const dmlcl_host_tensor *ins, dmlcl_host_tensor out);

/*
 * The same through dmlcl_compiled_operator_execute on host copies of each
 * binding; got = init with the host copies put back.
 */
HRESULT ops_run_host(const DML_OPERATOR_DESC *desc, ops_memory *m, ops_tensor *const *inputs,
                     UINT input_count, ops_tensor *const *outputs, UINT output_count,
                     const char **stage);

/*
 * Compares got with expect: first the outputs' logical elements (naming
 * their coordinates), then every other byte of every buffer (guards, stride
 * padding, bound tails, inputs). Returns the number of mismatching elements
 * plus stray bytes; describes the first few in msg.
 */
uint64_t ops_compare(const ops_memory *m, ops_tensor *const *tensors, int count, char *msg,
                     size_t len);

/*
 * DMLCL_TUNING set to value (the library reads it at each launch decision) for
 * the calls that follow; returns what it was, for ops_tuning_restore.
 */
char *ops_tuning_set(const char *value);
/* DMLCL_TUNING back to saved (ops_tuning_set's result; NULL: unset), freed. */
void ops_tuning_restore(char *saved);

#endif /* DMLCL_TESTS_OPS_HARNESS_H */
