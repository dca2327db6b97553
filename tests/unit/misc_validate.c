/* SPDX-License-Identifier: MIT */
/*
 * NONZERO_COORDINATES, REVERSE_SUBSEQUENCES, MAX_UNPOOLING and RANDOM_GENERATOR on the host (no
 * OpenCL device): the forms DirectML's pages and ONNX Runtime's DirectML provider use accepted,
 * every rule broken once (the HRESULT, and a message naming the operator, the field and the
 * value), the lowering to the selection family, and its launch per device class.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "drivers.h"
#include "internal.h"
#include "launch.h"
#include "misc.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define F64 DML_TENSOR_DATA_TYPE_FLOAT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define U8 DML_TENSOR_DATA_TYPE_UINT8

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC op = {type, desc};
    dmlcl_operator *o = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &op, &o);
    dmlcl_operator_release(o);
    if (SUCCEEDED(hr)) {
        char why[FUZZ_WHY];
        cr_expect_eq(fuzz_check_plan(&op, why), 0, "plan check: %s", why);
    }
    return hr;
}

/* ---- NONZERO_COORDINATES ------------------------------------------------------------------ */

#define NZ DML_OPERATOR_NONZERO_COORDINATES

typedef struct nonzero {
    unit_tensor in, count, coords;
    DML_NONZERO_COORDINATES_OPERATOR_DESC d;
} nonzero;

/* The page's example: {1,1,2,4} FLOAT32, coordinates {1,1,8,3}. */
static void nonzero_init(nonzero *z)
{
    static const UINT in[] = {1, 1, 2, 4}, one[] = {1, 1, 1, 1}, co[] = {1, 1, 8, 3};
    z->d.InputTensor = unit_tensor_set(&z->in, F32, 4, in, NULL);
    z->d.OutputCountTensor = unit_tensor_set(&z->count, U32, 4, one, NULL);
    z->d.OutputCoordinatesTensor = unit_tensor_set(&z->coords, U32, 4, co, NULL);
}

Test(misc_validate, nonzero_forms)
{
    nonzero z;
    nonzero_init(&z);
    cr_expect_eq(create(NZ, &z.d), S_OK, "the page's example: %s", dmlcl_last_error());
    static const UINT co2[] = {1, 1, 8, 2}, co4[] = {1, 1, 8, 4};
    unit_tensor_set(&z.coords, U32, 4, co2, NULL);
    cr_expect_eq(create(NZ, &z.d), S_OK, "N the effective rank: %s", dmlcl_last_error());
    unit_tensor_set(&z.coords, U32, 4, co4, NULL);
    cr_expect_eq(create(NZ, &z.d), S_OK, "N the DimensionCount: %s", dmlcl_last_error());
    /* ONNX Runtime's: the input at its rank, count {1}, coordinates {M, N} strided {2, 2M}. */
    static const UINT in3[] = {2, 3, 4}, one[] = {1}, mn[] = {24, 3}, st[] = {2, 48};
    unit_tensor_set(&z.in, I64, 3, in3, NULL);
    unit_tensor_set(&z.count, U32, 1, one, NULL);
    unit_tensor_set(&z.coords, U32, 2, mn, st);
    cr_expect_eq(create(NZ, &z.d), S_OK, "ONNX Runtime's form: %s", dmlcl_last_error());
    static const DML_TENSOR_DATA_TYPE types[] = {F32,
                                                 F16,
                                                 I64,
                                                 I32,
                                                 DML_TENSOR_DATA_TYPE_INT16,
                                                 DML_TENSOR_DATA_TYPE_INT8,
                                                 U64,
                                                 U32,
                                                 DML_TENSOR_DATA_TYPE_UINT16,
                                                 U8};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        unit_tensor_set_type(&z.in, types[i]);
        cr_expect_eq(create(NZ, &z.d), S_OK, "type %zu: %s", i, dmlcl_last_error());
    }
}

Test(misc_validate, nonzero_rules)
{
    nonzero z;
    nonzero_init(&z);
    unit_tensor_set_type(&z.in, F64);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "NONZERO_COORDINATES", "InputTensor.DataType (FLOAT64)");
    nonzero_init(&z);
    unit_tensor_set_type(&z.count, I32);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCountTensor.DataType (INT32)", "UINT32");
    nonzero_init(&z);
    unit_tensor_set_type(&z.coords, U64);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.DataType (UINT64)", "UINT32");
    nonzero_init(&z);
    static const UINT eight[] = {8};
    unit_tensor_set(&z.coords, U32, 1, eight, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.DimensionCount (1)",
           "at least 2");
    nonzero_init(&z);
    static const UINT two[] = {1, 1, 1, 2};
    unit_tensor_set(&z.count, U32, 4, two, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCountTensor.Sizes[3] (2)", "must be 1");
    nonzero_init(&z);
    static const UINT lead[] = {1, 2, 8, 3};
    unit_tensor_set(&z.coords, U32, 4, lead, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.Sizes[1] (2)", "must be 1");
    nonzero_init(&z);
    static const UINT m7[] = {1, 1, 7, 3};
    unit_tensor_set(&z.coords, U32, 4, m7, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.Sizes[2] (7)", "M",
           "element count (8)");
    nonzero_init(&z);
    static const UINT n1[] = {1, 1, 8, 1};
    unit_tensor_set(&z.coords, U32, 4, n1, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.Sizes[3] (1)",
           "effective rank (2", "DimensionCount (4)");
    nonzero_init(&z);
    static const UINT n5[] = {1, 1, 8, 5};
    unit_tensor_set(&z.coords, U32, 4, n5, NULL);
    EXPECT(create(NZ, &z.d), E_INVALIDARG, "OutputCoordinatesTensor.Sizes[3] (5)",
           "at most InputTensor.DimensionCount (4)");
}

/* ---- REVERSE_SUBSEQUENCES ---------------------------------------------------------------- */

#define RS DML_OPERATOR_REVERSE_SUBSEQUENCES

typedef struct reverse {
    unit_tensor in, len, out;
    DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC d;
} reverse;

/* The page's example 1: {1,1,3,4}, lengths {1,1,3,1}, Axis 3. */
static void reverse_init(reverse *r)
{
    static const UINT in[] = {1, 1, 3, 4}, len[] = {1, 1, 3, 1};
    r->d.InputTensor = unit_tensor_set(&r->in, F32, 4, in, NULL);
    r->d.SequenceLengthsTensor = unit_tensor_set(&r->len, U32, 4, len, NULL);
    r->d.OutputTensor = unit_tensor_set(&r->out, F32, 4, in, NULL);
    r->d.Axis = 3;
}

Test(misc_validate, reverse_forms)
{
    reverse r;
    reverse_init(&r);
    cr_expect_eq(create(RS, &r.d), S_OK, "example 1: %s", dmlcl_last_error());
    static const DML_TENSOR_DATA_TYPE lens[] = {U32, U64, I32, I64};
    for (size_t i = 0; i < 4; ++i) {
        unit_tensor_set_type(&r.len, lens[i]);
        cr_expect_eq(create(RS, &r.d), S_OK, "length type %zu: %s", i, dmlcl_last_error());
    }
    /* ONNX Runtime's: ONNX's INT64 lengths of a {time, batch, 1, 5} input, time axis 0. */
    static const UINT in[] = {4, 2, 1, 5}, len[] = {1, 2, 1, 5};
    unit_tensor_set(&r.in, I64, 4, in, NULL);
    unit_tensor_set(&r.out, I64, 4, in, NULL);
    unit_tensor_set(&r.len, I64, 4, len, NULL);
    r.d.Axis = 0;
    cr_expect_eq(create(RS, &r.d), S_OK, "ONNX Runtime's form: %s", dmlcl_last_error());
    static const UINT s1[] = {6}, l1[] = {1};
    unit_tensor_set(&r.in, U8, 1, s1, NULL);
    unit_tensor_set(&r.out, U8, 1, s1, NULL);
    unit_tensor_set(&r.len, U32, 1, l1, NULL);
    cr_expect_eq(create(RS, &r.d), S_OK, "one dimension: %s", dmlcl_last_error());
}

Test(misc_validate, reverse_rules)
{
    reverse r;
    reverse_init(&r);
    unit_tensor_set_type(&r.in, F64);
    unit_tensor_set_type(&r.out, F64);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "REVERSE_SUBSEQUENCES",
           "InputTensor.DataType (FLOAT64)");
    reverse_init(&r);
    unit_tensor_set_type(&r.len, F32);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "SequenceLengthsTensor.DataType (FLOAT32)");
    reverse_init(&r);
    unit_tensor_set_type(&r.out, F16);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "OutputTensor", "FLOAT16");
    reverse_init(&r);
    static const UINT l3[] = {1, 3, 1};
    unit_tensor_set(&r.len, U32, 3, l3, NULL);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "SequenceLengthsTensor.DimensionCount (3)");
    reverse_init(&r);
    r.d.Axis = 4;
    EXPECT(create(RS, &r.d), E_INVALIDARG, "Axis (4)", "InputTensor.DimensionCount (4)");
    reverse_init(&r);
    static const UINT bad[] = {1, 1, 3, 4};
    unit_tensor_set(&r.len, U32, 4, bad, NULL);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "SequenceLengthsTensor", "1 along Axis");
    reverse_init(&r);
    static const UINT other[] = {1, 1, 4, 3};
    unit_tensor_set(&r.out, F32, 4, other, NULL);
    EXPECT(create(RS, &r.d), E_INVALIDARG, "OutputTensor", "InputTensor.Sizes");
}

/* ---- MAX_UNPOOLING ------------------------------------------------------------------------ */

#define MU DML_OPERATOR_MAX_UNPOOLING

typedef struct unpool {
    unit_tensor in, idx, out;
    DML_MAX_UNPOOLING_OPERATOR_DESC d;
} unpool;

/* ONNX's MaxUnpool example: {1,1,2,2} into {1,1,4,4}. */
static void unpool_init(unpool *u)
{
    static const UINT in[] = {1, 1, 2, 2}, out[] = {1, 1, 4, 4};
    u->d.InputTensor = unit_tensor_set(&u->in, F32, 4, in, NULL);
    u->d.IndicesTensor = unit_tensor_set(&u->idx, U64, 4, in, NULL);
    u->d.OutputTensor = unit_tensor_set(&u->out, F32, 4, out, NULL);
}

Test(misc_validate, unpool_forms)
{
    unpool u;
    unpool_init(&u);
    cr_expect_eq(create(MU, &u.d), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set_type(&u.idx, U32);
    unit_tensor_set_type(&u.in, U8);
    unit_tensor_set_type(&u.out, U8);
    cr_expect_eq(create(MU, &u.d), S_OK, "UINT32 indices, UINT8 data: %s", dmlcl_last_error());
}

Test(misc_validate, unpool_rules)
{
    unpool u;
    unpool_init(&u);
    unit_tensor_set_type(&u.in, F64);
    unit_tensor_set_type(&u.out, F64);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "MAX_UNPOOLING", "InputTensor.DataType (FLOAT64)");
    unpool_init(&u);
    unit_tensor_set_type(&u.idx, I64);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "IndicesTensor.DataType (INT64)", "UINT32 or UINT64");
    unpool_init(&u);
    unit_tensor_set_type(&u.out, F16);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "OutputTensor", "FLOAT16");
    unpool_init(&u);
    static const UINT in3[] = {1, 2, 2}, out3[] = {1, 4, 4};
    unit_tensor_set(&u.in, F32, 3, in3, NULL);
    unit_tensor_set(&u.idx, U64, 3, in3, NULL);
    unit_tensor_set(&u.out, F32, 3, out3, NULL);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "InputTensor.DimensionCount (3)", "must be 4");
    unpool_init(&u);
    unit_tensor_set(&u.idx, U64, 3, in3, NULL);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "IndicesTensor.DimensionCount (3)");
    unpool_init(&u);
    unit_tensor_set(&u.out, F32, 3, out3, NULL);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "OutputTensor.DimensionCount (3)");
    unpool_init(&u);
    static const UINT wide[] = {1, 1, 2, 3};
    unit_tensor_set(&u.idx, U64, 4, wide, NULL);
    EXPECT(create(MU, &u.d), E_INVALIDARG, "IndicesTensor", "InputTensor.Sizes");
}

/* ---- RANDOM_GENERATOR --------------------------------------------------------------------- */

#define RG DML_OPERATOR_RANDOM_GENERATOR

typedef struct random {
    unit_tensor state, out, next;
    DML_RANDOM_GENERATOR_OPERATOR_DESC d;
} random_gen;

static void random_init(random_gen *g)
{
    static const UINT st[] = {1, 1, 1, 6}, out[] = {3, 3, 20, 7};
    g->d.InputStateTensor = unit_tensor_set(&g->state, U32, 4, st, NULL);
    g->d.OutputTensor = unit_tensor_set(&g->out, U32, 4, out, NULL);
    g->d.OutputStateTensor = unit_tensor_set(&g->next, U32, 4, st, NULL);
    g->d.Type = DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10;
}

Test(misc_validate, random_forms)
{
    random_gen g;
    random_init(&g);
    cr_expect_eq(create(RG, &g.d), S_OK, "%s", dmlcl_last_error());
    g.d.OutputStateTensor = NULL;
    cr_expect_eq(create(RG, &g.d), S_OK, "no output state: %s", dmlcl_last_error());
}

Test(misc_validate, random_rules)
{
    random_gen g;
    random_init(&g);
    g.d.Type = (DML_RANDOM_GENERATOR_TYPE)1;
    EXPECT(create(RG, &g.d), E_INVALIDARG, "RANDOM_GENERATOR", "Type (1)", "PHILOX_4X32_10");
    random_init(&g);
    unit_tensor_set_type(&g.state, I32);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "InputStateTensor.DataType (INT32)", "UINT32");
    random_init(&g);
    static const UINT s5[] = {1, 1, 1, 1, 6}, s7[] = {1, 1, 1, 7}, o3[] = {2, 3, 4};
    unit_tensor_set(&g.state, U32, 5, s5, NULL);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "InputStateTensor.DimensionCount (5)", "must be 4");
    random_init(&g);
    unit_tensor_set(&g.state, U32, 4, s7, NULL);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "InputStateTensor", "{1, 1, 1, 6}");
    random_init(&g);
    unit_tensor_set_type(&g.out, F32);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "OutputTensor.DataType (FLOAT32)", "UINT32");
    random_init(&g);
    unit_tensor_set(&g.out, U32, 3, o3, NULL);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "OutputTensor.DimensionCount (3)", "must be 4");
    random_init(&g);
    unit_tensor_set(&g.next, U32, 4, s7, NULL);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "OutputStateTensor", "{1, 1, 1, 6}");
    random_init(&g);
    unit_tensor_set_type(&g.next, U64);
    EXPECT(create(RG, &g.d), E_INVALIDARG, "OutputStateTensor.DataType (UINT64)");
}

/* ---- Lowering and launch ------------------------------------------------------------------ */

static const dmli_device_desc unit_cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
static const dmli_device_desc unit_gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};

static const dmli_misc *lowered(dmlcl_operator **op, DML_OPERATOR_TYPE type, const void *d,
                                uint32_t tensors)
{
    DML_OPERATOR_DESC desc = {type, d};
    cr_assert_eq(dmlcl_operator_create(NULL, &desc, op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(*op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_MISC);
    cr_assert_eq(st->compute.n_tensors, tensors);
    return DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_misc);
}

/* ONNX Runtime's NonZero: its transposed coordinates' strides reach the kernel; one work-group
 * on either class, at most 256 items, fewer for a small input. */
Test(misc_validate, nonzero_lowering)
{
    nonzero z;
    nonzero_init(&z);
    static const UINT in3[] = {2, 3, 4}, one[] = {1}, mn[] = {24, 3}, st[] = {2, 48};
    unit_tensor_set(&z.in, I64, 3, in3, NULL);
    unit_tensor_set(&z.count, U32, 1, one, NULL);
    unit_tensor_set(&z.coords, U32, 2, mn, st);
    dmlcl_operator *op = NULL;
    const dmli_misc *m = lowered(&op, NZ, &z.d, 3);
    cr_expect_eq(m->kind, DMLI_MISC_NONZERO);
    cr_expect(m->rank == 3 && m->size[2] == 4 && m->stride[0][0] == 12);
    cr_expect(m->param[0] == 3 && m->param[1] == 0 && m->param[2] == 2 && m->param[3] == 48);
    const dmli_op_state *s = dmli_operator_state(op);
    static dmli_compute_launch l;
    dmli_launch_compute(&s->compute, &unit_cpu, &l);
    cr_expect_str_eq(l.kernel, "nonzero");
    cr_expect(l.global[0] == 1 && l.local[0] == 1, "24 elements: one item");
    cr_expect(strstr(l.options, "-DUNIT_T=ulong") != NULL, "%s", l.options);
    dmlcl_operator_release(op);
    static const UINT big[] = {100, 100, 10}, mbig[] = {100000, 3};
    unit_tensor_set(&z.in, F32, 3, big, NULL);
    unit_tensor_set(&z.coords, U32, 2, mbig, NULL);
    lowered(&op, NZ, &z.d, 3);
    s = dmli_operator_state(op);
    dmli_launch_compute(&s->compute, &unit_gpu, &l);
    cr_expect(l.global[0] == 256 && l.local[0] == 256, "one group of 256: %zu", l.global[0]);
    cr_expect(strstr(l.options, "-DMASK=0x7fffffffu") != NULL, "floats: sign left out: %s",
              l.options);
    dmlcl_operator_release(op);
}

/* The lengths' axis stride 0; GPUs an element an item, CPUs 64. */
Test(misc_validate, reverse_lowering)
{
    reverse r;
    reverse_init(&r);
    dmlcl_operator *op = NULL;
    const dmli_misc *m = lowered(&op, RS, &r.d, 3);
    cr_expect(m->kind == DMLI_MISC_REVERSE && m->param[0] == 3 && m->stride[1][3] == 0);
    const dmli_op_state *s = dmli_operator_state(op);
    static dmli_compute_launch l;
    dmli_launch_compute(&s->compute, &unit_gpu, &l);
    cr_expect(l.table[DMLI_MI_ITEMS] == 12 && l.table[DMLI_MI_CHUNK] == 1);
    dmli_launch_compute(&s->compute, &unit_cpu, &l);
    cr_expect(l.table[DMLI_MI_ITEMS] == 1 && l.table[DMLI_MI_CHUNK] == 64);
    cr_expect(strstr(l.options, "-DLEN_T=uint") != NULL, "%s", l.options);
    dmlcl_operator_release(op);
}

/* Each item owns a chunk of the output: every output element in exactly one. */
Test(misc_validate, unpool_lowering)
{
    unpool u;
    unpool_init(&u);
    dmlcl_operator *op = NULL;
    const dmli_misc *m = lowered(&op, MU, &u.d, 3);
    cr_expect(m->kind == DMLI_MISC_UNPOOL && m->param[0] == 16 && m->rank_b == 4);
    const dmli_op_state *s = dmli_operator_state(op);
    static dmli_compute_launch l;
    dmli_launch_compute(&s->compute, &unit_cpu, &l);
    cr_expect(l.table[DMLI_MI_ITEMS] * l.table[DMLI_MI_CHUNK] >= 16 &&
              (l.table[DMLI_MI_ITEMS] - 1) * l.table[DMLI_MI_CHUNK] < 16);
    cr_expect(strstr(l.options, "-DIDX_T=ulong") != NULL, "%s", l.options);
    dmlcl_operator_release(op);
}

/* The output state bound or not: the variant, and one item at least (it writes the state). */
Test(misc_validate, random_lowering)
{
    random_gen g;
    random_init(&g);
    dmlcl_operator *op = NULL;
    const dmli_misc *m = lowered(&op, RG, &g.d, 3);
    cr_expect(m->kind == DMLI_MISC_PHILOX && m->has_state && m->param[0] == 1);
    const dmli_op_state *s = dmli_operator_state(op);
    static dmli_compute_launch l;
    dmli_launch_compute(&s->compute, &unit_gpu, &l);
    cr_expect(strstr(l.options, "-DHAS_STATE=1") != NULL, "%s", l.options);
    cr_expect_eq(l.table[DMLI_MI_ITEMS], (3 * 3 * 20 * 7 + 3) / 4);
    dmlcl_operator_release(op);
    g.d.OutputStateTensor = NULL;
    lowered(&op, RG, &g.d, 2);
    s = dmli_operator_state(op);
    dmli_launch_compute(&s->compute, &unit_cpu, &l);
    cr_expect(strstr(l.options, "-DHAS_STATE=0") != NULL, "%s", l.options);
    dmlcl_operator_release(op);
}
