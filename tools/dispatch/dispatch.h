/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-dispatch internals (docs/dispatch.md): a DxDispatch model is read
 * whole (model.c: resources and commands; ops.c: DirectML operator
 * descriptors; values.c: initial values and .npy files) into plain data,
 * every rule checked with the JSON path of the value that breaks it; only
 * then does run.c create the device, the buffers and the compiled operators,
 * bind every dispatch command, and run the commands. A model that fails any
 * check dispatches nothing.
 */
#ifndef DMLCL_DISPATCH_H
#define DMLCL_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "dmlcl/dmlcl.h"
#include "runner.h" /* conformance/: exact JSON integers and element types */

#define DSP_MSG_MAX 2048
#define DSP_PATH_MAX 1024
/* The most bytes of initial values one resource may hold in host memory. */
#define DSP_INITIAL_BYTES_MAX ((uint64_t)1 << 32)

#if defined(__GNUC__)
#define DSP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DSP_PRINTF(f, a)
#endif

/* ---- Reading: where in the model, and why it fails ------------------------------------ */

typedef struct dsp_arena dsp_arena;

typedef struct dsp_ctx {
    const char *model_path;
    char path[DSP_PATH_MAX]; /* "$.dispatchables.add.desc.ATensor" */
    size_t path_len;
    char msg[DSP_MSG_MAX]; /* the first failure: "PATH: why" */
    dsp_arena *arena;
} dsp_ctx;

/* Path segments: push returns the length to give back to pop. */
size_t dsp_push_key(dsp_ctx *c, const char *key);
size_t dsp_push_index(dsp_ctx *c, size_t index);
void dsp_pop(dsp_ctx *c, size_t mark);
/* Records "PATH: why" (the first failure wins) and returns -1. */
int dsp_fail(dsp_ctx *c, const char *fmt, ...) DSP_PRINTF(2, 3);
/* The same at PATH.key, for a member of the object at PATH. */
int dsp_fail_at(dsp_ctx *c, const char *key, const char *fmt, ...) DSP_PRINTF(3, 4);

void *dsp_alloc(dsp_ctx *c, size_t size); /* zeroed, lives until dsp_arena_free; NULL: failed */
void dsp_arena_free(dsp_ctx *c);
char *dsp_strdup(dsp_ctx *c, const char *s);

/* Member checks of the object at PATH: every key must be in allowed (NULL-terminated),
 * and no key may appear twice. */
int dsp_check_keys(dsp_ctx *c, const cJSON *obj, const char *const *allowed, const char *what);
/* JSON values, checked at PATH (the caller pushes the member's key). */
int dsp_get_uint(dsp_ctx *c, const cJSON *v, uint64_t max, uint64_t *out);
int dsp_get_int(dsp_ctx *c, const cJSON *v, int64_t lo, int64_t hi, int64_t *out);
int dsp_get_float(dsp_ctx *c, const cJSON *v, float *out);
int dsp_get_string(dsp_ctx *c, const cJSON *v, const char **out);
/* A JSON value as the model spells it, for messages: "\"FLOAT33\"", "12", "[...]". */
void dsp_spell(const cJSON *v, char *buf, size_t n);

/*
 * An enumeration as DxDispatch reads it: the full name ("DML_PADDING_MODE_EDGE")
 * or the name without prefix ("EDGE").
 */
typedef struct dsp_enum_value {
    const char *name; /* without prefix */
    int value;
} dsp_enum_value;
typedef struct dsp_enum {
    const char *type;   /* "DML_PADDING_MODE" */
    const char *prefix; /* "DML_PADDING_MODE_" */
    const dsp_enum_value *values;
} dsp_enum;
int dsp_get_enum(dsp_ctx *c, const cJSON *v, const dsp_enum *e, int *out);
/* Flags: one name, or a list of names OR'ed together. */
int dsp_get_flags(dsp_ctx *c, const cJSON *v, const dsp_enum *e, int *out);
extern const dsp_enum dsp_data_types;
/* A DirectML element type dmlcl-dispatch can hold values of (not UNKNOWN, UINT4, INT4). */
int dsp_get_data_type(dsp_ctx *c, const cJSON *v, const rt_type **out);
const rt_type *dsp_type_of(DML_TENSOR_DATA_TYPE t);

/* ---- The model ---------------------------------------------------------------------- */

typedef struct dsp_resource {
    const char *name;
    const rt_type *type;  /* NULL: initialValuesDataType UNKNOWN (a list of typed values) */
    unsigned char *bytes; /* size bytes: the initial values at their offset, zeros elsewhere */
    uint64_t size;
    uint64_t shown; /* elements print and writeFile show (docs/dispatch.md) */
    cl_mem mem;
    int hidden; /* a serialized graph's named constant (its file): no command names it */
} dsp_resource;

/* One buffer bound to one tensor slot. */
typedef struct dsp_binding {
    int resource; /* index in the model's resources; -1: nothing bound */
    uint64_t offset, size;
} dsp_binding;

/* A member of a desc that names tensors: bindings use these names. */
typedef struct dsp_bind_point {
    const char *name;
    unsigned first, count; /* slots first .. first + count - 1 */
    int output;
} dsp_bind_point;

/* Tensor members of one operator descriptor (ELEMENT_WISE_QUANTIZED_LINEAR_ADD has nine). */
#define DSP_MAX_POINTS 12

typedef struct dsp_dispatchable {
    const char *name;
    const char *op_name; /* "ELEMENT_WISE_ADD" */
    DML_OPERATOR_DESC desc;
    DML_EXECUTION_FLAGS flags;
    int graph; /* dmlCompileType DmlCompileGraph */
    unsigned n_points;
    dsp_bind_point *points; /* an operator's: DSP_MAX_POINTS; a graph's: its inputs, outputs */
    unsigned n_inputs, n_outputs;
    const DML_TENSOR_DESC **slot_tensors; /* n_inputs + n_outputs, inputs first */
    dsp_binding *init;                    /* per input slot: the initialization bindings */
    int has_owned;
    /* A graph dispatchable (graph.c): its nodes (each an operator's desc and slots) and the
     * edges between them; n_nodes 0 for an operator. */
    unsigned n_nodes;
    struct dsp_dispatchable *nodes;
    unsigned n_in_edges, n_mid_edges, n_out_edges;
    DML_INPUT_GRAPH_EDGE_DESC *in_edges;
    DML_INTERMEDIATE_GRAPH_EDGE_DESC *mid_edges;
    DML_OUTPUT_GRAPH_EDGE_DESC *out_edges;
    /* A serialized graph's node of inline constant data (DML_GRAPH_NODE_TYPE_CONSTANT): its
     * data_size bytes; it has no operator. */
    int constant;
    const void *data;
    uint64_t data_size;
    /* run.c */
    dmlcl_operator *op;
    dmlcl_compiled_operator *compiled;
    cl_mem persistent, temporary;
    uint64_t persistent_size, temporary_size;
} dsp_dispatchable;

typedef enum dsp_command_kind { DSP_DISPATCH, DSP_PRINT, DSP_WRITE_FILE } dsp_command_kind;

typedef struct dsp_command {
    dsp_command_kind kind;
    const char *path; /* "$.commands[2]" */
    int dispatchable;
    dsp_binding *slots; /* dispatch: n_inputs + n_outputs */
    int resource;       /* print, writeFile */
    int verbose;
    const char *target;
    unsigned n_dims;
    UINT *dims; /* writeFile .npy: NULL = one dimension of the resource's shown elements */
    int npy;
    dmlcl_binding_table *table; /* run.c */
} dsp_command;

typedef struct dsp_model {
    unsigned n_resources, n_dispatchables, n_commands;
    dsp_resource *resources;
    dsp_dispatchable *dispatchables;
    dsp_command *commands;
    cJSON *json; /* names point into it */
    char *text;
} dsp_model;

typedef struct dsp_paths {
    const char *input;  /* base of sourcePath: --input_path, else the model's folder */
    const char *output; /* base of targetPath: --output_path, else the current folder */
} dsp_paths;

/* Reads and checks a model file: 0, or -1 with c->msg. */
int dsp_model_load(dsp_ctx *c, const char *file, const dsp_paths *paths, dsp_model *m);
void dsp_model_free(dsp_model *m);

/* ops.c: a dispatchable's "type" and "desc" into d (at PATH, the dispatchable). */
int dsp_op_parse(dsp_ctx *c, const cJSON *type, const cJSON *desc, dsp_dispatchable *d);
/*
 * ops.c: the members of a DirectML operator's desc, in the header's order (DirectML's schema
 * order, which serialized graphs follow), for readers of other formats (serialized.c): they
 * build the desc's JSON from them and read it with dsp_op_parse.
 */
typedef enum dsp_member_kind {
    DSP_MEMBER_TENSOR,
    DSP_MEMBER_TENSOR_LIST,
    DSP_MEMBER_UINT, /* UINT, a count, a BOOL */
    DSP_MEMBER_FLOAT,
    DSP_MEMBER_UINT_LIST,
    DSP_MEMBER_INT_LIST,
    DSP_MEMBER_FLOAT_LIST,
    DSP_MEMBER_ENUM,
    DSP_MEMBER_DATA_TYPE,
    DSP_MEMBER_SCALAR, /* DML_SCALAR_UNION of the type in member ref */
    DSP_MEMBER_SCALE_BIAS,
    DSP_MEMBER_FUSED,
    DSP_MEMBER_SIZE_2D,
} dsp_member_kind;
typedef struct dsp_member {
    const char *name;
    dsp_member_kind kind;
    int output;        /* a tensor the operator writes */
    const dsp_enum *e; /* DSP_MEMBER_ENUM, DSP_MEMBER_DATA_TYPE: its names */
    const char *ref;   /* DSP_MEMBER_SCALAR: the member that holds its data type */
} dsp_member;
/* type: DML_OPERATOR_<NAME> or <NAME>; -1 with a failure at PATH for one dmlcl-dispatch does
 * not run (not a DirectML operator, or one dmlcl does not implement: named). */
int dsp_op_members(dsp_ctx *c, const char *type, const dsp_member **members, unsigned *n);
/* graph.c: a graph dispatchable's "inputs", "outputs" and "nodes" into g (at PATH, the
 * dispatchable). */
int dsp_graph_parse(dsp_ctx *c, const cJSON *obj, dsp_dispatchable *g);
/* serialized.c: a dmlSerializedGraph dispatchable (at PATH): its "sourcePath" (against base)
 * read into g, a graph; its named constants' files become hidden resources of m. */
int dsp_serialized_parse(dsp_ctx *c, dsp_model *m, const cJSON *obj, const char *base,
                         dsp_dispatchable *g);
/* values.c: a resource's initial values; sourcePath resolved against base. */
int dsp_resource_parse(dsp_ctx *c, const cJSON *obj, const char *base, dsp_resource *r);
/* values.c: .npy files. */
int dsp_npy_write(const char *file, const rt_type *t, const UINT *dims, unsigned n_dims,
                  const void *data, char *why, size_t n);

/* ---- Running (run.c) ---------------------------------------------------------------- */

typedef struct dsp_options {
    unsigned iterations; /* -i */
    unsigned repeat;     /* -r */
    unsigned warmup;     /* -w */
    unsigned verbosity;  /* -v */
    double milliseconds; /* -t; 0: by iterations */
    double interval_ms;  /* -I */
    const char *device;  /* -a: a DMLCL_DEVICE spec; NULL: the environment */
} dsp_options;

/* 0, or 1 with a message on stderr. */
int dsp_run(const char *model_path, dsp_model *m, const dsp_options *o);

#endif /* DMLCL_DISPATCH_H */
