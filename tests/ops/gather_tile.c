/* SPDX-License-Identifier: MIT */
/*
 * gather_tile.c: gathers whose inner dimensions are a layout change (the
 * input read as NHWC from NCHW storage: the innermost output dimension is
 * far-strided in the input, the next one contiguous), the tiled indexed copy
 * on CPUs (cl/indexed.cl TRANSPOSE), on the device against the C reference
 * (ref_gather_ext.h), which knows nothing of tiles.
 *
 * Cases cover every element width (1, 2, 4, 8 and 16 bytes), every index
 * type, CLAMP / ZERO / ERROR with and without negative indices, gathers of
 * an outer and an inner row axis (DMLCL_GATHER1, one or two index
 * dimensions) and of index tuples (DMLCL_GATHER_ND2, two components), tile
 * edges off the tile (the narrow last tile of a line), runs that are and are
 * not whole 16-byte vectors and span one or several chunks (register blocks
 * and private tiles), padded inputs and outputs, guarded bindings at
 * non-zero offsets. Under ERROR a case with a bad index must fail the
 * dispatch with DMLCL_E_INDEX_OUT_OF_RANGE naming the reference's first
 * offending position, and still write only zeros and valid elements inside
 * the output binding. Every failure prints the seed and the case;
 * DMLCL_TEST_SEED replays a run, DMLCL_TEST_CASE=<n> runs one case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cases.h"
#include "harness.h"
#include "ref_gather_ext.h"

#define TILE_DEFAULT_SEED 0x646D6C636C54494Cull
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* One type per element width; the launch's tile is 64 bytes by 128. */
static const DML_TENSOR_DATA_TYPE types[] = {
    DML_TENSOR_DATA_TYPE_UINT8,       DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_INT64,       DML_TENSOR_DATA_TYPE_FLOAT64, DMLCL_TENSOR_DATA_TYPE_BFLOAT16,
    DMLCL_TENSOR_DATA_TYPE_COMPLEX128};
static const DML_TENSOR_DATA_TYPE index_types[] = {
    DML_TENSOR_DATA_TYPE_INT8,   DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32,  DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_INT64,  DML_TENSOR_DATA_TYPE_UINT64,
};
static const char *const policy_names[] = {"CLAMP", "ZERO", "ERROR"};

typedef enum tile_op { TILE_GATHER1, TILE_ND2 } tile_op;

typedef struct tile_case {
    const char *test;
    uint64_t seed;
    unsigned number;
    tile_op op;
    DML_TENSOR_DATA_TYPE type, index_type;
    size_t width;
    /* Input {a, b, w, c} stored as {a, c, b, w} (NCHW read as NHWC), w rows wp apart. */
    uint32_t in[4], wp;
    uint32_t axis, q, idx[2], out_rank, out[5], cpad;
    ref_policy policy;
    bool wrap;
    unsigned negative_percent, invalid_percent;
    ops_submit submit;
    ops_tensor input, indices, output;
    union {
        DMLCL_GATHER1_OPERATOR_DESC g1;
        DMLCL_GATHER_ND2_OPERATOR_DESC nd2;
    } d;
    DML_OPERATOR_DESC desc;
    ops_memory mem;
    int64_t bad;
} tile_case;

static ops_seed run_seed = OPS_SEED(TILE_DEFAULT_SEED);

/* Units of a tile along the input-contiguous dimension (src/launch.c). */
static uint32_t side_of(size_t width)
{
    return (uint32_t)(64 / width);
}

/*
 * The shape: w at least a tile and mostly not a whole number of tiles; c
 * (the run) whole 16-byte vectors or not, over one or two 128-byte chunks;
 * small: the smallest of each (for Oclgrind).
 */
static void shape(tile_case *c, ref_rng *rng, bool small)
{
    uint32_t side = side_of(c->width), vn = (uint32_t)(16 / c->width > 1 ? 16 / c->width : 1),
             chunk = (uint32_t)(128 / c->width);
    uint32_t w = side < 5 ? 5 : side;
    if (!small)
        w += (uint32_t)ref_rng_below(rng, side + side / 2 + 1);
    else
        w += ref_rng_chance(rng, 50) ? 3 : 0;
    uint32_t ch;
    if (ref_rng_chance(rng, 50))
        ch = vn * (small ? 1 : 1 + (uint32_t)ref_rng_below(rng, 2 * chunk / vn + 1));
    else
        ch = small ? 5 : 2 + (uint32_t)ref_rng_below(rng, 2 * chunk + 2);
    if (ch < 2)
        ch = 2; /* a run of one unit is no transpose */
    c->in[0] = 1 + (uint32_t)ref_rng_below(rng, small ? 1 : 2);
    c->in[1] = 1 + (uint32_t)ref_rng_below(rng, small ? 2 : 4);
    c->in[2] = w;
    c->in[3] = ch;
    c->wp = w + (ref_rng_chance(rng, 30) ? (uint32_t)ref_rng_below(rng, 4) : 0);
    c->cpad = ref_rng_chance(rng, 30) ? 1 + (uint32_t)ref_rng_below(rng, 3) : 0;
    if (c->op == TILE_ND2) {
        /* Tuples over (a, b): out {r, w, c}. */
        c->axis = 0;
        c->q = 2;
        c->idx[0] = 1 + (uint32_t)ref_rng_below(rng, small ? 2 : 4);
        c->idx[1] = 2;
        c->out_rank = 3;
        c->out[0] = c->idx[0];
        c->out[1] = w;
        c->out[2] = ch;
        return;
    }
    c->axis = (uint32_t)ref_rng_below(rng, 2);
    c->q = small ? 1 : 1 + (uint32_t)ref_rng_below(rng, 2);
    for (uint32_t j = 0; j < c->q; ++j)
        c->idx[j] = 1 + (uint32_t)ref_rng_below(rng, small ? 2 : 3);
    c->out_rank = 0;
    if (c->axis == 1)
        c->out[c->out_rank++] = c->in[0];
    for (uint32_t j = 0; j < c->q; ++j)
        c->out[c->out_rank++] = c->idx[j];
    if (c->axis == 0)
        c->out[c->out_rank++] = c->in[1];
    c->out[c->out_rank++] = w;
    c->out[c->out_rank++] = ch;
}

static void make_tensors(tile_case *c)
{
    const uint32_t *s = c->in;
    /* Storage {a, c, b, w}, rows of w padded to wp. */
    uint32_t is[4] = {s[3] * s[1] * c->wp, c->wp, 1, s[1] * c->wp};
    ops_tensor_init(&c->input, "InputTensor", false, c->type, 4, s, is, 0, 0);
    ops_tensor_init(&c->indices, "IndicesTensor", false, c->index_type, c->q, c->idx, NULL, 0, 0);
    /* Output packed, or its rows of c padded (no longer whole 16-byte vectors). */
    uint32_t os[5], stride = 1;
    for (int d = (int)c->out_rank - 1; d >= 0; --d) {
        os[d] = stride;
        stride *= c->out[d] + (d == (int)c->out_rank - 1 ? c->cpad : 0);
    }
    ops_tensor_init(&c->output, "OutputTensor", true, c->type, c->out_rank, c->out,
                    c->cpad ? os : NULL, 0, 0);
}

static void descs(tile_case *c)
{
    const DML_TENSOR_DESC *in = ops_tensor_desc(&c->input), *idx = ops_tensor_desc(&c->indices),
                          *out = ops_tensor_desc(&c->output);
    DMLCL_OUT_OF_RANGE_POLICY policy = (DMLCL_OUT_OF_RANGE_POLICY)c->policy;
    if (c->op == TILE_ND2) {
        c->d.nd2 = (DMLCL_GATHER_ND2_OPERATOR_DESC){in, idx, out, 4, 2, 0, policy};
        c->desc.Type = DMLCL_OPERATOR_GATHER_ND2;
    } else {
        c->d.g1 = (DMLCL_GATHER1_OPERATOR_DESC){in, idx, out, c->axis, c->q, 0, policy, c->wrap};
        c->desc.Type = DMLCL_OPERATOR_GATHER1;
    }
    c->desc.Desc = &c->d;
}

static void generate(tile_case *c, ref_rng *rng, bool force_error, bool small)
{
    size_t t = ref_rng_below(rng, COUNT_OF(types));
    c->type = types[t];
    c->width = ref_type_size(c->type);
    c->index_type = index_types[ref_rng_below(rng, COUNT_OF(index_types))];
    c->policy = force_error ? REF_ERROR : (ref_policy)ref_rng_below(rng, 3);
    c->wrap = c->op == TILE_ND2 || ref_rng_chance(rng, 75);
    shape(c, rng, small);
    c->negative_percent = ref_type_is_signed_int(c->index_type) ? 25 : 0;
    c->invalid_percent = force_error               ? (unsigned)ref_rng_range(rng, 10, 50)
                         : c->policy == REF_ERROR  ? 0
                         : ref_rng_chance(rng, 30) ? 0
                                                   : (unsigned)ref_rng_range(rng, 1, 40);
    make_tensors(c);
    c->submit = (ops_submit)ref_rng_below(rng, OPS_SUBMIT_COUNT);
    descs(c);
}

static uint64_t slots(const ops_tensor *t)
{
    return t->buffer.TotalTensorSizeInBytes / ref_type_size(t->buffer.DataType);
}

static void place_and_fill(tile_case *c, ref_rng *rng)
{
    memset(&c->mem, 0, sizeof c->mem);
    ops_memory_place(&c->mem, rng, &c->input, false);
    ops_memory_place(&c->mem, rng, &c->indices, ref_rng_chance(rng, 25));
    ops_memory_place(&c->mem, rng, &c->output, ref_rng_chance(rng, 25));
    ops_memory_alloc(&c->mem, rng);
    ops_fill_distinct(rng, c->type, ops_ptr(&c->mem, OPS_INIT, &c->input), slots(&c->input));
    unsigned char *idx = ops_ptr(&c->mem, OPS_INIT, &c->indices);
    uint64_t n = slots(&c->indices);
    /* The _error tests (ERROR with invalid indices drawn) want a bad index:
     * with a few indices none may come out bad, so the draw is repeated (up
     * to 8 times, every index drawn invalid the last time; 1- and 2-byte
     * index types keep the low bytes of a draw, which may be valid, and
     * some axes leave no invalid value to such a type). */
    bool want_bad = c->policy == REF_ERROR && c->invalid_percent > 0;
    for (int attempt = 0;; ++attempt) {
        unsigned invalid = want_bad && attempt == 7 ? 100 : c->invalid_percent;
        if (c->op == TILE_ND2) {
            /* Components alternate: a, b. */
            size_t w = ref_type_size(c->index_type);
            for (uint64_t k = 0; k < n; ++k)
                ops_fill_indices(rng, c->index_type, idx + k * w, 1, c->in[k % 2],
                                 c->negative_percent, invalid);
        } else {
            ops_fill_indices(rng, c->index_type, idx, n, c->in[c->axis], c->negative_percent,
                             invalid);
        }
        ops_memory_snapshot(&c->mem);
        ref_tensor in = ops_view(&c->mem, OPS_EXPECT, &c->input);
        ref_tensor x = ops_view(&c->mem, OPS_EXPECT, &c->indices);
        ref_tensor out = ops_view(&c->mem, OPS_EXPECT, &c->output);
        bool ok = c->op == TILE_ND2
                      ? ref_gather_nd(&in, &x, &out, 0, c->policy, &c->bad)
                      : ref_gather1(&in, &x, &out, c->axis, 0, c->policy, c->wrap, &c->bad);
        cr_assert(ok, "test bug: the reference rejected a generated case");
        if (!want_bad || c->bad >= 0 || attempt == 7)
            break;
    }
    ops_poison_output(&c->mem, &c->output);
}

static const char *describe(const tile_case *c, char *buf, size_t len)
{
    char head[512], in[512], idx[512], out[512];
    snprintf(buf, len,
             "%s\n"
             "  axis %u, input rows %u apart, output channels padded by %u; policy %s, wrap %d "
             "(first bad index %" PRId64 "); negative %u%%, invalid %u%%; submit %s\n"
             "  %s\n  %s\n  %s",
             ops_replay(head, sizeof head, c->op == TILE_ND2 ? "GATHER_ND2" : "GATHER1",
                        "gather_tile", c->test, c->number, c->seed),
             c->axis, c->wp, c->cpad, policy_names[c->policy], c->wrap, c->bad, c->negative_percent,
             c->invalid_percent, ops_submit_name(c->submit),
             ops_tensor_describe(&c->input, in, sizeof in),
             ops_tensor_describe(&c->indices, idx, sizeof idx),
             ops_tensor_describe(&c->output, out, sizeof out));
    return buf;
}

static void run(tile_case *c)
{
    static char what[4096], diff[4096], want[64];
    ops_tensor *inputs[2] = {&c->input, &c->indices}, *outputs[1] = {&c->output};
    ops_tensor *all[3] = {&c->input, &c->indices, &c->output};
    const char *stage = "";
    HRESULT hr = ops_run_device(&c->desc, &c->mem, inputs, 2, outputs, 1, c->submit, &stage);
    if (c->bad >= 0) {
        snprintf(want, sizeof want, "IndicesTensor element %" PRId64 " (", c->bad);
        cr_assert_eq(hr, DMLCL_E_INDEX_OUT_OF_RANGE, "%s\n  expected an index error at %s, got %s",
                     describe(c, what, sizeof what), want, dmlcl_hresult_name(hr));
        cr_assert(strstr(dmlcl_last_error(), want) != NULL, "%s\n  message \"%s\" lacks \"%s\"",
                  describe(c, what, sizeof what), dmlcl_last_error(), want);
        ops_download(&c->mem);
    } else {
        cr_assert(SUCCEEDED(hr), "%s\n  %s failed: %s: %s", describe(c, what, sizeof what), stage,
                  dmlcl_hresult_name(hr), dmlcl_last_error());
    }
    uint64_t bad = ops_compare(&c->mem, all, 3, diff, sizeof diff);
    cr_assert(bad == 0, "%s\n  %" PRIu64 " mismatches:%s", describe(c, what, sizeof what), bad,
              diff);
}

static void cases(const char *test, tile_op op, unsigned n, bool force_error, bool small)
{
    static tile_case c;
    long only = ops_only_case();
    bool verbose = ops_verbose();
    for (unsigned k = 0; k < ops_case_count(n); ++k) {
        if (only >= 0 && (unsigned long)only != k)
            continue;
        ref_rng rng = ops_case_rng(&run_seed, test, k);
        memset(&c, 0, sizeof c);
        c.test = test;
        c.seed = ops_base_seed(&run_seed);
        c.number = k;
        c.op = op;
        generate(&c, &rng, force_error, small);
        place_and_fill(&c, &rng);
        if (verbose) {
            static char what[4096];
            fprintf(stderr, "%s\n", describe(&c, what, sizeof what));
        }
        run(&c);
        ops_memory_release(&c.mem);
    }
}

OPS_DEVICE_SUITE(gather_tile);

Test(gather_tile, rows_of_a_layout_change)
{
    cases("rows_of_a_layout_change", TILE_GATHER1, 48, false, false);
}

Test(gather_tile, rows_of_a_layout_change_error)
{
    cases("rows_of_a_layout_change_error", TILE_GATHER1, 12, true, false);
}

Test(gather_tile, tuples_of_a_layout_change)
{
    cases("tuples_of_a_layout_change", TILE_ND2, 16, false, false);
}

Test(gather_tile, tuples_of_a_layout_change_error)
{
    cases("tuples_of_a_layout_change_error", TILE_ND2, 6, true, false);
}

/* The smallest of each: a tile and one more on a line, one 16-byte vector of run or 5 units. */
Test(gather_tile, small_tiles)
{
    cases("small_tiles", TILE_GATHER1, 12, false, true);
    cases("small_tiles_error", TILE_GATHER1, 4, true, true);
    cases("small_tuples", TILE_ND2, 4, false, true);
}
