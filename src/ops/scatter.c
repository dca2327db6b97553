/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_SCATTER_ELEMENTS (DML_OPERATOR_SCATTER is the same value) and
 * DML_OPERATOR_SCATTER_ND: the output is InputTensor with UpdatesTensor's elements written
 * where IndicesTensor says.
 *
 *   ELEMENTS: output[c with c[Axis] = indices[c]] = updates[c], c over the updates' coordinates
 *   ND:       output[indices[t, 0..m), e...] = updates[t, e...], t over the index tuples
 *             (the meaningful IndicesTensor dimensions but the last, of length m), e over the
 *             InputTensor dimensions after the m indexed ones
 *
 * The pages' rules (feature level 4.1's tables, the newest: the eleven DirectML types of 8 to
 * 64 bits, INT32, UINT32, INT64 or UINT64 indices, 1 to 8 dimensions): every tensor of the
 * input's DimensionCount; UpdatesTensor and OutputTensor of the input's DataType; OutputTensor
 * of the input's Sizes; ELEMENTS: IndicesTensor.Sizes the input's but along Axis,
 * UpdatesTensor.Sizes the indices'; ND: the meaningful dimension counts as GATHER_ND's, the
 * updates' Sizes the indices' meaningful leading sizes then the input's trailing ones,
 * right-aligned after 1s. Where the pages are silent (docs/operators.md): indices resolve as
 * the DirectML gathers' (negative ones of a signed type count from the end of their axis,
 * then every index is clamped into it, so no write leaves the output); of updates meeting at
 * one output element the last in row-major order of the updates wins; no input shares the
 * output's range (the pages list no in-place execution).
 *
 * Lowers to the scatter family (scatter.h): the copy of the input, then one kernel parallel
 * over the output coordinates no index names and walking the rest in order.
 */
#include "scatter.h"
#include "ops/common.h"

static const char *const slot_names[] = {"InputTensor", "IndicesTensor", "UpdatesTensor"};

/* The tables list neither 4-bit type (DML_FEATURE_LEVEL_6_3's): invalid here, where the tensor
 * rules would call them unsupported (dmlcl moves no 4-bit elements anywhere). */
static HRESULT check_table(const char *op, const char *field, const DML_TENSOR_DESC *t,
                           bool indices)
{
    if (!t || t->Type != DML_TENSOR_TYPE_BUFFER || !t->Desc)
        return S_OK; /* the tensor rules say what is wrong */
    const DML_BUFFER_TENSOR_DESC *b = t->Desc;
    DMLI_INVALID_IF(
        b->DataType == DML_TENSOR_DATA_TYPE_UINT4 || b->DataType == DML_TENSOR_DATA_TYPE_INT4,
        "%s: %s.DataType (%s) is not in the operator's table (%s)", op, field,
        dmli_type_name(b->DataType),
        indices ? "INT32, UINT32, INT64, UINT64"
                : "FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, "
                  "UINT16, UINT8");
    return S_OK;
}

/* The four tensors imported and their common rules (both operators). */
static HRESULT import_all(const char *op, const DML_TENSOR_DESC *const *descs, dmli_op_state *st,
                          dmli_index_type *type)
{
    for (int i = 0; i < 3; ++i)
        DMLI_TRY(check_table(op, slot_names[i], descs[i], i == 1));
    DMLI_TRY(check_table(op, "OutputTensor", descs[3], false));
    dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *upd = &st->inputs[2];
    dmli_tensor *out = &st->outputs[0];
    for (int i = 0; i < 3; ++i)
        DMLI_TRY(
            dmli_tensor_import(op, slot_names[i], descs[i], DMLI_TENSOR_INPUT, &st->inputs[i]));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", descs[3], DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_rank(op, "IndicesTensor", idx, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "UpdatesTensor", upd, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(op, "UpdatesTensor", upd, "InputTensor", in));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_TRY(dmli_ops_index_type(op, "IndicesTensor", idx->type, type));
    st->n_inputs = 3;
    st->n_outputs = 1;
    for (int i = 0; i < 3; ++i)
        st->input_names[i] = slot_names[i];
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

/* The computed operator and its description: the copy of the whole input first. */
static dmli_scatter *start(dmli_op_state *st, dmli_index_type type)
{
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_SCATTER);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, false, 1);
    dmli_compute_add(c, st, false, 2);
    dmli_compute_add(c, st, true, 0);
    dmli_scatter *s = DMLI_COMPUTE_WORK(c, dmli_scatter);
    s->elem_bytes = in->elem_bytes;
    s->idx_type = type;
    s->copy_rank = (int)out->rank;
    for (uint32_t d = 0; d < out->rank; ++d) {
        s->copy_size[d] = (int64_t)out->sizes[d];
        s->copy_os[d] = out->strides[d];
        s->copy_is[d] = in->strides[d];
    }
    return s;
}

/* ---- SCATTER_ELEMENTS ------------------------------------------------------------------ */

#define ELEMENTS "SCATTER_ELEMENTS"

typedef struct elements_scratch {
    dmli_index_type type;
} elements_scratch;

static HRESULT elements_validate(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ELEMENTS_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *descs[4] = {d->InputTensor, d->IndicesTensor, d->UpdatesTensor,
                                       d->OutputTensor};
    DMLI_TRY(import_all(ELEMENTS, descs, st, &DMLI_OP_SCRATCH(st, elements_scratch)->type));
    DMLI_INVALID_IF(d->Axis >= st->inputs[0].rank,
                    ELEMENTS ": Axis (%u) must be less than InputTensor.DimensionCount (%u)",
                    d->Axis, st->inputs[0].rank);
    return S_OK;
}

static HRESULT elements_infer(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ELEMENTS_OPERATOR_DESC *d = desc;
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *upd = &st->inputs[2];
    for (uint32_t i = 0; i < in->rank; ++i)
        DMLI_INVALID_IF(i != d->Axis && idx->sizes[i] != in->sizes[i],
                        ELEMENTS ": IndicesTensor.Sizes[%u] (%llu) must equal InputTensor.Sizes"
                                 "[%u] (%llu): only the Axis (%u) dimension may differ",
                        i, (unsigned long long)idx->sizes[i], i, (unsigned long long)in->sizes[i],
                        d->Axis);
    DMLI_TRY(
        dmli_ops_expect_sizes(ELEMENTS, "UpdatesTensor", upd, idx->sizes, "IndicesTensor.Sizes"));
    return dmli_ops_expect_sizes(ELEMENTS, "OutputTensor", &st->outputs[0], in->sizes,
                                 "InputTensor.Sizes");
}

/* Parallel over every dimension but Axis (the updates' coordinates there are the output's),
 * walking Axis: its indices are the only ones that can meet. */
static void elements_lower(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ELEMENTS_OPERATOR_DESC *d = desc;
    const dmli_tensor *idx = &st->inputs[1], *upd = &st->inputs[2], *out = &st->outputs[0];
    dmli_scatter *s = start(st, DMLI_OP_SCRATCH(st, elements_scratch)->type);
    for (uint32_t i = 0; i < out->rank; ++i)
        dmli_scatter_push(s, i == d->Axis, (int64_t)idx->sizes[i], upd->strides[i], idx->strides[i],
                          i == d->Axis ? 0 : out->strides[i]);
    s->components = 1;
    s->comp_xs = 0;
    s->axis_size[0] = (int64_t)out->sizes[d->Axis];
    s->axis_os[0] = out->strides[d->Axis];
    dmli_scatter_normalize(s);
}

/* ---- SCATTER_ND ------------------------------------------------------------------------- */

#define ND "SCATTER_ND"

typedef struct nd_scratch {
    dmli_index_type type;
    int upos[2 * DMLI_MAX_RANK]; /* the updates' dimension of each shape-rule entry, or -1 */
} nd_scratch;

/* GATHER_ND's rules for the meaningful dimensions (pages: InputDimensionCount and
 * IndicesDimensionCount in [1, DimensionCount], the leading ones 1) and the tuple length. */
static HRESULT nd_counts(const DML_SCATTER_ND_OPERATOR_DESC *d, const dmli_tensor *in,
                         const dmli_tensor *idx)
{
    DMLI_INVALID_IF(d->InputDimensionCount < 1 || d->InputDimensionCount > in->rank,
                    ND ": InputDimensionCount (%u) must be in [1, InputTensor.DimensionCount "
                       "(%u)]",
                    d->InputDimensionCount, in->rank);
    DMLI_INVALID_IF(d->IndicesDimensionCount < 1 || d->IndicesDimensionCount > idx->rank,
                    ND ": IndicesDimensionCount (%u) must be in [1, IndicesTensor.DimensionCount "
                       "(%u)]",
                    d->IndicesDimensionCount, idx->rank);
    for (uint32_t i = 0; i + d->InputDimensionCount < in->rank; ++i)
        DMLI_INVALID_IF(in->sizes[i] != 1,
                        ND ": InputTensor.Sizes[%u] (%llu) must be 1: only the last "
                           "InputDimensionCount (%u) dimensions are meaningful",
                        i, (unsigned long long)in->sizes[i], d->InputDimensionCount);
    for (uint32_t i = 0; i + d->IndicesDimensionCount < idx->rank; ++i)
        DMLI_INVALID_IF(idx->sizes[i] != 1,
                        ND ": IndicesTensor.Sizes[%u] (%llu) must be 1: only the last "
                           "IndicesDimensionCount (%u) dimensions are meaningful",
                        i, (unsigned long long)idx->sizes[i], d->IndicesDimensionCount);
    uint64_t m = idx->sizes[idx->rank - 1];
    DMLI_INVALID_IF(m > d->InputDimensionCount,
                    ND ": IndicesTensor.Sizes[%u] (%llu), the coordinate tuple length, must be "
                       "at most InputDimensionCount (%u)",
                    idx->rank - 1, (unsigned long long)m, d->InputDimensionCount);
    return S_OK;
}

static HRESULT nd_validate(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ND_OPERATOR_DESC *d = desc;
    const DML_TENSOR_DESC *descs[4] = {d->InputTensor, d->IndicesTensor, d->UpdatesTensor,
                                       d->OutputTensor};
    DMLI_TRY(import_all(ND, descs, st, &DMLI_OP_SCRATCH(st, nd_scratch)->type));
    return nd_counts(d, &st->inputs[0], &st->inputs[1]);
}

/* UpdatesTensor.Sizes: the meaningful indices sizes but the last, then the input's after the m
 * indexed dimensions, right-aligned after 1s; an entry past the DimensionCount must be 1. */
static HRESULT nd_infer(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ND_OPERATOR_DESC *d = desc;
    nd_scratch *s = DMLI_OP_SCRATCH(st, nd_scratch);
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *upd = &st->inputs[2];
    uint32_t ip = in->rank - d->InputDimensionCount, xp = idx->rank - d->IndicesDimensionCount;
    uint32_t m = (uint32_t)idx->sizes[idx->rank - 1];
    uint64_t list[2 * DMLI_MAX_RANK], want[DMLI_MAX_RANK];
    int n = 0, r = (int)upd->rank;
    for (uint32_t j = xp; j + 1 < idx->rank; ++j)
        list[n++] = idx->sizes[j];
    for (uint32_t i = ip + m; i < in->rank; ++i)
        list[n++] = in->sizes[i];
    for (int i = 0; i < r; ++i)
        want[i] = 1;
    for (int e = n - 1; e >= 0; --e) {
        int at = r - n + e;
        s->upos[e] = at;
        if (at >= 0) {
            want[at] = list[e];
            continue;
        }
        char got[DMLI_DIMS_BUF];
        DMLI_INVALID_IF(list[e] != 1,
                        ND ": UpdatesTensor.DimensionCount (%u) is too small: its Sizes must end "
                           "in the %d sizes %s (the meaningful IndicesTensor.Sizes but the last, "
                           "then InputTensor.Sizes after the %u indexed dimensions)",
                        upd->rank, n, dmli_format_dims(got, sizeof got, (uint32_t)n, list), m);
        s->upos[e] = -1;
    }
    DMLI_TRY(dmli_ops_expect_sizes(ND, "UpdatesTensor", upd, want,
                                   "the meaningful IndicesTensor.Sizes but the last, then "
                                   "InputTensor.Sizes after the indexed dimensions, "
                                   "right-aligned after 1s"));
    return dmli_ops_expect_sizes(ND, "OutputTensor", &st->outputs[0], in->sizes,
                                 "InputTensor.Sizes");
}

/* Parallel over the slice (the input's dimensions after the indexed ones), walking the index
 * tuples in row-major order: tuples naming one element meet only at the same slice position. */
static void nd_lower(const void *desc, dmli_op_state *st)
{
    const DML_SCATTER_ND_OPERATOR_DESC *d = desc;
    const nd_scratch *ns = DMLI_OP_SCRATCH(st, nd_scratch);
    const dmli_tensor *in = &st->inputs[0], *idx = &st->inputs[1], *upd = &st->inputs[2];
    const dmli_tensor *out = &st->outputs[0];
    uint32_t ip = in->rank - d->InputDimensionCount, xp = idx->rank - d->IndicesDimensionCount;
    uint32_t last = idx->rank - 1, m = (uint32_t)idx->sizes[last];
    dmli_scatter *s = start(st, ns->type);
    int e = 0;
    for (uint32_t j = xp; j < last; ++j, ++e)
        if (ns->upos[e] >= 0)
            dmli_scatter_push(s, true, (int64_t)idx->sizes[j], upd->strides[ns->upos[e]],
                              idx->strides[j], 0);
    for (uint32_t i = ip + m; i < in->rank; ++i, ++e)
        if (ns->upos[e] >= 0)
            dmli_scatter_push(s, false, (int64_t)in->sizes[i], upd->strides[ns->upos[e]], 0,
                              out->strides[i]);
    s->components = (int)m;
    s->comp_xs = idx->strides[last];
    for (uint32_t k = 0; k < m; ++k) {
        s->axis_size[k] = (int64_t)out->sizes[ip + k];
        s->axis_os[k] = out->strides[ip + k];
    }
    dmli_scatter_normalize(s);
}

const dmli_op_steps dmli_op_scatter_elements = {
    .validate = elements_validate, .infer = elements_infer, .lower = elements_lower};
const dmli_op_steps dmli_op_scatter_nd = {
    .validate = nd_validate, .infer = nd_infer, .lower = nd_lower};
