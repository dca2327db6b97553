/* SPDX-License-Identifier: MIT */
/*
 * dmli_plan_normalize on hand-built plans. Rules (src/internal.h): a size 0
 * makes the plan empty; size-1 dims are dropped; an outer dim merges with the
 * next inner one when every stride array (out, in, idx, idx_pos) satisfies
 * stride[outer] == stride[inner] * size[inner]; when the innermost run is
 * contiguous in input and output (strides 1, idx stride 0), the element is
 * widened to the largest power of two <= 16 bytes dividing the run, every
 * other byte stride, the byte offsets and (INDEXED) the byte axis strides.
 * Every expected plan below is worked out by hand from those rules.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "internal.h"

typedef struct dim {
    int64_t size, out, in, idx, pos;
} dim;

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void build(dmli_plan *p, dmli_plan_kind kind, uint32_t elem_bytes, const dim *dims, int rank)
{
    dmli_plan_init(p, kind, elem_bytes);
    for (int d = 0; d < rank; ++d)
        dmli_plan_push(p, dims[d].size, dims[d].out, dims[d].in, dims[d].idx, dims[d].pos);
}

static void expect_plan(const dmli_plan *p, uint32_t elem_bytes, const dim *dims, int rank,
                        int line)
{
    cr_expect_not(p->empty, "line %d: plan must not be empty", line);
    cr_expect_eq(p->elem_bytes, elem_bytes, "line %d: elem_bytes %u, expected %u", line,
                 p->elem_bytes, elem_bytes);
    cr_expect_eq(p->rank, rank, "line %d: rank %d, expected %d", line, p->rank, rank);
    if (p->rank != rank)
        return;
    for (int d = 0; d < rank; ++d) {
        cr_expect_eq(p->size[d], dims[d].size, "line %d: size[%d] %lld, expected %lld", line, d,
                     (long long)p->size[d], (long long)dims[d].size);
        cr_expect_eq(p->out_stride[d], dims[d].out, "line %d: out_stride[%d] %lld, expected %lld",
                     line, d, (long long)p->out_stride[d], (long long)dims[d].out);
        cr_expect_eq(p->in_stride[d], dims[d].in, "line %d: in_stride[%d] %lld, expected %lld",
                     line, d, (long long)p->in_stride[d], (long long)dims[d].in);
        cr_expect_eq(p->idx_stride[d], dims[d].idx, "line %d: idx_stride[%d] %lld, expected %lld",
                     line, d, (long long)p->idx_stride[d], (long long)dims[d].idx);
        cr_expect_eq(p->idx_pos[d], dims[d].pos, "line %d: idx_pos[%d] %lld, expected %lld", line,
                     d, (long long)p->idx_pos[d], (long long)dims[d].pos);
    }
}

#define EXPECT_PLAN(p, eb, dims) expect_plan((p), (eb), (dims), N(dims), __LINE__)

/* ---- Empty and single-element plans ----------------------------------------------- */

Test(plan, zero_size_is_empty)
{
    const dim d3[] = {{3, 0, 0, 0, 0}, {0, 1, 1, 0, 0}, {2, 1, 5, 0, 0}};
    const dim d1[] = {{0, 1, 1, 0, 0}};
    const dim inner[] = {{4, 1, 1, 0, 0}, {0, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, d3, N(d3));
    dmli_plan_normalize(&p);
    cr_expect(p.empty);
    build(&p, DMLI_PLAN_VIEW, 4, d1, N(d1));
    dmli_plan_normalize(&p);
    cr_expect(p.empty);
    build(&p, DMLI_PLAN_INDEXED, 2, inner, N(inner));
    dmli_plan_normalize(&p);
    cr_expect(p.empty);
}

Test(plan, all_size_one_is_a_single_element)
{
    const dim dims[] = {{1, 7, 3, 0, 0}, {1, 1, 1, 0, 0}, {1, 5, 9, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 11;
    dmli_plan_normalize(&p);
    cr_expect_not(p.empty, "size-1 dims are one element, not nothing");
    cr_expect_eq(p.rank, 0);
    /* Nothing to widen: no innermost run. */
    cr_expect_eq(p.elem_bytes, 4);
    cr_expect_eq(p.in_offset, 11);
}

Test(plan, rank_zero_stays_rank_zero)
{
    dmli_plan p;
    dmli_plan_init(&p, DMLI_PLAN_VIEW, 2);
    dmli_plan_normalize(&p);
    cr_expect_not(p.empty);
    cr_expect_eq(p.rank, 0);
    cr_expect_eq(p.elem_bytes, 2);
}

/* ---- Dropping and merging ------------------------------------------------------------ */

Test(plan, size_one_dims_are_dropped)
{
    /* Innermost input stride 2: no widening to interfere. */
    const dim dims[] = {{1, 12, 100, 0, 0}, {4, 3, 7, 0, 0}, {1, 3, 50, 0, 0}, {3, 1, 2, 0, 0}};
    const dim want[] = {{4, 3, 7, 0, 0}, {3, 1, 2, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, want);
}

Test(plan, dropped_dim_does_not_block_a_merge)
{
    const dim dims[] = {{2, 3, 6, 0, 0}, {1, 5, 5, 0, 0}, {3, 1, 2, 0, 0}};
    const dim want[] = {{6, 1, 2, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, want);
}

Test(plan, contiguous_dims_merge)
{
    /* Packed output, input every other element: one dim of 24, input stride 2. */
    const dim dims[] = {{2, 12, 24, 0, 0}, {3, 4, 8, 0, 0}, {4, 1, 2, 0, 0}};
    const dim want[] = {{24, 1, 2, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, want);
}

Test(plan, reversed_contiguous_pair_merges)
{
    const dim dims[] = {{2, 3, -3, 0, 0}, {3, 1, -1, 0, 0}};
    const dim want[] = {{6, 1, -1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 5;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, want); /* reversed: not widened */
    cr_expect_eq(p.in_offset, 5);
}

Test(plan, no_merge_when_one_tensor_is_not_contiguous)
{
    /* Input rows padded to 4: 12 bytes of run, so no widening either. */
    const dim in_padded[] = {{2, 3, 4, 0, 0}, {3, 1, 1, 0, 0}};
    const dim out_padded[] = {{2, 4, 3, 0, 0}, {3, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, in_padded, N(in_padded));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, in_padded);
    build(&p, DMLI_PLAN_VIEW, 4, out_padded, N(out_padded));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, out_padded);
}

Test(plan, no_merge_when_indices_are_not_contiguous)
{
    /* Index stride 1 over an index-free inner dim; then only idx_pos differs. */
    const dim idx_stride[] = {{2, 3, 3, 1, 0}, {3, 1, 1, 0, 0}};
    const dim idx_pos[] = {{2, 3, 3, 0, 1}, {3, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, idx_stride, N(idx_stride));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, idx_stride);
    build(&p, DMLI_PLAN_INDEXED, 4, idx_pos, N(idx_pos));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, idx_pos);
}

Test(plan, broadcast_zero_strides_merge)
{
    const dim both_zero[] = {{2, 3, 0, 0, 0}, {3, 1, 0, 0, 0}};
    const dim want[] = {{6, 1, 0, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, both_zero, N(both_zero));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, want);

    /* A zero-stride outer dim over a real inner one stays apart (0 != 1 * 3). */
    const dim outer_zero[] = {{2, 3, 0, 0, 0}, {3, 1, 2, 0, 0}};
    build(&p, DMLI_PLAN_VIEW, 4, outer_zero, N(outer_zero));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, outer_zero);
}

Test(plan, broadcast_rows_merge_then_widen)
{
    /* {2,3,8} FLOAT32, input broadcast over the first two dims. */
    const dim dims[] = {{2, 24, 0, 0, 0}, {3, 8, 0, 0, 0}, {8, 1, 1, 0, 0}};
    /* merge -> {6: out 8, in 0}, {8: 1, 1}; widen to 16 bytes (f = 4). */
    const dim want[] = {{6, 2, 0, 0, 0}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
}

Test(plan, inner_pair_merges_outer_stays)
{
    /* Input outer stride 16 (padded): only the two inner dims merge. */
    const dim dims[] = {{2, 12, 16, 0, 0}, {3, 4, 4, 0, 0}, {4, 1, 1, 0, 0}};
    /* -> {2: 12, 16}, {12: 1, 1}; bytes 48, 48, 64 -> unit 16 (f = 4). */
    const dim want[] = {{2, 3, 4, 0, 0}, {3, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
}

/* ---- Widening ------------------------------------------------------------------------ */

Test(plan, float32_rows_of_eight_widen_to_16)
{
    /* Run 32 bytes, output row 32 bytes, input row 48 bytes: unit 16. */
    const dim dims[] = {{5, 8, 12, 0, 0}, {8, 1, 1, 0, 0}};
    const dim want[] = {{5, 2, 3, 0, 0}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
}

Test(plan, widening_takes_the_largest_common_unit)
{
    /* Input row 40 bytes: unit 8. */
    const dim dims[] = {{5, 8, 10, 0, 0}, {8, 1, 1, 0, 0}};
    const dim want[] = {{5, 4, 5, 0, 0}, {4, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 8, want);
}

Test(plan, single_contiguous_run)
{
    const dim f32[] = {{100, 1, 1, 0, 0}}; /* 400 bytes: unit 16 */
    const dim f32_want[] = {{25, 1, 1, 0, 0}};
    const dim f16[] = {{10, 1, 1, 0, 0}}; /* 20 bytes: unit 4 */
    const dim f16_want[] = {{5, 1, 1, 0, 0}};
    const dim u8[] = {{24, 1, 1, 0, 0}}; /* 24 bytes: unit 8 */
    const dim u8_want[] = {{3, 1, 1, 0, 0}};
    const dim c128[] = {{4, 1, 1, 0, 0}}; /* already 16 bytes */
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, f32, N(f32));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, f32_want);
    build(&p, DMLI_PLAN_VIEW, 2, f16, N(f16));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, f16_want);
    build(&p, DMLI_PLAN_VIEW, 1, u8, N(u8));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 8, u8_want);
    build(&p, DMLI_PLAN_VIEW, 16, c128, N(c128));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, c128);
}

Test(plan, eight_byte_elements)
{
    const dim three[] = {{3, 1, 1, 0, 0}}; /* 24 bytes: stays 8 */
    const dim four[] = {{4, 1, 1, 0, 0}};  /* 32 bytes: 16 */
    const dim four_want[] = {{2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 8, three, N(three));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 8, three);
    build(&p, DMLI_PLAN_VIEW, 8, four, N(four));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, four_want);
}

Test(plan, uint8_rows_of_six_widen_to_2)
{
    const dim dims[] = {{3, 6, 8, 0, 0}, {6, 1, 1, 0, 0}};
    const dim want[] = {{3, 3, 4, 0, 0}, {3, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 1, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 2, want);
}

Test(plan, odd_stride_blocks_widening)
{
    const dim dims[] = {{5, 8, 9, 0, 0}, {8, 1, 1, 0, 0}}; /* input row 36 bytes */
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, dims);
}

Test(plan, offsets_limit_widening)
{
    const dim dims[] = {{5, 8, 12, 0, 0}, {8, 1, 1, 0, 0}};
    dmli_plan p;

    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 1; /* 4 bytes */
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, dims);
    cr_expect_eq(p.in_offset, 1);

    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.out_offset = 3; /* 12 bytes */
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, dims);
    cr_expect_eq(p.out_offset, 3);

    const dim want8[] = {{5, 4, 6, 0, 0}, {4, 1, 1, 0, 0}};
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 2; /* 8 bytes: unit 8 */
    p.out_offset = 6;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 8, want8);
    cr_expect_eq(p.in_offset, 1);
    cr_expect_eq(p.out_offset, 3);

    const dim want16[] = {{5, 2, 3, 0, 0}, {2, 1, 1, 0, 0}};
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 12; /* 48 bytes */
    p.out_offset = 4;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want16);
    cr_expect_eq(p.in_offset, 3);
    cr_expect_eq(p.out_offset, 1);
}

Test(plan, reversed_rows_with_contiguous_runs_widen)
{
    /* Rows read bottom-up: negative outer stride, offset at the last row. */
    const dim dims[] = {{3, 8, -8, 0, 0}, {8, 1, 1, 0, 0}};
    const dim want[] = {{3, 2, -2, 0, 0}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, dims, N(dims));
    p.in_offset = 16;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
    cr_expect_eq(p.in_offset, 4);
}

Test(plan, no_widening_for_reversed_or_strided_runs)
{
    const dim reversed[] = {{8, 1, -1, 0, 0}};
    const dim strided_in[] = {{8, 1, 2, 0, 0}};
    const dim strided_out[] = {{8, 2, 1, 0, 0}};
    const dim broadcast[] = {{8, 1, 0, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_VIEW, 4, reversed, N(reversed));
    p.in_offset = 7;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, reversed);
    cr_expect_eq(p.in_offset, 7);
    build(&p, DMLI_PLAN_VIEW, 4, strided_in, N(strided_in));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, strided_in);
    build(&p, DMLI_PLAN_VIEW, 4, strided_out, N(strided_out));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, strided_out);
    build(&p, DMLI_PLAN_VIEW, 4, broadcast, N(broadcast));
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, broadcast);
}

/* ---- INDEXED plans -------------------------------------------------------------------- */

static void one_component(dmli_plan *p, int64_t axis_size, int64_t axis_stride)
{
    p->idx_type = DMLI_INDEX_UINT32;
    p->components = 1;
    p->axis_size[0] = axis_size;
    p->axis_stride[0] = axis_stride;
}

Test(plan, indexed_rows_widen_index_stride_stays)
{
    /* GATHER axis 0 of FLOAT32 {5,2,4} by indices {3}: output {3,2,4}. */
    const dim dims[] = {{3, 8, 0, 1, 1}, {2, 4, 4, 0, 0}, {4, 1, 1, 0, 0}};
    /* -> {3: 8, 0, idx 1}, {8: 1, 1}; bytes 32, 32, axis 32 -> unit 16 (f = 4). */
    const dim want[] = {{3, 2, 0, 1, 1}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, dims, N(dims));
    one_component(&p, 5, 8);
    p.idx_offset = 3;
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
    cr_expect_eq(p.axis_stride[0], 2);
    cr_expect_eq(p.axis_size[0], 5);
    cr_expect_eq(p.idx_offset, 3, "index offsets count index elements: not scaled");
}

Test(plan, indexed_axis_stride_limits_widening)
{
    /* Input {5,8} with padded rows (stride 10): axis stride 40 bytes -> unit 8. */
    const dim dims[] = {{3, 8, 0, 1, 1}, {8, 1, 1, 0, 0}};
    const dim want[] = {{3, 4, 0, 1, 1}, {4, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, dims, N(dims));
    one_component(&p, 5, 10);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 8, want);
    cr_expect_eq(p.axis_stride[0], 5);

    /* Axis stride 9 (36 bytes): no widening at all. */
    build(&p, DMLI_PLAN_INDEXED, 4, dims, N(dims));
    one_component(&p, 5, 9);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, dims);
    cr_expect_eq(p.axis_stride[0], 9);
}

Test(plan, indexed_index_dims_merge)
{
    /* GATHER axis 0 of FLOAT32 {5,8} by packed indices {2,3}: output {2,3,8}. */
    const dim dims[] = {{2, 24, 0, 3, 3}, {3, 8, 0, 1, 1}, {8, 1, 1, 0, 0}};
    /* -> {6: 8, 0, idx 1, pos 1}, {8: 1, 1}; widen by 4. */
    const dim want[] = {{6, 2, 0, 1, 1}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, dims, N(dims));
    one_component(&p, 5, 8);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
    cr_expect_eq(p.axis_stride[0], 2);
}

Test(plan, indexed_padded_indices_do_not_merge)
{
    /* Same, but the indices' rows are 4 apart: idx 4 != 1 * 3. */
    const dim dims[] = {{2, 24, 0, 4, 3}, {3, 8, 0, 1, 1}, {8, 1, 1, 0, 0}};
    const dim want[] = {{2, 6, 0, 4, 3}, {3, 2, 0, 1, 1}, {2, 1, 1, 0, 0}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, dims, N(dims));
    one_component(&p, 5, 8);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 16, want);
}

Test(plan, indexed_innermost_no_widening)
{
    /* GATHER on the last axis of FLOAT32 {4,5} by indices {3}: the run is indexed. */
    const dim last_axis[] = {{4, 3, 5, 0, 0}, {3, 1, 0, 1, 1}};
    /* A contiguous-looking run that still reads an index per element. */
    const dim idx_inner[] = {{4, 8, 8, 0, 0}, {8, 1, 1, 1, 1}};
    dmli_plan p;
    build(&p, DMLI_PLAN_INDEXED, 4, last_axis, N(last_axis));
    one_component(&p, 5, 1);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, last_axis);
    cr_expect_eq(p.axis_stride[0], 1);
    build(&p, DMLI_PLAN_INDEXED, 4, idx_inner, N(idx_inner));
    one_component(&p, 4, 8);
    dmli_plan_normalize(&p);
    EXPECT_PLAN(&p, 4, idx_inner);
    cr_expect_eq(p.axis_stride[0], 8);
}
