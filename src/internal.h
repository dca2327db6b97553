/* SPDX-License-Identifier: MIT */
/*
 * Internal interfaces of dmlcl. Cross-file internals carry the dmli_ / DMLI_
 * prefix; dmlcl_ / DMLCL_ names are public (include/). Layers, each calling
 * only down:
 *   com/         DirectML's COM interfaces (C++), thin objects over the C API
 *   frontends/   framework rules (OpenVINO, ONNX) -> a DML_OPERATOR_DESC
 *                for the caller to create; beside the object model, not
 *                under it (frontends/common.h; slices share ops/strided_slice.h)
 *   runtime.c    operators, compiled operators, binding tables, dispatch;
 *                execute.c the synchronous call on host memory
 *   graph_api.c  compiled graphs in the same object model: graph.c validates
 *                a DML_GRAPH_DESC, graph_plan.c + fuse.c compose node plans
 *                into steps, graph_exec.c / graph_host.c run them
 *   registry.c   the operator table (ops/registry.def), and the one way to
 *                create an operator: its class's validate, infer, lower
 *   ops/<op>.c   one class per operator: validate a public description and
 *                deep-copy its tensors, infer (check) the output shape, lower
 *                to a plan (pure host code)
 *   tensor.c     the buffer-tensor rules (checked.h arithmetic; overlap.c:
 *                an output never overlaps itself)
 *   plan.c       normalise a plan (drop, merge, widen)
 *   bands.c      an operator's steps that walk the same rows as one band
 *                (launch_bands.c its launch, runtime_bands.c its kernel)
 *   launch.c     a plan on a device description -> kernel, options, grid,
 *                shape buffer, argument slots (pure host code; launch.h)
 *   device.c     OpenCL device selection, its description, the program cache
 *   error.c      messages and HRESULTs (errors.h)
 */
#ifndef DMLI_INTERNAL_H
#define DMLI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dmlcl/dmlcl.h"

#include "errors.h"

/* ---- Tensor descriptions (tensor.c) ---------------------------------------- */

#define DMLI_MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX

typedef struct dmli_tensor {
    DML_TENSOR_DATA_TYPE type;
    DML_TENSOR_FLAGS flags;
    uint32_t rank;
    uint32_t elem_bytes;
    uint32_t base_align;   /* GuaranteedBaseOffsetAlignment */
    bool present;          /* false: an absent optional tensor */
    bool explicit_strides; /* the description gave Strides */
    uint64_t sizes[DMLI_MAX_RANK];
    int64_t strides[DMLI_MAX_RANK]; /* elements; packed row-major when not given */
    uint64_t elements;              /* product of sizes (0 for an empty tensor) */
    uint64_t total_bytes;           /* TotalTensorSizeInBytes */
} dmli_tensor;

enum dmli_tensor_rule {
    DMLI_TENSOR_INPUT = 0x1,
    DMLI_TENSOR_OUTPUT = 0x2,
    DMLI_TENSOR_OPTIONAL = 0x4,  /* a NULL desc is an absent tensor */
    DMLI_TENSOR_EXTENSION = 0x8, /* extension types, ranks up to 16, 0 sizes */
};

/*
 * Validates one DML_TENSOR_DESC against the buffer-tensor rules and deep-copies
 * it. op and field name it in messages ("GATHER", "InputTensor").
 */
HRESULT dmli_tensor_import(const char *op, const char *field, const DML_TENSOR_DESC *desc,
                           unsigned rules, dmli_tensor *out);

/*
 * An output never overlaps itself: refuses (naming two coordinates that
 * share an address) strides that make two elements of t share bytes, and
 * what cannot be decided within bounded work (overlap.c).
 */
HRESULT dmli_tensor_check_disjoint(const char *op, const char *field, const dmli_tensor *t);

/* Bytes per element of a movable type; 0 for unknown, 4-bit and string. */
uint32_t dmli_type_size(DML_TENSOR_DATA_TYPE type);
/* "FLOAT32", "BOOLEAN", ... or "DataType(<n>)" (static storage per call site) */
const char *dmli_type_name(DML_TENSOR_DATA_TYPE type);
bool dmli_type_is_float(DML_TENSOR_DATA_TYPE type);
/* A DirectML data type (FLOAT32 to INT4) or a dmlcl extension type: not UNKNOWN. */
bool dmli_type_known(DML_TENSOR_DATA_TYPE type);

/* Minimum bytes for sizes/strides, 64-bit, with overflow reported as UINT64_MAX. */
uint64_t dmli_tensor_min_bytes(uint32_t elem_bytes, uint32_t rank, const uint64_t *sizes,
                               const int64_t *strides);

/* "{3,2,4}" into buf (for messages). */
const char *dmli_format_dims(char *buf, size_t len, uint32_t rank, const uint64_t *dims);
#define DMLI_DIMS_BUF 200

/* ---- Copy plans (plan.c) --------------------------------------------------- */

typedef enum dmli_plan_kind {
    DMLI_PLAN_VIEW,    /* out[o] = in[in_offset + sum o_d * in_stride_d] */
    DMLI_PLAN_INDEXED, /* ... + sum_k fix(idx[..k]) * axis_stride_k */
} dmli_plan_kind;

typedef enum dmli_index_type {
    DMLI_INDEX_NONE,
    DMLI_INDEX_INT32,
    DMLI_INDEX_UINT32,
    DMLI_INDEX_INT64,
    DMLI_INDEX_UINT64,
    DMLI_INDEX_INT8, /* 8- and 16-bit: the extension gathers (OpenVINO) */
    DMLI_INDEX_UINT8,
    DMLI_INDEX_INT16,
    DMLI_INDEX_UINT16,
} dmli_index_type;

typedef enum dmli_oor_policy {
    DMLI_OOR_CLAMP, /* DirectML: clamp the index into the axis */
    DMLI_OOR_ZERO,  /* OpenVINO Gather-8: the gathered slice is zeros */
    DMLI_OOR_ERROR, /* ONNX: zeros, and the dispatch reports the first bad index */
} dmli_oor_policy;

#define DMLI_MAX_COMPONENTS 16

/*
 * A plan is plain data: every operator lowers to one. Dimensions are output
 * dimensions, outermost first; strides are signed element strides into each
 * tensor (index strides in index elements). Offsets are constant element
 * offsets (e.g. a slice's start); binding offsets are added at dispatch.
 */
typedef struct dmli_plan {
    dmli_plan_kind kind;
    uint32_t elem_bytes; /* element width; after normalisation: the unit moved */
    int rank;
    int64_t size[DMLI_MAX_RANK];
    int64_t out_stride[DMLI_MAX_RANK];
    int64_t in_stride[DMLI_MAX_RANK];
    int64_t idx_stride[DMLI_MAX_RANK];
    int64_t idx_pos[DMLI_MAX_RANK]; /* logical (row-major) position in the indices */
    int64_t out_offset, in_offset, idx_offset;

    /* INDEXED: each output position reads `components` index values. */
    dmli_index_type idx_type;
    bool wrap_negative; /* signed index < 0 counts from the end of its axis */
    dmli_oor_policy policy;
    int components;
    int64_t comp_idx_stride; /* index elements between components */
    int64_t comp_pos_stride;
    int64_t axis_size[DMLI_MAX_COMPONENTS];
    int64_t axis_stride[DMLI_MAX_COMPONENTS]; /* input elements per index step */
    /* ERROR policy, empty output, indices not empty: the dims walk the indices
     * only, to report a bad index; nothing is read or written. */
    bool check_only;

    /* ELEMENT_WISE_IDENTITY with DML_SCALE_BIAS: arithmetic on float types. */
    bool scale_bias;
    float scale, bias;
    DML_TENSOR_DATA_TYPE arith_type;

    /* Set by dmli_plan_normalize. */
    bool empty; /* some size is 0: nothing to launch */
} dmli_plan;

/* Initialises an empty plan of the given kind and element width. */
void dmli_plan_init(dmli_plan *plan, dmli_plan_kind kind, uint32_t elem_bytes);
/* Appends an output dimension (outermost first). */
void dmli_plan_push(dmli_plan *plan, int64_t size, int64_t out_stride, int64_t in_stride,
                    int64_t idx_stride, int64_t idx_pos);

/*
 * Host-side normalisation: detects empty plans, drops size-1 dimensions,
 * merges dimensions contiguous in every tensor, and widens the element to the
 * largest unit (up to 16 bytes) that divides every byte stride and offset when
 * the innermost run is contiguous in input and output.
 */
void dmli_plan_normalize(dmli_plan *plan);

/* ---- Operators (ops/<op>.c) -------------------------------------------------- */

/* Tensors per operator (JOIN's inputs, SPLIT's outputs); more is DXGI_ERROR_UNSUPPORTED. */
#define DMLI_MAX_SLOTS 64

/* Room in dmli_op_state for what an operator's validate and infer find for its lower. */
#define DMLI_OP_SCRATCH_BYTES 512

/* The input a step reads when it is a fill: the state's constant element. */
#define DMLI_STEP_CONSTANT (-1)

/*
 * One copy of an operator whose work is more than one copy (JOIN: one per
 * input; PADDING: a fill per border region and one view). An operator's
 * steps write disjoint parts of its outputs (fuzz/plancheck.c checks it),
 * so they may run in any order: those that walk the same rows run as one
 * band (bands.h), the others one kernel each. A fill is a VIEW plan with
 * every input stride 0 that reads the state's constant element.
 */
typedef struct dmli_op_step {
    dmli_plan plan; /* as lowered: normalised per kernel when compiled */
    int input;      /* input slot the kernel reads, or DMLI_STEP_CONSTANT */
    uint32_t output;
} dmli_op_step;

/* Bytes of a slot name made by dmli_op_name_slots ("InputTensors[63]"). */
#define DMLI_SLOT_NAME_BYTES 32

/* What an operator class fills in at creation (deep copies and the plan). */
typedef struct dmli_op_state {
    uint32_t n_inputs, n_outputs;
    dmli_tensor inputs[DMLI_MAX_SLOTS];
    dmli_tensor outputs[DMLI_MAX_SLOTS];
    const char *input_names[DMLI_MAX_SLOTS]; /* "InputTensor", for messages */
    const char *output_names[DMLI_MAX_SLOTS];
    /* Which input feeds the kernel's in/idx arguments (the others are host-only). */
    int data_input, index_input;
    bool in_place; /* input may share its exact range with the output */
    /* Why this operator's layouts cannot run in place (NULL: they can). */
    const char *in_place_denied;
    dmli_plan plan;
    /* More than one kernel: the steps (owned, dmli_op_state_release), and plan is unused. */
    uint32_t n_steps;
    dmli_op_step *steps;
    /* The element fills read (e.g. PADDING's value in the output's type, little-endian). */
    _Alignas(16) unsigned char constant[16];
    bool out_of_memory; /* a step could not be added: the create call fails */
    /* Storage behind names made by dmli_op_name_slots. */
    char slot_names[2][DMLI_MAX_SLOTS][DMLI_SLOT_NAME_BYTES];
    /* Private to the operator's file (DMLI_OP_SCRATCH): read by its own steps only. */
    _Alignas(8) unsigned char scratch[DMLI_OP_SCRATCH_BYTES];
} dmli_op_state;

/*
 * In lower: appends a step reading input slot `input` (or DMLI_STEP_CONSTANT)
 * into output slot `output`, and returns its plan, initialised with kind and
 * elem_bytes, to push dimensions into. Out of memory is recorded in the state
 * (the create call reports it) and a scratch plan is returned.
 */
dmli_plan *dmli_op_add_step(dmli_op_state *st, int input, uint32_t output, dmli_plan_kind kind,
                            uint32_t elem_bytes);
/* Names slots first..first+count-1 of the inputs (or outputs) "field[i]" (i from 0). */
void dmli_op_name_slots(dmli_op_state *st, bool outputs, uint32_t first, uint32_t count,
                        const char *field);
/* Frees what the state owns (its steps); the state may be created again. */
void dmli_op_state_release(dmli_op_state *st);
/* A deep copy (steps, names) that outlives src. */
HRESULT dmli_op_state_copy(dmli_op_state *dst, const dmli_op_state *src);

/* The operator file's private struct in st->scratch, checked to fit at compile time. */
#define DMLI_OP_SCRATCH(st, type)                                                 \
    ((void)sizeof(struct {                                                        \
         _Static_assert(sizeof(type) <= DMLI_OP_SCRATCH_BYTES, #type " too big"); \
         int fits;                                                                \
     }),                                                                          \
     (type *)(void *)(st)->scratch)

/*
 * An operator class: the steps its file in ops/ defines, with designated
 * initialisers, run in order by dmli_op_class_create. desc is the
 * operator's own description (DML_GATHER_OPERATOR_DESC, ...).
 */
typedef struct dmli_op_steps {
    /* Pure host: checks desc, deep-copies its tensors into st, names the slots. */
    HRESULT (*validate)(const void *desc, dmli_op_state *st);
    /* The shape rule: the output the inputs imply, checked against OutputTensor (NULL: none). */
    HRESULT (*infer)(const void *desc, dmli_op_state *st);
    /* The plan for a valid description (cannot fail). */
    void (*lower)(const void *desc, dmli_op_state *st);
} dmli_op_steps;

/* A registry entry (ops/registry.def). */
typedef struct dmli_op_class {
    DML_OPERATOR_TYPE type;
    const char *name; /* DirectML's operator name without the prefix: "GATHER" */
    const dmli_op_steps *steps;
} dmli_op_class;

/* graph_api.c: what a graph node reads of its operator (graph.c), which it holds a reference
 * on (dmli_operator_retain; dmlcl_operator_release): an operator's state never changes. */
const dmli_op_state *dmli_operator_state(const dmlcl_operator *op);
const char *dmli_operator_name(const dmlcl_operator *op);
void dmli_operator_retain(dmlcl_operator *op);

/* registry.c: the class for a type, or NULL. */
const dmli_op_class *dmli_op_class_find(DML_OPERATOR_TYPE type);
/* optypes.c: DirectML's name without the prefix ("CONVOLUTION"), or NULL. */
const char *dmli_operator_type_name(DML_OPERATOR_TYPE type);
/* registry.c: validate, infer and lower desc into st (st's defaults set by the caller). */
HRESULT dmli_op_class_create(const dmli_op_class *cls, const void *desc, dmli_op_state *st);

#define DMLI_OP(type, name, id) extern const dmli_op_steps dmli_op_##id;
#include "ops/registry.def"
#undef DMLI_OP

/* ---- Device and kernels (device.c, generated kernels.c) --------------------- */

typedef enum dmli_kernel_source {
    DMLI_SOURCE_VIEW,
    DMLI_SOURCE_INDEXED,
    DMLI_SOURCE_BANDS,
    DMLI_SOURCE_COUNT,
} dmli_kernel_source;

/* Embedded cl/<family>.cl text (generated at build time). */
extern const char *const dmli_kernel_sources[DMLI_SOURCE_COUNT];
extern const char *const dmli_kernel_source_names[DMLI_SOURCE_COUNT];

/* Builds (or takes from the device's cache) the program for (source, options). */
HRESULT dmli_device_program(dmlcl_device *device, dmli_kernel_source source, const char *options,
                            cl_program *program);

/* What the launch rules read about the device (struct in launch.h). */
typedef struct dmli_device_desc dmli_device_desc;
const dmli_device_desc *dmli_device_get_desc(const dmlcl_device *device);

#endif /* DMLI_INTERNAL_H */
