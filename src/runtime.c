/*
 * The object model: operators (validated, deep-copied, planned), compiled
 * operators (kernel variant chosen, program from the cache, shape arguments
 * set once), binding tables (checked bindings) and dispatch.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

struct dmlcl_operator {
    int refcount;
    dmlcl_device *device; /* NULL: host-only */
    const dmlcl_op_class *cls;
    dmlcl_op_state st;
};

struct dmlcl_compiled_operator {
    int refcount;
    dmlcl_operator *op;
    cl_kernel kernel;     /* NULL when the output is empty */
    pthread_mutex_t lock; /* kernel arguments are per kernel: one dispatch at a time */
    /* The table (and its binding generation) whose buffers the kernel holds. */
    const dmlcl_binding_table *args_table;
    unsigned args_generation;
    cl_mem dims;
    uint32_t unit;
    size_t global[3], local[3];
};

struct dmlcl_binding_table {
    dmlcl_compiled_operator *compiled;
    DML_BUFFER_BINDING inputs[DMLCL_MAX_SLOTS], outputs[DMLCL_MAX_SLOTS];
    bool inputs_bound, outputs_bound;
    unsigned generation;      /* counts Bind calls: kernel arguments are reset after one */
    unsigned hazards_checked; /* generation + 1 whose bindings passed check_hazards */
    cl_mem status;            /* ERROR policy: smallest bad index position */
    cl_uint status_host;      /* read back after each dispatch */
    cl_event status_read;     /* NULL when no dispatch is pending */
};

static void operator_free(dmlcl_operator *op)
{
    if (op && __atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        dmlcl_device_release(op->device);
        free(op);
    }
}

/* ---- Operators ----------------------------------------------------------------------- */

HRESULT dmlcl_operator_create(dmlcl_device *device, const DML_OPERATOR_DESC *desc,
                              dmlcl_operator **op)
{
    DMLCL_NULL_IF(!op, "CreateOperator: the output pointer (NULL) is required");
    *op = NULL;
    DMLCL_NULL_IF(!desc, "CreateOperator: desc (NULL) is required");
    const dmlcl_op_class *cls = dmlcl_op_class_find(desc->Type);
    /* DirectML numbers its operators 1..255; other values are not operators at all. */
    bool directml_op = (int)desc->Type > 0 && (int)desc->Type < 256;
    DMLCL_INVALID_IF(!cls && !directml_op,
                     "CreateOperator: DML_OPERATOR_DESC.Type (%d) is not a DML_OPERATOR_TYPE or "
                     "dmlcl extension operator",
                     (int)desc->Type);
    DMLCL_UNSUPPORTED_IF(!cls,
                         "CreateOperator: DML_OPERATOR_DESC.Type (%d) is a DirectML operator "
                         "dmlcl does not implement",
                         (int)desc->Type);
    DMLCL_INVALID_IF(!desc->Desc,
                     "%s: DML_OPERATOR_DESC.Desc (NULL) must point to the operator's "
                     "description",
                     cls->name);
    dmlcl_operator *o = calloc(1, sizeof *o);
    if (!o)
        return dmlcl_fail(E_OUTOFMEMORY, "CreateOperator: out of host memory");
    o->refcount = 1;
    o->cls = cls;
    o->st.data_input = 0;
    o->st.index_input = -1;
    HRESULT hr = dmlcl_op_class_create(cls, desc->Desc, &o->st);
    if (FAILED(hr)) {
        free(o);
        return hr;
    }
    dmlcl_plan_normalize(&o->st.plan);
    if (device) {
        dmlcl_device_retain(device);
        o->device = device;
    }
    *op = o;
    return S_OK;
}

void dmlcl_operator_release(dmlcl_operator *op)
{
    operator_free(op);
}

UINT dmlcl_operator_input_count(const dmlcl_operator *op)
{
    return op ? op->st.n_inputs : 0;
}

UINT dmlcl_operator_output_count(const dmlcl_operator *op)
{
    return op ? op->st.n_outputs : 0;
}

/* ---- Compile: variant, program, arguments, launch geometry ------------------------------ */

static const char *unit_type(uint32_t unit)
{
    switch (unit) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    default: return "uint4";
    }
}

/* The 16-byte vector of units (cl/view.cl TRANSPOSE 2). */
static const char *vector_type(uint32_t unit)
{
    switch (unit) {
    case 1: return "uchar16";
    case 2: return "ushort8";
    case 4: return "uint4";
    case 8: return "ulong2";
    default: return "uint4";
    }
}

static const char *index_type(dmlcl_index_type t)
{
    switch (t) {
    case DMLCL_INDEX_UINT32: return "uint";
    case DMLCL_INDEX_INT64: return "long";
    case DMLCL_INDEX_UINT64: return "ulong";
    case DMLCL_INDEX_INT8: return "char";
    case DMLCL_INDEX_UINT8: return "uchar";
    case DMLCL_INDEX_INT16: return "short";
    case DMLCL_INDEX_UINT16: return "ushort";
    default: return "int";
    }
}

static bool index_signed(dmlcl_index_type t)
{
    return t == DMLCL_INDEX_INT32 || t == DMLCL_INDEX_INT64 || t == DMLCL_INDEX_INT8 ||
           t == DMLCL_INDEX_INT16;
}

static const char *arith_options(DML_TENSOR_DATA_TYPE t)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT16)
        return " -DARITH_T=half -DARITH_IS_HALF";
    if (t == DML_TENSOR_DATA_TYPE_FLOAT64)
        return " -DARITH_T=double";
    return " -DARITH_T=float";
}

/* A VIEW plan whose outer dimensions include input stride 0: REPEAT (see cl/view.cl). */
static bool view_repeats(const dmlcl_plan *p)
{
    for (int d = 0; p->kind == DMLCL_PLAN_VIEW && d + 1 < p->rank; ++d)
        if (p->in_stride[d] == 0)
            return true;
    return false;
}

static bool device_is_gpu(const dmlcl_device_info *info)
{
    return (info->type & CL_DEVICE_TYPE_GPU) != 0;
}

/*
 * TRANSPOSE tiles (cl/view.cl): SIDE units along the input-contiguous
 * dimension (one line read per input row), a chunk of the run along the
 * output-contiguous one (two whole lines written per output row). Measured
 * on PoCL over NCHW<->NHWC in u8/f16/f32/f64 and a 2-D transpose
 * (dmlcl-bench --variants): 64 x 128 bytes beat 128 x 128 and 64 x 64;
 * chunks under a line (32 bytes) are 10x slower with non-temporal stores.
 */
static int transpose_side(const dmlcl_plan *p)
{
    return 64 / (int)p->elem_bytes;
}

static int transpose_chunk(const dmlcl_plan *p)
{
    return 128 / (int)p->elem_bytes;
}

/*
 * A layout change on a CPU (see cl/view.cl TRANSPOSE): the run is contiguous
 * in the output and far-strided in the input, the next dimension is
 * contiguous in the input and at least a tile. 2 (register blocks) where the
 * run, the output offset and every output stride are whole 16-byte vectors
 * (binding offsets are 16-byte aligned), else 1.
 */
static int view_transposes(const dmlcl_plan *p, const dmlcl_device_info *info)
{
    int in = p->rank - 1;
    if (p->kind != DMLCL_PLAN_VIEW || device_is_gpu(info) || p->scale_bias || p->rank < 2 ||
        view_repeats(p) || p->out_stride[in] != 1 ||
        (p->in_stride[in] <= 4 && p->in_stride[in] >= -4) || p->in_stride[in - 1] != 1 ||
        p->size[in - 1] < transpose_side(p))
        return 0;
    int64_t vn = 16 / (int64_t)p->elem_bytes;
    if (p->size[in] % vn != 0 || p->out_offset % vn != 0)
        return 1;
    for (int d = 0; d < in; ++d)
        if (p->out_stride[d] % vn != 0)
            return 1;
    return 2;
}

/*
 * Non-temporal stores pay off on CPUs when the output is far larger than the
 * caches and only written (measured on PoCL: ~1.4x on a 120 MB copy).
 */
static bool streams(const dmlcl_plan *p, const dmlcl_device_info *info)
{
    uint64_t elements = 1;
    for (int d = 0; d < p->rank; ++d)
        elements *= (uint64_t)p->size[d];
    return !device_is_gpu(info) && !p->scale_bias && elements * p->elem_bytes >= (32u << 20);
}

/* An element-indexed run whose indices no outer dimension moves (cl/indexed.cl). */
static bool shares_index(const dmlcl_plan *p)
{
    if (p->kind != DMLCL_PLAN_INDEXED || p->rank < 2 || p->idx_stride[p->rank - 1] == 0 ||
        p->check_only)
        return false;
    for (int d = 0; d + 1 < p->rank; ++d)
        if (p->idx_stride[d] != 0)
            return false;
    return true;
}

static void variant_options(const dmlcl_plan *p, const dmlcl_device_info *info, char *buf,
                            size_t len)
{
    int in = p->rank - 1;
    bool fast = p->rank > 0 && p->out_stride[in] == 1 && p->in_stride[in] == 1;
    bool out_unit = p->rank > 0 && p->out_stride[in] == 1;
    int n = snprintf(
        buf, len, "-cl-std=CL1.2 -DUNIT_T=%s -DFAST=%d -DOUT_UNIT=%d -DSERIAL=%d -DSTREAM=%d",
        unit_type(p->elem_bytes), fast, out_unit, !device_is_gpu(info), streams(p, info));
    if (p->rank > 0 && !fast && p->in_stride[in] >= -4 && p->in_stride[in] <= 4)
        n += snprintf(buf + n, len - (size_t)n, " -DRUN_IS_K=%d", (int)p->in_stride[in]);
    if (p->kind == DMLCL_PLAN_INDEXED && p->rank > 0 && p->idx_stride[in] >= -4 &&
        p->idx_stride[in] <= 4)
        n += snprintf(buf + n, len - (size_t)n, " -DRUN_XS_K=%d", (int)p->idx_stride[in]);
    if (p->kind == DMLCL_PLAN_INDEXED) {
        bool row = p->rank == 0 || p->idx_stride[in] == 0;
        bool run_one = !device_is_gpu(info) && (p->rank == 0 || p->size[in] == 1);
        n += snprintf(buf + n, len - (size_t)n, " -DSHARED_INDEX=%d -DRUN_ONE=%d -DROWS_1D=%d",
                      shares_index(p), run_one, p->rank == 2);
        bool is_signed = index_signed(p->idx_type);
        snprintf(buf + n, len - (size_t)n,
                 " -DIDX_T=%s -DIDX_SIGNED=%d -DWRAP=%d -DPOLICY=%d "
                 "-DROW_INDEX=%d -DCHECK_ONLY=%d -DNCOMP=%d",
                 index_type(p->idx_type), is_signed, p->wrap_negative, (int)p->policy, row,
                 p->check_only, p->components);
    } else {
        bool splat = p->rank > 0 && p->in_stride[in] == 0;
        int transposes = view_transposes(p, info);
        n += snprintf(buf + n, len - (size_t)n,
                      " -DSPLAT=%d -DREPEAT=%d -DTRANSPOSE=%d -DSIDE=%d -DCHUNK_MAX=%d", splat,
                      view_repeats(p), transposes, transpose_side(p), transpose_chunk(p));
        if (transposes == 2)
            n += snprintf(buf + n, len - (size_t)n, " -DVN=%u -DVEC_T=%s -DVLOAD=vload%u",
                          16 / p->elem_bytes, vector_type(p->elem_bytes), 16 / p->elem_bytes);
        if (p->scale_bias)
            snprintf(buf + n, len - (size_t)n, " -DSCALE_BIAS=1%s", arith_options(p->arith_type));
    }
}

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

/*
 * Work-item geometry: (lane, chunk, item); see cl/view.cl. An item is a row,
 * or with repeats (reps > 1) a row and a group of *reps_per_item repeats:
 * enough groups to fill the device, each as large as that allows.
 */
static void geometry(dmlcl_compiled_operator *c, const dmlcl_plan *p, const dmlcl_device_info *info,
                     uint64_t row_count, uint64_t reps, long *chunk_out, uint64_t *reps_per_item,
                     uint64_t *rows_per_item)
{
    int64_t run = p->rank ? p->size[p->rank - 1] : 1;
    bool gpu = (info->type & CL_DEVICE_TYPE_GPU) != 0;
    size_t lanes = 1;
    if (gpu)
        while (lanes < 64 && (int64_t)lanes < run)
            lanes <<= 1;
    if (lanes > info->max_item_sizes[0])
        lanes = info->max_item_sizes[0];
    int64_t chunk = gpu ? (int64_t)lanes * 8 : (int64_t)(16384 / p->elem_bytes);
    if (view_transposes(p, info))
        chunk = transpose_chunk(p);
    if (chunk > run)
        chunk = run;
    uint64_t chunks = (uint64_t)((run + chunk - 1) / chunk);
    uint64_t want = (gpu ? 256 : 64) * (uint64_t)info->compute_units, base = row_count * chunks;
    uint64_t rep_groups = reps > 1 && base < want ? (want + base - 1) / base : 1;
    if (rep_groups > reps)
        rep_groups = reps;
    *reps_per_item = (reps + rep_groups - 1) / rep_groups;
    uint64_t rows = row_count * ((reps + *reps_per_item - 1) / *reps_per_item);
    /* CPUs: short runs are grouped so a work-item moves ~16 KiB, while
     * leaving 16 items per compute unit. Repeats already group work. */
    *rows_per_item = 1;
    if (view_transposes(p, info)) {
        /* Tiles per item: 4 (~8 KiB of floats), leaving 16 items per compute unit. */
        uint64_t by_count = rows * chunks / (16 * (uint64_t)info->compute_units);
        *rows_per_item = by_count < 4 ? (by_count ? by_count : 1) : 4;
        rows = (rows + *rows_per_item - 1) / *rows_per_item;
    } else if (!gpu && reps == 1 && chunks == 1) {
        uint64_t by_size = (uint64_t)(16384 / p->elem_bytes) / (uint64_t)run;
        uint64_t by_count = rows / (16 * (uint64_t)info->compute_units);
        /* Shared indices: enough rows to repay resolving them once. */
        if (shares_index(p) && by_size < 16)
            by_size = 16;
        *rows_per_item = by_size < by_count ? by_size : by_count;
        if (*rows_per_item < 1)
            *rows_per_item = 1;
        rows = (rows + *rows_per_item - 1) / *rows_per_item;
    }
    size_t per_group = gpu ? 256 / lanes : 64;
    uint64_t groups_wanted = 4 * (uint64_t)info->compute_units;
    uint64_t items = rows * chunks;
    if (!gpu && items / per_group < groups_wanted)
        per_group = (size_t)(items / groups_wanted > 0 ? items / groups_wanted : 1);
    if (per_group > rows)
        per_group = (size_t)rows;
    size_t max_group = info->max_work_group_size / lanes;
    if (per_group > max_group)
        per_group = max_group;
    if (per_group > info->max_item_sizes[2])
        per_group = info->max_item_sizes[2];
    if (per_group < 1)
        per_group = 1;
    c->local[0] = lanes;
    c->local[1] = 1;
    c->local[2] = per_group;
    c->global[0] = lanes;
    c->global[1] = (size_t)chunks;
    c->global[2] = round_up((size_t)rows, per_group);
    *chunk_out = (long)chunk;
}

static HRESULT make_constant(dmlcl_device *dev, const cl_long *data, size_t count, cl_mem *out)
{
    cl_long zero = 0;
    cl_int err;
    *out =
        clCreateBuffer(dev->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       (count ? count : 1) * sizeof(cl_long), count ? (void *)data : &zero, &err);
    return err == CL_SUCCESS ? S_OK : dmlcl_fail_cl(err, "clCreateBuffer (shape arguments)");
}

#define SET_ARG(k, i, v)                                       \
    do {                                                       \
        cl_int e_ = clSetKernelArg((k), (i), sizeof(v), &(v)); \
        if (e_ != CL_SUCCESS)                                  \
            return dmlcl_fail_cl(e_, "clSetKernelArg");        \
    } while (0)

/* The scalars at the head of the shape buffer (cl/view.cl, cl/indexed.cl HEADER). */
#define SHAPE_HEADER 12

/* Arguments that depend on the shape only: set once, here, as one constant
 * buffer (each kernel argument costs PoCL ~0.2 us per enqueue). */
static HRESULT set_shape_args(dmlcl_compiled_operator *c, const dmlcl_plan *p)
{
    dmlcl_device *dev = c->op->device;
    const dmlcl_device_info *info = dmlcl_device_get_info(dev);
    bool indexed = p->kind == DMLCL_PLAN_INDEXED;
    int per = indexed ? 5 : 3, outer = p->rank > 0 ? p->rank - 1 : 0, in = p->rank - 1;
    cl_long shape[SHAPE_HEADER + 5 * DMLCL_MAX_RANK + 2 * DMLCL_MAX_COMPONENTS] = {0};
    cl_long *dims = shape + SHAPE_HEADER;
    bool repeat = view_repeats(p);
    uint64_t rows = 1, reps = 1, reps_per_item, rows_per_item;
    int row_rank = 0, j = 0;
    /* The rows, then (REPEAT) the repeats; innermost outer dimension first. */
    for (int pass = 0; pass < 2; ++pass)
        for (int d = outer - 1; d >= 0; --d) {
            bool rep = repeat && p->in_stride[d] == 0;
            if (rep != (pass == 1))
                continue;
            cl_long v[5] = {p->size[d], p->out_stride[d], p->in_stride[d], p->idx_stride[d],
                            p->idx_pos[d]};
            memcpy(dims + per * j++, v, (size_t)per * sizeof(cl_long));
            *(rep ? &reps : &rows) *= (uint64_t)p->size[d];
            row_rank += !rep;
        }
    int extra = 0;
    if (view_transposes(p, info)) {
        /* Rows are tiles of dims[0]; its real size and output stride follow. */
        cl_long n0 = dims[0], side = transpose_side(p), tiles = (n0 + side - 1) / side;
        dims[3 * outer] = n0;
        dims[3 * outer + 1] = dims[1];
        dims[3 * outer + 2] = 1;
        dims[0] = tiles;
        dims[1] *= side;
        dims[2] = side;
        rows = rows / (uint64_t)n0 * (uint64_t)tiles;
        extra = 3;
    }
    if (indexed) /* the index components follow the dims: {axis size, axis stride} each */
        for (int i = 0; i < p->components; ++i) {
            dims[per * outer + 2 * i] = p->axis_size[i];
            dims[per * outer + 2 * i + 1] = p->axis_stride[i];
        }
    extra += indexed ? 2 * p->components : 0;
    long chunk;
    geometry(c, p, info, rows, reps, &chunk, &reps_per_item, &rows_per_item);
    cl_long run = p->rank ? p->size[in] : 1, run_os = p->rank ? p->out_stride[in] : 0,
            run_is = p->rank ? p->in_stride[in] : 0;
    if (!indexed) {
        uint32_t scale, bias;
        memcpy(&scale, &p->scale, sizeof scale);
        memcpy(&bias, &p->bias, sizeof bias);
        cl_long head[SHAPE_HEADER] = {row_rank,
                                      run,
                                      run_os,
                                      run_is,
                                      chunk,
                                      (cl_long)rows,
                                      scale,
                                      bias,
                                      outer - row_rank,
                                      (cl_long)reps,
                                      (cl_long)reps_per_item,
                                      (cl_long)rows_per_item};
        memcpy(shape, head, sizeof head);
    } else {
        cl_long head[SHAPE_HEADER] = {row_rank,
                                      p->comp_idx_stride,
                                      p->comp_pos_stride,
                                      run,
                                      run_os,
                                      run_is,
                                      p->rank ? p->idx_stride[in] : 0,
                                      p->rank ? p->idx_pos[in] : 0,
                                      chunk,
                                      (cl_long)rows,
                                      (cl_long)rows_per_item,
                                      0};
        memcpy(shape, head, sizeof head);
    }
    DMLCL_TRY(make_constant(dev, shape, (size_t)(SHAPE_HEADER + per * outer + extra), &c->dims));
    SET_ARG(c->kernel, indexed ? 7 : 4, c->dims);
    return S_OK;
}

/* DMLCL_VERBOSE=1: one line per compile on stderr (the plan and its variant). */
static void verbose_plan(const char *op, const dmlcl_plan *p, const char *options)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *v = getenv("DMLCL_VERBOSE");
        enabled = v && *v && *v != '0';
    }
    if (!enabled)
        return;
    char line[1024];
    int n = snprintf(line, sizeof line, "dmlcl: compile %s unit %u offsets out %lld in %lld dims",
                     op, p->elem_bytes, (long long)p->out_offset, (long long)p->in_offset);
    for (int d = 0; d < p->rank && n < (int)sizeof line; ++d)
        n += snprintf(line + n, sizeof line - (size_t)n, " [%lld: os %lld is %lld xs %lld]",
                      (long long)p->size[d], (long long)p->out_stride[d],
                      (long long)p->in_stride[d], (long long)p->idx_stride[d]);
    fprintf(stderr, "%s | %s\n", line, options);
}

static HRESULT compile_kernel(dmlcl_compiled_operator *c)
{
    const dmlcl_plan *p = &c->op->st.plan;
    char options[256];
    variant_options(p, dmlcl_device_get_info(c->op->device), options, sizeof options);
    verbose_plan(c->op->cls->name, p, options);
    bool indexed = p->kind == DMLCL_PLAN_INDEXED;
    cl_program program;
    DMLCL_TRY(dmlcl_device_program(
        c->op->device, indexed ? DMLCL_SOURCE_INDEXED : DMLCL_SOURCE_VIEW, options, &program));
    cl_int err;
    c->kernel = clCreateKernel(program, indexed ? "indexed_copy" : "view_copy", &err);
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clCreateKernel");
    c->unit = p->elem_bytes;
    return set_shape_args(c, p);
}

void dmlcl_compiled_operator_release(dmlcl_compiled_operator *c)
{
    if (!c || __atomic_sub_fetch(&c->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    if (c->kernel)
        clReleaseKernel(c->kernel);
    if (c->dims)
        clReleaseMemObject(c->dims);
    operator_free(c->op);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

HRESULT dmlcl_operator_compile(dmlcl_operator *op, DML_EXECUTION_FLAGS flags,
                               dmlcl_compiled_operator **compiled)
{
    DMLCL_NULL_IF(!compiled, "CompileOperator: the output pointer (NULL) is required");
    *compiled = NULL;
    DMLCL_NULL_IF(!op, "CompileOperator: op (NULL) is required");
    DMLCL_INVALID_IF(!op->device,
                     "%s: CompileOperator needs an operator created on a device "
                     "(this one was created with a NULL device, host-only)",
                     op->cls->name);
    DMLCL_INVALID_IF((unsigned)flags & ~7u, "%s: CompileOperator flags (0x%x) has unknown bits",
                     op->cls->name, (unsigned)flags);
    dmlcl_compiled_operator *c = calloc(1, sizeof *c);
    if (!c)
        return dmlcl_fail(E_OUTOFMEMORY, "CompileOperator: out of host memory");
    c->refcount = 1;
    pthread_mutex_init(&c->lock, NULL);
    __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
    c->op = op;
    if (!op->st.plan.empty) {
        HRESULT hr = compile_kernel(c);
        if (FAILED(hr)) {
            dmlcl_compiled_operator_release(c);
            return hr;
        }
    }
    *compiled = c;
    return S_OK;
}

DML_BINDING_PROPERTIES dmlcl_compiled_operator_binding_properties(const dmlcl_compiled_operator *c)
{
    DML_BINDING_PROPERTIES props = {0};
    /* Applications size descriptor heaps from this; 0 could give empty heaps. */
    props.RequiredDescriptorCount = c ? c->op->st.n_inputs + c->op->st.n_outputs : 1;
    return props;
}

dmlcl_operator *dmlcl_compiled_operator_operator(const dmlcl_compiled_operator *c)
{
    return c ? c->op : NULL;
}

/* ---- Binding tables ---------------------------------------------------------------------- */

HRESULT dmlcl_binding_table_create(dmlcl_compiled_operator *compiled, dmlcl_binding_table **table)
{
    DMLCL_NULL_IF(!table, "CreateBindingTable: the output pointer (NULL) is required");
    *table = NULL;
    DMLCL_NULL_IF(!compiled, "CreateBindingTable: the compiled operator (NULL) is required");
    dmlcl_binding_table *t = calloc(1, sizeof *t);
    if (!t)
        return dmlcl_fail(E_OUTOFMEMORY, "CreateBindingTable: out of host memory");
    const dmlcl_plan *p = &compiled->op->st.plan;
    if (p->kind == DMLCL_PLAN_INDEXED && p->policy == DMLCL_OOR_ERROR && !p->empty) {
        cl_int err;
        t->status = clCreateBuffer(compiled->op->device->context, CL_MEM_READ_WRITE,
                                   sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS) {
            free(t);
            return dmlcl_fail_cl(err, "clCreateBuffer (status)");
        }
    }
    __atomic_add_fetch(&compiled->refcount, 1, __ATOMIC_RELAXED);
    t->compiled = compiled;
    *table = t;
    return S_OK;
}

void dmlcl_binding_table_release(dmlcl_binding_table *t)
{
    if (!t)
        return;
    if (t->status_read) {
        clWaitForEvents(1, &t->status_read);
        clReleaseEvent(t->status_read);
    }
    if (t->status)
        clReleaseMemObject(t->status);
    pthread_mutex_lock(&t->compiled->lock); /* a later table may reuse this address */
    if (t->compiled->args_table == t)
        t->compiled->args_table = NULL;
    pthread_mutex_unlock(&t->compiled->lock);
    dmlcl_compiled_operator_release(t->compiled);
    free(t);
}

static HRESULT check_binding(const char *op, const char *call, UINT i, const char *name,
                             const dmlcl_tensor *tensor, const DML_BINDING_DESC *b,
                             DML_BUFFER_BINDING *out)
{
    memset(out, 0, sizeof *out);
    if (b->Type == DML_BINDING_TYPE_NONE) {
        DMLCL_INVALID_IF(tensor->present,
                         "%s: %s binding %u (%s) is DML_BINDING_TYPE_NONE but "
                         "the tensor is required",
                         op, call, i, name);
        return S_OK;
    }
    DMLCL_INVALID_IF(b->Type != DML_BINDING_TYPE_BUFFER,
                     "%s: %s binding %u (%s).Type (%d) must be DML_BINDING_TYPE_BUFFER (1) or "
                     "NONE (0) for execution",
                     op, call, i, name, (int)b->Type);
    DMLCL_INVALID_IF(!tensor->present,
                     "%s: %s binding %u (%s) is bound but the operator has no "
                     "such tensor; use DML_BINDING_TYPE_NONE",
                     op, call, i, name);
    const DML_BUFFER_BINDING *bb = b->Desc;
    DMLCL_NULL_IF(!bb, "%s: %s binding %u (%s).Desc (NULL) must point to a DML_BUFFER_BINDING", op,
                  call, i, name);
    DMLCL_NULL_IF(!bb->Buffer, "%s: %s binding %u (%s).Buffer (NULL) must be a cl_mem", op, call, i,
                  name);
    uint64_t align = tensor->base_align > DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT
                         ? tensor->base_align
                         : DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT;
    DMLCL_INVALID_IF(bb->Offset % align != 0,
                     "%s: %s binding %u (%s).Offset (%llu) must be a multiple of %llu", op, call, i,
                     name, (unsigned long long)bb->Offset, (unsigned long long)align);
    DMLCL_INVALID_IF(bb->SizeInBytes < tensor->total_bytes,
                     "%s: %s binding %u (%s).SizeInBytes (%llu) must be at least the tensor's "
                     "TotalTensorSizeInBytes (%llu)",
                     op, call, i, name, (unsigned long long)bb->SizeInBytes,
                     (unsigned long long)tensor->total_bytes);
    size_t mem_size = 0;
    cl_int err =
        clGetMemObjectInfo((cl_mem)bb->Buffer, CL_MEM_SIZE, sizeof mem_size, &mem_size, NULL);
    DMLCL_INVALID_IF(err != CL_SUCCESS, "%s: %s binding %u (%s).Buffer is not a valid cl_mem (%s)",
                     op, call, i, name, dmlcl_cl_error_name(err));
    DMLCL_INVALID_IF(bb->Offset > mem_size || bb->SizeInBytes > mem_size - bb->Offset,
                     "%s: %s binding %u (%s): Offset (%llu) + SizeInBytes (%llu) must lie inside "
                     "the cl_mem (%zu bytes)",
                     op, call, i, name, (unsigned long long)bb->Offset,
                     (unsigned long long)bb->SizeInBytes, mem_size);
    *out = *bb;
    return S_OK;
}

static HRESULT bind(dmlcl_binding_table *t, bool outputs, UINT count, const DML_BINDING_DESC *b)
{
    DMLCL_NULL_IF(!t, "Bind: the binding table (NULL) is required");
    const dmlcl_op_state *st = &t->compiled->op->st;
    const char *op = t->compiled->op->cls->name;
    const char *call = outputs ? "BindOutputs" : "BindInputs";
    UINT want = outputs ? st->n_outputs : st->n_inputs;
    DMLCL_INVALID_IF(count != want, "%s: %s count (%u) must equal the operator's %s count (%u)", op,
                     call, count, outputs ? "output" : "input", want);
    DMLCL_NULL_IF(count && !b, "%s: %s bindings (NULL) are required", op, call);
    DML_BUFFER_BINDING checked[DMLCL_MAX_SLOTS];
    for (UINT i = 0; i < count; ++i)
        DMLCL_TRY(check_binding(op, call, i, outputs ? st->output_names[i] : st->input_names[i],
                                outputs ? &st->outputs[i] : &st->inputs[i], &b[i], &checked[i]));
    memcpy(outputs ? t->outputs : t->inputs, checked, count * sizeof *checked);
    *(outputs ? &t->outputs_bound : &t->inputs_bound) = true;
    t->generation++;
    return S_OK;
}

HRESULT dmlcl_binding_table_bind_inputs(dmlcl_binding_table *t, UINT count,
                                        const DML_BINDING_DESC *bindings)
{
    return bind(t, false, count, bindings);
}

HRESULT dmlcl_binding_table_bind_outputs(dmlcl_binding_table *t, UINT count,
                                         const DML_BINDING_DESC *bindings)
{
    return bind(t, true, count, bindings);
}

static bool overlap(const DML_BUFFER_BINDING *a, uint64_t an, const DML_BUFFER_BINDING *b,
                    uint64_t bn)
{
    return a->Buffer && a->Buffer == b->Buffer && a->Offset < b->Offset + bn &&
           b->Offset < a->Offset + an;
}

/* DirectML's hazard rules: outputs' writable areas never overlap anything,
 * except an in-place operator's input on exactly the same range. */
static HRESULT check_hazards(const dmlcl_binding_table *t)
{
    const dmlcl_op_state *st = &t->compiled->op->st;
    const char *op = t->compiled->op->cls->name;
    for (uint32_t o = 0; o < st->n_outputs; ++o) {
        uint64_t on = st->outputs[o].total_bytes;
        for (uint32_t i = 0; i < st->n_inputs; ++i) {
            const DML_BUFFER_BINDING *in = &t->inputs[i], *out = &t->outputs[o];
            if (!overlap(in, st->inputs[i].total_bytes, out, on))
                continue;
            bool same = in->Offset == out->Offset && st->inputs[i].total_bytes == on;
            DMLCL_INVALID_IF(st->in_place && same && st->in_place_denied,
                             "%s: %s and %s share one range, but %s", op, st->input_names[i],
                             st->output_names[o], st->in_place_denied);
            DMLCL_INVALID_IF(!(st->in_place && same),
                             "%s: %s and %s overlap in one cl_mem; only an in-place operator "
                             "(ELEMENT_WISE_IDENTITY) may share a range, and only the identical "
                             "range",
                             op, st->input_names[i], st->output_names[o]);
        }
        for (uint32_t p = o + 1; p < st->n_outputs; ++p)
            DMLCL_INVALID_IF(
                overlap(&t->outputs[o], on, &t->outputs[p], st->outputs[p].total_bytes),
                "%s: %s and %s overlap in one cl_mem", op, st->output_names[o],
                st->output_names[p]);
    }
    return S_OK;
}

static HRESULT enqueue_status(dmlcl_binding_table *t, cl_command_queue q, cl_uint *nwait,
                              const cl_event **wait, cl_event *fill)
{
    cl_uint init = UINT32_MAX;
    cl_int err =
        clEnqueueFillBuffer(q, t->status, &init, sizeof init, 0, sizeof init, *nwait, *wait, fill);
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clEnqueueFillBuffer (status)");
    *nwait = 1;
    *wait = fill;
    return S_OK;
}

/* Sets the buffers and base offsets, unless this table's are already set
 * (repeated dispatches of one table cost one enqueue). */
static HRESULT set_binding_args(dmlcl_binding_table *t)
{
    dmlcl_compiled_operator *c = t->compiled;
    if (c->args_table == t && c->args_generation == t->generation)
        return S_OK;
    c->args_table = NULL;
    const dmlcl_op_state *st = &c->op->st;
    const dmlcl_plan *p = &st->plan;
    const DML_BUFFER_BINDING *out = &t->outputs[0], *in = &t->inputs[st->data_input];
    cl_mem out_mem = (cl_mem)out->Buffer, in_mem = (cl_mem)in->Buffer;
    cl_long out_base = (cl_long)(out->Offset / c->unit) + p->out_offset;
    cl_long in_base = (cl_long)(in->Offset / c->unit) + p->in_offset;
    SET_ARG(c->kernel, 0, out_mem);
    SET_ARG(c->kernel, 1, out_base);
    SET_ARG(c->kernel, 2, in_mem);
    SET_ARG(c->kernel, 3, in_base);
    if (p->kind != DMLCL_PLAN_INDEXED) {
        c->args_table = t;
        c->args_generation = t->generation;
        return S_OK;
    }
    const DML_BUFFER_BINDING *ix = &t->inputs[st->index_input];
    cl_mem idx_mem = (cl_mem)ix->Buffer;
    uint32_t ib = st->inputs[st->index_input].elem_bytes;
    cl_long idx_base = (cl_long)(ix->Offset / ib) + p->idx_offset;
    cl_mem status = t->status; /* NULL (unused) unless ERROR */
    SET_ARG(c->kernel, 4, idx_mem);
    SET_ARG(c->kernel, 5, idx_base);
    SET_ARG(c->kernel, 6, status);
    c->args_table = t;
    c->args_generation = t->generation;
    return S_OK;
}

static HRESULT enqueue_kernel(dmlcl_binding_table *t, cl_command_queue q, cl_uint nwait,
                              const cl_event *wait, cl_event *event);

HRESULT dmlcl_binding_table_dispatch(dmlcl_binding_table *t, cl_command_queue queue, cl_uint nwait,
                                     const cl_event *wait, cl_event *event)
{
    DMLCL_NULL_IF(!t, "RecordDispatch: the binding table (NULL) is required");
    dmlcl_compiled_operator *c = t->compiled;
    const char *op = c->op->cls->name;
    DMLCL_INVALID_IF(!t->inputs_bound || !t->outputs_bound,
                     "%s: RecordDispatch needs BindInputs and BindOutputs first", op);
    if (t->hazards_checked != t->generation + 1) { /* bindings change only by Bind */
        DMLCL_TRY(check_hazards(t));
        t->hazards_checked = t->generation + 1;
    }
    cl_command_queue q = queue ? queue : c->op->device->queue;
    if (t->status_read) {
        clReleaseEvent(t->status_read);
        t->status_read = NULL;
    }
    cl_int err;
    if (!c->kernel) {
        err = event ? clEnqueueMarkerWithWaitList(q, nwait, wait, event) : CL_SUCCESS;
        return err == CL_SUCCESS ? S_OK : dmlcl_fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    pthread_mutex_lock(&c->lock);
    HRESULT hr = enqueue_kernel(t, q, nwait, wait, event);
    pthread_mutex_unlock(&c->lock);
    return hr;
}

static HRESULT enqueue_kernel(dmlcl_binding_table *t, cl_command_queue q, cl_uint nwait,
                              const cl_event *wait, cl_event *event)
{
    dmlcl_compiled_operator *c = t->compiled;
    cl_int err;
    DMLCL_TRY(set_binding_args(t));
    cl_event fill = NULL;
    if (t->status)
        DMLCL_TRY(enqueue_status(t, q, &nwait, &wait, &fill));
    cl_event done = NULL;
    err = clEnqueueNDRangeKernel(q, c->kernel, 3, NULL, c->global, c->local, nwait, wait,
                                 (event || t->status) ? &done : NULL);
    if (fill)
        clReleaseEvent(fill);
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clEnqueueNDRangeKernel");
    if (t->status) {
        err = clEnqueueReadBuffer(q, t->status, CL_FALSE, 0, sizeof t->status_host, &t->status_host,
                                  1, &done, &t->status_read);
        if (err != CL_SUCCESS) {
            clReleaseEvent(done);
            return dmlcl_fail_cl(err, "clEnqueueReadBuffer (status)");
        }
    }
    if (event)
        *event = done;
    else if (done)
        clReleaseEvent(done);
    return S_OK;
}

/* ---- Status of the last dispatch (ERROR policy) --------------------------------------- */

static HRESULT read_index(dmlcl_binding_table *t, uint64_t pos, uint64_t *coords, int64_t *value,
                          bool *is_signed)
{
    const dmlcl_op_state *st = &t->compiled->op->st;
    const dmlcl_tensor *ix = &st->inputs[st->index_input];
    uint64_t rest = pos;
    int64_t at = 0;
    for (uint32_t d = ix->rank; d-- > 0;) {
        coords[d] = rest % ix->sizes[d];
        rest /= ix->sizes[d];
        at += (int64_t)coords[d] * ix->strides[d];
    }
    unsigned char raw[8] = {0};
    const DML_BUFFER_BINDING *b = &t->inputs[st->index_input];
    cl_int err = clEnqueueReadBuffer(t->compiled->op->device->queue, (cl_mem)b->Buffer, CL_TRUE,
                                     b->Offset + (uint64_t)at * ix->elem_bytes, ix->elem_bytes, raw,
                                     0, NULL, NULL);
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clEnqueueReadBuffer (offending index)");
    *is_signed = index_signed(st->plan.idx_type);
    uint64_t bits = 0;
    memcpy(&bits, raw, ix->elem_bytes); /* little-endian, as OpenCL devices */
    unsigned width = 8 * ix->elem_bytes;
    if (*is_signed && width < 64 && (bits >> (width - 1)) & 1)
        bits |= ~(uint64_t)0 << width;
    *value = (int64_t)bits;
    return S_OK;
}

HRESULT dmlcl_binding_table_status(dmlcl_binding_table *t)
{
    DMLCL_NULL_IF(!t, "status: the binding table (NULL) is required");
    if (!t->status_read)
        return S_OK;
    cl_int err = clWaitForEvents(1, &t->status_read);
    clReleaseEvent(t->status_read);
    t->status_read = NULL;
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clWaitForEvents (dispatch)");
    if (t->status_host == UINT32_MAX)
        return S_OK;
    const dmlcl_op_state *st = &t->compiled->op->st;
    const dmlcl_plan *p = &st->plan;
    uint64_t coords[DMLCL_MAX_RANK];
    int64_t value = 0;
    bool is_signed = false;
    DMLCL_TRY(read_index(t, t->status_host, coords, &value, &is_signed));
    int k = p->components > 1 && p->comp_pos_stride > 0
                ? (int)((t->status_host / (uint64_t)p->comp_pos_stride) % (uint64_t)p->components)
                : 0;
    int64_t n = p->axis_size[k];
    char where[DMLCL_DIMS_BUF], val[32];
    dmlcl_format_dims(where, sizeof where, st->inputs[st->index_input].rank, coords);
    snprintf(val, sizeof val, is_signed ? "%lld" : "%llu", (long long)value);
    return dmlcl_fail(DMLCL_E_INDEX_OUT_OF_RANGE,
                      "%s: %s element %u (coordinates %s) is %s, outside [%lld, %lld] for an axis "
                      "of size %lld",
                      t->compiled->op->cls->name, st->input_names[st->index_input],
                      (unsigned)t->status_host, where, val,
                      (long long)(p->wrap_negative && is_signed ? -n : 0), (long long)(n - 1),
                      (long long)n);
}

/* ---- Synchronous execution on host memory ---------------------------------------------- */

typedef struct host_run {
    cl_mem mems[2 * DMLCL_MAX_SLOTS];
    DML_BUFFER_BINDING bufs[2 * DMLCL_MAX_SLOTS];
    DML_BINDING_DESC descs[2 * DMLCL_MAX_SLOTS];
} host_run;

static HRESULT stage(dmlcl_device *dev, const char *op, const char *name, const dmlcl_tensor *t,
                     const dmlcl_host_tensor *h, cl_mem *mem, DML_BUFFER_BINDING *buf,
                     DML_BINDING_DESC *desc)
{
    if (!t->present || !h->data) {
        DMLCL_INVALID_IF(t->present, "%s: execute: %s (NULL host data) is required", op, name);
        *desc = (DML_BINDING_DESC){DML_BINDING_TYPE_NONE, NULL};
        return S_OK;
    }
    DMLCL_INVALID_IF(h->size < t->total_bytes,
                     "%s: execute: %s host size (%llu) must be at least its "
                     "TotalTensorSizeInBytes (%llu)",
                     op, name, (unsigned long long)h->size, (unsigned long long)t->total_bytes);
    size_t bytes = t->total_bytes ? (size_t)t->total_bytes : 4;
    cl_int err;
    *mem = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return dmlcl_fail_cl(err, "clCreateBuffer (execute)");
    if (t->total_bytes) {
        err = clEnqueueWriteBuffer(dev->queue, *mem, CL_FALSE, 0, t->total_bytes, h->data, 0, NULL,
                                   NULL);
        if (err != CL_SUCCESS)
            return dmlcl_fail_cl(err, "clEnqueueWriteBuffer (execute)");
    }
    *buf = (DML_BUFFER_BINDING){(ID3D12Resource *)*mem, 0, bytes};
    *desc = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, buf};
    return S_OK;
}

static HRESULT run_host(dmlcl_compiled_operator *c, host_run *r, const dmlcl_host_tensor *inputs,
                        const dmlcl_host_tensor *outputs)
{
    dmlcl_operator *op = c->op;
    const dmlcl_op_state *st = &op->st;
    dmlcl_device *dev = op->device;
    uint32_t ni = st->n_inputs, no = st->n_outputs;
    for (uint32_t i = 0; i < ni; ++i)
        DMLCL_TRY(stage(dev, op->cls->name, st->input_names[i], &st->inputs[i], &inputs[i],
                        &r->mems[i], &r->bufs[i], &r->descs[i]));
    for (uint32_t o = 0; o < no; ++o)
        DMLCL_TRY(stage(dev, op->cls->name, st->output_names[o], &st->outputs[o], &outputs[o],
                        &r->mems[ni + o], &r->bufs[ni + o], &r->descs[ni + o]));
    dmlcl_binding_table *t;
    DMLCL_TRY(dmlcl_binding_table_create(c, &t));
    HRESULT hr = dmlcl_binding_table_bind_inputs(t, ni, r->descs);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(t, no, r->descs + ni);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(t, NULL, 0, NULL, NULL);
    cl_int err = clFinish(dev->queue);
    if (SUCCEEDED(hr) && err != CL_SUCCESS)
        hr = dmlcl_fail_cl(err, "clFinish (execute)");
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_status(t);
    dmlcl_binding_table_release(t);
    for (uint32_t o = 0; SUCCEEDED(hr) && o < no; ++o) {
        if (!r->mems[ni + o] || !st->outputs[o].total_bytes)
            continue;
        err = clEnqueueReadBuffer(dev->queue, r->mems[ni + o], CL_TRUE, 0,
                                  st->outputs[o].total_bytes, outputs[o].data, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            hr = dmlcl_fail_cl(err, "clEnqueueReadBuffer (execute)");
    }
    return hr;
}

HRESULT dmlcl_compiled_operator_execute(dmlcl_compiled_operator *c, UINT input_count,
                                        const dmlcl_host_tensor *inputs, UINT output_count,
                                        const dmlcl_host_tensor *outputs)
{
    DMLCL_NULL_IF(!c, "execute: the compiled operator (NULL) is required");
    const dmlcl_op_state *st = &c->op->st;
    DMLCL_INVALID_IF(input_count != st->n_inputs || output_count != st->n_outputs,
                     "%s: execute: counts (%u inputs, %u outputs) must be %u and %u",
                     c->op->cls->name, input_count, output_count, st->n_inputs, st->n_outputs);
    DMLCL_NULL_IF((input_count && !inputs) || (output_count && !outputs),
                  "%s: execute: inputs and outputs (NULL) are required", c->op->cls->name);
    host_run r;
    memset(&r, 0, sizeof r);
    HRESULT hr = run_host(c, &r, inputs, outputs);
    clFinish(c->op->device->queue);
    for (size_t i = 0; i < 2 * DMLCL_MAX_SLOTS; ++i)
        if (r.mems[i])
            clReleaseMemObject(r.mems[i]);
    return hr;
}

/* ---- Graphs (graph.c) ------------------------------------------------------------------ */

const dmlcl_op_state *dmlcl_operator_state(const dmlcl_operator *op)
{
    return &op->st;
}

const char *dmlcl_operator_name(const dmlcl_operator *op)
{
    return op->cls->name;
}
