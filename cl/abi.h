/* SPDX-License-Identifier: MIT */
/*
 * abi.h: the contract between the host (src/launch*.c, src/runtime.c) and the
 * kernels (cl/view.cl, cl/indexed.cl, cl/bands.cl, cl/map.cl): kernel argument indices and the
 * layout of the shape buffer. Plain macros, valid C and OpenCL C; the host includes this file, and
 * cmake/embed_kernels.cmake pastes it into each embedded program (OpenCL builds have no include
 * path).
 *
 * The shape buffer (one __constant long array, set once per compiled
 * operator) starts with DMLI_SHAPE_HEADER scalars (a few kernel arguments
 * instead of a dozen: each argument costs PoCL ~0.2 us per enqueue), then
 * the outer dimensions, innermost first, DMLCL_*_DIM longs each, then
 * (indexed) DMLI_COMP_LONGS per index component.
 */
#ifndef DMLI_ABI_H
#define DMLI_ABI_H

#define DMLI_SHAPE_HEADER 12

/* ---- view_copy(out, out_base, in, in_base, shape) ------------------------ */

#define DMLI_VIEW_ARG_OUT 0
#define DMLI_VIEW_ARG_OUT_BASE 1
#define DMLI_VIEW_ARG_IN 2
#define DMLI_VIEW_ARG_IN_BASE 3
#define DMLI_VIEW_ARG_SHAPE 4
#define DMLI_VIEW_ARG_COUNT 5

/* Header slots. */
#define DMLI_VIEW_OUTER_RANK 0 /* row dimensions in dims */
#define DMLI_VIEW_RUN 1        /* units in the innermost dimension */
#define DMLI_VIEW_RUN_OS 2     /* its output stride */
#define DMLI_VIEW_RUN_IS 3     /* its input stride */
#define DMLI_VIEW_CHUNK 4      /* run units per work-item (grid dimension 1) */
#define DMLI_VIEW_ROWS 5       /* product of the row sizes (TRANSPOSE: tiles) */
/* 6 and 7 are free (ScaleBias ran here before it moved to the map family). */
#define DMLI_VIEW_REP_RANK 8       /* REPEAT: repeat dimensions after the rows */
#define DMLI_VIEW_REPS 9           /* REPEAT: product of the repeat sizes */
#define DMLI_VIEW_REPS_PER_ITEM 10 /* REPEAT: repeats per work-item */
#define DMLI_VIEW_ROWS_PER_ITEM 11 /* rows (TRANSPOSE: tiles) per work-item */

/* Per dimension: {size, out stride, in stride}. TRANSPOSE appends one more
 * triple: the tiled dimension's real size and output stride, and 1. */
#define DMLI_VIEW_DIM 3

/* ---- indexed_copy(out, out_base, in, in_base, idx, idx_base, status, shape) */

#define DMLI_INDEXED_ARG_OUT 0
#define DMLI_INDEXED_ARG_OUT_BASE 1
#define DMLI_INDEXED_ARG_IN 2
#define DMLI_INDEXED_ARG_IN_BASE 3
#define DMLI_INDEXED_ARG_IDX 4
#define DMLI_INDEXED_ARG_IDX_BASE 5
#define DMLI_INDEXED_ARG_STATUS 6 /* NULL unless POLICY 2 (ERROR) */
#define DMLI_INDEXED_ARG_SHAPE 7
#define DMLI_INDEXED_ARG_COUNT 8

/* Header slots (11 is unused: both families share one header length). */
#define DMLI_INDEXED_OUTER_RANK 0
#define DMLI_INDEXED_COMP_STRIDE 1 /* index elements between tuple components */
#define DMLI_INDEXED_COMP_POS 2    /* logical index positions between components */
#define DMLI_INDEXED_RUN 3
#define DMLI_INDEXED_RUN_OS 4
#define DMLI_INDEXED_RUN_IS 5
#define DMLI_INDEXED_RUN_XS 6 /* the run's index stride */
#define DMLI_INDEXED_RUN_PS 7 /* the run's logical index position stride */
#define DMLI_INDEXED_CHUNK 8
#define DMLI_INDEXED_ROWS 9 /* product of the row sizes (TRANSPOSE: tiles) */
#define DMLI_INDEXED_ROWS_PER_ITEM 10

/* Per dimension: {size, out stride, in stride, index stride, index position
 * stride}; per component after the dims: {axis size, axis stride}. TRANSPOSE
 * (as the view's) appends one more dimension before the components: the
 * tiled dimension's real size and output stride, then 1, 0, 0. */
#define DMLI_INDEXED_DIM 5
#define DMLI_COMP_LONGS 2

/* ---- bands_copy(table, buf 0, base 0, ..., buf NBUF-1, base NBUF-1) -------
 * One dispatch for an operator's steps that walk the same rows (src/bands.c).
 * Buffer k is argument 1 + 2k, its base offset (units) 2 + 2k. The table (a
 * __constant long array, set once per compiled operator) holds the header,
 * the row sizes (innermost first), the strips, then the segments. */

#define DMLI_BANDS_ARG_TABLE 0
#define DMLI_BANDS_ARG_BUF(k) (1 + 2 * (k))
#define DMLI_BANDS_ARG_BASE(k) (2 + 2 * (k))

/* Header slots. */
#define DMLI_BANDS_STRIPS 0        /* strips per row */
#define DMLI_BANDS_ROW_RANK 1      /* row dimensions */
#define DMLI_BANDS_ROWS 2          /* product of the row sizes */
#define DMLI_BANDS_ROWS_PER_ITEM 3 /* rows per work-item */
#define DMLI_BANDS_SEGMENTS 4      /* table index of the first segment */
#define DMLI_BANDS_HEADER 5

/* Per strip: {first segment, segments, lines}: the segments' lines are
 * walked together, line by line (each segment one run per line). */
#define DMLI_BANDS_STRIP 3

/* Per segment: these, then {out stride, in stride} per row dimension. */
#define DMLI_SEG_OUT_BUF 0
#define DMLI_SEG_IN_BUF 1
#define DMLI_SEG_OUT_OFF 2 /* units */
#define DMLI_SEG_IN_OFF 3
#define DMLI_SEG_LINE_OS 4 /* between the segment's lines */
#define DMLI_SEG_LINE_IS 5
#define DMLI_SEG_RUN 6    /* units per line (output stride 1) */
#define DMLI_SEG_RUN_IS 7 /* -1, 0 or 1 */
#define DMLI_SEG_FIXED 8

/* ---- map_elementwise(out, out_base, table, in 0, base 0, ..., in NIN-1, base NIN-1) ----
 * The map family (src/map.c, src/launch_map.c): out[o] = f(in_k[view_k(o)]). Input k is
 * argument 3 + 2k, its base offset (elements) 4 + 2k. The table holds the header, then the
 * outer dimensions, innermost first, DMLI_MAP_DIM longs each: {size, out stride, the inputs'
 * strides (DMLI_MAP_INPUTS of them)}. */

#define DMLI_MAP_ARG_OUT 0
#define DMLI_MAP_ARG_OUT_BASE 1
#define DMLI_MAP_ARG_TABLE 2
#define DMLI_MAP_ARG_IN(k) (3 + 2 * (k))
#define DMLI_MAP_ARG_IN_BASE(k) (4 + 2 * (k))
#define DMLI_MAP_INPUTS 8 /* the most inputs a map reads */

/* Header slots. */
#define DMLI_MAP_OUTER_RANK 0        /* outer dimensions in the table */
#define DMLI_MAP_RUN 1               /* elements of the innermost dimension */
#define DMLI_MAP_CHUNK 2             /* run elements per work-item (GRID1: per work-group) */
#define DMLI_MAP_ROWS 3              /* product of the outer sizes */
#define DMLI_MAP_ROWS_PER_ITEM 4     /* rows per work-item (GRID1: work-groups per row) */
#define DMLI_MAP_RUN_OS 5            /* the run's output stride */
#define DMLI_MAP_RUN_IS(k) (6 + (k)) /* input k's run stride */
/* Parameter i, in the compute type (float bits, double bits, or the integer itself):
 * 0 and 1 ScaleBias's scale and bias (SCALE_BIAS), 2 to 4 the operation's own (OP: e.g. an
 * exponent, a clip's bounds), 5 to 7 the activation's alpha, beta, gamma (ACT). */
#define DMLI_MAP_PARAMS 8
#define DMLI_MAP_PARAM(i) (6 + DMLI_MAP_INPUTS + (i))
#define DMLI_MAP_HEADER (6 + DMLI_MAP_INPUTS + DMLI_MAP_PARAMS)
#define DMLI_MAP_DIM (2 + DMLI_MAP_INPUTS)
/* A chain's stages (cl/map.cl STAGES): stage 0's parameters are DMLI_MAP_PARAM(i), those of
 * stage s > 0 follow the room for DMLI_MAP_RANK_MAX - 1 outer dimensions, DMLI_MAP_PARAMS each. */
#define DMLI_MAP_STAGES 8
#define DMLI_MAP_RANK_MAX 16
#define DMLI_MAP_STAGE_PARAM(s, i)                                         \
    ((s) == 0 ? DMLI_MAP_PARAM(i)                                          \
              : DMLI_MAP_HEADER + DMLI_MAP_DIM * (DMLI_MAP_RANK_MAX - 1) + \
                    ((s)-1) * DMLI_MAP_PARAMS + (i))
/* A gather read through (cl/map.cl GATHER): the gathered axis's size and its stride in the
 * gathered input (elements), after the stages' parameters. */
#define DMLI_MAP_GATHER_N                                       \
    (DMLI_MAP_HEADER + DMLI_MAP_DIM * (DMLI_MAP_RANK_MAX - 1) + \
     (DMLI_MAP_STAGES - 1) * DMLI_MAP_PARAMS)
#define DMLI_MAP_GATHER_S (DMLI_MAP_GATHER_N + 1)

/* ---- The reduce family (cl/reduce.cl, src/launch_reduce.c) ----
 * Tensors, numbered for their strides: 0 output 0, 1 output 1, 2 + k input k. The table: a
 * header, then the kept dimensions (innermost first, the innermost one left out in COLS mode),
 * then the reduced dimensions but the innermost (the run), innermost first; DMLI_RED_DIM longs
 * each: {size, the tensors' strides (DMLI_RED_TENSORS)}. Kernel arguments: the table, then
 * each output and its base offset (elements), then each input and its base. */
#define DMLI_RED_TENSORS 6
#define DMLI_RED_ARG_TABLE 0
#define DMLI_RED_ARG_OUT(j) (1 + 2 * (j))
#define DMLI_RED_ARG_OUT_BASE(j) (2 + 2 * (j))
#define DMLI_RED_ARG_IN(nout, k) (1 + 2 * (nout) + 2 * (k))
#define DMLI_RED_ARG_IN_BASE(nout, k) (2 + 2 * (nout) + 2 * (k))

#define DMLI_RED_KEPT 0              /* kept dimensions in the table */
#define DMLI_RED_OUTER 1             /* reduced dimensions in the table (the run left out) */
#define DMLI_RED_ROWS 2              /* rows (COLS mode: groups of COLS rows, see below) */
#define DMLI_RED_N 3                 /* elements per row */
#define DMLI_RED_RUN 4               /* the innermost reduced dimension's size */
#define DMLI_RED_COLS 5              /* COLS mode: the innermost kept dimension's size */
#define DMLI_RED_RUN_S(x) (6 + (x))  /* tensor x's stride along the run */
#define DMLI_RED_COL_S(x) (12 + (x)) /* COLS mode: tensor x's stride along the columns */
#define DMLI_RED_PARAMS 8
#define DMLI_RED_PARAM(i) (18 + (i)) /* as the map's: 2-4 the operation's, 5-7 the activation's */
#define DMLI_RED_HEADER 26
#define DMLI_RED_DIM (1 + DMLI_RED_TENSORS)

/*
 * The matrix family's table (cl/gemm.cl, src/launch_gemm.c): the sizes, the strides of A, B,
 * C and the output along m, k and n (elements), alpha, beta and the activation's parameters
 * as float bits, then per batch dimension (outermost first) DMLI_GEMM_DIM longs {size, A's,
 * B's, C's and the output's stride}. Kernel arguments: the table, then A, B, C (A again when
 * there is no C) and the output, each a buffer and its base in elements; built with SPLIT 1
 * or 2 (split-K, src/launch.h dmli_compute_launch), then the scratch (float) and its base;
 * gemm_blocks built with PACKB 1, then B packed, which gemm_pack_b(table, B, B_base, packed,
 * packed_base) writes at initialization (B owned by DML).
 */
#define DMLI_GEMM_M 0
#define DMLI_GEMM_N 1
#define DMLI_GEMM_K 2
#define DMLI_GEMM_A_M 3
#define DMLI_GEMM_A_K 4
#define DMLI_GEMM_B_K 5
#define DMLI_GEMM_B_N 6
#define DMLI_GEMM_C_M 7
#define DMLI_GEMM_C_N 8
#define DMLI_GEMM_O_M 9
#define DMLI_GEMM_O_N 10
#define DMLI_GEMM_ALPHA 11
#define DMLI_GEMM_BETA 12
#define DMLI_GEMM_ACT 13 /* 13, 14, 15: g0, g1, g2 */
#define DMLI_GEMM_BATCH_RANK 16
#define DMLI_GEMM_HAS_C 17   /* 0: no C (A stands in for its argument, never read) */
#define DMLI_GEMM_SPLITS 18  /* gemm_tiles' split of k: the slices (1: none) */
#define DMLI_GEMM_SPLIT_K 19 /* ... and the k of each (whole k steps; the last the rest) */
#define DMLI_GEMM_PACK_KP 20 /* gemm_pack_b: the k rows an item packs */
#define DMLI_GEMM_B_NL 21    /* gemm_pack_b: B's columns in groups of this many (N: one group) */
#define DMLI_GEMM_B_NH 22    /* ... and B's stride from a group to the next (elements) */
#define DMLI_GEMM_HEADER 23
#define DMLI_GEMM_DIM 5
/* ---- conv (cl/conv.cl): CONVOLUTION ----------------------------------------------------------
 * conv_direct(table, out, out_base, in, in_base, filter, filter_base, bias, bias_base) and
 * conv_tiled, conv_chan, conv_gemm (the same arguments; conv_gemm built with SPLIT 1 or 2,
 * split-K, then the scratch (float) and its base; SPLIT 1 writes only the scratch; conv_chan
 * built with PACKED 1, then the filter packed, which conv_chan_pack(table, filter,
 * filter_base, packed, packed_base) writes first). Three
 * spatial dimensions always ({D, H, W}, size 1 where the operator has fewer); strides in elements,
 * the filter's signed (CONVOLUTION mode walks the filter backwards from its last element). The
 * filter offset of (group g, output channel co of the group, input channel ci of the group) is g *
 * WS_G + co * WS_CO + ci * WS_CI: FORWARD reads {Cout, Cin/G, ...}, BACKWARD {Cin, Cout/G, ...}.
 * Table slots: */
#define DMLI_CONV_N 0               /* batch */
#define DMLI_CONV_CIN_G 1           /* input channels per group */
#define DMLI_CONV_COUT_G 2          /* output channels per group */
#define DMLI_CONV_CO_BLOCKS 3       /* blocks of COB output channels per group */
#define DMLI_CONV_IN(d) (4 + (d))   /* input size along spatial d (0 D, 1 H, 2 W) */
#define DMLI_CONV_OUT(d) (7 + (d))  /* output size */
#define DMLI_CONV_K(d) (10 + (d))   /* filter size */
#define DMLI_CONV_S(d) (13 + (d))   /* convolution stride */
#define DMLI_CONV_DIL(d) (16 + (d)) /* dilation */
#define DMLI_CONV_PAD(d) (19 + (d)) /* start padding */
#define DMLI_CONV_IS_N 22           /* input strides: batch, channel, spatial */
#define DMLI_CONV_IS_C 23
#define DMLI_CONV_IS(d) (24 + (d))
#define DMLI_CONV_WS_G 27 /* filter strides: group, output channel, input channel, spatial */
#define DMLI_CONV_WS_CO 28
#define DMLI_CONV_WS_CI 29
#define DMLI_CONV_WS(d) (30 + (d))
#define DMLI_CONV_BS_C 33 /* bias stride along its channels */
#define DMLI_CONV_OS_N 34 /* output strides */
#define DMLI_CONV_OS_C 35
#define DMLI_CONV_OS(d) (36 + (d))
#define DMLI_CONV_ACT(i) (39 + (i)) /* the activation's g0, g1, g2 (float bits) */
#define DMLI_CONV_W_BLOCKS 42       /* blocks of VW output positions along W */
#define DMLI_CONV_H_BLOCKS 43       /* blocks of RB output rows along H */
#define DMLI_CONV_CIC 44            /* input channels a chunk stages (tiled, PACKW) */
#define DMLI_CONV_HAS_BIAS 45       /* 0: no bias (the bias argument binds the input) */
#define DMLI_CONV_SPLITS 46         /* conv_gemm's split of k: the slices (1: none) */
#define DMLI_CONV_SPLIT_K 47        /* ... and the k of each (whole k steps; the last the rest) */
#define DMLI_CONV_PACK_CIP 48       /* conv_chan_pack: input channels an item packs */
#define DMLI_CONV_TABLE 49

#endif /* DMLI_ABI_H */
