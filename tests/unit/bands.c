/* SPDX-License-Identifier: MIT */
/*
 * Bands on the host (src/bands.c, src/launch_bands.c): which band an
 * operator's lowered steps yield (rows, segments in output order, strips,
 * buffers, unit), each fallback to per-step dispatch with its reason, and
 * the segment table the kernel reads. Expected values are worked out by hand
 * from the operators' shapes.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "dmlcl/dmlcl.h"
#include "drivers.h"
#include "support.h"

#define MAXP 70

/* PoCL on a 16-core CPU; OpenCL's minimum parameter size (0: 1024). */
static const dmli_device_desc cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 0, 0, 16};
/* A large GPU with a 4 KiB parameter size. */
static const dmli_device_desc gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352, 0, 1};

typedef struct op {
    unit_tensor one, pieces[MAXP];
    DML_TENSOR_DESC descs[MAXP];
    UINT start[8], end[8];
    union {
        DML_JOIN_OPERATOR_DESC join;
        DML_SPLIT_OPERATOR_DESC split;
        DML_PADDING_OPERATOR_DESC pad;
    } d;
    DML_OPERATOR_DESC desc;
    dmli_op_state st;
} op;

static op *new_op(void)
{
    op *o = calloc(1, sizeof *o);
    cr_assert(o);
    return o;
}

static void create(op *o)
{
    o->st.index_input = -1;
    const dmli_op_class *cls = dmli_op_class_find(o->desc.Type);
    cr_assert(cls);
    cr_assert_eq(dmli_op_class_create(cls, o->desc.Desc, &o->st), S_OK, "%s", dmlcl_last_error());
}

static void free_op(op *o)
{
    dmli_op_state_release(&o->st);
    free(o);
}

/* JOIN (or SPLIT) of count pieces along axis of rank-4 float tensors sizes, piece i lens[i]. */
static op *join(bool split, DML_TENSOR_DATA_TYPE type, const UINT *sizes, UINT axis, UINT count,
                const UINT *lens)
{
    op *o = new_op();
    UINT s[4], sum = 0;
    memcpy(s, sizes, sizeof s);
    for (UINT i = 0; i < count; ++i) {
        s[axis] = lens[i];
        sum += lens[i];
        o->descs[i] = *unit_tensor_set(&o->pieces[i], type, 4, s, NULL);
    }
    s[axis] = sum;
    const DML_TENSOR_DESC *one = unit_tensor_set(&o->one, type, 4, s, NULL);
    if (split)
        o->d.split = (DML_SPLIT_OPERATOR_DESC){one, count, o->descs, axis};
    else
        o->d.join = (DML_JOIN_OPERATOR_DESC){count, o->descs, one, axis};
    o->desc = (DML_OPERATOR_DESC){split ? DML_OPERATOR_SPLIT : DML_OPERATOR_JOIN, &o->d};
    create(o);
    return o;
}

/* PADDING of an NCHW float batch by p on each side of H and W. */
static op *pad(DML_PADDING_MODE mode, UINT n, UINT c, UINT h, UINT w, UINT p)
{
    op *o = new_op();
    UINT in[4] = {n, c, h, w}, out[4] = {n, c, h + 2 * p, w + 2 * p};
    o->start[2] = o->start[3] = o->end[2] = o->end[3] = p;
    o->d.pad = (DML_PADDING_OPERATOR_DESC){
        unit_tensor_set(&o->pieces[0], DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL),
        unit_tensor_set(&o->one, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL),
        mode,
        0.0f,
        4,
        o->start,
        o->end};
    o->desc = (DML_OPERATOR_DESC){DML_OPERATOR_PADDING, &o->d.pad};
    create(o);
    return o;
}

static void expect_no_band(const op *o, const dmli_device_desc *dev, const char *reason)
{
    dmli_band b;
    const char *why = NULL;
    cr_expect_not(dmli_band_build(&o->st, dev, &b, &why), "a band where none was expected");
    cr_expect(why && strstr(why, reason), "reason '%s', expected '%s'", why ? why : "(null)",
              reason);
}

Test(bands, join_on_the_inner_axis_is_one_strip_per_row)
{
    UINT sizes[4] = {8, 16, 16, 0}, lens[4] = {16, 32, 48, 32};
    op *o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 3, 4, lens);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    /* Rows: 8 x 16 x 16 merged into one dimension; one run per input per row of 128 floats. */
    cr_expect_eq(b.row_rank, 1);
    cr_expect_eq(b.rows, 8u * 16 * 16);
    cr_expect_eq(b.n_segs, 4);
    cr_expect_eq(b.n_strips, 1);
    cr_expect_eq(b.n_bufs, 5);
    /* 16-float runs at 16-float offsets: 16-byte units (4 floats). */
    cr_expect_eq(b.unit, 16);
    int64_t at = 0;
    for (uint32_t k = 0; k < 4; ++k) {
        const dmli_band_seg *s = &b.segs[k];
        cr_expect_eq(s->step, k, "output order is input order");
        cr_expect_eq(s->out_off, at, "segment %u at %lld", k, (long long)s->out_off);
        cr_expect_eq(s->run, lens[k] / 4);
        cr_expect_eq(s->run_is, 1);
        cr_expect_eq(s->lines, 1);
        cr_expect_eq(s->os[0], 128 / 4);
        cr_expect_eq(s->is[0], lens[k] / 4);
        at += lens[k] / 4;
    }
    cr_expect_eq(b.bytes, 8u * 16 * 16 * 128 * 4);
    dmli_band_launch l;
    cr_assert(dmli_band_launch_make(&b, &cpu, &l));
    cr_expect_eq(l.nbuf, 8, "5 buffers: the 8-buffer variant");
    cr_expect(l.serial);
    cr_expect_not(l.stream, "8 MiB is under the streaming threshold");
    cr_expect(strstr(l.options, "-DUNIT_T=uint4") && strstr(l.options, "-DNBUF=8"), "%s",
              l.options);
    /* Table: header, one row size, one strip, four segments of 8 + 2 longs. */
    cr_expect_eq(l.table_count,
                 DMLI_BANDS_HEADER + 1 + DMLI_BANDS_STRIP + 4 * (DMLI_SEG_FIXED + 2));
    cr_expect_eq(l.table[DMLI_BANDS_ROWS], 2048);
    cr_expect_eq(l.table[DMLI_BANDS_HEADER], 2048);
    const cl_long *seg2 = l.table + l.table[DMLI_BANDS_SEGMENTS] + 2 * (DMLI_SEG_FIXED + 2);
    cr_expect_eq(seg2[DMLI_SEG_OUT_OFF], 12);
    cr_expect_eq(seg2[DMLI_SEG_RUN], 12);
    cr_expect_eq(seg2[DMLI_SEG_FIXED], 32);
    cr_expect_eq(seg2[DMLI_SEG_FIXED + 1], 12);
    /* Each item covers whole rows; the grid covers every row. */
    cr_expect_geq(l.global[2] * l.rows_per_item, 2048u);
    dmli_band_launch_free(&l);
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, streams_from_a_quarter_of_the_cache_narrow_units_from_all_of_it)
{
    /* Joins on the inner axis of [n,16,16,*]; the device reports no cache
     * size, taken as 32 MiB (launch.h): 16-byte units stream from 8 MiB
     * written on, 1-byte units (lines assembled) from 32 MiB. */
    const struct {
        DML_TENSOR_DATA_TYPE type;
        UINT n, lens[4];
        uint32_t unit;
        bool stream;
    } cases[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, 64, {16, 32, 48, 32}, 16, true}, /* 8 MiB */
        {DML_TENSOR_DATA_TYPE_FLOAT32, 63, {16, 32, 48, 32}, 16, false},
        {DML_TENSOR_DATA_TYPE_UINT8, 4096, {3, 5, 7, 1}, 1, false}, /* 16 MiB */
        {DML_TENSOR_DATA_TYPE_UINT8, 8192, {3, 5, 7, 1}, 1, true},  /* 32 MiB */
        {DML_TENSOR_DATA_TYPE_UINT8, 8191, {3, 5, 7, 1}, 1, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        UINT sizes[4] = {cases[k].n, 16, 16, 0};
        op *o = join(false, cases[k].type, sizes, 3, 4, cases[k].lens);
        dmli_band b;
        const char *why;
        cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "case %zu: %s", k, why);
        cr_expect_eq(b.unit, cases[k].unit, "case %zu", k);
        dmli_band_launch l;
        cr_assert(dmli_band_launch_make(&b, &cpu, &l));
        cr_expect_eq(l.stream, cases[k].stream, "case %zu: %llu bytes", k,
                     (unsigned long long)b.op_bytes);
        cr_expect(strstr(l.options, cases[k].stream ? "-DSTREAM=1" : "-DSTREAM=0"), "%s",
                  l.options);
        dmli_band_launch_free(&l);
        dmli_band_free(&b);
        free_op(o);
    }
}

Test(bands, split_is_one_strip_per_output)
{
    UINT sizes[4] = {8, 128, 0, 128}, lens[3] = {40, 48, 40};
    op *o = join(true, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 2, 3, lens);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    cr_expect_eq(b.rows, 8u * 128);
    cr_expect_eq(b.n_segs, 3);
    cr_expect_eq(b.n_strips, 3, "three outputs: three strips");
    cr_expect_eq(b.n_bufs, 4);
    for (uint32_t k = 0; k < 3; ++k) {
        cr_expect_eq(b.segs[k].lines, 1, "a piece's rows are contiguous: one run");
        cr_expect_eq(b.segs[k].run * b.unit, lens[k] * 128 * 4);
        cr_expect(b.bufs[b.segs[k].out_buf].output);
        cr_expect_eq(b.bufs[b.segs[k].out_buf].slot, (int)k);
    }
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, constant_pad_walks_left_input_right_line_by_line)
{
    op *o = pad(DML_PADDING_MODE_CONSTANT, 2, 3, 10, 12, 2);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    cr_expect_eq(b.rows, 6u);
    cr_expect_eq(b.n_segs, 5);
    /* Top slab; left border, input row, right border (10 lines of 16); bottom slab. */
    cr_expect_eq(b.n_strips, 3);
    cr_expect_eq(b.strips[1].count, 3);
    cr_expect_eq(b.strips[1].lines, 10);
    cr_expect_eq(b.n_bufs, 3, "the output, the constant and the input");
    cr_expect_eq(b.unit, 8, "runs of 2 floats at even offsets");
    int64_t unit_elems = b.unit / 4;
    const dmli_band_seg *left = &b.segs[b.strips[1].first];
    cr_expect_eq(left->out_off * unit_elems, 2 * 16);
    cr_expect_eq(b.bufs[left->in_buf].slot, DMLI_STEP_CONSTANT);
    cr_expect_eq(left[1].out_off * unit_elems, 2 * 16 + 2);
    cr_expect_eq(left[1].run * unit_elems, 12);
    cr_expect_eq(left[2].out_off * unit_elems, 2 * 16 + 14);
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, gpu_lanes_fit_the_runs_and_lines_fill_the_device)
{
    /* The pad above on a GPU of 132 compute units, in units of 8 bytes:
     * the longest run is the top slab, 2 lines of 16 floats (16 units): 16
     * lanes, up to 16 rows a group. Its 6 rows x 16 lanes are far from 2048
     * items per compute unit: the 10 lines of the middle strip (the most of
     * any strip) split over 10 items in dimension 1. */
    op *o = pad(DML_PADDING_MODE_CONSTANT, 2, 3, 10, 12, 2);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &gpu, &b, &why), "%s", why);
    dmli_band_launch l;
    cr_assert(dmli_band_launch_make(&b, &gpu, &l));
    cr_expect(!l.serial && strstr(l.options, "-DSERIAL=0"), "%s", l.options);
    cr_expect_eq(b.unit, 8);
    cr_expect_eq(l.local[0], 16);
    cr_expect_eq(l.global[0], 16);
    cr_expect_eq(l.local[1], 1);
    cr_expect_eq(l.global[1], 10);
    cr_expect_eq(l.local[2], 6, "the 6 rows (under 256 / 16)");
    cr_expect_eq(l.global[2], 6);
    dmli_band_launch_free(&l);
    /* A JOIN of 65536 rows of runs of 4, 8 and 12 floats (units of 16
     * bytes: 1-3 units): 4 lanes, 64 rows a group; 65536 x 4 items is
     * already 2048 per compute unit of a 128-unit GPU: no split. */
    dmli_band_free(&b);
    free_op(o);
    const UINT sizes[4] = {4, 128, 128, 0}, lens[3] = {4, 8, 12};
    o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 3, 3, lens);
    dmli_device_desc g128 = gpu;
    g128.compute_units = 128;
    cr_assert(dmli_band_build(&o->st, &g128, &b, &why), "%s", why);
    cr_assert(dmli_band_launch_make(&b, &g128, &l));
    cr_expect_eq(b.rows, 65536u);
    cr_expect_eq(b.unit, 16);
    cr_expect_eq(l.local[0], 4);
    cr_expect_eq(l.global[1], 1);
    cr_expect_eq(l.local[2], 64);
    cr_expect_eq(l.global[2], 65536);
    dmli_band_launch_free(&l);
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, reflect_pad_moves_elements)
{
    op *o = pad(DML_PADDING_MODE_REFLECTION, 2, 3, 10, 12, 2);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    cr_expect_eq(b.n_segs, 9);
    cr_expect_eq(b.n_strips, 3);
    cr_expect_eq(b.unit, 4, "reversed runs move single elements");
    bool reversed = false;
    for (uint32_t k = 0; k < b.n_segs; ++k)
        reversed |= b.segs[k].run_is == -1;
    cr_expect(reversed);
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, one_column_borders_are_runs_of_one)
{
    op *o = pad(DML_PADDING_MODE_REFLECTION, 2, 3, 10, 12, 1);
    dmli_band b;
    const char *why;
    cr_assert(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    /* Every step joins: top row, left / input / right (10 lines of 14), bottom row. */
    cr_expect_eq(b.n_segs, 9);
    cr_expect_eq(b.n_strips, 3);
    cr_expect_eq(b.strips[1].count, 3);
    cr_expect_eq(b.strips[1].lines, 10);
    const dmli_band_seg *left = &b.segs[b.strips[1].first];
    cr_expect_eq(left->run, 1);
    cr_expect_eq(left->line_os, 14);
    cr_expect_eq(left->line_is, 12);
    cr_expect_eq(left->in_off, 1, "x = -1 reflects to x = 1");
    cr_expect_eq(left[2].run, 1);
    cr_expect_eq(left[2].in_off, 10, "x = 12 reflects to x = 10");
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, many_buffers_fall_back)
{
    UINT sizes[4] = {64, 2, 3, 0}, lens[MAXP];
    for (int i = 0; i < 64; ++i)
        lens[i] = 1 + i % 3;
    /* 64 inputs and the output: 65 buffers, past the 63 of 1024 bytes of parameters. */
    op *o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 3, 64, lens);
    expect_no_band(o, &cpu, "CL_DEVICE_MAX_PARAMETER_SIZE");
    free_op(o);
    /* 62 inputs: 63 buffers fit. */
    o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 3, 62, lens);
    dmli_band b;
    const char *why;
    cr_expect(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    dmli_band_free(&b);
    /* A device with 256 bytes of parameters: 15 buffers at most. */
    dmli_device_desc small = cpu;
    small.max_parameter_size = 256;
    expect_no_band(o, &small, "CL_DEVICE_MAX_PARAMETER_SIZE");
    free_op(o);
}

Test(bands, parameter_size_picks_the_variant)
{
    dmli_device_desc d = cpu;
    cr_expect_eq(dmli_band_nbuf(2, &d), 2);
    cr_expect_eq(dmli_band_nbuf(3, &d), 4);
    cr_expect_eq(dmli_band_nbuf(17, &d), 32);
    cr_expect_eq(dmli_band_nbuf(63, &d), 63, "0 means 1024 bytes: 63 buffers and the table");
    cr_expect_eq(dmli_band_nbuf(64, &d), 0);
    d.max_parameter_size = 256;
    cr_expect_eq(dmli_band_nbuf(15, &d), 0, "16 x 16 + 16 bytes is past 256");
    cr_expect_eq(dmli_band_nbuf(8, &d), 8);
    d.max_parameter_size = 4352;
    cr_expect_eq(dmli_band_nbuf(63, &d), 63);
}

Test(bands, few_large_rows_fall_back)
{
    /* JOIN on axis 0: one row of 2 x 1 MiB; the per-step kernels split the runs. */
    UINT sizes[4] = {0, 16, 128, 128}, lens[2] = {8, 8};
    op *o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 0, 2, lens);
    expect_no_band(o, &cpu, "too few rows");
    free_op(o);
    /* The same with small pieces: one row is one dispatch. */
    UINT tiny[4] = {0, 2, 3, 4};
    o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, tiny, 0, 2, lens);
    dmli_band b;
    const char *why;
    cr_expect(dmli_band_build(&o->st, &cpu, &b, &why), "%s", why);
    cr_expect_eq(b.rows, 1u);
    dmli_band_free(&b);
    free_op(o);
    /* PADDING [1,512,224,224] by 1 (201 KiB a plane, 102 MiB): 512 rows, under 4 per
     * compute unit of 132. A CPU of 132 units takes the per-step kernels; a GPU splits each
     * row's 226 lines over items (launch_bands.c), 512 x 226 of them: one band. */
    o = pad(DML_PADDING_MODE_REFLECTION, 1, 512, 224, 224, 1);
    dmli_device_desc cpu132 = cpu;
    cpu132.compute_units = 132;
    expect_no_band(o, &cpu132, "too few rows");
    cr_assert(dmli_band_build(&o->st, &gpu, &b, &why), "%s", why);
    cr_expect_eq(b.rows, 512u);
    dmli_band_free(&b);
    free_op(o);
}

Test(bands, one_plan_and_single_steps_have_no_band)
{
    /* A pad of nothing on H and W is the plain plan. */
    op *o = pad(DML_PADDING_MODE_CONSTANT, 2, 3, 4, 5, 0);
    expect_no_band(o, &cpu, "no steps");
    free_op(o);
    /* A JOIN of one piece: one step. */
    UINT sizes[4] = {2, 3, 0, 4}, lens[1] = {5};
    o = join(false, DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 2, 1, lens);
    expect_no_band(o, &cpu, "fewer than 2");
    free_op(o);
}

/* Steps built by hand: a transposing step keeps its own kernel. */
Test(bands, layout_changes_keep_their_kernel)
{
    dmli_op_state *st = calloc(1, sizeof *st);
    cr_assert(st);
    st->n_inputs = 2;
    st->n_outputs = 1;
    dmli_tensor out = {.rank = 3, .sizes = {64, 2, 12}}, in = {.rank = 3, .sizes = {64, 2, 4}};
    st->outputs[0] = out;
    st->inputs[0] = st->inputs[1] = in;
    /* Output [64, 2, 12]: step 0 copies input 0 into columns 0-3, step 1 transposes input 1
     * (strides {8, 1, 2}) into columns 4-7, step 2 is empty. */
    dmli_plan *p = dmli_op_add_step(st, 0, 0, DMLI_PLAN_VIEW, 4);
    dmli_plan_push(p, 64, 24, 8, 0, 0);
    dmli_plan_push(p, 2, 12, 4, 0, 0);
    dmli_plan_push(p, 4, 1, 1, 0, 0);
    p = dmli_op_add_step(st, 1, 0, DMLI_PLAN_VIEW, 4);
    p->out_offset = 4;
    dmli_plan_push(p, 64, 24, 8, 0, 0);
    dmli_plan_push(p, 2, 12, 1, 0, 0);
    dmli_plan_push(p, 4, 1, 2, 0, 0);
    p = dmli_op_add_step(st, 0, 0, DMLI_PLAN_VIEW, 4);
    dmli_plan_push(p, 64, 24, 8, 0, 0);
    dmli_plan_push(p, 0, 12, 4, 0, 0);
    dmli_plan_push(p, 4, 1, 1, 0, 0);
    dmli_band b;
    const char *why;
    cr_expect_not(dmli_band_build(st, &cpu, &b, &why), "one step is left: no band");
    /* A contiguous step into columns 8-11 joins the first. */
    p = dmli_op_add_step(st, 0, 0, DMLI_PLAN_VIEW, 4);
    p->out_offset = 8;
    dmli_plan_push(p, 64, 24, 8, 0, 0);
    dmli_plan_push(p, 2, 12, 4, 0, 0);
    dmli_plan_push(p, 4, 1, 1, 0, 0);
    cr_assert(dmli_band_build(st, &gpu, &b, &why), "%s", why);
    cr_expect_eq(b.n_segs, 2);
    cr_expect_eq(b.rows, 128u, "the last dimension is not covered: the others are rows");
    cr_expect_eq(b.n_strips, 1, "runs of 4 at columns 0 and 8 of each row");
    cr_expect(b.in_band[0]);
    cr_expect_not(b.in_band[1], "the transposing step keeps its kernel");
    cr_expect_not(b.in_band[2], "the empty step launches nothing");
    cr_expect(b.in_band[3]);
    dmli_band_launch l;
    cr_assert(dmli_band_launch_make(&b, &gpu, &l));
    cr_expect_not(l.serial);
    cr_expect_eq(b.unit, 16, "runs of 4 floats at 16-byte offsets");
    cr_expect_eq(l.local[0], 1, "GPUs: lanes the power of two that holds the longest run (1 unit)");
    cr_expect_eq(l.rows_per_item, 1);
    dmli_band_launch_free(&l);
    dmli_band_free(&b);
    dmli_op_state_release(st);
    free(st);
}

/* The invariant bands rely on, as the fuzzers check it (fuzz/plancheck.c): steps that write
 * one element twice are refused; disjoint ones pass. */
Test(bands, plan_checker_refuses_overlapping_steps)
{
    dmli_op_state *st = calloc(1, sizeof *st);
    cr_assert(st);
    st->n_inputs = 1;
    st->n_outputs = 1;
    dmli_tensor t = {.present = true,
                     .rank = 2,
                     .elem_bytes = 4,
                     .sizes = {4, 8},
                     .strides = {8, 1},
                     .elements = 32,
                     .total_bytes = 128};
    st->inputs[0] = st->outputs[0] = t;
    /* Columns 0-3 and 4-7 of a [4, 8] output. */
    for (int k = 0; k < 2; ++k) {
        dmli_plan *p = dmli_op_add_step(st, 0, 0, DMLI_PLAN_VIEW, 4);
        p->out_offset = 4 * k;
        dmli_plan_push(p, 4, 8, 8, 0, 0);
        dmli_plan_push(p, 4, 1, 1, 0, 0);
    }
    char why[FUZZ_WHY];
    cr_expect_eq(fuzz_check_state(st, why), 0, "%s", why);
    /* The second step moved one column left: column 3 is written twice. */
    dmli_op_state_release(st);
    for (int k = 0; k < 2; ++k) {
        dmli_plan *p = dmli_op_add_step(st, 0, 0, DMLI_PLAN_VIEW, 4);
        p->out_offset = 3 * k;
        dmli_plan_push(p, 4, 8, 8, 0, 0);
        dmli_plan_push(p, 4, 1, 1, 0, 0);
    }
    cr_expect_eq(fuzz_check_state(st, why), 1);
    cr_expect(strstr(why, "element offset 3"), "%s", why);
    dmli_op_state_release(st);
    free(st);
}
