/* SPDX-License-Identifier: MIT */
/*
 * DirectML's CONVOLUTION: FilterTensor convolved with InputTensor over 1, 2 or 3 spatial
 * dimensions (tensors of 3, 4 or 5 dimensions {N, C, [D], [H], W}), + BiasTensor per output
 * channel, then FusedActivation. One step of the conv family (ops/conv.h, cl/conv.cl).
 *
 * Along spatial dimension d (window w = (K - 1) * Dilations[d] + 1):
 *   FORWARD:  out[o] = sum over taps k of in[o * Strides + k * Dilations - StartPadding];
 *             output size floor((In + StartPadding + EndPadding - w) / Strides) + 1, w at most
 *             In + StartPadding + EndPadding; the filter {Cout, Cin / GroupCount, K...}.
 *   BACKWARD: the transpose of FORWARD: out[o] sums in[i] * filter[k] over i * Strides +
 *             k * Dilations - StartPadding = o; output size (In - 1) * Strides + w -
 *             StartPadding - EndPadding + OutputPadding; the filter {Cin, Cout / GroupCount, K...}.
 * Taps outside the input read 0 (padding is never materialised). CONVOLUTION mode flips the
 * taps along every spatial dimension (k -> K - 1 - k), in both directions (the page's mode
 * table: orientations relative to a forward convolution over a zero-inserted input).
 *
 * DirectML's rules (the page; feature level 4.0 added 3-dimensional tensors): every tensor
 * FLOAT32 or FLOAT16, one DataType and one DimensionCount of 3 to 5; DimensionCount (the
 * spatial count) InputTensor.DimensionCount - 2; GroupCount divides the input and output
 * channels; BiasTensor {1, Cout, 1...}; Output N the input's. Chosen where the page is silent
 * (docs/operators.md): Strides and Dilations at least 1; OutputPadding 0 in FORWARD; a BACKWARD
 * output may be larger than the size rule says (ONNX Runtime's DirectML provider passes
 * ConvTranspose's output_padding and output_shape as a larger OutputTensor with OutputPadding
 * 0): every output position is the gather above, 0 + bias where no window covers it.
 */
#include <string.h>

#include "conv.h"
#include "gemm.h"
#include "ops/activation.h"
#include "ops/common.h"

#define OP "CONVOLUTION"

static const char *const names[3] = {"InputTensor", "FilterTensor", "BiasTensor"};

typedef struct conv_scratch {
    dmli_activation act;
} conv_scratch;

static HRESULT import(const DML_CONVOLUTION_OPERATOR_DESC *d, dmli_op_state *st)
{
    DMLI_TRY(dmli_tensor_import(OP, names[0], d->InputTensor, DMLI_TENSOR_INPUT, &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, names[1], d->FilterTensor, DMLI_TENSOR_INPUT, &st->inputs[1]));
    DMLI_TRY(dmli_tensor_import(OP, names[2], d->BiasTensor,
                                DMLI_TENSOR_INPUT | DMLI_TENSOR_OPTIONAL, &st->inputs[2]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    const dmli_tensor *x = &st->inputs[0];
    DMLI_INVALID_IF(x->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        x->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", OP,
                    dmli_type_name(x->type), OP);
    DMLI_INVALID_IF(x->rank < 3 || x->rank > 5,
                    "%s: InputTensor.DimensionCount (%u) must be 3 to 5 ({N, C, [D], [H], W})", OP,
                    x->rank);
    for (int k = 1; k < 3; ++k)
        if (st->inputs[k].present) {
            DMLI_TRY(dmli_ops_same_type(OP, names[k], &st->inputs[k], names[0], x));
            DMLI_TRY(dmli_ops_same_rank(OP, names[k], &st->inputs[k], names[0], x));
        }
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", &st->outputs[0], names[0], x));
    return dmli_ops_same_rank(OP, "OutputTensor", &st->outputs[0], names[0], x);
}

/* The five arrays of DimensionCount entries: present, Strides and Dilations at least 1,
 * OutputPadding 0 in FORWARD. */
static HRESULT check_arrays(const DML_CONVOLUTION_OPERATOR_DESC *d)
{
    const UINT *arrays[5] = {d->Strides, d->Dilations, d->StartPadding, d->EndPadding,
                             d->OutputPadding};
    static const char *const field[5] = {"Strides", "Dilations", "StartPadding", "EndPadding",
                                         "OutputPadding"};
    for (int a = 0; a < 5; ++a)
        DMLI_INVALID_IF(arrays[a] == NULL,
                        "%s: %s is NULL: it must hold DimensionCount (%u) values", OP, field[a],
                        d->DimensionCount);
    for (UINT i = 0; i < d->DimensionCount; ++i) {
        DMLI_INVALID_IF(d->Strides[i] < 1, "%s: Strides[%u] (%u) must be at least 1", OP, i,
                        d->Strides[i]);
        DMLI_INVALID_IF(d->Dilations[i] < 1, "%s: Dilations[%u] (%u) must be at least 1", OP, i,
                        d->Dilations[i]);
        DMLI_INVALID_IF(d->Direction == DML_CONVOLUTION_DIRECTION_FORWARD &&
                            d->OutputPadding[i] != 0,
                        "%s: OutputPadding[%u] (%u) must be 0 when Direction is FORWARD (it pads "
                        "a BACKWARD convolution's output)",
                        OP, i, d->OutputPadding[i]);
    }
    return S_OK;
}

/* GroupCount and the channels: FORWARD's filter {Cout, Cin / G}, BACKWARD's {Cin, Cout / G}. */
static HRESULT check_channels(const DML_CONVOLUTION_OPERATOR_DESC *d, const dmli_op_state *st)
{
    const dmli_tensor *x = &st->inputs[0], *f = &st->inputs[1];
    const unsigned long long cin = x->sizes[1], f0 = f->sizes[0], f1 = f->sizes[1];
    const UINT g = d->GroupCount;
    DMLI_INVALID_IF(g < 1, "%s: GroupCount (%u) must be at least 1", OP, g);
    DMLI_INVALID_IF(cin % g != 0,
                    "%s: GroupCount (%u) must divide the input channels (InputTensor.Sizes[1] = "
                    "%llu)",
                    OP, g, cin);
    if (d->Direction == DML_CONVOLUTION_DIRECTION_FORWARD) {
        DMLI_INVALID_IF(f1 * g != cin,
                        "%s: FilterTensor.Sizes[1] (%llu) x GroupCount (%u) must equal the input "
                        "channels (InputTensor.Sizes[1] = %llu): FORWARD filters are {Cout, Cin "
                        "/ GroupCount, ...}",
                        OP, f1, g, cin);
        DMLI_INVALID_IF(f0 % g != 0,
                        "%s: GroupCount (%u) must divide the output channels (FilterTensor.Sizes"
                        "[0] = %llu)",
                        OP, g, f0);
    } else {
        DMLI_INVALID_IF(f0 != cin,
                        "%s: FilterTensor.Sizes[0] (%llu) must equal the input channels "
                        "(InputTensor.Sizes[1] = %llu): BACKWARD filters are {Cin, Cout / "
                        "GroupCount, ...}",
                        OP, f0, cin);
    }
    return S_OK;
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_CONVOLUTION_OPERATOR_DESC *d = desc;
    DMLI_TRY(import(d, st));
    const uint32_t rank = st->inputs[0].rank;
    DMLI_INVALID_IF(d->Mode != DML_CONVOLUTION_MODE_CONVOLUTION &&
                        d->Mode != DML_CONVOLUTION_MODE_CROSS_CORRELATION,
                    "%s: Mode (%d) is not a DML_CONVOLUTION_MODE (CONVOLUTION 0, "
                    "CROSS_CORRELATION 1)",
                    OP, (int)d->Mode);
    DMLI_INVALID_IF(d->Direction != DML_CONVOLUTION_DIRECTION_FORWARD &&
                        d->Direction != DML_CONVOLUTION_DIRECTION_BACKWARD,
                    "%s: Direction (%d) is not a DML_CONVOLUTION_DIRECTION (FORWARD 0, BACKWARD "
                    "1)",
                    OP, (int)d->Direction);
    DMLI_INVALID_IF(d->DimensionCount != rank - 2,
                    "%s: DimensionCount (%u) must be InputTensor.DimensionCount - 2 (%u): the "
                    "spatial dimensions",
                    OP, d->DimensionCount, rank - 2);
    DMLI_TRY(check_arrays(d));
    DMLI_TRY(check_channels(d, st));
    conv_scratch *s = DMLI_OP_SCRATCH(st, conv_scratch);
    DMLI_TRY(dmli_activation_fused(OP, "FusedActivation", d->FusedActivation, st->outputs[0].type,
                                   &s->act));
    st->n_inputs = 3;
    st->n_outputs = 1;
    for (int k = 0; k < 3; ++k)
        st->input_names[k] = names[k];
    st->output_names[0] = "OutputTensor";
    st->data_input = 0;
    return S_OK;
}

/* The output size along spatial dimension i (of the operator's), or 0 where the rule has none
 * (a FORWARD window larger than the padded input; a BACKWARD output of no element). */
static uint64_t out_size(const DML_CONVOLUTION_OPERATOR_DESC *d, uint32_t i, uint64_t in,
                         uint64_t k)
{
    const uint64_t window = (k - 1) * d->Dilations[i] + 1;
    const uint64_t pads = (uint64_t)d->StartPadding[i] + d->EndPadding[i];
    if (d->Direction == DML_CONVOLUTION_DIRECTION_FORWARD)
        return window > in + pads ? 0 : (in + pads - window) / d->Strides[i] + 1;
    const uint64_t full = (in - 1) * d->Strides[i] + window + d->OutputPadding[i];
    return pads >= full ? 0 : full - pads;
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    const DML_CONVOLUTION_OPERATOR_DESC *d = desc;
    const dmli_tensor *x = &st->inputs[0], *f = &st->inputs[1], *b = &st->inputs[2];
    const dmli_tensor *out = &st->outputs[0];
    const bool fwd = d->Direction == DML_CONVOLUTION_DIRECTION_FORWARD;
    const uint64_t cout = fwd ? f->sizes[0] : f->sizes[1] * d->GroupCount;
    uint64_t want[DMLI_MAX_RANK] = {x->sizes[0], cout};
    char got[DMLI_DIMS_BUF], dims[DMLI_DIMS_BUF];
    for (uint32_t i = 0; i < d->DimensionCount; ++i) {
        want[2 + i] = out_size(d, i, x->sizes[2 + i], f->sizes[2 + i]);
        DMLI_INVALID_IF(fwd && want[2 + i] == 0,
                        "%s: the window of spatial dimension %u ((FilterTensor.Sizes[%u] - 1) x "
                        "Dilations[%u] + 1) must fit in InputTensor.Sizes[%u] + StartPadding[%u] "
                        "+ EndPadding[%u]",
                        OP, i, 2 + i, i, 2 + i, i, i);
        DMLI_INVALID_IF(!fwd && want[2 + i] == 0,
                        "%s: spatial dimension %u has no output: StartPadding[%u] + EndPadding"
                        "[%u] must be below (InputTensor.Sizes[%u] - 1) x Strides[%u] + the "
                        "window + OutputPadding[%u]",
                        OP, i, i, i, 2 + i, i, i);
    }
    if (b->present) {
        uint64_t bias[DMLI_MAX_RANK] = {1, cout, 1, 1, 1};
        DMLI_INVALID_IF(memcmp(b->sizes, bias, b->rank * sizeof bias[0]) != 0,
                        "%s: BiasTensor.Sizes (%s) must be %s ({1, the output channels, 1...})", OP,
                        dmli_format_dims(got, sizeof got, b->rank, b->sizes),
                        dmli_format_dims(dims, sizeof dims, b->rank, bias));
    }
    if (fwd)
        return dmli_ops_expect_sizes(OP, "OutputTensor", out, want,
                                     "{N, the filter's Sizes[0], floor((In + StartPadding + "
                                     "EndPadding - window) / Strides) + 1...}");
    /* BACKWARD: N and C as the rule says, each spatial size at least the rule's. */
    bool ok = out->sizes[0] == want[0] && out->sizes[1] == want[1];
    for (uint32_t i = 2; i < out->rank; ++i)
        ok = ok && out->sizes[i] >= want[i];
    DMLI_INVALID_IF(!ok,
                    "%s: OutputTensor.Sizes (%s) must be {N, FilterTensor.Sizes[1] x GroupCount, "
                    "at least (In - 1) x Strides + window - StartPadding - EndPadding + "
                    "OutputPadding...}: %s at least",
                    OP, dmli_format_dims(got, sizeof got, out->rank, out->sizes),
                    dmli_format_dims(dims, sizeof dims, out->rank, want));
    return S_OK;
}

/* The {D, H, W} entry of spatial dimension i of `count` (right-aligned). */
static int spatial_slot(uint32_t count, uint32_t i)
{
    return (int)(3 - count + i);
}

/* A pointwise convolution: FORWARD, every window 1, no padding (any mode, any dilations: one
 * tap; any strides: output position p reads input position p * Strides). */
static bool pointwise(const DML_CONVOLUTION_OPERATOR_DESC *d, const dmli_tensor *f)
{
    if (d->Direction != DML_CONVOLUTION_DIRECTION_FORWARD)
        return false;
    for (uint32_t i = 0; i < d->DimensionCount; ++i)
        if (f->sizes[2 + i] != 1 || d->StartPadding[i] != 0 || d->EndPadding[i] != 0)
            return false;
    return true;
}

/*
 * A pointwise convolution lowers to the matrix family: per image n and group g,
 *   out[n, g, co, p] = act(sum_ci W[g, co, ci] X[n, g, ci, p] + bias[g, co]),
 * a GEMM of m = Cout / GroupCount, k = Cin / GroupCount and n = the output's spatial positions
 * (the spatial dimensions that X, read at p * Strides, and the output step through as one
 * merged into n, the others batch dimensions with the image and the group; W and the bias
 * broadcast over images by zero strides). The GEMM kernels' register blocks and shared panels run
 * it at several times conv_direct's rate (docs/kernels.md#convolution); every tensor is read
 * through its strides (NHWC is a transposed B). rank 0: a graph gives it no new strides (they are
 * no one tensor's).
 */
static void lower_pointwise(const DML_CONVOLUTION_OPERATOR_DESC *d, dmli_op_state *st,
                            const conv_scratch *s)
{
    const dmli_tensor *x = &st->inputs[0], *f = &st->inputs[1], *b = &st->inputs[2];
    const dmli_tensor *out = &st->outputs[0];
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_GEMM);
    st->computed = true;
    dmli_gemm *g = DMLI_COMPUTE_WORK(c, dmli_gemm);
    const int64_t groups = d->GroupCount, cin_g = (int64_t)x->sizes[1] / groups,
                  cout_g = (int64_t)out->sizes[1] / groups;
    const int64_t bias_s = b->present ? b->strides[1] : 0;
    g->type = out->type;
    g->m = cout_g;
    g->k = cin_g;
    g->a_m = f->strides[0];
    g->a_k = f->strides[1];
    g->b_k = x->strides[1];
    g->c_m = bias_s;
    g->c_n = 0;
    g->o_m = out->strides[1];
    g->has_c = b->present;
    g->alpha = 1.0;
    g->beta = b->present ? 1.0 : 0.0;
    g->act = s->act.act;
    for (int i = 0; i < 3; ++i)
        g->act_param[i] = s->act.param[i];
    g->rank = 0;
    /* Along spatial dimension d the output steps by out->strides[d], the input by
     * x->strides[d] * Strides (output position p reads input position p * Strides). n: the
     * innermost spatial dimensions that merge in both. */
    int64_t xstep[DMLI_MAX_RANK];
    for (uint32_t dd = 2; dd < x->rank; ++dd)
        xstep[dd] = x->strides[dd] * (int64_t)d->Strides[dd - 2];
    int inner = (int)x->rank - 1;
    g->n = (int64_t)out->sizes[inner];
    g->b_n = xstep[inner];
    g->o_n = out->strides[inner];
    int64_t xs = xstep[inner] * (int64_t)out->sizes[inner],
            os = out->strides[inner] * (int64_t)out->sizes[inner];
    int d0 = inner - 1;
    for (; d0 >= 2; --d0) {
        if (out->sizes[d0] == 1)
            continue;
        if (xstep[d0] != xs || out->strides[d0] != os)
            break;
        g->n *= (int64_t)out->sizes[d0];
        xs *= (int64_t)out->sizes[d0];
        os *= (int64_t)out->sizes[d0];
    }
    if (g->n == 1) { /* every spatial size 1: n is any stride */
        g->b_n = 1;
        g->o_n = 1;
    }
    /* Batch dimensions, outermost first: the image, the group, the spatial ones left. */
    int j = 0;
    if (x->sizes[0] > 1) {
        g->batch[j] = (int64_t)x->sizes[0];
        g->a_b[j] = 0;
        g->b_b[j] = x->strides[0];
        g->c_b[j] = 0;
        g->o_b[j++] = out->strides[0];
    }
    if (groups > 1) {
        g->batch[j] = groups;
        g->a_b[j] = cout_g * f->strides[0];
        g->b_b[j] = cin_g * x->strides[1];
        g->c_b[j] = cout_g * bias_s;
        g->o_b[j++] = cout_g * out->strides[1];
    }
    for (int dd = 2; dd <= d0; ++dd) {
        if (out->sizes[dd] == 1)
            continue;
        g->batch[j] = (int64_t)out->sizes[dd];
        g->a_b[j] = 0;
        g->b_b[j] = xstep[dd];
        g->c_b[j] = 0;
        g->o_b[j++] = out->strides[dd];
    }
    g->batch_rank = j;
    /* The matrix family's tensors: A (the filter), B (the input), C (the bias, or the filter
     * standing in, never read), the output. */
    dmli_compute_add(c, st, false, 1);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, false, b->present ? 2 : 1);
    dmli_compute_add(c, st, true, 0);
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_CONVOLUTION_OPERATOR_DESC *d = desc;
    if (pointwise(d, &st->inputs[1])) {
        lower_pointwise(d, st, DMLI_OP_SCRATCH(st, conv_scratch));
        return;
    }
    const dmli_tensor *x = &st->inputs[0], *f = &st->inputs[1], *b = &st->inputs[2];
    const dmli_tensor *out = &st->outputs[0];
    const conv_scratch *s = DMLI_OP_SCRATCH(st, conv_scratch);
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_CONV);
    st->computed = true;
    dmli_conv *v = DMLI_COMPUTE_WORK(c, dmli_conv);
    const bool fwd = d->Direction == DML_CONVOLUTION_DIRECTION_FORWARD;
    v->backward = !fwd;
    v->has_bias = b->present;
    v->type = x->type;
    v->spatial = d->DimensionCount;
    v->n = (int64_t)x->sizes[0];
    v->groups = d->GroupCount;
    v->cin_g = (int64_t)x->sizes[1] / d->GroupCount;
    v->cout_g = (int64_t)out->sizes[1] / d->GroupCount;
    v->in_s[0] = x->strides[0];
    v->in_s[1] = x->strides[1];
    v->out_s[0] = out->strides[0];
    v->out_s[1] = out->strides[1];
    int64_t f_offset = 0;
    for (int j = 0; j < 3; ++j) {
        v->in[j] = v->out[j] = v->k[j] = v->stride[j] = v->dil[j] = 1;
        v->pad[j] = v->ws[j] = 0;
        v->in_s[2 + j] = v->out_s[2 + j] = 0;
    }
    for (uint32_t i = 0; i < d->DimensionCount; ++i) {
        const int j = spatial_slot(d->DimensionCount, i);
        v->in[j] = (int64_t)x->sizes[2 + i];
        v->out[j] = (int64_t)out->sizes[2 + i];
        v->k[j] = (int64_t)f->sizes[2 + i];
        v->stride[j] = d->Strides[i];
        v->dil[j] = d->Dilations[i];
        v->pad[j] = d->StartPadding[i];
        v->in_s[2 + j] = x->strides[2 + i];
        v->out_s[2 + j] = out->strides[2 + i];
        v->ws[j] = f->strides[2 + i];
        if (d->Mode == DML_CONVOLUTION_MODE_CONVOLUTION) { /* tap k reads K - 1 - k */
            f_offset += (v->k[j] - 1) * v->ws[j];
            v->ws[j] = -v->ws[j];
        }
    }
    v->ws_co = fwd ? f->strides[0] : f->strides[1];
    v->ws_ci = fwd ? f->strides[1] : f->strides[0];
    v->ws_g = (fwd ? v->cout_g : v->cin_g) * f->strides[0];
    v->bias_s = b->present ? b->strides[1] : 0;
    v->act = s->act.act;
    for (int i = 0; i < 3; ++i)
        v->act_param[i] = (float)s->act.param[i];
    /* Kernel arguments: the output, the input, the filter (from its first tap), the bias; an
     * absent bias binds the input again, never read (one variant with and without a bias). */
    dmli_compute_add(c, st, true, 0);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, false, 1);
    c->tensors[2].offset = f_offset;
    dmli_compute_add(c, st, false, b->present ? 2 : 0);
}

const dmli_op_steps dmli_op_convolution = {.validate = validate, .infer = infer, .lower = lower};
