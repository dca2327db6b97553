/* SPDX-License-Identifier: MIT */
/*
 * Front-ends on DMLCL_OPERATOR_STRIDED_SLICE: OpenVINO StridedSlice-1 and
 * ONNX Slice-13. Both check their framework's rules with the framework's
 * names, resolve the output shape with the operator's own rules
 * (ops/strided_slice.h), and describe packed tensors; 0-D tensors become {1}.
 *
 * Where StridedSlice-1's text and OpenVINO disagree, the text wins when it is
 * explicit (masks of different lengths: OpenVINO refuses them), else
 * OpenVINO's behaviour decides (begin == end is empty, a begin below the
 * start with a negative stride clamps to element 0, a begin_mask on a shrunk
 * axis takes element 0). ONNX Slice follows onnx.reference, i.e. numpy's
 * slice clamping (a start below the beginning with a negative step is empty).
 */

#include "frontends/common.h"
#include "ops/strided_slice.h"

#define MAX_RANK DMLCL_TENSOR_DIMENSION_COUNT_MAX
#define MAX_ENTRIES DMLCL_STRIDED_SLICE_MAX_ENTRIES

/* ---- Shared checks ----------------------------------------------------------------------- */

/* data: a shape dmlcl describes, of a type it moves. */
static HRESULT check_data(const char *op, DML_TENSOR_DATA_TYPE type, const dmlcl_shape *s)
{
    DMLI_TRY(dmli_fe_check_shape(op, "input data", s));
    return dmli_fe_check_type(op, "data", type);
}

static HRESULT same_length(const char *op, const char *name, const dmlcl_int_array *a,
                           const char *ref_name, const dmlcl_int_array *ref)
{
    DMLI_INVALID_IF(a->count != ref->count,
                    "%s: input %s has %llu values; it must have as many as %s (%llu)", op, name,
                    (unsigned long long)a->count, ref_name, (unsigned long long)ref->count);
    return S_OK;
}

/* Packed tensors for data and the output (0-D as {1}), and the descriptor's lists. */
static void describe(DML_TENSOR_DATA_TYPE type, const dmlcl_shape *data, dmlcl_frontend_result *r)
{
    DMLCL_STRIDED_SLICE_OPERATOR_DESC *d = &r->op.strided_slice;
    d->InputTensor = dmli_fe_tensor(r, 0, type, data);
    d->OutputTensor = dmli_fe_tensor(r, 1, type, &r->output_shape);
    d->Begin = r->begin;
    d->End = r->end;
    d->Strides = r->strides;
    d->BeginMask = r->masks[DMLI_SS_BEGIN_MASK];
    d->EndMask = r->masks[DMLI_SS_END_MASK];
    d->NewAxisMask = r->masks[DMLI_SS_NEW_AXIS_MASK];
    d->ShrinkAxisMask = r->masks[DMLI_SS_SHRINK_AXIS_MASK];
    d->EllipsisMask = r->masks[DMLI_SS_ELLIPSIS_MASK];
    r->desc = (DML_OPERATOR_DESC){DMLCL_OPERATOR_STRIDED_SLICE, d};
}

/* The framework's shape from a resolution. */
static void output_shape(const dmli_ss_result *res, dmlcl_shape *out)
{
    out->rank = res->out_rank;
    for (uint32_t i = 0; i < res->out_rank; ++i)
        out->dims[i] = (int64_t)res->out_sizes[i];
}

/* ---- OpenVINO StridedSlice-1 ----------------------------------------------------------------- */

/* StridedSlice-1 is the one version (dmli_fe_version refuses opsets before it): a literal name. */
#define OV "OpenVINO StridedSlice-1"
static const dmli_fe_versions ov_strided_slice = {"OpenVINO", "StridedSlice", 1, {1}, 1};

static const dmli_ss_names ov_names = {
    OV,
    "begin",
    "end",
    "stride",
    {"begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"},
};

static HRESULT read_mask(int m, const dmlcl_int_array *a, uint64_t count, UINT *out)
{
    const char *name = ov_names.mask[m];
    uint64_t n = a ? a->count : 0;
    if (a) {
        DMLI_INVALID_IF(!dmli_fe_is_int_type(a->type),
                        OV ": attribute %s has type %s; it must be a list of integers", name,
                        dmli_type_name(a->type));
        DMLI_INVALID_IF(n && !a->data, OV ": attribute %s data (NULL) must hold %llu values", name,
                        (unsigned long long)n);
    }
    for (uint64_t i = 0; i < n; ++i) {
        int64_t v = dmli_fe_int_at(a, i);
        DMLI_INVALID_IF(v != 0 && v != 1, OV ": %s[%llu] (%lld) must be 0 or 1", name,
                        (unsigned long long)i, (long long)v);
    }
    for (uint64_t i = 0; out && i < count; ++i)
        out[i] = i < n ? (UINT)dmli_fe_int_at(a, i) : 0;
    return S_OK;
}

/*
 * More entries than the result can hold: either more take input dimensions
 * than data has (invalid) or the output would exceed MAX_RANK (unsupported).
 */
static HRESULT too_many_entries(const dmlcl_openvino_strided_slice_args *a, uint64_t count)
{
    const dmlcl_int_array *el = a->ellipsis_mask, *na = a->new_axis_mask;
    uint64_t taken = 0;
    for (uint64_t i = 0; i < count; ++i) {
        bool is_el = el && i < el->count && dmli_fe_int_at(el, i);
        bool is_na = na && i < na->count && dmli_fe_int_at(na, i);
        taken += !is_el && !is_na;
    }
    DMLI_INVALID_IF(taken > a->data->rank,
                    OV ": %llu entries of begin/end/stride take input dimensions (entries that "
                       "are neither a new axis nor the ellipsis), more than data's %u",
                    (unsigned long long)taken, a->data->rank);
    return dmli_fail(DXGI_ERROR_UNSUPPORTED,
                     OV ": begin has %llu entries; the output would have more than %d "
                        "dimensions, more than dmlcl supports",
                     (unsigned long long)count, MAX_RANK);
}

static HRESULT ov_read(const dmlcl_openvino_strided_slice_args *a, dmlcl_frontend_result *r)
{
    DMLI_TRY(dmli_fe_check_list(OV, "begin", a->begin, a->begin_dims));
    DMLI_TRY(dmli_fe_check_list(OV, "end", a->end, a->end_dims));
    DMLI_TRY(same_length(OV, "end", a->end, "begin", a->begin));
    if (a->stride) {
        DMLI_TRY(dmli_fe_check_list(OV, "stride", a->stride, a->stride_dims));
        DMLI_TRY(same_length(OV, "stride", a->stride, "begin", a->begin));
    }
    const dmlcl_int_array *masks[DMLI_SS_MASKS] = {a->begin_mask, a->end_mask, a->new_axis_mask,
                                                   a->shrink_axis_mask, a->ellipsis_mask};
    uint64_t count = a->begin->count;
    bool fits = count <= MAX_ENTRIES;
    for (int m = 0; m < DMLI_SS_MASKS; ++m)
        DMLI_TRY(read_mask(m, masks[m], count, fits ? r->masks[m] : NULL));
    if (!fits)
        return too_many_entries(a, count);
    for (uint64_t i = 0; i < count; ++i) {
        r->begin[i] = dmli_fe_int_at(a->begin, i);
        r->end[i] = dmli_fe_int_at(a->end, i);
        r->strides[i] = a->stride ? dmli_fe_int_at(a->stride, i) : 1;
    }
    r->op.strided_slice.SliceCount = (UINT)count;
    return S_OK;
}

/*
 * A 0-D data is described as {1}: the entry that stood for its (empty)
 * ellipsis, or a new one at the end, shrinks that dimension away again.
 */
static void ov_scalar_entries(dmlcl_frontend_result *r)
{
    UINT k = r->op.strided_slice.SliceCount;
    for (UINT i = 0; i < r->op.strided_slice.SliceCount; ++i)
        if (r->masks[DMLI_SS_ELLIPSIS_MASK][i])
            k = i;
    if (k == r->op.strided_slice.SliceCount)
        ++r->op.strided_slice.SliceCount;
    for (int m = 0; m < DMLI_SS_MASKS; ++m)
        r->masks[m][k] = m == DMLI_SS_SHRINK_AXIS_MASK;
    r->begin[k] = r->end[k] = 0;
    r->strides[k] = 1;
}

HRESULT dmlcl_openvino_strided_slice(int opset, const dmlcl_openvino_strided_slice_args *a,
                                     dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&ov_strided_slice, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(OV, a, r));
    DMLI_TRY(check_data(OV, a->data_type, a->data));
    DMLI_TRY(ov_read(a, r));
    uint64_t dims[MAX_RANK];
    for (uint32_t i = 0; i < a->data->rank; ++i)
        dims[i] = (uint64_t)a->data->dims[i];
    dmli_ss_lists lists = {r->op.strided_slice.SliceCount, r->begin, r->end, r->strides, {NULL}};
    for (int m = 0; m < DMLI_SS_MASKS; ++m)
        lists.mask[m] = r->masks[m];
    dmli_ss_result res;
    DMLI_TRY(dmli_ss_resolve(&ov_names, a->data->rank, dims, &lists, &res));
    output_shape(&res, &r->output_shape);
    if (a->data->rank == 0)
        ov_scalar_entries(r);
    describe(a->data_type, a->data, r);
    return S_OK;
}

/* ---- ONNX Slice-13 ------------------------------------------------------------------------- */

/* Slice-13 is the one version dmlcl implements (dmli_fe_version refuses the others). */
#define ONNX "ONNX Slice-13"
static const dmli_fe_versions onnx_slice = {"ONNX", "Slice", 4, {1, 10, 11, 13}, 13};

static HRESULT onnx_list(const char *name, const dmlcl_int_array *a, const dmlcl_shape *dims,
                         const dmlcl_int_array *starts)
{
    DMLI_TRY(dmli_fe_check_list(ONNX, name, a, dims));
    DMLI_INVALID_IF(a->type != DML_TENSOR_DATA_TYPE_INT32 && a->type != DML_TENSOR_DATA_TYPE_INT64,
                    ONNX ": input %s has type %s; it must be INT32 or INT64", name,
                    dmli_type_name(a->type));
    if (a == starts)
        return S_OK;
    DMLI_INVALID_IF(a->type != starts->type,
                    ONNX ": input %s has type %s and starts %s; they share one type (Tind)", name,
                    dmli_type_name(a->type), dmli_type_name(starts->type));
    return same_length(ONNX, name, a, "starts", starts);
}

/*
 * The dimension each entry slices, normalised; no dimension twice. With more
 * entries than dimensions the loop fails by entry `rank` at the latest.
 */
static HRESULT onnx_axes(const dmlcl_onnx_slice_args *a, uint32_t rank, uint32_t *axes)
{
    uint64_t n = a->starts->count;
    int seen[MAX_RANK];
    for (uint32_t d = 0; d < MAX_RANK; ++d)
        seen[d] = -1;
    for (uint64_t i = 0; i < n; ++i) {
        int64_t v = a->axes ? dmli_fe_int_at(a->axes, i) : (int64_t)i;
        DMLI_INVALID_IF(v < -(int64_t)rank || v >= (int64_t)rank,
                        ONNX ": axes[%llu] (%lld) must be in [-%u, %d] (data has rank %u)",
                        (unsigned long long)i, (long long)v, rank, (int)rank - 1, rank);
        uint32_t d = (uint32_t)(v < 0 ? v + rank : v);
        DMLI_INVALID_IF(seen[d] >= 0,
                        ONNX ": axes[%llu] (%lld) names data axis %u again (axes[%d]); each "
                             "axis may be sliced once",
                        (unsigned long long)i, (long long)v, d, seen[d]);
        seen[d] = (int)i;
        axes[i] = d;
    }
    return S_OK;
}

/* numpy's slice.indices: the first element and the count for start:stop:step on d elements. */
static uint64_t numpy_slice(int64_t start, int64_t stop, int64_t step, int64_t d, int64_t *first)
{
    bool rev = step < 0;
    int64_t lo = rev ? -1 : 0, hi = rev ? d - 1 : d;
    if (start < 0)
        start = start < -d ? lo : start + d;
    else if (start > hi)
        start = hi;
    if (stop < 0)
        stop = stop < -d ? lo : stop + d;
    else if (stop > hi)
        stop = hi;
    *first = start;
    if (rev)
        return start > stop ? (uint64_t)(start - stop - 1) / (0 - (uint64_t)step) + 1 : 0;
    return stop > start ? (uint64_t)(stop - start - 1) / (uint64_t)step + 1 : 0;
}

/* One StridedSlice entry that takes exactly count elements from first by step. */
static void onnx_entry(dmlcl_frontend_result *r, uint32_t d, int64_t first, uint64_t count,
                       int64_t step)
{
    if (count == 0) {
        r->begin[d] = r->end[d] = 0;
        r->strides[d] = 1;
        return;
    }
    /* Here first is inside the dimension and (count - 1) * step stays inside it too. */
    int64_t last = first + (int64_t)(count - 1) * step;
    r->begin[d] = first;
    r->strides[d] = step;
    if (step > 0)
        r->end[d] = last + 1;
    else if (last > 0)
        r->end[d] = last - 1;
    else
        r->masks[DMLI_SS_END_MASK][d] = 1; /* through element 0: no end value says that */
}

static HRESULT onnx_read(const dmlcl_onnx_slice_args *a)
{
    DMLI_TRY(onnx_list("starts", a->starts, a->starts_dims, a->starts));
    DMLI_TRY(onnx_list("ends", a->ends, a->ends_dims, a->starts));
    if (a->axes)
        DMLI_TRY(onnx_list("axes", a->axes, a->axes_dims, a->starts));
    if (a->steps)
        DMLI_TRY(onnx_list("steps", a->steps, a->steps_dims, a->starts));
    for (uint64_t i = 0; a->steps && i < a->steps->count; ++i)
        DMLI_INVALID_IF(dmli_fe_int_at(a->steps, i) == 0, ONNX ": steps[%llu] (0) must not be 0",
                        (unsigned long long)i);
    return S_OK;
}

HRESULT dmlcl_onnx_slice(int opset, const dmlcl_onnx_slice_args *a, dmlcl_frontend_result *r)
{
    char op[DMLI_FE_OP_NAME];
    int version;
    DMLI_TRY(dmli_fe_version(&onnx_slice, opset, &version, op, sizeof op));
    DMLI_TRY(dmli_fe_begin(ONNX, a, r));
    DMLI_TRY(check_data(ONNX, a->data_type, a->data));
    DMLI_TRY(onnx_read(a));
    uint32_t rank = a->data->rank, axes[MAX_RANK];
    DMLI_INVALID_IF(a->starts->count > rank && !a->axes,
                    ONNX ": starts has %llu values and axes is absent, so they slice axes 0.."
                         "%llu, but data has rank %u",
                    (unsigned long long)a->starts->count, (unsigned long long)a->starts->count - 1,
                    rank);
    DMLI_TRY(onnx_axes(a, rank, axes));
    r->output_shape = *a->data;
    /* Every dimension whole, then the sliced ones. */
    for (uint32_t d = 0; d < rank; ++d) {
        r->masks[DMLI_SS_BEGIN_MASK][d] = r->masks[DMLI_SS_END_MASK][d] = 1;
        r->strides[d] = 1;
    }
    for (uint64_t i = 0; i < a->starts->count; ++i) {
        uint32_t d = axes[i];
        int64_t step = a->steps ? dmli_fe_int_at(a->steps, i) : 1, first;
        uint64_t count = numpy_slice(dmli_fe_int_at(a->starts, i), dmli_fe_int_at(a->ends, i), step,
                                     a->data->dims[d], &first);
        r->masks[DMLI_SS_BEGIN_MASK][d] = r->masks[DMLI_SS_END_MASK][d] = 0;
        onnx_entry(r, d, first, count, step);
        r->output_shape.dims[d] = (int64_t)count;
    }
    r->op.strided_slice.SliceCount = rank;
    describe(a->data_type, a->data, r);
    return S_OK;
}
