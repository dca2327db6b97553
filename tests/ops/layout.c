/* SPDX-License-Identifier: MIT */
/*
 * Layout changes through ELEMENT_WISE_IDENTITY (NCHW <-> NHWC, padded NHWC,
 * 2-D transposes) at every element width: channel counts that are and are not
 * whole 16-byte vectors (register-block and private-tile transposes), one and
 * several run chunks, H*W on and off the tile (the narrow last tile), and
 * shapes under a tile (the general path). Expected values by plain nested
 * loops.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"

static const DML_TENSOR_DATA_TYPE types[] = {
    DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_INT64};
static const size_t widths[] = {1, 2, 4, 8};

/* NCHW input of {n,c,h,w} copied to an output with strides `os` (elements). */
static void check(DML_TENSOR_DATA_TYPE type, size_t eb, const UINT *sz, const UINT *os)
{
    UINT is[4] = {sz[1] * sz[2] * sz[3], sz[2] * sz[3], sz[3], 1};
    DML_BUFFER_TENSOR_DESC ib = {type, 0, 4, sz, is, DMLCalcBufferTensorSize(type, 4, sz, is), 0};
    DML_BUFFER_TENSOR_DESC ob = {type, 0, 4, sz, os, DMLCalcBufferTensorSize(type, 4, sz, os), 0};
    DML_TENSOR_DESC it = {DML_TENSOR_TYPE_BUFFER, &ib}, ot = {DML_TENSOR_TYPE_BUFFER, &ob};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {&it, &ot, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d};
    dmlcl_operator *op;
    dmlcl_compiled_operator *cop;
    cr_assert_eq(dmlcl_operator_create(ops_device(), &desc, &op), S_OK, "%s", dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(op, 0, &cop), S_OK, "%s", dmlcl_last_error());
    size_t in_bytes = (size_t)ib.TotalTensorSizeInBytes,
           out_bytes = (size_t)ob.TotalTensorSizeInBytes;
    unsigned char *in = malloc(in_bytes), *out = malloc(out_bytes), *want = malloc(out_bytes);
    for (size_t i = 0; i < in_bytes; ++i)
        in[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);
    memset(out, 0xA5, out_bytes);
    memset(want, 0xA5, out_bytes);
    for (UINT n = 0; n < sz[0]; ++n)
        for (UINT c = 0; c < sz[1]; ++c)
            for (UINT h = 0; h < sz[2]; ++h)
                for (UINT w = 0; w < sz[3]; ++w) {
                    size_t src = (size_t)n * is[0] + c * is[1] + h * is[2] + w;
                    size_t dst = (size_t)n * os[0] + c * os[1] + h * os[2] + w * os[3];
                    memcpy(want + dst * eb, in + src * eb, eb);
                }
    dmlcl_host_tensor hi = {in, in_bytes}, ho = {out, out_bytes};
    cr_assert_eq(dmlcl_compiled_operator_execute(cop, 1, &hi, 1, &ho), S_OK, "%s",
                 dmlcl_last_error());
    for (size_t i = 0; i < out_bytes; ++i)
        cr_assert_eq(out[i], want[i],
                     "width %zu, sizes {%u,%u,%u,%u}: byte %zu: want 0x%02x got 0x%02x", eb, sz[0],
                     sz[1], sz[2], sz[3], i, want[i], out[i]);
    free(in);
    free(out);
    free(want);
    dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
}

OPS_DEVICE_SUITE(layout);

Test(layout, nchw_to_nhwc_every_width)
{
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (UINT w = 128; w <= 257; w += 129) { /* on and off the tile */
            UINT sz[4] = {2, 5, 3, w};
            UINT os[4] = {sz[2] * sz[3] * sz[1], 1, sz[3] * sz[1], sz[1]};
            check(types[t], widths[t], sz, os);
        }
}

Test(layout, nchw_to_padded_nhwc_every_width)
{
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        UINT sz[4] = {2, 3, 2, 256};
        UINT c_pad = 4; /* channels padded to 4 in the output */
        UINT os[4] = {sz[2] * sz[3] * c_pad, 1, sz[3] * c_pad, c_pad};
        check(types[t], widths[t], sz, os);
    }
}

Test(layout, nchw_to_nhwc_vector_blocks_chunks_and_tails)
{
    /* C: whole vectors at every width (16, 48), several 128-byte chunks (144,
     * 272 bytes at width 2); H x W: 128 (whole tiles), 111 and 205 (tails). */
    static const UINT channels[] = {16, 48, 144};
    static const UINT hw[][2] = {{2, 64}, {3, 37}, {5, 41}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (size_t c = 0; c < sizeof channels / sizeof channels[0]; ++c)
            for (size_t k = 0; k < sizeof hw / sizeof hw[0]; ++k) {
                UINT sz[4] = {2, channels[c], hw[k][0], hw[k][1]};
                UINT os[4] = {sz[2] * sz[3] * sz[1], 1, sz[3] * sz[1], sz[1]};
                check(types[t], widths[t], sz, os);
            }
}

Test(layout, matrix_transpose_every_width)
{
    /* [1, 1, rows, cols] read as a transposed [cols, rows] matrix: the run
     * (cols) is far-strided in the input, rows contiguous. */
    static const UINT shapes[][2] = {{100, 72}, {200, 37}, {64, 64}, {130, 96}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
            UINT rows = shapes[k][0], cols = shapes[k][1];
            /* The input is NCHW {1, 1, cols, rows}-packed; the view walks it as
             * {1, 1, rows, cols} with strides {.., .., 1, rows}: expressed via
             * the output instead, an NCHW read into column-major output. */
            UINT sz[4] = {1, 1, rows, cols}, os[4] = {rows * cols, rows * cols, 1, rows};
            check(types[t], widths[t], sz, os);
        }
}

Test(layout, matrix_transpose_far_rows_every_width)
{
    /* Output rows (the input's contiguous dimension) 1040 and 2048 elements
     * apart: a page or more at widths 4 and 8, where register-block tiles
     * write their blocks' rows directly; whole tiles (40 columns at width 8)
     * and a narrow last one (53), a short last chunk (1040 rows). */
    static const UINT shapes[][2] = {{1040, 53}, {2048, 40}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
            UINT rows = shapes[k][0], cols = shapes[k][1];
            UINT sz[4] = {1, 1, rows, cols}, os[4] = {rows * cols, rows * cols, 1, rows};
            check(types[t], widths[t], sz, os);
        }
}

Test(layout, streaming_transposes_every_width)
{
    /* Transposes writing 2 MiB or more: non-temporal stores on CPUs from a
     * sixteenth of the device's cache (src/launch.c streams(), PoCL reports
     * 32 MiB). NCHW -> NHWC with 16 and 37 channels (more than INTERLEAVE
     * takes), H x W off the tile; a far-rows matrix with a short last chunk. */
    const size_t elements = (size_t)9 << 18; /* 2.25 Mi */
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        size_t want = elements / widths[t];
        const UINT channels[2] = {16, 37};
        for (size_t c = 0; c < 2; ++c) {
            UINT hw = 200 * 53, n = (UINT)((want + channels[c] * hw - 1) / (channels[c] * hw));
            UINT sz[4] = {n, channels[c], 200, 53};
            UINT os[4] = {channels[c] * hw, 1, 53 * channels[c], channels[c]};
            check(types[t], widths[t], sz, os);
        }
        UINT rows = 4100, cols = (UINT)(want / rows + 1);
        UINT sz[4] = {1, 1, rows, cols}, os[4] = {rows * cols, rows * cols, 1, rows};
        check(types[t], widths[t], sz, os);
    }
}

Test(layout, small_transposes_each_width)
{
    /* At each width, the smallest NCHW -> NHWC of the tests above that takes
     * each transpose: channels one whole 16-byte vector (register blocks) and
     * not (private tile), H x W one tile; and the smallest far-rows matrix.
     * Each variant once, small enough for Oclgrind. */
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        const UINT channels[2] = {(UINT)(16 / widths[t]), 5};
        for (size_t c = 0; c < 2; ++c) {
            UINT sz[4] = {1, channels[c], 2, 64};
            UINT os[4] = {sz[2] * sz[3] * sz[1], 1, sz[3] * sz[1], sz[1]};
            check(types[t], widths[t], sz, os);
        }
        if (widths[t] >= 4) {
            /* A matrix of one tile's columns, output rows a page apart (the
             * direct-rows tiles: widths 4 and 8). */
            UINT rows = (UINT)(4096 / widths[t]), cols = (UINT)(64 / widths[t]);
            UINT sz[4] = {1, 1, rows, cols}, os[4] = {rows * cols, rows * cols, 1, rows};
            check(types[t], widths[t], sz, os);
        }
    }
}

Test(layout, group_tiles_each_width)
{
    /* GPUs' work-group tiles (TRANSPOSE 3: the run in chunks of the power of
     * two that holds it, at most 32, x the rest of 1024 units along H*W), at
     * each width, small enough for Oclgrind: two chunks, the second of 5,
     * over three tiles, the last of 6 (C 37, H*W 70, two images); runs of 3
     * and 9 in one narrow tile each; 6 channels padded to 8 in the output
     * (the padding keeps its bytes); packed tiles, below. On CPUs the same
     * shapes take private tiles, INTERLEAVE, DEINTERLEAVE or the general path. */
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        const UINT shapes[][4] = {{2, 37, 1, 70}, {1, 3, 5, 20}, {1, 9, 1, 33}};
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
            const UINT *sz = shapes[s];
            UINT os[4] = {sz[2] * sz[3] * sz[1], 1, sz[3] * sz[1], sz[1]};
            check(types[t], widths[t], sz, os);
        }
        UINT sz[4] = {1, 6, 2, 40}, os[4] = {2 * 40 * 8, 1, 40 * 8, 8};
        check(types[t], widths[t], sz, os);
        /* Packed tiles: C (40) the output-contiguous run, read with stride 3,
         * the size of W (input stride 1) next to it; then W two dimensions
         * above the run H (40, read with stride 2 = W's size), C between
         * them in the output (moved next to the run on GPUs). */
        UINT psz[4] = {2, 40, 1, 3}, pos[4] = {120, 1, 120, 40};
        check(types[t], widths[t], psz, pos);
        UINT rsz[4] = {1, 2, 40, 2}, ros[4] = {160, 40, 1, 80};
        check(types[t], widths[t], rsz, ros);
    }
}
