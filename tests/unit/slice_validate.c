/* SPDX-License-Identifier: MIT */
/*
 * DML_SLICE, DML_SLICE1 and DMLCL_STRIDED_SLICE on the host (no OpenCL
 * device): every rule of directml-facts.md 4.8-4.9 and of dmlcl/ext_slice.h
 * has a test that breaks it and checks the HRESULT and that the message names
 * the operator and the field; the documented examples are valid; and the
 * lowering (first element, signed steps) is checked on the plan before
 * normalisation, against offsets computed by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "ops/strided_slice.h"
#include "support.h"

#define N(a) ((UINT)(sizeof(a) / sizeof((a)[0])))

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    else
        cr_expect_null(op, "a failed create must not return an operator");
    return hr;
}

static void check(const DML_OPERATOR_DESC *desc, HRESULT want, const char *op, const char *field,
                  int line)
{
    HRESULT hr = create(desc);
    const char *msg = dmlcl_last_error();
    cr_expect_eq(hr, want, "line %d: expected %s, got %s; message: %s", line,
                 dmlcl_hresult_name(want), dmlcl_hresult_name(hr), msg);
    if (hr != want || want == S_OK)
        return;
    cr_expect(strstr(msg, op) != NULL, "line %d: message lacks \"%s\": %s", line, op, msg);
    cr_expect(strstr(msg, field) != NULL, "line %d: message lacks \"%s\": %s", line, field, msg);
}

/* The plan an operator lowers to, before normalisation. */
static dmli_plan lowered(const DML_OPERATOR_DESC *desc)
{
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    cr_assert_not_null(cls);
    HRESULT hr = dmli_op_class_create(cls, desc->Desc, &st);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    return st.plan;
}

static void expect_plan(const dmli_plan *p, int64_t in_offset, int rank, const int64_t *size,
                        const int64_t *in_stride, int line)
{
    cr_expect_eq(p->kind, DMLI_PLAN_VIEW, "line %d: a view plan", line);
    cr_expect_eq(p->in_offset, in_offset, "line %d: in_offset %lld, want %lld", line,
                 (long long)p->in_offset, (long long)in_offset);
    cr_assert_eq(p->rank, rank, "line %d: rank %d, want %d", line, p->rank, rank);
    for (int d = 0; d < rank; ++d) {
        cr_expect_eq(p->size[d], size[d], "line %d: size[%d] %lld, want %lld", line, d,
                     (long long)p->size[d], (long long)size[d]);
        cr_expect_eq(p->in_stride[d], in_stride[d], "line %d: in_stride[%d] %lld, want %lld", line,
                     d, (long long)p->in_stride[d], (long long)in_stride[d]);
    }
}

/* ---- DML_SLICE ------------------------------------------------------------------------ */

typedef struct slice {
    unit_tensor in, out;
    UINT offsets[UNIT_MAX_DIMS], sizes[UNIT_MAX_DIMS], strides[UNIT_MAX_DIMS];
    DML_SLICE_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} slice;

static void slice_init(slice *c, UINT rank, const UINT *in, const UINT *offsets, const UINT *sizes,
                       const UINT *strides)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_FLOAT32, rank, in, NULL);
    unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_FLOAT32, rank, sizes, NULL);
    memcpy(c->offsets, offsets, rank * sizeof(UINT));
    memcpy(c->sizes, sizes, rank * sizeof(UINT));
    memcpy(c->strides, strides, rank * sizeof(UINT));
    c->d = (DML_SLICE_OPERATOR_DESC){&c->in.desc, &c->out.desc, rank,
                                     c->offsets,  c->sizes,     c->strides};
    c->op = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE, &c->d};
}

/* facts 4.8 example 2: {1,1,4,4}, Offsets {0,0,1,0}, Sizes {1,1,2,2}, Strides {1,1,2,3}. */
static void slice_base(slice *c)
{
    const UINT in[] = {1, 1, 4, 4}, off[] = {0, 0, 1, 0}, sz[] = {1, 1, 2, 2}, st[] = {1, 1, 2, 3};
    slice_init(c, 4, in, off, sz, st);
}

#define SLICE_EXPECT(c, hr, field) check(&(c)->op, (hr), "SLICE", (field), __LINE__)

Test(slice_validate, documented_examples)
{
    slice c;
    const UINT in[] = {1, 1, 4, 4}, in5[] = {1, 1, 5, 5};
    const UINT off1[] = {0, 0, 1, 2}, sz1[] = {1, 1, 3, 2}, st1[] = {1, 1, 1, 1};
    slice_init(&c, 4, in, off1, sz1, st1);
    SLICE_EXPECT(&c, S_OK, "");
    /* Reads rows 1..3, columns 2..3: first element 1*4 + 2 = 6. */
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 6, 4, (const int64_t[]){1, 1, 3, 2}, (const int64_t[]){16, 16, 4, 1}, __LINE__);

    slice_base(&c);
    SLICE_EXPECT(&c, S_OK, "");
    p = lowered(&c.op);
    expect_plan(&p, 4, 4, (const int64_t[]){1, 1, 2, 2}, (const int64_t[]){16, 16, 8, 3}, __LINE__);

    /* DxDispatch's dml_slice.json: {1,1,5,5}, Offsets {0,0,1,1}, Sizes {1,1,3,2}, Strides
     * {1,1,1,2}. */
    const UINT off3[] = {0, 0, 1, 1}, sz3[] = {1, 1, 3, 2}, st3[] = {1, 1, 1, 2};
    slice_init(&c, 4, in5, off3, sz3, st3);
    SLICE_EXPECT(&c, S_OK, "");
    p = lowered(&c.op);
    expect_plan(&p, 6, 4, (const int64_t[]){1, 1, 3, 2}, (const int64_t[]){25, 25, 5, 2}, __LINE__);
}

Test(slice_validate, dimension_count_and_tensors)
{
    slice c;
    slice_base(&c);
    c.d.DimensionCount = 3;
    SLICE_EXPECT(&c, E_INVALIDARG, "DimensionCount");
    slice_base(&c);
    c.out.buf.DataType = DML_TENSOR_DATA_TYPE_INT32;
    SLICE_EXPECT(&c, E_INVALIDARG, "DataType");
    slice_base(&c);
    const UINT out3[] = {1, 2, 2};
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 3, out3, NULL);
    SLICE_EXPECT(&c, E_INVALIDARG, "OutputTensor.DimensionCount");
    slice_base(&c);
    c.d.OutputTensor = NULL;
    create(&c.op);
    cr_expect(strstr(dmlcl_last_error(), "OutputTensor") != NULL, "%s", dmlcl_last_error());
}

Test(slice_validate, null_lists)
{
    slice c;
    slice_base(&c);
    c.d.Offsets = NULL;
    SLICE_EXPECT(&c, E_INVALIDARG, "Offsets");
    slice_base(&c);
    c.d.Sizes = NULL;
    SLICE_EXPECT(&c, E_INVALIDARG, "Sizes");
    slice_base(&c);
    c.d.Strides = NULL;
    SLICE_EXPECT(&c, E_INVALIDARG, "Strides");
}

Test(slice_validate, sizes_must_equal_output_sizes)
{
    slice c;
    slice_base(&c);
    c.sizes[3] = 1; /* a smaller window than the output */
    SLICE_EXPECT(&c, E_INVALIDARG, "Sizes[3]");
}

Test(slice_validate, window_inside_the_input)
{
    slice c;
    slice_base(&c);
    c.offsets[2] = 2; /* 2 + (2 - 1) * 2 = 4 = InputTensor.Sizes[2] */
    SLICE_EXPECT(&c, E_INVALIDARG, "Offsets[2]");
    slice_base(&c);
    c.strides[3] = 4; /* 0 + 1 * 4 = 4 */
    SLICE_EXPECT(&c, E_INVALIDARG, "Strides[3]");
    /* UINT extremes never wrap around into range. */
    slice_base(&c);
    c.offsets[3] = UINT32_MAX;
    SLICE_EXPECT(&c, E_INVALIDARG, "Offsets[3]");
    slice_base(&c);
    c.strides[3] = UINT32_MAX;
    SLICE_EXPECT(&c, E_INVALIDARG, "Strides[3]");
    slice_base(&c);
    c.offsets[2] = 1u << 31;
    c.strides[2] = 1u << 31; /* 2^31 + 2^31 wraps to 0 in 32 bits */
    SLICE_EXPECT(&c, E_INVALIDARG, "Offsets[2]");
}

/* DirectML sets no rule on SLICE's Strides; 0 repeats the element at the offset. */
Test(slice_validate, stride_zero_reads_one_element)
{
    slice c;
    slice_base(&c);
    c.strides[3] = 0;
    c.offsets[3] = 3;
    SLICE_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 4 + 3, 4, (const int64_t[]){1, 1, 2, 2}, (const int64_t[]){16, 16, 8, 0},
                __LINE__);
}

Test(slice_validate, directml_tensor_rules)
{
    slice c;
    const UINT in9[] = {1, 1, 1, 1, 1, 1, 1, 4, 4}, z9[9] = {0},
               one9[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const UINT sz9[] = {1, 1, 1, 1, 1, 1, 1, 2, 2};
    slice_init(&c, 9, in9, z9, sz9, one9);
    SLICE_EXPECT(&c, E_INVALIDARG, "DimensionCount");
    slice_base(&c);
    c.in.buf.DataType = c.out.buf.DataType = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
    unit_tensor_fit(&c.in);
    unit_tensor_fit(&c.out);
    SLICE_EXPECT(&c, DXGI_ERROR_UNSUPPORTED, "DataType");
    slice_base(&c);
    c.in.sizes[0] = 0;
    SLICE_EXPECT(&c, E_INVALIDARG, "Sizes[0]");
    slice_base(&c);
    const UINT out_sizes[] = {1, 1, 2, 2}, out_strides[] = {4, 4, 2, 0};
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, out_strides);
    SLICE_EXPECT(&c, DXGI_ERROR_UNSUPPORTED, "OutputTensor.Strides[3]");
}

Test(slice_validate, strided_input_layout)
{
    slice c;
    slice_base(&c);
    const UINT sizes[] = {1, 1, 4, 4}, padded[] = {64, 64, 10, 2}; /* rows of 10, every 2nd */
    unit_tensor_set(&c.in, DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, padded);
    SLICE_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 10, 4, (const int64_t[]){1, 1, 2, 2}, (const int64_t[]){64, 64, 20, 6},
                __LINE__);
}

/* ---- DML_SLICE1 ----------------------------------------------------------------------- */

typedef struct slice1 {
    unit_tensor in, out;
    UINT offsets[UNIT_MAX_DIMS], sizes[UNIT_MAX_DIMS];
    INT strides[UNIT_MAX_DIMS];
    DML_SLICE1_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} slice1;

static void slice1_init(slice1 *c, UINT rank, const UINT *in, const UINT *out, const UINT *offsets,
                        const UINT *sizes, const INT *strides)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_FLOAT32, rank, in, NULL);
    unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_FLOAT32, rank, out, NULL);
    memcpy(c->offsets, offsets, rank * sizeof(UINT));
    memcpy(c->sizes, sizes, rank * sizeof(UINT));
    memcpy(c->strides, strides, rank * sizeof(INT));
    c->d = (DML_SLICE1_OPERATOR_DESC){&c->in.desc, &c->out.desc, rank,
                                      c->offsets,  c->sizes,     c->strides};
    c->op = (DML_OPERATOR_DESC){DML_OPERATOR_SLICE1, &c->d};
}

/* facts 4.9 example 2: Offsets {0,0,0,1}, Sizes {1,1,4,3}, Strides {1,1,-2,2} -> {1,1,2,2}. */
static void slice1_base(slice1 *c)
{
    const UINT in[] = {1, 1, 4, 4}, out[] = {1, 1, 2, 2}, off[] = {0, 0, 0, 1}, sz[] = {1, 1, 4, 3};
    const INT st[] = {1, 1, -2, 2};
    slice1_init(c, 4, in, out, off, sz, st);
}

#define SLICE1_EXPECT(c, hr, field) check(&(c)->op, (hr), "SLICE1", (field), __LINE__)

Test(slice1_validate, documented_examples)
{
    slice1 c;
    slice1_base(&c);
    c.strides[2] = 2; /* example 1 */
    SLICE1_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 1, 4, (const int64_t[]){1, 1, 2, 2}, (const int64_t[]){16, 16, 8, 2}, __LINE__);
    /* Example 2: axis 2 starts at 0 + 4 - 1 = 3: first element 3 * 4 + 1 = 13. */
    slice1_base(&c);
    SLICE1_EXPECT(&c, S_OK, "");
    p = lowered(&c.op);
    expect_plan(&p, 13, 4, (const int64_t[]){1, 1, 2, 2}, (const int64_t[]){16, 16, -8, 2},
                __LINE__);
}

Test(slice1_validate, window_rules)
{
    slice1 c;
    slice1_base(&c);
    c.sizes[3] = 0;
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowSizes[3]");
    slice1_base(&c);
    c.offsets[3] = 2; /* 2 + 3 > 4 */
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowOffsets[3]");
    slice1_base(&c);
    c.offsets[3] = UINT32_MAX; /* UINT32_MAX + 3 must not wrap */
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowOffsets[3]");
    slice1_base(&c);
    c.sizes[2] = UINT32_MAX;
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowSizes[2]");
    slice1_base(&c);
    c.strides[1] = 0;
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowStrides[1]");
}

Test(slice1_validate, output_sizes_within_the_window)
{
    slice1 c;
    slice1_base(&c);
    c.out.sizes[2] = 3; /* 1 + (4 - 1) / 2 = 2 */
    unit_tensor_fit(&c.out);
    SLICE1_EXPECT(&c, E_INVALIDARG, "OutputTensor.Sizes[2]");
    /* Fewer than the window holds is fine: the first elements from the start. */
    slice1_base(&c);
    c.out.sizes[2] = 1;
    unit_tensor_fit(&c.out);
    SLICE1_EXPECT(&c, S_OK, "");
    /* INT_MIN: |stride| 2^31 leaves one element. */
    slice1_base(&c);
    c.strides[2] = INT32_MIN;
    SLICE1_EXPECT(&c, E_INVALIDARG, "OutputTensor.Sizes[2]");
    c.out.sizes[2] = 1;
    unit_tensor_fit(&c.out);
    SLICE1_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    cr_expect_eq(p.in_offset, 13, "INT_MIN stride starts at the window's end");
}

Test(slice1_validate, shared_rules)
{
    slice1 c;
    slice1_base(&c);
    c.d.DimensionCount = 5;
    SLICE1_EXPECT(&c, E_INVALIDARG, "DimensionCount");
    slice1_base(&c);
    c.d.InputWindowStrides = NULL;
    SLICE1_EXPECT(&c, E_INVALIDARG, "InputWindowStrides");
    slice1_base(&c);
    c.out.buf.DataType = DML_TENSOR_DATA_TYPE_FLOAT16;
    unit_tensor_fit(&c.out);
    SLICE1_EXPECT(&c, E_INVALIDARG, "DataType");
}

/* ---- DMLCL_STRIDED_SLICE -------------------------------------------------------------- */

#define MAX_ENTRIES 8

typedef struct sslice {
    unit_tensor in, out;
    INT64 begin[MAX_ENTRIES], end[MAX_ENTRIES], strides[MAX_ENTRIES];
    UINT masks[5][MAX_ENTRIES];
    DMLCL_STRIDED_SLICE_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} sslice;

static void sslice_init(sslice *c, UINT in_rank, const UINT *in, UINT out_rank, const UINT *out,
                        UINT count, const INT64 *begin, const INT64 *end, const INT64 *strides)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, DML_TENSOR_DATA_TYPE_FLOAT32, in_rank, in, NULL);
    unit_tensor_set(&c->out, DML_TENSOR_DATA_TYPE_FLOAT32, out_rank, out, NULL);
    for (UINT i = 0; i < count; ++i) {
        c->begin[i] = begin[i];
        c->end[i] = end[i];
        c->strides[i] = strides[i];
    }
    c->d = (DMLCL_STRIDED_SLICE_OPERATOR_DESC){&c->in.desc, &c->out.desc, count,       c->begin,
                                               c->end,      c->strides,   c->masks[0], c->masks[1],
                                               c->masks[2], c->masks[3],  c->masks[4]};
    c->op = (DML_OPERATOR_DESC){DMLCL_OPERATOR_STRIDED_SLICE, &c->d};
}

/* StridedSlice-1 example 1, corrected: x[0:4, 1:4, 0:4:2, 1:4:2, 3:0:-1, 3:0:-2] of 4^6. */
static void sslice_base(sslice *c)
{
    const UINT in[] = {4, 4, 4, 4, 4, 4}, out[] = {4, 3, 2, 2, 3, 2};
    sslice_init(c, 6, in, 6, out, 6, (const INT64[]){0, 1, 0, 1, 3, 3},
                (const INT64[]){4, 4, 4, 4, 0, 0}, (const INT64[]){1, 1, 2, 2, -1, -2});
}

#define SS_EXPECT(c, hr, field) check(&(c)->op, (hr), "STRIDED_SLICE", (field), __LINE__)

Test(strided_slice_validate, example_1_lowering)
{
    sslice c;
    sslice_base(&c);
    SS_EXPECT(&c, S_OK, "");
    /* Packed strides 1024, 256, 64, 16, 4, 1; first element (0,1,0,1,3,3). */
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 256 + 16 + 12 + 3, 6, (const int64_t[]){4, 3, 2, 2, 3, 2},
                (const int64_t[]){1024, 256, 128, 32, -4, -2}, __LINE__);
}

Test(strided_slice_validate, new_and_shrunk_axes_lowering)
{
    /* x[np.newaxis, 1, ::-1] of {3,4}: output {1,4}, first element (1,3). */
    sslice c;
    const UINT in[] = {3, 4}, out[] = {1, 4};
    sslice_init(&c, 2, in, 2, out, 3, (const INT64[]){7, 1, 0}, (const INT64[]){7, 0, 0},
                (const INT64[]){0, 0, -1});
    c.masks[2][0] = 1;                 /* new axis: begin/end/stride ignored, even stride 0 */
    c.masks[3][1] = 1;                 /* shrink: stride 0 ignored */
    c.masks[0][2] = c.masks[1][2] = 1; /* ::-1 */
    SS_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    expect_plan(&p, 4 + 3, 2, (const int64_t[]){1, 4}, (const int64_t[]){0, -1}, __LINE__);
}

Test(strided_slice_validate, scalar_output_is_described_as_one)
{
    sslice c;
    const UINT in[] = {5}, one[] = {1};
    sslice_init(&c, 1, in, 1, one, 1, (const INT64[]){-2}, (const INT64[]){0}, (const INT64[]){1});
    c.masks[3][0] = 1;
    SS_EXPECT(&c, S_OK, "");
    dmli_plan p = lowered(&c.op);
    cr_expect_eq(p.in_offset, 3);
    cr_expect_eq(p.rank, 0);
    const UINT two[] = {2};
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 1, two, NULL);
    SS_EXPECT(&c, E_INVALIDARG, "OutputTensor.Sizes");
}

Test(strided_slice_validate, rule_violations)
{
    sslice c;
    sslice_base(&c);
    c.strides[2] = 0;
    SS_EXPECT(&c, E_INVALIDARG, "Strides[2]");
    sslice_base(&c);
    c.masks[4][1] = c.masks[4][3] = 1;
    SS_EXPECT(&c, E_INVALIDARG, "EllipsisMask");
    sslice_base(&c);
    c.masks[0][5] = 2;
    SS_EXPECT(&c, E_INVALIDARG, "BeginMask[5]");
    sslice_base(&c);
    c.masks[3][4] = 1;
    c.begin[4] = 4; /* shrink index outside the dim of 4 */
    SS_EXPECT(&c, E_INVALIDARG, "Begin[4]");
    c.begin[4] = -5;
    SS_EXPECT(&c, E_INVALIDARG, "Begin[4]");
    sslice_base(&c);
    c.out.sizes[1] = 4;
    unit_tensor_fit(&c.out);
    SS_EXPECT(&c, E_INVALIDARG, "OutputTensor.Sizes");
    sslice_base(&c);
    c.d.Begin = NULL;
    SS_EXPECT(&c, E_INVALIDARG, "Begin");
}

Test(strided_slice_validate, more_entries_than_dimensions)
{
    /* Seven entries that take a dimension of a 6-D input; a new axis or the ellipsis would not. */
    sslice c;
    const UINT in[] = {4, 4, 4, 4, 4, 4}, out[] = {4, 4, 4, 4, 4, 4, 1};
    sslice_init(&c, 6, in, 7, out, 7, (const INT64[]){0, 0, 0, 0, 0, 0, 0},
                (const INT64[]){4, 4, 4, 4, 4, 4, 4}, (const INT64[]){1, 1, 1, 1, 1, 1, 1});
    SS_EXPECT(&c, E_INVALIDARG, "take input dimensions");
    c.masks[2][6] = 1;
    SS_EXPECT(&c, S_OK, "");
    c.masks[2][6] = 0;
    c.masks[4][6] = 1; /* an ellipsis of no dimensions */
    const UINT out6[] = {4, 4, 4, 4, 4, 4};
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 6, out6, NULL);
    SS_EXPECT(&c, S_OK, "");
}

Test(strided_slice_validate, extension_tensors)
{
    sslice c;
    sslice_base(&c);
    c.in.buf.DataType = c.out.buf.DataType = DMLCL_TENSOR_DATA_TYPE_COMPLEX128;
    unit_tensor_fit(&c.in);
    unit_tensor_fit(&c.out);
    SS_EXPECT(&c, S_OK, "");
    sslice_base(&c);
    c.in.buf.DataType = c.out.buf.DataType = DMLCL_TENSOR_DATA_TYPE_STRING;
    SS_EXPECT(&c, DXGI_ERROR_UNSUPPORTED, "STRING");
    /* 0 sizes: an empty input slices to an empty output. */
    sslice_base(&c);
    c.in.sizes[1] = 0;
    c.out.sizes[1] = 0;
    unit_tensor_fit(&c.in);
    unit_tensor_fit(&c.out);
    SS_EXPECT(&c, S_OK, "");
    /* 16 dimensions, plain copy (SliceCount 0). */
    UINT s16[16];
    for (int i = 0; i < 16; ++i)
        s16[i] = 1 + (i % 2);
    sslice_init(&c, 16, s16, 16, s16, 0, NULL, NULL, NULL);
    c.d.Begin = c.d.End = NULL;
    SS_EXPECT(&c, S_OK, "");
}

Test(strided_slice_validate, output_rank_over_sixteen_is_unsupported)
{
    /* 16 new axes on a 2-D input: 18 dimensions. */
    static INT64 zero[17];
    static UINT ones[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
    static UINT out[16];
    unit_tensor in, o;
    const UINT s[] = {2, 2};
    for (int i = 0; i < 16; ++i)
        out[i] = 1;
    unit_tensor_set(&in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL);
    unit_tensor_set(&o, DML_TENSOR_DATA_TYPE_FLOAT32, 16, out, NULL);
    DMLCL_STRIDED_SLICE_OPERATOR_DESC d = {&in.desc, &o.desc, 17,   zero, zero, NULL,
                                           NULL,     NULL,    ones, NULL, NULL};
    DML_OPERATOR_DESC op = {DMLCL_OPERATOR_STRIDED_SLICE, &d};
    check(&op, DXGI_ERROR_UNSUPPORTED, "STRIDED_SLICE", "18", __LINE__);
}

/* ---- The resolution itself: hand-computed cases --------------------------------------- */

static const dmli_ss_names names = {"T", "b", "e", "s", {"bm", "em", "nm", "sm", "el"}};

typedef struct resolved {
    HRESULT hr;
    dmli_ss_result r;
} resolved;

static resolved resolve1(uint64_t dim, int64_t b, int64_t e, int64_t s, UINT bm, UINT em)
{
    const UINT bmv[] = {bm}, emv[] = {em};
    dmli_ss_lists l = {1, &b, &e, &s, {bmv, emv, NULL, NULL, NULL}};
    resolved x;
    x.hr = dmli_ss_resolve(&names, 1, &dim, &l, &x.r);
    return x;
}

static void expect1(uint64_t dim, int64_t b, int64_t e, int64_t s, UINT bm, UINT em, uint64_t count,
                    int64_t start, int line)
{
    resolved x = resolve1(dim, b, e, s, bm, em);
    cr_assert_eq(x.hr, S_OK, "line %d: %s", line, dmlcl_last_error());
    cr_expect_eq(x.r.out_sizes[0], count, "line %d: count %llu, want %llu", line,
                 (unsigned long long)x.r.out_sizes[0], (unsigned long long)count);
    if (count)
        cr_expect_eq(x.r.start[0], start, "line %d: start %lld, want %lld", line,
                     (long long)x.r.start[0], (long long)start);
}

#define EXPECT1(dim, b, e, s, bm, em, count, start) \
    expect1((dim), (b), (e), (s), (bm), (em), (count), (start), __LINE__)

Test(strided_slice_resolve, clamping_and_masks)
{
    EXPECT1(4, 3, 0, -1, 0, 0, 3, 3);      /* 3:0:-1 -> 3,2,1 (example 1) */
    EXPECT1(4, 3, 0, -1, 0, 1, 4, 3);      /* end_mask reversed runs through 0 (example 4) */
    EXPECT1(4, 0, 0, -1, 1, 1, 4, 3);      /* ::-1 */
    EXPECT1(2, 1234, 1234, 1, 0, 0, 0, 0); /* example 2, dim 0 */
    EXPECT1(2, 2, 4321, -1, 0, 0, 0, 0);   /* example 2, dim 1: 2 clamps to 1, end to 2 */
    EXPECT1(5, 2, 2, 1, 0, 0, 0, 0);       /* begin == end is empty */
    EXPECT1(5, -10, 0, -1, 0, 1, 1, 0);    /* below -dim reversed: element 0 (OpenVINO) */
    EXPECT1(5, -10, 3, 1, 0, 0, 3, 0);
    EXPECT1(4, 0, -1, 1, 0, 0, 3, 0); /* example 3: -1 -> 3 */
    EXPECT1(5, 4, 0, -2, 0, 1, 3, 4); /* 4,2,0 */
    EXPECT1(5, 1, 5, 3, 0, 0, 2, 1);  /* 1,4 */
    EXPECT1(0, 0, 5, 1, 0, 0, 0, 0);  /* an empty dimension stays empty */
    EXPECT1(0, 0, 0, -1, 1, 1, 0, 0);
}

Test(strided_slice_resolve, int64_extremes_never_overflow)
{
    EXPECT1(5, INT64_MAX, INT64_MIN, -1, 0, 0, 5, 4);
    EXPECT1(5, INT64_MIN, INT64_MAX, 1, 0, 0, 5, 0);
    EXPECT1(5, INT64_MIN, INT64_MAX, INT64_MAX, 0, 0, 1, 0);
    EXPECT1(5, INT64_MAX, INT64_MIN, INT64_MIN, 0, 0, 1, 4);
    EXPECT1(5, INT64_MAX, INT64_MIN, INT64_MIN + 1, 0, 0, 1, 4);
    EXPECT1(5, 1, INT64_MAX, 3, 0, 0, 2, 1);
    EXPECT1(UINT32_MAX, INT64_MIN, INT64_MAX, 1, 0, 0, UINT32_MAX, 0);
    EXPECT1(UINT32_MAX, -1, INT64_MIN, INT64_MIN, 0, 0, 1, UINT32_MAX - 1);
    resolved x = resolve1(5, 4, 0, -2, 0, 0);
    cr_expect_eq(x.r.step[0], -2);
    x = resolve1(5, 0, 5, INT64_MAX, 0, 0);
    cr_expect_eq(x.r.step[0], 1, "one element: the step is never used, kept small");
}

Test(strided_slice_resolve, ellipsis_and_new_axes)
{
    /* x[2:, ..., np.newaxis, :10] of a 10-D input of 10s (example 8): 8, 10 x8, 1, 5... */
    uint64_t dims[10];
    for (int i = 0; i < 10; ++i)
        dims[i] = 10;
    const int64_t b[] = {2, 1, 10, 10}, e[] = {123, 1, 10, 5}, s[] = {1, -1, 1, 1};
    const UINT bm[] = {0, 0, 1, 1}, em[] = {1, 1, 0, 0}, nm[] = {0, 0, 1, 0}, el[] = {0, 1, 0, 0};
    dmli_ss_lists l = {4, b, e, s, {bm, em, nm, NULL, el}};
    dmli_ss_result r;
    cr_assert_eq(dmli_ss_resolve(&names, 10, dims, &l, &r), S_OK, "%s", dmlcl_last_error());
    const uint64_t want[] = {8, 10, 10, 10, 10, 10, 10, 10, 10, 1, 5};
    cr_assert_eq(r.out_rank, 11);
    for (int i = 0; i < 11; ++i)
        cr_expect_eq(r.out_sizes[i], want[i], "dim %d: %llu", i,
                     (unsigned long long)r.out_sizes[i]);
    cr_expect_eq(r.out_dim[9], 10, "the last input dim comes after the new axis");
    cr_expect_eq(r.start[0], 2);
}

Test(strided_slice_resolve, mask_precedence)
{
    /* One entry with ellipsis + new axis: the ellipsis (OpenVINO's shape inference). */
    uint64_t dims[] = {3, 4};
    const int64_t z[] = {0, 0};
    const UINT both[] = {1, 0}, shrink[] = {0, 1};
    dmli_ss_lists l = {2, z, z, NULL, {NULL, NULL, both, shrink, both}};
    dmli_ss_result r;
    cr_assert_eq(dmli_ss_resolve(&names, 2, dims, &l, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.out_rank, 1);
    cr_expect_eq(r.out_sizes[0], 3);
    /* New axis + shrink on one entry: the new axis; the dimension is left to the implicit ellipsis.
     */
    const UINT na[] = {1, 0};
    dmli_ss_lists l2 = {1, z, z, NULL, {NULL, NULL, na, na, NULL}};
    cr_assert_eq(dmli_ss_resolve(&names, 2, dims, &l2, &r), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(r.out_rank, 3);
    cr_expect_eq(r.out_sizes[0], 1);
    cr_expect_eq(r.out_sizes[1], 3);
}
