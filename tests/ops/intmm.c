/* SPDX-License-Identifier: MIT */
/*
 * The integer and quantized matrix operators on the device against the oracle
 * (tests/ref/ref_intmm.c): MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY,
 * MATRIX_MULTIPLY_INTEGER_TO_FLOAT, CONVOLUTION_INTEGER, QUANTIZED_LINEAR_CONVOLUTION. A and B
 * (input and filter) take their types' whole ranges, from a printed, overridable seed
 * (DMLCL_TEST_SEED); zero points, scales and bias come in the forms the pages and ONNX
 * Runtime's DirectML provider give (per tensor, per row, per column, per channel, batched,
 * lower DimensionCounts, output-shaped with 0 strides); tensors may be strided (a padded
 * innermost run, whose padding must come back untouched) or B transposed in memory.
 *
 * Tolerances: the *_INTEGER outputs are exact (the sum wrapped to INT32). A requantized output
 * is exact; with scales that are not powers of two, a value whose float64 product lies within
 2^-18 (relative) of a half-integer may round either way (the kernel computes in float32), so
 * such elements may differ by 1 and no more; with power-of-two scales every float32 step is
 * exact and ties too must round half to even. MATRIX_MULTIPLY_INTEGER_TO_FLOAT: float32 steps
 * (the sum's conversion, the scales' product, the product, the bias's add) within 2^-22 of the
 * terms' magnitude; FLOAT16 adds the output's rounding (2^-11 relative, 2^-24 absolute).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "ref_broadcast.h"
#include "ref_intmm.h"

OPS_DEVICE_SUITE(intmm);

/* Roles, as the test names them (not src's). */
enum { A, B, AZP, BZP, AS, BS, OS, OZP, BIAS, OUT, ROLES };

typedef enum kind { MMI, QLMM, MMITF, CI, QLC } kind;

/* Output coordinates an auxiliary tensor varies along (product: {D0, D1, M, N}; convolution:
 * {N, Cout, OH, OW}). */
#define V0 1u
#define V1 2u
#define VM 4u
#define VN 8u

typedef struct aux {
    bool present;
    unsigned vary;     /* V* bits */
    uint32_t rank;     /* its DimensionCount (0: 4) */
    bool output_sized; /* the output's sizes, 0 strides where it does not vary (ONNX Runtime) */
} aux;

typedef struct imm_case {
    const char *name;
    kind kind;
    DML_TENSOR_DATA_TYPE ta, tb, to;
    uint32_t rank;       /* A's, B's and the output's */
    uint32_t d[4], k;    /* a product's {D0, D1, M, N} and K */
    ref_intconv_desc cv; /* a convolution's */
    aux x[ROLES];
    bool strided, b_transposed, a_transposed, pow2;
    bool nhwc; /* a convolution's input channels innermost in memory (rank 4) */
    /* 0 random; 1 A at its minimum, B at its maximum (the INT32 wrap); 2 A and B in -3..3,
     * every scale 1 but the output's, 2 (sums / 2: ties in range) */
    int fill;
} imm_case;

typedef struct buf {
    DML_TENSOR_DESC desc;
    DML_BUFFER_TENSOR_DESC buffer;
    DML_TENSOR_DATA_TYPE type;
    uint32_t rank, sizes[4], strides[4];
    unsigned char *data;
    uint64_t bytes, count;
} buf;

static uint32_t type_bytes(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8 ? 1
           : t == DML_TENSOR_DATA_TYPE_FLOAT16                               ? 2
                                                                             : 4;
}

/* strides NULL: packed, or with `strided` the innermost run padded by 3. */
static void buf_make(buf *b, DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                     const uint32_t *strides, bool strided)
{
    memset(b, 0, sizeof *b);
    b->type = type;
    b->rank = rank;
    memcpy(b->sizes, sizes, rank * sizeof *sizes);
    uint64_t s = 1;
    b->count = 1;
    for (int d = (int)rank - 1; d >= 0; --d) {
        b->strides[d] = strides ? strides[d] : (uint32_t)s;
        s *= sizes[d] + (d == (int)rank - 1 && strided ? 3 : 0);
        b->count *= sizes[d];
    }
    b->buffer.DataType = type;
    b->buffer.DimensionCount = rank;
    b->buffer.Sizes = b->sizes;
    b->buffer.Strides = strides || strided ? b->strides : NULL;
    b->buffer.TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(type, rank, b->sizes, b->buffer.Strides);
    b->desc = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, &b->buffer};
    b->bytes = b->buffer.TotalTensorSizeInBytes;
    b->data = malloc(b->bytes);
    cr_assert(b->data);
    memset(b->data, 0xA5, b->bytes); /* poison: padding must survive, outputs be written */
}

/* The byte offset of logical (packed row-major) element i. */
static uint64_t buf_at(const buf *b, uint64_t i)
{
    uint64_t off = 0;
    for (int d = (int)b->rank - 1; d >= 0; --d) {
        off += (i % b->sizes[d]) * b->strides[d];
        i /= b->sizes[d];
    }
    return off * type_bytes(b->type);
}

static void buf_set(buf *b, uint64_t i, double v)
{
    unsigned char *p = b->data + buf_at(b, i);
    switch (b->type) {
    case DML_TENSOR_DATA_TYPE_INT8: *(int8_t *)p = (int8_t)v; break;
    case DML_TENSOR_DATA_TYPE_UINT8: *(uint8_t *)p = (uint8_t)v; break;
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h = ref_half_from_double(v);
        memcpy(p, &h, 2);
        break;
    }
    default: {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
    }
}

static double buf_get(const buf *b, uint64_t i)
{
    const unsigned char *p = b->data + buf_at(b, i);
    switch (b->type) {
    case DML_TENSOR_DATA_TYPE_INT8: return *(const int8_t *)p;
    case DML_TENSOR_DATA_TYPE_UINT8: return *(const uint8_t *)p;
    case DML_TENSOR_DATA_TYPE_INT32: {
        int32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return ref_half_to_double(h);
    }
    default: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    }
}

static int32_t type_min(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 ? -128 : 0;
}

static int32_t type_max(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 ? 127 : 255;
}

static int32_t random_int8(ref_rng *rng, DML_TENSOR_DATA_TYPE t)
{
    return (int32_t)ref_rng_range(rng, type_min(t), type_max(t));
}

static bool is_conv(const imm_case *c)
{
    return c->kind == CI || c->kind == QLC;
}

/* The output's coordinates {D0, D1, D2, D3}. */
static void out_dims(const imm_case *c, uint32_t d[4])
{
    if (is_conv(c)) {
        const uint32_t v[4] = {c->cv.batch, c->cv.cout, c->cv.oh, c->cv.ow};
        memcpy(d, v, sizeof v);
    } else {
        memcpy(d, c->d, 4 * sizeof *d);
    }
}

/* An auxiliary tensor's logical element at output coordinate o. */
static uint64_t aux_index(const imm_case *c, const aux *x, const uint32_t o[4])
{
    uint32_t d[4];
    out_dims(c, d);
    uint64_t i = 0;
    for (int k = 0; k < 4; ++k)
        i = i * ((x->vary >> k) & 1 ? d[k] : 1) + ((x->vary >> k) & 1 ? o[k] : 0);
    if (x->output_sized) { /* every coordinate is a dimension of it */
        i = 0;
        for (int k = 0; k < 4; ++k)
            i = i * d[k] + o[k];
    }
    return i;
}

static void make_aux(const imm_case *c, int role, DML_TENSOR_DATA_TYPE type, buf *b)
{
    const aux *x = &c->x[role];
    uint32_t d[4], sizes[4], strides[4];
    out_dims(c, d);
    uint32_t rank = x->rank ? x->rank : 4;
    if (x->output_sized) {
        uint32_t s = 1;
        for (int k = 3; k >= 0; --k) {
            strides[k] = (x->vary >> k) & 1 ? s : 0;
            s *= (x->vary >> k) & 1 ? d[k] : 1;
        }
        buf_make(b, type, 4, d, strides, false);
        return;
    }
    for (int k = 0; k < 4; ++k)
        sizes[k] = (x->vary >> k) & 1 ? d[k] : 1;
    if (is_conv(c) && rank == 1)
        sizes[3] = sizes[1]; /* a 1-dimensional channel vector {Cout} */
    buf_make(b, type, rank, sizes + 4 - rank, NULL, false);
}

/* Descriptor-order roles per kind (the pages' member order). */
static const int order_mmi[] = {A, AZP, B, BZP};
static const int order_qlmm[] = {A, AS, AZP, B, BS, BZP, OS, OZP};
static const int order_mmitf[] = {A, AS, AZP, B, BS, BZP, BIAS};
static const int order_qlc[] = {A, AS, AZP, B, BS, BZP, BIAS, OS, OZP};

static void run_case(imm_case *c)
{
    ref_rng rng = ref_rng_make(ref_test_seed(0x494d4d));
    const bool conv = is_conv(c);
    uint32_t od[4];
    out_dims(c, od);
    buf t[ROLES];
    bool present[ROLES] = {0};
    present[A] = present[B] = present[OUT] = true;
    for (int r = AZP; r <= BIAS; ++r)
        present[r] = c->x[r].present;
    /* A, B and the output. */
    uint32_t as[4], bs[4], bstr[4];
    const uint32_t r0 = 4 - c->rank;
    if (conv) {
        const uint32_t sp = c->rank - 2;
        const uint32_t x4[4] = {c->cv.batch, c->cv.cin, c->cv.ih, c->cv.iw};
        const uint32_t w4[4] = {c->cv.cout, c->cv.cin / c->cv.groups, c->cv.kh, c->cv.kw};
        const uint32_t o4[4] = {od[0], od[1], od[2], od[3]};
        uint32_t xs[4] = {x4[0], x4[1], x4[2], x4[3]}, ws[4] = {w4[0], w4[1], w4[2], w4[3]},
                 os[4] = {o4[0], o4[1], o4[2], o4[3]};
        if (sp == 1) { /* {N, C, W} */
            xs[2] = x4[3];
            ws[2] = w4[3];
            os[2] = o4[3];
        }
        const uint32_t nhwc[4] = {x4[1] * x4[2] * x4[3], 1, x4[3] * x4[1], x4[1]};
        buf_make(&t[A], c->ta, c->rank, xs, c->nhwc && sp == 2 ? nhwc : NULL, c->strided);
        buf_make(&t[B], c->tb, c->rank, ws, NULL, c->strided);
        buf_make(&t[OUT], c->to, c->rank, os, NULL, c->strided);
    } else {
        const uint32_t a4[4] = {c->d[0], c->d[1], c->d[2], c->k};
        const uint32_t b4[4] = {c->d[0], c->d[1], c->k, c->d[3]};
        memcpy(as, a4 + r0, c->rank * sizeof *as);
        memcpy(bs, b4 + r0, c->rank * sizeof *bs);
        if (c->a_transposed) { /* M innermost in memory */
            uint32_t astr[4], s = 1;
            astr[c->rank - 1] = c->d[2];
            astr[c->rank - 2] = 1;
            s = c->d[2] * c->k;
            for (int d = (int)c->rank - 3; d >= 0; --d) {
                astr[d] = s;
                s *= as[d];
            }
            buf_make(&t[A], c->ta, c->rank, as, astr, false);
        } else {
            buf_make(&t[A], c->ta, c->rank, as, NULL, c->strided);
        }
        if (c->b_transposed) { /* K innermost in memory */
            uint32_t s = 1;
            bstr[c->rank - 2] = 1;
            s = c->k;
            bstr[c->rank - 1] = s;
            s *= c->d[3];
            for (int d = (int)c->rank - 3; d >= 0; --d) {
                bstr[d] = s;
                s *= bs[d];
            }
            buf_make(&t[B], c->tb, c->rank, bs, bstr, false);
        } else {
            buf_make(&t[B], c->tb, c->rank, bs, NULL, c->strided);
        }
        buf_make(&t[OUT], c->to, c->rank, od + r0, NULL, c->strided);
    }
    for (uint64_t i = 0; i < t[A].count; ++i)
        buf_set(&t[A], i,
                c->fill == 1 ? type_min(c->ta)
                : c->fill ? ref_rng_range(&rng, 0, 6) - (c->ta == DML_TENSOR_DATA_TYPE_INT8 ? 3 : 0)
                          : random_int8(&rng, c->ta));
    for (uint64_t i = 0; i < t[B].count; ++i)
        buf_set(&t[B], i,
                c->fill == 1 ? type_max(c->tb)
                : c->fill ? ref_rng_range(&rng, 0, 6) - (c->tb == DML_TENSOR_DATA_TYPE_INT8 ? 3 : 0)
                          : random_int8(&rng, c->tb));
    /* Zero points, scales, bias. */
    const DML_TENSOR_DATA_TYPE ft = c->kind == MMITF ? c->to : DML_TENSOR_DATA_TYPE_FLOAT32;
    const double k_eff = conv ? (double)c->cv.cin / c->cv.groups * c->cv.kh * c->cv.kw : c->k;
    for (int r = AZP; r <= BIAS; ++r) {
        if (!present[r])
            continue;
        DML_TENSOR_DATA_TYPE type = r == AZP ? c->ta : r == BZP ? c->tb : r == OZP ? c->to : ft;
        if (r == BIAS && c->kind == QLC)
            type = DML_TENSOR_DATA_TYPE_INT32;
        make_aux(c, r, type, &t[r]);
        for (uint64_t i = 0; i < t[r].count; ++i) {
            double v;
            if (c->fill == 2 && r != BIAS)
                v = r == OS ? 2.0 : r == AS || r == BS ? 1.0 : r == OZP ? type_min(type) + 100 : 0;
            else if (r == AZP || r == BZP || r == OZP)
                v = c->fill ? (r == AZP ? type_max(type) : 0) : random_int8(&rng, type);
            else if (r == BIAS)
                v = type == DML_TENSOR_DATA_TYPE_INT32
                        ? (double)ref_rng_range(&rng, c->fill == 2 ? -9 : -65536,
                                                c->fill == 2 ? 9 : 65536)
                        : ref_rng_range(&rng, -4096, 4096) / 1024.0;
            else if (r == OS) /* the sums' spread (about 5500 sqrt(K) x the scales) over 64 */
                v = c->pow2 ? 0.17 * sqrt(k_eff) * ldexp(1.0, (int)ref_rng_range(&rng, -1, 1))
                            : (0.1 + ref_rng_below(&rng, 1000) * 1e-4) * sqrt(k_eff);
            else
                v = c->pow2 ? ldexp(1.0, -(int)ref_rng_range(&rng, 3, 6))
                            : 0.02 + ref_rng_below(&rng, 1u << 16) * 1e-6;
            if (r == OS && c->pow2) /* a power of two */
                v = ldexp(1.0, (int)floor(log2(v)));
            buf_set(&t[r], i, v);
        }
    }
    /* The operator. */
#define TD(r) (present[r] ? &t[r].desc : NULL)
    const UINT strides[2] = {c->cv.stride[0], c->cv.stride[1]};
    const UINT dil[2] = {c->cv.dilation[0], c->cv.dilation[1]};
    UINT start[2] = {c->cv.pad[0], c->cv.pad[1]}, end[2] = {0, 0};
    const uint32_t sp = conv ? c->rank - 2 : 0;
    /* EndPadding: whatever the output size leaves (the rule's floor). */
    const uint32_t ins[2] = {c->cv.ih, c->cv.iw}, ks[2] = {c->cv.kh, c->cv.kw},
                   outs[2] = {c->cv.oh, c->cv.ow};
    for (int j = 0; j < 2; ++j) {
        const int64_t window = (int64_t)(ks[j] - 1) * (j ? dil[1] : dil[0]) + 1;
        const int64_t need = (int64_t)(outs[j] - 1) * (j ? strides[1] : strides[0]) + window;
        const int64_t have = ins[j] + start[j];
        end[j] = need > have ? (UINT)(need - have) : 0;
    }
    const UINT *st = sp == 1 ? strides + 1 : strides, *di = sp == 1 ? dil + 1 : dil;
    const UINT *sa = sp == 1 ? start + 1 : start, *ea = sp == 1 ? end + 1 : end;
    DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC mmi = {TD(A), TD(AZP), TD(B), TD(BZP), TD(OUT)};
    DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC qlmm = {
        TD(A), TD(AS), TD(AZP), TD(B), TD(BS), TD(BZP), TD(OS), TD(OZP), TD(OUT)};
    DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC mmitf = {TD(A),  TD(AS),  TD(AZP),  TD(B),
                                                                TD(BS), TD(BZP), TD(BIAS), TD(OUT)};
    DML_CONVOLUTION_INTEGER_OPERATOR_DESC ci = {TD(A), TD(AZP), TD(B), TD(BZP), TD(OUT),     sp,
                                                st,    di,      sa,    ea,      c->cv.groups};
    DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC qlc = {
        TD(A),   TD(AS),  TD(AZP), TD(B), TD(BS), TD(BZP), TD(BIAS), TD(OS),
        TD(OZP), TD(OUT), sp,      st,    di,     sa,      ea,       c->cv.groups};
#undef TD
    DML_OPERATOR_DESC op;
    const int *order;
    UINT n_in;
    switch (c->kind) {
    case MMI:
        op = (DML_OPERATOR_DESC){DML_OPERATOR_MATRIX_MULTIPLY_INTEGER, &mmi};
        order = order_mmi, n_in = 4;
        break;
    case QLMM:
        op = (DML_OPERATOR_DESC){DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY, &qlmm};
        order = order_qlmm, n_in = 8;
        break;
    case MMITF:
        op = (DML_OPERATOR_DESC){DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT, &mmitf};
        order = order_mmitf, n_in = 7;
        break;
    case CI:
        op = (DML_OPERATOR_DESC){DML_OPERATOR_CONVOLUTION_INTEGER, &ci};
        order = order_mmi, n_in = 4;
        break;
    default:
        op = (DML_OPERATOR_DESC){DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION, &qlc};
        order = order_qlc, n_in = 9;
    }
    dmlcl_host_tensor hin[9], hout = {t[OUT].data, t[OUT].bytes};
    for (UINT i = 0; i < n_in; ++i)
        hin[i] = present[order[i]] ? (dmlcl_host_tensor){t[order[i]].data, t[order[i]].bytes}
                                   : (dmlcl_host_tensor){NULL, 0};
    unsigned char *before = malloc(t[OUT].bytes);
    cr_assert(before);
    memcpy(before, t[OUT].data, t[OUT].bytes);
    ops_execute_on_host(c->name, &op, n_in, hin, hout);

    /* The oracle's sums. */
    const uint64_t outs_n = (uint64_t)od[0] * od[1] * od[2] * od[3];
    int64_t *sum = calloc(outs_n, sizeof *sum);
    cr_assert(sum);
    uint32_t o[4];
    if (conv) {
        int32_t *x = malloc(t[A].count * 4), *w = malloc(t[B].count * 4);
        int32_t *zw = malloc(od[1] * 4);
        cr_assert(x && w && zw);
        for (uint64_t i = 0; i < t[A].count; ++i)
            x[i] = (int32_t)buf_get(&t[A], i);
        for (uint64_t i = 0; i < t[B].count; ++i)
            w[i] = (int32_t)buf_get(&t[B], i);
        const uint32_t zero[4] = {0, 0, 0, 0};
        const int32_t zx =
            present[AZP] ? (int32_t)buf_get(&t[AZP], aux_index(c, &c->x[AZP], zero)) : 0;
        for (uint32_t co = 0; co < od[1]; ++co) {
            const uint32_t oc[4] = {0, co, 0, 0};
            zw[co] = present[BZP] ? (int32_t)buf_get(&t[BZP], aux_index(c, &c->x[BZP], oc)) : 0;
        }
        ref_intmm_conv(&c->cv, x, zx, w, zw, sum);
        free(x), free(w), free(zw);
    } else {
        const uint64_t q = (uint64_t)od[0] * od[1];
        int32_t *a = malloc(t[A].count * 4), *b = malloc(t[B].count * 4);
        int32_t *za = malloc(q * od[2] * 4), *zb = malloc(q * od[3] * 4);
        cr_assert(a && b && za && zb);
        for (uint64_t i = 0; i < t[A].count; ++i)
            a[i] = (int32_t)buf_get(&t[A], i);
        for (uint64_t i = 0; i < t[B].count; ++i)
            b[i] = (int32_t)buf_get(&t[B], i);
        for (o[0] = 0; o[0] < od[0]; ++o[0])
            for (o[1] = 0; o[1] < od[1]; ++o[1])
                for (o[2] = 0; o[2] < od[2]; ++o[2])
                    for (o[3] = 0; o[3] < od[3]; ++o[3]) {
                        const uint64_t qq = (uint64_t)o[0] * od[1] + o[1];
                        if (present[AZP])
                            za[qq * od[2] + o[2]] =
                                (int32_t)buf_get(&t[AZP], aux_index(c, &c->x[AZP], o));
                        if (present[BZP])
                            zb[qq * od[3] + o[3]] =
                                (int32_t)buf_get(&t[BZP], aux_index(c, &c->x[BZP], o));
                    }
        ref_intmm_product(q, od[2], c->k, od[3], a, b, present[AZP] ? za : NULL,
                          present[BZP] ? zb : NULL, sum);
        free(a), free(b), free(za), free(zb);
    }
    /* The epilogue, element by element. */
    uint64_t i = 0, ties = 0;
    for (o[0] = 0; o[0] < od[0]; ++o[0])
        for (o[1] = 0; o[1] < od[1]; ++o[1])
            for (o[2] = 0; o[2] < od[2]; ++o[2])
                for (o[3] = 0; o[3] < od[3]; ++o[3], ++i) {
                    const double got = buf_get(&t[OUT], i);
#define AUXV(r) buf_get(&t[r], aux_index(c, &c->x[r], o))
                    if (c->kind == MMI || c->kind == CI) {
                        const int32_t want = ref_intmm_wrap(sum[i]);
                        cr_assert_eq((int32_t)got, want,
                                     "%s: output %llu {%u,%u,%u,%u}: got %d, want %d", c->name,
                                     (unsigned long long)i, o[0], o[1], o[2], o[3], (int32_t)got,
                                     want);
                    } else if (c->kind == QLMM || c->kind == QLC) {
                        const int64_t with_bias =
                            sum[i] + (present[BIAS] ? (int64_t)AUXV(BIAS) : 0);
                        bool tie = false;
                        const int32_t want = ref_requantize(
                            ref_intmm_wrap(with_bias), (float)AUXV(AS), (float)AUXV(BS),
                            (float)AUXV(OS), present[OZP] ? (int32_t)AUXV(OZP) : 0, type_min(c->to),
                            type_max(c->to), &tie);
                        const bool loose = tie && !c->pow2;
                        ties += loose;
                        cr_assert(got == want || (loose && fabs(got - want) <= 1),
                                  "%s: output %llu {%u,%u,%u,%u}: got %g, want %d (sum %lld)",
                                  c->name, (unsigned long long)i, o[0], o[1], o[2], o[3], got, want,
                                  (long long)with_bias);
                    } else {
                        const double prod = (double)ref_intmm_wrap(sum[i]) * AUXV(AS) * AUXV(BS);
                        const double bias = present[BIAS] ? AUXV(BIAS) : 0.0;
                        const double want = prod + bias;
                        double tol = ldexp(fabs(prod) + fabs(bias), -22);
                        if (c->to == DML_TENSOR_DATA_TYPE_FLOAT16)
                            tol += ldexp(fabs(want), -11) + ldexp(1.0, -24);
                        cr_assert(fabs(got - want) <= tol,
                                  "%s: output %llu {%u,%u,%u,%u}: got %.9g, want %.9g (tolerance "
                                  "%.3g)",
                                  c->name, (unsigned long long)i, o[0], o[1], o[2], o[3], got, want,
                                  tol);
                    }
#undef AUXV
                }
    cr_expect(ties <= outs_n / 64 + 1, "%s: %llu of %llu outputs near a tie", c->name,
              (unsigned long long)ties, (unsigned long long)outs_n);
    /* Padding untouched: every byte outside the logical elements as before. */
    unsigned char *mask = calloc(t[OUT].bytes, 1);
    cr_assert(mask);
    for (uint64_t e = 0; e < t[OUT].count; ++e)
        memset(mask + buf_at(&t[OUT], e), 1, type_bytes(c->to));
    for (uint64_t byte = 0; byte < t[OUT].bytes; ++byte)
        cr_assert(mask[byte] || t[OUT].data[byte] == before[byte],
                  "%s: output byte %llu outside every element was written", c->name,
                  (unsigned long long)byte);
    free(mask);
    free(before);
    free(sum);
    for (int r = 0; r < ROLES; ++r)
        if (present[r])
            free(t[r].data);
}

#define I8 DML_TENSOR_DATA_TYPE_INT8
#define U8 DML_TENSOR_DATA_TYPE_UINT8
#define I32 DML_TENSOR_DATA_TYPE_INT32
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define AX(v)             \
    {                     \
        true, v, 0, false \
    }
#define AXR(v, r)         \
    {                     \
        true, v, r, false \
    }
#define AXO(v)           \
    {                    \
        true, v, 0, true \
    }

/* ---- MATRIX_MULTIPLY_INTEGER ---------------------------------------------------------------- */

Test(intmm, mmi_batched_no_zero_points)
{
    imm_case c = {.name = "mmi batched",
                  .kind = MMI,
                  .ta = I8,
                  .tb = I8,
                  .to = I32,
                  .rank = 4,
                  .d = {2, 3, 5, 9},
                  .k = 7};
    run_case(&c);
}

Test(intmm, mmi_per_tensor_zero_points_rank2)
{
    imm_case c = {.name = "mmi per tensor",
                  .kind = MMI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 2,
                  .d = {1, 1, 17, 13},
                  .k = 33};
    c.x[AZP] = (aux)AX(0);
    c.x[BZP] = (aux)AX(0);
    run_case(&c);
}

Test(intmm, mmi_per_row_column_strided)
{
    imm_case c = {.name = "mmi per row/column strided",
                  .kind = MMI,
                  .ta = I8,
                  .tb = U8,
                  .to = I32,
                  .rank = 3,
                  .d = {1, 2, 11, 10},
                  .k = 19,
                  .strided = true};
    c.x[AZP] = (aux)AX(VM);
    c.x[BZP] = (aux)AX(VN);
    run_case(&c);
}

Test(intmm, mmi_transposed_b_batched_zero_points)
{
    imm_case c = {.name = "mmi B transposed",
                  .kind = MMI,
                  .ta = U8,
                  .tb = U8,
                  .to = I32,
                  .rank = 4,
                  .d = {2, 2, 6, 9},
                  .k = 12,
                  .b_transposed = true};
    c.x[AZP] = (aux)AX(V0 | V1 | VM); /* ONNX's {D1, D2, M, 1} */
    c.x[BZP] = (aux)AXR(VN, 1);       /* {N} */
    run_case(&c);
}

/* (-128 - 127) x 127 x 70000 wraps past INT32's range (ONNX: the accumulation may overflow). */
Test(intmm, mmi_int32_wrap)
{
    imm_case c = {.name = "mmi wrap",
                  .kind = MMI,
                  .ta = I8,
                  .tb = I8,
                  .to = I32,
                  .rank = 2,
                  .d = {1, 1, 1, 3},
                  .k = 70000,
                  .fill = 1};
    c.x[AZP] = (aux)AX(0);
    run_case(&c);
}

/* c with the blocks' vector width the device's (16 on AVX-512), then 8 and 4 (AVX2's and
 * SSE's or NEON's, DMLCL_TUNING's intmm_vw): the blocks' other variants on this machine. */
static void run_each_width(imm_case *c)
{
    static const char *const widths[] = {NULL, "intmm_vw=8", "intmm_vw=4"};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i) {
        char *saved = widths[i] ? ops_tuning_set(widths[i]) : NULL;
        run_case(c);
        if (widths[i])
            ops_tuning_restore(saved);
    }
}

/* Products large enough for CPUs' blocks (cl/intmm.cl intmm_blocks): whole blocks of up to 64
 * columns and a last partial one, rows past a block of 4, K in several chunks of 256 with a tail
 * shorter than a vector; A read along k by unit strides and, transposed, by M's. */
Test(intmm, mmi_blocks_chunks_partial)
{
    imm_case c = {.name = "mmi blocks",
                  .kind = MMI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 3,
                  .d = {1, 2, 37, 150},
                  .k = 600};
    c.x[AZP] = (aux)AX(VM);
    c.x[BZP] = (aux)AX(VN);
    run_each_width(&c);
    c.name = "mmi blocks, A transposed";
    c.a_transposed = true;
    c.ta = I8, c.tb = U8;
    c.d[2] = 9, c.d[3] = 131, c.k = 270;
    run_case(&c);
}

/* Products large enough for GPUs' tiles (cl/intmm.cl intmm_tiles) and small enough for
 * Oclgrind: a partial tile along both sides, K = 300 (a fold of the float sums after 256 and a
 * partial last step), per-row and per-column zero points, A transposed (staged along m); every
 * product at its extreme (-255 x 255: a float sum of more than 256 of them would round); then
 * requantized with per-column scales. On CPUs the same products take intmm_blocks. */
Test(intmm, mmi_tiles)
{
    imm_case c = {.name = "mmi tiles",
                  .kind = MMI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 3,
                  .d = {1, 2, 21, 37},
                  .k = 300};
    c.x[AZP] = (aux)AX(VM);
    c.x[BZP] = (aux)AX(VN);
    run_case(&c);
    c.name = "mmi tiles, A transposed, extremes";
    c.a_transposed = true;
    c.fill = 1;
    c.ta = I8, c.tb = U8;
    c.x[AZP] = (aux)AX(0);
    c.x[BZP] = (aux){0};
    run_case(&c);
    imm_case q = {.name = "qlmm tiles",
                  .kind = QLMM,
                  .ta = U8,
                  .tb = I8,
                  .to = U8,
                  .rank = 2,
                  .d = {1, 1, 19, 33},
                  .k = 70};
    q.x[AS] = (aux)AX(0);
    q.x[AZP] = (aux)AX(0);
    q.x[BS] = (aux)AX(VN);
    q.x[BZP] = (aux)AX(VN);
    q.x[OS] = (aux)AX(0);
    q.x[OZP] = (aux)AX(0);
    run_case(&q);
}

/* ---- QUANTIZED_LINEAR_MATRIX_MULTIPLY ------------------------------------------------------- */

Test(intmm, qlmm_pow2_scales_exact_ties)
{
    imm_case c = {.name = "qlmm pow2",
                  .kind = QLMM,
                  .ta = I8,
                  .tb = U8,
                  .to = I8,
                  .rank = 4,
                  .d = {2, 1, 7, 10},
                  .k = 16,
                  .pow2 = true};
    c.x[AS] = (aux)AX(0);
    c.x[AZP] = (aux)AX(0);
    c.x[BS] = (aux)AX(VN);
    c.x[BZP] = (aux)AX(VN);
    c.x[OS] = (aux)AX(0);
    c.x[OZP] = (aux)AX(0);
    run_case(&c);
}

/* Sums / 2 in range: every odd sum a tie, which rounds to even. */
Test(intmm, qlmm_ties_half_to_even)
{
    imm_case c = {.name = "qlmm ties",
                  .kind = QLMM,
                  .ta = I8,
                  .tb = U8,
                  .to = I8,
                  .rank = 2,
                  .d = {1, 1, 16, 16},
                  .k = 3,
                  .pow2 = true,
                  .fill = 2};
    c.x[AS] = (aux)AX(0);
    c.x[BS] = (aux)AX(0);
    c.x[BZP] = (aux)AX(0);
    c.x[OS] = (aux)AX(0);
    c.x[OZP] = (aux)AX(0);
    run_case(&c);
    c.name = "qlc ties";
    c.kind = QLC;
    c.ta = U8, c.tb = I8, c.to = U8, c.rank = 4;
    c.cv = (ref_intconv_desc){.batch = 1,
                              .cin = 2,
                              .ih = 5,
                              .iw = 5,
                              .cout = 3,
                              .kh = 2,
                              .kw = 2,
                              .groups = 1,
                              .oh = 4,
                              .ow = 4,
                              .stride = {1, 1},
                              .dilation = {1, 1}};
    c.x[BIAS] = (aux)AX(V1);
    run_case(&c);
}

Test(intmm, qlmm_per_row_column_uint8)
{
    imm_case c = {.name = "qlmm per row/column",
                  .kind = QLMM,
                  .ta = U8,
                  .tb = I8,
                  .to = U8,
                  .rank = 2,
                  .d = {1, 1, 13, 21},
                  .k = 40,
                  .strided = true};
    c.x[AS] = (aux)AXR(VM, 2);
    c.x[AZP] = (aux)AXR(VM, 2);
    c.x[BS] = (aux)AXR(VN, 1);
    c.x[OS] = (aux)AX(VM);
    c.x[OZP] = (aux)AX(VM);
    run_case(&c);
}

Test(intmm, qlmm_no_zero_points_rank3)
{
    imm_case c = {.name = "qlmm no zero points",
                  .kind = QLMM,
                  .ta = I8,
                  .tb = I8,
                  .to = I8,
                  .rank = 3,
                  .d = {1, 3, 4, 5},
                  .k = 9};
    c.x[AS] = (aux)AXR(0, 1);
    c.x[BS] = (aux)AXR(0, 1);
    c.x[OS] = (aux)AXR(0, 1);
    run_case(&c);
}

/* The blocks' epilogues: per-tensor scales and zero points (one factor a row), and per-column
 * scales with padded rows (an output at a time). */
Test(intmm, qlmm_blocks_epilogues)
{
    imm_case c = {.name = "qlmm blocks per tensor",
                  .kind = QLMM,
                  .ta = U8,
                  .tb = I8,
                  .to = U8,
                  .rank = 2,
                  .d = {1, 1, 21, 70},
                  .k = 300};
    c.x[AS] = (aux)AX(0);
    c.x[AZP] = (aux)AX(0);
    c.x[BS] = (aux)AX(0);
    c.x[BZP] = (aux)AX(0);
    c.x[OS] = (aux)AX(0);
    c.x[OZP] = (aux)AX(0);
    run_case(&c);
    c.name = "qlmm blocks per column, strided";
    c.strided = true;
    c.to = I8;
    c.d[2] = 6, c.d[3] = 80, c.k = 257;
    c.x[BS] = (aux)AXR(VN, 1);
    c.x[BZP] = (aux)AXR(VN, 1);
    run_case(&c);
}

/* ---- MATRIX_MULTIPLY_INTEGER_TO_FLOAT ------------------------------------------------------- */

/* ONNX Runtime's form: A's scale and zero point {1, 1, M, 1}, B's {N} (1-dimensional, per
 * column), the bias {N} broadcast as the output's sizes with 0 strides. */
Test(intmm, mmitf_float32_onnxruntime_form)
{
    imm_case c = {.name = "mmitf f32",
                  .kind = MMITF,
                  .ta = U8,
                  .tb = I8,
                  .to = F32,
                  .rank = 4,
                  .d = {1, 2, 9, 11},
                  .k = 24};
    c.x[AS] = (aux)AX(VM);
    c.x[AZP] = (aux)AX(VM);
    c.x[BS] = (aux)AXR(VN, 1);
    c.x[BZP] = (aux)AXR(VN, 1);
    c.x[BIAS] = (aux)AXO(VN);
    run_case(&c);
}

/* MATRIX_MULTIPLY_INTEGER_TO_FLOAT through the blocks, with a bias a column. */
Test(intmm, mmitf_blocks_bias)
{
    imm_case c = {.name = "mmitf blocks",
                  .kind = MMITF,
                  .ta = U8,
                  .tb = I8,
                  .to = F32,
                  .rank = 2,
                  .d = {1, 1, 5, 70},
                  .k = 260};
    c.x[AS] = (aux)AX(VM);
    c.x[AZP] = (aux)AX(VM);
    c.x[BS] = (aux)AXR(VN, 1);
    c.x[BZP] = (aux)AXR(VN, 1);
    c.x[BIAS] = (aux)AXO(VN);
    run_case(&c);
}

Test(intmm, mmitf_float16_per_tensor)
{
    imm_case c = {.name = "mmitf f16",
                  .kind = MMITF,
                  .ta = I8,
                  .tb = U8,
                  .to = F16,
                  .rank = 2,
                  .d = {1, 1, 8, 6},
                  .k = 10,
                  .strided = true};
    c.x[AS] = (aux)AXR(0, 1);
    c.x[BS] = (aux)AXR(0, 1);
    c.x[BZP] = (aux)AXR(0, 1);
    c.x[BIAS] = (aux)AXR(VN, 2);
    run_case(&c);
}

Test(intmm, mmitf_no_bias_no_zero_points)
{
    imm_case c = {.name = "mmitf bare",
                  .kind = MMITF,
                  .ta = I8,
                  .tb = I8,
                  .to = F32,
                  .rank = 3,
                  .d = {1, 2, 3, 17},
                  .k = 5};
    c.x[AS] = (aux)AX(0);
    c.x[BS] = (aux)AX(VN);
    run_case(&c);
}

/* ---- CONVOLUTION_INTEGER -------------------------------------------------------------------- */

Test(intmm, ci_groups_padding_stride_dilation)
{
    imm_case c = {.name = "ci 2-D",
                  .kind = CI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 4,
                  .cv = {.batch = 2,
                         .cin = 4,
                         .ih = 9,
                         .iw = 8,
                         .cout = 6,
                         .kh = 3,
                         .kw = 2,
                         .groups = 2,
                         .stride = {2, 1},
                         .dilation = {1, 2},
                         .pad = {1, 1}},
                  .strided = true};
    c.cv.oh = (9 + 1 + 1 - 3) / 2 + 1;
    c.cv.ow = (8 + 1 + 0 - 3) / 1 + 1;
    c.x[AZP] = (aux)AX(0);
    c.x[BZP] = (aux)AX(V1);
    run_case(&c);
}

/* Convolutions large enough for CPUs' blocks (cl/intmm.cl intmm_conv_blocks): a whole block of
 * 64 columns (the padding's first and last columns masked) and a partial one, 288 taps (a chunk
 * of 256 and the rest), 8 output channels a block; then groups of 3 channels (a channel a block),
 * strides and dilations (every column masked), per-channel filter zero points. */
Test(intmm, ci_blocks)
{
    imm_case c = {.name = "ci blocks",
                  .kind = CI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 4,
                  .cv = {.batch = 2,
                         .cin = 32,
                         .ih = 5,
                         .iw = 70,
                         .cout = 8,
                         .kh = 3,
                         .kw = 3,
                         .groups = 1,
                         .stride = {1, 1},
                         .dilation = {1, 1},
                         .pad = {1, 1}}};
    c.cv.oh = 5;
    c.cv.ow = 70;
    c.x[AZP] = (aux)AX(0);
    c.x[BZP] = (aux)AX(V1);
    run_each_width(&c);
    c.name = "ci blocks grouped, strided";
    c.ta = I8, c.tb = U8;
    c.strided = true;
    c.cv = (ref_intconv_desc){.batch = 1,
                              .cin = 8,
                              .ih = 9,
                              .iw = 41,
                              .cout = 12,
                              .kh = 3,
                              .kw = 2,
                              .groups = 4,
                              .stride = {2, 2},
                              .dilation = {1, 3},
                              .pad = {1, 2}};
    c.cv.oh = (9 + 2 - 3) / 2 + 1;
    c.cv.ow = (41 + 2 + 0 - 4) / 2 + 1;
    run_case(&c);
}

/* Convolutions for CPUs' channel blocks (cl/intmm.cl intmm_conv_chan, at each vector width):
 * 40 output channels (a block of 32 and a partial one), rows of 21 columns (blocks of 8 and a
 * partial one), 64 input channels of 9 taps (576: sums folded after 28 channels, twice; then
 * with every product at its extreme); a
 * stem's 7 x 7 taps at stride 2 over 11 input channels (folds after 5); a runtime stride of 3
 * with dilation 2 along W, groups of 12 channels, the input channels innermost (each value read
 * alone) and a padded output; a filter of 16 x 16 taps (a fold a channel). Per-channel filter
 * zero points. */
Test(intmm, ci_chan)
{
    imm_case c = {.name = "ci chan",
                  .kind = CI,
                  .ta = U8,
                  .tb = I8,
                  .to = I32,
                  .rank = 4,
                  .cv = {.batch = 2,
                         .cin = 64,
                         .ih = 9,
                         .iw = 21,
                         .cout = 40,
                         .kh = 3,
                         .kw = 3,
                         .groups = 1,
                         .stride = {1, 1},
                         .dilation = {1, 1},
                         .pad = {1, 1}}};
    c.cv.oh = 9;
    c.cv.ow = 21;
    c.x[AZP] = (aux)AX(0);
    c.x[BZP] = (aux)AX(V1);
    run_each_width(&c);
    /* Every product -255 x 255 (odd): 576 of them pass 2^24, where a float sum of more than
     * 256 would round. */
    c.name = "ci chan extremes";
    c.fill = 1;
    c.ta = I8, c.tb = U8;
    c.cv.batch = 1, c.cv.ih = 3, c.cv.iw = 9;
    c.cv.oh = 3, c.cv.ow = 9;
    run_case(&c);
    c.fill = 0;
    c.name = "ci chan stem";
    c.ta = I8, c.tb = U8;
    c.cv = (ref_intconv_desc){.batch = 1,
                              .cin = 11,
                              .ih = 23,
                              .iw = 29,
                              .cout = 16,
                              .kh = 7,
                              .kw = 7,
                              .groups = 1,
                              .stride = {2, 2},
                              .dilation = {1, 1},
                              .pad = {3, 3}};
    c.cv.oh = (23 + 6 - 7) / 2 + 1;
    c.cv.ow = (29 + 6 - 7) / 2 + 1;
    run_each_width(&c);
    c.name = "ci chan stride 3, NHWC";
    c.nhwc = true;
    c.strided = true;
    c.cv = (ref_intconv_desc){.batch = 2,
                              .cin = 10,
                              .ih = 7,
                              .iw = 40,
                              .cout = 24,
                              .kh = 2,
                              .kw = 3,
                              .groups = 2,
                              .stride = {1, 3},
                              .dilation = {2, 2},
                              .pad = {1, 2}};
    c.cv.oh = (7 + 1 - 3) / 1 + 1;
    c.cv.ow = (40 + 2 - 5) / 3 + 1;
    run_case(&c);
    c.name = "ci chan 16 x 16 taps";
    c.nhwc = false;
    c.strided = false;
    c.cv = (ref_intconv_desc){.batch = 1,
                              .cin = 3,
                              .ih = 18,
                              .iw = 19,
                              .cout = 9,
                              .kh = 16,
                              .kw = 16,
                              .groups = 1,
                              .stride = {1, 1},
                              .dilation = {1, 1},
                              .pad = {0, 0}};
    c.cv.oh = 3;
    c.cv.ow = 4;
    run_case(&c);
}

Test(intmm, ci_one_spatial_dimension)
{
    imm_case c = {.name = "ci 1-D",
                  .kind = CI,
                  .ta = I8,
                  .tb = I8,
                  .to = I32,
                  .rank = 3,
                  .cv = {.batch = 1,
                         .cin = 3,
                         .ih = 1,
                         .iw = 13,
                         .cout = 5,
                         .kh = 1,
                         .kw = 4,
                         .groups = 1,
                         .stride = {1, 3},
                         .dilation = {1, 1},
                         .pad = {0, 2}}};
    c.cv.oh = 1;
    c.cv.ow = (13 + 2 - 4) / 3 + 1;
    c.x[BZP] = (aux)AXR(V1, 1);
    run_case(&c);
}

Test(intmm, ci_depthwise_uint8)
{
    imm_case c = {.name = "ci depthwise",
                  .kind = CI,
                  .ta = U8,
                  .tb = U8,
                  .to = I32,
                  .rank = 4,
                  .cv = {.batch = 1,
                         .cin = 5,
                         .ih = 6,
                         .iw = 7,
                         .cout = 5,
                         .kh = 3,
                         .kw = 3,
                         .groups = 5,
                         .stride = {1, 1},
                         .dilation = {1, 1},
                         .pad = {1, 1}}};
    c.cv.oh = 6;
    c.cv.ow = 6;
    c.x[AZP] = (aux)AXR(0, 1);
    c.x[BZP] = (aux)AXR(0, 1);
    run_case(&c);
}

/* ---- QUANTIZED_LINEAR_CONVOLUTION ----------------------------------------------------------- */

Test(intmm, qlc_per_channel_bias_pow2)
{
    imm_case c = {.name = "qlc per channel",
                  .kind = QLC,
                  .ta = U8,
                  .tb = I8,
                  .to = U8,
                  .rank = 4,
                  .cv = {.batch = 2,
                         .cin = 3,
                         .ih = 7,
                         .iw = 6,
                         .cout = 4,
                         .kh = 3,
                         .kw = 3,
                         .groups = 1,
                         .stride = {1, 2},
                         .dilation = {1, 1},
                         .pad = {1, 0}},
                  .pow2 = true};
    c.cv.oh = 7;
    c.cv.ow = (6 - 3) / 2 + 1;
    c.x[AS] = (aux)AX(0);
    c.x[AZP] = (aux)AX(0);
    c.x[BS] = (aux)AX(V1);
    c.x[BZP] = (aux)AX(V1);
    c.x[BIAS] = (aux)AX(V1);
    c.x[OS] = (aux)AX(0);
    c.x[OZP] = (aux)AX(0);
    run_case(&c);
}

/* QUANTIZED_LINEAR_CONVOLUTION on CPUs' channel blocks (intmm_conv_chan), as ONNX Runtime's
 * quantizer writes a ResNet's: per-channel filter scales, zero points and bias, the rest per
 * tensor (the epilogue's one factor a channel); then a 1 x 1 convolution at stride 2 over 300
 * input channels (a fold after 256), INT8 throughout. */
Test(intmm, qlc_chan)
{
    imm_case c = {.name = "qlc chan",
                  .kind = QLC,
                  .ta = U8,
                  .tb = I8,
                  .to = U8,
                  .rank = 4,
                  .cv = {.batch = 1,
                         .cin = 32,
                         .ih = 6,
                         .iw = 13,
                         .cout = 48,
                         .kh = 3,
                         .kw = 3,
                         .groups = 1,
                         .stride = {1, 1},
                         .dilation = {1, 1},
                         .pad = {1, 1}},
                  .pow2 = true};
    c.cv.oh = 6;
    c.cv.ow = 13;
    c.x[AS] = (aux)AX(0);
    c.x[AZP] = (aux)AX(0);
    c.x[BS] = (aux)AX(V1);
    c.x[BZP] = (aux)AX(V1);
    c.x[BIAS] = (aux)AX(V1);
    c.x[OS] = (aux)AX(0);
    c.x[OZP] = (aux)AX(0);
    run_each_width(&c);
    c.name = "qlc chan 1 x 1, stride 2";
    c.ta = I8, c.to = I8;
    c.pow2 = false;
    c.cv = (ref_intconv_desc){.batch = 2,
                              .cin = 300,
                              .ih = 5,
                              .iw = 11,
                              .cout = 20,
                              .kh = 1,
                              .kw = 1,
                              .groups = 1,
                              .stride = {2, 2},
                              .dilation = {1, 1},
                              .pad = {0, 0}};
    c.cv.oh = 3;
    c.cv.ow = 6;
    run_case(&c);
}

Test(intmm, qlc_random_scales_groups)
{
    imm_case c = {.name = "qlc groups",
                  .kind = QLC,
                  .ta = I8,
                  .tb = I8,
                  .to = I8,
                  .rank = 4,
                  .cv = {.batch = 1,
                         .cin = 6,
                         .ih = 5,
                         .iw = 9,
                         .cout = 9,
                         .kh = 2,
                         .kw = 3,
                         .groups = 3,
                         .stride = {1, 1},
                         .dilation = {2, 1},
                         .pad = {0, 1}},
                  .strided = true};
    c.cv.oh = 5 - 2;
    c.cv.ow = 9;
    c.x[AS] = (aux)AXR(0, 1);
    c.x[BS] = (aux)AXR(V1, 1);
    c.x[BIAS] = (aux)AXR(V1, 1);
    c.x[OS] = (aux)AXR(0, 1);
    run_case(&c);
}
