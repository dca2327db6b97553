/* SPDX-License-Identifier: MIT */
/*
 * The matrix family's launch on the host (src/launch_gemm.c) for GPUs: gemm_tiles' block, step
 * and group from src/tuning.c's GPU table (16 x 16 items, 8 x 8 blocks, k by 8), the block halved
 * (the side whose halving adds more groups, n on a tie, down to 4 x 4) while its tiles give
 * fewer work-groups than the device
 * has compute units (gemm_tile_fill 100: one each) or its two slabs of each operand pass the
 * device's local memory; the grid covering the output. Expected values from those rules and
 * the benchmark's shapes on an H200 (132 compute units, 48 KiB of local memory).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "launch.h"
#include "support.h"

static const dmli_device_desc h200 = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};

/* The matrix family's description g as a launch reads it, with n_tensors tensors. */
static dmli_compute gemm_compute(const dmli_gemm *g, uint32_t n_tensors)
{
    dmli_compute c;
    memset(&c, 0, sizeof c);
    c.kind = DMLI_COMPUTE_GEMM;
    c.n_tensors = n_tensors;
    memcpy(c.work, g, sizeof *g);
    return c;
}

/* A packed FLOAT32 GEMM [batch, m, k] x [batch, k, n] (B transposed: [batch, n, k]). */
static dmli_compute packed(int64_t batch, int64_t m, int64_t n, int64_t k, bool trans_b)
{
    dmli_gemm g;
    memset(&g, 0, sizeof g);
    g.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    g.m = m;
    g.n = n;
    g.k = k;
    g.a_m = k;
    g.a_k = 1;
    g.b_k = trans_b ? 1 : n;
    g.b_n = trans_b ? k : 1;
    g.o_m = n;
    g.o_n = 1;
    g.alpha = 1;
    if (batch > 1) {
        g.batch_rank = 1;
        g.batch[0] = batch;
        g.a_b[0] = m * k;
        g.b_b[0] = k * n;
        g.o_b[0] = m * n;
    }
    return gemm_compute(&g, 3);
}

static long long option(const dmli_compute_launch *l, const char *name)
{
    const char *v = dmli_options_value(&l->defs, name);
    cr_assert(v, "no %s in %s", name, l->options);
    return atoll(v);
}

/* The work-group (TX x TY), block (WN x WM), k step and grid the launch picks on dev. */
static void expect_group_k(const dmli_compute *c, const dmli_device_desc *dev, size_t tx, size_t ty,
                           long long wn, long long wm, long long tk, size_t groups_n,
                           size_t groups_m, size_t batches)
{
    dmli_compute_launch l;
    dmli_launch_compute(c, dev, &l);
    cr_expect_str_eq(l.kernel, "gemm_tiles");
    cr_expect(option(&l, "WN") == wn && option(&l, "WM") == wm, "block WN %lld WM %lld: %s", wn, wm,
              l.options);
    cr_expect(option(&l, "TX") == (long long)tx && option(&l, "TY") == (long long)ty &&
                  option(&l, "TK") == tk,
              "items %zu x %zu, k step %lld: %s", tx, ty, tk, l.options);
    cr_expect(l.local[0] == tx && l.local[1] == ty && l.local[2] == 1, "local %zu %zu %zu",
              l.local[0], l.local[1], l.local[2]);
    cr_expect(l.global[0] == groups_n * tx && l.global[1] == groups_m * ty &&
                  l.global[2] == batches,
              "global %zu %zu %zu, expected %zu %zu %zu", l.global[0], l.global[1], l.global[2],
              groups_n * tx, groups_m * ty, batches);
}

/* ... with k steps of 8 (the tuned tile's). */
static void expect_group(const dmli_compute *c, const dmli_device_desc *dev, size_t tx, size_t ty,
                         long long wn, long long wm, size_t groups_n, size_t groups_m,
                         size_t batches)
{
    expect_group_k(c, dev, tx, ty, wn, wm, 8, groups_n, groups_m, batches);
}

/* ... with work-groups of 16 x 16 items. */
static void expect_tiles(const dmli_compute *c, const dmli_device_desc *dev, long long wn,
                         long long wm, size_t groups_n, size_t groups_m, size_t batches)
{
    expect_group(c, dev, 16, 16, wn, wm, groups_n, groups_m, batches);
}

Test(gemm_launch, gpu_blocks_shrink_until_every_compute_unit_has_a_tile)
{
    /* 4096 x 4096 x 1024: 32 x 32 tiles of 128 x 128 (1024 groups). */
    dmli_compute c = packed(1, 4096, 4096, 1024, false);
    expect_tiles(&c, &h200, 8, 8, 32, 32, 1);
    /* 1024^3: 64 tiles of 128 x 128, 128 of 128 x 64, 256 of 64 x 64 (k steps of 16: the
     * slabs of 128 + 128 floats a k row, 64 + 64 for the smaller tile). */
    c = packed(1, 1024, 1024, 1024, false);
    expect_group_k(&c, &h200, 16, 16, 4, 4, 16, 16, 16, 1);
    /* The projection [1024, 384] x [384, 1536]: 96 tiles, then 192 of 128 rows x 64 columns. */
    c = packed(1, 1024, 1536, 384, false);
    expect_tiles(&c, &h200, 4, 8, 24, 8, 1);
    /* Attention's 96 x [128, 64] x [64, 128] (B transposed): 96 tiles, then 192. */
    c = packed(96, 128, 128, 64, true);
    expect_tiles(&c, &h200, 4, 8, 2, 1, 96);
    /* Taller than wide: 8 columns an item would leave half the 128-column tile idle (N 64):
     * 4; then m's halving doubles the 64 groups to 128, still short of 132: the work-group
     * halves, along n on a tie (2 x 128 tiles of 32 x 64). */
    c = packed(1, 8192, 64, 256, false);
    expect_group_k(&c, &h200, 8, 16, 4, 4, 16, 2, 128, 1);
    /* Wider than tall, 128 rows: halving either side doubles the 64 groups: n first (a tie),
     * then m (128 < 132): 4 x 4, 256 groups. */
    c = packed(1, 128, 8192, 256, false);
    expect_group_k(&c, &h200, 16, 16, 4, 4, 16, 128, 2, 1);
    /* A tiny product: 4 x 4 blocks, and work-groups of 8 x 8 items (one tile whatever); k of
     * 7 keeps steps of 8. */
    c = packed(1, 3, 5, 7, false);
    expect_group(&c, &h200, 8, 8, 4, 4, 1, 1, 1);
    /* A convolution's shape class, 256 output channels x 196 positions (ResNet's 3 x 3 at 14 x
     * 14): 4 x 4 blocks give 16 tiles of 64 x 64; groups of 8 x 8 items, 56 of 32 x 32, whose
     * k steps grow to 16 (gemm_tile_k_max; 32 would also keep the slabs' floats, 32 * 64 as 8
     * * 256). */
    c = packed(1, 256, 196, 2304, false);
    expect_group_k(&c, &h200, 8, 8, 4, 4, 16, 7, 8, 1);
    /* ... k of 15 keeps steps of 8 (a step no longer than k). */
    c = packed(1, 256, 196, 15, false);
    expect_group(&c, &h200, 8, 8, 4, 4, 7, 8, 1);
}

Test(gemm_launch, gpu_k_step_growth_is_tuning_data)
{
    /* gemm_tile_k_max=8: the k step stays the tuned one whatever the tile. */
    char *restore = unit_tuning_set("gemm_tile_k_max=8");
    dmli_compute c = packed(1, 256, 196, 2304, false);
    expect_group(&c, &h200, 8, 8, 4, 4, 7, 8, 1);
    unit_tuning_restore(restore);
    /* 32: the 32 x 32 tiles take steps of 32 (the floats of 8 steps of the 128 x 128 tile), k
     * of 40 two of them, the 64 x 64 tiles of 1024^3 16 (32 would double the tuned slabs). */
    restore = unit_tuning_set("gemm_tile_k_max=32");
    expect_group_k(&c, &h200, 8, 8, 4, 4, 32, 7, 8, 1);
    c = packed(1, 256, 196, 40, false);
    expect_group_k(&c, &h200, 8, 8, 4, 4, 32, 7, 8, 1);
    c = packed(1, 1024, 1024, 1024, false);
    expect_group_k(&c, &h200, 16, 16, 4, 4, 16, 16, 16, 1);
    unit_tuning_restore(restore);
    /* A convolution's k_max (the caller's) of 8: no growth. */
    dmli_tile t = dmli_tile_choose(&h200, 256, 196, 2304, 8, 1, 256 * 36 + 16);
    cr_expect(t.tx * t.wn == 32 && t.ty * t.wm == 32 && t.tk == 8, "%zu x %zu, k %zu", t.ty * t.wm,
              t.tx * t.wn, t.tk);
    /* 24 KiB of local memory and the taps' table of a convolution beside the slabs, k_max 32:
     * the growth stops where the slabs would not fit (32 x 32 tile, 2 * tk * 72 * 4 bytes +
     * 9232: 16 fits in 24576 bytes, 32 does not). */
    dmli_device_desc small = h200;
    small.local_mem_size = 24 * 1024;
    t = dmli_tile_choose(&small, 256, 196, 2304, 32, 1, 256 * 36 + 16);
    cr_expect(t.tx * t.wn == 32 && t.ty * t.wm == 32 && t.tk == 16 && t.local_bytes <= 24576,
              "%zu x %zu, k %zu, %llu bytes", t.ty * t.wm, t.tx * t.wn, t.tk,
              (unsigned long long)t.local_bytes);
}

Test(gemm_launch, gpu_blocks_fit_local_memory)
{
    /* 16 KiB of local memory: 8 x 8 blocks' slabs take 2 * 8 * (132 + 132) * 4 = 16896 bytes,
     * 8 x 4 ones 2 * 8 * (132 + 68) * 4 = 12800. */
    dmli_device_desc small = h200;
    small.local_mem_size = 16 * 1024;
    dmli_compute c = packed(1, 4096, 4096, 1024, false);
    expect_tiles(&c, &small, 4, 8, 64, 32, 1);
}

Test(gemm_launch, gpu_k_step_fits_local_memory)
{
    /* A k step of 64 (a tuning's) in 16 KiB: 4 x 4 blocks in 8 x 8 items take 2 * 64 * (36 +
     * 36) * 4 = 36864 bytes; halved to 16 (9216). */
    char *restore = unit_tuning_set("gemm_tile_k=64");
    dmli_device_desc small = h200;
    small.local_mem_size = 16 * 1024;
    dmli_compute c = packed(1, 3, 5, 7, false);
    dmli_compute_launch l;
    dmli_launch_compute(&c, &small, &l);
    cr_expect(option(&l, "TK") == 16 && option(&l, "TX") == 8, "%s", l.options);
    unit_tuning_restore(restore);
}

Test(gemm_launch, gpu_fill_is_tuning_data)
{
    /* One group per 100 units wanted: 1024^3 keeps its 128 x 128 tiles. */
    char *restore = unit_tuning_set("gemm_tile_fill=1");
    dmli_compute c = packed(1, 1024, 1024, 1024, false);
    expect_tiles(&c, &h200, 8, 8, 8, 8, 1);
    /* Blocks that are no multiple of 4 round down to one (6 -> 4), at least 4 (2 -> 4). */
    setenv("DMLCL_TUNING", "gemm_tile_fill=1,gemm_tile_block.0=6,gemm_tile_block.1=2", 1);
    expect_tiles(&c, &h200, 4, 4, 16, 16, 1);
    unit_tuning_restore(restore);
}

/* The split of k (src/launch_gemm.c dmli_tile_split) on a tile of 8 x 8 items, k steps of tk. */
static uint32_t split_of(const dmli_device_desc *dev, size_t tk, uint64_t groups, int64_t k,
                         int64_t *k_slice)
{
    dmli_tile t = {8, 8, 4, 4, tk, 0};
    return dmli_tile_split(dev, &t, groups, k, k_slice);
}

Test(gemm_launch, gpu_k_splits_where_the_items_are_few)
{
    /* src/tuning.c's GPU table: 384 items a compute unit wanted (50688 on an H200), slices of
     * 16 k steps at least, 16 slices at most. ResNet's 3x3 at 14 x 14 as conv_gemm: 56 groups
     * of 64 items (3584), k 2304 in 288 steps of 8: 15 slices (ceil(50688 / 3584)), of 20
     * steps (ceil(288 / 15)): 160, the last 64. */
    int64_t ks = 0;
    cr_expect_eq(split_of(&h200, 8, 56, 2304, &ks), 15);
    cr_expect_eq(ks, 160);
    /* 3x3 at 56 x 56: 196 groups (12544 items) want 5 slices, but 72 steps make 4 of 16 at
     * most: 4 of 18 steps. */
    cr_expect_eq(split_of(&h200, 8, 196, 576, &ks), 4);
    cr_expect_eq(ks, 144);
    /* Enough items (792 groups: 50688): no split, the slice all of k. */
    cr_expect_eq(split_of(&h200, 8, 792, 4096, &ks), 1);
    cr_expect_eq(ks, 4096);
    /* Fewer than 32 steps: a slice of 16 at least leaves one: none. */
    cr_expect_eq(split_of(&h200, 8, 1, 31 * 8, &ks), 1);
    /* One group, 100000 steps: 16 slices at most, of 6250 steps. */
    cr_expect_eq(split_of(&h200, 8, 1, 800000, &ks), 16);
    cr_expect_eq(ks, 50000);
    /* Slices of whole steps, as even as they go, and only those that hold some: 33 steps of 1
     * (a step at least a slice), 16 slices wanted: slices of ceil(33 / 16) = 3 steps, 11 of
     * them (16 would leave 5 empty). */
    char *restore = unit_tuning_set("tile_split_steps=1");
    cr_expect_eq(split_of(&h200, 1, 1, 33, &ks), 11);
    cr_expect_eq(ks, 3);
    unit_tuning_restore(restore);
    /* A CPU never splits; nor a GPU with tile_split_max 1. */
    dmli_device_desc cpu = h200;
    cpu.device_class = DMLCL_DEVICE_CLASS_CPU;
    cr_expect_eq(split_of(&cpu, 8, 1, 800000, &ks), 1);
    restore = unit_tuning_set("tile_split_max=1");
    cr_expect_eq(split_of(&h200, 8, 1, 800000, &ks), 1);
    unit_tuning_restore(restore);
}

Test(gemm_launch, gpu_k_split_slices_cover_k_once)
{
    /* Every slice whole k steps, as many as cover k, none empty, none short of the steps wanted
     * (but the last), at most tile_split_max: for k, groups and the k step across their ranges. */
    for (size_t tk = 4; tk <= 32; tk *= 2)
        for (int64_t k = 1; k <= 5000; k = k * 3 + 1)
            for (uint64_t groups = 1; groups <= 4096; groups *= 4) {
                int64_t ks = 0;
                const uint32_t s = split_of(&h200, tk, groups, k, &ks);
                cr_assert(s >= 1 && s <= 16, "k %lld groups %llu: %u slices", (long long)k,
                          (unsigned long long)groups, s);
                if (s == 1) {
                    cr_assert_eq(ks, k);
                    continue;
                }
                cr_assert(ks % (int64_t)tk == 0 && ks >= 16 * (int64_t)tk,
                          "k %lld tk %zu: a slice of %lld", (long long)k, tk, (long long)ks);
                cr_assert((int64_t)s * ks >= k && (int64_t)(s - 1) * ks < k,
                          "k %lld: %u slices of %lld", (long long)k, s, (long long)ks);
                cr_assert(groups * 64 * (s - 1) < 384 * 132,
                          "k %lld groups %llu: %u slices, more than the items wanted need",
                          (long long)k, (unsigned long long)groups, s);
            }
}

Test(gemm_launch, gpu_k_split_of_the_bench_products)
{
    /* The projection [1024, 384] x [384, 1536]: 192 tiles of 128 x 64 (256 items: 49152, under
     * 50688), k 384 in 48 steps of 8: 2 slices of 192, scratch of 2 x 192 tiles of 128 x 64
     * floats. */
    dmli_compute c = packed(1, 1024, 1536, 384, false);
    dmli_compute_launch l;
    dmli_launch_compute(&c, &h200, &l);
    cr_expect_eq(l.splits, 2);
    cr_expect_eq(l.table[DMLI_GEMM_SPLITS], 2);
    cr_expect_eq(l.table[DMLI_GEMM_SPLIT_K], 192);
    cr_expect_eq(l.split_bytes, 2ull * 192 * 128 * 64 * 4);
    cr_expect(strstr(l.options, "-DSPLIT=1") && strstr(l.options2, "-DSPLIT=2"), "%s | %s",
              l.options, l.options2);
    /* The grid is the unsplit one (the first step's dimension 2 the slices times it). */
    cr_expect(l.global[0] == 24 * 16 && l.global[1] == 8 * 16 && l.global[2] == 1);
    /* 1024^3 (256 groups of 256 items: 65536) and 4096 x 4096 x 1024: no split; attention
     * (192 groups, but k 64 in 8 steps): none. */
    c = packed(1, 1024, 1024, 1024, false);
    dmli_launch_compute(&c, &h200, &l);
    cr_expect_eq(l.splits, 1);
    cr_expect_eq(l.table[DMLI_GEMM_SPLITS], 1);
    cr_expect_null(strstr(l.options, "SPLIT"));
    c = packed(1, 4096, 4096, 1024, false);
    dmli_launch_compute(&c, &h200, &l);
    cr_expect_eq(l.splits, 1);
    c = packed(96, 128, 128, 64, true);
    dmli_launch_compute(&c, &h200, &l);
    cr_expect_eq(l.splits, 1);
    /* A batched product splits along dimension 2 with its batches: 4 x [64, 8192] x [8192,
     * 64] in tiles of 32 x 32 (4 x 4 blocks, 8 x 8 items: 16 groups of 64 items, 1024) want 50
     * slices; k 8192 in 512 steps of 16 (the small tile's): 16 slices of 32 steps. */
    c = packed(4, 64, 64, 8192, false);
    dmli_launch_compute(&c, &h200, &l);
    cr_expect_eq(l.splits, 16, "%u slices: %s", l.splits, l.options);
    cr_expect_eq(l.table[DMLI_GEMM_SPLIT_K], 512);
    cr_expect_eq(l.global[2], 4);
}

/* CPUs: gemm_blocks with B packed once where B is owned (launch.h pre_owned_only: the program
 * decides), one B per batch coordinate B moves along. A 2-core AVX-512 CPU: blocks of 6 rows x
 * 4 vectors of 16; [128, 384] x [384, 1536]: 24 n-blocks of 64, at least 16 x 2 items wanted,
 * so two items an n-block, 192 rows of k each; 24 x 384 x 64 floats packed. The variant
 * without the pack is the same options without PACKB. Its rows 6 KiB apart fall at 64 places
 * of a 128 KiB way, 6 rows a set: no pack at every dispatch. */
/* The CPU block: 6 rows x 4 vectors with AVX-512's 32 registers (24 accumulators, 4 of B, A's
 * broadcast: 29); where N fits in half of it, 8 rows x 2 vectors (attention's probabilities
 * times V, N 32); with 16 registers (AVX2: int vectors of 8) the vectors halved until the block
 * fits: 6 x 2 (15), and the narrow 8 x 2 (19) down to 8 x 1 (10). */
Test(gemm_launch, cpu_block_fits_the_registers)
{
    const dmli_device_desc avx512 = {
        DMLCL_DEVICE_CLASS_CPU, 2, 4096, {4096, 4096, 4096}, 256 * 1024, 16, 16, 512, false, 0,
        (uint64_t)1 << 30,      1};
    dmli_device_desc avx2 = avx512;
    avx2.preferred_vector_width_int = 8;
    const struct {
        const dmli_device_desc *dev;
        int64_t n;
        long long mr, nv, vw;
    } want[] = {{&avx512, 1536, 6, 4, 16}, {&avx512, 33, 6, 4, 16}, {&avx512, 32, 8, 2, 16},
                {&avx512, 16, 8, 1, 16},   {&avx2, 1536, 6, 2, 8},  {&avx2, 17, 6, 2, 8},
                {&avx2, 16, 8, 1, 8}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        dmli_compute c = packed(12, 128, want[i].n, 64, false);
        dmli_compute_launch l;
        dmli_launch_compute(&c, want[i].dev, &l);
        cr_expect(option(&l, "MR") == want[i].mr && option(&l, "NV") == want[i].nv &&
                      option(&l, "VW") == want[i].vw,
                  "case %zu: N %lld: block %lld x %lld of %lld, want %lld x %lld of %lld", i,
                  (long long)want[i].n, option(&l, "MR"), option(&l, "NV"), option(&l, "VW"),
                  want[i].mr, want[i].nv, want[i].vw);
        /* The pack's blocks are the kernel's. */
        cr_expect_eq(l.pre_global[0], (size_t)((want[i].n + want[i].nv * want[i].vw - 1) /
                                               (want[i].nv * want[i].vw)));
    }
}

Test(gemm_launch, cpu_owned_b_packed_once)
{
    const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 2, 4096, {4096, 4096, 4096}, 256 * 1024, 16, 16, 512, false, 0,
        (uint64_t)1 << 30,      1};
    dmli_compute c = packed(1, 128, 1536, 384, false);
    dmli_compute_launch l;
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect_str_eq(l.kernel, "gemm_blocks");
    cr_expect_eq(option(&l, "PACKB"), 1);
    cr_assert_not_null(l.pre_kernel);
    cr_expect_str_eq(l.pre_kernel, "gemm_pack_b");
    cr_expect(l.pre_owned_only);
    cr_expect_eq(l.pre_tensor, 1);
    cr_expect_eq(option(&l, "MR"), 6);
    cr_expect_eq(option(&l, "NV"), 4);
    cr_expect_eq(l.pre_bytes, (uint64_t)24 * 384 * 64 * sizeof(float));
    cr_expect(l.pre_global[0] == 24 && l.pre_global[1] == 2 && l.pre_global[2] == 1,
              "pack grid %zu %zu %zu", l.pre_global[0], l.pre_global[1], l.pre_global[2]);
    cr_expect_eq(l.table[DMLI_GEMM_PACK_KP], 192);
    cr_expect(strstr(l.options, "-DPACKB=1") != NULL, "%s", l.options);
    cr_expect(strstr(l.options_plain, "PACKB") == NULL, "%s", l.options_plain);
    /* 2 n-blocks for 32 items wanted: 16 runs of k a block, 24 rows each. */
    c = packed(1, 128, 128, 384, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.pre_global[0] == 2 && l.pre_global[1] == 16, "pack grid %zu %zu", l.pre_global[0],
              l.pre_global[1]);
    cr_expect_eq(l.table[DMLI_GEMM_PACK_KP], 24);
    /* B transposed, K of 384 (a linear layer's weight {N, K}): gemm_dots where B is bound at
     * execution (48 runs of 8 x 4 columns along dimension 0, in work-groups of 8; 32 blocks of 4
     * rows along 1), gemm_blocks on the packed B where it is owned (22 m-blocks of 6 rows in
     * work-groups of 8: 24 items; 24 n-blocks). */
    c = packed(1, 128, 1536, 384, true);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect_str_eq(l.kernel, "gemm_blocks");
    cr_assert_not_null(l.kernel_plain);
    cr_expect_str_eq(l.kernel_plain, "gemm_dots");
    cr_expect(l.global[0] == 24 && l.global[1] == 24, "global %zu %zu", l.global[0], l.global[1]);
    cr_expect(l.plain_global[0] == 48 && l.plain_global[1] == 32, "plain global %zu %zu",
              l.plain_global[0], l.plain_global[1]);
    /* ... where B is bound at execution too (B's 2.25 MiB over gemm_dots' 1 MiB, M 128 of at
     * least 64). */
    cr_expect(!l.pre_owned_only);
    /* A B that differs along the batch: one packed B a batch coordinate (12 of 2 n-blocks, two
     * runs of k each for 32 items wanted), only where owned (rows 512 bytes apart: one row a
     * set). */
    c = packed(12, 128, 128, 64, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_assert_not_null(l.pre_kernel);
    cr_expect(l.pre_owned_only);
    cr_expect_eq(l.pre_bytes, (uint64_t)12 * 2 * 64 * 64 * sizeof(float));
    cr_expect(l.pre_global[0] == 2 && l.pre_global[1] == 2 && l.pre_global[2] == 12,
              "pack grid %zu %zu %zu", l.pre_global[0], l.pre_global[1], l.pre_global[2]);
    /* Attention's K^T (B transposed, K 64: the plain kernel's panel path): packed at every
     * dispatch, a B a batch coordinate. */
    c = packed(96, 128, 128, 64, true);
    dmli_launch_compute(&c, &cpu, &l);
    cr_assert_not_null(l.pre_kernel);
    cr_expect(!l.pre_owned_only);
    cr_expect_str_eq(l.kernel, "gemm_blocks");
    cr_expect(l.pre_global[2] == 96 && l.global[2] == 96);
    /* B broadcast along one batch dimension of two: one B per coordinate of the other. */
    dmli_gemm *g = DMLI_COMPUTE_WORK(&c, dmli_gemm);
    g->batch_rank = 2;
    g->batch[0] = 4;
    g->batch[1] = 24;
    g->a_b[0] = 24 * 128 * 64;
    g->a_b[1] = 128 * 64;
    g->b_b[0] = 0;
    g->b_b[1] = 128 * 64;
    g->o_b[0] = 24 * 128 * 128;
    g->o_b[1] = 128 * 128;
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.pre_global[2] == 24 && l.global[2] == 96, "%zu %zu", l.pre_global[2], l.global[2]);
    cr_expect_eq(l.pre_bytes, (uint64_t)24 * 2 * 64 * 64 * sizeof(float));
    /* 1024^3: B's rows 4 KiB apart, 32 places of a way, 32 rows a set: packed at every
     * dispatch; with M 32 (under gemm_pack_min_m) the pack would cost more than it saves. */
    c = packed(1, 1024, 1024, 1024, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(!l.pre_owned_only);
    c = packed(1, 32, 1024, 1024, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.pre_owned_only);
    /* K 384 of those rows: 12 a set, not more than gemm_pack_ways; K 416: 13. */
    c = packed(1, 256, 1024, 384, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.pre_owned_only);
    c = packed(1, 256, 1024, 416, false);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(!l.pre_owned_only);
    /* B transposed and 1 MiB (512 x 512): gemm_dots reads it from the cache, no pack. */
    c = packed(1, 256, 512, 512, true);
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.pre_owned_only);
    cr_expect_str_eq(l.kernel_plain, "gemm_dots");
    /* Off by tuning. */
    char *saved = unit_tuning_set("gemm_prepack_b=2");
    c = packed(1, 128, 1536, 384, false);
    dmli_launch_compute(&c, &cpu, &l);
    unit_tuning_restore(saved);
    cr_expect_null(l.pre_kernel);
}

/* A strided 1x1 convolution's GEMM as ops/conv.c lowers it (ResNet's downsample [1, 128, 28, 28]
 * -> 256 at stride 2: m 256, k 128, each of the 14 output rows a batch coordinate of 14 columns,
 * B's columns 2 apart and its rows 56, the bias a C broadcast along n): B is strided, so packed
 * at every dispatch; the rows join n (launch_gemm.c fold_n): one product of 196 columns (4
 * blocks of 64), B's columns in groups of 14, 56 apart. Where A moves along the rows, or the
 * output's columns do not continue across them, or C moves along them otherwise than a next
 * column would, or on GPUs, or off by tuning: the rows stay a batch dimension. */
Test(gemm_launch, cpu_strided_rows_join_n)
{
    const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 2, 4096, {4096, 4096, 4096}, 256 * 1024, 16, 16, 512, false, 0,
        (uint64_t)1 << 30,      1};
    dmli_gemm g;
    memset(&g, 0, sizeof g);
    g.type = DML_TENSOR_DATA_TYPE_FLOAT32;
    g.m = 256;
    g.n = 14;
    g.k = 128;
    g.a_m = 128;
    g.a_k = 1;
    g.b_k = 28 * 28;
    g.b_n = 2;
    g.c_m = 1;
    g.o_m = 196;
    g.o_n = 1;
    g.has_c = true;
    g.alpha = g.beta = 1;
    g.batch_rank = 1;
    g.batch[0] = 14;
    g.b_b[0] = 56;
    g.o_b[0] = 14;
    dmli_compute c = gemm_compute(&g, 4);
    dmli_compute_launch l;
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect_str_eq(l.kernel, "gemm_blocks");
    cr_assert_not_null(l.pre_kernel);
    cr_expect(!l.pre_owned_only);
    cr_expect(l.table[DMLI_GEMM_N] == 196 && l.table[DMLI_GEMM_BATCH_RANK] == 0 &&
                  l.table[DMLI_GEMM_B_NL] == 14 && l.table[DMLI_GEMM_B_NH] == 56 &&
                  l.table[DMLI_GEMM_B_N] == 2,
              "N %lld, batch rank %lld, groups of %lld, %lld apart",
              (long long)l.table[DMLI_GEMM_N], (long long)l.table[DMLI_GEMM_BATCH_RANK],
              (long long)l.table[DMLI_GEMM_B_NL], (long long)l.table[DMLI_GEMM_B_NH]);
    cr_expect_eq(l.table_count, DMLI_GEMM_HEADER);
    cr_expect(option(&l, "MR") == 6 && option(&l, "NV") == 4, "%s", l.options);
    cr_expect(l.global[1] == 4 && l.global[2] == 1, "global %zu %zu %zu", l.global[0], l.global[1],
              l.global[2]);
    cr_expect(l.pre_global[0] == 4 && l.pre_global[2] == 1, "pack grid %zu %zu %zu",
              l.pre_global[0], l.pre_global[1], l.pre_global[2]);
    cr_expect_eq(l.pre_bytes, (uint64_t)4 * 64 * 128 * sizeof(float));

    /* The rows stay a batch dimension of 14 columns (a block of 8 x 16, one group, B's columns
     * as they come). */
    const struct {
        const char *why;
        int64_t a_b, o_b, c_b, c_n;
        const char *tuning;
        const dmli_device_desc *dev;
    } stay[] = {{"A moves along the rows", 128, 14, 0, 0, NULL, &cpu},
                {"the output's rows are not a next column's", 0, 16, 0, 0, NULL, &cpu},
                {"C moves along the rows", 0, 14, 1, 0, NULL, &cpu},
                {"off by tuning", 0, 14, 0, 0, "gemm_fold_n=2", &cpu},
                {"a GPU", 0, 14, 0, 0, NULL, &h200}};
    for (size_t i = 0; i < sizeof stay / sizeof stay[0]; ++i) {
        dmli_gemm *w = DMLI_COMPUTE_WORK(&c, dmli_gemm);
        *w = g;
        w->a_b[0] = stay[i].a_b;
        w->o_b[0] = stay[i].o_b;
        w->c_b[0] = stay[i].c_b;
        w->c_n = stay[i].c_n;
        char *saved = stay[i].tuning ? unit_tuning_set(stay[i].tuning) : NULL;
        dmli_launch_compute(&c, stay[i].dev, &l);
        if (stay[i].tuning)
            unit_tuning_restore(saved);
        cr_expect(
            l.table[DMLI_GEMM_N] == 14 && l.table[DMLI_GEMM_BATCH_RANK] == 1 &&
                l.table[DMLI_GEMM_B_NL] == 14 && l.table[DMLI_GEMM_B_NH] == 0 && l.global[2] == 14,
            "%s: N %lld, batch rank %lld, groups of %lld, %lld apart, %zu batches", stay[i].why,
            (long long)l.table[DMLI_GEMM_N], (long long)l.table[DMLI_GEMM_BATCH_RANK],
            (long long)l.table[DMLI_GEMM_B_NL], (long long)l.table[DMLI_GEMM_B_NH], l.global[2]);
    }
    /* C moving along the rows as a next column would (c_n 1, c_b 14): joined. */
    dmli_gemm *w = DMLI_COMPUTE_WORK(&c, dmli_gemm);
    *w = g;
    w->c_n = 1;
    w->c_b[0] = 14;
    dmli_launch_compute(&c, &cpu, &l);
    cr_expect(l.table[DMLI_GEMM_N] == 196 && l.table[DMLI_GEMM_BATCH_RANK] == 0,
              "N %lld, batch rank %lld", (long long)l.table[DMLI_GEMM_N],
              (long long)l.table[DMLI_GEMM_BATCH_RANK]);
}
