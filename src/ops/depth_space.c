/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_DEPTH1 and
 * DEPTH_TO_SPACE1: blocks of BlockSize x BlockSize elements of the spatial
 * dimensions of an NCHW tensor move into its channels, or back.
 *
 * Both directions pair a "space" tensor {N, C, H * B, W * B} with a "depth"
 * tensor {N, C * B * B, H, W} (B = BlockSize); DEPTH_TO_SPACE reads depth and
 * writes space, SPACE_TO_DEPTH the reverse. Space element (n, c, h*B+bh,
 * w*B+bw) is depth element (n, d, h, w), where DML_DEPTH_SPACE_ORDER gives d
 * (its page: "Depth version" layouts):
 *   DEPTH_COLUMN_ROW  d = (bh * B + bw) * C + c   [N, (BlockHeight, BlockWidth, Channels), H, W]
 *   COLUMN_ROW_DEPTH  d = (c * B + bh) * B + bw   [N, (Channels, BlockHeight, BlockWidth), H, W]
 * DEPTH_COLUMN_ROW is ONNX's DCR and OpenVINO's blocks_first; COLUMN_ROW_DEPTH
 * is CRD and depth_first. SPACE_TO_DEPTH and DEPTH_TO_SPACE (feature level
 * 1.0) are DEPTH_COLUMN_ROW, as their pages' examples and the *1 pages'
 * remarks say.
 *
 * Every one is a single view copy: over the six dimensions {N, C, H, bh, W,
 * bw} each tensor has a constant element stride, so the plan pushes those six
 * and normalisation merges what is contiguous.
 */
#include "ops/common.h"

/* What differs between the four operators. */
typedef struct depth_space_kind {
    const char *op;
    bool to_space; /* DEPTH_TO_SPACE*: the input is the depth tensor */
    bool has_order;
} depth_space_kind;

static const depth_space_kind kind_s2d = {"SPACE_TO_DEPTH", false, false};
static const depth_space_kind kind_d2s = {"DEPTH_TO_SPACE", true, false};
static const depth_space_kind kind_s2d1 = {"SPACE_TO_DEPTH1", false, true};
static const depth_space_kind kind_d2s1 = {"DEPTH_TO_SPACE1", true, true};

/* The members all four descriptors share (the *1 ones add Order). */
typedef struct depth_space_args {
    const DML_TENSOR_DESC *input, *output;
    uint64_t block;
    DML_DEPTH_SPACE_ORDER order;
} depth_space_args;

static depth_space_args args_of(const depth_space_kind *k, const void *desc)
{
    if (k->has_order) {
        /* DML_SPACE_TO_DEPTH1 and DML_DEPTH_TO_SPACE1 share one layout. */
        const DML_DEPTH_TO_SPACE1_OPERATOR_DESC *d = desc;
        return (depth_space_args){d->InputTensor, d->OutputTensor, d->BlockSize, d->Order};
    }
    const DML_DEPTH_TO_SPACE_OPERATOR_DESC *d = desc;
    return (depth_space_args){d->InputTensor, d->OutputTensor, d->BlockSize,
                              DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
}

static HRESULT validate(const depth_space_kind *k, const void *desc, dmli_op_state *st)
{
    const char *op = k->op;
    depth_space_args a = args_of(k, desc);
    dmli_tensor *in = &st->inputs[0], *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(op, "InputTensor", a.input, DMLI_TENSOR_INPUT, in));
    DMLI_TRY(dmli_tensor_import(op, "OutputTensor", a.output, DMLI_TENSOR_OUTPUT, out));
    DMLI_TRY(dmli_ops_same_type(op, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(in->rank != 4,
                    "%s: InputTensor.DimensionCount (%u) must be 4: the tensor is {N, C, H, W}", op,
                    in->rank);
    DMLI_TRY(dmli_ops_same_rank(op, "OutputTensor", out, "InputTensor", in));
    DMLI_INVALID_IF(a.block == 0, "%s: BlockSize (0) must be at least 1", op);
    DMLI_INVALID_IF(k->has_order && a.order != DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW &&
                        a.order != DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH,
                    "%s: Order (%d) must be DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW (0) or "
                    "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH (1)",
                    op, (int)a.order);
    st->n_inputs = 1;
    st->n_outputs = 1;
    st->input_names[0] = "InputTensor";
    st->output_names[0] = "OutputTensor";
    return S_OK;
}

/* DEPTH_TO_SPACE*: {N, C, H, W} -> {N, C / B^2, H * B, W * B}. */
static HRESULT infer_to_space(const char *op, uint64_t b, const dmli_tensor *in, uint64_t *want)
{
    uint64_t bb = b * b; /* b < 2^32: fits */
    DMLI_INVALID_IF(in->sizes[1] % bb != 0,
                    "%s: InputTensor.Sizes[1] (%llu, the channels) must be a multiple of "
                    "BlockSize * BlockSize (%llu)",
                    op, (unsigned long long)in->sizes[1], (unsigned long long)bb);
    want[0] = in->sizes[0];
    want[1] = in->sizes[1] / bb;
    want[2] = in->sizes[2] * b;
    want[3] = in->sizes[3] * b;
    return S_OK;
}

/* SPACE_TO_DEPTH*: {N, C, H, W} -> {N, C * B^2, H / B, W / B}. */
static HRESULT infer_to_depth(const char *op, uint64_t b, const dmli_tensor *in, uint64_t *want)
{
    for (int d = 2; d < 4; ++d)
        DMLI_INVALID_IF(in->sizes[d] % b != 0,
                        "%s: InputTensor.Sizes[%d] (%llu, the %s) must be a multiple of "
                        "BlockSize (%llu)",
                        op, d, (unsigned long long)in->sizes[d], d == 2 ? "height" : "width",
                        (unsigned long long)b);
    /* No overflow: H and W are nonzero multiples of b, so C * b * b <= C * H * W, the
     * input's element count, which import bounded by 2^32-1. */
    want[0] = in->sizes[0];
    want[1] = in->sizes[1] * b * b;
    want[2] = in->sizes[2] / b;
    want[3] = in->sizes[3] / b;
    return S_OK;
}

static HRESULT infer(const depth_space_kind *k, const void *desc, dmli_op_state *st)
{
    depth_space_args a = args_of(k, desc);
    const dmli_tensor *in = &st->inputs[0];
    uint64_t want[4];
    if (k->to_space)
        DMLI_TRY(infer_to_space(k->op, a.block, in, want));
    else
        DMLI_TRY(infer_to_depth(k->op, a.block, in, want));
    return dmli_ops_expect_sizes(k->op, "OutputTensor", &st->outputs[0], want,
                                 k->to_space ? "{N, C / (BlockSize * BlockSize), H * BlockSize, "
                                               "W * BlockSize} of InputTensor.Sizes {N, C, H, W}"
                                             : "{N, C * BlockSize * BlockSize, H / BlockSize, "
                                               "W / BlockSize} of InputTensor.Sizes {N, C, H, W}");
}

/*
 * A stride times a factor, for a dimension of `size` elements: 0 when the
 * dimension has one element (the product may then pass 2^63, and is never
 * used); otherwise the product stays inside the tensor's extent, which import
 * bounded under 2^63.
 */
static int64_t scaled(uint64_t size, int64_t stride, uint64_t factor)
{
    return size > 1 ? stride * (int64_t)factor : 0;
}

static void lower(const depth_space_kind *k, const void *desc, dmli_op_state *st)
{
    depth_space_args a = args_of(k, desc);
    const dmli_tensor *depth = k->to_space ? &st->inputs[0] : &st->outputs[0];
    const dmli_tensor *space = k->to_space ? &st->outputs[0] : &st->inputs[0];
    const uint64_t b = a.block, n = space->sizes[0], c = space->sizes[1];
    const uint64_t h = depth->sizes[2], w = depth->sizes[3];
    const int64_t *ss = space->strides, *ds = depth->strides;
    bool dcr = a.order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    /* The six dimensions {N, C, H, bh, W, bw}: sizes, space strides, depth strides. */
    const uint64_t size[6] = {n, c, h, b, w, b};
    const int64_t sp[6] = {ss[0], ss[1], scaled(h, ss[2], b), ss[2], scaled(w, ss[3], b), ss[3]};
    const int64_t dp[6] = {
        ds[0], dcr ? ds[1] : scaled(c, ds[1], b * b), ds[2], scaled(b, ds[1], dcr ? b * c : b),
        ds[3], scaled(b, ds[1], dcr ? c : 1),
    };
    dmli_plan *p = &st->plan;
    dmli_plan_init(p, DMLI_PLAN_VIEW, depth->elem_bytes);
    for (int d = 0; d < 6; ++d)
        dmli_plan_push(p, (int64_t)size[d], k->to_space ? sp[d] : dp[d],
                       k->to_space ? dp[d] : sp[d], 0, 0);
}

#define DEPTH_SPACE_CLASS(id, kind)                                   \
    static HRESULT id##_validate(const void *desc, dmli_op_state *st) \
    {                                                                 \
        return validate(&kind, desc, st);                             \
    }                                                                 \
    static HRESULT id##_infer(const void *desc, dmli_op_state *st)    \
    {                                                                 \
        return infer(&kind, desc, st);                                \
    }                                                                 \
    static void id##_lower(const void *desc, dmli_op_state *st)       \
    {                                                                 \
        lower(&kind, desc, st);                                       \
    }                                                                 \
    const dmli_op_steps dmli_op_##id = {                              \
        .validate = id##_validate, .infer = id##_infer, .lower = id##_lower};

DEPTH_SPACE_CLASS(space_to_depth, kind_s2d)
DEPTH_SPACE_CLASS(depth_to_space, kind_d2s)
DEPTH_SPACE_CLASS(space_to_depth1, kind_s2d1)
DEPTH_SPACE_CLASS(depth_to_space1, kind_d2s1)
