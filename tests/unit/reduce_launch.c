/* SPDX-License-Identifier: MIT */
/*
 * The reduce family's launch on the host (src/launch_reduce.c): the shape of work per device
 * class (ROWS: a work-item a row on CPUs, a work-group of the lanes on GPUs; COLS where the
 * innermost dimension is kept) and the CPU's vector hint (NATIVE_VW: the lane loop at the device's
 * native float width, float computes in ROWS mode only). Expected values from those rules and
 * src/tuning.c's table (16 lanes on CPUs, 64 on GPUs, 64 columns an item).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "support.h"

static const dmli_device_desc cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
static const dmli_device_desc gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};

/* op over [rows, cols] of type, packed, reducing the inner axis (inner) or the outer one. */
static dmli_reduce rows_of(dmli_reduce_op op, DML_TENSOR_DATA_TYPE type, int64_t rows, int64_t cols,
                           bool inner)
{
    dmli_reduce r;
    dmli_reduce_init(&r, op, 1, 1);
    r.in[0].type = r.out[0].type = type;
    bool keeps_shape =
        op == DMLI_REDUCE_SOFTMAX || op == DMLI_REDUCE_CUMSUM || op == DMLI_REDUCE_CUMPROD;
    const int64_t in_outer = cols, in_inner = 1;
    int64_t out_outer = keeps_shape ? cols : (inner ? 1 : 0);
    int64_t out_inner = keeps_shape ? 1 : (inner ? 0 : 1);
    dmli_reduce_push(&r, rows, !inner, &out_outer, &in_outer);
    dmli_reduce_push(&r, cols, inner, &out_inner, &in_inner);
    dmli_reduce_normalize(&r);
    return r;
}

Test(reduce_launch, cpu_rows_loop_their_lanes_at_the_native_width)
{
    dmli_reduce_launch l;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANES=16") && strstr(l.options, "-DGROUP=1") &&
                  strstr(l.options, "-DCOLS=0") && strstr(l.options, "-DNATIVE_VW=16"),
              "%s", l.options);
    cr_expect(l.global[0] == 64 && l.local[0] == 1, "global %zu local %zu", l.global[0],
              l.local[0]);
    /* No prefetch of the row ahead by default (src/tuning.c reduce_prefetch_bytes 0). */
    cr_expect(!strstr(l.options, "RPF"), "%s", l.options);
    /* An AVX2 device (8 floats): two vectors of the 16 lanes. */
    dmli_device_desc avx2 = cpu;
    avx2.native_vector_width_float = 8;
    dmli_launch_reduce(&r, &avx2, &l);
    cr_expect(strstr(l.options, "-DNATIVE_VW=8") && strstr(l.options, "-DLANES=16"), "%s",
              l.options);
    /* A width past the lanes is the lanes. */
    avx2.native_vector_width_float = 32;
    dmli_launch_reduce(&r, &avx2, &l);
    cr_expect(strstr(l.options, "-DNATIVE_VW=16"), "%s", l.options);
    /* No reported width: no hint. */
    avx2.native_vector_width_float = 0;
    dmli_launch_reduce(&r, &avx2, &l);
    cr_expect(!strstr(l.options, "NATIVE_VW"), "%s", l.options);
    /* FLOAT16 computes in float: the hint too. */
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT16, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DCOMPUTE_T=float") && strstr(l.options, "-DNATIVE_VW=16"), "%s",
              l.options);
}

Test(reduce_launch, cpu_row_prefetch_distance_is_tuning_data)
{
    /* reduce_prefetch_bytes set (DMLCL_TUNING): the first pass prefetches that many bytes of
     * input 0 ahead, in its units (1024 floats, 2048 FLOAT16s for 4 KiB). */
    char *restore = unit_tuning_set("reduce_prefetch_bytes=4096");
    dmli_reduce_launch l;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DRPF=1024"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT16, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DRPF=2048"), "FLOAT16: %s", l.options);
    unit_tuning_restore(restore);
}

Test(reduce_launch, other_shapes_types_and_gpus_get_no_hint)
{
    dmli_reduce_launch l;
    /* The outer axis: COLS, 64 columns an item. */
    dmli_reduce r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DCOLS=1") && strstr(l.options, "-DLANES=64") &&
                  !strstr(l.options, "NATIVE_VW"),
              "%s", l.options);
    cr_expect(l.global[0] == 64 && l.global[1] == 1, "global %zu %zu", l.global[0], l.global[1]);
    /* Integers and double keep the compiler's choice. */
    const DML_TENSOR_DATA_TYPE others[] = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT8,
                                           DML_TENSOR_DATA_TYPE_FLOAT64};
    for (size_t i = 0; i < sizeof others / sizeof *others; ++i) {
        r = rows_of(DMLI_REDUCE_SUM, others[i], 64, 4096, true);
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(!strstr(l.options, "NATIVE_VW"), "type %d: %s", (int)others[i], l.options);
    }
    /* The picks hold 32-bit indices in their vectors (PICK32); a row past 2^31 elements keeps
     * the compiler's choice. */
    const dmli_reduce_op picks[] = {DMLI_REDUCE_ARGMAX, DMLI_REDUCE_ARGMIN, DMLI_REDUCE_MAX,
                                    DMLI_REDUCE_MIN};
    for (size_t i = 0; i < sizeof picks / sizeof *picks; ++i) {
        r = rows_of(picks[i], DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
        if (picks[i] <= DMLI_REDUCE_ARGMIN)
            r.out[0].type = DML_TENSOR_DATA_TYPE_UINT32;
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(strstr(l.options, "-DNATIVE_VW=16") && strstr(l.options, "-DPICK32=1"),
                  "op %d: %s", (int)picks[i], l.options);
        r = rows_of(picks[i], DML_TENSOR_DATA_TYPE_FLOAT32, 1, (int64_t)3 << 30, true);
        if (picks[i] <= DMLI_REDUCE_ARGMIN)
            r.out[0].type = DML_TENSOR_DATA_TYPE_UINT64;
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(!strstr(l.options, "NATIVE_VW") && !strstr(l.options, "PICK32"), "op %d: %s",
                  (int)picks[i], l.options);
    }
    /* GPUs: a work-group of the row's lanes (256 for rows of 4096), no hint. */
    r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(strstr(l.options, "-DLANES=256") && strstr(l.options, "-DGROUP=256") &&
                  !strstr(l.options, "NATIVE_VW") && !strstr(l.options, "RPF"),
              "%s", l.options);
    cr_expect(l.global[0] == 64 * 256 && l.local[0] == 256, "global %zu local %zu", l.global[0],
              l.local[0]);
}

/* exp(x - max) takes x - max as rounded from rows of 64 on (within softmax's 3N + 3 ULPs); the
 * shorter rows carry its rounding (cl/reduce.cl EXP_ROUNDED). */
Test(reduce_launch, long_rows_exponentiate_the_rounded_difference)
{
    dmli_reduce_launch l;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 8, 64, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DEXP_ROUNDED=1"), "%s", l.options);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(strstr(l.options, "-DEXP_ROUNDED=1"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_LOG_SUM_EXP, DML_TENSOR_DATA_TYPE_FLOAT16, 8, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DEXP_ROUNDED=1"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 8, 63, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "EXP_ROUNDED"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 8, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "EXP_ROUNDED"), "%s", l.options);
}

/* COLS folds on CPUs: work-groups of up to 32 items walking the rows in step (SYNC 32), halved
 * while the groups are fewer than the compute units (16 here); scans and GPUs keep items
 * apart. */
Test(reduce_launch, cpu_column_folds_walk_the_rows_in_step)
{
    dmli_reduce_launch l;
    dmli_reduce r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
    dmli_launch_reduce(&r, &cpu, &l);
    /* 64 items of 64 columns, one kept row: groups of 4 (16 groups for 16 units). */
    cr_expect(strstr(l.options, "-DSYNC=32"), "%s", l.options);
    cr_expect(l.local[0] == 4 && l.global[0] == 64, "local %zu global %zu", l.local[0],
              l.global[0]);
    /* Each item prefetches its columns 16 rows ahead (input 0's columns of stride 1). */
    cr_expect(strstr(l.options, "-DCPF=16"), "%s", l.options);
    /* Not on a device whose compiler lacks __builtin_prefetch (Oclgrind). */
    dmli_device_desc no_prefetch = cpu;
    no_prefetch.prefetch = false;
    dmli_launch_reduce(&r, &no_prefetch, &l);
    cr_expect(strstr(l.options, "-DSYNC=32") && !strstr(l.options, "CPF"), "%s", l.options);
    dmli_device_desc two = cpu;
    two.compute_units = 2;
    dmli_launch_reduce(&r, &two, &l);
    cr_expect(l.local[0] == 32 && l.global[0] == 64, "local %zu global %zu", l.local[0],
              l.global[0]);
    /* Columns of one item: no group, no barrier. */
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 64, false);
    dmli_launch_reduce(&r, &two, &l);
    cr_expect(l.local[0] == 1 && !strstr(l.options, "SYNC"), "local %zu: %s", l.local[0],
              l.options);
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(!strstr(l.options, "SYNC") && !strstr(l.options, "CPF"), "%s", l.options);
    /* Input columns 2 elements apart (every other column of [4096, 8192]): in step, no
     * prefetch (its lines are not the item's NL columns in a run). */
    dmli_reduce_init(&r, DMLI_REDUCE_SUM, 1, 1);
    r.in[0].type = r.out[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    int64_t out_outer = 0, in_outer = 8192, out_inner = 1, in_inner = 2;
    dmli_reduce_push(&r, 4096, true, &out_outer, &in_outer);
    dmli_reduce_push(&r, 4096, false, &out_inner, &in_inner);
    dmli_reduce_normalize(&r);
    dmli_launch_reduce(&r, &two, &l);
    cr_expect(strstr(l.options, "-DSYNC=32") && !strstr(l.options, "CPF"), "%s", l.options);
}

/* Row scans on CPUs: blocks of 16 scanned from the identity, then their carries (SEGS), where
 * the output reads back unrounded: not FLOAT16 outputs, not GPUs (a work-group's tree). */
Test(reduce_launch, cpu_row_scans_in_blocks)
{
    dmli_reduce_launch l;
    static const DML_TENSOR_DATA_TYPE blocked[] = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT64};
    for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; ++i) {
        dmli_reduce r = rows_of(DMLI_REDUCE_CUMSUM, blocked[i], 64, 4096, true);
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(strstr(l.options, "-DSEGS=16") && strstr(l.options, "-DCOLS=0"), "%zu: %s", i,
                  l.options);
    }
    dmli_reduce r = rows_of(DMLI_REDUCE_CUMPROD, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DSEGS=16"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_CUMSUM, DML_TENSOR_DATA_TYPE_FLOAT16, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "-DSEGS"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_CUMSUM, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(!strstr(l.options, "-DSEGS"), "%s", l.options);
    /* A fold is no scan. */
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "-DSEGS"), "%s", l.options);
}

/* Inputs after the first read along the lanes with the constant stride 1 where theirs is 1
 * (LANE1_IN1..3: vector loads for MVN's scale and bias), each apart: a bias broadcast along
 * the row (stride 0) keeps its runtime stride. */
Test(reduce_launch, later_inputs_of_stride_one_along_the_lanes)
{
    dmli_reduce_launch l;
    dmli_reduce r;
    dmli_reduce_init(&r, DMLI_REDUCE_MVN, 3, 1);
    r.use_mean = r.use_variance = r.has_scale = r.has_bias = true;
    for (uint32_t k = 0; k < 3; ++k)
        r.in[k].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    r.out[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    /* [64, 384]: input 0 packed, the scale [384] broadcast over the rows, the bias one value. */
    const int64_t out_outer[1] = {384}, in_outer[3] = {384, 0, 0};
    const int64_t out_inner[1] = {1}, in_inner[3] = {1, 1, 0};
    dmli_reduce_push(&r, 64, false, out_outer, in_outer);
    dmli_reduce_push(&r, 384, true, out_inner, in_inner);
    dmli_reduce_normalize(&r);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANE1_IN0=1") && strstr(l.options, "-DLANE1_IN1=1") &&
                  !strstr(l.options, "LANE1_IN2"),
              "%s", l.options);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(strstr(l.options, "-DLANE1_IN1=1") && !strstr(l.options, "LANE1_IN2"), "%s",
              l.options);
}

/* op over [rows, cols] reducing the inner axis, the output the input's shape with out_step
 * between its elements along the run (1: packed). */
static dmli_reduce normalisation(dmli_reduce_op op, DML_TENSOR_DATA_TYPE type, int64_t rows,
                                 int64_t cols, int64_t out_step)
{
    dmli_reduce r;
    dmli_reduce_init(&r, op, 1, 1);
    r.in[0].type = r.out[0].type = type;
    r.use_mean = r.use_variance = true;
    const int64_t out_outer = cols * out_step, in_outer = cols, in_inner = 1;
    dmli_reduce_push(&r, rows, false, &out_outer, &in_outer);
    dmli_reduce_push(&r, cols, true, &out_step, &in_inner);
    dmli_reduce_normalize(&r);
    return r;
}

Test(reduce_launch, cpu_normalisations_stream_outputs_past_the_caches)
{
    /* The test CPU's cache is 32 MiB: a quarter of it, 8 MiB, is the threshold (src/tuning.c
     * stream_cache_divisor 4). */
    dmli_reduce_launch l;
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32,
                               f16 = DML_TENSOR_DATA_TYPE_FLOAT16;
    /* A layer normalisation of [4096, 768] float32: 12 MiB written. */
    dmli_reduce r = normalisation(DMLI_REDUCE_MVN, f32, 4096, 768, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DSTREAM=1"), "%s", l.options);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "GPU: %s", l.options);
    /* 6 MiB ([4096, 384]): under the threshold. */
    r = normalisation(DMLI_REDUCE_MVN, f32, 4096, 384, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "6 MiB: %s", l.options);
    /* An output of stride 2 along the run: no whole lines to store. */
    r = normalisation(DMLI_REDUCE_MVN, f32, 4096, 768, 2);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "output stride 2: %s", l.options);
    /* LOG_SOFTMAX and HARDMAX write from the input; a float32 SOFTMAX reads back the
     * exponentials it stashed in its output (in the cache by then), FLOAT16 keeps none. */
    r = normalisation(DMLI_REDUCE_LOG_SOFTMAX, f32, 4096, 768, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DSTREAM=1"), "LOG_SOFTMAX: %s", l.options);
    r = normalisation(DMLI_REDUCE_HARDMAX, f32, 4096, 768, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DSTREAM=1"), "HARDMAX: %s", l.options);
    r = normalisation(DMLI_REDUCE_SOFTMAX, f32, 4096, 768, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "SOFTMAX FLOAT32: %s", l.options);
    r = normalisation(DMLI_REDUCE_SOFTMAX, f16, 4096, 2048, 1);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DSTREAM=1"), "SOFTMAX FLOAT16: %s", l.options);
    /* A fold writes one value a row. */
    r = rows_of(DMLI_REDUCE_SUM, f32, 4096, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "STREAM"), "SUM: %s", l.options);
}

Test(reduce_launch, cpu_items_take_rows_in_turn)
{
    /* src/tuning.c: 8 rows an item on CPUs, halved while there would be fewer than 16 items a
     * compute unit (the test CPU has 16: 256 items). */
    dmli_reduce_launch l;
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 128, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DRPI=8") && l.global[0] == 1536 && l.local[0] == 1,
              "%s; global %zu local %zu", l.options, l.global[0], l.local[0]);
    /* 600 rows: 8 an item would leave 75 items, 4 150, 2 300. */
    r = rows_of(DMLI_REDUCE_SUM, f32, 600, 64, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DRPI=2") && l.global[0] == 300, "%s; global %zu", l.options,
              l.global[0]);
    /* 601 rows, 2 an item: the last item takes one. */
    r = rows_of(DMLI_REDUCE_SUM, f32, 601, 64, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DRPI=2") && l.global[0] == 301, "%s; global %zu", l.options,
              l.global[0]);
    /* 64 rows: an item a row. */
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 64, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "RPI") && l.global[0] == 64, "%s; global %zu", l.options,
              l.global[0]);
    /* GPUs: a work-group a row. */
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 128, true);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(!strstr(l.options, "RPI") && l.global[0] == 12288 * 32, "GPU: %s; global %zu",
              l.options, l.global[0]);
    /* Column folds and scans keep their own shapes of work. */
    r = rows_of(DMLI_REDUCE_SUM, f32, 4096, 4096, false);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "RPI"), "COLS: %s", l.options);
    r = rows_of(DMLI_REDUCE_CUMSUM, f32, 4096, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "RPI") && l.global[0] == 4096, "scan: %s", l.options);
}

Test(reduce_launch, cpu_float_picks_over_long_rows_take_more_lanes)
{
    /* src/tuning.c: CPUs deal a float pick's row of 64 or more elements to 64 lanes (four
     * independent vectors of 16), every other row to 16. */
    dmli_reduce_launch l;
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32,
                               f16 = DML_TENSOR_DATA_TYPE_FLOAT16;
    const dmli_reduce_op picks[] = {DMLI_REDUCE_ARGMAX, DMLI_REDUCE_ARGMIN, DMLI_REDUCE_MAX,
                                    DMLI_REDUCE_MIN};
    for (size_t p = 0; p < sizeof picks / sizeof *picks; ++p) {
        dmli_reduce r = rows_of(picks[p], f32, 4096, 4096, true);
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(strstr(l.options, "-DLANES=64") && strstr(l.options, "-DNATIVE_VW=16"),
                  "op %d: %s", (int)picks[p], l.options);
        r = rows_of(picks[p], f32, 4096, 63, true);
        dmli_launch_reduce(&r, &cpu, &l);
        cr_expect(strstr(l.options, "-DLANES=16"), "op %d, rows of 63: %s", (int)picks[p],
                  l.options);
    }
    /* FLOAT16 computes in float. */
    dmli_reduce r = rows_of(DMLI_REDUCE_ARGMAX, f16, 64, 64, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANES=64"), "FLOAT16: %s", l.options);
    /* Integers, the sums and the GPUs keep the device class's lanes. */
    r = rows_of(DMLI_REDUCE_ARGMAX, DML_TENSOR_DATA_TYPE_INT32, 4096, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANES=16"), "INT32: %s", l.options);
    r = rows_of(DMLI_REDUCE_SUM, f32, 4096, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANES=16"), "SUM: %s", l.options);
    r = rows_of(DMLI_REDUCE_ARGMAX, f32, 4096, 4096, true);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(strstr(l.options, "-DLANES=256") && strstr(l.options, "-DGROUP=256"), "GPU: %s",
              l.options);
}

/* src/tuning.c: GPUs deal a row to up to 256 lanes, halved down to 32 while a lane would take
 * fewer than 12 elements; the lanes follow the row's length, whatever the operation, type or
 * number of rows; CPUs keep their 16. */
Test(reduce_launch, gpu_lanes_follow_the_row_length)
{
    static const struct {
        int64_t row, lanes;
    } want[] = {{16, 32},   {128, 32},   {383, 32},   {384, 32},   {767, 32},   {768, 64},
                {1535, 64}, {1536, 128}, {3071, 128}, {3072, 256}, {4096, 256}, {1 << 20, 256}};
    const dmli_reduce_op ops[] = {DMLI_REDUCE_SUM, DMLI_REDUCE_SOFTMAX, DMLI_REDUCE_MVN,
                                  DMLI_REDUCE_MAX};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        for (size_t o = 0; o < sizeof ops / sizeof *ops; ++o)
            for (int64_t rows = 1; rows <= 4096; rows *= 64) {
                dmli_reduce_launch l;
                dmli_reduce r =
                    rows_of(ops[o], DML_TENSOR_DATA_TYPE_FLOAT32, rows, want[i].row, true);
                dmli_launch_reduce(&r, &gpu, &l);
                char lanes[32];
                snprintf(lanes, sizeof lanes, "-DLANES=%lld ", (long long)want[i].lanes);
                cr_expect(strstr(l.options, lanes) != NULL && l.local[0] == (size_t)want[i].lanes,
                          "op %d, %lld rows of %lld: %s (local %zu)", (int)ops[o], (long long)rows,
                          (long long)want[i].row, l.options, l.local[0]);
            }
    dmli_reduce_launch l;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 128, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DLANES=16 ") != NULL, "CPU: %s", l.options);
}

Test(reduce_launch, cpu_softmax_short_rows_in_pairs)
{
    /* src/tuning.c: a float32 softmax over rows of up to 1024 elements, whole blocks of the 16
     * lanes, an item's rows two at a time (PAIRS, with RPI). */
    dmli_reduce_launch l;
    const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    dmli_reduce r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 128, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DPAIRS=1") && strstr(l.options, "-DRPI=8"), "%s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 1024, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(strstr(l.options, "-DPAIRS=1"), "rows of 1024: %s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 4096, 4096, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "PAIRS"), "rows of 4096: %s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 100, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "PAIRS"), "rows of 100 (a partial block): %s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, DML_TENSOR_DATA_TYPE_FLOAT16, 12288, 128, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "PAIRS"), "FLOAT16: %s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 64, 128, true);
    dmli_launch_reduce(&r, &cpu, &l);
    cr_expect(!strstr(l.options, "PAIRS"), "64 rows (an item a row): %s", l.options);
    r = rows_of(DMLI_REDUCE_SOFTMAX, f32, 12288, 128, true);
    dmli_launch_reduce(&r, &gpu, &l);
    cr_expect(!strstr(l.options, "PAIRS"), "GPU: %s", l.options);
}

/* SUM over axis 1 of a packed float32 [kept, 1024, 1024]: kept whole rows of 1024 columns. */
static dmli_reduce middle_of(int64_t kept)
{
    dmli_reduce r;
    dmli_reduce_init(&r, DMLI_REDUCE_SUM, 1, 1);
    r.in[0].type = r.out[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    int64_t o0 = 1024, i0 = 1024 * 1024, o1 = 0, i1 = 1024, o2 = 1, i2 = 1;
    dmli_reduce_push(&r, kept, false, &o0, &i0);
    dmli_reduce_push(&r, 1024, true, &o1, &i1);
    dmli_reduce_push(&r, 1024, false, &o2, &i2);
    dmli_reduce_normalize(&r);
    return r;
}

/* A column fold whose whole rows of columns are fewer than the compute units, over an input past
 * a quarter of the cache, splits: slices of its outermost reduced dimension folded into scratch
 * of the compute type, an item a slice's whole rows, then the slices folded into the output by
 * the operation's composition (launch.h dmli_reduce_split). */
Test(reduce_launch, column_folds_split_where_whole_rows_are_few)
{
    dmli_reduce part, comb;
    uint64_t bytes = 0;
    dmli_reduce r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
    cr_assert(dmli_reduce_split(&r, &cpu, &part, &comb, &bytes));
    /* 16 units, one whole row: 16 slices of 256 rows; 16 x 4096 float partial sums. */
    cr_expect_eq(bytes, (uint64_t)16 * 4096 * 4);
    cr_expect(part.whole_rows && part.op == DMLI_REDUCE_SUM && part.rank == 3 &&
                  part.size[0] == 16 && !part.reduced[0] && part.size[1] == 256 &&
                  part.reduced[1] && part.size[2] == 4096 && !part.reduced[2],
              "part: rank %d, sizes %lld %lld %lld", part.rank, (long long)part.size[0],
              (long long)part.size[1], (long long)part.size[2]);
    cr_expect(part.in[0].stride[0] == 256 * 4096 && part.in[0].stride[1] == 4096 &&
                  part.out[0].stride[0] == 4096 && part.out[0].stride[2] == 1 &&
                  part.out[0].type == DML_TENSOR_DATA_TYPE_FLOAT32,
              "part strides");
    cr_expect(comb.op == DMLI_REDUCE_SUM && comb.rank == 2 && comb.size[0] == 16 &&
                  comb.reduced[0] && comb.in[0].stride[0] == 4096 && comb.in[0].stride[1] == 1 &&
                  comb.out[0].stride[1] == 1 && !comb.whole_rows,
              "comb: rank %d size %lld", comb.rank, (long long)comb.size[0]);
    dmli_reduce_launch l;
    dmli_launch_reduce(&part, &cpu, &l);
    cr_expect(strstr(l.options, "-DCOLS=1") && strstr(l.options, "-DLANES=4096") &&
                  !strstr(l.options, "SYNC") && l.global[0] == 1 && l.global[1] == 16,
              "%s global %zu %zu", l.options, l.global[0], l.global[1]);
    /* A GPU of 132 units (from 1 MiB of input, any row width): 128 slices of 32 rows, an item a
     * column of a slice; the second step an item a column over the 128 partial sums. */
    cr_assert(dmli_reduce_split(&r, &gpu, &part, &comb, &bytes));
    cr_expect(bytes == (uint64_t)128 * 4096 * 4 && part.size[0] == 128 && part.size[1] == 32 &&
                  comb.size[0] == 128,
              "%llu bytes, sizes %lld %lld", (unsigned long long)bytes, (long long)part.size[0],
              (long long)part.size[1]);
    dmli_launch_reduce(&part, &gpu, &l);
    cr_expect(strstr(l.options, "-DCOLS=1") && strstr(l.options, "-DLANES=1"), "%s", l.options);
    dmli_reduce wide = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 256, 65536, false);
    cr_expect(dmli_reduce_split(&wide, &gpu, &part, &comb, &bytes), "GPU, 65536 columns");
    /* Two units: 2 slices. Four whole rows (a kept outer dimension of 4): 4 slices each. */
    dmli_device_desc two = cpu;
    two.compute_units = 2;
    cr_assert(dmli_reduce_split(&r, &two, &part, &comb, &bytes));
    cr_expect(bytes == 2 * 4096 * 4 && comb.size[0] == 2, "%llu bytes", (unsigned long long)bytes);
    dmli_reduce k = middle_of(4);
    cr_assert(dmli_reduce_split(&k, &cpu, &part, &comb, &bytes));
    /* (the kept 4 and the 4 slices merge: one kept dimension of 16 before the 256 rows) */
    cr_expect(bytes == (uint64_t)4 * 4 * 1024 * 4 && part.size[0] == 16 && part.size[1] == 256 &&
                  part.reduced[1],
              "%llu bytes, sizes %lld %lld", (unsigned long long)bytes, (long long)part.size[0],
              (long long)part.size[1]);
    /* Each function's two steps, and the scratch's type: the compute type's. */
    static const struct {
        dmli_reduce_op op, first, second;
    } pairs[] = {
        {DMLI_REDUCE_SUM, DMLI_REDUCE_SUM, DMLI_REDUCE_SUM},
        {DMLI_REDUCE_SUM_SQUARE, DMLI_REDUCE_SUM_SQUARE, DMLI_REDUCE_SUM},
        {DMLI_REDUCE_MULTIPLY, DMLI_REDUCE_MULTIPLY, DMLI_REDUCE_MULTIPLY},
        {DMLI_REDUCE_MAX, DMLI_REDUCE_MAX, DMLI_REDUCE_MAX},
        {DMLI_REDUCE_MIN, DMLI_REDUCE_MIN, DMLI_REDUCE_MIN},
        {DMLI_REDUCE_AVERAGE, DMLI_REDUCE_AVERAGE, DMLI_REDUCE_AVERAGE},
        {DMLI_REDUCE_L1, DMLI_REDUCE_L1, DMLI_REDUCE_SUM},
        {DMLI_REDUCE_L2, DMLI_REDUCE_L2, DMLI_REDUCE_L2},
        {DMLI_REDUCE_LOG_SUM, DMLI_REDUCE_SUM, DMLI_REDUCE_LOG_SUM},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
        r = rows_of(pairs[i].op, DML_TENSOR_DATA_TYPE_FLOAT16, 8192, 4096, false);
        cr_assert(dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "op %d", (int)pairs[i].op);
        cr_expect(part.op == pairs[i].first && comb.op == pairs[i].second &&
                      part.out[0].type == DML_TENSOR_DATA_TYPE_FLOAT32 &&
                      comb.in[0].type == DML_TENSOR_DATA_TYPE_FLOAT32 &&
                      comb.out[0].type == DML_TENSOR_DATA_TYPE_FLOAT16,
                  "op %d: %d then %d", (int)pairs[i].op, (int)part.op, (int)comb.op);
    }
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_INT32, 4096, 4096, false);
    cr_assert(dmli_reduce_split(&r, &cpu, &part, &comb, &bytes));
    cr_expect(part.out[0].type == DML_TENSOR_DATA_TYPE_INT64 &&
                  comb.out[0].type == DML_TENSOR_DATA_TYPE_INT32,
              "INT32 sums: partial sums in INT64");
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_UINT64, 4096, 4096, false);
    cr_assert(dmli_reduce_split(&r, &cpu, &part, &comb, &bytes));
    cr_expect(part.out[0].type == DML_TENSOR_DATA_TYPE_UINT64, "UINT64: in UINT64");
}

/* SUM over the even axes of a packed float32 tensor of `rank` dimensions (rank even: the last
 * kept), sizes 32, 2, 2, ..., 4096: reduced and kept dimensions alternate, none merges. */
static dmli_reduce alternating(int rank)
{
    dmli_reduce r;
    dmli_reduce_init(&r, DMLI_REDUCE_SUM, 1, 1);
    r.in[0].type = r.out[0].type = DML_TENSOR_DATA_TYPE_FLOAT32;
    int64_t size[DMLI_MAX_RANK], in_s[DMLI_MAX_RANK], out_s[DMLI_MAX_RANK];
    int64_t in_dense = 1, out_dense = 1;
    for (int d = rank - 1; d >= 0; --d) {
        size[d] = d == 0 ? 32 : d == rank - 1 ? 4096 : 2;
        in_s[d] = in_dense;
        in_dense *= size[d];
        out_s[d] = d % 2 == 0 ? 0 : out_dense;
        out_dense *= d % 2 == 0 ? 1 : size[d];
    }
    for (int d = 0; d < rank; ++d)
        dmli_reduce_push(&r, size[d], d % 2 == 0, &out_s[d], &in_s[d]);
    dmli_reduce_normalize(&r);
    return r;
}

/* A split adds a dimension (the slices): a fold of the most dimensions a tensor may have does
 * not split (part's arrays hold that many), one of fewer does. */
Test(reduce_launch, column_folds_split_below_the_rank_limit)
{
    dmli_reduce part, comb;
    uint64_t bytes = 0;
    dmli_device_desc many = cpu;
    many.compute_units = 1024;
    dmli_reduce r = alternating(DMLI_MAX_RANK);
    cr_assert_eq(r.rank, DMLI_MAX_RANK);
    cr_expect(!dmli_reduce_split(&r, &many, &part, &comb, &bytes));
    r = alternating(DMLI_MAX_RANK - 2);
    cr_assert_eq(r.rank, DMLI_MAX_RANK - 2);
    cr_expect(dmli_reduce_split(&r, &many, &part, &comb, &bytes));
    cr_expect(part.rank == DMLI_MAX_RANK - 1, "part rank %d", part.rank);
}

Test(reduce_launch, column_folds_that_do_not_split)
{
    dmli_reduce part, comb;
    uint64_t bytes = 0;
    dmli_reduce r;
    /* The inner axis (rows, not columns); an input under a quarter of the cache (1 MiB of
     * 32 MiB); on a GPU under reduce_split_bytes (512 KiB of 1 MiB); rows wider than
     * reduce_split_lanes (8192 columns). */
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, true);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "rows");
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 64, 4096, false);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "1 MiB");
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 32, 4096, false);
    cr_expect(!dmli_reduce_split(&r, &gpu, &part, &comb, &bytes), "GPU, 512 KiB");
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 2048, 8192, false);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "8192 columns");
    /* Picks with indices, the two-pass log-sum-exp; integer averages and norms (an integer
     * average of averages truncates twice). */
    static const dmli_reduce_op never[] = {DMLI_REDUCE_ARGMAX, DMLI_REDUCE_ARGMIN,
                                           DMLI_REDUCE_LOG_SUM_EXP};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; ++i) {
        r = rows_of(never[i], DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
        if (never[i] != DMLI_REDUCE_LOG_SUM_EXP)
            r.out[0].type = DML_TENSOR_DATA_TYPE_UINT32;
        cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "op %d", (int)never[i]);
    }
    static const dmli_reduce_op float_only[] = {DMLI_REDUCE_AVERAGE, DMLI_REDUCE_L1, DMLI_REDUCE_L2,
                                                DMLI_REDUCE_LOG_SUM};
    for (size_t i = 0; i < sizeof float_only / sizeof float_only[0]; ++i) {
        r = rows_of(float_only[i], DML_TENSOR_DATA_TYPE_INT32, 4096, 4096, false);
        cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "INT32 op %d",
                  (int)float_only[i]);
    }
    /* No divisor of a prime row count up to the units (4093 rows). */
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4093, 4096, false);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "4093 rows");
    /* As many whole rows as units: [16, 1024, 1024] over axis 1. */
    r = middle_of(16);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "16 whole rows");
    /* Tuning data: reduce_split_lanes narrower than the row. */
    char *saved = unit_tuning_set("reduce_split_lanes=1024");
    r = rows_of(DMLI_REDUCE_SUM, DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, false);
    cr_expect(!dmli_reduce_split(&r, &cpu, &part, &comb, &bytes), "reduce_split_lanes 1024");
    unit_tuning_restore(saved);
}
