/* SPDX-License-Identifier: MIT */
/*
 * fuzz_frontends: bytes -> one call of a framework front-end (OpenVINO
 * Broadcast, StridedSlice, Gather, DepthToSpace, SpaceToDepth, Concat, Split,
 * VariadicSplit, Tile, Transpose, Reverse, Pad, Roll; ONNX Expand, Slice,
 * Gather, GatherElements, GatherND, DepthToSpace, SpaceToDepth, Concat,
 * Split, Tile, Transpose, Pad) at a decoded opset,
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
    _Alignas(8) unsigned char value[16]; /* a pad value: one element of any type */
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
    if (t == DMLCL_TENSOR_DATA_TYPE_BOOLEAN)
        return 1;
    for (int i = 0; i < 8; ++i)
        if (int_types[i] == t)
            return (size_t)1 << (i % 4);
    return 8;
}

/* An integer input's type and count (of any integer type, or another type), or NULL. */
static dmlcl_int_array *array_head(fe_state *s)
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
    return a;
}

/* a's values, stored at the width of its type. */
static void array_values(fe_state *s, dmlcl_int_array *a)
{
    unsigned char *p = (unsigned char *)s->values[a - s->arrays];
    size_t width = int_width(a->type);
    for (uint64_t i = 0; i < a->count; ++i) {
        int64_t v = fuzz_i64(&s->in);
        memcpy(p + i * width, &v, width); /* little-endian: the low bytes */
    }
    a->data = fuzz_u8(&s->in) == 0xFF ? NULL : p;
}

/* An integer input of any integer type (or another type), its values stored at that width. */
static const dmlcl_int_array *array(fe_state *s)
{
    dmlcl_int_array *a = array_head(s);
    if (a)
        array_values(s, a);
    return a;
}

/*
 * An integer input that mostly has the count a front-end asks for (and its
 * type, unless type is 0), so that the checks past the counts get reached.
 */
static dmlcl_int_array *fitted_array(fe_state *s, DML_TENSOR_DATA_TYPE type, uint64_t count)
{
    dmlcl_int_array *a = array_head(s);
    if (!a)
        return NULL;
    if (fuzz_u8(&s->in) % 4 != 0) {
        a->type = type ? type : a->type;
        a->count = count < MAX_ARRAY ? count : MAX_ARRAY;
    }
    array_values(s, a);
    return a;
}

/* Often a's values made a permutation of [0, count) (transposes refuse most other lists). */
static void permutation(fe_state *s, dmlcl_int_array *a)
{
    if (!a || !(fuzz_u8(&s->in) & 1))
        return;
    int64_t perm[MAX_ARRAY];
    for (uint64_t i = 0; i < a->count; ++i)
        perm[i] = (int64_t)i;
    for (uint64_t i = a->count; i > 1; --i) {
        uint64_t j = fuzz_u8(&s->in) % i;
        int64_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    unsigned char *p = (unsigned char *)s->values[a - s->arrays];
    size_t width = int_width(a->type);
    for (uint64_t i = 0; i < a->count; ++i)
        memcpy(p + i * width, &perm[i], width);
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

/* Mostly newest, then the 15 opsets below it. */
static int opset_to(fe_state *s, int newest)
{
    return newest - (int)(fuzz_u32(&s->in) % 16);
}

/* Mostly 13, 12, 11 ... (most operators' current versions); down to -2. */
static int opset(fe_state *s)
{
    return opset_to(s, 13);
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

/* Mostly a type data_type gives; sometimes one of dmlcl's own (BOOLEAN ... STRING). */
static DML_TENSOR_DATA_TYPE any_type(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    if (b < 0xE0)
        return data_type(s);
    return (DML_TENSOR_DATA_TYPE)((unsigned)DMLCL_TENSOR_DATA_TYPE_BOOLEAN + b % 6); /* to 0x105 */
}

static uint64_t rank_of(const dmlcl_shape *sh)
{
    return sh ? sh->rank : 0;
}

/* INT64 or INT32 mostly (the index types), any integer type sometimes. */
static DML_TENSOR_DATA_TYPE list_type(fe_state *s)
{
    uint8_t b = fuzz_u8(&s->in);
    return b % 4 == 0   ? int_types[b / 4 % 8]
           : b % 4 == 1 ? DML_TENSOR_DATA_TYPE_INT32
                        : DML_TENSOR_DATA_TYPE_INT64;
}

/* OpenVINO Tile (which 0), ONNX Tile (1), OpenVINO Transpose (2), ONNX Transpose (3),
 * OpenVINO Reverse (4). */
static HRESULT views(fe_state *s, int which, const DML_OPERATOR_DESC **desc)
{
    static const char *const modes[] = {"index", "mask", NULL, "Index", "", "indices"};
    int set = which == 3 ? opset_to(s, 22) : opset(s);
    const dmlcl_shape *data = shape(s);
    DML_TENSOR_DATA_TYPE type = any_type(s);
    uint64_t rank = rank_of(data);
    *desc = &s->r.desc;
    if (which < 2) {
        /* Repeats mostly one per dimension (ONNX's rule), sometimes fewer or more. */
        uint64_t n = fuzz_u8(&s->in) % 4 ? rank : fuzz_u8(&s->in) % 20;
        const dmlcl_int_array *repeats =
            fitted_array(s, which ? DML_TENSOR_DATA_TYPE_INT64 : (DML_TENSOR_DATA_TYPE)0, n);
        const dmlcl_shape *dims = list_shape(s);
        dmlcl_openvino_tile_args ov = {data, type, repeats, dims};
        dmlcl_onnx_tile_args onnx = {data, type, repeats, dims};
        return which ? dmlcl_onnx_tile(set, &onnx, &s->r) : dmlcl_openvino_tile(set, &ov, &s->r);
    }
    if (which < 4) {
        dmlcl_int_array *order = fitted_array(
            s, which == 3 ? DML_TENSOR_DATA_TYPE_INT64 : (DML_TENSOR_DATA_TYPE)0, rank);
        permutation(s, order);
        if (which == 3) {
            dmlcl_onnx_transpose_args a = {data, type, NULL, 0};
            if (order && order->type == DML_TENSOR_DATA_TYPE_INT64) {
                a.perm = order->data;
                a.perm_count = (uint32_t)order->count;
            }
            return dmlcl_onnx_transpose(set, &a, &s->r);
        }
        dmlcl_openvino_transpose_args a = {data, type, order, NULL};
        a.input_order_dims = list_shape(s);
        return dmlcl_openvino_transpose(set, &a, &s->r);
    }
    dmlcl_openvino_reverse_args a = {data, type, NULL, NULL, modes[fuzz_u8(&s->in) % 6]};
    bool mask = a.mode && !strcmp(a.mode, "mask");
    /* index: up to rank axes; mask: one BOOLEAN per dimension. */
    uint64_t n = mask ? rank : fuzz_u8(&s->in) % (rank + 2);
    a.axis = fitted_array(s, mask ? DMLCL_TENSOR_DATA_TYPE_BOOLEAN : (DML_TENSOR_DATA_TYPE)0, n);
    a.axis_dims = list_shape(s);
    return dmlcl_openvino_reverse(set, &a, &s->r);
}

/* A pad value: absent, or 16 bytes (room for any element) of mostly data's type and 0-D. */
static const void *pad_value(fe_state *s, DML_TENSOR_DATA_TYPE data_type,
                             DML_TENSOR_DATA_TYPE *type, const dmlcl_shape **dims)
{
    *type = data_type;
    *dims = NULL;
    if (!(fuzz_u8(&s->in) & 1))
        return NULL;
    if (fuzz_u8(&s->in) % 8 == 0)
        *type = any_type(s);
    *dims = list_shape(s);
    for (int i = 0; i < 2; ++i) {
        uint64_t v = fuzz_u64(&s->in);
        memcpy(s->value + 8 * i, &v, sizeof v);
    }
    return s->value;
}

/* OpenVINO Pad (which 0), ONNX Pad (1), OpenVINO Roll (2). */
static HRESULT pads(fe_state *s, int which, const DML_OPERATOR_DESC **desc)
{
    static const char *const modes[] = {NULL,   "constant",  "edge",     "reflect",
                                        "wrap", "symmetric", "Constant", ""};
    int set = opset_to(s, which == 1 ? 24 : 13);
    const dmlcl_shape *data = shape(s);
    DML_TENSOR_DATA_TYPE type = any_type(s);
    uint64_t rank = rank_of(data);
    *desc = &s->r.desc;
    if (which == 2) {
        dmlcl_openvino_roll_args a = {data, type, NULL, NULL, NULL, NULL};
        uint64_t n = fuzz_u8(&s->in) % (rank + 2);
        a.axes = fitted_array(s, list_type(s), n);
        a.axes_dims = list_shape(s);
        a.shift = fitted_array(s, list_type(s), fuzz_u8(&s->in) & 1 ? 1 : n);
        a.shift_dims = list_shape(s);
        return dmlcl_openvino_roll(set, &a, &s->r);
    }
    const char *mode = modes[fuzz_u8(&s->in) % 8];
    if (which == 0) {
        dmlcl_openvino_pad_args a = {.data = data, .data_type = type, .pad_mode = mode};
        a.pads_begin = fitted_array(s, 0, rank);
        a.pads_begin_dims = list_shape(s);
        a.pads_end = fitted_array(s, 0, rank);
        a.pads_end_dims = list_shape(s);
        a.pad_value = pad_value(s, type, &a.pad_value_type, &a.pad_value_dims);
        return dmlcl_openvino_pad(set, &a, &s->r);
    }
    dmlcl_onnx_pad_args a = {.data = data, .data_type = type, .mode = mode};
    /* axes (optional) name up to rank dimensions; pads has two values per named one. */
    if (fuzz_u8(&s->in) & 1) {
        a.axes = fitted_array(s, list_type(s), fuzz_u8(&s->in) % (rank + 2));
        a.axes_dims = list_shape(s);
    }
    uint64_t named = a.axes ? a.axes->count : rank;
    a.pads = fitted_array(s, DML_TENSOR_DATA_TYPE_INT64, 2 * named);
    a.pads_dims = list_shape(s);
    a.constant_value = pad_value(s, type, &a.constant_value_type, &a.constant_value_dims);
    return dmlcl_onnx_pad(set, &a, &s->r);
}

/*
 * The first byte picks the front-end. Those added later sit at 0xF0 and up, so
 * inputs below keep their meaning: depth/space 0xF0-0xF3, Concat 0xF4-0xF5
 * (OpenVINO, ONNX), the splits 0xF6-0xF8, the views 0xF9-0xFD (Tile OpenVINO,
 * ONNX; Transpose OpenVINO, ONNX; Reverse), OpenVINO Pad 0xFE; 0xFF and a
 * second byte pick among the rest (ONNX Pad, OpenVINO Roll), where later ones go.
 */
static HRESULT call(fe_state *s, const DML_OPERATOR_DESC **desc)
{
    uint8_t which = fuzz_u8(&s->in);
    if (which >= 0xF0) {
        unsigned k = which - 0xF0u;
        if (which == 0xFF)
            k += fuzz_u8(&s->in) % 2;
        if (k < 4)
            return depth_space(s, (int)k, desc);
        if (k < 6)
            return concat(s, (int)k - 4, desc);
        if (k < 9)
            return splits(s, (int)k - 6, desc);
        if (k < 14)
            return views(s, (int)k - 9, desc);
        return pads(s, (int)k - 14, desc);
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
    int rc = 0;
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
