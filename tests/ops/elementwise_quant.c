/* SPDX-License-Identifier: MIT */
/*
 * elementwise_quant.c: ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR (the
 * map's OPs 39-42) on the device against the C oracle (tests/ref/ref_quant.c), every type
 * combination of their tables, bit-exact (a NaN matches any NaN: payloads survive only raw
 * moves, reference/precision.md).
 *
 * Random cases: ranks 1..8, the input and the output in any layout (packed, padded,
 * transposed; the input also broadcast or aliasing), the scale and the zero point per tensor
 * (every stride 0), per axis (ONNX Runtime's {1, C, 1, 1} with strides {0, 1, 0, 0}: one
 * stride 1) or in any input layout, the zero point absent a quarter of the time, the output
 * now and then in place over the zero point (QUANTIZE) or the scale (DEQUANTIZE). Data: values
 * on and near the quantization grid (halves included: powers of two as scales make exact
 * ties), past the output's range, NaN, infinities, -0; scales of every sign and size, 0,
 * infinite and NaN; INT32 inputs past 2^24; integers over their whole range. Fixed cases:
 * the rules where the pages are silent, with expected values written by hand from the rules
 * in docs/operators.md. DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> one case.
 *
 * QUANTIZE and DEQUANTIZE (feature level 6.3, src/ops/quantize.c) are the same maps with the
 * scale and zero point listed: the random cases again, through their descriptors, with a
 * blockwise spread too; ELEMENT_WISE_QUANTIZED_LINEAR_ADD (src/ops/quantized_add.c) against
 * its own oracle (ref_quantized_linear_add).
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
#include "ref_quant.h"

#define QT_DEFAULT_SEED 0x646D6C636C515541ull
#define QT_MAX_ELEMENTS 2000
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define I16 DML_TENSOR_DATA_TYPE_INT16
#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U16 DML_TENSOR_DATA_TYPE_UINT16
#define U8 DML_TENSOR_DATA_TYPE_UINT8

#define QUANTIZE DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR
#define DEQUANTIZE DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR

/* How the scale and the zero point are laid out over the input's shape. */
typedef enum qt_spread {
    SPREAD_TENSOR,
    SPREAD_AXIS,
    SPREAD_ANY,
    SPREAD_BLOCK, /* packed over the input's sizes but for one dimension, the block's
                   * elements, read with stride 0 (QUANTIZE and DEQUANTIZE's blockwise form) */
    SPREAD_COUNT
} qt_spread;

static const char *spread_name(qt_spread s)
{
    return s == SPREAD_TENSOR ? "per tensor"
           : s == SPREAD_AXIS ? "per axis"
           : s == SPREAD_ANY  ? "any layout"
                              : "per block";
}

typedef struct qt_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    bool quantize;
    DML_TENSOR_DATA_TYPE in_type, scale_type, out_type;
    bool has_zp;
    uint32_t rank;
    qt_spread spread;
    ops_layout layout[2]; /* the input's and the output's */
    bool in_place;        /* the output over the zero point (QUANTIZE) or the scale */
    ops_submit submit;
    ops_tensor in, scale, zp, out;
    DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC d; /* DEQUANTIZE's has the same members */
    bool list; /* QUANTIZE or DEQUANTIZE (feature level 6.3): the scale and zero point listed */
    DML_QUANTIZE_OPERATOR_DESC ld; /* DEQUANTIZE's has the same members */
    DML_TENSOR_DESC qtensors[2];
    DML_OPERATOR_DESC desc;
    ops_memory mem;
} qt_case;

static ops_seed run_seed = OPS_SEED(QT_DEFAULT_SEED);

/* The tensor the output may share its range with: the one of its type. */
static ops_tensor *partner(qt_case *c)
{
    return c->quantize ? &c->zp : &c->scale;
}

/* Scale and zero point strides over sizes, by spread (SPREAD_ANY: a random input layout). */
static void spread_tensor(qt_case *c, ref_rng *rng, ops_tensor *t, const char *name,
                          DML_TENSOR_DATA_TYPE type, const uint32_t *sizes, uint32_t axis)
{
    uint32_t strides[REF_MAX_DIMS];
    ops_layout layout;
    switch (c->spread) {
    case SPREAD_TENSOR:
    case SPREAD_AXIS:
        for (uint32_t i = 0; i < c->rank; ++i)
            strides[i] = c->spread == SPREAD_AXIS && i == axis ? 1 : 0;
        ops_tensor_init(t, name, false, type, c->rank, sizes, strides, 0, 0);
        return;
    case SPREAD_BLOCK: {
        uint64_t packed = 1;
        for (uint32_t i = c->rank; i-- > 0;) {
            strides[i] = i == axis ? 0 : (uint32_t)packed;
            packed *= i == axis ? 1 : sizes[i];
        }
        ops_tensor_init(t, name, false, type, c->rank, sizes, strides, 0, 0);
        return;
    }
    default: ops_random_tensor(t, rng, name, false, type, c->rank, sizes, &layout); return;
    }
}

static void qt_generate(qt_case *c, ref_rng *rng, bool quantize, DML_TENSOR_DATA_TYPE in_type,
                        DML_TENSOR_DATA_TYPE out_type)
{
    uint32_t sizes[REF_MAX_DIMS];
    c->quantize = quantize;
    c->in_type = in_type;
    c->out_type = out_type;
    c->scale_type = quantize ? (in_type == I32 ? F32 : in_type) : out_type;
    c->has_zp = ref_rng_chance(rng, 75);
    c->rank = 1 + (uint32_t)ref_rng_below(rng, 8);
    ops_random_sizes(rng, c->rank, sizes, QT_MAX_ELEMENTS);
    c->spread = (qt_spread)ref_rng_below(rng, c->list ? SPREAD_COUNT : SPREAD_BLOCK);
    uint32_t axis = (uint32_t)ref_rng_below(rng, c->rank);
    DML_TENSOR_DATA_TYPE zp_type = quantize ? out_type : in_type;
    ops_random_tensor(&c->in, rng, "InputTensor", false, in_type, c->rank, sizes, &c->layout[0]);
    c->in_place = !c->list && ref_rng_chance(rng, 15) && (quantize ? c->has_zp : true);
    if (c->in_place) {
        uint32_t strides[REF_MAX_DIMS];
        c->layout[1] = OPS_LAYOUT_PADDED;
        ops_layout_strides(rng, OPS_LAYOUT_PADDED, c->rank, sizes, strides);
        ops_tensor_init(&c->out, "OutputTensor", true, out_type, c->rank, sizes, strides, 0, 0);
        ops_tensor_init(partner(c), quantize ? "ZeroPointTensor" : "ScaleTensor", false,
                        quantize ? zp_type : c->scale_type, c->rank, sizes, strides, 0, 0);
    } else {
        ops_random_tensor(&c->out, rng, "OutputTensor", true, out_type, c->rank, sizes,
                          &c->layout[1]);
    }
    if (!(c->in_place && !quantize))
        spread_tensor(c, rng, &c->scale, "ScaleTensor", c->scale_type, sizes, axis);
    if (c->has_zp && !(c->in_place && quantize))
        spread_tensor(c, rng, &c->zp, "ZeroPointTensor", zp_type, sizes, axis);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    c->d = (DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC){
        ops_tensor_desc(&c->in), ops_tensor_desc(&c->scale),
        c->has_zp ? ops_tensor_desc(&c->zp) : NULL, ops_tensor_desc(&c->out)};
    c->desc.Type = quantize ? QUANTIZE : DEQUANTIZE;
    c->desc.Desc = &c->d;
    if (c->list) {
        c->qtensors[0] = *c->d.ScaleTensor;
        if (c->has_zp)
            c->qtensors[1] = *c->d.ZeroPointTensor;
        c->ld = (DML_QUANTIZE_OPERATOR_DESC){c->d.InputTensor,
                                             c->has_zp ? DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT
                                                       : DML_QUANTIZATION_TYPE_SCALE,
                                             c->has_zp ? 2 : 1, c->qtensors, c->d.OutputTensor};
        c->desc.Type = quantize ? DML_OPERATOR_QUANTIZE : DML_OPERATOR_DEQUANTIZE;
        c->desc.Desc = &c->ld;
    }
}

static void qt_place(qt_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->in, false);
    ops_memory_place(&c->mem, rng, &c->scale, ref_rng_chance(rng, 30));
    if (c->has_zp)
        ops_memory_place(&c->mem, rng, &c->zp, ref_rng_chance(rng, 30));
    if (c->in_place) {
        ops_tensor *p = partner(c);
        c->out.slot = p->slot;
        c->out.offset = p->offset;
        c->out.bind_size = p->bind_size;
    } else {
        ops_memory_place(&c->mem, rng, &c->out, ref_rng_chance(rng, 25));
    }
    ops_memory_alloc(&c->mem, rng);
}

/* ---- Data --------------------------------------------------------------------------------- */

static void put_float(DML_TENSOR_DATA_TYPE t, double v, unsigned char *p)
{
    if (t == F16) {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

/* A value to quantize: on the grid of quarters (halves are exact ties where the scale is a
 * power of two of at most 1/2... or 2), continuous ones, values past any range, specials. */
static double quantize_input(ref_rng *rng)
{
    static const double specials[] = {NAN,  -NAN, INFINITY, -INFINITY, 0.0,     -0.0,
                                      1e30, -3e9, 1e-40,    65504.0,   -65504.0};
    unsigned pick = (unsigned)ref_rng_below(rng, 100);
    if (pick < 40)
        return (double)ref_rng_range(rng, -1200, 1200) / 4;
    if (pick < 70)
        return (double)ref_rng_range(rng, -2000000, 2000000) / 1000003.0;
    if (pick < 90)
        return (double)ref_rng_range(rng, -100000, 100000) / 97.0;
    return specials[ref_rng_below(rng, COUNT_OF(specials))];
}

/* An INT32 to quantize: small, near 2^24 (where float32 rounds it), or anywhere. */
static int32_t quantize_int_input(ref_rng *rng)
{
    unsigned pick = (unsigned)ref_rng_below(rng, 100);
    if (pick < 50)
        return (int32_t)ref_rng_range(rng, -400, 400);
    if (pick < 75)
        return (int32_t)(ref_rng_range(rng, -8, 8) * (1 << 24) + ref_rng_range(rng, -5, 5));
    return (int32_t)ref_rng_next(rng);
}

/* A scale: powers of two (exact quotients, so halves are ties), arbitrary ones, negative
 * ones, and the specials the pages leave undefined (0) or say nothing of. */
static double scale_value(ref_rng *rng)
{
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, 1e30, 6e-8};
    unsigned pick = (unsigned)ref_rng_below(rng, 100);
    double v;
    if (pick < 45)
        v = ldexp(1.0, (int)ref_rng_range(rng, -6, 6));
    else if (pick < 85)
        v = (double)ref_rng_range(rng, 1, 1000000) / 99991.0;
    else if (pick < 92)
        v = (double)ref_rng_range(rng, 1, 1 << 20) * 64.0;
    else
        return specials[ref_rng_below(rng, COUNT_OF(specials))];
    return ref_rng_chance(rng, 15) ? -v : v;
}

/* An integer of type t: small (near zero points) half the time, any bits otherwise. */
static int64_t int_value(ref_rng *rng, DML_TENSOR_DATA_TYPE t)
{
    size_t w = ref_type_size(t);
    bool s = ref_type_is_signed_int(t);
    if (ref_rng_chance(rng, 50))
        return ref_rng_range(rng, s ? -20 : 0, s ? 20 : 40);
    uint64_t v = ref_rng_next(rng) & (w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1);
    if (s && ((v >> (8 * w - 1)) & 1))
        v |= ~(uint64_t)0 << (8 * w);
    return (int64_t)v;
}

static void fill(qt_case *c, ref_rng *rng, ops_tensor *t, int role)
{
    DML_TENSOR_DATA_TYPE type = t->buffer.DataType;
    size_t w = ref_type_size(type);
    uint64_t slots = t->buffer.TotalTensorSizeInBytes / w;
    unsigned char *p = ops_ptr(&c->mem, OPS_INIT, t);
    for (uint64_t i = 0; i < slots; ++i, p += w) {
        if (role == 1) { /* the scale */
            put_float(type, scale_value(rng), p);
        } else if (ref_type_is_float(type)) { /* a float input */
            put_float(type, quantize_input(rng), p);
        } else {
            int64_t v = c->quantize && role == 0 ? quantize_int_input(rng) : int_value(rng, type);
            memcpy(p, &v, w);
        }
    }
}

static void qt_fill(qt_case *c, ref_rng *rng)
{
    fill(c, rng, &c->in, 0);
    fill(c, rng, &c->scale, 1);
    if (c->has_zp)
        fill(c, rng, &c->zp, 2);
    ops_memory_snapshot(&c->mem);
    ref_tensor in = ops_view(&c->mem, OPS_INIT, &c->in),
               sc = ops_view(&c->mem, OPS_INIT, &c->scale);
    ref_tensor zp = ops_view(&c->mem, OPS_INIT, &c->zp);
    ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->out);
    bool ok = c->quantize ? ref_quantize_linear(&in, &sc, c->has_zp ? &zp : NULL, &out)
                          : ref_dequantize_linear(&in, &sc, c->has_zp ? &zp : NULL, &out);
    cr_assert(ok, "test bug: the reference rejected a generated case");
    if (!c->in_place)
        ops_poison_output(&c->mem, &c->out);
}

static const char *qt_describe(const qt_case *c, char *buf, size_t len)
{
    char head[512], in[512], sc[512], zp[512], out[512];
    snprintf(buf, len,
             "%s\n  %s -> %s (scale %s); zero point %s; scale %s; layouts %s/%s; %s; submit "
             "%s\n  %s\n  %s\n  %s\n  %s",
             ops_replay(head, sizeof head,
                        c->list       ? (c->quantize ? "QUANTIZE" : "DEQUANTIZE")
                        : c->quantize ? "ELEMENT_WISE_QUANTIZE_LINEAR"
                                      : "ELEMENT_WISE_DEQUANTIZE_LINEAR",
                        "elementwise_quant", c->test, c->number, c->seed),
             ref_type_name(c->in_type), ref_type_name(c->out_type), ref_type_name(c->scale_type),
             c->has_zp ? "given" : "absent", spread_name(c->spread), ops_layout_name(c->layout[0]),
             ops_layout_name(c->layout[1]), c->in_place ? "in place" : "apart",
             ops_submit_name(c->submit), ops_tensor_describe(&c->in, in, sizeof in),
             ops_tensor_describe(&c->scale, sc, sizeof sc),
             c->has_zp ? ops_tensor_describe(&c->zp, zp, sizeof zp) : "",
             ops_tensor_describe(&c->out, out, sizeof out));
    return buf;
}

static bool float_is_nan(DML_TENSOR_DATA_TYPE t, const unsigned char *p)
{
    if (t == F16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    }
    float f;
    memcpy(&f, p, 4);
    return isnan(f);
}

/* A NaN output matches any NaN (the one tolerance: an exact result otherwise). */
static void accept_nans(qt_case *c)
{
    if (!ref_type_is_float(c->out_type))
        return;
    ref_tensor e = ops_view(&c->mem, OPS_EXPECT, &c->out), g = ops_view(&c->mem, OPS_GOT, &c->out);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char x[8], y[8];
    do {
        ref_get(&e, coord, x);
        ref_get(&g, coord, y);
        if (float_is_nan(c->out_type, x) && float_is_nan(c->out_type, y))
            ref_put(&g, coord, x);
    } while (ref_next_coord(e.rank, e.sizes, coord));
}

static void qt_run(qt_case *c)
{
    static char what[4096], diff[4096];
    ops_tensor *inputs[3] = {&c->in, &c->scale, c->has_zp ? &c->zp : NULL};
    ops_tensor *outputs[1] = {&c->out};
    ops_tensor *all[4] = {&c->out, &c->in, NULL, NULL};
    int n_all = 2;
    if (!(c->in_place && !c->quantize))
        all[n_all++] = &c->scale;
    if (c->has_zp && !(c->in_place && c->quantize))
        all[n_all++] = &c->zp;
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, c->list && !c->has_zp ? 2 : 3, outputs,
                                1, c->submit, &stage);
    cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", qt_describe(c, what, sizeof what), stage,
              dmlcl_hresult_name(hr), dmlcl_last_error());
    accept_nans(c);
    uint64_t bad = ops_compare(&c->mem, all, n_all, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", qt_describe(c, what, sizeof what), bad,
              diff);
}

/* Case n takes the n-th type pair of the list (then the list again). */
static void qt_cases(const char *test, bool quantize, const DML_TENSOR_DATA_TYPE (*pairs)[2],
                     unsigned n_pairs, unsigned count, bool list)
{
    static qt_case c;
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(count); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, n);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = n;
        c.list = list;
        qt_generate(&c, &rng, quantize, pairs[n % n_pairs][0], pairs[n % n_pairs][1]);
        qt_place(&c, &rng);
        qt_fill(&c, &rng);
        qt_run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(elementwise_quant);

/* Every (input, output) pair of each table once, the first two pairs twice: kernels are
 * compiled per (operation, types, zero point, contiguity), so more cases only cost time. */
Test(elementwise_quant, random_quantize)
{
    static const DML_TENSOR_DATA_TYPE pairs[][2] = {{F32, U8}, {F32, I8}, {F16, U8},
                                                    {F16, I8}, {I32, U8}, {I32, I8}};
    qt_cases("random_quantize", true, pairs, COUNT_OF(pairs), COUNT_OF(pairs) + 2, false);
}

Test(elementwise_quant, random_dequantize)
{
    static const DML_TENSOR_DATA_TYPE pairs[][2] = {{U8, F32},  {I8, F32},  {I32, F32}, {U32, F16},
                                                    {I16, F16}, {U16, F32}, {U8, F16},  {I8, F16},
                                                    {I32, F16}, {U32, F32}, {I16, F32}, {U16, F16}};
    qt_cases("random_dequantize", false, pairs, COUNT_OF(pairs), COUNT_OF(pairs) + 2, false);
}

/* QUANTIZE and DEQUANTIZE (6.3): the same maps with the scale and zero point as a list, per
 * tensor, per axis, per block or in any layout; the oracle is the element-wise one. */
Test(elementwise_quant, random_quantize_list)
{
    static const DML_TENSOR_DATA_TYPE pairs[][2] = {{F32, U8}, {F32, I8}, {F16, U8}, {F16, I8}};
    qt_cases("random_quantize_list", true, pairs, COUNT_OF(pairs), 2 * COUNT_OF(pairs), true);
}

Test(elementwise_quant, random_dequantize_list)
{
    static const DML_TENSOR_DATA_TYPE pairs[][2] = {{U8, F32}, {I8, F32}, {U8, F16}, {I8, F16}};
    qt_cases("random_dequantize_list", false, pairs, COUNT_OF(pairs), 2 * COUNT_OF(pairs), true);
}

/* ---- Fixed cases: the rules the pages leave to the implementation ------------------------ */

/* A tensor of a fixed case: its type, strides (NULL: packed) and buffer contents (NULL: an
 * absent ZeroPointTensor). */
typedef struct fixed {
    DML_TENSOR_DATA_TYPE type;
    const UINT *strides;
    void *data;
} fixed;

/* Runs type over tensors {input, scale, zero point, output} of one rank and sizes on host
 * memory (dmlcl_compiled_operator_execute); each data holds the elements its strides reach
 * (from the first to the last), and the output's come back into its data. */
static HRESULT run_fixed(DML_OPERATOR_TYPE type, UINT rank, const UINT *sizes, fixed t[4])
{
    DML_BUFFER_TENSOR_DESC bufs[4];
    DML_TENSOR_DESC tds[4];
    const DML_TENSOR_DESC *members[4] = {NULL, NULL, NULL, NULL};
    void *host[4] = {NULL, NULL, NULL, NULL};
    size_t span[4] = {0, 0, 0, 0}; /* the bytes the elements reach: what data holds */
    for (int i = 0; i < 4; ++i) {
        if (t[i].data == NULL)
            continue;
        UINT64 bytes = DMLCalcBufferTensorSize(t[i].type, rank, sizes, t[i].strides);
        uint64_t last = 0;
        for (UINT k = 0; k < rank; ++k)
            last +=
                (uint64_t)(sizes[k] - 1) *
                (t[i].strides ? t[i].strides[k] : ref_element_count(rank - k - 1, sizes + k + 1));
        span[i] = (size_t)(last + 1) * ref_type_size(t[i].type);
        bufs[i] = (DML_BUFFER_TENSOR_DESC){
            t[i].type, DML_TENSOR_FLAG_NONE, rank, sizes, t[i].strides, bytes, 0};
        tds[i] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &bufs[i]};
        members[i] = &tds[i];
        host[i] = calloc(1, (size_t)bytes);
        memcpy(host[i], t[i].data, span[i]);
    }
    DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC d = {members[0], members[1], members[2],
                                                        members[3]};
    DML_OPERATOR_DESC od = {type, &d};
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *c = NULL;
    HRESULT hr = dmlcl_operator_create(ops_device(), &od, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &c);
    dmlcl_host_tensor in[3], out = {host[3], bufs[3].TotalTensorSizeInBytes};
    for (int i = 0; i < 3; ++i)
        in[i] = (dmlcl_host_tensor){host[i], host[i] ? bufs[i].TotalTensorSizeInBytes : 0};
    if (SUCCEEDED(hr))
        hr = dmlcl_compiled_operator_execute(c, 3, in, 1, &out);
    if (SUCCEEDED(hr))
        memcpy(t[3].data, host[3], span[3]);
    for (int i = 0; i < 4; ++i)
        free(host[i]);
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(op);
    return hr;
}

#define RUN_OK(...) cr_assert_eq(run_fixed(__VA_ARGS__), S_OK, "%s", dmlcl_last_error())

/* Zero strides of any rank up to 8: a scalar broadcast. */
static const UINT scalar[8] = {0};

Test(elementwise_quant, quantize_rounds_halves_to_even)
{
    /* round(x / 1): halves to even (ONNX QuantizeLinear's rounding; DirectML's round), a
     * value next to a half rounds to the nearer integer. */
    float x[12] = {0.5f, 1.5f,  2.5f,        -0.5f,       -1.5f, -2.5f,
                   3.5f, -3.5f, 2.49999976f, 2.50000024f, 0.49f, -126.5f};
    const int8_t want[12] = {0, 2, 2, 0, -2, -2, 4, -4, 2, 3, 0, -126};
    float one = 1.0f;
    int8_t got[12];
    UINT n[1] = {12};
    fixed t[4] = {{F32, NULL, x}, {F32, scalar, &one}, {I8, NULL, NULL}, {I8, NULL, got}};
    RUN_OK(QUANTIZE, 1, n, t);
    for (int i = 0; i < 12; ++i)
        cr_expect_eq(got[i], want[i], "round(%.9g) = %d, expected %d", x[i], got[i], want[i]);
    /* The zero point is added after the rounding: with a scale of 0.5 and zero point 3,
     * 1.25 -> (2.5 -> 2) + 3 = 5, not round(5.5) = 6; 0.75 -> (1.5 -> 2) + 3 = 5, not
     * round(4.5) = 4; -2.5 -> -5 + 3 saturates to 0. */
    uint8_t zp = 3, ug[3];
    float ux[3] = {1.25f, 0.75f, -2.5f}, half_scale = 0.5f;
    UINT n3[1] = {3};
    fixed u[4] = {{F32, NULL, ux}, {F32, scalar, &half_scale}, {U8, scalar, &zp}, {U8, NULL, ug}};
    RUN_OK(QUANTIZE, 1, n3, u);
    cr_expect(ug[0] == 5 && ug[1] == 5 && ug[2] == 0, "%u %u %u", ug[0], ug[1], ug[2]);
}

Test(elementwise_quant, quantize_saturates_and_specials)
{
    /* The clamp to the output's range; +-inf to its ends; NaN 0 (CAST's rule); zero point
     * 10. */
    float x[8] = {1000.0f, -1000.0f, INFINITY, -INFINITY, NAN, -NAN, 117.0f, 118.0f};
    int8_t zp = 10, got[8];
    const int8_t want[8] = {127, -128, 127, -128, 0, 0, 127, 127};
    float one = 1.0f;
    UINT n[1] = {8};
    fixed t[4] = {{F32, NULL, x}, {F32, scalar, &one}, {I8, scalar, &zp}, {I8, NULL, got}};
    RUN_OK(QUANTIZE, 1, n, t);
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(got[i], want[i], "%g -> %d, expected %d", x[i], got[i], want[i]);
    /* UINT8 with zero point 128: -1000 gives 0, 127.4 gives 255, -128.5 (-> -128) gives 0. */
    uint8_t uz = 128, ug[4];
    float ux[4] = {-1000.0f, 127.4f, -128.5f, 127.6f};
    UINT n4[1] = {4};
    fixed u[4] = {{F32, NULL, ux}, {F32, scalar, &one}, {U8, scalar, &uz}, {U8, NULL, ug}};
    RUN_OK(QUANTIZE, 1, n4, u);
    cr_expect(ug[0] == 0 && ug[1] == 255 && ug[2] == 0 && ug[3] == 255, "%u %u %u %u", ug[0], ug[1],
              ug[2], ug[3]);
}

Test(elementwise_quant, quantize_scale_zero_negative_and_per_channel)
{
    /* Per channel (ONNX Runtime's {1, C, 1, 1}, strides {0, 1, 0, 0}): scales 0 (undefined
     * on the page: x / 0 = +-inf saturates, 0 / 0 = NaN gives 0), -2 (a negative scale
     * divides as it is) and 0.25; zero points 5, -5, 0 per channel. */
    UINT sizes[4] = {1, 3, 1, 4}, channel[4] = {0, 1, 0, 0};
    float x[12] = {3.0f,  -3.0f, 0.0f,   -0.0f, /* channel 0: scale 0 */
                   10.0f, -7.0f, 1.0f,   3.0f,  /* channel 1: scale -2 */
                   0.3f,  -0.3f, 0.125f, 40.0f};
    float scales[3] = {0.0f, -2.0f, 0.25f};
    int8_t zps[3] = {5, -5, 0}, got[12];
    const int8_t want[12] = {127, -128, 0,  0, /* NaN from 0 / 0: 0, the zero point not added */
                             -10, -1,   -5, -7, 1, -1, 0, 127};
    fixed t[4] = {{F32, NULL, x}, {F32, channel, scales}, {I8, channel, zps}, {I8, NULL, got}};
    RUN_OK(QUANTIZE, 4, sizes, t);
    for (int i = 0; i < 12; ++i)
        cr_expect_eq(got[i], want[i], "element %d: %g -> %d, expected %d", i, x[i], got[i],
                     want[i]);
}

Test(elementwise_quant, quantize_int32_and_float16)
{
    /* INT32 converts to FLOAT32 first (nearest even): 2^24 + 1 becomes 2^24, so / 2^25 is
     * exactly 0.5, which rounds to 0 (the exact quotient would give 1); -300 / 2 saturates. */
    int32_t x[4] = {16777217, -16777217, -300, 7};
    float s = 33554432.0f;
    int8_t got[4];
    UINT n[1] = {4};
    fixed t[4] = {{I32, NULL, x}, {F32, scalar, &s}, {I8, NULL, NULL}, {I8, NULL, got}};
    RUN_OK(QUANTIZE, 1, n, t);
    cr_expect(got[0] == 0 && got[1] == 0 && got[3] == 0, "%d %d %d", got[0], got[1], got[3]);
    s = 2.0f;
    RUN_OK(QUANTIZE, 1, n, t);
    cr_expect(got[2] == -128 && got[3] == 4, "-300 / 2 -> %d, 7 / 2 -> %d", got[2], got[3]);
    /* FLOAT16 input and scale, computed in float32: 2.5 / 1 -> 2; 65504 / 0.5 = 131008
     * saturates; 0.1 / 0.1 (both the half 0.0999755859375) is 1; -0.5 -> 0. */
    uint16_t hx[4] = {ref_half_from_double(2.5), ref_half_from_double(65504.0),
                      ref_half_from_double(0.1), ref_half_from_double(-0.5)};
    uint16_t hs[4] = {ref_half_from_double(1.0), ref_half_from_double(0.5),
                      ref_half_from_double(0.1), ref_half_from_double(1.0)};
    uint8_t hg[4];
    fixed h[4] = {{F16, NULL, hx}, {F16, NULL, hs}, {U8, NULL, NULL}, {U8, NULL, hg}};
    RUN_OK(QUANTIZE, 1, n, h);
    cr_expect(hg[0] == 2 && hg[1] == 255 && hg[2] == 1 && hg[3] == 0, "%u %u %u %u", hg[0], hg[1],
              hg[2], hg[3]);
}

Test(elementwise_quant, dequantize_rules)
{
    /* (x - zero point) * scale: UINT8 around 128 by 0.5; scales 0 and -0 give zeros signed
     * as the product; inf gives +-inf and NaN for 0 * inf; a NaN scale NaN. */
    uint8_t x[8] = {0, 255, 128, 100, 130, 128, 129, 127};
    uint8_t zp = 128;
    float s[8] = {0.5f, 0.5f, 0.5f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN}, got[8];
    const float want[8] = {-64.0f, 63.5f, 0.0f, -0.0f, -0.0f, NAN, -INFINITY, NAN};
    UINT n[1] = {8};
    fixed t[4] = {{U8, NULL, x}, {F32, NULL, s}, {U8, scalar, &zp}, {F32, NULL, got}};
    RUN_OK(DEQUANTIZE, 1, n, t);
    for (int i = 0; i < 8; ++i)
        cr_expect((isnan(got[i]) && isnan(want[i])) ||
                      (got[i] == want[i] && signbit(got[i]) == signbit(want[i])),
                  "element %d: %g, expected %g", i, got[i], want[i]);
    /* INT8 without a zero point (feature level 6.2): x * scale. */
    int8_t ix[3] = {-128, 127, -1};
    float one_tenth = 0.1f, ig[3];
    UINT n3[1] = {3};
    fixed u[4] = {{I8, NULL, ix}, {F32, scalar, &one_tenth}, {I8, NULL, NULL}, {F32, NULL, ig}};
    RUN_OK(DEQUANTIZE, 1, n3, u);
    cr_expect(ig[0] == -128 * 0.1f && ig[1] == 127 * 0.1f && ig[2] == -0.1f, "%.9g %.9g %.9g",
              ig[0], ig[1], ig[2]);
}

Test(elementwise_quant, dequantize_32_bit_differences_exact)
{
    /* The difference exact in 64 bits, rounded once to FLOAT32: INT32_MAX - INT32_MIN is
     * 2^32 - 1, 4294967296 as a float; 2^24 + 1 - 1 is 2^24 exactly; 2^24 + 1 alone rounds to
     * 2^24; UINT32_MAX - 1 is 4294967294 -> 4294967296. */
    int32_t x[4] = {INT32_MAX, 16777217, 16777217, -5};
    int32_t zp[4] = {INT32_MIN, 1, 0, 5};
    float one = 1.0f, got[4];
    UINT n[1] = {4};
    fixed t[4] = {{I32, NULL, x}, {F32, scalar, &one}, {I32, NULL, zp}, {F32, NULL, got}};
    RUN_OK(DEQUANTIZE, 1, n, t);
    cr_expect(got[0] == 4294967296.0f && got[1] == 16777216.0f && got[2] == 16777216.0f &&
                  got[3] == -10.0f,
              "%.9g %.9g %.9g %.9g", got[0], got[1], got[2], got[3]);
    uint32_t ux[2] = {UINT32_MAX, 0}, uz[2] = {1, UINT32_MAX};
    float ug[2];
    UINT n2[1] = {2};
    fixed u[4] = {{U32, NULL, ux}, {F32, scalar, &one}, {U32, NULL, uz}, {F32, NULL, ug}};
    RUN_OK(DEQUANTIZE, 1, n2, u);
    cr_expect(ug[0] == 4294967296.0f && ug[1] == -4294967296.0f, "%.9g %.9g", ug[0], ug[1]);
    /* FLOAT16 output through the 32-bit path: 3 * half(0.1) = 0.2999267578125, a tie between
     * two halves, to even: 0.2998046875; a FLOAT16 scale read from its encoding. */
    uint16_t hs = ref_half_from_double(0.1), hg[2];
    int32_t hx[2] = {3, -700000};
    fixed h[4] = {{I32, NULL, hx}, {F16, scalar, &hs}, {I32, NULL, NULL}, {F16, NULL, hg}};
    RUN_OK(DEQUANTIZE, 1, n2, h);
    cr_expect(hg[0] == ref_half_from_double(0.2998046875) && hg[1] == 0xfc00, "%04x %04x", hg[0],
              hg[1]);
}

Test(elementwise_quant, dequantize_float16_output)
{
    /* FLOAT16: the float32 product rounded to nearest even: UINT8 3 by half(0.1) is the tie
     * 0.2999267578125 -> 0.2998046875; 255 * 256 = 65280 is a half; 255 * 257 = 65535
     * overflows to inf. */
    uint8_t x[3] = {3, 255, 255};
    uint16_t s[3] = {ref_half_from_double(0.1), ref_half_from_double(256.0),
                     ref_half_from_double(257.0)};
    uint16_t got[3];
    UINT n[1] = {3};
    fixed t[4] = {{U8, NULL, x}, {F16, NULL, s}, {U8, NULL, NULL}, {F16, NULL, got}};
    RUN_OK(DEQUANTIZE, 1, n, t);
    cr_expect(got[0] == ref_half_from_double(0.2998046875) &&
                  got[1] == ref_half_from_double(65280.0) && got[2] == 0x7c00,
              "%04x %04x %04x", got[0], got[1], got[2]);
}

Test(elementwise_quant, strided_output_and_broadcast_zero_point)
{
    /* The output written through strides {1, 3} (a transposed 2 x 3 into a 3 x 2 buffer), the
     * input packed, a per-tensor scale and a per-row zero point. */
    UINT sizes[2] = {2, 3}, out_strides[2] = {1, 2}, row[2] = {1, 0};
    float x[6] = {1.0f, 2.0f, 3.0f, -1.0f, -2.0f, -3.0f}, s = 0.5f;
    uint8_t zp[2] = {10, 200}, got[6];
    memset(got, 0xAB, sizeof got);
    fixed t[4] = {{F32, NULL, x}, {F32, scalar, &s}, {U8, row, zp}, {U8, out_strides, got}};
    RUN_OK(QUANTIZE, 2, sizes, t);
    /* element (i, j) at j * 2 + i: row 0 is 12, 14, 16; row 1 is 198, 196, 194. */
    const uint8_t want[6] = {12, 198, 14, 196, 16, 194};
    for (int i = 0; i < 6; ++i)
        cr_expect_eq(got[i], want[i], "byte %d: %u, expected %u", i, got[i], want[i]);
}

Test(elementwise_quant, transposed_input_tiles)
{
    /* NCHW read as NHWC ({1, 4, 8, 32}: H x W and C multiples of 16, so a CPU map reads the
     * input in tiles, cl/map.cl TILE) with a per-channel scale and zero point (strides
     * {0, 0, 0, 1}), as a layout change before a quantization; then a 32-bit DEQUANTIZE (its
     * long compute) read the same way. Expected from the oracle's element functions. */
    enum { N = 1, H = 4, W = 8, C = 32, COUNT = N * H * W * C };
    UINT sizes[4] = {N, H, W, C}, nchw[4] = {C * H * W, W, 1, H * W}, channel[4] = {0, 0, 0, 1};
    static float x[COUNT], scale[C];
    static int32_t ix[COUNT];
    static uint8_t zp[C], got[COUNT];
    static float fgot[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        x[i] = (float)((i * 37) % 801 - 400) / 8.0f;
        ix[i] = (i * 7919) % 200001 - 100000;
    }
    for (int k = 0; k < C; ++k) {
        scale[k] = k % 3 == 0 ? 0.25f : (float)(k + 1) / 16.0f;
        zp[k] = (uint8_t)(k * 8);
    }
    fixed t[4] = {{F32, nchw, x}, {F32, channel, scale}, {U8, channel, zp}, {U8, NULL, got}};
    RUN_OK(QUANTIZE, 4, sizes, t);
    size_t bad = 0;
    for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
            for (int k = 0; k < C; ++k) {
                int o = (h * W + w) * C + k, in = k * H * W + h * W + w;
                int64_t want = ref_quantize_value(x[in], scale[k], zp[k], U8);
                if (got[o] != (uint8_t)want && bad++ < 5)
                    cr_log_error("QUANTIZE element %d: %u, expected %d", o, got[o], (int)want);
            }
    cr_expect_eq(bad, 0, "QUANTIZE: %zu elements differ", bad);
    fixed d[4] = {{I32, nchw, ix}, {F32, channel, scale}, {I32, NULL, NULL}, {F32, NULL, fgot}};
    RUN_OK(DEQUANTIZE, 4, sizes, d);
    bad = 0;
    for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
            for (int k = 0; k < C; ++k) {
                int o = (h * W + w) * C + k, in = k * H * W + h * W + w;
                float want = (float)ref_dequantize_value(ix[in], 0, scale[k], F32);
                if (fgot[o] != want && bad++ < 5)
                    cr_log_error("DEQUANTIZE element %d: %.9g, expected %.9g", o, fgot[o], want);
            }
    cr_expect_eq(bad, 0, "DEQUANTIZE: %zu elements differ", bad);
}

/* ---- ELEMENT_WISE_QUANTIZED_LINEAR_ADD: a chain of four maps, against its oracle ---------- */

/* Random cases: A, B and the output in any layout (A and B also broadcast or aliasing), INT8
 * or UINT8, the six scales and zero points single elements (DimensionCount ones, the form
 * ONNX Runtime's DirectML provider builds), each zero point absent a quarter of the time. The
 * scales: powers of two (exact ties), arbitrary ones, a tenth of the time 0, negative or
 * infinite; the integers over their whole range. */
Test(elementwise_quant, random_quantized_linear_add)
{
    static const char *const names[8] = {
        "ATensor",      "AScaleTensor",     "AZeroPointTensor",  "BTensor",
        "BScaleTensor", "BZeroPointTensor", "OutputScaleTensor", "OutputZeroPointTensor"};
    static char what[4096], diff[4096], head[512];
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(8); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, "random_quantized_linear_add", n);
        /* A, B and the output of every type pair in turn (the page lets them differ). */
        DML_TENSOR_DATA_TYPE types[3] = {n % 2 ? I8 : U8, n / 2 % 2 ? I8 : U8, n / 4 % 2 ? I8 : U8};
        DML_TENSOR_DATA_TYPE type = types[2];
        uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), sizes[REF_MAX_DIMS],
                 ones[REF_MAX_DIMS];
        ops_random_sizes(&rng, rank, sizes, QT_MAX_ELEMENTS);
        for (uint32_t i = 0; i < rank; ++i)
            ones[i] = 1;
        static ops_tensor t[8], out;
        static ops_memory mem;
        memset(t, 0, sizeof t);
        memset(&out, 0, sizeof out);
        memset(&mem, 0, sizeof mem);
        ops_layout layout[3];
        bool present[8];
        for (int k = 0; k < 8; ++k) {
            present[k] = !(k == 2 || k == 5 || k == 7) || ref_rng_chance(&rng, 75);
            if (!present[k])
                continue;
            if (k == 0 || k == 3)
                ops_random_tensor(&t[k], &rng, names[k], false, type, rank, sizes, &layout[k / 3]);
            else
                ops_tensor_init(&t[k], names[k], false, (k == 1 || k == 4 || k == 6) ? F32 : type,
                                rank, ones, NULL, 0, 0);
            ops_memory_place(&mem, &rng, &t[k], k != 0 && (k != 3 || ref_rng_chance(&rng, 50)));
        }
        ops_random_tensor(&out, &rng, "OutputTensor", true, type, rank, sizes, &layout[2]);
        ops_memory_place(&mem, &rng, &out, ref_rng_chance(&rng, 25));
        ops_memory_alloc(&mem, &rng);
        for (int k = 0; k < 8; ++k) {
            if (!present[k])
                continue;
            size_t w = ref_type_size(t[k].buffer.DataType);
            uint64_t slots = t[k].buffer.TotalTensorSizeInBytes / w;
            unsigned char *p = ops_ptr(&mem, OPS_INIT, &t[k]);
            for (uint64_t i = 0; i < slots; ++i, p += w) {
                if (t[k].buffer.DataType == F32) {
                    double s =
                        ref_rng_chance(&rng, 90) ? fabs(scale_value(&rng)) : scale_value(&rng);
                    put_float(F32, s, p);
                } else {
                    int64_t v = int_value(&rng, t[k].buffer.DataType);
                    memcpy(p, &v, 1);
                }
            }
        }
        ops_memory_snapshot(&mem);
        ref_tensor v[8], o = ops_view(&mem, OPS_EXPECT, &out);
        for (int k = 0; k < 8; ++k)
            if (present[k])
                v[k] = ops_view(&mem, OPS_INIT, &t[k]);
        bool ok = ref_quantized_linear_add(&v[0], &v[1], present[2] ? &v[2] : NULL, &v[3], &v[4],
                                           present[5] ? &v[5] : NULL, &v[6],
                                           present[7] ? &v[7] : NULL, &o);
        cr_assert(ok, "test bug: the reference rejected a generated case");
        ops_poison_output(&mem, &out);
        DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC d = {
            ops_tensor_desc(&t[0]),
            ops_tensor_desc(&t[1]),
            present[2] ? ops_tensor_desc(&t[2]) : NULL,
            ops_tensor_desc(&t[3]),
            ops_tensor_desc(&t[4]),
            present[5] ? ops_tensor_desc(&t[5]) : NULL,
            ops_tensor_desc(&t[6]),
            present[7] ? ops_tensor_desc(&t[7]) : NULL,
            ops_tensor_desc(&out)};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD, &d};
        ops_tensor *inputs[8], *outputs[1] = {&out}, *all[9] = {&out};
        int n_all = 1;
        for (int k = 0; k < 8; ++k) {
            inputs[k] = present[k] ? &t[k] : NULL;
            if (present[k])
                all[n_all++] = &t[k];
        }
        ops_submit submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        char ta[512], tb[512], to[512];
        snprintf(
            what, sizeof what,
            "%s\n  %s + %s -> %s; zero points %d%d%d; layouts %s/%s/%s\n  %s\n  %s\n  %s",
            ops_replay(head, sizeof head, "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", "elementwise_quant",
                       "random_quantized_linear_add", n, ops_base_seed(&run_seed)),
            ref_type_name(types[0]), ref_type_name(types[1]), ref_type_name(types[2]), present[2],
            present[5], present[7], ops_layout_name(layout[0]), ops_layout_name(layout[1]),
            ops_layout_name(layout[2]), ops_tensor_describe(&t[0], ta, sizeof ta),
            ops_tensor_describe(&t[3], tb, sizeof tb), ops_tensor_describe(&out, to, sizeof to));
        const char *stage = "";
        HRESULT hr = ops_run_device(&desc, &mem, inputs, 8, outputs, 1, submit, &stage);
        cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
                  dmlcl_last_error());
        uint64_t bad = ops_compare(&mem, all, n_all, diff, sizeof diff);
        cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
        ops_memory_release(&mem);
    }
}

/* ---- DYNAMIC_QUANTIZE_LINEAR: one work-group's min, max and quantization, against its oracle */

/* An input element by the case's mode: 0 values on and off the grid of both signs, 1 the same
 * with specials (NaN, infinities, -0, huge values), 2 every element 0, 3 positive only, 4
 * negative only (the range widened to 0 on one side). */
static double dynamic_value(ref_rng *rng, unsigned mode)
{
    switch (mode) {
    case 1: return quantize_input(rng);
    case 2: return ref_rng_chance(rng, 50) ? 0.0 : -0.0;
    case 3: return (double)ref_rng_range(rng, 1, 100000) / 97.0;
    case 4: return -(double)ref_rng_range(rng, 1, 100000) / 389.0;
    default:
        return ref_rng_chance(rng, 50) ? (double)ref_rng_range(rng, -1200, 1200) / 4
                                       : (double)ref_rng_range(rng, -2000000, 2000000) / 1000003.0;
    }
}

Test(elementwise_quant, random_dynamic_quantize_linear)
{
    static char what[4096], diff[4096], head[512];
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(12); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, "random_dynamic_quantize_linear", n);
        DML_TENSOR_DATA_TYPE in_type = n % 2 ? F16 : F32, out_type = n / 2 % 2 ? I8 : U8;
        unsigned mode = n < 10 ? n / 2 : (unsigned)ref_rng_below(&rng, 5);
        uint32_t rank = 1 + (uint32_t)ref_rng_below(&rng, 8), sizes[REF_MAX_DIMS],
                 ones[REF_MAX_DIMS];
        ops_random_sizes(&rng, rank, sizes, QT_MAX_ELEMENTS);
        for (uint32_t i = 0; i < rank; ++i)
            ones[i] = 1;
        static ops_tensor in, out, sc, zp;
        static ops_memory mem;
        memset(&mem, 0, sizeof mem);
        ops_layout layout[2];
        ops_random_tensor(&in, &rng, "InputTensor", false, in_type, rank, sizes, &layout[0]);
        ops_random_tensor(&out, &rng, "OutputTensor", true, out_type, rank, sizes, &layout[1]);
        ops_tensor_init(&sc, "OutputScaleTensor", true, F32, rank, ones, NULL, 0, 0);
        ops_tensor_init(&zp, "OutputZeroPointTensor", true, out_type, rank, ones, NULL, 0, 0);
        ops_memory_place(&mem, &rng, &in, false);
        ops_memory_place(&mem, &rng, &out, ref_rng_chance(&rng, 50));
        ops_memory_place(&mem, &rng, &sc, true);
        ops_memory_place(&mem, &rng, &zp, true);
        ops_memory_alloc(&mem, &rng);
        size_t w = ref_type_size(in_type);
        uint64_t slots = in.buffer.TotalTensorSizeInBytes / w;
        unsigned char *p = ops_ptr(&mem, OPS_INIT, &in);
        for (uint64_t i = 0; i < slots; ++i, p += w)
            put_float(in_type, dynamic_value(&rng, mode), p);
        ops_memory_snapshot(&mem);
        ref_tensor vi = ops_view(&mem, OPS_INIT, &in), vo = ops_view(&mem, OPS_EXPECT, &out),
                   vs = ops_view(&mem, OPS_EXPECT, &sc), vz = ops_view(&mem, OPS_EXPECT, &zp);
        cr_assert(ref_dynamic_quantize_linear(&vi, &vo, &vs, &vz),
                  "test bug: the reference rejected a generated case");
        ops_poison_output(&mem, &out);
        ops_poison_output(&mem, &sc);
        ops_poison_output(&mem, &zp);
        DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC d = {ops_tensor_desc(&in), ops_tensor_desc(&out),
                                                       ops_tensor_desc(&sc), ops_tensor_desc(&zp)};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR, &d};
        ops_tensor *inputs[1] = {&in}, *outputs[3] = {&out, &sc, &zp};
        ops_tensor *all[4] = {&in, &out, &sc, &zp};
        ops_submit submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        char ti[512], to[512];
        snprintf(what, sizeof what, "%s\n  %s -> %s; mode %u; layouts %s/%s\n  %s\n  %s",
                 ops_replay(head, sizeof head, "DYNAMIC_QUANTIZE_LINEAR", "elementwise_quant",
                            "random_dynamic_quantize_linear", n, ops_base_seed(&run_seed)),
                 ref_type_name(in_type), ref_type_name(out_type), mode, ops_layout_name(layout[0]),
                 ops_layout_name(layout[1]), ops_tensor_describe(&in, ti, sizeof ti),
                 ops_tensor_describe(&out, to, sizeof to));
        const char *stage = "";
        HRESULT hr = ops_run_device(&desc, &mem, inputs, 1, outputs, 3, submit, &stage);
        cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
                  dmlcl_last_error());
        uint64_t bad = ops_compare(&mem, all, 4, diff, sizeof diff);
        cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
        ops_memory_release(&mem);
    }
}

/* DYNAMIC_QUANTIZE_LINEAR through fixed layouts the kernel's runs must follow: an output whose
 * innermost dimension is its outermost in memory (stride 210) beside a padded input, and two
 * long rows (each cut into runs of its own) read and written transposed; then tensors large
 * enough for several work-groups (SPLIT: each one's range first, then all folded), 25929 and
 * 40000 elements, the largest value the last element and the smallest the middle one (another
 * work-group's than the first's). */
Test(elementwise_quant, dynamic_quantize_permuted_layouts)
{
    static const uint32_t sizes[4][3] = {{3, 70, 5}, {2, 1000, 1}, {3, 129, 67}, {40000, 1, 1}};
    static const uint32_t in_strides[4][3] = {{420, 6, 1}, {1, 2, 1}, {8643, 67, 1}, {1, 1, 1}};
    static const uint32_t out_strides[4][3] = {{1, 3, 210}, {1, 2, 1}, {1, 201, 3}, {1, 1, 1}};
    static const uint32_t ranks[4] = {3, 2, 3, 1};
    for (int c = 0; c < 4; ++c) {
        const uint32_t rank = ranks[c];
        uint32_t ones[3] = {1, 1, 1};
        static ops_tensor in, out, sc, zp;
        static ops_memory mem;
        memset(&mem, 0, sizeof mem);
        ref_rng rng = ref_rng_make(0xd9a11 + (uint64_t)c);
        ops_tensor_init(&in, "InputTensor", false, F32, rank, sizes[c], in_strides[c], 0, 0);
        ops_tensor_init(&out, "OutputTensor", true, U8, rank, sizes[c], out_strides[c], 0, 0);
        ops_tensor_init(&sc, "OutputScaleTensor", true, F32, rank, ones, NULL, 0, 0);
        ops_tensor_init(&zp, "OutputZeroPointTensor", true, U8, rank, ones, NULL, 0, 0);
        ops_memory_place(&mem, &rng, &in, false);
        ops_memory_place(&mem, &rng, &out, false);
        ops_memory_place(&mem, &rng, &sc, true);
        ops_memory_place(&mem, &rng, &zp, true);
        ops_memory_alloc(&mem, &rng);
        uint64_t slots = in.buffer.TotalTensorSizeInBytes / 4;
        unsigned char *p = ops_ptr(&mem, OPS_INIT, &in);
        /* The large ones finite (modes 0, 2, 4): an infinity would make every range the same. */
        for (uint64_t i = 0; i < slots; ++i, p += 4)
            put_float(
                F32, dynamic_value(&rng, c < 2 ? (unsigned)(i % 5) : (unsigned)(i % 3) * 2 % 5), p);
        if (c >= 2) {
            unsigned char *q = ops_ptr(&mem, OPS_INIT, &in);
            put_float(F32, 5000.0, q + (slots - 1) * 4);
            put_float(F32, -3000.0, q + slots / 2 * 4);
        }
        ops_memory_snapshot(&mem);
        ref_tensor vi = ops_view(&mem, OPS_INIT, &in), vo = ops_view(&mem, OPS_EXPECT, &out),
                   vs = ops_view(&mem, OPS_EXPECT, &sc), vz = ops_view(&mem, OPS_EXPECT, &zp);
        cr_assert(ref_dynamic_quantize_linear(&vi, &vo, &vs, &vz), "test bug: reference");
        ops_poison_output(&mem, &out);
        ops_poison_output(&mem, &sc);
        ops_poison_output(&mem, &zp);
        DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC d = {ops_tensor_desc(&in), ops_tensor_desc(&out),
                                                       ops_tensor_desc(&sc), ops_tensor_desc(&zp)};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR, &d};
        ops_tensor *inputs[1] = {&in}, *outputs[3] = {&out, &sc, &zp};
        ops_tensor *all[4] = {&in, &out, &sc, &zp};
        const char *stage = "";
        HRESULT hr = ops_run_device(&desc, &mem, inputs, 1, outputs, 3, OPS_SUBMIT_DEFAULT, &stage);
        cr_assert(SUCCEEDED(hr), "layouts %d: %s failed: %s: %s", c, stage, dmlcl_hresult_name(hr),
                  dmlcl_last_error());
        static char diff[4096];
        uint64_t bad = ops_compare(&mem, all, 4, diff, sizeof diff);
        cr_assert(bad == 0, "layouts %d: %" PRIu64 " mismatches:%s", c, bad, diff);
        ops_memory_release(&mem);
    }
}

/* ---- QUANTIZED_LINEAR_AVERAGE_POOLING: the pool family's QUANT variant, against its oracle */

/* Random poolings of 2 and 3 spatial axes: windows, strides, dilations and pads of their own
 * per axis (pads up to the window, IncludePadding either way), INT8 and UINT8 each side, the
 * input and output in any layout, the scales and zero points per tensor or per channel (a
 * {1, C, 1, 1} tensor), each zero point absent a quarter of the time. */
Test(elementwise_quant, random_quantized_average_pooling)
{
    static char what[4096], diff[4096], head[512];
    long only = ops_only_case();
    for (unsigned n = 0; n < ops_case_count(10); ++n) {
        if (only >= 0 && (unsigned long)only != n)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, "random_quantized_average_pooling", n);
        DML_TENSOR_DATA_TYPE in_type = n % 2 ? I8 : U8, out_type = n / 2 % 2 ? I8 : U8;
        uint32_t dims = n % 3 == 2 ? 3 : 2, rank = dims + 2;
        uint32_t in_sizes[REF_MAX_DIMS], out_sizes[REF_MAX_DIMS], strides[3], window[3], start[3],
            end[3], dil[3];
        in_sizes[0] = 1 + (uint32_t)ref_rng_below(&rng, 2);
        in_sizes[1] = 1 + (uint32_t)ref_rng_below(&rng, 4);
        out_sizes[0] = in_sizes[0];
        out_sizes[1] = in_sizes[1];
        for (uint32_t a = 0; a < dims; ++a) {
            in_sizes[2 + a] = 1 + (uint32_t)ref_rng_below(&rng, dims == 3 ? 6 : 10);
            window[a] = 1 + (uint32_t)ref_rng_below(&rng, 4);
            strides[a] = 1 + (uint32_t)ref_rng_below(&rng, 3);
            dil[a] = 1 + (uint32_t)ref_rng_below(&rng, 2);
            start[a] = (uint32_t)ref_rng_below(&rng, window[a]);
            end[a] = (uint32_t)ref_rng_below(&rng, window[a]);
            uint64_t padded = in_sizes[2 + a] + start[a] + end[a];
            uint64_t reach = (uint64_t)(window[a] - 1) * dil[a] + 1;
            out_sizes[2 + a] = reach > padded ? 1 : (uint32_t)((padded - reach) / strides[a] + 1);
        }
        bool include = ref_rng_chance(&rng, 50), per_channel = ref_rng_chance(&rng, 50);
        bool has_izp = ref_rng_chance(&rng, 75), has_ozp = ref_rng_chance(&rng, 75);
        uint32_t qs[REF_MAX_DIMS] = {1, per_channel ? in_sizes[1] : 1, 1, 1, 1};
        static ops_tensor in, out, q[4];
        static ops_memory mem;
        memset(&mem, 0, sizeof mem);
        memset(q, 0, sizeof q);
        ops_layout layout[2];
        ops_random_tensor(&in, &rng, "InputTensor", false, in_type, rank, in_sizes, &layout[0]);
        ops_random_tensor(&out, &rng, "OutputTensor", true, out_type, rank, out_sizes, &layout[1]);
        static const char *const qn[4] = {"InputScaleTensor", "InputZeroPointTensor",
                                          "OutputScaleTensor", "OutputZeroPointTensor"};
        const DML_TENSOR_DATA_TYPE qt[4] = {F32, in_type, F32, out_type};
        const bool present[4] = {true, has_izp, true, has_ozp};
        ops_memory_place(&mem, &rng, &in, false);
        ops_memory_place(&mem, &rng, &out, ref_rng_chance(&rng, 50));
        for (int k = 0; k < 4; ++k)
            if (present[k]) {
                ops_tensor_init(&q[k], qn[k], false, qt[k], rank, qs, NULL, 0, 0);
                ops_memory_place(&mem, &rng, &q[k], true);
            }
        ops_memory_alloc(&mem, &rng);
        for (int k = 0; k < 4; ++k) {
            if (!present[k])
                continue;
            size_t w = ref_type_size(qt[k]);
            uint64_t slots = q[k].buffer.TotalTensorSizeInBytes / w;
            unsigned char *p = ops_ptr(&mem, OPS_INIT, &q[k]);
            for (uint64_t i = 0; i < slots; ++i, p += w) {
                if (qt[k] == F32) {
                    double s = ref_rng_chance(&rng, 50)
                                   ? ldexp(1.0, (int)ref_rng_range(&rng, -4, 2))
                                   : (double)ref_rng_range(&rng, 1, 5000) / 997.0;
                    put_float(F32, s, p);
                } else {
                    int64_t v = int_value(&rng, qt[k]);
                    memcpy(p, &v, 1);
                }
            }
        }
        ops_memory_snapshot(&mem);
        ref_tensor vi = ops_view(&mem, OPS_INIT, &in), vo = ops_view(&mem, OPS_EXPECT, &out);
        ref_tensor vq[4];
        for (int k = 0; k < 4; ++k)
            if (present[k])
                vq[k] = ops_view(&mem, OPS_INIT, &q[k]);
        cr_assert(ref_quantized_average_pooling(&vi, &vq[0], has_izp ? &vq[1] : NULL, &vq[2],
                                                has_ozp ? &vq[3] : NULL, &vo, dims, strides, window,
                                                start, end, dil, include),
                  "test bug: the reference rejected a generated case");
        ops_poison_output(&mem, &out);
        DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC d = {
            ops_tensor_desc(&in),
            ops_tensor_desc(&q[0]),
            has_izp ? ops_tensor_desc(&q[1]) : NULL,
            ops_tensor_desc(&q[2]),
            has_ozp ? ops_tensor_desc(&q[3]) : NULL,
            ops_tensor_desc(&out),
            dims,
            strides,
            window,
            start,
            end,
            dil,
            include};
        DML_OPERATOR_DESC desc = {DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING, &d};
        ops_tensor *inputs[5] = {&in, &q[0], has_izp ? &q[1] : NULL, &q[2], has_ozp ? &q[3] : NULL};
        ops_tensor *outputs[1] = {&out}, *all[6] = {&out, &in};
        int n_all = 2;
        for (int k = 0; k < 4; ++k)
            if (present[k])
                all[n_all++] = &q[k];
        ops_submit submit = (ops_submit)ref_rng_below(&rng, OPS_SUBMIT_COUNT);
        char ti[512], to[512];
        snprintf(what, sizeof what,
                 "%s\n  %s -> %s; %s; zero points %d%d; IncludePadding %d; window {%u,%u,%u} "
                 "strides {%u,%u,%u} dilations {%u,%u,%u} pads {%u,%u,%u}/{%u,%u,%u}\n  %s\n  %s",
                 ops_replay(head, sizeof head, "QUANTIZED_LINEAR_AVERAGE_POOLING",
                            "elementwise_quant", "random_quantized_average_pooling", n,
                            ops_base_seed(&run_seed)),
                 ref_type_name(in_type), ref_type_name(out_type),
                 per_channel ? "per channel" : "per tensor", has_izp, has_ozp, include, window[0],
                 dims > 1 ? window[1] : 0, dims > 2 ? window[2] : 0, strides[0],
                 dims > 1 ? strides[1] : 0, dims > 2 ? strides[2] : 0, dil[0],
                 dims > 1 ? dil[1] : 0, dims > 2 ? dil[2] : 0, start[0], dims > 1 ? start[1] : 0,
                 dims > 2 ? start[2] : 0, end[0], dims > 1 ? end[1] : 0, dims > 2 ? end[2] : 0,
                 ops_tensor_describe(&in, ti, sizeof ti), ops_tensor_describe(&out, to, sizeof to));
        const char *stage = "";
        HRESULT hr = ops_run_device(&desc, &mem, inputs, 5, outputs, 1, submit, &stage);
        cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", what, stage, dmlcl_hresult_name(hr),
                  dmlcl_last_error());
        uint64_t bad = ops_compare(&mem, all, n_all, diff, sizeof diff);
        cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", what, bad, diff);
        ops_memory_release(&mem);
    }
}
