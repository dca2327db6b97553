/* SPDX-License-Identifier: MIT */
/*
 * The launch of an integer matrix operator (cl/intmm.cl): its variant (A's and B's types, the
 * output's kind and type, the optional tensors present, product or convolution), its table
 * (cl/intmm_abi.h) and its grid. CPUs take intmm_blocks for a product whose B runs along N by
 * unit strides (B's zero point constant along M, A's along N): a work-item an MR x (NV * VW)
 * block on the device's float vectors (the sums exact, cl/intmm.cl), work-groups of
 * gemm_cpu_group blocks along M sharing B's panel, as gemm_blocks' (src/launch_gemm.c). Else
 * intmm: a work-item per DMLI_IMM_BLOCK outputs along D3, work-groups of up to 64 items along D3
 * and D2. Pure host code, as launch.c.
 */
#include "intmm.h"
#include "launch.h"
#include "tuning.h"

_Static_assert(DMLI_IMM_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the integer matrix table fits");

/* Items a work-group along grid dimensions 0 and 1, at most. */
#define IMM_GROUP 64

static const char *int8_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 ? "char" : "uchar";
}

static void options(const dmli_intmm *m, dmli_options *o)
{
    dmli_opt_int(o, "CONV", m->conv);
    dmli_opt_str(o, "TA", int8_type(m->a_type));
    dmli_opt_str(o, "TB", int8_type(m->b_type));
    dmli_opt_int(o, "OUT_KIND", m->out_kind);
    if (m->out_kind == DMLI_IMM_OUT_INT32) {
        dmli_opt_str(o, "TO", "int");
    } else if (m->out_kind == DMLI_IMM_OUT_QUANT) {
        const bool s8 = m->out_type == DML_TENSOR_DATA_TYPE_INT8;
        dmli_opt_str(o, "TO", int8_type(m->out_type));
        dmli_opt_int(o, "QMIN", s8 ? -128 : 0);
        dmli_opt_int(o, "QMAX", s8 ? 127 : 255);
        dmli_opt_int(o, "HAS_OZP", m->present[DMLI_IMM_OZP]);
    } else {
        dmli_opt_str(o, "TO", dmli_map_storage_type(m->out_type));
        dmli_opt_int(o, "HALF", m->out_type == DML_TENSOR_DATA_TYPE_FLOAT16);
    }
    dmli_opt_int(o, "HAS_AZP", m->present[DMLI_IMM_AZP]);
    dmli_opt_int(o, "HAS_BZP", m->present[DMLI_IMM_BZP]);
    dmli_opt_int(o, "HAS_BIAS", m->present[DMLI_IMM_BIAS]);
}

/* The smallest power of two at least v, at most the largest one up to cap (cap >= 1). */
static size_t group_along(int64_t v, size_t cap)
{
    size_t g = 1;
    while (g * 2 <= cap && (int64_t)g < v)
        g *= 2;
    return g;
}

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

/* The largest element offset + 1 of a tensor of these sizes and strides (0 if empty). */
static int64_t extent(const int64_t *sizes, const int64_t *strides)
{
    int64_t e = 1;
    for (int d = 0; d < 4; ++d) {
        if (sizes[d] <= 0)
            return 0;
        e += (sizes[d] - 1) * strides[d];
    }
    return e;
}

/* The blocks' vector width: the tuning's intmm_vw, else the device's preferred int width; 16,
 * 8 or 4. */
static uint32_t vector_width(const dmli_device_desc *dev)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    uint32_t vw = tu->intmm_vw ? tu->intmm_vw : dev->preferred_vector_width_int;
    return vw >= 16 ? 16 : vw >= 8 ? 8 : 4;
}

/* Rows a block of intmm_blocks. */
#define IMM_ROWS 4

/* Whether intmm_blocks computes m on dev: a CPU, a product, B unit-strided along N, the zero
 * points' broadcasts as the block reads them (one of A's a row, one of B's a column). */
static bool blocks_fit(const dmli_intmm *m, const dmli_device_desc *dev)
{
    return dev->device_class == DMLCL_DEVICE_CLASS_CPU && !m->conv &&
           m->strides[DMLI_IMM_B][3] == 1 &&
           (!m->present[DMLI_IMM_AZP] || m->strides[DMLI_IMM_AZP][3] == 0) &&
           (!m->present[DMLI_IMM_BZP] || m->strides[DMLI_IMM_BZP][2] == 0);
}

/* intmm_blocks' options and grid: VW the device's preferred int vector width (16, 8 or 4), NV
 * vectors a block (4 where 32 vector registers hold the MR x NV accumulators, NV of B and A's
 * value; 2 else), halved while N fits in half the block's columns. */
static void blocks_plan(const dmli_intmm *m, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    uint32_t vw = vector_width(dev);
    uint32_t nv = vw >= 16 ? 4 : 2;
    while (nv > 1 && m->d[3] <= (int64_t)(nv / 2 * vw))
        nv /= 2;
    dmli_opt_int(&l->defs, "MR", IMM_ROWS);
    dmli_opt_int(&l->defs, "NV", (int)nv);
    dmli_opt_int(&l->defs, "VW", (int)vw);
    l->kernel = "intmm_blocks";
    const size_t along = (size_t)((m->d[2] + IMM_ROWS - 1) / IMM_ROWS);
    const size_t cols = nv * vw;
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    size_t group = tu->gemm_cpu_group ? tu->gemm_cpu_group : 1;
    group = group < along ? group : along;
    while (group > 1 && (group > dev->max_item_sizes[0] || group > dev->max_work_group_size))
        group /= 2;
    l->global[0] = round_up(along, group);
    l->global[1] = (size_t)((m->d[3] + (int64_t)cols - 1) / (int64_t)cols);
    l->global[2] = (size_t)(m->d[0] * m->d[1]);
    l->local[0] = group;
    l->local[1] = 1;
    l->local[2] = 1;
}

/* Whether intmm_conv_blocks computes the convolution m on dev: a CPU, the input's zero point one
 * value an image, the filter's one an output channel. */
static bool conv_blocks_fit(const dmli_intmm *m, const dmli_device_desc *dev)
{
    const int64_t *za = m->strides[DMLI_IMM_AZP], *zb = m->strides[DMLI_IMM_BZP];
    return dev->device_class == DMLCL_DEVICE_CLASS_CPU && m->conv &&
           (!m->present[DMLI_IMM_AZP] || (za[1] == 0 && za[2] == 0 && za[3] == 0)) &&
           (!m->present[DMLI_IMM_BZP] || (zb[2] == 0 && zb[3] == 0));
}

/* intmm_conv_blocks' options and grid: VW and NV as blocks_plan's, over the output's columns;
 * MR the most output channels (8, 4, 2 or 1) that divides a group's and fits the registers
 * (MR x NV accumulators, NV input vectors and a filter value). */
static void conv_blocks_plan(const dmli_intmm *m, const dmli_device_desc *dev,
                             dmli_compute_launch *l)
{
    uint32_t vw = vector_width(dev);
    uint32_t nv = vw >= 16 ? 4 : 2;
    while (nv > 1 && m->d[3] <= (int64_t)(nv / 2 * vw))
        nv /= 2;
    const uint32_t registers = vw >= 16 ? 32 : 16;
    uint32_t mr = 8;
    while (mr > 1 && (m->cout_g % mr != 0 || mr * nv + nv + 1 > registers))
        mr /= 2;
    dmli_opt_int(&l->defs, "MR", (int)mr);
    dmli_opt_int(&l->defs, "NV", (int)nv);
    dmli_opt_int(&l->defs, "VW", (int)vw);
    l->kernel = "intmm_conv_blocks";
    const size_t along = (size_t)(m->d[1] / mr), cols = nv * vw;
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    size_t group = tu->gemm_cpu_group ? tu->gemm_cpu_group : 1;
    group = group < along ? group : along;
    while (group > 1 && (group > dev->max_item_sizes[0] || group > dev->max_work_group_size))
        group /= 2;
    l->global[0] = round_up(along, group);
    l->global[1] = (size_t)(m->d[2] * ((m->d[3] + (int64_t)cols - 1) / (int64_t)cols));
    l->global[2] = (size_t)m->d[0];
    l->local[0] = group;
    l->local[1] = 1;
    l->local[2] = 1;
}

/* Whether intmm_tiles computes m on dev: a GPU, a product of at least TILES_MIN rows and
 * columns (fewer: intmm's items, a K loop each, not a work-group's tile for a few outputs), the
 * zero points' broadcasts as the tile stages them (one of A's a row, one of B's a column). */
#define TILES_MIN 16
static bool tiles_fit(const dmli_intmm *m, const dmli_device_desc *dev)
{
    return dev->device_class == DMLCL_DEVICE_CLASS_GPU && !m->conv && m->d[2] >= TILES_MIN &&
           m->d[3] >= TILES_MIN &&
           (!m->present[DMLI_IMM_AZP] || m->strides[DMLI_IMM_AZP][3] == 0) &&
           (!m->present[DMLI_IMM_BZP] || m->strides[DMLI_IMM_BZP][2] == 0);
}

/* intmm_tiles' options and grid: the GPU tile (src/launch.h dmli_tile_choose) of the product;
 * false where its slabs do not fit the device's local memory. */
static bool tiles_plan(const dmli_intmm *m, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    const size_t batches = (size_t)(m->d[0] * m->d[1]);
    dmli_tile t = dmli_tile_choose(dev, m->d[2], m->d[3], m->k, tu->gemm_tile_k_max, batches, 0);
    if (t.local_bytes > dev->local_mem_size || t.tx * t.ty > dev->max_work_group_size)
        return false;
    /* Steps of up to 32 k where the slabs fit: a warp's staging loads of a row along k then
     * fill 32-byte sectors (cl/intmm.cl TILE_KRUN; 8 k, the float tile's step, use a quarter). */
    const uint64_t pitch = (uint64_t)(t.ty * t.wm + 4 + t.tx * t.wn + 4) * 2 * sizeof(float);
    while (t.tk < 32 && (int64_t)t.tk < m->k && pitch * t.tk * 2 <= dev->local_mem_size)
        t.tk *= 2;
    dmli_opt_int(&l->defs, "TILES", 1);
    dmli_opt_int(&l->defs, "TX", (long long)t.tx);
    dmli_opt_int(&l->defs, "TY", (long long)t.ty);
    dmli_opt_int(&l->defs, "WN", (long long)t.wn);
    dmli_opt_int(&l->defs, "WM", (long long)t.wm);
    dmli_opt_int(&l->defs, "TK", (long long)t.tk);
    l->kernel = "intmm_tiles";
    l->local[0] = t.tx;
    l->local[1] = t.ty;
    l->local[2] = 1;
    l->global[0] = (size_t)((m->d[3] + (int64_t)(t.tx * t.wn) - 1) / (int64_t)(t.tx * t.wn)) * t.tx;
    l->global[1] = (size_t)((m->d[2] + (int64_t)(t.ty * t.wm) - 1) / (int64_t)(t.ty * t.wm)) * t.ty;
    l->global[2] = batches;
    return true;
}

/* intmm_conv_chan's row of inputs: at most this many vectors (cl/intmm.cl RLMAX). */
#define CHAN_ROW_VECTORS 4
/* ... and the taps of its filter at most (cl/intmm.cl KCHUNK: a chunk holds an input channel's). */
#define CHAN_TAPS 256

/* intmm_conv_chan's vectors of channels: the tuning's intmm_chan_nv where a group has more
 * channels than a vector, else 1. */
static uint32_t chan_vectors(const dmli_intmm *m, const dmli_tuning *tu, uint32_t vw)
{
    return m->cout_g > (int64_t)vw && tu->intmm_chan_nv ? tu->intmm_chan_nv : 1;
}

/* Whether intmm_conv_chan computes the convolution m on dev: a CPU whose tuning has it, the zero
 * points as intmm_conv_blocks takes them (the filter's one an output channel, whatever the image),
 * at least half a vector of output channels a group (fewer, as depthwise ones: intmm_conv_blocks'
 * vectors along the columns), at most CHAN_TAPS taps, the row of inputs within
 * CHAN_ROW_VECTORS. */
static bool chan_fit(const dmli_intmm *m, const dmli_device_desc *dev)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    const uint32_t vw = vector_width(dev);
    const int64_t *zb = m->strides[DMLI_IMM_BZP];
    if (!conv_blocks_fit(m, dev) || tu->intmm_chan != 1 || tu->intmm_chan_pb == 0 ||
        m->cout_g * 2 < (int64_t)vw || m->win[0] * m->win[1] > CHAN_TAPS ||
        (m->present[DMLI_IMM_BZP] && zb[0] != 0))
        return false;
    const int64_t pb = tu->intmm_chan_pb;
    const int64_t row = (pb - 1) * m->stride[1] + (m->win[1] - 1) * m->dil[1] + 1;
    return row <= (int64_t)vw * CHAN_ROW_VECTORS;
}

/* intmm_conv_chan's options, grid and pre-step (the filter packed as floats, a group's blocks of
 * CV = NV x VW channels, once at initialization where the filter and its zero point are owned).
 * PB the tuning's intmm_chan_pb, at most what the registers hold beside the NV filter vectors
 * (32 at AVX-512's width, 16 below); work-groups of up to gemm_cpu_group items along the rows'
 * blocks share a block's filter slice. */
static void chan_plan(const dmli_intmm *m, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    const uint32_t vw = vector_width(dev), nv = chan_vectors(m, tu, vw);
    const uint32_t regs = vw >= 16 ? 32 : 16, fit = (regs - nv - 2) / nv;
    const uint32_t pb = tu->intmm_chan_pb < fit ? tu->intmm_chan_pb : fit;
    const int64_t cv = (int64_t)nv * vw, co_blocks = (m->cout_g + cv - 1) / cv;
    const int64_t groups = m->d[1] / m->cout_g, kvol = m->win[0] * m->win[1];
    dmli_opt_int(&l->defs, "CHAN", 1);
    dmli_opt_int(&l->defs, "PB", (int)pb);
    dmli_opt_int(&l->defs, "NV", (int)nv);
    dmli_opt_int(&l->defs, "VW", (int)vw);
    dmli_opt_int(&l->defs, "SW", m->stride[1] == 1 || m->stride[1] == 2 ? (int)m->stride[1] : 0);
    l->kernel = "intmm_conv_chan";
    l->table[DMLI_IMM_CO_BLOCKS] = co_blocks;
    const size_t along = (size_t)(m->d[2] * ((m->d[3] + pb - 1) / pb));
    size_t group = tu->gemm_cpu_group ? tu->gemm_cpu_group : 1;
    group = group < along ? group : along;
    while (group > 1 && (group > dev->max_item_sizes[0] || group > dev->max_work_group_size))
        group /= 2;
    l->global[0] = round_up(along, group);
    l->global[1] = (size_t)(groups * co_blocks);
    l->global[2] = (size_t)m->d[0];
    l->local[0] = group;
    l->local[1] = 1;
    l->local[2] = 1;
    l->pre_kernel = "intmm_conv_pack";
    l->pre_tensor = DMLI_IMM_B;
    l->pre_two = true; /* the filter's zero point, or the filter again (unread) */
    l->pre_tensor2 = m->present[DMLI_IMM_BZP] ? DMLI_IMM_BZP : DMLI_IMM_B;
    l->pre_bytes =
        (uint64_t)(groups * co_blocks) * (uint64_t)(m->cin_g * kvol * cv) * sizeof(float);
    l->pre_global[0] = (size_t)m->cin_g;
    l->pre_global[1] = 1;
    l->pre_global[2] = (size_t)(groups * co_blocks);
    l->pre_local[0] = l->pre_local[1] = l->pre_local[2] = 1;
}

void dmli_launch_intmm(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_intmm *m = DMLI_COMPUTE_WORK_CONST(c, dmli_intmm);
    l->source = DMLI_SOURCE_INTMM;
    l->kernel = "intmm";
    options(m, &l->defs);
    cl_long *t = l->table;
    for (int i = 0; i < 4; ++i)
        t[DMLI_IMM_D(i)] = m->d[i];
    t[DMLI_IMM_K] = m->k;
    t[DMLI_IMM_CIN_G] = m->cin_g;
    t[DMLI_IMM_COUT_G] = m->cout_g;
    t[DMLI_IMM_IN_H] = m->in[0];
    t[DMLI_IMM_IN_W] = m->in[1];
    t[DMLI_IMM_K_H] = m->win[0];
    t[DMLI_IMM_K_W] = m->win[1];
    t[DMLI_IMM_STRIDE_H] = m->stride[0];
    t[DMLI_IMM_STRIDE_W] = m->stride[1];
    t[DMLI_IMM_DIL_H] = m->dil[0];
    t[DMLI_IMM_DIL_W] = m->dil[1];
    t[DMLI_IMM_PAD_H] = m->pad[0];
    t[DMLI_IMM_PAD_W] = m->pad[1];
    for (int r = 0; r < DMLI_IMM_ROLES; ++r)
        for (int d = 0; d < 4; ++d)
            t[DMLI_IMM_STRIDE(r, d)] = m->strides[r][d];
    const int64_t groups = m->conv && m->cout_g ? m->d[1] / m->cout_g : 1;
    const int64_t as[4] = {m->d[0], m->conv ? m->cin_g * groups : m->d[1],
                           m->conv ? m->in[0] : m->d[2], m->conv ? m->in[1] : m->k},
                  bs[4] = {m->conv ? m->d[1] : m->d[0], m->conv ? m->cin_g : m->d[1],
                           m->conv ? m->win[0] : m->k, m->conv ? m->win[1] : m->d[3]};
    t[DMLI_IMM_EXTENT_A] = extent(as, m->strides[DMLI_IMM_A]);
    t[DMLI_IMM_EXTENT_B] = extent(bs, m->strides[DMLI_IMM_B]);
    l->table_count = DMLI_IMM_TABLE;
    if (blocks_fit(m, dev)) {
        blocks_plan(m, dev, l);
        return;
    }
    if (tiles_fit(m, dev) && tiles_plan(m, dev, l))
        return;
    if (chan_fit(m, dev)) {
        chan_plan(m, dev, l);
        return;
    }
    if (conv_blocks_fit(m, dev)) {
        conv_blocks_plan(m, dev, l);
        return;
    }
    const int64_t cols = (m->d[3] + DMLI_IMM_BLOCK - 1) / DMLI_IMM_BLOCK;
    size_t cap = dev->max_work_group_size < IMM_GROUP ? dev->max_work_group_size : IMM_GROUP;
    cap = cap < dev->max_item_sizes[0] ? cap : dev->max_item_sizes[0];
    size_t g0 = group_along(cols, cap ? cap : 1);
    size_t cap1 = (cap ? cap : 1) / g0;
    cap1 = cap1 < dev->max_item_sizes[1] ? cap1 : dev->max_item_sizes[1];
    size_t g1 = group_along(m->d[2], cap1 ? cap1 : 1);
    l->global[0] = round_up((size_t)cols, g0);
    l->global[1] = round_up((size_t)m->d[2], g1);
    l->global[2] = (size_t)(m->d[0] * m->d[1]);
    l->local[0] = g0;
    l->local[1] = g1;
    l->local[2] = 1;
}
