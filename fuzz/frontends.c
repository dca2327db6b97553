/* SPDX-License-Identifier: MIT */
/*
 * fuzz_frontends: bytes -> one call of a framework front-end (OpenVINO
 * Broadcast, StridedSlice, Gather, Concat, Split, VariadicSplit; ONNX Expand,
 * Slice, Gather, GatherElements, GatherND, Concat, Split) at a decoded opset,
 * with decoded shapes, integer inputs and attributes. Whatever the input, the call returns; when it
 * accepts, the descriptor it produced creates its operator (NULL device) and that plan stays inside
 * its tensors. The table below is the one place that names the front-end functions.
 */
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "dmlcl/frontends.h"
#include "drivers.h"

#define MAX_ARRAY 40
#define N_ARRAYS 8
#define N_SHAPES 8

typedef struct fe_state {
    fuzz_in in;
    dmlcl_shape shapes[N_SHAPES];
    int n_shapes;
    dmlcl_int_array arrays[N_ARRAYS];
    int64_t values[N_ARRAYS][MAX_ARRAY];
    int n_arrays;
    dmlcl_shape inputs[N_SHAPES]; /* Concat's inputs, contiguous */
    DML_TENSOR_DATA_TYPE inputs_type[N_SHAPES];
    dmlcl_frontend_result r;
} fe_state;

static const DML_TENSOR_DATA_TYPE int_types[] = {
    DML_TENSOR_DATA_TYPE_INT8,   DML_TENSOR_DATA_TYPE_INT16,  DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT64,  DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT64,
};

/* Mostly a known type; sometimes any value. */
static DML_TENSOR_DATA_TYPE data_type(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    if (b < 0xC0)
        return (DML_TENSOR_DATA_TYPE)(1 + b % 17); /* FLOAT32 .. INT4 */
    return (DML_TENSOR_DATA_TYPE)fuzz_u32(&s->in);
}

static const dmlcl_shape *shape(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    if (b == 0xFF || s->n_shapes == N_SHAPES)
        return NULL;
    dmlcl_shape *sh = &s->shapes[s->n_shapes++];
    sh->rank = fuzz_u32(&s->in) % (DMLCL_TENSOR_DIMENSION_COUNT_MAX + 2);
    memset(sh->dims, 0, sizeof sh->dims);
    for (uint32_t i = 0; i < sh->rank && i < DMLCL_TENSOR_DIMENSION_COUNT_MAX; ++i)
        sh->dims[i] = fuzz_i64(&s->in);
    return sh;
}

/* Often base's shape with one dimension changed (gathers relate their shapes). */
static const dmlcl_shape *shape_like(fe_state *s, const dmlcl_shape *base)
{
    if (!base || !(fuzz_u8(&s->in) & 1) || s->n_shapes == N_SHAPES)
        return shape(s);
    dmlcl_shape *sh = &s->shapes[s->n_shapes++];
    *sh = *base;
    uint32_t at = fuzz_u32(&s->in);
    if (sh->rank && sh->rank <= DMLCL_TENSOR_DIMENSION_COUNT_MAX)
        sh->dims[at % sh->rank] = fuzz_i64(&s->in);
    return sh;
}

/* Mostly the index types ONNX and OpenVINO name. */
static DML_TENSOR_DATA_TYPE index_type(fe_state *s)
{
    switch (fuzz_u32(&s->in) % 4) {
    case 0: return DML_TENSOR_DATA_TYPE_INT64;
    case 1: return DML_TENSOR_DATA_TYPE_INT32;
    case 2: return int_types[fuzz_u8(&s->in) % 8];
    default: return data_type(s);
    }
}

/* The shape of the tensor holding a list: mostly absent (1-D, as the list says). */
static const dmlcl_shape *list_shape(fe_state *s)
{
    return fuzz_u8(&s->in) & 1 ? shape(s) : NULL;
}

static size_t int_width(DML_TENSOR_DATA_TYPE t)
{
    for (int i = 0; i < 8; ++i)
        if (int_types[i] == t)
            return (size_t)1 << (i % 4);
    return 8;
}

/* An integer input of any integer type (or another type), its values stored at that width. */
static const dmlcl_int_array *array(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    if (b == 0xFF || s->n_arrays == N_ARRAYS)
        return NULL;
    int k = s->n_arrays++;
    dmlcl_int_array *a = &s->arrays[k];
    a->type = b < 0xF8 ? int_types[b % 8] : (DML_TENSOR_DATA_TYPE)(b - 0xF8);
    a->count = fuzz_u32(&s->in) % (MAX_ARRAY + 1);
    /* Lists that go together (begin, end, stride) often share a type and a length. */
    if (k > 0 && fuzz_u8(&s->in) % 4 != 0) {
        a->type = s->arrays[k - 1].type;
        a->count = s->arrays[k - 1].count;
    }
    unsigned char *p = (unsigned char *)s->values[k];
    size_t width = int_width(a->type);
    for (uint64_t i = 0; i < a->count; ++i) {
        int64_t v = fuzz_i64(&s->in);
        memcpy(p + i * width, &v, width); /* little-endian: the low bytes */
    }
    a->data = fuzz_u8(&s->in) == 0xFF ? NULL : p;
    return a;
}

/* An optional input or attribute: often absent. */
static const dmlcl_int_array *optional_array(fe_state *s)
{
    return fuzz_u8(&s->in) & 1 ? array(s) : NULL;
}

static const char *mode(fe_state *s)
{
    static const char *const modes[] = {NULL, "numpy", "explicit", "bidirectional", "pdpd"};
    return modes[fuzz_u32(&s->in) % 5];
}

/* Mostly 13, 12, 11 ... (every operator's current versions); down to -2. */
static int opset(fe_state *s)
{
    return 13 - (int)(fuzz_u32(&s->in) % 16);
}

static HRESULT broadcast(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    dmlcl_openvino_broadcast_args a;
    int set = opset(s);
    a.data_type = data_type(s);
    a.data = shape(s);
    a.mode = mode(s);
    a.target_shape = array(s);
    a.target_shape_dims = list_shape(s);
    a.axes_mapping = optional_array(s);
    a.axes_mapping_dims = list_shape(s);
    *desc = &s->r.desc;
    return dmlcl_openvino_broadcast(set, &a, &s->r);
}

static HRESULT expand(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    dmlcl_onnx_expand_args a;
    int set = opset(s);
    a.input_type = data_type(s);
    a.input = shape(s);
    a.shape = array(s);
    a.shape_dims = list_shape(s);
    *desc = &s->r.desc;
    return dmlcl_onnx_expand(set, &a, &s->r);
}

static HRESULT strided_slice(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    dmlcl_openvino_strided_slice_args a;
    int set = opset(s);
    a.data_type = data_type(s);
    a.data = shape(s);
    a.begin = array(s);
    a.end = array(s);
    a.stride = optional_array(s);
    a.begin_dims = list_shape(s);
    a.end_dims = list_shape(s);
    a.stride_dims = list_shape(s);
    a.begin_mask = optional_array(s);
    a.end_mask = optional_array(s);
    a.new_axis_mask = optional_array(s);
    a.shrink_axis_mask = optional_array(s);
    a.ellipsis_mask = optional_array(s);
    *desc = &s->r.desc;
    return dmlcl_openvino_strided_slice(set, &a, &s->r);
}

static HRESULT onnx_slice(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    dmlcl_onnx_slice_args a;
    int set = opset(s);
    a.data_type = data_type(s);
    a.data = shape(s);
    a.starts = array(s);
    a.ends = array(s);
    a.axes = optional_array(s);
    a.steps = optional_array(s);
    a.starts_dims = list_shape(s);
    a.ends_dims = list_shape(s);
    a.axes_dims = list_shape(s);
    a.steps_dims = list_shape(s);
    *desc = &s->r.desc;
    return dmlcl_onnx_slice(set, &a, &s->r);
}

static HRESULT gather8(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    dmlcl_openvino_gather_args a;
    int set = opset(s);
    a.data = shape(s);
    a.indices = shape_like(s, a.data);
    a.axis_dims = list_shape(s);
    a.data_type = data_type(s);
    a.indices_type = index_type(s);
    a.axis = array(s);
    a.batch_dims = fuzz_i64(&s->in);
    *desc = &s->r.desc;
    return dmlcl_openvino_gather(set, &a, &s->r);
}

/* ONNX Gather (which 0), GatherElements (1), GatherND (2). */
static HRESULT onnx_gathers(fe_state *s, int which, const DML_OPERATOR_DESC **desc)
{
    int set = opset(s);
    const dmlcl_shape *data = shape(s), *indices = shape_like(s, data);
    DML_TENSOR_DATA_TYPE dt = data_type(s), it = index_type(s);
    int64_t v = fuzz_i64(&s->in);
    *desc = &s->r.desc;
    if (which == 2) {
        dmlcl_onnx_gather_nd_args a = {data, dt, indices, it, v};
        return dmlcl_onnx_gather_nd(set, &a, &s->r);
    }
    dmlcl_onnx_gather_args a = {data, dt, indices, it, v};
    return which == 0 ? dmlcl_onnx_gather(set, &a, &s->r)
                      : dmlcl_onnx_gather_elements(set, &a, &s->r);
}

/* OpenVINO DepthToSpace (which 0), SpaceToDepth (1); ONNX DepthToSpace (2), SpaceToDepth (3). */
static HRESULT depth_space(fe_state *s, int which, const DML_OPERATOR_DESC **desc)
{
    static const char *const modes[] = {NULL, "blocks_first", "depth_first", "DCR", "CRD", "x"};
    int set = opset(s);
    const dmlcl_shape *data = shape(s);
    DML_TENSOR_DATA_TYPE t = data_type(s);
    const char *mode = modes[fuzz_u32(&s->in) % 6];
    /* Mostly small block sizes (the ones that divide), sometimes anything. */
    int64_t block = fuzz_u8(&s->in) & 1 ? fuzz_i64(&s->in) : (int64_t)(fuzz_u8(&s->in) % 5);
    *desc = &s->r.desc;
    dmlcl_openvino_depth_space_args ov = {data, t, mode, block};
    dmlcl_onnx_depth_to_space_args d2s = {data, t, block, mode};
    dmlcl_onnx_space_to_depth_args s2d = {data, t, block};
    switch (which) {
    case 0: return dmlcl_openvino_depth_to_space(set, &ov, &s->r);
    case 1: return dmlcl_openvino_space_to_depth(set, &ov, &s->r);
    case 2: return dmlcl_onnx_depth_to_space(set, &d2s, &s->r);
    default: return dmlcl_onnx_space_to_depth(set, &s2d, &s->r);
    }
}

/* A small axis mostly (in and around the ranks), any value sometimes. */
static int64_t axis_value(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    return b < 0xF0 ? (int64_t)(int8_t)b % 20 : fuzz_i64(&s->in);
}

/* OpenVINO (onnx 0) or ONNX Concat: up to N_SHAPES inputs, often base's shape off the axis. */
static HRESULT concat(fe_state *s, int onnx, const DML_OPERATOR_DESC **desc)
{
    int set = onnx ? 11 + (int)(fuzz_u32(&s->in) % 8) : opset(s);
    uint32_t n = fuzz_u8(&s->in) % (N_SHAPES + 1);
    const dmlcl_shape *base = shape(s);
    DML_TENSOR_DATA_TYPE type = data_type(s);
    for (uint32_t i = 0; i < n; ++i) {
        const dmlcl_shape *sh = shape_like(s, base);
        s->inputs[i] = sh ? *sh : (dmlcl_shape){0};
        s->inputs_type[i] = fuzz_u8(&s->in) % 8 ? type : data_type(s);
    }
    dmlcl_concat_args a = {s->inputs, s->inputs_type, n, axis_value(s)};
    *desc = &s->r.desc;
    return onnx ? dmlcl_onnx_concat(set, &a, &s->r) : dmlcl_openvino_concat(set, &a, &s->r);
}

/* OpenVINO Split (which 0), VariadicSplit (1), ONNX Split (2). One decode per statement:
 * the order of calls in an initialiser is unspecified. */
static HRESULT splits(fe_state *s, int which, const DML_OPERATOR_DESC **desc)
{
    const dmlcl_shape *data = shape(s);
    DML_TENSOR_DATA_TYPE type = data_type(s);
    *desc = &s->r.desc;
    if (which == 2) {
        int set = 18 - (int)(fuzz_u32(&s->in) % 8);
        dmlcl_onnx_split_args a = {.input = data, .input_type = type};
        a.split = optional_array(s);
        a.split_dims = list_shape(s);
        a.axis = axis_value(s);
        a.num_outputs = (int64_t)(int8_t)fuzz_u8(&s->in) % 70;
        a.output_count = fuzz_u8(&s->in) % 70u;
        return dmlcl_onnx_split(set, &a, &s->r);
    }
    int set = opset(s);
    const dmlcl_int_array *axis = array(s);
    const dmlcl_shape *axis_dims = list_shape(s);
    if (which == 0) {
        dmlcl_openvino_split_args a = {data, type, axis, axis_dims, 0};
        a.num_splits = (int64_t)(int8_t)fuzz_u8(&s->in) % 70;
        return dmlcl_openvino_split(set, &a, &s->r);
    }
    dmlcl_openvino_variadic_split_args a = {data, type, axis, axis_dims, NULL, NULL};
    a.split_lengths = array(s);
    a.split_lengths_dims = list_shape(s);
    return dmlcl_openvino_variadic_split(set, &a, &s->r);
}

/*
 * The first byte picks the front-end. Those added later sit at 0xF0 and up, so
 * inputs below keep their meaning: depth/space 0xF0-0xF3, Concat 0xF4-0xF5
 * (OpenVINO, ONNX), the splits 0xF6-0xF8, then around again.
 */
static HRESULT call(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    uint8_t which = fuzz_u8(&s->in);
    if (which >= 0xF0) {
        unsigned k = (which - 0xF0u) % 9;
        if (k < 4)
            return depth_space(s, (int)k, desc);
        if (k < 6)
            return concat(s, (int)k - 4, desc);
        return splits(s, (int)k - 6, desc);
    }
    switch (which % 8) {
    case 0: return broadcast(s, desc);
    case 1: return expand(s, desc);
    case 2: return strided_slice(s, desc);
    case 3: return onnx_slice(s, desc);
    case 4: return gather8(s, desc);
    case 5: return onnx_gathers(s, 0, desc);
    case 6: return onnx_gathers(s, 1, desc);
    default: return onnx_gathers(s, 2, desc);
    }
}

int fuzz_frontends(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    static _Thread_local fe_state s;
    memset(&s, 0, sizeof s);
    s.in = (fuzz_in){data, size};
    const DML_OPERATOR_DESC *desc = NULL;
    HRESULT hr = call(&s, &desc);
    if (FAILED(hr)) {
        if (s.r.heap) {
            snprintf(why, FUZZ_WHY, "a front-end failed with %s and kept heap storage",
                     dmlcl_hresult_name(hr));
            return 1;
        }
        if (dmlcl_last_error()[0])
            return 0;
        snprintf(why, FUZZ_WHY, "a front-end failed with %s and no message",
                 dmlcl_hresult_name(hr));
        return 1;
    }
    dmlcl_operator *op = NULL;
    hr = dmlcl_operator_create(NULL, desc, &op);
    dmlcl_operator_release(op);
    int rc;
    if (FAILED(hr)) {
        snprintf(why, FUZZ_WHY, "a front-end accepted what dmlcl_operator_create refuses: %s: %s",
                 dmlcl_hresult_name(hr), dmlcl_last_error());
        rc = 1;
    } else {
        if (accepted)
            ++*accepted;
        rc = fuzz_check_plan(desc, why);
    }
    /* Concat and Split results may hold heap storage. */
    dmlcl_frontend_result_clear(&s.r);
    return rc;
}
