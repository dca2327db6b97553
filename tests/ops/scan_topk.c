/* SPDX-License-Identifier: MIT */
/*
 * scan_topk.c: DirectML's CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT, TOP_K and TOP_K1 on the
 * device against the C reference (tests/ref/ref_scan.c), every type each operator takes. They
 * are the reduce family's (cl/reduce.cl): until its kernel lands, compiling one fails with
 * E_NOTIMPL and these tests skip.
 *
 * Random cases: ranks 1..8, any axis, both directions, exclusive or not, inputs packed,
 * padded, transposed, broadcast or aliasing, outputs packed, padded or transposed, scans in
 * place now and then. Scan data: sums in [-4, 4], products of magnitudes in [0.5, 2] (signs
 * random), integers over the whole type (results wrap); float results within the error a
 * float32 scan may carry in any order (ref_cumulative's bound) or 1 ULP. TOP_K data: raw bit
 * patterns (NaN, infinities, -0.0, subnormals) or few distinct values (ties), K from 1 to the
 * axis's size, UINT32 and UINT64 indices; values bit-exact (any NaN for a NaN), indices exact.
 * Fixed cases: DirectML's examples. Failures print the seed; DMLCL_TEST_SEED replays a run,
 * DMLCL_TEST_CASE=<n> one case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_broadcast.h"
#include "ref_scan.h"

#define SCAN_DEFAULT_SEED 0x646D6C636C53434Eull
#define SCAN_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I64 DML_TENSOR_DATA_TYPE_INT64
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

static const DML_TENSOR_DATA_TYPE scan_types[] = {F32, F16, I64, I32, U64, U32};
static const DML_TENSOR_DATA_TYPE topk_types[] = {F32, F16, I64, I32, I16, I8, U64, U32, U16, U8};

typedef enum kind { SUM, PROD, TOPK, TOPK1 } kind;
static const char *const kind_names[] = {"CUMULATIVE_SUMMATION", "CUMULATIVE_PRODUCT", "TOP_K",
                                         "TOP_K1"};

typedef struct sc_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    kind kind;
    DML_TENSOR_DATA_TYPE type, index_type;
    uint32_t rank, axis, k;
    bool reverse, exclusive, smallest, in_place, ties;
    ops_submit submit;
    ops_tensor in, out, idx;
    ops_layout layout[3];
    union {
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum;
        DML_CUMULATIVE_PRODUCT_OPERATOR_DESC prod;
        DML_TOP_K_OPERATOR_DESC topk;
        DML_TOP_K1_OPERATOR_DESC topk1;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    double *bound; /* the scans' error bounds, row-major over the output */
} sc_case;

static ops_seed run_seed = OPS_SEED(SCAN_DEFAULT_SEED);

static bool is_scan(const sc_case *c)
{
    return c->kind == SUM || c->kind == PROD;
}

static void sc_generate(sc_case *c, ref_rng *rng, kind k, DML_TENSOR_DATA_TYPE type)
{
    uint32_t sizes[REF_MAX_DIMS], osz[REF_MAX_DIMS];
    c->kind = k;
    c->type = type;
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, SCAN_MAX_ELEMENTS);
    c->axis = (uint32_t)ref_rng_below(rng, c->rank);
    c->reverse = ref_rng_chance(rng, 50);
    c->exclusive = ref_rng_chance(rng, 50);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    if (is_scan(c)) {
        c->in_place = ref_rng_chance(rng, 15);
        if (c->in_place) {
            uint32_t strides[REF_MAX_DIMS];
            c->layout[0] = c->layout[1] = OPS_LAYOUT_PADDED;
            ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
            ops_tensor_init(&c->in, "InputTensor", false, type, c->rank, sizes, strides, 0, 0);
            ops_tensor_init(&c->out, "OutputTensor", true, type, c->rank, sizes, strides, 0, 0);
        } else {
            ops_random_tensor(&c->in, rng, "InputTensor", false, type, c->rank, sizes,
                              &c->layout[0]);
            ops_random_tensor(&c->out, rng, "OutputTensor", true, type, c->rank, sizes,
                              &c->layout[1]);
        }
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d = {
            ops_tensor_desc(&c->in), ops_tensor_desc(&c->out), c->axis,
            c->reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
            c->exclusive};
        memcpy(&c->d, &d, sizeof d); /* CUMULATIVE_PRODUCT's layout too */
        c->desc = (DML_OPERATOR_DESC){
            k == SUM ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT, &c->d};
        return;
    }
    c->k = 1 + (uint32_t)ref_rng_below(rng, sizes[c->axis]);
    c->smallest = k == TOPK1 && ref_rng_chance(rng, 50);
    c->ties = ref_rng_chance(rng, 40);
    c->index_type = ref_rng_chance(rng, 50) ? U32 : U64;
    memcpy(osz, sizes, sizeof osz);
    osz[c->axis] = c->k;
    ops_random_tensor(&c->in, rng, "InputTensor", false, type, c->rank, sizes, &c->layout[0]);
    ops_random_tensor(&c->out, rng, "OutputValueTensor", true, type, c->rank, osz, &c->layout[1]);
    ops_random_tensor(&c->idx, rng, "OutputIndexTensor", true, c->index_type, c->rank, osz,
                      &c->layout[2]);
    if (k == TOPK1) {
        c->d.topk1 = (DML_TOP_K1_OPERATOR_DESC){ops_tensor_desc(&c->in),
                                                ops_tensor_desc(&c->out),
                                                ops_tensor_desc(&c->idx),
                                                c->axis,
                                                c->k,
                                                c->smallest ? DML_AXIS_DIRECTION_INCREASING
                                                            : DML_AXIS_DIRECTION_DECREASING};
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_TOP_K1, &c->d};
    } else {
        c->d.topk = (DML_TOP_K_OPERATOR_DESC){ops_tensor_desc(&c->in), ops_tensor_desc(&c->out),
                                              ops_tensor_desc(&c->idx), c->axis, c->k};
        c->desc = (DML_OPERATOR_DESC){DML_OPERATOR_TOP_K, &c->d};
    }
}

static void sc_place(sc_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->in, false);
    if (c->in_place) {
        c->out.slot = c->in.slot;
        c->out.offset = c->in.offset;
        c->out.bind_size = c->in.bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    if (!is_scan(c))
        ops_memory_place(&c->mem, rng, &c->idx, ref_rng_chance(rng, 25));
    ops_memory_alloc(&c->mem, rng);
}

static void put_real(DML_TENSOR_DATA_TYPE type, unsigned char *p, double v)
{
    if (type == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

static void sc_fill(sc_case *c, ref_rng *rng)
{
    size_t w = ref_type_size(c->type);
    uint64_t slots = c->in.buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, &c->in);
    ops_fill_distinct(rng, c->type, p, slots);
    bool is_float = ref_type_is_float(c->type);
    for (uint64_t s = 0; s < slots; ++s) {
        double u = (double)ref_rng_below(rng, 1000001) / 1000000.0;
        if (is_scan(c) && is_float) {
            double v =
                c->kind == SUM ? -4 + 8 * u : (0.5 + 1.5 * u) * (ref_rng_chance(rng, 50) ? -1 : 1);
            put_real(c->type, p + s * w, v);
        } else if (c->ties) { /* few distinct values: ties */
            unsigned char e[8] = {0};
            if (is_float)
                put_real(c->type, e, (double)ref_rng_range(rng, -2, 2));
            else
                e[0] = (unsigned char)ref_rng_below(rng, 3);
            memcpy(p + s * w, e, w);
        }
    }
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok;
    if (is_scan(c)) {
        c->bound = calloc(ref_element_count(out.rank, out.sizes), sizeof *c->bound);
        cr_assert(c->bound != NULL);
        ok =
            ref_cumulative(c->kind == PROD, &in, &out, c->axis, c->reverse, c->exclusive, c->bound);
    } else {
        ref_tensor idx = ops_view(&c->mem, OPS_EXPECT, &c->idx);
        ok = ref_top_k(&in, &out, &idx, c->axis, c->k, c->smallest);
    }
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
    if (!is_scan(c))
        ops_poison_output(&c->mem, &c->idx);
}

static const char *sc_describe(const sc_case *c, char *buf, size_t len)
{
    char head[512], a[512], b[512], i[512];
    snprintf(buf, len, "%s\n  %s; axis %u; %s%s; K %u%s; %s; submit %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, kind_names[c->kind], "scan_topk", c->test, c->number,
                        c->seed),
             ref_type_name(c->type), c->axis, c->reverse ? "reverse" : "forward",
             c->exclusive ? " exclusive" : "", c->k, c->smallest ? " smallest" : "",
             c->in_place ? "in place" : "apart", ops_submit_name(c->submit),
             ops_tensor_describe(&c->in, a, sizeof a), ops_tensor_describe(&c->out, b, sizeof b),
             is_scan(c) ? "" : ops_tensor_describe(&c->idx, i, sizeof i));
    return buf;
}

static double value_of(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* The output type's unit in the last place at v. */
static double ulp_at(DML_TENSOR_DATA_TYPE t, double v)
{
    int e;
    frexp(v, &e);
    int bits = t == F16 ? 11 : 24, min_exp = t == F16 ? -13 : -125;
    return ldexp(1.0, (e < min_exp ? min_exp : e) - bits);
}

/* Float values that agree (scans: within the bound or 1 ULP; TOP_K: two NaNs) take the
 * reference's bytes, so that the byte comparison sees only real differences. */
static void accept_tolerance(sc_case *c)
{
    if (!ref_type_is_float(c->type))
        return;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[16], y[16];
    uint64_t n = 0;
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        double dx = value_of(c->type, x), dy = value_of(c->type, y);
        bool accept = isnan(dx) && isnan(dy);
        if (is_scan(c) && !accept)
            accept = ref_float_close(c->type, x, y, 1) ||
                     (isfinite(dx) && isfinite(dy) &&
                      fabs(dx - dy) <= c->bound[n] + ulp_at(c->type, dx));
        if (accept)
            ref_put(&g, coord, x);
        ++n;
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

/* The reduce family has no kernel yet: the test skips (see the file's comment). */
static bool no_kernel_yet(HRESULT hr)
{
    return hr == E_NOTIMPL && strstr(dmlcl_last_error(), "has no kernel yet") != NULL;
}

static void sc_run(sc_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[1] = {&c->in}, *outputs[2] = {&c->out, &c->idx};
    ops_tensor *all[3] = {&c->out};
    int n_all = 1;
    if (!c->in_place)
        all[n_all++] = &c->in;
    if (!is_scan(c))
        all[n_all++] = &c->idx;
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 1, outputs, is_scan(c) ? 1 : 2,
                                c->submit, &stage);
    if (no_kernel_yet(hr)) {
        free(c->bound);
        ops_memory_release(&c->mem);
        cr_skip_test("%s", dmlcl_last_error());
    }
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", sc_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_tolerance(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", sc_describe(c, what, sizeof what), bad,
              diff);
}

static void sc_cases(const char *test, unsigned count, kind k)
{
    static sc_case c;
    long only = ops_only_case();
    const DML_TENSOR_DATA_TYPE *types = is_scan(&(sc_case){.kind = k}) ? scan_types : topk_types;
    unsigned n_types = is_scan(&(sc_case){.kind = k}) ? COUNT_OF(scan_types) : COUNT_OF(topk_types);
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        sc_generate(&c, &rng, k, types[n % n_types]);
        sc_place(&c, &rng);
        sc_fill(&c, &rng);
        sc_run(&c);
        free(c.bound);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(scan_topk);

Test(scan_topk, random_cumulative_summation)
{
    sc_cases("random_cumulative_summation", 4 * COUNT_OF(scan_types), SUM);
}

Test(scan_topk, random_cumulative_product)
{
    sc_cases("random_cumulative_product", 4 * COUNT_OF(scan_types), PROD);
}

Test(scan_topk, random_top_k)
{
    sc_cases("random_top_k", 3 * COUNT_OF(topk_types), TOPK);
}

Test(scan_topk, random_top_k1)
{
    sc_cases("random_top_k1", 4 * COUNT_OF(topk_types), TOPK1);
}

/* FLOAT32 scans along rows of stride 1, the CPUs' vector path (cl/reduce.cl VSCAN: vectors of
 * 4, 8 or 16 scanned in registers, the elements before the output's first aligned vector and
 * the tail one by one): rows shorter than a vector, of one, around and far past it; rows
 * starting at every float alignment (row strides len + 0..3, placed anywhere in the buffer);
 * both functions, both directions, exclusive or not, in place or apart; vectors of the
 * device's width, 4, 8 and 16 (DMLCL_TUNING reduce_scan_vector), plain or non-temporal stores
 * (stream_cache_divisor); against the double
 * reference within a float scan's bound. Products only up to rows of 257: a longer row's
 * running product of factors in [0.5, 2] can pass FLT_MAX and come back, which the double
 * reference follows and no float scan, in order or not, can. */
Test(scan_topk, vector_scans)
{
    static const uint32_t lens[] = {33, 1031, 17, 100, 16, 257, 1, 63, 8, 31, 4, 32, 7, 15, 3};
    static sc_case c;
    long only = ops_only_case();
    /* Every length with every variant (v's bits), in an order whose first cases (the slow
     * drivers' DMLCL_TEST_CASES) take long rows and varied variants. */
    for (unsigned n = 0; n < ops_case_count(16 * COUNT_OF(lens)); ++n) {
        unsigned li = n % COUNT_OF(lens), v = (n / COUNT_OF(lens) + 3 * li) % 16;
        if ((only >= 0 && (unsigned long)only != n) || ((v & 1) && lens[li] > 257))
            continue;
        {
            ref_rng rng = ops_case_rng(&run_seed, "vector_scans", n);
            memset(&c, 0, sizeof c);
            c.test = "vector_scans";
            c.seed = ops_base_seed(&run_seed);
            c.number = n;
            c.kind = v & 1 ? PROD : SUM;
            c.type = F32;
            c.rank = 2;
            c.axis = 1;
            c.reverse = v & 2;
            c.exclusive = v & 4;
            c.in_place = v & 8;
            c.submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
            const uint32_t sizes[2] = {3, lens[li]};
            const uint32_t in_str[2] = {lens[li] + (uint32_t)ref_rng_below(&rng, 4), 1};
            const uint32_t out_str[2] = {
                c.in_place ? in_str[0] : lens[li] + (uint32_t)ref_rng_below(&rng, 4), 1};
            ops_tensor_init(&c.in, "InputTensor", false, F32, 2, sizes, in_str, 0, 0);
            ops_tensor_init(&c.out, "OutputTensor", true, F32, 2, sizes, out_str, 0, 0);
            DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d = {
                ops_tensor_desc(&c.in), ops_tensor_desc(&c.out), 1,
                c.reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
                c.exclusive};
            memcpy(&c.d, &d, sizeof d);
            c.desc = (DML_OPERATOR_DESC){c.kind == SUM ? DML_OPERATOR_CUMULATIVE_SUMMATION
                                                       : DML_OPERATOR_CUMULATIVE_PRODUCT,
                                         &c.d};
            sc_place(&c, &rng);
            sc_fill(&c, &rng);
            static const char *const widths[] = {"1", "4", "8", "16"};
            char spec[96];
            snprintf(spec, sizeof spec, "reduce_scan_vector=%s%s", widths[(n / 3) % 4],
                     ref_rng_chance(&rng, 50) ? ",stream_cache_divisor=1073741824" : "");
            char *saved = ops_tuning_set(spec);
            sc_run(&c);
            ops_tuning_restore(saved);
            free(c.bound);
            ops_memory_release(&c.mem);
        }
    }
}

/* ---- Fixed cases: DirectML's examples ---------------------------------------------------- */

/* One operator on packed FLOAT32 {1, 1, 3, 4} input; out2 NULL for the scans. */
static HRESULT run_doc(const DML_OPERATOR_DESC *desc, const float *in, void *out,
                       uint64_t out_bytes, void *out2, uint64_t out2_bytes)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_host_tensor i = {(void *)in, 48}, o[2] = {{out, out_bytes}, {out2, out2_bytes}};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, 1, &i, out2 ? 2 : 1, o);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

static const UINT doc_sizes[4] = {1, 1, 3, 4};

Test(scan_topk, directml_cumulative_examples)
{
    const float x[12] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    static const struct {
        bool product;
        UINT axis;
        DML_AXIS_DIRECTION dir;
        BOOL exclusive;
        float want[12];
    } ex[] = {
        {false, 3, DML_AXIS_DIRECTION_INCREASING, 0, {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21}},
        {false, 3, DML_AXIS_DIRECTION_INCREASING, 1, {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17}},
        {false, 3, DML_AXIS_DIRECTION_DECREASING, 0, {11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4}},
        {false, 2, DML_AXIS_DIRECTION_INCREASING, 0, {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12}},
        {true,
         3,
         DML_AXIS_DIRECTION_INCREASING,
         0,
         {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432}},
        {true, 3, DML_AXIS_DIRECTION_INCREASING, 1, {1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108}},
        {true,
         3,
         DML_AXIS_DIRECTION_DECREASING,
         0,
         {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4}},
        {true, 2, DML_AXIS_DIRECTION_INCREASING, 0, {2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60}},
    };
    DML_BUFFER_TENSOR_DESC b = {F32, 0, 4, doc_sizes, NULL, 48, 0};
    DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
    for (size_t e = 0; e < COUNT_OF(ex); ++e) {
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d = {&t, &t, ex[e].axis, ex[e].dir, ex[e].exclusive};
        DML_OPERATOR_DESC desc = {ex[e].product ? DML_OPERATOR_CUMULATIVE_PRODUCT
                                                : DML_OPERATOR_CUMULATIVE_SUMMATION,
                                  &d};
        float got[12];
        HRESULT hr = run_doc(&desc, x, got, 48, NULL, 0);
        if (no_kernel_yet(hr))
            cr_skip_test("%s", dmlcl_last_error());
        cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
        for (int i = 0; i < 12; ++i)
            cr_expect_eq(got[i], ex[e].want[i], "example %zu element %d: %g, expected %g", e, i,
                         got[i], ex[e].want[i]);
    }
}

/* Rows of 1000 (CPUs scan them in blocks of 16, two passes of 32 blocks: cl/reduce.cl SEGS):
 * INT32 sums that wrap past 2^31 and FLOAT32 sums of small integers (exact in any order),
 * inclusive and exclusive, forward and reversed, against the running sums in int64 and double
 * taken here element by element. */
Test(scan_topk, long_rows_exact)
{
    enum { R = 3, L = 1000 };
    static const UINT sizes[4] = {1, 1, R, L};
    static int32_t xi[R * L], gi[R * L];
    static float xf[R * L], gf[R * L];
    for (int k = 0; k < R * L; ++k) {
        /* Wrapping (unsigned) arithmetic: values over all of INT32's range. */
        xi[k] = (int32_t)((uint32_t)k * 7919u % 4000001u * 997u - 1994000u * (uint32_t)(k % 3));
        xf[k] = (float)((k * 31) % 17) - 8.0f;
    }
    for (int type = 0; type < 2; ++type)
        for (int dir = 0; dir < 2; ++dir)
            for (BOOL excl = 0; excl <= 1; ++excl) {
                DML_TENSOR_DATA_TYPE dt = type ? DML_TENSOR_DATA_TYPE_INT32 : F32;
                DML_BUFFER_TENSOR_DESC b = {dt, 0, 4, sizes, NULL, 4 * R * L, 0};
                DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
                DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d = {
                    &t, &t, 3, dir ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
                    excl};
                DML_OPERATOR_DESC desc = {DML_OPERATOR_CUMULATIVE_SUMMATION, &d};
                dmlcl_operator *op = NULL;
                dmlcl_compiled_operator *c = NULL;
                HRESULT hr = dmlcl_operator_create(ops_device(), &desc, &op);
                if (SUCCEEDED(hr))
                    hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
                dmlcl_host_tensor i = {type ? (void *)xi : (void *)xf, 4 * R * L};
                dmlcl_host_tensor o = {type ? (void *)gi : (void *)gf, 4 * R * L};
                if (SUCCEEDED(hr))
                    hr = dmlcl_compiled_operator_execute(c, 1, &i, 1, &o);
                dmlcl_compiled_operator_release(c);
                dmlcl_operator_release(op);
                cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
                for (int r = 0; r < R; ++r) {
                    int64_t si = 0;
                    double sf = 0;
                    for (int j = 0; j < L; ++j) {
                        int at = r * L + (dir ? L - 1 - j : j);
                        int64_t before_i = si;
                        double before_f = sf;
                        si += xi[at];
                        sf += xf[at];
                        if (type)
                            cr_expect_eq(gi[at], (int32_t)(uint32_t)(excl ? before_i : si),
                                         "INT32 dir %d exclusive %d row %d element %d", dir, excl,
                                         r, at - r * L);
                        else
                            cr_expect_eq(gf[at], (float)(excl ? before_f : sf),
                                         "FLOAT32 dir %d exclusive %d row %d element %d", dir, excl,
                                         r, at - r * L);
                    }
                }
            }
}

Test(scan_topk, directml_top_k_examples)
{
    const float a[12] = {0, 1, 10, 11, 3, 2, 9, 8, 4, 5, 6, 7};
    const float t[12] = {1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 6, 6};
    static const struct {
        bool tied;
        UINT axis, k;
        DML_AXIS_DIRECTION dir;
        UINT out_sizes[4];
        float want[9];
        uint32_t idx[9];
    } ex[] = {
        {false,
         3,
         2,
         DML_AXIS_DIRECTION_DECREASING,
         {1, 1, 3, 2},
         {11, 10, 9, 8, 7, 6},
         {3, 2, 2, 3, 3, 2}},
        {false,
         2,
         2,
         DML_AXIS_DIRECTION_DECREASING,
         {1, 1, 2, 4},
         {4, 5, 10, 11, 3, 2, 9, 8},
         {2, 2, 0, 0, 1, 1, 1, 1}},
        {true,
         3,
         3,
         DML_AXIS_DIRECTION_DECREASING,
         {1, 1, 3, 3},
         {3, 2, 2, 5, 5, 4, 6, 6, 6},
         {3, 1, 2, 2, 3, 1, 0, 1, 2}},
        {true,
         3,
         3,
         DML_AXIS_DIRECTION_INCREASING,
         {1, 1, 3, 3},
         {1, 2, 2, 3, 4, 5, 6, 6, 6},
         {0, 1, 2, 0, 1, 2, 0, 1, 2}},
    };
    DML_BUFFER_TENSOR_DESC b = {F32, 0, 4, doc_sizes, NULL, 48, 0};
    DML_TENSOR_DESC ti = {DML_TENSOR_TYPE_BUFFER, &b};
    for (size_t e = 0; e < COUNT_OF(ex); ++e) {
        uint32_t n = ex[e].out_sizes[2] * ex[e].out_sizes[3];
        DML_BUFFER_TENSOR_DESC bv = {F32, 0, 4, ex[e].out_sizes, NULL, 4 * n, 0};
        DML_BUFFER_TENSOR_DESC bx = {U32, 0, 4, ex[e].out_sizes, NULL, 4 * n, 0};
        DML_TENSOR_DESC tv = {DML_TENSOR_TYPE_BUFFER, &bv}, tx = {DML_TENSOR_TYPE_BUFFER, &bx};
        DML_TOP_K1_OPERATOR_DESC d = {&ti, &tv, &tx, ex[e].axis, ex[e].k, ex[e].dir};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_TOP_K1, &d};
        float got[9];
        uint32_t gi[9];
        HRESULT hr = run_doc(&desc, ex[e].tied ? t : a, got, 4 * n, gi, 4 * n);
        if (no_kernel_yet(hr))
            cr_skip_test("%s", dmlcl_last_error());
        cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
        for (uint32_t i = 0; i < n; ++i) {
            cr_expect_eq(got[i], ex[e].want[i], "example %zu value %u: %g", e, i, got[i]);
            cr_expect_eq(gi[i], ex[e].idx[i], "example %zu index %u: %u", e, i, gi[i]);
        }
    }
}
