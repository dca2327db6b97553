/* SPDX-License-Identifier: MIT */
/*
 * Front-ends on DMLCL_OPERATOR_PAD and DMLCL_OPERATOR_ROLL: OpenVINO Pad-1,
 * Pad-12 and Roll-7, ONNX Pad-18 and Pad-19. Each checks its framework's
 * rules with the framework's names, computes the output shape, and
 * describes packed tensors (0-D as {1}); the pad value is copied into the
 * result.
 *
 * OpenVINO's texts limit reflect pads to data.shape[D] - 1 and symmetric
 * ones to data.shape[D]; dmlcl checks them (they hold for any pad, so a
 * reflect pad of 0 on an empty dimension is refused, as OpenVINO does).
 * ONNX sets no limit: its reference, numpy.pad, mirrors and wraps past the
 * input periodically, as DMLCL_OPERATOR_PAD does. ONNX's negative pads
 * "remove" elements; onnx.reference (numpy.pad) refuses them, and ONNX
 * Runtime crops first and pads what is left (so a wrap after a crop repeats
 * the cropped input): dmlcl does as ONNX Runtime (DMLCL_PAD_FLAG_CROP_FIRST),
 * and refuses crops that remove more than a dimension. Where nothing is to be
 * copied (an empty dimension padded in a mode other than constant),
 * numpy.pad refuses, and so does dmlcl.
 */
#include <stdio.h>
#include <string.h>

#include "frontends/common.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX

/* data: a shape dmlcl describes, of a type it moves. */
static HRESULT check_data(const char *op, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *s)
{
    DMLI_TRY(dmli_fe_check_shape(op, "input data", s));
    return dmli_fe_check_type(op, "data", type);
}

/* mode by name: DML_PADDING_MODE, or -1. */
static int mode_by_name(const char *name, const char *const *names, int count)
{
    for (int i = 0; name && i < count; ++i)
        if (names[i] && !strcmp(name, names[i]))
            return i;
    return -1;
}

/* The scalar pad value: of data's type, and a scalar (or one element where one_ok). */
static HRESULT read_value(const char *op, const char *name, const void *value,
                          DML_TENSOR_DATA_TYPE type, const dmlcl_shape *dims,
                          DML_TENSOR_DATA_TYPE data_type, bool one_ok, dmlcl_frontend_result *r)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(type != data_type, "%s: input %s has type %s; it must be data's type (%s)", op,
                    name, dmli_type_name(type), dmli_type_name(data_type));
    bool scalar = !dims || dims->rank == 0 || (one_ok && dims->rank == 1 && dims->dims[0] == 1);
    DMLI_INVALID_IF(!scalar, "%s: input %s must be a scalar%s; its shape is %s", op, name,
                    one_ok ? " (or hold one element)" : "",
                    dmli_fe_format_shape(buf, sizeof buf, dims));
    memcpy(r->value, value, dmli_type_size(type));
    return S_OK;
}

/*
 * How many copies the pads (or shifts) take is the operator's count
 * (src/ops/pad.c, a cap of DMLI_PAD_MAX_STEPS): the front-end refuses, as
 * the operator would, what it cannot run, rather than accept a description
 * dmlcl_operator_create then refuses.
 */
static HRESULT check_runnable(const char *op, dmlcl_frontend_result *r)
{
    dmlcl_operator *probe = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &r->desc, &probe);
    dmlcl_operator_release(probe);
    if (hr != DXGI_ERROR_UNSUPPORTED)
        return S_OK; /* the front-end's checks stand for every other rule */
    char why[512];
    snprintf(why, sizeof why, "%s", dmlcl_last_error());
    return dmli_fail(hr, "%s: %s", op, why);
}

/* The PAD descriptor over r's begin/end lists and value; the output from the pads. */
static HRESULT describe_pad(const char *op, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *data,
                            DML_PADDING_MODE mode, bool crop_first, dmlcl_frontend_result *r)
{
    int64_t out[MAX_RANK];
    for (uint32_t i = 0; i < data->rank; ++i) {
        __int128 sum = (__int128)r->begin[i] + data->dims[i] + r->end[i];
        DMLI_UNSUPPORTED_IF(sum > (__int128)UINT32_MAX,
                            "%s: output dimension %u (%lld + %lld + %lld) is over 2^32-1, "
                            "beyond DirectML's UINT sizes",
                            op, i, (long long)r->begin[i], (long long)data->dims[i],
                            (long long)r->end[i]);
        out[i] = sum < 0 ? 0 : (int64_t)sum;
        int64_t kept = data->dims[i];
        if (crop_first) /* the crops checked to leave >= 0 */
            kept += (r->begin[i] < 0 ? r->begin[i] : 0) + (r->end[i] < 0 ? r->end[i] : 0);
        DMLI_INVALID_IF(kept == 0 && out[i] > 0 && mode != DML_PADDING_MODE_CONSTANT,
                        "%s: data dimension %u is 0%s: the pad mode has no element to repeat "
                        "into its %lld output elements (only constant pads an empty dimension)",
                        op, i, data->dims[i] ? " once cropped" : "", (long long)out[i]);
    }
    DMLI_TRY(dmli_fe_output(op, r, 1, type, out, data->rank));
    DMLCL_PAD_OPERATOR_DESC *d = &r->op.pad;
    d->InputTensor = dmli_fe_tensor(r, 0, type, data);
    d->OutputTensor = &r->tensors[1];
    d->PaddingMode = mode;
    d->PaddingValue = r->value;
    /* A 0-D data pads nothing: its one dimension {1} keeps its pads of 0. */
    d->DimensionCount = data->rank ? data->rank : 1;
    d->StartPadding = r->begin;
    d->EndPadding = r->end;
    d->Flags = crop_first ? DMLCL_PAD_FLAG_CROP_FIRST : DMLCL_PAD_FLAG_NONE;
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_PAD, d};
    return check_runnable(op, r);
}

/* ---- OpenVINO Pad-1, Pad-12 ------------------------------------------------------------------ */

static const dmli_fe_versions ov_pad = {"OpenVINO", "Pad", 2, {1, 12}, 1};

static HRESULT ov_pads(const char *op, int version, const char *name, const dmlcl_int_array *a,
                       const dmlcl_shape *dims, const dmlcl_shape *data, int64_t *out)
{
    DMLI_TRY(dmli_fe_check_list(op, name, a, dims));
    DMLI_INVALID_IF(a->count != data->rank,
                    "%s: input %s has %llu values; it must have one per data dimension (%u)", op,
                    name, (unsigned long long)a->count, data->rank);
    for (uint32_t i = 0; i < data->rank; ++i) {
        out[i] = dmli_fe_int_at(a, i);
        DMLI_INVALID_IF(version < 12 && out[i] < 0,
                        "%s: %s[%u] (%lld) must be >= 0 (negative pads crop from Pad-12 on)", op,
                        name, i, (long long)out[i]);
    }
    return S_OK;
}

/* reflect: pads at most n - 1; symmetric: at most n (both OpenVINO texts). */
static HRESULT ov_mode_limits(const char *op, int mode, const char *name, const int64_t *pads,
                              const dmlcl_shape *data)
{
    if (mode != DML_PADDING_MODE_REFLECTION && mode != DML_PADDING_MODE_SYMMETRIC)
        return S_OK;
    bool reflect = mode == DML_PADDING_MODE_REFLECTION;
    for (uint32_t i = 0; i < data->rank; ++i)
        DMLI_INVALID_IF(pads[i] > data->dims[i] - reflect,
                        "%s: %s[%u] (%lld) must be at most data.shape[%u]%s (%lld) in %s mode", op,
                        name, i, (long long)pads[i], i, reflect ? " - 1" : "",
                        (long long)(data->dims[i] - reflect), reflect ? "reflect" : "symmetric");
    return S_OK;
}

DMLCL_API HRESULT dmlcl_openvino_pad(int opset, const dmlcl_openvino_pad_args *args,
                                     dmlcl_frontend_result *result)
{
    static const char *const modes[] = {"constant", "edge", "reflect", "symmetric"};
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("OpenVINO Pad", args, result));
    DMLI_TRY(dmli_fe_version(&ov_pad, opset, &version, op, sizeof op));
    const dmlcl_openvino_pad_args *a = args;
    DMLI_TRY(check_data(op, a->data_type, a->data));
    int mode = mode_by_name(a->pad_mode, modes, 4);
    DMLI_INVALID_IF(mode < 0,
                    "%s: attribute pad_mode (%s) must be \"constant\", \"edge\", \"reflect\" or "
                    "\"symmetric\"",
                    op, a->pad_mode ? a->pad_mode : "absent");
    dmlcl_frontend_result *r = result;
    DMLI_TRY(
        ov_pads(op, version, "pads_begin", a->pads_begin, a->pads_begin_dims, a->data, r->begin));
    DMLI_TRY(ov_pads(op, version, "pads_end", a->pads_end, a->pads_end_dims, a->data, r->end));
    DMLI_TRY(ov_mode_limits(op, mode, "pads_begin", r->begin, a->data));
    DMLI_TRY(ov_mode_limits(op, mode, "pads_end", r->end, a->data));
    /* pad_value "takes effect only" in constant mode: OpenVINO ignores it elsewhere. */
    if (mode == DML_PADDING_MODE_CONSTANT && a->pad_value)
        DMLI_TRY(read_value(op, "pad_value", a->pad_value, a->pad_value_type, a->pad_value_dims,
                            a->data_type, false, r));
    return describe_pad(op, a->data_type, a->data, (DML_PADDING_MODE)mode, false, r);
}

/* ---- ONNX Pad-18, Pad-19 --------------------------------------------------------------------- */

/* Pad-21 and Pad-23 add element types only (none dmlcl moves): Pad-19's rules. */
static const dmli_fe_versions onnx_pad = {"ONNX", "Pad", 8, {1, 2, 11, 13, 18, 19, 21, 23}, 18};

/* axes (or every dimension): which dimension each pair of pads goes to; none twice. */
static HRESULT onnx_axes(const char *op, const dmlcl_onnx_pad_args *a, uint32_t *axes,
                         uint32_t *count)
{
    uint32_t r = a->data->rank;
    if (!a->axes) {
        for (uint32_t i = 0; i < r; ++i)
            axes[i] = i;
        *count = r;
        return S_OK;
    }
    DMLI_TRY(dmli_fe_check_list(op, "axes", a->axes, a->axes_dims));
    DMLI_INVALID_IF(
        a->axes->type != DML_TENSOR_DATA_TYPE_INT32 && a->axes->type != DML_TENSOR_DATA_TYPE_INT64,
        "%s: input axes has type %s; it must be INT32 or INT64", op, dmli_type_name(a->axes->type));
    DMLI_INVALID_IF(a->axes->count > r,
                    "%s: input axes has %llu values; data has %u dimensions, each named at most "
                    "once",
                    op, (unsigned long long)a->axes->count, r);
    bool seen[MAX_RANK] = {false};
    for (uint32_t i = 0; i < a->axes->count; ++i) {
        int64_t v = dmli_fe_int_at(a->axes, i), ax = v < 0 ? v + r : v;
        DMLI_INVALID_IF(ax < 0 || ax >= (int64_t)r,
                        "%s: axes[%u] (%lld) must be in [-%u, %u] (data has rank %u)", op, i,
                        (long long)v, r, r ? r - 1 : 0, r);
        DMLI_INVALID_IF(seen[ax], "%s: axes[%u] (%lld) names dimension %lld again", op, i,
                        (long long)v, (long long)ax);
        seen[ax] = true;
        axes[i] = (uint32_t)ax;
    }
    *count = (uint32_t)a->axes->count;
    return S_OK;
}

DMLCL_API HRESULT dmlcl_onnx_pad(int opset, const dmlcl_onnx_pad_args *args,
                                 dmlcl_frontend_result *result)
{
    static const char *const modes[] = {"constant", "edge", "reflect", NULL, "wrap"};
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("ONNX Pad", args, result));
    DMLI_TRY(dmli_fe_version(&onnx_pad, opset, &version, op, sizeof op));
    const dmlcl_onnx_pad_args *a = args;
    DMLI_TRY(check_data(op, a->data_type, a->data));
    int mode = a->mode ? mode_by_name(a->mode, modes, version >= 19 ? 5 : 3) : 0;
    DMLI_INVALID_IF(mode < 0,
                    "%s: attribute mode (%s) must be \"constant\", \"reflect\", \"edge\"%s", op,
                    a->mode, version >= 19 ? " or \"wrap\"" : " (\"wrap\" from Pad-19)");
    uint32_t axes[MAX_RANK], n = 0;
    DMLI_TRY(onnx_axes(op, a, axes, &n));
    DMLI_TRY(dmli_fe_check_list(op, "pads", a->pads, a->pads_dims));
    DMLI_INVALID_IF(a->pads->type != DML_TENSOR_DATA_TYPE_INT64,
                    "%s: input pads has type %s; it must be INT64", op,
                    dmli_type_name(a->pads->type));
    DMLI_INVALID_IF(a->pads->count != 2 * (uint64_t)n,
                    "%s: input pads has %llu values; it must have 2 * %u (a begin and an end "
                    "for each of the %s)",
                    op, (unsigned long long)a->pads->count, n,
                    a->axes ? "axes" : "data's dimensions");
    dmlcl_frontend_result *r = result;
    for (uint32_t i = 0; i < n; ++i) {
        r->begin[axes[i]] = dmli_fe_int_at(a->pads, i);
        r->end[axes[i]] = dmli_fe_int_at(a->pads, n + i);
    }
    for (uint32_t i = 0; i < a->data->rank; ++i) {
        __int128 left = (__int128)a->data->dims[i] + (r->begin[i] < 0 ? r->begin[i] : 0) +
                        (r->end[i] < 0 ? r->end[i] : 0);
        DMLI_INVALID_IF(left < 0,
                        "%s: the negative pads of dimension %u (%lld, %lld) remove more than its "
                        "%lld elements",
                        op, i, (long long)r->begin[i], (long long)r->end[i],
                        (long long)a->data->dims[i]);
    }
    if (mode == DML_PADDING_MODE_CONSTANT && a->constant_value)
        DMLI_TRY(read_value(op, "constant_value", a->constant_value, a->constant_value_type,
                            a->constant_value_dims, a->data_type, true, r));
    return describe_pad(op, a->data_type, a->data, (DML_PADDING_MODE)mode, true, r);
}

/* ---- OpenVINO Roll-7 ------------------------------------------------------------------------- */

#define OV_ROLL "OpenVINO Roll-7"
static const dmli_fe_versions ov_roll = {"OpenVINO", "Roll", 1, {7}, 7};

/* A 0-D or 1-D INT32/INT64 input. */
static HRESULT roll_list(const char *name, const dmlcl_int_array *a, const dmlcl_shape *dims)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_INVALID_IF(!a, OV_ROLL ": input %s (NULL) is required", name);
    DMLI_INVALID_IF(a->type != DML_TENSOR_DATA_TYPE_INT32 && a->type != DML_TENSOR_DATA_TYPE_INT64,
                    OV_ROLL ": input %s has type %s; it must be INT32 or INT64", name,
                    dmli_type_name(a->type));
    DMLI_INVALID_IF(dims && dims->rank > 1,
                    OV_ROLL ": input %s must be 0-D or 1-D; its shape is %s", name,
                    dmli_fe_format_shape(buf, sizeof buf, dims));
    uint64_t want = dims && dims->rank == 1 ? (uint64_t)dims->dims[0] : 1;
    DMLI_INVALID_IF(dims && a->count != want,
                    OV_ROLL ": input %s has shape %s but holds %llu values", name,
                    dmli_fe_format_shape(buf, sizeof buf, dims), (unsigned long long)a->count);
    DMLI_INVALID_IF(a->count && !a->data, OV_ROLL ": input %s data (NULL) must hold %llu values",
                    name, (unsigned long long)a->count);
    return S_OK;
}

DMLCL_API HRESULT dmlcl_openvino_roll(int opset, const dmlcl_openvino_roll_args *args,
                                      dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("OpenVINO Roll", args, result));
    DMLI_TRY(dmli_fe_version(&ov_roll, opset, &version, op, sizeof op));
    const dmlcl_openvino_roll_args *a = args;
    DMLI_TRY(check_data(op, a->data_type, a->data));
    uint32_t rank = a->data->rank;
    DMLI_INVALID_IF(rank == 0, OV_ROLL ": data must have rank >= 1 (a scalar has no axis)");
    DMLI_TRY(roll_list("shift", a->shift, a->shift_dims));
    DMLI_TRY(roll_list("axes", a->axes, a->axes_dims));
    /* Without dims, a list of one value is read as a scalar (either way it rolls every axis). */
    bool shift_scalar = a->shift_dims ? a->shift_dims->rank == 0 : a->shift->count == 1;
    bool axes_1d = a->axes_dims ? a->axes_dims->rank == 1 : true;
    DMLI_INVALID_IF(!shift_scalar && (!axes_1d || a->shift->count != a->axes->count),
                    OV_ROLL ": shift is 1-D with %llu values; axes must then be 1-D of the same "
                            "size (it is %s with %llu)",
                    (unsigned long long)a->shift->count, axes_1d ? "1-D" : "0-D",
                    (unsigned long long)a->axes->count);
    DMLI_INVALID_IF(shift_scalar && a->shift->count != 1,
                    OV_ROLL ": shift is a scalar but holds %llu values",
                    (unsigned long long)a->shift->count);
    dmlcl_frontend_result *r = result;
    for (uint64_t i = 0; i < a->axes->count; ++i) {
        int64_t v = dmli_fe_int_at(a->axes, i), ax = v < 0 ? v + rank : v;
        DMLI_INVALID_IF(ax < 0 || ax >= (int64_t)rank,
                        OV_ROLL ": axes[%llu] (%lld) must be in [-%u, %u] (data has rank %u)",
                        (unsigned long long)i, (long long)v, rank, rank - 1, rank);
        int64_t shift = dmli_fe_int_at(a->shift, shift_scalar ? 0 : i), n = a->data->dims[ax];
        /* Shifts that meet on an axis add up; reduced first so the sum cannot overflow. */
        if (n > 0)
            r->begin[ax] = ((r->begin[ax] + shift % n) % n + n) % n;
    }
    DMLI_TRY(dmli_fe_output(op, r, 1, a->data_type, a->data->dims, rank));
    DMLCL_ROLL_OPERATOR_DESC *d = &r->op.roll;
    d->InputTensor = dmli_fe_tensor(r, 0, a->data_type, a->data);
    d->OutputTensor = &r->tensors[1];
    d->DimensionCount = rank;
    d->Shifts = r->begin;
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_ROLL, d};
    return check_runnable(op, r);
}
