/* SPDX-License-Identifier: MIT */
/*
 * Front-ends on DMLCL_OPERATOR_BROADCAST: OpenVINO Broadcast-1 (numpy,
 * explicit), Broadcast-3 (adds bidirectional) and ONNX Expand-13 (numpy's
 * bidirectional broadcast). Each applies its framework's rules to the shapes
 * and the shape inputs' values, infers the output shape and describes packed
 * tensors; 0-D tensors become {1}.
 *
 * Where the text leaves a detail open, OpenVINO's shape inference decides
 * (broadcast_shape_inference.hpp): a 0-D data in explicit mode takes an
 * axes_mapping of 0 or 1 entries, the one entry naming a target dimension of
 * 1. Two places differ on purpose: axes_mapping must be strictly increasing
 * (OpenVINO accepts repeats, then reads uninitialised memory), and a
 * bidirectional 1 against 0 gives 0 as in numpy and ONNX (OpenVINO's
 * evaluate gives 1).
 */
#include <string.h>

#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX

typedef struct shape_input {
    uint64_t count;
    int64_t v[MAX_RANK];
} shape_input;

/* A 1-D integer input of at most MAX_RANK values (a shape or a list of axes). */
static HRESULT read_input(const char *op, const char *name, const dmlcl_int_array *a,
                          const dmlcl_shape *dims, shape_input *out)
{
    DMLI_TRY(dmli_fe_check_list(op, name, a, dims));
    DMLI_UNSUPPORTED_IF(a->count > MAX_RANK,
                        "%s: input %s has %llu values; dmlcl tensors have at most %d dimensions",
                        op, name, (unsigned long long)a->count, MAX_RANK);
    out->count = a->count;
    for (uint64_t i = 0; i < a->count; ++i)
        out->v[i] = dmli_fe_int_at(a, i);
    return S_OK;
}

static HRESULT read_target(const char *op, const char *name, const dmlcl_int_array *a,
                           const dmlcl_shape *dims, shape_input *out)
{
    DMLI_TRY(read_input(op, name, a, dims, out));
    for (uint64_t i = 0; i < out->count; ++i)
        DMLI_INVALID_IF(out->v[i] < 0, "%s: %s[%llu] (%lld) must be a dimension size (>= 0)", op,
                        name, (unsigned long long)i, (long long)out->v[i]);
    return S_OK;
}

/* ---- Shape rules ---------------------------------------------------------------- */

static HRESULT rule_numpy(const char *op, const dmlcl_shape *data, const shape_input *t,
                          dmlcl_shape *out)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(t->count < data->rank,
                    "%s: target_shape has %llu value(s), fewer than the rank of data %s (%u): "
                    "numpy mode broadcasts data to target_shape, never the reverse",
                    op, (unsigned long long)t->count, dmli_fe_format_shape(buf, sizeof buf, data),
                    data->rank);
    uint32_t lead = (uint32_t)t->count - data->rank;
    for (uint32_t k = 0; k < data->rank; ++k) {
        int64_t d = data->dims[k], want = t->v[lead + k];
        DMLI_INVALID_IF(d != 1 && d != want,
                        "%s: data dimension %u (%lld) cannot be broadcast (numpy mode) to "
                        "target_shape[%u] (%lld): it must be %s%lld",
                        op, k, (long long)d, lead + k, (long long)want, want == 1 ? "" : "1 or ",
                        (long long)want);
    }
    out->rank = (uint32_t)t->count;
    memcpy(out->dims, t->v, t->count * sizeof *t->v);
    return S_OK;
}

/* numpy's broadcast of two shapes: right-aligned; equal, or one of them 1 (1 with 0 gives 0). */
static HRESULT rule_bidirectional(const char *op, const char *data_name, const char *target_name,
                                  const dmlcl_shape *data, const shape_input *t, dmlcl_shape *out)
{
    uint32_t rank = data->rank > t->count ? data->rank : (uint32_t)t->count;
    for (uint32_t o = 0; o < rank; ++o) {
        int64_t d = o + data->rank >= rank ? data->dims[o + data->rank - rank] : 1;
        int64_t w = o + t->count >= rank ? t->v[o + t->count - rank] : 1;
        DMLI_INVALID_IF(d != w && d != 1 && w != 1,
                        "%s: %s dimension %u (%lld) and %s[%llu] (%lld) cannot be broadcast "
                        "together (bidirectional): they must be equal or one of them 1",
                        op, data_name, o + data->rank - rank, (long long)d, target_name,
                        (unsigned long long)(o + t->count - rank), (long long)w);
        out->dims[o] = d == 1 ? w : d;
    }
    out->rank = rank;
    return S_OK;
}

/*
 * axes[k]: the output axis data axis k lands on. A 0-D data takes 0 or 1
 * entries (OpenVINO: the entry's target dimension must be 1).
 */
static HRESULT rule_explicit(const char *op, const dmlcl_shape *data, const shape_input *t,
                             const shape_input *axes, dmlcl_shape *out)
{
    uint64_t want = data->rank == 0 && axes->count > 0 ? 1 : data->rank;
    DMLI_INVALID_IF(axes->count != want,
                    "%s: axes_mapping has %llu value(s); it must have one per data dimension (%u)",
                    op, (unsigned long long)axes->count, data->rank);
    for (uint64_t k = 0; k < axes->count; ++k) {
        int64_t a = axes->v[k];
        DMLI_INVALID_IF(a < 0 || (uint64_t)a >= t->count,
                        "%s: axes_mapping[%llu] (%lld) must be an axis of the output, in [0, %llu)",
                        op, (unsigned long long)k, (long long)a, (unsigned long long)t->count);
        DMLI_INVALID_IF(k > 0 && a <= axes->v[k - 1],
                        "%s: axes_mapping[%llu] (%lld) must be greater than axes_mapping[%llu] "
                        "(%lld): axes_mapping is sorted, strictly increasing (no transposition)",
                        op, (unsigned long long)k, (long long)a, (unsigned long long)(k - 1),
                        (long long)axes->v[k - 1]);
    }
    for (uint64_t k = 0; k < axes->count; ++k) {
        int64_t a = axes->v[k], d = data->rank ? data->dims[k] : 1, w = t->v[a];
        DMLI_INVALID_IF(data->rank == 0 && w != 1,
                        "%s: target_shape[%lld] (%lld) must be 1: axes_mapping[0] maps the 0-D "
                        "data there",
                        op, (long long)a, (long long)w);
        DMLI_INVALID_IF(d != 1 && d != w,
                        "%s: data dimension %llu (%lld) cannot be broadcast to target_shape[%lld] "
                        "(%lld) = target_shape[axes_mapping[%llu]]: it must be 1 or %lld",
                        op, (unsigned long long)k, (long long)d, (long long)a, (long long)w,
                        (unsigned long long)k, (long long)w);
    }
    out->rank = (uint32_t)t->count;
    memcpy(out->dims, t->v, t->count * sizeof *t->v);
    return S_OK;
}

/* ---- The operator description --------------------------------------------------- */

static HRESULT fill(const char *op, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *data,
                    const dmlcl_shape *out, DMLCL_BROADCAST_MODE mode, const shape_input *axes,
                    dmlcl_frontend_result *r)
{
    DMLI_TRY(dmli_fe_output(op, r, 1, type, out->dims, out->rank));
    DMLCL_BROADCAST_OPERATOR_DESC *b = &r->op.broadcast;
    b->InputTensor = dmli_fe_tensor(r, 0, type, data);
    b->OutputTensor = &r->tensors[1];
    b->Mode = mode;
    if (mode == DMLCL_BROADCAST_MODE_EXPLICIT) {
        /* A 0-D data is {1}: it lands on its one axis, or on axis 0. */
        b->AxesMappingCount = data->rank ? data->rank : 1;
        for (uint32_t k = 0; k < b->AxesMappingCount; ++k)
            r->axes[k] = axes->count ? (UINT)axes->v[k] : 0;
        b->AxesMapping = r->axes;
    }
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_BROADCAST, b};
    return S_OK;
}

/* ---- OpenVINO Broadcast-1 and -3 ------------------------------------------------ */

static HRESULT parse_mode(const char *op, int version, const char *mode, DMLCL_BROADCAST_MODE *out)
{
    if (!mode || !strcmp(mode, "numpy"))
        *out = DMLCL_BROADCAST_MODE_NUMPY;
    else if (!strcmp(mode, "explicit"))
        *out = DMLCL_BROADCAST_MODE_EXPLICIT;
    else if (!strcmp(mode, "bidirectional") && version >= 3)
        *out = DMLCL_BROADCAST_MODE_BIDIRECTIONAL;
    else if (!strcmp(mode, "bidirectional"))
        return dmli_fail(E_INVALIDARG,
                         "%s: attribute mode (\"bidirectional\") must be \"numpy\" or "
                         "\"explicit\"; bidirectional is Broadcast-3's",
                         op);
    else
        return dmli_fail(E_INVALIDARG, "%s: attribute mode (\"%s\") must be \"numpy\"%s", op, mode,
                         version >= 3 ? ", \"explicit\" or \"bidirectional\"" : " or \"explicit\"");
    return S_OK;
}

static const dmli_fe_versions ov_broadcast = {"OpenVINO", "Broadcast", 2, {1, 3}, 1};

HRESULT dmlcl_openvino_broadcast(int opset, const dmlcl_openvino_broadcast_args *a,
                                 dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&ov_broadcast, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, a, r));
    DMLI_TRY(dmli_fe_check_type(op, "data", a->data_type));
    DMLI_TRY(dmli_fe_check_shape(op, "input data", a->data));
    DMLCL_BROADCAST_MODE mode = DMLCL_BROADCAST_MODE_NUMPY;
    DMLI_TRY(parse_mode(op, version, a->mode, &mode));
    shape_input target, axes = {0};
    DMLI_TRY(read_target(op, "target_shape", a->target_shape, a->target_shape_dims, &target));
    bool expl = mode == DMLCL_BROADCAST_MODE_EXPLICIT;
    DMLI_INVALID_IF(!expl && a->axes_mapping,
                    "%s: input axes_mapping is given, but mode is \"%s\": only explicit mode "
                    "takes a third input",
                    op, a->mode ? a->mode : "numpy");
    DMLI_INVALID_IF(expl && !a->axes_mapping,
                    "%s: mode \"explicit\" needs input axes_mapping (absent)", op);
    if (expl)
        DMLI_TRY(read_input(op, "axes_mapping", a->axes_mapping, a->axes_mapping_dims, &axes));
    dmlcl_shape out;
    if (mode == DMLCL_BROADCAST_MODE_NUMPY)
        DMLI_TRY(rule_numpy(op, a->data, &target, &out));
    else if (expl)
        DMLI_TRY(rule_explicit(op, a->data, &target, &axes, &out));
    else
        DMLI_TRY(rule_bidirectional(op, "data", "target_shape", a->data, &target, &out));
    return fill(op, a->data_type, a->data, &out, mode, &axes, r);
}

/* ---- ONNX Expand-13 --------------------------------------------------------------- */

static const dmli_fe_versions onnx_expand = {"ONNX", "Expand", 2, {8, 13}, 13};

HRESULT dmlcl_onnx_expand(int opset, const dmlcl_onnx_expand_args *a, dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&onnx_expand, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, a, r));
    DMLI_TRY(dmli_fe_check_type(op, "input", a->input_type));
    DMLI_TRY(dmli_fe_check_shape(op, "input input", a->input));
    const dmlcl_int_array *shape = a->shape;
    DMLI_INVALID_IF(shape && shape->type != DML_TENSOR_DATA_TYPE_INT64,
                    "%s: input shape has type %s; it must be INT64 (tensor(int64))", op,
                    dmli_type_name(shape->type));
    shape_input target, none = {0};
    DMLI_TRY(read_target(op, "shape", shape, a->shape_dims, &target));
    dmlcl_shape out;
    DMLI_TRY(rule_bidirectional(op, "input", "shape", a->input, &target, &out));
    return fill(op, a->input_type, a->input, &out, DMLCL_BROADCAST_MODE_BIDIRECTIONAL, &none, r);
}
