/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-conformance internals: element types and value conversion (types.c),
 * tensors (tensor.c), case files (case.c), the operator-builder table and its
 * helpers (ops.c, ops_<family>.c), running one case (run.c).
 *
 * An operator builder turns a parsed case into a DML_OPERATOR_DESC plus the
 * tensors to bind, in slot order. Everything else (loading, laying data out
 * by strides, executing, comparing, reporting) is shared, so a new family of
 * operators is one more ops_<family>.c with a table, listed in ops.c.
 */
#ifndef DMLCL_CONFORMANCE_RUNNER_H
#define DMLCL_CONFORMANCE_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "dmlcl/dmlcl.h"
#include "dmlcl/frontends.h"

#define RT_MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX
/* Binding slots of one operator (dmlcl's DMLI_MAX_SLOTS), and tensors of one case. */
#define RT_MAX_TENSORS 64
#define RT_WHY_MAX 1024

/* Byte patterns: unwritten output bytes, and input bytes no element covers. */
#define RT_OUTPUT_SENTINEL 0xA5
#define RT_INPUT_PADDING 0x5A

#if defined(__GNUC__)
#define RT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RT_PRINTF(f, a)
#endif

/* ---- Element types (types.c) ----------------------------------------------- */

typedef enum rt_kind { RT_KIND_FLOAT, RT_KIND_SINT, RT_KIND_UINT, RT_KIND_BOOL } rt_kind;

typedef struct rt_type {
    const char *name; /* the case-file spelling: "FLOAT32" */
    DML_TENSOR_DATA_TYPE dml;
    unsigned size; /* bytes per element */
    rt_kind kind;
    unsigned exp_bits, man_bits; /* IEEE-style layout of float kinds */
} rt_type;

const rt_type *rt_type_by_name(const char *name);

/*
 * Converts one JSON value (number, string, bool) to an element at dst.
 * Integer types read a number's literal text exactly (rt_json_number_text),
 * or a decimal string; a number that is not an integer is an error.
 */
int rt_value_parse(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n);
/*
 * A JSON integer, exactly: a number whose literal is an integer (1e3 and 2.0
 * are; 2.5 is not), or a decimal string; as sign and magnitude so every
 * INT64 and UINT64 fits. -1 with why when it is none (or beyond 2^64 - 1).
 */
int rt_json_integer(const cJSON *v, int *neg, uint64_t *mag, char *why, size_t n);
/*
 * A number node's literal text, as the file spells it ("9223372036854775807"):
 * case.c attaches it to every number node after parsing (rt_json_attach_literals).
 * NULL for a node that is not a number.
 */
const char *rt_json_number_text(const cJSON *v);
/*
 * Attaches each number token of text (parsed by cJSON into root, ending at
 * end) to the number nodes of root, in document order, as their valuestring
 * (cJSON_Delete frees it). -1 with why when the tokens do not match the nodes.
 */
int rt_json_attach_literals(cJSON *root, const char *text, const char *end, char *why, size_t n);
/* "4 (0x40800000)": the value in the type, then its bits. */
void rt_value_format(const rt_type *t, const void *src, char *buf, size_t n);
/* The element's bits, zero-extended. */
uint64_t rt_value_bits(const rt_type *t, const void *src);
/* Integer kinds only: the element as a signed 64-bit value (UINT64 may wrap). */
int64_t rt_value_int(const rt_type *t, const void *src);
/* Float kinds: the element's value. */
double rt_value_double(const rt_type *t, const void *src);
/* Float kinds: distance in units in the last place; 0 for two NaNs, UINT64_MAX for one. */
uint64_t rt_ulp_distance(const rt_type *t, const void *a, const void *b);

/* x rounded to nearest-even into a binary float with these field widths. */
uint64_t rt_float_encode(double x, unsigned exp_bits, unsigned man_bits);
double rt_float_decode(uint64_t bits, unsigned exp_bits, unsigned man_bits);

/* ---- Tensors (tensor.c) ---------------------------------------------------- */

/*
 * A tensor of a case: its logical elements packed row-major (elems), and the
 * same data laid out by the element strides in a buffer of
 * TotalTensorSizeInBytes bytes (buffer), described by desc. Holds pointers
 * into itself: allocate with rt_tensor_new, never copy.
 */
/* An expected output's tolerance (version 3): a float element passes within ulp units in the
 * last place, or within abs of the expected value; unset fields do not apply. */
typedef struct rt_tolerance {
    int has_ulp, has_abs;
    uint64_t ulp;
    double abs;
} rt_tolerance;

typedef struct rt_tensor {
    const rt_type *type;
    unsigned rank;
    UINT sizes[RT_MAX_RANK];
    UINT strides[RT_MAX_RANK];
    int has_strides;
    uint64_t count;        /* logical elements */
    unsigned char *elems;  /* count elements, or NULL: the tensor has no data */
    unsigned char *buffer; /* buffer_size bytes, or NULL until laid out */
    uint64_t buffer_size;  /* == buffer_desc.TotalTensorSizeInBytes */
    DML_BUFFER_TENSOR_DESC buffer_desc;
    DML_TENSOR_DESC desc;
    rt_tolerance tol; /* "tolerance" of an expected output (has_ulp, has_abs 0: none) */
} rt_tensor;

/* A tensor without data; strides NULL = packed. */
rt_tensor *rt_tensor_new(const rt_type *type, unsigned rank, const UINT *sizes, const UINT *strides,
                         char *why, size_t n);
/* Parses a "tolerance" object (NULL or null: none); -1 with why when malformed. */
int rt_tolerance_parse(const cJSON *j, const char *what, rt_tolerance *out, char *why, size_t n);
/* Parses {"type", "shape", "data", "strides", "tolerance"}; what names it in messages. */
rt_tensor *rt_tensor_parse(const cJSON *j, const char *what, char *why, size_t n);
void rt_tensor_free(rt_tensor *t);

/* Lays elems out by strides (input bytes no element covers: RT_INPUT_PADDING). */
int rt_tensor_layout(rt_tensor *t, const char *what, char *why, size_t n);
/* Allocates the buffer filled with RT_OUTPUT_SENTINEL. */
int rt_tensor_fill_sentinel(rt_tensor *t);
/* Byte offset of logical element flat in the buffer. */
uint64_t rt_tensor_offset(const rt_tensor *t, uint64_t flat);
/* "[1,0,2]": the coordinates of logical element flat. */
void rt_tensor_format_coords(const rt_tensor *t, uint64_t flat, char *buf, size_t n);
/* "[3,2]" */
void rt_format_shape(unsigned rank, const UINT *sizes, char *buf, size_t n);

/* ---- Cases (case.c) ---------------------------------------------------------- */

typedef enum rt_expect {
    RT_EXPECT_OUTPUTS,
    RT_EXPECT_INVALID_ARGUMENT,
    RT_EXPECT_INDEX_OUT_OF_RANGE
} rt_expect;

/*
 * A named input or output of a case: one tensor (t), or a list of tensors
 * given as a JSON list under the name (is_list: count tensors in list, which
 * may be 0; t NULL). Case format version 2, "Variadic tensors".
 */
typedef struct rt_named {
    const char *name;
    rt_tensor *t;
    int is_list;
    unsigned count;
    rt_tensor **list;
} rt_named;

typedef struct rt_case {
    char *name;  /* from the file, or "FILE[case N]" when it has no usable name */
    int unnamed; /* name is that stand-in: filters do not hide the case */
    char *file;
    const char *source, *op, *erratum, *note; /* into the suite's JSON; may be NULL */
    const cJSON *attrs;                       /* NULL: no attributes */
    const cJSON *graph;                       /* "op": "DML_GRAPH": the nodes (graph.c) */
    unsigned n_inputs;
    rt_named inputs[RT_MAX_TENSORS];
    rt_expect expect;
    rt_tolerance tol; /* the case's "tolerance": every output without its own */
    unsigned n_outputs;
    rt_named outputs[RT_MAX_TENSORS];
    char *malformed; /* why the case cannot run, or NULL */
} rt_case;

typedef struct rt_suite {
    rt_case *cases;
    size_t n_cases, cap_cases;
    cJSON **trees;
    size_t n_trees, cap_trees;
} rt_suite;

/* Adds the cases of a file, or of every *.json under a folder (sorted, recursive). */
void rt_suite_load(rt_suite *s, const char *path);
void rt_suite_free(rt_suite *s);
/* Adds the cases of one file's text; text[len] must be '\0' (the fuzz target's entry). */
void rt_suite_load_text(rt_suite *s, const char *path, const char *text, size_t len);

/* ---- Operator builders (ops.c, ops_<family>.c) ------------------------------ */

typedef struct rt_block rt_block;

typedef struct rt_build {
    const rt_case *c;
    DML_OPERATOR_DESC desc;
    unsigned n_inputs;                       /* binding slots, in the operator's order */
    const rt_tensor *inputs[RT_MAX_TENSORS]; /* NULL: absent optional tensor */
    unsigned n_outputs;
    rt_tensor *outputs[RT_MAX_TENSORS];       /* owned by the build */
    const char *output_names[RT_MAX_TENSORS]; /* as in expected.outputs */
    int output_index[RT_MAX_TENSORS];         /* place in the list output_names; -1: one tensor */
    unsigned ulp_tolerance;                   /* 0: bit-exact */
    double abs_tolerance;                     /* 0: none (a float within it passes too) */
    /* A tensor given as a list where the operator takes one (or the reverse):
     * the case is malformed even if the builder carries on (b->why says why). */
    int malformed;
    /* A framework front-end's failure: stands for dmlcl_operator_create's result. */
    HRESULT frontend_hr;
    rt_block *arena;
    char why[RT_WHY_MAX];
} rt_build;

typedef int (*rt_build_fn)(rt_build *b);

typedef struct rt_op {
    const char *name; /* the case's "op" */
    rt_build_fn build;
} rt_op;

/* Each family's table ends with {NULL, NULL}. */
extern const rt_op rt_ops_directml[];
extern const rt_op rt_ops_gather[];    /* ops_gather.c: the OpenVINO and ONNX gathers */
extern const rt_op rt_ops_broadcast[]; /* ops_broadcast.c: Broadcast-1/3, Expand-13 */
extern const rt_op rt_ops_slice[];     /* ops_slice.c: StridedSlice-1, Slice-13 */
extern const rt_op rt_ops_views[];     /* ops_views.c: TILE, Tile, Transpose, Reverse */

/* ops_depth_space.c: the DirectML, OpenVINO and ONNX depth/space rearrangements */
extern const rt_op rt_ops_depth_space[];
extern const rt_op rt_ops_joins[];      /* ops_joins.c: JOIN, SPLIT, Concat, Split, VariadicSplit */
extern const rt_op rt_ops_pad[];        /* ops_pad.c: PADDING(1), Pad-1/12/18/19, Roll-7 */
extern const rt_op rt_ops_activation[]; /* ops_activation.c: ACTIVATION_*, ADD1 */
extern const rt_op rt_ops_logic[];      /* ops_logic.c: comparisons, logic, bits, IF, CAST, fills */
extern const rt_op rt_ops_math[];       /* ops_math.c: ELEMENT_WISE_ ACOS ... THRESHOLD */
extern const rt_op rt_ops_grad[];       /* ops_grad.c: the training operators */
extern const rt_op rt_ops_quant[];    /* ops_quant.c: (DE)QUANTIZE(_LINEAR), QUANTIZED_LINEAR_ADD */
extern const rt_op rt_ops_generate[]; /* ops_generate.c: ONE_HOT, DIAGONAL_MATRIX(1) */
extern const rt_op rt_ops_reduce[];   /* ops_reduce.c: REDUCE, ARGMIN, ARGMAX */
extern const rt_op rt_ops_bnscan[]; /* ops_bnscan.c: BATCH_NORMALIZATION, CUMULATIVE_*, TOP_K(1) */

/* ops_activation.c: attrs.FusedActivation ({"Type": ..., its FLOATs}) read into *out (NULL when
 * absent), with the activation's own tolerance (0 when absent or not an activation). */
int rt_fused_activation(rt_build *b, DML_OPERATOR_DESC **out, unsigned *ulps, double *abs_tol);
/* attrs.name as a list of activations (each as FusedActivation's object) into *descs (*count of
 * them, in list order); absent: NULL and 0. */
int rt_activation_list(rt_build *b, const char *name, DML_OPERATOR_DESC **descs, UINT *count);
/* ops_rnn.c: RNN, GRU, LSTM */
extern const rt_op rt_ops_rnn[];
/* ops_intmm.c: the integer and quantized products and convolutions */
extern const rt_op rt_ops_intmm[];
/* ops_attention.c: MULTIHEAD_ATTENTION, MULTIHEAD_ATTENTION1 */
extern const rt_op rt_ops_attention[];
/* ops_train.c: LOCAL_RESPONSE_NORMALIZATION_GRAD, ADAM_OPTIMIZER */
extern const rt_op rt_ops_train[];
/* ops_normalize.c: the softmax family, MEAN_VARIANCE_NORMALIZATION(1, 2), LP_NORMALIZATION */
extern const rt_op rt_ops_normalize[];
/* ops_pool.c: MAX_POOLING(1, 2), AVERAGE_POOLING(1), LP_POOLING(1) */
extern const rt_op rt_ops_pool[];
/* ops_resample.c: UPSAMPLE_2D, RESAMPLE(1, 2, 3), VALUE_SCALE_2D */
extern const rt_op rt_ops_resample[];
extern const rt_op rt_ops_gemm[]; /* ops_gemm.c: GEMM */
/* ops_conv.c: CONVOLUTION */
extern const rt_op rt_ops_conv[];
/* ops_roi.c: ROI_POOLING, ROI_ALIGN(1), FOLD, UNFOLD */
extern const rt_op rt_ops_roi[];
/* ops_scatter.c: SCATTER_ELEMENTS (and its older name SCATTER), SCATTER_ND */
extern const rt_op rt_ops_scatter[];
/* ops_misc.c: NONZERO_COORDINATES, REVERSE_SUBSEQUENCES, MAX_UNPOOLING, RANDOM_GENERATOR */
extern const rt_op rt_ops_misc[];

const rt_op *rt_op_find(const char *name);
/* Runs op's builder on b (b->c set): 0, or -1 with b->why (the case is malformed). */
int rt_build_op(const rt_op *op, rt_build *b);
void rt_build_free(rt_build *b);

/* Helpers for builders; the int ones return 0, or -1 with b->why set. */
int rt_fail(rt_build *b, const char *fmt, ...) RT_PRINTF(2, 3);
/* A JSON number that is an integer in [lo, hi], judged on its exact literal. */
int rt_json_integral(const cJSON *v, double lo, double hi);
/* rt_json_integer within [lo, hi] (a number or a decimal string); -1 with why otherwise. */
int rt_json_int64(const cJSON *v, int64_t lo, int64_t hi, int64_t *out, char *why, size_t n);
int rt_json_uint64(const cJSON *v, uint64_t hi, uint64_t *out, char *why, size_t n);
void *rt_alloc(rt_build *b, size_t size); /* zeroed, freed with the build */
/* Rejects names the operator does not know (NULL-terminated lists). */
int rt_check_names(rt_build *b, const char *const *inputs, const char *const *attrs,
                   const char *const *outputs);
/* Input name, or NULL when absent; a list there makes the case malformed (b->malformed). */
const rt_tensor *rt_input(rt_build *b, const char *name);
/* Input name, present and with data; NULL (b->why set) otherwise. */
const rt_tensor *rt_data_input(rt_build *b, const char *name);
/* Expected output name (NULL when absent); a list there makes the case malformed. */
const rt_tensor *rt_expected(rt_build *b, const char *name);
/*
 * Variadic tensors: input (or expected output) name given as a JSON list.
 * *tensors points at *count tensors in list order (valid while the case
 * lives; an empty list is given, with *count 0). given NULL: the list is
 * required, absent is -1 with b->why; else absent sets *given 0, *tensors
 * NULL and *count 0. One tensor where a list belongs: -1 with b->why.
 */
int rt_input_list(rt_build *b, const char *name, const rt_tensor *const **tensors, unsigned *count,
                  int *given);
int rt_expected_list(rt_build *b, const char *name, const rt_tensor *const **tensors,
                     unsigned *count, int *given);
/*
 * An operator's output count where no attribute gives it: the length of the
 * expected output list out_name, or of the input list desc_name (output
 * descriptors under inputs; NULL: none). Both given: they must agree.
 * Neither: -1 with b->why.
 */
int rt_output_count(rt_build *b, const char *out_name, const char *desc_name, unsigned *count);
const cJSON *rt_attr(const rt_build *b, const char *name);
/* Integer attributes are exact (numbers by their literal, or decimal strings). */
/* A boolean attribute: true/false or 0/1 (absent: false). */
int rt_attr_bool(rt_build *b, const char *name, BOOL *out);
int rt_attr_uint(rt_build *b, const char *name, UINT def, UINT *out);
int rt_attr_int64(rt_build *b, const char *name, int64_t def, int64_t *out);
int rt_attr_uint64(rt_build *b, const char *name, uint64_t def, uint64_t *out);
int rt_attr_float(rt_build *b, const char *name, const cJSON *obj, FLOAT *out);
/* Absent: *vals NULL and *count 0. */
int rt_attr_uint_list(rt_build *b, const char *name, UINT **vals, unsigned *count);
int rt_attr_int_list(rt_build *b, const char *name, INT **vals, unsigned *count);
int rt_attr_int64_list(rt_build *b, const char *name, int64_t **vals, unsigned *count);
/* A type name of the case format ("FLOAT32", "INT64"); absent: *out NULL. */
int rt_attr_type(rt_build *b, const char *name, const rt_type **out);
/*
 * A value attribute of type t, by the tensor data rules (rt_value_parse:
 * exact integers, "nan", ...), written to dst (t->size bytes); absent: zero.
 */
int rt_attr_value(rt_build *b, const char *name, const rt_type *t, void *dst);
int rt_bind_input(rt_build *b, const rt_tensor *t);
/* Creates an output tensor (no data) and binds it as the next output slot. */
rt_tensor *rt_add_output(rt_build *b, const char *name, const rt_type *type, unsigned rank,
                         const UINT *sizes, const UINT *strides);
/* Tensors by member name (the recurrent and attention builders): a data input, bound; an
 * optional one (absent: NULL, its slot bound empty); an optional output described under inputs
 * or expected (neither: absent, its slot bound NONE). 0, or -1 with b->why. */
int rt_required_input(rt_build *b, const char *name, const DML_TENSOR_DESC **out);
int rt_optional_input(rt_build *b, const char *name, const DML_TENSOR_DESC **out);
int rt_optional_output(rt_build *b, const char *name, const DML_TENSOR_DESC **out);
/* An optional output the case leaves out: its slot bound NONE (0, or -1 with b->why). */
int rt_add_absent_output(rt_build *b, const char *name);
/* The same for element index of the output list name (bind them in list order). */
rt_tensor *rt_add_list_output(rt_build *b, const char *name, unsigned index, const rt_type *type,
                              unsigned rank, const UINT *sizes, const UINT *strides);
/*
 * DirectML output lists (SPLIT's OutputTensors): binds *count outputs named
 * name, described by inputs.name (type, shape, strides; no data) when given,
 * else by expected.outputs.name; *descs (arena) holds their tensor descs in
 * order. Neither given: -1 with b->why (rt_output_count).
 */
int rt_bind_output_list(rt_build *b, const char *name, const DML_TENSOR_DESC **descs,
                        unsigned *count);

/*
 * Framework front-ends (ops_broadcast.c, ops_gather.c, ops_slice.c) take
 * packed tensors as a dmlcl_shape and integer inputs as host values.
 */
/* The shape of input t (inputs.name); fails when t has strides. */
int rt_framework_shape(rt_build *b, const char *name, const rt_tensor *t, dmlcl_shape *shape);
/* rt_data_input, and its shape. */
const rt_tensor *rt_framework_input(rt_build *b, const char *name, dmlcl_shape *shape);
/* t's elements as a front-end's integer input (the front-end judges the type). */
dmlcl_int_array rt_int_array(const rt_tensor *t);
/*
 * The front-end's outcome: a rejection is recorded in b->frontend_hr; a
 * result binds data (when bind_data), an output of its shape and its desc.
 */
int rt_frontend_finish(rt_build *b, HRESULT hr, const dmlcl_frontend_result *r,
                       const rt_tensor *data, int bind_data);

/* ---- Running (run.c) ------------------------------------------------------- */

typedef struct rt_result {
    int passed;
    char detail[RT_WHY_MAX]; /* FAIL: why; PASS: the expected error's message, or "" */
} rt_result;

/* Which API runs the operators: the C runtime, or DirectML's COM API over it. */
typedef enum rt_api { RT_API_C, RT_API_COM } rt_api;

/* Verdicts (compare.c), shared by run.c and graph.c. */
void rt_verdict(rt_result *r, int passed, const char *fmt, ...) RT_PRINTF(3, 4);
/* 0 when equal; else -1 with the first differing element described in r (compare.c). */
int rt_compare_output(const char *name, const rt_tensor *exp, const rt_tensor *got,
                      const rt_tolerance *tol, rt_result *r);
/*
 * Before running: every expected output has its slots in b, in the same form
 * (one tensor, or a list of as many). 0, or -1 with r a malformed-case FAIL.
 */
int rt_match_outputs(const rt_case *c, const rt_build *b, rt_result *r);
/* After running: each expected output (list elements as "outputs[1]") against its slot. */
void rt_check_outputs(const rt_case *c, const rt_build *b, rt_result *r);
/* An HRESULT where the case expects an error: PASS with the message, or FAIL. */
void rt_expected_error(const rt_case *c, const char *step, HRESULT hr, HRESULT want, rt_result *r);
/* A graph case (graph.c). */
void rt_run_graph(dmlcl_device *device, const char *device_error, rt_api api, const rt_case *c,
                  rt_result *r);

/* device NULL: device_error says why there is none. */
void rt_run_case(dmlcl_device *device, const char *device_error, rt_api api, const rt_case *c,
                 rt_result *r);

/*
 * run_com.cpp (built with DirectML's C++ API): desc through DMLCreateDevice,
 * CreateOperator, CompileOperator, an initializer, a binding table and
 * RecordDispatch on the device's queue, on host tensors as
 * dmlcl_compiled_operator_execute takes them. *step names the call that
 * failed (or, on success, every step).
 */
int rt_com_available(void);
HRESULT rt_com_run(dmlcl_device *device, const DML_OPERATOR_DESC *desc, unsigned n_inputs,
                   const dmlcl_host_tensor *inputs, unsigned n_outputs,
                   const dmlcl_host_tensor *outputs, const char **step);
/* The same for a graph: node_descs[i] is node i's operator (desc's nodes hold dmlcl_operators). */
HRESULT rt_com_run_graph(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                         const DML_OPERATOR_DESC *const *node_descs, unsigned n_inputs,
                         const dmlcl_host_tensor *inputs, unsigned n_outputs,
                         const dmlcl_host_tensor *outputs, const char **step);

#endif /* DMLCL_CONFORMANCE_RUNNER_H */
