/* SPDX-License-Identifier: MIT */
/*
 * The tuning tables (tuning.h): one per device class, every value with where it came from.
 * "dmlcl-ab" figures are old / new ratios in alternating rounds on PoCL on the 2-core
 * development VM (AMD EPYC, 32 MiB L3) unless a GPU is named; "bench" figures are
 * `dmlcl-bench --variants` ratios against the copy limit. Values marked "heuristic" were set
 * by reasoning and have not been measured against alternatives yet.
 */
#include "tuning.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CPUs (PoCL pthread and basic; accelerators run work-items as CPUs do). */
static const dmli_tuning cpu = {
    /* 16 KiB chunks: a row slice [64,3,512,512] -> [:, :, 100:-100, :] in 39 chunks a row
     * with CHUNK_SPAN 8 ran 1.7-1.96x (dmlcl-ab); heuristic size otherwise. */
    .cpu_chunk_bytes = 16384,
    .gpu_lanes = 64,
    .gpu_chunk_per_lane = 8,
    .gpu_load_batch = 8,
    .cpu_group_rows = 64, /* heuristic */
    .groups_per_unit = 4, /* heuristic: 4 groups a compute unit keep the cores busy */
    /* A group of a row's chunks holds up to 8 consecutive chunks, so a core streams one
     * stretch: the row slice above 1.7-1.96x (dmlcl-ab). */
    .chunk_span = 8,
    /* TRANSPOSE tiles: 64 x 128 bytes beat 128 x 128 and 64 x 64 over NCHW<->NHWC u8..f64
     * and a 2-D transpose (bench); chunks under a line (32 bytes) were 10x slower with
     * non-temporal stores. */
    .transpose_side_bytes = 64,
    .transpose_chunk_bytes = 128,
    /* Input rows a page or more apart are a stream each: one line per output row halves
     * the streams: NCHW -> NHWC f32 1.11x, f16 1.44-1.58x, f64 1.04x, [32,48,112,112] 1.10x
     * (dmlcl-ab); NHWC -> NCHW (rows 256 bytes apart) 0.78x with one line, so it keeps two. */
    .transpose_far_chunk_bytes = 64,
    .transpose_far_rows = 4096,
    .group_chunk = 32,
    .group_max_rows = 8,
    /* INTERLEAVE chunks of 16 KiB of output: rows of 100 f16 positions 1.31x with aligned
     * vector stores (bench). */
    .interleave_chunk_bytes = 16384,
    /* DEINTERLEAVE: as large as leaves 16 chunks a compute unit, 16 KiB to 256 KiB: NHWC ->
     * NCHW u8 C = 3 [64,3,224,224] 0.63x the general row with 16 KiB chunks, 0.86x with
     * 64 KiB, 1.10x with whole 150 KiB rows (dmlcl-ab). */
    .deinterleave_items_per_unit = 16,
    .deinterleave_chunk_min = 16384,
    .deinterleave_chunk_max = 262144,
    /* Non-temporal stores from a quarter of the cache (as glibc's memcpy): a broadcast
     * filling 8 MiB 1.4x (plain stores better at 2-4 MiB), NCHW <-> NHWC of 3 and 4 u8
     * channels (9.6 MB) 1.2-1.6x, no workload slower (dmlcl-ab --variants,
     * dmlcl-bench-chains). Transposes from a sixteenth: the layout chain (NCHW -> NHWC,
     * slice, gather) of 1.5-6 MiB 1.0-1.5x. 32 MiB where the device reports no cache. */
    .stream_default_cache = (uint64_t)32 << 20,
    .stream_cache_divisor = 4,
    .stream_transpose_factor = 4,
    /* RUN_ONE rows 256 ahead against 16: 2-3x on rows of 8 and 16 bytes; 64 and 128
     * between, 512 and 1024 no better (dmlcl-ab). */
    .row_prefetch = 256,
    /* TRANSPOSE tiles prefetch 2 tiles ahead: 1.3-2.5x on NCHW<->NHWC and a matrix
     * transpose; 1 no different, 3 and 4 no better (dmlcl-ab). */
    .tile_prefetch_tiles = 2,
    /* SHARED_INDEX spans up to 64 KiB prefetched (heuristic bound: the L2). */
    .span_prefetch_max = 64 << 10,
    /* ROW_INDEX: rows up to 16 KiB, 16 KiB of rows ahead (1 to 16 rows): 1.1-1.45x on rows
     * of 512 B to 4 KiB, 1.16x on 16 KiB rows; 8 KiB ahead the same (dmlcl-ab). */
    .row_prefetch_max = 16384,
    .row_ahead_bytes = 16384,
    .row_ahead_max = 16,
    /* Maps: about 8 work-items a compute unit, chunks whole multiples of 64 elements:
     * ScaleBias f32 [8,1024,1024] at 0.75 of the copy limit, 0.98x the view kernel's
     * ScaleBias it replaced (dmlcl-ab --variants --filter scale-bias); not tuned further. */
    .map_items_per_unit = 8,
    /* A layout change read by a map (cl/map.cl TILE) transposed by 16 x 16 blocks of 64-byte
     * vectors where the float vectors are 16 wide (TILE16; any other value: 4 x 4 blocks of
     * 16 bytes, as elsewhere). */
    .map_tile_block16 = 1,
    .map_chunk_multiple = 64,
    .map_group = 64,
    .map_gpu_elements = 8,
    .map_gpu_groups_per_unit = 8,
    /* Reductions: 16 lanes a row (a float32 vector of AVX-512, two of AVX2); 64 columns an
     * item (COLS mode: 256 bytes of each row of float32): REDUCE SUM over axis 0 of [4096,4096]
     * 7.4 ms at 16 columns, 3.1 at 64, 3.9 at 128 (dmlcl-bench, minimums, busy machine). */
    .reduce_lanes = 16,
    .reduce_pick_lanes = 64,
    .reduce_cols = 64,
    /* COLS folds walk the rows as work-groups of up to 32 items (2048 columns of float32:
     * 8 KiB of each row), a barrier every 32 rows keeping them in step, so that each row's
     * lines are read together, not one item's 256 bytes a row at 16 KiB strides: SUM over axis
     * 0 of [4096,4096] 4.0 -> 2.65 ms (dmlcl-bench medians; groups of 16 3.25, barriers every
     * 8 rows 2.72, every 128 2.64, every row 3.21). */
    .reduce_cols_group = 32,
    .reduce_cols_sync = 32,
    /* A row's first pass prefetching ahead (RPF): none. 4 KiB ahead had measured MVN2 over
     * [4096, 768] 1.37x, the other reductions 1.02-1.09x (dmlcl-ab, the first development VM,
     * an item a row); on the second VM, with items taking rows in turn (RPI), no prefetch was
     * 1.06-1.26x faster on every row workload (layernorm-768 1.26x, softmax-attention 1.22x;
     * without RPI layernorm-768 1.20x too), and 256 bytes to 16 KiB ahead all slower
     * (0.86-1.03x): the core's own prefetcher follows a row's stream, and the items' rows in
     * turn are one stream. */
    .reduce_prefetch_bytes = 0,
    .reduce_cols_prefetch_rows = 16,
    .reduce_scan_group = 1, /* CPUs scan a row per item */
    /* ... in blocks of 16 scanned from the identity, then offset by their carries: cumsum of
     * [4096, 4096] 1.59x (dmlcl-ab against the scan in order, 2-core AMD EPYC VM; blocks of 8
     * 1.36x, of 32 1.58x; 8 interleaved segments of a row were slower than in order). */
    .reduce_scan_segments = 16,
    /* ... and float32 rows of stride 1 in vectors of the native width (1), each scanned in
     * registers, then offset by the carry (cl/reduce.cl VSCAN). */
    .reduce_scan_vector = 1,
    .reduce_rows_per_item = 8,
    .reduce_pair_max_run = 1024,
    /* A column fold (COLS) with fewer whole rows of columns than compute units, over an input
     * past a quarter of the cache: its reduced rows split into slices, an item a slice's whole
     * rows of up to this many columns, the slices' results in the temporary resource and
     * folded by a second step (launch_reduce.c dmli_reduce_split). SUM over axis 0 of
     * [4096,4096]: 0.62 of the copy limit with a core on each half of every row (8 KiB runs
     * 16 KiB apart), 0.91 with each core on its slice's whole rows (one stream). */
    .reduce_split_lanes = 4096,
    .reduce_split_bytes = 0, /* the cache rule */
    .reduce_group = 64,
    /* GEMM: a block of 6 rows x 4 vectors (24 accumulators of the device's width, 4 vectors of
     * B and A's broadcast: 29 of AVX-512's 32 registers; the launch halves the vectors where
     * the device has 16, AVX2's: 6 x 2). Per k 10 loads for 24 multiply-adds, where 8 x 2 had
     * 10 for 16: on a 2-core Xeon (AVX-512) 1024^3 1.50x, 4096 x 4096 x 1024 1.53x, the
     * projection 1.35x, attention 1.11x, the 1x1 convolution 1.33x against 8 x 2 (dmlcl-ab,
     * 2026-12-01); 5 x 4 1.43x, 4 x 6 1.40x, 6 x 3 1.39x (but 48 columns: GELU's epilogue
     * 0.44x), 12 x 2 0.92x, 14 x 2 0.95x. The GPU table's tile applies where a CPU runs the GPU
     * kernel. */
    .gemm_rows = 6,
    .gemm_vectors = 4,
    /* N within half the block (N <= 32 on AVX-512): 8 x 2, the block before 6 x 4 (16
     * accumulators), not a partial 6 x 4 through the panel path (MiniLM's probabilities times
     * V, N = 32). */
    .gemm_rows_narrow = 8,
    .gemm_dot_rows = 4,
    .gemm_dot_columns = 4,
    .gemm_dot_min_k = 256,
    .gemm_dot_blocks = 8,
    .gemm_pack_k = 128,
    .gemm_cpu_group = 8,
    .gemm_prepack_b = 1,
    /* B bound at execution, packed into the temporary resource at every dispatch from M = 64
     * where the plain kernel would read its panel (K rows of 32 floats) badly: through a
     * transposed B's strides, or rows whose addresses alias in a 2 MiB 16-way L2 (128 KiB
     * ways: 1024^3's rows 4 KiB apart fall in 32 of its 2048 sets). 1024^3 on a 2-core Xeon
     * (AVX-512): 16.9 -> 9.3 ms; [1024, 384] x [384, 1536] (rows 6 KiB apart, 6 a set) stays
     * plain: packing cost 0.13 ms of 1.07 at M = 256 (2026-12-01). */
    .gemm_pack_min_m = 64,
    /* gemm_dots' B (transposed, K >= 256) packed from 1 MiB: 768 x 768 at M = 128 0.80 -> 0.64
     * ms, 1024^3 15.3 -> 7.8; 512 x 512 at M = 256 (1 MiB, in a core's 2 MiB L2) 0.46 -> 0.52,
     * so left to gemm_dots. */
    .gemm_pack_dots_bytes = 1u << 20,
    .gemm_pack_way_bytes = 131072,
    .gemm_pack_ways = 12,
    .gemm_fold_n = 1,
    .gemm_tile_items = {16, 16},
    .gemm_tile_block = {8, 8},
    .gemm_tile_k = 8,
    .gemm_tile_k_max = 8,
    .gemm_tile_fill = 100,
    .tile_split_items = 384,
    .tile_split_steps = 16,
    .tile_split_max = 1,
    /* Pooling: 8 outputs along W an item (the window's rows loaded once for 8 outputs; two
     * float32 SSE vectors, one AVX2; 16 measured slower: max pooling 1.39 ms against 1.24,
     * global average 1.03 against 0.78-0.91); a work-item a group, but 16 for global pooling: max
     * pooling 3x3/2 [1,64,112,112] 1.07 ms median at 1, 1.8-2.0 at 16; global average
     * [8,2048,7,7] 0.61-0.64 at 16, 0.71 at 1 (dmlcl-bench, a busy 2-core VM, 16:55 UTC). */
    .pool_vec = 8,
    .pool_group = 64,
    .pool_cpu_group = 1,
    .pool_run_group = 16,
    /* Global pooling's runs in 4 lanes: [8,2048,7,7] average 0.51 ms against 0.70 in 8 and
     * 1.39 in 16 (dmlcl-bench medians, 2-core VM, 12:12 UTC; the 8 lanes' combining is scalar). */
    .pool_run_vec = 4,
    .pool_stage_taps = 0, /* GPUs only */
    /* Max pooling's bands: 512 columns, up to 16 output rows, 40 staged input rows (3x3/2:
     * 16 rows, 33 staged; heuristic, to measure). */
    .pool_band_cols = 512,
    .pool_band_rows = 16,
    .pool_band_slots = 40,
    /* Resampling: 8 outputs an item share the outer dimensions' neighbours and weights
     * (heuristic until the bench's linear x2 measures it). */
    .resample_vec = 8,
    .resample_rows = 8,
    .resample_group = 1024, /* heuristic: few groups (PoCL's cost is per group) */
    /* Bands of 32 output rows x 512 columns (cl/resample.cl BAND): linear x2 [1,64,128,128] 2.76
     * ms against 2.91 for 16 rows, 4.6 for 8; 128 columns 3.6 (dmlcl-bench medians, a noisy
     * 2-core VM, 11:06 UTC). */
    .resample_band_cols = 512,
    .resample_band_rows = 32,
    /* Scatter: a work-item writes 256 elements of the run at each walked position (its reads
     * of the updates and its writes unit-stride where the tensors are; heuristic), in groups
     * of up to 64 (PoCL's cost is per group; fewer where the compute units would go without). */
    .scatter_chunk = 256,
    .scatter_group = 64,
    .intmm_chan = 1,
    .intmm_chan_pb = 8,
    .intmm_chan_nv = 2,
    /* Convolution: 16 positions (one AVX-512 vector of float) x 16 output channels an item (16
     * of AVX-512's 32 registers accumulate), a row at a time: 3x3 at 56 x 56 with 64 channels
     * 1.39 ms against 1.68 for 8 channels x 2 rows and 1.80 for 12 x 2, the 7x7/2 stem 2.09
     * against 2.71 (dmlcl-bench minimums, shared VM, 16:45 UTC); BACKWARD 8 channels x 2 rows
     * (the transposed 4x4/2: 2.52 ms against 4.31 for 16 x 1); depthwise 16 positions x 4 rows
     * of one channel (heuristic). */
    .conv_vw = 16,
    .conv_cob = 16,
    .conv_rb = 1,
    .conv_bwd_cob = 8,
    .conv_bwd_rb = 2,
    .conv_max_cob = 16,
    .conv_dw_vw = 16,
    .conv_dw_cob = 1,
    .conv_dw_rb = 4,
    .conv_dw_tiled = 0, /* CPUs: conv_direct's depthwise block (its rows share a vector's loads) */
    .conv_dw_lx = 32,
    .conv_dw_ly = 4,
    .conv_dw_rows = 4,
    .conv_dw_lpatch = 4096,
    .conv_dw_lfilt = 1024,
    .conv_gemm = 0,
    .conv_gemm_k_max = 8,
    .conv_tiled_from_cin = 16,
    .conv_tiled = 0,
    .conv_lx = 16,
    .conv_ly = 8,
    .conv_tile_vw = 2,
    .conv_tile_cob = 2,
    .conv_lpatch = 2048,
    .conv_lfilt = 2048,
    .conv_gpu_group = 64,
    .conv_pack = 8192,
    .conv_cpu_group = 16,
    .conv_chan_pb = 8,
    .conv_chan_nv = 2,
    .conv_chan_pack = 196608,
    .conv_chan_wgs = 16,
    .conv_chan_min_group = 32,
    .conv_chan_context = 262144,
    .conv_chan_prepack = 1,
    .conv_chan_pack_wgs = 16,
};

/* GPUs: what the CPU table says where a rule applies to both, and the GPU's own. */
static const dmli_tuning gpu = {
    .cpu_chunk_bytes = 16384,
    /* 64 lanes along a run, 8 units a lane: heuristic (two warps' worth of lanes). */
    .gpu_lanes = 64,
    .gpu_chunk_per_lane = 8,
    /* An item's loads issued together before the first is used (cl/common.cl RUN_BATCH, map.cl
     * GB, reduce.cl RB): a GPU issues in order and waits at a load's first use, so a kernel
     * that stored each unit as it loaded it had one unit in flight an item (4 bytes of
     * float32): the H200 ran those loops at 0.27-0.63 of the copy, the ones moving 16 bytes a
     * load at 0.68-0.87 (2026-11-30). 8: a lane's whole share of a view's chunk. Not yet timed
     * on a GPU (gpu-check's choices time 1). */
    .gpu_load_batch = 8,
    .cpu_group_rows = 64,
    .groups_per_unit = 4,
    .chunk_span = 8,
    .transpose_side_bytes = 64,
    .transpose_chunk_bytes = 128,
    .transpose_far_chunk_bytes = 64,
    .transpose_far_rows = 4096,
    /* Group tiles (TRANSPOSE 3): chunks of at most 32 units, up to 8 tiles a group: NCHW ->
     * NHWC on an H200 went from 0.16 of a copy (f32) and 0.04 (u8) to 0.48 and 0.19 with one
     * 32 x 32 tile a group (bench, NVIDIA's OpenCL). */
    .group_chunk = 32,
    .group_max_rows = 8,
    .interleave_chunk_bytes = 16384,
    .deinterleave_items_per_unit = 16,
    .deinterleave_chunk_min = 16384,
    .deinterleave_chunk_max = 262144,
    .stream_default_cache = (uint64_t)32 << 20,
    .stream_cache_divisor = 4,
    .stream_transpose_factor = 4,
    .row_prefetch = 256,
    .tile_prefetch_tiles = 2,
    .span_prefetch_max = 64 << 10,
    .row_prefetch_max = 16384,
    .row_ahead_bytes = 16384,
    .row_ahead_max = 16,
    .map_items_per_unit = 8,
    .map_tile_block16 = 0,
    .map_chunk_multiple = 64,
    /* Maps on GPUs: groups of up to 256 along a row, up to 8 elements an item while 8 groups
     * a compute unit remain. An item per element (the first H200 run, 2026-11-28) worked out
     * its row's offsets in 64-bit divisions per element and put the run on grid dimension 1:
     * multiply 0.34 of the copy, add-bias 0.16, batch-norm + ReLU 0.09 (PyTorch 1.21, 0.79,
     * 0.50). */
    .map_group = 256,
    .map_gpu_elements = 8,
    .map_gpu_groups_per_unit = 8,
    /* Contiguous maps may load and store 16 bytes of the widest tensor's type a lane
     * (cl/map.cl GVEC, map_gpu_vector_bytes=16): the GPU memory model puts every map at whole
     * sectors but at 32 bytes a warp's request for uint8 (clip-i8), 96 for float32 to float16,
     * 128 for float32 (4 bytes a lane), where 16 bytes a lane make 512; the H200 ran those maps
     * at 0.22-0.42 of PyTorch's speed by the device's time (2026-11-30). With vectors the
     * model's loads make 512-byte requests of whole sectors, but Oclgrind reports each
     * vector store as its lanes' stores besides (sigmoid's stores at 0.40 of their sectors,
     * uint8's at 0.12), so the model cannot say; off until a GPU times it (gpu-check's
     * choices). */
    .map_gpu_vector_bytes = 0,
    /* Reductions: a row dealt to up to 256 lanes, a work-group as many folding it, halved
     * (down to 32, a warp) while a lane would take fewer than 12 elements. On an H200
     * (2026-11-30, dmlcl's time by events) a fixed 64 lanes was the best for none of the rows
     * timed: softmax over rows of 4096 0.103 ms at 64 lanes, 0.065 at 128 and 256, 0.128 at
     * 32; over rows of 128 0.027 at 64, 0.022 at 32, 0.038 at 128; layer norms over 384 0.020
     * at 64, 0.018 at 32, 0.025 at 128, over 768 0.025 at 64, 0.027 at 32, 0.031 at 128. The
     * rule gives 256, 32, 32 and 64. The lanes follow the row's length only (a variant per
     * length class): a device gives one result whatever the work-group it takes. COLS mode a
     * column an item. */
    .reduce_lanes = 256,
    .reduce_lane_elements = 12,
    .reduce_lanes_min = 32,
    .reduce_pick_lanes = 64,
    .reduce_cols = 1,
    .reduce_cols_group = 0, /* GPUs: reduce_group, no barriers */
    .reduce_cols_sync = 0,
    .reduce_prefetch_bytes = 0,
    .reduce_cols_prefetch_rows = 0,
    .reduce_group = 64,
    /* Row scans: a work-group of 256 a row, a chunk of 256 elements a step (heuristic). */
    .reduce_scan_group = 256,
    .reduce_scan_segments = 1,
    .reduce_scan_vector = 0,
    .reduce_rows_per_item = 1,
    .reduce_pair_max_run = 0,
    /* Column folds of fewer whole rows than compute units split on GPUs too, from 1 MiB of input:
     * SUM over axis 0 of [4096, 4096] took 0.27 ms on the H200 as 4096 items each walking its
     * column's 4096 rows (0.12 of the copy, PyTorch 0.037 ms); split, 128 slices of 32 rows
     * give 128 x 4096 items (not yet timed there). Any row width: an item a column. */
    .reduce_split_lanes = 1u << 30,
    .reduce_split_bytes = 1u << 20,
    /* GEMM: 16 x 16 items a group, each an 8 x 8 block read from the slabs as float4 vectors:
     * a 128 x 128 tile, k by 8 through two slabs of each operand in local memory, the block
     * halved towards 4 x 4 where the tiles would leave a compute unit without a work-group
     * (cl/gemm.cl). On an H200 the 64 x 64 tile of 4 x 4 read a float a load reached 9-12
     * TFLOP/s (2026-11-28); this tile 33 TFLOP/s on 4096 x 4096 x 1024 (1.04 ms, PyTorch 0.70),
     * 4 x 4 blocks there 1.47 ms, no shrinking (gemm_tile_fill=1) 1.04 (2026-11-30). A tile
     * shrunk to 64 x 64 takes k steps of 16 (gemm_tile_k_max): 1024^3 0.13 -> 0.11 ms. The CPU
     * block applies where a GPU runs the CPU kernel. */
    .gemm_rows = 6,
    .gemm_vectors = 2,
    .gemm_rows_narrow = 8,
    .gemm_dot_rows = 4,
    .gemm_dot_columns = 4,
    .gemm_dot_min_k = 256,
    .gemm_dot_blocks = 8,
    .gemm_pack_k = 128,
    .gemm_cpu_group = 8,
    .gemm_prepack_b = 0,
    .gemm_pack_min_m = 0,
    .gemm_pack_dots_bytes = 1u << 20,
    .gemm_pack_way_bytes = 131072,
    .gemm_pack_ways = 12,
    .gemm_fold_n = 0,
    .gemm_tile_items = {16, 16},
    .gemm_tile_block = {8, 8},
    .gemm_tile_k = 8,
    .gemm_tile_k_max = 16,
    .gemm_tile_fill = 100,
    /* Split-K (launch_gemm.c dmli_tile_split): where a product's tiles give the device fewer
     * than 384 items a compute unit (12 warps of 32), k is split into slices, each at least 16
     * k steps, at most 16 of them: each work-group's steps run one after another, each a wait
     * on global memory and a barrier, and too few warps a unit leave those waits unhidden. On
     * an H200 (2026-11-30) conv_gemm took 0.344 ms for ResNet's 3x3 at 14 x 14 in 56 groups
     * of 64 items (288 steps of 8: 1.2 us a step), 0.098 ms at 56 x 56 in 196 (72 steps: 1.4
     * us), gemm_tiles 0.083 ms for the projection [1024, 384] x [384, 1536] in 192 of 256 (48
     * steps: 1.7 us), 1024^3 0.11 ms in 256 (64 steps: 1.7 us): the time is the steps'
     * latency, not the multiply-adds. Split: 15, 4 and 2 slices for the first three (1024^3
     * and the other bench shapes have enough items). Not yet timed on a GPU. */
    .tile_split_items = 384,
    .tile_split_steps = 16,
    .tile_split_max = 16,
    /* Pooling: an output an item, 64 a group (heuristic, not yet measured on a GPU). */
    .pool_vec = 1,
    .pool_group = 64,
    .pool_cpu_group = 1,
    .pool_run_group = 16,
    .pool_run_vec = 4, /* (no RUN on GPUs: an output an item) */
    /* Global pooling of runs up to 64 elements (7 x 7, 8 x 8) through local memory: a work-group's
     * 64 outputs' span read by consecutive lanes, where an item's own run made a warp's loads
     * touch 32 runs' sectors (the GPU memory model, [2,256,7,7]: load efficiency 0.12, 7.9
     * sector requests of the unavoidable). 1: off (scripts/gpu-check). */
    .pool_stage_taps = 64,
    .pool_band_cols = 0, /* no bands: an output an item */
    .pool_band_rows = 0,
    .pool_band_slots = 0,
    /* Resampling: an output column of 4 rows an item, neighbouring items reading neighbouring
     * inputs; the 4 rows share the item's plane and column work (an H200, [1, 64, 112, 112] x 2:
     * linear 0.100 -> 0.060 ms, nearest 0.064 -> 0.030 against an output an item). */
    .resample_vec = 1,
    .resample_rows = 4,
    .resample_group = 64,    /* heuristic: two warps, as the maps */
    .resample_band_cols = 0, /* no bands: an output an item */
    .resample_band_rows = 0,
    /* Scatter: an element of the run an item, neighbouring items writing neighbouring elements
     * at each walked position; two warps a group, as the maps (heuristic). */
    .scatter_chunk = 1,
    .scatter_group = 64,
    .intmm_chan = 0,
    .intmm_chan_pb = 8,
    .intmm_chan_nv = 1,
    /* Convolution: work-group tiles of 16 x 8 items, each 2 positions x 2 channels (32 x 16
     * outputs a group), 8 KiB of input patch and 8 KiB of filter in local memory; the direct
     * kernel (BACKWARD, depthwise layers conv_dwt does not take, or no tile fits) 4 positions x
     * 4 channels an item. Heuristic: not yet measured on a GPU. Depthwise: 4 positions an item
     * (2 rows). The GPU memory model
     * (scripts/gpumodel, a 3x3 depthwise over [1,16,48,48]) puts 4 positions an item at 0.19
     * load and 0.25 store efficiency (lanes 16 bytes apart, each loading and storing floats),
     * 1 at 0.64 and 1.00, but the H200 ran conv-depthwise in 0.035-0.037 ms with 4
     * (2026-11-28) and 0.060-0.068 with 1 (2026-11-30, four runs; PyTorch 0.012 both days):
     * an item's 4 positions share its taps' loads and its filter values, and the sectors its
     * lanes leave are read by its neighbours from the cache. */
    .conv_vw = 4,
    .conv_cob = 4,
    .conv_rb = 1,
    .conv_bwd_cob = 4,
    .conv_bwd_rb = 1,
    .conv_max_cob = 8,
    .conv_dw_vw = 4,
    .conv_dw_cob = 1,
    .conv_dw_rb = 2,
    /* Depthwise layers of one plane (2-D, FORWARD): conv_dwt, a work-group of 32 x 4 items a tile
     * of 32 columns x 16 rows of one image and channel from the patch it stages in local memory
     * (each input value loaded once a work-group, not once a tap; the warps' loads and stores
     * along rows), where the patch (16 KiB) and the filters (4 KiB) fit. Heuristic from the GPU
     * memory model (a 3x3 over [1,16,48,48]: conv_direct's 0.19 load and 0.25 store efficiency,
     * 4.5 bytes in flight an item); not yet timed on a GPU (scripts/gpu-check: conv_dw_tiled=2). */
    .conv_dw_tiled = 1,
    .conv_dw_lx = 32,
    .conv_dw_ly = 4,
    .conv_dw_rows = 4,
    .conv_dw_lpatch = 4096,
    .conv_dw_lfilt = 1024,
    /* Convolutions (not depthwise) as implicit GEMMs through GEMM's tile (cl/tile.cl). On an
     * H200 (2026-11-30) against conv_tiled, an output row's positions a work-group: the stem
     * 0.04 against 0.08 ms, the transposed 4x4/2 0.05-0.06 against 0.34, 1x1 at 56 x 56 0.03
     * against 0.03, but 3x3 at 56 x 56 0.12 against 0.11 and at 14 x 14 0.42 against 0.34 (56
     * groups of 32 x 32: a split of k is what they need). Longer k steps for small tiles made
     * those two slower (k of 32: 0.14 and 0.46 ms): conv_gemm_k_max 8. The implicit GEMM stages
     * an input value once a tap, conv_tiled's patch serves every tap: FORWARD layers of stride
     * 1, several taps and 16 input channels a group or more go to conv_tiled where it fits
     * (conv_tiled_from_cin; the stem, 3 channels at stride 2, stays 2x faster as a GEMM). */
    .conv_gemm = 1,
    .conv_gemm_k_max = 8,
    .conv_tiled_from_cin = 16,
    .conv_tiled = 1,
    .conv_lx = 16,
    .conv_ly = 8,
    .conv_tile_vw = 2,
    .conv_tile_cob = 2,
    .conv_lpatch = 2048,
    .conv_lfilt = 2048,
    .conv_gpu_group = 64,
    .conv_pack = 0,
    .conv_cpu_group = 1,
    .conv_chan_pb = 0,
    .conv_chan_nv = 1,
    .conv_chan_pack = 0,
    .conv_chan_wgs = 0,
    .conv_chan_min_group = 0,
    .conv_chan_context = 0,
    .conv_chan_prepack = 0,
    .conv_chan_pack_wgs = 0,
};

/*
 * DMLCL_TUNING=name=value[,name=value...] overrides entries of both tables for the process, so
 * that one visit to a machine can time launch choices side by side (`dmlcl-ab L L --env-b
 * DMLCL_TUNING=gemm_tile_block.0=8,gemm_tile_block.1=8`) without a rebuild. The names are the
 * fields below (an array's entries as NAME.0, NAME.1); an unknown name or a value that is not
 * a positive integer is reported on stderr and ignored. A developer's variable: the library's
 * behaviour is the tables' unless it is set.
 */
#define FIELD(name)                        \
    {                                      \
#name, offsetof(dmli_tuning, name) \
    }
#define FIELD2(name)                                               \
    {#name ".0", offsetof(dmli_tuning, name)},                     \
    {                                                              \
#name ".1", offsetof(dmli_tuning, name) + sizeof(uint32_t) \
    }
static const struct {
    const char *name;
    size_t offset;
} overridable[] = {
    FIELD(gpu_lanes),
    FIELD(gpu_chunk_per_lane),
    FIELD(gpu_load_batch),
    FIELD(groups_per_unit),
    FIELD(group_chunk),
    FIELD(group_max_rows),
    FIELD(stream_cache_divisor),
    FIELD(map_items_per_unit),
    FIELD(map_tile_block16),
    FIELD(map_chunk_multiple),
    FIELD(map_group),
    FIELD(map_gpu_elements),
    FIELD(map_gpu_groups_per_unit),
    FIELD(map_gpu_vector_bytes),
    FIELD(reduce_lanes),
    FIELD(reduce_lane_elements),
    FIELD(reduce_lanes_min),
    FIELD(reduce_pick_lanes),
    FIELD(reduce_cols),
    FIELD(reduce_cols_group),
    FIELD(reduce_cols_sync),
    FIELD(reduce_prefetch_bytes),
    FIELD(reduce_cols_prefetch_rows),
    FIELD(reduce_group),
    FIELD(reduce_scan_group),
    FIELD(reduce_scan_segments),
    FIELD(reduce_scan_vector),
    FIELD(reduce_rows_per_item),
    FIELD(reduce_pair_max_run),
    FIELD(reduce_split_lanes),
    FIELD(reduce_split_bytes),
    FIELD(gemm_rows),
    FIELD(gemm_vectors),
    FIELD(gemm_rows_narrow),
    FIELD(gemm_dot_rows),
    FIELD(gemm_dot_columns),
    FIELD(gemm_dot_min_k),
    FIELD(gemm_dot_blocks),
    FIELD(gemm_pack_k),
    FIELD(gemm_cpu_group),
    FIELD(gemm_prepack_b),
    FIELD(gemm_pack_min_m),
    FIELD(gemm_pack_dots_bytes),
    FIELD(gemm_pack_way_bytes),
    FIELD(gemm_pack_ways),
    FIELD(gemm_fold_n),
    FIELD2(gemm_tile_items),
    FIELD2(gemm_tile_block),
    FIELD(gemm_tile_k),
    FIELD(gemm_tile_k_max),
    FIELD(gemm_tile_fill),
    FIELD(tile_split_items),
    FIELD(tile_split_steps),
    FIELD(tile_split_max),
    FIELD(pool_vec),
    FIELD(pool_group),
    FIELD(pool_cpu_group),
    FIELD(pool_run_group),
    FIELD(pool_run_vec),
    FIELD(pool_stage_taps),
    FIELD(pool_band_cols),
    FIELD(pool_band_rows),
    FIELD(pool_band_slots),
    FIELD(resample_vec),
    FIELD(resample_rows),
    FIELD(resample_group),
    FIELD(resample_band_cols),
    FIELD(resample_band_rows),
    FIELD(scatter_chunk),
    FIELD(scatter_group),
    FIELD(intmm_vw),
    FIELD(intmm_chan),
    FIELD(intmm_chan_pb),
    FIELD(intmm_chan_nv),
    FIELD(conv_vw),
    FIELD(conv_cob),
    FIELD(conv_rb),
    FIELD(conv_dw_vw),
    FIELD(conv_dw_cob),
    FIELD(conv_dw_rb),
    FIELD(conv_dw_tiled),
    FIELD(conv_dw_lx),
    FIELD(conv_dw_ly),
    FIELD(conv_dw_rows),
    FIELD(conv_dw_lpatch),
    FIELD(conv_dw_lfilt),
    FIELD(conv_bwd_cob),
    FIELD(conv_bwd_rb),
    FIELD(conv_max_cob),
    FIELD(conv_gemm),
    FIELD(conv_gemm_k_max),
    FIELD(conv_tiled_from_cin),
    FIELD(conv_tiled),
    FIELD(conv_lx),
    FIELD(conv_ly),
    FIELD(conv_tile_vw),
    FIELD(conv_tile_cob),
    FIELD(conv_lpatch),
    FIELD(conv_lfilt),
    FIELD(conv_gpu_group),
    FIELD(conv_pack),
    FIELD(conv_cpu_group),
    FIELD(conv_chan_pb),
    FIELD(conv_chan_nv),
    FIELD(conv_chan_pack),
    FIELD(conv_chan_wgs),
    FIELD(conv_chan_min_group),
    FIELD(conv_chan_context),
    FIELD(conv_chan_prepack),
    FIELD(conv_chan_pack_wgs),
};

static void apply(dmli_tuning *tables, const char *spec)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = 0;
        char *eq = strchr(item, '=');
        char *end = NULL;
        unsigned long v = eq ? strtoul(eq + 1, &end, 10) : 0;
        size_t i = 0, n = sizeof overridable / sizeof overridable[0];
        if (eq)
            *eq = 0;
        while (i < n && strcmp(overridable[i].name, item) != 0)
            ++i;
        if (!eq || i == n || !end || *end || v == 0 || v > UINT32_MAX) {
            fprintf(stderr,
                    "dmlcl: DMLCL_TUNING: '%s' ignored (NAME=VALUE, NAME a field of "
                    "src/tuning.h, VALUE a positive integer)\n",
                    item);
            continue;
        }
        uint32_t value = (uint32_t)v;
        for (int t = 0; t < 2; ++t)
            memcpy((char *)&tables[t] + overridable[i].offset, &value, sizeof value);
    }
}

/* The tables of each DMLCL_TUNING value seen (the variable is read at each launch decision,
 * so that dmlcl-ab's --env-b applies to one side of a comparison): parsed once, never changed
 * after, at most 64 values a process (past them the defaults: gemm/tile_configs's 10 values
 * once ran its last two on the defaults under a limit of 8). */
static struct {
    char spec[256];
    dmli_tuning tables[2];
} variants[64];
static int variant_count;
static pthread_mutex_t variants_lock = PTHREAD_MUTEX_INITIALIZER;

const dmli_tuning *dmli_tuning_for(dmlcl_device_class device_class)
{
    int t = device_class == DMLCL_DEVICE_CLASS_GPU;
    const char *spec = getenv("DMLCL_TUNING");
    if (!spec || !*spec || strlen(spec) >= sizeof variants[0].spec)
        return t ? &gpu : &cpu;
    const dmli_tuning *found = NULL;
    pthread_mutex_lock(&variants_lock);
    for (int i = 0; i < variant_count && !found; ++i)
        if (strcmp(variants[i].spec, spec) == 0)
            found = &variants[i].tables[t];
    if (!found && variant_count < (int)(sizeof variants / sizeof variants[0])) {
        int i = variant_count++;
        snprintf(variants[i].spec, sizeof variants[i].spec, "%s", spec);
        variants[i].tables[0] = cpu;
        variants[i].tables[1] = gpu;
        apply(variants[i].tables, spec);
        found = &variants[i].tables[t];
    }
    pthread_mutex_unlock(&variants_lock);
    return found ? found : t ? &gpu : &cpu;
}
