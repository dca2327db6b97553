/* SPDX-License-Identifier: MIT */
/*
 * Internal interfaces of dmlcl. Cross-file internals carry the dmli_ / DMLI_
 * prefix; dmlcl_ / DMLCL_ names are public (include/). Layers, each calling
 * only down:
 *   com/         DirectML's COM interfaces (C++), thin objects over the C API
 *   frontends/   framework rules (OpenVINO, ONNX) -> a DML_OPERATOR_DESC
 *                for the caller to create; beside the object model, not
 *                under it (frontends/common.h; slices share ops/strided_slice.h)
 *   runtime.c    operators, and compiled operators: an operator's program
 *                (its band and steps) or a graph's (graph_compile.c)
 *   dispatch.c   binding tables and dispatch of any program (program.h: one
 *                list of steps, each a kernel with slot-bound arguments);
 *                execute.c the synchronous call on host memory
 *   graph.c      validates a DML_GRAPH_DESC; graph_plan.c + fuse.c compose
 *                node plans into steps (pure host code)
 *   registry.c   the operator table (ops/registry.def), and the one way to
 *                create an operator: its class's validate, infer, lower
 *   ops/<op>.c   one class per operator: validate a public description and
 *                deep-copy its tensors, infer (check) the output shape, lower
 *                to a plan (pure host code)
 *   tensor.c     the buffer-tensor rules (checked.h arithmetic; overlap.c:
 *                an output never overlaps itself)
 *   plan.c       normalise a plan (drop, merge, widen)
 *   bands.c      an operator's steps that walk the same rows as one band
 *                (launch_bands.c its launch; a step of the operator's program)
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
    uint32_t base_align; /* GuaranteedBaseOffsetAlignment */
    bool present;        /* false: an absent optional tensor */
    bool optional;       /* the operator's page lists it as optional (DMLI_TENSOR_OPTIONAL) */
    bool unused; /* a graph input no node reads, an output none feeds: any binding, untouched */
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

/* ---- Element-wise maps (map.c) ------------------------------------------------- */

/*
 * The map family: out[o] = f(in_1[view_1(o)], ..., in_n[view_n(o)]). Every tensor has its own
 * element type, offset and signed element strides per output dimension (0 broadcasts); f is
 * an operation on values converted to the compute type (float32 for FLOAT16 and FLOAT32,
 * float64 for FLOAT64), its result converted to the output's type. Normalisation drops size-1
 * dimensions and merges dimensions contiguous in every tensor, but never widens elements:
 * arithmetic reads values, not bytes.
 */
#define DMLI_MAP_MAX_INPUTS 8

/* The operation f (cl/map.cl OP has the same numbers). Integers wrap (two's complement)
 * where DirectML's results leave their type; see src/ops/elementwise*.c for each rule.
 * Ranges, each with its kernel file: 0-16 cl/map.cl itself, 17-63 further arithmetic and
 * the element-wise gradients (cl/map_math.cl), 64-95 comparisons, logic, bits, tests, select and
 * casts (cl/map_logic.cl), 96-127 activations that read more than their input (cl/activation.cl).
 */
typedef enum dmli_map_op {
    DMLI_MAP_IDENTITY = 0, /* x (ELEMENT_WISE_IDENTITY with ScaleBias) */
    DMLI_MAP_ADD = 1,
    DMLI_MAP_SUBTRACT = 2,
    DMLI_MAP_MULTIPLY = 3,
    DMLI_MAP_DIVIDE = 4,
    DMLI_MAP_MAX = 5,
    DMLI_MAP_MIN = 6,
    DMLI_MAP_MEAN = 7,
    DMLI_MAP_DIFFERENCE_SQUARE = 8,
    DMLI_MAP_NEGATE = 9,
    DMLI_MAP_ABS = 10,
    DMLI_MAP_CEIL = 11,
    DMLI_MAP_FLOOR = 12,
    DMLI_MAP_SQRT = 13,
    DMLI_MAP_RECIP = 14,
    DMLI_MAP_EXP = 15,
    DMLI_MAP_LOG = 16,
    /* 17-63: further arithmetic (cl/map_math.cl). */
    DMLI_MAP_ACOS = 17,
    DMLI_MAP_ACOSH = 18,
    DMLI_MAP_ASIN = 19,
    DMLI_MAP_ASINH = 20,
    DMLI_MAP_ATAN = 21,
    DMLI_MAP_ATANH = 22,
    DMLI_MAP_ATAN_YX = 23,      /* atan2(x0, x1) */
    DMLI_MAP_CLIP = 24,         /* max(q0, min(x0, q1)); a NaN x0 stays NaN */
    DMLI_MAP_CONSTANT_POW = 25, /* pow(x0, q0) */
    DMLI_MAP_COS = 26,
    DMLI_MAP_COSH = 27,
    DMLI_MAP_ERF = 28,
    DMLI_MAP_MODULUS_FLOOR = 29,    /* x0 - x1 * floor(x0 / x1) (Python's %) */
    DMLI_MAP_MODULUS_TRUNCATE = 30, /* x0 - x1 * trunc(x0 / x1) (C's fmod) */
    DMLI_MAP_POW = 31,              /* pow(x0, x1); integers exact, in long */
    DMLI_MAP_ROUND = 32,            /* q0 the DML_ROUNDING_MODE */
    DMLI_MAP_SIGN = 33,
    DMLI_MAP_SIN = 34,
    DMLI_MAP_SINH = 35,
    DMLI_MAP_TAN = 36,
    DMLI_MAP_TANH = 37,
    DMLI_MAP_THRESHOLD = 38, /* max(x0, q0); a NaN x0 stays NaN */
    /* QUANTIZE_LINEAR: rint(x0 / x1) + x2 (x1 the scale, x2 the zero point), in float; the
     * saturating store to INT8 or UINT8 is the clamp (NaN 0). _SCALE: no zero point. */
    DMLI_MAP_QUANTIZE_LINEAR = 39,
    DMLI_MAP_QUANTIZE_SCALE = 40,
    /* DEQUANTIZE_LINEAR: (x0 - x2) * x1, in float for 8- and 16-bit inputs; 32-bit inputs
     * in long, the difference exact, on the encodings of the scale and the output (q0: 1 when
     * they are FLOAT16). _SCALE: no zero point, x0 * x1. */
    DMLI_MAP_DEQUANTIZE_LINEAR = 41,
    DMLI_MAP_DEQUANTIZE_SCALE = 42,
    /* The training operators' element-wise gradients: x0 the forward pass's input, x1 the
     * incoming gradient. RELU_GRAD: x0 > 0 ? x1 : 0. CLIP_GRAD: x0 <= q0 (Min) or x0 >= q1
     * (Max) ? 0 : x1 (a NaN x0 passes x1, as neither comparison holds). */
    DMLI_MAP_RELU_GRAD = 43,
    DMLI_MAP_CLIP_GRAD = 44,
    /* 64-95: comparisons, logic, bits, tests, select, casts (cl/map_logic.cl); a
     * comparison orders its operands by their own type (launch_map.c). */
    DMLI_MAP_COMPARE = 64, /* q0: 0 ==, 1 >, 2 >=, 3 <, 4 <= (one kernel for five) */
    DMLI_MAP_LOGICAL = 65, /* q0: 0 AND, 1 OR, 2 XOR of x0 != 0 and x1 != 0 */
    DMLI_MAP_LOGICAL_NOT = 66,
    DMLI_MAP_BIT_LOGIC = 67,   /* q0: 0 AND, 1 OR, 2 XOR; bit operations read the tensors */
    DMLI_MAP_BIT_NOT = 68,     /* as unsigned types of their widths */
    DMLI_MAP_SHIFT = 69,       /* q0: the width, q1: 0 left, 1 right (logical); a count */
    DMLI_MAP_BIT_COUNT = 70,   /* >= q0 gives 0 */
    DMLI_MAP_IS_INFINITY = 71, /* q0: DML_IS_INFINITY_MODE */
    DMLI_MAP_IS_NAN = 72,
    DMLI_MAP_IF = 73,            /* x0 != 0 ? x1 : x2 */
    DMLI_MAP_CAST = 74,          /* x0 converted by the store (saturating from floats) */
    DMLI_MAP_FILL_BITS = 75,     /* q0, written to an unsigned type of the output's width */
    DMLI_MAP_FILL_SEQUENCE = 76, /* q0 + i * q1, i the output element's flat logical index */
    /* The generators that read the output element's position (i its flat logical index), on
     * encodings (every value tensor as the unsigned type of its width, an integer compute):
     * ONE_HOT: x2 (on) where i / q0 % q1 (the coordinate along Axis: q0 the elements after
     * it, q1 its size) equals the index x0 (counted from the end when q2 is 1 and x0, its
     * signed type's value, is negative), else x1 (off). DIAGONAL: q2 (the value) where the
     * diagonal t = i % q0 - i / q0 % q1 (q0 the width, q1 the height) makes
     * ((ulong)(t - g0) < g1) != g2 (the band [g0, g0 + g1), g2 1: outside it), else x0 (the
     * input) or 0 (no input); its band in the activation's slots (a map of no activation). */
    DMLI_MAP_ONE_HOT = 77,
    DMLI_MAP_DIAGONAL = 78,
    /* 96-127: activations with more inputs than one (cl/activation.cl). */
    DMLI_MAP_PARAMETERIZED_RELU = 96, /* x0 >= 0 ? x0 : x1 * x0 (x1 the slope) */
    DMLI_MAP_BATCH_NORM = 97,         /* x3 * (x0 - x1) / sqrt(x2 + q0) + x4 (x1 the mean, x2 the
                                       * variance, x3 the scale, x4 the bias, q0 epsilon) */
} dmli_map_op;

/* An activation applied to f's result (cl/activation.cl ACT has the same numbers): a
 * fused activation (ADD1's FusedActivation, later GEMM's and CONVOLUTION's), or the
 * operation itself of an ACTIVATION_* operator (f the identity). Its alpha, beta and gamma
 * are parameters 5 to 7. */
typedef enum dmli_act {
    DMLI_ACT_NONE = 0,
    /* DirectML's activations (src/ops/activation.c reads their descriptors): g0, g1, g2 as each
     * names them. */
    DMLI_ACT_IDENTITY = 1,
    DMLI_ACT_RELU = 2,
    DMLI_ACT_LEAKY_RELU = 3,       /* g0 Alpha */
    DMLI_ACT_THRESHOLDED_RELU = 4, /* g0 Alpha */
    DMLI_ACT_LINEAR = 5,           /* g0 Alpha, g1 Beta */
    DMLI_ACT_HARD_SIGMOID = 6,     /* g0 Alpha, g1 Beta */
    DMLI_ACT_HARD_SWISH = 7,       /* g0 Alpha, g1 Beta */
    DMLI_ACT_SHRINK = 8,           /* g0 Bias, g1 Threshold (integers: see activation.c) */
    DMLI_ACT_ELU = 9,              /* g0 Alpha */
    DMLI_ACT_CELU = 10,            /* g0 Alpha */
    DMLI_ACT_SCALED_ELU = 11,      /* g0 Alpha, g1 Gamma */
    DMLI_ACT_SIGMOID = 12,
    DMLI_ACT_SWISH = 13, /* g0 SigmoidInputScale */
    DMLI_ACT_TANH = 14,
    DMLI_ACT_SCALED_TANH = 15,         /* g0 Alpha, g1 Beta */
    DMLI_ACT_SOFTPLUS = 16,            /* g0 Steepness */
    DMLI_ACT_PARAMETRIC_SOFTPLUS = 17, /* g0 Alpha, g1 Beta */
    DMLI_ACT_SOFTSIGN = 18,
    DMLI_ACT_GELU = 19,
} dmli_act;

/* The map's parameters (cl/abi.h DMLI_MAP_PARAM): 0-1 ScaleBias, 2-4 the operation's, 5-7
 * the activation's. */
#define DMLI_MAP_MAX_PARAMS 8
#define DMLI_MAP_PARAM_SCALE 0
#define DMLI_MAP_PARAM_BIAS 1
#define DMLI_MAP_PARAM_OP 2
#define DMLI_MAP_PARAM_ACT 5

typedef struct dmli_map_tensor {
    DML_TENSOR_DATA_TYPE type;
    uint32_t slot;  /* the operator's input (or output) slot */
    int64_t offset; /* elements */
    int64_t stride[DMLI_MAX_RANK];
} dmli_map_tensor;

/* A chain (graphs: element-wise nodes fused into one map; cl/map.cl STAGES): after stage 0 (the
 * map's op, act, scale_bias and parameters), stages 1 .. n_stages - 1, each an operation with
 * its activation, ScaleBias on its operand 0 and its parameters, its operands inputs or earlier
 * stages' results; the last stage's result is the map's. A chain computes in float or double
 * only (its intermediates are the compute type: exact), and loads each input once. */
#define DMLI_MAP_MAX_STAGES 8
#define DMLI_MAP_MAX_ARGS 5              /* operands of an operation (BATCH_NORM's five) */
#define DMLI_MAP_ARG_STAGE(s) (16 + (s)) /* an operand: stage s's result; below 16, input k */
typedef struct dmli_map_stage {
    dmli_map_op op;
    dmli_act act;
    bool scale_bias;
    uint8_t n_args;
    uint8_t arg[DMLI_MAP_MAX_ARGS];
    double param[DMLI_MAP_MAX_PARAMS];
    int64_t iparam[DMLI_MAP_MAX_PARAMS];
} dmli_map_stage;

typedef struct dmli_map {
    dmli_map_op op;
    dmli_act act;    /* applied to f's result (DMLI_ACT_NONE: none) */
    bool scale_bias; /* input 0 is x * param[0] + param[1] before f (DML_SCALE_BIAS) */
    /* Parameter i as a real number (float and double compute) and as an integer (integer
     * compute: the exact value, or an unsigned value's bits); dmli_map_param_* set both. */
    double param[DMLI_MAP_MAX_PARAMS];
    int64_t iparam[DMLI_MAP_MAX_PARAMS];
    int rank;
    int64_t size[DMLI_MAX_RANK];
    dmli_map_tensor out;
    uint32_t n_inputs;
    dmli_map_tensor in[DMLI_MAP_MAX_INPUTS];
    bool empty; /* set by dmli_map_normalize: some size is 0 */
    /* A chain: n_stages > 1 (0 or 1: the map is its one operation on inputs 0, 1, ...);
     * stage[0].arg holds stage 0's operands, stage[s] for s > 0 the whole stage. */
    uint32_t n_stages;
    dmli_map_stage stage[DMLI_MAP_MAX_STAGES];
    /* Graphs: a gather read through (cl/map.cl GATHER). gather.on: input gather.input reads
     * element in[input] + idx * axis_stride, idx the value input gather.index holds at the
     * same position (its type an integer type, its strides the indices' walk; no operand of
     * any stage), negative values counting from the end of the axis where wrap is set, then
     * clamped into [0, axis_size) (DMLI_OOR_CLAMP) or read as 0 outside it (DMLI_OOR_ZERO). */
    struct {
        bool on;
        uint32_t input, index;
        bool wrap;
        dmli_oor_policy policy;
        int64_t axis_size, axis_stride;
    } gather;
} dmli_map;

/* An empty map of op writing output slot 0 of out_type, reading n_inputs inputs (their types
 * and slots set by the caller). */
void dmli_map_init(dmli_map *map, dmli_map_op op, DML_TENSOR_DATA_TYPE out_type, uint32_t n_inputs);
/* Appends an output dimension (outermost first): its size, the output's stride and each
 * input's (in_strides[k] for input k). */
void dmli_map_push(dmli_map *map, int64_t size, int64_t out_stride, const int64_t *in_strides);
/* Detects empty maps, drops size-1 dimensions, merges dimensions contiguous in every tensor. */
void dmli_map_normalize(dmli_map *map);
/* Parameter i: a real value (its integer form truncated toward zero, saturated), or an
 * integer (its real form the nearest double). */
void dmli_map_param_real(dmli_map *map, int i, double value);
/* The same on a parameter's two forms (maps' and reductions'). */
void dmli_param_real(double *real, int64_t *integer, double value);
void dmli_map_param_int(dmli_map *map, int i, int64_t value);
/* Stage s of a map as a stage (stage 0 from the map's own fields; a map that is no chain is
 * its one stage on inputs 0 .. arity - 1), and the reverse. */
dmli_map_stage dmli_map_get_stage(const dmli_map *map, uint32_t s);
void dmli_map_set_stage(dmli_map *map, uint32_t s, const dmli_map_stage *stage);

/* ---- Reductions (reduce.c) ---------------------------------------------------------- */

/*
 * The reduce family (cl/reduce.cl): dimensions are the *input's* dimensions, outermost first,
 * each either kept or reduced. A row is the set of elements that share the kept coordinates;
 * the operation folds each row (REDUCE, ARGMIN, ARGMAX: one value per row, every output stride
 * of a reduced dimension 0), normalises it (SOFTMAX, MVN, ...: the output has the input's shape
 * and strides over every dimension), scans it (CUMULATIVE_*), or ranks it (TOP_K: the output's
 * position along the one reduced dimension is the element's rank, written when below K).
 * Values are read and computed in the map's compute type (float32 for FLOAT16 and FLOAT32,
 * float64 for FLOAT64; integers in 64 bits), the result converted to the output's type.
 * Every tensor is a dmli_map_tensor (type, slot, offset, strides per dimension; 0 broadcasts).
 */
#define DMLI_REDUCE_MAX_INPUTS 4
#define DMLI_REDUCE_MAX_OUTPUTS 2

typedef enum dmli_reduce_op {
    /* One value per row (DML_REDUCE_FUNCTION order; ARGMIN/ARGMAX operators too). */
    DMLI_REDUCE_ARGMAX = 0, /* the index (see index_last) of the row's largest value */
    DMLI_REDUCE_ARGMIN = 1,
    DMLI_REDUCE_AVERAGE = 2,
    DMLI_REDUCE_L1 = 3,
    DMLI_REDUCE_L2 = 4,
    DMLI_REDUCE_LOG_SUM = 5,
    DMLI_REDUCE_LOG_SUM_EXP = 6,
    DMLI_REDUCE_MAX = 7,
    DMLI_REDUCE_MIN = 8,
    DMLI_REDUCE_MULTIPLY = 9,
    DMLI_REDUCE_SUM = 10,
    DMLI_REDUCE_SUM_SQUARE = 11,
    /* The row normalised (the output shaped as the input). */
    DMLI_REDUCE_SOFTMAX = 32,     /* exp(x - max) / sum exp(x - max) */
    DMLI_REDUCE_LOG_SOFTMAX = 33, /* x - max - log(sum exp(x - max)) */
    DMLI_REDUCE_HARDMAX = 34,     /* 1 at the first largest value, 0 elsewhere */
    DMLI_REDUCE_MVN = 35,         /* (x - mean?) / sqrt(variance? + eps) * scale? + bias?:
                                   * use_mean, use_variance, param[OP] epsilon; input 1 the
                                   * scale (read when has_scale), input 2 the bias (has_bias) */
    DMLI_REDUCE_LP_NORM = 36,     /* x / max(||row||_p, eps): iparam[OP] p (1 or 2), [OP+1] eps */
    /* The row scanned along its one reduced dimension. */
    DMLI_REDUCE_CUMSUM = 48, /* reverse, exclusive */
    DMLI_REDUCE_CUMPROD = 49,
    /* The row ranked (one reduced dimension): out[0] values, out[1] UINT32/UINT64 indices. */
    DMLI_REDUCE_TOP_K = 56, /* param[OP] K, smallest: the K smallest */
    /* The row normalised by a window of it (the output shaped as the input). */
    DMLI_REDUCE_LRN = 64, /* LOCAL_RESPONSE_NORMALIZATION: x / (bias + alpha / n * s)^beta, s
                           * the sum of squares over the window of n = param[OP] (LocalSize)
                           * positions centred on x (from x - floor((n - 1) / 2) to
                           * x + ceil((n - 1) / 2), clipped to the row) in each reduced
                           * dimension: one (C: across channels) or two (H, W: within a
                           * channel, an n x n window); [OP+1] alpha, [OP+2] beta,
                           * [DMLI_MAP_PARAM_BIAS] bias (the map's ScaleBias slot, unused by
                           * reductions) */
} dmli_reduce_op;

typedef struct dmli_reduce {
    dmli_reduce_op op;
    dmli_act act; /* applied to each result (MVN's FusedActivation); DMLI_ACT_NONE: none */
    /* Parameters as the map's: DMLI_MAP_PARAM_OP.. the operation's, DMLI_MAP_PARAM_ACT.. the
     * activation's; dmli_reduce_param_real sets both forms. */
    double param[DMLI_MAP_MAX_PARAMS];
    int64_t iparam[DMLI_MAP_MAX_PARAMS];
    bool index_last;             /* ARGMAX/ARGMIN: the last index on ties (else the first) */
    bool use_mean, use_variance; /* MVN */
    bool has_scale, has_bias;    /* MVN: inputs 1 (scale) and 2 (bias) are read */
    bool reverse, exclusive;     /* scans: from the row's end; the element itself left out */
    bool smallest;               /* TOP_K: the K smallest (else largest) */
    /* A map fused into the reads (graphs): each row value x is in[0] pre_op in[n_inputs - 1]
     * (DMLI_MAP_ADD, SUBTRACT or MULTIPLY, in the compute type) rather than in[0] alone;
     * DMLI_MAP_IDENTITY (0): none. Folds and normalisations only. */
    dmli_map_op pre_op;
    /* CPUs, COLS folds: an item folds whole rows of columns, however few items that makes (a
     * split's first step, launch_reduce.c dmli_reduce_split). */
    bool whole_rows;
    int rank;
    int64_t size[DMLI_MAX_RANK];
    bool reduced[DMLI_MAX_RANK];
    uint32_t n_outputs;
    dmli_map_tensor out[DMLI_REDUCE_MAX_OUTPUTS];
    uint32_t n_inputs;
    dmli_map_tensor in[DMLI_REDUCE_MAX_INPUTS];
    bool empty; /* set by dmli_reduce_normalize: some size is 0 */
} dmli_reduce;

/* An empty reduction of op: n_inputs inputs, n_outputs outputs (types, slots and offsets set
 * by the caller; slots default to 0.., outputs' to 0..). */
void dmli_reduce_init(dmli_reduce *r, dmli_reduce_op op, uint32_t n_inputs, uint32_t n_outputs);
/* Appends an input dimension (outermost first): its size, whether it is reduced, each output's
 * stride (out_strides[j]) and each input's (in_strides[k]). */
void dmli_reduce_push(dmli_reduce *r, int64_t size, bool reduced, const int64_t *out_strides,
                      const int64_t *in_strides);
/* Detects empty reductions, drops size-1 dimensions, merges neighbouring dimensions of one kind
 * (kept or reduced) contiguous in every tensor. The order of the reduced dimensions stays (an
 * index is the position in the row, row-major over the reduced dimensions). */
void dmli_reduce_normalize(dmli_reduce *r);
void dmli_reduce_param_real(dmli_reduce *r, int i, double value);
void dmli_reduce_param_int(dmli_reduce *r, int i, int64_t value);

/* ---- Compute families (compute.c): GEMM, convolution, pooling, resampling, scatter -- */

/*
 * A computed operator is one kernel of its family (cl/gemm.cl, cl/conv.cl, cl/pool.cl,
 * cl/resample.cl, cl/scatter.cl, cl/rnn.cl, cl/misc.cl,
 * cl/roi.cl, cl/grad.cl, cl/intmm.cl, cl/dynquant.cl,
 * cl/attention.cl, cl/bnorm.cl) over the tensors it lists. The operator's
 * lower writes the family's own description into `work` (DMLI_COMPUTE_WORK); the family's launch
 * (launch.h, dmli_launch_compute) turns it, for a device,
 * into the kernel's options, its table (sizes, strides and parameters: __constant long *) and
 * its grid. The kernel's arguments: 0 the table, then per tensor i (in the listed order) its
 * buffer (1 + 2i) and its base in elements (2 + 2i: the binding's offset over the element size
 * plus the tensor's offset). Operators and graphs (one step per computed node) run it alike.
 */
#define DMLI_COMPUTE_MAX_TENSORS 12
#define DMLI_COMPUTE_TABLE_MAX 256
#define DMLI_COMPUTE_WORK_BYTES 1536

typedef struct dmli_compute_tensor {
    uint32_t slot; /* the operator's input or output slot */
    bool output;
    DML_TENSOR_DATA_TYPE type;
    int64_t offset; /* elements added to the binding's base */
} dmli_compute_tensor;

/* The family, whose launch (launch_compute.c) turns the description into a kernel. */
typedef enum dmli_compute_kind {
    DMLI_COMPUTE_GEMM,     /* cl/gemm.cl (launch_gemm.c) */
    DMLI_COMPUTE_CONV,     /* cl/conv.cl (launch_conv.c) */
    DMLI_COMPUTE_POOL,     /* cl/pool.cl (launch_pool.c) */
    DMLI_COMPUTE_RESAMPLE, /* cl/resample.cl (launch_resample.c) */
    DMLI_COMPUTE_SCATTER,  /* cl/scatter.cl (launch_scatter.c), after a view copy (program.c) */
    DMLI_COMPUTE_RNN,      /* cl/rnn.cl (launch_rnn.c) */
    DMLI_COMPUTE_MISC,     /* cl/misc.cl (launch_misc.c): NONZERO, REVERSE, UNPOOL, PHILOX */
    DMLI_COMPUTE_ROI,      /* cl/roi.cl (launch_roi.c): regions and windows */
    DMLI_COMPUTE_GRAD,     /* cl/grad.cl (launch_grad.c): the training operators' gathers */
    DMLI_COMPUTE_INTMM,    /* cl/intmm.cl (launch_intmm.c) */
    DMLI_COMPUTE_DYNQUANT, /* cl/dynquant.cl (launch_dynquant.c) */
    DMLI_COMPUTE_ATTN,     /* cl/attention.cl (launch_attention.c) */
    DMLI_COMPUTE_BNORM,    /* cl/bnorm.cl (launch_bnorm.c): batch-normalization training */
    DMLI_COMPUTE_KINDS,
} dmli_compute_kind;

typedef struct dmli_compute {
    dmli_compute_kind kind;
    uint32_t n_tensors; /* in the kernel's argument order; absent optional tensors unlisted */
    dmli_compute_tensor tensors[DMLI_COMPUTE_MAX_TENSORS];
    bool empty; /* nothing to compute (an output of no elements): no step */
    _Alignas(8) unsigned char work[DMLI_COMPUTE_WORK_BYTES]; /* the family's description */
} dmli_compute;

/* The family's description in c->work, checked to fit at compile time. */
#define DMLI_COMPUTE_WORK(c, type)                                                  \
    ((void)sizeof(struct {                                                          \
         _Static_assert(sizeof(type) <= DMLI_COMPUTE_WORK_BYTES, #type " too big"); \
         int fits;                                                                  \
     }),                                                                            \
     (type *)(void *)(c)->work)
#define DMLI_COMPUTE_WORK_CONST(c, type)                                            \
    ((void)sizeof(struct {                                                          \
         _Static_assert(sizeof(type) <= DMLI_COMPUTE_WORK_BYTES, #type " too big"); \
         int fits;                                                                  \
     }),                                                                            \
     (const type *)(const void *)(c)->work)

/* Appends tensor `slot` (an input, or an output when `output`) of the state's to c's list. */
struct dmli_op_state;
void dmli_compute_init(dmli_compute *c, dmli_compute_kind kind);
void dmli_compute_add(dmli_compute *c, const struct dmli_op_state *st, bool output, uint32_t slot);

/* What a kernel's buffer argument binds (a compiled program's step, a graph plan's step). */
typedef enum dmli_slot_kind {
    DMLI_SLOT_INPUT,      /* input `index` (the operator's or the graph's) */
    DMLI_SLOT_OUTPUT,     /* output `index` */
    DMLI_SLOT_TEMP,       /* the temporary resource, at `offset` bytes */
    DMLI_SLOT_CONSTANT,   /* a graph plan: constant node `index`'s data, or operator node
                           * `index`'s fill element; a program: its constant buffer `index` */
    DMLI_SLOT_STATUS,     /* the binding table's status buffer (NULL when it has none) */
    DMLI_SLOT_PERSISTENT, /* the persistent resource, at `offset` bytes (past the owned
                           * inputs' copies: what initialization made of them) */
} dmli_slot_kind;

typedef struct dmli_slot {
    dmli_slot_kind kind;
    uint32_t index;
    uint64_t offset;
} dmli_slot;

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
    /* An input may share its exact range with an output, where both have one layout (the
     * same strides wherever a dimension has more than one element): every element is then
     * read and written at one address by one work-item (dispatch.c checks the layouts). */
    bool in_place;
    dmli_plan plan;
    /* An element-wise operator: its map (then plan and steps are unused). */
    bool mapped;
    dmli_map map;
    /* A reduction (reduce.c): its plan (then plan and steps are unused). */
    bool reduced;
    dmli_reduce reduce;
    /* A computed operator (compute.c): its family's kernel (then plan and steps are unused). */
    bool computed;
    dmli_compute compute;
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

/* An operator (operator.c): its class and its state (tensors, plan or steps). */
struct dmlcl_operator {
    int refcount;
    dmlcl_device *device; /* NULL: host-only */
    const dmli_op_class *cls;
    dmli_op_state st;
};

/* operator.c: what a graph node reads of its operator (graph.c), which it holds a reference
 * on (dmli_operator_retain; dmlcl_operator_release): an operator's state never changes. */
const dmli_op_state *dmli_operator_state(const dmlcl_operator *op);
const char *dmli_operator_name(const dmlcl_operator *op);
void dmli_operator_retain(dmlcl_operator *op);

/* registry.c: the class for a type, or NULL. */
const dmli_op_class *dmli_op_class_find(DML_OPERATOR_TYPE type);
/* registry.c: every class, in registry.def's order (dmlcl-info lists them). */
size_t dmli_op_class_count(void);
const dmli_op_class *dmli_op_class_at(size_t i);
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
    DMLI_SOURCE_MAP,
    DMLI_SOURCE_REDUCE,
    DMLI_SOURCE_GEMM,
    DMLI_SOURCE_CONV,
    DMLI_SOURCE_POOL,
    DMLI_SOURCE_RESAMPLE,
    DMLI_SOURCE_SCATTER,
    DMLI_SOURCE_RNN,
    DMLI_SOURCE_MISC,
    DMLI_SOURCE_ROI,
    DMLI_SOURCE_GRAD,
    DMLI_SOURCE_INTMM,
    DMLI_SOURCE_DYNQUANT,
    DMLI_SOURCE_ATTENTION,
    DMLI_SOURCE_BNORM,
    DMLI_SOURCE_COUNT,
} dmli_kernel_source;

/* Embedded cl/<family>.cl text (generated at build time). */
extern const char *const dmli_kernel_sources[DMLI_SOURCE_COUNT];
extern const char *const dmli_kernel_source_names[DMLI_SOURCE_COUNT];

/* Builds (or takes from the device's cache) the program for (source, options). */
HRESULT dmli_device_program(dmlcl_device *device, dmli_kernel_source source, const char *options,
                            cl_program *program);

/*
 * What the launch rules read about a device (device.c fills it from
 * clGetDeviceInfo; tests write it by hand). device_class is the class the
 * rules follow: the device's type unless DMLCL_DEVICE_CLASS or the
 * device-creation option forces another.
 */
typedef struct dmli_device_desc {
    dmlcl_device_class device_class; /* CPU, GPU or ACCELERATOR, never DEFAULT */
    uint32_t compute_units;          /* >= 1 */
    size_t max_work_group_size;      /* >= 1 */
    size_t max_item_sizes[3];        /* each >= 1 */
    /* local_mem_size: GPUs' work-group tiles (TRANSPOSE 3) need theirs;
     * the vector widths and alignment are not read by today's rules
     * (16-byte vectors everywhere), described so that rules which need them
     * change launch.c only. */
    uint64_t local_mem_size;              /* bytes */
    uint32_t preferred_vector_width_char; /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR */
    uint32_t preferred_vector_width_int;
    uint32_t mem_base_addr_align; /* bytes */
    /* The device's compiler takes __builtin_prefetch (llvm.prefetch): the
     * PREFETCH rules apply. Oclgrind 21.10 refuses to create a kernel that
     * calls it ("Undefined external function: llvm.prefetch"), and
     * OpenCL's own prefetch() is no hint on PoCL (0.56x on the small-row
     * gather against __builtin_prefetch). */
    bool prefetch;
    /* CL_DEVICE_MAX_PARAMETER_SIZE (bytes; 0: OpenCL's minimum, 1024): how
     * many buffers one band kernel may take (bands.h). */
    size_t max_parameter_size;
    /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (bytes; 0: unknown, taken as 32 MiB):
     * where non-temporal stores begin (dmli_launch_streams). */
    uint64_t cache_size;
    /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: a CPU's float lanes (16 with
     * AVX-512, 8 with AVX2); the CPU maps' loops are vectorised at twice it
     * (launch_map.c). 0: unknown. */
    uint32_t native_vector_width_float;
} dmli_device_desc;

const dmli_device_desc *dmli_device_get_desc(const dmlcl_device *device);
/* device.c: "cpu", "gpu", "accelerator" ("default" for DEFAULT, "?" otherwise). */
const char *dmli_device_class_name(dmlcl_device_class device_class);

#endif /* DMLI_INTERNAL_H */
