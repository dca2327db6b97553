/* SPDX-License-Identifier: MIT */
/*
 * DMLCL_OPERATOR_STRIDED_SLICE: OpenVINO's StridedSlice-1 as a descriptor
 * (dmlcl/ext_slice.h), and the list resolution the slice front-ends share.
 * Lowers to the strided view copy: the offset of the first selected element,
 * input strides times the steps (negative: reversed), new axes as size-1
 * dimensions, shrunk axes in the offset only.
 */
#include "ops/strided_slice.h"
#include "checked.h"
#include "ops/common.h"

#define OP "STRIDED_SLICE"

static bool mask_at(const dmli_ss_lists *l, int m, uint32_t i)
{
    return l->mask[m] && l->mask[m][i] != 0;
}

/* What entry i is, by precedence: ellipsis, new axis, shrunk axis, slice. */
enum entry_kind { ENTRY_ELLIPSIS, ENTRY_NEW_AXIS, ENTRY_SHRINK, ENTRY_SLICE };

static enum entry_kind entry_kind(const dmli_ss_lists *l, uint32_t i)
{
    if (mask_at(l, DMLI_SS_ELLIPSIS_MASK, i))
        return ENTRY_ELLIPSIS;
    if (mask_at(l, DMLI_SS_NEW_AXIS_MASK, i))
        return ENTRY_NEW_AXIS;
    if (mask_at(l, DMLI_SS_SHRINK_AXIS_MASK, i))
        return ENTRY_SHRINK;
    return ENTRY_SLICE;
}

/* Mask values, the single ellipsis, and how many dimensions the entries take and add. */
static HRESULT check_counts(const dmli_ss_names *n, uint32_t rank, const dmli_ss_lists *l,
                            uint32_t *taken, uint32_t *out_rank)
{
    for (int m = 0; m < DMLI_SS_MASKS; ++m)
        for (uint32_t i = 0; l->mask[m] && i < l->count; ++i)
            DMLI_INVALID_IF(l->mask[m][i] > 1, "%s: %s[%u] (%u) must be 0 or 1", n->op, n->mask[m],
                            i, l->mask[m][i]);
    uint32_t ellipses = 0, first = 0, added = 0, shrunk = 0;
    *taken = 0;
    for (uint32_t i = 0; i < l->count; ++i) {
        switch (entry_kind(l, i)) {
        case ENTRY_ELLIPSIS:
            DMLI_INVALID_IF(ellipses,
                            "%s: %s has a 1 at entries %u and %u; at most one ellipsis "
                            "is allowed",
                            n->op, n->mask[DMLI_SS_ELLIPSIS_MASK], first, i);
            first = i;
            ++ellipses;
            break;
        case ENTRY_NEW_AXIS: ++added; break;
        case ENTRY_SHRINK: ++shrunk, ++*taken; break;
        case ENTRY_SLICE: ++*taken; break;
        }
    }
    DMLI_INVALID_IF(*taken > rank,
                    "%s: %u entries of %s/%s/%s take input dimensions (entries that are "
                    "neither a new axis nor the ellipsis), more than the input's %u",
                    n->op, *taken, n->begin, n->end, n->strides, rank);
    *out_rank = rank - shrunk + added;
    DMLI_UNSUPPORTED_IF(*out_rank > DMLI_MAX_RANK,
                        "%s: the output would have %u dimensions (%u input - %u shrunk + %u new "
                        "axes); dmlcl supports up to %d",
                        n->op, *out_rank, rank, shrunk, added, DMLI_MAX_RANK);
    return S_OK;
}

static HRESULT resolve_shrink(const dmli_ss_names *n, const dmli_ss_lists *l, uint32_t i,
                              uint32_t j, int64_t d, dmli_ss_result *r)
{
    int64_t b = mask_at(l, DMLI_SS_BEGIN_MASK, i) ? 0 : l->begin[i];
    if (mask_at(l, DMLI_SS_BEGIN_MASK, i))
        DMLI_INVALID_IF(d == 0,
                        "%s: %s[%u] shrinks input dimension %u to its element 0 (%s[%u] is "
                        "set), but the dimension is empty",
                        n->op, n->mask[DMLI_SS_SHRINK_AXIS_MASK], i, j, n->mask[DMLI_SS_BEGIN_MASK],
                        i);
    else
        DMLI_INVALID_IF(b < -d || b >= d,
                        "%s: %s[%u] (%lld) must be in [-%lld, %lld): %s[%u] shrinks input "
                        "dimension %u (size %lld) to that one element",
                        n->op, n->begin, i, (long long)b, (long long)d, (long long)d,
                        n->mask[DMLI_SS_SHRINK_AXIS_MASK], i, j, (long long)d);
    r->start[j] = b < 0 ? b + d : b;
    r->step[j] = 0;
    r->out_dim[j] = -1;
    return S_OK;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* begin:end:stride on a dimension of d elements; returns the element count. */
static uint64_t resolve_slice(const dmli_ss_lists *l, uint32_t i, int64_t d, int64_t s,
                              int64_t *start)
{
    bool rev = s < 0;
    int64_t b = l->begin[i], e = l->end[i];
    if (mask_at(l, DMLI_SS_BEGIN_MASK, i))
        b = rev ? d - 1 : 0;
    else if (b < 0)
        b += d;
    b = clamp(b, 0, rev ? d - 1 : d);
    if (d == 0)
        b = 0;
    if (mask_at(l, DMLI_SS_END_MASK, i))
        e = rev ? -1 : d;
    else if (e < 0)
        e += d;
    e = clamp(e, rev ? -1 : 0, d);
    *start = b;
    if (d == 0)
        return 0;
    if (rev) /* |s| as unsigned: s may be INT64_MIN */
        return b > e ? (uint64_t)(b - e - 1) / (0 - (uint64_t)s) + 1 : 0;
    return e > b ? (uint64_t)(e - b - 1) / (uint64_t)s + 1 : 0;
}

HRESULT dmli_ss_resolve(const dmli_ss_names *n, uint32_t rank, const uint64_t *dims,
                        const dmli_ss_lists *l, dmli_ss_result *r)
{
    uint32_t taken = 0, j = 0, o = 0;
    DMLI_TRY(check_counts(n, rank, l, &taken, &r->out_rank));
    r->in_rank = rank;
    for (uint32_t i = 0; i <= l->count; ++i) {
        /* Past the last entry: the implicit ellipsis takes what is left. */
        enum entry_kind k = i < l->count ? entry_kind(l, i) : ENTRY_ELLIPSIS;
        if (k == ENTRY_ELLIPSIS) {
            uint32_t whole = i < l->count ? rank - taken : rank - j;
            for (uint32_t w = 0; w < whole; ++w, ++j, ++o) {
                r->start[j] = 0;
                r->step[j] = 1;
                r->out_dim[j] = (int)o;
                r->out_sizes[o] = dims[j];
            }
        } else if (k == ENTRY_NEW_AXIS) {
            r->out_sizes[o++] = 1;
        } else if (k == ENTRY_SHRINK) {
            DMLI_TRY(resolve_shrink(n, l, i, j, (int64_t)dims[j], r));
            ++j;
        } else {
            int64_t s = l->strides ? l->strides[i] : 1;
            DMLI_INVALID_IF(s == 0, "%s: %s[%u] (0) must not be 0", n->op, n->strides, i);
            uint64_t count = resolve_slice(l, i, (int64_t)dims[j], s, &r->start[j]);
            /* One element or none: the step never multiplies; keep it small. */
            r->step[j] = count > 1 ? s : 1;
            r->out_dim[j] = (int)o;
            r->out_sizes[o++] = count;
            ++j;
        }
    }
    return S_OK;
}

/* ---- The operator ------------------------------------------------------------------------- */

static const dmli_ss_names names = {
    OP,
    "Begin",
    "End",
    "Strides",
    {"BeginMask", "EndMask", "NewAxisMask", "ShrinkAxisMask", "EllipsisMask"},
};

static HRESULT check_output(const dmli_tensor *out, const dmli_ss_result *r)
{
    static const uint64_t one = 1;
    uint32_t rank = r->out_rank ? r->out_rank : 1;
    const uint64_t *want = r->out_rank ? r->out_sizes : &one;
    DMLI_INVALID_IF(out->rank != rank,
                    OP ": OutputTensor.DimensionCount (%u) must be %u (InputTensor's %u "
                       "dimensions - shrunk axes + new axes%s)",
                    out->rank, rank, r->in_rank, r->out_rank ? "" : "; 0 is described as {1}");
    return dmli_ops_expect_sizes(OP, "OutputTensor", out, want,
                                 "the entries' slices of InputTensor.Sizes");
}

/*
 * Starts lie inside their dimensions and steps over more than one element
 * stay inside the input (extent < 2^63 at import); infer checks the products
 * all the same, so lower's arithmetic cannot overflow.
 */
static HRESULT check_offsets(const dmli_tensor *in, const dmli_ss_result *r)
{
    int64_t offset = 0, step;
    for (uint32_t j = 0; j < r->in_rank; ++j)
        DMLI_UNSUPPORTED_IF(dmli_madd_i64(&offset, r->start[j], in->strides[j]) ||
                                dmli_mul_i64(r->step[j], in->strides[j], &step),
                            OP ": the offset or step along input dimension %u is beyond 2^63-1 "
                               "elements",
                            j);
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_ss_result *r = DMLI_OP_SCRATCH(st, dmli_ss_result);
    const dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    int64_t in_stride[DMLI_MAX_RANK] = {0}; /* new axes: 0 */
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, in->elem_bytes);
    for (uint32_t j = 0; j < r->in_rank; ++j) {
        p->in_offset += r->start[j] * in->strides[j];
        if (r->out_dim[j] >= 0)
            in_stride[r->out_dim[j]] = r->step[j] * in->strides[j];
    }
    for (uint32_t o = 0; o < r->out_rank; ++o)
        dmli_plan_push(p, (int64_t)r->out_sizes[o], out->strides[o], in_stride[o], 0, 0);
}

/* Resolves the entries against InputTensor.Sizes into the scratch, for infer and lower. */
static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DMLCL_STRIDED_SLICE_OPERATOR_DESC *d = desc;
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    const unsigned ext = DMLI_TENSOR_EXTENSION;
    DMLI_TRY(dmli_tensor_import(OP, "InputTensor", d->InputTensor, DMLI_TENSOR_INPUT | ext, in));
    DMLI_TRY(
        dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT | ext, out));
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(d->SliceCount && (!d->Begin || !d->End),
                    OP ": Begin and End (%s) must point to SliceCount (%u) values",
                    !d->Begin ? "Begin NULL" : "End NULL", d->SliceCount);
    dmli_ss_lists lists = {
        d->SliceCount,
        d->Begin,
        d->End,
        d->Strides,
        {d->BeginMask, d->EndMask, d->NewAxisMask, d->ShrinkAxisMask, d->EllipsisMask}};
    DMLI_TRY(
        dmli_ss_resolve(&names, in->rank, in->sizes, &lists, DMLI_OP_SCRATCH(st, dmli_ss_result)));
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_ss_result *r = DMLI_OP_SCRATCH(st, dmli_ss_result);
    DMLI_TRY(check_output(&st->outputs[0], r));
    return check_offsets(&st->inputs[0], r);
}

const dmli_op_steps dmli_op_strided_slice = {.validate = validate, .infer = infer, .lower = lower};
