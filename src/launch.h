/* SPDX-License-Identifier: MIT */
/*
 * The launch layer (launch.c): from a normalised plan and a description of
 * the device to plain data: which kernel, built with which options, over
 * which grid, with which shape buffer and argument slots. Pure host code: no
 * OpenCL call, no device, so every decision is unit-tested per device class
 * (tests/unit/launch.c) and printed by DMLCL_VERBOSE.
 */
#ifndef DMLI_LAUNCH_H
#define DMLI_LAUNCH_H

#include "../cl/abi.h"
#include "internal.h"

/*
 * Non-temporal stores (STREAM) for an operator writing out_bytes on dev:
 * CPUs only, from a quarter of the device's cache on (launch.c), where the
 * output would not stay cached for a consumer anyway and plain stores would
 * read every output line first.
 */
bool dmli_launch_streams(const dmli_device_desc *dev, uint64_t out_bytes);

/*
 * A kernel variant's build options as named {macro, value} pairs, in the order a family adds
 * them; rendered once as "-cl-std=CL1.2 -DNAME=VALUE ..." (the program cache's key), and
 * readable by name (tests, DMLCL_VERBOSE). Every family's launch fills one.
 */
#define DMLI_OPTIONS_DEFS 64
typedef struct dmli_options {
    unsigned n;
    struct {
        char name[20];
        char value[28];
    } defs[DMLI_OPTIONS_DEFS];
} dmli_options;

void dmli_opt_int(dmli_options *o, const char *name, long long value);
void dmli_opt_str(dmli_options *o, const char *name, const char *value);
/* "-cl-std=CL1.2" and each pair as -DNAME=VALUE, into buf. */
void dmli_options_render(const dmli_options *o, char *buf, size_t len);
/* The value given to name, or NULL. */
const char *dmli_options_value(const dmli_options *o, const char *name);

/* Kernel argument slots (abi.h); -1 where the family has no such argument. */
typedef struct dmli_launch_args {
    int out, out_base, in, in_base, idx, idx_base, status, shape;
    int count;
} dmli_launch_args;

/* Room for every definition at its longest: rendering never truncates. */
#define DMLI_LAUNCH_OPTIONS_MAX (16 + DMLI_OPTIONS_DEFS * (4 + 20 + 28))
#define DMLI_LAUNCH_SHAPE_MAX \
    (DMLI_SHAPE_HEADER + DMLI_INDEXED_DIM * DMLI_MAX_RANK + DMLI_COMP_LONGS * DMLI_MAX_COMPONENTS)

typedef struct dmli_launch {
    dmli_kernel_source source;
    const char *kernel;                    /* "view_copy" or "indexed_copy" */
    dmli_options defs;                     /* the variant's macros */
    char options[DMLI_LAUNCH_OPTIONS_MAX]; /* rendered */

    /* The variant, each predicate decided once (options spells them out). */
    bool serial;       /* SERIAL: one lane per work-item (not on GPUs) */
    bool stream;       /* STREAM: non-temporal stores (not on GPUs) */
    int transpose;     /* TRANSPOSE: 0, 1 (private tile), 2 (register blocks) */
    bool repeat;       /* VIEW REPEAT */
    int interleave;    /* VIEW INTERLEAVE: 0, 1 (unit stores), 2 (16-byte vector stores) */
    int deinterleave;  /* VIEW DEINTERLEAVE: 0, 1 (unit stores), 2 (16-byte vector stores) */
    bool strided;      /* VIEW STRIDED: input stride 2, -1 or -2 by vectors and shuffles */
    bool shared_index; /* INDEXED SHARED_INDEX */
    bool run_one;      /* INDEXED RUN_ONE */
    int prefetch;      /* INDEXED PREFETCH: rows ahead, 1 (next row or span), 0 */
    int tile_prefetch; /* TRANSPOSE TILE_PREFETCH: tiles ahead whose lines a tile prefetches, 0 */

    /* Geometry: dimension 0 lanes, 1 chunks of the run, 2 items. */
    size_t global[3], local[3];
    int64_t chunk; /* run units per chunk */
    uint64_t rows; /* rows (TRANSPOSE: tiles; (DE)INTERLEAVE: rows of interleaved lines) */
    uint64_t reps; /* REPEAT: product of the repeat sizes, else 1 */
    uint64_t reps_per_item, rows_per_item;

    uint32_t unit; /* bytes per moved unit: binding offsets are counted in it */
    size_t shape_count;
    cl_long shape[DMLI_LAUNCH_SHAPE_MAX];
    dmli_launch_args args;
} dmli_launch;

/*
 * The launch of a normalised, non-empty plan on a device. Pure: the same
 * inputs give the same launch, and nothing else is read or written.
 */
void dmli_launch_plan(const dmli_plan *plan, const dmli_device_desc *device, dmli_launch *launch);

/*
 * Whether an indexed plan (normalised) is a gather whose inner dimensions
 * are a layout change that the indexed kernel moves in tiles on CPUs
 * (cl/indexed.cl TRANSPOSE): 0 no, 1 private tiles, 2 register blocks. The
 * graph planner reads it to fuse layout changes into gathers.
 */
int dmli_indexed_tiles(const dmli_plan *plan);

/* One line for DMLCL_VERBOSE: kernel, options, grid, rows and chunks. */
void dmli_launch_describe(const dmli_launch *launch, char *buf, size_t len);

/* ---- The map family (launch_map.c) ------------------------------------------------- */

#define DMLI_MAP_TABLE_MAX \
    (DMLI_MAP_HEADER + DMLI_MAP_DIM * DMLI_MAX_RANK + (DMLI_MAP_STAGES - 1) * DMLI_MAP_PARAMS)

/* The launch of a normalised, non-empty map: cl/map.cl's options, grid and table. */
typedef struct dmli_map_launch {
    dmli_options defs;
    char options[DMLI_LAUNCH_OPTIONS_MAX];
    size_t global[3], local[3];
    int64_t chunk;
    uint64_t rows, rows_per_item;
    size_t table_count;
    cl_long table[DMLI_MAP_TABLE_MAX];
} dmli_map_launch;

/* Pure, as dmli_launch_plan. */
void dmli_launch_map(const dmli_map *map, const dmli_device_desc *device, dmli_map_launch *launch);
/* cl/map.cl TILE: rows (consecutive along the dimension next to the run) x run positions of a
 * CPU map's tile where an input is read across the run (launch_map.c tiles()). */
#define DMLI_MAP_TILE 16
#define DMLI_MAP_TILE_RUN 128
/* Whether a CPU launches normalised map m in tiles (TILE): an input read across the run, the
 * next outer dimension's size a multiple of DMLI_MAP_TILE. */
bool dmli_map_tiles(const dmli_map *m);
/* Whether every stage of map m costs a CPU a few vector instructions an element (launch_map.c):
 * its stores then decide its speed, and non-temporal ones pay on outputs past the caches. */
bool dmli_map_memory_bound(const dmli_map *m);
/* The OpenCL C storage type of a DirectML type in the map kernel ("float", "ushort" for
 * FLOAT16, ...). */
const char *dmli_map_storage_type(DML_TENSOR_DATA_TYPE type);

/* The integer storage type of an output (launch_map.c): unsigned of the type's width, so that
 * the conversion from the compute type keeps the low bits (two's complement wrap, defined
 * behaviour in OpenCL C). */
const char *dmli_unsigned_storage_type(DML_TENSOR_DATA_TYPE type);
/* A parameter in the bits of the compute type ("float", "double", "long" or "ulong"): the float
 * or double bits of real, or integer itself (launch_map.c; the maps' and reductions' PARAM). */
cl_long dmli_param_bits(double real, int64_t integer, const char *compute);
/* v rounded to float, its bits in a table long (the compute families' float parameters). */
cl_long dmli_float_bits(double v);

/* ---- The reduce family (launch_reduce.c) --------------------------------------------- */

#define DMLI_RED_TABLE_MAX (DMLI_RED_HEADER + DMLI_RED_DIM * DMLI_MAX_RANK)

/* The launch of a normalised, non-empty reduction: cl/reduce.cl's options, grid and table. */
typedef struct dmli_reduce_launch {
    dmli_options defs;
    char options[DMLI_LAUNCH_OPTIONS_MAX];
    size_t global[3], local[3];
    bool cols;      /* COLS mode (the innermost dimension is kept) */
    uint32_t lanes; /* LANES */
    uint32_t group; /* GROUP (ROWS mode) */
    uint32_t sync;  /* CPU COLS folds: rows between a work-group's barriers (SYNC), 0: none */
    uint32_t cols_prefetch; /* with SYNC and input 0's columns of stride 1: rows ahead (CPF) */
    uint32_t
        segments;  /* CPU row scans: blocks scanned from the identity (SEGS), 0 or 1: in order */
    uint64_t rows; /* rows (COLS mode: groups of columns' other coordinates) */
    uint32_t rows_per_item; /* CPU ROWS mode: rows a work-item takes in turn (RPI), 0 or 1: one */
    uint32_t load_batch;    /* GPU folds and normalisations: a lane's loads of a pass issued
                             * before their first use (RB), 0: none */
    size_t table_count;
    cl_long table[DMLI_RED_TABLE_MAX];
} dmli_reduce_launch;

/* Pure, as dmli_launch_plan. */
void dmli_launch_reduce(const dmli_reduce *r, const dmli_device_desc *device,
                        dmli_reduce_launch *launch);

/*
 * Whether normalised reduction r runs as two steps on this device: `part` folds slices of the
 * reduced rows into a scratch tensor of the compute type (*scratch_bytes, at offset 0 of its
 * output slot 0), `comb` folds the slices' results into r's output. A column fold (its last
 * dimension kept) whose whole rows of columns are fewer than the compute units and whose input
 * passes a quarter of the cache (GPUs: reduce_split_bytes), on a device class whose tuning
 * splits (reduce_split_lanes): each slice's rows are one stream for one core, where the
 * columns shared among the cores were a run of each row apiece; on a GPU, slices times columns
 * items where there were columns. The same result within the operation's tolerance (the slices'
 * sums added in order; picks and products exact), deterministic for the device.
 */
bool dmli_reduce_split(const dmli_reduce *r, const dmli_device_desc *device, dmli_reduce *part,
                       dmli_reduce *comb, uint64_t *scratch_bytes);

/* ---- The compute families (launch_compute.c) --------------------------------------- */

/* A computed operator's kernel for a device: internal.h dmli_compute. */
typedef struct dmli_compute_launch {
    dmli_kernel_source source;
    const char *kernel; /* its name (static) */
    dmli_options defs;  /* the variant's macros (no shape: sizes go in the table) */
    char options[DMLI_LAUNCH_OPTIONS_MAX]; /* rendered by dmli_launch_compute */
    size_t table_count;
    cl_long table[DMLI_COMPUTE_TABLE_MAX];
    size_t global[3], local[3]; /* each local size divides its global size */
    /* Split-K (the GPU tile's kernels, dmli_tile_split): above 1, the product's k in `splits`
     * slices, run as two steps through split_bytes of scratch (the temporary resource): the
     * kernel built with `options` (SPLIT 1, its grid dimension 2 `splits` times `global`'s:
     * each slice's partial sums), then with `options2` (SPLIT 2, `global`: their sums in slice
     * order, then the epilogue). Its scratch argument follows the tensors' (table index
     * DMLI_*_SPLITS and DMLI_*_SPLIT_K hold the slices and the k of one). */
    uint32_t splits;
    uint64_t split_bytes;
    char options2[DMLI_LAUNCH_OPTIONS_MAX];
    /* A first step (never with a split): `pre_kernel` of the same program (`options`), over
     * pre_global / pre_local, reads tensor pre_tensor alone and writes pre_bytes of scratch
     * (its arguments: the table, the tensor and its base, the scratch and its base) that the
     * kernel then reads, bound after the tensors (conv_chan_pack's packed filter). Where that
     * tensor is an input with DML_TENSOR_FLAG_OWNED_BY_DML, the first step runs once, at
     * initialization, into the persistent resource. NULL: none. */
    const char *pre_kernel;
    uint32_t pre_tensor;
    /* ... and, where pre_two, a second tensor it reads (bound after the first: table, tensor,
     * base, tensor2, base2, scratch, base; once at initialization where both are owned). */
    bool pre_two;
    uint32_t pre_tensor2;
    size_t pre_global[3], pre_local[3];
    uint64_t pre_bytes;
    /* ... only where that tensor is owned (once, at initialization); elsewhere no first step
     * and the kernel built with options_plain (`pre_def` left out of its macros): GEMM's B
     * packed, worth its pass over B only once. */
    bool pre_owned_only;
    const char *pre_def;
    const char *kernel_plain; /* the kernel then (NULL: `kernel`), over: */
    size_t plain_global[3], plain_local[3];
    char options_plain[DMLI_LAUNCH_OPTIONS_MAX];
    /* Not empty: the device cannot run this description (DXGI_ERROR_UNSUPPORTED, this text
     * after the operator's name; the recurrent family's state past local memory). */
    char refusal[200];
} dmli_compute_launch;

/*
 * The GPU tile of cl/tile.cl (gemm_tiles, conv_gemm) for an m x n product over k, `batches` of
 * them, on a device: TX x TY items (src/tuning.c gemm_tile_items, shrunk to the device's
 * limits), a WN x WM block an item (gemm_tile_block, multiples of 4), TK (gemm_tile_k); the
 * block halved where its tile is twice the product along a side, then the block and the
 * work-group halved while the groups would leave compute units idle (gemm_tile_fill) or the two
 * slabs of each operand and local_extra bytes would not fit local memory (local_bytes: what it
 * comes to; the caller checks it where the smallest tile may not fit); then TK doubled, up to
 * k_max (gemm_tile_k_max, conv_gemm_k_max) and k, while the smaller tile's slabs hold no more
 * than the tuned tile's.
 */
typedef struct dmli_tile {
    size_t tx, ty, wn, wm, tk;
    uint64_t local_bytes;
} dmli_tile;
dmli_tile dmli_tile_choose(const dmli_device_desc *device, int64_t m, int64_t n, int64_t k,
                           uint32_t k_max, size_t batches, uint64_t local_extra);

/*
 * Split-K for tile t of a product over k whose unsplit launch has `groups` work-groups: the
 * slices (1: no split) and the k of each (*k_slice, a multiple of t's k step; the last slice
 * takes the rest). GPUs only: where the groups' items come to fewer than tile_split_items a
 * compute unit, as many slices as bring them there, at most tile_split_max, each at least
 * tile_split_steps k steps (src/tuning.c).
 */
uint32_t dmli_tile_split(const dmli_device_desc *device, const dmli_tile *t, uint64_t groups,
                         int64_t k, int64_t *k_slice);
/* The scratch a split takes: `splits` slices of every work-group's tile (TM x TN floats). */
uint64_t dmli_tile_split_bytes(const dmli_tile *t, uint64_t groups, uint32_t splits);

/* Pure: the family's launch of a non-empty computed operator, options rendered. */
void dmli_launch_compute(const dmli_compute *c, const dmli_device_desc *device,
                         dmli_compute_launch *launch);

/*
 * A graph reads compute tensor i (an input) through a view instead: its new strides, one per
 * dimension of the operator's tensor (its rank and sizes unchanged), and its offset in
 * elements. False (c unchanged) where the family does not take new strides.
 */
bool dmli_compute_restride(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset);

/* Each family's launch (its own file): fills source, kernel, defs, table and grid. */
void dmli_launch_gemm(const dmli_compute *c, const dmli_device_desc *device,
                      dmli_compute_launch *launch);
bool dmli_restride_gemm(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset);
void dmli_launch_pool(const dmli_compute *c, const dmli_device_desc *device,
                      dmli_compute_launch *launch);
bool dmli_restride_pool(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset);
void dmli_launch_resample(const dmli_compute *c, const dmli_device_desc *device,
                          dmli_compute_launch *launch);
bool dmli_restride_resample(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset);
void dmli_launch_scatter(const dmli_compute *c, const dmli_device_desc *device,
                         dmli_compute_launch *launch);
/* The recurrent family (launch_rnn.c): RNN, GRU, LSTM. */
/* The gradient family (launch_grad.c): SLICE_GRAD. */
void dmli_launch_grad(const dmli_compute *c, const dmli_device_desc *device,
                      dmli_compute_launch *l);
void dmli_launch_rnn(const dmli_compute *c, const dmli_device_desc *device, dmli_compute_launch *l);
/* The selection family (launch_misc.c): NONZERO_COORDINATES, REVERSE_SUBSEQUENCES,
 * MAX_UNPOOLING, RANDOM_GENERATOR. */
void dmli_launch_misc(const dmli_compute *c, const dmli_device_desc *device,
                      dmli_compute_launch *l);
void dmli_launch_roi(const dmli_compute *c, const dmli_device_desc *device,
                     dmli_compute_launch *launch);
/* The integer matrix family (launch_intmm.c): the integer and quantized products and
 * convolutions. */
void dmli_launch_intmm(const dmli_compute *c, const dmli_device_desc *device,
                       dmli_compute_launch *l);
/* The dynamic quantization family (launch_dynquant.c): DYNAMIC_QUANTIZE_LINEAR. */
void dmli_launch_dynquant(const dmli_compute *c, const dmli_device_desc *device,
                          dmli_compute_launch *l);
/* The attention family (launch_attention.c): MULTIHEAD_ATTENTION, MULTIHEAD_ATTENTION1. */
void dmli_launch_attention(const dmli_compute *c, const dmli_device_desc *device,
                           dmli_compute_launch *l);
/* The batch-normalization training family (launch_bnorm.c): BATCH_NORMALIZATION_TRAINING,
 * BATCH_NORMALIZATION_GRAD, BATCH_NORMALIZATION_TRAINING_GRAD. */
void dmli_launch_bnorm(const dmli_compute *c, const dmli_device_desc *device,
                       dmli_compute_launch *l);
void dmli_launch_conv(const dmli_compute *c, const dmli_device_desc *device,
                      dmli_compute_launch *launch);

/* Whether the plan's index type is signed (the kernel's IDX_SIGNED). */
bool dmli_index_type_signed(dmli_index_type type);

#endif /* DMLI_LAUNCH_H */
