/* SPDX-License-Identifier: MIT */
/*
 * The gathers of OpenVINO (Gather-8) and ONNX (Gather-1/11/13,
 * GatherElements-11/13, GatherND-11/12/13): every rule of each
 * specification, shape inference, and the extension descriptor to run it.
 */
#include <inttypes.h>

#include "frontends/common.h"

/* ---- Shapes and types ------------------------------------------------------------------ */

/* data and indices: shapes dmlcl describes, a data type it moves. */
static HRESULT check_inputs(const char *op, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                            const dmlcl_shape *indices, bool bfloat16)
{
    DMLI_TRY(dmli_fe_check_shape(op, "input data", data));
    DMLI_TRY(dmli_fe_check_shape(op, "input indices", indices));
    DMLI_TRY(dmli_fe_check_type(op, "data", data_type));
    DMLI_INVALID_IF(!bfloat16 && data_type == DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
                    "%s: data type (BFLOAT16) is not in this version's type list (bfloat16 "
                    "comes with opset 13)",
                    op);
    return S_OK;
}

/* Normalises an axis-like value v in [-n, n-1] (what names it). */
static HRESULT normalise_axis(const char *op, const char *what, int64_t v, int64_t n, int64_t *out)
{
    DMLI_INVALID_IF(v < -n || v >= n,
                    "%s: %s (%" PRId64 ") must be in [%" PRId64 ", %" PRId64
                    "] for data of rank %" PRId64,
                    op, what, v, -n, n - 1, n);
    *out = v < 0 ? v + n : v;
    return S_OK;
}

/* Dims [0, count) of a and b must be equal (batch dims). */
static HRESULT check_batch(const char *op, const dmlcl_shape *data, const dmlcl_shape *indices,
                           int64_t count)
{
    for (int64_t i = 0; i < count; ++i)
        if (data->dims[i] != indices->dims[i]) {
            char d[DMLI_DIMS_BUF], x[DMLI_DIMS_BUF];
            return dmli_fail(E_INVALIDARG,
                             "%s: batch dimension %" PRId64 " differs: data shape %s and "
                             "indices shape %s must agree in their first %" PRId64
                             " (batch_dims) dimensions",
                             op, i, dmli_fe_format_shape(d, sizeof d, data),
                             dmli_fe_format_shape(x, sizeof x, indices), count);
        }
    return S_OK;
}

/* ---- Gather: OpenVINO Gather-8 and ONNX Gather ------------------------------------------ */

typedef struct gather_args {
    const char *op;
    const dmlcl_shape *data, *indices;
    DML_TENSOR_DATA_TYPE data_type, indices_type;
    int64_t axis, batch; /* normalised */
    DMLCL_OUT_OF_RANGE_POLICY policy;
    bool negative;
} gather_args;

static HRESULT gather_result(const gather_args *a, dmlcl_frontend_result *f)
{
    const dmlcl_shape *d = a->data, *x = a->indices;
    int64_t dims[3 * DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t n = 0;
    for (int64_t i = 0; i < a->axis; ++i)
        dims[n++] = d->dims[i];
    for (uint32_t j = (uint32_t)a->batch; j < x->rank; ++j)
        dims[n++] = x->dims[j];
    for (uint32_t i = (uint32_t)a->axis + 1; i < d->rank; ++i)
        dims[n++] = d->dims[i];
    DMLI_TRY(dmli_fe_output(a->op, f, 2, a->data_type, dims, n));
    DMLCL_GATHER1_OPERATOR_DESC *g = &f->op.gather1;
    g->InputTensor = dmli_fe_tensor(f, 0, a->data_type, d);
    g->IndicesTensor = dmli_fe_tensor(f, 1, a->indices_type, x);
    g->OutputTensor = &f->tensors[2];
    g->Axis = (UINT)a->axis;
    g->IndexDimensions = x->rank;
    g->BatchDimensionCount = (UINT)a->batch;
    g->OutOfRangePolicy = a->policy;
    g->AllowNegativeIndices = a->negative;
    f->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_GATHER1, g};
    return S_OK;
}

/* The axis input's one value, whatever its integer type. */
static HRESULT axis_value(const char *op, const dmlcl_shape *shape, const dmlcl_int_array *axis,
                          int64_t *out)
{
    DMLI_NULL_IF(!axis || !axis->data, "%s: the axis input's value (NULL) is required", op);
    DMLI_INVALID_IF(shape && shape->rank > 1,
                    "%s: the axis input's rank (%u) must be 0 or 1 (a scalar or a 1-element "
                    "1-D tensor)",
                    op, shape->rank);
    DMLI_INVALID_IF(shape && shape->rank == 1 && shape->dims[0] != 1,
                    "%s: the axis input's shape [%" PRId64 "] must hold exactly one element", op,
                    shape->dims[0]);
    DMLI_INVALID_IF(axis->count != 1, "%s: the axis input has %" PRIu64 " values; it must have 1",
                    op, axis->count);
    DMLI_INVALID_IF(!dmli_fe_is_int_type(axis->type),
                    "%s: the axis input's type (%s) must be an integer type", op,
                    dmli_type_name(axis->type));
    DMLI_INVALID_IF(axis->type == DML_TENSOR_DATA_TYPE_UINT64 &&
                        *(const uint64_t *)axis->data > (uint64_t)INT64_MAX,
                    "%s: axis (%" PRIu64 ") must be in [-rank(data), rank(data) - 1]", op,
                    *(const uint64_t *)axis->data);
    *out = dmli_fe_int_at(axis, 0);
    return S_OK;
}

static const dmli_fe_versions ov_gather = {"OpenVINO", "Gather", 3, {1, 7, 8}, 8};

HRESULT dmlcl_openvino_gather(int opset, const dmlcl_openvino_gather_args *args,
                              dmlcl_frontend_result *out)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&ov_gather, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(op, args, out));
    const dmlcl_shape *data = args->data, *indices = args->indices;
    DMLI_TRY(check_inputs(op, data, args->data_type, indices, true));
    DMLI_INVALID_IF(!dmli_fe_is_int_type(args->indices_type),
                    "%s: indices type (%s) must be an integer type (T_IND)", op,
                    dmli_type_name(args->indices_type));
    int64_t axis_raw = 0, r = data->rank, q = indices->rank, lo = r < q ? r : q;
    int64_t batch_dims = args->batch_dims;
    DMLI_TRY(axis_value(op, args->axis_dims, args->axis, &axis_raw));
    DMLI_INVALID_IF(r == 0,
                    "%s: data rank (0) must be at least 1: the axis range [-0, -1] "
                    "is empty",
                    op);
    gather_args a = {op,
                     data,
                     indices,
                     args->data_type,
                     args->indices_type,
                     0,
                     0,
                     DMLCL_OUT_OF_RANGE_POLICY_ZERO,
                     true};
    DMLI_TRY(normalise_axis(op, "axis", axis_raw, r, &a.axis));
    DMLI_INVALID_IF(batch_dims < -lo || batch_dims > lo,
                    "%s: batch_dims (%" PRId64 ") must be in [%" PRId64 ", %" PRId64
                    "] (-min(data rank %" PRId64 ", indices rank %" PRId64 "), min(...))",
                    op, batch_dims, -lo, lo, r, q);
    a.batch = batch_dims < 0 ? batch_dims + q : batch_dims;
    DMLI_INVALID_IF(a.batch > a.axis,
                    "%s: batch_dims (%" PRId64 ", normalised %" PRId64
                    ") must be at most axis (%" PRId64 ", normalised %" PRId64 ")",
                    op, batch_dims, a.batch, axis_raw, a.axis);
    DMLI_TRY(check_batch(op, data, indices, a.batch));
    return gather_result(&a, out);
}

static HRESULT onnx_indices_type(const char *op, DML_TENSOR_DATA_TYPE t, bool int32_too)
{
    DMLI_INVALID_IF(t != DML_TENSOR_DATA_TYPE_INT64 &&
                        (!int32_too || t != DML_TENSOR_DATA_TYPE_INT32),
                    "%s: indices type (%s) must be %s", op, dmli_type_name(t),
                    int32_too ? "INT32 or INT64 (Tind)" : "INT64");
    return S_OK;
}

/* Opset -> version and the operator's name for messages; the checks every ONNX gather makes. */
static HRESULT onnx_begin(const dmli_fe_versions *v, int opset, const void *args,
                          dmlcl_frontend_result *out, char *op, int *version)
{
    DMLI_TRY(dmli_fe_version(v, opset, version, op, DMLI_FE_OP_NAME));
    return dmli_fe_begin(op, args, out);
}

static HRESULT onnx_inputs(const char *op, int version, const dmlcl_shape *data,
                           DML_TENSOR_DATA_TYPE data_type, const dmlcl_shape *indices)
{
    DMLI_TRY(check_inputs(op, data, data_type, indices, version >= 13));
    DMLI_INVALID_IF(data->rank < 1, "%s: data rank (0) must be at least 1", op);
    return S_OK;
}

static const dmli_fe_versions onnx_gather = {"ONNX", "Gather", 3, {1, 11, 13}, 1};

HRESULT dmlcl_onnx_gather(int opset, const dmlcl_onnx_gather_args *args, dmlcl_frontend_result *out)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(onnx_begin(&onnx_gather, opset, args, out, op, &version));
    const dmlcl_shape *data = args->data, *indices = args->indices;
    DMLI_TRY(onnx_inputs(op, version, data, args->data_type, indices));
    DMLI_TRY(onnx_indices_type(op, args->indices_type, true));
    gather_args a = {op,
                     data,
                     indices,
                     args->data_type,
                     args->indices_type,
                     0,
                     0,
                     DMLCL_OUT_OF_RANGE_POLICY_ERROR,
                     version >= 11};
    DMLI_TRY(normalise_axis(op, "axis", args->axis, data->rank, &a.axis));
    return gather_result(&a, out);
}

/* ---- ONNX GatherElements ------------------------------------------------------------------ */

static const dmli_fe_versions onnx_gather_elements = {"ONNX", "GatherElements", 2, {11, 13}, 11};

HRESULT dmlcl_onnx_gather_elements(int opset, const dmlcl_onnx_gather_elements_args *args,
                                   dmlcl_frontend_result *out)
{
    char op[DMLI_FE_OP_NAME], d[DMLI_DIMS_BUF], x[DMLI_DIMS_BUF];
    int version;
    DMLI_TRY(onnx_begin(&onnx_gather_elements, opset, args, out, op, &version));
    const dmlcl_shape *data = args->data, *indices = args->indices;
    DMLI_TRY(onnx_inputs(op, version, data, args->data_type, indices));
    DML_TENSOR_DATA_TYPE data_type = args->data_type, indices_type = args->indices_type;
    DMLI_TRY(onnx_indices_type(op, indices_type, true));
    DMLI_INVALID_IF(indices->rank != data->rank, "%s: indices rank (%u) must equal data rank (%u)",
                    op, indices->rank, data->rank);
    int64_t a = 0;
    DMLI_TRY(normalise_axis(op, "axis", args->axis, data->rank, &a));
    for (uint32_t i = 0; i < data->rank; ++i)
        DMLI_INVALID_IF(i != a && indices->dims[i] != data->dims[i],
                        "%s: indices shape %s must equal data shape %s except along axis "
                        "(%" PRId64 "); dimension %u differs",
                        op, dmli_fe_format_shape(x, sizeof x, indices),
                        dmli_fe_format_shape(d, sizeof d, data), a, i);
    DMLI_TRY(dmli_fe_output(op, out, 2, data_type, indices->dims, indices->rank));
    DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC *g = &out->op.gather_elements1;
    g->InputTensor = dmli_fe_tensor(out, 0, data_type, data);
    g->IndicesTensor = dmli_fe_tensor(out, 1, indices_type, indices);
    g->OutputTensor = &out->tensors[2];
    g->Axis = (UINT)a;
    g->OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_ERROR;
    out->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_GATHER_ELEMENTS1, g};
    return S_OK;
}

/* ---- ONNX GatherND -------------------------------------------------------------------------- */

static const dmli_fe_versions onnx_gather_nd = {"ONNX", "GatherND", 3, {11, 12, 13}, 11};

HRESULT dmlcl_onnx_gather_nd(int opset, const dmlcl_onnx_gather_nd_args *args,
                             dmlcl_frontend_result *out)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(onnx_begin(&onnx_gather_nd, opset, args, out, op, &version));
    const dmlcl_shape *data = args->data, *indices = args->indices;
    DMLI_TRY(onnx_inputs(op, version, data, args->data_type, indices));
    DML_TENSOR_DATA_TYPE data_type = args->data_type, indices_type = args->indices_type;
    int64_t batch_dims = args->batch_dims;
    DMLI_TRY(onnx_indices_type(op, indices_type, false));
    int64_t r = data->rank, q = indices->rank, lo = r < q ? r : q;
    DMLI_INVALID_IF(q < 1, "%s: indices rank (0) must be at least 1", op);
    DMLI_INVALID_IF(version < 12 && batch_dims != 0,
                    "%s: batch_dims (%" PRId64 ") must be 0: the attribute comes with opset 12", op,
                    batch_dims);
    DMLI_INVALID_IF(batch_dims < 0 || batch_dims >= lo,
                    "%s: batch_dims (%" PRId64 ") must be in [0, min(data rank %" PRId64
                    ", indices rank %" PRId64 ") - 1]",
                    op, batch_dims, r, q);
    DMLI_TRY(check_batch(op, data, indices, batch_dims));
    int64_t m = indices->dims[q - 1];
    DMLI_INVALID_IF(m < 1 || m > r - batch_dims,
                    "%s: indices.shape[-1] (%" PRId64 ") must be in [1, data rank - batch_dims "
                    "(%" PRId64 ")]",
                    op, m, r - batch_dims);
    int64_t dims[2 * DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t n = 0;
    for (int64_t j = 0; j + 1 < q; ++j)
        dims[n++] = indices->dims[j];
    for (int64_t i = batch_dims + m; i < r; ++i)
        dims[n++] = data->dims[i];
    DMLI_TRY(dmli_fe_output(op, out, 2, data_type, dims, n));
    DMLCL_GATHER_ND2_OPERATOR_DESC *g = &out->op.gather_nd2;
    g->InputTensor = dmli_fe_tensor(out, 0, data_type, data);
    g->IndicesTensor = dmli_fe_tensor(out, 1, indices_type, indices);
    g->OutputTensor = &out->tensors[2];
    g->InputDimensionCount = (UINT)r;
    g->IndicesDimensionCount = (UINT)q;
    g->BatchDimensionCount = (UINT)batch_dims;
    g->OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_ERROR;
    out->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_GATHER_ND2, g};
    return S_OK;
}
