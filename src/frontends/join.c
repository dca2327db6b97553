/* SPDX-License-Identifier: MIT */
/*
 * Front-ends on DMLCL_OPERATOR_JOIN1 and DMLCL_OPERATOR_SPLIT1: OpenVINO
 * Concat-1, Split-1, VariadicSplit-1; ONNX Concat-13, Split-13, Split-18.
 * Each checks its specification's rules with the framework's names, works
 * out the pieces' lengths along the axis, and describes packed tensors (a
 * result with more than three tensors keeps them on the heap: see
 * dmli_fe_reserve).
 *
 * Where a document is silent the framework's reference decides: OpenVINO
 * Split-1 accepts an axis of 0 elements split into num_splits empty parts
 * (its range [1, data.shape[axis]] cannot hold otherwise); ONNX Split-18's
 * num_outputs gives ceil(dim / n) per part and what is left to the last,
 * which may be 0 (dim 6 into 4: 2, 2, 2, 0, as ONNX's shape inference and
 * reference agree); when it would be negative (5 into 4) shape inference
 * infers a dimension of -1 and the reference clamps the slices (2, 2, 1, 0):
 * no valid split, so refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frontends/common.h"

#define MAX_PIECES DMLCL_JOIN_MAX_TENSORS

/* Normalises axis v in [-r, r-1] (r >= 1 checked here too). */
static HRESULT normalise_axis(const char *op, const char *what, int64_t v, uint32_t rank,
                              uint32_t *out)
{
    DMLI_INVALID_IF(rank == 0,
                    "%s: %s has rank 0; it must have rank at least 1 (a scalar has no axis to "
                    "%s along)",
                    op, what, strstr(op, "Concat") ? "concatenate" : "split");
    int64_t r = rank;
    DMLI_INVALID_IF(v < -r || v >= r,
                    "%s: axis (%" PRId64 ") must be in [%" PRId64 ", %" PRId64
                    "] for %s of rank %u",
                    op, v, -r, r - 1, what, rank);
    *out = (uint32_t)(v < 0 ? v + r : v);
    return S_OK;
}

static HRESULT check_count(const char *op, const char *what, uint64_t count)
{
    DMLI_INVALID_IF(count == 0, "%s: the number of %s (0) must be at least 1", op, what);
    DMLI_UNSUPPORTED_IF(count > MAX_PIECES,
                        "%s: %" PRIu64 " %s are more than dmlcl binds for one operator (%d)", op,
                        count, what, MAX_PIECES);
    return S_OK;
}

/* ---- Concat ------------------------------------------------------------------------------- */

static HRESULT concat_check(const char *op, const dmlcl_concat_args *a, uint32_t *axis,
                            dmlcl_shape *out)
{
    DMLI_TRY(check_count(op, "inputs", a->input_count));
    DMLI_NULL_IF(!a->inputs || !a->inputs_type, "%s: inputs and inputs_type (NULL) are required",
                 op);
    const dmlcl_shape *first = &a->inputs[0];
    DMLI_TRY(dmli_fe_check_shape(op, "input 0", first));
    DMLI_TRY(normalise_axis(op, "input 0", a->axis, first->rank, axis));
    *out = *first;
    char buf[DMLI_DIMS_BUF], ref[DMLI_DIMS_BUF], what[32];
    for (uint32_t i = 0; i < a->input_count; ++i) {
        const dmlcl_shape *s = &a->inputs[i];
        snprintf(what, sizeof what, "input %u", i);
        DMLI_TRY(dmli_fe_check_shape(op, what, s));
        DMLI_TRY(dmli_fe_check_type(op, what, a->inputs_type[i]));
        DMLI_INVALID_IF(a->inputs_type[i] != a->inputs_type[0],
                        "%s: input %u has type %s; every input must have input 0's type (%s)", op,
                        i, dmli_type_name(a->inputs_type[i]), dmli_type_name(a->inputs_type[0]));
        DMLI_INVALID_IF(s->rank != first->rank,
                        "%s: input %u has rank %u (shape %s); every input must have input 0's "
                        "rank (%u)",
                        op, i, s->rank, dmli_fe_format_shape(buf, sizeof buf, s), first->rank);
        for (uint32_t d = 0; d < s->rank; ++d)
            DMLI_INVALID_IF(d != *axis && s->dims[d] != first->dims[d],
                            "%s: input %u has shape %s and input 0 %s: they must match in every "
                            "dimension but the axis (%u); dimension %u differs",
                            op, i, dmli_fe_format_shape(buf, sizeof buf, s),
                            dmli_fe_format_shape(ref, sizeof ref, first), *axis, d);
        if (i)
            out->dims[*axis] += s->dims[*axis]; /* each below 2^32: no overflow */
    }
    return dmli_fe_check_shape(op, "output", out);
}

static HRESULT concat_body(const char *op, const dmlcl_concat_args *a, dmlcl_frontend_result *r)
{
    uint32_t axis = 0;
    dmlcl_shape out;
    DMLI_TRY(concat_check(op, a, &axis, &out));
    uint32_t n = a->input_count;
    DMLI_TRY(dmli_fe_reserve(op, r, n + 1, 1));
    for (uint32_t i = 0; i < n; ++i)
        dmli_fe_tensor(r, (int)i, a->inputs_type[0], &a->inputs[i]);
    *dmli_fe_output_shape(r, 0) = out;
    dmli_fe_outputs_done(r, 1);
    DMLCL_JOIN1_OPERATOR_DESC *d = &r->op.join1;
    d->InputCount = n;
    d->InputTensors = dmli_fe_tensors(r);
    d->OutputTensor = dmli_fe_tensor(r, (int)n, a->inputs_type[0], &out);
    d->Axis = axis;
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_JOIN1, d};
    return S_OK;
}

/* Runs a front-end's body; a failure frees what it reserved. */
static HRESULT finish(HRESULT hr, dmlcl_frontend_result *r)
{
    if (FAILED(hr))
        dmlcl_frontend_result_clear(r);
    return hr;
}

static const dmli_fe_versions ov_concat = {"OpenVINO", "Concat", 1, {1}, 1};
static const dmli_fe_versions onnx_concat = {"ONNX", "Concat", 4, {1, 4, 11, 13}, 13};

HRESULT dmlcl_openvino_concat(int opset, const dmlcl_openvino_concat_args *args,
                              dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("OpenVINO Concat", args, result));
    DMLI_TRY(dmli_fe_version(&ov_concat, opset, &version, op, sizeof op));
    return finish(concat_body(op, args, result), result);
}

HRESULT dmlcl_onnx_concat(int opset, const dmlcl_onnx_concat_args *args,
                          dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("ONNX Concat", args, result));
    DMLI_TRY(dmli_fe_version(&onnx_concat, opset, &version, op, sizeof op));
    return finish(concat_body(op, args, result), result);
}

/* ---- Split: the pieces' lengths, then the result ------------------------------------------ */

/* The result of a split of data along axis into count pieces of these lengths. */
static HRESULT split_result(const char *op, const dmlcl_shape *data, DML_TENSOR_DATA_TYPE type,
                            uint32_t axis, uint32_t count, const int64_t *lengths,
                            dmlcl_frontend_result *r)
{
    DMLI_TRY(dmli_fe_reserve(op, r, count + 1, count));
    DMLCL_SPLIT1_OPERATOR_DESC *d = &r->op.split1;
    d->InputTensor = dmli_fe_tensor(r, 0, type, data);
    for (uint32_t i = 0; i < count; ++i) {
        dmlcl_shape *s = dmli_fe_output_shape(r, i);
        *s = *data;
        s->dims[axis] = lengths[i];
        dmli_fe_tensor(r, (int)i + 1, type, s);
    }
    dmli_fe_outputs_done(r, count);
    d->OutputCount = count;
    d->OutputTensors = dmli_fe_tensors(r) + 1;
    d->Axis = axis;
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_SPLIT1, d};
    return S_OK;
}

static HRESULT check_data(const char *op, const char *what, const dmlcl_shape *s,
                          DML_TENSOR_DATA_TYPE type)
{
    DMLI_TRY(dmli_fe_check_shape(op, what, s));
    return dmli_fe_check_type(op, what, type);
}

/*
 * OpenVINO's axis input: one value of any integer type. Its shape follows
 * each operator's shape inference: Split-1 takes a scalar only (rank 0;
 * split_shape_inference.hpp), VariadicSplit-1 a scalar or shape {1}
 * (one_ok). NULL dims: a scalar.
 */
static HRESULT ov_axis(const char *op, const dmlcl_int_array *axis, const dmlcl_shape *dims,
                       bool one_ok, const dmlcl_shape *data, uint32_t *out)
{
    char buf[DMLI_DIMS_BUF];
    DMLI_NULL_IF(!axis, "%s: input axis (NULL) is required", op);
    DMLI_INVALID_IF(!dmli_fe_is_int_type(axis->type),
                    "%s: input axis has type %s; it must be an integer type", op,
                    dmli_type_name(axis->type));
    DMLI_INVALID_IF(dims && dims->rank != 0 && !one_ok,
                    "%s: input axis has shape %s (rank %u); it must be a scalar (rank 0)", op,
                    dmli_fe_format_shape(buf, sizeof buf, dims), dims->rank);
    DMLI_INVALID_IF(dims && dims->rank > 1,
                    "%s: input axis has shape %s (rank %u); it must be a scalar (or of shape {1})",
                    op, dmli_fe_format_shape(buf, sizeof buf, dims), dims->rank);
    DMLI_INVALID_IF(dims && dims->rank == 1 && dims->dims[0] != 1,
                    "%s: input axis has shape {%" PRId64 "}; it must hold one value", op,
                    dims->dims[0]);
    DMLI_INVALID_IF(axis->count != 1 || !axis->data,
                    "%s: input axis holds %" PRIu64 " values; it must hold exactly one", op,
                    axis->count);
    DMLI_INVALID_IF(axis->type == DML_TENSOR_DATA_TYPE_UINT64 &&
                        *(const uint64_t *)axis->data > (uint64_t)INT64_MAX,
                    "%s: axis (%" PRIu64 ") must be in [-rank(data), rank(data) - 1]", op,
                    *(const uint64_t *)axis->data);
    return normalise_axis(op, "data", dmli_fe_int_at(axis, 0), data->rank, out);
}

static const dmli_fe_versions ov_split = {"OpenVINO", "Split", 1, {1}, 1};
static const dmli_fe_versions ov_variadic_split = {"OpenVINO", "VariadicSplit", 1, {1}, 1};

static HRESULT ov_split_body(const char *op, const dmlcl_openvino_split_args *a,
                             dmlcl_frontend_result *r)
{
    uint32_t axis = 0;
    DMLI_TRY(check_data(op, "input data", a->data, a->data_type));
    DMLI_TRY(ov_axis(op, a->axis, a->axis_dims, false, a->data, &axis));
    int64_t dim = a->data->dims[axis], n = a->num_splits;
    DMLI_INVALID_IF(n < 1, "%s: num_splits (%" PRId64 ") must be at least 1", op, n);
    DMLI_UNSUPPORTED_IF(n > MAX_PIECES,
                        "%s: num_splits (%" PRId64 ") is more outputs than dmlcl binds for one "
                        "operator (%d)",
                        op, n, MAX_PIECES);
    DMLI_INVALID_IF(dim % n != 0,
                    "%s: data.shape[%u] (%" PRId64 ") must be evenly divisible by num_splits "
                    "(%" PRId64 ")",
                    op, axis, dim, n);
    int64_t lengths[MAX_PIECES];
    for (int64_t i = 0; i < n; ++i)
        lengths[i] = dim / n;
    return split_result(op, a->data, a->data_type, axis, (uint32_t)n, lengths, r);
}

HRESULT dmlcl_openvino_split(int opset, const dmlcl_openvino_split_args *args,
                             dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("OpenVINO Split", args, result));
    DMLI_TRY(dmli_fe_version(&ov_split, opset, &version, op, sizeof op));
    return finish(ov_split_body(op, args, result), result);
}

static HRESULT ov_variadic_body(const char *op, const dmlcl_openvino_variadic_split_args *a,
                                dmlcl_frontend_result *r)
{
    uint32_t axis = 0;
    DMLI_TRY(check_data(op, "input data", a->data, a->data_type));
    DMLI_TRY(ov_axis(op, a->axis, a->axis_dims, true, a->data, &axis));
    const dmlcl_int_array *sl = a->split_lengths;
    DMLI_TRY(dmli_fe_check_list(op, "split_lengths", sl, a->split_lengths_dims));
    int64_t dim = a->data->dims[axis], lengths[MAX_PIECES], sum = 0;
    /* No values, no outputs: OpenVINO's shape inference takes that on an empty
     * axis (the sum, 0, is its length), but SPLIT1 has at least one output. */
    DMLI_UNSUPPORTED_IF(sl->count == 0 && dim == 0,
                        "%s: input split_lengths has shape {0} (no outputs) on an empty axis "
                        "(data.shape[%u] is 0): valid, but dmlcl describes a split with at least "
                        "one output",
                        op, axis);
    DMLI_INVALID_IF(sl->count == 0,
                    "%s: input split_lengths has shape {0}, so its values sum to 0; they must "
                    "sum to data.shape[%u] (%" PRId64 ")",
                    op, axis, dim);
    DMLI_TRY(check_count(op, "split_lengths values (outputs)", sl->count));
    int64_t rest = -1; /* the -1 entry */
    for (uint32_t i = 0; i < sl->count; ++i) {
        int64_t v = dmli_fe_int_at(sl, i);
        DMLI_INVALID_IF(v < -1, "%s: split_lengths[%u] (%" PRId64 ") must be >= 0, or -1", op, i,
                        v);
        DMLI_INVALID_IF(v == -1 && rest >= 0,
                        "%s: split_lengths[%" PRId64 "] and split_lengths[%u] are both -1; at "
                        "most one value may be -1",
                        op, rest, i);
        if (v == -1)
            rest = i;
        else if (v > dim || (sum += v) > dim)
            sum = dim + 1; /* too long already: stays over dim without overflowing */
        lengths[i] = v;
    }
    if (rest >= 0) {
        DMLI_INVALID_IF(sum > dim,
                        "%s: split_lengths without its -1 entry sum past data.shape[%u] "
                        "(%" PRId64 "); the -1 entry takes what the others leave",
                        op, axis, dim);
        lengths[rest] = dim - sum;
    } else {
        DMLI_INVALID_IF(sum != dim,
                        "%s: split_lengths sum to %s%" PRId64 "; they must sum to "
                        "data.shape[%u] (%" PRId64 ")",
                        op, sum > dim ? "more than " : "", sum > dim ? dim : sum, axis, dim);
    }
    return split_result(op, a->data, a->data_type, axis, (uint32_t)sl->count, lengths, r);
}

HRESULT dmlcl_openvino_variadic_split(int opset, const dmlcl_openvino_variadic_split_args *args,
                                      dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("OpenVINO VariadicSplit", args, result));
    DMLI_TRY(dmli_fe_version(&ov_variadic_split, opset, &version, op, sizeof op));
    return finish(ov_variadic_body(op, args, result), result);
}

/* ---- ONNX Split ------------------------------------------------------------------------- */

static const dmli_fe_versions onnx_split = {"ONNX", "Split", 5, {1, 2, 11, 13, 18}, 13};

/* The explicit split input: INT64, 1-D, one length >= 0 per output, summing to dim. */
static HRESULT onnx_split_lengths(const char *op, const dmlcl_onnx_split_args *a, int64_t dim,
                                  uint32_t axis, int64_t *lengths, uint32_t *count)
{
    const dmlcl_int_array *s = a->split;
    DMLI_TRY(dmli_fe_check_list(op, "split", s, a->split_dims));
    DMLI_INVALID_IF(s->type != DML_TENSOR_DATA_TYPE_INT64,
                    "%s: input split has type %s; it must be INT64", op, dmli_type_name(s->type));
    DMLI_TRY(check_count(op, "split values (outputs)", s->count));
    DMLI_INVALID_IF(a->output_count && a->output_count != s->count,
                    "%s: input split has %" PRIu64 " values; it must have one per output (%u)", op,
                    s->count, a->output_count);
    int64_t sum = 0;
    for (uint32_t i = 0; i < s->count; ++i) {
        lengths[i] = dmli_fe_int_at(s, i);
        DMLI_INVALID_IF(lengths[i] < 0, "%s: split[%u] (%" PRId64 ") must be >= 0", op, i,
                        lengths[i]);
        sum = lengths[i] > dim || sum + lengths[i] > dim ? dim + 1 : sum + lengths[i];
    }
    DMLI_INVALID_IF(sum != dim,
                    "%s: split sums to %s%" PRId64 "; it must sum to input.shape[%u] (%" PRId64 ")",
                    op, sum > dim ? "more than " : "", sum > dim ? dim : sum, axis, dim);
    *count = (uint32_t)s->count;
    return S_OK;
}

/* Split-18's num_outputs: parts of ceil(dim / n), the last taking the rest. */
static HRESULT onnx_num_outputs(const char *op, const dmlcl_onnx_split_args *a, int64_t dim,
                                uint32_t axis, int64_t *lengths, uint32_t *count)
{
    int64_t n = a->num_outputs;
    DMLI_INVALID_IF(n < 1, "%s: num_outputs (%" PRId64 ") must be at least 1", op, n);
    DMLI_INVALID_IF(a->output_count && (uint64_t)n != a->output_count,
                    "%s: num_outputs (%" PRId64 ") must equal the number of outputs (%u)", op, n,
                    a->output_count);
    DMLI_TRY(check_count(op, "outputs (num_outputs)", (uint64_t)n));
    int64_t chunk = (dim + n - 1) / n, last = dim - chunk * (n - 1);
    DMLI_INVALID_IF(last < 0,
                    "%s: input.shape[%u] (%" PRId64 ") cannot be split into num_outputs (%" PRId64
                    ") parts of ceil(%" PRId64 " / %" PRId64 ") = %" PRId64
                    ": the last part would have %" PRId64 " elements",
                    op, axis, dim, n, dim, n, chunk, last);
    for (int64_t i = 0; i < n; ++i)
        lengths[i] = i + 1 < n ? chunk : last;
    *count = (uint32_t)n;
    return S_OK;
}

static HRESULT onnx_split_body(const char *op, int version, const dmlcl_onnx_split_args *a,
                               dmlcl_frontend_result *r)
{
    uint32_t axis = 0, count = 0;
    DMLI_TRY(check_data(op, "input", a->input, a->input_type));
    DMLI_TRY(normalise_axis(op, "input", a->axis, a->input->rank, &axis));
    int64_t dim = a->input->dims[axis], lengths[MAX_PIECES];
    DMLI_INVALID_IF(version < 18 && a->num_outputs != 0,
                    "%s: attribute num_outputs (%" PRId64 ") comes with Split-18 (opset 18)", op,
                    a->num_outputs);
    DMLI_INVALID_IF(a->split && a->num_outputs != 0,
                    "%s: input split and attribute num_outputs (%" PRId64 ") are both given; "
                    "give one, not both",
                    op, a->num_outputs);
    if (a->split) {
        DMLI_TRY(onnx_split_lengths(op, a, dim, axis, lengths, &count));
    } else if (a->num_outputs != 0) {
        DMLI_TRY(onnx_num_outputs(op, a, dim, axis, lengths, &count));
    } else {
        DMLI_INVALID_IF(version >= 18,
                        "%s: neither input split nor attribute num_outputs is given; one must be",
                        op);
        DMLI_TRY(check_count(op, "outputs (output_count)", a->output_count));
        count = a->output_count;
        DMLI_INVALID_IF(dim % count != 0,
                        "%s: input.shape[%u] (%" PRId64 ") must divide into %u equal parts (the "
                        "number of outputs) when split is absent",
                        op, axis, dim, count);
        for (uint32_t i = 0; i < count; ++i)
            lengths[i] = dim / count;
    }
    return split_result(op, a->input, a->input_type, axis, count, lengths, r);
}

HRESULT dmlcl_onnx_split(int opset, const dmlcl_onnx_split_args *args,
                         dmlcl_frontend_result *result)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_begin("ONNX Split", args, result));
    DMLI_TRY(dmli_fe_version(&onnx_split, opset, &version, op, sizeof op));
    return finish(onnx_split_body(op, version, args, result), result);
}
