/* SPDX-License-Identifier: MIT */
/*
 * Tuning data: every launch threshold that came from a measurement, one table per device
 * class (src/tuning.c, each entry with the command and the figure that set it). The launch
 * rules (launch.c, launch_map.c) read them here and nowhere else; a rule that needs a new
 * number adds a field, and a measurement on another machine changes a value, not code.
 * Structural limits (a kernel's vector widths, GROUP_ITEMS shared with cl/transpose.cl, the
 * interleave kernel's 8 streams) are not tuning and stay where they are defined.
 */
#ifndef DMLI_TUNING_H
#define DMLI_TUNING_H

#include "internal.h"

typedef struct dmli_tuning {
    /* ---- View and indexed copies --------------------------------------------------- */
    uint32_t cpu_chunk_bytes;           /* a CPU work-item's chunk of a run, in bytes */
    uint32_t gpu_lanes;                 /* GPU work-items along a run (a power of two) */
    uint32_t gpu_chunk_per_lane;        /* GPU chunk: this many units per lane */
    uint32_t gpu_load_batch;            /* GPU: the loads an item issues before it uses the first
                                         * (lanes' runs RUN_BATCH, maps GB, reductions RB, up to
                                         * 16; 1: load, use, load ...) */
    uint32_t cpu_group_rows;            /* CPU work-group: rows per group (before the fill rule) */
    uint32_t groups_per_unit;           /* work-groups wanted per compute unit */
    uint32_t chunk_span;                /* CPU: consecutive chunks of a row in one group */
    uint32_t transpose_side_bytes;      /* TRANSPOSE tiles (CPU): bytes along the input rows */
    uint32_t transpose_chunk_bytes;     /* ... and along the run, near input rows */
    uint32_t transpose_far_chunk_bytes; /* ... far input rows (transpose_far_rows apart) */
    uint32_t transpose_far_rows;        /* bytes between input rows that are "far" */
    uint32_t group_chunk;               /* GPU group tiles: most run units per tile */
    uint32_t group_max_rows;            /* GPU group tiles: most tiles per group */
    uint32_t interleave_chunk_bytes;    /* INTERLEAVE: output bytes per chunk */
    uint32_t deinterleave_items_per_unit; /* DEINTERLEAVE: chunks wanted per compute unit */
    uint32_t deinterleave_chunk_min, deinterleave_chunk_max; /* ... bytes, bounded */
    uint64_t stream_default_cache;    /* cache size where the device reports none */
    uint32_t stream_cache_divisor;    /* non-temporal stores from cache / this (4: a quarter) */
    uint32_t stream_transpose_factor; /* transposes stream this many times sooner */
    uint32_t row_prefetch;            /* RUN_ONE: rows ahead */
    uint32_t tile_prefetch_tiles;     /* TRANSPOSE: tiles ahead */
    uint32_t span_prefetch_max;       /* SHARED_INDEX: largest gathered span prefetched */
    uint32_t row_prefetch_max;        /* ROW_INDEX: largest row prefetched */
    uint32_t row_ahead_bytes;         /* ROW_INDEX: bytes of rows ahead */
    uint32_t row_ahead_max;           /* ROW_INDEX: most rows ahead */
    /* ---- Maps ---------------------------------------------------------------------- */
    uint32_t map_items_per_unit;      /* CPU: work-items wanted per compute unit */
    uint32_t map_tile_block16;        /* CPU TILE maps: 1 16 x 16 blocks where floats are 16 wide,
                                       * any other value 4 x 4 */
    uint32_t map_chunk_multiple;      /* CPU: chunks are whole multiples of this */
    uint32_t map_group;               /* GPU: the most work-items per group along the run */
    uint32_t map_gpu_elements;        /* GPU: the most elements per work-item (a power of two) */
    uint32_t map_gpu_groups_per_unit; /* GPU: work-groups wanted per compute unit */
    uint32_t map_gpu_vector_bytes;    /* GPU, contiguous runs: an item's vector of the widest
                                       * tensor's type, in bytes (cl/map.cl GVEC; 0: none) */
    /* ---- Reductions ------------------------------------------------------------------ */
    uint32_t reduce_lanes; /* lanes a row is dealt to (a power of two; the GPU's work-group);
                            * GPUs: the most, halved by the row's length (below) */
    uint32_t reduce_lane_elements;  /* GPU: lanes halved while a lane would take fewer elements */
    uint32_t reduce_lanes_min;      /* GPU: ... down to this many (a power of two) */
    uint32_t reduce_pick_lanes;     /* CPU float picks over rows this long or more: lanes (VACC) */
    uint32_t reduce_cols;           /* CPU: rows (columns) a work-item folds at once, COLS mode */
    uint32_t reduce_cols_group;     /* CPU, COLS folds: items a work-group walks the rows with */
    uint32_t reduce_cols_sync;      /* CPU, COLS folds: rows between the group's barriers */
    uint32_t reduce_prefetch_bytes; /* CPU, rows: how far ahead a fold's first pass prefetches */
    uint32_t reduce_cols_prefetch_rows; /* CPU, columns in step: rows ahead an item prefetches */
    uint32_t reduce_group;              /* GPU: work-items per group, COLS mode and top-k */
    uint32_t reduce_scan_group;         /* GPU: a row scan's work-group (elements a chunk) */
    uint32_t reduce_scan_segments;      /* CPU: row scans' blocks (SEGS; 1: in order) */
    uint32_t reduce_scan_vector;   /* CPU: float32 row scans in vectors (VSCAN): 1 of the native
                                    * float width, 4, 8 or 16 of that many; 0 (or another): off */
    uint32_t reduce_rows_per_item; /* CPU ROWS mode: rows an item takes in turn (RPI) */
    uint32_t reduce_pair_max_run;  /* CPU float32 softmax: rows this long or less in pairs */
    uint32_t reduce_split_lanes;   /* COLS folds split into slices: widest whole row (0: never) */
    uint32_t reduce_split_bytes;   /* GPUs: ... from this many input bytes (CPUs: a quarter of
                                    * the cache) */
    /* ---- The matrix family (GEMM) ---------------------------------------------------- */
    uint32_t gemm_rows;        /* CPU: output rows of a work-item's block (MR) */
    uint32_t gemm_vectors;     /* CPU: vectors of the device's width per block row (NV) */
    uint32_t gemm_rows_narrow; /* CPU: MR of a block of half the vectors, where N fits in it */
    uint32_t gemm_dot_rows;    /* CPU, A and B along k: rows of a work-item's dot products */
    uint32_t gemm_dot_columns; /* ... and its columns (NJ) */
    uint32_t gemm_dot_min_k;   /* CPU: the dot products from this K (below: packed panels) */
    uint32_t gemm_dot_blocks;  /* ... and the blocks along n it computes in turn (DS) */
    uint32_t gemm_pack_k;      /* CPU: k rows of B's panel a work-group packs at a time */
    uint32_t gemm_cpu_group;   /* CPU: blocks a work-group computes */
    uint32_t gemm_prepack_b; /* CPU: 1: an owned B packed at initialization (gemm_pack_b); 2: not */
    uint32_t gemm_pack_min_m;      /* CPU: B bound at execution packed at every dispatch too, from
                                    * this M (0: never), where its panel would be read from the
                                    * cache at aliasing addresses or through its transposed strides */
    uint32_t gemm_pack_dots_bytes; /* ... a B gemm_dots would read, from this size (bytes) */
    uint32_t gemm_pack_way_bytes;  /* ... the cache way that rule assumes (bytes: the cache's
                                    * size over its associativity) */
    uint32_t gemm_pack_ways;       /* ... and the rows of a panel one set holds */
    uint32_t gemm_fold_n;          /* CPU: 1: a batch dimension only B moves along differently
                                    * joined to n where B is packed at every dispatch (a strided
                                    * 1x1 convolution's rows); 2: not */
    uint32_t gemm_tile_items[2];   /* GPU: work-group items along n and m (TX, TY) */
    uint32_t gemm_tile_block[2];   /* GPU: an item's outputs along n and m (WN, WM) */
    uint32_t gemm_tile_k;          /* GPU: k per staged tile (TK) of the tuned tile */
    uint32_t gemm_tile_k_max;      /* GPU: ... up to which a smaller tile's k step grows (GEMM) */
    uint32_t gemm_tile_fill;       /* GPU: work-groups per 100 compute units below which the
                                    * block shrinks */
    uint32_t tile_split_items;     /* GPU tiles (GEMM, conv_gemm): items a compute unit below which
                                    * the product's k is split across work-groups */
    uint32_t tile_split_steps;     /* ... each slice at least this many k steps */
    uint32_t tile_split_max;       /* ... into at most this many slices (1: never split) */
    /* ---- Pooling --------------------------------------------------------------------- */
    uint32_t pool_vec;        /* CPU: consecutive outputs along W per work-item (cl/pool.cl VEC) */
    uint32_t pool_group;      /* GPU: work-items per group, an output each (FLAT) */
    uint32_t pool_cpu_group;  /* CPU: work-items per group along N * C */
    uint32_t pool_run_group;  /* ... for global pooling (cl/pool.cl RUN) */
    uint32_t pool_run_vec;    /* ... the lanes its runs fold (a multiple of 4) */
    uint32_t pool_stage_taps; /* GPU: global pooling's runs up to this long staged (STAGED) */
    uint32_t pool_band_cols;  /* CPU: max pooling's bands (cl/pool.cl BAND): columns (0: none) */
    uint32_t pool_band_rows;  /* ... output rows at most */
    uint32_t pool_band_slots; /* ... input rows staged (SLOTS) */
    /* ---- Resampling -------------------------------------------------------------------- */
    uint32_t resample_vec;       /* outputs per work-item along the innermost dimension */
    uint32_t resample_rows;      /* ... times rows of dimension 3 */
    uint32_t resample_group;     /* work-items per group (at most) */
    uint32_t resample_band_cols; /* CPU: a band's columns (cl/resample.cl BAND; 0: none) */
    uint32_t resample_band_rows; /* ... and output rows */
    /* ---- Scatter (launch_scatter.c, cl/scatter.cl) ----------------------------------- */
    uint32_t scatter_chunk; /* run elements a work-item writes at each walked position */
    uint32_t scatter_group; /* work-items per group (at most) */
    /* ---- Integer matrix (launch_intmm.c, cl/intmm.cl) -------------------------------- */
    uint32_t intmm_vw;   /* CPU blocks' vector width (4, 8, 16; 0: the device's int width) */
    uint32_t intmm_chan; /* CPU: 1 convolutions take intmm_conv_chan where it fits, 0 or 2 never */
    uint32_t intmm_chan_pb; /* ... its positions a block */
    uint32_t intmm_chan_nv; /* ... its vectors of output channels (where a group has more) */
    /* ---- Convolution (launch_conv.c, cl/conv.cl) ------------------------------------- */
    uint32_t conv_vw, conv_cob, conv_rb; /* conv_direct's block: positions, channels, rows */
    uint32_t conv_dw_vw, conv_dw_cob, conv_dw_rb; /* ... for depthwise convolutions */
    uint32_t conv_bwd_cob, conv_bwd_rb;           /* ... BACKWARD's channels and rows */
    uint32_t conv_dw_tiled; /* 1: conv_dwt for FORWARD depthwise planes where it fits (else off) */
    uint32_t conv_dw_lx, conv_dw_ly;        /* ... its work-group */
    uint32_t conv_dw_rows;                  /* ... each item's output rows */
    uint32_t conv_dw_lpatch, conv_dw_lfilt; /* ... its local arrays, in floats */
    uint32_t conv_max_cob; /* most channels a block (a halved width doubles them) */
    uint32_t conv_gemm;    /* 1: conv_gemm, the implicit GEMM, where it fits (another value: off) */
    uint32_t conv_gemm_k_max; /* ... up to which a smaller tile's k step grows (gemm_tile_k_max) */
    uint32_t conv_tiled_from_cin; /* GPU: FORWARD, stride 1, taps, Cin/G this or more: conv_tiled */
    uint32_t conv_tiled;          /* 1: conv_tiled where it fits (GPUs) */
    uint32_t conv_lx, conv_ly;    /* conv_tiled's work-group */
    uint32_t conv_tile_vw, conv_tile_cob; /* ... each item's positions and channels */
    uint32_t conv_lpatch, conv_lfilt;     /* ... its local arrays, in floats */
    uint32_t conv_gpu_group;              /* GPU: conv_direct's work-group along positions */
    uint32_t conv_pack;           /* CPU: conv_direct's packed filter slice, floats (0: unpacked) */
    uint32_t conv_cpu_group;      /* CPU: ... its work-group along positions (sharing the slice) */
    uint32_t conv_chan_pb;        /* CPU: conv_chan's positions a block (0: conv_direct only) */
    uint32_t conv_chan_nv;        /* ... its vectors of output channels (where a group has more) */
    uint32_t conv_chan_pack;      /* ... its packed filter slice, floats at most */
    uint32_t conv_chan_wgs;       /* ... work-groups a compute unit it aims at */
    uint32_t conv_chan_min_group; /* ... and the fewest blocks a work-group (if as many) */
    uint32_t conv_chan_context;   /* ... its items' state across barriers, bytes a work-group */
    uint32_t conv_chan_prepack;   /* ... 1: its filter packed once a dispatch (conv_chan_pack,
                                   * into scratch); 2: staged by each work-group */
    uint32_t conv_chan_pack_wgs;  /* ... conv_chan_pack's work-groups a compute unit */
} dmli_tuning;

/* The table of a device class (DEFAULT: the CPU's). */
const dmli_tuning *dmli_tuning_for(dmlcl_device_class device_class);

/* gpu_load_batch within what the kernels unroll: 1 to 16. */
static inline uint32_t dmli_load_batch(const dmli_tuning *t)
{
    return t->gpu_load_batch < 1 ? 1 : t->gpu_load_batch > 16 ? 16 : t->gpu_load_batch;
}

#endif /* DMLI_TUNING_H */
