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
#define RT_MAX_TENSORS 8
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

/* Converts one JSON value (number, string, bool) to an element at dst. */
int rt_value_parse(const rt_type *t, const cJSON *v, void *dst, char *why, size_t n);
/* "4 (0x40800000)": the value in the type, then its bits. */
void rt_value_format(const rt_type *t, const void *src, char *buf, size_t n);
/* The element's bits, zero-extended. */
uint64_t rt_value_bits(const rt_type *t, const void *src);
/* Integer kinds only: the element as a signed 64-bit value (UINT64 may wrap). */
int64_t rt_value_int(const rt_type *t, const void *src);
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
} rt_tensor;

/* A tensor without data; strides NULL = packed. */
rt_tensor *rt_tensor_new(const rt_type *type, unsigned rank, const UINT *sizes, const UINT *strides,
                         char *why, size_t n);
/* Parses {"type", "shape", "data", "strides"}; what names it in messages. */
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

typedef struct rt_named {
    const char *name;
    rt_tensor *t;
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
    unsigned ulp_tolerance;                   /* 0: bit-exact */
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
extern const rt_op rt_ops_pad[];       /* ops_pad.c: PADDING(1), Pad-1/12/18/19, Roll-7 */

const rt_op *rt_op_find(const char *name);
void rt_build_free(rt_build *b);

/* Helpers for builders; the int ones return 0, or -1 with b->why set. */
int rt_fail(rt_build *b, const char *fmt, ...) RT_PRINTF(2, 3);
/* A JSON number that is an integer in [lo, hi]. */
int rt_json_integral(const cJSON *v, double lo, double hi);
void *rt_alloc(rt_build *b, size_t size); /* zeroed, freed with the build */
/* Rejects names the operator does not know (NULL-terminated lists). */
int rt_check_names(rt_build *b, const char *const *inputs, const char *const *attrs,
                   const char *const *outputs);
const rt_tensor *rt_input(const rt_build *b, const char *name);
/* Input name, present and with data; NULL (b->why set) otherwise. */
const rt_tensor *rt_data_input(rt_build *b, const char *name);
const rt_tensor *rt_expected(const rt_build *b, const char *name);
const cJSON *rt_attr(const rt_build *b, const char *name);
int rt_attr_uint(rt_build *b, const char *name, UINT def, UINT *out);
int rt_attr_float(rt_build *b, const char *name, const cJSON *obj, FLOAT *out);
/* Absent: *vals NULL and *count 0. */
int rt_attr_uint_list(rt_build *b, const char *name, UINT **vals, unsigned *count);
int rt_attr_int_list(rt_build *b, const char *name, INT **vals, unsigned *count);
int rt_bind_input(rt_build *b, const rt_tensor *t);
/* Creates an output tensor (no data) and binds it as the next output slot. */
rt_tensor *rt_add_output(rt_build *b, const char *name, const rt_type *type, unsigned rank,
                         const UINT *sizes, const UINT *strides);

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

/* run.c's verdicts, shared with graph.c. */
void rt_verdict(rt_result *r, int passed, const char *fmt, ...) RT_PRINTF(3, 4);
/* 0 when equal; else -1 with the first differing element described in r. */
int rt_compare_output(const char *name, const rt_tensor *exp, const rt_tensor *got, unsigned ulps,
                      rt_result *r);
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
