/* SPDX-License-Identifier: MIT */
/*
 * The launch of a convolution (cl/conv.cl): the variant, its options, its grid and its table
 * (cl/abi.h DMLI_CONV_*), from the description (ops/conv.h) and the device class's tuning
 * (tuning.h conv_*). Pure host code, as launch.c.
 *
 * Variants, chosen here from the shape class, never the shape itself:
 *   chan      conv_chan (CPUs, not depthwise, more than one tap): a work-item a block
 *             of positions x output channels, the vectors along the channels, from the filter
 *             slice and input patch its work-group stages in local memory;
 *   direct    conv_direct, a work-item a block of conv_cob output channels x conv_rb rows x
 *             conv_vw positions along W (CPUs; GPUs where no tile fits, and BACKWARD);
 *   depthwise conv_direct with the depthwise block (one input channel a group: the channels
 *             of a block would share no input, so the block runs along rows instead);
 *   gemm      conv_gemm (GPUs, not depthwise): the implicit GEMM of each group through
 *             GEMM's tile (cl/tile.cl; BACKWARD by phases of the strides), where the filter
 *             has at most 256 taps;
 *   tiled     conv_tiled (GPUs, FORWARD): work-group tiles staged in local memory, used where
 *             one input channel's patch and filter slice fit the tuning's local arrays;
 *   dwt       conv_dwt (GPUs, FORWARD, depthwise, one plane): a work-group's tile of outputs
 *             of one channel from the input patch and filters it stages in local memory.
 */
#include <stdint.h>
#include <string.h>

#include "conv.h"
#include "launch.h"
#include "tuning.h"

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static void table(const dmli_conv *v, cl_long *t)
{
    t[DMLI_CONV_N] = v->n;
    t[DMLI_CONV_CIN_G] = v->cin_g;
    t[DMLI_CONV_COUT_G] = v->cout_g;
    for (int j = 0; j < 3; ++j) {
        t[DMLI_CONV_IN(j)] = v->in[j];
        t[DMLI_CONV_OUT(j)] = v->out[j];
        t[DMLI_CONV_K(j)] = v->k[j];
        t[DMLI_CONV_S(j)] = v->stride[j];
        t[DMLI_CONV_DIL(j)] = v->dil[j];
        t[DMLI_CONV_PAD(j)] = v->pad[j];
        t[DMLI_CONV_IS(j)] = v->in_s[2 + j];
        t[DMLI_CONV_WS(j)] = v->ws[j];
        t[DMLI_CONV_OS(j)] = v->out_s[2 + j];
    }
    t[DMLI_CONV_IS_N] = v->in_s[0];
    t[DMLI_CONV_IS_C] = v->in_s[1];
    t[DMLI_CONV_WS_G] = v->ws_g;
    t[DMLI_CONV_WS_CO] = v->ws_co;
    t[DMLI_CONV_WS_CI] = v->ws_ci;
    t[DMLI_CONV_BS_C] = v->bias_s;
    t[DMLI_CONV_HAS_BIAS] = v->has_bias;
    t[DMLI_CONV_OS_N] = v->out_s[0];
    t[DMLI_CONV_OS_C] = v->out_s[1];
    for (int i = 0; i < 3; ++i)
        t[DMLI_CONV_ACT(i)] = dmli_float_bits(v->act_param[i]);
    t[DMLI_CONV_SPLITS] = 1;
    t[DMLI_CONV_SPLIT_K] = 0;
}

/* Input channels one chunk of conv_tiled stages (0: not even one fits). */
static int64_t tiled_chunk(const dmli_conv *v, const dmli_tuning *tu)
{
    const int64_t rows = v->k[0] * v->k[1], kvol = rows * v->k[2];
    const int64_t len = ((int64_t)tu->conv_lx * tu->conv_tile_vw - 1) * v->stride[2] +
                        (v->k[2] - 1) * v->dil[2] + 1;
    int64_t by_patch = (int64_t)tu->conv_lpatch / (rows * len);
    int64_t by_filter = (int64_t)tu->conv_lfilt / ((int64_t)tu->conv_ly * tu->conv_tile_cob * kvol);
    int64_t cic = by_patch < by_filter ? by_patch : by_filter;
    return cic < v->cin_g ? cic : v->cin_g;
}

static bool tiled_fits(const dmli_conv *v, const dmli_tuning *tu, const dmli_device_desc *dev)
{
    size_t items = (size_t)tu->conv_lx * tu->conv_ly;
    uint64_t local_bytes = ((uint64_t)tu->conv_lpatch + tu->conv_lfilt) * sizeof(float);
    return tu->conv_tiled && !v->backward && items <= dev->max_work_group_size &&
           tu->conv_lx <= dev->max_item_sizes[0] && tu->conv_ly <= dev->max_item_sizes[1] &&
           local_bytes <= dev->local_mem_size && tiled_chunk(v, tu) >= 1;
}

/* The VLOAD variant: 1 where a window row's lanes read consecutive inputs (FORWARD stride 1, or
 * any BACKWARD: its phases), 2 for FORWARD stride 2, each with the input's W stride 1. */
static int vload_of(const dmli_conv *v, bool tiled, uint32_t vw)
{
    if (tiled || vw == 1 || v->in_s[4] != 1)
        return 0;
    if (v->backward || v->stride[2] == 1)
        return 1;
    return v->stride[2] == 2 ? 2 : 0;
}

static void options(const dmli_conv *v, bool tiled, uint32_t vw, uint32_t cob, uint32_t rb,
                    bool pack, const dmli_tuning *tu, dmli_options *o)
{
    bool half = v->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_int(o, "OUT_HALF", half);
    dmli_opt_int(o, "BACKWARD", v->backward);
    dmli_opt_int(o, "VW", vw);
    dmli_opt_int(o, "COB", cob);
    dmli_opt_int(o, "RB", rb);
    dmli_opt_int(o, "VLOAD", vload_of(v, tiled, vw));
    dmli_opt_int(o, "ACT", (int)v->act);
    dmli_opt_int(o, "TILED", tiled);
    if (pack) {
        dmli_opt_int(o, "PACKW", 1);
        dmli_opt_int(o, "LW", tu->conv_pack);
    }
    if (tiled) {
        dmli_opt_int(o, "LX", tu->conv_lx);
        dmli_opt_int(o, "LY", tu->conv_ly);
        dmli_opt_int(o, "LPATCH", tu->conv_lpatch);
        dmli_opt_int(o, "LFILT", tu->conv_lfilt);
        dmli_opt_int(o, "SB", (int)dmli_load_batch(tu));
    }
}

/* Positions along spatial dimension j that conv_chan's grid has a phase: FORWARD the output's
 * size, BACKWARD ceil(output / stride) (phase r's outputs r + stride * i). */
static int64_t chan_grid(const dmli_conv *v, int j)
{
    return v->backward ? ceil_div(v->out[j], v->stride[j]) : v->out[j];
}

/* The floats of one input channel's patch that a work-group of `positions` consecutive
 * positions (of one phase) stages in conv_chan at most (cl/conv.cl): the input depths, rows
 * and columns their taps cover, every row where they may span two depths. Along a dimension
 * the inputs of i positions are (i - 1) * J + the taps' span + 1: FORWARD J the stride and the
 * span (K - 1) * dilation, BACKWARD J 1 and the span of one phase's taps, at most
 * floor((K - 1) * dilation / stride). */
static int64_t chan_patch(const dmli_conv *v, int64_t positions)
{
    const int64_t gw = chan_grid(v, 2), gh = chan_grid(v, 1), gd = chan_grid(v, 0);
    int64_t rows = (positions + gw - 2) / gw + 1; /* grid rows (of D x H) they may touch */
    if (rows > gh * gd)
        rows = gh * gd;
    int64_t depths = gd == 1 ? 1 : (rows + gh - 2) / gh + 1;
    if (depths > gd)
        depths = gd;
    const int64_t count[3] = {depths, depths > 1 ? gh : rows, gw};
    int64_t floats = 1;
    for (int j = 0; j < 3; ++j) {
        const int64_t reach = (v->k[j] - 1) * v->dil[j];
        floats *= v->backward ? count[j] + reach / v->stride[j]
                              : (count[j] - 1) * v->stride[j] + reach + 1;
    }
    return floats;
}

/* conv_chan (CPUs, not depthwise, more than one tap): positions x channels blocks, the vectors
 * along the output channels (cl/conv.cl); BACKWARD by phases (a grid of positions per phase of
 * the strides, every position of a phase taking the same taps). The block: VW the device's int
 * vector width (16 on AVX-512, 8 on AVX2; 4 at least), NV vectors of channels (1 where a group has
 * no more channels than a vector), PB positions, at most what the vector registers hold beside the
 * filter vectors (32 registers at AVX-512's width, 16 below).
 *
 * A work-group stages its filter slice and its input patch (padding as zeros) in local memory
 * (conv_chan_pack floats at most, and no more than the device has; chunks of input channels of
 * equal size where a whole group's do not fit) and its items share them: staging is paid once
 * a work-group, so the work-groups are as large as the device's parallelism allows, about
 * conv_chan_wgs of them a compute unit (halved until one input channel fits). 3x3 convolutions
 * at 14x14, 2026-11-29: 1.50 ms in groups of 16 blocks with the slice in chunks, 1.07 with one
 * work-group a block of channels; the checks at padding cost a further third before the
 * patch. */
static bool chan_launch(const dmli_conv *v, const dmli_tuning *tu, const dmli_device_desc *dev,
                        dmli_compute_launch *l)
{
    const int64_t kvol = v->k[0] * v->k[1] * v->k[2];
    if (dev->device_class == DMLCL_DEVICE_CLASS_GPU || tu->conv_chan_pb == 0 ||
        (v->cin_g == 1 && v->groups > 1) || kvol == 1)
        return false;
    const uint32_t pref = dev->preferred_vector_width_int;
    const uint32_t vw = pref >= 16 ? 16 : pref >= 8 ? 8 : 4;
    const uint32_t nv = v->cout_g > (int64_t)vw ? tu->conv_chan_nv : 1;
    const uint32_t regs = vw >= 16 ? 32 : 16, fit = (regs - nv - 2) / nv;
    const uint32_t pb = tu->conv_chan_pb < fit ? tu->conv_chan_pb : fit;
    const int64_t cv = (int64_t)nv * vw;
    uint64_t pack = tu->conv_chan_pack;
    if (pack > dev->local_mem_size / sizeof(float))
        pack = dev->local_mem_size / sizeof(float);
    if (pb == 0)
        return false;
    const int64_t co_blocks = ceil_div(v->cout_g, cv);
    const int64_t phases = v->backward ? v->stride[0] * v->stride[1] * v->stride[2] : 1;
    const int64_t blocks = ceil_div(chan_grid(v, 0) * chan_grid(v, 1) * chan_grid(v, 2), pb);
    const int64_t slices = v->n * phases * v->groups * co_blocks;
    const int64_t want = (int64_t)tu->conv_chan_wgs * dev->compute_units;
    const int64_t split = want > slices ? ceil_div(want, slices) : 1;
    int64_t group = ceil_div(blocks, split);
    /* ... but no fewer than conv_chan_min_group items a work-group: each work-group packs the
     * slice anew, so a few large ones beat many small (3x3-14 in groups of 7 blocks: 1.17 ms,
     * of 25: 0.92). Where there are fewer blocks, one work-group of that size all the same
     * (the items past the blocks stage and compute nothing): PoCL compiles a kernel anew for
     * every work-group size, 5-9 s for conv_chan at 2 to 128 items, and a model's small layers
     * then share the large ones' compile (ResNet-18's first run compiled it at 8, 32 and 128
     * items, now at 32 and 128). */
    if (group < (int64_t)tu->conv_chan_min_group)
        group = tu->conv_chan_min_group;
    /* A power of two, for the same reason (sizes taken from the shapes made the convolution
     * suite's cold run 4 minutes instead of 44 s). */
    int64_t p2 = 1;
    while (p2 < group)
        p2 *= 2;
    group = p2;
    /* A CPU runtime keeps each item's accumulators (and coordinates) across the staging's
     * barriers in memory of its own: at most conv_chan_context bytes a work-group (PoCL's
     * stem in groups of 392 items, 1.3 KiB each, crashed, 2026-11-29). */
    const int64_t context = (int64_t)pb * cv * (int64_t)sizeof(float) + 256;
    /* The filter packed once for every work-group (conv_chan_pack, into scratch) where the
     * tuning says so: local memory then holds the patch alone. */
    const bool packed = tu->conv_chan_prepack == 1;
    const int64_t slice = packed ? 0 : kvol * cv;
    while (group > 1 && (group * context > (int64_t)tu->conv_chan_context ||
                         (uint64_t)group > dev->max_work_group_size ||
                         (uint64_t)group > dev->max_item_sizes[0] ||
                         slice + chan_patch(v, group * pb) > (int64_t)pack))
        group /= 2;
    const int64_t per_channel = slice + chan_patch(v, group * pb);
    if (per_channel > (int64_t)pack || per_channel > INT32_MAX)
        return false;
    const int64_t chunks = ceil_div(v->cin_g, (int64_t)pack / per_channel);
    const int64_t co_slices = v->groups * co_blocks;
    if (packed) {
        /* conv_chan_pack: an item a work-group, each over cip input channels of a block, about
         * conv_chan_pack_wgs of them a compute unit. */
        const uint64_t pack_floats = (uint64_t)co_slices * v->cin_g * kvol * cv;
        if (pack_floats > UINT64_MAX / sizeof(float) / 2)
            return false;
        const int64_t pack_want = (int64_t)tu->conv_chan_pack_wgs * dev->compute_units;
        int64_t cip = pack_want > co_slices ? v->cin_g * co_slices / pack_want : v->cin_g;
        if (cip < 1)
            cip = 1;
        l->pre_kernel = "conv_chan_pack";
        l->pre_tensor = 2; /* the filter (cl/abi.h: out, in, filter, bias) */
        l->pre_bytes = pack_floats * sizeof(float);
        l->pre_global[0] = (size_t)ceil_div(v->cin_g, cip);
        l->pre_global[1] = 1;
        l->pre_global[2] = (size_t)co_slices;
        l->pre_local[0] = l->pre_local[1] = l->pre_local[2] = 1;
        l->table[DMLI_CONV_PACK_CIP] = cip;
    }
    l->kernel = "conv_chan";
    l->table[DMLI_CONV_CO_BLOCKS] = co_blocks;
    l->table[DMLI_CONV_CIC] = ceil_div(v->cin_g, chunks);
    l->global[0] = (size_t)(ceil_div(blocks, group) * group);
    l->global[1] = (size_t)co_slices;
    l->global[2] = (size_t)(v->n * phases);
    l->local[0] = (size_t)group;
    l->local[1] = l->local[2] = 1;
    dmli_options *o = &l->defs;
    bool half = v->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_int(o, "OUT_HALF", half);
    dmli_opt_int(o, "BACKWARD", v->backward);
    dmli_opt_int(o, "CHAN", 1);
    dmli_opt_int(o, "CHUNKED", chunks > 1);
    dmli_opt_int(o, "PACKED", packed);
    dmli_opt_int(o, "VW", vw);
    dmli_opt_int(o, "NV", nv);
    dmli_opt_int(o, "PB", pb);
    dmli_opt_int(o, "LW", (long long)pack);
    dmli_opt_int(o, "ACT", (int)v->act);
    return true;
}

/* conv_gemm's tap table: at most this many taps (cl/conv.cl TAPS), 36 bytes each (BACKWARD's
 * marks included). */
#define CONV_GEMM_TAPS 256

/* (x mod m) in [0, m). */
static int64_t mod_pos(int64_t x, int64_t m)
{
    const int64_t r = x % m;
    return r < 0 ? r + m : r;
}

/* The most taps one phase of the strides takes: FORWARD every tap; BACKWARD, along each
 * dimension, the most taps k whose r + PAD - k * DIL is a multiple of S for one phase r (tap k
 * reaches phase (k * DIL - PAD) mod S). For split-K's k: no phase's is longer. conv_gemm's
 * filters have at most CONV_GEMM_TAPS taps, and the host checked the reaches fit an int. */
static int64_t phase_taps(const dmli_conv *v)
{
    int64_t taps = 1;
    for (int j = 0; j < 3; ++j) {
        if (!v->backward) {
            taps *= v->k[j];
            continue;
        }
        int64_t most = 0;
        for (int64_t a = 0; a < v->k[j]; ++a) {
            const int64_t ra = mod_pos(a * v->dil[j] - v->pad[j], v->stride[j]);
            int64_t n = 0;
            for (int64_t b = 0; b < v->k[j]; ++b)
                n += mod_pos(b * v->dil[j] - v->pad[j], v->stride[j]) == ra;
            most = n > most ? n : most;
        }
        taps *= most;
    }
    return taps;
}

/* conv_gemm (GPUs, not depthwise): each group's [Cout/G, Cin/G x taps] filter times its
 * [Cin/G x taps, N x D x H x W] windows through GEMM's tile (cl/tile.cl; dmli_tile_choose sizes
 * it as for a product of those sides, the groups its batches); BACKWARD one product a phase of
 * the strides (its outputs o = r + S * j, ceil(out / S) of them along a dimension at most, its
 * taps those that reach them), the phases along grid dimension 2 with the groups. Where the
 * taps fit the table and every coordinate the kernel keeps in an int fits one. */
static bool gemm_conv_launch(const dmli_conv *v, const dmli_tuning *tu, const dmli_device_desc *dev,
                             dmli_compute_launch *l)
{
    const int64_t kvol = v->k[0] * v->k[1] * v->k[2];
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU || tu->conv_gemm != 1 ||
        (v->cin_g == 1 && v->groups > 1) || kvol > CONV_GEMM_TAPS)
        return false;
    for (int j = 0; j < 3; ++j) {
        /* Window origins (o * S, or j), a tap's offset and their sums: ints. */
        const int64_t reach = (v->k[j] - 1) * v->dil[j];
        if (v->in[j] + v->pad[j] + reach >= INT32_MAX / 2 || v->pad[j] >= INT32_MAX / 2 ||
            v->out[j] >= INT32_MAX / 2 || (v->out[j] - 1) * v->stride[j] >= INT32_MAX / 2)
            return false;
    }
    if (v->cin_g > INT32_MAX / 2 || v->cin_g * kvol > INT64_MAX / 2)
        return false;
    int64_t grid = 1, phases = 1;
    for (int j = 0; j < 3; ++j) {
        grid *= v->backward ? ceil_div(v->out[j], v->stride[j]) : v->out[j];
        phases *= v->backward ? v->stride[j] : 1;
    }
    const int64_t positions = v->n * grid;
    /* k: a group's input channels times its taps (a BACKWARD phase takes some of them). */
    const dmli_tile t =
        dmli_tile_choose(dev, v->cout_g, positions, v->cin_g * kvol, tu->conv_gemm_k_max,
                         (size_t)(v->groups * phases), (uint64_t)CONV_GEMM_TAPS * 36 + 16);
    if (t.local_bytes > dev->local_mem_size || t.tx * t.ty > dev->max_work_group_size)
        return false;
    const int64_t along_n = ceil_div(positions, (int64_t)(t.tx * t.wn)),
                  along_m = ceil_div(v->cout_g, (int64_t)(t.ty * t.wm));
    const uint64_t groups = (uint64_t)along_n * (uint64_t)along_m * (uint64_t)(v->groups * phases);
    int64_t k_slice;
    const uint32_t splits = dmli_tile_split(dev, &t, groups, v->cin_g * phase_taps(v), &k_slice);
    /* FORWARD, stride 1, several taps, many input channels: conv_tiled (its staged patch serves
     * every tap, where this kernel stages an input value once a tap; on an H200 ResNet's 3x3 at
     * 14 x 14 0.34 ms against 0.42, at 56 x 56 0.11 against 0.12), unless this kernel's tiles
     * are so few that its k splits (src/tuning.c tile_split_items: both of those layers, whose
     * time was the latency of their k steps, 288 and 72 of them a work-group). */
    if (splits == 1 && !v->backward && kvol > 1 && v->stride[0] == 1 && v->stride[1] == 1 &&
        v->stride[2] == 1 && v->cin_g >= (int64_t)tu->conv_tiled_from_cin && tiled_fits(v, tu, dev))
        return false;
    l->kernel = "conv_gemm";
    l->global[0] = (size_t)along_n * t.tx;
    l->global[1] = (size_t)along_m * t.ty;
    l->global[2] = (size_t)(v->groups * phases);
    l->local[0] = t.tx;
    l->local[1] = t.ty;
    l->local[2] = 1;
    l->splits = splits;
    l->table[DMLI_CONV_SPLITS] = splits;
    l->table[DMLI_CONV_SPLIT_K] = k_slice;
    if (splits > 1)
        l->split_bytes = dmli_tile_split_bytes(&t, groups, splits);
    dmli_options *o = &l->defs;
    const bool half = v->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_int(o, "OUT_HALF", half);
    dmli_opt_int(o, "BACKWARD", v->backward);
    dmli_opt_int(o, "ACT", (int)v->act);
    dmli_opt_int(o, "IGEMM", 1);
    dmli_opt_int(o, "TX", (long long)t.tx);
    dmli_opt_int(o, "TY", (long long)t.ty);
    dmli_opt_int(o, "WN", (long long)t.wn);
    dmli_opt_int(o, "WM", (long long)t.wm);
    dmli_opt_int(o, "TK", (long long)t.tk);
    dmli_opt_int(o, "TAPS", CONV_GEMM_TAPS);
    return true;
}

/* conv_dwt (GPUs): a FORWARD depthwise layer of one plane (2-D or 1-D: no depth), whose tile's
 * patch and the group's filters fit the tuning's local arrays and the device. */
static bool dwt_launch(const dmli_conv *v, const dmli_tuning *tu, const dmli_device_desc *dev,
                       dmli_compute_launch *l)
{
    const uint32_t lx = tu->conv_dw_lx, ly = tu->conv_dw_ly, dr = tu->conv_dw_rows;
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU || tu->conv_dw_tiled != 1 || v->backward ||
        !(v->cin_g == 1 && v->groups > 1) || v->k[0] != 1 || v->in[0] != 1 || v->out[0] != 1 ||
        lx == 0 || ly == 0 || dr == 0 || dr > 16 || (size_t)lx * ly > dev->max_work_group_size ||
        lx > dev->max_item_sizes[0] || ly > dev->max_item_sizes[1] ||
        ((uint64_t)tu->conv_dw_lpatch + tu->conv_dw_lfilt) * sizeof(float) > dev->local_mem_size)
        return false;
    /* The patch's columns and rows (cl/conv.cl conv_dwt), each bounded before the product. */
    const int64_t pw = ((int64_t)lx - 1) * v->stride[2] + (v->k[2] - 1) * v->dil[2] + 1;
    const int64_t ph = ((int64_t)ly * dr - 1) * v->stride[1] + (v->k[1] - 1) * v->dil[1] + 1;
    if (pw > (int64_t)tu->conv_dw_lpatch || ph > (int64_t)tu->conv_dw_lpatch ||
        pw * ph > (int64_t)tu->conv_dw_lpatch ||
        v->cout_g * v->k[1] * v->k[2] > (int64_t)tu->conv_dw_lfilt)
        return false;
    const int64_t wt = ceil_div(v->out[2], lx), ht = ceil_div(v->out[1], (int64_t)ly * dr);
    l->kernel = "conv_dwt";
    l->table[DMLI_CONV_W_BLOCKS] = wt;
    l->table[DMLI_CONV_H_BLOCKS] = ht;
    l->global[0] = (size_t)wt * lx;
    l->global[1] = (size_t)v->groups * ly;
    l->global[2] = (size_t)(v->n * ht);
    l->local[0] = lx;
    l->local[1] = ly;
    l->local[2] = 1;
    dmli_options *o = &l->defs;
    const bool half = v->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_int(o, "OUT_HALF", half);
    dmli_opt_int(o, "ACT", (int)v->act);
    dmli_opt_int(o, "DWT", 1);
    dmli_opt_int(o, "LX", lx);
    dmli_opt_int(o, "LY", ly);
    dmli_opt_int(o, "DR", dr);
    dmli_opt_int(o, "LPATCH", tu->conv_dw_lpatch);
    dmli_opt_int(o, "LFILT", tu->conv_dw_lfilt);
    dmli_opt_int(o, "SB", (int)dmli_load_batch(tu));
    return true;
}

void dmli_launch_conv(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_conv *v = DMLI_COMPUTE_WORK_CONST(c, dmli_conv);
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    table(v, l->table);
    l->table_count = DMLI_CONV_TABLE;
    l->source = DMLI_SOURCE_CONV;
    const bool depthwise = v->cin_g == 1 && v->groups > 1;
    if (gemm_conv_launch(v, tu, dev, l) || dwt_launch(v, tu, dev, l))
        return;
    if (tiled_fits(v, tu, dev) && !depthwise) {
        uint32_t vw = tu->conv_tile_vw, cob = tu->conv_tile_cob;
        int64_t co_tiles = ceil_div(v->cout_g, (int64_t)tu->conv_ly * cob);
        l->kernel = "conv_tiled";
        l->table[DMLI_CONV_CO_BLOCKS] = co_tiles;
        l->table[DMLI_CONV_CIC] = tiled_chunk(v, tu);
        l->table[DMLI_CONV_W_BLOCKS] = ceil_div(v->out[2], (int64_t)tu->conv_lx * vw);
        l->table[DMLI_CONV_H_BLOCKS] = v->out[1];
        l->global[0] = (size_t)l->table[DMLI_CONV_W_BLOCKS] * tu->conv_lx;
        l->global[1] = (size_t)(v->groups * co_tiles) * tu->conv_ly;
        l->global[2] = (size_t)(v->n * v->out[0] * v->out[1]);
        l->local[0] = tu->conv_lx;
        l->local[1] = tu->conv_ly;
        l->local[2] = 1;
        options(v, true, vw, cob, 1, false, tu, &l->defs);
        return;
    }
    if (chan_launch(v, tu, dev, l))
        return;
    /* Positions a vector: the device's int vector width (16 on AVX-512, 8 on AVX2), at most the
     * tuning's, at least 4, and halved where a row (BACKWARD: a phase of one) has fewer positions,
     * so that a block's lanes are mostly its own. */
    const int64_t row = v->backward ? ceil_div(v->out[2], v->stride[2]) : v->out[2];
    uint32_t pref = dev->preferred_vector_width_int >= 4 ? dev->preferred_vector_width_int : 4;
    uint32_t vw = depthwise ? tu->conv_dw_vw : tu->conv_vw;
    if (pref < vw)
        vw = pref >= 16 ? 16 : pref >= 8 ? 8 : 4;
    if (vw > 4 && row < vw) /* once: two widths a device (each a compiled variant) */
        vw /= 2;
    /* A halved vector width doubles the channels, up to conv_max_cob. */
    uint32_t cob = depthwise ? tu->conv_dw_cob : v->backward ? tu->conv_bwd_cob : tu->conv_cob;
    uint32_t rb = depthwise ? tu->conv_dw_rb : v->backward ? tu->conv_bwd_rb : tu->conv_rb;
    if (!depthwise && vw < tu->conv_vw)
        cob = cob * (tu->conv_vw / vw) < tu->conv_max_cob ? cob * (tu->conv_vw / vw)
                                                          : tu->conv_max_cob;
    int64_t co_blocks = ceil_div(v->cout_g, cob);
    l->kernel = "conv_direct";
    l->table[DMLI_CONV_CO_BLOCKS] = co_blocks;
    l->table[DMLI_CONV_W_BLOCKS] =
        v->backward ? v->stride[2] * ceil_div(row, vw) : ceil_div(row, vw);
    l->table[DMLI_CONV_H_BLOCKS] = ceil_div(v->out[1], rb);
    l->global[0] =
        (size_t)(l->table[DMLI_CONV_W_BLOCKS] * l->table[DMLI_CONV_H_BLOCKS] * v->out[0]);
    l->global[1] = (size_t)(v->groups * co_blocks);
    l->global[2] = (size_t)v->n;
    l->local[0] = l->local[1] = l->local[2] = 1;
    /* CPUs: the filter slice of a chunk of input channels packed in local memory (cl/conv.cl
     * PACKW), shared by a work-group of blocks along the positions; where one input channel's
     * slice fits (not depthwise: its blocks have one channel, nothing to share; not 1x1:
     * conv-1x1-56 took 1.12 ms against 0.73 unpacked, 2026-11-28, dmlcl-ab). */
    const int64_t kvol = v->k[0] * v->k[1] * v->k[2];
    const int64_t cic = kvol * cob <= tu->conv_pack ? tu->conv_pack / (kvol * cob) : 0;
    size_t group = tu->conv_cpu_group < l->global[0] ? tu->conv_cpu_group : l->global[0];
    while (group > 1 && (group > dev->max_work_group_size || group > dev->max_item_sizes[0]))
        group /= 2;
    const bool pack = dev->device_class != DMLCL_DEVICE_CLASS_GPU && !depthwise && kvol > 1 &&
                      cic >= 1 && (uint64_t)tu->conv_pack * sizeof(float) <= dev->local_mem_size;
    if (pack) {
        l->table[DMLI_CONV_CIC] = cic < v->cin_g ? cic : v->cin_g;
        l->local[0] = group;
        /* Rounded up to whole groups: the surplus computes nothing. */
        l->global[0] = (l->global[0] + group - 1) / group * group;
    } else if (dev->device_class == DMLCL_DEVICE_CLASS_GPU) { /* groups along the positions */
        size_t g = tu->conv_gpu_group;
        while (g > 1 && (g > dev->max_work_group_size || g > dev->max_item_sizes[0]))
            g /= 2;
        l->local[0] = g;
        l->global[0] = (l->global[0] + g - 1) / g * g; /* the kernel skips the surplus items */
    }
    options(v, false, vw, cob, rb, pack, tu, &l->defs);
}
