/*
 * The gathers of OpenVINO (Gather-8) and ONNX (Gather-1/11/13,
 * GatherElements-11/13, GatherND-11/12/13): every rule of each
 * specification, shape inference, and the extension descriptor to run it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frontends/common.h"

/* ---- Shapes and types ------------------------------------------------------------------ */

static const char *format_shape(char *buf, size_t len, const dmlcl_shape *s)
{
    size_t at = (size_t)snprintf(buf, len, "[");
    for (uint32_t i = 0; i < s->rank && i < DMLCL_TENSOR_DIMENSION_COUNT_MAX && at < len; ++i)
        at += (size_t)snprintf(buf + at, len - at, i ? ",%" PRId64 : "%" PRId64, s->dims[i]);
    if (at < len)
        snprintf(buf + at, len - at, "]");
    return buf;
}

/* A framework shape dmlcl can describe: rank <= 16, static dims, <= 2^32-1 elements. */
static HRESULT check_shape(const char *op, const char *name, const dmlcl_shape *s)
{
    DMLCL_NULL_IF(!s, "%s: the shape of %s (NULL) is required", op, name);
    DMLCL_UNSUPPORTED_IF(s->rank > DMLCL_TENSOR_DIMENSION_COUNT_MAX,
                         "%s: %s rank (%u) is beyond dmlcl's %d dimensions", op, name, s->rank,
                         DMLCL_TENSOR_DIMENSION_COUNT_MAX);
    uint64_t count = 1;
    for (uint32_t i = 0; i < s->rank; ++i) {
        DMLCL_INVALID_IF(s->dims[i] < 0, "%s: %s dimension %u (%" PRId64 ") must be >= 0", op, name,
                         i, s->dims[i]);
        DMLCL_UNSUPPORTED_IF(s->dims[i] > (int64_t)UINT32_MAX,
                             "%s: %s dimension %u (%" PRId64 ") is beyond dmlcl's 2^32-1", op, name,
                             i, s->dims[i]);
        count *= (uint64_t)s->dims[i];
        if (count > UINT32_MAX) {
            char buf[DMLCL_DIMS_BUF];
            return dmlcl_fail(DXGI_ERROR_UNSUPPORTED,
                              "%s: %s shape %s has more than 2^32-1 elements (DirectML's limit)",
                              op, name, format_shape(buf, sizeof buf, s));
        }
    }
    return S_OK;
}

/* The data type: movable by width; ONNX also lists the types it defines. */
static HRESULT check_data_type(const char *op, DML_TENSOR_DATA_TYPE t, bool bfloat16)
{
    DMLCL_UNSUPPORTED_IF(t == DMLCL_TENSOR_DATA_TYPE_STRING,
                         "%s: data type STRING is not supported: dmlcl moves elements of 1, 2, 4, "
                         "8 or 16 bytes, and strings have no fixed width",
                         op);
    DMLCL_UNSUPPORTED_IF(t == DML_TENSOR_DATA_TYPE_UINT4 || t == DML_TENSOR_DATA_TYPE_INT4,
                         "%s: data type %s is not supported: dmlcl moves whole bytes", op,
                         dmlcl_type_name(t));
    DMLCL_INVALID_IF(dmlcl_type_size(t) == 0, "%s: data type (%s) is not a tensor data type", op,
                     dmlcl_type_name(t));
    DMLCL_INVALID_IF(!bfloat16 && t == DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
                     "%s: data type (BFLOAT16) is not in this version's type list (bfloat16 "
                     "comes with opset 13)",
                     op);
    return S_OK;
}

/* Normalises an axis-like value v in [-n, n-1] (what names it). */
static HRESULT normalise_axis(const char *op, const char *what, int64_t v, int64_t n, int64_t *out)
{
    DMLCL_INVALID_IF(v < -n || v >= n,
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
            char d[DMLCL_DIMS_BUF], x[DMLCL_DIMS_BUF];
            return dmlcl_fail(
                E_INVALIDARG,
                "%s: batch dimension %" PRId64 " differs: data shape %s and "
                "indices shape %s must agree in their first %" PRId64 " (batch_dims) dimensions",
                op, i, format_shape(d, sizeof d, data), format_shape(x, sizeof x, indices), count);
        }
    return S_OK;
}

/* ---- The result ------------------------------------------------------------------------ */

/* Describes a framework tensor (0-D as {1}) in slot k of the result. */
static void set_tensor(dmlcl_gather_frontend *f, int k, DML_TENSOR_DATA_TYPE type,
                       const dmlcl_shape *s)
{
    UINT rank = s->rank ? s->rank : 1;
    f->Sizes[k][0] = 1;
    for (uint32_t i = 0; i < s->rank; ++i)
        f->Sizes[k][i] = (UINT)s->dims[i];
    DML_BUFFER_TENSOR_DESC *b = &f->Buffers[k];
    b->DataType = type;
    b->Flags = DML_TENSOR_FLAG_NONE;
    b->DimensionCount = rank;
    b->Sizes = f->Sizes[k];
    b->Strides = NULL;
    b->TotalTensorSizeInBytes = DMLCalcBufferTensorSize(type, rank, f->Sizes[k], NULL);
    b->GuaranteedBaseOffsetAlignment = 0;
    f->Tensors[k].Type = DML_TENSOR_TYPE_BUFFER;
    f->Tensors[k].Desc = b;
}

/* Output shape: the concatenation of parts; checks dmlcl can describe it. */
static HRESULT set_output(const char *op, dmlcl_gather_frontend *f, DML_TENSOR_DATA_TYPE type,
                          const int64_t *dims, uint32_t rank)
{
    DMLCL_UNSUPPORTED_IF(rank > DMLCL_TENSOR_DIMENSION_COUNT_MAX,
                         "%s: the output rank (%u) is beyond dmlcl's %d dimensions", op, rank,
                         DMLCL_TENSOR_DIMENSION_COUNT_MAX);
    f->OutputShape.rank = rank;
    memcpy(f->OutputShape.dims, dims, rank * sizeof *dims);
    DMLCL_TRY(check_shape(op, "output", &f->OutputShape));
    set_tensor(f, 2, type, &f->OutputShape);
    return S_OK;
}

static void begin(dmlcl_gather_frontend *f)
{
    memset(f, 0, sizeof *f);
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

static HRESULT gather_result(const gather_args *a, dmlcl_gather_frontend *f)
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
    DMLCL_TRY(set_output(a->op, f, a->data_type, dims, n));
    set_tensor(f, 0, a->data_type, d);
    set_tensor(f, 1, a->indices_type, x);
    DMLCL_GATHER1_OPERATOR_DESC *g = &f->Op.Gather;
    g->InputTensor = &f->Tensors[0];
    g->IndicesTensor = &f->Tensors[1];
    g->OutputTensor = &f->Tensors[2];
    g->Axis = (UINT)a->axis;
    g->IndexDimensions = x->rank;
    g->BatchDimensionCount = (UINT)a->batch;
    g->OutOfRangePolicy = a->policy;
    g->AllowNegativeIndices = a->negative;
    f->Desc.Type = DMLCL_OPERATOR_GATHER1;
    f->Desc.Desc = g;
    return S_OK;
}

/* The axis input's one value, whatever its integer type. */
static HRESULT axis_value(const char *op, const dmlcl_shape *shape, const dmlcl_int_array *axis,
                          int64_t *out)
{
    DMLCL_NULL_IF(!axis || !axis->data, "%s: the axis input's value (NULL) is required", op);
    DMLCL_INVALID_IF(shape && shape->rank > 1,
                     "%s: the axis input's rank (%u) must be 0 or 1 (a scalar or a 1-element "
                     "1-D tensor)",
                     op, shape->rank);
    DMLCL_INVALID_IF(shape && shape->rank == 1 && shape->dims[0] != 1,
                     "%s: the axis input's shape [%" PRId64 "] must hold exactly one element", op,
                     shape->dims[0]);
    DMLCL_INVALID_IF(axis->count != 1, "%s: the axis input has %" PRIu64 " values; it must have 1",
                     op, axis->count);
    const void *p = axis->data;
    switch ((int)axis->type) {
    case DML_TENSOR_DATA_TYPE_INT8: *out = *(const int8_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT16: *out = *(const int16_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT32: *out = *(const int32_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_INT64: *out = *(const int64_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT8: *out = *(const uint8_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT16: *out = *(const uint16_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = *(const uint32_t *)p; return S_OK;
    case DML_TENSOR_DATA_TYPE_UINT64: {
        uint64_t u = *(const uint64_t *)p;
        DMLCL_INVALID_IF(u > (uint64_t)INT64_MAX,
                         "%s: axis (%" PRIu64 ") must be in [-rank(data), rank(data) - 1]", op, u);
        *out = (int64_t)u;
        return S_OK;
    }
    default:
        return dmlcl_fail(E_INVALIDARG, "%s: the axis input's type (%s) must be an integer type",
                          op, dmlcl_type_name(axis->type));
    }
}

HRESULT dmlcl_openvino_gather8(const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                               const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                               const dmlcl_shape *axis_shape, const dmlcl_int_array *axis,
                               int64_t batch_dims, dmlcl_gather_frontend *out)
{
    const char *op = "OpenVINO Gather-8";
    DMLCL_NULL_IF(!out, "%s: the result (NULL) is required", op);
    begin(out);
    DMLCL_TRY(check_shape(op, "data", data));
    DMLCL_TRY(check_shape(op, "indices", indices));
    DMLCL_TRY(check_data_type(op, data_type, true));
    DMLCL_INVALID_IF(!dmlcl_fe_is_int_type(indices_type),
                     "%s: indices type (%s) must be an integer type (T_IND)", op,
                     dmlcl_type_name(indices_type));
    int64_t axis_raw = 0, r = data->rank, q = indices->rank, lo = r < q ? r : q;
    DMLCL_TRY(axis_value(op, axis_shape, axis, &axis_raw));
    DMLCL_INVALID_IF(r == 0,
                     "%s: data rank (0) must be at least 1: the axis range [-0, -1] "
                     "is empty",
                     op);
    gather_args a = {
        op, data, indices, data_type, indices_type, 0, 0, DMLCL_OUT_OF_RANGE_POLICY_ZERO, true};
    DMLCL_TRY(normalise_axis(op, "axis", axis_raw, r, &a.axis));
    DMLCL_INVALID_IF(batch_dims < -lo || batch_dims > lo,
                     "%s: batch_dims (%" PRId64 ") must be in [%" PRId64 ", %" PRId64
                     "] (-min(data rank %" PRId64 ", indices rank %" PRId64 "), min(...))",
                     op, batch_dims, -lo, lo, r, q);
    a.batch = batch_dims < 0 ? batch_dims + q : batch_dims;
    DMLCL_INVALID_IF(a.batch > a.axis,
                     "%s: batch_dims (%" PRId64 ", normalised %" PRId64
                     ") must be at most axis (%" PRId64 ", normalised %" PRId64 ")",
                     op, batch_dims, a.batch, axis_raw, a.axis);
    DMLCL_TRY(check_batch(op, data, indices, a.batch));
    return gather_result(&a, out);
}

/* The version of an ONNX operator in effect at an opset. */
static int onnx_version(int opset, const int *versions, int count)
{
    int v = 0;
    for (int i = 0; i < count; ++i)
        if (opset >= versions[i])
            v = versions[i];
    return v;
}

static HRESULT onnx_indices_type(const char *op, DML_TENSOR_DATA_TYPE t, bool int32_too)
{
    DMLCL_INVALID_IF(t != DML_TENSOR_DATA_TYPE_INT64 &&
                         (!int32_too || t != DML_TENSOR_DATA_TYPE_INT32),
                     "%s: indices type (%s) must be %s", op, dmlcl_type_name(t),
                     int32_too ? "INT32 or INT64 (Tind)" : "INT64");
    return S_OK;
}

/* Opset -> version and the operator's name for messages; common checks. */
static HRESULT onnx_begin(const char *name, int opset, const int *versions, int count, char *op,
                          size_t len, const dmlcl_shape *data, const dmlcl_shape *indices,
                          DML_TENSOR_DATA_TYPE data_type, dmlcl_gather_frontend *out, int *version)
{
    *version = onnx_version(opset, versions, count);
    snprintf(op, len, "ONNX %s-%d", name, *version);
    DMLCL_INVALID_IF(*version == 0,
                     "ONNX %s: opset (%d) must be at least %d (the operator's first "
                     "version)",
                     name, opset, versions[0]);
    DMLCL_NULL_IF(!out, "%s: the result (NULL) is required", op);
    begin(out);
    DMLCL_TRY(check_shape(op, "data", data));
    DMLCL_TRY(check_shape(op, "indices", indices));
    DMLCL_TRY(check_data_type(op, data_type, *version >= 13));
    DMLCL_INVALID_IF(data->rank < 1, "%s: data rank (0) must be at least 1", op);
    return S_OK;
}

HRESULT dmlcl_onnx_gather(int opset, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                          const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                          int64_t axis, dmlcl_gather_frontend *out)
{
    static const int versions[] = {1, 11, 13};
    char op[48];
    int version;
    DMLCL_TRY(onnx_begin("Gather", opset, versions, 3, op, sizeof op, data, indices, data_type, out,
                         &version));
    DMLCL_TRY(onnx_indices_type(op, indices_type, true));
    gather_args a = {op,           data, indices, data_type,
                     indices_type, 0,    0,       DMLCL_OUT_OF_RANGE_POLICY_ERROR,
                     version >= 11};
    DMLCL_TRY(normalise_axis(op, "axis", axis, data->rank, &a.axis));
    return gather_result(&a, out);
}

/* ---- ONNX GatherElements ------------------------------------------------------------------ */

HRESULT dmlcl_onnx_gather_elements(int opset, const dmlcl_shape *data,
                                   DML_TENSOR_DATA_TYPE data_type, const dmlcl_shape *indices,
                                   DML_TENSOR_DATA_TYPE indices_type, int64_t axis,
                                   dmlcl_gather_frontend *out)
{
    static const int versions[] = {11, 13};
    char op[48], d[DMLCL_DIMS_BUF], x[DMLCL_DIMS_BUF];
    int version;
    DMLCL_TRY(onnx_begin("GatherElements", opset, versions, 2, op, sizeof op, data, indices,
                         data_type, out, &version));
    DMLCL_TRY(onnx_indices_type(op, indices_type, true));
    DMLCL_INVALID_IF(indices->rank != data->rank, "%s: indices rank (%u) must equal data rank (%u)",
                     op, indices->rank, data->rank);
    int64_t a = 0;
    DMLCL_TRY(normalise_axis(op, "axis", axis, data->rank, &a));
    for (uint32_t i = 0; i < data->rank; ++i)
        DMLCL_INVALID_IF(i != a && indices->dims[i] != data->dims[i],
                         "%s: indices shape %s must equal data shape %s except along axis "
                         "(%" PRId64 "); dimension %u differs",
                         op, format_shape(x, sizeof x, indices), format_shape(d, sizeof d, data), a,
                         i);
    DMLCL_TRY(set_output(op, out, data_type, indices->dims, indices->rank));
    set_tensor(out, 0, data_type, data);
    set_tensor(out, 1, indices_type, indices);
    DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC *g = &out->Op.GatherElements;
    g->InputTensor = &out->Tensors[0];
    g->IndicesTensor = &out->Tensors[1];
    g->OutputTensor = &out->Tensors[2];
    g->Axis = (UINT)a;
    g->OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_ERROR;
    out->Desc.Type = DMLCL_OPERATOR_GATHER_ELEMENTS1;
    out->Desc.Desc = g;
    return S_OK;
}

/* ---- ONNX GatherND -------------------------------------------------------------------------- */

HRESULT dmlcl_onnx_gather_nd(int opset, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE data_type,
                             const dmlcl_shape *indices, DML_TENSOR_DATA_TYPE indices_type,
                             int64_t batch_dims, dmlcl_gather_frontend *out)
{
    static const int versions[] = {11, 12, 13};
    char op[48];
    int version;
    DMLCL_TRY(onnx_begin("GatherND", opset, versions, 3, op, sizeof op, data, indices, data_type,
                         out, &version));
    DMLCL_TRY(onnx_indices_type(op, indices_type, false));
    int64_t r = data->rank, q = indices->rank, lo = r < q ? r : q;
    DMLCL_INVALID_IF(q < 1, "%s: indices rank (0) must be at least 1", op);
    DMLCL_INVALID_IF(version < 12 && batch_dims != 0,
                     "%s: batch_dims (%" PRId64 ") must be 0: the attribute comes with opset 12",
                     op, batch_dims);
    DMLCL_INVALID_IF(batch_dims < 0 || batch_dims >= lo,
                     "%s: batch_dims (%" PRId64 ") must be in [0, min(data rank %" PRId64
                     ", indices rank %" PRId64 ") - 1]",
                     op, batch_dims, r, q);
    DMLCL_TRY(check_batch(op, data, indices, batch_dims));
    int64_t m = indices->dims[q - 1];
    DMLCL_INVALID_IF(m < 1 || m > r - batch_dims,
                     "%s: indices.shape[-1] (%" PRId64 ") must be in [1, data rank - batch_dims "
                     "(%" PRId64 ")]",
                     op, m, r - batch_dims);
    int64_t dims[2 * DMLCL_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t n = 0;
    for (int64_t j = 0; j + 1 < q; ++j)
        dims[n++] = indices->dims[j];
    for (int64_t i = batch_dims + m; i < r; ++i)
        dims[n++] = data->dims[i];
    DMLCL_TRY(set_output(op, out, data_type, dims, n));
    set_tensor(out, 0, data_type, data);
    set_tensor(out, 1, indices_type, indices);
    DMLCL_GATHER_ND2_OPERATOR_DESC *g = &out->Op.GatherNd;
    g->InputTensor = &out->Tensors[0];
    g->IndicesTensor = &out->Tensors[1];
    g->OutputTensor = &out->Tensors[2];
    g->InputDimensionCount = (UINT)r;
    g->IndicesDimensionCount = (UINT)q;
    g->BatchDimensionCount = (UINT)batch_dims;
    g->OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_ERROR;
    out->Desc.Type = DMLCL_OPERATOR_GATHER_ND2;
    out->Desc.Desc = g;
    return S_OK;
}
